//! The bundled JavaScript provider (`builtin:ollama`, componentize-js) through the host: it answers
//! `/paraphrase` against a local server that speaks Ollama's native protocol once the operator binds
//! it, maps each upstream failure to the same `plugin-error` case as the Rust providers, and cannot
//! reach a host outside its allow-list.

use crate::common;
use common::server::Server;
use common::upstream::FakeOllama;
use parlance::plugins::api::{CallFailure, PluginErrorKind};
use parlance::{Error, ParaphraseRequest, Parlance};
use serde_json::{Value, json};

/// A `parlance.toml` binding `builtin:ollama` as the provider `ollama`.
fn config(allowed: &str, base_url: &str, extra: &str) -> String {
    format!(
        "[paraphrase]\nupstream_retries = 0\n\n[[plugin]]\nid = \"ollama\"\nkind = \"provider\"\n\
         component = \"builtin:ollama\"\nallowed_hosts = [\"{allowed}\"]\n\
         config = {{ base_url = \"{base_url}\"{extra} }}\n"
    )
}

#[tokio::test(flavor = "multi_thread")]
async fn answers_paraphrase_once_bound_in_config() {
    let upstream = FakeOllama::start("A swift auburn fox leaps over the idle hound.").await;
    let home = tempfile::tempdir().unwrap();
    let url = upstream.base_url();
    std::fs::write(home.path().join("parlance.toml"), config(&url, &url, ", model = \"llama3.2\"")).unwrap();
    let server = Server::start_in(home, &[], &["--config", "parlance.toml"]).await;

    let text = "The quick brown fox jumps over the lazy dog.";
    let r = server
        .client
        .post(server.url("/paraphrase"))
        .json(&json!({"text": text, "provider": "ollama"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["paraphrase"], "A swift auburn fox leaps over the idle hound.", "{body}");
    assert_eq!(body["provider"], "ollama");
    assert_eq!(body["model"], "llama3.2", "{body}");

    let seen = upstream.requests();
    assert_eq!(seen.len(), 1);
    assert_eq!(seen[0]["model"], "llama3.2");
    assert_eq!(seen[0]["stream"], false);
    assert!(seen[0]["prompt"].as_str().unwrap().ends_with(text), "{}", seen[0]);

    // A model named by the client goes to Ollama as it is.
    let r = server
        .client
        .post(server.url("/paraphrase"))
        .json(&json!({"text": "Hello there, friend.", "provider": "ollama", "model": "qwen2.5:0.5b"}))
        .send()
        .await
        .unwrap();
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["model"], "qwen2.5:0.5b", "{body}");
    assert_eq!(upstream.requests()[1]["model"], "qwen2.5:0.5b");
}

#[tokio::test(flavor = "multi_thread")]
async fn is_not_loaded_unless_bound() {
    let server = Server::start(&[]).await;
    let health: Value = server.client.get(server.url("/health")).send().await.unwrap().json().await.unwrap();
    let providers = health["components"]["plugins"]["providers"].as_array().unwrap();
    assert!(!providers.iter().any(|p| p == "ollama"), "{health}");
    let metrics = health["components"]["plugins"]["metrics"].as_array().unwrap();
    assert!(!metrics.iter().any(|p| p == "parascore"), "{health}");
}

#[tokio::test(flavor = "multi_thread")]
async fn maps_each_upstream_failure_like_the_rust_providers() {
    let upstream = FakeOllama::start("unused").await;
    let home = tempfile::tempdir().unwrap();
    let file = home.path().join("parlance.toml");
    let url = upstream.base_url();
    std::fs::write(&file, config(&url, &url, ", timeout_ms = 1000")).unwrap();
    let env = parlance::config::Env::empty()
        .with("HOME", home.path().to_str().unwrap())
        .with("CACHE_TYPE", "memory")
        .with("PARLANCE_CACHE_DIR", common::compile_cache_dir().to_str().unwrap());
    let parlance = Parlance::builder().env(env).config_file(&file).build().await.unwrap();
    let outcome = |model: &'static str| {
        let parlance = parlance.clone();
        async move {
            let request = ParaphraseRequest {
                provider: Some("ollama".into()),
                model: Some(model.into()),
                skip_cache: true,
                ..ParaphraseRequest::new("Hello there.")
            };
            match parlance.paraphrase(&request).await {
                Err(Error::Plugin(e)) => match e.failure {
                    CallFailure::Reported(p) => (p.kind, p.message),
                    other => panic!("{model}: expected a reported error, got {other:?}"),
                },
                other => panic!("{model}: expected a plugin error, got {other:?}"),
            }
        }
    };
    let cases = [
        ("fail-401", PluginErrorKind::Unauthorized, "HTTP 401: unauthorized"),
        ("fail-403", PluginErrorKind::Unauthorized, "HTTP 403"),
        ("fail-404", PluginErrorKind::InvalidInput, "not found, try pulling it first"),
        ("fail-429", PluginErrorKind::RateLimited { retry_after_secs: Some(7) }, "HTTP 429"),
        ("fail-500", PluginErrorKind::Unavailable, "llama runner process has terminated"),
        ("fail-503", PluginErrorKind::Unavailable, "HTTP 503"),
        ("fail-504", PluginErrorKind::Timeout, "HTTP 504"),
        ("html", PluginErrorKind::BadResponse, "502 Bad Gateway"),
        ("garbage", PluginErrorKind::BadResponse, "not JSON"),
        ("no-response", PluginErrorKind::BadResponse, "no `response`"),
        ("slow", PluginErrorKind::Timeout, "within 1000 ms"),
    ];
    for (model, kind, detail) in cases {
        let (got, message) = outcome(model).await;
        assert_eq!(got, kind, "{model}: {message}");
        assert!(message.contains(detail), "{model}: {message:?} should mention {detail:?}");
    }

    // Nothing listens on a port just bound and dropped: the request never gets an answer.
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let closed = format!("http://127.0.0.1:{port}");
    std::fs::write(&file, config(&closed, &closed, "")).unwrap();
    let env = parlance::config::Env::empty()
        .with("HOME", home.path().to_str().unwrap())
        .with("CACHE_TYPE", "memory")
        .with("PARLANCE_CACHE_DIR", common::compile_cache_dir().to_str().unwrap());
    let parlance = Parlance::builder().env(env).config_file(&file).build().await.unwrap();
    let request = ParaphraseRequest { provider: Some("ollama".into()), ..ParaphraseRequest::new("Hello.") };
    match parlance.paraphrase(&request).await {
        Err(Error::Plugin(e)) => assert!(
            matches!(&e.failure, CallFailure::Reported(p) if p.kind == PluginErrorKind::Unavailable),
            "{e}"
        ),
        other => panic!("expected unavailable, got {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn the_sandbox_refuses_a_host_outside_its_allow_list() {
    let allowed = FakeOllama::start("allowed").await;
    let forbidden = FakeOllama::start("must never answer").await;
    let home = tempfile::tempdir().unwrap();
    std::fs::write(home.path().join("parlance.toml"), config(&allowed.base_url(), &forbidden.base_url(), ""))
        .unwrap();
    let server = Server::start_in(home, &[], &["--config", "parlance.toml"]).await;
    let r = server
        .client
        .post(server.url("/paraphrase"))
        .json(&json!({"text": "Hello there.", "provider": "ollama"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 502);
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["error"]["code"], "upstream_unavailable", "{body}");
    let message = body["error"]["message"].as_str().unwrap();
    assert!(
        message.contains(&format!("the sandbox refused its request to http://{}", forbidden.addr)),
        "{message}"
    );
    assert!(forbidden.requests().is_empty(), "the host outside the allow-list was contacted");
    assert!(allowed.requests().is_empty());
}
