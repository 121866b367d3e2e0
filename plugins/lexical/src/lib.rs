//! `parlance-plugin-lexical`: how much of the original's vocabulary a paraphrase keeps.
//!
//! Both texts are normalised to content words first ([`lexical::content_words`]): lowercased, split
//! at every character that is not a letter or digit (punctuation is removed, and `don't` becomes
//! `don` + `t`, as NLTK's stopword list expects), NLTK's English stopwords dropped, every word
//! stemmed with NLTK's Porter stemmer (`parlance-textkit`). Then, with O the original's words and
//! P the paraphrase's:
//!
//! - `lexical_similarity`: cosine of the term-frequency vectors of O and P (repeats count);
//! - `word_overlap`: |O ∩ P| / |O| over word sets, the share of the original's words kept;
//! - `jaccard_similarity`: |O ∩ P| / |O ∪ P| over word sets.
//!
//! All three lie in `[0, 1]`. Edge cases:
//!
//! - The original has no content words (empty, or only stopwords, punctuation or symbols): the pair
//!   fails with `invalid-input`. Every measure divides by something the original provides, and any
//!   number would be invented.
//! - The paraphrase has no content words but the original has: all three are 0. The overlap and
//!   Jaccard formulas give 0 as they are; for the cosine, the paraphrase is the zero vector and
//!   shares no term, so 0 is used for its undefined 0/0, which keeps a broken paraphrase visible.

pub mod lexical;

use parlance_sdk::PluginError;
use parlance_sdk::metric::{Metric, MetricInfo, Pair, Score, score, score_info};
use parlance_textkit::PorterStemmer;

use crate::lexical::Unscorable;

pub struct Lexical;

fn evaluate_with(pair: &Pair, stemmer: &mut PorterStemmer) -> Result<Vec<Score>, PluginError> {
    match lexical::score(&pair.original, &pair.paraphrase, stemmer) {
        Ok(s) => Ok(vec![
            score("lexical_similarity", s.lexical_similarity),
            score("word_overlap", s.word_overlap),
            score("jaccard_similarity", s.jaccard_similarity),
        ]),
        Err(Unscorable::OriginalHasNoContentWords) => Err(PluginError::InvalidInput(
            "the original has no content words (after removing punctuation and stopwords), so lexical similarity is undefined"
                .into(),
        )),
    }
}

impl Metric for Lexical {
    fn info() -> MetricInfo {
        MetricInfo {
            name: "Lexical similarity (stemmed content words)".into(),
            scores: vec![
                score_info(
                    "lexical_similarity",
                    "Cosine similarity of the term-frequency vectors of stemmed content words, 0-1.",
                    true,
                ),
                score_info(
                    "word_overlap",
                    "Share of the original's distinct content words kept in the paraphrase, 0-1.",
                    true,
                ),
                score_info(
                    "jaccard_similarity",
                    "Jaccard index of the two sets of content words, 0-1.",
                    true,
                ),
            ],
        }
    }

    fn evaluate_pair(pair: &Pair) -> Result<Vec<Score>, PluginError> {
        evaluate_with(pair, &mut PorterStemmer::new())
    }

    fn evaluate(pairs: Vec<Pair>) -> Vec<Result<Vec<Score>, PluginError>> {
        let mut stemmer = PorterStemmer::new();
        pairs.iter().map(|pair| evaluate_with(pair, &mut stemmer)).collect()
    }
}

parlance_sdk::export_metric!(Lexical);

#[cfg(test)]
mod tests {
    use super::*;

    fn pair(original: &str, paraphrase: &str) -> Pair {
        Pair { original: original.into(), paraphrase: paraphrase.into() }
    }

    #[test]
    fn returns_every_declared_score_or_fails_alone() {
        let results = Lexical::evaluate(vec![
            pair("The cat sat.", "A cat sat."),
            pair("", "A cat."),
            pair("Dogs bark.", ""),
        ]);
        let declared: Vec<String> = Lexical::info().scores.into_iter().map(|s| s.name).collect();
        let first: Vec<String> = results[0].as_ref().unwrap().iter().map(|s| s.name.clone()).collect();
        assert_eq!(first, declared);
        assert!(matches!(results[1], Err(PluginError::InvalidInput(_))));
        assert!(results[2].as_ref().unwrap().iter().all(|s| s.value == 0.0));
    }
}
