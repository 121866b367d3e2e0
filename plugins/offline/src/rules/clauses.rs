//! Clause moves: a leading because/when/if/although clause moves to the end and a trailing one to
//! the front (a question's condition or time too: "If it rains, should I bring a coat?"), and a
//! one-word time adverb ("today") the same way. The adverb's move is tried only
//! where no clause moves and shares the clause's checks, which is why both are one rule.

use crate::shape::{self, Plain, capitalise, decapitalise, is_all_caps, is_title, recase};
use crate::syntax::{pronoun_would_dangle, reported_words};
use crate::tokens::Token;
use crate::words::{ADVERB_BINDERS, DETERMINERS, EVENTS, clearly_finite, is_negation, lowercase_ok};

/// Subordinators whose clause may lead or trail the sentence.
const LEADING_SUBORDINATORS: &[&str] = &[
    "because", "although", "though", "since", "if", "when", "while", "whenever", "unless", "after", "before",
    "until",
];

/// Subordinators a trailing clause may be fronted with. "if", "when", "before" and the like
/// may also start an object ("ask if", "know when") or a phrasal verb's complement ("look
/// after"), so those need the word before them to be neither (`OBJECT_TAKERS`).
const TRAILING_SUBORDINATORS: &[&str] =
    &["because", "although", "unless", "whenever", "when", "if", "before", "after", "while", "until", "once"];

/// Words after which "when", "if", "before"... start an object or a complement, not a clause.
const OBJECT_TAKERS: &[&str] = &[
    "ask",
    "asks",
    "asked",
    "wonder",
    "wonders",
    "wondered",
    "see",
    "check",
    "checked",
    "sure",
    "know",
    "knew",
    "look",
    "looks",
    "looked",
    "looking",
    "take",
    "takes",
    "took",
    "named",
    "ran",
    "run",
    "day",
    "week",
    "year",
    "time",
    "moment",
    "minute",
    "hour",
    "long",
    "soon",
    "shortly",
    "right",
    "ever",
    "whether",
    "what",
    "decide",
    "tell",
    "say",
    "doubt",
    "idea",
    "question",
    "matter",
    "one",
    "morning",
    "night",
    "unsure",
    "certain",
    "uncertain",
    "wondering",
    "wondered",
    "wonder",
    "asking",
    "checking",
    "knows",
    "remember",
    "forgot",
    "forget",
    "days",
    "weeks",
    "months",
    "years",
    "hours",
    "minutes",
    "seconds",
    "moments",
];

/// Words before a trailing subordinator that tie it to the main clause ("not because").
const FOCUS_WORDS: &[&str] = &[
    "not",
    "just",
    "only",
    "partly",
    "mainly",
    "simply",
    "precisely",
    "largely",
    "even",
    "as",
    "and",
    "or",
    "but",
];

/// Verbs of movement, after which "after" and a thing may be what is chased ("ran after the bus").
const MOVEMENTS: &[&str] = &[
    "ran", "run", "runs", "running", "jumped", "jumps", "jump", "chased", "chase", "went", "go", "goes",
    "dived", "swam", "raced", "rushed", "came", "come", "looked", "look", "looks", "shouted", "called",
    "leapt", "hurried",
];

/// The things "after" dates a clause by even after a movement ("ran home after the match").
const AFTER_EVENTS: &[&str] = &[
    "breakfast",
    "lunch",
    "dinner",
    "supper",
    "work",
    "school",
    "class",
    "classes",
    "meeting",
    "match",
    "game",
    "party",
    "film",
    "show",
    "concert",
    "storm",
    "rain",
    "accident",
    "operation",
    "exam",
    "test",
    "interview",
    "holiday",
    "holidays",
    "trip",
    "journey",
    "walk",
    "drive",
    "flight",
    "race",
    "wedding",
    "funeral",
    "war",
    "dark",
    "midnight",
    "noon",
    "sunset",
    "lesson",
    "lessons",
    "practice",
    "training",
    "shift",
    "break",
];

const TIME_ADVERBS: &[&str] =
    &["today", "tomorrow", "yesterday", "tonight", "nowadays", "recently", "lately"];

/// A sentence of the loose plain shape (`shape::loose`) read as the clause moves read it: its
/// words, and whether a comma follows each.
struct Simple<'t> {
    words: Vec<&'t Token>,
    comma_after: Vec<bool>,
    terminal: &'t Token,
}

fn simple(p: &Plain) -> Simple<'_> {
    let mut words = Vec::new();
    let mut comma_after = Vec::new();
    for t in &p.items {
        if t.is_word() {
            words.push(t);
            comma_after.push(false);
        } else if let Some(last) = comma_after.last_mut() {
            *last = true;
        }
    }
    Simple { words, comma_after, terminal: &p.terminal }
}

/// Builds a sentence from groups of words, each followed by a comma when its flag says so.
fn assemble(groups: &[(Vec<Token>, bool)], terminal: &Token) -> Vec<Token> {
    let mut items = Vec::new();
    for (words, comma) in groups {
        items.extend_from_slice(words);
        if *comma {
            items.push(shape::comma());
        }
    }
    shape::build(&items, terminal)
}

/// What happens to the first word of a group that a clause move puts somewhere else.
#[derive(Clone, Copy, PartialEq, Eq)]
enum First {
    /// It now starts the sentence.
    Capitalise,
    /// It leaves the start of the sentence: lowercase it, if that cannot turn a name into a word.
    Lowercase,
    Keep,
}

/// Whether a capitalised word is read as a name: the lexicon does not know it, or knows it only as
/// a rare word ("Maria").
fn name_like(lower: &str) -> bool {
    crate::morph::analyse(lower).is_empty()
        || (crate::lexicon::lookup(lower).is_none()
            && !crate::words::common_word(lower)
            && !lower.ends_with('s'))
}

/// The words with the first one recased for its new position, or `None` when that is unsafe.
fn with_first(words: &[&Token], how: First) -> Option<Vec<Token>> {
    let next_determiner = words.get(1).map(|t| t.text.to_lowercase());
    let mut out: Vec<Token> = words.iter().map(|&t| t.clone()).collect();
    let first = out.first_mut()?;
    let is_i = first.text == "I" || first.text.starts_with("I'") || first.text.starts_with("I’");
    let text = match how {
        // A frozen word (a URL, code) is never recased.
        First::Capitalise | First::Lowercase if first.frozen => return None,
        First::Capitalise => capitalise(&first.text),
        First::Keep => first.text.clone(),
        // A name or an acronym ("IT will set up the printers") keeps its capitals anywhere.
        First::Lowercase if is_i || crate::words::first_name(&first.text) || is_all_caps(&first.text) => {
            first.text.clone()
        }
        First::Lowercase if lowercase_ok(&first.text) => decapitalise(&first.text),
        // A word the lexicon does not know, or knows only as a rare form ("Maria", a plural of
        // "mare"), is a name and keeps its capital ("Sarah and I");
        // one that may be a word or a name ("Rose") is left where it is, and so is one before a
        // determiner, a verb the lexicon lacks giving an order ("Prune the roses").
        First::Lowercase
            if next_determiner.is_none_or(|d| !DETERMINERS.contains(&d.as_str()))
                && first.text.chars().all(|c| c.is_ascii_alphabetic())
                && !crate::lexicon::is_stopword(&first.text.to_lowercase())
                && name_like(&first.text.to_lowercase()) =>
        {
            first.text.clone()
        }
        First::Lowercase => return None,
    };
    *first = recase(first, text);
    Some(out)
}

/// "confirm whether you can attend", told "confirm if you can attend": an "if" that stands for
/// "whether" opens what is asked, never a condition to move to the front.
const ASKING: &[&str] = &[
    "confirm",
    "know",
    "ask",
    "asked",
    "check",
    "see",
    "wonder",
    "tell",
    "sure",
    "decide",
    "find",
    "unsure",
    "doubt",
    "clear",
    "wondering",
    "let",
];

/// Verbs that take a clause, whose own time or reason a moved clause could be mistaken for.
#[rustfmt::skip]
const REPORTING: &[&str] = &[
    "say", "says", "said", "tell", "tells", "told", "think", "thinks", "thought", "believe", "believes",
    "believed", "know", "knows", "knew", "predict", "predicts", "predicted", "forecast", "forecasts",
    "expect", "expects", "expected", "announce", "announces", "announced", "report", "reports", "reported",
    "claim", "claims", "claimed", "hope", "hopes", "hoped", "plan", "plans", "planned", "promise",
    "promises", "promised", "want", "wants", "wanted", "decide", "decides", "decided", "hear", "hears",
    "heard", "remember", "remembers", "remembered", "forget", "forgets", "forgot", "warn", "warns", "warned",
    "ask", "asks", "asked", "agree", "agrees", "agreed", "explain", "explains", "explained", "mean", "means",
    "meant",
    // "We're hoping the extension will add value when ...": the progressive too, only in the
    // forms seldom a noun ("a warning light", "town planning" name things).
    "saying", "telling", "thinking", "believing", "knowing", "predicting", "expecting", "announcing",
    "claiming", "hoping", "promising", "wanting", "deciding", "remembering", "forgetting", "asking",
    "agreeing", "explaining",
];

/// Whether a question's trailing clause may lead it ("Will we get a refund if the concert is
/// postponed?" -> "If the concert is postponed, will we get a refund?"): a condition or a time
/// after a question that opens with its auxiliary or a question word. Never a reason or a limit,
/// which may be what is asked ("Did you leave because you were tired?", "Can we wait until it
/// stops?"); never with an "it", which may stand for the clause ("Is it all right if I leave
/// early?"), nor after "mind" ("Do you mind if I sit here?"), where the clause is what is asked
/// about, nor after a verb of asking or
/// knowing, where "if" and "when" open what is asked ("Can you tell me when it opens?").
fn question_may_lead(y: &[&Token], subordinator: &str) -> bool {
    const OPENERS: &[&str] = &[
        "is", "are", "was", "were", "do", "does", "did", "can", "could", "will", "would", "should", "shall",
        "may", "might", "have", "has", "what", "where", "who", "how", "which",
    ];
    let words: Vec<String> = y.iter().map(|w| lower(w)).collect();
    ["if", "when", "before", "after", "once", "while"].contains(&subordinator)
        && words.first().is_some_and(|w| OPENERS.contains(&w.as_str()))
        && !words.iter().any(|w| {
            ["it", "mind", "tell", "ask", "know", "wonder"].contains(&w.as_str())
                || ASKING.contains(&w.as_str())
                || OBJECT_TAKERS.contains(&w.as_str())
        })
}

/// Whether word `j` is the "am" of a clock time ("until 3 am"), not the verb.
fn clock_am(words: &[String], j: usize) -> bool {
    words[j] == "am" && j > 0 && words[j - 1].starts_with(|c: char| c.is_ascii_digit())
}

fn lower(t: &Token) -> String {
    t.text.to_lowercase()
}

/// Whether "since" joins a clause of time: the main clause `y` is in a perfect tense ("has been
/// hurting") and `x` opens with a subject pronoun ("since I moved"), so it cannot be the "since" of
/// a reason ("He left, since it was late") nor a time phrase ("since Monday", which time.rs moves).
fn temporal_since(y: &[&Token], x: &[&Token]) -> bool {
    let perfect = y.windows(2).any(|w| {
        ["has", "have", "had"].contains(&lower(w[0]).as_str())
            && (lower(w[1]) == "been" || lower(w[1]).ends_with("ed") || lower(w[1]).ends_with("en"))
    });
    let subject =
        x.first().is_some_and(|w| ["i", "you", "he", "she", "we", "they", "it"].contains(&lower(w).as_str()));
    // "It has been ages since we met" counts the time from the "since" clause: put first, it
    // leaves "it has been ages" with nothing to count from.
    let elapsed = y.len() >= 3
        && lower(y[0]) == "it"
        && ["has", "had"].contains(&lower(y[1]).as_str())
        && lower(y[2]) == "been";
    perfect && subject && x.len() >= 2 && !elapsed
}

/// Words that open a clause inside another ("ate what we had cooked", "the door was open and
/// the lights were on"): a clause after one is that clause's, not a second reading of the main one.
const LINKING: &[&str] =
    &["what", "who", "whom", "whose", "how", "why", "whether", "which", "where", "so", "then"];

/// The question words among them, which open an object clause ("ate what we had cooked") unless
/// an infinitive follows ("learn how to swim").
const QUESTION_WORDS: &[&str] = &["what", "who", "whom", "whose", "how", "why", "whether", "which", "where"];

/// The words that open a subject after "once", which make it "as soon as" ("once the paint is
/// dry"), not a count ("once a week", "once upon a time").
const ONCE_SUBJECTS: &[&str] =
    &["i", "you", "he", "she", "we", "they", "it", "the", "my", "our", "your", "his", "her", "their"];

/// How many words the subordinator opening the sentence has: one of `LEADING_SUBORDINATORS`, a
/// "once" before a subject (`ONCE_SUBJECTS`), or the three of "as soon as" (whose clause moves as
/// the others' do: "As soon as I got home, I ran a bath." -> "I ran a bath as soon as I got
/// home.").
fn subordinator_length(first_words: &[String]) -> Option<usize> {
    let word = |k: usize| first_words.get(k).map_or("", String::as_str);
    let once = word(0) == "once" && ONCE_SUBJECTS.contains(&word(1));
    if LEADING_SUBORDINATORS.contains(&word(0)) || once {
        Some(1)
    } else {
        (word(0) == "as" && word(1) == "soon" && word(2) == "as").then_some(3)
    }
}

/// Where a leading "when", "if", "because"... clause or an "after", "before", "until", "since"
/// phrase written with no comma ends, read only where one place can be its end: the first clause
/// (`syntax::clause_at`) after the clause's own verb ("When I got home | the door was open"), or
/// right after the phrase's noun ("After the ceremony | we had drinks"; "After dinner drinks are
/// served" has no clause there, since "drinks" may be the dinner's). Refused where a second clause
/// follows with no word joining it ("When I saw the man was limping I offered": the man may be
/// what was seen or the one limping), and where a plain verb stands inside before that place
/// ("If Anna calls tell her I am out": an order, whose clause has no subject of its own).
fn opening_clause_end(p: &Plain) -> Option<usize> {
    use crate::syntax::clause_at;
    let first = p.lower(0);
    if p.commas() != 0 || p.terminal.text == "?" {
        return None;
    }
    let lead = subordinator_length(&(0..3).map(|k| p.lower(k)).collect::<Vec<_>>())?;
    let n = p.items.len();
    let own_verb = clause_at(p, lead);
    let phrase = lead == 1 && ["after", "before", "until", "since"].contains(&first.as_str());
    if own_verb.is_none() && !phrase {
        return None;
    }
    let from = own_verb.map_or(2, |v| v + 1);
    let starts: Vec<usize> = (from..n).filter(|&c| clause_at(p, c).is_some()).collect();
    let &c = starts.first()?;
    // A phrase ("the ceremony", "a long day at work") has no verb or clause word, and ends in
    // its noun.
    let verbless = (lead..c).all(|j| {
        let w = p.lower(j);
        !crate::words::heads_clause(&w)
            && !crate::words::CLAUSE_WORDS.contains(&w.as_str())
            && !LINKING.contains(&w.as_str())
    });
    if own_verb.is_none() && (!verbless || !crate::words::is_noun(&p.lower(c - 1)) || c > 7) {
        return None;
    }
    let joined = |a: usize, b: usize| {
        (a..b).any(|j| {
            let w = p.lower(j);
            crate::words::CLAUSE_WORDS.contains(&w.as_str()) || LINKING.contains(&w.as_str())
        })
    };
    if starts[1..].iter().any(|&d| !joined(c, d)) {
        return None;
    }
    let ordered = own_verb.is_some_and(|v| {
        (v + 1..c).any(|j| {
            let w = p.lower(j);
            let before = p.lower(j - 1);
            let governed = before == "to"
                || heads_clause_word(&before)
                || crate::words::DETERMINERS.contains(&before.as_str());
            let verb = crate::words::pos_share(&w, crate::lexicon::Pos::Verb) >= 0.5;
            crate::words::plain_verb(&w) && verb && !governed
        })
    });
    (!ordered && c >= 2 && n - c >= 2).then_some(c)
}

/// Whether a word is an auxiliary or a modal, after which a plain verb is no order.
fn heads_clause_word(word: &str) -> bool {
    crate::words::heads_clause(word) && crate::words::clear_pos(word) != Some(crate::lexicon::Pos::Verb)
}

/// "When I got home the door was open." -> "When I got home, the door was open.": the comma
/// that an opening clause or phrase of two or more words read with no comma
/// (`opening_clause_end`) may take, and an opening time adverb ("Yesterday I went" ->
/// "Yesterday, I went"); nothing else changes.
pub fn comma_after_opening(tokens: &[Token]) -> Option<Vec<Token>> {
    // The loose shape, as for the moves: "as soon as" is a fixed phrase, frozen by then.
    let p = &shape::loose(tokens)?;
    let adverb = p.commas() == 0
        && p.terminal.text != "?"
        && TIME_ADVERBS.contains(&p.lower(0).as_str())
        && crate::syntax::clause_at(p, 1).is_some();
    let c = if adverb { 1 } else { opening_clause_end(p).filter(|&c| c >= 3)? };
    let mut out = p.items[..c].to_vec();
    out.push(shape::comma());
    out.extend_from_slice(&p.items[c..]);
    Some(shape::build(&out, &p.terminal))
}

/// Moves a subordinate clause or a time adverbial from the front of the sentence to the back,
/// or the other way round. Returns the new sentence, or `None` when its shape does not allow it.
pub fn move_clause(tokens: &[Token]) -> Option<Vec<Token>> {
    let p = shape::loose(tokens)?;
    let s = simple(&p);
    let (moved, subordinator) = move_in(&p, &s)?;
    // "I don't go because X": moving a reason can change what the negation covers; after a verb
    // of saying or thinking a clause can change which clause it belongs to ("predicts rain
    // tomorrow" is not "tomorrow, predicts rain"). Checked last, as few sentences get here.
    let negation = subordinator == "because" && s.words.iter().any(|&w| is_negation(&w.text));
    // A time adverb moved from the end of a second clause ("and finish the rest tomorrow"), or out
    // of what is looked forward to ("looking forward to a lie-in tomorrow"), would date the wrong
    // thing.
    if subordinator.is_empty()
        && (crate::syntax::coordinated_clause(&p, p.items.len())
            || s.words
                .iter()
                .any(|&w| ["forward", "reminder", "that", "when", "if"].contains(&lower(w).as_str())))
    {
        return None;
    }
    if negation || s.words.iter().any(|&w| REPORTING.contains(&lower(w).as_str())) {
        return None;
    }
    // "got home after midnight due to the delays": a cause after the time is the whole
    // sentence's, and both in front stack two adverbials ("After midnight due to the delays, …").
    let cause_after = p.find(&subordinator).is_some_and(|k| {
        (k + 1..p.items.len()).any(|j| ["due", "because", "owing", "thanks"].contains(&p.lower(j).as_str()))
    });
    if ["after", "before", "until", "since"].contains(&subordinator.as_str()) && cause_after {
        return None;
    }
    // "Last year the trip was cancelled because of the snow": a clause fronted before a time the
    // sentence already opens with stacks two ("Because of the snow, last year the trip was ...").
    // "Last week's quiz" is the subject, not a time.
    let fronted = p.find(&subordinator).is_some_and(|k| k > 0);
    let possessive = (0..3).any(|k| p.lower(k).ends_with("'s") || p.lower(k).ends_with("’s"));
    if fronted && crate::syntax::opens_with_adverbial(&p) && !possessive {
        return None;
    }
    // "offered me a discount if I signed up": the condition is the offer's terms, and in front it
    // would make the offering itself conditional. "Thanks for taking Max out while I was ill":
    // the clause is the thanked deed's.
    let offering = |w: &str| ["offer", "offers", "offered", "guarantee", "guaranteed"].contains(&w);
    // "offered to water our plants while we are away": the clause is the offered deed's.
    let offered_deed = s
        .words
        .windows(3)
        .any(|w| offering(&lower(w[0])) && crate::syntax::opens_infinitive(&lower(w[1]), &lower(w[2])));
    let offered = (subordinator == "if" && s.words.iter().any(|&w| offering(&lower(w)))) || offered_deed;
    let thanks = s.words.iter().any(|&w| ["thanks", "thank"].contains(&lower(w).as_str()));
    if offered || thanks {
        return None;
    }
    // "practises in the evening when the house is quiet": right after a time a "when" clause
    // says which evenings, and in front it would make the whole sentence conditional.
    let narrows_time = subordinator == "when"
        && p.find("when").is_some_and(|k| {
            let w = p.lower(k.saturating_sub(1));
            let w = w.strip_suffix('s').unwrap_or(&w);
            k > 0 && (crate::words::TIME_NOUNS.contains(&w) || crate::words::MONTHS.contains(&w))
        });
    if narrows_time {
        return None;
    }
    // "will only be returned if the kitchen is spotless": "only" bounds the condition, which in
    // front would leave it bounding the verb.
    if ["if", "when", "after", "once", "until"].contains(&subordinator.as_str())
        && p.find(&subordinator).is_some_and(|k| (0..k).any(|j| p.lower(j) == "only"))
    {
        return None;
    }
    if subordinator == "if"
        && p.find("if")
            .is_some_and(|k| p.items[k].changed && (0..k).any(|j| ASKING.contains(&p.lower(j).as_str())))
    {
        return None;
    }
    // A time moved from the end ("tomorrow", "after the holidays") that may belong to a booked
    // thing or an infinitive inside ("book the car in for a service after the holidays").
    // Only a phrase, not a clause of its own ("before you visit the centre" has its subject).
    let time_phrase = |k: usize| {
        let x: Vec<String> = (k + 1..p.items.len()).map(|j| p.lower(j)).collect();
        ["after", "before", "until", "till", "during", "by"].contains(&subordinator.as_str())
            && (0..x.len()).all(|j| {
                let w = &x[j];
                !crate::words::SUBJECT_PRONOUNS.contains(&w.as_str())
                    && (!crate::words::heads_clause(w) || clock_am(&x, j))
            })
    };
    let from_end = subordinator.is_empty() || p.find(&subordinator).is_some_and(|k| k > 0 && time_phrase(k));
    // "Please send me the updated budget before Friday afternoon": before a request a time
    // phrase reads as when to ask (a clause with its subject, "When you leave, please ...", is
    // the doing's still).
    if from_end && crate::syntax::request(&p) {
        return None;
    }
    // "ended with everyone dancing until the sun came up": an "until" clause binds to the
    // nearest verb, so after a clause inside it is that clause's whatever follows "until".
    let until = ["until", "till"].contains(&subordinator.as_str());
    if (from_end || until) && crate::syntax::time_inside(&p, p.items.len()) {
        return None;
    }
    // "is looking for a new treasurer after Maria steps down", "need a new car when the baby
    // arrives": a time after a search or a need, unless past, tells when the thing sought will
    // be needed, and in front it would date the search itself. A past clause dates the
    // whole ("was looking for a job when she met him"), and a need "to" do something is felt
    // when it is done ("need to show your ID when you collect the medicine").
    if ["after", "when", "once", "as"].contains(&subordinator.as_str())
        && let Some(k) = p.find(&subordinator).filter(|&k| k > 0)
    {
        let seeking = (0..k).any(|j| {
            let (w, next) = (p.lower(j), p.lower(j + 1));
            let needing = ["need", "needs", "want", "wants"].contains(&w.as_str()) && next != "to";
            let looking = ["looking", "searching"].contains(&w.as_str()) && next == "for";
            needing || looking || ["seeking", "hiring", "recruiting"].contains(&w.as_str())
        });
        let past = (k + 1..p.items.len())
            .any(|j| crate::words::finite_lemma(&p.lower(j), crate::words::Tense::Past, true).is_some());
        if seeking && !past {
            return None;
        }
    }
    // "three more days of strikes after the election": the phrase may be the noun phrase's.
    if from_end && p.find(&subordinator).is_some_and(|k| crate::syntax::claimed_by_noun(&p, k)) {
        return None;
    }
    // A second clause word ("quit after two months because the boss shouted", "so nervous before
    // the appointment that I barely slept", "dies before lunch since the update"): the moved
    // clause would take the other one with it, or break a "so ... that".
    let clause_words = s
        .words
        .iter()
        .filter(|&&w| {
            let w = lower(w);
            LEADING_SUBORDINATORS.contains(&w.as_str()) || w == "that" || w == "whether"
        })
        .count();
    if !subordinator.is_empty() && clause_words >= 2 {
        return None;
    }
    // A clause after the second of two coordinated clauses ("she cooked and he washed up after
    // the film") may belong to that one alone: at the front it would cover both. The same holds
    // the other way: "After the film, she cooked and he washed up" covers both, and at the end it
    // would cover only the last.
    if !subordinator.is_empty() {
        let main_clause = match p.find(&subordinator) {
            Some(0) => {
                let after = p.items.iter().position(|t| !t.is_word()).or_else(|| opening_clause_end(&p));
                Plain { items: p.items[after?..].to_vec(), terminal: p.terminal.clone() }
            }
            Some(k) => Plain { items: p.items[..k].to_vec(), terminal: p.terminal.clone() },
            None => return None,
        };
        if crate::syntax::coordinated_clause(&main_clause, main_clause.items.len()) {
            return None;
        }
    }
    // A clause that had no comma goes to the end only where it reads there as the whole
    // clause's, which is what fronting it again checks ("had drinks in the garden after the
    // ceremony" fronts back; a time after an event or an infinitive does not).
    let unmarked = p.commas() == 0 && p.find(&subordinator) == Some(0);
    if unmarked && move_clause(&moved).is_none() {
        return None;
    }
    Some(moved)
}

/// The clause move for a sentence of the simple shape, before the checks of meaning, and the
/// subordinator it moved ("" for a time adverb).
fn move_in(p: &Plain, s: &Simple) -> Option<(Vec<Token>, String)> {
    let capital = is_title(&s.words[0].text);
    // A sentence typed in lowercase stays so.
    let (to_front, from_front) =
        if capital { (First::Capitalise, First::Lowercase) } else { (First::Keep, First::Keep) };
    let commas: Vec<usize> = (0..s.words.len()).filter(|&k| s.comma_after[k]).collect();
    let first = lower(s.words[0]);
    // "Because X, Y." -> "Y because X."
    // With no comma, the clause ends where `opening_clause_end` reads its end.
    let leading_end = if commas.len() == 1 { Some(commas[0]) } else { opening_clause_end(p).map(|c| c - 1) };
    let opening: Vec<String> = s.words.iter().take(3).map(|w| lower(w)).collect();
    if let Some(lead) = subordinator_length(&opening)
        && let Some(c) = leading_end.filter(|&c| c >= lead)
    {
        let (x, y) = (&s.words[lead..=c], &s.words[c + 1..]);
        // "After graduating, she plans": a participle alone is a whole clause.
        let x_ok = x.len() >= 2 || x[0].text.ends_with("ing");
        // "..., we talked about where we might go next summer": at the end the moved clause
        // would attach to the other clause inside.
        // "ate what we had cooked", "told my boss I was leaving": the same for a clause with a
        // question word or with no "that".
        let y_words: Vec<String> = y.iter().map(|w| lower(w)).collect();
        let inner_clause = y_words.iter().enumerate().any(|(k, w)| {
            (w != "to" && w != "and" && crate::words::CLAUSE_WORDS.contains(&w.as_str()))
                || (k > 0
                    && QUESTION_WORDS.contains(&w.as_str())
                    && y_words.get(k + 1).is_some_and(|next| next != "to"))
                || crate::syntax::inner_subject(&y_words, k)
        });
        // "If you heat ice, it melts." -> "It melts if you heat ice.": the pronoun would come
        // before its noun.
        if x_ok && y.len() >= 2 && lower(y[0]) != "then" && !inner_clause && !pronoun_would_dangle(y, x) {
            let mut y = with_first(y, to_front)?;
            y.push(recase(s.words[0], first.clone()));
            y.extend(s.words[1..lead].iter().map(|&t| t.clone()));
            y.extend(x.iter().map(|&t| t.clone()));
            return Some((assemble(&[(y, false)], s.terminal), first));
        }
    }
    // "Y because X." (or "Y, although X.") -> "Because X, Y."
    let question = s.terminal.text == "?";
    if commas.len() <= 1 {
        let k = (2..s.words.len().saturating_sub(1)).find(|&k| {
            let w = lower(s.words[k]);
            let opens_clause =
                w != "once" || s.words.get(k + 1).is_some_and(|n| ONCE_SUBJECTS.contains(&lower(n).as_str()));
            (TRAILING_SUBORDINATORS.contains(&w.as_str()) && opens_clause)
                || (w == "since" && temporal_since(&s.words[..k], &s.words[k + 1..]))
        });
        if let Some(k) = k {
            let comma_ok = commas.is_empty() || commas == [k - 1];
            let single = s.words.iter().filter(|w| lower(w) == lower(s.words[k])).count() == 1;
            // "doesn't open until ten": "not ... until" is one focus, which the front breaks
            // ("Until ten, the museum does not open."). In "put off the meeting until next
            // week" the new time is what was decided, so it belongs to the verb of putting off
            // ("Until next week, they put off the meeting.").
            // "stayed until after midnight": a bare time after "until" is how long, which in
            // front reads oddly ("Until after midnight, the guests stayed.").
            let x_words: Vec<String> = s.words[k + 1..].iter().map(|w| lower(w)).collect();
            let finite_at = |j: usize| {
                let w = &x_words[j];
                ["is", "are", "was", "were", "am", "has", "have", "had"].contains(&w.as_str())
                    && !clock_am(&x_words, j)
                    || clearly_finite(w, true)
            };
            let bare_until =
                ["until", "till"].contains(&lower(s.words[k]).as_str()) && !(0..x_words.len()).any(finite_at);
            let bound_until = bare_until
                || lower(s.words[k]) == "until"
                    && s.words[..k].iter().any(|w| {
                        let w = lower(w).replace('’', "'");
                        ["not", "never", "no"].contains(&w.as_str())
                            || w.ends_with("n't")
                            || [
                                "off",
                                "back",
                                "postpone",
                                "postponed",
                                "postpones",
                                "delay",
                                "delayed",
                                "delays",
                                "move",
                                "moved",
                                "moves",
                                "adjourned",
                                "rescheduled",
                                "extended",
                                "extend",
                            ]
                            .contains(&w.as_str())
                    });
            // "said the pipe had burst because of the frost": the cause is the reported clause's.
            let reported = reported_words(&s.words[..k].iter().map(|w| lower(w)).collect::<Vec<_>>());
            // "after lunch and came back at four": the "and" joins the main clause's verbs, so
            // the phrase ends before it; "until two in the morning talking": the "-ing" is the
            // main clause's. Neither moves.
            let joined = x_words
                .iter()
                .position(|w| ["and", "but", "or"].contains(&w.as_str()))
                .is_some_and(|c| !(0..c).any(finite_at));
            // A "-ing" after the phrase's noun, not its own noun ("the meeting").
            let trailing_ing = x_words.len() >= 3
                && x_words.last().is_some_and(|w| w.ends_with("ing"))
                && !DETERMINERS.contains(&x_words[x_words.len() - 2].as_str())
                && !(0..x_words.len()).any(finite_at);
            // "met in the café after the lecture to go over the notes": an infinitive right after
            // a short noun phrase (no clause of its own) is the main clause's purpose, which the
            // front would leave behind the phrase.
            let purpose = (1..x_words.len().min(4)).any(|j| {
                let noun_phrase = j == 2 || (j == 3 && DETERMINERS.contains(&x_words[0].as_str()));
                noun_phrase && crate::syntax::opens_infinitive(&x_words[j - 1], &x_words[j])
            });
            // "I was about to call you when you texted me": the "when" clause interrupts the
            // one about to happen, and in front it reads as a mere time.
            let interrupting = (0..k.saturating_sub(1))
                .any(|j| lower(s.words[j]) == "about" && lower(s.words[j + 1]) == "to");
            // "jumped into the river after the ball": after a movement, "after" and a thing
            // says what was chased, not when.
            let chased = lower(s.words[k]) == "after"
                && !(0..x_words.len()).any(finite_at)
                && x_words.last().is_some_and(|h| !AFTER_EVENTS.contains(&h.as_str()))
                && s.words[..k].iter().any(|w| MOVEMENTS.contains(&lower(w).as_str()));
            // "either pay now or pay when the goods are delivered": the clause is the second
            // choice's, and in front it would cover both.
            let choice =
                s.words[..k].iter().any(|w| ["either", "or", "neither", "nor"].contains(&lower(w).as_str()));
            // "a party that lasted until three in the morning": the clause may be the relative
            // clause's, which the front would leave stranded.
            let relative =
                s.words[..k].iter().skip(1).any(|w| ["that", "which", "who"].contains(&lower(w).as_str()));
            // "sent us a video of her when she was born": a time clause after a picture or a
            // story of someone may tell when it shows them, and in front it would date the sending.
            let timing = ["when", "while", "before", "after", "once", "until", "whenever"]
                .contains(&lower(s.words[k]).as_str());
            let past = x_words.iter().any(|w| {
                ["was", "were", "had"].contains(&w.as_str())
                    || crate::words::finite_lemma(w, crate::words::Tense::Past, true).is_some()
            });
            let depicted = timing
                && past
                && (k.saturating_sub(5)..k.saturating_sub(1)).any(|j| {
                    lower(s.words[j + 1]) == "of"
                        && crate::syntax::DEPICTIONS.contains(&lower(s.words[j]).as_str())
                });
            let asked = question && !question_may_lead(&s.words[..k], &lower(s.words[k]));
            // "ran out two weeks before the screen broke": a length before "before" or "after" is
            // the clause's, and stays with it.
            let length = lower(s.words[k - 1]);
            // "on Tuesday after lunch", "tomorrow after work": the phrase tells which part of that day.
            let day = crate::words::DAY_NAMES.contains(&length.as_str())
                || crate::words::WEEKDAYS.contains(&length.as_str())
                || ["today", "tomorrow", "tonight", "yesterday"].contains(&length.as_str());
            let measured =
                crate::words::TIME_UNITS.contains(&length.as_str()) || length.starts_with("fortnight") || day;
            let y_words: Vec<String> = s.words[..k].iter().map(|w| lower(w)).collect();
            // "remind me to read the meter before we go", "joined a club to get fitter before the
            // marathon": after an object's infinitive the time may be the infinitive's, and in
            // front it would time the reminding or the joining ("need to renew ... before we
            // travel" has no object before "to", and moves).
            // A pronoun's infinitive counts only after a verb of asking or reminding ("taught me
            // to fish when I was little" is the teaching's time).
            const DIRECTING: &[&str] = &["remind", "reminded", "ask", "asked", "tell", "told", "get", "got"];
            let object_infinitive = timing
                && (1..k.saturating_sub(1)).any(|j| {
                    let object = &y_words[j - 1];
                    let directed = j >= 2
                        && DIRECTING.contains(&y_words[j - 2].as_str())
                        && crate::words::OBJECT_PRONOUNS.contains(&object.as_str());
                    let noun = crate::words::clear_pos(object) == Some(crate::lexicon::Pos::Noun);
                    (directed || noun) && crate::syntax::opens_infinitive(&y_words[j], &y_words[j + 1])
                });
            // "She never goes to bed before midnight": "not ... before" is one focus, as "not ...
            // until" is, and in front it reads as a marked order ("Before midnight, she never ...").
            // A clause of its own ("didn't get a copy before I left") is a time, and may lead.
            let negated_before = lower(s.words[k]) == "before"
                && y_words.iter().any(|w| is_negation(w))
                && !(0..x_words.len()).any(finite_at);
            // "I'm afraid I have to cancel ... because I'm ill": the hedge opens the sentence, and
            // a reason in front of it would be the fear's.
            let hedged = y_words.windows(2).any(|w| {
                w[0] == "afraid"
                    && (w[1] == "that" || crate::words::SUBJECT_PRONOUNS.contains(&w[1].as_str()))
            });
            let focus = asked
                || depicted
                || object_infinitive
                || negated_before
                || hedged
                || measured
                || purpose
                || interrupting
                || relative
                || chased
                || choice
                || FOCUS_WORDS.contains(&lower(s.words[k - 1]).as_str())
                || OBJECT_TAKERS.contains(&lower(s.words[k - 1]).as_str())
                || bound_until
                || reported
                || joined
                || trailing_ing;
            let (y, x) = (&s.words[..k], &s.words[k + 1..]);
            // "while cooking": a participle alone is a whole clause.
            let x_ok = x.len() >= 2 || x.first().is_some_and(|w| w.text.ends_with("ing"));
            // "When we got it home, the bread was warm": grammatical, but a reader meets the
            // pronoun before its noun, which reads awkwardly; left as it is.
            if comma_ok && single && !focus && x_ok && y.len() >= 2 && !pronoun_would_dangle(x, y) {
                let sub = recase(
                    s.words[k],
                    if capital { capitalise(&s.words[k].text) } else { lower(s.words[k]) },
                );
                let mut front = vec![sub];
                front.extend(x.iter().map(|&t| t.clone()));
                let y = with_first(y, from_front)?;
                return Some((assemble(&[(front, true), (y, false)], s.terminal), lower(s.words[k])));
            }
        }
    }
    // "Today, Y." -> "Y today."
    // "Yesterday, Maria met John because it was sunny": at the end the day would fall inside the
    // clause ("because it was sunny yesterday").
    // "Yesterday I told my boss I was leaving": a clause with no "that" the same.
    let rest: Vec<String> = s.words[1..].iter().map(|w| lower(w)).collect();
    let clause_inside = rest.iter().enumerate().any(|(k, w)| {
        (w != "to" && w != "and" && crate::words::CLAUSE_WORDS.contains(&w.as_str()))
            || crate::syntax::inner_subject(&rest, k)
    });
    // With no comma ("Yesterday I went"), a clause must begin right after the adverb.
    let set_off = commas == [0]
        || (commas.is_empty() && s.terminal.text != "?" && crate::syntax::clause_at(p, 1).is_some());
    if TIME_ADVERBS.contains(&first.as_str()) && set_off && s.words.len() >= 4 && !clause_inside {
        let mut y = with_first(&s.words[1..], to_front)?;
        y.push(recase(s.words[0], first));
        return Some((assemble(&[(y, false)], s.terminal), String::new()));
    }
    // "Y today." -> "Today, Y."
    let n = s.words.len();
    let last = lower(s.words[n - 1]);
    // "the service I received today": a subject pronoun after the first word opens a clause of
    // its own, which the adverb may belong to.
    let lowered: Vec<String> = s.words[..n - 1].iter().map(|&w| lower(w)).collect();
    let inner_clause = (1..n - 1).any(|k| crate::syntax::inner_subject(&lowered, k));
    if TIME_ADVERBS.contains(&last.as_str())
        && commas.is_empty()
        && n >= 4
        && s.terminal.text != "?"
        && !inner_clause
    {
        let before = lower(s.words[n - 2]);
        // "later today", "sometime tomorrow" and "3 pm tomorrow" are one time ("early" and "late"
        // are more often the verb's: "wake up early tomorrow").
        const ONE_TIME: &[&str] =
            &["later", "earlier", "sometime", "pm", "am", "p.m.", "a.m.", "o'clock", "noon", "midnight"];
        // "remind Tom about the dentist appointment tomorrow": the time may be the event's, which
        // the sentence is about.
        let about = (n.saturating_sub(6)..n - 2)
            .any(|j| ["about", "of", "regarding"].contains(&lower(s.words[j]).as_str()));
        let modified = ONE_TIME.contains(&before.as_str())
            || before.starts_with(|c: char| c.is_ascii_digit())
            || (EVENTS.contains(&before.as_str()) && about);
        // "didn't empty our bin again today": "again" left at the end would read with the
        // fronted day too.
        if !ADVERB_BINDERS.contains(&before.as_str())
            && before != "again"
            && !modified
            && !before.ends_with("'s")
            && !before.ends_with("’s")
        {
            let adverb = recase(s.words[n - 1], if capital { capitalise(&last) } else { last });
            let y = with_first(&s.words[..n - 1], from_front)?;
            return Some((assemble(&[(vec![adverb], true), (y, false)], s.terminal), String::new()));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokens::{join, tokenize};

    fn moved(text: &str) -> Option<String> {
        move_clause(&tokenize(text)).map(|t| join(&t))
    }

    fn comma(text: &str) -> Option<String> {
        comma_after_opening(&tokenize(text)).map(|t| join(&t))
    }

    #[test]
    fn an_opening_clause_without_its_comma_ends_where_one_place_reads_so() {
        let text = "After the ceremony we had drinks in the college garden.";
        assert_eq!(moved(text).as_deref(), Some("We had drinks in the college garden after the ceremony."));
        assert_eq!(comma(text).as_deref(), Some("After the ceremony, we had drinks in the college garden."));
        assert_eq!(
            moved("When I got home the door was open.").as_deref(),
            Some("The door was open when I got home.")
        );
        assert_eq!(
            comma("When I got home the door was open.").as_deref(),
            Some("When I got home, the door was open.")
        );
        // "left the house" or "left": only the second leaves "was" a subject.
        assert_eq!(
            comma("When we left the house was completely empty.").as_deref(),
            Some("When we left, the house was completely empty.")
        );
        // "dinner drinks" may be one noun; "the man" what was seen or the one limping.
        assert_eq!(comma("After dinner drinks are served in the lounge."), None);
        assert_eq!(moved("After dinner drinks are served in the lounge."), None);
        assert_eq!(comma("When I saw the man was limping I offered him a seat."), None);
        assert_eq!(comma("If you think the plan works we can start on Monday."), None);
        // A second clause with no word joining it: "the effort we made".
        assert_eq!(comma("After all the effort we made nobody came to the party."), None);
        assert_eq!(comma("After all the effort we made no one came to the party."), None);
        // An order inside ("tell her") has no subject of its own.
        assert_eq!(comma("If Anna calls tell her I am out."), None);
        assert_eq!(comma("When does the next bus leave for town?"), None);
        // At the end the phrase would follow what was cooked, or date the second verb alone.
        let cooked = "After the class we all sat down and ate what we had cooked.";
        assert_eq!(moved(cooked), None);
        assert_eq!(moved("After the class we ate what we had cooked."), None);
        assert_eq!(
            comma(cooked).as_deref(),
            Some("After the class, we all sat down and ate what we had cooked.")
        );
        assert_eq!(
            moved("After the class we ate the soup we had cooked.").as_deref(),
            None,
            "a clause with no relative word is the soup's"
        );
        assert_eq!(
            moved("If I had more time, I would learn how to swim.").as_deref(),
            Some("I would learn how to swim if I had more time.")
        );
        // "as soon as" moves as one subordinator; "As soon as possible" has no clause.
        assert_eq!(
            moved("As soon as the shop opened, we bought the new game.").as_deref(),
            Some("We bought the new game as soon as the shop opened.")
        );
        assert_eq!(
            comma("As soon as I got home I ran a hot bath.").as_deref(),
            Some("As soon as I got home, I ran a hot bath.")
        );
        assert_eq!(moved("As soon as possible, we will send the forms."), None);
        assert_eq!(moved("As soon as you can, call me.").as_deref(), Some("Call me as soon as you can."));
        // "once" before a subject is "as soon as"; before a count it is how often.
        let dry = "Once the paint is dry we can hang the pictures.";
        assert_eq!(moved(dry).as_deref(), Some("We can hang the pictures once the paint is dry."));
        assert_eq!(comma(dry).as_deref(), Some("Once the paint is dry, we can hang the pictures."));
        assert_eq!(moved("Once upon a time, there was a king."), None);
        assert_eq!(comma("Once a week we go swimming."), None);
        // An opening time adverb the same.
        assert_eq!(comma("Yesterday I went to the shop.").as_deref(), Some("Yesterday, I went to the shop."));
        assert_eq!(moved("Yesterday I went to the shop.").as_deref(), Some("I went to the shop yesterday."));
        assert_eq!(comma("Yesterday was the hottest day of the year."), None);
        assert_eq!(moved("Yesterday I told my boss I was leaving."), None);
    }

    #[test]
    fn a_time_phrase_stays_after_a_request() {
        assert_eq!(moved("Please send me the updated budget before Friday afternoon."), None);
        assert_eq!(
            moved("Please close the window before you leave.").as_deref(),
            Some("Before you leave, please close the window.")
        );
    }

    #[test]
    fn a_time_of_a_thing_sought_stays_with_it() {
        assert_eq!(moved("The club is looking for a new treasurer after Maria steps down."), None);
        assert_eq!(moved("We need a new car when the baby arrives."), None);
        assert_eq!(
            moved("The book club is looking for a new venue after the café closed.").as_deref(),
            Some("After the café closed, the book club is looking for a new venue.")
        );
        assert_eq!(
            moved("You need to show your ID when you collect the medicine.").as_deref(),
            Some("When you collect the medicine, you need to show your ID.")
        );
    }

    #[test]
    fn a_clause_with_another_clause_word_stays() {
        assert_eq!(moved("She quit the job after two months because the boss shouted at everyone."), None);
        assert_eq!(moved("I was so nervous before the appointment that I barely slept."), None);
        assert_eq!(moved("My phone battery dies before lunch since the last update."), None);
        // A time that may be the booked thing's or the infinitive's stays with it.
        assert_eq!(moved("I will book the car in for a service after the holidays."), None);
        assert_eq!(moved("Please ring the surgery to cancel my check-up tomorrow."), None);
    }

    #[test]
    fn a_when_clause_stays_with_the_time_or_the_thought_it_belongs_to() {
        assert_eq!(moved("He usually practises in the evening when the house is quiet."), None);
        assert_eq!(moved("We're hoping the extension will add value when we sell the house."), None);
        assert_eq!(
            moved("He usually practises the piano when the house is quiet.").as_deref(),
            Some("When the house is quiet, he usually practises the piano.")
        );
    }

    #[test]
    fn an_until_phrase_stays_with_the_nearest_verb() {
        // "am" of a clock time is no verb, so "until 3 am" is a bare time, which stays.
        assert_eq!(moved("Last year's hen party ended with everyone dancing until 3 am."), None);
        assert_eq!(moved("We stayed up talking until 2 am."), None);
        assert_eq!(moved("The party ended with everyone dancing until the sun came up."), None);
        assert_eq!(
            moved("We kept dancing until the sun came up.").as_deref(),
            Some("Until the sun came up, we kept dancing.")
        );
        // "again" left at the end would read with the fronted day too.
        assert_eq!(moved("They didn't empty our bin again today."), None);
        assert_eq!(moved("They emptied our bin today.").as_deref(), Some("Today, they emptied our bin."));
    }

    #[test]
    fn moves_clauses() {
        assert_eq!(
            moved("Because it rained, we stayed home.").as_deref(),
            Some("We stayed home because it rained.")
        );
        assert_eq!(
            moved("We stayed home because it rained.").as_deref(),
            Some("Because it rained, we stayed home.")
        );
        assert_eq!(
            moved("I stayed, although it was late.").as_deref(),
            Some("Although it was late, I stayed.")
        );
        assert_eq!(moved("The museum doesn't open until ten on Sundays."), None);
        assert_eq!(moved("We did not leave until the rain stopped."), None);
        assert_eq!(moved("They put off the meeting until next week."), None);
        assert_eq!(moved("The plumber said the pipe had burst because of the frost."), None);
        assert_eq!(moved("We went shopping after lunch and came back at four."), None);
        assert_eq!(moved("We stayed up until two in the morning talking."), None);
        assert_eq!(moved("I'll send you the details later today."), None);
        assert_eq!(moved("The meeting has been moved to 3 pm tomorrow."), None);
        assert_eq!(moved("The dog jumped into the river after the ball."), None);
        assert_eq!(moved("She handed in her thesis two days before the deadline."), None);
        assert_eq!(moved("You can either pay now or pay when the goods are delivered."), None);
        assert_eq!(moved("If you heat ice, it melts."), None);
        assert_eq!(moved("The guests stayed until after midnight."), None);

        assert_eq!(moved("Our neighbours threw a party that lasted until three in the morning."), None);
        assert_eq!(moved("Please remind Tom about the dentist appointment tomorrow."), None);
        assert_eq!(
            moved("The students are taking an exam today.").as_deref(),
            Some("Today, the students are taking an exam.")
        );
        assert_eq!(
            moved("When we arrived in Rome, it was already dark.").as_deref(),
            Some("It was already dark when we arrived in Rome.")
        );
        assert_eq!(
            moved("If you set up a budget, it's easier to save money.").as_deref(),
            Some("It's easier to save money if you set up a budget.")
        );
        assert_eq!(
            moved("The children ran home after the match.").as_deref(),
            Some("After the match, the children ran home.")
        );
        assert_eq!(moved("The meat should be cooked until it's no longer pink."), None);
        assert_eq!(
            moved("The match was cancelled because it's raining.").as_deref(),
            Some("Because it's raining, the match was cancelled.")
        );
        assert_eq!(moved("I was about to call you when you texted me."), None);
        assert_eq!(
            moved("I tidied my desk before the meeting.").as_deref(),
            Some("Before the meeting, I tidied my desk.")
        );
        assert_eq!(moved("I am unsure if I locked the front door."), None);
        assert_eq!(moved("I would like to complain about the service I received today."), None);
        assert_eq!(moved("The weather is lovely today.").as_deref(), Some("Today, the weather is lovely."));
        assert_eq!(
            moved("I feel tired because I slept badly.").as_deref(),
            Some("Because I slept badly, I feel tired.")
        );
        assert_eq!(moved("The match was postponed until Sunday."), None);
        assert_eq!(
            moved("We waited until the rain stopped.").as_deref(),
            Some("Until the rain stopped, we waited.")
        );
        assert_eq!(moved("Weather is nice today.").as_deref(), Some("Today, weather is nice."));
        assert_eq!(moved("Today, the weather is nice.").as_deref(), Some("The weather is nice today."));
        assert_eq!(
            moved("She has been playing tennis since she was seven.").as_deref(),
            Some("Since she was seven, she has been playing tennis.")
        );
        assert_eq!(moved("He left early since it was late."), None);
        assert_eq!(moved("It has been ages since we last caught up."), None);
        assert_eq!(
            moved("If you miss five lectures, you may not take the exam.").as_deref(),
            Some("You may not take the exam if you miss five lectures.")
        );
        assert_eq!(
            moved("After graduating, she travelled around Spain.").as_deref(),
            Some("She travelled around Spain after graduating.")
        );
        assert_eq!(moved("The bread was still warm when we got it home."), None);
        assert_eq!(moved("We met in the café after the lecture to go over the notes."), None);
        assert_eq!(moved("They offered me a discount if I signed up for eighteen months."), None);
        assert_eq!(moved("Please check whether any payments were made after nine last night."), None);
        assert_eq!(moved("Thanks so much for taking Max out while I was ill."), None);
        assert_eq!(moved("My warranty ran out two weeks before the screen broke."), None);
        assert_eq!(moved("Our neighbour kindly offered to water our plants while we are away."), None);
        assert_eq!(moved("The skip will be collected on Tuesday after lunch."), None);
        // Shapes that are left alone.
        assert_eq!(moved("It is not because we stayed home."), None);
        assert_eq!(moved("I don't go because it rains."), None);
        assert_eq!(moved("The forecast predicts rain tomorrow."), None);
        assert_eq!(moved("John left because he was tired."), None);
        assert_eq!(moved("It is due by tomorrow."), None);
        assert_eq!(moved("If so, we go."), None);
        assert_eq!(moved("If it rains, then we stay."), None);
        assert_eq!(moved("Because, well, \"x\" and y, z."), None);
    }

    #[test]
    fn a_question_s_condition_or_time_leads_it() {
        assert_eq!(
            moved("Will we get a refund if the concert is postponed?").as_deref(),
            Some("If the concert is postponed, will we get a refund?")
        );
        assert_eq!(
            moved("Can you hold this while I open the door?").as_deref(),
            Some("While I open the door, can you hold this?")
        );
        assert_eq!(
            moved("Should I cover the dahlias before the first frost?").as_deref(),
            Some("Before the first frost, should I cover the dahlias?")
        );
        // A reason or a limit may be what is asked; after "is it" or "mind" the clause is.
        assert_eq!(moved("Did you leave because you were tired?"), None);
        assert_eq!(moved("Can we wait here until the rain stops?"), None);
        assert_eq!(moved("Is it all right if I leave early?"), None);
        assert_eq!(moved("Do you mind if I sit here?"), None);
        // After a verb of asking or knowing, "when" and "if" open what is asked.
        assert_eq!(moved("Can you tell me when the shop opens?"), None);
        assert_eq!(moved("Could you let me know if you are coming?"), None);
        assert_eq!(moved("Can we meet in the café after the lecture to go over the notes?"), None);
    }

    #[test]
    fn a_clause_stays_with_the_second_of_two_coordinated_clauses() {
        assert_eq!(moved("She cooked dinner and he washed the dishes after the film."), None);
        assert_eq!(moved("After the film, she cooked dinner and he washed the dishes."), None);
        assert_eq!(moved("I got home and then I went to bed because I was tired."), None);
        // A coordination inside the moved clause is its own.
        assert_eq!(
            moved("We stayed home because it was cold and it rained.").as_deref(),
            Some("Because it was cold and it rained, we stayed home.")
        );
        // "and may hide": a modal's predicate is a second one, which the condition is for.
        assert_eq!(moved("She is very shy and may hide if you approach her."), None);
        assert_eq!(
            moved("She may hide if you approach her.").as_deref(),
            Some("If you approach her, she may hide.")
        );
    }

    #[test]
    fn a_time_clause_may_tell_when_a_picture_shows_someone() {
        assert_eq!(moved("The breeder sent us a video of her when she was born."), None);
        assert_eq!(moved("He showed me a photo of his son when he was little."), None);
        // A time to come is the sending's.
        assert_eq!(
            moved("I'll send you photos of the finished kitchen once the painters have gone.").as_deref(),
            Some("Once the painters have gone, I'll send you photos of the finished kitchen.")
        );
    }

    #[test]
    fn a_clause_after_an_object_s_infinitive_may_be_the_infinitive_s() {
        assert_eq!(moved("Can you remind me to read the meter before we go on holiday?"), None);
        assert_eq!(moved("I joined a running club to get fitter before the marathon."), None);
        assert_eq!(
            moved("My grandmother taught me to sew when I was ten.").as_deref(),
            Some("When I was ten, my grandmother taught me to sew.")
        );
        assert_eq!(
            moved("I need to renew my passport before we travel.").as_deref(),
            Some("Before we travel, I need to renew my passport.")
        );
    }

    #[test]
    fn never_before_and_a_hedge_stay_in_their_order() {
        assert_eq!(moved("She never goes to bed before midnight."), None);
        assert_eq!(moved("I won't be able to pick it up before five o'clock."), None);
        assert_eq!(
            moved("I didn't get a copy of the letter before I left.").as_deref(),
            Some("Before I left, I didn't get a copy of the letter.")
        );
        assert_eq!(
            moved("We need to leave before it gets dark.").as_deref(),
            Some("Before it gets dark, we need to leave.")
        );
        assert_eq!(moved("I'm afraid I have to cancel today's lesson because I'm ill."), None);
        assert_eq!(
            moved("I have to cancel today's lesson because I'm ill.").as_deref(),
            Some("Because I'm ill, I have to cancel today's lesson.")
        );
    }

    #[test]
    fn an_opening_day_does_not_move_into_a_clause() {
        assert_eq!(moved("Yesterday, Maria met John in Lisbon because it was sunny."), None);
        assert_eq!(
            moved("Yesterday, Maria met John in Lisbon.").as_deref(),
            Some("Maria met John in Lisbon yesterday.")
        );
    }

    #[test]
    fn a_clause_is_not_stacked_on_an_opening_time() {
        assert_eq!(moved("Last year the trip was cancelled because of the snow."), None);
        assert_eq!(moved("On Tuesday the shop closed early because of the flood."), None);
        assert_eq!(
            moved("Last week's quiz was cancelled because the landlord was ill.").as_deref(),
            Some("Because the landlord was ill, last week's quiz was cancelled.")
        );
        assert_eq!(
            moved("The trip was cancelled because of the snow.").as_deref(),
            Some("Because of the snow, the trip was cancelled.")
        );
    }

    #[test]
    fn a_time_adverb_stays_in_a_clause_with_no_that() {
        assert_eq!(moved("I lost the keys you gave me yesterday."), None);
        assert_eq!(moved("I lost my keys yesterday.").as_deref(), Some("Yesterday, I lost my keys."));
    }
}
