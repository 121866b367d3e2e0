//! Sentence BLEU as sacreBLEU 2.6.0's `sentence_bleu(hyp, [ref])`: `13a` tokenization, case
//! sensitive, n-grams up to 4, `exp` smoothing and effective order, on the 0-100 scale.
//!
//! Effective order matters: `sentence_bleu` turns it on although the `BLEU()` class defaults to
//! off. With it, orders the hypothesis is too short to have are left out of the geometric mean
//! instead of zeroing it.

use parlance_textkit::intern::Vocabulary;
use parlance_textkit::{Tokenizer13a, pystr};

use parlance_textkit::ngram::{NgramCounter, ngram_count};

const MAX_ORDER: usize = 4;

/// Sufficient statistics of one hypothesis against one reference.
#[derive(Debug, Clone, PartialEq)]
pub struct BleuStats {
    pub hyp_len: usize,
    pub ref_len: usize,
    pub correct: [usize; MAX_ORDER],
    pub total: [usize; MAX_ORDER],
}

/// Reusable buffers, so that scoring many pairs allocates little.
#[derive(Default)]
pub struct BleuScorer {
    hyp_tokenizer: Tokenizer13a,
    ref_tokenizer: Tokenizer13a,
    /// Words of every pair scored so far; ids stay dense enough to pack four into a `u64` until
    /// a batch has tens of thousands of distinct words.
    vocabulary: Vocabulary,
    hyp_ids: Vec<u32>,
    ref_ids: Vec<u32>,
    counter: NgramCounter,
}

impl BleuScorer {
    pub fn new() -> Self {
        Self::default()
    }

    /// BLEU of `hypothesis` against `reference`, 0-100.
    pub fn score(&mut self, hypothesis: &str, reference: &str) -> f64 {
        compute_bleu(&self.stats(hypothesis, reference))
    }

    pub fn stats(&mut self, hypothesis: &str, reference: &str) -> BleuStats {
        // sacreBLEU strips trailing whitespace before tokenizing (`_preprocess_segment`).
        let vocabulary = &mut self.vocabulary;
        self.hyp_ids.clear();
        self.hyp_ids.extend(self.hyp_tokenizer.tokenize(pystr::rstrip(hypothesis)).map(|t| vocabulary.id(t)));
        self.ref_ids.clear();
        self.ref_ids.extend(self.ref_tokenizer.tokenize(pystr::rstrip(reference)).map(|t| vocabulary.id(t)));

        let mut correct = [0; MAX_ORDER];
        let distinct = u32::try_from(self.vocabulary.len()).expect("fewer than 2^32 distinct words");
        self.counter.clipped_matches(&self.hyp_ids, &self.ref_ids, distinct, &mut correct);
        BleuStats {
            hyp_len: self.hyp_ids.len(),
            ref_len: self.ref_ids.len(),
            correct,
            total: std::array::from_fn(|i| ngram_count(self.hyp_ids.len(), i + 1)),
        }
    }
}

/// sacreBLEU's `my_log`: the log, floored for zero.
fn my_log(x: f64) -> f64 {
    if x == 0.0 { -9_999_999_999.0 } else { x.ln() }
}

/// `BLEU.compute_bleu` with `smooth_method='exp'` and `effective_order=True`.
pub fn compute_bleu(stats: &BleuStats) -> f64 {
    let (sys_len, ref_len) = (stats.hyp_len, stats.ref_len);
    let bp = if sys_len < ref_len {
        if sys_len > 0 { (1.0 - ref_len as f64 / sys_len as f64).exp() } else { 0.0 }
    } else {
        1.0
    };
    if stats.correct.iter().all(|&c| c == 0) {
        return 0.0;
    }
    let mut precisions = [0.0f64; MAX_ORDER];
    let mut smooth_mteval = 1.0f64;
    let mut eff_order = MAX_ORDER;
    for n in 1..=MAX_ORDER {
        let (correct, total) = (stats.correct[n - 1], stats.total[n - 1]);
        if total == 0 {
            break;
        }
        eff_order = n;
        precisions[n - 1] = if correct == 0 {
            smooth_mteval *= 2.0;
            100.0 / (smooth_mteval * total as f64)
        } else {
            100.0 * correct as f64 / total as f64
        };
    }
    let log_sum = precisions[..eff_order].iter().fold(0.0, |sum, &p| sum + my_log(p));
    bp * (log_sum / eff_order as f64).exp()
}

/// BLEU of `hypothesis` against `reference`, 0-100.
pub fn sentence_bleu(hypothesis: &str, reference: &str) -> f64 {
    BleuScorer::new().score(hypothesis, reference)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values() {
        // From sacrebleu.sentence_bleu(hyp, [ref]).score.
        // exp(mean(log(100))) is not exactly 100 in floating point, in Python either.
        assert_eq!(sentence_bleu("The cat sat on the mat.", "The cat sat on the mat."), 100.00000000000004);
        assert!(
            (sentence_bleu("The feline was resting on the rug.", "The cat sat on the mat.")
                - 13.134549472120788)
                .abs()
                < 1e-9
        );
        assert_eq!(sentence_bleu("", "The cat."), 0.0);
        assert_eq!(sentence_bleu("The cat.", ""), 0.0);
        assert_eq!(sentence_bleu("", ""), 0.0);
    }

    #[test]
    fn effective_order_skips_orders_the_hypothesis_lacks() {
        let stats = BleuStats { hyp_len: 2, ref_len: 2, correct: [2, 1, 0, 0], total: [2, 1, 0, 0] };
        // sacrebleu.BLEU.compute_bleu([2, 1, 0, 0], [2, 1, 0, 0], 2, 2, 'exp', None, True)
        assert_eq!(compute_bleu(&stats), 100.00000000000004);
    }
}
