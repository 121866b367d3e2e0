//! The OpenAPI 3.1 document of both surfaces, generated from the handlers, and the two documentation
//! pages that render it: Swagger UI at `/docs` and ReDoc at `/redoc`, with every asset served from the
//! binary, Swagger UI's online validator off, and a content security policy that keeps every request
//! on this server, so that they work without internet and send nothing outside it.

use super::state::AppState;
use axum::Router;
use axum::http::{HeaderValue, header};
use axum::middleware;
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use utoipa::OpenApi;
use utoipa::openapi::OpenApi as OpenApiDoc;
use utoipa_swagger_ui::{Config, SwaggerUi};

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Parlance",
        description = "Paraphrase generation, evaluation and character chat, and an OpenAI-compatible \
                       surface over the chat models. Errors have the body `{\"error\": {\"code\", \"message\"}}`; \
                       under `/v1/chat/` and `/v1/models`, OpenAI's `{\"error\": {\"message\", \"type\", \"param\", \"code\"}}`."
    ),
    paths(super::ops::health, super::ops::metrics),
    tags((name = "operations", description = "Health, metrics and cache statistics"))
)]
struct ApiDoc;

/// The complete document: the operations routes, and each domain's fragment with the limits of this
/// configuration written into its schemas.
pub fn openapi(state: &AppState) -> OpenApiDoc {
    let mut doc = ApiDoc::openapi();
    doc.merge(crate::paraphrase::routes::openapi(&state.paraphrase));
    doc.merge(crate::paraphrase::job_routes::openapi(&state.jobs));
    doc.merge(crate::evaluate::routes::openapi(&state.evaluate));
    doc.merge(crate::chat::routes::openapi(&state.chat));
    doc.merge(crate::openai::routes::openapi());
    doc.merge(<crate::usage::routes::ApiDoc as utoipa::OpenApi>::openapi());
    doc.merge(super::admin::openapi());
    // Every route names its caller with the same header, under the same rules.
    crate::rest::openapi::parameter(&mut doc, "current-user", crate::rest::openapi::client);
    if state.auth.is_some() {
        require_bearer(&mut doc);
    }
    doc
}

/// With API keys required, every operation but the health checks needs `Authorization: Bearer`.
fn require_bearer(doc: &mut OpenApiDoc) {
    use utoipa::openapi::security::{Http, HttpAuthScheme, SecurityRequirement, SecurityScheme};
    let components = doc.components.get_or_insert_with(Default::default);
    components.add_security_scheme("api_key", SecurityScheme::Http(Http::new(HttpAuthScheme::Bearer)));
    doc.security = Some(vec![SecurityRequirement::new("api_key", Vec::<String>::new())]);
    for (path, item) in doc.paths.paths.iter_mut() {
        if matches!(path.as_str(), "/health" | "/v1/server/status") {
            for operation in [&mut item.get].into_iter().flatten() {
                operation.security = Some(vec![SecurityRequirement::default()]);
            }
        }
    }
}

/// The pinned ReDoc bundle, fetched from npm by `scripts/setup.sh` (see `build.rs`).
const REDOC_JS: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/redoc.standalone.js"));

const REDOC_PAGE: &str = r#"<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <title>Parlance API (ReDoc)</title>
    <meta name="viewport" content="width=device-width, initial-scale=1">
  </head>
  <body>
    <redoc spec-url="/openapi.json"></redoc>
    <script src="/redoc/redoc.standalone.js"></script>
  </body>
</html>
"#;

/// The documentation routes: `/openapi.json` serving `document`, Swagger UI and ReDoc.
pub fn routes(document: OpenApiDoc) -> Router<AppState> {
    // Swagger UI sends the document's URL to validator.swagger.io whenever the page is opened by a host
    // name other than localhost; "none" turns that validator off, so the page asks nothing of the
    // internet, whoever opens it.
    let swagger: Router<AppState> = SwaggerUi::new("/docs")
        .url("/openapi.json", document)
        .config(Config::default().validator_url("none"))
        .into();
    swagger
        .route("/redoc", get(|| async { Html(REDOC_PAGE) }))
        .route(
            "/redoc/redoc.standalone.js",
            get(|| async {
                ([(header::CONTENT_TYPE, "application/javascript; charset=utf-8")], REDOC_JS).into_response()
            }),
        )
        .layer(middleware::map_response(same_origin_only))
}

/// What the documentation pages may load: anything from this server (and inline or generated code),
/// nothing from elsewhere. ReDoc's sidebar shows Redocly's logo from cdn.redoc.ly whatever its
/// options; under this policy the browser never sends that request, and the link's text remains.
const SAME_ORIGIN_ONLY: &str = "default-src 'self' data: blob: 'unsafe-inline' 'unsafe-eval'";

pub(super) async fn same_origin_only(mut response: Response) -> Response {
    response
        .headers_mut()
        .insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(SAME_ORIGIN_ONLY));
    response
}
