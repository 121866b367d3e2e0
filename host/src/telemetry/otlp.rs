//! OTLP/HTTP with protobuf: finished spans written as an `ExportTraceServiceRequest` (the messages of
//! opentelemetry-proto's `collector/trace/v1`, `trace/v1`, `resource/v1` and `common/v1`), field by
//! field, and posted to the collector at the endpoint, with the headers and within the timeout the
//! standard `OTEL_EXPORTER_OTLP_*` variables give.
//!
//! Why not `opentelemetry-otlp`: its exporter first turns every span into the generated message
//! types (a vector or string allocated for each id, name, key and value) and groups them by scope in
//! a hash map, then encodes them; on a cached `/paraphrase` that was about 0.5 µs of CPU per span, as
//! much as the request's whole budget for tracing. Here a span is written straight from what the
//! host recorded into its batch's bytes, and a batch is sent as it is, behind the resource and scope
//! written once. The tests decode every export with the official `opentelemetry-proto` package.

use bytes::Bytes;
use opentelemetry::trace::{SpanContext, SpanId, SpanKind, Status};
use opentelemetry::{Key, KeyValue, Value};
use std::borrow::Cow;
use std::time::{Duration, SystemTime};

/// A span as it ended: what the export writes.
#[derive(Debug)]
pub(crate) struct Finished {
    pub context: SpanContext,
    /// `SpanId::INVALID` for the first span of a trace.
    pub parent: SpanId,
    pub parent_is_remote: bool,
    pub kind: SpanKind,
    pub name: Cow<'static, str>,
    pub start: SystemTime,
    pub end: SystemTime,
    pub attributes: Vec<KeyValue>,
    /// Spans of other traces this one follows from (a job item's, the request that created the job).
    pub links: Vec<SpanContext>,
    pub status: Status,
}

/// Spans encoded for the collector, each a field of OTLP's `ScopeSpans`, and how many.
#[derive(Debug, Default)]
pub(crate) struct Encoded {
    pub bytes: Vec<u8>,
    pub spans: usize,
}

/// Where the export thread (`export.rs`) sends each batch: the collector, over OTLP/HTTP ([`Otlp`]).
pub(super) trait Sink: Send + 'static {
    fn send(&mut self, batch: &Encoded) -> Result<(), String>;
}

/// The largest answer read from the collector (it answers with a short status message).
const MAX_COLLECTOR_ANSWER: usize = 64 * 1024;

/// The collector, as the configuration and the standard variables name it.
pub(super) struct Otlp {
    endpoint: http::Uri,
    headers: http::HeaderMap,
    collector: Collector,
    /// The `Resource` and `InstrumentationScope` messages, written once: every export repeats them.
    resource: Vec<u8>,
    scope: Vec<u8>,
}

impl Otlp {
    /// The collector of the `[telemetry]` endpoint (or `OTEL_EXPORTER_OTLP_ENDPOINT`), or of
    /// `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`, which the specification lets win and takes as it is.
    pub(super) fn new(
        config: &super::TelemetryConfig,
        resource: &[opentelemetry::KeyValue],
        timeout: Duration,
    ) -> Result<Otlp, String> {
        let base = config.endpoint.as_deref();
        let endpoint = match (config.variable("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"), base) {
            (Some(url), _) => url.to_owned(),
            (None, Some(base)) => format!("{}/v1/traces", base.trim_end_matches('/')),
            (None, None) => return Err("no collector endpoint".into()),
        };
        let endpoint: http::Uri =
            endpoint.parse().map_err(|e| format!("the collector endpoint {endpoint:?} is not a URL: {e}"))?;
        if !matches!(endpoint.scheme_str(), Some("http" | "https")) || endpoint.host().is_none() {
            return Err(format!("the collector endpoint {endpoint} is not an http:// or https:// URL"));
        }
        // A collector over HTTPS is trusted by the web's roots, or by the CA the standard variable names.
        let ca_variable = ["OTEL_EXPORTER_OTLP_TRACES_CERTIFICATE", "OTEL_EXPORTER_OTLP_CERTIFICATE"]
            .into_iter()
            .find(|name| config.variable(name).is_some());
        let ca_file = ca_variable.and_then(|name| config.variable(name)).map(std::path::Path::new);
        let tls = crate::tls::client_config(ca_file)
            .map_err(|e| format!("{}: {}", ca_variable.unwrap_or("TLS"), with_cause(&e)))?;
        let mut headers = http::HeaderMap::new();
        headers.insert(http::header::CONTENT_TYPE, http::HeaderValue::from_static("application/x-protobuf"));
        headers.insert(
            http::header::USER_AGENT,
            http::HeaderValue::from_static(concat!("parlance/", env!("CARGO_PKG_VERSION"))),
        );
        // The traces' own variable adds to the general one and wins where both name a header.
        for variable in ["OTEL_EXPORTER_OTLP_HEADERS", "OTEL_EXPORTER_OTLP_TRACES_HEADERS"] {
            if let Some(list) = config.variable(variable) {
                for (name, value) in parse_headers(list).map_err(|e| format!("{variable}: {e}"))? {
                    headers.insert(name, value);
                }
            }
        }
        let collector =
            Collector::new(timeout, tls).map_err(|e| format!("cannot start the export runtime: {e}"))?;
        Ok(Otlp {
            endpoint,
            headers,
            collector,
            resource: resource_message(resource),
            scope: scope_message(),
        })
    }

    /// The `ExportTraceServiceRequest` of `batch`: one resource, one scope, the spans.
    fn encode(&self, batch: &Encoded) -> Vec<u8> {
        request(&self.resource, &self.scope, batch)
    }
}

/// The fields of the `Resource` message of `attributes`.
pub(crate) fn resource_message(attributes: &[KeyValue]) -> Vec<u8> {
    let mut out = Vec::new();
    for attribute in attributes {
        key_value(&mut out, 1, &attribute.key, &attribute.value);
    }
    out
}

/// The fields of the `InstrumentationScope` message: this host, by name and version.
pub(crate) fn scope_message() -> Vec<u8> {
    let mut out = Vec::new();
    string(&mut out, 1, "parlance");
    string(&mut out, 2, env!("CARGO_PKG_VERSION"));
    out
}

/// The `ExportTraceServiceRequest` of `batch` under one resource and one scope (their messages'
/// fields, written once by the caller).
pub(crate) fn request(resource: &[u8], scope: &[u8], batch: &Encoded) -> Vec<u8> {
    let scope_spans = field_len(scope.len()) + batch.bytes.len();
    let resource_spans = field_len(resource.len()) + field_len(scope_spans);
    let mut out = Vec::with_capacity(field_len(resource_spans));
    tag(&mut out, 1, LEN);
    varint(&mut out, resource_spans as u64);
    message(&mut out, 1, resource);
    tag(&mut out, 2, LEN);
    varint(&mut out, scope_spans as u64);
    message(&mut out, 1, scope);
    out.extend_from_slice(&batch.bytes);
    out
}

impl Sink for Otlp {
    fn send(&mut self, batch: &Encoded) -> Result<(), String> {
        let body = Bytes::from(self.encode(batch));
        let mut request = http::Request::post(self.endpoint.clone())
            .body(http_body_util::Full::new(body))
            .map_err(|e| e.to_string())?;
        *request.headers_mut() = self.headers.clone();
        self.collector.post(request)
    }
}

/// The format of `OTEL_EXPORTER_OTLP_HEADERS` and `OTEL_RESOURCE_ATTRIBUTES`: `name=value` pairs
/// separated by commas, values percent-encoded (W3C Baggage's format, as the specification says).
pub(super) fn pairs(list: &str) -> Result<Vec<(String, String)>, String> {
    let mut pairs = Vec::new();
    // A pair that cannot be read is named by its place, never quoted: it may hold a key.
    for (place, pair) in list.split(',').map(str::trim).filter(|p| !p.is_empty()).enumerate() {
        let Some((name, value)) = pair.split_once('=') else {
            return Err(format!("pair {} is not name=value", place + 1));
        };
        let name = name.trim();
        if name.is_empty() {
            return Err(format!("pair {} has no name", place + 1));
        }
        let value = percent_encoding::percent_decode_str(value.trim())
            .decode_utf8()
            .map_err(|_| format!("the value of {name} is not UTF-8 once decoded"))?;
        pairs.push((name.to_owned(), value.into_owned()));
    }
    Ok(pairs)
}

fn parse_headers(list: &str) -> Result<Vec<(http::HeaderName, http::HeaderValue)>, String> {
    pairs(list)?
        .into_iter()
        .map(|(name, value)| {
            let name =
                http::HeaderName::try_from(&name).map_err(|_| format!("{name:?} is not a header name"))?;
            let value = http::HeaderValue::try_from(value)
                .map_err(|_| format!("the value of {name} cannot be sent in a header"))?;
            Ok((name, value))
        })
        .collect()
}

/// An error and its first cause on one line. (`upstream::with_causes` is the same for the whole
/// chain, but `upstream` imports `telemetry`; one cause is all these errors carry.)
fn with_cause(error: &dyn std::error::Error) -> String {
    match error.source() {
        Some(cause) => format!("{error}: {cause}"),
        None => error.to_string(),
    }
}

/// The exporter's HTTP client: hyper over the process's rustls, which the host already speaks, on a
/// one-thread runtime of its own, so that exports run the same whoever calls them.
struct Collector {
    runtime: tokio::runtime::Runtime,
    client: hyper_util::client::legacy::Client<
        hyper_rustls::HttpsConnector<hyper_util::client::legacy::connect::HttpConnector>,
        http_body_util::Full<Bytes>,
    >,
    timeout: Duration,
}

impl Collector {
    fn new(timeout: Duration, tls: rustls::ClientConfig) -> std::io::Result<Collector> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("otlp-export")
            .enable_all()
            .build()?;
        let mut tcp = hyper_util::client::legacy::connect::HttpConnector::new();
        tcp.enforce_http(false);
        let connector = hyper_rustls::HttpsConnectorBuilder::new()
            .with_tls_config(tls)
            .https_or_http()
            .enable_http1()
            .wrap_connector(tcp);
        let client = hyper_util::client::legacy::Client::builder(hyper_util::rt::TokioExecutor::new())
            .pool_timer(hyper_util::rt::TokioTimer::new())
            .build(connector);
        Ok(Collector { runtime, client, timeout })
    }

    /// Sends one export and reads the answer, within the timeout; a non-2xx answer is a failure.
    fn post(&self, request: http::Request<http_body_util::Full<Bytes>>) -> Result<(), String> {
        use http_body_util::BodyExt;
        let (client, timeout) = (self.client.clone(), self.timeout);
        let exchange = async move {
            // hyper's own text is only "client error (Connect)": the cause says which.
            let response = client.request(request).await.map_err(|e| with_cause(&e))?;
            let status = response.status();
            let body = http_body_util::Limited::new(response.into_body(), MAX_COLLECTOR_ANSWER)
                .collect()
                .await
                .map_err(|e| e.to_string())?
                .to_bytes();
            if status.is_success() {
                Ok(())
            } else {
                let answer = String::from_utf8_lossy(&body[..body.len().min(200)]).into_owned();
                Err(format!("the collector answered {status}: {answer}"))
            }
        };
        // The timer is made inside the task: only the export runtime has one.
        let answer = self.runtime.block_on(async {
            self.runtime.spawn(async move { tokio::time::timeout(timeout, exchange).await }).await
        });
        match answer {
            Ok(Ok(result)) => result,
            Ok(Err(_)) => Err(format!("the collector did not answer within {} ms", timeout.as_millis())),
            Err(e) => Err(format!("the export task failed: {e}")),
        }
    }
}

// The protobuf wire format: https://protobuf.dev/programming-guides/encoding/
const VARINT: u8 = 0;
const I64: u8 = 1;
const LEN: u8 = 2;
const I32: u8 = 5;

fn varint(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push(value as u8 | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

fn varint_len(value: u64) -> usize {
    (64 - (value | 1).leading_zeros() as usize).div_ceil(7)
}

fn tag(out: &mut Vec<u8>, field: u32, wire: u8) {
    varint(out, u64::from(field << 3 | u32::from(wire)));
}

/// The bytes a length-delimited field of `len` bytes takes, its tag included (fields 1 to 15: one byte).
fn field_len(len: usize) -> usize {
    1 + varint_len(len as u64) + len
}

fn message(out: &mut Vec<u8>, field: u32, body: &[u8]) {
    tag(out, field, LEN);
    varint(out, body.len() as u64);
    out.extend_from_slice(body);
}

fn string(out: &mut Vec<u8>, field: u32, text: &str) {
    message(out, field, text.as_bytes());
}

fn nanos(time: SystemTime) -> u64 {
    time.duration_since(SystemTime::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64)
}

/// A `trace.v1.Span` message (`span`'s fields) as a `spans` field of `ScopeSpans`.
pub(crate) fn span_field(out: &mut Vec<u8>, span: &[u8]) {
    message(out, 2, span);
}

/// The fields of `trace.v1.Span`.
pub(crate) fn span(out: &mut Vec<u8>, span: &Finished) {
    let context = &span.context;
    message(out, 1, &context.trace_id().to_bytes());
    message(out, 2, &context.span_id().to_bytes());
    let state = context.trace_state().header();
    if !state.is_empty() {
        string(out, 3, &state);
    }
    if span.parent != SpanId::INVALID {
        message(out, 4, &span.parent.to_bytes());
    }
    string(out, 5, &span.name);
    tag(out, 6, VARINT);
    varint(
        out,
        match span.kind {
            SpanKind::Internal => 1,
            SpanKind::Server => 2,
            SpanKind::Client => 3,
            SpanKind::Producer => 4,
            SpanKind::Consumer => 5,
        },
    );
    tag(out, 7, I64);
    out.extend_from_slice(&nanos(span.start).to_le_bytes());
    tag(out, 8, I64);
    out.extend_from_slice(&nanos(span.end).to_le_bytes());
    for attribute in &span.attributes {
        key_value(out, 9, &attribute.key, &attribute.value);
    }
    for link in &span.links {
        let mut body = Vec::new();
        message(&mut body, 1, &link.trace_id().to_bytes());
        message(&mut body, 2, &link.span_id().to_bytes());
        let state = link.trace_state().header();
        if !state.is_empty() {
            string(&mut body, 3, &state);
        }
        tag(&mut body, 6, I32);
        body.extend_from_slice(&flags(link.trace_flags(), link.is_remote()).to_le_bytes());
        message(out, 13, &body);
    }
    let (code, description) = match &span.status {
        Status::Unset => (0, ""),
        Status::Ok => (1, ""),
        Status::Error { description } => (2, description.as_ref()),
    };
    if code != 0 {
        let mut body = Vec::new();
        if !description.is_empty() {
            string(&mut body, 2, description);
        }
        tag(&mut body, 3, VARINT);
        varint(&mut body, code);
        message(out, 15, &body);
    }
    tag(out, 16, I32);
    out.extend_from_slice(&flags(context.trace_flags(), span.parent_is_remote).to_le_bytes());
}

/// `SpanFlags`: the W3C trace flags, and whether the parent (or a link's span) is remote.
fn flags(trace_flags: opentelemetry::trace::TraceFlags, remote: bool) -> u32 {
    const HAS_IS_REMOTE: u32 = 0x100;
    const IS_REMOTE: u32 = 0x200;
    u32::from(trace_flags.to_u8()) | HAS_IS_REMOTE | if remote { IS_REMOTE } else { 0 }
}

/// `common.v1.KeyValue` as field `field` of its message.
fn key_value(out: &mut Vec<u8>, field: u32, key: &Key, value: &Value) {
    let key = key.as_str();
    let fallback;
    // A kind of value newer than this encoder is sent as its text.
    let value = match value {
        Value::Bool(_) | Value::I64(_) | Value::F64(_) | Value::String(_) | Value::Array(_) => value,
        other => {
            fallback = Value::from(other.to_string());
            &fallback
        }
    };
    let value_len = any_value_len(value);
    tag(out, field, LEN);
    varint(out, (field_len(key.len()) + field_len(value_len)) as u64);
    string(out, 1, key);
    tag(out, 2, LEN);
    varint(out, value_len as u64);
    any_value(out, value);
}

/// The length of `common.v1.AnyValue`'s message for `value`. A value of a `oneof` is written even
/// when it is its type's default (`false`, `0`, `""`): its presence is the information.
fn any_value_len(value: &Value) -> usize {
    use opentelemetry::Array;
    match value {
        Value::Bool(_) => 2,
        Value::I64(i) => 1 + varint_len(*i as u64),
        Value::F64(_) => 9,
        Value::String(s) => field_len(s.as_str().len()),
        Value::Array(array) => field_len(match array {
            Array::Bool(values) => values.len() * field_len(2),
            Array::I64(values) => values.iter().map(|i| field_len(1 + varint_len(*i as u64))).sum(),
            Array::F64(values) => values.len() * field_len(9),
            Array::String(values) => values.iter().map(|s| field_len(field_len(s.as_str().len()))).sum(),
            other => field_len(field_len(other.to_string().len())),
        }),
        other => field_len(other.to_string().len()),
    }
}

/// `common.v1.AnyValue`'s fields for `value` (the message's length written by the caller).
fn any_value(out: &mut Vec<u8>, value: &Value) {
    use opentelemetry::Array;
    fn element(out: &mut Vec<u8>, value: Value) {
        tag(out, 1, LEN);
        varint(out, any_value_len(&value) as u64);
        any_value(out, &value);
    }
    match value {
        Value::Bool(b) => {
            tag(out, 2, VARINT);
            varint(out, u64::from(*b));
        }
        Value::I64(i) => {
            tag(out, 3, VARINT);
            varint(out, *i as u64);
        }
        Value::F64(f) => {
            tag(out, 4, I64);
            out.extend_from_slice(&f.to_le_bytes());
        }
        Value::String(s) => string(out, 1, s.as_str()),
        Value::Array(array) => {
            let mut body = Vec::new();
            match array {
                Array::Bool(values) => values.iter().for_each(|&v| element(&mut body, Value::Bool(v))),
                Array::I64(values) => values.iter().for_each(|&v| element(&mut body, Value::I64(v))),
                Array::F64(values) => values.iter().for_each(|&v| element(&mut body, Value::F64(v))),
                Array::String(values) => {
                    values.iter().for_each(|v| element(&mut body, Value::String(v.clone())))
                }
                other => element(&mut body, Value::from(other.to_string())),
            }
            message(out, 5, &body);
        }
        other => string(out, 1, &other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints_and_their_lengths_agree() {
        for value in [0, 1, 127, 128, 300, 16_383, 16_384, u64::from(u32::MAX), u64::MAX, -1i64 as u64] {
            let mut out = Vec::new();
            varint(&mut out, value);
            assert_eq!(out.len(), varint_len(value), "{value}");
        }
        let mut out = Vec::new();
        varint(&mut out, 300);
        assert_eq!(out, [0xac, 0x02], "the protobuf guide's example");
    }

    #[test]
    fn every_kind_of_value_takes_the_length_it_announces() {
        use opentelemetry::{Array, StringValue};
        let values = [
            Value::Bool(false),
            Value::I64(-5),
            Value::I64(1 << 40),
            Value::F64(0.25),
            Value::from(""),
            Value::from("memory"),
            Value::Array(Array::Bool(vec![true, false])),
            Value::Array(Array::I64(vec![0, -1, 300])),
            Value::Array(Array::F64(vec![1.5])),
            Value::Array(Array::String(vec![StringValue::from("a"), StringValue::from("bc")])),
        ];
        for value in values {
            let mut out = Vec::new();
            any_value(&mut out, &value);
            assert_eq!(out.len(), any_value_len(&value), "{value:?}");
        }
    }

    #[test]
    fn header_lists_are_read_as_the_specification_writes_them() {
        let headers = parse_headers("api-key=secret%20one , x-tenant=a=b,").unwrap();
        assert_eq!(headers.len(), 2);
        assert_eq!(headers[0].0, "api-key");
        assert_eq!(headers[0].1, "secret one");
        assert_eq!(headers[1].1, "a=b");
        let refused = parse_headers("a=1,secret-without-equals").unwrap_err();
        assert_eq!(refused, "pair 2 is not name=value", "a malformed pair is not quoted");
        assert!(parse_headers("bad name=1").is_err());
    }

    #[test]
    fn a_batch_is_one_resource_and_one_scope_around_its_spans() {
        use opentelemetry::trace::{SpanContext, SpanId, TraceFlags, TraceId, TraceState};
        let config = super::super::TelemetryConfig {
            endpoint: Some("http://127.0.0.1:4318".into()),
            ..Default::default()
        };
        let resource = [opentelemetry::KeyValue::new("service.name", "svc")];
        let otlp = Otlp::new(&config, &resource, Duration::from_secs(1)).unwrap();
        assert_eq!(otlp.endpoint, "http://127.0.0.1:4318/v1/traces");
        let finished = Finished {
            context: SpanContext::new(
                TraceId::from(7),
                SpanId::from(8),
                TraceFlags::SAMPLED,
                false,
                TraceState::NONE,
            ),
            parent: SpanId::INVALID,
            parent_is_remote: false,
            kind: SpanKind::Server,
            name: "GET /health".into(),
            start: SystemTime::UNIX_EPOCH,
            end: SystemTime::UNIX_EPOCH + Duration::from_nanos(1500),
            attributes: vec![opentelemetry::KeyValue::new("parlance.cache.hit", false)],
            links: Vec::new(),
            status: Status::error(""),
        };
        let mut batch = Encoded { bytes: Vec::new(), spans: 1 };
        let mut encoded = Vec::new();
        span(&mut encoded, &finished);
        span_field(&mut batch.bytes, &encoded);
        let body = otlp.encode(&batch);
        // ExportTraceServiceRequest.resource_spans (1): its length is the rest of the body.
        assert_eq!(body[0], 1 << 3 | LEN);
        let mut len = Vec::new();
        varint(&mut len, (body.len() - 1 - varint_len((body.len() - 3) as u64)) as u64);
        assert_eq!(&body[1..1 + len.len()], &len[..]);
        let mut name = Vec::new();
        string(&mut name, 5, "GET /health");
        assert!(body.windows(name.len()).any(|w| w == name), "the span's name is a field of its own");
        // The attribute's `false` is written: an AnyValue with bool_value (2) = 0.
        assert!(body.windows(4).any(|w| w == [2 << 3 | LEN, 2, 2 << 3 | VARINT, 0]));
    }
}
