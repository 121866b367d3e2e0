//! API keys, when the operator turns them on (`[auth] api_keys = "required"`): every request but the
//! health checks and the documentation carries `Authorization: Bearer <key>`, the key acts as the one
//! client it is bound to (a `current-user` header, if sent, must name that client), and rate limits
//! are kept for that client. Off by default, where the seed's `current-user` header alone names the
//! client. Keys live hashed in the dialog store's database; each presented key's verdict (its client
//! and its limits) is cached, so a check usually costs one map lookup, and a revocation or a change of
//! limits reaches a server within `[auth] cache_secs`. An admitted request carries
//! [`AuthenticatedClient`] and [`AuthenticatedKey`] (the key's id and limits).
//!
//! The admin credential (`[admin]`, see `admin.rs`) is not a client key: a request that presented it
//! carries [`crate::rest::extract::Admin`], and passes here only under `/admin/` (which the admin gate
//! has decided) and under `/usage` ([`admits_admin`]); elsewhere it is refused as an unknown key is.

use crate::config::setting;
use crate::config::{Kind, Section, Setting};
use crate::rest::ApiError;
use crate::rest::extract::{Admin, AuthenticatedClient, AuthenticatedKey};
use crate::store::{DialogStore, keys};
use axum::extract::Request;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use futures::future::{BoxFuture, Either};
use std::convert::Infallible;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;
use tower::{Layer, Service};

/// The `[auth]` section.
#[derive(Clone, Debug)]
pub struct AuthConfig {
    /// `off` (the seed's behaviour) or `required`.
    pub api_keys: String,
    /// How long a key's lookup is remembered; a revoked key stops working within this time.
    pub cache_secs: u64,
}

impl Default for AuthConfig {
    fn default() -> Self {
        AuthConfig { api_keys: "off".into(), cache_secs: 30 }
    }
}

impl AuthConfig {
    pub fn required(&self) -> bool {
        self.api_keys == "required"
    }
}

impl Section for AuthConfig {
    const NAME: &'static str = "auth";
    const ABOUT: &'static str = "API keys";

    fn settings() -> &'static [Setting<Self>] {
        static SETTINGS: &[Setting<AuthConfig>] = &[
            setting!(
                "api_keys",
                Kind::Choice(&["off", "required"]),
                |c| c.api_keys,
                env = "PARLANCE_API_KEYS",
                "`required`: every request but the health checks and the docs needs `Authorization: Bearer <key>` (see `parlance keys`); `off`: the `current-user` header names the client"
            ),
            setting!(
                "cache_secs",
                Kind::Int { min: 0, max: 3600 },
                |c| c.cache_secs,
                "Seconds a key's lookup is remembered; a revoked key stops working within this time"
            ),
        ];
        SETTINGS
    }
}

/// Checks keys against the store, remembering each verdict for a while.
pub struct Auth {
    store: DialogStore,
    /// By the whole presented key, once checked against its stored hash: the client it acts as and its
    /// limits, or `None` for a key that is unknown, revoked or wrong. A hit is the whole check on the
    /// hot path: one synchronous map lookup, no hash and no await.
    verdicts: moka::sync::Cache<String, Option<Arc<Verdict>>>,
}

/// What an admitted key acts as.
#[derive(Debug)]
struct Verdict {
    client: Arc<str>,
    key: AuthenticatedKey,
}

impl Auth {
    pub fn new(store: DialogStore, config: &AuthConfig) -> Auth {
        let verdicts = moka::sync::Cache::builder()
            .max_capacity(100_000)
            .time_to_live(Duration::from_secs(config.cache_secs.max(1)))
            .build();
        Auth { store, verdicts }
    }

    /// The client a presented key acts as, and its limits; `Ok(None)` for a key that is unknown,
    /// revoked or wrong.
    async fn client_of(&self, key: &str) -> Result<Option<Arc<Verdict>>, crate::store::StoreError> {
        if let Some(verdict) = self.verdicts.get(key) {
            return Ok(verdict);
        }
        // Without the shape of a key there is nothing to look up, and nothing worth remembering.
        let Some(id) = keys::id_of(key) else { return Ok(None) };
        let record = self.store.find_key(id).await?;
        let verdict = record.filter(|r| !r.revoked && keys::matches(key, &r.secret_hash)).map(|r| {
            Arc::new(Verdict {
                client: Arc::from(r.client),
                key: AuthenticatedKey { id: Arc::from(id), limits: Arc::new(r.limits) },
            })
        });
        self.verdicts.insert(key.to_owned(), verdict.clone());
        Ok(verdict)
    }
}

/// Routes anyone may call: the health checks a load balancer polls, the documentation, and the
/// playground's page and assets (whose calls to the API carry the key typed into it).
fn is_public(path: &str) -> bool {
    matches!(path, "/health" | "/v1/server/status" | "/openapi.json")
        || path.starts_with("/docs")
        || path.starts_with("/redoc")
        || path == "/manual"
        || path.starts_with("/manual/")
        || path == "/playground"
        || path.starts_with("/playground/")
}

/// Routes that take the admin credential as well as a client key: `GET /usage` answers the admin
/// for every client, a key for its own client.
pub fn admits_admin(path: &str) -> bool {
    path == "/usage" || path.starts_with("/usage/")
}

/// The credential a request presents as `Authorization: Bearer <credential>`, if any.
pub(super) fn bearer(headers: &axum::http::HeaderMap) -> Option<&str> {
    headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer ").or_else(|| v.strip_prefix("bearer ")))
        .map(str::trim)
}

/// What the key check decides without waiting: the request is admitted as a client, refused, or its
/// key must be looked up in the store.
enum Check {
    /// A health check or the documentation, open to anyone.
    Public,
    Admitted(Arc<Verdict>),
    Refused(Response),
    LookUp(String),
}

impl Auth {
    /// The check from the request and the remembered verdicts alone.
    fn check_now(&self, request: &Request) -> Check {
        let path = request.uri().path();
        if is_public(path) {
            return Check::Public;
        }
        if request.extensions().get::<Admin>().is_some() {
            if path.starts_with("/admin/") || path == "/admin" || admits_admin(path) {
                return Check::Public;
            }
            return Check::Refused(unauthorized(
                "invalid_api_key",
                "the admin credential is not a client key: send a client key (`parlance keys create` or \
                 `POST /admin/keys`) on this route",
            ));
        }
        let presented = bearer(request.headers());
        let Some(presented) = presented else {
            return Check::Refused(unauthorized(
                "missing_api_key",
                "this server requires an API key: send `Authorization: Bearer <key>`",
            ));
        };
        match self.verdicts.get(presented) {
            Some(Some(client)) => Check::Admitted(client),
            Some(None) => Check::Refused(invalid_key()),
            None => Check::LookUp(presented.to_owned()),
        }
    }
}

/// The key check as a layer. A request whose key's verdict is remembered goes straight on to the
/// routes, with no future boxed and nothing awaited; only a key not yet remembered waits for the store.
#[derive(Clone)]
pub struct RequireKey(pub Arc<Auth>);

impl<S> Layer<S> for RequireKey {
    type Service = RequireKeyService<S>;

    fn layer(&self, inner: S) -> Self::Service {
        RequireKeyService { auth: self.0.clone(), inner }
    }
}

#[derive(Clone)]
pub struct RequireKeyService<S> {
    auth: Arc<Auth>,
    inner: S,
}

impl<S> Service<Request> for RequireKeyService<S>
where
    S: Service<Request, Response = Response, Error = Infallible> + Clone + Send + 'static,
    S::Future: Send + 'static,
{
    type Response = Response;
    type Error = Infallible;
    type Future = Either<S::Future, BoxFuture<'static, Result<Response, Infallible>>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, mut request: Request) -> Self::Future {
        let verdict = match self.auth.check_now(&request) {
            Check::Public => return Either::Left(self.inner.call(request)),
            Check::Admitted(verdict) => verdict,
            Check::Refused(response) => return Either::Right(Box::pin(async { Ok(response) })),
            Check::LookUp(key) => {
                // The service that was made ready goes with the request; this one gets a clone.
                let clone = self.inner.clone();
                let mut inner = std::mem::replace(&mut self.inner, clone);
                let auth = self.auth.clone();
                return Either::Right(Box::pin(async move {
                    let verdict = match auth.client_of(&key).await {
                        Ok(Some(verdict)) => verdict,
                        Ok(None) => return Ok(invalid_key()),
                        Err(e) => {
                            return Ok(ApiError::from_error(&crate::error::Error::Storage(e)).into_response());
                        }
                    };
                    match admit(&mut request, &verdict) {
                        None => inner.call(request).await,
                        Some(refused) => Ok(refused),
                    }
                }));
            }
        };
        match admit(&mut request, &verdict) {
            None => Either::Left(self.inner.call(request)),
            Some(refused) => Either::Right(Box::pin(async { Ok(refused) })),
        }
    }
}

/// Puts the key's client on the request, unless its `current-user` header names another: then the
/// refusal.
fn admit(request: &mut Request, verdict: &Verdict) -> Option<Response> {
    let client = &verdict.client;
    let mismatch = request
        .headers()
        .get_all("current-user")
        .iter()
        .any(|v| v.to_str().is_ok_and(|c| c.trim() != &**client));
    if mismatch {
        return Some(
            ApiError::new(
                StatusCode::FORBIDDEN,
                "client_mismatch",
                "the `current-user` header names another client than the API key's; send the key's client or no header",
            )
            .into_response(),
        );
    }
    request.extensions_mut().insert(AuthenticatedClient(client.clone()));
    request.extensions_mut().insert(verdict.key.clone());
    None
}

fn invalid_key() -> Response {
    unauthorized("invalid_api_key", "the API key is unknown or revoked")
}

fn unauthorized(code: &'static str, message: &str) -> Response {
    let mut response = ApiError::new(StatusCode::UNAUTHORIZED, code, message).into_response();
    response.headers_mut().insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
    response
}
