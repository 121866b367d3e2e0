//! The lexical similarity measures over normalised content words, free of SDK types.

use std::collections::HashMap;

use parlance_textkit::{PorterStemmer, is_english_stopword, pystr};

/// The three similarities of one pair, each in `[0, 1]`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Similarities {
    pub lexical_similarity: f64,
    pub word_overlap: f64,
    pub jaccard_similarity: f64,
}

/// Why a pair has no lexical similarity.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unscorable {
    /// The original has no content words: nothing for the paraphrase to be similar to.
    OriginalHasNoContentWords,
}

/// The content words of `text`, in order: lowercased, split at every character that is not a
/// letter or digit (so punctuation goes, and `don't` becomes `don` + `t`), English stopwords
/// dropped, each word Porter-stemmed.
pub fn content_words(text: &str, stemmer: &mut PorterStemmer) -> Vec<String> {
    let lower = pystr::lower(text);
    let mut words = Vec::new();
    for word in lower.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()) {
        if is_english_stopword(word) {
            continue;
        }
        let mut stem = String::new();
        stemmer.stem_into(word, &mut stem);
        words.push(stem);
    }
    words
}

/// Term frequencies, keyed by word.
fn frequencies(words: &[String]) -> HashMap<&str, u64> {
    let mut counts = HashMap::new();
    for word in words {
        *counts.entry(word.as_str()).or_insert(0) += 1;
    }
    counts
}

/// Scores the content words of a paraphrase against those of its original.
pub fn similarities(original: &[String], paraphrase: &[String]) -> Result<Similarities, Unscorable> {
    if original.is_empty() {
        return Err(Unscorable::OriginalHasNoContentWords);
    }
    let o = frequencies(original);
    let p = frequencies(paraphrase);

    // Cosine of the term-frequency vectors. Integer sums keep identical texts at exactly 1.
    let dot: u64 = o.iter().filter_map(|(w, &c)| p.get(w).map(|&d| c * d)).sum();
    let norm_o: u64 = o.values().map(|c| c * c).sum();
    let norm_p: u64 = p.values().map(|c| c * c).sum();
    // An empty paraphrase is the zero vector: it shares no term, so its cosine is 0, not 0/0.
    let lexical_similarity =
        if norm_p == 0 { 0.0 } else { (dot as f64 / ((norm_o as f64) * (norm_p as f64)).sqrt()).min(1.0) };

    let shared = o.keys().filter(|w| p.contains_key(*w)).count();
    let union = o.len() + p.len() - shared;
    Ok(Similarities {
        lexical_similarity,
        word_overlap: shared as f64 / o.len() as f64,
        jaccard_similarity: shared as f64 / union as f64,
    })
}

/// Normalises both texts and scores them.
pub fn score(
    original: &str,
    paraphrase: &str,
    stemmer: &mut PorterStemmer,
) -> Result<Similarities, Unscorable> {
    similarities(&content_words(original, stemmer), &content_words(paraphrase, stemmer))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(original: &str, paraphrase: &str) -> Result<Similarities, Unscorable> {
        score(original, paraphrase, &mut PorterStemmer::new())
    }

    #[test]
    fn normalises_case_punctuation_stopwords_and_suffixes() {
        let words = content_words(
            "The cats weren't RUNNING; they'd jumped over the dog's mat!",
            &mut PorterStemmer::new(),
        );
        assert_eq!(words, ["cat", "run", "jump", "dog", "mat"]);
    }

    #[test]
    fn identical_texts_score_one() {
        let s = run("The quick brown fox jumps.", "the QUICK brown fox jumping!").unwrap();
        assert_eq!(s, Similarities { lexical_similarity: 1.0, word_overlap: 1.0, jaccard_similarity: 1.0 });
    }

    #[test]
    fn partial_overlap() {
        // O = {cat, sat, mat}, P = {cat, sat, rug, today}: 2 shared, union 5.
        let s = run("The cat sat on the mat.", "A cat sat on a rug today.").unwrap();
        assert_eq!(s.word_overlap, 2.0 / 3.0);
        assert_eq!(s.jaccard_similarity, 2.0 / 5.0);
        assert!((s.lexical_similarity - 2.0 / (3.0f64 * 4.0).sqrt()).abs() < 1e-15);
    }

    #[test]
    fn term_frequency_counts_repeats() {
        // O = (cat: 2, dog: 1), P = (cat: 1): cos = 2 / (sqrt(5) * 1).
        let s = run("cat cat dog", "cat").unwrap();
        assert!((s.lexical_similarity - 2.0 / 5f64.sqrt()).abs() < 1e-15);
        assert_eq!(s.word_overlap, 0.5);
        assert_eq!(s.jaccard_similarity, 0.5);
    }

    #[test]
    fn empty_paraphrase_scores_zero_and_empty_original_is_unscorable() {
        let s = run("The cat sat.", "It is what it is.").unwrap();
        assert_eq!(s, Similarities { lexical_similarity: 0.0, word_overlap: 0.0, jaccard_similarity: 0.0 });
        assert_eq!(run("", "A cat."), Err(Unscorable::OriginalHasNoContentWords));
        assert_eq!(run("It is what it is!", ""), Err(Unscorable::OriginalHasNoContentWords));
    }
}
