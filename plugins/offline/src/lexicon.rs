//! The embedded WordNet data and its lookups: binary search over sorted text, parsed lazily.
//!
//! Every call runs in a fresh WASM instance, so nothing may be built up front: each file is a
//! sorted list of ASCII lines (see `tools/build_lexicon.py` for the format), and a lookup
//! binary-searches the bytes, snapping to line starts, and parses only the line it lands on.

use std::cmp::Ordering;

const LEXICON: Sorted = Sorted::new(include_str!("../data/lexicon.txt"));
const EXCEPTIONS: Sorted = Sorted::new(include_str!("../data/exceptions.txt"));
const INFLECTIONS: Sorted = Sorted::new(include_str!("../data/inflections.txt"));
const STOPWORDS: Sorted = Sorted::new(include_str!("../data/stopwords.txt"));
const EVERYDAY: Sorted = Sorted::new(include_str!("../data/everyday.txt"));

/// Buckets of the two-letter index: 26 first letters, each with "no second letter" and 26.
const BUCKETS: usize = 26 * 27;

/// A sorted file and, computed at compile time, where the lines of each two-letter prefix start,
/// so that a lookup binary-searches a few hundred bytes instead of the whole file.
struct Sorted {
    data: &'static str,
    /// `starts[b]` is the offset of the first line whose key is in bucket `b` or later.
    starts: [u32; BUCKETS + 1],
}

/// The bucket of a key made of lowercase ASCII letters; `None` for anything else.
const fn bucket(key: &[u8]) -> Option<usize> {
    let first = match key.first() {
        Some(&c) if c.is_ascii_lowercase() => (c - b'a') as usize,
        _ => return None,
    };
    let second = match key {
        [_] | [_, b' ' | b'!' | b'\n', ..] => 0,
        [_, c, ..] if c.is_ascii_lowercase() => (*c - b'a') as usize + 1,
        _ => return None,
    };
    Some(first * 27 + second)
}

impl Sorted {
    const fn new(data: &'static str) -> Sorted {
        let bytes = data.as_bytes();
        let mut starts = [bytes.len() as u32; BUCKETS + 1];
        let mut filled = 0; // buckets before this one have their start
        let mut at = 0;
        while at < bytes.len() {
            // A key that fits no bucket (there is none in the generated files) would only make
            // lookups of that key fall back to the whole file.
            if let Some(b) = bucket(bytes.split_at(at).1) {
                while filled <= b {
                    starts[filled] = at as u32;
                    filled += 1;
                }
            }
            while at < bytes.len() && bytes[at] != b'\n' {
                at += 1;
            }
            at += 1;
        }
        Sorted { data, starts }
    }

    /// The byte range that holds every line whose key could equal `key`.
    fn range(&self, key: &str) -> (usize, usize) {
        match bucket(key.as_bytes()) {
            Some(b) => (self.starts[b] as usize, self.starts[b + 1] as usize),
            None => (0, self.data.len()),
        }
    }
}

/// A WordNet part of speech (adjective satellites are adjectives).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Pos {
    Noun,
    Verb,
    Adj,
    Adv,
}

impl Pos {
    pub const ALL: [Pos; 4] = [Pos::Noun, Pos::Verb, Pos::Adj, Pos::Adv];

    fn code(self) -> u8 {
        match self {
            Pos::Noun => b'n',
            Pos::Verb => b'v',
            Pos::Adj => b'a',
            Pos::Adv => b'r',
        }
    }

    fn from_code(code: u8) -> Option<Pos> {
        Pos::ALL.into_iter().find(|p| p.code() == code)
    }
}

/// One lemma's line of `lexicon.txt`.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    pub lemma: &'static str,
    /// WordNet also spells the lemma capitalised, so a capitalised occurrence may be a name.
    pub proper: bool,
    rest: &'static str,
}

/// What the lexicon knows about a lemma in one part of speech.
#[derive(Clone, Copy, Debug)]
pub struct Sense {
    pub pos: Pos,
    /// SemCor tag count: the evidence that the lemma is used in this part of speech.
    pub weight: u32,
    /// Confidence of the best replacement, 1-9; 0 when there is none.
    pub quality: u8,
    candidates: &'static str,
    /// A more general noun. Not used: it changed the meaning too much ("birds" -> "vertebrates").
    pub hypernym: Option<&'static str>,
}

impl Sense {
    /// Replacements, best first.
    pub fn candidates(&self) -> impl Iterator<Item = &'static str> + use<> {
        self.candidates.split(',').filter(|c| !c.is_empty())
    }
}

impl Entry {
    pub fn senses(&self) -> impl Iterator<Item = Sense> + use<> {
        self.rest.split(' ').filter_map(parse_sense)
    }

    pub fn sense(&self, pos: Pos) -> Option<Sense> {
        self.senses().find(|s| s.pos == pos)
    }
}

/// `P WEIGHT [=Q CAND,...] [^HYPER]`, without the spaces; a malformed field is skipped, since the
/// data is embedded and covered by tests, and a lookup must never fail a call.
fn parse_sense(field: &'static str) -> Option<Sense> {
    let pos = Pos::from_code(*field.as_bytes().first()?)?;
    let body = &field[1..];
    let (body, hypernym) = match body.split_once('^') {
        Some((b, h)) => (b, Some(h).filter(|h| !h.is_empty())),
        None => (body, None),
    };
    let (weight, quality, candidates) = match body.split_once('=') {
        Some((w, c)) if !c.is_empty() => {
            let quality = c.as_bytes()[0].wrapping_sub(b'0');
            if quality > 9 {
                return None;
            }
            (w, quality, &c[1..])
        }
        _ => (body, 0, ""),
    };
    Some(Sense { pos, weight: weight.parse().ok()?, quality, candidates, hypernym })
}

/// The line of `lexicon.txt` for a lowercase lemma.
pub fn lookup(lemma: &str) -> Option<Entry> {
    // Lemmas are unique, so the first match is the line.
    let (lo, hi) = LEXICON.range(lemma);
    let start = find_line(LEXICON.data, lo, hi, lemma, lexicon_key)?;
    let line = LEXICON.data[start..].lines().next()?;
    let head = line.split(' ').next().unwrap_or_default();
    let rest = line.get(head.len() + 1..).unwrap_or_default();
    Some(Entry { lemma: lexicon_key(line), proper: head.ends_with('!'), rest })
}

/// Whether a lowercase word is a function word (or a form of one) that is never replaced.
pub fn is_stopword(word: &str) -> bool {
    let (lo, hi) = STOPWORDS.range(word);
    find_line(STOPWORDS.data, lo, hi, word, |l| l).is_some()
}

/// The hand-checked replacements of a lowercase lemma in one part of speech, from
/// `everyday.txt` (`lemma p [REPLACEMENT,...]`, see `register`): comma-separated, best first, and
/// empty when the word must be kept. `None` when the table does not list it.
pub fn everyday(lemma: &str, pos: Pos) -> Option<&'static str> {
    lines_with_key(&EVERYDAY, lemma, first_field).find_map(|line| {
        let mut fields = line.split(' ').skip(1);
        (Pos::from_code(*fields.next()?.as_bytes().first()?)? == pos).then(|| fields.next().unwrap_or(""))
    })
}

/// WordNet's irregular analyses of a lowercase form: `(base, pos)` pairs, such as
/// `("mouse", Noun)` for "mice".
pub fn irregular_bases(form: &str) -> impl Iterator<Item = (&'static str, Pos)> + use<> {
    lines_with_key(&EXCEPTIONS, form, first_field).filter_map(|line| {
        let mut fields = line.split(' ').skip(1);
        let base = fields.next()?;
        let pos = Pos::from_code(*fields.next()?.as_bytes().first()?)?;
        Some((base, pos))
    })
}

/// WordNet's irregular forms of a lemma in one part of speech, such as "mice" for the noun
/// "mouse" or "began" and "begun" for the verb "begin".
pub fn irregular_forms(base: &str, pos: Pos) -> impl Iterator<Item = &'static str> + use<> {
    lines_with_key(&INFLECTIONS, base, first_field).filter_map(move |line| {
        let mut fields = line.split(' ').skip(1);
        let p = Pos::from_code(*fields.next()?.as_bytes().first()?)?;
        (p == pos).then_some(())?;
        fields.next()
    })
}

fn first_field(line: &str) -> &str {
    line.split(' ').next().unwrap_or_default()
}

fn lexicon_key(line: &str) -> &str {
    let end = line.find([' ', '!']).unwrap_or(line.len());
    &line[..end]
}

/// Every line of a sorted file whose key equals `key` (equal keys are adjacent).
fn lines_with_key(file: &Sorted, key: &str, key_of: fn(&str) -> &str) -> std::str::Lines<'static> {
    let data = file.data;
    let (lo, hi) = file.range(key);
    let Some(found) = find_line(data, lo, hi, key, key_of) else {
        return "".lines();
    };
    let mut first = found;
    while first > lo {
        let prev = data[..first - 1].rfind('\n').map_or(0, |i| i + 1);
        if key_of(&data[prev..first - 1]) != key {
            break;
        }
        first = prev;
    }
    let mut end = found;
    while end < hi {
        let line_end = data[end..].find('\n').map_or(data.len(), |i| end + i);
        if key_of(&data[end..line_end]) != key {
            break;
        }
        end = line_end + 1;
    }
    data[first..end.min(data.len())].lines()
}

/// The start of some line in `[lo, hi)` whose key equals `key`. The window always begins and
/// ends on line starts, so every probe reads a whole line and the window shrinks at each step.
fn find_line(data: &str, mut lo: usize, mut hi: usize, key: &str, key_of: fn(&str) -> &str) -> Option<usize> {
    let bytes = data.as_bytes();
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        let start = bytes[lo..mid].iter().rposition(|&b| b == b'\n').map_or(lo, |i| lo + i + 1);
        let end = bytes[start..].iter().position(|&b| b == b'\n').map_or(bytes.len(), |i| start + i);
        match key_of(&data[start..end]).cmp(key) {
            Ordering::Less => lo = end + 1,
            Ordering::Greater => hi = start,
            Ordering::Equal => return Some(start),
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assert_sorted(name: &str, data: &str, key_of: fn(&str) -> &str) {
        let keys: Vec<&str> = data.lines().map(key_of).collect();
        for pair in keys.windows(2) {
            assert!(pair[0] <= pair[1], "{name} is not sorted at {:?}", pair);
        }
        assert!(data.is_ascii(), "{name} must be ASCII so that byte offsets are char boundaries");
    }

    #[test]
    fn embedded_files_are_sorted_ascii() {
        assert_sorted("lexicon.txt", LEXICON.data, lexicon_key);
        assert_sorted("exceptions.txt", EXCEPTIONS.data, first_field);
        assert_sorted("inflections.txt", INFLECTIONS.data, first_field);
        assert_sorted("stopwords.txt", STOPWORDS.data, |l| l);
        assert_sorted("everyday.txt", EVERYDAY.data, first_field);
        for file in [&LEXICON, &EXCEPTIONS, &INFLECTIONS, &STOPWORDS, &EVERYDAY] {
            for line in file.data.lines() {
                assert!(bucket(line.as_bytes()).is_some(), "{line:?} fits no bucket");
            }
        }
    }

    #[test]
    fn every_lexicon_line_parses() {
        for line in LEXICON.data.lines() {
            let entry = lookup(lexicon_key(line)).unwrap_or_else(|| panic!("cannot find {line:?}"));
            let fields = line.split(' ').count() - 1;
            assert_eq!(entry.senses().count(), fields, "a field of {line:?} does not parse");
            for sense in entry.senses() {
                assert_eq!(sense.quality == 0, sense.candidates().next().is_none(), "{line:?}");
            }
        }
    }

    #[test]
    fn finds_first_last_and_missing_keys() {
        let first = lexicon_key(LEXICON.data.lines().next().unwrap());
        let last = lexicon_key(LEXICON.data.lines().last().unwrap());
        assert!(lookup(first).is_some());
        assert!(lookup(last).is_some());
        for missing in ["", "a", "zzzzzzzz", "aaaaaa", "qqq", "jum", "jumpx"] {
            assert!(lookup(missing).is_none(), "{missing}");
        }
    }

    #[test]
    fn reads_a_known_entry() {
        let jump = lookup("jump").unwrap();
        assert_eq!(jump.lemma, "jump");
        let verb = jump.sense(Pos::Verb).unwrap();
        assert!(verb.weight > 10);
        assert!(verb.candidates().any(|c| c == "leap"));
        assert!(lookup("mark").unwrap().proper);
        assert!(!lookup("jump").unwrap().proper);
    }

    #[test]
    fn every_key_is_found_through_the_index() {
        for (file, key_of) in [
            (&LEXICON, lexicon_key as fn(&str) -> &str),
            (&EXCEPTIONS, first_field),
            (&INFLECTIONS, first_field),
            (&STOPWORDS, |l: &str| l),
        ] {
            for line in file.data.lines() {
                let key = key_of(line);
                assert!(lines_with_key(file, key, key_of).any(|l| l == line), "{line:?}");
            }
        }
    }

    #[test]
    fn exceptions_both_ways() {
        let bases: Vec<_> = irregular_bases("mice").collect();
        assert_eq!(bases, [("mouse", Pos::Noun)]);
        let mut better: Vec<_> = irregular_bases("better").collect();
        better.sort();
        assert!(better.contains(&("good", Pos::Adj)), "{better:?}");
        let mut begin: Vec<_> = irregular_forms("begin", Pos::Verb).collect();
        begin.sort();
        assert_eq!(begin, ["began", "beginning", "begun"]);
        assert_eq!(irregular_forms("mouse", Pos::Verb).count(), 0);
    }

    #[test]
    fn stopwords() {
        for w in ["the", "does", "can", "i", "will", "over", "like"] {
            assert!(is_stopword(w), "{w}");
        }
        for w in ["dog", "jump", "quick", ""] {
            assert!(!is_stopword(w), "{w}");
        }
    }
}
