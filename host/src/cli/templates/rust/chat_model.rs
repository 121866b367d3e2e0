//! `{{name}}`: a Parlance chat model in Rust. The character answers by repeating the user's message
//! back; replace `reply` with a call to your model (`parlance_sdk::http::Request`).

use parlance_sdk::PluginError;
use parlance_sdk::chat_model::{ChatModel, ChatRequest, ModelInfo};

pub struct Plugin;

impl ChatModel for Plugin {
    fn info() -> ModelInfo {
        ModelInfo { name: "{{name}}".into() }
    }

    fn reply(request: ChatRequest) -> Result<String, PluginError> {
        if request.message.trim().is_empty() {
            return Err(PluginError::InvalidInput("the message is empty".into()));
        }
        Ok(format!("{} heard you say: {}", request.to_name, request.message.trim()))
    }
}

parlance_sdk::export_chat_model!(Plugin);
