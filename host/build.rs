//! Builds the bundled plugins for `wasm32-wasip2` and embeds them in the binary, so that a plain
//! `cargo build` yields a host that needs no plugin configuration.
//!
//! The plugins are built by a nested cargo with its own target directory: sharing the outer build's
//! directory would deadlock on its lock. Test fixtures are built in the same run and their location is
//! exported to the tests as `PARLANCE_FIXTURES_DIR`.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Bundled plugins: the name after `builtin:` and the crate that builds it.
const BUNDLED: &[(&str, &str)] = &[
    ("offline", "parlance-plugin-offline"),
    ("openai", "parlance-plugin-openai"),
    ("gemini", "parlance-plugin-gemini"),
    ("form-chat", "parlance-plugin-form-chat"),
    ("openai-chat", "parlance-plugin-openai-chat"),
    ("lexical", "parlance-plugin-lexical"),
    ("structural", "parlance-plugin-structural"),
    ("bleu", "parlance-plugin-bleu"),
    ("rouge", "parlance-plugin-rouge"),
    ("semantic", "parlance-plugin-semantic"),
];

/// Components that exist only to be tested against.
const FIXTURES: &[&str] = &["parlance-fixture-hostile"];

const TARGET: &str = "wasm32-wasip2";
const PROFILE: &str = "plugin";

fn main() {
    let manifest_dir = PathBuf::from(env("CARGO_MANIFEST_DIR"));
    let root = manifest_dir.parent().expect("host/ sits inside the workspace").to_path_buf();
    for dir in ["plugins", "sdk", "wit", "tests/fixtures", "Cargo.toml", "Cargo.lock"] {
        println!("cargo:rerun-if-changed={}", root.join(dir).display());
    }

    let wasm_target_dir = outer_target_dir().join("wasm");
    build_components(&root, &wasm_target_dir);

    let out = wasm_target_dir.join(TARGET).join(PROFILE);
    let mut bundled = String::from("/// Components built from `plugins/` and embedded in the binary.\n");
    bundled.push_str("pub static BUNDLED: &[(&str, &[u8])] = &[\n");
    for (name, krate) in BUNDLED {
        let wasm = out.join(format!("{}.wasm", krate.replace('-', "_")));
        if !wasm.exists() {
            fail(&format!("the plugin build produced no {}", wasm.display()));
        }
        bundled.push_str(&format!("    ({name:?}, include_bytes!({:?})),\n", wasm.display().to_string()));
    }
    bundled.push_str("];\n");
    let out_dir = PathBuf::from(env("OUT_DIR"));
    std::fs::write(out_dir.join("bundled.rs"), bundled).expect("write bundled.rs");
    embed_asset(&manifest_dir.join("assets/redoc.standalone.js"), &out_dir);
    println!("cargo:rustc-env=PARLANCE_FIXTURES_DIR={}", out.display());
}

/// Copies a documentation asset fetched by `scripts/setup.sh` next to the generated code.
fn embed_asset(path: &Path, out_dir: &Path) {
    println!("cargo:rerun-if-changed={}", path.display());
    if !path.exists() {
        fail(&format!(
            "{} is missing: run scripts/setup.sh (it fetches the pinned ReDoc bundle from npm)",
            path.display()
        ));
    }
    let name = path.file_name().expect("an asset has a file name");
    std::fs::copy(path, out_dir.join(name))
        .unwrap_or_else(|e| fail(&format!("cannot copy {}: {e}", path.display())));
}

fn build_components(root: &Path, target_dir: &Path) {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut cmd = Command::new(cargo);
    cmd.current_dir(root)
        .args(["build", "--target", TARGET, "--profile", PROFILE, "--target-dir"])
        .arg(target_dir);
    for krate in BUNDLED.iter().map(|(_, k)| *k).chain(FIXTURES.iter().copied()) {
        cmd.args(["-p", krate]);
    }
    // The outer build's settings describe the host, not the plugins; keep only the jobserver so that
    // both builds share the same cores.
    for var in [
        "CARGO_ENCODED_RUSTFLAGS",
        "RUSTFLAGS",
        "CARGO_BUILD_TARGET",
        "CARGO_TARGET_DIR",
        "CARGO_BUILD_TARGET_DIR",
        "RUSTC_WORKSPACE_WRAPPER",
        "CARGO_PRIMARY_PACKAGE",
        "CARGO_MANIFEST_DIR",
        "CARGO_PKG_NAME",
        "TARGET",
        "HOST",
        "PROFILE",
        "OPT_LEVEL",
        "DEBUG",
        "OUT_DIR",
    ] {
        cmd.env_remove(var);
    }
    let status = cmd.status().unwrap_or_else(|e| fail(&format!("cannot run cargo for the plugins: {e}")));
    if !status.success() {
        fail(&format!(
            "building the plugins for {TARGET} failed (see the errors above). \
             If the target is missing, install it with `rustup target add {TARGET}`."
        ));
    }
}

/// The target directory of the outer build: OUT_DIR is `<target>/[<triple>/]<profile>/build/<pkg>/out`.
fn outer_target_dir() -> PathBuf {
    let out_dir = PathBuf::from(env("OUT_DIR"));
    out_dir
        .ancestors()
        .find(|p| p.file_name().is_some_and(|n| n == "build"))
        .and_then(|build| build.parent())
        .and_then(|profile| profile.parent())
        .map(Path::to_path_buf)
        .unwrap_or_else(|| fail("cannot find the target directory from OUT_DIR"))
}

fn env(name: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| fail(&format!("{name} is not set")))
}

fn fail(message: &str) -> ! {
    eprintln!("error: {message}");
    std::process::exit(1)
}
