//! Checks ROUGE-1/2/L against rouge-score 0.1.2's values for every pair of
//! `tests/data/metric-reference.jsonl`, and of the files listed (colon-separated) in
//! `PARLANCE_EXTRA_METRIC_REFERENCE`, which `scripts/metric_reference.py generate` writes.
//!
//! In those files `rouge1` is rouge-score WITHOUT the stemmer and `rouge1_stem` WITH it.

use std::path::{Path, PathBuf};

use parlance_plugin_rouge::Rouge;
use parlance_sdk::metric::{Metric, Pair, Score};
use serde_json::Value;

const TOLERANCE: f64 = 1e-9;

fn reference_files() -> Vec<PathBuf> {
    let mut files =
        vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/metric-reference.jsonl")];
    if let Ok(extra) = std::env::var("PARLANCE_EXTRA_METRIC_REFERENCE") {
        files.extend(extra.split(':').filter(|p| !p.is_empty()).map(PathBuf::from));
    }
    files
}

fn rows(path: &Path) -> Vec<Value> {
    let text =
        std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.lines()
        .filter(|line| !line.trim().is_empty())
        .enumerate()
        .map(|(i, line)| {
            serde_json::from_str(line).unwrap_or_else(|e| panic!("{}:{}: {e}", path.display(), i + 1))
        })
        .collect()
}

/// The plugin's score name for a key of the reference file, e.g. `rouge1_stem.p` ->
/// `rouge1_precision`, `rougeL.f` -> `rougeL_unstemmed`.
fn plugin_name(key: &str) -> String {
    let (name, part) = key.split_once('.').expect("name.part");
    let (kind, stemmed) = match name.strip_suffix("_stem") {
        Some(kind) => (kind, true),
        None => (name, false),
    };
    let base = if stemmed { kind.to_owned() } else { format!("{kind}_unstemmed") };
    match part {
        "f" => base,
        "p" => format!("{base}_precision"),
        "r" => format!("{base}_recall"),
        _ => panic!("unknown part {part}"),
    }
}

fn value(scores: &[Score], name: &str) -> f64 {
    scores.iter().find(|s| s.name == name).unwrap_or_else(|| panic!("no {name} score")).value
}

#[test]
fn matches_rouge_score_on_every_reference_pair() {
    let keys: Vec<String> = ["rouge1", "rouge2", "rougeL", "rouge1_stem", "rouge2_stem", "rougeL_stem"]
        .iter()
        .flat_map(|name| ["p", "r", "f"].map(|part| format!("{name}.{part}")))
        .collect();
    let mut checked = 0;
    let mut failures = Vec::new();
    let mut max_error = vec![0.0f64; keys.len()];
    for path in reference_files() {
        let rows = rows(&path);
        assert!(!rows.is_empty(), "{} holds no pairs", path.display());
        let pairs: Vec<Pair> = rows
            .iter()
            .map(|row| Pair {
                original: row["original"].as_str().expect("original is a string").to_owned(),
                paraphrase: row["paraphrase"].as_str().expect("paraphrase is a string").to_owned(),
            })
            .collect();
        // One batch per file, as the host calls the plugin: the token table and stem cache are
        // shared across pairs and must not change any value.
        let results = Rouge::evaluate(pairs.clone());
        assert_eq!(results.len(), pairs.len());
        for (line, ((row, pair), result)) in rows.iter().zip(&pairs).zip(results).enumerate() {
            let scores = result.unwrap_or_else(|e| panic!("{}:{}: {e:?}", path.display(), line + 1));
            for (key, max) in keys.iter().zip(max_error.iter_mut()) {
                let (name, part) = key.split_once('.').expect("name.part");
                let expected = row[name][part].as_f64().unwrap_or_else(|| panic!("{key} is a number"));
                let value = value(&scores, &plugin_name(key));
                let error = (value - expected).abs();
                *max = max.max(error);
                if !value.is_finite() || error > TOLERANCE {
                    failures.push(format!(
                        "{}:{}: {key} = {value}, rouge-score {expected} for {:?} / {:?}",
                        path.display(),
                        line + 1,
                        pair.original,
                        pair.paraphrase
                    ));
                }
            }
            checked += 1;
        }
    }
    let summary: Vec<String> = keys.iter().zip(&max_error).map(|(k, e)| format!("{k} {e:e}")).collect();
    eprintln!("checked {checked} pairs; max abs error: {}", summary.join(", "));
    assert!(checked >= 430, "the committed reference file has 430 pairs, read {checked}");
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.iter().take(30).cloned().collect::<Vec<_>>().join("\n")
    );
}

#[test]
fn reference_keys_map_to_plugin_names() {
    assert_eq!(plugin_name("rouge1_stem.f"), "rouge1");
    assert_eq!(plugin_name("rougeL_stem.p"), "rougeL_precision");
    assert_eq!(plugin_name("rouge2.r"), "rouge2_unstemmed_recall");
    assert_eq!(plugin_name("rougeL.f"), "rougeL_unstemmed");
}
