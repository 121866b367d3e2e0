//! Rough amounts said with the other word: "about" <-> "around" and "roughly" -> "about" before a
//! count (`roughly`), "almost" <-> "nearly" (`almost_nearly`), "over" and "under" a sum or a
//! percentage as "more than" and "less than", and back (`over_sum`, `than_sum`), and a rate "per
//! hour" said "an hour" (`per_to_a`). Each rewrites only its own word: the count keeps its value
//! and its unit as written.

use super::routines::counts;
use super::shared::pause_after;
use crate::tokens::{Kind, Token, is_sentence_start, open_word, prev_word, words_back};
use crate::words::AMOUNT_UNITS;

/// Words a count before them measures with "a" or "an": "about an hour", "nearly a hundred".
const A_UNITS: &[&str] = &[
    "hour",
    "hundred",
    "thousand",
    "million",
    "dozen",
    "minute",
    "week",
    "month",
    "year",
    "day",
    "fortnight",
    "mile",
    "kilo",
    "litre",
    "metre",
    "quarter",
    "third",
];

/// A sum in figures at `k`: "£500" (one token, read as written) or "$" before its digits. The
/// index of its last token, past the groups of "£2,000" and the pence of "£5.50".
fn sum_end(tokens: &[Token], k: usize) -> Option<usize> {
    let t = tokens.get(k)?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let mut last = if t.is_word() && t.text.strip_prefix('£').is_some_and(digits) {
        k
    } else if t.is(Kind::Punct, "$") && tokens.get(k + 1).is_some_and(|n| n.is_word() && digits(&n.text)) {
        k + 1
    } else {
        return None;
    };
    while tokens.get(last + 1).is_some_and(|p| p.is(Kind::Punct, ",") || p.is(Kind::Punct, "."))
        && tokens.get(last + 2).is_some_and(|n| n.is_word() && digits(&n.text))
    {
        last += 2;
    }
    Some(last)
}

/// Where the count that starts at `k` ends (its last token), if one starts there: a number in
/// words or figures ("ten", "forty-five", "20"), a sum ("£500"), "half", or "a" or "an" before a
/// unit ("an hour", "a hundred"). "about a mistake" has no count, nor "about the 20th".
fn count_end(tokens: &[Token], k: usize) -> Option<usize> {
    if let Some(last) = sum_end(tokens, k) {
        return Some(last);
    }
    let t = tokens.get(k).filter(|t| t.is_word())?;
    let word = t.text.to_lowercase();
    // "20" (digits are read as written, frozen or not), "ten", "forty-five", "half".
    let a = ["a", "an"].contains(&word.as_str());
    if word.bytes().all(|b| b.is_ascii_digit()) || !t.frozen && (word == "half" || !a && counts(&word)) {
        return Some(k);
    }
    if t.frozen {
        return None;
    }
    let unit = open_word(tokens, k + 2).filter(|_| tokens.get(k + 1).is_some_and(|s| s.is(Kind::Space, " ")));
    (a && unit.is_some_and(|u| A_UNITS.contains(&u.as_str()))).then_some(k + 2)
}

/// Words after which "about" or "around" and a count are an amount: prepositions, the verbs
/// that measure ("took", "cost", "weighs", "lasted") and "there is". After "talked" or "thought"
/// the "about" is a topic ("We talked about two options"), after "walked" the "around" a path
/// ("walked around ten villages"), so neither is listed.
const AMOUNT_BEFORE: &[&str] = &[
    "for",
    "in",
    "after",
    "within",
    "at",
    "of",
    "to",
    "from",
    "with",
    "by",
    "than",
    "until",
    "till",
    "since",
    "before",
    "take",
    "takes",
    "took",
    "taking",
    "last",
    "lasts",
    "lasted",
    "cost",
    "costs",
    "costing",
    "weigh",
    "weighs",
    "weighed",
    "spent",
    "spend",
    "spends",
    "earn",
    "earns",
    "earned",
    "pay",
    "pays",
    "paid",
    "need",
    "needs",
    "needed",
    "have",
    "has",
    "had",
    "lose",
    "lost",
    "sleep",
    "slept",
    "sold",
    "sell",
    "sells",
    "bought",
    "raised",
    "saved",
    "save",
    "holds",
    "hold",
    "serves",
    "serve",
    "seats",
    "waited",
    "wait",
    "stayed",
    "invited",
    "expect",
    "expected",
    "expecting",
    "charged",
    "charges",
    "collected",
    "made",
    "makes",
    "drink",
    "drank",
    "eat",
    "ate",
    "lasting",
    "down",
    "up",
];

/// The forms of "be", after which "about" may still name a topic ("The film is about two
/// sisters"): there the count must measure something (`MEASURED`).
const BE: &[&str] = &["is", "was", "are", "were", "be", "been", "it's", "that's", "it’s", "that’s"];

/// What a count after "is about" measures: "is about ten miles", "was about six years old".
const MEASURED: &[&str] =
    &["old", "long", "wide", "tall", "high", "deep", "away", "late", "early", "percent", "people", "times"];

/// Whether the count from `k` to `last` stands where "about" or "around" before it tells a rough
/// amount: after a word of `AMOUNT_BEFORE`, at the start of the sentence ("About fifty people
/// came"), or after "be" when a unit or a pause follows ("It's about ten miles", "I was about
/// ten.") or "there" comes before it ("There were about twenty guests").
fn amount_place(tokens: &[Token], i: usize, last: usize) -> bool {
    let Some(before) = prev_word(tokens, i) else {
        return is_sentence_start(tokens, i);
    };
    if AMOUNT_BEFORE.contains(&before.as_str()) {
        return true;
    }
    if !BE.contains(&before.as_str()) {
        return false;
    }
    let there = words_back(tokens, i, 2).get(1).is_some_and(|w| w == "there");
    let after =
        open_word(tokens, last + 2).filter(|_| tokens.get(last + 1).is_some_and(|s| s.kind == Kind::Space));
    let measured =
        after.is_some_and(|a| AMOUNT_UNITS.contains(&a.as_str()) || MEASURED.contains(&a.as_str()));
    // "£500" carries its unit.
    let sum = sum_end(tokens, i + 2).is_some();
    there || measured || sum || pause_after(tokens, last)
}

/// "It takes about forty minutes." -> "It takes around forty minutes.", "around £60" -> "about
/// £60", "roughly two litres" -> "about two litres": a rough count with the other word, where
/// it is an amount (`amount_place`).
pub(super) fn roughly(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    let word = open_word(tokens, i)?;
    let to = match word.as_str() {
        "about" => "around",
        "around" | "roughly" | "approximately" => "about",
        _ => return None,
    };
    if !tokens.get(i + 1)?.is(Kind::Space, " ") {
        return None;
    }
    let last = count_end(tokens, i + 2)?;
    // "just about ten" is almost ten, "just around ten" not; "at around four" has its own
    // "about", and "about about" no one says.
    let before = prev_word(tokens, i);
    if before.as_deref().is_some_and(|b| ["just", "and", "or", "about", "around"].contains(&b)) {
        return None;
    }
    amount_place(tokens, i, last).then(|| (1, vec![to.to_string()]))
}

/// "almost £20" -> "nearly £20", "nearly two hours" -> "almost two hours": before a count, never
/// after a word that grades "nearly" alone ("very nearly", "not nearly", "pretty nearly").
pub(super) fn almost_nearly(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    let word = open_word(tokens, i)?;
    let to = match word.as_str() {
        "almost" => "nearly",
        "nearly" => "almost",
        _ => return None,
    };
    if !tokens.get(i + 1)?.is(Kind::Space, " ") {
        return None;
    }
    count_end(tokens, i + 2)?;
    let graded = prev_word(tokens, i).is_some_and(|b| {
        ["very", "not", "pretty", "so", "and", "or", "almost", "nearly"].contains(&b.as_str())
    });
    (!graded).then(|| (1, vec![to.to_string()]))
}

/// Words before "over" or "under" a sum that make it an amount ("raised over £500", "for under
/// £10"); after "argued" or "fell out" "over £50" is what the quarrel was about, and "just over"
/// or "well over" are no "just more than".
const SUM_BEFORE: &[&str] = &[
    "raised",
    "raise",
    "cost",
    "costs",
    "costing",
    "spent",
    "spend",
    "spends",
    "paid",
    "pay",
    "pays",
    "earn",
    "earns",
    "earned",
    "is",
    "was",
    "are",
    "were",
    "be",
    "been",
    "of",
    "for",
    "at",
    "saved",
    "save",
    "donated",
    "collected",
    "worth",
    "owe",
    "owes",
    "owed",
    "to",
    "won",
    "sold",
    "charged",
    "charges",
    "makes",
    "made",
    "rose",
    "fell",
    "by",
];

/// "The school raised over £500." -> "... raised more than £500.", "for under £10" -> "for less
/// than £10": "over" and "under" a sum in figures or a percentage ("over 50 percent"), after a
/// word that makes it an amount (`SUM_BEFORE`) or at the start of the sentence.
pub(super) fn over_sum(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    let word = open_word(tokens, i)?;
    let to: &[&str] = match word.as_str() {
        "over" => &["more", "than"],
        "under" => &["less", "than"],
        _ => return None,
    };
    if !tokens.get(i + 1)?.is(Kind::Space, " ") {
        return None;
    }
    let summed = sum_end(tokens, i + 2).is_some() || percent_at(tokens, i + 2);
    let placed = match prev_word(tokens, i) {
        Some(b) => SUM_BEFORE.contains(&b.as_str()),
        None => is_sentence_start(tokens, i),
    };
    (summed && placed).then(|| (1, to.iter().map(|w| (*w).to_string()).collect()))
}

/// Whether a percentage in figures starts at `k`: "50 percent", "50%".
fn percent_at(tokens: &[Token], k: usize) -> bool {
    let digits = tokens.get(k).is_some_and(|t| t.is_word() && t.text.bytes().all(|b| b.is_ascii_digit()));
    digits
        && (tokens.get(k + 1).is_some_and(|t| t.is(Kind::Punct, "%"))
            || (tokens.get(k + 1).is_some_and(|t| t.is(Kind::Space, " "))
                && open_word(tokens, k + 2).is_some_and(|w| ["percent", "per"].contains(&w.as_str()))))
}

/// "more than £800" -> "over £800", "less than £10" -> "under £10": the other way of `over_sum`
/// for a sum in figures, never after a word that grades the comparison ("much more than £800",
/// "no less than £10"), which "over" and "under" cannot take.
pub(super) fn than_sum(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    let word = open_word(tokens, i)?;
    let to = match word.as_str() {
        "more" => "over",
        "less" => "under",
        _ => return None,
    };
    let spaced = |k: usize| tokens.get(k).is_some_and(|t| t.is(Kind::Space, " "));
    if !spaced(i + 1) || open_word(tokens, i + 2).as_deref() != Some("than") || !spaced(i + 3) {
        return None;
    }
    sum_end(tokens, i + 4)?;
    let graded = prev_word(tokens, i).is_some_and(|p| {
        ["no", "not", "much", "far", "any", "even", "still", "a", "lot", "slightly", "little", "bit"]
            .contains(&p.as_str())
    });
    (!graded).then(|| (3, vec![to.to_string()]))
}

/// "thirty miles per hour" -> "thirty miles an hour", "£12 per hour" -> "£12 an hour": a rate of
/// money or distance, the other way of `per_unit`; only where the rate ends its clause or a
/// preposition follows ("per hour in town"), and never of "per cent" or "per person", whose
/// "a person" reads as one person.
pub(super) fn per_to_a(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    if open_word(tokens, i)? != "per" || !tokens.get(i + 1)?.is(Kind::Space, " ") {
        return None;
    }
    let span = open_word(tokens, i + 2)?;
    let article = match span.as_str() {
        "hour" => "an",
        "day" | "week" | "month" | "year" | "night" => "a",
        _ => return None,
    };
    // The rate's measure before "per": a unit, or a sum in figures ("£12 per hour").
    let named = prev_word(tokens, i).is_some_and(|p| {
        ["pounds", "dollars", "euros", "pence", "miles", "kilometres", "calories", "litres"]
            .contains(&p.as_str())
    }) || (i >= 2 && tokens[i - 1].is(Kind::Space, " ") && tokens[i - 2].text.starts_with('£'));
    let ends = pause_after(tokens, i + 2)
        || (tokens.get(i + 3).is_some_and(|t| t.is(Kind::Space, " "))
            && open_word(tokens, i + 4)
                .is_some_and(|n| ["in", "on", "for", "and", "but"].contains(&n.as_str())));
    (named && ends).then(|| (3, vec![article.to_string(), span]))
}

#[cfg(test)]
mod tests {
    use super::super::shared::told;
    use super::*;

    #[test]
    fn a_rough_count_with_the_other_word() {
        assert_eq!(told(roughly, "It takes about forty minutes."), "It takes around forty minutes.");
        assert_eq!(told(roughly, "We spent around £60 on food."), "We spent about £60 on food.");
        assert_eq!(told(roughly, "We invited about fifty people."), "We invited around fifty people.");
        assert_eq!(told(roughly, "There were about twenty guests."), "There were around twenty guests.");
        assert_eq!(told(roughly, "It is about ten miles away."), "It is around ten miles away.");
        assert_eq!(told(roughly, "I drink roughly two litres a day."), "I drink about two litres a day.");
    }

    #[test]
    fn a_topic_or_a_path_keeps_its_word() {
        for text in [
            "We talked about two options.",
            "The film is about two sisters.",
            "The tax office phoned me about a mistake.",
            "We walked around ten villages.",
            "It's just about ten miles.",
            "I was about to leave.",
        ] {
            assert_eq!(told(roughly, text), text);
        }
    }

    #[test]
    fn almost_and_nearly_before_a_count() {
        assert_eq!(told(almost_nearly, "I paid almost £20 for it."), "I paid nearly £20 for it.");
        assert_eq!(told(almost_nearly, "We waited nearly an hour."), "We waited almost an hour.");
        assert_eq!(told(almost_nearly, "It was very nearly ten."), "It was very nearly ten.");
        assert_eq!(told(almost_nearly, "I almost forgot."), "I almost forgot.");
    }

    #[test]
    fn over_and_under_a_sum() {
        assert_eq!(told(over_sum, "The school raised over £500."), "The school raised more than £500.");
        assert_eq!(told(over_sum, "It was under £10."), "It was less than £10.");
        assert_eq!(told(than_sum, "It cost more than £800."), "It cost over £800.");
        for text in ["They argued over £50.", "It cost just over £10.", "It cost much more than £800."] {
            assert_eq!(told(over_sum, text), text);
            assert_eq!(told(than_sum, text), text);
        }
    }

    #[test]
    fn a_rate_per_hour_with_an_article() {
        assert_eq!(
            told(per_to_a, "The limit is thirty miles per hour."),
            "The limit is thirty miles an hour."
        );
        for text in ["Dinner is twenty pounds per person.", "It does forty miles per gallon."] {
            assert_eq!(told(per_to_a, text), text);
        }
    }
}
