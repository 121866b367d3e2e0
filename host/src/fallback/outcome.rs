//! What a failed call means for its chain: whether the request moves on to the next member, whether
//! the failure counts against the plugin's circuit, whether it is worth a retry, and how it is named
//! in the answer's `attempts`.

use crate::error::Error;
use crate::plugins::api::{CallFailure, PluginErrorKind};
use axum::http::HeaderValue;
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// One member of a chain that did not serve the request: its plugin id and why, as the error code
/// the request would have failed with (or `circuit_open` for a member its circuit skipped).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Attempt {
    pub id: String,
    pub error: String,
}

/// The header that lists the attempts of an answer a fallback served.
pub const HEADER: &str = "x-parlance-attempts";

/// The code of a member its open circuit skipped.
pub const CIRCUIT_OPEN: &str = "circuit_open";

/// The `X-Parlance-Attempts` header of an answer with attempts: `id=code` per attempt, in the order
/// they were made; none when the requested plugin answered at once.
pub fn attempts_header(attempts: &[Attempt]) -> Option<HeaderValue> {
    if attempts.is_empty() {
        return None;
    }
    let value = attempts.iter().map(|a| format!("{}={}", a.id, a.error)).collect::<Vec<_>>().join(", ");
    // Plugin ids and error codes are ASCII by their rules.
    HeaderValue::from_str(&value).ok()
}

/// Whether the next member of the chain may serve what this one failed: the upstream's or the
/// plugin's trouble moves on; the request's own fault (the next would refuse it too) and the caller's
/// own limits do not.
pub fn moves_on(e: &Error) -> bool {
    match e {
        // A member whose key is not configured cannot serve; the next may.
        Error::PluginUnavailable { .. } => true,
        Error::Plugin(call) => match &call.failure {
            CallFailure::Reported(p) => p.kind != PluginErrorKind::InvalidInput,
            // The caller's own limits: every member would refuse it alike.
            CallFailure::ClientBusy { .. }
            | CallFailure::StreamsFull { client: true, .. }
            | CallFailure::OverBudget(_) => false,
            CallFailure::Deadline(_)
            | CallFailure::MemoryLimit { .. }
            | CallFailure::Trap(_)
            | CallFailure::InvalidOutput(_)
            | CallFailure::NotStarted(_)
            | CallFailure::Busy { .. }
            | CallFailure::MemoryBudget { .. }
            | CallFailure::StreamsFull { client: false, .. } => true,
        },
        Error::Config(_)
        | Error::Startup(_)
        | Error::InvalidInput { .. }
        | Error::UnknownPlugin { .. }
        | Error::RateLimited { .. }
        | Error::NotFound(_)
        | Error::Conflict(_)
        | Error::Forbidden(_)
        | Error::Storage(_)
        | Error::ShuttingDown => false,
    }
}

/// Whether a failure that moves on says something of the plugin's health, and so counts towards
/// opening its circuit. This host's own capacity (a full pool, the memory budget) and a missing key
/// say nothing of the upstream.
pub fn counts(e: &Error) -> bool {
    match e {
        Error::Plugin(call) => !matches!(
            call.failure,
            CallFailure::Busy { .. } | CallFailure::MemoryBudget { .. } | CallFailure::StreamsFull { .. }
        ),
        _ => false,
    }
}

/// How a failure may be retried on the same member.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Retry {
    /// After the upstream's own `Retry-After`.
    After(Duration),
    /// After a jittered backoff.
    Backoff,
    /// After a jittered backoff, but only when no member is left to move on to: an upstream that
    /// refused or dropped the connection is as likely to be down as to be blinking.
    BackoffIfLast,
    No,
}

pub fn retry(e: &Error) -> Retry {
    let Error::Plugin(call) = e else { return Retry::No };
    let CallFailure::Reported(reported) = &call.failure else { return Retry::No };
    match reported.kind {
        PluginErrorKind::RateLimited { retry_after_secs: Some(s) } => {
            Retry::After(Duration::from_secs(u64::from(s)))
        }
        PluginErrorKind::RateLimited { retry_after_secs: None } => Retry::Backoff,
        PluginErrorKind::Unavailable => Retry::BackoffIfLast,
        _ => Retry::No,
    }
}

/// The code an attempt is named by: the `error.code` the request would have answered.
pub fn code(e: &Error) -> &'static str {
    crate::rest::error::status_and_code(e).1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plugins::api::{CallError, PluginError};

    fn reported(kind: PluginErrorKind) -> Error {
        Error::Plugin(CallError::new("p", CallFailure::Reported(PluginError::new(kind, "x"))))
    }

    #[test]
    fn the_request_and_the_caller_stop_a_chain_and_the_upstream_moves_it_on() {
        assert!(!moves_on(&reported(PluginErrorKind::InvalidInput)));
        assert!(!moves_on(&Error::Plugin(CallError::new(
            "p",
            CallFailure::ClientBusy { share: 1, waited_ms: 0 }
        ))));
        for kind in [
            PluginErrorKind::Unavailable,
            PluginErrorKind::Timeout,
            PluginErrorKind::RateLimited { retry_after_secs: Some(1) },
            PluginErrorKind::Misconfigured,
            PluginErrorKind::Unauthorized,
            PluginErrorKind::BadResponse,
            PluginErrorKind::Internal,
        ] {
            assert!(moves_on(&reported(kind)), "{kind:?}");
            assert!(counts(&reported(kind)), "{kind:?}");
        }
        let busy =
            Error::Plugin(CallError::new("p", CallFailure::Busy { what: "its share of", waited_ms: 1 }));
        assert!(moves_on(&busy) && !counts(&busy), "this host's capacity says nothing of the upstream");
        assert_eq!(code(&busy), "plugin_busy");
    }

    #[test]
    fn retries_follow_the_upstream_and_refusals_only_at_the_end() {
        let limited = reported(PluginErrorKind::RateLimited { retry_after_secs: Some(3) });
        assert_eq!(retry(&limited), Retry::After(Duration::from_secs(3)));
        assert_eq!(retry(&reported(PluginErrorKind::RateLimited { retry_after_secs: None })), Retry::Backoff);
        assert_eq!(retry(&reported(PluginErrorKind::Unavailable)), Retry::BackoffIfLast);
        assert_eq!(retry(&reported(PluginErrorKind::Timeout)), Retry::No);
    }

    #[test]
    fn the_attempts_header_lists_each_in_order() {
        assert_eq!(attempts_header(&[]), None);
        let attempts = [
            Attempt { id: "a".into(), error: "upstream_timeout".into() },
            Attempt { id: "b".into(), error: CIRCUIT_OPEN.into() },
        ];
        assert_eq!(attempts_header(&attempts).unwrap(), "a=upstream_timeout, b=circuit_open");
    }
}
