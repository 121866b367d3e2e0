//! Operator configuration: defaults, then `parlance.toml`, then the environment (including `.env`),
//! validated in one pass into [`Config`], with every problem reported at once.
//!
//! Precedence, lowest first: built-in defaults, the file, environment variables. The file is the one
//! named by `--config`, else by `PARLANCE_CONFIG`, else `./parlance.toml` when it exists; no file is
//! needed.

mod defaults;
mod env;
mod file;
mod plugins;

pub use env::Env;

use crate::plugins::RuntimeSettings;
use crate::plugins::api::PluginKind;
use crate::plugins::spec::{PluginSpec, SecretSource};
use file::{Reader, Section};
use std::net::IpAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Every problem found in the configuration, one per line.
#[derive(Debug, Clone, thiserror::Error)]
#[error("invalid configuration:\n  {}", .problems.join("\n  "))]
pub struct ConfigError {
    pub problems: Vec<String>,
}

/// Where the response cache lives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CacheKind {
    /// An external Redis store at `url` (the seed's default).
    Redis { url: String },
    /// An in-process cache.
    Memory,
}

#[derive(Clone, Debug)]
pub struct ServerConfig {
    /// Bind address of both HTTP surfaces (`API_HOST`).
    pub host: IpAddr,
    /// Port of the paraphrase API (`API_PORT`, overridden by `--port`).
    pub api_port: u16,
    /// Port of the chat API (`PORT`).
    pub chat_port: u16,
    /// Adds the cause chain of 5xx errors to responses and logs (`API_DEBUG`).
    pub debug: bool,
    /// Origins allowed by CORS; `["*"]` allows any, empty disables CORS headers.
    pub cors_origins: Vec<String>,
    /// Largest request body accepted, in bytes.
    pub max_body_bytes: usize,
}

#[derive(Clone, Debug)]
pub struct CacheConfig {
    pub kind: CacheKind,
    pub ttl: Duration,
    /// Entries kept by the in-process cache (also the fallback when Redis is down).
    pub max_entries: u64,
}

#[derive(Clone, Debug)]
pub struct ParaphraseConfig {
    /// The provider used when a request names none.
    pub default_provider: String,
    /// Longest text accepted, in characters.
    pub max_text_chars: usize,
    /// Provider calls allowed per client and provider per minute (`RATE_LIMIT_REQUESTS_PER_MINUTE`).
    pub rate_limit_per_minute: u32,
    /// Most texts in one REST batch (`BATCH_MAX_SIZE`).
    pub batch_max_size: usize,
    /// Provider calls in flight per batch (`BATCH_MAX_WORKERS`).
    pub batch_max_workers: usize,
    /// Provider calls in flight across the whole process.
    pub max_concurrent_calls: usize,
    /// How often an upstream 429 is retried before it is reported.
    pub upstream_retries: u32,
    pub cache: CacheConfig,
}

#[derive(Clone, Debug)]
pub struct ChatConfig {
    /// SQLite file of the dialog store (`DATABASE_FILE`).
    pub database_file: PathBuf,
    /// The chat-model plugin id that writes replies.
    pub model: String,
    /// The reply when the model fails (`DEFAULT_RESPONSE`).
    pub default_response: String,
    /// The genre when a request names none (`DEFAULT_GENRE`).
    pub default_genre: String,
    pub max_message_chars: usize,
    pub max_name_chars: usize,
    pub max_situation_chars: usize,
    /// Most entries a dialog may hold; a chat or PUT beyond it is refused.
    pub max_history_entries: usize,
    /// `normal`: an acknowledged exchange survives a crash of the process; `full`: also a power loss
    /// (an fsync per commit).
    pub durability: crate::store::Durability,
}

#[derive(Clone, Debug)]
pub struct EvaluateConfig {
    /// Metric plugin ids in evaluation order; every metric plugin when `None`.
    pub metrics: Option<Vec<String>>,
    /// The metrics that `include_semantic` switches on (they need an embedding backend).
    pub semantic_metrics: Vec<String>,
    pub weights: crate::evaluate::weights::Weights,
    /// Longest text of a pair, in characters.
    pub max_text_chars: usize,
    /// Most pairs in one `POST /evaluate/batch`.
    pub max_pairs: usize,
}

/// The backend of the host's `embeddings` capability.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EmbeddingsConfig {
    /// A sentence-transformers model folder (`model.safetensors`, `tokenizer.json`, `config.json`).
    Native { model_dir: PathBuf },
    /// An OpenAI-compatible endpoint; `url` is the base URL (`…/v1`).
    OpenAi { url: String, model: String, api_key: Option<String>, dimensions: Option<u32> },
}

#[derive(Clone, Debug)]
pub struct Config {
    /// The file the configuration came from, if any.
    pub file: Option<PathBuf>,
    pub log_level: String,
    pub server: ServerConfig,
    pub paraphrase: ParaphraseConfig,
    pub chat: ChatConfig,
    pub evaluate: EvaluateConfig,
    pub embeddings: Option<EmbeddingsConfig>,
    /// The CA certificates outbound TLS trusts besides the webpki roots.
    pub tls: crate::upstream::TrustSettings,
    pub runtime: RuntimeSettings,
    pub plugins: Vec<PluginSpec>,
}

pub const DEFAULT_RESPONSE: &str = "The AI model is currently unavailable. Please try again later.";
pub const DEFAULT_GENRE: &str = "Romance";
/// The seed's model endpoint: a local HTTP address, port 80, path `/path/`.
pub const DEFAULT_MODEL_URL: &str = "http://localhost:80/path/";

impl Config {
    /// Loads the configuration the way the binary does: `.env` into the environment (never
    /// overriding variables already set), then the file, then the environment.
    pub fn load(explicit_file: Option<&Path>) -> Result<Config, ConfigError> {
        env::load_dotenv()?;
        Config::from_env(explicit_file, &Env::from_process())
    }

    /// Builds the configuration from an explicit environment, for embedding and tests.
    pub fn from_env(explicit_file: Option<&Path>, env: &Env) -> Result<Config, ConfigError> {
        let file = explicit_file
            .map(Path::to_path_buf)
            .or_else(|| env.get("PARLANCE_CONFIG").map(PathBuf::from))
            .or_else(|| Some(PathBuf::from("parlance.toml")).filter(|p| p.exists()));
        let text = match &file {
            Some(path) => Some(std::fs::read_to_string(path).map_err(|e| ConfigError {
                problems: vec![format!("{}: cannot read the configuration file: {e}", path.display())],
            })?),
            None => None,
        };
        let mut problems = Vec::new();
        let config = build(file.as_deref(), text.as_deref(), env, &mut problems);
        if problems.is_empty() { Ok(config) } else { Err(ConfigError { problems }) }
    }

    pub fn plugin(&self, id: &str) -> Option<&PluginSpec> {
        self.plugins.iter().find(|p| p.id == id)
    }
}

/// Keys of each table, for the unknown-key check.
const ROOT_KEYS: &[&str] = &[
    "server",
    "logging",
    "paraphrase",
    "cache",
    "chat",
    "evaluate",
    "embeddings",
    "tls",
    "runtime",
    "plugin",
];
const EVALUATE_KEYS: &[&str] = &["metrics", "semantic_metrics", "weights", "max_text_chars", "max_pairs"];
const EMBEDDINGS_KEYS: &[&str] = &["model_dir", "url", "model", "api_key", "dimensions"];
const SERVER_KEYS: &[&str] = &["host", "api_port", "chat_port", "debug", "cors_origins", "max_body_kb"];
const PARAPHRASE_KEYS: &[&str] = &[
    "default_provider",
    "max_text_chars",
    "rate_limit_per_minute",
    "batch_max_size",
    "batch_max_workers",
    "max_concurrent_calls",
    "upstream_retries",
];
const CACHE_KEYS: &[&str] = &["type", "url", "ttl_secs", "max_entries"];
const CHAT_KEYS: &[&str] = &[
    "database_file",
    "model",
    "default_response",
    "default_genre",
    "max_message_chars",
    "max_name_chars",
    "max_situation_chars",
    "max_history_entries",
    "durability",
];
const RUNTIME_KEYS: &[&str] = &["cache_dir", "max_instances"];

fn build(path: Option<&Path>, text: Option<&str>, env: &Env, problems: &mut Vec<String>) -> Config {
    let mut config = defaults::config(env);
    config.file = path.map(Path::to_path_buf);
    let mut file_plugins = Vec::new();

    if let (Some(path), Some(text)) = (path, text) {
        match Reader::parse(path, text) {
            Err(e) => problems.push(e),
            Ok(doc) => {
                let mut reader = Reader::new(path, text);
                let root = Section::root(doc.get_ref());
                root.deny_unknown(&mut reader, ROOT_KEYS);
                read_sections(&root, &mut reader, &mut config, env);
                file_plugins = plugins::read(&root, &mut reader, env);
                problems.append(&mut reader.problems);
            }
        }
    }

    env::apply(&mut config, env, problems);
    config.plugins = plugins::merge(defaults::plugins(env, &config), file_plugins, env, problems);
    defaults::apply_seed_aliases(&mut config.plugins, env);
    plugins::apply_env_overrides(&mut config.plugins, env, problems);
    defaults::choose_default_provider(&mut config, env);
    validate(&config, problems);
    config
}

fn read_sections(root: &Section<'_, '_>, r: &mut Reader<'_>, c: &mut Config, env: &Env) {
    if let Some(s) = root.table(r, "server") {
        s.deny_unknown(r, SERVER_KEYS);
        if let Some(host) = s.string(r, "host") {
            match host.parse() {
                Ok(ip) => c.server.host = ip,
                Err(_) => {
                    r.problem(s.span_of("host"), &s.key("host"), format!("{host:?} is not an IP address"))
                }
            }
        }
        if let Some(v) = s.integer(r, "api_port", 0, 65535) {
            c.server.api_port = v as u16;
        }
        if let Some(v) = s.integer(r, "chat_port", 0, 65535) {
            c.server.chat_port = v as u16;
        }
        if let Some(v) = s.boolean(r, "debug") {
            c.server.debug = v;
        }
        if let Some(v) = s.strings(r, "cors_origins") {
            c.server.cors_origins = v;
        }
        if let Some(v) = s.integer(r, "max_body_kb", 1, 1 << 20) {
            c.server.max_body_bytes = v as usize * 1024;
        }
    }
    if let Some(s) = root.table(r, "logging") {
        s.deny_unknown(r, &["level"]);
        if let Some(v) = s.string(r, "level") {
            c.log_level = v;
        }
    }
    if let Some(s) = root.table(r, "paraphrase") {
        s.deny_unknown(r, PARAPHRASE_KEYS);
        if let Some(v) = s.string(r, "default_provider") {
            c.paraphrase.default_provider = v;
        }
        if let Some(v) = s.integer(r, "max_text_chars", 1, 10_000_000) {
            c.paraphrase.max_text_chars = v as usize;
        }
        if let Some(v) = s.integer(r, "rate_limit_per_minute", 1, 1_000_000) {
            c.paraphrase.rate_limit_per_minute = v as u32;
        }
        if let Some(v) = s.integer(r, "batch_max_size", 1, 100_000) {
            c.paraphrase.batch_max_size = v as usize;
        }
        if let Some(v) = s.integer(r, "batch_max_workers", 1, 1024) {
            c.paraphrase.batch_max_workers = v as usize;
        }
        if let Some(v) = s.integer(r, "max_concurrent_calls", 1, 65_536) {
            c.paraphrase.max_concurrent_calls = v as usize;
        }
        if let Some(v) = s.integer(r, "upstream_retries", 0, 10) {
            c.paraphrase.upstream_retries = v as u32;
        }
    }
    if let Some(s) = root.table(r, "cache") {
        s.deny_unknown(r, CACHE_KEYS);
        let url = s.string(r, "url");
        if let Some(kind) = s.string(r, "type") {
            match env::cache_kind(&kind, url.clone().unwrap_or_else(|| defaults::CACHE_STORE_URL.into())) {
                Ok(k) => c.paraphrase.cache.kind = k,
                Err(e) => r.problem(s.span_of("type"), &s.key("type"), e),
            }
        } else if let (Some(url), CacheKind::Redis { .. }) = (url, &c.paraphrase.cache.kind) {
            c.paraphrase.cache.kind = CacheKind::Redis { url };
        }
        if let Some(v) = s.integer(r, "ttl_secs", 0, 365 * 24 * 3600) {
            c.paraphrase.cache.ttl = Duration::from_secs(v as u64);
        }
        if let Some(v) = s.integer(r, "max_entries", 1, 100_000_000) {
            c.paraphrase.cache.max_entries = v as u64;
        }
    }
    if let Some(s) = root.table(r, "chat") {
        s.deny_unknown(r, CHAT_KEYS);
        if let Some(v) = s.string(r, "database_file") {
            c.chat.database_file = file::expand_home(&v, env);
        }
        if let Some(v) = s.string(r, "model") {
            c.chat.model = v;
        }
        if let Some(v) = s.string(r, "default_response") {
            c.chat.default_response = v;
        }
        if let Some(v) = s.string(r, "default_genre") {
            c.chat.default_genre = v;
        }
        if let Some(v) = s.integer(r, "max_message_chars", 1, 10_000_000) {
            c.chat.max_message_chars = v as usize;
        }
        if let Some(v) = s.integer(r, "max_name_chars", 1, 10_000) {
            c.chat.max_name_chars = v as usize;
        }
        if let Some(v) = s.integer(r, "max_situation_chars", 1, 10_000_000) {
            c.chat.max_situation_chars = v as usize;
        }
        if let Some(v) = s.integer(r, "max_history_entries", 1, 10_000_000) {
            c.chat.max_history_entries = v as usize;
        }
        if let Some(v) = s.string(r, "durability") {
            match v.as_str() {
                "normal" => c.chat.durability = crate::store::Durability::Normal,
                "full" => c.chat.durability = crate::store::Durability::Full,
                _ => r.problem(
                    s.span_of("durability"),
                    &s.key("durability"),
                    format!("{v:?} is not \"normal\" or \"full\""),
                ),
            }
        }
    }
    if let Some(s) = root.table(r, "evaluate") {
        s.deny_unknown(r, EVALUATE_KEYS);
        if let Some(v) = s.strings(r, "metrics") {
            c.evaluate.metrics = Some(v);
        }
        if let Some(v) = s.strings(r, "semantic_metrics") {
            c.evaluate.semantic_metrics = v;
        }
        if let Some(v) = s.integer(r, "max_text_chars", 1, 10_000_000) {
            c.evaluate.max_text_chars = v as usize;
        }
        if let Some(v) = s.integer(r, "max_pairs", 1, 10_000_000) {
            c.evaluate.max_pairs = v as usize;
        }
        if let Some(w) = s.table(r, "weights") {
            let mut entries = std::collections::BTreeMap::new();
            let names: Vec<String> = w.entries().map(|(k, _, _)| k.to_owned()).collect();
            for name in names {
                let Some(t) = w.table(r, &name) else { continue };
                t.deny_unknown(r, &["weight", "transform"]);
                let Some(weight) = t.number(r, "weight", 0.0, 1e6) else {
                    if t.span_of("weight") == 0 {
                        r.problem(w.span_of(&name), &w.key(&name), "needs a `weight`");
                    }
                    continue;
                };
                let transform = match t.string(r, "transform") {
                    None => crate::evaluate::weights::Transform::Identity,
                    Some(text) => match crate::evaluate::weights::Transform::parse(&text) {
                        Ok(tr) => tr,
                        Err(e) => {
                            r.problem(t.span_of("transform"), &t.key("transform"), e);
                            continue;
                        }
                    },
                };
                entries.insert(name, crate::evaluate::weights::Weight { weight, transform });
            }
            c.evaluate.weights = crate::evaluate::weights::Weights { entries };
        }
    }
    if let Some(s) = root.table(r, "embeddings") {
        s.deny_unknown(r, EMBEDDINGS_KEYS);
        let model_dir = s.string(r, "model_dir");
        let url = s.string(r, "url");
        match (model_dir, url) {
            (Some(dir), None) => {
                let dir = file::expand_home(&dir, env);
                let base = r.file.parent().map(Path::to_path_buf).unwrap_or_default();
                c.embeddings = Some(EmbeddingsConfig::Native {
                    model_dir: if dir.is_relative() { base.join(dir) } else { dir },
                });
            }
            (None, Some(url)) => {
                let model = s.string(r, "model").unwrap_or_default();
                if model.is_empty() {
                    r.problem(s.span_of("url"), &s.key("model"), "an embeddings `url` needs a `model`");
                }
                let api_key = s.table(r, "api_key").and_then(|t| {
                    t.deny_unknown(r, &["env", "file"]);
                    let source = SecretSource { env: t.string(r, "env"), file: t.string(r, "file") };
                    plugins::resolve_secret(&source, env)
                });
                let dimensions = s.integer(r, "dimensions", 1, 1 << 20).map(|d| d as u32);
                c.embeddings = Some(EmbeddingsConfig::OpenAi { url, model, api_key, dimensions });
            }
            (Some(_), Some(_)) => {
                r.problem(s.span_of("url"), &s.path, "set either `model_dir` or `url`, not both")
            }
            (None, None) => {}
        }
    }
    if let Some(s) = root.table(r, "tls") {
        s.deny_unknown(r, &["ca_file"]);
        if let Some(v) = s.string(r, "ca_file") {
            let path = file::expand_home(&v, env);
            let base = r.file.parent().map(Path::to_path_buf).unwrap_or_default();
            c.tls.ca_file = Some(if path.is_relative() { base.join(path) } else { path });
        }
    }
    if let Some(s) = root.table(r, "runtime") {
        s.deny_unknown(r, RUNTIME_KEYS);
        if let Some(v) = s.string(r, "cache_dir") {
            c.runtime.cache_dir = if v.is_empty() { None } else { Some(file::expand_home(&v, env)) };
        }
        if let Some(v) = s.integer(r, "max_instances", 1, 10_000) {
            c.runtime.max_instances = v as u32;
        }
    }
}

/// Checks that hold across sections: the plugins they name exist and are of the right kind.
fn validate(c: &Config, problems: &mut Vec<String>) {
    let mut need = |id: &str, kind: PluginKind, what: &str| match c.plugin(id) {
        Some(p) if p.kind == kind => {}
        Some(p) => {
            problems.push(format!("{what} names the plugin `{id}`, which is a {}, not a {kind}", p.kind))
        }
        None => {
            let known: Vec<&str> =
                c.plugins.iter().filter(|p| p.kind == kind).map(|p| p.id.as_str()).collect();
            problems.push(format!(
                "{what} names the plugin `{id}`, which is not configured (known: {})",
                known.join(", ")
            ))
        }
    };
    need(&c.paraphrase.default_provider, PluginKind::Provider, "paraphrase.default_provider");
    need(&c.chat.model, PluginKind::ChatModel, "chat.model");
    for id in c.evaluate.metrics.iter().flatten() {
        need(id, PluginKind::Metric, "evaluate.metrics");
    }
    if !matches!(
        c.log_level.to_ascii_lowercase().as_str(),
        "trace" | "debug" | "info" | "warn" | "warning" | "error" | "critical"
    ) {
        problems.push(format!(
            "LOG_LEVEL: {:?} is not a level (expected TRACE, DEBUG, INFO, WARNING, ERROR or CRITICAL)",
            c.log_level
        ));
    }
}

#[cfg(test)]
mod tests;
