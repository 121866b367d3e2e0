//! The one error type of the library API. Each variant has one documented meaning; the HTTP layer maps
//! every variant to a status without a catch-all.

use crate::config::ConfigError;
use crate::plugins::LoadError;
use crate::plugins::api::CallError;
use crate::ratelimit::Refused;
use crate::store::StoreError;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The configuration is invalid; every problem is listed.
    #[error(transparent)]
    Config(#[from] ConfigError),

    /// A plugin could not be loaded at start-up.
    #[error(transparent)]
    Startup(#[from] LoadError),

    /// The request is malformed or breaks a documented limit; the message names the field and the limit.
    #[error("{message}")]
    InvalidInput { field: &'static str, message: String },

    /// The request names a plugin id that is not configured (or not of the needed kind).
    #[error("unknown {kind} `{id}`; known: {}", .known.join(", "))]
    UnknownPlugin { kind: &'static str, id: String, known: Vec<String> },

    /// The plugin exists but cannot serve: a secret it needs (an API key) is not configured. `/providers`
    /// lists it with `available: false`.
    #[error("the {kind} `{id}` is not available: {reason}")]
    PluginUnavailable { kind: &'static str, id: String, reason: String },

    /// This service's own rate limit for the client and provider was reached.
    #[error(
        "rate limit exceeded: at most {} calls per minute to provider `{provider}` per client; \
         retry in {} s (this is Parlance's limit, not the upstream provider's)",
        refused.limit,
        refused.retry_after_secs()
    )]
    RateLimited { provider: String, refused: Refused },

    /// A plugin call failed: the plugin reported an error, crashed, ran out of time or memory, or
    /// returned garbage.
    #[error(transparent)]
    Plugin(#[from] CallError),

    /// The requested record does not exist for this client.
    #[error("{0}")]
    NotFound(String),

    /// The request cannot be done in the record's present state (a job that has already completed).
    #[error("{0}")]
    Conflict(String),

    /// The caller may not see or do this (a key reading another key's usage).
    #[error("{0}")]
    Forbidden(String),

    /// The dialog store failed; nothing was changed.
    #[error("the dialog store failed")]
    Storage(#[source] StoreError),

    /// The process is shutting down and takes no new work.
    #[error("the server is shutting down")]
    ShuttingDown,
}

/// A full dialog is the caller's to reset; every other store failure is the store's.
impl From<StoreError> for Error {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::DialogFull { .. } => {
                Error::invalid("dialog", format!("{e}; reset it with DELETE /v1/user/dialog/<user_id>"))
            }
            other => Error::Storage(other),
        }
    }
}

impl Error {
    pub fn invalid(field: &'static str, message: impl Into<String>) -> Self {
        Error::InvalidInput { field, message: message.into() }
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;
