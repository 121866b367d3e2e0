//! Streamed chat replies end to end: `POST /v1/waifu` with `Accept: text/event-stream` (or
//! `"stream": true`) in front of `openai-chat` streaming from a local OpenAI-protocol server, read by
//! an SSE client as the events arrive. Deltas arrive as the upstream writes them, the exchange is
//! stored once, contiguous, when the reply is complete; a client that goes away closes the upstream
//! connection and stores nothing; an upstream that dies, breaks its protocol or stalls past the
//! deadline ends the stream with an `error` event; a failure before the first delta is the
//! `DEFAULT_RESPONSE` fallback; a chat model that does not stream answers in one delta.

use crate::common::server::Server;
use crate::common::upstream::{FakeFormModel, FakeStreamingOpenAi};
use serde_json::{Value, json};
use std::time::{Duration, Instant};

const DEFAULT_RESPONSE: &str = "The AI model is currently unavailable. Please try again later.";

/// A server whose chat model is `openai-chat`, pointed at `upstream`.
async fn server(upstream: &FakeStreamingOpenAi, chat: &str, env: &[(&str, &str)]) -> Server {
    let home = tempfile::tempdir().unwrap();
    std::fs::write(home.path().join("parlance.toml"), format!("[chat]\nmodel = \"openai-chat\"\n{chat}"))
        .unwrap();
    let base_url = upstream.base_url();
    let mut all =
        vec![("PROVIDER_API_KEY", "sk-test"), ("PARLANCE_PLUGIN_OPENAI_CHAT_BASE_URL", base_url.as_str())];
    all.extend_from_slice(env);
    Server::start_in(home, &all, &["--config", "parlance.toml"]).await
}

/// One server-sent event as the client read it, with when.
#[derive(Debug)]
struct Event {
    name: String,
    data: Value,
    at: Duration,
}

/// An SSE client: the response's events as they arrive, comments counted apart.
struct Events {
    response: reqwest::Response,
    buffer: String,
    started: Instant,
    comments: usize,
}

impl Events {
    async fn open(server: &Server, user: &str, message: &str, accept: bool) -> Events {
        let mut request = server.client.post(server.chat_url("/v1/waifu"));
        let mut body = json!({"user_id": user, "message": message});
        if accept {
            request = request.header("accept", "text/event-stream");
        } else {
            body["stream"] = json!(true);
        }
        let started = Instant::now();
        let response = request.json(&body).send().await.unwrap();
        assert_eq!(response.status(), 200);
        assert!(
            response.headers()["content-type"].to_str().unwrap().starts_with("text/event-stream"),
            "{:?}",
            response.headers()
        );
        Events { response, buffer: String::new(), started, comments: 0 }
    }

    async fn next(&mut self) -> Option<Event> {
        loop {
            if let Some(end) = self.buffer.find("\n\n") {
                let block: String = self.buffer.drain(..end + 2).collect();
                let mut name = String::from("message");
                let mut data = String::new();
                for line in block.lines() {
                    if line.starts_with(':') {
                        self.comments += 1;
                    } else if let Some(v) = line.strip_prefix("event:") {
                        name = v.trim().to_owned();
                    } else if let Some(v) = line.strip_prefix("data:") {
                        data.push_str(v.trim_start());
                    }
                }
                if data.is_empty() {
                    continue;
                }
                let data = serde_json::from_str(&data).unwrap();
                return Some(Event { name, data, at: self.started.elapsed() });
            }
            let chunk = tokio::time::timeout(Duration::from_secs(20), self.response.chunk())
                .await
                .expect("an event within 20 s")
                .unwrap()?;
            self.buffer.push_str(std::str::from_utf8(&chunk).unwrap());
        }
    }

    async fn all(mut self) -> (Vec<Event>, usize) {
        let mut events = Vec::new();
        while let Some(e) = self.next().await {
            events.push(e);
        }
        (events, self.comments)
    }
}

/// The user's stored dialog; empty for a user that does not exist.
async fn dialog(server: &Server, user: &str) -> Value {
    let r = server.client.get(server.chat_url(&format!("/v1/user/dialog/json/{user}"))).send().await.unwrap();
    if r.status() == 404 {
        return json!([]);
    }
    r.json::<Value>().await.unwrap()["dialog"].clone()
}

#[tokio::test]
async fn deltas_arrive_as_the_model_writes_them_and_the_exchange_is_stored_once() {
    let upstream = FakeStreamingOpenAi::start(6, Duration::from_millis(150)).await;
    let server = server(&upstream, "", &[]).await;
    for accept in [true, false] {
        let user = if accept { "ann" } else { "bob" };
        let (events, _) = Events::open(&server, user, "Hello there", accept).await.all().await;
        let names: Vec<&str> = events.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["delta", "delta", "delta", "delta", "delta", "delta", "done"], "{events:?}");
        // The first word reached the client long before the last was written (5 × 150 ms later).
        let first = events[0].at;
        let last = events[5].at;
        assert!(last - first >= Duration::from_millis(500), "{events:?}");
        let text: String = events[..6].iter().map(|e| e.data["text"].as_str().unwrap()).collect();
        assert_eq!(text, "word0 word1 word2 word3 word4 word5 ");
        let done = &events[6].data;
        assert_eq!(done["response"], text.as_str());
        assert_eq!(done["indices"], json!([0, 1]));
        assert_eq!(done["fallback"], false);
        assert_eq!(done["finish_reason"], "stop");
        assert_eq!(done["model"], "fake-stream");
        assert_eq!(done["usage"], json!({"input_tokens": 11, "output_tokens": 6}));
        let stored = dialog(&server, user).await;
        assert_eq!(
            stored,
            json!([
                {"index": 0, "name": "User", "message": "Hello there"},
                {"index": 1, "name": "Waifu", "message": text},
            ])
        );
    }
    // The upstream was asked to stream, with the usage.
    let sent = upstream.requests.lock().unwrap()[0].clone();
    assert_eq!(sent["stream"], true);
    assert_eq!(sent["stream_options"]["include_usage"], true);

    // Without the header or the flag, the route answers as it always has.
    let r = server
        .client
        .post(server.chat_url("/v1/waifu"))
        .json(&json!({"user_id": "ann", "message": "again"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.headers()["content-type"], "application/json");
    let body: Value = r.json().await.unwrap();
    // (a whole completion's text is trimmed, as it always was)
    assert_eq!(body, json!({"user_id": "ann", "response": "word0 word1 word2 word3 word4 word5"}));
    assert_eq!(dialog(&server, "ann").await.as_array().unwrap().len(), 4);

    // A message the service refuses is an ordinary JSON error, before any event.
    let r = server
        .client
        .post(server.chat_url("/v1/waifu"))
        .header("accept", "text/event-stream")
        .json(&json!({"user_id": "a/b", "message": "hi"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 422);
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["error"]["code"], "invalid_input", "{body}");

    let metrics = server.client.get(server.url("/metrics")).send().await.unwrap().text().await.unwrap();
    assert!(
        metrics.contains("parlance_stream_first_delta_seconds_count{plugin=\"openai-chat\"} 2"),
        "{metrics}"
    );
    assert!(
        metrics.contains("parlance_stream_duration_seconds_count{plugin=\"openai-chat\"} 2"),
        "{metrics}"
    );
}

#[tokio::test]
async fn a_client_that_goes_away_closes_the_upstream_and_stores_nothing() {
    let upstream = FakeStreamingOpenAi::start(50, Duration::from_millis(100)).await;
    let server = server(&upstream, "", &[]).await;
    let mut events = Events::open(&server, "cat", "Tell me a long story", true).await;
    let first = events.next().await.unwrap();
    assert_eq!(first.name, "delta");
    let gone = Instant::now();
    drop(events);
    let deadline = Instant::now() + Duration::from_secs(5);
    while upstream.closed_early.lock().unwrap().is_empty() {
        assert!(Instant::now() < deadline, "the upstream connection was never closed");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let closed = upstream.closed_early.lock().unwrap()[0];
    eprintln!("upstream closed {:?} after the client went away", closed.duration_since(gone));
    // Nothing of the cut-off exchange is stored: the user exists only if something created it.
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(dialog(&server, "cat").await, json!([]));
    let metrics = server.client.get(server.url("/metrics")).send().await.unwrap().text().await.unwrap();
    assert!(
        metrics.contains("parlance_streams_cancelled_total{plugin=\"openai-chat\",cause=\"client\"} 1"),
        "{metrics}"
    );
}

#[tokio::test]
async fn failures_after_the_first_delta_end_with_an_error_and_before_it_fall_back() {
    let upstream = FakeStreamingOpenAi::start(5, Duration::from_millis(20)).await;
    let server = server(&upstream, "stream_timeout_secs = 2\n", &[]).await;
    for (user, message, code) in [
        ("die", "DIE please", "upstream_unavailable"),
        ("bad", "MALFORMED please", "upstream_bad_response"),
        ("slow", "STALL please", "plugin_timeout"),
    ] {
        let (events, _) = Events::open(&server, user, message, true).await.all().await;
        let last = events.last().unwrap();
        assert_eq!(last.name, "error", "{message}: {events:?}");
        assert!(events[0].name == "delta" && events[0].data["fallback"] == false, "{events:?}");
        assert_eq!(last.data["error"]["code"], code, "{message}: {events:?}");
        assert!(last.data["error"]["message"].is_string());
        assert_eq!(dialog(&server, user).await, json!([]), "{message}");
    }

    // Refused before anything was written: DEFAULT_RESPONSE, flagged, nothing stored.
    let (events, _) = Events::open(&server, "nokey", "FAIL401", true).await.all().await;
    let names: Vec<&str> = events.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, ["delta", "done"], "{events:?}");
    assert_eq!(events[0].data, json!({"text": DEFAULT_RESPONSE, "fallback": true}));
    assert_eq!(events[1].data["fallback"], true);
    assert_eq!(events[1].data["indices"], json!([]));
    assert_eq!(dialog(&server, "nokey").await, json!([]));
}

#[tokio::test]
async fn keep_alives_flow_while_the_upstream_is_silent_and_the_listener_does_not_cut_the_stream() {
    let upstream = FakeStreamingOpenAi::start(3, Duration::from_millis(10)).await;
    let server = server(
        &upstream,
        "stream_keepalive_secs = 1\n[server]\nidle_timeout_secs = 1\nheader_timeout_secs = 1\n",
        &[],
    )
    .await;
    // A chunk, then 3 s of silence: longer than the listener's idle and header timeouts.
    let (events, comments) = Events::open(&server, "quiet", "STALL now", true).await.all().await;
    assert_eq!(events.last().unwrap().name, "done", "{events:?}");
    assert!(comments >= 2, "{comments} keep-alive comments in 3 s of silence");
    assert_eq!(dialog(&server, "quiet").await.as_array().unwrap().len(), 2);
}

#[tokio::test]
async fn concurrent_streams_store_contiguous_dialogs() {
    let upstream = FakeStreamingOpenAi::start(4, Duration::from_millis(30)).await;
    let server = server(&upstream, "", &[]).await;
    let server = &server;
    let turns = (0..24).map(|i| async move {
        let user = format!("u{}", i % 3);
        Events::open(server, &user, &format!("message {i}"), i % 2 == 0).await.all().await
    });
    for (events, _) in futures::future::join_all(turns).await {
        assert_eq!(events.last().unwrap().name, "done", "{events:?}");
    }
    for u in 0..3 {
        let stored = dialog(server, &format!("u{u}")).await;
        let entries = stored.as_array().unwrap();
        assert_eq!(entries.len(), 16);
        for (i, e) in entries.iter().enumerate() {
            assert_eq!(e["index"], i);
            assert_eq!(e["name"], if i % 2 == 0 { "User" } else { "Waifu" });
        }
    }
}

#[tokio::test]
async fn a_chat_model_that_does_not_stream_answers_in_one_delta() {
    let model = FakeFormModel::start().await;
    let server = Server::start(&[("MODEL_URL", &model.url())]).await;
    let mut request = server.client.post(server.chat_url("/v1/waifu"));
    request = request.header("accept", "text/event-stream");
    let response = request.json(&json!({"user_id": "dot", "message": "Hi"})).send().await.unwrap();
    let events = Events { response, buffer: String::new(), started: Instant::now(), comments: 0 };
    let (events, _) = events.all().await;
    let names: Vec<&str> = events.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, ["delta", "done"], "{events:?}");
    assert_eq!(events[0].data["text"], events[1].data["response"]);
    assert_eq!(events[1].data["indices"], json!([0, 1]));
}

#[tokio::test]
async fn a_client_cannot_hold_every_stream() {
    let upstream = FakeStreamingOpenAi::start(30, Duration::from_millis(100)).await;
    let server = server(&upstream, "[runtime]\nmax_streams_per_client = 2\n", &[]).await;
    let open = |client: &'static str, user: &'static str| {
        let request = server
            .client
            .post(server.chat_url("/v1/waifu"))
            .header("accept", "text/event-stream")
            .header("current-user", client)
            .json(&json!({"user_id": user, "message": "a long one"}));
        request.send()
    };
    let first = open("greedy", "u1").await.unwrap();
    let second = open("greedy", "u2").await.unwrap();
    assert_eq!((first.status().as_u16(), second.status().as_u16()), (200, 200));
    let third = open("greedy", "u3").await.unwrap();
    assert_eq!(third.status(), 429);
    let body: Value = third.json().await.unwrap();
    assert_eq!(body["error"]["code"], "too_many_concurrent_streams", "{body}");
    // Another client is not held back by it.
    let other = open("modest", "u1").await.unwrap();
    assert_eq!(other.status(), 200);
    // A stream that ends gives its share back.
    drop(first);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(open("greedy", "u4").await.unwrap().status(), 200);
}

/// `--mode interactive`'s `chat` command prints the reply as it streams and keeps the dialog for the
/// session: the second turn sends the first exchange as history.
#[tokio::test(flavor = "multi_thread")]
async fn the_interactive_chat_command_streams_and_remembers_the_session() {
    let upstream = FakeStreamingOpenAi::start(3, Duration::from_millis(20)).await;
    let home = tempfile::tempdir().unwrap();
    std::fs::write(home.path().join("parlance.toml"), "[chat]\nmodel = \"openai-chat\"\n").unwrap();
    let mut child = crate::common::command(home.path())
        .env("PROVIDER_API_KEY", "sk-test")
        .env("PARLANCE_PLUGIN_OPENAI_CHAT_BASE_URL", upstream.base_url())
        .args(["--mode", "interactive", "--config", "parlance.toml"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write as _;
    child.stdin.take().unwrap().write_all(b"chat Hello there\nchat And then?\nquit\n").unwrap();
    let out = tokio::task::spawn_blocking(move || child.wait_with_output()).await.unwrap().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(text.matches("Waifu: word0 word1 word2 \n").count(), 2, "{text}");
    let requests = upstream.requests.lock().unwrap().clone();
    assert_eq!(requests.len(), 2);
    assert!(requests.iter().all(|r| r["stream"] == true));
    let second: Vec<&str> =
        requests[1]["messages"].as_array().unwrap().iter().map(|m| m["content"].as_str().unwrap()).collect();
    assert_eq!(&second[1..], ["Hello there", "word0 word1 word2 ", "And then?"], "{second:?}");
}

/// The streaming contract in a second language: `builtin:ollama-chat` (JavaScript) decodes Ollama's
/// NDJSON through the same host machinery; a refusal before the first delta falls back, a stream cut
/// without `done` ends with an error.
#[tokio::test]
async fn the_javascript_ollama_chat_model_streams_ndjson() {
    let ollama = crate::common::upstream::FakeOllama::start("Well met, traveller, sit by the fire.").await;
    let home = tempfile::tempdir().unwrap();
    let config = |model: &str| {
        format!(
            "[chat]\nmodel = \"{model}\"\n\n{}",
            ["ollama-chat", "ollama-404", "ollama-cut"]
                .iter()
                .zip(["llama3.2", "fail-404", "cut"])
                .map(|(id, upstream_model)| format!(
                    "[[plugin]]\nid = \"{id}\"\nkind = \"chat-model\"\ncomponent = \"builtin:ollama-chat\"\n\
                     allowed_hosts = [\"{url}\"]\nconfig = {{ base_url = \"{url}\", model = \"{upstream_model}\" }}\n\n",
                    url = ollama.base_url()
                ))
                .collect::<String>()
        )
    };
    std::fs::write(home.path().join("parlance.toml"), config("ollama-chat")).unwrap();
    let server = Server::start_in(home, &[], &["--config", "parlance.toml"]).await;
    let (events, _) = Events::open(&server, "ann", "Greetings", true).await.all().await;
    let names: Vec<&str> = events.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names.last(), Some(&"done"), "{events:?}");
    assert_eq!(names.len(), 8, "seven words and done: {events:?}");
    let done = &events.last().unwrap().data;
    assert_eq!(done["response"], "Well met, traveller, sit by the fire.");
    assert_eq!(done["usage"], json!({"input_tokens": 20, "output_tokens": 7}));
    assert_eq!(done["finish_reason"], "stop");
    assert_eq!(done["indices"], json!([0, 1]));
    let sent = ollama.requests();
    assert_eq!(sent[0]["stream"], true);
    assert_eq!(sent[0]["messages"].as_array().unwrap().last().unwrap()["content"], "Greetings");
    drop(server);

    for (model, last, code) in
        [("ollama-404", "done", None), ("ollama-cut", "error", Some("upstream_unavailable"))]
    {
        let home = tempfile::tempdir().unwrap();
        std::fs::write(home.path().join("parlance.toml"), config(model)).unwrap();
        let server = Server::start_in(home, &[], &["--config", "parlance.toml"]).await;
        let (events, _) = Events::open(&server, "bob", "Hi", true).await.all().await;
        assert_eq!(events.last().unwrap().name, last, "{model}: {events:?}");
        match code {
            None => assert_eq!(events[0].data["fallback"], true, "{events:?}"),
            Some(code) => assert_eq!(events.last().unwrap().data["error"]["code"], code, "{events:?}"),
        }
        assert_eq!(dialog(&server, "bob").await, json!([]));
    }
}

/// Streamed exchanges are stored as plain ones are on PostgreSQL too: two replicas streaming for the
/// same users at once leave whole exchanges at contiguous indices.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn streamed_exchanges_stay_contiguous_on_postgresql_across_replicas() {
    let postgres = crate::common::postgres::TestPostgres::start();
    let url = postgres.fresh_database().await;
    let upstream = FakeStreamingOpenAi::start(3, Duration::from_millis(20)).await;
    let env = [("DATABASE_URL", url.as_str())];
    let replicas = [server(&upstream, "", &env).await, server(&upstream, "", &env).await];
    let replicas = &replicas;
    let turns = (0..30).map(|i| async move {
        let server = &replicas[i % 2];
        Events::open(server, &format!("pg{}", i % 3), &format!("turn {i}"), true).await.all().await
    });
    for (events, _) in futures::future::join_all(turns).await {
        assert_eq!(events.last().unwrap().name, "done", "{events:?}");
    }
    for u in 0..3 {
        for server in replicas {
            let stored = dialog(server, &format!("pg{u}")).await;
            let entries = stored.as_array().unwrap();
            assert_eq!(entries.len(), 20, "{stored}");
            for (i, e) in entries.iter().enumerate() {
                assert_eq!(e["index"], i);
                assert_eq!(e["name"], if i % 2 == 0 { "User" } else { "Waifu" });
            }
        }
    }
}

/// The outbound policy holds for a streamed answer as for a whole one: the size cap counts the whole
/// stream (the reply ends with an error once it is passed), and a destination outside
/// `allowed_hosts` is never contacted (the model failed before writing: the fallback).
#[tokio::test]
async fn the_outbound_policy_applies_to_a_streamed_answer() {
    let upstream = FakeStreamingOpenAi::start(3, Duration::from_millis(5)).await;
    let capped = "[[plugin]]\nid = \"openai-chat\"\nlimits = { max_response_kb = 2 }\n";
    let capped_server = server(&upstream, capped, &[]).await;
    let (events, _) = Events::open(&capped_server, "big", "LONG please", true).await.all().await;
    let last = events.last().unwrap();
    assert_eq!(last.name, "error", "{events:?}");
    assert_eq!(last.data["error"]["code"], "upstream_bad_response", "{events:?}");
    assert!(last.data["error"]["message"].as_str().unwrap().contains("larger than 2048 bytes"), "{events:?}");
    assert!(events.len() > 2, "some deltas came before the cap: {events:?}");
    assert_eq!(dialog(&capped_server, "big").await, json!([]));
    let metrics =
        capped_server.client.get(capped_server.url("/metrics")).send().await.unwrap().text().await.unwrap();
    assert!(
        metrics.contains("parlance_streams_cancelled_total{plugin=\"openai-chat\",cause=\"limit\"} 1"),
        "{metrics}"
    );
    drop(capped_server);

    let fenced = "[[plugin]]\nid = \"openai-chat\"\nallowed_hosts = [\"http://127.0.0.1:1\"]\n";
    let fenced_server = server(&upstream, fenced, &[]).await;
    let before = upstream.requests.lock().unwrap().len();
    let (events, _) = Events::open(&fenced_server, "fenced", "Hello", true).await.all().await;
    assert_eq!(events[0].data, json!({"text": DEFAULT_RESPONSE, "fallback": true}), "{events:?}");
    assert_eq!(upstream.requests.lock().unwrap().len(), before, "the upstream was never contacted");
}
