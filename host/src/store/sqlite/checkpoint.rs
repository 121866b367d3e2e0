//! Checkpoints of the write-ahead log, on a thread of their own rather than inside whichever commit
//! crosses SQLite's 1000-page mark: a checkpoint syncs the log and the database to disk, and the chat
//! whose commit paid for it waited tens of milliseconds.
//!
//! The log must also stay bounded. A passive checkpoint copies what it can without blocking anyone,
//! but under a steady stream of commits it never catches up with the end of the log, so the log is
//! never started over and grows without end. So the writer learns the log's length at each commit
//! (SQLite's WAL hook), and once it passes [`RESTART_AT`] takes a RESTART checkpoint between two
//! groups, where no write can get in its way (from another connection it would have to win the write
//! lock from a writer that takes it back at once); it copies what the passive checkpoints left, and
//! the next commit writes the log from its start again. The file is kept rather than emptied: writing
//! over pages the file already has costs the kernel no allocation, where a log emptied under load was
//! grown again page by page (a quarter of the writer's time at one chat at a time). Once the writes
//! stop, the checkpointer empties a log left behind by the load.

use rusqlite::Connection;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

/// How often the checkpointer copies committed pages from the write-ahead log into the database.
const CHECKPOINT_EVERY: Duration = Duration::from_millis(500);

/// The log size past which the writer starts it over, holding commits back for as long as that takes
/// (milliseconds: the pages were mostly copied by the passive checkpoints before it). The log then
/// peaks at this plus what one group commit adds, and its file is cut back to this size when it starts
/// over (`journal_size_limit`).
pub const RESTART_AT: u64 = 16 << 20;

/// SQLite's own checkpoint mark (`wal_autocheckpoint`'s default), for a writer without a checkpointer.
const AUTOCHECKPOINT_FRAMES: i32 = 1000;

/// What the checkpointer needs from the store: whether it is still open, how many commits it has
/// made, and whether the writer is starting the log over.
pub trait Watched: Send + Sync + 'static {
    fn commits(&self) -> u64;
    fn restarting(&self) -> &AtomicBool;
    /// Sends a probe write when writes have been failing (see `health`).
    fn probe_if_failing(&self);
}

/// The log's upkeep on the writer's side, run between group commits.
pub struct Restarter {
    wal: PathBuf,
    restart_at: u64,
    /// The log's length in bytes after the latest commit, kept by the WAL hook ([`Restarter::watch`]).
    logged: Arc<AtomicU64>,
    /// Set while the log is over its bound and not yet started over; the checkpointer stays out of
    /// the way meanwhile (SQLite refuses a checkpoint while another runs rather than wait for it).
    pub restarting: Arc<AtomicBool>,
}

impl Restarter {
    pub fn new(database: &Path, restart_at: u64) -> Restarter {
        Restarter { wal: wal_of(database), restart_at, logged: Arc::default(), restarting: Arc::default() }
    }

    /// Has the writer's connection tell the log's length at each commit, instead of a look at the
    /// file after each group. The hook takes the place of SQLite's automatic checkpoints, so without
    /// a checkpointer (`checkpointer` false) it also takes a passive one at SQLite's own mark.
    pub fn watch(&self, conn: &mut Connection, checkpointer: bool) -> rusqlite::Result<()> {
        let page = conn.query_row("PRAGMA page_size", [], |r| r.get::<_, i64>(0))?.unsigned_abs();
        let logged = self.logged.clone();
        conn.wal_hook(Some(move |wal: &mut rusqlite::hooks::Wal, frames: std::ffi::c_int| {
            // A log is a 32-byte header and a 24-byte header before each page.
            logged.store(32 + u64::try_from(frames).unwrap_or(0) * (page + 24), Ordering::Relaxed);
            // As SQLite's own hook does, the checkpoint's outcome is not the commit's: an error here
            // would have the committed write answered as failed.
            if !checkpointer && frames >= AUTOCHECKPOINT_FRAMES {
                let _ = wal.checkpoint();
            }
            Ok(())
        }))
    }

    /// Starts the log over when it has passed its bound; tried again after the next group when a
    /// checkpoint of the checkpointer's was still running.
    pub fn after_group(&self, conn: &Connection) {
        let over = self.logged.load(Ordering::Relaxed) > self.restart_at;
        if !over && !self.restarting.load(Ordering::Acquire) {
            return;
        }
        self.restarting.store(true, Ordering::Release);
        match conn.query_row("PRAGMA wal_checkpoint(RESTART)", [], |r| r.get::<_, i64>(0)) {
            Ok(0) => {
                self.logged.store(0, Ordering::Relaxed);
                self.restarting.store(false, Ordering::Release);
            }
            Ok(_) => {}
            Err(e) => {
                self.restarting.store(false, Ordering::Release);
                tracing::warn!(log = %self.wal.display(), "starting the dialog store's log over failed: {e}");
            }
        }
    }
}

fn wal_of(database: &Path) -> PathBuf {
    PathBuf::from(format!("{}-wal", database.display()))
}

/// Starts the checkpointer; it ends once `store` can no longer be upgraded (the store was dropped).
/// False when the thread cannot start, and the writer must go on checkpointing.
pub fn start<T: Watched>(conn: Connection, path: PathBuf, store: std::sync::Weak<T>) -> bool {
    let wal = wal_of(&path);
    let spawned = std::thread::Builder::new().name("parlance-checkpoint".into()).spawn(move || {
        let mut seen = 0;
        loop {
            std::thread::sleep(CHECKPOINT_EVERY);
            let Some(store) = store.upgrade() else { return };
            store.probe_if_failing();
            let commits = store.commits();
            let size = std::fs::metadata(&wal).map(|m| m.len()).unwrap_or(0);
            // Idle since the last look, with a log left over: empty it now that nobody waits.
            let idle = commits == seen && size > 0;
            seen = commits;
            // While the writer is starting the log over, a checkpoint here would only be in its way.
            let skip = store.restarting().load(Ordering::Acquire);
            drop(store);
            if skip {
                continue;
            }
            let mode = if idle { "TRUNCATE" } else { "PASSIVE" };
            if let Err(e) = conn.query_row(&format!("PRAGMA wal_checkpoint({mode})"), [], |_| Ok(())) {
                tracing::warn!(database = %path.display(), "a checkpoint of the dialog store failed: {e}");
            }
        }
    });
    if let Err(e) = &spawned {
        tracing::warn!("cannot start the dialog store's checkpointer; commits will checkpoint: {e}");
    }
    spawned.is_ok()
}
