//! A time phrase that ends the sentence moves to the front ("We ate at home last night." ->
//! "Last night, we ate at home."), when nothing ties it to the words before it and no other
//! clause could claim it. A phrase moves only within the clause it modifies: after a second
//! clause joined by "and", "but", "or" or "then" ("We visited my parents and then went to the beach
//! on Sunday."), it belongs to that clause alone, and moving it to the front of the whole sentence
//! would date the first clause too, so it stays.

use crate::lexicon::Pos;
use crate::morph;
use crate::shape::{self, Plain, comma, leaving_start, starting};
use crate::syntax::{coordinated_clause, has_clause_word};
use crate::tokens::Token;
use crate::words::{
    DAY_NAMES, FINITE_BE, PERSONAL_POSSESSIVES, PHRASE_DETERMINERS, TIME_BINDERS, TIME_NOUNS, WEEKDAYS,
    concat,
};

/// Forms of "be" after which a time phrase is what the subject is ("The meeting is in the
/// afternoon."), not when something happens.
const LINKING_BE: &[&str] = &concat::<6>(&[FINITE_BE, &["be", "been"]]);
/// Hours said as words ("opens at seven").
const CLOCK_HOURS: &[&str] =
    &["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"];

/// The length of a time phrase ending the sentence ("every morning", "on Mondays", "in 2019").
fn trailing_time_phrase(p: &Plain) -> Option<usize> {
    let n = p.items.len();
    let w = |k: usize| p.from_end(k);
    let last = w(1);
    let two = n >= 2
        && ((["last", "next", "this", "every", "each", "tomorrow", "yesterday"].contains(&w(2).as_str())
            && TIME_NOUNS.contains(&last.as_str()))
            || (w(2) == "most"
                && ["mornings", "evenings", "nights", "days", "weekends"].contains(&last.as_str()))
            || (w(2) == "until"
                && ["noon", "midnight", "tomorrow", "dawn", "dark"].contains(&last.as_str()))
            || (w(2) == "at" && CLOCK_HOURS.contains(&last.as_str()))
            || (w(2) == "in" && ["minutes", "seconds", "moments"].contains(&last.as_str()))
            || (w(2) == "before"
                && ["lunch", "dinner", "breakfast", "work", "school", "dark", "noon", "midnight"]
                    .contains(&last.as_str()))
            || (w(2) == "on" && (WEEKDAYS.contains(&last.as_str()) || DAY_NAMES.contains(&last.as_str())))
            || (w(2) == "at" && ["night", "weekends", "midnight", "noon", "dawn"].contains(&last.as_str()))
            || (w(2) == "by"
                && ["noon", "midnight", "tomorrow", "tonight", "then"].contains(&last.as_str()))
            || (w(2) == "for" && ["breakfast", "lunch", "dinner", "supper"].contains(&last.as_str()))
            || (w(2) == "after"
                && ["work", "school", "lunch", "dinner", "breakfast"].contains(&last.as_str()))
            || (w(2) == "in" && last.len() == 4 && last.bytes().all(|b| b.is_ascii_digit()))
            || (w(2) == "in" && ["summer", "winter", "spring", "autumn"].contains(&last.as_str())));
    let three = n >= 3
        && ["in", "during"].contains(&w(3).as_str())
        && w(2) == "the"
        && ["morning", "afternoon", "evening", "summer", "winter", "spring", "autumn", "night"]
            .contains(&last.as_str());
    const DURATIONS: &[&str] = &["minutes", "hours", "days", "weeks", "months", "years", "seconds"];
    let numbered = n >= 3
        && w(3) == "in"
        && (DURATIONS.contains(&last.as_str())
            || (["one", "a", "an"].contains(&w(2).as_str())
                && ["day", "week", "hour", "minute", "month", "year", "afternoon", "evening"]
                    .contains(&last.as_str())));
    let weekday = |x: &str| WEEKDAYS.iter().any(|d| d.strip_suffix('s') == Some(x));
    let day_part = n >= 3
        && w(3) == "on"
        && weekday(&w(2))
        && ["mornings", "evenings", "afternoons", "nights", "morning", "evening", "afternoon", "night"]
            .contains(&last.as_str());
    // "during the storm", "in his spare time": always about time.
    let during = n >= 3 && w(3) == "during" && PHRASE_DETERMINERS.contains(&w(2).as_str());
    let spare = n >= 4
        && w(4) == "in"
        && PERSONAL_POSSESSIVES.contains(&w(3).as_str())
        && ["spare", "free"].contains(&w(2).as_str())
        && last == "time";
    let len = if spare {
        4
    } else if three || numbered || day_part || during {
        3
    } else if two {
        2
    } else {
        return None;
    };
    // "early in the morning", "late at night", "late last night" are one phrase.
    let part_of_day = three
        || (w(2) == "at" && last == "night")
        || (["last", "this", "yesterday", "tomorrow"].contains(&w(2).as_str()) && two);
    // After "be" the word is what the subject was ("The bus was late this morning.").
    let linked = LINKING_BE.contains(&w(len + 2).as_str());
    let len = if part_of_day && !linked && n > len && ["early", "late"].contains(&w(len + 1).as_str()) {
        len + 1
    } else {
        len
    };
    let before = w(len + 1);
    (!TIME_BINDERS.contains(&before.as_str()) && !before.ends_with("'s")).then_some(len)
}

/// "We ate at home last night." -> "Last night, we ate at home."
pub fn front_time_phrase(p: &Plain) -> Option<Vec<Token>> {
    if p.commas() != 0 || p.terminal.text == "?" {
        return None;
    }
    let len = trailing_time_phrase(p)?;
    let n = p.items.len();
    // "promised to help him move on Saturday": the day may belong to either verb.
    let infinitive = (0..n).any(|k| {
        p.lower(k) == "to"
            && morph::analyse(&p.lower(k + 1))
                .iter()
                .any(|a| a.pos == Pos::Verb && a.form == morph::Form::Base)
    });
    if has_clause_word(p, usize::MAX) && infinitive {
        return None;
    }
    // The phrase belongs to the last of two coordinated clauses: it stays in that clause.
    if coordinated_clause(p, n - len) {
        return None;
    }
    // "The meeting is in the afternoon.": the phrase is what the subject is, so it stays.
    if n < len + 3 || LINKING_BE.contains(&p.from_end(len + 1).as_str()) {
        return None;
    }
    let mut out = vec![starting(&p.items[n - len])];
    out.extend_from_slice(&p.items[n - len + 1..]);
    out.push(comma());
    out.push(leaving_start(&p.items[0])?);
    out.extend_from_slice(&p.items[1..n - len]);
    Some(shape::build(&out, &p.terminal))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::apply as run;

    #[test]
    fn time_phrases_move_to_the_front() {
        let f = front_time_phrase;
        assert_eq!(
            run(f, "He reads the newspaper every morning.").as_deref(),
            Some("Every morning, he reads the newspaper.")
        );
        assert_eq!(
            run(f, "The museum is closed on Mondays.").as_deref(),
            Some("On Mondays, the museum is closed.")
        );
        assert_eq!(run(f, "We moved to Lisbon in 2019.").as_deref(), Some("In 2019, we moved to Lisbon."));
        // The phrase is what the subject is.
        assert_eq!(run(f, "The meeting is in the afternoon."), None);
        assert_eq!(run(f, "The party was on Saturday."), None);
        assert_eq!(
            run(f, "Dinner is ready in twenty minutes.").as_deref(),
            Some("In twenty minutes, dinner is ready.")
        );
        assert_eq!(
            run(f, "It is busy on Saturday mornings.").as_deref(),
            Some("On Saturday mornings, it is busy.")
        );
        assert_eq!(
            run(f, "The streets were empty early in the morning.").as_deref(),
            Some("Early in the morning, the streets were empty.")
        );
        assert_eq!(
            run(f, "We finished the work by noon.").as_deref(),
            Some("By noon, we finished the work.")
        );
        assert_eq!(
            run(f, "She always wears a scarf in winter.").as_deref(),
            Some("In winter, she always wears a scarf.")
        );
        assert_eq!(
            run(f, "She read the whole book in one day.").as_deref(),
            Some("In one day, she read the whole book.")
        );
        assert_eq!(
            run(f, "My sister called me late last night.").as_deref(),
            Some("Late last night, my sister called me.")
        );
        assert_eq!(run(f, "He works late most evenings.").as_deref(), Some("Most evenings, he works late."));
        assert_eq!(
            run(f, "The bus was late this morning.").as_deref(),
            Some("This morning, the bus was late.")
        );
        assert_eq!(
            run(f, "The tickets sold out in minutes.").as_deref(),
            Some("In minutes, the tickets sold out.")
        );
        assert_eq!(
            run(f, "The old tree fell during the storm.").as_deref(),
            Some("During the storm, the old tree fell.")
        );
        assert_eq!(
            run(f, "He writes poems in his spare time.").as_deref(),
            Some("In his spare time, he writes poems.")
        );
        assert_eq!(
            run(f, "She answered the emails before lunch.").as_deref(),
            Some("Before lunch, she answered the emails.")
        );
        assert_eq!(run(f, "The bakery opens at seven.").as_deref(), Some("At seven, the bakery opens."));
        assert_eq!(run(f, "It rained at the end of last year."), None);
        assert_eq!(run(f, "Did it rain last night?"), None);
    }

    #[test]
    fn a_time_phrase_stays_in_its_own_clause() {
        let f = front_time_phrase;
        // The day is when the second action happened, not the first.
        assert_eq!(run(f, "We visited the museum and then went to the park on Sunday."), None);
        assert_eq!(run(f, "He cleaned the car and she cooked dinner on Saturday."), None);
        assert_eq!(run(f, "I wrote the report and sent it to my boss last night."), None);
        assert_eq!(run(f, "They sold the house but kept the garden last year."), None);
        // Two nouns joined by "and" are one object: the phrase dates the whole clause.
        assert_eq!(
            run(f, "She bought bread and cheese on Monday.").as_deref(),
            Some("On Monday, she bought bread and cheese.")
        );
    }
}
