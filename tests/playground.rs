//! The playground page clicked through in headless Chromium by Playwright for Python
//! (`tests/playground/playground.py`, pinned in `scripts/requirements-test.txt`, Debian's `chromium`),
//! against two real servers: one with API keys required, one without. The paraphrase provider
//! `openrouter` is played by the OpenAI fake and the chat model `openai-chat` by the streaming one,
//! beside the offline default. The script checks what the page shows against what the API answers,
//! and that the browser asked nothing of any other host; this test checks what the page cannot see:
//! the upstreams and the store.

use crate::common::{self, server::Server, upstream::FakeOpenAi, upstream::FakeStreamingOpenAi};
use serde_json::Value;
use std::time::Duration;

const PROVIDER_REPLY: &str = "Several members could not come, so the committee moved the meeting.";

/// A server whose `openrouter` provider and `openai-chat` chat model are the two fakes, offline the
/// default provider; with `keys`, API keys are required and the key of a client `browser` is returned.
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

    assert_eq!(summary["providers"], serde_json::json!(["offline", "openrouter"]), "{summary}");
    assert_eq!(summary["compared"], serde_json::json!(["offline", "openrouter"]), "{summary}");
    assert_eq!(summary["chat_versions"], 5, "{summary}");
    // The ranked request came back with its candidates, and the page drew more than one of them.
    assert_eq!(summary["server_returns_candidates"], true, "{summary}");
    assert!(summary["candidates_shown"].as_u64().unwrap_or(0) > 1, "{summary}");
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
}
