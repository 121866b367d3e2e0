//! Whether the SQLite store can take writes. A write that fails for a reason that lasts (a full
//! disk, a read-only file) marks the store not writable, so that the next ones are refused before any
//! work is done for them; while it is marked, the checkpointer sends a probe write every half second,
//! and the first write that commits (the probe or any other) marks it writable again. On a full disk the
//! probe waits for room to be made: a write of one page can still land in the log's already allocated
//! pages, which would report a disk with no room as writable again.

use super::super::model::{StoreError, Trouble};
use std::sync::Mutex;

#[derive(Default)]
pub struct WriteHealth {
    failing: Mutex<Option<(Trouble, String)>>,
}

impl WriteHealth {
    /// Remembers what a failed write says, when it is a lasting trouble.
    pub fn failed(&self, error: &StoreError) {
        let trouble = error.trouble();
        if trouble == Trouble::Other {
            return;
        }
        if let Ok(mut failing) = self.failing.lock() {
            if failing.is_none() {
                tracing::error!(
                    "the dialog store cannot take writes: {error}; refusing writes until a probe succeeds"
                );
            }
            *failing = Some((trouble, error_chain(error)));
        }
    }

    pub fn committed(&self) {
        if let Ok(mut failing) = self.failing.lock()
            && failing.take().is_some()
        {
            tracing::info!("the dialog store takes writes again");
        }
    }

    /// The lasting trouble writes are failing with, if any.
    pub fn trouble(&self) -> Option<Trouble> {
        self.failing.lock().ok().and_then(|f| f.as_ref().map(|(trouble, _)| *trouble))
    }

    pub fn check(&self) -> Result<(), StoreError> {
        match self.failing.lock().ok().and_then(|f| f.clone()) {
            Some((trouble, reason)) => Err(StoreError::NotWritable { trouble, reason }),
            None => Ok(()),
        }
    }
}

fn error_chain(error: &StoreError) -> String {
    let mut text = error.to_string();
    let mut source = std::error::Error::source(error);
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

/// Room the disk must have before a probe is worth sending after a full disk: more than one chat's
/// exchange with long texts takes.
const PROBE_ROOM: u64 = 256 * 1024;

/// Whether the file system holding `path` has room for the probe (true when it cannot be asked).
pub fn has_room(path: &std::path::Path) -> bool {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(std::path::Path::new("."));
    match rustix::fs::statvfs(dir) {
        Ok(fs) => fs.f_bavail.saturating_mul(fs.f_frsize) >= PROBE_ROOM,
        Err(_) => true,
    }
}
