//! Adverbs move round their verb: a frequency adverb after the subject goes to the front
//! ("Usually, I walk to work."), a manner adverb in "-ly" goes from before the verb to the end of
//! the clause, and back for a few ("He answered the phone quickly." -> "He quickly answered the
//! phone."; most read stiffly there, "He fluently speaks"), or past a phrase of place ("walked
//! slowly along the beach" -> "walked along the beach slowly"). Only in a sentence of one clause,
//! where the adverb cannot come to modify another verb.

use crate::shape::{self, Plain, comma, leaving_start, starting};
use crate::syntax::has_clause_word;
use crate::tokens::Token;
use crate::words::{
    DEFINITE_DETERMINERS, FREQUENCY_ADVERBS, PHRASE_PREPOSITIONS, SUBJECT_PRONOUNS, clearly_finite,
    is_manner_adverb, is_noun,
};

/// How many items the subject takes at the start: a pronoun, or a determiner and a noun.
fn subject_len(p: &Plain) -> Option<usize> {
    let first = p.lower(0);
    if SUBJECT_PRONOUNS.contains(&first.as_str()) {
        return Some(1);
    }
    // `is_noun`, not the lexicon alone: it leaves out plain nouns without synonyms ("hairdresser",
    // "goalkeeper"), which are subjects all the same.
    (DEFINITE_DETERMINERS.contains(&first.as_str()) && is_noun(&p.lower(1))).then_some(2)
}

/// "I usually walk to work." -> "Usually, I walk to work."
pub fn front_frequency_adverb(p: &Plain) -> Option<Vec<Token>> {
    if p.commas() != 0 || p.terminal.text == "?" {
        return None;
    }
    let s = subject_len(p)?;
    let adverb = p.lower(s);
    // "finally" after the subject is "at last"; in front it reads as "lastly", the end of a list.
    // "Often, we go" reads as a list's opener too: readers found it stiff.
    if !FREQUENCY_ADVERBS.contains(&adverb.as_str())
        || ["finally", "often"].contains(&adverb.as_str())
        || p.items.len() < s + 3
    {
        return None;
    }
    let mut out = vec![starting(&p.items[s]), comma(), leaving_start(&p.items[0])?];
    out.extend_from_slice(&p.items[1..s]);
    out.extend_from_slice(&p.items[s + 1..]);
    Some(shape::build(&out, &p.terminal))
}

/// A manner adverb in "-ly" moves from before the verb to the end of the clause ("She quickly
/// finished it." -> "She finished it quickly."). The other way only for `BEFORE_THE_VERB`: before
/// the verb most read stiffly ("He fluently speaks three languages.").
pub fn move_manner_adverb(p: &Plain) -> Option<Vec<Token>> {
    if p.commas() != 0 || p.terminal.text == "?" {
        return None;
    }
    let s = subject_len(p)?;
    let n = p.items.len();
    // "rarely", "seldom", "hardly" say how often, and at the end read as an afterthought;
    // "happily agreed" is "willingly", where "agreed happily" tells a mood.
    let manner = |k: usize| {
        is_manner_adverb(&p.lower(k))
            && !["rarely", "seldom", "hardly", "barely", "scarcely", "happily"].contains(&p.lower(k).as_str())
    };
    if n >= s + 3 && manner(s) && clearly_finite(&p.lower(s + 1), true) && !has_clause_word(p, usize::MAX) {
        let mut out: Vec<Token> = p.items[..s].to_vec();
        out.extend_from_slice(&p.items[s + 1..]);
        out.push(Token { changed: true, ..p.items[s].clone() });
        return Some(shape::build(&out, &p.terminal));
    }
    None
}

/// Manner adverbs that read as well before a verb in the past as after its object: "He answered
/// the phone quickly." -> "He quickly answered the phone." Only these: most others read stiffly
/// there ("He fluently spoke three languages").
const BEFORE_THE_VERB: &[&str] = &[
    "quickly",
    "carefully",
    "slowly",
    "quietly",
    "gently",
    "calmly",
    "politely",
    "neatly",
    "patiently",
    "easily",
];

/// "He answered the phone quickly." -> "He quickly answered the phone.": the adverb of a short
/// clause of one verb in the past moved before the verb, so that it keeps modifying it.
pub fn manner_adverb_before_verb(p: &Plain) -> Option<Vec<Token>> {
    if p.commas() != 0 || p.terminal.text == "?" {
        return None;
    }
    let s = subject_len(p)?;
    let n = p.items.len();
    if !(s + 3..=s + 6).contains(&n) || !BEFORE_THE_VERB.contains(&p.from_end(1).as_str()) {
        return None;
    }
    let verb = p.lower(s);
    // A verb in the past, told by its "-ed" or by its analysis, and no other verb after it that
    // the adverb might belong to ("He left to find help quickly").
    if !clearly_finite(&verb, true) || has_clause_word(p, usize::MAX) {
        return None;
    }
    let later_verb = (s + 1..n - 1).any(|k| {
        let w = p.lower(k);
        w == "to"
            || w.ends_with("ing")
            || clearly_finite(&w, false)
            || ["and", "or", "but"].contains(&w.as_str())
    });
    if later_verb || !plain_past(&verb) {
        return None;
    }
    let mut out: Vec<Token> = p.items[..s].to_vec();
    out.push(Token { changed: true, ..p.items[n - 1].clone() });
    out.extend_from_slice(&p.items[s..n - 1]);
    Some(shape::build(&out, &p.terminal))
}

/// Whether a verb the analysis reads as finite is told in the past by its form: an "-ed", or one
/// of the common irregular pasts that are no present too.
fn plain_past(verb: &str) -> bool {
    verb.ends_with("ed")
        || [
            "ate", "drank", "ran", "drove", "wrote", "took", "left", "read", "came", "went", "spoke", "put",
            "shut", "made", "got", "found", "sold", "paid", "told", "said", "swam", "sang", "sat", "stood",
            "rode", "flew", "fell", "grew",
        ]
        .contains(&verb)
}

/// "The passengers waited patiently for the next train." -> "The passengers patiently waited
/// for the next train.": the adverb of `BEFORE_THE_VERB` between a verb in the past with no
/// object and the one phrase that follows it goes before the verb, which it still modifies. The
/// phrase is a preposition and at most four words with no verb or clause in it, so that no other
/// verb can claim the adverb.
pub fn manner_adverb_before_intransitive(p: &Plain) -> Option<Vec<Token>> {
    // Before a verb with no object "quickly" reads as "soon" ("The seals quickly swam around":
    // at once, not fast), "quietly" as "discreetly" and "easily" as "by far".
    const SHIFTING: &[&str] = &["quickly", "quietly", "easily"];
    if p.commas() != 0 || p.terminal.text != "." || has_clause_word(p, usize::MAX) {
        return None;
    }
    let s = subject_len(p)?;
    let n = p.items.len();
    let verb = p.lower(s);
    let adverb = p.lower(s + 1);
    if !(s + 4..=s + 7).contains(&n)
        || !BEFORE_THE_VERB.contains(&adverb.as_str())
        || SHIFTING.contains(&adverb.as_str())
        || !clearly_finite(&verb, true)
        || !plain_past(&verb)
        || !PHRASE_PREPOSITIONS.contains(&p.lower(s + 2).as_str())
    {
        return None;
    }
    let phrase_ok = (s + 3..n).all(|k| {
        let w = p.lower(k);
        p.items[k].is_word()
            && !["and", "or", "but", "to"].contains(&w.as_str())
            && !clearly_finite(&w, false)
            && !w.ends_with("ing")
    });
    if !phrase_ok {
        return None;
    }
    let mut out: Vec<Token> = p.items[..s].to_vec();
    out.push(Token { changed: true, ..p.items[s + 1].clone() });
    out.push(p.items[s].clone());
    out.extend_from_slice(&p.items[s + 2..]);
    Some(shape::build(&out, &p.terminal))
}

/// "He walked slowly along the beach." -> "He walked along the beach slowly.": after a verb in
/// the past with no object, the adverb goes past the one phrase of place that follows, which it
/// still modifies, as the clause's last word, when the phrase tells a way or a goal. Only the adverbs of `BEFORE_THE_VERB` and a few of
/// sound, and only a phrase of at most four words with no verb or clause in it ("The snow melted
/// quickly once the sun came out" keeps its adverb with "melted").
pub fn manner_adverb_past_phrase(p: &Plain) -> Option<Vec<Token>> {
    // A way or a goal: after "at the end" or "in the kitchen" the adverb reads as an afterthought.
    const WAYS: &[&str] = &[
        "along", "through", "across", "into", "towards", "toward", "to", "past", "around", "round", "down",
        "up",
    ];
    if p.commas() != 0 || p.terminal.text != "." {
        return None;
    }
    let s = subject_len(p)?;
    let n = p.items.len();
    let adverb = p.lower(s + 1);
    let sound = ["loudly", "softly", "patiently", "silently", "happily"];
    let verb = p.lower(s);
    if !(s + 4..=s + 6).contains(&n)
        || !(BEFORE_THE_VERB.contains(&adverb.as_str()) || sound.contains(&adverb.as_str()))
        || !verb.ends_with("ed")
        || !clearly_finite(&verb, true)
        || !WAYS.contains(&p.lower(s + 2).as_str())
        || has_clause_word(p, usize::MAX)
    {
        return None;
    }
    // The phrase is a determiner and nouns or adjectives: no verb, no second phrase after it.
    let phrase_ok = (s + 3..n).all(|k| {
        let w = p.lower(k);
        !["and", "or", "but", "to", "of"].contains(&w.as_str())
            && !PHRASE_PREPOSITIONS.contains(&w.as_str())
            && !clearly_finite(&w, false)
            && !w.ends_with("ing")
    });
    if !phrase_ok {
        return None;
    }
    let mut out: Vec<Token> = p.items[..s + 1].to_vec();
    out.extend_from_slice(&p.items[s + 2..]);
    out.push(Token { changed: true, ..p.items[s + 1].clone() });
    Some(shape::build(&out, &p.terminal))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::apply as run;

    #[test]
    fn a_manner_adverb_goes_before_a_verb_with_no_object() {
        let f = manner_adverb_before_intransitive;
        assert_eq!(
            run(f, "The passengers waited patiently for the next train.").as_deref(),
            Some("The passengers patiently waited for the next train.")
        );
        assert_eq!(
            run(f, "The bear climbed slowly up the rocks.").as_deref(),
            Some("The bear slowly climbed up the rocks.")
        );
        // An adverb whose meaning moves with it; a present; a verb after the phrase.
        assert_eq!(run(f, "The zebras grazed happily in the field."), None);
        assert_eq!(run(f, "The seals swam quickly around the pool."), None);
        assert_eq!(run(f, "They talked quietly in the kitchen."), None);
        assert_eq!(run(f, "The fans sang loudly for the home team."), None);
        assert_eq!(run(f, "The old man walks slowly to the shop."), None);
        assert_eq!(run(f, "He left quickly to find some help."), None);
    }

    #[test]
    fn a_manner_adverb_goes_past_its_way() {
        let f = manner_adverb_past_phrase;
        assert_eq!(
            run(f, "He walked slowly along the beach.").as_deref(),
            Some("He walked along the beach slowly.")
        );
        assert_eq!(
            run(f, "The students listened carefully to the lecture.").as_deref(),
            Some("The students listened to the lecture carefully.")
        );
        assert_eq!(run(f, "The audience clapped loudly at the end."), None);
        assert_eq!(run(f, "She walked quickly to the station and caught the train."), None);
        assert_eq!(run(f, "The snow melted quickly once the sun came out."), None);
    }

    #[test]
    fn frequency_adverbs_move_to_the_front() {
        let f = front_frequency_adverb;
        assert_eq!(run(f, "I usually walk to work.").as_deref(), Some("Usually, I walk to work."));
        assert_eq!(run(f, "The shop often closes early."), None);
        assert_eq!(run(f, "I usually do."), None);
        assert_eq!(run(f, "Our landlord finally fixed the boiler after three weeks."), None);
    }

    #[test]
    fn manner_adverbs_move() {
        let f = move_manner_adverb;
        assert_eq!(
            run(f, "She quickly finished her homework.").as_deref(),
            Some("She finished her homework quickly.")
        );
        assert_eq!(run(f, "He answered all the questions correctly."), None);
        assert_eq!(run(f, "The boss happily agreed to the plan."), None);
        let f = manner_adverb_before_verb;
        assert_eq!(
            run(f, "He answered the phone quickly.").as_deref(),
            Some("He quickly answered the phone.")
        );
        assert_eq!(run(f, "He left to find help quickly."), None);
        assert_eq!(run(f, "He answered all the questions correctly."), None);
        // A subject the lexicon leaves out ("hairdresser") is a noun all the same.
        assert_eq!(
            run(f, "The hairdresser washed my hair carefully.").as_deref(),
            Some("The hairdresser carefully washed my hair.")
        );
        assert_eq!(
            run(f, "The barber trimmed his beard neatly.").as_deref(),
            Some("The barber neatly trimmed his beard.")
        );
        // Before the verb "clearly" and "happily" would say "obviously" and "willingly".
        assert_eq!(run(f, "The coach explained the rules clearly."), None);
        assert_eq!(run(f, "The children played the game happily."), None);
        // A verb in "-ing" after the verb may be the adverb's.
        assert_eq!(run(f, "He checked the tracking number carefully."), None);
    }
}
