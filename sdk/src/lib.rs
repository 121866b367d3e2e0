//! `parlance-sdk`: write Parlance plugins in Rust.
//!
//! A plugin is a WebAssembly component that implements one world of the `parlance:plugin` contract
//! (see `wit/plugin.wit`). This crate hides the generated bindings behind one trait per world and an
//! export macro, and adds the helpers every plugin needs: its settings ([`config`]), logging
//! ([`log`]), outbound HTTP through the host's `http-client` ([`http`]), the token counts an upstream
//! reported ([`usage`]), and upstream error mapping.
//!
//! Enable exactly one of the features `provider`, `chat-model` or `metric`, build with
//! `cargo build --target wasm32-wasip2 --release` and the `cdylib` is the component.
//!
//! The modules `provider`, `chat_model` and `metric` (one per feature) each open with an example. A
//! provider or chat model may also implement the optional health [`probe`], and a provider the
//! optional [`candidates`] (several paraphrases in one call).

pub mod http;
pub mod upstream;

#[cfg(feature = "provider")]
pub mod candidates;
#[cfg(feature = "chat-model")]
pub mod chat_model;
#[cfg(feature = "metric")]
pub mod metric;
#[cfg(any(feature = "provider", feature = "chat-model"))]
pub mod probe;
#[cfg(feature = "provider")]
pub mod provider;

/// Generated bindings for everything a plugin imports. Hidden: use the safe wrappers instead.
#[doc(hidden)]
pub mod bindings {
    wit_bindgen::generate!({
        inline: "
            package parlance:sdk;
            world imports {
                import parlance:plugin/host@0.1.4;
                import parlance:plugin/embeddings@0.1.4;
                import parlance:plugin/http-client@0.1.4;
                import parlance:plugin/metering@0.1.4;
                import wasi:http/outgoing-handler@0.2.12;
            }
        ",
        path: "../wit",
        world: "parlance:sdk/imports",
        generate_all,
    });
}

pub use bindings::parlance::plugin::types::{PluginError, RateLimit};
/// The JSON library the SDK's HTTP client and helpers use, for plugins to build and read bodies with.
pub use serde_json;

/// What the upstream said a call used (the `metering` import, since 0.1.4): the host prices it and
/// records it against the caller's key.
pub mod usage {
    /// Adds one upstream request's token counts to the current call's. Report only what the upstream
    /// said; an unknown count is `None`. Call it once per upstream request (a provider that makes one
    /// request per candidate reports each).
    pub fn report(input_tokens: Option<u32>, output_tokens: Option<u32>) {
        #[cfg(target_arch = "wasm32")]
        crate::bindings::parlance::plugin::metering::report(
            crate::bindings::parlance::plugin::metering::Usage { input_tokens, output_tokens },
        );
        #[cfg(not(target_arch = "wasm32"))]
        let _ = (input_tokens, output_tokens);
    }

    /// The counts of an OpenAI-style `usage` object (`prompt_tokens`, `completion_tokens`), reported;
    /// nothing when the body has none.
    pub fn report_openai(body: &serde_json::Value) {
        let usage = &body["usage"];
        if usage.is_object() {
            let count = |key: &str| usage[key].as_u64().and_then(|n| u32::try_from(n).ok());
            report(count("prompt_tokens"), count("completion_tokens"));
        }
    }
}

/// This plugin's settings, as the operator configured them.
pub mod config {
    use crate::PluginError;
    #[cfg(target_arch = "wasm32")]
    use crate::bindings::parlance::plugin::host;

    #[cfg(target_arch = "wasm32")]
    thread_local! {
        /// The settings this instance has read, with what the host answered.
        static READ: std::cell::RefCell<Vec<(String, Option<String>)>> = const { std::cell::RefCell::new(Vec::new()) };
    }

    /// A `config` value or resolved secret, or `None` when the operator did not set it.
    ///
    /// Each key is asked of the host once per instance: an instance's settings never change (a
    /// reload that changes them makes new instances), and an instance the host keeps between its
    /// client's calls would otherwise ask again on every call, a host call each.
    ///
    /// Outside WebAssembly (a plugin's native unit tests) there is no host, and every setting is unset.
    pub fn get(key: &str) -> Option<String> {
        #[cfg(target_arch = "wasm32")]
        return READ.with_borrow_mut(|read| {
            if let Some((_, value)) = read.iter().find(|(k, _)| k == key) {
                return value.clone();
            }
            let value = host::config(key);
            read.push((key.to_owned(), value.clone()));
            value
        });
        #[cfg(not(target_arch = "wasm32"))]
        return {
            let _ = key;
            None
        };
    }

    /// A setting that must be present; its absence is the operator's mistake, so it maps to
    /// [`PluginError::Misconfigured`] naming the key.
    pub fn require(key: &str) -> Result<String, PluginError> {
        get(key)
            .filter(|v| !v.is_empty())
            .ok_or_else(|| PluginError::Misconfigured(format!("the setting `{key}` is not set")))
    }

    /// A setting with a default for when it is absent.
    pub fn get_or(key: &str, default: &str) -> String {
        get(key).unwrap_or_else(|| default.to_owned())
    }

    /// A numeric setting; a value that does not parse is reported, not silently replaced.
    pub fn parse_or<T: std::str::FromStr>(key: &str, default: T) -> Result<T, PluginError> {
        match get(key) {
            None => Ok(default),
            Some(raw) => raw.trim().parse().map_err(|_| {
                PluginError::Misconfigured(format!("the setting `{key}` has the invalid value {raw:?}"))
            }),
        }
    }
}

/// Logging into the host's `tracing` output, tagged with this plugin's id. Outside WebAssembly
/// (native unit tests) messages go to stderr.
pub mod log {
    use crate::bindings::parlance::plugin::host::Level;

    fn write(level: Level, message: &str) {
        #[cfg(target_arch = "wasm32")]
        crate::bindings::parlance::plugin::host::log(level, message);
        #[cfg(not(target_arch = "wasm32"))]
        eprintln!("[{level:?}] {message}");
    }

    pub fn trace(message: &str) {
        write(Level::Trace, message);
    }
    pub fn debug(message: &str) {
        write(Level::Debug, message);
    }
    pub fn info(message: &str) {
        write(Level::Info, message);
    }
    pub fn warn(message: &str) {
        write(Level::Warn, message);
    }
    pub fn error(message: &str) {
        write(Level::Error, message);
    }
}

/// Sentence embeddings computed natively by the host (see the `embeddings` interface in the WIT).
pub mod embeddings {
    use crate::PluginError;
    use crate::bindings::parlance::plugin::embeddings as wit;
    pub use crate::bindings::parlance::plugin::embeddings::EmbeddingModel;

    /// The backend the operator configured, if any.
    pub fn model() -> Option<EmbeddingModel> {
        wit::model()
    }

    /// L2-normalised vectors, one per text, in input order.
    pub fn embed(texts: &[String]) -> Result<Vec<Vec<f32>>, PluginError> {
        wit::embed(texts)
    }

    /// Cosine similarity, computed from the norms rather than assumed from normalised vectors, so a
    /// backend that does not normalise (an OpenAI-compatible endpoint, say) scores the same. A zero
    /// vector has no direction, so it is an error rather than a made-up value.
    pub fn cosine(a: &[f32], b: &[f32]) -> Result<f64, PluginError> {
        if a.len() != b.len() {
            return Err(PluginError::Internal(format!(
                "embeddings of different sizes ({} and {})",
                a.len(),
                b.len()
            )));
        }
        let (mut dot, mut na, mut nb) = (0f64, 0f64, 0f64);
        for (x, y) in a.iter().zip(b) {
            let (x, y) = (f64::from(*x), f64::from(*y));
            dot += x * y;
            na += x * x;
            nb += y * y;
        }
        if na == 0.0 || nb == 0.0 {
            return Err(PluginError::InvalidInput("a text has a zero embedding".into()));
        }
        Ok(dot / (na.sqrt() * nb.sqrt()))
    }

    #[cfg(test)]
    mod tests {
        use super::cosine;

        #[test]
        fn cosine_ignores_scale() {
            assert!((cosine(&[1.0, 0.0], &[2.0, 0.0]).unwrap() - 1.0).abs() < 1e-12);
            assert!(cosine(&[1.0, 0.0], &[0.0, 3.0]).unwrap().abs() < 1e-12);
            assert!((cosine(&[1.0, 1.0], &[-1.0, -1.0]).unwrap() + 1.0).abs() < 1e-12);
            assert!(cosine(&[0.0, 0.0], &[1.0, 0.0]).is_err());
            assert!(cosine(&[1.0], &[1.0, 0.0]).is_err());
        }
    }
}

/// Re-exports used by the export macros; not part of the public API.
#[doc(hidden)]
pub mod __private {
    pub use wit_bindgen;
}
