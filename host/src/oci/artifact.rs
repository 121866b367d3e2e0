//! The CNCF Wasm OCI artifact, as `wkg` and the Bytecode Alliance's tools write it: an image manifest
//! whose config is `application/vnd.wasm.config.v0+json` and whose one layer is the component
//! (`application/wasm`); and reading the component's layer out of any manifest that holds one.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

pub const MANIFEST_MEDIA_TYPE: &str = "application/vnd.oci.image.manifest.v1+json";
pub const CONFIG_MEDIA_TYPE: &str = "application/vnd.wasm.config.v0+json";
pub const LAYER_MEDIA_TYPE: &str = "application/wasm";
/// The layer type of the older wasm-to-oci artifacts, read as a component too.
const LEGACY_LAYER_MEDIA_TYPE: &str = "application/vnd.wasm.content.layer.v1+wasm";

/// What a manifest request accepts.
pub const ACCEPT: &str = "application/vnd.oci.image.manifest.v1+json, application/vnd.docker.distribution.manifest.v2+json;q=0.9, application/vnd.oci.image.index.v1+json;q=0.5";

/// Annotations naming the plugin world the component fits, and its version.
pub const WORLD_ANNOTATION: &str = "dev.parlance.plugin.world";
pub const WIT_VERSION_ANNOTATION: &str = "dev.parlance.plugin.wit-version";

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Descriptor {
    #[serde(rename = "mediaType")]
    pub media_type: String,
    pub digest: String,
    pub size: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<BTreeMap<String, String>>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Manifest {
    #[serde(rename = "schemaVersion")]
    pub schema_version: u32,
    #[serde(rename = "mediaType", default, skip_serializing_if = "Option::is_none")]
    pub media_type: Option<String>,
    pub config: Descriptor,
    pub layers: Vec<Descriptor>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub annotations: BTreeMap<String, String>,
}

impl Manifest {
    /// Reads a manifest body; the message says why it is not one Parlance can pull a component from.
    pub fn parse(bytes: &[u8]) -> Result<Manifest, String> {
        let value: serde_json::Value =
            serde_json::from_slice(bytes).map_err(|e| format!("the manifest is not JSON: {e}"))?;
        if value.get("manifests").is_some() {
            return Err("it is an image index (several platforms), not a component's manifest".into());
        }
        serde_json::from_value(value).map_err(|e| format!("the manifest is not an OCI image manifest: {e}"))
    }

    /// The one layer that is a Wasm component.
    pub fn component(&self) -> Result<&Descriptor, String> {
        let wasm: Vec<&Descriptor> = self
            .layers
            .iter()
            .filter(|l| l.media_type == LAYER_MEDIA_TYPE || l.media_type == LEGACY_LAYER_MEDIA_TYPE)
            .collect();
        match wasm.as_slice() {
            [one] => {
                super::reference::check_digest(&one.digest).map_err(|e| format!("its wasm layer: {e}"))?;
                Ok(one)
            }
            [] => {
                let types: Vec<&str> = self.layers.iter().map(|l| l.media_type.as_str()).collect();
                Err(format!(
                    "it holds no {LAYER_MEDIA_TYPE} layer (its layers: {}); is it a container image rather than a Wasm component?",
                    if types.is_empty() { "none".to_owned() } else { types.join(", ") }
                ))
            }
            _ => Err(format!("it holds {} Wasm layers, and a plugin is one component", wasm.len())),
        }
    }
}

/// What a pushed artifact says of its component.
pub struct Description {
    /// The worlds it fits, as `parlance:plugin/provider@0.1.3`.
    pub worlds: Vec<String>,
    pub exports: Vec<String>,
    pub imports: Vec<String>,
    /// The file it was pushed from, for `org.opencontainers.image.title`.
    pub title: String,
}

/// The config blob of the Wasm artifact (`application/vnd.wasm.config.v0+json`).
pub fn config_blob(description: &Description, layer_digest: &str, created: &str) -> Vec<u8> {
    let config = serde_json::json!({
        "created": created,
        "architecture": "wasm",
        "os": "wasip2",
        "layerDigests": [layer_digest],
        "component": {
            "exports": description.exports,
            "imports": description.imports,
        },
    });
    serde_json::to_vec(&config).expect("a JSON value serialises")
}

/// The image manifest of a component pushed with its config.
pub fn manifest(
    description: &Description,
    config: (&str, u64),
    layer: (&str, u64),
    created: &str,
) -> Manifest {
    let mut annotations = BTreeMap::from([
        ("org.opencontainers.image.created".to_owned(), created.to_owned()),
        ("org.opencontainers.image.title".to_owned(), description.title.clone()),
    ]);
    if let Some(world) = description.worlds.first() {
        let (name, version) = world.split_once('@').unwrap_or((world, ""));
        annotations.insert(WORLD_ANNOTATION.to_owned(), name.to_owned());
        annotations.insert(WIT_VERSION_ANNOTATION.to_owned(), version.to_owned());
    }
    Manifest {
        schema_version: 2,
        media_type: Some(MANIFEST_MEDIA_TYPE.to_owned()),
        config: Descriptor {
            media_type: CONFIG_MEDIA_TYPE.to_owned(),
            digest: config.0.to_owned(),
            size: config.1,
            annotations: None,
        },
        layers: vec![Descriptor {
            media_type: LAYER_MEDIA_TYPE.to_owned(),
            digest: layer.0.to_owned(),
            size: layer.1,
            annotations: None,
        }],
        annotations,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_one_component_layer_or_says_what_the_artifact_is() {
        let d = format!("sha256:{}", "c".repeat(64));
        let m = |layers: &str| {
            format!(
                r#"{{"schemaVersion":2,"config":{{"mediaType":"x","digest":"{d}","size":2}},"layers":[{layers}]}}"#
            )
        };
        let wasm = format!(r#"{{"mediaType":"application/wasm","digest":"{d}","size":9}}"#);
        let tar = format!(
            r#"{{"mediaType":"application/vnd.oci.image.layer.v1.tar+gzip","digest":"{d}","size":9}}"#
        );
        assert_eq!(Manifest::parse(m(&wasm).as_bytes()).unwrap().component().unwrap().size, 9);
        let e = Manifest::parse(m(&tar).as_bytes()).unwrap().component().unwrap_err();
        assert!(e.contains("container image"), "{e}");
        let e = Manifest::parse(m(&format!("{wasm},{wasm}")).as_bytes()).unwrap().component().unwrap_err();
        assert!(e.contains("2 Wasm layers"), "{e}");
        let e = Manifest::parse(br#"{"schemaVersion":2,"manifests":[]}"#).unwrap_err();
        assert!(e.contains("image index"), "{e}");
        assert!(Manifest::parse(b"<html>").unwrap_err().contains("not JSON"));
    }
}
