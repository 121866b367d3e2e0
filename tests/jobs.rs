//! Durable asynchronous batch jobs through the real binary: created, reported page by page, listed,
//! cancelled, kept to their client, and carried on after the server is killed, by the same replica
//! starting again or by another one once the lease runs out; every item ends with exactly one result.

use crate::common::server::Server;
use crate::common::upstream::FakeOpenAi;
use serde_json::{Value, json};
use std::time::{Duration, Instant};

async fn call(
    s: &Server,
    method: reqwest::Method,
    path: &str,
    client: &str,
    body: Option<Value>,
) -> (u16, Value) {
    let mut r = s.client.request(method, s.url(path)).header("current-user", client);
    if let Some(body) = body {
        r = r.json(&body);
    }
    let r = r.send().await.unwrap();
    let status = r.status().as_u16();
    (status, r.json().await.unwrap_or(Value::Null))
}

async fn wait_until(s: &Server, job: &str, client: &str, status: &str, within: Duration) -> Value {
    let started = Instant::now();
    loop {
        let (_, body) = call(s, reqwest::Method::GET, &format!("/jobs/{job}"), client, None).await;
        if body["status"] == status {
            return body;
        }
        assert!(started.elapsed() < within, "the job did not become {status}: {body}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_job_is_paraphrased_paged_listed_and_kept_to_its_client() {
    let s = Server::start(&[("RATE_LIMIT_REQUESTS_PER_MINUTE", "100000")]).await;
    let mut texts: Vec<String> = (0..45).map(|i| format!("The weather is nice on day {i}.")).collect();
    texts[7] = "   ".into();
    let (status, created) =
        call(&s, reqwest::Method::POST, "/paraphrase/batch/async", "acme", Some(json!({"texts": texts})))
            .await;
    assert_eq!(status, 202, "{created}");
    let job = created["job_id"].as_str().unwrap().to_owned();
    assert_eq!(created["total_items"], 45);
    let done = wait_until(&s, &job, "acme", "completed", Duration::from_secs(30)).await;
    assert_eq!((done["successful"].as_u64(), done["failed"].as_u64()), (Some(44), Some(1)), "{done}");
    assert!(done["completed_at"].is_string() && done["processing_time"].as_f64().unwrap() >= 0.0, "{done}");
    assert!((done["success_rate"].as_f64().unwrap() - 44.0 / 45.0).abs() < 1e-9);
    // Pages of 20: the blank text failed alone, with its code.
    let (_, first) = call(&s, reqwest::Method::GET, &format!("/jobs/{job}?limit=20"), "acme", None).await;
    assert_eq!(first["results"].as_array().unwrap().len(), 19);
    assert_eq!(first["errors"][0]["index"], 7);
    assert_eq!(first["errors"][0]["error"]["code"], "invalid_input");
    assert_eq!(first["next_offset"], 20);
    let (_, last) =
        call(&s, reqwest::Method::GET, &format!("/jobs/{job}?offset=40&limit=20"), "acme", None).await;
    assert_eq!(last["results"].as_array().unwrap().len(), 5);
    assert_eq!(last["results"][0]["original"], texts[40]);
    let flagged = |r: &Value| r["unchanged"] == (r["paraphrase"] == r["original"]);
    assert!(last["results"].as_array().unwrap().iter().all(flagged), "{last}");
    assert_eq!(last["next_offset"], Value::Null);

    let (_, listed) = call(&s, reqwest::Method::GET, "/jobs", "acme", None).await;
    assert_eq!(listed["jobs"][0]["job_id"], job.as_str());
    let (status, _) = call(&s, reqwest::Method::GET, &format!("/jobs/{job}"), "someone-else", None).await;
    assert_eq!(status, 404, "another client's job");
    let (_, theirs) = call(&s, reqwest::Method::GET, "/jobs", "someone-else", None).await;
    assert_eq!(theirs["jobs"], json!([]));
    let (status, body) = call(&s, reqwest::Method::DELETE, &format!("/jobs/{job}"), "acme", None).await;
    assert_eq!((status, body["error"]["code"].as_str()), (409, Some("conflict")));

    let (status, body) = call(
        &s,
        reqwest::Method::POST,
        "/paraphrase/batch/async",
        "acme",
        Some(json!({"texts": [], "provider": "nope"})),
    )
    .await;
    assert_eq!(status, 422, "{body}");
}

/// A job's items on a provider that takes 200 ms each, the server killed halfway, and the job carried
/// on: by the same replica starting again (at once), then by another replica once the lease runs out.
#[tokio::test(flavor = "multi_thread")]
async fn a_job_survives_kills_and_every_item_gets_exactly_one_result() {
    let upstream = FakeOpenAi::start("done:").await;
    let home = tempfile::tempdir().unwrap();
    let database = home.path().join("dialogs.db");
    let config = home.path().join("parlance.toml");
    let write_config = |replica: &str| {
        std::fs::write(
            &config,
            format!("[jobs]\nconcurrency = 4\nlease_secs = 5\nreplica = \"{replica}\"\n"),
        )
        .unwrap();
    };
    let env = |url: &str| {
        vec![
            ("PROVIDER_API_KEY".to_owned(), "sk-test".to_owned()),
            ("PARLANCE_PLUGIN_OPENROUTER_BASE_URL".to_owned(), url.to_owned()),
            ("RATE_LIMIT_REQUESTS_PER_MINUTE".to_owned(), "100000".to_owned()),
            ("DATABASE_FILE".to_owned(), database.to_str().unwrap().to_owned()),
        ]
    };
    let env = env(&upstream.base_url());
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let start = |home: tempfile::TempDir| {
        let env = env.clone();
        let config = config.to_str().unwrap().to_owned();
        async move { Server::start_in(home, &env, &["--config", &config]).await }
    };
    write_config("r1");
    let texts: Vec<String> = (0..60).map(|i| format!("item {i}")).collect();
    let mut s = start(home).await;
    let (_, created) = call(
        &s,
        reqwest::Method::POST,
        "/paraphrase/batch/async",
        "acme",
        Some(json!({"texts": texts, "provider": "openrouter", "model": "echo-200ms"})),
    )
    .await;
    let job = created["job_id"].as_str().unwrap().to_owned();
    let progress = |body: &Value| body["successful"].as_u64().unwrap() + body["failed"].as_u64().unwrap();
    let started = Instant::now();
    loop {
        let (_, body) = call(&s, reqwest::Method::GET, &format!("/jobs/{job}"), "acme", None).await;
        if progress(&body) >= 12 {
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(30), "no progress: {body}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    s.kill();

    // The same replica, started again, gives back its own claims and goes on at once.
    let home = std::mem::replace(&mut s.home, tempfile::tempdir().unwrap());
    let s = start(home).await;
    let resumed = Instant::now();
    let before = { call(&s, reqwest::Method::GET, &format!("/jobs/{job}"), "acme", None).await.1 };
    loop {
        let (_, body) = call(&s, reqwest::Method::GET, &format!("/jobs/{job}"), "acme", None).await;
        if progress(&body) > progress(&before) + 4 {
            break;
        }
        assert!(
            resumed.elapsed() < Duration::from_secs(4),
            "the restarted replica did not resume within the lease: {body}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let mut s = s;
    s.kill();

    // Another replica finds the dead one's claims once their lease has run out.
    write_config("r2");
    let home = std::mem::replace(&mut s.home, tempfile::tempdir().unwrap());
    let s = start(home).await;
    let done = wait_until(&s, &job, "acme", "completed", Duration::from_secs(60)).await;
    assert_eq!(done["successful"], 60, "{done}");
    let (_, page) = call(&s, reqwest::Method::GET, &format!("/jobs/{job}?limit=100"), "acme", None).await;
    let results = page["results"].as_array().unwrap();
    assert_eq!(results.len(), 60);
    for (i, r) in results.iter().enumerate() {
        assert_eq!(r["index"], i);
        assert!(r["paraphrase"].as_str().unwrap().contains(&format!("item {i}")), "{r}");
    }
}
