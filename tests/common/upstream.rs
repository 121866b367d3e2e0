//! Upstreams played by small local servers speaking the real protocols over loopback.

use axum::Router;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Serves `router` on a free loopback port until the test ends.
pub async fn serve(router: Router) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    addr
}

/// What an upstream saw.
#[derive(Clone, Debug, Default)]
pub struct Seen {
    pub authorization: Option<String>,
    /// The W3C trace context the request carried.
    pub traceparent: Option<String>,
    pub body: Value,
}

impl Seen {
    fn of(headers: &HeaderMap, body: Value) -> Seen {
        let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok()).map(str::to_owned);
        Seen { authorization: header("authorization"), traceparent: header("traceparent"), body }
    }
}

/// An OpenAI chat-completions server. The requested model picks the behaviour: `fail-401`,
/// `fail-429` (with Retry-After: 7), `fail-503`, `slow` (answers after 3 s), `html` (an HTML error
/// page with status 200), `garbage` (invalid JSON), `in-band-401` (status 200 with an error object);
/// `flaky-429` (429 with Retry-After: 1 on every other request, starting with the first), `echo-200ms`
/// (answers after 200 ms with `reply` and the prompt it was sent), `no-n` (refuses `n` with a 400,
/// and answers `reply (seed S)` to a request with a `seed`); any other model answers with `reply` and
/// echoes the model, with `n` choices `reply (1)`, `reply (2)`, … when it asks for more than one. `GET /v1/models` lists `gpt-4o-mini` and
/// `deepseek/deepseek-chat-v3-0324:free` to a caller with a bearer key other than `sk-revoked`.
pub struct FakeOpenAi {
    pub addr: SocketAddr,
    pub seen: Arc<Mutex<Vec<Seen>>>,
    scheme: &'static str,
}

impl FakeOpenAi {
    pub async fn start(reply: &'static str) -> FakeOpenAi {
        let (router, seen) = FakeOpenAi::router(reply);
        FakeOpenAi { addr: serve(router).await, seen, scheme: "http" }
    }

    /// The same server over HTTPS, with a certificate signed by `ca`.
    pub async fn start_tls(reply: &'static str, ca: &TestCa) -> FakeOpenAi {
        let (router, seen) = FakeOpenAi::router(reply);
        FakeOpenAi { addr: ca.serve(router).await, seen, scheme: "https" }
    }

    fn router(reply: &'static str) -> (Router, Arc<Mutex<Vec<Seen>>>) {
        let seen: Arc<Mutex<Vec<Seen>>> = Arc::default();
        let router = Router::new()
            .route("/v1/chat/completions", post(chat_completions))
            .route("/v1/models", axum::routing::get(openai_models))
            .with_state((seen.clone(), reply));
        (router, seen)
    }

    pub fn base_url(&self) -> String {
        format!("{}://{}/v1", self.scheme, self.addr)
    }

    pub fn requests(&self) -> Vec<Seen> {
        self.seen.lock().unwrap().clone()
    }
}

async fn chat_completions(
    State((seen, reply)): State<(Arc<Mutex<Vec<Seen>>>, &'static str)>,
    headers: HeaderMap,
    body: String,
) -> Response {
    let body: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
    let count = {
        let mut seen = seen.lock().unwrap();
        seen.push(Seen::of(&headers, body.clone()));
        seen.len()
    };
    let model = body["model"].as_str().unwrap_or_default().to_owned();
    let error = |status: StatusCode, message: &str| {
        (status, axum::Json(json!({"error": {"message": message, "type": "error", "code": status.as_u16()}})))
            .into_response()
    };
    match model.as_str() {
        "fail-401" => error(StatusCode::UNAUTHORIZED, "Incorrect API key provided"),
        "fail-429" => {
            let mut r = error(StatusCode::TOO_MANY_REQUESTS, "Rate limit reached");
            r.headers_mut().insert("retry-after", "7".parse().unwrap());
            r
        }
        "flaky-429" if count % 2 == 1 => {
            let mut r = error(StatusCode::TOO_MANY_REQUESTS, "Slow down");
            r.headers_mut().insert("retry-after", "1".parse().unwrap());
            r
        }
        "fail-503" => error(StatusCode::SERVICE_UNAVAILABLE, "The server is overloaded"),
        "slow" => {
            tokio::time::sleep(Duration::from_secs(3)).await;
            completion(&model, reply)
        }
        "echo-200ms" => {
            tokio::time::sleep(Duration::from_millis(200)).await;
            let prompt = body["messages"].as_array().and_then(|m| m.last()).map(|m| m["content"].clone());
            completion(
                &model,
                &format!(
                    "{reply} {}",
                    prompt.and_then(|c| c.as_str().map(str::to_owned)).unwrap_or_default()
                ),
            )
        }
        "html" => ([("content-type", "text/html")], "<html><body><h1>502 Bad Gateway</h1></body></html>")
            .into_response(),
        "garbage" => ([("content-type", "application/json")], "{\"choices\": [{\"mess").into_response(),
        "in-band-401" => {
            axum::Json(json!({"error": {"message": "User not found.", "code": 401}})).into_response()
        }
        "no-n" if body.get("n").is_some() => error(StatusCode::BAD_REQUEST, "`n` is not supported"),
        "no-n" => match body["seed"].as_i64() {
            Some(seed) => completion(&model, &format!("{reply} (seed {seed})")),
            None => completion(&model, reply),
        },
        _ => match body["n"].as_u64().filter(|n| *n > 1) {
            Some(n) => {
                let texts: Vec<String> = (1..=n).map(|i| format!("{reply} ({i})")).collect();
                completion_of(&model, &texts)
            }
            None => completion(&model, reply),
        },
    }
}

async fn openai_models(headers: HeaderMap) -> Response {
    match headers.get("authorization").and_then(|v| v.to_str().ok()) {
        Some(key) if key.starts_with("Bearer ") && key != "Bearer sk-revoked" => axum::Json(json!({
            "object": "list",
            "data": [
                {"id": "gpt-4o-mini", "object": "model", "owned_by": "openai"},
                {"id": "deepseek/deepseek-chat-v3-0324:free", "object": "model", "owned_by": "deepseek"},
            ]
        }))
        .into_response(),
        _ => (
            StatusCode::UNAUTHORIZED,
            axum::Json(
                json!({"error": {"message": "Incorrect API key provided", "code": "invalid_api_key"}}),
            ),
        )
            .into_response(),
    }
}

fn completion(model: &str, reply: &str) -> Response {
    completion_of(model, &[reply.to_owned()])
}

/// A completion with one choice per text.
fn completion_of(model: &str, texts: &[String]) -> Response {
    let choices: Vec<Value> = texts
        .iter()
        .enumerate()
        .map(|(i, text)| json!({"index": i, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}))
        .collect();
    axum::Json(json!({
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "created": 1_700_000_000,
        "model": model,
        "choices": choices,
        "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
    }))
    .into_response()
}

/// The original service's model endpoint: a form-encoded POST with one field, `input`, answered with the
/// reply as plain text. The prompt picks the behaviour: a message containing `FAIL500`, `HTML`,
/// `GARBAGE` or `SLOW` makes it fail that way; otherwise it answers `Reply <n>` (n counts requests).
pub struct FakeFormModel {
    pub addr: SocketAddr,
    pub inputs: Arc<Mutex<Vec<String>>>,
}

impl FakeFormModel {
    pub async fn start() -> FakeFormModel {
        let inputs: Arc<Mutex<Vec<String>>> = Arc::default();
        let router = Router::new().route("/path/", post(form_model)).with_state(inputs.clone());
        FakeFormModel { addr: serve(router).await, inputs }
    }

    pub fn url(&self) -> String {
        format!("http://{}/path/", self.addr)
    }

    pub fn inputs(&self) -> Vec<String> {
        self.inputs.lock().unwrap().clone()
    }
}

async fn form_model(
    State(inputs): State<Arc<Mutex<Vec<String>>>>,
    axum::Form(form): axum::Form<std::collections::HashMap<String, String>>,
) -> Response {
    let input = form.get("input").cloned().unwrap_or_default();
    let n = {
        let mut inputs = inputs.lock().unwrap();
        inputs.push(input.clone());
        inputs.len()
    };
    // Judge by the newest user line, which sits just before the open quote of the reply.
    let last = input.rsplit(" said: \"").nth(1).unwrap_or(&input);
    if last.contains("FAIL500") {
        (StatusCode::INTERNAL_SERVER_ERROR, "internal error").into_response()
    } else if last.contains("HTML") {
        ([("content-type", "text/html")], "<!DOCTYPE html><html><body>502 Bad Gateway</body></html>")
            .into_response()
    } else if last.contains("GARBAGE") {
        ([("content-type", "application/octet-stream")], vec![0xffu8, 0xfe, 0x00, 0x01]).into_response()
    } else if last.contains("SLOW") {
        tokio::time::sleep(Duration::from_secs(5)).await;
        "too late".into_response()
    } else {
        ([("content-type", "text/plain")], format!("Reply {n}")).into_response()
    }
}

/// Google's Gemini `generateContent` endpoint. The model in the path picks the behaviour: `quota` (429
/// with a RetryInfo of 13 s), `bad-key` (400 INVALID_ARGUMENT about the API key), `blocked` (a prompt
/// blocked for safety); any other model answers `reply` in two parts. `GET /v1beta/models/<model>`
/// describes `gemini-2.0-flash` and answers 404 NOT_FOUND for any other model, and 400 about the key
/// to the key `bad-key`.
pub struct FakeGemini {
    pub addr: SocketAddr,
    pub seen: Arc<Mutex<Vec<GeminiCall>>>,
}

/// One request the Gemini fake received.
#[derive(Clone, Debug)]
pub struct GeminiCall {
    pub api_key: Option<String>,
    /// The last path segment, `<model>:generateContent`.
    pub action: String,
    pub body: Value,
}

impl FakeGemini {
    pub async fn start(reply: &'static str) -> FakeGemini {
        let seen: Arc<Mutex<Vec<GeminiCall>>> = Arc::default();
        let router = Router::new()
            .route("/v1beta/models/{action}", post(gemini).get(gemini_model))
            .with_state((seen.clone(), reply));
        FakeGemini { addr: serve(router).await, seen }
    }

    pub fn base_url(&self) -> String {
        format!("http://{}/v1beta", self.addr)
    }
}

async fn gemini_model(
    axum::extract::Path(model): axum::extract::Path<String>,
    headers: HeaderMap,
) -> Response {
    let error = |status: StatusCode, grpc: &str, message: String| {
        (status, axum::Json(json!({"error": {"code": status.as_u16(), "message": message, "status": grpc}})))
            .into_response()
    };
    match headers.get("x-goog-api-key").and_then(|v| v.to_str().ok()) {
        None | Some("bad-key") => error(
            StatusCode::BAD_REQUEST,
            "INVALID_ARGUMENT",
            "API key not valid. Please pass a valid API key.".into(),
        ),
        _ if model == "gemini-2.0-flash" => axum::Json(json!({
            "name": "models/gemini-2.0-flash",
            "displayName": "Gemini 2.0 Flash",
            "supportedGenerationMethods": ["generateContent", "countTokens"],
        }))
        .into_response(),
        _ => error(
            StatusCode::NOT_FOUND,
            "NOT_FOUND",
            format!("models/{model} is not found for API version v1beta"),
        ),
    }
}

async fn gemini(
    State((seen, reply)): State<(Arc<Mutex<Vec<GeminiCall>>>, &'static str)>,
    axum::extract::Path(action): axum::extract::Path<String>,
    headers: HeaderMap,
    body: String,
) -> Response {
    let key = headers.get("x-goog-api-key").and_then(|v| v.to_str().ok()).map(str::to_owned);
    let body: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
    seen.lock().unwrap().push(GeminiCall { api_key: key, action: action.clone(), body });
    let Some(model) = action.strip_suffix(":generateContent") else {
        return (StatusCode::NOT_FOUND, "unknown action").into_response();
    };
    let error = |status: StatusCode, grpc: &str, message: &str, details: Value| {
        (status, axum::Json(json!({"error": {"code": status.as_u16(), "message": message, "status": grpc, "details": details}}))).into_response()
    };
    match model {
        "quota" => error(
            StatusCode::TOO_MANY_REQUESTS,
            "RESOURCE_EXHAUSTED",
            "Quota exceeded",
            json!([{"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "13s"}]),
        ),
        "bad-key" => error(
            StatusCode::BAD_REQUEST,
            "INVALID_ARGUMENT",
            "API key not valid. Please pass a valid API key.",
            json!([]),
        ),
        "blocked" => axum::Json(json!({"promptFeedback": {"blockReason": "SAFETY"}})).into_response(),
        _ => {
            // `generationConfig.candidateCount` asks for more: `reply (2)`, `reply (3)`, … after the first.
            let (first, second) = reply.split_at(reply.len() / 2);
            let mut candidates = vec![
                json!({"content": {"role": "model", "parts": [{"text": first}, {"text": second}]}, "finishReason": "STOP"}),
            ];
            let count = seen
                .lock()
                .unwrap()
                .last()
                .and_then(|c| c.body["generationConfig"]["candidateCount"].as_u64());
            for i in 2..=count.unwrap_or(1) {
                candidates.push(json!({"content": {"role": "model", "parts": [{"text": format!("{reply} ({i})")}]}, "finishReason": "STOP"}));
            }
            axum::Json(json!({"candidates": candidates, "modelVersion": format!("{model}-001")}))
                .into_response()
        }
    }
}

/// An Ollama server speaking the native `/api/generate` protocol (`{"model", "prompt", "stream"}` in,
/// `{"model", "response", "done"}` out). The requested model picks the behaviour: `fail-401`,
/// `fail-403`, `fail-404` (Ollama's "model not found"), `fail-429` (with Retry-After: 7), `fail-500`,
/// `fail-503`, `fail-504`, `slow` (answers after 3 s), `html` (an HTML page with status 200), `garbage`
/// (truncated JSON), `no-response` (JSON without the `response` field); any other model answers with
/// `reply` wrapped in quotes, as models often do, and echoes the model. `GET /api/tags` lists the
/// models `llama3.2:latest` and `qwen2.5:0.5b`.
pub struct FakeOllama {
    pub addr: SocketAddr,
    pub seen: Arc<Mutex<Vec<Value>>>,
}

impl FakeOllama {
    pub async fn start(reply: &'static str) -> FakeOllama {
        let seen: Arc<Mutex<Vec<Value>>> = Arc::default();
        let router = Router::new()
            .route("/api/generate", post(ollama_generate))
            .route("/api/chat", post(ollama_chat))
            .route("/api/tags", axum::routing::get(ollama_tags))
            .with_state((seen.clone(), reply));
        FakeOllama { addr: serve(router).await, seen }
    }

    pub fn base_url(&self) -> String {
        format!("http://{}", self.addr)
    }

    pub fn requests(&self) -> Vec<Value> {
        self.seen.lock().unwrap().clone()
    }
}

/// Ollama's `/api/chat`: with `"stream": true` (Ollama's default) one NDJSON line per word of `reply`
/// every 50 ms, then a `done` line with the token counts; otherwise one JSON answer. A model named
/// `fail-404` is refused, `cut` ends the stream after two words without `done`.
async fn ollama_chat(
    State((seen, reply)): State<(Arc<Mutex<Vec<Value>>>, &'static str)>,
    body: String,
) -> Response {
    let body: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
    seen.lock().unwrap().push(body.clone());
    let model = body["model"].as_str().unwrap_or_default().to_owned();
    if model == "fail-404" {
        let message = json!({"error": "model \"fail-404\" not found, try pulling it first"});
        return (StatusCode::NOT_FOUND, axum::Json(message)).into_response();
    }
    if body["stream"] == false {
        return axum::Json(json!({"model": model, "message": {"role": "assistant", "content": reply},
            "done": true, "done_reason": "stop", "prompt_eval_count": 20, "eval_count": 4}))
        .into_response();
    }
    let words: Vec<String> = reply.split_inclusive(' ').map(str::to_owned).collect();
    let stream = async_stream(move |tx| async move {
        for (i, word) in words.iter().enumerate() {
            if i > 0 {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            if model == "cut" && i == 2 {
                return;
            }
            let line = json!({"model": model, "created_at": "2024-01-01T00:00:00Z",
                "message": {"role": "assistant", "content": word}, "done": false});
            if tx.send(Ok(format!("{line}\n"))).await.is_err() {
                return;
            }
        }
        let last = json!({"model": model, "message": {"role": "assistant", "content": ""}, "done": true,
            "done_reason": "stop", "prompt_eval_count": 20, "eval_count": words.len()});
        let _ = tx.send(Ok(format!("{last}\n"))).await;
    });
    ([("content-type", "application/x-ndjson")], axum::body::Body::from_stream(stream)).into_response()
}

/// The models this Ollama has pulled, as `GET /api/tags` lists them.
async fn ollama_tags() -> Response {
    axum::Json(json!({"models": [
        {"name": "llama3.2:latest", "model": "llama3.2:latest", "size": 2_019_393_189},
        {"name": "qwen2.5:0.5b", "model": "qwen2.5:0.5b", "size": 397_821_319}
    ]}))
    .into_response()
}

async fn ollama_generate(
    State((seen, reply)): State<(Arc<Mutex<Vec<Value>>>, &'static str)>,
    body: String,
) -> Response {
    let body: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
    seen.lock().unwrap().push(body.clone());
    let model = body["model"].as_str().unwrap_or_default().to_owned();
    let error =
        |status: StatusCode, message: &str| (status, axum::Json(json!({"error": message}))).into_response();
    match model.as_str() {
        "fail-401" => error(StatusCode::UNAUTHORIZED, "unauthorized"),
        "fail-403" => error(StatusCode::FORBIDDEN, "forbidden"),
        "fail-404" => error(StatusCode::NOT_FOUND, "model \"fail-404\" not found, try pulling it first"),
        "fail-429" => {
            let mut r = error(StatusCode::TOO_MANY_REQUESTS, "too many requests");
            r.headers_mut().insert("retry-after", "7".parse().unwrap());
            r
        }
        "fail-500" => error(StatusCode::INTERNAL_SERVER_ERROR, "llama runner process has terminated"),
        "fail-503" => error(StatusCode::SERVICE_UNAVAILABLE, "server busy"),
        "fail-504" => error(StatusCode::GATEWAY_TIMEOUT, "gateway timeout"),
        "slow" => {
            tokio::time::sleep(Duration::from_secs(3)).await;
            axum::Json(json!({"model": model, "response": reply, "done": true})).into_response()
        }
        "html" => ([("content-type", "text/html")], "<html><body><h1>502 Bad Gateway</h1></body></html>")
            .into_response(),
        "garbage" => ([("content-type", "application/json")], "{\"model\": \"x\", \"resp").into_response(),
        "no-response" => axum::Json(json!({"model": model, "done": true})).into_response(),
        _ => axum::Json(json!({
            "model": model,
            "created_at": "2024-01-01T00:00:00Z",
            "response": format!("\"{reply}\""),
            "done": true,
            "done_reason": "stop",
            "total_duration": 1_000_000,
            "eval_count": 12
        }))
        .into_response(),
    }
}

/// A certificate authority made for one test, and the certificate it signed for a server on
/// 127.0.0.1. Nothing outside the test trusts it.
pub struct TestCa {
    /// The CA's certificate, PEM-encoded, as an operator's `ca_file` holds it.
    pub pem: String,
    server_certificate: rustls::pki_types::CertificateDer<'static>,
    server_key: Vec<u8>,
    /// The same certificate and key, PEM-encoded, for a server of another language.
    server_pem: (String, String),
}

impl TestCa {
    pub fn new() -> TestCa {
        let mut ca = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
        ca.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
        ca.distinguished_name.push(rcgen::DnType::CommonName, "Parlance test CA");
        ca.key_usages = vec![rcgen::KeyUsagePurpose::KeyCertSign, rcgen::KeyUsagePurpose::DigitalSignature];
        let ca = rcgen::CertifiedIssuer::self_signed(ca, rcgen::KeyPair::generate().unwrap()).unwrap();
        let key = rcgen::KeyPair::generate().unwrap();
        let server = rcgen::CertificateParams::new(vec!["127.0.0.1".to_owned()]).unwrap();
        let signed = server.signed_by(&key, &*ca).unwrap();
        TestCa {
            pem: ca.pem(),
            server_certificate: signed.der().clone(),
            server_key: key.serialize_der(),
            server_pem: (signed.pem(), key.serialize_pem()),
        }
    }

    /// Writes the server's certificate and key to `dir/server.pem` and `dir/server-key.pem`.
    pub fn write_server(&self, dir: &std::path::Path) -> (std::path::PathBuf, std::path::PathBuf) {
        let (certificate, key) = (dir.join("server.pem"), dir.join("server-key.pem"));
        std::fs::write(&certificate, &self.server_pem.0).unwrap();
        std::fs::write(&key, &self.server_pem.1).unwrap();
        (certificate, key)
    }

    /// Writes the CA certificate to `dir/test-ca.pem`.
    pub fn write(&self, dir: &std::path::Path) -> std::path::PathBuf {
        let path = dir.join("test-ca.pem");
        std::fs::write(&path, &self.pem).unwrap();
        path
    }

    /// Serves `router` over TLS with the certificate this CA signed, on a free loopback port.
    pub async fn serve(&self, router: Router) -> SocketAddr {
        let key = rustls::pki_types::PrivateKeyDer::Pkcs8(self.server_key.clone().into());
        let config =
            rustls::ServerConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
                .with_safe_default_protocol_versions()
                .unwrap()
                .with_no_client_auth()
                .with_single_cert(vec![self.server_certificate.clone()], key)
                .unwrap();
        let tcp = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = tcp.local_addr().unwrap();
        let listener = TlsListener { tcp, acceptor: tokio_rustls::TlsAcceptor::from(Arc::new(config)) };
        tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
        addr
    }
}

/// Accepts the connections whose TLS handshake succeeds; a client that rejects the certificate is
/// dropped and the next one accepted.
struct TlsListener {
    tcp: tokio::net::TcpListener,
    acceptor: tokio_rustls::TlsAcceptor,
}

impl axum::serve::Listener for TlsListener {
    type Io = tokio_rustls::server::TlsStream<tokio::net::TcpStream>;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Self::Io, SocketAddr) {
        loop {
            let Ok((stream, addr)) = self.tcp.accept().await else { continue };
            if let Ok(tls) = self.acceptor.accept(stream).await {
                return (tls, addr);
            }
        }
    }

    fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.tcp.local_addr()
    }
}

/// An OpenAI-compatible `POST /v1/embeddings`: each input gets [`fake_embedding`] of its text, and
/// the items come back in reverse order with their `index`, as the API allows.
pub struct FakeEmbeddings {
    pub addr: SocketAddr,
    pub seen: Arc<Mutex<Vec<Seen>>>,
}

impl FakeEmbeddings {
    /// Serves HTTPS with a certificate signed by `ca`.
    pub async fn start_tls(ca: &TestCa) -> FakeEmbeddings {
        let seen: Arc<Mutex<Vec<Seen>>> = Arc::default();
        let router = Router::new().route("/v1/embeddings", post(embeddings)).with_state(seen.clone());
        FakeEmbeddings { addr: ca.serve(router).await, seen }
    }

    pub fn base_url(&self) -> String {
        format!("https://{}/v1", self.addr)
    }

    pub fn requests(&self) -> Vec<Seen> {
        self.seen.lock().unwrap().clone()
    }
}

/// A made-up but deterministic embedding: counts of words, letters, vowels and digits, and a constant.
pub fn fake_embedding(text: &str) -> Vec<f32> {
    let count = |f: fn(&char) -> bool| text.chars().filter(f).count() as f32;
    vec![
        text.split_whitespace().count() as f32,
        count(|c| c.is_alphabetic()),
        count(|c| "aeiouAEIOU".contains(*c)),
        count(|c| c.is_ascii_digit()),
        1.0,
    ]
}

async fn embeddings(State(seen): State<Arc<Mutex<Vec<Seen>>>>, headers: HeaderMap, body: String) -> Response {
    let body: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
    seen.lock().unwrap().push(Seen::of(&headers, body.clone()));
    let Some(inputs) = body["input"].as_array() else {
        return (StatusCode::BAD_REQUEST, axum::Json(json!({"error": {"message": "no input"}})))
            .into_response();
    };
    let mut data: Vec<Value> = inputs
        .iter()
        .enumerate()
        .map(|(index, text)| {
            json!({"object": "embedding", "index": index, "embedding": fake_embedding(text.as_str().unwrap_or_default())})
        })
        .collect();
    data.reverse();
    axum::Json(json!({"object": "list", "data": data, "model": body["model"]})).into_response()
}

/// A server that accepts a connection, reads the request and resets the connection (an RST, not a
/// clean close) instead of answering.
pub async fn resetting_server() -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        while let Ok((mut stream, _)) = listener.accept().await {
            tokio::spawn(async move {
                use tokio::io::AsyncReadExt;
                let mut buffer = [0u8; 4096];
                let _ = stream.read(&mut buffer).await;
                stream.set_zero_linger().unwrap();
                drop(stream);
            });
        }
    });
    addr
}

/// An OpenAI chat-completions server that streams (`stream: true`): `data:` chunks of
/// `chat.completion.chunk`, a usage chunk, then `data: [DONE]`. The user's last message picks the
/// behaviour: `DIE` (two chunks, then the connection closes without `[DONE]`), `MALFORMED` (a chunk,
/// then one that is not JSON), `STALL` (a chunk, then silence for 3 s before the rest), `FAIL401`
/// (an HTTP 401 before any chunk), `LONG` (40 chunks); any other message streams
/// `words` chunks of `word<i> ` every `interval`; a request without `stream: true` gets the same words
/// as one completion. It records when a client closed a stream early.
#[derive(Clone)]
pub struct FakeStreamingOpenAi {
    pub addr: SocketAddr,
    /// Streams the client closed before their end, with when.
    pub closed_early: Arc<Mutex<Vec<std::time::Instant>>>,
    pub requests: Arc<Mutex<Vec<Value>>>,
    /// The `Authorization` header of each request, `None` where it had none.
    pub authorizations: Arc<Mutex<Vec<Option<String>>>>,
}

#[derive(Clone)]
struct StreamingState {
    words: usize,
    interval: Duration,
    closed_early: Arc<Mutex<Vec<std::time::Instant>>>,
    requests: Arc<Mutex<Vec<Value>>>,
    authorizations: Arc<Mutex<Vec<Option<String>>>>,
}

/// Records the stream as closed early if it is dropped before it was finished.
struct CloseWatch {
    finished: bool,
    closed_early: Arc<Mutex<Vec<std::time::Instant>>>,
}

impl Drop for CloseWatch {
    fn drop(&mut self) {
        if !self.finished {
            self.closed_early.lock().unwrap().push(std::time::Instant::now());
        }
    }
}

impl FakeStreamingOpenAi {
    pub async fn start(words: usize, interval: Duration) -> FakeStreamingOpenAi {
        let state = StreamingState {
            words,
            interval,
            closed_early: Arc::default(),
            requests: Arc::default(),
            authorizations: Arc::default(),
        };
        let router = Router::new()
            .route("/v1/chat/completions", post(streaming_completions))
            .with_state(state.clone());
        FakeStreamingOpenAi {
            addr: serve(router).await,
            closed_early: state.closed_early,
            requests: state.requests,
            authorizations: state.authorizations,
        }
    }

    pub fn base_url(&self) -> String {
        format!("http://{}/v1", self.addr)
    }
}

fn chunk(content: Option<&str>, finish: Option<&str>) -> String {
    let delta = match content {
        Some(c) => json!({"content": c}),
        None => json!({}),
    };
    let body = json!({"id": "chatcmpl-s", "object": "chat.completion.chunk", "created": 1_700_000_000,
        "model": "fake-stream", "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]});
    format!("data: {body}\n\n")
}

async fn streaming_completions(
    State(state): State<StreamingState>,
    headers: HeaderMap,
    body: String,
) -> Response {
    let body: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
    state.requests.lock().unwrap().push(body.clone());
    state.authorizations.lock().unwrap().push(Seen::of(&headers, Value::Null).authorization);
    let last = body["messages"].as_array().and_then(|m| m.last()).and_then(|m| m["content"].as_str());
    let behaviour = last.unwrap_or_default().to_owned();
    if behaviour.contains("FAIL401") {
        return (StatusCode::UNAUTHORIZED, axum::Json(json!({"error": {"message": "bad key", "code": 401}})))
            .into_response();
    }
    let words = if behaviour.contains("LONG") { 40 } else { state.words };
    if body["stream"] != true {
        let reply: String = (0..words).map(|i| format!("word{i} ")).collect();
        return completion("fake-stream", &reply);
    }
    let interval = state.interval;
    let include_usage = body["stream_options"]["include_usage"] == true;
    let closed_early = state.closed_early.clone();
    let stream = async_stream(move |tx| async move {
        let mut watch = CloseWatch { finished: false, closed_early };
        let send = |text: String| {
            let tx = tx.clone();
            async move { tx.send(Ok::<_, std::convert::Infallible>(text)).await.is_ok() }
        };
        if !send(": an upstream comment\n\n".into()).await {
            return;
        }
        for i in 0..words {
            // The pause between chunks ends early when the client closes the stream, so that the
            // moment of the close is seen, not the next write.
            if i > 0 {
                tokio::select! {
                    () = tokio::time::sleep(interval) => {}
                    () = tx.closed() => return,
                }
            }
            if behaviour.contains("DIE") && i == 2 {
                watch.finished = true;
                return;
            }
            if behaviour.contains("MALFORMED") && i == 1 {
                let _ = send("data: {\"choices\": [{\"delta\": \n\n".into()).await;
                watch.finished = true;
                return;
            }
            if behaviour.contains("STALL") && i == 1 {
                tokio::time::sleep(Duration::from_secs(3)).await;
            }
            if !send(chunk(Some(&format!("word{i} ")), None)).await {
                return;
            }
        }
        let mut tail = chunk(None, Some("stop"));
        if include_usage {
            let usage = json!({"id": "chatcmpl-s", "object": "chat.completion.chunk", "model": "fake-stream",
                "choices": [], "usage": {"prompt_tokens": 11, "completion_tokens": words, "total_tokens": 11 + words}});
            tail.push_str(&format!("data: {usage}\n\n"));
        }
        tail.push_str("data: [DONE]\n\n");
        if send(tail).await {
            // Sent into the connection's buffer: whether the client read it is its affair.
            watch.finished = true;
        }
    });
    (
        [("content-type", "text/event-stream"), ("cache-control", "no-cache")],
        axum::body::Body::from_stream(stream),
    )
        .into_response()
}

/// A stream fed by a task through a small channel; the task sees the channel close when the body is
/// dropped (the client went away).
fn async_stream<F, Fut>(
    producer: F,
) -> impl futures::Stream<Item = Result<String, std::convert::Infallible>> + Send + 'static
where
    F: FnOnce(tokio::sync::mpsc::Sender<Result<String, std::convert::Infallible>>) -> Fut,
    Fut: std::future::Future<Output = ()> + Send + 'static,
{
    let (tx, rx) = tokio::sync::mpsc::channel(1);
    tokio::spawn(producer(tx));
    futures::stream::unfold(rx, |mut rx| async move { rx.recv().await.map(|item| (item, rx)) })
}

/// What a [`FaultyUpstream`] does with the next requests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// Answers with its reply, whole or streamed.
    Healthy,
    /// Not listening: connections are refused.
    Refuse,
    /// Accepts the request and never answers.
    Hang,
    /// Answers this HTTP status with an error body (`429` with `Retry-After` is [`Fault::RateLimited`]).
    Status(u16),
    /// `429 Too Many Requests` with `Retry-After` in seconds.
    RateLimited(u32),
    /// `200` with a body that is not JSON.
    Garbage,
    /// Streams one delta, then closes the connection; a whole answer is cut short the same way.
    DieMidStream,
    /// Opens the stream (`200`, event-stream headers) and closes it before any delta.
    DieBeforeFirstDelta,
}

/// An OpenAI chat-completions upstream whose fault is switched while a test runs, for providers
/// (`builtin:openai`) and chat models (`builtin:openai-chat`) alike: its reply is `reply`, streamed
/// as two deltas when asked; it counts the requests that reached it.
pub struct FaultyUpstream {
    pub port: u16,
    fault: Arc<Mutex<Fault>>,
    requests: Arc<std::sync::atomic::AtomicUsize>,
    reply: &'static str,
    stop: Mutex<Option<(tokio::sync::oneshot::Sender<()>, tokio::task::JoinHandle<()>)>>,
}

#[derive(Clone)]
struct FaultState {
    fault: Arc<Mutex<Fault>>,
    requests: Arc<std::sync::atomic::AtomicUsize>,
    reply: &'static str,
}

impl FaultyUpstream {
    pub async fn start(reply: &'static str) -> FaultyUpstream {
        let upstream = FaultyUpstream {
            port: super::server::free_port(),
            fault: Arc::new(Mutex::new(Fault::Healthy)),
            requests: Arc::default(),
            reply,
            stop: Mutex::new(None),
        };
        upstream.listen().await;
        upstream
    }

    pub fn base_url(&self) -> String {
        format!("http://127.0.0.1:{}/v1", self.port)
    }

    /// Requests that reached it so far (refused connections are none).
    pub fn requests(&self) -> usize {
        self.requests.load(std::sync::atomic::Ordering::SeqCst)
    }

    pub fn fault(&self) -> Fault {
        *self.fault.lock().unwrap()
    }

    /// Switches the fault; [`Fault::Refuse`] closes the port (and the idle connections a client
    /// keeps), any other listens on it again.
    pub async fn set(&self, fault: Fault) {
        *self.fault.lock().unwrap() = fault;
        let listening = self.stop.lock().unwrap().is_some();
        match (fault, listening) {
            (Fault::Refuse, true) => {
                let (stop, task) = self.stop.lock().unwrap().take().unwrap();
                let _ = stop.send(());
                let _ = task.await;
            }
            (Fault::Refuse, false) | (_, true) => {}
            (_, false) => self.listen().await,
        }
    }

    async fn listen(&self) {
        let state =
            FaultState { fault: self.fault.clone(), requests: self.requests.clone(), reply: self.reply };
        let router = Router::new().route("/v1/chat/completions", post(faulty_completions)).with_state(state);
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", self.port)).await.unwrap();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let task = tokio::spawn(async move {
            axum::serve(listener, router)
                .with_graceful_shutdown(async move {
                    let _ = stopped.await;
                })
                .await
                .unwrap();
        });
        *self.stop.lock().unwrap() = Some((stop, task));
    }
}

async fn faulty_completions(State(state): State<FaultState>, body: String) -> Response {
    state.requests.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let body: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
    let fault = *state.fault.lock().unwrap();
    let streamed = body["stream"] == true;
    let error = |status: u16| {
        let status = StatusCode::from_u16(status).unwrap();
        (status, axum::Json(json!({"error": {"message": "a fault on purpose", "code": status.as_u16()}})))
            .into_response()
    };
    match fault {
        Fault::Healthy | Fault::Refuse => {}
        Fault::Hang => {
            tokio::time::sleep(Duration::from_secs(3600)).await;
        }
        Fault::Status(status) => return error(status),
        Fault::RateLimited(secs) => {
            let mut r = error(429);
            r.headers_mut().insert("retry-after", secs.to_string().parse().unwrap());
            return r;
        }
        Fault::Garbage => {
            return ([("content-type", "application/json")], "{\"choices\": [{\"mess").into_response();
        }
        Fault::DieMidStream | Fault::DieBeforeFirstDelta if !streamed => {
            return ([("content-type", "application/json")], "{\"id\": \"chatcmpl-cut").into_response();
        }
        Fault::DieMidStream | Fault::DieBeforeFirstDelta => {}
    }
    if !streamed {
        return completion(body["model"].as_str().unwrap_or("faulty"), state.reply);
    }
    let (first, rest) = state.reply.split_at(state.reply.len() / 2);
    let chunks: Vec<String> = match fault {
        Fault::DieBeforeFirstDelta => vec![": opened\n\n".into()],
        Fault::DieMidStream => vec![chunk(Some(first), None)],
        _ => vec![
            chunk(Some(first), None),
            chunk(Some(rest), None),
            chunk(None, Some("stop")),
            "data: [DONE]\n\n".into(),
        ],
    };
    let stream = async_stream(move |tx| async move {
        for text in chunks {
            if tx.send(Ok(text)).await.is_err() {
                return;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    });
    ([("content-type", "text/event-stream")], axum::body::Body::from_stream(stream)).into_response()
}
