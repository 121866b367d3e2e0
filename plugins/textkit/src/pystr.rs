//! Python `str` semantics that the reference tools rely on: whitespace, splitting, stripping and
//! lowercasing.
//!
//! Python's `str.isspace()` (and so `split()`, `strip()` and the `\s` of `re`) counts the ASCII
//! information separators U+001C..U+001F as whitespace, which Unicode's `White_Space` property,
//! and so Rust's `char::is_whitespace`, does not. Using Rust's notion would merge or split tokens
//! differently from sacreBLEU on such input.

/// Python's `str.isspace()` for one character.
pub fn is_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// The ASCII characters Python counts as whitespace, as a bit set: `\t\n\x0b\x0c\r`,
/// `\x1c-\x1f` and the space.
const ASCII_SPACES: u64 = 0b1_1111_0000_0000_0000_0011_1110_0000_0000;

/// `is_space` for one byte of ASCII.
fn is_ascii_space(b: u8) -> bool {
    b < 64 && (ASCII_SPACES >> b) & 1 == 1
}

/// Python's `text.split()` with no arguments: runs of whitespace separate, empty pieces are dropped.
pub fn split(text: &str) -> Split<'_> {
    Split { rest: text }
}

/// The iterator of [`split`]. ASCII bytes are classified directly; only non-ASCII characters are
/// decoded.
pub struct Split<'a> {
    rest: &'a str,
}

impl Split<'_> {
    /// The length of the leading run of `text` whose characters are (or are not) whitespace.
    fn run(text: &str, space: bool) -> usize {
        let bytes = text.as_bytes();
        let mut i = 0;
        loop {
            // Skim ASCII of the right kind without decoding.
            match bytes[i..].iter().position(|&b| b >= 0x80 || is_ascii_space(b) != space) {
                None => return bytes.len(),
                Some(skip) => i += skip,
            }
            if bytes[i] < 0x80 {
                return i;
            }
            let c = text[i..].chars().next().expect("i is a character boundary");
            if is_space(c) != space {
                return i;
            }
            i += c.len_utf8();
        }
    }
}

impl<'a> Iterator for Split<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        let rest = &self.rest[Self::run(self.rest, true)..];
        if rest.is_empty() {
            self.rest = rest;
            return None;
        }
        let end = Self::run(rest, false);
        self.rest = &rest[end..];
        Some(&rest[..end])
    }
}

/// Python's `text.rstrip()` with no arguments.
pub fn rstrip(text: &str) -> &str {
    text.trim_end_matches(is_space)
}

/// Python's `text.lower()`.
///
/// Both Python and Rust apply Unicode's full lowercase mapping, including `SpecialCasing` (`İ`
/// becomes `i̇`) and the final-sigma rule; they can only differ on characters that one Unicode
/// version assigns and the other does not (Python 3.11 ships Unicode 14).
pub fn lower(text: &str) -> String {
    let mut out = String::new();
    lower_into(text, &mut out);
    out
}

/// [`lower`] into `out` (cleared first), reusing its memory.
pub fn lower_into(text: &str, out: &mut String) {
    out.clear();
    if text.is_ascii() {
        out.push_str(text);
        out.make_ascii_lowercase();
    } else {
        // The final-sigma rule looks at the neighbours, so the whole text goes through at once.
        out.push_str(&text.to_lowercase());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whitespace_matches_python_isspace() {
        // The full list from CPython 3.11: [c for c in range(0x110000) if chr(c).isspace()].
        let python: Vec<u32> = vec![
            0x9, 0xa, 0xb, 0xc, 0xd, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680, 0x2000, 0x2001,
            0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f,
            0x205f, 0x3000,
        ];
        let ours: Vec<u32> =
            (0..=0x10ffff_u32).filter_map(char::from_u32).filter(|&c| is_space(c)).map(u32::from).collect();
        assert_eq!(ours, python);
    }

    #[test]
    fn ascii_spaces_are_pythons() {
        for b in 0..128u8 {
            assert_eq!(is_ascii_space(b), is_space(char::from(b)), "{b:#x}");
        }
    }

    #[test]
    fn split_drops_empty_pieces() {
        let pieces: Vec<&str> = split("  a\u{1f}b\u{3000}\u{a0}c \n").collect();
        assert_eq!(pieces, ["a", "b", "c"]);
        assert_eq!(split(" \t ").count(), 0);
        assert_eq!(split("").count(), 0);
    }

    #[test]
    fn rstrip_strips_only_the_end() {
        assert_eq!(rstrip(" a b \u{1c}\n\u{2003}"), " a b");
        assert_eq!(rstrip("\u{85}"), "");
    }

    #[test]
    fn lower_follows_python() {
        assert_eq!(lower("ABC déF"), "abc déf");
        assert_eq!(lower("İ"), "i\u{307}");
        assert_eq!(lower("\u{212a}"), "k");
        // Final sigma: 'ΑΣ'.lower() == 'ας', 'ΣΑ'.lower() == 'σα'.
        assert_eq!(lower("ΑΣ"), "ας");
        assert_eq!(lower("ΣΑ"), "σα");
    }
}
