//! The way out of finished spans: each written for the collector (`otlp.rs`) on the thread that
//! ended it, into that thread's batch; a bounded queue of full batches; one thread that sends them
//! to the collector, and the threads' partial batches once the delay has passed; and the count of
//! the spans that never got there.
//!
//! The SDK's batch processor wakes its thread for every span it is handed; on a busy server that is
//! two context switches per span, more than the span costs to make. Here the thread is woken once per
//! batch. A span is encoded where it ends, so its memory is freed on the thread that allocated it
//! (across threads, the allocator's frees cost more than the encoding), it takes no lock another
//! thread holds, and the export thread only sends bytes.

use super::TelemetryConfig;
use super::otlp::{Encoded, Finished, Sink};
use opentelemetry::KeyValue;
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use std::sync::{Arc, Condvar, LazyLock, Mutex, MutexGuard, OnceLock};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Where finished spans go; set once, by [`start`].
static BATCHES: OnceLock<Batches> = OnceLock::new();

/// Starts the export to the configured collector. `false` when none is configured, or
/// `OTEL_SDK_DISABLED` or `OTEL_TRACES_EXPORTER=none` turn traces off.
pub(super) fn start(config: &TelemetryConfig) -> Result<bool, String> {
    let traces_endpoint = config.variable("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT");
    let disabled = config.variable("OTEL_SDK_DISABLED").is_some_and(|v| v.eq_ignore_ascii_case("true"))
        || config.variable("OTEL_TRACES_EXPORTER").is_some_and(|v| v.eq_ignore_ascii_case("none"));
    if disabled || (config.endpoint.is_none() && traces_endpoint.is_none()) {
        return Ok(false);
    }
    // The specification's default; gRPC and JSON would reach a collector that cannot read the body.
    for name in ["OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "OTEL_EXPORTER_OTLP_PROTOCOL"] {
        if let Some(protocol) = config.variable(name) {
            if protocol != "http/protobuf" {
                return Err(format!("{name}={protocol:?}: Parlance exports over http/protobuf only"));
            }
            break;
        }
    }
    let otlp = super::otlp::Otlp::new(config, &resource(config), export_timeout(config))?;
    let batches = Batches::start(otlp, BatchSettings::from(config))
        .map_err(|e| format!("cannot start the export thread: {e}"))?;
    Ok(BATCHES.set(batches).is_ok())
}

/// What the spans come from: `OTEL_RESOURCE_ATTRIBUTES`, `service.name` from `OTEL_SERVICE_NAME` or
/// those attributes or else `parlance`, and what made the spans (`telemetry.sdk.*`). A list that
/// cannot be read is left out whole, as the specification asks, with a warning.
fn resource(config: &TelemetryConfig) -> Vec<KeyValue> {
    let mut attributes: Vec<KeyValue> =
        match config.variable("OTEL_RESOURCE_ATTRIBUTES").map(super::otlp::pairs) {
            Some(Ok(pairs)) => pairs.into_iter().map(|(key, value)| KeyValue::new(key, value)).collect(),
            Some(Err(e)) => {
                tracing::warn!("OTEL_RESOURCE_ATTRIBUTES is left out: {e}");
                Vec::new()
            }
            None => Vec::new(),
        };
    let service = config.variable("OTEL_SERVICE_NAME").map(str::to_owned).or_else(|| {
        attributes.iter().find(|kv| kv.key.as_str() == "service.name").map(|kv| kv.value.to_string())
    });
    attributes.retain(|kv| kv.key.as_str() != "service.name");
    attributes.push(KeyValue::new("service.name", service.unwrap_or_else(|| "parlance".into())));
    attributes.push(KeyValue::new("service.version", env!("CARGO_PKG_VERSION")));
    attributes.push(KeyValue::new("telemetry.sdk.name", "parlance"));
    attributes.push(KeyValue::new("telemetry.sdk.language", "rust"));
    attributes.push(KeyValue::new("telemetry.sdk.version", env!("CARGO_PKG_VERSION")));
    attributes
}

thread_local! {
    /// One span's message while it is written, on the thread that ended it.
    static SCRATCH: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Queues a finished span for export, written for the collector right here: the span's memory is
/// freed on the thread that allocated it, and the export thread only has batches to send.
pub(super) fn finished(span: Finished) {
    if let Some(batches) = BATCHES.get() {
        // A thread being torn down has no scratch left: its span is dropped.
        let _ = SCRATCH.try_with(|scratch| {
            let mut scratch = scratch.borrow_mut();
            scratch.clear();
            super::otlp::span(&mut scratch, &span);
            drop(span);
            batches.push(&scratch);
        });
    }
}

/// Exports what is left in the queue, within a few seconds.
pub(super) fn shutdown() {
    if let Some(batches) = BATCHES.get() {
        batches.shutdown(Duration::from_secs(3));
    }
}

/// A variable of a whole number, or `default` when it is unset or not one.
fn number(config: &TelemetryConfig, name: &str, default: u64) -> u64 {
    config.variable(name).and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// How long one export may take: `OTEL_EXPORTER_OTLP_TRACES_TIMEOUT`, else `OTEL_EXPORTER_OTLP_TIMEOUT`
/// (milliseconds), else the specification's 10 s.
fn export_timeout(config: &TelemetryConfig) -> Duration {
    let general = number(config, "OTEL_EXPORTER_OTLP_TIMEOUT", 10_000);
    Duration::from_millis(number(config, "OTEL_EXPORTER_OTLP_TRACES_TIMEOUT", general))
}

/// The batching the specification's `OTEL_BSP_*` variables describe.
#[derive(Clone, Copy, Debug)]
struct BatchSettings {
    /// Spans waiting at most (`[telemetry] max_queue_spans`, `OTEL_BSP_MAX_QUEUE_SIZE`).
    capacity: usize,
    /// Spans sent in one export at most (`OTEL_BSP_MAX_EXPORT_BATCH_SIZE`, 512).
    batch: usize,
    /// The longest a span waits for its batch (`OTEL_BSP_SCHEDULE_DELAY`, 5 s).
    delay: Duration,
}

impl From<&TelemetryConfig> for BatchSettings {
    fn from(config: &TelemetryConfig) -> BatchSettings {
        let capacity = config.max_queue_spans.max(1);
        let batch = (number(config, "OTEL_BSP_MAX_EXPORT_BATCH_SIZE", 512) as usize).clamp(1, capacity);
        BatchSettings {
            capacity,
            batch,
            delay: Duration::from_millis(number(config, "OTEL_BSP_SCHEDULE_DELAY", 5_000)),
        }
    }
}

/// Why finished spans never reached the collector.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct DropLabels {
    /// `queue_full` (the collector is slower than the spans come) or `export_failed` (it refused them or
    /// could not be reached).
    pub reason: &'static str,
}

/// Spans dropped since start, by reason; `/metrics` registers this family.
pub static SPANS_DROPPED: LazyLock<Family<DropLabels, Counter>> = LazyLock::new(|| {
    let family = Family::<DropLabels, Counter>::default();
    for reason in ["queue_full", "export_failed"] {
        drop(family.get_or_create(&DropLabels { reason }));
    }
    family
});

/// A lock whose data stays usable after a panic elsewhere: a panic in one span's maker must not end
/// tracing for the rest of the process, and no invariant here spans a panic (a `Vec` of finished
/// spans, counters, flags).
pub(super) fn unpoisoned<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn dropped(reason: &'static str, count: usize) {
    SPANS_DROPPED.get_or_create(&DropLabels { reason }).inc_by(count as u64);
}

/// What the export thread and the spans' makers share.
#[derive(Debug, Default)]
struct Queue {
    /// Batches waiting to be sent: full ones, and the threads' partial ones once the delay has passed.
    batches: std::collections::VecDeque<Encoded>,
    /// The spans of all of them.
    spans: usize,
    /// The bytes of batches that were sent, kept for the next ones: a batch grows to some hundred
    /// kilobytes, and growing fresh memory each time cost more than writing the spans.
    spare: Vec<Vec<u8>>,
    closing: bool,
    /// The export thread has ended (having sent what was left, unless its exporter panicked).
    closed: bool,
}

#[derive(Debug)]
struct Shared {
    queue: Mutex<Queue>,
    /// Wakes the export thread: a batch is full, or the process is closing.
    wake: Condvar,
    /// Wakes a shutdown waiting for the export thread's end.
    closed: Condvar,
    settings: BatchSettings,
    /// Each thread's batch while it fills (see [`Local`]).
    locals: Mutex<Vec<Arc<Local>>>,
}

/// A thread's batch while it fills: written by its thread under a lock only it takes, so a span
/// touches no memory another core writes; taken whole into the queue when full, and by the export
/// thread when the delay has passed or the process is closing. (With one queue every span took,
/// the lock's cache line moving between cores cost more than the span.)
#[derive(Debug, Default)]
struct Local {
    batch: Mutex<Encoded>,
}

thread_local! {
    /// This thread's batch, and the export it belongs to.
    static LOCAL: std::cell::RefCell<Option<(std::sync::Weak<Shared>, Arc<Local>)>> =
        const { std::cell::RefCell::new(None) };
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Queue> {
        unpoisoned(&self.queue)
    }

    /// Queues a thread's full batch, or drops and counts it when the queue is full or closing; gives
    /// back a sent batch's bytes for the next one.
    fn hand_over(&self, full: Encoded) -> Vec<u8> {
        let mut queue = self.lock();
        let spare = queue.spare.pop().unwrap_or_default();
        if queue.closing || queue.spans + full.spans > self.settings.capacity {
            drop(queue);
            dropped("queue_full", full.spans);
            return spare;
        }
        queue.spans += full.spans;
        queue.batches.push_back(full);
        self.wake.notify_one();
        spare
    }

    /// Moves every thread's partial batch into the queue; how many spans they held. A thread that
    /// has ended is forgotten once its batch is taken.
    fn collect(&self) -> usize {
        let mut partial = Vec::new();
        unpoisoned(&self.locals).retain(|local| {
            let mut batch = unpoisoned(&local.batch);
            if batch.spans > 0 {
                partial.push(std::mem::take(&mut *batch));
            }
            Arc::strong_count(local) > 1
        });
        let spans = partial.iter().map(|b| b.spans).sum();
        let mut queue = self.lock();
        queue.spans += spans;
        queue.batches.extend(partial);
        spans
    }

    /// Keeps a sent batch's bytes for a thread's next batch.
    fn recycle(&self, mut bytes: Vec<u8>) {
        let mut queue = self.lock();
        if queue.spare.len() < 4 {
            bytes.clear();
            queue.spare.push(bytes);
        }
    }

    /// Waits on `signal` until `ready` holds of the queue or `deadline` passes; says which.
    fn wait_until<'a>(
        &self,
        signal: &Condvar,
        mut queue: MutexGuard<'a, Queue>,
        deadline: Instant,
        ready: impl Fn(&Queue) -> bool,
    ) -> (MutexGuard<'a, Queue>, bool) {
        loop {
            if ready(&queue) {
                return (queue, true);
            }
            let now = Instant::now();
            if now >= deadline {
                return (queue, false);
            }
            queue =
                signal.wait_timeout(queue, deadline - now).unwrap_or_else(|poisoned| poisoned.into_inner()).0;
        }
    }
}

/// The queue and its export thread: see the module's documentation.
#[derive(Debug)]
struct Batches {
    shared: Arc<Shared>,
    thread: Mutex<Option<JoinHandle<()>>>,
}

impl Batches {
    fn start(sink: impl Sink, settings: BatchSettings) -> std::io::Result<Batches> {
        let shared = Arc::new(Shared {
            queue: Mutex::new(Queue::default()),
            wake: Condvar::new(),
            closed: Condvar::new(),
            settings,
            locals: Mutex::new(Vec::new()),
        });
        let worker = Exporter { shared: shared.clone(), sink, failing: false };
        let thread = std::thread::Builder::new().name("otlp-batches".into()).spawn(move || worker.run())?;
        Ok(Batches { shared, thread: Mutex::new(Some(thread)) })
    }

    /// Adds an encoded span to this thread's batch, which joins the queue when full; never waits.
    fn push(&self, span: &[u8]) {
        // A thread being torn down has no batch left: its span is dropped.
        let _ = LOCAL.try_with(|slot| {
            let mut slot = slot.borrow_mut();
            let ours = slot
                .as_ref()
                .is_some_and(|(shared, _)| std::ptr::eq(shared.as_ptr(), Arc::as_ptr(&self.shared)));
            if !ours {
                let local = Arc::new(Local::default());
                unpoisoned(&self.shared.locals).push(local.clone());
                *slot = Some((Arc::downgrade(&self.shared), local));
            }
            let (_, local) = slot.as_ref().expect("this thread's batch was made above");
            let mut batch = unpoisoned(&local.batch);
            super::otlp::span_field(&mut batch.bytes, span);
            batch.spans += 1;
            if batch.spans >= self.shared.settings.batch {
                let full = std::mem::take(&mut *batch);
                batch.bytes = self.shared.hand_over(full);
            }
        });
    }

    /// Sends what is left and ends the thread, waiting at most `timeout`; whether it ended.
    fn shutdown(&self, timeout: Duration) -> bool {
        self.shared.lock().closing = true;
        self.shared.wake.notify_one();
        let Some(thread) = unpoisoned(&self.thread).take() else {
            return true;
        };
        // The thread sends what is left, within one export's timeout; past `timeout` it is left to
        // finish on its own while the process exits.
        let queue = self.shared.lock();
        let (queue, closed) =
            self.shared.wait_until(&self.shared.closed, queue, Instant::now() + timeout, |q| q.closed);
        drop(queue);
        if closed {
            let _ = thread.join();
        }
        closed
    }
}

/// Tells a waiting shutdown that the export thread has ended, however it ends (a panicking exporter
/// included).
struct Closed(Arc<Shared>);

impl Drop for Closed {
    fn drop(&mut self) {
        self.0.lock().closed = true;
        self.0.closed.notify_all();
    }
}

/// The export thread's side.
struct Exporter<S> {
    shared: Arc<Shared>,
    sink: S,
    /// Whether the last export failed: a failure is logged when exports start failing and when they
    /// work again, not once per batch.
    failing: bool,
}

impl<S: Sink> Exporter<S> {
    fn run(mut self) {
        let _closed = Closed(self.shared.clone());
        let delay = self.shared.settings.delay;
        let mut collected = Instant::now();
        loop {
            let (batch, closing) = {
                // A batch to send, the shutdown, or the delay: whichever comes first.
                let woken = |q: &Queue| !q.batches.is_empty() || q.closing;
                let (mut queue, _) =
                    self.shared.wait_until(&self.shared.wake, self.shared.lock(), collected + delay, woken);
                let batch = queue.batches.pop_front();
                queue.spans -= batch.as_ref().map_or(0, |b| b.spans);
                (batch, queue.closing)
            };
            if let Some(batch) = batch {
                self.export(&batch);
                self.shared.recycle(batch.bytes);
            }
            // The threads' partial batches leave once the delay has passed, and at the end.
            if closing || Instant::now() >= collected + delay {
                let partial = self.shared.collect();
                collected = Instant::now();
                if closing && partial == 0 && self.shared.lock().batches.is_empty() {
                    return;
                }
            }
        }
    }

    fn export(&mut self, batch: &Encoded) {
        match self.sink.send(batch) {
            Ok(()) => {
                if std::mem::take(&mut self.failing) {
                    tracing::info!("the trace collector accepts spans again");
                }
            }
            Err(e) => {
                dropped("export_failed", batch.spans);
                if !std::mem::replace(&mut self.failing, true) {
                    tracing::warn!("cannot export spans to the trace collector (they are dropped): {e}");
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use opentelemetry::trace::{SpanContext, SpanId, SpanKind, Status, TraceFlags, TraceId, TraceState};
    use std::time::SystemTime;

    /// An exporter that records the size of each batch, and can be held shut so the queue fills.
    #[derive(Debug, Clone, Default)]
    struct Recorder {
        batches: Arc<Mutex<Vec<usize>>>,
        shut: Arc<(Mutex<bool>, Condvar)>,
    }

    impl Recorder {
        fn hold(&self, shut: bool) {
            *self.shut.0.lock().unwrap() = shut;
            self.shut.1.notify_all();
        }

        fn batches(&self) -> Vec<usize> {
            self.batches.lock().unwrap().clone()
        }

        /// Waits until the batches seen so far add up to `spans`.
        fn wait_for(&self, spans: usize) -> Vec<usize> {
            let deadline = Instant::now() + Duration::from_secs(10);
            while self.batches().iter().sum::<usize>() < spans {
                assert!(Instant::now() < deadline, "only {:?} exported", self.batches());
                std::thread::sleep(Duration::from_millis(5));
            }
            self.batches()
        }
    }

    impl Sink for Recorder {
        fn send(&mut self, batch: &Encoded) -> Result<(), String> {
            let (lock, open) = &*self.shut;
            let mut shut = lock.lock().unwrap();
            while *shut {
                shut = open.wait(shut).unwrap();
            }
            self.batches.lock().unwrap().push(batch.spans);
            Ok(())
        }
    }

    #[test]
    fn a_protocol_other_than_http_protobuf_is_refused_by_name() {
        let env = crate::config::Env::empty()
            .with("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4317")
            .with("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc");
        let config = TelemetryConfig { endpoint: Some("http://127.0.0.1:4317".into()), ..Default::default() }
            .with_standard_variables(&env);
        let refused = start(&config).unwrap_err();
        assert!(refused.contains("OTEL_EXPORTER_OTLP_PROTOCOL=\"grpc\""), "{refused}");
        assert!(BATCHES.get().is_none(), "nothing was started");
    }

    fn queue_full() -> u64 {
        SPANS_DROPPED.get_or_create(&DropLabels { reason: "queue_full" }).get()
    }

    #[test]
    fn spans_leave_in_full_batches_a_full_queue_drops_and_counts_and_the_shutdown_sends_the_rest() {
        let recorder = Recorder::default();
        // A delay longer than the test: only a full batch or the shutdown sends spans.
        let settings = BatchSettings { capacity: 4, batch: 2, delay: Duration::from_secs(3600) };
        let batches = Batches::start(recorder.clone(), settings).unwrap();
        let span = |name: &'static str| {
            let context = SpanContext::new(
                TraceId::from(1),
                SpanId::from(2),
                TraceFlags::SAMPLED,
                false,
                TraceState::NONE,
            );
            let mut encoded = Vec::new();
            super::super::otlp::span(
                &mut encoded,
                &Finished {
                    context,
                    parent: SpanId::INVALID,
                    parent_is_remote: false,
                    kind: SpanKind::Internal,
                    name: name.into(),
                    start: SystemTime::now(),
                    end: SystemTime::now(),
                    attributes: Vec::new(),
                    links: Vec::new(),
                    status: Status::Unset,
                },
            );
            batches.push(&encoded);
        };

        span("a");
        span("b");
        assert_eq!(recorder.wait_for(2), [2], "a full batch leaves at once");
        span("c");
        std::thread::sleep(Duration::from_millis(50));
        assert_eq!(recorder.batches(), [2], "a partial batch waits for the delay");

        // The collector stalls: the thread holds one batch, the queue fills to its capacity, and
        // the spans past it are dropped and counted, without blocking whoever made them.
        recorder.hold(true);
        let dropped_before = queue_full();
        for name in ["d", "e", "f", "g", "h", "i", "j", "k"] {
            span(name);
        }
        assert!(queue_full() - dropped_before >= 2, "spans past the capacity are counted as dropped");
        recorder.hold(false);
        assert!(batches.shutdown(Duration::from_secs(10)));
        let batches = recorder.batches();
        let sent: usize = batches.iter().sum();
        // a and b; then the queue's capacity, with the batch the thread may have held out of it; and
        // k, left in this thread's batch.
        assert!((2 + 4 + 1..=2 + 4 + 2 + 1).contains(&sent), "the rest is sent at shutdown: {batches:?}");
        assert!(batches.iter().all(|&b| b <= 2), "no batch is larger than its size: {batches:?}");
    }
}
