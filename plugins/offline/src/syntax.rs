//! Where the parts of a sentence are, as several rules read them: the subject that opens a plain
//! sentence, a noun phrase, another clause hanging in the sentence, where a noun phrase may end,
//! whether a word is a compound's noun, whether a past form is a participle where it stands, and
//! the two sides of a clause that may change places (a pronoun's case, the "be" that agrees).
//! Built on the words layer, the token navigation and the plain shape; it rewrites nothing.

use crate::lexicon::Pos;
use crate::shape::Plain;
use crate::tokens::{Kind, Token, is_sentence_start, prev_word};
use crate::words::{
    ARTICLES, BE_FORMS, CLAUSE_WORDS, DEFINITE_DETERMINERS, DETERMINERS, FINITE_BE, FINITE_HAVE, HAVE_FORMS,
    NOUN_PHRASE_DETERMINERS, PERSONAL_POSSESSIVES, PHRASE_PREPOSITIONS, SUBJECT_PRONOUNS, clear_pos,
    clearly_finite, heads_clause, is_noun, is_plural_noun, is_verbish, modifier_or_noun,
};

/// Whether the sentence already opens with a time or frequency phrase written without a comma
/// ("Every morning he walks the dog", "On weekdays I have lunch"): a second phrase fronted
/// before it stacks two ("Around the block, every morning he walks the dog.").
pub fn opens_with_adverbial(p: &Plain) -> bool {
    const OPENERS: &[&str] = &[
        "every",
        "each",
        "on",
        "in",
        "at",
        "last",
        "next",
        "after",
        "before",
        "during",
        "most",
        "once",
        "twice",
        "yesterday",
        "today",
        "tomorrow",
        "tonight",
        "usually",
        "often",
        "sometimes",
        "always",
        "never",
        "normally",
        "generally",
        "occasionally",
    ];
    OPENERS.contains(&p.lower(0).as_str())
}

/// Pronouns that may open a clause as its subject besides the personal ones ("someone tried"),
/// with "no one" as the one token a synonym writes.
const INDEFINITE_SUBJECTS: &[&str] = &[
    "someone",
    "somebody",
    "everyone",
    "everybody",
    "nobody",
    "no one",
    "anyone",
    "anybody",
    "nothing",
    "everything",
];

/// Adverbs that may stand between a subject and its verb ("we usually go", "we all sat").
const BETWEEN_SUBJECT_AND_VERB: &[&str] =
    &["all", "also", "still", "just", "never", "always", "both", "often"];

/// Where the verb of a clause whose subject starts at item `k` stands, when the words there read
/// as one: a subject pronoun (with its verb contracted on, "we're", it is the verb too), an
/// indefinite one ("someone"), a capitalised word inside the sentence (a name, "Tom"), or a noun
/// phrase ("the kids", "my old bike", "the bus stop"); then at most one adverb ("we usually go");
/// then a finite verb, an auxiliary or a modal, or the present form that agrees with the subject
/// ("we watch", "the kids play", "it rains"). A word that is neither ("dinner drinks are") opens no clause.
pub fn clause_at(p: &Plain, k: usize) -> Option<usize> {
    let first = p.lower(k).replace('’', "'");
    let token = p.items.get(k).filter(|t| t.is_word())?;
    if let Some((pronoun, verb)) = first.split_once('\'') {
        let contracted = ["re", "m", "ll", "ve", "d", "s"].contains(&verb);
        return (SUBJECT_PRONOUNS.contains(&pronoun) && contracted).then_some(k);
    }
    let name = k > 0 && crate::shape::is_title(&token.text) && first != "i";
    let (end, plural) = if SUBJECT_PRONOUNS.contains(&first.as_str()) {
        (k + 1, !["he", "she", "it"].contains(&first.as_str()))
    } else if INDEFINITE_SUBJECTS.contains(&first.as_str()) || name {
        (k + 1, false)
    } else if first == "no" && p.lower(k + 1) == "one" {
        (k + 2, false)
    } else {
        let end = noun_phrase(p, k, false)?;
        // "the bus stop is": a noun after the noun is the compound's head when a verb follows it.
        let compound = is_noun(&p.lower(end)) && heads_clause(&p.lower(end + 1));
        let end = if compound { end + 1 } else { end };
        (end, is_plural_noun(&p.lower(end - 1)))
    };
    let verb = if BETWEEN_SUBJECT_AND_VERB.contains(&p.lower(end).as_str())
        || crate::words::FREQUENCY_ADVERBS.contains(&p.lower(end).as_str())
    {
        end + 1
    } else {
        end
    };
    let w = p.lower(verb);
    // After "he", "she" or "it" any third-person reading counts ("it rains": a pronoun is
    // followed by no noun); after a noun, most of the word's evidence must say so.
    let pronoun = SUBJECT_PRONOUNS.contains(&first.as_str());
    let third_person = crate::morph::analyse(&w)
        .iter()
        .any(|a| a.pos == Pos::Verb && a.form == crate::morph::Form::ThirdPerson);
    let agreeing = if plural {
        crate::words::plain_verb(&w)
    } else {
        (pronoun && third_person)
            || crate::words::finite_lemma(&w, crate::words::Tense::Present, true).is_some()
    };
    (p.items.get(verb).is_some_and(Token::is_word) && (heads_clause(&w) || agreeing)).then_some(verb)
}

/// Verbs that report what is said or thought, after which a clause may follow with no "that"
/// ("The plumber said the pipe had burst"): a phrase at the sentence's end may be that clause's.
/// Every verb that the phrasal rules' `THAT_CLAUSE` lets lose its "that" is here.
pub const REPORTING: &[&str] = &[
    "suggested",
    "recommended",
    "admitted",
    "admit",
    "decided",
    "pretended",
    "complained",
    "forget",
    "feel",
    "feels",
    "felt",
    "wish",
    "wished",
    "understand",
    "assume",
    "imagine",
    "doubt",
    "bet",
    "insisted",
    "announced",
    "confirmed",
    "warned",
    "reminded",
    "said",
    "says",
    "say",
    "told",
    "tells",
    "tell",
    "think",
    "thinks",
    "thought",
    "believe",
    "believes",
    "believed",
    "know",
    "knows",
    "knew",
    "heard",
    "explained",
    "claimed",
    "reported",
    "mentioned",
    "reckon",
    "reckons",
    "reckoned",
    "hope",
    "hopes",
    "hoped",
    "expect",
    "expects",
    "expected",
    "promised",
    "agreed",
    "noticed",
    "realised",
    "realized",
    "suppose",
    "guess",
    "realise",
    "realize",
    "forgot",
    "remember",
    "remembered",
    "learned",
    "learnt",
    "found",
    "discovered",
    "read",
    "wrote",
    "means",
    "meant",
];

/// Whether a reporting verb (`REPORTING`) before `end` has a clause of its own after it (a finite
/// verb two words on or later: "said the pipe had burst", not "feel tired").
pub fn reported(p: &Plain, end: usize) -> bool {
    reported_words(&(0..end).map(|k| p.lower(k)).collect::<Vec<_>>())
}

/// `reported` over lowercased words.
pub fn reported_words(words: &[String]) -> bool {
    // "says he'll call", "means I will travel": a modal or a contracted one heads the clause too.
    let finite = |w: &str| {
        FINITE_BE.contains(&w)
            || FINITE_HAVE.contains(&w)
            || heads_clause(w)
            || w.replace('’', "'").split_once('\'').is_some_and(|(s, _)| SUBJECT_PRONOUNS.contains(&s))
    };
    words
        .iter()
        .enumerate()
        .any(|(j, w)| REPORTING.contains(&w.as_str()) && words.iter().skip(j + 2).any(|v| finite(v)))
}

/// The end (exclusive) of a noun phrase "det (modifier) noun" starting at `k`; an object
/// (`object`) must end the sentence or be followed by a preposition.
pub fn noun_phrase(p: &Plain, k: usize, object: bool) -> Option<usize> {
    if !NOUN_PHRASE_DETERMINERS.contains(&p.lower(k).as_str()) {
        return None;
    }
    for end in [k + 2, k + 3] {
        let last_ok = is_noun(&p.lower(end - 1));
        let inner_ok = (k + 1..end - 1).all(|j| modifier_or_noun(&p.lower(j)));
        let next = p.lower(end);
        let ends = !object
            || next.is_empty()
            || PHRASE_PREPOSITIONS.contains(&next.as_str())
            || [
                "home",
                "here",
                "there",
                "away",
                "together",
                "every",
                "each",
                "last",
                "this",
                "next",
                "yesterday",
                "today",
                "again",
            ]
            .contains(&next.as_str());
        if end <= p.items.len() && last_ok && inner_ok && ends && p.items[k..end].iter().all(Token::is_word) {
            return Some(end);
        }
    }
    None
}

/// The end (exclusive) of a noun-phrase subject opening the sentence: "the teacher", "my old
/// bike", and "the hotel staff" when a verb follows it.
pub fn noun_subject_end(p: &Plain) -> Option<usize> {
    let end = noun_phrase(p, 0, false)?;
    let next = p.lower(3);
    let auxiliary = FINITE_BE.contains(&next.as_str()) || FINITE_HAVE.contains(&next.as_str());
    // Before "is" or "has" a noun after a noun is a compound's head ("the bus stop is") even when
    // the first could be a verb.
    let longer =
        end == 2 && is_noun(&p.lower(2)) && (auxiliary || modifier_or_noun(&p.lower(1)) && is_verbish(&next));
    Some(if longer { 3 } else { end })
}

/// The end of the subject opening the sentence, a pronoun or a noun phrase, and whether it takes
/// "have" rather than "has".
pub fn subject(p: &Plain) -> Option<(usize, bool)> {
    let first = p.lower(0);
    if SUBJECT_PRONOUNS.contains(&first.as_str()) {
        // "I", "you", "we" and "they" take "have".
        return Some((1, !["he", "she", "it"].contains(&first.as_str())));
    }
    let k = noun_subject_end(p)?;
    Some((k, is_plural_noun(&p.lower(k - 1))))
}

/// Whether another clause hangs in the sentence. "as a" and "to the" are prepositions ("works as
/// a nurse", "went to the gym"), not the start of a clause.
pub fn has_clause_word(p: &Plain, skip: usize) -> bool {
    p.items.iter().enumerate().any(|(k, t)| {
        let w = t.text.to_lowercase();
        let next = p.lower(k + 1);
        let preposition = ["as", "to"].contains(&w.as_str())
            && (ARTICLES.contains(&next.as_str())
                || PERSONAL_POSSESSIVES.contains(&next.as_str())
                || ["school", "work", "bed"].contains(&next.as_str()));
        k != skip && CLAUSE_WORDS.contains(&w.as_str()) && !preposition
    })
}

/// Whether the token after `last` lets a noun phrase end there: punctuation, the end, or a
/// function word (or, with `verb_ok`, a word that is clearly a verb).
pub fn phrase_ends_after(tokens: &[Token], last: usize, verb_ok: bool) -> bool {
    match tokens.get(last + 1) {
        None => true,
        Some(t) if t.kind == Kind::Punct => [",", ".", "!", "?", ";", ":"].contains(&t.text.as_str()),
        Some(t) if t.is(Kind::Space, " ") => match tokens.get(last + 2) {
            Some(w) if w.is_word() => {
                let w = w.text.to_lowercase();
                crate::lexicon::is_stopword(&w) || (verb_ok && clear_pos(&w) == Some(Pos::Verb))
            }
            _ => false,
        },
        Some(_) => false,
    }
}

/// Whether a past-or-participle form is a participle here: it follows a form of "have" or "be"
/// (perhaps across "not", "already") or a determiner ("the broken window").
pub fn wants_participle(tokens: &[Token], i: usize) -> bool {
    if question_subject_before(tokens, i) || shares_perfect(tokens, i) {
        return true;
    }
    let mut k = i;
    for _ in 0..4 {
        let Some(prev) = prev_word(tokens, k) else { return false };
        let prev = prev.replace('’', "'");
        if HAVE_FORMS.contains(&prev.as_str())
            || BE_FORMS.contains(&prev.as_str())
            || DETERMINERS.contains(&prev.as_str())
            || ["get", "gets", "got", "getting"].contains(&prev.as_str())
        {
            return true;
        }
        // "Have you started": in a question the subject stands between "have" and the participle.
        let inverted = ["i", "you", "he", "she", "it", "we", "they"].contains(&prev.as_str())
            && k >= 2
            && prev_word(tokens, k - 2).is_some_and(|h| HAVE_FORMS.contains(&h.as_str()));
        if !(ADVERBS_BEFORE_PARTICIPLE.contains(&prev.as_str()) || prev.ends_with("ly") || inverted) {
            return false;
        }
        k -= 2;
    }
    false
}

/// Whether the words before `i` are a question's "have" and its subject noun phrase: "Has the
/// new SIM card arrived", where the determiner and the nouns stand between the auxiliary and its
/// participle. None of those words may be a verb, so "Has the man who called left" is not read.
fn question_subject_before(tokens: &[Token], i: usize) -> bool {
    let mut k = i;
    let mut between = Vec::new();
    for _ in 0..6 {
        let Some(prev) = prev_word(tokens, k) else { return false };
        k -= 2;
        between.push(prev);
        if is_sentence_start(tokens, k) {
            between.reverse();
            return have_question_subject(&between);
        }
    }
    false
}

/// Whether a question's opening words (`words`, lowercase, from the first) are "have" and its
/// subject, so that the verb after them is a participle: "Has the new SIM card", "Has anyone from
/// the claims team".
pub fn have_question_subject(words: &[String]) -> bool {
    let Some((have, subject)) = words.split_first() else { return false };
    ["has", "have", "had", "hasn't", "haven't", "hadn't"].contains(&have.as_str())
        && subject.first().is_some_and(|d| {
            DETERMINERS.contains(&d.as_str())
                || ["anyone", "anybody", "someone", "somebody", "everyone", "everybody"].contains(&d.as_str())
        })
        && subject.iter().all(|w| clear_pos(w) != Some(Pos::Verb) && !FINITE_BE.contains(&w.as_str()))
}

/// Whether the verb at `i` follows "and" in a perfect that it shares: "I've stopped using cling
/// film and started using wraps", where "began" would break the tense.
fn shares_perfect(tokens: &[Token], i: usize) -> bool {
    if prev_word(tokens, i).as_deref() != Some("and") {
        return false;
    }
    let words: Vec<String> =
        tokens[..i].iter().filter(|t| t.is_word()).map(|t| t.text.to_lowercase().replace('’', "'")).collect();
    words.windows(2).any(|w| {
        (HAVE_FORMS.contains(&w[0].as_str()) || w[0].ends_with("'ve"))
            && crate::words::participle_lemma(&w[1]).is_some()
    })
}

/// Words after "to" that are places, not verbs ("a packed lunch to work", "goes to bed").
const PLACES_AFTER_TO: &[&str] = &["work", "school", "class", "church", "town", "bed", "market", "court"];

/// Whether item `k` opens an infinitive: "to" and a verb's plain form the lexicon reads, not a
/// place.
pub fn infinitive_at(p: &Plain, k: usize) -> bool {
    let verb = p.lower(k + 1);
    p.lower(k) == "to" && !PLACES_AFTER_TO.contains(&verb.as_str()) && crate::words::base_verb_reading(&verb)
}

/// Whether two words open an infinitive, the verbs the lexicon keeps as function words included
/// ("to go over the notes").
pub fn opens_infinitive(to: &str, verb: &str) -> bool {
    to == "to" && !PLACES_AFTER_TO.contains(&verb) && crate::words::plain_verb(verb)
}

/// Whether the sentence is a request: "please" before its verb, or an imperative ("Cancel my
/// contract", "Don't forget"), a first word that reads mostly as a verb and may be its plain
/// form, and never as a word that opens a subject.
pub fn request(p: &Plain) -> bool {
    let first = p.lower(0).replace('’', "'");
    let please = first == "please" || (p.items.len() > 1 && p.lower(1) == "please");
    let verb = crate::words::base_verb_reading(&first)
        && crate::words::pos_share(&first, Pos::Verb) >= 0.5
        && !SUBJECT_PRONOUNS.contains(&first.as_str())
        && !DETERMINERS.contains(&first.as_str())
        && !heads_clause(&first)
        // "Rent has gone up", "Mark will present": a verb after it makes the first word its subject.
        && !finite_after(&p.lower(1));
    // "Don't let the cat out", "Do not take more"; "Do I need to" is a question.
    let second = p.lower(1);
    let negative = (first == "don't" || first == "do" && second == "not")
        && !SUBJECT_PRONOUNS.contains(&second.as_str());
    p.terminal.text != "?" && (please || verb || negative)
}

/// Whether the word is a finite verb or an auxiliary, which makes the word before it a subject.
fn finite_after(word: &str) -> bool {
    heads_clause(word)
        || clearly_finite(word, false)
        || FINITE_HAVE.contains(&word)
        || FINITE_BE.contains(&word)
}

/// Verbs of liking, missing or remembering, whose "-ing" complement is the doing liked, so that a
/// time after it may be that doing's.
const SAVOURING: &[&str] = &[
    "love", "like", "enjoy", "hate", "miss", "remember", "recall", "regret", "prefer", "mind", "fancy",
    "imagine",
];

/// Whether a time said after items `..end` may belong to a verb or a noun inside them rather
/// than to the whole sentence, so that in front it would time the wrong thing: something booked,
/// invited, planned or moved to a day ("booked a table for six at eight o'clock", "I'll book the
/// car in for a service after the holidays", "has moved to Thursday evenings at half past seven"),
/// an object's infinitive of purpose ("ring the surgery to cancel my check-up tomorrow"), a bare
/// infinitive after "let" or "make" ("let us check out late on Sunday"), an infinitive after
/// waiting, hoping or promising ("can't wait to go back there next year"), an "-ing" after a
/// preposition ("thinking of redecorating the living room in spring"), or an "-ing" clause with
/// its own subject ("ended with everyone dancing until three in the morning"). The time, clause and place
/// moves all ask it.
pub fn time_inside(p: &Plain, end: usize) -> bool {
    // "forgot our anniversary for the first time in twelve years", "the best meal in years": a
    // span after a first, last or superlative counts back from that one, not from the sentence.
    let span = p.lower(end) == "in"
        && (end + 1..(end + 5).min(p.items.len())).any(|k| {
            ["years", "months", "weeks", "days", "decades", "ages", "while", "ever", "forever"]
                .contains(&p.lower(k).as_str())
        });
    let ranked = |w: &str| {
        ["first", "last", "only"].contains(&w)
            || crate::morph::analyse(w).iter().any(|a| a.form == crate::morph::Form::Superlative)
    };
    if span && (0..end).any(|k| ranked(&p.lower(k))) {
        return true;
    }
    const ARRANGED: &[&str] = &[
        "rescheduled",
        "postponed",
        "booked",
        "reserved",
        "ordered",
        "scheduled",
        "arranged",
        "invited",
        "planning",
        "considering",
        "reserve",
        "schedule",
        "arrange",
        "invite",
        "organise",
        "organize",
    ];
    (0..end).any(|k| {
        let w = p.lower(k);
        // "book" as a verb, after its subject, a modal or "to" ("the whole book" is none).
        let booking = ["book", "books"].contains(&w.as_str()) && k >= 1 && {
            let v = p.lower(k - 1).replace('’', "'");
            SUBJECT_PRONOUNS.contains(&v.as_str())
                || ["to", "will", "would", "can", "could", "should", "must", "might"].contains(&v.as_str())
                || v.ends_with("'ll")
                || v.ends_with("'d")
        };
        let purpose = k >= 1 && infinitive_at(p, k) && !p.lower(k - 1).ends_with("ing") && {
            let object = p.lower(k - 1);
            crate::words::OBJECT_PRONOUNS.contains(&object.as_str())
                || clear_pos(&object) == Some(Pos::Noun)
                || (is_noun(&object) && !is_verbish(&object))
        };
        // "let us check out late on Sunday": a bare infinitive after "let" or "make" and its object.
        let bare = ["let", "lets", "make", "makes", "made", "help", "helps", "helped"].contains(&w.as_str())
            && k + 2 < end
            && {
                let object = p.lower(k + 1);
                crate::words::OBJECT_PRONOUNS.contains(&object.as_str())
            }
            && crate::words::base_verb_reading(&p.lower(k + 2));
        // "can't wait to go back there next year", "promised to call on Friday": after a verb of
        // waiting, hoping or promising the time is the infinitive's.
        let intended = [
            "wait",
            "hope",
            "hoping",
            "hoped",
            "promise",
            "promised",
            "decide",
            "decided",
            "agree",
            "agreed",
            "offer",
            "offered",
            "arrange",
            "plan",
            "planned",
            "intend",
            "intends",
            "forget",
            "forgot",
            "remember",
            "remembered",
            "manage",
            "managed",
            "refuse",
            "refused",
            "told",
            "asked",
            "reminded",
        ]
        .contains(&w.as_str())
            && (k + 1..end.min(k + 4)).any(|j| opens_infinitive(&p.lower(j), &p.lower(j + 1)));
        // "has moved to Thursday evenings at half past seven": the time is the new day's, not the
        // moving's ("We moved to Lisbon in 2019" keeps its year).
        let moved_to_day = ["moved", "changed", "switched", "brought"].contains(&w.as_str())
            && (k + 1..end.min(k + 5)).any(|j| {
                let d = p.lower(j);
                crate::words::DAY_NAMES.iter().any(|n| d == *n || d.strip_suffix('s') == Some(n))
            });
        // "ended with everyone dancing until three", "saw the kids playing on Saturday": an "-ing"
        // after its own subject or after "with" is a clause of its own, and the time may be that
        // clause's; right after the main verb ("went swimming on Saturday") it is the verb's.
        // A noun before it is the clause's subject only after "with" ("with the kids playing");
        // elsewhere it makes a compound ("your meter reading", "the air conditioning").
        let participle_clause = k >= 1 && w.len() > 4 && crate::words::is_gerund(&w) && {
            let before = p.lower(k - 1);
            let with_noun = is_noun(&before)
                && (k.saturating_sub(4)..k - 1).any(|j| p.lower(j) == "with")
                && !modifier_or_noun(&w);
            before == "with" || OWN_SUBJECTS.contains(&before.as_str()) || with_noun
        };
        // "thinking about a skiing holiday in the Alps this winter": the time may be the
        // thought-of plan's.
        let pondered = w == "thinking" && ["about", "of"].contains(&p.lower(k + 1).as_str());
        // "loves talking about her time as a nurse during the war", "remembers playing there as a
        // child": after a verb of liking, missing or remembering, the "-ing" is what is liked, and
        // a time after it is that doing's, not the liking's.
        let savoured = k + 1 < end && {
            let gerund = p.lower(k + 1);
            // A past liking was felt at the doing's time ("enjoyed meeting your parents last
            // night"), so only a present one is told apart from it.
            let liking = crate::words::finite_lemma(&w, crate::words::Tense::Present, true)
                .is_some_and(|l| SAVOURING.contains(&l))
                || SAVOURING.contains(&w.as_str());
            liking && gerund.len() > 4 && crate::words::is_gerund(&gerund)
        };
        ARRANGED.contains(&w.as_str())
            || pondered
            || savoured
            || moved_to_day
            || intended
            || booking
            || purpose
            || participle_clause
            || bare
            || (w.ends_with("ing")
                && w.len() > 4
                && k >= 1
                && ["of", "about", "on", "for", "without"].contains(&p.lower(k - 1).as_str()))
    })
}

/// Heads before "of" whose "of"-phrase is a run of events, which a time after it may date ("a
/// series of talks in May").
const RUNS: &[&str] = &["series", "round", "rounds", "wave", "waves", "programme", "schedule"];

/// Heads before "of" that show someone or something as it was at a time, which a time or a
/// "when" clause after it may tell ("a video of her when she was born").
pub const DEPICTIONS: &[&str] = &[
    "photo",
    "photos",
    "photograph",
    "photographs",
    "picture",
    "pictures",
    "video",
    "videos",
    "film",
    "footage",
    "clip",
    "recording",
    "painting",
    "drawing",
    "portrait",
    "image",
    "images",
    "story",
    "stories",
    "memory",
    "memories",
];

/// Happenings that do things ("ruined by the storm on Sunday"): a time after one as the agent
/// may be the happening's, as "the storm on Sunday" names which storm.
const HAPPENINGS: &[&str] = &[
    "storm",
    "storms",
    "fire",
    "fires",
    "flood",
    "floods",
    "flooding",
    "accident",
    "crash",
    "strike",
    "strikes",
    "explosion",
    "earthquake",
    "wind",
    "winds",
    "rain",
    "snow",
    "hurricane",
    "gale",
    "gales",
    "frost",
    "heatwave",
    "collision",
    "outage",
    "protest",
    "protests",
    "delays",
    "roadworks",
];

/// Whether the noun phrase that ends right before item `end` may own a time said there: an
/// "of"-phrase of a stretch, a run of events or a depiction ("three more days of strikes in
/// December", "a video of her in 2019"), or a happening as the agent of a passive ("ruined by the
/// storm on Sunday"). A cup of tea, sixty years of marriage or a manager as the agent owns no
/// time ("cancelled by the manager on Monday" moves). The time and clause moves ask it.
pub fn claimed_by_noun(p: &Plain, end: usize) -> bool {
    // The last noun phrase: a preposition and at most three words after it.
    let Some(at) = (end.saturating_sub(4)..end).rev().find(|&k| ["of", "by"].contains(&p.lower(k).as_str()))
    else {
        return false;
    };
    let head = p.lower(end - 1);
    let inner_ok = (at + 1..end).all(|j| {
        let w = p.lower(j);
        // "strikes" may read as a verb, but after "of" or "by" it is the phrase's noun.
        let verb = heads_clause(&w) && !is_noun(&w);
        !crate::words::PREPOSITIONS.contains(&w.as_str()) && !verb && !CLAUSE_WORDS.contains(&w.as_str())
    });
    if !inner_ok || end < at + 2 {
        return false;
    }
    if p.lower(at) == "by" {
        let agent = at >= 1 && crate::words::participle_lemma(&p.lower(at - 1)).is_some();
        return agent
            && (HAPPENINGS.contains(&head.as_str()) || crate::words::is_event(&p.lower(end - 2), &head));
    }
    let before = if at >= 1 { p.lower(at - 1) } else { String::new() };
    // "a shower of rain at lunchtime": a measure of weather is the weather itself, whose time is
    // the sentence's.
    let weather = ["rain", "snow", "wind", "frost"].contains(&head.as_str());
    RUNS.contains(&before.as_str())
        || DEPICTIONS.contains(&before.as_str())
        || (HAPPENINGS.contains(&head.as_str()) && !weather)
        || crate::words::is_event(&p.lower(end - 2), &head)
}

/// Whether item `k` is the subject pronoun of a clause inside the sentence, which a phrase at the
/// end may belong to: "the clearest one we have seen this year", "I think we'll leave at noon",
/// "means I'll travel twice a month" (a contracted pronoun is the part before its apostrophe).
/// "you" is as often an object ("I'll see you on Friday"), so it counts only before a finite verb
/// or as "you'll", "you've", "you'd" ("the payment you sent on Friday").
pub fn inner_subject(words: &[String], k: usize) -> bool {
    if k == 0 {
        return false;
    }
    let word = words[k].replace('’', "'");
    let (pronoun, contracted) = match word.split_once('\'') {
        Some((pronoun, _)) => (pronoun, true),
        None => (word.as_str(), false),
    };
    if ["i", "he", "she", "we", "they"].contains(&pronoun) {
        return true;
    }
    let next = words.get(k + 1).map_or("", String::as_str);
    let before = &words[k - 1];
    // "Thank you", "Did you", "Will you": the "you" of the sentence itself, not of a clause inside.
    let own = ["thank", "thanks"].contains(&before.as_str()) || heads_clause(before);
    let you = pronoun == "you"
        && !own
        && (contracted || (heads_clause(next) && !is_noun(next)) || clearly_finite(next, false));
    you || contact_relative(words, k)
}

/// Whether item `k` opens a clause with no "that" after a noun, its subject a noun phrase of
/// its own: "the cake my mum made on Sunday" (a noun, then "my mum", then a past verb). An object
/// after an object ("sent my mum a card on Sunday") has no verb after it.
fn contact_relative(words: &[String], k: usize) -> bool {
    let at = |j: usize| words.get(j).map_or("", String::as_str);
    let determiner = PERSONAL_POSSESSIVES.contains(&at(k)) || DEFINITE_DETERMINERS.contains(&at(k));
    let head = at(k - 1);
    let after_noun = is_noun(head) && !heads_clause(head);
    let verb = at(k + 2);
    determiner
        && after_noun
        && !heads_clause(at(k + 1))
        && (heads_clause(verb) || crate::words::finite_lemma(verb, crate::words::Tense::Past, true).is_some())
}

/// Pronouns that may be the subject of an "-ing" clause after the main verb or "with".
const OWN_SUBJECTS: &[&str] = &[
    "me",
    "us",
    "him",
    "her",
    "them",
    "you",
    "everyone",
    "everybody",
    "someone",
    "somebody",
    "nobody",
    "anyone",
    "anybody",
    "people",
];

/// Words skipped when looking back for the auxiliary of a participle ("has not yet gone").
const ADVERBS_BEFORE_PARTICIPLE: &[&str] =
    &["not", "never", "already", "just", "also", "always", "yet", "since"];

/// Whether the words before the phrase (items `..end`) hold a coordinator followed by a second
/// clause or verb phrase: a subject pronoun, "then", or a word that reads as a finite verb after
/// it ("and went", "and she cooked"). A coordination of nouns ("bread and milk") is not one.
pub fn coordinated_clause(p: &Plain, end: usize) -> bool {
    (0..end).any(|k| {
        let coordinator = p.lower(k);
        ["and", "but", "or", "then"].contains(&coordinator.as_str())
            && !paired_and(p, k)
            && !subject_pair(p, k)
            && {
                // "and still does her shopping", "and then went home": an adverb between the
                // coordinator and the verb hides no coordination, so the verb counts as first.
                let adverb = |w: &str| {
                    crate::words::FREQUENCY_ADVERBS.contains(&w)
                        || [
                            "still", "also", "then", "always", "never", "just", "now", "even", "later",
                            "soon",
                        ]
                        .contains(&w)
                };
                let first = if adverb(&p.lower(k + 1)) { k + 2 } else { k + 1 };
                (k + 1..end).any(|j| {
                    let w = p.lower(j);
                    let next = p.lower(j + 1);
                    // "and got a ticket": right after the coordinator, the common verbs the lexicon
                    // keeps as function words count, as do auxiliaries and modals ("Mike and Helen
                    // have" is a subject's, though), and a verb with its object ("add the onions and
                    // cook them").
                    // "and may hide": "may" is a modal only before a verb ("and May" is a month).
                    let may = w == "may" && crate::words::base_verb_reading(&next);
                    let verb_after = j == first
                        && (heads_clause(&w)
                            || may
                            || (is_verbish(&w) && !is_noun(&w))
                            || (crate::words::can_be(&w, Pos::Verb)
                                && (crate::words::OBJECT_PRONOUNS.contains(&next.as_str())
                                    || DETERMINERS.contains(&next.as_str()))));
                    // "but none of them could come": after "but" or "or" a modal or an auxiliary
                    // anywhere heads a clause of its own.
                    let auxiliary = coordinator != "and" && heads_clause(&w);
                    SUBJECT_PRONOUNS.contains(&w.as_str())
                        || w == "then"
                        || clearly_finite(&w, true)
                        || verb_after
                        || auxiliary
                })
            }
    })
}

/// Whether the "and" at item `k` joins the two halves of the subject that opens the sentence,
/// each a noun phrase or a name ("My sister and her husband visited us", "Tom and Anna moved to
/// Leeds"), with the first verb after the second: one clause, whose phrases date all of it.
pub fn subject_pair(p: &Plain, k: usize) -> bool {
    let name = |j: usize| {
        p.items.get(j).is_some_and(|t| {
            t.is_word()
                && t.text.starts_with(|c: char| c.is_ascii_uppercase())
                && !crate::words::lowercase_ok(&t.text)
        })
    };
    let first_ok = noun_phrase(p, 0, false) == Some(k) || (k == 1 && name(0));
    if p.lower(k) != "and" || !first_ok {
        return false;
    }
    // "My wife and I are": a subject pronoun ends the pair as a name does.
    let pronoun = ["i", "we", "he", "she", "they"].contains(&p.lower(k + 1).as_str());
    let Some(verb) = noun_phrase(p, k + 1, false).or_else(|| (name(k + 1) || pronoun).then_some(k + 2))
    else {
        return false;
    };
    let w = p.lower(verb);
    heads_clause(&w) || clearly_finite(&w, true)
}

/// Whether the "and" at item `k` is the second half of "between X and Y" or "both X and Y": it
/// joins the two nouns, never two clauses ("The talks between the union and the company broke
/// down").
pub fn paired_and(p: &Plain, k: usize) -> bool {
    p.lower(k) == "and"
        && (0..k)
            .rev()
            .take_while(|&j| {
                let w = p.lower(j);
                !["and", "or", "but"].contains(&w.as_str()) && !heads_clause(&w)
            })
            .any(|j| ["between", "both"].contains(&p.lower(j).as_str()))
}

/// Pronouns that point back to a person or thing named earlier.
const THIRD_PERSON: &[&str] = &["he", "she", "it", "they", "him", "her", "them", "his", "its", "their"];

/// Whether `moved`, coming to stand before `other`, could take a pronoun's antecedent with it: a
/// pronoun in `moved` ("because it was hungry") while `other` names someone or something ("the
/// dog barked"), whom the pronoun would then point forward to, or past.
pub fn pronoun_would_dangle(moved: &[&Token], other: &[&Token]) -> bool {
    // "it was cold", "it is raining": the weather's and the clock's "it" points at nothing.
    const WEATHER: &[&str] = &[
        "cold", "hot", "warm", "raining", "snowing", "late", "early", "dark", "sunny", "windy", "freezing",
        "wet", "foggy", "cloudy", "pouring",
    ];
    // The pronouns of one referent: a pronoun of a set the other clause also uses points at the
    // same one ("She broke her arm when she fell"), introduced there already.
    const SETS: &[&[&str]] =
        &[&["he", "him", "his"], &["she", "her"], &["it", "its"], &["they", "them", "their"]];
    let set_of = |w: &str| SETS.iter().position(|set| set.contains(&w));
    let other_sets: Vec<usize> = other.iter().filter_map(|t| set_of(&t.text.to_lowercase())).collect();
    // "it's" and "they're" are the pronoun and its verb: the pronoun is the part before the
    // apostrophe.
    let lower: Vec<String> = moved
        .iter()
        .map(|t| t.text.to_lowercase().split(['\'', '’']).next().unwrap_or_default().to_string())
        .collect();
    let pronoun = lower.iter().enumerate().any(|(k, w)| {
        let contracted = moved[k].text.len() > w.len();
        // Past an adverb ("it was already dark").
        let adverb = |j: usize| {
            lower.get(j).is_some_and(|a| {
                ["already", "still", "very", "so", "too", "quite", "really", "getting"].contains(&a.as_str())
            })
        };
        let state = k + 2 + usize::from(adverb(k + 2));
        let state_contracted = k + 1 + usize::from(adverb(k + 1));
        // "it's easier to save money": the "it" of an infinitive that follows.
        // ("it was diverted to Bristol" is no infinitive: a verb must follow "to").
        let extraposed = (k + 1..(k + 5).min(lower.len())).any(|j| {
            lower[j] == "to" && lower.get(j + 1).is_some_and(|v| crate::words::base_verb_reading(v))
        }) && (contracted
            || lower.get(k + 1).is_some_and(|b| FINITE_BE.contains(&b.as_str())));
        let dummy = w == "it"
            && (extraposed
                || (lower.get(k + 1).is_some_and(|b| FINITE_BE.contains(&b.as_str()))
                    && lower.get(state).is_some_and(|a| WEATHER.contains(&a.as_str())))
                || (contracted
                    && lower.get(state_contracted).is_some_and(|a| WEATHER.contains(&a.as_str())))
                || lower.get(k + 1).is_some_and(|v| {
                    [
                        "rained",
                        "rains",
                        "snowed",
                        "snows",
                        "poured",
                        "pours",
                        "drizzled",
                        "froze",
                        "thundered",
                    ]
                    .contains(&v.as_str())
                }));
        let shared = set_of(w).is_some_and(|s| other_sets.contains(&s));
        THIRD_PERSON.contains(&w.as_str()) && !dummy && !shared
    });
    let names = other.iter().enumerate().any(|(k, t)| {
        let lower = t.text.to_lowercase();
        // A bare noun names a thing too ("If you heat ice, it melts."): one that is no verb.
        (k > 0 && is_noun(&lower) && !is_verbish(&lower) && !SUBJECT_PRONOUNS.contains(&lower.as_str()))
            || DEFINITE_DETERMINERS.contains(&lower.as_str())
            || ARTICLES.contains(&lower.as_str())
            || (t.text.starts_with(|c: char| c.is_ascii_uppercase())
                && (k > 0 || !SUBJECT_PRONOUNS.contains(&lower.as_str()) && lower != "i"))
    });
    // "borrowed some from next door": a quantifier standing for a noun of the other clause
    // ("we ran out of sugar") has it only after it, whatever that noun's determiner.
    let elliptical = lower.iter().enumerate().any(|(k, w)| {
        ["some", "any", "none", "one", "more"].contains(&w.as_str())
            && lower.get(k + 1).is_none_or(|n| {
                [
                    "from",
                    "for",
                    "at",
                    "in",
                    "on",
                    "to",
                    "with",
                    "too",
                    "as",
                    "back",
                    "again",
                    "yesterday",
                    "today",
                ]
                .contains(&n.as_str())
            })
    });
    (pronoun && names) || elliptical
}

/// What the word before the verb at `i` says of a form that is base and past alike: `Some(false)`
/// for a base form (after a modal, "to", "do", "please", or opening a request), `Some(true)` for a
/// participle (after a form of "have"), `None` when nothing settles it ("They put off").
pub fn settled_tense(tokens: &[Token], i: usize) -> Option<bool> {
    let Some(prev) = prev_word(tokens, i) else { return is_sentence_start(tokens, i).then_some(false) };
    let prev = prev.replace('’', "'");
    if ["have", "has", "had", "having"].contains(&prev.as_str()) {
        return Some(true);
    }
    [
        "to", "will", "would", "can", "could", "should", "must", "may", "might", "shall", "do", "does",
        "did", "don't", "doesn't", "didn't", "won't", "can't", "cannot", "please", "let's",
    ]
    .contains(&prev.as_str())
    .then_some(false)
}

/// Whether the word before `i` makes the word at `i` the noun of a compound ("my tax return",
/// "the lunch rush", "the Christmas rush"): a singular noun by `noun` or a name, one space before
/// it. A verb's plain form there is no verb, whose singular subject would ask for "returns".
/// `noun` is the caller's: a rule that turns the word into a phrasal verb takes any noun
/// (`is_noun`: "tax" is a verb too, and "my tax come back" is no English), one that changes its
/// synonym only a clear noun (`clear_pos`: "pay" is a verb too, and "a pay rise" may be "a pay
/// increase").
pub fn compound_noun_before(tokens: &[Token], i: usize, noun: fn(&str) -> bool) -> bool {
    i >= 2 && tokens[i - 1].is(Kind::Space, " ") && tokens[i - 2].is_word() && {
        let p = tokens[i - 2].text.to_lowercase();
        // A name before it ("the Christmas rush") counts as its noun.
        let named = !is_sentence_start(tokens, i - 2) && crate::shape::is_title(&tokens[i - 2].text);
        named || (noun(&p) && !is_plural_noun(&p))
    }
}

/// A pronoun's two cases, subject and object: a side of a clause that turns round ("I am older
/// than my cousin" -> "My cousin is younger than me", "We were impressed by her speech" -> "Her
/// speech impressed us") changes case. Not "it", which reads badly after "than" and "by", nor
/// "you", whose number the verb cannot tell.
const PRONOUN_CASES: &[(&str, &str)] =
    &[("i", "me"), ("he", "him"), ("she", "her"), ("we", "us"), ("they", "them")];

/// One side of a clause that may change places with the other: who or what it is, and what it
/// takes to stand on the other side.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Side {
    /// A personal pronoun, in its subject case ("i", "she").
    Pronoun(&'static str),
    /// A noun phrase or a name, and whether it is plural.
    Phrase { plural: bool, person: bool },
}

impl Side {
    /// The finite "be" that agrees with this side as a subject, in the present or the past.
    pub fn be(self, past: bool) -> &'static str {
        let plural = match self {
            Side::Pronoun("i") => return if past { "was" } else { "am" },
            Side::Pronoun(p) => ["we", "they"].contains(&p),
            Side::Phrase { plural, .. } => plural,
        };
        match (plural, past) {
            (true, true) => "were",
            (true, false) => "are",
            (false, true) => "was",
            (false, false) => "is",
        }
    }

    /// Whether the side, as a subject, takes the plain present ("they annoy") rather than "-s".
    pub fn takes_plain_present(self) -> bool {
        match self {
            Side::Pronoun(p) => p != "he" && p != "she",
            Side::Phrase { plural, .. } => plural,
        }
    }

    pub fn is_person(self) -> bool {
        matches!(self, Side::Pronoun(_) | Side::Phrase { person: true, .. })
    }
}

/// A pronoun in the case asked for (`subject`), from either of its cases.
pub fn pronoun_case(word: &str, subject: bool) -> Option<&'static str> {
    let w = word.to_lowercase();
    PRONOUN_CASES.iter().find(|(s, o)| *s == w || *o == w).map(|&(s, o)| if subject { s } else { o })
}

/// Heads that stand for a noun said elsewhere ("the old one", "the others") or belong to someone
/// named elsewhere ("mine"): turned round, they would come before what they stand for.
const STANDS_FOR: &[&str] =
    &["one", "ones", "other", "others", "mine", "yours", "his", "hers", "ours", "theirs", "same", "rest"];

/// The side `p.items[from..to]` as a clause's subject or object that may move to the other side
/// (`subject`: the case its pronoun must be in where it stands now): a personal pronoun, a name,
/// "everyone", or a short noun phrase ("my brother", "the water bill", "the size of the bill",
/// "loud noises"); never a clause, an "-ing" phrase, a word that stands for another noun ("the
/// old one"), nor a phrase with an adverb or a place after its noun ("my father now").
pub fn movable_side(p: &Plain, from: usize, to: usize, subject: bool) -> Option<Side> {
    if to <= from || to > p.items.len() || p.items[from..to].iter().any(|t| !t.is_word() || t.frozen) {
        return None;
    }
    let first = p.lower(from);
    if to == from + 1 {
        // "than me", "by us": the pronoun must be in the case its place asks for.
        if let Some(nominative) = pronoun_case(&first, true) {
            return (pronoun_case(&first, subject)? == first).then_some(Side::Pronoun(nominative));
        }
        if ["everyone", "everybody"].contains(&first.as_str()) {
            return Some(Side::Phrase { plural: false, person: true });
        }
        // A name: capitalised and no word of the lexicon ("Tom", "Maria").
        let name = crate::shape::is_title(&p.items[from].text)
            && first != "i"
            && crate::morph::analyse(&first).is_empty()
            && !crate::words::common_word(&first);
        if name {
            return Some(Side::Phrase { plural: false, person: true });
        }
    }
    // "of" or "from" and a second short phrase continue the first ("the size of the bill", "the
    // view from the top").
    let of = (from + 1..to).find(|&k| ["of", "from"].contains(&p.lower(k).as_str()));
    let head_end = of.unwrap_or(to);
    let phrase = |a: usize, b: usize, bare_ok: bool| {
        let head = p.lower(b - 1);
        let opens = DEFINITE_DETERMINERS.contains(&p.lower(a).as_str())
            || ["these", "those", "a", "an"].contains(&p.lower(a).as_str());
        let bare = bare_ok && is_plural_noun(&head) && b - a <= 2;
        let inner = if opens { a + 1 } else { a };
        (opens || bare)
            && b > inner
            && b - a <= 4
            && is_noun(&head)
            && !STANDS_FOR.contains(&head.as_str())
            && (inner..b - 1).all(|k| {
                let w = p.lower(k);
                // "the first film", "the living room": an ordinal, or a compound's "-ing" noun;
                // "favourite" is spelled "favorite" in WordNet.
                let modifier = modifier_or_noun(&w)
                    || ["first", "second", "third", "last", "next", "favourite"].contains(&w.as_str())
                    || (w.ends_with("ing") && is_noun(&w));
                modifier && !STANDS_FOR.contains(&w.as_str())
            })
            && (inner..b).all(|k| {
                let w = p.lower(k);
                // "walking to work", "taking the bus": an "-ing" that is no noun opens a clause.
                let doing = w.ends_with("ing") && crate::words::can_be(&w, Pos::Verb) && !is_noun(&w);
                let clause = CLAUSE_WORDS.contains(&w.as_str()) || SUBJECT_PRONOUNS.contains(&w.as_str());
                !(clause || doing)
            })
    };
    if !phrase(from, head_end, true) || of.is_some_and(|k| !phrase(k + 1, to, false)) {
        return None;
    }
    let head = p.lower(head_end - 1);
    Some(Side::Phrase {
        plural: is_plural_noun(&head),
        person: crate::words::PEOPLE.contains(&head.as_str()),
    })
}

/// A side's words where it comes to stand, opening the sentence (`opening`) or after its verb: a
/// pronoun in its new case, a phrase with its first word recased.
pub fn side_words(p: &Plain, from: usize, end: usize, side: Side, opening: bool) -> Option<Vec<Token>> {
    Some(match side {
        Side::Pronoun(s) if opening => {
            vec![crate::shape::word(&crate::shape::capitalise(if s == "i" { "I" } else { s }))]
        }
        Side::Pronoun(s) => vec![crate::shape::word(pronoun_case(s, false)?)],
        Side::Phrase { .. } => {
            let mut out = vec![if opening {
                crate::shape::starting(&p.items[from])
            } else {
                crate::shape::leaving_start(&p.items[from])?
            }];
            out.extend_from_slice(&p.items[from + 1..end]);
            out
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::plain;
    use crate::tokens::tokenize;

    fn clause(text: &str, k: usize) -> Option<usize> {
        clause_at(&plain(&tokenize(text)).unwrap(), k)
    }

    #[test]
    fn a_clause_opens_with_a_subject_and_its_verb() {
        assert_eq!(clause("After the ceremony we had drinks.", 3), Some(4));
        assert_eq!(clause("Next year the school will charge parents.", 2), Some(4));
        assert_eq!(clause("After dinner we usually go for a walk.", 2), Some(4));
        assert_eq!(clause("If it rains tomorrow we will stay in.", 1), Some(2));
        assert_eq!(clause("Last night someone tried to steal my bike.", 2), Some(3));
        assert_eq!(clause("When Tom arrived the party had started.", 1), Some(2));
        assert_eq!(clause("Next month we're choosing a book.", 2), Some(2));
        // "dinner drinks" may be one noun: no clause opens at "drinks".
        assert_eq!(clause("After dinner drinks are served in the lounge.", 2), None);
        assert_eq!(clause("Last night was the best night of the holiday.", 2), None);
    }
}
