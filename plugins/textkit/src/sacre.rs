//! sacreBLEU 2.6.0's `13a` tokenizer (`tokenizer_13a.py` + `tokenizer_re.py`), the mteval-v13a
//! tokenization that WMT uses and that `sentence_bleu` applies by default.
//!
//! The regular expressions only ever match ASCII characters next to arbitrary ones, so the passes
//! run on UTF-8 bytes: a multi-byte character can only take part in a match through its last byte
//! (before `.`/`,`) or its first byte (after `.`/`,`), and inserting a space there yields the same
//! text as the character-level regex.

use crate::pystr;

/// Tokenizes one line as `Tokenizer13a()(line)`: tokens separated by single spaces, no leading or
/// trailing space. sacreBLEU strips trailing whitespace (`rstrip`) before calling the tokenizer;
/// that is the caller's job.
pub fn tokenize_13a(line: &str) -> String {
    let mut tokenizer = Tokenizer13a::default();
    let mut out = String::new();
    for token in tokenizer.tokenize(line) {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(token);
    }
    out
}

/// The `13a` tokenizer with scratch buffers reused across lines.
#[derive(Default)]
pub struct Tokenizer13a {
    a: Vec<u8>,
    b: Vec<u8>,
}

impl Tokenizer13a {
    pub fn new() -> Self {
        Self::default()
    }

    /// The tokens of `line`, as [`tokenize_13a`] would join them.
    pub fn tokenize(&mut self, line: &str) -> crate::pystr::Split<'_> {
        let mut line = std::borrow::Cow::Borrowed(line);
        // Most lines need none of the replacements; one scan tells.
        if line.bytes().any(|b| matches!(b, b'\n' | b'<' | b'&')) {
            for (from, to) in [("<skipped>", ""), ("-\n", ""), ("\n", " ")] {
                if line.contains(from) {
                    line = line.replace(from, to).into();
                }
            }
            if line.contains('&') {
                for (from, to) in [("&quot;", "\""), ("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">")] {
                    line = line.replace(from, to).into();
                }
            }
        }
        let (a, b) = (&mut self.a, &mut self.b);

        // ' {line} ', then `([\{-\~\[-\` -\&\(-\+\:-\@\/])` -> ` \1 `.
        a.clear();
        a.push(b' ');
        let mut rest = line.as_bytes();
        while let Some(at) = rest.iter().position(|&byte| is_13a_symbol(byte)) {
            a.extend_from_slice(&rest[..at]);
            a.extend_from_slice(&[b' ', rest[at], b' ']);
            rest = &rest[at + 1..];
        }
        a.extend_from_slice(rest);
        a.push(b' ');

        // The remaining passes only act next to `.`, `,` or `-`, so each copies the runs between
        // those bytes whole. A match consumes two bytes, and the scan resumes after them, as
        // Python's `re.sub` does.

        // `([^0-9])([\.,])` -> `\1 \2 `: period and comma unless preceded by a digit.
        b.clear();
        let mut i = 0;
        while let Some(at) = a.get(i + 1..).and_then(|tail| tail.iter().position(|&c| c == b'.' || c == b','))
        {
            let j = i + 1 + at;
            if a[j - 1].is_ascii_digit() {
                b.extend_from_slice(&a[i..j]);
                i = j;
            } else {
                b.extend_from_slice(&a[i..j - 1]);
                b.extend_from_slice(&[a[j - 1], b' ', a[j], b' ']);
                i = j + 1;
            }
        }
        b.extend_from_slice(a.get(i..).unwrap_or_default());

        // `([\.,])([^0-9])` -> ` \1 \2`: period and comma unless followed by a digit.
        a.clear();
        let mut i = 0;
        while let Some(at) = b[i..].iter().position(|&c| c == b'.' || c == b',') {
            let j = i + at;
            match b.get(j + 1) {
                Some(next) if !next.is_ascii_digit() => {
                    a.extend_from_slice(&b[i..j]);
                    a.extend_from_slice(&[b' ', b[j], b' ', *next]);
                    i = j + 2;
                }
                _ => {
                    a.extend_from_slice(&b[i..=j]);
                    i = j + 1;
                }
            }
        }
        a.extend_from_slice(&b[i..]);

        // `([0-9])(-)` -> `\1 \2 `: dash when preceded by a digit.
        b.clear();
        let mut i = 0;
        while let Some(at) = a.get(i + 1..).and_then(|tail| tail.iter().position(|&c| c == b'-')) {
            let j = i + 1 + at;
            if a[j - 1].is_ascii_digit() {
                b.extend_from_slice(&a[i..j - 1]);
                b.extend_from_slice(&[a[j - 1], b' ', b'-', b' ']);
            } else {
                b.extend_from_slice(&a[i..=j]);
            }
            i = j + 1;
        }
        b.extend_from_slice(a.get(i..).unwrap_or_default());

        // Spaces were only inserted next to ASCII bytes, never inside a character.
        let spaced =
            std::str::from_utf8(b).expect("spaces inserted at character boundaries keep UTF-8 valid");
        pystr::split(spaced)
    }
}

/// The character class `[\{-\~\[-\` -\&\(-\+\:-\@\/]`: ASCII punctuation (and the space) except
/// `'`, `,`, `-` and `.`, which get the context-dependent rules.
fn is_13a_symbol(b: u8) -> bool {
    matches!(b, b'{'..=b'~' | b'['..=b'`' | b' '..=b'&' | b'('..=b'+' | b':'..=b'@' | b'/')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_sacrebleu() {
        // Values from sacrebleu.tokenizers.tokenizer_13a.Tokenizer13a()(line).
        let cases = [
            ("The cat sat on the mat.", "The cat sat on the mat ."),
            (
                "It's 3.5 or 1,000 items, e.g. A-1 and 5-3.",
                "It's 3.5 or 1,000 items , e . g . A-1 and 5 - 3 .",
            ),
            ("&quot;Hi&quot; &amp;lt; &lt;b&gt;", "\" Hi \" < < b >"),
            ("a..b,,c .5 5. x", "a . . b , , c . 5 5 . x"),
            ("line-\nbreak\nnext<skipped> end", "linebreak next end"),
            ("café. 東京, Zürich.ö", "café . 東京 , Zürich . ö"),
            ("(hi) [x] {y} $5 @me #t ~z `q` ^ _ | \\", "( hi ) [ x ] { y } $ 5 @ me # t ~ z ` q ` ^ _ | \\"),
            ("--jumps 1637formalize", "--jumps 1637formalize"),
            ("3.52-3 -- 5--6", "3.52 - 3 -- 5 - -6"),
            ("", ""),
            ("a\u{1f}b\u{a0}c", "a b c"),
        ];
        for (line, expected) in cases {
            assert_eq!(tokenize_13a(line), expected, "{line:?}");
        }
    }
}
