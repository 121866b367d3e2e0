//! Checks the Porter stemmer against NLTK's `PorterStemmer().stem(word)` for every word of
//! `tests/data/porter-nltk.tsv` (written by `scripts/metric_reference.py stems`), and of the files
//! listed (colon-separated) in `PARLANCE_PORTER_REFERENCE`.

use std::path::{Path, PathBuf};

use parlance_textkit::PorterStemmer;

#[test]
fn matches_nltk_on_every_reference_word() {
    let mut files = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/porter-nltk.tsv")];
    if let Ok(extra) = std::env::var("PARLANCE_PORTER_REFERENCE") {
        files.extend(extra.split(':').filter(|p| !p.is_empty()).map(PathBuf::from));
    }
    let mut stemmer = PorterStemmer::new();
    let mut out = String::new();
    let mut checked = 0;
    let mut wrong = Vec::new();
    for path in files {
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        for line in text.lines().filter(|l| !l.is_empty()) {
            let (word, expected) =
                line.split_once('\t').unwrap_or_else(|| panic!("not word<TAB>stem: {line:?}"));
            stemmer.stem_into(word, &mut out);
            if out != expected {
                wrong.push(format!("{word:?} -> {out:?}, NLTK {expected:?}"));
            }
            checked += 1;
        }
    }
    eprintln!("checked {checked} words");
    assert!(checked >= 3000, "the committed list has over 3000 words, read {checked}");
    assert!(
        wrong.is_empty(),
        "{} differ:\n{}",
        wrong.len(),
        wrong.iter().take(30).cloned().collect::<Vec<_>>().join("\n")
    );
}
