//! The OpenAI surface's routes, `POST /v1/chat/completions`, `GET /v1/models` and
//! `GET /v1/models/{model}`, with their OpenAPI fragment: a completion answered whole
//! (`chat.completion`) or as server-sent `chat.completion.chunk`s ending with `data: [DONE]`, or with
//! a last `data:` error object, and no `[DONE]`, when the reply fails after it began.

use super::error::Failure;
use super::types::{
    Choice, Chunk, ChunkChoice, Completion, CompletionEvent, CompletionRequest, CompletionUsage, Delta,
    Model, ModelList, OpenAiErrorBody, ResponseMessage,
};
use super::{OpenAiService, Opened, StoreTarget};
use crate::error::Error;
use crate::plugins::ReplyStream;
use crate::plugins::api::{CallError, CallFailure, StreamPart, Usage};
use crate::ratelimit::Admitted;
use crate::rest::openapi::responses as r;
use crate::rest::{Caller, Json, Path};
use axum::Router;
use axum::extract::{FromRef, State};
use axum::http::HeaderValue;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use std::collections::VecDeque;
use std::sync::Arc;
use utoipa::OpenApi;

type OpenAi = State<Arc<OpenAiService>>;

pub fn routes<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    Arc<OpenAiService>: FromRef<S>,
{
    Router::new()
        .route("/v1/chat/completions", post(create_chat_completion))
        .route("/v1/models", get(list_models))
        .route("/v1/models/{model}", get(retrieve_model))
}

#[derive(OpenApi)]
#[openapi(
    paths(create_chat_completion, list_models, retrieve_model),
    components(schemas(Chunk, ChunkChoice, Delta, OpenAiErrorBody)),
    tags((name = "openai", description = "The OpenAI-compatible surface: chat completions over the chat-model plugins, for the official OpenAI clients"))
)]
struct ApiDoc;

pub fn openapi() -> utoipa::openapi::OpenApi {
    ApiDoc::openapi()
}

/// The chat models, as OpenAI lists models.
#[utoipa::path(get, path = "/v1/models", tag = "openai",
    responses(
        (status = 200, description = "Every chat-model plugin; `owned_by` is its kind and component", body = ModelList),
        (status = 401, description = "A missing or unknown API key, when keys are required", body = OpenAiErrorBody),
    ))]
pub async fn list_models(State(openai): OpenAi) -> axum::Json<ModelList> {
    axum::Json(ModelList { object: "list", data: openai.models() })
}

/// One chat model.
#[utoipa::path(get, path = "/v1/models/{model}", tag = "openai",
    params(("model" = String, Path, description = "A chat-model plugin id")),
    responses(
        (status = 200, description = "The chat model", body = Model),
        (status = 401, description = "A missing or unknown API key, when keys are required", body = OpenAiErrorBody),
        (status = 404, description = "No such chat model: `model_not_found`", body = OpenAiErrorBody),
    ))]
pub async fn retrieve_model(
    State(openai): OpenAi,
    Path(model): Path<String>,
) -> Result<axum::Json<Model>, Failure> {
    openai.model(&model).map(axum::Json)
}

/// A chat completion from the chat model `model` names. With `stream: true`, server-sent
/// `chat.completion.chunk`s as the reply is written, then `data: [DONE]`; a failure after the first
/// chunk is a last `data: {"error": …}` without `[DONE]`. Errors before any chunk have their status.
#[utoipa::path(post, path = "/v1/chat/completions", tag = "openai", request_body = CompletionRequest,
    params(("current-user" = Option<String>, Header, description = "The API client (with `[openai] store_dialogs`, whose user's dialog a completion with `user` is appended to)")),
    responses(
        (status = 200, description = "The completion; with `stream: true`, `data:` events of `Chunk`s, then `data: [DONE]` (or a last `OpenAiErrorBody` when the reply fails after it began), with keep-alive comments while the model is silent",
            content((Completion = "application/json"), (CompletionEvent = "text/event-stream"))),
        (status = 400, description = "Malformed JSON, a bad `current-user` header, what this surface does not serve (`n` > 1, tools, non-text content, a last message that is not the user's), or messages past the chat's input limits: a message longer than `[chat] max_message_chars` or the system messages joined longer than `max_situation_chars` (`string_above_max_length`), more messages than `max_history_entries` allows with the reply (`array_above_max_length`)", body = OpenAiErrorBody),
        (status = 401, description = "A missing or unknown API key, when keys are required", body = OpenAiErrorBody),
        (status = 403, description = "The `current-user` header names another client than the API key's", body = OpenAiErrorBody),
        (status = 404, description = "No such chat model: `model_not_found`", body = OpenAiErrorBody),
        (status = 409, description = "With `store_dialogs`: the user's dialog is full", body = OpenAiErrorBody),
        (status = 413, description = r::TOO_LARGE, body = OpenAiErrorBody),
        (status = 415, description = r::NOT_JSON, body = OpenAiErrorBody),
        (status = 422, description = "A field of the wrong type, or a `user` that cannot name a stored user", body = OpenAiErrorBody),
        (status = 429, description = "The client's rate limit for this model (`Retry-After` says when to retry), its share of the plugin instances, the upstream's own limit, or the caller's budget or per-minute limit (`budget_exceeded`)", body = OpenAiErrorBody),
        (status = 500, description = "The dialog store failed", body = OpenAiErrorBody),
        (status = 502, description = "The upstream or the plugin failed", body = OpenAiErrorBody),
        (status = 507, description = "With `store_dialogs`: the dialog store's disk is full", body = OpenAiErrorBody),
        (status = 503, description = "The chat model cannot serve (its API key is not set, it is busy or misconfigured), or the store is unavailable", body = OpenAiErrorBody),
        (status = 504, description = "The upstream or the plugin ran out of time", body = OpenAiErrorBody),
    ))]
pub async fn create_chat_completion(
    State(openai): OpenAi,
    caller: Caller,
    Json(body): Json<CompletionRequest>,
) -> Result<Response, Failure> {
    let stream = body.stream.unwrap_or(false);
    let opened = openai.open(&caller, body).await?;
    let meta = Meta { id: completion_id(), created: unix_now(), model: opened.model.clone() };
    let quota = opened.quota;
    let attempts = crate::fallback::outcome::attempts_header(&opened.attempts);
    let mut response =
        if stream { streamed(openai, opened, meta).await? } else { collected(&openai, opened, meta).await? };
    if let Some(quota) = quota {
        add_quota(&mut response, &quota);
    }
    if let Some(attempts) = attempts {
        response.headers_mut().insert(crate::fallback::outcome::HEADER, attempts);
    }
    Ok(response)
}

/// What every chunk of one completion repeats.
struct Meta {
    id: String,
    created: u64,
    model: String,
}

impl Meta {
    fn chunk(&self, delta: Delta, finish_reason: Option<String>) -> Chunk {
        Chunk {
            id: self.id.clone(),
            object: "chat.completion.chunk",
            created: self.created,
            model: self.model.clone(),
            choices: vec![ChunkChoice { index: 0, delta, finish_reason, logprobs: None }],
            usage: None,
        }
    }
}

/// A piece of the reply as this surface uses it: text, or the end with its finish reason.
enum Piece {
    Text(String),
    Finished(Option<String>),
}

/// The reply's stream under the completion's deadline, with the usage it reported.
struct Reading {
    stream: ReplyStream,
    deadline: tokio::time::Instant,
    usage: Option<Usage>,
}

impl Reading {
    async fn pull(&mut self, openai: &OpenAiService) -> Result<Piece, Failure> {
        loop {
            let part = match tokio::time::timeout_at(self.deadline, self.stream.next()).await {
                Ok(part) => part,
                Err(_) => {
                    self.stream.cancel("deadline");
                    return Err(openai.deadline_failure(self.stream.plugin().id()));
                }
            };
            match part {
                Some(Ok(StreamPart::Delta(text))) if text.is_empty() => {}
                Some(Ok(StreamPart::Delta(text))) => return Ok(Piece::Text(text)),
                Some(Ok(StreamPart::Usage(usage))) => self.usage = Some(usage),
                Some(Ok(StreamPart::Model(_))) => {}
                Some(Ok(StreamPart::Done(reason))) => return Ok(Piece::Finished(reason)),
                Some(Err(e)) => return Err(Error::Plugin(e).into()),
                None => {
                    let failure = CallFailure::InvalidOutput("the stream ended without its last part".into());
                    return Err(Error::Plugin(CallError::new(self.stream.plugin().id(), failure)).into());
                }
            }
        }
    }
}

/// The whole reply as one `chat.completion`.
async fn collected(openai: &OpenAiService, opened: Opened, meta: Meta) -> Result<Response, Failure> {
    let Opened { stream, store, deadline, .. } = opened;
    let mut reading = Reading { stream, deadline, usage: None };
    let mut reply = String::new();
    let finish_reason = loop {
        match reading.pull(openai).await? {
            Piece::Text(text) => reply.push_str(&text),
            Piece::Finished(reason) => break reason,
        }
    };
    if let Some(target) = store {
        openai.store(target, &reply).await?;
    }
    let completion = Completion {
        id: meta.id,
        object: "chat.completion",
        created: meta.created,
        model: meta.model,
        choices: vec![Choice {
            index: 0,
            message: ResponseMessage { role: "assistant", content: reply, refusal: None },
            finish_reason: finish_reason.unwrap_or_else(|| "stop".into()),
            logprobs: None,
        }],
        usage: CompletionUsage::from_usage(reading.usage),
    };
    Ok(axum::Json(completion).into_response())
}

/// The reply as server-sent chunks. The first piece is awaited before the answer starts, so that a
/// failure before any text still has its status; after it, a failure is a last error event.
async fn streamed(openai: Arc<OpenAiService>, opened: Opened, meta: Meta) -> Result<Response, Failure> {
    let Opened { stream, store, deadline, include_usage, .. } = opened;
    let mut reading = Reading { stream, deadline, usage: None };
    let first = reading.pull(&openai).await?;
    let keepalive = openai.keepalive();
    let state = Streaming {
        openai,
        reading,
        meta,
        first: Some(first),
        include_usage,
        store,
        reply: String::new(),
        queue: VecDeque::new(),
        ended: false,
    };
    // Read after this handler returns: its spans (the exchange stored at the end) stay in the request's
    // trace, and a chain's next member it opens stays the caller's call.
    let events = crate::telemetry::WithSpan::in_span(
        crate::plugins::api::CallScope::current().streamed(futures::stream::unfold(state, Streaming::step)),
        crate::telemetry::Span::current(),
    );
    let mut response = Sse::new(events).keep_alive(KeepAlive::new().interval(keepalive)).into_response();
    // Proxies such as nginx buffer responses unless told not to.
    response.headers_mut().insert("x-accel-buffering", HeaderValue::from_static("no"));
    Ok(response)
}

/// A streamed completion between its events. Dropped when the client goes away, which drops the
/// reply's stream and so closes the upstream connection.
struct Streaming {
    openai: Arc<OpenAiService>,
    reading: Reading,
    meta: Meta,
    first: Option<Piece>,
    include_usage: bool,
    store: Option<StoreTarget>,
    reply: String,
    queue: VecDeque<Event>,
    ended: bool,
}

impl Streaming {
    async fn step(mut self) -> Option<(Result<Event, std::convert::Infallible>, Streaming)> {
        loop {
            if let Some(event) = self.queue.pop_front() {
                return Some((Ok(event), self));
            }
            if self.ended {
                return None;
            }
            let piece = match self.first.take() {
                Some(piece) => Ok(piece),
                None => self.reading.pull(&self.openai).await,
            };
            match piece {
                Ok(Piece::Text(text)) => {
                    // The first chunk names the role, as OpenAI's does.
                    let role = self.reply.is_empty().then_some("assistant");
                    self.reply.push_str(&text);
                    let chunk = self.meta.chunk(Delta { role, content: Some(text) }, None);
                    self.queue.push_back(json_event(&chunk));
                }
                Ok(Piece::Finished(reason)) => {
                    self.ended = true;
                    let reason = reason.unwrap_or_else(|| "stop".into());
                    self.queue.push_back(json_event(&self.meta.chunk(Delta::default(), Some(reason))));
                    if let Some(usage) =
                        CompletionUsage::from_usage(self.reading.usage).filter(|_| self.include_usage)
                    {
                        let mut chunk = self.meta.chunk(Delta::default(), None);
                        chunk.choices.clear();
                        chunk.usage = Some(usage);
                        self.queue.push_back(json_event(&chunk));
                    }
                    // Stored before `[DONE]`: a client that saw it may read the dialog at once.
                    if let Some(target) = self.store.take()
                        && let Err(failure) = self.openai.store(target, &self.reply).await
                    {
                        self.queue.push_back(json_event(&failure.body()));
                        continue;
                    }
                    self.queue.push_back(Event::default().data("[DONE]"));
                }
                Err(failure) => {
                    // No `[DONE]`: the clients must see a failure, not a short success.
                    tracing::warn!(model = %self.meta.model, "the streamed completion failed after it began: {}", failure.api.message);
                    self.ended = true;
                    self.queue.push_back(json_event(&failure.body()));
                }
            }
        }
    }
}

fn json_event(value: &impl serde::Serialize) -> Event {
    crate::rest::sse::json_event(Event::default(), value)
}

fn add_quota(response: &mut Response, quota: &Admitted) {
    for (name, value) in quota.headers() {
        response.headers_mut().insert(name, HeaderValue::from(value));
    }
}

/// `chatcmpl-` and 24 random hexadecimal digits.
fn completion_id() -> String {
    let mut bytes = [0u8; 12];
    // Without randomness the id is still unique enough from the clock; it identifies, it guards nothing.
    if getrandom::fill(&mut bytes).is_err() {
        let nanos =
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default().as_nanos();
        bytes.copy_from_slice(&nanos.to_le_bytes()[..12]);
    }
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    format!("chatcmpl-{hex}")
}

fn unix_now() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs())
}
