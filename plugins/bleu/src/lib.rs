//! `parlance-plugin-bleu`: sentence BLEU, chrF and TER exactly as sacreBLEU 2.6.0 computes them with
//! its sentence-level defaults (`sentence_bleu`, `sentence_chrf`, `sentence_ter`), on sacreBLEU's
//! 0-100 scale.
//!
//! The reference is `pair.original`, the hypothesis `pair.paraphrase`. Every input has a defined
//! value, as in sacreBLEU: an empty hypothesis or reference scores BLEU 0 and chrF 0; TER is 0
//! when both are empty and 100 when only the reference is.
//!
//! Setting `scores` (optional): a comma-separated subset of `bleu`, `chrf`, `ter` to compute; all
//! three when unset. TER costs the most on long texts, so an operator who does not need it can
//! skip it. A name outside the three fails every pair with `misconfigured`.
//!
//! The algorithms live in [`bleu`], [`chrf`] and [`ter`] and know nothing of the SDK, so they are
//! tested natively against sacreBLEU's own numbers (`tests/reference.rs`).

pub mod bleu;
pub mod chrf;
pub mod ter;

use parlance_sdk::metric::{Metric, MetricInfo, Pair, Score, score, score_info};
use parlance_sdk::{PluginError, config};

pub struct Bleu;

/// The scores, in the order they are returned.
const NAMES: [&str; 3] = ["bleu", "chrf", "ter"];

/// Which of [`NAMES`] the `scores` setting asks for.
fn selection(setting: Option<&str>) -> Result<[bool; 3], PluginError> {
    let Some(setting) = setting else { return Ok([true; 3]) };
    let mut wanted = [false; 3];
    for name in setting.split(',').map(str::trim).filter(|name| !name.is_empty()) {
        let index = NAMES.iter().position(|known| *known == name).ok_or_else(|| {
            PluginError::Misconfigured(format!(
                "the setting `scores` names {name:?}, which is not one of {}",
                NAMES.join(", ")
            ))
        })?;
        wanted[index] = true;
    }
    if !wanted.contains(&true) {
        return Err(PluginError::Misconfigured("the setting `scores` selects no score".into()));
    }
    Ok(wanted)
}

/// Scores pairs one after another with one set of buffers.
#[derive(Default)]
struct Scorer {
    bleu: bleu::BleuScorer,
    chrf: chrf::ChrfScorer,
    ter: ter::TerScorer,
}

impl Scorer {
    fn score(&mut self, pair: &Pair, wanted: [bool; 3]) -> Vec<Score> {
        let (hyp, reference) = (pair.paraphrase.as_str(), pair.original.as_str());
        let mut scores = Vec::with_capacity(3);
        if wanted[0] {
            scores.push(score("bleu", self.bleu.score(hyp, reference)));
        }
        if wanted[1] {
            scores.push(score("chrf", self.chrf.score(hyp, reference)));
        }
        if wanted[2] {
            scores.push(score("ter", self.ter.score(hyp, reference)));
        }
        scores
    }
}

impl Metric for Bleu {
    fn info() -> MetricInfo {
        MetricInfo {
            name: "BLEU, chrF and TER (sacreBLEU 2.6.0 sentence-level defaults)".into(),
            scores: vec![
                score_info(
                    "bleu",
                    "Sentence BLEU, 0-100: 13a tokenization, exp smoothing, effective order.",
                    true,
                ),
                score_info("chrf", "chrF, 0-100: character 6-grams, beta 2, whitespace ignored.", true),
                score_info(
                    "ter",
                    "Translation edit rate, 0-100 and above: edits per reference word, case-insensitive; lower is better.",
                    true,
                ),
            ],
        }
    }

    fn evaluate_pair(pair: &Pair) -> Result<Vec<Score>, PluginError> {
        let wanted = selection(config::get("scores").as_deref())?;
        Ok(Scorer::default().score(pair, wanted))
    }

    fn evaluate(pairs: Vec<Pair>) -> Vec<Result<Vec<Score>, PluginError>> {
        match selection(config::get("scores").as_deref()) {
            Ok(wanted) => {
                let mut scorer = Scorer::default();
                pairs.iter().map(|pair| Ok(scorer.score(pair, wanted))).collect()
            }
            Err(error) => pairs.iter().map(|_| Err(error.clone())).collect(),
        }
    }
}

parlance_sdk::export_metric!(Bleu);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_setting_selects_a_subset() {
        assert_eq!(selection(None).unwrap(), [true, true, true]);
        assert_eq!(selection(Some("bleu, chrf")).unwrap(), [true, true, false]);
        assert_eq!(selection(Some("ter")).unwrap(), [false, false, true]);
        assert!(
            matches!(selection(Some("bleu,meteor")), Err(PluginError::Misconfigured(m)) if m.contains("meteor"))
        );
        assert!(matches!(selection(Some(" , ")), Err(PluginError::Misconfigured(_))));
    }

    #[test]
    fn returns_the_declared_scores_in_order() {
        let pair =
            Pair { original: "The cat sat on the mat.".into(), paraphrase: "A cat sat on a mat.".into() };
        let scores = Scorer::default().score(&pair, [true; 3]);
        let declared: Vec<String> = Bleu::info().scores.into_iter().map(|s| s.name).collect();
        assert_eq!(scores.iter().map(|s| s.name.clone()).collect::<Vec<_>>(), declared);
        let only_ter = Scorer::default().score(&pair, [false, false, true]);
        assert_eq!(only_ter.len(), 1);
        assert_eq!(only_ter[0].name, "ter");
        assert_eq!(only_ter[0].value, scores[2].value);
    }
}
