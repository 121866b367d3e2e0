//! The OpenAPI 3.1 document of both surfaces, generated from the handlers, and the two documentation
//! pages that render it: Swagger UI at `/docs` and ReDoc at `/redoc`, with every asset served from the
//! binary so that they work without internet.

use crate::Parlance;
use axum::Router;
use axum::http::header;
use axum::response::{Html, IntoResponse};
use axum::routing::get;
use utoipa::OpenApi;
use utoipa_swagger_ui::SwaggerUi;

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Parlance",
        description = "Paraphrase generation, evaluation and character chat. Errors always have the body \
                       `{\"error\": {\"code\", \"message\"}}`."
    ),
    paths(
        crate::paraphrase::routes::paraphrase,
        crate::paraphrase::routes::paraphrase_batch,
        crate::paraphrase::routes::providers,
        crate::paraphrase::routes::cache_stats,
        super::ops::health,
        super::ops::metrics,
    ),
    tags(
        (name = "paraphrase", description = "Paraphrase generation (seed 001)"),
        (name = "operations", description = "Health, metrics and cache statistics"),
    )
)]
pub struct ApiDoc;

/// The complete document: the paraphrase surface above, plus the routes other modules add.
pub fn openapi() -> utoipa::openapi::OpenApi {
    let mut doc = ApiDoc::openapi();
    doc.merge(crate::evaluate::routes::ApiDoc::openapi());
    doc.merge(crate::chat::routes::ApiDoc::openapi());
    doc
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

pub fn routes() -> Router<Parlance> {
    let swagger: Router<Parlance> = SwaggerUi::new("/docs").url("/openapi.json", openapi()).into();
    swagger.route("/redoc", get(|| async { Html(REDOC_PAGE) })).route(
        "/redoc/redoc.standalone.js",
        get(|| async {
            ([(header::CONTENT_TYPE, "application/javascript; charset=utf-8")], REDOC_JS).into_response()
        }),
    )
}
