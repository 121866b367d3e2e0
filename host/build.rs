//! Builds the bundled plugins and embeds them in the binary, so that a plain `cargo build` yields a host
//! that needs no plugin configuration.
//!
//! The Rust plugins are built for `wasm32-wasip2` by a nested cargo with its own target directory:
//! sharing the outer build's directory would deadlock on its lock. Test fixtures are built in the same
//! run and their location is exported to the tests as `PARLANCE_FIXTURES_DIR`.
//!
//! The plugins written in Python and JavaScript are built by their own toolchains (componentize-py in
//! `.venv`, componentize-js in the plugin's `node_modules`, both installed by `scripts/setup.sh`) in
//! parallel with the Rust ones. Each output is kept under `<target>/foreign/` named by a SHA-256 of
//! everything that goes into it (sources, the WIT, the toolchain's version, the command), so a rebuild
//! happens only when one of those changes. A missing toolchain fails the build with the command that
//! installs it: a bundled plugin is never skipped.
//!
//! The WIT contract is embedded too (`wit_files.rs`), for `parlance plugins new`.

use sha2::{Digest, Sha256};
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

/// Bundled plugins written in other languages.
const FOREIGN: &[Foreign] = &[
    Foreign {
        name: "parascore",
        dir: "plugins/parascore-py",
        lang: Lang::Python,
        world: "parlance:plugin/metric-plugin",
        entry: "app",
    },
    Foreign {
        name: "ollama",
        dir: "plugins/ollama-js",
        lang: Lang::JavaScript,
        world: "parlance:plugin/probed-provider-plugin",
        entry: "src/ollama.js",
    },
    // A second component from the same folder and node_modules: the streaming chat model.
    Foreign {
        name: "ollama-chat",
        dir: "plugins/ollama-js",
        lang: Lang::JavaScript,
        world: "parlance:plugin/probed-streaming-chat-model-plugin",
        entry: "src/ollama-chat.js",
    },
];

struct Foreign {
    /// The name after `builtin:`.
    name: &'static str,
    /// The plugin's folder, relative to the workspace root.
    dir: &'static str,
    lang: Lang,
    world: &'static str,
    /// The Python module or the JavaScript file, relative to `dir`.
    entry: &'static str,
}

#[derive(Clone, Copy)]
enum Lang {
    Python,
    JavaScript,
}

/// Components that exist only to be tested against.
const FIXTURES: &[&str] = &["parlance-fixture-hostile", "parlance-fixture-echo"];

const TARGET: &str = "wasm32-wasip2";
const PROFILE: &str = "plugin";

fn main() {
    let manifest_dir = PathBuf::from(env("CARGO_MANIFEST_DIR"));
    let root = manifest_dir.parent().expect("host/ sits inside the workspace").to_path_buf();
    for dir in ["sdk", "wit", "tests/fixtures/hostile", "tests/fixtures/echo", "Cargo.toml", "Cargo.lock"] {
        println!("cargo:rerun-if-changed={}", root.join(dir).display());
    }
    // Only the Rust plugins' folders as a whole: a foreign plugin's folder also holds node_modules
    // and __pycache__, which its own inputs list below leaves out.
    for entry in std::fs::read_dir(root.join("plugins")).unwrap_or_else(|e| fail(&format!("plugins/: {e}"))) {
        let path = entry.unwrap_or_else(|e| fail(&format!("plugins/: {e}"))).path();
        if path.join("Cargo.toml").exists() {
            println!("cargo:rerun-if-changed={}", path.display());
        }
    }

    let target_dir = outer_target_dir();
    let wasm_target_dir = target_dir.join("wasm");
    let foreign_outputs = std::thread::scope(|scope| {
        let foreign: Vec<_> = FOREIGN
            .iter()
            .map(|plugin| {
                let (root, target_dir) = (&root, &target_dir);
                scope.spawn(move || build_foreign(root, &target_dir.join("foreign"), plugin))
            })
            .collect();
        build_components(&root, &wasm_target_dir);
        foreign
            .into_iter()
            .map(|handle| handle.join().unwrap_or_else(|_| fail("a foreign plugin build panicked")))
            .collect::<Vec<_>>()
    });

    let out = wasm_target_dir.join(TARGET).join(PROFILE);
    // Each component's SHA-256 is computed here, so that a start with a warm compile cache never reads
    // (and so never pages in) the embedded bytes.
    let mut bundled = String::from(
        "/// Components built from `plugins/` and embedded in the binary: name, SHA-256 and size of the\n\
         /// component, whether it is embedded deflated, and the embedded bytes.\n",
    );
    bundled.push_str("pub static BUNDLED: &[(&str, &str, usize, bool, &[u8])] = &[\n");
    let rust =
        BUNDLED.iter().map(|(name, krate)| (*name, out.join(format!("{}.wasm", krate.replace('-', "_")))));
    let foreign = FOREIGN.iter().map(|p| p.name).zip(foreign_outputs.iter().cloned());
    for (name, wasm) in rust.chain(foreign) {
        let bytes = std::fs::read(&wasm)
            .unwrap_or_else(|e| fail(&format!("the plugin build produced no {}: {e}", wasm.display())));
        let digest = hex_digest(&bytes);
        let (deflated, embedded) = if bytes.len() >= DEFLATE_FROM {
            (true, deflated(&target_dir.join("deflated"), &bytes, &digest))
        } else {
            (false, wasm.clone())
        };
        bundled.push_str(&format!(
            "    ({name:?}, {digest:?}, {}, {deflated}, include_bytes!({:?})),\n",
            bytes.len(),
            embedded.display().to_string()
        ));
    }
    bundled.push_str("];\n");
    let out_dir = PathBuf::from(env("OUT_DIR"));
    std::fs::write(out_dir.join("bundled.rs"), bundled).expect("write bundled.rs");
    embed_wit(&root.join("wit"), &out_dir);
    embed_manual(&root.join("docs/src"), &out_dir);
    embed_asset(&manifest_dir.join("assets/redoc.standalone.js"), &out_dir);
    println!("cargo:rustc-env=PARLANCE_FIXTURES_DIR={}", out.display());
}

/// Generates `wit_files.rs`: the current contract (`plugin.wit` and `deps/`, not the frozen
/// `versions/`) as `(relative path, text)` pairs, which `plugins new` writes into a new project.
fn embed_wit(wit: &Path, out_dir: &Path) {
    let mut files = Vec::new();
    collect_files(wit, wit, &mut files);
    files.retain(|rel| !rel.starts_with("versions/") && rel.ends_with(".wit") || rel == "README.md");
    files.sort();
    let mut code =
        String::from("/// The WIT contract this host was built with, as `(path under wit/, text)`.\n");
    code.push_str("pub static WIT_FILES: &[(&str, &str)] = &[\n");
    for rel in files {
        code.push_str(&format!("    ({rel:?}, include_str!({:?})),\n", wit.join(&rel).display().to_string()));
    }
    code.push_str("];\n");
    std::fs::write(out_dir.join("wit_files.rs"), code).expect("write wit_files.rs");
}

/// Generates `manual_files.rs`: the manual's sources under `docs/src/` (its chapters, generated
/// reference pages and pictures) as `(relative path, bytes)` pairs, which `/manual` renders.
fn embed_manual(src: &Path, out_dir: &Path) {
    println!("cargo:rerun-if-changed={}", src.display());
    let mut files = Vec::new();
    collect_files(src, src, &mut files);
    files.sort();
    let mut code = String::from("/// The manual's sources, as `(path under docs/src/, bytes)`.\n");
    code.push_str("pub static MANUAL_FILES: &[(&str, &[u8])] = &[\n");
    for rel in files {
        println!("cargo:rerun-if-changed={}", src.join(&rel).display());
        code.push_str(&format!(
            "    ({rel:?}, include_bytes!({:?})),\n",
            src.join(&rel).display().to_string()
        ));
    }
    code.push_str("];\n");
    std::fs::write(out_dir.join("manual_files.rs"), code).expect("write manual_files.rs");
}

/// Every file under `dir` as a `/`-separated path relative to `base`, leaving out what a toolchain
/// generates there (`node_modules`, `__pycache__`) and hidden files.
fn collect_files(base: &Path, dir: &Path, out: &mut Vec<String>) {
    let entries =
        std::fs::read_dir(dir).unwrap_or_else(|e| fail(&format!("cannot list {}: {e}", dir.display())));
    for entry in entries {
        let path = entry.unwrap_or_else(|e| fail(&format!("cannot list {}: {e}", dir.display()))).path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        if name.starts_with('.') || name == "node_modules" || name == "__pycache__" {
            continue;
        }
        if path.is_dir() {
            collect_files(base, &path, out);
        } else {
            let rel = path.strip_prefix(base).expect("under base");
            out.push(rel.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/"));
        }
    }
}

/// Builds a Python or JavaScript plugin, or finds the output of an identical earlier build.
fn build_foreign(root: &Path, cache_dir: &Path, plugin: &Foreign) -> PathBuf {
    let dir = root.join(plugin.dir);
    let (tool, version) = match plugin.lang {
        Lang::Python => python_toolchain(root, plugin),
        Lang::JavaScript => js_toolchain(&dir, plugin),
    };
    let mut sources = Vec::new();
    collect_files(&dir, &dir, &mut sources);
    sources.sort();
    let mut wit_files = Vec::new();
    collect_files(&root.join("wit"), &root.join("wit"), &mut wit_files);
    wit_files.retain(|rel| !rel.starts_with("versions/"));
    wit_files.sort();

    let mut hasher = Sha256::new();
    for part in [plugin.name, plugin.world, plugin.entry, version.as_str()] {
        hasher.update(part.as_bytes());
        hasher.update([0]);
    }
    for (base, files) in [(dir.clone(), &sources), (root.join("wit"), &wit_files)] {
        for rel in files {
            let path = base.join(rel);
            println!("cargo:rerun-if-changed={}", path.display());
            let bytes = std::fs::read(&path)
                .unwrap_or_else(|e| fail(&format!("cannot read {}: {e}", path.display())));
            hasher.update(rel.as_bytes());
            hasher.update((bytes.len() as u64).to_le_bytes());
            hasher.update(&bytes);
        }
    }
    let key: String = hasher.finalize().iter().take(12).map(|b| format!("{b:02x}")).collect();
    let out = cache_dir.join(format!("{}-{key}.wasm", plugin.name));
    if out.exists() {
        return out;
    }

    std::fs::create_dir_all(cache_dir)
        .unwrap_or_else(|e| fail(&format!("cannot create {}: {e}", cache_dir.display())));
    let tmp = cache_dir.join(format!(".{}-{key}.wasm.tmp", plugin.name));
    let wit = root.join("wit");
    let mut cmd = Command::new(&tool);
    match plugin.lang {
        Lang::Python => {
            cmd.arg("-d")
                .arg(&wit)
                .args(["-w", plugin.world, "componentize", "-p"])
                .arg(&dir)
                .arg(plugin.entry);
        }
        Lang::JavaScript => {
            // fetch-event would export an incoming HTTP handler, which no plugin world has.
            cmd.arg(dir.join(plugin.entry)).arg("--wit").arg(&wit).args([
                "-n",
                plugin.world,
                "-d",
                "fetch-event",
            ]);
        }
    }
    cmd.arg("-o").arg(&tmp).current_dir(&dir);
    let output = cmd.output().unwrap_or_else(|e| fail(&format!("cannot run {}: {e}", tool.display())));
    if !output.status.success() || !tmp.exists() {
        eprintln!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
        fail(&format!("building {} with {} failed (see the output above)", plugin.dir, tool.display()));
    }
    std::fs::rename(&tmp, &out).unwrap_or_else(|e| fail(&format!("cannot move {}: {e}", tmp.display())));
    // Earlier builds of the same plugin are never needed again; each weighs 12-18 MB. Only
    // `{name}-{key}.wasm` is this plugin's: `ollama-` also begins `ollama-chat-…`.
    let earlier = |file: &str| {
        file.strip_prefix(plugin.name)
            .and_then(|rest| rest.strip_prefix('-'))
            .and_then(|rest| rest.strip_suffix(".wasm"))
            .is_some_and(|k| k.len() == key.len() && k.bytes().all(|b| b.is_ascii_hexdigit()))
    };
    if let Ok(entries) = std::fs::read_dir(cache_dir) {
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if earlier(&name) && entry.path() != out {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }
    out
}

/// `.venv/bin/componentize-py` at the version pinned in `scripts/requirements-build.txt`.
fn python_toolchain(root: &Path, plugin: &Foreign) -> (PathBuf, String) {
    let requirements = root.join("scripts/requirements-build.txt");
    println!("cargo:rerun-if-changed={}", requirements.display());
    let pinned = std::fs::read_to_string(&requirements)
        .unwrap_or_else(|e| fail(&format!("cannot read {}: {e}", requirements.display())))
        .lines()
        .find_map(|l| l.trim().strip_prefix("componentize-py==").map(|v| v.trim().to_owned()))
        .unwrap_or_else(|| fail("scripts/requirements-build.txt pins no componentize-py==VERSION"));
    let tool = root.join(".venv/bin/componentize-py");
    println!("cargo:rerun-if-changed={}", tool.display());
    let missing = |why: &str| -> ! {
        fail(&format!(
            "{} is written in Python and is built with componentize-py {pinned}, but {why}. \
             Run scripts/setup.sh (it installs the pinned componentize-py into .venv).",
            plugin.dir
        ))
    };
    if !tool.exists() {
        missing(&format!("{} does not exist", tool.display()));
    }
    let output = Command::new(&tool)
        .arg("--version")
        .output()
        .unwrap_or_else(|e| missing(&format!("it does not run ({e})")));
    let version = String::from_utf8_lossy(&output.stdout).trim().to_owned();
    if version != format!("componentize-py {pinned}") {
        missing(&format!("{} reports {version:?}", tool.display()));
    }
    (tool, version)
}

/// `node_modules/.bin/componentize-js` in the plugin's folder, installed from its package-lock.json.
fn js_toolchain(dir: &Path, plugin: &Foreign) -> (PathBuf, String) {
    let lock_path = dir.join("package-lock.json");
    let lock = std::fs::read_to_string(&lock_path)
        .unwrap_or_else(|e| fail(&format!("cannot read {}: {e}", lock_path.display())));
    let lock: serde_json::Value =
        serde_json::from_str(&lock).unwrap_or_else(|e| fail(&format!("{}: {e}", lock_path.display())));
    let package = "node_modules/@bytecodealliance/componentize-js";
    let pinned = lock["packages"][package]["version"]
        .as_str()
        .unwrap_or_else(|| fail(&format!("{} pins no {package}", lock_path.display())))
        .to_owned();
    let installed_manifest = dir.join(package).join("package.json");
    println!("cargo:rerun-if-changed={}", installed_manifest.display());
    let missing = |why: &str| -> ! {
        fail(&format!(
            "{} is written in JavaScript and is built with componentize-js {pinned}, but {why}. \
             Run scripts/setup.sh (it runs `npm ci` in {}; Node.js 20 or later is needed).",
            plugin.dir, plugin.dir
        ))
    };
    let installed: serde_json::Value = std::fs::read_to_string(&installed_manifest)
        .ok()
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or_else(|| missing(&format!("{} is not installed", dir.join(package).display())));
    if installed["version"].as_str() != Some(pinned.as_str()) {
        missing(&format!("node_modules holds version {}", installed["version"]));
    }
    let tool = dir.join("node_modules/.bin/componentize-js");
    if !tool.exists() {
        missing(&format!("{} does not exist", tool.display()));
    }
    if Command::new("node").arg("--version").output().is_err() {
        missing("`node` is not on the PATH");
    }
    (tool, format!("componentize-js {pinned}"))
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
/// A build for another triple (`--target x86_64-unknown-linux-musl`, the container image's) shares the
/// plugins of the machine's build, which do not depend on the host's target: `<target>`, not
/// `<target>/<triple>`.
fn outer_target_dir() -> PathBuf {
    let out_dir = PathBuf::from(env("OUT_DIR"));
    let dir = out_dir
        .ancestors()
        .find(|p| p.file_name().is_some_and(|n| n == "build"))
        .and_then(|build| build.parent())
        .and_then(|profile| profile.parent())
        .unwrap_or_else(|| fail("cannot find the target directory from OUT_DIR"));
    match dir.parent() {
        Some(parent) if dir.file_name().is_some_and(|n| n == env("TARGET").as_str()) => parent.to_path_buf(),
        _ => dir.to_path_buf(),
    }
}

fn env(name: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| fail(&format!("{name} is not set")))
}

fn fail(message: &str) -> ! {
    eprintln!("error: {message}");
    std::process::exit(1)
}

/// The hex SHA-256 of a component, as `compile_cache::digest` computes it at run time.
/// Components from this size on (the Python and JavaScript ones, 13-18 MB each, which carry their
/// interpreter) are embedded deflated: a third of their size, which keeps the binary and the container
/// image 30 MB smaller. They are inflated only when the compile cache does not hold them.
const DEFLATE_FROM: usize = 1 << 20;

/// `bytes` deflated at the best level (45 MB to 14.6 MB, where the fastest level leaves 20.4 MB; some
/// seconds of an unoptimised build script) into `dir/<digest>.deflate`, written once per digest.
fn deflated(dir: &Path, bytes: &[u8], digest: &str) -> PathBuf {
    let path = dir.join(format!("{digest}.deflate"));
    if path.exists() {
        return path;
    }
    std::fs::create_dir_all(dir).unwrap_or_else(|e| fail(&format!("cannot create {}: {e}", dir.display())));
    let mut encoder = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::best());
    std::io::Write::write_all(&mut encoder, bytes).expect("deflate into memory");
    let packed = encoder.finish().expect("deflate into memory");
    let tmp = dir.join(format!("{digest}.deflate.tmp"));
    std::fs::write(&tmp, packed)
        .and_then(|()| std::fs::rename(&tmp, &path))
        .unwrap_or_else(|e| fail(&format!("cannot write {}: {e}", path.display())));
    path
}

fn hex_digest(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}
