//! The overall score: a weighted mean of transformed scores, with the original service's defaults
//! (lexical 0.3 on `1 - |lexical_similarity - 0.3| / 0.7`, overlap 0.2 on `1 - word_overlap`, length
//! 0.2 on `length_ratio`, semantic 0.3 on `semantic_similarity`). Scores that are missing drop out of
//! the weights.

use serde::Serialize;
use std::collections::BTreeMap;

/// How a score is mapped before weighting.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Transform {
    /// The score as it is.
    #[default]
    Identity,
    /// `1 - x`: for scores where less is better for a paraphrase (word overlap).
    Inverse,
    /// `1 - |x - target| / range`: best at a target, not at an extreme.
    Closeness { target: f64, range: f64 },
    /// `x / divisor`: bring a 0–100 score (BLEU, chrF) to 0–1.
    Scale { divisor: f64 },
}

impl Transform {
    pub fn apply(self, x: f64) -> f64 {
        match self {
            Transform::Identity => x,
            Transform::Inverse => 1.0 - x,
            Transform::Closeness { target, range } => 1.0 - (x - target).abs() / range,
            Transform::Scale { divisor } => x / divisor,
        }
    }

    /// Parses `identity`, `inverse`, `closeness(TARGET, RANGE)` or `scale(DIVISOR)`.
    pub fn parse(text: &str) -> Result<Transform, String> {
        let text = text.trim();
        let args = |name: &str| -> Option<Vec<f64>> {
            let inner = text.strip_prefix(name)?.trim().strip_prefix('(')?.strip_suffix(')')?;
            inner.split(',').map(|a| a.trim().parse::<f64>().ok().filter(|v| v.is_finite())).collect()
        };
        match text {
            "identity" => return Ok(Transform::Identity),
            "inverse" => return Ok(Transform::Inverse),
            _ => {}
        }
        if let Some(a) = args("closeness") {
            if let [target, range] = a[..]
                && range > 0.0
            {
                return Ok(Transform::Closeness { target, range });
            }
        } else if let Some(a) = args("scale")
            && let [divisor] = a[..]
            && divisor != 0.0
        {
            return Ok(Transform::Scale { divisor });
        }
        Err(format!(
            "{text:?} is not a transform (expected identity, inverse, closeness(TARGET, RANGE > 0) or scale(DIVISOR != 0))"
        ))
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, utoipa::ToSchema)]
pub struct Weight {
    pub weight: f64,
    #[schema(value_type = Object)]
    pub transform: Transform,
}

/// Weights by score name.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    pub entries: BTreeMap<String, Weight>,
}

impl Default for Weights {
    fn default() -> Self {
        let entries = [
            ("lexical_similarity", 0.3, Transform::Closeness { target: 0.3, range: 0.7 }),
            ("word_overlap", 0.2, Transform::Inverse),
            ("length_ratio", 0.2, Transform::Identity),
            ("semantic_similarity", 0.3, Transform::Identity),
        ]
        .into_iter()
        .map(|(name, weight, transform)| (name.to_owned(), Weight { weight, transform }))
        .collect();
        Weights { entries }
    }
}

impl Weights {
    /// The weighted mean over the weighted scores present in `scores`, or `None` when none is, or when
    /// it is not a number: a metric's score is only checked to be finite, and one near `f64::MAX`
    /// transformed and weighted overflows.
    pub fn overall(&self, scores: &BTreeMap<String, f64>) -> Option<f64> {
        let (mut sum, mut total) = (0.0, 0.0);
        for (name, w) in &self.entries {
            if let Some(x) = scores.get(name) {
                sum += w.weight * w.transform.apply(*x);
                total += w.weight;
            }
        }
        (total > 0.0).then(|| sum / total).filter(|overall| overall.is_finite())
    }

    /// The weights as clients see them echoed: name to weight, for the scores that were computed in
    /// any of `evaluations`. A weighted score that was not (`semantic_similarity` without
    /// `include_semantic`) had no part in `overall_score`, so it is not echoed either.
    pub fn used<'a>(
        &self,
        evaluations: impl IntoIterator<Item = &'a BTreeMap<String, f64>>,
    ) -> BTreeMap<String, f64> {
        let mut used = BTreeMap::new();
        for scores in evaluations {
            for (name, w) in self.entries.iter().filter(|(name, _)| scores.contains_key(*name)) {
                used.insert(name.clone(), w.weight);
            }
        }
        used
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scores(pairs: &[(&str, f64)]) -> BTreeMap<String, f64> {
        pairs.iter().map(|(k, v)| (k.to_string(), *v)).collect()
    }

    #[test]
    fn defaults_follow_the_original_service() {
        let w = Weights::default();
        let all = scores(&[
            ("lexical_similarity", 0.3),
            ("word_overlap", 0.5),
            ("length_ratio", 0.8),
            ("semantic_similarity", 0.9),
        ]);
        let expected = (0.3 * 1.0 + 0.2 * 0.5 + 0.2 * 0.8 + 0.3 * 0.9) / 1.0;
        assert!((w.overall(&all).unwrap() - expected).abs() < 1e-12);
        // Without the semantic score its weight drops out.
        let some = scores(&[("lexical_similarity", 1.0), ("word_overlap", 0.0), ("length_ratio", 1.0)]);
        assert!((w.overall(&some).unwrap() - (0.3 * 0.0 + 0.2 * 1.0 + 0.2 * 1.0) / 0.7).abs() < 1e-12);
        assert_eq!(w.overall(&scores(&[("bleu", 50.0)])), None);
        // Found by the `plugin_output` fuzz target: a finite score that the transform takes past
        // `f64::MAX` made the overall score -inf, which JSON writes as null with no word of why.
        assert_eq!(w.overall(&scores(&[("lexical_similarity", f64::MIN)])), None);
        assert_eq!(w.overall(&scores(&[("lexical_similarity", f64::MAX), ("length_ratio", 1.0)])), None);
    }

    #[test]
    fn only_the_weights_of_computed_scores_are_echoed() {
        let w = Weights::default();
        let without_semantic = scores(&[("lexical_similarity", 0.5), ("length_ratio", 1.0), ("bleu", 3.0)]);
        let used = w.used([&without_semantic]);
        assert_eq!(used.keys().collect::<Vec<_>>(), ["length_ratio", "lexical_similarity"]);
        let with_semantic = scores(&[("semantic_similarity", 0.9)]);
        assert!(w.used([&without_semantic, &with_semantic]).contains_key("semantic_similarity"));
        assert!(w.used([]).is_empty());
    }

    #[test]
    fn transforms_parse() {
        assert_eq!(Transform::parse("identity"), Ok(Transform::Identity));
        assert_eq!(Transform::parse(" inverse "), Ok(Transform::Inverse));
        assert_eq!(
            Transform::parse("closeness(0.3, 0.7)"),
            Ok(Transform::Closeness { target: 0.3, range: 0.7 })
        );
        assert_eq!(Transform::parse("scale(100)"), Ok(Transform::Scale { divisor: 100.0 }));
        for bad in ["", "closeness(1)", "closeness(0.3, 0)", "scale(0)", "scale(x)", "log"] {
            assert!(Transform::parse(bad).is_err(), "{bad}");
        }
        assert!((Transform::Scale { divisor: 100.0 }.apply(42.0) - 0.42).abs() < 1e-12);
    }
}
