//! The `openai-stream` upstream of bench/upstream.py: OpenAI chat completions that stream stamped
//! chunks on a fixed schedule, with the `/_stats` and `/_reset` counters the benches read. HTTP/1.1
//! by hand over tokio's TcpStream: a chunk costs one formatted line and one write.

use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use memchr::memmem;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

use crate::monotonic_ns;

#[derive(clap::Args)]
pub struct Args {
    #[arg(long, default_value_t = 0)]
    port: u16,
    /// Every answer is sent this long after its request was read.
    #[arg(long, default_value_t = 0.0)]
    delay_ms: f64,
    /// The stream's shape when the request's last user message has no `[chunks=N interval=MS]`.
    #[arg(long, default_value_t = 20)]
    chunks: u64,
    #[arg(long, default_value_t = 0.0)]
    interval_ms: f64,
}

struct Stats {
    requests: u64,
    connections: u64,
    bad: u64,
    handling_us: Vec<f64>,
    streams: u64,
    streams_completed: u64,
    streams_cut: u64,
    chunks: u64,
    open_streams: u64,
    max_open_streams: u64,
    counter: u64,
}

const EMPTY: Stats = Stats {
    requests: 0,
    connections: 0,
    bad: 0,
    handling_us: Vec::new(),
    streams: 0,
    streams_completed: 0,
    streams_cut: 0,
    chunks: 0,
    open_streams: 0,
    max_open_streams: 0,
    counter: 0,
};

static STATS: Mutex<Stats> = Mutex::new(EMPTY);

fn stats() -> std::sync::MutexGuard<'static, Stats> {
    STATS.lock().unwrap_or_else(|e| e.into_inner())
}

impl Stats {
    fn reset(&mut self) {
        // Streams still open stay counted as open; the ids go on rising.
        *self = Stats {
            open_streams: self.open_streams,
            max_open_streams: self.open_streams,
            counter: self.counter,
            ..EMPTY
        };
    }

    fn report(&self) -> Value {
        let mut xs = self.handling_us.clone();
        xs.sort_by(f64::total_cmp);
        let n = xs.len();
        let pct = |p: f64| (n > 0).then(|| xs[(n - 1).min((p / 100.0 * n as f64) as usize)]);
        let median = (n > 0).then(|| if n % 2 == 1 { xs[n / 2] } else { (xs[n / 2 - 1] + xs[n / 2]) / 2.0 });
        json!({
            "requests": self.requests,
            "connections": self.connections,
            "bad_requests": self.bad,
            "handling_us_p50": median,
            "handling_us_p90": pct(90.0),
            "handling_us_p99": pct(99.0),
            "handling_us_mean": (n > 0).then(|| xs.iter().sum::<f64>() / n as f64),
            "streams": self.streams,
            "streams_completed": self.streams_completed,
            "streams_cut": self.streams_cut,
            "chunks": self.chunks,
            "open_streams": self.open_streams,
            "max_open_streams": self.max_open_streams,
            "fault": "none",
            "hung": 0,
            "hanging": 0,
        })
    }
}

pub async fn main(args: Args) -> std::io::Result<()> {
    let listener = TcpListener::bind(("127.0.0.1", args.port)).await?;
    println!("listening on {}", listener.local_addr()?.port());
    let shape = Shape { chunks: args.chunks, interval: Duration::from_secs_f64(args.interval_ms / 1000.0) };
    let delay = Duration::from_secs_f64(args.delay_ms / 1000.0);
    loop {
        let (socket, _) = listener.accept().await?;
        let _ = socket.set_nodelay(true);
        tokio::spawn(async move {
            stats().connections += 1;
            let _ = serve(socket, shape, delay).await;
        });
    }
}

#[derive(Clone, Copy)]
struct Shape {
    chunks: u64,
    interval: Duration,
}

struct Request {
    method: String,
    path: String,
    keep_alive: bool,
    body: Vec<u8>,
}

/// Reads one request from `socket`, `buf` holding what was read past the previous one; None at EOF.
async fn read_request(socket: &mut TcpStream, buf: &mut Vec<u8>) -> std::io::Result<Option<Request>> {
    let head_end = loop {
        if let Some(end) = memmem::find(buf, b"\r\n\r\n") {
            break end;
        }
        if !fill(socket, buf).await? {
            return Ok(None);
        }
    };
    // A client that writes a head and its body apart under Nagle's algorithm waits for the head's
    // ACK; the kernel would delay it by up to 40 ms (see upstream.py's quick_ack).
    let _ = rustix::net::sockopt::set_tcp_quickack(&*socket, true);
    let head = String::from_utf8_lossy(&buf[..head_end]).into_owned();
    buf.drain(..head_end + 4);
    let mut lines = head.split("\r\n");
    let mut first = lines.next().unwrap_or("").split(' ');
    let method = first.next().unwrap_or("").to_string();
    let target = first.next().unwrap_or("");
    let path = target.split('?').next().unwrap_or("").to_string();
    let (mut chunked, mut length, mut keep_alive) = (false, None, true);
    for line in lines {
        let (name, value) = line.split_once(':').unwrap_or((line, ""));
        let (name, value) = (name.trim().to_ascii_lowercase(), value.trim().to_ascii_lowercase());
        match name.as_str() {
            "transfer-encoding" => chunked = value.contains("chunked"),
            "content-length" => length = value.parse::<usize>().ok(),
            "connection" => keep_alive = value != "close",
            _ => {}
        }
    }
    let body = if chunked {
        let mut body = Vec::new();
        loop {
            let line = read_line(socket, buf).await?;
            let digits = line.split(';').next().unwrap_or("").trim().to_string();
            let size = usize::from_str_radix(&digits, 16).map_err(|_| std::io::ErrorKind::InvalidData)?;
            if size == 0 {
                while !read_line(socket, buf).await?.is_empty() {}
                break;
            }
            read_exact(socket, buf, size + 2).await?;
            body.extend_from_slice(&buf[..size]);
            buf.drain(..size + 2);
        }
        body
    } else {
        let len = length.unwrap_or(0);
        read_exact(socket, buf, len).await?;
        buf.drain(..len).collect()
    };
    Ok(Some(Request { method, path, keep_alive, body }))
}

async fn fill(socket: &mut TcpStream, buf: &mut Vec<u8>) -> std::io::Result<bool> {
    buf.reserve(16 * 1024);
    Ok(socket.read_buf(buf).await? > 0)
}

async fn read_exact(socket: &mut TcpStream, buf: &mut Vec<u8>, n: usize) -> std::io::Result<()> {
    while buf.len() < n {
        if !fill(socket, buf).await? {
            return Err(std::io::ErrorKind::UnexpectedEof.into());
        }
    }
    Ok(())
}

async fn read_line(socket: &mut TcpStream, buf: &mut Vec<u8>) -> std::io::Result<String> {
    loop {
        if let Some(end) = memmem::find(buf, b"\r\n") {
            let line = String::from_utf8_lossy(&buf[..end]).into_owned();
            buf.drain(..end + 2);
            return Ok(line);
        }
        if !fill(socket, buf).await? {
            return Err(std::io::ErrorKind::UnexpectedEof.into());
        }
    }
}

fn response(status: u16, content_type: &str, body: &[u8], keep_alive: bool) -> Vec<u8> {
    let reason = match status {
        400 => "Bad Request",
        404 => "Not Found",
        _ => "OK",
    };
    let connection = if keep_alive { "keep-alive" } else { "close" };
    let mut out = format!(
        "HTTP/1.1 {status} {reason}\r\ncontent-type: {content_type}\r\ncontent-length: {}\r\nconnection: {connection}\r\n\r\n",
        body.len()
    )
    .into_bytes();
    out.extend_from_slice(body);
    out
}

async fn serve(mut socket: TcpStream, default: Shape, delay: Duration) -> std::io::Result<()> {
    let mut buf = Vec::new();
    while let Some(req) = read_request(&mut socket, &mut buf).await? {
        let started = Instant::now();
        let keep_alive = req.keep_alive;
        match req.path.as_str() {
            "/_stats" => {
                let report = stats().report().to_string();
                socket.write_all(&response(200, "application/json", report.as_bytes(), keep_alive)).await?;
                continue;
            }
            "/_reset" => {
                stats().reset();
                socket.write_all(&response(200, "application/json", b"{}", keep_alive)).await?;
                continue;
            }
            _ => {}
        }
        let parsed = if req.method == "POST" { parse(&req.body, default) } else { None };
        let answer = match parsed {
            Some((request, shape)) if request.get("stream") == Some(&Value::Bool(true)) => {
                if !delay.is_zero() {
                    tokio::time::sleep(delay).await;
                }
                stats().requests += 1;
                if !stream_reply(&mut socket, &request, shape, keep_alive).await {
                    break;
                }
                stats().handling_us.push(started.elapsed().as_secs_f64() * 1e6);
                if !keep_alive {
                    break;
                }
                continue;
            }
            Some((request, shape)) => {
                response(200, "application/json", &whole(&request, shape.chunks), keep_alive)
            }
            None => {
                stats().bad += 1;
                response(400, "text/plain", b"bad request", keep_alive)
            }
        };
        if !delay.is_zero() {
            tokio::time::sleep(delay).await;
        }
        socket.write_all(&answer).await?;
        {
            let mut s = stats();
            s.requests += 1;
            s.handling_us.push(started.elapsed().as_secs_f64() * 1e6);
        }
        if !keep_alive {
            break;
        }
    }
    Ok(())
}

/// The request and its stream's shape, or None when it is not a chat completions request with a last
/// message that has a content.
fn parse(body: &[u8], default: Shape) -> Option<(Value, Shape)> {
    let request: Value = serde_json::from_slice(body).ok()?;
    let content = request.get("messages")?.as_array()?.last()?.get("content")?;
    let shape = content.as_str().and_then(shape_of).unwrap_or(default);
    Some((request, shape))
}

/// The first `[chunks=N interval=MS]` in `text` (MS may have a fraction).
fn shape_of(text: &str) -> Option<Shape> {
    text.match_indices("[chunks=").find_map(|(at, _)| {
        let rest = &text[at + "[chunks=".len()..];
        let (chunks, rest) = rest.split_once(" interval=")?;
        let (interval, _) = rest.split_once(']')?;
        let number = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        let fraction_ok = match interval.split_once('.') {
            Some((whole, fraction)) => number(whole) && number(fraction),
            None => number(interval),
        };
        if !number(chunks) || !fraction_ok {
            return None;
        }
        let interval: f64 = interval.parse().ok()?;
        Some(Shape { chunks: chunks.parse().ok()?, interval: Duration::from_secs_f64(interval / 1000.0) })
    })
}

fn unix_seconds() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

fn next_id() -> String {
    let mut s = stats();
    s.counter += 1;
    format!("chatcmpl-bench-{}", s.counter)
}

fn model_of(request: &Value) -> String {
    // Already JSON: the model is written into every chunk as it came.
    request.get("model").map_or_else(|| "\"bench-model\"".to_string(), Value::to_string)
}

/// The non-streamed answer: the same words, stamped once, in one `chat.completion` (the layout of
/// Python's json.dumps).
fn whole(request: &Value, chunks: u64) -> Vec<u8> {
    let stamp = monotonic_ns();
    let content: String = (0..chunks).map(|i| format!("w{i}@{stamp} ")).collect();
    format!(
        "{{\"id\": \"{}\", \"object\": \"chat.completion\", \"created\": {}, \"model\": {}, \"choices\": [{{\"index\": 0, \
         \"message\": {{\"role\": \"assistant\", \"content\": \"{content}\"}}, \"finish_reason\": \"stop\"}}], \"usage\": \
         {{\"prompt_tokens\": 10, \"completion_tokens\": {chunks}, \"total_tokens\": {}}}}}",
        next_id(),
        unix_seconds(),
        model_of(request),
        10 + chunks
    )
    .into_bytes()
}

/// One `data:` event of a `chat.completion.chunk` (the compact layout of upstream.py's `sse`), with
/// `choices` already written.
fn event(out: &mut String, id: &str, model: &str, choices: &str) {
    use std::fmt::Write;
    let _ = write!(
        out,
        "data: {{\"id\":\"{id}\",\"object\":\"chat.completion.chunk\",\"created\":{},\"model\":{model},{choices}}}\n\n",
        unix_seconds()
    );
}

/// `payload` as one HTTP chunk appended to `out`.
fn http_chunk(out: &mut Vec<u8>, payload: &str) {
    out.extend_from_slice(format!("{:x}\r\n", payload.len()).as_bytes());
    out.extend_from_slice(payload.as_bytes());
    out.extend_from_slice(b"\r\n");
}

struct Open;

impl Open {
    fn new() -> Self {
        let mut s = stats();
        s.streams += 1;
        s.open_streams += 1;
        s.max_open_streams = s.max_open_streams.max(s.open_streams);
        Open
    }
}

impl Drop for Open {
    fn drop(&mut self) {
        stats().open_streams -= 1;
    }
}

/// Writes one streamed completion: the first chunk at once, then one every interval on a fixed
/// schedule from the first; false when the client went away before its end.
async fn stream_reply(socket: &mut TcpStream, request: &Value, shape: Shape, keep_alive: bool) -> bool {
    let id = next_id();
    let model = model_of(request);
    let include_usage = request.pointer("/stream_options/include_usage").is_some_and(|v| match v {
        Value::Bool(b) => *b,
        Value::Null => false,
        Value::Number(n) => n.as_f64() != Some(0.0),
        Value::String(s) => !s.is_empty(),
        Value::Array(a) => !a.is_empty(),
        Value::Object(o) => !o.is_empty(),
    });
    let _open = Open::new();
    let connection = if keep_alive { "keep-alive" } else { "close" };
    let mut out = format!(
        "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncache-control: no-cache\r\n\
         transfer-encoding: chunked\r\nconnection: {connection}\r\n\r\n"
    )
    .into_bytes();
    let start = tokio::time::Instant::now();
    let mut payload = String::new();
    for i in 0..shape.chunks {
        if i > 0 && !shape.interval.is_zero() {
            tokio::time::sleep_until(start + shape.interval * i as u32).await;
        }
        payload.clear();
        let role = if i == 0 { ",\"role\":\"assistant\"" } else { "" };
        let choices = format!(
            "\"choices\":[{{\"index\":0,\"delta\":{{\"content\":\"w{i}@{} \"{role}}},\"finish_reason\":null}}]",
            monotonic_ns()
        );
        event(&mut payload, &id, &model, &choices);
        http_chunk(&mut out, &payload);
        if socket.write_all(&out).await.is_err() {
            stats().streams_cut += 1;
            return false;
        }
        out.clear();
        stats().chunks += 1;
    }
    payload.clear();
    event(&mut payload, &id, &model, "\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]");
    if include_usage {
        let usage = format!(
            "\"choices\":[],\"usage\":{{\"prompt_tokens\":10,\"completion_tokens\":{},\"total_tokens\":{}}}",
            shape.chunks,
            10 + shape.chunks
        );
        event(&mut payload, &id, &model, &usage);
    }
    payload.push_str("data: [DONE]\n\n");
    http_chunk(&mut out, &payload);
    out.extend_from_slice(b"0\r\n\r\n");
    if socket.write_all(&out).await.is_err() {
        stats().streams_cut += 1;
        return false;
    }
    stats().streams_completed += 1;
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shape_as_the_regex_reads_it() {
        let s = shape_of("Hello 3 [chunks=50 interval=100]").unwrap();
        assert_eq!((s.chunks, s.interval), (50, Duration::from_millis(100)));
        let s = shape_of("[chunks=x interval=1] then [chunks=4 interval=2.5]").unwrap();
        assert_eq!((s.chunks, s.interval), (4, Duration::from_micros(2500)));
        assert!(shape_of("[chunks=4 interval=]").is_none());
    }
}
