//! The OpenAPI 3.1 document of both surfaces, generated from the handlers, and the two documentation
//! pages that render it: Swagger UI at `/docs` and ReDoc at `/redoc`, with every asset served from the
//! binary so that they work without internet.

use crate::Parlance;
use crate::plugins::api::PluginKind;
use axum::Router;
use axum::http::header;
use axum::response::{Html, IntoResponse};
use axum::routing::get;
use utoipa::OpenApi;
use utoipa::openapi::OpenApi as OpenApiDoc;
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{Array, Object, Schema};
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

/// The complete document: the paraphrase surface above, plus the routes other modules add, with the
/// limits of this configuration written into the schemas, so that the document describes what this
/// server accepts rather than what the types alone allow.
pub fn openapi(parlance: &Parlance) -> OpenApiDoc {
    let mut doc = ApiDoc::openapi();
    doc.merge(crate::evaluate::routes::ApiDoc::openapi());
    doc.merge(crate::chat::routes::ApiDoc::openapi());
    let config = parlance.config();
    let mut providers: Vec<serde_json::Value> = parlance
        .plugins()
        .of_kind(PluginKind::Provider)
        .filter(|p| p.spec().missing_secrets().is_empty())
        .map(|p| p.id().into())
        .collect();
    providers.push(serde_json::Value::Null);
    let (p, c, e) = (&config.paraphrase, &config.chat, &config.evaluate);
    let user_id = |o: &mut Object| {
        o.min_length = Some(1);
        o.max_length = Some(crate::chat::MAX_USER_ID_CHARS);
        o.pattern = Some(visible(CONTROLS_AND_SLASH, SPACES));
    };
    let name = |o: &mut Object| {
        o.min_length = Some(1);
        o.max_length = Some(c.max_name_chars);
        o.pattern = Some(visible(CONTROLS, SPACES));
    };
    // Text that may span lines: tabs and line breaks are the only control characters allowed.
    let lines = |max: usize, required: bool| {
        move |o: &mut Object| {
            o.max_length = Some(max);
            if required {
                o.min_length = Some(1);
                o.pattern = Some(visible(CONTROLS_BUT_LINES, LINE_SPACES));
            } else {
                o.pattern = Some(format!("^[^{CONTROLS_BUT_LINES}]*$"));
            }
        }
    };
    // Any characters, but not only white space.
    let text = |max: Option<usize>| {
        move |o: &mut Object| {
            o.min_length = Some(1);
            o.max_length = max;
            o.pattern = Some(format!("^[{WHITE_SPACE}]*[^{WHITE_SPACE}][\\s\\S]*$"));
        }
    };
    let items = |min: usize, max: usize| {
        move |a: &mut Array| {
            a.min_items = Some(min);
            a.max_items = Some(max);
        }
    };
    for body in ["ParaphraseBody", "BatchBody"] {
        property(&mut doc, body, "provider", |o| o.enum_values = Some(providers.clone()));
        property(&mut doc, body, "model", text(None));
    }
    property(&mut doc, "ParaphraseBody", "text", text(Some(p.max_text_chars)));
    array(&mut doc, "BatchBody", "texts", items(1, p.batch_max_size));
    for field in ["original", "paraphrase"] {
        property(&mut doc, "EvaluateBody", field, |o| o.max_length = Some(e.max_text_chars));
    }
    for field in ["originals", "paraphrases"] {
        array(&mut doc, "EvaluateBatchBody", field, items(1, e.max_pairs));
    }
    property(&mut doc, "ChatBody", "user_id", user_id);
    property(&mut doc, "ChatBody", "message", lines(c.max_message_chars, true));
    for field in ["from_name", "to_name", "genre"] {
        property(&mut doc, "ChatBody", field, name);
    }
    property(&mut doc, "ChatBody", "situation", lines(c.max_situation_chars, false));
    array(&mut doc, "DialogBody", "dialog", items(0, c.max_history_entries));
    property(&mut doc, "Entry", "name", name);
    property(&mut doc, "Entry", "message", lines(c.max_message_chars, false));
    for item in doc.paths.paths.values_mut() {
        for operation in
            [&mut item.get, &mut item.put, &mut item.delete, &mut item.post].into_iter().flatten()
        {
            for parameter in operation.parameters.iter_mut().flatten() {
                let RefOr::T(p) = parameter else { continue };
                let Some(RefOr::T(Schema::Object(o))) = p.schema.as_mut() else { continue };
                match p.name.as_str() {
                    "user_id" => user_id(o),
                    "current-user" => client(o),
                    _ => {}
                }
            }
        }
    }
    doc
}

/// The `current-user` header: visible ASCII, inner spaces and tabs allowed. HTTP strips the spaces and
/// tabs around a header value, so the limit applies to what is left.
fn client(o: &mut Object) {
    o.min_length = Some(1);
    o.max_length = Some(crate::http::extract::MAX_CLIENT_ID_CHARS);
    o.pattern = Some("^[!-~]([\\t -~]*[!-~])?$".into());
}

// The character classes below spell out, for the documented patterns, the checks the handlers make
// with Rust's `char::is_control` (Unicode Cc) and `str::trim` (Unicode White_Space).
/// Unicode control characters.
const CONTROLS: &str = "\\u0000-\\u001F\\u007F-\\u009F";
/// Control characters and the slash, which a `user_id` may not hold.
const CONTROLS_AND_SLASH: &str = "/\\u0000-\\u001F\\u007F-\\u009F";
/// Control characters other than tab, line feed and carriage return.
const CONTROLS_BUT_LINES: &str = "\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F";
/// Unicode White_Space.
const WHITE_SPACE: &str =
    "\\t\\n\\u000B\\u000C\\r \\u0085\\u00A0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000";
/// White space that is not a control character.
const SPACES: &str = " \\u00A0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000";
/// White space allowed in text that spans lines.
const LINE_SPACES: &str = "\\t\\n\\r \\u00A0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000";

/// Text of allowed characters (none of `forbidden`) that is not only white space: leading `spaces`,
/// then one character that is neither, then the rest. The classes of the first two parts are disjoint,
/// so a backtracking matcher still runs in linear time on long input.
fn visible(forbidden: &str, spaces: &str) -> String {
    format!("^[{spaces}]*[^{forbidden}{WHITE_SPACE}][^{forbidden}]*$")
}

fn schema<'a>(doc: &'a mut OpenApiDoc, name: &str, field: &str) -> Option<&'a mut Schema> {
    let components = doc.components.as_mut()?;
    let RefOr::T(Schema::Object(object)) = components.schemas.get_mut(name)? else { return None };
    match object.properties.get_mut(field)? {
        RefOr::T(schema) => Some(schema),
        RefOr::Ref(_) => None,
    }
}

/// Applies `f` to a string property; a missing schema or property is a bug in this module's names.
fn property(doc: &mut OpenApiDoc, name: &str, field: &str, f: impl FnOnce(&mut Object)) {
    match schema(doc, name, field) {
        Some(Schema::Object(o)) => f(o),
        _ => debug_assert!(false, "no string property {name}.{field} in the OpenAPI document"),
    }
}

fn array(doc: &mut OpenApiDoc, name: &str, field: &str, f: impl FnOnce(&mut Array)) {
    match schema(doc, name, field) {
        Some(Schema::Array(a)) => f(a),
        _ => debug_assert!(false, "no array property {name}.{field} in the OpenAPI document"),
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

pub fn routes(parlance: &Parlance) -> Router<Parlance> {
    let swagger: Router<Parlance> = SwaggerUi::new("/docs").url("/openapi.json", openapi(parlance)).into();
    swagger.route("/redoc", get(|| async { Html(REDOC_PAGE) })).route(
        "/redoc/redoc.standalone.js",
        get(|| async {
            ([(header::CONTENT_TYPE, "application/javascript; charset=utf-8")], REDOC_JS).into_response()
        }),
    )
}
