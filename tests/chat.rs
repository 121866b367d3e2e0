//! The chat API of seed 000 against the real binary, a real SQLite file and a local model endpoint
//! speaking the original form protocol: every endpoint and its edge cases, tenancy on every endpoint,
//! model failures, concurrency and crash durability.

use crate::common::server::Server;
use crate::common::upstream::FakeFormModel;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::time::Duration;

const DEFAULT_RESPONSE: &str = "The AI model is currently unavailable. Please try again later.";

struct Api<'a> {
    server: &'a Server,
    client: Option<&'a str>,
}

impl<'a> Api<'a> {
    fn new(server: &'a Server, client: Option<&'a str>) -> Self {
        Api { server, client }
    }

    async fn send(&self, method: reqwest::Method, path: &str, body: Option<Value>) -> (u16, Value) {
        let mut r = self.server.client.request(method, self.server.chat_url(path));
        if let Some(c) = self.client {
            r = r.header("current-user", c);
        }
        if let Some(b) = body {
            r = r.json(&b);
        }
        let r = r.send().await.unwrap();
        let status = r.status().as_u16();
        (status, r.json().await.unwrap_or(Value::Null))
    }

    async fn get(&self, path: &str) -> (u16, Value) {
        self.send(reqwest::Method::GET, path, None).await
    }
    async fn put(&self, path: &str, body: Option<Value>) -> (u16, Value) {
        self.send(reqwest::Method::PUT, path, body).await
    }
    async fn delete(&self, path: &str) -> (u16, Value) {
        self.send(reqwest::Method::DELETE, path, None).await
    }
    async fn waifu(&self, body: Value) -> (u16, Value) {
        self.send(reqwest::Method::POST, "/v1/waifu", Some(body)).await
    }
}

async fn server_with_model() -> (Server, FakeFormModel) {
    let model = FakeFormModel::start().await;
    let server =
        Server::start(&[("MODEL_URL", &model.url()), ("PARLANCE_PLUGIN_FORM_TIMEOUT_MS", "1500")]).await;
    (server, model)
}

fn assert_error(status: u16, body: &Value, expected_status: u16) {
    assert_eq!(status, expected_status, "{body}");
    assert!(body["error"]["code"].is_string() && body["error"]["message"].is_string(), "{body}");
}

#[tokio::test(flavor = "multi_thread")]
async fn users_follow_the_seed() {
    let (server, _model) = server_with_model().await;
    let api = Api::new(&server, None);
    assert_eq!(api.put("/v1/user/id/alice", None).await, (200, json!({"user_id": "alice"})));
    assert_eq!(api.put("/v1/user/id/alice", None).await, (200, json!({"user_id": "alice"})), "idempotent");
    assert_eq!(api.get("/v1/user/id/alice").await, (200, json!({"user_id": "alice", "exists": true})));
    // The original service answers 404 for an unknown user, with the body the seed describes.
    assert_eq!(api.get("/v1/user/id/nobody").await, (404, json!({"user_id": "nobody", "exists": false})));

    let (status, meta) = api.get("/v1/user/metadata/alice").await;
    assert_eq!(status, 200);
    assert_eq!(meta["user_id"], "alice");
    let datetime = meta["last_modified_datetime"].as_str().unwrap();
    assert_eq!(datetime.len(), 19);
    assert_eq!((&datetime[4..5], &datetime[10..11], &datetime[13..14]), ("-", " ", ":"), "{datetime}");
    let ts = meta["last_modified_timestamp"].as_i64().unwrap();
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() as i64;
    assert!((now - ts).abs() < 60, "{ts} vs {now}");
    let (status, body) = api.get("/v1/user/metadata/nobody").await;
    assert_error(status, &body, 404);

    for name in ["bob", "carol"] {
        api.put(&format!("/v1/user/id/{name}"), None).await;
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    assert_eq!(api.get("/v1/user/all/count").await, (200, json!({"user_count": 3})));
    assert_eq!(
        api.get("/v1/user/all/id/0").await,
        (200, json!({"page": 0, "users": ["carol", "bob", "alice"]}))
    );
    assert_eq!(api.get("/v1/user/all/id/7").await, (200, json!({"page": 7, "users": []})));
    for bad in ["abc", "-1", "1.5"] {
        let (status, body) = api.get(&format!("/v1/user/all/id/{bad}")).await;
        assert_error(status, &body, 400);
    }

    assert_eq!(api.delete("/v1/user/id/bob").await, (200, json!({"user_id": "bob"})));
    let (status, body) = api.delete("/v1/user/id/bob").await;
    assert_error(status, &body, 404);
    assert_eq!(api.get("/v1/user/all/count").await.1, json!({"user_count": 2}));
    assert_eq!(api.get("/v1/server/status").await, (200, json!({"status": "ok"})));
}

#[tokio::test(flavor = "multi_thread")]
async fn pages_hold_one_hundred_users() {
    let (server, _model) = server_with_model().await;
    let api = Api::new(&server, Some("pager"));
    for i in 0..150 {
        api.put(&format!("/v1/user/id/u{i:03}"), None).await;
    }
    let (_, first) = api.get("/v1/user/all/id/0").await;
    let (_, second) = api.get("/v1/user/all/id/1").await;
    assert_eq!(first["users"].as_array().unwrap().len(), 100);
    assert_eq!(second["users"].as_array().unwrap().len(), 50);
    let mut all: Vec<Value> = first["users"].as_array().unwrap().clone();
    all.extend(second["users"].as_array().unwrap().iter().cloned());
    all.sort_by_key(|v| v.as_str().unwrap().to_owned());
    all.dedup();
    assert_eq!(all.len(), 150, "pages neither overlap nor skip");
}

#[tokio::test(flavor = "multi_thread")]
async fn dialogs_are_replaced_whole_or_not_at_all() {
    let (server, _model) = server_with_model().await;
    let api = Api::new(&server, None);
    let (status, body) = api.get("/v1/user/dialog/json/ghost").await;
    assert_error(status, &body, 404);
    let (status, body) = api.put("/v1/user/dialog/json/ghost", Some(json!({"dialog": []}))).await;
    assert_error(status, &body, 404);
    let (status, body) = api.delete("/v1/user/dialog/ghost").await;
    assert_error(status, &body, 404);
    let (status, body) = api.get("/v1/user/dialog/str/ghost").await;
    assert_error(status, &body, 404);

    api.put("/v1/user/id/dana", None).await;
    let dialog = json!([
        {"index": 1, "name": "Waifu", "message": "Hello, \"Dana\"."},
        {"index": 0, "name": "Dana", "message": "Hi!"},
    ]);
    assert_eq!(
        api.put("/v1/user/dialog/json/dana", Some(json!({"dialog": dialog}))).await,
        (200, json!({"user_id": "dana"}))
    );
    let stored = json!({"user_id": "dana", "dialog": [
        {"index": 0, "name": "Dana", "message": "Hi!"},
        {"index": 1, "name": "Waifu", "message": "Hello, \"Dana\"."},
    ]});
    assert_eq!(api.get("/v1/user/dialog/json/dana").await, (200, stored.clone()));
    assert_eq!(
        api.get("/v1/user/dialog/str/dana").await,
        (200, json!({"user_id": "dana", "dialog": "Dana said: \"Hi!\" Waifu said: \"Hello, \"Dana\".\""}))
    );

    let bad_dialogs = [
        json!({"dialog": [{"index": 0, "name": "A", "message": "x"}, {"index": 2, "name": "B", "message": "y"}]}),
        json!({"dialog": [{"index": 0, "name": "A", "message": "x"}, {"index": 0, "name": "B", "message": "y"}]}),
        json!({"dialog": [{"index": 0, "name": 5, "message": "x"}]}),
        json!({"dialog": [{"index": 0, "name": "A", "message": null}]}),
        json!({"dialog": [{"index": -1, "name": "A", "message": "x"}]}),
        json!({"dialog": [{"name": "A", "message": "x"}]}),
        json!({"dialog": "not a list"}),
        json!({}),
    ];
    for bad in bad_dialogs {
        let (status, body) = api.put("/v1/user/dialog/json/dana", Some(bad.clone())).await;
        assert_error(status, &body, 422);
        assert_eq!(
            api.get("/v1/user/dialog/json/dana").await.1,
            stored,
            "{bad} must leave the dialog as it was"
        );
    }

    assert_eq!(api.delete("/v1/user/dialog/dana").await, (200, json!({"user_id": "dana"})));
    assert_eq!(api.get("/v1/user/dialog/json/dana").await, (200, json!({"user_id": "dana", "dialog": []})));
    assert_eq!(api.get("/v1/user/dialog/str/dana").await, (200, json!({"user_id": "dana", "dialog": ""})));
}

#[tokio::test(flavor = "multi_thread")]
async fn chat_uses_the_model_and_stores_the_exchange() {
    let (server, model) = server_with_model().await;
    let api = Api::new(&server, None);
    let (status, body) = api.waifu(json!({"user_id": "erin", "message": "Hello there"})).await;
    assert_eq!((status, body), (200, json!({"user_id": "erin", "response": "Reply 1"})));
    assert_eq!(api.get("/v1/user/id/erin").await.1["exists"], true, "a chat creates the user");
    assert_eq!(model.inputs()[0], "[ Genre: Romance ] User said: \"Hello there\" Waifu said: \"");

    let form = server
        .client
        .post(server.chat_url("/path"))
        .form(&[
            ("user_id", "erin"),
            ("message", "How are you?"),
            ("from_name", "Erin"),
            ("to_name", "Mika"),
            ("situation", "At the station."),
            ("genre", "Drama"),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(form.status().as_u16(), 200);
    assert!(form.headers()["content-type"].to_str().unwrap().starts_with("text/plain"));
    assert_eq!(form.text().await.unwrap(), "Reply 2");
    assert_eq!(
        model.inputs()[1],
        "[ Genre: Drama ] User said: \"Hello there\" Waifu said: \"Reply 1\" At the station. Erin said: \"How are you?\" Mika said: \""
    );
    let (_, dialog) = api.get("/v1/user/dialog/json/erin").await;
    assert_eq!(
        dialog["dialog"],
        json!([
            {"index": 0, "name": "User", "message": "Hello there"},
            {"index": 1, "name": "Waifu", "message": "Reply 1"},
            {"index": 2, "name": "Erin", "message": "How are you?"},
            {"index": 3, "name": "Mika", "message": "Reply 2"},
        ])
    );
}

/// The model is given only the newest entries its prompt keeps, yet its prompt is exactly the one the
/// whole dialog makes; the stored dialog stays whole. With the operator's own window, only that.
#[tokio::test(flavor = "multi_thread")]
async fn a_long_dialog_reaches_the_model_through_its_history_window() {
    let model = FakeFormModel::start().await;
    let server =
        Server::start(&[("MODEL_URL", &model.url()), ("PARLANCE_PLUGIN_FORM_PROMPT_MAX_CHARS", "300")]).await;
    let api = Api::new(&server, None);
    let entries: Vec<Value> = (0..3000)
        .map(|i| json!({"index": i, "name": if i % 2 == 0 { "User" } else { "Waifu" }, "message": format!("line {i} é")}))
        .collect();
    api.put("/v1/user/id/gil", None).await;
    assert_eq!(api.put("/v1/user/dialog/json/gil", Some(json!({"dialog": entries}))).await.0, 200);
    assert_eq!(api.waifu(json!({"user_id": "gil", "message": "And now?"})).await.0, 200);

    let whole: Vec<String> = entries
        .iter()
        .map(|e| format!("{} said: \"{}\"", e["name"].as_str().unwrap(), e["message"].as_str().unwrap()))
        .collect();
    let prompt = format!("[ Genre: Romance ] {} User said: \"And now?\" Waifu said: \"", whole.join(" "));
    let count = prompt.chars().count();
    let expected: String = prompt.chars().skip(count - 300).collect();
    assert_eq!(model.inputs()[0], expected);

    let (_, stored) = api.get("/v1/user/dialog/json/gil").await;
    let stored = stored["dialog"].as_array().unwrap().clone();
    assert_eq!(stored.len(), 3002);
    assert_eq!(stored[..3000], entries[..]);
    assert_eq!(stored[3001], json!({"index": 3001, "name": "Waifu", "message": "Reply 1"}));

    // The operator's window: the newest three entries, whatever the prompt's length.
    let model = FakeFormModel::start().await;
    let config = format!(
        "[[plugin]]\nid = \"form\"\nhistory_entries = 3\nconfig = {{ model_url = \"{}\" }}\n",
        model.url()
    );
    let server =
        Server::start_in(crate::common::home_with_config(&config), &[], &["--config", "parlance.toml"]).await;
    let api = Api::new(&server, None);
    api.put("/v1/user/id/gil", None).await;
    assert_eq!(api.put("/v1/user/dialog/json/gil", Some(json!({"dialog": entries}))).await.0, 200);
    assert_eq!(api.waifu(json!({"user_id": "gil", "message": "And now?"})).await.0, 200);
    assert_eq!(
        model.inputs()[0],
        format!("[ Genre: Romance ] {} User said: \"And now?\" Waifu said: \"", whole[2997..].join(" "))
    );
    assert_eq!(api.get("/v1/user/dialog/json/gil").await.1["dialog"].as_array().unwrap().len(), 3002);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_failing_model_answers_the_default_response_and_stores_nothing() {
    let (server, _model) = server_with_model().await;
    let api = Api::new(&server, None);
    api.waifu(json!({"user_id": "finn", "message": "First"})).await;
    for trigger in ["FAIL500", "HTML", "GARBAGE", "SLOW"] {
        let r = server
            .client
            .post(server.chat_url("/v1/waifu"))
            .json(&json!({"user_id": "finn", "message": format!("please {trigger}")}))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status().as_u16(), 200);
        assert_eq!(r.headers()["x-parlance-fallback"], "default-response");
        let body: Value = r.json().await.unwrap();
        assert_eq!(body["response"], DEFAULT_RESPONSE, "{trigger}");
    }
    let (_, dialog) = api.get("/v1/user/dialog/json/finn").await;
    assert_eq!(
        dialog["dialog"].as_array().unwrap().len(),
        2,
        "only the answered exchange is stored: {dialog}"
    );

    // A model endpoint that refuses connections, with a custom default response and a new user.
    let port = crate::common::server::free_port();
    let down = Server::start(&[
        ("MODEL_URL", &format!("http://127.0.0.1:{port}/path/")),
        ("DEFAULT_RESPONSE", "Back soon!"),
    ])
    .await;
    let r = down
        .client
        .post(down.chat_url("/path"))
        .form(&[("user_id", "gus"), ("message", "Hi")])
        .send()
        .await
        .unwrap();
    assert_eq!(r.text().await.unwrap(), "Back soon!");
    let api = Api::new(&down, None);
    assert_eq!(api.get("/v1/user/id/gus").await.1["exists"], true);
    assert_eq!(api.get("/v1/user/dialog/json/gus").await.1["dialog"], json!([]));
}

#[tokio::test(flavor = "multi_thread")]
async fn bad_chat_input_gets_json_errors() {
    let (server, model) = server_with_model().await;
    let api = Api::new(&server, None);
    let cases = [
        (json!({"message": "no user"}), 422),
        (json!({"user_id": "hal"}), 422),
        (json!({"user_id": "hal", "message": 42}), 422),
        (json!({"user_id": "", "message": "x"}), 422),
        (json!({"user_id": "a/b", "message": "x"}), 422),
        (json!({"user_id": "tab\tid", "message": "x"}), 422),
        (json!({"user_id": "x".repeat(257), "message": "x"}), 422),
        (json!({"user_id": "hal", "message": "   "}), 422),
        (json!({"user_id": "hal", "message": "m".repeat(4001)}), 422),
        (json!({"user_id": "hal", "message": "x", "from_name": "n".repeat(101)}), 422),
        (json!({"user_id": "hal", "message": "x", "to_name": ""}), 422),
    ];
    for (body, expected) in cases {
        let (status, response) = api.waifu(body.clone()).await;
        assert_error(status, &response, expected);
    }
    assert!(model.inputs().is_empty(), "no invalid request reaches the model");
    let r = server
        .client
        .post(server.chat_url("/v1/waifu"))
        .header("content-type", "application/json")
        .body("{oops")
        .send()
        .await
        .unwrap();
    assert_error(r.status().as_u16(), &r.json().await.unwrap(), 400);
    let r = server
        .client
        .post(server.chat_url("/path"))
        .json(&json!({"user_id": "x", "message": "y"}))
        .send()
        .await
        .unwrap();
    assert_error(r.status().as_u16(), &r.json().await.unwrap(), 415);
    let r = server.client.post(server.chat_url("/path")).form(&[("user_id", "x")]).send().await.unwrap();
    assert_error(r.status().as_u16(), &r.json().await.unwrap(), 422);
    for path in ["/v1/user/id/", "/v1/user/dialog/json/", "/v1/user/id/a%2Fb", "/v1/user/id/%00"] {
        let (status, body) = api.get(path).await;
        assert!(matches!(status, 400 | 422), "{path}: {status} {body}");
        assert!(body["error"]["code"].is_string(), "{path}: {body}");
    }
    let r = server
        .client
        .get(server.chat_url("/v1/user/id/ok"))
        .header("current-user", "x".repeat(300))
        .send()
        .await
        .unwrap();
    assert_error(r.status().as_u16(), &r.json().await.unwrap(), 400);
}

#[tokio::test(flavor = "multi_thread")]
async fn clients_never_see_each_others_data() {
    let (server, _model) = server_with_model().await;
    let a = Api::new(&server, Some("client-a"));
    let b = Api::new(&server, Some("client-b"));
    let default = Api::new(&server, None);
    a.waifu(json!({"user_id": "shared", "message": "from a"})).await;
    a.put("/v1/user/id/only-a", None).await;

    // Reads: b and the default client see nothing of a's users.
    for other in [&b, &default] {
        assert_eq!(other.get("/v1/user/id/shared").await.1["exists"], false);
        assert_eq!(other.get("/v1/user/metadata/shared").await.0, 404);
        assert_eq!(other.get("/v1/user/all/count").await.1["user_count"], 0);
        assert_eq!(other.get("/v1/user/all/id/0").await.1["users"], json!([]));
        assert_eq!(other.get("/v1/user/dialog/json/shared").await.0, 404);
        assert_eq!(other.get("/v1/user/dialog/str/shared").await.0, 404);
    }
    // Writes: b's changes to "shared" touch only b's own user of that name.
    b.waifu(json!({"user_id": "shared", "message": "from b"})).await;
    assert_eq!(
        b.put(
            "/v1/user/dialog/json/shared",
            Some(json!({"dialog": [{"index": 0, "name": "B", "message": "b only"}]}))
        )
        .await
        .0,
        200
    );
    assert_eq!(b.delete("/v1/user/dialog/shared").await.0, 200);
    assert_eq!(b.delete("/v1/user/id/shared").await.0, 200);
    assert_eq!(b.delete("/v1/user/id/only-a").await.0, 404);
    assert_eq!(b.delete("/v1/user/dialog/only-a").await.0, 404);
    assert_eq!(b.put("/v1/user/dialog/json/only-a", Some(json!({"dialog": []}))).await.0, 404);

    let (_, dialog) = a.get("/v1/user/dialog/json/shared").await;
    assert_eq!(dialog["dialog"][0]["message"], "from a", "a's dialog is untouched: {dialog}");
    assert_eq!(dialog["dialog"].as_array().unwrap().len(), 2);
    assert_eq!(a.get("/v1/user/all/count").await.1["user_count"], 2);
    assert_eq!(a.get("/v1/user/id/only-a").await.1["exists"], true);
    assert_eq!(b.get("/v1/user/all/count").await.1["user_count"], 0);
}

#[tokio::test(flavor = "multi_thread")]
async fn concurrent_chats_of_one_user_keep_indices_contiguous() {
    let (server, _model) = server_with_model().await;
    let mut tasks = Vec::new();
    for i in 0..24 {
        let client = server.client.clone();
        let url = server.chat_url("/v1/waifu");
        tasks.push(tokio::spawn(async move {
            client
                .post(url)
                .json(&json!({"user_id": "busy", "message": format!("m{i}")}))
                .send()
                .await
                .unwrap()
                .status()
                .as_u16()
        }));
    }
    for t in tasks {
        assert_eq!(t.await.unwrap(), 200);
    }
    let (_, dialog) = Api::new(&server, None).get("/v1/user/dialog/json/busy").await;
    let entries = dialog["dialog"].as_array().unwrap();
    assert_eq!(entries.len(), 48);
    for (i, e) in entries.iter().enumerate() {
        assert_eq!(e["index"], i);
        assert_eq!(
            e["name"],
            if i % 2 == 0 { "User" } else { "Waifu" },
            "an exchange is never split: {dialog}"
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_sigkill_loses_no_acknowledged_exchange() {
    let model = FakeFormModel::start().await;
    let home = tempfile::tempdir().unwrap();
    let db = home.path().join("dialogs.db");
    let env = [("MODEL_URL", model.url())];
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let mut server = Server::start_in(home, &env, &[]).await;
    let url = server.chat_url("/v1/waifu");
    let acknowledged = std::sync::Arc::new(std::sync::Mutex::new(Vec::<(String, String)>::new()));
    let mut load = Vec::new();
    for worker in 0..8 {
        let (client, url, acknowledged) = (server.client.clone(), url.clone(), acknowledged.clone());
        load.push(tokio::spawn(async move {
            for i in 0.. {
                let message = format!("w{worker}-m{i}");
                let user = format!("user{}", worker % 3);
                let sent = client.post(&url).json(&json!({"user_id": user, "message": message})).send().await;
                match sent {
                    Ok(r) if r.status().is_success() => {
                        if r.json::<Value>().await.is_ok() {
                            acknowledged.lock().unwrap().push((user, message));
                        }
                    }
                    _ => return,
                }
            }
        }));
    }
    tokio::time::sleep(Duration::from_millis(1500)).await;
    server.kill();
    for t in load {
        let _ = t.await;
    }
    let acknowledged = acknowledged.lock().unwrap().clone();
    assert!(acknowledged.len() > 10, "the load should have made progress before the kill");

    let home = std::mem::replace(&mut server.home, tempfile::tempdir().unwrap());
    drop(server);
    let restarted = Server::start_in(home, &env, &[]).await;
    assert!(db.exists());
    let api = Api::new(&restarted, None);
    let mut stored: HashMap<String, Vec<Value>> = HashMap::new();
    for user in ["user0", "user1", "user2"] {
        let (_, dialog) = api.get(&format!("/v1/user/dialog/json/{user}")).await;
        let entries = dialog["dialog"].as_array().cloned().unwrap_or_default();
        for (i, e) in entries.iter().enumerate() {
            assert_eq!(e["index"], i, "indices stay contiguous after the crash");
        }
        stored.insert(user.to_owned(), entries);
    }
    for (user, message) in acknowledged {
        let found = stored[&user].iter().any(|e| e["message"] == message.as_str());
        assert!(found, "the acknowledged exchange {message} of {user} was lost");
    }
}

/// The original service's clients send `POST /path?message=…&user_id=…` with the fields in the query
/// string; they are read there as well as from a form body, and a field in both takes the query's.
#[tokio::test(flavor = "multi_thread")]
async fn the_form_chat_reads_the_query_string_as_the_original_did() {
    let model = FakeFormModel::start().await;
    let server = Server::start(&[("MODEL_URL", &model.url())]).await;
    let r = server.client.post(server.chat_url("/path?message=Hello&user_id=u1")).send().await.unwrap();
    assert_eq!(r.status().as_u16(), 200);
    assert!(r.text().await.unwrap().starts_with("Reply"));
    let r = server
        .client
        .post(server.chat_url("/path?user_id=u1&message=from%20the%20query"))
        .header("content-type", "application/x-www-form-urlencoded")
        .body("message=from+the+body&to_name=Ann")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 200);
    let dialog: serde_json::Value = server
        .client
        .get(server.chat_url("/v1/user/dialog/json/u1"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let lines: Vec<(&str, &str)> = dialog["dialog"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["name"].as_str().unwrap(), e["message"].as_str().unwrap()))
        .collect();
    assert_eq!(lines[0], ("User", "Hello"));
    assert_eq!(lines[2], ("User", "from the query"), "the query string wins");
    assert_eq!(lines[3].0, "Ann", "a field only in the body is read from it");
    let r = server.client.post(server.chat_url("/path?user_id=u1")).send().await.unwrap();
    assert_eq!(r.status().as_u16(), 422, "no message anywhere");
    // A body that is a bare word is text, not a form, even when the query has every field.
    let r = server
        .client
        .post(server.chat_url("/path?user_id=u1&message=Hi"))
        .header("content-type", "application/x-www-form-urlencoded")
        .body("AAA")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 400);
    let body: serde_json::Value = r.json().await.unwrap();
    assert_eq!(body["error"]["code"], "invalid_form", "{body}");
}

/// Once the chats stop, the store's write-ahead log is truncated: the idle job runner, which asks for
/// work every half second, does not keep the store from ever looking idle (it asked through the
/// writer, committing an empty transaction each time, and the log stayed at its peak).
#[tokio::test(flavor = "multi_thread")]
async fn an_idle_server_truncates_its_log() {
    let model = FakeFormModel::start().await;
    let home = tempfile::tempdir().unwrap();
    let wal = home.path().join("dialogs.db-wal");
    let env = [("MODEL_URL", model.url())];
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let server = Server::start_in(home, &env, &[]).await;
    let url = server.chat_url("/v1/waifu");
    let chats = (0..40).map(|i| {
        let body = json!({"user_id": format!("user{}", i % 4), "message": format!("message {i}")});
        server.client.post(&url).json(&body).send()
    });
    for answer in futures::future::join_all(chats).await {
        assert!(answer.unwrap().status().is_success());
    }
    assert!(wal.metadata().is_ok_and(|m| m.len() > 0), "the chats were written to the log");
    let started = std::time::Instant::now();
    while wal.metadata().map(|m| m.len()).unwrap_or(0) > 0 {
        assert!(started.elapsed() < Duration::from_secs(10), "the log was not truncated once idle");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}
