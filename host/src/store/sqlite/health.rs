//! Whether the SQLite store can take writes. A write that fails for a reason that lasts (a full
//! disk, a read-only file) marks the store not writable, so that the next ones are refused before any
//! work is done for them; while it is marked, the checkpointer sends a probe write every half second,
//! and the first write that commits (the probe or any other) marks it writable again.

use super::super::{StoreError, Trouble};
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

    pub fn is_failing(&self) -> bool {
        self.failing.lock().map(|f| f.is_some()).unwrap_or(false)
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
