//! Register and sense checks on synonyms: a hand-checked table of everyday words (the
//! replacements a person would actually say, or none), a frequency filter on WordNet's own
//! candidates, and the names that must never be read as words.
//!
//! WordNet ranks synonyms by sense, not by register, so left alone it turns "phone" into
//! "telephone", "dies" into "perishes" and "birds" into "vertebrates". The table settles the
//! common words where that happens; for the rest a candidate must be used in everyday text at
//! least a tenth as often as the word it replaces (SemCor counts), which keeps "perish" (5) out
//! for "die" (144) and "employ" (56) out for "use" (623).
//!
//! The table is `data/everyday.txt`, written by hand and checked against WordNet's senses: one
//! line per lemma and part of speech, `lemma p REPLACEMENT,REPLACEMENT` (best first), or
//! `lemma p` alone for "keep"; `p` is `n`, `v`, `a` or `r`; sorted bytewise, lowercase ASCII.
//! A replacement is a single everyday word that fits the lemma's main senses in that part of
//! speech, takes the same complements, and inflects like it ("bigger" -> "larger").
//! A replacement written `+word` is used only right before a noun ("a small village" -> "a
//! little village", where "too small" is not "too little"), and one written `>word` only at the
//! end of its clause ("learn Python quickly?" -> "learn Python fast?", where "he quickly wrote" is
//! not "he fast wrote"), and one written `-word` only where no noun follows ("The house is big."
//! -> "The house is large.", where "the big game" is no "large game").

use crate::lexicon::{self, Pos};

/// What the table says about a lemma in one part of speech.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Replace with one of these, best first (comma-separated).
    Use(&'static str),
    /// Never replace: every synonym shifts the register or the sense.
    Keep,
}

impl Verdict {
    /// The replacements, best first; none for `Keep`.
    pub fn replacements(self) -> impl Iterator<Item = &'static str> {
        let list = match self {
            Verdict::Use(list) => list,
            Verdict::Keep => "",
        };
        list.split(',').filter(|w| !w.is_empty())
    }
}

/// The table's verdict on a lemma in one part of speech, if it has one.
pub fn verdict(lemma: &str, pos: Pos) -> Option<Verdict> {
    let list = lexicon::everyday(lemma, pos)?;
    Some(if list.is_empty() { Verdict::Keep } else { Verdict::Use(list) })
}

/// A candidate must be used at least this share as often as the word it replaces.
const MIN_FREQUENCY_RATIO: u32 = 10;
/// Evidence below which a candidate is too rare to sound natural in everyday text.
const MIN_CANDIDATE_WEIGHT: u32 = 2;

/// Whether WordNet's candidate for a word of weight `weight` is common enough to replace it.
/// A word SemCor never tagged in this part of speech has no reliable sense, so nothing is.
pub fn common_enough(weight: u32, candidate: &str, pos: Pos) -> bool {
    if weight == 0 {
        return false;
    }
    let theirs = lexicon::lookup(candidate).and_then(|e| e.sense(pos)).map_or(0, |s| s.weight);
    theirs >= MIN_CANDIDATE_WEIGHT && theirs * MIN_FREQUENCY_RATIO >= weight
}

/// Names that are also English words, which a paraphrase must never translate ("Parlance is
/// fast" is about this project, not about idiom). Lowercase, sorted.
const KNOWN_NAMES: &[&str] = &[
    "amazon", "apple", "bath", "china", "java", "jersey", "mercury", "office", "oracle", "parlance",
    "python", "reading", "rust", "shell", "swift", "turkey", "windows", "word",
];

/// Whether a capitalised word is a known name.
pub fn is_known_name(word: &str) -> bool {
    let lower = word.to_ascii_lowercase();
    KNOWN_NAMES.binary_search(&lower.as_str()).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_sorted_and_lowercase() {
        for pair in KNOWN_NAMES.windows(2) {
            assert!(pair[0] < pair[1], "{pair:?}");
        }
        let table = include_str!("../data/everyday.txt");
        let mut seen = std::collections::HashSet::new();
        for line in table.lines() {
            let fields: Vec<&str> = line.split(' ').collect();
            assert!(matches!(fields.len(), 2 | 3), "{line:?}: `lemma p [REPLACEMENT,...]`");
            assert!(["n", "v", "a", "r"].contains(&fields[1]), "{line:?}: unknown part of speech");
            assert!(seen.insert((fields[0], fields[1])), "{line:?} is listed twice");
            let words =
                std::iter::once(fields[0]).chain(fields.get(2).into_iter().flat_map(|l| l.split(',')));
            for word in words {
                let word = word
                    .strip_prefix('+')
                    .or_else(|| word.strip_prefix('>'))
                    .or_else(|| word.strip_prefix('-'))
                    .unwrap_or(word);
                assert!(!word.is_empty() && word.bytes().all(|b| b.is_ascii_lowercase()), "{line:?}");
            }
            let pos = Pos::ALL.into_iter().find(|p| verdict(fields[0], *p).is_some());
            assert!(pos.is_some(), "{line:?} cannot be looked up");
        }
    }

    #[test]
    fn verdicts() {
        assert_eq!(verdict("phone", Pos::Noun), Some(Verdict::Keep));
        assert_eq!(verdict("quick", Pos::Adj), Some(Verdict::Use("+short")));
        assert_eq!(verdict("quick", Pos::Adv), Some(Verdict::Keep));
        assert_eq!(verdict("quick", Pos::Noun), None);
        assert_eq!(verdict("zebra", Pos::Noun), None);
    }

    #[test]
    fn rare_candidates_are_filtered() {
        // "perish" is a synonym of "die" that nobody says of a battery.
        assert!(!common_enough(144, "perish", Pos::Verb));
        assert!(common_enough(40, "rapidly", Pos::Adv));
        assert!(!common_enough(0, "waiter", Pos::Noun));
    }

    #[test]
    fn known_names() {
        assert!(is_known_name("Parlance") && is_known_name("Python"));
        assert!(!is_known_name("Cars"));
    }
}
