//! Register and sense checks on synonyms: a hand-checked table of everyday words (the
//! replacements a person would actually say, or none), a frequency filter on WordNet's own
//! candidates, and the names that must never be read as words.
//!
//! WordNet ranks synonyms by sense, not by register, so left alone it turns "phone" into
//! "telephone", "dies" into "perishes" and "birds" into "vertebrates". The table settles the
//! common words where that happens; for the rest a candidate must be used in everyday text at
//! least a tenth as often as the word it replaces (SemCor counts), which keeps "perish" (5) out
//! for "die" (144) and "employ" (56) out for "use" (623).

use crate::lexicon::{self, Pos};

/// What the table says about a lemma in one part of speech.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Replace with one of these, best first.
    Use(&'static [&'static str]),
    /// Never replace: every synonym shifts the register or the sense.
    Keep,
}

/// `(lemma, part of speech, replacements)`, sorted by lemma then part of speech; an empty list
/// means "keep". Written by hand for everyday English, checked against the senses in WordNet.
#[rustfmt::skip]
const TABLE: &[(&str, Pos, &[&str])] = &[
    ("afraid", Pos::Adj, &["scared"]),
    ("amazing", Pos::Adj, &["incredible"]),
    ("angry", Pos::Adj, &["cross"]),
    ("answer", Pos::Noun, &["reply"]),
    ("apologise", Pos::Verb, &[]),
    ("apologize", Pos::Verb, &[]),
    ("article", Pos::Noun, &[]),
    ("assist", Pos::Verb, &["help"]),
    ("bakery", Pos::Noun, &[]),
    ("beautiful", Pos::Adj, &["lovely"]),
    ("bedroom", Pos::Noun, &[]),
    ("big", Pos::Adj, &["large"]),
    ("bird", Pos::Noun, &[]),
    ("black", Pos::Adj, &[]),
    ("blue", Pos::Adj, &[]),
    ("boring", Pos::Adj, &["dull"]),
    ("brown", Pos::Adj, &[]),
    ("carefully", Pos::Adv, &[]),
    ("castle", Pos::Noun, &[]),
    ("cat", Pos::Noun, &[]),
    ("cheap", Pos::Adj, &["inexpensive"]),
    ("child", Pos::Noun, &["kid"]),
    ("choose", Pos::Verb, &["pick"]),
    ("clever", Pos::Adj, &["smart"]),
    ("climb", Pos::Verb, &["scale"]),
    ("clock", Pos::Noun, &[]),
    ("close", Pos::Verb, &["shut"]),
    ("coat", Pos::Noun, &[]),
    ("cold", Pos::Adj, &[]),
    ("complete", Pos::Verb, &["finish"]),
    ("computer", Pos::Noun, &[]),
    ("correctly", Pos::Adv, &["right"]),
    ("crowded", Pos::Adj, &["packed"]),
    ("dangerous", Pos::Adj, &["unsafe"]),
    ("decide", Pos::Verb, &["choose"]),
    ("decision", Pos::Noun, &["choice"]),
    ("delicious", Pos::Adj, &["tasty"]),
    ("die", Pos::Verb, &[]),
    ("difficult", Pos::Adj, &["hard"]),
    ("doctor", Pos::Noun, &[]),
    ("dog", Pos::Noun, &[]),
    ("easy", Pos::Adj, &["simple"]),
    ("enjoy", Pos::Verb, &["like"]),
    ("enormous", Pos::Adj, &["huge"]),
    ("error", Pos::Noun, &[]),
    ("exam", Pos::Noun, &["test"]),
    ("excellent", Pos::Adj, &["superb"]),
    ("excited", Pos::Adj, &["thrilled"]),
    ("expensive", Pos::Adj, &["costly"]),
    ("fast", Pos::Adj, &["quick"]),
    ("finally", Pos::Adv, &["eventually"]),
    ("finish", Pos::Verb, &["complete"]),
    ("fix", Pos::Verb, &["repair"]),
    ("fridge", Pos::Noun, &["refrigerator"]),
    ("funny", Pos::Adj, &["amusing"]),
    ("gift", Pos::Noun, &["present"]),
    ("glad", Pos::Adj, &["happy"]),
    ("great", Pos::Adj, &["wonderful"]),
    ("green", Pos::Adj, &[]),
    ("guest", Pos::Noun, &["visitor"]),
    ("happen", Pos::Verb, &["occur"]),
    ("happy", Pos::Adj, &["glad"]),
    ("hike", Pos::Verb, &[]),
    ("holiday", Pos::Noun, &[]),
    ("house", Pos::Noun, &[]),
    ("huge", Pos::Adj, &["enormous"]),
    ("internet", Pos::Noun, &[]),
    ("job", Pos::Noun, &[]),
    ("kid", Pos::Noun, &["child"]),
    ("kitchen", Pos::Noun, &[]),
    ("large", Pos::Adj, &["big"]),
    ("long", Pos::Adj, &["lengthy"]),
    ("lovely", Pos::Adj, &["beautiful"]),
    ("mailman", Pos::Noun, &["postman"]),
    ("mistake", Pos::Noun, &[]),
    ("movie", Pos::Noun, &["film"]),
    ("need", Pos::Verb, &["require"]),
    ("nervous", Pos::Adj, &["anxious"]),
    ("nice", Pos::Adj, &["pleasant"]),
    ("noise", Pos::Noun, &[]),
    ("noisy", Pos::Adj, &["loud"]),
    ("odd", Pos::Adj, &["strange"]),
    ("often", Pos::Adv, &["frequently"]),
    ("phone", Pos::Noun, &[]),
    ("photo", Pos::Noun, &["picture"]),
    ("pocket", Pos::Noun, &[]),
    ("present", Pos::Noun, &["gift"]),
    ("price", Pos::Noun, &["cost"]),
    ("print", Pos::Verb, &[]),
    ("problem", Pos::Noun, &["issue"]),
    ("puppy", Pos::Noun, &[]),
    ("purchase", Pos::Verb, &["buy"]),
    ("put", Pos::Verb, &[]),
    ("quick", Pos::Adj, &["fast"]),
    ("quickly", Pos::Adv, &["rapidly"]),
    ("quiet", Pos::Adj, &[]),
    ("quietly", Pos::Adv, &["softly"]),
    ("rarely", Pos::Adv, &["seldom"]),
    ("recommend", Pos::Verb, &["suggest"]),
    ("red", Pos::Adj, &[]),
    ("remember", Pos::Verb, &[]),
    ("repair", Pos::Verb, &["fix"]),
    ("reply", Pos::Verb, &["respond"]),
    ("sad", Pos::Adj, &["unhappy"]),
    ("scared", Pos::Adj, &["afraid"]),
    ("seem", Pos::Verb, &["appear"]),
    ("server", Pos::Noun, &[]),
    ("shirt", Pos::Noun, &[]),
    ("shop", Pos::Noun, &["store"]),
    ("shout", Pos::Verb, &["yell"]),
    ("sick", Pos::Adj, &["ill"]),
    ("simple", Pos::Adj, &["easy"]),
    ("small", Pos::Adj, &[]),
    ("soon", Pos::Adv, &["shortly"]),
    ("store", Pos::Noun, &["shop"]),
    ("strange", Pos::Adj, &["odd"]),
    ("sunny", Pos::Adj, &["bright"]),
    ("taxi", Pos::Noun, &["cab"]),
    ("team", Pos::Noun, &[]),
    ("terrible", Pos::Adj, &["awful"]),
    ("tidy", Pos::Adj, &["neat"]),
    ("tired", Pos::Adj, &["exhausted"]),
    ("trip", Pos::Noun, &[]),
    ("try", Pos::Verb, &["attempt"]),
    ("use", Pos::Verb, &[]),
    ("usually", Pos::Adv, &["normally"]),
    ("want", Pos::Verb, &[]),
    ("white", Pos::Adj, &[]),
    ("wonderful", Pos::Adj, &["marvellous"]),
    ("yellow", Pos::Adj, &[]),
];

/// The table's verdict on a lemma in one part of speech, if it has one.
pub fn verdict(lemma: &str, pos: Pos) -> Option<Verdict> {
    let at = TABLE.binary_search_by(|&(l, p, _)| l.cmp(lemma).then(p.cmp(&pos))).ok()?;
    let list = TABLE[at].2;
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
        for pair in TABLE.windows(2) {
            assert!((pair[0].0, pair[0].1) < (pair[1].0, pair[1].1), "{:?} / {:?}", pair[0].0, pair[1].0);
        }
        for pair in KNOWN_NAMES.windows(2) {
            assert!(pair[0] < pair[1], "{pair:?}");
        }
        for (lemma, _, list) in TABLE {
            assert!(lemma.bytes().chain(list.iter().flat_map(|w| w.bytes())).all(|b| b.is_ascii_lowercase()));
        }
    }

    #[test]
    fn verdicts() {
        assert_eq!(verdict("phone", Pos::Noun), Some(Verdict::Keep));
        assert_eq!(verdict("quick", Pos::Adj), Some(Verdict::Use(&["fast"])));
        assert_eq!(verdict("quick", Pos::Adv), None);
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
