//! A relative clause reduced to a participle and back: "the man who is waiting outside" <-> "the
//! man waiting outside", "the letter that was sent yesterday" -> "the letter sent yesterday", "the
//! woman who lives next door" -> "the woman living next door"; and a relative clause between
//! commas told as a clause of its own ("My cousin, who lives in Dublin, is coming." -> "My cousin
//! lives in Dublin and is coming."; "..., which drives me crazy." -> "..., and it drives me crazy.").

use crate::lexicon::Pos;
use crate::morph::{self, Form};
use crate::shape::{self, Plain};
use crate::tokens::Token;
use crate::words::{
    CLAUSE_WORDS, NOUN_PHRASE_DETERMINERS, SUBJECT_PRONOUNS, heads_clause, is_noun, is_plural_noun,
    is_verbish,
};

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
    // "I asked the man which costs more": after a verb of asking or knowing, "which" may ask, and
    // the clause is no noun's ("I know a man who plants trees" is one: "who" after a person).
    let asked = p.lower(r) == "which" && (0..r).any(|k| crate::words::ASKING.contains(&p.lower(k).as_str()));
    if asked {
        return None;
    }
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
        // Right after the pronoun, a word with a third-person reading is that verb ("lives"), but
        // not after a noun that a "that" clause completes ("a reminder that tickets are limited")
        // nor where a finite verb follows, which makes the word a plural subject.
        if crate::words::CONTENT_NOUNS.contains(&p.lower(r - 1).as_str()) || heads_clause(&p.lower(r + 2)) {
            return None;
        }
        // "asked the assistant which plants grow well": a plural noun with a plain verb after it
        // is the subject of a question asked, and "which" its determiner, not a pronoun.
        let plain_verb_after =
            morph::analyse(&p.lower(r + 2)).iter().any(|a| a.pos == Pos::Verb && a.form == Form::Base);
        let mostly_noun = crate::words::pos_share(&next, Pos::Noun) >= 0.5;
        if crate::words::is_plural_noun(&next) && mostly_noun && plain_verb_after {
            return None;
        }
        let a = analyses(&next).into_iter().find(|a| a.form == Form::ThirdPerson)?;
        // A habit ("a choir that sings every Christmas") is no ongoing "-ing"; and an "-ing" that
        // is as often a noun would make a compound ("a book club meeting": SemCor tags "meeting"
        // as a noun 39 times, "living" 11).
        let habit = p.items[r + 2..].iter().any(|t| {
            ["every", "each", "usually", "often", "always"].contains(&t.text.to_lowercase().as_str())
        });
        // A state has no "-ing" ("a teacher who loves gardening" is no "teacher loving gardening").
        const STATES: &[&str] = &[
            "love", "like", "hate", "prefer", "know", "own", "want", "need", "belong", "seem", "mean",
            "enjoy",
        ];
        // "that keeps getting bigger", "that stops working": a verb's "-ing" before its own
        // "-ing" would stack two ("keeping getting").
        // "getting" is a function verb's, which the lexicon may not read: any "-ing" that is not
        // mostly a noun ("nothing", "the building") counts.
        let after = p.lower(r + 2);
        let stacked = after.len() > 4
            && after.ends_with("ing")
            && (crate::words::is_gerund(&after) || crate::words::pos_share(&after, Pos::Noun) < 0.5);
        if STATES.contains(&a.entry.lemma) || stacked {
            return None;
        }
        if habit {
            return None;
        }
        let gerund = morph::inflect(a.entry.lemma, Pos::Verb, Form::Gerund)?;
        if crate::lexicon::lookup(&gerund).and_then(|e| e.sense(Pos::Noun)).is_some_and(|s| s.weight >= 20) {
            return None;
        }
        out.push(shape::word(&gerund));
        out.extend_from_slice(&p.items[r + 2..]);
    }
    Some(shape::build(&out, &p.terminal))
}

/// Whether the words from `k` open with a finite verb, so they are a verb phrase.
fn verb_phrase_at(p: &Plain, k: usize) -> bool {
    heads_clause(&p.lower(k))
        || ["never", "always", "often", "already", "just"].contains(&p.lower(k).as_str())
            && heads_clause(&p.lower(k + 1))
}

/// Whether the "which" after the comma at `c` refers to a plural noun before it rather than to
/// the whole clause: a plural verb says so ("cards, which are"), and after a plural noun so does a
/// verb that shows no number ("cards, which should arrive"); "and that" would then name the clause.
fn names_the_plural(p: &Plain, c: usize) -> bool {
    let v = if heads_clause(&p.lower(c + 2)) { c + 2 } else { c + 3 };
    let verb = p.lower(v);
    let readings = morph::analyse(&verb);
    let singular = ["is", "was", "has", "does"].contains(&verb.as_str())
        || readings.iter().any(|r| r.pos == Pos::Verb && r.form == Form::ThirdPerson);
    let plural = ["are", "were", "have", "do"].contains(&verb.as_str())
        || !singular && readings.iter().any(|r| r.pos == Pos::Verb && r.form == Form::Base);
    // "checking their phones, which annoyed everyone": a reaction of someone's is to what happened.
    let reaction = crate::words::OBJECT_PRONOUNS.contains(&p.lower(v + 1).as_str())
        || ["everyone", "everybody"].contains(&p.lower(v + 1).as_str());
    plural || is_plural_noun(&p.lower(c - 1)) && !singular && !reaction
}

/// A relative clause between commas says something more of its noun: told as a clause joined by
/// "and", it says the same. "The new intern, who joined last week, is already busy." -> "The new
/// intern joined last week and is already busy."; "We lost in the last minute, which was
/// heartbreaking." -> "We lost in the last minute, and that was heartbreaking."
pub fn relative_to_and(p: &Plain) -> Option<Vec<Token>> {
    let commas: Vec<usize> = (0..p.items.len()).filter(|&k| p.is_comma(k)).collect();
    let n = p.items.len();
    let pronoun = |k: usize| ["who", "which"].contains(&p.lower(k).as_str());
    let plain = |from: usize, to: usize| {
        (from..to).all(|k| {
            p.items[k].is_word() && (!CLAUSE_WORDS.contains(&p.lower(k).as_str()) || p.lower(k) == "to")
        })
    };
    match commas[..] {
        // "NP, who VP1, VP2."
        [a, b] if (1..=4).contains(&a) && pronoun(a + 1) && b > a + 3 && b + 2 < n => {
            let opens = NOUN_PHRASE_DETERMINERS.contains(&p.lower(0).as_str())
                || p.items[0].text.starts_with(|c: char| c.is_ascii_uppercase())
                    && !SUBJECT_PRONOUNS.contains(&p.lower(0).as_str());
            // Right after "who", a word with a finite verb's reading is that verb ("lives").
            let finite_after_who = verb_phrase_at(p, a + 2)
                || morph::analyse(&p.lower(a + 2)).iter().any(|v| {
                    v.pos == Pos::Verb
                        && matches!(v.form, Form::ThirdPerson | Form::Past | Form::PastOrParticiple)
                });
            if !opens
                || !finite_after_who
                || !verb_phrase_at(p, b + 1)
                || !plain(a + 2, b)
                || !plain(b + 1, n)
            {
                return None;
            }
            let mut out: Vec<Token> = p.items[..a].to_vec();
            out.extend_from_slice(&p.items[a + 2..b]);
            out.push(shape::word("and"));
            out.extend_from_slice(&p.items[b + 1..]);
            Some(shape::build(&out, &p.terminal))
        }
        // "CLAUSE, which VP."
        [c] if c >= 3
            && p.lower(c + 1) == "which"
            && c + 3 < n
            && verb_phrase_at(p, c + 2)
            && plain(c + 2, n) =>
        {
            if !plain(0, c) || names_the_plural(p, c) {
                return None;
            }
            // "which drives me crazy", "which was annoying": what the whole clause did is "that"
            // ("and it" would point at its last noun); "which was on sale" is the thing's, "it".
            let thing = ["is", "was"].contains(&p.lower(c + 2).as_str())
                && crate::words::PREPOSITIONS.contains(&p.lower(c + 3).as_str());
            let mut out: Vec<Token> = p.items[..=c].to_vec();
            out.extend(["and", if thing { "it" } else { "that" }].map(shape::word));
            out.extend_from_slice(&p.items[c + 2..]);
            Some(shape::build(&out, &p.terminal))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::apply as run;

    #[test]
    fn a_which_that_asks_is_no_relative() {
        assert_eq!(run(reduce_relative, "I asked the man which costs more."), None);
        assert_eq!(
            run(reduce_relative, "I signed up for a course which starts in March.").as_deref(),
            Some("I signed up for a course starting in March.")
        );
    }

    #[test]
    fn no_stacked_ing() {
        let text = "There's a damp patch on the bedroom ceiling that keeps getting bigger.";
        assert_eq!(run(reduce_relative, text), None);
        assert_eq!(run(reduce_relative, "I know a man who stops working at noon."), None);
        assert_eq!(
            run(reduce_relative, "I signed up for a course that starts in March.").as_deref(),
            Some("I signed up for a course starting in March.")
        );
    }

    #[test]
    fn a_clause_headed_by_a_negated_auxiliary_is_no_relative() {
        // "that hats aren't allowed" keeps its plural subject (`words::heads_clause`).
        let text = "The school sends a text reminding parents that hats aren't allowed.";
        assert_eq!(run(reduce_relative, text), None);
        assert_eq!(
            run(reduce_relative, "I know the man that lives next door.").as_deref(),
            Some("I know the man living next door.")
        );
    }

    #[test]
    fn a_relative_clause_becomes_a_participle() {
        assert_eq!(run(reduce_relative, "My new neighbour is a retired teacher who loves gardening."), None);
        assert_eq!(run(reduce_relative, "Just a quick reminder that tickets are limited."), None);
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
        assert_eq!(run(f, "I asked the assistant which plants grow well in the shade."), None);
        assert_eq!(
            run(f, "I know a shop that sells bread.").as_deref(),
            Some("I know a shop selling bread.")
        );
        assert_eq!(
            run(f, "I know a man who plants trees in the park.").as_deref(),
            Some("I know a man planting trees in the park.")
        );
        assert_eq!(run(f, "The man who is a doctor lives here."), None);
        assert_eq!(run(f, "The man who was waiting left."), None);
        assert_eq!(run(f, "We joined a book club that meets on the first Wednesday of every month."), None);
    }

    #[test]
    fn which_after_a_plural_noun_names_the_noun() {
        let f = relative_to_and;
        let text = "The bank is sending replacement cards, which should arrive in five working days.";
        assert_eq!(run(f, text), None);
        assert_eq!(run(f, "We ordered new chairs, which are coming on Monday."), None);
        assert_eq!(
            run(f, "She got her money back within two days, which surprised me.").as_deref(),
            Some("She got her money back within two days, and that surprised me.")
        );
        assert_eq!(
            run(f, "He works long hours, which is hard on the family.").as_deref(),
            Some("He works long hours, and that is hard on the family.")
        );
    }

    #[test]
    fn a_relative_clause_between_commas_is_a_clause_of_its_own() {
        let f = relative_to_and;
        for (text, told) in [
            (
                "The new intern, who joined last week, is already handling most of the calls.",
                "The new intern joined last week and is already handling most of the calls.",
            ),
            (
                "My cousin, who lives in Dublin, is coming to stay.",
                "My cousin lives in Dublin and is coming to stay.",
            ),
            (
                "My flatmate never does the dishes, which drives me crazy.",
                "My flatmate never does the dishes, and that drives me crazy.",
            ),
        ] {
            assert_eq!(run(f, text).as_deref(), Some(told), "{text}");
        }
        assert_eq!(run(f, "He said, which surprised me, nothing."), None);
        assert_eq!(run(f, "I met Anna, who is a nurse."), None);
    }
}
