//! The contract's compatibility promise, literally: `tests/fixtures/compat-v0_1_0/compat_v0_1_0.wasm`
//! was built against `parlance:plugin@0.1.0` and committed before 0.1.1 added the optional `probe`
//! export, 0.1.2 the `http-client` import, 0.1.3 `chat-stream` and 0.1.4 the `metering` import. Today's
//! host, which binds the 0.1 line through bindings generated from 0.1.4, still loads it, calls it and
//! lists it as 0.1.0, while a 0.1.4 component in the same
//! server answers the probe and reports what its upstream counted.

use crate::common;
use common::server::Server;
use common::upstream::FakeOllama;
use serde_json::{Value, json};
use std::path::PathBuf;

fn fixture() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/compat-v0_1_0/compat_v0_1_0.wasm")
}

#[test]
fn the_0_1_0_component_declares_0_1_0_and_checks_against_today_s_host() {
    let bytes = std::fs::read(fixture()).unwrap();
    // The version is in the component's own export and import names, not only in our bookkeeping.
    let text = String::from_utf8_lossy(&bytes);
    assert!(text.contains("parlance:plugin/provider@0.1.0"));
    assert!(!text.contains("@0.1.1"), "the fixture must predate 0.1.1");
    let home = tempfile::tempdir().unwrap();
    let out = common::command(home.path()).args(["plugins", "check"]).arg(fixture()).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("fits parlance:plugin/provider-plugin@0.1.0"), "{stdout}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_component_built_for_0_1_0_loads_and_works_beside_today_s() {
    let ollama = FakeOllama::start("An Ollama paraphrase.").await;
    let home = tempfile::tempdir().unwrap();
    let config = format!(
        "[[plugin]]\nid = \"old\"\nkind = \"provider\"\ncomponent = \"{}\"\nconfig = {{ suffix = \"(0.1.0)\" }}\n\n\
         [[plugin]]\nid = \"ollama\"\nkind = \"provider\"\ncomponent = \"builtin:ollama\"\n\
         allowed_hosts = [\"{url}\"]\nconfig = {{ base_url = \"{url}\" }}\n",
        fixture().display(),
        url = ollama.base_url()
    );
    std::fs::write(home.path().join("parlance.toml"), config).unwrap();

    let listed = common::command(home.path()).args(["plugins", "list", "--json"]).output().unwrap();
    assert!(listed.status.success(), "{}", String::from_utf8_lossy(&listed.stderr));
    let rows: Vec<Value> = serde_json::from_slice(&listed.stdout).unwrap();
    let version = |id: &str| rows.iter().find(|r| r["id"] == id).map(|r| r["wit_version"].clone());
    assert_eq!(version("old"), Some(json!("0.1.0")));
    assert_eq!(version("ollama"), Some(json!("0.1.4")));
    assert_eq!(
        version("offline"),
        Some(json!("0.1.4")),
        "the bundled Rust plugins are rebuilt against 0.1.4"
    );

    let server = Server::start_in(home, &[], &["--config", "parlance.toml"]).await;
    let r = server
        .client
        .post(server.url("/paraphrase"))
        .json(&json!({"text": "built before the change", "provider": "old"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["paraphrase"], "change the before built (0.1.0)", "{body}");
    assert_eq!(body["model"], "v0.1.0");
    // The 0.1.4 addition: the JavaScript provider reports the count Ollama gave (`eval_count`, and no
    // `prompt_eval_count`); the 0.1.0 component reports nothing and, with no host it may reach, is
    // recorded as having used nothing.
    let r = server
        .client
        .post(server.url("/paraphrase"))
        .json(&json!({"text": "counted by its upstream", "provider": "ollama"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    let usage: Value =
        server.client.get(server.url("/usage?group_by=plugin")).send().await.unwrap().json().await.unwrap();
    let of =
        |id: &str| usage["groups"].as_array().unwrap().iter().find(|g| g["group"]["plugin"] == id).cloned();
    let old = of("old").unwrap_or_else(|| panic!("{usage}"));
    assert_eq!(
        (old["calls"].as_u64(), old["input_tokens"].as_u64(), old["cost"].as_str()),
        (Some(1), Some(0), Some("0"))
    );
    let counted = of("ollama").unwrap_or_else(|| panic!("{usage}"));
    assert_eq!((counted["input_tokens"].as_u64(), counted["output_tokens"].as_u64()), (Some(0), Some(12)));
    assert_eq!((counted["unreported_calls"].as_u64(), counted["cost"].clone()), (Some(0), Value::Null));

    // The 0.1.1 addition: a probe where the component has one, `unsupported` where it predates it.
    let health: Value =
        server.client.get(server.url("/health?probe=true")).send().await.unwrap().json().await.unwrap();
    let probes = &health["probes"];
    assert_eq!(probes["old"]["status"], "unsupported", "{health}");
    assert_eq!(probes["ollama"]["status"], "ok", "{health}");
    assert!(probes["ollama"]["detail"].as_str().unwrap().contains("model llama3.2 is available"), "{health}");
    assert_eq!(probes["offline"]["status"], "unsupported");
    // Without the parameter, /health sends nothing upstream.
    let before = ollama.requests().len();
    let plain: Value = server.client.get(server.url("/health")).send().await.unwrap().json().await.unwrap();
    assert!(plain.get("probes").is_none(), "{plain}");
    assert_eq!(ollama.requests().len(), before);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_failing_probe_degrades_health_and_says_why() {
    let ollama = FakeOllama::start("unused").await;
    let home = tempfile::tempdir().unwrap();
    let config = format!(
        "[[plugin]]\nid = \"ollama\"\nkind = \"provider\"\ncomponent = \"builtin:ollama\"\n\
         allowed_hosts = [\"{url}\"]\nconfig = {{ base_url = \"{url}\", model = \"mistral\" }}\n",
        url = ollama.base_url()
    );
    std::fs::write(home.path().join("parlance.toml"), config).unwrap();
    let server = Server::start_in(home, &[], &["--config", "parlance.toml"]).await;
    let health: Value =
        server.client.get(server.url("/health?probe=true")).send().await.unwrap().json().await.unwrap();
    assert_eq!(health["status"], "degraded", "{health}");
    assert_eq!(health["probes"]["ollama"]["status"], "failed");
    let detail = health["probes"]["ollama"]["detail"].as_str().unwrap();
    assert!(detail.contains("misconfigured") && detail.contains("ollama pull mistral"), "{detail}");
}
