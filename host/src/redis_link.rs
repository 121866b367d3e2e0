//! One link to Redis shared by a component (the response cache, the rate limits): a connection that
//! is re-established after outages, with short timeouts so that a dead store costs a request
//! milliseconds, not seconds. While Redis is down the component falls back to something in-process;
//! the link says so once per outage and tells `/health`.

use crate::config::redact_url as redact;
use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use std::future::Future;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How long one operation may take before the store counts as unreachable.
const OP_TIMEOUT: Duration = Duration::from_millis(250);
/// How often a down store is tried again.
const RETRY_EVERY: Duration = Duration::from_secs(10);

enum State {
    Up(ConnectionManager),
    Down { error: String, retry_at: Instant },
}

pub struct RedisLink {
    client: Option<redis::Client>,
    url: String,
    /// Who uses the link, for its messages ("response cache").
    user: &'static str,
    /// What the user does while Redis is down ("serving from memory").
    fallback: &'static str,
    state: Mutex<State>,
}

impl RedisLink {
    /// Connects, or starts down. `warn` says whether a store that cannot be reached now is worth a
    /// warning; otherwise (a one-shot command that did not ask for Redis) it is said at info level.
    pub async fn connect(url: &str, warn: bool, user: &'static str, fallback: &'static str) -> RedisLink {
        let client = redis::Client::open(url);
        let state = match &client {
            Ok(client) => match connect(client).await {
                Ok(conn) => {
                    tracing::info!(url = %redact(url), "{user}: connected to Redis");
                    State::Up(conn)
                }
                Err(error) => down(url, error, warn, user, fallback),
            },
            Err(e) => down(url, format!("invalid URL: {e}"), warn, user, fallback),
        };
        RedisLink { client: client.ok(), url: url.to_owned(), user, fallback, state: Mutex::new(state) }
    }

    /// The current outage, if the store is down.
    pub fn outage(&self) -> Option<String> {
        match &*self.state.lock().ok()? {
            State::Up(_) => None,
            State::Down { error, .. } => {
                Some(format!("Redis at {} is unreachable ({error}); {}", redact(&self.url), self.fallback))
            }
        }
    }

    /// A connection to use now, reconnecting when a down store is due for a retry.
    async fn connection(&self) -> Option<ConnectionManager> {
        let due = {
            let state = self.state.lock().ok()?;
            match &*state {
                State::Up(conn) => return Some(conn.clone()),
                State::Down { retry_at, .. } => Instant::now() >= *retry_at,
            }
        };
        if !due {
            return None;
        }
        let client = self.client.as_ref()?;
        match connect(client).await {
            Ok(conn) => {
                tracing::info!(url = %redact(&self.url), "{}: Redis is reachable again", self.user);
                *self.state.lock().ok()? = State::Up(conn.clone());
                Some(conn)
            }
            Err(error) => {
                *self.state.lock().ok()? = State::Down { error, retry_at: Instant::now() + RETRY_EVERY };
                None
            }
        }
    }

    /// Marks the store down (warning once per outage) and fails the operation.
    fn failed<T>(&self, error: String) -> Result<T, ()> {
        if let Ok(mut state) = self.state.lock() {
            if matches!(*state, State::Up(_)) {
                tracing::warn!(url = %redact(&self.url), %error, "{}: Redis failed; {} until it is back", self.user, self.fallback);
            }
            *state = State::Down { error, retry_at: Instant::now() + RETRY_EVERY };
        }
        Err(())
    }

    /// Runs one operation on the connection, within the timeout; `Err` (and the link down) when
    /// Redis is unreachable or failed.
    pub async fn run<T, F, Fut>(&self, op: F) -> Result<T, ()>
    where
        F: FnOnce(ConnectionManager) -> Fut,
        Fut: Future<Output = redis::RedisResult<T>>,
    {
        let conn = self.connection().await.ok_or(())?;
        match tokio::time::timeout(OP_TIMEOUT, op(conn)).await {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(e)) => self.failed(e.to_string()),
            Err(_) => self.failed("timed out".into()),
        }
    }
}

async fn connect(client: &redis::Client) -> Result<ConnectionManager, String> {
    let config = ConnectionManagerConfig::new()
        .set_connection_timeout(Some(OP_TIMEOUT))
        .set_response_timeout(Some(OP_TIMEOUT))
        .set_number_of_retries(0);
    match tokio::time::timeout(OP_TIMEOUT * 2, ConnectionManager::new_with_config(client.clone(), config))
        .await
    {
        Ok(Ok(conn)) => Ok(conn),
        Ok(Err(e)) => Err(e.to_string()),
        Err(_) => Err("connection timed out".into()),
    }
}

fn down(url: &str, error: String, warn: bool, user: &str, fallback: &str) -> State {
    if warn {
        tracing::warn!(url = %redact(url), %error, "{user}: Redis is unreachable; {fallback} until it is back");
    } else {
        tracing::info!(url = %redact(url), "{user}: no Redis at the default address; {fallback} for this run (set CACHE_TYPE=memory to skip Redis, or CACHE_TYPE=redis to be warned)");
    }
    State::Down { error, retry_at: Instant::now() + RETRY_EVERY }
}
