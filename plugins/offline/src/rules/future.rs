//! A plan or a prediction told with "going to": "The plumber will come on Tuesday." -> "The
//! plumber is going to come on Tuesday." A word-group site of its own; only where a time to come
//! is said, so that an offer or a promise ("I'll help you", "I'll have a flat white") keeps its
//! "will", and never in a condition ("If it rains, we will stay in"), where "going to" would
//! shift the weight. "it will" is the word groups' own (`phrasal`). An arrangement in the present
//! progressive with its time is told with "will" too ("The shop is opening next week." -> "The
//! shop will open next week.").

use crate::shape::words_like;
use crate::sites::Sites;
use crate::tokens::{Token, next_word, prev_word};
use crate::words::{
    DAY_NAMES, DETERMINERS, MONTHS, PREPOSITIONS, can_be, is_noun, is_plural_noun, modifier_or_noun,
};

/// Words that tell a time to come on their own.
const AHEAD: &[&str] = &["tomorrow", "tonight", "next", "soon", "later"];

/// Whether the sentence says when, in the future: "tomorrow", "next week", "on Tuesday", "this
/// weekend", "in April", "in twenty minutes".
fn says_when(words: &[String]) -> bool {
    words.iter().enumerate().any(|(k, w)| {
        let next = words.get(k + 1).map(String::as_str).unwrap_or("");
        let after = words.get(k + 2).map(String::as_str).unwrap_or("");
        // "as soon as" tells no time to come: "I'll send them as soon as I have them" is a promise.
        let as_soon = w == "soon" && k > 0 && words[k - 1] == "as";
        (AHEAD.contains(&w.as_str()) && !as_soon)
            || (w == "on" && DAY_NAMES.contains(&next))
            || (w == "this"
                && [
                    "morning",
                    "afternoon",
                    "evening",
                    "weekend",
                    "week",
                    "month",
                    "year",
                    "summer",
                    "winter",
                ]
                .contains(&next))
            || (w == "in" && MONTHS.contains(&next))
            || (w == "in" && ["minutes", "hours", "days", "weeks", "hour", "week"].contains(&after))
    })
}

/// "am", "is" or "are" for the subject before "will", if it is one that "going to" may follow: a
/// personal pronoun other than "it", or a noun.
fn be_for(subject: &str) -> Option<&'static str> {
    match subject {
        "i" => Some("am"),
        "he" | "she" => Some("is"),
        "we" | "you" | "they" => Some("are"),
        "it" | "that" | "this" | "there" | "who" | "which" => None,
        w if is_noun(w) => Some(if is_plural_noun(w) { "are" } else { "is" }),
        _ => None,
    }
}

/// Whether the words before "will" at `i`, back to the start of the sentence or a comma, are the
/// whole subject whose head is the word before it: a pronoun, or at most four words of a
/// determiner, modifiers and the noun ("our council tax", "dinner"). "The results of the
/// election will" has its head further back, where "is" would not agree.
fn whole_subject(tokens: &[Token], i: usize) -> bool {
    let clause: Vec<String> = tokens[..i]
        .iter()
        .rev()
        .take_while(|t| t.text != ",")
        .filter(|t| t.is_word())
        .map(|t| t.text.to_lowercase())
        .collect();
    match clause.as_slice() {
        [] => false,
        [_pronoun_or_noun] => true,
        [_, rest @ ..] => {
            clause.len() <= 4
                && rest.iter().enumerate().all(|(k, w)| {
                    let last = k + 1 == rest.len();
                    (last && DETERMINERS.contains(&w.as_str()))
                        || (!PREPOSITIONS.contains(&w.as_str()) && modifier_or_noun(w))
                })
        }
    }
}

/// Arrangements told in the present progressive, and the verb "will" takes for each.
const ARRANGED: &[(&str, &str)] = &[
    ("coming", "come"),
    ("leaving", "leave"),
    ("arriving", "arrive"),
    ("opening", "open"),
    ("closing", "close"),
    ("starting", "start"),
    ("flying", "fly"),
    ("moving", "move"),
    ("visiting", "visit"),
    ("returning", "return"),
];

/// "A new supermarket is opening next week." -> "A new supermarket will open next week.": an
/// arrangement (`ARRANGED`) told as a plan with its time (`rewrite` wants one), after "am", "is"
/// or "are" and the whole subject. Not "going" ("is going to rain" is the other future), and not
/// after "it" or "there". The base form, if the site at `i` is one.
fn arranged(tokens: &[Token], i: usize) -> Option<&'static str> {
    let t = &tokens[i];
    if !t.is_word() || t.frozen || t.changed || !["am", "is", "are"].contains(&t.text.to_lowercase().as_str())
    {
        return None;
    }
    let verb =
        tokens.get(i + 2).filter(|v| v.is_word() && !v.frozen && !v.changed && tokens[i + 1].text == " ")?;
    let &(_, base) = ARRANGED.iter().find(|(ing, _)| verb.text.eq_ignore_ascii_case(ing))?;
    // "are flying out on Friday and coming back on Sunday": the "am" or "are" carries the second
    // "-ing" too, which "will" would leave without a verb. A short look ahead within the clause.
    let coordinated = tokens[i + 3..]
        .iter()
        .take(40)
        .take_while(|t| t.is_word() || t.text.trim().is_empty())
        .filter(|t| t.is_word())
        .map(|t| t.text.to_lowercase())
        .collect::<Vec<_>>()
        .windows(2)
        .any(|w| ["and", "or", "but", "then"].contains(&w[0].as_str()) && w[1].ends_with("ing"));
    let subject = prev_word(tokens, i)?;
    (!coordinated && be_for(&subject).is_some() && whole_subject(tokens, i)).then_some(base)
}

/// Rewrites each "will" of a plan found, one site each.
pub fn rewrite(tokens: Vec<Token>, sites: &mut Sites) -> Vec<Token> {
    let statement = tokens.last().is_some_and(|t| t.text == "." || t.text == "!");
    let words: Vec<String> = tokens.iter().filter(|t| t.is_word()).map(|t| t.text.to_lowercase()).collect();
    let conditional =
        words.iter().any(|w| ["if", "unless", "when", "once", "until", "before"].contains(&w.as_str()));
    if !statement || conditional || !says_when(&words) {
        return tokens;
    }
    let mut out = Vec::with_capacity(tokens.len() + 4);
    let mut skip = 0;
    for (i, t) in tokens.iter().enumerate() {
        if skip > 0 {
            skip -= 1;
            continue;
        }
        if let Some(base) = arranged(&tokens, i) {
            sites.put(&mut out, &tokens[i..=i + 2], || words_like(&t.text, &["will", base]));
            skip = 2;
            continue;
        }
        let will = t.is_word() && !t.frozen && !t.changed && t.text.eq_ignore_ascii_case("will");
        let be = will.then(|| prev_word(&tokens, i)).flatten().and_then(|s| be_for(&s));
        let be = be.filter(|_| whole_subject(&tokens, i));
        // "will have to" and "will need to" would pile up into "is going to need to".
        let obliged = matches!(next_word(&tokens, i).as_deref(), Some("have" | "need"))
            && next_word(&tokens, i + 2).is_some_and(|w| w == "to");
        let verb = next_word(&tokens, i).is_some_and(|v| {
            // The commonest verbs the lexicon keeps as function words.
            // Not "go": "is going to go" stutters.
            ["be", "get", "come", "do", "make", "take", "see", "give", "keep"].contains(&v.as_str())
                || (v != "not" && can_be(&v, crate::lexicon::Pos::Verb) && !v.ends_with("ing"))
        }) && !obliged;
        match be {
            Some(be) if verb => {
                sites.put(&mut out, std::slice::from_ref(t), || words_like(&t.text, &[be, "going", "to"]))
            }
            _ => out.push(t.clone()),
        }
    }
    out
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
    fn a_plan_told_with_going_to() {
        assert_eq!(said("The plumber will come on Tuesday."), "The plumber is going to come on Tuesday.");
        assert_eq!(
            said("Our neighbours will move next month."),
            "Our neighbours are going to move next month."
        );
        assert_eq!(
            said("The office will be closed on Monday."),
            "The office is going to be closed on Monday."
        );
    }

    #[test]
    fn an_arrangement_with_a_second_ing_keeps_its_be() {
        assert_eq!(
            said("We are flying out on Friday and coming back the following Sunday."),
            "We are flying out on Friday and coming back the following Sunday."
        );
        assert_eq!(
            said("We are flying out on Friday and back on Sunday."),
            "We will fly out on Friday and back on Sunday."
        );
    }

    #[test]
    fn an_arrangement_with_its_time_told_with_will() {
        assert_eq!(
            said("A new supermarket is opening on the high street next week."),
            "A new supermarket will open on the high street next week."
        );
        assert_eq!(
            said("The plumber is coming tomorrow morning."),
            "The plumber will come tomorrow morning."
        );
        // No time, a question, a condition, or another verb: stays.
        for text in [
            "Our parents are coming to stay with us.",
            "Is the plumber coming tomorrow?",
            "If the shop is closing tomorrow, we should go today.",
            "It is going to rain tomorrow.",
            "She is cooking dinner tonight.",
        ] {
            assert_eq!(said(text), text, "{text}");
        }
    }

    #[test]
    fn offers_conditions_questions_and_no_time_are_left() {
        for text in [
            "I will help you.",
            "I will have a flat white, please.",
            "If it rains tomorrow, we will stay inside.",
            "Will you come tomorrow?",
            "It will rain tomorrow.",
            "She will not come tomorrow.",
            "I will call you when I get home tomorrow.",
            "I will send you the details as soon as I have them.",
            "I will have to cancel our meeting on Thursday.",
            "The results of the election will be announced tomorrow.",
            "We will go to the market on Saturday.",
        ] {
            assert_eq!(said(text), text, "{text}");
        }
    }
}
