//! A relative clause reduced to a participle and back: "the man who is waiting outside" <-> "the
//! man waiting outside", "the letter that was sent yesterday" -> "the letter sent yesterday", "the
//! woman who lives next door" -> "the woman living next door".

use crate::lexicon::Pos;
use crate::morph::{self, Form};
use crate::shape::{self, Plain};
use crate::tokens::Token;
use crate::words::{NOUN_PHRASE_DETERMINERS, is_noun, is_verbish};

/// Whether item `k` is a noun that a determiner opens within the three words before it, so that a
/// "that" after it is a relative pronoun and not a conjunction ("said that").
fn noun_phrase_ends(p: &Plain, k: usize) -> bool {
    is_noun(&p.lower(k))
        && !is_verbish(&p.lower(k))
        && (k.saturating_sub(3)..k).any(|j| NOUN_PHRASE_DETERMINERS.contains(&p.lower(j).as_str()))
}

/// "who", "that" or "which" after a noun, and "is" or "are" with a verb in "-ing" or a past
/// participle, or a verb in the present's third person: the reduced clause. Only in the present,
/// where the participle keeps the time ("the man who was waiting" is not "the man waiting" in a
/// present sentence).
pub fn reduce_relative(p: &Plain) -> Option<Vec<Token>> {
    if p.commas() != 0 {
        return None;
    }
    let n = p.items.len();
    let r = (2..n.saturating_sub(2))
        .find(|&k| ["who", "that", "which"].contains(&p.lower(k).as_str()) && noun_phrase_ends(p, k - 1))?;
    let next = p.lower(r + 1);
    let analyses = |w: &str| morph::analyse(w).into_iter().filter(|a| a.pos == Pos::Verb).collect::<Vec<_>>();
    let mut out: Vec<Token> = p.items[..r].to_vec();
    if ["is", "are"].contains(&next.as_str()) {
        let verb = p.lower(r + 2);
        let participle = analyses(&verb)
            .iter()
            .any(|a| matches!(a.form, Form::Gerund | Form::Participle | Form::PastOrParticiple));
        // "who is a doctor", "which is open": no verb, nothing to reduce.
        if !participle || !verb.ends_with("ing") && !verb.ends_with("ed") && !verb.ends_with("en") {
            return None;
        }
        out.extend_from_slice(&p.items[r + 2..]);
    } else {
        // Right after the pronoun, a word with a third-person reading is that verb ("lives").
        let a = analyses(&next).into_iter().find(|a| a.form == Form::ThirdPerson)?;
        let gerund = morph::inflect(a.entry.lemma, Pos::Verb, Form::Gerund)?;
        out.push(shape::word(&gerund));
        out.extend_from_slice(&p.items[r + 2..]);
    }
    Some(shape::build(&out, &p.terminal))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::apply as run;

    #[test]
    fn a_relative_clause_becomes_a_participle() {
        let f = reduce_relative;
        for (text, reduced) in [
            ("The man who is waiting outside wants to see you.", "The man waiting outside wants to see you."),
            ("The woman who lives next door is a nurse.", "The woman living next door is a nurse."),
            ("I know a shop that sells fresh fish.", "I know a shop selling fresh fish."),
            ("The parcel that is stored in the garage is mine.", "The parcel stored in the garage is mine."),
        ] {
            assert_eq!(run(f, text).as_deref(), Some(reduced), "{text}");
        }
        assert_eq!(run(f, "She said that the shop sells fish."), None);
        assert_eq!(run(f, "The man who is a doctor lives here."), None);
        assert_eq!(run(f, "The man who was waiting left."), None);
    }
}
