//! Wordy phrases and their short forms ("in order to" -> "to", "a lot of" -> "many" or "much",
//! "for example" <-> "for instance"), and the fixed phrases whose words mean nothing alone ("of
//! course"), frozen so that no later rule touches them.

use crate::lexicon::Pos;
use crate::morph::{self, Form};
use crate::shape::words_like;
use crate::tokens::{Kind, Token, matches_at, next_word};

/// What a phrase rewrite needs after the phrase.
#[derive(Clone, Copy)]
enum After {
    Anything,
    /// A word (the phrase needs a complement: "in order to" + verb).
    Word,
    /// A comma or the end of the sentence ("at the moment.").
    Pause,
}

const PHRASES: &[(&[&str], &[&str], After)] = &[
    (&["in", "order", "not", "to"], &["not", "to"], After::Word),
    (&["in", "order", "to"], &["to"], After::Word),
    (&["due", "to", "the", "fact", "that"], &["because"], After::Word),
    (&["in", "spite", "of"], &["despite"], After::Word),
    (&["prior", "to"], &["before"], After::Word),
    (&["a", "large", "number", "of"], &["many"], After::Word),
    (&["a", "great", "deal", "of"], &["much"], After::Word),
    (&["is", "able", "to"], &["can"], After::Word),
    (&["are", "able", "to"], &["can"], After::Word),
    (&["am", "able", "to"], &["can"], After::Word),
    (&["thanks", "for"], &["thank", "you", "for"], After::Word),
    (&["thank", "you", "for"], &["thanks", "for"], After::Word),
    (&["for", "example"], &["for", "instance"], After::Anything),
    (&["for", "instance"], &["for", "example"], After::Anything),
    (&["at", "the", "moment"], &["right", "now"], After::Pause),
    (&["in", "addition"], &["also"], After::Pause),
    (&["next", "to"], &["beside"], After::Word),
    (&["because", "of"], &["due", "to"], After::Word),
    (&["each", "other"], &["one", "another"], After::Anything),
    (&["right", "away"], &["immediately"], After::Pause),
    (&["as", "well"], &["too"], After::Pause),
    (&["every", "day"], &["daily"], After::Pause),
    (&["than", "i", "expected"], &["than", "expected"], After::Pause),
    (&["than", "we", "expected"], &["than", "expected"], After::Pause),
    (&["than", "they", "expected"], &["than", "expected"], After::Pause),
    (&["than", "you", "expected"], &["than", "expected"], After::Pause),
];

/// "many" or "much" for "a lot of" + this word: a plural noun counts, a singular one does not.
fn quantifier_for(noun: &str) -> Option<&'static str> {
    if ["people", "children", "men", "women"].contains(&noun) {
        return Some("many");
    }
    let analyses = morph::analyse(noun);
    let total: f64 = analyses.iter().map(|a| f64::from(a.weight) + 0.5).sum();
    let share = |form: Form| {
        analyses
            .iter()
            .filter(|a| a.pos == Pos::Noun && a.form == form)
            .map(|a| f64::from(a.weight) + 0.5)
            .sum::<f64>()
            / total
    };
    if analyses.is_empty() {
        None
    } else if share(Form::Plural) >= 0.75 {
        Some("many")
    } else if share(Form::Base) >= 0.75 && !noun.ends_with('s') {
        Some("much")
    } else {
        None
    }
}

fn pause_after(tokens: &[Token], last: usize) -> bool {
    match tokens.get(last + 1) {
        None => true,
        Some(t) => t.kind == Kind::Punct && [",", ".", "!", "?", ";"].contains(&t.text.as_str()),
    }
}

/// Shortens wordy phrases and swaps "for example"/"for instance".
pub fn phrases(tokens: Vec<Token>) -> Vec<Token> {
    let mut out = Vec::with_capacity(tokens.len());
    let mut i = 0;
    'scan: while i < tokens.len() {
        if tokens[i].is_word() {
            for &(from, to, after) in PHRASES {
                if !matches_at(&tokens, i, from) {
                    continue;
                }
                let last = i + 2 * (from.len() - 1);
                let ok = match after {
                    After::Anything => true,
                    After::Word => next_word(&tokens, last).is_some(),
                    After::Pause => pause_after(&tokens, last),
                };
                if ok {
                    out.extend(words_like(&tokens[i].text, to));
                    i = last + 1;
                    continue 'scan;
                }
            }
            for from in [&["a", "lot", "of"][..], &["lots", "of"][..]] {
                if !matches_at(&tokens, i, from) {
                    continue;
                }
                let last = i + 2 * (from.len() - 1);
                if let Some(q) = next_word(&tokens, last).and_then(|n| quantifier_for(&n)) {
                    out.extend(words_like(&tokens[i].text, &[q]));
                    i = last + 1;
                    continue 'scan;
                }
            }
        }
        out.push(tokens[i].clone());
        i += 1;
    }
    out
}

/// Fixed phrases whose words mean nothing alone: replacing "order" in "in order to" or "course"
/// in "of course" would be nonsense.
const FIXED: &[&[&str]] = &[
    &["in", "order"],
    &["of", "course"],
    &["in", "fact"],
    &["for", "example"],
    &["for", "instance"],
    &["in", "front", "of"],
    &["in", "case"],
    &["at", "first"],
    &["at", "last"],
    &["at", "once"],
    &["at", "least"],
    &["at", "all"],
    &["by", "the", "way"],
    &["in", "general"],
    &["in", "particular"],
    &["on", "purpose"],
    &["in", "spite"],
    &["all", "right"],
    &["make", "sure"],
    &["take", "place"],
    &["takes", "place"],
    &["took", "place"],
    &["take", "care"],
    &["thank", "you"],
    &["as", "well"],
    &["right", "now"],
    &["right", "away"],
    &["no", "longer"],
    &["in", "charge"],
    &["on", "time"],
    &["in", "time"],
    &["of", "all", "time"],
    &["in", "common"],
    &["in", "addition"],
    &["as", "a", "result"],
    &["as", "long", "as"],
    &["as", "soon", "as"],
    &["each", "other"],
    &["one", "another"],
    &["pay", "attention"],
    &["come", "true"],
    &["kind", "of"],
    &["sort", "of"],
];

/// Freezes the words of fixed phrases so that no later rewrite touches them.
pub fn protect_fixed_phrases(tokens: &mut [Token]) {
    for i in 0..tokens.len() {
        if !tokens[i].is_word() {
            continue;
        }
        for phrase in FIXED {
            if matches_at(tokens, i, phrase) {
                for t in &mut tokens[i..i + 2 * phrase.len() - 1] {
                    t.frozen = true;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokens::{join, tokenize};

    fn phrased(text: &str) -> String {
        join(&phrases(tokenize(text)))
    }

    #[test]
    fn shortens_phrases() {
        assert_eq!(phrased("We left early in order to win."), "We left early to win.");
        assert_eq!(phrased("In order to win, we left."), "To win, we left.");
        assert_eq!(phrased("A lot of people came."), "Many people came.");
        assert_eq!(phrased("The bank is next to the school."), "The bank is beside the school.");
        assert_eq!(phrased("It was harder than I expected."), "It was harder than expected.");
        assert_eq!(phrased("I want one as well, please."), "I want one too, please.");
        assert_eq!(phrased("She has a lot of money."), "She has much money.");
        assert_eq!(phrased("I have a lot of the blame."), "I have a lot of the blame.");
        assert_eq!(phrased("He is able to swim."), "He can swim.");
        assert_eq!(phrased("For example, this."), "For instance, this.");
        assert_eq!(phrased("Thanks for your help."), "Thank you for your help.");
        assert_eq!(phrased("Thank you for coming."), "Thanks for coming.");
        assert_eq!(phrased("At the moment of impact."), "At the moment of impact.");
    }

    #[test]
    fn fixed_phrases_are_frozen() {
        let mut t = tokenize("Of course, in order to go.");
        protect_fixed_phrases(&mut t);
        assert!(t.iter().filter(|t| t.text == "course" || t.text == "order").all(|t| t.frozen));
    }
}
