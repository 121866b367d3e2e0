//! The content-addressed store of pulled manifests and components: one file per digest, checked
//! against its digest on every read, written whole or not at all; and the digest each tag named when
//! it was last resolved, for an unlocked tag while its registry is away.

use super::error::OciError;
use super::reference::Reference;
use sha2::{Digest as _, Sha256};
use std::path::{Path, PathBuf};

/// `sha256:` and the hex of the SHA-256 of `bytes`.
pub fn digest_of(bytes: &[u8]) -> String {
    format!("sha256:{}", hex::encode(Sha256::digest(bytes)))
}

pub struct BlobCache {
    dir: PathBuf,
}

impl BlobCache {
    pub fn new(dir: &Path) -> BlobCache {
        BlobCache { dir: dir.to_path_buf() }
    }

    /// Where the blob of `digest` (already checked to be `sha256:HEX`) lives.
    pub fn path(&self, digest: &str) -> PathBuf {
        let hex = digest.strip_prefix("sha256:").unwrap_or(digest);
        self.dir.join("blobs").join("sha256").join(hex)
    }

    /// The blob of `digest`, `None` when it was never stored; an error naming the file when what is
    /// there is not what was stored (changed, cut short).
    pub fn get(&self, digest: &str) -> Result<Option<Vec<u8>>, OciError> {
        let path = self.path(digest);
        let bytes = match std::fs::read(&path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => {
                return Err(OciError::Cache(format!("cannot read the cached blob {}: {e}", path.display())));
            }
        };
        let found = digest_of(&bytes);
        if found != digest {
            return Err(OciError::Tampered(format!(
                "the cached blob {} does not match its digest {digest}: it holds {} bytes hashing to {found} (changed or cut short since it was pulled)",
                path.display(),
                bytes.len()
            )));
        }
        Ok(Some(bytes))
    }

    /// Stores `bytes` under `digest`, which they must hash to; a reader never sees a partial file.
    pub fn put(&self, digest: &str, bytes: &[u8]) -> Result<(), OciError> {
        let found = digest_of(bytes);
        if found != digest {
            return Err(OciError::Registry(format!(
                "the registry sent {} bytes for {digest} that hash to {found}",
                bytes.len()
            )));
        }
        let path = self.path(digest);
        write_atomically(&path, bytes)
            .map_err(|e| OciError::Cache(format!("cannot store {} in the cache: {e}", path.display())))
    }

    /// Sets aside a blob that failed its check, so that the next read pulls it again.
    pub fn discard(&self, digest: &str) {
        let path = self.path(digest);
        let _ = std::fs::remove_file(&path);
    }

    fn tag_path(&self, reference: &Reference) -> PathBuf {
        // The registry's port colon would be a drive letter elsewhere; `_` cannot start a host.
        let registry = reference.registry.replace(':', "_");
        self.dir.join("tags").join(registry).join(&reference.repository).join(reference.tag_or_default())
    }

    /// The manifest digest `reference`'s tag named when it was last resolved.
    pub fn tag(&self, reference: &Reference) -> Option<String> {
        let text = std::fs::read_to_string(self.tag_path(reference)).ok()?;
        let digest = text.trim().to_owned();
        super::reference::check_digest(&digest).is_ok().then_some(digest)
    }

    pub fn set_tag(&self, reference: &Reference, digest: &str) {
        let path = self.tag_path(reference);
        if let Err(e) = write_atomically(&path, format!("{digest}\n").as_bytes()) {
            tracing::debug!("cannot remember the digest of {reference} in {}: {e}", path.display());
        }
    }
}

/// Writes `bytes` to a temporary file beside `path`, then renames it over `path`.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    std::io::Write::write_all(&mut tmp, bytes)?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_changed_or_truncated_blob_is_refused_by_name() {
        let dir = tempfile::tempdir().unwrap();
        let cache = BlobCache::new(dir.path());
        let bytes = b"\0asm component bytes".to_vec();
        let digest = digest_of(&bytes);
        assert!(cache.get(&digest).unwrap().is_none());
        cache.put(&digest, &bytes).unwrap();
        assert_eq!(cache.get(&digest).unwrap().unwrap(), bytes);
        std::fs::write(cache.path(&digest), &bytes[..5]).unwrap();
        let e = cache.get(&digest).unwrap_err().to_string();
        assert!(e.contains(&cache.path(&digest).display().to_string()) && e.contains("5 bytes"), "{e}");
        assert!(cache.put(&digest, b"other").is_err(), "bytes that do not hash to the digest are not stored");
        cache.discard(&digest);
        assert!(cache.get(&digest).unwrap().is_none());
    }
}
