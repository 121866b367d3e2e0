//! Operations routes: `GET /health` (the state of every component) and `GET /metrics` (Prometheus or
//! OpenMetrics text, as the client asks).

use super::state::AppState;
use crate::fallback::CircuitState;
use crate::plugins::api::PluginKind;
use crate::plugins::{PluginHost, ProbeOutcome};
use crate::rest::{ErrorBody, Query};
use axum::Router;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::IntoResponse;
use axum::routing::get;
use serde::Serialize;
use utoipa::ToSchema;

pub fn routes() -> Router<AppState> {
    Router::new().route("/health", get(health)).route("/metrics", get(metrics))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Health {
    /// `ok`, or `degraded` when a component works in a reduced mode (the cache serving from memory
    /// because Redis is down), the dialog store fails, or a requested probe fails.
    pub status: String,
    pub version: String,
    pub components: Components,
    /// The configuration in force: its generation (one more at each reload), when it was loaded, and
    /// why the last reload was refused, if it was.
    pub configuration: super::generations::ConfigurationHealth,
    /// With `?probe=true`: each provider and chat model by id, with what its upstream said.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub probes: Option<std::collections::BTreeMap<String, Probe>>,
}

/// The outcome of one plugin's probe.
#[derive(Debug, Serialize, ToSchema)]
pub struct Probe {
    /// `ok`, `failed`, `unsupported` for a component without the optional `probe` export (every
    /// component built for `parlance:plugin@0.1.0`), or `skipped` for a plugin that lacks a secret
    /// and so cannot be called at all (listed under `components.plugins.unavailable` as well).
    pub status: String,
    /// What the upstream said, or why the probe failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

#[derive(Debug, serde::Deserialize, utoipa::IntoParams)]
pub struct HealthQuery {
    /// Also ask each provider and chat model that can (optional `probe` export) whether its upstream is
    /// reachable. Costs one cheap upstream request per such plugin; off by default, so that polling
    /// `/health` sends nothing upstream.
    #[serde(default)]
    pub probe: bool,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Components {
    pub plugins: PluginsHealth,
    pub cache: crate::cache::CacheStats,
    pub store: crate::chat::StoreHealth,
    pub rate_limits: crate::ratelimit::RateLimitHealth,
    pub providers: ProvidersHealth,
}

/// The circuits of the providers and chat models.
#[derive(Debug, Serialize, ToSchema)]
pub struct ProvidersHealth {
    /// `ok`, or `degraded` while a circuit is open or half-open (its requests go to its fallbacks).
    pub status: String,
    /// Each provider's and chat model's circuit by id: `closed`, `open` or `half-open`.
    pub circuits: std::collections::BTreeMap<String, CircuitState>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PluginsHealth {
    pub status: String,
    pub loaded: usize,
    pub providers: Vec<String>,
    pub chat_models: Vec<String>,
    pub metrics: Vec<String>,
    /// Plugins that cannot serve yet, with the reason (a missing secret).
    pub unavailable: Vec<String>,
}

/// The service's health: status, version and the state of each component. Always 200 while the
/// process serves (400 only for a malformed query); `status` says whether anything is degraded.
#[utoipa::path(
    get,
    path = "/health",
    tag = "operations",
    params(HealthQuery),
    responses(
        (status = 200, description = "The state of every component; `status` is `degraded` when any works in a reduced mode", body = Health),
        (status = 400, description = "A malformed query", body = ErrorBody),
    )
)]
pub async fn health(State(state): State<AppState>, Query(query): Query<HealthQuery>) -> axum::Json<Health> {
    let host = &state.plugins;
    let ids = |kind| host.of_kind(kind).map(|p| p.id().to_owned()).collect::<Vec<_>>();
    let unavailable: Vec<String> = host
        .plugins()
        .filter_map(|p| p.unavailable_reason().map(|reason| format!("{}: {reason}", p.id())))
        .collect();
    let plugins = PluginsHealth {
        status: "ok".into(),
        loaded: host.plugins().count(),
        providers: ids(PluginKind::Provider),
        chat_models: ids(PluginKind::ChatModel),
        metrics: ids(PluginKind::Metric),
        unavailable,
    };
    let cache = state.paraphrase.cache().stats();
    let store = state.chat.health().await;
    let probes = if query.probe { Some(probe_all(host).await) } else { None };
    let probe_failed = probes.as_ref().is_some_and(|p| p.values().any(|p| p.status == "failed"));
    let rate_limits = state.paraphrase.rate_limits().health();
    let circuits = state.paraphrase.chains().breakers().states();
    let tripped = circuits.values().any(|c| *c != CircuitState::Closed);
    let providers = ProvidersHealth { status: if tripped { "degraded" } else { "ok" }.into(), circuits };
    let degraded = cache.status != "ok"
        || store.status != "ok"
        || rate_limits.status != "ok"
        || providers.status != "ok"
        || probe_failed;
    axum::Json(Health {
        status: if degraded { "degraded" } else { "ok" }.into(),
        version: env!("CARGO_PKG_VERSION").into(),
        components: Components { plugins, cache, store, rate_limits, providers },
        configuration: state.configuration.health(),
        probes,
    })
}

/// Probes every provider and chat model at once, each under its own limits.
async fn probe_all(host: &PluginHost) -> std::collections::BTreeMap<String, Probe> {
    host.probe_all()
        .await
        .into_iter()
        .map(|(id, outcome)| {
            let probe = match outcome {
                ProbeOutcome::Skipped(reason) => Probe { status: "skipped".into(), detail: Some(reason) },
                ProbeOutcome::Unsupported => Probe { status: "unsupported".into(), detail: None },
                ProbeOutcome::Ok(detail) => Probe { status: "ok".into(), detail: Some(detail) },
                ProbeOutcome::Failed(e) => Probe { status: "failed".into(), detail: Some(e.to_string()) },
            };
            (id, probe)
        })
        .collect()
}

/// Prometheus metrics: the Prometheus text format 0.0.4, or OpenMetrics 1.0.0 to a client whose
/// `Accept` prefers it (as Prometheus's own scraper does). Each response's Content-Type names its format.
#[utoipa::path(
    get,
    path = "/metrics",
    tag = "operations",
    responses((
        status = 200,
        description = "Every metric family, zero counts included: the Prometheus text format 0.0.4, or OpenMetrics 1.0.0 when `Accept` prefers `application/openmetrics-text`",
        content((String = "text/plain"), (String = "application/openmetrics-text")),
    ))
)]
pub async fn metrics(State(state): State<AppState>, headers: HeaderMap) -> impl IntoResponse {
    let accept = headers.get(header::ACCEPT).and_then(|v| v.to_str().ok()).unwrap_or_default();
    let (content_type, body) = if prefers_openmetrics(accept) {
        (crate::metrics::OPENMETRICS, state.metrics.render())
    } else {
        (crate::metrics::PROMETHEUS_TEXT, state.metrics.render_prometheus_text())
    };
    (StatusCode::OK, [(header::CONTENT_TYPE, content_type)], body)
}

/// Whether an `Accept` header ranks OpenMetrics above the plain text format (`text/plain`, `text/*`
/// or `*/*`, whichever it ranks highest): the plain format is the default, as in Prometheus's own
/// client libraries.
fn prefers_openmetrics(accept: &str) -> bool {
    let (mut openmetrics, mut text) = (0.0_f32, 0.0_f32);
    for range in accept.split(',') {
        let mut parts = range.split(';').map(str::trim);
        let media = parts.next().unwrap_or_default().to_ascii_lowercase();
        let q = parts
            .filter_map(|p| p.strip_prefix("q=").and_then(|q| q.trim().parse::<f32>().ok()))
            .next()
            .unwrap_or(1.0);
        match media.as_str() {
            "application/openmetrics-text" => openmetrics = openmetrics.max(q),
            "text/plain" | "text/*" | "*/*" => text = text.max(q),
            _ => {}
        }
    }
    openmetrics > 0.0 && openmetrics >= text
}

#[cfg(test)]
mod tests {
    use super::prefers_openmetrics;

    #[test]
    fn openmetrics_only_when_the_client_prefers_it() {
        assert!(!prefers_openmetrics(""));
        assert!(!prefers_openmetrics("*/*"));
        assert!(!prefers_openmetrics("text/plain"));
        assert!(prefers_openmetrics("application/openmetrics-text; version=1.0.0"));
        // Prometheus 2 and 3 scrapers.
        assert!(prefers_openmetrics(
            "application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1"
        ));
        assert!(!prefers_openmetrics("text/plain;q=1, application/openmetrics-text;q=0.5"));
        assert!(!prefers_openmetrics("application/openmetrics-text;q=0"));
    }
}
