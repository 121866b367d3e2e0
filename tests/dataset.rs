//! Dataset evaluation: a TSV of `source<TAB>paraphrase` pairs streams through the metrics and comes
//! back as per-score statistics that agree with the reference tools' own values.

use crate::common;
use serde_json::Value;
use std::process::Command;

/// Writes the reference pairs as TSV the way Python's `csv` module does (texts holding tabs or
/// newlines are quoted), with a header line and one malformed line in the middle.
fn write_tsv(path: &std::path::Path) {
    let script = r#"
import csv, json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
with open(sys.argv[2], "w", newline="") as f:
    w = csv.writer(f, delimiter="\t")
    w.writerow(["original", "paraphrase"])
    for i, r in enumerate(rows):
        w.writerow([r["original"], r["paraphrase"]])
        if i == 100:
            f.write("one\ttoo\tmany\r\n")
"#;
    let reference =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/metric-reference.jsonl");
    let status =
        Command::new("python3").args(["-c", script]).arg(reference).arg(path).status().expect("python3 runs");
    assert!(status.success());
}

fn reference_means() -> Vec<(String, f64)> {
    let reference =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/metric-reference.jsonl");
    let rows: Vec<Value> = std::fs::read_to_string(reference)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let mean = |f: &dyn Fn(&Value) -> f64| rows.iter().map(f).sum::<f64>() / rows.len() as f64;
    let mut out = vec![];
    for name in ["bleu", "chrf", "ter"] {
        out.push((name.to_owned(), mean(&|r| r[name].as_f64().unwrap())));
    }
    for kind in ["rouge1", "rouge2", "rougeL"] {
        out.push((kind.to_owned(), mean(&|r| r[format!("{kind}_stem")]["f"].as_f64().unwrap())));
    }
    out
}

#[test]
fn the_dataset_summary_agrees_with_the_reference_means() {
    let home = tempfile::tempdir().unwrap();
    let tsv = home.path().join("pairs.tsv");
    write_tsv(&tsv);
    let out = common::command(home.path())
        .args(["--mode", "evaluate", "--evaluate_file"])
        .arg(&tsv)
        .arg("--json")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("line 1 is a header"), "{stderr}");
    assert!(stderr.contains("skipped: expected source<TAB>paraphrase, found 3 fields"), "{stderr}");
    let summary: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(summary["pairs"], 430, "{summary}");
    assert_eq!(summary["failed"], 1, "the malformed line");
    for (name, expected) in reference_means() {
        let stat = &summary["metrics"][&name];
        assert_eq!(stat["count"], 430, "{name}");
        let mean = stat["mean"].as_f64().unwrap();
        assert!((mean - expected).abs() <= 1e-9, "{name}: mean {mean} vs reference {expected}");
        assert!(stat["min"].as_f64().unwrap() <= mean && mean <= stat["max"].as_f64().unwrap());
        assert!(stat["std"].as_f64().unwrap() > 0.0);
    }

    let table = common::command(home.path())
        .args(["--mode", "evaluate", "--evaluate_file"])
        .arg(&tsv)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&table.stdout);
    assert!(text.contains("pairs evaluated: 430   failed: 1") && text.contains("MEAN"), "{text}");
}

#[test]
fn a_single_pair_prints_a_table_or_json() {
    let home = tempfile::tempdir().unwrap();
    let args = [
        "--mode",
        "evaluate",
        "--evaluate_original",
        "The cat sat on the mat.",
        "--evaluate_paraphrase",
        "The feline was resting on the rug.",
    ];
    let out = common::command(home.path()).args(args).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(
        table.contains("bleu") && table.contains("13.1345") && table.contains("overall_score"),
        "{table}"
    );
    let out = common::command(home.path()).args(args).arg("--json").output().unwrap();
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!((json["evaluation"]["bleu"].as_f64().unwrap() - 13.134549472120788).abs() < 1e-9);
    assert_eq!(json["weights"]["word_overlap"], 0.2);
    let missing = common::command(home.path())
        .args(["--mode", "evaluate", "--evaluate_original", "x"])
        .output()
        .unwrap();
    assert!(!missing.status.success());
    assert!(String::from_utf8_lossy(&missing.stderr).contains("--evaluate_paraphrase"));
}
