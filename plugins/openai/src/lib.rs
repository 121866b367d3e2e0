//! `openai`: a paraphrase provider for any OpenAI-compatible chat-completions API (OpenRouter, OpenAI,
//! vLLM, Ollama, llama.cpp).
//!
//! Settings: `base_url` (required), `model` (the default model), `api_key` (secret; optional for
//! local servers), `prompt_template` with a `{text}` placeholder, `system_prompt`, `temperature`,
//! `max_tokens`, `timeout_ms`, and OpenRouter's `referer` and `title` headers. Its health probe lists
//! the upstream's models (`GET {base_url}/models`) and looks for the default model. Several candidates
//! (0.1.3's `candidates`) come from one request with `n`, or one request per candidate with its own
//! `seed` where the upstream refuses `n`.

use parlance_openai_compat::{Client, Message, render};
use parlance_sdk::PluginError;
use parlance_sdk::candidates::{Candidate, Candidates};
use parlance_sdk::config;
use parlance_sdk::probe::Probe;
use parlance_sdk::provider::{ParaphraseRequest, ParaphraseResponse, Provider, ProviderInfo};

const DEFAULT_SYSTEM_PROMPT: &str = "You rewrite text so that it says the same thing in different words. \
     Keep the meaning, the language, the tone and roughly the length. Answer with the rewritten text only: \
     no preamble, no quotes, no explanation.";
const DEFAULT_TEMPLATE: &str = "Paraphrase this text:\n\n{text}";

pub struct OpenAi;

fn default_model() -> String {
    config::get("model").unwrap_or_else(|| "gpt-4o-mini".into())
}

impl Provider for OpenAi {
    fn info() -> ProviderInfo {
        ProviderInfo { name: "OpenAI-compatible chat completions".into(), default_model: default_model() }
    }

    fn paraphrase(request: ParaphraseRequest) -> Result<ParaphraseResponse, PluginError> {
        let completion = Client::from_config()?.complete(&request.model, &messages(&request.text)?)?;
        Ok(ParaphraseResponse {
            text: clean(&completion.content),
            model: completion.model.unwrap_or(request.model),
        })
    }
}

impl Candidates for OpenAi {
    fn paraphrase_candidates(text: String, model: String, count: u32) -> Result<Vec<Candidate>, PluginError> {
        let completions = Client::from_config()?.complete_many(&model, &messages(&text)?, count)?;
        Ok(completions
            .into_iter()
            .map(|c| Candidate { text: clean(&c.content), model: c.model.unwrap_or_else(|| model.clone()) })
            .collect())
    }
}

/// The prompt for `text`, from the settings.
fn messages(text: &str) -> Result<[Message; 2], PluginError> {
    if text.trim().is_empty() {
        return Err(PluginError::InvalidInput("the text is empty".into()));
    }
    let system = config::get_or("system_prompt", DEFAULT_SYSTEM_PROMPT);
    let template = config::get_or("prompt_template", DEFAULT_TEMPLATE);
    Ok([Message::system(system), Message::user(render(&template, &[("text", text)]))])
}

/// Models often wrap the answer in quotes or label it despite the instructions; both are removed.
fn clean(answer: &str) -> String {
    let mut text = answer.trim();
    for label in ["Paraphrase:", "Paraphrased text:", "Rewritten text:"] {
        if let Some(rest) = text.strip_prefix(label) {
            text = rest.trim_start();
        }
    }
    for (open, close) in [('"', '"'), ('“', '”'), ('\'', '\'')] {
        if text.len() > 2
            && text.starts_with(open)
            && text.ends_with(close)
            && text[open.len_utf8()..].find(close) == Some(text.len() - open.len_utf8() - close.len_utf8())
        {
            text = &text[open.len_utf8()..text.len() - close.len_utf8()];
        }
    }
    text.trim().to_owned()
}

/// Whether the upstream answers and lists the default model.
impl Probe for OpenAi {
    fn check() -> Result<String, PluginError> {
        Client::from_config()?.probe(&default_model())
    }
}

parlance_sdk::export_provider!(OpenAi);
parlance_sdk::export_probe!(OpenAi);
parlance_sdk::export_candidates!(OpenAi);

#[cfg(test)]
mod tests {
    use super::clean;

    #[test]
    fn cleans_wrapping() {
        assert_eq!(clean("\"A quick fox.\""), "A quick fox.");
        assert_eq!(clean("Paraphrase: A quick fox."), "A quick fox.");
        assert_eq!(clean("“Hi”"), "Hi");
        assert_eq!(clean("\"a\" and \"b\""), "\"a\" and \"b\"");
        assert_eq!(clean("plain"), "plain");
    }
}
