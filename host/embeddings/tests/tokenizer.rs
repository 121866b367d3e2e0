//! The Rust tokenizer against Hugging Face's: token ids recorded from the `tokenizers` package by
//! scripts/gen-tokenizer-fixtures.py, for tricky strings and for sweeps over Unicode blocks.

mod common;

use common::{encoder, model_dir};
use serde::Deserialize;
use std::path::PathBuf;

#[derive(Deserialize)]
struct Fixtures {
    tokenizer_json_sha256: String,
    max_length: usize,
    cases: Vec<Case>,
}

#[derive(Deserialize)]
struct Case {
    name: String,
    text: String,
    ids: Vec<u32>,
}

fn fixtures() -> Fixtures {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/tokenizer-fixtures.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The fixtures only mean something for the tokenizer.json they were generated from.
fn sha256_hex(data: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(data).iter().map(|b| format!("{b:02x}")).collect()
}

#[test]
fn token_ids_match_huggingface_tokenizers() {
    let fixtures = fixtures();
    let enc = encoder();
    let tokenizer_json = std::fs::read(model_dir().join("tokenizer.json")).expect("read tokenizer.json");
    assert_eq!(
        sha256_hex(&tokenizer_json),
        fixtures.tokenizer_json_sha256,
        "the fixtures were generated from another tokenizer.json: rerun scripts/gen-tokenizer-fixtures.py"
    );
    assert_eq!(enc.max_seq_length(), fixtures.max_length);
    assert!(fixtures.cases.len() > 100, "fixture file lost its cases");
    let mut failures = Vec::new();
    for case in &fixtures.cases {
        let ids = enc.token_ids(&case.text);
        if ids != case.ids {
            let at =
                ids.iter().zip(&case.ids).position(|(a, b)| a != b).unwrap_or(ids.len().min(case.ids.len()));
            failures.push(format!(
                "{}: first difference at token {at}: ours {:?}, Hugging Face {:?}",
                case.name,
                &ids[at.saturating_sub(2)..(at + 3).min(ids.len())],
                &case.ids[at.saturating_sub(2)..(at + 3).min(case.ids.len())]
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases differ:\n{}",
        failures.len(),
        fixtures.cases.len(),
        failures.join("\n")
    );
}

/// Every Unicode scalar value, from a file too large to commit; see the fixture generator's
/// `--exhaustive` option.
#[test]
#[ignore = "needs PARLANCE_TOKENIZER_EXHAUSTIVE from scripts/gen-tokenizer-fixtures.py --exhaustive"]
fn every_code_point_matches_huggingface() {
    let path = std::env::var_os("PARLANCE_TOKENIZER_EXHAUSTIVE").expect(
        "set PARLANCE_TOKENIZER_EXHAUSTIVE to the file written by gen-tokenizer-fixtures.py --exhaustive",
    );
    let text = std::fs::read_to_string(&path).expect("read the exhaustive file");
    let enc = encoder();
    let (mut checked, mut failures) = (0, Vec::new());
    for line in text.lines() {
        let mut fields = line.split(' ');
        let code: u32 = fields.next().and_then(|c| c.parse().ok()).expect("code point");
        let want: Vec<u32> = fields.map(|id| id.parse().expect("id")).collect();
        let c = char::from_u32(code).expect("scalar value");
        let got = enc.token_ids(&format!("x{c}x"));
        if got != want {
            failures.push(format!("U+{code:04X}: ours {got:?}, Hugging Face {want:?}"));
        }
        checked += 1;
    }
    assert!(checked > 1_000_000, "only {checked} code points in the file");
    assert!(
        failures.is_empty(),
        "{} of {checked} code points differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
