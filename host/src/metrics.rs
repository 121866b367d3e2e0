//! Prometheus metrics for `GET /metrics`: requests by route and status, plugin calls by plugin id and
//! outcome with latency histograms, cache hits and misses, and rate-limit rejections.

use crate::plugins::api::{CallError, CallFailure};
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
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
pub struct ProviderLabels {
    pub provider: String,
}

type Histograms<L> = Family<L, Histogram, fn() -> Histogram>;

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
        }
    }

    /// The text exposition format.
    pub fn render(&self) -> String {
        let mut out = String::new();
        // Writing into a String cannot fail.
        let _ = prometheus_client::encoding::text::encode(&mut out, &self.registry);
        out
    }

    pub fn observe_plugin_call(&self, plugin: &str, outcome: Result<(), &CallError>, elapsed: Duration) {
        let outcome = match outcome {
            Ok(()) => "ok",
            Err(e) => match &e.failure {
                CallFailure::Reported(_) => "plugin_error",
                CallFailure::Deadline(_) => "timeout",
                CallFailure::MemoryLimit { .. } => "memory_limit",
                CallFailure::Trap(_) => "trap",
                CallFailure::InvalidOutput(_) => "invalid_output",
                CallFailure::NotStarted(_) => "not_started",
                CallFailure::Busy { .. } => "busy",
                CallFailure::ClientBusy { .. } => "client_busy",
                CallFailure::MemoryBudget { .. } => "memory_budget",
            },
        };
        self.plugin_calls
            .get_or_create(&PluginCallLabels { plugin: plugin.to_owned(), outcome: outcome.to_owned() })
            .inc();
        self.plugin_duration
            .get_or_create(&PluginLabels { plugin: plugin.to_owned() })
            .observe(elapsed.as_secs_f64());
    }
}
