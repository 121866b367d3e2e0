//! A time phrase that ends the sentence moves to the front ("We ate at home last night." ->
//! "Last night, we ate at home."), when nothing ties it to the words before it and no other
//! clause could claim it. A phrase moves only within the clause it modifies: after a second
//! clause joined by "and", "but", "or" or "then" ("We visited my parents and then went to the beach
//! on Sunday."), it belongs to that clause alone, and moving it to the front of the whole sentence
//! would date the first clause too, so it stays.

use crate::shape::{self, Plain, comma, leaving_start, starting};
use crate::syntax::{coordinated_clause, has_clause_word, infinitive_at, time_inside};
use crate::tokens::Token;
use crate::words::{
    CLAUSE_WORDS, DAY_NAMES, DEFINITE_DETERMINERS, FINITE_BE, HAVE_FORMS, MONTHS, PERSONAL_POSSESSIVES,
    PHRASE_DETERMINERS, SCHEDULES, SUBJECT_PRONOUNS, TIME_BINDERS, TIME_NOUNS, TIME_UNITS, Tense, WEEKDAYS,
    clearly_finite, concat, finite_lemma, is_event, is_noun,
};

/// Forms of "be" after which a time phrase is what the subject is ("The meeting is in the
/// afternoon."), not when something happens.
const LINKING_BE: &[&str] = &concat::<6>(&[FINITE_BE, &["be", "been"]]);
/// The length of a time phrase ending the sentence ("every morning", "on Mondays", "in 2019").
pub(crate) fn trailing_time_phrase(p: &Plain) -> Option<usize> {
    let n = p.items.len();
    let w = |k: usize| p.from_end(k);
    let last = w(1);
    // Read once: each is compared with a dozen lists below.
    let (w2, w3, w4) = (w(2), w(3), w(4));
    let two = n >= 2
        && ((["last", "next", "this", "every", "each", "tomorrow", "yesterday"].contains(&w2.as_str())
            && TIME_NOUNS.contains(&last.as_str()))
            || (w2 == "most"
                && ["mornings", "evenings", "nights", "days", "weekends"].contains(&last.as_str()))
            || (w2 == "in" && ["minutes", "seconds", "moments"].contains(&last.as_str()))
            || (w2 == "before"
                && ["lunch", "dinner", "breakfast", "work", "school", "dark", "noon", "midnight"]
                    .contains(&last.as_str()))
            || (w2 == "on" && (WEEKDAYS.contains(&last.as_str()) || DAY_NAMES.contains(&last.as_str())))
            || (w2 == "at"
                && ["night", "weekends", "midnight", "noon", "dawn", "dusk", "sunset", "sunrise"]
                    .contains(&last.as_str()))
            // The feasts that date a year's events as a season does ("every Christmas", "at Easter").
            || (["last", "next", "this", "every", "at"].contains(&w2.as_str())
                && ["christmas", "easter"].contains(&last.as_str()))
            || (w2 == "for" && ["breakfast", "lunch", "dinner", "supper"].contains(&last.as_str()))
            || (w2 == "after"
                && ["work", "school", "lunch", "dinner", "breakfast"].contains(&last.as_str()))
            || (w2 == "in" && last.len() == 4 && last.bytes().all(|b| b.is_ascii_digit()))
            || (w2 == "in" && ["summer", "winter", "spring", "autumn"].contains(&last.as_str())));
    let three = n >= 3
        && ["in", "during"].contains(&w3.as_str())
        && w2 == "the"
        && ["morning", "afternoon", "evening", "summer", "winter", "spring", "autumn", "night"]
            .contains(&last.as_str());
    const DURATIONS: &[&str] = &["minutes", "hours", "days", "weeks", "months", "years", "seconds"];
    let numbered = n >= 3
        && w3 == "in"
        && (DURATIONS.contains(&last.as_str())
            || (["one", "a", "an"].contains(&w2.as_str())
                && ["day", "week", "hour", "minute", "month", "year", "afternoon", "evening"]
                    .contains(&last.as_str())));
    let weekday = |x: &str| WEEKDAYS.iter().any(|d| d.strip_suffix('s') == Some(x));
    let day_part = n >= 3
        && w3 == "on"
        && weekday(&w2)
        && ["mornings", "evenings", "afternoons", "nights", "morning", "evening", "afternoon", "night"]
            .contains(&last.as_str());
    // "during the storm", "in his spare time": always about time.
    let during = n >= 3 && w3 == "during" && PHRASE_DETERMINERS.contains(&w2.as_str());
    let spare = n >= 4
        && w4 == "in"
        && PERSONAL_POSSESSIVES.contains(&w3.as_str())
        && ["spare", "free"].contains(&w2.as_str())
        && last == "time";
    let len = if spare {
        4
    } else if three || numbered || day_part || during {
        3
    } else if two {
        2
    } else {
        listed_time_phrase(p, TIME_PHRASES)
            .or_else(|| perfect(p).then(|| listed_time_phrase(p, SINCE_PHRASES)).flatten())?
    };
    // "early in the morning", "late at night", "late last night" are one phrase.
    let part_of_day = three
        || (w(2) == "at" && last == "night")
        || (["last", "this", "yesterday", "tomorrow"].contains(&w(2).as_str()) && two);
    // After "be" the word is what the subject was ("The bus was late this morning.").
    let linked = LINKING_BE.contains(&w(len + 2).as_str());
    // "a bit late this morning": the degree is the lateness's, which would be left behind.
    // "arrived three hours late last night": "late" is the amount's, not the night's.
    let graded = ["bit", "little", "very", "too", "quite", "so", "rather", "slightly"]
        .contains(&w(len + 2).as_str())
        || UNITS.contains(&w(len + 2).as_str());
    let len =
        if part_of_day && !linked && !graded && n > len && ["early", "late"].contains(&w(len + 1).as_str()) {
            len + 1
        } else {
            len
        };
    let before = w(len + 1);
    // "on Wednesdays starting next month": the phrase is the object of the word before it.
    let bound = ["starting", "beginning", "ending", "from", "effective"].contains(&before.as_str());
    // "on our last morning", "in the first week": after a determiner the words are the end of a
    // noun phrase, not a time phrase of their own. "her" after a verb is its object ("saw her
    // last week"); after a preposition it is the determiner ("on her last morning").
    let determined = ["the", "a", "an", "my", "your", "his", "our", "their", "its"]
        .contains(&before.as_str())
        || (before == "her" && ["on", "in", "during", "at"].contains(&w(len + 2).as_str()));
    let free = !TIME_BINDERS.contains(&before.as_str()) && !bound && !determined;
    (free && !before.ends_with("'s")).then_some(len)
}

/// What one word of a time phrase may be.
#[derive(Clone, Copy)]
enum Slot {
    Word(&'static str),
    AnyOf(&'static [&'static str]),
    /// A number said as a word or written in digits, "a" or "an" ("two", "12", "a").
    Count,
    /// A unit of time, singular or plural ("minutes", "a week").
    Unit,
    /// A time noun of `TIME_NOUNS` ("week", "Monday").
    TimeNoun,
    /// A weekday in the plural ("Mondays").
    Weekdays,
    /// Any noun ("the trip").
    Noun,
    /// Any word ("the Easter weekend").
    AnyWord,
    Month,
    /// A day of the month in digits ("3", "21").
    DayOfMonth,
    /// A year of the last century or this one in digits ("1998", "2015"), never a count.
    Year,
}

const COUNTS: &[&str] = &[
    "a", "an", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
    "twelve", "fifteen", "twenty", "thirty", "forty", "fifty", "sixty", "ninety", "several", "few",
];
const HOURS: &[&str] =
    &["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"];
const PARTS_OF_DAY: &[&str] = &["morning", "afternoon", "evening", "night"];
/// The units a time phrase counts ("in two decades"): those of time, and the decade.
const UNITS: &[&str] = &concat::<16>(&[TIME_UNITS, &["decade", "decades"]]);
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
    "fifteenth",
    "twentieth",
    "thirtieth",
];

impl Slot {
    fn fits(self, word: &str) -> bool {
        match self {
            Slot::Word(w) => word == w,
            Slot::AnyOf(list) => list.contains(&word),
            Slot::Count => {
                COUNTS.contains(&word) || (!word.is_empty() && word.bytes().all(|b| b.is_ascii_digit()))
            }
            Slot::Unit => UNITS.contains(&word),
            Slot::TimeNoun => TIME_NOUNS.contains(&word),
            Slot::Weekdays => WEEKDAYS.contains(&word),
            Slot::Month => MONTHS.contains(&word),
            Slot::DayOfMonth => {
                word.parse::<u8>().is_ok_and(|d| (1..=31).contains(&d)) && !word.starts_with('0')
            }
            Slot::Year => {
                word.len() == 4
                    && word.bytes().all(|b| b.is_ascii_digit())
                    && (word.starts_with("19") || word.starts_with("20"))
            }
            Slot::Noun => is_noun(word),
            Slot::AnyWord => true,
        }
    }
}

/// The other time phrases that may end a sentence, each one a date, a time or a frequency whatever
/// the words before it ("four years ago", "on Mondays and Fridays", "on the third of April", "every
/// ten minutes", "three times a week", "at the end of March").
const TIME_PHRASES: &[&[Slot]] = {
    use Slot::*;
    const EDGE: Slot = AnyOf(&["end", "start", "beginning", "middle"]);
    // How long until something happens or how long it took: never "for", since "For two weeks,
    // she stayed." is not English.
    const LENGTH: Slot = AnyOf(&["in", "within", "after"]);
    &[
        &[Count, Unit, Word("ago")],
        &[Word("a"), Word("few"), Unit, Word("ago")],
        &[Word("a"), Word("long"), Word("time"), Word("ago")],
        &[Count, Unit, Word("later")],
        &[Word("on"), Weekdays, Word("and"), Weekdays],
        // The meal times said as one word, which date a habit as "at night" does.
        &[Word("at"), AnyOf(&["lunchtime", "teatime", "bedtime", "dinnertime", "breakfast-time"])],
        // An occasion that something was given or done for ("bought Dad a football for my
        // birthday"), which, fronted, still tells the occasion; not "his", "her" or "their",
        // which in front would come before the person they point to ("For his birthday, she
        // bought her neighbour a cake").
        &[Word("for"), AnyOf(&["my", "your", "our"]), AnyOf(&["birthday", "anniversary"])],
        &[Word("for"), AnyOf(&["christmas", "easter"])],
        // An occasion's first ("drove on the motorway for the first time"), which dates the event
        // among the others of its kind wherever it stands.
        &[Word("for"), Word("the"), Word("first"), Word("time")],
        &[Word("in"), Month],
        // "last February", "next March": a month as "last week" is a week; not "this June", which
        // may tell a date to come ("have been married for forty years this June").
        &[AnyOf(&["last", "next"]), Month],
        &[Word("in"), AnyOf(&["early", "late"]), Month],
        &[Word("on"), Word("the"), AnyOf(ORDINALS), Word("of"), Month],
        &[Word("at"), Word("the"), EDGE, Word("of"), Month],
        &[Word("at"), Word("the"), EDGE, Word("of"), Word("the"), TimeNoun],
        &[Word("by"), Word("the"), Word("end"), Word("of"), Word("the"), TimeNoun],
        &[Word("every"), Count, Unit],
        &[Word("every"), Word("other"), TimeNoun],
        &[Count, Word("times"), Word("a"), TimeNoun],
        &[AnyOf(&["once", "twice"]), Word("a"), TimeNoun],
        &[Word("the"), AnyOf(&["next", "following"]), TimeNoun],
        &[AnyOf(&["at", "over"]), Word("the"), Word("weekend")],
        &[Word("in"), Word("the"), AnyOf(&["mornings", "afternoons", "evenings"])],
        &[
            AnyOf(&["after", "before"]),
            AnyOf(&["rain", "dark", "sunset", "sunrise", "class", "church", "supper"]),
        ],
        &[AnyOf(&["after", "within"]), Count, Unit],
        &[
            Word("the"),
            TimeNoun,
            AnyOf(&["before", "after"]),
            AnyOf(&["the", "my", "his", "her", "our", "their"]),
            Noun,
        ],
        &[Word("every"), AnyOf(DAY_NAMES), AnyOf(PARTS_OF_DAY)],
        // The other spoken forms that the number and quantity rules write ("in thirty minutes" ->
        // "in half an hour", "on the third of April" -> "on 3 April", "at half past nine" ->
        // "at nine thirty"), so that a rewritten phrase still moves as the one it replaced did.
        &[LENGTH, Word("half"), Word("an"), Word("hour")],
        &[LENGTH, Word("a"), Word("quarter"), Word("of"), Word("an"), Word("hour")],
        &[LENGTH, Word("an"), Word("hour"), Word("and"), Word("a"), Word("half")],
        &[LENGTH, Word("a"), Word("fortnight")],
        &[Word("a"), Word("century"), Word("ago")],
        &[AnyOf(&["a", "one"]), Word("hundred"), Unit, Word("ago")],
        &[Word("on"), DayOfMonth, Month],
        &[Word("on"), Month, DayOfMonth],
        // A clock time that no age or price reads the same ("at five" may be an age, "at two
        // fifty" a price): with "o'clock", "half past", "a quarter past/to", or a quarter's minutes.
        &[Word("at"), AnyOf(HOURS), AnyOf(&["o'clock", "o’clock"])],
        &[Word("at"), Word("half"), Word("past"), AnyOf(HOURS)],
        &[Word("at"), Word("a"), Word("quarter"), AnyOf(&["past", "to"]), AnyOf(HOURS)],
        &[Word("at"), AnyOf(HOURS), AnyOf(&["fifteen", "thirty", "forty-five"])],
        &[
            AnyOf(&["over", "during"]),
            Word("the"),
            AnyWord,
            AnyOf(&["weekend", "holidays", "holiday", "break"]),
        ],
    ]
};

/// How long a state has lasted, which only a perfect tense may have moved to its front ("For ten
/// years, she has worked here."; "For two weeks, she stayed." is not English).
const SINCE_PHRASES: &[&[Slot]] = {
    use Slot::*;
    &[
        &[Word("since"), Month],
        &[Word("since"), Year],
        // "May" ends the sentence here, so it is the month.
        &[Word("since"), Word("may")],
        &[Word("since"), AnyOf(DAY_NAMES)],
        &[Word("since"), AnyOf(&["yesterday", "then", "christmas", "easter"])],
        &[Word("since"), Word("last"), TimeNoun],
        &[Word("since"), Word("last"), AnyOf(DAY_NAMES)],
        &[Word("since"), Word("last"), Month],
        &[Word("since"), AnyOf(DAY_NAMES), AnyOf(PARTS_OF_DAY)],
    ]
};

/// Whether the sentence's verb is in a perfect tense ("has worked", "have not heard", "'ve lived").
fn perfect(p: &Plain) -> bool {
    p.items.iter().any(|t| {
        let lower = t.text.to_lowercase().replace('’', "'");
        (HAVE_FORMS.contains(&lower.as_str()) && lower != "having") || lower.ends_with("'ve")
    })
}

/// The length of the longest of `phrases` that ends the sentence.
fn listed_time_phrase(p: &Plain, phrases: &[&[Slot]]) -> Option<usize> {
    let n = p.items.len();
    // Every phrase reads the sentence's last words: lowercased once, not once a phrase.
    let longest = phrases.iter().map(|slots| slots.len()).max().unwrap_or(0);
    let from = n.saturating_sub(longest + 1);
    let tail: Vec<String> = (from..n).map(|k| p.lower(k)).collect();
    phrases
        .iter()
        .filter(|slots| {
            // "half a year ago" is one phrase: "a year ago" alone would leave "half" behind.
            slots.len() < n
                && tail[n - slots.len() - 1 - from] != "half"
                && slots.iter().enumerate().all(|(k, slot)| {
                    let at = n - slots.len() + k;
                    p.items[at].is_word() && slot.fits(&tail[at - from])
                })
        })
        .map(|slots| slots.len())
        .max()
}

/// The forms of needing and wanting, whose thing may carry its own time.
const NEEDING: &[&str] = &["need", "needs", "needed", "want", "wants", "wanted"];

/// Verbs whose object event happens when it is had or held ("are having a barbecue this evening",
/// "held a meeting on Monday", "celebrating our anniversary tonight"), and "at", where one is
/// while it happens ("had a good time at the concert last night").
const TAKING_PART: &[&str] = &[
    "have",
    "has",
    "had",
    "having",
    "hold",
    "holds",
    "held",
    "holding",
    "attend",
    "attends",
    "attended",
    "attending",
    "host",
    "hosts",
    "hosted",
    "hosting",
    "celebrate",
    "celebrates",
    "celebrated",
    "celebrating",
    // Past forms of enjoying, watching, winning or missing an event, which happen while it does
    // ("I really enjoyed the concert last night." -> "Last night, I really enjoyed the concert.").
    // Not the presents: "We watch the match on Saturday" is an arrangement.
    "enjoyed",
    "loved",
    "watched",
    "won",
    "lost",
    "missed",
    "at",
];

/// Whether the event named at item `event` is the object of a verb of having or holding it, with
/// only its determiner and its describing words between ("having a big family barbecue"): its
/// time is then when it is had, the sentence's time as much as the event's. An event after a
/// preposition ("invited to their housewarming", "tickets for the concert") is another matter.
fn taken_part_in(p: &Plain, event: usize) -> bool {
    let from = event.saturating_sub(4);
    (from..event).rev().find(|&k| TAKING_PART.contains(&p.lower(k).as_str())).is_some_and(|verb| {
        (verb + 1..event).all(|k| {
            let w = p.lower(k);
            !crate::words::PREPOSITIONS.contains(&w.as_str())
                && !["and", "or", "but", "to"].contains(&w.as_str())
        })
    })
}

/// "We ate at home last night." -> "Last night, we ate at home."
pub fn front_time_phrase(p: &Plain) -> Option<Vec<Token>> {
    if p.commas() != 0 || p.terminal.text == "?" {
        return None;
    }
    let len = trailing_time_phrase(p)?;
    let n = p.items.len();
    // "looks lovely for Christmas", "was ready for her birthday": what something is like for an
    // occasion, which in front would read as when it is so.
    const LINKING: &[&str] = &[
        "look", "looks", "looked", "seem", "seems", "seemed", "feel", "feels", "felt", "sound", "sounds",
        "sounded",
    ];
    // "I'll see you for Christmas": a meeting for an occasion is when the meeting is, and in
    // front reads as a reason.
    const MEETING: &[&str] = &["see", "sees", "seeing", "saw", "meet", "meets", "meeting", "met"];
    // "went to bed early last night", "arrived early this morning": "early" or "late" may be the
    // verb's, earlier or later than expected, and in front it would only be the time of day
    // ("Early last night, the children went to bed").
    // Only acts that keep to an expected time are early or late themselves ("called me late last
    // night" is the night's).
    const EXPECTED: &[&str] = &[
        "arrive", "leave", "go", "come", "get", "wake", "start", "begin", "finish", "end", "open", "close",
        "land", "depart", "return", "set", "turn", "check", "went", "goes", "came", "comes", "got", "gets",
        "left", "leaves", "woke", "wakes", "began", "begins",
    ];
    let expected = (0..n - len).any(|k| {
        let w = p.lower(k);
        [Tense::Past, Tense::Present]
            .iter()
            .any(|&t| finite_lemma(&w, t, true).is_some_and(|l| EXPECTED.contains(&l)))
            || EXPECTED.contains(&w.as_str())
    });
    if ["early", "late"].contains(&p.lower(n - len).as_str()) && expected {
        return None;
    }
    let occasion = p.lower(n - len) == "for";
    let state = (0..n - len).any(|k| {
        let w = p.lower(k);
        LINKING_BE.contains(&w.as_str()) || LINKING.contains(&w.as_str()) || MEETING.contains(&w.as_str())
    });
    if occasion && state {
        return None;
    }
    // "promised to help him move on Saturday": the day may belong to either verb.
    let infinitive = (0..n).any(|k| infinitive_at(p, k));
    if has_clause_word(p, usize::MAX) && infinitive {
        return None;
    }
    // "the work completed in October": after a noun and its participle the time is the
    // participle's, which at the front would date the whole sentence; and "At the end of the
    // day," in front is the idiom for "ultimately".
    let participle = p.from_end(len + 1);
    // A noun that opens the sentence is its subject ("The parcel arrived in a fortnight").
    let reduced = participle.ends_with("ed")
        && n >= len + 5
        && is_noun(&p.from_end(len + 2))
        && !FINITE_BE.contains(&p.from_end(len + 2).as_str());
    let idiom = (n - len..n).map(|k| p.lower(k)).collect::<Vec<_>>().join(" ") == "at the end of the day";
    if reduced || idiom {
        return None;
    }
    // "we stayed up talking until 2 am" tells how long, and "Until 2 am, we ..." reads as a
    // setting it is not.
    if ["until", "till"].contains(&p.lower(n - len).as_str()) {
        return None;
    }
    // The phrase belongs to the last of two coordinated clauses: it stays in that clause.
    if coordinated_clause(p, n - len) {
        return None;
    }
    // Another time before an "and" ("went to the bank in the morning and the post office after
    // lunch"): each time belongs to its own part, so the last one stays with its part.
    let joined = (0..n - len).rev().find(|&k| ["and", "or", "but"].contains(&p.lower(k).as_str()));
    if joined.is_some_and(|j| {
        (0..j).any(|k| {
            let w = p.lower(k);
            TIME_NOUNS.contains(&w.as_str())
                || PARTS_OF_DAY.contains(&w.as_str())
                || WEEKDAYS.contains(&w.as_str())
                || MONTHS.contains(&w.as_str())
        })
    }) {
        return None;
    }
    // A clause word before the phrase ("said that she would pick us up at six", "once you are
    // back"): the phrase may belong to that clause.
    if (0..n - len).any(|k| {
        let w = p.lower(k);
        // "and", "but", "or" are `coordinated_clause`'s, "to" the infinitive check's.
        !["to", "and", "but", "or"].contains(&w.as_str())
            && (CLAUSE_WORDS.contains(&w.as_str())
                || [
                    "once", "said", "says", "say", "told", "asked", "forward", "reminder", "think", "thinks",
                    "thought", "hope", "hopes", "hoping", "hoped", "require", "requires", "required",
                    "believe", "believes", "expect", "expects", "whether", "what", "how", "why", "thanks",
                    "thank",
                ]
                .contains(&w.as_str()))
    }) {
        return None;
    }
    // "steep and muddy after rain": after a coordinated pair the time may be the last one's.
    let paired_quality = crate::words::clear_pos(&p.from_end(len + 1)) == Some(crate::lexicon::Pos::Adj);
    if paired_quality && ["and", "or"].contains(&p.from_end(len + 2).as_str()) {
        return None;
    }
    // "at eight in the morning": the part of the day tells which eight, so it stays with the
    // clock time ("at six on Saturdays" may move).
    let before = p.from_end(len + 1);
    let part_of_day = ["in", "at"].contains(&p.from_end(len).as_str()) || p.from_end(len - 1) == "the";
    let clock = (p.from_end(len + 2) == "at"
        && (before.bytes().all(|b| b.is_ascii_digit()) || COUNTS.contains(&before.as_str())))
        || (["o'clock", "o’clock"].contains(&before.as_str()) && p.from_end(len + 3) == "at");
    if clock && part_of_day && PARTS_OF_DAY.contains(&p.from_end(1).as_str()) {
        return None;
    }
    // "by noon on Friday": the phrase tells which noon, so it stays with the other time.
    if ["by", "at", "before", "until", "from", "on"].contains(&p.from_end(len + 2).as_str())
        && (TIME_NOUNS.contains(&before.as_str())
            || ["noon", "midday", "midnight", "dawn", "dusk"].contains(&before.as_str())
            || before.bytes().all(|b| b.is_ascii_digit())
            || COUNTS.contains(&before.as_str()))
    {
        return None;
    }
    // After an event ("their barbecue on Saturday") the date may be the event's.
    let counted = {
        let c = p.from_end(len + 2);
        COUNTS.contains(&c.as_str()) || c.bytes().all(|b| b.is_ascii_digit())
    };
    let scheduled = SCHEDULES.contains(&p.from_end(len + 1).as_str()) && !counted;
    if (is_event(&p.from_end(len + 2), &p.from_end(len + 1)) && !taken_part_in(p, n - len - 1)) || scheduled {
        return None;
    }
    // "We got tickets for the concert next summer": a time to come after a past verb is what was
    // got's, not when it was got.
    let coming = ["next", "tomorrow", "tonight"].contains(&p.lower(n - len).as_str());
    let future = (0..n - len).any(|k| {
        let w = p.lower(k).replace('’', "'");
        ["will", "shall", "going", "is", "are", "am", "can", "could", "might", "may"].contains(&w.as_str())
            || w.ends_with("'ll")
    });
    let past = !future
        && (0..n - len).any(|k| {
            let w = p.lower(k);
            ["got", "went", "made", "took", "said", "came", "bought", "booked", "was", "were", "did", "had"]
                .contains(&w.as_str())
                || finite_lemma(&w, Tense::Past, true).is_some()
        });
    if coming && past {
        return None;
    }
    // "my message about the cricket on Sunday": after "about" and a noun phrase the time may be
    // that noun's; and a present perfect takes no past date ("hasn't replied ... on Sunday"), so
    // the date is something else's.
    let about = ((n - len).saturating_sub(4)..(n - len).saturating_sub(1)).any(|k| {
        ["about", "regarding"].contains(&p.lower(k).as_str())
            && (PHRASE_DETERMINERS.contains(&p.lower(k + 1).as_str())
                || PERSONAL_POSSESSIVES.contains(&p.lower(k + 1).as_str()))
    });
    let perfect_clause = (1..n - len).any(|k| {
        let have = p.lower(k - 1).replace('’', "'");
        let verb = p.lower(k);
        (["has", "have", "hasn't", "haven't"].contains(&have.as_str()) || have.ends_with("'ve"))
            && (verb == "been" || verb == "not" || crate::words::participle_lemma(&verb).is_some())
    });
    let dated = ["on", "last", "yesterday"].contains(&p.lower(n - len).as_str());
    // "hasn't been to the dentist in three years": after a perfect, "in" and a length is how long
    // it has been; in front it reads as a time to come ("In three years, he has not been ...").
    let stretch = p.lower(n - len) == "in"
        && (n - len + 1..n).any(|k| {
            let w = p.lower(k);
            TIME_UNITS.contains(&w.as_str())
                || ["ages", "years", "months", "weeks", "days"].contains(&w.as_str())
        });
    // "have never had": the perfect past an adverb of its own.
    let perfect_past_adverb = (2..n - len).any(|k| {
        let have = p.lower(k - 2).replace('’', "'");
        let have = ["has", "have", "hasn't", "haven't"].contains(&have.as_str()) || have.ends_with("'ve");
        have && ["never", "not", "ever", "always", "just"].contains(&p.lower(k - 1).as_str())
    });
    if (perfect_clause || perfect_past_adverb) && stretch {
        return None;
    }
    if about || (perfect_clause && dated) {
        return None;
    }
    // "The deadline is midnight on Sunday": the phrase tells which midnight the subject is.
    let told = p.from_end(len + 1);
    if LINKING_BE.contains(&p.from_end(len + 2).as_str())
        && (TIME_NOUNS.contains(&told.as_str())
            || ["midnight", "noon", "midday", "dawn", "o'clock"].contains(&told.as_str())
            || told.bytes().all(|b| b.is_ascii_digit())
            || COUNTS.contains(&told.as_str()))
    {
        return None;
    }
    // "Every Friday the team goes to the pub after work": a second phrase in front would stack
    // two ("After work, every Friday the team goes to the pub.").
    if crate::syntax::opens_with_adverbial(p) {
        return None;
    }
    // Booked, invited or planned things, an object's infinitive of purpose, an "-ing" after a
    // preposition: the time may be theirs (`syntax::time_inside`).
    if time_inside(p, n - len) || crate::syntax::claimed_by_noun(p, n - len) {
        return None;
    }
    // "can't afford to go out every weekend": a negation covers "every", and in front the
    // phrase would take it out of the negation ("Every weekend, I cannot afford to go out.").
    let negated = (0..n - len).any(|k| crate::words::is_negation(&p.lower(k)));
    if negated && ["every", "each", "all"].contains(&p.lower(n - len).as_str()) {
        return None;
    }
    // "didn't realise the shop was closed on Sundays": the phrase is the reported clause's.
    if crate::syntax::reported(p, n - len) {
        return None;
    }
    // "wants the figures by the end of the day": a deadline is what is wanted, not when.
    if p.lower(n - len) == "by"
        && (0..n - len).any(|k| {
            ["want", "wants", "wanted", "need", "needs", "needed", "expect", "expects", "expected", "asked"]
                .contains(&p.lower(k).as_str())
        })
    {
        return None;
    }
    // "She was born on 3 April.": the date is what the sentence tells, and fronted it reads as
    // the setting of a story ("On 3 April, she was born."). "expecting their second baby in
    // May": the date is the baby's, not when they are expecting.
    if p.from_end(len + 1) == "born"
        || (0..n - len)
            .any(|k| ["expecting", "expect", "expects", "expected", "due"].contains(&p.lower(k).as_str()))
    {
        return None;
    }
    // A clock time is one moment: after two actions ("finished his work and went home at five
    // o'clock") it is the last one's, and after an event ("an appointment with the dentist at ten
    // thirty") the event's, so at the front it would time the wrong thing.
    let clock_time =
        p.lower(n - len) == "at" && (n - len + 1..n).any(|k| HOURS.contains(&p.lower(k).as_str()));
    if clock_time
        && (0..n - len).any(|k| {
            let w = p.lower(k);
            let before = if k > 0 { p.lower(k - 1) } else { String::new() };
            ["and", "then", "or", "but"].contains(&w.as_str()) || is_event(&before, &w)
        })
    {
        return None;
    }
    // A subject pronoun after the first word opens a clause inside the sentence ("the clearest one
    // we have seen this year", "the payment you sent on Friday"): the phrase may belong to it.
    let words: Vec<String> = (0..n - len).map(|k| p.lower(k)).collect();
    // "My wife and I are" is the subject's own pronoun, opening nothing.
    let inner = |k: usize| crate::syntax::inner_subject(&words, k) && !crate::syntax::subject_pair(p, k - 1);
    if (1..n - len).any(inner) {
        return None;
    }
    // "The baby is sleeping through the night": sleeping the night through is what is told, not
    // when.
    if p.lower(n - len) == "through"
        && ["sleep", "sleeps", "slept", "sleeping"].contains(&p.from_end(len + 1).as_str())
    {
        return None;
    }
    // "didn't empty our bin again this morning": under a negation "again" left at the end would
    // read with the fronted time too ("This morning, they did not empty our bin again": not
    // again, or again not?). Without one it tells only that it happened before ("I burnt the
    // toast again this morning." -> "This morning, I burnt the toast again.").
    if p.from_end(len + 1) == "again" && (0..n - len).any(|k| crate::words::is_negation(&p.lower(k))) {
        return None;
    }
    // "no more than eight tablets in twenty-four hours": a length that bounds a count is within
    // it, where in front "In twenty-four hours" reads as after it.
    let bounded = || {
        (0..n - len)
            .any(|k| ["more", "than", "over", "most", "maximum", "only", "up"].contains(&p.lower(k).as_str()))
    };
    if p.lower(n - len) == "in" && crate::words::TIME_UNITS.contains(&p.from_end(1).as_str()) && bounded() {
        return None;
    }
    // "coming back a week on Friday": the day counts the week from it, one date, not two times.
    if ["week", "fortnight"].contains(&p.from_end(len + 1).as_str()) && p.from_end(len + 2) == "a" {
        return None;
    }
    // "Please cancel my contract at the end of the month": before a request the time reads as
    // when to ask, not when to do it.
    if crate::syntax::request(p) {
        return None;
    }
    // "need more volunteers for the tea tent in the afternoon": after what is needed or wanted
    // "for" something, the time may be that thing's (the afternoon's shift), not the need's.
    let wanting = (0..n - len).find(|&k| NEEDING.contains(&p.lower(k).as_str()));
    if wanting.is_some_and(|w| (w + 1..n - len).any(|k| p.lower(k) == "for")) {
        return None;
    }
    // "The meeting is in the afternoon.": the phrase is what the subject is, so it stays.
    if n < len + 3 || LINKING_BE.contains(&p.from_end(len + 1).as_str()) {
        return None;
    }
    shape::front(p, n - len)
}

/// The time phrase that opens the sentence, read as `trailing_time_phrase` reads one at the end:
/// its end (exclusive) and whether a comma follows it. Written with no comma ("Last night we ate
/// at home"), it must end exactly where a clause begins (`syntax::clause_at`: "we ate"), at one
/// place only, so that no word of it could be the subject's ("Last night was fun", "After dinner
/// drinks are served" open no clause after the phrase). "Next time you see him" is a clause of
/// its own, whose "time" the phrase would swallow: a phrase ending in "time" needs its comma.
fn opening_time_phrase(p: &Plain) -> Option<(usize, bool)> {
    let reads_as_phrase = |c: usize| {
        let mut phrase = Plain { items: vec![shape::word("then")], terminal: p.terminal.clone() };
        phrase.items.extend(p.items[..c].iter().map(|t| leaving_start(t).unwrap_or_else(|| t.clone())));
        trailing_time_phrase(&phrase) == Some(c)
    };
    if let Some(c) = p.items.iter().position(|t| !t.is_word()) {
        return reads_as_phrase(c).then_some((c, true));
    }
    // With no comma, a sentence that opens with its subject and verb has no phrase before them
    // (most sentences: read first, it spares six readings of a time phrase); else each of the
    // first six words may end the phrase, read on one copy of them cut back from its end.
    if crate::syntax::clause_at(p, 0).is_some() {
        return None;
    }
    let n = p.items.len();
    let last = n.min(7).saturating_sub(1);
    let mut phrase = Plain { items: vec![shape::word("then")], terminal: p.terminal.clone() };
    phrase.items.extend(p.items[..last].iter().map(|t| leaving_start(t).unwrap_or_else(|| t.clone())));
    let mut ends = Vec::new();
    for c in (1..=last).rev() {
        phrase.items.truncate(c + 1);
        if trailing_time_phrase(&phrase) == Some(c) && crate::syntax::clause_at(p, c).is_some() {
            ends.push(c);
        }
    }
    match ends[..] {
        [c] if p.lower(c - 1) != "time" => Some((c, false)),
        _ => None,
    }
}

/// "After lunch, we will review the contracts." -> "We will review the contracts after lunch.": a
/// fronted time phrase, with its comma or without ("Next year the school will charge parents"),
/// goes back to the end of its clause, when the sentence is that one clause (after a second
/// clause it would date that one alone) and it has no time phrase at its end. A clause with no
/// "that" inside ("told my boss I was leaving") would take the phrase as its own at the end.
pub fn time_phrase_to_end(p: &Plain) -> Option<Vec<Token>> {
    if p.terminal.text == "?" {
        return None;
    }
    let (c, comma) = opening_time_phrase(p)?;
    let from = if comma { c + 1 } else { c };
    if p.commas() != usize::from(comma) {
        return None;
    }
    let n = p.items.len();
    let rest = Plain { items: p.items[from..].to_vec(), terminal: p.terminal.clone() };
    let clause_word = rest.items.iter().any(|t| {
        let w = t.text.to_lowercase();
        w != "to" && CLAUSE_WORDS.contains(&w.as_str())
    });
    let words: Vec<String> = (0..rest.items.len()).map(|k| rest.lower(k)).collect();
    let inner = (1..words.len()).any(|k| crate::syntax::inner_subject(&words, k));
    // "reading a crime novel set in Edinburgh": after the main verb, a noun and a participle
    // with its phrase describe the noun, and a time after them would be the participle's ("set
    // in Edinburgh this month").
    let verb = crate::syntax::clause_at(&rest, 0).unwrap_or(0);
    let described = (verb + 2..words.len().saturating_sub(1)).any(|k| {
        is_noun(&words[k - 1])
            && crate::words::participle_lemma(&words[k]).is_some()
            && crate::words::PREPOSITIONS.contains(&words[k + 1].as_str())
    });
    if n - from < 2 || clause_word || inner || described || trailing_time_phrase(&rest).is_some() {
        return None;
    }
    let mut out = vec![starting(&p.items[from])];
    out.extend_from_slice(&p.items[from + 1..]);
    out.extend(p.items[..c].iter().map(|t| leaving_start(t).unwrap_or_else(|| t.clone())));
    let moved = shape::build(&out, &p.terminal);
    // A phrase with no comma after it was not set off by its writer: at the end it must read as
    // the whole clause's time, which is what fronting it again checks. After an event ("closed
    // early due to the flood on Tuesday") or a clock time ("at seven next month") it would be
    // theirs, after an infinitive the infinitive's ("hope to perform in the cathedral next year").
    if !comma && shape::plain(&moved).and_then(|m| front_time_phrase(&m)).is_none() {
        return None;
    }
    Some(moved)
}

/// "Last night we ate at home." -> "Last night, we ate at home.": the comma that an opening time
/// phrase read with no comma (`opening_time_phrase`) may take, which changes nothing else.
pub fn comma_after_time_phrase(p: &Plain) -> Option<Vec<Token>> {
    if p.terminal.text == "?" || p.commas() != 0 {
        return None;
    }
    let (c, false) = opening_time_phrase(p)? else { return None };
    let mut out = p.items[..c].to_vec();
    out.push(comma());
    out.extend_from_slice(&p.items[c..]);
    Some(shape::build(&out, &p.terminal))
}

/// The time phrase of a second coordinated clause moves to that clause's front, where it still
/// dates that clause alone: "They cleaned the house and she cooked on Saturday." -> "They cleaned
/// the house, and on Saturday she cooked." The second clause must have its own subject (a pronoun,
/// or a determiner and a noun before a finite verb), so the phrase lands between the coordinator
/// and a subject, never inside a verb phrase.
pub fn front_time_phrase_in_clause(p: &Plain) -> Option<Vec<Token>> {
    if p.commas() != 0 || p.terminal.text == "?" {
        return None;
    }
    let len = trailing_time_phrase(p)?;
    let n = p.items.len();
    let start = n - len;
    // The last "and" or "but", with one clause before it and one after.
    let and = (2..start).rev().find(|&k| ["and", "but"].contains(&p.lower(k).as_str()))?;
    if (0..start).any(|k| k != and && CLAUSE_WORDS.contains(&p.lower(k).as_str())) {
        return None;
    }
    let subject = p.lower(and + 1);
    let own_subject = (SUBJECT_PRONOUNS.contains(&subject.as_str())
        && and + 2 < start
        && clearly_finite(&p.lower(and + 2), true))
        || ((PERSONAL_POSSESSIVES.contains(&subject.as_str())
            || DEFINITE_DETERMINERS.contains(&subject.as_str()))
            && and + 3 < start
            && is_noun(&p.lower(and + 2))
            && clearly_finite(&p.lower(and + 3), true));
    // "and it arrives on Friday": a present for what is arranged reads as a story's present once
    // the day leads ("and on Friday it arrives"); a habit ("on Mondays", "every week") may lead.
    let verb = if SUBJECT_PRONOUNS.contains(&subject.as_str()) { p.lower(and + 2) } else { p.lower(and + 3) };
    let habitual = (start..n).any(|k| {
        let w = p.lower(k);
        ["every", "each", "weekends"].contains(&w.as_str())
            || w.strip_suffix('s').is_some_and(|d| DAY_NAMES.contains(&d) || WEEKDAYS.contains(&d))
    });
    let arranged = finite_lemma(&verb, Tense::Present, true).is_some() && !habitual;
    if arranged {
        return None;
    }
    // "The teacher and the students left": a first part with no verb is a subject, not a clause.
    let first_clause = (0..and).any(|k| {
        let w = p.lower(k);
        crate::words::heads_clause(&w)
            || crate::words::is_verbish(&w)
            || SUBJECT_PRONOUNS.contains(&w.as_str())
    });
    // "The meeting is in the afternoon": the phrase is what the second subject is.
    if !own_subject
        || !first_clause
        || LINKING_BE.contains(&p.from_end(len + 1).as_str())
        || !coordinated_clause(p, start)
    {
        return None;
    }
    let mut out: Vec<Token> = p.items[..and].to_vec();
    out.push(comma());
    out.push(p.items[and].clone());
    out.extend_from_slice(&p.items[start..]);
    out.extend_from_slice(&p.items[and + 1..start]);
    Some(shape::build(&out, &p.terminal))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::apply as run;

    #[test]
    fn a_time_phrase_leaves_no_modifier_of_its_own_behind() {
        let f = front_time_phrase;
        assert_eq!(run(f, "The house was built over four years ago."), None);
        assert_eq!(run(f, "The bridge was built over a hundred years ago."), None);
        assert_eq!(run(f, "We moved here about six years ago."), None);
        assert_eq!(run(f, "The shop opened more than ten years ago."), None);
        assert_eq!(run(f, "They left at least two weeks ago."), None);
        assert_eq!(run(f, "The shop opened 10 years ago."), None, "no sentence starts with digits");
        assert_eq!(run(f, "He came over last night.").as_deref(), Some("Last night, he came over."));
        assert_eq!(run(f, "We got to the hotel just before midnight."), None);
        assert_eq!(run(f, "He left soon after lunch."), None);
        assert_eq!(run(f, "My back hurt all last week."), None);
        assert_eq!(run(f, "They arrived shortly after ten."), None);
    }

    #[test]
    fn a_time_ending_a_noun_phrase_stays_in_it() {
        let f = front_time_phrase;
        assert_eq!(run(f, "We walked to the lighthouse on our last morning."), None);
        assert_eq!(run(f, "She cried on her last day."), None);
        assert_eq!(run(f, "We saw her last week.").as_deref(), Some("Last week, we saw her."));
        assert_eq!(
            run(f, "We walked to the lighthouse last week.").as_deref(),
            Some("Last week, we walked to the lighthouse.")
        );
    }

    #[test]
    fn a_time_after_a_second_predicate_stays_with_it() {
        let f = front_time_phrase;
        assert_eq!(run(f, "She is ninety-one and still does her own shopping every morning."), None);
        assert_eq!(
            run(f, "She does her own shopping every morning.").as_deref(),
            Some("Every morning, she does her own shopping.")
        );
    }

    #[test]
    fn a_time_after_a_liked_doing_is_the_doing_s() {
        let f = front_time_phrase;
        assert_eq!(run(f, "She loves talking about her time as a nurse during the war."), None);
        assert_eq!(run(f, "He enjoys playing tennis at weekends."), None);
        assert_eq!(
            run(f, "I really enjoyed meeting your parents last night.").as_deref(),
            Some("Last night, I really enjoyed meeting your parents.")
        );
        assert_eq!(
            run(f, "We went swimming on Saturday.").as_deref(),
            Some("On Saturday, we went swimming.")
        );
    }

    #[test]
    fn a_request_and_a_needed_thing_keep_their_time() {
        let f = front_time_phrase;
        assert_eq!(run(f, "Please cancel my contract at the end of the month."), None);
        assert_eq!(run(f, "Cancel my contract at the end of the month."), None);
        assert_eq!(run(f, "We need more volunteers for the tea tent in the afternoon."), None);
        assert_eq!(
            run(f, "My brother cancelled his contract at the end of the month.").as_deref(),
            Some("At the end of the month, my brother cancelled his contract.")
        );
        assert_eq!(
            run(f, "We need more volunteers in the afternoon.").as_deref(),
            Some("In the afternoon, we need more volunteers.")
        );
    }

    #[test]
    fn a_span_after_a_first_or_a_superlative_stays_with_it() {
        let f = front_time_phrase;
        let text = "My husband forgot our anniversary for the first time in twelve years.";
        assert_eq!(run(f, text), None);
        assert_eq!(run(f, "We had the best meal in years."), None);
        assert_eq!(
            run(f, "My husband forgot our anniversary for the first time last year.").as_deref(),
            Some("Last year, my husband forgot our anniversary for the first time.")
        );
    }

    #[test]
    fn a_time_phrase_stays_with_the_clause_it_may_modify() {
        let f = front_time_phrase;
        // An "-ing" clause with its own subject between the verb and the phrase may own it.
        assert_eq!(run(f, "The party ended with everyone dancing on Saturday."), None);
        assert_eq!(run(f, "I heard them playing the piano late last night."), None);
        // Right after the main verb the "-ing" is that verb's, and the phrase still moves.
        assert_eq!(run(f, "I went swimming on Saturday.").as_deref(), Some("On Saturday, I went swimming."));
        // "again" left at the end would read with the fronted time too.
        assert_eq!(run(f, "They didn't empty our bin again this morning."), None);
        assert_eq!(run(f, "They are coming back a week on Friday."), None);
        assert_eq!(run(f, "You should not take more than eight tablets in twenty-four hours."), None);
        assert_eq!(
            run(f, "The plumber will come back in two weeks.").as_deref(),
            Some("In two weeks, the plumber will come back.")
        );
        // An event one has or holds happens when it is had; after a preposition it may be later.
        assert_eq!(
            run(f, "Our neighbours are having a loud barbecue this evening.").as_deref(),
            Some("This evening, our neighbours are having a loud barbecue.")
        );
        assert_eq!(run(f, "We were invited to their barbecue on Sunday."), None);
        assert_eq!(
            run(f, "We met a lot of nice people at the barbecue last night.").as_deref(),
            Some("Last night, we met a lot of nice people at the barbecue.")
        );
        assert_eq!(run(f, "We bought tickets for the barbecue on Sunday."), None);
        // An "and" inside the subject joins no clauses; one after a verb does.
        assert_eq!(
            run(f, "Tom and Anna moved to Leeds last year.").as_deref(),
            Some("Last year, Tom and Anna moved to Leeds.")
        );
        assert_eq!(
            run(f, "My wife and I are decorating the hall this weekend.").as_deref(),
            Some("This weekend, my wife and I are decorating the hall.")
        );
        assert_eq!(run(f, "Tom cooked dinner and then went to the gym last night."), None);
        assert_eq!(
            run(f, "I burnt the toast again this morning.").as_deref(),
            Some("This morning, I burnt the toast again.")
        );
        assert_eq!(
            run(f, "They didn't empty our bin this morning.").as_deref(),
            Some("This morning, they didn't empty our bin.")
        );
    }

    #[test]
    fn time_phrases_move_to_the_front() {
        let f = front_time_phrase;
        assert_eq!(
            run(f, "He reads the newspaper every morning.").as_deref(),
            Some("Every morning, he reads the newspaper.")
        );
        assert_eq!(
            run(f, "We went skiing in the Alps last February.").as_deref(),
            Some("Last February, we went skiing in the Alps.")
        );
        // A month after "by" is a deadline, and "last" alone dates nothing.
        assert_eq!(run(f, "The essay is due by March."), None);
        assert_eq!(
            run(f, "The museum is closed on Mondays.").as_deref(),
            Some("On Mondays, the museum is closed.")
        );
        assert_eq!(run(f, "We moved to Lisbon in 2019.").as_deref(), Some("In 2019, we moved to Lisbon."));
        assert_eq!(
            run(f, "They moved to Spain half a year ago.").as_deref(),
            None,
            "the fronted phrase would leave \"half\" behind"
        );
        assert_eq!(
            run(f, "We visit my grandparents at Easter.").as_deref(),
            Some("At Easter, we visit my grandparents.")
        );
        assert_eq!(
            run(f, "We walked along the beach at sunset.").as_deref(),
            Some("At sunset, we walked along the beach.")
        );
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
        // "By noon, the manager wants the report" would say when he wants it.
        assert_eq!(run(f, "We finished the work by noon."), None);
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
        assert_eq!(run(f, "The bakery opens at seven."), None);
        assert_eq!(run(f, "It rained at the end of last year."), None);
        assert_eq!(run(f, "The supermarket opens at eight in the morning."), None);
        for (text, fronted) in [
            ("We moved into this flat four years ago.", "Four years ago, we moved into this flat."),
            ("She works from home on Mondays and Fridays.", "On Mondays and Fridays, she works from home."),
            ("Her sister left on the third of April.", "On the third of April, her sister left."),
            ("The bus comes every ten minutes.", "Every ten minutes, the bus comes."),
            ("I go swimming three times a week.", "Three times a week, I go swimming."),
            ("The shop closes at the end of March.", "At the end of March, the shop closes."),
            ("The path gets muddy after rain.", "After rain, the path gets muddy."),
            ("He washed his car every Sunday morning.", "Every Sunday morning, he washed his car."),
            ("We visited my aunt over the Easter weekend.", "Over the Easter weekend, we visited my aunt."),
            ("She ran five kilometres in half an hour.", "In half an hour, she ran five kilometres."),
            ("The parcel arrived in a fortnight.", "In a fortnight, the parcel arrived."),
            ("They built the bridge a century ago.", "A century ago, they built the bridge."),
            ("They built the bridge a hundred years ago.", "A hundred years ago, they built the bridge."),
            ("We left the house at half past nine.", "At half past nine, we left the house."),
            ("We left the house at nine thirty.", "At nine thirty, we left the house."),
            ("We got home at ten o'clock.", "At ten o'clock, we got home."),
            ("The film started at a quarter to eight.", "At a quarter to eight, the film started."),
            (
                "She packed her suitcase the night before the trip.",
                "The night before the trip, she packed her suitcase.",
            ),
        ] {
            assert_eq!(run(f, text).as_deref(), Some(fronted), "{text}");
        }
        assert_eq!(
            run(f, "We have not heard from them since May.").as_deref(),
            Some("Since May, we have not heard from them.")
        );
        assert_eq!(
            run(f, "She has worked at the hospital since 2015.").as_deref(),
            Some("Since 2015, she has worked at the hospital.")
        );
        // Without a perfect "since" may be a cause; a number that is no year is no date.
        assert_eq!(run(f, "She worked at the hospital since 2015."), None);
        assert_eq!(run(f, "The shop has been open since 0900."), None);
        assert_eq!(run(f, "She stayed with us for two weeks."), None);
        assert_eq!(
            run(f, "They sell sandwiches at lunchtime.").as_deref(),
            Some("At lunchtime, they sell sandwiches.")
        );
        assert_eq!(
            run(f, "My parents took us to Paris for our anniversary.").as_deref(),
            Some("For our anniversary, my parents took us to Paris.")
        );
        assert_eq!(run(f, "I bought my nephew a football for his birthday."), None);
        assert_eq!(run(f, "The path to the village is steep and muddy after rain."), None);
        assert_eq!(run(f, "Let me know what time suits you next week."), None);
        assert_eq!(run(f, "The skip will be collected on Tuesday after lunch."), None);
        assert_eq!(run(f, "Our insurance company requires the chimney to be swept once a year."), None);
        assert_eq!(run(f, "Thanks for all your hard work with the team this year."), None);
        assert_eq!(
            run(f, "We went to Spain for Christmas.").as_deref(),
            Some("For Christmas, we went to Spain.")
        );
        // What the thing is for, after "be", is no time of the sentence.
        assert_eq!(run(f, "The cake is for her birthday."), None);
        assert_eq!(
            run(f, "I drove on the motorway for the first time.").as_deref(),
            Some("For the first time, I drove on the motorway.")
        );
        assert_eq!(run(f, "It was for the first time."), None);
        assert_eq!(run(f, "The window display looks lovely for Christmas."), None);
        assert_eq!(run(f, "The house was ready for her birthday."), None);
        assert_eq!(run(f, "I will see you for Christmas."), None);
        assert_eq!(run(f, "What do you want for Christmas?"), None);
        assert_eq!(run(f, "She stayed with us for half an hour."), None);
        // An age or a price, not a clock time; a clock time that is what the subject is.
        assert_eq!(run(f, "She learned to read at five."), None);
        assert_eq!(run(f, "I bought the apples at two fifty."), None);
        assert_eq!(run(f, "The meeting is at half past nine."), None);
        assert_eq!(run(f, "The flight is on 3 April."), None);
        assert_eq!(run(f, "We met on 32 April."), None);
        assert_eq!(run(f, "She was born on 3 April."), None);
        assert_eq!(run(f, "I didn't realise the shop was closed on Sundays."), None);
        assert_eq!(run(f, "The deadline for applications is midnight on Sunday."), None);
        assert_eq!(run(f, "I can't afford to go out every weekend."), None);
        assert_eq!(run(f, "Every Friday the team goes to the pub after work."), None);
        assert_eq!(run(f, "We're thinking of redecorating the living room in spring."), None);
        assert_eq!(run(f, "I'm thinking about going back to college next year."), None);
        assert_eq!(run(f, "We are considering moving to a bigger flat next year."), None);
        assert_eq!(run(f, "We stayed up talking until 2 am."), None);
        assert_eq!(run(f, "My exams start on the fifth of June and finish two weeks later."), None);
        assert_eq!(run(f, "Let's schedule a quick catch-up on Thursday afternoon."), None);
        assert_eq!(run(f, "Please find attached my invoice for the work completed in October."), None);
        assert_eq!(run(f, "The bakery gives us the unsold bread at the end of the day."), None);
        assert_eq!(run(f, "We're training for the half marathon in October."), None);
        assert_eq!(run(f, "We're organising a charity run in the spring."), None);
        assert_eq!(run(f, "The library has extended its opening hours on Saturdays."), None);
        assert_eq!(run(f, "Please ring the surgery to cancel my check-up tomorrow."), None);
        assert_eq!(run(f, "We got tickets for the Coldplay concert in Cardiff next summer."), None);
        assert_eq!(run(f, "I parked outside the library and got a ticket within ten minutes."), None);
        assert!(run(f, "We are flying to Rome next summer.").is_some());
        assert!(run(f, "They are going to get married next spring.").is_some());
        assert!(run(f, "She has been to the gym three times this week.").is_some());
        assert!(run(f, "The water was cut off for two hours this morning.").is_some());

        assert_eq!(run(f, "I'll book the car in for a service after the holidays."), None);
        assert_eq!(run(f, "Tom hasn't replied to my message about the cricket on Sunday."), None);
        assert_eq!(run(f, "The host kindly let us check out late on Sunday."), None);
        assert_eq!(run(f, "I called three plumbers but none of them could come this week."), None);
        assert_eq!(run(f, "We're short of volunteers for the charity run on Saturday morning."), None);
        assert!(run(f, "I usually go for a run before breakfast.").is_some());
        assert_eq!(run(f, "I'll be working from home on Wednesdays starting next month."), None);
        assert_ne!(
            run(f, "I dropped Emma off at nursery a bit late this morning.").as_deref(),
            Some("Late this morning, I dropped Emma off at nursery a bit.")
        );
        assert_eq!(run(f, "The baby is finally sleeping through the night."), None);
        assert_eq!(run(f, "I need to buy a present for my nephew's birthday on Saturday."), None);
        assert_eq!(run(f, "I'm not sure whether the pharmacy opens on Sunday mornings."), None);
        assert_eq!(run(f, "We've booked a table for six at eight o'clock."), None);
        assert_eq!(run(f, "We were invited to their housewarming on Sunday."), None);
        assert_eq!(run(f, "Our teacher gave us a lot of homework over the weekend."), None);
        assert_eq!(run(f, "My manager wants the figures by the end of the day."), None);
        assert_eq!(run(f, "They are expecting their second baby in May."), None);
        assert_eq!(run(f, "He finished his work and went home at five o'clock."), None);
        assert_eq!(run(f, "I have got an appointment with the dentist at ten thirty."), None);
        // What the subject is, or a phrase tied to a word before it, stays.
        assert_eq!(run(f, "That was four years ago."), None);

        assert_eq!(run(f, "Did it rain last night?"), None);
    }

    #[test]
    fn a_fronted_time_phrase_goes_back_to_the_end() {
        let f = time_phrase_to_end;
        assert_eq!(
            run(f, "After lunch, we will review the contracts.").as_deref(),
            Some("We will review the contracts after lunch.")
        );
        assert_eq!(run(f, "Last night, we ate at home.").as_deref(), Some("We ate at home last night."));
        // Two clauses: at the end the phrase would date the second alone.
        assert_eq!(run(f, "On Sunday, we visited my parents and went to the beach."), None);
        assert_eq!(run(f, "Yesterday, we left early."), None);
        assert_eq!(run(front_time_phrase, "It was the best film we have seen this year."), None);
    }

    #[test]
    fn an_opening_time_phrase_without_its_comma_goes_back_or_takes_one() {
        let f = time_phrase_to_end;
        let g = comma_after_time_phrase;
        let text = "Next year the school will charge parents for the bus service.";
        assert_eq!(
            run(f, text).as_deref(),
            Some("The school will charge parents for the bus service next year.")
        );
        assert_eq!(
            run(g, text).as_deref(),
            Some("Next year, the school will charge parents for the bus service.")
        );
        assert_eq!(
            run(f, "On Monday morning the printer jammed three times.").as_deref(),
            Some("The printer jammed three times on Monday morning.")
        );
        // A phrase that could be the subject, or part of it, opens no clause after it.
        assert_eq!(run(g, "Next week's meeting is on Thursday afternoon."), None);
        assert_eq!(run(g, "Last night was the best night of the holiday."), None);
        assert_eq!(run(g, "This week is very busy at work."), None);
        // "Next time you see him" is a clause of its own, and what follows an order.
        assert_eq!(run(g, "Next time you see him tell him to call me."), None);
        assert_eq!(run(f, "Next time you see him tell him to call me."), None);
        assert_eq!(run(g, "Did it rain last night?"), None);
        // Over two clauses the phrase takes its comma but stays in front, where it dates both.
        let both = "Last year I skipped the flu jab and ended up in bed for a week.";
        assert_eq!(run(f, both), None);
        assert_eq!(
            run(g, both).as_deref(),
            Some("Last year, I skipped the flu jab and ended up in bed for a week.")
        );
        // A clause with no "that" would take the phrase at the end.
        let told = "Last week I told my boss I was leaving.";
        assert_eq!(run(f, told), None);
        assert_eq!(run(f, "Last week, I told my boss I was leaving."), None);
        assert_eq!(run(g, told).as_deref(), Some("Last week, I told my boss I was leaving."));
        // At the end after an event, a clock time or an infinitive, the phrase would be theirs.
        assert_eq!(run(f, "On Tuesday the shop closed early because of the flood."), None);
        assert_eq!(run(f, "Next month we are meeting in the pub at seven."), None);
        assert_eq!(run(f, "Next year we hope to perform in the cathedral."), None);
        // After a noun and its participle the phrase would date the participle.
        assert_eq!(run(f, "This month we are reading a crime novel set in Edinburgh."), None);
        assert_eq!(run(f, "This month, we are reading a crime novel set in Edinburgh."), None);
        assert_eq!(
            run(f, "This month, we are reading a crime novel about Edinburgh.").as_deref(),
            Some("We are reading a crime novel about Edinburgh this month.")
        );
    }

    #[test]
    fn a_time_phrase_stays_in_its_own_clause() {
        let f = front_time_phrase;
        // The day is when the second action happened, not the first.
        assert_eq!(run(f, "We visited the museum and then went to the park on Sunday."), None);
        assert_eq!(run(f, "He cleaned the car and she cooked dinner on Saturday."), None);
        assert_eq!(run(f, "I wrote the report and sent it to my boss last night."), None);
        assert_eq!(run(f, "They sold the house but kept the garden last year."), None);
        assert_eq!(run(f, "The shop opens at eight o'clock in the morning."), None);
        // The time belongs to what is said, not to the saying.
        assert_eq!(run(f, "The forecast says it will snow tomorrow night."), None);
        // Each part has its own time.
        assert_eq!(run(f, "I went to the bank in the morning and the post office after lunch."), None);
        // Within its own clause it may move to that clause's front.
        let g = front_time_phrase_in_clause;
        assert_eq!(
            run(g, "He cleaned the car and she cooked dinner on Saturday.").as_deref(),
            Some("He cleaned the car, and on Saturday she cooked dinner.")
        );
        assert_eq!(
            run(g, "I read the paper and my wife watched the news last night.").as_deref(),
            Some("I read the paper, and last night my wife watched the news.")
        );
        // No subject of its own: the phrase would split a verb phrase.
        assert_eq!(run(g, "We visited the museum and then went to the park on Sunday."), None);
        assert_eq!(run(g, "She bought bread and cheese on Monday."), None);
        // Two nouns joined by "and" are one object: the phrase dates the whole clause.
        assert_eq!(
            run(f, "She bought bread and cheese on Monday.").as_deref(),
            Some("On Monday, she bought bread and cheese.")
        );
    }

    #[test]
    fn a_time_stays_with_the_clause_or_the_noun_that_may_own_it() {
        let f = front_time_phrase;
        // A clause with no "that" after a noun, or after "means", has its own subject.
        assert_eq!(run(f, "I didn't get the payment you sent on Friday."), None);
        assert_eq!(run(f, "I lost the keys you gave me yesterday."), None);
        assert_eq!(run(f, "I loved the cake my mum made on Sunday."), None);
        assert_eq!(
            run(f, "I sent my mum a card on Sunday.").as_deref(),
            Some("On Sunday, I sent my mum a card.")
        );
        assert_eq!(run(f, "The new job means I'll travel to London twice a month."), None);
        assert_eq!(run(f, "The new job means I will travel to London twice a month."), None);
        assert_eq!(
            run(f, "I sent you the payment on Friday.").as_deref(),
            Some("On Friday, I sent you the payment.")
        );
        assert_eq!(
            run(f, "I travel to London twice a month.").as_deref(),
            Some("Twice a month, I travel to London.")
        );
        // A run of events, or a happening as the agent, may own the time.
        assert_eq!(run(f, "The union announced three more days of strikes in December."), None);
        assert_eq!(run(f, "Our fishing trip was ruined by the storm on Sunday."), None);
        assert_eq!(
            run(f, "We bought a bag of apples on Saturday.").as_deref(),
            Some("On Saturday, we bought a bag of apples.")
        );
        assert_eq!(
            run(f, "We had a shower of rain at lunchtime.").as_deref(),
            Some("At lunchtime, we had a shower of rain.")
        );
        assert_eq!(
            run(f, "The meeting was cancelled by the manager on Monday.").as_deref(),
            Some("On Monday, the meeting was cancelled by the manager.")
        );
        // "by midday on Friday" is one deadline.
        assert_eq!(
            run(f, "We finished the report on Friday.").as_deref(),
            Some("On Friday, we finished the report.")
        );
        assert_eq!(run(f, "We finished the report by midday on Friday."), None);
        // "early" may be the going to bed's, earlier than usual, not the evening's.
        assert_eq!(run(f, "The kids went to bed early last night."), None);
        assert_eq!(
            run(f, "The kids went to bed last night.").as_deref(),
            Some("Last night, the kids went to bed.")
        );
    }

    #[test]
    fn a_length_after_a_perfect_and_an_offered_or_pondered_thing_s_time_stay() {
        let f = front_time_phrase;
        assert_eq!(run(f, "He hasn't been to the dentist in three years."), None);
        assert_eq!(run(f, "We have never had a problem with this salon in three years."), None);
        assert_eq!(
            run(f, "We finished the cake in one evening.").as_deref(),
            Some("In one evening, we finished the cake.")
        );
        assert_eq!(run(f, "We are thinking about a skiing holiday in the Alps this winter."), None);
        assert_eq!(
            run(f, "We are going on a skiing holiday in the Alps this winter.").as_deref(),
            Some("This winter, we are going on a skiing holiday in the Alps.")
        );
    }

    #[test]
    fn between_x_and_y_joins_no_clauses() {
        let text = "The talks between the union and the company broke down last night.";
        assert_eq!(run(front_time_phrase_in_clause, text), None);
        assert_eq!(
            run(front_time_phrase, text).as_deref(),
            Some("Last night, the talks between the union and the company broke down.")
        );
        assert_eq!(
            run(front_time_phrase, "Both the teacher and the students left the school last night.")
                .as_deref(),
            Some("Last night, both the teacher and the students left the school.")
        );
        // A first part with no verb of its own is a subject.
        assert_eq!(run(front_time_phrase_in_clause, "The teacher and the students left last night."), None);
        let g = front_time_phrase_in_clause;
        assert_eq!(run(g, "We ordered a new washing machine online and it arrives on Friday."), None);
        assert_eq!(
            run(g, "We ordered a new washing machine online and it arrived on Friday.").as_deref(),
            Some("We ordered a new washing machine online, and on Friday it arrived.")
        );
        assert_eq!(
            run(front_time_phrase_in_clause, "I emailed the agency on Monday and they replied on Wednesday.")
                .as_deref(),
            Some("I emailed the agency on Monday, and on Wednesday they replied.")
        );
        // "both" as a determiner pairs with no "and": the clauses are still two.
        assert_eq!(run(front_time_phrase, "Both kids ate dinner and went to bed early yesterday."), None);
    }
}
