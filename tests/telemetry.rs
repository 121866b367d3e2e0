//! Traces exported to a real OTLP/HTTP receiver (`otlp_receiver.py`, which decodes each export with the
//! official `opentelemetry-proto` package): the span tree of a paraphrase, a streamed chat and a job
//! item, a fallback's members under one route span, the caller's trace continued and carried to the
//! upstream, no secret in any span; a trace the sampler drops, which has no span, and a caller's
//! sampling flag followed; a collector that is down, which fails no request and whose dropped
//! spans `/metrics` counts; and a collector over HTTPS, trusted through the standard variable.

use crate::common::server::{Server, free_port};
use crate::common::upstream::{FakeOpenAi, FakeStreamingOpenAi, TestCa};
use serde_json::{Value, json};
use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

/// The provider key the server is given: it must appear in no span.
const PROVIDER_KEY: &str = "sk-trace-secret-4f1c9e";

/// The receiver, killed when dropped.
struct Receiver {
    child: Child,
    port: u16,
    scheme: &'static str,
    spans: PathBuf,
    _dir: tempfile::TempDir,
}

impl Receiver {
    fn start() -> Receiver {
        Receiver::serving(None)
    }

    /// A receiver over HTTPS, with a certificate `ca` signed.
    fn start_tls(ca: &TestCa) -> Receiver {
        Receiver::serving(Some(ca))
    }

    fn serving(tls: Option<&TestCa>) -> Receiver {
        let dir = tempfile::tempdir().unwrap();
        let spans = dir.path().join("spans.jsonl");
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/otlp_receiver.py");
        let mut command = std::process::Command::new(python());
        command.arg(script);
        if let Some(ca) = tls {
            let (certificate, key) = ca.write_server(dir.path());
            command.arg("--tls").arg(certificate).arg(key);
        }
        let mut child = command
            .arg(&spans)
            .stdout(Stdio::piped())
            .spawn()
            .expect("python runs the receiver (scripts/setup.sh --tests installs opentelemetry-proto)");
        let mut line = String::new();
        std::io::BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        let port = line.trim().parse().unwrap_or_else(|_| panic!("the receiver did not start: {line:?}"));
        Receiver { child, port, scheme: if tls.is_some() { "https" } else { "http" }, spans, _dir: dir }
    }

    fn endpoint(&self) -> String {
        format!("{}://127.0.0.1:{}", self.scheme, self.port)
    }

    /// Every span received so far.
    fn spans(&self) -> Vec<Value> {
        let text = std::fs::read_to_string(&self.spans).unwrap_or_default();
        text.lines().map(|l| serde_json::from_str(l).unwrap()).collect()
    }

    fn text(&self) -> String {
        std::fs::read_to_string(&self.spans).unwrap_or_default()
    }

    /// The spans of the first trace whose root is named `root` and which holds a span of each of
    /// the `expected` names, once they have all arrived.
    async fn trace(&self, root: &str, expected: &[&str]) -> Vec<Value> {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let spans = self.spans();
            let complete = spans.iter().filter(|s| s["name"] == root).find_map(|root| {
                let trace: Vec<Value> =
                    spans.iter().filter(|s| s["trace_id"] == root["trace_id"]).cloned().collect();
                expected.iter().all(|name| trace.iter().any(|s| s["name"] == *name)).then_some(trace)
            });
            if let Some(trace) = complete {
                return trace;
            }
            assert!(Instant::now() < deadline, "no complete trace under {root}: {spans:#?}");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
}

impl Drop for Receiver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn python() -> String {
    let venv = Path::new(env!("CARGO_MANIFEST_DIR")).join("../.venv/bin/python3");
    if venv.exists() { venv.to_string_lossy().into_owned() } else { "python3".into() }
}

/// The span named `name` whose parent is `parent`.
fn child<'a>(trace: &'a [Value], parent: &Value, name: &str) -> &'a Value {
    trace
        .iter()
        .find(|s| s["name"] == name && s["parent_span_id"] == parent["span_id"])
        .unwrap_or_else(|| panic!("no {name} under {}: {trace:#?}", parent["name"]))
}

/// The names of a span's children, sorted.
fn children(trace: &[Value], parent: &Value) -> Vec<String> {
    let mut names: Vec<String> = trace
        .iter()
        .filter(|s| s["parent_span_id"] == parent["span_id"])
        .map(|s| s["name"].as_str().unwrap().to_owned())
        .collect();
    names.sort();
    names
}

async fn traced_server(receiver_endpoint: &str, provider: &FakeOpenAi, chat: &FakeStreamingOpenAi) -> Server {
    let home = tempfile::tempdir().unwrap();
    std::fs::write(home.path().join("parlance.toml"), "[chat]\nmodel = \"openai-chat\"\n").unwrap();
    // OpenTelemetry's own variables are read from `.env` too, like every other.
    std::fs::write(home.path().join(".env"), "OTEL_SERVICE_NAME=parlance-under-test\n").unwrap();
    let (provider_url, chat_url) = (provider.base_url(), chat.base_url());
    let env = [
        ("OTEL_EXPORTER_OTLP_ENDPOINT", receiver_endpoint),
        ("OTEL_BSP_SCHEDULE_DELAY", "50"),
        ("PROVIDER_API_KEY", PROVIDER_KEY),
        ("PARLANCE_PLUGIN_OPENROUTER_BASE_URL", provider_url.as_str()),
        ("PARLANCE_PLUGIN_OPENAI_CHAT_BASE_URL", chat_url.as_str()),
        ("RATE_LIMIT_REQUESTS_PER_MINUTE", "100000"),
    ];
    Server::start_in(home, &env, &["--config", "parlance.toml"]).await
}

#[tokio::test(flavor = "multi_thread")]
async fn a_paraphrase_a_chat_and_a_job_item_are_traced_span_by_span() {
    let receiver = Receiver::start();
    let provider = FakeOpenAi::start("A traced answer.").await;
    let chat = FakeStreamingOpenAi::start(3, Duration::from_millis(10)).await;
    let server = traced_server(&receiver.endpoint(), &provider, &chat).await;

    // A paraphrase inside the caller's trace.
    let caller_trace = "4bf92f3577b34da6a3ce929d0e0e4736";
    let caller_span = "00f067aa0ba902b7";
    let r = server
        .client
        .post(server.url("/paraphrase"))
        .header("traceparent", format!("00-{caller_trace}-{caller_span}-01"))
        .header("tracestate", "vendor=kept")
        .json(&json!({"text": "Trace this sentence, please.", "provider": "openrouter"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200, "{}", r.text().await.unwrap());
    const CALL: &str = "text_completion deepseek/deepseek-chat-v3-0324:free";
    let trace =
        receiver.trace("POST /paraphrase", &["cache.get", "cache.put", "rate_limit", CALL, "POST"]).await;
    let route = trace.iter().find(|s| s["name"] == "POST /paraphrase").unwrap();
    assert_eq!(
        (route["trace_id"].as_str(), route["parent_span_id"].as_str()),
        (Some(caller_trace), Some(caller_span))
    );
    assert_eq!(route["trace_state"], "vendor=kept");
    // Sampled (bit 0), and the parent's remoteness known (bit 8) and remote (bit 9): the caller's.
    assert_eq!(route["flags"], 0x301);
    assert_eq!(route["status"], "unset");
    assert_eq!(
        (route["kind"].as_str(), route["service"].as_str()),
        (Some("server"), Some("parlance-under-test"))
    );
    assert_eq!(route["attributes"]["http.route"], "/paraphrase");
    assert_eq!(route["attributes"]["http.response.status_code"], 200);
    assert_eq!(children(&trace, route), ["cache.get", "cache.put", "rate_limit", CALL]);
    assert_eq!(child(&trace, route, "cache.get")["attributes"]["parlance.cache.hit"], false);
    assert_eq!(child(&trace, route, "rate_limit")["attributes"]["parlance.rate_limit.admitted"], true);
    let call = child(&trace, route, CALL);
    let attributes = &call["attributes"];
    assert_eq!(attributes["gen_ai.operation.name"], "text_completion");
    assert_eq!(attributes["gen_ai.provider.name"], "openai");
    assert_eq!(attributes["gen_ai.request.model"], "deepseek/deepseek-chat-v3-0324:free");
    assert_eq!(attributes["gen_ai.response.model"], "deepseek/deepseek-chat-v3-0324:free");
    assert_eq!(attributes["parlance.plugin.id"], "openrouter");
    assert!(attributes["parlance.plugin.memory_peak_bytes"].as_i64().unwrap() > 0, "{call}");
    assert!(attributes.get("gen_ai.usage.input_tokens").is_none(), "a paraphrase reports no usage");
    assert!(attributes.get("gen_ai.input.messages").is_none(), "no prompt unless the operator asks");
    let outbound = child(&trace, call, "POST");
    assert_eq!(outbound["flags"], 0x101, "sampled, under a local parent");
    assert_eq!(outbound["kind"], "client");
    assert_eq!(outbound["attributes"]["http.response.status_code"], 200);
    assert_eq!(outbound["attributes"]["server.address"], "127.0.0.1");
    // The upstream saw the outbound span as its parent, in the caller's trace.
    let seen = provider.requests();
    assert_eq!(
        seen[0].traceparent.as_deref(),
        Some(format!("00-{caller_trace}-{}-01", outbound["span_id"].as_str().unwrap()).as_str())
    );

    // The same text again: a cache hit, and nothing below the cache.
    let r = server
        .client
        .post(server.url("/paraphrase"))
        .json(&json!({"text": "Trace this sentence, please.", "provider": "openrouter"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    let deadline = Instant::now() + Duration::from_secs(30);
    let hit = loop {
        assert!(Instant::now() < deadline, "the cache hit's trace never arrived");
        let spans = receiver.spans();
        let second =
            spans.iter().find(|s| s["name"] == "POST /paraphrase" && s["trace_id"] != caller_trace).cloned();
        if let Some(route) = second {
            let trace: Vec<Value> =
                spans.into_iter().filter(|s| s["trace_id"] == route["trace_id"]).collect();
            if trace.len() > 1 {
                break trace;
            }
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let route = hit.iter().find(|s| s["name"] == "POST /paraphrase").unwrap();
    assert_eq!(children(&hit, route), ["cache.get"], "a hit calls nothing: {hit:#?}");
    assert_eq!(child(&hit, route, "cache.get")["attributes"]["parlance.cache.hit"], true);

    // A streamed chat: the store reads and writes, the chat model's call with the usage the upstream
    // reported, its request.
    let r = server
        .client
        .post(server.chat_url("/v1/waifu"))
        .header("current-user", "tracer")
        .json(&json!({"user_id": "ann", "message": "Hello there", "stream": true}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    let events = r.text().await.unwrap();
    assert!(events.contains("event: done"), "{events}");
    let trace =
        receiver.trace("POST /v1/waifu", &["chat openai-chat", "POST", "append_exchange sqlite"]).await;
    let route = trace.iter().find(|s| s["name"] == "POST /v1/waifu").unwrap();
    assert_eq!(route["parent_span_id"], "", "a request without a traceparent starts a trace");
    let call = child(&trace, route, "chat openai-chat");
    assert_eq!(call["attributes"]["gen_ai.operation.name"], "chat");
    assert_eq!(call["attributes"]["gen_ai.response.model"], "fake-stream");
    assert_eq!(call["attributes"]["gen_ai.usage.input_tokens"], 11);
    assert_eq!(call["attributes"]["gen_ai.usage.output_tokens"], 3);
    assert_eq!(child(&trace, call, "POST")["attributes"]["http.response.status_code"], 200);
    let stores: Vec<&Value> =
        trace.iter().filter(|s| s["attributes"]["db.system.name"] == "sqlite").collect();
    let operations: Vec<&str> =
        stores.iter().map(|s| s["attributes"]["db.operation.name"].as_str().unwrap()).collect();
    assert!(operations.contains(&"append_exchange"), "{operations:?}");
    assert!(stores.iter().all(|s| s["kind"] == "client"), "{stores:#?}");

    // A job item: a trace of its own, paced by the rate limit, through the provider to the store.
    let r = server
        .client
        .post(server.url("/paraphrase/batch/async"))
        .header("current-user", "tracer")
        .json(&json!({"texts": ["A job's only text."], "provider": "openrouter"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 202);
    let trace = receiver
        .trace("job item", &["cache.get", "cache.put", "finish_item sqlite", "rate_limit.wait", CALL, "POST"])
        .await;
    let item = trace.iter().find(|s| s["name"] == "job item").unwrap();
    assert_eq!(item["parent_span_id"], "");
    // Linked to the request that created its job.
    let created = receiver.trace("POST /paraphrase/batch/async", &[]).await;
    let creator = created.iter().find(|s| s["name"] == "POST /paraphrase/batch/async").unwrap();
    assert_eq!(
        item["links"],
        json!([{"trace_id": creator["trace_id"], "span_id": creator["span_id"]}]),
        "{item:#}"
    );
    assert_eq!(item["attributes"]["parlance.job.item"], 0);
    assert_eq!(
        children(&trace, item),
        ["cache.get", "cache.put", "finish_item sqlite", "rate_limit.wait", CALL]
    );
    let call = child(&trace, item, CALL);
    let outbound = child(&trace, call, "POST");
    let traceparent = provider.requests().last().unwrap().traceparent.clone().unwrap();
    assert!(traceparent.contains(outbound["span_id"].as_str().unwrap()), "{traceparent}");

    // No secret anywhere in what was exported.
    let exported = receiver.text();
    assert!(!exported.contains(PROVIDER_KEY), "the provider key was exported");
    assert!(!exported.contains("Trace this sentence"), "a prompt was exported");
    drop(server);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_collector_that_is_down_fails_no_request_and_its_dropped_spans_are_counted() {
    // Nothing listens on this port.
    let endpoint = format!("http://127.0.0.1:{}", free_port());
    let server = Server::start(&[
        ("OTEL_EXPORTER_OTLP_ENDPOINT", endpoint.as_str()),
        ("OTEL_BSP_SCHEDULE_DELAY", "50"),
        ("OTEL_EXPORTER_OTLP_TIMEOUT", "500"),
    ])
    .await;
    for i in 0..20 {
        let r = server
            .client
            .post(server.url("/paraphrase"))
            .json(&json!({"text": format!("Offline text {i}."), "provider": "offline"}))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200);
    }
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let metrics = server.client.get(server.url("/metrics")).send().await.unwrap().text().await.unwrap();
        let dropped = metrics
            .lines()
            .find_map(|l| l.strip_prefix("parlance_trace_spans_dropped_total{reason=\"export_failed\"} "))
            .map(|v| v.parse::<f64>().unwrap())
            .unwrap_or_else(|| panic!("no dropped-spans series: {metrics}"));
        if dropped > 0.0 {
            break;
        }
        assert!(Instant::now() < deadline, "no dropped span counted: {metrics}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_fallback_is_one_trace_with_each_member_s_call_under_the_route() {
    let receiver = Receiver::start();
    let home = tempfile::tempdir().unwrap();
    std::fs::write(
        home.path().join("parlance.toml"),
        "[[plugin]]\nid = \"openrouter\"\nfallbacks = [\"offline\"]\n",
    )
    .unwrap();
    // Nothing listens there: the primary's upstream refuses the connection.
    let dead = format!("http://127.0.0.1:{}/api/v1", free_port());
    let endpoint = receiver.endpoint();
    let env = [
        ("OTEL_EXPORTER_OTLP_ENDPOINT", endpoint.as_str()),
        ("OTEL_BSP_SCHEDULE_DELAY", "50"),
        ("PROVIDER_API_KEY", PROVIDER_KEY),
        ("PARLANCE_PLUGIN_OPENROUTER_BASE_URL", dead.as_str()),
        ("RATE_LIMIT_REQUESTS_PER_MINUTE", "100000"),
    ];
    let server = Server::start_in(home, &env, &["--config", "parlance.toml"]).await;
    let r = server
        .client
        .post(server.url("/paraphrase"))
        .json(&json!({"text": "The meeting was moved to Friday afternoon.", "provider": "openrouter"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["provider"], "offline", "{body}");

    const PRIMARY: &str = "text_completion deepseek/deepseek-chat-v3-0324:free";
    let trace = receiver.trace("POST /paraphrase", &[PRIMARY, "POST"]).await;
    let route = trace.iter().find(|s| s["name"] == "POST /paraphrase").unwrap();
    // Both members' calls hang under the one route span, the primary's first, failed, with its
    // refused request below it; the fallback's succeeded.
    let mut calls: Vec<&Value> = trace
        .iter()
        .filter(|s| {
            s["parent_span_id"] == route["span_id"] && s["attributes"]["gen_ai.operation.name"].is_string()
        })
        .collect();
    calls.sort_by_key(|c| c["start"].as_u64());
    let ids: Vec<&str> =
        calls.iter().map(|c| c["attributes"]["parlance.plugin.id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["openrouter", "offline"], "{trace:#?}");
    assert!(calls[0]["attributes"]["error.type"].is_string(), "{:#?}", calls[0]);
    assert_eq!(calls[0]["status"], "error", "{:#?}", calls[0]);
    assert!(calls[1]["attributes"].get("error.type").is_none(), "{:#?}", calls[1]);
    assert_eq!(calls[1]["status"], "unset", "{:#?}", calls[1]);
    let refused = child(&trace, calls[0], "POST");
    assert!(refused["attributes"]["error.type"].is_string(), "{refused:#}");
    assert!(!receiver.text().contains(PROVIDER_KEY), "the provider key was exported");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_trace_the_sampler_drops_has_no_span_and_a_caller_s_decision_is_followed() {
    let receiver = Receiver::start();
    let endpoint = receiver.endpoint();
    // Every new trace is dropped; a continued one follows its caller's flag.
    let env = [
        ("OTEL_EXPORTER_OTLP_ENDPOINT", endpoint.as_str()),
        ("OTEL_BSP_SCHEDULE_DELAY", "50"),
        ("OTEL_TRACES_SAMPLER", "parentbased_traceidratio"),
        ("OTEL_TRACES_SAMPLER_ARG", "0"),
    ];
    let server = Server::start(&env).await;
    let paraphrase = |text: String, traceparent: Option<&'static str>| {
        let mut request = server.client.post(server.url("/paraphrase")).json(&json!({"text": text}));
        if let Some(traceparent) = traceparent {
            request = request.header("traceparent", traceparent);
        }
        async move { assert_eq!(request.send().await.unwrap().status(), 200) }
    };
    for i in 0..5 {
        paraphrase(format!("The sampler drops this trace, number {i}."), None).await;
    }
    const DROPPED: &str = "00-5c0ffee05c0ffee05c0ffee05c0ffee0-00f067aa0ba902b7-00";
    const KEPT: &str = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    paraphrase("The caller did not sample this one.".into(), Some(DROPPED)).await;
    paraphrase("The caller sampled this one.".into(), Some(KEPT)).await;
    let trace = receiver.trace("POST /paraphrase", &["cache.get", "text_completion wordnet-3.0"]).await;
    assert!(trace.iter().all(|s| s["trace_id"] == "4bf92f3577b34da6a3ce929d0e0e4736"), "{trace:#?}");
    // Spans leave in the order they end, and the batch thread exports every 50 ms: had the dropped
    // traces made any, they would have arrived by now.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let spans = receiver.spans();
    let foreign: Vec<&Value> =
        spans.iter().filter(|s| s["trace_id"] != "4bf92f3577b34da6a3ce929d0e0e4736").collect();
    assert!(foreign.is_empty(), "spans of dropped traces were exported: {foreign:#?}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_collector_over_https_is_trusted_through_the_standard_certificate_variable() {
    let ca = TestCa::new();
    let receiver = Receiver::start_tls(&ca);
    let endpoint = receiver.endpoint();
    let home = tempfile::tempdir().unwrap();
    let ca_file = ca.write(home.path());
    let env = [
        ("OTEL_EXPORTER_OTLP_ENDPOINT", endpoint.as_str()),
        ("OTEL_EXPORTER_OTLP_CERTIFICATE", ca_file.to_str().unwrap()),
        ("OTEL_BSP_SCHEDULE_DELAY", "50"),
    ];
    let server = Server::start_in(home, &env, &[]).await;
    let r =
        server.client.post(server.url("/paraphrase")).json(&json!({"text": "Sent over TLS."})).send().await;
    assert_eq!(r.unwrap().status(), 200);
    let trace = receiver.trace("POST /paraphrase", &["cache.get"]).await;
    assert_eq!(trace.iter().find(|s| s["name"] == "POST /paraphrase").unwrap()["service"], "parlance");

    // Without that CA the collector's certificate is refused: the spans are dropped and counted, and
    // the request is served all the same.
    let untrusted = Server::start(&[
        ("OTEL_EXPORTER_OTLP_ENDPOINT", endpoint.as_str()),
        ("OTEL_BSP_SCHEDULE_DELAY", "50"),
    ])
    .await;
    let r = untrusted
        .client
        .post(untrusted.url("/paraphrase"))
        .json(&json!({"text": "Not trusted."}))
        .send()
        .await;
    assert_eq!(r.unwrap().status(), 200);
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let metrics =
            untrusted.client.get(untrusted.url("/metrics")).send().await.unwrap().text().await.unwrap();
        if metrics.lines().any(|l| {
            l.starts_with("parlance_trace_spans_dropped_total{reason=\"export_failed\"} ")
                && !l.ends_with(" 0")
        }) {
            break;
        }
        assert!(Instant::now() < deadline, "no failed export counted: {metrics}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let routes = receiver.spans().into_iter().filter(|s| s["name"] == "POST /paraphrase").count();
    assert_eq!(routes, 1, "only the trusting server's request reached the collector");
}
