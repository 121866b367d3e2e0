//! Comparatives told by their opposite: "is cheaper than" -> "is not as expensive as", "was
//! easier than I expected" -> "was not as difficult as I expected", "is less busy than" -> "is not
//! as busy as", "was more difficult than" -> "was harder than". A word-group site of its own.
//! And the best one ever told as none better: "This is the best pizza I have ever eaten." -> "I
//! have never eaten a better pizza.", a structural rewrite.

use crate::lexicon::Pos;
use crate::morph::{self, Form};
use crate::shape::Plain;
use crate::shape::words_like;
use crate::sites::Sites;
use crate::tokens::{Token, matches_at, next_word, prev_word};
use crate::words::{CLAUSE_WORDS, FINITE_BE, can_be};

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

/// The comparative of a superlative adjective: "best" -> "better", "coldest" -> "colder"; "most"
/// comes with its adjective ("most comfortable" -> "more comfortable"), so the words it takes.
fn comparative_of(words: &[String]) -> Option<(Vec<String>, usize)> {
    let first = words.first()?.as_str();
    match first {
        "best" => return Some((vec!["better".into()], 1)),
        "worst" => return Some((vec!["worse".into()], 1)),
        "most" => {
            let adjective = words.get(1)?;
            return can_be(adjective, Pos::Adj).then(|| (vec!["more".into(), adjective.clone()], 2));
        }
        _ => {}
    }
    morph::analyse(first)
        .iter()
        .find(|a| a.pos == Pos::Adj && a.form == Form::Superlative)
        .and_then(|a| morph::inflect(a.entry.lemma, Pos::Adj, Form::Comparative))
        .map(|c| (vec![c], 1))
}

/// "This is the best pizza I have ever eaten." -> "I have never eaten a better pizza."; "That was
/// the best concert we have ever been to." -> "We have never been to a better concert." Only the
/// whole sentence in that shape: "this", "that" or "it" and "is" or "was", one singular thing
/// (so that "a" fits), a pronoun and "have", "has" or "had" with "ever" and a participle, and at
/// most a preposition left after it; "the best holiday we have had in years" says less than ever.
pub fn ever_superlative(p: &Plain) -> Option<Vec<Token>> {
    if p.terminal.text != "." || p.commas() != 0 || p.items.len() < 8 || p.items.iter().any(|t| t.frozen) {
        return None;
    }
    let w: Vec<String> = (0..p.items.len()).map(|k| p.lower(k).replace('’', "'")).collect();
    if !["this", "that", "it"].contains(&w[0].as_str())
        || !["is", "was"].contains(&w[1].as_str())
        || w[2] != "the"
    {
        return None;
    }
    let (comparative, taken) = comparative_of(&w[3..])?;
    let ever = w.iter().position(|x| x == "ever")?;
    // The pronoun and its "have" before "ever", and the thing between the superlative and them.
    let (pronoun, have, noun_end) = if ever >= 2 && ["have", "has", "had"].contains(&w[ever - 1].as_str()) {
        (w[ever - 2].clone(), w[ever - 1].clone(), ever - 2)
    } else if let Some((pronoun, have)) = w[ever - 1].split_once('\'') {
        let have = match have {
            "ve" => "have",
            "d" => "had",
            _ => return None,
        };
        (pronoun.to_string(), have.to_string(), ever - 1)
    } else {
        return None;
    };
    let agrees = match have.as_str() {
        "have" => ["i", "we", "you", "they"].contains(&pronoun.as_str()),
        "has" => ["he", "she"].contains(&pronoun.as_str()),
        _ => ["i", "we", "you", "they", "he", "she"].contains(&pronoun.as_str()),
    };
    let thing = &w[3 + taken..noun_end];
    let head = thing.last()?;
    if !agrees
        || thing.is_empty()
        || thing.len() > 3
        || !crate::words::is_noun(head)
        || crate::words::is_plural_noun(head)
        || !thing.iter().all(|x| crate::words::modifier_or_noun(x) || crate::words::is_noun(x))
    {
        return None;
    }
    let participle = &w[ever + 1..ever + 2];
    let rest = &w[ever + 2..];
    // The lexicon keeps the commonest verbs as function words.
    let is_participle = ["had", "been", "done", "got"].contains(&participle.first()?.as_str())
        || morph::analyse(participle.first()?)
            .iter()
            .any(|a| a.pos == Pos::Verb && matches!(a.form, Form::Participle | Form::PastOrParticiple));
    if !is_participle
        || rest.len() > 1
        || rest.iter().any(|x| !["to", "in", "at", "on", "with"].contains(&x.as_str()))
    {
        return None;
    }
    let article = if comparative[0].starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" };
    let subject = if pronoun == "i" { "I".to_string() } else { crate::shape::capitalise(&pronoun) };
    let mut out: Vec<Token> = vec![Token::word(&subject), Token::word(&have), Token::word("never")];
    out.extend(p.items[ever + 1..].iter().cloned());
    out.push(Token::word(article));
    out.extend(comparative.iter().map(String::as_str).map(Token::word));
    out.extend(p.items[3 + taken..noun_end].iter().cloned());
    Some(crate::shape::build(&out, &p.terminal))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sites::Which;
    use crate::tokens::{join, tokenize};

    fn said(text: &str) -> String {
        join(&rewrite(tokenize(text), &mut Sites::new(Which::All)))
    }

    fn never_better(text: &str) -> Option<String> {
        ever_superlative(&crate::shape::plain(&tokenize(text))?).map(|t| join(&t))
    }

    #[test]
    fn the_best_ever_is_none_better() {
        assert_eq!(
            never_better("This is the best pizza I have ever eaten.").as_deref(),
            Some("I have never eaten a better pizza.")
        );
        assert_eq!(
            never_better("That was the best concert I have ever been to.").as_deref(),
            Some("I have never been to a better concert.")
        );
        assert_eq!(
            never_better("This is the easiest recipe I have ever tried.").as_deref(),
            Some("I have never tried an easier recipe.")
        );
        // Not without "ever", nor of several things, nor in a question.
        for text in [
            "It was the best holiday we have had in years.",
            "These are the best shoes I have ever bought.",
            "This is the best pizza in town.",
            "Is this the best pizza you have ever eaten?",
        ] {
            assert_eq!(never_better(text), None, "{text}");
        }
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
