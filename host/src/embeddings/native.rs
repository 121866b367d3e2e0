//! The native backend: the `parlance-embeddings` sentence encoder over a sentence-transformers model
//! folder, run on the blocking pool so that encoding never holds up the async runtime.

use super::backend::{EmbeddingBackend, EmbeddingError, EmbeddingErrorKind, EmbeddingModelInfo};
use futures::future::BoxFuture;
use parlance_embeddings::SentenceEncoder;
use std::path::PathBuf;
use std::sync::Arc;
use tokio::sync::OnceCell;

/// The native encoder. The weights (90 MB for all-MiniLM-L6-v2) are loaded on first use, so a server
/// that never evaluates semantically never pays for them.
pub struct Native {
    dir: PathBuf,
    info: EmbeddingModelInfo,
    encoder: OnceCell<Arc<SentenceEncoder>>,
}

impl Native {
    /// Checks the folder and reads the model's dimensions; the weights wait for the first `embed`.
    pub fn new(dir: PathBuf) -> Result<Native, EmbeddingError> {
        let misconfigured = |message: String| EmbeddingError::new(EmbeddingErrorKind::Misconfigured, message);
        for file in ["model.safetensors", "tokenizer.json", "config.json"] {
            if !dir.join(file).is_file() {
                return Err(misconfigured(format!(
                    "the embedding model folder {} has no {file} (fetch the model with scripts/fetch-model.sh)",
                    dir.display()
                )));
            }
        }
        let config_file = dir.join("config.json");
        let unreadable = |source: Box<dyn std::error::Error + Send + Sync>| {
            EmbeddingError::caused_by(
                EmbeddingErrorKind::Misconfigured,
                config_file.display().to_string(),
                source,
            )
        };
        let config = std::fs::read_to_string(&config_file).map_err(|e| unreadable(e.into()))?;
        let config: serde_json::Value = serde_json::from_str(&config).map_err(|e| unreadable(e.into()))?;
        let dimensions = config["hidden_size"]
            .as_u64()
            .ok_or_else(|| misconfigured(format!("{} has no hidden_size", config_file.display())))?;
        let name = dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "sentence-encoder".into());
        Ok(Native {
            dir,
            info: EmbeddingModelInfo { name, dimensions: dimensions as u32 },
            encoder: OnceCell::new(),
        })
    }

    async fn encoder(&self) -> Result<Arc<SentenceEncoder>, EmbeddingError> {
        let dir = self.dir.clone();
        self.encoder
            .get_or_try_init(|| async move {
                tokio::task::spawn_blocking(move || SentenceEncoder::load(&dir).map(Arc::new))
                    .await
                    .map_err(|e| {
                        EmbeddingError::caused_by(EmbeddingErrorKind::Internal, "loading the model", e)
                    })?
                    .map_err(|e| {
                        EmbeddingError::caused_by(EmbeddingErrorKind::Misconfigured, "loading the model", e)
                    })
            })
            .await
            .cloned()
    }
}

impl EmbeddingBackend for Native {
    fn model(&self) -> EmbeddingModelInfo {
        self.info.clone()
    }

    fn embed(&self, texts: Vec<String>) -> BoxFuture<'_, Result<Vec<Vec<f32>>, EmbeddingError>> {
        Box::pin(async move {
            let encoder = self.encoder().await?;
            tokio::task::spawn_blocking(move || {
                let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
                encoder.embed(&refs)
            })
            .await
            .map_err(|e| {
                EmbeddingError::caused_by(EmbeddingErrorKind::Internal, "the embedding task failed", e)
            })?
            .map_err(|e| EmbeddingError::caused_by(EmbeddingErrorKind::Internal, "the encoder failed", e))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_what_the_model_folder_lacks() {
        let dir = tempfile::tempdir().unwrap();
        let err = Native::new(dir.path().to_owned()).err().unwrap();
        assert_eq!(err.kind(), EmbeddingErrorKind::Misconfigured);
        assert!(err.to_string().contains("has no model.safetensors"), "{err}");

        for file in ["model.safetensors", "tokenizer.json"] {
            std::fs::write(dir.path().join(file), "").unwrap();
        }
        std::fs::write(dir.path().join("config.json"), "{not json").unwrap();
        let err = Native::new(dir.path().to_owned()).err().unwrap();
        assert!(std::error::Error::source(&err).unwrap().is::<serde_json::Error>(), "{err:?}");

        std::fs::write(dir.path().join("config.json"), r#"{"hidden_size": 384}"#).unwrap();
        let native = Native::new(dir.path().to_owned()).unwrap();
        assert_eq!(native.model().dimensions, 384);
    }
}
