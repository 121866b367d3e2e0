//! The bundled metrics through the host's sandbox match the reference tools number for number:
//! sacreBLEU 2.6.0 (BLEU, chrF, TER), rouge-score 0.1.2 (ROUGE with and without the stemmer) and
//! sentence-transformers (all-MiniLM-L6-v2 cosine); and `/evaluate` serves them with the overall score.

use crate::common;
use crate::common::server::Server;
use parlance::Config;
use parlance::Parlance;
use parlance::config::Env;
use parlance::evaluate::EvalOptions;
use parlance::plugins::api::Pair;
use serde_json::{Value, json};
use std::path::PathBuf;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

/// The shared reference file, plus any files named in PARLANCE_EXTRA_METRIC_REFERENCE (CI adds freshly
/// generated random pairs there).
fn reference(name: &str) -> Vec<Value> {
    let mut files = vec![repo().join("tests/data").join(name)];
    if name == "metric-reference.jsonl"
        && let Ok(extra) = std::env::var("PARLANCE_EXTRA_METRIC_REFERENCE")
    {
        files.extend(extra.split(':').filter(|p| !p.is_empty()).map(PathBuf::from));
    }
    files
        .iter()
        .flat_map(|f| {
            std::fs::read_to_string(f)
                .unwrap_or_else(|e| panic!("{}: {e}", f.display()))
                .lines()
                .map(str::to_owned)
                .collect::<Vec<_>>()
        })
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(&l).unwrap())
        .collect()
}

pub fn model_dir() -> PathBuf {
    let dir = std::env::var("PARLANCE_EMBEDDINGS_MODEL_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|_| repo().join("models/all-MiniLM-L6-v2"));
    assert!(
        dir.join("model.safetensors").exists(),
        "the embedding model is missing at {}: run scripts/fetch-model.sh",
        dir.display()
    );
    dir
}

async fn parlance(home: &std::path::Path, extra: &[(&str, &str)], metrics: &[&str]) -> Parlance {
    let metrics: Vec<String> = metrics.iter().map(|m| m.to_string()).collect();
    parlance_with(home, extra, move |c| c.evaluate.metrics = Some(metrics)).await
}

/// A handle on a hermetic home, with the test's own changes to the configuration.
async fn parlance_with(
    home: &std::path::Path,
    extra: &[(&str, &str)],
    configure: impl FnOnce(&mut Config) + Send + 'static,
) -> Parlance {
    let mut env = Env::empty()
        .with("HOME", home.to_str().unwrap())
        .with("CACHE_TYPE", "memory")
        .with("DATABASE_FILE", home.join("d.db").to_str().unwrap())
        .with("PARLANCE_CACHE_DIR", common::compile_cache_dir().to_str().unwrap());
    for (k, v) in extra {
        env = env.with(k, v);
    }
    Parlance::builder().env(env).configure(configure).build().await.unwrap()
}

fn pairs(rows: &[Value]) -> Vec<Pair> {
    rows.iter()
        .map(|r| Pair {
            original: r["original"].as_str().unwrap().into(),
            paraphrase: r["paraphrase"].as_str().unwrap().into(),
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn bundled_metrics_match_sacrebleu_and_rouge_score_through_the_sandbox() {
    let home = tempfile::tempdir().unwrap();
    let parlance = parlance(home.path(), &[], &["bleu", "rouge"]).await;
    let rows = reference("metric-reference.jsonl");
    let results = parlance
        .evaluator()
        .evaluate(&pairs(&rows), EvalOptions { include_semantic: false, detail: true }, "test")
        .await
        .unwrap();
    assert_eq!(results.len(), rows.len());
    let mut checked = 0;
    for (row, result) in rows.iter().zip(&results) {
        // Only the overall score can be missing: bleu and rouge are not weighted.
        assert!(
            result.warnings.iter().all(|w| w.starts_with("overall_score is null")),
            "{row}: {:?}",
            result.warnings
        );
        let scores = &result.evaluation.scores;
        let mut check = |ours: &str, theirs: f64, tolerance: f64| {
            let value = scores.get(ours).unwrap_or_else(|| panic!("no {ours} for {row}"));
            assert!((value - theirs).abs() <= tolerance, "{ours}: {value} vs {theirs} for {row}");
            checked += 1;
        };
        for name in ["bleu", "chrf", "ter"] {
            check(name, row[name].as_f64().unwrap(), 1e-6);
        }
        for kind in ["rouge1", "rouge2", "rougeL"] {
            let stem = &row[format!("{kind}_stem")];
            check(kind, stem["f"].as_f64().unwrap(), 1e-9);
            check(&format!("{kind}_precision"), stem["p"].as_f64().unwrap(), 1e-9);
            check(&format!("{kind}_recall"), stem["r"].as_f64().unwrap(), 1e-9);
            let plain = &row[kind];
            check(&format!("{kind}_unstemmed"), plain["f"].as_f64().unwrap(), 1e-9);
            check(&format!("{kind}_unstemmed_precision"), plain["p"].as_f64().unwrap(), 1e-9);
            check(&format!("{kind}_unstemmed_recall"), plain["r"].as_f64().unwrap(), 1e-9);
        }
    }
    assert_eq!(checked, rows.len() * 21);
}

/// A batch needs more metric calls than the pool has instance slots: the calls wait for a slot rather
/// than fail, and every pair still gets its own scores, in order.
#[tokio::test(flavor = "multi_thread")]
async fn a_batch_larger_than_the_instance_pool_waits_for_slots_and_keeps_its_order() {
    let home = tempfile::tempdir().unwrap();
    let parlance = parlance_with(home.path(), &[], |c| {
        c.runtime.max_instances = 2;
        c.evaluate.metrics = Some(["bleu", "rouge", "lexical", "structural"].map(String::from).to_vec());
    })
    .await;
    let rows = reference("metric-reference.jsonl");
    let one_round = pairs(&rows);
    // 2000 pairs are 8 calls per metric, 32 calls in all, for 2 slots.
    let many: Vec<Pair> = one_round.iter().cycle().take(2000).cloned().collect();
    let options = EvalOptions { include_semantic: false, detail: false };
    let expected = parlance.evaluator().evaluate(&one_round, options, "test").await.unwrap();
    let results = parlance.evaluator().evaluate(&many, options, "test").await.unwrap();
    assert_eq!(results.len(), many.len());
    // Some reference pairs are empty and have per-pair warnings; no call may have failed.
    let failed = |w: &String| w.contains("` failed:");
    for (i, result) in expected.iter().chain(&results).enumerate() {
        assert!(!result.warnings.iter().any(failed), "evaluation {i}: {:?}", result.warnings);
    }
    for (i, result) in results.iter().enumerate() {
        assert_eq!(result, &expected[i % one_round.len()], "pair {i}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn semantic_similarity_matches_sentence_transformers() {
    let home = tempfile::tempdir().unwrap();
    let dir = model_dir();
    let parlance =
        parlance(home.path(), &[("PARLANCE_EMBEDDINGS_MODEL_DIR", dir.to_str().unwrap())], &["semantic"])
            .await;
    let rows = reference("semantic-reference.jsonl");
    let results = parlance
        .evaluator()
        .evaluate(&pairs(&rows), EvalOptions { include_semantic: true, detail: false }, "test")
        .await
        .unwrap();
    let mut worst: f64 = 0.0;
    for (row, result) in rows.iter().zip(&results) {
        let ours = result
            .evaluation
            .scores
            .get("semantic_similarity")
            .unwrap_or_else(|| panic!("{row}: {:?}", result.warnings));
        let error = (ours - row["cosine"].as_f64().unwrap()).abs();
        assert!(error <= 1e-4, "{ours} vs {} for {row}", row["cosine"]);
        worst = worst.max(error);
    }
    eprintln!("semantic_similarity: {} pairs, max abs error {worst:.2e}", rows.len());
}

#[tokio::test(flavor = "multi_thread")]
async fn evaluate_returns_every_score_the_overall_score_and_the_weights() {
    let dir = model_dir();
    let server = Server::start(&[("PARLANCE_EMBEDDINGS_MODEL_DIR", dir.to_str().unwrap())]).await;
    for row in reference("metric-reference.jsonl").iter().take(5) {
        let body =
            json!({"original": row["original"], "paraphrase": row["paraphrase"], "include_semantic": true});
        let r: Value = server
            .client
            .post(server.url("/evaluate"))
            .json(&body)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        assert_eq!(r["original"], row["original"]);
        let evaluation = r["evaluation"].as_object().unwrap();
        for name in [
            "lexical_similarity",
            "word_overlap",
            "jaccard_similarity",
            "length_ratio",
            "sentence_count_diff",
            "avg_word_length_diff",
            "semantic_similarity",
            "bleu",
            "chrf",
            "ter",
            "rouge1",
            "rouge2",
            "rougeL",
            "overall_score",
        ] {
            assert!(evaluation[name].is_number(), "{name} missing in {r}");
        }
        assert!(!evaluation.contains_key("rouge1_precision"), "detail scores only on request");
        let w = &r["weights"];
        assert_eq!((w["lexical_similarity"].as_f64(), w["word_overlap"].as_f64()), (Some(0.3), Some(0.2)));
        assert_eq!((w["length_ratio"].as_f64(), w["semantic_similarity"].as_f64()), (Some(0.2), Some(0.3)));
        let e = |n: &str| evaluation[n].as_f64().unwrap();
        let expected = 0.3 * (1.0 - (e("lexical_similarity") - 0.3).abs() / 0.7)
            + 0.2 * (1.0 - e("word_overlap"))
            + 0.2 * e("length_ratio")
            + 0.3 * e("semantic_similarity");
        assert!((e("overall_score") - expected).abs() < 1e-12, "{r}");
        assert_eq!(r["warnings"], json!([]));
    }
}

/// Without an embedding backend the semantic score is not offered: `/providers` leaves it out of the
/// scores a selection may use (the playground reads it there), and a selection that names it is told
/// what the score needs and how to get it, not that the score is unknown.
#[tokio::test(flavor = "multi_thread")]
async fn without_an_embedding_backend_a_selection_is_told_how_to_get_one() {
    let server = Server::start(&[]).await;
    let providers: Value =
        server.client.get(server.url("/providers")).send().await.unwrap().json().await.unwrap();
    let scores = providers["scores"].as_array().unwrap();
    assert!(
        scores.contains(&json!("lexical_similarity")) && scores.contains(&json!("diversity")),
        "{providers}"
    );
    assert!(!scores.contains(&json!("semantic_similarity")), "{providers}");
    for selection in
        [json!({"min_scores": {"semantic_similarity": 0.8}}), json!({"rank_by": "semantic_similarity"})]
    {
        let mut body = json!({"text": "The meeting was postponed.", "candidates": 2});
        body.as_object_mut().unwrap().extend(selection.as_object().unwrap().clone());
        let r = server.client.post(server.url("/paraphrase")).json(&body).send().await.unwrap();
        assert_eq!(r.status().as_u16(), 422);
        let r: Value = r.json().await.unwrap();
        let message = r["error"]["message"].as_str().unwrap();
        assert!(message.contains("`semantic_similarity` needs an embedding backend"), "{r}");
        assert!(
            message.contains("scripts/fetch-model.sh") && message.contains("[embeddings] model_dir"),
            "{r}"
        );
    }
    // A name no metric declares is still unknown.
    let body = json!({"text": "The meeting was postponed.", "candidates": 2, "rank_by": "nope"});
    let r: Value =
        server.client.post(server.url("/paraphrase")).json(&body).send().await.unwrap().json().await.unwrap();
    assert!(r["error"]["message"].as_str().unwrap().starts_with("unknown score `nope`"), "{r}");
}

/// The model `scripts/fetch-model.sh` installed (`models/all-MiniLM-L6-v2` under the folder the server
/// is started in) is the backend with no configuration: the semantic score is computed and offered.
#[tokio::test(flavor = "multi_thread")]
async fn the_fetched_model_is_the_backend_without_configuration() {
    let home = tempfile::tempdir().unwrap();
    std::fs::create_dir(home.path().join("models")).unwrap();
    std::os::unix::fs::symlink(model_dir(), home.path().join("models/all-MiniLM-L6-v2")).unwrap();
    let server = Server::start_in(home, &[], &[]).await;
    let body = json!({"original": "The cat sat on the mat.", "paraphrase": "A cat was sitting on the mat.", "include_semantic": true});
    let r: Value =
        server.client.post(server.url("/evaluate")).json(&body).send().await.unwrap().json().await.unwrap();
    let semantic = r["evaluation"]["semantic_similarity"].as_f64().unwrap_or_else(|| panic!("{r}"));
    assert!(semantic > 0.5, "{r}");
    assert_eq!(r["warnings"], json!([]), "{r}");
    let providers: Value =
        server.client.get(server.url("/providers")).send().await.unwrap().json().await.unwrap();
    assert!(providers["scores"].as_array().unwrap().contains(&json!("semantic_similarity")), "{providers}");
}

#[tokio::test(flavor = "multi_thread")]
async fn without_an_embedding_backend_the_semantic_score_is_missing_with_a_warning() {
    let server = Server::start(&[]).await;
    let body = json!({"original": "The cat sat on the mat.", "paraphrase": "A cat was sitting on the mat.", "include_semantic": true});
    let r: Value =
        server.client.post(server.url("/evaluate")).json(&body).send().await.unwrap().json().await.unwrap();
    assert!(r["evaluation"].get("semantic_similarity").is_none(), "{r}");
    let warning = r["warnings"][0].as_str().unwrap();
    assert!(warning.contains("no embedding backend") && warning.contains("the score needs one"), "{r}");
    assert!(warning.contains("scripts/fetch-model.sh") && warning.contains("[embeddings] model_dir"), "{r}");
    assert!(r["weights"].get("semantic_similarity").is_none(), "only computed scores' weights: {r}");
    assert_eq!(r["weights"]["lexical_similarity"], 0.3, "{r}");
    let e = &r["evaluation"];
    let expected = (0.3 * (1.0 - (e["lexical_similarity"].as_f64().unwrap() - 0.3).abs() / 0.7)
        + 0.2 * (1.0 - e["word_overlap"].as_f64().unwrap())
        + 0.2 * e["length_ratio"].as_f64().unwrap())
        / 0.7;
    assert!(
        (e["overall_score"].as_f64().unwrap() - expected).abs() < 1e-12,
        "the semantic weight drops out: {r}"
    );

    let bad = json!({"originals": ["a", "b"], "paraphrases": ["a"]});
    let r = server.client.post(server.url("/evaluate/batch")).json(&bad).send().await.unwrap();
    assert_eq!(r.status().as_u16(), 422);
    let batch = json!({"originals": ["The cat sat.", "It rains."], "paraphrases": ["A cat sat.", "Rain falls."], "summary": true});
    let r: Value = server
        .client
        .post(server.url("/evaluate/batch"))
        .json(&batch)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(r["results"].as_array().unwrap().len(), 2);
    assert_eq!(r["summary"]["pairs"], 2);
    assert_eq!(r["summary"]["metrics"]["bleu"]["count"], 2);
}

#[tokio::test(flavor = "multi_thread")]
async fn an_operator_adds_a_metric_in_config_and_its_scores_appear() {
    let home = tempfile::tempdir().unwrap();
    let component = common::fixture("parlance-plugin-structural");
    std::fs::write(
        home.path().join("parlance.toml"),
        format!(
            "[[plugin]]\nid = \"structural\"\nenabled = false\n\n[[plugin]]\nid = \"shape\"\nkind = \"metric\"\ncomponent = {:?}\n",
            component.display().to_string()
        ),
    )
    .unwrap();
    let config = home.path().join("parlance.toml");
    let server = Server::start_in(home, &[], &["--config", config.to_str().unwrap()]).await;
    let body = json!({"original": "One sentence. Two sentences.", "paraphrase": "A single sentence."});
    let r: Value =
        server.client.post(server.url("/evaluate")).json(&body).send().await.unwrap().json().await.unwrap();
    assert_eq!(r["evaluation"]["sentence_count_diff"], 1.0, "{r}");
    let health: Value = server.client.get(server.url("/health")).send().await.unwrap().json().await.unwrap();
    assert!(health["components"]["plugins"]["metrics"].as_array().unwrap().contains(&json!("shape")));
}

/// The CLI's `--include_semantic` is the API's `include_semantic`, with the same default: a configured
/// model alone does not switch the semantic metric on. The weights echoed are those of the scores
/// that were computed.
#[test]
fn the_cli_includes_semantic_similarity_only_when_asked() {
    let home = tempfile::tempdir().unwrap();
    let dir = model_dir();
    let evaluate = |extra: &[&str]| {
        let out = crate::common::command(home.path())
            .env("PARLANCE_EMBEDDINGS_MODEL_DIR", &dir)
            .args(["--mode", "evaluate", "--evaluate_original", "The cat sat on the mat."])
            .args(["--evaluate_paraphrase", "A cat was sitting on the mat.", "--json"])
            .args(extra)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        serde_json::from_slice::<Value>(&out.stdout).unwrap()
    };
    let plain = evaluate(&[]);
    assert!(plain["evaluation"].get("semantic_similarity").is_none(), "{plain}");
    assert!(plain["weights"].get("semantic_similarity").is_none(), "{plain}");
    assert_eq!(plain["weights"]["length_ratio"], 0.2, "{plain}");
    for flag in ["--include_semantic", "--include-semantic"] {
        let semantic = evaluate(&[flag]);
        assert!(semantic["evaluation"]["semantic_similarity"].is_number(), "{semantic}");
        assert_eq!(semantic["weights"]["semantic_similarity"], 0.3, "{semantic}");
    }
}
