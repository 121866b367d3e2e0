//! Logging and traces: the `[logging]` section, and `tracing` to stderr at `LOG_LEVEL` (the seed's
//! names, INFO by default), or debug with `--verbose`; `RUST_LOG`, when set, takes precedence for
//! fine-grained filters. Colours only when stderr is a terminal. The `[telemetry]` section: with an
//! OTLP endpoint, the spans of target [`TARGET`] are exported over OTLP (HTTP/protobuf) through a
//! bounded queue whose drops `/metrics` counts; the W3C trace context is read from requests and written
//! into every outbound one. Without an endpoint those spans are disabled at their call sites.
//!
//! Sampling is decided once per trace, where the trace starts ([`root_span!`]: a request, a job
//! item), by the configured sampler (`OTEL_TRACES_SAMPLER`); the spans inside a trace
//! ([`trace_span!`]) exist only in a kept one, so a dropped trace costs one decision and no span.

mod export;
pub use export::{DropLabels, SPANS_DROPPED};

use crate::config::{Kind, Section, Setting};
use opentelemetry::propagation::TextMapPropagator;
use opentelemetry::trace::{SpanKind, TraceContextExt as _, TracerProvider as _};
use opentelemetry_sdk::propagation::TraceContextPropagator;
use opentelemetry_sdk::trace::{
    IdGenerator as _, RandomIdGenerator, SamplingDecision, SdkTracerProvider, ShouldSample,
};
use std::io::IsTerminal;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};
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

/// `[telemetry]`: where traces go. The rest of OpenTelemetry's standard variables are read from the
/// process environment, as their specification says: `OTEL_SERVICE_NAME`, `OTEL_TRACES_SAMPLER` and
/// `OTEL_TRACES_SAMPLER_ARG`, `OTEL_EXPORTER_OTLP_HEADERS` and `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` by
/// the OpenTelemetry crates, `OTEL_EXPORTER_OTLP_TIMEOUT` (and its `TRACES_` form) and `OTEL_BSP_*` by
/// `export.rs`.
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
/// The configured sampler, asked once per trace by [`root_span!`].
static SAMPLER: OnceLock<Box<dyn ShouldSample>> = OnceLock::new();
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
    // Read before the provider is built: the provider itself keeps every span it is given, since
    // only the start of a trace asks the sampler.
    let sampler = opentelemetry_sdk::trace::Config::default().sampler;
    let (provider, problem) = match export::provider(telemetry) {
        Ok(provider) => (provider, None),
        Err(problem) => (None, Some(problem)),
    };
    let traces = provider.as_ref().map(|provider| {
        tracing_opentelemetry::layer()
            .with_tracer(provider.tracer("parlance"))
            // Each span's parent is found through `tracing`'s own stack; making OpenTelemetry's
            // context current at every poll of an instrumented future would be work nobody reads.
            .with_context_activation(false)
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
        let _ = SAMPLER.set(sampler);
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

/// Whether a new trace is kept, by the configured sampler: the one decision of a trace, taken where
/// it starts. With the trace context that arrived in `headers` (a request's), the caller's trace is
/// continued and the sampler sees its parent; `None` when the trace is not kept or traces are off.
pub fn start_trace(headers: Option<&http::HeaderMap>) -> Option<opentelemetry::Context> {
    if !exporting() {
        return None;
    }
    let parent = match headers {
        Some(headers) => TraceContextPropagator::new().extract(&opentelemetry_http::HeaderExtractor(headers)),
        None => opentelemetry::Context::new(),
    };
    let remote = parent.span().span_context().clone();
    let trace_id =
        if remote.is_valid() { remote.trace_id() } else { RandomIdGenerator::default().new_trace_id() };
    let sampler = SAMPLER.get()?;
    let decision = sampler.should_sample(Some(&parent), trace_id, "request", &SpanKind::Server, &[], &[]);
    (decision.decision == SamplingDecision::RecordAndSample).then_some(parent)
}

/// Whether the current task is inside a kept trace: only kept traces have spans of [`TARGET`].
pub fn in_kept_trace() -> bool {
    exporting()
        && tracing::dispatcher::get_default(|dispatch| {
            dispatch.current_span().metadata().is_some_and(|span| span.target() == TARGET)
        })
}

/// The span that starts a trace (a request's, a job item's) when the sampler keeps it, or
/// `Span::none()`: `root_span!(headers, name, fields…)`, where `headers` is the request's trace
/// context to continue (`Some(&HeaderMap)`) or `None`.
macro_rules! root_span {
    ($headers:expr, $name:expr $(, $($fields:tt)*)?) => {
        match $crate::telemetry::start_trace($headers) {
            Some(parent) => {
                let span = ::tracing::info_span!(target: $crate::telemetry::TARGET, parent: None, $name $(, $($fields)*)?);
                $crate::telemetry::set_parent(&span, parent);
                span
            }
            None => ::tracing::Span::none(),
        }
    };
}
pub(crate) use root_span;

/// A span inside the current trace (a cache lookup, a plugin call, an outbound request…), made only
/// when that trace is kept: `trace_span!(name, fields…)`, with `tracing`'s field syntax.
macro_rules! trace_span {
    ($name:expr $(, $($fields:tt)*)?) => {
        if $crate::telemetry::in_kept_trace() {
            ::tracing::info_span!(target: $crate::telemetry::TARGET, $name $(, $($fields)*)?)
        } else {
            ::tracing::Span::none()
        }
    };
}
pub(crate) use trace_span;

/// Makes `span` continue the trace of `parent`, when it carries one (a caller's `traceparent`).
pub fn set_parent(span: &tracing::Span, parent: opentelemetry::Context) {
    if parent.span().span_context().is_valid() {
        let _ = span.set_parent(parent);
    }
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
