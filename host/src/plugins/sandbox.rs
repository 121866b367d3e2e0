//! The store state of one plugin call and the capabilities it grants: WASI with no filesystem,
//! environment or sockets unless the operator granted them, `wasi:http` and `http-client` through the
//! allow-list, the memory cap, captured stdout/stderr, and the host's own `host` and `embeddings`
//! imports.

use super::api::{PluginError, PluginErrorKind, Usage};
use super::capacity::MemoryBudget;
use super::outbound::OutboundPolicy;
use super::spec::PluginSpec;
use crate::embeddings::{EmbeddingBackend, EmbeddingError, EmbeddingErrorKind};
use crate::upstream::{Upstream, with_causes};
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use tokio::io::AsyncWrite;
use wasmtime::component::ResourceTable;
use wasmtime_wasi::cli::{IsTerminal, StdoutStream};
use wasmtime_wasi::{FsPerms, WasiCtx, WasiCtxBuilder, WasiCtxView, WasiView};
use wasmtime_wasi_http::{WasiHttpCtx, WasiHttpCtxView, WasiHttpView};

/// What a call needs to know about its plugin, shared by all of the plugin's calls.
pub struct PluginContext {
    pub spec: PluginSpec,
    pub id: Arc<str>,
    pub allowed_hosts: Arc<[super::spec::HostPattern]>,
    pub embeddings: Option<Arc<dyn EmbeddingBackend>>,
    pub upstream: Upstream,
}

impl PluginContext {
    /// The plugin's outbound policy, for one call or one streamed reply.
    pub fn outbound(&self) -> OutboundPolicy {
        OutboundPolicy::new(
            self.id.clone(),
            self.allowed_hosts.clone(),
            self.spec.limits.http_timeout,
            self.spec.limits.max_response_bytes,
            self.upstream.clone(),
        )
    }

    /// Serves the `embeddings` capability's `embed`.
    pub async fn embed(&self, texts: Vec<String>) -> Result<Vec<Vec<f32>>, PluginError> {
        match &self.embeddings {
            Some(backend) => Ok(backend.embed(texts).await?),
            None => Err(PluginError::new(
                PluginErrorKind::Misconfigured,
                format!("no embedding backend is configured; {}", crate::embeddings::HOW_TO_GET_ONE),
            )),
        }
    }
}

/// A plugin sees the failure as its own error kind, with the causes in the message: its error is text.
impl From<EmbeddingError> for PluginError {
    fn from(e: EmbeddingError) -> Self {
        let kind = match e.kind() {
            EmbeddingErrorKind::InvalidInput => PluginErrorKind::InvalidInput,
            EmbeddingErrorKind::Misconfigured => PluginErrorKind::Misconfigured,
            EmbeddingErrorKind::Unauthorized => PluginErrorKind::Unauthorized,
            EmbeddingErrorKind::RateLimited { retry_after_secs } => {
                PluginErrorKind::RateLimited { retry_after_secs }
            }
            EmbeddingErrorKind::Timeout => PluginErrorKind::Timeout,
            EmbeddingErrorKind::Unavailable => PluginErrorKind::Unavailable,
            EmbeddingErrorKind::BadResponse => PluginErrorKind::BadResponse,
            EmbeddingErrorKind::Internal => PluginErrorKind::Internal,
        };
        PluginError::new(kind, with_causes(&e))
    }
}

/// The `T` of `Store<T>` for a plugin call.
pub struct PluginState {
    pub plugin: Arc<PluginContext>,
    wasi: WasiCtx,
    http: WasiHttpCtx,
    table: ResourceTable,
    pub outbound: OutboundPolicy,
    pub memory: MemoryCap,
    pub stderr: CapturedOutput,
    /// What the plugin reported through `metering` (0.1.4) during the call.
    pub usage: Usage,
    /// The exports the bindings looked up in this store's one instance (each interface's functions,
    /// type-checked), so that a kept instance's next call finds them ready (`CallStore::exports`).
    pub exports: Vec<(std::any::TypeId, Box<dyn std::any::Any + Send>)>,
}

impl PluginState {
    /// The state of one call's store; its memory is taken from the plugin's share of the budget
    /// (`plugin_memory`) and from the process's (`budget`).
    pub fn new(
        plugin: Arc<PluginContext>,
        plugin_memory: Arc<MemoryBudget>,
        budget: Arc<MemoryBudget>,
    ) -> wasmtime::Result<Self> {
        let spec = &plugin.spec;
        let stderr = CapturedOutput::new(16 * 1024);
        let mut wasi = WasiCtxBuilder::new();
        // stdout is for data in WASI programs; a plugin has none to give, so it is captured like stderr
        // and logged, which also keeps a chatty plugin from writing into the host's own stdout.
        wasi.stdout(stderr.clone()).stderr(stderr.clone());
        for (name, value) in &spec.grants.env {
            wasi.env(name, value);
        }
        if let Some(dir) = &spec.grants.read_dir {
            wasi.preopened_dir(dir, "/data", FsPerms::ReadOnly)?;
        }
        let outbound = plugin.outbound();
        let memory = MemoryCap {
            limit: spec.limits.memory_bytes,
            used: 0,
            exceeded: false,
            over_budget: false,
            plugin_memory,
            budget,
        };
        Ok(PluginState {
            wasi: wasi.build(),
            http: WasiHttpCtx::new(),
            table: ResourceTable::new(),
            outbound,
            memory,
            stderr,
            plugin,
            usage: Usage::default(),
            exports: Vec::new(),
        })
    }
}

impl PluginState {
    /// The host resources the plugin holds handles to (streams, requests, responses), live now.
    pub fn resources(&mut self) -> usize {
        self.table.iter_mut().count()
    }

    /// Readies a kept instance's state for its client's next call: what the previous call printed,
    /// had refused and reported is not this call's. Its memory stays, and is still counted.
    pub fn begin_call(&mut self) {
        self.stderr.clear();
        self.outbound = self.plugin.outbound();
        self.usage = Usage::default();
    }
}

impl WasiView for PluginState {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        WasiCtxView { ctx: &mut self.wasi, table: &mut self.table }
    }
}

impl WasiHttpView for PluginState {
    fn http(&mut self) -> WasiHttpCtxView<'_> {
        WasiHttpCtxView { ctx: &mut self.http, table: &mut self.table, hooks: &mut self.outbound }
    }
}

/// Caps the linear memory of one instance, counting all of its memories together, and remembers
/// that the cap was hit so that the failure can be reported as such rather than as a generic trap.
pub struct MemoryCap {
    limit: u64,
    used: u64,
    pub exceeded: bool,
    /// The growth was refused by the process-wide budget rather than by this plugin's limit.
    pub over_budget: bool,
    /// What the plugin's live instances hold together, and what all live instances hold: this
    /// instance's memory is taken from both as it grows and given back when the instance is dropped.
    plugin_memory: Arc<MemoryBudget>,
    budget: Arc<MemoryBudget>,
}

impl MemoryCap {
    /// The instance's memories, in bytes: they only grow, so at the end of a call this is its peak.
    pub fn used_bytes(&self) -> u64 {
        self.used
    }

    /// The budget that refused the growth: the plugin's share, or the whole.
    pub fn budget_bytes(&self) -> u64 {
        self.budget.limit()
    }
}

impl Drop for MemoryCap {
    fn drop(&mut self) {
        self.plugin_memory.give_back(self.used);
        self.budget.give_back(self.used);
    }
}

impl wasmtime::ResourceLimiter for MemoryCap {
    fn memory_growing(
        &mut self,
        current: usize,
        desired: usize,
        _maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        let growth = (desired - current) as u64;
        if self.used + growth > self.limit {
            self.exceeded = true;
            wasmtime::bail!("memory limit of {} bytes exceeded", self.limit);
        }
        if !self.plugin_memory.try_take(growth) {
            self.over_budget = true;
            wasmtime::bail!("this plugin's share of the memory budget is used up");
        }
        if !self.budget.try_take(growth) {
            self.plugin_memory.give_back(growth);
            self.over_budget = true;
            wasmtime::bail!("the plugins' memory budget of {} bytes is used up", self.budget.limit());
        }
        self.used += growth;
        Ok(true)
    }

    fn table_growing(
        &mut self,
        _current: usize,
        desired: usize,
        _maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        // Tables hold function references; a million is far beyond any real plugin.
        Ok(desired <= 1_000_000)
    }
}

/// A bounded in-memory sink for a plugin's stdout and stderr: the first bytes are kept for the log and
/// for error messages (a Rust panic message lands here), the rest is dropped, and writes never fail, so
/// a chatty plugin cannot trap itself or fill the host's memory.
#[derive(Clone)]
pub struct CapturedOutput {
    buffer: Arc<Mutex<Vec<u8>>>,
    capacity: usize,
}

impl CapturedOutput {
    pub fn new(capacity: usize) -> Self {
        CapturedOutput { buffer: Arc::default(), capacity }
    }

    pub fn clear(&self) {
        if let Ok(mut buffer) = self.buffer.lock() {
            buffer.clear();
        }
    }

    pub fn text(&self) -> String {
        let buffer = self.buffer.lock().map(|b| b.clone()).unwrap_or_default();
        String::from_utf8_lossy(&buffer).trim().to_owned()
    }

    fn append(&self, bytes: &[u8]) {
        if let Ok(mut buffer) = self.buffer.lock() {
            let room = self.capacity.saturating_sub(buffer.len());
            buffer.extend_from_slice(&bytes[..bytes.len().min(room)]);
        }
    }
}

impl IsTerminal for CapturedOutput {
    fn is_terminal(&self) -> bool {
        false
    }
}

impl StdoutStream for CapturedOutput {
    fn async_stream(&self) -> Box<dyn AsyncWrite + Send + Sync> {
        Box::new(self.clone())
    }
}

impl AsyncWrite for CapturedOutput {
    fn poll_write(self: Pin<&mut Self>, _cx: &mut Context<'_>, buf: &[u8]) -> Poll<std::io::Result<usize>> {
        self.append(buf);
        Poll::Ready(Ok(buf.len()))
    }
    fn poll_flush(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(Ok(()))
    }
    fn poll_shutdown(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(Ok(()))
    }
}
