//! Black-box tests of Parlance: each module starts real components, real servers on loopback or the
//! real binary.

mod common;

mod admin;
mod api;
mod author_kit;
mod candidates;
mod chat;
mod cli;
mod cluster;
mod compat;
mod dataset;
mod embeddings;
mod fallback;
mod hardening;
mod import;
mod jobs;
mod js_provider;
mod keys;
mod limits;
mod metrics;
mod openai_clients;
mod outbound;
mod playground;
mod providers;
mod python_metric;
mod registry;
mod reload;
mod sandbox;
mod streaming;
mod telemetry;
mod usage;
