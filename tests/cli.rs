//! The binary end to end: the offline paraphrase with no network and no key, the OpenRouter path
//! against a local chat-completions server, `plugins list` and `plugins check`, and clear failures.

use crate::common;
use common::upstream::FakeOpenAi;
use std::process::Output;

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}
fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn cli_mode_paraphrases_offline_without_a_key() {
    let home = tempfile::tempdir().unwrap();
    let input = "The quick brown fox jumps over the lazy dog.";
    let out = common::command(home.path()).args(["--mode", "cli", "--decode_input", input]).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let paraphrase = stdout(&out).trim().to_owned();
    assert!(!paraphrase.is_empty());
    assert_ne!(paraphrase, input, "the offline provider must change the text");
}

#[tokio::test(flavor = "multi_thread")]
async fn cli_mode_reaches_openrouter_with_the_key() {
    let home = tempfile::tempdir().unwrap();
    let upstream = FakeOpenAi::start("Hello from the local upstream.").await;
    let base_url = upstream.base_url();
    let out = tokio::task::spawn_blocking(move || {
        common::command(home.path())
            .env("PROVIDER_API_KEY", "sk-cli")
            .env("PARLANCE_PLUGIN_OPENROUTER_BASE_URL", base_url)
            .args(["--mode", "cli", "--decode_input", "Hi.", "--provider", "openrouter", "--model", "m-7"])
            .output()
            .unwrap()
    })
    .await
    .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out).trim(), "Hello from the local upstream.");
    let seen = upstream.requests();
    assert_eq!(seen[0].authorization.as_deref(), Some("Bearer sk-cli"));
    assert_eq!(seen[0].body["model"], "m-7");
}

#[test]
fn an_unknown_provider_fails_with_the_known_ones() {
    let home = tempfile::tempdir().unwrap();
    let out = common::command(home.path())
        .args(["--mode", "cli", "--decode_input", "Hi.", "--provider", "nope"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(err.contains("unknown provider `nope`") && err.contains("offline"), "{err}");
}

#[test]
fn a_bad_config_file_names_the_file_and_every_key() {
    let home = tempfile::tempdir().unwrap();
    let file = home.path().join("bad.toml");
    std::fs::write(&file, "[server]\napi_port = 99999\nnonsense = true\n").unwrap();
    let out = common::command(home.path())
        .args(["--mode", "cli", "--decode_input", "Hi.", "--config"])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("bad.toml:2: server.api_port"), "{err}");
    assert!(err.contains("bad.toml:3: server.nonsense: unknown key"), "{err}");
}

#[test]
fn plugins_list_shows_each_plugin() {
    let home = tempfile::tempdir().unwrap();
    let out = common::command(home.path()).args(["plugins", "list", "--json"]).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let rows: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).unwrap();
    let row = |id: &str| rows.iter().find(|r| r["id"] == id).unwrap_or_else(|| panic!("{id} is not listed"));
    assert_eq!(row("offline")["kind"], "provider");
    assert_eq!(row("offline")["component"], "builtin:offline");
    assert_eq!(row("offline")["wit_version"], "0.1.1");
    assert_eq!(row("openrouter")["allowed_hosts"][0], "https://openrouter.ai:443");
    assert_eq!(row("openrouter")["missing_secrets"][0], "api_key");
    let table = common::command(home.path()).args(["plugins", "list"]).output().unwrap();
    assert!(stdout(&table).contains("openrouter"), "{}", stdout(&table));
}

#[test]
fn plugins_check_tells_what_fits_and_what_is_missing() {
    let home = tempfile::tempdir().unwrap();
    let good = common::command(home.path())
        .args(["plugins", "check"])
        .arg(common::fixture("parlance-fixture-hostile"))
        .output()
        .unwrap();
    assert!(good.status.success(), "{}", stderr(&good));
    assert!(stdout(&good).contains("fits parlance:plugin/provider-plugin@0.1.1"), "{}", stdout(&good));

    let core = home.path().join("core.wasm");
    std::fs::write(&core, b"\0asm\x01\0\0\0").unwrap();
    let out = common::command(home.path()).args(["plugins", "check"]).arg(&core).output().unwrap();
    assert!(!out.status.success());
    assert!(stdout(&out).contains("core WebAssembly module, not a component"), "{}", stdout(&out));

    let junk = home.path().join("junk.wasm");
    std::fs::write(&junk, b"definitely not wasm").unwrap();
    let out = common::command(home.path()).args(["plugins", "check"]).arg(&junk).output().unwrap();
    assert!(!out.status.success());
    assert!(stdout(&out).contains("not a valid WebAssembly component"), "{}", stdout(&out));
}
