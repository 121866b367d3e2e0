//! The playground page clicked through in headless Chromium by Playwright for Python
//! (`tests/playground/playground.py`, pinned in `scripts/requirements-test.txt`, Debian's `chromium`),
//! against two real servers: one with API keys required, one without. The paraphrase provider
//! `openrouter` is played by the OpenAI fake and the chat model `openai-chat` by the streaming one,
//! beside the offline default; the server without keys has an embedding backend, the other none. The
//! script checks what the page shows against what the API answers,
//! and that the browser asked nothing of any other host; this test checks what the page cannot see:
//! the upstreams and the store, and the usage the page drew against the ledger's own report.

use crate::common::{self, server::Server, upstream::FakeOpenAi, upstream::FakeStreamingOpenAi};
use serde_json::Value;
use std::time::Duration;

const PROVIDER_REPLY: &str = "Several members could not come, so the committee moved the meeting.";

/// A server whose `openrouter` provider and `openai-chat` chat model are the two fakes, offline the
/// default provider; with `keys`, API keys are required and the key of a client `browser` is returned.
/// Without keys it has an embedding backend: the model where `scripts/fetch-model.sh` installs it,
/// under the folder it is started in.
async fn server(provider: &FakeOpenAi, chat: &FakeStreamingOpenAi, keys: bool) -> (Server, Option<String>) {
    let config = format!(
        "[chat]\nmodel = \"openai-chat\"\n\n[paraphrase]\ndefault_provider = \"offline\"\n\n\
         [[plugin]]\nid = \"openrouter\"\nrate_limit_per_minute = 0\nallowed_hosts = [\"http://{}\"]\n\
         config = {{ base_url = \"{}\" }}\n\n\
         [[plugin]]\nid = \"openai-chat\"\nrate_limit_per_minute = 0\nallowed_hosts = [\"http://{}\"]\n\
         config = {{ base_url = \"{}\", model = \"fake\" }}\n",
        provider.addr,
        provider.base_url(),
        chat.addr,
        chat.base_url()
    );
    let home = common::home_with_config(&config);
    if !keys {
        std::fs::create_dir(home.path().join("models")).unwrap();
        let model = home.path().join("models/all-MiniLM-L6-v2");
        std::os::unix::fs::symlink(crate::metrics::model_dir(), model).unwrap();
    }
    let key = keys.then(|| common::key(home.path(), "browser"));
    let api_keys = if keys { "required" } else { "off" };
    let env = [("PARLANCE_API_KEYS", api_keys), ("PROVIDER_API_KEY", "sk-test")];
    (Server::start_in(home, &env, &["--config", "parlance.toml"]).await, key)
}

#[tokio::test(flavor = "multi_thread")]
async fn the_playground_is_clicked_through_in_chromium() {
    let provider = FakeOpenAi::start(PROVIDER_REPLY).await;
    // Five words a tenth of a second apart: each arrives on its own, so the page shows each delta.
    let chat = FakeStreamingOpenAi::start(5, Duration::from_millis(100)).await;
    let (keyed, key) = server(&provider, &chat, true).await;
    let key = key.unwrap();
    let (open, _) = server(&provider, &chat, false).await;

    // Kept after the run, for a person to look at.
    let screenshot = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("playground.png");
    let script = common::repo().join("tests/playground/playground.py");
    let args = [keyed.url(""), key.clone(), open.url(""), screenshot.display().to_string()];
    let summary = tokio::task::spawn_blocking(move || {
        common::run_script(&common::python(), &script, &args.each_ref().map(String::as_str))
    })
    .await
    .unwrap();

    // The manual's pictures of the playground are taken here; `PARLANCE_BLESS=1` puts them in docs/.
    for picture in ["playground-candidates.png", "playground-chat.png", "playground-usage.png"] {
        let taken = screenshot.with_file_name(picture);
        assert!(taken.metadata().is_ok_and(|m| m.len() > 10_000), "{picture} was not taken");
        if std::env::var_os("PARLANCE_BLESS").is_some() {
            std::fs::copy(&taken, common::repo().join("docs/src/images").join(picture)).unwrap();
        }
    }

    assert_eq!(summary["providers"], serde_json::json!(["offline", "openrouter"]), "{summary}");
    assert_eq!(summary["compared"], serde_json::json!(["offline", "openrouter"]), "{summary}");
    assert_eq!(summary["chat_versions"], 5, "{summary}");
    // Semantic similarity is ticked only on the server with an embedding backend.
    assert_eq!(summary["semantic_ticked"], serde_json::json!({"keyed": false, "open": true}), "{summary}");
    // The ranked request came back with its candidates, and the page drew more than one of them.
    assert_eq!(summary["server_returns_candidates"], true, "{summary}");
    assert!(summary["candidates_shown"].as_u64().unwrap_or(0) > 1, "{summary}");
    // A short sentence came back with fewer candidates than asked for, and the page said why.
    let warned = summary["shortfall_warning"].as_str().unwrap_or_default();
    assert!(warned.starts_with("5 candidates were asked for; the provider wrote"), "{summary}");
    // The compare pane's right column reached the provider's upstream, with the page's text in it.
    let asked = provider.requests();
    assert!(
        asked.iter().any(|r| r.body.to_string().contains("The committee postponed the meeting")),
        "{asked:?}"
    );

    // The streamed exchange is stored once, for the key's client; the one cut off by the upstream is not.
    let url = keyed.url("/v1/user/dialog/json/browser-user");
    let stored: Value = keyed.client.get(url).bearer_auth(&key).send().await.unwrap().json().await.unwrap();
    let entries: Vec<&str> =
        stored["dialog"].as_array().unwrap().iter().map(|e| e["message"].as_str().unwrap()).collect();
    assert_eq!(entries, ["Hello there!", "word0 word1 word2 word3 word4 "], "{stored}");
    // The upstream saw both chats, streamed.
    let chats = chat.requests.lock().unwrap().clone();
    assert_eq!(chats.iter().filter(|r| r["stream"] == true).count(), 2, "{chats:?}");

    // The usage pane: before any call the key had none, and the page said so; a wrong key's 401 was shown.
    assert_eq!(summary["usage_empty_shown"], true, "{summary}");
    assert!(summary["usage_error"].as_str().unwrap_or_default().contains("401 invalid_api_key"), "{summary}");
    // After the flows, the page drew the key's calls as the ledger reports them for the same period.
    let from = summary["usage_from"].as_str().unwrap();
    let url = keyed.url(&format!("/usage?from={from}&group_by=day,model"));
    let report: Value = keyed.client.get(url).bearer_auth(&key).send().await.unwrap().json().await.unwrap();
    let total = &report["total"];
    let calls = summary["usage_calls"].as_u64().unwrap_or(0);
    assert!(calls > 0 && calls == total["calls"], "{summary} {report}");
    let tokens = [&total["input_tokens"], &total["output_tokens"]];
    assert_eq!(summary["usage_tokens"], serde_json::json!(tokens), "{summary} {report}");
    // The paraphrases through `openrouter` (the OpenAI fake, 10 tokens in and 5 out each) are counted.
    assert!(total["input_tokens"].as_u64().unwrap_or(0) >= 10, "{report}");
    let mut days: Vec<&str> =
        report["groups"].as_array().unwrap().iter().map(|g| g["group"]["day"].as_str().unwrap()).collect();
    days.sort();
    days.dedup();
    assert_eq!(summary["usage_days"], serde_json::json!(days), "{summary} {report}");
    let models = summary["usage_models"].as_array().unwrap();
    // `openrouter`'s default model, which the page asked for through the OpenAI fake.
    assert!(models.iter().any(|m| m == parlance::plugins::defaults::OPENROUTER_MODEL), "{summary}");
    for model in models {
        assert!(
            report["groups"].as_array().unwrap().iter().any(|g| g["group"]["model"] == *model),
            "{model} {report}"
        );
    }
    // No model has a price here and the offline calls are free: the charts drew tokens, and said so.
    assert_eq!(summary["usage_measure"], "tokens", "{summary}");
    // Without keys, the page showed the default client's calls, the paraphrase it made among them.
    assert!(summary["usage_open_calls"].as_u64().unwrap_or(0) > 0, "{summary}");
}
