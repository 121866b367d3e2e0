//! Locating the real all-MiniLM-L6-v2 model for the tests that need it.

use parlance_embeddings::SentenceEncoder;
use std::path::PathBuf;
use std::sync::OnceLock;

/// `PARLANCE_EMBEDDING_MODEL_DIR`, or else `<repo>/models/all-MiniLM-L6-v2`.
pub fn model_dir() -> PathBuf {
    match std::env::var_os("PARLANCE_EMBEDDING_MODEL_DIR") {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../models/all-MiniLM-L6-v2"),
    }
}

/// The encoder, loaded once per test binary. A missing model fails the test rather than skipping
/// it: CI installs the model first, and a silent skip would hide a broken install step.
pub fn encoder() -> &'static SentenceEncoder {
    static ENCODER: OnceLock<SentenceEncoder> = OnceLock::new();
    ENCODER.get_or_init(|| {
        let dir = model_dir();
        if !dir.join("model.safetensors").is_file() {
            panic!(
                "the all-MiniLM-L6-v2 model is not installed at {}: run scripts/fetch-model.sh \
                 (or set PARLANCE_EMBEDDING_MODEL_DIR to a sentence-transformers model folder)",
                dir.display()
            );
        }
        SentenceEncoder::load(&dir).unwrap_or_else(|e| panic!("loading {}: {e}", dir.display()))
    })
}
