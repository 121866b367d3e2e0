//! Possessives as "of" phrases: "the dog's owner" -> "the owner of the dog", "the neighbours'
//! cat" -> "the cat of the neighbours", for a common noun that owns rather than measures or
//! classifies.

use crate::lexicon::Pos;
use crate::shape::words_like;
use crate::syntax::phrase_ends_after;
use crate::tokens::{Kind, Token, is_sentence_start, plain_lower};
use crate::words::{SINGULAR_DETERMINERS, clear_pos, is_plural_noun, pos_share};

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
        // "a farmers' market", "a children's book": after "a", a plural owner classifies.
        if plural && ["a", "an"].contains(&det_lower.as_str()) {
            continue;
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokens::{join, tokenize};

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
}
