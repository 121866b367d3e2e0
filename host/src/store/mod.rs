//! The durable dialog store: users and their dialogs per API client.
//!
//! [`DialogStore`] is the API the chat service uses, the same whichever backend holds the data:
//! `sqlite` (the embedded default: one file, one process) or `postgres` (one database shared by
//! several replicas). Each backend keeps an exchange whole,
//! keeps a dialog's indices contiguous however many chats of the same user run at once, answers a write
//! only once it has committed, and keeps the dialogs it serves from memory (`cache`) coherent with
//! what it committed.

mod backend;
mod cache;
mod entry;
pub mod jobs;
pub mod keys;
mod model;
pub mod postgres;
mod settings;
pub mod sqlite;
pub mod usage;

pub use backend::{Backend, Dialogs, Jobs, Keys, Ledger, StoreResult};
pub use cache::Dialog;
pub use entry::DialogEntry;
pub use keys::{ApiKey, Budget, BudgetPeriod, BudgetsChange, KeyLimits, KeyRecord, KeyUpdate, LimitsChange};
pub use model::{Durability, Imported, Location, Recent, StoreError, Trouble, UserMetadata};
pub use settings::StoreConfig;

use crate::telemetry::WithSpan;
use bytes::Bytes;
use std::path::Path;
use std::sync::Arc;

/// How bad a failure is, whichever backend it came from.
impl StoreError {
    pub fn trouble(&self) -> Trouble {
        use rusqlite::ErrorCode;
        match self {
            StoreError::Sqlite(rusqlite::Error::SqliteFailure(e, _))
            | StoreError::Open { source: rusqlite::Error::SqliteFailure(e, _), .. } => match e.code {
                ErrorCode::DiskFull => Trouble::Full,
                ErrorCode::ReadOnly
                | ErrorCode::CannotOpen
                | ErrorCode::SystemIoFailure
                | ErrorCode::PermissionDenied
                | ErrorCode::DatabaseBusy
                | ErrorCode::DatabaseLocked
                | ErrorCode::NotADatabase
                | ErrorCode::DatabaseCorrupt => Trouble::Unavailable,
                _ => Trouble::Other,
            },
            StoreError::Postgres { source, .. } => postgres::trouble(source),
            StoreError::Pool { source, .. } => postgres::pool_trouble(source),
            StoreError::Directory { .. } | StoreError::Closed => Trouble::Unavailable,
            StoreError::Commit(cause) => cause.trouble(),
            StoreError::NotWritable { trouble, .. } => *trouble,
            _ => Trouble::Other,
        }
    }
}

/// The store's API. Cheap to clone; all clones share the backend.
#[derive(Clone)]
pub struct DialogStore {
    backend: Arc<dyn Backend>,
    /// The backend as the database conventions name it (`sqlite`, `postgresql`), for the spans.
    system: &'static str,
}

impl DialogStore {
    /// Opens (creating if needed) and migrates the SQLite store at `path`.
    pub async fn open(path: &Path, durability: Durability) -> Result<DialogStore, StoreError> {
        let backend = Arc::new(sqlite::SqliteBackend::open(path, durability).await?);
        Ok(DialogStore { backend, system: "sqlite" })
    }

    /// Opens the store at `location`, migrating its schema.
    pub async fn open_at(location: &Location) -> Result<DialogStore, StoreError> {
        match location {
            Location::Sqlite { path, durability } => DialogStore::open(path, *durability).await,
            Location::Postgres { url, pool_size, tls } => Ok(DialogStore {
                backend: Arc::new(postgres::PgBackend::connect(url, *pool_size, (**tls).clone()).await?),
                system: "postgresql",
            }),
        }
    }

    /// Where the data lives (a path, or a URL without its password).
    pub fn location(&self) -> String {
        self.backend.location()
    }

    /// Whether the store can read and take writes, for health checks.
    pub async fn check(&self) -> Result<(), StoreError> {
        self.backend.writable()?;
        self.backend.check().await
    }

    /// Refuses at once when the store's writes are failing for a lasting reason (a full disk), so
    /// that work whose result could not be stored (a chat's model call) is not done.
    pub fn writable(&self) -> Result<(), StoreError> {
        self.backend.writable()
    }

    /// Creates the user if absent; true when it was created. An existing user is left untouched.
    pub async fn put_user(&self, client: &str, user: &str) -> Result<bool, StoreError> {
        self.traced("put_user", self.backend.put_user(client, user)).await
    }

    pub async fn user_exists(&self, client: &str, user: &str) -> Result<bool, StoreError> {
        self.traced("user_exists", self.backend.user_exists(client, user)).await
    }

    pub async fn metadata(&self, client: &str, user: &str) -> Result<Option<UserMetadata>, StoreError> {
        self.traced("metadata", self.backend.metadata(client, user)).await
    }

    /// Deletes the user and its dialog; false when there was no such user.
    pub async fn delete_user(&self, client: &str, user: &str) -> Result<bool, StoreError> {
        self.traced("delete_user", self.backend.delete_user(client, user)).await
    }

    pub async fn count_users(&self, client: &str) -> Result<u64, StoreError> {
        self.traced("count_users", self.backend.count_users(client)).await
    }

    /// One page of user ids, newest-modified first (ties by id).
    pub async fn list_users(
        &self,
        client: &str,
        page: u64,
        per_page: u64,
    ) -> Result<Vec<String>, StoreError> {
        self.traced("list_users", self.backend.list_users(client, page, per_page)).await
    }

    /// The dialog as last committed, shared with the store's memory; `None` when there is no such user.
    pub async fn dialog(&self, client: &str, user: &str) -> Result<Option<Arc<Dialog>>, StoreError> {
        self.traced("dialog", self.backend.dialog(client, user)).await
    }

    /// The newest `n` entries (at least one) of the dialog as last committed, and its length; from
    /// memory when the dialog is there, else read without the older entries.
    pub async fn newest(&self, client: &str, user: &str, n: usize) -> Result<Recent, StoreError> {
        self.traced("newest", self.backend.newest(client, user, n.max(1))).await
    }

    /// The dialog as a JSON array of entries (`index`, `name`, `message`), oldest first, rendered once
    /// per change of the dialog; `None` when there is no such user.
    pub async fn dialog_json(&self, client: &str, user: &str) -> Result<Option<Bytes>, StoreError> {
        Ok(self.dialog(client, user).await?.map(|d| d.json()))
    }

    /// Empties the dialog; false when there is no such user.
    pub async fn reset_dialog(&self, client: &str, user: &str) -> Result<bool, StoreError> {
        self.traced("reset_dialog", self.backend.reset_dialog(client, user)).await
    }

    /// Replaces the dialog with `entries` (already validated: indices 0..n in order); false when there
    /// is no such user.
    pub async fn set_dialog(
        &self,
        client: &str,
        user: &str,
        entries: Vec<DialogEntry>,
    ) -> Result<bool, StoreError> {
        self.traced("set_dialog", self.backend.set_dialog(client, user, entries)).await
    }

    /// Creates a user with its dialog and modification time (milliseconds), as an import does; an
    /// existing user is never changed.
    pub async fn import_user(
        &self,
        client: &str,
        user: &str,
        entries: Vec<DialogEntry>,
        modified_at: i64,
    ) -> Result<Imported, StoreError> {
        self.traced("import_user", self.backend.import_user(client, user, entries, modified_at)).await
    }

    /// The store's job operations ([`Jobs`]), used as they are by the paraphrase domain's job runner.
    pub fn jobs(&self) -> &dyn Jobs {
        &*self.backend
    }

    /// Creates an API key bound to `client` with `limits` (checked by the caller with
    /// [`KeyLimits::check`]); the key itself is returned once and never stored.
    pub async fn create_key(
        &self,
        name: &str,
        client: &str,
        limits: KeyLimits,
    ) -> Result<(String, ApiKey), StoreError> {
        let (secret, id) =
            keys::generate().map_err(|e| StoreError::Task(format!("no randomness for a key: {e}")))?;
        let created_at = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_millis() as i64)
            .unwrap_or(0);
        let key = ApiKey {
            id,
            name: name.to_owned(),
            client: client.to_owned(),
            created_at,
            revoked_at: None,
            limits,
        };
        self.traced("create_key", self.backend.create_key(key.clone(), keys::hash(&secret))).await?;
        Ok((secret, key))
    }

    /// One key with its limits, revoked or not.
    pub async fn get_key(&self, id: &str) -> Result<Option<ApiKey>, StoreError> {
        self.traced("get_key", self.backend.get_key(id)).await
    }

    /// Renames a key (when `name` is given) and changes its limits, checked whole once changed; a
    /// revoked key is left as it is. Servers holding the key's verdict see the change within
    /// `[auth] cache_secs`.
    pub async fn update_key(
        &self,
        id: &str,
        name: Option<&str>,
        change: &LimitsChange,
    ) -> Result<KeyUpdate, StoreError> {
        let Some(mut key) = self.get_key(id).await? else { return Ok(KeyUpdate::NotFound) };
        if key.revoked_at.is_some() {
            return Ok(KeyUpdate::Revoked(key));
        }
        key.limits = match key.limits.apply(change) {
            Ok(limits) => limits,
            Err(problem) => return Ok(KeyUpdate::Invalid(problem)),
        };
        if let Some(name) = name {
            key.name = name.to_owned();
        }
        if !self.traced("update_key", self.backend.update_key(id, &key.name, &key.limits)).await? {
            // Revoked (or gone) between the read and the write.
            return Ok(match self.get_key(id).await? {
                Some(key) => KeyUpdate::Revoked(key),
                None => KeyUpdate::NotFound,
            });
        }
        Ok(KeyUpdate::Updated(key))
    }

    pub async fn list_keys(&self) -> Result<Vec<ApiKey>, StoreError> {
        self.traced("list_keys", self.backend.list_keys()).await
    }

    pub async fn revoke_key(&self, id: &str) -> Result<bool, StoreError> {
        self.traced("revoke_key", self.backend.revoke_key(id)).await
    }

    pub async fn find_key(&self, id: &str) -> Result<Option<KeyRecord>, StoreError> {
        self.traced("find_key", self.backend.find_key(id)).await
    }

    /// Every client with limits, by name.
    pub async fn list_client_limits(&self) -> Result<Vec<(String, KeyLimits)>, StoreError> {
        self.traced("list_client_limits", self.backend.list_client_limits()).await
    }

    /// `client`'s limits; none when it has none. Not traced: the budgets read it on a call's path
    /// (remembered for a while), where a span would stand for no work the call asked for.
    pub async fn client_limits(&self, client: &str) -> Result<KeyLimits, StoreError> {
        Ok(self.backend.client_limits(client).await?.unwrap_or_default())
    }

    /// Changes `client`'s limits, checked whole once changed ([`KeyLimits::check`]): the limits it
    /// has now, or the rule the change breaks.
    pub async fn update_client_limits(
        &self,
        client: &str,
        change: &LimitsChange,
    ) -> Result<Result<KeyLimits, String>, StoreError> {
        let limits = match self.client_limits(client).await?.apply(change) {
            Ok(limits) => limits,
            Err(problem) => return Ok(Err(problem)),
        };
        self.traced("set_client_limits", self.backend.set_client_limits(client, &limits)).await?;
        Ok(Ok(limits))
    }

    /// Records settled calls (see [`Ledger::record_usage`]); how many were new.
    pub async fn record_usage(
        &self,
        calls: impl Into<std::sync::Arc<[usage::UsageCall]>>,
    ) -> Result<u64, StoreError> {
        self.traced("record_usage", self.backend.record_usage(calls.into())).await
    }

    pub async fn usage_report(&self, query: &usage::UsageQuery) -> Result<Vec<usage::UsageRow>, StoreError> {
        self.traced("usage_report", self.backend.usage_report(query)).await
    }

    /// Runs one operation under its span: a client span named for the operation, as the database
    /// conventions name them, with `error.type` when it failed. The job runner runs the [`Jobs`]
    /// operations it calls through it.
    pub async fn traced<T>(
        &self,
        operation: &'static str,
        work: impl Future<Output = Result<T, StoreError>>,
    ) -> Result<T, StoreError> {
        let span = crate::telemetry::trace_span!(
            format!("{operation} {}", self.system),
            Client,
            "db.system.name" => self.system,
            "db.operation.name" => operation,
        );
        let result = work.in_span(span.clone()).await;
        if let Err(e) = &result {
            span.set_error(format!("{:?}", e.trouble()));
        }
        result
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
        self.traced("append_exchange", self.backend.append_exchange(client, user, lines, max_entries)).await
    }
}

#[cfg(test)]
mod test_postgres;
#[cfg(test)]
mod tests;
