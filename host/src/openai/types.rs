//! The OpenAI wire shapes this surface reads and writes: the chat-completion request, the completion
//! and its streamed chunks, the model list and the error body, as the official clients expect them.

use crate::plugins::api::Usage;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// `POST /v1/chat/completions`. Fields OpenAI defines and this surface does not apply are refused
/// when they ask for something (`tools`, `functions`, a non-text `response_format`, `logprobs`,
/// audio), and otherwise ignored (see the README).
#[derive(Debug, Deserialize, ToSchema)]
pub struct CompletionRequest {
    /// A chat-model plugin id, as `GET /v1/models` lists them.
    pub model: String,
    /// The conversation, oldest first; the last message is the user's.
    pub messages: Vec<RequestMessage>,
    /// Answer with server-sent `chat.completion.chunk`s, ending with `data: [DONE]`.
    #[serde(default)]
    pub stream: Option<bool>,
    pub stream_options: Option<StreamOptions>,
    /// The most tokens to generate (the older name of `max_completion_tokens`).
    #[schema(minimum = 1, maximum = 4294967295_u64)]
    pub max_tokens: Option<u32>,
    /// The most tokens to generate; wins over `max_tokens`.
    #[schema(minimum = 1, maximum = 4294967295_u64)]
    pub max_completion_tokens: Option<u32>,
    #[schema(minimum = 0, maximum = 2)]
    pub temperature: Option<f64>,
    #[schema(minimum = 0, maximum = 1)]
    pub top_p: Option<f64>,
    /// Up to 4 sequences where the model stops.
    pub stop: Option<Stop>,
    /// How many choices: only 1.
    #[schema(minimum = 1, maximum = 1)]
    pub n: Option<u32>,
    pub seed: Option<i64>,
    /// The end user, passed to the upstream; with `[openai] store_dialogs`, the user whose dialog the
    /// exchange is appended to.
    pub user: Option<String>,
    /// Not supported: any tool is refused with 400.
    #[schema(value_type = Option<Vec<Object>>, max_items = 0)]
    pub tools: Option<serde_json::Value>,
    /// Not supported: any function is refused with 400.
    #[schema(value_type = Option<Vec<Object>>, max_items = 0)]
    pub functions: Option<serde_json::Value>,
    /// Only `{"type": "text"}`.
    pub response_format: Option<ResponseFormat>,
    /// Only `false`: log probabilities are not available.
    #[schema(value_type = Option<bool>)]
    pub logprobs: Option<serde_json::Value>,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct StreamOptions {
    /// Send a last chunk with the token counts (empty `choices`) before `[DONE]`, when the upstream
    /// reported them.
    #[serde(default)]
    pub include_usage: Option<bool>,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ResponseFormat {
    #[schema(pattern = "^text$")]
    pub r#type: String,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(untagged)]
pub enum Stop {
    One(String),
    /// At most 4.
    Many(Vec<String>),
}

impl Stop {
    pub fn into_vec(self) -> Vec<String> {
        match self {
            Stop::One(s) => vec![s],
            Stop::Many(v) => v,
        }
    }
}

/// One message of the conversation. Text only: `tool` messages, tool calls and non-text parts are
/// refused with 400.
#[derive(Debug, Deserialize, ToSchema)]
pub struct RequestMessage {
    /// `system` and `developer` messages become the chat request's situation, `user` and `assistant`
    /// its dialog.
    #[schema(pattern = "^(system|developer|user|assistant)$")]
    pub role: String,
    /// A string, or text parts whose texts are joined.
    pub content: Option<Content>,
    /// The speaker's name; ignored.
    pub name: Option<String>,
    /// Not supported.
    #[schema(value_type = Option<Vec<Object>>, max_items = 0)]
    pub tool_calls: Option<serde_json::Value>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(untagged)]
pub enum Content {
    Text(String),
    Parts(Vec<ContentPart>),
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ContentPart {
    /// Only `text`: images, audio and files are refused with 400.
    #[schema(pattern = "^text$")]
    pub r#type: String,
    pub text: Option<String>,
}

/// `chat.completion`.
#[derive(Debug, Serialize, ToSchema)]
pub struct Completion {
    pub id: String,
    /// `chat.completion`.
    pub object: &'static str,
    /// Unix seconds.
    pub created: u64,
    /// The chat-model plugin id the request named.
    pub model: String,
    pub choices: Vec<Choice>,
    /// Token counts, only when the upstream reported them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub usage: Option<CompletionUsage>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Choice {
    pub index: u32,
    pub message: ResponseMessage,
    /// The upstream's finish reason (`stop`, `length`), `stop` when it gave none.
    pub finish_reason: String,
    #[schema(value_type = Option<Object>)]
    pub logprobs: Option<()>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ResponseMessage {
    /// `assistant`.
    pub role: &'static str,
    pub content: String,
    #[schema(value_type = Option<String>)]
    pub refusal: Option<()>,
}

/// Token counts as the upstream reported them; a count it did not report is absent.
#[derive(Clone, Copy, Debug, Serialize, ToSchema)]
pub struct CompletionUsage {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prompt_tokens: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub completion_tokens: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total_tokens: Option<u32>,
}

impl CompletionUsage {
    /// `None` when the upstream reported no count at all: usage is never invented.
    pub fn from_usage(usage: Option<Usage>) -> Option<CompletionUsage> {
        let usage = usage?;
        if usage.input_tokens.is_none() && usage.output_tokens.is_none() {
            return None;
        }
        let total = match (usage.input_tokens, usage.output_tokens) {
            (Some(i), Some(o)) => Some(i.saturating_add(o)),
            _ => None,
        };
        Some(CompletionUsage {
            prompt_tokens: usage.input_tokens,
            completion_tokens: usage.output_tokens,
            total_tokens: total,
        })
    }
}

/// `chat.completion.chunk`, one `data:` event of a streamed completion.
#[derive(Debug, Serialize, ToSchema)]
pub struct Chunk {
    pub id: String,
    /// `chat.completion.chunk`.
    pub object: &'static str,
    pub created: u64,
    pub model: String,
    /// One choice; empty in the last chunk, which carries `usage`.
    pub choices: Vec<ChunkChoice>,
    /// Only in the last chunk, when `stream_options.include_usage` asked and the upstream reported.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub usage: Option<CompletionUsage>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ChunkChoice {
    pub index: u32,
    pub delta: Delta,
    /// Set in the choice's last chunk only.
    pub finish_reason: Option<String>,
    #[schema(value_type = Option<Object>)]
    pub logprobs: Option<()>,
}

#[derive(Debug, Default, Serialize, ToSchema)]
pub struct Delta {
    /// `assistant`, in the first chunk only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub role: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content: Option<String>,
}

/// One server-sent event of a streamed completion, as a client parses it.
#[derive(Debug, Serialize, ToSchema)]
pub struct CompletionEvent {
    /// A `Chunk` as JSON; last, `[DONE]`, or an `OpenAiErrorBody` as JSON when the reply failed after
    /// it began (then no `[DONE]` follows).
    pub data: String,
}

/// `GET /v1/models`.
#[derive(Debug, Serialize, ToSchema)]
pub struct ModelList {
    /// `list`.
    pub object: &'static str,
    pub data: Vec<Model>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Model {
    /// The chat-model plugin id, to pass as `model`.
    pub id: String,
    /// `model`.
    pub object: &'static str,
    /// Unix seconds: when this server started.
    pub created: u64,
    /// The plugin's kind and component, e.g. `chat-model builtin:openai-chat`.
    pub owned_by: String,
}

/// OpenAI's error body.
#[derive(Debug, Serialize, ToSchema)]
pub struct OpenAiErrorBody {
    pub error: OpenAiError,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct OpenAiError {
    pub message: String,
    /// `invalid_request_error`, `authentication_error`, `permission_error`, `not_found_error`,
    /// `rate_limit_error` or `server_error`.
    pub r#type: &'static str,
    /// The request field at fault, when one is.
    pub param: Option<String>,
    /// A stable code, such as `model_not_found`, `rate_limited` or `upstream_unavailable`.
    pub code: String,
}
