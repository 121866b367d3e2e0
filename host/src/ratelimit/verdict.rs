//! A decision on one call, as the API and the CLI tell it: admitted, with what is left of the quota
//! ([`Admitted`]), or refused, with how long to wait ([`Refused`]); and their `X-RateLimit-*` headers.

use std::time::Duration;

/// The state of one (client, provider) quota after a call was admitted, for the `X-RateLimit-*`
/// headers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Admitted {
    pub limit: u32,
    pub remaining: u32,
    /// Until the quota is full again.
    pub reset: Duration,
}

/// A refused call: how long until one more is allowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Refused {
    pub limit: u32,
    pub retry_after: Duration,
    /// Until the quota is full again.
    pub reset: Duration,
}

/// Whole seconds, rounded up: a client that waits this long is never early.
fn ceil_secs(d: Duration) -> u64 {
    d.as_secs() + u64::from(d.subsec_nanos() > 0)
}

impl Admitted {
    /// `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset` (seconds until the quota
    /// is full again).
    pub fn headers(&self) -> [(&'static str, u64); 3] {
        [
            ("x-ratelimit-limit", u64::from(self.limit)),
            ("x-ratelimit-remaining", u64::from(self.remaining)),
            ("x-ratelimit-reset", ceil_secs(self.reset)),
        ]
    }
}

impl Refused {
    /// `Retry-After` in whole seconds, at least 1.
    pub fn retry_after_secs(&self) -> u64 {
        ceil_secs(self.retry_after).max(1)
    }

    /// The quota headers of a refusal: nothing remains.
    pub fn headers(&self) -> [(&'static str, u64); 3] {
        [
            ("x-ratelimit-limit", u64::from(self.limit)),
            ("x-ratelimit-remaining", 0),
            ("x-ratelimit-reset", ceil_secs(self.reset)),
        ]
    }
}
