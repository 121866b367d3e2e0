//! Lengths of time in their other spoken forms ("thirty minutes" <-> "half an hour", "two weeks"
//! -> "a fortnight", "seven days" -> "a week", "a century ago" -> "a hundred years ago"),
//! and a pair by its plural ("a new pair of shoes" -> "new shoes"): a word-group site of its own,
//! which combines with every other rewrite of the sentence.

use crate::shape::words_like;
use crate::sites::Sites;
use crate::tokens::{Kind, Token, matches_at, next_word, prev_word};

/// A length of time and its other form ("a week" and "a year" keep their words: readers found
/// "for seven days" and "twelve months" stiff for a stay or a job; "twenty-four hours" is a
/// rolling stretch, which "a day" would make a calendar day). The rewrite of the reverse
/// direction of "half an hour"
/// and its kin lives with the word groups (`phrases`); here are the forms it does not write.
const DURATIONS: &[(&[&str], &[&str])] = &[
    (&["thirty", "minutes"], &["half", "an", "hour"]),
    (&["fifteen", "minutes"], &["a", "quarter", "of", "an", "hour"]),
    (&["forty-five", "minutes"], &["three", "quarters", "of", "an", "hour"]),
    (&["ninety", "minutes"], &["an", "hour", "and", "a", "half"]),
    (&["sixty", "minutes"], &["an", "hour"]),
    (&["seven", "days"], &["a", "week"]),
    (&["fourteen", "days"], &["two", "weeks"]),
    (&["two", "weeks"], &["a", "fortnight"]),
    (&["twelve", "months"], &["a", "year"]),
    (&["a", "decade"], &["ten", "years"]),
    (&["ten", "years"], &["a", "decade"]),
    (&["one", "and", "a", "half", "hours"], &["an", "hour", "and", "a", "half"]),
    (&["a", "century"], &["a", "hundred", "years"]),
    (&["a", "hundred", "years"], &["a", "century"]),
    (&["one", "hundred", "years"], &["a", "century"]),
];

/// Words before a length of time that make it one: how long something lasts or how far off it
/// is ("for a week", "in thirty minutes", "lasted two weeks", "after six months").
const BEFORE: &[&str] = &[
    "for", "in", "within", "than", "about", "almost", "nearly", "over", "after", "under", "around",
    "roughly", "least", "just", "only", "by", "lasted", "lasts", "last", "took", "takes", "take", "spent",
    "spend", "spends", "waited", "wait", "stayed", "stay",
];

/// Words after a length of time that make it one ("a week ago", "two weeks later", "twenty minutes
/// late").
const AFTER: &[&str] = &["ago", "later", "earlier", "late", "early", "before"];

/// Whether the words from `i` to `last` tell how long, in a place where the other form reads the
/// same: never how often ("twice a week", "once a year", "three times a week" would become
/// "twice seven days"), an age ("six months old"), a rate ("twenty-four hours a day"), a
/// possessive ("in two weeks' time") or a subject with its verb ("Two weeks have passed", where
/// "A fortnight have" would break the agreement).
fn is_length(tokens: &[Token], i: usize, last: usize) -> bool {
    let before = prev_word(tokens, i);
    let after = next_word(tokens, last);
    // Only a space or the end of a phrase may follow: not the apostrophe of "two weeks' time".
    let closed = match tokens.get(last + 1) {
        None => true,
        Some(t) if t.kind == Kind::Space => true,
        Some(t) => [".", ",", "!", "?", ";", ":"].contains(&t.text.as_str()),
    };
    let how_often =
        before.as_deref().is_some_and(|b| ["once", "twice", "times", "every", "per"].contains(&b));
    let rate_or_age =
        after.as_deref().is_some_and(|a| ["a", "an", "per", "old", "each", "every"].contains(&a));
    let placed = before.as_deref().is_some_and(|b| BEFORE.contains(&b))
        || after.as_deref().is_some_and(|a| AFTER.contains(&a));
    closed && placed && !how_often && !rate_or_age
}

/// The length of time at `i`, if one is there and free: the number of tokens it covers and its
/// other form.
fn length_at(tokens: &[Token], i: usize) -> Option<(usize, &'static [&'static str])> {
    let &(from, to) = DURATIONS.iter().find(|(from, _)| matches_at(tokens, i, from))?;
    let last = i + 2 * (from.len() - 1);
    // What an earlier word group wrote ("half an hour" -> "thirty minutes") is not written back.
    let free = tokens[i..=last].iter().all(|t| !t.changed && !t.frozen);
    // "a year or two" reads badly as "twelve months or two". ("six months" is not told "half a
    // year": a passport expires in months, and "half a year ago" reads as a guess.)
    let listed = next_word(tokens, last).is_some_and(|w| ["or", "and"].contains(&w.as_str()));
    (free && !listed && is_length(tokens, i, last)).then_some((last + 1 - i, to))
}

/// "a new pair of shoes" -> "new shoes": a pair of what comes in pairs, said by the plural alone.
fn pair_at(tokens: &[Token], i: usize) -> Option<(usize, &'static [&'static str])> {
    // "a new pair of" and "a pair of new" both cover four words.
    let (len, to): (usize, &'static [&'static str]) = (7, &["new"]);
    if !matches_at(tokens, i, &["a", "new", "pair", "of"])
        && !matches_at(tokens, i, &["a", "pair", "of", "new"])
    {
        return None;
    }
    let free = tokens[i..i + len].iter().all(|t| !t.changed);
    let noun = next_word(tokens, i + len - 1)?;
    (free && PAIRED.iter().any(|p| noun == *p)).then_some((len, to))
}

/// Things that come in pairs and are named by a plural ("glasses", "running shoes" ends in one).
const PAIRED: &[&str] = &[
    "shoes",
    "glasses",
    "trainers",
    "boots",
    "jeans",
    "trousers",
    "socks",
    "gloves",
    "sunglasses",
    "running",
    "walking",
    "headphones",
    "earrings",
    "sandals",
    "slippers",
    "shorts",
    "scissors",
];

/// Rewrites each length of time found, one site each.
pub fn rewrite(tokens: Vec<Token>, sites: &mut Sites) -> Vec<Token> {
    let tokens = &tokens;
    sites.scan(tokens, |i| {
        let (len, to) = length_at(tokens, i).or_else(|| pair_at(tokens, i))?;
        Some((i + len, move || words_like(&tokens[i].text, to)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sites::Which;
    use crate::tokens::{join, tokenize};

    fn said(text: &str) -> String {
        join(&rewrite(tokenize(text), &mut Sites::new(Which::All)))
    }

    #[test]
    fn lengths_of_time_in_their_other_form() {
        assert_eq!(
            said("She ran five kilometres in thirty minutes."),
            "She ran five kilometres in half an hour."
        );
        assert_eq!(
            said("My cousin is coming to stay for a week."),
            "My cousin is coming to stay for a week."
        );
        assert_eq!(said("The bridge was built a century ago."), "The bridge was built a hundred years ago.");
        assert_eq!(
            said("The library lends books for two weeks."),
            "The library lends books for a fortnight."
        );
        assert_eq!(
            said("The train was delayed by forty-five minutes."),
            "The train was delayed by three quarters of an hour."
        );
        assert_eq!(said("Thirty minutes later, it stopped."), "Half an hour later, it stopped.");
        assert_eq!(said("I need a new pair of running shoes."), "I need new running shoes.");
    }

    #[test]
    fn how_often_ages_rates_and_subjects_are_left() {
        for text in [
            "She goes to the gym twice a week.",
            "We meet three times a week.",
            "The baby is six months old.",
            "The shop is open twenty-four hours a day.",
            "We will know in two weeks' time.",
            "Two weeks have passed.",
            "A week is a long time in politics.",
            "We change the filter every six months.",
            "My passport expires in six months.",
            "It lasted a year or two.",
        ] {
            assert_eq!(said(text), text);
        }
    }

    #[test]
    fn what_a_word_group_wrote_is_not_written_back() {
        let mut tokens = tokenize("We waited for thirty minutes.");
        for t in &mut tokens[6..9] {
            t.changed = true;
        }
        let out = join(&rewrite(tokens, &mut Sites::new(Which::All)));
        assert_eq!(out, "We waited for thirty minutes.");
    }
}
