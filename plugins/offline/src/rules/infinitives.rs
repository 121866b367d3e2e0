//! A verb's complement in its other form: "learned to swim" <-> "learned how to swim", "taught
//! me to ride" <-> "taught me how to ride" ("started to rain" <-> "started raining" is the word
//! groups' own, `phrasal`), and the perfect of a state that lasts up to now in its other aspect,
//! "has been working here for ten years" <-> "has worked here for ten years". A word-group site
//! of its own.

use crate::lexicon::Pos;
use crate::morph::{Form, analyse, inflect};
use crate::shape::words_like;
use crate::sites::Sites;
use crate::tokens::{Token, matches_at, next_word};
use crate::words::OBJECT_PRONOUNS;

const LEARNS: &[&str] = &["learn", "learns", "learned", "learnt", "learning"];
const TEACHES: &[&str] = &["teach", "teaches", "taught", "teaching"];

/// Verbs of a state or an activity that goes on, whose perfect with "for" or "since" tells the
/// same in either aspect ("has lived here since 2015", "has been living here since 2015"); not
/// verbs of an event ("has been reading the book" is not "has read the book").
const LASTING: &[(&str, &str, &str)] = &[
    ("lived", "living", "live"),
    ("worked", "working", "work"),
    ("studied", "studying", "study"),
    ("taught", "teaching", "teach"),
    ("played", "playing", "play"),
    ("stayed", "staying", "stay"),
];

fn word(tokens: &[Token], k: usize) -> Option<String> {
    tokens.get(k).filter(|t| t.is_word() && !t.frozen && !t.changed).map(|t| t.text.to_lowercase())
}

/// A plain verb ("rain", "swim") that has a form in "-ing".
fn base_verb(w: &str) -> Option<String> {
    analyse(w)
        .iter()
        .any(|a| a.pos == Pos::Verb && a.form == Form::Base)
        .then(|| inflect(w, Pos::Verb, Form::Gerund))?
}

/// The complement at `i` (the verb before it at `i - 2`): the words it covers and its other form.
fn complement_at(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    let w = word(tokens, i)?;
    let before = |k: usize| k.checked_sub(2).and_then(|b| word(tokens, b));
    let head = before(i).unwrap_or_default();
    // "learned to swim" <-> "learned how to swim"; "taught me to ride" <-> "taught me how to ride".
    let teaches = OBJECT_PRONOUNS.contains(&head.as_str())
        && before(i - 2).is_some_and(|t| TEACHES.contains(&t.as_str()));
    if LEARNS.contains(&head.as_str()) || teaches {
        if w == "to" {
            base_verb(&word(tokens, i + 2)?)?;
            return Some((1, vec!["how".to_string(), "to".to_string()]));
        }
        if w == "how" && matches_at(tokens, i + 2, &["to"]) {
            base_verb(&word(tokens, i + 4)?)?;
            return Some((2, vec!["to".to_string()]));
        }
    }
    None
}

/// The perfect at `i` ("has been working", "has worked"), with "for" or "since" later in the
/// sentence: the words it covers and its other aspect.
fn perfect_at(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    let have = word(tokens, i)?;
    if !["has", "have", "had"].contains(&have.as_str()) {
        return None;
    }
    // "for" must tell a length ("for ten years", "for the past month", "for over a year"), not
    // whom or what ("has been waiting for the bus", "has worked for a charity", "has played for
    // two clubs"): a unit of time within four words, past counting words only.
    const COUNTING: &[&str] = &[
        "a", "an", "the", "past", "last", "two", "three", "four", "five", "six", "seven", "eight", "nine",
        "ten", "twenty", "thirty", "forty", "fifty", "many", "several", "over", "more", "than", "almost",
        "nearly", "about", "few", "couple", "of", "long", "whole",
    ];
    const UNITS: &[&str] = &[
        "years",
        "year",
        "months",
        "month",
        "weeks",
        "week",
        "days",
        "day",
        "decade",
        "decades",
        "hours",
        "while",
        "ages",
        "time",
        "lifetime",
        "fortnight",
    ];
    let length_after = |k: usize| {
        let mut j = k;
        for _ in 0..5 {
            let Some(w) = next_word(tokens, j) else { return false };
            if UNITS.contains(&w.as_str()) {
                return true;
            }
            if !COUNTING.contains(&w.as_str()) && !w.bytes().all(|b| b.is_ascii_digit()) {
                return false;
            }
            j += 2;
        }
        false
    };
    let lasting = (i..tokens.len()).any(|k| {
        let w = tokens[k].text.to_lowercase();
        tokens[k].is_word() && (w == "since" || (w == "all" && k > i + 2) || (w == "for" && length_after(k)))
    });
    if !lasting {
        return None;
    }
    let next = word(tokens, i + 2)?;
    if next == "been" {
        let doing = word(tokens, i + 4)?;
        let &(done, _, _) = LASTING.iter().find(|(_, ing, _)| *ing == doing)?;
        return Some((3, vec![have, done.to_string()]));
    }
    let &(_, doing, _) = LASTING.iter().find(|(done, _, _)| *done == next)?;
    // "has played the piano for years" is as good either way; "has taught me" is an event.
    let object = next_word(tokens, i + 2).is_some_and(|n| OBJECT_PRONOUNS.contains(&n.as_str()));
    (!object).then(|| (2, vec![have, "been".to_string(), doing.to_string()]))
}

/// Rewrites each complement and lasting perfect found, one site each.
pub fn rewrite(tokens: Vec<Token>, sites: &mut Sites) -> Vec<Token> {
    let tokens = &tokens;
    sites.scan(tokens, |i| {
        let (len, to) = perfect_at(tokens, i).or_else(|| complement_at(tokens, i))?;
        let end = i + 2 * (len - 1) + 1;
        (end <= tokens.len()).then_some((end, move || {
            let to: Vec<&str> = to.iter().map(String::as_str).collect();
            words_like(&tokens[i].text, &to)
        }))
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
    fn complements_in_their_other_form() {
        assert_eq!(said("She learned to swim last summer."), "She learned how to swim last summer.");
        assert_eq!(said("My father taught me how to ride a bike."), "My father taught me to ride a bike.");
        assert_eq!(said("She has been working here for ten years."), "She has worked here for ten years.");
        assert_eq!(said("We have lived here since 2015."), "We have been living here since 2015.");
    }

    #[test]
    fn double_complements_events_and_no_duration_are_left() {
        for text in [
            "I have been waiting for the bus for ages.",
            "He has played for Arsenal.",
            "She has worked for a charity.",
            "He has played for two clubs.",
            "We have lived here.",
            "She has been reading the book for an hour.",
            "He learned the song by heart.",
        ] {
            assert_eq!(said(text), text, "{text}");
        }
    }
}
