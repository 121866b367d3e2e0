//! Sentence chrF as sacreBLEU 2.6.0's `sentence_chrf(hyp, [ref])`: character n-grams of orders 1-6,
//! no word n-grams, beta 2, case sensitive, on the 0-100 scale.
//!
//! Two details decide the numbers. Whitespace is removed before extracting n-grams (Python's
//! `''.join(line.split())`), so n-grams run across word boundaries. And without `eps_smoothing`
//! (the sentence default) precision and recall are averaged only over the orders both sides
//! have, and an order the reference lacks counts no hypothesis n-grams at all.

use parlance_textkit::intern::FxHashMap;
use parlance_textkit::pystr;

use parlance_textkit::ngram::{NgramCounter, ngram_count};

const CHAR_ORDER: usize = 6;
const BETA: f64 = 2.0;

/// Per-order `[hyp, ref, match]` counts, as `CHRF._get_match_statistics` builds them.
pub type ChrfStats = [[usize; 3]; CHAR_ORDER];

/// Reusable buffers, so that scoring many pairs allocates little.
#[derive(Default)]
pub struct ChrfScorer {
    hyp: Vec<u32>,
    reference: Vec<u32>,
    /// Non-ASCII characters of the current pair and their symbols (128 and up).
    other_chars: FxHashMap<char, u32>,
    counter: NgramCounter,
}

impl ChrfScorer {
    pub fn new() -> Self {
        Self::default()
    }

    /// chrF of `hypothesis` against `reference`, 0-100.
    pub fn score(&mut self, hypothesis: &str, reference: &str) -> f64 {
        f_score(&self.stats(hypothesis, reference))
    }

    pub fn stats(&mut self, hypothesis: &str, reference: &str) -> ChrfStats {
        self.other_chars.clear();
        let (mut hyp, mut reference_chars) =
            (std::mem::take(&mut self.hyp), std::mem::take(&mut self.reference));
        self.symbols(hypothesis, &mut hyp);
        self.symbols(reference, &mut reference_chars);
        let alphabet = 128 + self.other_chars.len() as u32;
        let mut matches = [0; CHAR_ORDER];
        self.counter.clipped_matches(&hyp, &reference_chars, alphabet, &mut matches);
        let stats = std::array::from_fn(|i| {
            let n = i + 1;
            let ref_count = ngram_count(reference_chars.len(), n);
            // sacreBLEU counts no hypothesis n-grams of an order the reference lacks.
            let hyp_count = if ref_count == 0 { 0 } else { ngram_count(hyp.len(), n) };
            [hyp_count, ref_count, matches[i]]
        });
        (self.hyp, self.reference) = (hyp, reference_chars);
        stats
    }

    /// The characters of `text` without whitespace (`''.join(text.split())`), as dense symbols:
    /// ASCII as itself, other characters numbered from 128 in order of appearance, so that the
    /// n-gram keys stay small.
    fn symbols(&mut self, text: &str, out: &mut Vec<u32>) {
        out.clear();
        for c in text.chars().filter(|&c| !pystr::is_space(c)) {
            if c.is_ascii() {
                out.push(u32::from(c));
            } else {
                let next = 128 + self.other_chars.len() as u32;
                out.push(*self.other_chars.entry(c).or_insert(next));
            }
        }
    }
}

/// `CHRF._compute_f_score` with `eps_smoothing=False`.
pub fn f_score(stats: &ChrfStats) -> f64 {
    let factor = BETA * BETA;
    let (mut avg_prec, mut avg_rec) = (0.0f64, 0.0f64);
    let mut effective_order = 0usize;
    for &[n_hyp, n_ref, n_match] in stats {
        if n_hyp > 0 && n_ref > 0 {
            avg_prec += n_match as f64 / n_hyp as f64;
            avg_rec += n_match as f64 / n_ref as f64;
            effective_order += 1;
        }
    }
    if effective_order == 0 {
        return 0.0;
    }
    avg_prec /= effective_order as f64;
    avg_rec /= effective_order as f64;
    if avg_prec + avg_rec == 0.0 {
        return 0.0;
    }
    let score = (1.0 + factor) * avg_prec * avg_rec / (factor * avg_prec + avg_rec);
    100.0 * score
}

/// chrF of `hypothesis` against `reference`, 0-100.
pub fn sentence_chrf(hypothesis: &str, reference: &str) -> f64 {
    ChrfScorer::new().score(hypothesis, reference)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values() {
        // From sacrebleu.sentence_chrf(hyp, [ref]).score.
        assert!(
            (sentence_chrf("The feline was resting on the rug.", "The cat sat on the mat.")
                - 21.972729393573225)
                .abs()
                < 1e-9
        );
        assert_eq!(sentence_chrf("abc", "abc"), 100.0);
        assert_eq!(sentence_chrf("", "abc"), 0.0);
        assert_eq!(sentence_chrf("abc", ""), 0.0);
        assert_eq!(sentence_chrf("", ""), 0.0);
        // Whitespace does not count: the same characters differently spaced score 100.
        assert_eq!(sentence_chrf("a b\tc", "abc"), 100.0);
    }
}
