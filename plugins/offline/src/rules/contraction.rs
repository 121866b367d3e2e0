//! Contractions, both ways: a text that uses any has them expanded ("don't" -> "do not"), and a
//! text without any has them made where a contraction can stand ("it is very" -> "it's very",
//! never "I know what it's."), so that the text's style stays one.

use crate::lexicon::Pos;
use crate::morph::{self, Form};
use crate::shape::{capitalise, is_all_caps, is_title, words_like};
use crate::tokens::{Kind, Token, next_word};
use crate::words::{
    ARTICLES, DEFINITE_DETERMINERS, DETERMINERS, FINITE_BE, FINITE_DO, FINITE_HAVE, OBJECT_PRONOUNS,
    PERSONAL_POSSESSIVES, SMALL_NUMBERS, STATE_PARTICIPLES, clear_pos, concat, is_noun, participle_lemma,
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

/// The expansion of a contraction token, if it is one we know; for a pronoun's "'s" the words
/// after it (`tokens` from `i`) decide between "is" and "has", and none is given when they cannot.
fn expansion(word: &str, tokens: &[Token], i: usize) -> Option<Vec<&'static str>> {
    let lower = word.replace('’', "'").to_lowercase();
    if let Some((_, words)) = CONTRACTIONS.iter().find(|(c, _)| *c == lower) {
        return Some(words.to_vec());
    }
    let next = next_word(tokens, i);
    // "'d" is "had" before a participle; only the "would" of "I'd like" is expanded.
    if let Some(subject) = lower.strip_suffix("'d") {
        let subject = ["i", "you", "he", "she", "we", "they"].into_iter().find(|s| *s == subject)?;
        return next
            .is_some_and(|n| ["like", "love", "prefer", "rather"].contains(&n.as_str()))
            .then(|| vec![subject, "would"]);
    }
    let subject = S_CONTRACTIONS.iter().find(|c| **c == lower)?.strip_suffix("'s")?;
    let subject = ["it", "he", "she", "that", "there", "what", "who", "where", "how"]
        .into_iter()
        .find(|s| *s == subject)?;
    let verb = if s_is_has(tokens, i, subject)? { "has" } else { "is" };
    Some(vec![subject, verb])
}

/// Adverbs that may stand between "'s" and the word that tells "is" from "has" ("she's already
/// left", "it's not been easy").
const BETWEEN: &[&str] = &[
    "now",
    "already",
    "just",
    "never",
    "always",
    "not",
    "really",
    "finally",
    "recently",
    "probably",
    "still",
    "also",
    "only",
    "even",
    "ever",
    "actually",
    "definitely",
    "certainly",
    "obviously",
    "clearly",
    "almost",
    "nearly",
    "hardly",
    "suddenly",
    "completely",
    "totally",
    "usually",
    "often",
];

/// Participles whose "'s" with no object after them is "has": verbs mostly used without an object
/// ("she's arrived", "it's rained all day", "he's decided to stay"). Another participle with no
/// object may be a passive ("it's written in French"), so its "'s" is left alone.
const PERFECT_WITHOUT_OBJECT: &[&str] = &[
    "arrived",
    "left",
    "happened",
    "changed",
    "started",
    "stopped",
    "begun",
    "come",
    "become",
    "fallen",
    "grown",
    "risen",
    "improved",
    "moved",
    "returned",
    "disappeared",
    "stayed",
    "waited",
    "worked",
    "lived",
    "rained",
    "snowed",
    "decided",
    "tried",
    "managed",
    "offered",
    "promised",
    "refused",
    "agreed",
    "learned",
    "learnt",
    "forgotten",
    "chosen",
    "planned",
    "wanted",
    "needed",
    "hoped",
    "failed",
    "continued",
    "seemed",
    "travelled",
    "traveled",
    "won",
    "slept",
    "gotten",
    "got",
    "been",
    "had",
    "gone",
    "run",
    "eaten",
    "studied",
    "played",
    "cried",
    "laughed",
    "ended",
];

/// Words that open an object after a participle ("she's written a book", "he's told me").
fn opens_object(word: &str) -> bool {
    DETERMINERS.contains(&word)
        || OBJECT_PRONOUNS.contains(&word)
        || SMALL_NUMBERS.contains(&word)
        || ["it", "that", "one", "something", "nothing", "everything", "anything", "lots", "plenty"]
            .contains(&word)
}

/// Whether the "'s" of `subject` (the token at `i`) is "has" (`Some(true)`) or "is"
/// (`Some(false)`), or `None` when the words after it do not say. A participle that mostly
/// tells a state is "is" ("it's supposed to rain", "the shop's closed on Sundays") unless an
/// object follows ("he's closed the door"); a verb's participle is "has" with an object after it
/// ("she's written a book") or when the verb is mostly used without one ("she's worked here");
/// anything else that is no participle is "is" ("it's raining", "she's tired", "it's a test").
fn s_is_has(tokens: &[Token], i: usize, subject: &str) -> Option<bool> {
    let mut at = i + 2;
    let mut word = next_word(tokens, i);
    while word.as_deref().is_some_and(|w| BETWEEN.contains(&w)) {
        word = next_word(tokens, at);
        at += 2;
    }
    let Some(word) = word else { return Some(false) };
    // "What's he done?", "Where's it gone?": an inverted subject, then a participle or not.
    if ["what", "who", "where", "how"].contains(&subject) && !word.ends_with("ing") {
        let mut j = at;
        while let Some(w) = next_word(tokens, j) {
            if participle_lemma(&w).is_some()
                || PERFECT_WITHOUT_OBJECT.contains(&w.as_str())
                || STATE_PARTICIPLES.contains(&w.as_str())
            {
                return None;
            }
            j += 2;
        }
    }
    let after = next_word(tokens, at);
    let object = after.as_deref().is_some_and(opens_object);
    let word = word.as_str();
    // "He's gone" may be either, and "has" always reads right.
    if ["been", "got", "gotten", "had", "gone"].contains(&word) {
        return Some(true);
    }
    if STATE_PARTICIPLES.contains(&word) {
        // "It's called the Ritz" and "he's called the police"; "she's finished" (her work, or
        // she is done for); "it's made up" and "he's made up his mind": both readings are heard.
        let particle =
            after.as_deref().is_some_and(|a| ["up", "out", "off", "down", "away", "back"].contains(&a));
        return match word {
            "called" | "named" if object => None,
            "finished" if !object => None,
            // "It's done." and "she's done with it" are "is"; "he's done well" is "has".
            "done" if !object && after.as_deref().is_some_and(|a| a != "with") => None,
            _ if particle => None,
            _ => Some(object),
        };
    }
    let analyses = morph::analyse(word);
    let participle = participle_lemma(word).is_some()
        || analyses
            .iter()
            .any(|a| a.pos == Pos::Verb && matches!(a.form, Form::Participle | Form::PastOrParticiple));
    if !participle || word.ends_with("ing") {
        return Some(false);
    }
    if morph::evidence(&analyses, |a| a.pos == Pos::Adj).at_least(1, 3) {
        // Mostly an adjective ("she's excited"), with no object that would make it a verb.
        return (!object).then_some(false);
    }
    (object || PERFECT_WITHOUT_OBJECT.contains(&word)).then_some(true)
}

/// Whether a token is one of the contractions `expansion` knows, whatever its context.
fn is_contraction(word: &str) -> bool {
    let lower = word.replace('’', "'").to_lowercase();
    CONTRACTIONS.iter().any(|(c, _)| *c == lower)
        || S_CONTRACTIONS.contains(&lower.as_str())
        || lower.strip_suffix("'d").is_some_and(|s| ["i", "you", "he", "she", "we", "they"].contains(&s))
}

/// Whether the text uses any contraction we can expand (then expanding is the rewrite, and
/// contracting is not, so that the style stays consistent).
pub fn has_contraction(tokens: &[Token]) -> bool {
    (0..tokens.len()).any(|i| {
        let t = &tokens[i];
        t.is_word() && !t.frozen && (is_contraction(&t.text) || noun_is(tokens, i).is_some())
    })
}

/// The noun of a subject noun's "'s" that stands for "is" ("The car's in the garage." -> "The car
/// is in the garage."), by the same test that makes the contraction: a singular noun after a
/// determiner opening the sentence, and a next word that a possessive cannot have. A verb form of
/// "be" or "have" later on ("The dog's barking is loud.") makes the "-ing" a possessed noun, so
/// the "'s" stays.
fn noun_is(tokens: &[Token], i: usize) -> Option<&str> {
    let text = tokens[i].text.as_str();
    let noun = text.strip_suffix("'s").or_else(|| text.strip_suffix("’s"))?;
    let finite_later = tokens[i + 1..].iter().any(|t| {
        let lower = t.text.to_lowercase();
        FINITE_BE.contains(&lower.as_str()) || FINITE_HAVE.contains(&lower.as_str())
    });
    (!finite_later && subject_noun(tokens, i, noun) && not_possessive(tokens, i)).then_some(noun)
}

pub fn expand_contractions(tokens: Vec<Token>) -> Vec<Token> {
    let mut out = Vec::with_capacity(tokens.len() + 4);
    for (i, token) in tokens.iter().enumerate() {
        let next = next_word(&tokens, i);
        // "isn't it?", "Don't you think": before its inverted subject "not" cannot stand apart.
        let inverted = next
            .as_deref()
            .is_some_and(|n| ["it", "you", "he", "she", "we", "they", "i", "there"].contains(&n))
            && token.text.to_lowercase().replace('’', "'").ends_with("n't");
        if inverted {
            out.push(token.clone());
            continue;
        }
        if token.is_word()
            && !token.frozen
            && let Some(noun) = noun_is(&tokens, i)
        {
            let mut first = Token::new(noun.to_owned(), Kind::Word);
            first.contracted = Some(Box::new((token.text.clone(), format!("{} is", noun.to_lowercase()))));
            out.push(first);
            out.push(Token::space());
            out.push(Token::new("is", Kind::Word));
            continue;
        }
        match expansion(&token.text, &tokens, i) {
            Some(words) if token.is_word() && !token.frozen && !is_all_caps(&token.text) => {
                let mut new = words_like(&token.text, &words);
                for t in &mut new {
                    if t.text == "i" {
                        t.text = "I".into();
                    }
                }
                if let Some(first) = new.first_mut() {
                    first.contracted = Some(Box::new((token.text.clone(), words.join(" "))));
                }
                // The text's own words, only spelled out: the word groups read them as written
                // ("I don't have any" -> "I do not have any" -> "I have no").
                for t in &mut new {
                    t.changed = false;
                }
                out.extend(new);
            }
            _ => out.push(token.clone()),
        }
    }
    out
}

/// Puts back the contractions `expand_contractions` expanded whose words no rewrite changed or
/// parted ("I have never been" -> "I've never been", wherever the clause has moved), cased for
/// where they now stand: a candidate that keeps the text's contractions still gets the rewrites
/// that only read the expanded words.
pub fn restore(tokens: Vec<Token>) -> Vec<Token> {
    let mut out = Vec::with_capacity(tokens.len());
    let mut i = 0;
    while i < tokens.len() {
        if let Some((written, words)) = tokens[i].contracted.as_deref() {
            let expected: Vec<&str> = words.split(' ').collect();
            let same = expected.iter().enumerate().all(|(k, w)| {
                let at = i + 2 * k;
                (k == 0 || tokens[at - 1].is(Kind::Space, " "))
                    && tokens.get(at).is_some_and(|t| t.is_word() && t.text.to_lowercase() == *w)
            });
            if same {
                let upper = tokens[i].text.starts_with(|c: char| c.is_uppercase());
                let text = if upper || written.starts_with("I'") || written.starts_with("I’") {
                    capitalise(written)
                } else {
                    let mut chars = written.chars();
                    chars.next().map(|c| c.to_lowercase().chain(chars).collect()).unwrap_or_default()
                };
                out.push(Token { contracted: None, ..shape_token(&tokens[i], text) });
                i += 2 * expected.len() - 1;
                continue;
            }
        }
        out.push(tokens[i].clone());
        i += 1;
    }
    out
}

/// A request's opening "Don't" put back where the rules left "Do not" ("Don't forget to…"), with
/// the sentence's other contractions: expanded, it reads as a printed notice. The rules still read
/// "Do not" ("Remember to…").
pub fn restore_request(tokens: Vec<Token>) -> Vec<Token> {
    let Some(first) = tokens.iter().position(|t| t.is_word()) else { return tokens };
    let request = tokens[first]
        .contracted
        .as_deref()
        .is_some_and(|(written, _)| written.to_lowercase().replace('’', "'") == "don't");
    // "Don't know, sorry.": before a verb of knowing or wanting the subject is dropped ("I don't
    // know"), no request.
    const STATES: &[&str] =
        &["know", "think", "want", "need", "have", "care", "understand", "remember", "like", "see"];
    let verb = tokens[first + 1..].iter().filter(|t| t.is_word()).nth(1).map(|t| t.text.to_lowercase());
    let dropped = verb.is_some_and(|v| STATES.contains(&v.as_str()));
    if !request || dropped || tokens.len() < first + 3 {
        return tokens;
    }
    // The sentence's other contractions go back with it, so that its style stays one.
    restore(tokens)
}

fn shape_token(model: &Token, text: String) -> Token {
    Token { text, changed: true, ..model.clone() }
}

/// The auxiliaries whose "not" contracts ("don't", "wouldn't"); "will" becomes "won't" apart.
const NEGATABLE: &[&str] =
    &concat::<15>(&[FINITE_DO, FINITE_BE, FINITE_HAVE, &["will", "would", "should", "could", "must"]]);

/// Words after which "it is" may become "it's": a contraction cannot end a clause ("I know what
/// it is"), so the next word must clearly continue it.
/// Words after "has" that make its "'s" unambiguous: "been", "got", "had", "gone" and adverbs of
/// the perfect. Other participles read as a passive or a state after "'s" ("He's taken to
/// hospital", "She's finished").
const HAS_ONLY: &[&str] = &["been", "got", "had", "gone", "never", "already", "just", "always"];

fn continues_clause(next: &str) -> bool {
    const STARTERS: &[&str] = &[
        "a",
        "an",
        "the",
        "very",
        "so",
        "too",
        "really",
        "quite",
        "all",
        "just",
        "still",
        "also",
        "always",
        "never",
        "going",
        "here",
        "now",
        "my",
        "your",
        "his",
        "her",
        "our",
        "their",
        "no",
        "time",
        "been",
        "only",
        "in",
        "on",
        "at",
        "out",
        "from",
        "with",
        "about",
        "under",
        "behind",
        "near",
        "inside",
        "outside",
        "up",
        "over",
        "away",
        "back",
        "home",
        "off",
        "both",
        "almost",
        "nearly",
        "already",
        "probably",
        "definitely",
        "due",
        "supposed",
        "able",
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
    if !opens || hissing || !noun.bytes().all(|b| b.is_ascii_lowercase()) {
        return false;
    }
    let analyses = morph::analyse(noun);
    (clear_pos(noun) == Some(Pos::Noun) || (analyses.is_empty() && is_noun(noun) && !noun.ends_with('s')))
        && analyses.iter().all(|a| a.form == Form::Base)
}

/// Whether a noun's "'s" before the word after `is_at` is heard as "is" and not as a possessive:
/// "The kettle's boiling." and "The car's in the garage." are; "My brother's home" is heard as
/// his house, and "The dog's hungry puppies" as the dog's puppies. So the next word is a
/// preposition, or a word that is never a noun with no noun after it (the sentence or the clause
/// ends there, or "to", "of", a preposition follows).
fn not_possessive(tokens: &[Token], is_at: usize) -> bool {
    const PREPOSITIONS: &[&str] = &[
        "in", "on", "at", "under", "behind", "near", "inside", "outside", "from", "with", "about", "over",
        "out", "until", "to", "of", "for", "by",
    ];
    // Degree and time adverbs, which no noun follows as a possessed thing ("The river's really deep.").
    const ADVERBS: &[&str] = &[
        "very",
        "so",
        "too",
        "really",
        "quite",
        "still",
        "always",
        "never",
        "just",
        "also",
        "now",
        "already",
        "getting",
        "being",
        "not",
        "usually",
        "often",
        "almost",
        "nearly",
        "completely",
        "rather",
    ];
    let Some(next) = next_word(tokens, is_at) else { return false };
    if PREPOSITIONS.contains(&next.as_str()) || ADVERBS.contains(&next.as_str()) {
        return true;
    }
    let analyses = morph::analyse(&next);
    // A verb in "-ing" is the progressive ("The kettle's boiling.").
    let progressive =
        next.ends_with("ing") && morph::evidence(&analyses, |a| a.pos == Pos::Verb).more_than(1, 2);
    // A word WordNet does not know reads as an adjective by its ending ("allergic").
    let unknown_adjective = analyses.is_empty()
        && ["ic", "ous", "ful", "ive", "able", "ible", "less"].iter().any(|end| next.ends_with(end));
    // Hardly ever a noun ("warm", "shut", "asleep"; "home" and "past" are nouns too).
    let never_noun = unknown_adjective
        || progressive
        || (!analyses.is_empty() && !morph::evidence(&analyses, |a| a.pos == Pos::Noun).more_than(1, 10));
    // And no noun after it that it could describe ("The dog's hungry puppies").
    let after = next_word(tokens, is_at + 2);
    let after_ok = after.as_deref().is_none_or(|a| {
        PREPOSITIONS.contains(&a)
            || ["and", "but", "because", "now", "today", "again", "here"].contains(&a)
            || !is_noun(a)
    });
    // "The library's forgiving all fines": an "-ing" is also a noun or an adjective, and with
    // an object after it reads first as what the library has ("the library's forgiving nature");
    // only where the clause stops after it ("The kettle's boiling.", "... boiling again", "...
    // barking at the postman") is the "'s" heard as "is". And "The neighbour's drilling started
    // at seven": a verb after it makes it the possessed thing, the subject of that verb.
    let ing_alone = after.as_deref().is_none_or(|a| {
        PREPOSITIONS.contains(&a)
            || ADVERBS.contains(&a)
            || crate::words::is_manner_adverb(a)
            || [
                "and", "but", "because", "now", "today", "tonight", "tomorrow", "again", "here", "away",
                "between", "round", "around", "into", "through", "after", "before", "late", "early", "soon",
            ]
            .contains(&a)
    });
    never_noun && after_ok && (!progressive || ing_alone)
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
    // "Sarah and I have been": a pronoun ending a coordinated subject does not take the verb.
    let coordinated = crate::tokens::prev_word(tokens, i).is_some_and(|p| p == "and" || p == "or");
    if coordinated && w2 != "not" {
        return None;
    }
    let contracted = match (w1.as_str(), w2.as_str()) {
        ("will", "not") => format!("won{a}t"),
        (aux, "not") if NEGATABLE.contains(&aux) => format!("{aux}n{a}t"),
        (subject, verb) => {
            // "I will not" becomes "I won't", not "I'll not".
            let after = after.as_deref().filter(|&n| n != "not")?;
            let ok = match (subject, verb) {
                ("i", "am") | ("you" | "we" | "they", "are") => continues_clause(after),
                ("it" | "he" | "she" | "that" | "there" | "what", "is") => continues_clause(after),
                // "The kettle is boiling." -> "The kettle's boiling.", but never where the "'s"
                // reads as a possessive ("My brother is home." is not "My brother's home.").
                (noun, "is") if subject_noun(tokens, i, noun) => not_possessive(tokens, i + 2),
                // "Where is the station?" -> "Where's the station?"; "Who is bringing the chairs?"
                // -> "Who's bringing ...": after "who" or "what" an "-ing" form is the progressive,
                // the only reading of "'s" there.
                ("where" | "who" | "how", "is") => {
                    ARTICLES.contains(&after)
                        || PERSONAL_POSSESSIVES.contains(&after)
                        || ["this", "that", "it", "he", "she"].contains(&after)
                        || (subject == "who" && crate::words::is_gerund(after))
                }
                // "He has been talking" -> "He's been talking": only before a participle that
                // "is" cannot take, so that the "'s" reads as "has" ("She has finished" would read
                // as a state).
                ("it" | "he" | "she" | "that" | "there", "has") => HAS_ONLY.contains(&after),
                // "I have had a sore throat": "have" before a participle is the auxiliary, which
                // contracts; "I have a car" keeps its full form.
                ("i" | "you" | "we" | "they", "have") => {
                    ["been", "got", "never", "already", "just", "always"].contains(&after)
                        || (after.ends_with("ed") && after.len() > 4)
                        || [
                            "had", "done", "seen", "gone", "made", "taken", "found", "lost", "left", "heard",
                            "told",
                        ]
                        .contains(&after)
                }
                ("i" | "you" | "he" | "she" | "we" | "they", "will") => true,
                // "I would never rent there again" -> "I'd never ...": "'d" is "had" only before a
                // participle, which none of these is.
                ("i" | "you" | "he" | "she" | "we" | "they", "would") => {
                    ["like", "love", "prefer", "rather", "never", "be", "really"].contains(&after)
                }
                _ => false,
            };
            if !ok {
                return None;
            }
            let short = match verb {
                "am" => "m",
                "are" => "re",
                "is" | "has" => "s",
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

    #[test]
    fn expands_contractions() {
        assert_eq!(expand("I don't know."), "I do not know.");
        assert_eq!(expand("Don't go, it's late."), "Do not go, it is late.");
        // A request's opening "Don't" is put back once the rules have read "Do not".
        let back = |text: &str| join(&restore_request(expand_contractions(tokenize(text))));
        assert_eq!(back("Don't go, it's late."), "Don't go, it's late.");
        assert_eq!(back("Please don't go."), "Please do not go.");
        assert_eq!(back("Don't know, sorry."), "Do not know, sorry.");
        assert_eq!(expand("It’s been fun and we’ll see."), "It has been fun and we will see.");
        assert_eq!(expand("I'm sure you can't."), "I am sure you cannot.");
        assert_eq!(expand("I won't."), "I will not.");
        assert_eq!(expand("I'd like tea."), "I would like tea.");
        assert_eq!(expand("I'd gone."), "I'd gone.");
        assert_eq!(expand("Let's go."), "Let's go.");
        assert_eq!(expand("She's worked here for years."), "She has worked here for years.");
        assert_eq!(expand("Lovely weather, isn't it?"), "Lovely weather, isn't it?");
        assert_eq!(expand("She's tired."), "She is tired.");
        // A participle that tells a state is "is", unless an object follows.
        assert_eq!(
            expand("It's supposed to rain all weekend, so we've cancelled the picnic."),
            "It is supposed to rain all weekend, so we have cancelled the picnic."
        );
        assert_eq!(expand("He's used to the noise."), "He is used to the noise.");
        assert_eq!(expand("It's made of wood."), "It is made of wood.");
        assert_eq!(
            expand("The shop's closed but it's based in Leeds."),
            "The shop's closed but it is based in Leeds."
        );
        assert_eq!(expand("It's done."), "It is done.");
        assert_eq!(expand("He's gone home."), "He has gone home.");
        assert_eq!(expand("He's closed the door."), "He has closed the door.");
        assert_eq!(expand("She's made a cake."), "She has made a cake.");
        assert_eq!(expand("She's already left."), "She has already left.");
        assert_eq!(expand("It's not been easy."), "It has not been easy.");
        assert_eq!(expand("She's written a book."), "She has written a book.");
        // Where either reading is heard, or a passive may be meant, the "'s" stays.
        assert_eq!(expand("It's written in French."), "It's written in French.");
        assert_eq!(expand("He's called the police."), "He's called the police.");
        assert_eq!(expand("She's finished."), "She's finished.");
        assert_eq!(expand("He's done well."), "He's done well.");
        assert_eq!(expand("What's he done?"), "What's he done?");
        assert_eq!(expand("What's the time?"), "What is the time?");
        // A subject noun's "'s" that can only be "is".
        assert_eq!(expand("The car's in the garage."), "The car is in the garage.");
        assert_eq!(expand("The dog's asleep on the mat."), "The dog is asleep on the mat.");
        assert_eq!(expand("The kettle's boiling."), "The kettle is boiling.");
        assert_eq!(expand("The dog's bowl is empty."), "The dog's bowl is empty.");
        assert_eq!(expand("The dog's barking is loud."), "The dog's barking is loud.");
        assert_eq!(
            expand("The neighbour's drilling started at seven."),
            "The neighbour's drilling started at seven."
        );
        assert_eq!(expand("My brother's home."), "My brother's home.");
        assert_eq!(expand("Sarah's coming to dinner."), "Sarah's coming to dinner.");
    }

    #[test]
    fn no_contraction_where_it_reads_as_a_possessive() {
        // An "-ing" with an object after it reads first as the noun's ("the library's forgiving").
        assert_eq!(
            contracted("The library is forgiving all fines during the month of March."),
            "The library is forgiving all fines during the month of March."
        );
        assert_eq!(contracted("The kettle is boiling."), "The kettle's boiling.");
        assert_eq!(contracted("The dog is barking at the postman."), "The dog's barking at the postman.");
        assert_eq!(contracted("My computer is running very slowly."), "My computer's running very slowly.");
        assert_eq!(contracted("The car is not ready."), "The car isn't ready.");
    }

    #[test]
    fn restores_the_contractions_whose_words_stayed() {
        let restored = |tokens: Vec<Token>| join(&restore(tokens));
        let text = "I've never been there, but it's fine and I can't stay.";
        assert_eq!(restored(expand_contractions(tokenize(text))), text);
        // Cased for where the words now stand; changed words stay expanded.
        let mut t = expand_contractions(tokenize("It's late."));
        t[0].text = "it".into();
        assert_eq!(restored(t), "it's late.");
        let mut t = expand_contractions(tokenize("We're sure it's late."));
        t[2].text = "were".into();
        assert_eq!(restored(t), "We were sure it's late.");
    }

    #[test]
    fn contracts_only_where_a_contraction_can_stand() {
        assert_eq!(contracted("I do not know."), "I don't know.");
        assert_eq!(contracted("Do not go."), "Don't go.");
        assert_eq!(contracted("It is a test."), "It's a test.");
        assert_eq!(contracted("I have had a cold since Tuesday."), "I've had a cold since Tuesday.");
        assert_eq!(contracted("I have a cold."), "I have a cold.");
        assert_eq!(contracted("Water them while we are away."), "Water them while we're away.");
        assert_eq!(contracted("I will not go and I cannot stay."), "I won't go and I can't stay.");
        assert_eq!(contracted("I am happy."), "I'm happy.");
        assert_eq!(contracted("He has been talking too much."), "He's been talking too much.");
        assert_eq!(contracted("It has never worked."), "It's never worked.");
        assert_eq!(contracted("She has finished."), "She has finished.");
        assert_eq!(contracted("He has taken the car."), "He has taken the car.");
        assert_eq!(contracted("Who is bringing the chairs?"), "Who's bringing the chairs?");
        assert_eq!(contracted("Who is she?"), "Who's she?");
        assert_eq!(contracted("I would never rent from them."), "I'd never rent from them.");
        assert_eq!(contracted("I would go."), "I would go.");
        assert_eq!(contracted("We are out of coffee."), "We're out of coffee.");
        assert_eq!(contracted("The kettle is boiling."), "The kettle's boiling.");
        // Where the "'s" would read as a possessive, "is" stays.
        assert_eq!(contracted("My brother is home."), "My brother is home.");
        assert_eq!(contracted("The garden is flower beds."), "The garden is flower beds.");
        assert_eq!(contracted("The dog is hungry puppies."), "The dog is hungry puppies.");
        assert_eq!(contracted("The baby is asleep in the cot."), "The baby's asleep in the cot.");
        assert_eq!(contracted("The cat is behind the sofa."), "The cat's behind the sofa.");
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
        assert_eq!(
            contracted("Sarah and I have been friends for years."),
            "Sarah and I have been friends for years."
        );
    }
}
