//! The OpenAI-compatible provider against a local server that speaks chat completions: the key goes
//! as a bearer token, each upstream failure maps to its own error, and the allow-list holds.

use crate::common;
use common::server::free_port;
use common::upstream::{FakeGemini, FakeOpenAi, FakeStreamingOpenAi, TestCa, resetting_server};
use parlance::config::Env;
use parlance::plugins::api::{CallFailure, PluginErrorKind};
use parlance::{Error, ParaphraseRequest, Parlance};

fn env(home: &std::path::Path) -> Env {
    Env::empty()
        .with("HOME", home.to_str().unwrap())
        .with("CACHE_TYPE", "memory")
        .with("PARLANCE_CACHE_DIR", common::compile_cache_dir().to_str().unwrap())
}

#[tokio::test]
async fn openrouter_uses_the_key_and_the_configured_upstream() {
    let home = tempfile::tempdir().unwrap();
    let upstream = FakeOpenAi::start("A swift auburn fox leaps over the idle hound.").await;
    let env = env(home.path())
        .with("PROVIDER_API_KEY", "sk-test-123")
        .with("PARLANCE_PLUGIN_OPENROUTER_BASE_URL", &upstream.base_url());
    let parlance = Parlance::builder().env(env).build().await.unwrap();
    assert_eq!(parlance.paraphraser().default_provider(), "openrouter", "a key makes openrouter the default");

    let result = parlance.generate_paraphrase("The quick brown fox jumps over the lazy dog.").await.unwrap();
    assert_eq!(result.paraphrase, "A swift auburn fox leaps over the idle hound.");
    assert_eq!(result.provider, "openrouter");
    assert_eq!(result.model, "deepseek/deepseek-chat-v3-0324:free");
    assert!(!result.unchanged);
    let seen = upstream.requests();
    assert_eq!(seen.len(), 1);
    assert_eq!(seen[0].authorization.as_deref(), Some("Bearer sk-test-123"));
    let messages = seen[0].body["messages"].as_array().unwrap();
    assert!(messages.last().unwrap()["content"].as_str().unwrap().contains("The quick brown fox"));

    // The upstream's answer is this text again: the paraphrase says it is unchanged.
    let again = parlance.generate_paraphrase("A swift auburn fox  leaps over the idle hound.").await.unwrap();
    assert!(again.unchanged, "{again:?}");
}

#[tokio::test]
async fn each_upstream_failure_has_its_own_error() {
    let home = tempfile::tempdir().unwrap();
    let upstream = FakeOpenAi::start("unused").await;
    let env = env(home.path())
        .with("PROVIDER_API_KEY", "sk-test")
        .with("PARLANCE_PLUGIN_OPENROUTER_BASE_URL", &upstream.base_url())
        .with("PARLANCE_PLUGIN_OPENROUTER_TIMEOUT_MS", "800");
    let parlance = Parlance::builder().env(env).build().await.unwrap();
    let kind_for = |model: &'static str| {
        let parlance = parlance.clone();
        async move {
            let request =
                ParaphraseRequest { model: Some(model.into()), ..ParaphraseRequest::new("Hello there.") };
            match parlance.paraphrase(&request).await {
                Err(Error::Plugin(e)) => match e.failure {
                    CallFailure::Reported(p) => (p.kind, p.message),
                    other => panic!("{model}: expected a reported error, got {other:?}"),
                },
                other => panic!("{model}: expected a plugin error, got {other:?}"),
            }
        }
    };
    assert_eq!(kind_for("fail-401").await.0, PluginErrorKind::Unauthorized);
    assert_eq!(kind_for("in-band-401").await.0, PluginErrorKind::Unauthorized);
    assert_eq!(kind_for("fail-429").await.0, PluginErrorKind::RateLimited { retry_after_secs: Some(7) });
    assert_eq!(kind_for("fail-503").await.0, PluginErrorKind::Unavailable);
    let (kind, message) = kind_for("garbage").await;
    assert_eq!(kind, PluginErrorKind::BadResponse, "{message}");
    assert_eq!(kind_for("html").await.0, PluginErrorKind::BadResponse);
    assert_eq!(kind_for("slow").await.0, PluginErrorKind::Timeout);
}

#[tokio::test]
async fn a_provider_reaches_an_https_upstream_signed_by_the_operators_ca() {
    let home = tempfile::tempdir().unwrap();
    let ca = TestCa::new();
    let upstream = FakeOpenAi::start_tls("A swift auburn fox.", &ca).await;
    let env = env(home.path())
        .with("PROVIDER_API_KEY", "sk-test")
        .with("PARLANCE_PLUGIN_OPENROUTER_BASE_URL", &upstream.base_url());

    let untrusting = Parlance::builder().env(env.clone()).build().await.unwrap();
    match untrusting.generate_paraphrase("The quick brown fox.").await {
        Err(e) => assert!(e.to_string().contains("TLS certificate rejected"), "{e}"),
        Ok(p) => panic!("a certificate from an unknown CA was accepted: {p:?}"),
    }

    let ca_file = ca.write(home.path());
    let trusting = Parlance::builder()
        .env(env.with("PARLANCE_CA_FILE", ca_file.to_str().unwrap()))
        .build()
        .await
        .unwrap();
    let result = trusting.generate_paraphrase("The quick brown fox.").await.unwrap();
    assert_eq!(result.paraphrase, "A swift auburn fox.");
    assert_eq!(upstream.requests().len(), 1);
}

/// The message of the error openrouter reports when its upstream is `base_url`, which must be
/// `upstream unavailable`.
async fn unavailable(base_url: &str) -> String {
    let home = tempfile::tempdir().unwrap();
    let env = env(home.path())
        .with("PROVIDER_API_KEY", "sk-test")
        .with("PARLANCE_PLUGIN_OPENROUTER_BASE_URL", base_url);
    let parlance = Parlance::builder().env(env).build().await.unwrap();
    match parlance.generate_paraphrase("Hello.").await {
        Err(Error::Plugin(e)) => {
            assert!(
                matches!(&e.failure, CallFailure::Reported(p) if p.kind == PluginErrorKind::Unavailable),
                "{e}"
            );
            e.to_string()
        }
        other => panic!("expected unavailable, got {other:?}"),
    }
}

#[tokio::test]
async fn a_refused_connection_is_unavailable() {
    // A port with nothing listening: bound and released.
    let message = unavailable(&format!("http://127.0.0.1:{}/v1", free_port())).await;
    assert!(message.contains("connection refused"), "{message}");
}

/// Issue 16: a reset used to reach the client as `ConnectionRefused` (over HTTPS the reset comes
/// wrapped in the TLS connector's errors, and a connect error the host did not recognise became
/// wasmtime's default, refused). The host tells the plugin `connection-terminated`, and the SDK's
/// message says so, whether the reset comes during the request or during the TLS handshake.
#[tokio::test]
async fn a_reset_connection_is_reported_as_reset_not_refused() {
    let upstream = resetting_server().await;
    for scheme in ["http", "https"] {
        let message = unavailable(&format!("{scheme}://{upstream}/v1")).await;
        assert!(message.contains("connection reset or closed by the upstream"), "{scheme}: {message}");
        assert!(!message.to_lowercase().contains("refused"), "{scheme}: {message}");
    }
}

#[tokio::test]
async fn the_plugin_cannot_leave_its_allow_list() {
    let home = tempfile::tempdir().unwrap();
    let allowed = FakeOpenAi::start("allowed").await;
    let other = FakeOpenAi::start("should never answer").await;
    let file = home.path().join("parlance.toml");
    std::fs::write(
        &file,
        format!(
            "[[plugin]]\nid = \"openrouter\"\nallowed_hosts = [\"http://{}\"]\nconfig = {{ base_url = \"{}\" }}\n",
            allowed.addr,
            other.base_url()
        ),
    )
    .unwrap();
    let env = env(home.path()).with("PROVIDER_API_KEY", "sk-test");
    let parlance = Parlance::builder().env(env).config_file(&file).build().await.unwrap();
    match parlance.generate_paraphrase("Hello.").await {
        Err(Error::Plugin(e)) => {
            assert_eq!(e.denied_requests, vec![format!("http://{}", other.addr)]);
            assert!(e.to_string().contains("not in its allowed_hosts"), "{e}");
        }
        other => panic!("expected a denied request, got {other:?}"),
    }
    assert!(other.requests().is_empty(), "the host outside the allow-list was contacted");
    assert!(allowed.requests().is_empty());
}

#[tokio::test]
async fn without_a_key_openrouter_is_unavailable_and_offline_is_the_default() {
    let home = tempfile::tempdir().unwrap();
    let parlance = Parlance::builder().env(env(home.path())).build().await.unwrap();
    assert_eq!(parlance.paraphraser().default_provider(), "offline");
    let request =
        ParaphraseRequest { provider: Some("openrouter".into()), ..ParaphraseRequest::new("Hello.") };
    match parlance.paraphrase(&request).await {
        Err(Error::PluginUnavailable { id, reason, .. }) => {
            assert_eq!(id, "openrouter");
            assert!(reason.contains("PROVIDER_API_KEY"), "{reason}");
        }
        other => panic!("expected unavailable, got {other:?}"),
    }
    let request = ParaphraseRequest { provider: Some("nope".into()), ..ParaphraseRequest::new("Hello.") };
    match parlance.paraphrase(&request).await {
        Err(Error::UnknownPlugin { known, .. }) => assert!(known.contains(&"offline".to_owned())),
        other => panic!("expected unknown provider, got {other:?}"),
    }
}

#[tokio::test]
async fn gemini_speaks_generate_content_with_its_own_key() {
    let home = tempfile::tempdir().unwrap();
    let upstream = FakeGemini::start("A swift fox leaps.").await;
    let env = env(home.path())
        .with("GEMINI_API_KEY", "g-key")
        .with("PARLANCE_PLUGIN_GEMINI_BASE_URL", &upstream.base_url());
    let parlance = Parlance::builder().env(env).build().await.unwrap();
    let request = ParaphraseRequest {
        provider: Some("gemini".into()),
        ..ParaphraseRequest::new("The quick fox jumps.")
    };
    let result = parlance.paraphrase(&request).await.unwrap();
    assert_eq!(result.paraphrase, "A swift fox leaps.");
    assert_eq!(result.model, "gemini-2.0-flash-001");
    let seen = upstream.seen.lock().unwrap().clone();
    assert_eq!(seen[0].api_key.as_deref(), Some("g-key"), "the key goes in x-goog-api-key");
    assert_eq!(seen[0].action, "gemini-2.0-flash:generateContent");
    assert!(
        seen[0].body["contents"][0]["parts"][0]["text"].as_str().unwrap().contains("The quick fox jumps.")
    );

    let kind = |model: &'static str| {
        let parlance = parlance.clone();
        async move {
            let request = ParaphraseRequest {
                provider: Some("gemini".into()),
                model: Some(model.into()),
                ..ParaphraseRequest::new("Hi.")
            };
            match parlance.paraphrase(&request).await {
                Err(Error::Plugin(e)) => e.reported().unwrap().kind,
                other => panic!("{model}: {other:?}"),
            }
        }
    };
    assert_eq!(kind("quota").await, PluginErrorKind::RateLimited { retry_after_secs: Some(13) });
    assert_eq!(kind("bad-key").await, PluginErrorKind::Unauthorized);
    assert_eq!(kind("blocked").await, PluginErrorKind::InvalidInput);
}

#[tokio::test(flavor = "multi_thread")]
async fn the_upstream_providers_and_chat_model_answer_the_health_probe() {
    let upstream = FakeOpenAi::start("unused").await;
    let gemini = FakeGemini::start("unused").await;
    // The OpenRouter provider and the OpenAI-compatible chat model at the local chat-completions
    // server, Gemini at the local generateContent server.
    let probe = |key: &'static str, model: &'static str, extra: &'static [(&'static str, &'static str)]| {
        let (base_url, gemini_url) = (upstream.base_url(), gemini.base_url());
        async move {
            let mut env = vec![
                ("PROVIDER_API_KEY", key),
                ("PARLANCE_PLUGIN_OPENROUTER_BASE_URL", base_url.as_str()),
                ("PARLANCE_PLUGIN_OPENROUTER_MODEL", model),
                ("PARLANCE_PLUGIN_OPENAI_CHAT_BASE_URL", base_url.as_str()),
                ("PARLANCE_PLUGIN_GEMINI_BASE_URL", gemini_url.as_str()),
            ];
            env.extend_from_slice(extra);
            let server = common::server::Server::start(&env).await;
            let r = server.client.get(server.url("/health?probe=true")).send().await.unwrap();
            r.json::<serde_json::Value>().await.unwrap()
        }
    };
    let detail =
        |health: &serde_json::Value, id: &str| health["probes"][id]["detail"].as_str().unwrap().to_owned();

    let health =
        probe("sk-test", "deepseek/deepseek-chat-v3-0324:free", &[("GEMINI_API_KEY", "g-key")]).await;
    assert_eq!(health["status"], "ok", "{health}");
    for id in ["openrouter", "openai-chat", "gemini"] {
        assert_eq!(health["probes"][id]["status"], "ok", "{health}");
    }
    assert_eq!(detail(&health, "openrouter"), "model deepseek/deepseek-chat-v3-0324:free is available");
    assert_eq!(detail(&health, "gemini"), "model gemini-2.0-flash is available");

    let extra = &[("GEMINI_API_KEY", "g-key"), ("PARLANCE_PLUGIN_GEMINI_MODEL", "gemini-0.1-none")];
    let health = probe("sk-test", "gpt-5-preview", extra).await;
    assert_eq!(health["status"], "degraded", "{health}");
    let openrouter = detail(&health, "openrouter");
    assert!(
        openrouter.contains("misconfigured")
            && openrouter.contains("gpt-5-preview is not among the 2 models"),
        "{openrouter}"
    );
    let gemini_detail = detail(&health, "gemini");
    assert!(
        gemini_detail.contains("misconfigured") && gemini_detail.contains("no model gemini-0.1-none"),
        "{gemini_detail}"
    );

    let health = probe("sk-revoked", "gpt-4o-mini", &[]).await;
    let openrouter = detail(&health, "openrouter");
    assert!(
        openrouter.contains("rejected the credentials") && openrouter.contains("Incorrect API key"),
        "{openrouter}"
    );
    // Gemini has no key here: it cannot be called, so it is skipped rather than failed.
    assert_eq!(health["probes"]["gemini"]["status"], "skipped", "{health}");

    // The probes asked only for model lists: no completion or generation was paid for.
    assert!(upstream.requests().is_empty());
    assert!(gemini.seen.lock().unwrap().is_empty());
}

/// The chat model on a local OpenAI-compatible server (Ollama's `/v1`, vLLM, llama.cpp, LM Studio) in
/// one step, three variables: `openai-chat`'s base URL, the model it serves, and the chat model. No
/// key is asked for: the listings call it available, it answers `/v1/waifu` and
/// `/v1/chat/completions`, and the upstream sees no `Authorization`. At the hosted default without a
/// key it stays unavailable, and says that a base URL of one's own needs none.
#[tokio::test(flavor = "multi_thread")]
async fn a_local_chat_model_needs_only_its_base_url() {
    use common::server::Server;
    use serde_json::{Value, json};
    let upstream = FakeStreamingOpenAi::start(3, std::time::Duration::ZERO).await;
    let base_url = upstream.base_url();
    let local = [
        ("PARLANCE_PLUGIN_OPENAI_CHAT_BASE_URL", base_url.as_str()),
        ("PARLANCE_PLUGIN_OPENAI_CHAT_MODEL", "llama3.2"),
        ("PARLANCE_CHAT_MODEL", "openai-chat"),
    ];
    let home = tempfile::tempdir().unwrap();
    let listed = |home: &std::path::Path, env: &[(&str, &str)]| {
        let out = common::command(home)
            .envs(env.iter().copied())
            .args(["plugins", "list", "--json"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let rows: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
        rows.into_iter().find(|r| r["id"] == "openai-chat").unwrap()
    };
    let row = listed(home.path(), &local);
    assert_eq!(row["missing_secrets"], json!([]), "{row}");
    assert_eq!(row["allowed_hosts"], json!([format!("http://{}", upstream.addr)]), "{row}");
    let table = common::command(home.path()).envs(local).args(["plugins", "list"]).output().unwrap();
    let table = String::from_utf8_lossy(&table.stdout).into_owned();
    let line = table.lines().find(|l| l.starts_with("openai-chat ")).unwrap_or_else(|| panic!("{table}"));
    assert!(!line.contains("unavailable"), "{table}");

    let server = Server::start_in(home, &local, &[]).await;
    let health: Value = server.client.get(server.url("/health")).send().await.unwrap().json().await.unwrap();
    let unavailable = health["components"]["plugins"]["unavailable"].as_array().unwrap();
    assert!(!unavailable.iter().any(|u| u.as_str().unwrap().starts_with("openai-chat:")), "{health}");
    let models: Value =
        server.client.get(server.url("/v1/models")).send().await.unwrap().json().await.unwrap();
    assert!(models["data"].as_array().unwrap().iter().any(|m| m["id"] == "openai-chat"), "{models}");

    let chat = json!({"user_id": "newcomer", "message": "Hello!"});
    let r = server.client.post(server.chat_url("/v1/waifu")).json(&chat).send().await.unwrap();
    assert_eq!(r.status(), 200);
    let reply: Value = r.json().await.unwrap();
    assert_eq!(reply["response"], "word0 word1 word2", "{reply}");
    let body = json!({"model": "openai-chat", "messages": [{"role": "user", "content": "Hi."}]});
    let r = server.client.post(server.url("/v1/chat/completions")).json(&body).send().await.unwrap();
    assert_eq!(r.status(), 200);
    let completion: Value = r.json().await.unwrap();
    assert_eq!(completion["choices"][0]["message"]["content"], "word0 word1 word2 ", "{completion}");

    let asked = upstream.requests.lock().unwrap().clone();
    assert_eq!(asked.len(), 2, "{asked:?}");
    assert!(asked.iter().all(|r| r["model"] == "llama3.2"), "{asked:?}");
    assert_eq!(*upstream.authorizations.lock().unwrap(), [None, None], "no key, no Authorization");

    // At the hosted default, the key is still needed.
    let hosted = tempfile::tempdir().unwrap();
    let row = listed(hosted.path(), &[]);
    assert_eq!(row["missing_secrets"], json!(["api_key"]), "{row}");
    let table = common::command(hosted.path()).args(["plugins", "list"]).output().unwrap();
    let table = String::from_utf8_lossy(&table.stdout).into_owned();
    let line = table.lines().find(|l| l.starts_with("openai-chat ")).unwrap_or_else(|| panic!("{table}"));
    assert!(line.contains("unavailable: the secret `api_key`"), "{table}");
    assert!(line.contains("a `base_url` of your own (a local server) does not"), "{table}");
}
