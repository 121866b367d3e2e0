//! The sandbox holds: each misbehaving plugin fails only its own call, with an error that says what
//! happened, while a concurrent good call succeeds and the host keeps serving.

use crate::common;
use axum::Router;
use axum::routing::get;
use parlance::plugins::PluginHost;
use parlance::plugins::api::{CallFailure, PluginErrorKind, PluginKind};
use parlance::plugins::spec::{ComponentSource, HostPattern, PluginSpec};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

fn hostile(id: &str, behaviour: &str) -> PluginSpec {
    let component = ComponentSource::File(common::fixture("parlance-fixture-hostile"));
    let mut spec = PluginSpec::new(id, PluginKind::Provider, component);
    spec.settings.insert("behaviour".into(), behaviour.into());
    spec.limits.timeout = Duration::from_millis(2000);
    spec.limits.memory_bytes = 32 << 20;
    spec
}

/// A server that counts the requests that reach it, standing in for a host a plugin may not call.
async fn counting_server() -> (std::net::SocketAddr, Arc<AtomicUsize>) {
    let hits = Arc::new(AtomicUsize::new(0));
    let counter = hits.clone();
    let router = Router::new().route(
        "/",
        get(move || {
            counter.fetch_add(1, Ordering::SeqCst);
            async { "secret" }
        }),
    );
    (common::upstream::serve(router).await, hits)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_misbehaviour_fails_only_its_own_call() {
    let (forbidden, hits) = counting_server().await;
    let mut forbidden_host = hostile("forbidden", "forbidden-host");
    forbidden_host.settings.insert("target_url".into(), format!("http://{forbidden}/"));
    forbidden_host.allowed_hosts = vec![HostPattern::parse("http://127.0.0.1:1").unwrap()];
    let mut forbidden_wasi = hostile("forbidden-wasi", "forbidden-host-wasi-http");
    forbidden_wasi.settings = forbidden_host.settings.clone();
    forbidden_wasi.settings.insert("behaviour".into(), "forbidden-host-wasi-http".into());
    forbidden_wasi.allowed_hosts = forbidden_host.allowed_hosts.clone();
    let mut spin = hostile("spin", "spin");
    spin.limits.timeout = Duration::from_secs(5);
    let specs = vec![
        hostile("echo", "echo"),
        hostile("trap", "trap"),
        spin,
        hostile("membomb", "membomb"),
        forbidden_host,
        forbidden_wasi,
        hostile("sleep", "sleep"),
        hostile("empty", "empty"),
        hostile("huge", "huge"),
    ];
    let host = Arc::new(PluginHost::start(specs, &common::runtime_settings(), None).await.unwrap());
    let call = |id: &'static str| {
        let host = host.clone();
        tokio::spawn(async move { host.paraphrase(host.get(id).unwrap(), "test", "a b c", "hostile").await })
    };

    let spinning = call("spin");
    let others = ["trap", "membomb", "forbidden", "forbidden-wasi", "sleep", "empty", "huge"].map(call);
    // The good call completes while the spinning plugin is still burning its five seconds: the epoch
    // callback makes it yield, so it cannot hold a runtime thread.
    let good = call("echo").await.unwrap().expect("a good call succeeds beside hostile ones");
    assert_eq!(good.text, "c b a");
    assert!(!spinning.is_finished(), "the spinning call should still be running");

    let failure = |r: Result<_, parlance::plugins::api::CallError>| r.expect_err("a hostile call must fail");
    let [trap, membomb, forbidden_call, forbidden_wasi_call, sleep, empty, huge] = others;
    let e = failure(trap.await.unwrap());
    assert!(matches!(&e.failure, CallFailure::Trap(d) if d.contains("a deliberate panic")), "{e}");
    let e = failure(membomb.await.unwrap());
    assert_eq!(e.failure, CallFailure::MemoryLimit { limit_bytes: 32 << 20 }, "{e}");
    assert!(e.to_string().contains("memory limit of 32 MiB"), "{e}");
    let e = failure(forbidden_call.await.unwrap());
    assert!(matches!(&e.failure, CallFailure::Reported(p) if p.kind == PluginErrorKind::Unavailable), "{e}");
    assert_eq!(e.denied_requests, vec![format!("http://{forbidden}")]);
    assert!(e.to_string().contains("not in its allowed_hosts"), "{e}");
    // The same refusal for a request through raw `wasi:http`.
    let e = failure(forbidden_wasi_call.await.unwrap());
    assert!(matches!(&e.failure, CallFailure::Reported(p) if p.kind == PluginErrorKind::Unavailable), "{e}");
    assert!(e.to_string().contains("HttpRequestDenied"), "{e}");
    assert_eq!(e.denied_requests, vec![format!("http://{forbidden}")]);
    assert_eq!(hits.load(Ordering::SeqCst), 0, "the forbidden host must never be contacted");
    let e = failure(sleep.await.unwrap());
    assert_eq!(e.failure, CallFailure::Deadline(Duration::from_millis(2000)), "{e}");
    let e = failure(empty.await.unwrap());
    assert!(matches!(&e.failure, CallFailure::InvalidOutput(d) if d.contains("empty")), "{e}");
    let e = failure(huge.await.unwrap());
    assert!(matches!(&e.failure, CallFailure::InvalidOutput(d) if d.contains("larger than")), "{e}");
    let e = failure(spinning.await.unwrap());
    assert_eq!(e.failure, CallFailure::Deadline(Duration::from_secs(5)), "{e}");
    assert!(e.to_string().contains("time limit of 5000 ms"), "{e}");

    // And the host is still up: every plugin, hostile ones included, can be called again.
    let again = host.paraphrase(host.get("echo").unwrap(), "test", "x y", "hostile").await.unwrap();
    assert_eq!(again.text, "y x");
    assert!(host.paraphrase(host.get("trap").unwrap(), "test", "x", "hostile").await.is_err());
}

#[tokio::test]
async fn calls_share_no_state_and_see_no_ambient_authority() {
    let (server, hits) = counting_server().await;
    let mut fs = hostile("fs", "fs");
    fs.settings.insert("target_path".into(), "/etc/hostname".into());
    let mut socket = hostile("socket", "socket");
    socket.settings.insert("target_addr".into(), server.to_string());
    let host = PluginHost::start(
        vec![hostile("counter", "counter"), fs, hostile("env", "env"), socket],
        &common::runtime_settings(),
        None,
    )
    .await
    .unwrap();
    let text = |id: &'static str| {
        let host = &host;
        async move { host.paraphrase(host.get(id).unwrap(), "test", "t", "hostile").await.unwrap().text }
    };
    // A fresh instance per call: a static counter never gets past 1.
    for _ in 0..3 {
        assert_eq!(text("counter").await, "call 1");
    }
    assert!(text("fs").await.starts_with("denied:"), "no filesystem without a grant");
    assert_eq!(text("env").await, "0 variables", "no environment without a grant");
    assert!(text("socket").await.starts_with("denied:"), "no sockets");
    assert_eq!(hits.load(Ordering::SeqCst), 0);
}

#[tokio::test]
async fn granted_capabilities_are_exactly_what_was_granted() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("note.txt"), "hello from the host").unwrap();
    let mut fs = hostile("fs", "fs");
    fs.settings.insert("target_path".into(), "/data/note.txt".into());
    fs.grants.read_dir = Some(dir.path().to_path_buf());
    let mut env = hostile("env", "env");
    env.grants.env = vec![("ONLY_THIS".into(), "1".into())];
    let host = PluginHost::start(vec![fs, env], &common::runtime_settings(), None).await.unwrap();
    let fs_text = host.paraphrase(host.get("fs").unwrap(), "test", "t", "hostile").await.unwrap().text;
    assert_eq!(fs_text, "read: hello from the host");
    let env_text = host.paraphrase(host.get("env").unwrap(), "test", "t", "hostile").await.unwrap().text;
    assert_eq!(env_text, "1 variables");
}

#[tokio::test]
async fn a_component_of_the_wrong_kind_is_refused_at_load() {
    let component = ComponentSource::File(common::fixture("parlance-fixture-hostile"));
    let spec = PluginSpec::new("mislabelled", PluginKind::Metric, component);
    let err = PluginHost::start(vec![spec], &common::runtime_settings(), None).await.err().unwrap();
    let text = err.to_string();
    assert!(text.contains("configured as a metric"), "{text}");
    assert!(text.contains("parlance:plugin/provider@0.1.4 (a provider)"), "{text}");
}
