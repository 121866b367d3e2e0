//! The `[cache]` section: which store holds cached paraphrases, and for how long.

use crate::config::setting;
use crate::config::{Chosen, Kind, Section, Setting};
use std::time::Duration;

/// The seed's external cache store: a local address, port 6379, database 0.
pub const DEFAULT_REDIS_URL: &str = "redis://localhost:6379/0";

#[derive(Clone, Debug, PartialEq)]
pub struct CacheConfig {
    /// `redis` (the seed's external store) or `memory`.
    pub backend: Chosen<String>,
    /// The Redis URL, for the `redis` backend.
    pub url: Chosen<String>,
    /// Seconds a cached paraphrase lives; 0 disables the cache.
    pub ttl_secs: u64,
    /// Entries kept by the in-process cache (also the fallback when Redis is down).
    pub max_entries: u64,
    /// Not a setting: set by a command that runs once and exits (the CLI's modes). For it, a Redis
    /// that the configuration did not ask for and that is not running is no news, and is mentioned
    /// once at info level instead of warned about.
    pub one_shot: bool,
}

/// Where the response cache lives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CacheKind {
    /// An external Redis store at `url` (the seed's default).
    Redis { url: String },
    /// An in-process cache.
    Memory,
}

impl Default for CacheConfig {
    fn default() -> Self {
        CacheConfig {
            backend: Chosen::default_value("redis".into()),
            url: Chosen::default_value(DEFAULT_REDIS_URL.into()),
            ttl_secs: 3600,
            max_entries: 100_000,
            one_shot: false,
        }
    }
}

impl CacheConfig {
    pub fn kind(&self) -> CacheKind {
        if *self.backend == "redis" {
            CacheKind::Redis { url: self.url.value.clone() }
        } else {
            CacheKind::Memory
        }
    }

    /// Whether an unreachable Redis is worth a warning: the operator asked for Redis (by `type` or
    /// `url`), or the process is a server, whose cache outlives one command.
    pub fn warn_if_unreachable(&self) -> bool {
        !self.one_shot || self.backend.chosen || self.url.chosen
    }

    pub fn ttl(&self) -> Duration {
        Duration::from_secs(self.ttl_secs)
    }

    /// The Redis a component that shares state between replicas uses (the rate limits, the circuits),
    /// given its own `…_store` setting: the cache's when it says `redis`, or by default when the cache
    /// is Redis and the process serves (a one-shot command keeps its state to itself).
    pub fn shared_url(&self, store: Option<&str>) -> Option<String> {
        let shared = match store {
            Some(store) => store == "redis",
            None => matches!(self.kind(), CacheKind::Redis { .. }) && !self.one_shot,
        };
        shared.then(|| self.url.value.clone())
    }
}

impl Section for CacheConfig {
    const NAME: &'static str = "cache";
    const ABOUT: &'static str = "The paraphrase response cache";

    fn settings() -> &'static [Setting<Self>] {
        static SETTINGS: &[Setting<CacheConfig>] = &[
            setting!(
                "type",
                Kind::Choice(&["redis", "memory"]),
                |c| c.backend,
                env = "CACHE_TYPE",
                "`redis` (the external store) or `memory`"
            ),
            setting!(
                "url",
                Kind::Url(&["redis", "rediss", "redis+unix", "unix"]),
                |c| c.url,
                env = "CACHE_STORE_URL",
                "The Redis URL"
            ),
            setting!(
                "ttl_secs",
                Kind::Int { min: 0, max: 365 * 24 * 3600 },
                |c| c.ttl_secs,
                env = "CACHE_TTL",
                "Seconds a cached paraphrase lives (0 disables the cache)"
            ),
            setting!(
                "max_entries",
                Kind::Int { min: 1, max: 100_000_000 },
                |c| c.max_entries,
                "Entries kept by the in-process cache (also the fallback while Redis is down)"
            ),
        ];
        SETTINGS
    }
}
