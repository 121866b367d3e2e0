//! What a place holds told with "there": "The house has three bedrooms." -> "There are three
//! bedrooms in the house.", "This town has a beautiful old castle." -> "There is a beautiful old
//! castle in this town." Only of a place one can be in, so that "in" fits and "has" means
//! "holds" ("The baby has a new tooth" and "My sister has a cold" are not places).

use crate::lexicon::Pos;
use crate::shape::{self, Plain, leaving_start};
use crate::tokens::Token;
use crate::words::{CLAUSE_WORDS, DEFINITE_DETERMINERS, PREPOSITIONS, can_be, is_noun, modifier_or_noun};

/// Places "in" fits, of the kind that hold rooms, things or people.
const PLACES: &[&str] = &[
    "house",
    "flat",
    "apartment",
    "hotel",
    "museum",
    "library",
    "school",
    "park",
    "garden",
    "kitchen",
    "room",
    "bedroom",
    "building",
    "town",
    "city",
    "village",
    "area",
    "restaurant",
    "cafe",
    "café",
    "shop",
    "office",
    "hospital",
    "station",
    "zoo",
    "gallery",
    "neighbourhood",
    "fridge",
    "cupboard",
    "box",
    "drawer",
    "class",
    "team",
    "book",
    "centre",
    "campsite",
    "castle",
    "church",
    "country",
    "region",
    "district",
    "bathroom",
    "garage",
    "shed",
    "attic",
    "cellar",
    "basement",
    "supermarket",
    "airport",
    "stadium",
    "hall",
    "theatre",
    "cinema",
    "pub",
    "bakery",
    "college",
    "university",
    "studio",
    "factory",
    "suburb",
];

/// People and animals a place "has" as its own, where "has a new coach" tells who was taken on
/// and "There is a new coach in the team" says something else; and pets, which a house "has" as
/// its owners do.
const OWN_PEOPLE: &[&str] = &[
    "headteacher",
    "teacher",
    "coach",
    "chef",
    "mayor",
    "manager",
    "boss",
    "owner",
    "director",
    "captain",
    "president",
    "leader",
    "doctor",
    "nurse",
    "vicar",
    "priest",
    "landlord",
    "caretaker",
    "receptionist",
    "principal",
    "headmaster",
    "headmistress",
    "chairman",
    "editor",
    "player",
    "member",
    "dog",
    "cat",
    "puppy",
    "kitten",
];

/// What a place has that is not in it: outside it ("a garden", "a balcony", "a view"), a part of
/// its shell ("two doors"), or a quality ("a long history", "a population of", "a new menu"),
/// where "There is a garden in the house" says something else.
const NOT_INSIDE: &[&str] = &[
    "garden",
    "gardens",
    "balcony",
    "balconies",
    "terrace",
    "yard",
    "view",
    "views",
    "roof",
    "door",
    "doors",
    "entrance",
    "entrances",
    "exit",
    "car",
    "history",
    "reputation",
    "population",
    "name",
    "address",
    "location",
    "website",
    "policy",
    "rule",
    "rules",
    "limit",
    "capacity",
    "size",
    "price",
    "problem",
    "problems",
    "character",
    "charm",
    "future",
    "past",
    "tradition",
    "culture",
    "climate",
    "economy",
    "menu",
    "feel",
    "smell",
    "shape",
    "owner",
    "owners",
    "park",
    "parking",
];

/// How the held thing starts, and whether it is plural: an article or a number, so that the
/// verb of "there" can agree ("There is a", "There are three").
fn held_number(word: &str) -> Option<bool> {
    match word {
        "a" | "an" | "one" => Some(false),
        "two" | "three" | "four" | "five" | "six" | "seven" | "eight" | "nine" | "ten" | "twelve"
        | "twenty" | "several" | "many" => Some(true),
        _ => None,
    }
}

/// "The N has X." -> "There is X in the N.": the subject a definite place of at most four words,
/// "has", "have" or "had", then a held thing of at most seven words, nothing after it but the
/// full stop, and no verb, clause or second place inside it ("has a dog that barks", "has a few
/// errors in the totals").
pub fn there_is(p: &Plain) -> Option<Vec<Token>> {
    if p.commas() != 0 || p.terminal.text != "." {
        return None;
    }
    let n = p.items.len();
    let verb = (2..n.min(5)).find(|&k| ["has", "have", "had"].contains(&p.lower(k).as_str()))?;
    let place = p.lower(verb - 1);
    let subject_ok = DEFINITE_DETERMINERS.contains(&p.lower(0).as_str())
        && PLACES.contains(&place.as_str())
        && (1..verb - 1).all(|k| modifier_or_noun(&p.lower(k)));
    // "have" would need a plural place, whose "in the houses" reads as a list of places.
    if !subject_ok || p.lower(verb) == "have" {
        return None;
    }
    let held = verb + 1;
    let plural = held_number(&p.lower(held))?;
    let rest = held + 1..n;
    if rest.is_empty() || n - held > 7 {
        return None;
    }
    // Words of a noun phrase only: adjectives, nouns, numbers, "of" and "and" between two of
    // them, no preposition nor clause word; the last a noun ("has a large collection of old coins", "has three bedrooms and two bathrooms").
    let inner_ok = rest.clone().all(|k| {
        let w = p.lower(k);
        if w == "of" || w == "and" {
            return k + 1 < n && k > held + 1;
        }
        let nominal = is_noun(&w) || can_be(&w, Pos::Adj) || held_number(&w).is_some();
        nominal && !PREPOSITIONS.contains(&w.as_str()) && !CLAUSE_WORDS.contains(&w.as_str())
    });
    let last_ok = is_noun(&p.lower(n - 1))
        && rest.clone().all(|k| {
            let w = p.lower(k);
            !OWN_PEOPLE.contains(&w.as_str()) && !NOT_INSIDE.contains(&w.as_str())
        });
    let and = rest.clone().any(|k| p.lower(k) == "and");
    // "There is a sister and a brother" agrees with the first; with "and" only plurals are kept.
    if !inner_ok || !last_ok || (and && !plural) {
        return None;
    }
    let be = match (p.lower(verb).as_str(), plural) {
        ("had", false) => "was",
        ("had", true) => "were",
        (_, false) => "is",
        (_, true) => "are",
    };
    let mut out = vec![shape::word("There"), shape::word(be)];
    out.extend_from_slice(&p.items[held..]);
    out.push(shape::word("in"));
    out.push(leaving_start(&p.items[0])?);
    out.extend_from_slice(&p.items[1..verb]);
    Some(shape::build(&out, &p.terminal))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::apply;

    #[test]
    fn a_place_and_what_it_holds() {
        let said = |text| apply(there_is, text);
        assert_eq!(
            said("The house has three bedrooms and two bathrooms.").as_deref(),
            Some("There are three bedrooms and two bathrooms in the house.")
        );
        assert_eq!(
            said("This town has a beautiful old castle.").as_deref(),
            Some("There is a beautiful old castle in this town.")
        );
        assert_eq!(
            said("The museum has a large collection of old coins.").as_deref(),
            Some("There is a large collection of old coins in the museum.")
        );
        assert_eq!(
            said("Our old flat had two bedrooms.").as_deref(),
            Some("There were two bedrooms in our old flat.")
        );
    }

    #[test]
    fn people_pronouns_clauses_and_places_inside_are_left() {
        for text in [
            "The baby has a new tooth.",
            "The team has a new coach.",
            "The house has a big garden.",
            "The town has a long history.",
            "The garage has two doors.",
            "The school has a new headteacher.",
            "My sister has a cold.",
            "It has three bedrooms.",
            "Our neighbours have a big dog that barks at the postman.",
            "The spreadsheet has a few errors in the totals.",
            "The house has the best view.",
            "The hotel has a pool and a gym.",
            "The house has been sold.",
            "Has the house got a garden?",
        ] {
            assert_eq!(apply(there_is, text), None, "{text}");
        }
    }
}
