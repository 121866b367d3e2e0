//! `semantic`: the cosine similarity of sentence embeddings (all-MiniLM-L6-v2 by default), as
//! sentence-transformers computes it: mean pooling, normalisation, then the dot product.
//!
//! The heavy tensor work runs in the host, behind the `embeddings` capability this plugin imports (as
//! wasi-nn does); the plugin keeps the metric logic: one `embed` call for the whole batch, then the
//! cosine of each pair. The cosine is computed from the norms rather than assumed from normalised
//! vectors, so a backend that does not normalise (an OpenAI-compatible endpoint, say) scores the same.

use parlance_sdk::PluginError;
use parlance_sdk::embeddings::{self, cosine};
use parlance_sdk::metric::{Metric, MetricInfo, Pair, Score, score, score_info};

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

parlance_sdk::export_metric!(Semantic);
