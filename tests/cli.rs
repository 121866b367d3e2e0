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

/// `--mode batch` from `input` to `output`, in `home`.
fn batch(home: &std::path::Path, input: &std::path::Path, output: &std::path::Path) -> Output {
    common::command(home)
        .args(["--mode", "batch", "--batch_input"])
        .arg(input)
        .arg("--batch_output")
        .arg(output)
        .output()
        .unwrap()
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
    assert_eq!(row("offline")["wit_version"], "0.1.4");
    assert_eq!(row("openrouter")["allowed_hosts"][0], "https://openrouter.ai:443");
    assert_eq!(row("openrouter")["missing_secrets"][0], "api_key");
    assert_eq!(row("offline")["rate_limit_per_minute"], serde_json::Value::Null);
    assert_eq!(row("openrouter")["rate_limit_per_minute"], 60);
    let table = common::command(home.path()).args(["plugins", "list"]).output().unwrap();
    assert!(stdout(&table).contains("openrouter"), "{}", stdout(&table));

    // A long path keeps the columns aligned: each starts at the same place on every line.
    let deep = home.path().join("a/rather/long/folder/for/a/component/built/elsewhere");
    std::fs::create_dir_all(&deep).unwrap();
    std::fs::copy(common::fixture("parlance-fixture-hostile"), deep.join("echo.wasm")).unwrap();
    let config = home.path().join("long.toml");
    std::fs::write(
        &config,
        format!(
            "[[plugin]]\nid = \"an-echo-provider-with-a-long-id\"\nkind = \"provider\"\ncomponent = \"{}\"\n",
            deep.join("echo.wasm").display()
        ),
    )
    .unwrap();
    let out =
        common::command(home.path()).args(["plugins", "list", "--config"]).arg(&config).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let table = stdout(&out);
    for column in ["KIND", "COMPONENT", "WIT"] {
        let start = table.lines().next().unwrap().find(column).unwrap();
        for line in table.lines().skip(1) {
            assert!(
                line[..start].ends_with("  ") && !line[start..].starts_with(' '),
                "{column} is not aligned in {line:?}:\n{table}"
            );
        }
    }
}

/// `plugins list` checks the configuration as every other mode does, and refuses what they refuse
/// with the same exit code.
#[test]
fn plugins_list_refuses_a_configuration_the_server_refuses() {
    let home = common::home_with_config(
        "[[plugin]]\nid = \"lexical-again\"\nkind = \"metric\"\ncomponent = \"builtin:lexical\"\n",
    );
    for args in [&["plugins", "list"][..], &["plugins", "list", "--json"]] {
        let out = common::command(home.path()).args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains("both declare the score"), "{}", stderr(&out));
    }
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
    assert!(stdout(&good).contains("fits parlance:plugin/provider-plugin@0.1.4"), "{}", stdout(&good));

    let core = home.path().join("core.wasm");
    std::fs::write(&core, b"\0asm\x01\0\0\0").unwrap();
    let out = common::command(home.path()).args(["plugins", "check"]).arg(&core).output().unwrap();
    assert!(!out.status.success());
    assert!(stdout(&out).contains("core WebAssembly module, not a component"), "{}", stdout(&out));

    let junk = home.path().join("junk.wasm");
    std::fs::write(&junk, b"definitely not wasm").unwrap();
    let out = common::command(home.path()).args(["plugins", "check"]).arg(&junk).output().unwrap();
    assert!(!out.status.success());
    let said = stdout(&out);
    assert!(
        said.contains(
            "problem: not a WebAssembly component: the file starts with the text \"definitely not w\""
        ),
        "{said}"
    );
    assert!(!said.contains("expected=[") && !said.contains("0x0,"), "no debug byte arrays: {said}");
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
        let out = batch(home.path(), &input, &output);
        let err = stderr(&out);
        assert!(out.status.success(), "{err}");
        assert!(err.contains("batch: 3/3 done, 0 failed"), "plain progress lines off a terminal: {err}");
        assert!(err.contains("batch: 3 of 3 texts done"), "a summary at the end: {err}");
        check(&std::fs::read_to_string(&output).unwrap());
    }
    // A single text in batch mode is a batch of one, in the batch's block format.
    let single = common::command(home.path())
        .args(["--mode", "batch", "--decode_input", "The cat sat on the mat."])
        .output()
        .unwrap();
    assert!(single.status.success(), "{}", stderr(&single));
    let block = stdout(&single);
    assert!(block.starts_with("Original: The cat sat on the mat.\nParaphrase: "), "{block}");
    assert!(block.ends_with("\n\n") && block.matches('\n').count() == 3, "{block:?}");
}

/// `.tsv` output quotes a text that holds a tab or a quote, as Python's csv module does, so that
/// `--evaluate_file` reads back exactly what was paraphrased.
#[test]
fn tsv_batch_output_reads_back_unchanged() {
    let home = tempfile::tempdir().unwrap();
    let input = home.path().join("texts.txt");
    let texts = ["He said \"hello\"\tto me.", "The cat sat on the mat.", "\"Quoted\" words\tand a tab."];
    std::fs::write(&input, texts.iter().map(|t| format!("{t}\n")).collect::<String>()).unwrap();
    let output = home.path().join("out.tsv");
    let out = batch(home.path(), &input, &output);
    assert!(out.status.success(), "{}", stderr(&out));
    let written = std::fs::read_to_string(&output).unwrap();
    assert!(written.starts_with("\"He said \"\"hello\"\"\tto me.\"\t"), "{written}");
    let originals: Vec<String> = parlance::cli::tsv::reader(written.as_bytes())
        .into_records()
        .map(|r| {
            let r = r.unwrap();
            assert_eq!(r.len(), 2, "{r:?}");
            r[0].to_owned()
        })
        .collect();
    assert_eq!(originals, texts);
    let evaluated = common::command(home.path())
        .args(["--mode", "evaluate", "--json", "--evaluate_file"])
        .arg(&output)
        .output()
        .unwrap();
    assert!(evaluated.status.success(), "{}", stderr(&evaluated));
    let summary: serde_json::Value = serde_json::from_slice(&evaluated.stdout).unwrap();
    assert_eq!((summary["pairs"].as_u64(), summary["failed"].as_u64()), (Some(3), Some(0)), "{summary}");
}

/// A text over the evaluation's length limit skips its own line, named by number; the other pairs of the
/// file are still evaluated.
#[test]
fn evaluate_file_skips_a_too_long_text_by_its_line() {
    let home = tempfile::tempdir().unwrap();
    let dataset = home.path().join("pairs.tsv");
    let long = "word ".repeat(30);
    std::fs::write(&dataset, format!("The cat sat.\tA cat sat.\n{long}\tshort\nIt rains.\tIt is raining.\n"))
        .unwrap();
    std::fs::write(home.path().join("parlance.toml"), "[evaluate]\nmax_text_chars = 100\n").unwrap();
    let out = common::command(home.path())
        .args(["--mode", "evaluate", "--json", "--config", "parlance.toml", "--evaluate_file"])
        .arg(&dataset)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("line 2: skipped: a text of 150 characters; the limit is 100"), "{err}");
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((summary["pairs"].as_u64(), summary["failed"].as_u64()), (Some(2), Some(1)), "{summary}");
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
        .write_all(
            b"help\nproviders\nmodel foo\nThe quick brown fox jumps over the lazy dog.\nprovider nope\n\
              model wordnet-3.0\nquit\n",
        )
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let err = stderr(&out);
    assert!(text.contains("Commands:"), "{text}");
    // The current provider is marked, an unavailable one says why.
    let line = |id: &str| {
        text.lines().find(|l| l.contains(&format!(" {id} "))).unwrap_or_else(|| panic!("{id}: {text}"))
    };
    assert!(line("offline").contains("* offline") && line("offline").contains("current"), "{text}");
    assert!(line("openrouter").contains("unavailable: the secret `api_key`"), "{text}");
    // An unknown model is refused at once, and the next line still works with the model it had.
    assert!(
        err.contains("`offline` refused the model `foo`") && err.contains("keeping the model you had"),
        "{err}"
    );
    assert!(text.contains("The quick brown fox leaps over the lazy dog."), "{text}");
    assert!(err.contains("unknown provider `nope`"), "{err}");
    assert!(text.contains("model: `wordnet-3.0` (it answered a trial text)"), "{text}");
}

/// The screen belongs to the session: an info line (here the retry of an upstream's 429) does not land
/// between a prompt and its answer; warnings and errors still do.
#[tokio::test(flavor = "multi_thread")]
async fn no_info_line_interrupts_an_interactive_session() {
    let home = tempfile::tempdir().unwrap();
    let upstream = FakeOpenAi::start("A patient answer.").await;
    let mut child = common::command(home.path())
        .env("PROVIDER_API_KEY", "k")
        .env("PARLANCE_PLUGIN_OPENROUTER_BASE_URL", upstream.base_url())
        .env("LOG_LEVEL", "INFO")
        .args(["--mode", "interactive", "--provider", "openrouter", "--model", "flaky-429"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write as _;
    child.stdin.take().unwrap().write_all(b"Hello there.\nquit\n").unwrap();
    let out = tokio::task::spawn_blocking(move || child.wait_with_output()).await.unwrap().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("A patient answer."), "{}", stdout(&out));
    assert_eq!(upstream.requests().len(), 2, "a 429, then the retry");
    assert!(!stderr(&out).contains("retrying"), "{}", stderr(&out));
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

/// The offline default reaches no upstream, so a long batch on it is not paced by the rate limit: the
/// issue's 3,000 lines took 10 minutes for 667 of them before.
#[test]
fn a_long_offline_batch_is_not_paced() {
    let home = tempfile::tempdir().unwrap();
    let input = home.path().join("texts.txt");
    let words = ["quick", "small", "happy", "bright", "quiet", "large"];
    let text: String = (0..3000)
        .map(|i| format!("The {} dog number {i} runs over the {} hill.\n", words[i % 6], words[(i / 6) % 6]))
        .collect();
    std::fs::write(&input, text).unwrap();
    let output = home.path().join("out.jsonl");
    let started = std::time::Instant::now();
    let out = batch(home.path(), &input, &output);
    let elapsed = started.elapsed();
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("batch: 3000 of 3000 texts done"), "{err}");
    assert!(!err.contains("paced"), "{err}");
    // Paced at the global 60 a minute it would take 49 minutes; unpaced it takes seconds, with room
    // for a busy test machine.
    assert!(elapsed < std::time::Duration::from_secs(120), "took {elapsed:?}");
}

/// A limit the operator sets for a plugin applies to it, and a paced batch says so, with the pace and
/// the expected end.
#[test]
fn a_batch_under_a_plugin_rate_limit_says_it_is_paced() {
    let home = common::home_with_config("[[plugin]]\nid = \"offline\"\nrate_limit_per_minute = 60\n");
    let input = home.path().join("texts.txt");
    std::fs::write(&input, (0..62).map(|i| format!("Sentence number {i} is short.\n")).collect::<String>())
        .unwrap();
    let started = std::time::Instant::now();
    let out = common::command(home.path())
        .args(["--mode", "batch", "--batch_output", "out.tsv", "--batch_input"])
        .arg(&input)
        .output()
        .unwrap();
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    // 60 at once, then one a second.
    assert!(started.elapsed() >= std::time::Duration::from_millis(1500), "{err}");
    assert!(
        err.contains("paced by the rate limit of `offline` (60 calls a minute)")
            && err.contains("expected to finish in "),
        "{err}"
    );
}

/// A one-shot command that was not asked to use Redis says once, without alarm, that the default Redis
/// is not there; one that was asked warns. Logs written to a pipe carry no colours.
#[test]
fn a_cli_run_is_quiet_about_a_redis_it_was_not_asked_for() {
    let home = tempfile::tempdir().unwrap();
    let run = |env: &[(&str, &str)]| {
        let mut cmd = common::command(home.path());
        cmd.env_remove("CACHE_TYPE").args(["--mode", "cli", "--decode_input", "The cat sat on the mat."]);
        for (k, v) in env {
            cmd.env(k, v);
        }
        let out = cmd.output().unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
        stderr(&out)
    };
    let unasked = run(&[]);
    assert!(!unasked.contains('\u{1b}'), "no ANSI escapes off a terminal: {unasked:?}");
    assert!(!unasked.contains("WARN"), "{unasked}");
    assert!(unasked.lines().filter(|l| l.contains("Redis")).count() <= 1, "said once at most: {unasked}");
    let asked = run(&[("CACHE_TYPE", "redis"), ("CACHE_STORE_URL", "redis://127.0.0.1:1/0")]);
    assert_eq!(asked.matches("WARN").count(), 1, "{asked}");
    assert!(asked.contains("Redis is unreachable"), "{asked}");
}

/// A newcomer's first command prints the paraphrase and nothing else: a one-shot command logs only
/// warnings (a deprecated key, say) and errors unless asked for more, by `--verbose`, `LOG_LEVEL`,
/// `[logging] level` or `RUST_LOG`.
#[test]
fn a_first_cli_run_prints_the_paraphrase_alone() {
    let home = tempfile::tempdir().unwrap();
    let run = |env: &[(&str, &str)], args: &[&str]| {
        // The environment of a newcomer: nothing set, so the default Redis is tried (and likely absent).
        let mut cmd = common::command(home.path());
        cmd.env_remove("CACHE_TYPE")
            .args(["--mode", "cli", "--decode_input", "The cat sat on the mat."])
            .args(args);
        for (k, v) in env {
            cmd.env(k, v);
        }
        let out = cmd.output().unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
        assert_eq!(stdout(&out).lines().count(), 1, "{}", stdout(&out));
        stderr(&out)
    };
    assert_eq!(run(&[], &[]), "");
    for (env, args) in
        [(&[("LOG_LEVEL", "info")][..], &[][..]), (&[("RUST_LOG", "info")], &[]), (&[], &["--verbose"])]
    {
        let err = run(env, args);
        assert!(err.contains("INFO") && err.contains("paraphrased"), "{env:?} {args:?}: {err}");
    }
    std::fs::write(home.path().join("parlance.toml"), "[logging]\nlevel = \"info\"\n").unwrap();
    assert!(run(&[], &[]).contains("paraphrased"), "a level chosen in the file counts too");
    // A deprecated key is a warning, and still said.
    std::fs::write(home.path().join("parlance.toml"), "[chat]\ndurability = \"full\"\n").unwrap();
    let err = run(&[], &[]);
    assert!(err.contains("WARN") && err.contains("[chat] durability: deprecated"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

/// Errors about the input name the flag the user typed, not the API's field.
#[test]
fn input_errors_name_the_flags() {
    let home = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| {
        let out = common::command(home.path()).args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        stderr(&out)
    };
    let err = run(&["--mode", "cli", "--decode_input", "   "]);
    assert!(err.contains("error: --decode_input is empty"), "{err}");
    let err = run(&["--mode", "cli", "--decode_input", "Hello there.", "--model", " "]);
    assert!(err.contains("error: --model is empty"), "{err}");
    let long = "word ".repeat(2001);
    let err = run(&["--mode", "cli", "--decode_input", &long]);
    assert!(err.contains("error: --decode_input has 10005 characters; the limit is 10000"), "{err}");
    let err = run(&["--mode", "batch", "--decode_input", "  "]);
    assert!(err.contains("--decode_input is empty"), "{err}");
    let err = run(&["--mode", "evaluate", "--evaluate_original", &long, "--evaluate_paraphrase", "Hi."]);
    assert!(err.contains("--evaluate_original or --evaluate_paraphrase has 10005 characters"), "{err}");
    assert!(!err.contains("pair 0"), "{err}");
}

#[test]
fn plugins_new_help_lists_the_kinds_and_languages() {
    let home = tempfile::tempdir().unwrap();
    let out = common::command(home.path()).args(["plugins", "new", "--help"]).output().unwrap();
    assert!(out.status.success());
    let help = stdout(&out);
    assert!(help.contains("[possible values: provider, chat-model, metric]"), "{help}");
    assert!(help.contains("[possible values: rust, python, js]"), "{help}");
    let wrong = common::command(home.path())
        .args(["plugins", "new", "x", "--kind", "scorer", "--lang", "rust"])
        .output()
        .unwrap();
    assert_eq!(wrong.status.code(), Some(2));
    assert!(stderr(&wrong).contains("[possible values: provider, chat-model, metric]"), "{}", stderr(&wrong));
}

/// `parlance health`, a container's HEALTHCHECK: 0 when the server's `/health` answers 200, on the
/// port the configuration names or the URL given; 1, saying why, when nothing answers.
#[tokio::test(flavor = "multi_thread")]
async fn health_asks_a_running_server_and_fails_when_none_answers() {
    let server = crate::common::server::Server::start(&[]).await;
    let port = server.api.port().to_string();
    let out = common::command(server.home()).env("API_PORT", &port).arg("health").output().unwrap();
    assert!(out.status.success(), "{}{}", stdout(&out), stderr(&out));
    assert!(
        stdout(&out).contains(&format!("http://127.0.0.1:{port}/health answered 200")),
        "{}",
        stdout(&out)
    );
    let out =
        common::command(server.home()).args(["health", "--url", &server.url("/health")]).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));

    let closed = crate::common::server::free_port().to_string();
    let out = common::command(server.home()).env("API_PORT", &closed).arg("health").output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("connection refused"), "{}", stderr(&out));
}
