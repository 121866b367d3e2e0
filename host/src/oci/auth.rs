//! Who Parlance is to a registry: credentials from the environment or a Docker/Podman `auth.json`,
//! and the answer to a `WWW-Authenticate` challenge (HTTP Basic, or a bearer token from the realm).

use super::settings::{Credentials, RegistryConfig};
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use std::path::Path;

/// The credentials for `registry`: the environment's, else the `auth.json` entry for it.
pub fn credentials_for(config: &RegistryConfig, registry: &str) -> Result<Option<Credentials>, String> {
    if let Some(c) = &config.credentials {
        return Ok(Some(c.clone()));
    }
    let file = match &config.auth_file {
        Some(file) => Some(file.clone()),
        None => config.auth_search.iter().find(|p| p.is_file()).cloned(),
    };
    match file {
        Some(file) => from_auth_file(&file, registry),
        None => Ok(None),
    }
}

/// The entry for `registry` in an `auth.json` (`{"auths": {"host:port": {"auth": base64("user:pass")}}}`);
/// keys may carry a scheme or a path, as Docker writes them.
fn from_auth_file(file: &Path, registry: &str) -> Result<Option<Credentials>, String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    let json: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("{} is not JSON: {e}", file.display()))?;
    let Some(auths) = json.get("auths").and_then(|a| a.as_object()) else { return Ok(None) };
    // `docker login` files Docker Hub under `https://index.docker.io/v1/`.
    let hub = ["docker.io", "index.docker.io", "registry-1.docker.io"];
    let same = |host: &str| {
        host.eq_ignore_ascii_case(registry)
            || (hub.contains(&registry) && hub.iter().any(|h| h.eq_ignore_ascii_case(host)))
    };
    let entry = auths.iter().find(|(key, _)| {
        let key = key.trim_start_matches("https://").trim_start_matches("http://");
        key.split('/').next().is_some_and(same)
    });
    let Some((key, entry)) = entry else { return Ok(None) };
    let Some(encoded) = entry.get("auth").and_then(|a| a.as_str()) else {
        return Err(format!(
            "{}: the entry for {key} has no `auth` (credential helpers are not supported; set PARLANCE_REGISTRY_USERNAME and PARLANCE_REGISTRY_PASSWORD)",
            file.display()
        ));
    };
    let decoded =
        STANDARD.decode(encoded.trim()).ok().and_then(|b| String::from_utf8(b).ok()).ok_or_else(|| {
            format!("{}: the `auth` of {key} is not base64 of USER:PASSWORD", file.display())
        })?;
    let (username, password) = decoded
        .split_once(':')
        .ok_or_else(|| format!("{}: the `auth` of {key} is not base64 of USER:PASSWORD", file.display()))?;
    Ok(Some(Credentials { username: username.into(), password: password.into() }))
}

/// `Basic base64(user:password)`.
pub fn basic(c: &Credentials) -> String {
    format!("Basic {}", STANDARD.encode(format!("{}:{}", c.username, c.password)))
}

/// A parsed `WWW-Authenticate` challenge.
#[derive(Debug, PartialEq, Eq)]
pub enum Challenge {
    Basic,
    Bearer { realm: String, service: Option<String>, scope: Option<String> },
}

/// Reads `Basic realm="…"` or `Bearer realm="…",service="…",scope="…"`; `None` for any other scheme.
pub fn parse_challenge(header: &str) -> Option<Challenge> {
    let (scheme, params) = header.trim().split_once(' ').unwrap_or((header.trim(), ""));
    if scheme.eq_ignore_ascii_case("basic") {
        return Some(Challenge::Basic);
    }
    if !scheme.eq_ignore_ascii_case("bearer") {
        return None;
    }
    let params = parse_params(params);
    let get = |name: &str| params.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.clone());
    Some(Challenge::Bearer { realm: get("realm")?, service: get("service"), scope: get("scope") })
}

/// `key="value", key=token` pairs; a quoted value may hold commas and `\"`.
fn parse_params(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut chars = text.chars().peekable();
    loop {
        while chars.peek().is_some_and(|c| *c == ',' || c.is_whitespace()) {
            chars.next();
        }
        let key: String = std::iter::from_fn(|| chars.next_if(|c| *c != '=' && *c != ',')).collect();
        if key.is_empty() {
            return out;
        }
        if chars.next() != Some('=') {
            continue;
        }
        let mut value = String::new();
        if chars.peek() == Some(&'"') {
            chars.next();
            while let Some(c) = chars.next() {
                match c {
                    '\\' => value.extend(chars.next()),
                    '"' => break,
                    c => value.push(c),
                }
            }
        } else {
            value = std::iter::from_fn(|| chars.next_if(|c| *c != ',')).collect::<String>().trim().to_owned();
        }
        out.push((key.trim().to_owned(), value));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_bearer_and_basic_challenges() {
        let c = parse_challenge(
            r#"Bearer realm="https://auth.example/token",service="registry.example",scope="repository:a/b:pull,push""#,
        );
        assert_eq!(
            c,
            Some(Challenge::Bearer {
                realm: "https://auth.example/token".into(),
                service: Some("registry.example".into()),
                scope: Some("repository:a/b:pull,push".into()),
            })
        );
        assert_eq!(parse_challenge(r#"Basic realm="Registry Realm""#), Some(Challenge::Basic));
        assert_eq!(parse_challenge("Negotiate abc"), None);
        assert_eq!(parse_challenge("Bearer service=\"x\""), None, "a bearer challenge needs a realm");
    }

    #[test]
    fn finds_the_registry_in_an_auth_json_and_never_prints_the_password() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("auth.json");
        let auth = STANDARD.encode("alice:s3cret:with:colons");
        std::fs::write(&file, format!(r#"{{"auths":{{"https://127.0.0.1:5000/v1/":{{"auth":"{auth}"}}}}}}"#))
            .unwrap();
        let config = RegistryConfig { auth_file: Some(file.clone()), ..RegistryConfig::default() };
        let c = credentials_for(&config, "127.0.0.1:5000").unwrap().unwrap();
        assert_eq!((c.username.as_str(), c.password.as_str()), ("alice", "s3cret:with:colons"));
        assert!(!format!("{c:?} {config:?}").contains("s3cret"));
        assert!(credentials_for(&config, "127.0.0.1:5001").unwrap().is_none());
        std::fs::write(
            &file,
            format!(r#"{{"auths":{{"https://index.docker.io/v1/":{{"auth":"{auth}"}}}}}}"#),
        )
        .unwrap();
        assert_eq!(credentials_for(&config, "docker.io").unwrap().unwrap().username, "alice");
        std::fs::write(&file, r#"{"auths":{"127.0.0.1:5000":{"auth":"%%%"}}}"#).unwrap();
        let e = credentials_for(&config, "127.0.0.1:5000").unwrap_err();
        assert!(e.contains("not base64"), "{e}");
    }
}
