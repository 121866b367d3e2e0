//! What went wrong with an outbound exchange: one classification of the client's failures (DNS,
//! refused, reset, TLS, timeouts, size, HTTP) into an [`UpstreamError`] that names the cause and the
//! destination and keeps the underlying error as its source.

use std::error::Error as StdError;
use std::fmt;
use std::io;
use std::sync::Arc;

/// The resolver's failure, told apart from the connector's own when a request is classified.
#[derive(Debug, thiserror::Error)]
#[error("DNS resolution failed")]
pub(super) struct DnsFailure {
    #[source]
    pub(super) source: io::Error,
}

pub(super) type BoxError = Box<dyn StdError + Send + Sync>;

/// An outbound exchange that failed, with the destination (`https://host:port`) and the cause.
#[derive(Debug, thiserror::Error)]
#[error("{destination}: {failure}")]
pub struct UpstreamError {
    destination: Arc<str>,
    failure: Failure,
    #[source]
    source: Option<BoxError>,
}

/// The cause of an [`UpstreamError`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The host name did not resolve.
    Dns,
    /// Nothing accepted the connection at the destination.
    Refused,
    /// The upstream reset or closed the connection before the response was complete.
    Reset,
    /// The connection could not be made for another reason (no route, network down).
    Unreachable,
    /// The upstream's certificate was not accepted (an unknown issuer, expired, another name).
    TlsCertificate,
    /// The upstream ended TLS with this alert.
    TlsAlert(rustls::AlertDescription),
    /// Any other TLS failure.
    TlsProtocol,
    Timeout(Phase),
    /// The response is larger than the exchange allows.
    TooLarge {
        limit: u64,
    },
    /// The exchange failed at the HTTP level (a malformed response, a request the client cannot send).
    Protocol,
}

impl Failure {
    /// The cause in one word of a closed set, as a trace's `error.type`.
    pub fn label(&self) -> &'static str {
        match self {
            Failure::Dns => "dns",
            Failure::Refused => "connection_refused",
            Failure::Reset => "connection_reset",
            Failure::Unreachable => "unreachable",
            Failure::TlsCertificate => "tls_certificate",
            Failure::TlsAlert(_) => "tls_alert",
            Failure::TlsProtocol => "tls_protocol",
            Failure::Timeout(_) => "timeout",
            Failure::TooLarge { .. } => "too_large",
            Failure::Protocol => "http_protocol",
        }
    }
}

/// Which wait of an exchange ran out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    Connect,
    /// Waiting for the response head once connected.
    FirstByte,
    /// Waiting for the next part of the response body.
    BetweenBytes,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Dns => f.write_str("DNS resolution failed"),
            Failure::Refused => f.write_str("connection refused"),
            Failure::Reset => f.write_str("connection reset or closed by the upstream"),
            Failure::Unreachable => f.write_str("cannot connect"),
            Failure::TlsCertificate => f.write_str("TLS certificate rejected"),
            Failure::TlsAlert(alert) => write!(f, "TLS alert from the upstream: {alert:?}"),
            Failure::TlsProtocol => f.write_str("TLS protocol error"),
            Failure::Timeout(Phase::Connect) => f.write_str("timed out connecting"),
            Failure::Timeout(Phase::FirstByte) => f.write_str("timed out waiting for the response"),
            Failure::Timeout(Phase::BetweenBytes) => f.write_str("timed out reading the response body"),
            Failure::TooLarge { limit } => write!(f, "the response is larger than {limit} bytes"),
            Failure::Protocol => f.write_str("HTTP protocol error"),
        }
    }
}

/// How far the exchange had got when it failed; it decides what an OS timeout or an unexplained
/// failure means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Stage {
    Connecting,
    AwaitingHead,
    ReadingBody,
}

impl UpstreamError {
    pub(super) fn new(destination: Arc<str>, failure: Failure) -> Self {
        UpstreamError { destination, failure, source: None }
    }

    pub fn failure(&self) -> Failure {
        self.failure
    }

    /// Where the request went, as `scheme://host:port`.
    pub fn destination(&self) -> &str {
        &self.destination
    }

    /// Classifies what the client reported. The source kept is the specific cause (the OS error, the
    /// TLS error) when it can be owned, else the client's whole error.
    pub(super) fn classify(destination: Arc<str>, error: BoxError, stage: Stage) -> Self {
        let (failure, cause) = classify_chain(&*error, stage);
        let source = cause.and_then(owned).unwrap_or(error);
        UpstreamError { destination, failure, source: Some(source) }
    }
}

/// The first error under `error` that tells what happened, and what it says.
fn classify_chain<'a>(
    error: &'a (dyn StdError + 'static),
    stage: Stage,
) -> (Failure, Option<&'a (dyn StdError + 'static)>) {
    for e in causes(error) {
        if let Some(tls) = e.downcast_ref::<rustls::Error>() {
            let failure = match tls {
                rustls::Error::InvalidCertificate(_) => Failure::TlsCertificate,
                rustls::Error::AlertReceived(alert) => Failure::TlsAlert(*alert),
                _ => Failure::TlsProtocol,
            };
            return (failure, Some(e));
        }
        if let Some(dns) = e.downcast_ref::<DnsFailure>() {
            return (Failure::Dns, Some(&dns.source));
        }
        if let Some(io) = e.downcast_ref::<io::Error>()
            && let Some(failure) = io_failure(io.kind(), stage)
        {
            return (failure, Some(e));
        }
        if let Some(hyper) = e.downcast_ref::<hyper::Error>()
            && let Some(failure) = hyper_failure(hyper, stage)
        {
            return (failure, Some(e));
        }
    }
    let failure = if stage == Stage::Connecting { Failure::Unreachable } else { Failure::Protocol };
    (failure, None)
}

/// The error and every error under it. An I/O error's `source()` skips the error it wraps, and the
/// TLS connector wraps twice (an I/O error of kind `Other` around the TLS stream's I/O error around
/// the TLS error or the socket's reset), so an I/O error is descended into through what it wraps.
fn causes<'a>(error: &'a (dyn StdError + 'static)) -> impl Iterator<Item = &'a (dyn StdError + 'static)> {
    std::iter::successors(Some(error), |&e| match e.downcast_ref::<io::Error>() {
        Some(io) => io.get_ref().map(|inner| inner as &(dyn StdError + 'static)),
        None => e.source(),
    })
}

fn io_failure(kind: io::ErrorKind, stage: Stage) -> Option<Failure> {
    use io::ErrorKind as K;
    Some(match kind {
        K::ConnectionRefused => Failure::Refused,
        K::ConnectionReset | K::ConnectionAborted | K::BrokenPipe | K::UnexpectedEof => Failure::Reset,
        K::HostUnreachable | K::NetworkUnreachable | K::NetworkDown | K::AddrNotAvailable => {
            Failure::Unreachable
        }
        K::TimedOut => Failure::Timeout(match stage {
            Stage::Connecting => Phase::Connect,
            Stage::AwaitingHead => Phase::FirstByte,
            Stage::ReadingBody => Phase::BetweenBytes,
        }),
        _ => return None,
    })
}

/// hyper's own verdicts; one that wraps an I/O error says less than the I/O error, which comes next.
fn hyper_failure(e: &hyper::Error, stage: Stage) -> Option<Failure> {
    if e.is_incomplete_message() || e.is_canceled() || e.is_closed() {
        Some(Failure::Reset)
    } else if e.is_timeout() {
        Some(Failure::Timeout(if stage == Stage::ReadingBody {
            Phase::BetweenBytes
        } else {
            Phase::FirstByte
        }))
    } else {
        None
    }
}

/// An owned copy of a cause that is only borrowed from the client's error: the same TLS error, the same
/// OS error (by its code, so its kind and message are the system's).
fn owned(cause: &(dyn StdError + 'static)) -> Option<BoxError> {
    if let Some(tls) = cause.downcast_ref::<rustls::Error>() {
        return Some(Box::new(tls.clone()));
    }
    let io = cause.downcast_ref::<io::Error>()?;
    Some(Box::new(match io.raw_os_error() {
        Some(code) => io::Error::from_raw_os_error(code),
        None => io::Error::new(io.kind(), io.to_string()),
    }))
}

/// An error and its causes on one line (`error: cause: cause`), for messages that leave as text (a
/// plugin error, a configuration problem). A cause whose text the line already ends with is not
/// repeated.
pub fn with_causes(error: &(dyn StdError + 'static)) -> String {
    let mut line = error.to_string();
    let mut cause = error.source();
    while let Some(c) = cause {
        let text = c.to_string();
        if !line.ends_with(&text) {
            line.push_str(": ");
            line.push_str(&text);
        }
        cause = c.source();
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    fn classify(error: BoxError, stage: Stage) -> UpstreamError {
        UpstreamError::classify("https://up:443".into(), error, stage)
    }

    #[test]
    fn a_reset_is_never_refused() {
        for kind in [io::ErrorKind::ConnectionReset, io::ErrorKind::BrokenPipe, io::ErrorKind::UnexpectedEof]
        {
            for stage in [Stage::Connecting, Stage::AwaitingHead, Stage::ReadingBody] {
                let e = classify(io::Error::from(kind).into(), stage);
                assert_eq!(e.failure(), Failure::Reset, "{kind:?} at {stage:?}");
            }
        }
        let refused = classify(io::Error::from(io::ErrorKind::ConnectionRefused).into(), Stage::Connecting);
        assert_eq!(refused.failure(), Failure::Refused);
        assert_eq!(refused.to_string(), "https://up:443: connection refused");
    }

    #[test]
    fn finds_the_tls_error_inside_an_io_error_and_keeps_it_as_the_source() {
        let certificate = rustls::Error::InvalidCertificate(rustls::CertificateError::UnknownIssuer);
        let e = classify(
            io::Error::new(io::ErrorKind::InvalidData, certificate.clone()).into(),
            Stage::Connecting,
        );
        assert_eq!(e.failure(), Failure::TlsCertificate);
        let source = e.source().unwrap().downcast_ref::<rustls::Error>();
        assert_eq!(source, Some(&certificate));
        assert_eq!(
            with_causes(&e),
            "https://up:443: TLS certificate rejected: invalid peer certificate: UnknownIssuer"
        );

        let alert = rustls::Error::AlertReceived(rustls::AlertDescription::HandshakeFailure);
        assert_eq!(
            classify(alert.into(), Stage::Connecting).failure(),
            Failure::TlsAlert(rustls::AlertDescription::HandshakeFailure)
        );
    }

    /// hyper-rustls reports a failed handshake as `io::Error::other` around the TLS stream's error;
    /// the reset inside used to be passed on as a bare connect error, which wasmtime calls refused.
    #[test]
    fn looks_inside_the_tls_connectors_io_errors() {
        let wrapped = |inner: io::Error| -> BoxError { io::Error::other(inner).into() };
        let reset = classify(wrapped(io::Error::from(io::ErrorKind::ConnectionReset)), Stage::Connecting);
        assert_eq!(reset.failure(), Failure::Reset);
        let certificate = rustls::Error::InvalidCertificate(rustls::CertificateError::UnknownIssuer);
        let tls =
            classify(wrapped(io::Error::new(io::ErrorKind::InvalidData, certificate)), Stage::Connecting);
        assert_eq!(tls.failure(), Failure::TlsCertificate);
    }

    #[test]
    fn a_dns_failure_keeps_the_resolver_error() {
        let lookup = io::Error::other("failed to lookup address information: Name or service not known");
        let e = classify(Box::new(DnsFailure { source: lookup }), Stage::Connecting);
        assert_eq!(e.failure(), Failure::Dns);
        assert!(
            with_causes(&e).ends_with(
                "DNS resolution failed: failed to lookup address information: Name or service not known"
            ),
            "{}",
            with_causes(&e)
        );
    }

    #[test]
    fn an_unexplained_failure_depends_on_the_stage() {
        let odd = || -> BoxError { io::Error::other("odd").into() };
        assert_eq!(classify(odd(), Stage::Connecting).failure(), Failure::Unreachable);
        assert_eq!(classify(odd(), Stage::AwaitingHead).failure(), Failure::Protocol);
        let timeout = || -> BoxError { io::Error::from(io::ErrorKind::TimedOut).into() };
        assert_eq!(classify(timeout(), Stage::Connecting).failure(), Failure::Timeout(Phase::Connect));
        assert_eq!(classify(timeout(), Stage::ReadingBody).failure(), Failure::Timeout(Phase::BetweenBytes));
    }

    #[test]
    fn keeps_the_os_error_code() {
        let e = classify(io::Error::from_raw_os_error(104).into(), Stage::AwaitingHead);
        let source = e.source().unwrap().downcast_ref::<io::Error>().unwrap();
        assert_eq!(source.raw_os_error(), Some(104));
    }
}
