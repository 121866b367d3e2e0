//! The dialogs kept in memory, by client and user, with their JSON form once rendered, so that a chat
//! reads its history without a query and `GET /v1/user/dialog/json` serves bytes.
//!
//! A backend keeps the cache coherent with what it committed: it applies each committed write's
//! [`CacheEffect`] right after the commit, and a read fills the cache only when no commit happened
//! while it read, so the cache holds each user's dialog as last committed, or nothing.

use crate::chat::DialogEntry;
use bytes::Bytes;
use std::sync::{Arc, Mutex, OnceLock};

/// A user's dialog as last committed, and its JSON array once a read asked for it.
#[derive(Debug)]
pub struct Dialog {
    entries: Vec<DialogEntry>,
    json: OnceLock<Bytes>,
}

impl Dialog {
    pub fn new(entries: Vec<DialogEntry>) -> Arc<Dialog> {
        Arc::new(Dialog { entries, json: OnceLock::new() })
    }

    /// The entries, oldest first.
    pub fn entries(&self) -> &[DialogEntry] {
        &self.entries
    }

    /// The entries as a JSON array, rendered once.
    pub fn json(&self) -> Bytes {
        self.json
            .get_or_init(|| {
                // A list of plain records always serialises.
                Bytes::from(serde_json::to_vec(&self.entries).unwrap_or_else(|_| b"[]".to_vec()))
            })
            .clone()
    }

    /// Roughly the bytes it holds: the entries, and their JSON when rendered.
    pub(super) fn weight(&self) -> u32 {
        let text: usize = self.entries.iter().map(|e| e.name.len() + e.message.len() + 48).sum();
        u32::try_from(text * 2).unwrap_or(u32::MAX)
    }
}

/// What a committed write did to the user's dialog.
pub enum CacheEffect {
    /// The dialog changed in some other way: drop it, the next read loads it.
    Drop,
    /// These entries were appended.
    Append(Vec<DialogEntry>),
}

/// (client, user).
pub type UserKey = (String, String);

/// Bytes of dialogs kept in memory (entries and rendered JSON).
const DIALOG_CACHE_BYTES: u64 = 64 << 20;

pub struct DialogCache {
    dialogs: moka::sync::Cache<UserKey, Arc<Dialog>>,
    /// Counts commits. A commit bumps it and updates the cache under this lock; a read fills the cache,
    /// under the same lock, only when no commit happened since it began.
    generation: Mutex<u64>,
}

impl Default for DialogCache {
    fn default() -> Self {
        DialogCache {
            dialogs: moka::sync::Cache::builder()
                .max_capacity(DIALOG_CACHE_BYTES)
                .weigher(|_: &UserKey, dialog: &Arc<Dialog>| dialog.weight())
                .build(),
            generation: Mutex::new(0),
        }
    }
}

impl DialogCache {
    pub fn get(&self, key: &UserKey) -> Option<Arc<Dialog>> {
        self.dialogs.get(key)
    }

    /// The commit count a read starts from, for [`DialogCache::fill`].
    pub fn generation(&self) -> u64 {
        *self.generation.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Remembers a dialog read from the database, unless a write committed since `started`: that
    /// write may not be in it.
    pub fn fill(&self, key: UserKey, dialog: Arc<Dialog>, started: u64) {
        let generation = self.generation.lock().unwrap_or_else(|p| p.into_inner());
        if *generation == started {
            self.dialogs.insert(key, dialog);
        }
    }

    /// Applies the effects of the writes of one commit, right after it.
    pub fn committed<'a>(&self, effects: impl IntoIterator<Item = (&'a UserKey, CacheEffect)>) {
        let mut generation = self.generation.lock().unwrap_or_else(|p| p.into_inner());
        *generation += 1;
        for (key, effect) in effects {
            match (effect, self.dialogs.get(key)) {
                (CacheEffect::Append(appended), Some(cached)) => {
                    let mut entries = cached.entries.clone();
                    entries.extend(appended);
                    self.dialogs.insert(key.clone(), Dialog::new(entries));
                }
                _ => self.dialogs.invalidate(key),
            }
        }
    }
}
