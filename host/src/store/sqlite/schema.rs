//! Schema migrations, versioned by SQLite's `user_version`: migration N brings a database from
//! version N-1 to N, in one transaction. Shipped migrations are never edited, only appended.

use super::super::StoreError;
use rusqlite::Connection;
use std::path::Path;

const MIGRATIONS: &[&str] = &[
    // 1: users and their structured dialogs, per API client.
    "CREATE TABLE users (
        client      TEXT    NOT NULL,
        user_id     TEXT    NOT NULL,
        created_at  INTEGER NOT NULL,  -- milliseconds since the Unix epoch
        modified_at INTEGER NOT NULL,  -- milliseconds since the Unix epoch
        PRIMARY KEY (client, user_id)
    ) WITHOUT ROWID;
    CREATE INDEX users_by_modified ON users (client, modified_at DESC, user_id);
    CREATE TABLE dialog_entries (
        client  TEXT    NOT NULL,
        user_id TEXT    NOT NULL,
        idx     INTEGER NOT NULL CHECK (idx >= 0),
        name    TEXT    NOT NULL,
        message TEXT    NOT NULL,
        PRIMARY KEY (client, user_id, idx),
        FOREIGN KEY (client, user_id) REFERENCES users (client, user_id) ON DELETE CASCADE
    ) WITHOUT ROWID;",
    // 2: API keys, each bound to one client; only a hash of the secret is kept.
    "CREATE TABLE api_keys (
        id          TEXT    NOT NULL PRIMARY KEY,  -- the public part of the key, shown in listings
        secret_hash BLOB    NOT NULL,              -- SHA-256 of the whole key
        name        TEXT    NOT NULL,
        client      TEXT    NOT NULL,
        created_at  INTEGER NOT NULL,              -- milliseconds since the Unix epoch
        revoked_at  INTEGER                        -- milliseconds since the Unix epoch, or NULL
    );",
    // 3: asynchronous batch jobs and their items, claimed by replicas with a lease.
    "CREATE TABLE jobs (
        id           TEXT    NOT NULL PRIMARY KEY,
        client       TEXT    NOT NULL,
        provider     TEXT    NOT NULL,
        model        TEXT,
        skip_cache   INTEGER NOT NULL,
        status       TEXT    NOT NULL,  -- pending | processing | completed | cancelled
        total_items  INTEGER NOT NULL,
        successful   INTEGER NOT NULL DEFAULT 0,
        failed       INTEGER NOT NULL DEFAULT 0,
        created_at   INTEGER NOT NULL,  -- milliseconds since the Unix epoch
        started_at   INTEGER,
        completed_at INTEGER
    );
    CREATE INDEX jobs_by_client ON jobs (client, created_at DESC);
    CREATE TABLE job_items (
        job_id        TEXT    NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
        idx           INTEGER NOT NULL,
        text          TEXT    NOT NULL,
        state         TEXT    NOT NULL,  -- pending | claimed | done
        claimed_by    TEXT,
        lease_until   INTEGER,           -- milliseconds since the Unix epoch
        paraphrase    TEXT,
        provider      TEXT,
        model         TEXT,
        cached        INTEGER,
        error_code    TEXT,
        error_message TEXT,
        PRIMARY KEY (job_id, idx)
    ) WITHOUT ROWID;
    CREATE INDEX job_items_open ON job_items (state, lease_until) WHERE state != 'done';",
];

/// The schema version this build writes.
pub const VERSION: i64 = MIGRATIONS.len() as i64;

pub fn migrate(conn: &mut Connection, path: &Path) -> Result<(), StoreError> {
    let found: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
    if found > VERSION {
        return Err(StoreError::NewerSchema { path: path.display().to_string(), found, known: VERSION });
    }
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(found as usize) {
        let tx = conn.transaction()?;
        tx.execute_batch(sql)?;
        tx.pragma_update(None, "user_version", i as i64 + 1)?;
        tx.commit()?;
        tracing::info!(database = %path.display(), version = i + 1, "migrated the dialog store");
    }
    Ok(())
}
