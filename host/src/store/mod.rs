//! The durable dialog store: users and their dialogs per API client, in SQLite (WAL) at
//! `DATABASE_FILE`.
//!
//! Every write runs on one writer connection, owned by the writer thread, so an exchange (the user's
//! message and the reply) lands whole or not at all, and the indices of a dialog stay contiguous however
//! many chats of the same user run at once. Writes that arrive while a commit is under way are committed
//! together in one transaction (group commit), each under a savepoint of its own: each still succeeds or
//! fails alone, and none is answered before the transaction holding it has committed. Reads use a small
//! pool of their own connections, which WAL lets run beside the writer, on the blocking thread pool. No
//! SQLite work runs on the async runtime.
//!
//! Dialogs are cached in memory by client and user, with their JSON form once rendered, so that a chat
//! reads its history without a query and `GET /v1/user/dialog/json` serves bytes. The store owns its
//! database file: every write goes through [`DialogStore::write`], and the writer thread brings the
//! user's cached dialog up to date (an exchange is appended to it; any other write drops it) right after
//! the commit, so a cancelled request cannot leave a stale entry behind.

mod migrations;

use crate::plugins::api::DialogEntry;
use bytes::Bytes;
use rusqlite::{Connection, OpenFlags, OptionalExtension, params};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{SystemTime, UNIX_EPOCH};

/// Why a store operation failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("SQLite: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error(
        "the database {path} was written by a newer Parlance (schema version {found}, this build knows {known})"
    )]
    NewerSchema { path: String, found: i64, known: i64 },
    #[error("the dialog of this user would hold {would} entries; the limit is {limit}")]
    DialogFull { would: usize, limit: usize },
    #[error("cannot create the directory {path}: {source}")]
    Directory { path: String, source: std::io::Error },
    #[error("a store task failed: {0}")]
    Task(String),
    #[error("the commit failed, and no write of its transaction was stored: {0}")]
    Commit(String),
}

/// A user's last modification, as seconds since the Unix epoch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UserMetadata {
    pub user_id: String,
    pub modified_at: i64,
}

/// Whether durability covers power loss (`Full`, an fsync per commit) or process crashes only
/// (`Normal`: a committed exchange survives SIGKILL, which is what acknowledging it promises).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Durability {
    Normal,
    Full,
}

struct Inner {
    path: PathBuf,
    /// The writer thread's queue; the thread ends when the store is dropped.
    writes: mpsc::Sender<Box<dyn Write>>,
    readers: Vec<Mutex<Connection>>,
    next_reader: AtomicUsize,
    cache: Arc<DialogCache>,
}

/// The dialogs kept in memory, shared by the readers and the writer thread.
struct DialogCache {
    dialogs: moka::sync::Cache<UserKey, Arc<CachedDialog>>,
    /// Counts commits. A commit bumps it and updates the cache under this lock; a read fills the cache,
    /// under the same lock, only when no commit happened since it began, so the cache holds each user's
    /// dialog as last committed or nothing.
    generation: Mutex<u64>,
}

/// A user's dialog as last committed, and its JSON array once a read asked for it.
struct CachedDialog {
    entries: Vec<DialogEntry>,
    json: OnceLock<Bytes>,
}

impl CachedDialog {
    fn new(entries: Vec<DialogEntry>) -> Arc<CachedDialog> {
        Arc::new(CachedDialog { entries, json: OnceLock::new() })
    }

    /// Roughly the bytes it holds: the entries, and their JSON when rendered.
    fn weight(&self) -> u32 {
        let text: usize = self.entries.iter().map(|e| e.name.len() + e.message.len() + 48).sum();
        u32::try_from(text * 2).unwrap_or(u32::MAX)
    }
}

/// What a committed write does to the user's cached dialog.
enum CacheEffect {
    /// The dialog changed in some other way: drop it, the next read loads it.
    Drop,
    /// These entries were appended.
    Append(Vec<DialogEntry>),
}

type UserKey = (String, String);

/// Bytes of dialogs kept in memory (entries and rendered JSON).
const DIALOG_CACHE_BYTES: u64 = 64 << 20;

/// Cheap to clone; all clones share the connections.
#[derive(Clone)]
pub struct DialogStore {
    inner: Arc<Inner>,
}

const READERS: usize = 4;

/// The most writes committed in one transaction: enough to absorb a burst of chats, few enough that
/// the first of them is not kept waiting long for the last.
const MAX_GROUP_COMMIT: usize = 64;

/// How often the checkpointer copies committed pages from the write-ahead log into the database.
const CHECKPOINT_EVERY: std::time::Duration = std::time::Duration::from_millis(500);

fn now_millis() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_millis() as i64).unwrap_or(0)
}

fn open(path: &Path, durability: Durability) -> Result<Connection, rusqlite::Error> {
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_CREATE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    conn.busy_timeout(std::time::Duration::from_secs(5))?;
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", if durability == Durability::Full { "FULL" } else { "NORMAL" })?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    Ok(conn)
}

impl DialogStore {
    /// Opens (creating if needed) and migrates the store.
    pub async fn open(path: &Path, durability: Durability) -> Result<DialogStore, StoreError> {
        let path = path.to_path_buf();
        tokio::task::spawn_blocking(move || {
            if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                std::fs::create_dir_all(dir)
                    .map_err(|source| StoreError::Directory { path: dir.display().to_string(), source })?;
            }
            let mut writer = open(&path, durability)?;
            migrations::migrate(&mut writer, &path)?;
            let readers =
                (0..READERS).map(|_| open(&path, durability).map(Mutex::new)).collect::<Result<_, _>>()?;
            let checkpointer = open(&path, durability)?;
            let cache = Arc::new(DialogCache {
                dialogs: moka::sync::Cache::builder()
                    .max_capacity(DIALOG_CACHE_BYTES)
                    .weigher(|_: &UserKey, dialog: &Arc<CachedDialog>| dialog.weight())
                    .build(),
                generation: Mutex::new(0),
            });
            let (writes, queue) = mpsc::channel();
            let inner = Arc::new(Inner { path, writes, readers, next_reader: AtomicUsize::new(0), cache });
            // Checkpoints run on their own thread, not inside whichever commit crosses SQLite's
            // 1000-page mark: a checkpoint syncs the log and the database to disk, and the chat whose
            // commit paid for it waited tens of milliseconds.
            if start_checkpointer(checkpointer, Arc::downgrade(&inner)) {
                writer.pragma_update(None, "wal_autocheckpoint", 0)?;
            }
            let cache = inner.cache.clone();
            std::thread::Builder::new()
                .name("parlance-writer".into())
                .spawn(move || run_writer(&writer, &queue, &cache))
                .map_err(|e| StoreError::Task(format!("cannot start the dialog store's writer: {e}")))?;
            Ok(DialogStore { inner })
        })
        .await
        .map_err(|e| StoreError::Task(e.to_string()))?
    }

    pub fn path(&self) -> &Path {
        &self.inner.path
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

    /// [`DialogStore::write`] for a write that says what it did to the dialog, so that the cached
    /// dialog can follow it instead of being read again.
    async fn write_with_effect<T: Send + 'static>(
        &self,
        client: &str,
        user: &str,
        f: impl FnOnce(&Connection, &str, &str) -> Result<(T, CacheEffect), StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        let (reply, answer) = tokio::sync::oneshot::channel();
        let job = Job { key: (client.to_owned(), user.to_owned()), f: Some(f), value: None, reply };
        self.inner
            .writes
            .send(Box::new(job))
            .map_err(|_| StoreError::Task("the dialog store's writer has stopped".into()))?;
        answer
            .await
            .map_err(|_| StoreError::Task("the dialog store's writer stopped during a write".into()))?
    }

    /// A trivial read, for health checks.
    pub async fn check(&self) -> Result<(), StoreError> {
        self.read(|c| query_row(c, "SELECT count(*) FROM users", [], |_| Ok(()))).await
    }

    /// Creates the user if absent; true when it was created. An existing user is left untouched.
    pub async fn put_user(&self, client: &str, user: &str) -> Result<bool, StoreError> {
        self.write(client, user, move |tx, client, user| {
            let now = now_millis();
            let n = execute(
                tx,
                "INSERT INTO users (client, user_id, created_at, modified_at) VALUES (?1, ?2, ?3, ?3)
                 ON CONFLICT (client, user_id) DO NOTHING",
                params![client, user, now],
            )?;
            Ok(n == 1)
        })
        .await
    }

    pub async fn user_exists(&self, client: &str, user: &str) -> Result<bool, StoreError> {
        let (client, user) = (client.to_owned(), user.to_owned());
        self.read(move |c| user_exists(c, &client, &user)).await
    }

    pub async fn metadata(&self, client: &str, user: &str) -> Result<Option<UserMetadata>, StoreError> {
        let (client, user) = (client.to_owned(), user.to_owned());
        self.read(move |c| {
            let mut stmt = c.prepare_cached(
                "SELECT user_id, modified_at FROM users WHERE client = ?1 AND user_id = ?2",
            )?;
            Ok(stmt
                .query_row(params![client, user], |row| {
                    Ok(UserMetadata { user_id: row.get(0)?, modified_at: row.get::<_, i64>(1)? / 1000 })
                })
                .optional()?)
        })
        .await
    }

    /// Deletes the user and its dialog; false when there was no such user.
    pub async fn delete_user(&self, client: &str, user: &str) -> Result<bool, StoreError> {
        self.write(client, user, move |tx, client, user| {
            clear_entries(tx, client, user)?;
            Ok(execute(tx, "DELETE FROM users WHERE client = ?1 AND user_id = ?2", params![client, user])?
                == 1)
        })
        .await
    }

    pub async fn count_users(&self, client: &str) -> Result<u64, StoreError> {
        let client = client.to_owned();
        self.read(move |c| {
            let n: i64 =
                query_row(c, "SELECT count(*) FROM users WHERE client = ?1", [client], |r| r.get(0))?;
            Ok(n as u64)
        })
        .await
    }

    /// One page of user ids, newest-modified first (ties by id).
    pub async fn list_users(
        &self,
        client: &str,
        page: u64,
        per_page: u64,
    ) -> Result<Vec<String>, StoreError> {
        let client = client.to_owned();
        self.read(move |c| {
            let offset = page.saturating_mul(per_page);
            let mut stmt = c.prepare_cached(
                "SELECT user_id FROM users WHERE client = ?1 ORDER BY modified_at DESC, user_id ASC LIMIT ?2 OFFSET ?3",
            )?;
            let ids = stmt
                .query_map(params![client, per_page as i64, i64::try_from(offset).unwrap_or(i64::MAX)], |r| r.get(0))?
                .collect::<Result<Vec<String>, _>>()?;
            Ok(ids)
        })
        .await
    }

    /// The dialog as a JSON array of entries (`index`, `name`, `message`), oldest first, rendered once
    /// per change of the dialog; `None` when there is no such user.
    pub async fn dialog_json(&self, client: &str, user: &str) -> Result<Option<Bytes>, StoreError> {
        let Some(dialog) = self.cached_dialog(client, user).await? else {
            return Ok(None);
        };
        if let Some(json) = dialog.json.get() {
            return Ok(Some(json.clone()));
        }
        let json =
            Bytes::from(serde_json::to_vec(&dialog.entries).map_err(|e| StoreError::Task(e.to_string()))?);
        Ok(Some(dialog.json.get_or_init(|| json).clone()))
    }

    /// The dialog, oldest first; `None` when there is no such user.
    pub async fn dialog(&self, client: &str, user: &str) -> Result<Option<Vec<DialogEntry>>, StoreError> {
        Ok(self.cached_dialog(client, user).await?.map(|d| d.entries.clone()))
    }

    /// The dialog from memory, or read from the database and remembered.
    async fn cached_dialog(&self, client: &str, user: &str) -> Result<Option<Arc<CachedDialog>>, StoreError> {
        let key: UserKey = (client.to_owned(), user.to_owned());
        let cache = &self.inner.cache;
        if let Some(dialog) = cache.dialogs.get(&key) {
            return Ok(Some(dialog));
        }
        let started = *cache.generation.lock().unwrap_or_else(|p| p.into_inner());
        let (client, user) = (client.to_owned(), user.to_owned());
        let entries = self
            .read(move |c| {
                if !user_exists(c, &client, &user)? {
                    return Ok(None);
                }
                Ok(Some(entries(c, &client, &user)?))
            })
            .await?;
        let Some(entries) = entries else {
            return Ok(None);
        };
        let dialog = CachedDialog::new(entries);
        let generation = cache.generation.lock().unwrap_or_else(|p| p.into_inner());
        // A write that committed during the read may not be in these entries.
        if *generation == started {
            cache.dialogs.insert(key, dialog.clone());
        }
        Ok(Some(dialog))
    }

    /// Empties the dialog; false when there is no such user.
    pub async fn reset_dialog(&self, client: &str, user: &str) -> Result<bool, StoreError> {
        self.write(client, user, move |tx, client, user| {
            if !touch(tx, client, user)? {
                return Ok(false);
            }
            clear_entries(tx, client, user)?;
            Ok(true)
        })
        .await
    }

    /// Replaces the dialog with `entries` (already validated: indices 0..n in order); false when there
    /// is no such user.
    pub async fn set_dialog(
        &self,
        client: &str,
        user: &str,
        entries: Vec<DialogEntry>,
    ) -> Result<bool, StoreError> {
        self.write(client, user, move |tx, client, user| {
            if !touch(tx, client, user)? {
                return Ok(false);
            }
            clear_entries(tx, client, user)?;
            insert_entries(tx, client, user, &entries)?;
            Ok(true)
        })
        .await
    }

    /// Appends the lines of one exchange, creating the user if needed, in one transaction. Returns the
    /// indices given to the lines.
    pub async fn append_exchange(
        &self,
        client: &str,
        user: &str,
        lines: Vec<(String, String)>,
        max_entries: usize,
    ) -> Result<Vec<u32>, StoreError> {
        self.write_with_effect(client, user, move |tx, client, user| {
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
        })
        .await
    }
}

/// A write waiting for the writer thread.
trait Write: Send {
    fn key(&self) -> &UserKey;
    /// Runs the write's statements in the open transaction; what it returns is kept until the commit.
    fn run(&mut self, conn: &Connection) -> Result<CacheEffect, StoreError>;
    /// Answers the caller: its value once committed, or why it was not stored.
    fn finish(self: Box<Self>, outcome: Result<(), StoreError>);
}

struct Job<T, F> {
    key: UserKey,
    f: Option<F>,
    value: Option<T>,
    reply: tokio::sync::oneshot::Sender<Result<T, StoreError>>,
}

impl<T, F> Write for Job<T, F>
where
    T: Send,
    F: FnOnce(&Connection, &str, &str) -> Result<(T, CacheEffect), StoreError> + Send,
{
    fn key(&self) -> &UserKey {
        &self.key
    }

    fn run(&mut self, conn: &Connection) -> Result<CacheEffect, StoreError> {
        let f = self.f.take().ok_or_else(|| StoreError::Task("a write ran twice".into()))?;
        let (value, effect) = f(conn, &self.key.0, &self.key.1)?;
        self.value = Some(value);
        Ok(effect)
    }

    fn finish(self: Box<Self>, outcome: Result<(), StoreError>) {
        let Job { value, reply, .. } = *self;
        let result = outcome.and_then(|()| value.ok_or_else(|| StoreError::Task("a write never ran".into())));
        // The caller may have gone (a cancelled request); the write stands either way.
        let _ = reply.send(result);
    }
}

/// The writer thread: takes the writes queued while it was busy (up to [`MAX_GROUP_COMMIT`]) and
/// commits them in one transaction, which shares the log writes and the sync between them. Ends when
/// the store is dropped and the queue is empty.
fn run_writer(conn: &Connection, queue: &mpsc::Receiver<Box<dyn Write>>, cache: &DialogCache) {
    while let Ok(first) = queue.recv() {
        let mut group = vec![first];
        while group.len() < MAX_GROUP_COMMIT {
            match queue.try_recv() {
                Ok(job) => group.push(job),
                Err(_) => break,
            }
        }
        commit_group(conn, group, cache);
    }
}

/// Commits a group of writes in one IMMEDIATE transaction. A write that fails is rolled back to its
/// savepoint and answered with its error, and the others go on; if the transaction itself is lost (its
/// BEGIN or COMMIT fails, or SQLite rolled it back), every write of the group not yet answered fails.
fn commit_group(conn: &Connection, group: Vec<Box<dyn Write>>, cache: &DialogCache) {
    // The transaction is lost: every write not yet answered fails, and none of them is stored.
    let abandon = |done: Vec<(Box<dyn Write>, CacheEffect)>, rest: Vec<Box<dyn Write>>, why: String| {
        if !conn.is_autocommit() {
            let _ = conn.execute_batch("ROLLBACK");
        }
        for job in done.into_iter().map(|(job, _)| job).chain(rest) {
            job.finish(Err(StoreError::Commit(why.clone())));
        }
    };
    if let Err(e) = execute(conn, "BEGIN IMMEDIATE", []) {
        return abandon(Vec::new(), group, e.to_string());
    }
    // A write alone in its transaction needs no savepoint: its error rolls back the transaction.
    let isolate = group.len() > 1;
    let mut done: Vec<(Box<dyn Write>, CacheEffect)> = Vec::with_capacity(group.len());
    let mut pending = group.into_iter();
    while let Some(mut job) = pending.next() {
        let ran = savepoint(conn, isolate, "SAVEPOINT write").and_then(|()| {
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| job.run(conn)))
                .unwrap_or_else(|_| Err(StoreError::Task("a write panicked".into())))
        });
        match ran {
            Ok(effect) => match savepoint(conn, isolate, "RELEASE write") {
                Ok(()) => done.push((job, effect)),
                Err(e) => return abandon(done, std::iter::once(job).chain(pending).collect(), e.to_string()),
            },
            Err(error) => {
                // Errors such as a full disk make SQLite roll back the whole transaction.
                let rolled_back = isolate
                    && !conn.is_autocommit()
                    && savepoint(conn, true, "ROLLBACK TO write").is_ok()
                    && savepoint(conn, true, "RELEASE write").is_ok();
                job.finish(Err(error));
                if !rolled_back {
                    let why = "the transaction was rolled back by an earlier error".to_owned();
                    return abandon(done, pending.collect(), why);
                }
            }
        }
    }
    if let Err(e) = execute(conn, "COMMIT", []) {
        return abandon(done, Vec::new(), e.to_string());
    }
    let mut generation = cache.generation.lock().unwrap_or_else(|p| p.into_inner());
    *generation += 1;
    let committed: Vec<_> = done
        .into_iter()
        .map(|(job, effect)| {
            let key = job.key();
            match (effect, cache.dialogs.get(key)) {
                (CacheEffect::Append(appended), Some(cached)) => {
                    let mut entries = cached.entries.clone();
                    entries.extend(appended);
                    cache.dialogs.insert(key.clone(), CachedDialog::new(entries));
                }
                _ => cache.dialogs.invalidate(key),
            }
            job
        })
        .collect();
    drop(generation);
    for job in committed {
        job.finish(Ok(()));
    }
}

/// Runs a savepoint statement when the group's writes are isolated from each other.
fn savepoint(conn: &Connection, isolate: bool, sql: &str) -> Result<(), StoreError> {
    if isolate {
        execute(conn, sql, [])?;
    }
    Ok(())
}

/// Every [`CHECKPOINT_EVERY`], a passive checkpoint: it copies what no reader still needs from the log
/// into the database without blocking the writer or the readers, so the log stays short. The thread
/// ends with the store. False when the thread cannot start, and the writer must go on checkpointing.
fn start_checkpointer(conn: Connection, store: std::sync::Weak<Inner>) -> bool {
    let spawned = std::thread::Builder::new().name("parlance-checkpoint".into()).spawn(move || {
        loop {
            std::thread::sleep(CHECKPOINT_EVERY);
            let Some(inner) = store.upgrade() else { return };
            if let Err(e) = conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(())) {
                tracing::warn!(database = %inner.path.display(), "a checkpoint of the dialog store failed: {e}");
            }
        }
    });
    if let Err(e) = &spawned {
        tracing::warn!("cannot start the dialog store's checkpointer; commits will checkpoint: {e}");
    }
    spawned.is_ok()
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
mod tests;
