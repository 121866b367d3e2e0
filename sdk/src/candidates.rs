//! The optional candidates export (since `parlance:plugin@0.1.4`): a provider that implements
//! [`Candidates`] and exports it with [`export_candidates!`](crate::export_candidates) writes
//! several paraphrases of a text in one call when a request asks for `candidates`; one without it
//! is called once, and the answer says so.
//!
//! ```no_run
//! use parlance_sdk::candidates::{Candidate, Candidates};
//! use parlance_sdk::PluginError;
//!
//! struct Shout;
//!
//! impl Candidates for Shout {
//!     fn paraphrase_candidates(text: String, model: String, count: u32) -> Result<Vec<Candidate>, PluginError> {
//!         let all = [text.to_uppercase(), text.to_lowercase()];
//!         Ok(all.into_iter().take(count as usize).map(|text| Candidate { text, model: model.clone() }).collect())
//!     }
//! }
//!
//! parlance_sdk::export_candidates!(Shout);
//! # fn main() {}
//! ```

#[doc(hidden)]
pub mod bindings {
    wit_bindgen::generate!({
        inline: "
            package parlance:sdk-candidates;
            world candidates {
                export parlance:plugin/candidates@0.1.4;
            }
        ",
        path: "../wit",
        world: "parlance:sdk-candidates/candidates",
        with: {
            "parlance:plugin/types@0.1.4": crate::bindings::parlance::plugin::types,
        },
        pub_export_macro: true,
        export_macro_name: "__export_candidates_world",
        default_bindings_module: "::parlance_sdk::candidates::bindings",
    });
}

pub use bindings::exports::parlance::plugin::candidates::Candidate;

use crate::PluginError;

/// Up to `count` distinct paraphrases of `text` with `model`, best first. Return fewer when fewer
/// distinct ones exist; a deterministic provider returns the same list for the same text and count.
pub trait Candidates {
    fn paraphrase_candidates(text: String, model: String, count: u32) -> Result<Vec<Candidate>, PluginError>;
}

/// Exports a [`Candidates`] implementation as this component's `candidates` interface, beside its
/// `provider` export.
#[macro_export]
macro_rules! export_candidates {
    ($ty:ident) => {
        const _: () = {
            impl $crate::candidates::bindings::exports::parlance::plugin::candidates::Guest for $ty {
                fn paraphrase_candidates(
                    text: ::std::string::String,
                    model: ::std::string::String,
                    count: u32,
                ) -> ::core::result::Result<
                    ::std::vec::Vec<$crate::candidates::Candidate>,
                    $crate::PluginError,
                > {
                    <$ty as $crate::candidates::Candidates>::paraphrase_candidates(text, model, count)
                }
            }
            #[cfg(target_arch = "wasm32")]
            $crate::candidates::bindings::__export_candidates_world!($ty);
        };
    };
}
