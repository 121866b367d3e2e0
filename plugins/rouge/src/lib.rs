//! `parlance-plugin-rouge`: ROUGE-1, ROUGE-2 and ROUGE-L precision, recall and F-measure exactly as
//! rouge-score 0.1.2's `RougeScorer` computes them, with NLTK's Porter stemmer (the headline scores)
//! and without it (detail scores).
//!
//! rouge-score's `target` is the reference, `pair.original`; its `prediction` is the hypothesis,
//! `pair.paraphrase`. Every input has a defined value, as in rouge-score: a side without tokens
//! (empty, or only punctuation and non-ASCII letters, which the tokenizer drops) scores 0.
//!
//! Setting `scores` (optional): a comma-separated subset of the score names to return; all 18
//! when unset. Every score is cheap to compute, but each costs a name and a value to pass back, so
//! an operator who only needs, say, `rougeL` can ask for just that. An unknown name fails every
//! pair with `misconfigured`.
//!
//! The algorithm lives in [`rouge`] and knows nothing of the SDK, so it is tested natively against
//! rouge-score's own numbers (`tests/reference.rs`).

pub mod rouge;

use parlance_sdk::metric::{Metric, MetricInfo, Pair, Score, ScoreInfo, score, score_info};
use parlance_sdk::{PluginError, config};

use crate::rouge::{PairScores, Prf, RougeScorer};

pub struct Rouge;

const TYPES: [(&str, &str); 3] =
    [("rouge1", "unigram overlap"), ("rouge2", "bigram overlap"), ("rougeL", "longest common subsequence")];

fn type_scores(scores: &rouge::RougeScores) -> [Prf; 3] {
    [scores.rouge1, scores.rouge2, scores.rouge_l]
}

/// Score names in the order [`to_scores`] returns them: the stemmed F-measures (headline), the
/// stemmed precisions and recalls, then the unstemmed F-measure, precision and recall.
const NAMES: [&str; 18] = [
    "rouge1",
    "rouge2",
    "rougeL",
    "rouge1_precision",
    "rouge1_recall",
    "rouge2_precision",
    "rouge2_recall",
    "rougeL_precision",
    "rougeL_recall",
    "rouge1_unstemmed",
    "rouge1_unstemmed_precision",
    "rouge1_unstemmed_recall",
    "rouge2_unstemmed",
    "rouge2_unstemmed_precision",
    "rouge2_unstemmed_recall",
    "rougeL_unstemmed",
    "rougeL_unstemmed_precision",
    "rougeL_unstemmed_recall",
];

/// Which of [`NAMES`] the `scores` setting asks for.
fn selection(setting: Option<&str>) -> Result<[bool; 18], PluginError> {
    let Some(setting) = setting else { return Ok([true; 18]) };
    let mut wanted = [false; 18];
    for name in setting.split(',').map(str::trim).filter(|name| !name.is_empty()) {
        let index = NAMES.iter().position(|known| *known == name).ok_or_else(|| {
            PluginError::Misconfigured(format!(
                "the setting `scores` names {name:?}, which this metric does not have"
            ))
        })?;
        wanted[index] = true;
    }
    if !wanted.contains(&true) {
        return Err(PluginError::Misconfigured("the setting `scores` selects no score".into()));
    }
    Ok(wanted)
}

fn to_scores(pair: &PairScores, wanted: &[bool; 18]) -> Vec<Score> {
    let stemmed = type_scores(&pair.stemmed);
    let unstemmed = type_scores(&pair.unstemmed);
    let values = stemmed
        .iter()
        .map(|prf| prf.fmeasure)
        .chain(stemmed.iter().flat_map(|prf| [prf.precision, prf.recall]))
        .chain(unstemmed.iter().flat_map(|prf| [prf.fmeasure, prf.precision, prf.recall]));
    NAMES
        .iter()
        .zip(values)
        .zip(wanted)
        .filter(|(_, wanted)| **wanted)
        .map(|((name, value), _)| score(name, value))
        .collect()
}

fn infos() -> Vec<ScoreInfo> {
    let mut out = Vec::with_capacity(18);
    for (name, what) in TYPES {
        out.push(score_info(
            name,
            &format!("ROUGE F-measure of the {what}, Porter-stemmed tokens, 0-1."),
            true,
        ));
    }
    for (name, what) in TYPES {
        out.push(score_info(
            &format!("{name}_precision"),
            &format!("ROUGE precision of the {what}, stemmed: matches per paraphrase unit."),
            false,
        ));
        out.push(score_info(
            &format!("{name}_recall"),
            &format!("ROUGE recall of the {what}, stemmed: matches per original unit."),
            false,
        ));
    }
    for (name, what) in TYPES {
        out.push(score_info(
            &format!("{name}_unstemmed"),
            &format!("ROUGE F-measure of the {what}, without stemming."),
            false,
        ));
        out.push(score_info(
            &format!("{name}_unstemmed_precision"),
            &format!("ROUGE precision of the {what}, without stemming."),
            false,
        ));
        out.push(score_info(
            &format!("{name}_unstemmed_recall"),
            &format!("ROUGE recall of the {what}, without stemming."),
            false,
        ));
    }
    out
}

impl Metric for Rouge {
    fn info() -> MetricInfo {
        MetricInfo { name: "ROUGE-1/2/L (rouge-score 0.1.2)".into(), scores: infos() }
    }

    fn evaluate_pair(pair: &Pair) -> Result<Vec<Score>, PluginError> {
        let wanted = selection(config::get("scores").as_deref())?;
        Ok(to_scores(&RougeScorer::new().score(&pair.original, &pair.paraphrase), &wanted))
    }

    fn evaluate(pairs: Vec<Pair>) -> Vec<Result<Vec<Score>, PluginError>> {
        match selection(config::get("scores").as_deref()) {
            Ok(wanted) => {
                // One scorer for the batch: each distinct word is interned and stemmed once.
                let mut scorer = RougeScorer::new();
                pairs
                    .iter()
                    .map(|pair| Ok(to_scores(&scorer.score(&pair.original, &pair.paraphrase), &wanted)))
                    .collect()
            }
            Err(error) => pairs.iter().map(|_| Err(error.clone())).collect(),
        }
    }
}

parlance_sdk::export_metric!(Rouge);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_score_is_declared_once() {
        let declared: Vec<String> = infos().into_iter().map(|i| i.name).collect();
        let returned: Vec<String> =
            to_scores(&PairScores::default(), &[true; 18]).into_iter().map(|s| s.name).collect();
        assert_eq!(returned, declared, "scores come back in the declared order");
        let mut sorted = declared.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), 18);
        assert_eq!(declared.len(), 18);
        for name in &returned {
            assert!(declared.contains(name), "{name} is not declared");
        }
        let headline: Vec<String> = infos().into_iter().filter(|i| i.headline).map(|i| i.name).collect();
        assert_eq!(headline, ["rouge1", "rouge2", "rougeL"]);
    }

    #[test]
    fn scores_setting_selects_a_subset() {
        let pair = rouge::score("The cat sat on the mat.", "The cat sat.");
        let only = to_scores(&pair, &selection(Some("rougeL, rouge1_unstemmed_recall")).unwrap());
        assert_eq!(
            only.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(),
            ["rougeL", "rouge1_unstemmed_recall"]
        );
        // Three of the original's six words are kept.
        assert_eq!(only[1].value, 0.5);
        assert!(
            matches!(selection(Some("rougeLsum")), Err(PluginError::Misconfigured(m)) if m.contains("rougeLsum"))
        );
        assert!(matches!(selection(Some("")), Err(PluginError::Misconfigured(_))));
    }
}
