//! The host's `embeddings` capability: its configuration.

mod settings;

pub use settings::{EmbeddingsConfig, EmbeddingsSection};
