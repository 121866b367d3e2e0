//! [`ConfigError`]: every problem found in a configuration, each located, reported at once.

/// Every problem found in the configuration, one per line.
#[derive(Debug, Clone, thiserror::Error)]
#[error("invalid configuration:\n  {}", .problems.join("\n  "))]
pub struct ConfigError {
    pub problems: Vec<String>,
}

impl ConfigError {
    pub fn one(problem: impl Into<String>) -> ConfigError {
        ConfigError { problems: vec![problem.into()] }
    }
}
