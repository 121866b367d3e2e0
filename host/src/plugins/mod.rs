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
pub mod check;
pub mod compile_cache;
pub mod outbound;
pub mod sandbox;
pub mod spec;

use crate::embeddings::EmbeddingBackend;
use crate::upstream::{TrustSettings, Upstream, with_causes};
use api::{
    CallError, CallFailure, ChatRequest, Pair, Paraphrased, PluginError, PluginInfo, PluginKind, Score,
};
use bindings::{Bound, WitVersion};
use compile_cache::{CompileCache, CompileSource};
use sandbox::{PluginContext, PluginState};
use spec::{ComponentSource, PluginSpec};
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use wasmtime::component::{Component, Linker};
use wasmtime::{
    Config, Engine, InstanceAllocationStrategy, PoolingAllocationConfig, Store, Trap, UpdateDeadline,
};

/// How often the epoch advances: the granularity of CPU deadlines and of the yields that keep a busy
/// plugin from monopolising a runtime thread.
const EPOCH_TICK: Duration = Duration::from_millis(10);

/// The largest paraphrase or chat reply the host accepts from a plugin.
pub const MAX_OUTPUT_BYTES: usize = 1024 * 1024;

/// Engine-wide settings, from the `[runtime]` table of the configuration.
#[derive(Clone, Debug)]
pub struct RuntimeSettings {
    /// Where compiled components are cached; `None` disables the cache.
    pub cache_dir: Option<PathBuf>,
    /// The most plugin instances alive at once, across all plugins; sizes the instance pool.
    pub max_instances: u32,
}

impl Default for RuntimeSettings {
    fn default() -> Self {
        RuntimeSettings { cache_dir: Some(compile_cache::default_dir()), max_instances: 128 }
    }
}

/// A loaded plugin.
pub struct Plugin {
    ctx: Arc<PluginContext>,
    bound: Bound,
    /// SHA-256 of the component bytes: part of every response-cache key, so a changed plugin never
    /// serves an answer its predecessor gave.
    pub digest: String,
    pub version: WitVersion,
    pub info: PluginInfo,
    pub compile_source: CompileSource,
    pub load_time: Duration,
}

impl Plugin {
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
}

/// Why the plugins could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("plugin `{plugin}`: cannot read the component {path}: {source}")]
    Read { plugin: String, path: PathBuf, source: std::io::Error },
    #[error("plugin `{plugin}`: there is no bundled component `builtin:{name}` (bundled: {known})")]
    UnknownBuiltin { plugin: String, name: String, known: String },
    #[error("plugin `{plugin}`: {component} is not a valid component: {message}")]
    Compile { plugin: String, component: String, message: String },
    #[error("plugin `{plugin}`: {message}")]
    Contract { plugin: String, message: String },
    #[error("plugin `{plugin}`: its info() call failed: {source}")]
    Info { plugin: String, source: CallError },
    #[error("the plugin runtime could not start: {0}")]
    Engine(String),
    #[error("{}", .0.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n"))]
    Several(Vec<LoadError>),
}

/// Bytes of each memory and table slot kept resident between instances.
const KEEP_RESIDENT: usize = 1 << 20;

/// Advances the engine's epoch until the engine is dropped.
fn start_epoch_ticker(engine: &Engine) {
    let weak = engine.weak();
    std::thread::Builder::new()
        .name("parlance-epoch".into())
        .spawn(move || {
            while let Some(engine) = weak.upgrade() {
                engine.increment_epoch();
                drop(engine);
                std::thread::sleep(EPOCH_TICK);
            }
        })
        .expect("spawn the epoch thread");
}

/// The engine and linker shared by every plugin.
pub struct Runtime {
    engine: Engine,
    linker: Linker<PluginState>,
    cache: CompileCache,
    /// One permit per instance slot of the pool: a call waits here for a free slot instead of failing
    /// to instantiate when more calls are in flight than the pool holds.
    slots: Arc<Semaphore>,
}

impl Runtime {
    pub fn new(settings: &RuntimeSettings, max_memory_bytes: u64) -> Result<Runtime, LoadError> {
        let mut pool = PoolingAllocationConfig::new();
        let n = settings.max_instances.max(1);
        // Sized for the largest components we ship (componentize-py links a dozen core modules with
        // several memories and large tables); slots are only reserved address space until used.
        pool.total_component_instances(n)
            .total_stacks(n)
            .total_core_instances(n.saturating_mul(16))
            .total_memories(n.saturating_mul(2))
            .total_tables(n.saturating_mul(8))
            .max_core_instances_per_component(64)
            .max_memories_per_component(8)
            .max_tables_per_component(32)
            .table_elements(200_000)
            .max_memory_size(usize::try_from(max_memory_bytes).unwrap_or(usize::MAX))
            .max_unused_warm_slots(n.min(32))
            // A slot's pages stay mapped and are reset with memset (only the touched ones, found with
            // PAGEMAP_SCAN where the kernel has it) rather than madvise: no page faults when the slot is
            // reused, and no TLB shootdown across the runtime's threads per call.
            .linear_memory_keep_resident(KEEP_RESIDENT)
            .table_keep_resident(KEEP_RESIDENT)
            .pagemap_scan(wasmtime::Enabled::Auto);
        let mut config = Config::new();
        config
            .wasm_component_model(true)
            .epoch_interruption(true)
            .memory_init_cow(true)
            .allocation_strategy(InstanceAllocationStrategy::Pooling(pool));
        let engine = Engine::new(&config).map_err(|e| LoadError::Engine(e.to_string()))?;
        start_epoch_ticker(&engine);
        let mut linker = Linker::new(&engine);
        bindings::add_to_linker(&mut linker).map_err(|e| LoadError::Engine(e.to_string()))?;
        let cache = CompileCache::new(&engine, settings.cache_dir.clone());
        let slots = Arc::new(Semaphore::new(n as usize));
        Ok(Runtime { engine, linker, cache, slots })
    }

    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    pub fn linker(&self) -> &Linker<PluginState> {
        &self.linker
    }

    /// Compiles (or loads from the cache) a component. `digest` is the bytes' SHA-256 when it is
    /// already known (a bundled component), which spares reading them on a cache hit.
    pub fn compile(
        &self,
        bytes: &[u8],
        digest: Option<&str>,
    ) -> wasmtime::Result<(Component, String, CompileSource)> {
        let digest = digest.map_or_else(|| compile_cache::digest(bytes), str::to_owned);
        let (component, source) = self.cache.load(&self.engine, bytes, &digest)?;
        Ok((component, digest, source))
    }
}

/// Every loaded plugin, by id, on one shared runtime.
pub struct PluginHost {
    runtime: Arc<Runtime>,
    plugins: BTreeMap<String, Arc<Plugin>>,
    metrics: Option<Arc<crate::metrics::Metrics>>,
}

impl PluginHost {
    /// Loads every plugin, compiling in parallel, and reports every failure at once. Plugins' outbound
    /// requests go through a client of their own that trusts the webpki roots only.
    pub async fn start(
        specs: Vec<PluginSpec>,
        settings: &RuntimeSettings,
        embeddings: Option<Arc<dyn EmbeddingBackend>>,
    ) -> Result<PluginHost, LoadError> {
        let upstream = Upstream::new(&TrustSettings::default())
            .map_err(|e| LoadError::Engine(format!("the HTTP client: {}", with_causes(&e))))?;
        PluginHost::start_with_upstream(specs, settings, embeddings, upstream).await
    }

    /// [`PluginHost::start`] with plugins' outbound requests going through `upstream`, the process's
    /// shared client.
    pub async fn start_with_upstream(
        specs: Vec<PluginSpec>,
        settings: &RuntimeSettings,
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
            0 => Ok(PluginHost { runtime, plugins, metrics: None }),
            1 => Err(errors.remove(0)),
            _ => Err(LoadError::Several(errors)),
        }
    }

    /// Records every call's outcome and latency in these metrics.
    pub fn observed_by(mut self, metrics: Arc<crate::metrics::Metrics>) -> Self {
        self.metrics = Some(metrics);
        self
    }

    fn observe<R>(&self, plugin: &Plugin, started: Instant, result: &Result<R, CallError>) {
        if let Some(metrics) = &self.metrics {
            metrics.observe_plugin_call(plugin.id(), result.as_ref().map(|_| ()), started.elapsed());
        }
    }

    pub fn get(&self, id: &str) -> Option<&Arc<Plugin>> {
        self.plugins.get(id)
    }

    pub fn plugins(&self) -> impl Iterator<Item = &Arc<Plugin>> {
        self.plugins.values()
    }

    pub fn of_kind(&self, kind: PluginKind) -> impl Iterator<Item = &Arc<Plugin>> {
        self.plugins.values().filter(move |p| p.kind() == kind)
    }

    pub fn runtime(&self) -> &Arc<Runtime> {
        &self.runtime
    }

    /// Asks a provider for a paraphrase of `text` with `model`.
    pub async fn paraphrase(
        &self,
        plugin: &Plugin,
        text: &str,
        model: &str,
    ) -> Result<Paraphrased, CallError> {
        let started = Instant::now();
        let result = self.paraphrase_once(plugin, text, model).await;
        self.observe(plugin, started, &result);
        result
    }

    async fn paraphrase_once(
        &self,
        plugin: &Plugin,
        text: &str,
        model: &str,
    ) -> Result<Paraphrased, CallError> {
        let mut store = new_store(&self.runtime, plugin).await?;
        let outcome = run(plugin, plugin.bound.paraphrase(&mut store, text, model)).await;
        let mut out = conclude(plugin, &store, outcome)?.map_err(|e| reported(plugin, &store, e))?;
        if out.text.trim().is_empty() {
            return Err(invalid(plugin, "the paraphrase is empty".into()));
        }
        if out.text.len() > MAX_OUTPUT_BYTES {
            return Err(invalid(plugin, format!("the paraphrase is larger than {MAX_OUTPUT_BYTES} bytes")));
        }
        if out.model.trim().is_empty() {
            out.model = model.to_owned();
        }
        Ok(out)
    }

    /// Asks a chat model for the character's reply.
    pub async fn reply(&self, plugin: &Plugin, request: &ChatRequest) -> Result<String, CallError> {
        let started = Instant::now();
        let result = self.reply_once(plugin, request).await;
        self.observe(plugin, started, &result);
        result
    }

    async fn reply_once(&self, plugin: &Plugin, request: &ChatRequest) -> Result<String, CallError> {
        let mut store = new_store(&self.runtime, plugin).await?;
        let outcome = run(plugin, plugin.bound.reply(&mut store, request)).await;
        let reply = conclude(plugin, &store, outcome)?.map_err(|e| reported(plugin, &store, e))?;
        if reply.trim().is_empty() {
            return Err(invalid(plugin, "the reply is empty".into()));
        }
        if reply.len() > MAX_OUTPUT_BYTES {
            return Err(invalid(plugin, format!("the reply is larger than {MAX_OUTPUT_BYTES} bytes")));
        }
        Ok(reply)
    }

    /// Asks a provider or chat model whether its upstream is reachable, through its optional `probe`
    /// export (0.1.1). `None` when the component has no probe (every 0.1.0 component).
    pub async fn probe(&self, plugin: &Plugin) -> Option<Result<String, CallError>> {
        if !plugin.bound.has_probe() {
            return None;
        }
        let mut store = match new_store(&self.runtime, plugin).await {
            Ok(store) => store,
            Err(e) => return Some(Err(e)),
        };
        let call = async {
            match plugin.bound.probe(&mut store).await {
                Some(result) => result,
                None => Err(wasmtime::Error::msg("the component exports no probe")),
            }
        };
        let outcome = run(plugin, call).await;
        Some(conclude(plugin, &store, outcome).and_then(|r| r.map_err(|e| reported(plugin, &store, e))))
    }

    /// Scores a batch of pairs with one metric, in one instance. The outer error fails the whole batch
    /// (a crash, a timeout, garbage); the inner ones are pairs the plugin itself could not score.
    pub async fn evaluate(
        &self,
        plugin: &Plugin,
        pairs: &[Pair],
    ) -> Result<Vec<Result<Vec<Score>, PluginError>>, CallError> {
        let started = Instant::now();
        let result = self.evaluate_once(plugin, pairs).await;
        self.observe(plugin, started, &result);
        result
    }

    async fn evaluate_once(
        &self,
        plugin: &Plugin,
        pairs: &[Pair],
    ) -> Result<Vec<Result<Vec<Score>, PluginError>>, CallError> {
        let mut store = new_store(&self.runtime, plugin).await?;
        let outcome = run(plugin, plugin.bound.evaluate(&mut store, pairs)).await;
        let results = conclude(plugin, &store, outcome)?;
        validate_scores(plugin, pairs.len(), &results).map_err(|detail| invalid(plugin, detail))?;
        Ok(results)
    }
}

async fn load(
    runtime: &Arc<Runtime>,
    spec: PluginSpec,
    embeddings: Option<Arc<dyn EmbeddingBackend>>,
    upstream: Upstream,
) -> Result<Plugin, LoadError> {
    let started = Instant::now();
    let plugin_id = spec.id.clone();
    // A bundled component's digest is known from the build, so with a warm compile cache its embedded
    // bytes are never read.
    let (bytes, digest): (Cow<'static, [u8]>, Option<&'static str>) = match &spec.component {
        ComponentSource::Builtin(name) => {
            let bundled = bundled::get(name).ok_or_else(|| LoadError::UnknownBuiltin {
                plugin: plugin_id.clone(),
                name: name.clone(),
                known: bundled::names().join(", "),
            })?;
            (Cow::Borrowed(bundled.bytes), Some(bundled.digest))
        }
        ComponentSource::File(path) => {
            let bytes = tokio::fs::read(path).await.map_err(|source| LoadError::Read {
                plugin: plugin_id.clone(),
                path: path.clone(),
                source,
            })?;
            (Cow::Owned(bytes), None)
        }
    };
    let compile_runtime = runtime.clone();
    let compiled = tokio::task::spawn_blocking(move || compile_runtime.compile(&bytes, digest))
        .await
        .map_err(|e| LoadError::Engine(format!("the compile task failed: {e}")))?;
    let (component, digest, compile_source) = compiled.map_err(|e| LoadError::Compile {
        plugin: plugin_id.clone(),
        component: spec.component.to_string(),
        message: format!("{e:#}"),
    })?;

    let worlds = bindings::exported_worlds(&component);
    let Some(&(_, version)) = worlds.iter().find(|(k, _)| *k == spec.kind) else {
        let found = if worlds.is_empty() {
            "it exports no parlance:plugin interface".to_owned()
        } else {
            let names: Vec<String> =
                worlds.iter().map(|(k, v)| format!("{}@{v} (a {k})", k.interface())).collect();
            format!("it exports {}", names.join(", "))
        };
        return Err(LoadError::Contract {
            plugin: plugin_id,
            message: format!(
                "it is configured as a {} but {found}; run `parlance plugins check` on the component for details",
                spec.kind
            ),
        });
    };
    let bound =
        Bound::bind(&runtime.linker, &component, spec.kind, version).map_err(|e| LoadError::Contract {
            plugin: plugin_id.clone(),
            message: format!("the component does not fit the {} world: {e:#}", spec.kind),
        })?;

    let ctx = Arc::new(PluginContext {
        id: spec.id.as_str().into(),
        allowed_hosts: spec.allowed_hosts.clone().into(),
        spec,
        embeddings,
        upstream,
    });
    let mut plugin = Plugin {
        ctx,
        bound,
        digest,
        version,
        info: PluginInfo::ChatModel { name: String::new() },
        compile_source,
        load_time: Duration::ZERO,
    };
    let mut store = new_store(runtime, &plugin)
        .await
        .map_err(|source| LoadError::Info { plugin: plugin_id.clone(), source })?;
    let outcome = run(&plugin, plugin.bound.info(&mut store)).await;
    let info = conclude(&plugin, &store, outcome)
        .map_err(|source| LoadError::Info { plugin: plugin_id.clone(), source })?;
    validate_info(&info).map_err(|message| LoadError::Contract { plugin: plugin_id.clone(), message })?;
    plugin.info = info;
    plugin.load_time = started.elapsed();
    tracing::debug!(
        plugin = %plugin_id,
        kind = %plugin.kind(),
        version = %plugin.version,
        source = ?plugin.compile_source,
        ms = plugin.load_time.as_secs_f64() * 1000.0,
        "loaded plugin"
    );
    Ok(plugin)
}

/// The store of one call and the pool slot its instance occupies. The fields drop in order, so the
/// instance is back in the pool before the permit lets the next call in.
struct CallStore {
    store: Store<PluginState>,
    _slot: OwnedSemaphorePermit,
}

impl std::ops::Deref for CallStore {
    type Target = Store<PluginState>;
    fn deref(&self) -> &Store<PluginState> {
        &self.store
    }
}

impl std::ops::DerefMut for CallStore {
    fn deref_mut(&mut self) -> &mut Store<PluginState> {
        &mut self.store
    }
}

/// Waits for a free instance slot, then makes the call's store. The deadline starts once the slot
/// is held, so time spent queueing behind other calls is not charged to this one.
async fn new_store(runtime: &Runtime, plugin: &Plugin) -> Result<CallStore, CallError> {
    let slot = runtime.slots.clone().acquire_owned().await.map_err(|_| {
        CallError::new(plugin.id(), CallFailure::NotStarted("the plugin runtime is shutting down".into()))
    })?;
    let state = PluginState::new(plugin.ctx.clone())
        .map_err(|e| CallError::new(plugin.id(), CallFailure::NotStarted(format!("{e:#}"))))?;
    let mut store = Store::new(&runtime.engine, state);
    store.limiter(|s| &mut s.memory);
    // The callback runs every tick while wasm executes: it yields to the async runtime, so a spinning
    // plugin cannot starve other tasks, and interrupts the plugin once its time is up.
    let deadline = Instant::now() + plugin.spec().limits.timeout;
    store.set_epoch_deadline(1);
    store.epoch_deadline_callback(move |_| {
        Ok(if Instant::now() >= deadline { UpdateDeadline::Interrupt } else { UpdateDeadline::Yield(1) })
    });
    Ok(CallStore { store, _slot: slot })
}

/// The outcome of running a call under the wall-clock limit, which also covers time spent blocked in
/// host calls (outbound HTTP), where epochs cannot interrupt.
type Outcome<R> = Result<wasmtime::Result<R>, tokio::time::error::Elapsed>;

async fn run<R>(plugin: &Plugin, call: impl Future<Output = wasmtime::Result<R>>) -> Outcome<R> {
    // A little grace, so that a plugin spinning in wasm is stopped by its epoch deadline (and reported
    // with its own stderr) before the wall clock gives up on it.
    tokio::time::timeout(plugin.spec().limits.timeout + EPOCH_TICK * 5, call).await
}

/// Turns a call's outcome into the host's error model, using what the store saw during the call.
fn conclude<R>(plugin: &Plugin, store: &Store<PluginState>, outcome: Outcome<R>) -> Result<R, CallError> {
    let state = store.data();
    let stderr = state.stderr.text();
    let failure = match outcome {
        Ok(Ok(value)) => {
            if !stderr.is_empty() {
                tracing::debug!(plugin = %plugin.id(), output = %stderr, "plugin output");
            }
            return Ok(value);
        }
        Err(_) => CallFailure::Deadline(plugin.spec().limits.timeout),
        Ok(Err(_)) if state.memory.exceeded => {
            CallFailure::MemoryLimit { limit_bytes: plugin.spec().limits.memory_bytes }
        }
        Ok(Err(e)) if e.downcast_ref::<Trap>() == Some(&Trap::Interrupt) => {
            CallFailure::Deadline(plugin.spec().limits.timeout)
        }
        Ok(Err(e)) => {
            // The trap itself, not the wasm backtrace wasmtime attaches, which means nothing to a client.
            let mut detail = match e.downcast_ref::<Trap>() {
                Some(trap) => format!("wasm trap: {trap}"),
                None => e.to_string(),
            };
            if let Some(panic) = panic_message(&stderr) {
                detail = format!("{detail}; it panicked: {panic}");
            }
            CallFailure::Trap(detail)
        }
    };
    let mut error = CallError::new(plugin.id(), failure);
    error.denied_requests = state.outbound.denied();
    tracing::warn!(plugin = %plugin.id(), output = %stderr, "{error}");
    Err(error)
}

/// An error the plugin reported, with the requests the sandbox refused it, which usually explain it.
fn reported(plugin: &Plugin, store: &Store<PluginState>, error: PluginError) -> CallError {
    let mut e = CallError::new(plugin.id(), CallFailure::Reported(error));
    e.denied_requests = store.data().outbound.denied();
    e
}

fn invalid(plugin: &Plugin, detail: String) -> CallError {
    tracing::warn!(plugin = %plugin.id(), "invalid plugin output: {detail}");
    CallError::new(plugin.id(), CallFailure::InvalidOutput(detail))
}

/// The message of a Rust panic in a plugin's captured stderr: the line after `panicked at …:`.
fn panic_message(stderr: &str) -> Option<String> {
    let mut lines = stderr.lines();
    lines.find(|l| l.contains("panicked at"))?;
    lines.next().map(|m| snippet(m.trim())).filter(|m| !m.is_empty())
}

fn snippet(text: &str) -> String {
    match text.char_indices().nth(300) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_owned(),
    }
}

/// Score names are what API clients see as JSON keys, so they are checked once at load.
fn validate_info(info: &PluginInfo) -> Result<(), String> {
    match info {
        PluginInfo::Provider { default_model, .. } if default_model.trim().is_empty() => {
            Err("its info() names no default model".into())
        }
        PluginInfo::Metric { scores, .. } => {
            if scores.is_empty() {
                return Err("its info() declares no scores".into());
            }
            let mut seen = std::collections::BTreeSet::new();
            for s in scores {
                let valid = !s.name.is_empty()
                    && s.name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                    && !s.name.starts_with(|c: char| c.is_ascii_digit());
                if !valid {
                    return Err(format!(
                        "its score name {:?} is not an identifier ([A-Za-z_][A-Za-z0-9_]*)",
                        s.name
                    ));
                }
                if !seen.insert(s.name.as_str()) {
                    return Err(format!("it declares the score {:?} twice", s.name));
                }
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// A metric's results must line up with its pairs and hold only the finite scores it declared.
fn validate_scores(
    plugin: &Plugin,
    pairs: usize,
    results: &[Result<Vec<Score>, PluginError>],
) -> Result<(), String> {
    if results.len() != pairs {
        return Err(format!("{} results for {pairs} pairs", results.len()));
    }
    let PluginInfo::Metric { scores: declared, .. } = &plugin.info else {
        return Err("not a metric".into());
    };
    for (i, scores) in results.iter().enumerate().filter_map(|(i, r)| r.as_ref().ok().map(|s| (i, s))) {
        let mut seen = std::collections::BTreeSet::new();
        for score in scores {
            if !declared.iter().any(|d| d.name == score.name) {
                return Err(format!("pair {i}: the score {:?} is not declared in its info()", score.name));
            }
            if !seen.insert(&score.name) {
                return Err(format!("pair {i}: the score {:?} appears twice", score.name));
            }
            if !score.value.is_finite() {
                return Err(format!("pair {i}: the score {:?} is {}", score.name, score.value));
            }
        }
    }
    Ok(())
}

/// Writes a plugin's log line into the host's `tracing` output, tagged with the plugin id. Messages are
/// truncated so that a plugin cannot flood the log with one call.
pub(crate) fn log_from_plugin(plugin: &str, level: tracing::Level, message: &str) {
    let message = snippet(message);
    match level {
        tracing::Level::ERROR => tracing::error!(target: "parlance::plugin", plugin, "{message}"),
        tracing::Level::WARN => tracing::warn!(target: "parlance::plugin", plugin, "{message}"),
        tracing::Level::INFO => tracing::info!(target: "parlance::plugin", plugin, "{message}"),
        tracing::Level::DEBUG => tracing::debug!(target: "parlance::plugin", plugin, "{message}"),
        tracing::Level::TRACE => tracing::trace!(target: "parlance::plugin", plugin, "{message}"),
    }
}

#[cfg(test)]
mod tests {
    use super::panic_message;

    #[test]
    fn finds_the_panic_message() {
        let stderr = "log line\nthread '<unnamed>' (1) panicked at src/lib.rs:22:23:\nboom: deliberate\nnote: run with RUST_BACKTRACE";
        assert_eq!(panic_message(stderr).as_deref(), Some("boom: deliberate"));
        assert_eq!(panic_message("no panic here"), None);
    }
}
