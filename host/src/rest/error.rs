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

/// One error code as the manual's reference lists it: the statuses it is answered with and what it
/// means. Every code the host answers with is here: a test reads the code's sources for each code
/// they answer with and fails on one that is missing, or on an entry that nothing answers with.
pub struct CodeDoc {
    pub code: &'static str,
    pub statuses: &'static [u16],
    pub meaning: &'static str,
}

const fn code(code: &'static str, statuses: &'static [u16], meaning: &'static str) -> CodeDoc {
    CodeDoc { code, statuses, meaning }
}

/// Every error code, grouped as a reader looks for them: the request, the caller, the plugins and
/// upstreams, the server.
pub const CODES: &[CodeDoc] = &[
    code(
        "bad_request",
        &[400],
        "The request could not be read as HTTP (a request line or header with characters HTTP does not allow); answered by the listener itself",
    ),
    code("uri_too_long", &[414], "The request's URI is longer than the server accepts"),
    code("headers_too_large", &[431], "The request's headers are larger than the server accepts"),
    code("malformed_json", &[400], "The body is not JSON"),
    code(
        "invalid_body",
        &[400, 422],
        "The body is JSON (or a form) of the wrong shape: a missing or mistyped field, an unknown field, an array where the document says object",
    ),
    code(
        "invalid_form",
        &[400, 422],
        "A form body that cannot be read: names or values that are not UTF-8 once percent-decoded, or a missing field",
    ),
    code("unsupported_media_type", &[415], "The body's `Content-Type` is not one the route reads"),
    code("payload_too_large", &[413], "The body is larger than `[server] max_body_kb`"),
    code("request_timeout", &[408], "The body did not arrive within the server's body timeout"),
    code("invalid_query", &[400], "A query parameter is missing, mistyped or out of range"),
    code("invalid_path_parameter", &[400], "A path parameter is not of its type"),
    code(
        "invalid_page",
        &[400],
        "The page of `GET /v1/user/dialog/{user_id}/{page}` is missing or not a page number",
    ),
    code("invalid_client", &[400], "The `current-user` header is sent twice, empty, not UTF-8 or too long"),
    code(
        "invalid_input",
        &[422],
        "A field breaks a documented rule or limit; the message names the field and the limit",
    ),
    code(
        "invalid_value",
        &[400],
        "OpenAI-compatible surface: a field's value is out of range (`param` names it)",
    ),
    code(
        "unsupported_parameter",
        &[400],
        "OpenAI-compatible surface: a parameter this server does not support (`param` names it)",
    ),
    code(
        "unsupported_value",
        &[400],
        "OpenAI-compatible surface: a value this server does not support (`param` names it)",
    ),
    code("unsupported_content", &[400], "OpenAI-compatible surface: message content other than text"),
    code(
        "string_above_max_length",
        &[400],
        "OpenAI-compatible surface: a message, or the system messages joined, longer than the chat's limit on it (`param` names it)",
    ),
    code(
        "array_above_max_length",
        &[400],
        "OpenAI-compatible surface: more messages than a dialog may hold with the reply (`[chat] max_history_entries`)",
    ),
    code("not_found", &[404], "No such route, or no such record for this client (a job, a dialog)"),
    code("method_not_allowed", &[405], "The route exists but not with this method"),
    code(
        "conflict",
        &[409],
        "The record's state does not allow the request (a job that has already finished)",
    ),
    code(
        "budget_exceeded",
        &[429],
        "The API key is over one of its budgets (spend per day, week, month or in total) or its tokens per minute; the message names the limit and when it resets. Checked before any upstream call",
    ),
    code(
        "forbidden",
        &[403],
        "The caller may not read this: a key asking for another key's or client's usage",
    ),
    code("unknown_plugin", &[422], "The request names a provider, model or metric id that is not configured"),
    code("model_not_found", &[404], "OpenAI-compatible surface: the model is not one of `GET /v1/models`"),
    code(
        "provider_unavailable",
        &[422],
        "The named provider or chat model cannot serve: a secret it needs (an API key) is not configured; `/providers` lists it with `available: false`",
    ),
    code(
        "model_unavailable",
        &[503],
        "OpenAI-compatible surface: the chat model cannot serve until the operator configures its secret",
    ),
    code("missing_api_key", &[401], "API keys are required and the request carries none"),
    code("invalid_api_key", &[401], "The API key is unknown or revoked"),
    code("client_mismatch", &[403], "The `current-user` header names another client than the API key's"),
    code(
        "admin_disabled",
        &[404],
        "The admin API is off: no admin credential is configured (`PARLANCE_ADMIN_TOKEN` or `[admin] token_file`)",
    ),
    code(
        "admin_unauthorized",
        &[401],
        "The admin API needs the admin credential, and the request carries none or another",
    ),
    code(
        "not_admin",
        &[403],
        "A client key was sent to the admin API, which takes only the admin credential",
    ),
    code("key_not_found", &[404], "The admin API has no key with this id"),
    code("key_revoked", &[409], "The key is revoked, and a revoked key is not changed"),
    code(
        "rate_limited",
        &[429],
        "Parlance's own per-client rate limit for the provider or chat model; `Retry-After` and the `X-RateLimit-*` headers say when to retry",
    ),
    code("too_many_concurrent_calls", &[429], "The client already holds its share of the plugin's instances"),
    code("too_many_concurrent_streams", &[429], "The client already holds its share of the open streams"),
    code("plugin_rejected_input", &[422], "The plugin reported that it cannot handle this input"),
    code("plugin_misconfigured", &[503], "The plugin reported its own settings as broken"),
    code("upstream_unauthorized", &[502], "The upstream refused the plugin's credentials"),
    code("upstream_rate_limited", &[429], "The upstream's own rate limit was reached"),
    code("upstream_timeout", &[504], "The upstream did not answer in time"),
    code("upstream_unavailable", &[502], "The upstream could not be reached or failed"),
    code("upstream_bad_response", &[502], "The upstream answered something the plugin could not read"),
    code("plugin_internal_error", &[502], "The plugin reported an internal error"),
    code("plugin_timeout", &[504], "The plugin ran past its deadline and was stopped"),
    code("plugin_memory_limit", &[502], "The plugin reached its memory cap and was stopped"),
    code("plugin_crashed", &[502], "The plugin trapped (a panic, an unreachable instruction)"),
    code(
        "plugin_invalid_output",
        &[502],
        "The plugin returned something the contract does not allow (an empty paraphrase, an undeclared or non-finite score, a wrong number of results)",
    ),
    code("plugin_not_started", &[503], "The plugin could not be instantiated"),
    code("plugin_busy", &[503], "Every instance of the plugin stayed busy for the whole wait"),
    code("plugin_memory_budget", &[503], "The host's memory budget for instances is spent"),
    code("streams_full", &[503], "The server holds as many open streams as it allows"),
    code("storage_full", &[507], "The dialog store's disk is full; nothing was stored"),
    code(
        "store_unavailable",
        &[503],
        "The dialog store cannot be reached (PostgreSQL down); nothing was stored",
    ),
    code(
        "storage_error",
        &[500],
        "The dialog store failed otherwise; nothing was stored, and the server log has the details",
    ),
    code("shutting_down", &[503], "The server is draining and takes no new work"),
    code("configuration_error", &[500], "The configuration is invalid (only through the library)"),
    code("startup_error", &[500], "A plugin could not be loaded (only through the library)"),
];

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
        Error::Forbidden(_) => (StatusCode::FORBIDDEN, "forbidden"),
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
            CallFailure::OverBudget(_) => (StatusCode::TOO_MANY_REQUESTS, "budget_exceeded"),
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
