//! The host side of the `embeddings` capability: the backend a metric plugin's `embed` calls reach.
//! The concrete backends (a native sentence encoder, an OpenAI-compatible endpoint) live in
//! `crate::evaluate::embeddings`; the runtime only needs this trait.

use super::api::PluginError;
use futures::future::BoxFuture;

/// The model behind a backend, as plugins see it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct EmbeddingModelInfo {
    pub name: String,
    pub dimensions: u32,
}

/// Something that turns texts into L2-normalised vectors, one per text, in input order.
pub trait EmbeddingBackend: Send + Sync {
    fn model(&self) -> EmbeddingModelInfo;
    fn embed(&self, texts: Vec<String>) -> BoxFuture<'_, Result<Vec<Vec<f32>>, PluginError>>;
}
