//! The one sentence builder. It reads the plain sentence shape that the word-order rewrites work
//! on (words separated by single spaces, commas inside, one terminal mark; anything else, such as
//! quotes, brackets, URLs, code or line breaks, is not plain, so those rewrites leave such
//! sentences alone by construction), builds a sentence back from words, and recases a word that
//! comes to start a sentence or leaves the start.

use crate::tokens::{Kind, Token};
use crate::words::{SMALL_NUMBERS, common_word, lowercase_ok};

/// A plain sentence: its words and inner commas in order, and the terminal mark.
#[derive(Clone, Debug)]
pub struct Plain {
    pub items: Vec<Token>,
    pub terminal: Token,
}

impl Plain {
    /// The lowercase text of item `k` ("" past the end).
    /// The `k`-th word from the end (1 is the last), lowercased; empty past the start.
    pub fn from_end(&self, k: usize) -> String {
        self.items.len().checked_sub(k).map(|i| self.lower(i)).unwrap_or_default()
    }

    pub fn lower(&self, k: usize) -> String {
        self.items.get(k).map(|t| t.text.to_lowercase()).unwrap_or_default()
    }

    pub fn is_comma(&self, k: usize) -> bool {
        self.items.get(k).is_some_and(|t| t.kind == Kind::Punct)
    }

    pub fn commas(&self) -> usize {
        self.items.iter().filter(|t| t.kind == Kind::Punct).count()
    }

    /// The index of the first item whose lowercase text is `word`.
    pub fn find(&self, word: &str) -> Option<usize> {
        self.items.iter().position(|t| t.is_word() && t.text.eq_ignore_ascii_case(word))
    }
}

/// The plain shape of a sentence, if it has it. Frozen words (names in quotes, code) make it not
/// plain, since a rewrite must not move them around.
pub fn plain(tokens: &[Token]) -> Option<Plain> {
    read(tokens, false)
}

/// The plain shape, loosened for the clause moves, which move whole groups of words and never
/// recase a frozen one: frozen words are allowed, and so is a comma before the final mark.
pub fn loose(tokens: &[Token]) -> Option<Plain> {
    read(tokens, true)
}

fn read(tokens: &[Token], loose: bool) -> Option<Plain> {
    let (terminal, body) = tokens.split_last()?;
    if terminal.kind != Kind::Punct || ![".", "!", "?"].contains(&terminal.text.as_str()) {
        return None;
    }
    let mut items: Vec<Token> = Vec::new();
    let mut expect_word = true;
    for t in body {
        match t.kind {
            Kind::Word if expect_word && (loose || !t.frozen) => {
                items.push(t.clone());
                expect_word = false;
            }
            Kind::Space if t.text == " " && !expect_word => expect_word = true,
            Kind::Punct if t.text == "," && !expect_word && items.last().is_some_and(Token::is_word) => {
                items.push(t.clone());
            }
            _ => return None,
        }
    }
    let ends =
        if loose { !items.is_empty() && !expect_word } else { items.last().is_some_and(Token::is_word) };
    ends.then(|| Plain { items, terminal: terminal.clone() })
}

/// The tokens of a sentence made of `items` (words and commas) and `terminal`.
pub fn build(items: &[Token], terminal: &Token) -> Vec<Token> {
    let mut out = Vec::with_capacity(items.len() * 2 + 1);
    for (k, t) in items.iter().enumerate() {
        if k > 0 && t.is_word() {
            out.push(Token::space());
        }
        out.push(t.clone());
    }
    out.push(terminal.clone());
    out
}

/// The word with its first letter in uppercase.
pub fn capitalise(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// The word with its first letter in lowercase.
pub fn decapitalise(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(first) => first.to_lowercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// Whether the word starts with a capital.
pub fn is_title(word: &str) -> bool {
    word.chars().next().is_some_and(char::is_uppercase)
}

/// Whether the word is written in capitals ("NASA", "DON'T"): an acronym or shouting, which a
/// rewrite leaves as it is.
pub fn is_all_caps(word: &str) -> bool {
    word.chars().filter(|c| c.is_alphabetic()).count() > 1 && !word.chars().any(char::is_lowercase)
}

/// The token with a new text, marked changed when the text differs.
pub fn recase(token: &Token, text: String) -> Token {
    Token { changed: token.changed || text != token.text, text, ..token.clone() }
}

/// A word that leaves the start of a sentence, lowercased; kept as it is when it is "I" or a
/// name ("Maria", "Tom"); `None` when it could be either a name or a word.
pub fn leaving_start(token: &Token) -> Option<Token> {
    let t = &token.text;
    if t == "I" || t.starts_with("I'") || t.starts_with("I’") || !is_title(t) {
        return Some(token.clone());
    }
    // "IT will set up the printers": an acronym keeps its capitals anywhere ("iT" is no word).
    if crate::words::first_name(t) || is_all_caps(t) {
        return Some(token.clone());
    }
    // "It's" and "There's" are fine lowercased when their first part is.
    let stem = t.split(['\'', '’']).next().unwrap_or(t);
    let lower = stem.to_lowercase();
    let common = common_word(&lower);
    if !lowercase_ok(stem) || !common {
        // Not a common word, and not a plural: a name, which keeps its capital anywhere.
        let name = stem == t
            && !common
            && !lower.ends_with('s')
            && stem.chars().skip(1).all(|c| c.is_ascii_lowercase())
            && stem.len() > 1;
        return name.then(|| token.clone());
    }
    let mut chars = t.chars();
    let first = chars.next()?;
    let text: String = first.to_lowercase().chain(chars).collect();
    Some(Token { text, changed: true, ..token.clone() })
}

/// Words that modify the phrase after them ("just before midnight", "soon after lunch"), which a
/// fronted phrase would leave behind ("After lunch, he left soon.").
const PHRASE_MODIFIERS: &[&str] = &[
    "just",
    "all",
    "right",
    "shortly",
    "soon",
    "straight",
    "immediately",
    "directly",
    "well",
    "long",
    "only",
    "even",
    "exactly",
    "almost",
    "nearly",
    "sometime",
    "mainly",
    "mostly",
    "partly",
    "especially",
];

/// Words that modify a number after them ("over a hundred years ago", "at least two weeks").
const QUANTITY_MODIFIERS: &[&str] = &[
    "over",
    "under",
    "about",
    "around",
    "roughly",
    "approximately",
    "than",
    "least",
    "most",
    "some",
    "barely",
    "precisely",
];

/// The sentence with its last phrase, from item `k` on, moved to the front before a comma ("We
/// met at the station." -> "At the station, we met."); `None` when the first word cannot leave the
/// start (see [`leaving_start`]) or a word before the phrase modifies it (`PHRASE_MODIFIERS`).
pub fn front(p: &Plain, k: usize) -> Option<Vec<Token>> {
    if k > 0 && PHRASE_MODIFIERS.contains(&p.lower(k - 1).as_str()) {
        return None;
    }
    // A number's own modifier ("over four years ago", "about six years ago", "more than ten
    // years ago") stays with it: fronted without it, the phrase says another number and the
    // word is left dangling ("Six years ago, we moved here around."). A sentence does not start
    // with digits ("10 years ago, ...").
    let first = p.lower(k);
    let counted = first.starts_with(|c: char| c.is_ascii_digit())
        || SMALL_NUMBERS.contains(&first.as_str())
        || ["a", "an", "one", "half", "eleven", "fifteen", "twenty", "thirty", "forty", "fifty", "hundred"]
            .contains(&first.as_str());
    if first.starts_with(|c: char| c.is_ascii_digit())
        || (counted && k > 0 && QUANTITY_MODIFIERS.contains(&p.lower(k - 1).as_str()))
    {
        return None;
    }
    let mut out = vec![starting(&p.items[k])];
    out.extend_from_slice(&p.items[k + 1..]);
    out.push(comma());
    out.push(leaving_start(&p.items[0])?);
    out.extend_from_slice(&p.items[1..k]);
    Some(build(&out, &p.terminal))
}

/// A word that comes to start a sentence, capitalised.
pub fn starting(token: &Token) -> Token {
    recase(token, capitalise(&token.text))
}

/// A new word token, as a rewrite inserts it.
pub fn word(text: &str) -> Token {
    Token::word(text)
}

/// A new word token in place of `model`, capitalised when `model` is.
pub fn word_like(model: &str, text: &str) -> Token {
    Token::word(if is_title(model) { capitalise(text) } else { text.to_owned() })
}

/// Tokens for words separated by single spaces, the first capitalised like `model`.
pub fn words_like(model: &str, words: &[&str]) -> Vec<Token> {
    let mut out = Vec::with_capacity(words.len() * 2);
    for (k, word) in words.iter().enumerate() {
        if k > 0 {
            out.push(Token::space());
        }
        out.push(if k == 0 { word_like(model, word) } else { Token::word(*word) });
    }
    out
}

/// A comma inserted by a rewrite.
pub fn comma() -> Token {
    Token { changed: true, ..Token::new(",", Kind::Punct) }
}

/// Runs a rewrite of a plain sentence on a text, for tests.
#[cfg(test)]
pub fn apply(rewrite: fn(&Plain) -> Option<Vec<Token>>, text: &str) -> Option<String> {
    rewrite(&plain(&crate::tokens::tokenize(text))?).map(|t| crate::tokens::join(&t))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokens::{join, tokenize};

    #[test]
    fn plain_round_trips() {
        for text in ["We left, and it rained.", "Hello there!", "Is it?"] {
            let p = plain(&tokenize(text)).unwrap();
            assert_eq!(join(&build(&p.items, &p.terminal)), text);
        }
        for text in ["He said \"hi\".", "See https://x.org now.", "No end", "Two  spaces.", "A, , b."] {
            assert!(plain(&tokenize(text)).is_none(), "{text}");
        }
    }

    #[test]
    fn loose_takes_frozen_words_and_a_last_comma() {
        for text in ["Because it rained, we bought an iPhone.", "We stayed,."] {
            assert!(plain(&tokenize(text)).is_none(), "{text}");
            let p = loose(&tokenize(text)).unwrap();
            assert_eq!(join(&build(&p.items, &p.terminal)), text);
        }
        assert!(loose(&tokenize("A, , b.")).is_none());
    }

    #[test]
    fn recasing() {
        let maria = tokenize("Maria");
        // A name, though the lexicon reads it as the plural of "mare": it keeps its capital.
        assert_eq!(leaving_start(&maria[0]).unwrap().text, "Maria");
        assert_eq!(leaving_start(&tokenize("Tom")[0]).unwrap().text, "Tom");
        assert_eq!(leaving_start(&tokenize("Mike")[0]).unwrap().text, "Mike");
        // A plural the lexicon does not know may be a word: neither case is safe.
        assert!(leaving_start(&tokenize("Carrots")[0]).is_none());
        assert_eq!(leaving_start(&tokenize("Children")[0]).unwrap().text, "children");
        let t = tokenize("The Smith I");
        assert_eq!(leaving_start(&t[0]).unwrap().text, "the");
        assert_eq!(leaving_start(&t[2]).unwrap().text, "Smith");
        assert_eq!(leaving_start(&t[4]).unwrap().text, "I");
        assert_eq!(starting(&t[0]).text, "The");
    }
}
