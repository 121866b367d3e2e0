//! Users and their dialogs in SQLite.

use super::super::backend::{Dialogs, StoreResult};
use super::super::cache::{CacheEffect, Dialog, UserKey};
use super::super::entry::DialogEntry;
use super::super::model::{Imported, Recent, StoreError, UserMetadata};
use super::sql::{execute, query_row};
use super::{
    SqliteBackend, clear_entries, entries, insert_entries, now_millis, query_entries, touch, user_exists,
};
use rusqlite::{OptionalExtension, params};
use std::sync::Arc;

impl Dialogs for SqliteBackend {
    fn put_user<'a>(&'a self, client: &'a str, user: &'a str) -> StoreResult<'a, bool> {
        Box::pin(self.write(client, user, move |tx, client, user| {
            let now = now_millis();
            let n = execute(
                tx,
                "INSERT INTO users (client, user_id, created_at, modified_at) VALUES (?1, ?2, ?3, ?3)
                 ON CONFLICT (client, user_id) DO NOTHING",
                params![client, user, now],
            )?;
            Ok(n == 1)
        }))
    }

    fn user_exists<'a>(&'a self, client: &'a str, user: &'a str) -> StoreResult<'a, bool> {
        let (client, user) = (client.to_owned(), user.to_owned());
        Box::pin(self.read(move |c| user_exists(c, &client, &user)))
    }

    fn metadata<'a>(&'a self, client: &'a str, user: &'a str) -> StoreResult<'a, Option<UserMetadata>> {
        let (client, user) = (client.to_owned(), user.to_owned());
        Box::pin(self.read(move |c| {
            let mut stmt = c.prepare_cached(
                "SELECT user_id, modified_at FROM users WHERE client = ?1 AND user_id = ?2",
            )?;
            Ok(stmt
                .query_row(params![client, user], |row| {
                    Ok(UserMetadata { user_id: row.get(0)?, modified_at: row.get::<_, i64>(1)? / 1000 })
                })
                .optional()?)
        }))
    }

    fn delete_user<'a>(&'a self, client: &'a str, user: &'a str) -> StoreResult<'a, bool> {
        Box::pin(self.write(client, user, move |tx, client, user| {
            clear_entries(tx, client, user)?;
            Ok(execute(tx, "DELETE FROM users WHERE client = ?1 AND user_id = ?2", params![client, user])?
                == 1)
        }))
    }

    fn count_users<'a>(&'a self, client: &'a str) -> StoreResult<'a, u64> {
        let client = client.to_owned();
        Box::pin(self.read(move |c| {
            let n: i64 =
                query_row(c, "SELECT count(*) FROM users WHERE client = ?1", [client], |r| r.get(0))?;
            Ok(n as u64)
        }))
    }

    fn list_users<'a>(&'a self, client: &'a str, page: u64, per_page: u64) -> StoreResult<'a, Vec<String>> {
        let client = client.to_owned();
        Box::pin(self.read(move |c| {
            let offset = page.saturating_mul(per_page);
            let mut stmt = c.prepare_cached(
                "SELECT user_id FROM users WHERE client = ?1 ORDER BY modified_at DESC, user_id ASC LIMIT ?2 OFFSET ?3",
            )?;
            let ids = stmt
                .query_map(params![client, per_page as i64, i64::try_from(offset).unwrap_or(i64::MAX)], |r| r.get(0))?
                .collect::<Result<Vec<String>, _>>()?;
            Ok(ids)
        }))
    }

    fn dialog<'a>(&'a self, client: &'a str, user: &'a str) -> StoreResult<'a, Option<Arc<Dialog>>> {
        Box::pin(async move {
            let key: UserKey = (client.to_owned(), user.to_owned());
            let cache = &self.inner.cache;
            if let Some(dialog) = cache.get(&key).filter(|d| d.is_whole()) {
                return Ok(Some(dialog));
            }
            let started = cache.generation();
            let (client, user) = key.clone();
            let entries = self
                .read(move |c| {
                    if !user_exists(c, &client, &user)? {
                        return Ok(None);
                    }
                    Ok(Some(entries(c, &client, &user)?))
                })
                .await?;
            let Some(entries) = entries else { return Ok(None) };
            let dialog = Dialog::new(entries);
            cache.fill_whole_read(key, &dialog, started);
            Ok(Some(dialog))
        })
    }

    fn newest<'a>(&'a self, client: &'a str, user: &'a str, n: usize) -> StoreResult<'a, Recent> {
        Box::pin(async move {
            let key: UserKey = (client.to_owned(), user.to_owned());
            if let Some(recent) = self.inner.cache.get(&key).and_then(|d| Recent::of(&d, n)) {
                return Ok(recent);
            }
            // What the read found fills the cache: the whole dialog, as `dialog` would, or of a longer
            // one its newest entries, which later appends extend; so a long dialog is never read whole
            // for a chat, and the same user's next chat reads nothing.
            let started = self.inner.cache.generation();
            let (client, user) = key.clone();
            let recent = self
                .read(move |c| {
                    // One statement, so the count and the entries are of one commit. Sorted in
                    // `Recent`, not with ORDER BY, which SQLite re-plans at every new binding.
                    let n = i64::try_from(n).unwrap_or(i64::MAX);
                    let rows = query_entries(
                        c,
                        "SELECT idx, name, message FROM dialog_entries WHERE client = ?1 AND user_id = ?2
                         AND idx >= (SELECT entries FROM users WHERE client = ?1 AND user_id = ?2) - ?3",
                        params![client, user, n],
                    )?;
                    Ok(Recent::from_entries(rows))
                })
                .await?;
            // With no entries the user may not exist, which a cached dialog would deny.
            if recent.length > 0 {
                let from = recent.length - recent.entries.len();
                self.inner.cache.fill(key, Dialog::tail(from, recent.entries.clone()), started);
            }
            Ok(recent)
        })
    }

    fn reset_dialog<'a>(&'a self, client: &'a str, user: &'a str) -> StoreResult<'a, bool> {
        Box::pin(self.write(client, user, move |tx, client, user| {
            if !touch(tx, client, user)? {
                return Ok(false);
            }
            clear_entries(tx, client, user)?;
            Ok(true)
        }))
    }

    fn set_dialog<'a>(
        &'a self,
        client: &'a str,
        user: &'a str,
        entries: Vec<DialogEntry>,
    ) -> StoreResult<'a, bool> {
        Box::pin(self.write(client, user, move |tx, client, user| {
            if !touch(tx, client, user)? {
                return Ok(false);
            }
            clear_entries(tx, client, user)?;
            insert_entries(tx, client, user, &entries)?;
            Ok(true)
        }))
    }

    fn append_exchange<'a>(
        &'a self,
        client: &'a str,
        user: &'a str,
        lines: Vec<(String, String)>,
        max_entries: usize,
    ) -> StoreResult<'a, Vec<u32>> {
        Box::pin(self.write_with_effect(client, user, move |tx, client, user| {
            let now = now_millis();
            execute(
                tx,
                "INSERT INTO users (client, user_id, created_at, modified_at) VALUES (?1, ?2, ?3, ?3)
                 ON CONFLICT (client, user_id) DO UPDATE SET modified_at = excluded.modified_at",
                params![client, user, now],
            )?;
            // Indices are 0..n without gaps (every write keeps them so), so the count is the next one;
            // it is kept in the user's row, so a long dialog costs an append no more than a short
            // one. Were a gap ever there, the insert below would hit the primary key and the
            // exchange fail whole, never overwrite.
            let next: u32 = query_row(
                tx,
                "SELECT entries FROM users WHERE client = ?1 AND user_id = ?2",
                params![client, user],
                |r| r.get(0),
            )?;
            let would = next as usize + lines.len();
            if would > max_entries {
                return Err(StoreError::DialogFull { would, limit: max_entries });
            }
            let appended: Vec<DialogEntry> = lines
                .into_iter()
                .enumerate()
                .map(|(i, (name, message))| DialogEntry { index: next + i as u32, name, message })
                .collect();
            insert_entries(tx, client, user, &appended)?;
            let indices = appended.iter().map(|e| e.index).collect();
            Ok((indices, CacheEffect::Append(appended)))
        }))
    }

    fn import_user<'a>(
        &'a self,
        client: &'a str,
        user: &'a str,
        imported: Vec<DialogEntry>,
        modified_at: i64,
    ) -> StoreResult<'a, Imported> {
        Box::pin(self.write(client, user, move |tx, client, user| {
            if user_exists(tx, client, user)? {
                let same = entries(tx, client, user)? == imported;
                return Ok(if same { Imported::Unchanged } else { Imported::Conflict });
            }
            execute(
                tx,
                "INSERT INTO users (client, user_id, created_at, modified_at) VALUES (?1, ?2, ?3, ?3)",
                params![client, user, modified_at],
            )?;
            insert_entries(tx, client, user, &imported)?;
            Ok(Imported::Created)
        }))
    }
}
