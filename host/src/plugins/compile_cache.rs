//! The on-disk cache of compiled components, keyed by the component's content hash and the engine's
//! compatibility hash, so that a second start (or a restart after an upgrade that keeps the engine
//! settings) loads machine code instead of compiling it again.

use sha2::{Digest, Sha256};
use std::borrow::Cow;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use wasmtime::Engine;
use wasmtime::component::Component;

/// How a component was obtained, for start-up logs and benchmarks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CompileSource {
    /// Loaded from the cache.
    Cache,
    /// Compiled now (and stored, if the cache directory is writable).
    Compiled,
}

/// The hex SHA-256 of a component's bytes: its identity in cache keys, logs and the response cache.
pub fn digest(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

pub struct CompileCache {
    dir: Option<PathBuf>,
    engine_key: String,
}

impl CompileCache {
    /// `dir = None` disables the cache (every start compiles).
    pub fn new(engine: &Engine, dir: Option<PathBuf>) -> Self {
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        engine.precompile_compatibility_hash().hash(&mut hasher);
        CompileCache { dir, engine_key: format!("{:016x}", hasher.finish()) }
    }

    /// The component from the cache, or compiled (and stored); `on_compile` is called just before a
    /// compilation, so that the caller can say that one is under way.
    pub fn load<'a>(
        &self,
        engine: &Engine,
        bytes: impl FnOnce() -> Cow<'a, [u8]>,
        digest: &str,
        on_compile: impl FnOnce(),
    ) -> wasmtime::Result<(Component, CompileSource)> {
        let Some(dir) = &self.dir else {
            on_compile();
            return Ok((Component::new(engine, bytes())?, CompileSource::Compiled));
        };
        let path = dir.join(format!("{digest}-{}.cwasm", self.engine_key));
        if path.exists() {
            match deserialize(engine, &path) {
                Ok(component) => return Ok((component, CompileSource::Cache)),
                Err(e) => {
                    tracing::warn!(path = %path.display(), error = %e, "discarding an unusable compiled component");
                    let _ = std::fs::remove_file(&path);
                }
            }
        }
        on_compile();
        let component = Component::new(engine, bytes())?;
        if let Err(e) = store(dir, &path, &component) {
            tracing::warn!(dir = %dir.display(), error = %e, "cannot write the compile cache; the next start compiles again");
            return Ok((component, CompileSource::Compiled));
        }
        // Run from the file just written rather than from the compiler's buffers: its machine code is
        // then file-backed (shared with other processes, and reclaimable), so a first start settles at
        // the same resident memory as every later one.
        match deserialize(engine, &path) {
            Ok(mapped) => Ok((mapped, CompileSource::Compiled)),
            Err(_) => Ok((component, CompileSource::Compiled)),
        }
    }
}

#[expect(
    unsafe_code,
    reason = "wasmtime trusts the machine code in a serialized component; we only read files this cache \
              wrote itself, named by the SHA-256 of the source component and the engine's compatibility hash"
)]
fn deserialize(engine: &Engine, path: &Path) -> wasmtime::Result<Component> {
    // SAFETY: see the reason above; the file was produced by `Component::serialize` for an engine
    // with the same compatibility hash, and is replaced atomically, never written in place.
    unsafe { Component::deserialize_file(engine, path) }
}

fn store(dir: &Path, path: &Path, component: &Component) -> wasmtime::Result<()> {
    std::fs::create_dir_all(dir)?;
    let bytes = component.serialize()?;
    let tmp = tempfile_in(dir)?;
    std::fs::write(&tmp, bytes)?;
    // A rename is atomic, so a concurrent start never maps a half-written file.
    std::fs::rename(&tmp, path)?;
    Ok(())
}

fn tempfile_in(dir: &Path) -> std::io::Result<PathBuf> {
    let nanos =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default().as_nanos();
    Ok(dir.join(format!(".tmp-{}-{nanos}", std::process::id())))
}

/// The default cache directory: `$XDG_CACHE_HOME/parlance/components`, else
/// `~/.cache/parlance/components`, else a directory under the system temp dir.
pub fn default_dir() -> PathBuf {
    crate::config::cache_home().join("components")
}
