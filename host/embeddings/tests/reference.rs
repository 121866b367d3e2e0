//! The encoder against sentence-transformers itself: the cosines it computed for the 430 pairs of
//! tests/data/semantic-reference.jsonl, and the invariants (order, batching, truncation) that make
//! those cosines independent of how a caller groups its texts.

mod common;

use common::encoder;
use serde::Deserialize;
use std::path::PathBuf;

#[derive(Deserialize)]
struct Pair {
    original: String,
    paraphrase: String,
    cosine: f64,
}

fn pairs() -> Vec<Pair> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/semantic-reference.jsonl");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{}: {e}: {l}", path.display())))
        .collect()
}

fn cosine(a: &[f32], b: &[f32]) -> f64 {
    a.iter().zip(b).map(|(x, y)| f64::from(*x) * f64::from(*y)).sum()
}

#[test]
fn cosines_match_sentence_transformers() {
    let pairs = pairs();
    assert_eq!(pairs.len(), 430, "the reference file changed size");
    let texts: Vec<&str> = pairs
        .iter()
        .map(|p| p.original.as_str())
        .chain(pairs.iter().map(|p| p.paraphrase.as_str()))
        .collect();
    let vectors = encoder().embed(&texts).expect("embed");
    let (originals, paraphrases) = vectors.split_at(pairs.len());
    let mut worst = (0.0f64, 0);
    for (i, pair) in pairs.iter().enumerate() {
        let error = (cosine(&originals[i], &paraphrases[i]) - pair.cosine).abs();
        if error > worst.0 {
            worst = (error, i);
        }
    }
    let (error, at) = worst;
    println!("max abs cosine error over {} pairs: {error:.3e} (pair {at})", pairs.len());
    assert!(
        error < 1e-4,
        "pair {at} ({:?} / {:?}): cosine off by {error:.3e}",
        pairs[at].original,
        pairs[at].paraphrase
    );
}

#[test]
fn vectors_are_unit_length_and_in_input_order() {
    let enc = encoder();
    let texts = ["A man is playing a guitar.", "", "Ein Mann spielt Gitarre.", "A man is playing a guitar."];
    let vectors = enc.embed(&texts).expect("embed");
    assert_eq!(vectors.len(), texts.len());
    for v in &vectors {
        assert_eq!(v.len(), enc.dimensions());
        let norm = cosine(v, v).sqrt();
        assert!((norm - 1.0).abs() < 1e-5, "norm {norm}");
    }
    // Identical texts at positions 0 and 3 must get identical vectors, and differ from the rest.
    assert!(cosine(&vectors[0], &vectors[3]) > 0.999_999);
    assert!(cosine(&vectors[0], &vectors[1]) < 0.9);
    let single = enc.embed(&["Ein Mann spielt Gitarre."]).expect("embed");
    assert!(cosine(&single[0], &vectors[2]) > 0.999_999);
}

#[test]
fn batching_and_threading_do_not_change_vectors() {
    let enc = encoder();
    let pairs = pairs();
    let texts: Vec<&str> =
        pairs.iter().take(120).flat_map(|p| [p.original.as_str(), p.paraphrase.as_str()]).collect();
    let together = enc.embed(&texts).expect("embed");
    for (i, text) in texts.iter().enumerate().step_by(7) {
        let alone = &enc.embed(&[text]).expect("embed")[0];
        let drift = together[i].iter().zip(alone).map(|(a, b)| (a - b).abs()).fold(0.0, f32::max);
        assert!(drift < 1e-6, "text {i} {text:?} drifts by {drift} between batch and single call");
    }
}

#[test]
fn empty_input_gives_no_vectors() {
    assert!(encoder().embed(&[]).expect("embed").is_empty());
}

#[test]
fn long_texts_are_cut_to_max_seq_length_tokens() {
    let enc = encoder();
    assert_eq!(enc.max_seq_length(), 256, "sentence_bert_config.json says 256");
    // Every word here is a single WordPiece, so the first 254 words are exactly what survives.
    let words: Vec<String> =
        (0..400).map(|i| ["alpha", "river", "stone", "cloud", "seven"][i % 5].to_owned()).collect();
    let long = words.join(" ");
    let kept = words[..254].join(" ");
    let ids = enc.token_ids(&long);
    assert_eq!(ids.len(), 256);
    assert_eq!(ids, enc.token_ids(&kept));
    let vectors = enc.embed(&[&long, &kept, &words[..200].join(" ")]).expect("embed");
    assert!(cosine(&vectors[0], &vectors[1]) > 0.999_999, "truncated text must embed as its kept prefix");
    assert!(cosine(&vectors[0], &vectors[2]) < 0.999_99, "a shorter prefix must embed differently");
}
