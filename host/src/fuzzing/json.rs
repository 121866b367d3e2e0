//! Request bodies through the strict extractors (`rest::extract`, `rest::strict`), into every body
//! type a route takes: no panic; the extractor and `strict::from_json` agree; what the strict reading
//! accepts, serde's own reading accepts as the same value (strictness only refuses); a refusal is a
//! 400 or a 422. The form extractors of the seed's chat route likewise.

use crate::rest::error::ApiError;
use crate::rest::extract::{Form, Json, QueryAndForm};
use axum::extract::{FromRequest, Request};
use axum::http::StatusCode;
use futures::FutureExt;
use serde::de::DeserializeOwned;
use std::fmt::Debug;

/// The input: a first byte choosing the body type, then the body.
pub fn check(data: &[u8]) {
    use crate::chat::routes::{ChatBody, DialogBody};
    use crate::evaluate::routes::{EvaluateBatchBody, EvaluateBody};
    use crate::openai::types::CompletionRequest;
    use crate::paraphrase::job_routes::JobBody;
    use crate::paraphrase::routes::{BatchBody, ParaphraseBody};
    let Some((&which, body)) = data.split_first() else { return };
    match which % 11 {
        0 => json::<ParaphraseBody>(body),
        1 => json::<BatchBody>(body),
        2 => json::<JobBody>(body),
        3 => json::<EvaluateBody>(body),
        4 => json::<EvaluateBatchBody>(body),
        5 => json::<ChatBody>(body),
        6 => json::<DialogBody>(body),
        7 => json::<CompletionRequest>(body),
        8 => json::<serde_json::Value>(body),
        9 => form::<ChatBody>(body),
        _ => query_and_form::<ChatBody>(body),
    }
}

fn json<T: DeserializeOwned + Debug>(body: &[u8]) {
    let strict = crate::rest::strict::from_json::<T>(body);
    let extracted = extract::<Json<T>>(request("application/json", "/", body)).map(|Json(value)| value);
    match (&strict, &extracted) {
        (Ok(a), Ok(b)) => {
            assert_eq!(format!("{a:?}"), format!("{b:?}"), "the extractor and from_json differ")
        }
        (Err(_), Err(e)) => refused(e),
        (Ok(_), Err(e)) => panic!("from_json reads it, the extractor refuses it: {}", e.message),
        (Err(e), Ok(_)) => panic!("the extractor reads it, from_json refuses it: {e}"),
    }
    if let Ok(value) = &strict {
        let lenient: T = serde_json::from_slice(body)
            .unwrap_or_else(|e| panic!("the strict reading accepts what serde's refuses: {e}"));
        assert_eq!(format!("{value:?}"), format!("{lenient:?}"), "the strict and serde readings differ");
    }
}

fn form<T: DeserializeOwned + Debug>(body: &[u8]) {
    if let Err(e) = extract::<Form<T>>(request("application/x-www-form-urlencoded", "/", body)) {
        refused(&e);
    }
}

/// The body up to its first `\n` is the query string, the rest the form.
fn query_and_form<T: DeserializeOwned + Debug>(data: &[u8]) {
    let (query, body) = match data.iter().position(|&b| b == b'\n') {
        Some(at) => (&data[..at], &data[at + 1..]),
        None => (data, &[][..]),
    };
    let Ok(query) = std::str::from_utf8(query) else { return };
    let uri = format!("/?{query}");
    if uri.parse::<axum::http::Uri>().is_err() {
        return;
    }
    if let Err(e) = extract::<QueryAndForm<T>>(request("application/x-www-form-urlencoded", &uri, body)) {
        refused(&e);
    }
}

fn request(content_type: &str, uri: &str, body: &[u8]) -> Request {
    axum::http::Request::post(uri)
        .header("content-type", content_type)
        .body(axum::body::Body::from(body.to_vec()))
        .expect("a request")
}

/// Runs an extractor to its end: its body is in memory, so it never waits.
fn extract<E: FromRequest<(), Rejection = ApiError>>(request: Request) -> Result<E, ApiError> {
    E::from_request(request, &()).now_or_never().expect("an in-memory body is read at once")
}

fn refused(e: &ApiError) {
    assert!(
        matches!(e.status, StatusCode::BAD_REQUEST | StatusCode::UNPROCESSABLE_ENTITY),
        "a body the client sent is refused with {}: {}",
        e.status,
        e.message
    );
}
