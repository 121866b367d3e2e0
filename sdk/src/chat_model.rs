//! The chat-model world: implement [`ChatModel`] and export it with
//! [`export_chat_model!`](crate::export_chat_model).
//!
//! ```no_run
//! use parlance_sdk::chat_model::{ChatModel, ChatRequest, ModelInfo};
//! use parlance_sdk::PluginError;
//!
//! pub struct Parrot;
//!
//! impl ChatModel for Parrot {
//!     fn info() -> ModelInfo {
//!         ModelInfo { name: "Parrot".into() }
//!     }
//!
//!     fn reply(request: ChatRequest) -> Result<String, PluginError> {
//!         Ok(format!("{}, you said: {}", request.from_name, request.message))
//!     }
//! }
//!
//! parlance_sdk::export_chat_model!(Parrot);
//! # fn main() {}
//! ```

#[doc(hidden)]
pub mod bindings {
    wit_bindgen::generate!({
        path: "../wit",
        world: "parlance:plugin/chat-model-plugin",
        with: {
            "parlance:plugin/types@0.1.3": crate::bindings::parlance::plugin::types,
            "parlance:plugin/host@0.1.3": crate::bindings::parlance::plugin::host,
            "parlance:plugin/http-client@0.1.3": crate::bindings::parlance::plugin::http_client,
            "wasi:http/types@0.2.12": crate::bindings::wasi::http::types,
            "wasi:http/outgoing-handler@0.2.12": crate::bindings::wasi::http::outgoing_handler,
            "wasi:io/error@0.2.12": crate::bindings::wasi::io::error,
            "wasi:io/poll@0.2.12": crate::bindings::wasi::io::poll,
            "wasi:io/streams@0.2.12": crate::bindings::wasi::io::streams,
            "wasi:clocks/monotonic-clock@0.2.12": crate::bindings::wasi::clocks::monotonic_clock,
        },
        pub_export_macro: true,
        export_macro_name: "__export_chat_model_world",
        default_bindings_module: "::parlance_sdk::chat_model::bindings",
    });
}

pub use bindings::exports::parlance::plugin::chat_model::{ChatRequest, DialogEntry, ModelInfo};

use crate::PluginError;

/// A chat model: given the dialog so far and the user's message, writes the character's reply.
/// The plugin builds its own prompt from the structured request.
pub trait ChatModel {
    fn info() -> ModelInfo;
    fn reply(request: ChatRequest) -> Result<String, PluginError>;
}

/// Exports a [`ChatModel`] implementation as this component's `chat-model` interface.
#[macro_export]
macro_rules! export_chat_model {
    ($ty:ident) => {
        const _: () = {
            impl $crate::chat_model::bindings::exports::parlance::plugin::chat_model::Guest for $ty {
                fn info() -> $crate::chat_model::ModelInfo {
                    <$ty as $crate::chat_model::ChatModel>::info()
                }
                fn reply(
                    request: $crate::chat_model::ChatRequest,
                ) -> ::core::result::Result<::std::string::String, $crate::PluginError> {
                    <$ty as $crate::chat_model::ChatModel>::reply(request)
                }
            }
            // Natively (a plugin's unit tests) there is no component to export into, and the linker
            // rejects the component-model export names.
            #[cfg(target_arch = "wasm32")]
            $crate::chat_model::bindings::__export_chat_model_world!($ty);
        };
    };
}
