//! Errors in OpenAI's shape, `{"error": {"message", "type", "param", "code"}}`, with the statuses the
//! official clients turn into their typed exceptions; and the layer that gives the same shape to the
//! errors answered before a handler runs (a missing API key, an unknown route) under `/v1/chat/` and
//! `/v1/models`, so that a client of this surface never sees the house shape.

use super::types::{OpenAiError, OpenAiErrorBody};
use crate::error::Error;
use crate::rest::ApiError;
use axum::body::Body;
use axum::extract::Request;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use futures::future::{BoxFuture, Either};
use http_body_util::BodyExt;
use std::convert::Infallible;
use std::task::{Context, Poll};
use tower::{Layer, Service};

/// A failed request of the OpenAI surface: the house error, and the request field at fault.
#[derive(Debug)]
pub struct Failure {
    /// Boxed: a failure travels through every `Result` of the surface, which should stay small.
    pub api: Box<ApiError>,
    pub param: Option<String>,
}

impl Failure {
    pub fn bad_request(code: &'static str, param: impl Into<String>, message: impl Into<String>) -> Self {
        Failure { api: Box::new(ApiError::bad_request(code, message)), param: Some(param.into()) }
    }

    /// OpenAI's own answer for a model it does not serve.
    pub fn model_not_found(model: &str) -> Self {
        let message =
            format!("The model `{model}` does not exist: GET /v1/models lists this server's chat models");
        Failure {
            api: Box::new(ApiError::new(StatusCode::NOT_FOUND, "model_not_found", message)),
            param: Some("model".into()),
        }
    }

    /// The body, for an error sent as the last event of a stream.
    pub fn body(&self) -> OpenAiErrorBody {
        body(self.api.status, self.api.code, &self.api.message, self.param.clone())
    }
}

impl From<ApiError> for Failure {
    fn from(api: ApiError) -> Self {
        Failure { api: Box::new(api), param: None }
    }
}

/// The library's errors, as on every route, but for the plugin that `model` names, which this
/// surface reports as OpenAI does: unknown is 404 `model_not_found`, and one whose secret is missing
/// cannot serve until the operator sets it, 503 `model_unavailable`.
impl From<Error> for Failure {
    fn from(e: Error) -> Self {
        match &e {
            Error::UnknownPlugin { id, .. } => Failure::model_not_found(id),
            Error::PluginUnavailable { .. } => Failure {
                api: Box::new(ApiError::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "model_unavailable",
                    e.to_string(),
                )),
                param: Some("model".into()),
            },
            Error::InvalidInput { field, .. } => {
                Failure { param: Some((*field).to_owned()), api: Box::new(ApiError::from_error(&e)) }
            }
            _ => Failure { api: Box::new(ApiError::from_error(&e)), param: None },
        }
    }
}

impl IntoResponse for Failure {
    fn into_response(self) -> Response {
        let api = *self.api;
        let body = body(api.status, api.code, &api.message, self.param);
        let mut response = (api.status, axum::Json(body)).into_response();
        let headers = response.headers_mut();
        if let Some(secs) = api.retry_after_secs {
            headers.insert(header::RETRY_AFTER, HeaderValue::from(secs));
        }
        for (name, value) in api.headers {
            if let Ok(value) = HeaderValue::from_str(&value) {
                headers.insert(name, value);
            }
        }
        if api.status == StatusCode::UNAUTHORIZED {
            headers.insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
        }
        response
    }
}

fn body(status: StatusCode, code: &str, message: &str, param: Option<String>) -> OpenAiErrorBody {
    OpenAiErrorBody {
        error: OpenAiError {
            message: message.to_owned(),
            r#type: error_type(status, code),
            param,
            code: code.to_owned(),
        },
    }
}

/// OpenAI's `type` for a status; the clients choose their exception by the status alone.
fn error_type(status: StatusCode, code: &str) -> &'static str {
    match status.as_u16() {
        401 => "authentication_error",
        403 => "permission_error",
        // OpenAI calls an unknown model an invalid request.
        404 if code == "model_not_found" => "invalid_request_error",
        404 => "not_found_error",
        429 => "rate_limit_error",
        500.. => "server_error",
        _ => "invalid_request_error",
    }
}

/// Whether a path belongs to the OpenAI surface.
fn is_openai_path(path: &str) -> bool {
    path.starts_with("/v1/chat/") || path == "/v1/models" || path.starts_with("/v1/models/")
}

/// Rewrites the house-shaped error bodies (`{"error": {"code", "message"}}`) of OpenAI paths into
/// OpenAI's shape; everything else passes untouched, with nothing boxed.
#[derive(Clone)]
pub struct OpenAiErrors;

impl<S> Layer<S> for OpenAiErrors {
    type Service = OpenAiErrorsService<S>;

    fn layer(&self, inner: S) -> Self::Service {
        OpenAiErrorsService { inner }
    }
}

#[derive(Clone)]
pub struct OpenAiErrorsService<S> {
    inner: S,
}

impl<S> Service<Request> for OpenAiErrorsService<S>
where
    S: Service<Request, Response = Response, Error = Infallible>,
    S::Future: Send + 'static,
{
    type Response = Response;
    type Error = Infallible;
    type Future = Either<S::Future, BoxFuture<'static, Result<Response, Infallible>>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request) -> Self::Future {
        if !is_openai_path(request.uri().path()) {
            return Either::Left(self.inner.call(request));
        }
        let response = self.inner.call(request);
        Either::Right(Box::pin(async move {
            let response = response.await?;
            if response.status().is_success() || !is_json(&response) {
                return Ok(response);
            }
            Ok(reshape(response).await)
        }))
    }
}

fn is_json(response: &Response) -> bool {
    response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"))
}

/// A house error body in OpenAI's shape; a body already in it (it has `type`) is kept.
async fn reshape(response: Response) -> Response {
    let (mut parts, content) = response.into_parts();
    // Error bodies are a few hundred bytes, written by this server.
    let Ok(bytes) = content.collect().await.map(|b| b.to_bytes()) else {
        return Response::from_parts(parts, Body::empty());
    };
    let value: Option<serde_json::Value> = serde_json::from_slice(&bytes).ok();
    let error = value.as_ref().and_then(|v| v.get("error")).filter(|e| e.get("type").is_none());
    let Some(error) = error else {
        return Response::from_parts(parts, Body::from(bytes));
    };
    let code = error.get("code").and_then(|c| c.as_str()).unwrap_or("error");
    let message = error.get("message").and_then(|c| c.as_str()).unwrap_or_default();
    let mut shaped = serde_json::to_value(body(parts.status, code, message, None)).unwrap_or_default();
    if let Some(cause) = error.get("cause") {
        shaped["error"]["cause"] = cause.clone();
    }
    let bytes = serde_json::to_vec(&shaped).unwrap_or_default();
    parts.headers.remove(header::CONTENT_LENGTH);
    Response::from_parts(parts, Body::from(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types_follow_the_status() {
        assert_eq!(error_type(StatusCode::NOT_FOUND, "model_not_found"), "invalid_request_error");
        assert_eq!(error_type(StatusCode::NOT_FOUND, "not_found"), "not_found_error");
        assert_eq!(error_type(StatusCode::TOO_MANY_REQUESTS, "rate_limited"), "rate_limit_error");
        assert_eq!(error_type(StatusCode::BAD_GATEWAY, "upstream_unavailable"), "server_error");
        assert_eq!(error_type(StatusCode::CONFLICT, "conflict"), "invalid_request_error");
        assert!(is_openai_path("/v1/chat/completions"));
        assert!(is_openai_path("/v1/models/form"));
        assert!(!is_openai_path("/v1/modelsx") && !is_openai_path("/v1/waifu"));
    }
}
