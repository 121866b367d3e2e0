//! The alternative the `embeddings` capability was measured against: the same semantic metric, with
//! the sentence encoder compiled into the component and the model read from the granted `/data`
//! directory. Every call runs in a fresh instance, so every call loads the model; the benchmark
//! (`bench/embeddings_native_vs_wasm.sh`) shows what that and WebAssembly's narrower SIMD cost.

use parlance_embeddings::SentenceEncoder;
use parlance_sdk::PluginError;
use parlance_sdk::embeddings::cosine;
use parlance_sdk::metric::{Metric, MetricInfo, Pair, Score, score, score_info};

/// The score name of the bundled semantic metric, so both produce the same evaluation.
const NAME: &str = "semantic_similarity";

pub struct EncoderInWasm;

impl Metric for EncoderInWasm {
    fn info() -> MetricInfo {
        MetricInfo {
            name: "Semantic similarity, encoder in the component".into(),
            scores: vec![score_info(NAME, "Cosine of embeddings.", true)],
        }
    }

    fn evaluate_pair(pair: &Pair) -> Result<Vec<Score>, PluginError> {
        Self::evaluate(vec![pair.clone()]).remove(0)
    }

    fn evaluate(pairs: Vec<Pair>) -> Vec<Result<Vec<Score>, PluginError>> {
        let fail = |e: String| pairs.iter().map(|_| Err(PluginError::Internal(e.clone()))).collect();
        let encoder = match SentenceEncoder::load(std::path::Path::new("/data")) {
            Ok(e) => e.with_max_threads(1),
            Err(e) => return fail(format!("loading the model from /data: {e}")),
        };
        let texts: Vec<&str> =
            pairs.iter().flat_map(|p| [p.original.as_str(), p.paraphrase.as_str()]).collect();
        let vectors = match encoder.embed(&texts) {
            Ok(v) => v,
            Err(e) => return fail(e.to_string()),
        };
        vectors.chunks(2).map(|v| cosine(&v[0], &v[1]).map(|c| vec![score(NAME, c)])).collect()
    }
}

parlance_sdk::export_metric!(EncoderInWasm);
