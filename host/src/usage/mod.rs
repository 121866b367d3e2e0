//! Usage and spend: the [`Accountant`] that the plugin runtime tells every settled call to (its
//! tokens as the upstream reported them, its cost as the operator priced it), which counts them in
//! the metrics and records them in the store's ledger in batches; and the [`Ledger`] reports read
//! from it (`GET /usage`, `parlance usage`). The `[usage]` section names the currency.

pub mod budget;
pub mod report;
pub mod routes;

pub use report::{Ledger, Period, ReportRequest, UsageReport, Viewer};

use crate::config::setting;
use crate::config::{Kind, Section, Setting};
use crate::metrics::Metrics;
use crate::plugins::api::{Admission, Hold, Meter, Settled, Settlement};
use crate::redis_link::RedisLink;
use crate::store::usage::UsageCall;
use crate::store::{DialogStore, Trouble};
use budget::{Budgets, Estimate, Reservation};
use futures::future::BoxFuture;
use std::sync::{Arc, OnceLock};
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};

/// The `[usage]` section.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UsageConfig {
    /// The currency every price and budget is in (ISO 4217), for reports.
    pub currency: String,
    /// `false`: calls are counted in the metrics but not recorded in the ledger.
    pub record: bool,
    /// How long a call's answer waits for its record to be committed before it goes out anyway.
    pub commit_wait_ms: u64,
}

impl Default for UsageConfig {
    fn default() -> Self {
        UsageConfig { currency: "USD".into(), record: true, commit_wait_ms: 2000 }
    }
}

impl Section for UsageConfig {
    const NAME: &'static str = "usage";
    const ABOUT: &'static str = "Usage and spend";

    fn settings() -> &'static [Setting<Self>] {
        static SETTINGS: &[Setting<UsageConfig>] = &[
            setting!(
                "currency",
                Kind::Name,
                |c| c.currency,
                env = "PARLANCE_CURRENCY",
                "The currency of every `[plugin.prices]` amount and of usage reports (one per deployment)"
            ),
            setting!(
                "record",
                Kind::Bool,
                |c| c.record,
                env = "PARLANCE_USAGE_RECORD",
                "`false`: plugin calls are counted in /metrics but not recorded in the usage ledger"
            ),
            setting!(
                "commit_wait_ms",
                Kind::Int { min: 0, max: 60_000 },
                |c| c.commit_wait_ms,
                "How long an answer waits for its calls' ledger records to commit; past it the answer goes \
                 out and the record is still written (a store that is down is retried)"
            ),
        ];
        SETTINGS
    }
}

/// The most calls written in one ledger transaction.
const MAX_BATCH: usize = 512;

/// The most records waiting for the store; past it new ones are dropped, each drop logged and counted.
const MAX_QUEUED: usize = 100_000;

/// A record on its way to the ledger, with whoever waits for its commit.
type Queued = (UsageCall, Option<oneshot::Sender<()>>);

/// Records what each plugin call used: counted at once in the metrics, and written to the ledger by
/// one task in batches (a group commit), each call's answer waiting for its batch.
pub struct Accountant {
    metrics: Arc<Metrics>,
    queue: mpsc::Sender<Queued>,
    /// The store the writer task writes to, set once the store is open (the plugins load first).
    store: Arc<OnceLock<DialogStore>>,
    wait: Duration,
    record: bool,
    budgets: Arc<Budgets>,
}

impl Accountant {
    /// Starts the writer task (on the current runtime); budgets are shared through `link` when given.
    pub fn start(config: &UsageConfig, metrics: Arc<Metrics>, link: Option<RedisLink>) -> Arc<Accountant> {
        let (queue, receiver) = mpsc::channel(MAX_QUEUED);
        let store = Arc::new(OnceLock::new());
        tokio::spawn(write_batches(receiver, store.clone(), metrics.clone()));
        Arc::new(Accountant {
            metrics,
            queue,
            budgets: Arc::new(Budgets::new(link, store.clone())),
            store,
            wait: Duration::from_millis(config.commit_wait_ms),
            record: config.record,
        })
    }

    /// Records into `store` from now on. Calls settled before it had none are counted in the metrics
    /// only (a library or command-line run without a store).
    pub fn keep_in(&self, store: DialogStore) {
        let _ = self.store.set(store);
    }

    pub fn store(&self) -> Option<&DialogStore> {
        self.store.get()
    }
}

impl Meter for Accountant {
    fn admit<'a>(&'a self, call: Admission<'a>) -> BoxFuture<'a, Result<Option<Hold>, String>> {
        Box::pin(async move {
            let estimate = Estimate { cost: call.cost, tokens: call.tokens };
            let (key, client) = (call.scope.key.as_deref(), ledger_client(call.client));
            let mut reservation = self.budgets.reserve(key, client, estimate, now_millis()).await?;
            if reservation.is_empty() {
                return Ok(None);
            }
            if let Some(warning) = reservation.warning.take() {
                call.scope.notify(warning);
            }
            Ok(Some(Box::new(reservation) as Hold))
        })
    }

    fn settle(&self, mut call: Settled<'_>) -> Settlement {
        self.metrics.count_usage(call.plugin, call.model, call.usage, call.cost);
        let budget =
            call.hold.take().and_then(|hold| hold.downcast::<Reservation>().ok()).map(|reservation| {
                let budgets = self.budgets.clone();
                let tokens = u64::from(call.usage.input_tokens.unwrap_or(0))
                    + u64::from(call.usage.output_tokens.unwrap_or(0));
                let cost = call.cost;
                async move { budgets.settle(*reservation, cost, tokens).await }
            });
        if let Some(budget) = budget {
            tokio::spawn(budget);
        }
        if !self.record || self.store.get().is_none() {
            return Box::pin(std::future::ready(()));
        }
        let record = UsageCall {
            id: call_id(),
            at: now_millis(),
            key_id: call.scope.key.as_deref().map(str::to_owned),
            client: ledger_client(call.client).to_owned(),
            plugin: call.plugin.to_owned(),
            model: call.model.map(str::to_owned),
            surface: call.scope.surface.to_owned(),
            input_tokens: call.usage.input_tokens,
            output_tokens: call.usage.output_tokens,
            cost: call.cost,
            failure: call.failure.map(str::to_owned),
            trace_id: call.trace_id,
        };
        let (done, committed) = oneshot::channel();
        if let Err(e) = self.queue.try_send((record, Some(done))) {
            let record = match e {
                mpsc::error::TrySendError::Full((r, _)) | mpsc::error::TrySendError::Closed((r, _)) => r,
            };
            tracing::error!(
                plugin = %record.plugin,
                client = %record.client,
                "the usage ledger's queue is full ({MAX_QUEUED} records); this call is not recorded"
            );
            self.metrics.usage_records_dropped.inc();
            return Box::pin(std::future::ready(()));
        }
        let wait = self.wait;
        Box::pin(async move {
            let _ = tokio::time::timeout(wait, committed).await;
        })
    }
}

/// The client a call is recorded for: the services key their rate limits by `client:NAME` or, for a
/// caller that names none, `ip:ADDRESS`; the ledger keeps the name, and an anonymous caller is the
/// `default` client, as in the chat API.
fn ledger_client(client: &str) -> &str {
    match client.strip_prefix("client:") {
        Some(name) => name,
        None if client.starts_with("ip:") => crate::rest::extract::DEFAULT_CLIENT_ID,
        None => client,
    }
}

/// The writer task: takes what is queued (up to [`MAX_BATCH`]) and records it in one transaction. A
/// batch that fails is tried again (its ids make a repeat harmless) for as long as the store is away;
/// one the store refuses as it is ([`Trouble::Other`]) [`REFUSED_TRIES`] times in a row is written a
/// call at a time, so that one bad record is dropped (logged and counted) rather than holding up every
/// later one.
async fn write_batches(
    mut receiver: mpsc::Receiver<Queued>,
    store: Arc<OnceLock<DialogStore>>,
    metrics: Arc<Metrics>,
) {
    let mut batch: Vec<Queued> = Vec::new();
    while receiver.recv_many(&mut batch, MAX_BATCH).await > 0 {
        let Some(store) = store.get() else {
            batch.clear();
            continue;
        };
        let calls: Vec<UsageCall> = batch.iter().map(|(call, _)| call.clone()).collect();
        if !record(store, calls.clone()).await {
            for call in calls {
                if !record(store, vec![call.clone()]).await {
                    tracing::error!(
                        id = %call.id,
                        plugin = %call.plugin,
                        client = %call.client,
                        "the store refuses this usage record; it is dropped"
                    );
                    metrics.usage_records_dropped.inc();
                }
            }
        }
        for (_, waiter) in batch.drain(..) {
            if let Some(waiter) = waiter {
                let _ = waiter.send(());
            }
        }
    }
}

/// Refusals in a row after which a batch is taken apart, or a single record dropped.
const REFUSED_TRIES: u32 = 3;

/// Records `calls`, trying again while the store is away: false once the store has refused them
/// [`REFUSED_TRIES`] times in a row.
async fn record(store: &DialogStore, calls: Vec<UsageCall>) -> bool {
    let mut delay = Duration::from_millis(100);
    let (mut warned, mut refused) = (false, 0);
    loop {
        let e = match store.record_usage(calls.clone()).await {
            Ok(_) => return true,
            Err(e) => e,
        };
        if e.trouble() == Trouble::Other {
            refused += 1;
            if refused >= REFUSED_TRIES {
                tracing::warn!(calls = calls.len(), "the store refuses usage records: {e}");
                return false;
            }
        } else {
            refused = 0;
        }
        if !warned {
            tracing::warn!(calls = calls.len(), "cannot record usage: {e}; trying again");
            warned = true;
        }
        tokio::time::sleep(delay).await;
        delay = (delay * 2).min(Duration::from_secs(5));
    }
}

/// 128 random bits in hex: a record's id, made once, so that writing it twice counts it once.
fn call_id() -> String {
    let mut bytes = [0u8; 16];
    // Without randomness the id still has to be unique within the process: the clock and a counter.
    if getrandom::fill(&mut bytes).is_err() {
        static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        bytes[..8].copy_from_slice(&now_millis().to_be_bytes());
        bytes[8..].copy_from_slice(&n.to_be_bytes());
    }
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

pub fn now_millis() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}
