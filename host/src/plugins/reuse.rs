//! Instances kept between calls (`[runtime] reuse_instances`), and the store of one call
//! (`CallStore`), which keeps its instance once the call is over if it answered normally. Such an
//! instance waits, per plugin and per client, for that client's next call of the plugin, which then
//! skips instantiating, and the pool's reset of the instance's memory and tables.
//!
//! The client is the boundary: an instance never serves another client than the one whose calls it
//! answered, so whatever a plugin keeps in its memory between calls (a static, a cache, a buffer it
//! did not clear) stays with the client it came from, the boundary the server already keeps between
//! callers' dialogs and usage. An instance that trapped, ran out of time or memory, whose call was
//! dropped midway, or whose call left more host resources behind than its first call did is never
//! kept. What kept instances may hold is bounded across all plugins (a count,
//! and a share of the memory budget), and each serves a bounded number of calls for a bounded time.

use super::capacity::Held;
use super::sandbox::PluginState;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};
use wasmtime::Store;
use wasmtime::component::{Instance, InstancePre};

/// How long a kept instance waits for its client's next call.
const IDLE_FOR: Duration = Duration::from_secs(10);
/// Calls one instance answers before a fresh one replaces it: what a plugin can pile up in an
/// instance (a fragmented heap, resources it never dropped) is bounded by this many calls' worth.
const MAX_USES: u32 = 1000;
/// The share of the memory budget that kept instances may hold together.
const MEMORY_SHARE: u64 = 8;

/// Room for kept instances across all plugins: how many, and the linear memory they hold together.
/// When it is full, the instance that has waited longest, of any plugin, makes way for the newest.
pub struct KeptRoom {
    held: Mutex<(u32, u64)>,
    max_count: u32,
    max_bytes: u64,
    /// Every plugin's kept instances, to find the one that has waited longest.
    members: Mutex<Vec<Weak<KeptInstances>>>,
}

impl KeptRoom {
    pub fn new(max_count: u32, memory_budget_bytes: u64) -> KeptRoom {
        KeptRoom {
            held: Mutex::new((0, 0)),
            max_count,
            max_bytes: memory_budget_bytes / MEMORY_SHARE,
            members: Mutex::default(),
        }
    }

    /// Drops the instance that has waited longest, of any plugin; false when none is kept.
    fn make_room(&self) -> bool {
        let members: Vec<Arc<KeptInstances>> = {
            let mut members = self.members.lock().unwrap_or_else(|e| e.into_inner());
            members.retain(|m| m.strong_count() > 0);
            members.iter().filter_map(Weak::upgrade).collect()
        };
        let oldest = members.iter().filter_map(|m| Some((m.oldest()?, m))).min_by_key(|(since, _)| *since);
        match oldest {
            Some((_, m)) => {
                drop(m.evict_oldest());
                true
            }
            None => false,
        }
    }

    fn try_take(self: &Arc<Self>, bytes: u64) -> Option<RoomShare> {
        let mut held = self.held.lock().unwrap_or_else(|e| e.into_inner());
        if held.0 >= self.max_count || held.1 + bytes > self.max_bytes {
            return None;
        }
        held.0 += 1;
        held.1 += bytes;
        Some(RoomShare { room: self.clone(), bytes })
    }
}

/// One kept instance's part of the room, given back when it is taken for a call or dropped.
struct RoomShare {
    room: Arc<KeptRoom>,
    bytes: u64,
}

impl Drop for RoomShare {
    fn drop(&mut self) {
        let mut held = self.room.held.lock().unwrap_or_else(|e| e.into_inner());
        held.0 -= 1;
        held.1 -= self.bytes;
    }
}

/// What an instance has been through: the calls it has answered (the current one included), and the
/// host resources (streams, requests, responses the plugin holds handles to) its store held after its
/// first call. A call that leaves more behind leaks them, and the instance is not kept: what a plugin
/// can pile up in the host's memory is bounded by two calls' worth, as without reuse by one.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Wear {
    pub uses: u32,
    pub resources: Option<usize>,
}

/// An instance waiting for its client's next call, with the store it lives in.
struct Kept {
    store: Store<PluginState>,
    instance: Instance,
    wear: Wear,
    since: Instant,
    _share: RoomShare,
}

/// A kept instance taken for a call: its store, the instance, and what it has been through.
pub(super) struct Reused {
    pub store: Store<PluginState>,
    pub instance: Instance,
    pub wear: Wear,
}

/// One plugin's kept instances, by client. Made with the plugin, so a reload that replaces the plugin
/// drops its instances with it.
pub struct KeptInstances {
    room: Option<Arc<KeptRoom>>,
    by_client: Mutex<HashMap<Box<str>, Vec<Kept>>>,
    swept: Mutex<Instant>,
}

impl KeptInstances {
    /// `room` is `None` where instances are not reused.
    pub fn new(room: Option<Arc<KeptRoom>>) -> Arc<KeptInstances> {
        let kept =
            Arc::new(KeptInstances { room, by_client: Mutex::default(), swept: Mutex::new(Instant::now()) });
        if let Some(room) = &kept.room {
            room.members.lock().unwrap_or_else(|e| e.into_inner()).push(Arc::downgrade(&kept));
        }
        kept
    }

    /// When the longest-waiting of this plugin's kept instances was kept.
    fn oldest(&self) -> Option<Instant> {
        let map = self.by_client.lock().unwrap_or_else(|e| e.into_inner());
        map.values().filter_map(|list| list.first().map(|k| k.since)).min()
    }

    /// Takes out the longest-waiting of this plugin's kept instances, for the caller to drop.
    fn evict_oldest(&self) -> Option<Kept> {
        let mut map = self.by_client.lock().unwrap_or_else(|e| e.into_inner());
        let client = map.iter().filter_map(|(c, list)| Some((list.first()?.since, c))).min()?.1.clone();
        let list = map.get_mut(&client)?;
        let oldest = list.remove(0);
        if list.is_empty() {
            map.remove(&client);
        }
        Some(oldest)
    }

    pub fn enabled(&self) -> bool {
        self.room.is_some()
    }

    /// The instance `client`'s last call left, if one is still waiting.
    pub(super) fn take(&self, client: &str) -> Option<Reused> {
        self.room.as_ref()?;
        let now = Instant::now();
        let (found, expired) = {
            let mut map = self.by_client.lock().unwrap_or_else(|e| e.into_inner());
            let list = map.get_mut(client)?;
            // The newest first: if it has waited too long, so have all the others.
            let found = list.pop().filter(|k| now.duration_since(k.since) < IDLE_FOR);
            let expired = if found.is_none() { std::mem::take(list) } else { Vec::new() };
            if list.is_empty() {
                map.remove(client);
            }
            (found, expired)
        };
        // Dropping a store resets its slot in the pool: done outside the lock.
        drop(expired);
        found.map(|Kept { store, instance, wear, .. }| Reused { store, instance, wear })
    }

    /// Keeps an instance that answered `client`'s call normally, when there is room for it.
    pub(super) fn keep(&self, client: &str, store: Store<PluginState>, instance: Instance, wear: Wear) {
        let Some(room) = &self.room else { return };
        if wear.uses >= MAX_USES {
            return;
        }
        let bytes = store.data().memory.used_bytes();
        // The newest instance is the likeliest to be asked for again: older ones make way for it.
        let mut share = room.try_take(bytes);
        for _ in 0..4 {
            if share.is_some() || !room.make_room() {
                break;
            }
            share = room.try_take(bytes);
        }
        let Some(share) = share else { return };
        let now = Instant::now();
        let kept = Kept { store, instance, wear, since: now, _share: share };
        let expired = {
            let mut map = self.by_client.lock().unwrap_or_else(|e| e.into_inner());
            map.entry(client.into()).or_default().push(kept);
            self.sweep(&mut map, now)
        };
        drop(expired);
    }

    /// Every so often, the instances of clients that have not come back, so that they do not hold
    /// the room until the client's next call.
    fn sweep(&self, map: &mut HashMap<Box<str>, Vec<Kept>>, now: Instant) -> Vec<Kept> {
        let mut swept = self.swept.lock().unwrap_or_else(|e| e.into_inner());
        if now.duration_since(*swept) < IDLE_FOR {
            return Vec::new();
        }
        *swept = now;
        let mut expired = Vec::new();
        map.retain(|_, list| {
            let (old, fresh): (Vec<Kept>, Vec<Kept>) =
                std::mem::take(list).into_iter().partition(|k| now.duration_since(k.since) >= IDLE_FOR);
            expired.extend(old);
            *list = fresh;
            !list.is_empty()
        });
        expired
    }
}

/// The store of one call, its instance once there is one, and the pool slots the call occupies. The
/// fields drop in order, so the instance is back in the pool (or kept for its client) before the
/// permits let the next call in.
pub(super) struct CallStore {
    /// `Some` until the call is dropped, when a reusable instance moves out to be kept.
    store: Option<Store<PluginState>>,
    instance: Option<Instance>,
    wear: Wear,
    /// Set once the call returned normally, leaving no more host resources behind than the instance's
    /// first call did: an instance that trapped, ran out of time or memory, whose call was dropped
    /// midway, or that leaks is never kept.
    reusable: bool,
    /// Where the instance is kept after the call, and for which client; `None` when not reused.
    keep: Option<(Arc<KeptInstances>, Box<str>)>,
    _slots: Held,
}

impl CallStore {
    /// A call's store, with the instance a kept store brings (`None` for a fresh one) and what it has
    /// been through before this call, where to keep it after the call, and the slots.
    pub(super) fn new(
        store: Store<PluginState>,
        instance: Option<Instance>,
        before: Wear,
        keep: Option<(Arc<KeptInstances>, Box<str>)>,
        slots: Held,
    ) -> CallStore {
        let wear = Wear { uses: before.uses + 1, ..before };
        CallStore { store: Some(store), instance, wear, reusable: false, keep, _slots: slots }
    }

    /// Says whether the call returned normally; its instance may then be kept, unless the call left
    /// more host resources behind than the instance's first call did.
    pub(super) fn answered(&mut self, normally: bool) {
        if !normally || self.keep.is_none() {
            self.reusable = false;
            return;
        }
        let held = self.data_mut().resources();
        let first = *self.wear.resources.get_or_insert(held);
        self.reusable = held <= first;
    }

    /// The call's instance: the one its client's previous call left, else a fresh one of `pre`.
    pub(super) async fn instance(&mut self, pre: &InstancePre<PluginState>) -> wasmtime::Result<Instance> {
        if let Some(instance) = self.instance {
            return Ok(instance);
        }
        let instance = pre.instantiate_async(&mut **self).await?;
        self.instance = Some(instance);
        Ok(instance)
    }

    /// What `load` looks up in the call's instance (an interface's functions), looked up once per
    /// instance: a kept instance's next call finds it in the store, without type-checking every
    /// function of the interface again (about 3,000 instructions a streamed delta).
    pub(super) async fn exports<T: Clone + Send + 'static>(
        &mut self,
        pre: &InstancePre<PluginState>,
        load: impl FnOnce(&mut Store<PluginState>, &Instance) -> wasmtime::Result<T>,
    ) -> wasmtime::Result<T> {
        let instance = self.instance(pre).await?;
        let id = std::any::TypeId::of::<T>();
        let found = self.data().exports.iter().find(|(t, _)| *t == id);
        if let Some(found) = found.and_then(|(_, e)| e.downcast_ref::<T>()) {
            return Ok(found.clone());
        }
        let loaded = load(self, &instance)?;
        self.data_mut().exports.push((id, Box::new(loaded.clone())));
        Ok(loaded)
    }
}

impl std::ops::Deref for CallStore {
    type Target = Store<PluginState>;
    fn deref(&self) -> &Store<PluginState> {
        self.store.as_ref().expect("a call's store lives as long as the call")
    }
}

impl std::ops::DerefMut for CallStore {
    fn deref_mut(&mut self) -> &mut Store<PluginState> {
        self.store.as_mut().expect("a call's store lives as long as the call")
    }
}

impl Drop for CallStore {
    fn drop(&mut self) {
        if !self.reusable {
            return;
        }
        if let (Some(store), Some(instance), Some((kept, client))) =
            (self.store.take(), self.instance, self.keep.take())
        {
            kept.keep(&client, store, instance, self.wear);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_room_is_bounded_by_count_and_bytes_and_given_back() {
        let room = Arc::new(KeptRoom::new(2, 8 * 100));
        let a = room.try_take(40).unwrap();
        let b = room.try_take(60).unwrap();
        assert!(room.try_take(0).is_none(), "two kept at most");
        drop(a);
        assert!(room.try_take(41).is_none(), "100 bytes at most");
        let c = room.try_take(40).unwrap();
        drop((b, c));
        assert_eq!(*room.held.lock().unwrap(), (0, 0));
    }

    #[test]
    fn an_empty_room_has_nothing_to_evict() {
        let room = Arc::new(KeptRoom::new(1, 800));
        let kept = KeptInstances::new(Some(room.clone()));
        assert!(!room.make_room());
        assert!(kept.oldest().is_none());
        assert!(kept.evict_oldest().is_none());
        drop(kept);
        assert!(!room.make_room());
        assert!(room.members.lock().unwrap().is_empty(), "a dropped plugin's entry is forgotten");
    }
}
