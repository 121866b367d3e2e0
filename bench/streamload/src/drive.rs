//! The load driver of issue28_streaming.py `--drive`: the same JSON spec on stdin, the same JSON
//! result on stdout. A spec: {"port", "requests": [{"path", "headers", "body"}], "concurrency",
//! "reuse" (a keep-alive connection per worker, else one per request), "ramp_s" (request i starts at
//! i * ramp_s / n), "sse", "lag_index"}.

use std::cell::{Cell, RefCell};
use std::io::Read;
use std::rc::Rc;
use std::time::Duration;

use serde_json::{Map, Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::monotonic_ns;
use crate::response::Response;

#[derive(Default)]
struct State {
    next: Cell<usize>,
    open: Cell<u64>,
    max_open: Cell<u64>,
}

struct Spec {
    port: u16,
    raw: Vec<Vec<u8>>,
    reuse: bool,
    ramp: f64,
    sse: bool,
    lag_index: bool,
}

pub async fn main() -> std::io::Result<()> {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input)?;
    let spec: Value = serde_json::from_str(&input)?;
    let port = spec["port"].as_u64().ok_or(std::io::ErrorKind::InvalidInput)? as u16;
    let reuse = spec.get("reuse").and_then(Value::as_bool).unwrap_or(true);
    let concurrency = spec.get("concurrency").and_then(Value::as_u64).unwrap_or(1) as usize;
    let requests = spec["requests"].as_array().cloned().unwrap_or_default();
    let raw = requests.iter().map(|r| raw_request(port, r, reuse)).collect();
    let spec = Rc::new(Spec {
        port,
        raw,
        reuse,
        ramp: spec.get("ramp_s").and_then(Value::as_f64).unwrap_or(0.0),
        sse: spec.get("sse").and_then(Value::as_bool).unwrap_or(true),
        lag_index: spec.get("lag_index").and_then(Value::as_bool).unwrap_or(false),
    });
    let n = spec.raw.len();
    let concurrency = concurrency.min(n);
    let state = Rc::new(State::default());
    let results: Rc<RefCell<Vec<Value>>> = Rc::new(RefCell::new(vec![Value::Null; n]));
    let t0 = tokio::time::Instant::now();
    // One thread: workers are local tasks sharing the state without locks.
    let local = tokio::task::LocalSet::new();
    for _ in 0..concurrency {
        local.spawn_local(worker(spec.clone(), state.clone(), results.clone(), t0));
    }
    local.await;
    let out = json!({
        "results": std::mem::take(&mut *results.borrow_mut()),
        "max_open": state.max_open.get(),
        "seconds": t0.elapsed().as_secs_f64(),
    });
    println!("{out}");
    Ok(())
}

fn raw_request(port: u16, r: &Value, reuse: bool) -> Vec<u8> {
    let body = r["body"].to_string();
    let path = r["path"].as_str().unwrap_or("/");
    let mut head = format!(
        "POST {path} HTTP/1.1\r\nhost: 127.0.0.1:{port}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n",
        body.len()
    );
    if let Some(headers) = r.get("headers").and_then(Value::as_object) {
        for (k, v) in headers {
            head += &format!("{k}: {}\r\n", v.as_str().map_or_else(|| v.to_string(), str::to_string));
        }
    }
    if !reuse {
        head += "connection: close\r\n";
    }
    head += "\r\n";
    let mut raw = head.into_bytes();
    raw.extend_from_slice(body.as_bytes());
    raw
}

async fn worker(
    spec: Rc<Spec>,
    state: Rc<State>,
    results: Rc<RefCell<Vec<Value>>>,
    t0: tokio::time::Instant,
) {
    let n = spec.raw.len();
    let mut conn: Option<TcpStream> = None;
    loop {
        let i = state.next.get();
        if i >= n {
            break;
        }
        state.next.set(i + 1);
        if spec.ramp > 0.0 {
            tokio::time::sleep_until(t0 + Duration::from_secs_f64(i as f64 * spec.ramp / n as f64)).await;
        }
        if conn.is_none() {
            match TcpStream::connect(("127.0.0.1", spec.port)).await {
                Ok(s) => {
                    let _ = s.set_nodelay(true);
                    conn = Some(s);
                }
                Err(e) => {
                    results.borrow_mut()[i] = json!({"i": i, "error": format!("connect: {e}"), "deltas": 0});
                    continue;
                }
            }
        }
        let socket = conn.as_mut().expect("connected above");
        let (rec, reusable) = one(&spec, &state, i, socket).await;
        results.borrow_mut()[i] = rec;
        if !(spec.reuse && reusable) {
            conn = None;
        }
    }
}

/// One request on `socket`: its record, and whether the connection may carry another.
async fn one(spec: &Spec, state: &State, i: usize, socket: &mut TcpStream) -> (Value, bool) {
    let mut resp = Response::new(spec.sse);
    let mut opened = false;
    let mut buf = vec![0u8; 64 * 1024];
    let sent = monotonic_ns();
    let outcome: Result<(), String> = async {
        socket.write_all(&spec.raw[i]).await.map_err(|e| format!("{:?}: {e}", e.kind()))?;
        while !resp.complete {
            let got = socket.read(&mut buf).await.map_err(|e| format!("{:?}: {e}", e.kind()))?;
            let now = monotonic_ns();
            if got == 0 {
                resp.eof(now);
                break;
            }
            resp.feed(&buf[..got], now)?;
            if !opened && resp.first_ns.is_some() {
                opened = true;
                state.open.set(state.open.get() + 1);
                state.max_open.set(state.max_open.get().max(state.open.get()));
            }
        }
        Ok(())
    }
    .await;
    if opened {
        state.open.set(state.open.get() - 1);
    }
    let mut rec = Map::new();
    rec.insert("i".into(), json!(i));
    if let Err(error) = outcome {
        rec.insert("error".into(), json!(error));
        rec.insert("status".into(), json!(resp.status));
        rec.insert("deltas".into(), json!(resp.deltas));
        return (Value::Object(rec), false);
    }
    let end = monotonic_ns();
    rec.insert("status".into(), json!(resp.status));
    rec.insert("total_ns".into(), json!(end - sent));
    rec.insert("first_ns".into(), json!(resp.first_ns.map(|f| f - sent)));
    rec.insert("deltas".into(), json!(resp.deltas));
    rec.insert("done".into(), json!(resp.done));
    rec.insert("error".into(), json!(resp.error));
    rec.insert("fallback".into(), json!(resp.header("x-parlance-fallback")));
    rec.insert("complete".into(), json!(resp.complete));
    rec.insert("comments".into(), json!(resp.comments));
    if let Some(((_, first), rest)) = resp.stamps.split_first() {
        rec.insert("first_lag_ns".into(), json!(first));
        rec.insert("lags_ns".into(), json!(rest.iter().map(|s| s.1).collect::<Vec<_>>()));
        if spec.lag_index {
            rec.insert("lag_idx".into(), json!(rest.iter().map(|s| s.0).collect::<Vec<_>>()));
        }
    }
    if let Some(data) = &resp.done_data {
        match serde_json::from_slice::<Value>(data) {
            Ok(done) => {
                rec.insert("done_fallback".into(), done.get("fallback").cloned().unwrap_or(Value::Null));
                rec.insert("indices".into(), done.get("indices").cloned().unwrap_or(Value::Null));
            }
            Err(_) => {
                let shown = String::from_utf8_lossy(&data[..data.len().min(200)]).into_owned();
                rec.insert("error".into(), json!(format!("bad done event: {shown:?}")));
            }
        }
    }
    if !spec.sse {
        rec.insert("body".into(), json!(String::from_utf8_lossy(&resp.whole[..resp.whole.len().min(400)])));
    }
    let reusable =
        resp.complete && !resp.header("connection").is_some_and(|c| c.eq_ignore_ascii_case("close"));
    (Value::Object(rec), reusable)
}
