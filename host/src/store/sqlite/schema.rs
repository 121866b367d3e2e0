//! Schema migrations, versioned by SQLite's `user_version`: migration N brings a database from
//! version N-1 to N, in one transaction. Shipped migrations are never edited, only appended.

use super::super::model::StoreError;
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
    // 4: each user's entry count, so that an append learns its next index without counting the dialog.
    "ALTER TABLE users ADD COLUMN entries INTEGER NOT NULL DEFAULT 0 CHECK (entries >= 0);
    UPDATE users SET entries =
        (SELECT count(*) FROM dialog_entries e WHERE e.client = users.client AND e.user_id = users.user_id);",
    // 5: what a job asks of several candidates per text, and each item's ranked candidates (JSON).
    "ALTER TABLE jobs ADD COLUMN selection TEXT;
    ALTER TABLE job_items ADD COLUMN candidates TEXT;",
    // 6: the chain members that failed before a fallback served an item (JSON).
    "ALTER TABLE job_items ADD COLUMN attempts TEXT;",
    // 7: the trace context of the request that created a job.
    "ALTER TABLE jobs ADD COLUMN traceparent TEXT;",
    // 8: the usage ledger: one row per settled plugin call, and the same summed per hour.
    super::super::usage::LEDGER_SCHEMA,
    // 9: each API key's limits (budgets, tokens and requests per minute) as JSON; `{}` is none.
    "ALTER TABLE api_keys ADD COLUMN limits TEXT NOT NULL DEFAULT '{}';",
    // 10: the key that created a job, whose usage and budgets its items count against; each client's
    // limits, as a key's.
    super::super::keys::CLIENT_LIMITS_SCHEMA,
    // 11: the ledger's calls without their time index, which nothing read.
    super::super::usage::LEDGER_WITHOUT_TIME_INDEX,
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A database written before the entry counts were kept gets each user's count from its entries.
    #[test]
    fn the_entry_counts_are_taken_from_an_older_database() {
        let mut conn = Connection::open_in_memory().unwrap();
        for sql in &MIGRATIONS[..3] {
            conn.execute_batch(sql).unwrap();
        }
        conn.pragma_update(None, "user_version", 3).unwrap();
        conn.execute_batch(
            "INSERT INTO users VALUES ('c', 'ann', 0, 0), ('c', 'bob', 0, 0), ('d', 'ann', 0, 0);
             INSERT INTO dialog_entries VALUES ('c', 'ann', 0, 'A', 'x'), ('c', 'ann', 1, 'B', 'y'),
                                               ('d', 'ann', 0, 'A', 'z');",
        )
        .unwrap();
        migrate(&mut conn, Path::new(":memory:")).unwrap();
        let mut counts =
            conn.prepare("SELECT client, user_id, entries FROM users ORDER BY client, user_id").unwrap();
        let counts: Vec<(String, String, i64)> = counts
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        let expected = [("c", "ann", 2), ("c", "bob", 0), ("d", "ann", 1)];
        assert_eq!(counts, expected.map(|(c, u, n)| (c.to_owned(), u.to_owned(), n)));
    }
}
