//! A streamed reply's opening, shared by `/v1/waifu` and `/v1/chat/completions`: a chain member's
//! reply started and read up to its first text, the point until which a failure still moves on along
//! the chat model's chain.

use crate::plugins::api::{CallError, CallFailure, ChatRequest, Generation};
use crate::plugins::{PluginHost, ReplyStream, StreamTicket};
use std::time::Duration;

/// Starts the reply of the member `ticket` admits and reads it up to its first text (or its end,
/// when it has none), by `deadline`; the stream gives out what was read again. An error is a failure
/// before anything was written: to start, in the stream before its first delta, or the deadline
/// (`timeout_secs` after the turn began) passing.
pub async fn open_reply(
    plugins: &PluginHost,
    ticket: StreamTicket,
    request: &ChatRequest<'_>,
    generation: &Generation,
    deadline: tokio::time::Instant,
    timeout_secs: u64,
) -> Result<ReplyStream, CallError> {
    let model = ticket.plugin().id().to_owned();
    let late = || deadline_error(&model, timeout_secs);
    let started = tokio::time::timeout_at(deadline, plugins.reply_stream(ticket, request, generation)).await;
    let mut stream = started.map_err(|_| late())??;
    match tokio::time::timeout_at(deadline, stream.until_text()).await {
        Ok(read) => read.map(|()| stream),
        Err(_) => {
            // Counted as the deadline's, not as a client that went away.
            stream.cancel("deadline");
            Err(late())
        }
    }
}

/// The error of a streamed reply that ran past `timeout_secs`.
pub fn deadline_error(model: &str, timeout_secs: u64) -> CallError {
    CallError::new(model, CallFailure::Deadline(Duration::from_secs(timeout_secs)))
}
