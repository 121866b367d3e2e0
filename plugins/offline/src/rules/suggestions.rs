//! Suggestions told as the questions that make them: "Let's go to the cinema on Friday." ->
//! "Shall we go to the cinema on Friday?" and "How about going to the cinema on Friday?". The
//! speech act stays a suggestion; only verbs of doing something together are taken, since "Let's
//! be honest", "Let's see" or "Let's hope" suggest nothing to do.

use crate::lexicon::Pos;
use crate::morph::{Form, inflect};
use crate::shape::{self, Plain};
use crate::tokens::{Kind, Token};

/// Verbs of something to do together that "Shall we" and "How about" take as "Let's" does.
const DOINGS: &[&str] = &[
    "go",
    "meet",
    "have",
    "get",
    "try",
    "take",
    "order",
    "watch",
    "play",
    "call",
    "start",
    "leave",
    "walk",
    "book",
    "buy",
    "cook",
    "visit",
    "ask",
    "invite",
    "find",
    "head",
    "grab",
    "sit",
    "finish",
    "clean",
    "check",
    "share",
    "catch",
    "stay",
    "eat",
    "make",
    "drive",
    "move",
    "plan",
    "paint",
    "phone",
    "ring",
    "split",
    "throw",
    "organise",
    "celebrate",
    "bake",
    "hire",
    "rent",
    "look",
];

/// What follows "Let's", if the sentence is a plain suggestion: a verb of doing, no comma, a full
/// stop or an exclamation mark.
fn suggested(p: &Plain) -> Option<usize> {
    let first = p.lower(0).replace('’', "'");
    let ok = first == "let's"
        && p.commas() == 0
        && [".", "!"].contains(&p.terminal.text.as_str())
        && p.items.len() >= 3
        && DOINGS.contains(&p.lower(1).as_str());
    ok.then_some(1)
}

fn question_mark() -> Token {
    Token { changed: true, ..Token::new("?", Kind::Punct) }
}

/// "Let's go to the cinema." -> "Shall we go to the cinema?"
pub fn shall_we(p: &Plain) -> Option<Vec<Token>> {
    let verb = suggested(p)?;
    let mut out = vec![shape::word("Shall"), shape::word("we")];
    out.extend_from_slice(&p.items[verb..]);
    Some(shape::build(&out, &question_mark()))
}

/// "Let's go to the cinema." -> "How about going to the cinema?": one verb, since a second
/// ("go to the market and buy fruit") would have to take "-ing" too.
pub fn how_about(p: &Plain) -> Option<Vec<Token>> {
    let verb = suggested(p)?;
    if p.items[verb + 1..].iter().any(|t| ["and", "or", "then"].contains(&t.text.to_lowercase().as_str())) {
        return None;
    }
    let doing = inflect(&p.lower(verb), Pos::Verb, Form::Gerund)?;
    let mut out = vec![shape::word("How"), shape::word("about"), shape::word(&doing)];
    out.extend_from_slice(&p.items[verb + 1..]);
    Some(shape::build(&out, &question_mark()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::apply;

    #[test]
    fn a_suggestion_asked() {
        assert_eq!(
            apply(shall_we, "Let's go to the cinema on Friday evening.").as_deref(),
            Some("Shall we go to the cinema on Friday evening?")
        );
        assert_eq!(
            apply(how_about, "Let's meet up for a drink once you're back.").as_deref(),
            Some("How about meeting up for a drink once you're back?")
        );
        assert_eq!(
            apply(shall_we, "Let's go to the market and buy some fruit.").as_deref(),
            Some("Shall we go to the market and buy some fruit?")
        );
    }

    #[test]
    fn what_suggests_nothing_to_do_is_left() {
        for text in [
            "Let's be honest.",
            "Let's see.",
            "Let's hope it stops raining.",
            "Let's not go.",
            "Let us know when you arrive.",
            "Let's go, it's late.",
            "Let's go?",
        ] {
            assert_eq!(apply(shall_we, text), None, "{text}");
        }
        assert_eq!(apply(how_about, "Let's go to the market and buy some fruit."), None);
    }
}
