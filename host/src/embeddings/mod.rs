//! The `embeddings` capability's one home: the [`EmbeddingBackend`] trait that metric plugins' `embed`
//! calls reach, its [`EmbeddingError`], the backend chosen by `[embeddings]` (else the model
//! `scripts/fetch-model.sh` installed, where it installs it), and the two backends: the
//! native sentence encoder over a model folder ([`Native`], the model math is the `parlance-embeddings`
//! crate) and an OpenAI-compatible `/v1/embeddings` endpoint ([`OpenAi`], through the process's one
//! outbound client).
//!
//! The plugin runtime serves the capability with this module and maps its errors to plugin errors;
//! nothing here knows about plugins.

mod backend;
mod native;
mod openai;
mod settings;

pub use backend::{EmbeddingBackend, EmbeddingError, EmbeddingErrorKind, EmbeddingModelInfo};
pub use native::Native;
pub use openai::OpenAi;
pub use settings::{BackendChoice, EmbeddingsConfig, HOW_TO_GET_ONE};

use crate::config::ConfigError;
use crate::upstream::{Upstream, with_causes};
use std::sync::Arc;

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
