//! `PluginHost`: every loaded plugin by id on one shared runtime, loaded in parallel with every
//! failure reported at once, the observer its calls report to, the meter that records what each
//! call used, and the probes of every upstream.

use super::api::{
    Admission, CallError, CallFailure, CallObserver, CallScope, Hold, Meter, PluginKind, Settled, Usage,
};
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
    hold: Option<Hold>,
) -> Settled<'a> {
    let spec = plugin.spec();
    let (usage, price) = if spec.billed() {
        (usage, spec.prices.of(model).copied())
    } else {
        (Usage { input_tokens: Some(0), output_tokens: Some(0) }, Some(Price::default()))
    };
    let cost = price.and_then(|p| p.cost(usage));
    let trace_id = crate::telemetry::Span::current().context().map(|c| c.trace_id().to_string());
    Settled {
        plugin: plugin.id(),
        kind: plugin.kind(),
        model,
        client,
        scope,
        usage,
        cost,
        failure,
        trace_id,
        hold,
    }
}

/// The output tokens a call is taken to use at most when nothing bounds it (no `max_tokens`).
pub const UNBOUNDED_OUTPUT_TOKENS: u64 = 4096;

/// The most a call of `spec`'s `model` with `input_bytes` of input and `outputs` answers of at most
/// `max_tokens` each may use: a token is at least a byte, and the plugin's own settings (a system
/// prompt, a template) go with every request.
fn estimate(
    spec: &PluginSpec,
    model: Option<&str>,
    input_bytes: usize,
    outputs: u32,
    max_tokens: Option<u32>,
) -> (Option<i64>, u64) {
    let settings: usize = spec.settings.values().map(String::len).sum();
    let input = (input_bytes + settings + 256) as u64;
    let per_answer = max_tokens
        .map(u64::from)
        .or_else(|| spec.settings.get("max_tokens").and_then(|v| v.trim().parse().ok()))
        .unwrap_or(UNBOUNDED_OUTPUT_TOKENS);
    let output = per_answer.saturating_mul(u64::from(outputs.max(1)));
    let clamp = |n: u64| u32::try_from(n).unwrap_or(u32::MAX);
    let usage = Usage { input_tokens: Some(clamp(input)), output_tokens: Some(clamp(output)) };
    (spec.prices.of(model).and_then(|p| p.cost(usage)), input + output)
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
            observer.plugin_loaded(id, plugin.kind(), plugin.default_model());
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
        hold: Option<Hold>,
    ) {
        if let Some(meter) = &self.meter {
            let failure = result.as_ref().err().map(|e| e.failure.label());
            meter.settle(settled(plugin, client, model, usage, failure, CallScope::current(), hold)).await;
        }
    }

    /// Holds the current caller to its key's and `client`'s limits before `plugin` is called with
    /// `input_bytes` of input for `outputs` answers of at most `max_tokens` each: nothing is held for
    /// a plugin that reaches no upstream. A refusal is counted as the call's outcome.
    pub(super) async fn admit(
        &self,
        plugin: &Plugin,
        client: &str,
        model: Option<&str>,
        input_bytes: usize,
        outputs: u32,
        max_tokens: Option<u32>,
    ) -> Result<Option<Hold>, CallError> {
        let Some(meter) = &self.meter else { return Ok(None) };
        let scope = CallScope::current();
        let spec = plugin.spec();
        if !spec.billed() {
            return Ok(None);
        }
        let (cost, tokens) = estimate(spec, model, input_bytes, outputs, max_tokens);
        let admission = Admission { plugin: plugin.id(), client, scope: &scope, cost, tokens };
        meter.admit(admission).await.map_err(|message| {
            let e = CallError::new(plugin.id(), CallFailure::OverBudget(message));
            self.observe(plugin, Instant::now(), &Err::<(), _>(e.clone()));
            e
        })
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
