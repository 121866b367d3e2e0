//! The other client of issue28_streaming.py `--paced`: alternates `POST /paraphrase` (offline provider,
//! a fresh text) and a plain `POST /v1/waifu` (a fresh user), `pace_ms` apart, on two keep-alive
//! connections, until its stdin closes; then prints the latencies as the Python does.

use std::io::{BufRead, Read, Write};
use std::net::TcpStream;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::response::Response;

pub fn main() -> std::io::Result<()> {
    let mut line = String::new();
    std::io::stdin().lock().read_line(&mut line)?;
    let spec: Value = serde_json::from_str(&line)?;
    let stop = Arc::new(AtomicBool::new(false));
    {
        let stop = stop.clone();
        std::thread::spawn(move || {
            let _ = std::io::copy(&mut std::io::stdin(), &mut std::io::sink());
            stop.store(true, Ordering::Relaxed);
        });
    }
    let pace = Duration::from_secs_f64(spec["pace_ms"].as_f64().unwrap_or(5.0) / 1000.0);
    let tag = spec["tag"].as_str().unwrap_or("");
    let ports =
        [spec["api_port"].as_u64().unwrap_or(0) as u16, spec["chat_port"].as_u64().unwrap_or(0) as u16];
    let mut conns: [Option<TcpStream>; 2] = [None, None];
    let mut lat: [Vec<f64>; 2] = [Vec::new(), Vec::new()];
    let mut errors: Vec<String> = Vec::new();
    let mut n = 0u64;
    while !stop.load(Ordering::Relaxed) {
        let k = (n % 2) as usize;
        let (kind, path, body) = if k == 0 {
            let text = format!("Note {tag}-{n}: the quick brown fox jumps over the lazy dog.");
            ("paraphrase", "/paraphrase", json!({"text": text, "provider": "offline"}))
        } else {
            let message = "Hello there [chunks=20 interval=0]";
            ("waifu", "/v1/waifu", json!({"user_id": format!("other-{tag}-{n}"), "message": message}))
        };
        let body = body.to_string();
        let request = format!(
            "POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nAccept-Encoding: identity\r\nContent-Length: {}\r\n\
             content-type: application/json\r\ncurrent-user: other-client\r\n\r\n{body}",
            ports[k],
            body.len()
        );
        let started = Instant::now();
        match call(&mut conns[k], ports[k], request.as_bytes()) {
            Ok(resp) => {
                let took = started.elapsed().as_secs_f64();
                if resp.status != Some(200) || resp.header("x-parlance-fallback").is_some() {
                    let shown =
                        String::from_utf8_lossy(&resp.whole[..resp.whole.len().min(200)]).into_owned();
                    errors.push(format!("{kind} {} {shown:?}", resp.status.unwrap_or(0)));
                } else {
                    lat[k].push(took * 1e6);
                }
                if !resp.complete
                    || resp.header("connection").is_some_and(|c| c.eq_ignore_ascii_case("close"))
                {
                    conns[k] = None;
                }
            }
            Err(e) => {
                errors.push(format!("{kind} {:?}: {e}", e.kind()));
                conns[k] = None;
            }
        }
        n += 1;
        std::thread::sleep(pace);
    }
    let error_count = errors.len();
    errors.truncate(20);
    let out = json!({
        "latency_us": {"paraphrase": lat[0], "waifu": lat[1]},
        "errors": errors,
        "error_count": error_count,
    });
    let mut stdout = std::io::stdout().lock();
    write!(stdout, "{out}")?;
    stdout.flush()
}

/// One request on the kept connection (opened, or opened again, as http.client does); the whole
/// response read.
fn call(conn: &mut Option<TcpStream>, port: u16, request: &[u8]) -> std::io::Result<Response> {
    if conn.is_none() {
        let socket = TcpStream::connect(("127.0.0.1", port))?;
        socket.set_read_timeout(Some(Duration::from_secs(60)))?;
        *conn = Some(socket);
    }
    let socket = conn.as_mut().expect("connected above");
    socket.write_all(request)?;
    let mut resp = Response::new(false);
    let mut buf = vec![0u8; 64 * 1024];
    while !resp.complete {
        let got = socket.read(&mut buf)?;
        if got == 0 {
            resp.eof(0);
            if !resp.complete {
                return Err(std::io::ErrorKind::UnexpectedEof.into());
            }
            break;
        }
        resp.feed(&buf[..got], 0).map_err(std::io::Error::other)?;
    }
    Ok(resp)
}
