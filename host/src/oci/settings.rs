//! The `[registry]` section: where pulled components are cached, the lock that pins them, which
//! credentials and transports a pull may use, and how much it may take.

use crate::config::{Env, FromValue, Kind, Section, Setting, Value, setting};
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The lock file's name, beside the configuration file (or in the working folder without one).
pub const LOCK_FILE: &str = "parlance.lock";

#[derive(Clone, PartialEq, Eq)]
pub struct RegistryConfig {
    /// The content-addressed store of pulled manifests and components.
    pub cache_dir: PathBuf,
    /// The lock; `None` until resolved (`parlance.lock` beside the configuration file).
    pub lock_file: Option<PathBuf>,
    /// A Docker/Podman `auth.json`; `None` searches where Podman and Docker keep theirs.
    pub auth_file: Option<PathBuf>,
    /// Registries (`host` or `host:port`) reached over plain HTTP although not on this machine.
    pub insecure: Vec<String>,
    /// Limit on connecting, on the first byte of an answer, and on each gap in a body.
    pub timeout_ms: u64,
    /// Limit on one whole pull: manifest, token and component.
    pub pull_timeout_ms: u64,
    /// The largest component a pull accepts.
    pub max_component_mb: u64,
    /// Not a setting: `PARLANCE_REGISTRY_USERNAME` and `PARLANCE_REGISTRY_PASSWORD`, which every
    /// registry is offered before an `auth.json` entry; never printed.
    pub credentials: Option<Credentials>,
    /// Not a setting: the `auth.json` files looked for when `auth_file` is unset, in order.
    pub auth_search: Vec<PathBuf>,
}

/// A user name and password (or token) for a registry's Basic or token authentication.
#[derive(Clone, PartialEq, Eq)]
pub struct Credentials {
    pub username: String,
    pub password: String,
}

impl fmt::Debug for Credentials {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Credentials {{ username: {:?}, password: <redacted> }}", self.username)
    }
}

impl fmt::Debug for RegistryConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RegistryConfig")
            .field("cache_dir", &self.cache_dir)
            .field("lock_file", &self.lock_file)
            .field("auth_file", &self.auth_file)
            .field("insecure", &self.insecure)
            .field("timeout_ms", &self.timeout_ms)
            .field("pull_timeout_ms", &self.pull_timeout_ms)
            .field("max_component_mb", &self.max_component_mb)
            .field("credentials", &self.credentials)
            .finish_non_exhaustive()
    }
}

impl Default for RegistryConfig {
    fn default() -> Self {
        RegistryConfig {
            cache_dir: crate::config::cache_home().join("oci"),
            lock_file: None,
            auth_file: None,
            insecure: Vec::new(),
            timeout_ms: 30_000,
            pull_timeout_ms: 300_000,
            max_component_mb: 256,
            credentials: None,
            auth_search: Vec::new(),
        }
    }
}

impl RegistryConfig {
    /// Fills what is not a setting: the lock beside `config_file`, the credentials and the
    /// `auth.json` files of the environment.
    pub fn resolve(mut self, config_file: Option<&Path>, env: &Env) -> Self {
        if self.lock_file.is_none() {
            let dir = config_file.and_then(Path::parent).filter(|d| !d.as_os_str().is_empty());
            self.lock_file = Some(dir.unwrap_or(Path::new(".")).join(LOCK_FILE));
        }
        if let (Some(username), Some(password)) =
            (env.get("PARLANCE_REGISTRY_USERNAME"), env.get("PARLANCE_REGISTRY_PASSWORD"))
        {
            self.credentials = Some(Credentials { username: username.into(), password: password.into() });
        }
        // Podman's order, then Docker's.
        let mut search = Vec::new();
        if let Some(file) = env.get("REGISTRY_AUTH_FILE") {
            search.push(PathBuf::from(file));
        }
        if let Some(dir) = env.get("XDG_RUNTIME_DIR") {
            search.push(Path::new(dir).join("containers/auth.json"));
        }
        if let Some(dir) = env.get("XDG_CONFIG_HOME") {
            search.push(Path::new(dir).join("containers/auth.json"));
        } else if let Some(home) = env.home() {
            search.push(Path::new(home).join(".config/containers/auth.json"));
        }
        if let Some(dir) = env.get("DOCKER_CONFIG") {
            search.push(Path::new(dir).join("config.json"));
        } else if let Some(home) = env.home() {
            search.push(Path::new(home).join(".docker/config.json"));
        }
        self.auth_search = search;
        self
    }

    pub fn lock_file(&self) -> PathBuf {
        self.lock_file.clone().unwrap_or_else(|| PathBuf::from(LOCK_FILE))
    }

    pub fn timeout(&self) -> Duration {
        Duration::from_millis(self.timeout_ms)
    }

    pub fn pull_timeout(&self) -> Duration {
        Duration::from_millis(self.pull_timeout_ms)
    }

    pub fn max_component_bytes(&self) -> u64 {
        self.max_component_mb.saturating_mul(1024 * 1024)
    }

    /// Whether `registry` (`host` or `host:port`) may be reached over plain HTTP.
    pub fn allows_plain_http(&self, registry: &str, loopback: bool) -> bool {
        loopback || self.insecure.iter().any(|r| r.eq_ignore_ascii_case(registry))
    }
}

impl Section for RegistryConfig {
    const NAME: &'static str = "registry";
    const ABOUT: &'static str = "Plugins pulled from OCI registries";

    fn settings() -> &'static [Setting<Self>] {
        static SETTINGS: &[Setting<RegistryConfig>] = &[
            Setting {
                key: "cache_dir",
                env: Some("PARLANCE_REGISTRY_CACHE_DIR"),
                kind: Kind::Path,
                doc: "Where pulled manifests and components are kept by digest (each read is checked against its digest)",
                get: |_| Value::Text("$XDG_CACHE_HOME/parlance/oci or ~/.cache/parlance/oci".into()),
                set: |c, value| {
                    c.cache_dir = PathBuf::from_value(value)?;
                    Ok(())
                },
            },
            Setting {
                key: "lock_file",
                env: Some("PARLANCE_LOCK_FILE"),
                kind: Kind::FilePath,
                doc: "The lock that pins each oci:// plugin to a digest, written by `parlance plugins lock`",
                get: |_| Value::Text("parlance.lock beside the configuration file".into()),
                set: |c, value| {
                    c.lock_file = Option::<PathBuf>::from_value(value)?;
                    Ok(())
                },
            },
            setting!(
                "auth_file",
                Kind::FilePath,
                |c| c.auth_file,
                env = "PARLANCE_REGISTRY_AUTH_FILE",
                "A Docker/Podman auth.json (unset: $REGISTRY_AUTH_FILE, then Podman's and Docker's usual places)"
            ),
            setting!(
                "insecure",
                Kind::List,
                |c| c.insecure,
                env = "PARLANCE_REGISTRY_INSECURE",
                "Registries (HOST or HOST:PORT) that may be reached over plain HTTP; a registry on this machine always may"
            ),
            setting!(
                "timeout_ms",
                Kind::Int { min: 100, max: 600_000 },
                |c| c.timeout_ms,
                "Limit on connecting to a registry, on its first byte, and on each gap in a body"
            ),
            setting!(
                "pull_timeout_ms",
                Kind::Int { min: 1000, max: 3_600_000 },
                |c| c.pull_timeout_ms,
                "Limit on one whole pull (token, manifest and component)"
            ),
            setting!(
                "max_component_mb",
                Kind::Int { min: 1, max: 4096 },
                |c| c.max_component_mb,
                "The largest component a pull accepts"
            ),
        ];
        SETTINGS
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_http_only_on_this_machine_or_when_listed() {
        let config =
            RegistryConfig { insecure: vec!["registry.lan:5000".into()], ..RegistryConfig::default() };
        assert!(config.allows_plain_http("127.0.0.1:5000", true));
        assert!(config.allows_plain_http("REGISTRY.lan:5000", false));
        assert!(!config.allows_plain_http("registry.lan:5001", false));
        assert!(!config.allows_plain_http("ghcr.io", false));
    }

    #[test]
    fn the_lock_sits_beside_the_configuration_file() {
        let env = Env::empty();
        let beside = RegistryConfig::default().resolve(Some(Path::new("/etc/parlance/parlance.toml")), &env);
        assert_eq!(beside.lock_file(), Path::new("/etc/parlance/parlance.lock"));
        let here = RegistryConfig::default().resolve(None, &env);
        assert_eq!(here.lock_file(), Path::new("./parlance.lock"));
    }
}
