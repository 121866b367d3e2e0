//! `{{name}}`: a Parlance metric in Rust. It scores each pair by the length of the paraphrase per
//! character of the original; put your own measure in `evaluate_pair` (or override `evaluate` to
//! score the whole batch at once).

use parlance_sdk::PluginError;
use parlance_sdk::metric::{Metric, MetricInfo, Pair, Score, score, score_info};

pub struct Plugin;

impl Metric for Plugin {
    fn info() -> MetricInfo {
        MetricInfo {
            name: "{{name}}".into(),
            scores: vec![score_info(
                "{{ident}}_length_ratio",
                "Characters in the paraphrase per character of the original.",
                true,
            )],
        }
    }

    fn evaluate_pair(pair: &Pair) -> Result<Vec<Score>, PluginError> {
        let original = pair.original.chars().count();
        if original == 0 {
            return Err(PluginError::InvalidInput("the original is empty".into()));
        }
        let ratio = pair.paraphrase.chars().count() as f64 / original as f64;
        Ok(vec![score("{{ident}}_length_ratio", ratio)])
    }
}

parlance_sdk::export_metric!(Plugin);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_the_length_ratio() {
        let pair = Pair { original: "abcd".into(), paraphrase: "abcdabcd".into() };
        let scores = Plugin::evaluate_pair(&pair).unwrap();
        assert_eq!(scores[0].value, 2.0);
        let empty = Pair { original: String::new(), paraphrase: "x".into() };
        assert!(Plugin::evaluate_pair(&empty).is_err());
    }
}
