//! Bindings per WIT version, one module each (as Zed's extension host does): a component is bound
//! through the module of the version it was built against, and every module converts into the
//! version-independent types of `plugins::api`.

pub mod v0_1;

use super::api::{self, PluginKind};
use super::reuse::CallStore;
use super::sandbox::PluginState;
use wasmtime::component::types::ComponentItem;
use wasmtime::component::{Component, Linker};

/// A version of the `parlance:plugin` package.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct WitVersion(pub u64, pub u64, pub u64);

impl std::fmt::Display for WitVersion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}.{}", self.0, self.1, self.2)
    }
}

impl WitVersion {
    fn parse(text: &str) -> Option<WitVersion> {
        let mut parts = text.split('.').map(|p| p.parse::<u64>().ok());
        let v = WitVersion(parts.next()??, parts.next()??, parts.next()??);
        parts.next().is_none().then_some(v)
    }
}

/// The package versions this host binds, newest first. A component matches a version when it is
/// semver-compatible with it (for 0.x, the same minor version).
pub const SUPPORTED: &[WitVersion] = &[WitVersion(v0_1::VERSION.0, v0_1::VERSION.1, v0_1::VERSION.2)];

/// A component bound through the module of its version.
pub enum Bound {
    V0_1(v0_1::Bound),
}

/// Adds every supported version's host imports, plus WASI and `wasi:http`, to the linker.
pub fn add_to_linker(linker: &mut Linker<PluginState>) -> wasmtime::Result<()> {
    wasmtime_wasi::p2::add_to_linker_async(linker)?;
    wasmtime_wasi_http::p2::add_only_http_to_linker_async(linker)?;
    v0_1::add_to_linker(linker)?;
    Ok(())
}

/// What a component exports of the plugin contract: the world kinds it implements and the package
/// version each was built against.
pub fn exported_worlds(component: &Component) -> Vec<(PluginKind, WitVersion)> {
    let engine = component.engine();
    let mut found = Vec::new();
    for (name, item) in component.component_type().exports(engine) {
        let Some((interface, version)) = name.split_once('@') else { continue };
        let Some(kind) = PluginKind::ALL.into_iter().find(|k| k.interface() == interface) else { continue };
        if let (ComponentItem::ComponentInstance(_), Some(version)) = (item.ty, WitVersion::parse(version)) {
            found.push((kind, version));
        }
    }
    found
}

/// The supported version a component version binds through, if any.
pub fn binding_for(version: WitVersion) -> Option<WitVersion> {
    SUPPORTED.iter().copied().find(|s| {
        if s.0 == 0 { s.0 == version.0 && s.1 == version.1 } else { s.0 == version.0 && version >= *s }
    })
}

impl Bound {
    pub fn bind(
        linker: &Linker<PluginState>,
        component: &Component,
        kind: PluginKind,
        version: WitVersion,
    ) -> wasmtime::Result<Bound> {
        match binding_for(version) {
            Some(WitVersion(0, 1, _)) => Ok(Bound::V0_1(v0_1::bind(linker, component, kind)?)),
            _ => wasmtime::bail!(
                "the component targets parlance:plugin@{version}, which this host does not support \
                 (supported: {})",
                SUPPORTED.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
            ),
        }
    }

    /// Whether the component exports the optional `probe` interface.
    pub fn has_probe(&self) -> bool {
        match self {
            Bound::V0_1(b) => b.has_probe(),
        }
    }

    /// Calls the optional `probe`; `None` when the component has none.
    pub(in crate::plugins) async fn probe(
        &self,
        store: &mut CallStore,
    ) -> Option<wasmtime::Result<Result<String, api::PluginError>>> {
        match self {
            Bound::V0_1(b) => b.probe(store).await,
        }
    }

    pub(in crate::plugins) async fn info(&self, store: &mut CallStore) -> wasmtime::Result<api::PluginInfo> {
        match self {
            Bound::V0_1(b) => b.info(store).await,
        }
    }

    pub(in crate::plugins) async fn paraphrase(
        &self,
        store: &mut CallStore,
        text: &str,
        model: &str,
    ) -> wasmtime::Result<Result<api::Paraphrased, api::PluginError>> {
        match self {
            Bound::V0_1(b) => b.paraphrase(store, text, model).await,
        }
    }

    /// Whether the provider writes several candidates in one call (the optional `candidates`, since 0.1.3).
    pub fn has_candidates(&self) -> bool {
        match self {
            Bound::V0_1(b) => b.has_candidates(),
        }
    }

    pub(in crate::plugins) async fn paraphrase_candidates(
        &self,
        store: &mut CallStore,
        text: &str,
        model: &str,
        count: u32,
    ) -> wasmtime::Result<Result<Vec<api::Paraphrased>, api::PluginError>> {
        match self {
            Bound::V0_1(b) => b.paraphrase_candidates(store, text, model, count).await,
        }
    }

    pub(in crate::plugins) async fn reply(
        &self,
        store: &mut CallStore,
        request: &api::ChatRequest<'_>,
    ) -> wasmtime::Result<Result<String, api::PluginError>> {
        match self {
            Bound::V0_1(b) => b.reply(store, request).await,
        }
    }

    /// Whether the component streams its replies (the optional `chat-stream`, since 0.1.3).
    pub fn has_stream(&self) -> bool {
        match self {
            Bound::V0_1(b) => b.has_stream(),
        }
    }

    pub(in crate::plugins) async fn stream_start(
        &self,
        store: &mut CallStore,
        request: &api::ChatRequest<'_>,
        generation: &api::Generation,
    ) -> wasmtime::Result<Result<api::StreamStart, api::PluginError>> {
        match self {
            Bound::V0_1(b) => b.stream_start(store, request, generation).await,
        }
    }

    pub(in crate::plugins) async fn stream_decode(
        &self,
        store: &mut CallStore,
        events: &[String],
    ) -> wasmtime::Result<Result<Vec<api::StreamPart>, api::PluginError>> {
        match self {
            Bound::V0_1(b) => b.stream_decode(store, events).await,
        }
    }

    pub(in crate::plugins) async fn stream_refusal(
        &self,
        store: &mut CallStore,
        parts: &http::response::Parts,
        body: Vec<u8>,
    ) -> wasmtime::Result<api::PluginError> {
        match self {
            Bound::V0_1(b) => b.stream_refusal(store, parts, body).await,
        }
    }

    pub(in crate::plugins) async fn evaluate(
        &self,
        store: &mut CallStore,
        pairs: &[api::Pair],
    ) -> wasmtime::Result<Vec<Result<Vec<api::Score>, api::PluginError>>> {
        match self {
            Bound::V0_1(b) => b.evaluate(store, pairs).await,
        }
    }
}
