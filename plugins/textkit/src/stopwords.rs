//! NLTK's English stopword list (`nltk_data` `corpora/stopwords/english`, the 2025 revision that
//! added the pronoun contractions such as `i'm` and `they're`: 198 words), embedded as data.
//!
//! The list is lowercase and holds both contractions (`don't`) and the pieces a tokenizer leaves
//! when it splits at the apostrophe (`don`, `t`), so it works for either tokenization.

/// The words, one per line, in `data/stopwords-english.txt`.
pub const ENGLISH_TEXT: &str = include_str!("../data/stopwords-english.txt");

/// The list as a slice, sorted for binary search.
fn english() -> &'static [&'static str] {
    static SORTED: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    SORTED.get_or_init(|| {
        let mut words: Vec<&str> = ENGLISH_TEXT.lines().map(str::trim).filter(|w| !w.is_empty()).collect();
        words.sort_unstable();
        words.dedup();
        words
    })
}

/// Every English stopword, sorted.
pub fn english_stopwords() -> &'static [&'static str] {
    english()
}

/// Whether `word` (already lowercase) is an English stopword.
pub fn is_english_stopword(word: &str) -> bool {
    english().binary_search(&word).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holds_nltks_list() {
        assert_eq!(english_stopwords().len(), 198);
        for word in ["i", "the", "don", "t", "don't", "they're", "wouldn't", "ourselves", "ma"] {
            assert!(is_english_stopword(word), "{word}");
        }
        for word in ["cat", "The", "", "dont", "cannot"] {
            assert!(!is_english_stopword(word), "{word}");
        }
    }
}
