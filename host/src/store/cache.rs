//! The dialogs kept in memory, by client and user, with their JSON form once rendered, so that a chat
//! reads its history without a query and `GET /v1/user/dialog/json` serves bytes.
//!
//! A backend keeps the cache coherent with what it committed: it applies each committed write's
//! [`CacheEffect`] right after the commit, and a read fills the cache only when no commit happened
//! while it read, so the cache holds each user's dialog as last committed, or nothing.

use super::entry::DialogEntry;
use bytes::Bytes;
use std::ops::Deref;
use std::sync::{Arc, Mutex, OnceLock, RwLock, RwLockReadGuard};

/// A user's dialog as last committed, or only its newest entries (a tail), and its JSON array once a
/// read asked for it.
///
/// It is a prefix of an append-only log that the later versions of the same dialog share: appending
/// an exchange adds two entries to the log and makes a longer prefix, so a chat never copies the
/// dialog it extends, however long. Readers of this version see only its own prefix.
///
/// A tail is what a chat read of a long dialog keeps: the log then starts at entry `from`, so that
/// the next chat of the same user finds its history window in memory without the whole dialog ever
/// being read.
#[derive(Debug)]
pub struct Dialog {
    log: Arc<RwLock<Vec<DialogEntry>>>,
    /// The index of the log's first entry: 0 for a whole dialog.
    from: usize,
    /// The dialog's length: the log holds entries `from..len`.
    len: usize,
    weight: u32,
    json: OnceLock<Bytes>,
}

/// The entries of one version of a dialog, oldest first, read under the log's lock (so not to be held
/// across an await).
pub struct Entries<'a> {
    log: RwLockReadGuard<'a, Vec<DialogEntry>>,
    len: usize,
}

impl Deref for Entries<'_> {
    type Target = [DialogEntry];

    fn deref(&self) -> &[DialogEntry] {
        &self.log[..self.len]
    }
}

/// Roughly the bytes an entry holds in memory, twice over for its JSON when rendered.
fn weight_of(entries: &[DialogEntry]) -> u64 {
    entries.iter().map(|e| 2 * (e.name.len() + e.message.len() + 48) as u64).sum()
}

impl Dialog {
    /// A whole dialog.
    pub fn new(entries: Vec<DialogEntry>) -> Arc<Dialog> {
        Dialog::tail(0, entries)
    }

    /// The newest entries of a dialog, the first of them at index `from`.
    pub fn tail(from: usize, entries: Vec<DialogEntry>) -> Arc<Dialog> {
        Arc::new(Dialog {
            from,
            len: from + entries.len(),
            weight: u32::try_from(weight_of(&entries)).unwrap_or(u32::MAX),
            log: Arc::new(RwLock::new(entries)),
            json: OnceLock::new(),
        })
    }

    /// The entries held, oldest first: all of them for a whole dialog.
    pub fn entries(&self) -> Entries<'_> {
        Entries { log: self.log.read().unwrap_or_else(|p| p.into_inner()), len: self.len - self.from }
    }

    /// The dialog's length, whether whole or a tail.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether every entry is held, not only the newest.
    pub fn is_whole(&self) -> bool {
        self.from == 0
    }

    /// The entries as a JSON array, rendered once; only a whole dialog is ever served this way.
    pub fn json(&self) -> Bytes {
        debug_assert!(self.is_whole(), "a tail rendered as a dialog");
        self.json
            .get_or_init(|| {
                // A list of plain records always serialises.
                Bytes::from(serde_json::to_vec(&*self.entries()).unwrap_or_else(|_| b"[]".to_vec()))
            })
            .clone()
    }

    /// Roughly the bytes it holds: the entries, and their JSON when rendered.
    pub(super) fn weight(&self) -> u32 {
        self.weight
    }

    /// The next version of this dialog, `appended` after it, sharing its log. `None` when the log has
    /// already grown past this version, which only a second append to the same version could do: the
    /// caller then forgets the dialog, and the next read loads it.
    pub(super) fn extended(&self, appended: Vec<DialogEntry>) -> Option<Arc<Dialog>> {
        let mut log = self.log.write().unwrap_or_else(|p| p.into_inner());
        if self.from + log.len() != self.len {
            return None;
        }
        let weight = u32::try_from(u64::from(self.weight) + weight_of(&appended)).unwrap_or(u32::MAX);
        log.extend(appended);
        Some(Arc::new(Dialog {
            log: self.log.clone(),
            from: self.from,
            len: self.from + log.len(),
            weight,
            json: OnceLock::new(),
        }))
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

/// Entries past which a dialog read whole is kept only as its newest entries.
pub const LONG_DIALOG: usize = 1024;

/// The newest entries kept of a long dialog: the widest window a chat asks for first (a model's
/// 2,048 characters, 64 entries) several times over.
pub const TAIL_KEPT: usize = 256;

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

    /// Remembers what a read of the whole dialog for the API found, as [`DialogCache::fill`] does,
    /// but of a dialog longer than [`LONG_DIALOG`] entries only the newest [`TAIL_KEPT`]: a chat
    /// reads no more than its window, and a few such dialogs whole would crowd out the windows of
    /// every other user (400 dialogs of 5,000 entries are five times the cache; their tails, a fifth
    /// of it). A chat model that is given whole dialogs reads them whole itself, and its reads keep
    /// them whole.
    pub fn fill_whole_read(&self, key: UserKey, dialog: &Arc<Dialog>, started: u64) {
        let kept = if dialog.len() > LONG_DIALOG {
            let entries = dialog.entries();
            Dialog::tail(dialog.len() - TAIL_KEPT, entries[entries.len() - TAIL_KEPT..].to_vec())
        } else {
            dialog.clone()
        };
        self.fill(key, kept, started);
    }

    /// Applies the effects of the writes of one commit, right after it.
    pub fn committed<'a>(&self, effects: impl IntoIterator<Item = (&'a UserKey, CacheEffect)>) {
        let mut generation = self.generation.lock().unwrap_or_else(|p| p.into_inner());
        *generation += 1;
        for (key, effect) in effects {
            match (effect, self.dialogs.get(key)) {
                (CacheEffect::Append(appended), Some(cached)) => match cached.extended(appended) {
                    Some(dialog) => self.dialogs.insert(key.clone(), dialog),
                    None => self.dialogs.invalidate(key),
                },
                _ => self.dialogs.invalidate(key),
            }
        }
    }
}
