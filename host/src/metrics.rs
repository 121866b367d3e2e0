//! Prometheus metrics for `GET /metrics`: requests by route and status, plugin calls by plugin id and
//! outcome with latency histograms, cache hits and misses, and rate-limit rejections; written as
//! OpenMetrics 1.0.0 or as the Prometheus text format 0.0.4. Every label set known at start (each
//! plugin and outcome, each documented route and status, each provider's rejections, each reason a
//! span was dropped before the trace collector had it) is exposed from
//! the start with its zero, so that a family never appears only after its first event.

use crate::plugins::api::{CallError, CallObserver, PluginKind, Usage};
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::Registry;
use std::time::Duration;

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct RequestLabels {
    pub route: String,
    pub method: String,
    pub status: u16,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct RouteLabels {
    pub route: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct PluginCallLabels {
    pub plugin: String,
    pub outcome: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct PluginLabels {
    pub plugin: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct TokenLabels {
    pub plugin: String,
    /// The model, one of the first [`MAX_MODELS_PER_PLUGIN`] seen for the plugin, else `other`.
    pub model: String,
    /// `input` or `output`.
    pub direction: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct ModelLabels {
    pub plugin: String,
    pub model: String,
}

/// The most model labels a plugin's usage series take; a client naming ever new models must not grow
/// `/metrics` without bound.
pub const MAX_MODELS_PER_PLUGIN: usize = 32;

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct StreamCancelLabels {
    pub plugin: String,
    pub cause: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct FallbackLabels {
    /// The request's primary.
    pub from: String,
    /// The chain member that served it.
    pub to: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct ProviderLabels {
    pub provider: String,
}

type Histograms<L> = Family<L, Histogram, fn() -> Histogram>;

/// The media type of [`Metrics::render`].
pub const OPENMETRICS: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";
/// The media type of [`Metrics::render_prometheus_text`].
pub const PROMETHEUS_TEXT: &str = "text/plain; version=0.0.4; charset=utf-8";

/// The `outcome` label of a plugin call: `ok`, or what went wrong ([`crate::plugins::api::CallFailure::label`]).
const OUTCOMES: &[&str] = &[
    "ok",
    "plugin_error",
    "timeout",
    "memory_limit",
    "trap",
    "invalid_output",
    "not_started",
    "busy",
    "client_busy",
    "memory_budget",
    "streams_full",
    "budget_exceeded",
];

/// OpenMetrics text rewritten as the Prometheus text format 0.0.4. The two differ, for what this
/// registry writes, in three ways: a counter's `# HELP` and `# TYPE` name its samples' `_total` name,
/// there is no `# UNIT` line, and no `# EOF`. Samples, labels and their escaping are the same.
pub fn prometheus_text(openmetrics: &str) -> String {
    let counters: std::collections::HashSet<&str> =
        openmetrics.lines().filter_map(|l| l.strip_prefix("# TYPE ")?.strip_suffix(" counter")).collect();
    let mut out = String::with_capacity(openmetrics.len());
    for line in openmetrics.lines() {
        if line == "# EOF" || line.starts_with("# UNIT ") {
            continue;
        }
        let descriptor = ["# HELP ", "# TYPE "].into_iter().find_map(|p| Some((p, line.strip_prefix(p)?)));
        match descriptor {
            Some((prefix, rest)) => {
                let (name, tail) = rest.split_once(' ').unwrap_or((rest, ""));
                let suffix = if counters.contains(name) { "_total" } else { "" };
                out.push_str(&format!("{prefix}{name}{suffix} {tail}"));
            }
            None => out.push_str(line),
        }
        out.push('\n');
    }
    out
}

/// Why a streamed reply ended before it was complete: the client went away, the upstream failed or
/// broke its protocol, the plugin failed, a limit (size, deadline) cut it.
pub const STREAM_CANCEL_CAUSES: &[&str] = &["client", "upstream", "plugin", "limit", "deadline"];

fn stream_histogram() -> Histogram {
    // 1 ms to ~9 min.
    Histogram::new(exponential_buckets(0.001, 2.0, 20))
}

fn latency_histogram() -> Histogram {
    // 50 µs to ~13 s.
    Histogram::new(exponential_buckets(0.000_05, 2.0, 19))
}

pub struct Metrics {
    registry: Registry,
    pub http_requests: Family<RequestLabels, Counter>,
    pub http_duration: Histograms<RouteLabels>,
    pub plugin_calls: Family<PluginCallLabels, Counter>,
    pub plugin_duration: Histograms<PluginLabels>,
    pub cache_hits: Counter,
    pub cache_misses: Counter,
    pub rate_limited: Family<ProviderLabels, Counter>,
    pub stream_first_delta: Histograms<PluginLabels>,
    pub stream_duration: Histograms<PluginLabels>,
    pub streams_cancelled: Family<StreamCancelLabels, Counter>,
    pub fallbacks: Family<FallbackLabels, Counter>,
    pub circuit_state: Family<PluginLabels, Gauge>,
    pub tokens: Family<TokenLabels, Counter>,
    pub spend: Family<ModelLabels, Counter<f64, std::sync::atomic::AtomicU64>>,
    pub unpriced_calls: Family<ModelLabels, Counter>,
    pub usage_records_dropped: Counter,
    /// The model labels each plugin has taken so far.
    models_seen: std::sync::Mutex<std::collections::HashMap<String, std::collections::HashSet<String>>>,
}

impl Default for Metrics {
    fn default() -> Self {
        Metrics::new()
    }
}

impl Metrics {
    pub fn new() -> Metrics {
        let mut registry = Registry::with_prefix("parlance");
        let http_requests = Family::<RequestLabels, Counter>::default();
        let http_duration: Histograms<RouteLabels> = Family::new_with_constructor(latency_histogram);
        let plugin_calls = Family::<PluginCallLabels, Counter>::default();
        let plugin_duration: Histograms<PluginLabels> = Family::new_with_constructor(latency_histogram);
        let cache_hits = Counter::default();
        let cache_misses = Counter::default();
        let rate_limited = Family::<ProviderLabels, Counter>::default();
        let stream_first_delta: Histograms<PluginLabels> = Family::new_with_constructor(stream_histogram);
        let stream_duration: Histograms<PluginLabels> = Family::new_with_constructor(stream_histogram);
        let streams_cancelled = Family::<StreamCancelLabels, Counter>::default();
        let fallbacks = Family::<FallbackLabels, Counter>::default();
        let circuit_state = Family::<PluginLabels, Gauge>::default();
        let tokens = Family::<TokenLabels, Counter>::default();
        let spend = Family::<ModelLabels, Counter<f64, std::sync::atomic::AtomicU64>>::default();
        let unpriced_calls = Family::<ModelLabels, Counter>::default();
        let usage_records_dropped = Counter::default();
        registry.register(
            "plugin_tokens",
            "Tokens the upstreams reported, by plugin, model and direction (input, output)",
            tokens.clone(),
        );
        registry.register(
            "plugin_spend",
            "What plugin calls cost by their prices, in the deployment's currency ([usage] currency), by plugin and model",
            spend.clone(),
        );
        registry.register(
            "plugin_unpriced_calls",
            "Plugin calls recorded with no cost (no price for the model, or an unreported count), by plugin and model",
            unpriced_calls.clone(),
        );
        registry.register(
            "usage_records_dropped",
            "Usage records dropped because the ledger's queue was full",
            usage_records_dropped.clone(),
        );
        registry.register(
            "fallbacks",
            "Requests served by a member of their chain other than their primary, by primary and member",
            fallbacks.clone(),
        );
        registry.register(
            "circuit_state",
            "Each provider's and chat model's circuit: 0 closed, 1 half-open, 2 open",
            circuit_state.clone(),
        );
        registry.register(
            "stream_first_delta_seconds",
            "Time from a streamed reply's start to its first delta, by chat model",
            stream_first_delta.clone(),
        );
        registry.register(
            "stream_duration_seconds",
            "Duration of streamed replies that completed, by chat model",
            stream_duration.clone(),
        );
        registry.register(
            "streams_cancelled",
            "Streamed replies that ended before they were complete, by chat model and cause",
            streams_cancelled.clone(),
        );
        registry.register(
            "http_requests",
            "HTTP requests by route, method and status",
            http_requests.clone(),
        );
        registry.register(
            "http_request_duration_seconds",
            "HTTP request latency by route",
            http_duration.clone(),
        );
        registry.register("plugin_calls", "Plugin calls by plugin id and outcome", plugin_calls.clone());
        registry.register(
            "plugin_call_duration_seconds",
            "Plugin call latency by plugin id",
            plugin_duration.clone(),
        );
        registry.register(
            "trace_spans_dropped",
            "Finished spans that never reached the trace collector, by reason",
            crate::telemetry::SPANS_DROPPED.clone(),
        );
        registry.register("cache_hits", "Paraphrase response-cache hits", cache_hits.clone());
        registry.register("cache_misses", "Paraphrase response-cache misses", cache_misses.clone());
        registry.register(
            "rate_limit_rejections",
            "Provider calls refused by this service's rate limit",
            rate_limited.clone(),
        );
        Metrics {
            registry,
            http_requests,
            http_duration,
            plugin_calls,
            plugin_duration,
            cache_hits,
            cache_misses,
            rate_limited,
            stream_first_delta,
            stream_duration,
            streams_cancelled,
            fallbacks,
            circuit_state,
            tokens,
            spend,
            unpriced_calls,
            usage_records_dropped,
            models_seen: Default::default(),
        }
    }

    /// Exposes a plugin's zero tokens, spend and unpriced calls for its default model, so that the
    /// usage families are there from the start.
    pub fn expect_usage(&self, plugin: &str, model: &str) {
        let model = self.model_label(plugin, model);
        for direction in ["input", "output"] {
            let labels =
                TokenLabels { plugin: plugin.to_owned(), model: model.clone(), direction: direction.into() };
            drop(self.tokens.get_or_create(&labels));
        }
        let labels = ModelLabels { plugin: plugin.to_owned(), model };
        drop(self.spend.get_or_create(&labels));
        drop(self.unpriced_calls.get_or_create(&labels));
    }

    /// Counts one settled call's tokens and cost (in picos), under a bounded model label.
    pub fn count_usage(&self, plugin: &str, model: Option<&str>, usage: Usage, cost: Option<i64>) {
        let model = self.model_label(plugin, model.unwrap_or(""));
        for (direction, count) in [("input", usage.input_tokens), ("output", usage.output_tokens)] {
            if let Some(n) = count.filter(|n| *n > 0) {
                let labels = TokenLabels {
                    plugin: plugin.to_owned(),
                    model: model.clone(),
                    direction: direction.into(),
                };
                self.tokens.get_or_create(&labels).inc_by(u64::from(n));
            }
        }
        let labels = ModelLabels { plugin: plugin.to_owned(), model };
        match cost {
            Some(picos) => {
                self.spend.get_or_create(&labels).inc_by(picos as f64 / crate::plugins::price::PICOS as f64);
            }
            None => {
                self.unpriced_calls.get_or_create(&labels).inc();
            }
        }
    }

    fn model_label(&self, plugin: &str, model: &str) -> String {
        let Ok(mut seen) = self.models_seen.lock() else { return "other".into() };
        let models = seen.entry(plugin.to_owned()).or_default();
        if models.contains(model) || models.len() < MAX_MODELS_PER_PLUGIN && models.insert(model.to_owned()) {
            model.to_owned()
        } else {
            "other".into()
        }
    }

    /// OpenMetrics 1.0.0 text ([`OPENMETRICS`]).
    pub fn render(&self) -> String {
        let mut out = String::new();
        // Writing into a String cannot fail.
        let _ = prometheus_client::encoding::text::encode(&mut out, &self.registry);
        out
    }

    /// The Prometheus text format 0.0.4 ([`PROMETHEUS_TEXT`]), for scrapers and parsers that do not ask
    /// for OpenMetrics.
    pub fn render_prometheus_text(&self) -> String {
        prometheus_text(&self.render())
    }

    /// Exposes the zero counts and empty histograms of a plugin, for each outcome of its calls.
    pub fn expect_plugin(&self, plugin: &str) {
        // Creating a label set is what exposes it; the guard `get_or_create` returns is not needed.
        for outcome in OUTCOMES {
            let labels = PluginCallLabels { plugin: plugin.to_owned(), outcome: (*outcome).to_owned() };
            drop(self.plugin_calls.get_or_create(&labels));
        }
        drop(self.plugin_duration.get_or_create(&PluginLabels { plugin: plugin.to_owned() }));
    }

    /// Exposes a chat model's empty stream histograms and zero cancellations, for each cause.
    pub fn expect_chat_model(&self, plugin: &str) {
        let labels = PluginLabels { plugin: plugin.to_owned() };
        drop(self.stream_first_delta.get_or_create(&labels));
        drop(self.stream_duration.get_or_create(&labels));
        for cause in STREAM_CANCEL_CAUSES {
            let labels = StreamCancelLabels { plugin: plugin.to_owned(), cause: (*cause).to_owned() };
            drop(self.streams_cancelled.get_or_create(&labels));
        }
    }

    pub fn observe_first_delta(&self, plugin: &str, elapsed: Duration) {
        self.stream_first_delta
            .get_or_create(&PluginLabels { plugin: plugin.to_owned() })
            .observe(elapsed.as_secs_f64());
    }

    pub fn observe_stream_end(&self, plugin: &str, cancelled: Option<&'static str>, elapsed: Duration) {
        match cancelled {
            None => self
                .stream_duration
                .get_or_create(&PluginLabels { plugin: plugin.to_owned() })
                .observe(elapsed.as_secs_f64()),
            Some(cause) => {
                self.streams_cancelled
                    .get_or_create(&StreamCancelLabels { plugin: plugin.to_owned(), cause: cause.to_owned() })
                    .inc();
            }
        }
    }

    /// Exposes a plugin's circuit, closed.
    pub fn expect_circuit(&self, plugin: &str) {
        drop(self.circuit_state.get_or_create(&PluginLabels { plugin: plugin.to_owned() }));
    }

    pub fn set_circuit(&self, plugin: &str, state: i64) {
        self.circuit_state.get_or_create(&PluginLabels { plugin: plugin.to_owned() }).set(state);
    }

    pub fn count_fallback(&self, from: &str, to: &str) {
        self.fallbacks.get_or_create(&FallbackLabels { from: from.to_owned(), to: to.to_owned() }).inc();
    }

    /// Exposes a provider's zero count of rate-limit rejections.
    pub fn expect_provider(&self, provider: &str) {
        drop(self.rate_limited.get_or_create(&ProviderLabels { provider: provider.to_owned() }));
    }

    /// Exposes the zero counts of a documented route, method and status, and the route's histogram.
    pub fn expect_route(&self, route: &str, method: &str, status: u16) {
        let labels = RequestLabels { route: route.to_owned(), method: method.to_owned(), status };
        drop(self.http_requests.get_or_create(&labels));
        drop(self.http_duration.get_or_create(&RouteLabels { route: route.to_owned() }));
    }

    pub fn observe_plugin_call(&self, plugin: &str, outcome: Result<(), &CallError>, elapsed: Duration) {
        let outcome = match outcome {
            Ok(()) => "ok",
            Err(e) => e.failure.label(),
        };
        self.plugin_calls
            .get_or_create(&PluginCallLabels { plugin: plugin.to_owned(), outcome: outcome.to_owned() })
            .inc();
        self.plugin_duration
            .get_or_create(&PluginLabels { plugin: plugin.to_owned() })
            .observe(elapsed.as_secs_f64());
    }
}

/// The plugin runtime's calls and streams, counted.
impl CallObserver for Metrics {
    fn plugin_loaded(&self, plugin: &str, kind: PluginKind, model: Option<&str>) {
        self.expect_plugin(plugin);
        self.expect_usage(plugin, model.unwrap_or(""));
        if kind == PluginKind::ChatModel {
            self.expect_chat_model(plugin);
        }
    }

    fn call_ended(&self, plugin: &str, outcome: Result<(), &CallError>, elapsed: Duration) {
        self.observe_plugin_call(plugin, outcome, elapsed);
    }

    fn first_delta(&self, plugin: &str, elapsed: Duration) {
        self.observe_first_delta(plugin, elapsed);
    }

    fn stream_ended(&self, plugin: &str, cancelled: Option<&'static str>, elapsed: Duration) {
        self.observe_stream_end(plugin, cancelled, elapsed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_family_is_exposed_from_the_start_in_both_formats() {
        let metrics = Metrics::new();
        metrics.expect_plugin("offline");
        metrics.expect_route("/paraphrase", "POST", 200);
        metrics.expect_provider("openrouter");
        let openmetrics = metrics.render();
        assert!(openmetrics.ends_with("# EOF\n"), "{openmetrics}");
        for family in [
            "http_requests",
            "http_request_duration_seconds",
            "plugin_calls",
            "plugin_call_duration_seconds",
            "cache_hits",
            "cache_misses",
            "rate_limit_rejections",
            "trace_spans_dropped",
        ] {
            assert!(openmetrics.contains(&format!("# TYPE parlance_{family} ")), "{family}: {openmetrics}");
        }
        assert!(openmetrics.contains("parlance_plugin_calls_total{plugin=\"offline\",outcome=\"trap\"} 0"));
        assert!(openmetrics.contains("parlance_rate_limit_rejections_total{provider=\"openrouter\"} 0"));

        let text = metrics.render_prometheus_text();
        assert!(!text.contains("# EOF"), "{text}");
        assert!(text.contains("# TYPE parlance_http_requests_total counter\n"), "{text}");
        assert!(
            text.contains("# HELP parlance_cache_hits_total Paraphrase response-cache hits.\n"),
            "{text}"
        );
        assert!(text.contains("# TYPE parlance_plugin_call_duration_seconds histogram\n"), "{text}");
        assert!(text.contains(
            "parlance_http_requests_total{route=\"/paraphrase\",method=\"POST\",status=\"200\"} 0\n"
        ));
        // Every sample line is the same in both.
        let samples =
            |t: &str| t.lines().filter(|l| !l.starts_with('#')).map(str::to_owned).collect::<Vec<_>>();
        assert_eq!(samples(&openmetrics), samples(&text));
    }
}
