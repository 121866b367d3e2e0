//! A loaded plugin: its component bound to its WIT version, its context (spec, outbound policy), its
//! shares of the instance pool and memory budget (together [`Sandboxed`], what a call needs), what
//! `info()` said, and whether it can serve.

use super::api::{PluginInfo, PluginKind};
use super::bindings::{Bound, WitVersion};
use super::capacity::MemoryBudget;
use super::compile_cache::CompileSource;
use super::sandbox::PluginContext;
use super::spec::PluginSpec;
use std::sync::Arc;
use std::time::Duration;

/// A component ready to be called in the sandbox: bound, with its context and its shares. The
/// loader asks `info()` of one; a [`Plugin`] exists only once it has answered.
pub struct Sandboxed {
    pub(super) ctx: Arc<PluginContext>,
    pub(super) bound: Bound,
    /// Its share of the instance pool, and of the memory budget.
    pub(super) slots: Arc<tokio::sync::Semaphore>,
    pub(super) memory: Arc<MemoryBudget>,
    /// Its instances kept between calls, by client.
    pub(super) kept: Arc<super::reuse::KeptInstances>,
}

impl Sandboxed {
    pub fn id(&self) -> &str {
        &self.ctx.id
    }
    pub fn spec(&self) -> &PluginSpec {
        &self.ctx.spec
    }
}

/// A loaded plugin: the sandboxed component and what its `info()` said. It derefs to its
/// [`Sandboxed`] part, which is all the call machinery reads.
pub struct Plugin {
    pub(super) sandboxed: Sandboxed,
    /// SHA-256 of the component bytes: part of every response-cache key, so a changed plugin never
    /// serves an answer its predecessor gave.
    pub digest: String,
    pub version: WitVersion,
    pub info: PluginInfo,
    pub compile_source: CompileSource,
    pub load_time: Duration,
}

impl std::ops::Deref for Plugin {
    type Target = Sandboxed;
    fn deref(&self) -> &Sandboxed {
        &self.sandboxed
    }
}

impl Plugin {
    /// The model a call uses when it names none: a provider's `default-model`, a chat model's `model`
    /// setting; a metric has none.
    pub fn default_model(&self) -> Option<&str> {
        match &self.info {
            super::api::PluginInfo::Provider { default_model, .. } => Some(default_model),
            _ => self.spec().settings.get("model").map(String::as_str),
        }
    }

    /// Its default model's pricing ([`super::price::pricing`]): `free`, `priced` or `unpriced`.
    pub fn pricing(&self) -> &'static str {
        super::price::pricing(self.spec().billed(), &self.spec().prices, self.default_model())
    }

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
        let mut reason = format!("the secret {} is not set", sources.join(", "));
        // A newcomer with a local server reads here that the key is the hosted upstream's alone.
        if let Some(hosted) =
            spec.hosted.as_ref().filter(|h| missing.iter().all(|k| h.secrets.iter().any(|s| s == k)))
        {
            reason.push_str(&format!(
                "; the hosted {} needs it, a `{}` of your own (a local server) does not",
                hosted.url, hosted.setting
            ));
        }
        Some(reason)
    }
}
