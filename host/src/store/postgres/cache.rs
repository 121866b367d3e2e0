//! The dialogs a replica keeps in memory, each with the version of its user's row it was read at.
//! Other replicas write the same rows, so an entry is served only after a `SELECT version` of the
//! row (an index lookup, one round trip) says nobody changed it since: no replica ever serves a
//! dialog another has changed, and an unchanged dialog costs one small read instead of its entries.

use super::super::cache::{Dialog, UserKey};
use super::super::entry::DialogEntry;
use std::sync::Arc;

/// Bytes of dialogs kept in memory (entries and rendered JSON).
const DIALOG_CACHE_BYTES: u64 = 64 << 20;

pub struct VersionedDialogs {
    dialogs: moka::sync::Cache<UserKey, (i64, Arc<Dialog>)>,
}

impl Default for VersionedDialogs {
    fn default() -> Self {
        VersionedDialogs {
            dialogs: moka::sync::Cache::builder()
                .max_capacity(DIALOG_CACHE_BYTES)
                .weigher(|_: &UserKey, (_, dialog): &(i64, Arc<Dialog>)| dialog.weight())
                .build(),
        }
    }
}

impl VersionedDialogs {
    /// The cached dialog, if it is the one at `version`.
    pub fn get(&self, key: &UserKey, version: i64) -> Option<Arc<Dialog>> {
        self.dialogs.get(key).filter(|(v, _)| *v == version).map(|(_, d)| d)
    }

    pub fn put(&self, key: UserKey, version: i64, dialog: Arc<Dialog>) {
        self.dialogs.insert(key, (version, dialog));
    }

    /// After a committed append that took the row from `version - 1` to `version`: the cached
    /// dialog, if it was the one just before, is extended rather than read again.
    pub fn appended(&self, key: &UserKey, version: i64, appended: Vec<DialogEntry>) {
        match self.get(key, version - 1).and_then(|before| before.extended(appended)) {
            Some(dialog) => self.put(key.clone(), version, dialog),
            None => self.dialogs.invalidate(key),
        }
    }

    pub fn forget(&self, key: &UserKey) {
        self.dialogs.invalidate(key);
    }
}
