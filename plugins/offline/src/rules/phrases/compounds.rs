//! A thing named by the room or place it is in, told with a preposition and back ("the kitchen
//! table" <-> "the table in the kitchen", "the bathroom walls" <-> "the walls of the bathroom",
//! "the station cafe" <-> "the cafe at the station"), for the pairs of `PLACED` only: there the
//! first noun says where one known thing is. Never a kind ("a kitchen knife", "a school bus",
//! "the office party", "our hotel room", which is no room in a hotel we own), so never after "a"
//! and only for the things listed under each place.

use crate::lexicon::Pos;
use crate::morph;
use crate::tokens::{Kind, Token, lower_is, open_word};
use crate::words::{OBJECT_PREPOSITIONS, PERSONAL_POSSESSIVES, PHRASE_PREPOSITIONS, heads_clause, is_noun};

/// How a thing is told with its place: "in" what holds it, "of" what it is part of, "at" the
/// building it belongs to.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Prep {
    In,
    Of,
    At,
}

impl Prep {
    fn word(self) -> &'static str {
        match self {
            Prep::In => "in",
            Prep::Of => "of",
            Prep::At => "at",
        }
    }
}

/// The parts of a room or a car, told with "of" ("the walls of the kitchen"). Not "door" or
/// "window": readers took "the door of the garage" and "the window of the bedroom" as stiff,
/// so those are only told back as the compound (`PARTS_BACK`).
const PARTS: &[&str] = &["floor", "walls", "ceiling"];

/// The parts whose "of" or "in" phrase is told as the compound ("the window in the bathroom" ->
/// "the bathroom window").
const PARTS_BACK: &[&str] = &["floor", "walls", "ceiling", "door", "window", "windows"];

/// Each place (one or two words) with the things found in it (`Prep::In` or `Prep::At`) and
/// whether `PARTS` are told of it. Left out on purpose: "school" + "bus", "trip", "uniform",
/// "run" (kinds and events), "hotel" + "room" ("our hotel room" is a room we stay in),
/// "garden" + "centre", "party", "furniture", "gate" and "fence" ("the garden fence" may stand
/// between two gardens), "office" + "party", "chair", "building", "hours", "staff".
const PLACED: &[(&[&str], &[&str], Prep, bool)] = &[
    (
        &["kitchen"],
        &[
            "table",
            "sink",
            "clock",
            "light",
            "lights",
            "tap",
            "cupboard",
            "cupboards",
            "drawer",
            "bin",
            "radio",
            "tiles",
        ],
        Prep::In,
        true,
    ),
    (
        &["bathroom"],
        &["mirror", "light", "lights", "sink", "tap", "tiles", "cabinet", "radiator"],
        Prep::In,
        true,
    ),
    (&["bedroom"], &["light", "lights", "curtains", "carpet", "radiator", "mirror"], Prep::In, true),
    (
        &["living", "room"],
        &["carpet", "sofa", "light", "lights", "curtains", "radiator", "fireplace"],
        Prep::In,
        true,
    ),
    (
        &["lounge"],
        &["carpet", "sofa", "light", "lights", "curtains", "radiator", "fireplace"],
        Prep::In,
        true,
    ),
    (&["hall"], &["table", "light", "lights", "mirror", "cupboard", "carpet", "radiator"], Prep::In, false),
    (&["classroom"], &["clock", "lights", "board", "computers"], Prep::In, true),
    (
        &["office"],
        &[
            "printer",
            "coffee machine",
            "kitchen",
            "fridge",
            "lights",
            "heating",
            "photocopier",
            "microwave",
            "kettle",
        ],
        Prep::In,
        true,
    ),
    (&["garage"], &["light", "lights"], Prep::In, true),
    (&["garden"], &["shed", "pond", "path", "bench", "hose"], Prep::In, false),
    (&["station"], &["cafe", "café", "car park", "clock", "toilets"], Prep::At, false),
    (&["school"], &["library", "playground", "canteen"], Prep::At, false),
    // Its people and rooms, which belong to it ("our hotel room" is left out above).
    (&["hotel"], &["staff", "restaurant", "bar", "pool", "receptionist", "lobby"], Prep::At, false),
    (&["car"], &["radio", "seats"], Prep::In, true),
];

/// Determiners a placed thing may have: "the", or a possessive, which then goes with the place
/// ("my kitchen table" -> "the table in my kitchen"). Never "a", "this", a number: "a kitchen
/// table" is a kind of table.
const OWNERS: &[&str] = &["the", "my", "our", "your", "his", "her", "their"];

/// Verbs after which "the table in the kitchen" still names the table where it stands: one
/// cleans or mends what is there. Not "put", "moved", "bought", "delivered", after which "in the
/// kitchen" would tell where it went ("put the table in the kitchen").
const TENDING: &[&str] = &[
    "fix",
    "fixed",
    "fixes",
    "fixing",
    "repair",
    "repaired",
    "repairs",
    "repairing",
    "mend",
    "mended",
    "clean",
    "cleaned",
    "cleans",
    "cleaning",
    "wipe",
    "wiped",
    "wipes",
    "wiping",
    "unblock",
    "unblocked",
    "paint",
    "painted",
    "polish",
    "polished",
    "wash",
    "washed",
    "tidy",
    "tidied",
    "dust",
    "dusted",
    "empty",
    "emptied",
    "use",
    "used",
    "check",
    "checked",
];

/// The words at `k`, `k + 2`, ... (one space between) if they are `words`, lowercase and open:
/// the index after the last. Compared in place, since every "the" tries every place and thing.
fn words_at<'w>(tokens: &[Token], k: usize, words: impl IntoIterator<Item = &'w str>) -> Option<usize> {
    let mut at = k;
    for (n, w) in words.into_iter().enumerate() {
        if n > 0 && !tokens.get(at - 1).is_some_and(|t| t.is(Kind::Space, " ")) {
            return None;
        }
        let open = tokens.get(at).filter(|t| t.is_word() && !t.frozen)?;
        if !lower_is(&open.text, w) {
            return None;
        }
        at += 2;
    }
    Some(at - 1)
}

/// The thing of `heads` (one or two words) at `k`: its words and the index after it.
fn head_at(tokens: &[Token], k: usize, heads: &[&'static str]) -> Option<(Vec<&'static str>, usize)> {
    heads.iter().find_map(|h| words_at(tokens, k, h.split(' ')).map(|end| (h.split(' ').collect(), end)))
}

/// Whether the noun phrase ends before token `end`: a pause, a verb of the clause ("is", "needs",
/// "stopped"), a preposition or a word that is no noun; not a noun going on ("the kitchen table
/// leg"), nor "lights up", where "lights" is the verb.
fn phrase_ends(tokens: &[Token], end: usize, head: &str, strict: bool) -> bool {
    let Some(next) = tokens.get(end) else { return true };
    if next.kind == Kind::Punct {
        return true;
    }
    if !next.is(Kind::Space, " ") {
        return false;
    }
    let Some(word) = tokens.get(end + 1).filter(|t| t.is_word()).map(|t| t.text.to_lowercase()) else {
        return false;
    };
    if head.starts_with("light") && ["up", "on"].contains(&word.as_str()) {
        return false;
    }
    const COLOURS: &[&str] = &["blue", "green", "white", "red", "yellow", "black", "grey", "brown", "pink"];
    // "painted the living room light grey": "light" before a colour is its shade, no lamp.
    if head == "light"
        && (COLOURS.contains(&word.as_str()) || ["gray", "beige", "purple"].contains(&word.as_str()))
    {
        return false;
    }
    // The verbs that are nouns too, in the plural's present ("The lights in the kitchen keep
    // flickering").
    const VERBS: &[&str] =
        &["keep", "keeps", "need", "needs", "look", "looks", "work", "works", "stay", "stays"];
    let adjective = morph::analyse(&word).iter().any(|a| a.pos == Pos::Adj);
    if strict {
        // Told back, a place may not leave behind what said which place it was ("the printer in
        // the office upstairs", "the lights in the kitchen of the flat"): a verb, "and" or a
        // colour the verb gives ("painted the walls of her bedroom blue") only.
        return VERBS.contains(&word.as_str())
            || ["and", "but", "again", "too"].contains(&word.as_str())
            || (heads_clause(&word) && !PHRASE_PREPOSITIONS.contains(&word.as_str()))
            || word.replace('’', "'").ends_with("n't")
            || COLOURS.contains(&word.as_str());
    }
    // "a damp patch on the bedroom ceiling that keeps getting bigger": after "the ceiling of the
    // bedroom" the relative clause would tell of the bedroom.
    if ["that", "which", "who", "whose", "where"].contains(&word.as_str()) {
        return false;
    }
    PHRASE_PREPOSITIONS.contains(&word.as_str())
        || VERBS.contains(&word.as_str())
        || ["and", "or", "but", "again", "back", "too", "when", "because", "so"].contains(&word.as_str())
        || heads_clause(&word)
        || !is_noun(&word)
        // A colour or state the verb gives it ("painted the kitchen walls green").
        || adjective
}

/// The word before token `i`, lowercase, whatever it is (frozen or not).
fn before(tokens: &[Token], i: usize) -> Option<String> {
    (i >= 2 && tokens[i - 1].is(Kind::Space, " ") && tokens[i - 2].is_word())
        .then(|| tokens[i - 2].text.to_lowercase())
}

/// Whether a phrase at `i` told with `prep` may stand where it is: opening the sentence (the
/// subject), or after a preposition other than its own word ("on the kitchen table" -> "on the
/// table in the kitchen", never "in the sink in the kitchen") and other than "of" ("the leg of
/// the table in the kitchen" stacks two); a part ("of") after any other word too, since "the
/// walls of the kitchen" cannot tell where something went; a thing "in" a room after a verb of
/// tending only (`TENDING`).
fn fits_here(tokens: &[Token], i: usize, prep: Prep) -> bool {
    if tokens[..i].iter().all(|t| t.kind == Kind::Punct) {
        return true;
    }
    let Some(prev) = before(tokens, i) else { return false };
    if prev == "of" || prev == prep.word() {
        return false;
    }
    if PHRASE_PREPOSITIONS.contains(&prev.as_str()) || OBJECT_PREPOSITIONS.contains(&prev.as_str()) {
        return true;
    }
    match prep {
        Prep::Of => !["a", "an", "all", "both", "each", "every"].contains(&prev.as_str()),
        Prep::In => TENDING.contains(&prev.as_str()),
        Prep::At => false,
    }
}

/// "the kitchen table" -> "the table in the kitchen", "my bedroom walls" -> "the walls of my
/// bedroom": the number of tokens and the words that replace them.
pub(super) fn place_compound(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    let owner = open_word(tokens, i)?;
    if !OWNERS.contains(&owner.as_str()) || !tokens.get(i + 1).is_some_and(|t| t.is(Kind::Space, " ")) {
        return None;
    }
    PLACED.iter().find_map(|&(place, heads, prep, parts)| {
        let after_place = words_at(tokens, i + 2, place.iter().copied())?;
        if !tokens.get(after_place).is_some_and(|t| t.is(Kind::Space, " ")) {
            return None;
        }
        let thing = head_at(tokens, after_place + 1, heads).map(|(h, end)| (h, end, prep));
        let part = || {
            if parts {
                head_at(tokens, after_place + 1, PARTS).map(|(h, end)| (h, end, Prep::Of))
            } else {
                None
            }
        };
        let (head, end, prep) = thing.or_else(part)?;
        // "led him up the garden path" deceives: the path stays the garden's.
        let idiom = head[0] == "path" && before(tokens, i).as_deref() == Some("up");
        // "your garden shed or recycling bin": the owner covers both things listed, and the
        // phrase told out would leave the second one the place's.
        let listed =
            crate::tokens::next_word(tokens, end - 1).is_some_and(|n| ["or", "and"].contains(&n.as_str()));
        if idiom || listed || !phrase_ends(tokens, end, head[0], false) || !fits_here(tokens, i, prep) {
            return None;
        }
        let mut words: Vec<String> = vec!["the".to_string()];
        words.extend(head.iter().map(|w| w.to_string()));
        words.push(prep.word().to_string());
        words.push(owner.clone());
        words.extend(place.iter().map(|w| w.to_string()));
        Some((end - i, words))
    })
}

/// "the table in the kitchen" -> "the kitchen table", "the walls of her bedroom" -> "her bedroom
/// walls": the way back, for the same pairs, with "in" or "of" for a room's part ("the window in
/// the bathroom") and the place's own word for a thing. A thing "in" or "at" a place only as the
/// subject or after a preposition: after a verb the phrase may tell where it went ("put the
/// table in the kitchen").
pub(super) fn placed_thing(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    if open_word(tokens, i)? != "the" || !tokens.get(i + 1).is_some_and(|t| t.is(Kind::Space, " ")) {
        return None;
    }
    PLACED.iter().find_map(|&(place, heads, prep, parts)| {
        let (head, after_head, part) = match head_at(tokens, i + 2, heads) {
            Some((h, end)) => (h, end, false),
            None if parts => {
                let (h, end) = head_at(tokens, i + 2, PARTS_BACK)?;
                (h, end, true)
            }
            None => return None,
        };
        let word = open_word(tokens, after_head + 1)?;
        let told = if part { ["of", "in"].contains(&word.as_str()) } else { word == prep.word() };
        if !told || !tokens.get(after_head).is_some_and(|t| t.is(Kind::Space, " ")) {
            return None;
        }
        let owner = open_word(tokens, after_head + 3).filter(|w| OWNERS.contains(&w.as_str()))?;
        if !tokens.get(after_head + 2).is_some_and(|t| t.is(Kind::Space, " ")) {
            return None;
        }
        let end = words_at(tokens, after_head + 5, place.iter().copied())?;
        if !tokens.get(after_head + 4).is_some_and(|t| t.is(Kind::Space, " "))
            || !phrase_ends(tokens, end, "", true)
        {
            return None;
        }
        let used = if part && word == "of" { Prep::Of } else { prep };
        if !fits_here(tokens, i, used) {
            return None;
        }
        let mut words = vec![owner];
        words.extend(place.iter().map(|w| w.to_string()));
        words.extend(head.iter().map(|w| w.to_string()));
        Some((end - i, words))
    })
}

/// Shops told by the corner they stand on ("the shop on the corner" -> "the corner shop"). One
/// way only: "the corner shop" is also the kind of small local shop, which need not stand on one.
const ON_THE_CORNER: &[&str] =
    &["shop", "bakery", "bookshop", "cafe", "café", "pub", "newsagent", "deli", "chemist", "florist"];

/// Rooms and office things told by the floor they are on ("the printer on the second floor" ->
/// "the second-floor printer"). Not people ("the man on the second floor" is no kind of man).
const ON_A_FLOOR: &[&str] = &[
    "printer",
    "photocopier",
    "office",
    "offices",
    "kitchen",
    "toilets",
    "bathroom",
    "cafe",
    "café",
    "canteen",
    "flat",
    "apartment",
    "room",
    "meeting room",
    "gym",
    "bedroom",
];

/// The floors a compound is told with ("the top-floor flat", "the ground-floor gym").
const FLOORS: &[&str] = &["first", "second", "third", "fourth", "fifth", "sixth", "top", "ground"];

/// Things and the parts they have, told with the owner's possessive ("the battery in my watch"
/// -> "my watch's battery"). Only machines, vehicles and buildings with the parts they are built
/// with: never a container and what it holds ("the milk in the fridge" is not the fridge's milk),
/// nor a house's boiler ("our house's boiler" reads stiffly where one says "our boiler").
const OWNED_PARTS: &[(&str, &[&str])] = &[
    ("watch", &["battery", "strap", "screen"]),
    ("phone", &["screen", "battery", "camera"]),
    ("laptop", &["screen", "battery", "keyboard", "fan", "trackpad"]),
    ("computer", &["screen", "keyboard", "fan"]),
    ("car", &["engine", "brakes", "battery", "tyres", "tires", "heater", "windscreen", "clutch"]),
    ("van", &["engine", "brakes", "battery", "tyres"]),
    ("bike", &["brakes", "chain", "tyres", "tires", "saddle", "gears"]),
    ("building", &["lift", "lifts", "elevator", "heating"]),
    ("flat", &["heating"]),
    ("house", &["roof"]),
];

/// "the shop on the corner" -> "the corner shop", "the printer on the second floor" -> "the
/// second-floor printer", "the battery in my watch" -> "my watch's battery": a place or an
/// owner told after the noun, told before it where English has the compound or the possessive.
/// Only as the subject or after a preposition, and only where the phrase ends with the place
/// (`phrase_ends`, strict): "the shop on the corner of Mill Lane" keeps its corner, and after a
/// verb "put the printer on the second floor" tells where it went.
pub(super) fn place_told_first(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    let det = open_word(tokens, i)?;
    if !OWNERS.contains(&det.as_str()) || !tokens.get(i + 1).is_some_and(|t| t.is(Kind::Space, " ")) {
        return None;
    }
    let spaced = |k: usize| tokens.get(k).is_some_and(|t| t.is(Kind::Space, " "));
    let the = det == "the";
    // "the bakery on the corner": "the" only, since "our shop on the corner" is ours, not a kind.
    let corner = || {
        let (head, after) = head_at(tokens, i + 2, ON_THE_CORNER).filter(|_| the)?;
        let end = words_at(tokens, after + 1, ["on", "the", "corner"]).filter(|_| spaced(after))?;
        let mut words = vec!["the".to_string(), "corner".to_string()];
        words.extend(head.iter().map(|w| w.to_string()));
        Some((end, words))
    };
    // "our room on the third floor" -> "our third-floor room".
    let floor = || {
        let (head, after) = head_at(tokens, i + 2, ON_A_FLOOR)?;
        let floor = FLOORS.iter().find(|f| open_word(tokens, after + 5).as_deref() == Some(**f))?;
        let end = words_at(tokens, after + 1, ["on", "the", *floor, "floor"]).filter(|_| spaced(after))?;
        let mut words = vec![det.clone(), format!("{floor}-floor")];
        words.extend(head.iter().map(|w| w.to_string()));
        Some((end, words))
    };
    // "the battery in my watch" -> "my watch's battery": a possessive owner only ("the lift in
    // the building" has no one's building to tell).
    let owned = || {
        if !the {
            return None;
        }
        let part = open_word(tokens, i + 2)?;
        let prep = open_word(tokens, i + 4).filter(|w| ["in", "on", "of"].contains(&w.as_str()))?;
        let whose = open_word(tokens, i + 6).filter(|w| PERSONAL_POSSESSIVES.contains(&w.as_str()))?;
        let owner = open_word(tokens, i + 8)?;
        OWNED_PARTS.iter().find(|(o, parts)| *o == owner && parts.contains(&part.as_str()))?;
        let end = words_at(tokens, i + 2, [part.as_str(), prep.as_str(), whose.as_str(), owner.as_str()])?;
        Some((end, vec![whose.clone(), format!("{owner}'s"), part.clone()]))
    };
    let (end, words) = corner().or_else(floor).or_else(owned)?;
    let next = crate::tokens::next_word(tokens, end - 1);
    // A verb in "-s" the lexicon also knows as a plural noun still ends the phrase ("The café
    // on the corner opens at seven").
    let verb_next = next.as_deref().is_some_and(|w| {
        crate::words::finite_lemma(w, crate::words::Tense::Present, true).is_some()
            && tokens.get(end).is_some_and(|t| t.is(Kind::Space, " "))
    });
    /// "the corner shop" is also the kind (a small shop selling food and papers): a shop on the
    /// corner is told so only where it sells, opens or closes, or is told of, as any shop is
    /// ("The shop on the corner fixed my puncture" is a bike shop, no corner shop).
    const SHOP_VERBS: &[&str] =
        &["sells", "sold", "opens", "opened", "closes", "closed", "is", "was", "has", "had"];
    let shop = words.last().is_some_and(|w| w == "shop") && words[1] == "corner";
    let shop_ok = !shop || next.as_deref().is_none_or(|w| SHOP_VERBS.contains(&w));
    if !(phrase_ends(tokens, end, "", true) || verb_next) || !shop_ok || !fits_here(tokens, i, Prep::At) {
        return None;
    }
    Some((end - i, words))
}

#[cfg(test)]
mod tests {
    use super::super::shared::told;
    use super::*;

    #[test]
    fn a_placed_thing_is_told_with_its_place() {
        let f = |t: &str| told(place_compound, t);
        assert_eq!(f("The kitchen sink is blocked again."), "the sink in the kitchen is blocked again.");
        assert_eq!(f("I put the keys on the hall table."), "I put the keys on the table in the hall.");
        assert_eq!(f("The office coffee machine broke."), "the coffee machine in the office broke.");
        assert_eq!(f("We painted the kitchen walls green."), "We painted the walls of the kitchen green.");
        assert_eq!(f("We painted the kitchen light grey."), "We painted the kitchen light grey.");
        assert_eq!(f("My bedroom walls are damp."), "the walls of my bedroom are damp.");
        assert_eq!(f("My bedroom window is stuck."), "My bedroom window is stuck.");
        assert_eq!(
            f("The living room carpet needs a clean."),
            "the carpet in the living room needs a clean."
        );
        assert_eq!(f("The station car park was full."), "the car park at the station was full.");
        assert_eq!(f("He fixed the kitchen tap."), "He fixed the tap in the kitchen.");
    }

    #[test]
    fn kinds_and_moves_are_refused() {
        let f = |t: &str| told(place_compound, t);
        // A kind: after "a", or a pair not listed.
        for text in [
            // A relative clause after would tell of the place.
            "There's a damp patch on the bedroom ceiling that keeps getting bigger.",
            "We bought a kitchen table.",
            "She took the school bus.",
            "I lost the kitchen knife.",
            "The office party was fun.",
            "Our hotel room was small.",
            "The garden centre is closed.",
            "The garden fence fell down.",
            // After a verb of moving or buying, "in the kitchen" would tell where it went.
            "They delivered the kitchen table.",
            "We moved the living room sofa.",
            // Stacked: "the leg of the table in the kitchen", "in the sink in the kitchen".
            "He glued the leg of the kitchen table back on.",
            "There is a crack in the bathroom mirror.",
            // The noun goes on, or "lights" is the verb.
            "The kitchen table leg broke.",
            "The office lights up at night.",
            "All the kitchen cupboards are full.",
            // Idioms: a deceit and "everything".
            "He led me up the garden path.",
            "They packed everything but the kitchen sink.",
        ] {
            assert_eq!(f(text), text);
        }
    }

    #[test]
    fn a_thing_told_with_its_place_is_named_by_it() {
        let f = |t: &str| told(placed_thing, t);
        assert_eq!(f("The window in the bathroom is stuck."), "the bathroom window is stuck.");
        assert_eq!(f("The lights in the hall flickered."), "the hall lights flickered.");
        assert_eq!(f("The lights in the kitchen keep flickering."), "the kitchen lights keep flickering.");
        assert_eq!(f("The printer in the office isn't working."), "the office printer isn't working.");
        assert_eq!(f("She painted the walls of her bedroom blue."), "She painted her bedroom walls blue.");
        assert_eq!(f("The keys are on the table in the kitchen."), "The keys are on the kitchen table.");
        let g = |t: &str| told(place_compound, t);
        assert_eq!(
            g("Please check your garden shed or recycling bin."),
            "Please check your garden shed or recycling bin."
        );
    }

    #[test]
    fn a_place_that_tells_where_is_kept() {
        let f = |t: &str| told(placed_thing, t);
        for text in [
            // Where the table went, not which table.
            "We put the table in the kitchen.",
            "They left the sofa in the living room.",
            // Not a listed thing, or the place goes on as a noun.
            "The milk in the fridge smells sour.",
            "The shower in our hotel was cold.",
            "The tap in the kitchen sink drips.",
            "The staff at the station were kind.",
            // What follows the place says which place: it stays with it.
            "The printer in the office upstairs is broken.",
            "The lights in the kitchen of the flat flickered.",
        ] {
            assert_eq!(f(text), text);
        }
    }
    #[test]
    fn a_corner_a_floor_and_an_owner_are_told_first() {
        let f = |t: &str| told(place_told_first, t);
        assert_eq!(f("The shop on the corner sells newspapers."), "the corner shop sells newspapers.");
        assert_eq!(f("The printer on the second floor is jammed."), "the second-floor printer is jammed.");
        assert_eq!(f("Our room on the third floor was quiet."), "our third-floor room was quiet.");
        assert_eq!(f("The battery in my watch is dead."), "my watch's battery is dead.");
        assert_eq!(f("The lift in our building is broken."), "our building's lift is broken.");
    }

    #[test]
    fn contents_moves_and_longer_places_are_kept() {
        let f = |t: &str| told(place_told_first, t);
        for text in [
            // A container and what it holds: not the fridge's milk.
            "The milk in the fridge smells sour.",
            "The cake in the oven smells lovely.",
            // After a verb the place tells where it went.
            "They moved the printer on the second floor.",
            // The place goes on: the corner is Mill Lane's.
            "The shop on the corner of Mill Lane sells bread.",
            // Not a possessive owner, and not a person.
            "The lift in the building is broken.",
            "The man on the second floor is noisy.",
            // A corner shop is a kind of shop: this one mends bikes.
            "The shop on the corner fixed my puncture.",
        ] {
            assert_eq!(f(text), text);
        }
    }
}
