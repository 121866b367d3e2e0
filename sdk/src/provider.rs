//! The provider world: implement [`Provider`] and export it with [`export_provider!`](crate::export_provider).
//!
//! ```no_run
//! use parlance_sdk::provider::{ParaphraseRequest, ParaphraseResponse, Provider, ProviderInfo};
//! use parlance_sdk::PluginError;
//!
//! struct Shout;
//!
//! impl Provider for Shout {
//!     fn info() -> ProviderInfo {
//!         ProviderInfo { name: "Shout".into(), default_model: "caps".into() }
//!     }
//!
//!     fn paraphrase(request: ParaphraseRequest) -> Result<ParaphraseResponse, PluginError> {
//!         if request.text.trim().is_empty() {
//!             return Err(PluginError::InvalidInput("the text is empty".into()));
//!         }
//!         Ok(ParaphraseResponse { text: request.text.to_uppercase(), model: request.model })
//!     }
//! }
//!
//! parlance_sdk::export_provider!(Shout);
//! # fn main() {}
//! ```

#[doc(hidden)]
pub mod bindings {
    wit_bindgen::generate!({
        path: "../wit",
        world: "parlance:plugin/provider-plugin",
        with: {
            "parlance:plugin/types@0.1.4": crate::bindings::parlance::plugin::types,
            "parlance:plugin/host@0.1.4": crate::bindings::parlance::plugin::host,
            "parlance:plugin/http-client@0.1.4": crate::bindings::parlance::plugin::http_client,
            "wasi:http/types@0.2.12": crate::bindings::wasi::http::types,
            "wasi:http/outgoing-handler@0.2.12": crate::bindings::wasi::http::outgoing_handler,
            "wasi:io/error@0.2.12": crate::bindings::wasi::io::error,
            "wasi:io/poll@0.2.12": crate::bindings::wasi::io::poll,
            "wasi:io/streams@0.2.12": crate::bindings::wasi::io::streams,
            "wasi:clocks/monotonic-clock@0.2.12": crate::bindings::wasi::clocks::monotonic_clock,
        },
        pub_export_macro: true,
        export_macro_name: "__export_provider_world",
        default_bindings_module: "::parlance_sdk::provider::bindings",
    });
}

pub use bindings::exports::parlance::plugin::provider::{
    ParaphraseRequest, ParaphraseResponse, ProviderInfo,
};

use crate::PluginError;

/// A paraphrase provider. Keep no state between calls: a call runs in a fresh instance or in one that
/// answered the same client before.
pub trait Provider {
    /// Describes the provider; called once when the host loads it, with the plugin's settings
    /// already visible through [`crate::config`].
    fn info() -> ProviderInfo;

    /// Paraphrases `request.text` with `request.model` (always set: the host resolves the default).
    fn paraphrase(request: ParaphraseRequest) -> Result<ParaphraseResponse, PluginError>;
}

/// Exports a [`Provider`] implementation as this component's `provider` interface.
#[macro_export]
macro_rules! export_provider {
    ($ty:ident) => {
        const _: () = {
            impl $crate::provider::bindings::exports::parlance::plugin::provider::Guest for $ty {
                fn info() -> $crate::provider::ProviderInfo {
                    <$ty as $crate::provider::Provider>::info()
                }
                fn paraphrase(
                    request: $crate::provider::ParaphraseRequest,
                ) -> ::core::result::Result<$crate::provider::ParaphraseResponse, $crate::PluginError>
                {
                    <$ty as $crate::provider::Provider>::paraphrase(request)
                }
            }
            // Natively (a plugin's unit tests) there is no component to export into, and the linker
            // rejects the component-model export names.
            #[cfg(target_arch = "wasm32")]
            $crate::provider::bindings::__export_provider_world!($ty);
        };
    };
}
