//! Outbound HTTP for plugins: `wasi:http` requests pass through here, where the plugin's
//! `allowed_hosts`, a timeout and a response-size cap are enforced before anything reaches the network,
//! and then sent by the process's one pooled client ([`crate::upstream`]), whose failures are told to
//! the guest as the `wasi:http` error code of their cause.

use super::spec::HostPattern;
use crate::upstream::{Destination, Failure, Limits, Phase, Upstream, UpstreamError};
use bytes::Bytes;
use http_body_util::BodyExt;
use std::sync::{Arc, Mutex};
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
        let limits = Limits {
            connect: cap(options.connect_timeout),
            first_byte: cap(options.first_byte_timeout),
            between_bytes: cap(options.between_bytes_timeout),
            max_response_bytes: self.max_response_bytes,
        };
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
                wasi_error(&e)
            })?;
            let response = response.map(|body| body.map_err(|e| wasi_error(&e)).boxed_unsync());
            // The pool's own task drives the connection, so there is nothing left to wait for here.
            let done = Box::new(async { Ok(()) }) as Box<dyn Future<Output = Result<(), HttpError>> + Send>;
            Ok((response, done))
        })
    }
}

/// The `wasi:http` error code of a failure's cause. Each cause has its own code, so a guest can tell a
/// reset from a refusal; wasmtime would turn a bare connect error into `connection-refused`, so none
/// is passed on.
fn wasi_error(e: &UpstreamError) -> HttpError {
    match e.failure() {
        Failure::Dns => HttpError::DnsError { rcode: None, info_code: None },
        Failure::Refused => HttpError::ConnectionRefused,
        Failure::Reset => HttpError::ConnectionTerminated,
        Failure::Unreachable => HttpError::DestinationUnavailable,
        Failure::TlsCertificate => HttpError::TlsCertificateError,
        Failure::TlsAlert(alert) => HttpError::TlsAlertReceived {
            alert_id: Some(u8::from(alert)),
            alert_message: Some(format!("{alert:?}")),
        },
        Failure::TlsProtocol => HttpError::TlsProtocolError,
        Failure::Timeout(Phase::Connect) => HttpError::ConnectionTimeout,
        Failure::Timeout(Phase::FirstByte | Phase::BetweenBytes) => HttpError::ConnectionReadTimeout,
        Failure::TooLarge { limit } => HttpError::HttpResponseBodySize(Some(limit)),
        Failure::Protocol => HttpError::HttpProtocolError,
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
}
