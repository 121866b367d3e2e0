//! The environment layer of the configuration: the seeds' variables (`API_PORT`, `CACHE_TTL`,
//! `DATABASE_FILE`, …) and `.env`, which override the file.

use super::{CacheKind, Config, ConfigError};
use std::collections::BTreeMap;
use std::time::Duration;

/// A snapshot of environment variables. Explicit, so that embedding programs and tests can configure
/// Parlance without touching the process environment.
#[derive(Clone, Debug, Default)]
pub struct Env {
    vars: BTreeMap<String, String>,
}

impl Env {
    pub fn from_process() -> Env {
        Env { vars: std::env::vars().collect() }
    }

    pub fn empty() -> Env {
        Env::default()
    }

    pub fn with(mut self, name: &str, value: &str) -> Env {
        self.vars.insert(name.to_owned(), value.to_owned());
        self
    }

    /// A variable's value; an empty value counts as unset, as most shells' `VAR=` intends.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.vars.get(name).map(String::as_str).filter(|v| !v.is_empty())
    }

    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.vars.iter().map(|(k, v)| (k.as_str(), v.as_str()))
    }
}

/// Loads `./.env` into the process environment without overriding variables that are already set.
pub fn load_dotenv() -> Result<(), ConfigError> {
    match dotenvy::dotenv() {
        Ok(_) => Ok(()),
        Err(e) if e.not_found() => Ok(()),
        Err(e) => Err(ConfigError { problems: vec![format!(".env: {e}")] }),
    }
}

pub fn cache_kind(value: &str, url: String) -> Result<CacheKind, String> {
    match value.to_ascii_lowercase().as_str() {
        "redis" => Ok(CacheKind::Redis { url }),
        "memory" => Ok(CacheKind::Memory),
        _ => Err(format!("{value:?} is not a cache type (expected \"redis\" or \"memory\")")),
    }
}

fn parse<T: std::str::FromStr>(
    env: &Env,
    name: &str,
    problems: &mut Vec<String>,
    check: impl Fn(&T) -> bool,
    expected: &str,
) -> Option<T> {
    let raw = env.get(name)?;
    match raw.trim().parse::<T>() {
        Ok(v) if check(&v) => Some(v),
        _ => {
            problems.push(format!("environment variable {name}: expected {expected}, found {raw:?}"));
            None
        }
    }
}

fn parse_bool(env: &Env, name: &str, problems: &mut Vec<String>) -> Option<bool> {
    let raw = env.get(name)?;
    match raw.trim().to_ascii_lowercase().as_str() {
        "1" | "true" | "yes" | "on" => Some(true),
        "0" | "false" | "no" | "off" => Some(false),
        _ => {
            problems.push(format!("environment variable {name}: expected true or false, found {raw:?}"));
            None
        }
    }
}

/// Applies the environment over the defaults and the file.
pub fn apply(c: &mut Config, env: &Env, problems: &mut Vec<String>) {
    if let Some(v) = parse(env, "API_HOST", problems, |_: &std::net::IpAddr| true, "an IP address") {
        c.server.host = v;
    }
    if let Some(v) = parse(env, "API_PORT", problems, |_: &u16| true, "a port number") {
        c.server.api_port = v;
    }
    if let Some(v) = parse(env, "PORT", problems, |_: &u16| true, "a port number") {
        c.server.chat_port = v;
    }
    if let Some(v) = parse_bool(env, "API_DEBUG", problems) {
        c.server.debug = v;
    }
    if let Some(v) = env.get("CORS_ORIGINS") {
        c.server.cors_origins = v.split(',').map(|o| o.trim().to_owned()).filter(|o| !o.is_empty()).collect();
    }
    if let Some(v) = env.get("LOG_LEVEL") {
        c.log_level = v.to_owned();
    }

    let p = &mut c.paraphrase;
    if let Some(v) =
        parse(env, "RATE_LIMIT_REQUESTS_PER_MINUTE", problems, |n: &u32| *n > 0, "a positive integer")
    {
        p.rate_limit_per_minute = v;
    }
    if let Some(v) = parse(env, "BATCH_MAX_SIZE", problems, |n: &usize| *n > 0, "a positive integer") {
        p.batch_max_size = v;
    }
    if let Some(v) = parse(env, "BATCH_MAX_WORKERS", problems, |n: &usize| *n > 0, "a positive integer") {
        p.batch_max_workers = v;
    }
    if let Some(v) = parse(env, "CACHE_TTL", problems, |_: &u64| true, "a number of seconds") {
        p.cache.ttl = Duration::from_secs(v);
    }
    let url = env.get("CACHE_STORE_URL").map(str::to_owned);
    match (env.get("CACHE_TYPE"), url) {
        (Some(kind), url) => {
            let url = url.unwrap_or_else(|| match &p.cache.kind {
                CacheKind::Redis { url } => url.clone(),
                CacheKind::Memory => super::defaults::CACHE_STORE_URL.to_owned(),
            });
            match cache_kind(kind, url) {
                Ok(k) => p.cache.kind = k,
                Err(e) => problems.push(format!("environment variable CACHE_TYPE: {e}")),
            }
        }
        (None, Some(url)) => {
            if let CacheKind::Redis { url: current } = &mut p.cache.kind {
                *current = url;
            }
        }
        (None, None) => {}
    }

    if let Some(v) = env.get("DATABASE_FILE") {
        c.chat.database_file = v.into();
    }
    if let Some(v) = env.get("DEFAULT_RESPONSE") {
        c.chat.default_response = v.to_owned();
    }
    if let Some(v) = env.get("DEFAULT_GENRE") {
        c.chat.default_genre = v.to_owned();
    }
    if let Some(v) = env.get("PARLANCE_EMBEDDINGS_MODEL_DIR") {
        c.embeddings = Some(super::EmbeddingsConfig::Native { model_dir: v.into() });
    }
    if let Some(v) = env.get("PARLANCE_CA_FILE") {
        c.tls.ca_file = Some(v.into());
    }
    if let Some(v) = env.get("PARLANCE_CACHE_DIR") {
        c.runtime.cache_dir = Some(v.into());
    }
}
