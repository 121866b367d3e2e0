//! The whole configuration: every module's section and the plugins, read from the built-in defaults,
//! then `parlance.toml`, then the environment (including `.env`), and checked across sections.
//!
//! Each section is declared by the module it configures (`[chat]` by `chat`, `[cache]` by `cache`, …);
//! this module only lists them, which is why it sits above the domains.

use crate::cache::CacheConfig;
use crate::chat::ChatConfig;
use crate::config::{self, ConfigError, Env, Reader, Row, Section, Sources, Table};
use crate::embeddings::{BackendChoice, EmbeddingsConfig};
use crate::evaluate::EvaluateConfig;
use crate::fallback::FallbackConfig;
use crate::http::{AdminConfig, AuthConfig, ServerConfig};
use crate::oci::RegistryConfig;
use crate::openai::OpenAiConfig;
use crate::paraphrase::ParaphraseConfig;
use crate::paraphrase::jobs::JobsConfig;
use crate::plugins::RuntimeConfig;
use crate::plugins::api::PluginKind;
use crate::plugins::defaults::{OFFLINE_PROVIDER, OPENROUTER_PROVIDER};
use crate::plugins::spec::PluginSpec;
use crate::store::StoreConfig;
use crate::telemetry::{LoggingConfig, TelemetryConfig};
use crate::upstream::TlsConfig;
use crate::usage::UsageConfig;
use std::path::{Path, PathBuf};

#[derive(Clone, Debug)]
pub struct Config {
    /// The file the configuration came from, if any.
    pub file: Option<PathBuf>,
    pub logging: LoggingConfig,
    pub telemetry: TelemetryConfig,
    pub server: ServerConfig,
    pub auth: AuthConfig,
    /// The admin API's credential, read and hashed.
    pub admin: AdminConfig,
    pub paraphrase: ParaphraseConfig,
    pub jobs: JobsConfig,
    pub cache: CacheConfig,
    pub store: StoreConfig,
    pub chat: ChatConfig,
    pub openai: OpenAiConfig,
    pub evaluate: EvaluateConfig,
    pub fallback: FallbackConfig,
    /// The embedding backend, when one is configured.
    pub embeddings: Option<BackendChoice>,
    /// The CA certificates outbound TLS trusts besides the webpki roots.
    pub tls: TlsConfig,
    pub runtime: RuntimeConfig,
    pub usage: UsageConfig,
    pub plugins: Vec<PluginSpec>,
    /// Keys read where they used to belong, one line per table, for the log once it is set up
    /// ([`Config::warn_deprecated`]).
    pub deprecated: Vec<String>,
}

/// A section's documentation rows.
type Rows = fn() -> Vec<Row>;

/// Every section, in the order the documentation lists them, with its table's name.
const SECTIONS: &[(&str, Rows)] = &[
    (LoggingConfig::NAME, config::rows::<LoggingConfig>),
    (TelemetryConfig::NAME, config::rows::<TelemetryConfig>),
    (ServerConfig::NAME, config::rows::<ServerConfig>),
    (AuthConfig::NAME, config::rows::<AuthConfig>),
    (AdminConfig::NAME, config::rows::<AdminConfig>),
    (ParaphraseConfig::NAME, config::rows::<ParaphraseConfig>),
    (JobsConfig::NAME, config::rows::<JobsConfig>),
    (CacheConfig::NAME, config::rows::<CacheConfig>),
    (StoreConfig::NAME, config::rows::<StoreConfig>),
    (ChatConfig::NAME, config::rows::<ChatConfig>),
    (OpenAiConfig::NAME, config::rows::<OpenAiConfig>),
    (EvaluateConfig::NAME, config::rows::<EvaluateConfig>),
    (FallbackConfig::NAME, config::rows::<FallbackConfig>),
    (EmbeddingsConfig::NAME, config::rows::<EmbeddingsConfig>),
    (TlsConfig::NAME, config::rows::<TlsConfig>),
    (RuntimeConfig::NAME, config::rows::<RuntimeConfig>),
    (RegistryConfig::NAME, config::rows::<RegistryConfig>),
    (UsageConfig::NAME, config::rows::<UsageConfig>),
];

impl Config {
    /// Loads the configuration the way the binary does: the process environment with `./.env`, and
    /// the file named explicitly, else by `PARLANCE_CONFIG`, else `./parlance.toml` if present.
    pub fn load(explicit_file: Option<&Path>) -> Result<Config, ConfigError> {
        Config::from_env(explicit_file, &Env::load()?)
    }

    /// Builds the configuration from an explicit environment, for embedding and tests.
    pub fn from_env(explicit_file: Option<&Path>, env: &Env) -> Result<Config, ConfigError> {
        let file = config::file_to_read(explicit_file, env);
        let text = match &file {
            Some(path) => Some(std::fs::read_to_string(path).map_err(|e| {
                ConfigError::one(format!("{}: cannot read the configuration file: {e}", path.display()))
            })?),
            None => None,
        };
        let doc = match (&file, &text) {
            (Some(path), Some(text)) => Some(Reader::parse(path, text).map_err(ConfigError::one)?),
            _ => None,
        };
        let layers = match (&file, &text, &doc) {
            (Some(path), Some(text), Some(doc)) => {
                let mut reader = Reader::new(path, text);
                let root = Table::root(doc.get_ref());
                let tables: Vec<&str> = SECTIONS.iter().map(|(name, _)| *name).chain(["plugin"]).collect();
                root.deny_unknown(&mut reader, &tables);
                Some((root, reader))
            }
            _ => None,
        };
        let mut sources = Sources::new(layers, env);
        let logging = sources.section::<LoggingConfig>();
        let telemetry = sources.section::<TelemetryConfig>().with_standard_variables(env);
        let server = sources.section::<ServerConfig>();
        let auth = sources.section::<AuthConfig>();
        let admin = sources.section::<AdminConfig>();
        let paraphrase = sources.section::<ParaphraseConfig>();
        let jobs = sources.section::<JobsConfig>();
        let cache = sources.section::<CacheConfig>();
        // Before `[chat]`, which still holds its old keys.
        let store = sources.section::<StoreConfig>();
        let chat = sources.section::<ChatConfig>();
        let openai = sources.section::<OpenAiConfig>();
        let evaluate = sources.section::<EvaluateConfig>();
        let fallback = sources.section::<FallbackConfig>();
        let embeddings = sources.section::<EmbeddingsConfig>().resolve(env);
        let tls = sources.section::<TlsConfig>();
        let mut runtime = sources.section::<RuntimeConfig>();
        runtime.registry =
            std::sync::Arc::new(sources.section::<RegistryConfig>().resolve(file.as_deref(), env));
        let usage = sources.section::<UsageConfig>();
        let file_plugins = match sources.file() {
            Some((root, reader)) => crate::plugins::tables::read(root, reader, env),
            None => Vec::new(),
        };
        let (mut problems, deprecated) = sources.finish();
        let admin = admin.resolve(env, &mut problems);

        let defaults = crate::plugins::defaults::plugins(env);
        let mut plugins = crate::plugins::tables::merge(defaults, file_plugins, env, &mut problems);
        crate::plugins::defaults::apply_seed_aliases(&mut plugins, env);
        crate::plugins::tables::apply_env_overrides(&mut plugins, env, &mut problems);
        let mut config = Config {
            file,
            logging,
            telemetry,
            server,
            auth,
            admin,
            paraphrase,
            jobs,
            cache,
            store,
            chat,
            openai,
            evaluate,
            fallback,
            embeddings,
            tls,
            runtime,
            usage,
            plugins,
            deprecated,
        };
        config.choose_default_provider();
        config.share_instances();
        config.validate(&mut problems);
        if problems.is_empty() { Ok(config) } else { Err(ConfigError { problems }) }
    }

    /// Logs the deprecated keys that were read, one warning per table.
    pub fn warn_deprecated(&self) {
        for line in &self.deprecated {
            tracing::warn!("{line}");
        }
    }

    pub fn plugin(&self, id: &str) -> Option<&PluginSpec> {
        self.plugins.iter().find(|p| p.id == id)
    }

    /// `openrouter` when its key is configured, otherwise `offline`, unless the operator chose.
    fn choose_default_provider(&mut self) {
        if self.paraphrase.default_provider.is_some() {
            return;
        }
        let openrouter_ready = self
            .plugin(OPENROUTER_PROVIDER)
            .is_some_and(|p| p.kind == PluginKind::Provider && p.settings.contains_key("api_key"));
        self.paraphrase.default_provider =
            Some(if openrouter_ready { OPENROUTER_PROVIDER } else { OFFLINE_PROVIDER }.to_owned());
    }

    /// A provider's calls in flight are its share of the instance pool: `max_concurrent_calls`, at
    /// most half the pool, unless its own limits set one.
    fn share_instances(&mut self) {
        let half = (self.runtime.max_instances / 2).max(1);
        let share = u32::try_from(self.paraphrase.max_concurrent_calls).unwrap_or(u32::MAX).min(half);
        for spec in self.plugins.iter_mut().filter(|p| p.kind == PluginKind::Provider) {
            spec.limits.max_instances.get_or_insert(share);
        }
    }

    /// Checks that hold across sections: the plugins they name exist and are of the right kind.
    fn validate(&self, problems: &mut Vec<String>) {
        let mut need = |id: &str, kind: PluginKind, what: &str| match self.plugin(id) {
            Some(p) if p.kind == kind => {}
            Some(p) => {
                problems.push(format!("{what} names the plugin `{id}`, which is a {}, not a {kind}", p.kind))
            }
            None => {
                let known: Vec<&str> =
                    self.plugins.iter().filter(|p| p.kind == kind).map(|p| p.id.as_str()).collect();
                problems.push(format!(
                    "{what} names the plugin `{id}`, which is not configured (known: {})",
                    known.join(", ")
                ))
            }
        };
        need(self.paraphrase.default_provider(), PluginKind::Provider, "paraphrase.default_provider");
        need(&self.chat.model, PluginKind::ChatModel, "chat.model");
        for id in self.evaluate.metrics.iter().flatten() {
            need(id, PluginKind::Metric, "evaluate.metrics");
        }
        // A chain is its plugin's list alone (the members' own chains are not followed), so two
        // plugins may name each other without a loop; only naming itself or a member twice is wrong.
        let mut repeated = Vec::new();
        for spec in &self.plugins {
            let what = format!("plugin `{}`: `fallbacks`", spec.id);
            for (i, id) in spec.fallbacks.iter().enumerate() {
                if *id == spec.id {
                    repeated
                        .push(format!("{what} names the plugin itself; its chain already starts with it"));
                } else if spec.fallbacks[..i].contains(id) {
                    repeated.push(format!("{what} names `{id}` twice"));
                } else {
                    need(id, spec.kind, &what);
                }
            }
        }
        problems.extend(repeated);
    }

    /// The rows of the README's configuration table: every setting of every section, then the
    /// variables that configure plugins.
    pub fn documentation() -> Vec<Row> {
        let mut rows: Vec<Row> = SECTIONS.iter().flat_map(|(_, rows)| rows()).collect();
        rows.extend(crate::plugins::defaults::rows());
        rows
    }
}

#[cfg(test)]
mod tests;
