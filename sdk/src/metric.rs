//! The metric world: implement [`Metric`] and export it with [`export_metric!`](crate::export_metric).
//!
//! ```no_run
//! use parlance_sdk::metric::{Metric, MetricInfo, Pair, Score, score, score_info};
//! use parlance_sdk::PluginError;
//!
//! pub struct LengthDelta;
//!
//! impl Metric for LengthDelta {
//!     fn info() -> MetricInfo {
//!         MetricInfo {
//!             name: "Length delta".into(),
//!             scores: vec![score_info("char_delta", "Paraphrase length minus original length, in characters.", true)],
//!         }
//!     }
//!
//!     fn evaluate_pair(pair: &Pair) -> Result<Vec<Score>, PluginError> {
//!         let delta = pair.paraphrase.chars().count() as f64 - pair.original.chars().count() as f64;
//!         Ok(vec![score("char_delta", delta)])
//!     }
//! }
//!
//! parlance_sdk::export_metric!(LengthDelta);
//! # fn main() {}
//! ```

#[doc(hidden)]
pub mod bindings {
    wit_bindgen::generate!({
        path: "../wit",
        world: "parlance:plugin/metric-plugin",
        with: {
            "parlance:plugin/types@0.1.4": crate::bindings::parlance::plugin::types,
            "parlance:plugin/host@0.1.4": crate::bindings::parlance::plugin::host,
            "parlance:plugin/http-client@0.1.4": crate::bindings::parlance::plugin::http_client,
            "parlance:plugin/embeddings@0.1.4": crate::bindings::parlance::plugin::embeddings,
            "wasi:http/types@0.2.12": crate::bindings::wasi::http::types,
            "wasi:http/outgoing-handler@0.2.12": crate::bindings::wasi::http::outgoing_handler,
            "wasi:io/error@0.2.12": crate::bindings::wasi::io::error,
            "wasi:io/poll@0.2.12": crate::bindings::wasi::io::poll,
            "wasi:io/streams@0.2.12": crate::bindings::wasi::io::streams,
            "wasi:clocks/monotonic-clock@0.2.12": crate::bindings::wasi::clocks::monotonic_clock,
        },
        pub_export_macro: true,
        export_macro_name: "__export_metric_world",
        default_bindings_module: "::parlance_sdk::metric::bindings",
    });
}

pub use bindings::exports::parlance::plugin::metric::{MetricInfo, Pair, Score, ScoreInfo};

use crate::PluginError;

/// A metric. Implement [`Metric::evaluate_pair`]; override [`Metric::evaluate`] only when scoring a
/// batch together is cheaper than pair by pair (one embedding call for all pairs, say).
pub trait Metric {
    fn info() -> MetricInfo;

    /// Scores one pair: the reference is `pair.original`, the hypothesis `pair.paraphrase`.
    fn evaluate_pair(pair: &Pair) -> Result<Vec<Score>, PluginError>;

    /// Scores a batch, one result per pair in input order.
    fn evaluate(pairs: Vec<Pair>) -> Vec<Result<Vec<Score>, PluginError>> {
        pairs.iter().map(Self::evaluate_pair).collect()
    }
}

/// Shorthand for a [`Score`].
pub fn score(name: &str, value: f64) -> Score {
    Score { name: name.to_owned(), value }
}

/// Shorthand for a [`ScoreInfo`].
pub fn score_info(name: &str, description: &str, headline: bool) -> ScoreInfo {
    ScoreInfo { name: name.to_owned(), description: description.to_owned(), headline }
}

/// Exports a [`Metric`] implementation as this component's `metric` interface.
#[macro_export]
macro_rules! export_metric {
    ($ty:ident) => {
        const _: () = {
            impl $crate::metric::bindings::exports::parlance::plugin::metric::Guest for $ty {
                fn info() -> $crate::metric::MetricInfo {
                    <$ty as $crate::metric::Metric>::info()
                }
                fn evaluate(
                    pairs: ::std::vec::Vec<$crate::metric::Pair>,
                ) -> ::std::vec::Vec<
                    ::core::result::Result<::std::vec::Vec<$crate::metric::Score>, $crate::PluginError>,
                > {
                    <$ty as $crate::metric::Metric>::evaluate(pairs)
                }
            }
            // Natively (a plugin's unit tests) there is no component to export into, and the linker
            // rejects the component-model export names.
            #[cfg(target_arch = "wasm32")]
            $crate::metric::bindings::__export_metric_world!($ty);
        };
    };
}
