//! `semantic`: the cosine similarity of sentence embeddings (all-MiniLM-L6-v2 by default), as
//! sentence-transformers computes it: mean pooling, normalisation, then the dot product.
//!
//! The heavy tensor work runs in the host, behind the `embeddings` capability this plugin imports (as
//! wasi-nn does); the plugin keeps the metric logic: one `embed` call for the whole batch, then the
//! cosine of each pair. The cosine is computed from the norms rather than assumed from normalised
//! vectors, so a backend that does not normalise (an OpenAI-compatible endpoint, say) scores the same.

use parlance_sdk::metric::{Metric, MetricInfo, Pair, Score, score, score_info};
use parlance_sdk::{PluginError, embeddings};

pub struct Semantic;

pub const NAME: &str = "semantic_similarity";

impl Metric for Semantic {
    fn info() -> MetricInfo {
        MetricInfo {
            name: "Semantic similarity".into(),
            scores: vec![score_info(
                NAME,
                "Cosine similarity of the two texts' sentence embeddings, -1 to 1 (about 0 to 1 in practice).",
                true,
            )],
        }
    }

    fn evaluate_pair(pair: &Pair) -> Result<Vec<Score>, PluginError> {
        Self::evaluate(vec![pair.clone()]).remove(0)
    }

    fn evaluate(pairs: Vec<Pair>) -> Vec<Result<Vec<Score>, PluginError>> {
        let texts: Vec<String> =
            pairs.iter().flat_map(|p| [p.original.clone(), p.paraphrase.clone()]).collect();
        let vectors = match embeddings::embed(&texts) {
            Ok(v) if v.len() == texts.len() => v,
            Ok(v) => {
                let e = PluginError::Internal(format!(
                    "the host returned {} embeddings for {} texts",
                    v.len(),
                    texts.len()
                ));
                return pairs.iter().map(|_| Err(e.clone())).collect();
            }
            Err(e) => return pairs.iter().map(|_| Err(e.clone())).collect(),
        };
        vectors.chunks(2).map(|pair| cosine(&pair[0], &pair[1]).map(|c| vec![score(NAME, c)])).collect()
    }
}

/// Cosine similarity; a zero vector has no direction, so it is an error rather than a made-up value.
pub fn cosine(a: &[f32], b: &[f32]) -> Result<f64, PluginError> {
    if a.len() != b.len() {
        return Err(PluginError::Internal(format!(
            "embeddings of different sizes ({} and {})",
            a.len(),
            b.len()
        )));
    }
    let (mut dot, mut na, mut nb) = (0f64, 0f64, 0f64);
    for (x, y) in a.iter().zip(b) {
        let (x, y) = (f64::from(*x), f64::from(*y));
        dot += x * y;
        na += x * x;
        nb += y * y;
    }
    if na == 0.0 || nb == 0.0 {
        return Err(PluginError::InvalidInput("a text has a zero embedding".into()));
    }
    Ok(dot / (na.sqrt() * nb.sqrt()))
}

parlance_sdk::export_metric!(Semantic);

#[cfg(test)]
mod tests {
    use super::cosine;

    #[test]
    fn cosine_ignores_scale() {
        assert!((cosine(&[1.0, 0.0], &[2.0, 0.0]).unwrap() - 1.0).abs() < 1e-12);
        assert!(cosine(&[1.0, 0.0], &[0.0, 3.0]).unwrap().abs() < 1e-12);
        assert!((cosine(&[1.0, 1.0], &[-1.0, -1.0]).unwrap() + 1.0).abs() < 1e-12);
        assert!(cosine(&[0.0, 0.0], &[1.0, 0.0]).is_err());
        assert!(cosine(&[1.0], &[1.0, 0.0]).is_err());
    }
}
