//! Fallback chains and circuit breaking against upstreams that fail on purpose: every row of the
//! README's table (what moves on to the next member of a chain and what does not), retries of a
//! rate-limited upstream, the circuit's open → half-open → closed cycle and the try when every member
//! is open, the cache holding an answer under the member that made it, batches and job items saying
//! who served them, chats and OpenAI completions whole and streamed, the configuration's checks of a
//! chain, and the circuit shared by replicas on one Redis.

use crate::common;
use common::server::{Redis, Server, free_port};
use common::upstream::{FakeOpenAi, Fault, FaultyUpstream};
use parlance::config::Env;
use parlance::fallback::{ChainChoice, CircuitState};
use parlance::paraphrase::{Caller, Pacing};
use parlance::{Error, ParaphraseRequest, Parlance};
use serde_json::{Value, json};
use std::time::Duration;

const TEXT: &str = "The committee will make a decision about the proposal tomorrow.";

fn env(home: &std::path::Path) -> Env {
    Env::empty()
        .with("HOME", home.to_str().unwrap())
        .with("CACHE_TYPE", "memory")
        .with("PARLANCE_CACHE_DIR", common::compile_cache_dir().to_str().unwrap())
}

/// A `[[plugin]]` table for an OpenAI-protocol provider at `base_url` whose chain ends with `offline`.
fn openai_provider(id: &str, base_url: &str, extra: &str) -> String {
    let origin = base_url.trim_end_matches("/v1");
    format!(
        "[[plugin]]\nid = \"{id}\"\nkind = \"provider\"\ncomponent = \"builtin:openai\"\n\
         allowed_hosts = [\"{origin}\"]\nfallbacks = [\"offline\"]\n{extra}\
         config = {{ base_url = \"{base_url}\", api_key = \"k\" }}\n\n"
    )
}

/// A `[[plugin]]` table for the hostile fixture doing `behaviour`, whose chain ends with `offline`.
fn hostile_provider(id: &str, behaviour: &str, limits: &str) -> String {
    format!(
        "[[plugin]]\nid = \"{id}\"\nkind = \"provider\"\ncomponent = {:?}\nfallbacks = [\"offline\"]\n\
         limits = {{ {limits} }}\nconfig = {{ behaviour = \"{behaviour}\" }}\n\n",
        common::fixture("parlance-fixture-hostile").display().to_string()
    )
}

async fn parlance(config: &str) -> (Parlance, tempfile::TempDir) {
    let home = tempfile::tempdir().unwrap();
    let file = home.path().join("parlance.toml");
    std::fs::write(&file, config).unwrap();
    let parlance =
        Parlance::builder().env(env(home.path())).config_file(&file).without_chat().build().await.unwrap();
    (parlance, home)
}

fn request(provider: &str, model: Option<&str>) -> ParaphraseRequest {
    ParaphraseRequest {
        provider: Some(provider.into()),
        model: model.map(Into::into),
        skip_cache: true,
        ..ParaphraseRequest::new(TEXT)
    }
}

/// The attempts of a request that `offline`, the end of its chain, served.
async fn served_by_offline(parlance: &Parlance, request: &ParaphraseRequest) -> Vec<(String, String)> {
    let out = parlance.paraphrase(request).await.unwrap_or_else(|e| panic!("{request:?}: {e}"));
    assert_eq!(out.provider, "offline", "{request:?}: {out:?}");
    assert!(!out.cached);
    out.attempts.iter().map(|a| (a.id.clone(), a.error.clone())).collect()
}

fn attempt(id: &str, code: &str) -> Vec<(String, String)> {
    vec![(id.to_owned(), code.to_owned())]
}

/// Every row of the README's table that moves on: each failure of the primary is named in the
/// attempts, and the next member serves.
#[tokio::test(flavor = "multi_thread")]
async fn each_failure_that_moves_on_is_served_by_the_next_member() {
    let upstream = FakeOpenAi::start("An upstream answer.").await;
    let faulty = FaultyUpstream::start("A faulty upstream's answer.").await;
    let config = format!(
        "[fallback]\nfailure_threshold = 1000\nretry_budget_ms = 3000\n\n[paraphrase]\nupstream_retries = 1\n\n\
         [runtime]\nqueue_timeout_ms = 100\n\n{}{}{}{}{}{}{}{}",
        openai_provider("primary", &upstream.base_url(), "limits = { http_timeout_ms = 500 }\n"),
        openai_provider("faulty", &faulty.base_url(), ""),
        openai_provider("gone", &format!("http://127.0.0.1:{}/v1", free_port()), ""),
        hostile_provider("crashy", "trap", ""),
        hostile_provider("spinner", "spin", "timeout_ms = 300"),
        hostile_provider("hog", "membomb", "memory_mb = 16"),
        hostile_provider("sleepy", "sleep", "timeout_ms = 3000, max_instances = 1"),
        "[[plugin]]\nid = \"broken\"\nkind = \"provider\"\ncomponent = \"builtin:openai\"\nfallbacks = [\"offline\"]\n\n",
    );
    let (parlance, _home) = parlance(&config).await;

    // The upstream's failures, as the fake answers each model.
    for (model, code) in [
        ("fail-503", "upstream_unavailable"),
        ("garbage", "upstream_bad_response"),
        ("fail-401", "upstream_unauthorized"),
        ("slow", "upstream_timeout"),
        // Its Retry-After (7 s) is beyond the retry budget: it moves on at once.
        ("fail-429", "upstream_rate_limited"),
    ] {
        let attempts = served_by_offline(&parlance, &request("primary", Some(model))).await;
        assert_eq!(attempts, attempt("primary", code), "{model}");
    }
    // A connection refused.
    assert_eq!(
        served_by_offline(&parlance, &request("gone", None)).await,
        attempt("gone", "upstream_unavailable")
    );
    // A 500, and garbage, from an upstream switched while the process runs.
    faulty.set(Fault::Status(500)).await;
    assert_eq!(
        served_by_offline(&parlance, &request("faulty", None)).await,
        attempt("faulty", "upstream_unavailable")
    );
    faulty.set(Fault::Garbage).await;
    assert_eq!(
        served_by_offline(&parlance, &request("faulty", None)).await,
        attempt("faulty", "upstream_bad_response")
    );
    // Rate limited once its retry is spent: the upstream is asked twice, a second apart.
    faulty.set(Fault::RateLimited(1)).await;
    let before = faulty.requests();
    assert_eq!(
        served_by_offline(&parlance, &request("faulty", None)).await,
        attempt("faulty", "upstream_rate_limited")
    );
    assert_eq!(faulty.requests() - before, 2, "one call and one retry");
    // The plugin's own failures.
    for (id, code) in [
        ("crashy", "plugin_crashed"),
        ("spinner", "plugin_timeout"),
        ("hog", "plugin_memory_limit"),
        ("broken", "plugin_misconfigured"),
    ] {
        assert_eq!(served_by_offline(&parlance, &request(id, None)).await, attempt(id, code), "{id}");
    }
    // This host's own `plugin_busy`: of two calls of a plugin with one instance, one finds it taken.
    let sleepy = request("sleepy", None);
    let (first, second) = tokio::join!(parlance.paraphrase(&sleepy), async {
        tokio::time::sleep(Duration::from_millis(200)).await;
        parlance.paraphrase(&sleepy).await
    });
    let mut codes: Vec<String> = [first.unwrap(), second.unwrap()]
        .into_iter()
        .map(|p| {
            assert_eq!(p.provider, "offline");
            p.attempts[0].error.clone()
        })
        .collect();
    codes.sort();
    assert_eq!(codes, ["plugin_busy", "plugin_timeout"]);
}

/// A primary that accepts the request and never answers is asked once and costs one
/// `http_timeout_ms`, not a retry and not the connect and first-byte budgets stacked: with the plugin's
/// own deadline between one and two of them, the attempt is the upstream's timeout, not the plugin's.
#[tokio::test(flavor = "multi_thread")]
async fn a_hanging_primary_is_asked_once_within_its_timeout() {
    let faulty = FaultyUpstream::start("A hanging upstream's answer.").await;
    faulty.set(Fault::Hang).await;
    let config = format!(
        "[paraphrase]\nupstream_retries = 2\n\n{}",
        openai_provider(
            "hanging",
            &faulty.base_url(),
            "limits = { http_timeout_ms = 1000, timeout_ms = 1800 }\n"
        )
    );
    let (parlance, _home) = parlance(&config).await;
    let attempts = served_by_offline(&parlance, &request("hanging", None)).await;
    assert_eq!(attempts, attempt("hanging", "upstream_timeout"));
    assert_eq!(faulty.requests(), 1, "a timeout is not retried");
}

/// The rows that do not move on: input the upstream refuses (the next would refuse it too) and the
/// caller's own rate limit; and a request that opts out of its chain.
#[tokio::test(flavor = "multi_thread")]
async fn invalid_input_and_the_callers_rate_limit_do_not_move_on() {
    let faulty = FaultyUpstream::start("A faulty upstream's answer.").await;
    let config = openai_provider("faulty", &faulty.base_url(), "rate_limit_per_minute = 1\n");
    let (parlance, _home) = parlance(&config).await;
    let service = parlance.paraphraser();
    let rest = Caller { client: "10.0.0.1".into(), pacing: Pacing::Reject };

    let served = service.paraphrase(&request("faulty", None), &rest).await.unwrap();
    assert_eq!(served.paraphrase.provider, "faulty");
    assert!(served.paraphrase.attempts.is_empty());
    match service.paraphrase(&request("faulty", None), &rest).await {
        Err(Error::RateLimited { provider, .. }) => assert_eq!(provider, "faulty"),
        other => panic!("the caller's own limit should stop the request: {other:?}"),
    }

    faulty.set(Fault::Status(400)).await;
    let other = Caller { client: "10.0.0.2".into(), pacing: Pacing::Reject };
    match service.paraphrase(&request("faulty", None), &other).await {
        Err(Error::Plugin(e)) => assert!(e.to_string().contains("invalid input"), "{e}"),
        other => panic!("invalid input should stop the request: {other:?}"),
    }

    // Without its chain, a failing provider's error is the answer.
    faulty.set(Fault::Status(500)).await;
    let alone = ParaphraseRequest { fallbacks: ChainChoice::Off, ..request("faulty", None) };
    let third = Caller { client: "10.0.0.3".into(), pacing: Pacing::Reject };
    assert!(matches!(service.paraphrase(&alone, &third).await, Err(Error::Plugin(_))));
    // A request's own chain is refused unless the operator allows it.
    let own = ParaphraseRequest {
        fallbacks: ChainChoice::Listed(vec!["offline".into()]),
        ..request("faulty", None)
    };
    match service.paraphrase(&own, &Caller::local()).await {
        Err(Error::InvalidInput { field, .. }) => assert_eq!(field, "fallbacks"),
        other => panic!("{other:?}"),
    }
}

/// A circuit opens after `failure_threshold` failures, so that requests skip the upstream without
/// calling it; after its cooldown one request probes it, and an answer closes it again.
#[tokio::test(flavor = "multi_thread")]
async fn a_circuit_opens_then_probes_then_closes() {
    let faulty = FaultyUpstream::start("The primary is back.").await;
    let config = format!(
        "[fallback]\nfailure_threshold = 2\nfailure_window_ms = 60000\ncooldown_ms = 500\n\n{}",
        openai_provider("flaky", &faulty.base_url(), "")
    );
    let (parlance, _home) = parlance(&config).await;
    let breakers = || parlance.paraphraser().chains().breakers();
    faulty.set(Fault::Status(500)).await;
    for _ in 0..2 {
        served_by_offline(&parlance, &request("flaky", None)).await;
    }
    assert_eq!(breakers().state("flaky"), CircuitState::Open);
    assert_eq!(faulty.requests(), 2);

    // Open: skipped without a call.
    let attempts = served_by_offline(&parlance, &request("flaky", None)).await;
    assert_eq!(attempts, attempt("flaky", "circuit_open"));
    assert_eq!(faulty.requests(), 2, "an open circuit sends nothing upstream");

    // After the cooldown a probe that fails opens it again.
    tokio::time::sleep(Duration::from_millis(700)).await;
    let attempts = served_by_offline(&parlance, &request("flaky", None)).await;
    assert_eq!(attempts, attempt("flaky", "upstream_unavailable"));
    assert_eq!(faulty.requests(), 3);
    assert_eq!(breakers().state("flaky"), CircuitState::Open);

    // The upstream recovers: after the cooldown, the probe is served by it and closes the circuit.
    faulty.set(Fault::Healthy).await;
    tokio::time::sleep(Duration::from_millis(700)).await;
    let out = parlance.paraphrase(&request("flaky", None)).await.unwrap();
    assert_eq!(out.provider, "flaky");
    assert!(out.attempts.is_empty());
    assert_eq!(breakers().state("flaky"), CircuitState::Closed);

    let metrics = parlance.metrics().render();
    assert!(metrics.contains("parlance_fallbacks_total{from=\"flaky\",to=\"offline\"} 4"), "{metrics}");
    assert!(metrics.contains("parlance_circuit_state{plugin=\"flaky\"} 0"), "{metrics}");
}

/// A probe that the primary's cached answer serves makes no call, so it hands the probe back: the next
/// request that needs the upstream probes it at once, rather than skipping it until the probe lapses
/// a cooldown later (bench/soak.py saw a circuit stay half-open for four cooldowns after its upstream
/// recovered, while cached requests took each probe in turn).
#[tokio::test(flavor = "multi_thread")]
async fn a_probe_served_from_the_cache_hands_the_probe_back() {
    let faulty = FaultyUpstream::start("The primary is back.").await;
    let config = format!(
        "[fallback]\nfailure_threshold = 1\nfailure_window_ms = 60000\ncooldown_ms = 500\n\n{}",
        openai_provider("flaky", &faulty.base_url(), "")
    );
    let (parlance, _home) = parlance(&config).await;
    let breakers = || parlance.paraphraser().chains().breakers();
    let cached = ParaphraseRequest { provider: Some("flaky".into()), ..ParaphraseRequest::new(TEXT) };
    assert_eq!(parlance.paraphrase(&cached).await.unwrap().provider, "flaky");
    faulty.set(Fault::Status(500)).await;
    served_by_offline(&parlance, &request("flaky", None)).await;
    assert_eq!(breakers().state("flaky"), CircuitState::Open);
    faulty.set(Fault::Healthy).await;
    tokio::time::sleep(Duration::from_millis(700)).await;

    // The cooldown is over: the cached request is admitted as the probe and answered from the cache.
    let out = parlance.paraphrase(&cached).await.unwrap();
    assert_eq!((out.provider.as_str(), out.cached), ("flaky", true));
    let calls = faulty.requests();
    // The next request that needs the upstream probes it now, and its answer closes the circuit.
    let out = parlance.paraphrase(&request("flaky", None)).await.unwrap();
    assert_eq!(out.provider, "flaky", "skipped: {:?}", out.attempts);
    assert!(out.attempts.is_empty());
    assert_eq!(faulty.requests(), calls + 1);
    assert_eq!(breakers().state("flaky"), CircuitState::Closed);
}

/// When every member of a chain is open, the request tries the one whose cooldown ends first rather
/// than failing without a try.
#[tokio::test(flavor = "multi_thread")]
async fn with_every_member_open_the_first_to_reopen_is_tried() {
    let (a, b) = (FaultyUpstream::start("A.").await, FaultyUpstream::start("B.").await);
    let table = |id: &str, upstream: &FaultyUpstream, next: &str| {
        openai_provider(id, &upstream.base_url(), "")
            .replace("fallbacks = [\"offline\"]", &format!("fallbacks = [\"{next}\"]"))
    };
    let config = format!(
        "[fallback]\nfailure_threshold = 1\ncooldown_ms = 60000\n\n[paraphrase]\nupstream_retries = 0\n\n{}{}",
        table("first", &a, "second"),
        table("second", &b, "first")
    );
    let (parlance, _home) = parlance(&config).await;
    a.set(Fault::Status(500)).await;
    b.set(Fault::Status(500)).await;
    assert!(parlance.paraphrase(&request("first", None)).await.is_err());
    let breakers = parlance.paraphraser().chains().breakers();
    assert_eq!((breakers.state("first"), breakers.state("second")), (CircuitState::Open, CircuitState::Open));
    assert_eq!((a.requests(), b.requests()), (1, 1));

    // Both open; `first` opened first and reopens first, so it is tried (and now answers).
    a.set(Fault::Healthy).await;
    let out = parlance.paraphrase(&request("second", None)).await.unwrap();
    assert_eq!(out.provider, "first");
    assert_eq!(out.attempts.iter().map(|a| a.error.as_str()).collect::<Vec<_>>(), ["circuit_open"]);
    assert_eq!((a.requests(), b.requests()), (2, 1));
    assert_eq!(breakers.state("first"), CircuitState::Closed);
}

/// A fallback's answer is cached under the member and model that made it, never under the primary,
/// so the primary answers again as soon as it recovers.
#[tokio::test(flavor = "multi_thread")]
async fn the_cache_holds_an_answer_under_the_member_that_made_it() {
    let faulty = FaultyUpstream::start("The primary's own answer.").await;
    let (parlance, _home) = parlance(&openai_provider("flaky", &faulty.base_url(), "")).await;
    let plugin = |id: &str| parlance.plugins().get(id).unwrap().clone();
    let cached = |id: &str, model: &str| {
        let key = parlance::cache::key(id, model, &plugin(id).digest, TEXT);
        let cache = parlance.paraphraser().cache();
        async move { cache.get(&key).await }
    };
    let primary_model = parlance.paraphraser().model(&plugin("flaky"), None).unwrap();
    let offline_model = parlance.paraphraser().model(&plugin("offline"), None).unwrap();

    faulty.set(Fault::Refuse).await;
    let request = ParaphraseRequest { provider: Some("flaky".into()), ..ParaphraseRequest::new(TEXT) };
    let out = parlance.paraphrase(&request).await.unwrap();
    assert_eq!(out.provider, "offline");
    assert!(cached("offline", &offline_model).await.is_some(), "stored under the member that answered");
    assert!(cached("flaky", &primary_model).await.is_none(), "never under the one that failed");

    faulty.set(Fault::Healthy).await;
    let out = parlance.paraphrase(&request).await.unwrap();
    assert_eq!(
        (out.provider.as_str(), out.paraphrase.as_str(), out.cached),
        ("flaky", "The primary's own answer.", false)
    );
    let again = parlance.paraphrase(&request).await.unwrap();
    assert_eq!((again.provider.as_str(), again.cached), ("flaky", true));
}

/// A chain that names an unknown plugin, one of another kind, the plugin itself or a member twice is
/// a configuration error naming it; two plugins may name each other, since chains are not followed.
#[tokio::test]
async fn chains_are_checked_at_start() {
    for (table, problem) in [
        ("id = \"offline\"\nfallbacks = [\"nope\"]", "names the plugin `nope`, which is not configured"),
        ("id = \"offline\"\nfallbacks = [\"form\"]", "which is a chat-model, not a provider"),
        ("id = \"offline\"\nfallbacks = [\"offline\"]", "names the plugin itself"),
        ("id = \"gemini\"\nfallbacks = [\"offline\", \"offline\"]", "names `offline` twice"),
        ("id = \"lexical\"\nfallbacks = [\"bleu\"]", "applies to providers and chat models only"),
    ] {
        let home = tempfile::tempdir().unwrap();
        let file = home.path().join("parlance.toml");
        std::fs::write(&file, format!("[[plugin]]\n{table}\n")).unwrap();
        let e = parlance::Config::from_env(Some(&file), &env(home.path())).unwrap_err().to_string();
        assert!(e.contains(problem), "{table}: {e}");
        assert!(e.contains("fallbacks"), "{e}");
    }
    let home = tempfile::tempdir().unwrap();
    let file = home.path().join("parlance.toml");
    std::fs::write(
        &file,
        "[[plugin]]\nid = \"offline\"\nfallbacks = [\"gemini\"]\n\n[[plugin]]\nid = \"gemini\"\nfallbacks = [\"offline\"]\n",
    )
    .unwrap();
    let config = parlance::Config::from_env(Some(&file), &env(home.path())).unwrap();
    assert_eq!(config.plugin("gemini").unwrap().fallbacks, ["offline"]);
}

/// The REST surfaces: `attempts` and `X-Parlance-Attempts` only when a fallback served (a healthy
/// call's body is as before), batch items and job items each saying who served them and who was
/// tried (a job item's attempts kept in the store and in the OpenAPI schema), `/providers`,
/// `/health` and `/metrics` showing the circuits.
#[tokio::test(flavor = "multi_thread")]
async fn rest_answers_say_who_served_and_who_was_tried() {
    let faulty = FaultyUpstream::start("The primary's own answer.").await;
    let config = format!(
        "[fallback]\nfailure_threshold = 3\ncooldown_ms = 600000\nrequest_chains = true\n\n{}",
        openai_provider("flaky", &faulty.base_url(), "")
    );
    let server = Server::start_in(common::home_with_config(&config), &[], &[]).await;
    let post = |path: &'static str, body: Value| {
        let request = server.client.post(server.url(path)).json(&body);
        async move {
            let r = request.send().await.unwrap();
            let header = r.headers().get("x-parlance-attempts").map(|v| v.to_str().unwrap().to_owned());
            (r.status().as_u16(), header, r.json::<Value>().await.unwrap())
        }
    };
    let (status, header, body) = post("/paraphrase", json!({"text": TEXT, "provider": "flaky"})).await;
    assert_eq!(status, 200);
    assert_eq!(header, None);
    let keys: Vec<&str> = body.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys, ["cached", "model", "original", "paraphrase", "provider", "unchanged"], "{body}");

    faulty.set(Fault::Status(503)).await;
    let (status, header, body) =
        post("/paraphrase", json!({"text": "Another text to paraphrase.", "provider": "flaky"})).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["provider"], "offline");
    assert_eq!(body["attempts"], json!([{"id": "flaky", "error": "upstream_unavailable"}]));
    assert_eq!(header.as_deref(), Some("flaky=upstream_unavailable"));

    // Opting out: the failure is the answer.
    let (status, _, body) =
        post("/paraphrase", json!({"text": "A third text.", "provider": "flaky", "fallbacks": false})).await;
    assert_eq!((status, body["error"]["code"].as_str()), (502, Some("upstream_unavailable")), "{body}");
    let (status, _, body) =
        post("/paraphrase", json!({"text": "A third text.", "provider": "flaky", "fallbacks": 3})).await;
    assert_eq!(status, 422, "{body}");

    // A batch: each item along the chain on its own (the circuit is open by now).
    let (status, _, body) =
        post("/paraphrase/batch", json!({"texts": ["One text.", "Two texts."], "provider": "flaky"})).await;
    assert_eq!(status, 200, "{body}");
    for item in body["results"].as_array().unwrap() {
        assert_eq!(item["provider"], "offline", "{body}");
        assert_eq!(item["attempts"][0]["id"], "flaky", "{body}");
    }

    // A job item records who served it.
    let (status, _, job) =
        post("/paraphrase/batch/async", json!({"texts": ["A job's text."], "provider": "flaky"})).await;
    assert_eq!(status, 202, "{job}");
    let url = server.url(&format!("/jobs/{}", job["job_id"].as_str().unwrap()));
    let done = loop {
        let view: Value = server.client.get(&url).send().await.unwrap().json().await.unwrap();
        if view["status"] == "completed" {
            break view;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert_eq!(done["results"][0]["provider"], "offline", "{done}");
    assert_eq!(done["results"][0]["attempts"], json!([{"id": "flaky", "error": "circuit_open"}]), "{done}");
    let doc: Value =
        server.client.get(server.url("/openapi.json")).send().await.unwrap().json().await.unwrap();
    let job_result = &doc["components"]["schemas"]["JobResult"]["properties"];
    assert_eq!(job_result["attempts"]["type"], "array", "{job_result}");

    let providers: Value =
        server.client.get(server.url("/providers")).send().await.unwrap().json().await.unwrap();
    let flaky =
        providers["providers"].as_array().unwrap().iter().find(|p| p["id"] == "flaky").unwrap().clone();
    assert_eq!((flaky["circuit"].as_str(), &flaky["fallbacks"]), (Some("open"), &json!(["offline"])));
    let health: Value = server.client.get(server.url("/health")).send().await.unwrap().json().await.unwrap();
    assert_eq!(health["components"]["providers"]["circuits"]["flaky"], "open", "{health}");
    assert_eq!(health["status"], "degraded");
    let metrics = server.client.get(server.url("/metrics")).send().await.unwrap().text().await.unwrap();
    assert!(metrics.contains("parlance_circuit_state{plugin=\"flaky\"} 2"), "{metrics}");
    assert!(metrics.contains("parlance_fallbacks_total{from=\"flaky\",to=\"offline\"}"), "{metrics}");
}

/// A server whose chat model `openai-chat` is at `primary`, with `backup` (another chat model, at
/// `backup`) as its chain.
async fn chat_server(primary: &FaultyUpstream, backup: &FaultyUpstream) -> Server {
    let origin = backup.base_url().trim_end_matches("/v1").to_owned();
    let config = format!(
        "[chat]\nmodel = \"openai-chat\"\n\n[fallback]\nfailure_threshold = 1000\n\n\
         [[plugin]]\nid = \"openai-chat\"\nfallbacks = [\"backup\"]\n\n\
         [[plugin]]\nid = \"backup\"\nkind = \"chat-model\"\ncomponent = \"builtin:openai-chat\"\n\
         allowed_hosts = [\"{origin}\"]\nconfig = {{ base_url = \"{}\", api_key = \"k\", model = \"backup-model\" }}\n",
        backup.base_url()
    );
    let base_url = primary.base_url();
    let env = [("PROVIDER_API_KEY", "sk-test"), ("PARLANCE_PLUGIN_OPENAI_CHAT_BASE_URL", base_url.as_str())];
    Server::start_in(common::home_with_config(&config), &env, &[]).await
}

/// The server-sent events of a whole streamed reply: (name, data).
async fn events(server: &Server, user: &str) -> Vec<(String, Value)> {
    let body = json!({"user_id": user, "message": "Hello there.", "stream": true});
    let text = server
        .client
        .post(server.chat_url("/v1/waifu"))
        .json(&body)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    text.split("\n\n")
        .filter_map(|block| {
            let name = block.lines().find_map(|l| l.strip_prefix("event:"))?.trim().to_owned();
            let data = block.lines().find_map(|l| l.strip_prefix("data:"))?.trim();
            Some((name, serde_json::from_str(data).unwrap()))
        })
        .collect()
}

/// A chat whose model fails is answered by the next chat model of its chain: the seed's body stays
/// `{user_id, response}` and the headers say who answered and who was tried; `DEFAULT_RESPONSE` is
/// the last resort after the chain. Streamed, the chain is followed only before the first delta.
#[tokio::test(flavor = "multi_thread")]
async fn a_chat_falls_back_along_its_chain_before_its_first_delta() {
    let primary = FaultyUpstream::start("The primary answers.").await;
    let backup = FaultyUpstream::start("The backup answers.").await;
    let server = chat_server(&primary, &backup).await;
    let chat = |user: &'static str| {
        let request = server
            .client
            .post(server.chat_url("/v1/waifu"))
            .json(&json!({"user_id": user, "message": "Hi."}));
        async move {
            let r = request.send().await.unwrap();
            let header = |name: &str| r.headers().get(name).map(|v| v.to_str().unwrap().to_owned());
            let headers = (
                header("x-parlance-chat-model"),
                header("x-parlance-attempts"),
                header("x-parlance-fallback"),
            );
            (headers, r.text().await.unwrap())
        }
    };
    let (headers, body) = chat("u1").await;
    assert_eq!(headers, (None, None, None));
    assert_eq!(body, r#"{"user_id":"u1","response":"The primary answers."}"#);

    primary.set(Fault::Status(503)).await;
    let (headers, body) = chat("u2").await;
    assert_eq!(body, r#"{"user_id":"u2","response":"The backup answers."}"#, "{headers:?}");
    assert_eq!(headers, (Some("backup".into()), Some("openai-chat=upstream_unavailable".into()), None));

    backup.set(Fault::Refuse).await;
    let (headers, body) = chat("u3").await;
    let fallback: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(fallback["response"], "The AI model is currently unavailable. Please try again later.");
    assert_eq!(
        headers,
        (
            None,
            Some("openai-chat=upstream_unavailable, backup=upstream_unavailable".into()),
            Some("default-response".into())
        )
    );
    backup.set(Fault::Healthy).await;

    // Streamed: a stream that closes before its first delta moves on.
    primary.set(Fault::DieBeforeFirstDelta).await;
    let got = events(&server, "u4").await;
    let text: String =
        got.iter().filter(|(n, _)| n == "delta").map(|(_, d)| d["text"].as_str().unwrap()).collect();
    assert_eq!(text, "The backup answers.", "{got:?}");
    let (name, done) = got.last().unwrap();
    assert_eq!(name, "done", "{got:?}");
    assert_eq!((done["chat_model"].as_str(), done["fallback"].as_bool()), (Some("backup"), Some(false)));
    assert_eq!(done["attempts"][0]["id"], "openai-chat", "{done}");

    // After its first delta a failure ends the stream: nothing more is asked of the chain.
    primary.set(Fault::DieMidStream).await;
    let asked = backup.requests();
    let got = events(&server, "u5").await;
    assert_eq!(got.first().unwrap().0, "delta", "{got:?}");
    assert_eq!(got.last().unwrap().0, "error", "{got:?}");
    assert_eq!(backup.requests(), asked, "no fallback after the first delta");
}

/// `POST /v1/chat/completions` moves on along the model's chain when the reply's stream closes before
/// its first delta, streamed or collected, as `/v1/waifu` does; after the first delta it does not.
#[tokio::test(flavor = "multi_thread")]
async fn a_completion_falls_back_when_its_stream_dies_before_the_first_delta() {
    let primary = FaultyUpstream::start("The primary answers.").await;
    let backup = FaultyUpstream::start("The backup answers.").await;
    let server = chat_server(&primary, &backup).await;
    let complete = |stream: bool| {
        let body = json!({"model": "openai-chat", "messages": [{"role": "user", "content": "Hi."}], "stream": stream});
        let request = server.client.post(server.url("/v1/chat/completions")).json(&body);
        async move {
            let r = request.send().await.unwrap();
            let attempts = r.headers().get("x-parlance-attempts").map(|v| v.to_str().unwrap().to_owned());
            (r.status().as_u16(), attempts, r.text().await.unwrap())
        }
    };
    primary.set(Fault::DieBeforeFirstDelta).await;
    let (status, attempts, body) = complete(false).await;
    assert_eq!(status, 200, "{body}");
    let completion: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(completion["model"], "backup", "{body}");
    assert_eq!(completion["choices"][0]["message"]["content"], "The backup answers.", "{body}");
    assert_eq!(attempts.as_deref(), Some("openai-chat=upstream_unavailable"));

    let (status, attempts, body) = complete(true).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(attempts.as_deref(), Some("openai-chat=upstream_unavailable"));
    let chunks: Vec<Value> = body
        .lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .filter(|d| *d != "[DONE]")
        .map(|d| serde_json::from_str(d).unwrap())
        .collect();
    let text: String = chunks.iter().filter_map(|c| c["choices"][0]["delta"]["content"].as_str()).collect();
    assert_eq!(text, "The backup answers.", "{body}");
    assert!(chunks.iter().all(|c| c["model"] == "backup"), "{body}");

    // After its first delta a failure is the completion's own: nothing more is asked of the chain.
    primary.set(Fault::DieMidStream).await;
    let asked = backup.requests();
    let (status, _, body) = complete(false).await;
    assert!(status >= 500, "{status} {body}");
    assert_eq!(backup.requests(), asked, "no fallback after the first delta");
}

/// Three replicas on one Redis share each circuit: once one replica saw the upstream fail enough to
/// open it, the others skip it too, without a call of their own.
#[tokio::test(flavor = "multi_thread")]
async fn replicas_on_one_redis_share_the_circuits() {
    let redis = Redis::start().await;
    let faulty = FaultyUpstream::start("The primary answers.").await;
    let config = format!(
        "[fallback]\nfailure_threshold = 2\ncooldown_ms = 600000\n\n{}",
        openai_provider("flaky", &faulty.base_url(), "")
    );
    let url = redis.url();
    let env = [("CACHE_TYPE", "redis"), ("CACHE_STORE_URL", url.as_str())];
    let mut replicas = Vec::new();
    for _ in 0..3 {
        replicas.push(Server::start_in(common::home_with_config(&config), &env, &[]).await);
    }
    faulty.set(Fault::Status(500)).await;
    let paraphrase = |server: &Server, text: &str| {
        let request =
            server.client.post(server.url("/paraphrase")).json(&json!({"text": text, "provider": "flaky"}));
        async move { request.send().await.unwrap().json::<Value>().await.unwrap() }
    };
    for i in 0..2 {
        let body = paraphrase(&replicas[0], &format!("Text number {i} for the first replica.")).await;
        assert_eq!(body["provider"], "offline", "{body}");
    }
    assert_eq!(faulty.requests(), 2);
    // The others learn of it within a few polls of Redis.
    for replica in &replicas[1..] {
        let started = std::time::Instant::now();
        loop {
            let health: Value =
                replica.client.get(replica.url("/health")).send().await.unwrap().json().await.unwrap();
            if health["components"]["providers"]["circuits"]["flaky"] == "open" {
                break;
            }
            assert!(started.elapsed() < Duration::from_secs(30), "the circuit never opened here: {health}");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    for (n, replica) in replicas.iter().enumerate().skip(1) {
        let body = paraphrase(replica, &format!("A text for replica {n}.")).await;
        assert_eq!(body["attempts"], json!([{"id": "flaky", "error": "circuit_open"}]), "{body}");
    }
    assert_eq!(faulty.requests(), 2, "the other replicas spared themselves the calls");
}
