//! Several replicas of the real binary sharing one real PostgreSQL (started by scripts/cluster.sh)
//! and one real Redis, on loopback: chats for the same users spread over the replicas, a replica
//! killed mid-load, PostgreSQL restarted mid-run, dialogs fresh across replicas, and one rate limit
//! for the whole cluster.

use crate::common::postgres::TestPostgres;
use crate::common::server::{Redis, Server};
use crate::common::upstream::FakeFormModel;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::time::{Duration, Instant};

struct Cluster {
    replicas: Vec<Server>,
    postgres: TestPostgres,
    redis: Redis,
    _model: FakeFormModel,
}

impl Cluster {
    /// `n` replicas on one database and one Redis, with `config` as each one's `parlance.toml`.
    async fn start(n: usize, config: &str) -> Cluster {
        Cluster::start_with(n, config, &[]).await
    }

    /// As [`Cluster::start`], with `extra` variables for every replica.
    async fn start_with(n: usize, config: &str, extra: &[(&str, &str)]) -> Cluster {
        let postgres = TestPostgres::start();
        let url = postgres.fresh_database().await;
        let redis = Redis::start().await;
        let model = FakeFormModel::start().await;
        let (redis_url, model_url) = (redis.url(), model.url());
        let mut env = vec![
            ("DATABASE_URL", url.as_str()),
            ("DATABASE_POOL_SIZE", "8"),
            ("CACHE_TYPE", "redis"),
            ("CACHE_STORE_URL", redis_url.as_str()),
            ("MODEL_URL", model_url.as_str()),
        ];
        env.extend_from_slice(extra);
        let mut replicas = Vec::new();
        for _ in 0..n {
            replicas.push(Server::start_in(crate::common::home_with_config(config), &env, &[]).await);
        }
        Cluster { replicas, postgres, redis, _model: model }
    }
}

async fn chat(server: &Server, user: &str, message: &str) -> Result<(u16, Value), reqwest::Error> {
    let r = server
        .client
        .post(server.chat_url("/v1/waifu"))
        .header("current-user", "acme")
        .json(&json!({"user_id": user, "message": message}))
        .send()
        .await?;
    let status = r.status().as_u16();
    Ok((status, r.json().await.unwrap_or(Value::Null)))
}

async fn dialog(server: &Server, user: &str) -> (u16, Value) {
    let r = server
        .client
        .get(server.chat_url(&format!("/v1/user/dialog/json/{user}")))
        .header("current-user", "acme")
        .send()
        .await
        .unwrap();
    let status = r.status().as_u16();
    let body: Value = r.json().await.unwrap_or(Value::Null);
    // A dialog answers `{"user_id", "dialog": [...]}`; an error its `{"error": …}`.
    if status == 200 { (status, body["dialog"].clone()) } else { (status, body) }
}

/// Checks that the dialog's indices are 0..n and that each user message is followed by its reply;
/// returns the user messages.
fn contiguous_user_messages(dialog: &Value) -> Vec<String> {
    let entries = dialog.as_array().expect("a dialog array");
    for (i, e) in entries.iter().enumerate() {
        assert_eq!(e["index"].as_u64(), Some(i as u64), "indices are contiguous: {dialog}");
    }
    assert_eq!(entries.len() % 2, 0, "whole exchanges only: {dialog}");
    entries
        .chunks(2)
        .map(|pair| {
            assert_eq!(pair[0]["name"], "User", "{dialog}");
            assert_eq!(pair[1]["name"], "Waifu", "{dialog}");
            pair[0]["message"].as_str().unwrap().to_owned()
        })
        .collect()
}

/// Runs `per_user` chats for each of `users`, round-robin over the replicas, all at once; returns each
/// user's acknowledged messages.
async fn load(cluster: &Cluster, users: &[&str], per_user: usize) -> HashMap<String, Vec<String>> {
    let mut tasks = Vec::new();
    for (u, user) in users.iter().enumerate() {
        for i in 0..per_user {
            let server = &cluster.replicas[(u + i) % cluster.replicas.len()];
            let message = format!("{user} says {i}");
            tasks.push(async move {
                let answer = chat(server, user, &message).await;
                (user.to_string(), message, answer)
            });
        }
    }
    let mut acked: HashMap<String, Vec<String>> = HashMap::new();
    for (user, message, answer) in futures::future::join_all(tasks).await {
        let (status, body) = answer.expect("every replica is up");
        assert_eq!(status, 200, "{body}");
        acked.entry(user).or_default().push(message);
    }
    acked
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_chats_over_three_replicas_stay_contiguous_and_fresh() {
    let cluster = Cluster::start(3, "").await;
    let users = ["ann", "ben", "cat", "dan"];
    let acked = load(&cluster, &users, 24).await;
    for user in users {
        // Every replica serves the same, complete dialog, whichever wrote each exchange.
        let mut served = Vec::new();
        for replica in &cluster.replicas {
            let (status, body) = dialog(replica, user).await;
            assert_eq!(status, 200, "{body}");
            served.push(body);
        }
        assert!(served.windows(2).all(|w| w[0] == w[1]), "replicas disagree about {user}");
        let mut stored = contiguous_user_messages(&served[0]);
        let mut expected = acked[user].clone();
        stored.sort();
        expected.sort();
        assert_eq!(stored, expected, "{user}: acknowledged against stored");
    }
    // Freshness: each replica has the dialog in memory now; a change made through one is what the
    // next read through any other serves.
    let (a, b, c) = (&cluster.replicas[0], &cluster.replicas[1], &cluster.replicas[2]);
    let r = a
        .client
        .delete(a.chat_url("/v1/user/dialog/ann"))
        .header("current-user", "acme")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    assert_eq!(dialog(b, "ann").await, (200, json!([])));
    chat(c, "ann", "fresh start").await.unwrap();
    let (_, after) = dialog(b, "ann").await;
    assert_eq!(contiguous_user_messages(&after), ["fresh start"]);
    let (_, after) = dialog(a, "ann").await;
    assert_eq!(contiguous_user_messages(&after), ["fresh start"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_replica_killed_mid_load_loses_nothing_acknowledged() {
    let mut cluster = Cluster::start(3, "").await;
    let users = ["eve", "fay", "gus"];
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    // Clients keep chatting with every replica; replica 1 is SIGKILLed while they do.
    let mut clients = Vec::new();
    for (u, user) in users.iter().enumerate() {
        for r in 0..3 {
            let (chat_url, stop, user) =
                (cluster.replicas[r].chat_url("/v1/waifu"), stop.clone(), user.to_string());
            let client = reqwest::Client::builder().timeout(Duration::from_secs(30)).build().unwrap();
            clients.push(tokio::spawn(async move {
                let mut acked = Vec::new();
                let mut i = 0;
                while !stop.load(std::sync::atomic::Ordering::Acquire) {
                    let message = format!("{user} via {r} #{i} ({u})");
                    i += 1;
                    let sent = client
                        .post(&chat_url)
                        .header("current-user", "acme")
                        .json(&json!({"user_id": user, "message": message}))
                        .send()
                        .await;
                    match sent {
                        Ok(resp) if resp.status() == 200 => acked.push(message),
                        Ok(resp) => panic!("{}: {:?}", resp.status(), resp.text().await),
                        // The killed replica: not acknowledged, so nothing is promised.
                        Err(_) => tokio::time::sleep(Duration::from_millis(20)).await,
                    }
                }
                (user, acked)
            }));
        }
    }
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let killed = cluster.replicas[1].pid();
    cluster.replicas[1].kill();
    tokio::time::sleep(Duration::from_millis(1500)).await;
    stop.store(true, std::sync::atomic::Ordering::Release);
    let mut acked: HashMap<String, Vec<String>> = HashMap::new();
    for client in clients {
        let (user, messages) = client.await.unwrap();
        acked.entry(user).or_default().extend(messages);
    }
    assert!(killed > 0);
    let survivor = &cluster.replicas[0];
    for user in users {
        let (status, body) = dialog(survivor, user).await;
        assert_eq!(status, 200, "{body}");
        let stored = contiguous_user_messages(&body);
        let acked = &acked[user];
        assert!(acked.len() > 3, "{user}: the load ran ({} acknowledged)", acked.len());
        for message in acked {
            assert!(stored.contains(message), "{user}: acknowledged {message:?} was lost");
        }
        // Only exchanges whose answer the kill cut off may be stored unacknowledged.
        assert!(
            stored.len() <= acked.len() + 3,
            "{user}: {} stored, {} acknowledged",
            stored.len(),
            acked.len()
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn postgres_restarted_mid_run_is_unavailable_then_recovered() {
    let cluster = Cluster::start(2, "").await;
    let (a, b) = (&cluster.replicas[0], &cluster.replicas[1]);
    assert_eq!(chat(a, "hal", "before").await.unwrap().0, 200);
    cluster.postgres.stop();
    let (status, body) = chat(b, "hal", "during").await.unwrap();
    assert_eq!(status, 503, "{body}");
    assert_eq!(body["error"]["code"], "store_unavailable", "{body}");
    let (status, body) = dialog(a, "hal").await;
    assert_eq!((status, body["error"]["code"].as_str()), (503, Some("store_unavailable")), "{body}");
    let health: Value = a.client.get(a.url("/health")).send().await.unwrap().json().await.unwrap();
    assert_eq!(health["status"], "degraded", "{health}");
    assert!(!health.to_string().contains(":parlance@"), "no password in /health: {health}");
    cluster.postgres.restart();
    // Recovery without a restart of the replicas: the pools reconnect.
    let deadline = Instant::now() + Duration::from_secs(30);
    for server in [a, b] {
        loop {
            let (status, body) = chat(server, "hal", "after").await.unwrap();
            if status == 200 {
                break;
            }
            assert_eq!(status, 503, "{body}");
            assert!(Instant::now() < deadline, "no recovery: {body}");
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }
    let (_, body) = dialog(b, "hal").await;
    assert_eq!(contiguous_user_messages(&body), ["before", "after", "after"]);
    let health: Value = a.client.get(a.url("/health")).send().await.unwrap().json().await.unwrap();
    assert_eq!(health["components"]["store"]["status"], "ok", "{health}");
}

async fn paraphrase(server: &Server, client: &str, text: &str) -> reqwest::Response {
    server
        .client
        .post(server.url("/paraphrase"))
        .header("current-user", client)
        .json(&json!({"text": text, "skip_cache": true}))
        .send()
        .await
        .unwrap()
}

async fn health(server: &Server) -> Value {
    server.client.get(server.url("/health")).send().await.unwrap().json().await.unwrap()
}

/// Redis down: each replica limits on its own (so the cluster admits up to replicas × the limit),
/// `/health` says so; Redis back: the limit is the cluster's again, without a restart.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_rate_limit_falls_back_per_replica_while_redis_is_down() {
    let config = "[[plugin]]\nid = \"offline\"\nrate_limit_per_minute = 3\n";
    let mut cluster = Cluster::start(2, config).await;
    cluster.redis.stop();
    let mut admitted = 0;
    for i in 0..12 {
        let r = paraphrase(&cluster.replicas[i % 2], "down", &format!("Text {i} while Redis is down.")).await;
        admitted += usize::from(r.status() == 200);
    }
    assert_eq!(admitted, 6, "each of 2 replicas admits its own 3");
    let h = health(&cluster.replicas[0]).await;
    assert_eq!(h["status"], "degraded", "{h}");
    assert_eq!(h["components"]["rate_limits"]["status"], "degraded", "{h}");
    cluster.redis.restart().await;
    // The link retries every 10 s; decisions keep flowing meanwhile.
    let deadline = Instant::now() + Duration::from_secs(40);
    for server in &cluster.replicas {
        loop {
            paraphrase(server, "probe", "Is Redis back?").await;
            if health(server).await["components"]["rate_limits"]["status"] == "ok" {
                break;
            }
            assert!(Instant::now() < deadline, "the limits never went back to Redis");
            tokio::time::sleep(Duration::from_millis(500)).await;
        }
    }
    let mut admitted = 0;
    for i in 0..12 {
        let r = paraphrase(&cluster.replicas[i % 2], "back", &format!("Text {i} once Redis is back.")).await;
        admitted += usize::from(r.status() == 200);
    }
    assert_eq!(admitted, 3, "shared again: 3 for the whole cluster");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_rate_limit_holds_for_the_whole_cluster() {
    let per_minute = 12;
    let config = format!("[[plugin]]\nid = \"offline\"\nrate_limit_per_minute = {per_minute}\n");
    let cluster = Cluster::start(3, &config).await;
    let mut admitted = 0;
    let mut refused = Vec::new();
    for i in 0..(3 * per_minute) {
        let server = &cluster.replicas[i % 3];
        let r = server
            .client
            .post(server.url("/paraphrase"))
            .header("current-user", "acme")
            .json(&json!({"text": format!("Text number {i} wants paraphrasing."), "skip_cache": true}))
            .send()
            .await
            .unwrap();
        let headers = r.headers().clone();
        match r.status().as_u16() {
            200 => {
                admitted += 1;
                let remaining: i64 = headers["x-ratelimit-remaining"].to_str().unwrap().parse().unwrap();
                assert_eq!(remaining, per_minute as i64 - admitted, "remaining counts the whole cluster");
            }
            429 => refused.push(headers),
            other => panic!("{other}"),
        }
    }
    assert_eq!(
        admitted,
        per_minute as i64,
        "{per_minute}/min over 3 replicas admits {per_minute}, not {}",
        3 * per_minute
    );
    for headers in &refused {
        let retry_after: u64 = headers["retry-after"].to_str().unwrap().parse().unwrap();
        assert!((1..=5).contains(&retry_after), "one call is regained every 5 s: {retry_after}");
        assert_eq!(headers["x-ratelimit-remaining"], "0");
        assert_eq!(headers["x-ratelimit-limit"], per_minute.to_string().as_str());
    }
    let health: Value = cluster.replicas[2]
        .client
        .get(cluster.replicas[2].url("/health"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(health["components"]["rate_limits"]["store"], "redis", "{health}");
    assert_eq!(health["components"]["rate_limits"]["status"], "ok", "{health}");
}

/// A database out of reach at start stops the replica at once, with the URL in the message and its
/// password masked, and the exit code of any other store that cannot be opened.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unreachable_database_at_start_is_named_without_its_password() {
    let home = tempfile::tempdir().unwrap();
    let out = crate::common::command(home.path())
        .env("DATABASE_URL", "postgres://parlance:hunter2@127.0.0.1:1/parlance")
        .args(["--mode", "api", "--port", &crate::common::server::free_port().to_string()])
        .env("PORT", crate::common::server::free_port().to_string())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("postgres://parlance:***@127.0.0.1:1/parlance"), "{stderr}");
    assert!(!stderr.contains("hunter2"), "{stderr}");
}

/// Usage and budgets across three replicas on one PostgreSQL and one Redis: two keys' calls spread over
/// the replicas while one replica is killed, every answered call in the ledger once, to the token and
/// to the exact decimal; a third key's budget raced by every live replica at once and never overshot
/// (the upstream reports no more than each call reserved); a fourth key's requests per minute refused
/// across replicas until the minute ends, then admitted again.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn usage_is_exact_across_replicas_and_a_budget_holds_the_cluster() {
    let upstream = crate::common::upstream::FakeOpenAi::start("An upstream answer.").await;
    let origin = upstream.base_url().trim_end_matches("/v1").to_owned();
    // Each call: 10 tokens in at 0.15 and 5 out at 0.6 per million, and 0.0001 per request.
    let config = format!(
        "[[plugin]]\nid = \"priced\"\nkind = \"provider\"\ncomponent = \"builtin:openai\"\n\
         allowed_hosts = [\"{origin}\"]\nrate_limit_per_minute = 0\n\
         config = {{ base_url = \"{}\", api_key = \"k\", max_tokens = 10 }}\n\n\
         [plugin.prices.\"gpt-4o-mini\"]\ninput = \"0.15\"\noutput = \"0.6\"\nrequest = \"0.0001\"\n",
        upstream.base_url()
    );
    let admin = "an-admin-credential-of-some-length";
    // One usage spool directory for the replicas, as for replicas started from one working directory.
    let spool = tempfile::tempdir().unwrap();
    let spool_dir = spool.path().to_str().unwrap();
    let env = [
        ("PARLANCE_API_KEYS", "required"),
        ("PARLANCE_ADMIN_TOKEN", admin),
        ("PROVIDER_API_KEY", "sk-test"),
        ("PARLANCE_USAGE_SPOOL", spool_dir),
    ];
    let cluster = Cluster::start_with(3, &config, &env).await;
    let first = &cluster.replicas[0];
    let mut keys = Vec::new();
    for (name, limits) in [
        ("a", json!({})),
        ("b", json!({})),
        ("racer", json!({"budgets": [{"amount": "0.001", "period": "total"}]})),
        ("paced", json!({"requests_per_minute": 1})),
    ] {
        let mut body = json!({"name": name, "client": format!("team-{name}")});
        body.as_object_mut().unwrap().extend(limits.as_object().unwrap().clone());
        let r =
            first.client.post(first.url("/admin/keys")).bearer_auth(admin).json(&body).send().await.unwrap();
        assert_eq!(r.status(), 201);
        let created: Value = r.json().await.unwrap();
        keys.push((created["key"].as_str().unwrap().to_owned(), created["id"].as_str().unwrap().to_owned()));
    }
    let call = |server: &Server, key: &str, text: String| {
        let r = server
            .client
            .post(server.url("/paraphrase"))
            .bearer_auth(key)
            .json(&json!({"text": text, "provider": "priced", "skip_cache": true}));
        async move {
            match r.send().await {
                Ok(r) => {
                    let status = r.status().as_u16();
                    Some((status, r.json::<Value>().await.unwrap_or(Value::Null)))
                }
                Err(_) => None,
            }
        }
    };

    // Two keys, 30 calls each, one after another over the three replicas, both keys at once; the third
    // replica is killed (SIGKILL) after key a's tenth call, in the middle of the load.
    let victim = cluster.replicas[2].pid();
    let load = keys[..2].iter().enumerate().map(|(k, (key, _))| {
        let replicas = &cluster.replicas;
        async move {
            let (mut answered, mut unanswered) = (0u64, 0u64);
            for i in 0..30 {
                if k == 0 && i == 10 {
                    let killed =
                        std::process::Command::new("kill").args(["-9", &victim.to_string()]).status();
                    assert!(killed.unwrap().success());
                }
                match call(&replicas[(k + i) % 3], key, format!("Call {i} of key {k}.")).await {
                    Some((status, body)) => {
                        assert_eq!(status, 200, "{body}");
                        answered += 1;
                    }
                    None => unanswered += 1,
                }
            }
            (answered, unanswered)
        }
    });
    let outcomes = futures::future::join_all(load).await;
    // The killed replica answered its calls once their records were in its spool; a live replica
    // sharing the spool's directory replays them (at once for a report, else within 5 s).
    let live = &cluster.replicas[0];
    // A report holds what its own replica settled before it, and what the others settled once their
    // writers have committed it (a batch is gathered for 20 ms): read until `at_least` calls show.
    let report = |query: String, at_least: u64| async move {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let r = live.client.get(live.url(&format!("/usage?{query}"))).bearer_auth(admin);
            let r = r.send().await.unwrap();
            assert_eq!(r.status(), 200);
            let report = r.json::<Value>().await.unwrap();
            if report["total"]["calls"].as_u64().unwrap() >= at_least || Instant::now() > deadline {
                return report;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    };
    let mut recorded = 0;
    for (k, (_, id)) in keys[..2].iter().enumerate() {
        let (answered, unanswered) = outcomes[k];
        if k == 0 {
            assert_eq!(unanswered, 7, "the killed replica answered after its kill");
        }
        let total = report(format!("key={id}"), answered).await["total"].clone();
        // Every answered call is on record, once; a call the kill cut off may be too.
        let calls = total["calls"].as_u64().unwrap();
        assert!((answered..=answered + unanswered).contains(&calls), "key {k}: {answered} answered, {total}");
        assert_eq!(total["input_tokens"].as_u64(), Some(10 * calls), "{total}");
        assert_eq!(total["output_tokens"].as_u64(), Some(5 * calls), "{total}");
        let cost: rust_decimal::Decimal = total["cost"].as_str().unwrap().parse().unwrap();
        assert_eq!(cost, rust_decimal::Decimal::new(1045, 7) * rust_decimal::Decimal::from(calls), "{total}");
        recorded += calls;
    }
    assert!(recorded <= upstream.requests().len() as u64, "no call is recorded twice");
    // The killed replica's segments are replayed and gone; each live replica keeps its own (the one
    // it appends to, and the next, made ahead). Segments are named `<pid>-<random>-<n>.spool2`.
    let owners: std::collections::BTreeSet<String> = std::fs::read_dir(spool.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "spool2"))
        .map(|p| p.file_name().unwrap().to_string_lossy().split('-').next().unwrap().to_owned())
        .collect();
    assert!(!owners.contains(&victim.to_string()), "the killed replica's segments are left: {owners:?}");
    assert_eq!(owners.len(), 2, "{owners:?}");

    // The racer's 0.001 raced by both live replicas, 24 calls each at once: each call costs 0.0001045
    // and reserves more, so the budget admits at most 9 and never overshoots.
    let (racer, racer_id) = (&keys[2].0, &keys[2].1);
    let mut calls = Vec::new();
    for i in 0..48 {
        let server = &cluster.replicas[i % 2];
        calls.push(call(server, racer, format!("Race call {i}.")));
    }
    let mut admitted = 0u64;
    for answer in futures::future::join_all(calls).await {
        let (status, body) = answer.expect("the live replicas answer");
        match status {
            200 => admitted += 1,
            429 => assert_eq!(body["error"]["code"], "budget_exceeded", "{body}"),
            other => panic!("{other}: {body}"),
        }
    }
    // Then one at a time until refused: the budget ends within one call of its amount.
    for i in 0..12 {
        let (status, _) = call(&cluster.replicas[i % 2], racer, format!("Late call {i}.")).await.unwrap();
        if status != 200 {
            break;
        }
        admitted += 1;
    }
    let spent = report(format!("key={racer_id}"), admitted).await["total"].clone();
    let cost: rust_decimal::Decimal = spent["cost"].as_str().unwrap().parse().unwrap();
    assert_eq!(spent["calls"].as_u64(), Some(admitted), "{spent}");
    assert!(cost <= rust_decimal::Decimal::new(1, 3), "the budget was overshot: {spent}");
    assert!(admitted >= 6, "a budget that fits 9 calls admitted {admitted}: {spent}");

    // One request per minute for the whole cluster: refused on the other replica, then admitted once
    // the minute has passed.
    let paced = &keys[3].0;
    assert_eq!(call(&cluster.replicas[0], paced, "Paced 1.".into()).await.unwrap().0, 200);
    let (status, body) = call(&cluster.replicas[1], paced, "Paced 2.".into()).await.unwrap();
    assert_eq!((status, body["error"]["code"].as_str()), (429, Some("budget_exceeded")), "{body}");
    let message = body["error"]["message"].as_str().unwrap();
    let reset = message.rsplit("it resets at ").next().unwrap().trim_end_matches('.');
    let reset = time::OffsetDateTime::parse(reset, &time::format_description::well_known::Rfc3339).unwrap();
    let wait = reset - time::OffsetDateTime::now_utc();
    assert!(wait <= time::Duration::seconds(60), "{message}");
    tokio::time::sleep(Duration::from_millis(wait.whole_milliseconds().max(0) as u64 + 200)).await;
    let (status, body) = call(&cluster.replicas[1], paced, "Paced 3.".into()).await.unwrap();
    assert_eq!(status, 200, "the next minute admits it again: {body}");
}
