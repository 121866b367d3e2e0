//! What Parlance does with no configuration at all: the seeds' defaults and the bundled plugins,
//! each bound to a plugin id with its upstream, key sources and limits.

use super::{
    CacheConfig, CacheKind, ChatConfig, Config, Env, EvaluateConfig, ParaphraseConfig, ServerConfig,
};
use crate::plugins::RuntimeSettings;
use crate::plugins::api::PluginKind;
use crate::plugins::spec::{ComponentSource, Limits, PluginSpec, SecretSource};
use std::net::{IpAddr, Ipv4Addr};
use std::time::Duration;

/// The seed's external cache store: a local address, port 6379, database 0.
pub const CACHE_STORE_URL: &str = "redis://localhost:6379/0";
pub const OPENROUTER_BASE_URL: &str = "https://openrouter.ai/api/v1";
pub const OPENROUTER_MODEL: &str = "deepseek/deepseek-chat-v3-0324:free";
pub const GEMINI_BASE_URL: &str = "https://generativelanguage.googleapis.com/v1beta";
pub const OFFLINE_PROVIDER: &str = "offline";
pub const OPENROUTER_PROVIDER: &str = "openrouter";
pub const FORM_CHAT_MODEL: &str = "form";

pub fn config(_env: &Env) -> Config {
    Config {
        file: None,
        log_level: "INFO".into(),
        server: ServerConfig {
            host: IpAddr::V4(Ipv4Addr::UNSPECIFIED),
            api_port: 8000,
            chat_port: 5000,
            debug: false,
            cors_origins: vec!["*".into()],
            // Large enough for 10 000 evaluation pairs in one batch.
            max_body_bytes: 10 * 1024 * 1024,
        },
        paraphrase: ParaphraseConfig {
            // Chosen after the plugins are known: see `choose_default_provider`.
            default_provider: String::new(),
            max_text_chars: 10_000,
            rate_limit_per_minute: 60,
            batch_max_size: 10,
            batch_max_workers: 4,
            max_concurrent_calls: 64,
            upstream_retries: 2,
            cache: CacheConfig {
                kind: CacheKind::Redis { url: CACHE_STORE_URL.into() },
                ttl: Duration::from_secs(3600),
                max_entries: 100_000,
            },
        },
        chat: ChatConfig {
            database_file: "dialogs.db".into(),
            model: FORM_CHAT_MODEL.into(),
            default_response: super::DEFAULT_RESPONSE.into(),
            default_genre: super::DEFAULT_GENRE.into(),
            max_message_chars: 4000,
            max_name_chars: 100,
            max_situation_chars: 2000,
            max_history_entries: 10_000,
            durability: crate::store::Durability::Normal,
        },
        evaluate: EvaluateConfig {
            metrics: None,
            semantic_metrics: vec!["semantic".into()],
            weights: crate::evaluate::weights::Weights::default(),
            max_text_chars: 10_000,
            max_pairs: 10_000,
        },
        embeddings: None,
        tls: Default::default(),
        runtime: RuntimeSettings::default(),
        plugins: Vec::new(),
    }
}

/// A default plugin whose only upstream is the origin of its `base_url` (or `model_url`): the
/// allow-list follows the URL, so pointing the URL elsewhere (by file or environment) also moves it.
fn remote(id: &str, kind: PluginKind, builtin: &str, url_key: &str, url: &str) -> PluginSpec {
    let mut spec = PluginSpec::new(id, kind, ComponentSource::Builtin(builtin.into()));
    spec.settings.insert(url_key.into(), url.into());
    spec.allowed_hosts_from = Some(url_key.into());
    spec
}

fn with_secret(mut spec: PluginSpec, key: &str, env_var: &str, file: &str, env: &Env) -> PluginSpec {
    let source = SecretSource { env: Some(env_var.into()), file: Some(file.into()) };
    if let Some(value) = super::plugins::resolve_secret(&source, env) {
        spec.settings.insert(key.into(), value);
    }
    spec.secrets.insert(key.into(), source);
    spec
}

fn local(id: &str, kind: PluginKind, builtin: &str, limits: Limits) -> PluginSpec {
    let mut spec = PluginSpec::new(id, kind, ComponentSource::Builtin(builtin.into()));
    spec.limits = limits;
    spec
}

/// The bundled plugins, bound to their default ids.
pub fn plugins(env: &Env, _config: &Config) -> Vec<PluginSpec> {
    let quick = Limits { timeout: Duration::from_secs(10), memory_bytes: 64 << 20, ..Limits::default() };
    let mut openrouter =
        remote(OPENROUTER_PROVIDER, PluginKind::Provider, "openai", "base_url", OPENROUTER_BASE_URL);
    openrouter.settings.insert("model".into(), OPENROUTER_MODEL.into());
    openrouter = with_secret(openrouter, "api_key", "PROVIDER_API_KEY", "~/.api-openrouter", env);
    openrouter.limits.timeout = Duration::from_secs(60);
    openrouter.limits.http_timeout = Duration::from_secs(55);

    let mut gemini = remote("gemini", PluginKind::Provider, "gemini", "base_url", GEMINI_BASE_URL);
    gemini = with_secret(gemini, "api_key", "GEMINI_API_KEY", "~/.api-gemini", env);
    gemini.limits = openrouter.limits;

    // The chat model of the original service; MODEL_URL moves it (see `apply_seed_aliases`).
    let form =
        remote(FORM_CHAT_MODEL, PluginKind::ChatModel, "form-chat", "model_url", super::DEFAULT_MODEL_URL);
    let mut openai_chat =
        remote("openai-chat", PluginKind::ChatModel, "openai-chat", "base_url", OPENROUTER_BASE_URL);
    openai_chat.settings.insert("model".into(), OPENROUTER_MODEL.into());
    openai_chat = with_secret(openai_chat, "api_key", "PROVIDER_API_KEY", "~/.api-openrouter", env);
    openai_chat.limits = openrouter.limits;

    vec![
        local(OFFLINE_PROVIDER, PluginKind::Provider, "offline", quick),
        openrouter,
        gemini,
        form,
        openai_chat,
        local("lexical", PluginKind::Metric, "lexical", quick),
        local("structural", PluginKind::Metric, "structural", quick),
        local("bleu", PluginKind::Metric, "bleu", quick),
        local("rouge", PluginKind::Metric, "rouge", quick),
        local(
            "semantic",
            PluginKind::Metric,
            "semantic",
            Limits { timeout: Duration::from_secs(120), ..quick },
        ),
    ]
}

/// `openrouter` when its key is configured, otherwise `offline`, unless the operator chose.
pub fn choose_default_provider(c: &mut Config, _env: &Env) {
    if !c.paraphrase.default_provider.is_empty() {
        return;
    }
    let openrouter_ready = c
        .plugin(OPENROUTER_PROVIDER)
        .is_some_and(|p| p.kind == PluginKind::Provider && p.settings.contains_key("api_key"));
    c.paraphrase.default_provider =
        if openrouter_ready { OPENROUTER_PROVIDER } else { OFFLINE_PROVIDER }.to_owned();
}

/// The seed's variables that configure a bundled plugin: `MODEL_URL` is the `form` chat model's
/// `model_url`. Applied after the file, since the environment wins.
pub fn apply_seed_aliases(plugins: &mut [PluginSpec], env: &Env) {
    if let (Some(url), Some(form)) =
        (env.get("MODEL_URL"), plugins.iter_mut().find(|p| p.id == FORM_CHAT_MODEL))
    {
        form.settings.insert("model_url".into(), url.to_owned());
    }
}
