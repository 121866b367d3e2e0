//! Golden outputs: every line of the three offline benchmark sets, paraphrased exactly as the
//! component does it (`respond` with the settings' defaults), compared with the outputs kept in
//! `tests/golden/`. A refactor must leave them byte-identical; a change of behaviour shows here
//! line by line, and is blessed on purpose with `PARLANCE_BLESS=1 cargo test -p
//! parlance-plugin-offline --test golden`, which rewrites the files from the current code.

use std::path::PathBuf;

use parlance_plugin_offline::{DEFAULT_SUBSTITUTION_RATE, MODEL, options_with_variant, respond};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn check(set: &str) {
    let input = std::fs::read_to_string(root().join("../../bench/data").join(format!("{set}.txt")))
        .expect("the benchmark set");
    // The component's own defaults: an unset `substitution_rate` and `variant`.
    let options = options_with_variant(DEFAULT_SUBSTITUTION_RATE, 0.0).expect("default settings");
    let mut out = String::new();
    for line in input.lines() {
        let paraphrase = respond(line, MODEL, &options).expect("a benchmark line paraphrases");
        assert!(!paraphrase.contains('\n'), "{line:?} -> {paraphrase:?}");
        out.push_str(&paraphrase);
        out.push('\n');
    }
    let golden = root().join("tests/golden").join(format!("{set}.out"));
    if std::env::var_os("PARLANCE_BLESS").is_some() {
        std::fs::write(&golden, &out).expect("write the golden file");
        return;
    }
    let expected = std::fs::read_to_string(&golden).expect("the golden file (PARLANCE_BLESS=1 writes it)");
    let differences: Vec<String> = input
        .lines()
        .zip(out.lines().zip(expected.lines()))
        .filter(|(_, (got, want))| got != want)
        .map(|(line, (got, want))| format!("{line}\n  got:  {got}\n  want: {want}"))
        .collect();
    assert!(
        differences.is_empty(),
        "{} lines differ in {set}:\n{}",
        differences.len(),
        differences.join("\n")
    );
    assert_eq!(out, expected, "{set}: the outputs differ from the golden file");
}

#[test]
fn golden_eval() {
    check("offline-eval");
}

#[test]
fn golden_holdout() {
    check("offline-holdout");
}

#[test]
fn golden_unseen() {
    check("offline-unseen");
}
