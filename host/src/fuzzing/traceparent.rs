//! A caller's `traceparent` (and `tracestate`), as a request's trace is continued from them
//! (`telemetry::caller_context`, `Span::root`, `propagate`): what the host reads is a `traceparent`
//! W3C Trace Context allows, and reads as it is written (parse, then format, gives the input back);
//! the trace continued writes the caller's trace and state into an outbound request, which reads back
//! as the span that wrote it.

use crate::telemetry::{Span, caller_context, propagate};
use opentelemetry::propagation::TextMapPropagator as _;
use opentelemetry::trace::{SpanKind, TraceContextExt as _};
use opentelemetry_sdk::propagation::TraceContextPropagator;

/// The input: the `traceparent` value, then optionally `\n` and the `tracestate` value.
pub fn check(data: &[u8]) {
    let (parent, state) = match data.iter().position(|&b| b == b'\n') {
        Some(at) => (&data[..at], Some(&data[at + 1..])),
        None => (data, None),
    };
    let mut headers = http::HeaderMap::new();
    // What a request can carry: a header value, without the whitespace around it (hyper trims it).
    let Ok(value) = http::HeaderValue::from_bytes(parent.trim_ascii()) else { return };
    headers.insert("traceparent", value);
    if let Some(state) = state.and_then(|s| http::HeaderValue::from_bytes(s.trim_ascii()).ok()) {
        headers.insert("tracestate", state);
    }
    let context = caller_context(&headers);
    let remote = context.span().span_context().clone();
    if !remote.is_valid() {
        return;
    }
    let text = parent.trim_ascii();
    assert!(well_formed(text), "the host continues a traceparent W3C Trace Context refuses: {text:?}");

    // Parse, then format: the same version-00 traceparent, of the flags only `sampled` kept.
    let ascii = |range: std::ops::Range<usize>| std::str::from_utf8(&text[range]).unwrap_or_default();
    let flags = u8::from_str_radix(ascii(53..55), 16).unwrap_or_default() & 1;
    let mut formatted = std::collections::HashMap::new();
    let read = opentelemetry::Context::new().with_remote_span_context(remote.clone());
    TraceContextPropagator::new().inject_context(&read, &mut formatted);
    assert_eq!(
        formatted.get("traceparent").map(String::as_str),
        Some(format!("00-{}-{}-{flags:02x}", ascii(3..35), ascii(36..52)).as_str()),
        "read from {text:?}"
    );

    let mut formatted = http::HeaderMap::new();
    let span = Span::root(&context, remote.trace_id(), "fuzz", SpanKind::Server, Vec::new());
    propagate(&mut formatted, &span);
    let written = formatted.get("traceparent").expect("a kept span writes its traceparent");
    let written = written.to_str().expect("a traceparent is ASCII");
    let own = span.context().expect("a root span of a kept trace");
    assert_eq!(
        written,
        format!("00-{}-{}-01", ascii(3..35), own.span_id()),
        "the outbound traceparent of a trace continued from {text:?}"
    );
    // The caller's trace state goes on as it was read.
    let state = formatted.get("tracestate").map(|v| v.to_str().unwrap_or_default().to_owned());
    assert_eq!(state.unwrap_or_default(), remote.trace_state().header());
    // What the host writes, it reads back as the span that wrote it.
    let read = caller_context(&formatted);
    let read = read.span().span_context().clone();
    assert!(read.is_valid() && read.trace_id() == remote.trace_id() && read.span_id() == own.span_id());
    assert_eq!(read.trace_state().header(), remote.trace_state().header());
}

/// W3C Trace Context's `traceparent`: `version-trace_id-parent_id-flags` in lowercase hex (2, 32, 16
/// and 2 digits), the ids not all zero, version `ff` invalid; version `00` has nothing more, a later
/// version may have more after a `-`.
fn well_formed(text: &[u8]) -> bool {
    let hex = |range: std::ops::Range<usize>| {
        text.get(range).is_some_and(|part| part.iter().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')))
    };
    let zero = |range: std::ops::Range<usize>| text[range].iter().all(|&b| b == b'0');
    text.len() >= 55
        && hex(0..2)
        && &text[..2] != b"ff"
        && text[2] == b'-'
        && hex(3..35)
        && text[35] == b'-'
        && hex(36..52)
        && text[52] == b'-'
        && hex(53..55)
        && !zero(3..35)
        && !zero(36..52)
        && if &text[..2] == b"00" { text.len() == 55 } else { text.len() == 55 || text[55] == b'-' }
}
