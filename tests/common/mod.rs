//! Shared test support: fixture paths, runtime settings with a shared compile cache, the binary, and
//! small upstream servers on loopback that speak the real protocols.
#![allow(dead_code, reason = "each test binary uses a different part of the shared support")]

#[path = "../../host/src/store/test_postgres.rs"]
pub mod postgres;
pub mod server;
pub mod upstream;

use parlance::plugins::RuntimeConfig;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// A component built from `tests/fixtures/<crate>`.
pub fn fixture(krate: &str) -> PathBuf {
    PathBuf::from(env!("PARLANCE_FIXTURES_DIR")).join(format!("{}.wasm", krate.replace('-', "_")))
}

/// Runtime settings whose compile cache is shared by all tests of this build, so each component is
/// compiled once per build rather than once per test.
pub fn runtime_settings() -> RuntimeConfig {
    RuntimeConfig { cache_dir: Some(compile_cache_dir()), max_instances: 32, ..RuntimeConfig::default() }
}

pub fn compile_cache_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("compile-cache")
}

/// A fresh home whose `parlance.toml` is `config`: the binary finds it there, as its working
/// directory.
pub fn home_with_config(config: &str) -> tempfile::TempDir {
    let home = tempfile::tempdir().unwrap();
    std::fs::write(home.path().join("parlance.toml"), config).unwrap();
    home
}

/// The `parlance` binary under test.
pub fn bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_parlance"))
}

/// A command for the binary with a clean, hermetic environment: no key files from the real home, a
/// memory cache, the shared compile cache, and a fresh working directory.
pub fn command(home: &std::path::Path) -> std::process::Command {
    let mut cmd = std::process::Command::new(bin());
    cmd.env_clear()
        .env("HOME", home)
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("CACHE_TYPE", "memory")
        .env("PARLANCE_CACHE_DIR", compile_cache_dir())
        .current_dir(home);
    cmd
}

/// The repository's root.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

/// The Python of `.venv`, where `scripts/setup.sh --tests` installs the test tools, else the system's.
pub fn python() -> String {
    let venv = repo().join(".venv/bin/python3");
    if venv.exists() { venv.to_string_lossy().into_owned() } else { "python3".into() }
}

/// Creates the SQLite dialog store at `path` (its schema, no data), as a server's first start does:
/// `parlance keys` writes only to a store that exists.
pub fn create_store(path: &Path) {
    let path = path.to_owned();
    // On a thread of its own, since a caller may be inside a runtime already.
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        runtime.block_on(async {
            parlance::store::DialogStore::open(&path, parlance::store::Durability::Normal).await.unwrap();
        });
    })
    .join()
    .unwrap();
}

/// A new API key acting as `client`, created by `parlance keys` in the database of `home` (created
/// first if need be, as the server would).
pub fn key(home: &Path, client: &str) -> String {
    if !home.join("dialogs.db").exists() {
        create_store(&home.join("dialogs.db"));
    }
    let out = command(home)
        .env("DATABASE_FILE", home.join("dialogs.db"))
        .args(["keys", "create", "--name", client, "--client", client, "--json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice::<Value>(&out.stdout).unwrap()["key"].as_str().unwrap().to_owned()
}

/// Runs a test script written in another language from its own folder; its last line of output is
/// its JSON summary.
pub fn run_script(program: &str, script: &Path, args: &[&str]) -> Value {
    let out = std::process::Command::new(program)
        .arg(script)
        .args(args)
        .current_dir(script.parent().unwrap())
        .output()
        .unwrap_or_else(|e| panic!("{program} runs (scripts/setup.sh --tests installs the test tools): {e}"));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{} failed:\n{stdout}\n{}",
        script.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_str(stdout.lines().last().unwrap_or_default()).unwrap()
}
