//! Input limits on every surface that reaches a chat model or a provider, against local upstreams
//! that record what they are sent: the chat's (`[chat] max_message_chars`, `max_situation_chars`,
//! `max_history_entries`) on the chat API and the OpenAI-compatible surface, whole and streamed,
//! storing dialogs or not, and on the library's `reply_stream`; the paraphrase's (`[paraphrase]
//! max_text_chars`) on a paraphrase, candidates, a batch, a job, the CLI's batch and the library's
//! batch. Each refusal comes before any upstream call.

use crate::common::server::Server;
use crate::common::upstream::{FakeOpenAi, FakeStreamingOpenAi};
use crate::common::{self};
use parlance::config::Env;
use parlance::plugins::api::{ChatRequest, HistoryEntry};
use parlance::{Error, Parlance};
use serde_json::{Value, json};
use std::time::Duration;

/// The message of issue 43: 500 times `[chat] max_message_chars`.
const HUGE: usize = 2_000_000;

/// The real binary with `openai-chat` on `upstream` as its chat model, dialogs of at most 6 entries,
/// and `extra` in its configuration.
async fn chat_server(upstream: &FakeStreamingOpenAi, extra: &str) -> Server {
    let home = common::home_with_config(&format!(
        "[chat]\nmodel = \"openai-chat\"\nmax_history_entries = 6\n\n{extra}"
    ));
    let base = upstream.base_url();
    let env = [("PROVIDER_API_KEY", "sk-test"), ("PARLANCE_PLUGIN_OPENAI_CHAT_BASE_URL", base.as_str())];
    Server::start_in(home, &env, &["--config", "parlance.toml"]).await
}

async fn post(server: &Server, url: String, body: &Value, client: Option<&str>) -> (u16, Value) {
    let mut request = server.client.post(url).json(body);
    if let Some(client) = client {
        request = request.header("current-user", client);
    }
    let response = request.send().await.unwrap();
    (response.status().as_u16(), response.json().await.unwrap_or(Value::Null))
}

fn completion(stream: bool, messages: Value) -> Value {
    json!({"model": "openai-chat", "stream": stream, "messages": messages})
}

/// An OpenAI error body: its status, code and param, its type checked.
fn openai_error((status, body): (u16, Value)) -> (u16, String, String) {
    let error = &body["error"];
    assert_eq!(error["type"], "invalid_request_error", "{body}");
    let text = |v: &Value| v.as_str().unwrap_or_default().to_owned();
    (status, text(&error["code"]), text(&error["param"]))
}

fn requests(upstream: &FakeStreamingOpenAi) -> usize {
    upstream.requests.lock().unwrap().len()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_chat_models_limits_hold_on_every_surface_before_any_upstream_call() {
    let upstream = FakeStreamingOpenAi::start(3, Duration::from_millis(5)).await;
    let server = chat_server(&upstream, "").await;
    let completions = || server.url("/v1/chat/completions");
    let huge = "x".repeat(HUGE);
    let said = |role: &str, content: &str| json!({"role": role, "content": content});
    for stream in [false, true] {
        // The message of issue 43, with `store_dialogs` off: refused as OpenAI refuses a string too long.
        let (status, body) =
            post(&server, completions(), &completion(stream, json!([said("user", &huge)])), None).await;
        assert_eq!(
            body["error"]["message"],
            format!(
                "`messages[0].content` has {HUGE} characters; the limit is 4000 ([chat] max_message_chars)"
            )
        );
        assert_eq!(
            openai_error((status, body)),
            (400, "string_above_max_length".into(), "messages[0].content".into())
        );
        // The system messages are the situation: joined, they are held to its limit.
        let system = json!([
            said("system", &"s".repeat(1500)),
            said("developer", &"s".repeat(600)),
            said("user", "Hi")
        ]);
        let refused = post(&server, completions(), &completion(stream, system), None).await;
        assert_eq!(openai_error(refused), (400, "string_above_max_length".into(), "messages".into()));
        // An earlier message of the user's is held to what a dialog's entry is.
        let earlier =
            json!([said("user", "Hi"), said("assistant", "Hello"), said("user", &huge), said("user", "So?")]);
        let refused = post(&server, completions(), &completion(stream, earlier), None).await;
        assert_eq!(
            openai_error(refused),
            (400, "string_above_max_length".into(), "messages[2].content".into())
        );
        // Six earlier messages, the last and the reply would make 8 entries of a dialog; 6 may be.
        let mut long: Vec<Value> =
            (0..6).map(|i| said(if i % 2 == 0 { "user" } else { "assistant" }, "a")).collect();
        long.push(said("user", "b"));
        let refused = post(&server, completions(), &completion(stream, Value::Array(long)), None).await;
        assert_eq!(openai_error(refused), (400, "array_above_max_length".into(), "messages".into()));

        // The chat API, whole and streamed: the same limits, in its own shape.
        for body in [
            json!({"user_id": "ann", "message": huge, "stream": stream}),
            json!({"user_id": "ann", "message": "Hi", "situation": "s".repeat(2001), "stream": stream}),
        ] {
            let (status, refused) = post(&server, server.chat_url("/v1/waifu"), &body, None).await;
            assert_eq!(
                (status, refused["error"]["code"].as_str()),
                (422, Some("invalid_input")),
                "{refused}"
            );
        }
    }
    assert_eq!(requests(&upstream), 0, "nothing reached the upstream");

    // Within the limits, the same requests reach it.
    let within = completion(false, json!([said("system", "Be brief."), said("user", &"x".repeat(4000))]));
    let (status, body) = post(&server, completions(), &within, None).await;
    assert_eq!(status, 200, "{body}");
    let (status, body) =
        post(&server, server.chat_url("/v1/waifu"), &json!({"user_id": "ann", "message": "Hi"}), None).await;
    assert_eq!(
        (status, body["response"].as_str().map(str::trim)),
        (200, Some("word0 word1 word2")),
        "{body}"
    );
    assert_eq!(requests(&upstream), 2);

    // The character's earlier replies are the model's own words, stored by a chat whatever their
    // length: a client that replays a long one is not refused on its next turn.
    let replayed = completion(
        false,
        json!([said("user", "Hi"), said("assistant", &"y".repeat(9000)), said("user", "So?")]),
    );
    let (status, body) = post(&server, completions(), &replayed, None).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(requests(&upstream), 3);
}

#[tokio::test(flavor = "multi_thread")]
async fn storing_a_dialog_or_not_a_completion_meets_the_same_limits() {
    let upstream = FakeStreamingOpenAi::start(3, Duration::from_millis(5)).await;
    let server = chat_server(&upstream, "[openai]\nstore_dialogs = true\n").await;
    let huge = "x".repeat(HUGE);
    for stream in [false, true] {
        for user in [Some("ann"), None] {
            let mut body = completion(stream, json!([{"role": "user", "content": huge}]));
            if let Some(user) = user {
                body["user"] = json!(user);
            }
            let refused = post(&server, server.url("/v1/chat/completions"), &body, Some("acme")).await;
            assert_eq!(
                openai_error(refused),
                (400, "string_above_max_length".into(), "messages[0].content".into()),
                "{user:?}"
            );
        }
    }
    assert_eq!(requests(&upstream), 0, "nothing reached the upstream");
    let dialog =
        server.client.get(server.chat_url("/v1/user/dialog/json/ann")).header("current-user", "acme");
    assert_eq!(dialog.send().await.unwrap().status(), 404, "no user was created");

    // Within the limits, the exchange is stored.
    let body =
        json!({"model": "openai-chat", "user": "ann", "messages": [{"role": "user", "content": "Hi"}]});
    let (status, answer) = post(&server, server.url("/v1/chat/completions"), &body, Some("acme")).await;
    assert_eq!(status, 200, "{answer}");
    let dialog =
        server.client.get(server.chat_url("/v1/user/dialog/json/ann")).header("current-user", "acme");
    let stored: Value = dialog.send().await.unwrap().json().await.unwrap();
    assert_eq!(stored["dialog"].as_array().map(Vec::len), Some(2), "{stored}");
}

fn library_env(home: &std::path::Path) -> Env {
    Env::empty()
        .with("HOME", home.to_str().unwrap())
        .with("CACHE_TYPE", "memory")
        .with("PARLANCE_CACHE_DIR", common::compile_cache_dir().to_str().unwrap())
}

#[tokio::test(flavor = "multi_thread")]
async fn the_librarys_reply_stream_meets_the_chats_limits() {
    let upstream = FakeStreamingOpenAi::start(3, Duration::from_millis(5)).await;
    let home = common::home_with_config("[chat]\nmodel = \"openai-chat\"\n");
    let env = library_env(home.path())
        .with("PROVIDER_API_KEY", "sk-test")
        .with("PARLANCE_PLUGIN_OPENAI_CHAT_BASE_URL", &upstream.base_url());
    let file = home.path().join("parlance.toml");
    let parlance = Parlance::builder().env(env).config_file(&file).without_chat().build().await.unwrap();
    let huge = "x".repeat(HUGE);
    let request = |message: &str, history: Vec<HistoryEntry<'static>>| ChatRequest {
        history,
        message: message.to_owned(),
        from_name: "User".into(),
        to_name: "Waifu".into(),
        situation: None,
        genre: "Romance".into(),
    };
    let refused = |request: ChatRequest<'static>| {
        let parlance = parlance.clone();
        async move { parlance.reply_stream(None, &request, &Default::default()).await.err() }
    };
    let Some(Error::InvalidInput { field, message }) = refused(request(&huge, vec![])).await else {
        panic!("a message of {HUGE} characters was not refused")
    };
    assert_eq!(field, "message");
    assert!(message.contains("the limit is 4000 ([chat] max_message_chars)"), "{message}");
    // The caller writes the history: the user's entries are held to what a dialog written whole is
    // (the character's own replies are not held to the message length, as the completions test shows).
    let leaked: &'static str = Box::leak(huge.clone().into_boxed_str());
    let history = vec![HistoryEntry { index: 0, name: "User", message: leaked }];
    let Some(Error::InvalidInput { field, message }) = refused(request("Hi", history)).await else {
        panic!("a history entry of {HUGE} characters was not refused")
    };
    assert_eq!(field, "history");
    assert!(message.starts_with("history entry 0: `message` has 2000000 characters"), "{message}");
    assert_eq!(requests(&upstream), 0, "nothing reached the upstream");

    let ok = request("Hi", vec![HistoryEntry { index: 0, name: "Waifu", message: "Hello" }]);
    let deltas = parlance.reply_stream(None, &ok, &Default::default()).await.unwrap();
    let reply: Vec<_> = futures::StreamExt::collect::<Vec<_>>(deltas).await;
    assert!(reply.iter().all(Result::is_ok) && !reply.is_empty());
    assert_eq!(requests(&upstream), 1);
}

/// Every paraphrase surface with `[paraphrase] max_text_chars = 100`, in front of an OpenAI-protocol
/// provider: a text of 101 characters is refused (alone, in a batch or a job) and never sent.
#[tokio::test(flavor = "multi_thread")]
async fn a_providers_text_limit_holds_on_every_paraphrase_surface() {
    let upstream = FakeOpenAi::start("A paraphrase.").await;
    let config = "[paraphrase]\nmax_text_chars = 100\n";
    let base = upstream.base_url();
    let env = [
        ("PROVIDER_API_KEY", "sk-test"),
        ("PARLANCE_PLUGIN_OPENROUTER_BASE_URL", base.as_str()),
        ("RATE_LIMIT_REQUESTS_PER_MINUTE", "100000"),
    ];
    let server = Server::start_in(common::home_with_config(config), &env, &[]).await;
    let long = format!("{}.", "word ".repeat(20)); // 101 characters
    let short = "The weather is nice today.";
    let code = |v: &Value| v["error"]["code"].as_str().unwrap_or_default().to_owned();

    for candidates in [None, Some(2)] {
        let with = |mut body: Value| {
            if let Some(n) = candidates {
                body["candidates"] = json!(n);
            }
            body
        };
        let body = with(json!({"text": long}));
        let (status, body) = post(&server, server.url("/paraphrase"), &body, None).await;
        assert_eq!((status, code(&body)), (422, "invalid_input".into()), "{body}");
        // A batch: the long text fails alone.
        let body = with(json!({"texts": [long, short]}));
        let (status, batch) = post(&server, server.url("/paraphrase/batch"), &body, None).await;
        assert_eq!(status, 200, "{batch}");
        assert_eq!(code(&batch["results"][0]), "invalid_input", "{batch}");
        assert!(batch["results"][1]["paraphrase"].is_string(), "{batch}");
    }
    // A job: so does its item.
    let body = json!({"texts": [long, short]});
    let (status, job) = post(&server, server.url("/paraphrase/batch/async"), &body, Some("acme")).await;
    assert_eq!(status, 202, "{job}");
    let done = server.job_completed(&job, Some("acme"), Duration::from_secs(30)).await;
    assert_eq!((done["successful"].as_u64(), done["failed"].as_u64()), (Some(1), Some(1)), "{done}");
    assert_eq!(
        (done["errors"][0]["index"].as_u64(), code(&done["errors"][0])),
        (Some(0), "invalid_input".into())
    );

    // The CLI's batch, reading the same configuration.
    let home = common::home_with_config(config);
    std::fs::write(home.path().join("texts.txt"), format!("{long}\n{short}\n")).unwrap();
    let mut command = common::command(home.path());
    command.envs(env).args(["--mode", "batch", "--batch_input", "texts.txt", "--batch_output", "out.jsonl"]);
    let out = tokio::task::spawn_blocking(move || command.output().unwrap()).await.unwrap();
    let written = std::fs::read_to_string(home.path().join("out.jsonl")).unwrap_or_default();
    let rows: Vec<Value> = written.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(rows.len(), 2, "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!((rows[0]["line"].as_u64(), code(&rows[0])), (Some(1), "invalid_input".into()), "{written}");
    assert!(rows[1]["paraphrase"].is_string(), "{written}");

    // The library's batch, unbounded in count but not in length.
    let env = library_env(home.path())
        .with("PROVIDER_API_KEY", "sk-test")
        .with("PARLANCE_PLUGIN_OPENROUTER_BASE_URL", &base);
    let file = home.path().join("parlance.toml");
    let parlance = Parlance::builder().env(env).config_file(&file).without_chat().build().await.unwrap();
    let results = parlance.paraphrase_batch(vec![long.clone(), short.to_owned()]).await.unwrap();
    assert!(matches!(&results[0], Err(Error::InvalidInput { field: "text", .. })), "{:?}", results[0]);
    assert!(results[1].is_ok(), "{:?}", results[1]);

    let seen = upstream.requests();
    assert!(!seen.is_empty());
    assert!(seen.iter().all(|s| !s.body.to_string().contains(&long)), "the long text reached the upstream");
}
