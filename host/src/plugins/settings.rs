//! The `[runtime]` section: the plugin engine's compile cache and instance pool.

use crate::config::{FromValue, Kind, Section, Setting, Value};
use std::path::PathBuf;

/// Engine-wide settings.
#[derive(Clone, Debug)]
pub struct RuntimeSettings {
    /// Where compiled components are cached; `None` disables the cache.
    pub cache_dir: Option<PathBuf>,
    /// The most plugin instances alive at once, across all plugins; sizes the instance pool.
    pub max_instances: u32,
}

impl Default for RuntimeSettings {
    fn default() -> Self {
        RuntimeSettings { cache_dir: Some(super::compile_cache::default_dir()), max_instances: 128 }
    }
}

impl Section for RuntimeSettings {
    const NAME: &'static str = "runtime";
    const ABOUT: &'static str = "The plugin runtime";

    fn settings() -> &'static [Setting<Self>] {
        static SETTINGS: &[Setting<RuntimeSettings>] = &[
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
            crate::setting!(
                "max_instances",
                Kind::Int { min: 1, max: 10_000 },
                |c| c.max_instances,
                "Plugin instances alive at once, across all plugins"
            ),
        ];
        SETTINGS
    }
}
