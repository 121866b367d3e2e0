//! The SQLite backend: one file in WAL mode, owned by one process. Every write runs on the writer
//! thread's connection (group commit, see `writer`); reads use a small pool of their own connections,
//! which WAL lets run beside the writer, on the blocking thread pool. No SQLite work runs on the async
//! runtime. The writer brings the user's cached dialog up to date right after each commit, so a
//! cancelled request cannot leave a stale entry behind.

mod checkpoint;
mod health;
pub mod schema;
mod writer;

use super::backend::{Backend, StoreResult};
use super::cache::{CacheEffect, Dialog, DialogCache, UserKey};
use super::jobs::{Cancelled, ClaimedItem, ItemRecord, ItemResult, JobRecord, JobStatus, NewJob};
use super::keys::{ApiKey, KeyRecord};
use super::{Durability, Imported, StoreError, Trouble, UserMetadata};
use crate::chat::DialogEntry;
use health::WriteHealth;
use rusqlite::{Connection, OpenFlags, OptionalExtension, params};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{SystemTime, UNIX_EPOCH};
use writer::{Job, Write};

const READERS: usize = 4;

pub struct SqliteBackend {
    inner: Arc<Inner>,
}

struct Inner {
    path: PathBuf,
    /// The writer thread's queue; the thread ends when the store is dropped.
    writes: mpsc::Sender<Box<dyn Write>>,
    readers: Vec<Mutex<Connection>>,
    next_reader: AtomicUsize,
    cache: Arc<DialogCache>,
    /// Set while the writer is emptying the log (see `checkpoint`).
    truncating: Arc<AtomicBool>,
    /// Whether writes are failing for a lasting reason (see `health`).
    health: Arc<WriteHealth>,
}

fn now_millis() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_millis() as i64).unwrap_or(0)
}

fn connect(path: &Path, durability: Durability, log_bound: u64) -> Result<Connection, rusqlite::Error> {
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_CREATE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    conn.busy_timeout(std::time::Duration::from_secs(5))?;
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", if durability == Durability::Full { "FULL" } else { "NORMAL" })?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    // When the log is started over, its file is cut back to this size rather than kept at its peak.
    conn.pragma_update(None, "journal_size_limit", log_bound as i64)?;
    Ok(conn)
}

impl SqliteBackend {
    /// Opens (creating if needed) and migrates the database at `path`.
    pub async fn open(path: &Path, durability: Durability) -> Result<SqliteBackend, StoreError> {
        SqliteBackend::open_bounded(path, durability, checkpoint::RESTART_AT).await
    }

    /// [`SqliteBackend::open`] with the write-ahead log emptied past `log_bound` bytes.
    pub async fn open_bounded(
        path: &Path,
        durability: Durability,
        log_bound: u64,
    ) -> Result<SqliteBackend, StoreError> {
        let path = path.to_path_buf();
        let open = move |path: &Path, durability| connect(path, durability, log_bound);
        tokio::task::spawn_blocking(move || {
            if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                std::fs::create_dir_all(dir)
                    .map_err(|source| StoreError::Directory { path: dir.display().to_string(), source })?;
            }
            let opened = |source| StoreError::Open { location: path.display().to_string(), source };
            let mut writer = open(&path, durability).map_err(opened)?;
            schema::migrate(&mut writer, &path)?;
            let readers = (0..READERS)
                .map(|_| open(&path, durability).map(Mutex::new))
                .collect::<Result<_, _>>()
                .map_err(opened)?;
            let checkpointer = open(&path, durability).map_err(opened)?;
            let (writes, queue) = mpsc::channel();
            let cache = Arc::new(DialogCache::default());
            let truncator = checkpoint::Truncator::new(&path, log_bound);
            let inner = Arc::new(Inner {
                path: path.clone(),
                writes,
                readers,
                next_reader: AtomicUsize::new(0),
                cache,
                truncating: truncator.truncating.clone(),
                health: Arc::default(),
            });
            if checkpoint::start(checkpointer, path, Arc::downgrade(&inner)) {
                writer.pragma_update(None, "wal_autocheckpoint", 0)?;
            }
            let (cache, health) = (inner.cache.clone(), inner.health.clone());
            std::thread::Builder::new()
                .name("parlance-writer".into())
                .spawn(move || {
                    writer::run(&writer, &queue, &cache, &health, || truncator.after_group(&writer))
                })
                .map_err(|e| StoreError::Task(format!("cannot start the dialog store's writer: {e}")))?;
            Ok(SqliteBackend { inner })
        })
        .await
        .map_err(|e| StoreError::Task(e.to_string()))?
    }

    async fn read<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Connection) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        let inner = self.inner.clone();
        tokio::task::spawn_blocking(move || {
            let i = inner.next_reader.fetch_add(1, Ordering::Relaxed) % inner.readers.len();
            let conn = inner.readers[i]
                .lock()
                .map_err(|_| StoreError::Task("a reader connection is poisoned".into()))?;
            f(&conn)
        })
        .await
        .map_err(|e| StoreError::Task(e.to_string()))?
    }

    /// Runs `f` on the writer thread, in a transaction (possibly shared with other writes, each under a
    /// savepoint of its own): its changes commit whole or not at all, and the call returns once they
    /// have. Once committed, the user's cached dialog is dropped.
    async fn write<T: Send + 'static>(
        &self,
        client: &str,
        user: &str,
        f: impl FnOnce(&Connection, &str, &str) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        self.write_with_effect(client, user, move |conn, client, user| {
            Ok((f(conn, client, user)?, CacheEffect::Drop))
        })
        .await
    }

    /// [`SqliteBackend::write`] for a write that says what it did to the dialog, so that the cached
    /// dialog can follow it instead of being read again.
    async fn write_with_effect<T: Send + 'static>(
        &self,
        client: &str,
        user: &str,
        f: impl FnOnce(&Connection, &str, &str) -> Result<(T, CacheEffect), StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        let (reply, answer) = tokio::sync::oneshot::channel();
        let job = Job { key: (client.to_owned(), user.to_owned()), f: Some(f), value: None, reply };
        self.inner.writes.send(Box::new(job)).map_err(|_| StoreError::Closed)?;
        answer.await.map_err(|_| StoreError::Closed)?
    }
}

impl checkpoint::Watched for Inner {
    fn commits(&self) -> u64 {
        self.cache.generation()
    }

    fn truncating(&self) -> &AtomicBool {
        &self.truncating
    }

    /// While writes fail, one small write through the writer (it sets the file's application id,
    /// which every commit rewrites with the header page) finds out when they work again.
    fn probe_if_failing(&self) {
        match self.health.trouble() {
            None => return,
            Some(Trouble::Full) if !health::has_room(&self.path) => return,
            Some(_) => {}
        }
        let (reply, _) = tokio::sync::oneshot::channel();
        let probe = |conn: &Connection, _: &str, _: &str| -> Result<((), CacheEffect), StoreError> {
            conn.pragma_update(None, "application_id", APPLICATION_ID)?;
            Ok(((), CacheEffect::Drop))
        };
        let job = Job { key: (String::new(), String::new()), f: Some(probe), value: None, reply };
        let _ = self.writes.send(Box::new(job));
    }
}

/// "PRLC": marks the file as Parlance's, and gives the health probe something to write.
const APPLICATION_ID: i32 = 0x5052_4c43;

impl Backend for SqliteBackend {
    fn location(&self) -> String {
        self.inner.path.display().to_string()
    }

    fn check(&self) -> StoreResult<'_, ()> {
        Box::pin(self.read(|c| query_row(c, "SELECT count(*) FROM users", [], |_| Ok(()))))
    }

    fn writable(&self) -> Result<(), StoreError> {
        self.inner.health.check()
    }

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
            if let Some(dialog) = cache.get(&key) {
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
            cache.fill(key, dialog.clone(), started);
            Ok(Some(dialog))
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
            // Indices are 0..n without gaps (every write keeps them so), so the count is the next one.
            // Not MAX(idx) + 1: SQLite re-plans a MAX or ORDER BY query at every new binding of its
            // parameters, which cost a parse per chat. Were a gap ever there, the insert below would
            // hit the primary key and the exchange fail whole, never overwrite.
            let next: u32 = query_row(
                tx,
                "SELECT count(*) FROM dialog_entries WHERE client = ?1 AND user_id = ?2",
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

    fn create_job<'a>(&'a self, job: NewJob, texts: Vec<String>) -> StoreResult<'a, ()> {
        Box::pin(self.write_other(move |tx| {
            execute(
                tx,
                "INSERT INTO jobs (id, client, provider, model, skip_cache, status, total_items, created_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, 'pending', ?6, ?7)",
                params![
                    job.id,
                    job.client,
                    job.provider,
                    job.model,
                    job.skip_cache,
                    texts.len() as i64,
                    job.created_at
                ],
            )?;
            let mut insert = tx.prepare_cached(
                "INSERT INTO job_items (job_id, idx, text, state) VALUES (?1, ?2, ?3, 'pending')",
            )?;
            for (i, text) in texts.iter().enumerate() {
                insert.execute(params![job.id, i as i64, text])?;
            }
            Ok(())
        }))
    }

    fn job<'a>(&'a self, client: &'a str, id: &'a str) -> StoreResult<'a, Option<JobRecord>> {
        let (client, id) = (client.to_owned(), id.to_owned());
        Box::pin(self.read(move |c| {
            let mut stmt = c.prepare_cached(&format!("{JOB_COLUMNS} WHERE client = ?1 AND id = ?2"))?;
            Ok(stmt.query_row(params![client, id], job_record).optional()?)
        }))
    }

    fn job_items<'a>(&'a self, id: &'a str, offset: u64, limit: u64) -> StoreResult<'a, Vec<ItemRecord>> {
        let id = id.to_owned();
        Box::pin(self.read(move |c| {
            let mut stmt = c.prepare_cached(
                "SELECT idx, text, state, paraphrase, provider, model, cached, error_code, error_message
                 FROM job_items WHERE job_id = ?1 AND idx >= ?2 AND idx < ?3",
            )?;
            let mut items = stmt
                .query_map(
                    params![id, offset as i64, offset.saturating_add(limit).min(i64::MAX as u64) as i64],
                    |r| {
                        let result = match (r.get::<_, String>(2)?.as_str(), r.get::<_, Option<String>>(7)?) {
                            ("done", Some(code)) => Some(ItemResult::Failed {
                                code,
                                message: r.get::<_, Option<String>>(8)?.unwrap_or_default(),
                            }),
                            ("done", None) => Some(ItemResult::Paraphrased {
                                paraphrase: r.get::<_, Option<String>>(3)?.unwrap_or_default(),
                                provider: r.get::<_, Option<String>>(4)?.unwrap_or_default(),
                                model: r.get::<_, Option<String>>(5)?.unwrap_or_default(),
                                cached: r.get::<_, Option<bool>>(6)?.unwrap_or(false),
                            }),
                            _ => None,
                        };
                        Ok(ItemRecord { index: r.get::<_, i64>(0)? as u64, text: r.get(1)?, result })
                    },
                )?
                .collect::<Result<Vec<_>, _>>()?;
            items.sort_unstable_by_key(|i| i.index);
            Ok(items)
        }))
    }

    fn list_jobs<'a>(&'a self, client: &'a str, offset: u64, limit: u64) -> StoreResult<'a, Vec<JobRecord>> {
        let client = client.to_owned();
        Box::pin(self.read(move |c| {
            let mut stmt = c.prepare_cached(&format!(
                "{JOB_COLUMNS} WHERE client = ?1 ORDER BY created_at DESC, id LIMIT ?2 OFFSET ?3"
            ))?;
            let jobs = stmt
                .query_map(
                    params![client, limit.min(i64::MAX as u64) as i64, offset.min(i64::MAX as u64) as i64],
                    job_record,
                )?
                .collect::<Result<Vec<_>, _>>()?;
            Ok(jobs)
        }))
    }

    fn cancel_job<'a>(&'a self, client: &'a str, id: &'a str, now: i64) -> StoreResult<'a, Cancelled> {
        let (client, id) = (client.to_owned(), id.to_owned());
        Box::pin(self.write_other(move |tx| {
            let status: Option<String> = tx
                .prepare_cached("SELECT status FROM jobs WHERE client = ?1 AND id = ?2")?
                .query_row(params![client, id], |r| r.get(0))
                .optional()?;
            Ok(match status.as_deref() {
                None => Cancelled::NotFound,
                Some("completed") => Cancelled::AlreadyCompleted,
                Some("cancelled") => Cancelled::Cancelled,
                Some(_) => {
                    execute(
                        tx,
                        "UPDATE jobs SET status = 'cancelled', completed_at = ?2 WHERE id = ?1",
                        params![id, now],
                    )?;
                    Cancelled::Cancelled
                }
            })
        }))
    }

    fn claim_items<'a>(
        &'a self,
        replica: &'a str,
        n: usize,
        now: i64,
        lease_until: i64,
    ) -> StoreResult<'a, Vec<ClaimedItem>> {
        let replica = replica.to_owned();
        Box::pin(self.write_other(move |tx| {
            let mut pick = tx.prepare_cached(
                "SELECT i.job_id, i.idx, i.text, j.client, j.provider, j.model, j.skip_cache
                 FROM job_items i JOIN jobs j ON j.id = i.job_id
                 WHERE j.status IN ('pending', 'processing')
                   AND (i.state = 'pending' OR (i.state = 'claimed' AND i.lease_until < ?1))
                 ORDER BY j.created_at, i.job_id, i.idx LIMIT ?2",
            )?;
            let items = pick
                .query_map(params![now, n as i64], |r| {
                    Ok(ClaimedItem {
                        job_id: r.get(0)?,
                        index: r.get::<_, i64>(1)? as u64,
                        text: r.get(2)?,
                        client: r.get(3)?,
                        provider: r.get(4)?,
                        model: r.get(5)?,
                        skip_cache: r.get(6)?,
                    })
                })?
                .collect::<Result<Vec<_>, _>>()?;
            let mut claim = tx.prepare_cached(
                "UPDATE job_items SET state = 'claimed', claimed_by = ?3, lease_until = ?4 WHERE job_id = ?1 AND idx = ?2",
            )?;
            let mut start = tx.prepare_cached(
                "UPDATE jobs SET status = 'processing', started_at = ?2 WHERE id = ?1 AND status = 'pending'",
            )?;
            for item in &items {
                claim.execute(params![item.job_id, item.index as i64, replica, lease_until])?;
                start.execute(params![item.job_id, now])?;
            }
            Ok(items)
        }))
    }

    fn renew_claims<'a>(&'a self, replica: &'a str, lease_until: i64) -> StoreResult<'a, u64> {
        let replica = replica.to_owned();
        Box::pin(self.write_other(move |tx| {
            Ok(execute(
                tx,
                "UPDATE job_items SET lease_until = ?2 WHERE claimed_by = ?1 AND state = 'claimed'",
                params![replica, lease_until],
            )? as u64)
        }))
    }

    fn release_claims<'a>(&'a self, replica: &'a str) -> StoreResult<'a, u64> {
        let replica = replica.to_owned();
        Box::pin(self.write_other(move |tx| {
            Ok(execute(
                tx,
                "UPDATE job_items SET state = 'pending', claimed_by = NULL, lease_until = NULL
                 WHERE claimed_by = ?1 AND state = 'claimed'",
                params![replica],
            )? as u64)
        }))
    }

    fn finish_item<'a>(
        &'a self,
        replica: &'a str,
        job_id: &'a str,
        index: u64,
        result: ItemResult,
        now: i64,
    ) -> StoreResult<'a, bool> {
        let (replica, job_id) = (replica.to_owned(), job_id.to_owned());
        Box::pin(self.write_other(move |tx| {
            let (paraphrase, provider, model, cached, code, message, succeeded) = match result {
                ItemResult::Paraphrased { paraphrase, provider, model, cached } => {
                    (Some(paraphrase), Some(provider), Some(model), Some(cached), None, None, true)
                }
                ItemResult::Failed { code, message } => {
                    (None, None, None, None, Some(code), Some(message), false)
                }
            };
            let stored = execute(
                tx,
                "UPDATE job_items SET state = 'done', claimed_by = NULL, lease_until = NULL, paraphrase = ?4,
                   provider = ?5, model = ?6, cached = ?7, error_code = ?8, error_message = ?9
                 WHERE job_id = ?1 AND idx = ?2 AND state = 'claimed' AND claimed_by = ?3",
                params![job_id, index as i64, replica, paraphrase, provider, model, cached, code, message],
            )?;
            if stored == 0 {
                return Ok(false);
            }
            execute(
                tx,
                "UPDATE jobs SET successful = successful + ?2, failed = failed + ?3 WHERE id = ?1",
                params![job_id, i64::from(succeeded), i64::from(!succeeded)],
            )?;
            execute(
                tx,
                "UPDATE jobs SET status = 'completed', completed_at = ?2
                 WHERE id = ?1 AND status = 'processing' AND successful + failed = total_items",
                params![job_id, now],
            )?;
            Ok(true)
        }))
    }

    fn create_key<'a>(&'a self, key: ApiKey, secret_hash: Vec<u8>) -> StoreResult<'a, ()> {
        Box::pin(self.write_other(move |tx| {
            execute(
                tx,
                "INSERT INTO api_keys (id, secret_hash, name, client, created_at) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![key.id, secret_hash, key.name, key.client, key.created_at],
            )?;
            Ok(())
        }))
    }

    fn list_keys(&self) -> StoreResult<'_, Vec<ApiKey>> {
        Box::pin(self.read(|c| {
            let mut stmt = c.prepare_cached(
                "SELECT id, name, client, created_at, revoked_at FROM api_keys ORDER BY created_at DESC, id",
            )?;
            let keys = stmt
                .query_map([], |r| {
                    Ok(ApiKey {
                        id: r.get(0)?,
                        name: r.get(1)?,
                        client: r.get(2)?,
                        created_at: r.get(3)?,
                        revoked_at: r.get(4)?,
                    })
                })?
                .collect::<Result<Vec<_>, _>>()?;
            Ok(keys)
        }))
    }

    fn revoke_key<'a>(&'a self, id: &'a str) -> StoreResult<'a, bool> {
        let id = id.to_owned();
        Box::pin(self.write_other(move |tx| {
            Ok(execute(
                tx,
                "UPDATE api_keys SET revoked_at = ?2 WHERE id = ?1 AND revoked_at IS NULL",
                params![id, now_millis()],
            )? == 1)
        }))
    }

    fn find_key<'a>(&'a self, id: &'a str) -> StoreResult<'a, Option<KeyRecord>> {
        let id = id.to_owned();
        Box::pin(self.read(move |c| {
            let mut stmt = c.prepare_cached(
                "SELECT secret_hash, client, revoked_at IS NOT NULL FROM api_keys WHERE id = ?1",
            )?;
            Ok(stmt
                .query_row([id], |r| {
                    Ok(KeyRecord { secret_hash: r.get(0)?, client: r.get(1)?, revoked: r.get(2)? })
                })
                .optional()?)
        }))
    }
}

impl SqliteBackend {
    /// A write that concerns no user's dialog (the API keys).
    async fn write_other<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Connection) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        self.write("", "", move |conn, _, _| f(conn)).await
    }
}

/// The columns of a [`JobRecord`], in the order [`job_record`] reads them.
const JOB_COLUMNS: &str =
    "SELECT id, client, provider, model, skip_cache, status, total_items, successful, failed,
    created_at, started_at, completed_at FROM jobs";

fn job_record(r: &rusqlite::Row<'_>) -> rusqlite::Result<JobRecord> {
    let status: String = r.get(5)?;
    Ok(JobRecord {
        id: r.get(0)?,
        client: r.get(1)?,
        provider: r.get(2)?,
        model: r.get(3)?,
        skip_cache: r.get(4)?,
        status: JobStatus::parse(&status).unwrap_or(JobStatus::Pending),
        total_items: r.get::<_, i64>(6)? as u64,
        successful: r.get::<_, i64>(7)? as u64,
        failed: r.get::<_, i64>(8)? as u64,
        created_at: r.get(9)?,
        started_at: r.get(10)?,
        completed_at: r.get(11)?,
    })
}

/// Bumps the user's modification time; false when there is no such user.
fn touch(tx: &Connection, client: &str, user: &str) -> Result<bool, StoreError> {
    Ok(execute(
        tx,
        "UPDATE users SET modified_at = ?3 WHERE client = ?1 AND user_id = ?2",
        params![client, user, now_millis()],
    )? == 1)
}

/// Deletes every entry of the user's dialog.
fn clear_entries(c: &Connection, client: &str, user: &str) -> Result<(), StoreError> {
    execute(c, "DELETE FROM dialog_entries WHERE client = ?1 AND user_id = ?2", params![client, user])?;
    Ok(())
}

/// Inserts `entries` with the indices they carry.
fn insert_entries(
    c: &Connection,
    client: &str,
    user: &str,
    entries: &[DialogEntry],
) -> Result<(), StoreError> {
    let mut insert = c.prepare_cached(
        "INSERT INTO dialog_entries (client, user_id, idx, name, message) VALUES (?1, ?2, ?3, ?4, ?5)",
    )?;
    for e in entries {
        insert.execute(params![client, user, e.index, e.name, e.message])?;
    }
    Ok(())
}

/// Runs one statement from the connection's statement cache: every statement of the store is one of
/// a few fixed texts, so none is parsed more than once per connection.
fn execute(c: &Connection, sql: &str, params: impl rusqlite::Params) -> Result<usize, StoreError> {
    Ok(c.prepare_cached(sql)?.execute(params)?)
}

/// [`execute`] for a statement answering one row.
fn query_row<T>(
    c: &Connection,
    sql: &str,
    params: impl rusqlite::Params,
    f: impl FnOnce(&rusqlite::Row<'_>) -> rusqlite::Result<T>,
) -> Result<T, StoreError> {
    Ok(c.prepare_cached(sql)?.query_row(params, f)?)
}

fn user_exists(c: &Connection, client: &str, user: &str) -> Result<bool, StoreError> {
    let mut stmt = c.prepare_cached("SELECT 1 FROM users WHERE client = ?1 AND user_id = ?2")?;
    Ok(stmt.exists(params![client, user])?)
}

fn entries(c: &Connection, client: &str, user: &str) -> Result<Vec<DialogEntry>, StoreError> {
    // Sorted here rather than with ORDER BY, which SQLite re-plans at every new binding (see
    // `append_exchange`); the primary key's order makes this a check of an already sorted list.
    let mut stmt =
        c.prepare_cached("SELECT idx, name, message FROM dialog_entries WHERE client = ?1 AND user_id = ?2")?;
    let mut rows = stmt
        .query_map(params![client, user], |r| {
            Ok(DialogEntry { index: r.get(0)?, name: r.get(1)?, message: r.get(2)? })
        })?
        .collect::<Result<Vec<_>, _>>()?;
    rows.sort_unstable_by_key(|e| e.index);
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicBool;
    use std::time::{Duration, Instant};

    /// Under a steady stream of commits the log is emptied once it passes its bound, and after the
    /// load it is emptied altogether; every acknowledged exchange is still there.
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn the_log_stays_bounded_under_load_and_empties_after_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("d.db");
        let bound = 1 << 20;
        let store = Arc::new(SqliteBackend::open_bounded(&path, Durability::Normal, bound).await.unwrap());
        let wal = dir.path().join("d.db-wal");
        let stop = Arc::new(AtomicBool::new(false));
        let logged = Arc::new(std::sync::atomic::AtomicU64::new(0));
        let message = "x".repeat(2000);
        let writers: Vec<_> = (0..8)
            .map(|w| {
                let (store, stop, logged, message) =
                    (store.clone(), stop.clone(), logged.clone(), message.clone());
                tokio::spawn(async move {
                    let mut acknowledged = 0;
                    while !stop.load(Ordering::Acquire) {
                        let lines =
                            vec![("User".to_owned(), message.clone()), ("Waifu".to_owned(), message.clone())];
                        store.append_exchange("c", &format!("u{w}"), lines, usize::MAX).await.unwrap();
                        acknowledged += 2;
                        logged.fetch_add(4000, Ordering::Relaxed);
                    }
                    acknowledged
                })
            })
            .collect();
        // Until the messages alone are several times the bound (however slow the machine).
        let (mut peak, mut emptied_under_load, mut last) = (0, false, 0);
        let started = Instant::now();
        while logged.load(Ordering::Relaxed) < 8 * bound {
            assert!(started.elapsed() < Duration::from_secs(60), "the load was too slow to test anything");
            let size = std::fs::metadata(&wal).map(|m| m.len()).unwrap_or(0);
            peak = peak.max(size);
            emptied_under_load |= size < last;
            last = size;
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        stop.store(true, Ordering::Release);
        let mut acknowledged = Vec::new();
        for w in writers {
            acknowledged.push(w.await.unwrap());
        }
        assert!(emptied_under_load, "the log was never emptied while commits kept coming");
        // Unbounded, this load leaves a log several times its messages (about 60 MiB); bounded, it
        // passes the bound only by what commits add while a checkpoint of the checkpointer's is in
        // the writer's way.
        assert!(peak < 16 * bound, "the log reached {peak} bytes with a bound of {bound}");
        let settled = Instant::now();
        while std::fs::metadata(&wal).map(|m| m.len()).unwrap_or(0) > 0 {
            assert!(settled.elapsed() < Duration::from_secs(5), "the log was not emptied after the load");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        for (w, n) in acknowledged.iter().enumerate() {
            let dialog = store.dialog("c", &format!("u{w}")).await.unwrap().unwrap();
            assert_eq!(dialog.entries().len(), *n, "writer {w}'s acknowledged entries");
        }
    }
}
