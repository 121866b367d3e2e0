//! Outbound HTTP for plugins: `wasi:http` requests and `http-client.send`'s whole requests pass through
//! here, where the plugin's `allowed_hosts`, a timeout and a response-size cap are enforced before
//! anything reaches the network, and then sent by the process's one pooled client
//! ([`crate::upstream`]), whose failures are told to the guest as the `wasi:http` error code of their
//! cause.

use super::spec::HostPattern;
use crate::telemetry::WithSpan;
use crate::upstream::{Destination, Failure, Limits, Phase, ResponseBody, Upstream, UpstreamError};
use bytes::Bytes;
use http_body_util::BodyExt;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use wasmtime_wasi_http::p2::bindings::http::types::{DnsErrorPayload, ErrorCode, TlsAlertReceivedPayload};
use wasmtime_wasi_http::{
    DEFAULT_FORBIDDEN_HEADERS, Error as HttpError, RequestOptions, WasiBody, WasiHttpHooks,
};

/// The largest request body a plugin may send.
const MAX_REQUEST_BYTES: u64 = 16 * 1024 * 1024;

/// Reads a guest's whole request body before anything is sent (or refused).
///
/// Guests write the body after handing the request over. If the request failed while they were still
/// writing (a refused destination, a refused connection), the write would meet a closed stream, which
/// componentize-js's `fetch` (StarlingMonkey) takes as a fatal event-loop error: it traps instead of
/// rejecting, and the plugin never sees why. With the body read first, every failure arrives where
/// the guest waits for the response. Plugin requests are small JSON or form bodies, so buffering costs
/// nothing that matters; the only thing lost is streaming an upload while reading the answer.
async fn read_body(mut body: WasiBody, max: u64) -> Result<Bytes, HttpError> {
    let mut buffer = bytes::BytesMut::new();
    while let Some(frame) = body.frame().await {
        if let Ok(data) = frame?.into_data() {
            if (buffer.len() + data.len()) as u64 > max {
                return Err(HttpError::HttpRequestBodySize(Some(max)));
            }
            buffer.extend_from_slice(&data);
        }
    }
    Ok(buffer.freeze())
}

/// Why an outbound request failed: the policy refused it before it was sent, or it failed on the way.
#[derive(Debug)]
pub enum OutboundError {
    Refused(ErrorCode),
    Upstream(UpstreamError),
}

impl OutboundError {
    /// The `wasi:http` error code a guest is told.
    pub fn code(&self) -> ErrorCode {
        match self {
            OutboundError::Refused(code) => code.clone(),
            OutboundError::Upstream(e) => wasi_error(e),
        }
    }
}

/// The per-call hooks: one instance per store, so denials are attributed to the call that made them.
pub struct OutboundPolicy {
    plugin: Arc<str>,
    allowed: Arc<[HostPattern]>,
    timeout: Duration,
    max_response_bytes: u64,
    upstream: Upstream,
    denied: Arc<Mutex<Vec<String>>>,
}

impl OutboundPolicy {
    pub fn new(
        plugin: Arc<str>,
        allowed: Arc<[HostPattern]>,
        timeout: Duration,
        max_response_bytes: u64,
        upstream: Upstream,
    ) -> Self {
        OutboundPolicy { plugin, allowed, timeout, max_response_bytes, upstream, denied: Arc::default() }
    }

    /// The destinations this call asked for and was refused.
    pub fn denied(&self) -> Vec<String> {
        self.denied.lock().map(|d| d.clone()).unwrap_or_default()
    }

    /// Lets a request to `uri` through, or records and logs its refusal.
    fn admit(&self, uri: &http::Uri) -> Result<(), ()> {
        let Err(origin) = self.is_allowed(uri) else { return Ok(()) };
        tracing::warn!(plugin = %self.plugin, destination = %origin, "denied an outbound request outside allowed_hosts");
        if let Ok(mut denied) = self.denied.lock() {
            denied.push(origin);
        }
        Err(())
    }

    /// The limits of one request: the guest may ask for shorter timeouts, never for longer ones.
    fn limits(
        &self,
        connect: Option<Duration>,
        first_byte: Option<Duration>,
        between: Option<Duration>,
    ) -> Limits {
        let cap = |asked: Option<Duration>| asked.map_or(self.timeout, |a| a.min(self.timeout));
        Limits {
            connect: cap(connect),
            first_byte: cap(first_byte),
            between_bytes: cap(between),
            max_response_bytes: self.max_response_bytes,
        }
    }

    /// Sends one whole request for `http-client.send`: the same allow-list, limits and error codes as a
    /// `wasi:http` request, with the body already in hand and the response read whole.
    pub async fn send_whole(
        &self,
        method: http::Method,
        url: &str,
        headers: Vec<(String, String)>,
        body: Vec<u8>,
        timeout: Option<Duration>,
    ) -> Result<(http::response::Parts, Bytes), ErrorCode> {
        let (parts, body) =
            self.send_streaming(method, url, headers, body, timeout).await.map_err(|e| e.code())?;
        let body = body.bytes().await.map_err(|e| self.failed(&e))?;
        Ok((parts, body))
    }

    /// Sends one request whose response the host reads as it arrives (a streamed chat reply): the
    /// policy of [`OutboundPolicy::send_whole`], with the between-bytes timeout and the size cap (over
    /// the whole stream) enforced by the body as it is read. Dropping the body closes the connection.
    pub async fn send_streaming(
        &self,
        method: http::Method,
        url: &str,
        headers: Vec<(String, String)>,
        body: Vec<u8>,
        timeout: Option<Duration>,
    ) -> Result<(http::response::Parts, ResponseBody), OutboundError> {
        let request = self.prepare(method, url, headers, body).map_err(OutboundError::Refused)?;
        tracing::debug!(plugin = %self.plugin, uri = %request.uri(), "outbound request");
        let limits = self.limits(timeout, timeout, timeout);
        let response = self.upstream.send(request, limits).await.map_err(|e| {
            tracing::debug!(plugin = %self.plugin, "outbound request failed: {}", crate::upstream::with_causes(&e));
            OutboundError::Upstream(e)
        })?;
        Ok(response.into_parts())
    }

    /// Checks a request against the policy and builds it: an absolute URL within `allowed_hosts`, a
    /// body within the cap, and no header the client must set itself.
    pub(crate) fn prepare(
        &self,
        method: http::Method,
        url: &str,
        headers: Vec<(String, String)>,
        body: Vec<u8>,
    ) -> Result<http::Request<http_body_util::Full<Bytes>>, ErrorCode> {
        let uri: http::Uri = url.parse().map_err(|_| ErrorCode::HttpRequestUriInvalid)?;
        if uri.scheme().is_none() || uri.authority().is_none() {
            return Err(ErrorCode::HttpRequestUriInvalid);
        }
        self.admit(&uri).map_err(|()| ErrorCode::HttpRequestDenied)?;
        if body.len() as u64 > MAX_REQUEST_BYTES {
            return Err(ErrorCode::HttpRequestBodySize(Some(MAX_REQUEST_BYTES)));
        }
        let mut request = http::Request::new(http_body_util::Full::new(Bytes::from(body)));
        *request.method_mut() = method;
        *request.uri_mut() = uri;
        let map = request.headers_mut();
        map.reserve(headers.len());
        for (name, value) in headers {
            let invalid = || ErrorCode::InternalError(Some(format!("invalid request header {name:?}")));
            let name = http::HeaderName::from_bytes(name.as_bytes()).map_err(|_| invalid())?;
            if DEFAULT_FORBIDDEN_HEADERS.contains(&name) {
                return Err(ErrorCode::InternalError(Some(format!("the header {name} is not allowed"))));
            }
            // The body's length is known, so the client frames it; a guest's own count could only disagree.
            if name == http::header::CONTENT_LENGTH {
                continue;
            }
            let value = http::HeaderValue::from_str(&value).map_err(|_| invalid())?;
            map.append(name, value);
        }
        Ok(request)
    }

    fn failed(&self, e: &UpstreamError) -> ErrorCode {
        tracing::debug!(plugin = %self.plugin, "outbound request failed: {}", crate::upstream::with_causes(e));
        wasi_error(e)
    }

    fn is_allowed(&self, uri: &http::Uri) -> Result<(), String> {
        let Some(destination) = Destination::of(uri) else {
            let scheme = uri.scheme_str().unwrap_or("https").to_ascii_lowercase();
            return Err(format!("{scheme}://{}", uri.authority().map(|a| a.as_str()).unwrap_or_default()));
        };
        let Destination { scheme, host, port } = &destination;
        if self.allowed.iter().any(|p| p.allows(scheme, host, *port)) {
            Ok(())
        } else {
            Err(destination.to_string())
        }
    }
}

type SendFuture = Box<
    dyn Future<
            Output = Result<
                (http::Response<WasiBody>, Box<dyn Future<Output = Result<(), HttpError>> + Send>),
                HttpError,
            >,
        > + Send,
>;

impl WasiHttpHooks for OutboundPolicy {
    fn send_request(
        &mut self,
        request: http::Request<WasiBody>,
        options: Option<RequestOptions>,
        fut: Box<dyn Future<Output = Result<(), HttpError>> + Send>,
    ) -> SendFuture {
        drop(fut);
        if self.admit(request.uri()).is_err() {
            let (_, body) = request.into_parts();
            let wait = self.timeout;
            return Box::new(async move {
                let _ = tokio::time::timeout(wait, read_body(body, MAX_REQUEST_BYTES)).await;
                Err(HttpError::HttpRequestDenied)
            });
        }

        let options = options.unwrap_or_default();
        let limits =
            self.limits(options.connect_timeout, options.first_byte_timeout, options.between_bytes_timeout);
        let plugin = self.plugin.clone();
        let upstream = self.upstream.clone();
        let timeout = self.timeout;
        Box::new(async move {
            tracing::debug!(plugin = %plugin, uri = %request.uri(), "outbound request");
            let (parts, body) = request.into_parts();
            let body = tokio::time::timeout(timeout, read_body(body, MAX_REQUEST_BYTES))
                .await
                .map_err(|_| HttpError::ConnectionWriteTimeout)??;
            let request = http::Request::from_parts(parts, http_body_util::Full::new(body));
            let response = upstream.send(request, limits).await.map_err(|e| {
                tracing::debug!(plugin = %plugin, "outbound request failed: {}", crate::upstream::with_causes(&e));
                HttpError::from(wasi_error(&e))
            })?;
            let response =
                response.map(|body| body.map_err(|e| HttpError::from(wasi_error(&e))).boxed_unsync());
            // The pool's own task drives the connection, so there is nothing left to wait for here.
            let done = Box::new(async { Ok(()) }) as Box<dyn Future<Output = Result<(), HttpError>> + Send>;
            Ok((response, done))
        }
        // The request may be sent from another task: it belongs to the plugin call that made it.
        .in_span(crate::telemetry::Span::current()))
    }
}

/// The `wasi:http` error code of a failure's cause. Each cause has its own code, so a guest can tell a
/// reset from a refusal; wasmtime would turn a bare connect error into `connection-refused`, so none
/// is passed on.
fn wasi_error(e: &UpstreamError) -> ErrorCode {
    match e.failure() {
        Failure::Dns => ErrorCode::DnsError(DnsErrorPayload { rcode: None, info_code: None }),
        Failure::Refused => ErrorCode::ConnectionRefused,
        Failure::Reset => ErrorCode::ConnectionTerminated,
        Failure::Unreachable => ErrorCode::DestinationUnavailable,
        Failure::TlsCertificate => ErrorCode::TlsCertificateError,
        Failure::TlsAlert(alert) => ErrorCode::TlsAlertReceived(TlsAlertReceivedPayload {
            alert_id: Some(u8::from(alert)),
            alert_message: Some(format!("{alert:?}")),
        }),
        Failure::TlsProtocol => ErrorCode::TlsProtocolError,
        Failure::Timeout(Phase::Connect) => ErrorCode::ConnectionTimeout,
        Failure::Timeout(Phase::FirstByte | Phase::BetweenBytes) => ErrorCode::ConnectionReadTimeout,
        Failure::TooLarge { limit } => ErrorCode::HttpResponseBodySize(Some(limit)),
        Failure::Protocol => ErrorCode::HttpProtocolError,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy(allowed: &[&str]) -> OutboundPolicy {
        let allowed: Vec<HostPattern> = allowed.iter().map(|a| HostPattern::parse(a).unwrap()).collect();
        let upstream = Upstream::new(&Default::default()).unwrap();
        OutboundPolicy::new("p".into(), allowed.into(), Duration::from_secs(1), 10, upstream)
    }

    #[test]
    fn checks_scheme_host_and_port() {
        let p = policy(&["http://127.0.0.1:8080", "https://api.example.com"]);
        let ok = |u: &str| p.is_allowed(&u.parse().unwrap());
        assert!(ok("http://127.0.0.1:8080/v1").is_ok());
        assert!(ok("https://api.example.com/x").is_ok());
        assert_eq!(ok("http://127.0.0.1:8081/").unwrap_err(), "http://127.0.0.1:8081");
        assert_eq!(ok("http://api.example.com/").unwrap_err(), "http://api.example.com:80");
        assert!(ok("https://api.example.com.evil.net/").is_err());
    }

    #[tokio::test]
    async fn a_whole_request_is_refused_before_it_is_sent() {
        let p = policy(&["http://127.0.0.1:1"]);
        let send = |url: &'static str, headers: Vec<(String, String)>| {
            p.send_whole(http::Method::GET, url, headers, Vec::new(), None)
        };
        assert!(matches!(send("/relative", vec![]).await, Err(ErrorCode::HttpRequestUriInvalid)));
        assert!(matches!(send("http://127.0.0.1:2/", vec![]).await, Err(ErrorCode::HttpRequestDenied)));
        assert_eq!(p.denied(), vec!["http://127.0.0.1:2".to_owned()]);
        let hop = vec![("Transfer-Encoding".to_owned(), "chunked".to_owned())];
        let e = send("http://127.0.0.1:1/", hop).await.unwrap_err();
        assert!(matches!(&e, ErrorCode::InternalError(Some(m)) if m.contains("transfer-encoding")), "{e:?}");
        let bad = vec![("x-ok".to_owned(), "line\nbreak".to_owned())];
        assert!(matches!(send("http://127.0.0.1:1/", bad).await, Err(ErrorCode::InternalError(_))));
    }
}
