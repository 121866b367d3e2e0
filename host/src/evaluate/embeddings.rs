//! The backends behind the `embeddings` capability: the native sentence encoder (`parlance-embeddings`)
//! over a model folder, or an OpenAI-compatible `/v1/embeddings` endpoint.

use crate::embeddings::EmbeddingsConfig;
use crate::plugins::api::{PluginError, PluginErrorKind};
use crate::plugins::embeddings::{EmbeddingBackend, EmbeddingModelInfo};
use futures::future::BoxFuture;
use parlance_embeddings::SentenceEncoder;
use std::path::PathBuf;
use std::sync::Arc;
use tokio::sync::OnceCell;

/// Builds the configured backend.
pub fn backend(config: &EmbeddingsConfig) -> Result<Arc<dyn EmbeddingBackend>, String> {
    match config {
        EmbeddingsConfig::Native { model_dir } => Ok(Arc::new(Native::new(model_dir.clone())?)),
        EmbeddingsConfig::OpenAi { url, model, api_key, dimensions } => Ok(Arc::new(OpenAi {
            url: url.trim_end_matches('/').to_owned(),
            model: model.clone(),
            api_key: api_key.clone(),
            dimensions: *dimensions,
            client: reqwest::Client::builder()
                .timeout(std::time::Duration::from_secs(60))
                .build()
                .map_err(|e| format!("cannot build the HTTP client: {e}"))?,
        })),
    }
}

/// The native encoder. The weights (90 MB for all-MiniLM-L6-v2) are loaded on first use, so a server
/// that never evaluates semantically never pays for them.
pub struct Native {
    dir: PathBuf,
    info: EmbeddingModelInfo,
    encoder: OnceCell<Arc<SentenceEncoder>>,
}

impl Native {
    pub fn new(dir: PathBuf) -> Result<Native, String> {
        for file in ["model.safetensors", "tokenizer.json", "config.json"] {
            if !dir.join(file).is_file() {
                return Err(format!(
                    "the embedding model folder {} has no {file} (fetch the model with scripts/fetch-model.sh)",
                    dir.display()
                ));
            }
        }
        let config = std::fs::read_to_string(dir.join("config.json"))
            .map_err(|e| format!("{}: {e}", dir.display()))?;
        let config: serde_json::Value =
            serde_json::from_str(&config).map_err(|e| format!("{}/config.json: {e}", dir.display()))?;
        let dimensions = config["hidden_size"]
            .as_u64()
            .ok_or_else(|| format!("{}/config.json has no hidden_size", dir.display()))?;
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

    async fn encoder(&self) -> Result<Arc<SentenceEncoder>, PluginError> {
        let dir = self.dir.clone();
        self.encoder
            .get_or_try_init(|| async move {
                tokio::task::spawn_blocking(move || SentenceEncoder::load(&dir).map(Arc::new))
                    .await
                    .map_err(|e| {
                        PluginError::new(PluginErrorKind::Internal, format!("loading the model: {e}"))
                    })?
                    .map_err(|e| {
                        PluginError::new(PluginErrorKind::Misconfigured, format!("loading the model: {e}"))
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

    fn embed(&self, texts: Vec<String>) -> BoxFuture<'_, Result<Vec<Vec<f32>>, PluginError>> {
        Box::pin(async move {
            let encoder = self.encoder().await?;
            tokio::task::spawn_blocking(move || {
                let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
                encoder.embed(&refs)
            })
            .await
            .map_err(|e| {
                PluginError::new(PluginErrorKind::Internal, format!("the embedding task failed: {e}"))
            })?
            .map_err(|e| PluginError::new(PluginErrorKind::Internal, e.to_string()))
        })
    }
}

/// An OpenAI-compatible embeddings endpoint (OpenAI, vLLM, Ollama, llama.cpp, text-embeddings-inference).
pub struct OpenAi {
    url: String,
    model: String,
    api_key: Option<String>,
    dimensions: Option<u32>,
    client: reqwest::Client,
}

impl EmbeddingBackend for OpenAi {
    fn model(&self) -> EmbeddingModelInfo {
        EmbeddingModelInfo { name: self.model.clone(), dimensions: self.dimensions.unwrap_or(0) }
    }

    fn embed(&self, texts: Vec<String>) -> BoxFuture<'_, Result<Vec<Vec<f32>>, PluginError>> {
        Box::pin(async move {
            let fail = |kind, message: String| PluginError::new(kind, message);
            let mut request = self
                .client
                .post(format!("{}/embeddings", self.url))
                .json(&serde_json::json!({"model": self.model, "input": texts}));
            if let Some(key) = &self.api_key {
                request = request.bearer_auth(key);
            }
            let response = request.send().await.map_err(|e| {
                let kind =
                    if e.is_timeout() { PluginErrorKind::Timeout } else { PluginErrorKind::Unavailable };
                fail(kind, format!("the embeddings endpoint: {e}"))
            })?;
            let status = response.status();
            if !status.is_success() {
                let kind = match status.as_u16() {
                    401 | 403 => PluginErrorKind::Unauthorized,
                    429 => PluginErrorKind::RateLimited { retry_after_secs: None },
                    400..=499 => PluginErrorKind::InvalidInput,
                    _ => PluginErrorKind::Unavailable,
                };
                return Err(fail(kind, format!("the embeddings endpoint answered HTTP {status}")));
            }
            let body: serde_json::Value = response
                .json()
                .await
                .map_err(|e| fail(PluginErrorKind::BadResponse, format!("the embeddings endpoint: {e}")))?;
            let data = body["data"]
                .as_array()
                .ok_or_else(|| fail(PluginErrorKind::BadResponse, "no `data` in the answer".into()))?;
            let mut vectors: Vec<(u64, Vec<f32>)> = Vec::with_capacity(data.len());
            for (position, item) in data.iter().enumerate() {
                let index = item["index"].as_u64().unwrap_or(position as u64);
                let vector: Option<Vec<f32>> = item["embedding"]
                    .as_array()
                    .map(|v| v.iter().filter_map(|x| x.as_f64().map(|f| f as f32)).collect());
                let vector = vector.filter(|v| !v.is_empty()).ok_or_else(|| {
                    fail(PluginErrorKind::BadResponse, format!("item {position} has no embedding"))
                })?;
                vectors.push((index, vector));
            }
            vectors.sort_by_key(|(i, _)| *i);
            if vectors.len() != texts.len() {
                return Err(fail(
                    PluginErrorKind::BadResponse,
                    format!("{} embeddings for {} texts", vectors.len(), texts.len()),
                ));
            }
            Ok(vectors.into_iter().map(|(_, v)| v).collect())
        })
    }
}
