//! Word-order rewrites of a plain sentence that keep every word: "X, so Y" becomes "Y because
//! X", a trailing time phrase moves to the front ("... every morning." -> "Every morning, ..."),
//! a frequency adverb moves to the front ("I usually walk" -> "Usually, I walk"), and a manner
//! adverb moves between the verb's front and the end of the clause.
//!
//! Each one fires only on a narrow shape, with no other clause in the sentence that a moved
//! phrase could come to belong to.

use crate::lexicon::Pos;
use crate::morph;
use crate::shape::{self, Plain, comma, leaving_start, starting};
use crate::syntax::has_clause_word;
use crate::tokens::Token;
use crate::words::{
    CLAUSE_WORDS, DAY_NAMES, DEFINITE_DETERMINERS, FREQUENCY_ADVERBS, PHRASE_DETERMINERS, PLACE_PREPOSITIONS,
    SUBJECT_PRONOUNS, TIME_BINDERS, TIME_NOUNS, WEEKDAYS, clearly_finite, is_manner_adverb, is_noun,
    is_plural_noun, modifier_or_noun,
};

/// Hours said as words ("opens at seven").
const CLOCK_HOURS: &[&str] =
    &["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"];

/// How many items the subject takes at the start: a pronoun, or a determiner and a noun.
fn subject_len(p: &Plain) -> Option<usize> {
    let first = p.lower(0);
    if SUBJECT_PRONOUNS.contains(&first.as_str()) {
        return Some(1);
    }
    let noun = p.lower(1);
    let is_noun = morph::analyse(&noun).iter().any(|a| a.pos == Pos::Noun);
    (DEFINITE_DETERMINERS.contains(&first.as_str()) && is_noun).then_some(2)
}

/// "X, so Y." -> "Y because X."
pub fn so_to_because(p: &Plain) -> Option<Vec<Token>> {
    if p.commas() != 1 || p.terminal.text == "?" {
        return None;
    }
    let c = p.items.iter().position(|t| !t.is_word())?;
    let follows = p.lower(c + 2);
    if p.lower(c + 1) != "so"
        || ["that", "much", "many", "far", "long", "do", "did", "is"].contains(&follows.as_str())
    {
        return None;
    }
    let (x, y) = (&p.items[..c], &p.items[c + 2..]);
    if x.len() < 2 || y.len() < 2 {
        return None;
    }
    let mut out = vec![starting(&y[0])];
    out.extend_from_slice(&y[1..]);
    out.push(shape::word("because"));
    out.push(leaving_start(&x[0])?);
    out.extend_from_slice(&x[1..]);
    Some(shape::build(&out, &p.terminal))
}

/// "The wind was so strong that the tent collapsed." -> "The tent collapsed because the wind
/// was so strong."
pub fn so_that_to_because(p: &Plain) -> Option<Vec<Token>> {
    if p.commas() != 0 || p.terminal.text != "." {
        return None;
    }
    let so = p.find("so")?;
    let that = so + 2;
    let other_clause = p
        .items
        .iter()
        .enumerate()
        .any(|(k, t)| k != so && k != that && CLAUSE_WORDS.contains(&t.text.to_lowercase().as_str()));
    if so < 2 || p.lower(that) != "that" || p.items.len() < that + 3 || other_clause {
        return None;
    }
    let (x, y) = (&p.items[..that], &p.items[that + 1..]);
    let mut out = vec![starting(&y[0])];
    out.extend_from_slice(&y[1..]);
    out.push(shape::word("because"));
    out.push(leaving_start(&x[0])?);
    out.extend_from_slice(&x[1..]);
    Some(shape::build(&out, &p.terminal))
}

/// The length of a time phrase ending the sentence ("every morning", "on Mondays", "in 2019").
fn trailing_time_phrase(p: &Plain) -> Option<usize> {
    let n = p.items.len();
    let w = |k: usize| p.from_end(k);
    let last = w(1);
    let two = n >= 2
        && ((["last", "next", "this", "every", "each", "tomorrow", "yesterday"].contains(&w(2).as_str())
            && TIME_NOUNS.contains(&last.as_str()))
            || (w(2) == "most"
                && ["mornings", "evenings", "nights", "days", "weekends"].contains(&last.as_str()))
            || (w(2) == "until"
                && ["noon", "midnight", "tomorrow", "dawn", "dark"].contains(&last.as_str()))
            || (w(2) == "at" && CLOCK_HOURS.contains(&last.as_str()))
            || (w(2) == "in" && ["minutes", "seconds", "moments"].contains(&last.as_str()))
            || (w(2) == "before"
                && ["lunch", "dinner", "breakfast", "work", "school", "dark", "noon", "midnight"]
                    .contains(&last.as_str()))
            || (w(2) == "on" && (WEEKDAYS.contains(&last.as_str()) || DAY_NAMES.contains(&last.as_str())))
            || (w(2) == "at" && ["night", "weekends", "midnight", "noon", "dawn"].contains(&last.as_str()))
            || (w(2) == "by"
                && ["noon", "midnight", "tomorrow", "tonight", "then"].contains(&last.as_str()))
            || (w(2) == "for" && ["breakfast", "lunch", "dinner", "supper"].contains(&last.as_str()))
            || (w(2) == "after"
                && ["work", "school", "lunch", "dinner", "breakfast"].contains(&last.as_str()))
            || (w(2) == "in" && last.len() == 4 && last.bytes().all(|b| b.is_ascii_digit()))
            || (w(2) == "in" && ["summer", "winter", "spring", "autumn"].contains(&last.as_str())));
    let three = n >= 3
        && ["in", "during"].contains(&w(3).as_str())
        && w(2) == "the"
        && ["morning", "afternoon", "evening", "summer", "winter", "spring", "autumn", "night"]
            .contains(&last.as_str());
    const DURATIONS: &[&str] = &["minutes", "hours", "days", "weeks", "months", "years", "seconds"];
    let numbered = n >= 3
        && w(3) == "in"
        && (DURATIONS.contains(&last.as_str())
            || (["one", "a", "an"].contains(&w(2).as_str())
                && ["day", "week", "hour", "minute", "month", "year", "afternoon", "evening"]
                    .contains(&last.as_str())));
    let weekday = |x: &str| WEEKDAYS.iter().any(|d| d.strip_suffix('s') == Some(x));
    let day_part = n >= 3
        && w(3) == "on"
        && weekday(&w(2))
        && ["mornings", "evenings", "afternoons", "nights", "morning", "evening", "afternoon", "night"]
            .contains(&last.as_str());
    // "during the storm", "in his spare time": always about time.
    let during = n >= 3 && w(3) == "during" && PHRASE_DETERMINERS.contains(&w(2).as_str());
    let spare = n >= 4
        && w(4) == "in"
        && ["my", "his", "her", "our", "their", "your"].contains(&w(3).as_str())
        && ["spare", "free"].contains(&w(2).as_str())
        && last == "time";
    let len = if spare {
        4
    } else if three || numbered || day_part || during {
        3
    } else if two {
        2
    } else {
        return None;
    };
    // "early in the morning", "late at night", "late last night" are one phrase.
    let part_of_day = three
        || (w(2) == "at" && last == "night")
        || (["last", "this", "yesterday", "tomorrow"].contains(&w(2).as_str()) && two);
    // After "be" the word is what the subject was ("The bus was late this morning.").
    let linked = ["is", "are", "was", "were", "be", "been"].contains(&w(len + 2).as_str());
    let len = if part_of_day && !linked && n > len && ["early", "late"].contains(&w(len + 1).as_str()) {
        len + 1
    } else {
        len
    };
    let before = w(len + 1);
    (!TIME_BINDERS.contains(&before.as_str()) && !before.ends_with("'s")).then_some(len)
}

/// "We ate at home last night." -> "Last night, we ate at home."
pub fn front_time_phrase(p: &Plain) -> Option<Vec<Token>> {
    if p.commas() != 0 || p.terminal.text == "?" {
        return None;
    }
    let len = trailing_time_phrase(p)?;
    let n = p.items.len();
    // "promised to help him move on Saturday": the day may belong to either verb.
    let infinitive = (0..n).any(|k| {
        p.lower(k) == "to"
            && morph::analyse(&p.lower(k + 1))
                .iter()
                .any(|a| a.pos == Pos::Verb && a.form == morph::Form::Base)
    });
    if has_clause_word(p, usize::MAX) && infinitive {
        return None;
    }
    // "The meeting is in the afternoon.": the phrase is what the subject is, so it stays.
    if n < len + 3 || ["is", "are", "was", "were", "be", "been"].contains(&p.from_end(len + 1).as_str()) {
        return None;
    }
    let mut out = vec![starting(&p.items[n - len])];
    out.extend_from_slice(&p.items[n - len + 1..]);
    out.push(comma());
    out.push(leaving_start(&p.items[0])?);
    out.extend_from_slice(&p.items[1..n - len]);
    Some(shape::build(&out, &p.terminal))
}

/// "I usually walk to work." -> "Usually, I walk to work."
pub fn front_frequency_adverb(p: &Plain) -> Option<Vec<Token>> {
    if p.commas() != 0 || p.terminal.text == "?" {
        return None;
    }
    let s = subject_len(p)?;
    let adverb = p.lower(s);
    if !FREQUENCY_ADVERBS.contains(&adverb.as_str()) || p.items.len() < s + 3 {
        return None;
    }
    let mut out = vec![starting(&p.items[s]), comma(), leaving_start(&p.items[0])?];
    out.extend_from_slice(&p.items[1..s]);
    out.extend_from_slice(&p.items[s + 1..]);
    Some(shape::build(&out, &p.terminal))
}

/// A manner adverb in "-ly" moves from before the verb to the end of the clause ("She quickly
/// finished it." -> "She finished it quickly."), or from the end to before the verb.
pub fn move_manner_adverb(p: &Plain) -> Option<Vec<Token>> {
    if p.commas() != 0 || p.terminal.text == "?" {
        return None;
    }
    let s = subject_len(p)?;
    let n = p.items.len();
    let manner = |k: usize| is_manner_adverb(&p.lower(k));
    if n >= s + 3 && manner(s) && clearly_finite(&p.lower(s + 1), true) && !has_clause_word(p, usize::MAX) {
        let mut out: Vec<Token> = p.items[..s].to_vec();
        out.extend_from_slice(&p.items[s + 1..]);
        out.push(Token { changed: true, ..p.items[s].clone() });
        return Some(shape::build(&out, &p.terminal));
    }
    let degree = ["very", "so", "too", "quite", "really", "more", "most"].contains(&p.from_end(2).as_str());
    if n >= s + 2
        && manner(n - 1)
        && !degree
        && clearly_finite(&p.lower(s), true)
        && !has_clause_word(p, usize::MAX)
    {
        let mut out: Vec<Token> = p.items[..s].to_vec();
        out.push(Token { changed: true, ..p.items[n - 1].clone() });
        out.extend_from_slice(&p.items[s..n - 1]);
        return Some(shape::build(&out, &p.terminal));
    }
    // "He walked slowly along the beach." -> "He slowly walked along the beach."
    let preposition = PLACE_PREPOSITIONS.contains(&p.lower(s + 2).as_str())
        || ["down", "up", "into", "to", "towards", "over", "past", "at"].contains(&p.lower(s + 2).as_str());
    if n >= s + 4
        && manner(s + 1)
        && preposition
        && clearly_finite(&p.lower(s), true)
        && !has_clause_word(p, usize::MAX)
    {
        let mut out: Vec<Token> = p.items[..s].to_vec();
        out.push(Token { changed: true, ..p.items[s + 1].clone() });
        out.push(p.items[s].clone());
        out.extend_from_slice(&p.items[s + 2..]);
        return Some(shape::build(&out, &p.terminal));
    }
    None
}

/// The start of a place or time phrase ending the sentence: a preposition, a determiner, at
/// most two modifiers and a noun, right after a noun or an adverb (after a verb or an adjective
/// the phrase is its complement: "lives in Paris", "interested in art").
fn trailing_place_phrase(p: &Plain) -> Option<usize> {
    let n = p.items.len();
    // "in Vienna": a capitalised name after "in" or "at" is a place.
    let named = n >= 3
        && ["in", "at"].contains(&p.lower(n - 2).as_str())
        && shape::is_title(&p.items[n - 1].text)
        && p.items[n - 1].text.chars().skip(1).all(|c| c.is_ascii_lowercase());
    let start = if named {
        n - 2
    } else {
        // A phrase that opens the sentence does not trail anything.
        let start = (n.saturating_sub(5).max(1)..n.saturating_sub(2))
            .find(|&k| PLACE_PREPOSITIONS.contains(&p.lower(k).as_str()))?;
        if !PHRASE_DETERMINERS.contains(&p.lower(start + 1).as_str()) || (start + 2..n).any(|k| p.is_comma(k))
        {
            return None;
        }
        start
    };
    let last = p.lower(n - 1);
    let last_ok = named || is_noun(&last) || last == "o'clock";
    let inner_ok = (start + 2..n - 1).all(|k| {
        let a = morph::analyse(&p.lower(k));
        !a.is_empty() && a.iter().all(|a| matches!(a.pos, Pos::Noun | Pos::Adj))
    });
    let before = p.lower(start - 1);
    let noun = morph::evidence(&morph::analyse(&before), |a| a.pos == Pos::Noun);
    // A noun after a determiner ("a nurse at"), a clear noun, a particle ("went out during"),
    // or a manner adverb.
    let determined =
        start >= 2 && PHRASE_DETERMINERS.contains(&p.lower(start - 2).as_str()) && is_noun(&before);
    let particle = ["out", "up", "down", "off", "away", "back", "home"].contains(&before.as_str());
    // Verbs of posture and activity take no complement, so a place phrase after them is free.
    const INTRANSITIVE: &[&str] = &[
        "sat", "stood", "lay", "slept", "played", "waited", "worked", "stayed", "rested", "sang", "danced",
        "sits", "stands", "sleeps", "plays", "waits", "works", "stays", "rests", "sings", "dances",
        "sitting", "standing", "sleeping", "playing", "waiting", "working", "resting", "melted", "froze",
        "grew", "happened", "reading", "studying", "swimming", "walking", "running", "cooking", "talking",
    ];
    // "is charging in the bedroom": a progressive with nothing after it.
    let progressive = before.ends_with("ing")
        && start >= 2
        && ["is", "are", "was", "were"].contains(&p.lower(start - 2).as_str());
    let particle = particle || progressive || INTRANSITIVE.contains(&before.as_str());
    let before_ok = noun.at_least(8, 10) || determined || particle || is_manner_adverb(&before);
    (last_ok && inner_ok && before_ok).then_some(start)
}

/// "We spent the weekend at the beach." -> "At the beach, we spent the weekend."
pub fn front_place_phrase(p: &Plain) -> Option<Vec<Token>> {
    if p.commas() != 0 || p.terminal.text == "?" || has_clause_word(p, usize::MAX) {
        return None;
    }
    let k = trailing_place_phrase(p)?;
    // "put the keys in the drawer": the place is what the verb is about.
    const PLACING: &[&str] = &[
        "put", "puts", "placed", "set", "laid", "hung", "kept", "stored", "left", "hid", "keeps", "lives",
        "live", "lived", "dropped", "drops", "parked", "parks", "threw", "poured", "spilled", "spilt",
        "stuck", "leaves",
    ];
    if k < 3 || p.items[..k].iter().any(|t| PLACING.contains(&t.text.to_lowercase().as_str())) {
        return None;
    }
    let mut out = vec![starting(&p.items[k])];
    out.extend_from_slice(&p.items[k + 1..]);
    out.push(comma());
    out.push(leaving_start(&p.items[0])?);
    out.extend_from_slice(&p.items[1..k]);
    Some(shape::build(&out, &p.terminal))
}

/// "This chair is more comfortable than the old one." -> "The old one is less comfortable than
/// this chair." Both sides are short noun phrases of the same number, so the verb still agrees.
pub fn invert_comparison(p: &Plain) -> Option<Vec<Token>> {
    if p.commas() != 0 || p.terminal.text != "." {
        return None;
    }
    let n = p.items.len();
    let be = (2..n.min(5)).find(|&k| ["is", "are", "was", "were"].contains(&p.lower(k).as_str()))?;
    let than = be + 3;
    let side_ok = |from: usize, to: usize| {
        to - from >= 2
            && to - from <= 4
            && DEFINITE_DETERMINERS.contains(&p.lower(from).as_str())
            && p.items[from..to]
                .iter()
                .all(|t| t.is_word() && !CLAUSE_WORDS.contains(&t.text.to_lowercase().as_str()))
    };
    let plural = |k: usize| is_plural_noun(&p.lower(k));
    let adjective = morph::analyse(&p.lower(be + 2)).iter().any(|a| a.pos == Pos::Adj);
    if p.lower(be + 1) != "more"
        || !adjective
        || p.lower(than) != "than"
        || !side_ok(0, be)
        || !side_ok(than + 1, n)
        || plural(be - 1) != plural(n - 1)
    {
        return None;
    }
    let mut out = vec![starting(&p.items[than + 1])];
    out.extend_from_slice(&p.items[than + 2..]);
    out.push(p.items[be].clone());
    out.push(shape::word("less"));
    out.push(p.items[be + 2].clone());
    out.push(p.items[than].clone());
    out.push(leaving_start(&p.items[0])?);
    out.extend_from_slice(&p.items[1..be]);
    Some(shape::build(&out, &p.terminal))
}

/// Words that open a listed noun phrase.
const LIST_OPENERS: &[&str] = &[
    "a", "an", "the", "my", "your", "his", "her", "our", "their", "some", "two", "three", "four", "five",
    "several",
];

/// The end (exclusive) of a short noun phrase opening at `k` ("two brothers", "a big garden").
fn listed_phrase(p: &Plain, k: usize) -> Option<usize> {
    if !LIST_OPENERS.contains(&p.lower(k).as_str()) {
        return None;
    }
    let (noun, modifier) = (is_noun, modifier_or_noun);
    (k + 2..=k + 3).find(|&end| {
        end <= p.items.len()
            && noun(&p.lower(end - 1))
            && (k + 1..end - 1).all(|j| modifier(&p.lower(j)))
            && p.items[k..end].iter().all(Token::is_word)
    })
}

/// Two noun phrases listed as the object at the end of the sentence swap: "He has two brothers
/// and a sister." -> "He has a sister and two brothers."
pub fn swap_listed_objects(p: &Plain) -> Option<Vec<Token>> {
    if p.commas() != 0 || p.terminal.text == "?" {
        return None;
    }
    let n = p.items.len();
    let and = p.find("and")?;
    if p.items[and + 1..].iter().any(|t| CLAUSE_WORDS.contains(&t.text.to_lowercase().as_str())) {
        return None;
    }
    let start = (and.saturating_sub(3)..and).find(|&k| listed_phrase(p, k) == Some(and))?;
    if listed_phrase(p, and + 1) != Some(n) || start == 0 {
        return None;
    }
    // The list is the object of the verb right before it.
    let verb = p.lower(start - 1);
    if !(clearly_finite(&verb, true) || ["has", "have", "had"].contains(&verb.as_str())) {
        return None;
    }
    let mut out: Vec<Token> = p.items[..start].to_vec();
    out.extend_from_slice(&p.items[and + 1..]);
    out.push(p.items[and].clone());
    out.extend_from_slice(&p.items[start..and]);
    Some(shape::build(&out, &p.terminal))
}

/// "The tap in the bathroom is dripping." -> "In the bathroom, the tap is dripping.": a place
/// phrase inside the subject moves to the front when what follows "be" is the subject's state (an
/// adjective or a verb in "-ing" or "-ed"), never what it is ("The man in the car is my uncle").
pub fn front_subject_place(p: &Plain) -> Option<Vec<Token>> {
    // Prepositions of where a thing is, which can stand inside a subject ("the tap in the bathroom").
    const LOCATING: &[&str] = &["in", "on", "at", "under", "behind", "near", "inside", "outside", "beside"];
    const DEGREE: &[&str] = &[
        "still",
        "always",
        "often",
        "usually",
        "very",
        "too",
        "so",
        "really",
        "quite",
        "now",
        "never",
        "completely",
    ];
    if p.commas() != 0 || p.terminal.text != "." || has_clause_word(p, usize::MAX) {
        return None;
    }
    let n = p.items.len();
    let (noun, modifier) = (is_noun, modifier_or_noun);
    if !DEFINITE_DETERMINERS.contains(&p.lower(0).as_str()) {
        return None;
    }
    let prep = (2..=3).find(|&k| LOCATING.contains(&p.lower(k).as_str()))?;
    if !noun(&p.lower(prep - 1)) || !(1..prep - 1).all(|k| modifier(&p.lower(k))) {
        return None;
    }
    if !PHRASE_DETERMINERS.contains(&p.lower(prep + 1).as_str()) {
        return None;
    }
    // The predicate starts at the first verb after the place: "be" and a state, "have" and a
    // participle, or a verb with at most a gerund or an adverb after it ("flickered", "stopped
    // working").
    let be = (prep + 3..n.min(prep + 8)).find(|&k| {
        let w = p.lower(k);
        ["is", "are", "was", "were", "has", "have", "had"].contains(&w.as_str()) || clearly_finite(&w, true)
    })?;
    let place_ok = (prep + 2..be).all(|k| {
        let w = p.lower(k);
        w == "of"
            || (p.lower(k - 1) == "of" && PHRASE_DETERMINERS.contains(&w.as_str()))
            || modifier(&w)
            || noun(&w)
    }) && noun(&p.lower(be - 1));
    let verb = p.lower(be);
    let q = be + 1 + usize::from(DEGREE.contains(&p.lower(be + 1).as_str()));
    let state = p.lower(q);
    let participle = |w: &str| {
        morph::analyse(w).iter().any(|a| {
            a.pos == Pos::Verb && matches!(a.form, morph::Form::Participle | morph::Form::PastOrParticiple)
        })
    };
    let state_ok = match verb.as_str() {
        "is" | "are" | "was" | "were" => {
            !state.is_empty()
                && (state.ends_with("ing")
                    || participle(&state)
                    || morph::analyse(&state)
                        .iter()
                        .any(|a| a.pos == Pos::Adj && a.form == morph::Form::Base))
        }
        "has" | "have" | "had" => q + 1 == n && participle(&state),
        _ => {
            be + 1 == n
                || (be + 2 == n && (p.lower(be + 1).ends_with("ing") || is_manner_adverb(&p.lower(be + 1))))
        }
    };
    if !place_ok || !state_ok {
        return None;
    }
    let mut out = vec![starting(&p.items[prep])];
    out.extend_from_slice(&p.items[prep + 1..be]);
    out.push(comma());
    out.push(leaving_start(&p.items[0])?);
    out.extend_from_slice(&p.items[1..prep]);
    out.extend_from_slice(&p.items[be..]);
    Some(shape::build(&out, &p.terminal))
}

/// "It was late, but we stayed." -> "Although it was late, we stayed."
pub fn but_to_although(p: &Plain) -> Option<Vec<Token>> {
    if p.commas() != 1 || p.terminal.text == "?" {
        return None;
    }
    let c = p.items.iter().position(|t| !t.is_word())?;
    let (x, y) = (&p.items[..c], &p.items[c + 2..]);
    if p.lower(c + 1) != "but"
        || x.len() < 2
        || y.len() < 2
        || !SUBJECT_PRONOUNS.contains(&p.lower(c + 2).as_str())
    {
        return None;
    }
    let mut out = vec![shape::word("Although"), leaving_start(&x[0])?];
    out.extend_from_slice(&x[1..]);
    out.push(comma());
    out.extend_from_slice(y);
    Some(shape::build(&out, &p.terminal))
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::shape::apply as run;

    #[test]
    fn so_becomes_because() {
        assert_eq!(
            run(so_to_because, "It is raining, so we will stay inside.").as_deref(),
            Some("We will stay inside because it is raining.")
        );
        assert_eq!(run(so_to_because, "It was late, so that we left."), None);
        assert_eq!(
            run(so_to_because, "Mary was tired, so we left.").as_deref(),
            Some("We left because Mary was tired.")
        );
    }

    #[test]
    fn so_that_becomes_because() {
        let f = so_that_to_because;
        assert_eq!(
            run(f, "The wind was so strong that the tent collapsed.").as_deref(),
            Some("The tent collapsed because the wind was so strong.")
        );
        assert_eq!(
            run(f, "She laughed so hard that she cried.").as_deref(),
            Some("She cried because she laughed so hard.")
        );
        assert_eq!(run(f, "He left so that we could sleep."), None);
        assert_eq!(run(f, "It was so cold that we stayed in because it snowed."), None);
    }

    #[test]
    fn comparisons_turn_round() {
        let f = invert_comparison;
        assert_eq!(
            run(f, "This chair is more comfortable than the old one.").as_deref(),
            Some("The old one is less comfortable than this chair.")
        );
        assert_eq!(run(f, "The film was more exciting than the books."), None);
        assert_eq!(run(f, "This chair is more comfortable than I thought."), None);
    }

    #[test]
    fn a_place_in_the_subject_moves_to_the_front() {
        let f = front_subject_place;
        assert_eq!(
            run(f, "The tap in the bathroom is dripping.").as_deref(),
            Some("In the bathroom, the tap is dripping.")
        );
        assert_eq!(
            run(f, "The water in the kettle is still hot.").as_deref(),
            Some("In the kettle, the water is still hot.")
        );
        assert_eq!(
            run(f, "The house at the end of the street is empty.").as_deref(),
            Some("At the end of the street, the house is empty.")
        );
        assert_eq!(
            run(f, "The lights in the hall flickered.").as_deref(),
            Some("In the hall, the lights flickered.")
        );
        assert_eq!(
            run(f, "The window in the bathroom is stuck.").as_deref(),
            Some("In the bathroom, the window is stuck.")
        );
        assert_eq!(run(f, "The man in the car is my uncle."), None);
        assert_eq!(run(f, "The man in the car stopped the bus."), None);
        assert_eq!(run(f, "The bread is in the cupboard."), None);
    }

    #[test]
    fn listed_objects_swap() {
        let f = swap_listed_objects;
        assert_eq!(
            run(f, "He has two brothers and a sister.").as_deref(),
            Some("He has a sister and two brothers.")
        );
        assert_eq!(
            run(f, "She bought a lamp and a new rug.").as_deref(),
            Some("She bought a new rug and a lamp.")
        );
        assert_eq!(run(f, "The cat and the dog slept."), None);
        assert_eq!(run(f, "He opened the door and the window was open."), None);
    }

    #[test]
    fn time_phrases_move_to_the_front() {
        let f = front_time_phrase;
        assert_eq!(
            run(f, "He reads the newspaper every morning.").as_deref(),
            Some("Every morning, he reads the newspaper.")
        );
        assert_eq!(
            run(f, "The museum is closed on Mondays.").as_deref(),
            Some("On Mondays, the museum is closed.")
        );
        assert_eq!(run(f, "We moved to Lisbon in 2019.").as_deref(), Some("In 2019, we moved to Lisbon."));
        // The phrase is what the subject is.
        assert_eq!(run(f, "The meeting is in the afternoon."), None);
        assert_eq!(run(f, "The party was on Saturday."), None);
        assert_eq!(
            run(f, "Dinner is ready in twenty minutes.").as_deref(),
            Some("In twenty minutes, dinner is ready.")
        );
        assert_eq!(
            run(f, "It is busy on Saturday mornings.").as_deref(),
            Some("On Saturday mornings, it is busy.")
        );
        assert_eq!(
            run(f, "The streets were empty early in the morning.").as_deref(),
            Some("Early in the morning, the streets were empty.")
        );
        assert_eq!(
            run(f, "We finished the work by noon.").as_deref(),
            Some("By noon, we finished the work.")
        );
        assert_eq!(
            run(f, "She always wears a scarf in winter.").as_deref(),
            Some("In winter, she always wears a scarf.")
        );
        assert_eq!(
            run(f, "She read the whole book in one day.").as_deref(),
            Some("In one day, she read the whole book.")
        );
        assert_eq!(
            run(f, "My sister called me late last night.").as_deref(),
            Some("Late last night, my sister called me.")
        );
        assert_eq!(run(f, "He works late most evenings.").as_deref(), Some("Most evenings, he works late."));
        assert_eq!(
            run(f, "The bus was late this morning.").as_deref(),
            Some("This morning, the bus was late.")
        );
        assert_eq!(
            run(f, "The tickets sold out in minutes.").as_deref(),
            Some("In minutes, the tickets sold out.")
        );
        assert_eq!(
            run(f, "The old tree fell during the storm.").as_deref(),
            Some("During the storm, the old tree fell.")
        );
        assert_eq!(
            run(f, "He writes poems in his spare time.").as_deref(),
            Some("In his spare time, he writes poems.")
        );
        assert_eq!(
            run(f, "She answered the emails before lunch.").as_deref(),
            Some("Before lunch, she answered the emails.")
        );
        assert_eq!(run(f, "The bakery opens at seven.").as_deref(), Some("At seven, the bakery opens."));
        assert_eq!(run(f, "It rained at the end of last year."), None);
        assert_eq!(run(f, "Did it rain last night?"), None);
    }

    #[test]
    fn frequency_adverbs_move_to_the_front() {
        let f = front_frequency_adverb;
        assert_eq!(run(f, "I usually walk to work.").as_deref(), Some("Usually, I walk to work."));
        assert_eq!(run(f, "The shop often closes early.").as_deref(), Some("Often, the shop closes early."));
        assert_eq!(run(f, "I usually do."), None);
    }

    #[test]
    fn manner_adverbs_move() {
        let f = move_manner_adverb;
        assert_eq!(
            run(f, "She quickly finished her homework.").as_deref(),
            Some("She finished her homework quickly.")
        );
        assert_eq!(
            run(f, "He answered all the questions correctly.").as_deref(),
            Some("He correctly answered all the questions.")
        );
        assert_eq!(run(f, "She speaks very quietly."), None);
        assert_eq!(run(f, "He quickly ran and jumped."), None);
        assert_eq!(
            run(f, "He walked slowly along the beach.").as_deref(),
            Some("He slowly walked along the beach.")
        );
    }

    #[test]
    fn place_phrases_move_to_the_front() {
        let f = front_place_phrase;
        assert_eq!(
            run(f, "We spent the weekend at the beach.").as_deref(),
            Some("At the beach, we spent the weekend.")
        );
        assert_eq!(
            run(f, "I have a meeting at three o'clock.").as_deref(),
            Some("At three o'clock, I have a meeting.")
        );
        assert_eq!(
            run(f, "We watched the fireworks from the balcony.").as_deref(),
            Some("From the balcony, we watched the fireworks.")
        );
        assert_eq!(
            run(f, "My cousin is studying medicine in Vienna.").as_deref(),
            Some("In Vienna, my cousin is studying medicine.")
        );
        // After a verb or an adjective the phrase is a complement.
        assert_eq!(run(f, "She lives in a small flat."), None);
        assert_eq!(run(f, "We met in Rome."), None);
        assert_eq!(run(f, "He put the keys in the drawer."), None);
        assert_eq!(run(f, "She dropped her phone in the sink."), None);
        assert_eq!(run(f, "He is interested in the film."), None);
    }

    #[test]
    fn but_becomes_although() {
        assert_eq!(
            run(but_to_although, "He was tired, but he kept working.").as_deref(),
            Some("Although he was tired, he kept working.")
        );
        assert_eq!(run(but_to_although, "It is cheap, but good."), None);
    }
}
