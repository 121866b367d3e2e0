//! The OpenAI-compatible surface: `POST /v1/chat/completions` and `GET /v1/models` over the chat-model
//! plugins, so that the official OpenAI clients (and everything built on them) drive Parlance's chat
//! models. A request becomes a chat-model request and its `generation`; the reply comes through
//! [`PluginHost::reply_stream`], under the caller's rate limit and instance share, streamed or
//! collected, along the chat model's fallback chain until a reply's first text; with `[openai]
//! store_dialogs` the exchange may be appended to a user's dialog.

pub mod error;
pub mod routes;
mod settings;
pub mod types;

pub use error::Failure;
pub use settings::OpenAiConfig;

use crate::chat::{ChatService, Fault, ModelInput, Part, Refusal, deadline_error, open_reply, walk};
use crate::error::Error;
use crate::fallback::{Attempt, ChainChoice, Chains};
use crate::metrics::{Metrics, ProviderLabels};
use crate::plugins::api::{ChatRequest, Generation, HistoryEntry, PluginKind};
use crate::plugins::spec::ComponentSource;
use crate::plugins::{Plugin, PluginHost, ReplyStream};
use crate::ratelimit::{Admitted, Quota, RateLimits};
use crate::rest::Caller;
use std::sync::Arc;
use std::time::Duration;
use types::{CompletionRequest, Content, Model, RequestMessage};

/// The names the two speakers of an OpenAI conversation get in a chat-model request and a dialog.
pub const USER_NAME: &str = "User";
pub const ASSISTANT_NAME: &str = "Assistant";

pub struct OpenAiService {
    config: OpenAiConfig,
    plugins: Arc<PluginHost>,
    chat: Arc<ChatService>,
    /// Per (client, chat model): the chat models' own quotas, kept apart from the providers'.
    limits: RateLimits,
    metrics: Arc<Metrics>,
    chains: Arc<Chains>,
    /// When the server started, the `created` of every model.
    started: u64,
}

/// A completion under way: the reply's stream and what the answer needs around it.
pub struct Opened {
    pub stream: ReplyStream,
    /// The model the request named, or the member of its chain that answered instead.
    pub model: String,
    /// The members of the chain that did not answer before `model` did.
    pub attempts: Vec<Attempt>,
    pub include_usage: bool,
    pub quota: Option<Admitted>,
    /// Where the exchange goes once the reply is complete, when it is to be stored.
    pub store: Option<StoreTarget>,
    pub deadline: tokio::time::Instant,
}

/// A user's dialog that a completion is appended to.
pub struct StoreTarget {
    pub client: String,
    pub user: String,
    pub message: String,
}

impl OpenAiService {
    /// `rate_limit_per_minute` is the global limit, applied as to providers: to a chat model that
    /// reaches an upstream, unless its `[[plugin]]` table sets its own.
    pub fn new(
        config: OpenAiConfig,
        plugins: Arc<PluginHost>,
        chat: Arc<ChatService>,
        metrics: Arc<Metrics>,
        chains: Arc<Chains>,
        rate_limit_per_minute: u32,
    ) -> OpenAiService {
        let quotas: Vec<_> = plugins
            .of_kind(PluginKind::ChatModel)
            .map(|p| (p.id().to_owned(), Quota::for_plugin(p.spec(), rate_limit_per_minute)))
            .collect();
        for (model, _) in &quotas {
            metrics.expect_provider(model);
        }
        let limits = RateLimits::new(Quota::from_per_minute(rate_limit_per_minute), quotas);
        let started =
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
        OpenAiService { config, plugins, chat, limits, metrics, chains, started }
    }

    pub fn config(&self) -> &OpenAiConfig {
        &self.config
    }

    /// Seconds between keep-alive comments of a streamed completion, as for streamed chats.
    pub fn keepalive(&self) -> Duration {
        Duration::from_secs(self.chat.config().stream_keepalive_secs)
    }

    /// Every chat model, as `GET /v1/models` lists them.
    pub fn models(&self) -> Vec<Model> {
        self.plugins.of_kind(PluginKind::ChatModel).map(|p| self.describe(p)).collect()
    }

    /// One chat model, or 404 `model_not_found`.
    pub fn model(&self, id: &str) -> Result<Model, Failure> {
        self.chat_model(id).map(|p| self.describe(p))
    }

    fn describe(&self, plugin: &Plugin) -> Model {
        // A file's name, not its path: the listing should not map the server's disk.
        let component = match &plugin.spec().component {
            ComponentSource::Builtin(name) => format!("builtin:{name}"),
            ComponentSource::File(path) => {
                path.file_name().map_or_else(|| "file".into(), |n| n.to_string_lossy().into_owned())
            }
            ComponentSource::Oci(reference) => reference.to_string(),
        };
        Model {
            id: plugin.id().to_owned(),
            object: "model",
            created: self.started,
            owned_by: format!("{} {component}", plugin.kind()),
        }
    }

    fn chat_model(&self, id: &str) -> Result<&Arc<Plugin>, Failure> {
        self.plugins.get_of_kind(id, PluginKind::ChatModel).ok_or_else(|| Failure::model_not_found(id))
    }

    /// Checks the request, admits it under the caller's quota for the model and starts the reply. A
    /// failure here is the answer's status; nothing has been sent.
    pub async fn open(&self, caller: &Caller, request: CompletionRequest) -> Result<Opened, Failure> {
        let generation = generation(&request)?;
        refuse_unsupported(&request)?;
        let include_usage = request.stream_options.as_ref().and_then(|o| o.include_usage).unwrap_or(false);
        let conversation = Conversation::read(request.messages)?;
        // The chat's limits on a model's input, whether or not the exchange is to be stored: checked
        // before anything else is asked of the model, the store or the quota.
        let chat_request = conversation.request(self.chat.config().default_genre.clone());
        self.chat
            .config()
            .check_input(&ModelInput::of(&chat_request))
            .map_err(|r| conversation.refused(r))?;
        let model = self.chat_model(&request.model)?.clone();
        if let Some(reason) = model.unavailable_reason() {
            return Err(
                Error::PluginUnavailable { kind: "chat model", id: model.id().to_owned(), reason }.into()
            );
        }
        let store = match (&request.user, &caller.header) {
            (Some(user), Some(client)) if self.config.store_dialogs => {
                self.chat.check_exchange(client, user).await.map_err(|e| param(e, "user"))?;
                Some(StoreTarget {
                    client: client.clone(),
                    user: user.clone(),
                    message: conversation.message.clone(),
                })
            }
            _ => None,
        };
        let client = caller.rate_key();
        let deadline =
            tokio::time::Instant::now() + Duration::from_secs(self.chat.config().stream_timeout_secs);
        let chain = self.chains.chain(&self.plugins, model, &ChainChoice::Configured)?;
        let mut plan = self.chains.plan(chain);
        let secs = self.chat.config().stream_timeout_secs;
        // Each member until one's reply reaches its first text, as a streamed chat does; what it
        // writes after that is its own to finish.
        let (member, stream) = walk(&mut plan, |member| {
            let (client, chat_request, generation) = (&client, &chat_request, &generation);
            async move {
                // A completion holds an upstream stream, collected or not, so it takes a share of the
                // open streams like a streamed chat (past the client's, 429
                // `too_many_concurrent_streams`); taken before the quota, so that a call refused for
                // it spends none.
                let ticket = self.plugins.admit_stream(&member, client)?;
                let quota = self.limits.check(client, member.id()).await.map_err(|refused| {
                    self.metrics
                        .rate_limited
                        .get_or_create(&ProviderLabels { provider: member.id().to_owned() })
                        .inc();
                    Error::RateLimited { provider: member.id().to_owned(), refused }
                })?;
                let stream =
                    open_reply(&self.plugins, ticket, chat_request, generation, deadline, secs).await?;
                Ok((stream, quota))
            }
        })
        .await?;
        let (stream, quota) = stream;
        let answered_as = if plan.at_primary() { request.model } else { member.id().to_owned() };
        let attempts = plan.served();
        Ok(Opened { stream, model: answered_as, attempts, include_usage, quota, store, deadline })
    }

    /// Appends a complete exchange to its user's dialog.
    pub async fn store(&self, target: StoreTarget, reply: &str) -> Result<(), Failure> {
        let from = (USER_NAME, target.message.as_str());
        self.chat.append_exchange(&target.client, &target.user, from, (ASSISTANT_NAME, reply)).await?;
        Ok(())
    }

    /// The failure of a reply that ran past `[chat] stream_timeout_secs`.
    pub fn deadline_failure(&self, model: &str) -> Failure {
        Error::Plugin(deadline_error(model, self.chat.config().stream_timeout_secs)).into()
    }
}

/// A library error about the dialog, reported against the request field that named it.
fn param(e: Error, field: &str) -> Failure {
    let mut failure = Failure::from(e);
    if failure.param.as_deref() == Some("user_id") {
        failure.param = Some(field.to_owned());
    }
    failure
}

/// What the client asked of the generation, checked as OpenAI checks it.
fn generation(request: &CompletionRequest) -> Result<Generation, Failure> {
    if let Some(n) = request.n
        && n != 1
    {
        return Err(Failure::bad_request(
            "unsupported_value",
            "n",
            "`n` must be 1: one choice per completion",
        ));
    }
    let max_tokens = request.max_completion_tokens.or(request.max_tokens);
    if max_tokens == Some(0) {
        let param =
            if request.max_completion_tokens.is_some() { "max_completion_tokens" } else { "max_tokens" };
        return Err(Failure::bad_request("invalid_value", param, format!("`{param}` must be at least 1")));
    }
    let temperature = bounded(request.temperature, "temperature", 2.0)?;
    let top_p = bounded(request.top_p, "top_p", 1.0)?;
    let stop = request.stop.as_ref().map(|s| match s {
        types::Stop::One(s) => vec![s.clone()],
        types::Stop::Many(v) => v.clone(),
    });
    let stop = stop.unwrap_or_default();
    if stop.len() > 4 {
        return Err(Failure::bad_request("invalid_value", "stop", "`stop` holds at most 4 sequences"));
    }
    Ok(Generation { max_tokens, temperature, top_p, stop, seed: request.seed, user: request.user.clone() })
}

fn bounded(value: Option<f64>, name: &str, max: f64) -> Result<Option<f32>, Failure> {
    match value {
        Some(v) if !(0.0..=max).contains(&v) => Err(Failure::bad_request(
            "invalid_value",
            name,
            format!("`{name}` must be from 0 to {max}, found {v}"),
        )),
        // The contract's `generation` carries f32; the bounds were checked on the value sent.
        #[allow(clippy::cast_possible_truncation)]
        other => Ok(other.map(|v| v as f32)),
    }
}

/// Refuses what asks for a capability this surface does not have, rather than answering without it.
fn refuse_unsupported(request: &CompletionRequest) -> Result<(), Failure> {
    let asks = |v: &Option<serde_json::Value>| match v {
        None | Some(serde_json::Value::Null) => false,
        Some(serde_json::Value::Array(items)) => !items.is_empty(),
        Some(_) => true,
    };
    for (field, value) in [("tools", &request.tools), ("functions", &request.functions)] {
        if asks(value) {
            return Err(Failure::bad_request(
                "unsupported_parameter",
                field,
                format!("`{field}` is not supported: Parlance's chat models answer with text only"),
            ));
        }
    }
    match &request.logprobs {
        None | Some(serde_json::Value::Null | serde_json::Value::Bool(false)) => {}
        Some(_) => {
            return Err(Failure::bad_request(
                "unsupported_parameter",
                "logprobs",
                "`logprobs` is not supported: the chat models do not report log probabilities",
            ));
        }
    }
    if let Some(format) = &request.response_format
        && format.r#type != "text"
    {
        return Err(Failure::bad_request(
            "unsupported_value",
            "response_format",
            format!("`response_format` `{}` is not supported; only `text`", format.r#type),
        ));
    }
    Ok(())
}

/// An OpenAI conversation as a chat-model request: the system (and developer) messages, joined by
/// blank lines, are the situation; the user and assistant messages before the last are the dialog,
/// spoken by `User` and `Assistant`; the last message, which must be the user's, is the message.
struct Conversation {
    situation: Option<String>,
    history: Vec<(&'static str, String)>,
    message: String,
    /// Where each entry of `history`, then `message`, is in `messages`.
    positions: Vec<usize>,
}

impl Conversation {
    fn read(messages: Vec<RequestMessage>) -> Result<Conversation, Failure> {
        if messages.is_empty() {
            return Err(Failure::bad_request("invalid_value", "messages", "`messages` is empty"));
        }
        let mut system = Vec::new();
        let mut turns = Vec::new();
        let mut positions = Vec::new();
        let last = messages.len() - 1;
        for (i, message) in messages.into_iter().enumerate() {
            let at = |field: &str| format!("messages[{i}].{field}");
            if message
                .tool_calls
                .as_ref()
                .is_some_and(|v| !v.is_null() && v.as_array().is_none_or(|a| !a.is_empty()))
            {
                return Err(Failure::bad_request(
                    "unsupported_parameter",
                    at("tool_calls"),
                    "tool calls are not supported: Parlance's chat models answer with text only",
                ));
            }
            let speaker = match message.role.as_str() {
                "system" | "developer" => None,
                "user" => Some(USER_NAME),
                "assistant" => Some(ASSISTANT_NAME),
                "tool" | "function" => {
                    return Err(Failure::bad_request(
                        "unsupported_value",
                        at("role"),
                        format!("`{}` messages are not supported: there are no tools", message.role),
                    ));
                }
                other => {
                    return Err(Failure::bad_request(
                        "invalid_value",
                        at("role"),
                        format!("unknown role `{other}`; expected system, developer, user or assistant"),
                    ));
                }
            };
            let text = match message.content {
                None => String::new(),
                Some(Content::Text(text)) => text,
                Some(Content::Parts(parts)) => {
                    let mut text = String::new();
                    for (j, part) in parts.into_iter().enumerate() {
                        if part.r#type != "text" {
                            return Err(Failure::bad_request(
                                "unsupported_content",
                                format!("messages[{i}].content[{j}].type"),
                                format!(
                                    "`{}` content is not supported: Parlance's chat models read text only",
                                    part.r#type
                                ),
                            ));
                        }
                        let Some(part) = part.text else {
                            return Err(Failure::bad_request(
                                "invalid_value",
                                format!("messages[{i}].content[{j}].text"),
                                "a text part has no `text`",
                            ));
                        };
                        text.push_str(&part);
                    }
                    text
                }
            };
            if text.trim().is_empty() && speaker.is_some() {
                return Err(Failure::bad_request("invalid_value", at("content"), "the message has no text"));
            }
            if i == last && speaker != Some(USER_NAME) {
                return Err(Failure::bad_request(
                    "invalid_value",
                    at("role"),
                    "the last message must be the user's: the chat model writes the assistant's next one",
                ));
            }
            match speaker {
                None => system.push(text),
                Some(speaker) => {
                    turns.push((speaker, text));
                    positions.push(i);
                }
            }
        }
        // The last message is the user's, checked above.
        let (_, message) = turns.pop().unwrap_or((USER_NAME, String::new()));
        let system: Vec<String> = system.into_iter().filter(|s| !s.trim().is_empty()).collect();
        let situation = (!system.is_empty()).then(|| system.join("\n\n"));
        Ok(Conversation { situation, history: turns, message, positions })
    }

    /// A limit of the chat's broken by the conversation, as OpenAI reports a string or an array too
    /// long (400, `param` naming the message at fault, or `messages` for the system messages joined
    /// and for their number).
    fn refused(&self, refusal: Refusal) -> Failure {
        let content = |position: usize| {
            let at = self.positions.get(position).copied().unwrap_or_default();
            let param = format!("messages[{at}].content");
            let message = refusal.fault.describe(&format!("`{param}`"));
            (param, message)
        };
        let (param, message) = match refusal.part {
            Part::Message => content(self.history.len()),
            Part::Entry { position, name: false } => content(position),
            Part::Situation => {
                let what = "`messages` (its system and developer messages, joined)";
                ("messages".to_owned(), refusal.fault.describe(what))
            }
            Part::History => ("messages".to_owned(), refusal.fault.describe("`messages`")),
            // The speakers' names and the genre are the server's own: its configuration is at fault.
            Part::FromName | Part::ToName | Part::Genre | Part::Entry { name: true, .. } => {
                ("messages".to_owned(), refusal.to_string())
            }
        };
        match refusal.fault {
            Fault::TooLong { .. } => Failure::bad_request("string_above_max_length", param, message),
            Fault::TooMany { .. } => Failure::bad_request("array_above_max_length", param, message),
            Fault::Empty | Fault::ControlCharacters => Failure::bad_request("invalid_value", param, message),
        }
    }

    fn request(&self, genre: String) -> ChatRequest<'_> {
        ChatRequest {
            history: self
                .history
                .iter()
                .enumerate()
                .map(|(i, (name, message))| HistoryEntry {
                    index: u32::try_from(i).unwrap_or(u32::MAX),
                    name,
                    message,
                })
                .collect(),
            message: self.message.clone(),
            from_name: USER_NAME.into(),
            to_name: ASSISTANT_NAME.into(),
            situation: self.situation.clone(),
            genre,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(role: &str, content: serde_json::Value) -> RequestMessage {
        serde_json::from_value(serde_json::json!({"role": role, "content": content})).unwrap()
    }

    #[test]
    fn a_conversation_maps_onto_a_chat_request() {
        let c = Conversation::read(vec![
            message("system", "Be brief.".into()),
            message("developer", serde_json::json!([{"type": "text", "text": "Be kind."}])),
            message("user", "Hi".into()),
            message("assistant", "Hello".into()),
            message(
                "user",
                serde_json::json!([{"type": "text", "text": "How "}, {"type": "text", "text": "are you?"}]),
            ),
        ])
        .unwrap();
        assert_eq!(c.situation.as_deref(), Some("Be brief.\n\nBe kind."));
        assert_eq!(c.history, [(USER_NAME, "Hi".to_owned()), (ASSISTANT_NAME, "Hello".to_owned())]);
        assert_eq!(c.message, "How are you?");
        let r = c.request("Romance".into());
        assert_eq!((r.history[1].index, r.history[1].name), (1, ASSISTANT_NAME));
    }

    #[test]
    fn what_cannot_be_served_is_refused_with_its_param() {
        let refused =
            |messages: Vec<RequestMessage>| Conversation::read(messages).err().unwrap().param.unwrap();
        assert_eq!(
            refused(vec![message("user", "Hi".into()), message("assistant", "Hello".into())]),
            "messages[1].role"
        );
        let image = serde_json::json!([{"type": "image_url", "image_url": {"url": "http://x/y.png"}}]);
        assert_eq!(refused(vec![message("user", image)]), "messages[0].content[0].type");
        assert_eq!(
            refused(vec![message("tool", "42".into()), message("user", "Hi".into())]),
            "messages[0].role"
        );
        assert_eq!(refused(vec![message("user", " ".into())]), "messages[0].content");
        assert_eq!(refused(vec![message("system", "Be brief.".into())]), "messages[0].role");
        assert_eq!(refused(vec![]), "messages");
    }

    #[test]
    fn the_chats_input_limits_are_reported_against_the_message_at_fault() {
        let config = crate::chat::ChatConfig { max_history_entries: 6, ..Default::default() };
        let refused = |messages: Vec<RequestMessage>| {
            let conversation = Conversation::read(messages).unwrap();
            let request = conversation.request("Romance".into());
            let failure = config.check_input(&ModelInput::of(&request)).map_err(|r| conversation.refused(r));
            failure.err().map(|f| (f.api.status.as_u16(), f.api.code, f.param.unwrap(), f.api.message))
        };
        let long = || serde_json::Value::from("x".repeat(4001));
        let said = |role: &str, text: &str| message(role, text.into());

        let (status, code, param, text) =
            refused(vec![said("system", "Be brief."), message("user", long())]).unwrap();
        assert_eq!((status, code, param.as_str()), (400, "string_above_max_length", "messages[1].content"));
        assert!(text.starts_with("`messages[1].content` has 4001 characters; the limit is 4000"), "{text}");
        // An earlier message of the user's is held to the limit as a dialog's entry is; the assistant's
        // are the model's own replies.
        let earlier = refused(vec![said("assistant", "Hi"), message("user", long()), said("user", "So?")]);
        assert_eq!(earlier.unwrap().2, "messages[1].content");
        assert!(
            refused(vec![said("user", "Hi"), message("assistant", long()), said("user", "So?")]).is_none()
        );
        let system = refused(vec![message("system", "s".repeat(2001).into()), said("user", "Hi")]).unwrap();
        assert_eq!((system.1, system.2.as_str()), ("string_above_max_length", "messages"));
        // Four earlier messages, the last and the reply make the 6 a dialog may hold; six do not.
        let turns = |n: usize| {
            let mut v: Vec<_> =
                (0..n).map(|i| said(if i % 2 == 0 { "user" } else { "assistant" }, "a")).collect();
            v.push(said("user", "b"));
            v
        };
        assert_eq!(refused(turns(4)), None);
        let many = refused(turns(6)).unwrap();
        assert_eq!((many.0, many.1, many.2.as_str()), (400, "array_above_max_length", "messages"));
        let control = refused(vec![said("user", "a\u{1b}[31mb")]).unwrap();
        assert_eq!((control.1, control.2.as_str()), ("invalid_value", "messages[0].content"));
    }
}
