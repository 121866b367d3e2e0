//! The admin API under `/admin/`: API keys created, listed, read, changed (name, budgets, tokens and
//! requests per minute) and revoked over HTTP, and each client's own limits (which hold every call of
//! the client, whatever its key) read and changed, behind the admin credential of the `[admin]`
//! section, which is not a client key.
//!
//! The credential comes from `PARLANCE_ADMIN_TOKEN`, else the first line of `[admin] token_file`; only
//! its SHA-256 is kept ([`AdminToken`], whose `Debug` says nothing of it), and a presented
//! `Authorization: Bearer` value is hashed and compared with it in constant time. [`AdminGate`], a
//! layer outside the key check, decides every request under `/admin/` before anything else does:
//! 404 `admin_disabled` with no credential configured, 401 `admin_unauthorized` without one or with
//! the wrong one, 403 `not_admin` for a client key (`prl_…`, never compared with the admin's).
//!
//! The contract with other routes: wherever a request presents the admin credential, the gate puts
//! [`crate::rest::extract::Admin`] on it (take it as `Option<Admin>`). With `[auth] api_keys =
//! "required"` the key check then lets it through only under `/admin/` and under `/usage`
//! (`auth::admits_admin`), where a route answers the admin for every client and a key for its own;
//! anywhere else the admin credential is refused as an unknown client key is. With keys off, the
//! marker is there all the same, and the routes decide.
//!
//! Changes reach servers as revocation always has: each server remembers a key's verdict (its client
//! and limits) for `[auth] cache_secs`, so a revocation or a new limit takes effect within that time.

use super::auth::bearer;
use crate::config::setting;
use crate::config::{Env, Kind, Section, Setting};
use crate::rest::extract::Admin;
use crate::rest::{ApiError, ErrorBody, Json, Path, Query};
use crate::store::keys::{self, check_client, check_name};
use crate::store::{
    ApiKey, Budget, BudgetsChange, DialogStore, KeyLimits, KeyUpdate, LimitsChange, StoreError,
};
use axum::Router;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use futures::future::{Either, Ready, ready};
use serde::{Deserialize, Deserializer, Serialize};
use std::convert::Infallible;
use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;
use std::task::{Context, Poll};
use tower::{Layer, Service};
use utoipa::{IntoParams, OpenApi, ToSchema};

/// The variable holding the admin credential itself.
pub const TOKEN_VARIABLE: &str = "PARLANCE_ADMIN_TOKEN";

/// The fewest characters an admin credential may have.
const MIN_TOKEN_CHARS: usize = 16;

/// The `[admin]` section: where the admin credential comes from.
#[derive(Clone, Debug, Default)]
pub struct AdminConfig {
    /// A file whose first non-blank line is the credential, read when `PARLANCE_ADMIN_TOKEN` is unset.
    pub token_file: Option<PathBuf>,
    /// The credential once read, as its hash; `None` turns the admin API off.
    pub token: Option<AdminToken>,
}

impl Section for AdminConfig {
    const NAME: &'static str = "admin";
    const ABOUT: &'static str = "The admin API's credential";

    fn settings() -> &'static [Setting<Self>] {
        static SETTINGS: &[Setting<AdminConfig>] = &[setting!(
            "token_file",
            Kind::FilePath,
            |c| c.token_file,
            env = "PARLANCE_ADMIN_TOKEN_FILE",
            "A file whose first line is the admin API's credential (at least 16 characters, not a `prl_` client key); `PARLANCE_ADMIN_TOKEN` holding the credential itself comes first. Neither set: `/admin/` answers 404"
        )];
        SETTINGS
    }
}

impl AdminConfig {
    /// Reads the credential: `PARLANCE_ADMIN_TOKEN`, else `token_file`; a file that cannot be read or
    /// a credential that could be taken for a client key is a problem of the configuration.
    pub fn resolve(mut self, env: &Env, problems: &mut Vec<String>) -> Self {
        let token = match (env.get(TOKEN_VARIABLE), &self.token_file) {
            (Some(value), _) => Some((value.trim().to_owned(), TOKEN_VARIABLE.to_owned())),
            (None, Some(path)) => match std::fs::read_to_string(path) {
                Ok(text) => Some((
                    text.lines().map(str::trim).find(|l| !l.is_empty()).unwrap_or_default().to_owned(),
                    format!("[admin] token_file {}", path.display()),
                )),
                Err(e) => {
                    problems.push(format!("[admin] token_file: cannot read {}: {e}", path.display()));
                    None
                }
            },
            (None, None) => None,
        };
        self.token = token.and_then(|(token, from)| {
            let problem = if token.chars().count() < MIN_TOKEN_CHARS {
                Some(format!("is shorter than {MIN_TOKEN_CHARS} characters"))
            } else if token.starts_with(keys::PREFIX) {
                Some(format!("starts with `{}`, as client keys do", keys::PREFIX))
            } else {
                None
            };
            match problem {
                Some(problem) => {
                    problems.push(format!("the admin credential in {from} {problem}"));
                    None
                }
                None => Some(AdminToken(keys::hash(&token))),
            }
        });
        self
    }
}

/// The admin credential, as its SHA-256 only.
#[derive(Clone, PartialEq, Eq)]
pub struct AdminToken(Vec<u8>);

impl AdminToken {
    /// Whether `presented` is the admin credential, in time that does not depend on where they differ.
    pub fn is(&self, presented: &str) -> bool {
        keys::matches(presented, &self.0)
    }
}

impl fmt::Debug for AdminToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("AdminToken(redacted)")
    }
}

/// Whether a path is the admin API's.
fn is_admin_path(path: &str) -> bool {
    path == "/admin" || path.starts_with("/admin/")
}

/// Whether a presented credential has the shape of a client key: then it is never the admin's.
fn is_client_key(presented: &str) -> bool {
    presented.starts_with(keys::PREFIX)
}

/// Decides the requests under `/admin/`, and marks any other that presents the admin credential.
#[derive(Clone)]
pub struct AdminGate(pub Option<Arc<AdminToken>>);

impl<S> Layer<S> for AdminGate {
    type Service = AdminGateService<S>;

    fn layer(&self, inner: S) -> Self::Service {
        AdminGateService { token: self.0.clone(), inner }
    }
}

#[derive(Clone)]
pub struct AdminGateService<S> {
    token: Option<Arc<AdminToken>>,
    inner: S,
}

impl<S> Service<Request> for AdminGateService<S>
where
    S: Service<Request, Response = Response, Error = Infallible>,
{
    type Response = Response;
    type Error = Infallible;
    type Future = Either<S::Future, Ready<Result<Response, Infallible>>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, mut request: Request) -> Self::Future {
        let presented = bearer(request.headers());
        let admin = if is_admin_path(request.uri().path()) {
            if let Some(refused) = admin_refusal(self.token.as_deref(), presented) {
                return Either::Right(ready(Ok(refused)));
            }
            true
        } else {
            // Client keys, the common case, cost nothing here: they are never hashed as the admin's.
            matches!((&self.token, presented), (Some(token), Some(p)) if !is_client_key(p) && token.is(p))
        };
        if admin {
            request.extensions_mut().insert(Admin);
        }
        Either::Left(self.inner.call(request))
    }
}

/// The admin API's own check (configured, presented, not a client key, and the admin's): the
/// refusal, if any.
fn admin_refusal(token: Option<&AdminToken>, presented: Option<&str>) -> Option<Response> {
    let Some(token) = token else {
        return Some(
            ApiError::new(
                StatusCode::NOT_FOUND,
                "admin_disabled",
                format!(
                    "the admin API is off: set {TOKEN_VARIABLE}, or [admin] token_file \
                 (PARLANCE_ADMIN_TOKEN_FILE), to the admin credential and restart or reload the server"
                ),
            )
            .into_response(),
        );
    };
    match presented {
        None => Some(unauthorized("the admin API needs the admin credential: send `Authorization: Bearer <admin token>`")),
        Some(p) if is_client_key(p) => Some(ApiError::new(
            StatusCode::FORBIDDEN,
            "not_admin",
            "this is a client key; the admin API takes only the admin credential ([admin] token_file or PARLANCE_ADMIN_TOKEN)",
        )
        .into_response()),
        Some(p) if !token.is(p) => Some(unauthorized("the credential is not the admin's")),
        Some(_) => None,
    }
}

fn unauthorized(message: &str) -> Response {
    let mut response = ApiError::new(StatusCode::UNAUTHORIZED, "admin_unauthorized", message).into_response();
    response.headers_mut().insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
    response
}

/// The admin routes; [`AdminGate`] has admitted every request that reaches them.
pub fn routes<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    DialogStore: axum::extract::FromRef<S>,
{
    Router::new()
        .route("/admin/keys", get(list_keys).post(create_key))
        .route("/admin/keys/{id}", get(show_key).patch(update_key).delete(revoke_key))
        .route("/admin/clients", get(list_clients))
        .route("/admin/clients/{client}", get(show_client).patch(update_client))
}

#[derive(OpenApi)]
#[openapi(
    paths(create_key, list_keys, show_key, update_key, revoke_key, list_clients, show_client, update_client),
    components(schemas(ApiKey, KeyLimits, Budget, crate::store::BudgetPeriod)),
    modifiers(&AdminScheme),
    tags((name = "admin", description = "API keys and clients, their budgets and limits, behind the admin credential"))
)]
struct ApiDoc;

/// The admin credential as a security scheme of its own, apart from the client keys'.
struct AdminScheme;

impl utoipa::Modify for AdminScheme {
    fn modify(&self, doc: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
        let scheme = HttpBuilder::new()
            .scheme(HttpAuthScheme::Bearer)
            .description(Some(
                "The admin credential (`PARLANCE_ADMIN_TOKEN` or `[admin] token_file`), never a client key",
            ))
            .build();
        doc.components
            .get_or_insert_with(Default::default)
            .add_security_scheme("admin_token", SecurityScheme::Http(scheme));
    }
}

/// The admin routes' OpenAPI fragment: a key's name is not blank.
pub fn openapi() -> utoipa::openapi::OpenApi {
    let mut doc = ApiDoc::openapi();
    for body in ["NewKey", "KeyChange"] {
        crate::rest::openapi::property(&mut doc, body, "name", crate::rest::openapi::text(None));
    }
    doc
}

/// `POST /admin/keys`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewKey {
    /// What the key is for.
    name: String,
    /// The client the key acts as: visible ASCII, spaces inside, at most 256 characters.
    client: String,
    #[serde(default)]
    budgets: Vec<Budget>,
    #[schema(minimum = 1, maximum = 2147483647)]
    tokens_per_minute: Option<u32>,
    #[schema(minimum = 1, maximum = 2147483647)]
    requests_per_minute: Option<u32>,
}

/// A new key: the key itself (shown this once; only its hash is stored), and its listing.
#[derive(Debug, Serialize, ToSchema)]
pub struct CreatedKey {
    /// `prl_…`, to send as `Authorization: Bearer <key>`.
    key: String,
    #[serde(flatten)]
    listed: ApiKey,
}

/// `PATCH /admin/keys/{id}`: what is absent stays; `null` clears a limit.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct KeyChange {
    name: Option<String>,
    /// The whole list of budgets (`[]` or `null`: none).
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<Vec<Budget>>)]
    budgets: Option<Option<Vec<Budget>>>,
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<u32>, minimum = 1, maximum = 2147483647)]
    tokens_per_minute: Option<Option<u32>>,
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<u32>, minimum = 1, maximum = 2147483647)]
    requests_per_minute: Option<Option<u32>>,
}

/// A field that is present, `null` or not: absent is the outer `None` (by `default`).
fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<T>, D::Error> {
    T::deserialize(d).map(Some)
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// Only this client's keys.
    client: Option<String>,
    /// Only revoked keys (`true`) or only those in force (`false`).
    revoked: Option<bool>,
}

/// Every key, newest first.
#[derive(Debug, Serialize, ToSchema)]
pub struct KeyList {
    keys: Vec<ApiKey>,
}

type Store = State<DialogStore>;

fn storage(e: StoreError) -> ApiError {
    ApiError::from_error(&crate::error::Error::Storage(e))
}

fn invalid(problem: impl Into<String>) -> ApiError {
    ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, "invalid_input", problem)
}

fn not_found(id: &str) -> ApiError {
    ApiError::new(StatusCode::NOT_FOUND, "key_not_found", format!("there is no key {id:?}"))
}

/// Create a key bound to a client, with its limits; its secret is in this answer only.
#[utoipa::path(post, path = "/admin/keys", tag = "admin", request_body = NewKey,
    security(("admin_token" = [])),
    responses(
        (status = 201, description = "The key, shown this once, and its listing", body = CreatedKey),
        (status = 400, description = "Malformed JSON", body = ErrorBody),
        (status = 401, description = "No admin credential, or not the admin's (`admin_unauthorized`)", body = ErrorBody),
        (status = 403, description = "A client key (`not_admin`)", body = ErrorBody),
        (status = 404, description = "The admin API is off (`admin_disabled`)", body = ErrorBody),
        (status = 415, description = "Not a JSON body", body = ErrorBody),
        (status = 422, description = "An unknown field, a bad period or amount, two budgets for one period, a per-minute limit of 0, an empty name or a client a `current-user` header could not hold", body = ErrorBody),
        (status = 503, description = "The store cannot take the key", body = ErrorBody),
    ))]
pub async fn create_key(State(store): Store, Json(body): Json<NewKey>) -> Result<Response, ApiError> {
    let name = check_name(&body.name).map_err(|p| invalid(format!("name {p}")))?;
    check_client(&body.client).map_err(|p| invalid(format!("client {p}")))?;
    let limits = KeyLimits {
        budgets: body.budgets,
        tokens_per_minute: body.tokens_per_minute,
        requests_per_minute: body.requests_per_minute,
    }
    .check()
    .map_err(invalid)?;
    let (key, listed) = store.create_key(name, &body.client, limits).await.map_err(storage)?;
    let location = format!("/admin/keys/{}", listed.id);
    Ok((StatusCode::CREATED, [(header::LOCATION, location)], axum::Json(CreatedKey { key, listed }))
        .into_response())
}

/// Every key (never a secret), newest first.
#[utoipa::path(get, path = "/admin/keys", tag = "admin", params(ListQuery),
    security(("admin_token" = [])),
    responses(
        (status = 200, description = "The keys", body = KeyList),
        (status = 400, description = "A bad query parameter", body = ErrorBody),
        (status = 401, description = "No admin credential, or not the admin's", body = ErrorBody),
        (status = 403, description = "A client key", body = ErrorBody),
        (status = 404, description = "The admin API is off", body = ErrorBody),
    ))]
pub async fn list_keys(
    State(store): Store,
    Query(query): Query<ListQuery>,
) -> Result<axum::Json<KeyList>, ApiError> {
    let mut keys = store.list_keys().await.map_err(storage)?;
    keys.retain(|k| {
        query.client.as_ref().is_none_or(|c| *c == k.client)
            && query.revoked.is_none_or(|r| r == k.revoked_at.is_some())
    });
    Ok(axum::Json(KeyList { keys }))
}

/// One key with its limits.
#[utoipa::path(get, path = "/admin/keys/{id}", tag = "admin",
    params(("id" = String, Path, description = "The key's id, as listings show it")),
    security(("admin_token" = [])),
    responses(
        (status = 200, description = "The key", body = ApiKey),
        (status = 401, description = "No admin credential, or not the admin's", body = ErrorBody),
        (status = 403, description = "A client key", body = ErrorBody),
        (status = 404, description = "No such key (`key_not_found`), or the admin API is off", body = ErrorBody),
    ))]
pub async fn show_key(State(store): Store, Path(id): Path<String>) -> Result<axum::Json<ApiKey>, ApiError> {
    store.get_key(&id).await.map_err(storage)?.map(axum::Json).ok_or_else(|| not_found(&id))
}

/// Rename a key or change its limits; servers apply the change within `[auth] cache_secs`.
#[utoipa::path(patch, path = "/admin/keys/{id}", tag = "admin", request_body = KeyChange,
    params(("id" = String, Path, description = "The key's id")),
    security(("admin_token" = [])),
    responses(
        (status = 200, description = "The key as changed", body = ApiKey),
        (status = 400, description = "Malformed JSON", body = ErrorBody),
        (status = 401, description = "No admin credential, or not the admin's", body = ErrorBody),
        (status = 403, description = "A client key", body = ErrorBody),
        (status = 404, description = "No such key (`key_not_found`), or the admin API is off", body = ErrorBody),
        (status = 409, description = "The key is revoked (`key_revoked`)", body = ErrorBody),
        (status = 415, description = "Not a JSON body", body = ErrorBody),
        (status = 422, description = "An unknown field, a bad period or amount, two budgets for one period, a per-minute limit of 0, an empty name", body = ErrorBody),
    ))]
pub async fn update_key(
    State(store): Store,
    Path(id): Path<String>,
    Json(body): Json<KeyChange>,
) -> Result<axum::Json<ApiKey>, ApiError> {
    let name = match &body.name {
        Some(name) => Some(check_name(name).map_err(|p| invalid(format!("name {p}")))?),
        None => None,
    };
    let change = limits_change(body.budgets, body.tokens_per_minute, body.requests_per_minute);
    match store.update_key(&id, name, &change).await.map_err(storage)? {
        KeyUpdate::Updated(key) => Ok(axum::Json(key)),
        KeyUpdate::NotFound => Err(not_found(&id)),
        KeyUpdate::Revoked(_) => Err(ApiError::new(
            StatusCode::CONFLICT,
            "key_revoked",
            format!("the key {id:?} is revoked; a revoked key is not changed (create a new one)"),
        )),
        KeyUpdate::Invalid(problem) => Err(invalid(problem)),
    }
}

/// Revoke a key; revoking it again answers the same. Servers stop taking it within `[auth] cache_secs`.
#[utoipa::path(delete, path = "/admin/keys/{id}", tag = "admin",
    params(("id" = String, Path, description = "The key's id")),
    security(("admin_token" = [])),
    responses(
        (status = 200, description = "The key, revoked (`revoked_at` says since when)", body = ApiKey),
        (status = 401, description = "No admin credential, or not the admin's", body = ErrorBody),
        (status = 403, description = "A client key", body = ErrorBody),
        (status = 404, description = "No such key (`key_not_found`), or the admin API is off", body = ErrorBody),
        (status = 503, description = "The store cannot take the change", body = ErrorBody),
    ))]
pub async fn revoke_key(State(store): Store, Path(id): Path<String>) -> Result<axum::Json<ApiKey>, ApiError> {
    store.revoke_key(&id).await.map_err(storage)?;
    store.get_key(&id).await.map_err(storage)?.map(axum::Json).ok_or_else(|| not_found(&id))
}

/// A change of limits as the admin API's bodies give it: the whole list of budgets, each per-minute
/// limit kept (absent), cleared (`null`) or set.
fn limits_change(
    budgets: Option<Option<Vec<Budget>>>,
    tokens_per_minute: Option<Option<u32>>,
    requests_per_minute: Option<Option<u32>>,
) -> LimitsChange {
    LimitsChange {
        budgets: budgets.map_or(BudgetsChange::Keep, |b| BudgetsChange::Replace(b.unwrap_or_default())),
        tokens_per_minute,
        requests_per_minute,
    }
}

/// A client's own limits, which hold every call of the client beside its key's.
#[derive(Debug, Serialize, ToSchema)]
pub struct ClientLimits {
    client: String,
    #[serde(flatten)]
    limits: KeyLimits,
}

/// Every client that has limits.
#[derive(Debug, Serialize, ToSchema)]
pub struct ClientList {
    clients: Vec<ClientLimits>,
}

/// `PATCH /admin/clients/{client}`: what is absent stays; `null` clears a limit.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ClientChange {
    /// The whole list of budgets (`[]` or `null`: none).
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<Vec<Budget>>)]
    budgets: Option<Option<Vec<Budget>>>,
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<u32>, minimum = 1, maximum = 2147483647)]
    tokens_per_minute: Option<Option<u32>>,
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<u32>, minimum = 1, maximum = 2147483647)]
    requests_per_minute: Option<Option<u32>>,
}

fn client_name(client: &str) -> Result<(), ApiError> {
    check_client(client).map_err(|p| invalid(format!("client {p}")))
}

/// Every client that has limits of its own, by name.
#[utoipa::path(get, path = "/admin/clients", tag = "admin",
    security(("admin_token" = [])),
    responses(
        (status = 200, description = "The clients with limits", body = ClientList),
        (status = 401, description = "No admin credential, or not the admin's", body = ErrorBody),
        (status = 403, description = "A client key", body = ErrorBody),
        (status = 404, description = "The admin API is off", body = ErrorBody),
    ))]
pub async fn list_clients(State(store): Store) -> Result<axum::Json<ClientList>, ApiError> {
    let clients = store.list_client_limits().await.map_err(storage)?;
    let clients = clients.into_iter().map(|(client, limits)| ClientLimits { client, limits }).collect();
    Ok(axum::Json(ClientList { clients }))
}

/// One client's own limits (none set: every field empty).
#[utoipa::path(get, path = "/admin/clients/{client}", tag = "admin",
    params(("client" = String, Path, description = "The client, as keys and `current-user` name it")),
    security(("admin_token" = [])),
    responses(
        (status = 200, description = "The client's limits", body = ClientLimits),
        (status = 401, description = "No admin credential, or not the admin's", body = ErrorBody),
        (status = 403, description = "A client key", body = ErrorBody),
        (status = 404, description = "The admin API is off", body = ErrorBody),
        (status = 422, description = "A client a `current-user` header could not hold", body = ErrorBody),
    ))]
pub async fn show_client(
    State(store): Store,
    Path(client): Path<String>,
) -> Result<axum::Json<ClientLimits>, ApiError> {
    client_name(&client)?;
    let limits = store.client_limits(&client).await.map_err(storage)?;
    Ok(axum::Json(ClientLimits { client, limits }))
}

/// Change a client's own limits, which hold every call of the client (with any of its keys, or by
/// `current-user` where keys are off) beside its key's; servers apply the change within 10 seconds.
#[utoipa::path(patch, path = "/admin/clients/{client}", tag = "admin", request_body = ClientChange,
    params(("client" = String, Path, description = "The client")),
    security(("admin_token" = [])),
    responses(
        (status = 200, description = "The client's limits as changed", body = ClientLimits),
        (status = 400, description = "Malformed JSON", body = ErrorBody),
        (status = 401, description = "No admin credential, or not the admin's", body = ErrorBody),
        (status = 403, description = "A client key", body = ErrorBody),
        (status = 404, description = "The admin API is off", body = ErrorBody),
        (status = 415, description = "Not a JSON body", body = ErrorBody),
        (status = 422, description = "An unknown field, a bad period or amount, two budgets for one period, a per-minute limit of 0, or a client a `current-user` header could not hold", body = ErrorBody),
        (status = 503, description = "The store cannot take the change", body = ErrorBody),
    ))]
pub async fn update_client(
    State(store): Store,
    Path(client): Path<String>,
    Json(body): Json<ClientChange>,
) -> Result<axum::Json<ClientLimits>, ApiError> {
    client_name(&client)?;
    let change = limits_change(body.budgets, body.tokens_per_minute, body.requests_per_minute);
    let limits = store.update_client_limits(&client, &change).await.map_err(storage)?.map_err(invalid)?;
    Ok(axum::Json(ClientLimits { client, limits }))
}
