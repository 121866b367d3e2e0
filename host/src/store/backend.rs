//! What a dialog store backend does, by concern: [`Dialogs`] (users and their dialogs), [`Jobs`]
//! (durable batch jobs), [`Keys`] (API keys) and [`Ledger`] (what each call used). SQLite implements them for one process, PostgreSQL
//! for several replicas; the API in `store` is the same whichever backend is configured.

use super::cache::Dialog;
use super::entry::DialogEntry;
use super::jobs::{Cancelled, ClaimedItem, ItemRecord, ItemResult, JobRecord, NewJob};
use super::keys::{ApiKey, KeyLimits, KeyRecord};
use super::model::{Imported, Recent, StoreError, UserMetadata};
use super::usage::{UsageCall, UsageQuery, UsageRow};
use futures::future::BoxFuture;
use std::sync::Arc;

pub type StoreResult<'a, T> = BoxFuture<'a, Result<T, StoreError>>;

/// A whole backend: the three concerns, and its health. Every write is whole or nothing, and a write
/// is answered only once it has committed.
pub trait Backend: Dialogs + Jobs + Keys + Ledger + Send + Sync {
    /// Where the data lives, for `/health` and messages (a path, or a URL without its password).
    fn location(&self) -> String;

    /// A trivial read, for health checks.
    fn check(&self) -> StoreResult<'_, ()>;

    /// `Err` while writes fail for a lasting reason (a full disk, a read-only file), until they work
    /// again; the backend finds out by itself, without a restart.
    fn writable(&self) -> Result<(), StoreError> {
        Ok(())
    }
}

/// Users and their dialogs, per API client.
pub trait Dialogs: Send + Sync {
    /// Creates the user if absent; true when it was created. An existing user is left untouched.
    fn put_user<'a>(&'a self, client: &'a str, user: &'a str) -> StoreResult<'a, bool>;

    fn user_exists<'a>(&'a self, client: &'a str, user: &'a str) -> StoreResult<'a, bool>;

    fn metadata<'a>(&'a self, client: &'a str, user: &'a str) -> StoreResult<'a, Option<UserMetadata>>;

    /// Deletes the user and its dialog; false when there was no such user.
    fn delete_user<'a>(&'a self, client: &'a str, user: &'a str) -> StoreResult<'a, bool>;

    fn count_users<'a>(&'a self, client: &'a str) -> StoreResult<'a, u64>;

    /// One page of user ids, newest-modified first (ties by id).
    fn list_users<'a>(&'a self, client: &'a str, page: u64, per_page: u64) -> StoreResult<'a, Vec<String>>;

    /// The dialog as last committed; `None` when there is no such user.
    fn dialog<'a>(&'a self, client: &'a str, user: &'a str) -> StoreResult<'a, Option<Arc<Dialog>>>;

    /// The newest `n` entries (`n` ≥ 1) of the dialog as last committed, and its length; nothing for a
    /// user without entries or no such user. Read without the older entries, so that what a chat
    /// costs does not grow with its dialog.
    fn newest<'a>(&'a self, client: &'a str, user: &'a str, n: usize) -> StoreResult<'a, Recent>;

    /// Empties the dialog; false when there is no such user.
    fn reset_dialog<'a>(&'a self, client: &'a str, user: &'a str) -> StoreResult<'a, bool>;

    /// Replaces the dialog with `entries` (already validated: indices 0..n in order); false when there
    /// is no such user.
    fn set_dialog<'a>(
        &'a self,
        client: &'a str,
        user: &'a str,
        entries: Vec<DialogEntry>,
    ) -> StoreResult<'a, bool>;

    /// Appends the lines of one exchange, creating the user if needed, in one transaction, with the
    /// next indices of the dialog; refused whole when the dialog would exceed `max_entries`. Returns
    /// the indices given to the lines.
    fn append_exchange<'a>(
        &'a self,
        client: &'a str,
        user: &'a str,
        lines: Vec<(String, String)>,
        max_entries: usize,
    ) -> StoreResult<'a, Vec<u32>>;

    /// Creates a user with these entries, last modified at `modified_at` (milliseconds), unless the
    /// user exists: then nothing changes, and the answer says whether its dialog is the same.
    fn import_user<'a>(
        &'a self,
        client: &'a str,
        user: &'a str,
        entries: Vec<DialogEntry>,
        modified_at: i64,
    ) -> StoreResult<'a, Imported>;
}

/// Durable asynchronous batch jobs, claimed item by item by every replica's runner.
pub trait Jobs: Send + Sync {
    /// Stores a new job and its texts, pending.
    fn create_job<'a>(&'a self, job: NewJob, texts: Vec<String>) -> StoreResult<'a, ()>;

    /// A job of this client.
    fn job<'a>(&'a self, client: &'a str, id: &'a str) -> StoreResult<'a, Option<JobRecord>>;

    /// The items `offset..offset + limit` of a job, in order.
    fn job_items<'a>(&'a self, id: &'a str, offset: u64, limit: u64) -> StoreResult<'a, Vec<ItemRecord>>;

    /// This client's jobs, newest first.
    fn list_jobs<'a>(&'a self, client: &'a str, offset: u64, limit: u64) -> StoreResult<'a, Vec<JobRecord>>;

    /// Cancels a job of this client: its items not yet claimed will not be.
    fn cancel_job<'a>(&'a self, client: &'a str, id: &'a str, now: i64) -> StoreResult<'a, Cancelled>;

    /// Claims up to `n` items of running jobs for `replica` until `lease_until`: pending ones, and
    /// claimed ones whose lease has run out (their replica is gone). Oldest jobs first.
    fn claim_items<'a>(
        &'a self,
        replica: &'a str,
        n: usize,
        now: i64,
        lease_until: i64,
    ) -> StoreResult<'a, Vec<ClaimedItem>>;

    /// Extends the leases of every item `replica` holds.
    fn renew_claims<'a>(&'a self, replica: &'a str, lease_until: i64) -> StoreResult<'a, u64>;

    /// Gives back every item `replica` holds (a replica starting again under the same id).
    fn release_claims<'a>(&'a self, replica: &'a str) -> StoreResult<'a, u64>;

    /// Stores an item's result, if `replica` still holds it (else another replica took it over and
    /// this result is dropped: false), and counts it in its job, which completes with its last item.
    fn finish_item<'a>(
        &'a self,
        replica: &'a str,
        job_id: &'a str,
        index: u64,
        result: ItemResult,
        now: i64,
    ) -> StoreResult<'a, bool>;
}

/// API keys, each bound to one client.
pub trait Keys: Send + Sync {
    /// Stores a new API key (its id must be new) with the hash of its secret and its limits.
    fn create_key<'a>(&'a self, key: ApiKey, secret_hash: Vec<u8>) -> StoreResult<'a, ()>;

    /// Every key, newest first.
    fn list_keys(&self) -> StoreResult<'_, Vec<ApiKey>>;

    /// One key as listings show it, with its limits.
    fn get_key<'a>(&'a self, id: &'a str) -> StoreResult<'a, Option<ApiKey>>;

    /// Replaces the name and limits of a key that is not revoked; false when there is no such key or
    /// it is revoked.
    fn update_key<'a>(&'a self, id: &'a str, name: &'a str, limits: &'a KeyLimits) -> StoreResult<'a, bool>;

    /// Marks a key revoked; false when there is no such key or it was revoked already.
    fn revoke_key<'a>(&'a self, id: &'a str) -> StoreResult<'a, bool>;

    /// What a presented key with this id is checked against.
    fn find_key<'a>(&'a self, id: &'a str) -> StoreResult<'a, Option<KeyRecord>>;

    /// Every client that has limits, by name.
    fn list_client_limits(&self) -> StoreResult<'_, Vec<(String, KeyLimits)>>;

    /// One client's limits (`None`: it has none).
    fn client_limits<'a>(&'a self, client: &'a str) -> StoreResult<'a, Option<KeyLimits>>;

    /// Replaces a client's limits; limits that hold nothing remove its row.
    fn set_client_limits<'a>(&'a self, client: &'a str, limits: &'a KeyLimits) -> StoreResult<'a, ()>;
}

/// The usage ledger: every settled plugin call, and its sums per hour.
pub trait Ledger: Send + Sync {
    /// Records calls in one transaction, each with its hour's sums; a call whose id is on record
    /// already is skipped, so that a write repeated after a lost answer counts once. Returns how many
    /// were new.
    fn record_usage(&self, calls: std::sync::Arc<[UsageCall]>) -> StoreResult<'_, u64>;

    /// The sums of the hours `query` covers, per group.
    fn usage_report<'a>(&'a self, query: &'a UsageQuery) -> StoreResult<'a, Vec<UsageRow>>;
}
