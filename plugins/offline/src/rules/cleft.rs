//! Clefts: "The museum offers free guided tours." -> "It is the museum that offers free guided
//! tours." The sentence's subject, a noun phrase with a determiner and
//! perhaps a place or "of" phrase after it, is put after "it is" ("it was" in the past) and the
//! rest of the sentence after "that". It applies only to a plain statement with one clause: no
//! comma, no other clause word, a finite verb after the subject, and a subject that is not a
//! pronoun (there is nothing to single out in "it" or "she").

use crate::lexicon::Pos;
use crate::morph;
use crate::shape::{self, Plain, leaving_start};
use crate::syntax::{has_clause_word, noun_subject_end};
use crate::tokens::Token;
use crate::words::{
    FINITE_BE, FINITE_HAVE, Tense, finite_lemma, heads_clause, is_noun, is_plural_noun, modifier_or_noun,
};

/// Words that may stand inside a subject's place or "of" phrase ("on the second floor").
const INNER: &[&str] = &[
    "on", "in", "at", "of", "near", "by", "behind", "under", "next", "to", "the", "a", "an", "my", "our",
    "your", "his", "her", "their", "this", "that", "these", "those", "first", "second", "third", "fourth",
    "fifth", "last", "next", "ground", "top",
];
/// The prepositions that open a subject's place or "of" phrase.
const OPENS_PHRASE: &[&str] = &["on", "in", "at", "of", "near", "by", "behind", "under", "next"];
/// Determiners a cleft's subject may open with.
const OPENERS: &[&str] =
    &["the", "my", "our", "your", "his", "her", "their", "this", "that", "these", "those"];
/// Nouns for people, after which the cleft says "who" ("It was my brother who fixed the bike.").
pub(crate) const PEOPLE: &[&str] = &[
    "man",
    "men",
    "woman",
    "women",
    "boy",
    "boys",
    "girl",
    "girls",
    "child",
    "children",
    "kid",
    "kids",
    "baby",
    "teacher",
    "teachers",
    "doctor",
    "nurse",
    "brother",
    "sister",
    "mother",
    "father",
    "mum",
    "dad",
    "parents",
    "friend",
    "friends",
    "neighbour",
    "neighbours",
    "neighbor",
    "neighbors",
    "manager",
    "boss",
    "team",
    "students",
    "student",
    "pupils",
    "grandmother",
    "grandfather",
    "aunt",
    "uncle",
    "cousin",
    "son",
    "daughter",
    "wife",
    "husband",
    "staff",
    "waiter",
    "driver",
    "police",
    "family",
    "guests",
    "visitors",
    "people",
    "infant",
    "mechanic",
    "dentist",
    "chef",
    "cook",
    "engineer",
    "engineers",
    "workers",
    "owner",
    "guide",
];
const MODALS: &[&str] = &["will", "would", "can", "could", "should", "must", "may", "might"];

/// Whether the word is a finite verb that can follow a subject, and whether it is past.
fn finite(word: &str) -> Option<bool> {
    if FINITE_BE.contains(&word) || FINITE_HAVE.contains(&word) {
        return Some(["was", "were", "had"].contains(&word));
    }
    if MODALS.contains(&word) || ["does", "do"].contains(&word) {
        return Some(false);
    }
    if word == "did" {
        return Some(true);
    }
    // Right after the subject half of the evidence will do ("fixed" is an adjective too).
    if finite_lemma(word, Tense::Past, true).is_some() {
        return Some(true);
    }
    finite_lemma(word, Tense::Present, true).map(|_| false)
}

/// "The museum offers free guided tours." -> "It is the museum that offers free guided tours."
pub fn cleft(p: &Plain) -> Option<Vec<Token>> {
    if p.commas() != 0 || p.terminal.text != "." || has_clause_word(p, usize::MAX) {
        return None;
    }
    if !OPENERS.contains(&p.lower(0).as_str()) {
        return None;
    }
    let head = noun_subject_end(p)?;
    // The subject runs on through a place or "of" phrase up to the finite verb.
    let mut verb = head;
    while verb < p.items.len() && finite(&p.lower(verb)).is_none() {
        let w = p.lower(verb);
        // The phrase opens with a preposition and holds determiners, modifiers and nouns.
        let inner = INNER.contains(&w.as_str()) || (verb > head && modifier_or_noun(&w));
        // The phrase opens with a preposition: "The building my father designed is tall" has a
        // relative clause there, whose subject ("my father") would be clefted instead.
        if !inner || !OPENS_PHRASE.contains(&p.lower(head).as_str()) || verb > head + 5 {
            return None;
        }
        verb += 1;
    }
    let past = finite(&p.lower(verb))?;
    // "The book sale volunteers met in the staff room": a plural noun with a clear verb after
    // it is the subject's head, and the subject runs on past it.
    if is_plural_noun(&p.lower(verb)) && heads_clause(&p.lower(verb + 1)) {
        return None;
    }
    // A cleft of "be" and a quality ("It is our neighbours who are friendly."), of "be" and a
    // place ("It was my keys that were in my pocket." answers "what was in my pocket?", not
    // "where were the keys?") or of a linking verb ("It is the garden that looks lovely.") singles
    // out a subject the sentence never contrasted: only an action is clefted.
    const LINKING: &[&str] = &[
        "looks", "looked", "seems", "seemed", "feels", "felt", "sounds", "sounded", "smells", "smelled",
        "tastes", "tasted", "gets", "got", "became", "becomes",
    ];
    let verb_word = p.lower(verb);
    // "be" and a verb in "-ing" is an action in progress, clefted like any action ("It was the
    // radio that was playing an old song."); "getting" and "going" are changes of state.
    let after = p.lower(verb + 1);
    let progressive = after.ends_with("ing")
        && !["getting", "going", "being"].contains(&after.as_str())
        && morph::evidence(&morph::analyse(&after), |a| a.pos == Pos::Verb).more_than(1, 2);
    if FINITE_BE.contains(&verb_word.as_str()) && !progressive {
        return None;
    }
    if LINKING.contains(&verb_word.as_str()) {
        return None;
    }
    // Something must follow the verb, and a subject's phrase must end in a noun.
    if verb + 1 >= p.items.len() || (verb > head && !is_noun(&p.lower(verb - 1))) {
        return None;
    }
    let mut out = vec![shape::word("It"), shape::word(if past { "was" } else { "is" })];
    out.push(leaving_start(&p.items[0])?);
    out.extend_from_slice(&p.items[1..verb]);
    let person = PEOPLE.contains(&p.lower(head - 1).as_str());
    out.push(shape::word(if person { "who" } else { "that" }));
    out.extend_from_slice(&p.items[verb..]);
    Some(shape::build(&out, &p.terminal))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::apply as run;

    #[test]
    fn clefts() {
        // "be" and a place: the cleft would answer another question.
        assert_eq!(run(cleft, "The printer on the second floor is out of paper."), None);
        assert_eq!(run(cleft, "My keys were in my pocket all along."), None);
        assert_eq!(
            run(cleft, "My brother fixed the bike.").as_deref(),
            Some("It was my brother who fixed the bike.")
        );
        assert_eq!(
            run(cleft, "The shop opens at nine.").as_deref(),
            Some("It is the shop that opens at nine.")
        );
        // "be" and a quality, a linking verb: no cleft.
        assert_eq!(run(cleft, "Our neighbours are very friendly."), None);
        assert_eq!(run(cleft, "The garden looks lovely in the spring."), None);
        assert_eq!(
            run(cleft, "The radio was playing an old song.").as_deref(),
            Some("It was the radio that was playing an old song.")
        );
        assert_eq!(run(cleft, "The clouds are getting darker."), None);
        // A pronoun, a question, a second clause, a comma: no cleft.
        assert_eq!(run(cleft, "She fixed the bike."), None);
        assert_eq!(run(cleft, "Did the shop open?"), None);
        assert_eq!(run(cleft, "The shop opens when the bell rings."), None);
        assert_eq!(run(cleft, "The shop, sadly, closed."), None);
        // A relative clause after the subject's noun is no phrase of it.
        assert_eq!(run(cleft, "The building my father designed won a prize."), None);
        assert_eq!(
            run(cleft, "The lamp on my desk flickered all night.").as_deref(),
            Some("It was the lamp on my desk that flickered all night.")
        );
    }

    #[test]
    fn a_plural_noun_before_a_verb_is_the_subjects_head() {
        assert_eq!(run(cleft, "The book sale volunteers met in the staff room at eight."), None);
        assert_eq!(
            run(cleft, "The book club meets in the staff room at eight.").as_deref(),
            Some("It is the book club that meets in the staff room at eight.")
        );
    }
}
