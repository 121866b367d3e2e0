//! The playground page at `/playground`: a page over this server's own REST API (paraphrase candidates
//! with their scores, two providers side by side, a pair evaluated, a streamed chat, the caller's usage
//! from `/usage` as charts of spend or tokens per day and per model), its HTML, style sheet and script
//! compiled into the binary, under a content security policy that lets it load and call nothing but
//! this server and run no script but its own file.

use axum::Router;
use axum::http::{HeaderValue, header};
use axum::middleware;
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;

const PAGE: &str = include_str!("playground/index.html");
const SCRIPT: &str = include_str!("playground/playground.js");
const STYLE: &str = include_str!("playground/playground.css");
const ICON: &str = include_str!("playground/icon.svg");

/// The playground's routes. With API keys required the page shows a key field: it is public itself
/// (see `auth::is_public`), and every call it makes carries the key typed in.
pub fn routes<S: Clone + Send + Sync + 'static>(api_keys_required: bool) -> Router<S> {
    let page = PAGE.replace("{{api_keys}}", if api_keys_required { "required" } else { "off" });
    let asset = |content_type: &'static str, body: &'static str| {
        get(move || async move { ([(header::CONTENT_TYPE, content_type)], body).into_response() })
    };
    Router::new()
        .route("/playground", get(move || async move { Html(page) }))
        .route("/playground/playground.js", asset("text/javascript; charset=utf-8", SCRIPT))
        .route("/playground/playground.css", asset("text/css; charset=utf-8", STYLE))
        .route("/playground/icon.svg", asset("image/svg+xml", ICON))
        .layer(middleware::map_response(own_assets_only))
}

/// Stricter than the documentation pages' policy, which their bundles need: no inline script or
/// style, no `eval`, and requests to this server only.
const OWN_ASSETS_ONLY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; \
                               connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

async fn own_assets_only(mut response: Response) -> Response {
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(OWN_ASSETS_ONLY));
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    response
}
