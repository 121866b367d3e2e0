//! `parlance-plugin-structural`: how closely a paraphrase keeps the shape of its original.
//!
//! Tokenisation ([`structure::Profile::of`]): a word is a whitespace-separated token holding at
//! least one letter or digit (so `—` or `...` alone is not a word), and its length counts only its
//! letters and digits (`mat.` has 3, `don't` 4). A sentence ends at a token whose last character,
//! ignoring closing quotes and brackets, is `.`, `!`, `?`, `…` or a CJK full stop, and counts only
//! if it holds a word; words after the last terminator form one more sentence. A terminator inside
//! a token (`3.5`, `e.g.x`) does not split; an abbreviation followed by a space (`Dr. Smith`) does.
//!
//! Scores:
//!
//! - `length_ratio`: min(word counts) / max(word counts), in `(0, 1]`, 1 for equal lengths;
//! - `sentence_count_diff`: |sentences(original) − sentences(paraphrase)|;
//! - `avg_word_length_diff`: |mean word length(original) − mean word length(paraphrase)|, in characters.
//!
//! Edge case: a text without words (empty, whitespace, or only punctuation and symbols) has no
//! mean word length and gives a length ratio of 0 or 0/0, so a pair where either side has no words
//! fails with `invalid-input` naming that side, rather than scoring with an invented number.

pub mod structure;

use parlance_sdk::PluginError;
use parlance_sdk::metric::{Metric, MetricInfo, Pair, Score, score, score_info};

use crate::structure::Empty;

pub struct Structural;

impl Metric for Structural {
    fn info() -> MetricInfo {
        MetricInfo {
            name: "Structural similarity (length, sentences, word length)".into(),
            scores: vec![
                score_info(
                    "length_ratio",
                    "Shorter word count over longer word count, 0-1; 1 means equal length.",
                    true,
                ),
                score_info(
                    "sentence_count_diff",
                    "Absolute difference of the sentence counts; 0 means the same.",
                    true,
                ),
                score_info(
                    "avg_word_length_diff",
                    "Absolute difference of the average word lengths, in characters; 0 means the same.",
                    true,
                ),
            ],
        }
    }

    fn evaluate_pair(pair: &Pair) -> Result<Vec<Score>, PluginError> {
        match structure::compare(&pair.original, &pair.paraphrase) {
            Ok(d) => Ok(vec![
                score("length_ratio", d.length_ratio),
                score("sentence_count_diff", d.sentence_count_diff),
                score("avg_word_length_diff", d.avg_word_length_diff),
            ]),
            Err(side) => {
                let side = match side {
                    Empty::Original => "original",
                    Empty::Paraphrase => "paraphrase",
                };
                Err(PluginError::InvalidInput(format!(
                    "the {side} has no words, so its structure cannot be compared"
                )))
            }
        }
    }
}

parlance_sdk::export_metric!(Structural);

#[cfg(test)]
mod tests {
    use super::*;

    fn pair(original: &str, paraphrase: &str) -> Pair {
        Pair { original: original.into(), paraphrase: paraphrase.into() }
    }

    #[test]
    fn returns_every_declared_score_or_fails_alone() {
        let results =
            Structural::evaluate(vec![pair("The cat sat.", "A cat sat down."), pair("A cat.", "  ")]);
        let declared: Vec<String> = Structural::info().scores.into_iter().map(|s| s.name).collect();
        let first: Vec<String> = results[0].as_ref().unwrap().iter().map(|s| s.name.clone()).collect();
        assert_eq!(first, declared);
        assert!(results[0].as_ref().unwrap().iter().all(|s| s.value.is_finite()));
        match &results[1] {
            Err(PluginError::InvalidInput(message)) => assert!(message.contains("paraphrase"), "{message}"),
            other => panic!("expected invalid-input, got {other:?}"),
        }
    }
}
