//! The plugins' log sink: what a plugin writes through the `host.log` import, in the host's `tracing`
//! output, tagged with the plugin id.

pub(super) fn snippet(text: &str) -> String {
    match text.char_indices().nth(300) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_owned(),
    }
}

/// Writes a plugin's log line into the host's `tracing` output, tagged with the plugin id. Messages are
/// truncated so that a plugin cannot flood the log with one call.
pub(crate) fn log_from_plugin(plugin: &str, level: tracing::Level, message: &str) {
    let message = snippet(message);
    match level {
        tracing::Level::ERROR => tracing::error!(target: "parlance::plugin", plugin, "{message}"),
        tracing::Level::WARN => tracing::warn!(target: "parlance::plugin", plugin, "{message}"),
        tracing::Level::INFO => tracing::info!(target: "parlance::plugin", plugin, "{message}"),
        tracing::Level::DEBUG => tracing::debug!(target: "parlance::plugin", plugin, "{message}"),
        tracing::Level::TRACE => tracing::trace!(target: "parlance::plugin", plugin, "{message}"),
    }
}
