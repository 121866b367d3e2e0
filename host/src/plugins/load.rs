//! Loading a plugin: its component's bytes (bundled or a file), compiled or taken from the compile
//! cache, bound to the WIT version it exports, and asked for its `info()` once.

use super::api::PluginInfo;
use super::bindings::{self, Bound, WitVersion};
use super::bundled::{Bundled, get as bundled_component, names as bundled_names};
use super::check::not_a_component;
use super::compile_cache::CompileSource;
use super::engine::Runtime;
use super::instance::{HOST_CLIENT, conclude, new_store, run};
use super::load_error::LoadError;
use super::plugin::{Plugin, Sandboxed};
use super::reuse::KeptInstances;
use super::sandbox::PluginContext;
use super::spec::{ComponentSource, PluginSpec};
use super::validate::validate_info;
use crate::embeddings::EmbeddingBackend;
use crate::upstream::Upstream;
use std::borrow::Cow;
use std::sync::Arc;
use std::time::Instant;
use wasmtime::component::Component;

/// Components from this size on take seconds to compile (the Python and JavaScript ones, with their
/// interpreter inside: 12-18 MB, 6-8 s), so a start that compiles one says so rather than sit silent;
/// a Rust component (50-300 KB) compiles in milliseconds and is only logged at debug level.
const LOUD_COMPILE_BYTES: usize = 1 << 20;

fn announce_compile(plugin: &str, component: &str, size: usize) {
    let mb = size as f64 / (1024.0 * 1024.0);
    if size >= LOUD_COMPILE_BYTES {
        tracing::info!(
            "compiling plugin `{plugin}` ({component}, {mb:.1} MB); this happens once, later starts use the compile cache"
        );
    } else {
        tracing::debug!("compiling plugin `{plugin}` ({component}, {mb:.2} MB)");
    }
}

pub(super) async fn load(
    runtime: &Arc<Runtime>,
    spec: PluginSpec,
    embeddings: Option<Arc<dyn EmbeddingBackend>>,
    upstream: Upstream,
) -> Result<Plugin, LoadError> {
    let started = Instant::now();
    let plugin_id = spec.id.clone();
    let source = read(runtime, &spec, &upstream).await?;
    let (component, digest, compile_source) = compile(runtime, &spec, source).await?;
    let (bound, version) = bind(runtime, &spec, &component)?;
    let ctx = Arc::new(PluginContext {
        id: spec.id.as_str().into(),
        allowed_hosts: spec.allowed_hosts.clone().into(),
        spec,
        embeddings,
        upstream,
    });
    let sandboxed = Sandboxed {
        slots: runtime.capacity.plugin_share(ctx.spec.limits.max_instances),
        memory: runtime.capacity.plugin_memory(),
        kept: KeptInstances::new(runtime.kept.clone()),
        ctx,
        bound,
    };
    let info = info(runtime, &sandboxed).await?;
    let plugin = Plugin { sandboxed, digest, version, info, compile_source, load_time: started.elapsed() };
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

/// A component as the loader has it: bundled, whose digest the build computed, so that with a warm
/// compile cache its embedded bytes are never read (nor inflated); or read from a file or a registry.
enum Source {
    Bundled(Bundled),
    Read(Vec<u8>),
}

impl Source {
    fn size(&self) -> usize {
        match self {
            Source::Bundled(bundled) => bundled.size,
            Source::Read(bytes) => bytes.len(),
        }
    }

    fn digest(&self) -> Option<&'static str> {
        match self {
            Source::Bundled(bundled) => Some(bundled.digest),
            Source::Read(_) => None,
        }
    }

    fn bytes(self) -> Cow<'static, [u8]> {
        match self {
            Source::Bundled(bundled) => bundled.bytes(),
            Source::Read(bytes) => Cow::Owned(bytes),
        }
    }
}

/// The component `spec` names; one read from a file or a registry is checked to be a component.
async fn read(runtime: &Runtime, spec: &PluginSpec, upstream: &Upstream) -> Result<Source, LoadError> {
    let plugin_id = &spec.id;
    let bytes = match &spec.component {
        ComponentSource::Builtin(name) => {
            let bundled = bundled_component(name).ok_or_else(|| LoadError::UnknownBuiltin {
                plugin: plugin_id.clone(),
                name: name.clone(),
                known: bundled_names().join(", "),
            })?;
            return Ok(Source::Bundled(bundled));
        }
        ComponentSource::File(path) => tokio::fs::read(path).await.map_err(|source| LoadError::Read {
            plugin: plugin_id.clone(),
            declared_at: spec.declared_at.clone(),
            path: path.clone(),
            source,
        })?,
        ComponentSource::Oci(reference) => {
            let registry = crate::oci::Registry::new(runtime.registry.clone(), upstream.clone());
            let pulled = registry.component(reference).await.map_err(|source| LoadError::Pull {
                plugin: plugin_id.clone(),
                declared_at: spec.declared_at.clone(),
                reference: reference.to_string(),
                source,
            })?;
            tracing::debug!(
                plugin = %plugin_id,
                manifest = %pulled.manifest_digest,
                fetched = pulled.fetched,
                "component of {reference} read"
            );
            pulled.bytes
        }
    };
    if let Some(what) = not_a_component(&bytes) {
        return Err(LoadError::Contract {
            plugin: plugin_id.clone(),
            message: format!("{}: {what}", spec.component),
        });
    }
    Ok(Source::Read(bytes))
}

/// The compiled component, its digest and whether it came from the compile cache; compiled on the
/// blocking pool, announced when it takes seconds.
async fn compile(
    runtime: &Arc<Runtime>,
    spec: &PluginSpec,
    source: Source,
) -> Result<(Component, String, CompileSource), LoadError> {
    let plugin_id = &spec.id;
    let compile_runtime = runtime.clone();
    let size = source.size();
    let announce = {
        let (plugin, component) = (plugin_id.clone(), spec.component.to_string());
        move || announce_compile(&plugin, &component, size)
    };
    let digest = source.digest();
    let compiled = tokio::task::spawn_blocking(move || {
        let started = Instant::now();
        compile_runtime.compile(move || source.bytes(), digest, announce).map(|c| (c, started.elapsed()))
    })
    .await
    .map_err(|e| LoadError::Engine(format!("the compile task failed: {e}")))?;
    let ((component, digest, compile_source), elapsed) = compiled.map_err(|e| LoadError::Compile {
        plugin: plugin_id.clone(),
        component: spec.component.to_string(),
        source: e,
    })?;
    if compile_source == CompileSource::Compiled {
        if size >= LOUD_COMPILE_BYTES {
            tracing::info!("compiled plugin `{plugin_id}` in {:.1} s", elapsed.as_secs_f64());
        } else {
            tracing::debug!("compiled plugin `{plugin_id}` in {:.3} s", elapsed.as_secs_f64());
        }
    }
    Ok((component, digest, compile_source))
}

/// The component bound to the WIT version of the world its spec names, which it must export.
fn bind(
    runtime: &Runtime,
    spec: &PluginSpec,
    component: &Component,
) -> Result<(Bound, WitVersion), LoadError> {
    let worlds = bindings::exported_worlds(component);
    let Some(&(_, version)) = worlds.iter().find(|(k, _)| *k == spec.kind) else {
        let found = if worlds.is_empty() {
            "it exports no parlance:plugin interface".to_owned()
        } else {
            let names: Vec<String> =
                worlds.iter().map(|(k, v)| format!("{}@{v} (a {k})", k.interface())).collect();
            format!("it exports {}", names.join(", "))
        };
        return Err(LoadError::Contract {
            plugin: spec.id.clone(),
            message: format!(
                "it is configured as a {} but {found}; run `parlance plugins check` on the component for details",
                spec.kind
            ),
        });
    };
    let bound =
        Bound::bind(&runtime.linker, component, spec.kind, version).map_err(|e| LoadError::Contract {
            plugin: spec.id.clone(),
            message: format!("the component does not fit the {} world: {e:#}", spec.kind),
        })?;
    Ok((bound, version))
}

/// What the plugin's `info()` says, checked.
async fn info(runtime: &Arc<Runtime>, plugin: &Sandboxed) -> Result<PluginInfo, LoadError> {
    let plugin_id = plugin.id().to_owned();
    let mut store = new_store(runtime, plugin, HOST_CLIENT)
        .await
        .map_err(|source| LoadError::Info { plugin: plugin_id.clone(), source })?;
    let outcome = run(plugin, plugin.bound.info(&mut store)).await;
    let info = conclude(plugin, &mut store, outcome)
        .map_err(|source| LoadError::Info { plugin: plugin_id.clone(), source })?;
    validate_info(&info).map_err(|message| LoadError::Contract { plugin: plugin_id, message })?;
    Ok(info)
}
