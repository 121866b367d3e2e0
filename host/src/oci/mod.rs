//! Plugin components as OCI artifacts: `oci://` references resolved through the lock, pulled by digest
//! into a cache that checks every read, and pushed in the layout `wkg` reads.
//!
//! A reference with a digest is pulled by it. One with a tag is pinned by the lock file when it is
//! there (`parlance plugins lock`), so that a tag moved in the registry changes nothing until the lock
//! is written again; unlocked, the tag is resolved at each start, and while the registry is away, to
//! the digest it named last. Once a digest's manifest and component are cached, a start needs no
//! network at all.

mod artifact;
mod auth;
mod cache;
mod client;
mod error;
mod lock;
mod reference;
mod settings;

pub use artifact::Description;
pub use cache::digest_of;
pub use error::OciError;
pub use lock::{Lock, Locked};
pub use reference::Reference;
pub use settings::{Credentials, RegistryConfig};

use artifact::Manifest;
use bytes::Bytes;
use cache::BlobCache;
use client::{Access, Ask, Client, read, registry_message};
use http::{HeaderValue, Method, StatusCode, header};
use std::sync::Arc;

/// A component taken from a registry or its cache.
pub struct Pulled {
    pub bytes: Vec<u8>,
    /// The manifest's digest, which the lock pins.
    pub manifest_digest: String,
    /// The component layer's digest.
    pub digest: String,
    /// Whether any of it came over the network.
    pub fetched: bool,
}

/// The registries a process pulls from and pushes to, with its cache and lock.
pub struct Registry {
    config: Arc<RegistryConfig>,
    client: Client,
    cache: BlobCache,
}

impl Registry {
    pub fn new(config: Arc<RegistryConfig>, upstream: crate::upstream::Upstream) -> Registry {
        let cache = BlobCache::new(&config.cache_dir);
        Registry { client: Client::new(config.clone(), upstream), config, cache }
    }

    /// The component `reference` names: by its digest, else as locked, else by its tag now.
    pub async fn component(&self, reference: &Reference) -> Result<Pulled, OciError> {
        let deadline = self.config.pull_timeout();
        tokio::time::timeout(deadline, async {
            let digest = self.resolve(reference).await?;
            self.by_digest(reference, &digest).await
        })
        .await
        .unwrap_or_else(|_| {
            Err(OciError::Registry(format!(
                "pulling {reference} took longer than {} ms ([registry] pull_timeout_ms)",
                deadline.as_millis()
            )))
        })
    }

    /// The manifest digest `reference` stands for.
    async fn resolve(&self, reference: &Reference) -> Result<String, OciError> {
        if let Some(digest) = &reference.digest {
            return Ok(digest.clone());
        }
        let lock_file = self.config.lock_file();
        if let Some(locked) = Lock::read(&lock_file)?.get(&reference.to_string()) {
            return Ok(locked.digest.clone());
        }
        match self.resolve_tag(reference).await {
            Ok(digest) => {
                tracing::warn!(
                    "{reference} is not in the lock {}: it was resolved to {digest} now, and a start after the tag moves would load another component; `parlance plugins lock` pins it",
                    lock_file.display()
                );
                Ok(digest)
            }
            Err(e) => match self.cache.tag(reference) {
                Some(digest) => {
                    tracing::warn!(
                        "{e}; {reference} is not locked, so the digest it named last, {digest}, is used"
                    );
                    Ok(digest)
                }
                None => Err(e),
            },
        }
    }

    /// What the registry says `reference`'s tag names now, remembered for when it is away.
    pub async fn resolve_tag(&self, reference: &Reference) -> Result<String, OciError> {
        let tag = reference.tag_or_default();
        let (bytes, digest) = self.fetch_manifest(reference, tag).await?;
        self.cache.put(&digest, &bytes)?;
        self.cache.set_tag(reference, &digest);
        Ok(digest)
    }

    /// The manifest and component of the manifest `digest`, from the cache when they are there and
    /// intact, else from the registry (a blob that fails its check is pulled again).
    async fn by_digest(&self, reference: &Reference, digest: &str) -> Result<Pulled, OciError> {
        let mut fetched = false;
        let manifest_bytes = self
            .blob(reference, digest, &mut fetched, |this| async move {
                this.fetch_manifest(reference, digest).await.map(|(bytes, _)| bytes)
            })
            .await?;
        let manifest = Manifest::parse(&manifest_bytes)
            .map_err(|e| OciError::Registry(format!("{}: {e}", reference.pinned(digest))))?;
        let layer = manifest
            .component()
            .map_err(|e| OciError::Registry(format!("{}: {e}", reference.pinned(digest))))?;
        if layer.size > self.config.max_component_bytes() {
            return Err(OciError::Registry(format!(
                "{reference}: the component is {} bytes, more than [registry] max_component_mb ({})",
                layer.size, self.config.max_component_mb
            )));
        }
        let (layer_digest, size) = (layer.digest.clone(), layer.size);
        let bytes = self
            .blob(reference, &layer_digest, &mut fetched, |this| {
                let layer_digest = layer_digest.clone();
                async move { this.fetch_blob(reference, &layer_digest, size).await }
            })
            .await?;
        Ok(Pulled { bytes, manifest_digest: digest.to_owned(), digest: layer_digest, fetched })
    }

    /// The blob `digest`: cached, or fetched by `fetch` and stored.
    async fn blob<'a, F, Fut>(
        &'a self,
        reference: &Reference,
        digest: &str,
        fetched: &mut bool,
        fetch: F,
    ) -> Result<Vec<u8>, OciError>
    where
        F: FnOnce(&'a Registry) -> Fut,
        Fut: std::future::Future<Output = Result<Vec<u8>, OciError>>,
    {
        let tampered = match self.cache.get(digest) {
            Ok(Some(bytes)) => return Ok(bytes),
            Ok(None) => None,
            Err(OciError::Tampered(message)) => {
                tracing::warn!("{message}; it is set aside and pulled again");
                self.cache.discard(digest);
                Some(message)
            }
            Err(e) => return Err(e),
        };
        *fetched = true;
        let bytes = fetch(self).await.map_err(|e| match &tampered {
            Some(message) => {
                OciError::Tampered(format!("{message}, and pulling {reference} again failed: {e}"))
            }
            None => e,
        })?;
        self.cache.put(digest, &bytes)?;
        Ok(bytes)
    }

    /// The manifest `tag_or_digest` names, with its digest (checked when the request named one).
    async fn fetch_manifest(
        &self,
        reference: &Reference,
        tag_or_digest: &str,
    ) -> Result<(Vec<u8>, String), OciError> {
        let path = format!("manifests/{tag_or_digest}");
        let ask = Ask::new(Method::GET, &path, Access::Pull, 4 << 20)
            .header(header::ACCEPT, HeaderValue::from_static(artifact::ACCEPT));
        let response = self.client.send(reference, ask).await?;
        let status = response.status();
        let announced =
            response.headers().get("docker-content-digest").and_then(|d| d.to_str().ok()).map(str::to_owned);
        let body = read(response, &format!("the manifest of {reference}")).await?;
        if !status.is_success() {
            return Err(OciError::Registry(format!(
                "the registry answered {status} for the manifest of {}: {}",
                reference_at(reference, tag_or_digest),
                registry_message(&body)
            )));
        }
        let digest = digest_of(&body);
        let expected =
            if tag_or_digest.starts_with("sha256:") { Some(tag_or_digest.to_owned()) } else { announced };
        if let Some(expected) = expected.filter(|e| e.starts_with("sha256:"))
            && expected != digest
        {
            return Err(OciError::Registry(format!(
                "the manifest the registry sent for {} hashes to {digest}, not {expected}",
                reference_at(reference, tag_or_digest)
            )));
        }
        Manifest::parse(&body)
            .map_err(|e| OciError::Registry(format!("{}: {e}", reference_at(reference, tag_or_digest))))?;
        Ok((body.to_vec(), digest))
    }

    /// The blob `digest`, of `size` bytes, checked against both.
    async fn fetch_blob(&self, reference: &Reference, digest: &str, size: u64) -> Result<Vec<u8>, OciError> {
        let response = self.client.get_following(reference, &format!("blobs/{digest}"), size).await?;
        let status = response.status();
        let body = read(response, &format!("the component of {reference}")).await?;
        if !status.is_success() {
            return Err(OciError::Registry(format!(
                "the registry answered {status} for the blob {digest} of {reference}: {}",
                registry_message(&body)
            )));
        }
        let found = digest_of(&body);
        if found != digest || body.len() as u64 != size {
            return Err(OciError::Registry(format!(
                "the registry sent {} bytes hashing to {found} for the blob {digest} of {size} bytes ({reference})",
                body.len()
            )));
        }
        Ok(body.to_vec())
    }

    /// Pins every reference in `references` that has no digest to what its tag names now, pulls each
    /// into the cache, and writes the lock. Entries of references no longer configured are dropped.
    pub async fn lock(&self, references: &[Reference]) -> Result<Lock, OciError> {
        let mut lock = Lock { version: Lock::VERSION, plugins: Vec::new() };
        for reference in references {
            let digest = match &reference.digest {
                Some(d) => d.clone(),
                None => self.resolve_tag(reference).await?,
            };
            let pulled = self.by_digest(reference, &digest).await?;
            let key = reference.to_string();
            if lock.get(&key).is_none() {
                lock.plugins.push(Locked {
                    reference: key,
                    digest,
                    component: pulled.digest,
                    size: pulled.bytes.len() as u64,
                });
            }
        }
        lock.write(&self.config.lock_file())?;
        Ok(lock)
    }

    /// Publishes `component` at `reference` (its tag, or its digest) as a Wasm artifact; the pushed
    /// manifest's digest.
    pub async fn push(
        &self,
        reference: &Reference,
        component: &[u8],
        description: &Description,
    ) -> Result<String, OciError> {
        let created = time::OffsetDateTime::now_utc()
            .format(&time::format_description::well_known::Rfc3339)
            .unwrap_or_default();
        let layer_digest = digest_of(component);
        let config = artifact::config_blob(description, &layer_digest, &created);
        let config_digest = digest_of(&config);
        self.upload(reference, &layer_digest, Bytes::copy_from_slice(component)).await?;
        self.upload(reference, &config_digest, Bytes::from(config.clone())).await?;
        let manifest = artifact::manifest(
            description,
            (&config_digest, config.len() as u64),
            (&layer_digest, component.len() as u64),
            &created,
        );
        let body = serde_json::to_vec(&manifest).expect("a manifest serialises");
        let digest = digest_of(&body);
        if let Some(wanted) = &reference.digest
            && *wanted != digest
        {
            return Err(OciError::Config(format!(
                "{reference} names the digest {wanted}, but the artifact pushed from this component is {digest}; push to a tag"
            )));
        }
        let target = reference.digest.clone().unwrap_or_else(|| reference.tag_or_default().to_owned());
        let path = format!("manifests/{target}");
        let ask = Ask::new(Method::PUT, &path, Access::Push, 1 << 20)
            .header(header::CONTENT_TYPE, HeaderValue::from_static(artifact::MANIFEST_MEDIA_TYPE))
            .body(Bytes::from(body.clone()));
        let response = self.client.send(reference, ask).await?;
        let status = response.status();
        let answer = read(response, "the answer to a manifest push").await?;
        if !status.is_success() {
            return Err(OciError::Registry(format!(
                "the registry refused the manifest of {reference} ({status}): {}",
                registry_message(&answer)
            )));
        }
        self.cache.put(&digest, &body)?;
        self.cache.put(&layer_digest, component)?;
        Ok(digest)
    }

    /// Uploads one blob unless the repository has it (a monolithic upload: POST, then PUT).
    async fn upload(&self, reference: &Reference, digest: &str, bytes: Bytes) -> Result<(), OciError> {
        let blob = format!("blobs/{digest}");
        let head = self.client.send(reference, Ask::new(Method::HEAD, &blob, Access::Push, 1 << 20)).await?;
        if head.status() == StatusCode::OK {
            return Ok(());
        }
        let start = "blobs/uploads/";
        let response =
            self.client.send(reference, Ask::new(Method::POST, start, Access::Push, 1 << 20)).await?;
        let status = response.status();
        let location =
            response.headers().get(header::LOCATION).and_then(|l| l.to_str().ok()).map(str::to_owned);
        let answer = read(response, "the answer to an upload").await?;
        let Some(location) = location.filter(|_| status == StatusCode::ACCEPTED) else {
            return Err(OciError::Registry(format!(
                "the registry did not open an upload for {reference} ({status}): {}",
                registry_message(&answer)
            )));
        };
        let here = self.client.url(reference, start).await?;
        let target = client::with_digest(&here, &location, digest)
            .ok_or_else(|| OciError::Registry(format!("the upload location {location:?} is not a URL")))?;
        let ask = Ask::new(Method::PUT, &target, Access::Push, 1 << 20)
            .header(header::CONTENT_TYPE, HeaderValue::from_static("application/octet-stream"))
            .body(bytes);
        let response = self.client.send(reference, ask).await?;
        let status = response.status();
        let answer = read(response, "the answer to an upload").await?;
        if status != StatusCode::CREATED {
            return Err(OciError::Registry(format!(
                "the registry refused the blob {digest} of {reference} ({status}): {}",
                registry_message(&answer)
            )));
        }
        Ok(())
    }
}

/// `reference` as it was asked for: `…:tag` or `…@digest`.
fn reference_at(reference: &Reference, tag_or_digest: &str) -> String {
    if tag_or_digest.starts_with("sha256:") {
        reference.pinned(tag_or_digest).to_string()
    } else {
        Reference { tag: Some(tag_or_digest.to_owned()), digest: None, ..reference.clone() }.to_string()
    }
}
