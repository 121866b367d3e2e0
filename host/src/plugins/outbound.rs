//! Outbound HTTP for plugins: `wasi:http` requests pass through here, where the plugin's
//! `allowed_hosts`, a timeout and a response-size cap are enforced before anything reaches the network.

use super::spec::{HostPattern, split_host_port};
use bytes::Bytes;
use http_body::{Body, Frame, SizeHint};
use http_body_util::BodyExt;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;
use wasmtime_wasi_http::{Error as HttpError, RequestOptions, WasiBody, WasiHttpHooks};

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

/// The per-call hooks: one instance per store, so denials are attributed to the call that made them.
pub struct OutboundPolicy {
    plugin: Arc<str>,
    allowed: Arc<[HostPattern]>,
    timeout: Duration,
    max_response_bytes: u64,
    denied: Arc<Mutex<Vec<String>>>,
}

impl OutboundPolicy {
    pub fn new(
        plugin: Arc<str>,
        allowed: Arc<[HostPattern]>,
        timeout: Duration,
        max_response_bytes: u64,
    ) -> Self {
        OutboundPolicy { plugin, allowed, timeout, max_response_bytes, denied: Arc::default() }
    }

    /// The destinations this call asked for and was refused.
    pub fn denied(&self) -> Vec<String> {
        self.denied.lock().map(|d| d.clone()).unwrap_or_default()
    }

    fn is_allowed(&self, uri: &http::Uri) -> Result<(), String> {
        let scheme = uri.scheme_str().unwrap_or("https").to_ascii_lowercase();
        let authority = uri.authority().map(|a| a.as_str()).unwrap_or_default();
        let Some((host, port)) = split_host_port(authority) else {
            return Err(format!("{scheme}://{authority}"));
        };
        let default_port = if scheme == "https" { 443 } else { 80 };
        let port = match port {
            None => default_port,
            Some(p) => p.parse().map_err(|_| format!("{scheme}://{authority}"))?,
        };
        let origin = format!("{scheme}://{host}:{port}");
        if self.allowed.iter().any(|p| p.allows(&scheme, host, port)) { Ok(()) } else { Err(origin) }
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
        if let Err(origin) = self.is_allowed(request.uri()) {
            tracing::warn!(plugin = %self.plugin, destination = %origin, "denied an outbound request outside allowed_hosts");
            if let Ok(mut denied) = self.denied.lock() {
                denied.push(origin);
            }
            let (_, body) = request.into_parts();
            let wait = self.timeout;
            return Box::new(async move {
                let _ = tokio::time::timeout(wait, read_body(body, MAX_REQUEST_BYTES)).await;
                Err(HttpError::HttpRequestDenied)
            });
        }

        // The guest may ask for shorter timeouts, never for longer ones.
        let cap = |asked: Option<Duration>| Some(asked.map_or(self.timeout, |a| a.min(self.timeout)));
        let options = options.unwrap_or_default();
        let options = RequestOptions {
            connect_timeout: cap(options.connect_timeout),
            first_byte_timeout: cap(options.first_byte_timeout),
            between_bytes_timeout: cap(options.between_bytes_timeout),
        };
        let limit = self.max_response_bytes;
        let plugin = self.plugin.clone();
        let uri = request.uri().clone();
        let timeout = self.timeout;
        Box::new(async move {
            tracing::debug!(plugin = %plugin, %uri, "outbound request");
            let (parts, body) = request.into_parts();
            let body = tokio::time::timeout(timeout, read_body(body, MAX_REQUEST_BYTES))
                .await
                .map_err(|_| HttpError::ConnectionWriteTimeout)??;
            let body = http_body_util::Full::new(body).map_err(|never| match never {}).boxed_unsync();
            let request = http::Request::from_parts(parts, body);
            let (response, io) = wasmtime_wasi_http::default_send_request(request, Some(options)).await?;
            let declared = response
                .headers()
                .get(http::header::CONTENT_LENGTH)
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.parse::<u64>().ok());
            if declared.is_some_and(|n| n > limit) {
                return Err(HttpError::HttpResponseBodySize(declared));
            }
            let response = response.map(|body| {
                CappedBody { inner: body.boxed_unsync(), remaining: limit, limit }.boxed_unsync()
            });
            Ok((response, Box::new(io) as Box<dyn Future<Output = Result<(), HttpError>> + Send>))
        })
    }
}

/// A response body that fails once it has delivered more than `limit` bytes, so a hostile or broken
/// upstream cannot make the host buffer without bound on a plugin's behalf.
struct CappedBody {
    inner: WasiBody,
    remaining: u64,
    limit: u64,
}

impl Body for CappedBody {
    type Data = Bytes;
    type Error = HttpError;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, HttpError>>> {
        let frame = match Pin::new(&mut self.inner).poll_frame(cx) {
            Poll::Ready(Some(Ok(frame))) => frame,
            other => return other,
        };
        if let Some(data) = frame.data_ref() {
            let len = data.len() as u64;
            if len > self.remaining {
                return Poll::Ready(Some(Err(HttpError::HttpResponseBodySize(Some(self.limit)))));
            }
            self.remaining -= len;
        }
        Poll::Ready(Some(Ok(frame)))
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy(allowed: &[&str]) -> OutboundPolicy {
        let allowed: Vec<HostPattern> = allowed.iter().map(|a| HostPattern::parse(a).unwrap()).collect();
        OutboundPolicy::new("p".into(), allowed.into(), Duration::from_secs(1), 10)
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
    async fn caps_the_body() {
        let body = http_body_util::Full::new(Bytes::from(vec![0u8; 64]))
            .map_err(|never| match never {})
            .boxed_unsync();
        let capped = CappedBody { inner: body, remaining: 10, limit: 10 };
        let err = capped.collect().await.unwrap_err();
        assert!(matches!(err, HttpError::HttpResponseBodySize(Some(10))));
    }
}
