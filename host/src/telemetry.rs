//! Logging and traces: the `[logging]` section, and `tracing` to stderr at `LOG_LEVEL` (the seed's
//! names, INFO by default), or debug with `--verbose`; `RUST_LOG`, when set, takes precedence for
//! fine-grained filters. Colours only when stderr is a terminal. The `[telemetry]` section: with an
//! OTLP endpoint, the spans of target [`TARGET`] are exported over OTLP (HTTP/protobuf) through a
//! bounded queue whose drops `/metrics` counts; the W3C trace context is read from requests and written
//! into every outbound one. Without an endpoint those spans are disabled at their call sites.

use crate::config::{Kind, Section, Setting};
use opentelemetry::propagation::TextMapPropagator;
use opentelemetry::trace::TracerProvider as _;
use opentelemetry_sdk::error::OTelSdkResult;
use opentelemetry_sdk::propagation::TraceContextPropagator;
use opentelemetry_sdk::trace::{
    BatchConfigBuilder, BatchSpanProcessor, SdkTracerProvider, SpanData, SpanExporter, SpanProcessor,
};
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, LazyLock, OnceLock};
use std::time::Duration;
use tracing_opentelemetry::OpenTelemetrySpanExt;
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;
use tracing_subscriber::{EnvFilter, Layer};

/// The target of every span meant for the trace back-end (route, cache, rate limit, plugin call,
/// outbound request, store operation, job item). Only the exporting layer listens to it, so the
/// log never shows these spans, and with tracing off their call sites are disabled once and for all.
pub const TARGET: &str = "parlance::trace";

/// The seed's level names (Python's, with WARNING and CRITICAL) and tracing's.
const LEVELS: &[&str] = &["TRACE", "DEBUG", "INFO", "WARN", "WARNING", "ERROR", "CRITICAL"];

#[derive(Clone, Debug)]
pub struct LoggingConfig {
    /// One of [`LEVELS`].
    pub level: String,
}

impl Default for LoggingConfig {
    fn default() -> Self {
        LoggingConfig { level: "INFO".into() }
    }
}

impl Section for LoggingConfig {
    const NAME: &'static str = "logging";
    const ABOUT: &'static str = "Logging on stderr";

    fn settings() -> &'static [Setting<Self>] {
        static SETTINGS: &[Setting<LoggingConfig>] = &[crate::config::setting!(
            "level",
            Kind::Choice(LEVELS),
            |c| c.level,
            env = "LOG_LEVEL",
            "The lowest level logged"
        )];
        SETTINGS
    }
}

/// `[telemetry]`: where traces go. The rest of OpenTelemetry's standard variables (`OTEL_SERVICE_NAME`,
/// `OTEL_TRACES_SAMPLER` and `OTEL_TRACES_SAMPLER_ARG`, `OTEL_EXPORTER_OTLP_HEADERS`,
/// `OTEL_EXPORTER_OTLP_TIMEOUT`, `OTEL_EXPORTER_OTLP_TRACES_*`, `OTEL_BSP_*`) are read from the
/// process environment by the OpenTelemetry crates themselves, as their specification says.
#[derive(Clone, Debug)]
pub struct TelemetryConfig {
    /// The collector's base URL; `/v1/traces` is appended.
    pub endpoint: Option<String>,
    /// Spans finished but not yet exported, at most; past it, new spans are dropped and counted.
    pub max_queue_spans: usize,
    /// Prompts and replies as span attributes, for an operator who wants them there.
    pub record_content: bool,
}

impl Default for TelemetryConfig {
    fn default() -> Self {
        TelemetryConfig { endpoint: None, max_queue_spans: 2048, record_content: false }
    }
}

impl Section for TelemetryConfig {
    const NAME: &'static str = "telemetry";
    const ABOUT: &'static str = "OpenTelemetry traces over OTLP";

    fn settings() -> &'static [Setting<Self>] {
        static SETTINGS: &[Setting<TelemetryConfig>] = &[
            crate::config::setting!(
                "endpoint",
                Kind::Url(&["http"]),
                |c| c.endpoint,
                env = "OTEL_EXPORTER_OTLP_ENDPOINT",
                "The OTLP/HTTP collector's base URL, plain HTTP (`/v1/traces` is appended); unset, no span is made"
            ),
            crate::config::setting!(
                "max_queue_spans",
                Kind::Int { min: 1, max: 1 << 20 },
                |c| c.max_queue_spans,
                env = "OTEL_BSP_MAX_QUEUE_SIZE",
                "Finished spans waiting for export, at most; more are dropped and counted in `/metrics`"
            ),
            crate::config::setting!(
                "record_content",
                Kind::Bool,
                |c| c.record_content,
                env = "PARLANCE_TRACE_CONTENT",
                "Adds the texts of prompts and replies to the spans (never keys or other secrets)"
            ),
        ];
        SETTINGS
    }
}

/// Maps the seed's level names (Python's, including WARNING and CRITICAL) to a tracing filter.
pub fn filter_for(level: &str) -> &'static str {
    match level.to_ascii_lowercase().as_str() {
        "trace" => "trace",
        "debug" => "debug",
        "warn" | "warning" => "warn",
        "error" | "critical" => "error",
        _ => "info",
    }
}

/// Lowers the log to warnings and errors, when the level came from `LOG_LEVEL` (not `--verbose` or
/// `RUST_LOG`, which ask for more on purpose); set by [`init`].
static QUIET: OnceLock<Box<dyn Fn() + Send + Sync>> = OnceLock::new();

/// The exporting provider, kept for [`shutdown`].
static PROVIDER: OnceLock<SdkTracerProvider> = OnceLock::new();
static EXPORTING: AtomicBool = AtomicBool::new(false);
static RECORD_CONTENT: AtomicBool = AtomicBool::new(false);

/// Sets up the log and, when `telemetry` names a collector, the trace export. A collector that cannot
/// be set up (a bad header variable, say) leaves traces off with one error line, and the service runs.
pub fn init(level: &str, telemetry: &TelemetryConfig, verbose: bool) {
    let (filter, chosen) = match std::env::var("RUST_LOG") {
        Ok(spec) if !spec.is_empty() => (spec, true),
        _ => {
            let level = if verbose { "debug" } else { filter_for(level) };
            // Wasmtime and the HTTP stack are noisy at debug; they stay at warn unless RUST_LOG says otherwise.
            (format!("{level},{QUIET_CRATES}"), verbose)
        }
    };
    let (filter, handle) = tracing_subscriber::reload::Layer::new(log_filter(&filter));
    // Colours only for a person at a terminal: a log file or a pipe gets plain text.
    let log = tracing_subscriber::fmt::layer()
        .with_ansi(std::io::stderr().is_terminal())
        .with_writer(std::io::stderr)
        .with_filter(filter);
    let (provider, problem) = match exporter(telemetry) {
        Ok(provider) => (provider, None),
        Err(problem) => (None, Some(problem)),
    };
    let traces = provider.as_ref().map(|provider| {
        tracing_opentelemetry::layer()
            .with_tracer(provider.tracer("parlance"))
            .with_location(false)
            .with_threads(false)
            .with_target(false)
            .with_level(false)
            .with_tracked_inactivity(false)
            .with_filter(
                tracing_subscriber::filter::Targets::new().with_target(TARGET, tracing::Level::TRACE),
            )
    });
    if tracing_subscriber::registry().with(log).with(traces).try_init().is_err() {
        return;
    }
    if let Some(problem) = problem {
        tracing::error!("traces are off: {problem}");
    }
    if let Some(provider) = provider {
        opentelemetry::global::set_text_map_propagator(TraceContextPropagator::new());
        RECORD_CONTENT.store(telemetry.record_content, Ordering::Relaxed);
        EXPORTING.store(true, Ordering::Relaxed);
        let _ = PROVIDER.set(provider);
    }
    if !chosen {
        let _ = QUIET.set(Box::new(move || {
            let _ = handle.reload(log_filter(&format!("warn,{QUIET_CRATES}")));
        }));
    }
}

/// The log's filter: `spec`, and never the spans made for the trace back-end.
fn log_filter(spec: &str) -> EnvFilter {
    EnvFilter::new(format!("{spec},{TARGET}=off"))
}

/// Crates whose debug output is noise to a Parlance user.
const QUIET_CRATES: &str = "wasmtime=warn,cranelift=warn,hyper=warn,h2=warn,reqwest=warn";

/// From now on, only warnings and errors reach stderr: for a session whose screen belongs to the user
/// (the interactive mode), where an info line would land between a prompt and its answer. Does
/// nothing when `--verbose` or `RUST_LOG` asked for more.
pub fn quiet_below_warnings() {
    if let Some(quiet) = QUIET.get() {
        quiet();
    }
}

/// Exports what is left in the queue, within a few seconds, before the process ends.
pub fn shutdown() {
    if let Some(provider) = PROVIDER.get() {
        let _ = provider.shutdown_with_timeout(Duration::from_secs(3));
    }
}

/// Whether spans are exported; every attribute written after a span's creation asks first.
pub fn exporting() -> bool {
    EXPORTING.load(Ordering::Relaxed)
}

/// Whether the operator asked for prompts and replies in the spans.
pub fn records_content() -> bool {
    RECORD_CONTENT.load(Ordering::Relaxed)
}

/// The provider exporting to the configured collector; `None` when none is configured, or
/// `OTEL_SDK_DISABLED` or `OTEL_TRACES_EXPORTER=none` turn traces off.
fn exporter(config: &TelemetryConfig) -> Result<Option<SdkTracerProvider>, String> {
    use opentelemetry_otlp::{Protocol, WithExportConfig};
    let variable = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
    let signal_endpoint = variable("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT");
    let disabled = variable("OTEL_SDK_DISABLED").is_some_and(|v| v.eq_ignore_ascii_case("true"))
        || variable("OTEL_TRACES_EXPORTER").is_some_and(|v| v.eq_ignore_ascii_case("none"));
    if disabled || (config.endpoint.is_none() && signal_endpoint.is_none()) {
        return Ok(None);
    }
    let mut builder =
        opentelemetry_otlp::SpanExporter::builder().with_http().with_protocol(Protocol::HttpBinary);
    // The traces' own variable wins, as the specification says; the crate reads it when no endpoint
    // is given here. The base URL, from `[telemetry]` or `.env` as well as the process, is ours to join.
    if let (None, Some(base)) = (&signal_endpoint, &config.endpoint) {
        builder = builder.with_endpoint(format!("{}/v1/traces", base.trim_end_matches('/')));
    }
    let exporter = builder.build().map_err(|e| e.to_string())?;
    let pending = Arc::new(AtomicUsize::new(0));
    let batches = BatchSpanProcessor::builder(Counted {
        inner: exporter,
        pending: pending.clone(),
        failing: false.into(),
    })
    .with_batch_config(BatchConfigBuilder::default().with_max_queue_size(config.max_queue_spans).build())
    .build();
    let processor = Bounded { inner: batches, pending, capacity: config.max_queue_spans };
    let mut resource = opentelemetry_sdk::Resource::builder();
    let named = variable("OTEL_SERVICE_NAME").is_some()
        || variable("OTEL_RESOURCE_ATTRIBUTES").is_some_and(|a| a.contains("service.name="));
    if !named {
        resource = resource.with_service_name("parlance");
    }
    Ok(Some(
        SdkTracerProvider::builder().with_span_processor(processor).with_resource(resource.build()).build(),
    ))
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

/// The batch processor behind a count of the spans it holds: a span that would make the queue longer
/// than its capacity is dropped here, where it can be counted, rather than inside the processor,
/// which only logs the first. Never blocks: a slow collector costs a request nothing.
#[derive(Debug)]
struct Bounded {
    inner: BatchSpanProcessor,
    /// Spans handed to the processor and not yet through an export.
    pending: Arc<AtomicUsize>,
    capacity: usize,
}

impl SpanProcessor for Bounded {
    fn on_start(&self, span: &mut opentelemetry_sdk::trace::Span, cx: &opentelemetry::Context) {
        self.inner.on_start(span, cx);
    }

    fn on_end(&self, span: SpanData) {
        if self.pending.fetch_add(1, Ordering::Relaxed) >= self.capacity {
            self.pending.fetch_sub(1, Ordering::Relaxed);
            SPANS_DROPPED.get_or_create(&DropLabels { reason: "queue_full" }).inc();
            return;
        }
        self.inner.on_end(span);
    }

    fn force_flush(&self) -> OTelSdkResult {
        self.inner.force_flush()
    }

    fn shutdown_with_timeout(&self, timeout: Duration) -> OTelSdkResult {
        self.inner.shutdown_with_timeout(timeout)
    }

    fn set_resource(&mut self, resource: &opentelemetry_sdk::Resource) {
        self.inner.set_resource(resource);
    }
}

/// The OTLP exporter, counting the spans of each batch out of the queue and, when the batch failed,
/// as dropped; it logs once when exports start failing and once when they work again.
#[derive(Debug)]
struct Counted<E> {
    inner: E,
    pending: Arc<AtomicUsize>,
    failing: AtomicBool,
}

impl<E: SpanExporter> SpanExporter for Counted<E> {
    async fn export(&self, batch: Vec<SpanData>) -> OTelSdkResult {
        let count = batch.len();
        let result = self.inner.export(batch).await;
        self.pending.fetch_sub(count, Ordering::Relaxed);
        match &result {
            Ok(()) => {
                if self.failing.swap(false, Ordering::Relaxed) {
                    tracing::info!("the trace collector accepts spans again");
                }
            }
            Err(e) => {
                SPANS_DROPPED.get_or_create(&DropLabels { reason: "export_failed" }).inc_by(count as u64);
                if !self.failing.swap(true, Ordering::Relaxed) {
                    tracing::warn!("cannot export spans to the trace collector (they are dropped): {e}");
                }
            }
        }
        result
    }

    fn shutdown_with_timeout(&self, timeout: Duration) -> OTelSdkResult {
        self.inner.shutdown_with_timeout(timeout)
    }

    fn force_flush(&self) -> OTelSdkResult {
        self.inner.force_flush()
    }

    fn set_resource(&mut self, resource: &opentelemetry_sdk::Resource) {
        self.inner.set_resource(resource);
    }
}

/// Makes `span` continue the trace whose `traceparent` and `tracestate` arrived in `headers`.
pub fn continue_trace(span: &tracing::Span, headers: &http::HeaderMap) {
    if !exporting() || span.is_disabled() {
        return;
    }
    let parent = TraceContextPropagator::new().extract(&opentelemetry_http::HeaderExtractor(headers));
    let _ = span.set_parent(parent);
}

/// A stream whose every poll runs in the span current when it was made: a streamed reply's body is
/// read by the connection after its handler has returned, outside the request's span.
pub fn in_current_span<S: futures::Stream>(stream: S) -> InSpan<S> {
    InSpan { span: tracing::Span::current(), inner: Box::pin(stream) }
}

/// See [`in_current_span`].
pub struct InSpan<S> {
    span: tracing::Span,
    inner: std::pin::Pin<Box<S>>,
}

impl<S: futures::Stream> futures::Stream for InSpan<S> {
    type Item = S::Item;

    fn poll_next(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<S::Item>> {
        let this = &mut *self;
        let _entered = this.span.enter();
        this.inner.as_mut().poll_next(cx)
    }
}

/// The W3C trace-context headers, which only the host writes into an outbound request.
const TRACE_HEADERS: [http::HeaderName; 2] =
    [http::HeaderName::from_static("traceparent"), http::HeaderName::from_static("tracestate")];

/// Writes `span`'s context into an outbound request, over whatever a plugin put there: a plugin can
/// neither forge the trace its request belongs to nor hide it from the upstream.
pub fn propagate(headers: &mut http::HeaderMap, span: &tracing::Span) {
    for name in &TRACE_HEADERS {
        headers.remove(name);
    }
    if exporting() && !span.is_disabled() {
        let context = span.context();
        TraceContextPropagator::new()
            .inject_context(&context, &mut opentelemetry_http::HeaderInjector(headers));
    }
}

/// Sets an attribute on `span` when spans are exported; nothing is computed or stored otherwise.
pub fn attribute(span: &tracing::Span, key: &'static str, value: impl Into<opentelemetry::Value>) {
    if exporting() && !span.is_disabled() {
        span.set_attribute(key, value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plugin_cannot_set_the_trace_context_of_its_request() {
        let mut headers = http::HeaderMap::new();
        headers.insert(
            "traceparent",
            "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01".parse().unwrap(),
        );
        headers.insert("tracestate", "forged=1".parse().unwrap());
        headers.insert("x-other", "kept".parse().unwrap());
        propagate(&mut headers, &tracing::Span::none());
        assert!(headers.get("traceparent").is_none() && headers.get("tracestate").is_none());
        assert_eq!(headers.get("x-other").unwrap(), "kept");
    }
}
