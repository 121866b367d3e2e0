//! Usage and spend: the [`Accountant`] that the plugin runtime tells every settled call to (its
//! tokens as the upstream reported them, its cost as the operator priced it), which counts them in
//! the metrics and records them in the store's ledger in batches; and the [`Ledger`] reports read
//! from it (`GET /usage`, `parlance usage`). The `[usage]` section names the currency.

pub mod budget;
pub mod report;
pub mod routes;
pub mod spool;

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
    /// Where a server spools records; `None`: beside the SQLite file, as `<database_file>-usage`.
    pub spool: Option<std::path::PathBuf>,
}

impl Default for UsageConfig {
    fn default() -> Self {
        UsageConfig { currency: "USD".into(), record: true, commit_wait_ms: 2000, spool: None }
    }
}

impl UsageConfig {
    /// The spool directory for a store whose SQLite file is (or would be) `database_file`.
    pub fn spool_dir(&self, database_file: &std::path::Path) -> std::path::PathBuf {
        self.spool.clone().unwrap_or_else(|| {
            let mut name = database_file.as_os_str().to_owned();
            name.push("-usage");
            name.into()
        })
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
                "How long an answer of the command line or the library waits for its calls' ledger \
                 records to commit (a server's answers wait only for the spool); past it the answer goes \
                 out and the record is still written (a store that is down is retried)"
            ),
            setting!(
                "spool",
                Kind::FilePath,
                |c| c.spool,
                env = "PARLANCE_USAGE_SPOOL",
                "The directory where a server appends each call's usage record before answering, so that \
                 a record survives the process being killed before the ledger commits it (replayed by the \
                 next server started there, or a live one sharing it); default: beside the SQLite file, \
                 as `<database_file>-usage`"
            ),
        ];
        SETTINGS
    }
}

/// The most calls written in one ledger transaction.
const MAX_BATCH: usize = 512;

/// The most records waiting for the store; past it new ones are dropped, each drop logged and counted.
const MAX_QUEUED: usize = 100_000;

/// How long the writer gathers spooled records before it writes them: the batch a commit's cost is
/// spread over (about 240 records at one connection's pace of about 2,400 calls a second, where a
/// record then costs about half what it costs in batches of 50). Nothing waits for it but reports
/// from other processes.
pub const LINGER: Duration = Duration::from_millis(100);

/// What the writer task is given.
// Nearly every message is a call: boxing it would cost an allocation each to save room on the rest.
#[allow(clippy::large_enum_variant)]
enum Queued {
    /// A call's record, from spool segment `segment` when spooled, else with whoever waits for its
    /// commit.
    Call { call: UsageCall, segment: Option<u64>, waiter: Option<oneshot::Sender<()>> },
    /// Answered once everything queued before it, and what dead processes left in the spool's
    /// directory, is committed.
    Flush(oneshot::Sender<()>),
}

/// Records what each plugin call used: counted at once in the metrics, and written to the ledger by
/// one task in batches (a group commit). A server spools each record before its call's answer goes
/// out ([`spool`]); elsewhere (the command line, the library) the answer waits for its batch.
pub struct Accountant {
    metrics: Arc<Metrics>,
    queue: mpsc::Sender<Queued>,
    /// The store the writer task writes to, set once the store is open (the plugins load first).
    store: Arc<OnceLock<DialogStore>>,
    spool: Arc<OnceLock<spool::Spool>>,
    /// Told when something is queued that someone waits for.
    urgent: Arc<tokio::sync::Notify>,
    wait: Duration,
    record: bool,
    budgets: Arc<Budgets>,
}

impl Accountant {
    /// Starts the writer task (on the current runtime); budgets are shared through `link` when given.
    pub fn start(config: &UsageConfig, metrics: Arc<Metrics>, link: Option<RedisLink>) -> Arc<Accountant> {
        let (queue, receiver) = mpsc::channel(MAX_QUEUED);
        let (store, spool) = (Arc::new(OnceLock::new()), Arc::new(OnceLock::new()));
        let urgent = Arc::new(tokio::sync::Notify::new());
        tokio::spawn(write_batches(receiver, urgent.clone(), store.clone(), spool.clone(), metrics.clone()));
        Arc::new(Accountant {
            metrics,
            queue,
            urgent,
            budgets: Arc::new(Budgets::new(link, store.clone())),
            store,
            spool,
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

    /// Spools records in `dir` from now on (a server, once its store is open); the writer replays
    /// what dead processes spooled there for the same store. `sync`: each record is synced to the
    /// disk.
    pub fn spool_in(&self, dir: &std::path::Path, sync: bool) -> std::io::Result<()> {
        let Some(store) = self.store.get().filter(|_| self.record && self.spool.get().is_none()) else {
            return Ok(());
        };
        let _ = self.spool.set(spool::Spool::open(dir, &store.location(), sync)?);
        Ok(())
    }

    /// Waits until every record settled so far is committed (or the store has been away for
    /// `commit_wait_ms`), so that a report read next includes them.
    pub async fn flush(&self) {
        if self.store.get().is_none() {
            return;
        }
        if let Some(flushed) = self.queue_flush().await {
            let _ = tokio::time::timeout(self.wait, flushed).await;
        }
    }

    /// The server is stopping: commits what is queued, then deletes the spool (nothing in it is
    /// left to replay). A spool whose records could not all be committed (in time, or at all: some
    /// were dropped from a full queue, [`spool::Spool::keep`]) is kept for the next start to replay.
    pub async fn close(&self) {
        let Some(spool) = self.spool.get() else { return };
        let Some(flushed) = self.queue_flush().await else { return };
        let committed = tokio::time::timeout(self.wait, flushed).await.is_ok_and(|r| r.is_ok());
        if !(committed && spool.close()) {
            tracing::warn!(
                "the usage spool is kept, its records not all committed; the next start replays it"
            );
        }
    }

    /// Queues a flush: answered once everything queued before it is committed.
    async fn queue_flush(&self) -> Option<oneshot::Receiver<()>> {
        let (done, flushed) = oneshot::channel();
        self.queue.send(Queued::Flush(done)).await.ok()?;
        self.urgent.notify_one();
        Some(flushed)
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
        // Spawned, so that it is done even if the caller goes away, and waited for by the answer, so
        // that the caller's next call is checked against what this one really cost rather than what
        // it held.
        let budget = budget.map(tokio::spawn);
        let answered = |budget: Option<tokio::task::JoinHandle<()>>| -> Settlement {
            match budget {
                None => Box::pin(std::future::ready(())),
                Some(settling) => Box::pin(async move {
                    let _ = settling.await;
                }),
            }
        };
        if !self.record || self.store.get().is_none() {
            return answered(budget);
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
        let dropped = |metrics: &Metrics, record: &UsageCall, spooled: bool| {
            let fate = if spooled { "kept in the spool for the next start" } else { "not recorded" };
            tracing::error!(
                plugin = %record.plugin,
                client = %record.client,
                "the usage ledger's queue is full ({MAX_QUEUED} records); this call's record is {fate}"
            );
            metrics.usage_records_dropped.inc();
        };
        let returned = |e: mpsc::error::TrySendError<Queued>| match e.into_inner() {
            Queued::Call { call, .. } => call,
            _ => unreachable!("only calls are sent here"),
        };
        let record = match self.spool.get() {
            None => record,
            Some(spool) => {
                let (line, mut unsent) = (spool::Spool::line(&record), Some(record));
                let spooled = spool.append(&line, |segment| {
                    let call = Queued::Call { call: unsent.take()?, segment: Some(segment), waiter: None };
                    self.queue.try_send(call).err().map(returned)
                });
                match spooled {
                    Ok(None) => return answered(budget),
                    // Still in the spool, which is kept from now on for the next start to replay.
                    Ok(Some(record)) => {
                        spool.keep();
                        dropped(&self.metrics, &record, true);
                        return answered(budget);
                    }
                    Err(e) => {
                        tracing::warn!("cannot spool a usage record: {e}; its answer waits for its commit");
                        unsent.expect("a record not appended is not sent")
                    }
                }
            }
        };
        let (done, committed) = oneshot::channel();
        if let Err(e) = self.queue.try_send(Queued::Call { call: record, segment: None, waiter: Some(done) })
        {
            dropped(&self.metrics, &returned(e), false);
            return answered(budget);
        }
        let wait = self.wait;
        Box::pin(async move {
            answered(budget).await;
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
/// batch of spooled records only is given [`LINGER`] to grow first, since no answer waits for it.
/// A batch that fails is tried again (its ids make a repeat harmless) for as long as the store is
/// away; one the store refuses as it is ([`Trouble::Other`]) [`REFUSED_TRIES`] times in a row is
/// written a call at a time, so that one bad record is dropped (logged and counted) rather than
/// holding up every later one.
async fn write_batches(
    mut receiver: mpsc::Receiver<Queued>,
    urgent: Arc<tokio::sync::Notify>,
    store: Arc<OnceLock<DialogStore>>,
    spool: Arc<OnceLock<spool::Spool>>,
    metrics: Arc<Metrics>,
) {
    let mut queued: Vec<Queued> = Vec::new();
    // The first tick is at once: what a dead process left is replayed as this one starts.
    let mut scan = tokio::time::interval(ORPHANS_EVERY);
    scan.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            received = receiver.recv_many(&mut queued, MAX_BATCH) => {
                if received == 0 {
                    return;
                }
            }
            _ = scan.tick() => {
                if let (Some(store), Some(spool)) = (store.get(), spool.get()) {
                    replay_orphans(store, spool, &metrics).await;
                }
                continue;
            }
        }
        let waited_for = |q: &Queued| !matches!(q, Queued::Call { waiter: None, .. });
        // A full batch is written at once: a backlog is worked off at the store's pace, not a batch
        // per linger.
        if queued.len() < MAX_BATCH && !queued.iter().any(waited_for) {
            // Asleep rather than receiving, so that a call's record wakes nothing on its way in; what
            // an answer or a report waits for cuts the sleep short.
            tokio::select! {
                () = tokio::time::sleep(LINGER) => {}
                () = urgent.notified() => {}
            }
            while queued.len() < MAX_BATCH {
                match receiver.try_recv() {
                    Ok(q) => queued.push(q),
                    Err(_) => break,
                }
            }
        }
        let Some(store) = store.get() else {
            queued.clear();
            continue;
        };
        let mut calls = Vec::with_capacity(queued.len());
        let (mut waiters, mut flushed, mut last_segment) = (Vec::new(), false, None);
        for q in queued.drain(..) {
            match q {
                Queued::Call { call, segment, waiter } => {
                    calls.push(call);
                    last_segment = segment.or(last_segment);
                    waiters.extend(waiter);
                }
                Queued::Flush(waiter) => {
                    waiters.push(waiter);
                    flushed = true;
                }
            }
        }
        if let (true, Some(spool)) = (flushed, spool.get()) {
            replay_orphans(store, spool, &metrics).await;
        }
        if !calls.is_empty() {
            write(store, calls, &metrics).await;
        }
        if let (Some(spool), Some(segment)) = (spool.get(), last_segment) {
            spool.committed_before(segment);
        }
        if spool.get().is_some_and(|spool| !spool.has_spare()) {
            let spool = spool.clone();
            let _ = tokio::task::spawn_blocking(move || spool.get().map(spool::Spool::prepare)).await;
        }
        for waiter in waiters {
            let _ = waiter.send(());
        }
    }
}

/// How often the writer looks for what dead processes sharing its spool's directory left there (a
/// report looks at once).
const ORPHANS_EVERY: Duration = Duration::from_secs(5);

/// Commits the records of the spool segments that dead processes left, then deletes them.
async fn replay_orphans(store: &DialogStore, spool: &spool::Spool, metrics: &Metrics) {
    let orphans = match spool.orphans() {
        Ok(orphans) => orphans,
        Err(e) => {
            tracing::warn!("cannot read the usage spool's directory for records to replay: {e}");
            return;
        }
    };
    for chunk in orphans.calls.chunks(MAX_BATCH) {
        write(store, chunk.to_vec(), metrics).await;
    }
    orphans.done();
}

/// Records `calls` in one transaction, or one at a time when the store refuses them together.
async fn write(store: &DialogStore, calls: Vec<UsageCall>, metrics: &Metrics) {
    let calls: Arc<[UsageCall]> = calls.into();
    if record(store, &calls).await {
        return;
    }
    for call in calls.iter() {
        if !record(store, &Arc::from(std::slice::from_ref(call))).await {
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

/// Refusals in a row after which a batch is taken apart, or a single record dropped.
const REFUSED_TRIES: u32 = 3;

/// Records `calls`, trying again while the store is away: false once the store has refused them
/// [`REFUSED_TRIES`] times in a row.
async fn record(store: &DialogStore, calls: &Arc<[UsageCall]>) -> bool {
    let mut delay = Duration::from_millis(100);
    let (mut warned, mut refused) = (false, 0);
    loop {
        let e = match store.record_usage(Arc::clone(calls)).await {
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

/// The millisecond it is made (48 bits), this process's 32 random bits and a counter (48 bits), in
/// hex: a record's id, made once, so that writing it twice counts it once; unique across processes
/// by their random bits, and growing with time, so that the ledger's index takes new rows at its end.
fn call_id() -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static PROCESS: OnceLock<u32> = OnceLock::new();
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let process = *PROCESS.get_or_init(|| {
        let mut bytes = [0u8; 4];
        // Without randomness, the process id and the time it started.
        if getrandom::fill(&mut bytes).is_err() {
            return std::process::id() ^ (now_millis() as u32).rotate_left(16);
        }
        u32::from_be_bytes(bytes)
    });
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    // Written digit by digit: `format!` with widths cost about 1,300 instructions a call.
    let mut id = String::with_capacity(32);
    for (value, digits) in [(now_millis() as u64, 12), (u64::from(process), 8), (n, 12)] {
        for shift in (0..digits).rev() {
            let digit = ((value >> (4 * shift)) & 0xf) as u8;
            id.push(char::from(if digit < 10 { b'0' + digit } else { b'a' + digit - 10 }));
        }
    }
    id
}

pub fn now_millis() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn call_ids_are_the_millisecond_the_process_and_a_counter_in_hex() {
        let before = now_millis() as u64;
        let (a, b) = (call_id(), call_id());
        assert_eq!(a.len(), 32);
        assert!(a.bytes().all(|c| c.is_ascii_digit() || (b'a'..=b'f').contains(&c)), "{a}");
        let millis = u64::from_str_radix(&a[..12], 16).unwrap();
        assert!(millis >= before && millis <= now_millis() as u64, "{a} at {before}");
        assert_eq!(a[12..20], b[12..20], "one process's bits");
        let count = |id: &str| u64::from_str_radix(&id[20..], 16).unwrap();
        assert!(count(&b) > count(&a), "{a} then {b}");
    }
}
