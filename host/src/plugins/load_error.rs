//! Why the plugins could not be loaded: every failure named by its plugin, and whether the
//! operator's configuration or the runtime is at fault.

use super::api::CallError;
use std::path::PathBuf;

/// Why the plugins could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("plugin `{plugin}`{}: cannot read the component {}", at(.declared_at), .path.display())]
    Read { plugin: String, declared_at: Option<String>, path: PathBuf, source: std::io::Error },
    #[error("plugin `{plugin}`{}: cannot pull {reference}", at(.declared_at))]
    Pull { plugin: String, declared_at: Option<String>, reference: String, source: crate::oci::OciError },
    #[error("plugin `{plugin}`: there is no bundled component `builtin:{name}` (bundled: {known})")]
    UnknownBuiltin { plugin: String, name: String, known: String },
    #[error("plugin `{plugin}`: {component} is not a valid component")]
    Compile { plugin: String, component: String, source: wasmtime::Error },
    #[error("plugin `{plugin}`: {message}")]
    Contract { plugin: String, message: String },
    #[error("plugin `{plugin}`: its info() call failed")]
    Info { plugin: String, source: CallError },
    #[error("the plugin runtime could not start: {0}")]
    Engine(String),
    #[error("{}", .0.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n"))]
    Several(Vec<LoadError>),
}

/// ` (declared at parlance.toml:12)`, when the plugin came from a `[[plugin]]` table.
fn at(declared_at: &Option<String>) -> String {
    declared_at.as_ref().map(|at| format!(" (declared at {at})")).unwrap_or_default()
}

impl LoadError {
    /// Whether the operator's configuration is at fault (a missing or invalid component, a component
    /// of the wrong kind), rather than the runtime.
    pub fn is_configuration(&self) -> bool {
        match self {
            LoadError::Engine(_) => false,
            LoadError::Several(errors) => errors.iter().all(LoadError::is_configuration),
            _ => true,
        }
    }
}
