//! Operations routes: `GET /health` (the state of every component) and `GET /metrics` (Prometheus).

use crate::Parlance;
use crate::plugins::api::PluginKind;
use axum::Router;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::IntoResponse;
use axum::routing::get;
use serde::Serialize;
use utoipa::ToSchema;

pub fn routes() -> Router<Parlance> {
    Router::new().route("/health", get(health)).route("/metrics", get(metrics))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Health {
    /// `ok`, or `degraded` when a component works in a reduced mode (the cache serving from memory
    /// because Redis is down) or the dialog store fails.
    pub status: String,
    pub version: String,
    pub components: Components,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Components {
    pub plugins: PluginsHealth,
    pub cache: crate::cache::CacheStats,
    pub store: crate::chat::StoreHealth,
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
/// process serves; `status` says whether anything is degraded.
#[utoipa::path(get, path = "/health", tag = "operations", responses((status = 200, body = Health)))]
pub async fn health(State(parlance): State<Parlance>) -> axum::Json<Health> {
    let host = parlance.plugins();
    let ids = |kind| host.of_kind(kind).map(|p| p.id().to_owned()).collect::<Vec<_>>();
    let unavailable: Vec<String> = host
        .plugins()
        .filter(|p| !p.spec().missing_secrets().is_empty())
        .map(|p| format!("{}: missing secret {}", p.id(), p.spec().missing_secrets().join(", ")))
        .collect();
    let plugins = PluginsHealth {
        status: "ok".into(),
        loaded: host.plugins().count(),
        providers: ids(PluginKind::Provider),
        chat_models: ids(PluginKind::ChatModel),
        metrics: ids(PluginKind::Metric),
        unavailable,
    };
    let cache = parlance.paraphraser().cache().stats();
    let store = parlance.store_health().await;
    let degraded = cache.status != "ok" || store.status != "ok";
    axum::Json(Health {
        status: if degraded { "degraded" } else { "ok" }.into(),
        version: env!("CARGO_PKG_VERSION").into(),
        components: Components { plugins, cache, store },
    })
}

/// Prometheus metrics in the text exposition format.
#[utoipa::path(
    get,
    path = "/metrics",
    tag = "operations",
    responses((status = 200, description = "Prometheus text format", content_type = "text/plain", body = String))
)]
pub async fn metrics(State(parlance): State<Parlance>) -> impl IntoResponse {
    (
        StatusCode::OK,
        [(header::CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8")],
        parlance.metrics().render(),
    )
}
