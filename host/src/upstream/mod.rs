//! The process's one outbound HTTP client: a keep-alive pool over rustls (the ring provider) that
//! trusts the webpki roots plus the operator's extra CA certificates, and reports every failure as an
//! [`UpstreamError`] naming the cause and the destination.
//!
//! Plugins' `wasi:http` requests (behind their allow-list, in `crate::plugins::outbound`) and the
//! OpenAI-compatible embeddings backend (`crate::embeddings`) both go through it, so the process has
//! one TLS stack, one trust configuration and one connection pool.

mod body;
mod error;

pub use crate::tls::TrustError;
pub use body::ResponseBody;
pub use error::{Failure, Phase, UpstreamError, with_causes};

use crate::telemetry::WithSpan;
use bytes::Bytes;
use error::{DnsFailure, Stage};
use futures::future::BoxFuture;
use http_body_util::Full;
use hyper_rustls::HttpsConnector;
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::dns::{GaiAddrs, GaiResolver, Name};
use hyper_util::client::legacy::connect::{HttpConnector, capture_connection};
use hyper_util::rt::{TokioExecutor, TokioTimer};
use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;
use tower::Service;

/// How long an unused upstream connection stays open for the next request.
const POOL_IDLE: Duration = Duration::from_secs(30);

/// Which certificate authorities outbound TLS trusts besides the webpki roots: the `[tls]` section.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TlsConfig {
    /// A PEM file of extra CA certificates: an operator's private CA.
    pub ca_file: Option<PathBuf>,
}

impl TlsConfig {
    /// The client these settings describe; a CA file that cannot be used is a configuration error.
    pub fn client(&self) -> Result<Upstream, crate::config::ConfigError> {
        Upstream::new(self)
            .map_err(|e| crate::config::ConfigError::one(format!("[tls] ca_file: {}", with_causes(&e))))
    }

    /// The process's TLS client configuration (rustls with ring, the web's roots and `ca_file`), for
    /// the other clients that leave the process (PostgreSQL).
    pub fn rustls(&self) -> Result<rustls::ClientConfig, crate::config::ConfigError> {
        tls_config(self)
            .map_err(|e| crate::config::ConfigError::one(format!("[tls] ca_file: {}", with_causes(&e))))
    }
}

impl crate::config::Section for TlsConfig {
    const NAME: &'static str = "tls";
    const ABOUT: &'static str = "Outbound TLS";

    fn settings() -> &'static [crate::config::Setting<Self>] {
        static SETTINGS: &[crate::config::Setting<TlsConfig>] = &[crate::config::setting!(
            "ca_file",
            crate::config::Kind::FilePath,
            |c| c.ca_file,
            env = "PARLANCE_CA_FILE",
            "A PEM file of CA certificates that outbound HTTPS (plugins' upstreams, the embeddings endpoint) trusts besides the public roots"
        )];
        SETTINGS
    }
}

/// What one exchange may take. The caller's policy decides the numbers.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub connect: Duration,
    pub first_byte: Duration,
    pub between_bytes: Duration,
    pub max_response_bytes: u64,
}

impl Limits {
    /// The same `wait` for connecting, the first byte and each gap, and a body of at most `max` bytes.
    pub fn within(wait: Duration, max_response_bytes: u64) -> Limits {
        Limits { connect: wait, first_byte: wait, between_bytes: wait, max_response_bytes }
    }
}

/// Where a request goes, as messages and allow-lists name it: `scheme://host:port`, the port explicit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Destination {
    /// Lower-case `http` or `https`; a URI without one is taken as `https`.
    pub scheme: String,
    /// Without the brackets of an IPv6 literal.
    pub host: String,
    pub port: u16,
}

impl Destination {
    /// `None` when the URI has no host.
    pub fn of(uri: &http::Uri) -> Option<Destination> {
        let scheme = uri.scheme_str().unwrap_or("https").to_ascii_lowercase();
        let authority = uri.authority()?;
        let host = authority.host().trim_start_matches('[').trim_end_matches(']');
        if host.is_empty() {
            return None;
        }
        let port = authority.port_u16().unwrap_or(if scheme == "https" { 443 } else { 80 });
        Some(Destination { scheme, host: host.to_owned(), port })
    }
}

impl fmt::Display for Destination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Destination { scheme, host, port } = self;
        if host.contains(':') {
            write!(f, "{scheme}://[{host}]:{port}")
        } else {
            write!(f, "{scheme}://{host}:{port}")
        }
    }
}

/// The pooled client, cheap to clone; every clone shares the pool.
///
/// Connections to each upstream stay open between requests: plugin calls run in fresh instances, so a
/// client per call would pay a TCP connect, and for HTTPS a TLS handshake, on every paraphrase, chat
/// reply or embedding batch. Redirects are not followed and no proxy is read from the environment: a
/// request reaches exactly the origin it names, which for a plugin is the one its allow-list checked.
#[derive(Clone)]
pub struct Upstream {
    client: Client<HttpsConnector<HttpConnector<Resolver>>, Full<Bytes>>,
}

impl Upstream {
    pub fn new(trust: &TlsConfig) -> Result<Upstream, TrustError> {
        let tls = tls_config(trust)?;
        let mut tcp = HttpConnector::new_with_resolver(Resolver(GaiResolver::new()));
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
        Ok(Upstream { client })
    }

    /// Sends `request` and returns the response once its head has arrived; the body is read within
    /// `limits`. A response that declares a length above the cap fails here, before its body is read.
    ///
    /// Each request is a client span of the current trace, whose context the request carries in
    /// `traceparent` (and `tracestate`) whatever its maker set there; the span ends with the head.
    pub async fn send(
        &self,
        mut request: http::Request<Full<Bytes>>,
        limits: Limits,
    ) -> Result<http::Response<ResponseBody>, UpstreamError> {
        let uri = request.uri();
        let span = crate::telemetry::trace_span!(
            request.method().to_string(),
            Client,
            "http.request.method" => request.method().to_string(),
            "server.address" => uri.host().unwrap_or_default().to_owned(),
            "server.port" => i64::from(uri.port_u16().unwrap_or(if uri.scheme_str() == Some("https") { 443 } else { 80 })),
        );
        crate::telemetry::propagate(request.headers_mut(), &span);
        let result = self.exchange(request, limits).in_span(span.clone()).await;
        match &result {
            Ok(response) => {
                span.set_attribute("http.response.status_code", i64::from(response.status().as_u16()))
            }
            Err(e) => span.set_error(e.failure().label()),
        }
        result
    }

    async fn exchange(
        &self,
        mut request: http::Request<Full<Bytes>>,
        limits: Limits,
    ) -> Result<http::Response<ResponseBody>, UpstreamError> {
        let uri = request.uri();
        let destination: Arc<str> =
            Destination::of(uri).map_or_else(|| uri.to_string(), |d| d.to_string()).into();
        let mut connection = capture_connection(&mut request);
        let mut response = std::pin::pin!(self.client.request(request));
        // The connect budget runs until a connection, pooled or new, carries the request, and the
        // first-byte budget from then on: an upstream that accepts and never answers costs the one
        // budget, not their sum.
        let connected = async {
            tokio::select! {
                biased;
                done = &mut response => Some(done),
                _ = async { connection.wait_for_connection_metadata().await.is_some() } => None,
            }
        };
        let head = match tokio::time::timeout(limits.connect, connected).await {
            Ok(Some(done)) => Ok(done),
            Ok(None) => tokio::time::timeout(limits.first_byte, &mut response)
                .await
                .map_err(|_| Failure::Timeout(Phase::FirstByte)),
            Err(_) => Err(Failure::Timeout(Phase::Connect)),
        };
        let response = match head {
            Ok(Ok(response)) => response,
            Ok(Err(e)) => {
                let stage = if e.is_connect() { Stage::Connecting } else { Stage::AwaitingHead };
                return Err(UpstreamError::classify(destination, e.into(), stage));
            }
            Err(timeout) => return Err(UpstreamError::new(destination, timeout)),
        };
        let declared = response
            .headers()
            .get(http::header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<u64>().ok());
        if declared.is_some_and(|n| n > limits.max_response_bytes) {
            let limit = limits.max_response_bytes;
            return Err(UpstreamError::new(destination, Failure::TooLarge { limit }));
        }
        Ok(response.map(|body| {
            ResponseBody::new(body, destination, limits.max_response_bytes, limits.between_bytes)
        }))
    }
}

/// rustls with ring, trusting the web's roots and the operator's `ca_file`.
fn tls_config(trust: &TlsConfig) -> Result<rustls::ClientConfig, TrustError> {
    crate::tls::client_config(trust.ca_file.as_deref())
}

/// The system resolver, its failures marked as DNS failures: the connector reports them as bare I/O
/// errors, indistinguishable from a failed connect.
#[derive(Clone)]
struct Resolver(GaiResolver);

impl Service<Name> for Resolver {
    type Response = GaiAddrs;
    type Error = DnsFailure;
    type Future = BoxFuture<'static, Result<GaiAddrs, DnsFailure>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), DnsFailure>> {
        self.0.poll_ready(cx).map_err(|source| DnsFailure { source })
    }

    fn call(&mut self, name: Name) -> Self::Future {
        let lookup = self.0.call(name);
        Box::pin(async move { lookup.await.map_err(|source| DnsFailure { source }) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_the_destination_with_its_port() {
        let d = |uri: &str| Destination::of(&uri.parse().unwrap()).map(|d| d.to_string());
        assert_eq!(d("https://api.example.com/v1").as_deref(), Some("https://api.example.com:443"));
        assert_eq!(d("HTTP://127.0.0.1:8080/x").as_deref(), Some("http://127.0.0.1:8080"));
        assert_eq!(d("http://[::1]:9/").as_deref(), Some("http://[::1]:9"));
        assert_eq!(Destination::of(&"http://[::1]:9/".parse().unwrap()).unwrap().host, "::1");
        assert_eq!(d("/relative"), None);
    }

    #[test]
    fn reads_extra_ca_certificates_and_names_a_bad_file() {
        let dir = tempfile::tempdir().unwrap();
        let missing = TlsConfig { ca_file: Some(dir.path().join("missing.pem")) };
        let err = Upstream::new(&missing).err().unwrap();
        assert!(matches!(err, TrustError::Read { .. }), "{err:?}");
        assert!(with_causes(&err).contains("missing.pem"), "{}", with_causes(&err));

        let empty = dir.path().join("empty.pem");
        std::fs::write(&empty, "not a certificate\n").unwrap();
        let err = Upstream::new(&TlsConfig { ca_file: Some(empty) }).err().unwrap();
        assert!(matches!(err, TrustError::NoCertificate { .. }), "{err:?}");

        assert!(Upstream::new(&TlsConfig::default()).is_ok());
    }
}
