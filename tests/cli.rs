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

#[test]
fn batch_mode_streams_a_file_in_each_format() {
    let home = tempfile::tempdir().unwrap();
    let input = home.path().join("texts.txt");
    std::fs::write(
        &input,
        "The cat sat on the mat.\n\n   \nHow can I learn Python quickly?\nWeather is nice today.\n",
    )
    .unwrap();
    for (name, check) in [
        (
            "out.jsonl",
            Box::new(|text: &str| {
                let rows: Vec<serde_json::Value> =
                    text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
                assert_eq!(rows.len(), 3);
                assert_eq!(rows[0]["line"], 1);
                assert_eq!(rows[1]["line"], 4);
                assert_eq!(rows[2]["original"], "Weather is nice today.");
                assert!(rows.iter().all(|r| r["paraphrase"].is_string() && r["provider"] == "offline"));
                assert!(rows.iter().all(|r| r["unchanged"] == (r["paraphrase"] == r["original"])), "{text}");
            }) as Box<dyn Fn(&str)>,
        ),
        (
            "out.tsv",
            Box::new(|text: &str| {
                let rows: Vec<Vec<&str>> = text.lines().map(|l| l.split('\t').collect()).collect();
                assert_eq!(rows.len(), 3);
                assert!(rows.iter().all(|r| r.len() == 2));
                assert_eq!(rows[1][0], "How can I learn Python quickly?");
            }),
        ),
        (
            "out.txt",
            Box::new(|text: &str| {
                assert_eq!(text.matches("Original: ").count(), 3, "{text}");
                assert_eq!(text.matches("Paraphrase: ").count(), 3, "{text}");
            }),
        ),
    ] {
        let output = home.path().join(name);
        let out = common::command(home.path())
            .args(["--mode", "batch", "--batch_input"])
            .arg(&input)
            .arg("--batch_output")
            .arg(&output)
            .output()
            .unwrap();
        let err = stderr(&out);
        assert!(out.status.success(), "{err}");
        assert!(err.contains("batch: 3/3 done, 0 failed"), "plain progress lines off a terminal: {err}");
        assert!(err.contains("batch: 3 of 3 texts done"), "a summary at the end: {err}");
        check(&std::fs::read_to_string(&output).unwrap());
    }
    let single = common::command(home.path())
        .args(["--mode", "batch", "--decode_input", "The cat sat on the mat."])
        .output()
        .unwrap();
    assert!(single.status.success() && !stdout(&single).trim().is_empty());
}

#[tokio::test(flavor = "multi_thread")]
async fn ctrl_c_in_batch_mode_writes_what_is_finished() {
    let home = tempfile::tempdir().unwrap();
    let upstream = FakeOpenAi::start("Done.").await;
    let input = home.path().join("texts.txt");
    std::fs::write(&input, (0..40).map(|i| format!("Text number {i}.\n")).collect::<String>()).unwrap();
    let output = home.path().join("out.jsonl");
    let child = common::command(home.path())
        .env("PROVIDER_API_KEY", "k")
        .env("PARLANCE_PLUGIN_OPENROUTER_BASE_URL", upstream.base_url())
        .args(["--mode", "batch", "--model", "slow", "--batch_input"])
        .arg(&input)
        .arg("--batch_output")
        .arg(&output)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Wait until the first calls are in flight, then interrupt.
    while upstream.requests().is_empty() {
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    std::process::Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    let out = tokio::task::spawn_blocking(move || child.wait_with_output()).await.unwrap().unwrap();
    let err = stderr(&out);
    assert!(!out.status.success(), "an interrupted batch is a failure: {err}");
    assert!(err.contains("interrupted"), "{err}");
    let written: Vec<serde_json::Value> =
        std::fs::read_to_string(&output).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert!(
        !written.is_empty() && written.len() < 40,
        "what finished is written, the rest is not started: {}",
        written.len()
    );
    assert!(written.iter().all(|r| r["paraphrase"] == "Done."));
    assert_eq!(written.len(), upstream.requests().len(), "every call that was made is written");
}

#[test]
fn interactive_mode_paraphrases_lines_and_knows_its_commands() {
    let home = tempfile::tempdir().unwrap();
    let mut child = common::command(home.path())
        .args(["--mode", "interactive"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write as _;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"help\nThe quick brown fox jumps over the lazy dog.\nprovider nope\nquit\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("Commands:"), "{text}");
    assert!(text.contains("The fast brown fox leaps over the lazy dog."), "{text}");
    assert!(stderr(&out).contains("unknown provider `nope`"), "{}", stderr(&out));
}

/// Only the server opens the dialog store: the other modes neither create `dialogs.db` nor need a
/// place where one could be written.
#[test]
fn non_server_modes_never_open_the_dialog_store() {
    let home = tempfile::tempdir().unwrap();
    let input = "The quick brown fox jumps over the lazy dog.";
    let out = common::command(home.path()).args(["--mode", "cli", "--decode_input", input]).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!home.path().join("dialogs.db").exists(), "the CLI created the dialog store");
    // A store that could not even be created (its folder is under a file) is no obstacle either; this
    // holds where permission bits would not, for a root user.
    for mode in [
        &["--mode", "cli", "--decode_input", input][..],
        &["--mode", "evaluate", "--evaluate_original", "a b", "--evaluate_paraphrase", "a c"],
    ] {
        let out = common::command(home.path())
            .env("DATABASE_FILE", "/dev/null/no-such-folder/dialogs.db")
            .args(mode)
            .output()
            .unwrap();
        assert!(out.status.success(), "{mode:?}: {}", stderr(&out));
    }
}

/// Configuration errors found while loading plugins exit 2, like any other configuration error, and
/// say where the plugin was configured.
#[test]
fn plugin_configuration_errors_exit_2() {
    let home = tempfile::tempdir().unwrap();
    let config = home.path().join("parlance.toml");
    // Found in the working directory, so named as `parlance.toml`.
    std::fs::write(&config, "[cache]\nttl_secs = 10\n\n[[plugin]]\nid = \"mine\"\nkind = \"metric\"\ncomponent = \"missing.wasm\"\n")
        .unwrap();
    let out = common::command(home.path())
        .args(["--mode", "evaluate", "--evaluate_original", "a", "--evaluate_paraphrase", "b"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("(declared at parlance.toml:4)"), "names the table's line: {err}");
    assert!(err.contains("missing.wasm"), "{err}");
    assert_eq!(err.matches("No such file").count(), 1, "the OS error once: {err}");

    std::fs::write(
        &config,
        "[[plugin]]\nid = \"lexical-again\"\nkind = \"metric\"\ncomponent = \"builtin:lexical\"\n",
    )
    .unwrap();
    let out = common::command(home.path())
        .args(["--mode", "evaluate", "--evaluate_original", "a", "--evaluate_paraphrase", "b"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("both declare the score"), "{}", stderr(&out));

    std::fs::write(&config, "[evaluate.weights]\nlexical_similarty = { weight = 1 }\n").unwrap();
    let out = common::command(home.path())
        .args(["--mode", "evaluate", "--evaluate_original", "a", "--evaluate_paraphrase", "b"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("`lexical_similarty`, which no metric plugin declares"),
        "{}",
        stderr(&out)
    );
}
