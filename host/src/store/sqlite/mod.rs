//! The SQLite backend: one file in WAL mode, owned by one process. Every write runs on the writer
//! thread's connection (group commit, see `writer`); reads use a small pool of their own connections,
//! which WAL lets run beside the writer, on the blocking thread pool. No SQLite work runs on the async
//! runtime. The writer brings the user's cached dialog up to date right after each commit, so a
//! cancelled request cannot leave a stale entry behind.

mod checkpoint;
mod dialogs;
mod health;
mod jobs;
mod keys;
pub mod schema;
mod sql;
mod usage;
mod writer;

use super::backend::{Backend, StoreResult};
use super::cache::{CacheEffect, DialogCache};
use super::entry::DialogEntry;
use super::model::{Durability, StoreError, Trouble};
use health::WriteHealth;
use rusqlite::{Connection, OpenFlags, params};
use sql::{execute, query_row};
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
    /// Set while the writer is starting the log over (see `checkpoint`).
    restarting: Arc<AtomicBool>,
    /// Whether writes are failing for a lasting reason (see `health`).
    health: Arc<WriteHealth>,
}

/// The writer's page cache, in KiB (SQLite's default is 2 MiB).
const WRITER_CACHE_KIB: i64 = 32 << 10;

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

    /// [`SqliteBackend::open`] with the write-ahead log started over past `log_bound` bytes.
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
            writer.pragma_update(None, "cache_size", -WRITER_CACHE_KIB)?;
            schema::migrate(&mut writer, &path)?;
            let readers = (0..READERS)
                .map(|_| open(&path, durability).map(Mutex::new))
                .collect::<Result<_, _>>()
                .map_err(opened)?;
            let checkpointer = open(&path, durability).map_err(opened)?;
            let (writes, queue) = mpsc::channel();
            let cache = Arc::new(DialogCache::default());
            let restarter = checkpoint::Restarter::new(&path, log_bound);
            let inner = Arc::new(Inner {
                path: path.clone(),
                writes,
                readers,
                next_reader: AtomicUsize::new(0),
                cache,
                restarting: restarter.restarting.clone(),
                health: Arc::default(),
            });
            let checkpointing = checkpoint::start(checkpointer, path, Arc::downgrade(&inner));
            restarter.watch(&mut writer, checkpointing)?;
            let (cache, health) = (inner.cache.clone(), inner.health.clone());
            std::thread::Builder::new()
                .name("parlance-writer".into())
                .spawn(move || {
                    writer::run(&writer, &queue, &cache, &health, || restarter.after_group(&writer))
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

    fn restarting(&self) -> &AtomicBool {
        &self.restarting
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

/// Bumps the user's modification time; false when there is no such user.
fn touch(tx: &Connection, client: &str, user: &str) -> Result<bool, StoreError> {
    Ok(execute(
        tx,
        "UPDATE users SET modified_at = ?3 WHERE client = ?1 AND user_id = ?2",
        params![client, user, now_millis()],
    )? == 1)
}

/// Deletes every entry of the user's dialog. With [`insert_entries`], the only writers of entries, so
/// the count kept in `users.entries` always matches.
fn clear_entries(c: &Connection, client: &str, user: &str) -> Result<(), StoreError> {
    execute(c, "DELETE FROM dialog_entries WHERE client = ?1 AND user_id = ?2", params![client, user])?;
    execute(c, "UPDATE users SET entries = 0 WHERE client = ?1 AND user_id = ?2", params![client, user])?;
    Ok(())
}

/// Inserts `entries` with the indices they carry, and counts them in `users.entries`.
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
    execute(
        c,
        "UPDATE users SET entries = entries + ?3 WHERE client = ?1 AND user_id = ?2",
        params![client, user, entries.len() as i64],
    )?;
    Ok(())
}

fn user_exists(c: &Connection, client: &str, user: &str) -> Result<bool, StoreError> {
    let mut stmt = c.prepare_cached("SELECT 1 FROM users WHERE client = ?1 AND user_id = ?2")?;
    Ok(stmt.exists(params![client, user])?)
}

fn entries(c: &Connection, client: &str, user: &str) -> Result<Vec<DialogEntry>, StoreError> {
    // Sorted here rather than with ORDER BY, which SQLite re-plans at every new binding (see
    // `append_exchange`); the primary key's order makes this a check of an already sorted list.
    let mut rows = query_entries(
        c,
        "SELECT idx, name, message FROM dialog_entries WHERE client = ?1 AND user_id = ?2",
        params![client, user],
    )?;
    rows.sort_unstable_by_key(|e| e.index);
    Ok(rows)
}

/// The dialog entries a statement selects as `idx, name, message`, in the order it gives them.
fn query_entries(
    c: &Connection,
    sql: &str,
    params: impl rusqlite::Params,
) -> Result<Vec<DialogEntry>, StoreError> {
    let mut stmt = c.prepare_cached(sql)?;
    let rows = stmt
        .query_map(params, |r| Ok(DialogEntry { index: r.get(0)?, name: r.get(1)?, message: r.get(2)? }))?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::super::Dialogs;
    use super::*;
    use std::sync::atomic::AtomicBool;
    use std::time::{Duration, Instant};

    /// Under a steady stream of commits the log is started over once it passes its bound (its file
    /// cut back to the bound), and after the load it is emptied altogether; every acknowledged
    /// exchange is still there.
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
        let (mut peak, mut cut_under_load, mut last) = (0, false, 0);
        let started = Instant::now();
        while logged.load(Ordering::Relaxed) < 8 * bound {
            assert!(started.elapsed() < Duration::from_secs(60), "the load was too slow to test anything");
            let size = std::fs::metadata(&wal).map(|m| m.len()).unwrap_or(0);
            peak = peak.max(size);
            cut_under_load |= size < last;
            last = size;
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        stop.store(true, Ordering::Release);
        let mut acknowledged = Vec::new();
        for w in writers {
            acknowledged.push(w.await.unwrap());
        }
        assert!(cut_under_load, "the log was never started over while commits kept coming");
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
