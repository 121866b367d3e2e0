//! Clipped n-gram match counts for every order at once, shared by BLEU (word n-grams), chrF
//! (character n-grams) and ROUGE-N, without a string or a map entry per n-gram.
//!
//! Symbols are small integers (interned words or characters). Each position of both sequences
//! gets one key: the next `max_order` symbols packed into an integer (0 past the end), then a bit
//! for the side. After one sort the equal n-grams of every order sit next to each other, because
//! they share the key's top `n` symbols, and a single pass over the sorted keys counts every
//! order. Keys are `u64` when they fit (symbols below 2^15 for four orders, 2^10 for six) and
//! `u128` otherwise.

use std::ops::{BitAnd, BitOr, BitXor, Shl, Shr, Sub};

/// Reusable key buffers.
#[derive(Default)]
pub struct NgramCounter {
    small: Vec<u64>,
    large: Vec<u128>,
}

impl NgramCounter {
    /// Per order `n` in `1..=matches.len()`, the clipped matches between `hyp` and `reference`: the
    /// sum over distinct n-grams of the smaller of the two counts, which is BLEU's
    /// `min(hyp_count, ref_ngrams[ngram])`, chrF's match count and ROUGE-N's overlap.
    ///
    /// `alphabet` bounds the symbols: every symbol is below it.
    pub fn clipped_matches(&mut self, hyp: &[u32], reference: &[u32], alphabet: u32, matches: &mut [usize]) {
        assert!(matches.len() <= MAX_ORDER, "at most {MAX_ORDER} orders");
        let max_order = matches.len() as u32;
        // Symbols are stored plus one, so that 0 marks "past the end".
        let bits = (u32::BITS - alphabet.leading_zeros()).max(1);
        if max_order * bits < 64 {
            count(hyp, reference, bits, &mut self.small, matches);
        } else {
            assert!(max_order * bits < 128, "{max_order} symbols of {bits} bits do not fit a key");
            count(hyp, reference, bits, &mut self.large, matches);
        }
    }
}

/// The number of n-grams of order `n` in a sequence of `len` symbols.
pub fn ngram_count(len: usize, n: usize) -> usize {
    (len + 1).saturating_sub(n)
}

/// The highest order any caller counts (chrF's character 6-grams).
const MAX_ORDER: usize = 6;

trait Key:
    Copy
    + Ord
    + From<u32>
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
    + BitOr<Output = Self>
    + BitAnd<Output = Self>
    + BitXor<Output = Self>
    + Sub<Output = Self>
{
    const BITS: u32;
    fn leading_zeros(self) -> u32;
}

impl Key for u64 {
    const BITS: u32 = u64::BITS;
    fn leading_zeros(self) -> u32 {
        self.leading_zeros()
    }
}

impl Key for u128 {
    const BITS: u32 = u128::BITS;
    fn leading_zeros(self) -> u32 {
        self.leading_zeros()
    }
}

fn count<K: Key>(hyp: &[u32], reference: &[u32], bits: u32, keys: &mut Vec<K>, matches: &mut [usize]) {
    let order = matches.len();
    let zero = K::from(0);
    let one = K::from(1);
    let top = bits * (order as u32 - 1);
    keys.clear();
    for (side, sequence) in [(0u32, hyp), (1, reference)] {
        // Built from the end: each key is the next one shifted down by a symbol, with this
        // position's symbol on top.
        let mut key = zero;
        let start = keys.len();
        for &symbol in sequence.iter().rev() {
            key = (K::from(symbol + 1) << top) | (key >> bits);
            keys.push((key << 1) | K::from(side));
        }
        keys[start..].reverse();
    }
    keys.sort_unstable();

    // One pass over the sorted keys. Between neighbours, the number of equal leading symbols
    // (their common prefix) says which orders' groups end there: every order longer than it.
    // `common[b]` is that number when the highest differing bit is bit `b` of the symbols.
    let mut common = [0u8; 128];
    for (k, symbol) in common[..bits as usize * order].rchunks_exact_mut(bits as usize).enumerate() {
        // The k-th symbol from the top occupies these bits.
        symbol.fill(k as u8);
    }
    // Groups that start at the same key share their counts, so the open groups are kept as a
    // stack of order ranges rather than one entry per order; a group is only looked at again
    // when it closes holding both sides. Matches are added to `diff` as ranges of orders.
    let mask = (one << bits) - one;
    let mut open: [Open; MAX_ORDER] = [Open::default(); MAX_ORDER];
    let mut depth = 0;
    let mut diff = [0isize; MAX_ORDER + 2];
    let mut hyp_seen = 0usize;
    for i in 0..=keys.len() {
        let shared = if i == 0 || i == keys.len() {
            0
        } else {
            let differ = (keys[i - 1] ^ keys[i]) >> 1;
            if differ == zero {
                order
            } else {
                usize::from(common[K::BITS as usize - 1 - differ.leading_zeros() as usize])
            }
        };
        // Close the groups of every order above `shared`.
        while depth > 0 && open[depth - 1].hi > shared {
            let group = &mut open[depth - 1];
            let closing_from = group.lo.max(shared);
            let in_hyp = hyp_seen - group.hyp_before;
            let in_ref = (i - group.start) - in_hyp;
            let matched = in_hyp.min(in_ref);
            if matched > 0 {
                // Orders beyond the key's last real symbol hold positions too close to the end.
                let valid = symbols_present(keys[group.start], bits, order, mask);
                let hi = group.hi.min(valid);
                if hi > closing_from {
                    diff[closing_from + 1] += matched as isize;
                    diff[hi + 1] -= matched as isize;
                }
            }
            if group.lo < shared {
                group.hi = shared;
                break;
            }
            depth -= 1;
        }
        if i < keys.len() {
            let lo = if depth == 0 { 0 } else { open[depth - 1].hi };
            if lo < order {
                open[depth] = Open { lo, hi: order, start: i, hyp_before: hyp_seen };
                depth += 1;
            }
            if keys[i] & one == zero {
                hyp_seen += 1;
            }
        }
    }
    let mut running = 0isize;
    for (n, matched) in matches.iter_mut().enumerate() {
        running += diff[n + 1];
        *matched = running as usize;
    }
}

/// Groups of orders `lo + 1..=hi` that all start at key `start`.
#[derive(Clone, Copy, Default)]
struct Open {
    lo: usize,
    hi: usize,
    start: usize,
    /// Hypothesis keys before `start`.
    hyp_before: usize,
}

/// How many leading symbols of `key` are real, not the 0 that pads past the end of a sequence.
fn symbols_present<K: Key>(key: K, bits: u32, order: usize, mask: K) -> usize {
    let zero = K::from(0);
    (0..order).take_while(|&k| (key >> (1 + bits * (order - 1 - k) as u32)) & mask != zero).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Clipped matches counted the slow way, with a map per order.
    fn naive(hyp: &[u32], reference: &[u32], n: usize) -> usize {
        use std::collections::HashMap;
        let count = |s: &[u32]| {
            let mut m: HashMap<Vec<u32>, usize> = HashMap::new();
            for w in s.windows(n) {
                *m.entry(w.to_vec()).or_default() += 1;
            }
            m
        };
        let (h, r) = (count(hyp), count(reference));
        h.iter().map(|(g, c)| (*c).min(r.get(g).copied().unwrap_or(0))).sum()
    }

    #[test]
    fn agrees_with_counting_maps() {
        let cases: [(&[u32], &[u32]); 6] = [
            (&[1, 1, 1, 2], &[1, 2, 2, 3]),
            (&[1, 1, 1, 2], &[1, 1, 2, 2]),
            (&[0, 0, 0, 0, 0], &[0, 0, 0]),
            (&[5], &[]),
            (&[], &[]),
            (&[3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5], &[2, 7, 1, 8, 2, 8, 1, 8, 2, 8, 4, 5, 9]),
        ];
        let mut counter = NgramCounter::default();
        for (hyp, reference) in cases {
            // Small alphabets use u64 keys, large ones u128.
            for alphabet in [10, 1 << 12, 1 << 20] {
                for max_order in [4, 6] {
                    let mut matches = vec![0; max_order];
                    counter.clipped_matches(hyp, reference, alphabet, &mut matches);
                    for n in 1..=max_order {
                        assert_eq!(
                            matches[n - 1],
                            naive(hyp, reference, n),
                            "{hyp:?} / {reference:?}, n = {n}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn agrees_with_counting_maps_on_random_sequences() {
        // A fixed linear congruential generator: small alphabets make long repeats likely.
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = |bound: u32| {
            state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            ((state >> 33) % u64::from(bound)) as u32
        };
        let mut counter = NgramCounter::default();
        for round in 0..2000 {
            let alphabet = [1, 2, 3, 5, 40, 3000][round % 6];
            let hyp: Vec<u32> = (0..next(30)).map(|_| next(alphabet)).collect();
            let reference: Vec<u32> = (0..next(30)).map(|_| next(alphabet)).collect();
            for max_order in [4, 6] {
                let mut matches = vec![0; max_order];
                counter.clipped_matches(&hyp, &reference, alphabet, &mut matches);
                for n in 1..=max_order {
                    assert_eq!(
                        matches[n - 1],
                        naive(&hyp, &reference, n),
                        "{hyp:?} / {reference:?}, n = {n}"
                    );
                }
            }
        }
    }

    #[test]
    fn counts_ngrams() {
        assert_eq!(ngram_count(5, 1), 5);
        assert_eq!(ngram_count(5, 4), 2);
        assert_eq!(ngram_count(2, 4), 0);
        assert_eq!(ngram_count(0, 1), 0);
    }
}
