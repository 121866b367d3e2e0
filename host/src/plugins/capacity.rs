//! Sharing the instance pool fairly: a call holds a slot of its client's share, of its plugin's share
//! and of the pool, taken in that order within one queue deadline, so that no client, plugin or slow
//! upstream can hold every slot; and a process-wide budget of linear memory across live instances, of
//! which one plugin's instances may hold half, so that what plugins do cannot take the process's
//! memory past a bound, and a memory-hungry plugin cannot take all of it from the others.

use super::api::{CallError, CallFailure};
use super::settings::RuntimeConfig;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// The slots a call holds for as long as its instance lives.
pub struct Held {
    _pool: OwnedSemaphorePermit,
    _plugin: OwnedSemaphorePermit,
    _client: OwnedSemaphorePermit,
}

/// The pool and the clients' shares of it.
pub struct Capacity {
    pool: Arc<Semaphore>,
    pool_size: u32,
    per_client: u32,
    /// A semaphore per client, forgotten once the client has been idle for a while (a permit still
    /// held keeps its semaphore alive, so a forgotten one never lets a client exceed its share).
    clients: moka::sync::Cache<String, Arc<Semaphore>>,
    queue_timeout: Duration,
    pub budget: Arc<MemoryBudget>,
    pub streams: StreamShares,
}

impl Capacity {
    pub fn new(settings: &RuntimeConfig) -> Capacity {
        let pool_size = settings.max_instances.max(1);
        Capacity {
            pool: Arc::new(Semaphore::new(pool_size as usize)),
            pool_size,
            per_client: settings.per_client(),
            clients: moka::sync::Cache::builder()
                .max_capacity(100_000)
                .time_to_idle(Duration::from_secs(600))
                .build(),
            queue_timeout: Duration::from_millis(settings.queue_timeout_ms),
            budget: Arc::new(MemoryBudget::new(settings.memory_budget_mb << 20)),
            streams: StreamShares::new(settings.max_streams, settings.streams_per_client()),
        }
    }

    /// A plugin's share of the pool: what its limits say, else half.
    pub fn plugin_share(&self, configured: Option<u32>) -> Arc<Semaphore> {
        let share = configured.unwrap_or(self.pool_size / 2).clamp(1, self.pool_size);
        Arc::new(Semaphore::new(share as usize))
    }

    /// A plugin's share of the memory budget: half of it.
    pub fn plugin_memory(&self) -> Arc<MemoryBudget> {
        Arc::new(MemoryBudget::new(self.budget.limit() / 2))
    }

    /// Waits, at most the queue timeout in all, for a slot of the client's share, of the plugin's
    /// share (`plugin_slots`) and of the pool.
    pub async fn acquire(
        &self,
        plugin: &str,
        plugin_slots: &Arc<Semaphore>,
        client: &str,
    ) -> Result<Held, CallError> {
        let deadline = Instant::now() + self.queue_timeout;
        let per_client = self.per_client as usize;
        let client_slots = self.clients.get_with_by_ref(client, || Arc::new(Semaphore::new(per_client)));
        let waited = self.queue_timeout.as_millis() as u64;
        let client = take(&client_slots, deadline, plugin).await?.ok_or_else(|| {
            CallError::new(plugin, CallFailure::ClientBusy { share: self.per_client, waited_ms: waited })
        })?;
        let busy = |what: &'static str| CallError::new(plugin, CallFailure::Busy { what, waited_ms: waited });
        let plugin_slot = take(plugin_slots, deadline, plugin).await?.ok_or_else(|| busy("its share of"))?;
        let pool = take(&self.pool, deadline, plugin).await?.ok_or_else(|| busy("a slot of"))?;
        Ok(Held { _pool: pool, _plugin: plugin_slot, _client: client })
    }
}

/// The open streamed replies, shared as the instance pool is: a stream holds a share of its client's,
/// of its chat model's (half) and of the whole for as long as it is open. A stream waits on its
/// upstream, not on a slot, so one that finds its share full is refused at once rather than queued.
pub struct StreamShares {
    pool: Arc<Semaphore>,
    size: u32,
    per_client: u32,
    clients: moka::sync::Cache<String, Arc<Semaphore>>,
    plugins: moka::sync::Cache<String, Arc<Semaphore>>,
}

/// The shares one open stream holds.
pub struct StreamHeld {
    _pool: OwnedSemaphorePermit,
    _plugin: OwnedSemaphorePermit,
    _client: OwnedSemaphorePermit,
}

impl StreamShares {
    fn new(size: u32, per_client: u32) -> StreamShares {
        let shares = || {
            moka::sync::Cache::builder().max_capacity(100_000).time_to_idle(Duration::from_secs(600)).build()
        };
        StreamShares {
            pool: Arc::new(Semaphore::new(size.max(1) as usize)),
            size: size.max(1),
            per_client,
            clients: shares(),
            plugins: shares(),
        }
    }

    /// Admits one more stream of `plugin` for `client`, or says whose share is full.
    pub fn admit(&self, plugin: &str, client: &str) -> Result<StreamHeld, CallError> {
        let per_client = self.per_client as usize;
        let client_share = self.clients.get_with_by_ref(client, || Arc::new(Semaphore::new(per_client)));
        let plugin_size = (self.size / 2).max(1) as usize;
        let plugin_share = self.plugins.get_with_by_ref(plugin, || Arc::new(Semaphore::new(plugin_size)));
        let full =
            |share: u32, client: bool| CallError::new(plugin, CallFailure::StreamsFull { share, client });
        let client = client_share.try_acquire_owned().map_err(|_| full(self.per_client, true))?;
        let plugin_slot = plugin_share.try_acquire_owned().map_err(|_| full(plugin_size as u32, false))?;
        let pool = self.pool.clone().try_acquire_owned().map_err(|_| full(self.size, false))?;
        Ok(StreamHeld { _pool: pool, _plugin: plugin_slot, _client: client })
    }
}

/// A permit, `None` when the deadline passed first.
async fn take(
    semaphore: &Arc<Semaphore>,
    deadline: Instant,
    plugin: &str,
) -> Result<Option<OwnedSemaphorePermit>, CallError> {
    // A free slot is taken without a timer: the usual case costs no clock read and no timer entry.
    if let Ok(permit) = semaphore.clone().try_acquire_owned() {
        return Ok(Some(permit));
    }
    let wait = deadline.saturating_duration_since(Instant::now());
    match tokio::time::timeout(wait, semaphore.clone().acquire_owned()).await {
        Ok(Ok(permit)) => Ok(Some(permit)),
        Ok(Err(_)) => {
            Err(CallError::new(plugin, CallFailure::NotStarted("the plugin runtime is shutting down".into())))
        }
        Err(_) => Ok(None),
    }
}

/// Bytes of linear memory held by all live instances together, against a limit.
pub struct MemoryBudget {
    limit: u64,
    used: AtomicU64,
}

impl MemoryBudget {
    pub fn new(limit: u64) -> MemoryBudget {
        MemoryBudget { limit, used: AtomicU64::new(0) }
    }

    pub fn limit(&self) -> u64 {
        self.limit
    }

    /// Takes `bytes` from the budget, or nothing when they would pass the limit.
    pub fn try_take(&self, bytes: u64) -> bool {
        self.used
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |used| {
                used.checked_add(bytes).filter(|total| *total <= self.limit)
            })
            .is_ok()
    }

    pub fn give_back(&self, bytes: u64) {
        self.used.fetch_sub(bytes, Ordering::AcqRel);
    }

    pub fn used(&self) -> u64 {
        self.used.load(Ordering::Acquire)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_budget_is_shared_and_given_back() {
        let budget = MemoryBudget::new(100);
        assert!(budget.try_take(60));
        assert!(!budget.try_take(50), "past the limit");
        assert!(budget.try_take(40));
        budget.give_back(60);
        assert_eq!(budget.used(), 40);
        assert!(budget.try_take(60));
    }

    #[tokio::test]
    async fn a_client_a_plugin_or_the_pool_full_fails_fast_with_what_was_full() {
        let settings = RuntimeConfig {
            max_instances: 4,
            max_instances_per_client: Some(2),
            queue_timeout_ms: 50,
            ..RuntimeConfig::default()
        };
        let capacity = Capacity::new(&settings);
        let slow = capacity.plugin_share(None);
        assert_eq!(slow.available_permits(), 2, "half the pool");
        let a1 = capacity.acquire("slow", &slow, "a").await.unwrap();
        let _a2 = capacity.acquire("slow", &slow, "a").await.unwrap();
        let e = capacity.acquire("fast", &capacity.plugin_share(None), "a").await.err().unwrap();
        assert!(matches!(e.failure, CallFailure::ClientBusy { share: 2, .. }), "{e}");
        let e = capacity.acquire("slow", &slow, "b").await.err().unwrap();
        assert!(matches!(e.failure, CallFailure::Busy { what: "its share of", .. }), "{e}");
        // Another plugin and another client still get the rest of the pool.
        let fast = capacity.plugin_share(None);
        let _b1 = capacity.acquire("fast", &fast, "b").await.unwrap();
        let _c1 = capacity.acquire("fast", &fast, "c").await.unwrap();
        let other = capacity.plugin_share(None);
        let e = capacity.acquire("other", &other, "d").await.err().unwrap();
        assert!(matches!(e.failure, CallFailure::Busy { what: "a slot of", .. }), "{e}");
        drop(a1);
        assert!(capacity.acquire("other", &other, "d").await.is_ok(), "a freed slot is taken");
    }
}
