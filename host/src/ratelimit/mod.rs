//! Rate limits on provider calls, per (client, provider), with GCRA: a client may spend a provider's
//! quota of N calls at once and regains one every 60/N seconds. Each provider's quota is decided once,
//! from its spec ([`Quota::for_plugin`]): limits protect an upstream, so a provider that reaches none
//! (the offline default) is not limited unless the operator sets a limit for it. Cache hits are not
//! provider calls and are never counted.
//!
//! The state lives in this process (governor), or in Redis for every replica at once (`shared`).
//! While a shared store is unreachable each replica decides with its own state, so the limit then
//! holds per replica; it is shared again as soon as Redis answers.

mod shared;
mod verdict;

pub use verdict::{Admitted, Refused};

use crate::plugins::spec::PluginSpec;
use crate::redis_link::RedisLink;
use crate::telemetry::WithSpan;
use governor::clock::{Clock, DefaultClock};
use governor::middleware::StateInformationMiddleware;
use governor::state::keyed::DefaultKeyedStateStore;
use governor::{Quota as GovernorQuota, RateLimiter};
use std::collections::HashMap;
use std::num::NonZeroU32;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How often the state of clients whose quota is full again is dropped, so that a process that has
/// seen many clients does not keep them all.
const FORGET_IDLE_EVERY: Duration = Duration::from_secs(60);

type Limiter = RateLimiter<
    (String, String),
    DefaultKeyedStateStore<(String, String)>,
    DefaultClock,
    StateInformationMiddleware,
>;

/// The quota of one provider.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quota {
    /// Calls are never refused nor paced.
    Unlimited,
    PerMinute(NonZeroU32),
}

impl Quota {
    /// The rule, decided once per plugin: the operator's own `rate_limit_per_minute` when set (`0`
    /// lifts the limit); otherwise `global` for a plugin that reaches an upstream, and no limit for one
    /// that reaches nothing, since there is no upstream to protect.
    pub fn for_plugin(spec: &PluginSpec, global: u32) -> Quota {
        Quota::from_per_minute(match spec.rate_limit_per_minute {
            Some(own) => own,
            None if spec.reaches_upstream() => global,
            None => 0,
        })
    }

    /// `n` calls per client per minute; `0` is no limit.
    pub fn from_per_minute(n: u32) -> Quota {
        NonZeroU32::new(n).map_or(Quota::Unlimited, Quota::PerMinute)
    }

    /// Calls per client per minute, `None` when unlimited.
    pub fn per_minute(self) -> Option<u32> {
        match self {
            Quota::Unlimited => None,
            Quota::PerMinute(n) => Some(n.get()),
        }
    }
}

/// One limited provider's quota and the state of its clients.
struct Limited {
    per_minute: NonZeroU32,
    limiter: Limiter,
}

impl Limited {
    fn new(per_minute: NonZeroU32) -> Limited {
        let limiter = RateLimiter::keyed(GovernorQuota::per_minute(per_minute))
            .with_middleware::<StateInformationMiddleware>();
        Limited { per_minute, limiter }
    }

    fn interval(&self) -> Duration {
        Duration::from_secs(60) / self.per_minute.get()
    }
}

/// Every provider's quota and the state of each (client, provider) pair: the one place that admits,
/// refuses or paces a provider call.
pub struct RateLimits {
    /// The quota of a provider this was not told about, and its limiter.
    fallback: Quota,
    fallback_limited: Option<Limited>,
    quotas: HashMap<String, Quota>,
    limited: HashMap<String, Limited>,
    clock: DefaultClock,
    /// The state shared by every replica, when configured.
    shared: Option<shared::Shared>,
    /// When idle clients were last forgotten.
    swept: Mutex<Instant>,
}

/// Where the limits are kept, for `/health`.
#[derive(Clone, Debug, serde::Serialize, utoipa::ToSchema)]
pub struct RateLimitHealth {
    /// `redis` (shared by every replica) or `local` (this process).
    pub store: &'static str,
    /// `ok`, or `degraded` while Redis is unreachable and each replica limits on its own.
    pub status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl RateLimits {
    /// `providers` gives each provider's quota; a provider not listed gets `fallback`.
    pub fn new(fallback: Quota, providers: impl IntoIterator<Item = (String, Quota)>) -> RateLimits {
        let quotas: HashMap<String, Quota> = providers.into_iter().collect();
        let limited = quotas
            .iter()
            .filter_map(|(provider, quota)| match quota {
                Quota::PerMinute(n) => Some((provider.clone(), Limited::new(*n))),
                Quota::Unlimited => None,
            })
            .collect();
        let fallback_limited = match fallback {
            Quota::PerMinute(n) => Some(Limited::new(n)),
            Quota::Unlimited => None,
        };
        RateLimits {
            fallback,
            fallback_limited,
            quotas,
            limited,
            clock: DefaultClock::default(),
            shared: None,
            swept: Mutex::new(Instant::now()),
        }
    }

    /// Keeps the state in Redis, shared by every replica that uses the same store; the local state
    /// decides while Redis is unreachable.
    pub fn shared_through(mut self, link: RedisLink) -> RateLimits {
        self.shared = Some(shared::Shared::new(link));
        self
    }

    /// Where the limits are kept, and whether that works now.
    pub fn health(&self) -> RateLimitHealth {
        match &self.shared {
            None => RateLimitHealth { store: "local", status: "ok", error: None },
            Some(shared) => {
                let error = shared.outage();
                RateLimitHealth {
                    store: "redis",
                    status: if error.is_some() { "degraded" } else { "ok" },
                    error,
                }
            }
        }
    }

    /// The same quota for every provider.
    pub fn per_minute(n: u32) -> RateLimits {
        RateLimits::new(Quota::from_per_minute(n), [])
    }

    /// The quota of `provider`.
    pub fn quota(&self, provider: &str) -> Quota {
        self.quotas.get(provider).copied().unwrap_or(self.fallback)
    }

    /// The limiter of a limited provider; providers this was not told about share the fallback's.
    fn limited(&self, provider: &str) -> Option<&Limited> {
        if self.quotas.contains_key(provider) {
            self.limited.get(provider)
        } else {
            self.fallback_limited.as_ref()
        }
    }

    /// Spends one call of `client`'s quota for `provider`, or says how long to wait. `Ok(None)` for a
    /// provider without a limit, whose calls carry no quota headers.
    pub async fn check(&self, client: &str, provider: &str) -> Result<Option<Admitted>, Refused> {
        let span =
            crate::telemetry::trace_span!("rate_limit", Internal, "parlance.provider" => provider.to_owned());
        let decision = self.decide(client, provider).in_span(span.clone()).await;
        span.set_attribute("parlance.rate_limit.admitted", decision.is_ok());
        if let Err(refused) = &decision {
            span.set_attribute("parlance.rate_limit.retry_after_ms", refused.retry_after.as_millis() as i64);
        }
        decision
    }

    async fn decide(&self, client: &str, provider: &str) -> Result<Option<Admitted>, Refused> {
        let Some(rule) = self.limited(provider) else { return Ok(None) };
        if let Some(shared) = &self.shared
            && let Ok(decision) = shared.check(client, provider, rule.per_minute.get()).await
        {
            return decision.map(Some);
        }
        self.check_local(rule, client, provider).map(Some)
    }

    /// A decision with this process's own state.
    fn check_local(&self, rule: &Limited, client: &str, provider: &str) -> Result<Admitted, Refused> {
        self.forget_idle_now_and_then();
        let key = (client.to_owned(), provider.to_owned());
        let limit = rule.per_minute.get();
        match rule.limiter.check_key(&key) {
            Ok(snapshot) => {
                let remaining = snapshot.remaining_burst_capacity();
                Ok(Admitted { limit, remaining, reset: rule.interval() * (limit - remaining) })
            }
            Err(not_until) => {
                let retry_after = not_until.wait_time_from(self.clock.now());
                Err(Refused { limit, retry_after, reset: retry_after + rule.interval() * (limit - 1) })
            }
        }
    }

    /// Waits until `client` may call `provider`, then spends the call: how the CLI and the job runner
    /// pace themselves under the limit instead of failing. Returns how long it waited.
    pub async fn wait(&self, client: &str, provider: &str) -> Duration {
        let span = crate::telemetry::trace_span!("rate_limit.wait", Internal, "parlance.provider" => provider.to_owned());
        let waited = async {
            let mut waited = Duration::ZERO;
            loop {
                match self.decide(client, provider).await {
                    Ok(_) => return waited,
                    Err(refused) => {
                        tokio::time::sleep(refused.retry_after).await;
                        waited += refused.retry_after;
                    }
                }
            }
        }
        .in_span(span.clone())
        .await;
        span.set_attribute("parlance.rate_limit.waited_ms", waited.as_millis() as i64);
        waited
    }

    /// Forgets clients whose quota is full again, so the key space does not grow without bound.
    pub fn forget_idle(&self) {
        for rule in self.limited.values().chain(&self.fallback_limited) {
            rule.limiter.retain_recent();
            rule.limiter.shrink_to_fit();
        }
    }

    /// [`RateLimits::forget_idle`], at most once per [`FORGET_IDLE_EVERY`], from the decisions
    /// themselves: no task to start or stop, and a process without decisions has nothing to forget.
    fn forget_idle_now_and_then(&self) {
        let due = match self.swept.lock() {
            Ok(mut swept) if swept.elapsed() >= FORGET_IDLE_EVERY => {
                *swept = Instant::now();
                true
            }
            _ => false,
        };
        if due {
            self.forget_idle();
        }
    }

    /// Clients whose local state is kept now, for tests.
    #[cfg(test)]
    fn tracked(&self) -> usize {
        self.limited.values().chain(&self.fallback_limited).map(|r| r.limiter.len()).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plugins::api::PluginKind;
    use crate::plugins::spec::{ComponentSource, HostPattern};

    #[tokio::test]
    async fn counts_per_client_and_provider() {
        let limits = RateLimits::per_minute(2);
        let first = limits.check("a", "p").await.unwrap().unwrap();
        assert_eq!((first.limit, first.remaining), (2, 1));
        assert_eq!(limits.check("a", "p").await.unwrap().unwrap().remaining, 0);
        let refused = limits.check("a", "p").await.unwrap_err();
        assert!(
            refused.retry_after > Duration::from_secs(25) && refused.retry_after <= Duration::from_secs(30)
        );
        // Other clients and other providers have their own quotas.
        assert!(limits.check("b", "p").await.is_ok());
        assert!(limits.check("a", "q").await.is_ok());
    }

    /// The state of a client whose quota is full again is dropped by the periodic sweep.
    #[tokio::test]
    async fn idle_clients_are_forgotten() {
        let limits = RateLimits::per_minute(600_000);
        for client in ["a", "b", "c"] {
            limits.check(client, "p").await.unwrap();
        }
        assert_eq!(limits.tracked(), 3);
        // 600 000 a minute: one call is regained in 100 µs, so every quota is full again by now.
        tokio::time::sleep(Duration::from_millis(5)).await;
        let long_ago = Instant::now().checked_sub(FORGET_IDLE_EVERY).expect("a clock a minute old");
        *limits.swept.lock().unwrap() = long_ago;
        limits.check("d", "p").await.unwrap();
        assert!(limits.tracked() <= 1, "{} clients kept", limits.tracked());
    }

    #[test]
    fn the_quota_protects_upstreams_unless_the_operator_says_otherwise() {
        let component = || ComponentSource::Builtin("x".into());
        let local = PluginSpec::new("offline", PluginKind::Provider, component());
        let mut remote = PluginSpec::new("openrouter", PluginKind::Provider, component());
        remote.allowed_hosts.push(HostPattern::parse("https://openrouter.ai").unwrap());
        let per_minute = |n| Quota::PerMinute(NonZeroU32::new(n).unwrap());
        assert_eq!(Quota::for_plugin(&local, 60), Quota::Unlimited);
        assert_eq!(Quota::for_plugin(&remote, 60), per_minute(60));
        let mut limited_local = local.clone();
        limited_local.rate_limit_per_minute = Some(5);
        assert_eq!(Quota::for_plugin(&limited_local, 60), per_minute(5));
        let mut lifted_remote = remote.clone();
        lifted_remote.rate_limit_per_minute = Some(0);
        assert_eq!(Quota::for_plugin(&lifted_remote, 60), Quota::Unlimited);
        remote.rate_limit_per_minute = Some(600);
        assert_eq!(Quota::for_plugin(&remote, 60), per_minute(600));
    }

    #[tokio::test]
    async fn each_provider_has_its_own_quota() {
        let limits = RateLimits::new(
            Quota::PerMinute(NonZeroU32::new(1).unwrap()),
            [
                ("offline".to_owned(), Quota::Unlimited),
                ("fast".to_owned(), Quota::PerMinute(NonZeroU32::new(1200).unwrap())),
            ],
        );
        for _ in 0..5000 {
            assert_eq!(
                limits.check("a", "offline").await,
                Ok(None),
                "an unlimited provider is never refused"
            );
        }
        assert_eq!(limits.wait("a", "offline").await, Duration::ZERO);
        for _ in 0..1200 {
            assert_eq!(limits.check("a", "fast").await.unwrap().unwrap().limit, 1200);
        }
        assert!(limits.check("a", "fast").await.is_err());
        let waited = limits.wait("a", "fast").await;
        assert!(waited > Duration::ZERO && waited <= Duration::from_millis(50), "{waited:?}");
        // A provider it was not told about gets the fallback quota.
        assert_eq!(limits.quota("other"), Quota::PerMinute(NonZeroU32::new(1).unwrap()));
        assert!(limits.check("a", "other").await.is_ok());
        assert!(limits.check("a", "other").await.is_err());
    }
}
