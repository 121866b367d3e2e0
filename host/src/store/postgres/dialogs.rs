//! Users and their dialogs in PostgreSQL. Every write to a dialog bumps its user's `version` in the
//! same transaction; an append takes the user's row lock with the upsert that bumps it (`INSERT … ON
//! CONFLICT DO UPDATE` locks the row as `SELECT … FOR UPDATE` would), so concurrent appends for one
//! user, from any replica, queue on that row and each reads the entry count the previous one left.

use super::super::backend::{Dialogs, StoreResult};
use super::super::cache::{Dialog, UserKey};
use super::super::entry::DialogEntry;
use super::super::model::{Imported, Recent, StoreError, UserMetadata};
use super::{PgBackend, now_millis};
use deadpool_postgres::GenericClient;
use std::sync::Arc;
use tokio_postgres::Row;
use tokio_postgres::types::ToSql;

type Params<'a> = &'a [&'a (dyn ToSql + Sync)];

/// Runs one of the store's fixed statements, prepared once per connection.
pub(super) async fn query<C: GenericClient>(
    c: &C,
    sql: &str,
    params: Params<'_>,
) -> Result<Vec<Row>, tokio_postgres::Error> {
    let statement = c.prepare_cached(sql).await?;
    c.query(&statement, params).await
}

/// [`query`] for a statement that changes rows: how many.
pub(super) async fn execute<C: GenericClient>(
    c: &C,
    sql: &str,
    params: Params<'_>,
) -> Result<u64, tokio_postgres::Error> {
    let statement = c.prepare_cached(sql).await?;
    c.execute(&statement, params).await
}

/// Inserts `entries` with the indices they carry, in one statement.
async fn insert_entries<C: GenericClient>(
    c: &C,
    client: &str,
    user: &str,
    entries: &[DialogEntry],
) -> Result<(), tokio_postgres::Error> {
    if entries.is_empty() {
        return Ok(());
    }
    let indices: Vec<i32> = entries.iter().map(|e| e.index as i32).collect();
    let names: Vec<&str> = entries.iter().map(|e| e.name.as_str()).collect();
    let messages: Vec<&str> = entries.iter().map(|e| e.message.as_str()).collect();
    execute(
        c,
        "INSERT INTO dialog_entries (client, user_id, idx, name, message)
         SELECT $1, $2, e.idx, e.name, e.message FROM unnest($3::int4[], $4::text[], $5::text[]) AS e (idx, name, message)",
        &[&client, &user, &indices, &names, &messages],
    )
    .await?;
    Ok(())
}

/// The user's dialog version and entries, read in one statement (one snapshot); `None` when there is
/// no such user.
async fn load<C: GenericClient>(
    c: &C,
    client: &str,
    user: &str,
) -> Result<Option<(i64, Vec<DialogEntry>)>, tokio_postgres::Error> {
    let rows = query(
        c,
        "SELECT u.version, e.idx, e.name, e.message FROM users u
         LEFT JOIN dialog_entries e ON e.client = u.client AND e.user_id = u.user_id
         WHERE u.client = $1 AND u.user_id = $2 ORDER BY e.idx",
        &[&client, &user],
    )
    .await?;
    let Some(first) = rows.first() else { return Ok(None) };
    let version: i64 = first.get(0);
    let entries = rows
        .iter()
        .filter_map(|r| {
            let index: Option<i32> = r.get(1);
            Some(DialogEntry { index: index? as u32, name: r.get(2), message: r.get(3) })
        })
        .collect();
    Ok(Some((version, entries)))
}

impl PgBackend {
    /// Replaces the dialog (and bumps its version) in one transaction; false when there is no such
    /// user. The new dialog goes to memory as it is.
    async fn replace(&self, client: &str, user: &str, entries: Vec<DialogEntry>) -> Result<bool, StoreError> {
        let mut conn = self.conn().await?;
        let tx = conn.transaction().await.map_err(|e| self.err(e))?;
        let count = entries.len() as i32;
        let version = query(
            &tx,
            "UPDATE users SET modified_at = $3, version = version + 1, entries = $4
             WHERE client = $1 AND user_id = $2 RETURNING version",
            &[&client, &user, &now_millis(), &count],
        )
        .await
        .map_err(|e| self.err(e))?;
        let Some(version) = version.first().map(|r| r.get::<_, i64>(0)) else { return Ok(false) };
        execute(&tx, "DELETE FROM dialog_entries WHERE client = $1 AND user_id = $2", &[&client, &user])
            .await
            .map_err(|e| self.err(e))?;
        insert_entries(&tx, client, user, &entries).await.map_err(|e| self.err(e))?;
        tx.commit().await.map_err(|e| self.err(e))?;
        self.dialogs.put(key(client, user), version, Dialog::new(entries));
        Ok(true)
    }
}

impl PgBackend {
    /// The refusal of an exchange of `adding` lines that would pass `limit`, with the count it would
    /// have made (a failure to read it is the error instead).
    async fn full(
        &self,
        conn: &deadpool_postgres::Client,
        client: &str,
        user: &str,
        adding: usize,
        limit: usize,
    ) -> StoreError {
        let sql = "SELECT entries FROM users WHERE client = $1 AND user_id = $2";
        match query(conn, sql, &[&client, &user]).await {
            Ok(rows) => {
                let entries = rows.first().map_or(0, |r| r.get::<_, i32>(0)).max(0) as usize;
                StoreError::DialogFull { would: entries + adding, limit }
            }
            Err(e) => self.err(e),
        }
    }
}

fn key(client: &str, user: &str) -> UserKey {
    (client.to_owned(), user.to_owned())
}

impl Dialogs for PgBackend {
    fn put_user<'a>(&'a self, client: &'a str, user: &'a str) -> StoreResult<'a, bool> {
        Box::pin(async move {
            let conn = self.conn().await?;
            let n = execute(
                &conn,
                "INSERT INTO users (client, user_id, created_at, modified_at) VALUES ($1, $2, $3, $3)
                 ON CONFLICT (client, user_id) DO NOTHING",
                &[&client, &user, &now_millis()],
            )
            .await
            .map_err(|e| self.err(e))?;
            Ok(n == 1)
        })
    }

    fn user_exists<'a>(&'a self, client: &'a str, user: &'a str) -> StoreResult<'a, bool> {
        Box::pin(async move {
            let conn = self.conn().await?;
            let rows =
                query(&conn, "SELECT 1 FROM users WHERE client = $1 AND user_id = $2", &[&client, &user])
                    .await
                    .map_err(|e| self.err(e))?;
            Ok(!rows.is_empty())
        })
    }

    fn metadata<'a>(&'a self, client: &'a str, user: &'a str) -> StoreResult<'a, Option<UserMetadata>> {
        Box::pin(async move {
            let conn = self.conn().await?;
            let rows = query(
                &conn,
                "SELECT user_id, modified_at FROM users WHERE client = $1 AND user_id = $2",
                &[&client, &user],
            )
            .await
            .map_err(|e| self.err(e))?;
            Ok(rows
                .first()
                .map(|r| UserMetadata { user_id: r.get(0), modified_at: r.get::<_, i64>(1) / 1000 }))
        })
    }

    fn delete_user<'a>(&'a self, client: &'a str, user: &'a str) -> StoreResult<'a, bool> {
        Box::pin(async move {
            let conn = self.conn().await?;
            // The entries go with the user (ON DELETE CASCADE), in the same statement.
            let n = execute(&conn, "DELETE FROM users WHERE client = $1 AND user_id = $2", &[&client, &user])
                .await
                .map_err(|e| self.err(e))?;
            self.dialogs.forget(&key(client, user));
            Ok(n == 1)
        })
    }

    fn count_users<'a>(&'a self, client: &'a str) -> StoreResult<'a, u64> {
        Box::pin(async move {
            let conn = self.conn().await?;
            let rows = query(&conn, "SELECT count(*) FROM users WHERE client = $1", &[&client])
                .await
                .map_err(|e| self.err(e))?;
            Ok(rows.first().map_or(0, |r| r.get::<_, i64>(0)) as u64)
        })
    }

    fn list_users<'a>(&'a self, client: &'a str, page: u64, per_page: u64) -> StoreResult<'a, Vec<String>> {
        Box::pin(async move {
            let conn = self.conn().await?;
            let offset = i64::try_from(page.saturating_mul(per_page)).unwrap_or(i64::MAX);
            let limit = i64::try_from(per_page).unwrap_or(i64::MAX);
            // Ids sort by their bytes, as SQLite sorts them, whatever the database's collation.
            let rows = query(
                &conn,
                "SELECT user_id FROM users WHERE client = $1
                 ORDER BY modified_at DESC, user_id COLLATE \"C\" ASC LIMIT $2 OFFSET $3",
                &[&client, &limit, &offset],
            )
            .await
            .map_err(|e| self.err(e))?;
            Ok(rows.iter().map(|r| r.get(0)).collect())
        })
    }

    fn dialog<'a>(&'a self, client: &'a str, user: &'a str) -> StoreResult<'a, Option<Arc<Dialog>>> {
        Box::pin(async move {
            let key = key(client, user);
            let conn = self.conn().await?;
            let version = query(
                &conn,
                "SELECT version FROM users WHERE client = $1 AND user_id = $2",
                &[&client, &user],
            )
            .await
            .map_err(|e| self.err(e))?;
            let Some(version) = version.first().map(|r| r.get::<_, i64>(0)) else {
                self.dialogs.forget(&key);
                return Ok(None);
            };
            if let Some(dialog) = self.dialogs.get(&key, version) {
                return Ok(Some(dialog));
            }
            let Some((version, entries)) = load(&conn, client, user).await.map_err(|e| self.err(e))? else {
                self.dialogs.forget(&key);
                return Ok(None);
            };
            let dialog = Dialog::new(entries);
            self.dialogs.put(key, version, dialog.clone());
            Ok(Some(dialog))
        })
    }

    fn newest<'a>(&'a self, client: &'a str, user: &'a str, n: usize) -> StoreResult<'a, Recent> {
        Box::pin(async move {
            let conn = self.conn().await?;
            // One statement, one snapshot: the count and the entries agree. As many round trips as
            // the version check of a cached dialog, and never more than `n` entries.
            let n = i32::try_from(n).unwrap_or(i32::MAX);
            let rows = query(
                &conn,
                "SELECT idx, name, message FROM dialog_entries WHERE client = $1 AND user_id = $2
                 AND idx >= (SELECT entries FROM users WHERE client = $1 AND user_id = $2) - $3",
                &[&client, &user, &n],
            )
            .await
            .map_err(|e| self.err(e))?;
            let entries = rows
                .iter()
                .map(|r| DialogEntry { index: r.get::<_, i32>(0) as u32, name: r.get(1), message: r.get(2) })
                .collect();
            Ok(Recent::from_entries(entries))
        })
    }

    fn reset_dialog<'a>(&'a self, client: &'a str, user: &'a str) -> StoreResult<'a, bool> {
        Box::pin(self.replace(client, user, Vec::new()))
    }

    fn set_dialog<'a>(
        &'a self,
        client: &'a str,
        user: &'a str,
        entries: Vec<DialogEntry>,
    ) -> StoreResult<'a, bool> {
        Box::pin(self.replace(client, user, entries))
    }

    fn append_exchange<'a>(
        &'a self,
        client: &'a str,
        user: &'a str,
        lines: Vec<(String, String)>,
        max_entries: usize,
    ) -> StoreResult<'a, Vec<u32>> {
        Box::pin(async move {
            let conn = self.conn().await?;
            if lines.len() > max_entries {
                // The statement below limits an existing dialog only; a new one is checked here.
                return Err(self.full(&conn, client, user, lines.len(), max_entries).await);
            }
            let added = lines.len() as i32;
            let limit = i32::try_from(max_entries).unwrap_or(i32::MAX);
            let (names, messages): (Vec<&str>, Vec<&str>) =
                lines.iter().map(|(n, m)| (n.as_str(), m.as_str())).unzip();
            // One statement, so one round trip and its own transaction: the upsert creates the user
            // or locks its row (until the statement commits) and says how many entries the dialog
            // has with this exchange, unless that would pass the limit; the entries take the indices
            // just below that count. A refused exchange changes nothing.
            let row = query(
                &conn,
                "WITH u AS (
                   INSERT INTO users (client, user_id, created_at, modified_at, version, entries)
                   VALUES ($1, $2, $3, $3, 1, $4)
                   ON CONFLICT (client, user_id) DO UPDATE SET modified_at = EXCLUDED.modified_at,
                     version = users.version + 1, entries = users.entries + EXCLUDED.entries
                   WHERE users.entries + EXCLUDED.entries <= $5
                   RETURNING version, entries),
                 added AS (
                   INSERT INTO dialog_entries (client, user_id, idx, name, message)
                   SELECT $1, $2, u.entries - $4 + (e.ord - 1)::int4, e.name, e.message
                   FROM u, unnest($6::text[], $7::text[]) WITH ORDINALITY AS e (name, message, ord))
                 SELECT version, entries FROM u",
                &[&client, &user, &now_millis(), &added, &limit, &names, &messages],
            )
            .await
            .map_err(|e| self.err(e))?;
            let Some((version, count)) = row.first().map(|r| (r.get::<_, i64>(0), r.get::<_, i32>(1))) else {
                return Err(self.full(&conn, client, user, lines.len(), max_entries).await);
            };
            let first = (count - added) as u32;
            let appended: Vec<DialogEntry> = lines
                .into_iter()
                .enumerate()
                .map(|(i, (name, message))| DialogEntry { index: first + i as u32, name, message })
                .collect();
            let indices = appended.iter().map(|e| e.index).collect();
            self.dialogs.appended(&key(client, user), version, appended);
            Ok(indices)
        })
    }

    fn import_user<'a>(
        &'a self,
        client: &'a str,
        user: &'a str,
        imported: Vec<DialogEntry>,
        modified_at: i64,
    ) -> StoreResult<'a, Imported> {
        Box::pin(async move {
            let mut conn = self.conn().await?;
            let tx = conn.transaction().await.map_err(|e| self.err(e))?;
            let created = execute(
                &tx,
                "INSERT INTO users (client, user_id, created_at, modified_at, entries) VALUES ($1, $2, $3, $3, $4)
                 ON CONFLICT (client, user_id) DO NOTHING",
                &[&client, &user, &modified_at, &(imported.len() as i32)],
            )
            .await
            .map_err(|e| self.err(e))?;
            if created == 0 {
                let existing = load(&tx, client, user).await.map_err(|e| self.err(e))?;
                let same = existing.is_some_and(|(_, entries)| entries == imported);
                return Ok(if same { Imported::Unchanged } else { Imported::Conflict });
            }
            insert_entries(&tx, client, user, &imported).await.map_err(|e| self.err(e))?;
            tx.commit().await.map_err(|e| self.err(e))?;
            Ok(Imported::Created)
        })
    }
}
