//! Adverbs move round their verb: a frequency adverb after the subject goes to the front
//! ("Usually, I walk to work."), a manner adverb in "-ly" goes from before the verb to the end of
//! the clause (not back: before the verb it reads stiffly, "He fluently speaks"). Only in a
//! sentence of one clause, where the adverb cannot come to modify another verb.

use crate::lexicon::Pos;
use crate::shape::{self, Plain, comma, leaving_start, starting};
use crate::syntax::has_clause_word;
use crate::tokens::Token;
use crate::words::{
    DEFINITE_DETERMINERS, FREQUENCY_ADVERBS, SUBJECT_PRONOUNS, can_be, clearly_finite, is_manner_adverb,
};

/// How many items the subject takes at the start: a pronoun, or a determiner and a noun.
fn subject_len(p: &Plain) -> Option<usize> {
    let first = p.lower(0);
    if SUBJECT_PRONOUNS.contains(&first.as_str()) {
        return Some(1);
    }
    let noun = p.lower(1);
    let is_noun = can_be(&noun, Pos::Noun);
    (DEFINITE_DETERMINERS.contains(&first.as_str()) && is_noun).then_some(2)
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
/// finished it." -> "She finished it quickly."). Not the other way: before the verb it reads
/// stiffly in most sentences ("He fluently speaks three languages.").
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
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::apply as run;

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
        assert_eq!(run(f, "He answered all the questions correctly."), None);
    }
}
