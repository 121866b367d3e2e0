//! A verb or adjective told with or without a negation, each a word-group site of its own:
//! "did not remember to call" -> "forgot to call", "failed his driving test" -> "did not pass his
//! driving test", "The shop is closed on Sundays." <-> "The shop is not open on Sundays.",
//! "dislikes" -> "does not like", "disagreed with" -> "did not agree with", "is unaware of" ->
//! "does not know about", "was unable to" -> "could not", "is empty" -> "has nothing in it" (of
//! a container), "absent from school" -> "not at school", "missed the last bus" -> "did not catch
//! the last bus", "refused to" -> "would not". Only in a plain statement whose
//! subject stands right before the verb and settles its agreement: never in a question, a
//! condition, under a negation already said (two negations are not one), or after a modal or an
//! adverb ("nearly forgot" is no "nearly did not remember"). Written "did not"; the contraction
//! pass makes it "didn't" where the text's style wants it.

use crate::shape::{is_title, words_like};
use crate::sites::Sites;
use crate::tokens::{Kind, Token, matches_at, next_word, prev_word};
use crate::words::{
    DEFINITE_DETERMINERS, DETERMINERS, FREQUENCY_ADVERBS, OBJECT_PRONOUNS, SMALL_NUMBERS, SUBJECT_PRONOUNS,
    heads_clause, is_negation, is_noun, is_plural_noun, modifier_or_noun, plain_verb,
};

/// How the subject before a verb agrees: "do" or "does".
#[derive(Clone, Copy, PartialEq)]
enum Person {
    /// "I", "you", "we", "they", a plural noun: "do".
    Plain,
    /// "he", "she", "it", a singular noun or a name: "does".
    Third,
}

/// Words that open a clause of their own, whose subject follows them: "because I forgot to set
/// the alarm" has "I" for its subject. Not "if" or "unless" (`plain_statement` refuses a
/// condition).
const OPENERS: &[&str] = &[
    "because", "so", "and", "but", "when", "since", "as", "after", "that", "then", "while", "although",
    "though",
];

/// The words of the clause before token `i`, back to the start of the sentence, a comma or a word
/// that opens a clause (`OPENERS`), nearest first.
fn clause_before(tokens: &[Token], i: usize) -> Vec<&Token> {
    tokens[..i]
        .iter()
        .rev()
        .take_while(|t| {
            t.kind != Kind::Punct && !(t.is_word() && OPENERS.contains(&t.text.to_lowercase().as_str()))
        })
        .filter(|t| t.is_word())
        .collect()
}

/// Words of a subject that a negation would take into its scope: "Everyone did not remember"
/// may say that some did, "No one did not forget" denies twice, "Few did not pass" is hard going.
const QUANTIFIED: &[&str] = &[
    "every",
    "each",
    "all",
    "both",
    "no",
    "neither",
    "either",
    "any",
    "few",
    "none",
    "everyone",
    "everybody",
    "everything",
    "nobody",
    "nothing",
    "only",
];

/// A word that may stand between a determiner and its noun: an adjective or a noun ("the post
/// office", "his driving test"), however often it is a verb too.
fn nominal(word: &str) -> bool {
    // The lexicon keeps the order words as function words: "the last bus", "the first test".
    modifier_or_noun(word) || is_noun(word) || ["last", "next", "first", "early", "late"].contains(&word)
}

/// The words of the clause after token `i`, up to a punctuation mark or a word that opens a
/// clause (`OPENERS`).
fn clause_after(tokens: &[Token], i: usize) -> impl Iterator<Item = &Token> {
    tokens[i + 1..]
        .iter()
        .take_while(|t| {
            t.kind != Kind::Punct && !(t.is_word() && OPENERS.contains(&t.text.to_lowercase().as_str()))
        })
        .filter(|t| t.is_word())
}

/// Whether the clause after token `i` says one of `words`.
fn said_after(tokens: &[Token], i: usize, words: &[&str]) -> bool {
    clause_after(tokens, i).any(|t| words.contains(&t.text.to_lowercase().as_str()))
}

/// The person of the whole subject right before token `i`: a subject pronoun, a name, or at most
/// four words of a determiner, modifiers and a noun ("my dad", "the post office"). Anything else
/// ("I think he", "Half the class", "nearly") is not read, so the site is refused.
fn subject_before(tokens: &[Token], i: usize) -> Option<Person> {
    let clause = clause_before(tokens, i);
    // A word rewritten earlier may hold two ("No one").
    let lower: Vec<String> = clause.iter().map(|t| t.text.to_lowercase()).collect();
    if lower.iter().flat_map(|w| w.split_whitespace()).any(|w| QUANTIFIED.contains(&w)) {
        return None;
    }
    match lower.as_slice() {
        [w] => match w.as_str() {
            "i" | "you" | "we" | "they" => Some(Person::Plain),
            "he" | "she" | "someone" | "somebody" => Some(Person::Third),
            // A name: a capitalised word that is no function word ("Tom", "Emma").
            _ if is_title(&clause[0].text) && !crate::lexicon::is_stopword(w) && !w.ends_with("ly") => {
                Some(Person::Third)
            }
            _ => None,
        },
        [head, rest @ ..] if lower.len() <= 4 => {
            // "Two pupils", "Most people" count as a determiner does.
            let determiner = rest.last().is_some_and(|d| {
                DETERMINERS.contains(&d.as_str()) || SMALL_NUMBERS.contains(&d.as_str()) || d == "most"
            });
            let modifiers = rest[..rest.len() - 1].iter().all(|w| nominal(w));
            let pronoun =
                SUBJECT_PRONOUNS.contains(&head.as_str()) || OBJECT_PRONOUNS.contains(&head.as_str());
            // "café" is no noun to the lexicon, which reads ASCII only.
            let noun =
                is_noun(head) || PREMISES.contains(&head.as_str()) || CONTAINERS.contains(&head.as_str());
            (determiner && modifiers && !pronoun && noun).then_some(if is_plural_noun(head) {
                Person::Plain
            } else {
                Person::Third
            })
        }
        _ => None,
    }
}

/// What a sentence says once for all its sites: whether it asks or sets a condition, and where
/// its first negation stands.
struct Sentence {
    question: bool,
    condition: bool,
    first_negation: usize,
}

impl Sentence {
    fn read(tokens: &[Token]) -> Sentence {
        let question = tokens.iter().any(|t| t.text == "?");
        let condition = tokens.iter().any(|t| {
            t.is_word() && ["if", "unless", "whether", "supposing"].contains(&t.text.to_lowercase().as_str())
        });
        let first_negation =
            tokens.iter().position(|t| t.is_word() && is_negation(&t.text)).unwrap_or(tokens.len());
        Sentence { question, condition, first_negation }
    }
}

/// Whether the sentence is one a negation may be added to or taken from at token `i`: a
/// statement with no condition, and no negation before the site.
fn plain_statement(tokens: &[Token], i: usize, sentence: &Sentence) -> bool {
    let denied = sentence.first_negation < i;
    // A word whose sense turns under a negation anywhere in the sentence: "forgot to bring a pen
    // too" is no "did not remember to bring a pen too" (that wants "either"), "did not pass
    // again" may count the passes, "did not remember to do all of it" may have done some.
    // Read in the site's own clause: "so I bought some" is another clause's.
    let scoped = clause_before(tokens, i).into_iter().chain(clause_after(tokens, i)).any(|t| {
        let w = t.text.to_lowercase();
        w.split_whitespace()
            .any(|w| SCOPED.contains(&w) || QUANTIFIED.contains(&w) || FREQUENCY_ADVERBS.contains(&w))
    });
    !sentence.question && !sentence.condition && !denied && !scoped
}

/// Words a negation would take into its scope, changing what they say (see `plain_statement`).
const SCOPED: &[&str] = &[
    "too", "also", "well", "again", "twice", "once", "times", "even", "either", "yet", "already", "still",
    "ever", "just", "always", "never", "much", "many", "some",
];

/// The tokens from `i` to `last` (inclusive) are words no rewrite froze or changed.
fn open(tokens: &[Token], i: usize, last: usize) -> bool {
    tokens.get(i..=last).is_some_and(|span| span.iter().all(|t| !t.frozen && !t.changed))
}

/// The word `k` words after token `i` (0 is `i` itself), across single spaces.
fn word_after(tokens: &[Token], i: usize, k: usize) -> Option<String> {
    (0..k).try_fold(i, |at, _| next_word(tokens, at).map(|_| at + 2)).map(|at| tokens[at].text.to_lowercase())
}

/// "did not remember to V" -> "forgot to V", "did not forget to V" -> "remembered to V", in the
/// past only. Not the other way: judges took "did not remember to" for "forgot to" as heavy,
/// and "did not forget to" as emphatic. The words that replace the site.
fn forgetting(tokens: &[Token], i: usize) -> Option<(usize, Vec<&'static str>)> {
    let w = tokens[i].text.to_lowercase();
    let (span, with) = match w.as_str() {
        "did" if matches_at(tokens, i, &["did", "not", "remember"]) => (3, vec!["forgot"]),
        "did" if matches_at(tokens, i, &["did", "not", "forget"]) => (3, vec!["remembered"]),
        _ => return None,
    };
    let to = i + 2 * span;
    // "to" and a verb: "forgot to lock", not "forgot my umbrella" (left it behind), "forgot
    // about", "forgot how".
    let infinitive = matches_at(tokens, to, &["to"]) && next_word(tokens, to).is_some_and(|v| plain_verb(&v));
    infinitive.then_some((2 * (span - 1), with))
}

/// What is taken and failed: a test of a skill or a thing's check, which is passed or not.
const TESTS: &[&str] =
    &["test", "tests", "exam", "exams", "examination", "examinations", "MOT", "inspection", "audition"];

/// Words after a failed test that keep "did not pass" exact: the clause's end, or a time or a
/// reason. Not "twice" or "again" ("did not pass twice" counts something else), nor "by two
/// points", which a pass is not measured by.
const AFTER_OBJECT: &[&str] = &[
    "yesterday",
    "today",
    "last",
    "this",
    "on",
    "in",
    "because",
    "so",
    "but",
    "when",
    "earlier",
    "home",
    "to",
];

/// "He failed his driving test." -> "He did not pass his driving test.": "failed", a
/// determiner, at most two modifiers and a test (`TESTS`), then the clause's end or a time or a
/// reason (`AFTER_OBJECT`). Not "failed to" (that is "did not" itself, a way off).
fn failed_test(tokens: &[Token], i: usize) -> Option<(usize, Vec<&'static str>)> {
    (tokens[i].text.eq_ignore_ascii_case("failed") && definite_object(tokens, i, TESTS))
        .then(|| (0, vec!["did", "not", "pass"]))
}

/// Whether the verb at `i` takes one of `heads` as its object with a definite determiner (a
/// test of one's own, or the one spoken of: "failed an exam" is not "did not pass an exam",
/// which reads as there being one that was not passed) and at most two modifiers, then the
/// clause's end or a time or a reason (`AFTER_OBJECT`).
fn definite_object(tokens: &[Token], i: usize, heads: &[&str]) -> bool {
    let definite =
        word_after(tokens, i, 1).is_some_and(|d| DEFINITE_DETERMINERS.contains(&d.as_str()) || d == "its");
    let Some(head) = (2..=4).find(|&k| {
        word_after(tokens, i, k).is_some_and(|w| heads.iter().any(|h| h.eq_ignore_ascii_case(&w)))
    }) else {
        return false;
    };
    let modifiers = (2..head).all(|k| word_after(tokens, i, k).is_some_and(|w| nominal(&w)));
    let end = i + 2 * head;
    let after_ok = match tokens.get(end + 1) {
        None => true,
        Some(t) if t.kind == Kind::Punct => [".", ",", "!", ";"].contains(&t.text.as_str()),
        Some(_) => next_word(tokens, end).is_some_and(|w| AFTER_OBJECT.contains(&w.as_str())),
    };
    // "and had to walk home" goes on with the story; "and the retake" would put a second object
    // under the negation.
    let and_then = matches_at(tokens, end + 2, &["and"])
        && word_after(tokens, end + 2, 1)
            .is_some_and(|w| heads_clause(&w) || SUBJECT_PRONOUNS.contains(&w.as_str()));
    // "missed our flight to Rome by ten minutes": neither a catch nor a pass is measured so.
    definite && modifiers && (after_ok || and_then) && !said_after(tokens, end, &["by"])
}

/// What one catches or misses by being there in time.
const SERVICES: &[&str] = &["bus", "train", "ferry", "coach", "tram", "flight", "plane"];

/// "We missed the last bus." -> "We did not catch the last bus.": "missed" and a bus, train or
/// flight (`SERVICES`) with its determiner, as `definite_object` reads it; not "missed the bus
/// by one minute", which a catch is not measured by.
fn missed(tokens: &[Token], i: usize) -> Option<(usize, Vec<&'static str>)> {
    (tokens[i].text.eq_ignore_ascii_case("missed") && definite_object(tokens, i, SERVICES))
        .then(|| (0, vec!["did", "not", "catch"]))
}

/// "The toddler refused to eat his vegetables." -> "The toddler would not eat his vegetables.":
/// "refused to" and a verb, in the past, where "would not" is a refusal too.
fn refused(tokens: &[Token], i: usize) -> Option<(usize, Vec<&'static str>)> {
    let to_verb =
        matches_at(tokens, i, &["refused", "to"]) && word_after(tokens, i, 2).is_some_and(|v| plain_verb(&v));
    to_verb.then(|| (2, vec!["would", "not"]))
}

/// Places that open and close for their hours, of which "closed" is "not open".
const PREMISES: &[&str] = &[
    "shop",
    "shops",
    "bank",
    "museum",
    "library",
    "restaurant",
    "cafe",
    "café",
    "pharmacy",
    "chemist",
    "office",
    "supermarket",
    "pub",
    "bar",
    "gallery",
    "pool",
    "gym",
    "bakery",
    "store",
    "cinema",
    "theatre",
    "zoo",
    "surgery",
    "clinic",
    "market",
    "canteen",
    "school",
    "schools",
    "nursery",
    "restaurants",
    "museums",
    "banks",
];

/// Words after "closed" that keep "not open" exact: the clause's end, a day or a stretch of time
/// it stays so, a reason, the moment someone found it so, or who may not come in ("to the
/// public"). Not "at six" (the hour it shuts),
/// "for repairs" ("not open for repairs" reads as not taking any), "down" (for good), "by"
/// (someone closed it), "last year" (a closure that happened).
const AFTER_CLOSED: &[&str] =
    &["on", "until", "till", "today", "tomorrow", "now", "because", "so", "when", "during", "over", "to"];

/// "The shop is closed on Sundays." <-> "The shop is not open on Sundays.": a form of "be" after
/// a place that keeps hours (`PREMISES`), then "closed" or "not open", then `AFTER_CLOSED` or the
/// clause's end. Not a road, which is closed to traffic rather than not open for custom.
fn closed(tokens: &[Token], i: usize) -> Option<(usize, Vec<&'static str>)> {
    let be = tokens[i].text.to_lowercase();
    let (last, words) = if be == "will" {
        if matches_at(tokens, i, &["will", "be", "closed"]) {
            (i + 4, vec!["will", "not", "be", "open"])
        } else if matches_at(tokens, i, &["will", "not", "be", "open"]) {
            (i + 6, vec!["will", "be", "closed"])
        } else {
            return None;
        }
    } else if ["is", "are", "was", "were"].contains(&be.as_str()) {
        if matches_at(tokens, i + 2, &["closed"]) {
            (i + 2, vec![be_word(&be), "not", "open"])
        } else if matches_at(tokens, i + 2, &["not", "open"]) {
            (i + 4, vec![be_word(&be), "closed"])
        } else {
            return None;
        }
    } else {
        return None;
    };
    // "at the moment", "at night": a stretch of time, not the hour it shuts ("at six"). Not "by the
    // time we got there": "was not open by then" reads as not yet opened.
    let at_a_stretch = [
        &["at", "the", "moment"][..],
        &["at", "night"],
        &["at", "weekends"],
        &["at", "the", "weekend"],
        &["by", "the", "time"],
    ]
    .iter()
    .any(|phrase| matches_at(tokens, last + 2, phrase));
    let after_ok = match tokens.get(last + 1) {
        None => true,
        Some(t) if t.kind == Kind::Punct => [".", ",", "!", ";"].contains(&t.text.as_str()),
        Some(_) => {
            at_a_stretch || next_word(tokens, last).is_some_and(|w| AFTER_CLOSED.contains(&w.as_str()))
        }
    };
    // "not open on Monday for staff training" may read as not open to the training.
    let purpose = said_after(tokens, last, &["for", "by"]);
    let place = prev_word(tokens, i).is_some_and(|w| PREMISES.contains(&w.as_str()));
    (place && after_ok && !purpose).then_some((last - i, words))
}

fn be_word(be: &str) -> &'static str {
    match be {
        "is" => "is",
        "are" => "are",
        "was" => "was",
        _ => "were",
    }
}

/// Containers whose emptiness is having nothing in them; not a room or a street, which are
/// empty of people.
const CONTAINERS: &[&str] = &[
    "fridge", "freezer", "box", "bottle", "jar", "tin", "bag", "cupboard", "drawer", "bin", "tank", "wallet",
    "purse", "suitcase", "basket", "envelope", "jug", "bucket", "kettle", "teapot",
];

/// "The fridge is empty." -> "The fridge has nothing in it.": "is" or "was" after a singular
/// container (`CONTAINERS`), then "empty" and the clause's end or "when", "so", "because".
fn empty(tokens: &[Token], i: usize) -> Option<(usize, Vec<&'static str>)> {
    let have = match tokens[i].text.to_lowercase().as_str() {
        "is" => "has",
        "was" => "had",
        _ => return None,
    };
    let container = prev_word(tokens, i).is_some_and(|w| CONTAINERS.contains(&w.as_str()));
    let after_ok = match tokens.get(i + 3) {
        None => true,
        Some(t) if t.kind == Kind::Punct => [".", ",", "!", ";"].contains(&t.text.as_str()),
        Some(_) => next_word(tokens, i + 2).is_some_and(|w| ["when", "so", "because"].contains(&w.as_str())),
    };
    (container && matches_at(tokens, i + 2, &["empty"]) && after_ok)
        .then(|| (2, vec![have, "nothing", "in", "it"]))
}

/// A verb said as "not" and its opposite, in each finite form: "dislikes" -> "does not like",
/// "disagreed with" -> "did not agree with". The word that must follow, if any, keeps the
/// verb's sense: "disagree with" someone or something.
const OPPOSITES: &[(&str, &str, Option<&str>)] =
    &[("dislike", "like", None), ("disagree", "agree", Some("with"))];

/// "She dislikes getting up early." -> "She does not like getting up early.": the verb in the
/// present or the past, with "do", "does" or "did" as the subject and tense want.
fn opposite(tokens: &[Token], i: usize) -> Option<(usize, Vec<&'static str>)> {
    let w = tokens[i].text.to_lowercase();
    let &(verb, plain, needs) = OPPOSITES.iter().find(|(verb, _, _)| w.starts_with(verb))?;
    let ending = &w[verb.len()..];
    let person = subject_before(tokens, i)?;
    let aux = match (ending, person) {
        ("", Person::Plain) => "do",
        ("s" | "es", Person::Third) => "does",
        ("d" | "ed", _) => "did",
        _ => return None,
    };
    let followed = match needs {
        Some(word) => next_word(tokens, i).is_some_and(|n| n == word),
        None => next_word(tokens, i).is_some(),
    };
    followed.then(|| (0, vec![aux, "not", plain]))
}

/// "is unable to" -> "cannot", "was unable to" -> "could not"; "is unaware of" -> "does not know
/// about" (not before a question word: "unaware of what happened" is "did not know what
/// happened"); "absent from school" -> "not at school". A form of "be" after the subject.
fn be_negative(tokens: &[Token], i: usize) -> Option<(usize, Vec<&'static str>)> {
    let be = tokens[i].text.to_lowercase();
    let (present, plural) = match be.as_str() {
        "am" => (true, true),
        "is" => (true, false),
        "are" => (true, true),
        "was" => (false, false),
        "were" => (false, true),
        _ => return None,
    };
    if matches_at(tokens, i + 2, &["unable", "to"])
        && word_after(tokens, i, 3).is_some_and(|v| plain_verb(&v))
    {
        return Some((4, if present { vec!["cannot"] } else { vec!["could", "not"] }));
    }
    if matches_at(tokens, i + 2, &["unaware", "of"]) {
        let what = word_after(tokens, i, 3)?;
        let question = ["what", "how", "where", "when", "who", "why", "which", "whether", "if"];
        if question.contains(&what.as_str()) {
            return None;
        }
        let aux = match (present, plural) {
            (false, _) => "did",
            (true, true) => "do",
            (true, false) => "does",
        };
        return Some((4, vec![aux, "not", "know", "about"]));
    }
    if matches_at(tokens, i + 2, &["absent", "from"]) {
        let place = word_after(tokens, i, 3)?;
        let with: &[&str] = match place.as_str() {
            "school" => &["not", "at", "school"],
            "work" => &["not", "at", "work"],
            "class" => &["not", "in", "class"],
            _ => return None,
        };
        let mut words = vec![be_word(&be)];
        words.extend_from_slice(with);
        return Some((6, words));
    }
    None
}

/// The site at token `i`, if one starts there: how many tokens after `i` it covers, and the
/// words that replace it.
fn site(tokens: &[Token], i: usize, sentence: &Sentence) -> Option<(usize, Vec<&'static str>)> {
    // The words at the site first, which are read in a step or two: the subject and the clause
    // are read only where one is found, so a sentence with no end costs no more than short ones.
    let found = forgetting(tokens, i)
        .or_else(|| failed_test(tokens, i))
        .or_else(|| missed(tokens, i))
        .or_else(|| refused(tokens, i))
        .or_else(|| closed(tokens, i))
        .or_else(|| empty(tokens, i))
        .or_else(|| opposite(tokens, i))
        .or_else(|| be_negative(tokens, i))?;
    (open(tokens, i, i + found.0)
        && subject_before(tokens, i).is_some()
        && plain_statement(tokens, i, sentence))
    .then_some(found)
}

/// Rewrites each negation site found, one site each.
pub fn rewrite(tokens: Vec<Token>, sites: &mut Sites) -> Vec<Token> {
    let tokens = &tokens;
    let sentence = Sentence::read(tokens);
    sites.scan(tokens, |i| {
        let (span, with) = site(tokens, i, &sentence)?;
        Some((i + span + 1, move || words_like(&tokens[i].text, &with)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sites::Which;
    use crate::tokens::{join, tokenize};

    fn said(text: &str) -> String {
        join(&rewrite(tokenize(text), &mut Sites::new(Which::All)))
    }

    fn stays(texts: &[&str]) {
        for text in texts {
            assert_eq!(said(text), *text, "{text}");
        }
    }

    #[test]
    fn forgetting_told_by_remembering() {
        for text in
            ["I forgot to take my antibiotics this morning.", "Luckily, he remembered to turn off the oven."]
        {
            assert_eq!(said(text), text);
        }
        assert_eq!(said("He did not forget to bring the cake."), "He remembered to bring the cake.");
        assert_eq!(said("She did not remember to lock the door."), "She forgot to lock the door.");
        stays(&[
            "I forgot my umbrella at the office.",
            "He forgot about the meeting completely.",
            "I forgot how to make the sauce.",
            "I never forgot to send her a card.",
            "Did you forget to pay the bill?",
            "If you forgot to set the alarm, call me.",
            "I nearly forgot to post the letter.",
            "I think he forgot to lock the car.",
            "My brother forgets to feed the cat.",
            "I have forgotten to bring my charger.",
            "Please remember to take your keys.",
            "Nobody remembered to bring the tongs.",
            "I forgot to bring a pen too.",
            "The kids forgot to brush their teeth again.",
            "I forgot to do all my homework.",
            "Everyone forgot to bring a pen, so I lent them some.",
            "No one remembered to bring the tongs.",
            "Everyone forgot to bring a pen.",
            "All the guests forgot to bring a gift.",
        ]);
        assert_eq!(said("Someone did not remember to lock the door."), "Someone forgot to lock the door.");
        assert_eq!(
            said("I was late because I did not remember to set my alarm."),
            "I was late because I forgot to set my alarm."
        );
        assert_eq!(
            said("We did not remember to order candles, so I bought some."),
            "We forgot to order candles, so I bought some."
        );
    }

    #[test]
    fn a_failed_test_not_passed() {
        assert_eq!(said("He failed his driving test."), "He did not pass his driving test.");
        assert_eq!(said("My car failed its MOT."), "My car did not pass its MOT.");
        assert_eq!(said("She failed her exams."), "She did not pass her exams.");
        assert_eq!(
            said("She failed the theory test last week."),
            "She did not pass the theory test last week."
        );
        stays(&[
            "She failed her driving test twice last year.",
            "I failed the theory test by two points.",
            "He failed to notice the sign.",
            "The plan failed miserably.",
            "She has failed her driving test.",
            "He failed an exam.",
            "He failed his test and the retake.",
            "My son failed his maths exam again.",
        ]);
    }

    #[test]
    fn a_missed_bus_not_caught_and_a_refusal_told_with_would() {
        assert_eq!(
            said("We missed the last bus and had to walk home."),
            "We did not catch the last bus and had to walk home."
        );
        assert_eq!(said("I missed the train to London."), "I did not catch the train to London.");
        assert_eq!(
            said("The toddler refused to eat his vegetables."),
            "The toddler would not eat his vegetables."
        );
        stays(&[
            "He missed the bus by one minute.",
            "We missed our flight to Rome by ten minutes.",
            "I missed the last part of the film.",
            "I missed a bus.",
            "She missed her family.",
            "Did he refuse to pay?",
            "He refuses to eat.",
            "Nobody refused to help.",
        ]);
    }

    #[test]
    fn closed_premises_not_open() {
        assert_eq!(said("The shop is closed on Sundays."), "The shop is not open on Sundays.");
        assert_eq!(
            said("The library was closed when we arrived."),
            "The library was not open when we arrived."
        );
        assert_eq!(
            said("The post office is not open until Tuesday."),
            "The post office is closed until Tuesday."
        );
        assert_eq!(said("The café is not open on Mondays."), "The café is closed on Mondays.");
        assert_eq!(said("The library will be closed on Monday."), "The library will not be open on Monday.");
        assert_eq!(said("The bank is closed at the moment."), "The bank is not open at the moment.");
        stays(&[
            "The road is closed because of the flooding.",
            "The museum is closed for repairs.",
            "Is the shop closed on bank holidays?",
            "Please keep the door closed.",
            "The shop was closed by the police.",
            "The pharmacy is closed at six.",
            "The shop is not open yet.",
            "The bank was closed by the time I got there.",
            "The library will be closed on Monday for staff training.",
            "The shop is closed again.",
            "The shop that is closed on Sundays sells bread.",
        ]);
    }

    #[test]
    fn an_empty_container_has_nothing_in_it() {
        assert_eq!(said("The fridge is empty."), "The fridge has nothing in it.");
        assert_eq!(said("The box was empty."), "The box had nothing in it.");
        stays(&["The streets were empty at night.", "The room was empty.", "The fridge is empty of beer."]);
    }

    #[test]
    fn a_verb_told_as_not_its_opposite() {
        assert_eq!(said("I dislike loud music."), "I do not like loud music.");
        assert_eq!(said("She dislikes getting up early."), "She does not like getting up early.");
        assert_eq!(said("My father disliked the new manager."), "My father did not like the new manager.");
        assert_eq!(said("They disagree with the plan."), "They do not agree with the plan.");
        assert_eq!(
            said("She disagrees with her sister about money."),
            "She does not agree with her sister about money."
        );
        stays(&[
            "He does not dislike his job.",
            "Do you dislike spicy food?",
            "I would dislike that.",
            "She disagreed.",
            // "does not agree about everything" may agree about some things.
            "She disagrees with her sister about everything.",
            "He dislike the food.",
        ]);
    }

    #[test]
    fn unable_unaware_and_absent() {
        assert_eq!(said("He is unable to come to the party."), "He cannot come to the party.");
        assert_eq!(said("We were unable to find a parking space."), "We could not find a parking space.");
        assert_eq!(said("He is unaware of the problem."), "He does not know about the problem.");
        assert_eq!(
            said("Most people are unaware of the new rules."),
            "Most people do not know about the new rules."
        );
        assert_eq!(said("She was unaware of the danger."), "She did not know about the danger.");
        assert_eq!(
            said("Two pupils were absent from school this morning."),
            "Two pupils were not at school this morning."
        );
        stays(&[
            "She will be unable to come.",
            "He was unaware of what had happened.",
            "Emma is absent today.",
            "He is absent from the photo.",
            "Is he unable to come?",
        ]);
    }
}
