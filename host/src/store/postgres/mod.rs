//! The PostgreSQL backend: one database shared by every replica, reached through a bounded pool
//! (deadpool) of tokio-postgres connections, with TLS by rustls when the URL's `sslmode` asks for it.
//! Every write is one transaction, answered once committed; a dialog's appends are serialised by a
//! lock on its user's row, so indices stay contiguous whichever replica a chat reaches. The pool
//! drops connections that a restarted server closed and opens new ones, so an outage ends without a
//! restart of the replica.

mod cache;
mod dialogs;
mod jobs;
mod keys;
mod schema;
mod usage;

use super::backend::{Backend, StoreResult};
use super::model::{StoreError, Trouble};
use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod, Runtime};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// How long a request waits for a connection, and how long opening one may take, before the store
/// counts as unreachable: long enough for a busy pool, short enough that a dead server costs a
/// request seconds, not minutes.
const WAIT_FOR_CONNECTION: Duration = Duration::from_secs(5);
const CONNECT_TIMEOUT: Duration = Duration::from_secs(3);

pub struct PgBackend {
    pool: Pool,
    /// The URL without its password.
    location: String,
    dialogs: cache::VersionedDialogs,
}

type PgError = deadpool_postgres::PoolError;

/// The schema version this build writes.
pub fn schema_version() -> i64 {
    schema::VERSION
}

fn now_millis() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_millis() as i64).unwrap_or(0)
}

impl PgBackend {
    /// Connects to the database at `url` (`postgres://user:password@host:port/db?sslmode=…`) with at
    /// most `pool_size` connections, and brings its schema up to date. Fails at once, naming the URL
    /// without its password, when the server cannot be reached. TLS is the process's one rustls
    /// client configuration; whether it is used is the URL's `sslmode` (`disable`, `prefer` (the
    /// default), `require`); unlike libpq's `require`, the server's certificate is always verified.
    pub async fn connect(
        url: &str,
        pool_size: usize,
        tls: rustls::ClientConfig,
    ) -> Result<PgBackend, StoreError> {
        let location = crate::config::redact_url(url);
        let mut config: tokio_postgres::Config =
            url.parse().map_err(|source| StoreError::Postgres { location: location.clone(), source })?;
        config.connect_timeout(CONNECT_TIMEOUT);
        if config.get_application_name().is_none() {
            config.application_name("parlance");
        }
        // Fast recycling only asks whether the connection task has ended, which it has once a
        // restarted server closed the socket: no query per checkout.
        let manager = Manager::from_config(
            config,
            tokio_postgres_rustls::MakeRustlsConnect::new(tls),
            ManagerConfig { recycling_method: RecyclingMethod::Fast },
        );
        let pool = Pool::builder(manager)
            .max_size(pool_size.max(1))
            .runtime(Runtime::Tokio1)
            .wait_timeout(Some(WAIT_FOR_CONNECTION))
            .create_timeout(Some(CONNECT_TIMEOUT))
            .recycle_timeout(Some(CONNECT_TIMEOUT))
            .build()
            .map_err(|e| StoreError::Task(format!("cannot build the PostgreSQL pool: {e}")))?;
        let backend = PgBackend { pool, location, dialogs: cache::VersionedDialogs::default() };
        let mut conn = backend.conn().await?;
        schema::migrate(&mut conn, &backend.location).await?;
        Ok(backend)
    }

    /// A connection from the pool.
    async fn conn(&self) -> Result<deadpool_postgres::Client, StoreError> {
        self.pool.get().await.map_err(|source| StoreError::Pool { location: self.location.clone(), source })
    }

    /// Names the database in a query's error.
    fn err(&self, source: tokio_postgres::Error) -> StoreError {
        StoreError::Postgres { location: self.location.clone(), source }
    }
}

/// What kind of trouble a PostgreSQL error is: a server that cannot be reached, is shutting down or
/// refuses connections is `Unavailable` (503, retried later); a full disk is `Full`.
pub(super) fn trouble(e: &tokio_postgres::Error) -> Trouble {
    match e.code().map(|c| c.code()) {
        Some("53100") => Trouble::Full,
        Some(code)
            if code.starts_with("08") || code.starts_with("57P") || code == "53300" || code == "25006" =>
        {
            Trouble::Unavailable
        }
        Some(_) => Trouble::Other,
        None if e.is_closed() => Trouble::Unavailable,
        None => {
            let text = e.to_string();
            let transport = ["error connecting", "error communicating", "timeout", "error performing TLS"];
            if transport.iter().any(|t| text.starts_with(t)) { Trouble::Unavailable } else { Trouble::Other }
        }
    }
}

/// [`trouble`] of a failure to get a connection: all of them mean the server is out of reach.
pub(super) fn pool_trouble(e: &PgError) -> Trouble {
    match e {
        deadpool_postgres::PoolError::Backend(e) => match trouble(e) {
            Trouble::Other => Trouble::Unavailable,
            other => other,
        },
        _ => Trouble::Unavailable,
    }
}

impl Backend for PgBackend {
    fn location(&self) -> String {
        self.location.clone()
    }

    fn check(&self) -> StoreResult<'_, ()> {
        Box::pin(async move {
            let conn = self.conn().await?;
            conn.simple_query("SELECT 1").await.map_err(|e| self.err(e))?;
            Ok(())
        })
    }
}
