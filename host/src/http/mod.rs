//! The HTTP transport: one router for the paraphrase API (seed 001), the chat API (seed 000) and the
//! OpenAI-compatible surface, assembled from the routes each domain owns, served on both `API_PORT`
//! and `PORT`, with the fallbacks, OpenAPI documents, CORS, body limits and request metrics they share.

pub mod admin;
pub mod auth;
pub mod docs;
pub mod generations;
pub mod listener;
mod manual;
pub mod ops;
mod playground;
mod scope;
mod settings;
mod state;

pub use admin::AdminConfig;
pub use auth::AuthConfig;
pub use settings::ServerConfig;
pub use state::AppState;

use crate::metrics::Metrics;
use crate::rest::ApiError;
use crate::telemetry::WithSpan;
use axum::Router;
use axum::extract::{DefaultBodyLimit, MatchedPath, Request};
use axum::http::{HeaderValue, Method, StatusCode};
use axum::middleware;
use axum::response::Response;
use futures::future::BoxFuture;
use std::convert::Infallible;
use std::io::Write as _;
use std::net::SocketAddr;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Instant;
use tower::{Layer, Service};
use tower_http::cors::{AllowOrigin, Any, CorsLayer};

/// The whole application, kept apart from serving so that tests can call it without a socket.
pub fn app(state: AppState) -> Router {
    let config = state.server.clone();
    let document = docs::openapi(&state);
    expect_documented_responses(&state.metrics, &document);
    let mut router = Router::new()
        .merge(crate::paraphrase::routes::routes())
        .merge(crate::paraphrase::job_routes::routes())
        .merge(crate::evaluate::routes::routes())
        .merge(crate::chat::routes::routes())
        .merge(crate::openai::routes::routes())
        .merge(crate::usage::routes::routes())
        .merge(ops::routes())
        .merge(admin::routes())
        .merge(docs::routes(document))
        .merge(manual::routes())
        .merge(playground::routes(state.auth.is_some()))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(config.max_body_bytes()))
        // Inside the key check, which tells it the key.
        .layer(scope::Scoped);
    // The key check runs inside the request metrics, so refused requests are counted too.
    if let Some(auth) = &state.auth {
        router = router.layer(auth::RequireKey(auth.clone()));
    }
    // Outside the key check, which lets a request the gate marked as the admin's through only where
    // the admin is admitted.
    router = router.layer(admin::AdminGate(state.admin.clone()));
    router = router.layer(RecordRequests(state.metrics.clone()));
    if config.debug {
        router = router.layer(middleware::from_fn(crate::rest::error::debug_causes));
    }
    // Outside the key check and the debug causes, so that every error under the OpenAI paths, the
    // ones answered before a handler runs too, reaches its clients in OpenAI's shape.
    router = router.layer(crate::openai::error::OpenAiErrors);
    if let Some(cors) = cors(&config.cors_origins) {
        router = router.layer(cors);
    }
    router.with_state(state)
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
    ApiError::new(StatusCode::NOT_FOUND, "not_found", format!("no route for {method} {}", uri.path()))
}

async fn method_not_allowed(method: Method, uri: axum::http::Uri) -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "method_not_allowed",
        format!("{method} is not allowed on {}", uri.path()),
    )
}

/// Exposes a zero request count for every route, method and status the document declares, so that a
/// scraper sees each series from the start rather than after its first request.
fn expect_documented_responses(metrics: &Metrics, document: &utoipa::openapi::OpenApi) {
    for (route, item) in &document.paths.paths {
        let operations = [
            ("GET", &item.get),
            ("PUT", &item.put),
            ("POST", &item.post),
            ("DELETE", &item.delete),
            ("PATCH", &item.patch),
        ];
        for (method, operation) in operations {
            let Some(operation) = operation else { continue };
            for status in operation.responses.responses.keys().filter_map(|s| s.parse::<u16>().ok()) {
                metrics.expect_route(route, method, status);
            }
        }
    }
}

/// Counts every request by its route template (not its raw path: unmatched requests share one label),
/// method and status, and times it; every label comes from a closed set. A layer of its own rather
/// than an axum `from_fn` middleware, which boxes the rest of the stack for every request.
#[derive(Clone)]
struct RecordRequests(Arc<Metrics>);

impl<S> Layer<S> for RecordRequests {
    type Service = RecordRequestsService<S>;

    fn layer(&self, inner: S) -> Self::Service {
        RecordRequestsService { metrics: self.0.clone(), inner }
    }
}

#[derive(Clone)]
struct RecordRequestsService<S> {
    metrics: Arc<Metrics>,
    inner: S,
}

impl<S> Service<Request> for RecordRequestsService<S>
where
    S: Service<Request, Response = Response, Error = Infallible>,
    S::Future: Send + 'static,
{
    type Response = Response;
    type Error = Infallible;
    type Future = BoxFuture<'static, Result<Response, Infallible>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request) -> Self::Future {
        let route = request.extensions().get::<MatchedPath>().map_or("unmatched", |m| m.as_str()).to_owned();
        let method = method_label(request.method());
        let started = Instant::now();
        let metrics = self.metrics.clone();
        // The request's span, the root of its trace or the continuation of the caller's.
        let span = crate::telemetry::root_span!(
            Some(request.headers()),
            format!("{method} {route}"),
            Server,
            "http.request.method" => method,
            "http.route" => route.clone(),
        );
        let response = self.inner.call(request).in_span(span.clone());
        Box::pin(async move {
            let response = response.await?;
            let status = response.status();
            span.set_attribute("http.response.status_code", i64::from(status.as_u16()));
            if status.is_server_error() {
                span.set_error(status.as_str().to_owned());
            }
            let labels = crate::metrics::RequestLabels {
                route,
                method: method.to_owned(),
                status: response.status().as_u16(),
            };
            metrics.http_requests.get_or_create(&labels).inc();
            let route = crate::metrics::RouteLabels { route: labels.route };
            metrics.http_duration.get_or_create(&route).observe(started.elapsed().as_secs_f64());
            Ok(response)
        })
    }
}

/// A request's method as a metrics label: the standard methods by name, anything else as `OTHER`,
/// so that clients cannot grow the label space (and `/metrics`) by inventing methods.
fn method_label(method: &Method) -> &'static str {
    match *method {
        Method::GET => "GET",
        Method::POST => "POST",
        Method::PUT => "PUT",
        Method::DELETE => "DELETE",
        Method::HEAD => "HEAD",
        Method::OPTIONS => "OPTIONS",
        Method::PATCH => "PATCH",
        Method::TRACE => "TRACE",
        Method::CONNECT => "CONNECT",
        _ => "OTHER",
    }
}

/// Serves the generation in force on `API_HOST` at the paraphrase port and the chat port (once, if
/// they are equal) until Ctrl-C or SIGTERM; `state` is the first generation's, whose listeners and job
/// runner every generation shares.
pub async fn serve(
    state: AppState,
    generations: generations::Generations,
    api_port: u16,
) -> anyhow::Result<()> {
    let host = state.server.host;
    let chat_port = state.server.chat_port;
    let limits = state.server.listener_limits();
    state.jobs.start();
    let app = Router::new().fallback_service(generations);
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
        tracing::info!(%addr, max_connections = limits.max_connections, "listening");
        servers.spawn(listener::serve(listener, app.clone(), limits, shutdown_signal()));
    }
    // For a person watching the terminal. A stderr that cannot be written (the log's disk is full, its
    // pipe closed) must not stop a server that is ready, as `eprintln!` would by panicking; the log's
    // own lines are dropped the same way.
    let _ = writeln!(
        std::io::stderr(),
        "parlance: ready (paraphrase API on port {api_port}, chat API on port {chat_port})"
    );
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
