//! The engine every plugin runs on: one wasmtime `Engine` with the pooling allocator and epoch
//! interruption, the linker with the host's imports, the compile cache, the instance slots and the
//! outbound HTTP client.

use super::bindings;
use super::capacity::Capacity;
use super::compile_cache::{self, CompileCache, CompileSource};
use super::load_error::LoadError;
use super::reuse::KeptRoom;
use super::sandbox::PluginState;
use super::settings::RuntimeConfig;
use std::time::Duration;
use wasmtime::component::{Component, Linker};
use wasmtime::{Config, Engine, InstanceAllocationStrategy, PoolingAllocationConfig, ProfilingStrategy};

/// How often the epoch advances: the granularity of CPU deadlines and of the yields that keep a busy
/// plugin from monopolising a runtime thread.
pub(super) const EPOCH_TICK: Duration = Duration::from_millis(10);

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
    pub(super) engine: Engine,
    pub(super) linker: Linker<PluginState>,
    cache: CompileCache,
    /// The pool's slots and how they are shared, and the memory budget: a call waits here for a free
    /// slot instead of failing to instantiate when more calls are in flight than the pool holds.
    pub(super) capacity: Capacity,
    /// The room for instances kept between calls; `None` when instances are not reused.
    pub(super) kept: Option<std::sync::Arc<KeptRoom>>,
    /// Where `oci://` components are pulled from and cached.
    pub(super) registry: std::sync::Arc<crate::oci::RegistryConfig>,
}

impl Runtime {
    pub fn new(settings: &RuntimeConfig, max_memory_bytes: u64) -> Result<Runtime, LoadError> {
        let mut pool = PoolingAllocationConfig::new();
        // Kept instances (`reuse`) hold slots of their own beyond the calls' `max_instances`.
        let n = settings.max_instances.max(1) + settings.kept_instances();
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
            .profiler(match settings.profiler.as_str() {
                "perfmap" => ProfilingStrategy::PerfMap,
                "jitdump" => ProfilingStrategy::JitDump,
                _ => ProfilingStrategy::None,
            })
            .allocation_strategy(InstanceAllocationStrategy::Pooling(pool));
        let engine = Engine::new(&config).map_err(|e| LoadError::Engine(e.to_string()))?;
        start_epoch_ticker(&engine);
        let mut linker = Linker::new(&engine);
        bindings::add_to_linker(&mut linker).map_err(|e| LoadError::Engine(e.to_string()))?;
        let cache = CompileCache::new(&engine, settings.cache_dir.clone());
        let capacity = Capacity::new(settings);
        let kept = settings.reuse_instances.then(|| {
            std::sync::Arc::new(KeptRoom::new(settings.kept_instances(), settings.memory_budget_mb << 20))
        });
        Ok(Runtime { engine, linker, cache, capacity, kept, registry: settings.registry.clone() })
    }

    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    pub fn linker(&self) -> &Linker<PluginState> {
        &self.linker
    }

    /// Compiles (or loads from the cache) a component. `digest` is the bytes' SHA-256 when it is
    /// already known (a bundled component), which spares reading them, and inflating them, on a cache
    /// hit: `bytes` is then called only to compile. `on_compile` is called just before an actual
    /// compilation.
    pub fn compile<'a>(
        &self,
        bytes: impl FnOnce() -> std::borrow::Cow<'a, [u8]>,
        digest: Option<&str>,
        on_compile: impl FnOnce(),
    ) -> wasmtime::Result<(Component, String, CompileSource)> {
        let (component, digest, source) = match digest {
            Some(digest) => {
                let (component, source) = self.cache.load(&self.engine, bytes, digest, on_compile)?;
                (component, digest.to_owned(), source)
            }
            None => {
                let bytes = bytes();
                let digest = compile_cache::digest(&bytes);
                let (component, source) = self.cache.load(&self.engine, || bytes, &digest, on_compile)?;
                (component, digest, source)
            }
        };
        Ok((component, digest, source))
    }
}
