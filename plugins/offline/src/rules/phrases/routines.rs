//! Phrases of everyday errands, waits, journeys and plans told in other words, each where its
//! context settles it: "less than an hour" -> "under an hour", "three pounds an hour" -> "three
//! pounds per hour", "on the way to work" -> "on my way to work", "has been moved to Thursday" ->
//! "has been rescheduled for Thursday", "Had I known" -> "If I had known", "ran out of milk" -> "had no milk left", "until the sun
//! went down" -> "until sunset", "thinking about moving" -> "considering moving", "waited an
//! hour." -> "waited for an hour.", "by Friday at the latest" -> "no later than Friday", "sorry
//! about the noise" <-> "sorry for the noise", "a table for four people" <-> "a table for four",
//! "just after midnight" -> "shortly after midnight", "took about an hour." -> "took an hour or
//! so.", "a ten-minute walk from" -> "ten minutes' walk from".
//!
//! Left out on purpose: "make sure the door is locked" -> "check that" (a reader took "make sure"
//! as to ensure, where "check" only looks), "so loud that it woke" -> "so loud it woke" (it took the place of the
//! sentence's "because" turn, "I fell asleep because the film was so boring"), "a few more days"
//! -> "a couple more" (a couple is two), "next door" -> "from the neighbours" (a place, not
//! people), "took a long time" -> "took ages" (slang in a neutral sentence), "all the time" ->
//! "constantly" ("the keys were in my pocket all the time" is the whole time).

use super::amounts::{almost_nearly, over_sum, per_to_a, roughly, than_sum};
use super::collocations::CONSUMABLES;
use super::numbers::{TENS_AND_TEENS, UNITS_BELOW_TEN};
use super::shared::{Finder, pause_after};
use crate::lexicon::Pos;
use crate::morph::{self, Form};
use crate::tokens::{Kind, Token, is_sentence_start, lower_is, open_word, prev_word};
use crate::words::{AMOUNT_UNITS, OBJECT_PRONOUNS, PERSONAL_POSSESSIVES, concat};

/// Every finder of this file after the first words it reads, in the order they are tried: a
/// finder runs only from one of its words (and collects the words after it only there), so that
/// the most words, which start none, cost no finder at all. An empty list is the clock hours,
/// whose names `hour_at` reads.
const FINDERS: &[(&[&str], Finder)] = &[
    (&["less", "more"], under_over),
    (&["had"], had_i_known),
    (&["shut"], closed_down),
    (&[], clock_period),
    (&["took", "take", "takes"], took_up),
    (&["in"], in_a_row),
    (&["turn", "turns", "turned", "turning"], turned_up),
    (&["has", "is", "was"], not_working),
    (&["i", "we", "you", "they"], have_ever),
    (&["a", "an"], per_unit),
    (&["on"], way_of),
    (&["moved", "rescheduled"], rescheduled),
    (&["ran", "has", "have", "had", "running"], none_left),
    (&["until", "till", "before", "after", "when"], sunset),
    (&["thinking"], considering),
    (&["wait", "waits", "waited", "waiting"], waited_for),
    (&["by"], no_later_than),
    (&["sorry"], sorry_for),
    (FRIENDLY, friendly_towards),
    (&["table"], table_for),
    (&["just"], shortly_after),
    (&["all"], all_the_way_through),
    (&["most"], on_most_days),
    (&["kilo", "kilos"], kilograms),
    (&["about", "around"], or_so),
    (&["about", "around", "roughly", "approximately"], roughly),
    (&["almost", "nearly"], almost_nearly),
    (&["over", "under"], over_sum),
    (&["less", "more"], than_sum),
    (&["per"], per_to_a),
    (&["a"], minutes_walk),
    (&["by"], by_one),
    (&["by", "in"], paid_with),
    (&["shook", "shake", "shakes", "shaking"], shook_hands),
];

/// The first phrase of this file found from the word at `i`.
pub(super) fn routine(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    let text = &tokens.get(i)?.text;
    FINDERS
        .iter()
        .filter(|(firsts, _)| {
            if firsts.is_empty() { hour_at(text).is_some() } else { firsts.iter().any(|w| lower_is(text, w)) }
        })
        .find_map(|(_, find)| find(tokens, i))
}

/// The words at `i`, `i + 2`, ... while each is an open word joined to the last by one space.
fn words_from(tokens: &[Token], i: usize, n: usize) -> Option<Vec<String>> {
    (0..n)
        .map(|k| {
            let at = i + 2 * k;
            let spaced = k == 0 || tokens.get(at - 1).is_some_and(|t| t.is(Kind::Space, " "));
            open_word(tokens, at).filter(|_| spaced)
        })
        .collect()
}

fn owned(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| (*w).to_string()).collect()
}

/// A count before a unit: "an", "two", "forty-five", "3".
pub(super) fn counts(word: &str) -> bool {
    ["a", "an"].contains(&word)
        || (!word.is_empty() && word.bytes().all(|b| b.is_ascii_digit()))
        || UNITS_BELOW_TEN.iter().any(|(w, _)| *w == word)
        || TENS_AND_TEENS.iter().any(|(w, _)| *w == word)
        || (word.contains('-')
            && word.split('-').all(|p| UNITS_BELOW_TEN.iter().chain(TENS_AND_TEENS).any(|(w, _)| *w == p)))
}

/// "in less than an hour" -> "in under an hour", "more than two weeks" -> "over two weeks": only
/// before a counted unit ("less than ideal" stays), never after a word that grades the
/// comparison ("no less than", "much more than", which "under" and "over" cannot take), and
/// never "more than one day" (two or more), whose "over one day" may be "during one day".
fn under_over(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    let w = words_from(tokens, i, 4)?;
    let to = match (w[0].as_str(), w[1].as_str()) {
        ("less", "than") => "under",
        ("more", "than") => "over",
        _ => return None,
    };
    let graded = prev_word(tokens, i).is_some_and(|p| {
        ["no", "not", "much", "far", "any", "even", "still", "nothing", "none", "little", "lot", "once"]
            .contains(&p.as_str())
    });
    let one = to == "over" && w[2] == "one";
    (counts(&w[2]) && AMOUNT_UNITS.contains(&w[3].as_str()) && !graded && !one).then(|| (3, owned(&[to])))
}

/// "three pounds an hour" -> "three pounds per hour": a rate of money or distance, never of
/// times ("three times a week" has its own forms).
fn per_unit(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    let w = words_from(tokens, i, 2)?;
    let span = ["hour", "day", "week", "month", "year", "night", "head"];
    if !["a", "an"].contains(&w[0].as_str()) || !span.contains(&w[1].as_str()) {
        return None;
    }
    let named = prev_word(tokens, i).is_some_and(|p| {
        ["pounds", "dollars", "euros", "pence", "quid", "miles", "kilometres", "calories"]
            .contains(&p.as_str())
    });
    let then = open_word(tokens, i + 4);
    let ends = pause_after(tokens, i + 2)
        || (tokens.get(i + 3).is_some_and(|t| t.is(Kind::Space, " "))
            && then.is_some_and(|n| ["in", "for", "and"].contains(&n.as_str())));
    (named && ends).then(|| (3, owned(&["per", &w[1]])))
}

/// Possessives of the subject pronouns a journey is told from.
const OWN: &[(&str, &str)] =
    &[("i", "my"), ("we", "our"), ("he", "his"), ("she", "her"), ("they", "their"), ("you", "your")];

/// "We got lost on the way to the hotel." -> "... on our way to the hotel.": only where the
/// sentence opens with the one who travels and names nobody else before it, and only of a
/// journey told in the past; "The shop is on the way to the station" (a place on the route) stays.
fn way_of(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    let w = words_from(tokens, i, 4)?;
    if w[..3] != ["on", "the", "way"] || !["to", "home", "back"].contains(&w[3].as_str()) {
        return None;
    }
    let first = tokens.iter().position(Token::is_word)?;
    if !is_sentence_start(tokens, first) {
        return None;
    }
    let subject = tokens[first].text.to_lowercase();
    let own = OWN.iter().find(|(p, _)| *p == subject)?.1;
    let before: Vec<String> =
        tokens[first + 1..i].iter().filter(|t| t.is_word()).map(|t| t.text.to_lowercase()).collect();
    let other_person = before.iter().any(|w| {
        [
            "i", "we", "he", "she", "they", "you", "it", "me", "us", "him", "them", "that", "who", "which",
            "said", "says", "think", "thought", "told", "because", "when", "while", "if", "where", "is",
            "are", "am", "be", "lives", "live", "lived", "living", "lies", "located", "stop", "stops",
            "passes", "pass", "will", "'ll",
        ]
        .contains(&w.as_str())
    });
    // The lexicon keeps the commonest verbs as function words, without analyses: their pasts by
    // name ("I got a flat tyre on the way to work").
    let past = before.iter().any(|w| {
        ["got", "went", "came", "made", "took", "had", "did", "was", "were", "gave", "kept"]
            .contains(&w.as_str())
            || morph::analyse(w)
                .iter()
                .any(|a| a.pos == Pos::Verb && matches!(a.form, Form::Past | Form::PastOrParticiple))
    });
    (!other_person && past).then(|| (5, owned(&["on", own, "way"])))
}

/// The hour a word names, one to eleven: twelve is noon or midnight, which "am" and "pm" do not
/// say plainly.
fn hour_at(text: &str) -> Option<u32> {
    UNITS_BELOW_TEN
        .iter()
        .chain(TENS_AND_TEENS.iter().filter(|(_, n)| *n <= 11))
        .find(|(name, _)| lower_is(text, name))
        .map(|(_, hour)| *hour)
}

/// "at six in the morning" -> "at 6 am", "until ten in the evening" -> "until 10 pm", "eleven at
/// night" -> "11 pm": an hour after a preposition of time (a number after anything else may count
/// people), its part of the day agreeing with it ("six in the evening" is 6 pm, "two in the
/// evening" is no time anyone says, so it stays).
fn clock_period(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    let hour = hour_at(&tokens[i].text)?;
    let before = prev_word(tokens, i)?;
    if !["at", "until", "till", "by", "from", "before", "after", "around", "since", "about"]
        .contains(&before.as_str())
    {
        return None;
    }
    let mut w = (3..=4).rev().find_map(|n| words_from(tokens, i, n))?;
    w.resize(4, String::new());
    let (len, suffix) = match (w[1].as_str(), w[2].as_str(), w[3].as_str()) {
        ("in", "the", "morning") if (1..=11).contains(&hour) => (7, "am"),
        ("in", "the", "afternoon") if (1..=5).contains(&hour) => (7, "pm"),
        ("in", "the", "evening") if (5..=11).contains(&hour) => (7, "pm"),
        ("at", "night", _) if (8..=11).contains(&hour) => (5, "pm"),
        _ => return None,
    };
    // Ending its clause: a mover would carry a word after it along ("until 2 am talking").
    let ends = pause_after(tokens, i + len - 1)
        || open_word(tokens, i + len + 1)
            .is_some_and(|n| ["and", "but", "so", "every", "tomorrow"].contains(&n.as_str()));
    ends.then(|| (len, vec![hour.to_string(), suffix.to_string()]))
}

/// "I took up painting." -> "I started painting.": a pastime begun, before its -ing; "took up
/// the offer", "took up space" (no -ing) and "taking up running" (two -ings) stay.
fn took_up(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    let w = words_from(tokens, i, 3)?;
    let to = match w[0].as_str() {
        "took" => "started",
        "take" => "start",
        "takes" => "starts",
        _ => return None,
    };
    let doing = gerund(&w[2]);
    (w[1] == "up" && doing).then(|| (3, owned(&[to])))
}

/// "for the third year in a row" -> "for the third year running": a count of periods or times.
fn in_a_row(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    let w = words_from(tokens, i, 3)?;
    let counted = prev_word(tokens, i).is_some_and(|p| {
        [
            "year", "years", "day", "days", "week", "weeks", "night", "nights", "month", "months", "season",
            "seasons", "time", "times", "weekend", "weekends",
        ]
        .contains(&p.as_str())
    });
    (w == ["in", "a", "row"] && counted && pause_after(tokens, i + 4)).then(|| (5, owned(&["running"])))
}

/// "He always turns up late." -> "He always arrives late.": coming, told by when; "turned up the
/// heating" (louder) has no "late" or "on time" after it.
fn turned_up(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    let w = words_from(tokens, i, 3)?;
    let to = match w[0].as_str() {
        "turn" => "arrive",
        "turns" => "arrives",
        "turned" => "arrived",
        "turning" => "arriving",
        _ => return None,
    };
    let when = ["late", "early"].contains(&w[2].as_str())
        || (w[2] == "on" && open_word(tokens, i + 6).is_some_and(|n| n == "time"));
    (w[1] == "up" && when).then(|| (3, owned(&[to])))
}

/// "The internet has been down since yesterday." -> "The internet hasn't been working since
/// yesterday.": a service that is down, then the end of the clause or a time.
fn not_working(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    let service = prev_word(tokens, i).is_some_and(|p| {
        ["internet", "wifi", "wi-fi", "website", "server", "network", "broadband", "system"]
            .contains(&p.as_str())
    });
    if !service {
        return None;
    }
    let w = words_from(tokens, i, 3)?;
    let (len, to): (usize, &[&str]) = match (w[0].as_str(), w[1].as_str(), w[2].as_str()) {
        ("has", "been", "down") => (5, &["hasn't", "been", "working"]),
        ("is", "down", _) => (3, &["isn't", "working"]),
        ("was", "down", _) => (3, &["wasn't", "working"]),
        _ => return None,
    };
    let ends = pause_after(tokens, i + len - 1)
        || (tokens.get(i + len).is_some_and(|t| t.is(Kind::Space, " "))
            && open_word(tokens, i + len + 1).is_some_and(|n| {
                ["since", "again", "for", "today", "this", "all", "at", "yesterday"].contains(&n.as_str())
            }));
    ends.then(|| (len, owned(to)))
}

/// "the best pizza I have ever eaten" -> "the best pizza I've ever eaten": the perfect of a
/// lifetime, as it is said.
fn have_ever(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    let w = words_from(tokens, i, 3)?;
    let short = match w[0].as_str() {
        "i" => "I've",
        "we" => "we've",
        "you" => "you've",
        "they" => "they've",
        _ => return None,
    };
    (w[1] == "have" && w[2] == "ever").then(|| (3, vec![short.to_string()]))
}

/// "Had I known, I would have left earlier." -> "If I had known, ...": the condition opening the
/// sentence, its "would" after it.
fn had_i_known(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    let w = words_from(tokens, i, 3)?;
    if w[0] != "had" || !is_sentence_start(tokens, i) {
        return None;
    }
    let pronoun = ["i", "we", "you", "he", "she", "they"].contains(&w[1].as_str());
    let participle = morph::analyse(&w[2])
        .iter()
        .any(|a| a.pos == Pos::Verb && matches!(a.form, Form::Participle | Form::PastOrParticiple));
    let would = tokens.iter().any(|t| t.is_word() && t.text.eq_ignore_ascii_case("would"));
    let comma = tokens.iter().any(|t| t.text == ",");
    let subject = if w[1] == "i" { "I".to_string() } else { w[1].clone() };
    (pronoun && participle && would && comma).then(|| (3, vec!["If".to_string(), subject, "had".to_string()]))
}

/// "The petrol station has shut down." -> "... has closed down.": a business that stopped trading,
/// not a machine ("the computer shut down" stays).
fn closed_down(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    let w = words_from(tokens, i, 2)?;
    let business = [
        "shop",
        "store",
        "station",
        "restaurant",
        "cafe",
        "café",
        "pub",
        "bank",
        "factory",
        "cinema",
        "bakery",
        "club",
        "branch",
        "business",
        "library",
        "post",
    ];
    let before =
        if i >= 2 && ["has", "have", "had"].contains(&prev_word(tokens, i).unwrap_or_default().as_str()) {
            i - 2
        } else {
            i
        };
    let owner = prev_word(tokens, before).is_some_and(|p| business.contains(&p.as_str()));
    (w[0] == "shut" && w[1] == "down" && owner && pause_after(tokens, i + 2))
        .then(|| (3, owned(&["closed", "down"])))
}

/// Whether `word` names a day or a time a meeting may be set for.
fn when_word(word: &str) -> bool {
    crate::words::DAY_NAMES.contains(&word)
        || crate::words::MONTHS.contains(&word)
        || ["next", "tomorrow", "monday's", "noon", "midday"].contains(&word)
        || word.bytes().next().is_some_and(|b| b.is_ascii_digit())
}

/// "The meeting has been moved to Thursday." <-> "... rescheduled for Thursday.": a thing moved
/// in time, told by the day or the hour after it; "was moved to the hall" (a place) and "They
/// moved to Canada" (no passive) stay.
fn rescheduled(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    let w = words_from(tokens, i, 3)?;
    let to: &[&str] = match (w[0].as_str(), w[1].as_str()) {
        ("moved", "to") => &["rescheduled", "for"],
        ("rescheduled", "for") => &["moved", "to"],
        _ => return None,
    };
    let passive = prev_word(tokens, i)
        .is_some_and(|p| ["been", "was", "were", "is", "are", "be", "being"].contains(&p.as_str()));
    let clock = w[2].bytes().next().is_some_and(|b| b.is_ascii_digit())
        || open_word(tokens, i + 6)
            .is_some_and(|n| ["o'clock", "pm", "am", "p.m.", "a.m."].contains(&n.as_str()));
    (passive && (when_word(&w[2]) || clock)).then(|| (3, owned(to)))
}

/// What runs out: the shared supplies, and what "ran out of" says of time and the nursery.
const RUN_OUT_OF: &[&str] = &concat::<32>(&[CONSUMABLES, &["time", "water", "nappies"]]);

/// "We ran out of coffee." -> "We had no coffee left.", "has run out of ink" -> "has no ink left",
/// "is running out of milk" -> "is running low on milk": a supply, then the end of the clause, a
/// time or "and"; never "again" ("has no ink left again" says it less well), never "out of the
/// door" (not a supply).
fn none_left(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    let first = open_word(tokens, i)?;
    let (have, at) = match first.as_str() {
        "ran" => ("had", i),
        "has" | "have" | "had" if words_from(tokens, i, 2)?[1] == "run" => (first.as_str(), i + 2),
        "running" => ("", i),
        _ => return None,
    };
    let w = words_from(tokens, at, 4)?;
    let supply = w[3].as_str();
    if w[1] != "out" || w[2] != "of" || !RUN_OUT_OF.contains(&supply) {
        return None;
    }
    let last = at + 6;
    let ends = pause_after(tokens, last)
        || (tokens.get(last + 1).is_some_and(|t| t.is(Kind::Space, " "))
            && open_word(tokens, last + 2).is_some_and(|n| {
                ["by", "this", "today", "yesterday", "last", "and", "before", "halfway", "so"]
                    .contains(&n.as_str())
            }));
    // "We ran out of milk, so I'll pop to the shop": the supply is out now, which "had no milk
    // left" would put in the past; only a past account takes the past state.
    let now_after = || {
        tokens[last..].iter().chain(tokens[..i].iter()).any(|t| {
            let w = t.text.to_lowercase().replace('’', "'");
            ["will", "shall", "am", "is", "are", "need", "must", "can", "going"].contains(&w.as_str())
                || w.ends_with("'ll")
                || w.ends_with("'m")
                || w.ends_with("'re")
        })
    };
    if !ends || (first == "ran" && now_after()) {
        return None;
    }
    let len = last + 1 - i;
    if have.is_empty() {
        return Some((len, owned(&["running", "low", "on", supply])));
    }
    Some((len, owned(&[have, "no", supply, "left"])))
}

/// "until the sun went down" -> "until sunset", "before the sun came up" -> "before sunrise",
/// "when the sun goes down" -> "at sunset": ending the clause, where nothing places the sun ("went
/// down behind the hills").
fn sunset(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    let w = words_from(tokens, i, 4)?;
    let conj = match w[0].as_str() {
        "until" | "till" | "before" | "after" => w[0].as_str(),
        "when" => "at",
        _ => return None,
    };
    if w[1] != "the" || w[2] != "sun" {
        return None;
    }
    let (len, time) = match w[3].as_str() {
        "set" | "sets" => (7, "sunset"),
        "rose" | "rises" => (7, "sunrise"),
        "went" | "goes" | "came" | "comes" => {
            let dir = words_from(tokens, i + 8, 1)?;
            let time = match (w[3].as_str(), dir[0].as_str()) {
                ("went" | "goes", "down") => "sunset",
                ("came" | "comes", "up") => "sunrise",
                _ => return None,
            };
            if !tokens[i + 7].is(Kind::Space, " ") {
                return None;
            }
            (9, time)
        }
        _ => return None,
    };
    pause_after(tokens, i + len - 1).then(|| (len, owned(&[conj, time])))
}

/// Whether `word` is the -ing of a verb ("getting", "moving"), not a noun in -ing ("evening").
fn gerund(word: &str) -> bool {
    let doubled = ["tting", "pping", "nning", "gging", "mming"].iter().any(|end| word.ends_with(end));
    word.len() > 5
        && word.ends_with("ing")
        && ![
            "nothing",
            "something",
            "anything",
            "everything",
            "evening",
            "morning",
            "wedding",
            "ceiling",
            "meeting",
        ]
        .contains(&word)
        && (doubled || morph::analyse(word).iter().any(|a| a.pos == Pos::Verb))
}

/// "We're thinking about getting a puppy." -> "We're considering getting a puppy.": a plan
/// weighed, before the -ing of what one might do; "thinking about you" (a person) stays.
fn considering(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    let w = words_from(tokens, i, 3)?;
    if w[0] != "thinking" || !["about", "of"].contains(&w[1].as_str()) {
        return None;
    }
    let doing = gerund(&w[2]);
    let be = prev_word(tokens, i).is_some_and(|p| {
        let p = p.replace('’', "'");
        ["am", "is", "are", "was", "were", "been", "be"].contains(&p.as_str())
            || ["'m", "'re", "'s"].iter().any(|c| p.ends_with(c))
    });
    (doing && be).then(|| (3, owned(&["considering"])))
}

/// "We had to wait an hour." <-> "We had to wait for an hour.": a length of waiting that ends the
/// clause ("waited an hour for a table" would have two "for"s).
fn waited_for(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    let verb = open_word(tokens, i)?;
    if !["wait", "waits", "waited", "waiting"].contains(&verb.as_str()) {
        return None;
    }
    let w = (2..=4).rev().find_map(|n| words_from(tokens, i + 2, n))?;
    let with_for = w[0] == "for";
    let mut k = usize::from(with_for);
    if w.get(k).is_some_and(|x| ["almost", "nearly", "over", "about", "around"].contains(&x.as_str())) {
        k += 1;
    }
    let count = w.get(k)?;
    let unit = w.get(k + 1)?;
    let time = ["minute", "minutes", "hour", "hours", "day", "days", "week", "weeks"];
    if !counts(count) || !time.contains(&unit.as_str()) || !pause_after(tokens, i + 2 * (k + 2)) {
        return None;
    }
    if with_for { Some((3, owned(&[&verb]))) } else { Some((1, owned(&[&verb, "for"]))) }
}

/// "by Friday at the latest" -> "no later than Friday": a deadline of one to four words.
fn no_later_than(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    if open_word(tokens, i)? != "by" {
        return None;
    }
    for n in 1..=4 {
        let Some(w) = words_from(tokens, i, n + 4) else { break };
        if w[n + 1..] == ["at", "the", "latest"] && pause_after(tokens, i + 2 * (n + 3)) {
            let deadline: Vec<String> = (1..=n).map(|k| tokens[i + 2 * k].text.clone()).collect();
            if !when_word(&w[1]) && w[1] != "the" && !crate::words::common_word(&w[1]) {
                return None;
            }
            let mut out = owned(&["no", "later", "than"]);
            out.extend(deadline);
            return Some((2 * (n + 3) + 1, out));
        }
    }
    None
}

/// What one is sorry for having caused, where "sorry about the" and "sorry for the" are one
/// apology; "sorry about your dog" is sympathy, which "sorry for" would turn to pity.
const APOLOGISED: &[&str] = &[
    "noise",
    "delay",
    "delays",
    "mess",
    "confusion",
    "inconvenience",
    "wait",
    "trouble",
    "misunderstanding",
];

/// "Sorry about the noise." <-> "Sorry for the noise.": an apology for one of `APOLOGISED`, never
/// after "feel" ("felt sorry for the" is pity).
fn sorry_for(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    let w = words_from(tokens, i, 4)?;
    let other = match w[1].as_str() {
        "about" => "for",
        "for" => "about",
        _ => return None,
    };
    let pity =
        prev_word(tokens, i).is_some_and(|p| ["feel", "feels", "felt", "feeling"].contains(&p.as_str()));
    let apology = w[2] == "the" && APOLOGISED.contains(&w[3].as_str());
    (apology && !pity).then(|| (3, owned(&["sorry", other])))
}

/// The manners shown to someone, which "to" and "towards" say alike before a person.
const FRIENDLY: &[&str] = &["friendly", "unfriendly", "kind", "unkind", "polite", "rude", "generous"];

/// "The driver was friendly to the passengers." -> "... friendly towards the passengers.": before
/// a person or the determiner of one; "friendly to the environment" (harmless to it), "kind to the
/// skin" and "rude to the point of" are no manners shown, and "kind to help" is an infinitive.
fn friendly_towards(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    const PEOPLE: &[&str] = &[
        "everyone",
        "everybody",
        "strangers",
        "customers",
        "guests",
        "visitors",
        "passengers",
        "people",
        "children",
    ];
    const THINGS: &[&str] =
        &["environment", "planet", "skin", "touch", "eye", "eyes", "ear", "point", "wallet", "pocket"];
    let w = words_from(tokens, i, 4).or_else(|| words_from(tokens, i, 3))?;
    let determiner = (["the", "all"].contains(&w[2].as_str())
        || PERSONAL_POSSESSIVES.contains(&w[2].as_str()))
        && w.get(3).is_some_and(|n| !THINGS.contains(&n.as_str()));
    let person = PEOPLE.contains(&w[2].as_str()) || OBJECT_PRONOUNS.contains(&w[2].as_str());
    (FRIENDLY.contains(&w[0].as_str()) && w[1] == "to" && (determiner || person))
        .then(|| (3, owned(&[&w[0], "towards"])))
}

/// A count of two or more people at a table: "two" to "twelve" or digits.
fn diners(word: &str) -> bool {
    counts(word) && !["a", "an", "one", "1"].contains(&word)
}

/// "a table for four people" <-> "a table for four": a booking, where the number is the people;
/// "for four" gains "people" only before a pause or a time or place of the booking ("a table for
/// two hours" is a length).
fn table_for(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    let w = words_from(tokens, i, 3)?;
    if w[0] != "table" || w[1] != "for" || !diners(&w[2]) {
        return None;
    }
    let kept = vec![tokens[i].text.clone(), "for".to_string(), tokens[i + 4].text.clone()];
    if open_word(tokens, i + 6).as_deref() == Some("people") && tokens[i + 5].is(Kind::Space, " ") {
        return Some((7, kept));
    }
    let booked = pause_after(tokens, i + 4)
        || (tokens[i + 5].is(Kind::Space, " ")
            && open_word(tokens, i + 6).is_some_and(|n| {
                ["at", "on", "by", "tonight", "tomorrow", "this", "next", "please"].contains(&n.as_str())
            }));
    booked.then(|| {
        let mut more = kept;
        more.push("people".to_string());
        (5, more)
    })
}

/// "just after midnight" -> "shortly after midnight": a little after or before a time of day; "It
/// is just after six" tells the time now, which "shortly" does not, and an hour must end there or
/// be told as one ("just after six people" counts).
fn shortly_after(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    const TIMES: &[&str] = &[
        "midnight",
        "midday",
        "noon",
        "dawn",
        "sunrise",
        "sunset",
        "lunch",
        "lunchtime",
        "breakfast",
        "dinner",
    ];
    let w = words_from(tokens, i, 3)?;
    if w[0] != "just" || !["after", "before"].contains(&w[1].as_str()) {
        return None;
    }
    let hour = hour_at(&w[2]).is_some()
        && (pause_after(tokens, i + 4)
            || open_word(tokens, i + 6).is_some_and(|n| {
                ["o'clock", "pm", "am", "in", "and", "on", "this", "last", "that", "tonight"]
                    .contains(&n.as_str())
            }));
    let now = prev_word(tokens, i)
        .is_some_and(|p| ["is", "was", "it's", "it’s", "it", "be", "'s"].contains(&p.as_str()));
    ((TIMES.contains(&w[2].as_str()) || hour) && !now).then(|| (3, owned(&["shortly", &w[1]])))
}

/// "talked all the way through the film" -> "talked throughout the film": through the whole of an
/// event; "all the way through the forest" is a path, so only these events.
fn all_the_way_through(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    const EVENTS: &[&str] = &[
        "film",
        "movie",
        "show",
        "concert",
        "meeting",
        "meal",
        "match",
        "game",
        "lesson",
        "flight",
        "journey",
        "performance",
        "play",
        "programme",
        "speech",
        "service",
        "night",
        "ceremony",
        "trip",
        "class",
        "talk",
        "lecture",
        "interview",
        "wedding",
        "party",
    ];
    let w = words_from(tokens, i, 6)?;
    let whole = w[..4] == ["all", "the", "way", "through"]
        && ["the", "his", "her", "my", "our", "their", "this", "that"].contains(&w[4].as_str())
        && EVENTS.contains(&w[5].as_str());
    whole.then(|| (7, owned(&["throughout"])))
}

/// "She walked the dog most days." -> "... on most days.": how often, ending the clause after a
/// noun or an adverb; after a verb "most days" may be its object ("I hate most days"), and after a
/// preposition ("for most days") it is already that preposition's.
fn on_most_days(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    const SPANS: &[&str] = &["days", "mornings", "afternoons", "evenings", "nights", "weekends"];
    let w = words_from(tokens, i, 2)?;
    if w[0] != "most" || !SPANS.contains(&w[1].as_str()) {
        return None;
    }
    let opening = is_sentence_start(tokens, i) && tokens.get(i + 3).is_some_and(|t| t.text == ",");
    let after_noun = prev_word(tokens, i).is_some_and(|p| {
        let analyses = morph::analyse(&p);
        let verb = morph::evidence(&analyses, |a| a.pos == Pos::Verb).at_least(6, 10);
        let adverb = ["home", "here", "there", "outside", "together", "out", "early", "late", "work"]
            .contains(&p.as_str());
        adverb
            || (crate::words::is_noun(&p)
                && !verb
                && !crate::words::OBJECT_PREPOSITIONS.contains(&p.as_str()))
    });
    // "arrives on time most days" would read "on time on most days".
    let on_time = prev_word(tokens, i).as_deref() == Some("time");
    let season = open_word(tokens, i + 4).as_deref() == Some("in")
        && open_word(tokens, i + 6)
            .is_some_and(|n| ["summer", "winter", "spring", "autumn"].contains(&n.as_str()));
    let ends = (pause_after(tokens, i + 2) || season) && !on_time;
    (opening || (after_noun && ends)).then(|| (3, owned(&["on", "most", &w[1]])))
}

/// "two kilos of potatoes" -> "two kilograms of potatoes": the weight after its count.
fn kilograms(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    let word = open_word(tokens, i)?;
    let counted = prev_word(tokens, i).is_some_and(|p| counts(&p) || p == "half");
    let unit = if word == "kilos" { "kilograms" } else { "kilogram" };
    counted.then(|| (1, owned(&[unit])))
}

/// The units a length of time is counted in, singular and plural.
const TIME_UNITS: &[&str] = &[
    "minute", "minutes", "hour", "hours", "day", "days", "week", "weeks", "month", "months", "year", "years",
];

/// "It took about an hour." -> "It took an hour or so.": a rough length of time ending the clause,
/// after what measures one ("took", "for", "in", "waited"); after "talked" or "thought" the
/// "about" is a topic.
fn or_so(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    const MEASURES: &[&str] = &[
        "took", "take", "takes", "taking", "for", "in", "lasted", "lasts", "last", "waited", "wait", "spent",
        "spend", "after",
    ];
    let w = words_from(tokens, i, 3)?;
    let measured = prev_word(tokens, i).is_some_and(|p| MEASURES.contains(&p.as_str()));
    // "only took about an hour" stresses how little, which "or so" blurs.
    let little = i >= 2
        && prev_word(tokens, i - 2)
            .is_some_and(|p| ["only", "just", "barely", "hardly"].contains(&p.as_str()));
    let length = counts(&w[1]) && TIME_UNITS.contains(&w[2].as_str());
    (measured && !little && length && pause_after(tokens, i + 4)).then(|| {
        (5, vec![tokens[i + 2].text.clone(), tokens[i + 4].text.clone(), "or".to_string(), "so".to_string()])
    })
}

/// "The flat is a ten-minute walk from the station." -> "... ten minutes' walk from the station.":
/// a distance told by the time it takes, after "is" and before where from or to; "I took a
/// ten-minute walk" is the walk itself, which "ten minutes' walk" is not.
fn minutes_walk(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    let w = words_from(tokens, i, 4)?;
    let (count, unit) = w[1].rsplit_once('-')?;
    let plural = match unit {
        "minute" => "minutes'",
        "hour" => "hours'",
        _ => return None,
    };
    let distance = prev_word(tokens, i).is_some_and(|p| {
        ["is", "was", "are", "were", "it's", "it’s", "just", "only", "about", "around"].contains(&p.as_str())
    });
    let travel = ["walk", "drive", "ride"].contains(&w[2].as_str());
    let place = ["from", "to", "away"].contains(&w[3].as_str());
    let counted = counts(count) && !["a", "an", "one", "1"].contains(&count);
    (distance && travel && place && counted).then(|| (5, owned(&[count, plural, &w[2]])))
}

/// "lost the final by one point" <-> "by a single point": a margin in the units a score is kept in,
/// where "a single" says the same count.
fn by_one(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    const SCORES: &[&str] = &["goal", "point", "run", "vote", "stroke", "wicket", "second"];
    if let Some(w) = words_from(tokens, i, 4)
        && w[..3] == ["by", "a", "single"]
        && SCORES.contains(&w[3].as_str())
    {
        return Some((7, owned(&["by", "one", &w[3]])));
    }
    let w = words_from(tokens, i, 3)?;
    (w[1] == "one" && SCORES.contains(&w[2].as_str())).then(|| (5, owned(&["by", "a", "single", &w[2]])))
}

/// "She paid by card." -> "She paid with a card.", "paid in cash" -> "paid with cash": how one
/// pays, after paying.
fn paid_with(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    let paying =
        prev_word(tokens, i).is_some_and(|p| ["pay", "pays", "paid", "paying"].contains(&p.as_str()));
    if !paying {
        return None;
    }
    if let Some(w) = words_from(tokens, i, 3)
        && w[0] == "by"
        && w[1] == "credit"
        && w[2] == "card"
    {
        return Some((5, owned(&["with", "a", "credit", "card"])));
    }
    let w = words_from(tokens, i, 2)?;
    match (w[0].as_str(), w[1].as_str()) {
        ("by", "card" | "cheque") => Some((3, owned(&["with", "a", &w[1]]))),
        ("in", "cash") => Some((3, owned(&["with", "cash"]))),
        _ => None,
    }
}

/// "She shook my hand." -> "She shook hands with me.": the greeting, told by the one whose hand it
/// was; "shook his hand free" and "shook her head" are not it, so the hand ends the clause.
fn shook_hands(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    const OWNERS: &[(&str, &str)] =
        &[("my", "me"), ("his", "him"), ("her", "her"), ("our", "us"), ("their", "them"), ("your", "you")];
    let w = words_from(tokens, i, 3)?;
    let &(_, person) = OWNERS.iter().find(|(own, _)| *own == w[1])?;
    let ends = pause_after(tokens, i + 4)
        || open_word(tokens, i + 6)
            .is_some_and(|n| ["and", "at", "when", "before", "after"].contains(&n.as_str()));
    (w[2] == "hand" && ends).then(|| (5, owned(&[&w[0], "hands", "with", person])))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::phrases::shared::told;

    #[test]
    fn bounds_counted_units_only() {
        assert_eq!(told(routine, "It sold out in less than an hour."), "It sold out in under an hour.");
        assert_eq!(told(routine, "It took more than two weeks."), "It took over two weeks.");
        assert_eq!(told(routine, "It was less than ideal."), "It was less than ideal.");
        assert_eq!(told(routine, "It took no less than an hour."), "It took no less than an hour.");
        assert_eq!(told(routine, "It took more than one day."), "It took more than one day.");
    }

    #[test]
    fn apologies_for_what_one_caused() {
        assert_eq!(told(routine, "Sorry about the noise last night."), "sorry for the noise last night.");
        assert_eq!(told(routine, "I'm sorry for the delay."), "I'm sorry about the delay.");
        assert_eq!(told(routine, "I'm sorry about your dog."), "I'm sorry about your dog.");
        assert_eq!(told(routine, "I felt sorry for the children."), "I felt sorry for the children.");
        assert_eq!(told(routine, "We felt sorry about the noise."), "We felt sorry about the noise.");
    }

    #[test]
    fn manners_towards_people() {
        assert_eq!(
            told(routine, "The driver was friendly to the passengers."),
            "The driver was friendly towards the passengers."
        );
        assert_eq!(told(routine, "She was very kind to us."), "She was very kind towards us.");
        assert_eq!(told(routine, "The soap is kind to the skin."), "The soap is kind to the skin.");
        assert_eq!(told(routine, "It is friendly to the environment."), "It is friendly to the environment.");
        assert_eq!(told(routine, "It was kind to help."), "It was kind to help.");
    }

    #[test]
    fn tables_for_diners() {
        assert_eq!(told(routine, "I booked a table for four people."), "I booked a table for four.");
        assert_eq!(
            told(routine, "I booked a table for two at eight."),
            "I booked a table for two people at eight."
        );
        assert_eq!(told(routine, "We had the table for two hours."), "We had the table for two hours.");
        assert_eq!(told(routine, "A table for one, please."), "A table for one, please.");
    }

    #[test]
    fn a_little_after_a_time_of_day() {
        assert_eq!(told(routine, "We got home just after midnight."), "We got home shortly after midnight.");
        assert_eq!(told(routine, "She left just before six."), "She left shortly before six.");
        assert_eq!(told(routine, "It's just after six."), "It's just after six.");
        assert_eq!(
            told(routine, "It arrived just after six people left."),
            "It arrived just after six people left."
        );
        assert_eq!(told(routine, "It stopped just after the bridge."), "It stopped just after the bridge.");
    }

    #[test]
    fn through_a_whole_event() {
        assert_eq!(
            told(routine, "He talked all the way through the film."),
            "He talked throughout the film."
        );
        assert_eq!(
            told(routine, "We walked all the way through the forest."),
            "We walked all the way through the forest."
        );
    }

    #[test]
    fn how_often_in_most_days() {
        assert_eq!(
            told(routine, "She took the dog to the park most days."),
            "She took the dog to the park on most days."
        );
        assert_eq!(told(routine, "Most days, I walk to work."), "on most days, I walk to work.");
        assert_eq!(
            told(routine, "We went to the market most weekends in summer."),
            "We went to the market on most weekends in summer."
        );
        assert_eq!(told(routine, "I hate most days."), "I hate most days.");
        assert_eq!(told(routine, "It rained for most days."), "It rained for most days.");
        assert_eq!(told(routine, "Most days are quiet."), "Most days are quiet.");
    }

    #[test]
    fn rough_lengths_of_time() {
        assert_eq!(told(routine, "The ride took about an hour."), "The ride took an hour or so.");
        assert_eq!(told(routine, "We stayed for around ten minutes."), "We stayed for ten minutes or so.");
        assert_eq!(told(routine, "We talked about an hour."), "We talked about an hour.");
        assert_eq!(told(routine, "It only took about an hour."), "It only took around an hour.");
        assert_eq!(
            told(routine, "It took about an hour to get there."),
            "It took around an hour to get there."
        );
    }

    #[test]
    fn distances_told_by_time() {
        assert_eq!(
            told(routine, "The flat is a ten-minute walk from the station."),
            "The flat is ten minutes' walk from the station."
        );
        assert_eq!(
            told(routine, "I took a ten-minute walk to the shops."),
            "I took a ten-minute walk to the shops."
        );
        assert_eq!(told(routine, "It is a ten-minute walk every day."), "It is a ten-minute walk every day.");
    }

    #[test]
    fn margins_of_one() {
        assert_eq!(
            told(routine, "The team lost the final by one point."),
            "The team lost the final by a single point."
        );
        assert_eq!(told(routine, "They won by a single goal."), "They won by one goal.");
        assert_eq!(told(routine, "It was extended by one week."), "It was extended by one week.");
    }

    #[test]
    fn sums_payments_and_greetings() {
        assert_eq!(told(routine, "The bus came to a stop."), "The bus came to a stop.");
        assert_eq!(told(routine, "The price came to mind."), "The price came to mind.");
        assert_eq!(told(routine, "She paid by card."), "She paid with a card.");
        assert_eq!(told(routine, "We paid in cash."), "We paid with cash.");
        assert_eq!(told(routine, "We arrived by car."), "We arrived by car.");
        assert_eq!(told(routine, "She shook my hand."), "She shook hands with me.");
        assert_eq!(told(routine, "He shook his hand free."), "He shook his hand free.");
        assert_eq!(told(routine, "She shook her head."), "She shook her head.");
    }

    #[test]
    fn kilos_counted() {
        assert_eq!(told(routine, "I bought two kilos of potatoes."), "I bought two kilograms of potatoes.");
        assert_eq!(told(routine, "It weighs a few kilos."), "It weighs a few kilos.");
    }

    #[test]
    fn rates_of_money_and_distance() {
        assert_eq!(told(routine, "It charges three pounds an hour."), "It charges three pounds per hour.");
        assert_eq!(told(routine, "I swim three times a week."), "I swim three times a week.");
    }

    #[test]
    fn journeys_of_the_subject() {
        assert_eq!(
            told(routine, "We got lost on the way to the hotel."),
            "We got lost on our way to the hotel."
        );
        assert_eq!(
            told(routine, "The traffic was bad on the way to work."),
            "The traffic was bad on the way to work."
        );
        assert_eq!(told(routine, "They live on the way to town."), "They live on the way to town.");
        // The commonest verbs' pasts, which the lexicon does not analyse, tell a journey too; not
        // their present.
        assert_eq!(
            told(routine, "I got a flat tyre on the way to work."),
            "I got a flat tyre on my way to work."
        );
        assert_eq!(told(routine, "I get a coffee on the way to work."), "I get a coffee on the way to work.");
        assert_eq!(
            told(routine, "He said we got lost on the way to the hotel."),
            "He said we got lost on the way to the hotel."
        );
    }

    #[test]
    fn meetings_moved_in_time() {
        assert_eq!(
            told(routine, "The meeting has been moved to Thursday."),
            "The meeting has been rescheduled for Thursday."
        );
        assert_eq!(
            told(routine, "It was rescheduled for next Tuesday at four."),
            "It was moved to next Tuesday at four."
        );
        assert_eq!(told(routine, "They moved to Canada."), "They moved to Canada.");
        assert_eq!(told(routine, "The piano was moved to the hall."), "The piano was moved to the hall.");
    }

    #[test]
    fn supplies_run_out() {
        assert_eq!(
            told(routine, "We ran out of coffee, so I had tea."),
            "We had no coffee left, so I had tea."
        );
        assert_eq!(told(routine, "The printer has run out of paper."), "The printer has no paper left.");
        assert_eq!(told(routine, "We're running out of milk."), "We're running low on milk.");
        assert_eq!(told(routine, "We have run out of milk again."), "We have run out of milk again.");
        assert_eq!(told(routine, "She ran out of the door."), "She ran out of the door.");
        // Out now, with what comes next: no past state.
        assert_eq!(
            told(routine, "We ran out of milk, so I'll pop to the shop."),
            "We ran out of milk, so I'll pop to the shop."
        );
    }

    #[test]
    fn sunset_and_sunrise() {
        assert_eq!(told(routine, "We walked until the sun went down."), "We walked until sunset.");
        assert_eq!(told(routine, "We left before the sun came up."), "We left before sunrise.");
        assert_eq!(
            told(routine, "We walked until the sun went down behind the hills."),
            "We walked until the sun went down behind the hills."
        );
    }

    #[test]
    fn plans_weighed() {
        assert_eq!(
            told(routine, "We are thinking about getting a puppy."),
            "We are considering getting a puppy."
        );
        assert_eq!(told(routine, "I was thinking about you."), "I was thinking about you.");
    }

    #[test]
    fn waits_and_deadlines() {
        assert_eq!(told(routine, "We had to wait an hour."), "We had to wait for an hour.");
        assert_eq!(told(routine, "We waited for almost an hour."), "We waited nearly an hour.");
        assert_eq!(told(routine, "We waited an hour for a table."), "We waited an hour for a table.");
        assert_eq!(
            told(routine, "Please reply by Monday at the latest."),
            "Please reply no later than Monday."
        );
    }

    #[test]
    fn conditions_results_and_closures() {
        assert_eq!(
            told(routine, "Had I known, I would have left earlier."),
            "If I had known, I would have left earlier."
        );
        assert_eq!(told(routine, "Had I known?"), "Had I known?");
        assert_eq!(told(routine, "The bank has shut down."), "The bank has closed down.");
        assert_eq!(told(routine, "The computer shut down."), "The computer shut down.");
        assert_eq!(
            told(routine, "It costs ten pounds a year in fees."),
            "It costs ten pounds per year in fees."
        );
    }

    #[test]
    fn places_of_two_words_visited() {
        use super::super::collocations::been_to_place;
        assert_eq!(told(been_to_place, "Have you ever been to New York?"), "Have you ever visited New York?");
        assert_eq!(told(been_to_place, "Have you ever been to Paris?"), "Have you ever visited Paris?");
        assert_eq!(
            told(been_to_place, "Have you ever been to New places?"),
            "Have you ever been to New places?"
        );
    }

    #[test]
    fn clock_times_by_their_part_of_day() {
        assert_eq!(told(routine, "We left at six in the morning."), "We left at 6 am.");
        assert_eq!(told(routine, "It is open until ten in the evening."), "It is open until 10 pm.");
        assert_eq!(told(routine, "We got back at ten at night."), "We got back at 10 pm.");
        assert_eq!(told(routine, "I went home at two in the evening."), "I went home at two in the evening.");
        assert_eq!(told(routine, "A table for six in the morning."), "A table for six in the morning.");
        assert_eq!(
            told(routine, "We sat until two in the morning talking."),
            "We sat until two in the morning talking."
        );
    }

    #[test]
    fn pastimes_streaks_and_arrivals() {
        assert_eq!(told(routine, "I took up painting last year."), "I started painting last year.");
        assert_eq!(told(routine, "It took up a lot of space."), "It took up a lot of space.");
        assert_eq!(
            told(routine, "They won for the third year in a row."),
            "They won for the third year running."
        );
        assert_eq!(told(routine, "Stand in a row."), "Stand in a row.");
        assert_eq!(told(routine, "He always turns up late."), "He always arrives late.");
        assert_eq!(told(routine, "He turned up the heating."), "He turned up the heating.");
    }

    #[test]
    fn services_down_and_lifetimes() {
        assert_eq!(
            told(routine, "The internet has been down since yesterday."),
            "The internet hasn't been working since yesterday."
        );
        assert_eq!(told(routine, "The prices are down."), "The prices are down.");
        assert_eq!(told(routine, "The best film I have ever seen."), "The best film I've ever seen.");
        assert_eq!(told(routine, "Have you ever been there?"), "Have you ever been there?");
    }
}
