//! `oci://registry/repository[:tag][@sha256:…]`: what an operator writes to name a component in a
//! registry, parsed and checked once, printed back the same.

use std::fmt;

/// The tag a reference without tag or digest means, as every registry client reads it.
const DEFAULT_TAG: &str = "latest";

/// A component in a registry, by tag, by digest, or both (the digest then wins, the tag is a label).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Reference {
    /// `host` or `host:port`, as written.
    pub registry: String,
    /// `namespace/name`, lower case.
    pub repository: String,
    pub tag: Option<String>,
    /// `sha256:` and 64 lower-case hex digits.
    pub digest: Option<String>,
}

impl Reference {
    /// Parses `oci://…`; the message says what is wrong with the text.
    pub fn parse(text: &str) -> Result<Reference, String> {
        let rest = text.strip_prefix("oci://").ok_or_else(|| {
            format!("{text:?} is not an OCI reference (oci://REGISTRY/REPOSITORY[:TAG][@sha256:DIGEST])")
        })?;
        let (rest, digest) = match rest.split_once('@') {
            Some((rest, digest)) => {
                check_digest(digest).map_err(|e| format!("{text:?}: {e}"))?;
                (rest, Some(digest.to_owned()))
            }
            None => (rest, None),
        };
        let (registry, path) =
            rest.split_once('/').ok_or_else(|| format!("{text:?} names no repository after the registry"))?;
        check_registry(registry).map_err(|e| format!("{text:?}: {e}"))?;
        // A colon after the last slash starts the tag; one before it belongs to the registry's port.
        let (repository, tag) = match path.rsplit_once(':') {
            Some((repository, tag)) if !tag.contains('/') => (repository, Some(tag.to_owned())),
            _ => (path, None),
        };
        check_repository(repository).map_err(|e| format!("{text:?}: {e}"))?;
        if let Some(tag) = &tag {
            check_tag(tag).map_err(|e| format!("{text:?}: {e}"))?;
        }
        Ok(Reference { registry: registry.to_owned(), repository: repository.to_owned(), tag, digest })
    }

    /// The tag or digest a manifest request names: the digest when there is one.
    pub fn manifest_ref(&self) -> &str {
        self.digest.as_deref().or(self.tag.as_deref()).unwrap_or(DEFAULT_TAG)
    }

    /// The tag, `latest` when neither tag nor digest was written.
    pub fn tag_or_default(&self) -> &str {
        self.tag.as_deref().unwrap_or(DEFAULT_TAG)
    }

    /// The same component pinned to `digest`.
    pub fn pinned(&self, digest: &str) -> Reference {
        Reference { digest: Some(digest.to_owned()), ..self.clone() }
    }

    /// The host without its port, for deciding whether it is this machine.
    pub fn host(&self) -> &str {
        let registry = self.registry.as_str();
        if let Some(inner) = registry.strip_prefix('[') {
            return inner.split(']').next().unwrap_or(inner);
        }
        registry.rsplit_once(':').map_or(registry, |(host, _)| host)
    }

    /// Whether the registry is on this machine, where plain HTTP is allowed without being asked for.
    pub fn is_loopback(&self) -> bool {
        let host = self.host();
        host.eq_ignore_ascii_case("localhost")
            || host.parse::<std::net::IpAddr>().is_ok_and(|ip| ip.is_loopback())
    }
}

impl fmt::Display for Reference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "oci://{}/{}", self.registry, self.repository)?;
        if let Some(tag) = &self.tag {
            write!(f, ":{tag}")?;
        }
        if let Some(digest) = &self.digest {
            write!(f, "@{digest}")?;
        }
        Ok(())
    }
}

/// `sha256:` and 64 lower-case hex digits: the only digest algorithm Parlance pulls by.
pub fn check_digest(digest: &str) -> Result<(), String> {
    let hex = digest
        .strip_prefix("sha256:")
        .ok_or_else(|| format!("the digest {digest:?} is not sha256:HEX (the one algorithm supported)"))?;
    if hex.len() != 64 || !hex.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)) {
        return Err(format!("the digest {digest:?} is not sha256: and 64 lower-case hex digits"));
    }
    Ok(())
}

fn check_registry(registry: &str) -> Result<(), String> {
    let ok = !registry.is_empty()
        && registry.bytes().all(|b| b.is_ascii_alphanumeric() || b".-:[]".contains(&b))
        && !registry.starts_with(['.', '-', ':']);
    if ok { Ok(()) } else { Err(format!("{registry:?} is not a registry host (HOST or HOST:PORT)")) }
}

/// The distribution spec's repository grammar: lower-case path components joined by `/`, each
/// alphanumeric runs separated by `.`, `_`, `__` or dashes.
fn check_repository(repository: &str) -> Result<(), String> {
    let component_ok = |c: &str| {
        !c.is_empty()
            && c.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"._-".contains(&b))
            && c.starts_with(|ch: char| ch.is_ascii_alphanumeric())
            && c.ends_with(|ch: char| ch.is_ascii_alphanumeric())
    };
    if repository.len() <= 255 && repository.split('/').all(component_ok) {
        Ok(())
    } else {
        Err(format!(
            "{repository:?} is not a repository name (lower-case letters, digits, and . _ - / between them)"
        ))
    }
}

fn check_tag(tag: &str) -> Result<(), String> {
    let ok = !tag.is_empty()
        && tag.len() <= 128
        && tag.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
        && tag.bytes().all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b));
    if ok { Ok(()) } else { Err(format!("{tag:?} is not a tag (letters, digits, . _ -, at most 128)")) }
}

#[cfg(test)]
mod tests {
    use super::*;

    const D: &str = "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

    #[test]
    fn reads_tags_digests_and_ports_and_prints_them_back() {
        let r = Reference::parse("oci://127.0.0.1:5000/plugins/reverse:1.0").unwrap();
        assert_eq!((r.registry.as_str(), r.repository.as_str()), ("127.0.0.1:5000", "plugins/reverse"));
        assert_eq!((r.tag.as_deref(), r.digest.as_deref()), (Some("1.0"), None));
        assert_eq!(r.host(), "127.0.0.1");
        assert!(r.is_loopback());
        let text = format!("oci://ghcr.io/acme/metric:v2@{D}");
        let r = Reference::parse(&text).unwrap();
        assert_eq!(r.manifest_ref(), D);
        assert_eq!(r.to_string(), text);
        assert!(!r.is_loopback());
        let r = Reference::parse("oci://localhost:5000/a").unwrap();
        assert_eq!((r.tag_or_default(), r.manifest_ref()), ("latest", "latest"));
        assert!(Reference::parse("oci://[::1]:5000/a/b").unwrap().is_loopback());
    }

    #[test]
    fn refuses_what_a_registry_would_and_says_what() {
        for (text, says) in [
            ("ghcr.io/a/b", "not an OCI reference"),
            ("oci://ghcr.io", "no repository"),
            ("oci://ghcr.io/Acme/b", "not a repository name"),
            ("oci://ghcr.io/a//b", "not a repository name"),
            ("oci://ghcr.io/a/b:", "not a tag"),
            ("oci://ghcr.io/a/b@sha256:abc", "64 lower-case hex"),
            ("oci://ghcr.io/a/b@md5:abc", "one algorithm"),
            ("oci:///a/b", "not a registry host"),
        ] {
            let e = Reference::parse(text).unwrap_err();
            assert!(e.contains(says), "{text}: {e}");
        }
    }
}
