//! The last resort of two past actions told one after the other ("The glass fell off the shelf
//! and broke." -> "Having fallen off the shelf, the glass broke."), for a sentence nothing else
//! changed. The tense shifts that were once last resorts here (the simple past as the present
//! perfect and back) are gone: a reader takes "Our team has lost the match" for another time than
//! "Our team lost the match", so they changed what the sentence says.

use crate::lexicon::Pos;
use crate::morph::{self, Form};
use crate::shape::{self, Plain, leaving_start};
use crate::syntax::subject;
use crate::tokens::Token;
use crate::words::{DAY_NAMES, Tense, concat, finite_lemma};

/// Two past actions of one subject, the first told as done before the second: "The glass fell
/// off the shelf and broke." -> "Having fallen off the shelf, the glass broke."
pub fn having_done(p: &Plain) -> Option<Vec<Token>> {
    if p.commas() != 0 || p.terminal.text != "." {
        return None;
    }
    let (k, _) = subject(p)?;
    let lemma = finite_lemma(&p.lower(k), Tense::Past, k == 1)?;
    let and = p.find("and").filter(|&a| a > k + 1)?;
    // "and never returned it": an adverb may stand before the second verb.
    let second = and
        + 1
        + usize::from(
            ["never", "then", "also", "quickly", "immediately"].contains(&p.lower(and + 1).as_str()),
        );
    // A time in the first part ("raked up the leaves on Saturday and filled three bags") dates
    // both actions, which "Having raked up the leaves on Saturday," would give to the first alone.
    const TIMED: &[&str] = &concat::<19>(&[
        &[
            "yesterday",
            "today",
            "tonight",
            "morning",
            "afternoon",
            "evening",
            "night",
            "weekend",
            "week",
            "month",
            "year",
            "ago",
        ],
        DAY_NAMES,
    ]);
    let clause_free = p.items[k + 1..and].iter().all(|t| {
        let w = t.text.to_lowercase();
        !["and", "but", "or", "that", "who", "which", "when", "because", "if"].contains(&w.as_str())
            && !TIMED.contains(&w.as_str())
            && finite_lemma(&w, Tense::Past, false).is_none()
    });
    // Auxiliaries, and postures that last through the second action ("sat on the bench and fed
    // the birds" is not one thing after another, "stood up and applauded" is).
    let posture =
        ["sit", "stand", "lie"].contains(&lemma) && !["up", "down"].contains(&p.lower(k + 1).as_str());
    let sequence = !posture
        && !["be", "have", "do", "get", "can", "will", "shall", "may", "must", "used"].contains(&lemma);
    // "I dropped my phone and cracked the screen": the second is what the first did, not a later
    // act of its own, which "Having dropped my phone" would make it.
    const RESULTS: &[&str] = &[
        "crack", "break", "smash", "spill", "hurt", "injure", "damage", "lose", "miss", "burn", "cut", "tear",
    ];
    // With an object only: "The glass fell off the shelf and broke." is two happenings.
    let object = ["the", "a", "an", "my", "his", "her", "our", "their", "its", "your"]
        .contains(&p.lower(second + 1).as_str());
    let result =
        object && finite_lemma(&p.lower(second), Tense::Past, true).is_some_and(|l| RESULTS.contains(&l));
    if !sequence || result || !clause_free || finite_lemma(&p.lower(second), Tense::Past, true).is_none() {
        return None;
    }
    let mut out =
        vec![shape::word("Having"), shape::word(&morph::inflect(lemma, Pos::Verb, Form::Participle)?)];
    out.extend_from_slice(&p.items[k + 1..and]);
    out.push(shape::comma());
    out.push(leaving_start(&p.items[0])?);
    out.extend_from_slice(&p.items[1..k]);
    out.extend_from_slice(&p.items[and + 1..]);
    Some(shape::build(&out, &p.terminal))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::apply as run;

    #[test]
    fn one_action_after_another() {
        assert_eq!(run(having_done, "We raked up the leaves on Saturday and filled three bags."), None);
        assert_eq!(
            run(having_done, "The glass fell off the shelf and broke.").as_deref(),
            Some("Having fallen off the shelf, the glass broke.")
        );
        assert_eq!(
            run(having_done, "He borrowed my umbrella and never returned it.").as_deref(),
            Some("Having borrowed my umbrella, he never returned it.")
        );
        for kept in [
            "She bought apples and pears.",
            "The old man sat on the bench and fed the birds.",
            "He was tired and went home.",
            "He left when we arrived and waited.",
            "I dropped my phone and cracked the screen.",
        ] {
            assert_eq!(run(having_done, kept), None, "{kept}");
        }
    }
}
