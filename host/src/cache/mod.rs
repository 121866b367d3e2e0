//! The paraphrase response cache: Redis (the seed's external store) or in-process (moka), with a
//! memory fallback when Redis is unreachable. Cache errors never fail a request; they are counted,
//! warned about once per outage, and reported by `/health`.

mod settings;

pub use settings::{CacheConfig, CacheKind, DEFAULT_REDIS_URL};

use crate::redis_link::RedisLink;
use crate::telemetry::WithSpan;
use prometheus_client::metrics::counter::Counter;
use redis::AsyncCommands;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// What is cached for one paraphrase.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CachedParaphrase {
    pub paraphrase: String,
    pub model: String,
}

/// The cache key: a hash of the provider id, the resolved model, the plugin's component digest and
/// the text. The digest makes a changed plugin miss, so it never serves its predecessor's answers.
pub fn key(provider: &str, model: &str, component_digest: &str, text: &str) -> String {
    key_of(&[provider, model, component_digest, text])
}

/// The key of any answer: a hash of every field of its request, in order.
pub fn key_of<S: AsRef<str>>(fields: &[S]) -> String {
    let mut h = Sha256::new();
    // Length prefixes keep the fields apart whatever they contain.
    for field in fields.iter().map(AsRef::as_ref) {
        h.update((field.len() as u64).to_le_bytes());
        h.update(field.as_bytes());
    }
    // Into a buffer of its own: `hex::encode` collects its digits a char at a time, about 2,000
    // instructions a key.
    let mut digits = [0u8; 64];
    let written = hex::encode_to_slice(h.finalize(), &mut digits);
    debug_assert!(written.is_ok(), "32 bytes are 64 digits");
    format!("parlance:paraphrase:v1:{}", std::str::from_utf8(&digits).unwrap_or_default())
}

/// Counters and state for `GET /cache/stats` and `/health`.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct CacheStats {
    /// `redis` or `memory`: the configured store.
    pub backend: &'static str,
    /// `ok`, or `degraded` while Redis is unreachable and the memory fallback serves.
    pub status: &'static str,
    /// Why the store is degraded, when it is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    pub hits: u64,
    pub misses: u64,
    /// hits / (hits + misses), 0 when nothing was looked up yet.
    pub hit_rate: f64,
    /// Store operations that failed (and fell back to memory).
    pub errors: u64,
    pub ttl_secs: u64,
    /// Entries in the in-process cache (the store itself for `memory`, the fallback for `redis`).
    pub memory_entries: u64,
}

pub struct ResponseCache {
    redis: Option<RedisLink>,
    memory: moka::future::Cache<String, String>,
    ttl: Duration,
    /// Shared with the Prometheus registry, so `/cache/stats` and `/metrics` count the same events.
    hits: Counter,
    misses: Counter,
    errors: AtomicU64,
}

impl ResponseCache {
    pub async fn new(config: &CacheConfig, hits: Counter, misses: Counter) -> ResponseCache {
        let memory = moka::future::Cache::builder()
            .max_capacity(config.max_entries)
            .time_to_live(config.ttl().max(Duration::from_secs(1)))
            .build();
        let redis = match &config.kind() {
            CacheKind::Redis { url } => Some(
                RedisLink::connect(
                    url,
                    config.warn_if_unreachable(),
                    "response cache",
                    "serving from memory",
                )
                .await,
            ),
            CacheKind::Memory => None,
        };
        ResponseCache { redis, memory, ttl: config.ttl(), hits, misses, errors: AtomicU64::new(0) }
    }

    fn enabled(&self) -> bool {
        !self.ttl.is_zero()
    }

    /// A cached paraphrase, counting the hit or miss.
    pub async fn get(&self, key: &str) -> Option<CachedParaphrase> {
        self.get_value(key).await
    }

    pub async fn put(&self, key: &str, value: &CachedParaphrase) {
        self.put_value(key, value).await
    }

    /// Any cached answer (several candidates with their scores, say), counting the hit or miss.
    pub async fn get_value<T: DeserializeOwned>(&self, key: &str) -> Option<T> {
        if !self.enabled() {
            return None;
        }
        let span =
            crate::telemetry::trace_span!("cache.get", Internal, "parlance.cache.backend" => self.backend());
        let value = self.lookup(key).in_span(span.clone()).await;
        span.set_attribute("parlance.cache.hit", value.is_some());
        value
    }

    async fn lookup<T: DeserializeOwned>(&self, key: &str) -> Option<T> {
        let raw = match &self.redis {
            Some(redis) => {
                match redis.run(|mut c| async move { c.get::<_, Option<String>>(key).await }).await {
                    Ok(value) => value,
                    Err(()) => {
                        self.errors.fetch_add(1, Ordering::Relaxed);
                        self.memory.get(key).await
                    }
                }
            }
            None => self.memory.get(key).await,
        };
        let value = raw.and_then(|r| serde_json::from_str(&r).ok());
        let counter = if value.is_some() { &self.hits } else { &self.misses };
        counter.inc();
        value
    }

    pub async fn put_value<T: Serialize>(&self, key: &str, value: &T) {
        if !self.enabled() {
            return;
        }
        let span =
            crate::telemetry::trace_span!("cache.put", Internal, "parlance.cache.backend" => self.backend());
        self.store(key, value).in_span(span).await;
    }

    /// Where entries go: `redis` (with the memory fallback) or `memory`.
    fn backend(&self) -> &'static str {
        if self.redis.is_some() { "redis" } else { "memory" }
    }

    async fn store<T: Serialize>(&self, key: &str, value: &T) {
        let Ok(raw) = serde_json::to_string(value) else { return };
        if let Some(redis) = &self.redis {
            let secs = self.ttl.as_secs().max(1);
            let value = raw.as_str();
            if redis.run(|mut c| async move { c.set_ex::<_, _, ()>(key, value, secs).await }).await.is_ok() {
                return;
            }
            self.errors.fetch_add(1, Ordering::Relaxed);
        }
        self.memory.insert(key.to_owned(), raw).await;
    }

    pub fn stats(&self) -> CacheStats {
        let hits = self.hits.get();
        let misses = self.misses.get();
        let degraded = self.redis.as_ref().and_then(RedisLink::outage);
        CacheStats {
            backend: if self.redis.is_some() { "redis" } else { "memory" },
            status: if degraded.is_some() { "degraded" } else { "ok" },
            error: degraded,
            hits,
            misses,
            hit_rate: if hits + misses == 0 { 0.0 } else { hits as f64 / (hits + misses) as f64 },
            errors: self.errors.load(Ordering::Relaxed),
            ttl_secs: self.ttl.as_secs(),
            memory_entries: self.memory.entry_count(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Chosen;

    #[test]
    fn keys_are_those_already_stored() {
        // A shared Redis outlives any one version: the same request must keep its key.
        assert_eq!(
            key("p", "m", "d", "text"),
            "parlance:paraphrase:v1:295a57600b0c5fdce9867f5eefb6764587ac66e8d7abf8de7262c0afe89cc716"
        );
    }

    #[test]
    fn keys_separate_every_field() {
        let k = key("p", "m", "d", "text");
        assert_eq!(k, key("p", "m", "d", "text"));
        assert_ne!(k, key("p", "m", "d2", "text"), "a new component digest must miss");
        assert_ne!(k, key("p", "m2", "d", "text"));
        assert_ne!(key("ab", "c", "d", "t"), key("a", "bc", "d", "t"));
        assert!(k.starts_with("parlance:paraphrase:v1:"));
    }

    #[tokio::test]
    async fn memory_cache_counts_hits_and_misses() {
        let config = CacheConfig {
            backend: Chosen::set("memory".into()),
            ttl_secs: 60,
            max_entries: 10,
            ..CacheConfig::default()
        };
        let cache = ResponseCache::new(&config, Counter::default(), Counter::default()).await;
        let value = CachedParaphrase { paraphrase: "p".into(), model: "m".into() };
        assert_eq!(cache.get("k").await, None);
        cache.put("k", &value).await;
        assert_eq!(cache.get("k").await, Some(value));
        let stats = cache.stats();
        assert_eq!((stats.hits, stats.misses, stats.backend, stats.status), (1, 1, "memory", "ok"));
    }

    #[tokio::test]
    async fn an_unreachable_redis_falls_back_to_memory() {
        // Port 1 on loopback: nothing listens there.
        let config = CacheConfig {
            backend: Chosen::set("redis".into()),
            url: Chosen::set("redis://127.0.0.1:1/0".into()),
            ttl_secs: 60,
            max_entries: 10,
            one_shot: false,
        };
        let cache = ResponseCache::new(&config, Counter::default(), Counter::default()).await;
        let value = CachedParaphrase { paraphrase: "p".into(), model: "m".into() };
        cache.put("k", &value).await;
        assert_eq!(cache.get("k").await, Some(value));
        let stats = cache.stats();
        assert_eq!((stats.backend, stats.status), ("redis", "degraded"));
        assert!(stats.error.is_some());
    }

    #[tokio::test]
    async fn a_zero_ttl_disables_caching() {
        let config = CacheConfig {
            backend: Chosen::set("memory".into()),
            ttl_secs: 0,
            max_entries: 10,
            ..CacheConfig::default()
        };
        let cache = ResponseCache::new(&config, Counter::default(), Counter::default()).await;
        cache.put("k", &CachedParaphrase { paraphrase: "p".into(), model: "m".into() }).await;
        assert_eq!(cache.get("k").await, None);
    }
}
