//! The OpenAI-compatible surface driven by the official OpenAI clients, the `openai` package from PyPI
//! (`tests/openai-py/clients.py`) and from npm (`tests/openai-js/clients.mjs`), both pinned and
//! installed by `scripts/setup.sh --tests`, against a server with API keys required in front of a
//! streaming OpenAI fake: models, create (plain, streaming, with usage), each typed exception, a
//! failure after the first chunk, a disconnect mid-stream (the upstream connection closes), another
//! key's client with its own rate limit, and stored dialogs. The scripts check what the clients see;
//! this test checks what they cannot: the upstream and the store.

use crate::common::{self, server::Server, upstream::FakeStreamingOpenAi};
use serde_json::{Value, json};
use std::time::{Duration, Instant};

/// `openai-chat` on the fake; `limited`, the same component allowed one call a minute per client;
/// `keyless`, one whose API key is not set. Dialogs hold 4 entries, so a user's third exchange is a
/// conflict.
async fn server(upstream: &FakeStreamingOpenAi) -> (Server, [String; 4]) {
    let home = tempfile::tempdir().unwrap();
    let base = upstream.base_url();
    let origin = format!("http://{}", upstream.addr);
    let plugin = |id: &str, extra: &str| {
        format!(
            "[[plugin]]\nid = \"{id}\"\nkind = \"chat-model\"\ncomponent = \"builtin:openai-chat\"\n\
             allowed_hosts = [\"{origin}\"]\nconfig = {{ base_url = \"{base}\", model = \"fake\" }}\n{extra}\n"
        )
    };
    let config = format!(
        "[chat]\nmodel = \"openai-chat\"\nmax_history_entries = 4\n\n[openai]\nstore_dialogs = true\n\n\
         [[plugin]]\nid = \"openai-chat\"\nrate_limit_per_minute = 0\n\n{}{}",
        plugin("limited", "rate_limit_per_minute = 1"),
        plugin("keyless", "secrets = { api_key = { env = \"PARLANCE_TEST_NEVER_SET\" } }"),
    );
    std::fs::write(home.path().join("parlance.toml"), config).unwrap();
    let keys = ["py", "py-other", "js", "js-other"].map(|client| common::key(home.path(), client));
    let database = home.path().join("dialogs.db");
    let env = [
        ("PARLANCE_API_KEYS", "required"),
        ("DATABASE_FILE", database.to_str().unwrap()),
        ("PROVIDER_API_KEY", "sk-test"),
        ("PARLANCE_PLUGIN_OPENAI_CHAT_BASE_URL", base.as_str()),
    ];
    (Server::start_in(home, &env, &["--config", "parlance.toml"]).await, keys)
}

/// Waits for the upstream to see one more stream closed early, within `within` of `since`.
async fn upstream_closed(upstream: &FakeStreamingOpenAi, before: usize, within: Duration) -> bool {
    let started = Instant::now();
    while started.elapsed() < within {
        if upstream.closed_early.lock().unwrap().len() > before {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    false
}

async fn dialog(server: &Server, key: &str, user: &str) -> Value {
    let url = server.chat_url(&format!("/v1/user/dialog/json/{user}"));
    server.client.get(url).bearer_auth(key).send().await.unwrap().json().await.unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn the_official_clients_drive_the_chat_models() {
    let upstream = FakeStreamingOpenAi::start(5, Duration::from_millis(30)).await;
    let (server, [py, py_other, js, js_other]) = server(&upstream).await;
    let base_url = format!("{}/v1", server.url(""));

    let closed = upstream.closed_early.lock().unwrap().len();
    let script = common::repo().join("tests/openai-py/clients.py");
    let summary = common::run_script(&common::python(), &script, &[&base_url, &py, &py_other]);
    // The client closed a 40-word reply after two chunks (≈ 1.2 s early): the upstream saw it close.
    assert!(upstream_closed(&upstream, closed, Duration::from_secs(2)).await, "{summary}");
    assert_eq!(summary["cut_off_code"], "upstream_unavailable", "{summary}");

    // What the generation fields became upstream: the first create asked for all of them.
    let requests = upstream.requests.lock().unwrap().clone();
    let first = requests.iter().find(|r| r["seed"] == 7).expect("the seeded request reached the upstream");
    assert_eq!(
        (&first["max_tokens"], &first["temperature"], &first["top_p"], &first["stop"]),
        (&json!(50), &json!(0.5), &json!(f64::from(0.9f32)), &json!(["END"])),
        "{first}"
    );
    assert!(first["messages"][0]["content"].as_str().unwrap().contains("Be brief."), "{first}");

    // Stored: the plain exchange, then the streamed one, contiguous, in the key's client only.
    let stored = dialog(&server, &py, "py-user").await;
    let entries: Vec<(u64, &str)> = stored["dialog"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["index"].as_u64().unwrap(), e["name"].as_str().unwrap()))
        .collect();
    assert_eq!(entries, [(0, "User"), (1, "Assistant"), (2, "User"), (3, "Assistant")], "{stored}");
    assert_eq!(stored["dialog"][1]["message"], "word0 word1 word2 word3 word4 ");
    assert_eq!(dialog(&server, &js, "py-user").await["error"]["code"], "not_found");

    let closed = upstream.closed_early.lock().unwrap().len();
    let script = common::repo().join("tests/openai-js/clients.mjs");
    common::run_script("node", &script, &[&base_url, &js, &js_other]);
    assert!(upstream_closed(&upstream, closed, Duration::from_secs(2)).await);
    assert_eq!(dialog(&server, &js, "js-full").await["dialog"].as_array().unwrap().len(), 4);

    // On the wire: `data:` chunks and `data: [DONE]` last; a reply cut off after its first chunk ends
    // with an error object and no `[DONE]`.
    let raw = |content: &str| {
        let body = json!({"model": "openai-chat", "stream": true, "messages": [{"role": "user", "content": content}]});
        let request = server.client.post(server.url("/v1/chat/completions")).bearer_auth(&py).json(&body);
        async move { request.send().await.unwrap().text().await.unwrap() }
    };
    let whole = raw("Hello").await;
    assert!(whole.starts_with("data: {") && whole.ends_with("data: [DONE]\n\n"), "{whole}");
    let cut = raw("DIE").await;
    let last = cut.trim_end().lines().last().unwrap();
    assert!(!cut.contains("[DONE]") && last.starts_with("data: {\"error\":"), "{cut}");

    // Every refusal was counted under its route and status, and the rate limit under its model.
    let metrics = server.client.get(server.url("/metrics")).bearer_auth(&py).send().await.unwrap();
    let metrics = metrics.text().await.unwrap();
    for status in [200, 400, 403, 404, 409, 422, 429, 502, 503] {
        let series = format!("route=\"/v1/chat/completions\",method=\"POST\",status=\"{status}\"");
        assert!(metrics.lines().any(|l| l.contains(&series) && !l.ends_with(" 0")), "{series}");
    }
    assert!(metrics.contains("parlance_rate_limit_rejections_total{provider=\"limited\"} 2"), "{metrics}");
}
