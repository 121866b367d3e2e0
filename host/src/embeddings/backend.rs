//! What an embedding backend is: the [`EmbeddingBackend`] trait, the model it reports
//! ([`EmbeddingModelInfo`]) and its errors ([`EmbeddingError`], by [`EmbeddingErrorKind`]).

use futures::future::BoxFuture;

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
