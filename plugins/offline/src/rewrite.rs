//! Syntactic rewrites of one sentence: contractions, wordy phrases, fixed-phrase protection,
//! swapping two coordinated words, possessives, and moving a subordinate clause or time adverbial.
//!
//! Each rewrite only fires on a narrow, recognisable shape; anything more complex is left as it
//! is, because a wrong rewrite is worse than none.

use crate::lexicon::{self, Pos};
use crate::morph::{self, Form};
use crate::shape::{self, Plain, capitalise, decapitalise, is_all_caps, is_title, recase, words_like};
use crate::syntax::phrase_ends_after;
use crate::tokens::{Kind, Token, is_sentence_start, matches_at, next_word, plain_lower, word_before};
use crate::words::{
    ADVERB_BINDERS, DEFINITE_DETERMINERS, SINGULAR_DETERMINERS, clear_pos, is_noun, is_plural_noun,
    lowercase_ok, pos_share,
};

/// Contractions and their expansions, lowercase with a straight apostrophe. The "'s" forms are
/// handled apart, since they stand for "is" or "has".
const CONTRACTIONS: &[(&str, &[&str])] = &[
    ("aren't", &["are", "not"]),
    ("can't", &["cannot"]),
    ("couldn't", &["could", "not"]),
    ("didn't", &["did", "not"]),
    ("doesn't", &["does", "not"]),
    ("don't", &["do", "not"]),
    ("hadn't", &["had", "not"]),
    ("hasn't", &["has", "not"]),
    ("haven't", &["have", "not"]),
    ("isn't", &["is", "not"]),
    ("mustn't", &["must", "not"]),
    ("shouldn't", &["should", "not"]),
    ("wasn't", &["was", "not"]),
    ("weren't", &["were", "not"]),
    ("won't", &["will", "not"]),
    ("wouldn't", &["would", "not"]),
    ("i'm", &["i", "am"]),
    ("you're", &["you", "are"]),
    ("we're", &["we", "are"]),
    ("they're", &["they", "are"]),
    ("i've", &["i", "have"]),
    ("you've", &["you", "have"]),
    ("we've", &["we", "have"]),
    ("they've", &["they", "have"]),
    ("i'll", &["i", "will"]),
    ("you'll", &["you", "will"]),
    ("he'll", &["he", "will"]),
    ("she'll", &["she", "will"]),
    ("we'll", &["we", "will"]),
    ("they'll", &["they", "will"]),
];
const S_CONTRACTIONS: &[&str] =
    &["it's", "he's", "she's", "that's", "there's", "what's", "who's", "where's", "how's"];

/// The expansion of a contraction token, if it is one we know.
fn expansion(word: &str, next: Option<&str>) -> Option<Vec<&'static str>> {
    let lower = word.replace('’', "'").to_lowercase();
    if let Some((_, words)) = CONTRACTIONS.iter().find(|(c, _)| *c == lower) {
        return Some(words.to_vec());
    }
    // "'d" is "had" before a participle; only the "would" of "I'd like" is expanded.
    if let Some(subject) = lower.strip_suffix("'d") {
        let subject = ["i", "you", "he", "she", "we", "they"].into_iter().find(|s| *s == subject)?;
        return next
            .is_some_and(|n| ["like", "love", "prefer", "rather"].contains(&n))
            .then(|| vec![subject, "would"]);
    }
    let subject = S_CONTRACTIONS.iter().find(|c| **c == lower)?.strip_suffix("'s")?;
    let subject = ["it", "he", "she", "that", "there", "what", "who", "where", "how"]
        .into_iter()
        .find(|s| *s == subject)?;
    // "it's been" is "it has been"; otherwise "is".
    let verb = if next.is_some_and(|n| ["been", "got", "gotten"].contains(&n)) { "has" } else { "is" };
    Some(vec![subject, verb])
}

/// Whether the text uses any contraction we can expand (then expanding is the rewrite, and
/// contracting is not, so that the style stays consistent).
pub fn has_contraction(tokens: &[Token]) -> bool {
    tokens.iter().any(|t| t.is_word() && !t.frozen && expansion(&t.text, None).is_some())
}

pub fn expand_contractions(tokens: Vec<Token>) -> Vec<Token> {
    let mut out = Vec::with_capacity(tokens.len() + 4);
    for (i, token) in tokens.iter().enumerate() {
        let next = next_word(&tokens, i);
        match expansion(&token.text, next.as_deref()) {
            Some(words) if token.is_word() && !token.frozen && !is_all_caps(&token.text) => {
                let mut new = words_like(&token.text, &words);
                for t in &mut new {
                    if t.text == "i" {
                        t.text = "I".into();
                    }
                }
                out.extend(new);
            }
            _ => out.push(token.clone()),
        }
    }
    out
}

const NEGATABLE: &[&str] = &[
    "do", "does", "did", "is", "are", "was", "were", "have", "has", "had", "will", "would", "should",
    "could", "must",
];

/// Words after which "it is" may become "it's": a contraction cannot end a clause ("I know what
/// it is"), so the next word must clearly continue it.
fn continues_clause(next: &str) -> bool {
    const STARTERS: &[&str] = &[
        "a", "an", "the", "very", "so", "too", "really", "quite", "all", "just", "still", "also", "always",
        "never", "going", "here", "now", "my", "your", "his", "her", "our", "their", "no", "time", "been",
        "only", "in", "on", "at", "out", "from", "with", "about", "under", "behind", "near", "inside",
        "outside", "up", "over",
    ];
    STARTERS.contains(&next) || next.ends_with("ing") || {
        // Smoothed, so that an adjective SemCor never tagged ("allergic") still counts.
        morph::evidence(&morph::analyse(next), |a| a.pos == Pos::Adj).at_least(4, 5)
    }
}

/// Whether the word at `i` is a singular noun that, with a determiner before it, opens the
/// sentence, and whose "'s" is heard as "is": not after a hissing sound ("the bus's") and
/// never a possible name.
fn subject_noun(tokens: &[Token], i: usize, noun: &str) -> bool {
    let opens = i == 2
        && tokens[1].is(Kind::Space, " ")
        && DEFINITE_DETERMINERS.contains(&tokens[0].text.to_lowercase().as_str())
        && !tokens[0].frozen;
    let hissing = ["s", "x", "z", "ch", "sh", "ce", "se", "ge"].iter().any(|end| noun.ends_with(end));
    if !opens || hissing || !tokens[i].text.bytes().all(|b| b.is_ascii_lowercase()) {
        return false;
    }
    let analyses = morph::analyse(noun);
    (clear_pos(noun) == Some(Pos::Noun) || (analyses.is_empty() && is_noun(noun) && !noun.ends_with('s')))
        && analyses.iter().all(|a| a.form == Form::Base)
}

/// The contraction of the word at `i` with the next one, if it is safe here.
fn contraction(tokens: &[Token], i: usize, apostrophe: char) -> Option<String> {
    let (first, second) = (&tokens[i], tokens.get(i + 2)?);
    let joined = tokens[i + 1].is(Kind::Space, " ") && second.is_word() && !second.frozen && !first.frozen;
    if !joined || is_all_caps(&second.text) || (is_all_caps(&first.text) && first.text != "I") {
        return None;
    }
    let (w1, w2) = (first.text.to_lowercase(), second.text.to_lowercase());
    let after = next_word(tokens, i + 2);
    let a = apostrophe;
    let contracted = match (w1.as_str(), w2.as_str()) {
        ("will", "not") => format!("won{a}t"),
        (aux, "not") if NEGATABLE.contains(&aux) => format!("{aux}n{a}t"),
        (subject, verb) => {
            // "I will not" becomes "I won't", not "I'll not".
            let after = after.as_deref().filter(|&n| n != "not")?;
            let ok = match (subject, verb) {
                ("i", "am") | ("you" | "we" | "they", "are") => continues_clause(after),
                ("it" | "he" | "she" | "that" | "there" | "what", "is") => continues_clause(after),
                // "The kettle is boiling." -> "The kettle's boiling."
                // Any word after "is" continues the clause of an opening subject.
                (noun, "is") if subject_noun(tokens, i, noun) => true,
                // "Where is the station?" -> "Where's the station?"
                ("where" | "who" | "how", "is") => {
                    ["the", "a", "an", "my", "your", "his", "her", "our", "their", "this", "that", "it"]
                        .contains(&after)
                }
                ("i" | "you" | "we" | "they", "have") => {
                    ["been", "got", "never", "already", "just", "always"].contains(&after)
                        || (after.ends_with("ed") && after.len() > 4)
                }
                ("i" | "you" | "he" | "she" | "we" | "they", "will") => true,
                ("i" | "you" | "he" | "she" | "we" | "they", "would") => {
                    ["like", "love", "prefer", "rather"].contains(&after)
                }
                _ => false,
            };
            if !ok {
                return None;
            }
            let short = match verb {
                "am" => "m",
                "are" => "re",
                "is" => "s",
                "have" => "ve",
                "would" => "d",
                _ => "ll",
            };
            format!("{subject}{a}{short}")
        }
    };
    Some(if first.text == "I" || is_title(&first.text) { capitalise(&contracted) } else { contracted })
}

pub fn contract(tokens: Vec<Token>, apostrophe: char) -> Vec<Token> {
    let mut out = Vec::with_capacity(tokens.len());
    let mut i = 0;
    while i < tokens.len() {
        if tokens[i].is_word() && !tokens[i].frozen {
            // "cannot" is one word.
            if tokens[i].text.eq_ignore_ascii_case("cannot") {
                let text = if is_title(&tokens[i].text) {
                    format!("Can{apostrophe}t")
                } else {
                    format!("can{apostrophe}t")
                };
                out.push(Token::word(text));
                i += 1;
                continue;
            }
            if let Some(text) = contraction(&tokens, i, apostrophe) {
                out.push(Token::word(text));
                i += 3;
                continue;
            }
        }
        out.push(tokens[i].clone());
        i += 1;
    }
    out
}

/// What a phrase rewrite needs after the phrase.
#[derive(Clone, Copy)]
enum After {
    Anything,
    /// A word (the phrase needs a complement: "in order to" + verb).
    Word,
    /// A comma or the end of the sentence ("at the moment.").
    Pause,
}

const PHRASES: &[(&[&str], &[&str], After)] = &[
    (&["in", "order", "not", "to"], &["not", "to"], After::Word),
    (&["in", "order", "to"], &["to"], After::Word),
    (&["due", "to", "the", "fact", "that"], &["because"], After::Word),
    (&["in", "spite", "of"], &["despite"], After::Word),
    (&["prior", "to"], &["before"], After::Word),
    (&["a", "large", "number", "of"], &["many"], After::Word),
    (&["a", "great", "deal", "of"], &["much"], After::Word),
    (&["is", "able", "to"], &["can"], After::Word),
    (&["are", "able", "to"], &["can"], After::Word),
    (&["am", "able", "to"], &["can"], After::Word),
    (&["thanks", "for"], &["thank", "you", "for"], After::Word),
    (&["thank", "you", "for"], &["thanks", "for"], After::Word),
    (&["for", "example"], &["for", "instance"], After::Anything),
    (&["for", "instance"], &["for", "example"], After::Anything),
    (&["at", "the", "moment"], &["right", "now"], After::Pause),
    (&["in", "addition"], &["also"], After::Pause),
    (&["next", "to"], &["beside"], After::Word),
    (&["because", "of"], &["due", "to"], After::Word),
    (&["each", "other"], &["one", "another"], After::Anything),
    (&["right", "away"], &["immediately"], After::Pause),
    (&["as", "well"], &["too"], After::Pause),
    (&["every", "day"], &["daily"], After::Pause),
    (&["than", "i", "expected"], &["than", "expected"], After::Pause),
    (&["than", "we", "expected"], &["than", "expected"], After::Pause),
    (&["than", "they", "expected"], &["than", "expected"], After::Pause),
    (&["than", "you", "expected"], &["than", "expected"], After::Pause),
];

/// "many" or "much" for "a lot of" + this word: a plural noun counts, a singular one does not.
fn quantifier_for(noun: &str) -> Option<&'static str> {
    if ["people", "children", "men", "women"].contains(&noun) {
        return Some("many");
    }
    let analyses = morph::analyse(noun);
    let total: f64 = analyses.iter().map(|a| f64::from(a.weight) + 0.5).sum();
    let share = |form: Form| {
        analyses
            .iter()
            .filter(|a| a.pos == Pos::Noun && a.form == form)
            .map(|a| f64::from(a.weight) + 0.5)
            .sum::<f64>()
            / total
    };
    if analyses.is_empty() {
        None
    } else if share(Form::Plural) >= 0.75 {
        Some("many")
    } else if share(Form::Base) >= 0.75 && !noun.ends_with('s') {
        Some("much")
    } else {
        None
    }
}

fn pause_after(tokens: &[Token], last: usize) -> bool {
    match tokens.get(last + 1) {
        None => true,
        Some(t) => t.kind == Kind::Punct && [",", ".", "!", "?", ";"].contains(&t.text.as_str()),
    }
}

/// Shortens wordy phrases and swaps "for example"/"for instance".
pub fn phrases(tokens: Vec<Token>) -> Vec<Token> {
    let mut out = Vec::with_capacity(tokens.len());
    let mut i = 0;
    'scan: while i < tokens.len() {
        if tokens[i].is_word() {
            for &(from, to, after) in PHRASES {
                if !matches_at(&tokens, i, from) {
                    continue;
                }
                let last = i + 2 * (from.len() - 1);
                let ok = match after {
                    After::Anything => true,
                    After::Word => next_word(&tokens, last).is_some(),
                    After::Pause => pause_after(&tokens, last),
                };
                if ok {
                    out.extend(words_like(&tokens[i].text, to));
                    i = last + 1;
                    continue 'scan;
                }
            }
            for from in [&["a", "lot", "of"][..], &["lots", "of"][..]] {
                if !matches_at(&tokens, i, from) {
                    continue;
                }
                let last = i + 2 * (from.len() - 1);
                if let Some(q) = next_word(&tokens, last).and_then(|n| quantifier_for(&n)) {
                    out.extend(words_like(&tokens[i].text, &[q]));
                    i = last + 1;
                    continue 'scan;
                }
            }
        }
        out.push(tokens[i].clone());
        i += 1;
    }
    out
}

/// Fixed phrases whose words mean nothing alone: replacing "order" in "in order to" or "course"
/// in "of course" would be nonsense.
const FIXED: &[&[&str]] = &[
    &["in", "order"],
    &["of", "course"],
    &["in", "fact"],
    &["for", "example"],
    &["for", "instance"],
    &["in", "front", "of"],
    &["in", "case"],
    &["at", "first"],
    &["at", "last"],
    &["at", "once"],
    &["at", "least"],
    &["at", "all"],
    &["by", "the", "way"],
    &["in", "general"],
    &["in", "particular"],
    &["on", "purpose"],
    &["in", "spite"],
    &["all", "right"],
    &["make", "sure"],
    &["take", "place"],
    &["takes", "place"],
    &["took", "place"],
    &["take", "care"],
    &["thank", "you"],
    &["as", "well"],
    &["right", "now"],
    &["right", "away"],
    &["no", "longer"],
    &["in", "charge"],
    &["on", "time"],
    &["in", "time"],
    &["of", "all", "time"],
    &["in", "common"],
    &["in", "addition"],
    &["as", "a", "result"],
    &["as", "long", "as"],
    &["as", "soon", "as"],
    &["each", "other"],
    &["one", "another"],
    &["pay", "attention"],
    &["come", "true"],
    &["kind", "of"],
    &["sort", "of"],
];

/// Freezes the words of fixed phrases so that no later rewrite touches them.
pub fn protect_fixed_phrases(tokens: &mut [Token]) {
    for i in 0..tokens.len() {
        if !tokens[i].is_word() {
            continue;
        }
        for phrase in FIXED {
            if matches_at(tokens, i, phrase) {
                for t in &mut tokens[i..i + 2 * phrase.len() - 1] {
                    t.frozen = true;
                }
            }
        }
    }
}

/// Pairs that are idioms in their order ("salt and pepper").
const BINOMIALS: &[(&str, &str)] = &[
    ("bread", "butter"),
    ("salt", "pepper"),
    ("black", "white"),
    ("ladies", "gentlemen"),
    ("rock", "roll"),
    ("law", "order"),
    ("trial", "error"),
    ("pros", "cons"),
    ("ups", "downs"),
    ("odds", "ends"),
    ("bits", "pieces"),
    ("peace", "quiet"),
    ("nuts", "bolts"),
    ("fish", "chips"),
    ("arts", "crafts"),
    ("research", "development"),
    ("questions", "answers"),
    ("cause", "effect"),
    ("supply", "demand"),
    ("life", "death"),
    ("first", "last"),
    ("sooner", "later"),
];

/// Verbs after which "X and Y" are adjectives ("was clean and comfortable").
const LINKING_VERBS: &[&str] = &[
    "is", "are", "was", "were", "be", "been", "being", "am", "seem", "seems", "seemed", "look", "looks",
    "looked", "feel", "feels", "felt", "become", "becomes", "became", "remain", "remains", "remained",
];

/// "X and Y" -> "Y and X" for two adjectives or two nouns, when nothing else hangs on either:
/// the word before is a function word (not an adjective that would then modify the other noun)
/// and, for nouns, nothing but a function word or punctuation follows.
pub fn swap_coordination(tokens: &mut [Token]) -> bool {
    for i in 0..tokens.len() {
        let j = i + 4;
        if !matches_at(tokens, i, &[&tokens[i].text, "and"])
            || !tokens.get(j - 1).is_some_and(|t| t.is(Kind::Space, " "))
            || !tokens.get(j).is_some_and(plain_lower)
        {
            continue;
        }
        // At the start of a sentence the first word is capitalised: fine if it is a plain word.
        let start = is_sentence_start(tokens, i);
        let titled = start && !tokens[i].frozen && is_title(&tokens[i].text) && lowercase_ok(&tokens[i].text);
        if !plain_lower(&tokens[i]) && !titled {
            continue;
        }
        let (a, b) = (tokens[i].text.to_lowercase(), tokens[j].text.clone());
        if a == b || BINOMIALS.iter().any(|&(x, y)| (x == a && y == b) || (x == b && y == a)) {
            continue;
        }
        if lexicon::is_stopword(&a) || lexicon::is_stopword(&b) || !a.is_ascii() {
            continue;
        }
        let before = word_before(tokens, i);
        let linked = before.as_deref().is_some_and(|w| LINKING_VERBS.contains(&w));
        let pos = if linked {
            (pos_share(&a, Pos::Adj) >= 0.2 && pos_share(&b, Pos::Adj) >= 0.2).then_some(Pos::Adj)
        } else {
            // A word the lexicon does not know, next to a clear noun of the same number, is a
            // noun too ("potatoes and carrots").
            let unknown_noun = |w: &str, other: &str| {
                morph::analyse(w).is_empty()
                    && is_noun(w)
                    && clear_pos(other) == Some(Pos::Noun)
                    && w.ends_with('s') == other.ends_with('s')
            };
            clear_pos(&a)
                .filter(|&p| matches!(p, Pos::Noun | Pos::Adj) && clear_pos(&b) == Some(p))
                .or_else(|| (unknown_noun(&a, &b) || unknown_noun(&b, &a)).then_some(Pos::Noun))
        };
        let Some(pos) = pos else { continue };
        // After a verb the pair is its object ("grows potatoes and carrots"): nothing before it
        // could come to modify only one of them.
        let after_verb =
            pos == Pos::Noun && before.as_deref().is_some_and(|w| clear_pos(w) == Some(Pos::Verb));
        let before_ok = start || after_verb || before.as_deref().is_some_and(lexicon::is_stopword);
        // An adjective pair may precede its noun; a noun pair must end the noun phrase.
        let after_ok = phrase_ends_after(tokens, j, false)
            || (pos == Pos::Adj && !linked && tokens.get(j + 2).is_some_and(Token::is_word));
        if before_ok && after_ok {
            tokens[i].text = if titled { capitalise(&b) } else { b };
            tokens[j].text = a;
            tokens[i].changed = true;
            tokens[j].changed = true;
            return true;
        }
    }
    false
}

/// Possessors that measure rather than own ("a day's work" is not "the work of a day").
const MEASURES: &[&str] = &[
    "day",
    "hour",
    "week",
    "month",
    "year",
    "minute",
    "second",
    "night",
    "moment",
    "life",
    "lifetime",
    "century",
    "decade",
    "today",
    "tomorrow",
    "yesterday",
    "mile",
    "dollar",
    "pound",
    "euro",
    "cent",
    "morning",
    "evening",
    "afternoon",
    "weekend",
    "summer",
    "winter",
    "spring",
    "autumn",
    "season",
    "time",
    "stone",
    "arm",
    "hair",
];

/// The owner of a possessive starting at token `k`: "dog's" (one token) or the plural
/// "neighbours" + "'" (two), as the stem and the index of the space after it.
fn possessive_owner(tokens: &[Token], k: usize) -> Option<(&str, usize)> {
    let owner = tokens.get(k)?;
    if !owner.is_word() || owner.frozen {
        return None;
    }
    if let Some(stem) = owner.text.strip_suffix("'s").or_else(|| owner.text.strip_suffix("’s")) {
        return (clear_pos(stem) == Some(Pos::Noun)).then_some((stem, k + 1));
    }
    // "the neighbours' cat": a plural owner, which WordNet may not know ("neighbours").
    let mark = tokens.get(k + 1)?;
    let apostrophe = mark.kind == Kind::Punct && (mark.text == "'" || mark.text == "’") && !mark.frozen;
    (apostrophe && owner.text.ends_with('s') && is_plural_noun(&owner.text))
        .then_some((owner.text.as_str(), k + 2))
}

/// Nouns that a plural possessive classifies rather than owns: "a girls' school" is a school for
/// girls, not the school of the girls.
const CLASSIFIED: &[&str] = &[
    "school",
    "college",
    "club",
    "magazine",
    "team",
    "toilet",
    "toilets",
    "room",
    "clothes",
    "clothing",
    "shoes",
    "hospital",
    "prison",
    "home",
    "day",
    "race",
    "league",
    "choir",
    "section",
    "department",
    "wear",
    "shop",
    "store",
    "ward",
    "hostel",
    "bathroom",
    "changing",
];

/// "the dog's owner" -> "the owner of the dog", "the neighbours' cat" -> "the cat of the
/// neighbours", for a common noun owning a noun that ends its phrase. Returns the new sentence,
/// or `None` when there is no such phrase.
pub fn possessive_to_of(tokens: &[Token]) -> Option<Vec<Token>> {
    for i in 0..tokens.len().saturating_sub(4) {
        let det = &tokens[i];
        // The cheap test first: most tokens are not followed by a possessive.
        let Some((stem, space)) = possessive_owner(tokens, i + 2) else { continue };
        let Some(owned) = tokens.get(space + 1) else { continue };
        let det_lower = det.text.to_lowercase();
        let det_ok = det.is_word()
            && !det.frozen
            && SINGULAR_DETERMINERS.contains(&det_lower.as_str())
            && (det.text == det_lower || is_sentence_start(tokens, i));
        let joined = tokens[i + 1].is(Kind::Space, " ") && tokens[space].is(Kind::Space, " ");
        let plural = space == i + 4;
        if !det_ok || !joined || !plain_lower(owned) || (plural && CLASSIFIED.contains(&owned.text.as_str()))
        {
            continue;
        }
        let stem_ok =
            stem.len() >= 3 && stem.bytes().all(|b| b.is_ascii_lowercase()) && !MEASURES.contains(&stem);
        // After a possessive comes a noun phrase, so a noun reading with half the evidence, or a
        // plural noun's form ("the girls' bikes"), will do.
        let owned_ok = pos_share(&owned.text, Pos::Noun) >= 0.5 || is_plural_noun(&owned.text);
        if !stem_ok || !owned_ok || !phrase_ends_after(tokens, space + 1, true) {
            continue;
        }
        let mut out: Vec<Token> = tokens[..i].to_vec();
        out.extend(words_like(&det.text, &["the", &owned.text, "of", &det_lower, stem]));
        out.extend_from_slice(&tokens[space + 2..]);
        return Some(out);
    }
    None
}

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
    "ask", "asks", "asked", "wonder", "wonders", "wondered", "see", "check", "checked", "sure", "know",
    "knew", "look", "looks", "looked", "looking", "take", "takes", "took", "named", "ran", "run", "day",
    "week", "year", "time", "moment", "minute", "hour", "long", "soon", "shortly", "right", "ever",
    "whether", "what", "decide", "tell", "say", "doubt", "idea", "question", "matter", "one", "morning",
    "night",
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

/// The words with the first one recased for its new position, or `None` when that is unsafe.
fn with_first(words: &[&Token], how: First) -> Option<Vec<Token>> {
    let mut out: Vec<Token> = words.iter().map(|&t| t.clone()).collect();
    let first = out.first_mut()?;
    let is_i = first.text == "I" || first.text.starts_with("I'") || first.text.starts_with("I’");
    let text = match how {
        // A frozen word (a URL, code) is never recased.
        First::Capitalise | First::Lowercase if first.frozen => return None,
        First::Capitalise => capitalise(&first.text),
        First::Keep => first.text.clone(),
        First::Lowercase if is_i => first.text.clone(),
        First::Lowercase if lowercase_ok(&first.text) => decapitalise(&first.text),
        First::Lowercase => return None,
    };
    *first = recase(first, text);
    Some(out)
}

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
];

fn is_negation(word: &str) -> bool {
    let lower = word.replace('’', "'").to_lowercase();
    ["not", "never", "no", "cannot", "nobody", "nothing", "neither", "nor"].contains(&lower.as_str())
        || lower.ends_with("n't")
}

fn lower(t: &Token) -> String {
    t.text.to_lowercase()
}

/// Moves a subordinate clause or a time adverbial from the front of the sentence to the back,
/// or the other way round. Returns the new sentence, or `None` when its shape does not allow it.
pub fn move_clause(tokens: &[Token]) -> Option<Vec<Token>> {
    let p = shape::loose(tokens)?;
    let s = simple(&p);
    let moved = move_in(&s)?;
    // "I don't go because X": moving the clause can change what the negation covers; after a
    // verb of saying or thinking it can change which clause it belongs to ("predicts rain
    // tomorrow" is not "tomorrow, predicts rain"). Checked last, as few sentences get here.
    if s.words.iter().any(|&w| is_negation(&w.text) || REPORTING.contains(&lower(w).as_str())) {
        return None;
    }
    Some(moved)
}

/// The clause move for a sentence of the simple shape, before the checks of meaning.
fn move_in(s: &Simple) -> Option<Vec<Token>> {
    let capital = is_title(&s.words[0].text);
    // A sentence typed in lowercase stays so.
    let (to_front, from_front) =
        if capital { (First::Capitalise, First::Lowercase) } else { (First::Keep, First::Keep) };
    let commas: Vec<usize> = (0..s.words.len()).filter(|&k| s.comma_after[k]).collect();
    let first = lower(s.words[0]);
    // "Because X, Y." -> "Y because X."
    if LEADING_SUBORDINATORS.contains(&first.as_str()) && commas.len() == 1 {
        let c = commas[0];
        let (x, y) = (&s.words[1..=c], &s.words[c + 1..]);
        if x.len() >= 2 && y.len() >= 2 && lower(y[0]) != "then" {
            let mut y = with_first(y, to_front)?;
            y.push(recase(s.words[0], first));
            y.extend(x.iter().map(|&t| t.clone()));
            return Some(assemble(&[(y, false)], s.terminal));
        }
    }
    // "Y because X." (or "Y, although X.") -> "Because X, Y."
    if s.terminal.text != "?" && commas.len() <= 1 {
        let k = (2..s.words.len().saturating_sub(1))
            .find(|&k| TRAILING_SUBORDINATORS.contains(&lower(s.words[k]).as_str()));
        if let Some(k) = k {
            let comma_ok = commas.is_empty() || commas == [k - 1];
            let single = s.words.iter().filter(|w| lower(w) == lower(s.words[k])).count() == 1;
            let focus = FOCUS_WORDS.contains(&lower(s.words[k - 1]).as_str())
                || OBJECT_TAKERS.contains(&lower(s.words[k - 1]).as_str());
            let (y, x) = (&s.words[..k], &s.words[k + 1..]);
            // "while cooking": a participle alone is a whole clause.
            let x_ok = x.len() >= 2 || x.first().is_some_and(|w| w.text.ends_with("ing"));
            if comma_ok && single && !focus && x_ok && y.len() >= 2 {
                let sub = recase(
                    s.words[k],
                    if capital { capitalise(&s.words[k].text) } else { lower(s.words[k]) },
                );
                let mut front = vec![sub];
                front.extend(x.iter().map(|&t| t.clone()));
                let y = with_first(y, from_front)?;
                return Some(assemble(&[(front, true), (y, false)], s.terminal));
            }
        }
    }
    // "Today, Y." -> "Y today."
    if TIME_ADVERBS.contains(&first.as_str())
        && commas.first() == Some(&0)
        && commas.len() == 1
        && s.words.len() >= 4
    {
        let mut y = with_first(&s.words[1..], to_front)?;
        y.push(recase(s.words[0], first));
        return Some(assemble(&[(y, false)], s.terminal));
    }
    // "Y today." -> "Today, Y."
    let n = s.words.len();
    let last = lower(s.words[n - 1]);
    if TIME_ADVERBS.contains(&last.as_str()) && commas.is_empty() && n >= 4 && s.terminal.text != "?" {
        let before = lower(s.words[n - 2]);
        if !ADVERB_BINDERS.contains(&before.as_str()) && !before.ends_with("'s") && !before.ends_with("’s")
        {
            let adverb = recase(s.words[n - 1], if capital { capitalise(&last) } else { last });
            let y = with_first(&s.words[..n - 1], from_front)?;
            return Some(assemble(&[(vec![adverb], true), (y, false)], s.terminal));
        }
    }
    None
}

/// "a"/"an" before a word that a rewrite changed, matched to its sound.
pub fn fix_articles(tokens: &mut [Token]) {
    for i in 2..tokens.len() {
        if !tokens[i].changed || !tokens[i].is_word() || !tokens[i - 1].is(Kind::Space, " ") {
            continue;
        }
        let article = tokens[i - 2].text.as_str();
        if !["a", "an", "A", "An"].contains(&article) {
            continue;
        }
        let an = takes_an(&tokens[i].text.to_lowercase());
        let fixed = match (article, an) {
            ("a" | "an", true) => "an",
            ("a" | "an", false) => "a",
            (_, true) => "An",
            (_, false) => "A",
        };
        if fixed != article {
            tokens[i - 2].text = fixed.to_owned();
            tokens[i - 2].changed = true;
        }
    }
}

/// Whether a word is said with a vowel sound first (spelling rules with the usual exceptions).
fn takes_an(word: &str) -> bool {
    const CONSONANT_SOUND: &[&str] =
        &["uni", "use", "usu", "uti", "ure", "uro", "eu", "ewe", "one", "once", "ubi", "uku", "ufo", "uga"];
    const VOWEL_SOUND: &[&str] = &["hour", "honest", "honor", "honour", "heir"];
    if VOWEL_SOUND.iter().any(|p| word.starts_with(p)) {
        return true;
    }
    if CONSONANT_SOUND.iter().any(|p| word.starts_with(p)) {
        return false;
    }
    word.starts_with(['a', 'e', 'i', 'o', 'u'])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokens::{join, tokenize};

    fn expand(text: &str) -> String {
        join(&expand_contractions(tokenize(text)))
    }

    fn contracted(text: &str) -> String {
        join(&contract(tokenize(text), '\''))
    }

    fn phrased(text: &str) -> String {
        join(&phrases(tokenize(text)))
    }

    fn moved(text: &str) -> Option<String> {
        move_clause(&tokenize(text)).map(|t| join(&t))
    }

    fn swapped(text: &str) -> String {
        let mut t = tokenize(text);
        swap_coordination(&mut t);
        join(&t)
    }

    #[test]
    fn expands_contractions() {
        assert_eq!(expand("I don't know."), "I do not know.");
        assert_eq!(expand("Don't go, it's late."), "Do not go, it is late.");
        assert_eq!(expand("It’s been fun and we’ll see."), "It has been fun and we will see.");
        assert_eq!(expand("I'm sure you can't."), "I am sure you cannot.");
        assert_eq!(expand("I won't."), "I will not.");
        assert_eq!(expand("I'd like tea."), "I would like tea.");
        assert_eq!(expand("I'd gone."), "I'd gone.");
        assert_eq!(expand("Let's go."), "Let's go.");
    }

    #[test]
    fn contracts_only_where_a_contraction_can_stand() {
        assert_eq!(contracted("I do not know."), "I don't know.");
        assert_eq!(contracted("Do not go."), "Don't go.");
        assert_eq!(contracted("It is a test."), "It's a test.");
        assert_eq!(contracted("I will not go and I cannot stay."), "I won't go and I can't stay.");
        assert_eq!(contracted("I am happy."), "I'm happy.");
        assert_eq!(contracted("We are out of coffee."), "We're out of coffee.");
        assert_eq!(contracted("The kettle is boiling."), "The kettle's boiling.");
        assert_eq!(contracted("Dinner is on the table."), "Dinner is on the table.");
        assert_eq!(contracted("The bus is late."), "The bus is late.");
        assert_eq!(contracted("My brother is allergic to nuts."), "My brother's allergic to nuts.");
        assert_eq!(contracted("I know the answer is here."), "I know the answer is here.");
        assert_eq!(contracted("I would like tea."), "I'd like tea.");
        assert_eq!(contracted("Where is the station?"), "Where's the station?");
        assert_eq!(contracted("I know where he is."), "I know where he is.");
        assert_eq!(contracted("I would go."), "I would go.");
        // At the end of a clause a contraction is ungrammatical.
        assert_eq!(contracted("I know what it is."), "I know what it is.");
        assert_eq!(contracted("Who you are matters."), "Who you are matters.");
        assert_eq!(contracted("I have a dog."), "I have a dog.");
    }

    #[test]
    fn shortens_phrases() {
        assert_eq!(phrased("We left early in order to win."), "We left early to win.");
        assert_eq!(phrased("In order to win, we left."), "To win, we left.");
        assert_eq!(phrased("A lot of people came."), "Many people came.");
        assert_eq!(phrased("The bank is next to the school."), "The bank is beside the school.");
        assert_eq!(phrased("It was harder than I expected."), "It was harder than expected.");
        assert_eq!(phrased("I want one as well, please."), "I want one too, please.");
        assert_eq!(phrased("She has a lot of money."), "She has much money.");
        assert_eq!(phrased("I have a lot of the blame."), "I have a lot of the blame.");
        assert_eq!(phrased("He is able to swim."), "He can swim.");
        assert_eq!(phrased("For example, this."), "For instance, this.");
        assert_eq!(phrased("Thanks for your help."), "Thank you for your help.");
        assert_eq!(phrased("Thank you for coming."), "Thanks for coming.");
        assert_eq!(phrased("At the moment of impact."), "At the moment of impact.");
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
        assert_eq!(moved("Weather is nice today.").as_deref(), Some("Today, weather is nice."));
        assert_eq!(moved("Today, the weather is nice.").as_deref(), Some("The weather is nice today."));
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
    fn swaps_coordinated_words() {
        assert_eq!(swapped("I like cats and dogs."), "I like dogs and cats.");
        assert_eq!(swapped("It was a big and heavy box."), "It was a heavy and big box.");
        // An adjective before the first noun would come to modify the other one.
        assert_eq!(swapped("I like red apples and bananas."), "I like red apples and bananas.");
        // A noun after the second noun: a compound.
        assert_eq!(swapped("I like apples and banana bread."), "I like apples and banana bread.");
        assert_eq!(swapped("Pass the salt and pepper."), "Pass the salt and pepper.");
        assert_eq!(swapped("Dogs and cats are pets."), "Cats and dogs are pets.");
        assert_eq!(swapped("The room was clean and comfortable."), "The room was comfortable and clean.");
        // Verbs keep their order: it is the order of events.
        assert_eq!(swapped("She smiled and waved."), "She smiled and waved.");
    }

    #[test]
    fn possessives() {
        let of = |text: &str| possessive_to_of(&tokenize(text)).map(|t| join(&t));
        assert_eq!(of("The dog's owner was angry.").as_deref(), Some("The owner of the dog was angry."));
        assert_eq!(of("He held his wife's hand.").as_deref(), Some("He held the hand of his wife."));
        assert_eq!(
            of("The company's profits increased.").as_deref(),
            Some("The profits of the company increased.")
        );
        assert_eq!(
            of("The girls' bikes were stolen.").as_deref(),
            Some("The bikes of the girls were stolen.")
        );
        assert_eq!(of("The girls' school is closed."), None);
        // A quotation's closing mark is not a possessive.
        assert_eq!(of("She said 'the girls' again."), None);
        // A name, a measure, a compound after the owned noun.
        assert_eq!(of("I saw John's car."), None);
        assert_eq!(of("It was a day's work."), None);
        assert_eq!(of("The company's profit margin grew."), None);
    }

    #[test]
    fn articles_follow_the_new_word() {
        let mut t = tokenize("a apple and an dog and a car");
        for k in [2, 8] {
            t[k].changed = true;
        }
        fix_articles(&mut t);
        assert_eq!(join(&t), "an apple and a dog and a car");
        assert!(takes_an("hour") && takes_an("idea") && !takes_an("unit") && !takes_an("car"));
    }

    #[test]
    fn fixed_phrases_are_frozen() {
        let mut t = tokenize("Of course, in order to go.");
        protect_fixed_phrases(&mut t);
        assert!(t.iter().filter(|t| t.text == "course" || t.text == "order").all(|t| t.frozen));
    }
}
