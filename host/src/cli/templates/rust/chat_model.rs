//! `{{name}}`: a Parlance chat model in Rust that can stream its reply (world
//! `streaming-chat-model-plugin`).
//!
//! Without settings the character answers by repeating the user's message back, so `./test.sh` works
//! offline. With `--config base_url=https://…/v1 --config model=…` (and `api_key` if the API wants
//! one) it asks an OpenAI-compatible chat-completions API instead:
//!
//! - `ChatModel::reply` asks for the whole reply in one request.
//! - `ChatStream` streams it, sans-IO: `start` returns the request and its framing; the host sends
//!   it, splits the answer into server-sent events and hands each batch to `decode`, which turns them
//!   into parts (`Delta`, `Model`, `Usage`, `Done`); an answer outside 2xx goes to `refusal`. Each call
//!   may run in a fresh instance, so nothing is kept between them. Streaming needs an upstream: without
//!   `base_url`, `start` fails with `Misconfigured`.

use parlance_sdk::chat_model::{
    ChatModel, ChatRequest, ChatStream, Framing, Generation, ModelInfo, StreamPart, StreamStart, Usage,
};
use parlance_sdk::http::{Request, Response, join_url};
use parlance_sdk::serde_json::{self, Value, json};
use parlance_sdk::upstream::{check_status, parse_json, refusal};
use parlance_sdk::{PluginError, config};

const UPSTREAM: &str = "{{name}}'s upstream";

pub struct Plugin;

impl ChatModel for Plugin {
    fn info() -> ModelInfo {
        ModelInfo { name: "{{name}}".into() }
    }

    fn reply(request: ChatRequest) -> Result<String, PluginError> {
        check_message(&request)?;
        let Some(upstream) = upstream_request(&request, false, None)? else {
            return Ok(format!("{} heard you say: {}", request.to_name, request.message.trim()));
        };
        let response = check_status(UPSTREAM, upstream.send()?)?;
        let answer = parse_json(UPSTREAM, &response)?;
        answer["choices"][0]["message"]["content"]
            .as_str()
            .map(|text| text.trim().to_owned())
            .filter(|text| !text.is_empty())
            .ok_or_else(|| PluginError::BadResponse(format!("{UPSTREAM} sent no reply: {answer}")))
    }
}

impl ChatStream for Plugin {
    fn start(request: ChatRequest, generation: Generation) -> Result<StreamStart, PluginError> {
        check_message(&request)?;
        let upstream = upstream_request(&request, true, Some(&generation))?.ok_or_else(|| {
            PluginError::Misconfigured("streaming needs an upstream: set `base_url` (and `model`)".into())
        })?;
        Ok(StreamStart { request: upstream.into_contract()?, framing: Framing::ServerSentEvents })
    }

    /// Each event is a chunk `{"model", "choices": [{"delta": {"content"}, "finish_reason"}], "usage"}`;
    /// the last is `[DONE]`.
    fn decode(events: Vec<String>) -> Result<Vec<StreamPart>, PluginError> {
        let mut parts = Vec::new();
        for event in events {
            if event.trim() == "[DONE]" {
                parts.push(StreamPart::Done(None));
                continue;
            }
            let chunk: Value = serde_json::from_str(&event).map_err(|e| {
                PluginError::BadResponse(format!("{UPSTREAM} sent a chunk that is not JSON ({e})"))
            })?;
            if let Some(error) = chunk.get("error") {
                return Err(PluginError::Unavailable(format!("{UPSTREAM} reported an error: {error}")));
            }
            let choice = &chunk["choices"][0];
            if let Some(text) = choice["delta"]["content"].as_str().filter(|t| !t.is_empty()) {
                parts.push(StreamPart::Delta(text.to_owned()));
            }
            if let Some(usage) = chunk.get("usage").filter(|u| u.is_object()) {
                let count = |key: &str| usage[key].as_u64().and_then(|n| u32::try_from(n).ok());
                let usage = Usage { input_tokens: count("prompt_tokens"), output_tokens: count("completion_tokens") };
                parts.push(StreamPart::Usage(usage));
            }
            if let Some(reason) = choice["finish_reason"].as_str() {
                parts.push(StreamPart::Done(Some(reason.to_owned())));
            }
        }
        Ok(parts)
    }

    fn refusal(response: Response) -> PluginError {
        refusal(UPSTREAM, response)
    }
}

fn check_message(request: &ChatRequest) -> Result<(), PluginError> {
    if request.message.trim().is_empty() {
        return Err(PluginError::InvalidInput("the message is empty".into()));
    }
    Ok(())
}

/// The chat-completions request, or `None` when no `base_url` is set.
fn upstream_request(
    request: &ChatRequest,
    stream: bool,
    generation: Option<&Generation>,
) -> Result<Option<Request>, PluginError> {
    let Some(base_url) = config::get("base_url").filter(|u| !u.is_empty()) else { return Ok(None) };
    let system = format!(
        "You are {}, talking with {}. Answer with {}'s next line only.",
        request.to_name, request.from_name, request.to_name
    );
    let mut messages = vec![json!({"role": "system", "content": system})];
    for entry in &request.history {
        let role = if entry.name == request.to_name { "assistant" } else { "user" };
        messages.push(json!({"role": role, "content": entry.message}));
    }
    messages.push(json!({"role": "user", "content": request.message}));
    let mut body = json!({"model": config::get_or("model", "gpt-4o-mini"), "messages": messages, "stream": stream});
    if let Some(g) = generation {
        if let Some(max_tokens) = g.max_tokens {
            body["max_tokens"] = json!(max_tokens);
        }
        if let Some(temperature) = g.temperature {
            body["temperature"] = json!(temperature);
        }
        if !g.stop.is_empty() {
            body["stop"] = json!(g.stop);
        }
    }
    let mut upstream = Request::post(join_url(&base_url, "chat/completions")).json(&body);
    if let Some(key) = config::get("api_key").filter(|k| !k.is_empty()) {
        upstream = upstream.bearer(&key);
    }
    Ok(Some(upstream))
}

parlance_sdk::export_streaming_chat_model!(Plugin);
