//! Plugins from OCI registries against Debian's `docker-registry` on loopback: pushed by Parlance and
//! by `wkg`, locked while their tags move, served offline from a cache that refuses a changed blob,
//! behind TLS and Basic credentials, and refused with a clear error when a registry is down, slow,
//! or answers garbage.

use crate::common::server::{Server, free_port};
use crate::common::upstream::TestCa;
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// A `docker-registry` on a free loopback port, its storage in a folder of its own; stopped when
/// dropped. Plain HTTP, or TLS with Basic credentials from an htpasswd file.
struct Registry {
    port: u16,
    dir: tempfile::TempDir,
    child: Option<Child>,
}

impl Registry {
    fn start() -> Registry {
        Registry::start_with("")
    }

    /// TLS with `ca`'s certificate for 127.0.0.1, and `user` with `password` the only credentials.
    fn start_secured(ca: &TestCa, user: &str, password: &str) -> Registry {
        let dir = tempfile::tempdir().unwrap();
        let (certificate, key) = ca.write_server(dir.path());
        let hash = Command::new(crate::common::python())
            .args([
                "-c",
                "import crypt,sys; print(crypt.crypt(sys.argv[1], crypt.mksalt(crypt.METHOD_BLOWFISH)))",
                password,
            ])
            .output()
            .unwrap();
        assert!(hash.status.success(), "bcrypt: {}", String::from_utf8_lossy(&hash.stderr));
        let htpasswd = dir.path().join("htpasswd");
        std::fs::write(&htpasswd, format!("{user}:{}", String::from_utf8_lossy(&hash.stdout).trim()))
            .unwrap();
        let extra = format!(
            "  tls:\n    certificate: {}\n    key: {}\nauth:\n  htpasswd:\n    realm: parlance-test\n    path: {}\n",
            certificate.display(),
            key.display(),
            htpasswd.display()
        );
        let mut registry = Registry::start_with(&extra);
        registry.dir = dir;
        registry
    }

    fn start_with(extra: &str) -> Registry {
        let dir = tempfile::tempdir().unwrap();
        let port = free_port();
        let config = format!(
            "version: 0.1\nlog:\n  level: error\nstorage:\n  filesystem:\n    rootdirectory: {}\nhttp:\n  addr: 127.0.0.1:{port}\n{extra}",
            dir.path().join("data").display()
        );
        std::fs::write(dir.path().join("config.yml"), config).unwrap();
        let mut registry = Registry { port, dir, child: None };
        registry.run();
        registry
    }

    fn run(&mut self) {
        let child = Command::new("docker-registry")
            .arg("serve")
            .arg(self.dir.path().join("config.yml"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("docker-registry must be installed (scripts/setup.sh --tests installs it)");
        self.child = Some(child);
        let deadline = Instant::now() + Duration::from_secs(20);
        while std::net::TcpStream::connect(("127.0.0.1", self.port)).is_err() {
            assert!(Instant::now() < deadline, "docker-registry did not start");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    fn reference(&self, repository: &str) -> String {
        format!("oci://127.0.0.1:{}/{repository}", self.port)
    }
}

impl Drop for Registry {
    fn drop(&mut self) {
        self.stop();
    }
}

fn component(name: &str) -> PathBuf {
    crate::common::fixture(&format!("parlance-plugin-{name}"))
}

fn sha256(path: &Path) -> String {
    hex::encode(Sha256::digest(std::fs::read(path).unwrap()))
}

/// A home whose configuration adds the provider `mirror` from `reference`, with its registry cache
/// inside the home.
fn home_with(reference: &str, extra: &str) -> tempfile::TempDir {
    crate::common::home_with_config(&format!(
        "[registry]\ncache_dir = \"oci-cache\"\n{extra}\n[[plugin]]\nid = \"mirror\"\nkind = \"provider\"\ncomponent = \"{reference}\"\n"
    ))
}

fn parlance(home: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut command = crate::common::command(home);
    command.args(args);
    for (name, value) in env {
        command.env(name, value);
    }
    command.output().unwrap()
}

fn text(out: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

/// `plugins list --json`'s entry for `mirror`, or what the command said when it failed.
fn mirror(home: &Path, env: &[(&str, &str)]) -> Result<Value, String> {
    let out = parlance(home, &["plugins", "list", "--json"], env);
    if !out.status.success() {
        return Err(text(&out));
    }
    let rows: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
    Ok(rows.into_iter().find(|r| r["id"] == "mirror").expect("mirror is listed"))
}

/// `--mode cli` through the provider `mirror`.
fn paraphrase_with_mirror(home: &Path, text: &str) -> Output {
    parlance(home, &["--mode", "cli", "--provider", "mirror", "--decode_input", text], &[])
}

fn push(home: &Path, file: &Path, reference: &str, env: &[(&str, &str)]) -> Output {
    parlance(home, &["plugins", "push", file.to_str().unwrap(), reference], env)
}

#[test]
fn a_locked_plugin_stays_put_when_its_tag_moves_and_starts_offline_from_a_cache_that_checks_every_blob() {
    let mut registry = Registry::start();
    let reference = registry.reference("plugins/mirror:1.0");
    let home = home_with(&reference, "");
    let (offline, openai) = (component("offline"), component("openai"));

    let out = push(home.path(), &offline, &reference, &[]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        text(&out).contains("fits parlance:plugin/provider")
            || text(&out).contains("parlance:plugin/provider"),
        "{}",
        text(&out)
    );
    let out = parlance(home.path(), &["plugins", "lock"], &[]);
    assert!(out.status.success(), "{}", text(&out));
    let lock = std::fs::read_to_string(home.path().join("parlance.lock")).unwrap();
    assert!(lock.contains(&reference) && lock.contains(&format!("sha256:{}", sha256(&offline))), "{lock}");

    // The tag moves to another component; the locked deployment does not.
    let out = push(home.path(), &openai, &reference, &[]);
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(mirror(home.path(), &[]).unwrap()["digest"], sha256(&offline));

    // The registry goes away: the start needs nothing from it.
    registry.stop();
    let listed = mirror(home.path(), &[]).unwrap();
    assert_eq!(
        (listed["digest"].as_str(), listed["component"].as_str()),
        (Some(sha256(&offline).as_str()), Some(reference.as_str()))
    );
    let out = paraphrase_with_mirror(home.path(), "The committee will announce the winners on Friday.");
    assert!(out.status.success(), "{}", text(&out));

    // A cached component cut short is refused by name; with the registry back, it is pulled again.
    let blob = home.path().join("oci-cache/blobs/sha256").join(sha256(&offline));
    let bytes = std::fs::read(&blob).unwrap();
    std::fs::write(&blob, &bytes[..bytes.len() / 2]).unwrap();
    let e = mirror(home.path(), &[]).unwrap_err();
    let named = format!("oci-cache/blobs/sha256/{}", sha256(&offline));
    assert!(e.contains(&named) && e.contains("does not match its digest"), "{e}");
    assert!(e.contains("cannot reach the registry") && e.contains("set aside and pulled again"), "{e}");
    registry.run();
    let out = parlance(home.path(), &["plugins", "list", "--json"], &[]);
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(std::fs::read(&blob).unwrap(), bytes, "pulled again, whole");

    // Locking again moves the pin to what the tag names now.
    let out = parlance(home.path(), &["plugins", "lock"], &[]);
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(mirror(home.path(), &[]).unwrap()["digest"], sha256(&openai));

    // Unlocked, a tag is resolved at each start, and while the registry is away, to what it named last.
    std::fs::remove_file(home.path().join("parlance.lock")).unwrap();
    registry.stop();
    let out = parlance(home.path(), &["plugins", "list", "--json"], &[]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("the digest it named last"), "{}", text(&out));

    // A digest nobody cached, with the registry away: the error says both.
    let pinned = format!("{}@sha256:{}", registry.reference("plugins/other"), "0".repeat(64));
    let other = home_with(&pinned, "");
    let e = mirror(other.path(), &[]).unwrap_err();
    assert!(e.contains("plugin `mirror`") && e.contains(&pinned) && e.contains("connection refused"), "{e}");
}

#[test]
fn credentials_come_from_the_environment_or_auth_json_over_tls_and_are_never_printed() {
    let ca = TestCa::new();
    let registry = Registry::start_secured(&ca, "alice", "s3cret-pass");
    let reference = registry.reference("team/mirror:2");
    let ca_file = ca.write(registry.dir.path());
    let tls = format!("[tls]\nca_file = \"{}\"\n", ca_file.display());
    let home = home_with(&reference, &tls);
    let offline = component("offline");

    // Without the CA, the registry's certificate is refused.
    let untrusting = home_with(&reference, "");
    let out = push(untrusting.path(), &offline, &reference, &[]);
    assert!(!out.status.success() && text(&out).to_lowercase().contains("certificate"), "{}", text(&out));

    let out = push(home.path(), &offline, &reference, &[]);
    assert!(!out.status.success() && text(&out).contains("asks for credentials"), "{}", text(&out));
    let wrong = [("PARLANCE_REGISTRY_USERNAME", "alice"), ("PARLANCE_REGISTRY_PASSWORD", "not-it")];
    let out = push(home.path(), &offline, &reference, &wrong);
    assert!(!out.status.success() && text(&out).contains("refused the credentials"), "{}", text(&out));
    assert!(!text(&out).contains("not-it"));

    let right = [
        ("PARLANCE_REGISTRY_USERNAME", "alice"),
        ("PARLANCE_REGISTRY_PASSWORD", "s3cret-pass"),
        ("RUST_LOG", "debug"),
    ];
    let out = push(home.path(), &offline, &reference, &right);
    assert!(out.status.success(), "{}", text(&out));
    assert!(!text(&out).contains("s3cret-pass"));

    // Podman's auth.json, named by REGISTRY_AUTH_FILE as podman reads it.
    let auth = home.path().join("auth.json");
    let encoded = base64_of("alice:s3cret-pass");
    std::fs::write(&auth, format!(r#"{{"auths":{{"127.0.0.1:{}":{{"auth":"{encoded}"}}}}}}"#, registry.port))
        .unwrap();
    let env = [("REGISTRY_AUTH_FILE", auth.to_str().unwrap()), ("RUST_LOG", "debug")];
    let out = parlance(home.path(), &["plugins", "list", "--json"], &env);
    assert!(out.status.success(), "{}", text(&out));
    assert!(!text(&out).contains("s3cret-pass") && !text(&out).contains(&encoded));
    assert_eq!(mirror(home.path(), &env).unwrap()["digest"], sha256(&offline));
}

fn base64_of(text: &str) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD.encode(text)
}

/// A registry that answers every request with `answer` (or never, when `None`), on a free port.
fn fake_registry(answer: Option<&'static str>) -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            match answer {
                Some(answer) => {
                    std::thread::spawn(move || {
                        use std::io::{BufRead, Write};
                        let mut reader = std::io::BufReader::new(stream.try_clone().unwrap());
                        loop {
                            let mut line = String::new();
                            if reader.read_line(&mut line).unwrap_or(0) == 0 {
                                return;
                            }
                            if line == "\r\n" {
                                let _ = stream.write_all(answer.as_bytes());
                            }
                        }
                    });
                }
                None => held.push(stream),
            }
        }
    });
    port
}

#[test]
fn a_registry_that_answers_garbage_or_nothing_or_too_much_is_refused_by_name() {
    let garbage = fake_registry(Some(
        "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 12\r\n\r\n<html>oops</",
    ));
    let reference = format!("oci://127.0.0.1:{garbage}/plugins/x:1");
    let e = mirror(home_with(&reference, "").path(), &[]).unwrap_err();
    assert!(e.contains(&reference) && e.contains("not JSON"), "{e}");

    let silent = fake_registry(None);
    let reference = format!("oci://127.0.0.1:{silent}/plugins/x:1");
    let started = Instant::now();
    let e = mirror(home_with(&reference, "timeout_ms = 500\n").path(), &[]).unwrap_err();
    assert!(e.contains(&reference) && e.contains("timed out"), "{e}");
    assert!(started.elapsed() < Duration::from_secs(20));

    // A component above [registry] max_component_mb is not downloaded.
    let registry = Registry::start();
    let reference = registry.reference("plugins/big:1");
    let big = tempfile::tempdir().unwrap();
    let file = big.path().join("big.wasm");
    std::fs::write(&file, with_custom_section(&std::fs::read(component("offline")).unwrap(), 2 << 20))
        .unwrap();
    let home = home_with(&reference, "max_component_mb = 1\n");
    let out = push(home.path(), &file, &reference, &[]);
    assert!(out.status.success(), "{}", text(&out));
    let e = mirror(home.path(), &[]).unwrap_err();
    assert!(e.contains("more than [registry] max_component_mb"), "{e}");
}

/// `component` with a custom section of `size` bytes appended: the same component, bigger.
fn with_custom_section(component: &[u8], size: usize) -> Vec<u8> {
    fn leb(mut n: usize, out: &mut Vec<u8>) {
        loop {
            let byte = (n & 0x7f) as u8;
            n >>= 7;
            out.push(if n == 0 { byte } else { byte | 0x80 });
            if n == 0 {
                return;
            }
        }
    }
    let name = b"padding";
    let mut payload = Vec::new();
    leb(name.len(), &mut payload);
    payload.extend_from_slice(name);
    payload.resize(payload.len() + size, 0x5a);
    let mut out = component.to_vec();
    out.push(0);
    leb(payload.len(), &mut out);
    out.extend_from_slice(&payload);
    out
}

#[tokio::test(flavor = "multi_thread")]
async fn a_reload_picks_up_a_new_lock_and_one_that_cannot_pull_keeps_the_plugins_in_force() {
    let mut registry = Registry::start();
    let reference = registry.reference("plugins/mirror:live");
    let home = home_with(&reference, "");
    let out = push(home.path(), &component("offline"), &reference, &[]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(parlance(home.path(), &["plugins", "lock"], &[]).status.success());
    let server = Server::start_in(home, &[], &[]).await;
    let name = || async {
        let body: Value =
            server.client.get(server.url("/providers")).send().await.unwrap().json().await.unwrap();
        body["providers"].as_array().unwrap().iter().find(|p| p["id"] == "mirror").unwrap()["name"].clone()
    };
    let before = name().await;

    assert!(push(server.home(), &component("openai"), &reference, &[]).status.success());
    let out = parlance(server.home(), &["reload"], &[]);
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(name().await, before, "the lock still pins the first component");

    assert!(parlance(server.home(), &["plugins", "lock"], &[]).status.success());
    let out = parlance(server.home(), &["reload"], &[]);
    assert!(out.status.success(), "{}", text(&out));
    let after = name().await;
    assert_ne!(after, before, "the new lock is in force");

    // A component that is neither locked nor cached, with the registry down: the reload is refused,
    // naming the pull, and the plugins in force keep serving.
    registry.stop();
    let config = std::fs::read_to_string(server.home().join("parlance.toml")).unwrap();
    std::fs::write(server.home().join("parlance.toml"), config.replace("mirror:live", "mirror:next"))
        .unwrap();
    let out = parlance(server.home(), &["reload"], &[]);
    assert!(!out.status.success() && text(&out).contains("cannot pull"), "{}", text(&out));
    assert_eq!(name().await, after);
}

/// `wkg`, which `scripts/setup.sh --tests` installs into `.tools`.
fn wkg(args: &[&str]) -> Output {
    let wkg = crate::common::repo().join(".tools/bin/wkg");
    assert!(wkg.exists(), "{} is missing: scripts/setup.sh --tests installs it", wkg.display());
    let home = tempfile::tempdir().unwrap();
    // Its own empty home: no credentials or configuration of this machine's.
    Command::new(wkg).args(args).env("HOME", home.path()).env_remove("XDG_CONFIG_HOME").output().unwrap()
}

#[test]
fn wkg_reads_what_parlance_pushes_and_parlance_loads_what_wkg_pushes() {
    let registry = Registry::start();
    let at = format!("127.0.0.1:{}", registry.port);
    let (offline, openai) = (component("offline"), component("openai"));

    // Parlance pushes; wkg pulls the same bytes.
    let reference = registry.reference("interop/by-parlance:0.1.0");
    let home = home_with(&reference, "");
    let out = push(home.path(), &openai, &reference, &[]);
    assert!(out.status.success(), "{}", text(&out));
    let pulled = home.path().join("pulled.wasm");
    let out = wkg(&[
        "oci",
        "pull",
        "--insecure",
        &at,
        &format!("{at}/interop/by-parlance:0.1.0"),
        "-o",
        pulled.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(std::fs::read(&pulled).unwrap(), std::fs::read(&openai).unwrap());

    // wkg pushes; Parlance loads it, and serves it.
    let out = wkg(&[
        "oci",
        "push",
        "--insecure",
        &at,
        &format!("{at}/interop/by-wkg:1"),
        offline.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out));
    let home = home_with(&registry.reference("interop/by-wkg:1"), "");
    assert_eq!(mirror(home.path(), &[]).unwrap()["digest"], sha256(&offline));
    let out = paraphrase_with_mirror(home.path(), "The quick brown fox jumps over the lazy dog.");
    assert!(out.status.success() && !out.stdout.is_empty(), "{}", text(&out));
}
