//! The OTLP encoder (`telemetry::otlp`): an export written by the host decodes, with the official
//! protobuf definitions (`opentelemetry-proto`), to the resource and the spans that went in, field by
//! field. The spans are built from the input through `arbitrary`, and written as the export thread
//! writes them (`span`, `span_field`, then `request` around the resource and scope).

use crate::telemetry::{Encoded, Finished, request, resource_message, scope_message, span, span_field};
use arbitrary::{Arbitrary, Result, Unstructured};
use opentelemetry::trace::{SpanContext, SpanId, SpanKind, Status, TraceFlags, TraceId, TraceState};
use opentelemetry::{Array, KeyValue, StringValue, Value};
use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
use opentelemetry_proto::tonic::common::v1::any_value;
use opentelemetry_proto::tonic::trace::v1 as proto;
use prost::Message as _;
use std::time::{Duration, SystemTime};

pub fn check(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let Ok(resource) = attributes(&mut u) else { return };
    let mut spans = Vec::new();
    while !u.is_empty() && spans.len() < 16 {
        match finished(&mut u) {
            Ok(span) => spans.push(span),
            Err(_) => break,
        }
    }
    let mut batch = Encoded::default();
    let mut scratch = Vec::new();
    for finished in &spans {
        scratch.clear();
        span(&mut scratch, finished);
        span_field(&mut batch.bytes, &scratch);
        batch.spans += 1;
    }
    let body = request(&resource_message(&resource), &scope_message(), &batch);
    let export = ExportTraceServiceRequest::decode(body.as_slice())
        .unwrap_or_else(|e| panic!("the export does not decode: {e}\n{spans:#?}"));

    let [resource_spans] = &export.resource_spans[..] else { panic!("one resource: {export:#?}") };
    let decoded = resource_spans.resource.as_ref().expect("the resource");
    assert_attributes(&decoded.attributes, &resource);
    let [scope_spans] = &resource_spans.scope_spans[..] else { panic!("one scope: {export:#?}") };
    let scope = scope_spans.scope.as_ref().expect("the scope");
    assert_eq!((scope.name.as_str(), scope.version.as_str()), ("parlance", env!("CARGO_PKG_VERSION")));
    assert_eq!(scope_spans.spans.len(), spans.len(), "every span, once");
    for (decoded, finished) in scope_spans.spans.iter().zip(&spans) {
        assert_span(decoded, finished);
    }
}

fn assert_span(decoded: &proto::Span, span: &Finished) {
    let context = &span.context;
    assert_eq!(decoded.trace_id, context.trace_id().to_bytes(), "trace id");
    assert_eq!(decoded.span_id, context.span_id().to_bytes(), "span id");
    assert_eq!(decoded.trace_state, context.trace_state().header(), "trace state");
    let parent = if span.parent == SpanId::INVALID { Vec::new() } else { span.parent.to_bytes().to_vec() };
    assert_eq!(decoded.parent_span_id, parent, "parent span id");
    assert_eq!(decoded.name, span.name, "name");
    let kind = match span.kind {
        SpanKind::Internal => proto::span::SpanKind::Internal,
        SpanKind::Server => proto::span::SpanKind::Server,
        SpanKind::Client => proto::span::SpanKind::Client,
        SpanKind::Producer => proto::span::SpanKind::Producer,
        SpanKind::Consumer => proto::span::SpanKind::Consumer,
    };
    assert_eq!(decoded.kind, kind as i32, "kind");
    assert_eq!(decoded.start_time_unix_nano, nanos(span.start), "start");
    assert_eq!(decoded.end_time_unix_nano, nanos(span.end), "end");
    assert_attributes(&decoded.attributes, &span.attributes);
    assert_eq!(decoded.links.len(), span.links.len(), "links");
    for (decoded, link) in decoded.links.iter().zip(&span.links) {
        assert_eq!(decoded.trace_id, link.trace_id().to_bytes(), "link's trace id");
        assert_eq!(decoded.span_id, link.span_id().to_bytes(), "link's span id");
        assert_eq!(decoded.trace_state, link.trace_state().header(), "link's trace state");
        assert_eq!(decoded.flags, flags(link.trace_flags(), link.is_remote()), "link's flags");
        assert!(decoded.attributes.is_empty());
    }
    let status = match &span.status {
        Status::Unset => None,
        Status::Ok => Some((proto::status::StatusCode::Ok, String::new())),
        Status::Error { description } => Some((proto::status::StatusCode::Error, description.to_string())),
    };
    let decoded_status = decoded.status.as_ref().map(|s| (s.code, s.message.clone()));
    assert_eq!(decoded_status, status.map(|(code, message)| (code as i32, message)), "status");
    assert_eq!(decoded.flags, flags(context.trace_flags(), span.parent_is_remote), "flags");
    assert!(decoded.events.is_empty() && decoded.dropped_attributes_count == 0);
}

/// `SpanFlags`: the W3C flags, and whether the parent (or the linked span) is remote.
fn flags(trace_flags: TraceFlags, remote: bool) -> u32 {
    u32::from(trace_flags.to_u8()) | 0x100 | if remote { 0x200 } else { 0 }
}

fn nanos(time: SystemTime) -> u64 {
    // Before the epoch (never a real span's time) is written as the epoch.
    time.duration_since(SystemTime::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64)
}

fn assert_attributes(decoded: &[opentelemetry_proto::tonic::common::v1::KeyValue], attributes: &[KeyValue]) {
    assert_eq!(decoded.len(), attributes.len(), "attributes");
    for (decoded, attribute) in decoded.iter().zip(attributes) {
        assert_eq!(decoded.key, attribute.key.as_str(), "attribute key");
        let value = decoded.value.as_ref().and_then(|v| v.value.as_ref());
        assert!(
            same_value(value, &attribute.value),
            "{}: {value:?} for {:?}",
            attribute.key,
            attribute.value
        );
    }
}

fn same_value(decoded: Option<&any_value::Value>, value: &Value) -> bool {
    use any_value::Value as V;
    match (decoded, value) {
        (Some(V::BoolValue(a)), Value::Bool(b)) => a == b,
        (Some(V::IntValue(a)), Value::I64(b)) => a == b,
        // Bit for bit: NaN and the sign of zero go through unchanged.
        (Some(V::DoubleValue(a)), Value::F64(b)) => a.to_bits() == b.to_bits(),
        (Some(V::StringValue(a)), Value::String(b)) => a == b.as_str(),
        (decoded, Value::Array(array)) => {
            let Some(V::ArrayValue(elements)) = decoded else { return false };
            let elements: Vec<Option<&V>> = elements.values.iter().map(|v| v.value.as_ref()).collect();
            let values: Vec<Value> = match array {
                Array::Bool(v) => v.iter().map(|&b| Value::Bool(b)).collect(),
                Array::I64(v) => v.iter().map(|&i| Value::I64(i)).collect(),
                Array::F64(v) => v.iter().map(|&f| Value::F64(f)).collect(),
                Array::String(v) => v.iter().map(|s| Value::String(s.clone())).collect(),
                other => vec![Value::from(other.to_string())],
            };
            elements.len() == values.len() && elements.iter().zip(&values).all(|(d, v)| same_value(*d, v))
        }
        _ => false,
    }
}

fn attributes(u: &mut Unstructured) -> Result<Vec<KeyValue>> {
    let mut attributes = Vec::new();
    for _ in 0..u.int_in_range(0..=6u8)? {
        attributes.push(KeyValue::new(String::arbitrary(u)?, value(u)?));
    }
    Ok(attributes)
}

fn value(u: &mut Unstructured) -> Result<Value> {
    let count = |u: &mut Unstructured| u.int_in_range(0..=5u8);
    Ok(match u.int_in_range(0..=7u8)? {
        0 => Value::Bool(u.arbitrary()?),
        1 => Value::I64(u.arbitrary()?),
        2 => Value::F64(u.arbitrary()?),
        3 => Value::from(String::arbitrary(u)?),
        4 => Value::Array(Array::Bool((0..count(u)?).map(|_| u.arbitrary()).collect::<Result<_>>()?)),
        5 => Value::Array(Array::I64((0..count(u)?).map(|_| u.arbitrary()).collect::<Result<_>>()?)),
        6 => Value::Array(Array::F64((0..count(u)?).map(|_| u.arbitrary()).collect::<Result<_>>()?)),
        _ => Value::Array(Array::String(
            (0..count(u)?).map(|_| String::arbitrary(u).map(StringValue::from)).collect::<Result<_>>()?,
        )),
    })
}

/// A trace state from W3C's alphabet more often than not, so that valid ones are common.
fn trace_state(u: &mut Unstructured) -> Result<TraceState> {
    let mut pairs = Vec::new();
    for _ in 0..u.int_in_range(0..=3u8)? {
        let pick = |u: &mut Unstructured, alphabet: &[u8]| -> Result<String> {
            let len = u.int_in_range(1..=8u8)?;
            (0..len).map(|_| u.choose(alphabet).map(|&b| char::from(b))).collect()
        };
        let key = pick(u, b"abcdefghijklmnopqrstuvwxyz0123456789_-*/@")?;
        let value = pick(
            u,
            b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'()*+-./:;<>?@[]^_`{|}~ ",
        )?;
        pairs.push((key, value.trim_end().to_owned()));
    }
    Ok(TraceState::from_key_value(pairs).unwrap_or(TraceState::NONE))
}

fn context(u: &mut Unstructured) -> Result<SpanContext> {
    Ok(SpanContext::new(
        TraceId::from(u128::arbitrary(u)?),
        SpanId::from(u64::arbitrary(u)?),
        TraceFlags::new(u.arbitrary()?),
        u.arbitrary()?,
        trace_state(u)?,
    ))
}

fn time(u: &mut Unstructured) -> Result<SystemTime> {
    let nanos = Duration::from_nanos(u.arbitrary()?);
    Ok(match u.ratio(1, 16)? {
        true => SystemTime::UNIX_EPOCH.checked_sub(nanos).unwrap_or(SystemTime::UNIX_EPOCH),
        false => SystemTime::UNIX_EPOCH + nanos,
    })
}

fn finished(u: &mut Unstructured) -> Result<Finished> {
    let kinds =
        [SpanKind::Internal, SpanKind::Server, SpanKind::Client, SpanKind::Producer, SpanKind::Consumer];
    Ok(Finished {
        context: context(u)?,
        parent: SpanId::from(if u.arbitrary()? { 0 } else { u64::arbitrary(u)? }),
        parent_is_remote: u.arbitrary()?,
        kind: u.choose(&kinds)?.clone(),
        name: String::arbitrary(u)?.into(),
        start: time(u)?,
        end: time(u)?,
        attributes: attributes(u)?,
        links: (0..u.int_in_range(0..=3u8)?).map(|_| context(u)).collect::<Result<_>>()?,
        status: match u.int_in_range(0..=2u8)? {
            0 => Status::Unset,
            1 => Status::Ok,
            _ => Status::error(String::arbitrary(u)?),
        },
    })
}
