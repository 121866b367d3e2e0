//! The optional health probe (since `parlance:plugin@0.1.1`): a provider or chat model that
//! implements [`Probe`] and exports it with [`export_probe!`](crate::export_probe) answers
//! `GET /health?probe=true` with what its upstream said; one without it is reported `unsupported`.
//!
//! ```no_run
//! use parlance_sdk::probe::Probe;
//! use parlance_sdk::{PluginError, config};
//!
//! struct Shout;
//!
//! impl Probe for Shout {
//!     fn check() -> Result<String, PluginError> {
//!         let url = config::require("base_url")?;
//!         Ok(format!("{url} is configured"))
//!     }
//! }
//!
//! parlance_sdk::export_probe!(Shout);
//! # fn main() {}
//! ```

#[doc(hidden)]
pub mod bindings {
    wit_bindgen::generate!({
        inline: "
            package parlance:sdk-probe;
            world probe {
                export parlance:plugin/probe@0.1.4;
            }
        ",
        path: "../wit",
        world: "parlance:sdk-probe/probe",
        with: {
            "parlance:plugin/types@0.1.4": crate::bindings::parlance::plugin::types,
        },
        pub_export_macro: true,
        export_macro_name: "__export_probe_world",
        default_bindings_module: "::parlance_sdk::probe::bindings",
    });
}

use crate::PluginError;

/// Asks the upstream something cheap (a model list, a version) and says in a few words what it
/// found. Fails with the error a real call would get: `Unavailable` when the upstream cannot be
/// reached, `Unauthorized` when it refuses the key, `Misconfigured` when the configured model does
/// not exist there.
pub trait Probe {
    fn check() -> Result<String, PluginError>;
}

/// Exports a [`Probe`] implementation as this component's `probe` interface, beside its world's own
/// export.
#[macro_export]
macro_rules! export_probe {
    ($ty:ident) => {
        const _: () = {
            impl $crate::probe::bindings::exports::parlance::plugin::probe::Guest for $ty {
                fn check() -> ::core::result::Result<::std::string::String, $crate::PluginError> {
                    <$ty as $crate::probe::Probe>::check()
                }
            }
            #[cfg(target_arch = "wasm32")]
            $crate::probe::bindings::__export_probe_world!($ty);
        };
    };
}
