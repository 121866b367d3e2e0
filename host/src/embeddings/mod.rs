//! The `embeddings` capability's one home: the [`EmbeddingBackend`] trait that metric plugins' `embed`
//! calls reach, its [`EmbeddingError`], the backend chosen by `[embeddings]`, and the two backends: the
//! native sentence encoder over a model folder ([`Native`], the model math is the `parlance-embeddings`
//! crate) and an OpenAI-compatible `/v1/embeddings` endpoint ([`OpenAi`], through the process's one
//! outbound client).
//!
//! The plugin runtime serves the capability with this module and maps its errors to plugin errors;
//! nothing here knows about plugins.

mod native;
mod openai;
mod settings;

pub use native::Native;
pub use openai::OpenAi;
pub use settings::{BackendChoice, EmbeddingsConfig};

use crate::config::ConfigError;
use crate::upstream::{Upstream, with_causes};
use futures::future::BoxFuture;
use std::sync::Arc;

/// The model behind a backend, as plugins see it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct EmbeddingModelInfo {
    pub name: String,
    /// 0 when the backend does not know it before the first answer.
    pub dimensions: u32,
}

/// Something that turns texts into vectors, one per text, in input order.
pub trait EmbeddingBackend: Send + Sync {
    fn model(&self) -> EmbeddingModelInfo;
    fn embed(&self, texts: Vec<String>) -> BoxFuture<'_, Result<Vec<Vec<f32>>, EmbeddingError>>;
}

/// What kind of failure an [`EmbeddingError`] is, in the terms a caller acts on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EmbeddingErrorKind {
    /// The endpoint judged the request itself wrong.
    InvalidInput,
    /// The backend is set up wrongly (a missing or broken model folder, a bad URL).
    Misconfigured,
    /// The endpoint rejected the credentials.
    Unauthorized,
    RateLimited {
        retry_after_secs: Option<u32>,
    },
    Timeout,
    /// The endpoint could not be reached or failed (DNS, refused, reset, TLS, 5xx).
    Unavailable,
    /// The endpoint answered with something that is not a set of embeddings.
    BadResponse,
    /// The host itself failed (the encoder's task died, the encoder rejected the input).
    Internal,
}

/// A failed embedding, with its cause when there is one.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct EmbeddingError {
    kind: EmbeddingErrorKind,
    message: String,
    #[source]
    source: Option<Box<dyn std::error::Error + Send + Sync>>,
}

impl EmbeddingError {
    pub fn new(kind: EmbeddingErrorKind, message: impl Into<String>) -> Self {
        EmbeddingError { kind, message: message.into(), source: None }
    }

    pub fn caused_by(
        kind: EmbeddingErrorKind,
        message: impl Into<String>,
        source: impl Into<Box<dyn std::error::Error + Send + Sync>>,
    ) -> Self {
        EmbeddingError { kind, message: message.into(), source: Some(source.into()) }
    }

    pub fn kind(&self) -> EmbeddingErrorKind {
        self.kind
    }
}

/// The backend `[embeddings]` configures, if any; remote endpoints are reached through `upstream`.
pub fn configured(
    config: Option<&BackendChoice>,
    upstream: &Upstream,
) -> Result<Option<Arc<dyn EmbeddingBackend>>, ConfigError> {
    let backend: Arc<dyn EmbeddingBackend> = match config {
        None => return Ok(None),
        Some(BackendChoice::Native { model_dir }) => {
            Arc::new(Native::new(model_dir.clone()).map_err(problem)?)
        }
        Some(BackendChoice::OpenAi { url, model, api_key, dimensions }) => Arc::new(
            OpenAi::new(url, model, api_key.clone(), *dimensions, upstream.clone()).map_err(problem)?,
        ),
    };
    Ok(Some(backend))
}

fn problem(e: EmbeddingError) -> ConfigError {
    ConfigError { problems: vec![format!("[embeddings]: {}", with_causes(&e))] }
}
