//! What the store's API speaks, whichever backend: why an operation failed ([`StoreError`]), the
//! records it answers with ([`Recent`], [`UserMetadata`], [`Imported`]) and where the data lives and
//! how durably ([`Location`], [`Durability`]).

use super::cache::Dialog;
use super::entry::DialogEntry;
use std::sync::Arc;

/// Why a store operation failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("SQLite: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("PostgreSQL at {location}")]
    Postgres {
        location: String,
        #[source]
        source: tokio_postgres::Error,
    },
    #[error("no connection to PostgreSQL at {location}")]
    Pool {
        location: String,
        #[source]
        source: deadpool_postgres::PoolError,
    },
    #[error("cannot open the dialog store {location}")]
    Open {
        location: String,
        #[source]
        source: rusqlite::Error,
    },
    #[error(
        "the database {path} was written by a newer Parlance (schema version {found}, this build knows {known})"
    )]
    NewerSchema { path: String, found: i64, known: i64 },
    #[error("the dialog of this user would hold {would} entries; the limit is {limit}")]
    DialogFull { would: usize, limit: usize },
    #[error("cannot create the directory {path}")]
    Directory {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("a store task failed: {0}")]
    Task(String),
    /// A stored value this build cannot read back (a key's limits).
    #[error("{0}")]
    Unreadable(String),
    #[error("the dialog store is closed")]
    Closed,
    #[error("the commit failed, and no write of its transaction was stored")]
    Commit(#[source] Arc<StoreError>),
    /// The store's last write failed for a reason that lasts (a full disk, a read-only file), so this
    /// one is refused before it is tried; a probe finds out when writes work again.
    #[error("the dialog store cannot take writes: {reason}")]
    NotWritable { trouble: Trouble, reason: String },
}

/// What kind of trouble a store error is, which decides what a client is told and what `/health`
/// says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Trouble {
    /// The disk under the store is full: nothing more can be written until room is made.
    Full,
    /// The store cannot be reached or written (a read-only or missing file, an I/O error, a database
    /// server that does not answer).
    Unavailable,
    /// Anything else: a bug or a refused request.
    Other,
}

/// What importing a user did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Imported {
    Created,
    /// The user was there already, with the same dialog (an import run twice).
    Unchanged,
    /// The user was there already, with another dialog, which was left as it is.
    Conflict,
}

/// The newest entries of a dialog, oldest first, and how many entries the whole dialog has.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Recent {
    pub length: usize,
    pub entries: Vec<DialogEntry>,
}

impl Recent {
    /// The newest `n` entries of a dialog in memory, unless it is a tail that holds fewer.
    pub(crate) fn of(dialog: &Dialog, n: usize) -> Option<Recent> {
        let entries = dialog.entries();
        if !dialog.is_whole() && entries.len() < n {
            return None;
        }
        Some(Recent { length: dialog.len(), entries: entries[entries.len().saturating_sub(n)..].to_vec() })
    }

    /// From the newest entries as read, oldest first: the length is the last index plus one.
    pub(crate) fn from_entries(mut entries: Vec<DialogEntry>) -> Recent {
        entries.sort_unstable_by_key(|e| e.index);
        Recent { length: entries.last().map_or(0, |e| e.index as usize + 1), entries }
    }

    /// Whether these are all the entries of the dialog.
    pub fn is_whole(&self) -> bool {
        self.entries.len() == self.length
    }
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

impl crate::config::ToValue for Durability {
    fn to_value(&self) -> crate::config::Value {
        crate::config::Value::Text(
            match self {
                Durability::Normal => "normal",
                Durability::Full => "full",
            }
            .into(),
        )
    }
}

impl crate::config::FromValue for Durability {
    fn from_value(value: crate::config::Value) -> Result<Self, String> {
        match <String as crate::config::FromValue>::from_value(value)?.as_str() {
            "normal" => Ok(Durability::Normal),
            "full" => Ok(Durability::Full),
            other => Err(format!("{other:?} is not \"normal\" or \"full\"")),
        }
    }
}

/// Where the dialogs live.
#[derive(Clone, Debug)]
pub enum Location {
    /// A SQLite file, for one process.
    Sqlite { path: std::path::PathBuf, durability: Durability },
    /// A PostgreSQL database shared by every replica, through at most `pool_size` connections, with
    /// this TLS client configuration when the URL's `sslmode` asks for TLS.
    Postgres { url: String, pool_size: usize, tls: Arc<rustls::ClientConfig> },
}
