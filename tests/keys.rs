//! API keys end to end: created, listed and revoked with `parlance keys`, required by a server, bound
//! to their client, refused when missing, unknown, revoked or claiming another client.

use crate::common::{self, server::Server};
use serde_json::Value;
use std::time::{Duration, Instant};

fn keys(home: &std::path::Path, args: &[&str]) -> std::process::Output {
    let out = common::command(home)
        .env("DATABASE_FILE", home.join("dialogs.db"))
        .arg("keys")
        .args(args)
        .output()
        .unwrap();
    assert!(out.status.success(), "keys {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    out
}

#[tokio::test(flavor = "multi_thread")]
async fn keys_bind_callers_to_their_client() {
    let home = tempfile::tempdir().unwrap();
    // In the working directory, so the server and `parlance keys` both read it. The offline provider has
    // no upstream, so it is rate limited only by a limit of its own.
    std::fs::write(
        home.path().join("parlance.toml"),
        "[auth]\ncache_secs = 1\n\n[[plugin]]\nid = \"offline\"\nrate_limit_per_minute = 2\n",
    )
    .unwrap();
    let created = keys(home.path(), &["create", "--name", "mobile", "--client", "acme", "--json"]);
    let created: Value = serde_json::from_slice(&created.stdout).unwrap();
    let key = created["key"].as_str().unwrap().to_owned();
    let id = created["id"].as_str().unwrap().to_owned();
    assert!(key.starts_with("prl_"), "{created}");
    let other = String::from_utf8(keys(home.path(), &["create", "--name", "other"]).stdout).unwrap();
    let other = other.lines().next().unwrap().to_owned();
    let listed = String::from_utf8(keys(home.path(), &["list"]).stdout).unwrap();
    assert!(listed.contains(&id) && listed.contains("acme") && !listed.contains(&key), "{listed}");
    let stored = std::fs::read(home.path().join("dialogs.db")).unwrap();
    assert!(!stored.windows(key.len()).any(|w| w == key.as_bytes()), "the key is stored in clear");

    let database = home.path().join("dialogs.db");
    let s = Server::start_in(
        home,
        &[("PARLANCE_API_KEYS", "required"), ("DATABASE_FILE", database.to_str().unwrap())],
        &[],
    )
    .await;
    let get = |path: &str, key: Option<&str>, client: Option<&str>| {
        let mut r = s.client.get(s.chat_url(path));
        if let Some(key) = key {
            r = r.bearer_auth(key);
        }
        if let Some(client) = client {
            r = r.header("current-user", client);
        }
        async move {
            let r = r.send().await.unwrap();
            let status = r.status().as_u16();
            let www = r.headers().get("www-authenticate").map(|v| v.to_str().unwrap().to_owned());
            (status, r.json::<Value>().await.unwrap_or(Value::Null), www)
        }
    };
    let (status, body, www) = get("/v1/user/all/count", None, None).await;
    assert_eq!(
        (status, body["error"]["code"].as_str(), www.as_deref()),
        (401, Some("missing_api_key"), Some("Bearer"))
    );
    let (status, body, _) = get("/v1/user/all/count", Some("prl_AAAAAAAAAAAA_nope"), None).await;
    assert_eq!((status, body["error"]["code"].as_str()), (401, Some("invalid_api_key")));
    let (status, body, _) = get("/v1/user/all/count", Some(&key), Some("someone-else")).await;
    assert_eq!((status, body["error"]["code"].as_str()), (403, Some("client_mismatch")));
    // Health checks and the docs stay open for load balancers and readers.
    assert_eq!(get("/v1/server/status", None, None).await.0, 200);
    assert_eq!(s.client.get(s.url("/health")).send().await.unwrap().status().as_u16(), 200);
    let doc: Value = s.client.get(s.url("/openapi.json")).send().await.unwrap().json().await.unwrap();
    assert_eq!(doc["components"]["securitySchemes"]["api_key"]["scheme"], "bearer", "{}", doc["components"]);
    assert_eq!(doc["security"][0]["api_key"], serde_json::json!([]));

    // The key's client owns what it creates, with or without the matching header.
    let r = s.client.put(s.chat_url("/v1/user/id/alice")).bearer_auth(&key).send().await.unwrap();
    assert_eq!(r.status().as_u16(), 200);
    assert_eq!(get("/v1/user/all/count", Some(&key), Some("acme")).await.1["user_count"], 1);
    assert_eq!(
        get("/v1/user/all/count", Some(&other), None).await.1["user_count"],
        0,
        "another client's key"
    );

    // Rate limits are kept for the key's client, whatever the header it cannot change.
    let paraphrase = |key: String| {
        let s = &s;
        async move {
            let r = s
                .client
                .post(s.url("/paraphrase"))
                .bearer_auth(key)
                .json(&serde_json::json!({"text": "Hello there.", "skip_cache": true}))
                .send()
                .await
                .unwrap();
            r.status().as_u16()
        }
    };
    let statuses =
        [paraphrase(key.clone()).await, paraphrase(key.clone()).await, paraphrase(key.clone()).await];
    assert_eq!(statuses, [200, 200, 429]);
    assert_eq!(paraphrase(other.clone()).await, 200, "another client has its own quota");

    keys(s.home(), &["revoke", &id]);
    let revoked = Instant::now();
    while get("/v1/user/all/count", Some(&key), None).await.0 != 401 {
        assert!(
            revoked.elapsed() < Duration::from_secs(40),
            "a revoked key kept working past the cache time"
        );
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    assert_eq!(get("/v1/user/all/count", Some(&other), None).await.0, 200);
}
