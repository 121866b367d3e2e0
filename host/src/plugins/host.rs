//! `PluginHost`: every loaded plugin by id on one shared runtime, loaded in parallel with every
//! failure reported at once, the observer its calls report to, the meter that records what each
//! call used, and the probes of every upstream.

use super::api::{CallError, CallObserver, CallScope, Meter, PluginKind, Settled, Usage};
use super::engine::Runtime;
use super::load::load;
use super::load_error::LoadError;
use super::plugin::Plugin;
use super::price::Price;
use super::settings::RuntimeConfig;
use super::spec::PluginSpec;
use crate::embeddings::EmbeddingBackend;
use crate::upstream::{TlsConfig, Upstream, with_causes};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Instant;

/// The record of one call: a plugin that can reach no upstream used nothing anyone bills.
pub(super) fn settled<'a>(
    plugin: &'a Plugin,
    client: &'a str,
    model: Option<&'a str>,
    usage: Usage,
    failure: Option<&'static str>,
    scope: CallScope,
) -> Settled<'a> {
    let spec = plugin.spec();
    let (usage, price) = if spec.billed() {
        (usage, spec.prices.of(model).copied())
    } else {
        (Usage { input_tokens: Some(0), output_tokens: Some(0) }, Some(Price::default()))
    };
    let cost = price.and_then(|p| p.cost(usage));
    let trace_id = crate::telemetry::Span::current().context().map(|c| c.trace_id().to_string());
    Settled { plugin: plugin.id(), kind: plugin.kind(), model, client, scope, usage, cost, failure, trace_id }
}

/// What a plugin's probe found.
#[derive(Debug)]
pub enum ProbeOutcome {
    /// The plugin cannot serve (a missing secret), so it was not asked.
    Skipped(String),
    /// The component has no `probe` export (every 0.1.0 component).
    Unsupported,
    /// What the upstream said.
    Ok(String),
    Failed(CallError),
}

/// Every loaded plugin, by id, on one shared runtime.
pub struct PluginHost {
    pub(super) runtime: Arc<Runtime>,
    pub(super) plugins: BTreeMap<String, Arc<Plugin>>,
    pub(super) observer: Option<Arc<dyn CallObserver>>,
    pub(super) meter: Option<Arc<dyn Meter>>,
}

impl PluginHost {
    /// Loads every plugin, compiling in parallel, and reports every failure at once. Plugins' outbound
    /// requests go through a client of their own that trusts the webpki roots only.
    pub async fn start(
        specs: Vec<PluginSpec>,
        settings: &RuntimeConfig,
        embeddings: Option<Arc<dyn EmbeddingBackend>>,
    ) -> Result<PluginHost, LoadError> {
        let upstream = Upstream::new(&TlsConfig::default())
            .map_err(|e| LoadError::Engine(format!("the HTTP client: {}", with_causes(&e))))?;
        PluginHost::start_with_upstream(specs, settings, embeddings, upstream).await
    }

    /// [`PluginHost::start`] with plugins' outbound requests going through `upstream`, the process's
    /// shared client.
    pub async fn start_with_upstream(
        specs: Vec<PluginSpec>,
        settings: &RuntimeConfig,
        embeddings: Option<Arc<dyn EmbeddingBackend>>,
        upstream: Upstream,
    ) -> Result<PluginHost, LoadError> {
        let max_memory = specs.iter().map(|s| s.limits.memory_bytes).max().unwrap_or(0).max(64 << 20);
        let runtime = Arc::new(Runtime::new(settings, max_memory)?);
        let mut tasks = tokio::task::JoinSet::new();
        for spec in specs {
            let runtime = runtime.clone();
            let embeddings = embeddings.clone();
            let upstream = upstream.clone();
            tasks.spawn(async move { load(&runtime, spec, embeddings, upstream).await });
        }
        let mut plugins = BTreeMap::new();
        let mut errors = Vec::new();
        while let Some(joined) = tasks.join_next().await {
            match joined {
                Ok(Ok(plugin)) => {
                    plugins.insert(plugin.id().to_owned(), Arc::new(plugin));
                }
                Ok(Err(e)) => errors.push(e),
                Err(e) => errors.push(LoadError::Engine(format!("a plugin load task failed: {e}"))),
            }
        }
        match errors.len() {
            0 => Ok(PluginHost { runtime, plugins, observer: None, meter: None }),
            1 => Err(errors.remove(0)),
            _ => Err(LoadError::Several(errors)),
        }
    }

    /// Tells `observer` (the metrics) of every call's outcome and latency, each plugin's from zero.
    pub fn observed_by(mut self, observer: Arc<dyn CallObserver>) -> Self {
        for (id, plugin) in &self.plugins {
            observer.plugin_loaded(id, plugin.kind());
        }
        self.observer = Some(observer);
        self
    }

    /// Tells `meter` (the usage ledger) what every call used, each call's answer waiting until it is
    /// on record.
    pub fn metered_by(mut self, meter: Arc<dyn Meter>) -> Self {
        self.meter = Some(meter);
        self
    }

    /// Records what one call (or one whole stream) of `plugin` used, for `client` in the current
    /// [`CallScope`].
    pub(super) async fn settle<R>(
        &self,
        plugin: &Plugin,
        client: &str,
        model: Option<&str>,
        usage: Usage,
        result: &Result<R, CallError>,
    ) {
        if let Some(meter) = &self.meter {
            let failure = result.as_ref().err().map(|e| e.failure.label());
            meter.settle(settled(plugin, client, model, usage, failure, CallScope::current())).await;
        }
    }

    pub(super) fn observe<R>(&self, plugin: &Plugin, started: Instant, result: &Result<R, CallError>) {
        if let Some(observer) = &self.observer {
            observer.call_ended(plugin.id(), result.as_ref().map(|_| ()), started.elapsed());
        }
    }

    pub fn get(&self, id: &str) -> Option<&Arc<Plugin>> {
        self.plugins.get(id)
    }

    pub fn plugins(&self) -> impl Iterator<Item = &Arc<Plugin>> {
        self.plugins.values()
    }

    /// The plugin `id` when it is of `kind`.
    pub fn get_of_kind(&self, id: &str, kind: PluginKind) -> Option<&Arc<Plugin>> {
        self.plugins.get(id).filter(|p| p.kind() == kind)
    }

    pub fn of_kind(&self, kind: PluginKind) -> impl Iterator<Item = &Arc<Plugin>> {
        self.plugins.values().filter(move |p| p.kind() == kind)
    }

    pub fn runtime(&self) -> &Arc<Runtime> {
        &self.runtime
    }

    /// Asks every provider and chat model at once whether its upstream is reachable, each under its
    /// own limits; a plugin that cannot serve (a missing secret) is not called.
    pub async fn probe_all(&self) -> Vec<(String, ProbeOutcome)> {
        let calls = self.plugins().filter(|p| p.kind() != PluginKind::Metric).map(|plugin| async move {
            let outcome = match plugin.unavailable_reason() {
                Some(reason) => ProbeOutcome::Skipped(reason),
                None => match self.probe(plugin).await {
                    None => ProbeOutcome::Unsupported,
                    Some(Ok(detail)) => ProbeOutcome::Ok(detail),
                    Some(Err(e)) => ProbeOutcome::Failed(e),
                },
            };
            (plugin.id().to_owned(), outcome)
        });
        futures::future::join_all(calls).await
    }
}
