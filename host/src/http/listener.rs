//! Accepting and keeping HTTP connections, so that no client can starve, fill or blind the server:
//! a client gets `header_timeout` to send a request's headers, `body_timeout` to send its body, and an
//! idle keep-alive connection is closed after `idle_timeout`. At most `max_connections` are open;
//! when the cap is reached, the connections that are idle or still trickling headers the longest are
//! closed to make room, so ordinary clients keep being served while thousands of slow ones are
//! connected, and when the process runs out of descriptors, accepts are paced instead of failing in a
//! loop. The error responses hyper writes by itself (400, 414, 431, for requests it cannot parse) get
//! this API's JSON error body like every other error. A chunked body's trailer section is refused
//! and its connection closed: hyper reads that section up to the first CRLF CRLF but keeps only the
//! fields before the first empty line, so the bytes of a next request could hide in it.

use crate::rest::extract::{BodyTimeout, TrailersRefused};
use axum::Router;
use axum::extract::ConnectInfo;
use bytes::{Buf, Bytes};
use http_body::{Body, Frame, SizeHint};
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpListener;
use tokio::sync::Notify;
use tower::ServiceExt;

/// The limits a listener enforces.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub header_timeout: Duration,
    pub body_timeout: Duration,
    pub idle_timeout: Duration,
    pub max_connections: usize,
}

/// The largest request line and headers accepted (431 beyond). Above hyper's 64 KiB limit on the
/// URI, so that a long URI is answered 414.
const MAX_HEADER_BYTES: usize = 128 * 1024;

/// How often the watchdog looks at every connection.
const WATCH_EVERY: Duration = Duration::from_millis(250);

/// Descriptors kept free of connections for everything else the process opens (the store, plugins'
/// upstream connections, compile-cache files, Redis).
const RESERVED_DESCRIPTORS: u64 = 256;

/// Raises the soft limit on open files to the hard limit, as servers that hold many connections do,
/// and returns the cap on connections that leaves room for everything else.
pub fn connection_cap(configured: usize) -> usize {
    use rustix::process::{Resource, Rlimit, getrlimit, setrlimit};
    let mut limit = getrlimit(Resource::Nofile);
    if let (Some(current), Some(maximum)) = (limit.current, limit.maximum)
        && current < maximum
    {
        let raised = Rlimit { current: Some(maximum), maximum: Some(maximum) };
        if setrlimit(Resource::Nofile, raised).is_ok() {
            limit = raised;
        }
    }
    match limit.current {
        Some(files) => configured.min(files.saturating_sub(RESERVED_DESCRIPTORS).max(16) as usize),
        None => configured,
    }
}

/// Milliseconds since the listener started: one clock for every connection's timestamps.
#[derive(Clone, Copy)]
struct Clock(Instant);

impl Clock {
    fn now(&self) -> u64 {
        self.0.elapsed().as_millis() as u64
    }
}

/// What the watchdog knows of one connection. Updated without locks on the hot path.
struct Connection {
    /// When bytes last went in or out.
    last_activity: AtomicU64,
    /// When the client began sending the head of a request not yet handed to the app; 0 when none.
    head_started: AtomicU64,
    /// Requests handed to the app and not yet answered in full.
    in_flight: AtomicUsize,
    closed: AtomicBool,
    close: Notify,
}

impl Connection {
    fn new(now: u64) -> Connection {
        Connection {
            last_activity: AtomicU64::new(now),
            head_started: AtomicU64::new(0),
            in_flight: AtomicUsize::new(0),
            closed: AtomicBool::new(false),
            close: Notify::new(),
        }
    }

    fn shut(&self) {
        self.closed.store(true, Ordering::Release);
        self.close.notify_one();
    }

    /// How long the connection has waited for its client, if the client is what it waits for: a head
    /// being trickled in, or an idle keep-alive. `None` while a request is being handled.
    fn waiting_on_client(&self, now: u64) -> Option<(u64, bool)> {
        if self.in_flight.load(Ordering::Acquire) > 0 {
            return None;
        }
        let head = self.head_started.load(Ordering::Acquire);
        if head > 0 {
            return Some((now.saturating_sub(head), true));
        }
        Some((now.saturating_sub(self.last_activity.load(Ordering::Acquire)), false))
    }
}

/// Every open connection, for the cap and the watchdog.
struct Registry {
    clock: Clock,
    limits: Limits,
    connections: Mutex<Vec<Arc<Connection>>>,
    freed: Notify,
}

impl Registry {
    fn len(&self) -> usize {
        self.connections.lock().map(|c| c.len()).unwrap_or(0)
    }

    /// Connections not yet told to close. One that was told is on its way out; counting it until its
    /// task has run would, on a busy machine, have the cap evict fresh connections one after another
    /// while the closed ones wait for their turn on a core.
    fn open(&self) -> usize {
        self.connections
            .lock()
            .map(|c| c.iter().filter(|c| !c.closed.load(Ordering::Acquire)).count())
            .unwrap_or(0)
    }

    fn insert(&self) -> Arc<Connection> {
        let connection = Arc::new(Connection::new(self.clock.now()));
        if let Ok(mut all) = self.connections.lock() {
            all.push(connection.clone());
        }
        connection
    }

    fn remove(&self, connection: &Arc<Connection>) {
        if let Ok(mut all) = self.connections.lock() {
            all.retain(|c| !Arc::ptr_eq(c, connection));
        }
        self.freed.notify_waiters();
    }

    /// Closes the connection that has waited on its client the longest, whether for the rest of a
    /// head or for a next request; false when every connection is busy with a request.
    fn evict_one(&self) -> bool {
        let now = self.clock.now();
        let Ok(all) = self.connections.lock() else { return false };
        let victim = all
            .iter()
            .filter(|c| !c.closed.load(Ordering::Acquire))
            .filter_map(|c| c.waiting_on_client(now).map(|(waited, _)| (waited, c)))
            // The first of equal waits is the oldest connection: the clock counts milliseconds, and a
            // backlog drained in one of them must not cost the newest connection, whose request may
            // already be on its way, its place.
            .fold(None::<(u64, &Arc<Connection>)>, |best, (waited, c)| match best {
                Some((most, _)) if most >= waited => best,
                _ => Some((waited, c)),
            })
            .map(|(_, c)| c.clone());
        drop(all);
        match victim {
            Some(c) => {
                c.shut();
                true
            }
            None => false,
        }
    }

    /// Closes the connections past their time: a head not complete within `header_timeout`, an idle
    /// keep-alive past `idle_timeout`.
    fn watch(&self) {
        let now = self.clock.now();
        let (header, idle) =
            (self.limits.header_timeout.as_millis() as u64, self.limits.idle_timeout.as_millis() as u64);
        let Ok(all) = self.connections.lock() else { return };
        for c in all.iter() {
            match c.waiting_on_client(now) {
                Some((waited, true)) if waited > header => c.shut(),
                Some((waited, false)) if waited > idle => c.shut(),
                _ => {}
            }
        }
    }
}

/// Serves `app` on `listener` until `shutdown` resolves, then lets the requests in flight finish.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: Limits,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> io::Result<()> {
    let registry = Arc::new(Registry {
        clock: Clock(Instant::now()),
        limits,
        connections: Mutex::new(Vec::new()),
        freed: Notify::new(),
    });
    let watchdog = tokio::spawn({
        let registry = Arc::downgrade(&registry);
        async move {
            let mut tick = tokio::time::interval(WATCH_EVERY);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tick.tick().await;
                let Some(registry) = registry.upgrade() else { return };
                registry.watch();
            }
        }
    });
    let stop = Arc::new(Notify::new());
    let stopping = Arc::new(AtomicBool::new(false));
    let mut shutdown = std::pin::pin!(shutdown);
    let mut last_warning: Option<Instant> = None;
    loop {
        // At the cap, make room before taking another connection, or wait for one to end.
        while registry.open() >= limits.max_connections && !registry.evict_one() {
            tokio::select! {
                () = registry.freed.notified() => {}
                () = &mut shutdown => return finish(registry, watchdog, stop, stopping).await,
            }
        }
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = &mut shutdown => return finish(registry, watchdog, stop, stopping).await,
        };
        let (stream, peer) = match accepted {
            Ok(accepted) => accepted,
            Err(e) if is_out_of_descriptors(&e) => {
                // Out of descriptors: free one if a client is idling, and pace the next accept rather
                // than spinning on the error; say so at most once a minute.
                registry.evict_one();
                if last_warning.is_none_or(|at| at.elapsed() > Duration::from_secs(60)) {
                    tracing::warn!("accepting connections paused: {e}; closing idle connections");
                    last_warning = Some(Instant::now());
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
            // A connection that failed before it was accepted concerns only its client.
            Err(_) => continue,
        };
        let _ = stream.set_nodelay(true);
        let connection = registry.insert();
        let (registry, app, stop, stopping) = (registry.clone(), app.clone(), stop.clone(), stopping.clone());
        tokio::spawn(async move {
            serve_connection(stream, peer, app, &connection, &registry, &stop, &stopping).await;
            registry.remove(&connection);
        });
    }
}

/// How long a stopping server waits for its connections to finish their requests. Deployment files
/// give a process at least this long after `SIGTERM` (`scripts/deploy-check.sh` reads it here).
pub const DRAIN: Duration = Duration::from_secs(30);

/// Stops accepting, asks every connection to finish its request in flight and close, and waits for
/// them (at most [`DRAIN`]).
async fn finish(
    registry: Arc<Registry>,
    watchdog: tokio::task::JoinHandle<()>,
    stop: Arc<Notify>,
    stopping: Arc<AtomicBool>,
) -> io::Result<()> {
    stopping.store(true, Ordering::Release);
    stop.notify_waiters();
    let deadline = Instant::now() + DRAIN;
    while registry.len() > 0 && Instant::now() < deadline {
        let _ = tokio::time::timeout(Duration::from_millis(100), registry.freed.notified()).await;
    }
    watchdog.abort();
    Ok(())
}

fn is_out_of_descriptors(e: &io::Error) -> bool {
    matches!(e.raw_os_error(), Some(code) if code == rustix::io::Errno::MFILE.raw_os_error()
        || code == rustix::io::Errno::NFILE.raw_os_error()
        || code == rustix::io::Errno::NOBUFS.raw_os_error()
        || code == rustix::io::Errno::NOMEM.raw_os_error())
}

async fn serve_connection<S: AsyncRead + AsyncWrite + Unpin + Send + 'static>(
    stream: S,
    peer: SocketAddr,
    app: Router,
    connection: &Arc<Connection>,
    registry: &Registry,
    stop: &Notify,
    stopping: &AtomicBool,
) {
    let io = TokioIo::new(Watched::new(stream, connection.clone(), registry.clock));
    let body_timeout = registry.limits.body_timeout;
    let service = {
        let connection = connection.clone();
        let clock = registry.clock;
        hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
            // The head is complete: what the client owes now is the body, under its own deadline.
            connection.head_started.store(0, Ordering::Release);
            connection.in_flight.fetch_add(1, Ordering::AcqRel);
            let guard = InFlight { connection: connection.clone(), clock };
            request.extensions_mut().insert(ConnectInfo(peer));
            let chunked = request.headers().contains_key(http::header::TRANSFER_ENCODING);
            let read = Arc::new(BodyRead::default());
            let request =
                request.map(|body| axum::body::Body::new(Deadline::new(body, body_timeout, read.clone())));
            let app = app.clone();
            async move {
                let mut response = app.oneshot(request).await?;
                // A chunked body with trailers, or one the app left unread (hyper would read its
                // trailers while draining it): no next request is read from what follows.
                if read.trailers.load(Ordering::Acquire) || (chunked && !read.ended.load(Ordering::Acquire)) {
                    response
                        .headers_mut()
                        .insert(http::header::CONNECTION, http::HeaderValue::from_static("close"));
                }
                Ok::<_, std::convert::Infallible>(
                    response.map(|body| Answering { inner: body, _guard: guard }),
                )
            }
        })
    };
    let mut builder = hyper::server::conn::http1::Builder::new();
    // The watchdog times heads and idle connections itself, with separate limits; hyper's own header
    // timer would start at the end of the previous response and so cut idle connections short.
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(None)
        .keep_alive(true)
        .max_header_size(MAX_HEADER_BYTES);
    let conn = builder.serve_connection(io, service).with_upgrades();
    let mut conn = std::pin::pin!(conn);
    let mut shutting_down = false;
    loop {
        if !shutting_down && stopping.load(Ordering::Acquire) {
            conn.as_mut().graceful_shutdown();
            shutting_down = true;
        }
        tokio::select! {
            _ = conn.as_mut() => return,
            () = connection.close.notified() => return,
            () = stop.notified() => {}
        }
    }
}

/// Serves one connection over `stream` exactly as [`serve`] serves each connection it accepts, until
/// it ends: the way the fuzz target feeds raw bytes to the listener (`crate::fuzzing`).
#[cfg(any(test, feature = "fuzzing"))]
pub(crate) async fn serve_one<S: AsyncRead + AsyncWrite + Unpin + Send + 'static>(
    stream: S,
    peer: SocketAddr,
    app: Router,
    limits: Limits,
) {
    let registry = Registry {
        clock: Clock(Instant::now()),
        limits,
        connections: Mutex::new(Vec::new()),
        freed: Notify::new(),
    };
    let connection = registry.insert();
    serve_connection(stream, peer, app, &connection, &registry, &Notify::new(), &AtomicBool::new(false))
        .await;
    registry.remove(&connection);
}

/// Holds a request in flight until its response body has been sent in full (or dropped).
struct InFlight {
    connection: Arc<Connection>,
    clock: Clock,
}

impl Drop for InFlight {
    fn drop(&mut self) {
        self.connection.last_activity.store(self.clock.now(), Ordering::Release);
        self.connection.in_flight.fetch_sub(1, Ordering::AcqRel);
    }
}

/// A response body that keeps its request in flight while it is being sent.
struct Answering {
    inner: axum::body::Body,
    _guard: InFlight,
}

impl Body for Answering {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        Pin::new(&mut self.inner).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

/// What became of a request's body: read to its end, or refused at its trailers.
#[derive(Default)]
struct BodyRead {
    ended: AtomicBool,
    trailers: AtomicBool,
}

/// A request body that must arrive in full before its deadline, and with no trailer fields.
struct Deadline {
    inner: Incoming,
    timeout: Duration,
    sleep: Pin<Box<tokio::time::Sleep>>,
    read: Arc<BodyRead>,
}

impl Deadline {
    fn new(inner: Incoming, timeout: Duration, read: Arc<BodyRead>) -> Deadline {
        Deadline { inner, timeout, sleep: Box::pin(tokio::time::sleep(timeout)), read }
    }
}

impl Body for Deadline {
    type Data = Bytes;
    type Error = Box<dyn std::error::Error + Send + Sync>;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        match Pin::new(&mut self.inner).poll_frame(cx) {
            Poll::Ready(Some(Ok(frame))) if frame.is_trailers() => {
                self.read.trailers.store(true, Ordering::Release);
                Poll::Ready(Some(Err(Box::new(TrailersRefused))))
            }
            Poll::Ready(None) => {
                self.read.ended.store(true, Ordering::Release);
                Poll::Ready(None)
            }
            Poll::Ready(frame) => Poll::Ready(frame.map(|f| f.map_err(Into::into))),
            Poll::Pending => match self.sleep.as_mut().poll(cx) {
                Poll::Ready(()) => Poll::Ready(Some(Err(Box::new(BodyTimeout(self.timeout))))),
                Poll::Pending => Poll::Pending,
            },
        }
    }

    fn is_end_stream(&self) -> bool {
        let ended = self.inner.is_end_stream();
        if ended {
            self.read.ended.store(true, Ordering::Release);
        }
        ended
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

/// The socket as hyper sees it: every read and write is recorded for the watchdog, the start of a
/// new request's head is noted, and hyper's own bodiless error responses are replaced by JSON ones.
struct Watched<S> {
    stream: S,
    connection: Arc<Connection>,
    clock: Clock,
    /// What is left of a replacement response to write.
    replacement: Option<Bytes>,
}

impl<S> Watched<S> {
    fn new(stream: S, connection: Arc<Connection>, clock: Clock) -> Watched<S> {
        Watched { stream, connection, clock, replacement: None }
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for Watched<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let result = Pin::new(&mut self.stream).poll_read(cx, buf);
        if buf.filled().len() > before {
            let now = self.clock.now().max(1);
            let c = &self.connection;
            c.last_activity.store(now, Ordering::Release);
            if c.in_flight.load(Ordering::Acquire) == 0 {
                let _ = c.head_started.compare_exchange(0, now, Ordering::AcqRel, Ordering::Acquire);
            }
        }
        result
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Watched<S> {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, data: &[u8]) -> Poll<io::Result<usize>> {
        if self.replacement.is_none()
            && let Some(json) = json_for_automatic_error(data)
        {
            self.replacement = Some(json);
        }
        if self.replacement.is_some() {
            // The replacement is written whole before hyper is told its response went out.
            std::task::ready!(self.as_mut().poll_replacement(cx))?;
            return Poll::Ready(Ok(data.len()));
        }
        let written = Pin::new(&mut self.stream).poll_write(cx, data);
        if let Poll::Ready(Ok(n)) = written
            && n > 0
        {
            self.connection.last_activity.store(self.clock.now(), Ordering::Release);
        }
        written
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        // hyper's own error responses are a head alone, in one buffer; anything else passes through.
        match bufs.iter().filter(|b| !b.is_empty()).count() {
            0 => Poll::Ready(Ok(0)),
            1 if self.replacement.is_none() => {
                let first = bufs.iter().find(|b| !b.is_empty()).map(|b| &b[..]).unwrap_or_default();
                if json_for_automatic_error(first).is_some() {
                    return self.poll_write(cx, first);
                }
                self.write_through_vectored(cx, bufs)
            }
            _ if self.replacement.is_some() => {
                let first = bufs.iter().find(|b| !b.is_empty()).map(|b| &b[..]).unwrap_or_default();
                self.poll_write(cx, first)
            }
            _ => self.write_through_vectored(cx, bufs),
        }
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        if self.replacement.is_some() {
            std::task::ready!(self.as_mut().poll_replacement(cx))?;
        }
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        if self.replacement.is_some() {
            std::task::ready!(self.as_mut().poll_replacement(cx))?;
        }
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}

impl<S: AsyncWrite + Unpin> Watched<S> {
    fn write_through_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let written = Pin::new(&mut self.stream).poll_write_vectored(cx, bufs);
        if let Poll::Ready(Ok(n)) = written
            && n > 0
        {
            self.connection.last_activity.store(self.clock.now(), Ordering::Release);
        }
        written
    }

    /// Writes what is left of the replacement response.
    fn poll_replacement(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while let Some(rest) = self.replacement.as_mut().filter(|r| !r.is_empty()) {
            let mut rest = rest.clone();
            let n = match Pin::new(&mut self.stream).poll_write(cx, &rest) {
                Poll::Ready(Ok(0)) => return Poll::Ready(Err(io::ErrorKind::WriteZero.into())),
                Poll::Ready(Ok(n)) => n,
                Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                Poll::Pending => return Poll::Pending,
            };
            rest.advance(n);
            self.replacement = Some(rest);
        }
        Poll::Ready(Ok(()))
    }
}

/// When `data` is one of the responses hyper writes by itself for a request it could not parse (a
/// status line of 400, 414 or 431 and no body, never written by the app, whose errors are all JSON),
/// the same status with a JSON error body.
fn json_for_automatic_error(data: &[u8]) -> Option<Bytes> {
    let head = data.strip_prefix(b"HTTP/1.1 ")?;
    let (status, code, message) = match head.get(..4)? {
        b"400 " => (
            400,
            "bad_request",
            "the request could not be read as HTTP: its request line or a header holds characters HTTP does not allow",
        ),
        b"414 " => (414, "uri_too_long", "the request's URI is longer than the server accepts"),
        b"431 " => (431, "headers_too_large", "the request's headers are larger than the server accepts"),
        _ => return None,
    };
    let end = data.windows(4).position(|w| w == b"\r\n\r\n")? + 4;
    let head = std::str::from_utf8(&data[..end]).ok()?.to_ascii_lowercase();
    if head.contains("\r\ncontent-type:") || end != data.len() {
        return None;
    }
    let body = serde_json::json!({"error": {"code": code, "message": message}}).to_string();
    let reason = http::StatusCode::from_u16(status).ok()?.canonical_reason().unwrap_or("");
    Some(Bytes::from(format!(
        "HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hyper_error_responses_get_a_json_body() {
        let hyper = b"HTTP/1.1 431 Request Header Fields Too Large\r\nconnection: close\r\ncontent-length: 0\r\ndate: Tue, 24 Nov 2026 04:00:00 GMT\r\n\r\n";
        let json = json_for_automatic_error(hyper).unwrap();
        let text = std::str::from_utf8(&json).unwrap();
        assert!(text.starts_with(
            "HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-type: application/json\r\n"
        ));
        assert!(text.ends_with("{\"error\":{\"code\":\"headers_too_large\",\"message\":\"the request's headers are larger than the server accepts\"}}"));
        // The app's own errors carry a content type and a body, and are left alone.
        let app =
            b"HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}";
        assert!(json_for_automatic_error(app).is_none());
        let app_head =
            b"HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n";
        assert!(json_for_automatic_error(app_head).is_none());
        assert!(json_for_automatic_error(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n").is_none());
    }
}
