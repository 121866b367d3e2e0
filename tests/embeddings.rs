//! The OpenAI-compatible embeddings backend end to end: `[embeddings] url` on an HTTPS loopback server
//! whose certificate a test CA signed, the CA named by `[tls] ca_file` or `PARLANCE_CA_FILE`, and the
//! semantic score computed from the served vectors; without the CA, and against a closed port or a
//! name that does not resolve, the evaluation's warning names the cause.

use crate::common;
use crate::common::server::{Server, free_port};
use crate::common::upstream::{FakeEmbeddings, TestCa, fake_embedding};
use parlance::Parlance;
use parlance::config::Env;
use parlance::evaluate::{EvalOptions, PairEvaluation};
use parlance::plugins::api::Pair;
use serde_json::{Value, json};

const ORIGINAL: &str = "The cat sat on the mat.";
const PARAPHRASE: &str = "A cat was sitting on the mat.";

fn cosine(a: &[f32], b: &[f32]) -> f64 {
    let dot: f64 = a.iter().zip(b).map(|(x, y)| f64::from(*x) * f64::from(*y)).sum();
    let norm = |v: &[f32]| v.iter().map(|x| f64::from(*x).powi(2)).sum::<f64>().sqrt();
    dot / (norm(a) * norm(b))
}

/// A `parlance.toml` in `dir` that sends embeddings to `url` with a key from `EMBEDDINGS_KEY`.
fn config_file(dir: &std::path::Path, url: &str, extra: &str) -> std::path::PathBuf {
    let file = dir.join("parlance.toml");
    let text = format!(
        "[embeddings]\nurl = \"{url}\"\nmodel = \"test-embedder\"\napi_key = {{ env = \"EMBEDDINGS_KEY\" }}\n{extra}"
    );
    std::fs::write(&file, text).unwrap();
    file
}

#[tokio::test(flavor = "multi_thread")]
async fn evaluate_scores_semantically_with_an_https_endpoint_signed_by_a_trusted_ca() {
    let ca = TestCa::new();
    let endpoint = FakeEmbeddings::start_tls(&ca).await;
    let home = tempfile::tempdir().unwrap();
    ca.write(home.path());
    // A relative ca_file is relative to the configuration file's folder.
    let file = config_file(home.path(), &endpoint.base_url(), "[tls]\nca_file = \"test-ca.pem\"\n");
    let server = Server::start_in(
        home,
        &[("PARLANCE_CONFIG", file.to_str().unwrap()), ("EMBEDDINGS_KEY", "emb-key")],
        &[],
    )
    .await;

    let body = json!({"original": ORIGINAL, "paraphrase": PARAPHRASE, "include_semantic": true});
    let r: Value =
        server.client.post(server.url("/evaluate")).json(&body).send().await.unwrap().json().await.unwrap();
    let semantic = r["evaluation"]["semantic_similarity"].as_f64().unwrap_or_else(|| panic!("{r}"));
    let expected = cosine(&fake_embedding(ORIGINAL), &fake_embedding(PARAPHRASE));
    assert!((semantic - expected).abs() < 1e-6, "{semantic} vs {expected}: {r}");
    assert_eq!(r["warnings"], json!([]), "{r}");

    let seen = endpoint.requests();
    assert_eq!(seen.len(), 1, "one embedding call for the pair");
    assert_eq!(seen[0].authorization.as_deref(), Some("Bearer emb-key"));
    assert_eq!(seen[0].body["model"], "test-embedder");
    assert_eq!(seen[0].body["input"], json!([ORIGINAL, PARAPHRASE]));
}

fn env(home: &std::path::Path) -> Env {
    Env::empty()
        .with("HOME", home.to_str().unwrap())
        .with("CACHE_TYPE", "memory")
        .with("DATABASE_FILE", home.join("d.db").to_str().unwrap())
        .with("PARLANCE_CACHE_DIR", common::compile_cache_dir().to_str().unwrap())
        .with("EMBEDDINGS_KEY", "emb-key")
}

/// The pair evaluated by the semantic metric alone, with embeddings from `url`.
async fn evaluate(home: &std::path::Path, url: &str, env: Env) -> PairEvaluation {
    let file = config_file(home, url, "");
    let parlance = Parlance::builder()
        .env(env)
        .config_file(&file)
        .configure(|c| c.evaluate.metrics = Some(vec!["semantic".into()]))
        .build()
        .await
        .unwrap();
    let pair = Pair { original: ORIGINAL.into(), paraphrase: PARAPHRASE.into() };
    let options = EvalOptions { include_semantic: true, detail: false };
    parlance.evaluator().evaluate(&[pair], options, "test").await.unwrap().remove(0)
}

/// The warning that replaces the semantic score.
async fn semantic_warning(home: &std::path::Path, url: &str) -> String {
    let result = evaluate(home, url, env(home)).await;
    assert!(!result.evaluation.scores.contains_key("semantic_similarity"), "{result:?}");
    result.warnings.into_iter().next().unwrap_or_else(|| panic!("no warning"))
}

#[tokio::test(flavor = "multi_thread")]
async fn without_the_ca_the_warning_names_the_certificate_and_with_it_the_score_is_there() {
    let ca = TestCa::new();
    let endpoint = FakeEmbeddings::start_tls(&ca).await;
    let home = tempfile::tempdir().unwrap();
    let warning = semantic_warning(home.path(), &endpoint.base_url()).await;
    assert!(warning.contains("TLS certificate rejected"), "{warning}");
    assert!(warning.contains(&format!("https://{}", endpoint.addr)), "{warning}");
    assert!(warning.contains("UnknownIssuer"), "{warning}");
    assert!(endpoint.requests().is_empty());

    // The same endpoint, with the CA from the environment.
    let ca_file = ca.write(home.path());
    let env = env(home.path()).with("PARLANCE_CA_FILE", ca_file.to_str().unwrap());
    let result = evaluate(home.path(), &endpoint.base_url(), env).await;
    let expected = cosine(&fake_embedding(ORIGINAL), &fake_embedding(PARAPHRASE));
    let semantic = result.evaluation.scores.get("semantic_similarity").copied();
    assert!(semantic.is_some_and(|s| (s - expected).abs() < 1e-6), "{result:?}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_refused_connection_and_a_failed_dns_lookup_are_named() {
    let home = tempfile::tempdir().unwrap();
    // A port with nothing listening: bound and released.
    let port = free_port();
    let warning = semantic_warning(home.path(), &format!("http://127.0.0.1:{port}/v1")).await;
    assert!(warning.contains(&format!("http://127.0.0.1:{port}: connection refused")), "{warning}");
    assert!(warning.contains("upstream unavailable"), "{warning}");

    let warning = semantic_warning(home.path(), "https://nonexistent.invalid/v1").await;
    assert!(warning.contains("https://nonexistent.invalid:443: DNS resolution failed"), "{warning}");
}
