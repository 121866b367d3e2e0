//! The lock file: each `oci://` reference pinned to the manifest digest its tag named when it was
//! locked, so that a tag that moves never changes a locked deployment.

use super::cache::write_atomically;
use super::error::OciError;
use serde::{Deserialize, Serialize};
use std::path::Path;

const HEADER: &str = "# Written by `parlance plugins lock`: each plugin pulled from a registry, pinned to a digest.\n\
# Commit it beside parlance.toml. `parlance plugins lock` again moves the pins to what the tags name now.\n\n";

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lock {
    pub version: u32,
    #[serde(default, rename = "plugin")]
    pub plugins: Vec<Locked>,
}

/// One pinned reference.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Locked {
    /// The reference as the configuration writes it.
    pub reference: String,
    /// The manifest's digest.
    pub digest: String,
    /// The component layer's digest and size, for the reader.
    pub component: String,
    pub size: u64,
}

impl Lock {
    pub const VERSION: u32 = 1;

    /// The lock at `path`; empty when there is none.
    pub fn read(path: &Path) -> Result<Lock, OciError> {
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Lock::default()),
            Err(e) => {
                return Err(OciError::Config(format!("cannot read the lock file {}: {e}", path.display())));
            }
        };
        let lock: Lock = toml::from_str(&text)
            .map_err(|e| OciError::Config(format!("the lock file {} cannot be read: {e}", path.display())))?;
        if lock.version != Self::VERSION {
            return Err(OciError::Config(format!(
                "the lock file {} is version {}, this binary reads version {}",
                path.display(),
                lock.version,
                Self::VERSION
            )));
        }
        for entry in &lock.plugins {
            super::reference::check_digest(&entry.digest).map_err(|e| {
                OciError::Config(format!("the lock file {}: {}: {e}", path.display(), entry.reference))
            })?;
        }
        Ok(lock)
    }

    pub fn get(&self, reference: &str) -> Option<&Locked> {
        self.plugins.iter().find(|l| l.reference == reference)
    }

    pub fn write(&self, path: &Path) -> Result<(), OciError> {
        let body =
            toml::to_string(self).map_err(|e| OciError::Config(format!("cannot write the lock: {e}")))?;
        write_atomically(path, format!("{HEADER}{body}").as_bytes())
            .map_err(|e| OciError::Config(format!("cannot write the lock file {}: {e}", path.display())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_names_what_is_wrong() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("parlance.lock");
        assert_eq!(Lock::read(&path).unwrap(), Lock::default());
        let lock = Lock {
            version: Lock::VERSION,
            plugins: vec![Locked {
                reference: "oci://127.0.0.1:5000/a/b:1".into(),
                digest: format!("sha256:{}", "a".repeat(64)),
                component: format!("sha256:{}", "b".repeat(64)),
                size: 12,
            }],
        };
        lock.write(&path).unwrap();
        assert_eq!(Lock::read(&path).unwrap(), lock);
        std::fs::write(
            &path,
            "version = 1\n[[plugin]]\nreference = \"x\"\ndigest = \"md5:1\"\ncomponent = \"\"\nsize = 1\n",
        )
        .unwrap();
        let e = Lock::read(&path).unwrap_err().to_string();
        assert!(e.contains("parlance.lock") && e.contains("md5:1"), "{e}");
    }
}
