//! The Redis side of the cache: a connection that is re-established after outages, with short
//! timeouts so that a dead store costs a request milliseconds, not seconds.

use redis::AsyncCommands;
use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How long one cache operation may take before the store counts as unreachable.
const OP_TIMEOUT: Duration = Duration::from_millis(250);
/// How often a down store is tried again.
const RETRY_EVERY: Duration = Duration::from_secs(10);

enum State {
    Up(ConnectionManager),
    Down { error: String, retry_at: Instant },
}

pub struct RedisStore {
    client: Option<redis::Client>,
    url: String,
    state: Mutex<State>,
}

impl RedisStore {
    /// Connects, or starts down. `warn` says whether a store that cannot be reached now is worth a
    /// warning; otherwise (a one-shot command that did not ask for Redis) it is said at info level.
    pub async fn connect(url: &str, warn: bool) -> RedisStore {
        let client = redis::Client::open(url);
        let state = match &client {
            Ok(client) => match connect(client).await {
                Ok(conn) => {
                    tracing::info!(url = %redact(url), "response cache: connected to Redis");
                    State::Up(conn)
                }
                Err(error) => down(url, error, warn),
            },
            Err(e) => down(url, format!("invalid URL: {e}"), warn),
        };
        RedisStore { client: client.ok(), url: url.to_owned(), state: Mutex::new(state) }
    }

    /// The current outage, if the store is down.
    pub fn outage(&self) -> Option<String> {
        match &*self.state.lock().ok()? {
            State::Up(_) => None,
            State::Down { error, .. } => {
                Some(format!("Redis at {} is unreachable ({error}); serving from memory", redact(&self.url)))
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
                tracing::info!(url = %redact(&self.url), "response cache: Redis is reachable again");
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
                tracing::warn!(url = %redact(&self.url), %error, "response cache: Redis failed; serving from memory until it is back");
            }
            *state = State::Down { error, retry_at: Instant::now() + RETRY_EVERY };
        }
        Err(())
    }

    pub async fn get(&self, key: &str) -> Result<Option<String>, ()> {
        let mut conn = self.connection().await.ok_or(())?;
        match tokio::time::timeout(OP_TIMEOUT, conn.get::<_, Option<String>>(key)).await {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(e)) => self.failed(e.to_string()),
            Err(_) => self.failed("timed out".into()),
        }
    }

    pub async fn set(&self, key: &str, value: &str, ttl: Duration) -> Result<(), ()> {
        let mut conn = self.connection().await.ok_or(())?;
        let secs = ttl.as_secs().max(1);
        match tokio::time::timeout(OP_TIMEOUT, conn.set_ex::<_, _, ()>(key, value, secs)).await {
            Ok(Ok(())) => Ok(()),
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

fn down(url: &str, error: String, warn: bool) -> State {
    if warn {
        tracing::warn!(url = %redact(url), %error, "response cache: Redis is unreachable; serving from memory until it is back");
    } else {
        tracing::info!(url = %redact(url), "response cache: no Redis at the default address; caching in memory for this run (set CACHE_TYPE=memory to skip Redis, or CACHE_TYPE=redis to be warned)");
    }
    State::Down { error, retry_at: Instant::now() + RETRY_EVERY }
}

/// The URL without its password, for logs and `/health`.
fn redact(url: &str) -> String {
    match (url.split_once("://"), url.rfind('@')) {
        (Some((scheme, rest)), Some(at)) if at > scheme.len() => {
            let host = &url[at + 1..];
            let user = rest.split(['@', ':']).next().unwrap_or_default();
            format!("{scheme}://{user}:***@{host}")
        }
        _ => url.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn redacts_passwords() {
        assert_eq!(super::redact("redis://:secret@host:6379/0"), "redis://:***@host:6379/0");
        assert_eq!(super::redact("redis://user:secret@host/0"), "redis://user:***@host/0");
        assert_eq!(super::redact("redis://localhost:6379/0"), "redis://localhost:6379/0");
    }
}
