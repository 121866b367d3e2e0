//! Comparatives told by their opposite: "is cheaper than" -> "is not as expensive as", "was
//! easier than I expected" -> "was not as difficult as I expected", "is less busy than" -> "is not
//! as busy as", "was more difficult than" -> "was harder than". A word-group site of its own.

use crate::shape::words_like;
use crate::sites::Sites;
use crate::tokens::{Token, matches_at, next_word, prev_word};
use crate::words::FINITE_BE;

/// A comparative of the lesser degree and the plain adjective of its opposite, the one a
/// question of degree asks with ("how expensive", "how old", "how big"), so that "not as ... as"
/// presupposes nothing: "cheaper" is "not as expensive", never the other way round ("dearer" is
/// no "not as cheap", which would suggest both are cheap).
const LESSER: &[(&str, &str)] = &[
    ("cheaper", "expensive"),
    ("easier", "difficult"),
    ("smaller", "big"),
    ("younger", "old"),
    ("slower", "fast"),
    ("quieter", "noisy"),
    ("lower", "high"),
    ("narrower", "wide"),
    ("weaker", "strong"),
    ("shallower", "deep"),
    ("poorer", "rich"),
    ("shorter", "long"),
];

/// What may follow "shorter than" for it to be said of a length of time or of a thing, not of a
/// person's height ("She is shorter than her brother" is no "not as long as").
const SHORTER_THAN: &[&str] = &["usual", "expected", "i", "we", "last", "before", "planned", "the", "it"];

/// "more" and an adjective, and the comparative in "-er" that says the same.
const PERIPHRASTIC: &[(&str, &str)] = &[("difficult", "harder")];

/// The words a comparison at `i` covers and its other form: after a finite "be" with nothing
/// between ("is cheaper than", never "is much cheaper than", "is not cheaper than", "is no
/// cheaper than"), and with "than" right after it, in a statement.
fn comparison_at(tokens: &[Token], i: usize, statement: bool) -> Option<(usize, Vec<&'static str>)> {
    if !statement || !prev_word(tokens, i).is_some_and(|b| FINITE_BE.contains(&b.as_str()) || b == "am") {
        return None;
    }
    let word = tokens[i].text.to_lowercase();
    if let Some(&(_, base)) = LESSER.iter().find(|(c, _)| *c == word) {
        if !matches_at(tokens, i + 2, &["than"]) {
            return None;
        }
        let after = next_word(tokens, i + 2)?;
        // "than normal" is a word group's, and "as long as normal" reads badly.
        if after == "normal" {
            return None;
        }
        if word == "shorter" && !SHORTER_THAN.contains(&after.as_str()) {
            return None;
        }
        return Some((3, vec!["not", "as", base, "as"]));
    }
    let degree = match word.as_str() {
        "less" => None,
        "more" => Some(()),
        _ => return None,
    };
    let adjective = next_word(tokens, i)?;
    if !matches_at(tokens, i + 4, &["than"]) {
        return None;
    }
    match degree {
        // "is less busy than" -> "is not as busy as": any adjective, which "less" already graded.
        None if crate::words::can_be(&adjective, crate::lexicon::Pos::Adj) => {
            let adjective: &'static str = LESS_ADJECTIVES.iter().find(|a| **a == adjective)?;
            Some((5, vec!["not", "as", adjective, "as"]))
        }
        None => None,
        Some(()) => {
            let &(_, short) = PERIPHRASTIC.iter().find(|(a, _)| *a == adjective)?;
            Some((5, vec![short, "than"]))
        }
    }
}

/// Adjectives that "less ... than" grades and "not as ... as" reads the same with; a closed list,
/// since the replacement is written from it.
const LESS_ADJECTIVES: &[&str] = &[
    "expensive",
    "busy",
    "crowded",
    "difficult",
    "complicated",
    "comfortable",
    "popular",
    "important",
    "interesting",
    "useful",
    "serious",
    "reliable",
    "friendly",
    "noisy",
    "dangerous",
    "common",
    "healthy",
    "likely",
];

/// Rewrites each comparison found, one site each.
pub fn rewrite(tokens: Vec<Token>, sites: &mut Sites) -> Vec<Token> {
    let statement = tokens.last().is_some_and(|t| t.text == "." || t.text == "!");
    let mut out = Vec::with_capacity(tokens.len());
    let mut i = 0;
    while i < tokens.len() {
        if tokens[i].is_word()
            && let Some((len, to)) = comparison_at(&tokens, i, statement)
            // The degree words must be the text's own; "than" may be a word group's ("than I
            // expected" -> "than I had expected"), which the comparison keeps.
            && tokens[i..i + len - 2].iter().all(|t| !t.changed && !t.frozen)
        {
            sites.put(&mut out, &tokens[i..i + len], || words_like(&tokens[i].text, &to));
            i += len;
            continue;
        }
        out.push(tokens[i].clone());
        i += 1;
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
    fn the_lesser_degree_told_by_its_opposite() {
        assert_eq!(
            said("The test was easier than I expected."),
            "The test was not as difficult as I expected."
        );
        assert_eq!(said("Tea is cheaper than coffee here."), "Tea is not as expensive as coffee here.");
        assert_eq!(said("The meeting was shorter than usual."), "The meeting was not as long as usual.");
        assert_eq!(
            said("The class was more difficult than I expected."),
            "The class was harder than I expected."
        );
        assert_eq!(
            said("The park is less crowded than the beach."),
            "The park is not as crowded as the beach."
        );
    }

    #[test]
    fn modifiers_negations_heights_and_questions_are_left() {
        for text in [
            "Tea is much cheaper than coffee.",
            "Tea is not cheaper than coffee.",
            "Tea is no cheaper than coffee.",
            "She is shorter than her brother.",
            "Is tea cheaper than coffee?",
            "This bag is heavier than that one.",
            "The new one looks cheaper than the old one.",
            "Tea is cheaper in the market.",
        ] {
            assert_eq!(said(text), text);
        }
    }
}
