//! Logging: the `[logging]` section, and `tracing` to stderr at `LOG_LEVEL` (the seed's names, INFO by
//! default), or debug with `--verbose`; `RUST_LOG`, when set, takes precedence for fine-grained filters.
//! Colours only when stderr is a terminal.

use crate::config::{Kind, Section, Setting};
use std::io::IsTerminal;
use std::sync::OnceLock;
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
        static SETTINGS: &[Setting<LoggingConfig>] = &[crate::config::setting!(
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

/// Lowers the log to warnings and errors, when the level came from `LOG_LEVEL` (not `--verbose` or
/// `RUST_LOG`, which ask for more on purpose); set by [`init`].
static QUIET: OnceLock<Box<dyn Fn() + Send + Sync>> = OnceLock::new();

pub fn init(level: &str, verbose: bool) {
    let (filter, chosen) = match std::env::var("RUST_LOG") {
        Ok(spec) if !spec.is_empty() => (EnvFilter::new(spec), true),
        _ => {
            let level = if verbose { "debug" } else { filter_for(level) };
            // Wasmtime and the HTTP stack are noisy at debug; they stay at warn unless RUST_LOG says otherwise.
            (EnvFilter::new(format!("{level},{QUIET_CRATES}")), verbose)
        }
    };
    // Colours only for a person at a terminal: a log file or a pipe gets plain text.
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(std::io::stderr().is_terminal())
        .with_writer(std::io::stderr)
        .with_filter_reloading();
    let handle = builder.reload_handle();
    if builder.try_init().is_ok() && !chosen {
        let _ = QUIET.set(Box::new(move || {
            let _ = handle.reload(EnvFilter::new(format!("warn,{QUIET_CRATES}")));
        }));
    }
}

/// Crates whose debug output is noise to a Parlance user.
const QUIET_CRATES: &str = "wasmtime=warn,cranelift=warn,hyper=warn,h2=warn,reqwest=warn";

/// From now on, only warnings and errors reach stderr: for a session whose screen belongs to the user
/// (the interactive mode), where an info line would land between a prompt and its answer. Does
/// nothing when `--verbose` or `RUST_LOG` asked for more.
pub fn quiet_below_warnings() {
    if let Some(quiet) = QUIET.get() {
        quiet();
    }
}
