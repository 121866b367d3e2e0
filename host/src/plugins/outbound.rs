//! Outbound HTTP for plugins: `wasi:http` requests pass through here, where the plugin's
//! `allowed_hosts`, a timeout and a response-size cap are enforced before anything reaches the network,
//! and then sent by the process's one pooled client.

use super::spec::{HostPattern, split_host_port};
use bytes::Bytes;
use http_body::{Body, Frame, SizeHint};
use http_body_util::BodyExt;
use hyper_rustls::HttpsConnector;
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::{TokioExecutor, TokioTimer};
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
    upstreams: Upstreams,
    denied: Arc<Mutex<Vec<String>>>,
}

impl OutboundPolicy {
    pub fn new(
        plugin: Arc<str>,
        allowed: Arc<[HostPattern]>,
        timeout: Duration,
        max_response_bytes: u64,
        upstreams: Upstreams,
    ) -> Self {
        OutboundPolicy { plugin, allowed, timeout, max_response_bytes, upstreams, denied: Arc::default() }
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
        let cap = |asked: Option<Duration>| asked.map_or(self.timeout, |a| a.min(self.timeout));
        let options = options.unwrap_or_default();
        let connect = cap(options.connect_timeout);
        let first_byte = cap(options.first_byte_timeout);
        let between_bytes = cap(options.between_bytes_timeout);
        let limit = self.max_response_bytes;
        let plugin = self.plugin.clone();
        let upstreams = self.upstreams.clone();
        let timeout = self.timeout;
        Box::new(async move {
            tracing::debug!(plugin = %plugin, uri = %request.uri(), "outbound request");
            let (parts, body) = request.into_parts();
            let body = tokio::time::timeout(timeout, read_body(body, MAX_REQUEST_BYTES))
                .await
                .map_err(|_| HttpError::ConnectionWriteTimeout)??;
            let request = http::Request::from_parts(parts, http_body_util::Full::new(body));
            // A pooled connection needs no connect, so one budget covers connecting (when a new
            // connection is needed) and waiting for the response head.
            let response = tokio::time::timeout(connect + first_byte, upstreams.client.request(request))
                .await
                .map_err(|_| HttpError::ConnectionReadTimeout)?
                .map_err(|e| send_error(&e))?;
            let declared = response
                .headers()
                .get(http::header::CONTENT_LENGTH)
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.parse::<u64>().ok());
            if declared.is_some_and(|n| n > limit) {
                return Err(HttpError::HttpResponseBodySize(declared));
            }
            let response = response.map(|body| {
                GuardedBody::new(body.map_err(|e| hyper_error(&e)).boxed_unsync(), limit, between_bytes)
                    .boxed_unsync()
            });
            // The pool's own task drives the connection, so there is nothing left to wait for here.
            let done = Box::new(async { Ok(()) }) as Box<dyn Future<Output = Result<(), HttpError>> + Send>;
            Ok((response, done))
        })
    }
}

/// How long an unused upstream connection stays open for the next call.
const POOL_IDLE: Duration = Duration::from_secs(30);

/// The process's one HTTP client for plugins' outbound requests (behind each call's allow-list check).
///
/// It keeps connections to each upstream open between calls. Every plugin call runs in a fresh
/// instance, so a client per call would pay a TCP connect, and for HTTPS a TLS handshake (one or two
/// round trips to the provider), on every paraphrase or chat reply. Redirects are not followed and no
/// proxy is read from the environment: a plugin reaches exactly the origin it asked for, which the
/// allow-list has checked.
#[derive(Clone)]
pub struct Upstreams {
    client: Client<HttpsConnector<HttpConnector>, http_body_util::Full<Bytes>>,
}

impl Upstreams {
    pub fn new() -> Result<Upstreams, rustls::Error> {
        let tls =
            rustls::ClientConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
                .with_safe_default_protocol_versions()?
                .with_root_certificates(rustls::RootCertStore {
                    roots: webpki_roots::TLS_SERVER_ROOTS.into(),
                })
                .with_no_client_auth();
        let mut tcp = HttpConnector::new();
        tcp.enforce_http(false);
        tcp.set_nodelay(true);
        let connector = hyper_rustls::HttpsConnectorBuilder::new()
            .with_tls_config(tls)
            .https_or_http()
            .enable_http1()
            .wrap_connector(tcp);
        let client = Client::builder(TokioExecutor::new())
            .pool_timer(TokioTimer::new())
            .pool_idle_timeout(POOL_IDLE)
            .build(connector);
        Ok(Upstreams { client })
    }
}

/// The `wasi:http` error code for a failed request, from the cause the client reports.
fn send_error(err: &hyper_util::client::legacy::Error) -> HttpError {
    let mut cause = std::error::Error::source(err);
    while let Some(current) = cause {
        if let Some(tls) = current.downcast_ref::<rustls::Error>() {
            return tls_error(tls);
        }
        if let Some(io) = current.downcast_ref::<std::io::Error>() {
            // An I/O error's `source()` skips the error it wraps, where TLS failures are.
            if let Some(tls) = io.get_ref().and_then(|inner| inner.downcast_ref::<rustls::Error>()) {
                return tls_error(tls);
            }
            return io_error(io);
        }
        if let Some(hyper) = current.downcast_ref::<hyper::Error>() {
            return hyper_error(hyper);
        }
        cause = current.source();
    }
    if err.is_connect() {
        HttpError::Connect(std::io::Error::other(err.to_string()))
    } else {
        HttpError::InternalError(Some(err.to_string()))
    }
}

fn io_error(err: &std::io::Error) -> HttpError {
    use std::io::ErrorKind;
    match err.kind() {
        ErrorKind::ConnectionRefused => HttpError::ConnectionRefused,
        ErrorKind::TimedOut => HttpError::ConnectionTimeout,
        ErrorKind::ConnectionReset
        | ErrorKind::ConnectionAborted
        | ErrorKind::BrokenPipe
        | ErrorKind::UnexpectedEof => HttpError::ConnectionTerminated,
        // Keeps the resolver's message, from which wasmtime tells a DNS failure.
        kind => HttpError::Connect(std::io::Error::new(kind, err.to_string())),
    }
}

fn tls_error(err: &rustls::Error) -> HttpError {
    match err {
        rustls::Error::InvalidCertificate(_) => HttpError::TlsCertificateError,
        rustls::Error::AlertReceived(alert) => HttpError::TlsAlertReceived {
            alert_id: Some(u8::from(*alert)),
            alert_message: Some(format!("{alert:?}")),
        },
        _ => HttpError::TlsProtocolError,
    }
}

fn hyper_error(err: &hyper::Error) -> HttpError {
    if err.is_timeout() {
        HttpError::HttpResponseTimeout
    } else if err.is_incomplete_message() {
        HttpError::HttpResponseIncomplete
    } else if err.is_closed() || err.is_canceled() {
        HttpError::ConnectionTerminated
    } else {
        HttpError::HttpProtocolError
    }
}

/// A response body with the plugin's limits: it fails once it has delivered more than `limit` bytes,
/// so a hostile or broken upstream cannot make the host buffer without bound on a plugin's behalf,
/// and when the upstream sends nothing for `between_bytes` while the plugin is waiting for more.
struct GuardedBody {
    inner: WasiBody,
    remaining: u64,
    limit: u64,
    between_bytes: Duration,
    /// Armed while the plugin waits for the next frame; time the plugin spends elsewhere is not the
    /// upstream's delay.
    stall: Option<Pin<Box<tokio::time::Sleep>>>,
}

impl GuardedBody {
    fn new(inner: WasiBody, limit: u64, between_bytes: Duration) -> Self {
        GuardedBody { inner, remaining: limit, limit, between_bytes, stall: None }
    }
}

impl Body for GuardedBody {
    type Data = Bytes;
    type Error = HttpError;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, HttpError>>> {
        let frame = match Pin::new(&mut self.inner).poll_frame(cx) {
            Poll::Ready(Some(Ok(frame))) => frame,
            Poll::Pending => {
                let wait = self.between_bytes;
                let stall = self.stall.get_or_insert_with(|| Box::pin(tokio::time::sleep(wait)));
                return match stall.as_mut().poll(cx) {
                    Poll::Ready(()) => Poll::Ready(Some(Err(HttpError::ConnectionReadTimeout))),
                    Poll::Pending => Poll::Pending,
                };
            }
            other => return other,
        };
        self.stall = None;
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
        OutboundPolicy::new("p".into(), allowed.into(), Duration::from_secs(1), 10, Upstreams::new().unwrap())
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
        let capped = GuardedBody::new(body, 10, Duration::from_secs(1));
        let err = capped.collect().await.unwrap_err();
        assert!(matches!(err, HttpError::HttpResponseBodySize(Some(10))));
    }

    /// An upstream that sends its head and then nothing.
    struct Silent;

    impl Body for Silent {
        type Data = Bytes;
        type Error = HttpError;

        fn poll_frame(
            self: Pin<&mut Self>,
            _: &mut Context<'_>,
        ) -> Poll<Option<Result<Frame<Bytes>, HttpError>>> {
            Poll::Pending
        }
    }

    #[tokio::test]
    async fn gives_up_on_a_silent_upstream_between_bytes() {
        let guarded = GuardedBody::new(Silent.boxed_unsync(), 10, Duration::from_millis(20));
        let err = guarded.collect().await.unwrap_err();
        assert!(matches!(err, HttpError::ConnectionReadTimeout), "{err:?}");
    }
}
