//! The tense last resorts, for a sentence that nothing else changed: the present perfect told as
//! the simple past ("has gone sour" -> "went sour"), the simple past of a finished, undated event
//! as the present perfect ("scored three goals" -> "has scored three goals"), and the first of two
//! past actions as done before the second ("Having fallen off the shelf, the glass broke."). Each
//! changes the tense, which is why none is preferred to a rule that keeps it.

use crate::lexicon::Pos;
use crate::morph::{self, Form};
use crate::shape::{self, Plain, leaving_start};
use crate::syntax::{noun_phrase, subject};
use crate::tokens::Token;
use crate::words::{
    MONTHS, NOUN_PHRASE_DETERMINERS, STATE_PARTICIPLES, TIME_NOUNS, Tense, WEEKDAYS, finite_lemma,
    heads_clause, is_verbish, participle_lemma,
};

/// The last resort for a sentence nothing else changed: the present perfect as the simple past
/// ("The milk has gone sour." -> "The milk went sour."), which says the same of a finished event.
pub fn perfect_to_past(p: &Plain) -> Option<Vec<Token>> {
    let k = (1..p.items.len().saturating_sub(1)).find(|&k| ["has", "have"].contains(&p.lower(k).as_str()))?;
    let subject_ok = k == 1 || noun_phrase(p, 0, false) == Some(k);
    let next = p.lower(k + 1);
    if !subject_ok
        || p.terminal.text == "?"
        || ["got", "to", "not", "never", "just", "already", "yet"].contains(&next.as_str())
    {
        return None;
    }
    // "has been working here for ten years" goes on now; the past would say it ended.
    // So does "has lived here all her life", "has always", "has still".
    let ongoing = (next == "been" && p.lower(k + 2).ends_with("ing"))
        || p.items.iter().any(|t| {
            ["for", "since", "all", "always", "ever", "still"].contains(&t.text.to_lowercase().as_str())
        });
    // "has been to see the doctor" is a visit; "was to see the doctor" a plan.
    if ongoing || (next == "been" && p.lower(k + 2) == "to") {
        return None;
    }
    let plural = p.lower(k) == "have" && p.lower(0) != "i";
    let past = if next == "been" {
        (if plural { "were" } else { "was" }).to_owned()
    } else if next == "gone" {
        "went".to_owned()
    } else {
        morph::inflect(participle_lemma(&next)?, Pos::Verb, Form::Past)?
    };
    let mut out: Vec<Token> = p.items[..k].to_vec();
    out.push(shape::word(&past));
    out.extend_from_slice(&p.items[k + 2..]);
    Some(shape::build(&out, &p.terminal))
}

/// Verbs whose simple past does not become the present perfect: states, which would then still
/// hold ("lived here" -> "has lived here"), activities that would go on ("waited", "worked"),
/// "went" (whose perfect says the subject is still away), and auxiliaries.
const NO_PERFECT: &[&str] = &[
    "be",
    "have",
    "do",
    "get",
    "go",
    "use",
    "know",
    "like",
    "love",
    "hate",
    "want",
    "need",
    "seem",
    "believe",
    "mean",
    "own",
    "belong",
    "cost",
    "weigh",
    "contain",
    "understand",
    "remember",
    "prefer",
    "wish",
    "hope",
    "think",
    "feel",
    "look",
    "sound",
    "smell",
    "taste",
    "appear",
    "live",
    "work",
    "stay",
    "wait",
    "sleep",
    "sit",
    "stand",
    "lie",
    "keep",
    "hold",
    "last",
    "spend",
    "study",
    "teach",
    "play",
    "let",
    "become",
    "can",
    "will",
    "shall",
    "may",
    "must",
    "used",
    "say",
    "tell",
    "ask",
    "suppose",
    "expect",
    "fit",
    "wear",
    // Activities, movements and reactions: their perfect tells of an experience ("has walked along
    // the beach", "has eaten ice cream on the pier", "has laughed at the puppy") where the past
    // narrated one occasion, and leaves no result to speak of now.
    "eat",
    "drink",
    "sing",
    "dance",
    "meet",
    "watch",
    "walk",
    "run",
    "ride",
    "cycle",
    "sail",
    "swim",
    "drive",
    "fly",
    "travel",
    "laugh",
    "smile",
    "cry",
    "bark",
    "cheer",
    "listen",
    "grow",
    "chat",
    "talk",
    "shout",
];

/// Occasions that date an event they are the place of ("met them at the party").
const OCCASIONS: &[&str] =
    &["party", "wedding", "concert", "festival", "dinner", "lunch", "breakfast", "funeral", "match", "game"];

/// Words that date an event or start another clause, either of which rules the perfect out
/// ("left yesterday", "left when it rained", "sat down and ate").
const PAST_ANCHORS: &[&str] = &[
    "yesterday",
    "ago",
    "last",
    "then",
    "once",
    "earlier",
    "when",
    "while",
    "before",
    "after",
    "until",
    "since",
    "during",
    "this",
    "that",
    "who",
    "which",
    "where",
    "because",
    "so",
    "but",
    "or",
    "if",
    "as",
    "than",
    "although",
    "later",
    "tonight",
    "today",
    "again",
    "never",
    "always",
    "end",
    "start",
    "beginning",
    "sunset",
    "sunrise",
    "dawn",
    "dusk",
    "noon",
    "midnight",
    "christmas",
    "easter",
    "eve",
    "birthday",
    "holiday",
    "holidays",
];

/// Whether the two words after "for" say how long ("three hours", "a week", "hours", "ages").
fn lasting(first: &str, second: &str) -> bool {
    const UNITS: &[&str] = &[
        "second",
        "seconds",
        "minute",
        "minutes",
        "hour",
        "hours",
        "day",
        "days",
        "week",
        "weeks",
        "month",
        "months",
        "year",
        "years",
        "while",
        "decade",
        "decades",
        "ages",
        "ever",
        "fortnight",
        "night",
        "nights",
    ];
    UNITS.contains(&first) || UNITS.contains(&second) || ["long", "good"].contains(&first)
}

/// A last resort for a finished event with no time given: the simple past as the present perfect
/// ("Our team scored three goals." -> "Our team has scored three goals.", "The flight was delayed
/// by fog." -> "The flight has been delayed by fog.").
pub fn past_to_perfect(p: &Plain) -> Option<Vec<Token>> {
    if p.commas() != 0 || p.terminal.text == "?" {
        return None;
    }
    let (k, plural) = subject(p)?;
    let dated = p.items.iter().enumerate().skip(k + 1).any(|(j, t)| {
        let w = t.text.to_lowercase();
        // "the last bus" is a bus, "last week" a time.
        (PAST_ANCHORS.contains(&w.as_str()) && !(w == "last" && p.lower(j - 1) == "the"))
            // "a day off" and "on time" are no date.
            || (TIME_NOUNS.contains(&w.as_str())
                && !["a", "an"].contains(&p.lower(j - 1).as_str())
                && !(w == "time" && ["on", "in"].contains(&p.lower(j - 1).as_str())))
            || WEEKDAYS.contains(&w.as_str())
            || MONTHS.contains(&w.as_str())
            || (OCCASIONS.contains(&w.as_str()) && j >= 2 && p.lower(j - 2) == "at")
            // "May" is a month after "in", "of" or a day's number ("met in May").
            || (t.text == "May" && j > 0)
            // A year ("in 2015") or a date in digits dates the event too.
            || (w.len() == 4 && w.bytes().all(|b| b.is_ascii_digit()))
            // A length of time ("cut the power for three hours"): with the perfect the event
            // would still be going on.
            || (w == "for" && lasting(&p.lower(j + 1), &p.lower(j + 2)))
            // "and" joins another verb unless a noun phrase follows ("a salad and a glass of water").
            || (w == "and" && !NOUN_PHRASE_DETERMINERS.contains(&p.lower(j + 1).as_str()))
            // "and the children started ...": another clause's verb.
            || (j > k + 1 && finite_lemma(&w, Tense::Past, false).is_some())
    });
    // "The weather forecast says": a finite verb next means the word is a noun.
    let next = p.lower(k + 1);
    let present_next = ["is", "are", "will", "can", "must", "should", "may"].contains(&next.as_str())
        || (next.ends_with('s') && heads_clause(&next) && !next.ends_with("ss"));
    if dated || present_next {
        return None;
    }
    let verb = p.lower(k);
    let mut out: Vec<Token> = p.items[..k].to_vec();
    out.push(shape::word(if plural { "have" } else { "has" }));
    if ["was", "were"].contains(&verb.as_str()) {
        // Only the passive of an event: "was delayed by two hours" -> "has been delayed by two
        // hours", never "was tired", "was late" or a state ("was born", "was married"). A
        // participle that ends the sentence is most often a state too ("The door was locked.").
        let participle = p.lower(k + 1);
        if participle_lemma(&participle).is_none()
            || k + 2 >= p.items.len()
            || !is_verbish(&participle)
            || STATE_PARTICIPLES.contains(&participle.as_str())
        {
            return None;
        }
        out.push(shape::word("been"));
    } else if verb == "went" && p.lower(k + 1) == "to" && ["the", "a"].contains(&p.lower(k + 2).as_str()) {
        // A finished trip: "went to the shop" -> "has been to the shop" ("has gone" would say
        // the subject is still away).
        out.push(shape::word("been"));
    } else {
        // "made" ("make" is a function word to the lexicon), or a past like "put" that only the
        // subject tells from the present: "she put", never "she puts".
        let third_singular = !plural && p.lower(0) != "i";
        let lemma = if verb == "made" {
            "make"
        } else {
            finite_lemma(&verb, Tense::Past, k == 1).or_else(|| {
                morph::analyse(&verb)
                    .into_iter()
                    .find(|a| {
                        third_singular
                            && a.pos == Pos::Verb
                            && a.form == Form::Base
                            && morph::inflect(a.entry.lemma, Pos::Verb, Form::Past).as_deref()
                                == Some(verb.as_str())
                    })
                    .map(|a| a.entry.lemma)
            })?
        };
        if NO_PERFECT.contains(&lemma) {
            return None;
        }
        // A past that is also the participle keeps its spelling: "spilled" -> "has spilled",
        // not the British "has spilt".
        let participle = if participle_lemma(&verb) == Some(lemma) || verb == "made" {
            verb.clone()
        } else {
            morph::inflect(lemma, Pos::Verb, Form::Participle)?
        };
        out.push(shape::word(&participle));
    }
    out.extend_from_slice(&p.items[k + 1..]);
    Some(shape::build(&out, &p.terminal))
}

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
    let clause_free = p.items[k + 1..and].iter().all(|t| {
        let w = t.text.to_lowercase();
        !["and", "but", "or", "that", "who", "which", "when", "because", "if"].contains(&w.as_str())
            && finite_lemma(&w, Tense::Past, false).is_none()
    });
    // Auxiliaries, and postures that last through the second action ("sat on the bench and fed
    // the birds" is not one thing after another, "stood up and applauded" is).
    let posture =
        ["sit", "stand", "lie"].contains(&lemma) && !["up", "down"].contains(&p.lower(k + 1).as_str());
    let sequence = !posture
        && !["be", "have", "do", "get", "can", "will", "shall", "may", "must", "used"].contains(&lemma);
    if !sequence || !clause_free || finite_lemma(&p.lower(second), Tense::Past, true).is_none() {
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
    fn perfect_as_past() {
        assert_eq!(run(perfect_to_past, "The milk has gone sour.").as_deref(), Some("The milk went sour."));
        assert_eq!(run(perfect_to_past, "She has been working here for ten years."), None);
        assert_eq!(run(perfect_to_past, "We have lived here since 2010."), None);
        assert_eq!(
            run(perfect_to_past, "The meeting has been moved to Thursday.").as_deref(),
            Some("The meeting was moved to Thursday.")
        );
        assert_eq!(
            run(perfect_to_past, "The printer has run out of paper.").as_deref(),
            Some("The printer ran out of paper.")
        );
        assert_eq!(run(perfect_to_past, "I have never seen it."), None);
    }

    #[test]
    fn one_action_after_another() {
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
        ] {
            assert_eq!(run(having_done, kept), None, "{kept}");
        }
    }

    #[test]
    fn past_as_perfect() {
        let cases = [
            ("Our team scored three goals.", "Our team has scored three goals."),
            ("The neighbours complained about the noise.", "The neighbours have complained about the noise."),
            ("I left my phone at home.", "I have left my phone at home."),
            ("The boy hid the sweets under his pillow.", "The boy has hidden the sweets under his pillow."),
            ("He spilled juice on the carpet.", "He has spilled juice on the carpet."),
            ("She put the flowers in a vase.", "She has put the flowers in a vase."),
            ("I made a cup of tea.", "I have made a cup of tea."),
            ("Our neighbours went to the coast.", "Our neighbours have been to the coast."),
            ("The boss gave everyone a day off.", "The boss has given everyone a day off."),
            ("The flight was delayed by fog.", "The flight has been delayed by fog."),
            ("Our flight was delayed by two hours.", "Our flight has been delayed by two hours."),
            ("We missed the last bus home.", "We have missed the last bus home."),
            ("The police caught the thief.", "The police have caught the thief."),
            ("She ordered a salad and a glass of water.", "She has ordered a salad and a glass of water."),
        ];
        for (past, perfect) in cases {
            assert_eq!(run(past_to_perfect, past).as_deref(), Some(perfect), "{past}");
        }
        // A time given, another verb, a state, an activity that would go on, "went", "was" + an
        // adjective, a question.
        for kept in [
            "She learned to swim last summer.",
            "We left on Saturday.",
            "The teacher collected the tests at the end of the lesson.",
            "The glass fell off the shelf and broke.",
            "The storm cut the power for three hours.",
            "They closed the road for a week.",
            "He borrowed my umbrella and never returned it.",
            "She lived in Paris.",
            "We waited an hour for the doctor.",
            "Our neighbours went to Spain.",
            "They went to bed.",
            "The door was locked.",
            "We walked along the beach at sunset.",
            "They put the flowers in a vase.",
            "The train to London was crowded.",
            "The water was too cold.",
            "Did you park the car?",
            "The milk went sour when it was hot.",
            "I was born in Spain.",
            "She was married to a doctor.",
            "We ate dinner at a quiet restaurant.",
            "He walked slowly along the beach.",
            "We ate far too much at the Christmas dinner.",
            "My grandfather grew up on a farm.",
            "We met our new neighbours at the party.",
            "The choir sang at the town hall on Christmas Eve.",
            "The baby laughed at the puppy.",
            "I lost my ring at the wedding.",
        ] {
            assert_eq!(run(past_to_perfect, kept), None, "{kept}");
        }
    }
}
