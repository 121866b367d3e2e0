//! One instance of a plugin for one call: the wait for a slot, the store (a fresh one with the
//! sandbox's state and the memory cap, or the one the client's previous call left, see `reuse`), the
//! deadline, the call's span with the GenAI attributes, and its outcome turned into the host's error
//! model. The per-world calls and the loader's `info()` run through here.

use super::api::{CallError, CallFailure, PluginError};
use super::engine::{EPOCH_TICK, Runtime};
use super::log::snippet;
use super::plugin::Sandboxed;
use super::reuse::CallStore;
use super::reuse::{Reused, Wear};
use super::sandbox::PluginState;
use crate::telemetry;
use std::time::Instant;
use wasmtime::{Store, Trap, UpdateDeadline};

/// The client of calls the host makes for itself (`info()` at load, probes).
pub const HOST_CLIENT: &str = "parlance";

/// The span of one plugin call, named as the GenAI conventions name an inference
/// (`{operation} {model}`), with what is known before it runs.
pub(super) fn call_span(
    plugin: &Sandboxed,
    operation: &'static str,
    model: Option<&str>,
) -> crate::telemetry::Span {
    let span = telemetry::trace_span!(
        format!("{operation} {}", model.unwrap_or(plugin.id())),
        Internal,
        "parlance.plugin.id" => plugin.id().to_owned(),
        "gen_ai.operation.name" => operation,
        "gen_ai.provider.name" => provider_name(plugin).to_owned(),
    );
    if let Some(model) = model
        && span.is_recording()
    {
        span.set_attribute("gen_ai.request.model", model.to_owned());
    }
    span
}

/// The provider as the GenAI conventions mean it: the protocol a bundled component speaks
/// (`openai`, `gemini`, …), or the plugin's id for a component of the operator's.
fn provider_name(plugin: &Sandboxed) -> &str {
    match &plugin.spec().component {
        super::spec::ComponentSource::Builtin(name) => name,
        super::spec::ComponentSource::File(_) | super::spec::ComponentSource::Oci(_) => plugin.id(),
    }
}

/// Writes a call's outcome on its span: `error.type` when it failed, else what `ok` adds.
pub(super) fn traced<R>(span: &crate::telemetry::Span, result: &Result<R, CallError>, ok: impl FnOnce(&R)) {
    if !span.is_recording() {
        return;
    }
    match result {
        Ok(value) => ok(value),
        Err(e) => span.set_error(e.failure.label()),
    }
}

/// Waits for a free instance slot (of `client`'s share, of the plugin's, of the pool), then makes
/// the call's store, or takes the one `client`'s previous call of the plugin left. The deadline
/// starts once the slots are held, so time spent queueing behind other calls is not charged to this
/// one.
pub(super) async fn new_store(
    runtime: &Runtime,
    plugin: &Sandboxed,
    client: &str,
) -> Result<CallStore, CallError> {
    let queued = Instant::now();
    let slots = runtime.capacity.acquire(plugin.id(), &plugin.slots, client).await?;
    let span = crate::telemetry::Span::current();
    span.set_attribute("parlance.plugin.queued_ms", queued.elapsed().as_millis() as i64);
    let (mut store, instance, wear) = match plugin.kept.take(client) {
        Some(Reused { mut store, instance, wear }) => {
            store.data_mut().begin_call();
            (store, Some(instance), wear)
        }
        None => {
            let state =
                PluginState::new(plugin.ctx.clone(), plugin.memory.clone(), runtime.capacity.budget.clone())
                    .map_err(|e| CallError::new(plugin.id(), CallFailure::NotStarted(format!("{e:#}"))))?;
            let mut store = Store::new(&runtime.engine, state);
            store.limiter(|s| &mut s.memory);
            (store, None, Wear::default())
        }
    };
    span.set_attribute("parlance.plugin.instance_reused", instance.is_some());
    // The callback runs every tick while wasm executes: it yields to the async runtime, so a spinning
    // plugin cannot starve other tasks, and interrupts the plugin once its time is up.
    let deadline = Instant::now() + plugin.spec().limits.timeout;
    store.set_epoch_deadline(1);
    store.epoch_deadline_callback(move |_| {
        Ok(if Instant::now() >= deadline { UpdateDeadline::Interrupt } else { UpdateDeadline::Yield(1) })
    });
    let keep = plugin.kept.enabled().then(|| (plugin.kept.clone(), client.into()));
    Ok(CallStore::new(store, instance, wear, keep, slots))
}

/// The outcome of running a call under the wall-clock limit, which also covers time spent blocked in
/// host calls (outbound HTTP), where epochs cannot interrupt.
pub(super) type Outcome<R> = Result<wasmtime::Result<R>, tokio::time::error::Elapsed>;

pub(super) async fn run<R>(
    plugin: &Sandboxed,
    call: impl Future<Output = wasmtime::Result<R>>,
) -> Outcome<R> {
    // A little grace, so that a plugin spinning in wasm is stopped by its epoch deadline (and reported
    // with its own stderr) before the wall clock gives up on it.
    tokio::time::timeout(plugin.spec().limits.timeout + EPOCH_TICK * 5, call).await
}

/// Turns a call's outcome into the host's error model, using what the store saw during the call.
pub(super) fn conclude<R>(
    plugin: &Sandboxed,
    store: &mut CallStore,
    outcome: Outcome<R>,
) -> Result<R, CallError> {
    store.answered(matches!(outcome, Ok(Ok(_))));
    let state = store.data();
    crate::telemetry::Span::current()
        .set_attribute("parlance.plugin.memory_peak_bytes", state.memory.used_bytes() as i64);
    let stderr = state.stderr.text();
    let mut cause = None;
    let failure = match outcome {
        Ok(Ok(value)) => {
            if !stderr.is_empty() {
                tracing::debug!(plugin = %plugin.id(), output = %stderr, "plugin output");
            }
            return Ok(value);
        }
        Err(_) => CallFailure::Deadline(plugin.spec().limits.timeout),
        Ok(Err(_)) if state.memory.exceeded => {
            CallFailure::MemoryLimit { limit_bytes: plugin.spec().limits.memory_bytes }
        }
        Ok(Err(_)) if state.memory.over_budget => {
            CallFailure::MemoryBudget { budget_bytes: state.memory.budget_bytes() }
        }
        Ok(Err(e)) if e.downcast_ref::<Trap>() == Some(&Trap::Interrupt) => {
            CallFailure::Deadline(plugin.spec().limits.timeout)
        }
        Ok(Err(e)) => {
            // The trap itself, not the wasm backtrace wasmtime attaches, which means nothing to a client.
            let mut detail = match e.downcast_ref::<Trap>() {
                Some(trap) => format!("wasm trap: {trap}"),
                None => e.to_string(),
            };
            if let Some(panic) = panic_message(&stderr) {
                detail = format!("{detail}; it panicked: {panic}");
            }
            cause = Some(std::sync::Arc::new(e));
            CallFailure::Trap(detail)
        }
    };
    let mut error = CallError::new(plugin.id(), failure);
    error.cause = cause;
    error.denied_requests = state.outbound.denied();
    tracing::warn!(plugin = %plugin.id(), output = %stderr, "{error}");
    Err(error)
}

/// An error the plugin reported, with the requests the sandbox refused it, which usually explain it.
pub(super) fn reported(plugin: &Sandboxed, store: &Store<PluginState>, error: PluginError) -> CallError {
    let mut e = CallError::new(plugin.id(), CallFailure::Reported(error));
    e.denied_requests = store.data().outbound.denied();
    e
}

pub(super) fn invalid(plugin: &Sandboxed, detail: String) -> CallError {
    tracing::warn!(plugin = %plugin.id(), "invalid plugin output: {detail}");
    CallError::new(plugin.id(), CallFailure::InvalidOutput(detail))
}

/// The message of a Rust panic in a plugin's captured stderr: the line after `panicked at …:`.
fn panic_message(stderr: &str) -> Option<String> {
    let mut lines = stderr.lines();
    lines.find(|l| l.contains("panicked at"))?;
    lines.next().map(|m| snippet(m.trim())).filter(|m| !m.is_empty())
}

#[cfg(test)]
mod tests {
    use super::panic_message;

    #[test]
    fn finds_the_panic_message() {
        let stderr = "log line\nthread '<unnamed>' (1) panicked at src/lib.rs:22:23:\nboom: deliberate\nnote: run with RUST_BACKTRACE";
        assert_eq!(panic_message(stderr).as_deref(), Some("boom: deliberate"));
        assert_eq!(panic_message("no panic here"), None);
    }
}
