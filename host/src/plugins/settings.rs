//! The `[runtime]` section: the plugin engine's compile cache and instance pool.

use crate::config::{FromValue, Kind, Section, Setting, Value};
use std::path::PathBuf;

/// Engine-wide settings.
#[derive(Clone, Debug)]
pub struct RuntimeConfig {
    /// Where compiled components are cached; `None` disables the cache.
    pub cache_dir: Option<PathBuf>,
    /// The most plugin instances alive at once, across all plugins; sizes the instance pool.
    pub max_instances: u32,
    /// The most instances one client's calls may hold at once; a quarter of the pool when unset.
    pub max_instances_per_client: Option<u32>,
    /// How long a call waits for an instance slot before it fails (503 `plugin_busy`, or 429
    /// `too_many_concurrent_calls` when the client's own share is what is full).
    pub queue_timeout_ms: u64,
    /// The linear memory all live instances may hold together, in MiB.
    pub memory_budget_mb: u64,
    /// The most streamed chat replies open at once, across all chat models.
    pub max_streams: u32,
    /// The most streamed replies one client may hold open at once; a quarter of `max_streams` when
    /// unset.
    pub max_streams_per_client: Option<u32>,
    /// Whether an instance that answered a call normally is kept for the next call of the same
    /// plugin by the same client (never another client's), instead of a fresh instance per call.
    pub reuse_instances: bool,
    /// Which profiler the compiled plugins are described to: `none`, `perfmap` (`perf` reads
    /// `/tmp/perf-PID.map` for the plugins' function names) or `jitdump` (`perf inject --jit`).
    pub profiler: String,
    /// Not a setting of `[runtime]`: the `[registry]` section, where `oci://` components come from.
    pub registry: std::sync::Arc<crate::oci::RegistryConfig>,
}

impl Default for RuntimeConfig {
    fn default() -> Self {
        RuntimeConfig {
            cache_dir: Some(super::compile_cache::default_dir()),
            max_instances: 128,
            max_instances_per_client: None,
            queue_timeout_ms: 2000,
            memory_budget_mb: 640,
            max_streams: 4096,
            max_streams_per_client: None,
            reuse_instances: true,
            profiler: "none".into(),
            registry: Default::default(),
        }
    }
}

impl RuntimeConfig {
    /// A client's share of the pool.
    pub fn per_client(&self) -> u32 {
        self.max_instances_per_client.unwrap_or(self.max_instances / 4).clamp(1, self.max_instances.max(1))
    }

    /// The most instances kept between calls, across all plugins: none when instances are not
    /// reused. The pool has this many slots beyond `max_instances`, so that kept instances never
    /// take a slot from a call.
    pub fn kept_instances(&self) -> u32 {
        if self.reuse_instances { self.max_instances.clamp(1, 32) } else { 0 }
    }

    /// A client's share of the open streams.
    pub fn streams_per_client(&self) -> u32 {
        self.max_streams_per_client.unwrap_or(self.max_streams / 4).clamp(1, self.max_streams.max(1))
    }
}

impl Section for RuntimeConfig {
    const NAME: &'static str = "runtime";
    const ABOUT: &'static str = "The plugin runtime";

    fn settings() -> &'static [Setting<Self>] {
        static SETTINGS: &[Setting<RuntimeConfig>] = &[
            Setting {
                key: "cache_dir",
                env: Some("PARLANCE_CACHE_DIR"),
                kind: Kind::Path,
                doc: "Where compiled components are cached (empty in the file disables the cache)",
                // The default depends on the machine ($XDG_CACHE_HOME or $HOME); the documentation
                // names the rule rather than this machine's path.
                get: |_| {
                    Value::Text("$XDG_CACHE_HOME/parlance/components or ~/.cache/parlance/components".into())
                },
                set: |c, value| {
                    c.cache_dir = Option::<PathBuf>::from_value(value)?;
                    Ok(())
                },
            },
            crate::config::setting!(
                "max_instances",
                Kind::Int { min: 1, max: 10_000 },
                |c| c.max_instances,
                "Plugin instances alive at once, across all plugins (each plugin may hold half, see [[plugin]] limits.max_instances)"
            ),
            crate::config::setting!(
                "max_instances_per_client",
                Kind::Int { min: 1, max: 10_000 },
                |c| c.max_instances_per_client,
                "Instances one client's calls may hold at once (unset: a quarter of max_instances)"
            ),
            crate::config::setting!(
                "queue_timeout_ms",
                Kind::Int { min: 1, max: 600_000 },
                |c| c.queue_timeout_ms,
                "How long a call waits for an instance slot before it fails with 503 plugin_busy (429 when the client's share is full)"
            ),
            crate::config::setting!(
                "memory_budget_mb",
                Kind::Int { min: 16, max: 1 << 20 },
                |c| c.memory_budget_mb,
                "Linear memory all live plugin instances may hold together; a call that would pass it fails with 503 plugin_memory_budget"
            ),
            crate::config::setting!(
                "max_streams",
                Kind::Int { min: 1, max: 1_000_000 },
                |c| c.max_streams,
                "Streamed chat replies open at once, across all chat models (one chat model may hold half); one more is refused with 503 streams_full"
            ),
            crate::config::setting!(
                "max_streams_per_client",
                Kind::Int { min: 1, max: 1_000_000 },
                |c| c.max_streams_per_client,
                "Streamed replies one client may hold open at once (unset: a quarter of max_streams); one more is refused with 429 too_many_concurrent_streams"
            ),
            crate::config::setting!(
                "reuse_instances",
                Kind::Bool,
                |c| c.reuse_instances,
                env = "PARLANCE_REUSE_INSTANCES",
                "Keep an instance that answered a call normally for the next call of the same plugin by the same client, never another client's (false: a fresh instance for every call)"
            ),
            crate::config::setting!(
                "profiler",
                Kind::Choice(&["none", "perfmap", "jitdump"]),
                |c| c.profiler,
                env = "PARLANCE_PROFILER",
                "Describe the compiled plugins to a profiler: perfmap (perf record then reads their function names from /tmp/perf-PID.map) or jitdump (perf inject --jit); none costs nothing"
            ),
        ];
        SETTINGS
    }
}
