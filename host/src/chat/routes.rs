//! The chat routes of seed 000, with its request and response shapes, and their OpenAPI fragment.
//! Every route acts for the API client named by the `current-user` header (`default` when absent) and
//! sees only its data.

use super::{ChatEvent, ChatMessage, ChatService, DialogEntry, Entry, MAX_USER_ID_CHARS};
use crate::fallback::{ChainChoice, outcome, outcome::attempts_header};
use crate::plugins::api::Generation;
use crate::rest::extract::QueryAndForm;
use crate::rest::openapi::responses as r;
use crate::rest::openapi::{
    CONTROLS_AND_SLASH, SPACES, array, items, lines, name, parameter, property, visible,
};
use crate::rest::{ApiError, Caller, ErrorBody, Json, Path};
use axum::Router;
use axum::extract::{FromRef, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{any, delete, get, post, put};
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use std::time::Duration;
use utoipa::{OpenApi, ToSchema};

type Chat = State<Arc<ChatService>>;

pub fn routes<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    Arc<ChatService>: FromRef<S>,
{
    let mut router = Router::new()
        .route("/v1/user/id/{user_id}", put(put_user).get(get_user).delete(delete_user))
        .route("/v1/user/metadata/{user_id}", get(metadata))
        .route("/v1/user/all/count", get(count_users))
        .route("/v1/user/all/id/{page}", get(list_users))
        .route("/v1/user/all/id/", any(missing_page))
        .route("/v1/user/dialog/{user_id}", delete(reset_dialog))
        .route("/v1/user/dialog/json/{user_id}", get(dialog_json).put(put_dialog_json))
        .route("/v1/user/dialog/str/{user_id}", get(dialog_str))
        .route("/path", post(chat_form))
        .route("/v1/waifu", post(chat_json))
        .route("/v1/server/status", get(status));
    // A user route with nothing after its prefix asks for the empty user_id, which deserves that
    // name rather than a bare 404.
    for prefix in USER_ROUTES {
        router = router.route(prefix, any(empty_user_id));
    }
    router
}

const USER_ROUTES: &[&str] = &[
    "/v1/user/id/",
    "/v1/user/metadata/",
    "/v1/user/dialog/json/",
    "/v1/user/dialog/str/",
    "/v1/user/dialog/",
];

async fn empty_user_id() -> ApiError {
    ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, "invalid_input", "`user_id` is empty")
}

async fn missing_page() -> ApiError {
    ApiError::bad_request("invalid_page", "the page number is missing")
}

#[derive(OpenApi)]
#[openapi(
    paths(
        put_user,
        get_user,
        delete_user,
        metadata,
        count_users,
        list_users,
        reset_dialog,
        dialog_json,
        put_dialog_json,
        dialog_str,
        chat_form,
        chat_json,
        status
    ),
    components(schemas(StreamDelta, super::ChatDone, StreamEvent)),
    tags((name = "chat", description = "Users, dialogs and character chat (seed 000); data is per `current-user` client"))
)]
struct ApiDoc;

/// The routes' OpenAPI fragment, with this configuration's limits and the handlers' character rules
/// written as patterns.
pub fn openapi(service: &ChatService) -> utoipa::openapi::OpenApi {
    let mut doc = ApiDoc::openapi();
    let c = service.config();
    let user_id = |o: &mut utoipa::openapi::schema::Object| {
        o.min_length = Some(1);
        o.max_length = Some(MAX_USER_ID_CHARS);
        o.pattern = Some(visible(CONTROLS_AND_SLASH, SPACES));
    };
    property(&mut doc, "ChatBody", "user_id", user_id);
    property(&mut doc, "ChatBody", "message", lines(c.max_message_chars, true));
    for field in ["from_name", "to_name", "genre"] {
        property(&mut doc, "ChatBody", field, name(c.max_name_chars));
    }
    property(&mut doc, "ChatBody", "situation", lines(c.max_situation_chars, false));
    array(&mut doc, "DialogBody", "dialog", items(0, c.max_history_entries));
    property(&mut doc, "Entry", "name", name(c.max_name_chars));
    property(&mut doc, "Entry", "message", lines(c.max_message_chars, false));
    parameter(&mut doc, "user_id", user_id);
    parameter(&mut doc, "message", lines(c.max_message_chars, true));
    for field in ["from_name", "to_name", "genre"] {
        parameter(&mut doc, field, name(c.max_name_chars));
    }
    parameter(&mut doc, "situation", lines(c.max_situation_chars, false));
    doc
}

#[derive(Debug, Serialize, ToSchema)]
pub struct UserId {
    pub user_id: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct UserExists {
    pub user_id: String,
    pub exists: bool,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct UserMetadataBody {
    pub user_id: String,
    /// UTC, `YYYY-MM-DD HH:MM:SS`.
    pub last_modified_datetime: String,
    /// Seconds since the Unix epoch.
    pub last_modified_timestamp: i64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct UserCount {
    pub user_count: u64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct UserPage {
    pub page: u64,
    /// At most 100 user ids, newest-modified first.
    pub users: Vec<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct DialogJson {
    pub user_id: String,
    #[schema(value_type = Vec<Entry>)]
    pub dialog: Vec<DialogEntry>,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct DialogBody {
    /// The complete new dialog: indices 0 to n-1, each once, in any order.
    pub dialog: Vec<Entry>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct DialogStr {
    pub user_id: String,
    /// The entries as `<name> said: "<message>"`, joined by single spaces.
    pub dialog: String,
}

/// A chat message, as a form (`POST /path`) or JSON (`POST /v1/waifu`).
#[derive(Debug, Deserialize, ToSchema)]
pub struct ChatBody {
    pub user_id: String,
    pub message: String,
    /// The user's name in the dialog (default `User`).
    pub from_name: Option<String>,
    /// The character's name (default `Waifu`).
    pub to_name: Option<String>,
    /// Free text that sets the scene.
    pub situation: Option<String>,
    /// The genre of the conversation (default `DEFAULT_GENRE`).
    pub genre: Option<String>,
    /// `POST /v1/waifu` only: answer with server-sent events as the reply is written, as
    /// `Accept: text/event-stream` asks, for clients that cannot set headers.
    #[serde(default)]
    pub stream: bool,
    /// `POST /v1/waifu` only: `false` asks the configured chat model alone, without its fallbacks; a
    /// list of chat-model ids is this request's own chain (where `[fallback] request_chains` allows
    /// it); `true` or absent: the configured chain.
    #[serde(default)]
    #[schema(value_type = Option<crate::fallback::FallbacksField>)]
    pub fallbacks: ChainChoice,
}

impl From<ChatBody> for ChatMessage {
    fn from(b: ChatBody) -> Self {
        ChatMessage {
            user_id: b.user_id,
            message: b.message,
            from_name: b.from_name,
            to_name: b.to_name,
            situation: b.situation,
            genre: b.genre,
            fallbacks: b.fallbacks,
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ChatResponse {
    pub user_id: String,
    pub response: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Status {
    /// `ok` when the server and its dialog store are healthy.
    pub status: String,
}

/// Creates the user; an existing user is left as it is (the call is idempotent).
#[utoipa::path(put, path = "/v1/user/id/{user_id}", tag = "chat",
    params(("user_id" = String, Path), ("current-user" = Option<String>, Header, description = "The API client")),
    responses(
        (status = 200, description = "The user exists for this client, created now or before; its dialog is untouched", body = UserId),
        (status = 400, description = r::BAD_CALLER, body = ErrorBody),
        (status = 422, description = r::BAD_USER_ID, body = ErrorBody),
    ))]
pub async fn put_user(
    State(chat): Chat,
    caller: Caller,
    Path(user_id): Path<String>,
) -> Result<axum::Json<UserId>, ApiError> {
    chat.put_user(caller.tenant(), &user_id).await?;
    Ok(axum::Json(UserId { user_id }))
}

/// Whether the user exists. An unknown user answers 404 with the same body, `exists: false`, as the
/// original service did (a client that reads only the body sees what the seed describes; one that
/// reads the status sees what the original's own clients expect).
#[utoipa::path(get, path = "/v1/user/id/{user_id}", tag = "chat",
    params(("user_id" = String, Path), ("current-user" = Option<String>, Header, description = "The API client")),
    responses(
        (status = 200, description = "The user exists", body = UserExists),
        (status = 404, description = "No such user for this client: `exists` is false", body = UserExists),
        (status = 400, description = r::BAD_CALLER, body = ErrorBody),
        (status = 422, description = r::BAD_USER_ID, body = ErrorBody),
    ))]
pub async fn get_user(
    State(chat): Chat,
    caller: Caller,
    Path(user_id): Path<String>,
) -> Result<Response, ApiError> {
    let exists = chat.user_exists(caller.tenant(), &user_id).await?;
    let status = if exists { StatusCode::OK } else { StatusCode::NOT_FOUND };
    Ok((status, axum::Json(UserExists { user_id, exists })).into_response())
}

/// Deletes the user and its dialog.
#[utoipa::path(delete, path = "/v1/user/id/{user_id}", tag = "chat",
    params(("user_id" = String, Path), ("current-user" = Option<String>, Header, description = "The API client")),
    responses((status = 200, description = "The user and its dialog were deleted", body = UserId), (status = 400, description = r::BAD_CALLER, body = ErrorBody), (status = 404, description = r::NO_SUCH_USER, body = ErrorBody), (status = 422, description = r::BAD_USER_ID, body = ErrorBody)))]
pub async fn delete_user(
    State(chat): Chat,
    caller: Caller,
    Path(user_id): Path<String>,
) -> Result<axum::Json<UserId>, ApiError> {
    chat.delete_user(caller.tenant(), &user_id).await?;
    Ok(axum::Json(UserId { user_id }))
}

/// When the user's dialog last changed.
#[utoipa::path(get, path = "/v1/user/metadata/{user_id}", tag = "chat",
    params(("user_id" = String, Path), ("current-user" = Option<String>, Header, description = "The API client")),
    responses((status = 200, description = "When the user's dialog last changed", body = UserMetadataBody), (status = 400, description = r::BAD_CALLER, body = ErrorBody), (status = 404, description = r::NO_SUCH_USER, body = ErrorBody), (status = 422, description = r::BAD_USER_ID, body = ErrorBody)))]
pub async fn metadata(
    State(chat): Chat,
    caller: Caller,
    Path(user_id): Path<String>,
) -> Result<axum::Json<UserMetadataBody>, ApiError> {
    let m = chat.metadata(caller.tenant(), &user_id).await?;
    Ok(axum::Json(UserMetadataBody {
        user_id: m.user_id,
        last_modified_datetime: utc_datetime(m.modified_at),
        last_modified_timestamp: m.modified_at,
    }))
}

/// `YYYY-MM-DD HH:MM:SS` in UTC.
pub fn utc_datetime(unix_seconds: i64) -> String {
    let format = time::macros::format_description!("[year]-[month]-[day] [hour]:[minute]:[second]");
    time::OffsetDateTime::from_unix_timestamp(unix_seconds)
        .ok()
        .and_then(|t| t.format(&format).ok())
        .unwrap_or_else(|| "1970-01-01 00:00:00".into())
}

/// How many users this client has.
#[utoipa::path(get, path = "/v1/user/all/count", tag = "chat",
    params(("current-user" = Option<String>, Header, description = "The API client")),
    responses((status = 200, description = "How many users this client has", body = UserCount), (status = 400, description = r::BAD_CALLER, body = ErrorBody)))]
pub async fn count_users(State(chat): Chat, caller: Caller) -> Result<axum::Json<UserCount>, ApiError> {
    Ok(axum::Json(UserCount { user_count: chat.count_users(caller.tenant()).await? }))
}

/// One page (zero-based, 100 per page) of this client's user ids, newest-modified first. A page past
/// the end is empty.
#[utoipa::path(get, path = "/v1/user/all/id/{page}", tag = "chat",
    params(("page" = u64, Path, description = "Zero-based page number"), ("current-user" = Option<String>, Header, description = "The API client")),
    responses((status = 200, description = "One page of user ids, newest-modified first; empty past the end", body = UserPage), (status = 400, description = "The page is not an integer from 0 to 2^63-1", body = ErrorBody)))]
pub async fn list_users(
    State(chat): Chat,
    caller: Caller,
    Path(page): Path<String>,
) -> Result<axum::Json<UserPage>, ApiError> {
    // Digits only, as Flask's `<int:page>` reads them (no sign), within the documented int64 range.
    let page = Some(page.as_str())
        .filter(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|p| p.parse::<i64>().ok())
        .and_then(|p| u64::try_from(p).ok())
        .ok_or_else(|| {
            ApiError::bad_request(
                "invalid_page",
                format!("the page must be an integer from 0 to {}, found {page:?}", i64::MAX),
            )
        })?;
    let users = chat.list_users(caller.tenant(), page).await?;
    Ok(axum::Json(UserPage { page, users }))
}

/// Resets the user's dialog to empty.
#[utoipa::path(delete, path = "/v1/user/dialog/{user_id}", tag = "chat",
    params(("user_id" = String, Path), ("current-user" = Option<String>, Header, description = "The API client")),
    responses((status = 200, description = "The user's dialog is empty now", body = UserId), (status = 400, description = r::BAD_CALLER, body = ErrorBody), (status = 404, description = r::NO_SUCH_USER, body = ErrorBody), (status = 422, description = r::BAD_USER_ID, body = ErrorBody)))]
pub async fn reset_dialog(
    State(chat): Chat,
    caller: Caller,
    Path(user_id): Path<String>,
) -> Result<axum::Json<UserId>, ApiError> {
    chat.reset_dialog(caller.tenant(), &user_id).await?;
    Ok(axum::Json(UserId { user_id }))
}

/// The dialog as a list of entries.
#[utoipa::path(get, path = "/v1/user/dialog/json/{user_id}", tag = "chat",
    params(("user_id" = String, Path), ("current-user" = Option<String>, Header, description = "The API client")),
    responses((status = 200, description = "The dialog as entries, oldest first", body = DialogJson), (status = 400, description = r::BAD_CALLER, body = ErrorBody), (status = 404, description = r::NO_SUCH_USER, body = ErrorBody), (status = 422, description = r::BAD_USER_ID, body = ErrorBody)))]
pub async fn dialog_json(
    State(chat): Chat,
    caller: Caller,
    Path(user_id): Path<String>,
) -> Result<Response, ApiError> {
    let dialog = chat.dialog_json(caller.tenant(), &user_id).await?;
    // `DialogJson`, written around the dialog the store rendered (and cached) as JSON.
    let mut body = Vec::with_capacity(dialog.len() + user_id.len() + 32);
    body.extend_from_slice(b"{\"user_id\":");
    body.extend_from_slice(serde_json::Value::from(user_id).to_string().as_bytes());
    body.extend_from_slice(b",\"dialog\":");
    body.extend_from_slice(&dialog);
    body.push(b'}');
    Ok(([(header::CONTENT_TYPE, "application/json")], body).into_response())
}

/// Replaces the dialog. A dialog with missing or duplicate indices, or fields of the wrong type, is
/// rejected whole and the stored dialog stays as it was.
#[utoipa::path(put, path = "/v1/user/dialog/json/{user_id}", tag = "chat", request_body = DialogBody,
    params(("user_id" = String, Path), ("current-user" = Option<String>, Header, description = "The API client")),
    responses(
        (status = 200, description = "The dialog was replaced", body = UserId),
        (status = 400, description = r::BAD_JSON, body = ErrorBody),
        (status = 404, description = r::NO_SUCH_USER, body = ErrorBody),
        (status = 413, description = r::TOO_LARGE, body = ErrorBody),
        (status = 415, description = r::NOT_JSON, body = ErrorBody),
        (status = 422, description = "Missing or duplicate indices, wrong types, or a limit exceeded", body = ErrorBody),
    ))]
pub async fn put_dialog_json(
    State(chat): Chat,
    caller: Caller,
    Path(user_id): Path<String>,
    Json(body): Json<DialogBody>,
) -> Result<axum::Json<UserId>, ApiError> {
    chat.set_dialog(caller.tenant(), &user_id, body.dialog.into_iter().map(DialogEntry::from).collect())
        .await?;
    Ok(axum::Json(UserId { user_id }))
}

/// The dialog in its string form.
#[utoipa::path(get, path = "/v1/user/dialog/str/{user_id}", tag = "chat",
    params(("user_id" = String, Path), ("current-user" = Option<String>, Header, description = "The API client")),
    responses((status = 200, description = "The dialog as one text", body = DialogStr), (status = 400, description = r::BAD_CALLER, body = ErrorBody), (status = 404, description = r::NO_SUCH_USER, body = ErrorBody), (status = 422, description = r::BAD_USER_ID, body = ErrorBody)))]
pub async fn dialog_str(
    State(chat): Chat,
    caller: Caller,
    Path(user_id): Path<String>,
) -> Result<axum::Json<DialogStr>, ApiError> {
    let dialog = chat.dialog(caller.tenant(), &user_id).await?;
    Ok(axum::Json(DialogStr { user_id, dialog: ChatService::dialog_string(&dialog.entries()) }))
}

/// Chat through the form-encoded endpoint of the original service; the reply is the bare text. The
/// fields may come in a form body, in the query string (as the original read them), or both; a field
/// given in both takes the query string's value. When the model fails the reply is `DEFAULT_RESPONSE`
/// and the header `X-Parlance-Fallback: default-response` says so.
#[utoipa::path(post, path = "/path", tag = "chat",
    request_body(content = Option<ChatBody>, content_type = "application/x-www-form-urlencoded",
        description = "The chat's fields, unless they are all in the query string"),
    params(
        ("current-user" = Option<String>, Header, description = "The API client"),
        ("user_id" = Option<String>, Query, description = "The user, when not in the body (this wins over the body)"),
        ("message" = Option<String>, Query, description = "The user's message, when not in the body (this wins over the body)"),
        ("from_name" = Option<String>, Query, description = "As in the body"),
        ("to_name" = Option<String>, Query, description = "As in the body"),
        ("situation" = Option<String>, Query, description = "As in the body"),
        ("genre" = Option<String>, Query, description = "As in the body"),
    ),
    responses(
        (status = 200, description = "The character's reply", content_type = "text/plain", body = String),
        (status = 400, description = r::BAD_FORM, body = ErrorBody),
        (status = 413, description = r::TOO_LARGE, body = ErrorBody),
        (status = 415, description = r::NOT_FORM, body = ErrorBody),
        (status = 422, description = "A missing field, a bad user_id, or a limit exceeded", body = ErrorBody),
        (status = 429, description = r::OVER_BUDGET, body = ErrorBody),
    ))]
pub async fn chat_form(
    State(chat): Chat,
    caller: Caller,
    QueryAndForm(body): QueryAndForm<ChatBody>,
) -> Result<Response, ApiError> {
    let reply = chat.chat(caller.tenant(), body.into()).await?;
    let marks = Marks::of(&reply);
    let mut response =
        ([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], reply.response).into_response();
    marks.apply(&mut response);
    Ok(response)
}

/// Chat through the JSON endpoint. When the model fails the reply is `DEFAULT_RESPONSE` and the header
/// `X-Parlance-Fallback: default-response` says so. A client that asks for server-sent events gets the
/// reply as it is written.
#[utoipa::path(post, path = "/v1/waifu", tag = "chat", request_body = ChatBody,
    params(("current-user" = Option<String>, Header, description = "The API client")),
    responses(
        (status = 200, description = "The character's reply; `DEFAULT_RESPONSE`, with the header `X-Parlance-Fallback: default-response`, when the model failed. With `Accept: text/event-stream` or `\"stream\": true`, server-sent events as the reply is written: `delta` events (`StreamDelta`), then `done` (`ChatDone`: the whole reply and the stored entries' indices) or `error` (`ErrorBody`; nothing is stored), with keep-alive comments while the model is silent",
            content((ChatResponse = "application/json"), (StreamEvent = "text/event-stream"))),
        (status = 400, description = r::BAD_JSON, body = ErrorBody),
        (status = 413, description = r::TOO_LARGE, body = ErrorBody),
        (status = 415, description = r::NOT_JSON, body = ErrorBody),
        (status = 422, description = "A missing field, a bad user_id, or a limit exceeded", body = ErrorBody),
        (status = 429, description = r::OVER_BUDGET, body = ErrorBody),
    ))]
pub async fn chat_json(
    State(chat): Chat,
    caller: Caller,
    headers: header::HeaderMap,
    Json(body): Json<ChatBody>,
) -> Result<Response, ApiError> {
    if body.stream || accepts_event_stream(&headers) {
        return chat_events(&chat, caller.tenant(), body).await;
    }
    let user_id = body.user_id.clone();
    let reply = chat.chat(caller.tenant(), body.into()).await?;
    let marks = Marks::of(&reply);
    let mut response = axum::Json(ChatResponse { user_id, response: reply.response }).into_response();
    marks.apply(&mut response);
    Ok(response)
}

/// Whether the client asked for server-sent events: `text/event-stream` among its `Accept` ranges.
fn accepts_event_stream(headers: &header::HeaderMap) -> bool {
    headers.get_all(header::ACCEPT).iter().filter_map(|v| v.to_str().ok()).any(|v| {
        v.split(',').any(|range| {
            let (media, params) = range.split_once(';').unwrap_or((range, ""));
            // `q=0` says "not this one".
            let refused =
                params.split(';').any(|p| matches!(p.trim(), "q=0" | "q=0.0" | "q=0.00" | "q=0.000"));
            media.trim().eq_ignore_ascii_case("text/event-stream") && !refused
        })
    })
}

/// A chat answered with server-sent events: a `delta` event per piece of the reply, then `done` (the
/// whole reply and the stored entries' indices) or `error` (`{"error": {code, message}}`, nothing
/// stored). A message the service refuses is an ordinary JSON error, before any event.
async fn chat_events(chat: &Arc<ChatService>, client: &str, body: ChatBody) -> Result<Response, ApiError> {
    use crate::rest::sse::json_event;
    use axum::response::sse::{Event, KeepAlive, Sse};
    use futures::StreamExt;
    let keepalive = Duration::from_secs(chat.config().stream_keepalive_secs);
    let events = chat.chat_stream(client, body.into(), Generation::default()).await?;
    let events = events.map(|event| {
        let event = match event {
            ChatEvent::Delta { text, fallback } => {
                json_event(Event::default().event("delta"), &StreamDelta { text, fallback })
            }
            ChatEvent::Done(done) => json_event(Event::default().event("done"), &done),
            ChatEvent::Error(e) => {
                let e = ApiError::from_error(&e);
                json_event(Event::default().event("error"), &ErrorBody::new(e.code, e.message))
            }
        };
        Ok::<_, std::convert::Infallible>(event)
    });
    // The reply is read after this handler returns: its spans stay in the request's trace.
    let events = crate::telemetry::WithSpan::in_span(events, crate::telemetry::Span::current());
    let mut response = Sse::new(events).keep_alive(KeepAlive::new().interval(keepalive)).into_response();
    // Proxies such as nginx buffer responses unless told not to.
    response.headers_mut().insert("x-accel-buffering", header::HeaderValue::from_static("no"));
    Ok(response)
}

/// One server-sent event of a streamed chat, as the event-stream format carries it: its name, and
/// its `data`, a JSON document (`StreamDelta` for `delta`, `ChatDone` for `done`, `ErrorBody` for
/// `error`). Keep-alive comments carry no event.
#[derive(Debug, Serialize, ToSchema)]
pub struct StreamEvent {
    #[schema(pattern = "^(delta|done|error)$")]
    pub event: String,
    /// The event's JSON document.
    pub data: String,
}

/// The data of a `delta` event.
#[derive(Debug, Serialize, ToSchema)]
pub struct StreamDelta {
    /// Text to append to the reply.
    pub text: String,
    /// The text is `DEFAULT_RESPONSE`, standing in for a model that failed before it wrote anything;
    /// the `done` that follows says so too and stores nothing.
    pub fallback: bool,
}

/// What the headers of a whole reply say of how it was made, beside a body the seed fixes: that
/// `DEFAULT_RESPONSE` stood in (`X-Parlance-Fallback`), the chat model of the chain that answered
/// when it is not the configured one (`X-Parlance-Chat-Model`), and the members that did not
/// (`X-Parlance-Attempts`). A reply of the configured model at once has none of them.
struct Marks {
    model_failed: bool,
    chat_model: Option<header::HeaderValue>,
    attempts: Option<header::HeaderValue>,
}

impl Marks {
    fn of(reply: &super::ChatReply) -> Marks {
        let chat_model = reply
            .chat_model
            .as_deref()
            .filter(|_| !reply.attempts.is_empty())
            .and_then(|id| header::HeaderValue::from_str(id).ok());
        Marks { model_failed: reply.model_failed, chat_model, attempts: attempts_header(&reply.attempts) }
    }

    fn apply(self, response: &mut Response) {
        let headers = response.headers_mut();
        if self.model_failed {
            headers.insert("x-parlance-fallback", header::HeaderValue::from_static("default-response"));
        }
        if let Some(model) = self.chat_model {
            headers.insert("x-parlance-chat-model", model);
        }
        if let Some(attempts) = self.attempts {
            headers.insert(outcome::HEADER, attempts);
        }
    }
}

/// `ok` while the server and its dialog store are healthy.
#[utoipa::path(get, path = "/v1/server/status", tag = "chat",
    responses((status = 200, description = "The server and its dialog store are healthy", body = Status), (status = 503, description = "The dialog store cannot be read", body = Status)))]
pub async fn status(State(chat): Chat) -> Response {
    let health = chat.health().await;
    let code = if health.status == "ok" { StatusCode::OK } else { StatusCode::SERVICE_UNAVAILABLE };
    (code, axum::Json(Status { status: health.status })).into_response()
}

#[cfg(test)]
mod tests {
    #[test]
    fn datetimes_are_utc() {
        assert_eq!(super::utc_datetime(0), "1970-01-01 00:00:00");
        assert_eq!(super::utc_datetime(1_700_000_000), "2023-11-14 22:13:20");
    }
}
