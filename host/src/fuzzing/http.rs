//! The listener (`http::listener`): no request hides inside another. The input is the bytes a client
//! sends on one connection; they go to the listener's own connection code (`listener::serve_one`:
//! hyper as `listener.rs` configures it, the watched socket, the body deadline) in reads whose sizes
//! the input decides, and an app that reads every body whole records each request. What the app saw
//! must be a prefix of what a strict reading of the same bytes by RFC 9112 finds (`Strict`): the same
//! method, target, version, headers and body, request by request; never more requests, so none whose
//! bytes were another's body; nothing after a request whose framing was faulty, or that had both
//! `Transfer-Encoding` and `Content-Length` (after which the server must close).

use crate::http::listener::{Limits, serve_one};
use axum::Router;
use axum::extract::Request;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

pub fn check(data: &[u8]) {
    let seen = serve(data);
    let strict = strict::read(data);
    assert!(
        seen.len() <= strict.len(),
        "{} requests seen, a strict reading finds {}: {seen:#?}",
        seen.len(),
        strict.len()
    );
    for (i, (seen_one, expected)) in seen.iter().zip(&strict).enumerate() {
        assert_eq!(seen_one.method, expected.method, "request {i}'s method");
        assert_eq!(seen_one.version, expected.version, "request {i}'s version");
        if expected.target.starts_with(b"/") {
            // A fragment, which no request-target has, is dropped by `http::Uri`.
            let target = expected.target.split(|&b| b == b'#').next().unwrap_or_default();
            assert_eq!(seen_one.target.as_bytes(), target, "request {i}'s target");
        }
        let mut headers: Vec<(String, Vec<u8>)> = expected
            .headers
            .iter()
            .filter(|(name, _)| !matches!(name.as_str(), "content-length" | "transfer-encoding"))
            .cloned()
            .collect();
        headers.sort();
        assert_eq!(seen_one.headers, headers, "request {i}'s headers");
        match (&seen_one.body, &expected.body) {
            (Some(body), strict::Body::Whole(whole)) => assert_eq!(body, whole, "request {i}'s body"),
            (Some(body), strict::Body::Faulty) => {
                panic!("request {i}'s body ({} bytes) was read, though its framing is faulty", body.len())
            }
            // A body the server could not read, hyper being stricter than the RFC or the bytes
            // ending first: the connection ends there.
            (None, _) => {}
        }
        let ends = seen_one.body.is_none() || expected.last || expected.body == strict::Body::Faulty;
        assert!(
            !ends || i + 1 == seen.len(),
            "{} requests seen, though the connection ends after request {i}",
            seen.len()
        );
    }
}

/// What the app saw of one request.
#[derive(Debug)]
struct Seen {
    method: Vec<u8>,
    /// The path and query, as the app sees them.
    target: String,
    version: u8,
    /// Sorted, `content-length` and `transfer-encoding` left out (hyper drops the former when both come).
    headers: Vec<(String, Vec<u8>)>,
    /// `None` when it could not be read whole.
    body: Option<Vec<u8>>,
}

fn serve(data: &[u8]) -> Vec<Seen> {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let app = Router::new().fallback({
        let seen = seen.clone();
        move |request: Request| async move {
            let (parts, body) = request.into_parts();
            let body = axum::body::to_bytes(body, usize::MAX).await.ok().map(|b| b.to_vec());
            let mut headers: Vec<(String, Vec<u8>)> = parts
                .headers
                .iter()
                .filter(|(name, _)| !matches!(name.as_str(), "content-length" | "transfer-encoding"))
                .map(|(name, value)| (name.as_str().to_owned(), value.as_bytes().to_vec()))
                .collect();
            headers.sort();
            let version = if parts.version == http::Version::HTTP_10 { 0 } else { 1 };
            let target = parts.uri.path_and_query().map(|p| p.as_str().to_owned()).unwrap_or_default();
            let request =
                Seen { method: parts.method.as_str().as_bytes().to_vec(), target, version, headers, body };
            seen.lock().expect("the app's record").push(request);
            "seen"
        }
    });
    let limits = Limits {
        header_timeout: Duration::from_secs(10),
        body_timeout: Duration::from_secs(10),
        idle_timeout: Duration::from_secs(10),
        max_connections: 1,
    };
    let shared = Arc::new(Shared::default());
    let client = Client { data: data.to_vec(), at: 0, read: read_size(data), shared: shared.clone() };
    let peer = std::net::SocketAddr::from(([127, 0, 0, 1], 40000));
    super::block_on(async {
        let serving = serve_one(client, peer, app, limits);
        let mut serving = std::pin::pin!(serving);
        let (mut last, mut quiet) = (0, 0);
        loop {
            tokio::select! {
                biased;
                () = &mut serving => break,
                () = tokio::task::yield_now() => {}
            }
            let activity = shared.activity.load(Ordering::Acquire);
            quiet = if activity == last { quiet + 1 } else { 0 };
            last = activity;
            // The server waits for the client: it has done all it can with the bytes sent.
            if quiet == QUIET
                && !shared.ended.swap(true, Ordering::AcqRel)
                && let Some(waker) = shared.waker.lock().expect("the client's waker").take()
            {
                waker.wake();
            }
            assert!(quiet < 100 * QUIET, "the connection does not end once its client has");
        }
    });
    std::mem::take(&mut *seen.lock().expect("the app's record"))
}

/// How many bytes each read gives: the whole input at once, or reads of a size the input decides.
fn read_size(data: &[u8]) -> usize {
    match super::hash(data) % 67 {
        0..=15 => usize::MAX,
        n => n as usize - 15,
    }
}

/// Polls of the connection without a read or a write after which the server is taken to wait for its
/// client. Everything runs in the one task (hyper polls the app in its own future), so a few suffice.
const QUIET: u32 = 32;

/// What the client and the loop that drives the connection share.
#[derive(Default)]
struct Shared {
    /// Reads and writes so far.
    activity: AtomicU64,
    /// The client has closed its side: reads end the stream.
    ended: AtomicBool,
    waker: Mutex<Option<std::task::Waker>>,
}

/// The client's side of the connection: the input in reads, then nothing until the server has done
/// all it can with it, then the end of the stream. (A client that closes its side as soon as it has
/// sent would have hyper drop the request it is answering: it does not keep half-closed connections.)
/// What the server writes is discarded.
struct Client {
    data: Vec<u8>,
    at: usize,
    read: usize,
    shared: Arc<Shared>,
}

impl AsyncRead for Client {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let n = (self.data.len() - self.at).min(self.read).min(buf.remaining());
        if n == 0 && !self.shared.ended.load(Ordering::Acquire) {
            *self.shared.waker.lock().expect("the client's waker") = Some(cx.waker().clone());
            return Poll::Pending;
        }
        let at = self.at;
        buf.put_slice(&self.data[at..at + n]);
        self.at += n;
        self.shared.activity.fetch_add(1, Ordering::AcqRel);
        Poll::Ready(Ok(()))
    }
}

impl AsyncWrite for Client {
    fn poll_write(self: Pin<&mut Self>, _: &mut Context<'_>, data: &[u8]) -> Poll<std::io::Result<usize>> {
        self.shared.activity.fetch_add(1, Ordering::AcqRel);
        Poll::Ready(Ok(data.len()))
    }

    fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(Ok(()))
    }
}

/// A strict reading of a request stream by RFC 9112, written from the RFC, not from hyper: each
/// request's method, target, version, headers and body, until the bytes end or a request cannot be
/// read. Where the RFC lets a server choose, the choice that is safe and that hyper makes is taken
/// (a lone LF ends a line of the head; empty lines before a request are skipped; `Content-Length`
/// repeated with one value is that value; `Transfer-Encoding` wins over `Content-Length`, and the
/// connection ends after such a request; codings before `chunked` are the app's). Beyond the RFC, as
/// hyper does and with no bearing on where a request ends: UTF-8 in the request-target.
mod strict {
    #[derive(Clone, Debug, PartialEq)]
    pub enum Body {
        Whole(Vec<u8>),
        /// The head was read, the body's framing was not: the request may reach the app, its body
        /// must not, and nothing follows.
        Faulty,
    }

    #[derive(Debug)]
    pub struct Request {
        pub method: Vec<u8>,
        pub target: Vec<u8>,
        pub version: u8,
        /// Lower-cased names, values without the whitespace around them.
        pub headers: Vec<(String, Vec<u8>)>,
        pub body: Body,
        /// The connection must end after this request.
        pub last: bool,
    }

    pub fn read(mut data: &[u8]) -> Vec<Request> {
        let mut requests = Vec::new();
        loop {
            // Empty lines before a request line are skipped (RFC 9112 §2.2).
            while let Some(rest) = data.strip_prefix(b"\r\n").or_else(|| data.strip_prefix(b"\n")) {
                data = rest;
            }
            let Some((request, rest)) = request(data) else { return requests };
            let end = request.last || request.body == Body::Faulty;
            requests.push(request);
            if end {
                return requests;
            }
            data = rest;
        }
    }

    fn is_tchar(b: u8) -> bool {
        b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
    }

    /// One line of the head, without its end: CRLF, or a lone LF. A CR anywhere else refuses it.
    fn line(data: &[u8]) -> Option<(&[u8], &[u8])> {
        let end = data.iter().position(|&b| b == b'\n')?;
        let line = data[..end].strip_suffix(b"\r").unwrap_or(&data[..end]);
        (!line.contains(&b'\r')).then_some((line, &data[end + 1..]))
    }

    fn request(data: &[u8]) -> Option<(Request, &[u8])> {
        let (request_line, mut rest) = line(data)?;
        let mut parts = request_line.split(|&b| b == b' ');
        let (method, target, version) = (parts.next()?, parts.next()?, parts.next()?);
        if parts.next().is_some() || method.is_empty() || !method.iter().all(|&b| is_tchar(b)) {
            return None;
        }
        // Visible ASCII, and, as hyper takes them, bytes of UTF-8 (a path or query in UTF-8 reaches
        // the app as it was sent: `/v1/user/dialog/json/émilie` unencoded, as curl sends it).
        if target.is_empty() || !target.iter().all(|&b| b.is_ascii_graphic() || b >= 0x80) {
            return None;
        }
        let version = match version {
            b"HTTP/1.1" => 1,
            b"HTTP/1.0" => 0,
            _ => return None,
        };
        let mut headers = Vec::new();
        loop {
            let (field, after) = line(rest)?;
            rest = after;
            if field.is_empty() {
                break;
            }
            headers.push(field_line(field)?);
        }
        let (body, last, rest) = body(version, &headers, rest)?;
        Some((
            Request { method: method.to_vec(), target: target.to_vec(), version, headers, body, last },
            rest,
        ))
    }

    /// `name: value`: a token, a colon with no whitespace before it, a value of visible characters,
    /// spaces and tabs (and obs-text); a line starting with whitespace (obs-fold) is refused.
    fn field_line(field: &[u8]) -> Option<(String, Vec<u8>)> {
        let colon = field.iter().position(|&b| b == b':')?;
        let (name, value) = (&field[..colon], &field[colon + 1..]);
        if name.is_empty() || !name.iter().all(|&b| is_tchar(b)) {
            return None;
        }
        let value = trim_ows(value);
        if !value.iter().all(|&b| b == b'\t' || b == b' ' || b.is_ascii_graphic() || b >= 0x80) {
            return None;
        }
        Some((String::from_utf8_lossy(name).to_ascii_lowercase(), value.to_vec()))
    }

    fn trim_ows(mut value: &[u8]) -> &[u8] {
        while let [b' ' | b'\t', rest @ ..] = value {
            value = rest;
        }
        while let [rest @ .., b' ' | b'\t'] = value {
            value = rest;
        }
        value
    }

    /// The body by RFC 9112 §6: chunked when `Transfer-Encoding`'s last coding is `chunked` (any other
    /// is refused, and so is any in HTTP/1.0), else `Content-Length` (every value the same number),
    /// else none. With both, the connection ends after the request.
    fn body<'a>(
        version: u8,
        headers: &[(String, Vec<u8>)],
        rest: &'a [u8],
    ) -> Option<(Body, bool, &'a [u8])> {
        fn values<'h>(headers: &'h [(String, Vec<u8>)], name: &'h str) -> impl Iterator<Item = &'h [u8]> {
            headers.iter().filter(move |(n, _)| n == name).map(|(_, v)| &v[..])
        }
        let codings: Vec<&[u8]> = values(headers, "transfer-encoding")
            .flat_map(|v| v.split(|&b| b == b','))
            .map(trim_ows)
            .collect();
        if !codings.is_empty() {
            if version == 0 || !codings.last().is_some_and(|c| c.eq_ignore_ascii_case(b"chunked")) {
                return None;
            }
            let last = values(headers, "content-length").next().is_some();
            return Some(match chunked(rest) {
                Some((body, rest)) => (Body::Whole(body), last, rest),
                None => (Body::Faulty, true, &[][..]),
            });
        }
        let mut length: Option<u64> = None;
        for value in values(headers, "content-length") {
            if value.is_empty() || !value.iter().all(u8::is_ascii_digit) {
                return None;
            }
            let n: u64 = std::str::from_utf8(value).ok()?.parse().ok()?;
            if length.is_some_and(|l| l != n) {
                return None;
            }
            length = Some(n);
        }
        let length = usize::try_from(length.unwrap_or(0)).ok()?;
        Some(match rest.get(..length) {
            Some(body) => (Body::Whole(body.to_vec()), false, &rest[length..]),
            None => (Body::Faulty, true, &[][..]),
        })
    }

    /// A chunked body (RFC 9112 §7.1): `size [BWS ; extension] CRLF data CRLF`, until size 0, then
    /// trailer fields and an empty line, every line ended by CRLF.
    fn chunked(mut data: &[u8]) -> Option<(Vec<u8>, &[u8])> {
        let mut body = Vec::new();
        loop {
            let end = data.windows(2).position(|w| w == b"\r\n")?;
            let (size_line, rest) = (&data[..end], &data[end + 2..]);
            if size_line.contains(&b'\n') || size_line.contains(&b'\r') {
                return None;
            }
            let digits = size_line.iter().take_while(|b| b.is_ascii_hexdigit()).count();
            let after = &size_line[digits..];
            let after = after
                .iter()
                .position(|&b| b != b' ' && b != b'\t')
                .map_or(&after[after.len()..], |i| &after[i..]);
            if digits == 0 || !(after.is_empty() || after.starts_with(b";")) {
                return None;
            }
            let size = u64::from_str_radix(std::str::from_utf8(&size_line[..digits]).ok()?, 16).ok()?;
            if size == 0 {
                data = rest;
                break;
            }
            let size = usize::try_from(size).ok()?;
            let chunk = rest.get(..size)?;
            body.extend_from_slice(chunk);
            data = rest[size..].strip_prefix(b"\r\n")?;
        }
        loop {
            let end = data.windows(2).position(|w| w == b"\r\n")?;
            let (field, rest) = (&data[..end], &data[end + 2..]);
            data = rest;
            if field.is_empty() {
                return Some((body, data));
            }
            if field.contains(&b'\n') || field.contains(&b'\r') {
                return None;
            }
            field_line(field)?;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pipelined_requests_reach_the_app_as_the_strict_reading_finds_them() {
        let data = b"GET /a HTTP/1.1\r\nHost: x\r\n\r\nPOST /b?q=1 HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc\
            POST /c HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nx\r\n0\r\n\r\n";
        let seen = serve(data);
        let targets: Vec<&str> = seen.iter().map(|s| s.target.as_str()).collect();
        assert_eq!(targets, ["/a", "/b?q=1", "/c"]);
        assert_eq!(seen[1].body.as_deref(), Some(&b"abc"[..]));
        assert_eq!(seen[2].body.as_deref(), Some(&b"x"[..]));
        assert_eq!(strict::read(data).len(), 3);
        check(data);
    }

    #[test]
    fn the_strict_reading_ends_where_framing_is_in_doubt() {
        let both = b"POST / HTTP/1.1\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /x HTTP/1.1\r\n\r\n";
        let read = strict::read(both);
        assert_eq!(read.len(), 1);
        assert!(read[0].last);
        assert!(
            strict::read(b"POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab").is_empty()
        );
        assert!(strict::read(b"GET / HTTP/1.1\r\nX: a\r\n b\r\n\r\n").is_empty(), "obs-fold");
        check(both);
    }
}
