//! Rewrites of small fixed word groups: phrasal verbs and their one-word equivalents ("find
//! out" -> "discover", "postpone" -> "put off"), near-synonymous function words checked against
//! the next word ("almost" -> "nearly", "have to" -> "need to", "are going to" + verb ->
//! "will", "so" and "pretty" as a degree after a linking verb -> "really", "quite"), where
//! "please" sits in a request, and, as a last resort, "have" of possession as "have got".
//!
//! These are the words WordNet cannot help with: function words are never substituted, and a
//! phrasal verb means something its parts do not.

use crate::lexicon::Pos;
use crate::morph::{self, Form};
use crate::shape::{self, Plain, starting};
use crate::sites::Sites;
use crate::syntax::{compound_noun_before, has_clause_word, subject, wants_participle};
use crate::tokens::{Kind, Token, next_word, prev_word, words_back};
use crate::words::{
    ABILITY_VERBS, ARTICLES, ASKING, BE_FORMS, CLAUSE_WORDS, CONTENT_NOUNS, DETERMINERS, FINITE_BE,
    FINITE_DO, FINITE_HAVE, NOUN_PHRASE_DETERMINERS, PERSONAL_POSSESSIVES, PREPOSITIONS, SMALL_NUMBERS,
    SUBJECT_PRONOUNS, TIME_NOUNS, TIME_UNITS, Tense, can_be, concat, is_noun, is_verbish, plain_verb,
};

/// `(verb, particle, replacement verb, replacement particle)`: each phrasal verb has the same
/// meaning as its replacement in every common use.
const PHRASAL: &[(&str, &str, &str, &str)] = &[
    ("carry", "on", "continue", ""),
    ("come", "back", "return", ""),
    ("figure", "out", "work", "out"),
    ("find", "out", "discover", ""),
    ("get", "back", "return", ""),
    ("give", "up", "quit", ""),
    ("call", "off", "cancel", ""),
    ("close", "down", "shut", "down"),
    ("meet", "up", "get", "together"),
    ("save", "up", "save", ""),
    ("tidy", "up", "clean", "up"),
    ("go", "back", "return", ""),
    ("go", "up", "rise", ""),
    ("hand", "in", "submit", ""),
    ("look", "for", "search", "for"),
    // A debt paid: "paid back the loan" -> "repaid the loan" (an object between, "pay me back",
    // is `GROUPS`').
    ("pay", "back", "repay", ""),
    ("put", "off", "postpone", ""),
    ("show", "up", "arrive", ""),
    ("switch", "off", "turn", "off"),
    ("switch", "on", "turn", "on"),
    ("throw", "away", "throw", "out"),
    ("turn", "off", "switch", "off"),
    ("turn", "on", "switch", "on"),
];

/// Whether a document or a piece of work (`SUBMITTED`) is among the first four words of the clause
/// from `from`: what "hand in" and "submit" both take.
fn work_follows(tokens: &[Token], from: usize) -> bool {
    tokens
        .get(from..)
        .unwrap_or_default()
        .iter()
        .take_while(|t| t.kind != Kind::Punct)
        .filter(|t| t.is_word())
        .take(4)
        .any(|t| SUBMITTED.contains(&t.text.to_lowercase().as_str()))
}

/// What is handed in as it is submitted: documents and pieces of work.
const SUBMITTED: &[&str] = &[
    "homework",
    "essay",
    "essays",
    "assignment",
    "assignments",
    "form",
    "forms",
    "application",
    "applications",
    "notice",
    "resignation",
    "report",
    "reports",
    "coursework",
    "paper",
    "papers",
    "thesis",
    "dissertation",
    "project",
    "projects",
    "claim",
    "claims",
    "proposal",
    "proposals",
    "timesheet",
    "timesheets",
    "work",
    "entry",
    "entries",
    "portfolio",
    "expenses",
    "receipts",
    "petition",
];

/// Times, weather and a newborn, which arrive but never turn up: "after the baby turns up" is
/// no birth.
const ARRIVING_TIMES: &[&str] = &[
    "spring", "summer", "autumn", "winter", "fall", "season", "day", "night", "morning", "evening", "moment",
    "time", "year", "storm", "rain", "snow", "weather", "news", "dawn", "darkness", "winds", "heatwave",
    "baby", "babies", "twins",
];

/// The vehicles of a timetable, which arrive at their time: "the train would turn up at 8:15"
/// reads as if it might not (a bus that "turned up twenty minutes late" is fine).
const TIMETABLED: &[&str] = &["train", "bus", "plane", "flight", "ferry", "coach", "tram", "boat", "ship"];

/// Whether the word after a verb (none at the end of a clause) allows its phrasal equivalent.
type Follows = fn(Option<&str>) -> bool;

/// One-word verbs and the phrasal verb that says the same, with what must follow for it to:
/// "continue working" is "carry on working", but "continue to work" is not "carry on to work".
const TO_PHRASAL: &[(&str, &str, &str, Follows)] = &[
    ("apologise", "say", "sorry", |_| true),
    ("apologize", "say", "sorry", |_| true),
    ("continue", "carry", "on", |n| n.is_some_and(|n| n.ends_with("ing") || n == "with")),
    // "arrived late" -> "turned up late": with a time or a place after it, or nothing.
    ("arrive", "turn", "up", |n| {
        n.is_none_or(|n| {
            n.starts_with(|c: char| c.is_ascii_digit())
                || [
                    "late",
                    "early",
                    "at",
                    "on",
                    "just",
                    "yesterday",
                    "today",
                    "this",
                    "last",
                    "the",
                    "two",
                    "three",
                    "five",
                    "ten",
                    "fifteen",
                    "twenty",
                    "thirty",
                    "forty",
                    "half",
                    "a",
                    "an",
                ]
                .contains(&n)
        })
    }),
    ("extinguish", "put", "out", |n| n.is_some_and(|n| ["the", "a", "it", "fire"].contains(&n))),
    // "Our council tax will increase by four percent." -> "... go up by ...": only before "by".
    ("increase", "go", "up", |n| n == Some("by")),
    ("postpone", "put", "off", |n| {
        n.is_some_and(|n| ["the", "a", "it", "our", "my", "their", "his", "her"].contains(&n))
    }),
    ("return", "come", "back", |n| {
        n.is_none_or(|n| ["home", "from", "to", "later", "soon", "tomorrow"].contains(&n))
    }),
    ("submit", "hand", "in", |n| {
        n.is_some_and(|n| ["the", "their", "his", "her", "my", "our", "your"].contains(&n))
    }),
];

/// The forms of "go", which the lexicon lists as function words.
const GO: &[(&str, Form)] = &[
    ("go", Form::Base),
    ("goes", Form::ThirdPerson),
    ("went", Form::Past),
    ("gone", Form::Participle),
    ("going", Form::Gerund),
];

/// The verb analyses of a word: (lemma, form).
fn verb_forms(word: &str) -> Vec<(&'static str, Form)> {
    if let Some(&(_, form)) = GO.iter().find(|(w, _)| *w == word) {
        return vec![("go", form)];
    }
    morph::analyse(word).into_iter().filter(|a| a.pos == Pos::Verb).map(|a| (a.entry.lemma, a.form)).collect()
}

/// `lemma` in the form of the verb token at `i` (whose forms are `forms`).
fn in_form(tokens: &[Token], i: usize, lemma: &str, form: Form) -> Option<String> {
    let form = match form {
        Form::PastOrParticiple if wants_participle(tokens, i) => Form::Participle,
        Form::PastOrParticiple => Form::Past,
        f => f,
    };
    morph::inflect(lemma, Pos::Verb, form)
}

/// A word no earlier rewrite made or froze ("can" from "are able to" must not turn back).
fn plain_word(t: &Token) -> bool {
    t.is_word() && !t.frozen && !t.changed && t.text.bytes().all(|b| b.is_ascii_alphabetic())
}

/// The phrasal-verb rewrite for the verb token at `i`: the tokens to put in place of `i..end`.
fn phrasal_at(tokens: &[Token], i: usize) -> Option<(usize, Vec<Token>)> {
    // "replace the switch on my hairdryer": after a determiner the word is a noun.
    if prev_word(tokens, i).is_some_and(|p| DETERMINERS.contains(&p.as_str())) {
        return None;
    }
    let word = tokens[i].text.to_lowercase();
    let next = next_word(tokens, i);
    for (lemma, form) in verb_forms(&word) {
        // "put", "set", "shut" are present and past alike: "They put off the meeting" is no
        // "They postpone the meeting". Only a word before that asks for the base form (a modal,
        // "to", "do", a request) or a participle (a form of "have") settles which.
        let same = |f: Form| morph::inflect(lemma, Pos::Verb, f).as_deref() == Some(word.as_str());
        let form = if same(Form::Base) && same(Form::Past) {
            match crate::syntax::settled_tense(tokens, i) {
                Some(true) => Form::PastOrParticiple,
                Some(false) => Form::Base,
                None => continue,
            }
        } else if same(Form::Base) && same(Form::Participle) {
            // "hasn't come back" is the participle: "has not returned", never "has not return".
            let mut k = i;
            let mut before = prev_word(tokens, k);
            while before
                .as_deref()
                .is_some_and(|w| ["not", "never", "just", "already", "still", "ever"].contains(&w))
            {
                k = (0..k).rev().find(|&j| tokens[j].is_word()).unwrap_or(0);
                before = prev_word(tokens, k);
            }
            let had = before.is_some_and(|w| {
                let w = w.replace('’', "'");
                FINITE_HAVE.contains(&w.as_str())
                    || ["having", "hasn't", "haven't", "hadn't"].contains(&w.as_str())
                    || w.ends_with("'ve")
            });
            if had { Form::Participle } else { form }
        } else {
            form
        };
        if let Some(&(_, particle, to, to_particle)) =
            PHRASAL.iter().find(|(v, p, _, _)| *v == lemma && next.as_deref() == Some(p))
        {
            if !tokens.get(i + 2).is_some_and(plain_word) {
                continue;
            }
            // "find out about us" is no "discover about us": a replacement that takes an object
            // straight after it does not take the particle's preposition.
            if to_particle.is_empty() && next_word(tokens, i + 2).as_deref() == Some("about") {
                continue;
            }
            // "The results should come back on Wednesday" are received, not returned: a reply,
            // a report or a test's results "come back" to whoever waits for them.
            const RECEIVED: &[&str] = &[
                "result", "results", "test", "tests", "scan", "scans", "report", "reports", "reply",
                "replies", "answer", "answers", "grades", "marks", "quote", "quotes", "email", "emails",
            ];
            let received = crate::tokens::listed_before(tokens, i, 4, RECEIVED);
            if lemma == "come" && received {
                continue;
            }
            // "gave up smoking", "gave up my job" quit, but "gave up their time" or "their seat"
            // was given to others, which no "quit" says.
            const GIVEN: &[&str] = &[
                "time", "seat", "seats", "place", "hope", "chance", "life", "lives", "day", "days",
                "weekend", "weekends", "evening", "evenings", "room", "space", "spot", "share", "right",
                "rights", "turn", "money", "blood", "bed", "holiday", "lunch", "break", "saturday", "sunday",
            ];
            let quit_object = |k: usize| {
                let w = next_word(tokens, k).unwrap_or_default();
                let w = if DETERMINERS.contains(&w.as_str()) {
                    next_word(tokens, k + 2).unwrap_or_default()
                } else {
                    w
                };
                !w.is_empty() && !GIVEN.contains(&w.as_str())
            };
            let ends = tokens.get(i + 3).is_none_or(|t| t.kind == Kind::Punct);
            if lemma == "give" && !(ends || quit_object(i + 2)) {
                continue;
            }
            // "by hand in the sink" has no verb at all, and "handed in a spaniel" was brought to
            // someone: only a document or a piece of work handed in is submitted.
            if lemma == "hand" {
                // "to hand in" is the infinitive's "to".
                let verb =
                    prev_word(tokens, i).is_none_or(|p| p == "to" || !PREPOSITIONS.contains(&p.as_str()));
                if !(verb && work_follows(tokens, i + 3)) {
                    continue;
                }
            }
            // "looking for volunteers" wants people to come forward, where "searching for" hunts
            // for what is somewhere: only a thing with a determiner ("my keys") is searched for.
            let sought = next_word(tokens, i + 2).is_some_and(|n| {
                DETERMINERS.contains(&n.as_str()) || PERSONAL_POSSESSIVES.contains(&n.as_str())
            });
            if lemma == "look" && !sought {
                continue;
            }
            // "came back on" (switched on again), "go back down to reception": a second particle
            // makes one direction with "back", which "return" does not take.
            let directed = next_word(tokens, i + 2).is_some_and(|n| {
                [
                    "on", "off", "in", "out", "up", "down", "over", "round", "around", "inside", "outside",
                    "together",
                ]
                .contains(&n.as_str())
            });
            if particle == "back" && directed {
                continue;
            }
            // "Prices went up" rose, but "going up the hill" or "go up to the loft" is a way
            // climbed or a thing carried: "rise" only where nothing but an amount or a time follows.
            let risen = next_word(tokens, i + 2).is_none_or(|n| {
                ["by", "again", "sharply", "slightly", "every", "last", "this", "in", "from", "and"]
                    .contains(&n.as_str())
                    || n.starts_with(|c: char| c.is_ascii_digit() || c == '£')
            });
            if to == "rise" && !risen {
                continue;
            }
            // "puts off doing the washing up": "postpones doing" is stiff for a chore put off.
            if to == "postpone" && next_word(tokens, i + 2).is_some_and(|n| n.ends_with("ing")) {
                continue;
            }
            let verb = in_form(tokens, i, to, form)?;
            let mut out = vec![shape::word_like(&tokens[i].text, &verb)];
            if !to_particle.is_empty() {
                out.extend([Token::space(), Token::word(to_particle)]);
            }
            debug_assert!(!particle.is_empty());
            return Some((i + 3, out));
        }
        if let Some(&(_, to, particle, follows)) = TO_PHRASAL.iter().find(|(v, ..)| *v == lemma) {
            if !follows(next.as_deref()) {
                continue;
            }
            // "my tax return": after a singular noun a plain form is no verb (that would be
            // "returns"), but the compound's noun.
            if form == Form::Base && compound_noun_before(tokens, i, is_noun) {
                continue;
            }
            // "to do my return", "finish the return": after a determiner it is the noun. And "was
            // returned", "got (quickly) returned" are passives, which "come back" has none of.
            let before = prev_word(tokens, i);
            let noun = before.as_deref().is_some_and(|b| DETERMINERS.contains(&b));
            const GET_FORMS: &[&str] = &["get", "gets", "got", "gotten", "getting"];
            let passive = form != Form::Base
                && form != Form::Gerund
                && tokens[..i]
                    .iter()
                    .rev()
                    .filter(|t| t.is_word())
                    .map(|t| t.text.to_lowercase())
                    .find(|w| !w.ends_with("ly"))
                    .is_some_and(|b| BE_FORMS.contains(&b.as_str()) || GET_FORMS.contains(&b.as_str()));
            // "submit your meter reading": only work and documents are handed in, as above.
            let unsubmitted = lemma == "submit" && !work_follows(tokens, i + 1);
            if noun || passive || unsubmitted {
                continue;
            }
            // People and parcels turn up; a season or a day arrives ("Spring arrived early").
            // "the one I returned": after a noun and its subject the verb's object is that noun,
            // and "come back" takes none.
            let gap = lemma == "return" && {
                let before: Vec<String> = tokens[..i]
                    .iter()
                    .rev()
                    .filter(|t| t.is_word())
                    .take(2)
                    .map(|t| t.text.to_lowercase())
                    .collect();
                before.len() == 2
                    && SUBJECT_PRONOUNS.contains(&before[0].as_str())
                    && (is_noun(&before[1]) || ["one", "ones", "that", "which"].contains(&before[1].as_str()))
            };
            if gap {
                continue;
            }
            // The subject, past an auxiliary ("the train would arrive").
            let subject = |list: &[&str]| {
                tokens[..i]
                    .iter()
                    .rev()
                    .filter(|t| t.is_word())
                    .take(3)
                    .any(|t| list.contains(&t.text.to_lowercase().as_str()))
            };
            let timetabled = subject(TIMETABLED) && next.as_deref() == Some("at");
            // "call me as soon as you arrive": "turn up" is arriving where the speaker is.
            let you = prev_word(tokens, i).is_some_and(|p| p == "you");
            // "It arrives on Friday", "when it arrives" (a parcel): an arrival still to come at a
            // set time, or of a thing delivered, is a plan, which "turn up" makes sound as if it
            // might not; a guest who turns up before we are ready, or late, is still one.
            let sent = |w: &str| crate::rules::substitution::DELIVERIES.contains(&w);
            let delivered = subject(crate::rules::substitution::DELIVERIES)
                || (prev_word(tokens, i).is_some_and(|p| p == "it")
                    && tokens[..i].iter().any(|t| sent(&t.text.to_lowercase())));
            let on_time = next_word(tokens, i + 2).is_some_and(|w| w == "time");
            let set_time = next.as_deref().is_some_and(|n| {
                ["on", "at", "by", "today", "tomorrow", "tonight", "next", "this", "within"].contains(&n)
            }) && !on_time;
            let planned = !matches!(form, Form::Past | Form::Participle | Form::PastOrParticiple)
                && (delivered || set_time);
            if lemma == "arrive" && (subject(ARRIVING_TIMES) || timetabled || you || planned) {
                continue;
            }
            let verb = in_form(tokens, i, to, form)?;
            return Some((
                i + 1,
                vec![shape::word_like(&tokens[i].text, &verb), Token::space(), Token::word(particle)],
            ));
        }
    }
    None
}

/// Verbs of feeling whose "-ing" form says what something does to one ("boring", "tiring"): after
/// "really" it is an adjective, so "really boring" is "very boring", where most "-ing" forms are a
/// verb ("really trying to help").
const FEELING_VERBS: &[&str] = &[
    "amaze",
    "amuse",
    "annoy",
    "bore",
    "confuse",
    "depress",
    "disappoint",
    "embarrass",
    "excite",
    "exhaust",
    "fascinate",
    "frighten",
    "frustrate",
    "interest",
    "irritate",
    "relax",
    "satisfy",
    "shock",
    "surprise",
    "terrify",
    "thrill",
    "tire",
    "worry",
];

/// Whether a word is the "-ing" form of a verb of feeling, an adjective after a degree word.
fn effect_adjective(word: &str) -> bool {
    word.ends_with("ing")
        && morph::analyse(word)
            .iter()
            .any(|a| a.pos == Pos::Verb && a.form == Form::Gerund && FEELING_VERBS.contains(&a.entry.lemma))
}

/// Function words with a near-synonym, and the check on the next word that keeps it one.
fn function_swap(word: &str, next: Option<&str>) -> Option<&'static str> {
    // Not "a": "contact about a missing invoice" is a topic, not a number.
    let number = |n: Option<&str>| {
        n.is_some_and(|n| {
            n.bytes().all(|b| b.is_ascii_digit())
                || [
                    "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
                    "twelve", "fifteen", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty",
                    "ninety", "hundred", "half",
                ]
                .contains(&n)
        })
    };
    let noun_next = |n: Option<&str>| n.is_some_and(|n| can_be(n, Pos::Noun));
    Some(match word {
        "almost" => "nearly",
        "nearly" => "almost",
        "maybe" => "perhaps",
        "perhaps" => "maybe",
        // "asked whether he could" -> "asked if he could"; not "whether or not".
        // "whether to go" has no "if to go".
        "whether" if next.is_some_and(|n| n != "or" && n != "to") => "if",
        "nobody" => "no one",
        "everybody" => "everyone",
        "everyone" => "everybody",
        "somebody" => "someone",
        "someone" => "somebody",
        "anybody" => "anyone",
        "anyone" => "anybody",
        "about" if number(next) => "around",
        "around" if number(next) => "about",
        // "loved every minute", "remembered every word": before a unit counted whole, "every"
        // says all of it, where "each" goes one by one.
        "every" if noun_next(next) && !next.is_some_and(|n| WHOLE_UNITS.contains(&n)) => "each",
        "each" if noun_next(next) => "every",
        "very"
            if next.is_some_and(|n| {
                !["much", "many", "few", "little", "well", "own", "same", "first", "last", "best", "end"]
                    .contains(&n)
                    && morph::analyse(n).iter().any(|a| matches!(a.pos, Pos::Adj | Pos::Adv))
            }) =>
        {
            "really"
        }
        // Only a degree: "really slow" -> "very slow", never "really like" (a verb).
        "really"
            if next.is_some_and(|n| {
                !["much", "many", "few", "little", "own", "same", "first", "last", "best", "end"].contains(&n)
                    && (morph::evidence(&morph::analyse(n), |a| a.pos == Pos::Adj).more_than(1, 2)
                        || effect_adjective(n))
            }) =>
        {
            "very"
        }
        _ => return None,
    })
}

/// Verbs told with the time of day they happen at: "starts at around eight".
const TIMED_VERBS: &[&str] = &[
    "start", "begin", "finish", "end", "arrive", "leave", "open", "close", "wake", "meet", "land", "depart",
    "return", "come", "get",
];

/// Words after which the next but one is a verb: modals, auxiliaries and subject pronouns.
const VERB_BEFORE: &[&str] = &[
    "can", "could", "will", "would", "shall", "should", "may", "might", "must", "do", "does", "did", "have",
    "has", "had", "i", "you", "he", "she", "we", "they", "to", "'ll", "'d", "'ve",
];

/// Verbs that link a subject to an adjective, after which "so" is only a degree.
const LINKING: &[&str] = &[
    "is", "are", "was", "were", "am", "be", "been", "feel", "feels", "felt", "look", "looks", "looked",
    "seem", "seems", "seemed", "sound", "sounds", "sounded", "get", "gets", "got", "getting",
];

/// "It was so nice to see you." -> "It was really nice to see you.", "It's pretty cold." -> "It's
/// quite cold.": "so" or "pretty" as a degree after a
/// linking verb, before an adjective; never with a result after it ("so tired that I can't
/// think", "so far as"), nor after "not", where "not so bad" is milder than "not really bad".
fn so_really(tokens: &[Token], i: usize) -> Option<(usize, Vec<Token>)> {
    // "pretty cold" -> "quite cold" alike; "a pretty dress" has a determiner before it.
    let degree = if tokens[i].text.eq_ignore_ascii_case("so") {
        "really"
    } else if tokens[i].text.eq_ignore_ascii_case("pretty") {
        "quite"
    } else {
        return None;
    };
    let prev = prev_word(tokens, i)?.replace('’', "'");
    let linked = LINKING.contains(&prev.as_str())
        || (["'s", "'re", "'m"].iter().any(|e| prev.ends_with(e)) && prev != "let's");
    let next = next_word(tokens, i)?;
    let adjective =
        !["much", "many", "few", "little", "far", "long", "that", "as", "called", "on", "too", "to"]
            .contains(&next.as_str())
            && morph::evidence(&morph::analyse(&next), |a| a.pos == Pos::Adj).more_than(1, 2);
    let result = tokens[i + 1..]
        .iter()
        .any(|t| t.is_word() && ["that", "as"].contains(&t.text.to_lowercase().as_str()));
    (linked && adjective && !result).then(|| (i + 1, vec![shape::word_like(&tokens[i].text, degree)]))
}

/// Adjectives and their negative in "un-", "in-" or "dis-", which say the same as "not" and the
/// adjective after "be" ("is not possible" <-> "is impossible").
const NEGATIVES: &[(&str, &str)] = &[
    ("able", "unable"),
    ("available", "unavailable"),
    ("clear", "unclear"),
    ("comfortable", "uncomfortable"),
    ("common", "uncommon"),
    ("correct", "incorrect"),
    ("fair", "unfair"),
    ("familiar", "unfamiliar"),
    ("friendly", "unfriendly"),
    ("happy", "unhappy"),
    ("healthy", "unhealthy"),
    ("honest", "dishonest"),
    ("kind", "unkind"),
    ("likely", "unlikely"),
    ("lucky", "unlucky"),
    ("necessary", "unnecessary"),
    ("patient", "impatient"),
    ("pleasant", "unpleasant"),
    ("polite", "impolite"),
    ("possible", "impossible"),
    ("safe", "unsafe"),
    ("sure", "unsure"),
    ("tidy", "untidy"),
    ("usual", "unusual"),
];

/// What "unsure" is followed by: a question or its topic.
const UNSURE_NEXT: &[&str] =
    &["whether", "if", "about", "of", "what", "how", "where", "when", "who", "which", "why"];

/// "not" and an adjective after a form of "be", said with the negative adjective, or the
/// negative adjective said with "not": the tokens from `i` ("not" or the adjective) to replace.
fn negated_adjective(tokens: &[Token], i: usize) -> Option<(usize, Vec<Token>)> {
    let be = prev_word(tokens, i).is_some_and(|p| BE_ALL.contains(&p.as_str()));
    if !be {
        return None;
    }
    let word = tokens[i].text.to_lowercase();
    if word == "not" {
        let next = next_word(tokens, i)?;
        let &(_, negative) = NEGATIVES.iter().find(|(plain, _)| *plain == next)?;
        let end = i + 3;
        let adjective = tokens.get(i + 2)?;
        if !plain_word(adjective) {
            return None;
        }
        // "not sure I'll make it", "not sure yet": "unsure" takes a question ("whether", "if",
        // "what") or "about", never a bare clause or a time after it.
        let unsure_ok = tokens.get(end).is_none_or(|t| t.kind == Kind::Punct && t.text != "'")
            || next_word(tokens, end - 1).is_some_and(|n| UNSURE_NEXT.contains(&n.as_str()));
        if negative == "unsure" && !unsure_ok {
            return None;
        }
        return Some((end, vec![shape::word(negative)]));
    }
    let &(plain, _) = NEGATIVES.iter().find(|(_, negative)| *negative == word)?;
    Some((i + 1, shape::words_like(&tokens[i].text, &["not", plain])))
}

/// Adjectives whose opposite says the same with "not ... enough" ("too small" <-> "not big
/// enough"), for the pairs where both read naturally.
const OPPOSITES: &[(&str, &str)] = &[
    ("small", "big"),
    ("short", "long"),
    ("cold", "warm"),
    ("young", "old"),
    ("slow", "fast"),
    ("quiet", "loud"),
    ("dark", "bright"),
    ("low", "high"),
    ("narrow", "wide"),
];

/// "is too small" <-> "is not big enough", after a form of "be", when nothing follows but a pause,
/// "to" and a verb, or "for" ("too young to drive" -> "not old enough to drive"): before "and"
/// the pair would split ("too hot and humid").
fn too_or_not_enough(tokens: &[Token], i: usize) -> Option<(usize, Vec<Token>)> {
    if !prev_word(tokens, i).is_some_and(|p| BE_ALL.contains(&p.as_str())) {
        return None;
    }
    let words: Vec<String> = (0..3)
        .map(|k| tokens.get(i + 2 * k).filter(|t| plain_word(t)).map(|t| t.text.to_lowercase()))
        .map_while(|w| w)
        .collect();
    let opposite = |w: &str| {
        OPPOSITES.iter().find_map(|&(a, b)| {
            if a == w {
                Some(b)
            } else if b == w {
                Some(a)
            } else {
                None
            }
        })
    };
    let (end, new) = match words.as_slice() {
        // "not ... enough" names the scale by its upper end, as "how long" does: "too short" ->
        // "not long enough", but "too long" is no "not short enough".
        [too, adjective, ..] if too == "too" => {
            let upper = OPPOSITES.iter().find(|(lower, _)| lower == adjective).map(|&(_, upper)| upper);
            (i + 3, vec!["not", upper?, "enough"])
        }
        [not, adjective, enough] if not == "not" && enough == "enough" => {
            (i + 5, vec!["too", opposite(adjective)?])
        }
        _ => return None,
    };
    let pause = tokens.get(end).is_none_or(|t| t.kind == Kind::Punct && t.text != "'");
    let after_ok = pause || next_word(tokens, end - 1).is_some_and(|n| ["to", "for"].contains(&n.as_str()));
    after_ok.then(|| (end, shape::words_like(&tokens[i].text, &new)))
}

/// Units that "every" counts as a whole ("every minute of it"), which "each" would count apart.
const WHOLE_UNITS: &[&str] = &["minute", "second", "word", "bit", "single", "inch", "penny"];

/// Who a time suits: "works for you", "for your team", "for everyone".
const OBJECT_PRONOUNS_OR_YOURS: &[&str] =
    &["me", "us", "you", "him", "her", "them", "everyone", "everybody", "your", "our", "my", "their", "his"];

/// Every form of "be" before a predicate.
const BE_ALL: &[&str] = &["is", "are", "was", "were", "am", "be", "been", "being"];

/// The verbs a told, known or felt clause follows with its "that" or without it (the adjectives
/// are `FEELINGS`; both are read through `that_clause_rows`), both ways
/// ("said that the brakes" <-> "said the brakes", "told me he would be late" <-> "told me that
/// he would be late", "I'm sorry I missed your call" <-> "I'm sorry that I missed your call"):
/// `clause_that_added` and `clause_that_dropped` read them with `group_fits`, so the conditions of
/// `group_at` on their first word hold too, and `clause_follows` wants a clause with its finite
/// verb after them ("told me the time", "know the way", "sure of it" stay).
const THAT_CLAUSE: &[&[&str]] = &[
    &["said"],
    &["says"],
    &["say"],
    &["knew"],
    &["know"],
    &["knows"],
    &["hope"],
    &["hoped"],
    &["think"],
    &["thinks"],
    &["thought"],
    &["believe"],
    &["believed"],
    &["guess"],
    &["suppose"],
    &["promised"],
    &["explained"],
    &["realised"],
    &["realized"],
    &["realise"],
    &["realize"],
    &["noticed"],
    &["suggested"],
    &["recommended"],
    &["agreed"],
    &["admitted"],
    &["mentioned"],
    &["heard"],
    &["decided"],
    &["forgot"],
    &["pretended"],
    &["complained"],
    &["found", "out"],
    &["remember"],
    &["remembered"],
    &["forget"],
    // Of an opinion: with a clause after it "feel" is no sensing ("felt the ground shake" has no
    // finite verb, and stays).
    &["feel"],
    &["feels"],
    &["felt"],
    &["wish"],
    &["wished"],
    &["reckon"],
    &["expect"],
    &["understand"],
    &["assume"],
    &["imagine"],
    &["admit"],
    &["doubt"],
    &["bet"],
    &["insisted"],
    &["announced"],
    &["confirmed"],
    &["claimed"],
    &["told", "me"],
    &["told", "us"],
    &["told", "him"],
    &["told", "them"],
    &["told", "you"],
    // The one told as the passive's subject: "She was told she might need a hearing aid."
    &["told"],
    &["warned", "me"],
    &["warned", "us"],
    &["reminded", "me"],
    &["reminded", "us"],
    &["reminded", "him"],
    &["promised", "me"],
    &["promised", "us"],
    // Feelings and certainties after their "be" (`group_at`'s condition on the adjective).
];

/// The adjectives a clause follows with its "that" or without it, the rest of `that_clause_rows`:
/// after them a "you" or "it" can only be a clause's subject.
const FEELINGS: &[&str] = &[
    "sorry",
    "glad",
    "sure",
    "afraid",
    "surprised",
    "pleased",
    "happy",
    "worried",
    "aware",
    "certain",
    "convinced",
    "disappointed",
    "relieved",
    "amazed",
    "shocked",
];

/// Every row a "that" clause follows: the verbs of `THAT_CLAUSE` and the adjectives of `FEELINGS`.
fn that_clause_rows() -> impl Iterator<Item = &'static [&'static str]> {
    THAT_CLAUSE.iter().copied().chain(FEELINGS.iter().map(std::slice::from_ref))
}

/// Two- and three-word groups: `(words, replacement, what the next word must be)`.
const GROUPS: &[(&[&str], &[&str], Next)] = &[
    (&["have", "to"], &["need", "to"], Next::Verb),
    (&["has", "to"], &["needs", "to"], Next::Verb),
    // Not in the past: "had to walk" says the walk happened, where "needed to walk" only says it
    // was needed (a reader took the one for the other).
    (&["need", "to"], &["have", "to"], Next::Verb),
    (&["needs", "to"], &["has", "to"], Next::Verb),
    (&["am", "going", "to"], &["will"], Next::Verb),
    (&["is", "going", "to"], &["will"], Next::Verb),
    (&["are", "going", "to"], &["will"], Next::Verb),
    // Only of the speaker (`group_at`): "I want to" is politely "I would like to", but "Nobody
    // wants to work" or "They want to build" is a wish told of others, which "would like" softens.
    (&["want", "to"], &["would", "like", "to"], Next::Verb),
    (&["plan", "to"], &["intend", "to"], Next::Verb),
    (&["plans", "to"], &["intends", "to"], Next::Verb),
    (&["planned", "to"], &["intended", "to"], Next::Verb),
    // "quickly" -> "fast" only after a degree word: "he fast wrote" is not English.
    (&["too", "quickly"], &["too", "fast"], Next::Any),
    (&["so", "quickly"], &["so", "fast"], Next::Any),
    (&["very", "quickly"], &["really", "fast"], Next::Any),
    (&["half", "an", "hour"], &["thirty", "minutes"], Next::Any),
    (&["full", "of"], &["filled", "with"], Next::Any),
    (&["do", "not", "forget", "to"], &["remember", "to"], Next::Verb),
    // "I must remember to buy stamps." -> "I must not forget to buy stamps.": an obligation to
    // oneself or another, which the denial of forgetting says too; before the bare "must" row.
    (&["must", "remember", "to"], &["must", "not", "forget", "to"], Next::Verb),
    // Only as a request, at the start or after "please" (`group_at`): "I remember to" is no "I do
    // not forget to".
    (&["remember", "to"], &["do", "not", "forget", "to"], Next::Verb),
    // Conjunctions that say the same: "although we had a map" <-> "even though we had a map",
    // "whenever it drains" <-> "every time it drains".
    (&["although"], &["even", "though"], Next::Clause),
    (&["even", "though"], &["although"], Next::Clause),
    (&["whenever"], &["every", "time"], Next::Clause),
    (&["every", "time"], &["whenever"], Next::Clause),
    // A day after the one told of: "paid him back the following week" <-> "the next week".
    (&["the", "following", "day"], &["the", "next", "day"], Next::Any),
    (&["the", "following", "week"], &["the", "next", "week"], Next::Any),
    (&["the", "following", "morning"], &["the", "next", "morning"], Next::Any),
    (&["the", "following", "year"], &["the", "next", "year"], Next::Any),
    (&["the", "next", "day"], &["the", "following", "day"], Next::Any),
    (&["the", "next", "morning"], &["the", "following", "morning"], Next::Any),
    (&["in", "advance"], &["ahead", "of", "time"], Next::Any),
    // "these days" only where it ends its clause or opens the sentence (`group_at`): "I
    // remember these days" is no "I remember nowadays".
    (&["these", "days"], &["nowadays"], Next::Any),
    (&["nowadays"], &["these", "days"], Next::Any),
    // An indirect question: "Do you know if the shop sells batteries?" -> "... whether ...".
    (&["know", "if"], &["know", "whether"], Next::Clause),
    (&["wonder", "if"], &["wonder", "whether"], Next::Clause),
    (&["wondered", "if"], &["wondered", "whether"], Next::Clause),
    (&["wondering", "if"], &["wondering", "whether"], Next::Clause),
    (&["asked", "if"], &["asked", "whether"], Next::Clause),
    (&["ask", "if"], &["ask", "whether"], Next::Clause),
    (&["check", "if"], &["check", "whether"], Next::Clause),
    (&["see", "if"], &["see", "whether"], Next::Clause),
    (&["want", "a"], &["would", "like", "a"], Next::Any),
    (&["want", "an"], &["would", "like", "an"], Next::Any),
    (&["at", "the", "last", "minute"], &["at", "the", "last", "moment"], Next::Any),
    (&["would", "you", "like"], &["do", "you", "want"], Next::Any),
    (&["all", "day"], &["the", "whole", "day"], Next::Any),
    (&["all", "night"], &["the", "whole", "night"], Next::Any),
    (&["all", "morning"], &["the", "whole", "morning"], Next::Any),
    (&["all", "afternoon"], &["the", "whole", "afternoon"], Next::Any),
    (&["all", "evening"], &["the", "whole", "evening"], Next::Any),
    (&["all", "week"], &["the", "whole", "week"], Next::Any),
    (&["all", "year"], &["the", "whole", "year"], Next::Any),
    (&["all", "her", "life"], &["her", "whole", "life"], Next::Any),
    (&["all", "his", "life"], &["his", "whole", "life"], Next::Any),
    (&["all", "my", "life"], &["my", "whole", "life"], Next::Any),
    (&["all", "their", "lives"], &["their", "whole", "lives"], Next::Any),
    (&["think"], &["believe"], Next::Clause),
    (&["by", "the"], &["beside", "the"], Next::Place),
    (&["worried", "about"], &["concerned", "about"], Next::Any),
    (&["crowded", "with"], &["packed", "with"], Next::Any),
    // Negation said with "no": "There is not any milk." -> "There is no milk."
    (&["no", "one"], &["nobody"], Next::Any),
    // "afraid of the dark": "I'm afraid I can't" is a polite formula, not fear, so only "of".
    (&["afraid", "of"], &["scared", "of"], Next::Any),
    // Called off, in the passive: what was planned will not happen.
    (&["was", "cancelled"], &["was", "called", "off"], Next::Any),
    (&["were", "cancelled"], &["were", "called", "off"], Next::Any),
    (&["been", "cancelled"], &["been", "called", "off"], Next::Any),
    (&["be", "cancelled"], &["be", "called", "off"], Next::Any),
    (&["was", "canceled"], &["was", "called", "off"], Next::Any),
    (&["been", "canceled"], &["been", "called", "off"], Next::Any),
    (&["perfect", "for"], &["ideal", "for"], Next::Any),
    // A forecast: "it will rain" <-> "it is going to rain" (see `group_at` for the verbs).
    (&["it", "will"], &["it", "is", "going", "to"], Next::Verb),
    // What is expected or required: "It's supposed to rain" <-> "It's meant to rain" (British).
    (&["supposed", "to"], &["meant", "to"], Next::Verb),
    (&["meant", "to"], &["supposed", "to"], Next::Verb),
    // Something that goes on happening: "The website keeps crashing." <-> "... keeps on crashing."
    // (never after "be": "I was kept waiting" is another "keep", see `group_at`).
    (&["keep", "on"], &["keep"], Next::Gerund),
    (&["keeps", "on"], &["keeps"], Next::Gerund),
    (&["kept", "on"], &["kept"], Next::Gerund),
    (&["keeping", "on"], &["keeping"], Next::Gerund),
    (&["keep"], &["keep", "on"], Next::Gerund),
    (&["keeps"], &["keeps", "on"], Next::Gerund),
    (&["kept"], &["kept", "on"], Next::Gerund),
    // Amends made: "to make up for the delay" -> "to compensate for the delay"; with "for",
    // "make up" has no other sense ("make up a story", "made up with her" stay).
    (&["made", "up", "for"], &["compensated", "for"], Next::Any),
    (&["making", "up", "for"], &["compensating", "for"], Next::Any),
    // A liking told by how much: "I really like it." -> "I like it a lot."; only after its subject
    // (`group_at`), since "I don't really like it" is milder than "I don't like it a lot".
    (&["really", "like", "it"], &["like", "it", "a", "lot"], Next::Any),
    (&["really", "liked", "it"], &["liked", "it", "a", "lot"], Next::Any),
    (&["really", "likes", "it"], &["likes", "it", "a", "lot"], Next::Any),
    (&["really", "enjoyed", "it"], &["enjoyed", "it", "a", "lot"], Next::Any),
    (&["really", "enjoy", "it"], &["enjoy", "it", "a", "lot"], Next::Any),
    (&["really", "like", "them"], &["like", "them", "a", "lot"], Next::Any),
    (&["really", "liked", "them"], &["liked", "them", "a", "lot"], Next::Any),
    (&["really", "enjoyed", "them"], &["enjoyed", "them", "a", "lot"], Next::Any),
    // A debt paid to someone: "He promised to pay me back." -> "He promised to repay me."
    (&["pay", "me", "back"], &["repay", "me"], Next::Any),
    (&["pay", "us", "back"], &["repay", "us"], Next::Any),
    (&["pay", "him", "back"], &["repay", "him"], Next::Any),
    (&["pay", "her", "back"], &["repay", "her"], Next::Any),
    (&["pay", "them", "back"], &["repay", "them"], Next::Any),
    (&["pay", "you", "back"], &["repay", "you"], Next::Any),
    (&["pays", "me", "back"], &["repays", "me"], Next::Any),
    (&["pays", "us", "back"], &["repays", "us"], Next::Any),
    (&["pays", "him", "back"], &["repays", "him"], Next::Any),
    (&["pays", "her", "back"], &["repays", "her"], Next::Any),
    (&["pays", "them", "back"], &["repays", "them"], Next::Any),
    (&["pays", "you", "back"], &["repays", "you"], Next::Any),
    (&["paid", "me", "back"], &["repaid", "me"], Next::Any),
    (&["paid", "us", "back"], &["repaid", "us"], Next::Any),
    (&["paid", "him", "back"], &["repaid", "him"], Next::Any),
    (&["paid", "her", "back"], &["repaid", "her"], Next::Any),
    (&["paid", "them", "back"], &["repaid", "them"], Next::Any),
    (&["paid", "you", "back"], &["repaid", "you"], Next::Any),
    (&["paying", "me", "back"], &["repaying", "me"], Next::Any),
    (&["paying", "us", "back"], &["repaying", "us"], Next::Any),
    (&["paying", "him", "back"], &["repaying", "him"], Next::Any),
    (&["paying", "her", "back"], &["repaying", "her"], Next::Any),
    (&["paying", "them", "back"], &["repaying", "them"], Next::Any),
    (&["paying", "you", "back"], &["repaying", "you"], Next::Any),
    // A season or a month through: "They trained all summer." <-> "... the whole summer."
    // (`group_at` wants a pause or a preposition after it: "all summer long" stays).
    (&["all", "summer"], &["the", "whole", "summer"], Next::Any),
    (&["all", "winter"], &["the", "whole", "winter"], Next::Any),
    (&["all", "month"], &["the", "whole", "month"], Next::Any),
    (&["all", "weekend"], &["the", "whole", "weekend"], Next::Any),
    (&["the", "whole", "summer"], &["all", "summer"], Next::Any),
    (&["the", "whole", "winter"], &["all", "winter"], Next::Any),
    (&["the", "whole", "month"], &["all", "month"], Next::Any),
    // An event gone to: "Hundreds of people attended the festival." -> "... went to the festival."
    // (`group_at` wants one of `EVENTS` in the next words: "attended the patient" is a doctor's).
    (&["attended", "the"], &["went", "to", "the"], Next::Any),
    (&["attend", "the"], &["go", "to", "the"], Next::Any),
    (&["attends", "the"], &["goes", "to", "the"], Next::Any),
    (&["attending", "the"], &["going", "to", "the"], Next::Any),
    // A polite condition: "I would be grateful if you could look into it." -> "... if you were
    // able to look into it." (`group_at` wants "would" before it, and no "wonder if", which asks).
    (&["if", "you", "could"], &["if", "you", "were", "able", "to"], Next::Verb),
    // How a thing looks to one: "The number does not seem to work." <-> "... appear to work."
    (&["seem", "to"], &["appear", "to"], Next::Verb),
    (&["seems", "to"], &["appears", "to"], Next::Verb),
    (&["seemed", "to"], &["appeared", "to"], Next::Verb),
    (&["appear", "to"], &["seem", "to"], Next::Verb),
    (&["appears", "to"], &["seems", "to"], Next::Verb),
    (&["appeared", "to"], &["seemed", "to"], Next::Verb),
    // A matter looked into: "We will look into your request." -> "We will investigate your
    // request." (`group_at` wants a matter after it: "looked into her eyes" stays).
    (&["look", "into"], &["investigate"], Next::Any),
    (&["looks", "into"], &["investigates"], Next::Any),
    (&["looked", "into"], &["investigated"], Next::Any),
    (&["looking", "into"], &["investigating"], Next::Any),
    // Looking forward, in either aspect: "I am looking forward to seeing you." <-> "I look forward
    // to seeing you." (`group_at`: only after the subject, never in a question).
    // A time that suits: "if the new schedule works for your team" -> "suits your team"; only
    // after a time or a plan (`group_at`): "The app works for me" is no "suits me".
    (&["works", "for"], &["suits"], Next::Any),
    (&["work", "for"], &["suit"], Next::Any),
    // An approval: "waiting for the legal team to sign off on the deal" -> "to approve the deal".
    (&["sign", "off", "on"], &["approve"], Next::Any),
    (&["signs", "off", "on"], &["approves"], Next::Any),
    (&["signed", "off", "on"], &["approved"], Next::Any),
    (&["signing", "off", "on"], &["approving"], Next::Any),
    // A complaint made: "I am writing to complain about the service." -> "... to make a complaint
    // about the service."
    (&["to", "complain", "about"], &["to", "make", "a", "complaint", "about"], Next::Any),
    // "complained about" stays: "made complaints about" is stiff, and "made a complaint" is a
    // formal one, where most complaining is said aloud (readers found both).
    // Let down by a thing: "disappointed with the service" -> "disappointed by the service"; not
    // "with myself", as "by myself" is alone.
    (&["disappointed", "with"], &["disappointed", "by"], Next::Any),
    // A thing one may have seen by now: "Did you see the news about the line?" -> "Have you seen
    // the news ...?" (`group_at`: a question with no time of its own, of news or a message).
    (&["did", "you", "see"], &["have", "you", "seen"], Next::Any),
    // A plan told in the simple present: "The council is planning to build a library." -> "The
    // council plans to build a library."
    (&["is", "planning", "to"], &["plans", "to"], Next::Verb),
    (&["are", "planning", "to"], &["plan", "to"], Next::Verb),
    (&["am", "planning", "to"], &["plan", "to"], Next::Verb),
    (&["more", "than"], &["over"], Next::Number),
    // "for over forty years" -> "for more than forty years": only after a word that measures
    // (`group_at`), since "jumped over two fences" and "just over two hours" are no "more than".
    (&["over"], &["more", "than"], Next::Number),
    (&["over", "an", "hour"], &["more", "than", "an", "hour"], Next::Any),
    (&["over", "a", "week"], &["more", "than", "a", "week"], Next::Any),
    (&["over", "a", "month"], &["more", "than", "a", "month"], Next::Any),
    (&["over", "a", "year"], &["more", "than", "a", "year"], Next::Any),
    // Not working: "The lift is out of order." -> "The lift is not working."; after "be" only
    // (`group_at`): "in alphabetical order" and "out of order" in a meeting are other things.
    (&["out", "of", "order"], &["not", "working"], Next::Any),
    // A test failed: "didn't pass his driving test" -> "failed his driving test" (`group_at`
    // wants a test after it: "didn't pass the salt" is no failure).
    (&["did", "not", "pass"], &["failed"], Next::Any),
    // The degree of a comparative: "much higher" <-> "far higher", "a lot better" -> "much
    // better"; not before "more" and "less", whose noun may be plural ("far more people").
    (&["much"], &["far"], Next::Comparative),
    (&["far"], &["much"], Next::Comparative),
    (&["a", "lot"], &["much"], Next::Comparative),
    // A small degree of a quality: "a bit late" <-> "a little late"; never before a noun ("a
    // little girl", "a bit of").
    (&["a", "bit"], &["a", "little"], Next::Quality),
    (&["a", "little"], &["a", "bit"], Next::Quality),
    (&["the", "whole", "afternoon"], &["all", "afternoon"], Next::Any),
    (&["the", "whole", "morning"], &["all", "morning"], Next::Any),
    (&["the", "whole", "evening"], &["all", "evening"], Next::Any),
    (&["the", "whole", "day"], &["all", "day"], Next::Any),
    (&["the", "whole", "week"], &["all", "week"], Next::Any),
    (&["the", "whole", "weekend"], &["all", "weekend"], Next::Any),
    (&["is", "not", "any"], &["is", "no"], Next::Any),
    (&["are", "not", "any"], &["are", "no"], Next::Any),
    (&["was", "not", "any"], &["was", "no"], Next::Any),
    (&["were", "not", "any"], &["were", "no"], Next::Any),
    (&["do", "not", "have", "any"], &["have", "no"], Next::Any),
    (&["does", "not", "have", "any"], &["has", "no"], Next::Any),
    (&["did", "not", "have", "any"], &["had", "no"], Next::Any),
    (&["should"], &["ought", "to"], Next::Verb),
    // An obligation: "I must leave" -> "I have to leave"; only after "I", "we", "you" and before
    // a verb of doing (`group_at`), since "He must know" and "must be" tell a guess.
    (&["must"], &["have", "to"], Next::Verb),
    // The same obligation for one person or thing: "Students must wear" -> "have to", "The essay
    // must be handed in" -> "has to be handed in"; only after a plain subject that opens the
    // sentence and before a verb of doing (`must_oblige`), since "He must live nearby" is a guess.
    (&["must"], &["has", "to"], Next::Verb),
    // A possibility: "It might rain" <-> "It may rain" (`maybe_at`): "may" may also give
    // permission ("You may leave"), so it turns into "might" only where it cannot.
    (&["might"], &["may"], Next::Verb),
    (&["may"], &["might"], Next::Verb),
    // A result after a comma: "The door was locked, so we waited outside." -> ", and so we
    // waited"; only after the comma and before a new subject (`group_at`), never "so that".
    (&["so"], &["and", "so"], Next::Clause),
    // A habit: "I always feel tired when I wake up early." -> "whenever"; only in a sentence
    // with "always" and nothing past (`whenever_at`).
    (&["when"], &["whenever"], Next::Clause),
    // At the end of a clause: "She called the police immediately." -> "straight away"; never
    // before what it measures from ("immediately after lunch").
    (&["immediately"], &["straight", "away"], Next::Any),
    (&["arrive", "at"], &["reach"], Next::Determiner),
    (&["arrives", "at"], &["reaches"], Next::Determiner),
    (&["arrived", "at"], &["reached"], Next::Determiner),
    (&["arriving", "at"], &["reaching"], Next::Determiner),
    (&["speak", "to"], &["talk", "to"], Next::Any),
    (&["speaks", "to"], &["talks", "to"], Next::Any),
    (&["spoke", "to"], &["talked", "to"], Next::Any),
    (&["spoken", "to"], &["talked", "to"], Next::Any),
    (&["speaking", "to"], &["talking", "to"], Next::Any),
    // Not "had": "We have had breakfast" is no "have ate"; nor "having": "We're having dinner
    // with friends" is an evening out, not the eating.
    (&["have", "breakfast"], &["eat", "breakfast"], Next::Any),
    (&["has", "breakfast"], &["eats", "breakfast"], Next::Any),
    (&["have", "lunch"], &["eat", "lunch"], Next::Any),
    (&["has", "lunch"], &["eats", "lunch"], Next::Any),
    (&["have", "dinner"], &["eat", "dinner"], Next::Any),
    (&["has", "dinner"], &["eats", "dinner"], Next::Any),
    // A way to pay that a shop takes: "Do you take cash?" -> "Do you accept cash?".
    (&["take", "cash"], &["accept", "cash"], Next::Any),
    (&["take", "cards"], &["accept", "cards"], Next::Any),
    (&["take", "card"], &["accept", "card"], Next::Any),
    (&["take", "credit", "cards"], &["accept", "credit", "cards"], Next::Any),
    (&["takes", "cash"], &["accepts", "cash"], Next::Any),
    (&["takes", "cards"], &["accepts", "cards"], Next::Any),
    (&["takes", "credit", "cards"], &["accepts", "credit", "cards"], Next::Any),
    // "ages" as a length of time: "waited ages" -> "waited a long time", "took ages".
    (&["waited", "ages"], &["waited", "a", "long", "time"], Next::Any),
    (&["wait", "ages"], &["wait", "a", "long", "time"], Next::Any),
    (&["took", "ages"], &["took", "a", "long", "time"], Next::Any),
    (&["takes", "ages"], &["takes", "a", "long", "time"], Next::Any),
    (&["take", "ages"], &["take", "a", "long", "time"], Next::Any),
    // A walk taken or gone for; a swim or a run gone for, or done.
    (&["went", "for", "a", "walk"], &["took", "a", "walk"], Next::Any),
    (&["go", "for", "a", "walk"], &["take", "a", "walk"], Next::Any),
    (&["goes", "for", "a", "walk"], &["takes", "a", "walk"], Next::Any),
    (&["going", "for", "a", "walk"], &["taking", "a", "walk"], Next::Any),
    (&["went", "for", "a", "swim"], &["went", "swimming"], Next::Any),
    (&["go", "for", "a", "swim"], &["go", "swimming"], Next::Any),
    (&["going", "for", "a", "swim"], &["going", "swimming"], Next::Any),
    (&["went", "for", "a", "run"], &["went", "running"], Next::Any),
    (&["go", "for", "a", "run"], &["go", "running"], Next::Any),
    (&["going", "for", "a", "run"], &["going", "running"], Next::Any),
    // A meal or a party that was had: the simple past alone, or the participle after "have"
    // (`group_at` tells which): "had lunch" -> "ate lunch", "have had lunch" -> "have eaten lunch".
    (&["had", "breakfast"], &["ate", "breakfast"], Next::Any),
    (&["had", "lunch"], &["ate", "lunch"], Next::Any),
    (&["had", "dinner"], &["ate", "dinner"], Next::Any),
    (&["had", "breakfast"], &["eaten", "breakfast"], Next::Any),
    (&["had", "lunch"], &["eaten", "lunch"], Next::Any),
    (&["had", "dinner"], &["eaten", "dinner"], Next::Any),
    (&["have", "a", "party"], &["throw", "a", "party"], Next::Any),
    (&["has", "a", "party"], &["throws", "a", "party"], Next::Any),
    (&["having", "a", "party"], &["throwing", "a", "party"], Next::Any),
    (&["had", "a", "party"], &["threw", "a", "party"], Next::Any),
    (&["had", "a", "party"], &["thrown", "a", "party"], Next::Any),
    // A wash or a rest, had or taken. Not "had": "I have had a shower" is no "have took".
    (&["have", "a", "shower"], &["take", "a", "shower"], Next::Any),
    (&["has", "a", "shower"], &["takes", "a", "shower"], Next::Any),
    (&["having", "a", "shower"], &["taking", "a", "shower"], Next::Any),
    (&["take", "a", "shower"], &["have", "a", "shower"], Next::Any),
    (&["takes", "a", "shower"], &["has", "a", "shower"], Next::Any),
    (&["took", "a", "shower"], &["had", "a", "shower"], Next::Any),
    (&["taking", "a", "shower"], &["having", "a", "shower"], Next::Any),
    (&["have", "a", "break"], &["take", "a", "break"], Next::Any),
    (&["has", "a", "break"], &["takes", "a", "break"], Next::Any),
    (&["having", "a", "break"], &["taking", "a", "break"], Next::Any),
    (&["take", "a", "break"], &["have", "a", "break"], Next::Any),
    (&["takes", "a", "break"], &["has", "a", "break"], Next::Any),
    (&["took", "a", "break"], &["had", "a", "break"], Next::Any),
    (&["taking", "a", "break"], &["having", "a", "break"], Next::Any),
    (&["do", "the", "dishes"], &["wash", "the", "dishes"], Next::Any),
    (&["does", "the", "dishes"], &["washes", "the", "dishes"], Next::Any),
    (&["did", "the", "dishes"], &["washed", "the", "dishes"], Next::Any),
    (&["done", "the", "dishes"], &["washed", "the", "dishes"], Next::Any),
    (&["doing", "the", "dishes"], &["washing", "the", "dishes"], Next::Any),
    // Not "looked": after "have" it would need "taken care of".
    (&["look", "after"], &["take", "care", "of"], Next::Determiner),
    (&["looks", "after"], &["takes", "care", "of"], Next::Determiner),
    (&["looking", "after"], &["taking", "care", "of"], Next::Determiner),
    (&["get", "in", "touch", "with"], &["contact"], Next::Any),
    (&["gets", "in", "touch", "with"], &["contacts"], Next::Any),
    (&["got", "in", "touch", "with"], &["contacted"], Next::Any),
    (&["getting", "in", "touch", "with"], &["contacting"], Next::Any),
    (&["get", "ready", "for"], &["prepare", "for"], Next::Any),
    (&["gets", "ready", "for"], &["prepares", "for"], Next::Any),
    (&["got", "ready", "for"], &["prepared", "for"], Next::Any),
    (&["getting", "ready", "for"], &["preparing", "for"], Next::Any),
    (&["was", "able", "to"], &["managed", "to"], Next::Verb),
    (&["were", "able", "to"], &["managed", "to"], Next::Verb),
    (&["plenty", "of"], &["lots", "of"], Next::Any),
    (&["such", "as"], &["like"], Next::Any),
    (&["instead", "of"], &["rather", "than"], Next::Any),
    (&["in", "a", "hurry"], &["in", "a", "rush"], Next::Any),
    (&["a", "while", "ago"], &["some", "time", "ago"], Next::Any),
    (&["for", "a", "while"], &["for", "some", "time"], Next::Any),
    (&["as", "usual"], &["as", "always"], Next::Any),
    (&["straight", "away"], &["right", "away"], Next::Any),
    (&["from", "time", "to", "time"], &["now", "and", "then"], Next::Any),
    (&["at", "weekends"], &["on", "weekends"], Next::Any),
    (&["near", "the"], &["close", "to", "the"], Next::Any),
    (&["opposite", "the"], &["across", "from", "the"], Next::Any),
    (&["get", "home"], &["arrive", "home"], Next::Any),
    (&["gets", "home"], &["arrives", "home"], Next::Any),
    (&["got", "home"], &["arrived", "home"], Next::Any),
    (&["getting", "home"], &["arriving", "home"], Next::Any),
    (&["have", "a", "look"], &["take", "a", "look"], Next::Any),
    (&["has", "a", "look"], &["takes", "a", "look"], Next::Any),
    (&["having", "a", "look"], &["taking", "a", "look"], Next::Any),
    // "all the guests" <-> "all of the guests", "both my parents" <-> "both of my parents".
    (&["all", "of"], &["all"], Next::Determiner),
    (&["both", "of"], &["both"], Next::Determiner),
    (&["all"], &["all", "of"], Next::Determiner),
    (&["both"], &["both", "of"], Next::Determiner),
    (&["across", "from", "the"], &["opposite", "the"], Next::Any),
];

/// Places "by the" puts something beside, never an agent ("by the sea", not "by the teacher").
const PLACES: &[&str] = &[
    "sea",
    "lake",
    "river",
    "fire",
    "fireplace",
    "door",
    "window",
    "road",
    "pool",
    "beach",
    "bed",
    "sink",
    "gate",
    "canal",
    "stream",
    "pond",
    "harbour",
    "harbor",
    "shore",
    "roadside",
    "fence",
    "wall",
];

#[derive(Clone, Copy)]
enum Next {
    /// A bare verb ("have to go", not "have to the shop").
    Verb,
    /// The start of a clause ("I think this is", not "I think about").
    Clause,
    /// One of `PLACES`.
    Place,
    /// A determiner, so a noun phrase ("arrived at the station", not "arrived at six").
    Determiner,
    /// A number in words or digits ("more than twenty" -> "over twenty").
    Number,
    /// A comparative adjective or adverb ("much higher").
    Comparative,
    /// A verb's "-ing" form that most often is one ("keeps crashing"), not a noun in "-ing"
    /// ("keep the building", "keep clothing dry").
    Gerund,
    /// An adjective or a comparative that cannot be a noun ("a bit late", "a little louder"); not
    /// an adverb, where "a little" is how much ("exercise a little daily").
    Quality,
    Any,
}

fn next_ok(next: Option<&str>, need: Next) -> bool {
    let Some(n) = next else { return matches!(need, Next::Any) };
    let analyses = morph::analyse(n);
    match need {
        Next::Verb => plain_verb(n),
        // Not "that": "said that" is already the long form ("said that that" is not English).
        Next::Clause => [
            "this", "the", "it", "he", "she", "they", "we", "you", "i", "there", "my", "your", "our", "his",
            "her", "their",
        ]
        .contains(&n),
        Next::Place => PLACES.contains(&n),
        Next::Determiner => NOUN_PHRASE_DETERMINERS.contains(&n),
        Next::Number => {
            n.bytes().all(|b| b.is_ascii_digit())
                || [
                    "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "twenty",
                    "thirty", "forty", "fifty", "hundred", "a",
                ]
                .contains(&n)
        }
        Next::Comparative => {
            ["more", "less", "better", "worse"].contains(&n)
                || (!["rather", "other", "never", "ever", "under", "over", "after"].contains(&n)
                    && morph::evidence(&analyses, |a| {
                        matches!(a.pos, Pos::Adj | Pos::Adv) && a.form == Form::Comparative
                    })
                    .more_than(1, 2))
        }
        Next::Quality => {
            ["more", "less", "better", "worse"].contains(&n)
                || (!["of", "about", "for", "to"].contains(&n)
                    && !DETERMINERS.contains(&n)
                    && morph::evidence(&analyses, |a| {
                        a.pos == Pos::Adj || (a.pos == Pos::Adv && a.form == Form::Comparative)
                    })
                    .more_than(1, 2)
                    && !morph::evidence(&analyses, |a| a.pos == Pos::Noun).more_than(1, 5))
        }
        Next::Gerund => {
            n.ends_with("ing")
                && morph::evidence(&analyses, |a| a.pos == Pos::Verb && a.form == Form::Gerund)
                    .more_than(1, 2)
        }
        Next::Any => true,
    }
}

/// The auxiliaries that show a finite verb ("shall" left out, as in a clause it is rare).
const FINITE: &[&str] = &concat::<18>(&[
    FINITE_BE,
    FINITE_HAVE,
    FINITE_DO,
    &["will", "would", "can", "could", "should", "must", "may", "might"],
]);

/// Whether a finite verb comes within the four words after token `last`, so that what follows
/// is a clause ("said my teeth are fine") and not an object ("said her name"), nor an object
/// with its relative clause ("noticed the man who was"). With `that_given`, the "that" at `last`
/// already says a clause follows unless it points at a thing ("heard that the other day"): an
/// "-ed" form that may be a participle counts as the verb ("said that the team needed to").
fn clause_follows(tokens: &[Token], last: usize, that_given: bool) -> bool {
    // A pronoun that is only ever a subject opens a clause ("said I need two fillings").
    if next_word(tokens, last).is_some_and(|w| ["i", "he", "she", "we", "they"].contains(&w.as_str())) {
        return true;
    }
    // "you" and "it" may be objects ("I know you well", "noticed it damaged"): a subject only
    // with a finite verb right after, a present after "you" too ("hope you feel better"), never
    // an "-ed" form that may be a participle.
    if let Some(object) = next_word(tokens, last).filter(|w| ["you", "it"].contains(&w.as_str()))
        && let Some(verb) = next_word(tokens, last + 2)
    {
        // Not after a verb of the senses, whose object a bare verb follows ("heard you sing").
        let sensed = tokens.get(last).is_some_and(|t| {
            ["heard", "hear", "noticed", "notice", "felt", "feel", "saw", "see", "watched"]
                .iter()
                .any(|w| t.text.eq_ignore_ascii_case(w))
        });
        let present = object == "you" && !sensed && plain_verb(&verb) && is_verbish(&verb);
        // After an adjective of feeling, "you" or "it" is no object, so an "-ed" form is its
        // past ("glad you enjoyed it").
        let felt = tokens.get(last).is_some_and(|t| FEELINGS.iter().any(|w| t.text.eq_ignore_ascii_case(w)));
        let finite = crate::words::heads_clause(&verb) && (felt || !verb.ends_with("ed"));
        if present || finite {
            return true;
        }
        // Else "you" or "it" is the verb's object, and no clause opens here ("Before you know it
        // the summer is over").
        return false;
    }
    // A subject that a determiner opens, then a verb that is finite by most of its evidence
    // ("hope the weather clears up"): a past or third-person form, never an "-ed" form that may be
    // a participle ("noticed the car parked outside").
    let determined = next_word(tokens, last).is_some_and(|w| NOUN_PHRASE_DETERMINERS.contains(&w.as_str()));
    let mut k = last;
    for step in 0..4 {
        let Some(w) = next_word(tokens, k) else { return false };
        if FINITE.contains(&w.as_str()) {
            return true;
        }
        // "said the brakes need to be replaced": "need" or "want" before "to" is a verb.
        let verb_to = ["need", "needs", "want", "wants"].contains(&w.as_str())
            && next_word(tokens, k + 2).as_deref() == Some("to");
        if determined && step >= 2 && (verb_to || crate::words::clearly_finite(&w, that_given)) {
            return true;
        }
        // "forgot my password and couldn't log in": a second verb of the sentence's own subject.
        if ["and", "or", "but"].contains(&w.as_str()) {
            return false;
        }
        // A subject of its own inside the noun phrase ("heard the news we had won"): the noun
        // may be the object, whose clause the finite verb is.
        if step >= 1 && ["i", "he", "she", "we", "they", "you"].contains(&w.as_str()) {
            return false;
        }
        if ["who", "which", "that", "whose", "where", "when", "whom"].contains(&w.as_str()) {
            return false;
        }
        k += 2;
    }
    false
}

/// Verbs that "must" joins as a rule to follow, not as a guess, after a subject in the third
/// person: "Students must submit" is a rule, while "He must earn a lot" or "They must live nearby"
/// guesses, so only these.
const OBLIGED: &[&str] = &[
    "submit", "hand", "wear", "pay", "sign", "show", "bring", "return", "complete", "finish", "book",
    "register", "apply", "attend", "follow", "carry", "report", "stay", "use", "fill", "switch", "turn",
    "keep", "leave", "arrive", "check", "wash", "remove", "send", "renew", "tell", "inform", "ask",
];

/// Participles of what is done as a rule: "The essay must be handed in" is "has to be handed in",
/// while "It must be broken" guesses.
const OBLIGED_PASSIVE: &[&str] = &[
    "handed",
    "submitted",
    "finished",
    "completed",
    "paid",
    "returned",
    "signed",
    "sent",
    "booked",
    "renewed",
    "kept",
    "worn",
    "filled",
    "written",
    "cleaned",
    "switched",
    "turned",
    "removed",
    "collected",
    "checked",
    "approved",
    "registered",
];

/// Whether the "must" at `i` is an obligation that "have to" (or with `singular`, "has to") says
/// the same of: after a subject that opens the sentence ("Students", "The essay", "He"), with a
/// verb from `OBLIGED` or a passive from `OBLIGED_PASSIVE` after it. "must be tired", "must have
/// left" guess, and "must not" forbids, which "does not have to" does not.
fn must_oblige(tokens: &[Token], i: usize, singular: bool) -> bool {
    let before: Vec<String> =
        tokens[..i].iter().filter(|t| t.is_word()).map(|t| t.text.to_lowercase()).collect();
    // Not after a comma or a clause: the subject is the sentence's first words.
    if before.is_empty() || tokens[..i].iter().any(|t| t.kind == Kind::Punct) {
        return false;
    }
    let head = before.last().map(String::as_str).unwrap_or_default();
    let subject_singular = match before.as_slice() {
        [p] if ["he", "she", "it", "everyone", "everybody"].contains(&p.as_str()) => true,
        [p] if ["they", "i", "we", "you"].contains(&p.as_str()) => false,
        _ => {
            // A determiner, adjectives, and the head noun: never past a preposition ("the list of
            // students must"), nor after a word that could be a verb of its own.
            let opens = before.len() == 1
                || NOUN_PHRASE_DETERMINERS.contains(&before[0].as_str())
                || PERSONAL_POSSESSIVES.contains(&before[0].as_str());
            if before.len() > 4
                || !opens
                || before.iter().any(|w| PREPOSITIONS.contains(&w.as_str()) || w == "and" || w == "or")
                || !is_noun(head)
                || crate::words::clearly_finite(head, false)
            {
                return false;
            }
            !crate::words::is_plural_noun(head)
        }
    };
    if subject_singular != singular {
        return false;
    }
    let Some(verb) = next_word(tokens, i) else { return false };
    if verb == "be" {
        return next_word(tokens, i + 2).is_some_and(|p| OBLIGED_PASSIVE.contains(&p.as_str()))
            && !tokens[i..].iter().any(|t| ["now", "already"].contains(&t.text.to_lowercase().as_str()));
    }
    OBLIGED.contains(&verb.as_str())
}

/// Whether the "might" (or with `may`, the "may") at `i` tells a possibility the other says the
/// same: in a statement, right after its subject, never in reported speech ("She said it might
/// rain", where "may" shifts the time). "may" becomes "might" only where it cannot give
/// permission: after "it" or "there", or before "be" or a perfect ("may have left"), so that
/// "You may leave" stays; and never the month ("in May").
fn maybe_at(tokens: &[Token], i: usize, may: bool) -> bool {
    const REPORTING: &[&str] = &[
        "said",
        "told",
        "thought",
        "asked",
        "wondered",
        "knew",
        "warned",
        "promised",
        "felt",
        "believed",
        "hoped",
        "worried",
        "realised",
        "realized",
        "feared",
        "suspected",
        "if",
        "whether",
    ];
    let Some(prev) = prev_word(tokens, i) else { return false };
    let before: Vec<String> =
        tokens[..i].iter().filter(|t| t.is_word()).map(|t| t.text.to_lowercase()).collect();
    let subject = SUBJECT_PRONOUNS.contains(&prev.as_str())
        || prev == "there"
        || (is_noun(&prev)
            && !PREPOSITIONS.contains(&prev.as_str())
            && !crate::words::clearly_finite(&prev, true));
    if tokens.last().is_some_and(|t| t.text == "?")
        || !subject
        || before.iter().any(|w| REPORTING.contains(&w.as_str()))
        // Nor inside a clause of a past sentence ("talked about where we might go").
        || before.iter().any(|w| {
            ["where", "what", "when", "how", "why", "which", "who", "that", "was", "were", "had", "did"]
                .contains(&w.as_str())
                || (w.ends_with("ed") && crate::words::clearly_finite(w, true))
        })
        || tokens[i].text.starts_with('M')
    {
        return false;
    }
    let Some(next) = next_word(tokens, i) else { return false };
    if !may {
        return true;
    }
    let perfect = next == "have"
        && next_word(tokens, i + 2).is_some_and(|p| {
            morph::analyse(&p).iter().any(|a| matches!(a.form, Form::Participle | Form::PastOrParticiple))
                && !morph::analyse(&p).iter().any(|a| a.pos == Pos::Noun)
        });
    ["it", "there"].contains(&prev.as_str()) || next == "be" || perfect
}

/// Whether the "when" at `i` opens a clause of a habit, which "whenever" says the same of: the
/// sentence, a statement with no comma but the one after a fronted "when" clause, has "always"
/// and no past; and "when" follows no word it could complete as a
/// question ("forget when the bus leaves") or a time ("the day when").
fn whenever_at(tokens: &[Token], i: usize) -> bool {
    // Only "always": "usually", "often" or "sometimes" with "when" tell of some of the times,
    // where "whenever" tells of every one.
    const FREQUENCY: &[&str] = &["always"];
    const ASKS: &[&str] = &[
        "know",
        "knows",
        "forget",
        "forgets",
        "remember",
        "remembers",
        "ask",
        "asks",
        "wonder",
        "sure",
        "idea",
        "tell",
        "tells",
        "decide",
        "decides",
        "understand",
        "explain",
        "see",
        "check",
        "find",
        "out",
        "learn",
        "guess",
        "say",
        "says",
        "about",
        "of",
        "day",
        "days",
        "time",
        "times",
        "moment",
        "year",
        "years",
        "week",
        "month",
        "morning",
        "evening",
        "night",
        "season",
        "hour",
        "period",
        "since",
        "until",
        "from",
        "and",
        "or",
        "but",
        "just",
        "only",
        "even",
        "except",
    ];
    let words: Vec<String> = tokens.iter().filter(|t| t.is_word()).map(|t| t.text.to_lowercase()).collect();
    // A past form in the verb after "always" or after the pronoun that opens the "when" clause:
    // the whole sentence is not read, since "tired" would look past.
    let past_form = |w: &str| {
        let a = morph::analyse(w);
        ["was", "were", "had", "did", "used", "got"].contains(&w)
            || a.iter().any(|a| a.pos == Pos::Verb && matches!(a.form, Form::Past | Form::PastOrParticiple))
                && !a.iter().any(|a| a.pos == Pos::Verb && matches!(a.form, Form::Base | Form::ThirdPerson))
    };
    let after = |w: &str| words.iter().position(|x| x == w).and_then(|k| words.get(k + 1));
    let when_subject = next_word(tokens, i);
    let past = words.iter().any(|w| ["was", "were", "had", "did", "used"].contains(&w.as_str()))
        || after("always").is_none_or(|v| past_form(v))
        || !when_subject.as_deref().is_some_and(|s| SUBJECT_PRONOUNS.contains(&s) || s == "there")
        || next_word(tokens, i + 2).is_none_or(|v| past_form(&v));
    let prev = prev_word(tokens, i);
    tokens.last().is_some_and(|t| t.text == ".")
        && words.iter().any(|w| FREQUENCY.contains(&w.as_str()))
        && !past
        && !words.iter().any(|w| w == "whenever")
        && tokens.iter().filter(|t| t.text == ",").count() <= usize::from(prev.is_none())
        && prev.as_deref().is_none_or(|p| !ASKS.contains(&p))
}

/// Whether the clause after the "whenever" at `i` leaves the time to someone's choice ("whenever
/// you like", "whenever it suits", "whenever you are ready"), where it means at any time.
fn any_time_at(tokens: &[Token], i: usize) -> bool {
    const CHOOSING: &[&str] =
        &["like", "likes", "want", "wants", "wish", "wishes", "please", "prefer", "can"];
    const SUITS: &[&str] = &["suits", "suit", "ready", "free"];
    let Some(verb) = next_word(tokens, i + 2) else { return false };
    let after = next_word(tokens, i + 4);
    CHOOSING.contains(&verb.as_str())
        || SUITS.contains(&verb.as_str())
        || (["are", "is", "am", "feel", "feels"].contains(&verb.as_str())
            && after.is_some_and(|a| SUITS.contains(&a.as_str())))
}

fn group_at(tokens: &[Token], i: usize) -> Option<(usize, Vec<Token>)> {
    GROUPS.iter().find(|&&(words, to, need)| group_fits(tokens, i, words, to, need)).map(|&(words, to, _)| {
        let last = i + 2 * (words.len() - 1);
        (last + 1, shape::words_like(&tokens[i].text, to))
    })
}

/// Whether the group `words` stands at token `i` where the table's conditions let it become `to`,
/// with the word after it such as `need` wants.
fn group_fits(tokens: &[Token], i: usize, words: &[&str], to: &[&str], need: Next) -> bool {
    let ok = words.iter().enumerate().all(|(k, w)| {
        let t = i + 2 * k;
        tokens.get(t).is_some_and(|t| plain_word(t) && t.text.eq_ignore_ascii_case(w))
            && (k == 0 || tokens[t - 1].is(Kind::Space, " "))
    });
    // The conditions below read the words round the group, which costs: only for a group
    // that is there.
    if !ok {
        return false;
    }
    let last = i + 2 * (words.len() - 1);
    // "want to" only after its subject: "I want to" is "I would like to", "don't want to" is not.
    let prev = prev_word(tokens, i);
    // "I haven't practised all week" is no practice at all; "not ... the whole week" may be
    // some practice, but not every day of it.
    let whole = to.contains(&"whole") || words.contains(&"whole");
    let negated = || {
        tokens[..i]
            .iter()
            .rev()
            .take_while(|t| t.kind != Kind::Punct)
            .any(|t| t.is_word() && crate::words::is_negation(&t.text))
    };
    if whole && negated() {
        return false;
    }
    // "I don't think" -> "I do not believe" is stiff, and "I think I'll get my hearing tested"
    // is a plan, which "I believe I will" makes a prediction.
    let planned = || {
        let (a, b) = (next_word(tokens, last), next_word(tokens, last + 2));
        let a = a.unwrap_or_default().replace('’', "'");
        a == "i'll" || a == "we'll" || (["i", "we"].contains(&a.as_str()) && b.as_deref() == Some("will"))
    };
    if to == ["believe"] && (negated() || planned()) {
        return false;
    }
    // "let the front desk know if you need towels" asks to be told only then: "if" of a condition,
    // no "whether".
    let told = words.ends_with(&["if"]) && crate::tokens::listed_before(tokens, i, 5, &["let", "lets"]);
    if told && to.contains(&"whether") {
        return false;
    }
    let subject_ok = match words[0] {
        // Nor after an auxiliary before the subject: "Do you want to" is "Would you like to", never
        // "Do you would like to".
        "want" => {
            let before_subject = tokens[..i]
                .iter()
                .rev()
                .filter(|t| t.is_word())
                .nth(1)
                .map(|t| t.text.to_lowercase().replace('’', "'"));
            // "if you want to" is an offer, which "if you would like to" makes politely.
            let offer = prev.as_deref() == Some("you")
                && i >= 2
                && prev_word(tokens, i - 2).is_some_and(|b| b == "if");
            (prev.as_deref().is_some_and(|p| ["i", "we"].contains(&p)) || offer)
                && before_subject.is_none_or(|b| !FINITE.contains(&b.as_str()) && !b.ends_with("n't"))
        }
        // "destroyed by the fire" names who or what did it, not where: "by" is a place only
        // after a posture or a stay ("sat by the fire", "lives by the sea").
        "by" => prev.as_deref().is_none_or(|p| {
            let lemma = crate::words::participle_lemma(p);
            lemma
                .is_none_or(|l| ["sit", "stand", "lie", "live", "stay", "wait", "sleep", "rest"].contains(&l))
        }),
        // "It took me an hour to get home" is the journey's length, which arriving, a moment,
        // cannot take.
        "get" | "gets" | "got" | "getting" if words.get(1) == Some(&"home") => !tokens[..i]
            .iter()
            .any(|t| ["took", "takes", "take", "taking"].contains(&t.text.to_lowercase().as_str())),
        // "going to bed" and "going to work" go somewhere: "will bed" is no English, and "will
        // work" is another thing.
        "am" | "is" | "are" if words.get(1) == Some(&"going") => {
            const PLACES_GONE_TO: &[&str] = &[
                "bed",
                "work",
                "school",
                "church",
                "town",
                "class",
                "college",
                "university",
                "hospital",
                "prison",
                "court",
                "market",
                "lunch",
                "dinner",
                "breakfast",
                "sea",
                "war",
                "press",
                "sleep",
            ];
            next_word(tokens, last).is_none_or(|n| {
                // "going to work from home" is the verb.
                let working = n == "work"
                    && next_word(tokens, last + 2).is_some_and(|a| {
                        ["from", "hard", "harder", "late", "overtime"].contains(&a.as_str())
                    });
                working || !PLACES_GONE_TO.contains(&n.as_str())
            })
        }
        // "The smell of fish" is a noun, which takes no "like": only the verb ("It smells of
        // smoke"), never after a determiner or an adjective.
        "smell" | "smells" => prev.as_deref().is_some_and(|p| {
            SUBJECT_PRONOUNS.contains(&p)
                || ["really", "still", "always", "all", "everything"].contains(&p)
                || (can_be(p, Pos::Noun) && !can_be(p, Pos::Adj) && !DETERMINERS.contains(&p))
        }),
        // "a new plan to tackle bullying": a noun after a determiner or an adjective, never a
        // verb ("a new intend to").
        "plan" | "plans" => prev.as_deref().is_none_or(|p| {
            !DETERMINERS.contains(&p) && !PERSONAL_POSSESSIVES.contains(&p) && !can_be(p, Pos::Adj)
                || SUBJECT_PRONOUNS.contains(&p)
        }),
        // "There's no need to worry": a noun after a determiner, never "no have to".
        // "Ms Clarke said Ella needs to read more" is advice reported, which "has to" makes a
        // rule: not after a verb of saying or thinking.
        "need" | "needs" => {
            let reported = tokens[..i].iter().any(|t| {
                ["said", "says", "say", "told", "tells", "thinks", "think", "thought", "feels", "reckons"]
                    .contains(&t.text.to_lowercase().as_str())
            });
            !reported
                && prev.as_deref().is_none_or(|p| {
                    !["no", "the", "a", "any", "every", "some", "little", "of", "in"].contains(&p)
                })
        }
        // "I meant to call" is an intention, not what is expected: only after "be".
        // An event is called off; a flight, an order or a card is cancelled.
        _ if words.get(1).is_some_and(|w| w.starts_with("cancel")) => {
            const CALLED_OFF: &[&str] = &[
                "match",
                "game",
                "meeting",
                "trip",
                "concert",
                "party",
                "wedding",
                "event",
                "show",
                "festival",
                "race",
                "strike",
                "search",
                "picnic",
                "tour",
                "parade",
                "performance",
                "ceremony",
                "talks",
                "conference",
                "lecture",
                "celebration",
                "barbecue",
                "fireworks",
                "fair",
                "plans",
                "rehearsal",
                "training",
                "practice",
                "demonstration",
                "protest",
                "march",
                "sale",
                "auction",
            ];
            tokens[..i]
                .iter()
                .rev()
                .filter(|t| t.is_word())
                .take(4)
                .any(|t| CALLED_OFF.contains(&t.text.to_lowercase().as_str()))
        }
        // "it will" as a forecast of the weather or a state: "it will rain", "it will be sunny";
        // "it will help" may be a promise, and "Will it" is a question's.
        "it" if words.get(1) == Some(&"will") => next_word(tokens, last).is_some_and(|v| {
            ["rain", "snow", "be", "get", "take", "cost", "happen", "stop", "clear", "freeze"]
                .contains(&v.as_str())
        }),
        // "had lunch" is "ate lunch" in the simple past and "eaten lunch" after "have"; not
        // "had had", and not a "had" that opens a question ("Had you had lunch?").
        "had" => {
            // "have had", "have already had", and a question's "Have you had".
            let perfect = tokens[..i].iter().rev().filter(|t| t.is_word()).take(2).any(|t| {
                let p = t.text.to_lowercase().replace('’', "'");
                ["have", "has", "had"].contains(&p.as_str())
                    || ["'ve", "'s", "'d"].iter().any(|h| p.ends_with(h))
            });
            let participle = ["eaten", "thrown"].contains(&to[0]);
            prev.is_some() && perfect == participle
        }
        // "have a party" is thrown only where "have" is a full verb, not after "had" or "to
        // have had".
        "have" | "has" | "having" if words.get(2) == Some(&"party") => {
            prev.as_deref().is_none_or(|p| !["had", "would", "could", "might"].contains(&p))
        }
        "out" => prev.as_deref().is_some_and(|p| ["is", "are", "was", "were", "be", "been"].contains(&p)),
        // A test, and a statement: "Did he not pass?" stays.
        "did" if words.get(2) == Some(&"pass") => {
            prev.is_some()
                && tokens.last().is_none_or(|t| t.text != "?")
                && tokens.get(last + 1..).unwrap_or_default().iter().filter(|t| t.is_word()).take(4).any(
                    |t| {
                        ["test", "exam", "exams", "mot", "inspection", "audition", "assessment"]
                            .contains(&t.text.to_lowercase().as_str())
                    },
                )
        }
        // "take cash out", "take cash from the till": taken, not accepted.
        "take" | "takes" if ["cash", "cards", "card", "credit"].contains(&words[1]) => {
            next_word(tokens, last).is_none_or(|n| {
                !["out", "from", "with", "back", "off", "away", "home", "to", "into"].contains(&n.as_str())
            })
        }
        // In a question "be" comes before the subject ("Is it supposed to snow?").
        "supposed" | "meant" => {
            let after_be = |p: &str| {
                let p = p.replace('’', "'");
                BE_ALL.contains(&p.as_str())
                    || p == "not"
                    || p.ends_with("'s")
                    || p.ends_with("'re")
                    || p.ends_with("'m")
            };
            let asked = i >= 2
                && prev.as_deref().is_some_and(|p| SUBJECT_PRONOUNS.contains(&p))
                && prev_word(tokens, i - 2)
                    .is_some_and(|b| ["is", "are", "was", "were", "am"].contains(&b.as_str()));
            prev.as_deref().is_some_and(after_be) || asked
        }
        // "I can hear" is a perception, not an ability: "I am able to hear" says too much.
        "remember" => prev.as_deref().is_none_or(|p| p == "please"),
        "must" if to[0] == "has" || prev.as_deref().is_some_and(|p| !["i", "we", "you"].contains(&p)) => {
            must_oblige(tokens, i, to[0] == "has")
        }
        "might" | "may" => maybe_at(tokens, i, words[0] == "may"),
        "so" if words.len() == 1 => {
            let before = tokens[..i].iter().rev().find(|t| t.kind != Kind::Space);
            before.is_some_and(|t| t.text == ",") && tokens.last().is_some_and(|t| t.text == ".")
        }
        "when" => whenever_at(tokens, i),
        // "come whenever you like" is at any time, which "every time you like" is not: not
        // before a choice left to someone.
        "whenever" => !any_time_at(tokens, last),
        // "for more than a few seconds" has no "over a few seconds", which reads as during.
        "more" => {
            let few = next_word(tokens, last).is_some_and(|n| n == "a")
                && next_word(tokens, last + 2).is_some_and(|n| ["few", "couple"].contains(&n.as_str()));
            !few
        }
        "immediately" => {
            prev.is_some() && tokens.get(i + 1).is_some_and(|t| [".", ",", "!"].contains(&t.text.as_str()))
        }
        "must" => {
            prev.as_deref().is_some_and(|p| ["i", "we", "you"].contains(&p))
                && next_word(tokens, last).is_some_and(|n| {
                    ![
                        "be",
                        "have",
                        "know",
                        "understand",
                        "think",
                        "feel",
                        "like",
                        "love",
                        "mean",
                        "realise",
                        "realize",
                        "seem",
                        "want",
                        "need",
                        "remember",
                        "agree",
                    ]
                    .contains(&n.as_str())
                })
        }
        "all" if words.len() == 2 && ["summer", "winter", "month", "weekend"].contains(&words[1]) => {
            tokens.get(last + 1).is_none_or(|t| t.kind == Kind::Punct && t.text != "'")
                || next_word(tokens, last).is_some_and(|n| {
                    (PREPOSITIONS.contains(&n.as_str())
                        || ["and", "but", "so", "because"].contains(&n.as_str()))
                        && n != "long"
                })
        }
        "the" if words.len() == 3 && ["summer", "winter", "month"].contains(&words[2]) => {
            prev.as_deref().is_none_or(|p| !PREPOSITIONS.contains(&p) && p != "during")
                && tokens.get(last + 1).is_none_or(|t| t.kind == Kind::Punct && t.text != "'")
        }
        "attended" | "attend" | "attends" | "attending" => tokens[last..]
            .iter()
            .filter(|t| t.is_word())
            .take(4)
            .any(|t| crate::words::EVENTS.contains(&t.text.to_lowercase().as_str())),
        "if" if words.len() == 3 => {
            let before: Vec<String> = tokens[..i]
                .iter()
                .filter(|t| t.is_word())
                .map(|t| t.text.to_lowercase().replace('’', "'"))
                .collect();
            before.iter().any(|w| w == "would" || w.ends_with("'d"))
                && prev.as_deref().is_some_and(|p| {
                    ![
                        "wonder",
                        "wondering",
                        "wondered",
                        "ask",
                        "asked",
                        "asking",
                        "see",
                        "know",
                        "even",
                        "as",
                    ]
                    .contains(&p)
                })
        }
        "look" | "looks" | "looked" | "looking" if words.get(1) == Some(&"into") => {
            const MATTERS: &[&str] = &[
                "matter",
                "issue",
                "problem",
                "complaint",
                "request",
                "case",
                "question",
                "claim",
                "situation",
                "error",
                "delay",
                "query",
                "concern",
                "incident",
                "complaints",
                "issues",
                "problems",
                "options",
                "cause",
                "possibility",
            ];
            tokens[last..]
                .iter()
                .filter(|t| t.is_word())
                .skip(1)
                .take(3)
                .any(|t| MATTERS.contains(&t.text.to_lowercase().as_str()))
        }
        "am" | "are" | "is" if ["looking", "planning"].contains(&words[1]) => {
            prev.as_deref().is_some_and(|p| SUBJECT_PRONOUNS.contains(&p) || is_noun(p))
                && tokens.last().is_none_or(|t| t.text != "?")
        }
        "works" | "work" => {
            const SUITING: &[&str] = &[
                "schedule",
                "time",
                "date",
                "day",
                "plan",
                "slot",
                "arrangement",
                "that",
                "this",
                "timing",
                "times",
                "dates",
                "days",
                "plans",
                "week",
                "morning",
                "afternoon",
                "evening",
                "deadline",
            ];
            let suited =
                next_word(tokens, last).is_some_and(|n| OBJECT_PRONOUNS_OR_YOURS.contains(&n.as_str()));
            suited
                && prev
                    .as_deref()
                    .is_some_and(|p| SUITING.contains(&p) || crate::words::DAY_NAMES.contains(&p))
        }
        "disappointed" if words.len() == 2 => {
            next_word(tokens, last).is_some_and(|n| !n.ends_with("self") && !n.ends_with("selves"))
        }
        "did" if words.get(2) == Some(&"see") => {
            const SEEN: &[&str] = &[
                "news",
                "email",
                "e-mail",
                "message",
                "text",
                "article",
                "post",
                "video",
                "note",
                "letter",
                "report",
                "photos",
                "pictures",
                "comments",
                "announcement",
                "update",
            ];
            const WHEN: &[&str] = &[
                "yesterday",
                "ago",
                "last",
                "when",
                "earlier",
                "this",
                "on",
                "at",
                "while",
                "today",
                "tonight",
            ];
            let words_after: Vec<String> =
                tokens[last..].iter().filter(|t| t.is_word()).map(|t| t.text.to_lowercase()).collect();
            prev.is_none()
                && tokens.last().is_some_and(|t| t.text == "?")
                && words_after.iter().skip(1).take(3).any(|w| SEEN.contains(&w.as_str()))
                && !words_after.iter().any(|w| WHEN.contains(&w.as_str()))
        }
        // "paid her back wages" is her wages: only before a pause, a time, an amount or "for".
        "pay" | "pays" | "paid" | "paying" if words.len() == 3 => {
            tokens.get(last + 1).is_none_or(|t| t.kind == Kind::Punct && t.text != "'")
                || next_word(tokens, last).is_some_and(|n| {
                    [
                        "for",
                        "by",
                        "in",
                        "on",
                        "when",
                        "as",
                        "next",
                        "tomorrow",
                        "today",
                        "later",
                        "with",
                        "and",
                        "before",
                        "after",
                        "within",
                        "the",
                        "every",
                        "soon",
                        "tonight",
                        "this",
                        "last",
                        "at",
                        "once",
                        "straight",
                        "immediately",
                        "eventually",
                        "yet",
                    ]
                    .contains(&n.as_str())
                })
        }
        // "I was kept waiting", "it gets kept running": a passive's "keep" makes one wait.
        "keep" | "keeps" | "kept" | "keeping" => prev.as_deref().is_none_or(|p| {
            let p = p.replace('’', "'");
            !BE_ALL.contains(&p.as_str())
                && !["get", "gets", "got", "getting"].contains(&p.as_str())
                && !["'s", "'re", "'m"].iter().any(|e| p.ends_with(e))
        }),
        // Only the subject before it, and a pause or "and" after: "don't really like it" is
        // milder, and "really like it here" or "like it when" may tell another thing.
        "really" if words.len() == 3 => {
            prev.as_deref().is_some_and(|p| ["i", "we", "you", "they", "he", "she"].contains(&p))
                && tokens.get(last + 1).is_none_or(|t| t.kind == Kind::Punct && t.text != "'")
        }
        // The adjectives of feeling after their "be" ("I'm sorry", "We are glad"), not "a sure
        // sign" nor "sorry for".
        "sorry" | "glad" | "sure" | "afraid" | "surprised" | "pleased" | "happy" | "worried" | "aware"
        | "certain" | "convinced" | "disappointed" | "relieved" | "amazed" | "shocked"
            if words.len() == 1 =>
        {
            // Asked, the subject stands between: "Are you sure the door is locked?"
            let asked = prev.as_deref().is_some_and(|p| SUBJECT_PRONOUNS.contains(&p))
                && i >= 2
                && prev_word(tokens, i - 2).is_some_and(|b| BE_ALL.contains(&b.as_str()));
            asked
                || prev.as_deref().is_some_and(|p| {
                    let p = p.replace('’', "'");
                    BE_ALL.contains(&p.as_str())
                        || ["'s", "'re", "'m"].iter().any(|e| p.ends_with(e))
                        // Not after "so": "so happy that we cried" tells a result, not what is felt.
                        || ["very", "really", "quite", "feel", "felt"].contains(&p.as_str())
                })
        }
        // "say" of reporting, after its subject or "to", never a request ("Say the word").
        "say" => prev.as_deref().is_some_and(|p| {
            ["i", "we", "you", "they", "to", "would", "could", "will", "can", "might", "did", "didn't"]
                .contains(&p)
        }),
        // "These days are long" is a subject, which "nowadays" cannot be.
        "these" => {
            (prev.is_none() || tokens.get(last + 1).is_none_or(|t| t.kind == Kind::Punct))
                && next_word(tokens, last).is_none_or(|n| {
                    ![
                        "are", "were", "have", "had", "will", "would", "can", "could", "seem", "seemed",
                        "go", "went", "of", "and",
                    ]
                    .contains(&n.as_str())
                })
        }
        // "for the whole week" is no "for all week": "all week" stands alone.
        "the" if words.get(1) == Some(&"whole") => {
            prev.as_deref().is_none_or(|p| !PREPOSITIONS.contains(&p) && p != "during")
        }
        // Not "all a day", nor the idioms "all the same", "all the way", "all the best", "all
        // the more", "all the time".
        "all" | "both" if words.len() == 1 || words[1] == "of" => {
            let determiner = next_word(tokens, last);
            let after = next_word(tokens, last + 2);
            // "both the tutor and the students": "both ... and" pairs two, which "both of" does not.
            let paired = words[0] == "both"
                && tokens[last..].iter().take(12).any(|t| t.text.eq_ignore_ascii_case("and"));
            // "with you all this evening", "thanked them both the next day": the word belongs
            // to the pronoun before it, and the determiner opens another phrase.
            let floated = prev.as_deref().is_some_and(|p| ["you", "us", "them", "we", "they"].contains(&p));
            !paired
                && !floated
                && determiner.is_some_and(|d| !["a", "an", "some", "several"].contains(&d.as_str()))
                && after.is_none_or(|a| {
                    !["same", "way", "best", "more", "better", "worse", "time", "rest"].contains(&a.as_str())
                })
        }
        // "Why do you think he left?" is no "Why do you believe he left?": in a question the
        // opinion asked for is not a belief.
        "think" | "thinks" => tokens.last().is_none_or(|t| t.text != "?"),
        // "Let me know if you need anything" is no indirect question.
        "know" => prev.as_deref().is_none_or(|p| !["me", "us"].contains(&p)),
        // Told alone only in the passive, whose subject is the one told: "was told she might
        // need", never "I told the story".
        "told" if words.len() == 1 => {
            prev.as_deref().is_some_and(|p| BE_ALL.contains(&p) || ["get", "got"].contains(&p))
        }
        "over" => prev.as_deref().is_some_and(|p| {
            [
                "for", "spent", "spend", "spends", "cost", "costs", "paid", "pay", "pays", "waited",
                "lasted", "lasts", "earns", "earned", "weighs", "weighed", "of",
            ]
            .contains(&p)
        }),
        // "how much better", "not much better" (only a little), "quite a lot better".
        "a" if words[1] != "lot" => true,
        "much" | "far" | "a" => {
            let degree =
                ["how", "so", "too", "very", "as", "that", "this", "not", "pretty", "quite", "such", "what"];
            let plural_next = words[0] != "much"
                && next_word(tokens, last).is_some_and(|n| ["more", "less", "fewer"].contains(&n.as_str()));
            prev.as_deref().is_none_or(|p| !degree.contains(&p)) && !plural_next
        }
        _ if words.get(1) == Some(&"can") => next_word(tokens, last).is_none_or(|n| {
            !["hear", "see", "smell", "feel", "taste", "understand", "imagine", "remember"]
                .contains(&n.as_str())
        }),
        _ => true,
    };
    // A clause with a verb in its first few words; "think" -> "believe" asks for none, as
    // what is believed may be a bare "it's" or "so".
    let clause_ok = !matches!(need, Next::Clause)
        || to == ["believe"]
        || ["if", "although", "though", "whenever", "time", "so", "when"]
            .contains(words.last().unwrap_or(&""))
        || clause_follows(tokens, last, false);
    subject_ok && clause_ok && next_ok(next_word(tokens, last).as_deref(), need)
}

/// "said the brakes" -> "said that the brakes": a "that" put into the space token `s` after the
/// words of a `that_clause_rows` row, before a clause that opens with its subject. The site is the
/// space alone, so that the words before it keep their own rewrites ("think" -> "believe").
fn clause_that_added(tokens: &[Token], s: usize) -> Option<(usize, Vec<Token>)> {
    if !tokens[s].is(Kind::Space, " ") || s == 0 {
        return None;
    }
    let before = &tokens[s - 1];
    // "think" has its own site, "believe": with both, "I believe that" read stiff to the judges
    // in everyday remarks (28 of 64 awkward), so a "that" is only ever left out after it.
    if ["think", "thinks"].iter().any(|w| before.text.eq_ignore_ascii_case(w)) {
        return None;
    }
    let fits = that_clause_rows().any(|words| {
        let n = words.len();
        s + 1 >= 2 * n
            && before.text.eq_ignore_ascii_case(words[n - 1])
            && group_fits(tokens, s + 1 - 2 * n, words, &[], Next::Clause)
    });
    // Something asked out of the clause ("asked what he thought the problem was"): a "that" there
    // is stiff or wrong.
    const ASKED: &[&str] = &["what", "who", "whom", "which", "where", "how", "why"];
    let asked_out = || {
        tokens[..s]
            .iter()
            .rev()
            .take_while(|t| t.kind != Kind::Punct)
            .filter(|t| t.is_word())
            .take(8)
            .any(|t| ASKED.iter().any(|w| t.text.eq_ignore_ascii_case(w)))
    };
    (fits && !asked_out()).then(|| (s + 1, vec![Token::space(), Token::word("that"), Token::space()]))
}

/// "said that the brakes" -> "said the brakes": the "that" at token `t` after the words of a
/// `that_clause_rows` row left out, where what follows it is a clause with its subject and its finite
/// verb ("knew that the bank was closed"), never a "that" that points ("I know that man", "I
/// said that to him", "I heard that the other day"). Covers the "that" and the space after it.
fn clause_that_dropped(tokens: &[Token], t: usize) -> Option<(usize, Vec<Token>)> {
    if !tokens[t].text.eq_ignore_ascii_case("that") || !tokens.get(t + 1)?.is(Kind::Space, " ") || t < 2 {
        return None;
    }
    if !tokens[t - 1].is(Kind::Space, " ")
        || !next_ok(next_word(tokens, t).as_deref(), Next::Clause)
        || !clause_follows(tokens, t, true)
    {
        return None;
    }
    let verb = &tokens[t - 2];
    that_clause_rows()
        .any(|words| {
            let n = words.len();
            t >= 2 * n
                && verb.text.eq_ignore_ascii_case(words[n - 1])
                && group_fits(tokens, t - 2 * n, words, &[], Next::Any)
        })
        .then(|| (t + 2, Vec::new()))
}

/// Where the words and marks that bar a relative "that" first stand in the sentence: a "so" or
/// "such" whose result a "that" may tell, a word that opens another clause, a punctuation mark.
/// Read once per pass, so that `relative_that` and `relative_that_added` ask "is there one before
/// this word?" without reading the whole prefix again at every word.
struct Firsts {
    result: usize,
    subordinator: usize,
    punct: usize,
}

/// The words that open a clause before a noun, after which a pronoun and its verb may begin the
/// sentence's own clause ("When I met the man he was old") rather than a relative one.
const SUBORDINATORS: &[&str] = &[
    "when", "whenever", "if", "because", "although", "though", "since", "as", "while", "before", "after",
    "until", "once", "unless", "where", "that", "who", "which", "so",
];

impl Firsts {
    fn of(tokens: &[Token]) -> Firsts {
        let first = |found: &dyn Fn(&Token) -> bool| tokens.iter().position(found).unwrap_or(tokens.len());
        let word_in =
            |t: &Token, list: &[&str]| t.is_word() && list.iter().any(|w| t.text.eq_ignore_ascii_case(w));
        Firsts {
            result: first(&|t| word_in(t, &["so", "such"])),
            subordinator: first(&|t| word_in(t, SUBORDINATORS)),
            punct: first(&|t| t.kind == Kind::Punct),
        }
    }
}

/// "the apps that I never use" -> "the apps I never use": a "that" between a noun that a
/// determiner opens and a subject pronoun opens a relative clause whose object it is, and may go.
/// Covers the "that" and the space after it.
fn relative_that(tokens: &[Token], i: usize, firsts: &Firsts) -> Option<(usize, Vec<Token>)> {
    if tokens[i].text != "that" || !tokens.get(i + 1)?.is(Kind::Space, " ") {
        return None;
    }
    let next = next_word(tokens, i)?;
    let noun = prev_word(tokens, i)?;
    if !["i", "you", "we", "they", "he", "she"].contains(&next.as_str())
        || CONTENT_NOUNS.contains(&noun.as_str())
        || !is_noun(&noun)
        || is_verbish(&noun)
    {
        return None;
    }
    // The noun's determiner within three words before it, and no "so" or "such" whose result
    // the "that" would tell ("such a mess that we left").
    let determined = words_back(tokens, i, 4).iter().skip(1).any(|w| DETERMINERS.contains(&w.as_str()));
    let result = firsts.result < i;
    (determined && !result).then(|| (i + 2, Vec::new()))
}

/// "The book which I read was good." -> "The book that I read was good.": a "which" right after a
/// noun that a determiner opens, with no comma between (a clause between commas adds, and only
/// "which" says so), before the relative clause's subject or its verb. Never a "which" that asks
/// ("Which bus goes", "asked the teacher which book to read"), nor after a preposition ("in
/// which", where the "which" is no noun's neighbour).
fn relative_which(tokens: &[Token], i: usize) -> Option<(usize, Vec<Token>)> {
    if tokens[i].text != "which"
        || !tokens.get(i + 1)?.is(Kind::Space, " ")
        || !tokens.get(i.checked_sub(1)?)?.is(Kind::Space, " ")
    {
        return None;
    }
    let noun = prev_word(tokens, i)?;
    if CONTENT_NOUNS.contains(&noun.as_str()) || !is_noun(&noun) || is_verbish(&noun) {
        return None;
    }
    let next = next_word(tokens, i)?;
    let clause_next = ["i", "you", "we", "they", "he", "she"].contains(&next.as_str())
        || NOUN_PHRASE_DETERMINERS.contains(&next.as_str())
        || FINITE.contains(&next.as_str())
        || crate::words::heads_clause(&next);
    let clause_back: Vec<String> = tokens[..i]
        .iter()
        .rev()
        .take_while(|t| t.kind != Kind::Punct)
        .filter(|t| t.is_word())
        .take(12)
        .map(|t| t.text.to_lowercase())
        .collect();
    let determined = clause_back.iter().skip(1).take(3).any(|w| DETERMINERS.contains(&w.as_str()));
    let asking = clause_back.iter().any(|w| ASKING.contains(&w.as_str()));
    (clause_next && determined && !asking).then(|| (i + 1, vec![shape::word_like(&tokens[i].text, "that")]))
}

/// Nouns that with a clause after them tell when or how, as a conjunction would ("cried the moment
/// her son walked", "the way I see it"), where a "that" is stiff.
const MOMENTS: &[&str] = &["moment", "minute", "instant", "second", "way"];

/// "the book you lent me" -> "the book that you lent me": the other way from `relative_that`. A
/// noun that a determiner opens, right after a verb ("finished reading the book", "is the best
/// pizza") or opening the sentence (`subject_relative`), and a subject pronoun or a noun that a
/// possessive opens ("the cake my sister made"), with its verb after it, open a clause that "that" may open as
/// well, whether it is a relative clause or one told ("told the kids we were leaving"). Never
/// after a word that opens another clause before it ("When I met the man he was old", "After the
/// meeting we left"), before "I think" said in passing, nor after a noun of what is told
/// (`CONTENT_NOUNS`), left to the reader's "that". Covers the noun.
fn relative_that_added(tokens: &[Token], i: usize, firsts: &Firsts) -> Option<(usize, Vec<Token>)> {
    const ASIDES: &[&str] = &[
        "think", "thought", "guess", "suppose", "believe", "mean", "hope", "know", "reckon", "said", "say",
        "bet", "feel", "felt", "see", "wonder", "imagine", "am", "are", "is", "was", "were",
    ];
    let noun = tokens[i].text.to_lowercase();
    if !tokens.get(i + 1)?.is(Kind::Space, " ")
        || !is_noun(&noun)
        || is_verbish(&noun)
        || CONTENT_NOUNS.contains(&noun.as_str())
        || MOMENTS.contains(&noun.as_str())
        || noun.chars().next().is_none_or(|c| !c.is_ascii_lowercase())
    {
        return None;
    }
    let pronoun = next_word(tokens, i)?;
    // Or a noun that a possessive opens ("the cake my sister made"), when the word after it is no
    // verb as well ("my sister", not "my dress").
    let owned = PERSONAL_POSSESSIVES.contains(&pronoun.as_str())
        && next_word(tokens, i + 2)
            .is_some_and(|n| is_noun(&n) && !is_verbish(&n) && !CONTENT_NOUNS.contains(&n.as_str()));
    if !["i", "you", "we", "they", "he", "she"].contains(&pronoun.as_str()) && !owned {
        return None;
    }
    // The subject's verb, past an adverb ("I have ever tasted", "you just sent").
    let mut k = if owned { i + 4 } else { i + 2 };
    let mut verb = next_word(tokens, k)?;
    if ["ever", "never", "just", "always", "really", "already", "recently", "once", "finally"]
        .contains(&verb.as_str())
    {
        k += 2;
        verb = next_word(tokens, k)?;
    }
    let verb = verb.replace('’', "'");
    if ASIDES.contains(&verb.as_str())
        || !crate::words::heads_clause(&verb)
        || firsts.subordinator < i
        || firsts.punct < i
    {
        return None;
    }
    // Back from the noun: at most two adjectives, then the determiner, then a verb, or nothing
    // where the noun phrase opens the sentence.
    let before = words_back(tokens, i, 4);
    let d = (0..before.len().min(3)).find(|&d| NOUN_PHRASE_DETERMINERS.contains(&before[d].as_str()))?;
    let opens = before.len() == d + 1;
    let fits = match before.get(d + 1) {
        Some(verb_before) => {
            !PREPOSITIONS.contains(&verb_before.as_str())
                && !CLAUSE_WORDS.contains(&verb_before.as_str())
                && (is_verbish(verb_before)
                    || crate::words::heads_clause(verb_before)
                    || verb_before.ends_with("ing"))
        }
        None => opens && subject_relative(tokens, &noun, &before[d], k + 2),
    };
    fits.then(|| (i + 1, vec![tokens[i].clone(), Token::space(), Token::word("that")]))
}

/// Whether a noun phrase that opens the sentence, with a pronoun and its verb after it (the verb
/// ending at token `after`), is the subject of a verb that comes later, so that the pronoun's
/// clause is a relative one ("The umbrella I bought in Brighton lasted one afternoon."): a finite
/// verb follows within eight words, with no other subject, conjunction or clause word between.
/// Never a time or a moment told first ("This morning I went", "The minute I got home it
/// started"), nor after "that" as a determiner, where "That car that you sold me" stutters.
fn subject_relative(tokens: &[Token], noun: &str, determiner: &str, after: usize) -> bool {
    if TIME_NOUNS.contains(&noun) || TIME_UNITS.contains(&noun) || determiner == "that" {
        return false;
    }
    let mut k = after;
    for step in 0..8 {
        let Some(w) = next_word(tokens, k) else { return false };
        let w = w.replace('’', "'");
        // An object pronoun right after the relative clause's verb ("The book I gave you was").
        let object = step == 0 && ["you", "it"].contains(&w.as_str());
        if !object
            && (SUBJECT_PRONOUNS.contains(&w.as_str())
                || ["and", "but", "or", "so", "that", "who", "which"].contains(&w.as_str())
                || SUBORDINATORS.contains(&w.as_str()))
        {
            return false;
        }
        // A past in "-ed" counts though it may be a participle ("lasted"): either way the noun
        // phrase before is what the pronoun's clause tells of.
        let tensed = [Tense::Past, Tense::Present]
            .into_iter()
            .any(|tense| crate::words::finite_lemma(&w, tense, true).is_some())
            || w.strip_suffix("ed").is_some_and(|stem| plain_verb(stem) || plain_verb(&format!("{stem}e")));
        if FINITE.contains(&w.as_str()) || crate::words::clearly_finite(&w, true) || tensed {
            return true;
        }
        k += 2;
    }
    false
}

/// Acts just done, each past with its participle: the verbs of an event that "just" tells as
/// recent, where "have just" says the same. Not "wanted", "thought", "called" or the like, whose
/// "just" is "only" ("I just wanted to say", "I just called to say").
const JUST_DONE: &[(&str, &str)] = &[
    ("finished", "finished"),
    ("started", "started"),
    ("arrived", "arrived"),
    ("got", "got"),
    ("left", "left"),
    ("received", "received"),
    ("sent", "sent"),
    ("bought", "bought"),
    ("booked", "booked"),
    ("moved", "moved"),
    ("ordered", "ordered"),
    ("landed", "landed"),
    ("returned", "returned"),
    ("woke", "woken"),
    ("came", "come"),
    ("saw", "seen"),
    ("heard", "heard"),
    ("ate", "eaten"),
    ("won", "won"),
    ("lost", "lost"),
    ("found", "found"),
    ("passed", "passed"),
    ("signed", "signed"),
    ("broke", "broken"),
];

/// "My son just started school." -> "My son has just started school.": "just" and a past of
/// `JUST_DONE` after the subject that opens the sentence (a personal pronoun, or a determiner and
/// its noun), in a statement that names no past time ("I just finished it yesterday" is no
/// present perfect). Covers "just" and the verb.
fn just_done(tokens: &[Token], i: usize) -> Option<(usize, Vec<Token>)> {
    if !tokens[i].text.eq_ignore_ascii_case("just") || !tokens.get(i + 1)?.is(Kind::Space, " ") {
        return None;
    }
    let verb = tokens.get(i + 2).filter(|t| plain_word(t))?;
    let &(_, participle) = JUST_DONE.iter().find(|(past, _)| verb.text.eq_ignore_ascii_case(past))?;
    let before: Vec<String> =
        tokens[..i].iter().filter(|t| t.is_word()).map(|t| t.text.to_lowercase()).collect();
    let have = match before.as_slice() {
        [p] if ["i", "we", "you", "they"].contains(&p.as_str()) => "have",
        [p] if ["he", "she"].contains(&p.as_str()) => "has",
        [d, noun]
            if PERSONAL_POSSESSIVES.contains(&d.as_str()) || ["the", "our", "my"].contains(&d.as_str()) =>
        {
            if !is_noun(noun) || is_verbish(noun) {
                return None;
            }
            if crate::words::is_plural_noun(noun) { "have" } else { "has" }
        }
        _ => return None,
    };
    const THEN: &[&str] = &[
        "yesterday",
        "ago",
        "last",
        "earlier",
        "then",
        "when",
        "while",
        "before",
        "after",
        "at",
        "once",
        "tonight",
        "today",
        "this",
        "if",
        "because",
    ];
    let timed = tokens.iter().filter(|t| t.is_word()).any(|t| {
        let w = t.text.to_lowercase();
        THEN.contains(&w.as_str())
            || crate::words::TIME_NOUNS.contains(&w.as_str())
            || crate::words::MONTHS.contains(&w.as_str())
    });
    if timed || tokens.iter().any(|t| t.kind == Kind::Punct && ["?", ",", ";"].contains(&t.text.as_str())) {
        return None;
    }
    Some((
        i + 3,
        vec![
            shape::word_like(&tokens[i].text, have),
            Token::space(),
            Token::word("just"),
            Token::space(),
            Token::word(participle),
        ],
    ))
}

/// "started crying" <-> "started to cry": after "start", "begin" and "continue" the gerund and
/// the infinitive say the same; so do "likes swimming" and "likes to swim", told one way only.
/// Not after their own "-ing" form ("is starting to rain" is no "is starting raining"), nor for
/// "be" ("started to be" is no "started being").
fn gerund_or_infinitive(tokens: &[Token], i: usize) -> Option<(usize, Vec<Token>)> {
    const ASPECT: &[&str] = &[
        "start",
        "starts",
        "started",
        "begin",
        "begins",
        "began",
        "begun",
        "continue",
        "continues",
        "continued",
    ];
    // "likes swimming" -> "likes to swim", and "love", "hate", "prefer": only that way round, as
    // "would like to go" is no "would like going".
    const LIKING: &[&str] = crate::words::LIKING_FORMS;
    let word = tokens[i].text.to_lowercase();
    let liking = LIKING.contains(&word.as_str());
    if !ASPECT.contains(&word.as_str()) && !liking {
        return None;
    }
    let next = next_word(tokens, i)?;
    if liking && next == "to" {
        return None;
    }
    if !tokens.get(i + 2).is_some_and(plain_word) {
        return None;
    }
    let verb = |w: &str, form: Form| {
        let analyses = morph::analyse(w);
        morph::evidence(&analyses, |a| a.pos == Pos::Verb && a.form == form)
            .more_than(1, 2)
            .then(|| analyses.into_iter().find(|a| a.pos == Pos::Verb && a.form == form))?
            .map(|a| a.entry.lemma)
    };
    let mut out = vec![tokens[i].clone(), Token::space()];
    if next == "to" {
        let base = next_word(tokens, i + 2)?;
        // After "to" a verb's base form is the verb, however often the word is a noun ("rain").
        let analyses = morph::analyse(&base);
        let lemma = analyses
            .iter()
            .find(|a| {
                a.pos == Pos::Verb && a.form == Form::Base && a.entry.lemma == base && a.entry.lemma != "be"
            })?
            .entry
            .lemma;
        if !tokens.get(i + 4).is_some_and(plain_word) {
            return None;
        }
        out.push(Token::word(morph::inflect(lemma, Pos::Verb, Form::Gerund)?));
        return Some((i + 5, out));
    }
    // "begun learning to play" told as "begun to learn to play" stacks two infinitives; and
    // before a bare noun the "-ing" word may name a kind of it ("started swimming lessons" is no
    // "started to swim lessons"): only the end of the clause, a preposition, a clause word, a
    // determiner or a pronoun may follow.
    let after_ok = match next_word(tokens, i + 2) {
        None => tokens.get(i + 3).is_none_or(|t| t.kind == Kind::Punct),
        // "prefer knitting or sewing": the second "-ing" would stay one, so neither is told.
        Some(a)
            if ["or", "and"].contains(&a.as_str())
                && next_word(tokens, i + 4).is_some_and(|b| b.ends_with("ing")) =>
        {
            false
        }
        // "loves chasing balls in the park" -> "loves to chase balls in the park": a bare noun
        // object, where the "-ing" word is no noun itself (so no "swimming lessons", "cooking
        // classes" or "walking boots" is read as a verb and its object), the noun not one that
        // names a tool or kit ("reading glasses", "knitting needles"), and then the clause ends or
        // a preposition or time follows.
        Some(a) if bare_object_after(tokens, i + 4, &next, &a) => true,
        Some(a) => {
            a != "to"
                && (PREPOSITIONS.contains(&a.as_str())
                    || CLAUSE_WORDS.contains(&a.as_str())
                    || DETERMINERS.contains(&a.as_str())
                    || [
                        "it",
                        "them",
                        "him",
                        "her",
                        "me",
                        "us",
                        "you",
                        "again",
                        "now",
                        "today",
                        "here",
                        "there",
                        "just",
                        "heavily",
                        "slowly",
                        "quickly",
                        "immediately",
                        "soon",
                    ]
                    .contains(&a.as_str()))
        }
    };
    if !after_ok {
        return None;
    }
    let lemma = verb(&next, Form::Gerund).filter(|l| *l != "be")?;
    out.extend([Token::word("to"), Token::space(), Token::word(lemma)]);
    Some((i + 3, out))
}

/// Whether the bare noun `object` (at `at`) after the "-ing" word `ing` is its object and
/// ends the phrase: "loves reading books at night", not "loves swimming lessons" (the "-ing" word
/// a noun, naming a kind), "hates reading glasses" (a tool in "-ing") or "started making sure".
fn bare_object_after(tokens: &[Token], at: usize, ing: &str, object: &str) -> bool {
    const KIT: &[&str] = &[
        "glasses", "needles", "boots", "shoes", "lessons", "classes", "clothes", "machine", "machines",
        "bag", "bags", "group", "groups", "club", "clubs", "list", "lists", "room", "area", "pool", "time",
        "course", "courses", "gear", "kit", "trip", "trips", "habit", "habits", "skills",
    ];
    // "playing" is a noun only in rare senses, and "loves playing football" is the commonest of
    // these ("loves playing cards" is still a playing of cards).
    let noun_ing = is_noun(ing) && ing != "playing";
    let object_noun = crate::words::is_plural_noun(object) || (is_noun(object) && !is_verbish(object));
    if noun_ing || KIT.contains(&object) || !object_noun {
        return false;
    }
    if DETERMINERS.contains(&object) || PREPOSITIONS.contains(&object) || CLAUSE_WORDS.contains(&object) {
        return false;
    }
    match next_word(tokens, at) {
        None => tokens.get(at + 1).is_none_or(|t| t.kind == Kind::Punct),
        Some(n) => {
            PREPOSITIONS.contains(&n.as_str())
                || [
                    "again", "now", "today", "every", "each", "last", "this", "after", "and", "but",
                    "because",
                ]
                .contains(&n.as_str())
        }
    }
}

/// Applies every phrasal-verb, function-word and word-group rewrite in one pass.
pub fn rewrite(tokens: Vec<Token>, sites: &mut Sites) -> Vec<Token> {
    let firsts = Firsts::of(&tokens);
    let mut out = Vec::with_capacity(tokens.len() + 4);
    let mut i = 0;
    while i < tokens.len() {
        if plain_word(&tokens[i]) {
            let lower = tokens[i].text.to_lowercase();
            let site: Option<(usize, Vec<Token>)> = group_at(&tokens, i)
                .or_else(|| clause_that_dropped(&tokens, i))
                .or_else(|| relative_that(&tokens, i, &firsts))
                .or_else(|| relative_which(&tokens, i))
                .or_else(|| relative_that_added(&tokens, i, &firsts))
                .or_else(|| just_done(&tokens, i))
                .or_else(|| phrasal_at(&tokens, i))
                .or_else(|| gerund_or_infinitive(&tokens, i))
                .or_else(|| negated_adjective(&tokens, i))
                .or_else(|| too_or_not_enough(&tokens, i))
                .or_else(|| so_really(&tokens, i))
                .or_else(|| {
                    // "not nearly as good" is far from it, where "almost" would be close to it.
                    let negated = prev_word(&tokens, i)
                        .is_some_and(|p| p == "not" || p.ends_with("n't") || p.ends_with("n’t"));
                    if lower == "nearly" && negated {
                        return None;
                    }
                    // "Can they really fine you": after a modal, an auxiliary or a subject, the
                    // word after "really" is the verb, whatever else it may be.
                    let verb_slot = prev_word(&tokens, i).is_some_and(|p| {
                        VERB_BEFORE.contains(&p.as_str()) || p.ends_with("n't") || p.ends_with("n’t")
                    });
                    if lower == "really" && verb_slot {
                        return None;
                    }
                    // "finishes around five" is a time of day, which "about" says only after "at".
                    let clock = prev_word(&tokens, i).is_some_and(|p| {
                        morph::analyse(&p)
                            .iter()
                            .any(|a| a.pos == Pos::Verb && TIMED_VERBS.contains(&a.entry.lemma))
                    });
                    if lower == "around" && clock {
                        return None;
                    }
                    // "nearly every morning": "almost" and "nearly" go with "every", never with
                    // "each" ("nearly each morning" is no English).
                    let approximated = prev_word(&tokens, i).is_some_and(|p| {
                        ["almost", "nearly", "practically", "virtually"].contains(&p.as_str())
                    });
                    if lower == "every" && approximated {
                        return None;
                    }
                    function_swap(&lower, next_word(&tokens, i).as_deref())
                        .map(|swap| (i + 1, vec![shape::word_like(&tokens[i].text, swap)]))
                });
            if let Some((end, new)) = site {
                sites.put(&mut out, &tokens[i..end], || new);
                i = end;
                continue;
            }
        } else if let Some((end, new)) = clause_that_added(&tokens, i) {
            sites.put(&mut out, &tokens[i..end], || new);
            i = end;
            continue;
        }
        out.push(tokens[i].clone());
        i += 1;
    }
    out
}

/// The verbs of letters' and notices' formulas after "please" ("Please find attached", "Please do
/// not leave your bags"), which keep "please" first and stay statements.
const PLEASE_FORMULAS: &[&str] =
    &["find", "note", "don't", "do", "ensure", "remember", "allow", "be", "let", "contact", "see"];

/// "Please close the door." -> "Close the door, please."; "Could you help, please?" -> "Could
/// you please help?"; and "Can you" <-> "Could you" otherwise.
pub fn please(p: &Plain) -> Option<Vec<Token>> {
    let n = p.items.len();
    let polite = ["could", "can", "would", "will"].contains(&p.lower(0).as_str()) && p.lower(1) == "you";
    // "Would you mind closing the window, please?" keeps "please" last: "Would you please mind"
    // is not said.
    if n >= 5
        && p.lower(n - 1) == "please"
        && p.is_comma(n - 2)
        && polite
        && p.lower(2) != "mind"
        && p.terminal.text == "?"
    {
        let mut out: Vec<Token> = p.items[..2].to_vec();
        out.push(shape::word("please"));
        out.extend_from_slice(&p.items[2..n - 2]);
        return Some(shape::build(&out, &p.terminal));
    }
    // Only in a short request of one clause: after a long one, or one with a clause of its own,
    // "please" reads as tacked on ("Lock the door when you leave tonight, please.").
    // The formulas of letters and notices keep "please" first ("Please find attached", "Please
    // do not leave your bags"): at the end it reads as an afterthought.
    let formula = PLEASE_FORMULAS.contains(&p.lower(1).as_str());
    if p.lower(0) == "please"
        && !formula
        && p.commas() == 0
        && (3..=8).contains(&n)
        && !has_clause_word(p, usize::MAX)
        && p.terminal.text != "?"
    {
        let mut out = vec![starting(&p.items[1])];
        out.extend_from_slice(&p.items[2..]);
        out.extend([shape::comma(), shape::word("please")]);
        return Some(shape::build(&out, &p.terminal));
    }
    // "Can I pay by card?" <-> "Could I pay by card?", "May I" -> "Could I": the same request.
    let asking =
        ["could", "can", "may"].contains(&p.lower(0).as_str()) && ["i", "we"].contains(&p.lower(1).as_str());
    // "Can you swim?" asks what one is able to do, and "Could you swim?" what one once could: a
    // verb of skill or sense keeps its modal, unless the question asks a favour of the listener.
    // "Could you speak more slowly?" asks a manner of the listener, so is a favour too.
    let manner =
        ["up", "more", "louder", "slower", "faster", "quieter", "slowly", "quietly", "clearly", "again"]
            .contains(&p.lower(3).as_str())
            || (p.lower(3) == "a" && ["little", "bit"].contains(&p.lower(4).as_str()));
    let favour = manner
        || p.items
            .iter()
            .any(|t| ["please", "me", "us", "my", "our"].contains(&t.text.to_lowercase().as_str()));
    let request = polite && (!ABILITY_VERBS.contains(&p.lower(2).as_str()) || favour);
    if (request || asking) && p.terminal.text == "?" && ["could", "can", "may"].contains(&p.lower(0).as_str())
    {
        let swap = if p.lower(0) == "could" { "Can" } else { "Could" };
        let mut out = vec![shape::word(swap)];
        out.extend_from_slice(&p.items[1..]);
        return Some(shape::build(&out, &p.terminal));
    }
    None
}

/// "Please sign the reply slip and return it by Friday." -> "Could you please sign the reply slip
/// and return it by Friday?": a request told as one asked, "please" kept before the verb. The
/// least preferred of the structural rewrites (`structure`), since it turns a statement into a
/// question. Only a plain verb opens it ("Please, no."), the formulas of letters and notices stay
/// ("Please note", "Please find attached"), and a request with a clause of time or condition is
/// left to the clause's move ("Before you start, please read ..."), which keeps it as written.
pub fn please_asked(p: &Plain) -> Option<Vec<Token>> {
    let n = p.items.len();
    let formula = PLEASE_FORMULAS.contains(&p.lower(1).as_str());
    let timed = p.items.iter().any(|t| {
        ["when", "while", "if", "until", "before", "after", "although", "since", "because", "once", "as"]
            .contains(&t.text.to_lowercase().as_str())
    });
    if p.lower(0) == "please"
        && !formula
        && !timed
        && n >= 4
        && p.commas() == 0
        && p.terminal.text == "."
        && crate::words::base_verb_reading(&p.lower(1))
    {
        let mut out = vec![shape::word("Could"), shape::word("you"), shape::word("please")];
        out.extend_from_slice(&p.items[1..]);
        return Some(shape::build(&out, &Token::new("?", Kind::Punct)));
    }
    None
}

/// "Could you help me with my homework?" <-> "Would you mind helping me with my homework?": a
/// request that opens with a modal, "you" and a bare verb, and the same request asked as whether
/// the listener minds. Not with "please" (it does not sit in "would you mind") or "not"; not
/// "Can you" ("Can you swim?" asks what one is able to do), and not with a clause after the verb
/// ("Could you swim when you were five?").
pub fn would_you_mind(p: &Plain) -> Option<Vec<Token>> {
    if p.terminal.text != "?" || p.lower(1) != "you" || p.items.len() < 3 || p.find("please").is_some() {
        return None;
    }
    let verb = p.lower(2);
    let clause =
        p.items.iter().any(|t| CLAUSE_WORDS.contains(&t.text.to_lowercase().as_str()) && t.text != "to");
    if ["could", "would", "will"].contains(&p.lower(0).as_str())
        && verb != "mind"
        && verb != "not"
        && p.items.len() >= 4
        && !clause
    {
        let lemma = verb_forms(&verb).into_iter().find(|&(_, form)| form == Form::Base).map(|(l, _)| l)?;
        // A bare verb by most of its evidence ("help", "close"), not a word that is mostly a noun,
        // and not a skill or a sense ("Could you imagine living there?" asks no favour).
        // "Would you recommend this place?" asks an opinion, which no "Would you mind" asks.
        const OPINION: &[&str] = &[
            "recommend",
            "suggest",
            "say",
            "prefer",
            "like",
            "rather",
            "think",
            "consider",
            "agree",
            "believe",
            "describe",
            "rate",
            "choose",
            "advise",
            "know",
            "do",
            "go",
            "buy",
            "want",
            "need",
            "expect",
        ];
        if OPINION.contains(&verb.as_str()) {
            return None;
        }
        if (!is_verbish(&verb) && !GO.iter().any(|(w, _)| *w == verb))
            || (ABILITY_VERBS.contains(&verb.as_str()) && !["me", "us"].contains(&p.lower(3).as_str()))
        {
            return None;
        }
        let gerund = morph::inflect(lemma, Pos::Verb, Form::Gerund)?;
        let mut out: Vec<Token> = ["Would", "you", "mind"].map(shape::word).to_vec();
        out.push(shape::word(&gerund));
        out.extend_from_slice(&p.items[3..]);
        return Some(shape::build(&out, &p.terminal));
    }
    if p.lower(0) == "would" && verb == "mind" && p.items.len() >= 4 {
        let gerund = p.lower(3);
        let lemma =
            verb_forms(&gerund).into_iter().find(|&(_, form)| form == Form::Gerund).map(|(l, _)| l)?;
        let base = morph::inflect(lemma, Pos::Verb, Form::Base)?;
        let mut out: Vec<Token> = ["Could", "you"].map(shape::word).to_vec();
        out.push(shape::word(&base));
        out.extend_from_slice(&p.items[4..]);
        return Some(shape::build(&out, &p.terminal));
    }
    None
}

/// Phrasal verbs whose particle may stand before or after a noun object ("turn off the lights" =
/// "turn the lights off"): (verb, particle). A verb of motion with a preposition ("walked up the
/// hill") is not one, which is why the verbs are listed.
const SEPARABLE: &[(&str, &str)] = &[
    ("blow", "down"),
    ("blow", "up"),
    ("bring", "back"),
    ("bring", "up"),
    ("call", "back"),
    ("call", "off"),
    ("clean", "up"),
    ("clean", "out"),
    ("clear", "out"),
    ("clear", "up"),
    ("cut", "down"),
    ("chop", "up"),
    ("cut", "off"),
    ("cut", "up"),
    ("dig", "up"),
    ("drop", "off"),
    ("empty", "out"),
    ("fill", "in"),
    ("fill", "out"),
    ("fill", "up"),
    ("get", "back"),
    ("hang", "up"),
    ("give", "back"),
    ("give", "away"),
    ("hand", "back"),
    ("hand", "in"),
    ("hand", "out"),
    ("heat", "up"),
    ("knock", "down"),
    ("lock", "up"),
    ("look", "up"),
    ("pack", "away"),
    ("pack", "up"),
    ("pay", "back"),
    ("pick", "up"),
    ("plug", "in"),
    ("point", "out"),
    ("pull", "down"),
    ("put", "away"),
    ("put", "back"),
    ("put", "down"),
    ("put", "off"),
    ("put", "on"),
    ("put", "out"),
    ("put", "up"),
    ("send", "back"),
    ("set", "off"),
    ("set", "up"),
    ("shut", "down"),
    ("shut", "off"),
    ("sort", "out"),
    ("switch", "off"),
    ("switch", "on"),
    ("take", "away"),
    ("take", "back"),
    ("take", "down"),
    ("take", "off"),
    ("take", "out"),
    ("tear", "down"),
    ("tear", "up"),
    ("throw", "away"),
    ("throw", "out"),
    ("tidy", "up"),
    ("turn", "down"),
    ("turn", "off"),
    ("turn", "on"),
    ("try", "on"),
    ("turn", "up"),
    ("wake", "up"),
    ("warm", "up"),
    ("wash", "up"),
    ("wash", "out"),
    ("wipe", "down"),
    ("work", "out"),
    ("write", "down"),
];

/// What is put on (clothes, a machine, a show): "put on the table" is a place, and "put on a brave
/// face" an idiom, so "put on" moves its particle round these only.
const PUT_ON: &[&str] = &[
    "coat",
    "jacket",
    "shoes",
    "boots",
    "hat",
    "scarf",
    "gloves",
    "dress",
    "shirt",
    "jumper",
    "sweater",
    "clothes",
    "uniform",
    "glasses",
    "socks",
    "trousers",
    "jeans",
    "suit",
    "tie",
    "pyjamas",
    "seatbelt",
    "apron",
    "helmet",
    "mask",
    "kettle",
    "music",
    "radio",
    "tv",
    "television",
    "light",
    "lights",
    "heating",
    "oven",
    "film",
    "movie",
    "record",
    "song",
    "show",
    "play",
    "washing",
    "dishwasher",
    "fan",
];

/// What is looked up (a fact one finds in a book or online): "looked up the chimney" is a
/// direction, so "look up" moves its particle round these only.
const LOOKED_UP: &[&str] = &[
    "word",
    "words",
    "number",
    "address",
    "recipe",
    "name",
    "meaning",
    "spelling",
    "times",
    "timetable",
    "directions",
    "details",
    "definition",
    "route",
    "postcode",
    "answer",
    "results",
    "forecast",
];

/// Who or what is dropped off (taken somewhere and left): "dropped off the shelf" is a fall, so
/// "drop off" moves its particle round these only.
const DROPPED_OFF: &[&str] = &[
    "kids",
    "children",
    "boys",
    "girls",
    "son",
    "daughter",
    "twins",
    "parcel",
    "package",
    "parcels",
    "keys",
    "car",
    "shopping",
    "bags",
    "suitcase",
    "form",
    "forms",
    "letter",
    "books",
    "clothes",
    "donations",
];

/// What is set off (made to go off): "set off the next morning" is a start, so "set off" moves
/// its particle round these only.
const SET_OFF: &[&str] = &["alarm", "alarms", "fireworks", "firework", "sprinklers", "bomb"];

/// What is blown up (filled with air, or destroyed): "the wind blew up the valley" is a way, so
/// "blow up" moves its particle round these only.
const BLOWN_UP: &[&str] = &[
    "balloon", "balloons", "bridge", "car", "building", "tyre", "tyres", "mattress", "airbed", "photo",
    "picture", "ball", "pool", "lilo",
];

/// What is torn up (ripped into pieces or out of the ground): "tore up the stairs" is running up
/// them, so "tear up" moves its particle round these only.
const TORN_UP: &[&str] = &[
    "letter",
    "letters",
    "paper",
    "papers",
    "photo",
    "photos",
    "contract",
    "ticket",
    "tickets",
    "card",
    "cheque",
    "note",
    "receipt",
    "carpet",
    "floorboards",
    "lawn",
    "map",
    "form",
    "invitation",
    "agreement",
];

/// Separable verbs whose particle moves round only the nouns listed with them.
const NAMED_OBJECTS: &[(&str, &str, &[&str])] = &[
    ("put", "on", PUT_ON),
    ("look", "up", LOOKED_UP),
    ("drop", "off", DROPPED_OFF),
    ("set", "off", SET_OFF),
    ("blow", "up", BLOWN_UP),
    ("tear", "up", TORN_UP),
];

/// Separable verbs with the nouns round which their particle stays put: "gave the game away" (let
/// a secret out) is an idiom, and "gave away the game" reads as losing a match.
/// So are "put up a fight" and "got her breath back"; "pointed out the window" and "cut off the
/// main road" (left it) are ways.
const KEPT_OBJECTS: &[(&str, &str, &[&str])] = &[
    ("give", "away", &["game", "show"]),
    ("put", "up", &["fight", "struggle", "resistance"]),
    ("get", "back", &["breath"]),
    ("point", "out", &["window", "windows", "door", "doors"]),
    ("cut", "off", &["road", "motorway", "path", "lane", "street"]),
];

/// Separable verbs whose particle moves only from after its object to before it: "got back the
/// next morning" is a return, not a thing recovered, so only "got our deposit back", where the
/// noun is plainly the object, is turned round.
const ONE_WAY: &[(&str, &str)] = &[("get", "back")];

/// The forms of the irregular separable verbs, which the lexicon keeps as function words.
const IRREGULAR_FORMS: &[(&str, &str)] = &[
    ("took", "take"),
    ("taken", "take"),
    ("takes", "take"),
    ("taking", "take"),
    ("brought", "bring"),
    ("brings", "bring"),
    ("bringing", "bring"),
    ("gave", "give"),
    ("given", "give"),
    ("gives", "give"),
    ("giving", "give"),
    ("puts", "put"),
    ("putting", "put"),
    ("sets", "set"),
    ("setting", "set"),
    ("blew", "blow"),
    ("blown", "blow"),
    ("threw", "throw"),
    ("thrown", "throw"),
    ("wrote", "write"),
    ("written", "write"),
    ("tore", "tear"),
    ("torn", "tear"),
    ("dug", "dig"),
    ("woke", "wake"),
    ("woken", "wake"),
    ("hung", "hang"),
    ("shuts", "shut"),
    ("got", "get"),
    ("gotten", "get"),
    ("gets", "get"),
    ("getting", "get"),
];

/// The forms of "be" and "get" before a passive participle.
const PASSIVE_AUXILIARIES: &[&str] =
    &["be", "been", "being", "is", "are", "was", "were", "am", "get", "gets", "got", "gotten", "getting"];

/// The verb lemma of a word, the listed irregular forms first.
fn separable_lemma(word: &str) -> Vec<&'static str> {
    if let Some(&(_, lemma)) = IRREGULAR_FORMS.iter().find(|(w, _)| *w == word) {
        return vec![lemma];
    }
    let mut lemmas: Vec<&'static str> = verb_forms(word).into_iter().map(|(l, _)| l).collect();
    if let Some(&(v, _)) = SEPARABLE.iter().find(|(v, _)| *v == word) {
        lemmas.push(v);
    }
    lemmas
}

/// "The wind blew down a tree." <-> "The wind blew a tree down.": the particle of a separable
/// phrasal verb moves round a short noun object (a determiner, at most one modifier, a noun). A
/// pronoun object already stands between ("turn it off"), and one after the particle is not
/// English, so pronouns are left alone.
/// Whether `p.items[at..]` opens with "in" and a place that tells a thing apart: a named place
/// ("the job offer in Manchester") or a room of the house ("the table in the kitchen"). Other
/// places after an object are mostly the doing's ("looked the number up in the phone book",
/// "dropped the parcel off at the post office").
fn placed_after_object(p: &Plain, at: usize) -> bool {
    const ROOMS: &[&str] = &[
        "kitchen", "bathroom", "bedroom", "hall", "hallway", "lounge", "garage", "garden", "loft", "attic",
        "cellar", "office", "shed",
    ];
    let named = p.items.get(at + 1).is_some_and(|t| crate::shape::is_title(&t.text));
    let room = p.lower(at + 1) == "the" && ROOMS.contains(&p.lower(at + 2).as_str());
    p.lower(at) == "in" && (named || room)
}

pub fn move_particle(p: &Plain) -> Option<Vec<Token>> {
    /// Words that open a clause right after a noun ("the money he owed", "the one that broke").
    const OPENS_CLAUSE: &[&str] = &["that", "which", "who", "i", "you", "he", "she", "we", "they"];
    if p.commas() != 0 {
        return None;
    }
    let n = p.items.len();
    // `counted`: a number may open the object as a determiner does ("tried three dresses on"),
    // but only where the particle already follows it: after the particle a number is as often a
    // measure ("woke up three times", "turned up two days after").
    let object_end = |from: usize, counted: bool| -> Option<usize> {
        let opener = p.lower(from);
        let number = counted && SMALL_NUMBERS.contains(&opener.as_str());
        if !NOUN_PHRASE_DETERMINERS.contains(&opener.as_str()) && !number {
            return None;
        }
        // "pointed out that the figures": "that" before a determiner opens a clause.
        if DETERMINERS.contains(&p.lower(from + 1).as_str()) {
            return None;
        }
        // The noun phrase ends at its last noun: "the phone number", never "the phone".
        // A word that is mostly an adjective or an adverb ("fast" in "put out the fire fast") ends
        // no object.
        (from + 2..=(from + 3).min(n)).find(|&end| {
            let last = p.lower(end - 1);
            crate::words::is_noun(&last)
                && crate::words::pos_share(&last, Pos::Adj) + crate::words::pos_share(&last, Pos::Adv) < 0.5
                && !crate::words::is_noun(&p.lower(end))
        })
    };
    for k in 1..n.saturating_sub(2) {
        // "replace the switch on my hairdryer": after a determiner the word is a noun.
        if DETERMINERS.contains(&p.lower(k - 1).as_str()) {
            continue;
        }
        // "asked to be taken off the late shifts": after a passive the noun is no object but
        // what the subject is moved off, so the particle is a preposition and stays put.
        let verb = p.lower(k);
        if PASSIVE_AUXILIARIES.contains(&p.lower(k - 1).as_str()) && !verb.ends_with("ing") {
            continue;
        }
        // "washing the clothes by hand in the sink": after a preposition the word is a noun, not
        // a verb (an infinitive's "to", and "before handing", are verbs).
        let before = p.lower(k - 1);
        if PREPOSITIONS.contains(&before.as_str()) && before != "to" && !verb.ends_with("ing") {
            continue;
        }
        let lemmas = separable_lemma(&verb);
        let separable = |particle: &str| lemmas.iter().any(|l| SEPARABLE.contains(&(*l, particle)));
        let one_way = |particle: &str| lemmas.iter().any(|l| ONE_WAY.contains(&(*l, particle)));
        // "put on" only round a thing one puts on (`PUT_ON`), and the like (`NAMED_OBJECTS`),
        // whose last word is `end - 1`.
        let fits = |particle: &str, end: usize| {
            let last = p.lower(end - 1);
            NAMED_OBJECTS
                .iter()
                .filter(|&&(v, q, _)| q == particle && lemmas.contains(&v))
                .all(|(_, _, nouns)| nouns.contains(&last.as_str()))
                && !KEPT_OBJECTS.iter().any(|&(v, q, nouns)| {
                    q == particle && lemmas.contains(&v) && nouns.contains(&last.as_str())
                })
        };
        // "put on his coat and left": an "and" before a past verb that is no noun opens the next
        // clause, not a second object ("the popcorn and drinks").
        let clause_and = |j: usize| {
            let next = p.lower(j + 1);
            p.lower(j) == "and" && crate::words::heads_clause(&next) && !crate::words::is_noun(&next)
        };
        // verb + particle + object -> verb + object + particle
        let particle = p.lower(k + 1);
        // "take the lasagne out of the oven": "out of" is a preposition, not a particle. "The plane
        // took off an hour late": a length with a time after it is no object.
        if separable(&particle)
            && !one_way(&particle)
            && let Some(end) = object_end(k + 2, false)
            && !(end < n
                && ["late", "early", "later", "earlier", "ago", "behind"].contains(&p.lower(end).as_str()))
            // "picked up a few words of Greek": the object goes on after "of", and the particle
            // would split it.
            && !(end < n && p.lower(end) == "of")
            // "woke up this morning": a time is no object.
            && !crate::words::TIME_NOUNS.contains(&p.lower(end - 1).as_str())
            // "paid back the money he owed": a clause after the object is the object's.
            && !(end < n && OPENS_CLAUSE.contains(&p.lower(end).as_str()))
            // "pick up the popcorn and drinks", "throw away the letter from the council": a list
            // or a phrase after the object is the object's, which the particle would split.
            && !(end < n
                && ((["and", "or"].contains(&p.lower(end).as_str()) && !clause_and(end))
                    || (["from", "of", "about", "for", "with"].contains(&p.lower(end).as_str())
                        && DETERMINERS.contains(&p.lower(end + 1).as_str()))))
            && fits(&particle, end)
            // "put up a fence higher than two metres", "put up a sign asking for coats": a
            // comparison or an "-ing" phrase after the object is the object's too.
            && !(end < n && (p.lower(end).ends_with("ing") || p.lower(end + 1) == "than"))
            // "hand the claims in through the portal", "in within a fortnight": the particle
            // before a preposition of way or span reads as one direction with it, or twice "in".
            && !(end < n && ["through", "within", "into", "onto", "to"].contains(&p.lower(end).as_str()))
            // "When Tom turned up the party had already begun": a noun phrase before a finite verb
            // is the next clause's subject, no object.
            && !(end < n && crate::words::heads_clause(&p.lower(end)))
            // "turned down the job offer in Manchester", "wiped down the table in the kitchen": a
            // place after the object may say which it is, and the particle would part them.
            && !(end < n && placed_after_object(p, end))
        {
            let mut out: Vec<Token> = p.items[..=k].to_vec();
            out.extend_from_slice(&p.items[k + 2..end]);
            out.push(p.items[k + 1].clone());
            out.extend_from_slice(&p.items[end..]);
            return Some(shape::build(&out, &p.terminal));
        }
        // "took the day off work": "off work" is a place, not the particle of "take off"; a time
        // after the particle is none.
        let placed_after = |j: usize| {
            let w = p.lower(j);
            j < n
                && crate::words::is_noun(&w)
                && !crate::words::TIME_NOUNS.contains(&w.as_str())
                && !["yesterday", "today", "tonight", "tomorrow", "again", "now"].contains(&w.as_str())
        };
        // A second particle standing alone ("back in when you get home") or any after "back"
        // ("back up the stairs") is an adverb of its own; "pick the kids up on Saturday" and
        // "pay the loan back in the spring" have a time after it, which may follow either order.
        let directed = |end: usize| {
            let second = p.lower(end + 1);
            let after = p.lower(end + 2);
            let time = |w: &str| crate::words::TIME_NOUNS.contains(&w) || crate::words::MONTHS.contains(&w);
            let timed = time(&after) || (DETERMINERS.contains(&after.as_str()) && time(&p.lower(end + 3)));
            let particle = SEPARABLE.iter().any(|&(_, q)| q == second)
                || ["over", "round", "around", "through", "along"].contains(&second.as_str());
            let alone = end + 2 >= n
                || CLAUSE_WORDS.contains(&after.as_str())
                || ["once", "as"].contains(&after.as_str());
            ["to", "from", "into", "home", "here", "there", "inside", "outside"].contains(&second.as_str())
                || (particle && !timed && (alone || p.lower(end) == "back"))
        };
        let governs = |j: usize| {
            let measure = ["bit", "little", "lot", "touch", "notch"].contains(&p.lower(j + 1).as_str())
                || crate::words::TIME_NOUNS.contains(&p.lower(j + 1).as_str());
            DETERMINERS.contains(&p.lower(j).as_str()) && !measure
        };
        // verb + object + particle -> verb + particle + object
        if let Some(end) = object_end(k + 1, true)
            && end < n
            && separable(&p.lower(end))
            && fits(&p.lower(end), end)
            && p.lower(end + 1) != "of"
            && !placed_after(end + 1)
            // "tried the interval session on the track": a word before a determiner governs the
            // noun phrase after it, a preposition, not the verb's particle; a degree or a length
            // after it ("turn the music down a bit", "took the shoes back a month ago") is none.
            && !governs(end + 1)
            // "take a taxi back to the station", "bring the bins back in": a way somewhere or a
            // second particle after the first makes the pair one direction, which the particle
            // alone cannot carry ("bring back the bins in").
            && !directed(end)
            // "taking the afternoon off": time off is said so, and "taking off the afternoon"
            // reads as removing it.
            && !crate::words::TIME_NOUNS.contains(&p.lower(end - 1).as_str())
        {
            let mut out: Vec<Token> = p.items[..=k].to_vec();
            out.push(p.items[end].clone());
            out.extend_from_slice(&p.items[k + 1..end]);
            out.extend_from_slice(&p.items[end + 1..]);
            return Some(shape::build(&out, &p.terminal));
        }
    }
    None
}

/// "How much does a bus pass cost?" <-> "What does a bus pass cost?": two ways to ask a price.
pub fn asking_the_price(p: &Plain) -> Option<Vec<Token>> {
    let n = p.items.len();
    if p.terminal.text != "?" || p.commas() != 0 || p.lower(n - 1) != "cost" {
        return None;
    }
    let (drop, add): (usize, &[&str]) = match (p.lower(0).as_str(), p.lower(1).as_str()) {
        ("how", "much") => (2, &["What"]),
        ("what", _) => (1, &["How", "much"]),
        _ => return None,
    };
    if !["does", "do", "did", "will", "would"].contains(&p.lower(drop).as_str()) || n < drop + 3 {
        return None;
    }
    let mut out: Vec<Token> = add.iter().map(|w| shape::word(w)).collect();
    out.extend_from_slice(&p.items[drop..]);
    Some(shape::build(&out, &p.terminal))
}

/// The forms of "take" and "go", in step: "takes the bus to" is "goes to ... by bus".
const TAKE_GO: &[(&str, &str)] =
    &[("take", "go"), ("takes", "goes"), ("took", "went"), ("taken", "gone"), ("taking", "going")];
/// Means of transport that one takes and goes by, with the article one takes them with.
const VEHICLES: &[(&str, &str)] = &[
    ("bus", "the"),
    ("train", "the"),
    ("tube", "the"),
    ("ferry", "the"),
    ("tram", "the"),
    ("underground", "the"),
    ("subway", "the"),
    ("metro", "the"),
    ("coach", "the"),
    ("taxi", "a"),
    ("cab", "a"),
];

/// "Most of the staff take the train to work." <-> "Most of the staff go to work by train.": the
/// destination, one to four words, ends the sentence, so nothing else comes between.
pub fn by_vehicle(p: &Plain) -> Option<Vec<Token>> {
    if p.commas() != 0 {
        return None;
    }
    let n = p.items.len();
    let vehicle = |w: &str| VEHICLES.iter().find(|(v, _)| *v == w).copied();
    // A place after "to", not a verb ("to see his mother"): a determiner, a name, or a place noun.
    let place = |k: usize| {
        let w = p.lower(k);
        ARTICLES.contains(&w.as_str())
            || PERSONAL_POSSESSIVES.contains(&w.as_str())
            || ["work", "school", "town", "church", "college", "university", "hospital", "the"]
                .contains(&w.as_str())
            || p.items.get(k).is_some_and(|t| t.text.starts_with(|c: char| c.is_ascii_uppercase()))
    };
    for k in 1..n.saturating_sub(3) {
        let word = p.lower(k);
        // take + the/a + vehicle + to + destination
        if let Some(&(_, go)) = TAKE_GO.iter().find(|(t, _)| *t == word)
            && ["the", "a"].contains(&p.lower(k + 1).as_str())
            && let Some((v, _)) = vehicle(&p.lower(k + 2))
            && p.lower(k + 3) == "to"
            && place(k + 4)
            && (2..=5).contains(&(n - (k + 3)))
            && p.items[k + 4..].iter().all(|t| !CLAUSE_WORDS.contains(&t.text.to_lowercase().as_str()))
            // "taking the train to Paris instead": what "instead" sets against the others is the
            // vehicle, which at the end it would no longer follow.
            && p.items[k + 4..].iter().all(|t| !["instead", "too", "also", "either"].contains(&t.text.to_lowercase().as_str()))
        {
            let mut out: Vec<Token> = p.items[..k].to_vec();
            out.push(shape::word_like(&p.items[k].text, go));
            out.extend_from_slice(&p.items[k + 3..]);
            out.extend([shape::word("by"), shape::word(v)]);
            return Some(shape::build(&out, &p.terminal));
        }
        // go + to + destination + by + vehicle
        if let Some(&(take, _)) = TAKE_GO.iter().find(|(_, g)| *g == word)
            && p.lower(k + 1) == "to"
            && place(k + 2)
            && n >= k + 5
            && p.lower(n - 2) == "by"
            && let Some((v, article)) = vehicle(&p.lower(n - 1))
            && (1..=4).contains(&(n - 2 - (k + 2)))
            && p.items[k + 2..n - 2].iter().all(|t| !CLAUSE_WORDS.contains(&t.text.to_lowercase().as_str()))
        {
            let mut out: Vec<Token> = p.items[..k].to_vec();
            out.push(shape::word_like(&p.items[k].text, take));
            out.extend([shape::word(article), shape::word(v)]);
            out.extend_from_slice(&p.items[k + 1..n - 2]);
            return Some(shape::build(&out, &p.terminal));
        }
    }
    None
}

/// Nouns that make "have" an action rather than a possession ("has breakfast", "had a shower"),
/// where "has got" would be wrong.
const HAVE_ACTIONS: &[&str] = &[
    "breakfast",
    "lunch",
    "dinner",
    "supper",
    "meal",
    "snack",
    "shower",
    "bath",
    "party",
    "look",
    "go",
    "rest",
    "break",
    "baby",
    "drink",
    "chat",
    "word",
    "walk",
    "swim",
    "nap",
    "fun",
    "try",
    "meeting",
    "holiday",
    "time",
    "day",
    "dream",
    "argument",
    "fight",
    "talk",
    "game",
    "lesson",
    "class",
    "think",
    "accident",
    "operation",
    "ride",
    "barbecue",
    "picnic",
    "coffee",
    "tea",
    "cup",
    "glass",
    "bite",
    "haircut",
    "wash",
    "seat",
    "guess",
    "laugh",
    "effect",
    "impact",
    "influence",
    "chance",
    "trouble",
];

const QUANTITIES: &[&str] = &["lots", "plenty", "hundreds", "thousands", "millions", "no", "two", "three"];

/// A last resort for "have" of possession: "She has a good sense of humour." -> "She has got a
/// good sense of humour."
pub fn have_got(p: &Plain) -> Option<Vec<Token>> {
    if p.commas() != 0 || p.terminal.text != "." {
        return None;
    }
    let (k, _) = subject(p)?;
    let object = p.lower(k + 1);
    let owns = ["has", "have"].contains(&p.lower(k).as_str())
        && (NOUN_PHRASE_DETERMINERS.contains(&object.as_str()) || QUANTITIES.contains(&object.as_str()))
        && !p.items[k + 1..].iter().any(|t| HAVE_ACTIONS.contains(&t.text.to_lowercase().as_str()));
    if !owns {
        return None;
    }
    let mut out: Vec<Token> = p.items[..=k].to_vec();
    out.push(shape::word("got"));
    out.extend_from_slice(&p.items[k + 1..]);
    Some(shape::build(&out, &p.terminal))
}

#[cfg(test)]
mod vehicle_tests {
    use super::*;
    use crate::shape::apply as run;
    use crate::tokens::{join, tokenize};

    #[test]
    fn a_request_is_asked_as_whether_one_minds() {
        let f = would_you_mind;
        assert_eq!(
            run(f, "Could you help me with my homework?").as_deref(),
            Some("Would you mind helping me with my homework?")
        );
        assert_eq!(
            run(f, "Would you mind closing the window?").as_deref(),
            Some("Could you close the window?")
        );
        assert_eq!(run(f, "Could you pass the salt, please?"), None);
        assert_eq!(run(f, "Can you not shout?"), None);
        assert_eq!(run(f, "Can you swim?"), None);
        assert_eq!(run(f, "Could you swim when you were five?"), None);
    }

    #[test]
    fn a_particle_stays_where_it_is_not_the_verb_s_alone() {
        let f = move_particle;
        // The noun phrase is the next clause's subject.
        assert_eq!(run(f, "When Tom turned up the party had already begun."), None);
        // A place after the object may be the object's; a time is the doing's.
        assert_eq!(run(f, "He turned down the job offer in Manchester."), None);
        assert_eq!(
            run(f, "Could you pick up the kids at three?").as_deref(),
            Some("Could you pick the kids up at three?")
        );
        // A second particle makes one direction with the first.
        assert_eq!(run(f, "Could you bring the bins back in when you get home?"), None);
        assert_eq!(run(f, "Could you bring the chairs back over here?"), None);
        assert_eq!(
            run(f, "Could you pick the kids up on Saturday?").as_deref(),
            Some("Could you pick up the kids on Saturday?")
        );
        assert_eq!(
            run(f, "Could you give the money back on Friday?").as_deref(),
            Some("Could you give back the money on Friday?")
        );
        assert_eq!(
            run(f, "I will pay the loan back in the spring.").as_deref(),
            Some("I will pay back the loan in the spring.")
        );
        // After a passive the particle is a preposition.
        assert_eq!(run(f, "Sam has asked to be taken off the late shifts because of college."), None);
        // Time off is said so.
        assert_eq!(run(f, "I am taking the afternoon off for my hospital appointment."), None);
        assert_eq!(
            run(f, "I am taking the bins out for my neighbour.").as_deref(),
            Some("I am taking out the bins for my neighbour.")
        );
    }

    #[test]
    fn negation_said_with_the_negative_adjective() {
        let all = |text: &str| join(&rewrite(tokenize(text), &mut Sites::new(crate::sites::Which::All)));
        assert_eq!(all("It is not possible to park here."), "It is impossible to park here.");
        assert_eq!(all("She was unhappy with the result."), "She was not happy with the result.");
        assert_eq!(all("I am not very sure."), "I am not really sure.");
        assert_eq!(all("Nobody answered the phone."), "No one answered the phone.");
        assert_eq!(all("There is not any milk left."), "There is no milk left.");
        assert_eq!(all("The jacket was too small."), "The jacket was not big enough.");
        assert_eq!(all("She is too young to drive."), "She is not old enough to drive.");
        assert_eq!(all("The room is not big enough for us."), "The room is too small for us.");
        // "not short enough" is the marked end of the scale.
        assert_eq!(all("The queue was too long."), "The queue was too long.");
        assert_eq!(all("The film was too short."), "The film was not long enough.");
        assert_eq!(all("I am not sure I'll finish on time."), "I am not sure I'll finish on time.");
        assert_eq!(all("We are not sure yet."), "We are not sure yet.");
        assert!(all("I am not sure whether it is open.").starts_with("I am unsure"));
        assert_eq!(all("It was too cold and wet."), "It was too cold and wet.");
        assert_eq!(all("He cut my hair too short."), "He cut my hair too short.");
        assert_eq!(all("We invited all the neighbours."), "We invited all of the neighbours.");
        assert_eq!(all("Both of my parents work."), "Both my parents work.");
        let text = "I really enjoyed singing with you all this evening.";
        assert_eq!(all(text), "I really enjoyed singing with you all this evening.");
        assert_eq!(all("We asked them all the questions."), "We asked them all the questions.");
        assert_eq!(all("I will tell you both the news."), "I will tell you both the news.");
        // Idioms, and no determiner.
        assert_eq!(all("He walked all the way home."), "He walked all the way home.");
        assert_eq!(all("I love all of them."), "I love all of them.");
        assert_eq!(all("We rented a car for the whole week."), "We rented a car for the whole week.");
    }

    #[test]
    fn a_word_before_a_noun_phrase_is_a_preposition() {
        assert_eq!(run(move_particle, "Has anyone tried the interval session on the track yet?"), None);
        assert_eq!(
            run(move_particle, "She tried the red dress on.").as_deref(),
            Some("She tried on the red dress.")
        );
        assert_eq!(
            run(move_particle, "Could you turn the music down a bit?").as_deref(),
            Some("Could you turn down the music a bit?")
        );
    }

    #[test]
    fn a_particle_moves_round_its_object() {
        let f = move_particle;
        assert_eq!(run(f, "The wind blew down a tree.").as_deref(), Some("The wind blew a tree down."));
        assert_eq!(run(f, "The firefighters put out the fire fast."), None);
        assert_eq!(run(f, "I'll pick up the popcorn and drinks."), None);
        assert_eq!(run(f, "Please don't throw away the letter from the council."), None);
        assert_eq!(run(f, "They replaced the switch on my hairdryer."), None);
        assert_eq!(run(f, "We had to take a taxi back to the station."), None);
        assert_eq!(run(f, "Please turn the lights off.").as_deref(), Some("Please turn off the lights."));
        assert_eq!(
            run(f, "She picked up the kids from school.").as_deref(),
            Some("She picked the kids up from school.")
        );
        assert_eq!(run(f, "We walked up the hill."), None);
        assert_eq!(run(f, "She picked up a few words of Greek on holiday."), None);
        assert_eq!(run(f, "He paid back the money he owed."), None);
        assert_eq!(run(f, "I've had a headache since I woke up this morning."), None);
        assert_eq!(run(f, "He wrote down the phone number."), Some("He wrote the phone number down.".into()));
        assert_eq!(run(f, "Take the lasagne out of the oven."), None);
        assert_eq!(run(f, "Turn it off."), None);
    }

    #[test]
    fn more_separable_verbs_move_their_particle() {
        let f = move_particle;
        let moved = |text: &str| run(f, text);
        assert_eq!(
            moved("The audiologist cleaned out some wax before starting the test.").as_deref(),
            Some("The audiologist cleaned some wax out before starting the test.")
        );
        assert_eq!(moved("We got our full deposit back.").as_deref(), Some("We got back our full deposit."));
        // "get back" is also a return: only the plain object before the particle is turned round.
        assert_eq!(moved("We got back the next morning."), None);
        assert_eq!(moved("She got back the same way."), None);
        assert_eq!(moved("Please take the battery out of the smoke alarm."), None);
        assert_eq!(
            moved("I looked up the number in the phone book.").as_deref(),
            Some("I looked the number up in the phone book.")
        );
        assert_eq!(moved("The cat looked up the chimney."), None);
        assert_eq!(
            moved("I dropped off the kids at school.").as_deref(),
            Some("I dropped the kids off at school.")
        );
        assert_eq!(moved("The book dropped off the shelf."), None);
        assert_eq!(moved("She picked it up."), None);
        assert_eq!(moved("She picked up the parcel that had been left at the post office."), None);
        assert_eq!(moved("He ran up the hill before breakfast."), None);
        // A number opens an object only where the particle already follows it.
        assert_eq!(moved("She tried three dresses on.").as_deref(), Some("She tried on three dresses."));
        assert_eq!(moved("The baby woke up three times last night."), None);
        assert_eq!(moved("The parcel turned up two days after the party."), None);
        assert_eq!(moved("She pointed out that the figures did not add up."), None);
        assert_eq!(moved("I washed the clothes by hand in the sink."), None);
        assert_eq!(
            moved("Could you hand in the forms today?").as_deref(),
            Some("Could you hand the forms in today?")
        );
        assert_eq!(moved("I nearly gave the game away."), None);
        assert_eq!(moved("She gave away the old sofa.").as_deref(), Some("She gave the old sofa away."));
        assert_eq!(
            moved("He put on his coat and went outside.").as_deref(),
            Some("He put his coat on and went outside.")
        );
        assert_eq!(moved("I'll pick up the popcorn and drinks."), None);
        assert_eq!(
            moved("The steam from the shower sets off the alarm nearly every morning.").as_deref(),
            Some("The steam from the shower sets the alarm off nearly every morning.")
        );
        assert_eq!(moved("We set off the next morning."), None);
        assert_eq!(moved("We set off the motorway at junction four."), None);
        assert_eq!(
            moved("The new landlord wants to put the rent up by fifty pounds.").as_deref(),
            Some("The new landlord wants to put up the rent by fifty pounds.")
        );
        assert_eq!(moved("The cat put up a fight."), None);
        assert_eq!(moved("She pointed out the window at the bird."), None);
        assert_eq!(moved("She pointed out the mistake.").as_deref(), Some("She pointed the mistake out."));
        assert_eq!(moved("The wind blew up the valley."), None);
        assert_eq!(moved("We blew up the balloons.").as_deref(), Some("We blew the balloons up."));
        assert_eq!(moved("He tore up the stairs."), None);
        assert_eq!(moved("He tore up the letter.").as_deref(), Some("He tore the letter up."));
        assert_eq!(moved("She got her breath back."), None);
        assert_eq!(moved("We cut off the main road onto a farm track."), None);
        assert_eq!(moved("She cut off the crusts.").as_deref(), Some("She cut the crusts off."));
        assert_eq!(moved("Is it allowed to put up a fence higher than two metres?"), None);
        assert_eq!(moved("Could we put up a sign asking for winter coats?"), None);
        assert_eq!(moved("Students must hand in their assignments through the online portal."), None);
        assert_eq!(
            moved("Students must hand in their assignments by Friday.").as_deref(),
            Some("Students must hand their assignments in by Friday.")
        );
        assert_eq!(
            moved("Could we put up a sign in the window?").as_deref(),
            Some("Could we put a sign up in the window?")
        );
    }

    #[test]
    fn a_price_asked_two_ways() {
        let f = asking_the_price;
        assert_eq!(
            run(f, "How much does a monthly bus pass cost?").as_deref(),
            Some("What does a monthly bus pass cost?")
        );
        assert_eq!(run(f, "What will the repair cost?").as_deref(), Some("How much will the repair cost?"));
        assert_eq!(run(f, "How much do you know?"), None);
    }

    #[test]
    fn taking_a_vehicle_is_going_by_it() {
        let f = by_vehicle;
        assert_eq!(
            run(f, "Most of the staff take the train to work.").as_deref(),
            Some("Most of the staff go to work by train.")
        );
        assert_eq!(
            run(f, "We took a taxi to the station.").as_deref(),
            Some("We went to the station by taxi.")
        );
        assert_eq!(run(f, "She goes to school by bus.").as_deref(), Some("She takes the bus to school."));
        // The destination does not end the sentence, or something else follows "to".
        assert_eq!(run(f, "We took the bus to the station and walked home."), None);
        assert_eq!(run(f, "He took the train to see his mother."), None);
        assert_eq!(run(f, "We ended up taking the train to Paris instead."), None);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::apply as run;
    use crate::shape::plain;
    use crate::tokens::{join, tokenize};

    fn rewritten(text: &str) -> String {
        join(&rewrite(tokenize(text), &mut crate::sites::Sites::new(crate::sites::Which::All)))
    }

    fn polite(text: &str) -> Option<String> {
        please(&plain(&tokenize(text))?).map(|t| join(&t))
    }

    fn asked(text: &str) -> Option<String> {
        please_asked(&plain(&tokenize(text))?).map(|t| join(&t))
    }

    #[test]
    fn a_clause_may_open_with_that() {
        assert_eq!(rewritten("I finished the book you lent me."), "I finished the book that you lent me.");
        assert_eq!(
            rewritten("She makes the best pancakes I have ever tasted."),
            "She makes the best pancakes that I have ever tasted."
        );
        // Another clause before the noun, a preposition, an aside, or a noun of what is told.
        for text in [
            "When I met the man he was old.",
            "After the meeting we went home.",
            "I finished the report I think.",
            "We heard the news we had won.",
        ] {
            assert_eq!(rewritten(text), text);
        }
        // A subject that a determiner opens, with a finite verb after it.
        assert_eq!(
            rewritten("I hope the weather clears up soon."),
            "I hope that the weather clears up soon."
        );
        assert_eq!(
            rewritten("I hope the weather forecast is wrong."),
            "I hope that the weather forecast is wrong."
        );
        assert_eq!(rewritten("She noticed the car parked outside."), "She noticed the car parked outside.");
    }

    #[test]
    fn a_passive_return_is_never_come_back() {
        assert_eq!(
            rewritten("My wallet was returned to the lost property office at the station."),
            "My wallet was returned to the lost property office at the station."
        );
        assert!(!rewritten("The parcel got quickly returned to the sender.").contains("come back"));
        // Not a passive: the traveller came back.
        assert_eq!(rewritten("She returned home."), "She came back home.");
    }

    #[test]
    fn a_request_with_a_comma_is_not_asked() {
        assert_eq!(asked("Please keep it a secret, she doesn't know yet."), None);
        assert_eq!(asked("Please keep it a secret.").as_deref(), Some("Could you please keep it a secret?"));
    }

    #[test]
    fn fifteenth_round_rewrites_refused_where_readers_found_them_wrong() {
        for (text, kept) in [
            // A birth, and a delivery still to come, arrive; they do not turn up.
            ("We will send the thank-you cards after the baby arrives.", "arrives"),
            ("It arrives on Friday.", "arrives"),
            ("Please sign for the parcel when it arrives.", "arrives"),
            // "whenever" left to one's choice is "at any time".
            ("Feel free to come whenever you like.", "whenever"),
            ("Call us whenever it suits you.", "whenever"),
            ("Start whenever you are ready.", "whenever"),
            ("We loved every minute of it.", "every"),
            ("She remembered every word.", "every"),
            ("He could not sit still for more than a few seconds.", "more than"),
            ("Nobody wants to work on a Sunday.", "wants"),
            ("They want to build a new road.", "want"),
            ("She wants a new bike.", "wants"),
            ("The neighbours complained about the noise.", "complained"),
        ] {
            assert!(rewritten(text).contains(kept), "{text}");
        }
        // Still changed: a past arrival, a habit of "whenever", each of several things, a count
        // of units, and the speaker's own wish.
        assert_eq!(rewritten("He arrived late."), "He turned up late.");
        assert_eq!(rewritten("He always arrives late."), "He always turns up late.");
        assert_eq!(rewritten("It rattles whenever it drains."), "It rattles every time it drains.");
        assert_eq!(rewritten("Every student got a badge."), "Each student got a badge.");
        assert_eq!(rewritten("It took more than two hours."), "It took over two hours.");
        assert_eq!(rewritten("I want to book a table."), "I would like to book a table.");
    }

    #[test]
    fn only_work_handed_in_is_submitted() {
        assert!(!rewritten("I've been washing the baby's clothes by hand in the sink.").contains("submit"));
        assert!(!rewritten("The dog warden said nobody had handed in a spaniel today.").contains("submit"));
        assert!(rewritten("You need to hand in your essay by Friday.").contains("submit your essay"));
        assert!(rewritten("She handed in her notice yesterday.").contains("submitted her notice"));
        assert!(!rewritten("Please submit your meter reading by the end of the month.").contains("hand"));
        assert!(rewritten("Please submit your essay by Friday.").contains("hand in your essay"));
    }

    #[test]
    fn conditions_appearances_matters_and_acts_just_done() {
        assert_eq!(
            rewritten("I would be grateful if you could help."),
            "I would be grateful if you were able to help."
        );
        // No "would", or an indirect question: stays.
        assert_eq!(rewritten("If you could help, call me."), "If you could help, call me.");
        assert_eq!(rewritten("I'd wonder if you could help."), "I'd wonder whether you could help.");
        assert_eq!(rewritten("It does not seem to work."), "It does not appear to work.");
        assert_eq!(rewritten("She appeared to be asleep."), "She seemed to be asleep.");
        assert_eq!(rewritten("We will look into your complaint."), "We will investigate your complaint.");
        assert_eq!(rewritten("She looked into his eyes."), "She looked into his eyes.");
        assert_eq!(rewritten("My son just started school."), "My son has just started school.");
        assert_eq!(rewritten("They just left."), "They have just left.");
        // A past time named, a "just" that is "only", or a question: stays.
        for text in [
            "I just finished it yesterday.",
            "I just wanted to say thanks.",
            "Did you just finish?",
            "My friends just finished at six.",
        ] {
            assert_eq!(rewritten(text), text);
        }
    }

    #[test]
    fn email_phrases_looking_forward_suiting_approving_complaining() {
        // "He's looking forward to Christmas" is one coming event, which "looks forward" makes a habit.
        assert_eq!(rewritten("I am looking forward to it."), "I am looking forward to it.");
        assert_eq!(rewritten("Are you looking forward to it?"), "Are you looking forward to it?");
        assert_eq!(rewritten("Let me know if Tuesday works for you."), "Let me know if Tuesday suits you.");
        // A thing that works is no time that suits.
        assert_eq!(rewritten("The app works for me."), "The app works for me.");
        assert_eq!(rewritten("She works for a bank."), "She works for a bank.");
        assert_eq!(rewritten("They will sign off on the budget."), "They will approve the budget.");
        assert_eq!(
            rewritten("I am writing to complain about the noise."),
            "I am writing to make a complaint about the noise."
        );
    }

    #[test]
    fn complaints_disappointments_things_seen_and_plans() {
        assert_eq!(rewritten("I complained about the lamp."), "I complained about the lamp.");
        assert_eq!(rewritten("Residents complained about it."), "Residents complained about it.");
        assert_eq!(rewritten("The man complained about it."), "The man complained about it.");
        assert_eq!(rewritten("We were disappointed with the food."), "We were disappointed by the food.");
        assert_eq!(rewritten("I was disappointed with myself."), "I was disappointed with myself.");
        assert_eq!(rewritten("Did you see the news about it?"), "Have you seen the news about it?");
        // A time of its own, or a thing not a message: stays.
        assert_eq!(rewritten("Did you see the news last night?"), "Did you see the news last night?");
        assert_eq!(rewritten("Did you see the match?"), "Did you see the match?");
        assert_eq!(
            rewritten("The council is planning to build a library."),
            "The council plans to build a library."
        );
        assert_eq!(rewritten("Is he planning to come?"), "Is he planning to come?");
        assert_eq!(
            rewritten("The mechanic said the brakes need to be replaced."),
            "The mechanic said that the brakes need to be replaced."
        );
    }

    #[test]
    fn a_start_told_with_an_infinitive_before_an_adverb() {
        assert_eq!(
            rewritten("The snow started falling just as we left."),
            "The snow started to fall just as we left."
        );
        assert_eq!(rewritten("It began raining heavily."), "It began to rain heavily.");
    }

    #[test]
    fn seasons_through_and_events_gone_to() {
        assert_eq!(rewritten("They trained all summer."), "They trained the whole summer.");
        assert_eq!(rewritten("It rained the whole winter."), "It rained all winter.");
        assert_eq!(rewritten("I haven't practised all week."), "I haven't practised all week.");
        assert_eq!(rewritten("I didn't sleep the whole night."), "I didn't sleep the whole night.");
        assert_eq!(rewritten("It stays light all summer long."), "It stays light all summer long.");
        assert_eq!(rewritten("We bought all summer clothes."), "We bought all summer clothes.");
        assert_eq!(
            rewritten("Hundreds attended the summer festival."),
            "Hundreds went to the summer festival."
        );
        assert_eq!(rewritten("The nurse attended the patient."), "The nurse attended the patient.");
    }

    #[test]
    fn keeps_on_that_amends_debts_and_likings() {
        assert_eq!(rewritten("The website keeps crashing."), "The website keeps on crashing.");
        assert_eq!(rewritten("I keep on forgetting it."), "I keep forgetting it.");
        // A passive's "keep", and an "-ing" noun, stay.
        assert_eq!(rewritten("I was kept waiting."), "I was kept waiting.");
        assert_eq!(rewritten("We keep clothing in the loft."), "We keep clothing in the loft.");
        assert_eq!(rewritten("I'm sorry I missed your call."), "I'm sorry that I missed your call.");
        assert_eq!(rewritten("We were glad that they came."), "We were glad they came.");
        assert_eq!(rewritten("She called to say that she was fine."), "She called to say she was fine.");
        // No clause after it, or no "be" before it.
        assert_eq!(rewritten("I'm sorry about the delay."), "I'm sorry about the delay.");
        assert_eq!(rewritten("It is a sure sign of rain."), "It is a sure sign of rain.");
        // "afraid of" keeps its own rule, after any word.
        assert_eq!(rewritten("Children afraid of the dark."), "Children scared of the dark.");
        assert_eq!(rewritten("Say the word."), "Say the word.");
        assert_eq!(rewritten("It made up for the delay."), "It compensated for the delay.");
        assert_eq!(rewritten("She made up a story."), "She made up a story.");
        assert_eq!(rewritten("He promised to pay me back."), "He promised to repay me.");
        assert_eq!(rewritten("They paid back the loan."), "They repaid the loan.");
        assert_eq!(rewritten("They paid her back wages."), "They paid her back wages.");
        assert_eq!(rewritten("I really like it."), "I like it a lot.");
        assert_eq!(rewritten("I don't really like it."), "I don't really like it.");
        assert_eq!(rewritten("I really like it here."), "I really like it here.");
    }

    #[test]
    fn an_obligation_agrees_with_its_subject() {
        assert_eq!(rewritten("Students must wear a helmet."), "Students have to wear a helmet.");
        assert_eq!(rewritten("She must wear a uniform."), "She has to wear a uniform.");
        assert_eq!(
            rewritten("The report must be finished by Friday."),
            "The report has to be finished by Friday."
        );
        // Guesses, prohibitions and a subject past a preposition stay.
        for text in [
            "They must live nearby.",
            "He must earn a lot.",
            "It must be broken.",
            "The cake must be done by now.",
            "The children must not play in the road.",
            "The list of students must be sent to the office.",
        ] {
            assert_eq!(rewritten(text), text);
        }
    }

    #[test]
    fn every_verb_that_loses_its_that_is_a_reporting_one() {
        // A clause with no "that" after a verb the moves do not know would let a phrase at its end
        // be moved as the sentence's ("Due to high winds, the captain announced we would skip").
        for words in that_clause_rows() {
            assert!(
                crate::syntax::REPORTING.contains(&words[0])
                    || FEELINGS.contains(&words[0])
                    || words[0] == "found",
                "{words:?}"
            );
        }
        assert_eq!(rewritten("I wish I had more time to read."), "I wish that I had more time to read.");
        assert_eq!(
            rewritten("The pilot announced that the flight had been cancelled."),
            "The pilot announced the flight had been cancelled."
        );
        for text in ["I wish you luck.", "I felt the ground shake.", "I remember that day."] {
            assert_eq!(rewritten(text), text);
        }
    }

    #[test]
    fn a_relative_clause_in_the_subject_and_which_told_with_that() {
        // The subject's own relative clause, when a verb of the sentence follows it.
        assert_eq!(
            rewritten("The umbrella I bought in Brighton was broken."),
            "The umbrella that I bought in Brighton was broken."
        );
        assert_eq!(
            rewritten("The restaurant we booked was full."),
            "The restaurant that we booked was full."
        );
        assert_eq!(rewritten("The book I gave you was old."), "The book that I gave you was old.");
        assert_eq!(rewritten("The car my dad drives is old."), "The car that my dad drives is old.");
        assert_eq!(rewritten("I loved the cake my sister made."), "I loved the cake that my sister made.");
        // A time told first, an object put first, a moment, and a second subject's clause.
        for text in [
            "This morning I went to the shop.",
            "The rest I gave away.",
            "The minute I got home it started raining.",
            "The man I saw and his wife were there.",
            "My sister cried the moment her son walked across the stage.",
            "I gave the dog my sandwich.",
        ] {
            assert!(!rewritten(text).contains(" that "), "{text}");
        }
        assert_eq!(rewritten("The book which I read was good."), "The book that I read was good.");
        assert_eq!(
            rewritten("The shop which sells bread has closed."),
            "The shop that sells bread has closed."
        );
        assert_eq!(
            rewritten("The car which was parked outside has gone."),
            "The car that was parked outside has gone."
        );
        // Between commas, after a preposition, asked, or asking which one.
        for text in [
            "My brother, who lives in Leeds, is a teacher.",
            "The report, which was late, had several mistakes.",
            "The house in which they live is old.",
            "Which bus goes to the station?",
            "I asked the teacher which book to read.",
            "I asked the waiter which is better.",
        ] {
            assert_eq!(rewritten(text), text);
        }
    }

    #[test]
    fn a_clause_of_belief_feeling_or_telling_takes_that_both_ways() {
        // "think" has "believe" and no "that" put in ("I believe that" reads stiff); a "that" is
        // a site of its own after the other verbs, beside their own rewrites.
        assert_eq!(rewritten("I think the shop closes at six."), "I believe the shop closes at six.");
        assert_eq!(rewritten("I don't think the shop is open."), "I don't think the shop is open.");
        assert_eq!(rewritten("I think I'll stay in."), "I think I'll stay in.");
        let alone = |text: &str| {
            join(&rewrite(tokenize(text), &mut crate::sites::Sites::new(crate::sites::Which::Only(0))))
        };
        assert_eq!(alone("I hope you feel better soon."), "I hope that you feel better soon.");
        // "it" before no verb is the object: no clause opens after "know".
        assert_eq!(
            rewritten("Before you know it the summer is over."),
            "Before you know it the summer is over."
        );
        for (text, with_that) in [
            ("I hope you feel better soon.", "I hope that you feel better soon."),
            ("She was told she might need a hearing aid.", "She was told that she might need a hearing aid."),
            ("Are you sure the door is locked?", "Are you sure that the door is locked?"),
            (
                "She was worried her son would miss the bus.",
                "She was worried that her son would miss the bus.",
            ),
            ("He reminded me the rent was due on Friday.", "He reminded me that the rent was due on Friday."),
            ("He forgot the meeting had been moved.", "He forgot that the meeting had been moved."),
        ] {
            assert_eq!(rewritten(text), with_that);
            assert_eq!(rewritten(with_that), text);
        }
        assert_eq!(rewritten("I know that he is busy."), "I know he is busy.");
        assert_eq!(rewritten("I was surprised you noticed."), "I was surprised that you noticed.");
        assert_eq!(
            rewritten("The coach said that the team needed to work harder."),
            "The coach said the team needed to work harder."
        );
        // A "that" that points, an object before a clause, a second verb of the same subject, a
        // result after "so", an object "you" or "it", and a question's opinion.
        for text in [
            "I know that man from work.",
            "I think that is wrong.",
            "I said that to him yesterday.",
            "I heard that the other day.",
            "I told the story that my uncle loved.",
            "I forgot my password and couldn't log in.",
            "We were so happy that we cried.",
            "I know you well.",
            "I know it well.",
            "I heard you sing last night.",
            "I noticed it parked outside.",
            "I told the kids.",
        ] {
            assert_eq!(rewritten(text), text);
        }
        assert!(!rewritten("Do you think it will rain tomorrow?").contains("that"));
        assert!(!rewritten("I asked what he thought the problem was.").contains("that"));
    }

    #[test]
    fn a_reported_clause_opened_with_that() {
        assert_eq!(rewritten("He told me he would be late."), "He told me that he would be late.");
        assert_eq!(
            rewritten("The dentist said I need a filling."),
            "The dentist said that I need a filling."
        );
        assert_eq!(rewritten("We agreed we would meet at six."), "We agreed that we would meet at six.");
        for text in
            ["He told me the time.", "I know the way.", "I heard the baby crying.", "Let me know if you can."]
        {
            assert_eq!(rewritten(text), text);
        }
    }

    #[test]
    fn a_result_a_habit_and_at_once() {
        assert_eq!(
            rewritten("The door was locked, so we waited outside."),
            "The door was locked, and so we waited outside."
        );
        assert_eq!(
            rewritten("I always feel tired when I wake up early."),
            "I always feel tired whenever I wake up early."
        );
        assert_eq!(rewritten("She called the police immediately."), "She called the police straight away.");
        assert_eq!(rewritten("It changed so quickly."), "It changed so fast.");
        for text in [
            "So we waited outside.",
            "I usually walk when it is sunny.",
            "I always forget when the bus leaves.",
            "I always felt tired when I woke up.",
            "Call me immediately after lunch.",
        ] {
            assert_eq!(rewritten(text), text);
        }
    }

    #[test]
    fn a_compound_s_noun_is_no_verb() {
        assert_eq!(rewritten("Keep the receipt for my tax return."), "Keep the receipt for my tax return.");
        assert_eq!(rewritten("When do the kids return?"), "When do the kids come back?");
    }

    #[test]
    fn getting_home_is_arriving_unless_it_took_long() {
        assert_eq!(rewritten("We got home at midnight."), "We arrived home at midnight.");
        assert_eq!(rewritten("It took me an hour to get home."), "It took me an hour to get home.");
    }

    #[test]
    fn a_possibility_said_with_may_or_might() {
        assert_eq!(rewritten("It might rain later."), "It may rain later.");
        // Reported, "might" stays; only the clause's "that" comes in.
        assert_eq!(rewritten("She warned us it might rain."), "She warned us that it might rain.");
        assert_eq!(rewritten("It may rain later."), "It might rain later.");
        assert_eq!(rewritten("You may be right."), "You might be right.");
        assert_eq!(rewritten("She may have missed the bus."), "She might have missed the bus.");
        // Permission, questions, the month and reported or past clauses stay.
        for text in [
            "You may leave now.",
            "Students may use a calculator.",
            "Might I ask a question?",
            "We are going to Spain in May.",
            "We talked about where we might go next summer.",
        ] {
            assert_eq!(rewritten(text), text);
        }
    }

    #[test]
    fn phrasal_verbs_become_single_verbs() {
        assert_eq!(rewritten("We found out the truth."), "We discovered the truth.");
        assert_eq!(rewritten("Prices have gone up."), "Prices have risen.");
        assert_eq!(
            rewritten("Please let the front desk know if you need towels."),
            "Please let the front desk know if you need towels."
        );
        assert_eq!(rewritten("The rent went up by ten pounds."), "The rent rose by ten pounds.");
        // A way climbed or a thing carried up does not rise.
        assert_eq!(rewritten("I was going up the hill."), "I was going up the hill.");
        assert_eq!(rewritten("The boxes need to go up to the loft."), "The boxes have to go up to the loft.");
        // The participle after "has", and no "return" before a second particle.
        assert_eq!(rewritten("The dog hasn't come back."), "The dog hasn't returned.");
        assert_eq!(rewritten("The light came back on."), "The light came back on.");
        assert_eq!(rewritten("Go back down to reception."), "Go back down to reception.");
        assert_eq!(rewritten("Turn off the lights."), "Switch off the lights.");
        assert_eq!(rewritten("She is looking for a job."), "She is searching for a job.");
        let text = "The school is looking for volunteers.";
        assert_eq!(rewritten(text), text);
        // "noted" reads as "noticed" as often as "wrote down".
        assert_eq!(rewritten("He wrote down the number."), "He wrote down the number.");
        // "put" is present and past alike: only a word before it settles which.
        assert_eq!(rewritten("They put off the meeting."), "They put off the meeting.");
        assert_eq!(rewritten("They have put off the meeting."), "They have postponed the meeting.");
        assert_eq!(rewritten("We will put off the meeting."), "We will postpone the meeting.");
        assert_eq!(rewritten("Put off the meeting."), "Postpone the meeting.");
        assert_eq!(rewritten("The train would arrive at noon."), "The train would arrive at noon.");
        assert_eq!(rewritten("Call me when you arrive."), "Call me when you arrive.");
        assert_eq!(
            rewritten("The new one is worse than the one I returned."),
            "The new one is worse than the one I returned."
        );
        assert_eq!(
            rewritten("He always puts off cleaning his room."),
            "He always puts off cleaning his room."
        );
        assert_eq!(
            rewritten("The school has a new plan to tackle bullying."),
            "The school has a new plan to tackle bullying."
        );
        assert_eq!(rewritten("We plan to leave early."), "We intend to leave early.");
        assert!(rewritten("The results should come back soon.").contains("come back"));
        assert!(rewritten("She said Ella needs to read more.").contains("needs to"));
        assert_eq!(rewritten("She came back late."), "She returned late.");
    }

    #[test]
    fn single_verbs_become_phrasal() {
        assert_eq!(rewritten("They postponed the meeting."), "They put off the meeting.");
        assert_eq!(rewritten("She returned home."), "She came back home.");
        assert_eq!(rewritten("He returned the book."), "He returned the book.");
        assert_eq!(rewritten("We continued working."), "We carried on working.");
        // Never "carried on to work"; the infinitive is told as the gerund instead.
        assert_eq!(rewritten("We continued to work."), "We continued working.");
        assert_eq!(rewritten("The parcel arrived two days late."), "The parcel turned up two days late.");
        assert_eq!(rewritten("She always arrives on time."), "She always turns up on time.");
        assert_eq!(
            rewritten("The bus arrived twenty minutes late."),
            "The bus turned up twenty minutes late."
        );
        assert_eq!(rewritten("Most of the shops have closed down."), "Most of the shops have shut down.");
        assert_eq!(rewritten("Let's meet up for a drink."), "Let's get together for a drink.");
        assert_eq!(rewritten("We're saving up for a house."), "We're saving for a house.");
        assert_eq!(
            rewritten("The tax will increase by four percent."),
            "The tax will go up by four percent."
        );
        assert_eq!(rewritten("They will increase the price."), "They will increase the price.");
        // A season arrives; it does not turn up. And "arrived in" a city keeps its verb.
        assert_eq!(rewritten("Spring arrived early this year."), "Spring arrived early this year.");
        assert_eq!(rewritten("We arrived in Rome."), "We arrived in Rome.");
    }

    #[test]
    fn function_words_and_groups() {
        assert_eq!(rewritten("It is almost done."), "It is nearly done.");
        assert_eq!(rewritten("It is not nearly done."), "It is not nearly done.");
        assert_eq!(rewritten("It isn't nearly done."), "It isn't nearly done.");
        assert_eq!(rewritten("It costs about 20 dollars."), "It costs around 20 dollars.");
        assert_eq!(rewritten("The party finishes around five."), "The party finishes around five.");
        assert_eq!(rewritten("It costs around 20 dollars."), "It costs about 20 dollars.");
        // "invariably" reads stiffer than "always": left alone.
        assert_eq!(rewritten("He always forgets my birthday."), "He always forgets my birthday.");
        assert_eq!(rewritten("I will always love you."), "I will always love you.");
        // "smells of" has that smell, where "smells like" resembles it.
        assert_eq!(rewritten("The room smells of smoke."), "The room smells of smoke.");
        let text = "The bakery smells of cinnamon and coffee.";
        assert_eq!(rewritten(text), text);
        // A noun: "the smell like fish" is no English.
        assert_eq!(rewritten("She can't stand the smell of fish."), "She can't stand the smell of fish.");
        assert_eq!(rewritten("I love the sweet smell of roses."), "I love the sweet smell of roses.");
        assert_eq!(
            rewritten("The smells of the market were strong."),
            "The smells of the market were strong."
        );
        assert_eq!(rewritten("She lives by the sea."), "She lives beside the sea.");
        assert_eq!(rewritten("It was signed by the teacher."), "It was signed by the teacher.");
        // The agent of a passive, even where it could be a place.
        assert_eq!(rewritten("The house was destroyed by the fire."), "The house was destroyed by the fire.");
        assert_eq!(rewritten("We sat by the fire."), "We sat beside the fire.");
        assert_eq!(rewritten("I talked about it."), "I talked about it.");
        assert_eq!(rewritten("It is very cold."), "It is really cold.");
        assert_eq!(rewritten("Thank you very much."), "Thank you very much.");
        assert_eq!(rewritten("I have to go."), "I need to go.");
        assert_eq!(rewritten("I have to the left a door."), "I have to the left a door.");
        assert_eq!(rewritten("They are going to get married."), "They will get married.");
        assert_eq!(rewritten("They are going to the park."), "They are going to the park.");
        assert_eq!(rewritten("I want to sleep."), "I would like to sleep.");
        assert_eq!(rewritten("How did you find out about us?"), "How did you find out about us?");
        assert_eq!(rewritten("Do you take cash?"), "Do you accept cash?");
        assert_eq!(rewritten("I take cash out."), "I take cash out.");
        assert_eq!(rewritten("Do you want to sleep?"), "Do you want to sleep?");
        assert_eq!(rewritten("The lift is out of order."), "The lift is not working.");
        assert_eq!(rewritten("He did not pass the salt."), "He did not pass the salt.");
        assert_eq!(rewritten("He did not pass his test."), "He failed his test.");
        assert_eq!(rewritten("We had lunch."), "We ate lunch.");
        assert_eq!(rewritten("Have you had lunch?"), "Have you eaten lunch?");
        assert_eq!(rewritten("The flight was cancelled."), "The flight was cancelled.");
        assert_eq!(rewritten("The match was cancelled."), "The match was called off.");
        assert_eq!(rewritten("I meant to call you."), "I meant to call you.");
        assert_eq!(rewritten("I don't want to sleep."), "I don't want to sleep.");
        assert_eq!(rewritten("Rest for a few days."), "Rest for a few days.");
        assert_eq!(rewritten("He calls every morning."), "He calls each morning.");
        assert_eq!(rewritten("I think it works."), "I believe it works.");
        assert_eq!(rewritten("The bill was much higher."), "The bill was far higher.");
        assert_eq!(rewritten("I deleted the apps that I never use."), "I deleted the apps I never use.");
        assert_eq!(rewritten("The baby started crying."), "The baby started to cry.");
        assert_eq!(rewritten("She loves swimming in the sea."), "She loves to swim in the sea.");
        assert_eq!(
            rewritten("Our dog loves chasing balls in the park."),
            "Our dog loves to chase balls in the park."
        );
        assert_eq!(rewritten("She loves swimming lessons."), "She loves swimming lessons.");
        assert_eq!(rewritten("He hates reading glasses."), "He hates reading glasses.");
        assert_eq!(rewritten("I must remember to buy stamps."), "I must not forget to buy stamps.");
        assert_eq!(rewritten("I would like to stay."), "I would like to stay.");
        assert_eq!(rewritten("He likes boring films."), "He likes boring films.");
        assert_eq!(
            rewritten("We got lost, although we had a map."),
            "We got lost, even though we had a map."
        );
        assert_eq!(rewritten("It rattles whenever it drains."), "It rattles every time it drains.");
        assert_eq!(rewritten("I am late every time."), "I am late each time.");
        assert_eq!(rewritten("We rarely eat out these days."), "We rarely eat out nowadays.");
        assert_eq!(rewritten("I paid him back the following week."), "I repaid him the next week.");
        assert_eq!(rewritten("The Wi-Fi is really slow."), "The Wi-Fi is very slow.");
        // After a modal and its subject "really" stands before the verb: "fine" is one here.
        let text = "Can they really fine you for parking outside your own house?";
        assert_eq!(rewritten(text), text);
        assert_eq!(rewritten("The soup was really hot."), "The soup was very hot.");
        assert_eq!(rewritten("I must leave now."), "I have to leave now.");
        assert_eq!(rewritten("I am going to bed now."), "I am going to bed now.");
        assert_eq!(rewritten("We are going to work by bus."), "We are going to work by bus.");
        assert_eq!(rewritten("It is going to rain."), "It will rain.");
        assert_eq!(rewritten("I am going to work from home."), "I will work from home.");
        assert_eq!(rewritten("You must be tired."), "You must be tired.");
        assert_eq!(rewritten("He must know the answer."), "He must know the answer.");
        assert_eq!(rewritten("We must not go."), "We must not go.");
        // A verb, which "very" cannot grade ("I really like it." is "I like it a lot.").
        assert_eq!(rewritten("We really like it here."), "We really like it here.");
        assert_eq!(rewritten("The trip was really tiring."), "The trip was very tiring.");
        assert_eq!(rewritten("He was really trying to help."), "He was really trying to help.");
        assert_eq!(rewritten("Book a month in advance."), "Book a month ahead of time.");
        assert_eq!(rewritten("I remember these days fondly."), "I remember these days fondly.");
        assert_eq!(rewritten("It began to rain."), "It began raining.");
        assert_eq!(rewritten("It is starting to rain."), "It is starting to rain.");
        assert_eq!(rewritten("I began learning to swim."), "I began learning to swim.");
        assert_eq!(rewritten("She started swimming lessons."), "She started swimming lessons.");
        assert_eq!(rewritten("He started cooking the dinner."), "He started to cook the dinner.");
        assert_eq!(rewritten("She started school in May."), "She started school in May.");
        assert_eq!(rewritten("I heard the news that he left."), "I heard the news that he left.");
        assert_eq!(rewritten("It was such a mess that we left."), "It was such a mess that we left.");
        assert_eq!(rewritten("Do not forget to call."), "Remember to call.");
        assert_eq!(rewritten("Please remember to call."), "Please do not forget to call.");
        assert_eq!(rewritten("I always remember to call."), "I always remember to call.");
        assert_eq!(
            rewritten("Do you know if the shop sells milk?"),
            "Do you know whether the shop sells milk?"
        );
        assert_eq!(rewritten("Let me know if you need help."), "Let me know if you need help.");
        assert_eq!(rewritten("He said that the brakes needed work."), "He said the brakes needed work.");
        assert_eq!(rewritten("I noticed the door was open."), "I noticed that the door was open.");
        assert_eq!(rewritten("I noticed the man who was there."), "I noticed the man who was there.");
        assert_eq!(rewritten("She promised that he would come."), "She promised he would come.");
        assert_eq!(rewritten("He is far older than me."), "He is much older than me.");
        assert_eq!(rewritten("It is a lot better now."), "It is much better now.");
        assert_eq!(rewritten("We need far more people."), "We need far more people.");
        assert_eq!(rewritten("It is not much better."), "It is not much better.");
        assert_eq!(rewritten("I would much rather stay."), "I would much rather stay.");
        assert_eq!(
            rewritten("She lived here for over forty years."),
            "She lived here for more than forty years."
        );
        assert_eq!(rewritten("It takes just over two hours."), "It takes just over two hours.");
        assert_eq!(rewritten("The horse jumped over two fences."), "The horse jumped over two fences.");
        assert_eq!(rewritten("I think about it."), "I think about it.");
        assert_eq!(rewritten("She said my keys are here."), "She said that my keys are here.");
        assert_eq!(rewritten("She said her name."), "She said her name.");
        assert_eq!(rewritten("We waited half an hour."), "We waited thirty minutes.");
        assert_eq!(rewritten("It barked all night."), "It barked the whole night.");
        assert_eq!(rewritten("The company plans to grow."), "The company intends to grow.");
        assert_eq!(rewritten("The plans to grow failed."), "The plans to grow failed.");
        // "in order to" added reads heavily: only taken away.
        assert_eq!(rewritten("She ran to catch the train."), "She ran to catch the train.");
        assert_eq!(rewritten("He went to bed early."), "He went to bed early.");
        assert_eq!(rewritten("The company went to court."), "The company went to court.");
        assert_eq!(rewritten("I went to work."), "I went to work.");
        assert_eq!(rewritten("The kettle takes a minute to boil."), "The kettle takes a minute to boil.");
        // Read as stiff by careful readers, so left as written: "are able to", "slightly",
        // "overly".
        assert_eq!(rewritten("You can pay by card."), "You can pay by card.");
        assert_eq!(rewritten("Speak a little louder."), "Speak a bit louder.");
        assert_eq!(rewritten("It seemed a bit steep."), "It seemed a little steep.");
        assert_eq!(rewritten("Add a little salt."), "Add a little salt.");
        assert_eq!(rewritten("I ate a bit of cake."), "I ate a bit of cake.");
        assert_eq!(rewritten("Walk a little daily."), "Walk a little daily.");
        assert_eq!(rewritten("It was too salty for me."), "It was too salty for me.");
        assert_eq!(rewritten("I forgot to call."), "I forgot to call.");
        assert_eq!(rewritten("My son wants a bike."), "My son wants a bike.");
        assert_eq!(rewritten("They don't want a bike."), "They don't want a bike.");
        assert_eq!(rewritten("A little girl came."), "A little girl came.");
        assert_eq!(rewritten("He apologised for it."), "He said sorry for it.");
        assert_eq!(rewritten("The train was full of tourists."), "The train was filled with tourists.");
        assert_eq!(rewritten("He forgot it again."), "He forgot it again.");
        assert_eq!(rewritten("The box was too heavy to lift."), "The box was too heavy to lift.");
        assert_eq!(rewritten("There's no need to worry."), "There's no need to worry.");
        assert_eq!(rewritten("It was so nice to see you."), "It was really nice to see you.");
        assert_eq!(rewritten("I was so tired that I slept."), "I was so tired that I slept.");
        assert_eq!(rewritten("It's not so bad."), "It's not so bad.");
        assert_eq!(rewritten("It was pretty cold."), "It was quite cold.");
        assert_eq!(rewritten("She wore a pretty dress."), "She wore a pretty dress.");
        assert_eq!(rewritten("These days are long."), "These days are long.");
        assert_eq!(
            rewritten("I am not sure whether to take the bus."),
            "I am unsure whether to take the bus."
        );
    }

    #[test]
    fn please_moves() {
        assert_eq!(polite("Please close the window.").as_deref(), Some("Close the window, please."));
        assert_eq!(polite("Please remember to lock the door when you leave tonight."), None);
        assert_eq!(
            asked("Please sign the reply slip and return it by Friday.").as_deref(),
            Some("Could you please sign the reply slip and return it by Friday?")
        );
        assert_eq!(
            asked("Please send me the receipt for the laptop so I can claim it back.").as_deref(),
            Some("Could you please send me the receipt for the laptop so I can claim it back?")
        );
        assert_eq!(asked("Please note that the office is closed on Monday."), None);
        assert_eq!(asked("Please read the instructions before you start."), None);
        assert_eq!(
            polite("Could you turn the music down, please?").as_deref(),
            Some("Could you please turn the music down?")
        );
        assert_eq!(polite("Can you help me?").as_deref(), Some("Could you help me?"));
        assert_eq!(polite("Please, no."), None);
        assert_eq!(polite("Please!"), None);
        // The formulas of letters and notices keep "please" first.
        assert_eq!(run(please, "Please find attached the invoice."), None);
        assert_eq!(run(please, "Please don't leave your bags unattended."), None);
        assert_eq!(run(please, "Would you mind closing the window, please?"), None);
    }

    #[test]
    fn have_of_possession() {
        assert_eq!(
            run(have_got, "She has a good sense of humour.").as_deref(),
            Some("She has got a good sense of humour.")
        );
        assert_eq!(
            run(have_got, "The library has thousands of old books.").as_deref(),
            Some("The library has got thousands of old books.")
        );
        for kept in [
            "She has breakfast at eight.",
            "We have a meeting.",
            "They have been here.",
            "I have to go.",
            "Has she a car?",
            "She had a cold.",
        ] {
            assert_eq!(run(have_got, kept), None, "{kept}");
        }
    }
}
