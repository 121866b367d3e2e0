//! The plugin author's kit: `parlance plugins new` writes a working project in Rust, Python or
//! JavaScript (the WIT, a build script, a test) from the templates; `plugins test` (`trial.rs`) runs
//! what it builds.

use crate::plugins::api::PluginKind;
use anyhow::{Context, bail};
use clap::ValueEnum;
use std::path::{Path, PathBuf};

include!(concat!(env!("OUT_DIR"), "/wit_files.rs"));

/// The languages `plugins new` writes projects in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Lang {
    Rust,
    Python,
    Js,
}

impl Lang {
    fn title(self) -> &'static str {
        match self {
            Lang::Rust => "Rust",
            Lang::Python => "Python",
            Lang::Js => "JavaScript",
        }
    }
}

/// The `parlance:plugin` version of the embedded WIT, from its `package` line.
pub fn wit_version() -> &'static str {
    WIT_FILES
        .iter()
        .find(|(path, _)| *path == "plugin.wit")
        .and_then(|(_, text)| {
            text.lines().find_map(|l| l.trim().strip_prefix("package parlance:plugin@")?.strip_suffix(';'))
        })
        .expect("the embedded plugin.wit declares its package version")
}

/// The repository's Rust SDK as this binary was built from it.
pub fn default_sdk_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join("sdk")
}

/// What `plugins new` needs to know.
pub struct NewProject {
    pub name: String,
    pub kind: PluginKind,
    pub lang: Lang,
    pub dir: PathBuf,
    /// The SDK a Rust project depends on by path.
    pub sdk: PathBuf,
    /// The `parlance` binary that `test.sh` runs unless `PARLANCE` names another (this one, so that a
    /// new project's test passes without `parlance` on the PATH); `None` leaves it to the PATH.
    pub binary: Option<PathBuf>,
}

/// Writes a new plugin project and returns the files written, relative to its folder.
pub fn new_project(p: &NewProject) -> anyhow::Result<Vec<String>> {
    check_name_and_dir(p)?;
    let fill = Fill::new(p)?;
    let mut files = language_files(p, &fill)?;
    files.extend(common_files(p, &fill));
    write_files(&p.dir, &files)?;
    Ok(files.into_iter().map(|(rel, _)| rel).collect())
}

/// A plugin name is lowercase letters, digits and `-`, starting with a letter; the folder must not
/// exist, or be empty.
fn check_name_and_dir(p: &NewProject) -> anyhow::Result<()> {
    let valid = p.name.starts_with(|c: char| c.is_ascii_lowercase())
        && p.name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        && !p.name.ends_with('-');
    if !valid {
        bail!(
            "{:?} is not a valid plugin name: use lowercase letters, digits and `-`, starting with a letter",
            p.name
        );
    }
    if p.dir.exists() && std::fs::read_dir(&p.dir).map(|mut d| d.next().is_some()).unwrap_or(true) {
        bail!("{} already exists and is not empty; choose another --dir", p.dir.display());
    }
    Ok(())
}

/// The templates' placeholders, as one project fills them.
struct Fill<'a> {
    p: &'a NewProject,
    ident: String,
    sdk: String,
    world: String,
    dir: String,
    /// [`NewProject::binary`], quoted for the shell.
    binary: String,
}

impl<'a> Fill<'a> {
    fn new(p: &'a NewProject) -> anyhow::Result<Fill<'a>> {
        Ok(Fill {
            p,
            ident: p.name.replace('-', "_"),
            sdk: if p.lang == Lang::Rust { rust_sdk(&p.sdk)? } else { String::new() },
            world: format!("parlance:plugin/{}", template_world(p.kind)),
            dir: p.dir.display().to_string(),
            binary: shell_quoted(&p.binary.as_ref().map(|b| b.display().to_string()).unwrap_or_default()),
        })
    }

    fn apply(&self, template: &str) -> String {
        let p = self.p;
        // First, since the fragment it inserts has placeholders of its own.
        template
            .replace("{{find_parlance}}", include_str!("templates/common/find-parlance.sh").trim_end())
            .replace("{{parlance}}", &self.binary)
            .replace("{{name}}", &p.name)
            .replace("{{ident}}", &self.ident)
            .replace("{{kind}}", p.kind.as_str())
            .replace("{{world}}", &self.world)
            .replace("{{version}}", wit_version())
            .replace("{{sdk}}", &self.sdk)
            .replace("{{sdk_feature}}", p.kind.as_str())
            .replace("{{componentize_py}}", componentize_py_version())
            .replace("{{language}}", p.lang.title())
            .replace("{{dir}}", &self.dir)
    }
}

/// `text` as one word of a bash script, whatever it holds: in single quotes, each quote in it closed,
/// escaped and reopened.
fn shell_quoted(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// The SDK a Rust project depends on, as an absolute path: the `sdk` folder of a checkout.
fn rust_sdk(sdk: &Path) -> anyhow::Result<String> {
    let sdk = sdk.canonicalize().map_err(|e| {
        anyhow::anyhow!(
            "the Rust SDK is not at {} ({e}); pass --sdk PATH to the `sdk` folder of a Parlance checkout",
            sdk.display()
        )
    })?;
    if !sdk.join("Cargo.toml").exists() {
        bail!("{} has no Cargo.toml; --sdk must name the `sdk` folder of a Parlance checkout", sdk.display());
    }
    Ok(sdk.display().to_string())
}

/// The source, the build and the pinned toolchain of the project's language.
fn language_files(p: &NewProject, fill: &Fill<'_>) -> anyhow::Result<Vec<(String, String)>> {
    let mut files: Vec<(String, String)> = Vec::new();
    let source = template_source(p.lang, p.kind);
    match p.lang {
        Lang::Rust => {
            files.push(("src/lib.rs".into(), fill.apply(source)));
            files.push(("Cargo.toml".into(), fill.apply(include_str!("templates/rust/Cargo.toml"))));
            files.push(("Cargo.lock".into(), rust_lockfile(&p.name)?));
            files.push(("build.sh".into(), fill.apply(include_str!("templates/rust/build.sh"))));
            files.push((".gitignore".into(), fill.apply(include_str!("templates/rust/gitignore"))));
        }
        Lang::Python => {
            files.push(("app.py".into(), fill.apply(source)));
            if p.kind == PluginKind::ChatModel {
                files.push((
                    "parlance_stream.py".into(),
                    include_str!("templates/python/parlance_stream.py").to_owned(),
                ));
            }
            files.push((
                "requirements.txt".into(),
                fill.apply(include_str!("templates/python/requirements.txt")),
            ));
            files.push(("build.sh".into(), fill.apply(include_str!("templates/python/build.sh"))));
            files.push((".gitignore".into(), fill.apply(include_str!("templates/python/gitignore"))));
        }
        Lang::Js => {
            files.push(("src/app.js".into(), fill.apply(source)));
            if p.kind == PluginKind::ChatModel {
                files.push((
                    "src/parlance_stream.js".into(),
                    include_str!("templates/js/parlance_stream.js").to_owned(),
                ));
            }
            let (package, lock) = js_package(&p.name)?;
            files.push(("package.json".into(), package));
            files.push(("package-lock.json".into(), lock));
            files.push(("build.sh".into(), fill.apply(include_str!("templates/js/build.sh"))));
            files.push((".gitignore".into(), fill.apply(include_str!("templates/js/gitignore"))));
        }
    }
    Ok(files)
}

/// What every project has: the test of its world (with pairs for a metric), the README and the WIT.
fn common_files(p: &NewProject, fill: &Fill<'_>) -> Vec<(String, String)> {
    let mut files = Vec::new();
    let test = match p.kind {
        PluginKind::Provider => include_str!("templates/common/test-provider.sh"),
        PluginKind::ChatModel => include_str!("templates/common/test-chat-model.sh"),
        PluginKind::Metric => include_str!("templates/common/test-metric.sh"),
    };
    files.push(("test.sh".into(), fill.apply(test)));
    if p.kind == PluginKind::Metric {
        files.push(("pairs.jsonl".into(), include_str!("templates/common/pairs.jsonl").to_owned()));
    }
    files.push(("README.md".into(), fill.apply(include_str!("templates/common/README.md"))));
    for (path, text) in WIT_FILES.iter().filter(|(path, _)| path.ends_with(".wit")) {
        files.push((format!("wit/{path}"), (*text).to_owned()));
    }
    files
}

/// Writes the files under `dir`, the scripts executable.
fn write_files(dir: &Path, files: &[(String, String)]) -> anyhow::Result<()> {
    for (rel, text) in files {
        let path = dir.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).with_context(|| format!("cannot create {}", parent.display()))?;
        }
        std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))?;
        if rel.ends_with(".sh") {
            make_executable(&path)?;
        }
    }
    Ok(())
}

/// The world a new project implements: its kind's, except that a chat model also streams its reply
/// (`chat-stream`: the Rust SDK's `ChatStream`, the helpers in `parlance_stream` for Python and
/// JavaScript).
fn template_world(kind: PluginKind) -> &'static str {
    match kind {
        PluginKind::ChatModel => "streaming-chat-model-plugin",
        _ => kind.world(),
    }
}

/// The plugin's source in a language and world, before its placeholders are filled.
fn template_source(lang: Lang, kind: PluginKind) -> &'static str {
    match (lang, kind) {
        (Lang::Rust, PluginKind::Provider) => include_str!("templates/rust/provider.rs"),
        (Lang::Rust, PluginKind::ChatModel) => include_str!("templates/rust/chat_model.rs"),
        (Lang::Rust, PluginKind::Metric) => include_str!("templates/rust/metric.rs"),
        (Lang::Python, PluginKind::Provider) => include_str!("templates/python/provider.py"),
        (Lang::Python, PluginKind::ChatModel) => include_str!("templates/python/chat_model.py"),
        (Lang::Python, PluginKind::Metric) => include_str!("templates/python/metric.py"),
        (Lang::Js, PluginKind::Provider) => include_str!("templates/js/provider.js"),
        (Lang::Js, PluginKind::ChatModel) => include_str!("templates/js/chat_model.js"),
        (Lang::Js, PluginKind::Metric) => include_str!("templates/js/metric.js"),
    }
}

#[cfg(unix)]
fn make_executable(path: &Path) -> anyhow::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755))
        .with_context(|| format!("cannot make {} executable", path.display()))
}

#[cfg(not(unix))]
fn make_executable(_path: &Path) -> anyhow::Result<()> {
    Ok(())
}

/// A Rust project's `Cargo.lock`: the template's, which pins the SDK's dependencies at the versions
/// this repository builds and tests with, with the project's own package named and placed where
/// Cargo's order puts it, so that `cargo build --locked` takes the file as it is.
fn rust_lockfile(name: &str) -> anyhow::Result<String> {
    const SEPARATOR: &str = "\n[[package]]\n";
    let template = include_str!("templates/rust/Cargo.lock");
    let mut parts = template.split(SEPARATOR);
    let header = parts.next().unwrap_or_default();
    let mut packages: Vec<String> =
        parts.map(|p| p.replace("name = \"{{name}}\"\n", &format!("name = \"{name}\"\n"))).collect();
    // Cargo orders packages by name, then version.
    let key = |package: &String| {
        let field = |key: &str| {
            package
                .lines()
                .find_map(|l| l.strip_prefix(key)?.strip_prefix(" = \"")?.strip_suffix('"'))
                .unwrap_or_default()
        };
        let version: Vec<u64> = field("version").split('.').map(|n| n.parse().unwrap_or(0)).collect();
        (field("name").to_owned(), version)
    };
    let taken = packages.iter().filter(|p| key(p).0 == name).count() > 1;
    if taken {
        bail!("{name:?} is the name of a crate the Rust SDK depends on; choose another name");
    }
    packages.sort_by_key(key);
    Ok(packages.iter().fold(header.to_owned(), |out, package| out + SEPARATOR + package))
}

/// The componentize-py version the repository builds its own Python plugin with.
fn componentize_py_version() -> &'static str {
    include_str!("../../../scripts/requirements-build.txt")
        .lines()
        .find_map(|l| l.trim().strip_prefix("componentize-py=="))
        .expect("scripts/requirements-build.txt pins componentize-py")
        .trim()
}

/// `package.json` and `package-lock.json` for a JavaScript project: the bundled Ollama plugin's
/// toolchain, so a new project installs exactly the versions this repository builds and tests with.
fn js_package(name: &str) -> anyhow::Result<(String, String)> {
    let mut package: serde_json::Value =
        serde_json::from_str(include_str!("../../../plugins/ollama-js/package.json"))?;
    package["name"] = name.into();
    package["description"] = format!("Parlance plugin {name}").into();
    package["license"] = "UNLICENSED".into();
    if let Some(object) = package.as_object_mut() {
        object.remove("scripts");
    }
    let mut lock: serde_json::Value =
        serde_json::from_str(include_str!("../../../plugins/ollama-js/package-lock.json"))?;
    lock["name"] = name.into();
    lock["packages"][""]["name"] = name.into();
    lock["packages"][""]["license"] = "UNLICENSED".into();
    Ok((serde_json::to_string_pretty(&package)? + "\n", serde_json::to_string_pretty(&lock)? + "\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn package_names(lock: &str) -> Vec<&str> {
        lock.lines().filter_map(|l| l.strip_prefix("name = \"")?.strip_suffix('"')).collect()
    }

    #[test]
    fn a_rust_project_is_locked_under_its_own_name_in_cargo_order() {
        let template = include_str!("templates/rust/Cargo.lock");
        for name in ["a-plugin", "my-metric", "rs-metric", "zz-top"] {
            let lock = rust_lockfile(name).unwrap();
            let names = package_names(&lock);
            assert!(names.contains(&name) && !lock.contains("{{name}}"), "{name}");
            assert!(names.is_sorted(), "{name}: {names:?}");
            assert_eq!(lock.len(), template.len() - "{{name}}".len() + name.len());
            assert!(lock.starts_with("# This file is automatically @generated by Cargo.\n"));
        }
        for taken in ["serde", "parlance-sdk", "wit-bindgen"] {
            let error = rust_lockfile(taken).unwrap_err().to_string();
            assert!(error.contains("a crate the Rust SDK depends on"), "{error}");
        }
    }

    /// A new project's test.sh runs `PARLANCE`, else the binary that wrote it (wherever that is, quotes
    /// and spaces in its path included), else `parlance` on the PATH, else stops saying to set
    /// `PARLANCE`; here with stand-ins that print how they were called.
    #[cfg(unix)]
    #[test]
    fn test_sh_finds_the_binary_that_wrote_it() {
        let root = tempfile::tempdir().unwrap();
        let stand_in = |dir: &Path, said: &str| {
            std::fs::create_dir_all(dir).unwrap();
            let path = dir.join("parlance");
            std::fs::write(&path, format!("#!/bin/sh\necho \"{said} $1\"\n")).unwrap();
            make_executable(&path).unwrap();
            path
        };
        let wrote_it = stand_in(&root.path().join("it's a \"$dir\" `x`"), "the writer");
        let on_path = root.path().join("bin");
        let named = stand_in(&root.path().join("named"), "the named one");
        let project = NewProject {
            name: "a-provider".into(),
            kind: PluginKind::Provider,
            lang: Lang::Python,
            dir: root.path().join("a-provider"),
            sdk: default_sdk_dir(),
            binary: Some(wrote_it.clone()),
        };
        new_project(&project).unwrap();
        let run = |path: &Path, parlance: Option<&Path>| {
            let mut test = std::process::Command::new(project.dir.join("test.sh"));
            let path = std::env::join_paths([path, Path::new("/usr/bin"), Path::new("/bin")]).unwrap();
            test.env_clear().env("PATH", path);
            if let Some(parlance) = parlance {
                test.env("PARLANCE", parlance);
            }
            let out = test.output().unwrap();
            let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
            (out.status.success(), text(&out.stdout), text(&out.stderr))
        };
        let (_, out, err) = run(&on_path, None);
        assert!(out.starts_with("the writer plugins\n"), "{out}{err}");
        let (_, out, err) = run(&on_path, Some(&named));
        assert!(out.starts_with("the named one plugins\n"), "{out}{err}");
        stand_in(&on_path, "the one on the PATH");
        std::fs::remove_file(&wrote_it).unwrap();
        let (_, out, err) = run(&on_path, None);
        assert!(out.starts_with("the one on the PATH plugins\n"), "{out}{err}");
        std::fs::remove_file(on_path.join("parlance")).unwrap();
        let (passed, out, err) = run(&on_path, None);
        assert!(!passed && out.is_empty(), "{out}{err}");
        assert!(
            err.contains(&format!("{} is gone", wrote_it.display())) && err.contains("set PARLANCE="),
            "{err}"
        );
    }

    /// The manual's tutorial for each language uses the settings its template reads and gives each
    /// project its own name, so that the plugins it makes load side by side.
    #[test]
    fn the_manuals_tutorials_fit_the_templates() {
        let mut names = Vec::new();
        for (heading, section, lang) in [
            ("plugins/python.md", include_str!("../../../docs/src/plugins/python.md"), Lang::Python),
            ("plugins/javascript.md", include_str!("../../../docs/src/plugins/javascript.md"), Lang::Js),
            ("plugins/rust.md", include_str!("../../../docs/src/plugins/rust.md"), Lang::Rust),
        ] {
            let section = section.replace("\\\n", " ");
            let new = section
                .lines()
                .find_map(|l| l.trim().strip_prefix("parlance plugins new "))
                .unwrap_or_else(|| panic!("{heading}: no `plugins new`"));
            let words: Vec<&str> = new.split_whitespace().collect();
            let (name, kind) = (words[0], words[words.iter().position(|w| *w == "--kind").unwrap() + 1]);
            let kind: PluginKind = kind.parse().unwrap();
            names.push(name.to_owned());
            let source = template_source(lang, kind);
            for line in section.lines().filter(|l| l.contains("plugins test") && l.contains("--config ")) {
                for setting in line.split("--config ").skip(1) {
                    let key = setting.split('=').next().unwrap();
                    assert!(
                        source.contains(&format!("'{key}'")) || source.contains(&format!("\"{key}\"")),
                        "{heading} passes --config {key}=…, which the {} {kind} template never reads",
                        lang.title()
                    );
                }
            }
            let ident = name.replace('-', "_");
            for score in section.split('`').filter(|w| w.ends_with("_length_ratio") && !w.contains('<')) {
                let own = score == format!("{ident}_length_ratio");
                assert!(
                    own || names.iter().any(|n| score == format!("{}_length_ratio", n.replace('-', "_"))),
                    "{heading}: {score}"
                );
            }
        }
        let mut distinct = names.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), names.len(), "each tutorial makes a project of its own name: {names:?}");
    }
}
