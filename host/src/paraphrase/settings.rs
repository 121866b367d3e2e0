//! The `[paraphrase]` section: the default provider, input limits, the rate limit, batches and the
//! concurrency bound, and how many candidates a request may ask for.

use crate::cache::CacheConfig;
use crate::config::setting;
use crate::config::{Kind, Section, Setting};

#[derive(Clone, Debug)]
pub struct ParaphraseConfig {
    /// The provider used when a request names none; when unset, `openrouter` if its key is
    /// configured, else `offline` (see [`crate::settings`]).
    pub default_provider: Option<String>,
    /// Longest text accepted, in characters.
    pub max_text_chars: usize,
    /// Calls allowed per client and provider per minute to a provider that reaches an upstream, unless
    /// its `[[plugin]]` table sets its own.
    pub rate_limit_per_minute: u32,
    /// Most texts in one REST batch.
    pub batch_max_size: usize,
    /// Provider calls in flight per batch.
    pub batch_max_workers: usize,
    /// Calls of one provider in flight at once (its share of the plugin instance pool, unless its
    /// `[[plugin]]` limits say otherwise).
    pub max_concurrent_calls: usize,
    /// How often an upstream 429 is retried before it is reported.
    pub upstream_retries: u32,
    /// Most candidates a request may ask of each provider.
    pub max_candidates: usize,
    /// `redis` (shared by every replica, in the cache's Redis) or `local` (this process); unset: `redis`
    /// when the cache is Redis and the process is a server.
    pub rate_limit_store: Option<String>,
}

/// The Redis that keeps the rate limits of every replica, if any: the cache's, when
/// `rate_limit_store` says `redis`, or by default when the cache is Redis and the process serves
/// (a one-shot command keeps its limits to itself).
pub fn shared_limits_url(config: &ParaphraseConfig, cache: &CacheConfig) -> Option<String> {
    cache.shared_url(config.rate_limit_store.as_deref())
}

impl Default for ParaphraseConfig {
    fn default() -> Self {
        ParaphraseConfig {
            default_provider: None,
            max_text_chars: 10_000,
            rate_limit_per_minute: 60,
            batch_max_size: 10,
            batch_max_workers: 4,
            max_concurrent_calls: 64,
            upstream_retries: 2,
            max_candidates: 8,
            rate_limit_store: None,
        }
    }
}

impl ParaphraseConfig {
    /// The provider used when a request names none, once [`crate::settings`] has chosen it.
    pub fn default_provider(&self) -> &str {
        self.default_provider.as_deref().unwrap_or(crate::plugins::defaults::OFFLINE_PROVIDER)
    }
}

impl Section for ParaphraseConfig {
    const NAME: &'static str = "paraphrase";
    const ABOUT: &'static str = "Paraphrase generation";

    fn settings() -> &'static [Setting<Self>] {
        static SETTINGS: &[Setting<ParaphraseConfig>] = &[
            setting!(
                "default_provider",
                Kind::Name,
                |c| c.default_provider,
                "The provider when a request names none (unset: `openrouter` when its key is set, else `offline`)"
            ),
            setting!(
                "max_text_chars",
                Kind::Int { min: 1, max: 10_000_000 },
                |c| c.max_text_chars,
                "Longest text accepted, in characters"
            ),
            setting!(
                "rate_limit_per_minute",
                Kind::Int { min: 1, max: 1_000_000 },
                |c| c.rate_limit_per_minute,
                env = "RATE_LIMIT_REQUESTS_PER_MINUTE",
                "Calls per client and provider per minute to a provider that reaches an upstream (a `[[plugin]]` may set its own)"
            ),
            setting!(
                "rate_limit_store",
                Kind::Choice(&["redis", "local"]),
                |c| c.rate_limit_store,
                env = "RATE_LIMIT_STORE",
                "`redis`: rate limits shared by every replica, in the cache's Redis (per replica while it is down); `local`: per process. Unset: `redis` when the cache is Redis"
            ),
            setting!(
                "batch_max_size",
                Kind::Int { min: 1, max: 100_000 },
                |c| c.batch_max_size,
                env = "BATCH_MAX_SIZE",
                "Most texts in one `POST /paraphrase/batch`"
            ),
            setting!(
                "batch_max_workers",
                Kind::Int { min: 1, max: 1024 },
                |c| c.batch_max_workers,
                env = "BATCH_MAX_WORKERS",
                "Provider calls in flight per batch"
            ),
            setting!(
                "max_concurrent_calls",
                Kind::Int { min: 1, max: 65_536 },
                |c| c.max_concurrent_calls,
                "Calls of one provider in flight at once (unless its [[plugin]] limits.max_instances says otherwise); more wait up to [runtime] queue_timeout_ms, then 503 plugin_busy"
            ),
            setting!(
                "upstream_retries",
                Kind::Int { min: 0, max: 10 },
                |c| c.upstream_retries,
                "Retries of an upstream's own 429 before it is reported"
            ),
            setting!(
                "max_candidates",
                Kind::Int { min: 1, max: 64 },
                |c| c.max_candidates,
                "Most `candidates` a paraphrase request may ask of each provider"
            ),
        ];
        SETTINGS
    }
}
