//! A verb and its noun with a light verb, both ways ("decided to" <-> "made the decision to",
//! "looked at" <-> "took a look at", "call you" <-> "give you a call"): nominalisation and its
//! reverse, for the verbs whose noun says the same in everyday English.

use crate::lexicon::Pos;
use crate::morph::{self, Form};
use crate::shape::{self, Plain};
use crate::tokens::Token;
use crate::words::{DETERMINERS, HAVE_FORMS, pos_share};

/// What must follow the verb for the pair to mean the same.
#[derive(Clone, Copy)]
enum Then {
    /// This word ("decided to", "looked at").
    Word(&'static str),
    /// An object pronoun, which goes between the light verb and its noun ("give you a call").
    Pronoun,
}

/// (verb, what follows it, light verb, the noun phrase the light verb takes).
const PAIRS: &[(&str, Then, &str, &[&str])] = &[
    ("decide", Then::Word("to"), "make", &["the", "decision"]),
    ("look", Then::Word("at"), "take", &["a", "look"]),
    ("complain", Then::Word("about"), "make", &["a", "complaint"]),
    ("apologise", Then::Word("for"), "make", &["an", "apology"]),
    ("apologize", Then::Word("for"), "make", &["an", "apology"]),
    ("attempt", Then::Word("to"), "make", &["an", "attempt"]),
    ("call", Then::Pronoun, "give", &["a", "call"]),
    ("ring", Then::Pronoun, "give", &["a", "ring"]),
    ("phone", Then::Pronoun, "give", &["a", "call"]),
    ("hug", Then::Pronoun, "give", &["a", "hug"]),
    ("visit", Then::Pronoun, "pay", &["a", "visit"]),
    ("promise", Then::Word("to"), "make", &["a", "promise"]),
];

const OBJECT_PRONOUNS: &[&str] = &["me", "you", "him", "her", "us", "them"];

/// Whether the pronoun at `k` is the whole object: the sentence ends after it, or a word that
/// cannot continue a noun phrase follows ("call her tomorrow", never "called her mother", where
/// "her" is a possessive).
fn pronoun_ends_object(p: &Plain, k: usize) -> bool {
    const AFTER: &[&str] = &[
        "tomorrow", "today", "tonight", "later", "soon", "back", "again", "now", "when", "if", "before",
        "after", "at", "on", "in", "this", "next", "every", "as", "from", "about", "and", "to",
    ];
    k + 1 >= p.items.len() || AFTER.contains(&p.lower(k + 1).as_str())
}

/// The forms of the light verbs, which the lexicon keeps as function words: (form, lemma, form).
const LIGHT_FORMS: &[(&str, &str, Form)] = &[
    ("make", "make", Form::Base),
    ("makes", "make", Form::ThirdPerson),
    ("made", "make", Form::PastOrParticiple),
    ("making", "make", Form::Gerund),
    ("take", "take", Form::Base),
    ("takes", "take", Form::ThirdPerson),
    ("took", "take", Form::Past),
    ("taken", "take", Form::Participle),
    ("taking", "take", Form::Gerund),
    ("give", "give", Form::Base),
    ("gives", "give", Form::ThirdPerson),
    ("gave", "give", Form::Past),
    ("given", "give", Form::Participle),
    ("giving", "give", Form::Gerund),
    ("pay", "pay", Form::Base),
    ("pays", "pay", Form::ThirdPerson),
    ("paid", "pay", Form::PastOrParticiple),
    ("paying", "pay", Form::Gerund),
];

/// `lemma` in `form`, a past-or-participle settled by a form of "have" before it.
fn inflected(lemma: &str, form: Form, after_have: bool) -> Option<String> {
    let form = match form {
        Form::PastOrParticiple if after_have => Form::Participle,
        Form::PastOrParticiple => Form::Past,
        f => f,
    };
    morph::inflect(lemma, Pos::Verb, form)
}

/// The first verb of the table at `k` and its rewrite, either way.
pub fn light_verb(p: &Plain) -> Option<Vec<Token>> {
    if p.commas() != 0 {
        return None;
    }
    let n = p.items.len();
    for k in 1..n {
        let word = p.lower(k);
        let opening: Vec<String> = (0..k).map(|j| p.lower(j)).collect();
        // "has not called me back": the auxiliary may stand before "not" or an adverb.
        let auxiliary = (0..k).rev().find(|&j| {
            !["not", "never", "already", "just", "yet", "still", "also", "ever"]
                .contains(&p.lower(j).as_str())
        });
        let after_have = auxiliary.is_some_and(|j| HAVE_FORMS.contains(&p.lower(j).as_str()))
            || (p.terminal.text == "?" && crate::syntax::have_question_subject(&opening));
        // The verb, told with its noun; after a determiner or an adjective the word is the noun
        // ("a quick look at", "the call you made").
        let prev = p.lower(k - 1);
        // Read only before a verb of the pairs: the adjective's share takes the lexicon.
        let noun_place = || DETERMINERS.contains(&prev.as_str()) || pos_share(&prev, Pos::Adj) >= 0.5;
        let paired = morph::analyse(&word).into_iter().filter(|a| a.pos == Pos::Verb).find_map(|a| {
            PAIRS
                .iter()
                .find(|(v, ..)| *v == a.entry.lemma)
                .map(|&(_, then, light, noun)| (a, then, light, noun))
        });
        if let Some((a, then, light, noun)) = paired.filter(|_| !noun_place()) {
            // The noun told with "make" is heavier than the verb ("made the decision to"): only
            // the short everyday pairs are told that way round.
            if light == "make" {
                return None;
            }
            // "She won't come back when I call her": a call to come is no phone call.
            let summoned = a.entry.lemma == "call"
                && (0..k).any(|j| {
                    // "come back" may already be told "return".
                    ["come", "comes", "came", "coming", "return", "returns", "returned"]
                        .contains(&p.lower(j).as_str())
                });
            if summoned {
                return None;
            }
            let next = p.lower(k + 1);
            let verb = inflected(light, a.form, after_have)?;
            let mut out: Vec<Token> = p.items[..k].to_vec();
            out.push(shape::word(&verb));
            match then {
                Then::Word(w) if next == w => {
                    out.extend(noun.iter().map(|w| shape::word(w)));
                    out.extend_from_slice(&p.items[k + 1..]);
                }
                Then::Pronoun
                    if OBJECT_PRONOUNS.contains(&next.as_str()) && pronoun_ends_object(p, k + 1) =>
                {
                    out.push(p.items[k + 1].clone());
                    out.extend(noun.iter().map(|w| shape::word(w)));
                    out.extend_from_slice(&p.items[k + 2..]);
                }
                _ => return None,
            }
            return Some(shape::build(&out, &p.terminal));
        }
        // The light verb and its noun, told as the verb.
        let Some(&(_, light, form)) = LIGHT_FORMS.iter().find(|(f, ..)| *f == word) else { continue };
        for &(verb, then, l, noun) in PAIRS {
            if l != light {
                continue;
            }
            let (object, at) = match then {
                Then::Pronoun if OBJECT_PRONOUNS.contains(&p.lower(k + 1).as_str()) => (Some(k + 1), k + 2),
                Then::Word(_) => (None, k + 1),
                Then::Pronoun => continue,
            };
            let matches = noun.iter().enumerate().all(|(j, w)| p.lower(at + j) == *w);
            let follows = match then {
                Then::Word(w) => p.lower(at + noun.len()) == w,
                Then::Pronoun => true,
            };
            if !matches || !follows {
                continue;
            }
            // "apologize" is the same verb as "apologise": the British spelling is told.
            if verb == "apologize" {
                continue;
            }
            let told = inflected(verb, form, after_have)?;
            let mut out: Vec<Token> = p.items[..k].to_vec();
            out.push(shape::word(&told));
            out.extend(object.map(|o| p.items[o].clone()));
            out.extend_from_slice(&p.items[at + noun.len()..]);
            return Some(shape::build(&out, &p.terminal));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::apply as run;

    #[test]
    fn a_verb_and_its_noun_both_ways() {
        let f = light_verb;
        for (text, told) in [
            ("She looked at the map again.", "She took a look at the map again."),
            ("I will call you tomorrow.", "I will give you a call tomorrow."),
            ("They made the decision to move.", "They decided to move."),
            ("Can you take a look at my bike?", "Can you look at my bike?"),
            ("She gave me a call last night.", "She called me last night."),
            (
                "My parents are coming to visit us next weekend.",
                "My parents are coming to pay us a visit next weekend.",
            ),
            ("She paid us a visit in May.", "She visited us in May."),
            ("I will phone you later.", "I will give you a call later."),
            ("He made a promise to help.", "He promised to help."),
        ] {
            assert_eq!(run(f, text).as_deref(), Some(told), "{text}");
        }
        // Another sense: "call" a name, "look" a quality.
        assert_eq!(run(f, "They call the dog Rex."), None);
        assert_eq!(run(f, "She won't come back when I call her."), None);
        assert_eq!(run(f, "You look tired."), None);
        // After a determiner or an adjective, the noun: "a quick look at" is no verb.
        assert_eq!(run(f, "I had a quick look at the report."), None);
        // "her" before a noun is a possessive.
        assert_eq!(run(f, "She called her mother."), None);
        assert_eq!(run(f, "We visited her parents in May."), None);
    }
}
