//! The spans of a kept trace: made, made current and ended by the host itself, with OpenTelemetry's
//! ids, span context and export types, and handed to [`super::export`] when their last handle goes.
//!
//! Why not `tracing` spans bridged by `tracing-opentelemetry`: every span there lives in the
//! subscriber's registry, and every poll of an instrumented future enters and leaves it through
//! every layer, a lookup each time. On a cached `/paraphrase` (12 µs of CPU, two spans) that cost
//! 30 to 50 % more CPU with every trace kept (bench/issue32_tracing.py). Here a span is one
//! allocation, entering it swaps one thread-local, and a dropped trace costs one sampling decision.

use opentelemetry::propagation::TextMapPropagator as _;
use opentelemetry::trace::{
    SpanContext, SpanId, SpanKind, Status, TraceContextExt as _, TraceFlags, TraceState,
};
use opentelemetry::{KeyValue, Value};
use opentelemetry_sdk::propagation::TraceContextPropagator;
use opentelemetry_sdk::trace::{IdGenerator as _, RandomIdGenerator};
use std::borrow::Cow;
use std::cell::RefCell;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::SystemTime;

/// A span of a kept trace, or no span at all (traces off, or this trace not kept): cheap to clone,
/// and ended when its last clone is dropped, as a `tracing` span is.
#[derive(Clone, Debug, Default)]
pub struct Span(Option<Arc<Live>>);

#[derive(Debug)]
struct Live {
    context: SpanContext,
    parent: SpanId,
    parent_is_remote: bool,
    kind: SpanKind,
    name: Cow<'static, str>,
    start: SystemTime,
    /// What is learnt while the span runs; a span is shared by the tasks it covers.
    late: Mutex<Late>,
}

#[derive(Debug, Default)]
struct Late {
    attributes: Vec<KeyValue>,
    status: Option<Status>,
    links: Vec<SpanContext>,
}

impl Late {
    fn set(&mut self, key: &'static str, value: Value) {
        match self.attributes.iter_mut().find(|kv| kv.key.as_str() == key) {
            Some(kv) => kv.value = value,
            None => self.attributes.push(KeyValue::new(key, value)),
        }
    }
}

thread_local! {
    /// The span of the future or stream being polled on this thread, set only during its poll.
    static CURRENT: RefCell<Option<Arc<Live>>> = const { RefCell::new(None) };
}

impl Span {
    /// No span: what every span is when traces are off or the trace is not kept.
    pub const fn none() -> Span {
        Span(None)
    }

    /// The first span of a kept trace, continuing `parent`'s (a caller's `traceparent`) when it
    /// carries a valid span context, else starting the trace `trace_id`.
    pub fn root(
        parent: &opentelemetry::Context,
        trace_id: opentelemetry::trace::TraceId,
        name: impl Into<Cow<'static, str>>,
        kind: SpanKind,
        attributes: Vec<KeyValue>,
    ) -> Span {
        let remote = parent.span().span_context().clone();
        let (parent, trace_state) = if remote.is_valid() {
            (remote.span_id(), remote.trace_state().clone())
        } else {
            (SpanId::INVALID, TraceState::NONE)
        };
        Span::start(trace_id, trace_state, parent, remote.is_valid(), name.into(), kind, attributes)
    }

    /// A span under the current one, or no span outside a kept trace.
    pub fn child(name: impl Into<Cow<'static, str>>, kind: SpanKind, attributes: Vec<KeyValue>) -> Span {
        CURRENT.with_borrow(|current| match current {
            Some(parent) => Span::start(
                parent.context.trace_id(),
                parent.context.trace_state().clone(),
                parent.context.span_id(),
                false,
                name.into(),
                kind,
                attributes,
            ),
            None => Span::none(),
        })
    }

    fn start(
        trace_id: opentelemetry::trace::TraceId,
        trace_state: TraceState,
        parent: SpanId,
        parent_is_remote: bool,
        name: Cow<'static, str>,
        kind: SpanKind,
        attributes: Vec<KeyValue>,
    ) -> Span {
        let span_id = RandomIdGenerator::default().new_span_id();
        Span(Some(Arc::new(Live {
            context: SpanContext::new(trace_id, span_id, TraceFlags::SAMPLED, false, trace_state),
            parent,
            parent_is_remote,
            kind,
            name,
            start: SystemTime::now(),
            late: Mutex::new(Late { attributes, ..Late::default() }),
        })))
    }

    /// The span current on this thread: the one whose future or stream is being polled.
    pub fn current() -> Span {
        Span(CURRENT.with_borrow(Clone::clone))
    }

    /// Whether this is a span of a kept trace: values worth computing only for the trace back-end
    /// are computed only then.
    pub fn is_recording(&self) -> bool {
        self.0.is_some()
    }

    /// The span's context, for the `traceparent` of an outbound request; `None` for no span.
    pub fn context(&self) -> Option<&SpanContext> {
        self.0.as_deref().map(|live| &live.context)
    }

    /// Sets an attribute, over the value the key had.
    pub fn set_attribute(&self, key: &'static str, value: impl Into<Value>) {
        if let Some(live) = &self.0 {
            live.late().set(key, value.into());
        }
    }

    /// Marks the span failed, with the conventions' `error.type` naming why.
    pub fn set_error(&self, error_type: impl Into<Value>) {
        if let Some(live) = &self.0 {
            let mut late = live.late();
            late.set("error.type", error_type.into());
            late.status = Some(Status::error(""));
        }
    }

    /// The W3C `traceparent` of this span, to be stored and linked to later ([`Span::link`]);
    /// `None` for no span.
    pub fn traceparent(&self) -> Option<String> {
        let context = self.context()?;
        let mut headers = std::collections::HashMap::new();
        let context = opentelemetry::Context::new().with_remote_span_context(context.clone());
        TraceContextPropagator::new().inject_context(&context, &mut headers);
        headers.remove("traceparent")
    }

    /// Links this span to the one `traceparent` names (a span of another trace it follows from);
    /// a `traceparent` that cannot be read is left out.
    pub fn link(&self, traceparent: &str) {
        let Some(live) = &self.0 else { return };
        let headers = std::collections::HashMap::from([("traceparent".to_owned(), traceparent.to_owned())]);
        let context = TraceContextPropagator::new().extract(&headers);
        let linked = context.span().span_context().clone();
        if linked.is_valid() {
            live.late().links.push(linked);
        }
    }

    /// Makes this span current until the guard is dropped; no span leaves the current one as it is.
    fn enter(&self) -> Entered {
        Entered(self.0.as_ref().map(|live| CURRENT.with_borrow_mut(|current| current.replace(live.clone()))))
    }
}

impl Live {
    fn late(&self) -> std::sync::MutexGuard<'_, Late> {
        super::export::unpoisoned(&self.late)
    }
}

impl Drop for Live {
    fn drop(&mut self) {
        let late = std::mem::take(self.late.get_mut().unwrap_or_else(|poisoned| poisoned.into_inner()));
        super::export::finished(super::otlp::Finished {
            context: self.context.clone(),
            parent: self.parent,
            parent_is_remote: self.parent_is_remote,
            kind: self.kind.clone(),
            name: std::mem::take(&mut self.name),
            start: self.start,
            end: SystemTime::now(),
            attributes: late.attributes,
            links: late.links,
            status: late.status.unwrap_or(Status::Unset),
        });
    }
}

/// The span made current by [`Span::enter`]; puts the previous one back.
struct Entered(Option<Option<Arc<Live>>>);

impl Drop for Entered {
    fn drop(&mut self) {
        if let Some(previous) = self.0.take() {
            CURRENT.with_borrow_mut(|current| *current = previous);
        }
    }
}

pin_project_lite::pin_project! {
    /// A future or stream polled with its span current, so that the spans made inside are its
    /// children and its outbound requests carry its context.
    #[derive(Debug)]
    pub struct InSpan<T> {
        span: Span,
        #[pin]
        inner: T,
    }
}

/// Runs a future or stream in a span: `future.in_span(span)`.
pub trait WithSpan: Sized {
    fn in_span(self, span: Span) -> InSpan<Self> {
        InSpan { span, inner: self }
    }
}

impl<T> WithSpan for T {}

impl<F: Future> Future for InSpan<F> {
    type Output = F::Output;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<F::Output> {
        let this = self.project();
        let _entered = this.span.enter();
        this.inner.poll(cx)
    }
}

impl<S: futures::Stream> futures::Stream for InSpan<S> {
    type Item = S::Item;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<S::Item>> {
        let this = self.project();
        let _entered = this.span.enter();
        this.inner.poll_next(cx)
    }
}

/// Whether the current task is inside a kept trace: only kept traces have spans.
pub fn in_kept_trace() -> bool {
    CURRENT.with_borrow(Option::is_some)
}
