//! `openai-chat`: a chat model for any OpenAI-compatible chat-completions API. The genre, the
//! character and the situation become the system prompt; the dialog becomes user and assistant
//! turns (the character's lines are the assistant's).
//!
//! Settings: `base_url` (required), `model` (required), `api_key` (secret), `system_prompt` with the
//! placeholders `{character}`, `{user}`, `{genre}` and `{situation}`, `max_history` (most recent
//! entries sent, default 50), `temperature`, `max_tokens`, `timeout_ms`. Its health probe lists the
//! upstream's models (`GET {base_url}/models`) and looks for `model`.

use parlance_openai_compat::{Client, Message, render};
use parlance_sdk::chat_model::{ChatModel, ChatRequest, ModelInfo};
use parlance_sdk::probe::Probe;
use parlance_sdk::{PluginError, config};

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

parlance_sdk::export_chat_model!(OpenAiChat);
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
