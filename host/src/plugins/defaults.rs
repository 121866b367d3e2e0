//! The bundled plugins as Parlance runs them with no configuration: each bound to its default id,
//! with its upstream, key sources and limits; and the seed's variables that configure them.

use super::api::PluginKind;
use super::spec::{
    ComponentSource, HistorySetting, HistoryWindow, HostedUpstream, Limits, PluginSpec, SecretSource,
};
use crate::config::{Env, Row};
use std::time::Duration;

pub const OPENROUTER_BASE_URL: &str = "https://openrouter.ai/api/v1";
pub const OPENROUTER_MODEL: &str = "deepseek/deepseek-chat-v3-0324:free";
pub const GEMINI_BASE_URL: &str = "https://generativelanguage.googleapis.com/v1beta";
/// The seed's model endpoint: a local HTTP address, port 80, path `/path/`.
pub const DEFAULT_MODEL_URL: &str = "http://localhost:80/path/";
pub const OFFLINE_PROVIDER: &str = "offline";
pub const OPENROUTER_PROVIDER: &str = "openrouter";
pub const FORM_CHAT_MODEL: &str = "form";

/// The seed's variables that set a bundled plugin's setting: (variable, plugin id, setting, what it
/// is). The environment wins over the file.
const SEED_ALIASES: &[(&str, &str, &str, &str)] =
    &[("MODEL_URL", FORM_CHAT_MODEL, "model_url", "The `form` chat model's endpoint")];

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
    if let Some(value) = source.resolve(env) {
        spec.settings.insert(key.into(), value);
    }
    spec.secrets.insert(key.into(), source);
    spec
}

/// The secret `key` is the hosted upstream's, the URL the spec starts at: needed while the URL stays
/// there, not once the operator points it at a server of their own, which may want no key.
fn only_hosted_needs(mut spec: PluginSpec, key: &str) -> PluginSpec {
    if let Some(setting) = spec.allowed_hosts_from.clone()
        && let Some(url) = spec.settings.get(&setting).cloned()
    {
        spec.hosted = Some(HostedUpstream { setting, url, secrets: vec![key.into()] });
    }
    spec
}

fn local(id: &str, kind: PluginKind, builtin: &str, limits: Limits) -> PluginSpec {
    let mut spec = PluginSpec::new(id, kind, ComponentSource::Builtin(builtin.into()));
    spec.limits = limits;
    spec
}

/// The bundled plugins, bound to their default ids, with their secrets read from `env`.
pub fn plugins(env: &Env) -> Vec<PluginSpec> {
    let quick = Limits { timeout: Duration::from_secs(10), memory_bytes: 64 << 20, ..Limits::default() };
    let mut openrouter =
        remote(OPENROUTER_PROVIDER, PluginKind::Provider, "openai", "base_url", OPENROUTER_BASE_URL);
    openrouter.settings.insert("model".into(), OPENROUTER_MODEL.into());
    openrouter = with_secret(openrouter, "api_key", "PROVIDER_API_KEY", "~/.api-openrouter", env);
    openrouter = only_hosted_needs(openrouter, "api_key");
    openrouter.limits.timeout = Duration::from_secs(60);
    openrouter.limits.http_timeout = Duration::from_secs(55);

    let mut gemini = remote("gemini", PluginKind::Provider, "gemini", "base_url", GEMINI_BASE_URL);
    gemini = with_secret(gemini, "api_key", "GEMINI_API_KEY", "~/.api-gemini", env);
    gemini.limits = openrouter.limits;

    // The chat model of the original service; MODEL_URL moves it (see `apply_seed_aliases`).
    let mut form =
        remote(FORM_CHAT_MODEL, PluginKind::ChatModel, "form-chat", "model_url", DEFAULT_MODEL_URL);
    // The form model's prompt keeps its last `prompt_max_chars` characters, the chat-completions
    // model its last `max_history` entries: the history window is exactly what each reads.
    form.history_from =
        Some(HistorySetting { key: "prompt_max_chars", default: 2048, window: HistoryWindow::Chars });
    let mut openai_chat =
        remote("openai-chat", PluginKind::ChatModel, "openai-chat", "base_url", OPENROUTER_BASE_URL);
    openai_chat.settings.insert("model".into(), OPENROUTER_MODEL.into());
    // Its own `base_url` and `model`, which start where `openrouter`'s do but do not follow them.
    openai_chat = with_secret(openai_chat, "api_key", "PROVIDER_API_KEY", "~/.api-openrouter", env);
    openai_chat = only_hosted_needs(openai_chat, "api_key");
    openai_chat.limits = openrouter.limits;
    openai_chat.history_from =
        Some(HistorySetting { key: "max_history", default: 50, window: HistoryWindow::Entries });

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

/// Applies the seed's variables that configure a bundled plugin (`MODEL_URL`), after the file, since
/// the environment wins.
pub fn apply_seed_aliases(plugins: &mut [PluginSpec], env: &Env) {
    for (variable, id, key, _) in SEED_ALIASES {
        if let (Some(value), Some(spec)) = (env.get(variable), plugins.iter_mut().find(|p| p.id == *id)) {
            spec.settings.insert((*key).into(), value.to_owned());
        }
    }
}

/// The documentation rows of the variables that configure plugins: the bundled plugins' key
/// variables, the seed's aliases, and `PARLANCE_PLUGIN_<ID>_<KEY>`.
pub fn rows() -> Vec<Row> {
    let bundled = plugins(&Env::empty());
    let mut rows = Vec::new();
    // (variable, plugin ids, secret, key file): one row per variable, which several plugins may share.
    let mut keys: Vec<(&str, Vec<&str>, &str, &str)> = Vec::new();
    for spec in &bundled {
        for (secret, source) in &spec.secrets {
            let (Some(variable), Some(file)) = (source.env.as_deref(), source.file.as_deref()) else {
                continue;
            };
            match keys.iter_mut().find(|(v, ..)| *v == variable) {
                Some((_, ids, ..)) => ids.push(&spec.id),
                None => keys.push((variable, vec![&spec.id], secret, file)),
            }
        }
    }
    for (variable, ids, secret, file) in keys {
        let key = format!("[[plugin]] {} secrets.{secret}", ids.join(", "));
        let ids: Vec<String> = ids.iter().map(|id| format!("`{id}`")).collect();
        rows.push(Row {
            key,
            env: Some(variable.to_owned()),
            expected: "a key".into(),
            default: "none".into(),
            doc: format!("The API key of {} (also read from `{file}`)", ids.join(" and ")),
        });
    }
    for (variable, id, key, doc) in SEED_ALIASES {
        let default = bundled
            .iter()
            .find(|p| p.id == *id)
            .and_then(|p| p.settings.get(*key))
            .map_or_else(|| "none".into(), |v| format!("`{v}`"));
        rows.push(Row {
            key: format!("[[plugin]] {id} config.{key}"),
            env: Some((*variable).to_owned()),
            expected: "a URL".into(),
            default,
            doc: (*doc).to_owned(),
        });
    }
    rows
}
