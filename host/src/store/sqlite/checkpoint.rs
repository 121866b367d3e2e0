//! Checkpoints of the write-ahead log, on a thread of their own rather than inside whichever commit
//! crosses SQLite's 1000-page mark: a checkpoint syncs the log and the database to disk, and the chat
//! whose commit paid for it waited tens of milliseconds.

use rusqlite::Connection;
use std::path::PathBuf;
use std::sync::Weak;
use std::time::Duration;

/// How often the checkpointer copies committed pages from the write-ahead log into the database.
const CHECKPOINT_EVERY: Duration = Duration::from_millis(500);

/// Every [`CHECKPOINT_EVERY`], a passive checkpoint: it copies what no reader still needs from the log
/// into the database without blocking the writer or the readers, so the log stays short. The thread
/// ends once `alive` can no longer be upgraded (the store was dropped). False when the thread cannot
/// start, and the writer must go on checkpointing.
pub fn start<T: Send + Sync + 'static>(conn: Connection, path: PathBuf, alive: Weak<T>) -> bool {
    let spawned = std::thread::Builder::new().name("parlance-checkpoint".into()).spawn(move || {
        loop {
            std::thread::sleep(CHECKPOINT_EVERY);
            if alive.upgrade().is_none() {
                return;
            }
            if let Err(e) = conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(())) {
                tracing::warn!(database = %path.display(), "a checkpoint of the dialog store failed: {e}");
            }
        }
    });
    if let Err(e) = &spawned {
        tracing::warn!("cannot start the dialog store's checkpointer; commits will checkpoint: {e}");
    }
    spawned.is_ok()
}
