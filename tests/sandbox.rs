//! The sandbox holds: each misbehaving plugin fails only its own call, with an error that says what
//! happened, while a concurrent good call succeeds and the host keeps serving.

use crate::common;
use axum::Router;
use axum::routing::get;
use parlance::plugins::api::{CallFailure, PluginErrorKind, PluginKind};
use parlance::plugins::spec::{ComponentSource, HostPattern, PluginSpec};
use parlance::plugins::{PluginHost, RuntimeConfig};
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
async fn no_client_sees_another_clients_state_nor_any_ambient_authority() {
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
    // An instance is kept only for its own client: a static counter goes on for the client whose
    // calls it answered, and another client starts from 1 in an instance of its own.
    for n in 1..=3 {
        assert_eq!(text("counter").await, format!("call {n}"));
    }
    let other = host.paraphrase(host.get("counter").unwrap(), "other", "t", "hostile").await.unwrap();
    assert_eq!(other.text, "call 1");
    assert!(text("fs").await.starts_with("denied:"), "no filesystem without a grant");
    assert_eq!(text("env").await, "0 variables", "no environment without a grant");
    assert!(text("socket").await.starts_with("denied:"), "no sockets");
    assert_eq!(hits.load(Ordering::SeqCst), 0);
}

#[tokio::test]
async fn with_reuse_off_every_call_has_a_fresh_instance() {
    let settings = RuntimeConfig { reuse_instances: false, ..common::runtime_settings() };
    let host = PluginHost::start(vec![hostile("counter", "counter")], &settings, None).await.unwrap();
    for _ in 0..3 {
        let answer = host.paraphrase(host.get("counter").unwrap(), "test", "t", "hostile").await.unwrap();
        assert_eq!(answer.text, "call 1", "a static counter never gets past 1");
    }
}

/// A plugin that tries to hand one caller's text to the next caller reaches only the caller it
/// came from: kept instances are per client, one that trapped is never kept, and concurrent callers
/// never see each other's texts.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_kept_instance_never_carries_one_clients_data_to_another() {
    let host = Arc::new(
        PluginHost::start(vec![hostile("remember", "remember")], &common::runtime_settings(), None)
            .await
            .unwrap(),
    );
    let ask = |client: &'static str, text: &'static str| {
        let host = host.clone();
        async move { host.paraphrase(host.get("remember").unwrap(), client, text, "hostile").await }
    };
    assert_eq!(ask("alice", "alice's secret").await.unwrap().text, "before: ");
    assert_eq!(ask("bob", "bob's note").await.unwrap().text, "before: ", "bob gets an instance of his own");
    assert_eq!(
        ask("alice", "again").await.unwrap().text,
        "before: alice's secret",
        "alice's own instance was kept"
    );
    assert_eq!(ask("bob", "more").await.unwrap().text, "before: bob's note");

    // A trapped instance is dropped: what it held goes with it.
    assert!(ask("alice", "trap").await.is_err());
    assert_eq!(ask("alice", "after").await.unwrap().text, "before: ", "a fresh instance after the trap");

    // Many clients at once, each with its own texts: every answer is the asker's own previous text.
    let mut calls = Vec::new();
    for c in 0..8 {
        let host = host.clone();
        calls.push(tokio::spawn(async move {
            let client = format!("client-{c}");
            let mut previous = String::new();
            for i in 0..20 {
                let text = format!("{client} text {i}");
                let answer =
                    host.paraphrase(host.get("remember").unwrap(), &client, &text, "hostile").await.unwrap();
                let seen = answer.text.strip_prefix("before: ").unwrap().to_owned();
                assert!(seen.is_empty() || seen.starts_with(&format!("{client} ")), "{client} saw {seen:?}");
                if !seen.is_empty() {
                    assert_eq!(seen, previous, "{client} sees only its own previous text");
                }
                previous = text;
            }
        }));
    }
    for call in calls {
        call.await.unwrap();
    }
}

/// An instance whose call leaves more host resources behind than its first call did is not kept, so a
/// plugin that leaks them holds at most two calls' worth in the host.
#[tokio::test]
async fn an_instance_that_leaks_host_resources_is_not_kept() {
    let host =
        PluginHost::start(vec![hostile("leak", "leak")], &common::runtime_settings(), None).await.unwrap();
    let mut seen = Vec::new();
    for _ in 0..6 {
        seen.push(host.paraphrase(host.get("leak").unwrap(), "alice", "t", "hostile").await.unwrap().text);
    }
    let (first, second) = ("call 1 of this instance", "call 2 of this instance");
    assert_eq!(
        seen,
        [first, second, first, second, first, second],
        "a fresh instance after every second call"
    );
}

/// Kept instances live in a room of their own, bounded across all plugins: when it is full, the one
/// that has waited longest, of any plugin, makes way for the newest.
#[tokio::test]
async fn a_full_room_makes_way_for_the_newest_kept_instance() {
    // One instance at a time, so one kept: the loader's own `info()` instances make way too.
    let settings = RuntimeConfig { max_instances: 1, ..common::runtime_settings() };
    let specs = vec![hostile("first", "remember"), hostile("second", "remember")];
    let host = PluginHost::start(specs, &settings, None).await.unwrap();
    let ask = |id: &'static str, text: &'static str| {
        let host = &host;
        async move { host.paraphrase(host.get(id).unwrap(), "alice", text, "hostile").await.unwrap().text }
    };
    assert_eq!(ask("first", "one").await, "before: ");
    assert_eq!(ask("first", "two").await, "before: one", "kept while the room has space");
    assert_eq!(ask("second", "three").await, "before: ");
    assert_eq!(ask("first", "four").await, "before: ", "first's instance made way for second's");
    assert_eq!(ask("first", "five").await, "before: four");
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
