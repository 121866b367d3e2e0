//! Streamed chat replies, sans-IO: the plugin builds the upstream request (`chat-stream.start`) and
//! decodes the events of its answer (`decode`), each a call of its own (in a fresh instance, or one
//! the client's earlier calls left, see `reuse`); the host sends the request under the plugin's
//! outbound policy, reads the body as it arrives and splits it into events. A stream therefore holds
//! no instance of its own, and no pool slot, while it waits on its upstream. A chat model
//! without `chat-stream` answers through `reply`, and its whole reply is one delta.

use super::api::{
    CallError, CallFailure, CallObserver, CallScope, ChatRequest, Framing, Generation, Hold, Meter,
    PluginError, PluginErrorKind, Settlement, StreamPart, Usage,
};
use super::call::MAX_OUTPUT_BYTES;
use super::capacity::StreamHeld;
use super::engine::Runtime;
use super::host::{PluginHost, settled};
use super::instance::{call_span, conclude, invalid, new_store, reported, run};
use super::outbound::OutboundError;
use super::plugin::Plugin;
use crate::telemetry::WithSpan;
use crate::upstream::{Failure, ResponseBody, UpstreamError, with_causes};
use bytes::Bytes;
use futures::FutureExt;
use http_body::Frame;
use http_body_util::BodyExt;
use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Instant;

/// How long the rest of a body is waited for once the upstream has said the reply is complete.
const AFTER_DONE: std::time::Duration = std::time::Duration::from_millis(500);

/// The most events one `decode` is given: the frames that arrived together are decoded together, up
/// to this many, so a reply that is already waiting in full is still given out as it is decoded.
const MAX_EVENTS_PER_DECODE: usize = 64;

impl PluginHost {
    /// Admits one more open stream of `plugin` for `client` within their shares of the open streams
    /// (`[runtime] max_streams`, `max_streams_per_client`), or says whose share is full.
    pub fn admit_stream(&self, plugin: &Arc<Plugin>, client: &str) -> Result<StreamTicket, CallError> {
        let held = self.runtime.capacity.streams.admit(plugin.id(), client).inspect_err(|e| {
            if let Some(observer) = &self.observer {
                observer.call_ended(plugin.id(), Err(e), std::time::Duration::ZERO);
            }
        })?;
        Ok(StreamTicket { plugin: plugin.clone(), client: client.into(), held })
    }

    /// Starts the character's reply as a stream of parts, under an admitted `ticket`. The error is a
    /// failure before anything was written: the upstream refused, could not be reached, or the plugin
    /// failed.
    pub async fn reply_stream(
        &self,
        ticket: StreamTicket,
        request: &ChatRequest<'_>,
        generation: &Generation,
    ) -> Result<ReplyStream, CallError> {
        let StreamTicket { plugin, client, held } = ticket;
        let (plugin, client) = (&plugin, &*client);
        let started = Instant::now();
        let mut stream = ReplyStream {
            _held: held,
            plugin: plugin.clone(),
            runtime: self.runtime.clone(),
            observer: self.observer.clone(),
            meter: self.meter.clone(),
            scope: CallScope::current(),
            usage: Usage::default(),
            model: None,
            settling: None,
            settled: false,
            hold: None,
            client: client.into(),
            body: None,
            framer: Framer::new(Framing::Ndjson),
            pending: VecDeque::new(),
            given_back: VecDeque::new(),
            deferred: None,
            reply_bytes: 0,
            wrote: false,
            finished: None,
            whole: false,
            started,
            state: State::Open,
            span: crate::telemetry::Span::none(),
        };
        if !plugin.bound.has_stream() {
            // `reply` counts its own call; a failed one is not a cancelled stream.
            match self.reply(plugin, client, request).await {
                Ok(reply) => {
                    stream.whole = true;
                    stream.pending.extend([StreamPart::Delta(reply), StreamPart::Done(None)]);
                }
                Err(e) => {
                    stream.state = State::Ended;
                    return Err(e);
                }
            }
            return Ok(stream);
        }
        let model = plugin.spec().settings.get("model").map(String::as_str);
        stream.hold =
            match self.admit(plugin, client, model, request.input_bytes(), 1, generation.max_tokens).await {
                Ok(hold) => hold,
                Err(e) => {
                    // Refused before anything was sent: no call to record, no stream to count.
                    (stream.state, stream.settled) = (State::Ended, true);
                    return Err(e);
                }
            };
        let span = call_span(plugin, "chat", None);
        stream.span = span.clone();
        match stream.open(request, generation).in_span(span).await {
            Ok(()) => Ok(stream),
            Err(e) => {
                // A stream that never started is one failed call, not a cancelled stream.
                stream.observe(Err(&e));
                stream.state = State::Ended;
                stream.on_record().await;
                Err(e)
            }
        }
    }
}

/// A stream admitted within its shares, not yet started.
pub struct StreamTicket {
    plugin: Arc<Plugin>,
    client: Arc<str>,
    held: StreamHeld,
}

impl StreamTicket {
    /// The plugin the stream is admitted for.
    pub fn plugin(&self) -> &Arc<Plugin> {
        &self.plugin
    }
}

/// One streamed reply. [`ReplyStream::next`] gives its parts in order; the last is
/// [`StreamPart::Done`] or an error. Dropping it before then closes the upstream connection and
/// counts the stream as cancelled by its client, unless [`ReplyStream::cancel`] named another cause.
pub struct ReplyStream {
    /// Its shares of the open streams, given back when it is dropped.
    _held: StreamHeld,
    plugin: Arc<Plugin>,
    runtime: Arc<Runtime>,
    observer: Option<Arc<dyn CallObserver>>,
    meter: Option<Arc<dyn Meter>>,
    /// Who the stream is for, taken when it started: its parts are read outside the request's task.
    scope: CallScope,
    /// The token counts the upstream reported, the latest of each.
    usage: Usage,
    /// The model the upstream named.
    model: Option<String>,
    /// The stream's record, on its way to the meter; the stream's last part waits for it.
    settling: Option<Settlement>,
    settled: bool,
    /// What the stream holds of its caller's limits, given back with its record.
    hold: Option<Hold>,
    client: Arc<str>,
    /// The upstream's body while it is being read.
    body: Option<ResponseBody>,
    framer: Framer,
    /// Parts decoded and not yet given out.
    pending: VecDeque<StreamPart>,
    /// Parts given out already and given back by [`ReplyStream::until_text`], to be given out again.
    given_back: VecDeque<StreamPart>,
    /// A failure to report once the parts decoded before it have been given out, with its cause.
    deferred: Option<(&'static str, CallError)>,
    reply_bytes: usize,
    /// Whether any text has been given out.
    wrote: bool,
    /// The upstream said the reply is complete (with its finish reason): what follows until its body
    /// ends (usage, typically) is still read, then the stream ends.
    finished: Option<Option<String>>,
    /// The reply came whole from `reply`, which counted its own call.
    whole: bool,
    started: Instant,
    state: State,
    /// The stream's plugin-call span, open until the stream is dropped: its start, decodes and
    /// upstream request are its children, and the model and usage the upstream reports its attributes.
    span: crate::telemetry::Span,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Open,
    /// Ended: complete, failed, or cancelled with its cause already counted.
    Ended,
}

impl ReplyStream {
    /// The plugin that writes the reply.
    pub fn plugin(&self) -> &Arc<Plugin> {
        &self.plugin
    }

    async fn open(&mut self, request: &ChatRequest<'_>, generation: &Generation) -> Result<(), CallError> {
        let plugin = self.plugin.clone();
        let start = {
            let mut store = new_store(&self.runtime, &plugin, &self.client).await?;
            let outcome = run(&plugin, plugin.bound.stream_start(&mut store, request, generation)).await;
            conclude(&plugin, &mut store, outcome)?.map_err(|e| reported(&plugin, &store, e))?
        };
        let outbound = plugin.ctx.outbound();
        let sent =
            outbound.send_streaming(start.method, &start.url, start.headers, start.body, start.timeout).await;
        let (parts, body) = sent.map_err(|e| {
            let mut error = CallError::new(plugin.id(), CallFailure::Reported(outbound_error(&e)));
            error.denied_requests = outbound.denied();
            error
        })?;
        if !parts.status.is_success() {
            // The refusal's own words (an error object) say why; the body is small and within the cap.
            let bytes = body.bytes().await.map(|b| b.to_vec()).unwrap_or_default();
            let mut store = new_store(&self.runtime, &plugin, &self.client).await?;
            let outcome = run(&plugin, plugin.bound.stream_refusal(&mut store, &parts, bytes)).await;
            let error = conclude(&plugin, &mut store, outcome)?;
            return Err(CallError::new(plugin.id(), CallFailure::Reported(error)));
        }
        self.framer = Framer::new(start.framing);
        self.body = Some(body);
        Ok(())
    }

    /// The next part of the reply; `None` once it is complete or has failed. The last part is given
    /// out once the stream is on record.
    pub async fn next(&mut self) -> Option<Result<StreamPart, CallError>> {
        let part = match self.given_back.pop_front() {
            Some(part) => Some(Ok(part)),
            None => self.read().await,
        };
        self.on_record().await;
        part
    }

    /// Waits until the stream's record, once made, is kept.
    async fn on_record(&mut self) {
        if let Some(settling) = self.settling.take() {
            settling.await;
        }
    }

    /// Records the stream as one call, once: what the upstream reported of it, and how it ended.
    fn settle(&mut self, failure: Option<&'static str>) {
        if self.settled || self.whole {
            return;
        }
        self.settled = true;
        let Some(meter) = &self.meter else { return };
        let plugin = &self.plugin;
        let asked = plugin.spec().settings.get("model").map(String::as_str);
        let model = asked.or(self.model.as_deref());
        let record =
            settled(plugin, &self.client, model, self.usage, failure, self.scope.clone(), self.hold.take());
        self.settling = Some(meter.settle(record));
    }

    /// Reads the reply up to its first text, or to its end when it has none, and gives back what it
    /// read, for [`ReplyStream::next`] to give out again. Up to there nothing was written, so a failure
    /// is one a fallback chain may still move on from.
    pub async fn until_text(&mut self) -> Result<(), CallError> {
        while let Some(part) = self.read().await {
            let part = part?;
            let reached = match &part {
                StreamPart::Delta(text) => !text.is_empty(),
                StreamPart::Done(_) => true,
                StreamPart::Model(_) | StreamPart::Usage(_) => false,
            };
            self.given_back.push_back(part);
            if reached {
                break;
            }
        }
        self.on_record().await;
        Ok(())
    }

    async fn read(&mut self) -> Option<Result<StreamPart, CallError>> {
        if self.state == State::Ended {
            return None;
        }
        loop {
            if let Some(part) = self.pending.pop_front() {
                match self.give(part) {
                    Ok(None) => continue,
                    Ok(Some(part)) => return Some(Ok(part)),
                    Err(e) => return Some(Err(e)),
                }
            }
            if let Some((cause, error)) = self.deferred.take() {
                return Some(self.stop(cause, error));
            }
            let Some(body) = self.body.as_mut() else {
                return Some(self.complete());
            };
            // Once the upstream has said the reply is complete, what may follow (usage, `[DONE]`)
            // comes at once; an upstream that then holds the connection open is not waited for.
            let frame = match self.finished {
                None => body.frame().await,
                Some(_) => tokio::time::timeout(AFTER_DONE, body.frame()).await.unwrap_or(None),
            };
            let mut events = Vec::new();
            self.take(frame, &mut events);
            // The frames that have already arrived join the same `decode`: a burst of events costs
            // one instance, not one each.
            while self.deferred.is_none() && events.len() < MAX_EVENTS_PER_DECODE {
                let Some(frame) = self.body.as_mut().and_then(|body| body.frame().now_or_never()) else {
                    break;
                };
                self.take(frame, &mut events);
            }
            if events.is_empty() {
                continue;
            }
            match self.decode(&events).await {
                Ok(parts) => self.pending.extend(parts),
                Err(e) => return Some(self.stop(decode_cause(&e), e)),
            }
        }
    }

    /// Frames one read of the body into `events`. A read that fails, or a line that is not UTF-8, is
    /// deferred until the events before it have been decoded and given out, so a reply that breaks
    /// off keeps the text it had.
    fn take(&mut self, frame: Option<Result<Frame<Bytes>, UpstreamError>>, events: &mut Vec<String>) {
        let mut framed = Vec::new();
        match frame {
            Some(Ok(frame)) => {
                if let Ok(data) = frame.into_data() {
                    self.framer.push(&data, &mut framed);
                }
            }
            Some(Err(e)) => {
                let cause =
                    if matches!(e.failure(), Failure::TooLarge { .. }) { "limit" } else { "upstream" };
                let error = CallError::new(self.plugin.id(), CallFailure::Reported(upstream_error(&e)));
                self.deferred = Some((cause, error));
            }
            None => {
                self.body = None;
                self.framer.finish(&mut framed);
            }
        }
        for event in framed {
            match event {
                Ok(event) => events.push(event),
                Err(detail) => {
                    let error = PluginError::new(PluginErrorKind::BadResponse, detail);
                    let error = CallError::new(self.plugin.id(), CallFailure::Reported(error));
                    self.deferred = Some(("upstream", error));
                    self.body = None;
                    return;
                }
            }
        }
    }

    /// Decodes `events` in one instance. When that fails and there were several, they are decoded
    /// one at a time, so that the parts before the event that failed are still given out and the
    /// failure comes after them, as it would have without the batching.
    async fn decode(&mut self, events: &[String]) -> Result<Vec<StreamPart>, CallError> {
        match self.decode_in_one(events).await {
            Err(whole) if events.len() > 1 => {
                let mut parts = Vec::new();
                let mut error = whole;
                for event in events {
                    match self.decode_in_one(std::slice::from_ref(event)).await {
                        Ok(more) => parts.extend(more),
                        Err(e) => {
                            error = e;
                            break;
                        }
                    }
                }
                self.deferred = Some((decode_cause(&error), error));
                Ok(parts)
            }
            other => other,
        }
    }

    async fn decode_in_one(&self, events: &[String]) -> Result<Vec<StreamPart>, CallError> {
        let plugin = &self.plugin;
        let mut store = new_store(&self.runtime, plugin, &self.client).await?;
        let outcome =
            run(plugin, plugin.bound.stream_decode(&mut store, events)).in_span(self.span.clone()).await;
        conclude(plugin, &mut store, outcome)?.map_err(|e| reported(plugin, &store, e))
    }

    /// Checks a decoded part: `Some` to give it out now, `None` to hold it back (a `done`, given out
    /// once the body has ended; anything after it but usage and the model's name).
    fn give(&mut self, part: StreamPart) -> Result<Option<StreamPart>, CallError> {
        match &part {
            StreamPart::Delta(_) | StreamPart::Done(_) if self.finished.is_some() => return Ok(None),
            StreamPart::Delta(text) => {
                self.reply_bytes += text.len();
                if self.reply_bytes > MAX_OUTPUT_BYTES {
                    let detail = format!("the reply is larger than {MAX_OUTPUT_BYTES} bytes");
                    return self.fail("limit", CallFailure::InvalidOutput(detail)).map(Some);
                }
                if !self.wrote && !text.trim().is_empty() {
                    self.wrote = true;
                    if let Some(observer) = &self.observer {
                        observer.first_delta(self.plugin.id(), self.started.elapsed());
                    }
                }
            }
            StreamPart::Done(reason) => {
                self.finished = Some(reason.clone());
                return Ok(None);
            }
            StreamPart::Model(model) => {
                if self.span.is_recording() {
                    self.span.set_attribute("gen_ai.response.model", model.clone());
                }
                self.model = Some(model.clone());
            }
            StreamPart::Usage(usage) => {
                // An upstream may report again as it goes (cumulative counts): the latest of each holds.
                self.usage = Usage {
                    input_tokens: usage.input_tokens.or(self.usage.input_tokens),
                    output_tokens: usage.output_tokens.or(self.usage.output_tokens),
                };
                // Only what the upstream reported: an unknown count is left out, never written as zero.
                let counts = [
                    ("gen_ai.usage.input_tokens", usage.input_tokens),
                    ("gen_ai.usage.output_tokens", usage.output_tokens),
                ];
                for (key, count) in counts {
                    if let Some(count) = count {
                        self.span.set_attribute(key, i64::from(count));
                    }
                }
            }
        }
        Ok(Some(part))
    }

    /// The body has ended: the reply is complete if the upstream said so and held some text, and was
    /// cut off otherwise.
    fn complete(&mut self) -> Result<StreamPart, CallError> {
        let Some(reason) = self.finished.take() else {
            let error = PluginError::new(
                PluginErrorKind::Unavailable,
                "the upstream ended the stream before the reply was complete",
            );
            return self.fail("upstream", CallFailure::Reported(error));
        };
        if !self.wrote {
            let error = invalid(&self.plugin, "the reply is empty".into());
            self.observe(Err(&error));
            self.end(Some("plugin"));
            return Err(error);
        }
        self.observe(Ok(()));
        self.end(None);
        Ok(StreamPart::Done(reason))
    }

    fn fail(&mut self, cause: &'static str, failure: CallFailure) -> Result<StreamPart, CallError> {
        self.stop(cause, CallError::new(self.plugin.id(), failure))
    }

    /// Ends the stream with `error`, counted as cancelled by `cause`.
    fn stop(&mut self, cause: &'static str, error: CallError) -> Result<StreamPart, CallError> {
        tracing::warn!(plugin = %self.plugin.id(), "the streamed reply failed: {error}");
        self.observe(Err(&error));
        self.end(Some(cause));
        Err(error)
    }

    /// Ends the stream once, counting it as complete (`None`) or cancelled by `cause`, and closes the
    /// upstream connection.
    fn end(&mut self, cancelled: Option<&'static str>) {
        if self.state == State::Ended {
            return;
        }
        self.state = State::Ended;
        self.body = None;
        // A stream cut short may still have been billed for what the upstream wrote.
        self.settle(cancelled.map(|_| "cancelled"));
        if let Some(observer) = &self.observer {
            observer.stream_ended(self.plugin.id(), cancelled, self.started.elapsed());
        }
    }

    /// Counts the stream as one plugin call, from its start to its outcome.
    fn observe(&mut self, outcome: Result<(), &CallError>) {
        if self.whole {
            return;
        }
        if let Err(e) = outcome {
            self.span.set_error(e.failure.label());
        }
        self.settle(outcome.err().map(|e| e.failure.label()));
        if let Some(observer) = &self.observer {
            observer.call_ended(self.plugin.id(), outcome, self.started.elapsed());
        }
    }

    /// Ends the stream for `cause` (such as `deadline`) before it is dropped.
    pub fn cancel(&mut self, cause: &'static str) {
        self.end(Some(cause));
    }
}

impl Drop for ReplyStream {
    fn drop(&mut self) {
        self.end(Some("client"));
        // The client is gone; its record is kept all the same.
        if let (Some(settling), Ok(runtime)) = (self.settling.take(), tokio::runtime::Handle::try_current()) {
            runtime.spawn(settling);
        }
    }
}

/// Who a failed `decode` is counted against: the upstream when the plugin said its events were wrong,
/// the plugin when it trapped, ran out of time or memory, or answered nonsense.
fn decode_cause(error: &CallError) -> &'static str {
    match &error.failure {
        CallFailure::Reported(_) => "upstream",
        _ => "plugin",
    }
}

/// The plugin error an outbound failure means, in the words the SDK's mapping uses.
fn outbound_error(e: &OutboundError) -> PluginError {
    match e {
        OutboundError::Upstream(e) => upstream_error(e),
        OutboundError::Refused(code) => {
            use wasmtime_wasi_http::p2::bindings::http::types::ErrorCode;
            match code {
                ErrorCode::HttpRequestDenied => PluginError::new(
                    PluginErrorKind::Unavailable,
                    "request denied: the destination is not in this plugin's allowed_hosts",
                ),
                ErrorCode::HttpRequestUriInvalid => PluginError::new(
                    PluginErrorKind::Misconfigured,
                    "the stream's URL is not an absolute URL",
                ),
                other => {
                    PluginError::new(PluginErrorKind::Internal, format!("the stream's request: {other:?}"))
                }
            }
        }
    }
}

fn upstream_error(e: &UpstreamError) -> PluginError {
    let kind = match e.failure() {
        Failure::Timeout(_) => PluginErrorKind::Timeout,
        Failure::TooLarge { .. } | Failure::Protocol => PluginErrorKind::BadResponse,
        _ => PluginErrorKind::Unavailable,
    };
    PluginError::new(kind, format!("the upstream stream failed: {}", with_causes(e)))
}

/// Splits a streamed body into the events its framing defines: the `data` of each server-sent event
/// (its lines joined by a line break), or each non-blank NDJSON line. A line that is not UTF-8 is an
/// `Err` naming the problem.
pub(crate) struct Framer {
    framing: Framing,
    /// Bytes of a line not yet ended.
    line: Vec<u8>,
    /// The `data` of the server-sent event being read.
    data: Option<String>,
    /// The previous chunk ended with `\r`, so a `\n` starting this one ends nothing.
    after_cr: bool,
}

pub(crate) type Event = Result<String, String>;

impl Framer {
    pub(crate) fn new(framing: Framing) -> Framer {
        Framer { framing, line: Vec::new(), data: None, after_cr: false }
    }

    pub(crate) fn push(&mut self, mut bytes: &[u8], out: &mut Vec<Event>) {
        // An empty read must not forget that the last one ended with `\r`: its `\n` may come next.
        if bytes.is_empty() {
            return;
        }
        if self.after_cr && bytes.first() == Some(&b'\n') {
            bytes = &bytes[1..];
        }
        self.after_cr = false;
        while let Some(end) = memchr::memchr2(b'\n', b'\r', bytes) {
            self.line.extend_from_slice(&bytes[..end]);
            let crlf = bytes[end] == b'\r';
            bytes = &bytes[end + 1..];
            if crlf {
                match bytes.first() {
                    Some(b'\n') => bytes = &bytes[1..],
                    None => self.after_cr = true,
                    Some(_) => {}
                }
            }
            let line = std::mem::take(&mut self.line);
            self.line_ended(line, out);
        }
        self.line.extend_from_slice(bytes);
    }

    /// The body ended: an NDJSON line without its line break still counts; a server-sent event that
    /// was never ended by a blank line does not (as the standard says).
    pub(crate) fn finish(&mut self, out: &mut Vec<Event>) {
        let line = std::mem::take(&mut self.line);
        if self.framing == Framing::Ndjson && !line.is_empty() {
            self.line_ended(line, out);
        }
        self.data = None;
    }

    fn line_ended(&mut self, line: Vec<u8>, out: &mut Vec<Event>) {
        let line = match String::from_utf8(line) {
            Ok(line) => line,
            Err(_) => {
                out.push(Err("the upstream's stream is not UTF-8".into()));
                return;
            }
        };
        match self.framing {
            Framing::Ndjson => {
                if !line.trim().is_empty() {
                    out.push(Ok(line));
                }
            }
            Framing::ServerSentEvents => {
                if line.is_empty() {
                    if let Some(data) = self.data.take() {
                        out.push(Ok(data));
                    }
                    return;
                }
                if line.starts_with(':') {
                    return;
                }
                let (field, value) = line.split_once(':').unwrap_or((&line, ""));
                if field == "data" {
                    let value = value.strip_prefix(' ').unwrap_or(value);
                    match &mut self.data {
                        Some(data) => {
                            data.push('\n');
                            data.push_str(value);
                        }
                        None => self.data = Some(value.to_owned()),
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(framing: Framing, chunks: &[&str]) -> Vec<Event> {
        let mut framer = Framer::new(framing);
        let mut out = Vec::new();
        for chunk in chunks {
            framer.push(chunk.as_bytes(), &mut out);
        }
        framer.finish(&mut out);
        out
    }

    fn ok(events: &[&str]) -> Vec<Event> {
        events.iter().map(|e| Ok((*e).to_owned())).collect()
    }

    #[test]
    fn server_sent_events_are_split_by_blank_lines_across_chunks() {
        let chunks = [
            "data: {\"a\":1}\n\ndata: {\"b\"",
            ":2}\r\n\r",
            "\n: keep-alive\n\nevent: x\ndata: one\ndata:two\n\n",
        ];
        assert_eq!(frame(Framing::ServerSentEvents, &chunks), ok(&["{\"a\":1}", "{\"b\":2}", "one\ntwo"]));
        // An event the body never ended is dropped.
        assert_eq!(frame(Framing::ServerSentEvents, &["data: [DONE]\n\ndata: half"]), ok(&["[DONE]"]));
        assert_eq!(frame(Framing::ServerSentEvents, &["data: x\r\rdata: y\r\r"]), ok(&["x", "y"]));
    }

    #[test]
    fn an_empty_read_between_cr_and_lf_ends_one_line() {
        // Found by the `framing` fuzz target: the empty read forgot the `\r`, so its `\n` ended an
        // empty line of its own, and the event was cut in two.
        let chunks = ["data: x\r", "", "\ndata: y\r\n\r\n"];
        assert_eq!(frame(Framing::ServerSentEvents, &chunks), ok(&["x\ny"]));
    }

    #[test]
    fn ndjson_lines_keep_their_last_line_and_skip_blank_ones() {
        let chunks = ["{\"a\":1}\n\n{\"b\"", ":2}\n", "{\"c\":3}"];
        assert_eq!(frame(Framing::Ndjson, &chunks), ok(&["{\"a\":1}", "{\"b\":2}", "{\"c\":3}"]));
    }

    #[test]
    fn a_line_that_is_not_utf8_is_an_error() {
        let mut framer = Framer::new(Framing::Ndjson);
        let mut out = Vec::new();
        framer.push(b"\xff\xfe\n", &mut out);
        assert!(out[0].is_err());
    }
}
