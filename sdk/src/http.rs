//! A small blocking HTTP client over the host's `http-client`: one call per request, with the same
//! policy and error codes as `wasi:http/outgoing-handler`.
//!
//! The host decides which hosts a plugin may reach (its `allowed_hosts`), caps the response size and
//! applies its own timeout; a request outside the list fails with [`HttpError::Denied`].

use crate::bindings::parlance::plugin::http_client;
use crate::bindings::wasi::http::types::{ErrorCode, Method, Scheme};
use std::time::Duration;

/// Why a request produced no response.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HttpError {
    /// The URL does not parse or uses a scheme other than http and https.
    InvalidUrl(String),
    /// The host refused the request: the destination is not in this plugin's `allowed_hosts`.
    Denied(String),
    /// Connecting, the first byte or the body took longer than allowed.
    Timeout(String),
    /// The connection could not be made or broke; the text names the cause (DNS, refused, reset or
    /// closed, TLS).
    Connect(String),
    /// The response was larger than the host allows.
    TooLarge(String),
    /// Anything else the transport reported.
    Other(String),
}

impl std::fmt::Display for HttpError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HttpError::InvalidUrl(m) => write!(f, "invalid URL: {m}"),
            HttpError::Denied(m) => write!(f, "request denied by the host: {m}"),
            HttpError::Timeout(m) => write!(f, "timed out: {m}"),
            HttpError::Connect(m) => write!(f, "connection failed: {m}"),
            HttpError::TooLarge(m) => write!(f, "response too large: {m}"),
            HttpError::Other(m) => write!(f, "{m}"),
        }
    }
}

impl std::error::Error for HttpError {}

/// An outgoing request, built fluently and sent with [`Request::send`].
#[derive(Debug, Clone)]
pub struct Request {
    method: Method,
    url: String,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
    timeout: Option<Duration>,
}

impl Request {
    pub fn new(method: Method, url: impl Into<String>) -> Self {
        Request { method, url: url.into(), headers: Vec::new(), body: Vec::new(), timeout: None }
    }
    pub fn get(url: impl Into<String>) -> Self {
        Self::new(Method::Get, url)
    }
    pub fn post(url: impl Into<String>) -> Self {
        Self::new(Method::Post, url)
    }

    pub fn header(mut self, name: &str, value: &str) -> Self {
        self.headers.push((name.to_ascii_lowercase(), value.to_owned()));
        self
    }

    /// `Authorization: Bearer <token>`.
    pub fn bearer(self, token: &str) -> Self {
        self.header("authorization", &format!("Bearer {token}"))
    }

    /// A JSON body with its content type.
    pub fn json(mut self, value: &serde_json::Value) -> Self {
        self.body = serde_json::to_vec(value).expect("a serde_json::Value always serialises");
        self.header("content-type", "application/json")
    }

    /// An `application/x-www-form-urlencoded` body.
    pub fn form(mut self, fields: &[(&str, &str)]) -> Self {
        let mut body = Vec::with_capacity(fields.iter().map(|(k, v)| k.len() + v.len() + 2).sum());
        for (i, (key, value)) in fields.iter().enumerate() {
            if i > 0 {
                body.push(b'&');
            }
            form_encode(&mut body, key);
            body.push(b'=');
            form_encode(&mut body, value);
        }
        self.body = body;
        self.header("content-type", "application/x-www-form-urlencoded")
    }

    pub fn body(mut self, body: Vec<u8>) -> Self {
        self.body = body;
        self
    }

    /// Limits connecting, the wait for the first byte, and each gap between body chunks. The host
    /// applies its own per-plugin limit as well; the shorter one wins.
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self
    }

    /// Sends the request and reads the whole response, in one call to the host's `http-client`.
    pub fn send(self) -> Result<Response, HttpError> {
        let request = self.into_contract()?;
        let response = http_client::send(&request).map_err(map_error_code)?;
        Ok(response.into())
    }

    /// The request as the contract carries it, for the host to send: what `send` sends, and what a
    /// streaming chat model's `start` returns (see [`crate::chat_model::ChatStream`]).
    pub fn into_contract(self) -> Result<http_client::Request, HttpError> {
        // Parsed here, so that a malformed URL is named as such, and sent in the form the host reads
        // ("http://h:1?x=1" with its path "/").
        let url = Url::parse(&self.url)?;
        let timeout_ms = self.timeout.map(|t| u32::try_from(t.as_millis()).unwrap_or(u32::MAX));
        Ok(http_client::Request {
            method: self.method,
            url: url.to_string(),
            headers: self.headers,
            body: self.body,
            timeout_ms,
        })
    }
}

/// A complete response.
#[derive(Debug, Clone)]
pub struct Response {
    pub status: u16,
    /// Lower-cased names, in the order the server sent them.
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl From<http_client::Response> for Response {
    fn from(r: http_client::Response) -> Self {
        Response { status: r.status, headers: r.headers, body: r.body }
    }
}

impl Response {
    /// The first value of a header, by case-insensitive name.
    pub fn header(&self, name: &str) -> Option<&str> {
        let name = name.to_ascii_lowercase();
        self.headers.iter().find(|(k, _)| *k == name).map(|(_, v)| v.as_str())
    }

    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    pub fn is_success(&self) -> bool {
        (200..300).contains(&self.status)
    }
}

/// The parts of an absolute http(s) URL that `wasi:http` asks for.
#[derive(Debug, Clone)]
pub struct Url {
    pub scheme: Scheme,
    pub authority: String,
    pub path_and_query: String,
}

impl Url {
    pub fn parse(url: &str) -> Result<Url, HttpError> {
        let (scheme, rest) =
            url.split_once("://").ok_or_else(|| HttpError::InvalidUrl(format!("{url:?} has no scheme")))?;
        let scheme = match scheme.to_ascii_lowercase().as_str() {
            "http" => Scheme::Http,
            "https" => Scheme::Https,
            other => {
                return Err(HttpError::InvalidUrl(format!("{url:?} uses the unsupported scheme {other:?}")));
            }
        };
        let split = rest.find(['/', '?']).unwrap_or(rest.len());
        let (authority, path) = rest.split_at(split);
        if authority.is_empty() || authority.contains(char::is_whitespace) {
            return Err(HttpError::InvalidUrl(format!("{url:?} has no valid host")));
        }
        let path_and_query = match path {
            "" => "/".to_owned(),
            p if p.starts_with('?') => format!("/{p}"),
            p => p.to_owned(),
        };
        Ok(Url { scheme, authority: authority.to_owned(), path_and_query })
    }
}

impl std::fmt::Display for Url {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let scheme = match &self.scheme {
            Scheme::Http => "http",
            Scheme::Https => "https",
            Scheme::Other(other) => other,
        };
        write!(f, "{scheme}://{}{}", self.authority, self.path_and_query)
    }
}

/// Joins a base URL and a path with exactly one slash between them.
pub fn join_url(base: &str, path: &str) -> String {
    format!("{}/{}", base.trim_end_matches('/'), path.trim_start_matches('/'))
}

/// `s` as `application/x-www-form-urlencoded` writes it, appended to `out`.
fn form_encode(out: &mut Vec<u8>, s: &str) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'*' => out.push(b),
            b' ' => out.push(b'+'),
            _ => out.extend_from_slice(&[b'%', HEX[usize::from(b >> 4)], HEX[usize::from(b & 15)]]),
        }
    }
}

pub(crate) fn map_error_code(code: ErrorCode) -> HttpError {
    let text = describe(&code);
    match code {
        ErrorCode::HttpRequestDenied => {
            HttpError::Denied("the destination is not in this plugin's allowed_hosts".into())
        }
        ErrorCode::ConnectionTimeout
        | ErrorCode::ConnectionReadTimeout
        | ErrorCode::ConnectionWriteTimeout
        | ErrorCode::HttpResponseTimeout
        | ErrorCode::DnsTimeout => HttpError::Timeout(text),
        ErrorCode::HttpResponseBodySize(_) | ErrorCode::HttpResponseHeaderSectionSize(_) => {
            HttpError::TooLarge(text)
        }
        ErrorCode::DnsError(_)
        | ErrorCode::DestinationNotFound
        | ErrorCode::DestinationUnavailable
        | ErrorCode::DestinationIpProhibited
        | ErrorCode::DestinationIpUnroutable
        | ErrorCode::ConnectionRefused
        | ErrorCode::ConnectionTerminated
        | ErrorCode::ConnectionLimitReached
        | ErrorCode::TlsProtocolError
        | ErrorCode::TlsCertificateError
        | ErrorCode::TlsAlertReceived(_)
        | ErrorCode::HttpResponseIncomplete => HttpError::Connect(text),
        ErrorCode::HttpRequestUriInvalid => HttpError::InvalidUrl(text),
        _ => HttpError::Other(text),
    }
}

/// A `wasi:http` error code in words, naming the cause: a reset is not a refusal.
fn describe(code: &ErrorCode) -> String {
    let text = match code {
        ErrorCode::DnsTimeout => "DNS lookup timed out",
        ErrorCode::DnsError(payload) => {
            return match &payload.rcode {
                Some(rcode) => format!("DNS resolution failed ({rcode})"),
                None => "DNS resolution failed".into(),
            };
        }
        ErrorCode::DestinationNotFound => "destination not found",
        ErrorCode::DestinationUnavailable => "destination unavailable",
        ErrorCode::DestinationIpProhibited | ErrorCode::DestinationIpUnroutable => {
            "destination address unreachable"
        }
        ErrorCode::ConnectionRefused => "connection refused",
        ErrorCode::ConnectionTerminated => "connection reset or closed by the upstream",
        ErrorCode::ConnectionTimeout => "timed out connecting",
        ErrorCode::ConnectionReadTimeout => "timed out reading the response",
        ErrorCode::ConnectionWriteTimeout => "timed out sending the request",
        ErrorCode::HttpResponseTimeout => "timed out waiting for the response",
        ErrorCode::ConnectionLimitReached => "connection limit reached",
        ErrorCode::TlsCertificateError => "TLS certificate rejected",
        ErrorCode::TlsAlertReceived(payload) => {
            return format!(
                "TLS alert from the upstream: {}",
                payload.alert_message.as_deref().unwrap_or("unknown alert")
            );
        }
        ErrorCode::TlsProtocolError => "TLS protocol error",
        ErrorCode::HttpResponseIncomplete => "the response ended before it was complete",
        ErrorCode::HttpResponseBodySize(Some(limit)) => {
            return format!("the response is larger than {limit} bytes");
        }
        ErrorCode::HttpProtocolError => "HTTP protocol error",
        other => return format!("{other:?}"),
    };
    text.into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_urls() {
        let u = Url::parse("https://openrouter.ai/api/v1/chat/completions").unwrap();
        assert_eq!(u.authority, "openrouter.ai");
        assert_eq!(u.path_and_query, "/api/v1/chat/completions");
        assert!(matches!(u.scheme, Scheme::Https));
        let u = Url::parse("http://127.0.0.1:8080").unwrap();
        assert_eq!((u.authority.as_str(), u.path_and_query.as_str()), ("127.0.0.1:8080", "/"));
        let u = Url::parse("http://h:1?x=1").unwrap();
        assert_eq!(u.path_and_query, "/?x=1");
        assert_eq!(u.to_string(), "http://h:1/?x=1");
        assert_eq!(Url::parse("HTTPS://a.b/c").unwrap().to_string(), "https://a.b/c");
        assert!(Url::parse("ftp://x/").is_err());
        assert!(Url::parse("no-scheme").is_err());
        assert!(Url::parse("http:///path").is_err());
    }

    #[test]
    fn joins_and_encodes() {
        assert_eq!(join_url("http://a/v1/", "/chat"), "http://a/v1/chat");
        let mut out = Vec::new();
        form_encode(&mut out, "a b&c=\"é\"");
        assert_eq!(out, b"a+b%26c%3D%22%C3%A9%22");
        let form = Request::post("http://a/").form(&[("input", "x y:"), ("k", "&")]);
        assert_eq!(form.body, b"input=x+y%3A&k=%26");
    }
}
