//! Logging: the `[logging]` section, and `tracing` to stderr at `LOG_LEVEL` (the seed's names, INFO by
//! default), or debug with `--verbose`; `RUST_LOG`, when set, takes precedence for fine-grained filters.

use crate::config::{Kind, Section, Setting};
use tracing_subscriber::EnvFilter;

/// The seed's level names (Python's, with WARNING and CRITICAL) and tracing's.
const LEVELS: &[&str] = &["TRACE", "DEBUG", "INFO", "WARN", "WARNING", "ERROR", "CRITICAL"];

#[derive(Clone, Debug)]
pub struct LoggingConfig {
    /// One of [`LEVELS`].
    pub level: String,
}

impl Default for LoggingConfig {
    fn default() -> Self {
        LoggingConfig { level: "INFO".into() }
    }
}

impl Section for LoggingConfig {
    const NAME: &'static str = "logging";
    const ABOUT: &'static str = "Logging on stderr";

    fn settings() -> &'static [Setting<Self>] {
        static SETTINGS: &[Setting<LoggingConfig>] = &[crate::setting!(
            "level",
            Kind::Choice(LEVELS),
            |c| c.level,
            env = "LOG_LEVEL",
            "The lowest level logged"
        )];
        SETTINGS
    }
}

/// Maps the seed's level names (Python's, including WARNING and CRITICAL) to a tracing filter.
pub fn filter_for(level: &str) -> &'static str {
    match level.to_ascii_lowercase().as_str() {
        "trace" => "trace",
        "debug" => "debug",
        "warn" | "warning" => "warn",
        "error" | "critical" => "error",
        _ => "info",
    }
}

pub fn init(level: &str, verbose: bool) {
    let filter = match std::env::var("RUST_LOG") {
        Ok(spec) if !spec.is_empty() => EnvFilter::new(spec),
        _ => {
            let level = if verbose { "debug" } else { filter_for(level) };
            // Wasmtime and the HTTP stack are noisy at debug; they stay at warn unless RUST_LOG says otherwise.
            EnvFilter::new(format!("{level},wasmtime=warn,cranelift=warn,hyper=warn,h2=warn,reqwest=warn"))
        }
    };
    let _ = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr).try_init();
}
