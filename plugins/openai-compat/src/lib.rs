//! The OpenAI chat-completions protocol, as spoken by OpenAI, OpenRouter, vLLM, Ollama and llama.cpp:
//! one request/response round trip with every upstream failure mapped to its own `PluginError`.

use parlance_sdk::http::{Request, join_url};
use parlance_sdk::upstream::{check_status, parse_json, snippet};
use parlance_sdk::{PluginError, RateLimit, config, usage};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::time::Duration;

/// One message of the conversation sent upstream.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Message {
    pub role: &'static str,
    pub content: String,
}

impl Message {
    pub fn system(content: impl Into<String>) -> Self {
        Message { role: "system", content: content.into() }
    }
    pub fn user(content: impl Into<String>) -> Self {
        Message { role: "user", content: content.into() }
    }
    pub fn assistant(content: impl Into<String>) -> Self {
        Message { role: "assistant", content: content.into() }
    }
}

/// What the upstream answered.
#[derive(Clone, Debug, PartialEq)]
pub struct Completion {
    pub content: String,
    /// The model the upstream says it used.
    pub model: Option<String>,
}

/// The connection settings every OpenAI-compatible plugin reads from its config: `base_url`,
/// `api_key` (a secret; optional for local servers), `timeout_ms`, `temperature`, `max_tokens`, and
/// OpenRouter's optional attribution headers `referer` and `title`.
#[derive(Clone, Debug)]
pub struct Client {
    pub base_url: String,
    pub api_key: Option<String>,
    pub timeout: Duration,
    pub temperature: Option<f64>,
    pub max_tokens: Option<u32>,
    pub referer: Option<String>,
    pub title: Option<String>,
}

impl Client {
    pub fn from_config() -> Result<Client, PluginError> {
        Ok(Client {
            base_url: config::require("base_url")?,
            api_key: config::get("api_key").filter(|k| !k.is_empty()),
            timeout: Duration::from_millis(config::parse_or("timeout_ms", 60_000u64)?),
            temperature: config::get("temperature")
                .map(|_| config::parse_or("temperature", 0.7f64))
                .transpose()?,
            max_tokens: config::get("max_tokens")
                .map(|_| config::parse_or("max_tokens", 512u32))
                .transpose()?,
            referer: config::get("referer"),
            title: config::get("title"),
        })
    }

    /// Sends one chat-completions request and returns the first choice's text.
    pub fn complete(&self, model: &str, messages: &[Message]) -> Result<Completion, PluginError> {
        let request = self.completion_request(model, messages, &Options::default(), None, false)?;
        let response = check_status("the chat-completions upstream", request.send()?)?;
        // The usual answer is read straight into the fields it needs; anything else (an in-band
        // error, no choices, no text) is read again as a whole to say what is wrong with it.
        if let Ok(mut answer) = serde_json::from_slice::<CompletionAnswer>(&response.body)
            && answer.error.is_none()
            && let Some(counts) = Some(answer.usage.take())
            && let Some(completion) = answer.completion()
        {
            if let Some(counts) = counts {
                usage::report(counts.prompt_tokens, counts.completion_tokens);
            }
            return Ok(completion);
        }
        let value = parse_json("the chat-completions upstream", &response)?;
        usage::report_openai(&value);
        parse_completion(&value)
    }

    /// Up to `count` completions of the same messages: one request asking for `count` choices (`n`);
    /// where the upstream refuses `n` (an invalid-request answer) or gives fewer choices, one more
    /// request per missing completion, each with its own `seed` (1, 2, …) so that a deterministic
    /// upstream still varies.
    pub fn complete_many(
        &self,
        model: &str,
        messages: &[Message],
        count: u32,
    ) -> Result<Vec<Completion>, PluginError> {
        let mut found = if count > 1 {
            match self.completions(model, messages, &Options::default(), Some(count)) {
                Ok(found) => found,
                Err(PluginError::InvalidInput(_)) => Vec::new(),
                Err(e) => return Err(e),
            }
        } else {
            Vec::new()
        };
        let mut seed = 0;
        while found.len() < count as usize {
            seed += 1;
            let options = Options { seed: (count > 1).then_some(seed), ..Options::default() };
            found.extend(self.completions(model, messages, &options, None)?.into_iter().take(1));
        }
        found.truncate(count as usize);
        Ok(found)
    }

    /// Every choice of one request.
    fn completions(
        &self,
        model: &str,
        messages: &[Message],
        options: &Options,
        choices: Option<u32>,
    ) -> Result<Vec<Completion>, PluginError> {
        let request = self.completion_request(model, messages, options, choices, false)?;
        let response = check_status("the chat-completions upstream", request.send()?)?;
        let value = parse_json("the chat-completions upstream", &response)?;
        usage::report_openai(&value);
        parse_completions(&value)
    }

    /// The health probe: lists the upstream's models (`GET {base_url}/models`) and says whether
    /// `model` is among them.
    pub fn probe(&self, model: &str) -> Result<String, PluginError> {
        let response = check_status(
            "the models endpoint",
            self.send(Request::get(join_url(&self.base_url, "models")))?,
        )?;
        let value = parse_json("the models endpoint", &response)?;
        check_model_listed(&value, model)
    }

    /// Sends `request` as every JSON call goes.
    fn send(&self, request: Request) -> Result<parlance_sdk::http::Response, PluginError> {
        Ok(self.authorized(request, "application/json").send()?)
    }

    /// `request` with what every call carries: what it accepts, the timeout, the key and OpenRouter's
    /// attribution headers.
    fn authorized(&self, request: Request, accept: &str) -> Request {
        let mut request = request.header("accept", accept).timeout(self.timeout);
        if let Some(key) = &self.api_key {
            request = request.bearer(key);
        }
        if let Some(referer) = &self.referer {
            request = request.header("http-referer", referer);
        }
        if let Some(title) = &self.title {
            request = request.header("x-title", title);
        }
        request
    }

    /// A chat-completions request with the client's `options` over the plugin's settings, whole or
    /// streamed (`stream: true`, with `stream_options.include_usage` unless `stream_usage = false`
    /// for an upstream that refuses it).
    fn completion_request(
        &self,
        model: &str,
        messages: &[Message],
        options: &Options,
        choices: Option<u32>,
        stream: bool,
    ) -> Result<Request, PluginError> {
        let include_usage = stream && config::parse_or("stream_usage", true)?;
        let body = CompletionRequest {
            model,
            messages,
            temperature: options.temperature.or(self.temperature),
            max_tokens: options.max_tokens.or(self.max_tokens),
            top_p: options.top_p,
            stop: &options.stop,
            seed: options.seed,
            user: options.user.as_deref(),
            n: choices,
            stream,
            stream_options: include_usage.then_some(StreamOptions { include_usage: true }),
        };
        let body = serde_json::to_vec(&body)
            .map_err(|e| PluginError::Internal(format!("cannot encode the request: {e}")))?;
        let request = Request::post(join_url(&self.base_url, "chat/completions"))
            .body(body)
            .header("content-type", "application/json");
        Ok(self.authorized(request, if stream { "text/event-stream" } else { "application/json" }))
    }

    /// The request of a streamed completion, for the host to send.
    pub fn stream_request(
        &self,
        model: &str,
        messages: &[Message],
        options: &Options,
    ) -> Result<Request, PluginError> {
        self.completion_request(model, messages, options, None, true)
    }
}

/// The fields of a chat-completions answer that a completion is made of; the rest is skipped unread.
#[derive(Deserialize)]
struct CompletionAnswer {
    #[serde(default)]
    choices: Vec<AnswerChoice>,
    model: Option<String>,
    #[serde(default, deserialize_with = "present")]
    error: Option<()>,
    usage: Option<AnswerUsage>,
}

/// The token counts of an answer, as the upstream reported them.
#[derive(Deserialize)]
struct AnswerUsage {
    prompt_tokens: Option<u32>,
    completion_tokens: Option<u32>,
}

#[derive(Deserialize)]
struct AnswerChoice {
    message: Option<AnswerMessage>,
    text: Option<String>,
}

#[derive(Deserialize)]
struct AnswerMessage {
    content: Option<String>,
}

/// `Some(())` for any value but `null`, without building it.
fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<()>, D::Error> {
    let value: Option<serde::de::IgnoredAny> = Deserialize::deserialize(d)?;
    Ok(value.map(|_| ()))
}

impl CompletionAnswer {
    /// The first choice's text, as [`parse_completion`] reads it, when it has one.
    fn completion(self) -> Option<Completion> {
        let choice = self.choices.into_iter().next()?;
        let content = choice.message.and_then(|m| m.content).or(choice.text)?;
        let content = content.trim();
        (!content.is_empty()).then(|| Completion { content: content.to_owned(), model: self.model })
    }
}

/// Reads a `GET /models` answer (`{"data": [{"id": ...}, ...]}`) for `model`.
pub fn check_model_listed(value: &Value, model: &str) -> Result<String, PluginError> {
    let ids: Vec<&str> = value
        .get("data")
        .and_then(Value::as_array)
        .ok_or_else(|| {
            PluginError::BadResponse(format!(
                "no `data` list in the models answer: {}",
                snippet(&value.to_string())
            ))
        })?
        .iter()
        .filter_map(|m| m.get("id").and_then(Value::as_str))
        .collect();
    if ids.contains(&model) {
        Ok(format!("model {model} is available"))
    } else {
        Err(PluginError::Misconfigured(format!(
            "model {model} is not among the {} models the upstream lists",
            ids.len()
        )))
    }
}

/// Reads a chat-completions response. Some gateways (OpenRouter among them) answer HTTP 200 with an
/// `error` object instead of choices; that is mapped by its code like an HTTP status would be.
pub fn parse_completion(value: &Value) -> Result<Completion, PluginError> {
    if let Some(error) = in_band_error(value) {
        return Err(error);
    }
    let choice = value.get("choices").and_then(Value::as_array).and_then(|c| c.first()).ok_or_else(|| {
        PluginError::BadResponse(format!("no `choices` in the answer: {}", snippet(&value.to_string())))
    })?;
    let content = choice
        .pointer("/message/content")
        .and_then(Value::as_str)
        .or_else(|| choice.get("text").and_then(Value::as_str))
        .ok_or_else(|| {
            PluginError::BadResponse(format!(
                "the first choice has no text: {}",
                snippet(&choice.to_string())
            ))
        })?;
    let content = content.trim();
    if content.is_empty() {
        let reason = choice.get("finish_reason").and_then(Value::as_str).unwrap_or("unknown");
        return Err(PluginError::BadResponse(format!(
            "the upstream returned an empty message (finish_reason: {reason})"
        )));
    }
    Ok(Completion {
        content: content.to_owned(),
        model: value.get("model").and_then(Value::as_str).map(str::to_owned),
    })
}

/// Every choice with text of a chat-completions response (several when it was asked for `n`); fails
/// as [`parse_completion`] does when the first has none.
pub fn parse_completions(value: &Value) -> Result<Vec<Completion>, PluginError> {
    let first = parse_completion(value)?;
    let rest: Vec<Completion> = value
        .get("choices")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .skip(1)
        .filter_map(|choice| {
            let content = choice.pointer("/message/content").or_else(|| choice.get("text"))?.as_str()?.trim();
            (!content.is_empty())
                .then(|| Completion { content: content.to_owned(), model: first.model.clone() })
        })
        .collect();
    Ok(std::iter::once(first).chain(rest).collect())
}

/// The error object some gateways (OpenRouter among them) send in place of an answer, with HTTP 200 or
/// inside a stream, mapped by its code as an HTTP status would be.
pub fn in_band_error(value: &Value) -> Option<PluginError> {
    let error = value.get("error").filter(|e| !e.is_null())?;
    let message = error
        .get("message")
        .and_then(Value::as_str)
        .map(snippet)
        .unwrap_or_else(|| snippet(&error.to_string()));
    let message = format!("the upstream reported an error: {message}");
    let code = error.get("code").and_then(|c| c.as_u64().or_else(|| c.as_str().and_then(|s| s.parse().ok())));
    Some(match code {
        Some(401 | 403) => PluginError::Unauthorized(message),
        Some(429) => PluginError::RateLimited(RateLimit { retry_after_secs: None, message }),
        Some(408 | 504) => PluginError::Timeout(message),
        Some(400..=499) => PluginError::InvalidInput(message),
        _ => PluginError::Unavailable(message),
    })
}

/// What a client asked of one generation, over the plugin's own settings.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Options {
    pub max_tokens: Option<u32>,
    pub temperature: Option<f64>,
    pub top_p: Option<f64>,
    pub stop: Vec<String>,
    pub seed: Option<i64>,
    pub user: Option<String>,
}

/// A chat-completions request body; what is unset or empty is left out, so a whole completion with
/// no options is `{model, messages}` and the plugin's own settings.
#[derive(Serialize)]
struct CompletionRequest<'a> {
    model: &'a str,
    messages: &'a [Message],
    #[serde(skip_serializing_if = "Option::is_none")]
    temperature: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    max_tokens: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    top_p: Option<f64>,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    stop: &'a [String],
    #[serde(skip_serializing_if = "Option::is_none")]
    seed: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    user: Option<&'a str>,
    /// How many choices to write (OpenAI's `n`), for several candidates.
    #[serde(skip_serializing_if = "Option::is_none")]
    n: Option<u32>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    stream: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    stream_options: Option<StreamOptions>,
}

#[derive(Serialize)]
struct StreamOptions {
    include_usage: bool,
}

/// One event of a streamed completion, as read: `[DONE]`, or a `chat.completion.chunk`.
#[derive(Debug, PartialEq)]
pub enum Chunk {
    Done,
    Part {
        /// The first choice's new text, if any.
        delta: Option<String>,
        finish_reason: Option<String>,
        model: Option<String>,
        /// `(prompt_tokens, completion_tokens)` when the chunk reports usage.
        usage: Option<(Option<u32>, Option<u32>)>,
    },
}

#[derive(Deserialize)]
struct ChunkBody {
    #[serde(default)]
    choices: Vec<ChunkChoice>,
    model: Option<String>,
    usage: Option<ChunkUsage>,
}

#[derive(Deserialize)]
struct ChunkChoice {
    delta: Option<ChunkDelta>,
    finish_reason: Option<String>,
}

#[derive(Deserialize)]
struct ChunkDelta {
    content: Option<String>,
}

#[derive(Deserialize)]
struct ChunkUsage {
    prompt_tokens: Option<u32>,
    completion_tokens: Option<u32>,
}

/// Reads one server-sent event of a streamed completion; an error object or anything that is not a
/// chunk is the matching error.
pub fn parse_chunk(event: &str) -> Result<Chunk, PluginError> {
    if event.trim() == "[DONE]" {
        return Ok(Chunk::Done);
    }
    let bad = |e: &dyn std::fmt::Display| {
        PluginError::BadResponse(format!(
            "a streamed chunk is not a chat-completion chunk ({e}): {}",
            snippet(event)
        ))
    };
    if event.contains("\"error\"") {
        let value: Value = serde_json::from_str(event).map_err(|e| bad(&e))?;
        if let Some(error) = in_band_error(&value) {
            return Err(error);
        }
    }
    let chunk: ChunkBody = serde_json::from_str(event).map_err(|e| bad(&e))?;
    let first = chunk.choices.into_iter().next();
    let (delta, finish_reason) = match first {
        Some(choice) => {
            (choice.delta.and_then(|d| d.content).filter(|c| !c.is_empty()), choice.finish_reason)
        }
        None => (None, None),
    };
    Ok(Chunk::Part {
        delta,
        finish_reason,
        model: chunk.model,
        usage: chunk.usage.map(|u| (u.prompt_tokens, u.completion_tokens)),
    })
}

/// Fills `{name}` placeholders of a template; unknown placeholders are left as written.
pub fn render(template: &str, values: &[(&str, &str)]) -> String {
    let mut out = template.to_owned();
    for (name, value) in values {
        out = out.replace(&format!("{{{name}}}"), value);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_streamed_chunks() {
        let chunk = r#"{"id":"c","object":"chat.completion.chunk","model":"m-1","choices":[{"index":0,"delta":{"content":"Hel"},"finish_reason":null}]}"#;
        assert_eq!(
            parse_chunk(chunk).unwrap(),
            Chunk::Part {
                delta: Some("Hel".into()),
                finish_reason: None,
                model: Some("m-1".into()),
                usage: None
            }
        );
        let last = r#"{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}"#;
        assert!(
            matches!(parse_chunk(last).unwrap(), Chunk::Part { delta: None, finish_reason: Some(r), .. } if r == "stop")
        );
        let usage = r#"{"choices":[],"usage":{"prompt_tokens":5,"completion_tokens":7,"total_tokens":12}}"#;
        assert!(matches!(parse_chunk(usage).unwrap(), Chunk::Part { usage: Some((Some(5), Some(7))), .. }));
        assert_eq!(parse_chunk("[DONE]").unwrap(), Chunk::Done);
        assert!(matches!(parse_chunk("{not json"), Err(PluginError::BadResponse(_))));
        let error = r#"{"error":{"code":429,"message":"slow down"}}"#;
        assert!(matches!(parse_chunk(error), Err(PluginError::RateLimited(_))));
    }

    #[test]
    fn reads_every_choice_with_text() {
        let v = json!({"model": "m-1", "choices": [
            {"message": {"content": " One. "}}, {"message": {"content": "  "}}, {"text": "Two."}
        ]});
        let texts: Vec<String> = parse_completions(&v).unwrap().into_iter().map(|c| c.content).collect();
        assert_eq!(texts, ["One.", "Two."]);
        assert!(parse_completions(&json!({"choices": []})).is_err());
    }

    #[test]
    fn reads_the_first_choice() {
        let v = json!({"model": "m-1", "choices": [{"message": {"role": "assistant", "content": "  Hi there. "}}]});
        assert_eq!(
            parse_completion(&v).unwrap(),
            Completion { content: "Hi there.".into(), model: Some("m-1".into()) }
        );
    }

    #[test]
    fn the_fast_path_reads_what_parse_completion_reads() {
        let fast = |v: Value| {
            let answer: CompletionAnswer = serde_json::from_value(v).unwrap();
            (answer.error.is_none()).then(|| answer.completion()).flatten()
        };
        let ok = json!({"model": "m-1", "choices": [{"message": {"role": "assistant", "content": "  Hi\nthere. "}}], "usage": {"total_tokens": 3}});
        assert_eq!(fast(ok.clone()), Some(parse_completion(&ok).unwrap()));
        let legacy = json!({"choices": [{"text": "Old style."}]});
        assert_eq!(fast(legacy.clone()), Some(parse_completion(&legacy).unwrap()));
        // Everything the slow path reports as an error, the fast path leaves to it.
        for v in [
            json!({"error": {"code": 401, "message": "No auth"}, "choices": [{"message": {"content": "x"}}]}),
            json!({"choices": []}),
            json!({"choices": [{"message": {"content": "  "}}]}),
            json!({"choices": [{"message": {"role": "assistant"}}]}),
        ] {
            assert_eq!(fast(v.clone()), None, "{v}");
            assert!(parse_completion(&v).is_err(), "{v}");
        }
        assert_eq!(fast(json!({"error": null, "choices": [{"text": "a"}]})).unwrap().content, "a");
    }

    #[test]
    fn the_request_body_is_what_the_protocol_expects() {
        let messages = [Message::system("Be brief."), Message::user("Hi")];
        let body = |temperature, max_tokens| {
            let r = CompletionRequest {
                model: "m",
                messages: &messages,
                temperature,
                max_tokens,
                top_p: None,
                stop: &[],
                seed: None,
                user: None,
                n: None,
                stream: false,
                stream_options: None,
            };
            serde_json::to_value(&r).unwrap()
        };
        assert_eq!(
            body(None, None),
            json!({"model": "m", "messages": [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi"}]})
        );
        assert_eq!(body(Some(0.5), Some(64))["temperature"], json!(0.5));
        assert_eq!(body(Some(0.5), Some(64))["max_tokens"], json!(64));
    }

    #[test]
    fn maps_in_band_errors_and_garbage() {
        let e = |v: Value| parse_completion(&v).unwrap_err();
        assert!(matches!(
            e(json!({"error": {"code": 401, "message": "No auth"}})),
            PluginError::Unauthorized(_)
        ));
        assert!(matches!(e(json!({"error": {"code": 429, "message": "slow"}})), PluginError::RateLimited(_)));
        assert!(matches!(e(json!({"error": {"code": 502, "message": "down"}})), PluginError::Unavailable(_)));
        assert!(matches!(e(json!({"choices": []})), PluginError::BadResponse(_)));
        assert!(matches!(e(json!({"choices": [{"message": {"content": ""}}]})), PluginError::BadResponse(_)));
        assert!(matches!(e(json!({"unexpected": true})), PluginError::BadResponse(_)));
    }

    #[test]
    fn finds_the_model_in_the_list() {
        let list = json!({"object": "list", "data": [{"id": "gpt-4o-mini"}, {"id": "llama3.2"}]});
        assert_eq!(check_model_listed(&list, "llama3.2").unwrap(), "model llama3.2 is available");
        assert!(matches!(check_model_listed(&list, "gpt-5"), Err(PluginError::Misconfigured(_))));
        assert!(matches!(check_model_listed(&json!({"models": []}), "x"), Err(PluginError::BadResponse(_))));
    }

    #[test]
    fn renders_templates() {
        assert_eq!(render("Say {text}, not {other}", &[("text", "hi")]), "Say hi, not {other}");
    }
}
