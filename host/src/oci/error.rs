//! Why a component could not be pulled, pushed or locked: the registry, the credentials, the cache or
//! the operator's files, each with a message that names what and where.

/// Why a component could not be pulled, pushed or locked.
#[derive(Debug, thiserror::Error)]
pub enum OciError {
    /// The registry could not be reached, or the exchange broke off.
    #[error("{message}")]
    Unreachable { failure: crate::upstream::Failure, message: String },
    /// The registry answered, but not with what was asked for.
    #[error("{0}")]
    Registry(String),
    /// The registry wants credentials that were not given, or refused those given.
    #[error("{0}")]
    Denied(String),
    /// A cached blob is not what was stored.
    #[error("{0}")]
    Tampered(String),
    #[error("{0}")]
    Cache(String),
    /// The operator's files (lock, auth.json) are at fault.
    #[error("{0}")]
    Config(String),
}
