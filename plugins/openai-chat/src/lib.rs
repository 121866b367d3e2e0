//! `openai-chat`: a chat model for any OpenAI-compatible chat-completions API. The genre, the
//! character and the situation become the system prompt; the dialog becomes user and assistant
//! turns (the character's lines are the assistant's).
//!
//! Settings: `base_url` (required), `model` (required), `api_key` (secret), `system_prompt` with the
//! placeholders `{character}`, `{user}`, `{genre}` and `{situation}`, `max_history` (most recent
//! entries sent, default 50), `temperature`, `max_tokens`, `timeout_ms`. Its health probe lists the
//! upstream's models (`GET {base_url}/models`) and looks for `model`. It streams (`chat-stream`,
//! WIT 0.1.3): `stream: true` with the usage asked for (`stream_usage = false` for an upstream that
//! refuses `stream_options`), each server-sent chunk decoded into deltas, usage and the finish reason.

use parlance_openai_compat::{Chunk, Client, Message, Options, parse_chunk, render};
use parlance_sdk::chat_model::{
    ChatModel, ChatRequest, ChatStream, Framing, Generation, ModelInfo, StreamPart, StreamStart, Usage,
};
use parlance_sdk::http::Response;
use parlance_sdk::probe::Probe;
use parlance_sdk::{PluginError, config, upstream};

const DEFAULT_SYSTEM_PROMPT: &str = "You are {character}, a character in a {genre} story, talking with {user}. \
     {situation} Stay in character. Answer with {character}'s next line only, without your name or quotes.";

pub struct OpenAiChat;

impl ChatModel for OpenAiChat {
    fn info() -> ModelInfo {
        ModelInfo { name: "OpenAI-compatible chat completions".into() }
    }

    fn reply(request: ChatRequest) -> Result<String, PluginError> {
        let client = Client::from_config()?;
        let model = config::require("model")?;
        let max_history = config::parse_or("max_history", 50usize)?;
        let completion = client.complete(&model, &messages(&request, max_history))?;
        Ok(completion.content)
    }
}

/// Streams the reply: chat completions with `stream: true`, read as server-sent events, one
/// `chat.completion.chunk` each, until `[DONE]`.
impl ChatStream for OpenAiChat {
    fn start(request: ChatRequest, generation: Generation) -> Result<StreamStart, PluginError> {
        let client = Client::from_config()?;
        let model = config::require("model")?;
        let max_history = config::parse_or("max_history", 50usize)?;
        let options = Options {
            max_tokens: generation.max_tokens,
            temperature: generation.temperature.map(f64::from),
            top_p: generation.top_p.map(f64::from),
            stop: generation.stop,
            seed: generation.seed,
            user: generation.user,
        };
        let request = client.stream_request(&model, &messages(&request, max_history), &options)?;
        Ok(StreamStart { request: request.into_contract()?, framing: Framing::ServerSentEvents })
    }

    fn decode(events: Vec<String>) -> Result<Vec<StreamPart>, PluginError> {
        let mut parts = Vec::with_capacity(events.len());
        let mut model_named = false;
        for event in &events {
            match parse_chunk(event)? {
                Chunk::Done => parts.push(StreamPart::Done(None)),
                Chunk::Part { delta, finish_reason, model, usage } => {
                    if let Some(model) = model.filter(|_| !model_named) {
                        model_named = true;
                        parts.push(StreamPart::Model(model));
                    }
                    if let Some(text) = delta {
                        parts.push(StreamPart::Delta(text));
                    }
                    if let Some((input_tokens, output_tokens)) = usage {
                        parts.push(StreamPart::Usage(Usage { input_tokens, output_tokens }));
                    }
                    // The reply is complete here; the usage chunk and `[DONE]` may still follow,
                    // and the host reads them before it ends the stream.
                    if let Some(reason) = finish_reason {
                        parts.push(StreamPart::Done(Some(reason)));
                    }
                }
            }
        }
        Ok(parts)
    }

    fn refusal(response: Response) -> PluginError {
        upstream::refusal("the chat-completions upstream", response)
    }
}

pub fn messages(request: &ChatRequest, max_history: usize) -> Vec<Message> {
    let template = config::get_or("system_prompt", DEFAULT_SYSTEM_PROMPT);
    let situation = request.situation.as_deref().unwrap_or("").trim();
    let system = render(
        &template,
        &[
            ("character", &request.to_name),
            ("user", &request.from_name),
            ("genre", &request.genre),
            ("situation", situation),
        ],
    );
    let mut out = vec![Message::system(system.split_whitespace().collect::<Vec<_>>().join(" "))];
    let start = request.history.len().saturating_sub(max_history);
    for entry in &request.history[start..] {
        out.push(if entry.name == request.to_name {
            Message::assistant(entry.message.clone())
        } else if entry.name == request.from_name {
            Message::user(entry.message.clone())
        } else {
            // A third speaker: keep who said it, since the roles cannot.
            Message::user(format!("{}: {}", entry.name, entry.message))
        });
    }
    out.push(Message::user(request.message.clone()));
    out
}

/// Whether the upstream answers and lists the configured model.
impl Probe for OpenAiChat {
    fn check() -> Result<String, PluginError> {
        Client::from_config()?.probe(&config::require("model")?)
    }
}

parlance_sdk::export_streaming_chat_model!(OpenAiChat);
parlance_sdk::export_probe!(OpenAiChat);

#[cfg(test)]
mod tests {
    use super::*;
    use parlance_sdk::chat_model::DialogEntry;

    #[test]
    fn maps_history_to_roles() {
        let request = ChatRequest {
            history: vec![
                DialogEntry { index: 0, name: "Ann".into(), message: "Hi".into() },
                DialogEntry { index: 1, name: "Mia".into(), message: "Hello, Ann".into() },
                DialogEntry { index: 2, name: "Bob".into(), message: "Me too".into() },
            ],
            message: "How are you?".into(),
            from_name: "Ann".into(),
            to_name: "Mia".into(),
            situation: None,
            genre: "Mystery".into(),
        };
        let m = messages(&request, 10);
        assert_eq!(m[0].role, "system");
        assert!(
            m[0].content.starts_with("You are Mia, a character in a Mystery story, talking with Ann. Stay")
        );
        let roles: Vec<&str> = m.iter().map(|m| m.role).collect();
        assert_eq!(roles, ["system", "user", "assistant", "user", "user"]);
        assert_eq!(m[3].content, "Bob: Me too");
        assert_eq!(messages(&request, 1).len(), 3);
    }
}
