//! The `[chat]` section: the chat model, the replies' defaults, the input limits and how long a streamed
//! reply may take.

use crate::config::setting;
use crate::config::{Kind, Section, Setting};

/// The reply when the model fails, as the seed gives it.
pub const DEFAULT_RESPONSE: &str = "The AI model is currently unavailable. Please try again later.";
/// The genre when a chat names none, as the seed gives it.
pub const DEFAULT_GENRE: &str = "Romance";

#[derive(Clone, Debug)]
pub struct ChatConfig {
    /// The chat-model plugin id that writes replies.
    pub model: String,
    /// The reply when the model fails.
    pub default_response: String,
    /// The genre when a request names none.
    pub default_genre: String,
    pub max_message_chars: usize,
    pub max_name_chars: usize,
    pub max_situation_chars: usize,
    /// Most entries a dialog may hold; a chat or PUT beyond it is refused.
    pub max_history_entries: usize,
    /// Longest a streamed reply may take, start to end; a reply cut by it is not stored.
    pub stream_timeout_secs: u64,
    /// Seconds between keep-alive comments while a streamed reply's upstream is silent.
    pub stream_keepalive_secs: u64,
}

impl Default for ChatConfig {
    fn default() -> Self {
        ChatConfig {
            model: crate::plugins::defaults::FORM_CHAT_MODEL.into(),
            default_response: DEFAULT_RESPONSE.into(),
            default_genre: DEFAULT_GENRE.into(),
            max_message_chars: 4000,
            max_name_chars: 100,
            max_situation_chars: 2000,
            max_history_entries: 10_000,
            stream_timeout_secs: 300,
            stream_keepalive_secs: 15,
        }
    }
}

impl Section for ChatConfig {
    const NAME: &'static str = "chat";
    const ABOUT: &'static str = "The chat service: its model, defaults and input limits";

    fn settings() -> &'static [Setting<Self>] {
        static SETTINGS: &[Setting<ChatConfig>] = &[
            setting!(
                "model",
                Kind::Name,
                |c| c.model,
                env = "PARLANCE_CHAT_MODEL",
                "The chat-model plugin id that writes replies"
            ),
            setting!(
                "default_response",
                Kind::Name,
                |c| c.default_response,
                env = "DEFAULT_RESPONSE",
                "The chat reply when the model fails"
            ),
            setting!(
                "default_genre",
                Kind::Name,
                |c| c.default_genre,
                env = "DEFAULT_GENRE",
                "The genre when a chat request names none"
            ),
            setting!(
                "max_message_chars",
                Kind::Int { min: 1, max: 10_000_000 },
                |c| c.max_message_chars,
                "Longest chat message, in characters"
            ),
            setting!(
                "max_name_chars",
                Kind::Int { min: 1, max: 10_000 },
                |c| c.max_name_chars,
                "Longest speaker name or genre, in characters"
            ),
            setting!(
                "max_situation_chars",
                Kind::Int { min: 1, max: 10_000_000 },
                |c| c.max_situation_chars,
                "Longest `situation`, in characters"
            ),
            setting!(
                "max_history_entries",
                Kind::Int { min: 1, max: 10_000_000 },
                |c| c.max_history_entries,
                "Most entries a dialog may hold"
            ),
            setting!(
                "stream_timeout_secs",
                Kind::Int { min: 1, max: 86_400 },
                |c| c.stream_timeout_secs,
                env = "STREAM_TIMEOUT_SECS",
                "Longest a streamed chat reply may take from start to end; a reply cut off by it ends with an `error` event and is not stored"
            ),
            setting!(
                "stream_keepalive_secs",
                Kind::Int { min: 1, max: 3600 },
                |c| c.stream_keepalive_secs,
                "Seconds between keep-alive comments on a streamed chat reply while its upstream is silent"
            ),
        ];
        SETTINGS
    }
}
