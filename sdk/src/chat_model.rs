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

//!
//! A chat model that streams its reply also implements [`ChatStream`] and is exported with
//! [`export_streaming_chat_model!`](crate::export_streaming_chat_model) instead.

#[doc(hidden)]
pub mod bindings {
    wit_bindgen::generate!({
        path: "../wit",
        world: "parlance:plugin/chat-model-plugin",
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
        export_macro_name: "__export_chat_model_world",
        default_bindings_module: "::parlance_sdk::chat_model::bindings",
    });
}

/// The optional `chat-stream` export (since 0.1.3), bound on its own as `probe` is, so that it joins
/// a component's `chat-model` export without generating that one twice.
#[doc(hidden)]
pub mod stream_bindings {
    wit_bindgen::generate!({
        inline: "
            package parlance:sdk-chat-stream;
            world chat-stream {
                export parlance:plugin/chat-stream@0.1.4;
            }
        ",
        path: "../wit",
        world: "parlance:sdk-chat-stream/chat-stream",
        with: {
            "parlance:plugin/types@0.1.4": crate::bindings::parlance::plugin::types,
            "parlance:plugin/http-client@0.1.4": crate::bindings::parlance::plugin::http_client,
            "wasi:http/types@0.2.12": crate::bindings::wasi::http::types,
            "wasi:io/error@0.2.12": crate::bindings::wasi::io::error,
            "wasi:io/poll@0.2.12": crate::bindings::wasi::io::poll,
            "wasi:io/streams@0.2.12": crate::bindings::wasi::io::streams,
            "wasi:clocks/monotonic-clock@0.2.12": crate::bindings::wasi::clocks::monotonic_clock,
        },
        pub_export_macro: true,
        export_macro_name: "__export_chat_stream_world",
        default_bindings_module: "::parlance_sdk::chat_model::stream_bindings",
    });
}

pub use bindings::exports::parlance::plugin::chat_model::{ChatRequest, DialogEntry, ModelInfo};
pub use stream_bindings::exports::parlance::plugin::chat_stream::{
    Framing, Generation, StreamPart, StreamStart, Usage,
};

/// The streamed request in the type the [`ChatModel`] side uses, so one prompt builder serves both.
#[doc(hidden)]
pub fn __from_stream(
    request: stream_bindings::exports::parlance::plugin::chat_stream::ChatRequest,
) -> ChatRequest {
    ChatRequest {
        history: request
            .history
            .into_iter()
            .map(|e| DialogEntry { index: e.index, name: e.name, message: e.message })
            .collect(),
        message: request.message,
        from_name: request.from_name,
        to_name: request.to_name,
        situation: request.situation,
        genre: request.genre,
    }
}

use crate::PluginError;

/// A chat model: given the dialog so far and the user's message, writes the character's reply.
/// The plugin builds its own prompt from the structured request.
pub trait ChatModel {
    fn info() -> ModelInfo;
    fn reply(request: ChatRequest) -> Result<String, PluginError>;
}

/// A chat model that streams its reply (since `parlance:plugin@0.1.4`), written sans-IO: `start`
/// builds the upstream request and the host sends it; the host splits the answer into events (the
/// `data` of each server-sent event, or each NDJSON line) and hands the ones that arrived together to
/// `decode`, each batch in its own call (a fresh instance or one that answered the same client
/// before), so `decode` keeps no state; an answer outside 2xx goes to
/// `refusal`. Implement it beside [`ChatModel`] and export both with
/// [`export_streaming_chat_model!`](crate::export_streaming_chat_model).
///
/// ```no_run
/// use parlance_sdk::chat_model::{ChatModel, ChatRequest, ChatStream, Framing, Generation, ModelInfo, StreamPart, StreamStart};
/// use parlance_sdk::http::{Request, Response};
/// use parlance_sdk::{PluginError, config, upstream};
///
/// pub struct Echo;
///
/// impl ChatModel for Echo {
///     fn info() -> ModelInfo {
///         ModelInfo { name: "Echo".into() }
///     }
///     fn reply(request: ChatRequest) -> Result<String, PluginError> {
///         Ok(request.message)
///     }
/// }
///
/// impl ChatStream for Echo {
///     fn start(request: ChatRequest, _: Generation) -> Result<StreamStart, PluginError> {
///         let url = config::require("base_url")?;
///         let body = serde_json::json!({ "message": request.message, "stream": true });
///         let request = Request::post(url).json(&body).into_contract()?;
///         Ok(StreamStart { request, framing: Framing::Ndjson })
///     }
///     fn decode(events: Vec<String>) -> Result<Vec<StreamPart>, PluginError> {
///         let mut parts = Vec::new();
///         for event in events {
///             let value: serde_json::Value = serde_json::from_str(&event)
///                 .map_err(|e| PluginError::BadResponse(format!("not JSON: {e}")))?;
///             if let Some(text) = value["text"].as_str() {
///                 parts.push(StreamPart::Delta(text.to_owned()));
///             }
///             if value["done"] == true {
///                 parts.push(StreamPart::Done(None));
///             }
///         }
///         Ok(parts)
///     }
///     fn refusal(response: Response) -> PluginError {
///         upstream::refusal("the echo server", response)
///     }
/// }
///
/// parlance_sdk::export_streaming_chat_model!(Echo);
/// # fn main() {}
/// ```
pub trait ChatStream {
    /// The upstream request of a streamed reply and how its answer is framed.
    fn start(request: ChatRequest, generation: Generation) -> Result<StreamStart, PluginError>;
    /// The parts of the reply in events that arrived together, oldest first. Give
    /// [`StreamPart::Done`] when the protocol says the reply is complete: a stream that ends without
    /// it counts as cut off.
    fn decode(events: Vec<String>) -> Result<Vec<StreamPart>, PluginError>;
    /// The error an answer outside 2xx means; [`crate::upstream::refusal`] maps the statuses as
    /// every bundled plugin does.
    fn refusal(response: crate::http::Response) -> PluginError;
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

/// Exports a [`ChatModel`] that is also a [`ChatStream`] as this component's `chat-model` and
/// `chat-stream` interfaces (world `streaming-chat-model-plugin`). It exports the `chat-model` side
/// itself: use it in place of [`export_chat_model!`](crate::export_chat_model), not beside it.
#[macro_export]
macro_rules! export_streaming_chat_model {
    ($ty:ident) => {
        const _: () = {
            $crate::export_chat_model!($ty);
            impl $crate::chat_model::stream_bindings::exports::parlance::plugin::chat_stream::Guest for $ty {
                fn start(
                    request: $crate::chat_model::stream_bindings::exports::parlance::plugin::chat_stream::ChatRequest,
                    generation: $crate::chat_model::Generation,
                ) -> ::core::result::Result<$crate::chat_model::StreamStart, $crate::PluginError> {
                    <$ty as $crate::chat_model::ChatStream>::start($crate::chat_model::__from_stream(request), generation)
                }
                fn decode(
                    events: ::std::vec::Vec<::std::string::String>,
                ) -> ::core::result::Result<::std::vec::Vec<$crate::chat_model::StreamPart>, $crate::PluginError>
                {
                    <$ty as $crate::chat_model::ChatStream>::decode(events)
                }
                fn refusal(
                    response: $crate::bindings::parlance::plugin::http_client::Response,
                ) -> $crate::PluginError {
                    <$ty as $crate::chat_model::ChatStream>::refusal(response.into())
                }
            }
            #[cfg(target_arch = "wasm32")]
            $crate::chat_model::stream_bindings::__export_chat_stream_world!($ty);
        };
    };
}
