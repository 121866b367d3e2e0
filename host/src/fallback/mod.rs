//! Fallback chains and circuit breaking, below the domains that call providers and chat models: the
//! `[fallback]` section (`settings.rs`), what a failure means for a chain (`outcome.rs`), each
//! plugin's circuit (`breaker.rs`), the circuits shared by replicas through Redis (`shared.rs`), and
//! one request's way along its chain (`chain.rs`).

mod breaker;
mod chain;
pub mod outcome;
mod settings;
mod shared;

pub use breaker::{Breakers, CircuitState};
pub use chain::{ChainChoice, Chains, FallbacksField, Plan};
pub use outcome::Attempt;
pub use settings::FallbackConfig;
