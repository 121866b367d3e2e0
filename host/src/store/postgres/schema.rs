//! Schema migrations for PostgreSQL, versioned in a `schema_version` table: migration N brings the
//! database from version N-1 to N, in one transaction. Replicas starting together take a
//! session-level advisory lock first, so exactly one of them migrates and the others find the work
//! done. Shipped migrations are never edited, only appended.

use super::super::model::StoreError;

/// An arbitrary constant that names Parlance's migration lock ("PRLC" followed by "MIGR").
const MIGRATION_LOCK: i64 = 0x5052_4c43_4d49_4752;

const MIGRATIONS: &[&str] = &[
    // 1: the schema of SQLite's three migrations at once, plus per user a version (bumped by every
    // write to the dialog, which replicas compare with their cached copy) and its entry count (the
    // next index, kept under the user's row lock).
    "CREATE TABLE users (
        client      TEXT   NOT NULL,
        user_id     TEXT   NOT NULL,
        created_at  BIGINT NOT NULL,  -- milliseconds since the Unix epoch
        modified_at BIGINT NOT NULL,  -- milliseconds since the Unix epoch
        version     BIGINT NOT NULL DEFAULT 0,
        entries     INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (client, user_id)
    );
    CREATE INDEX users_by_modified ON users (client, modified_at DESC, user_id);
    CREATE TABLE dialog_entries (
        client  TEXT    NOT NULL,
        user_id TEXT    NOT NULL,
        idx     INTEGER NOT NULL CHECK (idx >= 0),
        name    TEXT    NOT NULL,
        message TEXT    NOT NULL,
        PRIMARY KEY (client, user_id, idx),
        FOREIGN KEY (client, user_id) REFERENCES users (client, user_id) ON DELETE CASCADE
    );
    CREATE TABLE api_keys (
        id          TEXT   NOT NULL PRIMARY KEY,
        secret_hash BYTEA  NOT NULL,  -- SHA-256 of the whole key
        name        TEXT   NOT NULL,
        client      TEXT   NOT NULL,
        created_at  BIGINT NOT NULL,
        revoked_at  BIGINT
    );
    CREATE TABLE jobs (
        id           TEXT    NOT NULL PRIMARY KEY,
        client       TEXT    NOT NULL,
        provider     TEXT    NOT NULL,
        model        TEXT,
        skip_cache   BOOLEAN NOT NULL,
        status       TEXT    NOT NULL,  -- pending | processing | completed | cancelled
        total_items  BIGINT  NOT NULL,
        successful   BIGINT  NOT NULL DEFAULT 0,
        failed       BIGINT  NOT NULL DEFAULT 0,
        created_at   BIGINT  NOT NULL,
        started_at   BIGINT,
        completed_at BIGINT
    );
    CREATE INDEX jobs_by_client ON jobs (client, created_at DESC);
    CREATE TABLE job_items (
        job_id        TEXT    NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
        idx           BIGINT  NOT NULL,
        text          TEXT    NOT NULL,
        state         TEXT    NOT NULL,  -- pending | claimed | done
        claimed_by    TEXT,
        lease_until   BIGINT,
        paraphrase    TEXT,
        provider      TEXT,
        model         TEXT,
        cached        BOOLEAN,
        error_code    TEXT,
        error_message TEXT,
        PRIMARY KEY (job_id, idx)
    );
    CREATE INDEX job_items_open ON job_items (state, lease_until) WHERE state <> 'done';",
    // 2: what a job asks of several candidates per text, and each item's ranked candidates (JSON).
    "ALTER TABLE jobs ADD COLUMN selection TEXT;
    ALTER TABLE job_items ADD COLUMN candidates TEXT;",
    // 3: the chain members that failed before a fallback served an item (JSON).
    "ALTER TABLE job_items ADD COLUMN attempts TEXT;",
    // 4: the trace context of the request that created a job.
    "ALTER TABLE jobs ADD COLUMN traceparent TEXT;",
    // 5: the usage ledger, as in SQLite.
    super::super::usage::LEDGER_SCHEMA,
    // 6: each API key's limits (budgets, tokens and requests per minute) as JSON; `{}` is none.
    "ALTER TABLE api_keys ADD COLUMN limits TEXT NOT NULL DEFAULT '{}';",
    // 7: the key that created a job, whose usage and budgets its items count against; each client's
    // limits, as a key's.
    super::super::keys::CLIENT_LIMITS_SCHEMA,
    // 8: the ledger's calls without their time index, which nothing read.
    super::super::usage::LEDGER_WITHOUT_TIME_INDEX,
];

/// The schema version this build writes.
pub const VERSION: i64 = MIGRATIONS.len() as i64;

pub async fn migrate(conn: &mut deadpool_postgres::Client, location: &str) -> Result<(), StoreError> {
    conn.execute("SELECT pg_advisory_lock($1)", &[&MIGRATION_LOCK])
        .await
        .map_err(|source| StoreError::Postgres { location: location.to_owned(), source })?;
    let migrated = apply(conn, location).await;
    // A connection that goes back to the pool must not keep the lock; if the unlock itself fails the
    // connection is broken, and its lock ends with its session.
    let _ = conn.execute("SELECT pg_advisory_unlock($1)", &[&MIGRATION_LOCK]).await;
    migrated
}

async fn apply(conn: &mut deadpool_postgres::Client, location: &str) -> Result<(), StoreError> {
    let pg = |source| StoreError::Postgres { location: location.to_owned(), source };
    conn.batch_execute("CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)")
        .await
        .map_err(pg)?;
    let found: i64 = conn
        .query_opt("SELECT version FROM schema_version", &[])
        .await
        .map_err(pg)?
        .map(|r| r.get(0))
        .unwrap_or(0);
    if found > VERSION {
        return Err(StoreError::NewerSchema { path: location.to_owned(), found, known: VERSION });
    }
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(found as usize) {
        let tx = conn.transaction().await.map_err(pg)?;
        tx.batch_execute(sql).await.map_err(pg)?;
        tx.execute("DELETE FROM schema_version", &[]).await.map_err(pg)?;
        tx.execute("INSERT INTO schema_version (version) VALUES ($1)", &[&(i as i64 + 1)])
            .await
            .map_err(pg)?;
        tx.commit().await.map_err(pg)?;
        tracing::info!(database = %location, version = i + 1, "migrated the dialog store");
    }
    Ok(())
}
