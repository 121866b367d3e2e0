//! Questions asked another way: "Can you help me?" -> "Would you be able to help me?", "What
//! time does the film start?" -> "When does the film start?", "Why did you leave?" -> "What made
//! you leave?", "How much does it cost?" -> "How much is it?", "Do you have a pen?" <-> "Have
//! you got a pen?". Each form keeps the question's speech act (a request stays a request, an
//! ability question stays one) and its answer ("Do you mind if ...?" is left alone, since "Is it
//! all right if ...?" turns the answer round). Only whole questions of one clause, by their
//! opening words, so nothing moves out of its clause.

use crate::lexicon::Pos;
use crate::morph::{self, Form};
use crate::shape::{self, Plain, leaving_start};
use crate::tokens::Token;
use crate::words::{ABILITY_VERBS, CLAUSE_WORDS, REQUEST_VERBS};

/// Verbs of perception and understanding: "Can you see the sea?" is no question of being able.
const PERCEIVING: &[&str] =
    &["see", "hear", "smell", "taste", "feel", "understand", "remember", "imagine", "believe", "tell"];

/// Whether the items at `at` are as the text wrote them: a word group may have made them
/// ("Would you like" -> "Do you want"), and a question rewrite that took them back would only
/// undo it.
fn written(p: &Plain, at: &[usize]) -> bool {
    at.iter().all(|&k| p.items.get(k).is_none_or(|t| !t.changed))
}

fn question(p: &Plain) -> bool {
    p.terminal.text == "?"
}

/// Whether the word has a reading as the bare form of a verb.
fn base_verb(word: &str) -> bool {
    REQUEST_VERBS.contains(&word) || crate::words::plain_verb(word)
}

/// Whether a clause word follows item `from`: a second clause the new opening could come to
/// govern.
fn clause_after(p: &Plain, from: usize) -> bool {
    p.items[from..].iter().any(|t| t.is_word() && CLAUSE_WORDS.contains(&t.text.to_lowercase().as_str()))
}

/// The new opening words, then the question's items from `from` on, with the first of them
/// lowercased where it leaves the start.
fn reopen(p: &Plain, opening: &[&str], from: usize) -> Option<Vec<Token>> {
    if p.items[..from.min(p.items.len())].iter().any(|t| t.changed) {
        return None;
    }
    let mut out: Vec<Token> = opening
        .iter()
        .enumerate()
        .map(|(k, w)| if k == 0 { shape::word(&shape::capitalise(w)) } else { shape::word(w) })
        .collect();
    let mut rest = p.items[from..].iter();
    if from == 0 {
        out.push(leaving_start(rest.next()?)?);
    }
    out.extend(rest.cloned());
    Some(shape::build(&out, &p.terminal))
}

/// "Can you help me?" / "Could you help me?" -> "Would you be able to help me?": a request with
/// a verb of asking for help; "Can you swim?" -> "Are you able to swim?": the ability itself,
/// not a verb of perceiving ("Can you see the sea?") and not a request.
pub fn able_to(p: &Plain) -> Option<Vec<Token>> {
    if !question(p) || p.items.len() < 3 || p.commas() > 1 || p.lower(1) != "you" {
        return None;
    }
    let modal = p.lower(0);
    let verb = p.lower(2);
    // "Can you tell me" asks a favour, "Can you tell the difference" a skill.
    let skill = ABILITY_VERBS.contains(&verb.as_str()) && !["me", "us"].contains(&p.lower(3).as_str());
    let request = REQUEST_VERBS.contains(&verb.as_str()) && !skill;
    if (modal == "can" || modal == "could") && request {
        return reopen(p, &["would", "you", "be", "able", "to"], 2);
    }
    if modal == "can"
        && ABILITY_VERBS.contains(&verb.as_str())
        && !PERCEIVING.contains(&verb.as_str())
        // A question that names the speaker ("Can you drive me home?") asks a favour.
        && !p.items.iter().any(|t| ["me", "us", "my", "our", "please"].contains(&t.text.to_lowercase().as_str()))
        && !clause_after(p, 3)
    {
        return reopen(p, &["are", "you", "able", "to"], 2);
    }
    None
}

/// "Do you want to come?" -> "Would you like to come?", "Do you want a cup of tea?" -> "Would
/// you like a cup of tea?": an offer or an invitation either way.
pub fn would_like(p: &Plain) -> Option<Vec<Token>> {
    if !written(p, &[0, 2]) {
        return None;
    }
    if !question(p) || p.items.len() < 4 || p.lower(2) != "want" {
        return None;
    }
    let subject = p.lower(1);
    let agrees = match p.lower(0).as_str() {
        "do" => ["you", "we", "they"].contains(&subject.as_str()),
        "does" => ["he", "she"].contains(&subject.as_str()),
        _ => false,
    };
    // "Do you want me to drive?" -> "Would you like me to drive?".
    let someone = ["me", "us"].contains(&p.lower(3).as_str()) && p.lower(4) == "to";
    if !agrees || !(someone || ["to", "a", "an", "some"].contains(&p.lower(3).as_str())) {
        return None;
    }
    let mut out: Vec<Token> = vec![shape::word("Would"), p.items[1].clone(), shape::word("like")];
    out.extend_from_slice(&p.items[3..]);
    Some(shape::build(&out, &p.terminal))
}

/// Verbs of a scheduled moment, which "what time" and "when" both ask about.
const TIMED: &[&str] =
    &["start", "begin", "open", "close", "leave", "arrive", "finish", "end", "land", "depart"];

/// Verbs with a particle that tell a moment of the day ("get up", "go to bed").
const TIMED_WITH: &[(&str, &str)] = &[
    ("get", "up"),
    ("get", "home"),
    ("get", "back"),
    ("wake", "up"),
    ("go", "to"),
    ("come", "home"),
    ("come", "back"),
];

/// What has a time of day by its nature, so that "When does the film start?" asks for the clock:
/// "When does the new term start?" asks for a date.
const SCHEDULED: &[&str] = &[
    "film",
    "movie",
    "show",
    "match",
    "game",
    "train",
    "bus",
    "flight",
    "plane",
    "ferry",
    "shop",
    "store",
    "museum",
    "bank",
    "library",
    "pub",
    "restaurant",
    "class",
    "lesson",
    "meeting",
    "party",
    "concert",
    "pharmacy",
    "supermarket",
    "gym",
    "pool",
    "market",
    "play",
    "performance",
    "café",
    "cafe",
    "office",
    "post",
    "dinner",
    "lunch",
    "breakfast",
    "coach",
    "tour",
    "service",
    "ceremony",
    "appointment",
];

/// The verb after "what time"/"when" + auxiliary + subject telling a time of day, and whether the
/// subject names something scheduled or is a pronoun.
fn timed_verb(p: &Plain, aux: usize) -> Option<(bool, bool)> {
    let n = p.items.len();
    for k in aux + 2..(aux + 6).min(n) {
        let w = p.lower(k);
        let with = TIMED_WITH.iter().any(|&(v, part)| v == w && p.lower(k + 1) == part)
            && (w != "go" || p.lower(k + 2) == "bed");
        if TIMED.contains(&w.as_str()) || with {
            let subject: Vec<String> = (aux + 1..k).map(|j| p.lower(j)).collect();
            let pronoun =
                subject.len() == 1 && ["you", "we", "they", "he", "she", "it"].contains(&subject[0].as_str());
            let scheduled = subject.last().is_some_and(|s| SCHEDULED.contains(&s.as_str()))
                && ["the", "your", "my", "our", "his", "her", "their"].contains(&subject[0].as_str());
            return Some((pronoun && with, scheduled));
        }
    }
    None
}

/// "What time does the film start?" -> "When does the film start?"; "When does the next bus
/// leave?" -> "What time does the next bus leave?" only of what keeps hours (a bus, a shop) or
/// a moment of one's day ("When do you get up?"), in the present or with "will": "When did you
/// leave Paris?" may ask for a year.
pub fn what_time(p: &Plain) -> Option<Vec<Token>> {
    if !question(p) || p.commas() != 0 || clause_after(p, 1) {
        return None;
    }
    let auxiliaries = ["does", "do", "did", "will"];
    if p.lower(0) == "what" && p.lower(1) == "time" && auxiliaries.contains(&p.lower(2).as_str()) {
        timed_verb(p, 2)?;
        return reopen(p, &["when"], 2);
    }
    if p.lower(0) == "when" && ["does", "do", "will"].contains(&p.lower(1).as_str()) {
        let (daily, scheduled) = timed_verb(p, 1)?;
        return (daily || scheduled).then(|| reopen(p, &["what", "time"], 1)).flatten();
    }
    None
}

/// The object form of a subject pronoun.
fn object_of(subject: &str) -> Option<&'static str> {
    Some(match subject {
        "i" => "me",
        "you" => "you",
        "he" => "him",
        "she" => "her",
        "we" => "us",
        "they" => "them",
        _ => return None,
    })
}

/// "Why did you leave so early?" -> "What made you leave so early?", "Why does he work so late?"
/// -> "What makes him work so late?": the cause asked as what brought it about; a pronoun subject
/// and a bare verb straight after it, never with "not" ("Why didn't you call?" blames).
pub fn what_made(p: &Plain) -> Option<Vec<Token>> {
    if !written(p, &[0, 1]) {
        return None;
    }
    if !question(p) || p.lower(0) != "why" || p.items.len() < 4 || p.commas() != 0 {
        return None;
    }
    let made = match p.lower(1).as_str() {
        "did" => "made",
        "do" if ["i", "you", "we", "they"].contains(&p.lower(2).as_str()) => "makes",
        "does" if ["he", "she"].contains(&p.lower(2).as_str()) => "makes",
        _ => return None,
    };
    let object = object_of(&p.lower(2))?;
    let verb = p.lower(3);
    // "What made you have to leave" and "What made you need it" read badly.
    // "Why do you think he left?" asks why he left, "What makes you think he left?" why one
    // thinks so: after a verb of thinking or saying "why" may belong to the clause inside.
    const THINKING: &[&str] =
        &["think", "believe", "suppose", "reckon", "guess", "say", "feel", "imagine", "expect", "know"];
    if THINKING.contains(&verb.as_str()) {
        return None;
    }
    if ["have", "need", "not", "be", "mind", "bother", "care", "let", "make"].contains(&verb.as_str())
        || !base_verb(&verb)
    {
        return None;
    }
    let mut out: Vec<Token> = vec![shape::word("What"), shape::word(made), shape::word(object)];
    out.extend_from_slice(&p.items[3..]);
    Some(shape::build(&out, &p.terminal))
}

/// "Why did you leave so early?" -> "How come you left so early?": the verb takes the tense
/// and person the auxiliary had.
pub fn how_come(p: &Plain) -> Option<Vec<Token>> {
    what_made(p)?;
    let subject = p.lower(2);
    let verb = p.lower(3);
    let form = match p.lower(1).as_str() {
        "did" => Form::Past,
        "does" => Form::ThirdPerson,
        _ => Form::Base,
    };
    let lemma = if ["go", "do", "get", "come"].contains(&verb.as_str()) {
        verb.clone()
    } else {
        morph::analyse(&verb)
            .into_iter()
            .find(|a| a.pos == Pos::Verb && a.form == Form::Base)?
            .entry
            .lemma
            .to_string()
    };
    let inflected = match (lemma.as_str(), form) {
        (_, Form::Base) => lemma.clone(),
        ("go", Form::Past) => "went".into(),
        ("go", _) => "goes".into(),
        ("do", Form::Past) => "did".into(),
        ("do", _) => "does".into(),
        ("get", Form::Past) => "got".into(),
        ("get", _) => "gets".into(),
        ("come", Form::Past) => "came".into(),
        ("come", _) => "comes".into(),
        _ => morph::inflect(&lemma, Pos::Verb, form)?,
    };
    let mut out: Vec<Token> = vec![shape::word("How"), shape::word("come")];
    out.push(if subject == "i" { p.items[2].clone() } else { shape::word(&subject) });
    out.push(shape::word(&inflected));
    out.extend_from_slice(&p.items[4..]);
    Some(shape::build(&out, &p.terminal))
}

/// "How much does a ticket cost?" -> "How much is a ticket?": the price, with "be" agreeing as
/// the auxiliary did.
pub fn how_much_is(p: &Plain) -> Option<Vec<Token>> {
    if !written(p, &[2, p.items.len().saturating_sub(1)]) {
        return None;
    }
    let n = p.items.len();
    if !question(p)
        || p.commas() != 0
        || p.lower(0) != "how"
        || p.lower(1) != "much"
        || p.from_end(1) != "cost"
    {
        return None;
    }
    let be = match p.lower(2).as_str() {
        "does" => "is",
        "do" => "are",
        _ => return None,
    };
    let clause =
        p.items[3..].iter().any(|t| t.text != "to" && CLAUSE_WORDS.contains(&t.text.to_lowercase().as_str()));
    // "How much do you think it will cost?": the thing priced is a noun phrase, with no verb or
    // second subject inside ("you think it will").
    let verb = n >= 5
        && p.items[3..n - 1].iter().enumerate().any(|(k, t)| {
            let w = t.text.to_lowercase();
            let subject = w.split(['\'', '’']).next().unwrap_or_default();
            crate::words::heads_clause(&w)
                || (k > 0 && crate::words::SUBJECT_PRONOUNS.contains(&subject))
                || ["going", "think", "believe", "will", "would", "can", "could", "should", "might", "must"]
                    .contains(&w.as_str())
        });
    if n < 5 || clause || verb {
        return None;
    }
    let mut out: Vec<Token> = vec![p.items[0].clone(), p.items[1].clone(), shape::word(be)];
    out.extend_from_slice(&p.items[3..n - 1]);
    Some(shape::build(&out, &p.terminal))
}

/// What one has, after "have": what one does with it instead ("have a shower", "have lunch")
/// is no "have got".
const HAVE_ACTS: &[&str] = &[
    "shower",
    "bath",
    "drink",
    "look",
    "go",
    "break",
    "rest",
    "party",
    "meal",
    "nap",
    "chat",
    "swim",
    "walk",
    "coffee",
    "tea",
    "snack",
    "bite",
    "try",
    "word",
    "game",
    "breakfast",
    "lunch",
    "dinner",
    "fun",
    "baby",
    "good",
    "great",
    "nice",
    "lovely",
    "fight",
    "row",
    "argument",
    "talk",
    "think",
    "wash",
    "dream",
];

/// "Do you have a pen?" <-> "Have you got a pen?", "Does she have any brothers?" -> "Has she got
/// any brothers?": having as possessing, after a determiner, never "have to" nor having an act.
pub fn have_got(p: &Plain) -> Option<Vec<Token>> {
    if !written(p, &[0, 2]) {
        return None;
    }
    if !question(p) || p.items.len() < 4 || p.commas() != 0 {
        return None;
    }
    let subject = p.lower(1);
    let determiner = |k: usize| {
        ["a", "an", "any", "some", "the", "my", "your", "his", "her", "our", "their", "enough", "time"]
            .contains(&p.lower(k).as_str())
    };
    let act =
        |from: usize| (from..(from + 3).min(p.items.len())).any(|k| HAVE_ACTS.contains(&p.lower(k).as_str()));
    let pronoun = ["you", "we", "they", "he", "she"].contains(&subject.as_str());
    match (p.lower(0).as_str(), p.lower(2).as_str()) {
        ("do" | "does", "have") if pronoun && determiner(3) && !act(3) => {
            let has = if p.lower(0) == "does" { "Has" } else { "Have" };
            let mut out: Vec<Token> = vec![shape::word(has), p.items[1].clone(), shape::word("got")];
            out.extend_from_slice(&p.items[3..]);
            Some(shape::build(&out, &p.terminal))
        }
        ("have" | "has", "got") if pronoun && determiner(3) => {
            let does = if p.lower(0) == "has" { "Does" } else { "Do" };
            let mut out: Vec<Token> = vec![shape::word(does), p.items[1].clone(), shape::word("have")];
            out.extend_from_slice(&p.items[3..]);
            Some(shape::build(&out, &p.terminal))
        }
        _ => None,
    }
}

/// "Do you know where the station is?" -> "Do you know where to find the station?", and "Where
/// is the nearest bank?" -> "Where can I find the nearest bank?": asking for a place either way.
pub fn where_to_find(p: &Plain) -> Option<Vec<Token>> {
    where_find(p, &["to", "find"])
}

/// "Do you know where the station is?" -> "Do you know where I can find the station?".
pub fn where_i_can_find(p: &Plain) -> Option<Vec<Token>> {
    if p.lower(0).starts_with("where") {
        return None;
    }
    where_find(p, &["I", "can", "find"])
}

fn where_find(p: &Plain, find: &[&str]) -> Option<Vec<Token>> {
    if !written(p, &[p.items.len().saturating_sub(1)]) {
        return None;
    }
    let n = p.items.len();
    if !question(p) || p.commas() != 0 {
        return None;
    }
    // "Do you know where", or "Could you tell me where".
    let knows = matches!(p.lower(0).as_str(), "do" | "does")
        && ["you", "anyone", "anybody"].contains(&p.lower(1).as_str())
        && p.lower(2) == "know"
        && p.lower(3) == "where";
    let tells = ["can", "could"].contains(&p.lower(0).as_str())
        && p.lower(1) == "you"
        && p.lower(2) == "tell"
        && p.lower(3) == "me"
        && p.lower(4) == "where";
    let w = if tells { 4 } else { 3 };
    if (knows || tells) && n >= w + 4 && ["is", "are"].contains(&p.from_end(1).as_str()) {
        let place = &p.items[w + 1..n - 1];
        let plain_noun_phrase = ["the", "my", "your", "our", "his", "her", "their"]
            .contains(&p.lower(w + 1).as_str())
            && place.len() <= 4
            && !clause_after(p, w + 1);
        // "where my order is" asks how far a thing on its way has come, not where to go and
        // look for it.
        const ON_THE_WAY: &[&str] = &[
            "order",
            "orders",
            "parcel",
            "parcels",
            "package",
            "packages",
            "delivery",
            "shipment",
            "refund",
            "taxi",
            "cab",
            "bus",
            "driver",
            "application",
        ];
        if !plain_noun_phrase || place.iter().any(|t| ON_THE_WAY.contains(&t.text.to_lowercase().as_str())) {
            return None;
        }
        let mut out: Vec<Token> = p.items[..=w].to_vec();
        out.extend(find.iter().map(|w| shape::word(w)));
        out.extend_from_slice(place);
        return Some(shape::build(&out, &p.terminal));
    }
    // "Where is" or, made before the rewrites, "Where's".
    let is = if p.lower(0).replace('’', "'") == "where's" { 1 } else { 2 };
    let opens = is == 1 || (p.lower(0) == "where" && p.lower(1) == "is");
    if opens && p.lower(is) == "the" && p.lower(is + 1) == "nearest" && (is + 3..=is + 4).contains(&n) {
        return reopen(p, &["where", "can", "I", "find"], is);
    }
    None
}

/// "Did you manage to fix it?" -> "Were you able to fix it?".
pub fn managed_to(p: &Plain) -> Option<Vec<Token>> {
    if !written(p, &[0, 2]) {
        return None;
    }
    if !question(p)
        || p.lower(0) != "did"
        || p.lower(2) != "manage"
        || p.lower(3) != "to"
        || p.items.len() < 5
    {
        return None;
    }
    let be = match p.lower(1).as_str() {
        "you" | "we" | "they" => "Were",
        "he" | "she" | "i" => "Was",
        _ => return None,
    };
    let mut out: Vec<Token> = vec![shape::word(be), p.items[1].clone(), shape::word("able")];
    out.extend_from_slice(&p.items[3..]);
    Some(shape::build(&out, &p.terminal))
}

/// What went well or badly, which "How did it go?" and "How was it?" both ask about.
const EVENTS: &[&str] = &[
    "interview",
    "exam",
    "test",
    "meeting",
    "trip",
    "holiday",
    "holidays",
    "weekend",
    "party",
    "concert",
    "match",
    "game",
    "flight",
    "journey",
    "visit",
    "presentation",
    "lesson",
    "class",
    "date",
    "wedding",
    "show",
    "film",
    "movie",
    "play",
    "dinner",
    "lunch",
    "day",
    "evening",
    "night",
    "appointment",
    "talk",
    "course",
    "race",
    "shift",
    "first",
    "move",
    "operation",
    "audition",
];

/// The event of "How did the interview go?" or "How was the interview?", when it is one (after
/// a determiner, a noun of `EVENTS`), not a person ("How was your mother?" asks after her
/// health): the items it spans.
fn event_asked(p: &Plain) -> Option<(bool, std::ops::Range<usize>)> {
    if !written(p, &[0, 1, p.items.len().saturating_sub(1)]) {
        return None;
    }
    let n = p.items.len();
    if !question(p) || p.commas() != 0 || p.lower(0) != "how" || !(3..=6).contains(&n) {
        return None;
    }
    let determiner = ["the", "your", "his", "her", "their", "our", "my"].contains(&p.lower(2).as_str());
    if p.lower(1) == "did" && p.from_end(1) == "go" && determiner && EVENTS.contains(&p.from_end(2).as_str())
    {
        return Some((true, 2..n - 1));
    }
    if p.lower(1) == "was" && determiner && EVENTS.contains(&p.from_end(1).as_str()) {
        return Some((false, 2..n));
    }
    None
}

/// What one lived through without its going well or badly as an event: "How was the food?" asks
/// what it was like, but "How did the food go?" is no question.
const EXPERIENCES: &[&str] = &[
    "traffic",
    "weather",
    "food",
    "hotel",
    "meal",
    "drive",
    "ride",
    "service",
    "room",
    "beach",
    "restaurant",
    "coffee",
    "water",
    "crossing",
    "view",
];

/// "How was the food?" -> "What was the food like?".
pub fn what_was_it_like(p: &Plain) -> Option<Vec<Token>> {
    let n = p.items.len();
    if !question(p)
        || p.commas() != 0
        || p.lower(0) != "how"
        || p.lower(1) != "was"
        || !(4..=5).contains(&n)
        || !written(p, &[0, 1])
        || !["the", "your", "his", "her", "their", "our", "my"].contains(&p.lower(2).as_str())
        || !EXPERIENCES.contains(&p.from_end(1).as_str())
    {
        return None;
    }
    let mut out: Vec<Token> = vec![shape::word("What"), p.items[1].clone()];
    out.extend_from_slice(&p.items[2..]);
    out.push(shape::word("like"));
    Some(shape::build(&out, &p.terminal))
}

/// "How did the interview go?" -> "How was the interview?", and "How was your weekend?" -> "What
/// was your weekend like?".
pub fn how_was(p: &Plain) -> Option<Vec<Token>> {
    let (went, event) = event_asked(p)?;
    let mut out: Vec<Token> = if went {
        vec![p.items[0].clone(), shape::word("was")]
    } else {
        vec![shape::word("What"), p.items[1].clone()]
    };
    out.extend_from_slice(&p.items[event]);
    if !went {
        out.push(shape::word("like"));
    }
    Some(shape::build(&out, &p.terminal))
}

/// "How did the interview go?" -> "What was the interview like?", and "How was your weekend?"
/// -> "How did your weekend go?".
pub fn how_did_it_go(p: &Plain) -> Option<Vec<Token>> {
    let (went, event) = event_asked(p)?;
    let mut out: Vec<Token> = if went {
        vec![shape::word("What"), shape::word("was")]
    } else {
        vec![p.items[0].clone(), shape::word("did")]
    };
    out.extend_from_slice(&p.items[event]);
    out.push(shape::word(if went { "like" } else { "go" }));
    Some(shape::build(&out, &p.terminal))
}

/// "Is it going to rain?" -> "Will it rain?", "Is there going to be a test?" -> "Will there be a
/// test?": a forecast either way; with a person as the subject "going to" asks an intention and
/// "will you" a favour, so only "it" and "there".
pub fn going_to_will(p: &Plain) -> Option<Vec<Token>> {
    if !written(p, &[0, 2, 3]) {
        return None;
    }
    if !question(p)
        || p.lower(0) != "is"
        || !["it", "there"].contains(&p.lower(1).as_str())
        || p.lower(2) != "going"
        || p.lower(3) != "to"
        || p.items.len() < 5
        || !base_verb(&p.lower(4))
    {
        return None;
    }
    let mut out: Vec<Token> = vec![shape::word("Will"), p.items[1].clone()];
    out.extend_from_slice(&p.items[4..]);
    Some(shape::build(&out, &p.terminal))
}

/// "Why don't we order a pizza?" <-> "Shall we order a pizza?": the same suggestion, not with
/// "ever" or "still", which make the first a complaint.
pub fn shall_we(p: &Plain) -> Option<Vec<Token>> {
    if !question(p)
        || p.items.len() < 4
        || p.commas() != 0
        || p.find("ever").is_some()
        || p.find("still").is_some()
    {
        return None;
    }
    let dont = p.lower(1).replace('’', "'") == "don't";
    if p.lower(0) == "why" && dont && p.lower(2) == "we" && base_verb(&p.lower(3)) {
        return reopen(p, &["shall"], 2);
    }
    if p.lower(0) == "shall" && p.lower(1) == "we" && base_verb(&p.lower(2)) {
        return reopen(p, &["why", "don't"], 1);
    }
    None
}

/// "Can I borrow your pen?" -> "Could you lend me your pen?": the same request from the other
/// side, with a thing lent after a determiner.
pub fn borrow_lend(p: &Plain) -> Option<Vec<Token>> {
    if !question(p)
        || !["can", "could", "may"].contains(&p.lower(0).as_str())
        || p.lower(1) != "i"
        || p.lower(2) != "borrow"
        || p.items.len() < 5
        || p.find("from").is_some()
        || p.commas() > 1
        || !["your", "a", "an", "some", "the", "this", "that", "these", "those"]
            .contains(&p.lower(3).as_str())
    {
        return None;
    }
    reopen(p, &["could", "you", "lend", "me"], 3)
}

/// Openings of questions asked in two ways that say the same, and whether the opening must be
/// the whole question: "What time is it in Tokyo?" is no "What is the time in Tokyo?", and "Are
/// you OK with that?" asks for consent, not after one's health.
const OPENINGS: &[(&[&str], &[&str], bool)] = &[
    (&["how", "do", "i", "get", "to"], &["how", "can", "I", "get", "to"], false),
    (&["how", "can", "i", "get", "to"], &["how", "do", "I", "get", "to"], false),
    (&["where", "are", "you", "from"], &["where", "do", "you", "come", "from"], true),
    (&["where", "do", "you", "come", "from"], &["where", "are", "you", "from"], true),
    (&["what's", "wrong", "with"], &["what's", "the", "matter", "with"], false),
    (&["what", "is", "wrong", "with"], &["what", "is", "the", "matter", "with"], false),
    (&["what's", "the", "matter", "with"], &["what's", "wrong", "with"], false),
    (&["what", "is", "the", "matter", "with"], &["what", "is", "wrong", "with"], false),
    (&["what's", "wrong"], &["what's", "the", "matter"], true),
    (&["what", "is", "wrong"], &["what", "is", "the", "matter"], true),
    (&["what", "do", "you", "think", "of"], &["what", "do", "you", "think", "about"], false),
    (&["what", "did", "you", "think", "of"], &["what", "did", "you", "think", "about"], false),
    (&["is", "it", "ok", "if"], &["is", "it", "all", "right", "if"], false),
    (&["is", "it", "okay", "if"], &["is", "it", "all", "right", "if"], false),
    (&["is", "it", "all", "right", "if"], &["is", "it", "okay", "if"], false),
    (&["how", "long", "does", "it", "take"], &["how", "much", "time", "does", "it", "take"], false),
    (&["how", "long", "will", "it", "take"], &["how", "much", "time", "will", "it", "take"], false),
    (&["how", "long", "did", "it", "take"], &["how", "much", "time", "did", "it", "take"], false),
    (&["what", "time", "is", "it"], &["what", "is", "the", "time"], true),
    (&["did", "you", "have", "a", "good", "time"], &["did", "you", "enjoy", "yourself"], false),
    (&["did", "you", "have", "a", "nice", "time"], &["did", "you", "enjoy", "yourself"], false),
    (&["are", "you", "ok"], &["are", "you", "all", "right"], true),
    (&["are", "you", "okay"], &["are", "you", "all", "right"], true),
    (&["are", "you", "all", "right"], &["are", "you", "okay"], true),
    (&["is", "everything", "ok"], &["is", "everything", "all", "right"], false),
    (&["is", "everything", "okay"], &["is", "everything", "all", "right"], false),
    (&["is", "everything", "all", "right"], &["is", "everything", "okay"], false),
    (&["do", "you", "need", "any", "help"], &["do", "you", "need", "a", "hand"], false),
    (&["is", "it", "ok", "to"], &["is", "it", "all", "right", "to"], false),
    (&["is", "it", "okay", "to"], &["is", "it", "all", "right", "to"], false),
    (&["do", "you", "fancy", "a"], &["would", "you", "like", "a"], false),
    (&["do", "you", "know", "what", "time", "it", "is"], &["do", "you", "know", "the", "time"], true),
    (&["how", "often", "does"], &["how", "frequently", "does"], false),
    (&["how", "often", "do"], &["how", "frequently", "do"], false),
    (&["do", "you", "fancy", "some"], &["would", "you", "like", "some"], false),
    (&["how", "often", "should"], &["how", "frequently", "should"], false),
    (&["how", "often", "did"], &["how", "frequently", "did"], false),
    (&["how", "often", "will"], &["how", "frequently", "will"], false),
    // A job asked about either way; only whole, since "What do you do for a living in winter?"
    // is another question.
    (&["what", "do", "you", "do", "for", "a", "living"], &["what", "is", "your", "job"], true),
    (&["what", "does", "he", "do", "for", "a", "living"], &["what", "is", "his", "job"], true),
    (&["what", "does", "she", "do", "for", "a", "living"], &["what", "is", "her", "job"], true),
    (&["what's", "your", "job"], &["what", "do", "you", "do", "for", "a", "living"], true),
    (&["what", "is", "your", "job"], &["what", "do", "you", "do", "for", "a", "living"], true),
    (&["is", "this", "seat", "taken"], &["is", "anyone", "sitting", "here"], true),
    // "far" as a distance, never the "far" of degree ("Is it far too expensive?").
    (&["is", "it", "far"], &["is", "it", "a", "long", "way"], true),
    (&["is", "it", "far", "from"], &["is", "it", "a", "long", "way", "from"], false),
    (&["is", "it", "far", "to"], &["is", "it", "a", "long", "way", "to"], false),
    (&["what's", "the", "weather", "like"], &["how's", "the", "weather"], false),
    (&["what", "is", "the", "weather", "like"], &["how", "is", "the", "weather"], false),
    (&["how", "old", "are", "you"], &["what", "age", "are", "you"], true),
    (&["did", "you", "sleep", "well"], &["did", "you", "have", "a", "good", "night's", "sleep"], true),
    // An action begun in the past and going on: the perfect and its progressive say the same of
    // these verbs of activity, not of a state ("How long have you known her?").
    (&["how", "long", "have", "you", "lived"], &["how", "long", "have", "you", "been", "living"], false),
    (&["how", "long", "have", "you", "worked"], &["how", "long", "have", "you", "been", "working"], false),
    (&["how", "long", "have", "you", "waited"], &["how", "long", "have", "you", "been", "waiting"], false),
    (&["how", "long", "have", "you", "studied"], &["how", "long", "have", "you", "been", "studying"], false),
    (&["how", "long", "has", "he", "lived"], &["how", "long", "has", "he", "been", "living"], false),
    (&["how", "long", "has", "she", "lived"], &["how", "long", "has", "she", "been", "living"], false),
    (&["how", "long", "has", "he", "worked"], &["how", "long", "has", "he", "been", "working"], false),
    (&["how", "long", "has", "she", "worked"], &["how", "long", "has", "she", "been", "working"], false),
    // "get" says less than "buy" but answers the same question of where; not back, since what
    // one got may have been a gift.
    (&["where", "did", "you", "buy"], &["where", "did", "you", "get"], false),
];

/// A question whose opening is one of `OPENINGS`, asked the other way.
pub fn opening(p: &Plain) -> Option<Vec<Token>> {
    if !question(p) || p.commas() > 1 {
        return None;
    }
    let said = |k: usize| p.lower(k).replace('’', "'");
    let &(from, to, _) = OPENINGS.iter().find(|(from, _, whole)| {
        from.iter().enumerate().all(|(k, w)| said(k) == *w) && (!whole || p.items.len() == from.len())
    })?;
    reopen(p, to, from.len())
}

/// Events one goes to and enjoys or not: "Did you enjoy the concert?" asks what "Did you like
/// the concert?" asks, and "Will you be at the party?" what "Are you coming to the party?" asks.
const OCCASIONS: &[&str] = &[
    "party",
    "concert",
    "wedding",
    "festival",
    "show",
    "match",
    "game",
    "meeting",
    "dinner",
    "conference",
    "play",
    "film",
    "movie",
    "lesson",
    "class",
    "talk",
    "exhibition",
    "trip",
    "meal",
    "book",
];

/// Social events one has a good time at ("at the film" would not read).
const GATHERINGS: &[&str] = &["party", "concert", "wedding", "festival", "match", "game", "show"];

/// The item after "the" and the occasion's noun when the question ends with it, or with it and
/// one time word: "Did you enjoy the concert?", "Are you coming to the party tonight?".
fn occasion_at(p: &Plain, at: usize, tail_ok: bool) -> Option<usize> {
    let n = p.items.len();
    if !["the", "your", "our", "their", "his", "her", "my"].contains(&p.lower(at).as_str())
        || !OCCASIONS.contains(&p.lower(at + 1).as_str())
    {
        return None;
    }
    let after: Vec<String> = (at + 2..n).map(|k| p.lower(k)).collect();
    let after: Vec<&str> = after.iter().map(String::as_str).collect();
    let fits = match after.as_slice() {
        [] => true,
        ["tonight" | "tomorrow" | "later"] => tail_ok,
        ["this" | "next" | "on", when] => {
            tail_ok
                && (["weekend", "evening", "afternoon", "morning", "week"].contains(when)
                    || crate::words::DAY_NAMES.contains(when))
        }
        _ => false,
    };
    fits.then_some(at + 1)
}

/// "Did you enjoy the concert?" <-> "Did you like the concert?": what one thought of an event
/// or a film, asked either way.
pub fn enjoy_like(p: &Plain) -> Option<Vec<Token>> {
    if !question(p)
        || p.commas() != 0
        || !written(p, &[0, 1, 2])
        || p.lower(0) != "did"
        || p.lower(1) != "you"
    {
        return None;
    }
    let to = match p.lower(2).as_str() {
        "enjoy" => "like",
        "like" => "enjoy",
        _ => return None,
    };
    occasion_at(p, 3, false)?;
    reopen(p, &["did", "you", to], 3)
}

/// "Did you enjoy the party?" -> "Did you have a good time at the party?", a gathering only.
pub fn good_time_at(p: &Plain) -> Option<Vec<Token>> {
    if !question(p)
        || p.commas() != 0
        || !written(p, &[0, 1, 2])
        || p.lower(0) != "did"
        || p.lower(1) != "you"
    {
        return None;
    }
    if p.lower(2) != "enjoy" || !GATHERINGS.contains(&p.lower(4).as_str()) {
        return None;
    }
    occasion_at(p, 3, false)?;
    reopen(p, &["did", "you", "have", "a", "good", "time", "at"], 3)
}

/// What is shown and watched: "Did you watch the match?" asks what "Did you see the match?"
/// asks; not "the story" or "the news" in a paper, which one may have read.
const SHOWN: &[&str] = &[
    "match",
    "game",
    "final",
    "film",
    "movie",
    "show",
    "race",
    "programme",
    "program",
    "documentary",
    "concert",
];

/// "Did you watch the final last night?" -> "Did you see the final last night?".
pub fn watch_see(p: &Plain) -> Option<Vec<Token>> {
    let n = p.items.len();
    if !question(p) || p.commas() != 0 || !(5..=8).contains(&n) || !written(p, &[0, 1, 2]) {
        return None;
    }
    if p.lower(0) != "did" || p.lower(1) != "you" || p.lower(2) != "watch" {
        return None;
    }
    let determiner = ["the", "that", "this"].contains(&p.lower(3).as_str());
    if !determiner || !SHOWN.contains(&p.lower(4).as_str()) {
        return None;
    }
    // Only a time after the noun ("last night", "on Saturday"), nothing that could tell of it.
    let after: Vec<String> = (5..n).map(|k| p.lower(k)).collect();
    let after: Vec<&str> = after.iter().map(String::as_str).collect();
    let timed = match after.as_slice() {
        [] | ["yesterday"] => true,
        ["last", "night" | "week" | "weekend"] => true,
        ["on", "tv" | "television"] => true,
        ["on", day] => crate::words::DAY_NAMES.contains(day),
        _ => false,
    };
    if !timed {
        return None;
    }
    reopen(p, &["did", "you", "see"], 3)
}

/// "What does your husband do for a living?" -> "What is your husband's job?": the job of a
/// person named by a possessive and a noun for people.
pub fn job_of(p: &Plain) -> Option<Vec<Token>> {
    if !question(p) || p.commas() != 0 || p.items.len() != 8 || !written(p, &[0, 1, 4, 5, 6, 7]) {
        return None;
    }
    let opening = p.lower(0) == "what" && p.lower(1) == "does";
    let ending = ["do", "for", "a", "living"].iter().enumerate().all(|(k, w)| p.lower(4 + k) == *w);
    let owner = ["your", "his", "her", "their", "our", "my"].contains(&p.lower(2).as_str());
    let person = p.lower(3);
    if !opening
        || !ending
        || !owner
        || !crate::words::PEOPLE.contains(&person.as_str())
        || person.ends_with('s')
    {
        return None;
    }
    let mut out: Vec<Token> = vec![shape::word("What"), shape::word("is"), p.items[2].clone()];
    out.push(shape::word(&format!("{}'s", p.items[3].text)));
    out.push(shape::word("job"));
    Some(shape::build(&out, &p.terminal))
}

/// "Did you have a good weekend?" <-> "Did you enjoy your weekend?": a stretch of time one
/// spent, asked after either way.
pub fn enjoy_your(p: &Plain) -> Option<Vec<Token>> {
    const SPELLS: &[&str] =
        &["weekend", "holiday", "holidays", "day", "trip", "evening", "break", "flight", "journey"];
    if !question(p)
        || p.commas() != 0
        || !written(p, &[0, 1, 2, 3, 4])
        || p.lower(0) != "did"
        || p.lower(1) != "you"
    {
        return None;
    }
    let n = p.items.len();
    if n == 6
        && p.lower(2) == "have"
        && p.lower(3) == "a"
        && ["good", "nice", "great"].contains(&p.lower(4).as_str())
    {
        let spell = p.lower(5);
        if SPELLS.contains(&spell.as_str()) && spell != "holidays" {
            return reopen(p, &["did", "you", "enjoy", "your"], 5);
        }
    }
    if n == 5
        && p.lower(2) == "enjoy"
        && p.lower(3) == "your"
        && SPELLS.contains(&p.lower(4).as_str())
        && p.lower(4) != "holidays"
    {
        return reopen(p, &["did", "you", "have", "a", "good"], 4);
    }
    None
}

/// "Are you coming to the party tonight?" -> "Will you be at the party tonight?": whether one
/// will be there, asked of an event ahead.
pub fn will_you_be_at(p: &Plain) -> Option<Vec<Token>> {
    if !question(p) || p.commas() != 0 || !written(p, &[0, 1, 2, 3]) {
        return None;
    }
    if p.lower(0) != "are"
        || p.lower(1) != "you"
        || !["coming", "going"].contains(&p.lower(2).as_str())
        || p.lower(3) != "to"
    {
        return None;
    }
    occasion_at(p, 4, true)?;
    reopen(p, &["will", "you", "be", "at"], 4)
}

/// "Are you coming to the party tonight?" -> "Will you be coming to the party tonight?": the
/// arrangement told in the future progressive, which asks no favour as "Will you come" would.
pub fn will_you_be_coming(p: &Plain) -> Option<Vec<Token>> {
    if !question(p) || p.commas() != 0 || !written(p, &[0, 1, 2, 3]) {
        return None;
    }
    if p.lower(0) != "are"
        || p.lower(1) != "you"
        || !["coming", "going"].contains(&p.lower(2).as_str())
        || p.lower(3) != "to"
    {
        return None;
    }
    occasion_at(p, 4, true)?;
    reopen(p, &["will", "you", "be"], 2)
}

/// "Are there any seats left?" -> "Are there any seats remaining?": what is still there, a short
/// noun phrase after "any".
pub fn any_left(p: &Plain) -> Option<Vec<Token>> {
    let n = p.items.len();
    if !question(p) || p.commas() != 0 || !(5..=6).contains(&n) || !written(p, &[0, 1, n - 1]) {
        return None;
    }
    if !["is", "are"].contains(&p.lower(0).as_str())
        || p.lower(1) != "there"
        || p.lower(2) != "any"
        || p.lower(n - 1) != "left"
    {
        return None;
    }
    if !p.items[3..n - 1]
        .iter()
        .all(|t| t.is_word() && !CLAUSE_WORDS.contains(&t.text.to_lowercase().as_str()))
    {
        return None;
    }
    let mut out: Vec<Token> = p.items[..n - 1].to_vec();
    out.push(shape::word("remaining"));
    Some(shape::build(&out, &p.terminal))
}

/// Languages one speaks: "Do you speak French?" asks whether one can.
const LANGUAGES: &[&str] = &[
    "english",
    "french",
    "german",
    "spanish",
    "italian",
    "portuguese",
    "dutch",
    "russian",
    "chinese",
    "mandarin",
    "japanese",
    "arabic",
    "polish",
    "greek",
    "turkish",
    "welsh",
    "swedish",
    "hindi",
];

/// "Do you speak French?" -> "Can you speak French?": a language asked after either way.
pub fn speak_language(p: &Plain) -> Option<Vec<Token>> {
    let n = p.items.len();
    // Only the language alone: "Do you speak French well?" or "at home" ask another thing.
    if !question(p) || p.commas() != 0 || n != 4 || !written(p, &[0, 1, 2]) {
        return None;
    }
    if p.lower(0) != "do"
        || p.lower(1) != "you"
        || p.lower(2) != "speak"
        || !LANGUAGES.contains(&p.lower(3).as_str())
    {
        return None;
    }
    reopen(p, &["can", "you", "speak"], 3)
}

/// "How do you spell your name?" -> "How is your name spelled?": a single word or name asked
/// after, with the same answer.
pub fn spelled(p: &Plain) -> Option<Vec<Token>> {
    let n = p.items.len();
    if !question(p) || p.commas() != 0 || !(5..=6).contains(&n) || !written(p, &[0, 1, 2, 3]) {
        return None;
    }
    if !["how", "do", "you", "spell"].iter().enumerate().all(|(k, w)| p.lower(k) == *w) {
        return None;
    }
    let thing = match (n, p.lower(4).as_str()) {
        (5, "it" | "that" | "this") => true,
        (6, "your" | "his" | "her" | "their" | "the" | "that" | "this") => {
            ["name", "surname", "word", "address", "street"].contains(&p.lower(5).as_str())
        }
        _ => false,
    };
    if !thing {
        return None;
    }
    let mut out: Vec<Token> = vec![shape::word("How"), shape::word("is")];
    out.extend_from_slice(&p.items[4..]);
    out.push(shape::word("spelled"));
    Some(shape::build(&out, &p.terminal))
}

/// "What are you doing this weekend?" -> "What are your plans for this weekend?": a question of
/// plans for a time ahead, which the time phrase names ("tonight", "on Saturday", "for Christmas").
pub fn plans_for(p: &Plain) -> Option<Vec<Token>> {
    if !written(p, &[0, 1, 2, 3]) {
        return None;
    }
    let n = p.items.len();
    if !question(p) || p.commas() != 0 || !(5..=9).contains(&n) {
        return None;
    }
    // "What are you going to do this summer?" asks the same of the plans.
    let going = ["what", "are", "you", "going", "to", "do"].iter().enumerate().all(|(k, w)| p.lower(k) == *w);
    if !going && !["what", "are", "you", "doing"].iter().enumerate().all(|(k, w)| p.lower(k) == *w) {
        return None;
    }
    let start = if going { 6 } else { 4 };
    if going && !written(p, &[4, 5]) {
        return None;
    }
    let time: Vec<String> = (start..n).map(|k| p.lower(k)).collect();
    let time: Vec<&str> = time.iter().map(String::as_str).collect();
    const AHEAD: &[&str] =
        &["weekend", "evening", "afternoon", "morning", "week", "summer", "holiday", "holidays"];
    let day = |w: &str| crate::words::DAY_NAMES.contains(&w);
    let from = start
        + match time.as_slice() {
            ["tonight" | "tomorrow"] => 0,
            ["tomorrow", "night" | "evening" | "morning" | "afternoon"] => 0,
            ["this" | "next", when] if AHEAD.contains(when) || day(when) => 0,
            ["on", when] if day(when) => 1,
            ["for", "christmas" | "easter" | "lunch" | "dinner" | "your", ..] => 1,
            ["at", "the", "weekend"] => 1,
            _ => return None,
        };
    let mut out: Vec<Token> = ["What", "are", "your", "plans", "for"].map(shape::word).to_vec();
    out.extend_from_slice(&p.items[from..]);
    Some(shape::build(&out, &p.terminal))
}

/// "Is breakfast included in the price?" -> "Does the price include breakfast?": what is part of
/// a whole asked from the whole, a short noun phrase each.
pub fn included(p: &Plain) -> Option<Vec<Token>> {
    if !written(p, &[0]) || p.find("included").is_some_and(|k| !written(p, &[k, k + 1])) {
        return None;
    }
    let n = p.items.len();
    if !question(p) || p.commas() != 0 || !["is", "are"].contains(&p.lower(0).as_str()) {
        return None;
    }
    let k = p.find("included")?;
    if p.lower(k + 1) != "in" || !(2..=4).contains(&k) || n < k + 4 || n > k + 5 {
        return None;
    }
    if !["the", "your", "this", "that", "my", "our"].contains(&p.lower(k + 2).as_str()) || clause_after(p, 1)
    {
        return None;
    }
    let does = if crate::words::is_plural_noun(&p.from_end(1)) { "Do" } else { "Does" };
    let mut out: Vec<Token> = vec![shape::word(does)];
    out.extend_from_slice(&p.items[k + 2..]);
    out.push(shape::word("include"));
    out.extend_from_slice(&p.items[1..k]);
    Some(shape::build(&out, &p.terminal))
}

/// "Do you remember where I put my keys?" -> "Can you remember where I put my keys?": what one
/// recalls, asked of a place, a time or a thing; not "Do you remember me?", which asks whether
/// one is known.
pub fn can_remember(p: &Plain) -> Option<Vec<Token>> {
    if !question(p) || p.lower(0) != "do" || p.lower(1) != "you" || p.lower(2) != "remember" {
        return None;
    }
    const ASKING: &[&str] = &["where", "what", "when", "who", "how", "which", "if", "whether"];
    if !ASKING.contains(&p.lower(3).as_str()) || p.items.len() < 5 {
        return None;
    }
    reopen(p, &["can"], 1)
}

/// "When did you last see a dentist?" -> "When was the last time you saw a dentist?".
pub fn last_time(p: &Plain) -> Option<Vec<Token>> {
    if !written(p, &[0, 1, 3]) {
        return None;
    }
    if !question(p)
        || p.lower(0) != "when"
        || p.lower(1) != "did"
        || p.lower(3) != "last"
        || p.items.len() < 5
    {
        return None;
    }
    let subject = p.lower(2);
    if !["you", "we", "they", "he", "she", "i"].contains(&subject.as_str()) || p.commas() != 0 {
        return None;
    }
    let verb = p.lower(4);
    let past = match verb.as_str() {
        "go" => "went".to_string(),
        "see" => "saw".to_string(),
        "get" => "got".to_string(),
        "come" => "came".to_string(),
        "do" => "did".to_string(),
        "have" => "had".to_string(),
        _ => {
            let lemma = morph::analyse(&verb)
                .into_iter()
                .find(|a| a.pos == Pos::Verb && a.form == Form::Base)?
                .entry
                .lemma;
            morph::inflect(lemma, Pos::Verb, Form::Past)?
        }
    };
    let mut out: Vec<Token> = ["When", "was", "the", "last", "time"].map(shape::word).to_vec();
    out.push(if subject == "i" { p.items[2].clone() } else { shape::word(&subject) });
    out.push(shape::word(&past));
    out.extend_from_slice(&p.items[5..]);
    Some(shape::build(&out, &p.terminal))
}

/// "Are you free on Saturday?" -> "Are you available on Saturday?": free of other plans at a
/// time, not "free to talk" (allowed) nor "free of charge".
pub fn available(p: &Plain) -> Option<Vec<Token>> {
    if !written(p, &[2]) {
        return None;
    }
    if !question(p) || p.lower(0) != "are" || p.lower(1) != "you" || p.lower(2) != "free" || p.items.len() < 4
    {
        return None;
    }
    const WHEN: &[&str] = &["on", "this", "next", "tonight", "tomorrow", "at", "later", "today"];
    if !WHEN.contains(&p.lower(3).as_str()) {
        return None;
    }
    let mut out: Vec<Token> = p.items[..2].to_vec();
    out.push(shape::word("available"));
    out.extend_from_slice(&p.items[3..]);
    Some(shape::build(&out, &p.terminal))
}

/// "Who does this umbrella belong to?" -> "Whose umbrella is this?".
pub fn whose(p: &Plain) -> Option<Vec<Token>> {
    if !written(p, &[0, 1]) {
        return None;
    }
    let n = p.items.len();
    if !question(p)
        || p.lower(0) != "who"
        || !["does", "do"].contains(&p.lower(1).as_str())
        || !["this", "that", "these", "those"].contains(&p.lower(2).as_str())
        || p.from_end(2) != "belong"
        || p.from_end(1) != "to"
        || !(6..=7).contains(&n)
    {
        return None;
    }
    let be = if p.lower(1) == "do" { "are" } else { "is" };
    let mut out: Vec<Token> = vec![shape::word("Whose")];
    out.extend_from_slice(&p.items[3..n - 2]);
    out.push(shape::word(be));
    out.push(p.items[2].clone());
    Some(shape::build(&out, &p.terminal))
}

/// "What's your sister's name?" -> "What is your sister called?", "What's his name?" -> "What is
/// he called?": a name asked either way.
pub fn called(p: &Plain) -> Option<Vec<Token>> {
    let n = p.items.len();
    if !question(p) || p.commas() != 0 || p.from_end(1) != "name" || !written(p, &[0, 1]) {
        return None;
    }
    let opened = p.lower(0).replace('’', "'");
    let from = match opened.as_str() {
        "what's" => 1,
        "what" if p.lower(1) == "is" => 2,
        _ => return None,
    };
    // The owner of the name: a possessive pronoun alone, or a short noun phrase in "'s".
    let owner = &p.items[from..n - 1];
    let pronoun = |w: &str| match w {
        "your" => Some(("are", "you")),
        "his" => Some(("is", "he")),
        "her" => Some(("is", "she")),
        "their" => Some(("are", "they")),
        _ => None,
    };
    let mut out: Vec<Token> = vec![shape::word("What")];
    if owner.len() == 1 {
        let (be, subject) = pronoun(&owner[0].text.to_lowercase())?;
        out.extend([shape::word(be), shape::word(subject)]);
    } else {
        let last = owner.last()?.text.replace('’', "'");
        let noun = last.strip_suffix("'s")?;
        if owner.len() > 3
            || !["your", "his", "her", "their", "our", "my", "the"]
                .contains(&owner[0].text.to_lowercase().as_str())
        {
            return None;
        }
        out.push(shape::word("is"));
        out.extend_from_slice(&owner[..owner.len() - 1]);
        out.push(shape::word(noun));
    }
    out.push(shape::word("called"));
    Some(shape::build(&out, &p.terminal))
}

/// "Which platform does the train leave from?" -> "What platform does the train leave from?":
/// a choice among things named by a noun, asked either way.
pub fn which_what(p: &Plain) -> Option<Vec<Token>> {
    if !question(p) || p.lower(0) != "which" || p.items.len() < 4 || !written(p, &[0]) {
        return None;
    }
    // "Which of them", "Which is", "Which one": no noun after "which".
    let noun = p.lower(1);
    if !crate::words::is_noun(&noun)
        || crate::words::heads_clause(&noun)
        || ["of", "one", "ones"].contains(&noun.as_str())
    {
        return None;
    }
    reopen(p, &["what"], 1)
}

/// Verbs whose present of a while ("Are you still working there?") says what the simple present
/// says of a settled state.
const SETTLED: &[(&str, &str)] =
    &[("working", "work"), ("living", "live"), ("studying", "study"), ("teaching", "teach")];

/// "Are you still working at the hospital?" -> "Do you still work at the hospital?".
pub fn still_work(p: &Plain) -> Option<Vec<Token>> {
    if !question(p)
        || p.lower(0) != "are"
        || !["you", "they", "we"].contains(&p.lower(1).as_str())
        || p.lower(2) != "still"
    {
        return None;
    }
    let &(_, base) = SETTLED.iter().find(|(ing, _)| *ing == p.lower(3))?;
    if !written(p, &[0, 3]) || p.items.len() < 5 {
        return None;
    }
    let mut out: Vec<Token> =
        vec![shape::word("Do"), p.items[1].clone(), p.items[2].clone(), shape::word(base)];
    out.extend_from_slice(&p.items[4..]);
    Some(shape::build(&out, &p.terminal))
}

/// "Shall I make some coffee?" -> "Do you want me to make some coffee?": an offer either way.
pub fn shall_i(p: &Plain) -> Option<Vec<Token>> {
    if !question(p)
        || p.lower(0) != "shall"
        || p.lower(1) != "i"
        || p.items.len() < 4
        || !base_verb(&p.lower(2))
    {
        return None;
    }
    reopen(p, &["do", "you", "want", "me", "to"], 2)
}

/// "How much is a return ticket to Leeds?" -> "How much does a return ticket to Leeds cost?":
/// the price of a thing named after a determiner, with no place or time inside ("How much is a
/// coffee here?" would put "here" before "cost").
pub fn how_much_cost(p: &Plain) -> Option<Vec<Token>> {
    let n = p.items.len();
    if !question(p) || p.commas() != 0 || p.lower(0) != "how" || p.lower(1) != "much" || !written(p, &[2]) {
        return None;
    }
    let does = match p.lower(2).as_str() {
        "is" => "does",
        "are" => "do",
        _ => return None,
    };
    const DETERMINERS: &[&str] = &["a", "an", "the", "this", "that", "these", "those", "your"];
    if !DETERMINERS.contains(&p.lower(3).as_str()) || !(5..=8).contains(&n) {
        return None;
    }
    let thing = &p.items[3..];
    let odd = thing.iter().skip(1).any(|t| {
        let w = t.text.to_lowercase();
        crate::words::heads_clause(&w)
            || crate::words::SUBJECT_PRONOUNS.contains(&w.as_str())
            || ["here", "there", "now", "today", "tonight", "per", "each", "in", "at", "it", "one"]
                .contains(&w.as_str())
    });
    if odd {
        return None;
    }
    let mut out: Vec<Token> = vec![p.items[0].clone(), p.items[1].clone(), shape::word(does)];
    out.extend_from_slice(thing);
    out.push(shape::word("cost"));
    Some(shape::build(&out, &p.terminal))
}

/// "Do you know what time the last train leaves?" -> "Do you know when the last train leaves?":
/// an indirect question of a scheduled moment, as `what_time` asks it directly.
pub fn known_time(p: &Plain) -> Option<Vec<Token>> {
    if !question(p) || p.commas() != 0 {
        return None;
    }
    let k =
        (2..p.items.len().saturating_sub(3)).find(|&k| p.lower(k) == "what" && p.lower(k + 1) == "time")?;
    if !["know", "me", "sure", "remember"].contains(&p.lower(k - 1).as_str()) || !written(p, &[k, k + 1]) {
        return None;
    }
    // A subject, then a verb of a scheduled moment, within the next five words.
    let timed = (k + 3..(k + 7).min(p.items.len())).any(|j| {
        let w = p.lower(j);
        let base = w.strip_suffix('s').unwrap_or(&w).to_string();
        TIMED.contains(&w.as_str()) || TIMED.contains(&base.as_str())
    });
    if !timed || ["is", "it"].contains(&p.lower(k + 2).as_str()) {
        return None;
    }
    let mut out: Vec<Token> = p.items[..k].to_vec();
    out.push(shape::word("when"));
    out.extend_from_slice(&p.items[k + 2..]);
    Some(shape::build(&out, &p.terminal))
}

/// "What's your favourite colour?" -> "Which colour do you like best?": one noun, and the owner
/// a pronoun whose verb agrees.
pub fn favourite(p: &Plain) -> Option<Vec<Token>> {
    if !question(p) || p.commas() != 0 || !written(p, &[0, 1]) {
        return None;
    }
    let opened = p.lower(0).replace('’', "'");
    let from = match opened.as_str() {
        "what's" => 1,
        "what" if p.lower(1) == "is" => 2,
        _ => return None,
    };
    if p.items.len() != from + 3 || !["favourite", "favorite"].contains(&p.lower(from + 1).as_str()) {
        return None;
    }
    let (does, subject) = match p.lower(from).as_str() {
        "your" => ("do", "you"),
        "his" => ("does", "he"),
        "her" => ("does", "she"),
        "their" => ("do", "they"),
        _ => return None,
    };
    let thing = &p.items[from + 2];
    if !crate::words::is_noun(&thing.text.to_lowercase())
        || crate::words::is_plural_noun(&thing.text.to_lowercase())
    {
        return None;
    }
    let mut out: Vec<Token> =
        vec![shape::word("Which"), thing.clone(), shape::word(does), shape::word(subject)];
    out.extend([shape::word("like"), shape::word("best")]);
    Some(shape::build(&out, &p.terminal))
}

/// "Have you ever been to Japan?" -> "Have you been to Japan before?": an experience at any time
/// up to now, asked with "before" at the end. Only a short question of "have" or "has", its
/// pronoun, "ever" and a participle, with no time of its own after it ("this year", "since
/// May", "in your life"), which "before" would clash with.
pub fn ever_before(p: &Plain) -> Option<Vec<Token>> {
    if !question(p) || p.commas() != 0 || !(5..=9).contains(&p.items.len()) || !written(p, &[0, 1, 2, 3]) {
        return None;
    }
    let agrees = match p.lower(0).as_str() {
        "have" => ["you", "they", "we"].contains(&p.lower(1).as_str()),
        "has" => ["he", "she"].contains(&p.lower(1).as_str()),
        _ => false,
    };
    let participle = p.lower(3);
    let is_participle = ["been", "had", "done", "seen", "eaten", "tried", "worked", "travelled", "traveled"]
        .contains(&participle.as_str())
        || morph::analyse(&participle)
            .iter()
            .any(|a| a.pos == Pos::Verb && matches!(a.form, Form::Participle | Form::PastOrParticiple));
    const TIMED: &[&str] = &[
        "before", "yet", "this", "last", "since", "for", "recently", "again", "in", "during", "today",
        "lately", "or", "and", "when", "who", "that", "which", "if",
    ];
    let timed = (4..p.items.len()).any(|k| TIMED.contains(&p.lower(k).as_str()));
    if !agrees || p.lower(2) != "ever" || !is_participle || timed {
        return None;
    }
    let mut out: Vec<Token> = p.items[..2].to_vec();
    out.extend_from_slice(&p.items[3..]);
    out.push(shape::word("before"));
    Some(shape::build(&out, &p.terminal))
}

/// Verbs of what one means to do: "Are you going to apply?" asks an intention, and so does
/// "Are you planning to apply?"; "Are you going to be late?" asks a forecast, so only these.
const INTENDED: &[&str] = &[
    "apply", "buy", "sell", "move", "visit", "tell", "call", "ask", "take", "watch", "cook", "stay", "join",
    "try", "wear", "invite", "book", "study", "paint", "build", "change", "bring", "write", "accept", "rent",
    "order", "hire", "enter", "retire", "travel", "spend", "sign", "renew",
];

/// "Are you going to apply for the job?" -> "Are you planning to apply for the job?".
pub fn planning_to(p: &Plain) -> Option<Vec<Token>> {
    if !written(p, &[2]) {
        return None;
    }
    if !question(p)
        || p.lower(0) != "are"
        || p.lower(1) != "you"
        || p.lower(2) != "going"
        || p.lower(3) != "to"
        || !INTENDED.contains(&p.lower(4).as_str())
    {
        return None;
    }
    let mut out: Vec<Token> = p.items[..2].to_vec();
    out.push(shape::word("planning"));
    out.extend_from_slice(&p.items[3..]);
    Some(shape::build(&out, &p.terminal))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::apply;

    #[test]
    fn an_experience_asked_with_before() {
        assert_eq!(
            apply(ever_before, "Have you ever been to Japan?").as_deref(),
            Some("Have you been to Japan before?")
        );
        assert_eq!(
            apply(ever_before, "Has she ever been late?").as_deref(),
            Some("Has she been late before?")
        );
        // A time of its own, a statement or a question of another shape stay.
        assert_eq!(apply(ever_before, "Have you ever been to Paris in the spring?"), None);
        assert_eq!(apply(ever_before, "Have you ever been there before?"), None);
        assert_eq!(apply(ever_before, "Who has ever been there?"), None);
    }

    #[test]
    fn requests_and_abilities() {
        assert_eq!(
            apply(able_to, "Can you help me carry these boxes?").as_deref(),
            Some("Would you be able to help me carry these boxes?")
        );
        assert_eq!(apply(able_to, "Can you swim?").as_deref(), Some("Are you able to swim?"));
        assert_eq!(apply(able_to, "Can you see the sea from here?"), None);
        assert_eq!(
            apply(would_like, "Do you want to come with us?").as_deref(),
            Some("Would you like to come with us?")
        );
        assert_eq!(apply(would_like, "Do you want it?"), None);
        assert_eq!(
            apply(borrow_lend, "Can I borrow your pen for a minute?").as_deref(),
            Some("Could you lend me your pen for a minute?")
        );
        assert_eq!(
            apply(shall_we, "Why don't we order a pizza tonight?").as_deref(),
            Some("Shall we order a pizza tonight?")
        );
        assert_eq!(apply(shall_we, "Why don't we ever go out?"), None);
    }

    #[test]
    fn times_causes_and_prices() {
        assert_eq!(
            apply(what_time, "What time does the film start?").as_deref(),
            Some("When does the film start?")
        );
        assert_eq!(
            apply(what_time, "When does the next bus leave?").as_deref(),
            Some("What time does the next bus leave?")
        );
        assert_eq!(apply(what_time, "When does the new term start?"), None);
        assert_eq!(
            apply(what_made, "Why did she quit her job?").as_deref(),
            Some("What made her quit her job?")
        );
        assert_eq!(apply(what_made, "Why did you not call?"), None);
        assert_eq!(apply(what_made, "Why do you think he left?"), None);
        assert_eq!(
            apply(how_much_is, "How much do these shoes cost?").as_deref(),
            Some("How much are these shoes?")
        );
        assert_eq!(apply(have_got, "Do you have a minute?").as_deref(), Some("Have you got a minute?"));
        assert_eq!(apply(have_got, "Do you have lunch at home?"), None);
        assert_eq!(apply(have_got, "Do you have a shower every day?"), None);
        assert_eq!(
            apply(where_to_find, "Do you know where the nearest pharmacy is?").as_deref(),
            Some("Do you know where to find the nearest pharmacy?")
        );
        assert_eq!(apply(where_to_find, "Can you tell me where my order is?"), None);
        assert_eq!(apply(where_i_can_find, "Can you tell me where my parcel is?"), None);
        assert_eq!(apply(how_was, "How did the interview go?").as_deref(), Some("How was the interview?"));
        assert_eq!(apply(how_was, "How was your weekend?").as_deref(), Some("What was your weekend like?"));
        assert_eq!(apply(how_was, "How was your mother?"), None);
        assert_eq!(
            apply(going_to_will, "Is it going to rain tomorrow?").as_deref(),
            Some("Will it rain tomorrow?")
        );
        assert_eq!(
            apply(managed_to, "Did you manage to fix it?").as_deref(),
            Some("Were you able to fix it?")
        );
    }

    #[test]
    fn openings_plans_and_parts() {
        assert_eq!(apply(opening, "Where are you from?").as_deref(), Some("Where do you come from?"));
        assert_eq!(apply(opening, "Where are you from originally?"), None);
        assert_eq!(
            apply(opening, "How do I get to the station?").as_deref(),
            Some("How can I get to the station?")
        );
        assert_eq!(apply(planning_to, "Are you going to be late?"), None);
        assert_eq!(
            apply(plans_for, "What are you doing on Saturday?").as_deref(),
            Some("What are your plans for Saturday?")
        );
        assert_eq!(apply(plans_for, "What are you doing at the moment?"), None);
        assert_eq!(
            apply(included, "Is breakfast included in the price?").as_deref(),
            Some("Does the price include breakfast?")
        );
        assert_eq!(apply(can_remember, "Do you remember me?"), None);
        assert_eq!(
            apply(last_time, "When did you last see a dentist?").as_deref(),
            Some("When was the last time you saw a dentist?")
        );
        assert_eq!(apply(available, "Are you free to talk?"), None);
        assert_eq!(
            apply(whose, "Who does this umbrella belong to?").as_deref(),
            Some("Whose umbrella is this?")
        );
    }

    #[test]
    fn names_choices_offers_and_prices() {
        assert_eq!(
            apply(called, "What is your sister's name?").as_deref(),
            Some("What is your sister called?")
        );
        assert_eq!(apply(called, "What is the name of the street?"), None);
        assert_eq!(
            apply(which_what, "Which platform does the train leave from?").as_deref(),
            Some("What platform does the train leave from?")
        );
        assert_eq!(apply(which_what, "Which of them is yours?"), None);
        assert_eq!(
            apply(shall_i, "Shall I make some coffee?").as_deref(),
            Some("Do you want me to make some coffee?")
        );
        assert_eq!(
            apply(how_much_cost, "How much is a return ticket to Leeds?").as_deref(),
            Some("How much does a return ticket to Leeds cost?")
        );
        assert_eq!(apply(how_much_cost, "How much is a coffee here?"), None);
        assert_eq!(
            apply(known_time, "Do you know what time the last train leaves?").as_deref(),
            Some("Do you know when the last train leaves?")
        );
        assert_eq!(
            apply(still_work, "Are you still working at the hospital?").as_deref(),
            Some("Do you still work at the hospital?")
        );
    }

    #[test]
    fn a_price_is_asked_of_a_noun_phrase_only() {
        assert_eq!(apply(how_much_is, "How much do you think it will cost?"), None);
        assert_eq!(apply(how_much_is, "How much do you think it's going to cost?"), None);
        assert_eq!(
            apply(how_much_is, "How much does a ticket to London cost?").as_deref(),
            Some("How much is a ticket to London?")
        );
    }

    #[test]
    fn what_one_lived_through_is_asked_what_it_was_like() {
        assert_eq!(apply(what_was_it_like, "How was the food?").as_deref(), Some("What was the food like?"));
        assert_eq!(apply(how_did_it_go, "How was the food?"), None);
    }

    #[test]
    fn events_ahead_and_behind() {
        assert_eq!(
            apply(will_you_be_at, "Are you coming to the party tonight?").as_deref(),
            Some("Will you be at the party tonight?")
        );
        assert_eq!(
            apply(will_you_be_coming, "Are you going to the meeting on Friday?").as_deref(),
            Some("Will you be going to the meeting on Friday?")
        );
        // A place, not an event: "Will you be at the station?" says another thing.
        assert_eq!(apply(will_you_be_at, "Are you going to the station?"), None);
        assert_eq!(
            apply(enjoy_like, "Did you enjoy the concert?").as_deref(),
            Some("Did you like the concert?")
        );
        assert_eq!(apply(enjoy_like, "Did you like the food?"), None);
        assert_eq!(
            apply(good_time_at, "Did you enjoy the wedding?").as_deref(),
            Some("Did you have a good time at the wedding?")
        );
        assert_eq!(apply(good_time_at, "Did you enjoy the film?"), None);
        assert_eq!(
            apply(enjoy_your, "Did you have a nice weekend?").as_deref(),
            Some("Did you enjoy your weekend?")
        );
        assert_eq!(
            apply(enjoy_your, "Did you enjoy your holiday?").as_deref(),
            Some("Did you have a good holiday?")
        );
        assert_eq!(
            apply(any_left, "Are there any seats left?").as_deref(),
            Some("Are there any seats remaining?")
        );
        assert_eq!(apply(any_left, "Is there anyone who left?"), None);
    }

    #[test]
    fn jobs_distances_and_durations() {
        assert_eq!(apply(opening, "What do you do for a living?").as_deref(), Some("What is your job?"));
        assert_eq!(
            apply(opening, "Is it far from the station?").as_deref(),
            Some("Is it a long way from the station?")
        );
        assert_eq!(apply(opening, "Is it far too late?"), None);
        assert_eq!(
            apply(opening, "How long have you lived in Leeds?").as_deref(),
            Some("How long have you been living in Leeds?")
        );
        assert_eq!(apply(opening, "How long have you known her?"), None);
    }

    #[test]
    fn plans_languages_and_spelling() {
        assert_eq!(
            apply(plans_for, "What are you going to do this summer?").as_deref(),
            Some("What are your plans for this summer?")
        );
        assert_eq!(apply(plans_for, "What are you going to do about the leak?"), None);
        assert_eq!(apply(speak_language, "Do you speak English?").as_deref(), Some("Can you speak English?"));
        assert_eq!(apply(speak_language, "Do you speak French well?"), None);
        assert_eq!(
            apply(spelled, "How do you spell your name?").as_deref(),
            Some("How is your name spelled?")
        );
        assert_eq!(apply(spelled, "How do you spell your children?"), None);
    }

    #[test]
    fn what_was_shown() {
        assert_eq!(
            apply(watch_see, "Did you watch the final last night?").as_deref(),
            Some("Did you see the final last night?")
        );
        assert_eq!(apply(watch_see, "Did you watch the children?"), None);
        assert_eq!(
            apply(opening, "How often should I water it?").as_deref(),
            Some("How frequently should I water it?")
        );
    }

    #[test]
    fn a_job_of_someone_named() {
        assert_eq!(
            apply(job_of, "What does your husband do for a living?").as_deref(),
            Some("What is your husband's job?")
        );
        assert_eq!(apply(job_of, "What does your company do for a living?"), None);
    }
}
