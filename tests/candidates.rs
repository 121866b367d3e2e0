//! Paraphrase candidates through every surface (REST, batch, asynchronous jobs, the CLI, the library):
//! texts the offline rules were never tuned on, several counts, floors and rankings; each candidate's
//! scores recomputed with `POST /evaluate` and compared; pooling with a provider that has no
//! `candidates` export (the 0.1.0 component), which is called once and said so.

use crate::common;
use crate::metrics::model_dir;
use common::server::Server;
use common::upstream::{FakeGemini, FakeOpenAi};
use serde_json::{Value, json};
use std::collections::BTreeSet;

/// Sentences written for this test, never in the offline plugin's tuning sets.
const TEXTS: [&str; 4] = [
    "The old librarian carefully repaired the torn pages of the atlas before the students arrived.",
    "Because the bridge was closed, the delivery van had to take the long road through the hills.",
    "My neighbour quickly painted the small fence in the garden last weekend.",
    "The committee will announce the winners of the photography contest on Friday evening.",
];

fn words(text: &str) -> BTreeSet<String> {
    let words: Vec<String> =
        text.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).map(str::to_lowercase).collect();
    let pairs: Vec<String> = words.windows(2).map(|p| format!("{} {}", p[0], p[1])).collect();
    words.into_iter().chain(pairs).collect()
}

/// The README's formula, written again here from its statement.
fn diversity(a: &str, b: &str) -> f64 {
    let (a, b) = (words(a), words(b));
    let union = a.union(&b).count();
    if union == 0 { 0.0 } else { 1.0 - a.intersection(&b).count() as f64 / union as f64 }
}

fn same_words(a: &str, b: &str) -> bool {
    a.split_whitespace().eq(b.split_whitespace())
}

async fn semantic_server(extra: &[(&str, &str)]) -> Server {
    let dir = model_dir();
    let mut env = vec![("PARLANCE_EMBEDDINGS_MODEL_DIR", dir.to_str().unwrap().to_owned())];
    env.extend(extra.iter().map(|(k, v)| (*k, (*v).to_owned())));
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    Server::start(&env).await
}

async fn post(server: &Server, path: &str, body: &Value) -> (u16, Value) {
    let r = server.client.post(server.url(path)).json(body).send().await.unwrap();
    (r.status().as_u16(), r.json().await.unwrap_or(Value::Null))
}

/// Checks one answer's candidates against the request that asked for them: distinct, none the text
/// again, each score what `POST /evaluate` says of the pair, `passed` as the floors say, sorted, and
/// `paraphrase` the first.
async fn check_answer(
    server: &Server,
    text: &str,
    answer: &Value,
    count: usize,
    floors: &Value,
    rank_by: &str,
) {
    let candidates = answer["candidates"].as_array().unwrap_or_else(|| panic!("{answer}"));
    assert!(!candidates.is_empty() && candidates.len() <= count, "{answer}");
    assert_eq!(answer["paraphrase"], candidates[0]["text"], "{answer}");
    assert_eq!(answer["provider"], candidates[0]["provider"]);
    assert_eq!(answer["original"], text);
    assert!(answer["removed"]["duplicates"].is_u64() && answer["removed"]["unchanged"].is_u64(), "{answer}");
    let texts: Vec<&str> = candidates.iter().map(|c| c["text"].as_str().unwrap()).collect();
    for (i, t) in texts.iter().enumerate() {
        assert!(!same_words(t, text), "a candidate is the text again: {answer}");
        assert!(texts[i + 1..].iter().all(|u| !same_words(t, u)), "duplicates: {answer}");
    }
    let mut previous: Option<(bool, f64)> = None;
    for candidate in candidates {
        let c_text = candidate["text"].as_str().unwrap();
        let scores = candidate["scores"].as_object().unwrap();
        let (status, evaluation) = post(
            server,
            "/evaluate",
            &json!({"original": text, "paraphrase": c_text, "include_semantic": true}),
        )
        .await;
        assert_eq!(status, 200, "{evaluation}");
        let recomputed = evaluation["evaluation"].as_object().unwrap();
        for (name, value) in recomputed {
            let ours = scores.get(name).and_then(Value::as_f64);
            assert!(
                value.as_f64().is_some_and(|v| ours.is_some_and(|o| (o - v).abs() < 1e-9)),
                "{name}: {ours:?} in the candidate, {value} from /evaluate for {c_text:?}"
            );
        }
        assert!(scores.contains_key("semantic_similarity"), "{candidate}");
        let d = scores["diversity"].as_f64().unwrap();
        assert!((d - diversity(text, c_text)).abs() < 1e-12, "{candidate}");
        let passed = floors.as_object().unwrap().iter().all(|(name, floor)| {
            scores.get(name).and_then(Value::as_f64).is_some_and(|v| v >= floor.as_f64().unwrap())
        });
        assert_eq!(candidate["passed"], passed, "{candidate}");
        let key = scores[rank_by].as_f64().unwrap();
        if let Some((was_passed, was_key)) = previous {
            assert!(was_passed >= passed, "passed first: {answer}");
            assert!(was_passed != passed || was_key >= key, "ranked by {rank_by}: {answer}");
        }
        previous = Some((passed, key));
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn rest_candidates_are_distinct_scored_as_evaluate_scores_them_and_ranked() {
    let server = semantic_server(&[]).await;
    for (count, floors, rank_by) in [
        (3, json!({}), None),
        (5, json!({"semantic_similarity": 0.85}), Some("semantic_similarity")),
        (8, json!({"semantic_similarity": 0.9, "diversity": 0.2}), Some("overall_score")),
    ] {
        for text in TEXTS {
            let mut body = json!({"text": text, "candidates": count, "min_scores": floors});
            if let Some(rank_by) = rank_by {
                body["rank_by"] = json!(rank_by);
            }
            let (status, answer) = post(&server, "/paraphrase", &body).await;
            assert_eq!(status, 200, "{answer}");
            assert_eq!(answer["cached"], false);
            check_answer(&server, text, &answer, count, &floors, rank_by.unwrap_or("diversity")).await;
            // The cache keys on the whole request: the same one is a hit, another floor is not.
            let (_, again) = post(&server, "/paraphrase", &body).await;
            assert_eq!(again["cached"], true, "{again}");
            assert_eq!(again["candidates"], answer["candidates"]);
            body["min_scores"]["bleu"] = json!(0.0);
            let (_, other) = post(&server, "/paraphrase", &body).await;
            assert_eq!(other["cached"], false, "{other}");
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn without_the_fields_the_answer_is_today_s_and_a_larger_count_extends_the_list() {
    let server = semantic_server(&[]).await;
    let text = TEXTS[2];
    let (_, plain) = post(&server, "/paraphrase", &json!({"text": text, "skip_cache": true})).await;
    let keys: Vec<&str> = plain.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys, ["cached", "model", "original", "paraphrase", "provider", "unchanged"], "{plain}");
    let (_, one) = post(&server, "/paraphrase", &json!({"text": text, "candidates": 1})).await;
    assert!(one.get("candidates").is_none(), "{one}");
    assert_eq!(one["paraphrase"], plain["paraphrase"]);

    // The offline provider is deterministic: the candidates of a count are the first of a larger one,
    // and its first candidate is the single paraphrase.
    let texts = |answer: &Value| -> BTreeSet<String> {
        answer["candidates"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["text"].as_str().unwrap().to_owned())
            .collect()
    };
    let (_, two) = post(&server, "/paraphrase", &json!({"text": text, "candidates": 2})).await;
    let (_, six) = post(&server, "/paraphrase", &json!({"text": text, "candidates": 6})).await;
    assert!(texts(&two).is_subset(&texts(&six)), "{two} {six}");
    assert!(texts(&six).contains(plain["paraphrase"].as_str().unwrap()), "{six}");
    assert!(texts(&six).len() >= 2, "the offline provider writes several rewrites: {six}");
}

/// A sentence the offline provider finds one rewrite of ("I'm here."), however many are asked for.
const ONE_REWRITE: &str = "I am here.";
/// A sentence the offline provider finds nothing to change in: it writes the text again.
const NO_REWRITE: &str = "Hi there.";

#[tokio::test(flavor = "multi_thread")]
async fn fewer_candidates_than_asked_for_are_counted_and_said_why() {
    let server = semantic_server(&[]).await;
    let body = json!({"text": ONE_REWRITE, "candidates": 5});
    let (status, answer) = post(&server, "/paraphrase", &body).await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["candidates"].as_array().unwrap().len(), 1, "{answer}");
    assert_eq!((&answer["requested"], &answer["written"]), (&json!(5), &json!(1)), "{answer}");
    assert_eq!(answer["removed"], json!({"duplicates": 0, "unchanged": 0}));
    assert_eq!(
        answer["warnings"],
        json!(["5 candidates were asked for; the provider wrote 1 distinct rewrite"])
    );
    // A cached answer says the same.
    let (_, again) = post(&server, "/paraphrase", &body).await;
    assert_eq!(again["cached"], true, "{again}");
    for field in ["requested", "written", "removed", "warnings"] {
        assert_eq!(again[field], answer[field], "{field}: {again}");
    }

    // What the provider wrote may all be removed: here the text again.
    let (_, none) = post(&server, "/paraphrase", &json!({"text": NO_REWRITE, "candidates": 3})).await;
    assert_eq!(none["candidates"], json!([]), "{none}");
    assert_eq!((&none["requested"], &none["written"]), (&json!(3), &json!(1)), "{none}");
    assert_eq!(none["removed"], json!({"duplicates": 0, "unchanged": 1}));
    assert_eq!(
        none["warnings"],
        json!([
            "3 candidates were asked for; the provider wrote 1, of which 1 was removed (1 unchanged), leaving none"
        ])
    );

    // Candidates below a floor stay in the list, marked, and the warning counts those that met it.
    let floors = json!({"text": ONE_REWRITE, "candidates": 2, "min_scores": {"diversity": 1.0}});
    let (_, below) = post(&server, "/paraphrase", &floors).await;
    assert_eq!(below["candidates"][0]["passed"], false, "{below}");
    assert_eq!(
        below["warnings"],
        json!([
            "2 candidates were asked for; the provider wrote 1 distinct rewrite; 0 of them met every floor of `min_scores`"
        ])
    );

    // As many as were asked for: the counts, and no warning.
    let (_, enough) = post(&server, "/paraphrase", &json!({"text": TEXTS[2], "candidates": 3})).await;
    assert_eq!(enough["candidates"].as_array().unwrap().len(), 3, "{enough}");
    assert_eq!((&enough["requested"], &enough["written"]), (&json!(3), &json!(3)), "{enough}");
    assert!(enough.get("warnings").is_none(), "{enough}");

    // A batch's items and a job's say the same as the single answer.
    let texts = json!([ONE_REWRITE, TEXTS[2]]);
    let (_, batch) = post(&server, "/paraphrase/batch", &json!({"texts": texts, "candidates": 5})).await;
    let item = &batch["results"][0];
    assert_eq!((&item["requested"], &item["written"]), (&json!(5), &json!(1)), "{batch}");
    assert_eq!(item["warnings"], answer["warnings"], "{batch}");
    let (status, job) =
        post(&server, "/paraphrase/batch/async", &json!({"texts": texts, "candidates": 5})).await;
    assert_eq!(status, 202, "{job}");
    let done = server.job_completed(&job, None, std::time::Duration::from_secs(120)).await;
    let item = &done["results"][0];
    assert_eq!((&item["requested"], &item["written"]), (&json!(5), &json!(1)), "{done}");
    assert_eq!(item["warnings"], answer["warnings"], "{done}");

    // The schema names the new fields wherever candidates are answered.
    let doc: Value =
        server.client.get(server.url("/openapi.json")).send().await.unwrap().json().await.unwrap();
    for schema in ["Paraphrase", "BatchItem", "JobResult"] {
        let properties = &doc["components"]["schemas"][schema]["properties"];
        assert!(
            properties["requested"].is_object() && properties["written"].is_object(),
            "{schema}: {properties}"
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn wrong_selections_are_refused_naming_the_problem() {
    let server = semantic_server(&[]).await;
    let cases = [
        (json!({"text": "Hi there.", "candidates": 0}), "candidates"),
        (json!({"text": "Hi there.", "candidates": 9}), "from 1 to 8"),
        (json!({"text": "Hi there.", "candidates": 2, "min_scores": {"fluency": 0.5}}), "fluency"),
        (json!({"text": "Hi there.", "rank_by": "nope"}), "nope"),
        (json!({"text": "Hi there.", "provider": "offline", "providers": ["offline"]}), "not both"),
        (json!({"text": "Hi there.", "providers": ["offline", "offline"]}), "twice"),
        (json!({"text": "Hi there.", "providers": ["ghost"]}), "ghost"),
    ];
    for (body, words) in cases {
        let (status, answer) = post(&server, "/paraphrase", &body).await;
        assert_eq!(status, 422, "{body}: {answer}");
        let message = answer["error"]["message"].as_str().unwrap_or_default();
        assert!(message.contains(words), "{body}: {answer}");
        let (status, answer) = post(
            &server,
            "/paraphrase/batch",
            &json!({"texts": ["Hi there."], "candidates": body.get("candidates"), "rank_by": body.get("rank_by"),
                    "min_scores": body.get("min_scores"), "providers": body.get("providers"), "provider": body.get("provider")}),
        )
        .await;
        assert_eq!(status, 422, "batch {body}: {answer}");
    }
    // The schema says the same: the document lists the score names and the count's bounds.
    let doc: Value =
        server.client.get(server.url("/openapi.json")).send().await.unwrap().json().await.unwrap();
    let body = &doc["components"]["schemas"]["ParaphraseBody"]["properties"];
    assert_eq!(body["candidates"]["maximum"], 8, "{body}");
    assert!(body["min_scores"]["properties"]["semantic_similarity"].is_object(), "{body}");
    assert_eq!(body["min_scores"]["additionalProperties"], false, "{body}");
    assert!(body["rank_by"]["enum"].as_array().unwrap().contains(&json!("diversity")), "{body}");
}

fn pooled_config(home: &std::path::Path) {
    let fixture = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/compat-v0_1_0/compat_v0_1_0.wasm");
    let config = format!(
        "[[plugin]]\nid = \"old\"\nkind = \"provider\"\ncomponent = \"{}\"\nconfig = {{ suffix = \" (old)\" }}\n\n\
         [[plugin]]\nid = \"offline-terse\"\nkind = \"provider\"\ncomponent = \"builtin:offline\"\n\
         config = {{ substitution_rate = \"0\" }}\n",
        fixture.display()
    );
    std::fs::write(home.join("parlance.toml"), config).unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn providers_pool_their_candidates_and_one_without_the_export_is_called_once() {
    let home = tempfile::tempdir().unwrap();
    pooled_config(home.path());
    let dir = model_dir();
    let server = Server::start_in(
        home,
        &[("PARLANCE_EMBEDDINGS_MODEL_DIR", dir.to_str().unwrap())],
        &["--config", "parlance.toml"],
    )
    .await;
    let text = TEXTS[0];
    let body = json!({"text": text, "candidates": 4, "providers": ["offline", "offline-terse", "old"]});
    let (status, answer) = post(&server, "/paraphrase", &body).await;
    assert_eq!(status, 200, "{answer}");
    check_answer(&server, text, &answer, 9, &json!({}), "diversity").await;
    let providers: BTreeSet<&str> =
        answer["candidates"].as_array().unwrap().iter().map(|c| c["provider"].as_str().unwrap()).collect();
    assert!(providers.contains("offline") && providers.contains("old"), "{answer}");
    let from_old = answer["candidates"].as_array().unwrap().iter().filter(|c| c["provider"] == "old").count();
    assert_eq!(from_old, 1, "a provider without `candidates` writes one: {answer}");
    let warnings = answer["warnings"].as_array().unwrap_or_else(|| panic!("{answer}"));
    assert!(warnings.iter().any(|w| w.as_str().unwrap().contains("`old`")), "{answer}");
    // The two offline providers share rewrites (the terse one's are the others' without synonyms);
    // whatever they share is removed and counted.
    let written = answer["candidates"].as_array().unwrap().len() as u64
        + answer["removed"]["duplicates"].as_u64().unwrap()
        + answer["removed"]["unchanged"].as_u64().unwrap();
    assert!(written <= 9, "{answer}");
    assert_eq!(answer["written"], written, "{answer}");
    assert_eq!(answer["requested"], 12, "{answer}");

    // Both offline providers find the same one rewrite of a short sentence: the second is removed
    // as a duplicate, and the warning says so.
    let body = json!({"text": ONE_REWRITE, "candidates": 3, "providers": ["offline", "offline-terse"]});
    let (_, answer) = post(&server, "/paraphrase", &body).await;
    assert_eq!(answer["candidates"].as_array().unwrap().len(), 1, "{answer}");
    assert_eq!(answer["removed"], json!({"duplicates": 1, "unchanged": 0}), "{answer}");
    assert_eq!(
        answer["warnings"],
        json!([
            "6 candidates were asked for (3 from each of 2 providers); the providers wrote 2, of which 1 was \
                removed (1 duplicate), leaving 1 distinct rewrite"
        ])
    );

    // A batch carries the same fields per text.
    let (status, batch) = post(
        &server,
        "/paraphrase/batch",
        &json!({"texts": TEXTS, "candidates": 3, "min_scores": {"semantic_similarity": 0.8}}),
    )
    .await;
    assert_eq!(status, 200, "{batch}");
    for (item, text) in batch["results"].as_array().unwrap().iter().zip(TEXTS) {
        check_answer(&server, text, item, 3, &json!({"semantic_similarity": 0.8}), "diversity").await;
    }

    // So does an asynchronous job, pooled providers included, once its items are done.
    let body = json!({"texts": TEXTS, "candidates": 3, "providers": ["offline", "old"], "rank_by": "semantic_similarity"});
    let (status, job) = post(&server, "/paraphrase/batch/async", &body).await;
    assert_eq!(status, 202, "{job}");
    let done = server.job_completed(&job, None, std::time::Duration::from_secs(120)).await;
    let results = done["results"].as_array().unwrap_or_else(|| panic!("{done}"));
    assert_eq!(results.len(), TEXTS.len(), "{done}");
    for (item, text) in results.iter().zip(TEXTS) {
        check_answer(&server, text, item, 4, &json!({}), "semantic_similarity").await;
        assert!(item["candidates"].as_array().unwrap().iter().any(|c| c["provider"] == "old"), "{item}");
        assert!(item["warnings"].as_array().is_some_and(|w| !w.is_empty()), "{item}");
    }
}

#[test]
fn the_cli_writes_every_candidate_to_jsonl_and_the_kept_ones_to_tsv() {
    let home = tempfile::tempdir().unwrap();
    let dir = model_dir();
    let input = home.path().join("in.txt");
    std::fs::write(&input, TEXTS.join("\n")).unwrap();
    let run = |output: &str, extra: &[&str]| {
        let out = common::command(home.path())
            .env("PARLANCE_EMBEDDINGS_MODEL_DIR", &dir)
            .args(["--mode", "batch", "--batch_input"])
            .arg(&input)
            .arg("--batch_output")
            .arg(home.path().join(output))
            .args(["--candidates", "4", "--min_score", "semantic_similarity=0.85"])
            .args(extra)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        std::fs::read_to_string(home.path().join(output)).unwrap()
    };
    let jsonl = run("out.jsonl", &["--rank_by", "semantic_similarity"]);
    let records: Vec<Value> = jsonl.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(records.len(), TEXTS.len());
    let mut kept = Vec::new();
    for (record, text) in records.iter().zip(TEXTS) {
        let candidates = record["candidates"].as_array().unwrap_or_else(|| panic!("{record}"));
        assert!(!candidates.is_empty() && candidates.len() <= 4, "{record}");
        let mut previous = f64::INFINITY;
        for c in candidates {
            let similarity = c["scores"]["semantic_similarity"].as_f64().unwrap();
            assert_eq!(c["passed"], similarity >= 0.85, "{c}");
            if c["passed"] == true {
                assert!(similarity <= previous, "{record}");
                previous = similarity;
                kept.push(format!("{text}\t{}", c["text"].as_str().unwrap()));
            }
        }
        if !candidates.iter().any(|c| c["passed"] == true) {
            kept.push(format!("{text}\t{}", record["paraphrase"].as_str().unwrap()));
        }
    }
    let tsv = run("out.tsv", &["--rank_by", "semantic_similarity"]);
    assert_eq!(tsv.lines().collect::<Vec<_>>(), kept, "one row per kept candidate, best first");

    // --mode cli prints the kept candidates, one a line; a wrong flag is said in the flags' words.
    let out = common::command(home.path())
        .env("PARLANCE_EMBEDDINGS_MODEL_DIR", &dir)
        .args(["--mode", "cli", "--decode_input", TEXTS[1], "--candidates", "3"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let lines: Vec<String> = String::from_utf8_lossy(&out.stdout).lines().map(str::to_owned).collect();
    assert!((1..=3).contains(&lines.len()) && lines.iter().all(|l| !same_words(l, TEXTS[1])), "{lines:?}");
    let out = common::command(home.path())
        .args(["--mode", "cli", "--decode_input", TEXTS[1], "--candidates", "2", "--rank_by", "charm"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("charm"));
}

#[test]
fn the_cli_notes_fewer_candidates_than_asked_for_on_stderr_and_batch_lines_say_why() {
    let home = tempfile::tempdir().unwrap();
    let dir = model_dir();
    let cli = |text: &str, extra: &[&str]| {
        let out = common::command(home.path())
            .env("PARLANCE_EMBEDDINGS_MODEL_DIR", &dir)
            .args(["--mode", "cli", "--decode_input", text])
            .args(extra)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        (String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
    };
    // Stdout holds the candidates alone, the one the provider wrote; the note on stderr says why
    // there is one, once (not again in the API's words).
    let (plain, _) = cli(ONE_REWRITE, &[]);
    let (stdout, stderr) = cli(ONE_REWRITE, &["--candidates", "5"]);
    assert_eq!(stdout, plain, "{stderr}");
    assert!(stderr.contains("parlance: 1 of 5 candidates: the provider wrote 1\n"), "{stderr}");
    assert!(!stderr.contains("asked for"), "{stderr}");
    let (stdout, stderr) = cli(NO_REWRITE, &["--candidates", "3"]);
    assert_eq!(stdout, format!("{NO_REWRITE}\n"), "{stderr}");
    assert!(
        stderr.contains(
            "parlance: 0 of 3 candidates: the provider wrote 1, 1 was the text unchanged; the text is printed as it was"
        ),
        "{stderr}"
    );
    // As many as were asked for: no note.
    let (stdout, stderr) = cli(TEXTS[2], &["--candidates", "3"]);
    assert_eq!(stdout.lines().count(), 3, "{stdout}");
    assert!(!stderr.contains("candidates:"), "{stderr}");

    // A batch's .jsonl line says it in the API's words, and the summary counts the texts that fell short.
    let input = home.path().join("short.txt");
    std::fs::write(&input, format!("{ONE_REWRITE}\n{}\n", TEXTS[2])).unwrap();
    let output = home.path().join("short.jsonl");
    let out = common::command(home.path())
        .env("PARLANCE_EMBEDDINGS_MODEL_DIR", &dir)
        .args(["--mode", "batch", "--candidates", "3", "--batch_input"])
        .arg(&input)
        .arg("--batch_output")
        .arg(&output)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("; 1 kept fewer candidates than were asked for"), "{stderr}");
    let records: Vec<Value> =
        std::fs::read_to_string(&output).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!((&records[0]["requested"], &records[0]["written"]), (&json!(3), &json!(1)), "{}", records[0]);
    assert_eq!(records[0]["removed"], json!({"duplicates": 0, "unchanged": 0}));
    assert_eq!(
        records[0]["warnings"],
        json!(["3 candidates were asked for; the provider wrote 1 distinct rewrite"])
    );
    assert_eq!((&records[1]["requested"], &records[1]["written"]), (&json!(3), &json!(3)), "{}", records[1]);
    assert!(records[1].get("warnings").is_none(), "{}", records[1]);
}

#[tokio::test(flavor = "multi_thread")]
async fn the_library_ranks_candidates_as_the_api_does() {
    let home = tempfile::tempdir().unwrap();
    let dir = model_dir();
    let env = parlance::config::Env::empty()
        .with("HOME", home.path().to_str().unwrap())
        .with("CACHE_TYPE", "memory")
        .with("PARLANCE_EMBEDDINGS_MODEL_DIR", dir.to_str().unwrap())
        .with("PARLANCE_CACHE_DIR", common::compile_cache_dir().to_str().unwrap());
    let parlance = parlance::Parlance::builder().env(env).without_chat().build().await.unwrap();
    let selection = parlance::Selection {
        candidates: 4,
        min_scores: [("semantic_similarity".to_owned(), 0.85)].into(),
        rank_by: Some("semantic_similarity".into()),
        ..Default::default()
    };
    let answer = parlance
        .paraphrase_candidates(&parlance::ParaphraseRequest::new(TEXTS[3]), &selection)
        .await
        .unwrap();
    let candidates = answer.candidates.as_ref().unwrap();
    assert_eq!(answer.paraphrase, candidates[0].text);
    for c in candidates {
        let similarity = c.scores["semantic_similarity"];
        assert_eq!(c.passed, similarity >= 0.85, "{c:?}");
        let options = parlance::evaluate::EvalOptions { include_semantic: true, detail: false };
        let evaluation = parlance.evaluate_paraphrase_with(TEXTS[3], &c.text, options).await.unwrap();
        assert!((evaluation.evaluation.scores["semantic_similarity"] - similarity).abs() < 1e-9);
    }

    // Fewer than were asked for: the counts and the warning, as the API gives them.
    let selection = parlance::Selection { candidates: 4, ..Default::default() };
    let short = parlance
        .paraphrase_candidates(&parlance::ParaphraseRequest::new(ONE_REWRITE), &selection)
        .await
        .unwrap();
    assert_eq!(short.candidates.as_ref().map(Vec::len), Some(1), "{short:?}");
    assert_eq!((short.requested, short.written), (Some(4), Some(1)));
    assert_eq!(short.removed, Some(parlance::paraphrase::Removed::default()));
    assert_eq!(
        short.warnings,
        Some(vec!["4 candidates were asked for; the provider wrote 1 distinct rewrite".to_owned()])
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn openai_asks_for_n_or_one_seed_per_candidate_and_gemini_for_a_candidate_count() {
    let openai = FakeOpenAi::start("An upstream rewrite.").await;
    let gemini = FakeGemini::start("A Gemini rewrite.").await;
    let (openai_url, gemini_url) = (openai.base_url(), gemini.base_url());
    let server = semantic_server(&[
        ("PROVIDER_API_KEY", "sk-test"),
        ("PARLANCE_PLUGIN_OPENROUTER_BASE_URL", &openai_url),
        ("GEMINI_API_KEY", "g-key"),
        ("PARLANCE_PLUGIN_GEMINI_BASE_URL", &gemini_url),
        ("RATE_LIMIT_REQUESTS_PER_MINUTE", "1000"),
    ])
    .await;
    let text = TEXTS[1];
    let texts = |answer: &Value| -> BTreeSet<String> {
        answer["candidates"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["text"].as_str().unwrap().to_owned())
            .collect()
    };

    // One request with `n`, one candidate per choice.
    let (status, answer) =
        post(&server, "/paraphrase", &json!({"text": text, "provider": "openrouter", "candidates": 3})).await;
    assert_eq!(status, 200, "{answer}");
    let expected: BTreeSet<String> = (1..=3).map(|i| format!("An upstream rewrite. ({i})")).collect();
    assert_eq!(texts(&answer), expected, "{answer}");
    let seen = openai.requests();
    assert_eq!(seen.len(), 1, "one upstream call");
    assert_eq!(seen[0].body["n"], 3);

    // Where `n` is refused, one request per candidate, each with its own seed.
    let body = json!({"text": text, "provider": "openrouter", "model": "no-n", "candidates": 3});
    let (status, answer) = post(&server, "/paraphrase", &body).await;
    assert_eq!(status, 200, "{answer}");
    let expected: BTreeSet<String> = (1..=3).map(|i| format!("An upstream rewrite. (seed {i})")).collect();
    assert_eq!(texts(&answer), expected, "{answer}");
    let seeds: Vec<Value> = openai.requests()[1..].iter().map(|r| r.body["seed"].clone()).collect();
    assert_eq!(seeds, [Value::Null, json!(1), json!(2), json!(3)], "the refused `n`, then a seed each");

    // Gemini: one request with `candidateCount`.
    let (status, answer) =
        post(&server, "/paraphrase", &json!({"text": text, "provider": "gemini", "candidates": 2})).await;
    assert_eq!(status, 200, "{answer}");
    let expected: BTreeSet<String> =
        ["A Gemini rewrite.".to_owned(), "A Gemini rewrite. (2)".to_owned()].into();
    assert_eq!(texts(&answer), expected, "{answer}");
    let calls = gemini.seen.lock().unwrap().clone();
    assert_eq!(calls.len(), 1);
    assert_eq!(calls[0].body["generationConfig"]["candidateCount"], 2);
    check_answer(&server, text, &answer, 2, &json!({}), "diversity").await;
}
