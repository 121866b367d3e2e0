//! The bundled Python metric (`builtin:parascore`, componentize-py) through the host: once the
//! operator binds it, its ParaScore diversity appears in `/evaluate`, its detail scores when asked,
//! and its values agree with an independent edit distance on a batch scored in one call.

use crate::common::server::Server;
use serde_json::{Value, json};

const CONFIG: &str = "[[plugin]]\nid = \"parascore\"\nkind = \"metric\"\ncomponent = \"builtin:parascore\"\n";

/// Levenshtein distance over Unicode scalar values, by the textbook dynamic programme.
fn levenshtein(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut current = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            current.push((previous[j + 1] + 1).min(current[j] + 1).min(previous[j] + usize::from(ca != *cb)));
        }
        previous = current;
    }
    previous[b.len()]
}

/// ParaScore's diversity term with γ = 0.35 (see plugins/parascore-py/parascore.py for the source).
fn diversity(original: &str, paraphrase: &str) -> (f64, f64, f64) {
    let distance = levenshtein(original, paraphrase) as f64;
    let d = distance / original.chars().count().max(paraphrase.chars().count()) as f64;
    let ds = if d >= 0.35 { 0.35 } else { -1.0 + (1.35 / 0.35) * d };
    (ds, d, distance)
}

async fn server() -> Server {
    Server::start_in(crate::common::home_with_config(CONFIG), &[], &["--config", "parlance.toml"]).await
}

#[tokio::test(flavor = "multi_thread")]
async fn its_scores_appear_in_evaluate_once_bound() {
    let server = server().await;
    let post = |body: Value| {
        let server = &server;
        async move {
            let r = server.client.post(server.url("/evaluate")).json(&body).send().await.unwrap();
            assert_eq!(r.status(), 200);
            r.json::<Value>().await.unwrap()
        }
    };
    let body =
        post(json!({"original": "The cat sat on the mat.", "paraphrase": "The cat sat on a mat."})).await;
    let evaluation = &body["evaluation"];
    let (ds, _, _) = diversity("The cat sat on the mat.", "The cat sat on a mat.");
    assert!((evaluation["parascore_diversity"].as_f64().unwrap() - ds).abs() < 1e-12, "{body}");
    assert!(evaluation.get("char_edit_distance").is_none(), "detail scores only when asked: {body}");
    // The bundled metrics still run beside it.
    assert!(evaluation["bleu"].is_number(), "{body}");

    let body = post(json!({"original": "kitten", "paraphrase": "sitting", "detail": true})).await;
    let evaluation = &body["evaluation"];
    assert_eq!(evaluation["char_edit_distance"], 3.0, "{body}");
    assert!((evaluation["normalized_edit_distance"].as_f64().unwrap() - 3.0 / 7.0).abs() < 1e-12);
    assert_eq!(evaluation["parascore_diversity"], 0.35, "above the threshold: {body}");

    let body = post(json!({"original": "Same text.", "paraphrase": "Same text.", "detail": true})).await;
    assert_eq!(body["evaluation"]["parascore_diversity"], -1.0, "an unchanged text: {body}");
    assert_eq!(body["evaluation"]["char_edit_distance"], 0.0);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_batch_matches_an_independent_edit_distance() {
    let server = server().await;
    let pairs = [
        ("The quick brown fox jumps over the lazy dog.", "A quick brown fox leaps over the lazy dog."),
        ("It is raining heavily today.", "Today it rains a lot."),
        ("Café au lait, s'il vous plaît.", "Cafe au lait, please."),
        ("naïve résumé 🙂", "naive resume 🙂"),
        ("", "Something from nothing."),
        ("Short.", ""),
        ("abcdefghij", "abcdefghiX"),
        ("Weather is nice", "The weather is nice today"),
    ];
    let originals: Vec<&str> = pairs.iter().map(|p| p.0).collect();
    let paraphrases: Vec<&str> = pairs.iter().map(|p| p.1).collect();
    let r = server
        .client
        .post(server.url("/evaluate/batch"))
        .json(&json!({"originals": originals, "paraphrases": paraphrases, "detail": true}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    let body: Value = r.json().await.unwrap();
    for (i, (original, paraphrase)) in pairs.iter().enumerate() {
        let evaluation = &body["results"][i]["evaluation"];
        let (ds, d, distance) = diversity(original, paraphrase);
        let close = |name: &str, want: f64| {
            let got =
                evaluation[name].as_f64().unwrap_or_else(|| panic!("pair {i}: no {name}: {evaluation}"));
            assert!((got - want).abs() < 1e-12, "pair {i} {name}: got {got}, want {want}");
        };
        close("parascore_diversity", ds);
        close("normalized_edit_distance", d);
        close("char_edit_distance", distance);
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn two_empty_texts_are_unscorable_not_invented() {
    let server = server().await;
    let r = server
        .client
        .post(server.url("/evaluate/batch"))
        .json(&json!({"originals": ["", "x"], "paraphrases": ["", "y"]}))
        .send()
        .await
        .unwrap();
    let body: Value = r.json().await.unwrap();
    let first = &body["results"][0];
    assert!(first["evaluation"].get("parascore_diversity").is_none(), "{body}");
    let warnings = first["warnings"].as_array().unwrap();
    assert!(
        warnings.iter().any(|w| w.as_str().unwrap().contains("metric `parascore` could not score this pair")
            && w.as_str().unwrap().contains("both texts are empty")),
        "{body}"
    );
    // The other pair of the same call is still scored.
    assert_eq!(body["results"][1]["evaluation"]["parascore_diversity"], 0.35, "{body}");
}

/// A start that compiles a Python component (seconds) says so, and how long it took; a start that
/// finds it in the compile cache does not.
#[test]
fn a_start_that_compiles_a_python_plugin_says_so() {
    let home = crate::common::home_with_config(CONFIG);
    let cache = tempfile::tempdir().unwrap();
    let list = || {
        let out = crate::common::command(home.path())
            .env("PARLANCE_CACHE_DIR", cache.path())
            .args(["plugins", "list", "--json"])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(out.status.success(), "{err}");
        err
    };
    let first = list();
    let announced = first.lines().find(|l| l.contains("compiling plugin `parascore` (builtin:parascore, "));
    let announced = announced.unwrap_or_else(|| panic!("{first}"));
    assert!(
        announced.contains("INFO")
            && announced.ends_with("MB); this happens once, later starts use the compile cache"),
        "{first}"
    );
    assert!(
        first.lines().any(|l| l.contains("compiled plugin `parascore` in ") && l.ends_with(" s")),
        "{first}"
    );
    // The small Rust components compile in milliseconds and are not announced at info level.
    assert!(!first.contains("compiling plugin `lexical`"), "{first}");
    let second = list();
    assert!(!second.contains("compiling plugin"), "the second start loads from the cache: {second}");
}
