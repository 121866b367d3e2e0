//! ROUGE-1, ROUGE-2 and ROUGE-L as rouge-score 0.1.2's `RougeScorer(...).score(target, prediction)`,
//! with and without the Porter stemmer.
//!
//! - ROUGE-N: clipped n-gram matches; precision divides by the prediction's n-gram count and
//!   recall by the target's, each at least 1, so an empty side gives 0 rather than 0/0.
//! - ROUGE-L: the longest common subsequence of the token lists; 0 when either list is empty.
//! - F-measure: `2PR / (P + R)`, 0 when `P + R` is 0.
//!
//! Tokens are interned into integers once per distinct word, and a word's stem is computed once
//! per scorer, which is what makes scoring a batch cheap; neither changes a value.

use parlance_textkit::PorterStemmer;
use parlance_textkit::intern::FxHashMap;
use parlance_textkit::rouge::{for_each_token, stem_token};

/// Precision, recall and F-measure of one ROUGE type.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Prf {
    pub precision: f64,
    pub recall: f64,
    pub fmeasure: f64,
}

impl Prf {
    fn new(precision: f64, recall: f64) -> Self {
        // `scoring.fmeasure`
        let fmeasure =
            if precision + recall > 0.0 { 2.0 * precision * recall / (precision + recall) } else { 0.0 };
        Self { precision, recall, fmeasure }
    }
}

/// ROUGE-1, ROUGE-2 and ROUGE-L of one pair under one tokenization.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct RougeScores {
    pub rouge1: Prf,
    pub rouge2: Prf,
    pub rouge_l: Prf,
}

/// Both tokenizations of one pair.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct PairScores {
    pub stemmed: RougeScores,
    pub unstemmed: RougeScores,
}

/// The stem of a token not looked up yet.
const UNKNOWN: u32 = u32::MAX;
/// A token whose stem rouge-score drops as invalid.
const DROPPED: u32 = u32::MAX - 1;

/// Scores pairs, keeping its token table and stem cache across them.
#[derive(Default)]
pub struct RougeScorer {
    stemmer: PorterStemmer,
    ids: FxHashMap<String, u32>,
    /// For each token id, the id of its stem (or [`UNKNOWN`] / [`DROPPED`]).
    stem_of: Vec<u32>,
    stem_buf: String,
    target: Vec<u32>,
    prediction: Vec<u32>,
    target_stemmed: Vec<u32>,
    prediction_stemmed: Vec<u32>,
    grams_a: Vec<u64>,
    grams_b: Vec<u64>,
    lcs_row: Vec<u32>,
}

impl RougeScorer {
    pub fn new() -> Self {
        Self::default()
    }

    /// Scores `prediction` (the hypothesis) against `target` (the reference).
    pub fn score(&mut self, target: &str, prediction: &str) -> PairScores {
        let mut target_ids = std::mem::take(&mut self.target);
        let mut prediction_ids = std::mem::take(&mut self.prediction);
        let mut target_stemmed = std::mem::take(&mut self.target_stemmed);
        let mut prediction_stemmed = std::mem::take(&mut self.prediction_stemmed);
        self.tokens(target, &mut target_ids, &mut target_stemmed);
        self.tokens(prediction, &mut prediction_ids, &mut prediction_stemmed);
        let scores = PairScores {
            stemmed: self.scores(&target_stemmed, &prediction_stemmed),
            unstemmed: self.scores(&target_ids, &prediction_ids),
        };
        self.target = target_ids;
        self.prediction = prediction_ids;
        self.target_stemmed = target_stemmed;
        self.prediction_stemmed = prediction_stemmed;
        scores
    }

    /// The unstemmed and stemmed token ids of `text`.
    fn tokens(&mut self, text: &str, unstemmed: &mut Vec<u32>, stemmed: &mut Vec<u32>) {
        unstemmed.clear();
        stemmed.clear();
        for_each_token(text, |token| {
            let id = intern(&mut self.ids, &mut self.stem_of, token);
            unstemmed.push(id);
            let mut stem = self.stem_of[id as usize];
            if stem == UNKNOWN {
                stem = if stem_token(&mut self.stemmer, token, &mut self.stem_buf) {
                    intern(&mut self.ids, &mut self.stem_of, &self.stem_buf)
                } else {
                    DROPPED
                };
                self.stem_of[id as usize] = stem;
            }
            if stem != DROPPED {
                stemmed.push(stem);
            }
        });
    }

    fn scores(&mut self, target: &[u32], prediction: &[u32]) -> RougeScores {
        RougeScores {
            rouge1: self.rouge_n(target, prediction, 1),
            rouge2: self.rouge_n(target, prediction, 2),
            rouge_l: self.rouge_l(target, prediction),
        }
    }

    /// `_score_ngrams(_create_ngrams(target, n), _create_ngrams(prediction, n))`.
    fn rouge_n(&mut self, target: &[u32], prediction: &[u32], n: usize) -> Prf {
        // For one or two orders of a sentence, sorting each side and merging beats the shared
        // all-orders counter of `parlance_textkit::ngram`.
        sorted_ngrams(target, n, &mut self.grams_a);
        sorted_ngrams(prediction, n, &mut self.grams_b);
        let overlap = clipped_matches(&self.grams_a, &self.grams_b) as f64;
        let precision = overlap / self.grams_b.len().max(1) as f64;
        let recall = overlap / self.grams_a.len().max(1) as f64;
        Prf::new(precision, recall)
    }

    /// `_score_lcs(target, prediction)`.
    fn rouge_l(&mut self, target: &[u32], prediction: &[u32]) -> Prf {
        if target.is_empty() || prediction.is_empty() {
            return Prf::default();
        }
        let lcs = lcs_length(target, prediction, &mut self.lcs_row) as f64;
        Prf::new(lcs / prediction.len() as f64, lcs / target.len() as f64)
    }
}

fn intern(ids: &mut FxHashMap<String, u32>, stem_of: &mut Vec<u32>, token: &str) -> u32 {
    if let Some(&id) = ids.get(token) {
        return id;
    }
    let id = u32::try_from(ids.len()).expect("fewer than 2^32 distinct tokens");
    ids.insert(token.to_owned(), id);
    stem_of.push(UNKNOWN);
    id
}

/// The n-grams of `tokens` packed into `u64`s (two 32-bit ids at most), sorted.
fn sorted_ngrams(tokens: &[u32], n: usize, out: &mut Vec<u64>) {
    out.clear();
    if tokens.len() >= n {
        out.extend(tokens.windows(n).map(|w| w.iter().fold(0u64, |key, &t| (key << 32) | u64::from(t))));
    }
    out.sort_unstable();
}

/// The size of the multiset intersection of two sorted slices: the sum over distinct n-grams of
/// the smaller count.
fn clipped_matches(a: &[u64], b: &[u64]) -> usize {
    let (mut i, mut j, mut matches) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                matches += 1;
                i += 1;
                j += 1;
            }
        }
    }
    matches
}

/// Length of the longest common subsequence, with one DP row.
fn lcs_length(a: &[u32], b: &[u32], row: &mut Vec<u32>) -> u32 {
    row.clear();
    row.resize(b.len() + 1, 0);
    for &x in a {
        // `diagonal` is the previous row's value at j - 1.
        let mut diagonal = 0;
        for (j, &y) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = if x == y { diagonal + 1 } else { above.max(row[j]) };
            diagonal = above;
        }
    }
    row[b.len()]
}

/// Scores one pair.
pub fn score(target: &str, prediction: &str) -> PairScores {
    RougeScorer::new().score(target, prediction)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values() {
        // From rouge_scorer.RougeScorer(['rouge1', 'rouge2', 'rougeL'], use_stemmer=...).score(t, p).
        let s = score("The cat is sitting on the mat.", "A cat sits on the mat.");
        assert_eq!(s.unstemmed.rouge1, Prf::new(4.0 / 6.0, 4.0 / 7.0));
        assert_eq!(s.unstemmed.rouge2, Prf::new(2.0 / 5.0, 2.0 / 6.0));
        assert_eq!(s.unstemmed.rouge_l.fmeasure, 0.6153846153846153);
        // Stemming turns "sitting" and "sits" into "sit".
        assert_eq!(s.stemmed.rouge1, Prf::new(5.0 / 6.0, 5.0 / 7.0));
    }

    #[test]
    fn empty_sides_score_zero() {
        for (t, p) in [("", ""), ("a cat", ""), ("", "a cat"), ("東京", "a cat")] {
            let s = score(t, p);
            assert_eq!(s.stemmed, RougeScores::default(), "{t:?} / {p:?}");
            assert_eq!(s.unstemmed, RougeScores::default(), "{t:?} / {p:?}");
        }
    }

    #[test]
    fn lcs_is_a_subsequence_not_a_substring() {
        let mut row = Vec::new();
        assert_eq!(lcs_length(&[1, 2, 3, 4, 5], &[1, 9, 3, 9, 5], &mut row), 3);
        assert_eq!(lcs_length(&[1, 2], &[2, 1], &mut row), 1);
        assert_eq!(lcs_length(&[7], &[8], &mut row), 0);
    }
}
