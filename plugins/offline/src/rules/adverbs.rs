//! Adverbs move round their verb: a frequency adverb after the subject goes to the front
//! ("Usually, I walk to work."), a manner adverb in "-ly" goes from before the verb to the end of
//! the clause, and back for a few ("He answered the phone quickly." -> "He quickly answered the
//! phone."; most read stiffly there, "He fluently speaks"), or past a phrase of place ("walked
//! slowly along the beach" -> "walked along the beach slowly"). Only in a sentence of one clause,
//! where the adverb cannot come to modify another verb.

use crate::rules::time::trailing_time_phrase;
use crate::shape::{self, Plain, comma, leaving_start, starting};
use crate::syntax::has_clause_word;
use crate::tokens::Token;
use crate::words::{
    CLAUSE_WORDS, DEFINITE_DETERMINERS, FREQUENCY_ADVERBS, NOUN_PHRASE_DETERMINERS, PHRASE_PREPOSITIONS,
    PREPOSITIONS, SUBJECT_PRONOUNS, clearly_finite, is_manner_adverb, is_noun,
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
    // Adverbs that read as well before a verb with an object ("He warmly thanked the staff.",
    // "She softly closed the door.") but not before one with none, where `BEFORE_THE_VERB`'s
    // other rules would take them ("He warmly smiled at her" is stiff).
    const WITH_AN_OBJECT: &[&str] = &["warmly", "softly", "silently"];
    let adverb = p.from_end(1);
    if !(s + 3..=s + 6).contains(&n)
        || !(BEFORE_THE_VERB.contains(&adverb.as_str()) || WITH_AN_OBJECT.contains(&adverb.as_str()))
    {
        return None;
    }
    // "We walked along the beach silently": with no object these read best after the phrase.
    if WITH_AN_OBJECT.contains(&adverb.as_str()) && PREPOSITIONS.contains(&p.lower(s + 1).as_str()) {
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

/// Verbs of liking, which "really" before them strengthens as "a lot" or "very much" after their
/// object does: "I really enjoyed the film." -> "I enjoyed the film a lot."
const LIKING: &[&str] = &["enjoyed", "enjoy", "enjoys", "liked", "like", "likes", "loved", "love", "loves"];

/// Whether items `from..end` are a short object that a degree phrase may follow: "it", "them",
/// or a determiner and at most three more words ending in a noun, with no preposition, verb or
/// clause in them ("the concert", "our holiday"; not "meeting your parents", "the lessons on data
/// visualization", where "a lot" would come too late or belong to the wrong word).
fn short_object(p: &Plain, from: usize, end: usize) -> bool {
    if end <= from || end - from > 4 {
        return false;
    }
    let first = p.lower(from);
    if end == from + 1 {
        return ["it", "them", "this", "that"].contains(&first.as_str());
    }
    NOUN_PHRASE_DETERMINERS.contains(&first.as_str())
        && is_noun(&p.lower(end - 1))
        && (from + 1..end).all(|k| {
            let w = p.lower(k);
            p.items[k].is_word()
                && !PREPOSITIONS.contains(&w.as_str())
                && !CLAUSE_WORDS.contains(&w.as_str())
                && !["and", "or", "but", "to", "much", "lot"].contains(&w.as_str())
                && !clearly_finite(&w, false)
        })
}

/// "S really VERB OBJECT [time]." -> "S VERB OBJECT DEGREE [time].": "really" before a verb of
/// `verbs` after a pronoun or short subject, moved after the short object as `degree`.
fn really_after_object(p: &Plain, verbs: &[&str], degree: &[&str]) -> Option<Vec<Token>> {
    // A question ("Did you really enjoy it?") doubts, where "a lot" would ask how much.
    if p.commas() != 0 || p.terminal.text == "?" {
        return None;
    }
    let s = subject_len(p)?;
    if p.lower(s) != "really" || !verbs.contains(&p.lower(s + 1).as_str()) {
        return None;
    }
    // A time phrase at the end stays there, after the degree ("enjoyed the concert a lot last
    // night"); any other word after the object refuses ("really liked the paint you picked").
    let end = p.items.len() - trailing_time_phrase(p).unwrap_or(0);
    if !short_object(p, s + 2, end) {
        return None;
    }
    let mut out: Vec<Token> = p.items[..s].to_vec();
    out.extend_from_slice(&p.items[s + 1..end]);
    out.extend(degree.iter().map(|w| shape::word(w)));
    out.extend_from_slice(&p.items[end..]);
    Some(shape::build(&out, &p.terminal))
}

/// "I really enjoyed the concert last night." -> "I enjoyed the concert a lot last night."
pub fn really_a_lot(p: &Plain) -> Option<Vec<Token>> {
    really_after_object(p, LIKING, &["a", "lot"])
}

/// "We really appreciated your help." -> "We appreciated your help very much."
pub fn really_very_much(p: &Plain) -> Option<Vec<Token>> {
    const VERBS: &[&str] = &[
        "enjoyed",
        "enjoy",
        "enjoys",
        "liked",
        "like",
        "likes",
        "loved",
        "love",
        "loves",
        "appreciated",
        "appreciate",
        "appreciates",
    ];
    really_after_object(p, VERBS, &["very", "much"])
}

/// The forms of "wait" whose length and whose "for" phrase may trade places.
const WAITING: &[&str] = &["waited", "wait", "waits"];

/// The length of a wait at `k`: a count and its unit ("an hour", "twenty minutes"), with the unit
/// singular after "a", "an" or "one" and plural after any other count.
fn wait_length(p: &Plain, k: usize) -> bool {
    const ONE: &[&str] = &["a", "an", "one"];
    const MANY: &[&str] = &[
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "fifteen",
        "twenty",
        "thirty",
        "forty",
        "forty-five",
        "fifty",
        "several",
    ];
    let (count, unit) = (p.lower(k), p.lower(k + 1));
    let singular = ["minute", "hour", "day", "week", "month"].contains(&unit.as_str());
    let plural = ["minutes", "hours", "days", "weeks", "months"].contains(&unit.as_str());
    (ONE.contains(&count.as_str()) && singular)
        || ((MANY.contains(&count.as_str()) || count.bytes().all(|b| b.is_ascii_digit())) && plural)
}

/// Whether items `from..end` are who or what is waited for: an object pronoun, or a determiner
/// and a noun phrase of at most four words with no preposition, verb or clause.
fn waited_for(p: &Plain, from: usize, end: usize) -> bool {
    (end == from + 1 && ["him", "her", "them", "us", "me", "you"].contains(&p.lower(from).as_str()))
        || (end > from + 1 && short_object(p, from, end))
}

/// "We waited an hour for the doctor." -> "We waited for the doctor for an hour.", and back:
/// after "wait" the length and the "for" phrase trade places when both are short and end the
/// sentence. Refused with anything after them ("waited an hour for the doctor to call"), where
/// the length would come to belong to another verb.
pub fn wait_length_moved(p: &Plain) -> Option<Vec<Token>> {
    if p.commas() != 0 || p.terminal.text == "?" {
        return None;
    }
    let s = subject_len(p)?;
    let n = p.items.len();
    if !WAITING.contains(&p.lower(s).as_str()) {
        return None;
    }
    let mut out: Vec<Token> = p.items[..=s].to_vec();
    if wait_length(p, s + 1) && p.lower(s + 3) == "for" && waited_for(p, s + 4, n) {
        // "waited an hour for the doctor" -> "waited for the doctor for an hour"
        out.extend_from_slice(&p.items[s + 3..n]);
        out.push(shape::word("for"));
        out.extend_from_slice(&p.items[s + 1..s + 3]);
    } else if n >= s + 6 && p.lower(s + 1) == "for" && p.lower(n - 3) == "for" && wait_length(p, n - 2) {
        // "waited for the bus for twenty minutes" -> "waited twenty minutes for the bus"
        if !waited_for(p, s + 2, n - 3) {
            return None;
        }
        out.extend_from_slice(&p.items[n - 2..n]);
        out.extend_from_slice(&p.items[s + 1..n - 3]);
    } else {
        return None;
    }
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
        assert_eq!(
            run(f, "The manager thanked the staff warmly.").as_deref(),
            Some("The manager warmly thanked the staff.")
        );
        assert_eq!(run(f, "He smiled at the child warmly."), None);
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

    #[test]
    fn really_goes_after_the_object() {
        assert_eq!(
            run(really_a_lot, "I really enjoyed the concert last night.").as_deref(),
            Some("I enjoyed the concert a lot last night.")
        );
        assert_eq!(
            run(really_very_much, "We really appreciated your help.").as_deref(),
            Some("We appreciated your help very much.")
        );
        assert_eq!(run(really_a_lot, "I really like it.").as_deref(), Some("I like it a lot."));
        // A gerund, a preposition or a clause in the object; a question; no "really".
        assert_eq!(run(really_a_lot, "I really enjoyed meeting your parents last night."), None);
        assert_eq!(run(really_a_lot, "I really enjoyed the lessons on data visualization."), None);
        assert_eq!(run(really_a_lot, "I really like the green paint you picked for the walls."), None);
        assert_eq!(run(really_a_lot, "Did you really enjoy the film?"), None);
        assert_eq!(run(really_a_lot, "I enjoyed the film."), None);
    }

    #[test]
    fn a_wait_trades_its_length_and_its_phrase() {
        let f = wait_length_moved;
        assert_eq!(
            run(f, "We waited an hour for the doctor.").as_deref(),
            Some("We waited for the doctor for an hour.")
        );
        assert_eq!(
            run(f, "We waited for the bus for twenty minutes.").as_deref(),
            Some("We waited twenty minutes for the bus.")
        );
        // A verb after the phrase; a unit that does not agree; another verb.
        assert_eq!(run(f, "We waited an hour for the doctor to call."), None);
        assert_eq!(run(f, "We waited two hour for the doctor."), None);
        assert_eq!(run(f, "We looked for the cat for an hour."), None);
    }
}
