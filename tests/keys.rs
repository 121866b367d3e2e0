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
    common::create_store(&home.path().join("dialogs.db"));
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

/// `parlance keys` run from another folder, given the server's configuration, writes to the server's
/// store: a relative `database_file` in the file is the file's folder's, wherever the command runs,
/// and the command says which store it wrote to.
#[test]
fn keys_created_from_another_folder_reach_the_configured_store() {
    let root = tempfile::tempdir().unwrap();
    let root = root.path().canonicalize().unwrap();
    let (server, elsewhere) = (root.join("server"), root.join("elsewhere"));
    std::fs::create_dir_all(&elsewhere).unwrap();
    std::fs::create_dir_all(server.join("data")).unwrap();
    std::fs::write(server.join("parlance.toml"), "[store]\ndatabase_file = \"data/dialogs.db\"\n").unwrap();
    let database = server.join("data/dialogs.db");
    common::create_store(&database);

    let out = common::command(&elsewhere)
        .args(["keys", "create", "--name", "mobile", "--json", "--config", "../server/parlance.toml"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert_eq!(err.trim(), format!("key written to the store at {}", database.display()));
    let id = serde_json::from_slice::<Value>(&out.stdout).unwrap()["id"].as_str().unwrap().to_owned();
    assert_eq!(std::fs::read_dir(&elsewhere).unwrap().count(), 0, "nothing is written where it ran");

    // The server's folder, where `parlance.toml` is found by itself, sees the key.
    let listed = common::command(&server).args(["keys", "list"]).output().unwrap();
    assert!(listed.status.success(), "{}", String::from_utf8_lossy(&listed.stderr));
    assert!(String::from_utf8_lossy(&listed.stdout).contains(&id));
}

/// A key command creates no store: keys in a store that no server reads would be refused by every
/// server. It exits 2, as for a configuration at fault, naming the path and what to do.
#[test]
fn key_commands_refuse_a_store_that_does_not_exist() {
    let home = tempfile::tempdir().unwrap();
    let home = home.path().canonicalize().unwrap();
    for args in [&["create", "--name", "mobile"][..], &["list"], &["revoke", "abc"]] {
        let out = common::command(&home).arg("keys").args(args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "keys {args:?}: {err}");
        assert!(out.stdout.is_empty(), "keys {args:?}");
        assert!(
            err.contains(&format!(
                "there is no dialog store at {} (no configuration file)",
                home.join("dialogs.db").display()
            )) && err.contains("start the server once")
                && err.contains("point --config or DATABASE_FILE at the server's store"),
            "keys {args:?}: {err}"
        );
    }
    // A store the configuration file names, relative to its folder.
    std::fs::write(home.join("server.toml"), "[store]\ndatabase_file = \"db/keys.db\"\n").unwrap();
    let out = common::command(&home)
        .args(["keys", "--config", "server.toml", "create", "--name", "mobile"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains(&format!(
            "there is no dialog store at {} (configuration: {})",
            home.join("db/keys.db").display(),
            home.join("server.toml").display()
        )),
        "{err}"
    );
    let left: Vec<_> = std::fs::read_dir(&home).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(left, ["server.toml"], "a key command created files");
}
