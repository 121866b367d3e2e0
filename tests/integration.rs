//! Black-box tests of Parlance: each module starts real components, real servers on loopback or the
//! real binary.

mod common;

mod api;
mod chat;
mod cli;
mod dataset;
mod metrics;
mod providers;
mod sandbox;
