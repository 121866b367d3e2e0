//! Usage and spend end to end: upstream fakes that report known token counts (and one answer that
//! reports none), priced and unpriced models, every call recorded once in the ledger and summed to the
//! token and to the exact decimal; what each surface records (REST, batch, candidates, a fallback's
//! failed attempt, the OpenAI surface streamed, the command line); `GET /usage` confined to the caller
//! (a key to itself, a client to itself) and `parlance usage` seeing all; `/metrics` counting tokens
//! and spend.

use crate::common::{self, server::Server};
use common::upstream::{FakeOpenAi, FakeStreamingOpenAi};
use serde_json::{Value, json};
use std::time::Duration;

/// Every completion of `FakeOpenAi` reports 10 prompt tokens and 5 completion tokens.
const IN: u64 = 10;
const OUT: u64 = 5;

/// `priced` and `unpriced` on the same fake; `flaky` asks it for a model that always fails and falls
/// back to `priced`.
fn config(base_url: &str) -> String {
    let origin = base_url.trim_end_matches("/v1");
    let provider = |id: &str, extra: &str| {
        format!(
            "[[plugin]]\nid = \"{id}\"\nkind = \"provider\"\ncomponent = \"builtin:openai\"\n\
             allowed_hosts = [\"{origin}\"]\nrate_limit_per_minute = 0\n{extra}\
             config = {{ base_url = \"{base_url}\", api_key = \"k\" }}\n\n"
        )
    };
    [
        "[chat]\nmodel = \"openai-chat\"\n\n".to_owned(),
        provider("priced", ""),
        // After the table's own keys: a sub-table ends them.
        "[plugin.prices.\"gpt-4o-mini\"]\ninput = \"0.15\"\noutput = 0.6\nrequest = \"0.0001\"\n\n"
            .to_owned(),
        provider("unpriced", ""),
        provider("flaky", "fallbacks = [\"priced\"]\n"),
        "[[plugin]]\nid = \"openai-chat\"\nrate_limit_per_minute = 0\n\n\
         [plugin.prices.\"*\"]\ninput = 1\noutput = 2\n\n"
            .to_owned(),
    ]
    .concat()
}

async fn start(upstream: &FakeOpenAi, chat: &FakeStreamingOpenAi, env: &[(&str, &str)]) -> Server {
    start_in(tempfile::tempdir().unwrap(), upstream, chat, env).await
}

/// [`start`] in `home`, whose files (the store, the spool) may be an earlier server's.
async fn start_in(
    home: tempfile::TempDir,
    upstream: &FakeOpenAi,
    chat: &FakeStreamingOpenAi,
    env: &[(&str, &str)],
) -> Server {
    std::fs::write(home.path().join("parlance.toml"), config(&upstream.base_url())).unwrap();
    let chat_url = chat.base_url();
    let mut all = vec![
        ("PROVIDER_API_KEY", "sk-test"),
        ("PARLANCE_PLUGIN_OPENAI_CHAT_BASE_URL", chat_url.as_str()),
        ("CACHE_TYPE", "memory"),
    ];
    all.extend_from_slice(env);
    Server::start_in(home, &all, &["--config", "parlance.toml"]).await
}

async fn post(s: &Server, path: &str, client: &str, body: Value) -> Value {
    let r = s.client.post(s.url(path)).header("current-user", client).json(&body).send().await.unwrap();
    let status = r.status();
    let body: Value = r.json().await.unwrap();
    assert!(status.is_success(), "{path}: {status} {body}");
    body
}

async fn usage(s: &Server, client: &str, query: &str) -> Value {
    let r =
        s.client.get(s.url(&format!("/usage?{query}"))).header("current-user", client).send().await.unwrap();
    assert_eq!(r.status(), 200);
    r.json().await.unwrap()
}

/// The group of `report` whose values are `group`.
fn group(report: &Value, group: Value) -> &Value {
    report["groups"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["group"] == group)
        .unwrap_or_else(|| panic!("no group {group} in {report}"))
}

#[tokio::test(flavor = "multi_thread")]
async fn every_call_is_recorded_once_to_the_token_and_priced_exactly() {
    let upstream = FakeOpenAi::start("An upstream answer.").await;
    let chat = FakeStreamingOpenAi::start(4, Duration::from_millis(5)).await;
    let s = start(&upstream, &chat, &[]).await;
    let text = |i: usize| format!("The committee will decide about proposal number {i} tomorrow.");

    // Three priced calls, and one answered from the cache, which calls nothing.
    for i in 0..3 {
        post(&s, "/paraphrase", "acme", json!({"text": text(i), "provider": "priced"})).await;
    }
    let cached = post(&s, "/paraphrase", "acme", json!({"text": text(0), "provider": "priced"})).await;
    assert_eq!(cached["cached"], true);
    // Two unpriced calls: their tokens, and no cost.
    for i in 0..2 {
        post(&s, "/paraphrase", "acme", json!({"text": text(10 + i), "provider": "unpriced"})).await;
    }
    // A batch of two, on its own surface.
    post(&s, "/paraphrase/batch", "acme", json!({"texts": [text(20), text(21)], "provider": "priced"})).await;
    // Three candidates from one request with `n`: one call, its usage once.
    let candidates =
        post(&s, "/paraphrase", "acme", json!({"text": text(30), "provider": "priced", "candidates": 3}))
            .await;
    assert!(candidates["candidates"].as_array().is_some_and(|c| !c.is_empty()), "{candidates}");
    // A chain: `flaky` fails (its upstream reports nothing), then `priced` serves.
    let served =
        post(&s, "/paraphrase", "acme", json!({"text": text(40), "provider": "flaky", "model": "fail-503"}))
            .await;
    assert_eq!(served["provider"], "priced", "{served}");
    // Another client's call.
    post(&s, "/paraphrase", "other", json!({"text": text(50), "provider": "priced"})).await;
    // The OpenAI surface, streamed with usage: 11 prompt tokens and 4 completion tokens.
    let completion = s
        .client
        .post(s.url("/v1/chat/completions"))
        .header("current-user", "acme")
        .json(&json!({"model": "openai-chat", "stream": true, "stream_options": {"include_usage": true},
            "messages": [{"role": "user", "content": "Hello"}]}))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(completion.contains("\"prompt_tokens\":11"), "{completion}");

    let report = usage(&s, "acme", "group_by=plugin,model,surface").await;
    let priced_rest = group(&report, json!({"plugin": "priced", "model": "gpt-4o-mini", "surface": "rest"}));
    // 3 + the candidates' one + the chain's one; each 10 in, 5 out, at 0.15 and 0.60 per million and
    // 0.0001 a request: 0.0000015 + 0.000003 + 0.0001 = 0.0001045.
    assert_eq!(priced_rest["calls"], 5, "{report}");
    assert_eq!(
        (priced_rest["input_tokens"].as_u64(), priced_rest["output_tokens"].as_u64()),
        (Some(5 * IN), Some(5 * OUT))
    );
    assert_eq!(priced_rest["cost"], "0.0005225", "{priced_rest}");
    let batch = group(&report, json!({"plugin": "priced", "model": "gpt-4o-mini", "surface": "batch"}));
    assert_eq!((batch["calls"].as_u64(), batch["cost"].as_str()), (Some(2), Some("0.000209")), "{batch}");
    let unpriced = group(&report, json!({"plugin": "unpriced", "model": "gpt-4o-mini", "surface": "rest"}));
    assert_eq!(unpriced["input_tokens"].as_u64(), Some(2 * IN));
    assert_eq!((unpriced["cost"].clone(), unpriced["unpriced_calls"].as_u64()), (Value::Null, Some(2)));
    let flaky = group(&report, json!({"plugin": "flaky", "model": "fail-503", "surface": "rest"}));
    assert_eq!((flaky["calls"].as_u64(), flaky["failed_calls"].as_u64()), (Some(1), Some(1)), "{flaky}");
    assert_eq!(flaky["unreported_calls"], 1, "{flaky}");
    // The chat model is priced for any model at 1 and 2 per million: 11 and 4 tokens.
    let model = "deepseek/deepseek-chat-v3-0324:free";
    let streamed = group(&report, json!({"plugin": "openai-chat", "model": model, "surface": "openai"}));
    assert_eq!((streamed["input_tokens"].as_u64(), streamed["output_tokens"].as_u64()), (Some(11), Some(4)));
    assert_eq!(streamed["cost"], "0.000019", "{streamed}");
    // The metrics the candidates were scored with used nothing, and say so.
    let lexical = group(&report, json!({"plugin": "lexical", "model": "", "surface": "rest"}));
    assert_eq!((lexical["input_tokens"].as_u64(), lexical["cost"].as_str()), (Some(0), Some("0")));
    // The other client's call is not acme's, and the ledger matches what the upstream was sent.
    let requests = upstream.requests().len() as u64;
    let all_priced = usage(&s, "other", "group_by=plugin").await;
    assert_eq!(group(&all_priced, json!({"plugin": "priced"}))["calls"], 1, "{all_priced}");
    assert_eq!(
        priced_rest["calls"].as_u64().unwrap()
            + batch["calls"].as_u64().unwrap()
            + unpriced["calls"].as_u64().unwrap()
            + flaky["calls"].as_u64().unwrap()
            + 1,
        requests,
        "one record per upstream request"
    );
    // A client reads only its own.
    let refused =
        s.client.get(s.url("/usage?client=other")).header("current-user", "acme").send().await.unwrap();
    assert_eq!(refused.status(), 403);
    let bad = s.client.get(s.url("/usage?group_by=user")).send().await.unwrap();
    assert_eq!(bad.status(), 422);
    assert!(bad.text().await.unwrap().contains("key, client, plugin, model, surface, day"));

    // `/providers` says which default models are priced, and at what.
    let providers: Value = s.client.get(s.url("/providers")).send().await.unwrap().json().await.unwrap();
    let entry =
        |id: &str| providers["providers"].as_array().unwrap().iter().find(|p| p["id"] == id).unwrap().clone();
    assert_eq!(entry("priced")["pricing"], "priced");
    assert_eq!(
        entry("priced")["prices"]["gpt-4o-mini"],
        json!({"input": "0.15", "output": "0.6", "request": "0.0001"})
    );
    assert_eq!(
        (entry("unpriced")["pricing"].as_str(), entry("offline")["pricing"].as_str()),
        (Some("unpriced"), Some("free"))
    );

    let metrics = s.client.get(s.url("/metrics")).send().await.unwrap().text().await.unwrap();
    let line = "parlance_plugin_tokens_total{plugin=\"priced\",model=\"gpt-4o-mini\",direction=\"input\"} 80";
    assert!(metrics.contains(line), "{metrics}");
    assert!(
        metrics.contains("parlance_plugin_unpriced_calls_total{plugin=\"unpriced\",model=\"gpt-4o-mini\"} 2")
    );

    // The command line reads the same ledger, every client.
    let out = common::command(s.home.path())
        .env("DATABASE_FILE", s.home.path().join("dialogs.db"))
        .args(["usage", "--group-by", "client,plugin", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let cli: Value = serde_json::from_slice(&out.stdout).unwrap();
    let acme_priced = group(&cli, json!({"client": "acme", "plugin": "priced"}));
    assert_eq!(acme_priced["cost"], "0.0007315", "{cli}");
    let csv = common::command(s.home.path())
        .env("DATABASE_FILE", s.home.path().join("dialogs.db"))
        .args(["usage", "--group-by", "client", "--csv"])
        .output()
        .unwrap();
    let csv = String::from_utf8(csv.stdout).unwrap();
    assert!(csv.starts_with("CLIENT,CALLS,FAILED,"), "{csv}");
    assert!(csv.lines().any(|l| l.starts_with("other,1,0,10,5,0,0.0001045,0")), "{csv}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_key_reads_only_its_own_usage() {
    let upstream = FakeOpenAi::start("An upstream answer.").await;
    let chat = FakeStreamingOpenAi::start(2, Duration::from_millis(5)).await;
    let home = tempfile::tempdir().unwrap();
    common::create_store(&home.path().join("dialogs.db"));
    let key = |name: &str| {
        let out = common::command(home.path())
            .env("DATABASE_FILE", home.path().join("dialogs.db"))
            .args(["keys", "create", "--name", name, "--client", "acme", "--json"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let created: Value = serde_json::from_slice(&out.stdout).unwrap();
        (created["key"].as_str().unwrap().to_owned(), created["id"].as_str().unwrap().to_owned())
    };
    let ((a, a_id), (b, b_id)) = (key("a"), key("b"));
    std::fs::write(home.path().join("parlance.toml"), config(&upstream.base_url())).unwrap();
    let chat_url = chat.base_url();
    let env = [
        ("PROVIDER_API_KEY", "sk-test"),
        ("PARLANCE_PLUGIN_OPENAI_CHAT_BASE_URL", chat_url.as_str()),
        ("PARLANCE_API_KEYS", "required"),
        ("PARLANCE_ADMIN_TOKEN", "an-admin-credential-of-some-length"),
    ];
    let s = Server::start_in(home, &env, &["--config", "parlance.toml"]).await;
    let paraphrase = |key: String, i: usize| {
        let r = s.client.post(s.url("/paraphrase")).bearer_auth(key).json(
            &json!({"text": format!("Sentence number {i} is here."), "provider": "priced", "skip_cache": true}),
        );
        async move { assert!(r.send().await.unwrap().status().is_success()) }
    };
    for i in 0..3 {
        paraphrase(a.clone(), i).await;
    }
    paraphrase(b.clone(), 9).await;
    // A streamed chat is read after its handler has returned, and is still the key's.
    let streamed = s
        .client
        .post(s.chat_url("/v1/waifu"))
        .bearer_auth(&b)
        .json(&json!({"user_id": "ann", "message": "Hello there", "stream": true}))
        .send()
        .await
        .unwrap();
    assert_eq!(streamed.status(), 200);
    let events = streamed.text().await.unwrap();
    assert!(events.contains("event: done"), "{events}");
    let read = |key: &str, query: &str| {
        let r = s.client.get(s.url(&format!("/usage?{query}"))).bearer_auth(key);
        async move {
            let r = r.send().await.unwrap();
            (r.status().as_u16(), r.json::<Value>().await.unwrap())
        }
    };
    let (status, mine) = read(&a, "group_by=key").await;
    assert_eq!(status, 200, "{mine}");
    assert_eq!(mine["groups"].as_array().unwrap().len(), 1, "{mine}");
    assert_eq!(group(&mine, json!({"key": a_id}))["calls"], 3);
    let (status, theirs) = read(&b, "group_by=plugin").await;
    assert_eq!((status, theirs["total"]["calls"].as_u64()), (200, Some(2)), "{theirs}");
    assert_eq!(group(&theirs, json!({"plugin": "openai-chat"}))["calls"], 1, "{theirs}");
    let (status, refused) = read(&a, &format!("key={b_id}")).await;
    assert_eq!((status, refused["error"]["code"].as_str()), (403, Some("forbidden")), "{refused}");
    let unauthenticated = s.client.get(s.url("/usage")).send().await.unwrap();
    assert_eq!(unauthenticated.status(), 401);
    // The admin reads every key's, and may pick one.
    let (status, all) = read("an-admin-credential-of-some-length", "group_by=key").await;
    assert_eq!((status, all["total"]["calls"].as_u64()), (200, Some(5)), "{all}");
    assert_eq!(group(&all, json!({"key": b_id}))["calls"], 2);
    let (_, one) = read("an-admin-credential-of-some-length", &format!("key={a_id}")).await;
    assert_eq!(one["total"]["calls"], 3, "{one}");
}

/// A key with `options` (`--budget`, `--tokens-per-minute`) for client `acme`, created in `home`'s store.
fn limited_key(home: &std::path::Path, options: &[&str]) -> String {
    let out = common::command(home)
        .env("DATABASE_FILE", home.join("dialogs.db"))
        .args(["keys", "create", "--name", "limited", "--client", "acme", "--json"])
        .args(options)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let created: Value = serde_json::from_slice(&out.stdout).unwrap();
    created["key"].as_str().unwrap().to_owned()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_key_over_its_budget_is_refused_before_any_upstream_call() {
    let upstream = FakeOpenAi::start("An upstream answer.").await;
    let chat = FakeStreamingOpenAi::start(2, Duration::from_millis(5)).await;
    let home = tempfile::tempdir().unwrap();
    common::create_store(&home.path().join("dialogs.db"));
    // Each call costs 0.0001045 and reserves about 0.00016 (its input bounded by its bytes, its output
    // by `max_tokens`): two fit in 0.0003, a third would not.
    let key = limited_key(home.path(), &["--budget", "0.0003/day"]);
    let tight = limited_key(home.path(), &["--tokens-per-minute", "100"]);
    let once = limited_key(home.path(), &["--requests-per-minute", "1"]);
    let config =
        config(&upstream.base_url()).replace("api_key = \"k\" }", "api_key = \"k\", max_tokens = 10 }");
    std::fs::write(home.path().join("parlance.toml"), config).unwrap();
    let chat_url = chat.base_url();
    let env = [
        ("PROVIDER_API_KEY", "sk-test"),
        ("PARLANCE_PLUGIN_OPENAI_CHAT_BASE_URL", chat_url.as_str()),
        ("PARLANCE_API_KEYS", "required"),
    ];
    let s = Server::start_in(home, &env, &["--config", "parlance.toml"]).await;
    let paraphrase = |key: &str, i: usize| {
        let r = s.client.post(s.url("/paraphrase")).bearer_auth(key).json(
            &json!({"text": format!("Sentence number {i} is here."), "provider": "priced", "skip_cache": true}),
        );
        async move {
            let r = r.send().await.unwrap();
            let warning = r.headers().get("parlance-budget-warning").map(|v| v.to_str().unwrap().to_owned());
            (r.status().as_u16(), r.json::<Value>().await.unwrap(), warning)
        }
    };
    let (status, body, warning) = paraphrase(&key, 0).await;
    assert_eq!((status, warning), (200, None), "{body}");
    // Past 80 % of the budget, counting what the call holds, the answer says so.
    let (status, body, warning) = paraphrase(&key, 1).await;
    assert_eq!(status, 200, "{body}");
    let warning = warning.expect("a warning near the limit");
    assert!(warning.contains("of the day budget of 0.0003 is spent or held; it resets at"), "{warning}");
    let sent = upstream.requests().len();
    let (status, body, _) = paraphrase(&key, 2).await;
    assert_eq!((status, body["error"]["code"].as_str()), (429, Some("budget_exceeded")), "{body}");
    let message = body["error"]["message"].as_str().unwrap();
    assert!(message.contains("day budget of 0.0003") && message.contains("0.000209 spent"), "{message}");
    assert!(message.contains("resets at") && message.contains("T00:00:00Z"), "{message}");
    assert_eq!(upstream.requests().len(), sent, "a refused call reaches no upstream");
    // The OpenAI surface refuses it in OpenAI's shape.
    let completion = s
        .client
        .post(s.url("/v1/chat/completions"))
        .bearer_auth(&key)
        .json(&json!({"model": "openai-chat", "messages": [{"role": "user", "content": "Hello"}]}))
        .send()
        .await
        .unwrap();
    assert_eq!(completion.status(), 429);
    let body: Value = completion.json().await.unwrap();
    assert_eq!(
        (body["error"]["code"].as_str(), body["error"]["type"].as_str()),
        (Some("budget_exceeded"), Some("rate_limit_error"))
    );
    // The chat API refuses it too, whole and streamed, rather than answering DEFAULT_RESPONSE for a model
    // that never failed; nothing is stored.
    let waifu = |stream: bool| {
        s.client
            .post(s.chat_url("/v1/waifu"))
            .bearer_auth(&key)
            .json(&json!({"user_id": "ann", "message": "Hello", "stream": stream}))
            .send()
    };
    let whole = waifu(false).await.unwrap();
    assert_eq!(whole.status(), 429);
    let body: Value = whole.json().await.unwrap();
    assert_eq!(body["error"]["code"], "budget_exceeded", "{body}");
    let events = waifu(true).await.unwrap().text().await.unwrap();
    assert!(events.contains("event: error") && events.contains("budget_exceeded"), "{events}");
    assert!(!events.contains("event: delta"), "{events}");
    // The offline provider costs nothing and still serves.
    let offline = s
        .client
        .post(s.url("/paraphrase"))
        .bearer_auth(&key)
        .json(&json!({"text": "Another sentence.", "provider": "offline"}))
        .send()
        .await
        .unwrap();
    assert_eq!(offline.status(), 200);
    // Tokens per minute: a call that may use more than the minute's 100 tokens is refused.
    let (status, body, _) = paraphrase(&tight, 3).await;
    assert_eq!((status, body["error"]["code"].as_str()), (429, Some("budget_exceeded")), "{body}");
    assert!(body["error"]["message"].as_str().unwrap().contains("100 tokens per minute"), "{body}");
    // Requests per minute: one upstream call, then a refusal until the minute ends.
    let (status, body, _) = paraphrase(&once, 4).await;
    assert_eq!(status, 200, "{body}");
    let (status, body, _) = paraphrase(&once, 5).await;
    assert_eq!((status, body["error"]["code"].as_str()), (429, Some("budget_exceeded")), "{body}");
    assert!(body["error"]["message"].as_str().unwrap().contains("1 requests per minute"), "{body}");
}

/// A client's own limits hold every one of its keys (set by `parlance keys client`, read and cleared
/// over the admin API); an async job's items count against the key that created the job, and an item
/// over its budget fails alone with `budget_exceeded` while the job goes on.
#[tokio::test(flavor = "multi_thread")]
async fn a_client_limit_holds_all_its_keys_and_a_job_item_over_budget_fails_alone() {
    let upstream = FakeOpenAi::start("An upstream answer.").await;
    let chat = FakeStreamingOpenAi::start(2, Duration::from_millis(5)).await;
    let home = tempfile::tempdir().unwrap();
    common::create_store(&home.path().join("dialogs.db"));
    let (first, second) = (limited_key(home.path(), &[]), limited_key(home.path(), &[]));
    let set = common::command(home.path())
        .env("DATABASE_FILE", home.path().join("dialogs.db"))
        .args(["keys", "client", "acme", "--requests-per-minute", "2"])
        .output()
        .unwrap();
    assert!(set.status.success(), "{}", String::from_utf8_lossy(&set.stderr));
    assert_eq!(String::from_utf8_lossy(&set.stdout).trim(), "client \"acme\": 2 requests/min");
    let out = common::command(home.path())
        .env("DATABASE_FILE", home.path().join("dialogs.db"))
        .args(["keys", "create", "--name", "jobs", "--client", "solo", "--budget", "0.0003/day", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let created: Value = serde_json::from_slice(&out.stdout).unwrap();
    let (job_key, job_key_id) = (created["key"].as_str().unwrap(), created["id"].as_str().unwrap());
    let config =
        config(&upstream.base_url()).replace("api_key = \"k\" }", "api_key = \"k\", max_tokens = 10 }");
    std::fs::write(home.path().join("parlance.toml"), config).unwrap();
    let chat_url = chat.base_url();
    let admin = "an-admin-credential-of-some-length";
    let env = [
        ("PROVIDER_API_KEY", "sk-test"),
        ("PARLANCE_PLUGIN_OPENAI_CHAT_BASE_URL", chat_url.as_str()),
        ("PARLANCE_API_KEYS", "required"),
        ("PARLANCE_ADMIN_TOKEN", admin),
    ];
    let s = Server::start_in(home, &env, &["--config", "parlance.toml"]).await;
    let send = |method: reqwest::Method, path: &str, key: &str, body: Option<Value>| {
        let mut r = s.client.request(method, s.url(path)).bearer_auth(key);
        if let Some(body) = body {
            r = r.json(&body);
        }
        async move {
            let r = r.send().await.unwrap();
            (r.status().as_u16(), r.json::<Value>().await.unwrap())
        }
    };
    let paraphrase = |key: &str, i: usize| {
        let body = json!({"text": format!("Sentence number {i} is here."), "provider": "priced"});
        send(reqwest::Method::POST, "/paraphrase", key, Some(body))
    };

    // Two upstream calls this minute for the client, whichever of its keys makes them.
    assert_eq!(paraphrase(&first, 0).await.0, 200);
    assert_eq!(paraphrase(&second, 1).await.0, 200);
    let sent = upstream.requests().len();
    let (status, body) = paraphrase(&first, 2).await;
    assert_eq!((status, body["error"]["code"].as_str()), (429, Some("budget_exceeded")), "{body}");
    let message = body["error"]["message"].as_str().unwrap();
    assert!(message.contains("the client \"acme\" is over its 2 requests per minute"), "{message}");
    assert_eq!(upstream.requests().len(), sent, "a refused call reaches no upstream");
    // Another client is not held to it.
    assert_eq!(paraphrase(job_key, 3).await.0, 200);

    // The admin API shows the client's limits and changes them; a client key may not.
    let (status, listed) = send(reqwest::Method::GET, "/admin/clients", admin, None).await;
    assert_eq!(status, 200, "{listed}");
    assert_eq!(
        listed["clients"],
        json!([{"client": "acme", "budgets": [], "tokens_per_minute": null, "requests_per_minute": 2}])
    );
    let change = json!({"requests_per_minute": null, "budgets": [{"amount": "5", "period": "month"}]});
    let (status, changed) =
        send(reqwest::Method::PATCH, "/admin/clients/acme", admin, Some(change.clone())).await;
    assert_eq!(status, 200, "{changed}");
    assert_eq!(
        (changed["requests_per_minute"].clone(), changed["budgets"][0]["amount"].clone()),
        (Value::Null, json!("5"))
    );
    let (status, refused) = send(reqwest::Method::PATCH, "/admin/clients/acme", &first, Some(change)).await;
    assert_eq!((status, refused["error"]["code"].as_str()), (403, Some("not_admin")), "{refused}");
    let bad = json!({"budgets": [{"amount": "1", "period": "day"}, {"amount": "2", "period": "day"}]});
    let (status, refused) = send(reqwest::Method::PATCH, "/admin/clients/acme", admin, Some(bad)).await;
    assert_eq!((status, refused["error"]["code"].as_str()), (422, Some("invalid_input")), "{refused}");

    // The job's key has spent one call's 0.0001045 of its 0.0003; four more texts, one at a time in
    // whatever order the runner takes them: at most one more fits beside what each call reserves.
    let texts: Vec<String> = (10..14).map(|i| format!("Sentence number {i} is here.")).collect();
    let body = json!({"texts": texts, "provider": "priced", "skip_cache": true});
    let (status, job) = send(reqwest::Method::POST, "/paraphrase/batch/async", job_key, Some(body)).await;
    assert_eq!(status, 202, "{job}");
    let path = format!("/jobs/{}", job["job_id"].as_str().unwrap());
    let started = std::time::Instant::now();
    let done = loop {
        let (_, view) = send(reqwest::Method::GET, &path, job_key, None).await;
        if view["status"] == "completed" {
            break view;
        }
        assert!(started.elapsed() < Duration::from_secs(30), "the job did not complete: {view}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let (ok, failed) = (done["successful"].as_u64().unwrap(), done["failed"].as_u64().unwrap());
    assert!(ok >= 1 && failed >= 2 && ok + failed == 4, "{done}");
    for error in done["errors"].as_array().unwrap() {
        assert_eq!(error["error"]["code"], "budget_exceeded", "{done}");
        assert!(error["error"]["message"].as_str().unwrap().contains("day budget of 0.0003"), "{done}");
    }
    // Its calls are the key's, on the job surface.
    let (status, report) =
        send(reqwest::Method::GET, &format!("/usage?group_by=surface&key={job_key_id}"), admin, None).await;
    assert_eq!(status, 200, "{report}");
    assert_eq!(group(&report, json!({"surface": "job"}))["calls"].as_u64(), Some(ok), "{report}");
    assert_eq!(group(&report, json!({"surface": "rest"}))["calls"].as_u64(), Some(1), "{report}");
}

/// A server answers once a call's record is in its spool, not in the ledger: killed (SIGKILL) right
/// after its answers, it loses none of them, since the next server on the same files replays them;
/// and a server stopped as an orchestrator stops it commits everything and leaves no spool behind.
#[tokio::test(flavor = "multi_thread")]
async fn a_server_killed_after_answering_loses_no_record() {
    let (upstream, chat) =
        (FakeOpenAi::start("An answer.").await, FakeStreamingOpenAi::start(3, Duration::ZERO).await);
    let s = start(&upstream, &chat, &[]).await;
    let spool = s.home().join("dialogs.db-usage");
    // The lines before a segment's reserved zeros, less its header.
    let spooled = || -> usize {
        std::fs::read_dir(&spool)
            .unwrap()
            .map(|e| {
                let bytes = std::fs::read(e.unwrap().path()).unwrap();
                bytes.iter().take_while(|&&b| b != 0).filter(|&&b| b == b'\n').count() - 1
            })
            .sum()
    };
    for i in 0..12 {
        let text = format!("Spooled sentence {i}.");
        post(&s, "/paraphrase", "spooled", json!({"text": text, "provider": "priced", "skip_cache": true}))
            .await;
        // Each answer comes after its record is in the kernel's hands.
        assert_eq!(spooled(), i + 1);
    }
    let home = s.killed_home();
    let segments: Vec<_> = std::fs::read_dir(&spool).unwrap().map(|e| e.unwrap().path()).collect();
    assert_eq!(segments.len(), 1, "{segments:?}");

    // Some of the records may have been committed before the kill: replayed, they count once.
    let mut again = start_in(home, &upstream, &chat, &[]).await;
    let total = usage(&again, "spooled", "").await["total"].clone();
    assert_eq!(total["calls"], 12, "{total}");
    assert_eq!(
        (total["input_tokens"].as_u64(), total["output_tokens"].as_u64()),
        (Some(12 * IN), Some(12 * OUT))
    );
    let cost: rust_decimal::Decimal = total["cost"].as_str().unwrap().parse().unwrap();
    assert_eq!(cost, rust_decimal::Decimal::new(1045, 7) * rust_decimal::Decimal::from(12), "{total}");
    assert!(!segments[0].exists(), "the replayed segment is deleted");
    let status = again.terminate();
    assert!(status.success(), "{status}");
    assert_eq!(std::fs::read_dir(&spool).unwrap().count(), 0, "a clean stop leaves no spool");
}
