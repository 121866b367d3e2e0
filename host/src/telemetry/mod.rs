//! Logging and traces: the `[logging]` section, and `tracing` to stderr at `LOG_LEVEL` (the seed's
//! names; INFO by default for the server, warnings and errors only for a one-shot command), or debug
//! with `--verbose`; `RUST_LOG`, when set, takes precedence for fine-grained filters. Colours only
//! when stderr is a terminal. The `[telemetry]` section: with an OTLP endpoint, the spans of kept
//! traces (`span.rs`) are exported over OTLP (HTTP/protobuf) through a bounded queue whose drops
//! `/metrics` counts; the W3C trace context is read from requests and written into every outbound one.
//!
//! Sampling is decided once per trace, where the trace starts ([`root_span!`]: a request, a job
//! item), by the configured sampler (`OTEL_TRACES_SAMPLER`); the spans inside a trace
//! ([`trace_span!`]) exist only in a kept one, so a dropped trace costs one decision and no span.

mod export;
mod otlp;
mod span;
pub use export::{DropLabels, SPANS_DROPPED};
pub use span::{InSpan, Span, WithSpan, in_kept_trace};
// The OTLP encoder's pieces, for the fuzz targets' properties (`crate::fuzzing`).
#[cfg(any(test, feature = "fuzzing"))]
pub(crate) use otlp::{Encoded, Finished, request, resource_message, scope_message, span, span_field};

use crate::config::{Chosen, Kind, Section, Setting};
use opentelemetry::propagation::TextMapPropagator;
use opentelemetry::trace::{SpanKind, TraceContextExt as _, TraceId};
use opentelemetry_sdk::propagation::TraceContextPropagator;
use opentelemetry_sdk::trace::{
    IdGenerator as _, RandomIdGenerator, Sampler, SamplingDecision, ShouldSample,
};
use std::io::IsTerminal;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;
use tracing_subscriber::{EnvFilter, Layer};

/// The seed's level names (Python's, with WARNING and CRITICAL) and tracing's.
const LEVELS: &[&str] = &["TRACE", "DEBUG", "INFO", "WARN", "WARNING", "ERROR", "CRITICAL"];

#[derive(Clone, Debug)]
pub struct LoggingConfig {
    /// One of [`LEVELS`]; whether the operator chose it decides a one-shot command's level.
    pub level: Chosen<String>,
}

impl Default for LoggingConfig {
    fn default() -> Self {
        LoggingConfig { level: Chosen::default_value("INFO".into()) }
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
            "The lowest level logged; unset, INFO for the server and WARN for one-shot commands (cli, batch, evaluate, interactive, plugins, keys, import-original)"
        )];
        SETTINGS
    }
}

/// `[telemetry]`: where traces go. OpenTelemetry's other standard variables (`OTEL_SERVICE_NAME`,
/// `OTEL_RESOURCE_ATTRIBUTES`, `OTEL_TRACES_SAMPLER` and `_ARG`, `OTEL_EXPORTER_OTLP_HEADERS`,
/// `_TIMEOUT`, `_CERTIFICATE` and their `TRACES_` forms, `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`, `OTEL_BSP_*`,
/// `OTEL_SDK_DISABLED`, `OTEL_TRACES_EXPORTER`) are read as their specification says, from the process
/// or from `.env` like every other variable ([`TelemetryConfig::with_standard_variables`]).
#[derive(Clone, Debug, PartialEq)]
pub struct TelemetryConfig {
    /// The collector's base URL; `/v1/traces` is appended.
    pub endpoint: Option<String>,
    /// Spans finished but not yet exported, at most; past it, new spans are dropped and counted.
    pub max_queue_spans: usize,
    /// Prompts and replies as span attributes, for an operator who wants them there.
    pub record_content: bool,
    /// The `OTEL_*` variables.
    pub standard: StandardVariables,
}

/// OpenTelemetry's `OTEL_*` variables, by name. Their values stay out of `Debug`: the exporter's
/// headers usually carry the collector's key.
#[derive(Clone, Default, PartialEq)]
pub struct StandardVariables(std::collections::BTreeMap<String, String>);

impl std::fmt::Debug for StandardVariables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.0.keys()).finish()
    }
}

impl TelemetryConfig {
    /// Takes the `OTEL_*` variables of `env` (the process's, then `.env`'s).
    pub fn with_standard_variables(mut self, env: &crate::config::Env) -> TelemetryConfig {
        self.standard = StandardVariables(
            env.iter()
                .filter(|(name, _)| name.starts_with("OTEL_"))
                .map(|(name, value)| (name.to_owned(), value.to_owned()))
                .collect(),
        );
        self
    }

    /// A standard variable's value; an empty one counts as unset.
    pub(crate) fn variable(&self, name: &str) -> Option<&str> {
        self.standard.0.get(name).map(|v| v.trim()).filter(|v| !v.is_empty())
    }
}

impl Default for TelemetryConfig {
    fn default() -> Self {
        TelemetryConfig {
            endpoint: None,
            max_queue_spans: 2048,
            record_content: false,
            standard: StandardVariables::default(),
        }
    }
}

impl Section for TelemetryConfig {
    const NAME: &'static str = "telemetry";
    const ABOUT: &'static str = "OpenTelemetry traces over OTLP";

    fn settings() -> &'static [Setting<Self>] {
        static SETTINGS: &[Setting<TelemetryConfig>] = &[
            crate::config::setting!(
                "endpoint",
                Kind::Url(&["http", "https"]),
                |c| c.endpoint,
                env = "OTEL_EXPORTER_OTLP_ENDPOINT",
                "The OTLP/HTTP collector's base URL (`/v1/traces` is appended); unset, no span is made"
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

/// Sets the log's level (a tracing filter's), when it came from `LOG_LEVEL` (not `--verbose` or
/// `RUST_LOG`, which ask for more on purpose); set by [`init`].
static LEVEL: OnceLock<SetLevel> = OnceLock::new();
type SetLevel = Box<dyn Fn(&str) + Send + Sync>;

static EXPORTING: AtomicBool = AtomicBool::new(false);
/// The configured sampler, asked once per trace by [`root_span!`].
static SAMPLER: OnceLock<Sampler> = OnceLock::new();
static RECORD_CONTENT: AtomicBool = AtomicBool::new(false);

/// What a one-shot command logs when nobody chose a level: warnings and errors, so that its output is
/// all a person sees, and the announcement of a compile that takes seconds, which explains a wait as
/// a progress line would.
const ONE_SHOT: &str = "warn,parlance::plugins::load=info";

/// Sets up the log and, when `telemetry` names a collector, the trace export. `level` is one of the
/// seed's names; `None` is a one-shot command's default ([`ONE_SHOT`]). A collector that cannot be set
/// up (a bad header variable, say) leaves traces off with one error line, and the service runs.
pub fn init(level: Option<&str>, telemetry: &TelemetryConfig, verbose: bool) {
    let (filter, chosen) = match std::env::var("RUST_LOG") {
        Ok(spec) if !spec.is_empty() => (spec, true),
        _ => {
            let level = match level {
                _ if verbose => "debug",
                Some(level) => filter_for(level),
                None => ONE_SHOT,
            };
            // Wasmtime and the HTTP stack are noisy at debug; they stay at warn unless RUST_LOG says otherwise.
            (format!("{level},{QUIET_CRATES}"), verbose)
        }
    };
    let (filter, handle) = tracing_subscriber::reload::Layer::new(EnvFilter::new(filter));
    // Colours only for a person at a terminal: a log file or a pipe gets plain text.
    let log = tracing_subscriber::fmt::layer()
        .with_ansi(std::io::stderr().is_terminal())
        .with_writer(std::io::stderr)
        .with_filter(filter);
    if tracing_subscriber::registry().with(log).try_init().is_err() {
        return;
    }
    match export::start(telemetry) {
        Ok(false) => {}
        Ok(true) => {
            RECORD_CONTENT.store(telemetry.record_content, Ordering::Relaxed);
            let _ = SAMPLER.set(sampler(telemetry));
            EXPORTING.store(true, Ordering::Relaxed);
        }
        Err(problem) => tracing::error!("traces are off: {problem}"),
    }
    if !chosen {
        let _ = LEVEL.set(Box::new(move |level| {
            let _ = handle.reload(EnvFilter::new(format!("{level},{QUIET_CRATES}")));
        }));
    }
}

/// The sampler `OTEL_TRACES_SAMPLER` and `OTEL_TRACES_SAMPLER_ARG` name, `parentbased_always_on` by
/// default, as the specification says; a name or ratio this build does not know is logged and the
/// default taken instead.
fn sampler(config: &TelemetryConfig) -> Sampler {
    let ratio = || match config.variable("OTEL_TRACES_SAMPLER_ARG") {
        None => 1.0,
        Some(arg) => match arg.parse::<f64>() {
            Ok(ratio) if (0.0..=1.0).contains(&ratio) => ratio,
            _ => {
                tracing::warn!("OTEL_TRACES_SAMPLER_ARG={arg:?} is not a ratio from 0 to 1; using 1.0");
                1.0
            }
        },
    };
    let parent_based = |root| Sampler::ParentBased(Box::new(root));
    match config.variable("OTEL_TRACES_SAMPLER").map(str::to_ascii_lowercase).as_deref() {
        None | Some("parentbased_always_on") => parent_based(Sampler::AlwaysOn),
        Some("always_on") => Sampler::AlwaysOn,
        Some("always_off") => Sampler::AlwaysOff,
        Some("traceidratio") => Sampler::TraceIdRatioBased(ratio()),
        Some("parentbased_always_off") => parent_based(Sampler::AlwaysOff),
        Some("parentbased_traceidratio") => parent_based(Sampler::TraceIdRatioBased(ratio())),
        Some(other) => {
            tracing::warn!(
                "OTEL_TRACES_SAMPLER={other:?} is not a sampler Parlance has; using parentbased_always_on"
            );
            parent_based(Sampler::AlwaysOn)
        }
    }
}

/// Crates whose debug output is noise to a Parlance user.
const QUIET_CRATES: &str = "wasmtime=warn,cranelift=warn,hyper=warn,h2=warn,reqwest=warn";

/// From now on, only warnings and errors reach stderr: for a session whose screen belongs to the user
/// (the interactive mode), where an info line would land between a prompt and its answer. Does
/// nothing when `--verbose` or `RUST_LOG` asked for more.
pub fn quiet_below_warnings() {
    if let Some(set) = LEVEL.get() {
        set("warn");
    }
}

/// Logs from `level` (one of the seed's names) on, as a reloaded configuration asks. Does nothing
/// when `--verbose` or `RUST_LOG` chose the filter.
pub fn set_log_level(level: &str) {
    if let Some(set) = LEVEL.get() {
        set(filter_for(level));
    }
}

/// Exports what is left in the queue, within a few seconds, before the process ends.
pub fn shutdown() {
    export::shutdown();
}

/// Whether spans are exported.
pub fn exporting() -> bool {
    EXPORTING.load(Ordering::Relaxed)
}

/// Whether the operator asked for prompts and replies in the spans.
pub fn records_content() -> bool {
    RECORD_CONTENT.load(Ordering::Relaxed)
}

/// Whether a new trace is kept, by the configured sampler: the one decision of a trace, taken where
/// it starts. With the trace context that arrived in `headers` (a request's), the caller's trace is
/// continued and the sampler sees its parent. Returns that parent and the trace's id; `None` when
/// the trace is not kept or traces are off.
pub fn start_trace(headers: Option<&http::HeaderMap>) -> Option<(opentelemetry::Context, TraceId)> {
    if !exporting() {
        return None;
    }
    let parent = match headers {
        Some(headers) => caller_context(headers),
        None => opentelemetry::Context::new(),
    };
    let remote = parent.span().span_context().clone();
    let trace_id =
        if remote.is_valid() { remote.trace_id() } else { RandomIdGenerator::default().new_trace_id() };
    let sampler = SAMPLER.get()?;
    let decision = sampler.should_sample(Some(&parent), trace_id, "request", &SpanKind::Server, &[], &[]);
    (decision.decision == SamplingDecision::RecordAndSample).then_some((parent, trace_id))
}

/// The trace context a caller sent in `headers` (`traceparent`, `tracestate`): a remote span context
/// that is valid when they could be read, or none. Only a `traceparent` of W3C Trace Context's shape
/// is read: the propagator alone would also continue one whose ids are short (`00-1-2-01`), signed or
/// followed by a stray `-`, and then write back another than it read.
pub(crate) fn caller_context(headers: &http::HeaderMap) -> opentelemetry::Context {
    match headers.get("traceparent") {
        Some(value) if is_traceparent(value.as_bytes().trim_ascii()) => {
            TraceContextPropagator::new().extract(&opentelemetry_http::HeaderExtractor(headers))
        }
        _ => opentelemetry::Context::new(),
    }
}

/// `version-trace_id-parent_id-flags`, each in lowercase hex of 2, 32, 16 and 2 digits; version `00`
/// with nothing after, a later version with anything after a `-` (W3C Trace Context, level 1, 3.2).
/// Zero ids and version `ff` are the propagator's to refuse.
fn is_traceparent(text: &[u8]) -> bool {
    let hex = |from: usize, to: usize| text[from..to].iter().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
    let tail_allowed = match text.get(55) {
        None => true,
        Some(b'-') => !text.starts_with(b"00"),
        Some(_) => false,
    };
    text.len() >= 55
        && tail_allowed
        && [2, 35, 52].iter().all(|&at| text[at] == b'-')
        && hex(0, 2)
        && hex(3, 35)
        && hex(36, 52)
        && hex(53, 55)
}

/// The span that starts a trace (a request's, a job item's) when the sampler keeps it, or
/// [`Span::none`]: `root_span!(headers, name, Kind, "key" => value, …)`, where `headers` is the
/// request's trace context to continue (`Some(&HeaderMap)`) or `None`, and `Kind` a
/// [`SpanKind`](opentelemetry::trace::SpanKind) variant. The values are computed only for a kept trace.
macro_rules! root_span {
    ($headers:expr, $name:expr, $kind:ident $(, $key:literal => $value:expr)* $(,)?) => {
        match $crate::telemetry::start_trace($headers) {
            Some((parent, trace_id)) => $crate::telemetry::Span::root(
                &parent,
                trace_id,
                $name,
                ::opentelemetry::trace::SpanKind::$kind,
                vec![$(::opentelemetry::KeyValue::new($key, $value)),*],
            ),
            None => $crate::telemetry::Span::none(),
        }
    };
}
pub(crate) use root_span;

/// A span under the current one (a cache lookup, a plugin call, an outbound request…), made only
/// inside a kept trace: `trace_span!(name, Kind, "key" => value, …)`, the values computed only then.
macro_rules! trace_span {
    ($name:expr, $kind:ident $(, $key:literal => $value:expr)* $(,)?) => {
        if $crate::telemetry::in_kept_trace() {
            $crate::telemetry::Span::child(
                $name,
                ::opentelemetry::trace::SpanKind::$kind,
                vec![$(::opentelemetry::KeyValue::new($key, $value)),*],
            )
        } else {
            $crate::telemetry::Span::none()
        }
    };
}
pub(crate) use trace_span;

/// The W3C trace-context headers, which only the host writes into an outbound request.
const TRACE_HEADERS: [http::HeaderName; 2] =
    [http::HeaderName::from_static("traceparent"), http::HeaderName::from_static("tracestate")];

/// Writes `span`'s context into an outbound request, over whatever a plugin put there: a plugin can
/// neither forge the trace its request belongs to nor hide it from the upstream.
pub fn propagate(headers: &mut http::HeaderMap, span: &Span) {
    for name in &TRACE_HEADERS {
        headers.remove(name);
    }
    if let Some(context) = span.context() {
        let context = opentelemetry::Context::new().with_remote_span_context(context.clone());
        TraceContextPropagator::new()
            .inject_context(&context, &mut opentelemetry_http::HeaderInjector(headers));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_well_formed_traceparent_is_continued() {
        use opentelemetry::trace::TraceContextExt as _;
        let continued = |traceparent: &str| {
            let mut headers = http::HeaderMap::new();
            headers.insert("traceparent", traceparent.parse().unwrap());
            caller_context(&headers).span().span_context().is_valid()
        };
        assert!(continued("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"));
        assert!(continued("01-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01-future"));
        // Found by the `traceparent` fuzz target: the propagator reads short ids, and the host then
        // wrote back `00-0000000000000000000000004bf92f3-…`, a trace the caller never named.
        for refused in [
            "00-4bf92f3-00f067aa0ba902b7-00",
            "00-+af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
            "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01-",
            "00-0AF7651916CD43DD8448EB211C80319C-b7ad6b7169203331-01",
            "0-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
        ] {
            assert!(!continued(refused), "{refused}");
        }
    }

    #[test]
    fn a_plugin_cannot_set_the_trace_context_of_its_request() {
        let mut headers = http::HeaderMap::new();
        headers.insert(
            "traceparent",
            "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01".parse().unwrap(),
        );
        headers.insert("tracestate", "forged=1".parse().unwrap());
        headers.insert("x-other", "kept".parse().unwrap());
        propagate(&mut headers, &Span::none());
        assert!(headers.get("traceparent").is_none() && headers.get("tracestate").is_none());
        assert_eq!(headers.get("x-other").unwrap(), "kept");
    }
}
