//! Interning tokens to small integers with a fast hash, so that the metrics compare and pack
//! integers instead of strings.
//!
//! The hash is the multiply-rotate "Fx" hash of rustc: much cheaper than the standard library's
//! SipHash for short words. It is not resistant to deliberately colliding input; a table only
//! lives for one call, which the host bounds in time, so the worst case is a slow call.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

/// The Fx hash.
#[derive(Default, Clone, Copy)]
pub struct FxHasher {
    hash: u64,
}

impl FxHasher {
    fn add(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
}

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            self.add(u64::from_le_bytes(chunk.try_into().expect("chunks of 8")));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut last = [0u8; 8];
            last[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(last));
        }
    }

    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }

    fn write_u32(&mut self, i: u32) {
        self.add(u64::from(i));
    }

    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }

    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }

    fn finish(&self) -> u64 {
        self.hash
    }
}

/// A `HashMap` with the Fx hash.
pub type FxHashMap<K, V> = HashMap<K, V, BuildHasherDefault<FxHasher>>;

/// Gives each distinct token a dense id, 0, 1, 2… in order of first appearance.
#[derive(Default)]
pub struct Interner<'a> {
    ids: FxHashMap<&'a str, u32>,
}

impl<'a> Interner<'a> {
    pub fn with_capacity(capacity: usize) -> Self {
        Self { ids: FxHashMap::with_capacity_and_hasher(capacity, Default::default()) }
    }

    pub fn id(&mut self, token: &'a str) -> u32 {
        let next = u32::try_from(self.ids.len()).expect("fewer than 2^32 distinct tokens");
        *self.ids.entry(token).or_insert(next)
    }

    pub fn len(&self) -> usize {
        self.ids.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }
}

/// Like [`Interner`], but owning its tokens, so that it outlives the texts and one table serves a
/// whole batch: a word seen before costs a lookup and no allocation.
#[derive(Default)]
pub struct Vocabulary {
    ids: FxHashMap<Box<str>, u32>,
}

impl Vocabulary {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn id(&mut self, token: &str) -> u32 {
        if let Some(&id) = self.ids.get(token) {
            return id;
        }
        let id = u32::try_from(self.ids.len()).expect("fewer than 2^32 distinct tokens");
        self.ids.insert(token.into(), id);
        id
    }

    /// The number of distinct tokens so far; every id is below it.
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_tokens_share_an_id() {
        let mut interner = Interner::default();
        let ids: Vec<u32> = ["a", "b", "a", "c", "b"].into_iter().map(|t| interner.id(t)).collect();
        assert_eq!(ids, [0, 1, 0, 2, 1]);
        assert_eq!(interner.len(), 3);
    }

    #[test]
    fn vocabulary_keeps_ids_across_texts() {
        let mut vocabulary = Vocabulary::new();
        let first: Vec<u32> = "a b a".split(' ').map(|t| vocabulary.id(t)).collect();
        let second: Vec<u32> = String::from("b c").split(' ').map(|t| vocabulary.id(t)).collect();
        assert_eq!(first, [0, 1, 0]);
        assert_eq!(second, [1, 2]);
        assert_eq!(vocabulary.len(), 3);
    }

    #[test]
    fn hash_depends_on_every_byte() {
        let hash = |s: &str| {
            let mut h = FxHasher::default();
            h.write(s.as_bytes());
            h.finish()
        };
        assert_ne!(hash("abcdefgh1"), hash("abcdefgh2"));
        assert_ne!(hash("ab"), hash("ba"));
    }
}
