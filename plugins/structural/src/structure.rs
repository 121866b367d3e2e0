//! Word and sentence statistics of a text and the differences between two texts, free of SDK types.

use parlance_textkit::pystr;

/// Characters that end a sentence.
fn is_terminator(c: char) -> bool {
    matches!(c, '.' | '!' | '?' | '…' | '‼' | '⁇' | '⁈' | '⁉' | '。' | '！' | '？' | '｡')
}

/// Characters that may follow a terminator inside the same token: closing quotes and brackets.
fn is_closer(c: char) -> bool {
    matches!(c, '"' | '\'' | ')' | ']' | '}' | '»' | '”' | '’' | '」' | '』' | '）')
}

/// The structure of one text.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Profile {
    pub words: usize,
    pub sentences: usize,
    /// Letters and digits over all words.
    pub word_chars: usize,
}

impl Profile {
    /// Words are whitespace-separated tokens holding at least one letter or digit; a word's length
    /// counts its letters and digits only. A sentence ends at a token whose last character, before
    /// any closing quotes or brackets, is a terminator (`.`, `!`, `?`, `…`, CJK full stops…), and
    /// only counts if it holds a word; trailing words without a terminator form a last sentence.
    pub fn of(text: &str) -> Self {
        let mut profile = Profile { words: 0, sentences: 0, word_chars: 0 };
        let mut sentence_has_word = false;
        for token in pystr::split(text) {
            let chars = token.chars().filter(|c| c.is_alphanumeric()).count();
            if chars > 0 {
                profile.words += 1;
                profile.word_chars += chars;
                sentence_has_word = true;
            }
            let ends_sentence =
                token.trim_end_matches(is_closer).chars().next_back().is_some_and(is_terminator);
            if ends_sentence && sentence_has_word {
                profile.sentences += 1;
                sentence_has_word = false;
            }
        }
        if sentence_has_word {
            profile.sentences += 1;
        }
        profile
    }

    fn average_word_length(&self) -> f64 {
        self.word_chars as f64 / self.words as f64
    }
}

/// The three structural scores of one pair.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Differences {
    pub length_ratio: f64,
    pub sentence_count_diff: f64,
    pub avg_word_length_diff: f64,
}

/// Which text of a pair has no words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Empty {
    Original,
    Paraphrase,
}

/// Compares the structure of a paraphrase with its original. A text without words has no average
/// word length, so such a pair cannot be scored.
pub fn compare(original: &str, paraphrase: &str) -> Result<Differences, Empty> {
    let o = Profile::of(original);
    let p = Profile::of(paraphrase);
    if o.words == 0 {
        return Err(Empty::Original);
    }
    if p.words == 0 {
        return Err(Empty::Paraphrase);
    }
    Ok(Differences {
        length_ratio: o.words.min(p.words) as f64 / o.words.max(p.words) as f64,
        sentence_count_diff: o.sentences.abs_diff(p.sentences) as f64,
        avg_word_length_diff: (o.average_word_length() - p.average_word_length()).abs(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_words_and_sentences() {
        assert_eq!(
            Profile::of("The cat sat. It purred!"),
            Profile { words: 5, sentences: 2, word_chars: 17 }
        );
        // Punctuation-only tokens are not words but may end a sentence; 3.14 does not end one.
        assert_eq!(
            Profile::of("Pi is 3.14 — roughly ... \"Really?\" Yes"),
            Profile { words: 6, sentences: 3, word_chars: 23 }
        );
        assert_eq!(Profile::of("no terminator here"), Profile { words: 3, sentences: 1, word_chars: 16 });
        assert_eq!(Profile::of("... !!! ?"), Profile { words: 0, sentences: 0, word_chars: 0 });
        assert_eq!(Profile::of(""), Profile { words: 0, sentences: 0, word_chars: 0 });
        assert_eq!(
            Profile::of("東京に行った。 楽しかった！"),
            Profile { words: 2, sentences: 2, word_chars: 11 }
        );
    }

    #[test]
    fn compares_two_texts() {
        let d = compare("The cat sat on the mat.", "A cat sat. It was on a rug.").unwrap();
        assert_eq!(d.length_ratio, 6.0 / 8.0);
        assert_eq!(d.sentence_count_diff, 1.0);
        assert!((d.avg_word_length_diff - (17.0 / 6.0 - 18.0 / 8.0)).abs() < 1e-15);
        assert_eq!(compare("Same words here.", "Same words here.").unwrap().length_ratio, 1.0);
    }

    #[test]
    fn a_text_without_words_cannot_be_scored() {
        assert_eq!(compare("", "A cat."), Err(Empty::Original));
        assert_eq!(compare("A cat.", " ... "), Err(Empty::Paraphrase));
    }
}
