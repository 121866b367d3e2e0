//! The chat service of seed 000: users, dialogs and chat with a character, per API client, stored in
//! the dialog store. A chat message goes to the configured chat-model plugin, then along its fallback
//! chain while it fails; the exchange is stored only when a model answered.

mod dialog;
pub mod import;
mod limits;
mod opening;
pub mod routes;
mod settings;
mod walk;

pub use dialog::Entry;
pub use limits::{Fault, ModelInput, Part, Refusal};
pub use opening::{deadline_error, open_reply};
pub use settings::{ChatConfig, DEFAULT_GENRE, DEFAULT_RESPONSE};
pub use walk::{walk, walk_begun};

use crate::error::{Error, Result};
use crate::fallback::{Attempt, ChainChoice, Chains, Plan};
use crate::plugins::api::{CallError, CallFailure, ChatRequest, Generation, HistoryEntry, StreamPart, Usage};
use crate::plugins::spec::HistoryWindow;
use crate::plugins::{Plugin, PluginHost, ReplyStream, StreamTicket};
use crate::store::{Dialog, DialogEntry, DialogStore, Recent, StoreError, UserMetadata};
use serde::Serialize;
use std::sync::Arc;
use std::time::Duration;

/// Users per page of `GET /v1/user/all/id/<page>`.
pub const USERS_PER_PAGE: u64 = 100;
/// The longest `user_id` accepted.
pub const MAX_USER_ID_CHARS: usize = 256;

/// The dialog store's state, for `/health`.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct StoreHealth {
    /// `ok`, or `error` when the store cannot be read.
    pub status: String,
    // Where the store is: the SQLite file, or the PostgreSQL URL without its password. The JSON keeps
    // the name clients read (and a `///` here would change the OpenAPI document).
    #[serde(rename = "database_file")]
    pub location: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// One chat message, with the optional fields of the original service.
#[derive(Clone, Debug, Default)]
pub struct ChatMessage {
    pub user_id: String,
    pub message: String,
    /// The user's name in the dialog; "User" when absent.
    pub from_name: Option<String>,
    /// The character's name; "Waifu" when absent.
    pub to_name: Option<String>,
    pub situation: Option<String>,
    /// `DEFAULT_GENRE` when absent.
    pub genre: Option<String>,
    /// The chat model's configured chain, none, or the request's own.
    pub fallbacks: ChainChoice,
}

/// The character's reply, and whether every model of the chain failed and `DEFAULT_RESPONSE` stands
/// in for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChatReply {
    pub response: String,
    pub model_failed: bool,
    /// The chat model that answered; `None` for `DEFAULT_RESPONSE`.
    pub chat_model: Option<String>,
    /// The members of the chain that did not answer, in order.
    pub attempts: Vec<Attempt>,
}

pub struct ChatService {
    config: ChatConfig,
    store: DialogStore,
    plugins: Arc<PluginHost>,
    chains: Arc<Chains>,
}

impl ChatService {
    pub fn new(
        config: ChatConfig,
        store: DialogStore,
        plugins: Arc<PluginHost>,
        chains: Arc<Chains>,
    ) -> Self {
        ChatService { config, store, plugins, chains }
    }

    pub fn config(&self) -> &ChatConfig {
        &self.config
    }

    pub async fn health(&self) -> StoreHealth {
        let error = self.store.check().await.err().map(|e| e.to_string());
        StoreHealth {
            status: if error.is_none() { "ok" } else { "error" }.into(),
            location: self.store.location(),
            error,
        }
    }

    pub fn model(&self) -> Result<&Arc<Plugin>> {
        self.plugins.get(&self.config.model).ok_or_else(|| Error::UnknownPlugin {
            kind: "chat model",
            id: self.config.model.clone(),
            known: vec![],
        })
    }

    pub async fn put_user(&self, client: &str, user: &str) -> Result<bool> {
        check_user_id(user)?;
        Ok(self.store.put_user(client, user).await?)
    }

    pub async fn user_exists(&self, client: &str, user: &str) -> Result<bool> {
        check_user_id(user)?;
        Ok(self.store.user_exists(client, user).await?)
    }

    pub async fn metadata(&self, client: &str, user: &str) -> Result<UserMetadata> {
        check_user_id(user)?;
        self.store.metadata(client, user).await?.ok_or_else(|| unknown_user(user))
    }

    pub async fn delete_user(&self, client: &str, user: &str) -> Result<()> {
        check_user_id(user)?;
        if self.store.delete_user(client, user).await? { Ok(()) } else { Err(unknown_user(user)) }
    }

    pub async fn count_users(&self, client: &str) -> Result<u64> {
        Ok(self.store.count_users(client).await?)
    }

    pub async fn list_users(&self, client: &str, page: u64) -> Result<Vec<String>> {
        Ok(self.store.list_users(client, page, USERS_PER_PAGE).await?)
    }

    /// The dialog as last committed.
    pub async fn dialog(&self, client: &str, user: &str) -> Result<Arc<Dialog>> {
        check_user_id(user)?;
        self.store.dialog(client, user).await?.ok_or_else(|| unknown_user(user))
    }

    /// The dialog as a JSON array of entries, rendered once per change of the dialog.
    pub async fn dialog_json(&self, client: &str, user: &str) -> Result<bytes::Bytes> {
        check_user_id(user)?;
        self.store.dialog_json(client, user).await?.ok_or_else(|| unknown_user(user))
    }

    pub async fn reset_dialog(&self, client: &str, user: &str) -> Result<()> {
        check_user_id(user)?;
        if self.store.reset_dialog(client, user).await? { Ok(()) } else { Err(unknown_user(user)) }
    }

    /// Replaces the dialog, after checking it whole: indices must be exactly 0..n (in any order), with
    /// names and messages within the limits. A rejected dialog changes nothing.
    pub async fn set_dialog(&self, client: &str, user: &str, mut entries: Vec<DialogEntry>) -> Result<()> {
        check_user_id(user)?;
        if entries.len() > self.config.max_history_entries {
            return Err(Error::invalid(
                "dialog",
                format!(
                    "the dialog has {} entries; the limit is {}",
                    entries.len(),
                    self.config.max_history_entries
                ),
            ));
        }
        entries.sort_by_key(|e| e.index);
        for (position, entry) in entries.iter().enumerate() {
            if entry.index as usize != position {
                let problem = if position > 0 && entries[position - 1].index == entry.index {
                    format!("the index {} appears twice", entry.index)
                } else {
                    format!(
                        "the index {position} is missing (indices must be 0 to {} without gaps)",
                        entries.len() - 1
                    )
                };
                return Err(Error::invalid("dialog", format!("invalid dialog: {problem}")));
            }
            self.config.check_entry(entry)?;
        }
        if self.store.set_dialog(client, user, entries).await? { Ok(()) } else { Err(unknown_user(user)) }
    }

    /// The dialog's string form, as the seed defines it.
    pub fn dialog_string(entries: &[DialogEntry]) -> String {
        entries.iter().map(|e| format!("{} said: \"{}\"", e.name, e.message)).collect::<Vec<_>>().join(" ")
    }

    /// The dialog's length and its newest entries within `window`: only those are read and copied, so
    /// a chat costs the same at 10 entries as at 10 000. A characters window is read in growing
    /// steps until it holds its characters or the whole dialog.
    async fn history(
        &self,
        client: &str,
        user: &str,
        window: HistoryWindow,
    ) -> Result<(usize, Vec<DialogEntry>)> {
        let mut wanted = match window {
            HistoryWindow::Whole => usize::MAX,
            HistoryWindow::Entries(n) => n,
            // A guess of entries from characters; a short guess costs one more read.
            HistoryWindow::Chars(n) => (n / 32).clamp(16, 4096),
        };
        loop {
            let recent = self.store.newest(client, user, wanted).await?;
            let (start, complete) = window_start(window, &recent.entries);
            if complete || recent.is_whole() || wanted == usize::MAX {
                let Recent { length, mut entries } = recent;
                return Ok((length, entries.split_off(start)));
            }
            wanted = wanted.saturating_mul(4);
        }
    }

    /// Checks a chat message and reads what the model needs: the user's dialog within the model's
    /// history window. Nothing is written.
    async fn prepare(&self, client: &str, message: ChatMessage) -> Result<Turn> {
        check_user_id(&message.user_id)?;
        let from_name = message.from_name.unwrap_or_else(|| "User".into());
        let to_name = message.to_name.unwrap_or_else(|| "Waifu".into());
        let genre = message.genre.unwrap_or_else(|| self.config.default_genre.clone());
        self.config.check_input(&ModelInput {
            message: &message.message,
            from_name: &from_name,
            to_name: &to_name,
            genre: &genre,
            situation: message.situation.as_deref(),
            history: &[],
        })?;
        let model = self.model()?.clone();
        let chain = self.chains.chain(&self.plugins, model.clone(), &message.fallbacks)?;
        // A reply that could not be stored is not worth the model's time: while the store refuses
        // writes (a full disk), the chat is refused before the model is called.
        self.store.writable()?;

        let window = model.spec().history_window();
        let (length, history) = self.history(client, &message.user_id, window).await?;
        if let Some(would) = self.config.overflow_after_turn(length) {
            return Err(StoreError::DialogFull { would, limit: self.config.max_history_entries }.into());
        }
        Ok(Turn {
            client: client.to_owned(),
            user_id: message.user_id,
            message: message.message,
            from_name,
            to_name,
            situation: message.situation.filter(|s| !s.trim().is_empty()),
            genre,
            history,
            model,
            chain,
        })
    }

    /// One chat turn. The user is created if needed. When the model answers, the exchange is appended
    /// in one transaction; when it fails, the reply is `DEFAULT_RESPONSE` and nothing of the exchange is
    /// stored, so the dialog never holds a line the model did not say.
    pub async fn chat(&self, client: &str, message: ChatMessage) -> Result<ChatReply> {
        let mut turn = self.prepare(client, message).await?;
        let mut plan = self.chains.plan(std::mem::take(&mut turn.chain));
        let request = turn.request();
        let walked = walk(&mut plan, |model| {
            let request = &request;
            async move { Ok(self.plugins.reply(&model, client, request).await?) }
        })
        .await;
        drop(request);
        match walked {
            Ok((model, reply)) => {
                let attempts = plan.served();
                self.store_exchange(turn, reply.clone()).await?;
                let chat_model = Some(model.id().to_owned());
                Ok(ChatReply { response: reply, model_failed: false, chat_model, attempts })
            }
            Err(e) => {
                let attempts = plan.attempts().to_vec();
                self.fall_back(&turn, &e, attempts).await
            }
        }
    }

    /// Appends the user's message and the character's reply, returning the entries' indices.
    async fn store_exchange(&self, turn: Turn, reply: String) -> Result<Vec<u32>> {
        let lines = vec![(turn.from_name, turn.message), (turn.to_name, reply)];
        let max = self.config.max_history_entries;
        Ok(self.store.append_exchange(&turn.client, &turn.user_id, lines, max).await?)
    }

    /// Whether an exchange could be appended to `user`'s dialog now: the dialog with room for two
    /// entries, the store writable (the names and the message met [`ChatConfig::check_input`] as the
    /// model's input). Checked before a model is called for a reply that is to be stored (the OpenAI
    /// surface's `store_dialogs`), so that a refusal costs no upstream call. A full dialog is a
    /// conflict.
    pub async fn check_exchange(&self, client: &str, user: &str) -> Result<()> {
        check_user_id(user)?;
        self.store.writable()?;
        let length = self.store.newest(client, user, 1).await?.length;
        if let Some(would) = self.config.overflow_after_turn(length) {
            return Err(dialog_full(would, self.config.max_history_entries));
        }
        Ok(())
    }

    /// Appends one exchange, the user's line then the reply, to `user`'s dialog (created if needed),
    /// with contiguous indices; returns them. As with a chat, the reply is stored whatever its
    /// length; a full dialog is a conflict.
    pub async fn append_exchange(
        &self,
        client: &str,
        user: &str,
        from: (&str, &str),
        to: (&str, &str),
    ) -> Result<Vec<u32>> {
        check_user_id(user)?;
        let lines = vec![(from.0.to_owned(), from.1.to_owned()), (to.0.to_owned(), to.1.to_owned())];
        let max = self.config.max_history_entries;
        match self.store.append_exchange(client, user, lines, max).await {
            Ok(indices) => Ok(indices),
            Err(StoreError::DialogFull { would, limit }) => Err(dialog_full(would, limit)),
            Err(e) => Err(e.into()),
        }
    }

    /// `DEFAULT_RESPONSE` for a chain that failed: the user exists afterwards, the dialog is unchanged.
    /// A call refused for its caller's budget is not a model's failure: it is the caller's answer
    /// (429 `budget_exceeded`), and nothing is stored.
    async fn fall_back(&self, turn: &Turn, e: &Error, attempts: Vec<Attempt>) -> Result<ChatReply> {
        if let Error::Plugin(call) = e
            && matches!(call.failure, CallFailure::OverBudget(_))
        {
            return Err(Error::Plugin(call.clone()));
        }
        tracing::warn!(user_id = %turn.user_id, "the chat model failed; answering DEFAULT_RESPONSE: {e}");
        self.store.put_user(&turn.client, &turn.user_id).await?;
        Ok(ChatReply {
            response: self.config.default_response.clone(),
            model_failed: true,
            chat_model: None,
            attempts,
        })
    }

    /// One chat turn whose reply arrives as it is written: [`ChatEvent::Delta`]s, then one
    /// [`ChatEvent::Done`] once the exchange is stored, or one [`ChatEvent::Error`]. The message is
    /// checked before anything is streamed (the error is then this function's). A failure before the
    /// first delta moves on along the chat model's chain, and once the chain is spent gives
    /// `DEFAULT_RESPONSE` as one delta flagged `fallback`, as [`ChatService::chat`] does; a failure
    /// after it, or `stream_timeout_secs` passing, ends the stream with an error and
    /// nothing stored. Dropping the stream cancels the upstream request.
    pub async fn chat_stream(
        self: &Arc<Self>,
        client: &str,
        message: ChatMessage,
        generation: Generation,
    ) -> Result<impl futures::Stream<Item = ChatEvent> + Send + 'static> {
        let mut turn = self.prepare(client, message).await?;
        let mut plan = self.chains.plan(std::mem::take(&mut turn.chain));
        // The first member with room for the stream. A client past its share of open streams is told
        // so, rather than answered DEFAULT_RESPONSE, and so is one whose whole chain is full.
        let (model, ticket) =
            walk(&mut plan, |model| async move { Ok(self.plugins.admit_stream(&model, client)?) }).await?;
        turn.model = model;
        let deadline = tokio::time::Instant::now() + Duration::from_secs(self.config.stream_timeout_secs);
        let along = Along { service: self.clone(), turn, plan, generation, deadline };
        let stream = futures::stream::unfold(
            StreamState::Start { along: Box::new(along), ticket },
            StreamState::advance,
        );
        // The stream is read once the request's handler has returned: its calls stay the caller's.
        Ok(crate::plugins::api::CallScope::current().streamed(stream))
    }
}

/// A checked chat message with what the model needs to answer it.
struct Turn {
    client: String,
    user_id: String,
    message: String,
    from_name: String,
    to_name: String,
    situation: Option<String>,
    genre: String,
    history: Vec<DialogEntry>,
    /// The chat model being asked: the configured one, then the members of its chain in turn.
    model: Arc<Plugin>,
    /// The chain, until a plan takes it.
    chain: Vec<Arc<Plugin>>,
}

impl Turn {
    fn request(&self) -> ChatRequest<'_> {
        ChatRequest {
            history: self
                .history
                .iter()
                .map(|e| HistoryEntry { index: e.index, name: &e.name, message: &e.message })
                .collect(),
            message: self.message.clone(),
            from_name: self.from_name.clone(),
            to_name: self.to_name.clone(),
            situation: self.situation.clone(),
            genre: self.genre.clone(),
        }
    }
}

/// One event of a streamed chat turn.
#[derive(Debug)]
pub enum ChatEvent {
    /// Text to append to the reply; `fallback` when it is `DEFAULT_RESPONSE` standing in for a model
    /// that failed before it wrote anything.
    Delta { text: String, fallback: bool },
    /// The reply is complete: the whole of it, the indices of the two entries stored (none for a
    /// fallback), and what the upstream said of it.
    Done(ChatDone),
    /// The reply failed after it began; nothing was stored.
    Error(Error),
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct ChatDone {
    pub user_id: String,
    pub response: String,
    /// The stored entries' indices: the user's message, then the reply. Empty for a fallback.
    pub indices: Vec<u32>,
    pub fallback: bool,
    /// The chat model (plugin id) of the chain that answered, when it is not the configured one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chat_model: Option<String>,
    /// The members of the chain that did not answer, with their error codes; absent when the
    /// configured chat model answered at once.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub attempts: Vec<Attempt>,
    /// The model that answered, when the upstream named it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// Why the model stopped (`stop`, `length`), when the upstream said.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub finish_reason: Option<String>,
    /// Token counts, when the upstream reported them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub usage: Option<Usage>,
}

/// What a streamed turn carries from member to member of its chain.
struct Along {
    service: Arc<ChatService>,
    turn: Turn,
    plan: Plan,
    generation: Generation,
    deadline: tokio::time::Instant,
}

/// Where a streamed chat turn stands; each step yields one event.
enum StreamState {
    /// `turn.model` is admitted (`ticket`) and about to be asked.
    Start {
        along: Box<Along>,
        ticket: StreamTicket,
    },
    Streaming(Box<Streaming>),
    /// `DEFAULT_RESPONSE` was given out; what remains is its `done`.
    FellBack {
        user_id: String,
        response: String,
        attempts: Vec<Attempt>,
    },
    Ended,
}

/// A step of the stream: an event and the state after it.
type Step = (ChatEvent, StreamState);

struct Streaming {
    along: Along,
    stream: ReplyStream,
    reply: String,
    model: Option<String>,
    usage: Option<Usage>,
}

impl StreamState {
    async fn advance(self) -> Option<Step> {
        Some(match self {
            StreamState::Start { along, ticket } => StreamState::start(*along, ticket).await,
            StreamState::Streaming(streaming) => streaming.next().await,
            StreamState::FellBack { user_id, response, attempts } => {
                let done = ChatDone {
                    user_id,
                    response,
                    indices: Vec::new(),
                    fallback: true,
                    chat_model: None,
                    attempts,
                    model: None,
                    finish_reason: None,
                    usage: None,
                };
                (ChatEvent::Done(done), StreamState::Ended)
            }
            StreamState::Ended => return None,
        })
    }

    /// The reply's opening (see [`open_reply`]): the admitted member's, then while one fails before
    /// it wrote anything, the next member's of the chain that can be admitted; once none is left,
    /// `DEFAULT_RESPONSE` stands in.
    async fn start(mut along: Along, ticket: StreamTicket) -> Step {
        let Along { service, turn, plan, generation, deadline } = &mut along;
        let (plugins, client, secs) =
            (&service.plugins, turn.client.as_str(), service.config.stream_timeout_secs);
        let request = turn.request();
        let open = |ticket| open_reply(plugins, ticket, &request, generation, *deadline, secs);
        let first = async { Ok(open(ticket).await?) };
        let walked = walk_begun(plan, turn.model.clone(), first, |model| async move {
            let ticket = plugins.admit_stream(&model, client)?;
            Ok(open(ticket).await?)
        })
        .await;
        drop(request);
        match walked {
            Ok((model, stream)) => {
                along.turn.model = model;
                let streaming = Streaming { along, stream, reply: String::new(), model: None, usage: None };
                Box::new(streaming).next().await
            }
            Err(e) => StreamState::fall_back(along, e).await,
        }
    }

    async fn fall_back(along: Along, e: Error) -> Step {
        let Along { service, turn, plan, .. } = along;
        match service.fall_back(&turn, &e, plan.attempts().to_vec()).await {
            Ok(reply) => {
                let delta = ChatEvent::Delta { text: reply.response.clone(), fallback: true };
                let fell_back = StreamState::FellBack {
                    user_id: turn.user_id,
                    response: reply.response,
                    attempts: reply.attempts,
                };
                (delta, fell_back)
            }
            Err(e) => (ChatEvent::Error(e), StreamState::Ended),
        }
    }
}

impl Streaming {
    async fn next(mut self: Box<Self>) -> Step {
        loop {
            let part = match tokio::time::timeout_at(self.along.deadline, self.stream.next()).await {
                Ok(part) => part,
                Err(_) => {
                    self.stream.cancel("deadline");
                    let secs = self.along.service.config.stream_timeout_secs;
                    let e = deadline_error(self.along.turn.model.id(), secs);
                    return self.failed(e).await;
                }
            };
            match part {
                Some(Ok(StreamPart::Delta(text))) => {
                    if text.is_empty() {
                        continue;
                    }
                    self.reply.push_str(&text);
                    return (ChatEvent::Delta { text, fallback: false }, StreamState::Streaming(self));
                }
                Some(Ok(StreamPart::Model(model))) => self.model = Some(model),
                Some(Ok(StreamPart::Usage(usage))) => self.usage = Some(usage),
                Some(Ok(StreamPart::Done(finish_reason))) => {
                    let Streaming { along, reply, model, usage, .. } = *self;
                    let Along { service, turn, plan, .. } = along;
                    let user_id = turn.user_id.clone();
                    let served_by = turn.model.id().to_owned();
                    let attempts = plan.served();
                    let chat_model = (!attempts.is_empty()).then_some(served_by);
                    let event = match service.store_exchange(turn, reply.clone()).await {
                        Ok(indices) => ChatEvent::Done(ChatDone {
                            user_id,
                            response: reply,
                            indices,
                            fallback: false,
                            chat_model,
                            attempts,
                            model,
                            finish_reason,
                            usage,
                        }),
                        Err(e) => ChatEvent::Error(e),
                    };
                    return (event, StreamState::Ended);
                }
                Some(Err(e)) => return self.failed(e).await,
                None => {
                    let e = CallError::new(
                        self.stream.plugin().id(),
                        CallFailure::InvalidOutput("the stream ended without its last part".into()),
                    );
                    return self.failed(e).await;
                }
            }
        }
    }

    /// A failure after the first text (one before it failed [`open_reply`], and the chain moved on)
    /// ends the stream.
    async fn failed(self: Box<Self>, e: CallError) -> Step {
        tracing::warn!(user_id = %self.along.turn.user_id, "the streamed reply failed after it began; nothing is stored: {e}");
        // A member that broke off counts against its circuit as any failure does.
        let Streaming { mut along, .. } = *self;
        let e = Error::from(e);
        let e = match along.plan.failed(e) {
            Ok(()) => along.plan.exhausted(),
            Err(e) => e,
        };
        (ChatEvent::Error(e), StreamState::Ended)
    }
}

/// Where `window` starts in `history`, and whether it is complete there: whether entries older than
/// these would stay outside it.
fn window_start(window: HistoryWindow, history: &[DialogEntry]) -> (usize, bool) {
    match window {
        HistoryWindow::Whole => (0, false),
        HistoryWindow::Entries(n) => (history.len().saturating_sub(n), history.len() >= n),
        HistoryWindow::Chars(n) => {
            let mut chars = 0;
            let start = history.iter().rposition(|e| {
                chars += e.name.chars().count() + e.message.chars().count();
                chars >= n
            });
            (start.unwrap_or(0), start.is_some())
        }
    }
}

/// A dialog that cannot take two more entries, as a conflict with its present state.
fn dialog_full(would: usize, limit: usize) -> Error {
    Error::Conflict(format!(
        "the dialog would have {would} entries; the limit is {limit}; reset it with DELETE /v1/user/dialog/<user_id>"
    ))
}

fn unknown_user(user: &str) -> Error {
    Error::NotFound(format!("there is no user {user:?} for this client"))
}

/// A `user_id` must be non-empty, at most 256 characters, without control characters or slashes.
pub fn check_user_id(user: &str) -> Result<()> {
    let problem = if user.trim().is_empty() {
        Some("`user_id` is empty".to_owned())
    } else if user.chars().count() > MAX_USER_ID_CHARS {
        Some(format!("`user_id` is longer than {MAX_USER_ID_CHARS} characters"))
    } else if user.chars().any(char::is_control) {
        Some("`user_id` contains control characters".to_owned())
    } else if user.contains('/') {
        Some("`user_id` contains a slash".to_owned())
    } else {
        None
    };
    match problem {
        Some(message) => Err(Error::invalid("user_id", message)),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn user_ids_are_checked() {
        assert!(check_user_id("alice").is_ok());
        assert!(check_user_id("Élodie 42").is_ok());
        for bad in ["", "   ", "a/b", "tab\there", "nul\0", &"x".repeat(257)] {
            assert!(check_user_id(bad).is_err(), "{bad:?}");
        }
    }

    fn history_window(window: HistoryWindow, history: &[DialogEntry]) -> &[DialogEntry] {
        &history[window_start(window, history).0..]
    }

    #[test]
    fn a_window_keeps_the_newest_entries_it_holds() {
        let entry =
            |index: u32, message: &str| DialogEntry { index, name: "Ann".into(), message: message.into() };
        let history: Vec<_> = (0..5).map(|i| entry(i, "abcdefg")).collect(); // 10 characters each
        let indices = |w| history_window(w, &history).iter().map(|e| e.index).collect::<Vec<_>>();
        assert_eq!(indices(HistoryWindow::Whole), [0, 1, 2, 3, 4]);
        assert_eq!(indices(HistoryWindow::Entries(2)), [3, 4]);
        assert_eq!(indices(HistoryWindow::Entries(9)), [0, 1, 2, 3, 4]);
        // 20 characters are in the last two entries exactly; 21 need a third.
        assert_eq!(indices(HistoryWindow::Chars(20)), [3, 4]);
        assert_eq!(indices(HistoryWindow::Chars(21)), [2, 3, 4]);
        assert_eq!(indices(HistoryWindow::Chars(1)), [4]);
        assert_eq!(indices(HistoryWindow::Chars(51)), [0, 1, 2, 3, 4]);
        // Characters, not bytes.
        let wide = vec![entry(0, "ééééééé"), entry(1, "ééééééé")];
        assert_eq!(history_window(HistoryWindow::Chars(10), &wide).len(), 1);
        assert!(history_window(HistoryWindow::Chars(10), &[]).is_empty());
        // Complete: older entries would stay outside the window.
        assert_eq!(window_start(HistoryWindow::Chars(20), &history), (3, true));
        assert_eq!(window_start(HistoryWindow::Chars(51), &history), (0, false));
        assert_eq!(window_start(HistoryWindow::Entries(5), &history), (0, true));
        assert_eq!(window_start(HistoryWindow::Entries(6), &history), (0, false));
        assert_eq!(window_start(HistoryWindow::Whole, &history), (0, false));
    }

    #[test]
    fn dialog_string_follows_the_seed() {
        let entries = vec![
            DialogEntry { index: 0, name: "User".into(), message: "Hi".into() },
            DialogEntry { index: 1, name: "Waifu".into(), message: "Hello \"you\"".into() },
        ];
        assert_eq!(ChatService::dialog_string(&entries), "User said: \"Hi\" Waifu said: \"Hello \"you\"\"");
        assert_eq!(ChatService::dialog_string(&[]), "");
    }
}
