//! The HTTP surfaces: one router for the paraphrase API (seed 001) and the chat API (seed 000),
//! served on both `API_PORT` and `PORT`, with the error mapping, OpenAPI documents, CORS, body limits
//! and request metrics they share.

pub mod docs;
pub mod error;
pub mod extract;
pub mod ops;

use crate::Parlance;
use axum::Router;
use axum::extract::{DefaultBodyLimit, MatchedPath, Request, State};
use axum::http::{HeaderValue, Method, StatusCode};
use axum::middleware::{self, Next};
use axum::response::Response;
use error::ApiError;
use std::net::SocketAddr;
use std::time::Instant;
use tower_http::cors::{AllowOrigin, Any, CorsLayer};

/// The whole application, kept apart from serving so that tests can call it without a socket.
pub fn app(parlance: Parlance) -> Router {
    let config = &parlance.config().server;
    let mut router = Router::new()
        .merge(crate::paraphrase::routes::routes())
        .merge(crate::evaluate::routes::routes())
        .merge(crate::chat::routes::routes())
        .merge(ops::routes())
        .merge(docs::routes(&parlance))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(config.max_body_bytes))
        .layer(middleware::from_fn_with_state(parlance.clone(), record_request));
    if config.debug {
        router = router.layer(middleware::from_fn(error::debug_causes));
    }
    if let Some(cors) = cors(&config.cors_origins) {
        router = router.layer(cors);
    }
    router.with_state(parlance)
}

fn cors(origins: &[String]) -> Option<CorsLayer> {
    if origins.is_empty() {
        return None;
    }
    let layer = CorsLayer::new().allow_methods(Any).allow_headers(Any).expose_headers(Any);
    if origins.iter().any(|o| o == "*") {
        return Some(layer.allow_origin(Any));
    }
    let list: Vec<HeaderValue> = origins.iter().filter_map(|o| HeaderValue::from_str(o).ok()).collect();
    Some(layer.allow_origin(AllowOrigin::list(list)))
}

async fn not_found(method: Method, uri: axum::http::Uri) -> ApiError {
    // A user route with nothing after its prefix is a request for the empty user_id, which deserves
    // that name rather than a bare 404.
    const USER_ROUTES: &[&str] = &[
        "/v1/user/id/",
        "/v1/user/metadata/",
        "/v1/user/dialog/json/",
        "/v1/user/dialog/str/",
        "/v1/user/dialog/",
    ];
    if USER_ROUTES.contains(&uri.path()) {
        return ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, "invalid_input", "`user_id` is empty");
    }
    if uri.path() == "/v1/user/all/id/" {
        return ApiError::bad_request("invalid_page", "the page number is missing");
    }
    ApiError::new(StatusCode::NOT_FOUND, "not_found", format!("no route for {method} {}", uri.path()))
}

async fn method_not_allowed(method: Method, uri: axum::http::Uri) -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "method_not_allowed",
        format!("{method} is not allowed on {}", uri.path()),
    )
}

/// Counts every request by its route template (not its raw path, which would explode the label
/// space) and status, and times it.
async fn record_request(State(parlance): State<Parlance>, request: Request, next: Next) -> Response {
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map(|m| m.as_str().to_owned())
        .unwrap_or_else(|| "unmatched".into());
    let method = request.method().to_string();
    let started = Instant::now();
    let response = next.run(request).await;
    let metrics = parlance.metrics();
    metrics
        .http_requests
        .get_or_create(&crate::metrics::RequestLabels {
            route: route.clone(),
            method,
            status: response.status().as_u16(),
        })
        .inc();
    metrics
        .http_duration
        .get_or_create(&crate::metrics::RouteLabels { route })
        .observe(started.elapsed().as_secs_f64());
    response
}

/// Serves the app on `API_HOST` at the paraphrase port and the chat port (once, if they are equal)
/// until Ctrl-C or SIGTERM.
pub async fn serve(parlance: Parlance, api_port: u16) -> anyhow::Result<()> {
    let host = parlance.config().server.host;
    let chat_port = parlance.config().server.chat_port;
    let app = app(parlance);
    let mut ports = vec![api_port];
    if chat_port != api_port {
        ports.push(chat_port);
    }
    let mut servers = tokio::task::JoinSet::new();
    for port in ports {
        let addr = SocketAddr::new(host, port);
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(|e| anyhow::anyhow!("cannot listen on {addr}: {e}"))?;
        tracing::info!(%addr, "listening");
        let app = app.clone().into_make_service_with_connect_info::<SocketAddr>();
        servers
            .spawn(async move { axum::serve(listener, app).with_graceful_shutdown(shutdown_signal()).await });
    }
    eprintln!("parlance: ready (paraphrase API on port {api_port}, chat API on port {chat_port})");
    while let Some(result) = servers.join_next().await {
        result??;
    }
    Ok(())
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = terminate => {},
    }
    tracing::info!("shutting down");
}
