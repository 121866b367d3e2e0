//! The HTTP face of [`crate::error::Error`]: one status per variant (no catch-all) and one body shape,
//! `{"error": {"code", "message"}}`. Client mistakes are returned as they are; internal causes are
//! logged and hidden unless `API_DEBUG` is on.

use crate::error::Error;
use crate::plugins::api::{CallFailure, PluginErrorKind};
use crate::store::Trouble;
use axum::Json;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

/// The error body of every endpoint.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct ErrorBody {
    pub error: ErrorDetail,
}

impl ErrorBody {
    pub fn new(code: impl Into<String>, message: impl Into<String>) -> Self {
        ErrorBody { error: ErrorDetail { code: code.into(), message: message.into(), cause: None } }
    }
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct ErrorDetail {
    /// A stable, machine-readable code such as `invalid_input` or `rate_limited`.
    pub code: String,
    /// What went wrong, for a human.
    pub message: String,
    /// The cause chain of a server error; only when `API_DEBUG` is on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cause: Option<Vec<String>>,
}

/// An error on its way to the client.
#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub code: &'static str,
    pub message: String,
    pub retry_after_secs: Option<u64>,
    pub cause: Option<Vec<String>>,
    /// Extra headers (the rate-limit headers of a 429).
    pub headers: Vec<(&'static str, String)>,
}

impl ApiError {
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> Self {
        ApiError {
            status,
            code,
            message: message.into(),
            retry_after_secs: None,
            cause: None,
            headers: Vec::new(),
        }
    }

    pub fn bad_request(code: &'static str, message: impl Into<String>) -> Self {
        ApiError::new(StatusCode::BAD_REQUEST, code, message)
    }

    /// Maps a library error. The cause chain of a server error is kept aside: it reaches the body only
    /// through [`debug_causes`], which is installed when `API_DEBUG` is on.
    pub fn from_error(e: &Error) -> Self {
        let (status, code) = status_and_code(e);
        let mut api = ApiError::new(status, code, e.to_string());
        if let Error::RateLimited { refused, .. } = e {
            api.retry_after_secs = Some(refused.retry_after_secs());
            api.headers.extend(refused.headers().map(|(name, value)| (name, value.to_string())));
        }
        if let Error::Plugin(call) = e {
            match &call.failure {
                CallFailure::Reported(p) => {
                    if let PluginErrorKind::RateLimited { retry_after_secs: Some(s) } = p.kind {
                        api.retry_after_secs = Some(u64::from(s));
                    }
                }
                CallFailure::Busy { .. }
                | CallFailure::ClientBusy { .. }
                | CallFailure::MemoryBudget { .. } => {
                    api.retry_after_secs = Some(1);
                }
                _ => {}
            }
        }
        if status.is_server_error() {
            let chain = cause_chain(e);
            tracing::error!(status = status.as_u16(), code, causes = ?chain, "{e}");
            api.message = match e {
                Error::Storage(store) => match store.trouble() {
                    Trouble::Full => "the dialog store's disk is full; nothing was stored".into(),
                    Trouble::Unavailable => {
                        "the dialog store is unavailable; nothing was stored, retry later".into()
                    }
                    Trouble::Other => "an internal error occurred; the server log has the details".into(),
                },
                Error::Config(_) | Error::Startup(_) => {
                    "an internal error occurred; the server log has the details".into()
                }
                _ => api.message,
            };
            api.cause = Some(chain);
        }
        api
    }
}

fn cause_chain(e: &dyn std::error::Error) -> Vec<String> {
    let mut chain = vec![e.to_string()];
    let mut source = e.source();
    while let Some(s) = source {
        chain.push(s.to_string());
        source = s.source();
    }
    chain
}

/// Every variant of [`Error`] and every plugin failure has its status here; adding a variant without
/// a status does not compile.
pub fn status_and_code(e: &Error) -> (StatusCode, &'static str) {
    match e {
        Error::Config(_) => (StatusCode::INTERNAL_SERVER_ERROR, "configuration_error"),
        Error::Startup(_) => (StatusCode::INTERNAL_SERVER_ERROR, "startup_error"),
        Error::InvalidInput { .. } => (StatusCode::UNPROCESSABLE_ENTITY, "invalid_input"),
        Error::UnknownPlugin { .. } => (StatusCode::UNPROCESSABLE_ENTITY, "unknown_plugin"),
        // The client named a plugin that `/providers` lists as unavailable: its request cannot be
        // served as asked, and another provider can serve it, so it is the client's to change.
        Error::PluginUnavailable { .. } => (StatusCode::UNPROCESSABLE_ENTITY, "provider_unavailable"),
        Error::RateLimited { .. } => (StatusCode::TOO_MANY_REQUESTS, "rate_limited"),
        Error::NotFound(_) => (StatusCode::NOT_FOUND, "not_found"),
        Error::Conflict(_) => (StatusCode::CONFLICT, "conflict"),
        Error::Storage(e) => match e.trouble() {
            Trouble::Full => (StatusCode::INSUFFICIENT_STORAGE, "storage_full"),
            Trouble::Unavailable => (StatusCode::SERVICE_UNAVAILABLE, "store_unavailable"),
            Trouble::Other => (StatusCode::INTERNAL_SERVER_ERROR, "storage_error"),
        },
        Error::ShuttingDown => (StatusCode::SERVICE_UNAVAILABLE, "shutting_down"),
        Error::Plugin(call) => match &call.failure {
            CallFailure::Reported(p) => match p.kind {
                PluginErrorKind::InvalidInput => (StatusCode::UNPROCESSABLE_ENTITY, "plugin_rejected_input"),
                PluginErrorKind::Misconfigured => (StatusCode::SERVICE_UNAVAILABLE, "plugin_misconfigured"),
                PluginErrorKind::Unauthorized => (StatusCode::BAD_GATEWAY, "upstream_unauthorized"),
                PluginErrorKind::RateLimited { .. } => {
                    (StatusCode::TOO_MANY_REQUESTS, "upstream_rate_limited")
                }
                PluginErrorKind::Timeout => (StatusCode::GATEWAY_TIMEOUT, "upstream_timeout"),
                PluginErrorKind::Unavailable => (StatusCode::BAD_GATEWAY, "upstream_unavailable"),
                PluginErrorKind::BadResponse => (StatusCode::BAD_GATEWAY, "upstream_bad_response"),
                PluginErrorKind::Internal => (StatusCode::BAD_GATEWAY, "plugin_internal_error"),
            },
            CallFailure::Deadline(_) => (StatusCode::GATEWAY_TIMEOUT, "plugin_timeout"),
            CallFailure::MemoryLimit { .. } => (StatusCode::BAD_GATEWAY, "plugin_memory_limit"),
            CallFailure::Trap(_) => (StatusCode::BAD_GATEWAY, "plugin_crashed"),
            CallFailure::InvalidOutput(_) => (StatusCode::BAD_GATEWAY, "plugin_invalid_output"),
            CallFailure::NotStarted(_) => (StatusCode::SERVICE_UNAVAILABLE, "plugin_not_started"),
            CallFailure::Busy { .. } => (StatusCode::SERVICE_UNAVAILABLE, "plugin_busy"),
            CallFailure::ClientBusy { .. } => (StatusCode::TOO_MANY_REQUESTS, "too_many_concurrent_calls"),
            CallFailure::MemoryBudget { .. } => (StatusCode::SERVICE_UNAVAILABLE, "plugin_memory_budget"),
            CallFailure::StreamsFull { client: true, .. } => {
                (StatusCode::TOO_MANY_REQUESTS, "too_many_concurrent_streams")
            }
            CallFailure::StreamsFull { client: false, .. } => {
                (StatusCode::SERVICE_UNAVAILABLE, "streams_full")
            }
        },
    }
}

impl IntoResponse for Error {
    fn into_response(self) -> Response {
        ApiError::from_error(&self).into_response()
    }
}

impl From<Error> for ApiError {
    fn from(e: Error) -> Self {
        ApiError::from_error(&e)
    }
}

/// The full error, carried in the response's extensions for [`debug_causes`].
#[derive(Clone, Debug)]
struct ErrorReport {
    code: String,
    message: String,
    cause: Vec<String>,
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let report = self.cause.map(|cause| ErrorReport {
            code: self.code.into(),
            message: self.message.clone(),
            cause,
        });
        let body =
            ErrorBody { error: ErrorDetail { code: self.code.into(), message: self.message, cause: None } };
        let mut response = (self.status, Json(body)).into_response();
        if let Some(report) = report {
            response.extensions_mut().insert(report);
        }
        let headers = response.headers_mut();
        if let Some(secs) = self.retry_after_secs {
            headers.insert(header::RETRY_AFTER, HeaderValue::from(secs));
        }
        for (name, value) in self.headers {
            if let Ok(value) = HeaderValue::from_str(&value) {
                headers.insert(name, value);
            }
        }
        response
    }
}

/// With `API_DEBUG` on, adds the cause chain to the body of every server error.
pub async fn debug_causes(request: axum::extract::Request, next: axum::middleware::Next) -> Response {
    let mut response = next.run(request).await;
    if response.status().is_server_error()
        && let Some(report) = response.extensions_mut().remove::<ErrorReport>()
    {
        let status = response.status();
        let body = ErrorBody {
            error: ErrorDetail { code: report.code, message: report.message, cause: Some(report.cause) },
        };
        let headers = std::mem::take(response.headers_mut());
        response = (status, Json(body)).into_response();
        for (name, value) in &headers {
            if name != header::CONTENT_LENGTH {
                response.headers_mut().insert(name, value.clone());
            }
        }
    }
    response
}
