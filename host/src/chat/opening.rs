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
    let opening = async {
        let mut stream = plugins.reply_stream(ticket, request, generation).await?;
        stream.until_text().await?;
        Ok(stream)
    };
    tokio::time::timeout_at(deadline, opening)
        .await
        .unwrap_or_else(|_| Err(deadline_error(&model, timeout_secs)))
}

/// The error of a streamed reply that ran past `timeout_secs`.
pub fn deadline_error(model: &str, timeout_secs: u64) -> CallError {
    CallError::new(model, CallFailure::Deadline(Duration::from_secs(timeout_secs)))
}
