//! Tokens and sentences: splits text into words, spaces and punctuation so that joining the
//! pieces gives back every byte of the input; and the navigation every rule shares over a
//! sentence's tokens: the word before or after a token, whether a token opens the sentence,
//! whether a phrase stands at a token.

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Letters and digits, with inner apostrophes and hyphens ("don't", "well-known").
    Word,
    /// A run of whitespace.
    Space,
    /// One character of anything else.
    Punct,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    pub text: String,
    pub kind: Kind,
    /// Part of something that is not prose (a URL, an address, code, a number with units, text
    /// in other scripts or with emoji) or of a fixed phrase: never rewritten.
    pub frozen: bool,
    /// Produced or moved by a rewrite.
    pub changed: bool,
    /// On the first word of an expanded contraction: the contraction as written and the words it
    /// was expanded to, lowercase ("I've", "i have"), so that a candidate keeping the text's
    /// contractions can put it back where the words are still the same.
    pub contracted: Option<Box<(String, String)>>,
}

impl Token {
    pub fn new(text: impl Into<String>, kind: Kind) -> Token {
        Token { text: text.into(), kind, frozen: false, changed: false, contracted: None }
    }

    pub fn word(text: impl Into<String>) -> Token {
        Token { changed: true, ..Token::new(text, Kind::Word) }
    }

    pub fn space() -> Token {
        Token { changed: true, ..Token::new(" ", Kind::Space) }
    }

    pub fn is_word(&self) -> bool {
        self.kind == Kind::Word
    }

    pub fn is(&self, kind: Kind, text: &str) -> bool {
        self.kind == kind && self.text == text
    }
}

/// A piece of the text: a sentence to rewrite, or the whitespace between two.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Piece {
    Gap(String),
    Sentence(Vec<Token>),
}

/// Typographic punctuation outside ASCII; any other non-ASCII character counts as part of a word,
/// so that accents, combining marks and emoji never get separated from their letters.
const UNICODE_PUNCT: &[char] = &['‘', '’', '“', '”', '«', '»', '‹', '›', '—', '–', '…', '¡', '¿', '„', '‚'];

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || (!c.is_ascii() && !c.is_whitespace() && !UNICODE_PUNCT.contains(&c))
}

fn is_joiner(c: char) -> bool {
    matches!(c, '\'' | '’' | '-')
}

/// Splits text into tokens; concatenating their texts gives the input back.
pub fn tokenize(text: &str) -> Vec<Token> {
    let mut tokens = Vec::new();
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut i = 0;
    while i < chars.len() {
        let (start, c) = chars[i];
        let mut j = i + 1;
        let kind = if c.is_whitespace() {
            while j < chars.len() && chars[j].1.is_whitespace() {
                j += 1;
            }
            Kind::Space
        } else if is_word_char(c) {
            while j < chars.len() {
                let d = chars[j].1;
                let joined = is_joiner(d) && chars.get(j + 1).is_some_and(|&(_, e)| is_word_char(e));
                if is_word_char(d) || joined {
                    j += if joined { 2 } else { 1 };
                } else {
                    break;
                }
            }
            Kind::Word
        } else {
            Kind::Punct
        };
        let end = chars.get(j).map_or(text.len(), |&(e, _)| e);
        tokens.push(Token::new(&text[start..end], kind));
        i = j;
    }
    freeze_non_prose(&mut tokens);
    freeze_quotes(&mut tokens);
    tokens
}

/// Quote marks and the closers they pair with; a backtick span is code.
const QUOTE_PAIRS: &[(&str, &[&str])] =
    &[("\"", &["\""]), ("“", &["”", "\""]), ("‘", &["’"]), ("'", &["'"]), ("`", &["`"])];

/// Freezes quoted text and code spans with their marks: a quotation is someone's exact words, so
/// a paraphrase keeps it. An opening mark starts a word (after a space or at the start), which
/// tells a single quote from the apostrophe of "the neighbours' cat"; an unpaired mark freezes
/// nothing.
fn freeze_quotes(tokens: &mut [Token]) {
    let mut i = 0;
    while i < tokens.len() {
        let opens = tokens[i].kind == Kind::Punct
            && (i == 0 || tokens[i - 1].kind == Kind::Space)
            && tokens.get(i + 1).is_some_and(|t| t.kind != Kind::Space);
        let closers = QUOTE_PAIRS.iter().find(|(open, _)| tokens[i].text == *open).map(|(_, c)| *c);
        let (true, Some(closers)) = (opens, closers) else {
            i += 1;
            continue;
        };
        let close = (i + 2..tokens.len()).find(|&k| {
            tokens[k].kind == Kind::Punct
                && closers.contains(&tokens[k].text.as_str())
                && tokens[k - 1].kind != Kind::Space
                && tokens.get(k + 1).is_none_or(|t| !t.is_word())
        });
        match close {
            Some(close) => {
                for t in &mut tokens[i..=close] {
                    t.frozen = true;
                }
                i = close + 1;
            }
            None => i += 1,
        }
    }
}

/// Marks every token of a whitespace-delimited chunk that is not plain prose.
fn freeze_non_prose(tokens: &mut [Token]) {
    let mut start = 0;
    while start < tokens.len() {
        if tokens[start].kind == Kind::Space {
            start += 1;
            continue;
        }
        let end = (start..tokens.len()).find(|&k| tokens[k].kind == Kind::Space).unwrap_or(tokens.len());
        if !is_prose(&tokens[start..end]) {
            for t in &mut tokens[start..end] {
                t.frozen = true;
            }
        }
        start = end;
    }
}

fn is_prose(chunk: &[Token]) -> bool {
    const MARKERS: &[char] = &[
        '@', '/', '\\', '_', '=', '<', '>', '{', '}', '[', ']', '|', '#', '~', '`', '*', '^', '+', '$', '%',
        '&',
    ];
    let text: String = chunk.iter().map(|t| t.text.as_str()).collect();
    if text.contains(MARKERS) || text.chars().any(|c| !c.is_ascii() && !UNICODE_PUNCT.contains(&c)) {
        return false;
    }
    // "example.com", "e.g", "3.5": a dot inside a chunk.
    let inner_dot = chunk.windows(3).any(|w| w[0].is_word() && w[1].is(Kind::Punct, ".") && w[2].is_word());
    let odd_word = chunk.iter().filter(|t| t.is_word()).any(|t| {
        let has_digit = t.text.chars().any(|c| c.is_ascii_digit());
        let has_alpha = t.text.chars().any(|c| c.is_alphabetic());
        // "camelCase", "iPhone": an uppercase letter after a lowercase one.
        let inner_upper =
            t.text.as_bytes().windows(2).any(|p| p[0].is_ascii_lowercase() && p[1].is_ascii_uppercase());
        (has_digit && has_alpha) || inner_upper
    });
    !inner_dot && !odd_word
}

const CLOSERS: &[&str] = &[")", "]", "\"", "'", "’", "”", "»"];
const TERMINALS: &[&str] = &[".", "!", "?", "…"];
/// Words that end in a dot without ending the sentence.
const ABBREVIATIONS: &[&str] = &[
    "mr", "mrs", "ms", "dr", "prof", "sr", "jr", "st", "vs", "etc", "inc", "ltd", "co", "corp", "mt", "no",
    "fig", "approx", "dept", "est", "gen", "gov", "sen", "rep", "col", "lt", "sgt", "capt", "ave", "blvd",
    "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec", "vol", "pp", "ca",
    "cf", "al",
];

/// Whether the tokens so far end a sentence: terminal punctuation, then closing quotes or
/// brackets, and not the dot of an abbreviation or an initial.
fn ends_sentence(tokens: &[Token]) -> bool {
    let mut k = tokens.len();
    while k > 0 && tokens[k - 1].kind == Kind::Punct && CLOSERS.contains(&tokens[k - 1].text.as_str()) {
        k -= 1;
    }
    if k == 0 || tokens[k - 1].kind != Kind::Punct || !TERMINALS.contains(&tokens[k - 1].text.as_str()) {
        return false;
    }
    if tokens[k - 1].text == "." && k >= 2 && tokens[k - 2].is_word() {
        let word = tokens[k - 2].text.to_ascii_lowercase();
        if word.chars().count() == 1 || ABBREVIATIONS.contains(&word.as_str()) {
            return false;
        }
    }
    true
}

/// Splits text into sentences and the whitespace between them. A sentence ends at terminal
/// punctuation followed by whitespace, or at a line break.
pub fn split(text: &str) -> Vec<Piece> {
    let mut pieces = Vec::new();
    let mut current: Vec<Token> = Vec::new();
    for token in tokenize(text) {
        let boundary = token.kind == Kind::Space
            && (current.is_empty() || token.text.contains(['\n', '\r']) || ends_sentence(&current));
        if boundary {
            if !current.is_empty() {
                pieces.push(Piece::Sentence(std::mem::take(&mut current)));
            }
            pieces.push(Piece::Gap(token.text));
        } else {
            current.push(token);
        }
    }
    if !current.is_empty() {
        pieces.push(Piece::Sentence(current));
    }
    pieces
}

/// The text of a token list.
pub fn join(tokens: &[Token]) -> String {
    tokens.iter().map(|t| t.text.as_str()).collect()
}

fn word_at(tokens: &[Token], i: Option<usize>) -> Option<String> {
    let t = tokens.get(i?)?;
    t.is_word().then(|| t.text.to_lowercase())
}

/// Token `k`, lowercased, when it is a word a rule may read as such: not frozen (quoted text, code).
pub fn open_word(tokens: &[Token], k: usize) -> Option<String> {
    tokens.get(k).filter(|t| t.is_word() && !t.frozen).map(|t| t.text.to_lowercase())
}

/// Whether `text` lowercased is `word` (lowercase), as `text.to_lowercase() == word` would say
/// but without allocating: a finder asks it of every token before collecting any words.
pub fn lower_is(text: &str, word: &str) -> bool {
    if text.is_ascii() {
        return text.eq_ignore_ascii_case(word);
    }
    // Lowercasing may change a letter's length ("İ") or make it ASCII (the Kelvin sign).
    text.chars().flat_map(char::to_lowercase).eq(word.chars())
}

/// The word token right before `i`, lowercased, separated by one run of spaces (of any width).
pub fn prev_word(tokens: &[Token], i: usize) -> Option<String> {
    (i >= 2 && tokens[i - 1].kind == Kind::Space).then(|| word_at(tokens, Some(i - 2)))?
}

/// The word token right after `i`, lowercased, separated by one run of spaces (of any width).
pub fn next_word(tokens: &[Token], i: usize) -> Option<String> {
    (tokens.get(i + 1)?.kind == Kind::Space).then(|| word_at(tokens, Some(i + 2)))?
}

/// The lowercased words before token `i`, nearest first, at most `n` of them: a bounded look back,
/// where collecting the whole prefix at every word would cost the square of a long sentence.
pub fn words_back(tokens: &[Token], i: usize, n: usize) -> Vec<String> {
    tokens[..i].iter().rev().filter(|t| t.is_word()).take(n).map(|t| t.text.to_lowercase()).collect()
}

/// Whether one of the `n` words before token `i` in its clause (back to the last punctuation),
/// lowercased, is in `list`: the subject or the thing a verb is said of ("the car wouldn't
/// start", "the results should come back").
pub fn listed_before(tokens: &[Token], i: usize, n: usize, list: &[&str]) -> bool {
    tokens[..i]
        .iter()
        .rev()
        .take_while(|t| t.kind != Kind::Punct)
        .filter(|t| t.is_word())
        .take(n)
        .any(|t| list.contains(&t.text.to_lowercase().as_str()))
}

/// Whether token `i` opens the sentence: only punctuation (an opening quote) before it.
pub fn is_sentence_start(tokens: &[Token], i: usize) -> bool {
    tokens[..i].iter().all(|t| t.kind == Kind::Punct)
}

/// The lowercase word before token `i`, joined by exactly one space (`prev_word` takes any run).
pub fn word_before(tokens: &[Token], i: usize) -> Option<String> {
    (i >= 2 && tokens[i - 1].is(Kind::Space, " ") && tokens[i - 2].is_word())
        .then(|| tokens[i - 2].text.to_lowercase())
}

/// Whether a token's text is `word`, ignoring ASCII case and the curly apostrophe. Called for
/// every token and phrase, so it does not allocate.
fn same_word(text: &str, word: &str) -> bool {
    if text.len() != word.len() && !text.contains('’') {
        return false;
    }
    let mut expected = word.chars();
    text.chars().all(|c| {
        let c = if c == '’' { '\'' } else { c };
        expected.next().is_some_and(|e| e.eq_ignore_ascii_case(&c))
    }) && expected.next().is_none()
}

/// The words of `phrase` starting at token `i`, separated by single spaces, none frozen.
pub fn matches_at(tokens: &[Token], i: usize, phrase: &[&str]) -> bool {
    // Most calls fail on the first letter; the full comparison is for the rest.
    let first_letter = |t: &Token, w: &str| {
        t.text.as_bytes().first().map(u8::to_ascii_lowercase)
            == w.bytes().next().map(|b| b.to_ascii_lowercase())
    };
    if !tokens.get(i).zip(phrase.first()).is_some_and(|(t, w)| first_letter(t, w)) {
        return false;
    }
    phrase.iter().enumerate().all(|(k, word)| {
        let t = i + 2 * k;
        let space_ok = k == 0 || tokens.get(t - 1).is_some_and(|s| s.is(Kind::Space, " "));
        space_ok && tokens.get(t).is_some_and(|w| w.is_word() && !w.frozen && same_word(&w.text, word))
    })
}

/// A lowercase word token of three letters or more that no rewrite froze: one a rule may
/// replace or move.
pub fn plain_lower(word: &Token) -> bool {
    word.is_word()
        && !word.frozen
        && word.text.len() >= 3
        && word.text.bytes().all(|b| b.is_ascii_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(tokens: &[Token]) -> Vec<&str> {
        tokens.iter().map(|t| t.text.as_str()).collect()
    }

    #[test]
    fn round_trips() {
        for text in
            ["", " ", "Hello, world!", "  a\tb\n\nc  ", "don't stop-me now…", "émoji 🐶 here", "שלום עולם"]
        {
            assert_eq!(join(&tokenize(text)), text);
            let joined: String = split(text)
                .into_iter()
                .map(|p| match p {
                    Piece::Gap(g) => g,
                    Piece::Sentence(s) => join(&s),
                })
                .collect();
            assert_eq!(joined, text);
        }
    }

    #[test]
    fn words_keep_inner_apostrophes_and_hyphens() {
        let t = tokenize("I don't like well-known 'quotes'.");
        assert_eq!(
            texts(&t),
            ["I", " ", "don't", " ", "like", " ", "well-known", " ", "'", "quotes", "'", "."]
        );
    }

    #[test]
    fn freezes_urls_code_and_other_scripts() {
        let t = tokenize("see https://example.com/jump and foo_bar, camelCase, 3km, café or dog🐶 today");
        let frozen: Vec<&str> =
            t.iter().filter(|t| t.frozen && t.is_word()).map(|t| t.text.as_str()).collect();
        assert_eq!(
            frozen,
            ["https", "example", "com", "jump", "foo", "bar", "camelCase", "3km", "café", "dog🐶"]
        );
        assert!(!t.iter().any(|t| t.frozen && (t.text == "see" || t.text == "today")));
    }

    #[test]
    fn freezes_quotations_and_code_spans() {
        let frozen = |text: &str| -> Vec<String> {
            tokenize(text).into_iter().filter(|t| t.frozen && t.is_word()).map(|t| t.text).collect()
        };
        assert_eq!(frozen("He said \"see you later\" and left."), ["see", "you", "later"]);
        assert_eq!(frozen("A “big deal” here."), ["big", "deal"]);
        assert_eq!(frozen("She said 'hello there' to me."), ["hello", "there"]);
        assert_eq!(frozen("Run `cargo build --release` now."), ["cargo", "build", "release"]);
        // An apostrophe after a plural, and an unpaired mark, freeze nothing.
        assert!(frozen("The neighbours' cat sleeps.").is_empty());
        assert!(frozen("He said \"nothing more.").is_empty());
    }

    #[test]
    fn splits_sentences_but_not_abbreviations() {
        let pieces = split("Mr. Smith left. He said \"Hi!\" Then\nnothing e.g. here");
        let sentences: Vec<String> = pieces
            .iter()
            .filter_map(|p| match p {
                Piece::Sentence(s) => Some(join(s)),
                Piece::Gap(_) => None,
            })
            .collect();
        assert_eq!(sentences, ["Mr. Smith left.", "He said \"Hi!\"", "Then", "nothing e.g. here"]);
    }

    #[test]
    fn word_comparison() {
        assert!(lower_is("Had", "had"));
        assert!(lower_is("TOO\u{212A}", "took"));
        assert!(!lower_is("Hadn", "had"));
        assert!(same_word("Don’t", "don't"));
        assert!(same_word("IN", "in"));
        assert!(!same_word("in", "inn"));
        assert!(!same_word("inn", "in"));
        assert!(!same_word("", "a"));
    }
}
