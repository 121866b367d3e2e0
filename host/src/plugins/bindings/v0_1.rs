//! Bindings for the `parlance:plugin@0.1` line, generated from its newest text (0.1.4). Components
//! built against any 0.1.x load through this module: wasmtime matches their older imports and
//! exports against these `@0.1.4` definitions by semver compatibility; the optional exports (0.1.1's
//! `probe`, 0.1.3's `chat-stream` and `candidates`) are looked up per component, never required, and what 0.1.2 and 0.1.4
//! added (the `http-client` and `metering` imports) is linked for every component, whether it imports
//! it or not.

/// The interfaces the host provides, generated once and shared by the three worlds.
pub mod imports {
    wasmtime::component::bindgen!({
        inline: "
            package parlance:host-bindings;
            world imports {
                import parlance:plugin/host@0.1.4;
                import parlance:plugin/embeddings@0.1.4;
                import parlance:plugin/http-client@0.1.4;
                import parlance:plugin/metering@0.1.4;
            }
        ",
        path: "../wit",
        // `host`'s two functions answer from memory, so they are plain calls: an async import costs a
        // boxed future and its poll on every call, and a provider reads several settings per call.
        imports: { "parlance:plugin/host": trappable, "parlance:plugin/metering": trappable, default: async },
        with: {
            "wasi:http": wasmtime_wasi_http::p2::bindings::http,
            "wasi:io": wasmtime_wasi::p2::bindings::io,
            "wasi:clocks": wasmtime_wasi::p2::bindings::clocks,
        },
    });
}

/// The optional `probe` export (since 0.1.1), bound on its own so that a component without it still binds.
pub mod probe {
    wasmtime::component::bindgen!({
        inline: "
            package parlance:host-probe;
            world probe {
                export parlance:plugin/probe@0.1.4;
            }
        ",
        path: "../wit",
        exports: { default: async },
        with: {
            "parlance:plugin/types": super::imports::parlance::plugin::types,
        },
    });
}

/// The optional `chat-stream` export (since 0.1.3), bound on its own as `probe` is.
pub mod chat_stream {
    wasmtime::component::bindgen!({
        inline: "
            package parlance:host-chat-stream;
            world chat-stream {
                export parlance:plugin/chat-stream@0.1.4;
            }
        ",
        path: "../wit",
        exports: { default: async },
        with: {
            "parlance:plugin/types": super::imports::parlance::plugin::types,
            "parlance:plugin/http-client": super::imports::parlance::plugin::http_client,
            "wasi:http": wasmtime_wasi_http::p2::bindings::http,
            "wasi:io": wasmtime_wasi::p2::bindings::io,
            "wasi:clocks": wasmtime_wasi::p2::bindings::clocks,
        },
    });
}

/// The optional `candidates` export of a provider (since 0.1.3), bound on its own as `probe` is.
pub mod candidates {
    wasmtime::component::bindgen!({
        inline: "
            package parlance:host-candidates;
            world candidates {
                export parlance:plugin/candidates@0.1.4;
            }
        ",
        path: "../wit",
        exports: { default: async },
        with: {
            "parlance:plugin/types": super::imports::parlance::plugin::types,
        },
    });
}

/// A chat request in one interface's generated types (the streaming world has its own copy of them).
macro_rules! chat_request {
    ($wit:ident, $request:expr) => {{
        let request = $request;
        $wit::ChatRequest {
            history: request
                .history
                .iter()
                .map(|e| $wit::DialogEntry {
                    index: e.index,
                    name: e.name.to_owned(),
                    message: e.message.to_owned(),
                })
                .collect(),
            message: request.message.clone(),
            from_name: request.from_name.clone(),
            to_name: request.to_name.clone(),
            situation: request.situation.clone(),
            genre: request.genre.clone(),
        }
    }};
}

macro_rules! world {
    ($module:ident, $world:literal $(, $extra:literal : $path:path)*) => {
        pub mod $module {
            wasmtime::component::bindgen!({
                path: "../wit",
                world: $world,
                imports: { default: async },
                exports: { default: async },
                with: {
                    "parlance:plugin/types": super::imports::parlance::plugin::types,
                    "parlance:plugin/host": super::imports::parlance::plugin::host,
                    "parlance:plugin/http-client": super::imports::parlance::plugin::http_client,
                    "parlance:plugin/metering": super::imports::parlance::plugin::metering,
                    $($extra: $path,)*
                    "wasi:http": wasmtime_wasi_http::p2::bindings::http,
                    "wasi:io": wasmtime_wasi::p2::bindings::io,
                    "wasi:clocks": wasmtime_wasi::p2::bindings::clocks,
                },
            });
        }
    };
}

world!(provider, "parlance:plugin/provider-plugin");
world!(chat_model, "parlance:plugin/chat-model-plugin");
world!(
    metric,
    "parlance:plugin/metric-plugin",
    "parlance:plugin/embeddings": super::imports::parlance::plugin::embeddings
);

use super::super::api::{self, PluginErrorKind};
use super::super::reuse::CallStore;
use super::super::sandbox::PluginState;
use imports::parlance::plugin::{embeddings, host, http_client, metering, types};
use wasmtime::component::{Component, HasSelf, InstancePre, Linker};

/// The newest package version of the line this module binds.
pub const VERSION: (u64, u64, u64) = (0, 1, 4);

/// Adds the host's 0.1 imports to a linker.
pub fn add_to_linker(linker: &mut Linker<PluginState>) -> wasmtime::Result<()> {
    host::add_to_linker::<PluginState, HasSelf<PluginState>>(linker, |s| s)?;
    embeddings::add_to_linker::<PluginState, HasSelf<PluginState>>(linker, |s| s)?;
    http_client::add_to_linker::<PluginState, HasSelf<PluginState>>(linker, |s| s)?;
    metering::add_to_linker::<PluginState, HasSelf<PluginState>>(linker, |s| s)?;
    Ok(())
}

/// One interface's functions in the call's instance, looked up once per instance
/// (`CallStore::exports`).
macro_rules! guest {
    ($bound:ident, $store:ident, $indices:ident, $export:ident) => {
        $store.exports(&$bound.pre, |s, i| Ok($indices.load(s, i)?.$export().clone())).await
    };
}

/// A pre-linked 0.1 component, ready to instantiate for a call (or to be bound in the instance its
/// client's previous call left), with its probe when it has one.
pub struct Bound {
    /// The component linked once: every call's instance is made from it, or is one it made that
    /// its client's previous call left.
    pre: InstancePre<PluginState>,
    world: World,
    probe: Option<probe::ProbeIndices>,
}

/// Where each export of the world is in the component, looked up once.
enum World {
    /// With the optional `candidates` export (0.1.3) when the component has it.
    Provider(provider::ProviderPluginIndices, Option<candidates::CandidatesIndices>),
    /// With the optional `chat-stream` export (0.1.3) when the component has it.
    ChatModel(chat_model::ChatModelPluginIndices, Option<chat_stream::ChatStreamIndices>),
    Metric(metric::MetricPluginIndices),
}

impl Bound {
    pub fn new(kind: api::PluginKind, pre: InstancePre<PluginState>) -> wasmtime::Result<Bound> {
        // Only providers and chat models have an upstream to probe; a component without the export
        // (every 0.1.0 component) simply has none.
        let probe = match kind {
            api::PluginKind::Metric => None,
            _ => probe::ProbeIndices::new(&pre).ok(),
        };
        let world = match kind {
            api::PluginKind::Provider => World::Provider(
                provider::ProviderPluginIndices::new(&pre)?,
                candidates::CandidatesIndices::new(&pre).ok(),
            ),
            api::PluginKind::ChatModel => World::ChatModel(
                chat_model::ChatModelPluginIndices::new(&pre)?,
                chat_stream::ChatStreamIndices::new(&pre).ok(),
            ),
            api::PluginKind::Metric => World::Metric(metric::MetricPluginIndices::new(&pre)?),
        };
        Ok(Bound { pre, world, probe })
    }

    pub fn has_probe(&self) -> bool {
        self.probe.is_some()
    }

    /// Calls the probe; `None` when the component exports none.
    pub(in crate::plugins) async fn probe(
        &self,
        store: &mut CallStore,
    ) -> Option<wasmtime::Result<Result<String, api::PluginError>>> {
        let indices = self.probe.as_ref()?;
        Some(
            async {
                let guest = guest!(self, store, indices, parlance_plugin_probe)?;
                let result = guest.call_check(&mut **store).await?;
                Ok(result.map_err(Into::into))
            }
            .await,
        )
    }

    pub(in crate::plugins) async fn info(&self, store: &mut CallStore) -> wasmtime::Result<api::PluginInfo> {
        Ok(match &self.world {
            World::Provider(indices, _) => {
                let guest = guest!(self, store, indices, parlance_plugin_provider)?;
                let info = guest.call_info(&mut **store).await?;
                api::PluginInfo::Provider { name: info.name, default_model: info.default_model }
            }
            World::ChatModel(indices, _) => {
                let guest = guest!(self, store, indices, parlance_plugin_chat_model)?;
                let info = guest.call_info(&mut **store).await?;
                api::PluginInfo::ChatModel { name: info.name }
            }
            World::Metric(indices) => {
                let guest = guest!(self, store, indices, parlance_plugin_metric)?;
                let info = guest.call_info(&mut **store).await?;
                let scores = info
                    .scores
                    .into_iter()
                    .map(|s| api::ScoreInfo {
                        name: s.name,
                        description: s.description,
                        headline: s.headline,
                    })
                    .collect();
                api::PluginInfo::Metric { name: info.name, scores }
            }
        })
    }

    pub(in crate::plugins) async fn paraphrase(
        &self,
        store: &mut CallStore,
        text: &str,
        model: &str,
    ) -> wasmtime::Result<Result<api::Paraphrased, api::PluginError>> {
        let World::Provider(indices, _) = &self.world else { wasmtime::bail!("not a provider") };
        let request = provider::exports::parlance::plugin::provider::ParaphraseRequest {
            text: text.to_owned(),
            model: model.to_owned(),
        };
        let guest = guest!(self, store, indices, parlance_plugin_provider)?;
        let result = guest.call_paraphrase(&mut **store, &request).await?;
        Ok(result.map(|p| api::Paraphrased { text: p.text, model: p.model }).map_err(Into::into))
    }

    pub fn has_candidates(&self) -> bool {
        matches!(self.world, World::Provider(_, Some(_)))
    }

    pub(in crate::plugins) async fn paraphrase_candidates(
        &self,
        store: &mut CallStore,
        text: &str,
        model: &str,
        count: u32,
    ) -> wasmtime::Result<Result<Vec<api::Paraphrased>, api::PluginError>> {
        let World::Provider(_, Some(indices)) = &self.world else {
            wasmtime::bail!("the component exports no candidates")
        };
        let guest = guest!(self, store, indices, parlance_plugin_candidates)?;
        let result = guest.call_paraphrase_candidates(&mut **store, text, model, count).await?;
        Ok(result
            .map(|list| list.into_iter().map(|c| api::Paraphrased { text: c.text, model: c.model }).collect())
            .map_err(Into::into))
    }

    pub(in crate::plugins) async fn reply(
        &self,
        store: &mut CallStore,
        request: &api::ChatRequest<'_>,
    ) -> wasmtime::Result<Result<String, api::PluginError>> {
        use chat_model::exports::parlance::plugin::chat_model as wit;
        let World::ChatModel(indices, _) = &self.world else { wasmtime::bail!("not a chat model") };
        let request = chat_request!(wit, request);
        let guest = guest!(self, store, indices, parlance_plugin_chat_model)?;
        let result = guest.call_reply(&mut **store, &request).await?;
        Ok(result.map_err(Into::into))
    }

    pub fn has_stream(&self) -> bool {
        matches!(self.world, World::ChatModel(_, Some(_)))
    }

    /// The call's instance, with the `chat-stream` export looked up in it.
    async fn streaming(
        &self,
        store: &mut CallStore,
    ) -> wasmtime::Result<chat_stream::exports::parlance::plugin::chat_stream::Guest> {
        let World::ChatModel(_, Some(indices)) = &self.world else {
            wasmtime::bail!("the component exports no chat-stream")
        };
        guest!(self, store, indices, parlance_plugin_chat_stream)
    }

    pub(in crate::plugins) async fn stream_start(
        &self,
        store: &mut CallStore,
        request: &api::ChatRequest<'_>,
        generation: &api::Generation,
    ) -> wasmtime::Result<Result<api::StreamStart, api::PluginError>> {
        use chat_stream::exports::parlance::plugin::chat_stream;
        let request = chat_request!(chat_stream, request);
        let generation = chat_stream::Generation {
            max_tokens: generation.max_tokens,
            temperature: generation.temperature,
            top_p: generation.top_p,
            stop: generation.stop.clone(),
            seed: generation.seed,
            user: generation.user.clone(),
        };
        let guest = self.streaming(store).await?;
        let result = guest.call_start(&mut **store, &request, &generation).await?;
        let start = match result {
            Ok(start) => start,
            Err(e) => return Ok(Err(e.into())),
        };
        let chat_stream::StreamStart { request, framing } = start;
        let method: Result<http::Method, _> = request.method.try_into();
        let Ok(method) = method else {
            return Ok(Err(api::PluginError::new(
                PluginErrorKind::Internal,
                "the stream's request has an invalid method",
            )));
        };
        Ok(Ok(api::StreamStart {
            method,
            url: request.url,
            headers: request.headers,
            body: request.body,
            timeout: request.timeout_ms.map(|ms| std::time::Duration::from_millis(ms.into())),
            framing: match framing {
                chat_stream::Framing::ServerSentEvents => api::Framing::ServerSentEvents,
                chat_stream::Framing::Ndjson => api::Framing::Ndjson,
            },
        }))
    }

    pub(in crate::plugins) async fn stream_decode(
        &self,
        store: &mut CallStore,
        events: &[String],
    ) -> wasmtime::Result<Result<Vec<api::StreamPart>, api::PluginError>> {
        use chat_stream::exports::parlance::plugin::chat_stream::StreamPart as Part;
        let guest = self.streaming(store).await?;
        let result = guest.call_decode(&mut **store, events).await?;
        Ok(result
            .map(|parts| {
                parts
                    .into_iter()
                    .map(|part| match part {
                        Part::Delta(text) => api::StreamPart::Delta(text),
                        Part::Model(model) => api::StreamPart::Model(model),
                        Part::Usage(u) => api::StreamPart::Usage(api::Usage {
                            input_tokens: u.input_tokens,
                            output_tokens: u.output_tokens,
                        }),
                        Part::Done(reason) => api::StreamPart::Done(reason),
                    })
                    .collect()
            })
            .map_err(Into::into))
    }

    pub(in crate::plugins) async fn stream_refusal(
        &self,
        store: &mut CallStore,
        parts: &http::response::Parts,
        body: Vec<u8>,
    ) -> wasmtime::Result<api::PluginError> {
        let response = http_client::Response {
            status: parts.status.as_u16(),
            headers: header_pairs(&parts.headers),
            body,
        };
        let guest = self.streaming(store).await?;
        let error = guest.call_refusal(&mut **store, &response).await?;
        Ok(error.into())
    }

    pub(in crate::plugins) async fn evaluate(
        &self,
        store: &mut CallStore,
        pairs: &[api::Pair],
    ) -> wasmtime::Result<Vec<Result<Vec<api::Score>, api::PluginError>>> {
        use metric::exports::parlance::plugin::metric as wit;
        let World::Metric(indices) = &self.world else { wasmtime::bail!("not a metric") };
        let pairs: Vec<wit::Pair> = pairs
            .iter()
            .map(|p| wit::Pair { original: p.original.clone(), paraphrase: p.paraphrase.clone() })
            .collect();
        let guest = guest!(self, store, indices, parlance_plugin_metric)?;
        let results = guest.call_evaluate(&mut **store, &pairs).await?;
        Ok(results
            .into_iter()
            .map(|r| {
                r.map(|scores| {
                    scores.into_iter().map(|s| api::Score { name: s.name, value: s.value }).collect()
                })
                .map_err(Into::into)
            })
            .collect())
    }
}

/// Checks that `component` exports `kind`'s interface at a 0.1 version with the expected types.
pub fn bind(
    linker: &Linker<PluginState>,
    component: &Component,
    kind: api::PluginKind,
) -> wasmtime::Result<Bound> {
    Bound::new(kind, linker.instantiate_pre(component)?)
}

impl From<types::PluginError> for api::PluginError {
    fn from(e: types::PluginError) -> Self {
        use types::PluginError as E;
        match e {
            E::InvalidInput(m) => api::PluginError::new(PluginErrorKind::InvalidInput, m),
            E::Misconfigured(m) => api::PluginError::new(PluginErrorKind::Misconfigured, m),
            E::Unauthorized(m) => api::PluginError::new(PluginErrorKind::Unauthorized, m),
            E::RateLimited(r) => api::PluginError::new(
                PluginErrorKind::RateLimited { retry_after_secs: r.retry_after_secs },
                r.message,
            ),
            E::Timeout(m) => api::PluginError::new(PluginErrorKind::Timeout, m),
            E::Unavailable(m) => api::PluginError::new(PluginErrorKind::Unavailable, m),
            E::BadResponse(m) => api::PluginError::new(PluginErrorKind::BadResponse, m),
            E::Internal(m) => api::PluginError::new(PluginErrorKind::Internal, m),
        }
    }
}

impl From<api::PluginError> for types::PluginError {
    fn from(e: api::PluginError) -> Self {
        use types::PluginError as E;
        match e.kind {
            PluginErrorKind::InvalidInput => E::InvalidInput(e.message),
            PluginErrorKind::Misconfigured => E::Misconfigured(e.message),
            PluginErrorKind::Unauthorized => E::Unauthorized(e.message),
            PluginErrorKind::RateLimited { retry_after_secs } => {
                E::RateLimited(types::RateLimit { retry_after_secs, message: e.message })
            }
            PluginErrorKind::Timeout => E::Timeout(e.message),
            PluginErrorKind::Unavailable => E::Unavailable(e.message),
            PluginErrorKind::BadResponse => E::BadResponse(e.message),
            PluginErrorKind::Internal => E::Internal(e.message),
        }
    }
}

impl types::Host for PluginState {}

impl host::Host for PluginState {
    fn log(&mut self, level: host::Level, message: String) -> wasmtime::Result<()> {
        super::super::log::log_from_plugin(&self.plugin.id, level.into(), &message);
        Ok(())
    }

    fn config(&mut self, key: String) -> wasmtime::Result<Option<String>> {
        Ok(self.plugin.spec.settings.get(&key).cloned())
    }
}

impl From<host::Level> for tracing::Level {
    fn from(level: host::Level) -> Self {
        match level {
            host::Level::Trace => tracing::Level::TRACE,
            host::Level::Debug => tracing::Level::DEBUG,
            host::Level::Info => tracing::Level::INFO,
            host::Level::Warn => tracing::Level::WARN,
            host::Level::Error => tracing::Level::ERROR,
        }
    }
}

impl metering::Host for PluginState {
    fn report(&mut self, usage: metering::Usage) -> wasmtime::Result<()> {
        self.usage = self
            .usage
            .plus(api::Usage { input_tokens: usage.input_tokens, output_tokens: usage.output_tokens });
        Ok(())
    }
}

impl embeddings::Host for PluginState {
    async fn model(&mut self) -> Option<embeddings::EmbeddingModel> {
        self.plugin.embeddings.as_ref().map(|b| {
            let m = b.model();
            embeddings::EmbeddingModel { name: m.name, dimensions: m.dimensions }
        })
    }

    async fn embed(&mut self, texts: Vec<String>) -> Result<Vec<Vec<f32>>, types::PluginError> {
        self.plugin.embed(texts).await.map_err(Into::into)
    }
}

impl http_client::Host for PluginState {
    async fn send(
        &mut self,
        request: http_client::Request,
    ) -> Result<http_client::Response, http_client::ErrorCode> {
        // wasmtime-wasi-http's own conversion, the one its outgoing handler uses.
        let method: http::Method =
            request.method.try_into().map_err(|_| http_client::ErrorCode::HttpRequestMethodInvalid)?;
        let timeout = request.timeout_ms.map(|ms| std::time::Duration::from_millis(ms.into()));
        let (parts, body) =
            self.outbound.send_whole(method, &request.url, request.headers, request.body, timeout).await?;
        Ok(http_client::Response {
            status: parts.status.as_u16(),
            headers: header_pairs(&parts.headers),
            body: body.into(),
        })
    }
}

/// Response headers as the contract carries them: lower-cased names, in the upstream's order.
fn header_pairs(headers: &http::HeaderMap) -> Vec<(String, String)> {
    headers
        .iter()
        .map(|(name, value)| {
            (name.as_str().to_owned(), String::from_utf8_lossy(value.as_bytes()).into_owned())
        })
        .collect()
}
