//! The admin API against the real binary: off without a credential, refused without it, with another
//! and with a client key; keys created, listed, read, changed and revoked over HTTP, a created key
//! working until its revocation; the admin credential refused as a client key and never written to
//! the log; and `parlance keys` with budgets and per-minute limits.

use crate::common::{self, server::Server};
use serde_json::{Value, json};
use std::time::{Duration, Instant};

const ADMIN: &str = "admin-credential-0123456789";

/// An answer's status and JSON body (`null` when there is none).
async fn answer(r: reqwest::RequestBuilder) -> (u16, Value) {
    let r = r.send().await.unwrap();
    let status = r.status().as_u16();
    (status, r.json::<Value>().await.unwrap_or(Value::Null))
}

fn code(body: &Value) -> &str {
    body["error"]["code"].as_str().unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread")]
async fn without_a_credential_the_admin_api_is_off() {
    let s = Server::start(&[]).await;
    let (status, body) = answer(s.client.get(s.url("/admin/keys")).bearer_auth(ADMIN)).await;
    assert_eq!((status, code(&body)), (404, "admin_disabled"), "{body}");
    let message = body["error"]["message"].as_str().unwrap();
    assert!(message.contains("PARLANCE_ADMIN_TOKEN") && message.contains("token_file"), "{message}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_credential_too_short_or_shaped_as_a_client_key_is_refused_at_start() {
    let home = tempfile::tempdir().unwrap();
    for token in ["tiny-tok", "prl_AAAAAAAAAAAA_looks_like_a_client_key"] {
        let out = common::command(home.path())
            .env("PARLANCE_ADMIN_TOKEN", token)
            .args(["--mode", "api", "--port", "0"])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains("the admin credential in PARLANCE_ADMIN_TOKEN"), "{err}");
        assert!(!err.contains(token), "the refused credential is echoed: {err}");
    }
}

/// The whole admin API, with keys required, the credential from a file, and every request logged.
#[tokio::test(flavor = "multi_thread")]
async fn keys_are_managed_over_http_by_the_admin_only() {
    let home = tempfile::tempdir().unwrap();
    std::fs::write(home.path().join("admin.token"), format!("\n{ADMIN}\n")).unwrap();
    std::fs::write(
        home.path().join("parlance.toml"),
        "[auth]\napi_keys = \"required\"\ncache_secs = 0\n\n[admin]\ntoken_file = \"admin.token\"\n",
    )
    .unwrap();
    let database = home.path().join("dialogs.db");
    let s = Server::start_wrapped(
        home,
        &[("RUST_LOG", "debug"), ("DATABASE_FILE", database.to_str().unwrap())],
        &[],
        &["sh", "-c", "exec \"$0\" \"$@\" 2>server.log"],
    )
    .await;
    let client_key = common::key(s.home(), "acme");
    let admin = |r: reqwest::RequestBuilder| r.bearer_auth(ADMIN);

    // Who may call it.
    let (status, body) = answer(s.client.get(s.url("/admin/keys"))).await;
    assert_eq!((status, code(&body)), (401, "admin_unauthorized"), "{body}");
    let (status, body) =
        answer(s.client.get(s.url("/admin/keys")).bearer_auth("not-the-admin-credential")).await;
    assert_eq!((status, code(&body)), (401, "admin_unauthorized"));
    assert!(body["error"]["message"].as_str().unwrap().contains("not the admin's"), "{body}");
    let (status, body) = answer(s.client.get(s.url("/admin/keys")).bearer_auth(&client_key)).await;
    assert_eq!((status, code(&body)), (403, "not_admin"), "{body}");
    let (status, body) = answer(admin(s.client.get(s.url("/admin/keys")))).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["keys"].as_array().unwrap().len(), 1, "the key `parlance keys` made: {body}");

    // The admin credential is not a client key.
    let paraphrase = |key: &str| {
        s.client
            .post(s.url("/paraphrase"))
            .bearer_auth(key)
            .json(&json!({"text": "Hello there.", "skip_cache": true}))
    };
    let (status, body) = answer(paraphrase(ADMIN)).await;
    assert_eq!((status, code(&body)), (401, "invalid_api_key"), "{body}");
    assert!(body["error"]["message"].as_str().unwrap().contains("not a client key"), "{body}");
    assert_eq!(answer(paraphrase(&client_key)).await.0, 200);

    // Bodies are read strictly, and every refusal names its problem.
    for (body, status, problem) in [
        (json!({"name": "x", "client": "acme", "colour": 1}), 422, "unknown field `colour`"),
        (
            json!({"name": "x", "client": "acme", "budgets": [{"amount": "5", "period": "year"}]}),
            422,
            "unknown variant `year`",
        ),
        (
            json!({"name": "x", "client": "acme", "budgets": [{"amount": "-5", "period": "day"}]}),
            422,
            "negative",
        ),
        (
            json!({"name": "x", "client": "acme", "budgets": [{"amount": "0.1234567", "period": "day"}]}),
            422,
            "more than 6 decimal places",
        ),
        (
            json!({"name": "x", "client": "acme", "budgets": [{"amount": "1", "period": "day"}, {"amount": "2", "period": "day"}]}),
            422,
            "more than one budget for the period day",
        ),
        (json!({"name": "x", "client": " acme"}), 422, "client must be visible ASCII"),
        (json!({"name": " ", "client": "acme"}), 422, "name is empty"),
        (
            json!({"name": "x", "client": "acme", "requests_per_minute": 0}),
            422,
            "requests_per_minute must be between 1 and 2147483647",
        ),
        (json!({"name": "x", "client": "acme", "tokens_per_minute": -1}), 422, "tokens_per_minute"),
        (
            json!({"name": "x", "client": "acme", "tokens_per_minute": 2_147_483_648u64}),
            422,
            "tokens_per_minute must be between 1 and 2147483647",
        ),
    ] {
        let (got, answer) = answer(admin(s.client.post(s.url("/admin/keys"))).json(&body)).await;
        let message = answer["error"]["message"].as_str().unwrap_or_default();
        assert!(got == status && message.contains(problem), "{body}: {got} {answer}");
    }

    // Create, list, get, change, revoke.
    let (status, created) = answer(admin(s.client.post(s.url("/admin/keys"))).json(&json!({
        "name": "mobile", "client": "acme",
        "budgets": [{"amount": "50.00", "period": "month"}, {"amount": "5", "period": "day"}],
        "tokens_per_minute": 10000,
    })))
    .await;
    assert_eq!(status, 201, "{created}");
    let key = created["key"].as_str().unwrap().to_owned();
    let id = created["id"].as_str().unwrap().to_owned();
    assert!(key.starts_with("prl_"));
    assert_eq!(
        created["budgets"],
        json!([{"amount": "5", "period": "day"}, {"amount": "50.00", "period": "month"}])
    );
    assert_eq!(
        (created["tokens_per_minute"].as_u64(), created["requests_per_minute"].is_null()),
        (Some(10000), true)
    );
    assert_eq!(answer(paraphrase(&key)).await.0, 200, "the new key works");

    let (_, listed) = answer(admin(s.client.get(s.url("/admin/keys?client=acme&revoked=false")))).await;
    let listed = listed["keys"].as_array().unwrap().clone();
    assert_eq!(listed.len(), 2);
    assert!(listed.iter().all(|k| k.get("key").is_none()), "a listing shows no secret");
    let (_, none) = answer(admin(s.client.get(s.url("/admin/keys?client=nobody")))).await;
    assert_eq!(none["keys"], json!([]));
    let (status, body) = answer(admin(s.client.get(s.url("/admin/keys?revoked=maybe")))).await;
    assert_eq!((status, code(&body)), (400, "invalid_query"));
    let (status, shown) = answer(admin(s.client.get(s.url(&format!("/admin/keys/{id}"))))).await;
    let mut expected = created.clone();
    expected.as_object_mut().unwrap().remove("key");
    assert_eq!((status, &shown), (200, &expected));
    let (status, body) = answer(admin(s.client.get(s.url("/admin/keys/nope")))).await;
    assert_eq!((status, code(&body)), (404, "key_not_found"));

    let patch =
        |id: &str, body: Value| admin(s.client.patch(s.url(&format!("/admin/keys/{id}")))).json(&body);
    let (status, changed) = answer(patch(&id, json!({"name": "phone", "budgets": [{"amount": "7.5", "period": "week"}], "tokens_per_minute": null, "requests_per_minute": 30}))).await;
    assert_eq!(status, 200, "{changed}");
    assert_eq!(changed["name"], "phone");
    assert_eq!(changed["budgets"], json!([{"amount": "7.5", "period": "week"}]));
    assert_eq!(
        (changed["tokens_per_minute"].is_null(), changed["requests_per_minute"].as_u64()),
        (true, Some(30))
    );
    let (_, kept) = answer(patch(&id, json!({}))).await;
    assert_eq!(kept, changed, "an empty change keeps everything");
    let (status, body) =
        answer(patch(&id, json!({"budgets": [{"amount": "1", "period": "fortnight"}]}))).await;
    assert_eq!((status, code(&body)), (422, "invalid_body"), "{body}");
    let (status, body) = answer(patch("nope", json!({"name": "x"}))).await;
    assert_eq!((status, code(&body)), (404, "key_not_found"));

    let (status, revoked) = answer(admin(s.client.delete(s.url(&format!("/admin/keys/{id}"))))).await;
    assert_eq!(status, 200, "{revoked}");
    assert!(revoked["revoked_at"].is_i64(), "{revoked}");
    let (status, again) = answer(admin(s.client.delete(s.url(&format!("/admin/keys/{id}"))))).await;
    assert_eq!((status, &again), (200, &revoked), "revoking again answers the same");
    let (status, body) = answer(admin(s.client.delete(s.url("/admin/keys/nope")))).await;
    assert_eq!((status, code(&body)), (404, "key_not_found"));
    let (status, body) = answer(patch(&id, json!({"name": "x"}))).await;
    assert_eq!((status, code(&body)), (409, "key_revoked"));
    let since = Instant::now();
    while answer(paraphrase(&key)).await.0 != 401 {
        assert!(since.elapsed() < Duration::from_secs(10), "a revoked key kept working");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let (_, revoked_only) = answer(admin(s.client.get(s.url("/admin/keys?revoked=true")))).await;
    assert_eq!(revoked_only["keys"].as_array().unwrap().len(), 1);

    // The document describes the routes under a scheme of their own.
    let doc: Value = s.client.get(s.url("/openapi.json")).send().await.unwrap().json().await.unwrap();
    assert_eq!(doc["components"]["securitySchemes"]["admin_token"]["scheme"], "bearer");
    for (path, method) in [("/admin/keys", "post"), ("/admin/keys", "get"), ("/admin/keys/{id}", "patch")] {
        assert_eq!(doc["paths"][path][method]["security"], json!([{"admin_token": []}]), "{path} {method}");
    }

    // Nothing logged the credential, though every request was logged at debug level.
    let log = std::fs::read_to_string(s.home().join("server.log")).unwrap();
    assert!(log.contains("DEBUG") || log.contains("debug"), "the log is not at debug level");
    assert!(!log.contains(ADMIN), "the admin credential is in the log");
}

/// `parlance keys create|update|list` with budgets and per-minute limits, checked as the admin API
/// checks them.
#[test]
fn the_cli_sets_and_shows_limits() {
    let home = tempfile::tempdir().unwrap();
    let home = home.path();
    common::create_store(&home.join("dialogs.db"));
    let keys = |args: &[&str]| {
        common::command(home)
            .env("DATABASE_FILE", home.join("dialogs.db"))
            .arg("keys")
            .args(args)
            .output()
            .unwrap()
    };
    let ok = |args: &[&str]| {
        let out = keys(args);
        assert!(out.status.success(), "keys {args:?}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    };
    let created: Value = serde_json::from_str(&ok(&[
        "create",
        "--name",
        "ci",
        "--client",
        "acme",
        "--budget",
        "50/month",
        "--budget",
        "5.25/day",
        "--tokens-per-minute",
        "1000",
        "--json",
    ]))
    .unwrap();
    let id = created["id"].as_str().unwrap().to_owned();
    assert_eq!(
        created["budgets"],
        json!([{"amount": "5.25", "period": "day"}, {"amount": "50", "period": "month"}])
    );
    assert_eq!(created["tokens_per_minute"], 1000);
    let text = ok(&["create", "--name", "plain", "--requests-per-minute", "60"]);
    assert!(text.lines().nth(1).unwrap().contains("(60 requests/min)"), "{text}");

    for (args, problem) in [
        (&["create", "--name", "x", "--budget", "5/year"][..], "unknown budget period \"year\""),
        (&["create", "--name", "x", "--budget=-5/day"], "negative"),
        (&["create", "--name", "x", "--budget", "5"], "AMOUNT/PERIOD"),
        (
            &["create", "--name", "x", "--budget", "1/day", "--budget", "2/day"],
            "more than one budget for the period day",
        ),
        (
            &["create", "--name", "x", "--requests-per-minute", "0"],
            "requests_per_minute must be between 1 and 2147483647",
        ),
        (&["create", "--name", "x", "--client", " acme"], "--client must be visible ASCII"),
        (&["update", "nope", "--name", "y"], "has no key \"nope\""),
    ] {
        let out = keys(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success() && err.contains(problem), "keys {args:?}: {err}");
    }

    let updated: Value = serde_json::from_str(&ok(&[
        "update",
        &id,
        "--name",
        "ci-2",
        "--budget",
        "80/month",
        "--budget",
        "500/total",
        "--clear-budget",
        "day",
        "--clear-tokens-per-minute",
        "--requests-per-minute",
        "120",
        "--json",
    ]))
    .unwrap();
    assert_eq!(updated["name"], "ci-2");
    assert_eq!(
        updated["budgets"],
        json!([{"amount": "80", "period": "month"}, {"amount": "500", "period": "total"}])
    );
    assert_eq!(
        (updated["tokens_per_minute"].is_null(), updated["requests_per_minute"].as_u64()),
        (true, Some(120))
    );

    let listed = ok(&["list"]);
    let header = listed.lines().next().unwrap();
    assert!(header.contains("LIMITS"), "{listed}");
    let row = listed.lines().find(|l| l.starts_with(&id)).unwrap();
    assert!(row.contains("80/month, 500/total, 120 requests/min"), "{listed}");
    let json: Value = serde_json::from_str(&ok(&["list", "--json"])).unwrap();
    let entry = json.as_array().unwrap().iter().find(|k| k["id"] == id.as_str()).unwrap();
    assert_eq!(entry, &updated);

    ok(&["revoke", &id]);
    let out = keys(&["update", &id, "--name", "z"]);
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("is revoked"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
