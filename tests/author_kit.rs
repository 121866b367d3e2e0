//! The plugin author's kit end to end, as the README tells an author to use it: `plugins new` writes a
//! Python metric, a JavaScript provider and a Rust metric; each one's own build.sh builds it and its
//! own test.sh runs `plugins check` and `plugins test`; then a running server loads all three from a
//! `parlance.toml` and serves them. Also `plugins check` on components that do not fit.

use crate::common;
use common::server::Server;
use serde_json::{Value, json};
use std::path::Path;
use std::process::{Command, Output};

fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

/// A PATH with the system's tools and no `parlance`, as a newcomer's.
const PATH_WITHOUT_PARLANCE: &str = "/usr/bin:/bin";

/// Runs a project's script with the caller's environment (its toolchains live under the real home)
/// and the tests' shared compile cache. test.sh runs as a newcomer runs it, with no PARLANCE and no
/// `parlance` on the PATH: it finds the binary that wrote the project, the one under test.
fn script(project: &Path, name: &str) -> Output {
    let mut command = Command::new(project.join(name));
    if name == "test.sh" {
        command.env_remove("PARLANCE").env("PATH", PATH_WITHOUT_PARLANCE);
    }
    command
        .env("PARLANCE_CACHE_DIR", common::compile_cache_dir())
        // Rust projects share one target directory across runs of the suite, so only the first compiles
        // the SDK's dependencies.
        .env(
            "CARGO_TARGET_DIR",
            std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("kit-rust-target"),
        )
        .output()
        .unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn authors_create_build_check_test_and_load_plugins_in_three_languages() {
    let home = tempfile::tempdir().unwrap();
    let projects = [
        ("py-metric", "metric", "python"),
        ("js-provider", "provider", "js"),
        ("js-metric", "metric", "js"),
        ("rs-metric", "metric", "rust"),
    ];
    for (name, kind, lang) in projects {
        let out = common::command(home.path())
            .args(["plugins", "new", name, "--kind", kind, "--lang", lang])
            .output()
            .unwrap();
        assert!(out.status.success(), "plugins new {name}: {}", text(&out));
        let project = home.path().join(name);
        for file in ["build.sh", "test.sh", "README.md", "wit/plugin.wit", "wit/deps/http/http.wit"] {
            assert!(project.join(file).exists(), "{name}: no {file}");
        }
        let project = project.clone();
        let build = tokio::task::spawn_blocking(move || script(&project, "build.sh")).await.unwrap();
        assert!(build.status.success(), "{name}/build.sh: {}", text(&build));
        let project = home.path().join(name);
        let test = tokio::task::spawn_blocking(move || script(&project, "test.sh")).await.unwrap();
        assert!(test.status.success(), "{name}/test.sh: {}", text(&test));
        assert!(text(&test).contains("test passed"), "{name}/test.sh: {}", text(&test));
        // test.sh compiled the component into the shared cache; a second start must load it from
        // there, which is what keeps the 12-18 MB Python and JavaScript components quick to start.
        let wasm = home.path().join(name).join(format!("{name}.wasm"));
        let mut again = common::command(home.path());
        again.args(["plugins", "test"]).arg(&wasm).args(["--kind", kind, "--json"]);
        match kind {
            "metric" => again.args(["--pairs", &format!("{name}/pairs.jsonl")]),
            _ => again.args(["--text", "one two three"]),
        };
        let again = again.output().unwrap();
        assert!(again.status.success(), "{name}: {}", text(&again));
        let report: Value = serde_json::from_slice(&again.stdout).unwrap();
        assert_eq!(report["load"]["source"], "cache", "{name}: {report}");
    }
    // A second `plugins new` into the same folder refuses to overwrite it.
    let again = common::command(home.path())
        .args(["plugins", "new", "py-metric", "--kind", "metric", "--lang", "python"])
        .output()
        .unwrap();
    assert!(!again.status.success());
    assert!(text(&again).contains("already exists"), "{}", text(&again));

    let config = "[[plugin]]\nid = \"py-metric\"\nkind = \"metric\"\ncomponent = \"py-metric/py-metric.wasm\"\n\n\
                  [[plugin]]\nid = \"rs-metric\"\nkind = \"metric\"\ncomponent = \"rs-metric/rs-metric.wasm\"\n\n\
                  [[plugin]]\nid = \"js-metric\"\nkind = \"metric\"\ncomponent = \"js-metric/js-metric.wasm\"\n\n\
                  [[plugin]]\nid = \"js-provider\"\nkind = \"provider\"\ncomponent = \"js-provider/js-provider.wasm\"\n\
                  config = { suffix = \"indeed\" }\n";
    std::fs::write(home.path().join("parlance.toml"), config).unwrap();
    let listed = common::command(home.path()).args(["plugins", "list", "--json"]).output().unwrap();
    assert!(listed.status.success(), "{}", text(&listed));
    let rows: Vec<Value> = serde_json::from_slice(&listed.stdout).unwrap();
    for id in ["py-metric", "rs-metric", "js-metric", "js-provider"] {
        assert!(rows.iter().any(|r| r["id"] == id), "{id} is not listed: {rows:?}");
    }

    let server = Server::start_in(home, &[], &["--config", "parlance.toml"]).await;
    // Characters are code points in every language: two emoji (four UTF-16 units) count two.
    for (pair, ratio) in [
        (json!({"original": "abcd", "paraphrase": "abcdabcd"}), 2.0),
        (json!({"original": "ab", "paraphrase": "\u{1F642}\u{1F642}"}), 1.0),
    ] {
        let r = server.client.post(server.url("/evaluate")).json(&pair).send().await.unwrap();
        let body: Value = r.json().await.unwrap();
        for score in ["py_metric_length_ratio", "rs_metric_length_ratio", "js_metric_length_ratio"] {
            assert_eq!(body["evaluation"][score], ratio, "{body}");
        }
    }
    let r = server
        .client
        .post(server.url("/paraphrase"))
        .json(&json!({"text": "one two three", "provider": "js-provider"}))
        .send()
        .await
        .unwrap();
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["paraphrase"], "three two one indeed", "{body}");
}

/// test.sh runs the binary that wrote the project, without PATH or PARLANCE naming it, wherever that
/// binary is: here a link to the one under test in a folder whose name needs quoting.
#[test]
fn test_sh_runs_the_binary_that_wrote_it() {
    let home = tempfile::tempdir().unwrap();
    // Beside the binary under test, so that a hard link can be made (same file system).
    let folder = tempfile::Builder::new()
        .prefix("it's a \"kit\" $HOME ")
        .tempdir_in(env!("CARGO_TARGET_TMPDIR"))
        .unwrap();
    let writer = folder.path().join("parlance");
    if std::fs::hard_link(common::bin(), &writer).is_err() {
        std::fs::copy(common::bin(), &writer).unwrap();
    }
    let out = Command::new(&writer)
        .args(["plugins", "new", "a-provider", "--kind", "provider", "--lang", "python"])
        .current_dir(home.path())
        .env_clear()
        .env("HOME", home.path())
        .env("PATH", PATH_WITHOUT_PARLANCE)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("next: a-provider/build.sh && a-provider/test.sh"));
    let test = script(&home.path().join("a-provider"), "test.sh");
    let said = text(&test);
    // Not built, so the writer itself says the component is missing: it ran.
    assert!(!test.status.success(), "{said}");
    assert!(said.contains("error: cannot read a-provider.wasm"), "{said}");
    std::fs::remove_file(&writer).unwrap();
    let test = script(&home.path().join("a-provider"), "test.sh");
    let said = text(&test);
    assert!(
        said.contains(&format!(
            "test.sh: {} is gone and there is no parlance on the PATH; set PARLANCE=",
            writer.display()
        )),
        "{said}"
    );
}

#[test]
fn check_names_what_a_component_lacks() {
    let home = tempfile::tempdir().unwrap();
    // The smallest valid component: the preamble of component-model layer 1, exporting nothing.
    let empty = home.path().join("empty.wasm");
    std::fs::write(&empty, b"\0asm\x0d\0\x01\0").unwrap();
    let out = common::command(home.path()).args(["plugins", "check"]).arg(&empty).output().unwrap();
    assert!(!out.status.success());
    let report = text(&out);
    assert!(report.contains("it exports none of parlance:plugin/provider"), "{report}");
    assert!(
        report.contains("to be a metric (world metric-plugin), it must export parlance:plugin/metric@")
            && report.contains("with the functions info, evaluate"),
        "{report}"
    );
    assert!(report.contains("exports: (none)"), "{report}");
}

/// A Rust project comes with a `Cargo.lock` that Cargo takes as it is (`--locked`), whatever the
/// project's name sorts as among the locked crates; this is what its build.sh builds with.
#[test]
fn rust_projects_are_locked() {
    let home = tempfile::tempdir().unwrap();
    for name in ["a-first", "rs-metric", "zz-last"] {
        let out = common::command(home.path())
            .args(["plugins", "new", name, "--kind", "metric", "--lang", "rust"])
            .output()
            .unwrap();
        assert!(out.status.success(), "plugins new {name}: {}", text(&out));
        let project = home.path().join(name);
        assert!(project.join("Cargo.lock").exists(), "{name}: no Cargo.lock");
        assert!(!std::fs::read_to_string(project.join(".gitignore")).unwrap().contains("Cargo.lock"));
        let metadata = Command::new("cargo")
            .args(["metadata", "--locked", "--offline", "--format-version", "1"])
            .current_dir(&project)
            .output()
            .unwrap();
        assert!(metadata.status.success(), "{name}: the lock is not current: {}", text(&metadata));
    }
}
