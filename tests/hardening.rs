//! Abusive and careless clients against the real binary: slow and idle connections, stalled bodies,
//! more connections than the server may hold, too few file descriptors, and requests hyper itself
//! refuses. Ordinary clients keep being served, and every error has the JSON body.

use crate::common::server::Server;
use serde_json::Value;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// A server with short connection timeouts, from a configuration file.
async fn server(server_table: &str, env: &[(&str, &str)]) -> Server {
    let home = tempfile::tempdir().unwrap();
    let config = home.path().join("parlance.toml");
    std::fs::write(&config, format!("[server]\n{server_table}\n")).unwrap();
    Server::start_in(home, env, &["--config", config.to_str().unwrap()]).await
}

/// Reads until the server closes the connection (or `within` passes): what it sent, and whether it
/// closed.
async fn read_until_closed(stream: &mut TcpStream, within: Duration) -> (String, bool) {
    let mut seen = Vec::new();
    let deadline = Instant::now() + within;
    let mut buf = [0u8; 4096];
    while Instant::now() < deadline {
        match tokio::time::timeout(deadline - Instant::now(), stream.read(&mut buf)).await {
            Ok(Ok(0)) | Ok(Err(_)) => return (String::from_utf8_lossy(&seen).into_owned(), true),
            Ok(Ok(n)) => seen.extend_from_slice(&buf[..n]),
            Err(_) => break,
        }
    }
    (String::from_utf8_lossy(&seen).into_owned(), false)
}

/// One ordinary request on a fresh connection: the status and how long it took.
async fn ordinary(server: &Server) -> (u16, Duration) {
    let started = Instant::now();
    let client = reqwest::Client::builder().pool_max_idle_per_host(0).build().unwrap();
    let r =
        client.get(server.url("/v1/user/all/count")).timeout(Duration::from_secs(10)).send().await.unwrap();
    (r.status().as_u16(), started.elapsed())
}

fn json_body(response: &str) -> Value {
    let body = response.split_once("\r\n\r\n").map(|(_, b)| b).unwrap_or_default();
    serde_json::from_str(body).unwrap_or_else(|e| panic!("not a JSON error body ({e}): {response:?}"))
}

#[tokio::test(flavor = "multi_thread")]
async fn slow_idle_and_stalled_clients_are_dropped_while_others_are_served() {
    let s = server("header_timeout_secs = 1\nbody_timeout_secs = 1\nidle_timeout_secs = 2", &[]).await;
    let mut slowloris = Vec::new();
    for _ in 0..30 {
        let mut c = TcpStream::connect(s.api).await.unwrap();
        c.write_all(b"GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: ").await.unwrap();
        slowloris.push(c);
    }
    let mut idle = Vec::new();
    for _ in 0..30 {
        idle.push(TcpStream::connect(s.api).await.unwrap());
    }
    let mut stalled = Vec::new();
    for _ in 0..5 {
        let mut c = TcpStream::connect(s.api).await.unwrap();
        c.write_all(b"POST /paraphrase HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"text\"")
            .await
            .unwrap();
        stalled.push(c);
    }
    // A slow client that keeps trickling bytes is still held to the header deadline.
    let mut trickler = TcpStream::connect(s.api).await.unwrap();
    trickler.write_all(b"GET /health HTTP/1.1\r\n").await.unwrap();
    for _ in 0..5 {
        let (status, took) = ordinary(&s).await;
        assert_eq!(status, 200);
        assert!(took < Duration::from_secs(2), "an ordinary request took {took:?}");
    }
    let trickle = tokio::spawn(async move {
        for i in 0..40 {
            if trickler.write_all(format!("X-{i}: y\r\n").as_bytes()).await.is_err() {
                return true;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let (_, closed) = read_until_closed(&mut trickler, Duration::from_millis(100)).await;
        closed
    });
    for mut c in slowloris {
        let (_, closed) = read_until_closed(&mut c, Duration::from_secs(5)).await;
        assert!(closed, "a connection that never finished its headers stayed open");
    }
    for mut c in stalled {
        let (response, closed) = read_until_closed(&mut c, Duration::from_secs(5)).await;
        assert!(response.starts_with("HTTP/1.1 408"), "{response:?}");
        assert_eq!(json_body(&response)["error"]["code"], "request_timeout", "{response}");
        assert!(closed || response.contains("connection: close"), "{response:?}");
    }
    for mut c in idle {
        let (_, closed) = read_until_closed(&mut c, Duration::from_secs(5)).await;
        assert!(closed, "an idle connection stayed open");
    }
    assert!(trickle.await.unwrap(), "a client trickling header lines was never cut off");
    // A keep-alive connection that is used stays open between requests shorter than the idle limit.
    let mut kept = TcpStream::connect(s.api).await.unwrap();
    for _ in 0..3 {
        kept.write_all(b"GET /v1/user/all/count HTTP/1.1\r\nHost: x\r\n\r\n").await.unwrap();
        let mut buf = [0u8; 1024];
        let n = kept.read(&mut buf).await.unwrap();
        assert!(buf[..n].starts_with(b"HTTP/1.1 200"), "{:?}", String::from_utf8_lossy(&buf[..n]));
        tokio::time::sleep(Duration::from_millis(800)).await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn at_the_connection_cap_idle_clients_make_room_for_new_ones() {
    let s = server("max_connections = 16\nidle_timeout_secs = 600\nheader_timeout_secs = 600", &[]).await;
    let mut idle = Vec::new();
    for _ in 0..60 {
        idle.push(TcpStream::connect(s.api).await.unwrap());
    }
    for _ in 0..10 {
        let (status, took) = ordinary(&s).await;
        assert_eq!(status, 200);
        assert!(took < Duration::from_secs(2), "an ordinary request waited {took:?} at the cap");
    }
    let mut closed = 0;
    for mut c in idle {
        closed += usize::from(read_until_closed(&mut c, Duration::from_millis(50)).await.1);
    }
    assert!(closed >= 40, "only {closed} of 60 idle connections were closed to stay under the cap");
}

#[tokio::test(flavor = "multi_thread")]
async fn out_of_file_descriptors_the_server_keeps_serving() {
    // The server's own open-file limit is 400, below what the idle clients take.
    let home = tempfile::tempdir().unwrap();
    let s = Server::start_wrapped(home, &[], &[], &["sh", "-c", "ulimit -n 400 && exec \"$0\" \"$@\""]).await;
    raise_own_file_limit();
    let mut idle = Vec::new();
    for _ in 0..600 {
        match TcpStream::connect(s.api).await {
            Ok(c) => idle.push(c),
            Err(_) => break,
        }
    }
    for _ in 0..10 {
        let (status, took) = ordinary(&s).await;
        assert_eq!(status, 200);
        assert!(took < Duration::from_secs(3), "an ordinary request took {took:?}");
    }
    drop(idle);
}

/// A log that cannot be written does not stop the server: with stderr on `/dev/full` (every write
/// fails with ENOSPC, as when the log's disk is full; bench/soak.py found a replica that could not
/// start on a full disk) it starts and serves, logging nothing.
#[tokio::test(flavor = "multi_thread")]
async fn a_log_that_cannot_be_written_does_not_stop_the_server() {
    let home = tempfile::tempdir().unwrap();
    let s = Server::start_wrapped(home, &[], &[], &["sh", "-c", "exec \"$0\" \"$@\" 2>/dev/full"]).await;
    for _ in 0..5 {
        let (status, _) = ordinary(&s).await;
        assert_eq!(status, 200);
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // A request that logs a warning (the chat model at an endpoint that refuses it) is answered too.
    let r = s
        .client
        .post(s.chat_url("/v1/waifu"))
        .json(&serde_json::json!({"user_id": "full-disk", "message": "Hello?"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    assert_eq!(ordinary(&s).await.0, 200);
}

fn raise_own_file_limit() {
    use rustix::process::{Resource, Rlimit, getrlimit, setrlimit};
    let limit = getrlimit(Resource::Nofile);
    if let Some(maximum) = limit.maximum {
        let _ =
            setrlimit(Resource::Nofile, Rlimit { current: Some(maximum.min(8192)), maximum: Some(maximum) });
    }
}

/// What hyper refuses before the app sees a request is answered with this API's JSON error body.
#[tokio::test(flavor = "multi_thread")]
async fn requests_refused_below_the_app_get_json_errors() {
    let s = Server::start(&[]).await;
    let send = |bytes: Vec<u8>| {
        let addr = s.api;
        async move {
            let mut c = TcpStream::connect(addr).await.unwrap();
            let _ = c.write_all(&bytes).await;
            read_until_closed(&mut c, Duration::from_secs(5)).await.0
        }
    };
    let long_uri = format!("GET /{} HTTP/1.1\r\nHost: x\r\n\r\n", "a".repeat(70_000)).into_bytes();
    let huge_header =
        format!("GET /health HTTP/1.1\r\nHost: x\r\nX-Big: {}\r\n\r\n", "b".repeat(200_000)).into_bytes();
    let raw_ff = b"GET /v1/user/id/\xff HTTP/1.1\r\nHost: x\r\n\r\n".to_vec();
    let control = b"GET /health HTTP/1.1\r\nHost: x\r\nX-Bad: a\x01b\r\n\r\n".to_vec();
    for (bytes, status, code) in [
        (long_uri, "414", "uri_too_long"),
        (huge_header, "431", "headers_too_large"),
        (raw_ff, "400", "bad_request"),
        (control, "400", "bad_request"),
    ] {
        let response = send(bytes).await;
        assert!(response.starts_with(&format!("HTTP/1.1 {status}")), "{response:?}");
        assert!(response.to_ascii_lowercase().contains("content-type: application/json"), "{response:?}");
        let body = json_body(&response);
        assert_eq!(body["error"]["code"], code, "{body}");
        assert!(!body["error"]["message"].as_str().unwrap().is_empty());
    }
    let (status, _) = ordinary(&s).await;
    assert_eq!(status, 200, "the server still serves");
}

/// The peak resident memory of a process, in bytes.
fn peak_rss(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let kb = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .unwrap_or(0);
    kb * 1024
}

/// A hostile fixture bound as provider `id` with the given behaviour and limits.
fn hostile(id: &str, behaviour: &str, limits: &str) -> String {
    format!(
        "[[plugin]]\nid = \"{id}\"\nkind = \"provider\"\ncomponent = {:?}\nconfig = {{ behaviour = \"{behaviour}\" }}\nlimits = {{ {limits} }}\n",
        crate::common::fixture("parlance-fixture-hostile").display().to_string()
    )
}

async fn paraphrase_as(s: &Server, client: &str, provider: &str) -> (u16, Value, Duration) {
    let started = Instant::now();
    let r = s
        .client
        .post(s.url("/paraphrase"))
        .header("current-user", client)
        .json(&serde_json::json!({"text": "The river flooded the village.", "provider": provider, "skip_cache": true}))
        .send()
        .await
        .unwrap();
    let status = r.status().as_u16();
    (status, r.json().await.unwrap_or(Value::Null), started.elapsed())
}

/// A slow provider holds at most its share of the instance pool, one client at most its own share;
/// a call that finds its share full fails fast with a code that says which, and other providers and
/// clients are served meanwhile.
#[tokio::test(flavor = "multi_thread")]
async fn no_provider_or_client_can_hold_every_instance() {
    let home = tempfile::tempdir().unwrap();
    let config = home.path().join("parlance.toml");
    let sleepy = hostile("sleepy", "sleep", "timeout_ms = 60000");
    std::fs::write(&config, format!("[runtime]\nmax_instances = 8\nqueue_timeout_ms = 300\n\n{sleepy}"))
        .unwrap();
    let s = std::sync::Arc::new(
        Server::start_in(
            home,
            &[("RATE_LIMIT_REQUESTS_PER_MINUTE", "100000")],
            &["--config", config.to_str().unwrap()],
        )
        .await,
    );
    // Clients a and b take the sleepy provider's whole share (half the pool: 4), 2 each (a client's
    // share is a quarter: 2).
    let mut held = Vec::new();
    for client in ["a", "a", "b", "b"] {
        let s = s.clone();
        held.push(tokio::spawn(async move { paraphrase_as(&s, client, "sleepy").await }));
    }
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let (status, body, took) = paraphrase_as(&s, "a", "offline").await;
    assert_eq!(status, 429, "{body}");
    assert_eq!(body["error"]["code"], "too_many_concurrent_calls", "{body}");
    assert!(took < Duration::from_secs(2), "waited {took:?}");
    let (status, body, took) = paraphrase_as(&s, "c", "sleepy").await;
    assert_eq!(status, 503, "{body}");
    assert_eq!(body["error"]["code"], "plugin_busy", "{body}");
    assert!(took < Duration::from_secs(2), "waited {took:?}");
    for _ in 0..5 {
        let (status, body, took) = paraphrase_as(&s, "c", "offline").await;
        assert_eq!(status, 200, "{body}");
        assert!(took < Duration::from_secs(1), "another client's offline call waited {took:?}");
    }
    for h in held {
        h.abort();
    }
}

/// Memory-hungry calls are held to the process's budget of plugin memory (one plugin to half of
/// it): they fail with a named error, other plugins keep working, and with the default budget the
/// server stays below 1 GiB resident.
#[tokio::test(flavor = "multi_thread")]
async fn the_memory_budget_bounds_what_plugins_can_take() {
    let home = tempfile::tempdir().unwrap();
    let config = home.path().join("parlance.toml");
    let bomb = hostile("bomb", "membomb", "memory_mb = 128, timeout_ms = 20000");
    std::fs::write(&config, format!("[runtime]\nmemory_budget_mb = 256\nqueue_timeout_ms = 20000\n\n{bomb}"))
        .unwrap();
    let s = std::sync::Arc::new(
        Server::start_in(
            home,
            &[("RATE_LIMIT_REQUESTS_PER_MINUTE", "100000")],
            &["--config", config.to_str().unwrap()],
        )
        .await,
    );
    let bombs: Vec<_> = (0..32)
        .map(|i| {
            let s = s.clone();
            tokio::spawn(async move { paraphrase_as(&s, &format!("bomber{i}"), "bomb").await })
        })
        .collect();
    for _ in 0..5 {
        let (status, body, _) = paraphrase_as(&s, "bystander", "offline").await;
        assert_eq!(status, 200, "{body}");
    }
    let mut codes = std::collections::BTreeMap::new();
    for b in bombs {
        let (_, body, _) = b.await.unwrap();
        *codes.entry(body["error"]["code"].as_str().unwrap_or("none").to_owned()).or_insert(0) += 1;
    }
    assert_eq!(codes.get("none"), None, "{codes:?}");
    assert!(codes.contains_key("plugin_memory_budget"), "{codes:?}");
    assert!(codes.keys().all(|c| c == "plugin_memory_budget" || c == "plugin_memory_limit"), "{codes:?}");
    let rss = peak_rss(s.pid());
    eprintln!("peak RSS with 32 memory bombs: {} MiB ({codes:?})", rss >> 20);
    assert!(rss < 1 << 30, "peak RSS {} MiB", rss >> 20);
}

/// Requests with made-up methods and paths do not grow `/metrics`: its labels come from closed sets.
#[tokio::test(flavor = "multi_thread")]
async fn invented_methods_and_paths_do_not_grow_the_metrics() {
    let s = Server::start(&[]).await;
    // Samples, not bytes: counts grow digits as requests come in.
    let size = || async {
        s.client.get(s.url("/metrics")).send().await.unwrap().text().await.unwrap().lines().count()
    };
    for i in 0..20 {
        let method = reqwest::Method::from_bytes(format!("WARM{i}").as_bytes()).unwrap();
        s.client.request(method, s.url(&format!("/warm/{i}"))).send().await.unwrap();
    }
    size().await; // `/metrics` itself is then a known route
    let before = size().await;
    for i in 0..500 {
        let method = reqwest::Method::from_bytes(format!("FLOOD{i}").as_bytes()).unwrap();
        let r = s.client.request(method, s.url(&format!("/flood/{i}"))).send().await.unwrap();
        assert!(r.status().is_client_error());
    }
    let after = size().await;
    assert_eq!(after, before, "/metrics grew from {before} to {after} lines");
}

/// A tmpfs mounted for one test and unmounted when dropped. Mounting needs root, which CI has; a
/// machine where it fails fails the test, saying so, rather than skipping it.
struct Tmpfs(std::path::PathBuf);

impl Tmpfs {
    fn mount(dir: &std::path::Path, size: &str) -> Tmpfs {
        let status = std::process::Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(dir)
            .status()
            .expect("run mount");
        assert!(status.success(), "mounting a tmpfs at {} failed: this test needs root", dir.display());
        Tmpfs(dir.to_owned())
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = std::process::Command::new("umount").arg("-l").arg(&self.0).status();
    }
}

/// A full disk under the dialog store: writes are refused with 507 `storage_full`, health says so,
/// chats are refused before the model is called, nothing acknowledged is lost, and once room is
/// made the store takes writes again without a restart.
#[tokio::test(flavor = "multi_thread")]
async fn a_full_disk_is_reported_and_recovered_from_without_a_restart() {
    let scratch = tempfile::tempdir().unwrap();
    let mount = scratch.path().join("disk");
    std::fs::create_dir(&mount).unwrap();
    let _tmpfs = Tmpfs::mount(&mount, "3m");
    let ballast = mount.join("ballast");
    std::fs::write(&ballast, vec![0u8; 1 << 20]).unwrap();
    let model = crate::common::upstream::FakeFormModel::start().await;
    let database = mount.join("dialogs.db");
    let s =
        Server::start(&[("MODEL_URL", &model.url()), ("DATABASE_FILE", database.to_str().unwrap())]).await;
    let chat = |n: usize| {
        let s = &s;
        async move {
            let body = serde_json::json!({"user_id": format!("u{}", n % 7), "message": "m".repeat(3500)});
            let r = s.client.post(s.chat_url("/v1/waifu")).json(&body).send().await.unwrap();
            let status = r.status().as_u16();
            (status, r.json::<Value>().await.unwrap_or(Value::Null))
        }
    };
    let mut acknowledged = 0;
    let full = loop {
        let (status, body) = chat(acknowledged).await;
        if status != 200 {
            break (status, body);
        }
        acknowledged += 1;
        assert!(acknowledged < 5000, "the disk never filled");
    };
    assert_eq!(full.0, 507, "{}", full.1);
    assert_eq!(full.1["error"]["code"], "storage_full", "{}", full.1);
    let health: Value = s.client.get(s.url("/health")).send().await.unwrap().json().await.unwrap();
    assert_eq!(health["status"], "degraded", "{health}");
    let status = s.client.get(s.chat_url("/v1/server/status")).send().await.unwrap().status().as_u16();
    assert_eq!(status, 503);
    let calls = model.inputs().len();
    let (status, body) = chat(0).await;
    assert_eq!((status, body["error"]["code"].as_str()), (507, Some("storage_full")), "{body}");
    assert_eq!(model.inputs().len(), calls, "the model was called for a chat that could not be stored");

    std::fs::remove_file(&ballast).unwrap();
    let freed = Instant::now();
    while s.client.get(s.chat_url("/v1/server/status")).send().await.unwrap().status().as_u16() != 200 {
        assert!(freed.elapsed() < Duration::from_secs(10), "the store did not recover");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let (status, body) = chat(1).await;
    assert_eq!(status, 200, "{body}");
    acknowledged += 1;
    let mut stored = 0;
    for u in 0..7 {
        let r = s.client.get(s.chat_url(&format!("/v1/user/dialog/json/u{u}"))).send().await.unwrap();
        if r.status().as_u16() == 200 {
            let body: Value = r.json().await.unwrap();
            stored += body["dialog"].as_array().unwrap().len();
        }
    }
    assert_eq!(stored, 2 * acknowledged, "every acknowledged exchange is stored, whole");
}

/// Bodies are read as the schema says: an array is no object, a form's bytes are UTF-8, and a client
/// names itself once.
#[tokio::test(flavor = "multi_thread")]
async fn bodies_and_headers_are_read_strictly() {
    let s = Server::start(&[]).await;
    let status_and_code = |r: reqwest::Response| async move {
        let status = r.status().as_u16();
        let body: Value = r.json().await.unwrap_or(Value::Null);
        (status, body["error"]["code"].as_str().unwrap_or_default().to_owned())
    };
    let r = s
        .client
        .post(s.chat_url("/v1/waifu"))
        .json(&serde_json::json!(["u", "hi", null, null, null, null]))
        .send()
        .await
        .unwrap();
    assert_eq!(status_and_code(r).await, (422, "invalid_body".to_owned()));
    assert_eq!(
        s.client.get(s.chat_url("/v1/user/id/u")).send().await.unwrap().json::<Value>().await.unwrap()["exists"],
        false
    );

    s.client.put(s.chat_url("/v1/user/id/v")).send().await.unwrap();
    let kept = serde_json::json!({"dialog": [{"index": 0, "name": "A", "message": "kept"}]});
    s.client.put(s.chat_url("/v1/user/dialog/json/v")).json(&kept).send().await.unwrap();
    let arrays = serde_json::json!({"dialog": [[0, "User", "x"]]});
    let r = s.client.put(s.chat_url("/v1/user/dialog/json/v")).json(&arrays).send().await.unwrap();
    assert_eq!(status_and_code(r).await, (422, "invalid_body".to_owned()));
    let dialog: Value =
        s.client.get(s.chat_url("/v1/user/dialog/json/v")).send().await.unwrap().json().await.unwrap();
    assert_eq!(dialog["dialog"], kept["dialog"], "a refused dialog changes nothing");

    let r =
        s.client.post(s.url("/paraphrase")).json(&serde_json::json!(["Hello there."])).send().await.unwrap();
    assert_eq!(status_and_code(r).await, (422, "invalid_body".to_owned()));

    let r = s
        .client
        .post(s.chat_url("/path"))
        .header("content-type", "application/x-www-form-urlencoded")
        .body("user_id=u&message=caf%FF")
        .send()
        .await
        .unwrap();
    assert_eq!(status_and_code(r).await, (400, "invalid_form".to_owned()));
    assert_eq!(
        s.client.get(s.chat_url("/v1/user/id/u")).send().await.unwrap().json::<Value>().await.unwrap()["exists"],
        false
    );

    let r = s
        .client
        .get(s.chat_url("/v1/user/all/count"))
        .header("current-user", "alice")
        .header("current-user", "bob")
        .send()
        .await
        .unwrap();
    assert_eq!(status_and_code(r).await, (400, "invalid_client".to_owned()));
}

/// A request hidden in a chunked body's trailer section is never served, and the connection ends
/// after the answer (found by the `http` fuzz target): hyper reads trailers up to the first CRLF CRLF
/// but keeps only the fields before the first empty line, and a front proxy that ends lines at a lone
/// LF, as the RFC allows, would have sent `GET /v1/user/all/count` on as a request of its own.
#[tokio::test(flavor = "multi_thread")]
async fn a_request_hidden_in_chunked_trailers_is_not_served() {
    let s = Server::start(&[]).await;
    let mut stream = TcpStream::connect(s.chat).await.unwrap();
    let body = r#"{"user_id":"t","message":"hi"}"#;
    // The trailer line ends at a lone LF.
    let smuggled = format!(
        "POST /v1/waifu HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n\
         {:x}\r\n{body}\r\n0\r\nX-Trailer: v\n\r\nGET /v1/user/all/count HTTP/1.1\r\nHost: x\r\n\r\n",
        body.len()
    );
    stream.write_all(smuggled.as_bytes()).await.unwrap();
    let (response, closed) = read_until_closed(&mut stream, Duration::from_secs(10)).await;
    assert!(closed, "the connection stays open: {response:?}");
    assert_eq!(response.matches("HTTP/1.1 ").count(), 1, "{response}");
    assert!(response.starts_with("HTTP/1.1 400"), "{response}");
    assert!(response.to_ascii_lowercase().contains("connection: close"), "{response}");
    let error = json_body(&response);
    assert_eq!(error["error"]["code"], "invalid_body", "{error}");
    assert!(error["error"]["message"].as_str().unwrap().contains("trailer"), "{error}");
}

/// The process asks the kernel for no transparent huge pages (its allocator's heap would grow into
/// them 2 MiB at a time), unless the operator set mimalloc's own `MIMALLOC_ALLOW_THP`.
#[tokio::test(flavor = "multi_thread")]
async fn the_server_takes_no_transparent_huge_pages_unless_told() {
    let thp = |server: &Server| {
        let status = std::fs::read_to_string(format!("/proc/{}/status", server.pid())).unwrap();
        status.lines().find_map(|l| l.strip_prefix("THP_enabled:").map(|v| v.trim().to_owned()))
    };
    let server = Server::start(&[]).await;
    // A kernel older than 5.0 does not show the flag; there is then nothing to check.
    let Some(default) = thp(&server) else { return };
    assert_eq!(default, "0", "transparent huge pages are off by default");
    let server = Server::start(&[("MIMALLOC_ALLOW_THP", "1")]).await;
    assert_eq!(thp(&server).as_deref(), Some("1"), "MIMALLOC_ALLOW_THP=1 leaves them on");
}
