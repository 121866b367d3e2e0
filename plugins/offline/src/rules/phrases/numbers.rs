//! Numbers, times and dates in their other spoken or written forms: clock times said in words
//! (`spoken_time`) and from figures with "am" or "pm" (`clock_in_words`), the ends of a range of
//! time (`range_of_time`), numbers from ten in digits with their measures, and sums in figures
//! where the sentence speaks of money (`number_in_digits`, `large_sum_in_figures`) or in words
//! (`money_in_words`), a wait's length with or without "for" (`waited_for`), dates (`date_form`),
//! decades (`decade_in_words`), the days that come round (`habitual_day`, `every_second`) and a
//! place in a contest (`placed_in_contest`).

use crate::tokens::{Kind, Token, matches_at, next_word, open_word, prev_word};
use crate::words::OBJECT_PREPOSITIONS;

/// Ordinals said as words, for the days of a month.
const ORDINALS: &[&str] = &[
    "first",
    "second",
    "third",
    "fourth",
    "fifth",
    "sixth",
    "seventh",
    "eighth",
    "ninth",
    "tenth",
    "eleventh",
    "twelfth",
    "thirteenth",
    "fourteenth",
    "fifteenth",
    "sixteenth",
    "seventeenth",
    "eighteenth",
    "nineteenth",
    "twentieth",
    "twenty-first",
    "twenty-second",
    "twenty-third",
    "twenty-fourth",
    "twenty-fifth",
    "twenty-sixth",
    "twenty-seventh",
    "twenty-eighth",
    "twenty-ninth",
    "thirtieth",
    "thirty-first",
];

/// The round ordinals past the days of a month, with their numbers.
const ROUND_ORDINALS: &[(&str, u32)] = &[
    ("fortieth", 40),
    ("fiftieth", 50),
    ("sixtieth", 60),
    ("seventieth", 70),
    ("eightieth", 80),
    ("ninetieth", 90),
    ("hundredth", 100),
];

/// "my grandfather's ninetieth birthday" -> "my grandfather's 90th birthday": an ordinal from
/// tenth before "birthday" or "anniversary", written as birthday cards write it (below tenth the
/// word reads better: "her first birthday" stays).
pub(super) fn ordinal_birthday(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    let word = open_word(tokens, i)?;
    let number = ORDINALS
        .iter()
        .position(|o| *o == word)
        .map(|k| k as u32 + 1)
        .or_else(|| ROUND_ORDINALS.iter().find(|(o, _)| *o == word).map(|&(_, n)| n))
        .filter(|&n| n >= 10)?;
    let next = next_word(tokens, i)?;
    if !["birthday", "anniversary"].contains(&next.as_str()) || !tokens.get(i + 1)?.is(Kind::Space, " ") {
        return None;
    }
    let suffix = match (number % 10, number % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    Some((1, vec![format!("{number}{suffix}")]))
}

/// A date in its other written form: "the third of April" -> "3 April". Only from words: a date
/// in digits is kept as written ("12 March", "the 14th of June"), as every number is.
pub(super) fn date_form(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    let word = |k: usize| tokens.get(k).filter(|t| t.is_word() && !t.frozen).map(|t| t.text.clone());
    let spaced = |k: usize| tokens.get(k).is_some_and(|t| t.is(Kind::Space, " "));
    if word(i)?.as_str() != "the" || !spaced(i + 1) || !spaced(i + 3) || !spaced(i + 5) {
        return None;
    }
    if word(i + 4).as_deref() != Some("of") {
        return None;
    }
    let day = word(i + 2)?.to_lowercase();
    let n = ORDINALS.iter().position(|o| *o == day)? + 1;
    // "from the third to the seventeenth of August": with another day of the month in words
    // the date stays as it is, so both ends of a range keep one form.
    let ranged = tokens[..i]
        .iter()
        .chain(&tokens[(i + 7).min(tokens.len())..])
        .any(|t| t.is_word() && ORDINALS.contains(&t.text.to_lowercase().as_str()));
    if ranged {
        return None;
    }
    // The month keeps its capital; "May" is a month in this shape.
    let name = word(i + 6).filter(|w| {
        let lower = w.to_lowercase();
        crate::shape::is_title(w) && (crate::words::MONTHS.contains(&lower.as_str()) || lower == "may")
    })?;
    Some((7, vec![n.to_string(), name]))
}

/// Hours said as words, for the clock times.
pub(super) const HOURS: &[&str] =
    &["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"];

/// The prepositions of time a clock time follows when it is one ("at seven", "until half past
/// nine"): a number after anything else may count people or years ("a table for eight").
const TIME_PREPOSITIONS: &[&str] =
    &["at", "until", "till", "by", "before", "after", "since", "from", "to", "around", "about"];

/// Minutes past or to the hour said in words, with their number.
const CLOCK_MINUTES: &[(&str, u32)] =
    &[("five", 5), ("ten", 10), ("twenty", 20), ("twenty-five", 25), ("quarter", 15), ("half", 30)];

/// A clock time at `i` in its other spoken form: "half past nine" -> "nine thirty", "a quarter
/// past ten" -> "ten fifteen", "ten past nine" -> "nine ten", "a quarter to eight" -> "seven
/// forty-five", "twenty to six" -> "five forty", "seven o'clock" -> "seven", and back for the
/// quarters ("six thirty" -> "half past six"); the words it covers and
/// the new ones. Only after a preposition of time, except the forms with "past", which are times
/// wherever they stand ("ten to one" may be odds). Never from digits: numbers are kept as written.
pub(super) fn spoken_time(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    let hour_at = |k: usize| {
        let t = tokens.get(k).filter(|t| t.is_word() && !t.frozen)?;
        HOURS.iter().position(|h| t.text.eq_ignore_ascii_case(h))
    };
    let word = |k: usize| tokens.get(k).filter(|t| t.is_word()).map(|t| t.text.to_lowercase());
    let spaced = |k: usize| tokens.get(k).is_some_and(|t| t.is(Kind::Space, " "));
    let before = (0..i).rev().find(|&k| tokens[k].is_word()).map(|k| tokens[k].text.to_lowercase());
    let timed = before.as_deref().is_some_and(|b| TIME_PREPOSITIONS.contains(&b));
    let hour = |h: usize| HOURS[h % 12].to_string();
    // "half past nine", "a quarter to eight", "ten past six": the minutes, "past" or "to", the hour.
    let article = usize::from(matches_at(tokens, i, &["a", "quarter"]));
    let minutes_at = i + 2 * article;
    if let Some(&(name, minutes)) = word(minutes_at).and_then(|w| CLOCK_MINUTES.iter().find(|(n, _)| *n == w))
        && (article == 0 || name == "quarter")
        && spaced(minutes_at + 1)
        && spaced(minutes_at + 3)
        // "at five this morning": "five" alone is an hour, read below.
        && let Some(relation) = word(minutes_at + 2).filter(|r| ["past", "to"].contains(&r.as_str()))
        && let Some(h) = hour_at(minutes_at + 4)
    {
        let len = minutes_at + 5 - i;
        // "grown from five to twelve people": a range of a count, not a time.
        let counted = word(minutes_at + 6).is_some_and(|n| crate::words::is_noun(&n) && n != "tonight")
            && spaced(minutes_at + 5);
        if counted {
            return None;
        }
        // "open from five to six" is a range of two hours, not five to six: after "from" the
        // minutes "to" an hour are a time only where the range's own end follows ("from twenty to
        // nine until ten").
        let range_end =
            word(minutes_at + 6).is_some_and(|n| ["until", "till", "to", "and"].contains(&n.as_str()));
        let ranged = before.as_deref() == Some("from") && !range_end;
        // "five past nine" would be "nine oh five"; "half to" is no time.
        return match relation.as_str() {
            "past" if minutes != 5 => Some((len, vec![hour(h), number_word(minutes)])),
            "to" if minutes != 30 && timed && !ranged => {
                Some((len, vec![hour(h + 11), number_word(60 - minutes)]))
            }
            _ => None,
        };
    }
    if !timed {
        return None;
    }
    let h = hour_at(i)?;
    // "at six thirty" -> "at half past six", "at seven forty-five" -> "at a quarter to eight": the
    // minutes ending the time ("at six thirty people" would count).
    let quarters = word(i + 2).filter(|_| spaced(i + 1)).and_then(|m| match m.as_str() {
        "thirty" => Some(vec!["half".to_string(), "past".to_string(), hour(h)]),
        "fifteen" => Some(vec!["a".to_string(), "quarter".to_string(), "past".to_string(), hour(h)]),
        "forty-five" => Some(vec!["a".to_string(), "quarter".to_string(), "to".to_string(), hour(h + 1)]),
        _ => None,
    });
    let counts_after =
        word(i + 4).is_some_and(|n| crate::words::is_noun(&n) && n != "tonight") && spaced(i + 3);
    if let Some(quarters) = quarters
        && !counts_after
    {
        return Some((3, quarters));
    }
    let oclock = tokens
        .get(i + 2)
        .is_some_and(|t| t.is_word() && ["o'clock", "o’clock"].contains(&t.text.to_lowercase().as_str()));
    // "left at five o'clock to get a spot" keeps it: "at five to get" would read as a time to
    // the hour until its last word.
    let minutes_read = word(i + 4).is_some_and(|n| ["to", "past"].contains(&n.as_str()));
    if oclock {
        return (spaced(i + 1) && !minutes_read).then(|| (3, vec![hour(h)]));
    }
    // "closes at six" -> "closes at six o'clock": only after a word that says something happens at
    // a time of day (an age may follow "at": "started school at five", "learned to read at six"),
    // and with nothing after the hour that could count or tell the minutes ("at six thirty").
    // The word before the preposition, past a "just" ("arrived just before seven").
    let before_preposition = (0..i)
        .rev()
        .filter(|&k| tokens[k].is_word())
        .map(|k| tokens[k].text.to_lowercase())
        .skip(1)
        .find(|w| w != "just");
    let scheduled = before_preposition.as_deref().is_some_and(|w| SCHEDULED.contains(&w));
    let after_ok = match tokens.get(i + 1) {
        None => true,
        Some(t) if t.kind == Kind::Punct => t.text != ":",
        Some(_) => word(i + 2).filter(|_| spaced(i + 1)).is_some_and(|next| {
            ["tonight", "tomorrow", "today", "on", "every", "in", "this", "and", "but", "so"]
                .contains(&next.as_str())
        }),
    };
    // After "at", "before", "after" or "by": "open until ten o'clock" would invite the time to the
    // front ("Until ten o'clock, the shop is open.").
    let at = before.as_deref().is_some_and(|b| ["at", "before", "after", "by"].contains(&b));
    // "woke up at five this morning": with its part of the day after it the number is an hour
    // whatever the verb, where "at five" alone may be an age.
    let day_part = spaced(i + 1) && part_of_day_at(tokens, i + 2);
    (at && (scheduled && after_ok || day_part)).then(|| (1, vec![hour(h), "o'clock".to_string()]))
}

/// Whether the words from `k` name a part of a day ("this morning", "tomorrow evening", "last
/// night", "in the afternoon", "at night", "tonight").
fn part_of_day_at(tokens: &[Token], k: usize) -> bool {
    const PARTS: &[&str] = &["morning", "afternoon", "evening"];
    let word = |k: usize| open_word(tokens, k);
    let spaced = |k: usize| tokens.get(k).is_some_and(|t| t.is(Kind::Space, " "));
    let Some(first) = word(k) else { return false };
    let part = |k: usize| spaced(k - 1) && word(k).is_some_and(|p| PARTS.contains(&p.as_str()));
    match first.as_str() {
        "tonight" => true,
        "this" | "tomorrow" | "yesterday" => part(k + 2),
        "last" => part(k + 2) || spaced(k + 1) && word(k + 2).as_deref() == Some("night"),
        "in" => spaced(k + 1) && word(k + 2).as_deref() == Some("the") && part(k + 4),
        "at" => spaced(k + 1) && word(k + 2).as_deref() == Some("night"),
        _ => false,
    }
}

/// Words after which "at" and an hour tell a time of day ("opens at nine", "home at six", "up at
/// seven"), so that "o'clock" may follow the hour.
const SCHEDULED: &[&str] = &[
    "open",
    "opens",
    "opened",
    "close",
    "closes",
    "closed",
    "shut",
    "shuts",
    "start",
    "starts",
    "started",
    "begin",
    "begins",
    "began",
    "finish",
    "finishes",
    "finished",
    "end",
    "ends",
    "ended",
    "leave",
    "leaves",
    "left",
    "arrive",
    "arrives",
    "arrived",
    "meet",
    "meets",
    "met",
    "home",
    "up",
    "back",
    "dinner",
    "lunch",
    "breakfast",
    "here",
    "there",
    "ready",
    "bed",
    "work",
];

/// A number of minutes from ten to fifty-nine said in words: 10 -> "ten", 45 -> "forty-five".
fn number_word(n: u32) -> String {
    let name = |list: &[(&'static str, u32)], v: u32| list.iter().find(|(_, x)| *x == v).map(|(w, _)| *w);
    match (name(TENS_AND_TEENS, n), name(TENS_AND_TEENS, n - n % 10), name(UNITS_BELOW_TEN, n % 10)) {
        (Some(exact), _, _) => exact.to_string(),
        (None, Some(tens), Some(unit)) => format!("{tens}-{unit}"),
        _ => n.to_string(),
    }
}

/// A day that comes round, both ways: "every Sunday" <-> "on Sundays", "every Sunday morning" <->
/// "on Sunday mornings", "every weekend" <-> "on weekends"; the words it covers and the new ones.
/// Not in a list of days ("on Mondays and Fridays"), where every day of the list would have to
/// change, nor after a preposition ("the first Monday of every month" has no "on").
pub(super) fn habitual_day(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    const DAYS: &[&str] =
        &["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "weekday", "weekend"];
    const PARTS: &[&str] = &["morning", "afternoon", "evening", "night"];
    let word = |k: usize| open_word(tokens, k);
    let spaced = |k: usize| tokens.get(k).is_some_and(|t| t.is(Kind::Space, " "));
    let every = match word(i)?.as_str() {
        "every" => true,
        "on" => false,
        _ => return None,
    };
    let plural = |w: &str| format!("{w}s");
    let at = |k: usize| word(k).filter(|_| spaced(k - 1));
    // "every Sunday morning" and "on Sunday mornings": the day singular before a part of the day;
    // "on Sundays" alone.
    let day_word = at(i + 2)?;
    let part_word = at(i + 4);
    let part = PARTS.iter().copied().find(|p| {
        let part = part_word.as_deref();
        if every { part == Some(*p) } else { part == Some(plural(p).as_str()) }
    });
    let day = DAYS
        .iter()
        .copied()
        .find(|d| if every || part.is_some() { day_word == *d } else { day_word == plural(d) })?;
    let last = i + if part.is_some() { 4 } else { 2 };
    let listed = |w: Option<String>| w.is_some_and(|w| ["and", "or"].contains(&w.as_str()));
    let before = prev_word(tokens, i);
    if listed(next_word(tokens, last)) || listed(before.clone()) {
        return None;
    }
    // "extended its opening hours on Saturdays" are the hours kept on each Saturday, where "every
    // Saturday" would tell a change made again each week.
    if before.as_deref().is_some_and(|b| crate::words::SCHEDULES.contains(&b)) {
        return None;
    }
    if every && before.is_some_and(|b| OBJECT_PREPOSITIONS.contains(&b.as_str()) || b == "on") {
        return None;
    }
    // "never works on Sundays" is no Sunday at all; "never works every Sunday" would leave some.
    let denied = tokens[..i].iter().any(|t| {
        let w = t.text.to_lowercase().replace('’', "'");
        t.is_word()
            && (["never", "not", "cannot", "no", "rarely", "seldom", "hardly"].contains(&w.as_str())
                || w.ends_with("n't"))
    });
    // "Are there trains on Sundays?" asks about any Sunday, "every Sunday" about each.
    if tokens.iter().rev().find(|t| !t.is(Kind::Space, " ")).is_some_and(|t| t.text == "?") {
        return None;
    }
    // And "can't afford to go out every weekend" is not every one, where "on weekends" is none.
    if denied {
        return None;
    }
    // "usually cuts the grass on Saturday mornings": "every Saturday morning" would say each one,
    // against the "usually"; and "always forgets ... on Thursdays", which another rule may tell
    // as "never remembers", would read "never ... every Thursday", not every week.
    let hedged = tokens[..i].iter().any(|t| {
        [
            "usually",
            "often",
            "sometimes",
            "normally",
            "generally",
            "occasionally",
            "frequently",
            "mostly",
            "always",
            "never",
            "forgets",
            "forget",
            "forgot",
        ]
        .contains(&t.text.to_lowercase().as_str())
    });
    if !every && hedged {
        return None;
    }
    // "I've been cooking it every weekend since": a run up to now counts each one, where "on
    // weekends" would tell only a habit.
    if every && tokens.iter().any(|t| t.is_word() && t.text.eq_ignore_ascii_case("since")) {
        return None;
    }
    // "Last summer they had a barbecue every weekend": in a past account "on weekends" may be
    // some of them, and "every" was the point; only a present habit says both alike.
    let stop = |t: &&Token| ![".", "!", "?"].contains(&t.text.as_str());
    // A participle after "be" or "have" ("is closed on Mondays") tells no past, nor a past verb
    // of deciding before an infinitive ("agreed to meet every Monday"), whose habit is to come.
    let mut sentence: Vec<String> = tokens[..i]
        .iter()
        .rev()
        .take_while(stop)
        .chain(tokens[i..].iter().take_while(stop))
        .filter(|t| t.is_word())
        .map(|t| t.text.to_lowercase().replace('’', "'"))
        .collect();
    let before = tokens[..i].iter().rev().take_while(stop).filter(|t| t.is_word()).count();
    sentence[..before].reverse();
    let past = sentence.iter().enumerate().any(|(k, w)| {
        let auxiliary = k > 0 && {
            let b = &sentence[k - 1];
            crate::words::BE_FORMS.contains(&b.as_str())
                || crate::words::HAVE_FORMS.contains(&b.as_str())
                || ["'s", "'re", "'m", "'ve"].iter().any(|end| b.ends_with(end))
        };
        ["last", "ago", "yesterday", "used"].contains(&w.as_str())
            || !auxiliary
                && sentence.get(k + 1).is_none_or(|n| n != "to")
                && crate::words::finite_lemma(w, crate::words::Tense::Past, false).is_some()
    });
    // "has closed the tip on Sundays" is a rule now in force; "every Sunday" after a perfect
    // would make it an act done again and again.
    // Only in the day's own clause: "I've joined a club that meets on Wednesdays" keeps it.
    const BOUNDS: &[&str] = &["that", "which", "who", "where", "when", "because", "and", "but", "so", "if"];
    let bound = |k: &usize| BOUNDS.contains(&sentence[*k].as_str());
    let from = (0..before).rev().find(bound).map_or(0, |k| k + 1);
    let to = (before..sentence.len()).find(bound).unwrap_or(sentence.len());
    let perfect = (from.max(1)..to).any(|k| {
        let have = &sentence[k - 1];
        let have = crate::words::HAVE_FORMS.contains(&have.as_str()) || have.ends_with("'ve");
        have && crate::words::participle_lemma(&sentence[k]).is_some()
    });
    if past || perfect {
        return None;
    }
    let name = if day.starts_with("week") {
        day.to_string()
    } else {
        let mut c = day.chars();
        c.next().map(|f| f.to_ascii_uppercase().to_string() + c.as_str()).unwrap_or_default()
    };
    let words = match (every, part) {
        (true, None) => vec!["on".to_string(), plural(&name)],
        (true, Some(p)) => vec!["on".to_string(), name, plural(p)],
        (false, None) => vec!["every".to_string(), name],
        (false, Some(p)) => vec!["every".to_string(), name, p.to_string()],
    };
    Some((last + 1 - i, words))
}

/// The number words from ten up that are written in digits before a unit ("forty minutes" ->
/// "40 minutes"); below ten, English writes the word.
pub(super) const TENS_AND_TEENS: &[(&str, u32)] = &[
    ("ten", 10),
    ("eleven", 11),
    ("twelve", 12),
    ("thirteen", 13),
    ("fourteen", 14),
    ("fifteen", 15),
    ("sixteen", 16),
    ("seventeen", 17),
    ("eighteen", 18),
    ("nineteen", 19),
    ("twenty", 20),
    ("thirty", 30),
    ("forty", 40),
    ("fifty", 50),
    ("sixty", 60),
    ("seventy", 70),
    ("eighty", 80),
    ("ninety", 90),
];
pub(super) const UNITS_BELOW_TEN: &[(&str, u32)] = &[
    ("one", 1),
    ("two", 2),
    ("three", 3),
    ("four", 4),
    ("five", 5),
    ("six", 6),
    ("seven", 7),
    ("eight", 8),
    ("nine", 9),
];

/// Units a number in digits reads naturally before, and the currencies written with their sign.
const MEASURES: &[&str] = &[
    "minutes",
    "hours",
    "days",
    "weeks",
    "months",
    "years",
    "seconds",
    "people",
    "miles",
    "kilometres",
    "kilometers",
    "metres",
    "meters",
    "kilos",
    "percent",
    "pages",
    "euros",
    "guests",
    "students",
    "copies",
    "tickets",
    "items",
];
const CURRENCIES: &[(&str, &str)] = &[("pounds", "£"), ("dollars", "$")];

/// "waited two hours" -> "waited for two hours": a wait's length, counted, takes "for" or not
/// alike. Only a count and a unit of time ("waited an hour", "waited 40 minutes"), never "waited
/// two days before replying"'s other readings, which a count of anything else would allow.
pub(super) fn waited_for(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    let word = |k: usize| open_word(tokens, k);
    let verb = word(i)?;
    if !["wait", "waits", "waited", "waiting"].contains(&verb.as_str())
        || !tokens.get(i + 1)?.is(Kind::Space, " ")
    {
        return None;
    }
    let count = word(i + 2)?;
    let unit = word(i + 4)?;
    let one = ["an", "a", "one"].contains(&count.as_str());
    let counted = one
        || count.bytes().all(|b| b.is_ascii_digit())
        || UNITS_BELOW_TEN.iter().any(|(w, _)| *w == count)
        || TENS_AND_TEENS.iter().any(|(w, _)| *w == count)
        || ["few", "couple"].contains(&count.as_str());
    const UNITS: &[&str] = &["minute", "hour", "day", "week", "month", "year"];
    let unit_ok = UNITS.iter().any(|u| if one { unit == *u } else { unit.strip_suffix('s') == Some(*u) })
        || (count == "a" && unit == "few");
    // "waited an hour for the doctor" would have two "for"s.
    let unit_end = if count == "a" && unit == "few" { i + 6 } else { i + 4 };
    let second_for = word(unit_end + 2).is_some_and(|w| w == "for");
    (counted && unit_ok && !second_for).then(|| (1, vec![verb, "for".to_owned()]))
}

/// Whether the sentence speaks of money, where "pounds" are a sum: "pounds" are also a weight
/// ("The baby weighed eleven pounds", "I lost twelve pounds"), which "£" would turn into a sum.
fn about_money(tokens: &[Token]) -> bool {
    const MONEY: &[&str] = &[
        "cost",
        "costs",
        "costing",
        "paid",
        "pay",
        "pays",
        "paying",
        "charge",
        "charged",
        "charges",
        "charging",
        "spent",
        "spend",
        "spends",
        "spending",
        "owe",
        "owed",
        "owes",
        "raised",
        "raise",
        "raising",
        "price",
        "prices",
        "fine",
        "fined",
        "fines",
        "fee",
        "fees",
        "worth",
        "earn",
        "earned",
        "earns",
        "saved",
        "save",
        "donated",
        "donate",
        "refund",
        "refunded",
        "bought",
        "buy",
        "sold",
        "sell",
        "rent",
        "budget",
        "deposit",
        "bill",
        "wage",
        "salary",
        "tip",
        "ticket",
        "tickets",
        "afford",
        "discount",
        "bet",
        "won",
        "prize",
        "lend",
        "lent",
        "lending",
        "borrow",
        "borrowed",
        "loan",
        "loaned",
        "cash",
        "change",
        "spare",
        "cheap",
        "expensive",
        "pocket",
        "note",
        "coins",
        "withdraw",
        "withdrew",
        "reward",
        "bonus",
        "quote",
        "quoted",
        "selling",
        "sells",
    ];
    tokens.iter().any(|t| t.is_word() && MONEY.contains(&t.text.to_ascii_lowercase().as_str()))
}

/// A number said in words from ten to ninety-nine before a unit, written in digits: "forty
/// pounds" -> "£40", "twenty-five minutes" -> "25 minutes". The words it covers and the new text.
pub(super) fn number_in_digits(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    let word = |k: usize| open_word(tokens, k);
    let first = word(i)?;
    let digits = |w: &str| !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit());
    // "45 dollars" -> "$45": digits take the sign of their currency.
    if first.len() <= 6 && digits(&first) {
        // "320,000 dollars": the digits after a thousands comma are the end of one number, which
        // is read from its first group.
        if i > 0 && tokens[i - 1].kind == Kind::Punct {
            return None;
        }
        let mut last = i;
        while tokens.get(last + 1).is_some_and(|t| t.is(Kind::Punct, ","))
            && tokens.get(last + 2).is_some_and(|t| t.text.len() == 3 && digits(&t.text))
        {
            last += 2;
        }
        let unit = word(last + 2)?;
        let (_, sign) = CURRENCIES.iter().find(|(w, _)| *w == unit)?;
        if !tokens[last + 1].is(Kind::Space, " ") || !about_money(tokens) {
            return None;
        }
        let number: String = tokens[i..=last].iter().map(|t| t.text.as_str()).collect();
        return Some((last + 3 - i, vec![format!("{sign}{number}")]));
    }
    let (value, last) = match first.split_once('-') {
        Some((tens, unit)) => {
            let tens = TENS_AND_TEENS.iter().find(|(w, v)| *w == tens && v % 10 == 0 && *v >= 20)?.1;
            (tens + UNITS_BELOW_TEN.iter().find(|(w, _)| *w == unit)?.1, i)
        }
        // "three hundred pounds" -> "£300": a whole number of hundreds.
        None if word(i + 2).as_deref() == Some("hundred") && tokens[i + 1].is(Kind::Space, " ") => {
            (UNITS_BELOW_TEN.iter().find(|(w, _)| *w == first)?.1 * 100, i + 2)
        }
        // "three pounds" -> "£3": a sum is written in figures whatever its size, where a count
        // of days or people below ten stays in words.
        None => match TENS_AND_TEENS.iter().find(|(w, _)| *w == first) {
            Some((_, v)) => (*v, i),
            None if word(i + 2).is_some_and(|u| CURRENCIES.iter().any(|(c, _)| *c == u)) => {
                (UNITS_BELOW_TEN.iter().find(|(w, v)| *w == first && *v > 1)?.1, i)
            }
            None => return None,
        },
    };
    // "a hundred and forty", "forty thousand": part of a larger number; and a sentence does not
    // open with digits.
    let before = (0..i).rev().find(|&k| tokens[k].is_word()).map(|k| tokens[k].text.to_lowercase());
    if before.as_deref().is_none_or(|b| ["and", "hundred", "thousand"].contains(&b)) {
        return None;
    }
    let unit = word(last + 2)?;
    if !tokens.get(last + 1).is_some_and(|t| t.is(Kind::Space, " ")) {
        return None;
    }
    // One style of number in a sentence: with another number said in words ("ten minutes ... half
    // an hour"), digits for this one would mix the two.
    let number_word = |t: &Token| {
        let w = t.text.to_lowercase();
        UNITS_BELOW_TEN.iter().any(|(u, _)| *u == w)
            || TENS_AND_TEENS.iter().any(|(u, _)| *u == w)
            || ["half", "hundred", "thousand", "dozen"].contains(&w.as_str())
    };
    if tokens.iter().enumerate().any(|(k, t)| (k < i || k > last) && t.is_word() && number_word(t)) {
        return None;
    }
    if let Some((_, sign)) = CURRENCIES.iter().find(|(w, _)| *w == unit) {
        return about_money(tokens).then(|| (last + 3 - i, vec![format!("{sign}{value}")]));
    }
    (MEASURES.contains(&unit.as_str()) || counted_things(tokens, (i, last), value, &unit))
        .then(|| (last + 3 - i, vec![value.to_string(), unit]))
}

/// Counts that name things in a set phrase, which keep their words: "forty winks", "the Ten
/// Commandments", "twenty questions" (the game).
const COUNTED_IDIOMS: &[&str] = &["winks", "commandments", "questions", "apostles", "disciples", "thieves"];

/// "The boat passed through fourteen locks." -> "... through 14 locks.": a count from ten up of
/// any plural noun, written in digits as a count is (below ten the word stays: "three cats").
/// Not after "the" or "these" ("the twelve apostles", "the forty thieves" may be a name, and
/// "the twelve of us" a group told by its size), not of a noun in a set phrase
/// (`COUNTED_IDIOMS`), nor of one with a capital ("Twelve Angry Men").
fn counted_things(tokens: &[Token], (i, last): (usize, usize), value: u32, unit: &str) -> bool {
    let named =
        prev_word(tokens, i).is_some_and(|p| ["the", "these", "those", "top", "all"].contains(&p.as_str()));
    let lower = tokens.get(last + 2).is_some_and(|t| t.text.chars().all(|c| !c.is_uppercase()));
    value >= 10 && lower && !named && !COUNTED_IDIOMS.contains(&unit) && crate::words::is_plural_noun(unit)
}

/// The kinds of point in time that end a range: a day of the week, a month or an hour.
#[derive(Clone, Copy, PartialEq)]
enum Point {
    Day,
    Month,
    Hour,
}

/// The days of the week, one at a time (with a capital in the text: "a sunday roast" is none).
const DAY_NAMES: &[&str] = &["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];

/// What kind of point in time the word at `k` names, a day ("Monday"), a month ("June") or an
/// hour ("nine", "9", "9am", "noon"); `None` for anything else, a count among them ("2019").
fn point_at(tokens: &[Token], k: usize) -> Option<Point> {
    let t = tokens.get(k).filter(|t| t.is_word() && !t.frozen)?;
    let w = t.text.to_lowercase();
    let titled = crate::shape::is_title(&t.text);
    if titled && DAY_NAMES.contains(&w.as_str()) {
        return Some(Point::Day);
    }
    if titled && crate::words::MONTHS.contains(&w.as_str()) {
        return Some(Point::Month);
    }
    let digits = w.trim_end_matches("am").trim_end_matches("pm");
    let clock = !digits.is_empty()
        && digits.len() <= 2
        && digits.bytes().all(|b| b.is_ascii_digit())
        && digits.parse::<u32>().is_ok_and(|n| (1..=12).contains(&n));
    (clock || HOURS.contains(&w.as_str()) || ["noon", "midday", "midnight"].contains(&w.as_str()))
        .then_some(Point::Hour)
}

/// Whether an hour at `k` is told as one by what follows it: "am", "pm" or "o'clock".
fn told_hour(tokens: &[Token], k: usize) -> bool {
    let w = tokens.get(k).map(|t| t.text.to_lowercase()).unwrap_or_default();
    let suffixed = (w.ends_with("am") || w.ends_with("pm")) && w.as_bytes()[0].is_ascii_digit();
    suffixed || next_word(tokens, k).is_some_and(|n| ["am", "pm", "o'clock", "o’clock"].contains(&n.as_str()))
}

/// The end of a range of time in its other word: "from nine until five" -> "from nine to five",
/// "from Monday to Friday" -> "from Monday until Friday", "open Monday through Friday" -> "open
/// from Monday to Friday". Both ends must name the same kind of point, days, months or hours;
/// "to" becomes "until" only between days or months or hours told by "am", "pm" or "o'clock",
/// since "from five to twelve" may count ("grew from five to twelve people").
pub(super) fn range_of_time(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    let word = |k: usize| open_word(tokens, k);
    let spaced = |k: usize| tokens.get(k).is_some_and(|t| t.is(Kind::Space, " "));
    let first = word(i)?;
    // "open Monday through Friday": the American range, told with "from" and "to"; read from the
    // word before the first day, which is kept, so that "from" takes no capital from the day.
    let through = spaced(i + 1)
        && point_at(tokens, i + 2) == Some(Point::Day)
        && word(i + 4).as_deref() == Some("through")
        && spaced(i + 3)
        && spaced(i + 5)
        && point_at(tokens, i + 6) == Some(Point::Day);
    if through && !["from", "to", "and", "or", "between"].contains(&first.as_str()) {
        let (start, end) = (tokens[i + 2].text.clone(), tokens[i + 6].text.clone());
        return Some((7, vec![tokens[i].text.clone(), "from".to_string(), start, "to".to_string(), end]));
    }
    if !["until", "till", "to", "through"].contains(&first.as_str()) || !spaced(i + 1) || i < 4 {
        return None;
    }
    // The start of the range right before, after "from", with an "am", "pm" or "o'clock" of its
    // own ("from 9 am until 5 pm").
    let told = |k: usize| word(k).is_some_and(|w| ["am", "pm", "o'clock", "o’clock"].contains(&w.as_str()));
    let start_k = if told(i - 2) { i - 4 } else { i - 2 };
    let after_from = start_k >= 2 && word(start_k - 2).as_deref() == Some("from");
    if !after_from || !spaced(i - 1) || !spaced(start_k + 1) || !spaced(start_k - 1) {
        return None;
    }
    let kind = point_at(tokens, start_k)?;
    let end = point_at(tokens, i + 2)?;
    if end != kind {
        return None;
    }
    // "from nine until five people" would count.
    let last = if told(i + 4) { i + 4 } else { i + 2 };
    let counted = next_word(tokens, last).is_some_and(|n| {
        crate::words::is_noun(&n)
            && !["tonight", "tomorrow", "today", "every", "each", "next", "daily"].contains(&n.as_str())
    });
    if counted {
        return None;
    }
    // "moved the meeting from Monday to Friday" is a change, not a stretch of days: "to" becomes
    // "until" only after a word that says something holds over the range ("open", "away").
    let held = start_k >= 4 && word(start_k - 4).is_some_and(|h| RANGE_HOLDERS.contains(&h.as_str()));
    let hours_told = told_hour(tokens, start_k) && told_hour(tokens, i + 2);
    match first.as_str() {
        "until" | "till" | "through" => Some((1, vec!["to".to_string()])),
        _ if held && (kind != Point::Hour || hours_told) => Some((1, vec!["until".to_string()])),
        _ => None,
    }
}

/// Words before "from" that tell something holding over a range of time ("open from", "away
/// from"), not a move from one time to another ("moved from Monday to Friday").
const RANGE_HOLDERS: &[&str] = &[
    "open",
    "closed",
    "shut",
    "away",
    "off",
    "available",
    "work",
    "works",
    "worked",
    "working",
    "runs",
    "run",
    "ran",
    "running",
    "lasts",
    "lasted",
    "on",
    "here",
    "there",
    "busy",
    "free",
    "served",
    "stay",
    "stays",
    "stayed",
    "staying",
];

/// Ordinals of a place in a race, and the events whose places they are.
const PLACES: &[&str] =
    &["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth", "last"];
const CONTESTS: &[&str] = &[
    "race",
    "marathon",
    "competition",
    "contest",
    "quiz",
    "championship",
    "championships",
    "tournament",
    "league",
    "final",
    "heat",
    "relay",
    "sprint",
    "triathlon",
    "election",
    "rally",
    "cup",
];

/// "She came third in the race." <-> "She finished third in the race.": a place in a contest,
/// with either verb. Only with the contest named after "in": "came first" alone may be what
/// matters most ("Safety came first"), and "finished first in the exam" is handing it in first.
pub(super) fn placed_in_contest(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    let word = |k: usize| open_word(tokens, k);
    let spaced = |k: usize| tokens.get(k).is_some_and(|t| t.is(Kind::Space, " "));
    let verb = word(i)?;
    let other = match verb.as_str() {
        "came" => "finished",
        "finished" => "came",
        "comes" => "finishes",
        "finishes" => "comes",
        _ => return None,
    };
    let place = word(i + 2).filter(|p| PLACES.contains(&p.as_str()) && spaced(i + 1))?;
    if word(i + 4).as_deref() != Some("in") || !spaced(i + 3) || !spaced(i + 5) {
        return None;
    }
    // The contest within the next few words of its noun phrase ("in the under-twelves race").
    let contest = (0..4)
        .map(|n| i + 6 + 2 * n)
        .take_while(|&k| {
            spaced(k - 1) && word(k).is_some_and(|w| !OBJECT_PREPOSITIONS.contains(&w.as_str()) && w != "and")
        })
        .any(|k| word(k).is_some_and(|w| CONTESTS.contains(&w.as_str())));
    contest.then(|| (3, vec![other.to_string(), place]))
}

/// A sum in figures said in words: "cost £5" -> "cost five pounds", "$20" -> "twenty dollars",
/// "50p" -> "fifty pence". Whole sums from one to ninety-nine only ("£5.50", "£5,000" and "£5m"
/// stay), and only where no other number in figures stands in the sentence, which would then mix
/// the two styles ("between £5 and £10"). "£5" and "50p" are one token each, frozen as no plain
/// word is, and read here as written; "$" is a sign of its own, so a dollar sum is read from the
/// word before it, which is kept; below ten only where the sentence speaks of money ("Use $1 for
/// the first argument" is no sum).
pub(super) fn money_in_words(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    let figures = |w: &str| {
        !w.is_empty() && w.len() <= 2 && w.bytes().all(|b| b.is_ascii_digit()) && !w.starts_with('0')
    };
    let other_figures = |from: usize, to: usize| {
        tokens
            .iter()
            .enumerate()
            .any(|(k, t)| (k < from || k > to) && t.text.bytes().any(|b| b.is_ascii_digit()))
    };
    // The sum ends where its number does: not "£5.50", "£5,000", "£5-£10".
    let whole = |k: usize| match tokens.get(k) {
        None => true,
        Some(t) if t.kind == Kind::Space => true,
        Some(t) if t.kind == Kind::Punct => {
            [".", ",", "!", "?", ";", ":"].contains(&t.text.as_str())
                && tokens.get(k + 1).is_none_or(|n| n.kind == Kind::Space)
        }
        Some(_) => false,
    };
    let text = tokens.get(i).filter(|t| t.is_word())?.text.as_str();
    // A sentence does not open with a sum in lower case words.
    let opening = crate::tokens::is_sentence_start(tokens, i);
    let pounds = text.strip_prefix('£').filter(|n| figures(n)).map(|n| (n, "pound", "pounds"));
    let pence = text.strip_suffix('p').filter(|n| figures(n)).map(|n| (n, "penny", "pence"));
    // "£12.50" -> "twelve pounds fifty": pounds and pence from ten to ninety-nine, as a price is
    // said ("£5.05" would be "five pounds five", which no one says).
    let pence_after = tokens.get(i + 2).filter(|t| {
        t.is_word()
            && t.text.len() == 2
            && t.text.bytes().all(|b| b.is_ascii_digit())
            && !t.text.starts_with('0')
    });
    if let (Some((number, _, _)), Some(p)) = (pounds, pence_after)
        && tokens.get(i + 1).is_some_and(|t| t.is(Kind::Punct, "."))
    {
        let (n, p): (u32, u32) = (number.parse().ok()?, p.text.parse().ok()?);
        if opening || !whole(i + 3) || other_figures(i, i + 2) {
            return None;
        }
        let unit = if n == 1 { "pound" } else { "pounds" };
        return Some((3, vec![spoken_number(n)?, unit.to_string(), spoken_number(p)?]));
    }
    if let Some((number, one, many)) = pounds.or(pence) {
        let n: u32 = number.parse().ok()?;
        // "1p" is "a penny", said another way.
        if opening || many == "pence" && n < 2 || !whole(i + 1) || other_figures(i, i) {
            return None;
        }
        return Some((1, vec![spoken_number(n)?, (if n == 1 { one } else { many }).to_string()]));
    }
    if !tokens.get(i + 1)?.is(Kind::Space, " ") || !tokens.get(i + 2)?.is(Kind::Punct, "$") {
        return None;
    }
    let number = tokens.get(i + 3).filter(|t| t.is_word() && figures(&t.text))?;
    let n: u32 = number.text.parse().ok()?;
    // "$1" to "$9" may be a script's arguments where nothing speaks of money.
    if !whole(i + 4) || other_figures(i + 2, i + 3) || n < 10 && !about_money(tokens) {
        return None;
    }
    let name = if n == 1 { "dollar" } else { "dollars" };
    Some((4, vec![tokens[i].text.clone(), spoken_number(n)?, name.to_string()]))
}

/// A number from one to ninety-nine said in words.
fn spoken_number(n: u32) -> Option<String> {
    match n {
        1..=9 => UNITS_BELOW_TEN.iter().find(|(_, v)| *v == n).map(|(w, _)| w.to_string()),
        10..=99 => Some(number_word(n)),
        _ => None,
    }
}

/// "the 1990s" -> "the nineties": a decade of the last century by its spoken name, from the
/// twenties on (the nineteen-tens have no everyday one). Not with a year of another century in
/// the sentence ("from the 1890s to the 1990s"), where the century would be lost.
pub(super) fn decade_in_words(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    const DECADES: &[&str] =
        &["twenties", "thirties", "forties", "fifties", "sixties", "seventies", "eighties", "nineties"];
    let word = |k: usize| open_word(tokens, k);
    let spaced = |k: usize| tokens.get(k).is_some_and(|t| t.is(Kind::Space, " "));
    if word(i)?.as_str() != "the" || !spaced(i + 1) {
        return None;
    }
    let shaded = word(i + 2).is_some_and(|w| ["early", "mid", "late"].contains(&w.as_str())) && spaced(i + 3);
    let k = if shaded { i + 4 } else { i + 2 };
    // "1990s" is frozen, as every word of digits and letters is, and read as written.
    let year = tokens.get(k).filter(|t| t.is_word())?.text.to_lowercase();
    let digits = year.strip_prefix("19")?.strip_suffix("0s")?;
    let tens: usize = digits.parse().ok().filter(|d| (2..=9).contains(d) && digits.len() == 1)?;
    let other_century = tokens.iter().enumerate().any(|(n, t)| {
        n != k
            && t.text.len() >= 4
            && t.text.bytes().take(4).all(|b| b.is_ascii_digit())
            && !t.text.starts_with("19")
    });
    if other_century || tokens.get(k + 1).is_some_and(|t| t.is_word() || t.text == "'" || t.text == "’") {
        return None;
    }
    let mut words = vec![tokens[i].text.clone()];
    if shaded {
        words.push(tokens[i + 2].text.clone());
    }
    words.push(DECADES[tens - 2].to_string());
    Some((k + 1 - i, words))
}

/// "at 7 pm" -> "at seven in the evening", "by 6 am" -> "by six in the morning": an hour in
/// figures with "am" or "pm" said in words with its part of the day (1 to 5 pm the afternoon, 6
/// to 9 the evening, 10 and 11 the night; twelve is noon or midnight, which stays). Only after a
/// preposition of time, with no other figures nor its part of the day in the sentence ("from 9 am to 5 pm" would mix
/// the two styles), and ending its clause or before a word that goes with it ("at 7 pm on
/// Friday"): the part of the day would otherwise take the words after it along ("at 7 pm
/// tonight" would say the evening twice).
pub(super) fn clock_in_words(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    let text = tokens.get(i).filter(|t| t.is_word())?.text.to_lowercase();
    let (digits, suffix, last) = match text.strip_suffix("am").or_else(|| text.strip_suffix("pm")) {
        Some(d) => (d.to_string(), text[d.len()..].to_string(), i),
        None => {
            let suffix = next_word(tokens, i).filter(|n| ["am", "pm"].contains(&n.as_str()))?;
            (text.clone(), suffix, i + 2)
        }
    };
    if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let hour: u32 = digits.parse().ok()?;
    let part: &[&str] = match (suffix.as_str(), hour) {
        ("am", 1..=11) => &["in", "the", "morning"],
        ("pm", 1..=5) => &["in", "the", "afternoon"],
        ("pm", 6..=9) => &["in", "the", "evening"],
        ("pm", 10..=11) => &["at", "night"],
        _ => return None,
    };
    // Right after the preposition: "at about six in the evening" lets "in the evening" be read
    // apart from its hour, and moved to the front as a time of its own.
    let timed = prev_word(tokens, i)
        .is_some_and(|p| ["at", "until", "till", "by", "before", "after", "since"].contains(&p.as_str()));
    // "at two in the morning and no one noticed until the morning" would say it twice.
    let said = |t: &Token| t.is_word() && part.last().is_some_and(|p| t.text.eq_ignore_ascii_case(p));
    if tokens.iter().any(said) {
        return None;
    }
    let other_figures =
        tokens.iter().enumerate().any(|(k, t)| k != i && t.text.bytes().any(|b| b.is_ascii_digit()));
    let ends = match tokens.get(last + 1) {
        None => true,
        Some(t) if t.kind == Kind::Punct => [",", ".", "!", "?", ";"].contains(&t.text.as_str()),
        Some(_) => next_word(tokens, last)
            .is_some_and(|n| ["and", "but", "so", "every", "on", "tomorrow", "today"].contains(&n.as_str())),
    };
    if !timed || other_figures || !ends {
        return None;
    }
    let mut words = vec![spoken_number(hour)?];
    words.extend(part.iter().map(|w| w.to_string()));
    Some((last + 1 - i, words))
}

/// "raised two thousand pounds" -> "raised £2,000", "thirty million pounds" -> "£30 million": a
/// sum of thousands or millions in figures, where the sentence speaks of money (a weight in
/// pounds stays in words), and not inside a larger number ("a hundred and two thousand").
pub(super) fn large_sum_in_figures(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    let word = |k: usize| open_word(tokens, k);
    let spaced = |k: usize| tokens.get(k).is_some_and(|t| t.is(Kind::Space, " "));
    let first = word(i)?;
    let value = match first.split_once('-') {
        Some((tens, unit)) => {
            let tens = TENS_AND_TEENS.iter().find(|(w, v)| *w == tens && v % 10 == 0 && *v >= 20)?.1;
            tens + UNITS_BELOW_TEN.iter().find(|(w, _)| *w == unit)?.1
        }
        None => UNITS_BELOW_TEN.iter().chain(TENS_AND_TEENS).find(|(w, _)| *w == first)?.1,
    };
    let size = word(i + 2)?;
    let (_, sign) = CURRENCIES.iter().find(|(c, _)| word(i + 4).as_deref() == Some(*c))?;
    if !["thousand", "million"].contains(&size.as_str()) || !spaced(i + 1) || !spaced(i + 3) {
        return None;
    }
    let inside =
        prev_word(tokens, i).is_none_or(|b| ["and", "hundred", "thousand", "a"].contains(&b.as_str()));
    // "the quote was four thousand pounds, the bill nearly six": another number in words leans
    // on this one's "thousand", which figures would take away.
    let number_word = |t: &Token| {
        let w = t.text.to_lowercase();
        UNITS_BELOW_TEN.iter().chain(TENS_AND_TEENS).any(|(u, _)| *u == w)
            || ["hundred", "thousand", "million", "half"].contains(&w.as_str())
    };
    let other_number =
        tokens.iter().enumerate().any(|(k, t)| (k < i || k > i + 4) && t.is_word() && number_word(t));
    if inside || other_number || !about_money(tokens) {
        return None;
    }
    let sum =
        if size == "thousand" { format!("{sign}{value},000") } else { format!("{sign}{value} million") };
    Some((5, sum.split(' ').map(str::to_string).collect()))
}

/// "every second Sunday" -> "every other Sunday": alternate days, weeks or months said the
/// other way ("every second counts" names no period, and stays).
pub(super) fn every_second(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    const PERIODS: &[&str] = &["day", "week", "weekend", "month", "year", "night", "morning", "evening"];
    let word = |k: usize| open_word(tokens, k);
    let spaced = |k: usize| tokens.get(k).is_some_and(|t| t.is(Kind::Space, " "));
    if word(i)?.as_str() != "every"
        || word(i + 2).as_deref() != Some("second")
        || !spaced(i + 1)
        || !spaced(i + 3)
    {
        return None;
    }
    let period = point_at(tokens, i + 4) == Some(Point::Day)
        || word(i + 4).is_some_and(|p| PERIODS.contains(&p.as_str()));
    period.then(|| (3, vec![tokens[i].text.clone(), "other".to_string()]))
}

/// Whether `word` is a number of two or more that "more" or "another" can count ("two",
/// "ten", "20"); not "one" ("another one day").
fn counts_more(word: &str) -> bool {
    UNITS_BELOW_TEN.iter().chain(TENS_AND_TEENS).any(|&(w, n)| w == word && n > 1)
        || word.parse::<u32>().is_ok_and(|n| (2..100).contains(&n))
}

/// "ten more minutes" <-> "another ten minutes", "two more volunteers" <-> "another two
/// volunteers": an added number of things told either way. Only before a plural noun itself, so
/// that "two more expensive hotels" (hotels dearer than others) is left; never with "than" after
/// the noun ("two more people than last year"), after a word that bounds the number ("about ten
/// more minutes", "only two more days", "the two more") or inside a larger number ("twenty two
/// more"), and never "yet another".
pub(super) fn more_or_another(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    let word = open_word(tokens, i)?;
    let spaced = |k: usize| tokens.get(k).is_some_and(|t| t.is(Kind::Space, " "));
    let (number, more) = if word == "another" {
        (open_word(tokens, i + 2)?, false)
    } else if counts_more(&word) {
        (word.clone(), open_word(tokens, i + 2)? == "more")
    } else {
        return None;
    };
    if !counts_more(&number) || !spaced(i + 1) || !spaced(i + 3) {
        return None;
    }
    let noun = open_word(tokens, i + 4)?;
    if !crate::words::is_plural_noun(&noun) || next_word(tokens, i + 4).as_deref() == Some("than") {
        return None;
    }
    /// Words that bound or pick out the number: "about another ten minutes" and "just another
    /// two days" shift the sense, "yet another" doubles it.
    const BOUNDING: &[&str] = &[
        "about", "around", "roughly", "nearly", "almost", "only", "just", "least", "yet", "the", "these",
        "those", "my", "your", "his", "her", "our", "their", "its", "and", "hundred", "thousand", "over",
        "under", "some", "any", "than", "another", "more",
    ];
    if prev_word(tokens, i).is_some_and(|p| BOUNDING.contains(&p.as_str()) || counts_more(&p)) {
        return None;
    }
    if word == "another" {
        Some((3, vec![number, "more".to_string()]))
    } else if more {
        Some((3, vec!["another".to_string(), number]))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::super::phrases;
    use crate::sites::Sites;
    use crate::tokens::{join, tokenize};

    fn phrased(text: &str) -> String {
        join(&phrases(tokenize(text), &mut crate::sites::Sites::new(crate::sites::Which::All)))
    }

    #[test]
    fn ordinal_birthdays_in_digits() {
        assert_eq!(
            super::super::shared::told(super::ordinal_birthday, "his ninetieth birthday"),
            "his 90th birthday"
        );
        assert_eq!(
            super::super::shared::told(super::ordinal_birthday, "our twenty-first anniversary"),
            "our 21st anniversary"
        );
        assert_eq!(
            super::super::shared::told(super::ordinal_birthday, "her twelfth birthday"),
            "her 12th birthday"
        );
        assert_eq!(
            super::super::shared::told(super::ordinal_birthday, "her first birthday"),
            "her first birthday"
        );
        assert_eq!(
            super::super::shared::told(super::ordinal_birthday, "the ninetieth minute"),
            "the ninetieth minute"
        );
    }

    #[test]
    fn a_day_in_a_past_account_keeps_every() {
        let text = "Last summer they had a barbecue every weekend with a live band.";
        assert!(!phrased(text).contains("on weekends"), "{text}");
        assert!(phrased("They have a barbecue every weekend with a live band.").contains("on weekends"));
        assert!(phrased("The museum is closed every Monday.").contains("on Mondays"));
        // A run up to now counts each one.
        assert!(!phrased("I have baked bread every weekend since.").contains("on weekends"));
        assert!(phrased("The team agreed to meet every Monday morning.").contains("on Monday mornings"));
    }

    #[test]
    fn numbers_from_ten_in_digits() {
        let all = |text: &str| join(&phrases(tokenize(text), &mut Sites::new(crate::sites::Which::All)));
        assert_eq!(all("We spent forty pounds on food."), "We spent £40 on food.");
        assert_eq!(all("Tickets cost three pounds each."), "Tickets cost £3 each.");
        assert_eq!(all("We raised over 2,000 pounds for the roof."), "We raised over £2,000 for the roof.");
        assert_eq!(all("I owe the library 40 pounds."), "I owe the library £40.");
        // Pounds of weight are no sum.
        assert_eq!(all("The baby weighed eleven pounds."), "The baby weighed eleven pounds.");
        assert_eq!(all("I lost 12 pounds since January."), "I lost 12 pounds since January.");
        assert_eq!(all("She has put on ten pounds."), "She has put on ten pounds.");
        assert_eq!(all("It is one pound."), "It is one pound.");
        assert_eq!(all("I waited two hours to see the doctor."), "I waited for two hours to see the doctor.");
        assert_eq!(all("We waited an hour."), "We waited for an hour.");
        assert_eq!(all("We waited a few minutes."), "We waited for a few minutes.");
        assert_eq!(all("I waited for two hours."), "I waited two hours.");
        assert_eq!(all("We waited two buses."), "We waited two buses.");
        assert_eq!(all("We waited an hour for the doctor."), "We waited an hour for the doctor.");
        assert_eq!(all("He lent me twenty pounds."), "He let me borrow £20.");
        assert_eq!(all("The bus comes every twenty minutes."), "The bus comes every 20 minutes.");
        assert_eq!(all("It took twenty-five minutes."), "It took 25 minutes.");
        assert_eq!(all("We have three days left."), "We have three days left.");
        assert_eq!(all("It cost a hundred and forty pounds."), "It cost one hundred and forty pounds.");
        assert_eq!(all("Twenty people came."), "Twenty people came.");
        assert_eq!(all("The tickets cost 45 dollars each."), "The tickets cost $45 each.");
        assert_eq!(all("The house was sold for 320,000 dollars."), "The house was sold for $320,000.");
        assert_eq!(all("The repair cost three hundred pounds."), "The repair cost £300.");
        assert_eq!(
            all("It weighs two hundred and fifty kilos."),
            "It weighs two hundred and fifty kilograms."
        );
        assert_eq!(all("They will create two hundred jobs."), "They will create 200 jobs.");
    }

    #[test]
    fn times_and_quantities_in_their_other_spoken_forms() {
        assert_eq!(phrased("The train leaves at half past nine."), "The train leaves at nine thirty.");
        assert_eq!(phrased("It starts at a quarter past ten."), "It starts at ten fifteen.");
        assert_eq!(phrased("We eat at seven o'clock."), "We eat at seven.");
        assert_eq!(phrased("It takes half an hour."), "It takes thirty minutes.");
        assert_eq!(phrased("I swim twice a week."), "I swim twice a week.");
        assert_eq!(phrased("Take one tablet twice a day."), "Take one tablet twice daily.");
        assert_eq!(phrased("It was signed on the 14th of June."), "It was signed on the 14th of June.");
        assert_eq!(phrased("She was born on the third of May."), "She was born on 3 May.");
        assert_eq!(
            phrased("I'll be away from the third to the seventeenth of August."),
            "I'll be away from the third to the seventeenth of August."
        );
        assert_eq!(phrased("The meeting on 12 March starts soon."), "The meeting on 12 March starts soon.");
        assert_eq!(phrased("The printer is out of paper."), "The printer has run out of paper.");
        assert_eq!(phrased("Our flight was delayed by two hours."), "Our flight was two hours late.");
        assert_eq!(phrased("The match was delayed by rain."), "The match was delayed by rain.");
        assert_eq!(
            phrased("The train was delayed by an hour due to fog."),
            "The train was an hour late due to fog."
        );
        // A place after it would say where the delay fell, not where the lateness is.
        assert_eq!(
            phrased("Our flight was delayed by three hours in Madrid."),
            "Our flight was delayed by three hours in Madrid."
        );
        // Not "has run out of order": a machine out of order is one not working.
        assert_eq!(phrased("The lift is out of order."), "The lift is not working.");
        assert_eq!(phrased("We were out of paper towels."), "We were out of paper towels.");
        assert_eq!(phrased("Half of the class came."), "Half the class came.");
        assert_eq!(
            phrased("The second half of the game was better."),
            "The second half of the game was better."
        );
        assert_eq!(phrased("He paid a hundred dollars."), "He paid one hundred dollars.");
        // "for eight" would be eight people.
        assert_eq!(phrased("We booked a table for eight o'clock."), "We booked a table for eight o'clock.");
        // Not a clock time.
        assert_eq!(phrased("Half past the gate is a tree."), "Half past the gate is a tree.");
        assert_eq!(phrased("My appointment is at ten past nine."), "My appointment is at nine ten.");
        assert_eq!(phrased("The film starts at a quarter to eight."), "The film starts at seven forty-five.");
        assert_eq!(phrased("We left at twenty to one."), "We left at twelve forty.");
        assert_eq!(
            phrased("Our team has grown from five to twelve people."),
            "Our team has grown from five to twelve people."
        );
        assert_eq!(phrased("Come by five to six."), "Come by five fifty-five.");
        // "five past" would be "oh five"; "ten to one" is also odds or a score.
        assert_eq!(phrased("It starts at five past six."), "It starts at five past six.");
        assert_eq!(phrased("The score was ten to one."), "The score was ten to one.");
        assert_eq!(phrased("The shop closes at 5:30."), "The shop closes at 5:30.");
        assert_eq!(
            phrased("The library closes at six on weekdays."),
            "The library closes at six o'clock every weekday."
        );
        assert_eq!(phrased("We got home at ten."), "We got home at ten o'clock.");
        // An age, the minutes, a count.
        assert_eq!(phrased("She learned to read at five."), "She learned to read at five.");
        assert_eq!(phrased("The film starts at six thirty."), "The film starts at half past six.");
        assert_eq!(phrased("We left at seven forty-five."), "We left at a quarter to eight.");
        assert_eq!(phrased("The shop opens at quarter past nine."), "The shop opens at nine fifteen.");
        assert_eq!(phrased("We fed six thirty times."), "We fed six thirty times.");
        assert_eq!(phrased("We booked a table for eight."), "We booked a table for eight people.");
        assert_eq!(phrased("The shop is open until ten."), "The shop is open until ten.");
        assert_eq!(
            phrased("The guests arrived just before seven."),
            "The guests arrived shortly before seven o'clock."
        );
        assert_eq!(phrased("She always arrives on time."), "She always arrives punctually.");
        assert_eq!(phrased("They finished the project on time."), "They completed the project on time.");
        assert_eq!(phrased("I call my mother every week."), "I call my mother weekly.");
        assert_eq!(phrased("Every week we meet."), "Every week we meet.");
        assert_eq!(phrased("She bakes bread every Sunday."), "She bakes bread on Sundays.");
        let text = "The council has closed the tip on Sundays, which is annoying.";
        assert_eq!(phrased(text), text);
        assert_eq!(
            phrased("The council closes the tip on Sundays."),
            "The council closes the tip every Sunday."
        );
        let text = "I've joined a running club that meets on Wednesday evenings.";
        assert!(phrased(text).contains("meets every Wednesday evening"));
        assert_eq!(phrased("The gym is quiet on Monday mornings."), "The gym is quiet every Monday morning.");
        assert_eq!(phrased("We play tennis every weekend."), "We play tennis on weekends.");
        assert_eq!(
            phrased("I can't afford to go out every weekend."),
            "I can't afford to go out every weekend."
        );
        assert_eq!(
            phrased("I cannot afford to go out every weekend."),
            "I cannot afford to go out every weekend."
        );
        assert_eq!(
            phrased("I usually cut the grass on Saturday mornings."),
            "I usually cut the grass on Saturday mornings."
        );
        assert_eq!(phrased("Every Friday we eat out."), "On Fridays we eat out.");
        // A list of days, a preposition before.
        assert_eq!(phrased("She works on Mondays and Fridays."), "She works on Mondays and Fridays.");
        assert_eq!(
            phrased("The library has extended its opening hours on Saturdays."),
            "The library has extended its opening hours on Saturdays."
        );
        assert_eq!(
            phrased("It meets on the first Monday of every month."),
            "It meets on the first Monday of every month."
        );
    }
    #[test]
    fn an_hour_with_its_part_of_the_day_takes_oclock() {
        assert_eq!(phrased("I woke up at five this morning."), "I woke up at five o'clock this morning.");
        assert_eq!(phrased("She called at nine last night."), "She called at nine o'clock last night.");
        assert_eq!(
            phrased("We left the house at five o'clock to get the best spot."),
            "We left the house at five o'clock to get the best spot."
        );
        assert_eq!(phrased("We left the house at five o'clock."), "We left the house at five.");
        // An age, with no part of the day after it.
        assert_eq!(phrased("She started school at five."), "She started school at five.");
    }

    #[test]
    fn a_range_from_one_hour_to_another_is_no_time_to_the_hour() {
        assert_eq!(phrased("The shop is open from five to six."), "The shop is open from five to six.");
        assert_eq!(phrased("We worked from ten to twelve."), "We worked from ten to twelve.");
        assert_eq!(
            phrased("The class runs from twenty to nine until ten."),
            "The class runs from eight forty until ten."
        );
        assert_eq!(phrased("We left at twenty to one."), "We left at twelve forty.");
    }

    #[test]
    fn the_end_of_a_range_of_time_in_its_other_word() {
        let told = |text: &str| super::super::shared::told(super::range_of_time, text);
        assert_eq!(told("The café is open from nine until five."), "The café is open from nine to five.");
        assert_eq!(
            told("Breakfast is served from 7 am till 10 am."),
            "Breakfast is served from 7 am to 10 am."
        );
        assert_eq!(
            told("The office is open from Monday to Friday."),
            "The office is open from Monday until Friday."
        );
        assert_eq!(
            told("The clinic is open Monday through Friday."),
            "The clinic is open from Monday to Friday."
        );
        assert_eq!(told("We are away from June until August."), "We are away from June to August.");
        // A move, a count, two kinds of point, hours whose "to" may count.
        for text in [
            "They moved the meeting from Monday to Friday.",
            "Our team has grown from five until twelve people.",
            "The shop is open from Monday until five.",
            "The shop is open from nine to five.",
            "It changed from nine until five.",
        ] {
            let expected =
                if text.starts_with("It changed") { "It changed from nine to five." } else { text };
            assert_eq!(told(text), expected);
        }
    }

    #[test]
    fn a_place_in_a_contest_with_either_verb() {
        let told = |text: &str| super::super::shared::told(super::placed_in_contest, text);
        assert_eq!(told("She came third in the race."), "She finished third in the race.");
        assert_eq!(
            told("She finished second in the spelling competition."),
            "She came second in the spelling competition."
        );
        for text in [
            "Safety came first.",
            "She finished first in the exam.",
            "He came second in his class.",
            "My family came first in everything.",
        ] {
            assert_eq!(told(text), text);
        }
    }

    #[test]
    fn sums_in_figures_said_in_words() {
        let told = |text: &str| super::super::shared::told(super::money_in_words, text);
        assert_eq!(told("The ticket cost £5."), "The ticket cost five pounds.");
        assert_eq!(told("He gave me $20 for my birthday."), "He gave me twenty dollars for my birthday.");
        assert_eq!(told("The sweets cost 50p each."), "The sweets cost fifty pence each.");
        assert_eq!(told("It costs £1 to park."), "It costs one pound to park.");
        assert_eq!(
            told("I was overcharged by £12.50 on my last bill."),
            "I was overcharged by twelve pounds fifty on my last bill."
        );
        for text in [
            "The ticket cost £5.05.",
            "The ticket cost £5.5.",
            "It was £5.50 or £6.",
            "£5.50 is too much.",
            "They paid £5,000 for it.",
            "Tickets cost between £5 and £10.",
            "Use $1 for the first argument.",
            "It was £150.",
            "£5 is too much.",
            "It cost 1p.",
            "The room is 42 metres long and costs £9 a night.",
        ] {
            assert_eq!(told(text), text);
        }
    }

    #[test]
    fn a_decade_of_the_last_century_by_its_name() {
        let told = |text: &str| super::super::shared::told(super::decade_in_words, text);
        assert_eq!(told("The house was built in the 1990s."), "The house was built in the nineties.");
        assert_eq!(told("It opened in the early 1960s."), "It opened in the early sixties.");
        for text in [
            "Prices rose from the 1890s to the 1990s.",
            "The town grew in the 1910s.",
            "It was built in 1990.",
            "It changed in the 2010s.",
        ] {
            assert_eq!(told(text), text);
        }
    }
    #[test]
    fn an_hour_in_figures_said_with_its_part_of_the_day() {
        let told = |text: &str| super::super::shared::told(super::clock_in_words, text);
        assert_eq!(told("The meeting starts at 7 pm."), "The meeting starts at seven in the evening.");
        assert_eq!(
            told("The train leaves at 6 am tomorrow."),
            "The train leaves at six in the morning tomorrow."
        );
        assert_eq!(told("We close at 3pm on Fridays."), "We close at three in the afternoon on Fridays.");
        assert_eq!(told("The last bus goes at 11 pm."), "The last bus goes at eleven at night.");
        for text in [
            "The shop is open from 9 am to 5 pm.",
            "We eat at 12 pm.",
            "See you at 7 pm tonight.",
            "The meeting is at 7:30 pm.",
            "There are 7 pm slots left.",
            "She was last seen on Mill Lane at about 6pm.",
            "The server went down at 2am and no one noticed until the morning.",
        ] {
            assert_eq!(told(text), text);
        }
    }

    #[test]
    fn large_sums_in_figures() {
        let told = |text: &str| super::super::shared::told(super::large_sum_in_figures, text);
        assert_eq!(
            told("Last year the fete raised over two thousand pounds for the hospice."),
            "Last year the fete raised over £2,000 for the hospice."
        );
        assert_eq!(
            told("The new striker cost the club thirty million pounds."),
            "The new striker cost the club £30 million."
        );
        for text in [
            "The lorry carried two thousand pounds of sand.",
            "It cost a hundred and two thousand pounds.",
            "It cost a thousand pounds.",
            "The quote was four thousand pounds, but the bill came to nearly six.",
        ] {
            assert_eq!(told(text), text);
        }
    }

    #[test]
    fn every_second_period_is_every_other() {
        let told = |text: &str| super::super::shared::told(super::every_second, text);
        assert_eq!(
            told("The farmers' market takes place every second Sunday in the square."),
            "The farmers' market takes place every other Sunday in the square."
        );
        assert_eq!(told("In an emergency every second counts."), "In an emergency every second counts.");
    }
}

#[cfg(test)]
mod more_tests {
    use super::super::shared::told;
    use super::more_or_another;

    #[test]
    fn an_added_number_is_told_with_more_or_another() {
        let f = |t: &str| told(more_or_another, t);
        assert_eq!(f("The pasta needs ten more minutes."), "The pasta needs another ten minutes.");
        assert_eq!(f("We need two more volunteers."), "We need another two volunteers.");
        assert_eq!(f("It took another two days."), "It took two more days.");
    }

    #[test]
    fn bounded_numbers_comparatives_and_than_are_left() {
        let f = |t: &str| told(more_or_another, t);
        for text in [
            "We saw two more expensive hotels.",
            "There were two more people than last year.",
            "It takes about ten more minutes.",
            "That was yet another two days lost.",
            "I want one more slice.",
        ] {
            assert_eq!(f(text), text);
        }
    }
}
