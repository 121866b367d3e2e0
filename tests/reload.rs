//! Reloading a running server's configuration: `parlance reload` through the admin socket and SIGHUP,
//! during traffic with a stream and a job in flight; an invalid file and one that changes what only a
//! restart can are refused by name, with the configuration in force kept and shown in `/health`.

use crate::common::server::Server;
use crate::common::upstream::{FakeOpenAi, FakeStreamingOpenAi};
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

const BASE: &str = "[chat]\nmodel = \"openai-chat\"\n";
const SECOND: &str = "\n[[plugin]]\nid = \"second\"\nkind = \"provider\"\ncomponent = \"builtin:offline\"\n";

async fn health(server: &Server) -> Value {
    server.client.get(server.url("/health")).send().await.unwrap().json().await.unwrap()
}

async fn providers(server: &Server) -> Vec<String> {
    let body: Value = server.client.get(server.url("/providers")).send().await.unwrap().json().await.unwrap();
    body["providers"].as_array().unwrap().iter().map(|p| p["id"].as_str().unwrap().to_owned()).collect()
}

/// `parlance reload` in the server's home: its exit status and what it printed.
fn reload(server: &Server) -> (bool, String) {
    let out = crate::common::command(server.home()).arg("reload").output().unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    (out.status.success(), text)
}

fn write_config(server: &Server, text: &str) {
    std::fs::write(server.home().join("parlance.toml"), text).unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn a_reload_during_traffic_fails_nothing_and_a_bad_file_is_refused_by_name() {
    let chat = FakeStreamingOpenAi::start(20, Duration::from_millis(100)).await;
    let provider = FakeOpenAi::start("A job's answer.").await;
    let home = tempfile::tempdir().unwrap();
    std::fs::write(home.path().join("parlance.toml"), BASE).unwrap();
    let (chat_url, provider_url) = (chat.base_url(), provider.base_url());
    let env = [
        ("PROVIDER_API_KEY", "sk-test"),
        ("PARLANCE_PLUGIN_OPENAI_CHAT_BASE_URL", chat_url.as_str()),
        ("PARLANCE_PLUGIN_OPENROUTER_BASE_URL", provider_url.as_str()),
        ("RATE_LIMIT_REQUESTS_PER_MINUTE", "100000"),
        ("CACHE_TYPE", "memory"),
    ];
    let server = Arc::new(Server::start_in(home, &env, &[]).await);
    let first = health(&server).await;
    assert_eq!(first["configuration"]["generation"], 1, "{first}");
    assert!(first["configuration"]["loaded_at"].is_string());
    assert!(!providers(&server).await.contains(&"second".to_owned()));

    // Traffic: paraphrases one after another on 8 connections, until told to stop.
    let stop = Arc::new(AtomicBool::new(false));
    let (done, failed) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    let mut traffic = Vec::new();
    for worker in 0..8 {
        let (server, stop, done, failed) = (server.clone(), stop.clone(), done.clone(), failed.clone());
        traffic.push(tokio::spawn(async move {
            let mut i = 0;
            while !stop.load(Ordering::Relaxed) {
                let body = json!({"text": format!("Traffic {worker}-{i} goes on."), "provider": "offline"});
                let r = server.client.post(server.url("/paraphrase")).json(&body).send().await;
                match r {
                    Ok(r) if r.status() == 200 => done.fetch_add(1, Ordering::Relaxed),
                    _ => failed.fetch_add(1, Ordering::Relaxed),
                };
                i += 1;
            }
        }));
    }
    // A stream of 20 deltas 100 ms apart, and a job of 10 items of 200 ms each, in flight.
    let stream = {
        let server = server.clone();
        tokio::spawn(async move {
            let body = json!({"user_id": "ann", "message": "Tell me a story", "stream": true});
            let r = server.client.post(server.chat_url("/v1/waifu")).json(&body).send().await.unwrap();
            assert_eq!(r.status(), 200);
            r.text().await.unwrap()
        })
    };
    let texts: Vec<String> = (0..10).map(|i| format!("Job text {i}.")).collect();
    let r = server
        .client
        .post(server.url("/paraphrase/batch/async"))
        .json(&json!({"texts": texts, "provider": "openrouter", "model": "echo-200ms"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 202);
    let job = r.json::<Value>().await.unwrap()["job_id"].as_str().unwrap().to_owned();
    tokio::time::sleep(Duration::from_millis(300)).await;

    // A valid change: a provider more, in force for new requests.
    write_config(&server, &format!("{BASE}{SECOND}"));
    let (ok, said) = reload(&server);
    assert!(ok, "{said}");
    assert!(said.contains("generation 2"), "{said}");
    assert!(providers(&server).await.contains(&"second".to_owned()));
    // `[cache]` did not change: the memory cache carries on, warm.
    let body = json!({"text": "Traffic 0-0 goes on.", "provider": "offline"});
    let r: Value =
        server.client.post(server.url("/paraphrase")).json(&body).send().await.unwrap().json().await.unwrap();
    assert_eq!(r["cached"], true, "{r}");
    let r = server
        .client
        .post(server.url("/paraphrase"))
        .json(&json!({"text": "The new provider answers.", "provider": "second"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);

    // A file that does not load: refused, the one in force stays, and /health says why.
    write_config(&server, &format!("{BASE}{SECOND}\n[paraphrase]\nno_such_setting = 1\n"));
    let (ok, said) = reload(&server);
    assert!(!ok, "an invalid file must fail the reload: {said}");
    assert!(said.contains("no_such_setting"), "{said}");
    let now = health(&server).await;
    assert_eq!(now["configuration"]["generation"], 2, "{now}");
    assert!(now["configuration"]["last_reload_error"].as_str().unwrap().contains("no_such_setting"), "{now}");
    assert!(providers(&server).await.contains(&"second".to_owned()), "the generation in force stays");

    // What only a restart can change is refused by name.
    write_config(&server, &format!("{BASE}{SECOND}\n[store]\ndatabase_pool_size = 3\n"));
    let (ok, said) = reload(&server);
    assert!(!ok && said.contains("[store] database_pool_size"), "{said}");
    // So are the traces' settings, `.env`'s OTEL_* variables among them (the exporter starts once).
    std::fs::write(server.home().join(".env"), "OTEL_SERVICE_NAME=renamed\n").unwrap();
    let (ok, said) = reload(&server);
    assert!(!ok && said.contains("[telemetry] and the OTEL_* variables"), "{said}");
    std::fs::remove_file(server.home().join(".env")).unwrap();

    // SIGHUP reloads the file as it is now: the provider gone again.
    write_config(&server, BASE);
    rustix::process::kill_process(
        rustix::process::Pid::from_raw(server.pid() as i32).unwrap(),
        rustix::process::Signal::HUP,
    )
    .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let now = health(&server).await;
        if now["configuration"]["generation"] == 3 {
            assert!(now["configuration"].get("last_reload_error").is_none(), "{now}");
            break;
        }
        assert!(Instant::now() < deadline, "SIGHUP did not reload: {now}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(!providers(&server).await.contains(&"second".to_owned()));

    // The stream and the job started before the reloads finished on their generation.
    let events = stream.await.unwrap();
    assert!(events.contains("event: done"), "{events}");
    assert_eq!(events.matches("event: delta").count(), 20, "{events}");
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let r = server.client.get(server.url(&format!("/jobs/{job}"))).send().await.unwrap();
        let body: Value = r.json().await.unwrap();
        if body["status"] == "completed" {
            assert_eq!(body["successful"], 10, "{body}");
            break;
        }
        assert!(Instant::now() < deadline, "the job did not complete: {body}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    stop.store(true, Ordering::Relaxed);
    for worker in traffic {
        worker.await.unwrap();
    }
    assert!(done.load(Ordering::Relaxed) > 0);
    assert_eq!(failed.load(Ordering::Relaxed), 0, "no request may fail because of a reload");
}
