//! Request extractors whose rejections are this API's JSON errors (axum's own answer in plain text),
//! and the caller's identity.

use super::error::ApiError;
use super::strict::Strict;
use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, PathRejection, QueryRejection};
use axum::extract::{ConnectInfo, FromRequest, FromRequestParts, Request};
use axum::http::StatusCode;
use axum::http::request::Parts;
use serde::de::DeserializeOwned;
use std::convert::Infallible;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

/// A JSON body; malformed JSON, missing fields and wrong types are 4xx errors naming the problem, and
/// where the schema says object, only an object is read (see `strict`).
pub struct Json<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for Json<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        if !has_content_type(req.headers(), |mime| {
            mime == "application/json" || (mime.starts_with("application/") && mime.ends_with("+json"))
        }) {
            return Err(ApiError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "unsupported_media_type",
                "expected a JSON body with `Content-Type: application/json`",
            ));
        }
        let bytes = Bytes::from_request(req, state).await.map_err(|e| body_rejection(&e))?;
        let mut de = serde_json::Deserializer::from_slice(&bytes);
        let value = serde_path_to_error::deserialize(Strict(&mut de))
            .map_err(|e| json_error(&e.path().to_string(), e.inner()))?;
        de.end().map_err(|e| json_error("", &e))?;
        Ok(Json(value))
    }
}

/// A JSON body that could not be read: malformed (400), or not what the route takes (422), naming
/// where in the body.
fn json_error(path: &str, e: &serde_json::Error) -> ApiError {
    let message = match path {
        "." | "" => format!("invalid request: {e}"),
        _ => format!("invalid request: {path}: {e}"),
    };
    match e.classify() {
        serde_json::error::Category::Data => {
            ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, "invalid_body", message)
        }
        _ => ApiError::bad_request("malformed_json", message),
    }
}

/// Whether the request's `Content-Type`, without its parameters, passes `accept`.
fn has_content_type(headers: &axum::http::HeaderMap, accept: impl Fn(&str) -> bool) -> bool {
    headers
        .get(axum::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .map(|v| v.split(';').next().unwrap_or_default().trim().to_ascii_lowercase())
        .is_some_and(|mime| accept(&mime))
}

/// A form-encoded body (`application/x-www-form-urlencoded`), whose names and values must be UTF-8
/// once percent-decoded (a byte that is not is refused, never turned into U+FFFD).
pub struct Form<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for Form<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        if !has_content_type(req.headers(), |mime| mime == "application/x-www-form-urlencoded") {
            return Err(ApiError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "unsupported_media_type",
                "expected a form body with `Content-Type: application/x-www-form-urlencoded`",
            ));
        }
        let bytes = Bytes::from_request(req, state).await.map_err(|e| body_rejection(&e))?;
        check_form_utf8(&bytes, "the form body")?;
        serde_urlencoded::from_bytes(&bytes).map(Form).map_err(|e| {
            ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, "invalid_form", format!("invalid request: {e}"))
        })
    }
}

/// Fields from the query string and from a form body together, as the original chat service's
/// `POST /path` read them (Flask's `request.values`): a field given in both takes the query string's
/// value. The body may be empty (a client that sends everything in the query string); a body that is
/// not empty must be a form of `name=value` pairs.
pub struct QueryAndForm<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for QueryAndForm<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        let query = req.uri().query().unwrap_or_default().to_owned();
        check_form_utf8(query.as_bytes(), "the query string")?;
        let is_form = has_content_type(req.headers(), |mime| mime == "application/x-www-form-urlencoded");
        let content_type = req.headers().contains_key(axum::http::header::CONTENT_TYPE);
        let bytes = Bytes::from_request(req, state).await.map_err(|e| body_rejection(&e))?;
        if !bytes.is_empty() && !is_form || bytes.is_empty() && content_type && !is_form && query.is_empty() {
            return Err(ApiError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "unsupported_media_type",
                "expected a form body with `Content-Type: application/x-www-form-urlencoded`, or the fields in the query string",
            ));
        }
        check_form_utf8(&bytes, "the form body")?;
        // A bare word is not a field: a body like `hello` is text sent as a form, not a form.
        if bytes.split(|b| *b == b'&').any(|pair| !pair.is_empty() && !pair.contains(&b'=')) {
            return Err(ApiError::bad_request(
                "invalid_form",
                "the form body is not `name=value` pairs joined by `&`",
            ));
        }
        let query_fields: Vec<(String, String)> =
            form_urlencoded::parse(query.as_bytes()).into_owned().collect();
        let mut fields: Vec<(String, String)> = form_urlencoded::parse(&bytes)
            .into_owned()
            .filter(|(name, _)| !query_fields.iter().any(|(q, _)| q == name))
            .collect();
        fields.extend(query_fields);
        let merged = serde_urlencoded::to_string(&fields)
            .map_err(|e| ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, "invalid_form", e.to_string()))?;
        serde_urlencoded::from_str(&merged).map(QueryAndForm).map_err(|e| {
            ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, "invalid_form", format!("invalid request: {e}"))
        })
    }
}

/// Refuses form data with a name or value that is not UTF-8 once percent-decoded.
pub fn check_form_utf8(data: &[u8], what: &str) -> Result<(), ApiError> {
    for pair in data.split(|b| *b == b'&') {
        for part in pair.splitn(2, |b| *b == b'=') {
            let plus_as_space: Vec<u8> = part.iter().map(|b| if *b == b'+' { b' ' } else { *b }).collect();
            let decoded: Vec<u8> = percent_encoding::percent_decode(&plus_as_space).collect();
            if std::str::from_utf8(&decoded).is_err() {
                return Err(ApiError::bad_request(
                    "invalid_form",
                    format!("{what} holds a name or value that is not valid UTF-8 once percent-decoded"),
                ));
            }
        }
    }
    Ok(())
}

/// Path parameters; a page that is not a number, say, is a 400 naming the parameter.
pub struct Path<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned + Send> FromRequestParts<S> for Path<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        match axum::extract::Path::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Path(value)) => Ok(Path(value)),
            Err(PathRejection::FailedToDeserializePathParams(e)) => {
                Err(ApiError::bad_request("invalid_path_parameter", detail(&e.body_text())))
            }
            Err(other) => Err(ApiError::bad_request("invalid_path_parameter", other.body_text())),
        }
    }
}

/// Query parameters.
pub struct Query<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequestParts<S> for Query<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        match axum::extract::Query::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Query(value)) => Ok(Query(value)),
            Err(QueryRejection::FailedToDeserializeQueryString(e)) => {
                Err(ApiError::bad_request("invalid_query", detail(&e.body_text())))
            }
            Err(other) => Err(ApiError::bad_request("invalid_query", other.body_text())),
        }
    }
}

/// The error a request body gives when its client did not send it within the server's body timeout.
#[derive(Debug, thiserror::Error)]
#[error("the request body did not arrive within {} s", .0.as_secs())]
pub struct BodyTimeout(pub std::time::Duration);

/// The error a chunked request body gives when it carries trailer fields, which no route reads.
#[derive(Debug, thiserror::Error)]
#[error("a request body with trailer fields is not accepted; send the body without them")]
pub struct TrailersRefused;

/// A body that could not be read: too large (413), too slow (408), with trailers (400), or cut off.
fn body_rejection(e: &BytesRejection) -> ApiError {
    let mut cause: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(current) = cause {
        if let Some(timeout) = current.downcast_ref::<BodyTimeout>() {
            return ApiError::new(StatusCode::REQUEST_TIMEOUT, "request_timeout", timeout.to_string());
        }
        if let Some(refused) = current.downcast_ref::<TrailersRefused>() {
            return ApiError::bad_request("invalid_body", refused.to_string());
        }
        cause = current.source();
    }
    if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
        ApiError::new(e.status(), "payload_too_large", "the request body is larger than the server accepts")
    } else {
        ApiError::new(e.status(), "invalid_body", e.body_text())
    }
}

/// axum's messages start with a generic sentence; the part after it names the field and the problem.
fn detail(text: &str) -> String {
    match text.split_once(": ") {
        Some((_, rest)) if !rest.is_empty() => format!("invalid request: {rest}"),
        _ => text.to_owned(),
    }
}

/// The longest client identity accepted in `current-user` (the one a key may be bound to).
pub const MAX_CLIENT_ID_CHARS: usize = crate::store::keys::MAX_CLIENT_CHARS;

/// The client id used when a request has no `current-user` header (seed 000 leaves it unnamed).
pub const DEFAULT_CLIENT_ID: &str = "default";

/// The client an API key acts as, put on the request by the key check when keys are required; the
/// [`Caller`] is then that client, whatever the request's headers say.
#[derive(Clone, Debug)]
pub struct AuthenticatedClient(pub Arc<str>);

/// The key a request presented, put on it beside [`AuthenticatedClient`] by the key check: its id
/// and its limits as the check last read them (at most `[auth] cache_secs` old), for what enforces them.
#[derive(Clone, Debug)]
pub struct AuthenticatedKey {
    pub id: Arc<str>,
    pub limits: Arc<crate::store::keys::KeyLimits>,
}

/// The request presented the admin credential (`[admin]`): put on it by `http::admin::AdminGate`,
/// on any route. With API keys required, only `/admin/` and `/usage` routes see it (the key check
/// refuses the admin credential elsewhere). Take it as `Option<Admin>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Admin;

impl<S: Send + Sync> axum::extract::OptionalFromRequestParts<S> for Admin {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Option<Self>, Infallible> {
        Ok(parts.extensions.get::<Admin>().copied())
    }
}

/// Who is calling: the `current-user` header when present (or the API key's client), and the peer
/// address.
#[derive(Clone, Debug)]
pub struct Caller {
    pub header: Option<String>,
    pub peer: Option<IpAddr>,
}

impl Caller {
    /// The tenant whose users and dialogs a chat request sees.
    pub fn tenant(&self) -> &str {
        self.header.as_deref().unwrap_or(DEFAULT_CLIENT_ID)
    }

    /// The identity rate limits are kept for: the header if present, else the peer address.
    pub fn rate_key(&self) -> String {
        match (&self.header, &self.peer) {
            (Some(h), _) => format!("client:{h}"),
            (None, Some(ip)) => format!("ip:{ip}"),
            (None, None) => "ip:unknown".into(),
        }
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, ApiError> {
        let peer = parts.extensions.get::<ConnectInfo<SocketAddr>>().map(|c| c.0.ip());
        if let Some(AuthenticatedClient(client)) = parts.extensions.get::<AuthenticatedClient>() {
            return Ok(Caller { header: Some(client.to_string()), peer });
        }
        let mut values = parts.headers.get_all("current-user").iter();
        if let (Some(_), Some(_)) = (values.next(), values.next()) {
            // Which one a proxy or a server would take differs; the client must say which it means.
            return Err(ApiError::bad_request(
                "invalid_client",
                "the `current-user` header is given more than once",
            ));
        }
        let header = match parts.headers.get("current-user") {
            None => None,
            Some(value) => {
                let text = value.to_str().map_err(|_| {
                    ApiError::bad_request(
                        "invalid_client",
                        "the `current-user` header must be visible ASCII text",
                    )
                })?;
                let text = text.trim();
                if text.is_empty() {
                    return Err(ApiError::bad_request(
                        "invalid_client",
                        "the `current-user` header is empty",
                    ));
                }
                if text.chars().count() > MAX_CLIENT_ID_CHARS {
                    return Err(ApiError::bad_request(
                        "invalid_client",
                        format!("the `current-user` header is longer than {MAX_CLIENT_ID_CHARS} characters"),
                    ));
                }
                Some(text.to_owned())
            }
        };
        Ok(Caller { header, peer })
    }
}
