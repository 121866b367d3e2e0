//! The paraphrase REST API against the real binary: shapes, errors, the cache (memory and a real
//! Redis), rate limits, batches, operations routes and the OpenAPI documents.

use crate::common::server::{Redis, Server};
use crate::common::upstream::FakeOpenAi;
use serde_json::{Value, json};
use std::time::Duration;

async fn post(server: &Server, path: &str, body: Value) -> (u16, Value, reqwest::header::HeaderMap) {
    let r = server.client.post(server.url(path)).json(&body).send().await.unwrap();
    let status = r.status().as_u16();
    let headers = r.headers().clone();
    (status, r.json().await.unwrap_or(Value::Null), headers)
}

fn assert_error(body: &Value, code: &str) {
    assert_eq!(body["error"]["code"], code, "{body}");
    assert!(body["error"]["message"].as_str().is_some_and(|m| !m.is_empty()), "{body}");
}

#[tokio::test(flavor = "multi_thread")]
async fn paraphrase_caches_and_skips_the_cache_on_request() {
    let server = Server::start(&[]).await;
    let text = "The weather is nice today and the children are playing outside.";
    let (status, first, _) = post(&server, "/paraphrase", json!({"text": text})).await;
    assert_eq!(status, 200, "{first}");
    assert_eq!(first["original"], text);
    assert_eq!(first["provider"], "offline");
    assert_eq!(first["model"], "wordnet-3.0");
    assert_eq!(first["cached"], false);
    assert_ne!(first["paraphrase"], text);
    assert_eq!(first["unchanged"], false);
    let (_, second, _) = post(&server, "/paraphrase", json!({"text": text})).await;
    assert_eq!(second["cached"], true);
    assert_eq!(second["paraphrase"], first["paraphrase"]);
    let (_, skipped, _) = post(&server, "/paraphrase", json!({"text": text, "skip_cache": true})).await;
    assert_eq!(skipped["cached"], false);

    let stats: Value =
        server.client.get(server.url("/cache/stats")).send().await.unwrap().json().await.unwrap();
    assert_eq!((stats["hits"].as_u64(), stats["misses"].as_u64()), (Some(1), Some(1)), "{stats}");
    assert_eq!(stats["backend"], "memory");
}

#[tokio::test(flavor = "multi_thread")]
async fn bad_requests_get_json_errors() {
    let server = Server::start(&[]).await;
    let raw = |body: &'static str, content_type: &'static str| {
        let server = &server;
        async move {
            let r = server
                .client
                .post(server.url("/paraphrase"))
                .header("content-type", content_type)
                .body(body)
                .send()
                .await
                .unwrap();
            (r.status().as_u16(), r.json::<Value>().await.unwrap())
        }
    };
    let (status, body) = raw("{not json", "application/json").await;
    assert_eq!(status, 400);
    assert_error(&body, "malformed_json");
    let (status, body) = raw("{}", "application/json").await;
    assert_eq!(status, 422);
    assert!(body["error"]["message"].as_str().unwrap().contains("text"), "{body}");
    let (status, body) = raw("{\"text\": 5}", "application/json").await;
    assert_eq!(status, 422, "{body}");
    let (status, body) = raw("text=hi", "text/plain").await;
    assert_eq!(status, 415);
    assert_error(&body, "unsupported_media_type");
    let (status, body, _) = post(&server, "/paraphrase", json!({"text": "   "})).await;
    assert_eq!(status, 422);
    assert_error(&body, "invalid_input");
    let (status, body, _) = post(&server, "/paraphrase", json!({"text": "x".repeat(10_001)})).await;
    assert_eq!(status, 422);
    assert!(body["error"]["message"].as_str().unwrap().contains("10000"), "{body}");
    let (status, body, _) = post(&server, "/paraphrase", json!({"text": "hi", "provider": "nope"})).await;
    assert_eq!(status, 422);
    assert_error(&body, "unknown_plugin");
    assert!(body["error"]["message"].as_str().unwrap().contains("offline"), "{body}");
    // Its own client: the server closes a connection whose body it refused, so it must not be reused.
    let big = "y".repeat(11 * 1024 * 1024);
    let r = reqwest::Client::new()
        .post(server.url("/paraphrase"))
        .header("content-type", "application/json")
        .body(format!("{{\"text\": \"{big}\"}}"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 413);
    assert_error(&r.json().await.unwrap(), "payload_too_large");
    let r = server.client.get(server.url("/nowhere")).send().await.unwrap();
    assert_eq!(r.status().as_u16(), 404);
    assert_error(&r.json().await.unwrap(), "not_found");
    let r = server.client.get(server.url("/paraphrase")).send().await.unwrap();
    assert_eq!(r.status().as_u16(), 405);
    assert_error(&r.json().await.unwrap(), "method_not_allowed");
    let r = server.client.get(server.url("/health?probe=maybe")).send().await.unwrap();
    assert_eq!(r.status().as_u16(), 400);
    let body: Value = r.json().await.unwrap();
    assert_error(&body, "invalid_query");
    assert!(body["error"]["message"].as_str().unwrap().contains("probe"), "{body}");
}

#[tokio::test(flavor = "multi_thread")]
async fn batches_keep_order_and_fail_items_alone() {
    let server = Server::start(&[("BATCH_MAX_SIZE", "3")]).await;
    let texts = ["The cat sat on the mat.", " ", "How can I learn Python quickly?"];
    let (status, body, _) = post(&server, "/paraphrase/batch", json!({"texts": texts})).await;
    assert_eq!(status, 200, "{body}");
    let results = body["results"].as_array().unwrap();
    assert_eq!(results.len(), 3);
    for (i, r) in results.iter().enumerate() {
        assert_eq!(r["index"], i);
        assert_eq!(r["original"], texts[i]);
    }
    assert!(results[0]["paraphrase"].is_string() && results[2]["paraphrase"].is_string());
    assert_eq!(results[0]["unchanged"], false, "{body}");
    assert_error(&results[1], "invalid_input");
    assert!(results[1].get("unchanged").is_none(), "a failed item has no unchanged flag: {body}");
    assert_eq!(body["summary"], json!({"total": 3, "successful": 2, "failed": 1}));

    let (status, body, _) = post(&server, "/paraphrase/batch", json!({"texts": ["a", "b", "c", "d"]})).await;
    assert_eq!(status, 422);
    assert!(body["error"]["message"].as_str().unwrap().contains("BATCH_MAX_SIZE allows at most 3"), "{body}");
    let (status, _, _) = post(&server, "/paraphrase/batch", json!({"texts": []})).await;
    assert_eq!(status, 422);
    let (status, body, _) =
        post(&server, "/paraphrase/batch", json!({"texts": ["a"], "provider": "nope"})).await;
    assert_eq!(status, 422);
    assert_error(&body, "unknown_plugin");
}

/// A server whose `parlance.toml` is `config`, with `env` on top.
async fn server_with_config(config: &str, env: &[(&str, &str)]) -> Server {
    Server::start_in(crate::common::home_with_config(config), env, &["--config", "parlance.toml"]).await
}

#[tokio::test(flavor = "multi_thread")]
async fn the_rate_limit_counts_provider_calls_per_client() {
    // The offline provider reaches no upstream, so only a limit of its own applies to it; the global
    // one is set far off to show that it is not the one counted.
    let server = server_with_config(
        "[[plugin]]\nid = \"offline\"\nrate_limit_per_minute = 60\n",
        &[("RATE_LIMIT_REQUESTS_PER_MINUTE", "5")],
    )
    .await;
    let call = |client: &'static str, text: String| {
        let server = &server;
        async move {
            let r = server
                .client
                .post(server.url("/paraphrase"))
                .header("current-user", client)
                .json(&json!({"text": text}))
                .send()
                .await
                .unwrap();
            let headers = r.headers().clone();
            (r.status().as_u16(), headers, r.json::<Value>().await.unwrap())
        }
    };
    let (status, headers, _) = call("alice", "The first of many texts.".into()).await;
    assert_eq!(status, 200);
    assert_eq!(headers["x-ratelimit-limit"], "60");
    assert_eq!(headers["x-ratelimit-remaining"], "59");
    for i in 1..60 {
        let (status, _, body) = call("alice", format!("Text number {i} is here.")).await;
        assert_eq!(status, 200, "{body}");
    }
    let (status, headers, body) = call("alice", "One text too many.".into()).await;
    assert_eq!(status, 429, "{body}");
    assert_error(&body, "rate_limited");
    assert!(body["error"]["message"].as_str().unwrap().contains("not the upstream"), "{body}");
    let retry_after: u64 = headers["retry-after"].to_str().unwrap().parse().unwrap();
    assert_eq!(retry_after, 1);
    assert_eq!(headers["x-ratelimit-remaining"], "0");
    assert_eq!(headers["x-ratelimit-limit"], "60");
    assert!(headers.contains_key("x-ratelimit-reset"));
    let metrics = server.client.get(server.url("/metrics")).send().await.unwrap().text().await.unwrap();
    assert!(metrics.contains("parlance_rate_limit_rejections_total{provider=\"offline\"} 1"), "{metrics}");
    // A cache hit is not a provider call, and other clients have their own quota.
    assert_eq!(call("alice", "The first of many texts.".into()).await.0, 200);
    assert_eq!(call("bob", "One text too many.".into()).await.0, 200);
    tokio::time::sleep(Duration::from_secs(retry_after)).await;
    assert_eq!(
        call("alice", "One text too many.".into()).await.0,
        200,
        "after Retry-After the call succeeds"
    );
}

/// Rate limits protect upstreams: the offline provider reaches none and is not limited, a provider
/// with an upstream gets the global limit, and a plugin's own `rate_limit_per_minute` overrides it.
#[tokio::test(flavor = "multi_thread")]
async fn rate_limits_apply_to_providers_that_reach_an_upstream() {
    let upstream = FakeOpenAi::start("An upstream answer.").await;
    let config = format!(
        "[[plugin]]\nid = \"second\"\nkind = \"provider\"\ncomponent = \"builtin:openai\"\n\
         allowed_hosts = [\"{0}\"]\nrate_limit_per_minute = 3\nconfig = {{ base_url = \"{0}/v1\", api_key = \"k\" }}\n",
        upstream.base_url().trim_end_matches("/v1")
    );
    let server = server_with_config(
        &config,
        &[
            ("RATE_LIMIT_REQUESTS_PER_MINUTE", "2"),
            ("PROVIDER_API_KEY", "k"),
            ("PARLANCE_PLUGIN_OPENROUTER_BASE_URL", &upstream.base_url()),
        ],
    )
    .await;
    for i in 0..30 {
        let (status, body, headers) = post(
            &server,
            "/paraphrase",
            json!({"text": format!("Offline text {i}."), "provider": "offline"}),
        )
        .await;
        assert_eq!(status, 200, "the offline provider is not limited: {body}");
        assert!(!headers.contains_key("x-ratelimit-limit"), "no quota, no quota headers");
    }
    let statuses = |provider: &'static str| {
        let server = &server;
        async move {
            let mut statuses = Vec::new();
            for i in 0..4 {
                let body =
                    json!({"text": format!("Upstream text {i} for {provider}."), "provider": provider});
                statuses.push(post(server, "/paraphrase", body).await.0);
            }
            statuses
        }
    };
    assert_eq!(statuses("openrouter").await, [200, 200, 429, 429], "the global limit, 2 a minute");
    assert_eq!(statuses("second").await, [200, 200, 200, 429], "its own limit, 3 a minute");
    let providers: Value =
        server.client.get(server.url("/providers")).send().await.unwrap().json().await.unwrap();
    let limit = |id: &str| {
        providers["providers"].as_array().unwrap().iter().find(|p| p["id"] == id).unwrap()
            ["rate_limit_per_minute"]
            .clone()
    };
    assert_eq!((limit("offline"), limit("openrouter"), limit("second")), (Value::Null, json!(2), json!(3)));
}

#[tokio::test(flavor = "multi_thread")]
async fn upstream_rate_limits_are_retried_then_reported() {
    let upstream = FakeOpenAi::start("A retried answer.").await;
    let server = Server::start(&[
        ("PROVIDER_API_KEY", "k"),
        ("PARLANCE_PLUGIN_OPENROUTER_BASE_URL", &upstream.base_url()),
    ])
    .await;
    let (status, body, _) =
        post(&server, "/paraphrase", json!({"text": "Hello.", "model": "flaky-429"})).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["paraphrase"], "A retried answer.");
    assert_eq!(upstream.requests().len(), 2, "one 429, then the retry");
    let (status, body, headers) =
        post(&server, "/paraphrase", json!({"text": "Hello.", "model": "fail-429"})).await;
    assert_eq!(status, 429, "{body}");
    assert_error(&body, "upstream_rate_limited");
    assert_eq!(headers["retry-after"], "7");
}

#[tokio::test(flavor = "multi_thread")]
async fn redis_caches_across_processes_and_outages_fall_back_to_memory() {
    let mut redis = Redis::start().await;
    let url = redis.url();
    let env = [("CACHE_TYPE", "redis"), ("CACHE_STORE_URL", url.as_str())];
    let text = "A sentence that only this test paraphrases.";
    {
        let first = Server::start(&env).await;
        let (_, body, _) = post(&first, "/paraphrase", json!({"text": text})).await;
        assert_eq!(body["cached"], false, "{body}");
    }
    let second = Server::start(&env).await;
    let (_, body, _) = post(&second, "/paraphrase", json!({"text": text})).await;
    assert_eq!(body["cached"], true, "a second process finds the answer in Redis: {body}");
    let health: Value = second.client.get(second.url("/health")).send().await.unwrap().json().await.unwrap();
    assert_eq!(health["components"]["cache"]["backend"], "redis");
    assert_eq!(health["components"]["cache"]["status"], "ok");

    redis.stop();
    let (status, body, _) =
        post(&second, "/paraphrase", json!({"text": "Redis is gone now, but this still works."})).await;
    assert_eq!(status, 200, "cache errors never fail a request: {body}");
    let health: Value = second.client.get(second.url("/health")).send().await.unwrap().json().await.unwrap();
    assert_eq!(health["status"], "degraded", "{health}");
    assert_eq!(health["components"]["cache"]["status"], "degraded");
    let (_, body, _) =
        post(&second, "/paraphrase", json!({"text": "Redis is gone now, but this still works."})).await;
    assert_eq!(body["cached"], true, "the memory fallback serves: {body}");
}

#[tokio::test(flavor = "multi_thread")]
async fn operations_routes_describe_the_service() {
    let server = Server::start(&[]).await;
    let health: Value = server.client.get(server.url("/health")).send().await.unwrap().json().await.unwrap();
    assert_eq!(health["status"], "ok", "{health}");
    assert_eq!(health["version"], env!("CARGO_PKG_VERSION"));
    assert!(health["components"]["plugins"]["providers"].as_array().unwrap().contains(&json!("offline")));
    assert_eq!(health["components"]["cache"]["backend"], "memory");
    assert!(health["components"]["store"]["status"].is_string());

    let providers: Value =
        server.client.get(server.url("/providers")).send().await.unwrap().json().await.unwrap();
    assert_eq!(providers["default"], "offline");
    let offline = providers["providers"].as_array().unwrap().iter().find(|p| p["id"] == "offline").unwrap();
    assert_eq!(
        (offline["default"].clone(), offline["default_model"].clone()),
        (json!(true), json!("wordnet-3.0"))
    );
    let openrouter =
        providers["providers"].as_array().unwrap().iter().find(|p| p["id"] == "openrouter").unwrap();
    assert_eq!(openrouter["available"], false);

    post(&server, "/paraphrase", json!({"text": "Count this call."})).await;
    let metrics = server.client.get(server.url("/metrics")).send().await.unwrap().text().await.unwrap();
    for needle in [
        "parlance_http_requests_total{route=\"/paraphrase\",method=\"POST\",status=\"200\"}",
        "parlance_plugin_calls_total{plugin=\"offline\",outcome=\"ok\"}",
        "parlance_plugin_call_duration_seconds_count{plugin=\"offline\"}",
        "parlance_cache_misses_total",
    ] {
        assert!(metrics.contains(needle), "missing {needle} in\n{metrics}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn the_documents_cover_every_route_and_need_no_internet() {
    let server = Server::start(&[]).await;
    let doc: Value =
        server.client.get(server.url("/openapi.json")).send().await.unwrap().json().await.unwrap();
    assert!(doc["openapi"].as_str().unwrap().starts_with("3.1"), "{}", doc["openapi"]);
    let paths = doc["paths"].as_object().unwrap();
    for route in ["/paraphrase", "/paraphrase/batch", "/providers", "/cache/stats", "/health", "/metrics"] {
        assert!(paths.contains_key(route), "{route} is missing from the OpenAPI document");
    }
    // The schemas carry this server's limits and its available providers.
    let body = &doc["components"]["schemas"]["ParaphraseBody"]["properties"];
    assert_eq!(body["text"]["maxLength"], 10000, "{body}");
    let providers = body["provider"]["enum"].as_array().unwrap();
    assert!(providers.contains(&json!("offline")) && !providers.contains(&json!("openrouter")), "{body}");
    assert_eq!(doc["components"]["schemas"]["BatchBody"]["properties"]["texts"]["maxItems"], 10);
    // OpenAPI requires a description on every Response Object (scripts/schemathesis.sh also runs
    // openapi-spec-validator on the whole document).
    for (path, item) in paths {
        for (method, operation) in item.as_object().unwrap() {
            for (status, response) in operation["responses"].as_object().unwrap() {
                let description = response["description"].as_str().unwrap_or_default();
                assert!(!description.is_empty(), "{method} {path} {status} has no description");
            }
        }
    }
    let docs = server.client.get(server.url("/docs/")).send().await.unwrap();
    assert_eq!(docs.status().as_u16(), 200);
    let page = docs.text().await.unwrap();
    assert!(page.contains("swagger-ui"), "{page}");
    assert!(!page.contains("https://"), "the Swagger page must not load assets from the internet");
    // Nor send the document to Swagger's online validator, which it does when opened by a host name
    // other than localhost unless the validator is off (scripts/docs-render.sh watches a real browser).
    let initializer = server
        .client
        .get(server.url("/docs/swagger-initializer.js"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(initializer.contains("\"validatorUrl\": \"none\""), "{initializer}");
    // ReDoc's sidebar asks cdn.redoc.ly for a logo whatever its options; the pages' policy keeps every
    // request on this server.
    for page in ["/redoc", "/docs/"] {
        let r = server.client.get(server.url(page)).send().await.unwrap();
        let policy = r.headers()["content-security-policy"].to_str().unwrap().to_owned();
        assert!(policy.starts_with("default-src 'self' "), "{page}: {policy}");
    }
    let redoc = server.client.get(server.url("/redoc")).send().await.unwrap().text().await.unwrap();
    assert!(redoc.contains("/redoc/redoc.standalone.js") && !redoc.contains("https://"), "{redoc}");
    let js = server.client.get(server.url("/redoc/redoc.standalone.js")).send().await.unwrap();
    assert_eq!(js.status().as_u16(), 200);
    assert!(js.bytes().await.unwrap().len() > 500_000);
}

#[tokio::test(flavor = "multi_thread")]
async fn cors_answers_preflight_requests() {
    let server = Server::start(&[("CORS_ORIGINS", "https://app.example")]).await;
    let r = server
        .client
        .request(reqwest::Method::OPTIONS, server.url("/paraphrase"))
        .header("origin", "https://app.example")
        .header("access-control-request-method", "POST")
        .send()
        .await
        .unwrap();
    assert_eq!(r.headers()["access-control-allow-origin"], "https://app.example");
    let r = server
        .client
        .get(server.url("/health"))
        .header("origin", "https://evil.example")
        .send()
        .await
        .unwrap();
    assert!(!r.headers().contains_key("access-control-allow-origin"));
}

#[tokio::test(flavor = "multi_thread")]
async fn api_debug_adds_the_cause_chain_to_server_errors_only_when_on() {
    for debug in [false, true] {
        let home = tempfile::tempdir().unwrap();
        let config = home.path().join("parlance.toml");
        std::fs::write(
            &config,
            format!(
                "[[plugin]]\nid = \"crashy\"\nkind = \"provider\"\ncomponent = {:?}\nconfig = {{ behaviour = \"trap\" }}\n",
                crate::common::fixture("parlance-fixture-hostile").display().to_string()
            ),
        )
        .unwrap();
        let server = Server::start_in(
            home,
            &[("API_DEBUG", if debug { "true" } else { "false" })],
            &["--config", config.to_str().unwrap()],
        )
        .await;
        let (status, body, _) =
            post(&server, "/paraphrase", json!({"text": "Hello.", "provider": "crashy"})).await;
        assert_eq!(status, 502, "{body}");
        assert_error(&body, "plugin_crashed");
        assert!(body["error"]["message"].as_str().unwrap().contains("a deliberate panic"), "{body}");
        match debug {
            true => {
                let chain = body["error"]["cause"].as_array().unwrap();
                assert!(chain[0].as_str().unwrap().contains("crashy"), "{body}");
                // The chain goes on to the runtime's own report of the trap.
                assert!(chain.len() >= 2 && chain[1].as_str().unwrap().contains("wasm"), "{body}");
            }
            false => assert!(body["error"].get("cause").is_none(), "{body}"),
        }
        // Client errors never carry causes.
        let (_, body, _) = post(&server, "/paraphrase", json!({"text": ""})).await;
        assert!(body["error"].get("cause").is_none(), "{body}");
    }
}

/// Whether a string schema of the OpenAPI document admits `text`: its lengths in characters and its
/// pattern, as a client validating against the document would judge.
fn admits(schema: &Value, text: &str) -> bool {
    let chars = text.chars().count() as u64;
    let pattern = regex::Regex::new(schema["pattern"].as_str().expect("a pattern")).unwrap();
    schema["minLength"].as_u64().is_none_or(|min| chars >= min)
        && schema["maxLength"].as_u64().is_none_or(|max| chars <= max)
        && pattern.is_match(text)
}

/// Strings at the edges of the checks the handlers make: blank in several ways, control characters
/// that are and are not line breaks, a slash, white space Rust and ECMAScript disagree on, lengths.
fn edge_strings(limit: usize) -> Vec<String> {
    let mut samples: Vec<String> = [
        "",
        " ",
        "\u{a0}",
        "\u{3000}",
        "\t",
        "\n",
        "\r\n",
        "x",
        " x ",
        "\u{a0}x",
        "a/b",
        "x\ny",
        "x\ty",
        "x\u{0}",
        "x\u{7f}",
        "x\u{85}",
        "\u{85}",
        "x\u{9f}",
        "x\u{b}",
        "\u{feff}",
        "\u{200b}",
        "é",
        "日本語",
        "🙂",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    samples.extend(["x".repeat(limit), "x".repeat(limit + 1), format!(" {}", "x".repeat(limit))]);
    samples
}

#[tokio::test(flavor = "multi_thread")]
async fn the_documented_patterns_admit_exactly_what_the_server_accepts() {
    let server = Server::start(&[("RATE_LIMIT_REQUESTS_PER_MINUTE", "100000")]).await;
    let doc: Value =
        server.client.get(server.url("/openapi.json")).send().await.unwrap().json().await.unwrap();
    let schemas = &doc["components"]["schemas"];
    let mut disagreements = Vec::new();
    let mut check = |field: &str, schema: &Value, text: &str, status: u16| {
        let documented = admits(schema, text);
        if documented != (status < 400) {
            disagreements.push(format!("{field} {text:?}: documented {documented}, status {status}"));
        }
    };

    let user_id = &doc["paths"]["/v1/user/id/{user_id}"]["put"]["parameters"][0]["schema"];
    for text in edge_strings(256).iter().filter(|t| !t.is_empty()) {
        // Every byte escaped by hand: the URL parser would drop tabs and line feeds, not escape them.
        let segment: String = text.bytes().map(|b| format!("%{b:02X}")).collect();
        let url = server.url(&format!("/v1/user/id/{segment}"));
        let status = server.client.put(url).send().await.unwrap().status().as_u16();
        check("user_id", user_id, text, status);
    }
    server.client.put(server.url("/v1/user/id/u")).send().await.unwrap();
    let entry = &schemas["Entry"]["properties"];
    for text in edge_strings(100) {
        let body = json!({"dialog": [{"index": 0, "name": text, "message": "hi"}]});
        let r = server.client.put(server.url("/v1/user/dialog/json/u")).json(&body).send().await.unwrap();
        check("Entry.name", &entry["name"], &text, r.status().as_u16());
    }
    for text in edge_strings(4000) {
        let body = json!({"dialog": [{"index": 0, "name": "Ann", "message": text}]});
        let r = server.client.put(server.url("/v1/user/dialog/json/u")).json(&body).send().await.unwrap();
        check("Entry.message", &entry["message"], &text, r.status().as_u16());
    }
    let chat = &schemas["ChatBody"]["properties"];
    for text in edge_strings(4000) {
        let body = json!({"user_id": "u", "message": text});
        let r = server.client.post(server.url("/v1/waifu")).json(&body).send().await.unwrap();
        check("ChatBody.message", &chat["message"], &text, r.status().as_u16());
    }
    let paraphrase = &schemas["ParaphraseBody"]["properties"];
    for text in edge_strings(10_000) {
        let (status, _, _) = post(&server, "/paraphrase", json!({"text": text})).await;
        check("ParaphraseBody.text", &paraphrase["text"], &text, status);
    }
    for padding in ["", " ", "\u{a0}", "\n"] {
        for model in [format!("{padding}wordnet-3.0{padding}"), padding.to_owned()] {
            let (status, _, _) =
                post(&server, "/paraphrase", json!({"text": "Hello.", "model": model})).await;
            check("ParaphraseBody.model", &paraphrase["model"], &model, status);
        }
    }
    let client = &doc["paths"]["/v1/user/all/count"]["get"]["parameters"][0]["schema"];
    for text in ["x", "a b", "a\tb", "~!", &"c".repeat(256), &"c".repeat(257)] {
        let r = server.client.get(server.url("/v1/user/all/count")).header("current-user", text);
        check("current-user", client, text, r.send().await.unwrap().status().as_u16());
    }
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
}

#[tokio::test(flavor = "multi_thread")]
async fn dialog_indices_and_pages_are_read_as_the_schema_says() {
    let server = Server::start(&[]).await;
    server.client.put(server.url("/v1/user/id/u")).send().await.unwrap();
    // JSON Schema counts 1.0 as an integer.
    let body = json!({"dialog": [{"index": 1.0, "name": "A", "message": "b"}, {"index": 0, "name": "A", "message": "a"}]});
    let r = server.client.put(server.url("/v1/user/dialog/json/u")).json(&body).send().await.unwrap();
    assert_eq!(r.status().as_u16(), 200, "{}", r.text().await.unwrap());
    let stored: Value =
        server.client.get(server.url("/v1/user/dialog/json/u")).send().await.unwrap().json().await.unwrap();
    assert_eq!(stored["dialog"][1], json!({"index": 1, "name": "A", "message": "b"}));
    for index in [json!(0.5), json!(-1), json!(4294967296u64), json!("0")] {
        let body = json!({"dialog": [{"index": index, "name": "A", "message": "a"}]});
        let r = server.client.put(server.url("/v1/user/dialog/json/u")).json(&body).send().await.unwrap();
        assert_eq!(r.status().as_u16(), 422, "index {index}");
        assert_error(&r.json().await.unwrap(), "invalid_body");
    }
    // Pages are digits within int64, as documented; Flask's `<int:page>` takes leading zeros too.
    for (page, status) in [
        ("0", 200),
        ("007", 200),
        ("9223372036854775807", 200),
        ("9223372036854775808", 400),
        ("+1", 400),
        ("-1", 400),
        ("1.0", 400),
    ] {
        let r = server.client.get(server.url(&format!("/v1/user/all/id/{page}"))).send().await.unwrap();
        assert_eq!(r.status().as_u16(), status, "page {page}");
    }
}

/// `/metrics` says which format it writes, writes the one the client prefers, and exposes every
/// family from the start: a fresh server has refused nothing and called no plugin, and still shows
/// those families with their zeros.
#[tokio::test(flavor = "multi_thread")]
async fn metrics_state_their_format_and_start_at_zero() {
    let server = Server::start(&[]).await;
    let get = |accept: Option<&'static str>| {
        let server = &server;
        async move {
            let mut request = server.client.get(server.url("/metrics"));
            if let Some(accept) = accept {
                request = request.header("accept", accept);
            }
            let r = request.send().await.unwrap();
            let content_type = r.headers()["content-type"].to_str().unwrap().to_owned();
            (content_type, r.text().await.unwrap())
        }
    };
    let (content_type, text) = get(None).await;
    assert_eq!(content_type, "text/plain; version=0.0.4; charset=utf-8");
    assert!(!text.contains("# EOF"), "{text}");
    for line in [
        "# TYPE parlance_rate_limit_rejections_total counter",
        "parlance_rate_limit_rejections_total{provider=\"openrouter\"} 0",
        "parlance_plugin_calls_total{plugin=\"offline\",outcome=\"ok\"} 0",
        "parlance_plugin_calls_total{plugin=\"lexical\",outcome=\"timeout\"} 0",
        "parlance_plugin_call_duration_seconds_count{plugin=\"bleu\"} 0",
        "parlance_http_requests_total{route=\"/paraphrase\",method=\"POST\",status=\"429\"} 0",
        "parlance_http_requests_total{route=\"/v1/waifu\",method=\"POST\",status=\"200\"} 0",
        "# TYPE parlance_cache_hits_total counter",
    ] {
        assert!(text.lines().any(|l| l == line), "missing {line:?} in\n{text}");
    }
    let (content_type, openmetrics) =
        get(Some("application/openmetrics-text;version=1.0.0,text/plain;q=0.5")).await;
    assert_eq!(content_type, "application/openmetrics-text; version=1.0.0; charset=utf-8");
    assert!(openmetrics.ends_with("# EOF\n"), "{openmetrics}");
    assert!(
        openmetrics.lines().any(|l| l == "# TYPE parlance_rate_limit_rejections counter"),
        "{openmetrics}"
    );
}
