//! The tokenizer of rouge-score 0.1.2 (`rouge_score/tokenize.py`).
//!
//! Python's version lowercases the text, replaces every run of characters outside `[a-z0-9]` with a
//! space, splits on whitespace, stems tokens longer than three characters when asked to, and keeps
//! only tokens matching `^[a-z0-9]+$`. Everything outside ASCII letters and digits therefore acts
//! as a separator, except where lowercasing turns it into ASCII (`İ` -> `i̇`, the Kelvin sign -> `k`).

use crate::porter::PorterStemmer;

/// Calls `emit` with each unstemmed token of `text`, in order.
pub fn for_each_token(text: &str, mut emit: impl FnMut(&str)) {
    let mut token = String::new();
    let mut push = |c: char, token: &mut String| {
        if c.is_ascii_lowercase() || c.is_ascii_digit() {
            token.push(c);
        } else if !token.is_empty() {
            emit(token);
            token.clear();
        }
    };
    for c in text.chars() {
        if c.is_ascii() {
            push(c.to_ascii_lowercase(), &mut token);
        } else {
            // Character by character is enough: the only context-dependent mapping (final sigma)
            // never yields ASCII.
            for lower in c.to_lowercase() {
                push(lower, &mut token);
            }
        }
    }
    push(' ', &mut token);
}

/// The stemmed form of one unstemmed token, written to `out`: Porter-stemmed when longer than three
/// characters, as is otherwise. Returns `false` when the result is not a valid token (rouge-score
/// then drops it).
pub fn stem_token(stemmer: &mut PorterStemmer, token: &str, out: &mut String) -> bool {
    if token.len() > 3 {
        stemmer.stem_into(token, out);
    } else {
        out.clear();
        out.push_str(token);
    }
    !out.is_empty() && out.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
}

/// rouge-score's `tokenize(text, stemmer)`: the token list of `text`, stemmed when `stem` is set.
pub fn rouge_tokenize(text: &str, stem: bool) -> Vec<String> {
    let mut tokens = Vec::new();
    let mut stemmer = PorterStemmer::new();
    let mut stemmed = String::new();
    for_each_token(text, |token| {
        if !stem {
            tokens.push(token.to_owned());
        } else if stem_token(&mut stemmer, token, &mut stemmed) {
            tokens.push(stemmed.clone());
        }
    });
    tokens
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_on_everything_but_ascii_alphanumerics() {
        // Values from rouge_score.tokenize.tokenize(text, None).
        assert_eq!(
            rouge_tokenize("The cat's café, 3.5 A-1!", false),
            ["the", "cat", "s", "caf", "3", "5", "a", "1"]
        );
        assert_eq!(rouge_tokenize("東京 Zürich straße", false), ["z", "rich", "stra", "e"]);
        assert_eq!(rouge_tokenize("İstanbul \u{212a}elvin", false), ["i", "stanbul", "kelvin"]);
        assert!(rouge_tokenize("", false).is_empty());
        assert!(rouge_tokenize(" ,;東京 ", true).is_empty());
    }

    #[test]
    fn stems_only_long_tokens() {
        // Values from rouge_score.tokenize.tokenize(text, PorterStemmer()).
        assert_eq!(
            rouge_tokenize("Running dogs ran; the skies was happily lying, ties", true),
            ["run", "dog", "ran", "the", "sky", "was", "happili", "lie", "tie"]
        );
        assert_eq!(rouge_tokenize("was has its", true), ["was", "has", "its"]);
    }
}
