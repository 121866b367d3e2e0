//! A manner told by an adverb or by a phrase: "examined the patient carefully" <-> "examined the
//! patient with care", "listened in silence" <-> "listened silently", each a word-group site of
//! its own; and a skill told by an adjective, "She speaks three languages fluently." -> "She is
//! fluent in three languages.", a word-order rewrite.

use crate::shape::{self, Plain, words_like};
use crate::sites::Sites;
use crate::tokens::{Kind, Token, matches_at, next_word, prev_word};
use crate::words::PREPOSITIONS;
use crate::words::{CLAUSE_WORDS, SUBJECT_PRONOUNS, is_plural_noun};

const MANNERS: &[(&[&str], &[&str])] = &[
    (&["carefully"], &["with", "care"]),
    (&["with", "great", "care"], &["very", "carefully"]),
    // Not "patiently" -> "with patience" ("waited with patience" is not how it is said), nor
    // "easily" -> "with ease", which needs someone skilled ("The glass breaks with ease").
    (&["in", "silence"], &["silently"]),
    (&["silently"], &["in", "silence"]),
    // Of a voice only, see `VOICE_VERBS`.
    (&["loudly"], &["in", "a", "loud", "voice"]),
    (&["quietly"], &["in", "a", "quiet", "voice"]),
    (&["softly"], &["in", "a", "soft", "voice"]),
];

/// Verbs a voice does, after which "loudly" is "in a loud voice" ("spoke loudly"); not "cheered
/// loudly" (a crowd has no one voice), "closed the door quietly", nor "sing", which birds do too
/// ("The birds sing in a loud voice").
const VOICE_VERBS: &[&str] = &[
    "speak", "speaks", "spoke", "speaking", "talk", "talks", "talked", "talking", "read", "reads", "reading",
    "said", "says", "answered", "replied", "asked",
];

/// Whether the manner at `i..=last` stands after what it tells of, where a phrase may stand too:
/// at the end of the clause or before a phrase ("drove carefully through the fog"), never before
/// its verb ("She carefully wrapped", where "with care wrapped" breaks), after a degree word
/// ("very carefully") or before an adjective ("easily the best").
fn after_its_verb(tokens: &[Token], i: usize, last: usize) -> bool {
    let pause = match tokens.get(last + 1) {
        None => true,
        Some(t) if t.kind == Kind::Punct => [".", ",", "!", "?", ";"].contains(&t.text.as_str()),
        Some(_) => next_word(tokens, last).is_some_and(|w| PREPOSITIONS.contains(&w.as_str()) || w == "and"),
    };
    let degree = prev_word(tokens, i).is_some_and(|w| {
        ["very", "so", "too", "more", "most", "less", "least", "quite", "really", "extremely", "not"]
            .contains(&w.as_str())
    });
    // "listen carefully" and "look carefully" are said that way: "listened with care" is not.
    let attending = from_care(tokens, i)
        && prev_word(tokens, i)
            .is_some_and(|w| ["listen", "look", "watch", "think"].iter().any(|v| w.starts_with(v)));
    pause && !degree && !attending && prev_word(tokens, i).is_some()
}

fn from_care(tokens: &[Token], i: usize) -> bool {
    matches_at(tokens, i, &["carefully"])
}

/// Rewrites each manner found, one site each.
pub fn rewrite(tokens: Vec<Token>, sites: &mut Sites) -> Vec<Token> {
    let tokens = &tokens;
    sites.scan(tokens, |i| {
        let &(from, to) = MANNERS.iter().find(|(from, _)| matches_at(tokens, i, from))?;
        let last = i + 2 * (from.len() - 1);
        let voiced =
            !to.contains(&"voice") || prev_word(tokens, i).is_some_and(|w| VOICE_VERBS.contains(&w.as_str()));
        (tokens[i..=last].iter().all(|t| !t.changed) && after_its_verb(tokens, i, last) && voiced)
            .then(|| (last + 1, move || words_like(&tokens[i].text, to)))
    })
}

/// "She speaks three languages fluently." -> "She is fluent in three languages.": "speaks" or
/// "spoke" after a singular subject, a short object of no clause, "fluently" ending the sentence.
pub fn fluent_in(p: &Plain) -> Option<Vec<Token>> {
    let n = p.items.len();
    if p.commas() != 0 || p.terminal.text != "." || p.from_end(1) != "fluently" {
        return None;
    }
    let verb = (1..n.min(6)).find(|&k| ["speaks", "spoke"].contains(&p.lower(k).as_str()))?;
    let subject = p.lower(verb - 1);
    let plural = ["they", "we", "you", "i"].contains(&subject.as_str()) || is_plural_noun(&subject);
    let object = verb + 1..n - 1;
    let object_ok = !object.is_empty()
        && object.len() <= 4
        && object.clone().all(|k| !CLAUSE_WORDS.contains(&p.lower(k).as_str()))
        && !SUBJECT_PRONOUNS.contains(&p.lower(verb + 1).as_str());
    if plural || !object_ok {
        return None;
    }
    let be = if p.lower(verb) == "speaks" { "is" } else { "was" };
    let mut out = p.items[..verb].to_vec();
    out.extend([shape::word(be), shape::word("fluent"), shape::word("in")]);
    out.extend_from_slice(&p.items[object]);
    Some(shape::build(&out, &p.terminal))
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
    fn a_manner_told_by_a_phrase() {
        assert_eq!(
            said("The doctor examined the patient carefully."),
            "The doctor examined the patient with care."
        );
        assert_eq!(said("He drove carefully through the fog."), "He drove with care through the fog.");
        assert_eq!(
            said("They listened to the lecture in silence."),
            "They listened to the lecture silently."
        );
        assert_eq!(said("She spoke quietly to the child."), "She spoke in a quiet voice to the child.");
    }

    #[test]
    fn a_skill_told_by_an_adjective() {
        let said = |text| shape::apply(fluent_in, text);
        assert_eq!(
            said("She speaks three languages fluently.").as_deref(),
            Some("She is fluent in three languages.")
        );
        assert_eq!(
            said("The tour guide spoke three languages fluently.").as_deref(),
            Some("The tour guide was fluent in three languages.")
        );
        assert_eq!(said("They speak French fluently."), None);
        assert_eq!(said("The twins spoke French fluently."), None);
        assert_eq!(said("He speaks fluently."), None);
    }

    #[test]
    fn before_its_verb_or_after_a_degree_it_stays() {
        for text in [
            "She carefully wrapped the present.",
            "He drove very carefully.",
            "It was easily the best film of the year.",
            "Carefully, he opened the box.",
            "The students listened carefully to the lecture.",
            "The crowd cheered loudly.",
            "He closed the door quietly.",
            "The birds sing loudly in the morning.",
        ] {
            assert_eq!(said(text), text);
        }
    }
}
