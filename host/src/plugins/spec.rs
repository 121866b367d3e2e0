//! What the operator decided about one plugin: its id, its component, what it may reach, its settings
//! and secrets, and its limits. Built by `config`, consumed by the runtime.

use super::api::PluginKind;
pub use crate::config::SecretSource;
use std::collections::BTreeMap;
use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

/// Where a plugin's component comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ComponentSource {
    /// One of the components embedded in the binary, by name (`builtin:offline`).
    Builtin(String),
    /// A `.wasm` component on disk.
    File(PathBuf),
    /// A component in an OCI registry (`oci://…`), pulled by digest into the registry cache.
    Oci(crate::oci::Reference),
}

impl fmt::Display for ComponentSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ComponentSource::Builtin(name) => write!(f, "builtin:{name}"),
            ComponentSource::File(path) => write!(f, "{}", path.display()),
            ComponentSource::Oci(reference) => write!(f, "{reference}"),
        }
    }
}

/// Resource limits of one plugin call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Wall-clock limit of one call, instantiation included.
    pub timeout: Duration,
    /// Cap on the linear memory of one instance, all of its memories together.
    pub memory_bytes: u64,
    /// Limit on connecting to an upstream, on its first byte, and on each gap between body chunks.
    pub http_timeout: Duration,
    /// Cap on the size of one upstream response body.
    pub max_response_bytes: u64,
    /// The most instances of this plugin alive at once; half the pool when unset, so that no plugin
    /// (a slow upstream, say) can hold every slot.
    pub max_instances: Option<u32>,
}

impl Limits {
    pub const DEFAULT_TIMEOUT_MS: u64 = 30_000;
    pub const DEFAULT_MEMORY_MB: u64 = 128;
    pub const DEFAULT_HTTP_TIMEOUT_MS: u64 = 30_000;
    pub const DEFAULT_MAX_RESPONSE_KB: u64 = 4096;
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            timeout: Duration::from_millis(Self::DEFAULT_TIMEOUT_MS),
            memory_bytes: Self::DEFAULT_MEMORY_MB * 1024 * 1024,
            http_timeout: Duration::from_millis(Self::DEFAULT_HTTP_TIMEOUT_MS),
            max_response_bytes: Self::DEFAULT_MAX_RESPONSE_KB * 1024,
            max_instances: None,
        }
    }
}

/// Capabilities beyond the default sandbox, granted only when the operator asks.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Grants {
    /// Environment variables the plugin sees, with their values.
    pub env: Vec<(String, String)>,
    /// A host directory the plugin may read, mounted at `/data`.
    pub read_dir: Option<PathBuf>,
}

/// One entry of `allowed_hosts`: `scheme://host[:port]`, where host may start with `*.` and port may
/// be `*`. Without a port, the scheme's default port is meant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HostPattern {
    pub scheme: String,
    pub host: String,
    /// `None` means any port.
    pub port: Option<u16>,
}

impl HostPattern {
    pub fn parse(text: &str) -> Result<HostPattern, String> {
        let (scheme, rest) =
            text.split_once("://").ok_or_else(|| format!("{text:?} must start with http:// or https://"))?;
        let scheme = scheme.to_ascii_lowercase();
        let default_port = match scheme.as_str() {
            "http" => 80,
            "https" => 443,
            _ => return Err(format!("{text:?} uses the scheme {scheme:?}; only http and https are allowed")),
        };
        let authority = rest.trim_end_matches('/');
        if authority.contains('/') || authority.contains('?') || authority.contains('@') {
            return Err(format!("{text:?} must be only scheme://host[:port], without a path or user"));
        }
        let (host, port) =
            split_host_port(authority).ok_or_else(|| format!("{text:?} has an invalid port"))?;
        if host.is_empty() {
            return Err(format!("{text:?} has no host"));
        }
        let port = match port {
            None => Some(default_port),
            Some("*") => None,
            Some(p) => Some(p.parse().map_err(|_| format!("{text:?} has an invalid port {p:?}"))?),
        };
        Ok(HostPattern { scheme, host: host.to_ascii_lowercase(), port })
    }

    /// The pattern that allows exactly the origin of `url` (used when a plugin's base URL implies its
    /// only upstream).
    pub fn origin_of(url: &str) -> Result<HostPattern, String> {
        let (scheme, rest) =
            url.split_once("://").ok_or_else(|| format!("{url:?} is not an absolute URL"))?;
        let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
        HostPattern::parse(&format!("{scheme}://{authority}"))
    }

    pub fn allows(&self, scheme: &str, host: &str, port: u16) -> bool {
        if !self.scheme.eq_ignore_ascii_case(scheme) || self.port.is_some_and(|p| p != port) {
            return false;
        }
        let host = host.trim_end_matches('.').to_ascii_lowercase();
        match self.host.strip_prefix("*.") {
            Some(suffix) => host.len() > suffix.len() + 1 && host.ends_with(&format!(".{suffix}")),
            None => host == self.host,
        }
    }
}

impl fmt::Display for HostPattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.port {
            Some(port) => write!(f, "{}://{}:{port}", self.scheme, self.host),
            None => write!(f, "{}://{}:*", self.scheme, self.host),
        }
    }
}

/// Splits `host[:port]`, where host may be a bracketed IPv6 literal. `None` for a malformed authority.
pub fn split_host_port(authority: &str) -> Option<(&str, Option<&str>)> {
    if let Some(rest) = authority.strip_prefix('[') {
        let (host, after) = rest.split_once(']')?;
        return match after {
            "" => Some((host, None)),
            _ => Some((host, Some(after.strip_prefix(':')?))),
        };
    }
    match authority.rsplit_once(':') {
        Some((host, port)) => Some((host, Some(port))),
        None => Some((authority, None)),
    }
}

/// How much of a dialog a chat model is given with each message. The dialog is stored whole; the model
/// gets only its newest entries within this window, so a chat costs the same however long the dialog.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HistoryWindow {
    /// Every entry: what a chat model gets that declares no window.
    Whole,
    /// The newest `n` entries.
    Entries(usize),
    /// The fewest newest entries whose names and messages hold at least `n` characters together, or
    /// every entry when the whole dialog holds fewer. A model whose prompt keeps its last `n`
    /// characters reads exactly what it would have read of the whole dialog.
    Chars(usize),
}

/// A bundled chat model's own setting that bounds what it reads of the history, so that the window
/// follows the setting when the operator changes it.
#[derive(Clone, Copy, Debug)]
pub struct HistorySetting {
    pub key: &'static str,
    /// The plugin's own default for the setting.
    pub default: usize,
    pub window: fn(usize) -> HistoryWindow,
}

/// A bundled plugin's hosted upstream, whose secrets only it needs: while the URL setting is the hosted
/// default, a secret without a value leaves the plugin unavailable; once the operator points it at a
/// server of their own (Ollama's `/v1`, vLLM, llama.cpp, LM Studio), which may want no key, the plugin
/// serves and calls without it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HostedUpstream {
    /// The setting that holds the upstream's URL (`base_url`).
    pub setting: String,
    /// Its hosted default (`https://openrouter.ai/api/v1`).
    pub url: String,
    /// The secrets only the hosted upstream needs (`api_key`). A secret the operator declares again
    /// in a `[[plugin]]` table is no longer listed: it is needed wherever the URL points.
    pub secrets: Vec<String>,
}

impl HostedUpstream {
    /// Whether `settings` still point at the hosted default (a trailing `/` aside). A URL setting
    /// that is not there at all counts as the default: nothing moved it.
    pub fn in_use(&self, settings: &BTreeMap<String, String>) -> bool {
        settings
            .get(&self.setting)
            .is_none_or(|url| url.trim().trim_end_matches('/') == self.url.trim_end_matches('/'))
    }
}

/// Everything the runtime needs to load and call one plugin.
#[derive(Clone, Debug)]
pub struct PluginSpec {
    /// The name clients and config use, such as `openrouter`.
    pub id: String,
    pub kind: PluginKind,
    pub component: ComponentSource,
    pub allowed_hosts: Vec<HostPattern>,
    /// When set, the origin of this setting's URL is allowed too (the bundled remote plugins use it,
    /// so that moving `base_url` moves the allow-list with it).
    pub allowed_hosts_from: Option<String>,
    /// `config` values and resolved secrets, as the plugin sees them through `host.config`.
    pub settings: BTreeMap<String, String>,
    /// The declared secrets and where each comes from. Their values are in `settings` when found,
    /// and are never logged or listed.
    pub secrets: BTreeMap<String, SecretSource>,
    /// The hosted upstream whose secrets are needed only while the URL points there (the bundled
    /// `openrouter` and `openai-chat`).
    pub hosted: Option<HostedUpstream>,
    pub limits: Limits,
    pub grants: Grants,
    /// Calls per client per minute the operator set for this plugin (`0` lifts the limit). `None`
    /// leaves it to the rule of [`crate::ratelimit::Quota::for_plugin`].
    pub rate_limit_per_minute: Option<u32>,
    /// The history window of a chat model the operator set (`history_entries`, `history_chars`).
    pub history: Option<HistoryWindow>,
    /// The bundled chat models' window, read from their own prompt-bounding setting.
    pub history_from: Option<HistorySetting>,
    /// `file:line` of the `[[plugin]]` table that configured it, for messages about it.
    pub declared_at: Option<String>,
    /// The plugins, of its kind, that serve a request in order when it fails (its chain after it).
    pub fallbacks: Vec<String>,
    /// What its upstream charges per model (`[plugin.prices.MODEL]`); a model without a price is
    /// recorded with its tokens and no cost.
    pub prices: super::price::Prices,
}

impl PluginSpec {
    pub fn new(id: &str, kind: PluginKind, component: ComponentSource) -> Self {
        PluginSpec {
            id: id.to_owned(),
            kind,
            component,
            allowed_hosts: Vec::new(),
            allowed_hosts_from: None,
            settings: BTreeMap::new(),
            secrets: BTreeMap::new(),
            hosted: None,
            limits: Limits::default(),
            grants: Grants::default(),
            rate_limit_per_minute: None,
            history: None,
            history_from: None,
            declared_at: None,
            fallbacks: Vec::new(),
            prices: Default::default(),
        }
    }

    /// Whether its outbound HTTP may reach anything: a plugin that cannot has no upstream to protect.
    pub fn reaches_upstream(&self) -> bool {
        !self.allowed_hosts.is_empty()
    }

    /// Whether its calls may cost anything: only an upstream bills, so a plugin that can reach none
    /// (the offline provider, the metrics) uses zero tokens at zero cost.
    pub fn billed(&self) -> bool {
        self.reaches_upstream() || self.allowed_hosts_from.is_some()
    }

    /// How much of a dialog a chat model is given: what the operator set, else what its own setting
    /// bounds it to, else the whole dialog.
    pub fn history_window(&self) -> HistoryWindow {
        if let Some(window) = self.history {
            return window;
        }
        match self.history_from {
            Some(from) => {
                let set = self.settings.get(from.key).and_then(|v| v.trim().parse().ok());
                (from.window)(set.unwrap_or(from.default))
            }
            None => HistoryWindow::Whole,
        }
    }

    /// The settings a plugin sees, with secret values masked, for listings and logs.
    pub fn visible_settings(&self) -> BTreeMap<String, String> {
        self.settings
            .iter()
            .map(|(k, v)| {
                (k.clone(), if self.secrets.contains_key(k) { "(secret)".into() } else { v.clone() })
            })
            .collect()
    }

    /// Declared secrets that resolved to no value and are needed: a hosted upstream's secret is not
    /// missing once the URL points elsewhere.
    pub fn missing_secrets(&self) -> Vec<&str> {
        self.secrets
            .keys()
            .filter(|k| !self.settings.contains_key(*k) && self.needs_secret(k))
            .map(String::as_str)
            .collect()
    }

    /// Whether the secret `key` must have a value for the plugin to serve.
    fn needs_secret(&self, key: &str) -> bool {
        match &self.hosted {
            Some(hosted) if hosted.secrets.iter().any(|s| s == key) => hosted.in_use(&self.settings),
            _ => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_patterns() {
        let p = HostPattern::parse("https://openrouter.ai").unwrap();
        assert!(p.allows("https", "openrouter.ai", 443));
        assert!(p.allows("https", "OpenRouter.AI.", 443));
        assert!(!p.allows("http", "openrouter.ai", 443));
        assert!(!p.allows("https", "openrouter.ai", 8443));
        assert!(!p.allows("https", "evil-openrouter.ai", 443));

        let p = HostPattern::parse("http://127.0.0.1:8080/").unwrap();
        assert!(p.allows("http", "127.0.0.1", 8080));
        assert!(!p.allows("http", "127.0.0.1", 8081));

        let p = HostPattern::parse("https://*.googleapis.com:*").unwrap();
        assert!(p.allows("https", "generativelanguage.googleapis.com", 443));
        assert!(p.allows("https", "a.googleapis.com", 1));
        assert!(!p.allows("https", "googleapis.com", 443));
        assert!(!p.allows("https", "x.googleapis.com.evil", 443));

        let p = HostPattern::parse("http://[::1]:9000").unwrap();
        assert!(p.allows("http", "::1", 9000));

        for bad in ["openrouter.ai", "ftp://x", "https://", "https://x/path", "http://x:99999", "http://u@x"]
        {
            assert!(HostPattern::parse(bad).is_err(), "{bad} should be rejected");
        }
        assert_eq!(
            HostPattern::origin_of("http://127.0.0.1:9/v1/chat").unwrap().to_string(),
            "http://127.0.0.1:9"
        );
    }
}
