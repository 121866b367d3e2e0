//! The one error type of this crate: every variant names the file, and where it applies the field or
//! tensor, that stopped a model from loading.

use std::path::PathBuf;

/// Why a model folder could not be loaded (or, rarely, why an `embed` call failed).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum EmbeddingsError {
    /// A file the model needs is not in the folder.
    #[error("model file {path} is missing")]
    MissingFile { path: PathBuf },

    /// A file exists but could not be read.
    #[error("cannot read {path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },

    /// A JSON file is malformed, or a field has the wrong JSON type.
    #[error("{path} is not the expected JSON: {source}")]
    Json {
        path: PathBuf,
        #[source]
        source: serde_json::Error,
    },

    /// A field is present but its value is impossible (zero sizes, unknown token, …).
    #[error("{path}: `{field}` {problem}")]
    InvalidField { path: PathBuf, field: String, problem: String },

    /// A field asks for something this encoder does not implement.
    #[error("{path}: `{field}` = {value} is not supported (this encoder supports {supported})")]
    Unsupported { path: PathBuf, field: String, value: String, supported: String },

    /// A tensor the BERT encoder needs is absent from the safetensors file.
    #[error("{path}: tensor `{tensor}` is missing")]
    MissingTensor { path: PathBuf, tensor: String },

    /// A tensor has the wrong shape for the configuration in config.json.
    #[error("{path}: tensor `{tensor}` has shape {found:?}, config.json implies {expected:?}")]
    BadShape { path: PathBuf, tensor: String, expected: Vec<usize>, found: Vec<usize> },

    /// The safetensors file itself is malformed (header, dtype, offsets).
    #[error("{path}: {problem}")]
    BadSafetensors { path: PathBuf, problem: String },

    /// A worker thread of an `embed` call panicked.
    #[error("an embedding worker thread panicked")]
    WorkerPanicked,
}

impl EmbeddingsError {
    pub(crate) fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        let path = path.into();
        if source.kind() == std::io::ErrorKind::NotFound {
            Self::MissingFile { path }
        } else {
            Self::Io { path, source }
        }
    }

    pub(crate) fn invalid(
        path: impl Into<PathBuf>,
        field: impl Into<String>,
        problem: impl Into<String>,
    ) -> Self {
        Self::InvalidField { path: path.into(), field: field.into(), problem: problem.into() }
    }

    pub(crate) fn unsupported(
        path: impl Into<PathBuf>,
        field: impl Into<String>,
        value: impl std::fmt::Display,
        supported: impl Into<String>,
    ) -> Self {
        Self::Unsupported {
            path: path.into(),
            field: field.into(),
            value: value.to_string(),
            supported: supported.into(),
        }
    }
}
