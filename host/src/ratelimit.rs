//! Rate limits on provider calls, per (client, provider), with GCRA (governor): a client may spend
//! `RATE_LIMIT_REQUESTS_PER_MINUTE` calls at once and regains one every 60/N seconds. Cache hits are
//! not provider calls and are never counted.

use governor::clock::{Clock, DefaultClock};
use governor::middleware::StateInformationMiddleware;
use governor::state::keyed::DefaultKeyedStateStore;
use governor::{Quota, RateLimiter};
use std::num::NonZeroU32;
use std::time::Duration;

type Limiter = RateLimiter<
    (String, String),
    DefaultKeyedStateStore<(String, String)>,
    DefaultClock,
    StateInformationMiddleware,
>;

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

pub struct RateLimits {
    limiter: Limiter,
    per_minute: NonZeroU32,
    clock: DefaultClock,
}

impl RateLimits {
    pub fn per_minute(n: u32) -> RateLimits {
        let per_minute = NonZeroU32::new(n.max(1)).expect("max(1) is non-zero");
        let limiter =
            RateLimiter::keyed(Quota::per_minute(per_minute)).with_middleware::<StateInformationMiddleware>();
        RateLimits { limiter, per_minute, clock: DefaultClock::default() }
    }

    pub fn limit(&self) -> u32 {
        self.per_minute.get()
    }

    fn interval(&self) -> Duration {
        Duration::from_secs(60) / self.per_minute.get()
    }

    /// Spends one call of `client`'s quota for `provider`, or says how long to wait.
    pub fn check(&self, client: &str, provider: &str) -> Result<Admitted, Refused> {
        let key = (client.to_owned(), provider.to_owned());
        let limit = self.limit();
        match self.limiter.check_key(&key) {
            Ok(snapshot) => {
                let remaining = snapshot.remaining_burst_capacity();
                Ok(Admitted { limit, remaining, reset: self.interval() * (limit - remaining) })
            }
            Err(not_until) => {
                let retry_after = not_until.wait_time_from(self.clock.now());
                Err(Refused { limit, retry_after, reset: retry_after + self.interval() * (limit - 1) })
            }
        }
    }

    /// Waits until `client` may call `provider`, then spends the call: how the CLI paces itself under
    /// the limit instead of failing.
    pub async fn wait(&self, client: &str, provider: &str) {
        let key = (client.to_owned(), provider.to_owned());
        loop {
            match self.limiter.check_key(&key) {
                Ok(_) => return,
                Err(not_until) => tokio::time::sleep(not_until.wait_time_from(self.clock.now())).await,
            }
        }
    }

    /// Forgets clients whose quota is full again, so the key space does not grow without bound.
    pub fn forget_idle(&self) {
        self.limiter.retain_recent();
        self.limiter.shrink_to_fit();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_per_client_and_provider() {
        let limits = RateLimits::per_minute(2);
        let first = limits.check("a", "p").unwrap();
        assert_eq!((first.limit, first.remaining), (2, 1));
        assert_eq!(limits.check("a", "p").unwrap().remaining, 0);
        let refused = limits.check("a", "p").unwrap_err();
        assert!(
            refused.retry_after > Duration::from_secs(25) && refused.retry_after <= Duration::from_secs(30)
        );
        // Other clients and other providers have their own quotas.
        assert!(limits.check("b", "p").is_ok());
        assert!(limits.check("a", "q").is_ok());
    }
}
