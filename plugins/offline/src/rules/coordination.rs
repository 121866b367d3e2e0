//! Two coordinated or compared parts change places: two nouns or adjectives ("salt and
//! vinegar"), two listed objects ("two brothers and a sister"), and the two sides of a comparison
//! ("A is more ... than B" -> "B is less ... than A").

use crate::lexicon::{self, Pos};
use crate::morph;
use crate::shape::{capitalise, is_title};
use crate::syntax::phrase_ends_after;
use crate::tokens::{Kind, Token, is_sentence_start, matches_at, plain_lower, word_before};
use crate::words::{clear_pos, is_noun, lowercase_ok, pos_share};

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokens::{join, tokenize};

    fn swapped(text: &str) -> String {
        let mut t = tokenize(text);
        swap_coordination(&mut t);
        join(&t)
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
}
