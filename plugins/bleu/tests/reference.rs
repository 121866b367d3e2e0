//! Checks BLEU, chrF and TER against sacreBLEU 2.6.0's values for every pair of
//! `tests/data/metric-reference.jsonl`, and of the files listed (colon-separated) in
//! `PARLANCE_EXTRA_METRIC_REFERENCE`, which `scripts/metric_reference.py generate` writes.

use std::path::{Path, PathBuf};

use parlance_plugin_bleu::Bleu;
use parlance_sdk::metric::{Metric, Pair};
use serde_json::Value;

/// sacreBLEU reports these ×100, so they are compared to 1e-6 rather than 1e-9.
const TOLERANCE: f64 = 1e-6;

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

#[test]
fn matches_sacrebleu_on_every_reference_pair() {
    let mut checked = 0;
    let mut failures = Vec::new();
    let mut max_error = [0.0f64; 3];
    let names = ["bleu", "chrf", "ter"];
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
        // One batch per file, as the host calls the plugin: buffers are reused across pairs.
        let results = Bleu::evaluate(pairs.clone());
        assert_eq!(results.len(), pairs.len());
        for (line, ((row, pair), result)) in rows.iter().zip(&pairs).zip(results).enumerate() {
            let scores = result.unwrap_or_else(|e| panic!("{}:{}: {e:?}", path.display(), line + 1));
            for (name, max) in names.iter().zip(max_error.iter_mut()) {
                let expected = row[*name].as_f64().unwrap_or_else(|| panic!("{name} is a number"));
                let value = scores
                    .iter()
                    .find(|s| s.name == *name)
                    .unwrap_or_else(|| panic!("no {name} score"))
                    .value;
                let error = (value - expected).abs();
                *max = max.max(error);
                if !value.is_finite() || error > TOLERANCE {
                    failures.push(format!(
                        "{}:{}: {name} = {value}, sacreBLEU {expected} for {:?} / {:?}",
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
    eprintln!(
        "checked {checked} pairs; max abs error bleu {:e}, chrf {:e}, ter {:e}",
        max_error[0], max_error[1], max_error[2]
    );
    assert!(checked >= 430, "the committed reference file has 430 pairs, read {checked}");
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.iter().take(30).cloned().collect::<Vec<_>>().join("\n")
    );
}
