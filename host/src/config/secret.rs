//! Secrets (API keys) named in the configuration by where they come from, never by value: an
//! environment variable, else the first line of a key file.

use super::env::Env;
use super::kind::Kind;
use super::setting::{Section, Setting, expand_home, setting};
use std::fmt;

/// Where a secret's value comes from: an environment variable, else a key file (first line).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SecretSource {
    pub env: Option<String>,
    pub file: Option<String>,
}

impl SecretSource {
    /// The secret's value: the environment variable if set, else the first non-blank line of the key
    /// file, else none.
    pub fn resolve(&self, env: &Env) -> Option<String> {
        if let Some(value) = self.env.as_deref().and_then(|name| env.get(name)) {
            return Some(value.trim().to_owned());
        }
        let path = expand_home(self.file.as_deref()?, env.home());
        let text = std::fs::read_to_string(path).ok()?;
        text.lines().map(str::trim).find(|l| !l.is_empty()).map(str::to_owned)
    }
}

impl fmt::Display for SecretSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.env, &self.file) {
            (Some(e), Some(p)) => write!(f, "${e} or {p}"),
            (Some(e), None) => write!(f, "${e}"),
            (None, Some(p)) => write!(f, "{p}"),
            (None, None) => write!(f, "nowhere"),
        }
    }
}

/// A secret's table in the file: `{ env = "VAR", file = "~/.key" }`.
impl Section for SecretSource {
    const NAME: &'static str = "secret";
    const ABOUT: &'static str = "Where a secret comes from";

    fn settings() -> &'static [Setting<Self>] {
        static SETTINGS: &[Setting<SecretSource>] = &[
            setting!("env", Kind::Name, |c| c.env, "The environment variable holding it"),
            setting!("file", Kind::Path, |c| c.file, "A file whose first line holds it"),
        ];
        SETTINGS
    }

    fn validate(&self, problems: &mut Vec<String>) {
        if self.env.is_none() && self.file.is_none() {
            problems.push("a secret needs `env`, `file` or both".into());
        }
    }
}

/// A URL without its password (`scheme://user:***@host/…`), for logs, errors and `/health`.
pub fn redact_url(url: &str) -> String {
    match (url.split_once("://"), url.rfind('@')) {
        (Some((scheme, rest)), Some(at)) if at > scheme.len() => {
            let host = &url[at + 1..];
            let user = rest.split(['@', ':']).next().unwrap_or_default();
            format!("{scheme}://{user}:***@{host}")
        }
        _ => url.to_owned(),
    }
}

#[cfg(test)]
mod redact_tests {
    #[test]
    fn redacts_passwords() {
        use super::redact_url;
        assert_eq!(redact_url("redis://:secret@host:6379/0"), "redis://:***@host:6379/0");
        assert_eq!(redact_url("redis://user:secret@host/0"), "redis://user:***@host/0");
        assert_eq!(redact_url("redis://localhost:6379/0"), "redis://localhost:6379/0");
        assert_eq!(
            redact_url("postgres://app:p%40ss@db:5432/parlance"),
            "postgres://app:***@db:5432/parlance"
        );
    }
}
