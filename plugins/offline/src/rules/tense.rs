//! The last resorts of tense and aspect, for a sentence nothing else changed: two past actions
//! told one after the other ("The glass fell off the shelf and broke." -> "Having fallen off the
//! shelf, the glass broke."), and a posture held in a place told as going on ("The cat sat on the
//! mat." -> "The cat was sitting on the mat."). The tense shifts that were once last resorts here (the simple past as the present
//! perfect and back) are gone: a reader takes "Our team has lost the match" for another time than
//! "Our team lost the match", so they changed what the sentence says.

use crate::lexicon::Pos;
use crate::morph::{self, Form};
use crate::shape::{self, Plain, leaving_start};
use crate::syntax::{has_clause_word, subject};
use crate::tokens::Token;
use crate::words::{DAY_NAMES, DEFINITE_DETERMINERS, Tense, concat, finite_lemma};

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
    // "walked along the river and stopped at a pub": a movement along a way may still be going
    // on when the second action happens, where "Having walked" would have it over first.
    let along_a_way =
        ["walk", "drive", "cycle", "ride", "run", "wander", "stroll", "hike", "jog", "sail", "row"]
            .contains(&lemma)
            && ["along", "through", "around", "round", "down", "up"].contains(&p.lower(k + 1).as_str());
    // "replied within an hour and offered a free replacement": the message and what it said are
    // one act, which "Having replied" would make two.
    let message =
        ["reply", "answer", "respond", "write", "call", "phone", "ring", "email", "text", "contact"]
            .contains(&lemma);
    let sequence = !posture
        && !along_a_way
        && !message
        && !["be", "have", "do", "get", "can", "will", "shall", "may", "must", "used"].contains(&lemma);
    // "I dropped my phone and cracked the screen": the second is what the first did, not a later
    // act of its own, which "Having dropped my phone" would make it.
    const RESULTS: &[&str] = &[
        "crack", "break", "smash", "spill", "hurt", "injure", "damage", "lose", "miss", "burn", "cut",
        "tear", "flood", "ruin", "stain", "scratch", "dent", "wake",
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

/// The places where sitting or standing is a state that lasts, not a single act: "sat on my
/// glasses" is an accident and "sat on the committee" a duty, neither of which "was sitting on"
/// tells.
const RESTING_PLACES: &[&str] = &[
    "mat",
    "rug",
    "carpet",
    "sofa",
    "couch",
    "bench",
    "chair",
    "armchair",
    "stool",
    "floor",
    "step",
    "steps",
    "stairs",
    "grass",
    "lawn",
    "beach",
    "sand",
    "wall",
    "windowsill",
    "sill",
    "edge",
    "bed",
    "table",
    "desk",
    "counter",
    "bar",
    "corner",
    "doorway",
    "door",
    "window",
    "garden",
    "kitchen",
    "hall",
    "room",
    "car",
    "row",
    "shade",
    "sun",
    "porch",
    "balcony",
    "stage",
    "platform",
    "queue",
    "hill",
    "field",
    "park",
    "square",
    "bank",
    "shore",
    "roof",
    "pavement",
    "corridor",
    "hallway",
    "lobby",
    "entrance",
    "gate",
    "pier",
    "dock",
    "deck",
    "terrace",
    "patio",
    "fireplace",
    "fire",
];

/// A posture held in a place, told as going on: "The cat sat on the mat." -> "The cat was sitting
/// on the mat." Only a lone clause (a second verb or clause may be the next act in a story, "came
/// in and sat on the sofa", which the progressive would make a scene already set), the verb right
/// after its subject ("suddenly sat" is an act), no particle ("sat down", "stood up" are acts), and
/// a place from the list where the posture is a state.
pub fn posture_progressive(p: &Plain) -> Option<Vec<Token>> {
    if p.commas() != 0 || p.terminal.text != "." || has_clause_word(p, usize::MAX) {
        return None;
    }
    let (k, takes_have) = subject(p)?;
    let participle = match p.lower(k).as_str() {
        "sat" => "sitting",
        "stood" => "standing",
        _ => return None,
    };
    let preposition = p.lower(k + 1);
    let at = preposition == "at" && participle == "sitting";
    if !(at
        || ["on", "in", "beside", "near", "under", "behind", "outside", "by"].contains(&preposition.as_str()))
    {
        return None;
    }
    let opener = p.lower(k + 2);
    let determiner =
        DEFINITE_DETERMINERS.contains(&opener.as_str()) || ["a", "its"].contains(&opener.as_str());
    // The place is the first noun phrase's last word: "on the mat", "in the front row".
    let place_end = (k + 2..p.items.len())
        .find(|&j| !p.items[j].is_word() || crate::words::PREPOSITIONS.contains(&p.lower(j + 1).as_str()))
        .unwrap_or(p.items.len() - 1);
    let resting = RESTING_PLACES.contains(&p.lower(place_end).as_str());
    let another_verb = p.items[k + 1..].iter().any(|t| {
        let w = t.text.to_lowercase();
        ["and", "or", "but", "then"].contains(&w.as_str()) || finite_lemma(&w, Tense::Past, false).is_some()
    });
    if !determiner || !resting || another_verb {
        return None;
    }
    // "I" and the singular take "was"; "you", "we", "they" and a plural noun "were".
    let were = takes_have && p.lower(0) != "i";
    let mut out: Vec<Token> = p.items[..k].to_vec();
    out.push(shape::word(if were { "were" } else { "was" }));
    out.push(shape::word(participle));
    out.extend_from_slice(&p.items[k + 1..]);
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
            run(having_done, "I left my bag on the bus and never saw it again.").as_deref(),
            Some("Having left my bag on the bus, I never saw it again.")
        );
        // A walk to a place is over when the next act begins; one along a way may not be.
        assert_eq!(
            run(having_done, "We walked to the station and caught the train.").as_deref(),
            Some("Having walked to the station, we caught the train.")
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
            "We walked along the river and stopped at a pub for lunch.",
            "Their customer service replied within an hour and offered a free replacement.",
            "I left the tap running by mistake and flooded the bathroom.",
        ] {
            assert_eq!(run(having_done, kept), None, "{kept}");
        }
    }

    #[test]
    fn a_posture_held_in_a_place() {
        for (text, want) in [
            ("The cat sat on the mat.", "The cat was sitting on the mat."),
            ("The children sat in the front row.", "The children were sitting in the front row."),
            ("I stood in the queue for an hour.", "I was standing in the queue for an hour."),
            ("We sat at a table by the window.", "We were sitting at a table by the window."),
        ] {
            assert_eq!(run(posture_progressive, text).as_deref(), Some(want), "{text}");
        }
        for kept in [
            // Acts, duties and accidents.
            "She sat down on the sofa.",
            "He sat on my glasses.",
            "My aunt sat on the committee for years.",
            "He suddenly sat on the floor.",
            // The next act in a story, and a posture in a clause of its own.
            "She came in and sat on the sofa.",
            "He sat on the bench when the rain started.",
            "Unemployment stood at a record high.",
            "The cat sat on the mat, purring.",
        ] {
            assert_eq!(run(posture_progressive, kept), None, "{kept}");
        }
    }
}
