//! The way out of finished spans: a bounded queue that a span joins under a short lock, one thread
//! that sends it to the collector in batches over OTLP/HTTP (protobuf), and the count of the spans
//! that never got there.
//!
//! The SDK's own batch processor wakes its thread for every span it is handed; on a busy server
//! that is two context switches per span, more than the span costs to make. Here a span only
//! takes a lock and joins a vector, and the thread is woken once per batch (or when the delay has
//! passed), so a request pays for its spans and nothing else.

use super::TelemetryConfig;
use opentelemetry_sdk::Resource;
use opentelemetry_sdk::error::{OTelSdkError, OTelSdkResult};
use opentelemetry_sdk::trace::{Sampler, SdkTracerProvider, SpanData, SpanExporter, SpanProcessor};
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use std::sync::{Arc, Condvar, LazyLock, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The provider exporting to the configured collector; `None` when none is configured, or
/// `OTEL_SDK_DISABLED` or `OTEL_TRACES_EXPORTER=none` turn traces off. The provider keeps every span
/// it is given: only the start of a trace asks the sampler (`start_trace`).
pub(super) fn provider(config: &TelemetryConfig) -> Result<Option<SdkTracerProvider>, String> {
    use opentelemetry_otlp::{Protocol, WithExportConfig, WithHttpConfig};
    let signal_endpoint = variable("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT");
    let disabled = variable("OTEL_SDK_DISABLED").is_some_and(|v| v.eq_ignore_ascii_case("true"))
        || variable("OTEL_TRACES_EXPORTER").is_some_and(|v| v.eq_ignore_ascii_case("none"));
    if disabled || (config.endpoint.is_none() && signal_endpoint.is_none()) {
        return Ok(None);
    }
    let collector =
        Collector::new(export_timeout()).map_err(|e| format!("cannot start the export runtime: {e}"))?;
    let mut builder = opentelemetry_otlp::SpanExporter::builder()
        .with_http()
        .with_protocol(Protocol::HttpBinary)
        .with_http_client(collector.clone());
    // The traces' own variable wins, as the specification says; the crate reads it when no endpoint
    // is given here. The base URL, from `[telemetry]` or `.env` as well as the process, is ours to join.
    if let (None, Some(base)) = (&signal_endpoint, &config.endpoint) {
        builder = builder.with_endpoint(format!("{}/v1/traces", base.trim_end_matches('/')));
    }
    let exporter = builder.build().map_err(|e| e.to_string())?;
    let batches = Batches::start(exporter, collector, BatchSettings::from_env(config.max_queue_spans))
        .map_err(|e| format!("cannot start the export thread: {e}"))?;
    let mut resource = Resource::builder();
    let named = variable("OTEL_SERVICE_NAME").is_some()
        || variable("OTEL_RESOURCE_ATTRIBUTES").is_some_and(|a| a.contains("service.name="));
    if !named {
        resource = resource.with_service_name("parlance");
    }
    Ok(Some(
        SdkTracerProvider::builder()
            .with_sampler(Sampler::AlwaysOn)
            .with_span_processor(batches)
            .with_resource(resource.build())
            .build(),
    ))
}

fn variable(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.trim().is_empty())
}

/// A variable of a whole number, or `default` when it is unset or not one.
fn number(name: &str, default: u64) -> u64 {
    variable(name).and_then(|v| v.trim().parse().ok()).unwrap_or(default)
}

/// How long one export may take: `OTEL_EXPORTER_OTLP_TRACES_TIMEOUT`, else `OTEL_EXPORTER_OTLP_TIMEOUT`
/// (milliseconds), else the specification's 10 s.
fn export_timeout() -> Duration {
    let general = number("OTEL_EXPORTER_OTLP_TIMEOUT", 10_000);
    Duration::from_millis(number("OTEL_EXPORTER_OTLP_TRACES_TIMEOUT", general))
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
    /// The longest a flush waits for the export thread (`OTEL_BSP_EXPORT_TIMEOUT`, 30 s).
    flush_timeout: Duration,
}

impl BatchSettings {
    fn from_env(capacity: usize) -> BatchSettings {
        let capacity = capacity.max(1);
        let batch = (number("OTEL_BSP_MAX_EXPORT_BATCH_SIZE", 512) as usize).clamp(1, capacity);
        BatchSettings {
            capacity,
            batch,
            delay: Duration::from_millis(number("OTEL_BSP_SCHEDULE_DELAY", 5_000)),
            flush_timeout: Duration::from_millis(number("OTEL_BSP_EXPORT_TIMEOUT", 30_000)),
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
fn unpoisoned<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn dropped(reason: &'static str, count: usize) {
    SPANS_DROPPED.get_or_create(&DropLabels { reason }).inc_by(count as u64);
}

/// What the export thread and the spans' makers share.
#[derive(Debug, Default)]
struct Queue {
    spans: Vec<SpanData>,
    /// Flushes asked for, and done: a flush waits until the second reaches its number.
    flushes_asked: u64,
    flushes_done: u64,
    closing: bool,
    /// The export thread has ended (having sent what was left, unless its exporter panicked).
    closed: bool,
}

#[derive(Debug)]
struct Shared {
    queue: Mutex<Queue>,
    /// Wakes the export thread: a batch is full, a flush is asked for, or the process is closing.
    wake: Condvar,
    /// Wakes the callers of a flush.
    flushed: Condvar,
    settings: BatchSettings,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Queue> {
        unpoisoned(&self.queue)
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

/// The span processor: see the module's documentation.
#[derive(Debug)]
struct Batches<E> {
    shared: Arc<Shared>,
    /// The export thread uses it; the provider gives it its resource once, when it is built.
    exporter: Arc<Mutex<E>>,
    thread: Mutex<Option<JoinHandle<()>>>,
}

impl<E: SpanExporter + 'static> Batches<E> {
    fn start(exporter: E, collector: Collector, settings: BatchSettings) -> std::io::Result<Batches<E>> {
        let shared = Arc::new(Shared {
            queue: Mutex::new(Queue::default()),
            wake: Condvar::new(),
            flushed: Condvar::new(),
            settings,
        });
        let exporter = Arc::new(Mutex::new(exporter));
        let worker =
            Exporter { shared: shared.clone(), exporter: exporter.clone(), collector, failing: false };
        let thread = std::thread::Builder::new().name("otlp-batches".into()).spawn(move || worker.run())?;
        Ok(Batches { shared, exporter, thread: Mutex::new(Some(thread)) })
    }
}

impl<E: SpanExporter + 'static> SpanProcessor for Batches<E> {
    fn on_start(&self, _span: &mut opentelemetry_sdk::trace::Span, _cx: &opentelemetry::Context) {}

    fn on_end(&self, span: SpanData) {
        let settings = &self.shared.settings;
        let mut queue = self.shared.lock();
        if queue.closing || queue.spans.len() >= settings.capacity {
            drop(queue);
            dropped("queue_full", 1);
            return;
        }
        queue.spans.push(span);
        if queue.spans.len() == settings.batch {
            self.shared.wake.notify_one();
        }
    }

    fn force_flush(&self) -> OTelSdkResult {
        let mut queue = self.shared.lock();
        queue.flushes_asked += 1;
        let asked = queue.flushes_asked;
        self.shared.wake.notify_one();
        let timeout = self.shared.settings.flush_timeout;
        let flushed = |q: &Queue| q.flushes_done >= asked || q.closing;
        let (queue, done) =
            self.shared.wait_until(&self.shared.flushed, queue, Instant::now() + timeout, flushed);
        drop(queue);
        if done { Ok(()) } else { Err(OTelSdkError::Timeout(timeout)) }
    }

    fn shutdown_with_timeout(&self, timeout: Duration) -> OTelSdkResult {
        self.shared.lock().closing = true;
        self.shared.wake.notify_one();
        let Some(thread) = unpoisoned(&self.thread).take() else {
            return Err(OTelSdkError::AlreadyShutdown);
        };
        // The thread sends what is left, within one export's timeout; past `timeout` it is left to
        // finish on its own while the process exits.
        let queue = self.shared.lock();
        let (queue, closed) =
            self.shared.wait_until(&self.shared.flushed, queue, Instant::now() + timeout, |q| q.closed);
        drop(queue);
        if !closed {
            return Err(OTelSdkError::Timeout(timeout));
        }
        let _ = thread.join();
        Ok(())
    }

    fn set_resource(&mut self, resource: &Resource) {
        unpoisoned(&self.exporter).set_resource(resource);
    }
}

/// Tells a waiting shutdown that the export thread has ended, however it ends (a panicking exporter
/// included).
struct Closed(Arc<Shared>);

impl Drop for Closed {
    fn drop(&mut self) {
        self.0.lock().closed = true;
        self.0.flushed.notify_all();
    }
}

/// The export thread's side.
struct Exporter<E> {
    shared: Arc<Shared>,
    exporter: Arc<Mutex<E>>,
    collector: Collector,
    /// Whether the last export failed: a failure is logged when exports start failing and when they
    /// work again, not once per batch.
    failing: bool,
}

impl<E: SpanExporter> Exporter<E> {
    fn run(mut self) {
        let _closed = Closed(self.shared.clone());
        let settings = self.shared.settings;
        loop {
            let (batch, flush, closing) = {
                // A full batch, a flush, the shutdown, or the delay: whichever comes first.
                let due = Instant::now() + settings.delay;
                let woken = |q: &Queue| {
                    q.spans.len() >= settings.batch || q.flushes_done < q.flushes_asked || q.closing
                };
                let (mut queue, _) =
                    self.shared.wait_until(&self.shared.wake, self.shared.lock(), due, woken);
                let take = queue.spans.len().min(settings.batch);
                let batch: Vec<SpanData> = queue.spans.drain(..take).collect();
                let flush = (queue.flushes_done < queue.flushes_asked).then_some(queue.flushes_asked);
                (batch, flush, queue.closing)
            };
            if !batch.is_empty() {
                self.export(batch);
            }
            let rest = self.shared.lock().spans.len();
            if rest > 0 && (flush.is_some() || closing || rest >= settings.batch) {
                continue;
            }
            if let Some(asked) = flush {
                self.shared.lock().flushes_done = asked;
                self.shared.flushed.notify_all();
            }
            if closing {
                return;
            }
        }
    }

    fn export(&mut self, batch: Vec<SpanData>) {
        let count = batch.len();
        let exporter = unpoisoned(&self.exporter);
        let result = self.collector.runtime.block_on(exporter.export(batch));
        drop(exporter);
        match result {
            Ok(()) => {
                if std::mem::take(&mut self.failing) {
                    tracing::info!("the trace collector accepts spans again");
                }
            }
            Err(e) => {
                dropped("export_failed", count);
                if !std::mem::replace(&mut self.failing, true) {
                    tracing::warn!("cannot export spans to the trace collector (they are dropped): {e}");
                }
            }
        }
    }
}

/// The largest answer read from the collector (it answers with a short status message).
const MAX_COLLECTOR_ANSWER: usize = 64 * 1024;

/// The exporter's HTTP client: hyper, which the host already speaks, on a one-thread runtime of its
/// own, so that exports run the same whoever calls them.
#[derive(Clone, Debug)]
struct Collector {
    runtime: Arc<tokio::runtime::Runtime>,
    client: hyper_util::client::legacy::Client<
        hyper_util::client::legacy::connect::HttpConnector,
        http_body_util::Full<bytes::Bytes>,
    >,
    timeout: Duration,
}

impl Collector {
    fn new(timeout: Duration) -> std::io::Result<Collector> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("otlp-export")
            .enable_all()
            .build()?;
        let client = hyper_util::client::legacy::Client::builder(hyper_util::rt::TokioExecutor::new())
            .pool_timer(hyper_util::rt::TokioTimer::new())
            .build_http();
        Ok(Collector { runtime: Arc::new(runtime), client, timeout })
    }
}

#[async_trait::async_trait]
impl opentelemetry_http::HttpClient for Collector {
    async fn send_bytes(
        &self,
        request: http::Request<bytes::Bytes>,
    ) -> Result<http::Response<bytes::Bytes>, opentelemetry_http::HttpError> {
        use http_body_util::BodyExt;
        let (client, timeout) = (self.client.clone(), self.timeout);
        let exchange = async move {
            let response = client.request(request.map(http_body_util::Full::new)).await?;
            let (head, body) = response.into_parts();
            let body = http_body_util::Limited::new(body, MAX_COLLECTOR_ANSWER).collect().await?.to_bytes();
            Ok::<_, opentelemetry_http::HttpError>(http::Response::from_parts(head, body))
        };
        // The timer is made inside the task: only the export runtime has one.
        let answer = self.runtime.spawn(async move { tokio::time::timeout(timeout, exchange).await }).await?;
        answer.map_err(|_| format!("the collector did not answer within {} ms", timeout.as_millis()))?
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use opentelemetry::trace::{Span as _, Tracer as _, TracerProvider as _};

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

    impl SpanExporter for Recorder {
        async fn export(&self, batch: Vec<SpanData>) -> OTelSdkResult {
            let (lock, open) = &*self.shut;
            let mut shut = lock.lock().unwrap();
            while *shut {
                shut = open.wait(shut).unwrap();
            }
            self.batches.lock().unwrap().push(batch.len());
            Ok(())
        }
    }

    fn queue_full() -> u64 {
        SPANS_DROPPED.get_or_create(&DropLabels { reason: "queue_full" }).get()
    }

    #[test]
    fn spans_leave_in_full_batches_a_flush_takes_the_rest_and_a_full_queue_drops_and_counts() {
        let recorder = Recorder::default();
        // A delay longer than the test: only a full batch, a flush or the shutdown sends spans.
        let settings = BatchSettings {
            capacity: 4,
            batch: 2,
            delay: Duration::from_secs(3600),
            flush_timeout: Duration::from_secs(10),
        };
        let collector = Collector::new(Duration::from_secs(1)).unwrap();
        let batches = Batches::start(recorder.clone(), collector, settings).unwrap();
        let provider = SdkTracerProvider::builder().with_span_processor(batches).build();
        let tracer = provider.tracer("test");
        let span = |name: &'static str| tracer.start(name).end();

        span("a");
        span("b");
        assert_eq!(recorder.wait_for(2), [2], "a full batch leaves at once");
        span("c");
        provider.force_flush().unwrap();
        assert_eq!(recorder.batches(), [2, 1], "a flush sends a partial batch");

        // The collector stalls: the thread holds one batch, the queue fills to its capacity, and
        // the spans past it are dropped and counted, without blocking whoever made them.
        recorder.hold(true);
        let dropped_before = queue_full();
        for name in ["d", "e", "f", "g", "h", "i", "j", "k"] {
            span(name);
        }
        assert!(queue_full() - dropped_before >= 2, "spans past the capacity are counted as dropped");
        recorder.hold(false);
        provider.shutdown().unwrap();
        let batches = recorder.batches();
        let sent: usize = batches.iter().sum();
        assert!((3 + 4..=3 + 6).contains(&sent), "the queue's spans are sent at shutdown: {batches:?}");
        assert!(batches.iter().all(|&b| b <= 2), "no batch is larger than its size: {batches:?}");
    }
}
