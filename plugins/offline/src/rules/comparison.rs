//! Comparatives told by their opposite: "is cheaper than" -> "is not as expensive as", "was
//! easier than I expected" -> "was not as difficult as I expected", "is less busy than" -> "is not
//! as busy as", "was more difficult than" -> "was harder than". A word-group site of its own.

use crate::shape::words_like;
use crate::sites::Sites;
use crate::tokens::{Token, matches_at, next_word, prev_word};
use crate::words::{CLAUSE_WORDS, FINITE_BE};

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
    ("colder", "warm"),
    ("cooler", "warm"),
];

/// What may follow "shorter than" for it to be said of a length of time or of a thing, not of a
/// person's height ("She is shorter than her brother" is no "not as long as").
const SHORTER_THAN: &[&str] = &["usual", "expected", "i", "we", "last", "before", "planned", "the", "it"];

/// "more" and an adjective, and the comparative in "-er" that says the same.
const PERIPHRASTIC: &[(&str, &str)] = &[("difficult", "harder")];

/// Words that may stand between a comparative and its "than", as where or when the comparison
/// holds ("is cheaper here than", "are cheaper at the market than").
const BETWEEN: &[&str] = &["here", "there", "now", "today", "at", "in", "on", "the", "this", "these"];

/// Where "than" comes after the comparative at `i`: right after it, or after a short phrase of
/// place or time ("here", "at the market"), never past a comma or another clause.
fn than_after(tokens: &[Token], i: usize) -> Option<usize> {
    let mut k = i + 2;
    for _ in 0..5 {
        let t = tokens.get(k).filter(|t| t.is_word() && !t.frozen)?;
        let w = t.text.to_lowercase();
        if w == "than" {
            return (tokens[k - 1].text == " ").then_some(k);
        }
        let place = BETWEEN.contains(&w.as_str())
            || (k > i + 2 && crate::words::is_noun(&w) && !CLAUSE_WORDS.contains(&w.as_str()));
        if !place || t.changed || tokens.get(k + 1).is_none_or(|s| s.text != " ") {
            return None;
        }
        k += 2;
    }
    None
}

/// The comparison at `i`: the index of its "than" and the words that replace everything from `i`
/// to it. After a finite "be" with nothing between ("is cheaper than", never "is much cheaper
/// than", "is not cheaper than", "is no cheaper than"), in a statement.
fn comparison_at(tokens: &[Token], i: usize, statement: bool) -> Option<(usize, Vec<String>)> {
    if !statement || !prev_word(tokens, i).is_some_and(|b| FINITE_BE.contains(&b.as_str()) || b == "am") {
        return None;
    }
    let word = tokens[i].text.to_lowercase();
    let owned = |words: &[&str]| words.iter().map(|w| (*w).to_string()).collect::<Vec<_>>();
    if let Some(&(_, base)) = LESSER.iter().find(|(c, _)| *c == word) {
        let than = than_after(tokens, i)?;
        let after = next_word(tokens, than)?;
        // "than normal" is a word group's, and "as long as normal" reads badly; "lower than ever"
        // and "younger than anyone" compare with every case, which "not as high as ever" no
        // longer says.
        if [
            "normal",
            "ever",
            "anyone",
            "anybody",
            "anything",
            "any",
            "everyone",
            "everybody",
            "everything",
            "all",
            "most",
        ]
        .contains(&after.as_str())
        {
            return None;
        }
        if word == "shorter" && (than != i + 2 || !SHORTER_THAN.contains(&after.as_str())) {
            return None;
        }
        let mut words = owned(&["not", "as", base]);
        words.extend(tokens[i + 1..than].iter().filter(|t| t.is_word()).map(|t| t.text.clone()));
        words.push("as".to_string());
        return Some((than, words));
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
        // "is less busy than" -> "is not as busy as", for the adjectives of a closed list.
        None => {
            let adjective = LESS_ADJECTIVES.iter().find(|a| **a == adjective)?;
            Some((i + 4, owned(&["not", "as", adjective, "as"])))
        }
        Some(()) => {
            let &(_, short) = PERIPHRASTIC.iter().find(|(a, _)| *a == adjective)?;
            Some((i + 4, owned(&[short, "than"])))
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
    let tokens = &tokens;
    sites.scan(tokens, |i| {
        let (than, to) = comparison_at(tokens, i, statement)?;
        // The degree words must be the text's own; "than" may be a word group's ("than I
        // expected" -> "than I had expected"), which the comparison keeps.
        tokens[i..than].iter().all(|t| !t.changed && !t.frozen).then(|| {
            (than + 1, move || {
                let to: Vec<&str> = to.iter().map(String::as_str).collect();
                words_like(&tokens[i].text, &to)
            })
        })
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
            "Prices are lower than ever.",
            "She is younger than anyone in her class.",
            "Tea is cheaper, I think, than coffee.",
            "Tea is cheaper because it grows here than coffee.",
        ] {
            assert_eq!(said(text), text);
        }
    }
}
