//! Two coordinated or compared parts change places: two nouns or adjectives ("salt and
//! vinegar"), two listed objects ("two brothers and a sister"), and the two sides of a comparison
//! ("A is more ... than B" -> "B is less ... than A").

use crate::lexicon::{self, Pos};
use crate::morph;
use crate::shape::{self, Plain, capitalise, is_title, leaving_start, starting};
use crate::syntax::{Side, movable_side, phrase_ends_after, side_words};
use crate::tokens::{Kind, Token, is_sentence_start, matches_at, next_word, plain_lower, word_before};
use crate::words::{
    ARTICLES, CLAUSE_WORDS, DEFINITE_DETERMINERS, FINITE_BE, FINITE_HAVE, PERSONAL_POSSESSIVES, can_be,
    clear_pos, clearly_finite, concat, is_noun, is_plural_noun, is_verbish, lowercase_ok, modifier_or_noun,
    pos_share,
};

/// Pairs that are idioms in their order ("salt and pepper").
const BINOMIALS: &[(&str, &str)] = &[
    ("bread", "butter"),
    ("quick", "easy"),
    ("lovely", "warm"),
    ("nice", "warm"),
    ("safe", "sound"),
    ("health", "safety"),
    ("rest", "relaxation"),
    ("short", "sweet"),
    ("sick", "tired"),
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
        // "clear and full of stars": a complement after the second adjective is that one's alone
        // ("full and clear of stars" says another thing); "than" is both's.
        let complement = pos == Pos::Adj
            && next_word(tokens, j).is_some_and(|n| {
                [
                    "of", "with", "for", "about", "from", "at", "in", "on", "to", "by", "after", "before",
                    "during", "until", "when", "if",
                ]
                .contains(&n.as_str())
            });
        // "ten minutes from the beach and breakfast is included": a verb after the second noun
        // makes it the next clause's subject, which the "and" joins; only a pair that opens the
        // sentence is one subject ("Salt and sugar are ...").
        let clause_follows = !start
            && next_word(tokens, j).is_some_and(|n| {
                FINITE_BE.contains(&n.as_str())
                    || FINITE_HAVE.contains(&n.as_str())
                    || ["will", "would", "can", "could", "should", "must", "may", "might"]
                        .contains(&n.as_str())
                    || clearly_finite(&n, false)
                    || crate::words::FUNCTION_VERBS.contains(&n.as_str())
                    || clear_pos(&n) == Some(Pos::Verb)
                    // "scan the letter and email it": an object pronoun makes the second word a verb.
                    || ["it", "them", "him", "her", "me", "us"].contains(&n.as_str())
            });
        // "a towel and goggles": "a" may be the first noun's alone, and a plural or a mass noun
        // cannot come first after it ("a goggles and towel").
        let article = pos == Pos::Noun && before.as_deref().is_some_and(|w| ["a", "an"].contains(&w));
        if before_ok && after_ok && !complement && !clause_follows && !article {
            tokens[i].text = if titled { capitalise(&b) } else { b };
            tokens[j].text = a;
            tokens[i].changed = true;
            tokens[j].changed = true;
            return true;
        }
    }
    false
}

/// Words that open a listed noun phrase.
const LIST_OPENERS: &[&str] =
    &concat::<15>(&[ARTICLES, PERSONAL_POSSESSIVES, &["some", "two", "three", "four", "five", "several"]]);

/// The end (exclusive) of a short noun phrase opening at `k` ("two brothers", "a big garden",
/// "a glass of wine").
fn listed_phrase(p: &Plain, k: usize) -> Option<usize> {
    if !LIST_OPENERS.contains(&p.lower(k).as_str()) {
        return None;
    }
    let (noun, modifier) = (is_noun, modifier_or_noun);
    let head = (k + 2..=k + 3).find(|&end| {
        end <= p.items.len()
            && noun(&p.lower(end - 1))
            && (k + 1..end - 1).all(|j| modifier(&p.lower(j)))
            && p.items[k..end].iter().all(Token::is_word)
    })?;
    // A measure of something: "of" and one plain noun ("a cup of tea", not "a cup of the tea").
    let measure = head + 2 <= p.items.len()
        && p.lower(head) == "of"
        && p.items[head + 1].is_word()
        && is_noun(&p.lower(head + 1));
    Some(if measure { head + 2 } else { head })
}

/// Two noun phrases listed as the object at the end of the sentence swap: "He has two brothers
/// and a sister." -> "He has a sister and two brothers."
pub fn swap_listed_objects(p: &Plain) -> Option<Vec<Token>> {
    if p.commas() != 0 {
        return None;
    }
    let n = p.items.len();
    let and = p.find("and")?;
    if p.items[and + 1..].iter().any(|t| CLAUSE_WORDS.contains(&t.text.to_lowercase().as_str())) {
        return None;
    }
    let start = (and.saturating_sub(3)..and).find(|&k| listed_phrase(p, k) == Some(and))?;
    if listed_phrase(p, and + 1) != Some(n) || start == 0 {
        return None;
    }
    // The list is the object of the verb right before it: a finite one, or in a question one
    // after its auxiliary and subject ("Did you pack the torches and the batteries?").
    let verb = p.lower(start - 1);
    let asked = p.terminal.text == "?"
        && start == 3
        && ["do", "did", "does", "can", "could", "will", "would", "should", "shall"]
            .contains(&p.lower(0).as_str())
        && ["i", "you", "we", "they"].contains(&p.lower(1).as_str())
        && crate::words::base_verb_reading(&verb);
    let stated =
        p.terminal.text != "?" && (clearly_finite(&verb, true) || FINITE_HAVE.contains(&verb.as_str()));
    if !(asked || stated) {
        return None;
    }
    let mut out: Vec<Token> = p.items[..start].to_vec();
    out.extend_from_slice(&p.items[and + 1..]);
    out.push(p.items[and].clone());
    out.extend_from_slice(&p.items[start..and]);
    Some(shape::build(&out, &p.terminal))
}

/// The prepositions that open a place phrase after a noun.
const PLACE_PREPOSITIONS: &[&str] = &["at", "in", "on", "near", "from", "by"];

/// The plain adjective of a graded one ("warmer" -> "warm", "better" -> "good"). Between "be" and
/// "than" the word can only be a predicative comparative, so its other readings ("to better")
/// do not matter; two different bases do.
fn comparative_base(word: &str) -> Option<&'static str> {
    let analyses = morph::analyse(word);
    let mut bases = analyses.iter().filter(|a| a.pos == Pos::Adj && a.form == morph::Form::Comparative);
    let base = bases.next()?.entry.lemma;
    bases.all(|a| a.entry.lemma == base).then_some(base)
}

/// A comparison between two short noun phrases of the same number turns round, so the verb still
/// agrees: "This chair is more comfortable than the old one." -> "The old one is less comfortable
/// than this chair."; "The blue jacket is warmer than the grey one." -> "The grey one is not as
/// warm as the blue jacket." (the adjective keeps its own sense: no antonym is guessed).
pub fn invert_comparison(p: &Plain) -> Option<Vec<Token>> {
    if p.commas() != 0 || p.terminal.text != "." {
        return None;
    }
    let n = p.items.len();
    let be = (2..n.min(5)).find(|&k| FINITE_BE.contains(&p.lower(k).as_str()))?;
    // "more" and an adjective, or an adjective in "-er".
    let periphrastic = p.lower(be + 1) == "more" && can_be(&p.lower(be + 2), Pos::Adj);
    let graded = if periphrastic { None } else { comparative_base(&p.lower(be + 1)) };
    // "Their house is not as small as our flat" would suggest both are small.
    if (!periphrastic && graded.is_none()) || LESSER_POLES.contains(&p.lower(be + 1).as_str()) {
        return None;
    }
    let than = if periphrastic { be + 3 } else { be + 2 };
    // A short definite noun phrase: "the old one", "that one", "the ones at the market". Its first
    // word is a determiner even where it could open a clause ("that").
    let side_ok = |from: usize, to: usize| {
        to > from + 1
            && to - from <= 5
            && (DEFINITE_DETERMINERS.contains(&p.lower(from).as_str())
                || ["these", "those"].contains(&p.lower(from).as_str()))
            && p.items[from + 1..to]
                .iter()
                .all(|t| t.is_word() && !CLAUSE_WORDS.contains(&t.text.to_lowercase().as_str()))
            // "than my father now": the adverb is the sentence's, and turned round it would end
            // the subject ("My father now is not as tall as my brother.").
            && ![
                "now", "here", "there", "today", "tonight", "nowadays", "anymore", "already", "still", "again",
                "too", "yet", "though", "instead", "then", "lately", "recently",
            ]
            .contains(&p.lower(to - 1).as_str())
    };
    // The number of a side is its head's, the noun before any place phrase ("the ones at the
    // market").
    let plural = |from: usize, to: usize| {
        let head =
            (from + 1..to).find(|&k| PLACE_PREPOSITIONS.contains(&p.lower(k + 1).as_str())).unwrap_or(to - 1);
        let head = p.lower(head);
        head == "ones" || is_plural_noun(&head)
    };
    // "than my old one": "one" stands for the first side's noun, and turned round it would come
    // before that noun ("My old one is not as warm as this jacket.").
    let stands_for = (than + 1..n).any(|k| ["one", "ones"].contains(&p.lower(k).as_str()));
    if p.lower(than) != "than"
        || stands_for
        || !side_ok(0, be)
        || !side_ok(than + 1, n)
        || plural(0, be) != plural(than + 1, n)
        || points_back(p, be, than + 1)
    {
        return None;
    }
    let mut out = vec![starting(&p.items[than + 1])];
    out.extend_from_slice(&p.items[than + 2..]);
    out.push(p.items[be].clone());
    match graded {
        None => {
            out.push(shape::word("less"));
            out.push(p.items[be + 2].clone());
            out.push(p.items[than].clone());
        }
        Some(base) => {
            out.extend(["not", "as", base, "as"].map(shape::word));
        }
    }
    out.push(leaving_start(&p.items[0])?);
    out.extend_from_slice(&p.items[1..be]);
    Some(shape::build(&out, &p.terminal))
}

/// Whether the second side, from `second`, has a "his" or "her" that may point back to the first
/// side, which ends at `first_end`: turned round, the owner would come after it ("My sister is
/// taller than her husband" -> "Her husband is ... than my sister"). "her father" after "her uncle"
/// has the same owner as before, told elsewhere.
fn points_back(p: &Plain, first_end: usize, second: usize) -> bool {
    (second..p.items.len()).any(|k| {
        let w = p.lower(k);
        ["his", "her", "their", "its"].contains(&w.as_str()) && (0..first_end).all(|j| p.lower(j) != w)
    })
}

/// Verbs of how a thing looks to anyone, which say the same of either side: "My brother looks
/// older than me." -> "I look younger than my brother." Not "feel", whose subject is the one who
/// feels ("I feel older than my brother" is no "My brother feels younger than me").
const SEEM: &[(&str, &str, &str)] = &[("look", "looks", "looked"), ("seem", "seems", "seemed")];

/// Where a comparison's finite "be" or "look" (after a short first side) and its "than" (a few
/// words on) stand.
fn comparison_frame(p: &Plain) -> Option<(usize, usize)> {
    let n = p.items.len();
    let be = (1..n.min(6)).find(|&k| {
        let w = p.lower(k);
        FINITE_BE.contains(&w.as_str())
            || w == "am"
            || SEEM.iter().any(|&(b, s, d)| [b, s, d].contains(&w.as_str()))
    })?;
    let than = (be + 2..n.min(be + 6)).find(|&k| p.lower(k) == "than")?;
    Some((be, than))
}

/// Comparatives whose opposite, with the sides swapped, says the same in everyday use, and
/// whether the pair holds only of people: "older" of a car is "newer", "shorter" of a queue is
/// "longer" and "taller" of a tree is "higher", "richer" of a sauce is no "poorer". Not "lighter"
/// (of a colour too), "quieter" (of a place: less busy), "harder" (of a bed: firm), "deeper" (of a
/// voice), "better" and "worse" (the lesser pole suggests both are bad).
const OPPOSITES: &[(&str, &str, bool)] = &[
    ("older", "younger", true),
    ("younger", "older", true),
    ("taller", "shorter", true),
    ("shorter", "taller", true),
    ("richer", "poorer", true),
    ("poorer", "richer", true),
    ("bigger", "smaller", false),
    ("larger", "smaller", false),
    ("smaller", "bigger", false),
    ("heavier", "lighter", false),
    ("faster", "slower", false),
    ("quicker", "slower", false),
    ("slower", "faster", false),
    ("earlier", "later", false),
    ("later", "earlier", false),
    ("longer", "shorter", false),
    ("higher", "lower", false),
    ("lower", "higher", false),
    ("warmer", "colder", false),
    ("hotter", "colder", false),
    ("colder", "warmer", false),
    ("cheaper", "more expensive", false),
    ("dearer", "cheaper", false),
    ("stronger", "weaker", false),
    ("weaker", "stronger", false),
    ("wider", "narrower", false),
    ("narrower", "wider", false),
    ("louder", "quieter", false),
    ("noisier", "quieter", false),
    ("easier", "harder", false),
    ("newer", "older", false),
];

/// The lesser poles of the pairs: "not as small as" would suggest both sides are small, so the
/// plain "not as ... as" of `invert_comparison` is told only of the other pole.
const LESSER_POLES: &[&str] = &[
    "younger",
    "shorter",
    "poorer",
    "smaller",
    "slower",
    "lower",
    "colder",
    "cooler",
    "cheaper",
    "weaker",
    "narrower",
    "quieter",
    "lighter",
    "thinner",
    "shallower",
];

/// What may stand between "be" and the comparative and reads the same before its opposite: a
/// degree ("much", "a bit") or a measure ("two years", "ten minutes"). Not "even" or "still", which
/// presuppose that the other side is already so, nor "three times", whose opposite is no fraction.
fn degree_ok(words: &[String]) -> bool {
    let number = |w: &str| {
        crate::words::SMALL_NUMBERS.contains(&w)
            || ["a", "an", "one"].contains(&w)
            || w.parse::<u32>().is_ok()
    };
    match words.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
        [] | ["much" | "far" | "slightly"] | ["a", "bit" | "little" | "lot"] => true,
        [n, unit] => number(n) && crate::words::AMOUNT_UNITS.contains(unit),
        ["a", "few", unit] => crate::words::AMOUNT_UNITS.contains(unit),
        _ => false,
    }
}

/// "My brother is two years older than me." -> "I am two years younger than my brother."; "The
/// train was faster than the bus." -> "The bus was slower than the train." The two sides swap
/// round the comparative's opposite (`OPPOSITES`), a pronoun changes case and "be" agrees with
/// its new subject in the same tense; a degree or a measure stays. Only the whole statement in
/// that shape: each side a pronoun, a name or a short noun phrase (never a clause, nor "one" or
/// "mine" that stand for another noun), the second ending the sentence (so no clause or time
/// after "than": "than usual", "than I thought", "than last year"), "be" right after the first
/// (no modal, no negation), and no "his" or "her" in the second side that points back to a first
/// side that is no pronoun ("taller than her husband" told first would lose its owner).
pub fn opposite_comparison(p: &Plain) -> Option<Vec<Token>> {
    if p.commas() != 0 || p.terminal.text != "." {
        return None;
    }
    let n = p.items.len();
    let (be, than) = comparison_frame(p)?;
    let periphrastic = p.lower(than - 2) == "more" && p.lower(than - 1) == "expensive";
    let comparative = if periphrastic { than - 2 } else { than - 1 };
    let word = if periphrastic { "more expensive".to_string() } else { p.lower(comparative) };
    let first = movable_side(p, 0, be, true)?;
    let second = movable_side(p, than + 1, n, false)?;
    let opposite = if periphrastic {
        "cheaper"
    } else {
        let &(_, opposite, people) = OPPOSITES.iter().find(|(c, _, _)| *c == word)?;
        if people && !(first.is_person() && second.is_person()) {
            return None;
        }
        opposite
    };
    let degree: Vec<String> = (be + 1..comparative).map(|k| p.lower(k)).collect();
    let points_back = matches!(first, Side::Phrase { .. }) && points_back(p, be, than + 1);
    // "The prices are lower than the supermarket": one side a price and the other a place is a
    // comparison said short, which turned round says the place is higher.
    const PRICES: &[&str] = &["price", "prices", "cost", "costs", "rent", "fee", "fees", "fare", "fares"];
    let priced = |from: usize, to: usize| (from..to).any(|k| PRICES.contains(&p.lower(k).as_str()));
    if priced(0, be) != priced(than + 1, n) {
        return None;
    }
    if !degree_ok(&degree) || points_back {
        return None;
    }
    let verb = p.lower(be);
    let past = ["was", "were"].contains(&verb.as_str());
    // "looked" stays; "looks" and "look" agree with the new subject ("I look", "the teacher seems").
    let verb = match SEEM.iter().find(|&&(b, s, d)| [b, s, d].contains(&verb.as_str())) {
        Some(&(_, _, d)) if verb == d => d,
        Some(&(b, _, _)) if second.takes_plain_present() => b,
        Some(&(_, s, _)) => s,
        None => second.be(past),
    };
    let mut out = side_words(p, than + 1, n, second, true)?;
    out.push(shape::word(verb));
    out.extend_from_slice(&p.items[be + 1..comparative]);
    out.extend(opposite.split(' ').map(shape::word));
    out.push(p.items[than].clone());
    out.extend(side_words(p, 0, be, first, false)?);
    Some(shape::build(&out, &p.terminal))
}

/// Adjectives that make a definite noun phrase pick out one thing ("my favourite part", "the best
/// bit", "the main problem"): "be" between such a phrase and another definite one says which thing
/// it is, and says the same from either side.
const PICKS_OUT: &[&str] = &[
    "favourite",
    "best",
    "worst",
    "main",
    "only",
    "biggest",
    "hardest",
    "easiest",
    "nicest",
    "funniest",
    "busiest",
    "first",
    "last",
];

/// "The quiz is my favourite part of the evening." <-> "My favourite part of the evening is the
/// quiz.": the two sides of "be" change places where one of them picks out one thing
/// (`PICKS_OUT`) and the other is a definite noun phrase or a name, so that both name the same
/// thing. Never a pronoun ("She is my best friend."), an indefinite side
/// ("My best friend is a doctor." says what he is, not who), a negation, a modal, or anything after
/// the second side.
pub fn picked_out_turned(p: &Plain) -> Option<Vec<Token>> {
    if p.commas() != 0 || p.terminal.text != "." {
        return None;
    }
    let n = p.items.len();
    let be = (1..n.min(8)).find(|&k| ["is", "was", "are", "were"].contains(&p.lower(k).as_str()))?;
    let first = movable_side(p, 0, be, true)?;
    let second = movable_side(p, be + 1, n, false)?;
    let definite = |a: usize| DEFINITE_DETERMINERS[..7].contains(&p.lower(a).as_str());
    let named = |a: usize, b: usize, side: Side| b == a + 1 && matches!(side, Side::Phrase { .. });
    let picks = |a: usize, b: usize| {
        let head_end = (a + 1..b).find(|&k| ["of", "from"].contains(&p.lower(k).as_str())).unwrap_or(b);
        definite(a) && (a + 1..head_end - 1).any(|k| PICKS_OUT.contains(&p.lower(k).as_str()))
    };
    let pronoun = matches!(first, Side::Pronoun(_)) || matches!(second, Side::Pronoun(_));
    let (left, right) = (picks(0, be), picks(be + 1, n));
    let other_fits = |a: usize, b: usize, side: Side| definite(a) || named(a, b, side);
    let fits = if left { other_fits(be + 1, n, second) } else { other_fits(0, be, first) };
    if pronoun || left == right || !fits {
        return None;
    }
    let past = ["was", "were"].contains(&p.lower(be).as_str());
    let mut out = side_words(p, be + 1, n, second, true)?;
    out.push(shape::word(second.be(past)));
    out.extend(side_words(p, 0, be, first, false)?);
    Some(shape::build(&out, &p.terminal))
}

/// "I prefer tea to coffee." -> "I like tea better than coffee.": two short noun phrases, the
/// second ending the sentence, and a noun after "to" ("prefer to walk" is another verb).
pub fn prefer_to_like(p: &Plain) -> Option<Vec<Token>> {
    if p.commas() != 0 || p.terminal.text != "." {
        return None;
    }
    let n = p.items.len();
    let k = (1..n).find(|&k| ["prefer", "prefers", "preferred"].contains(&p.lower(k).as_str()))?;
    let to = (k + 2..n).find(|&j| p.lower(j) == "to")?;
    let plain_words = |from: usize, to: usize| {
        (from..to).all(|j| p.items[j].is_word() && !CLAUSE_WORDS.contains(&p.lower(j).as_str()))
    };
    let noun_after = is_noun(&p.lower(to + 1)) && !is_verbish(&p.lower(to + 1))
        || NOUN_PHRASE_STARTS.contains(&p.lower(to + 1).as_str());
    if to - k > 4
        || n - to > 5
        || n == to + 1
        || !noun_after
        || !plain_words(k + 1, to)
        || !plain_words(to + 1, n)
    {
        return None;
    }
    let like = match p.lower(k).as_str() {
        "prefer" => "like",
        "prefers" => "likes",
        _ => "liked",
    };
    let mut out: Vec<Token> = p.items[..k].to_vec();
    out.push(shape::word(like));
    out.extend_from_slice(&p.items[k + 1..to]);
    out.extend(["better", "than"].map(shape::word));
    out.extend_from_slice(&p.items[to + 1..]);
    Some(shape::build(&out, &p.terminal))
}

/// Words that open a noun phrase after "to".
const NOUN_PHRASE_STARTS: &[&str] =
    &["the", "a", "an", "my", "your", "his", "her", "our", "their", "this", "that"];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::apply as run;
    use crate::tokens::{join, tokenize};

    fn swapped(text: &str) -> String {
        let mut t = tokenize(text);
        swap_coordination(&mut t);
        join(&t)
    }

    #[test]
    fn swaps_coordinated_words() {
        assert_eq!(swapped("I like cats and dogs."), "I like dogs and cats.");
        // "a" may be the first noun's alone.
        assert_eq!(swapped("Bring a towel and goggles."), "Bring a towel and goggles.");
        assert_eq!(swapped("It was a big and heavy box."), "It was a heavy and big box.");
        // An adjective before the first noun would come to modify the other one.
        assert_eq!(swapped("I like red apples and bananas."), "I like red apples and bananas.");
        // A noun after the second noun: a compound.
        assert_eq!(swapped("I like apples and banana bread."), "I like apples and banana bread.");
        assert_eq!(swapped("Pass the salt and pepper."), "Pass the salt and pepper.");
        assert_eq!(swapped("Dogs and cats are pets."), "Cats and dogs are pets.");
        assert_eq!(swapped("The room was clean and comfortable."), "The room was comfortable and clean.");
        assert_eq!(swapped("The sky was clear and full of stars."), "The sky was clear and full of stars.");
        assert_eq!(
            swapped("The path is steep and muddy after rain."),
            "The path is steep and muddy after rain."
        );
        assert_eq!(
            swapped("I'll scan the letter and email it to you."),
            "I'll scan the letter and email it to you."
        );
        assert_eq!(
            swapped("Tickets are five pounds and children go free."),
            "Tickets are five pounds and children go free."
        );
        // Verbs keep their order: it is the order of events.
        assert_eq!(swapped("She smiled and waved."), "She smiled and waved.");
        // A verb after the second noun: the "and" joins two clauses.
        assert_eq!(
            swapped("The hotel is ten minutes from the beach and breakfast is included."),
            "The hotel is ten minutes from the beach and breakfast is included."
        );
    }

    #[test]
    fn listed_objects_swap() {
        let f = swap_listed_objects;
        assert_eq!(
            run(f, "He has two brothers and a sister.").as_deref(),
            Some("He has a sister and two brothers.")
        );
        assert_eq!(
            run(f, "She bought a lamp and a new rug.").as_deref(),
            Some("She bought a new rug and a lamp.")
        );
        assert_eq!(run(f, "The cat and the dog slept."), None);
        assert_eq!(run(f, "He opened the door and the window was open."), None);
        assert_eq!(
            run(f, "She ordered a salad and a glass of wine.").as_deref(),
            Some("She ordered a glass of wine and a salad.")
        );
        assert_eq!(
            run(f, "Did you pack the torches and the batteries?").as_deref(),
            Some("Did you pack the batteries and the torches?")
        );
        // Only a question's object after its subject: "Where did you put the keys and the map?"
        // has its list there too, but "Did the cat and the dog eat?" lists the subject.
        assert_eq!(run(f, "Did the cat and the dog eat?"), None);
    }

    #[test]
    fn a_thing_picked_out_is_named_from_either_side() {
        let f = picked_out_turned;
        for (text, want) in [
            (
                "The quiz is my favourite part of the evening.",
                "My favourite part of the evening is the quiz.",
            ),
            (
                "My favourite part of the evening is the quiz.",
                "The quiz is my favourite part of the evening.",
            ),
            ("The best part of the weekend was the beach.", "The beach was the best part of the weekend."),
            ("The main problem is the price.", "The price is the main problem."),
            ("The kitchen was the busiest room.", "The busiest room was the kitchen."),
            ("Tom is my best friend.", "My best friend is Tom."),
            ("The main problems are the costs.", "The costs are the main problems."),
        ] {
            assert_eq!(run(f, text).as_deref(), Some(want), "{text}");
        }
        for kept in [
            // A pronoun, an indefinite side, both sides or neither picking out, more after it.
            "She is my best friend.",
            "My best friend is a doctor.",
            "The kitchen is a mess.",
            "The best part was the worst part.",
            "My sister is the doctor.",
            "The main problem is the price today.",
            "The main problem is not the price.",
            "The main problem, sadly, is the price.",
            "This is my favourite song.",
        ] {
            assert_eq!(run(f, kept), None, "{kept}");
        }
    }

    #[test]
    fn a_comparative_told_by_its_opposite() {
        let f = opposite_comparison;
        for (text, want) in [
            ("My brother is two years older than me.", "I am two years younger than my brother."),
            ("The train was faster than the bus.", "The bus was slower than the train."),
            ("I am older than my cousin.", "My cousin is younger than me."),
            ("We were faster than them.", "They were slower than us."),
            ("She is three years younger than her husband.", "Her husband is three years older than her."),
            ("The water bill was higher than the gas bill.", "The gas bill was lower than the water bill."),
            ("The kitchen is warmer than the living room.", "The living room is colder than the kitchen."),
            ("The hotel is cheaper than the hostel.", "The hostel is more expensive than the hotel."),
            (
                "The new hotel is more expensive than the old hotel.",
                "The old hotel is cheaper than the new hotel.",
            ),
            (
                "The red car is much faster than the blue car.",
                "The blue car is much slower than the red car.",
            ),
            ("My sister is shorter than me.", "I am taller than my sister."),
            ("Her uncle is richer than her father.", "Her father is poorer than her uncle."),
            (
                "The first film was longer than the second film.",
                "The second film was shorter than the first film.",
            ),
            ("My brother looks older than me.", "I look younger than my brother."),
            ("The rent is higher than the fees.", "The fees are lower than the rent."),
            ("The kitchen looked bigger than the hall.", "The hall looked smaller than the kitchen."),
            ("The parents seem older than the teacher.", "The teacher seems younger than the parents."),
        ] {
            assert_eq!(run(f, text).as_deref(), Some(want), "{text}");
        }
        for kept in [
            // "one", "mine" and "the others" stand for a noun the swap would put after them.
            "The new manager is stricter than the old one.",
            "Your bag is lighter than mine.",
            "The red shoes are cheaper than the others.",
            // A clause or a time after "than".
            "The meeting was longer than expected.",
            "The bill was higher than last year.",
            "The hotel was smaller than it looked in the photos.",
            "The tea is stronger than I thought.",
            // Negated, asked, after a modal or inside another clause.
            "My brother is not older than me.",
            "Is your brother older than you?",
            "My brother will be taller than me soon.",
            "I think my brother is older than her.",
            // A clause as a side, an adverb after the second, a presupposing or multiplying degree.
            "Walking to work is slower than taking the bus.",
            "My brother is taller than my father now.",
            "My son is even taller than his father.",
            "The film was three times longer than the book.",
            // "older" of things is "newer", "shorter" of a queue "longer", "lighter" maybe a colour.
            "My car is older than your car.",
            "The queue was shorter than the other queue.",
            "The paint is lighter than the wall.",
            // "her husband" told first would come before its owner.
            "My sister is taller than her husband.",
            // The one who feels is no side to swap.
            "I feel older than my brother.",
            // A price compared with a place, said short.
            "The prices are lower than the supermarket.",
        ] {
            assert_eq!(run(f, kept), None, "{kept}");
        }
    }

    #[test]
    fn comparisons_turn_round() {
        let f = invert_comparison;
        assert_eq!(
            run(f, "The train is more comfortable than the bus.").as_deref(),
            Some("The bus is less comfortable than the train.")
        );
        assert_eq!(run(f, "The film was more exciting than the books."), None);
        assert_eq!(run(f, "This chair is more comfortable than I thought."), None);
        assert_eq!(run(f, "My brother is taller than my father now."), None);
        assert_eq!(
            run(f, "The blue jacket is warmer than the grey coat.").as_deref(),
            Some("The grey coat is not as warm as the blue jacket.")
        );
        assert_eq!(
            run(f, "My new phone is better than my old laptop.").as_deref(),
            Some("My old laptop is not as good as my new phone.")
        );
        // "one" stands for the first side's noun, which it would come before.
        assert_eq!(run(f, "The blue jacket is warmer than the grey one."), None);
        assert_eq!(run(f, "These apples are cheaper than the ones at the market."), None);
        assert_eq!(run(f, "This chair is more comfortable than that one."), None);
        assert_eq!(
            run(prefer_to_like, "I prefer tea to coffee.").as_deref(),
            Some("I like tea better than coffee.")
        );
        assert_eq!(
            run(prefer_to_like, "She prefers the train to the bus.").as_deref(),
            Some("She likes the train better than the bus.")
        );
        assert_eq!(run(prefer_to_like, "I prefer to walk to work."), None);
        // A comparison with a clause or a bare time is not turned round.
        assert_eq!(run(f, "The bus is later than usual."), None);
        // "not as small as" would suggest both are small; "her husband" would lose its owner.
        assert_eq!(run(f, "Our flat is smaller than their house."), None);
        assert_eq!(run(f, "My sister is taller than her husband."), None);
        assert_eq!(
            run(f, "My dog is bigger than my cat.").as_deref(),
            Some("My cat is not as big as my dog.")
        );
    }
}
