//! The plugin runtime: loads WebAssembly components, confines them, and calls each one in a fresh
//! instance per call, with a time limit, a memory cap and an outbound allow-list.
//!
//! One [`wasmtime::Engine`] with the pooling allocator serves every plugin. Each plugin is compiled once
//! (or loaded from the on-disk compile cache), linked once into an `InstancePre`, and asked for its
//! `info()` once at start. A call then costs one instantiation from the pool, which is what keeps
//! clients and calls from sharing any state.

pub mod api;
pub mod bindings;
pub mod bundled;
mod call;
pub mod capacity;
pub mod check;
pub mod compile_cache;
pub mod defaults;
mod engine;
mod host;
mod instance;
mod load;
mod load_error;
mod log;
pub mod outbound;
mod plugin;
pub mod price;
mod reuse;
pub mod sandbox;
pub mod settings;
pub mod spec;
mod stream;
pub mod tables;
mod validate;

pub use call::MAX_OUTPUT_BYTES;
pub use engine::Runtime;
pub use host::{PluginHost, ProbeOutcome};
pub use instance::HOST_CLIENT;
pub use load_error::LoadError;
pub use plugin::{Plugin, Sandboxed};
pub use settings::RuntimeConfig;
pub use stream::{ReplyStream, StreamTicket};
// What crosses from a plugin or its upstream into the host, for the fuzz targets' properties.
#[cfg(any(test, feature = "fuzzing"))]
pub(crate) use call::{candidates_problem, paraphrase_problem, reply_problem};
#[cfg(any(test, feature = "fuzzing"))]
pub(crate) use stream::{Event, Framer};
#[cfg(any(test, feature = "fuzzing"))]
pub(crate) use validate::{validate_info, validate_scores};
