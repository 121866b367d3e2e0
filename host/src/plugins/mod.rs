//! The plugin runtime: loads WebAssembly components, confines them, and calls each one in a fresh
//! instance per call, with a time limit, a memory cap and an outbound allow-list.
//!
//! One [`wasmtime::Engine`] with the pooling allocator serves every plugin. Each plugin is compiled once
//! (or loaded from the on-disk compile cache), linked once into an `InstancePre`, and asked for its
//! `info()` once at start. A call then costs one instantiation from the pool, which is what keeps
//! clients and calls from sharing any state.

pub mod api;
pub mod bindings;
pub mod bundled;
mod call;
pub mod capacity;
pub mod check;
pub mod compile_cache;
pub mod defaults;
mod engine;
mod load;
mod log;
pub mod outbound;
pub mod sandbox;
pub mod settings;
pub mod spec;
mod stream;
pub mod tables;
mod validate;

pub use call::{HOST_CLIENT, MAX_OUTPUT_BYTES};
pub use engine::Runtime;
pub(crate) use log::log_from_plugin;
pub use settings::RuntimeConfig;
pub use stream::{ReplyStream, StreamTicket};

use crate::embeddings::EmbeddingBackend;
use crate::upstream::{TlsConfig, Upstream, with_causes};
use api::{CallError, PluginInfo, PluginKind};
use bindings::{Bound, WitVersion};
use compile_cache::CompileSource;
use sandbox::PluginContext;
use spec::PluginSpec;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A loaded plugin.
pub struct Plugin {
    ctx: Arc<PluginContext>,
    bound: Bound,
    /// Its share of the instance pool, and of the memory budget.
    slots: Arc<tokio::sync::Semaphore>,
    memory: Arc<capacity::MemoryBudget>,
    /// SHA-256 of the component bytes: part of every response-cache key, so a changed plugin never
    /// serves an answer its predecessor gave.
    pub digest: String,
    pub version: WitVersion,
    pub info: PluginInfo,
    pub compile_source: CompileSource,
    pub load_time: Duration,
}

impl Plugin {
    /// Whether the component streams its replies (the optional `chat-stream`, 0.1.3).
    pub fn has_stream(&self) -> bool {
        self.bound.has_stream()
    }

    /// Whether the provider writes several candidates in one call (the optional `candidates`, 0.1.3).
    pub fn has_candidates(&self) -> bool {
        self.bound.has_candidates()
    }

    /// Whether the component exports the optional `probe` (0.1.1).
    pub fn has_probe(&self) -> bool {
        self.bound.has_probe()
    }

    pub fn id(&self) -> &str {
        &self.ctx.id
    }
    pub fn spec(&self) -> &PluginSpec {
        &self.ctx.spec
    }
    pub fn kind(&self) -> PluginKind {
        self.ctx.spec.kind
    }

    /// Why the plugin cannot serve, when it cannot: a secret it declares (an API key) resolved to no
    /// value. The one place availability is decided; everything that lists or calls plugins asks here.
    pub fn unavailable_reason(&self) -> Option<String> {
        let spec = self.spec();
        let missing = spec.missing_secrets();
        if missing.is_empty() {
            return None;
        }
        let sources: Vec<String> =
            missing.iter().map(|k| format!("`{k}` (from {})", spec.secrets[*k])).collect();
        Some(format!("the secret {} is not set", sources.join(", ")))
    }
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

/// Why the plugins could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("plugin `{plugin}`{}: cannot read the component {}", at(.declared_at), .path.display())]
    Read { plugin: String, declared_at: Option<String>, path: PathBuf, source: std::io::Error },
    #[error("plugin `{plugin}`: there is no bundled component `builtin:{name}` (bundled: {known})")]
    UnknownBuiltin { plugin: String, name: String, known: String },
    #[error("plugin `{plugin}`: {component} is not a valid component")]
    Compile { plugin: String, component: String, source: wasmtime::Error },
    #[error("plugin `{plugin}`: {message}")]
    Contract { plugin: String, message: String },
    #[error("plugin `{plugin}`: its info() call failed")]
    Info { plugin: String, source: CallError },
    #[error("the plugin runtime could not start: {0}")]
    Engine(String),
    #[error("{}", .0.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n"))]
    Several(Vec<LoadError>),
}

/// ` (declared at parlance.toml:12)`, when the plugin came from a `[[plugin]]` table.
fn at(declared_at: &Option<String>) -> String {
    declared_at.as_ref().map(|at| format!(" (declared at {at})")).unwrap_or_default()
}

impl LoadError {
    /// Whether the operator's configuration is at fault (a missing or invalid component, a component
    /// of the wrong kind), rather than the runtime.
    pub fn is_configuration(&self) -> bool {
        match self {
            LoadError::Engine(_) => false,
            LoadError::Several(errors) => errors.iter().all(LoadError::is_configuration),
            _ => true,
        }
    }
}

/// Every loaded plugin, by id, on one shared runtime.
pub struct PluginHost {
    runtime: Arc<Runtime>,
    plugins: BTreeMap<String, Arc<Plugin>>,
    observer: Option<Arc<dyn api::CallObserver>>,
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
            tasks.spawn(async move { load::load(&runtime, spec, embeddings, upstream).await });
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
            0 => Ok(PluginHost { runtime, plugins, observer: None }),
            1 => Err(errors.remove(0)),
            _ => Err(LoadError::Several(errors)),
        }
    }

    /// Tells `observer` (the metrics) of every call's outcome and latency, each plugin's from zero.
    pub fn observed_by(mut self, observer: Arc<dyn api::CallObserver>) -> Self {
        for (id, plugin) in &self.plugins {
            observer.plugin_loaded(id, plugin.kind());
        }
        self.observer = Some(observer);
        self
    }

    fn observe<R>(&self, plugin: &Plugin, started: Instant, result: &Result<R, CallError>) {
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
