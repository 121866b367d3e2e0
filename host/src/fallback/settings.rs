//! The `[fallback]` section: the circuit breaker's thresholds, the retries of transient upstream
//! errors, the deadline of a request across its chain, and what a request may choose of its chain.

use crate::config::setting;
use crate::config::{Kind, Section, Setting};
use std::time::Duration;

#[derive(Clone, Debug)]
pub struct FallbackConfig {
    /// Failures of one plugin within `failure_window_ms` that open its circuit.
    pub failure_threshold: u32,
    pub failure_window_ms: u64,
    /// How long an open circuit skips its plugin before one request probes it.
    pub cooldown_ms: u64,
    /// The first retry's wait; each next one doubles it, each with ±50 % jitter.
    pub backoff_ms: u64,
    /// The most time the retries of one chain member may take together.
    pub retry_budget_ms: u64,
    /// A request's deadline across its whole chain: no retry waits past it and no member starts after it.
    pub deadline_ms: u64,
    /// Whether a request may name its own chain (`"fallbacks": ["gemini", "offline"]`).
    pub request_chains: bool,
    /// Whether a request whose primary is skipped or failed may be answered from the cache of a
    /// fallback member (its answer stays cached under the member that made it).
    pub serve_cached_fallback: bool,
    /// `redis` (open circuits shared by every replica, in the cache's Redis) or `local`; unset:
    /// `redis` when the cache is Redis and the process is a server.
    pub circuit_store: Option<String>,
}

impl Default for FallbackConfig {
    fn default() -> Self {
        FallbackConfig {
            failure_threshold: 5,
            failure_window_ms: 30_000,
            cooldown_ms: 30_000,
            backoff_ms: 200,
            retry_budget_ms: 10_000,
            deadline_ms: 120_000,
            request_chains: false,
            serve_cached_fallback: false,
            circuit_store: None,
        }
    }
}

impl FallbackConfig {
    pub fn window(&self) -> Duration {
        Duration::from_millis(self.failure_window_ms)
    }

    pub fn cooldown(&self) -> Duration {
        Duration::from_millis(self.cooldown_ms)
    }
}

impl Section for FallbackConfig {
    const NAME: &'static str = "fallback";
    const ABOUT: &'static str = "Fallback chains, retries and circuit breaking";

    fn settings() -> &'static [Setting<Self>] {
        static SETTINGS: &[Setting<FallbackConfig>] = &[
            setting!(
                "failure_threshold",
                Kind::Int { min: 1, max: 100_000 },
                |c| c.failure_threshold,
                "Failures of one provider or chat model within `failure_window_ms` that open its circuit"
            ),
            setting!(
                "failure_window_ms",
                Kind::Int { min: 1, max: 86_400_000 },
                |c| c.failure_window_ms,
                "The window in which failures are counted towards `failure_threshold`"
            ),
            setting!(
                "cooldown_ms",
                Kind::Int { min: 1, max: 86_400_000 },
                |c| c.cooldown_ms,
                "How long an open circuit skips its plugin before one request probes it (half-open)"
            ),
            setting!(
                "backoff_ms",
                Kind::Int { min: 0, max: 60_000 },
                |c| c.backoff_ms,
                "The first retry's wait after a transient upstream error when the upstream gave none; doubled each retry, ±50 % jitter"
            ),
            setting!(
                "retry_budget_ms",
                Kind::Int { min: 0, max: 600_000 },
                |c| c.retry_budget_ms,
                "The most time the retries of one chain member may wait together; a longer Retry-After moves on"
            ),
            setting!(
                "deadline_ms",
                Kind::Int { min: 1, max: 3_600_000 },
                |c| c.deadline_ms,
                "A request's deadline across its chain: no retry waits past it and no member starts after it"
            ),
            setting!(
                "circuit_store",
                Kind::Choice(&["redis", "local"]),
                |c| c.circuit_store,
                "`redis`: a circuit one replica opens is open on every replica, in the cache's Redis (per replica while it is down); `local`: per process. Unset: `redis` when the cache is Redis"
            ),
            setting!(
                "request_chains",
                Kind::Bool,
                |c| c.request_chains,
                "Whether a request may name its own chain (`\"fallbacks\": [ids]`); `\"fallbacks\": false` is always allowed"
            ),
            setting!(
                "serve_cached_fallback",
                Kind::Bool,
                |c| c.serve_cached_fallback,
                "Whether a request may be answered from a fallback member's cache once its primary was skipped or failed"
            ),
        ];
        SETTINGS
    }
}
