//! Verbs told in other words by their object, where the object settles the sense: "took my blood
//! pressure" -> "checked", "sat the exam" -> "took", "takes
//! the dog for a walk" -> "walks the dog", "gave me a refund" -> "refunded me", "has gone sour"
//! -> "has turned sour", "checked my teeth" -> "examined", "clapped" -> "applauded", "vacuumed"
//! <-> "hoovered", "organised a party" -> "arranged", "burst its banks" -> "flooded", "washed
//! the dishes" -> "did", "answered the emails" -> "replied to", "broke his leg" -> "fractured",
//! "returned the shoes" -> "took the shoes back", "is allergic to" -> "has an allergy to",
//! "invited us to their wedding" -> "asked", "turn red" -> "go red", "lose their leaves" ->
//! "shed", "drank three cups of" -> "had", "getting darker" -> "becoming darker", "washed the
//! car" -> "cleaned", "needs a wash" -> "needs washing", "asked many questions" -> "a lot
//! of", "had pancakes" -> "ate pancakes", "walked to school" -> "went to school on foot", "the
//! remote control" -> "the remote", "studied for the test" -> "revised", "took the wrong road" ->
//! "went the wrong way", "ate too much" -> "overate", "paid with my card" -> "by card", "most
//! of the staff" -> "the majority of the staff", "at my aunt's house" -> "at my aunt's", "drinks
//! his coffee without sugar" -> "takes", "had a view of" -> "looked out over", "works as a nurse"
//! -> "is a nurse", "I can't find my keys anywhere." -> "My keys are nowhere to be found.",
//! "fixed it with some glue" -> "using some glue". Each
//! finder gives the number of tokens it replaces and the words that replace them, and refuses
//! where the object or the verb's form leaves the sense or the tense open.

use crate::lexicon::Pos;
use crate::morph::{self, Form};
use crate::tokens::{Kind, Token, is_sentence_start, open_word, prev_word};

/// The forms of a verb: base, third person, past, gerund, participle.
type Forms = [&'static str; 5];

const TAKE: Forms = ["take", "takes", "took", "taking", "taken"];

/// Owners of a thing measured or looked at: "my blood pressure", "the brakes".
const OWNERS: &[&str] = &["my", "his", "her", "your", "our", "their", "the"];

/// The form of `to` that `word` has in `from`.
fn same_form(word: &str, from: &Forms, to: &Forms) -> Option<&'static str> {
    from.iter().position(|f| *f == word).map(|k| to[k])
}

/// Whether tokens `from..to` (odd indices) are single spaces.
fn spaced(tokens: &[Token], from: usize, to: usize) -> bool {
    (from..to).step_by(2).all(|k| tokens.get(k).is_some_and(|t| t.is(Kind::Space, " ")))
}

/// Whether token `k` ends a clause: the end, or a pause.
fn pause_at(tokens: &[Token], k: usize) -> bool {
    tokens
        .get(k)
        .is_none_or(|t| t.kind == Kind::Punct && [",", ".", "!", "?", ";"].contains(&t.text.as_str()))
}

/// The words at `k`, `k + 2`, ... if they are `words` and open: the index after the last.
fn words_at(tokens: &[Token], k: usize, words: &[&str]) -> Option<usize> {
    let ok = words.iter().enumerate().all(|(n, w)| open_word(tokens, k + 2 * n).as_deref() == Some(*w))
        && spaced(tokens, k + 1, k + 2 * words.len() - 1);
    ok.then_some(k + 2 * words.len() - 1)
}

/// Things one has, starts or runs for oneself, each counted ("a business").
const OWNED: &[&str] = &[
    "business",
    "company",
    "room",
    "house",
    "flat",
    "car",
    "bedroom",
    "office",
    "shop",
    "restaurant",
    "garden",
    "bike",
    "website",
    "blog",
    "podcast",
    "channel",
    "band",
    "studio",
    "place",
    "bathroom",
];

/// Verbs of having, starting or running that take what is one's own.
const OWNING: &[&str] = &[
    "start", "starts", "started", "starting", "open", "opens", "opened", "opening", "run", "runs", "ran",
    "running", "have", "has", "had", "having", "want", "wants", "wanted", "set", "get", "got", "buy",
    "bought",
];

/// "He left to start his own business." -> "He left to start a business of his own.": after a verb
/// of `OWNING`, a possessive, "own" and a counted thing of `OWNED`, ending its phrase (not "his own
/// "The permit lets you park anywhere." -> "The permit allows you to park anywhere.": a thing or
/// a person that lets someone do something allows it. Only "lets" (the past "let" is also a
/// present and an imperative: "Let me see") before an object pronoun and a plain verb, and not
/// the idioms "lets you know", "lets you down", "lets you go", "lets you in".
pub(super) fn lets_allows(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    if open_word(tokens, i)? != "lets" || !tokens.get(i + 1)?.is(Kind::Space, " ") {
        return None;
    }
    let object = open_word(tokens, i + 2)?;
    let verb = open_word(tokens, i + 4)?;
    let pronoun =
        ["you", "us", "them", "me", "him", "her", "people", "anyone", "everyone"].contains(&object.as_str());
    let idiom = ["know", "down", "go", "in", "out", "off", "slip", "alone", "be"].contains(&verb.as_str());
    let plain = morph::analyse(&verb).iter().any(|a| a.pos == Pos::Verb && a.form == Form::Base);
    (pronoun && plain && !idiom && tokens.get(i + 3)?.is(Kind::Space, " "))
        .then(|| (3, vec!["allows".to_owned(), object, "to".to_owned()]))
}

/// business plan", nor a list, "our own room and bathroom").
pub(super) fn of_ones_own(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    let owner = open_word(tokens, i)?;
    if !["my", "his", "her", "our", "their", "your"].contains(&owner.as_str())
        || !prev_word(tokens, i).is_some_and(|p| OWNING.contains(&p.as_str()))
    {
        return None;
    }
    let thing = open_word(tokens, i + 4)?;
    if open_word(tokens, i + 2).as_deref() != Some("own")
        || !OWNED.contains(&thing.as_str())
        || !spaced(tokens, i + 1, i + 4)
    {
        return None;
    }
    let ends = pause_at(tokens, i + 5)
        || open_word(tokens, i + 6).is_some_and(|n| {
            ["in", "at", "on", "near", "with", "by", "for", "when", "after", "before"].contains(&n.as_str())
        });
    ends.then(|| (5, ["a", &thing, "of", &owner, "own"].map(String::from).to_vec()))
}

/// "The nurse took my blood pressure." -> "... checked my blood pressure.": a measure taken of
/// someone, whose owner follows the verb; never "took the temperature down" (no owner first is
/// needed: "the" is one) nor "took part".
pub(super) fn took_measure(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    let verb =
        same_form(&open_word(tokens, i)?, &TAKE, &["check", "checks", "checked", "checking", "checked"])?;
    let owner = open_word(tokens, i + 2).filter(|w| OWNERS.contains(&w.as_str()))?;
    [&["blood", "pressure"][..], &["temperature"], &["pulse"]]
        .iter()
        .find_map(|m| words_at(tokens, i + 4, m))?;
    (spaced(tokens, i + 1, i + 4) && owner != "a").then(|| (1, vec![verb.to_string()]))
}

/// "The students sat the exam." -> "... took the exam.": "sit" with an exam for object is taking
/// it; the participle "sat" after "have" is "taken".
pub(super) fn sat_exam(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    let w = open_word(tokens, i)?;
    let perfect = prev_word(tokens, i).is_some_and(|p| ["has", "have", "had"].contains(&p.as_str()));
    let to = match w.as_str() {
        "sit" => "take",
        "sits" => "takes",
        "sat" if perfect => "taken",
        "sat" => "took",
        "sitting" => "taking",
        _ => return None,
    };
    let owner = open_word(tokens, i + 2)?;
    if !["the", "an", "a", "my", "his", "her", "their", "our", "your"].contains(&owner.as_str()) {
        return None;
    }
    // At most one word between ("the maths exam"), then the exam ending its phrase.
    let exam = [i + 4, i + 6].into_iter().find(|&k| {
        spaced(tokens, i + 1, k)
            && open_word(tokens, k).is_some_and(|n| ["exam", "exams", "test"].contains(&n.as_str()))
    })?;
    let ends = tokens.get(exam + 1).is_none_or(|t| t.kind == Kind::Punct)
        || open_word(tokens, exam + 2).is_some_and(|n| !crate::words::is_noun(&n) || n == "on" || n == "at");
    ends.then(|| (1, vec![to.to_string()]))
}

/// "He takes the dog for a walk." -> "He walks the dog.": the whole phrase, the dog kept.
pub(super) fn walked_dog(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    let verb = same_form(&open_word(tokens, i)?, &TAKE, &["walk", "walks", "walked", "walking", "walked"])?;
    let owner = open_word(tokens, i + 2).filter(|w| OWNERS.contains(&w.as_str()))?;
    let end = words_at(tokens, i + 4, &["dog", "for", "a", "walk"])?;
    spaced(tokens, i + 1, i + 4).then(|| (end - i, vec![verb.to_string(), owner, "dog".to_string()]))
}

/// "The shop gave me a refund." -> "The shop refunded me.": to a person named by a pronoun.
pub(super) fn gave_refund(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    let verb = same_form(
        &open_word(tokens, i)?,
        &["give", "gives", "gave", "giving", "given"],
        &["refund", "refunds", "refunded", "refunding", "refunded"],
    )?;
    let person = open_word(tokens, i + 2)
        .filter(|w| ["me", "us", "him", "her", "them", "you"].contains(&w.as_str()))?;
    let end = words_at(tokens, i + 4, &["a", "refund"])?;
    (spaced(tokens, i + 1, i + 4)).then(|| (end - i, vec![verb.to_string(), person]))
}

/// "The milk has gone sour." -> "... has turned sour.": food going off, said either way.
pub(super) fn gone_sour(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    let verb = same_form(
        &open_word(tokens, i)?,
        &["go", "goes", "went", "going", "gone"],
        &["turn", "turns", "turned", "turning", "turned"],
    )?;
    let end = words_at(tokens, i + 2, &["sour"])?;
    spaced(tokens, i + 1, i + 2).then(|| (end - i, vec![verb.to_string(), "sour".to_string()]))
}

/// "The dentist checked my teeth." -> "... examined my teeth.", "checked the brakes" ->
/// "inspected the brakes": a body or a machine looked over; never "checked the time" nor
/// "checked my email", which are not in the lists.
pub(super) fn checked_examined(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    const CHECK: Forms = ["check", "checks", "checked", "checking", "checked"];
    let w = open_word(tokens, i)?;
    if !CHECK.contains(&w.as_str()) {
        return None;
    }
    open_word(tokens, i + 2).filter(|o| OWNERS.contains(&o.as_str()))?;
    let noun = open_word(tokens, i + 4)?;
    let to: Forms = match noun.as_str() {
        "teeth" | "eyes" => ["examine", "examines", "examined", "examining", "examined"],
        "brakes" | "tyres" | "tires" | "wiring" => {
            ["inspect", "inspects", "inspected", "inspecting", "inspected"]
        }
        _ => return None,
    };
    let ends = tokens.get(i + 5).is_none_or(|t| t.kind == Kind::Punct)
        || open_word(tokens, i + 6).is_some_and(|n| !crate::words::is_noun(&n) || n == "and");
    let verb = same_form(&w, &CHECK, &to)?;
    (spaced(tokens, i + 1, i + 4) && ends).then(|| (1, vec![verb.to_string()]))
}

/// "The audience clapped loudly." -> "... applauded loudly.": clapping with no object ("clapped
/// his hands", "clapped him on the back" stay), before a pause, a manner or a time.
pub(super) fn clapped_applauded(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    let verb = same_form(
        &open_word(tokens, i)?,
        &["clap", "claps", "clapped", "clapping", "clapped"],
        &["applaud", "applauds", "applauded", "applauding", "applauded"],
    )?;
    let next_ok = pause_at(tokens, i + 1)
        || (spaced(tokens, i + 1, i + 2)
            && open_word(tokens, i + 2).is_some_and(|n| {
                ["loudly", "politely", "warmly", "enthusiastically", "at", "when", "and", "as", "again"]
                    .contains(&n.as_str())
            }));
    next_ok.then(|| (1, vec![verb.to_string()]))
}

/// "vacuumed the stairs" <-> "hoovered the stairs": the verb only (never the noun "a vacuum"),
/// before its object's determiner or a pause.
pub(super) fn vacuumed_hoovered(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    const VACUUM: Forms = ["vacuum", "vacuums", "vacuumed", "vacuuming", "vacuumed"];
    const HOOVER: Forms = ["hoover", "hoovers", "hoovered", "hoovering", "hoovered"];
    let w = open_word(tokens, i)?;
    let to = same_form(&w, &VACUUM, &HOOVER).or_else(|| same_form(&w, &HOOVER, &VACUUM))?;
    let after_determiner = prev_word(tokens, i).is_some_and(|p| {
        ["a", "an", "the", "my", "our", "his", "her", "their", "your", "new", "old"].contains(&p.as_str())
    });
    if after_determiner || (is_sentence_start(tokens, i) && !["vacuum", "hoover"].contains(&w.as_str())) {
        return None;
    }
    let next_ok = pause_at(tokens, i + 1)
        || (spaced(tokens, i + 1, i + 2)
            && open_word(tokens, i + 2).is_some_and(|n| {
                ["the", "my", "our", "his", "her", "their", "your", "every", "all", "upstairs", "downstairs"]
                    .contains(&n.as_str())
            }));
    next_ok.then(|| (1, vec![to.to_string()]))
}

/// "She organised a surprise party." -> "She arranged a surprise party.": a gathering or a trip
/// one sets up (`EVENTS`); not "organised her desk" nor "organised the files", which are order.
pub(super) fn organised_arranged(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    const EVENTS: &[&str] =
        &["party", "trip", "meeting", "barbecue", "picnic", "outing", "visit", "dinner", "tour"];
    let w = open_word(tokens, i)?;
    let to = same_form(&w, &["organise", "organises", "organised", "organising", "organised"], &ARRANGE)
        .or_else(|| {
            same_form(&w, &["organize", "organizes", "organized", "organizing", "organized"], &ARRANGE)
        })?;
    let owner = open_word(tokens, i + 2)?;
    if !["a", "an", "the", "our", "their", "his", "her", "my", "this"].contains(&owner.as_str()) {
        return None;
    }
    let event = [i + 4, i + 6].into_iter().find(|&k| {
        spaced(tokens, i + 1, k) && open_word(tokens, k).is_some_and(|n| EVENTS.contains(&n.as_str()))
    })?;
    let ends = tokens.get(event + 1).is_none_or(|t| t.kind == Kind::Punct)
        || open_word(tokens, event + 2).is_some_and(|n| !crate::words::is_noun(&n));
    ends.then(|| (1, vec![to.to_string()]))
}

const ARRANGE: Forms = ["arrange", "arranges", "arranged", "arranging", "arranged"];

/// "The river burst its banks." -> "The river flooded.": "its" says one river, so "burst" is
/// the past unless a modal or "to" stands before it ("could burst its banks" -> "could flood").
/// "their banks" leaves the tense open ("rivers burst their banks every spring"), and stays.
pub(super) fn burst_banks(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    let w = open_word(tokens, i)?;
    let prev = prev_word(tokens, i).unwrap_or_default();
    let plain = ["to", "will", "would", "could", "can", "might", "may", "should", "must", "did", "didn't"]
        .contains(&prev.as_str());
    let to = match w.as_str() {
        "burst" if plain => "flood",
        "burst" => "flooded",
        "bursts" => "floods",
        "bursting" => "flooding",
        _ => return None,
    };
    let end = words_at(tokens, i + 2, &["its", "banks"])?;
    spaced(tokens, i + 1, i + 2).then(|| (end - i, vec![to.to_string()]))
}

/// Whether the noun at `k` ends its phrase: a pause or a word that is no noun ("the shoes
/// because", "the maths exam on Tuesday"), not "the shoe shop".
fn noun_ends(tokens: &[Token], k: usize) -> bool {
    tokens.get(k + 1).is_none_or(|t| t.kind == Kind::Punct)
        || open_word(tokens, k + 2).is_some_and(|n| {
            !crate::words::is_noun(&n)
                || crate::words::PREPOSITIONS.contains(&n.as_str())
                || n == "and"
                // A gerund telling how ("broke his arm playing football").
                || (n.ends_with("ing") && crate::words::is_verbish(&n))
        })
}

/// "I washed the dishes after lunch." -> "I did the dishes after lunch.": the chore, either word.
pub(super) fn washed_dishes(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    let w = open_word(tokens, i)?;
    let perfect = prev_word(tokens, i).is_some_and(|p| ["has", "have", "had"].contains(&p.as_str()));
    let verb = match w.as_str() {
        "washed" if perfect => "done",
        _ => same_form(
            &w,
            &["wash", "washes", "washed", "washing", "washed"],
            &["do", "does", "did", "doing", "done"],
        )?,
    };
    let end = words_at(tokens, i + 2, &["the", "dishes"])?;
    (spaced(tokens, i + 1, i + 2) && noun_ends(tokens, end - 1)).then(|| (1, vec![verb.to_string()]))
}

/// "She answered all the emails." -> "She replied to all the emails.": a message written back
/// to; a question only where no "correctly" or "wrong" makes it a test ("answered the questions
/// correctly" stays).
pub(super) fn replied_to(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    const MESSAGES: &[&str] = &[
        "email",
        "emails",
        "letter",
        "letters",
        "message",
        "messages",
        "question",
        "questions",
        "text",
        "texts",
    ];
    let verb = same_form(
        &open_word(tokens, i)?,
        &["answer", "answers", "answered", "answering", "answered"],
        &["reply", "replies", "replied", "replying", "replied"],
    )?;
    let mut k = i + 2;
    if open_word(tokens, k).as_deref() == Some("all") {
        k += 2;
    }
    let owner = open_word(tokens, k)?;
    if !["the", "my", "his", "her", "our", "their", "your", "every", "each", "an", "a", "her"]
        .contains(&owner.as_str())
    {
        return None;
    }
    let noun = [k + 2, k + 4].into_iter().find(|&n| {
        spaced(tokens, i + 1, n) && open_word(tokens, n).is_some_and(|w| MESSAGES.contains(&w.as_str()))
    })?;
    let tested = tokens[noun..].iter().any(|t| {
        t.is_word()
            && ["correctly", "incorrectly", "right", "wrong", "wrongly", "well"]
                .contains(&t.text.to_lowercase().as_str())
    });
    (!tested && noun_ends(tokens, noun)).then(|| (1, vec![verb.to_string(), "to".to_string()]))
}

/// "He broke his leg while skiing." -> "He fractured his leg ...": a bone of one's own body,
/// owned ("break a leg" is a wish, "broke the leg of the chair" no bone).
pub(super) fn broke_bone(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    const BONES: &[&str] = &[
        "arm",
        "leg",
        "wrist",
        "ankle",
        "finger",
        "toe",
        "nose",
        "rib",
        "ribs",
        "collarbone",
        "hip",
        "jaw",
        "elbow",
        "foot",
        "thumb",
    ];
    let verb = same_form(
        &open_word(tokens, i)?,
        &["break", "breaks", "broke", "breaking", "broken"],
        &["fracture", "fractures", "fractured", "fracturing", "fractured"],
    )?;
    open_word(tokens, i + 2)
        .filter(|w| ["my", "his", "her", "your", "their", "our"].contains(&w.as_str()))?;
    open_word(tokens, i + 4).filter(|w| BONES.contains(&w.as_str()))?;
    (spaced(tokens, i + 1, i + 4) && noun_ends(tokens, i + 4)).then(|| (1, vec![verb.to_string()]))
}

/// "She returned the shoes." -> "She took the shoes back.": goods taken back to the shop or the
/// library (`GOODS`); "returned home", "returned the call", "returned the favour" are not in it.
pub(super) fn took_back(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    const GOODS: &[&str] = &[
        "shoes", "dress", "jacket", "jeans", "shirt", "books", "book", "coat", "trousers", "boots", "jumper",
        "sweater", "dvd", "dvds", "top", "skirt", "toaster", "kettle",
    ];
    let w = open_word(tokens, i)?;
    let perfect = prev_word(tokens, i).is_some_and(|p| ["has", "have", "had"].contains(&p.as_str()));
    let verb = match w.as_str() {
        "returned" if perfect => "taken",
        _ => same_form(&w, &["return", "returns", "returned", "returning", "returned"], &TAKE)?,
    };
    let owner = open_word(tokens, i + 2)?;
    if !["the", "these", "those", "my", "his", "her", "our", "their", "your", "this", "that"]
        .contains(&owner.as_str())
    {
        return None;
    }
    let noun = [i + 4, i + 6].into_iter().find(|&n| {
        spaced(tokens, i + 1, n) && open_word(tokens, n).is_some_and(|w| GOODS.contains(&w.as_str()))
    })?;
    // "returned the book to me" comes back to the speaker: "took ... back to me" would go away.
    let to_person = open_word(tokens, noun + 2).as_deref() == Some("to")
        && open_word(tokens, noun + 4)
            .is_some_and(|p| ["me", "us", "you", "him", "her", "them"].contains(&p.as_str()));
    if !noun_ends(tokens, noun) || to_person {
        return None;
    }
    let mut words = vec![verb.to_string()];
    words.extend((i + 2..=noun).step_by(2).map(|k| tokens[k].text.clone()));
    words.push("back".to_string());
    Some((noun + 1 - i, words))
}

/// "My brother is allergic to peanuts." -> "My brother has an allergy to peanuts.": one person
/// ("is", "was"), so that "an allergy" agrees.
pub(super) fn allergic(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    let have = match open_word(tokens, i)?.as_str() {
        "is" => "has",
        "was" => "had",
        _ => return None,
    };
    let end = words_at(tokens, i + 2, &["allergic", "to"])?;
    spaced(tokens, i + 1, i + 2).then(|| (end - i, [have, "an", "allergy", "to"].map(String::from).to_vec()))
}

/// "They invited us to their wedding." -> "They asked us to their wedding.": an invitation to an
/// event (a determiner or a meal after "to"); never before a verb ("invited us to stay" offers,
/// "asked us to stay" requests).
pub(super) fn invited_asked(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    let verb = same_form(
        &open_word(tokens, i)?,
        &["invite", "invites", "invited", "inviting", "invited"],
        &["ask", "asks", "asked", "asking", "asked"],
    )?;
    // The guests: a pronoun, or a determiner and at most two words ("the whole family").
    let guest = open_word(tokens, i + 2)?;
    let to = if ["us", "me", "him", "them", "you", "her"].contains(&guest.as_str()) {
        i + 4
    } else if ["the", "my", "our", "his", "her", "their", "your", "all"].contains(&guest.as_str()) {
        [i + 6, i + 8].into_iter().find(|&k| open_word(tokens, k).as_deref() == Some("to"))?
    } else {
        return None;
    };
    if open_word(tokens, to).as_deref() != Some("to") || !spaced(tokens, i + 1, to + 2) {
        return None;
    }
    let event = open_word(tokens, to + 2)?;
    let ok =
        ["the", "a", "an", "my", "our", "his", "her", "their", "your", "dinner", "lunch", "breakfast", "tea"]
            .contains(&event.as_str());
    ok.then(|| (1, vec![verb.to_string()]))
}

/// "The leaves turn red in autumn." -> "The leaves go red in autumn.": a change of colour or of
/// light, told either way; only before a colour word (`COLOURS`), where "go" cannot mean moving.
pub(super) fn turn_go(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    const COLOURS: &[&str] = &[
        "red", "yellow", "brown", "golden", "green", "grey", "gray", "white", "black", "dark", "pale",
        "blue", "orange",
    ];
    let verb = same_form(
        &open_word(tokens, i)?,
        &["turn", "turns", "turned", "turning", "turned"],
        &["go", "goes", "went", "going", "gone"],
    )?;
    let perfect = prev_word(tokens, i).is_some_and(|p| ["has", "have", "had"].contains(&p.as_str()));
    open_word(tokens, i + 2).filter(|c| COLOURS.contains(&c.as_str()))?;
    // "turned dark green paint" would be no change of colour: the colour ends the phrase or is
    // followed by another colour word ("golden brown").
    let ends = pause_at(tokens, i + 3)
        || open_word(tokens, i + 4).is_some_and(|n| {
            COLOURS.contains(&n.as_str())
                || n == "brown"
                || !crate::words::is_noun(&n)
                || crate::words::PREPOSITIONS.contains(&n.as_str())
        });
    // The participle after "have" is "gone" either way ("has turned" -> "has gone").
    let verb = if perfect { "gone" } else { verb };
    (spaced(tokens, i + 1, i + 2) && ends).then(|| (1, vec![verb.to_string()]))
}

/// "The trees lose their leaves in autumn." -> "The trees shed their leaves ...": leaves only.
pub(super) fn shed_leaves(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    let verb = same_form(
        &open_word(tokens, i)?,
        &["lose", "loses", "lost", "losing", "lost"],
        &["shed", "sheds", "shed", "shedding", "shed"],
    )?;
    words_at(tokens, i + 2, &["their", "leaves"]).or_else(|| words_at(tokens, i + 2, &["its", "leaves"]))?;
    spaced(tokens, i + 1, i + 2).then(|| (1, vec![verb.to_string()]))
}

/// "He drank three cups of coffee." -> "He had three cups of coffee.": a drink measured out
/// ("cups of", "a glass of"), where "have" can only be drinking it.
pub(super) fn drank_had(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    const CONTAINERS: &[&str] = &[
        "cup", "cups", "glass", "glasses", "mug", "mugs", "bottle", "bottles", "can", "cans", "pint", "pints",
    ];
    let w = open_word(tokens, i)?;
    let perfect = prev_word(tokens, i).is_some_and(|p| ["has", "have", "had"].contains(&p.as_str()));
    let verb = match w.as_str() {
        "drunk" if perfect => "had",
        "drunk" => return None,
        _ => same_form(
            &w,
            &["drink", "drinks", "drank", "drinking", "drunk"],
            &["have", "has", "had", "having", "had"],
        )?,
    };
    [i + 4, i + 6].into_iter().find(|&k| {
        spaced(tokens, i + 1, k + 2)
            && open_word(tokens, k).is_some_and(|c| CONTAINERS.contains(&c.as_str()))
            && open_word(tokens, k + 2).as_deref() == Some("of")
    })?;
    let amount = open_word(tokens, i + 2)?;
    let counted =
        ["a", "one", "two", "three", "four", "five", "several", "another", "some"].contains(&amount.as_str());
    counted.then(|| (1, vec![verb.to_string()]))
}

/// "It's getting colder." -> "It's becoming colder.": a change told by a comparative ending the
/// clause ("darker", "worse"); "got bigger problems" has a noun after it, and is owning.
/// "getting better" is `getting_better`'s ("improving").
pub(super) fn getting_becoming(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    let w = open_word(tokens, i)?;
    let verb = match w.as_str() {
        "gotten" => "become",
        _ => same_form(
            &w,
            &["get", "gets", "got", "getting", "got"],
            &["become", "becomes", "became", "becoming", "become"],
        )?,
    };
    // After "have", "got" is the participle ("has got colder" -> "has become colder").
    let verb =
        if w == "got" && prev_word(tokens, i).is_some_and(|p| ["has", "have", "had"].contains(&p.as_str())) {
            "become"
        } else {
            verb
        };
    // "getting worse" is the everyday phrase, which "becoming worse" makes stiff (readers).
    let degree = open_word(tokens, i + 2)?;
    let comparative =
        morph::analyse(&degree).iter().any(|a| a.pos == Pos::Adj && a.form == Form::Comparative);
    let ends = pause_at(tokens, i + 3)
        || open_word(tokens, i + 4)
            .is_some_and(|n| ["and", "every", "by", "as", "all", "but"].contains(&n.as_str()));
    (comparative && degree != "better" && degree != "worse" && spaced(tokens, i + 1, i + 2) && ends)
        .then(|| (1, vec![verb.to_string()]))
}

/// "My dad washed the car." -> "My dad cleaned the car.": one's car, washed or cleaned alike.
pub(super) fn washed_car(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    let verb = same_form(
        &open_word(tokens, i)?,
        &["wash", "washes", "washed", "washing", "washed"],
        &["clean", "cleans", "cleaned", "cleaning", "cleaned"],
    )?;
    open_word(tokens, i + 2)
        .filter(|o| ["the", "my", "his", "her", "our", "their", "your"].contains(&o.as_str()))?;
    let end = words_at(tokens, i + 4, &["car"])?;
    (spaced(tokens, i + 1, i + 4) && noun_ends(tokens, end - 1)).then(|| (1, vec![verb.to_string()]))
}

/// "The car needs a wash." -> "The car needs washing.": a job the thing needs done to it (`JOBS`),
/// the noun told as the gerund; "needs repairs" -> "needs repairing" too. Only with nothing
/// describing the job ("a good clean" stays).
pub(super) fn needs_doing(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    const JOBS: &[(&str, &str)] = &[
        ("wash", "washing"),
        ("clean", "cleaning"),
        ("service", "servicing"),
        ("trim", "trimming"),
        ("repairs", "repairing"),
        ("repair", "repairing"),
    ];
    let need = open_word(tokens, i)?;
    if !["need", "needs", "needed"].contains(&need.as_str()) {
        return None;
    }
    let (k, job) = if open_word(tokens, i + 2).as_deref() == Some("a") {
        (i + 4, open_word(tokens, i + 4)?)
    } else {
        (i + 2, open_word(tokens, i + 2)?)
    };
    let &(noun, gerund) = JOBS.iter().find(|(n, _)| *n == job)?;
    // "a wash", "a repair", but "repairs" with no "a".
    let fits = if noun == "repairs" { k == i + 2 } else { k == i + 4 };
    // "needs a wash and a service": a gerund beside a noun would not match it.
    let and = open_word(tokens, k + 2).as_deref() == Some("and");
    if !fits || and || !spaced(tokens, i + 1, k) || !noun_ends(tokens, k) {
        return None;
    }
    Some((k + 1 - i, vec![tokens[i].text.clone(), gerund.to_string()]))
}

/// "The students asked many questions." -> "... asked a lot of questions.": "many" opening a
/// verb's object, where "a lot of" says the same; not "how many", "so many", "too many", "as
/// many", "for many years" (after a preposition), nor before "of".
pub(super) fn many_lot(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    if open_word(tokens, i)? != "many" {
        return None;
    }
    let prev = prev_word(tokens, i)?;
    let verb = crate::words::heads_clause(&prev)
        || ["asked", "made", "met", "saw", "took", "bought", "visited", "have", "has", "had", "ask", "make"]
            .contains(&prev.as_str());
    let noun = open_word(tokens, i + 2)?;
    let plural = morph::analyse(&noun).iter().any(|a| a.pos == Pos::Noun && a.form == Form::Plural)
        || ["people", "children"].contains(&noun.as_str());
    // "asked many times", "lived there many years": a count of times, an adverb, stays.
    let times = ["times", "years", "days", "weeks", "months", "hours", "minutes"].contains(&noun.as_str());
    let ok = verb
        && plural
        && !times
        && !["how", "so", "too", "as", "very", "not", "the", "of", "for", "in", "with", "there"]
            .contains(&prev.as_str())
        && spaced(tokens, i + 1, i + 2);
    ok.then(|| (1, ["a", "lot", "of"].map(String::from).to_vec()))
}

/// "We had pancakes for breakfast." -> "We ate pancakes for breakfast.": a food after "had",
/// with no owner ("had the cake" may be owning it) and no "have" before ("had had").
pub(super) fn had_food(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    const FOODS: &[&str] = &[
        "pancakes",
        "pasta",
        "soup",
        "curry",
        "pizza",
        "fish",
        "sandwich",
        "sandwiches",
        "salad",
        "porridge",
        "noodles",
        "steak",
        "burgers",
        "toast",
        "omelette",
        "risotto",
        "stew",
    ];
    if open_word(tokens, i)? != "had"
        || prev_word(tokens, i)
            .is_some_and(|p| ["had", "have", "has", "i'd", "we'd", "you'd", "they'd"].contains(&p.as_str()))
    {
        return None;
    }
    let k = if open_word(tokens, i + 2).is_some_and(|d| ["a", "some"].contains(&d.as_str())) {
        i + 4
    } else {
        i + 2
    };
    let food = open_word(tokens, k)?;
    // "We had pizza delivered" is having it brought, not eating it.
    let causative = open_word(tokens, k + 2).is_some_and(|n| {
        n.ends_with("ed") || ["made", "brought", "sent", "done", "taken"].contains(&n.as_str())
    });
    // "He had a sandwich in his bag" owns it: only where the sentence tells a meal or a place to
    // eat.
    let meal = tokens.iter().any(|t| {
        t.is_word()
            && [
                "breakfast",
                "lunch",
                "dinner",
                "supper",
                "brunch",
                "restaurant",
                "cafe",
                "café",
                "pub",
                "seafront",
                "picnic",
                "meal",
                "takeaway",
            ]
            .contains(&t.text.to_lowercase().as_str())
    });
    (FOODS.contains(&food.as_str()) && meal && !causative && spaced(tokens, i + 1, k) && noun_ends(tokens, k))
        .then(|| (1, vec!["ate".to_string()]))
}

/// "The children walked to school." -> "The children went to school on foot.": the way to school
/// or work, the place ending its phrase; "walked to school buses" would be another thing.
pub(super) fn walked_on_foot(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    let w = open_word(tokens, i)?;
    let perfect = prev_word(tokens, i).is_some_and(|p| ["has", "have", "had"].contains(&p.as_str()));
    let verb = match w.as_str() {
        "walked" if perfect => "gone",
        _ => same_form(
            &w,
            &["walk", "walks", "walked", "walking", "walked"],
            &["go", "goes", "went", "going", "gone"],
        )?,
    };
    // Not "to work": judges took "go to work on foot" as stiff, where children going to school
    // on foot is said.
    let place = open_word(tokens, i + 4).filter(|p| p == "school")?;
    // Said once only: "on foot" beside another way of going ("walked to work in the rain" is
    // fine, "walked to work by the river" too, but not a second "on foot").
    let said_on_foot = tokens.iter().any(|t| t.text.eq_ignore_ascii_case("foot"));
    if open_word(tokens, i + 2).as_deref() != Some("to") || !spaced(tokens, i + 1, i + 4) || said_on_foot {
        return None;
    }
    // The place ends the clause, or a preposition, a time or "and" follows it.
    let ends = pause_at(tokens, i + 5)
        || open_word(tokens, i + 6).is_some_and(|n| {
            crate::words::PREPOSITIONS.contains(&n.as_str())
                || ["and", "every", "each", "today", "yesterday", "together", "alone", "because", "when"]
                    .contains(&n.as_str())
        });
    ends.then(|| (5, vec![verb.to_string(), "to".to_string(), place, "on".to_string(), "foot".to_string()]))
}

/// "I can't find the remote control." -> "I can't find the remote.": the control of a TV, ending
/// its phrase ("a remote control car" is a toy).
pub(super) fn remote_control(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    let owner = open_word(tokens, i)?;
    if !["the", "my", "your", "his", "her", "our", "their"].contains(&owner.as_str()) {
        return None;
    }
    let end = words_at(tokens, i + 2, &["remote", "control"])?;
    let ends = pause_at(tokens, end)
        || open_word(tokens, end + 1).is_some_and(|n| {
            ["anywhere", "again", "is", "was", "and", "under", "behind", "on", "in", "down"]
                .contains(&n.as_str())
        });
    (spaced(tokens, i + 1, i + 2) && ends)
        .then(|| (end - i, vec![tokens[i].text.clone(), "remote".to_string()]))
}

/// "They studied for the history test." -> "They revised for the history test.": studying before
/// an exam is revising (British); "studied for a degree" or "studied for years" stay.
pub(super) fn studied_revised(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    let verb = same_form(
        &open_word(tokens, i)?,
        &["study", "studies", "studied", "studying", "studied"],
        &["revise", "revises", "revised", "revising", "revised"],
    )?;
    // "studied together for the test": one word between at most.
    let for_at = [i + 2, i + 4].into_iter().find(|&k| open_word(tokens, k).as_deref() == Some("for"))?;
    if for_at == i + 4
        && !open_word(tokens, i + 2).is_some_and(|w| ["together", "hard", "all"].contains(&w.as_str()))
    {
        return None;
    }
    let owner = open_word(tokens, for_at + 2)?;
    if !["the", "my", "his", "her", "our", "their", "an", "a", "this"].contains(&owner.as_str()) {
        return None;
    }
    let exam = [for_at + 4, for_at + 6].into_iter().find(|&k| {
        spaced(tokens, i + 1, k)
            && open_word(tokens, k).is_some_and(|n| ["test", "exam", "exams", "tests"].contains(&n.as_str()))
    })?;
    noun_ends(tokens, exam).then(|| (1, vec![verb.to_string()]))
}

/// "The taxi driver took the wrong road." -> "... went the wrong way.": a wrong road, route or
/// turning taken is the wrong way gone.
pub(super) fn wrong_way(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    let w = open_word(tokens, i)?;
    let perfect = prev_word(tokens, i).is_some_and(|p| ["has", "have", "had"].contains(&p.as_str()));
    let verb = match w.as_str() {
        "taken" if perfect => "gone",
        "taken" => return None,
        _ => same_form(&w, &TAKE, &["go", "goes", "went", "going", "gone"])?,
    };
    let end = ["road", "route", "turning", "turn"]
        .iter()
        .find_map(|n| words_at(tokens, i + 2, &["the", "wrong", n]))?;
    let words = [verb, "the", "wrong", "way"].map(String::from).to_vec();
    (spaced(tokens, i + 1, i + 2) && noun_ends(tokens, end - 1)).then(|| (end - i, words))
}

/// "I ate too much at lunch." -> "I overate at lunch.": eating more than enough, said in one
/// verb; "far too much" and "too much cake" stay (the degree and the food would be lost).
pub(super) fn ate_too_much(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    let w = open_word(tokens, i)?;
    let verb = same_form(
        &w,
        &["eat", "eats", "ate", "eating", "eaten"],
        &["overeat", "overeats", "overate", "overeating", "overeaten"],
    )?;
    let end = words_at(tokens, i + 2, &["too", "much"])?;
    let ends = pause_at(tokens, end)
        || open_word(tokens, end + 1).is_some_and(|n| {
            [
                "at",
                "for",
                "and",
                "last",
                "yesterday",
                "today",
                "again",
                "during",
                "over",
                "on",
                "when",
                "because",
            ]
            .contains(&n.as_str())
        });
    (spaced(tokens, i + 1, i + 2) && ends).then(|| (end - i, vec![verb.to_string()]))
}

/// "I paid for the tickets with my card." -> "I paid for the tickets by card.": the way of paying,
/// after a "pay" in the same clause; "with her card" said of anything else (a door opened with a
/// card) stays.
pub(super) fn by_card(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    if open_word(tokens, i)? != "with" {
        return None;
    }
    open_word(tokens, i + 2)
        .filter(|w| ["my", "her", "his", "our", "their", "your"].contains(&w.as_str()))?;
    let end = words_at(tokens, i + 4, &["card"])?;
    let clause_start = tokens[..i].iter().rposition(|t| t.kind == Kind::Punct).map_or(0, |k| k + 1);
    let paid = tokens[clause_start..i]
        .iter()
        .any(|t| t.is_word() && ["pay", "pays", "paid", "paying"].contains(&t.text.to_lowercase().as_str()));
    (paid && spaced(tokens, i + 1, i + 4) && pause_at(tokens, end))
        .then(|| (end - i, vec!["by".to_string(), "card".to_string()]))
}

/// "Most of the staff take the train." -> "The majority of the staff take the train.": most of a
/// group of people or things counted (a plural, or a group noun); "most of the day" is time, and
/// stays.
pub(super) fn most_majority(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    const GROUPS: &[&str] = &["staff", "team", "class", "family", "group", "crowd", "audience", "public"];
    if open_word(tokens, i)? != "most" || open_word(tokens, i + 2)? != "of" {
        return None;
    }
    let owner = open_word(tokens, i + 4)
        .filter(|w| ["the", "my", "our", "their", "his", "her", "your"].contains(&w.as_str()))?;
    let noun = open_word(tokens, i + 6)?;
    let counted = GROUPS.contains(&noun.as_str())
        || (morph::analyse(&noun).iter().any(|a| a.pos == Pos::Noun && a.form == Form::Plural)
            && !["days", "weeks", "years", "months", "hours", "nights", "evenings", "mornings"]
                .contains(&noun.as_str()));
    let ends = tokens.get(i + 7).is_none_or(|t| t.kind == Kind::Punct)
        || open_word(tokens, i + 8).is_some_and(|n| {
            !crate::words::is_noun(&n)
                || crate::words::heads_clause(&n)
                || crate::words::PREPOSITIONS.contains(&n.as_str())
                || n == "that"
        });
    (counted && ends && spaced(tokens, i + 1, i + 6))
        .then(|| (5, vec!["the".to_string(), "majority".to_string(), "of".to_string(), owner]))
}

/// "at my aunt's house" -> "at my aunt's": a relative's home, told by the possessive alone; only
/// after "at" or "to" and before a pause or a preposition ("my aunt's house party" stays).
pub(super) fn relatives_house(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    const RELATIVES: &[&str] = &[
        "aunt's",
        "uncle's",
        "parents'",
        "grandparents'",
        "grandmother's",
        "grandfather's",
        "grandma's",
        "grandpa's",
        "mum's",
        "mom's",
        "dad's",
        "sister's",
        "brother's",
        "cousin's",
        "friend's",
        "friends'",
    ];
    let at = open_word(tokens, i)?;
    if !["at", "to"].contains(&at.as_str()) {
        return None;
    }
    open_word(tokens, i + 2)
        .filter(|w| ["my", "his", "her", "our", "their", "your"].contains(&w.as_str()))?;
    let relative = tokens.get(i + 4).filter(|t| t.is_word() && !t.frozen)?;
    let lower = relative.text.to_lowercase().replace('’', "'");
    if !RELATIVES.contains(&lower.as_str()) || open_word(tokens, i + 6).as_deref() != Some("house") {
        return None;
    }
    let ends = pause_at(tokens, i + 7)
        || open_word(tokens, i + 8).is_some_and(|n| {
            crate::words::PREPOSITIONS.contains(&n.as_str())
                || ["and", "last", "this", "every", "yesterday", "today", "tonight", "tomorrow"]
                    .contains(&n.as_str())
        });
    let owner = tokens[i + 2].text.clone();
    (spaced(tokens, i + 1, i + 6) && ends)
        .then(|| (7, vec![tokens[i].text.clone(), owner, relative.text.clone()]))
}

/// "He drinks his coffee without sugar." -> "He takes his coffee without sugar.": how one has
/// one's coffee or tea, with or without milk or sugar.
pub(super) fn takes_coffee(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    let verb = same_form(
        &open_word(tokens, i)?,
        &["drink", "drinks", "drank", "drinking", "drunk"],
        &["take", "takes", "took", "taking", "taken"],
    )?;
    open_word(tokens, i + 2)
        .filter(|w| ["my", "his", "her", "our", "their", "your"].contains(&w.as_str()))?;
    open_word(tokens, i + 4).filter(|w| ["coffee", "tea"].contains(&w.as_str()))?;
    let how = open_word(tokens, i + 6)?;
    (spaced(tokens, i + 1, i + 6) && ["with", "without", "black", "white"].contains(&how.as_str()))
        .then(|| (1, vec![verb.to_string()]))
}

/// "Our hotel room had a view of the harbour." -> "Our hotel room looked out over the harbour.":
/// a plain view (a described one, "a lovely view of", stays, its word would be lost).
pub(super) fn view_of(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    let looked = match open_word(tokens, i)?.as_str() {
        "had" => "looked",
        "has" => "looks",
        _ => return None,
    };
    let end = words_at(tokens, i + 2, &["a", "view", "of"])?;
    let owner = open_word(tokens, end + 1)?;
    if !["the", "a"].contains(&owner.as_str()) || !spaced(tokens, i + 1, i + 2) {
        return None;
    }
    // "had had": the perfect, left alone; "I had a view of" is a person seeing, not a room.
    if prev_word(tokens, i)
        .is_some_and(|p| ["had", "have", "has", "i", "we", "you", "they", "he", "she"].contains(&p.as_str()))
    {
        return None;
    }
    Some((end - i, vec![looked.to_string(), "out".to_string(), "over".to_string()]))
}

/// "My brother works as a nurse." -> "My brother is a nurse.": a job held by one person ("he",
/// "my sister", a name), told by "be"; "they worked as" would need "were", and a thing that "works
/// as a filter" is none.
pub(super) fn works_as(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    const ONE: &[&str] = &[
        "i", "he", "she", "brother", "sister", "mother", "father", "son", "daughter", "wife", "husband",
        "friend", "aunt", "uncle", "cousin", "mum", "dad",
    ];
    // A person works as a nurse; a thing that "works as a filter" is no filter.
    let person = prev_word(tokens, i).is_some_and(|p| ONE.contains(&p.as_str()))
        || (i >= 2
            && tokens[i - 2].is_word()
            && tokens[i - 2].text.chars().next().is_some_and(char::is_uppercase)
            && !crate::words::common_word(&tokens[i - 2].text.to_lowercase()));
    let be = match open_word(tokens, i)?.as_str() {
        "works" if person => "is",
        "worked" if person => "was",
        _ => return None,
    };
    let article = open_word(tokens, i + 4)?;
    (open_word(tokens, i + 2).as_deref() == Some("as")
        && ["a", "an"].contains(&article.as_str())
        && spaced(tokens, i + 1, i + 4))
    .then(|| (3, vec![be.to_string()]))
}

/// "I can't find my keys anywhere." -> "My keys are nowhere to be found.": a whole sentence of
/// a search that failed, the thing (a determiner and one to three words) becoming the subject,
/// "is" or "are" by its number; only the whole sentence, so that nothing else hangs on "I".
pub(super) fn nowhere_found(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    const PAIRS: &[&str] =
        &["glasses", "keys", "scissors", "jeans", "trousers", "headphones", "shoes", "gloves"];
    if !is_sentence_start(tokens, i) || !["i", "we"].contains(&open_word(tokens, i)?.as_str()) {
        return None;
    }
    let cannot = open_word(tokens, i + 2)?.replace('’', "'");
    if !["can't", "cannot"].contains(&cannot.as_str()) || open_word(tokens, i + 4)? != "find" {
        return None;
    }
    let owner = open_word(tokens, i + 6)
        .filter(|w| ["my", "our", "the", "his", "her", "your", "their"].contains(&w.as_str()))?;
    let anywhere = [i + 10, i + 12, i + 14]
        .into_iter()
        .find(|&k| open_word(tokens, k).as_deref() == Some("anywhere"))?;
    let ends = tokens.get(anywhere + 1).is_some_and(|t| [".", "!"].contains(&t.text.as_str()))
        && tokens.len() == anywhere + 2;
    if !ends || !spaced(tokens, i + 1, anywhere) {
        return None;
    }
    let thing: Vec<String> = (i + 8..anywhere).step_by(2).map(|k| tokens[k].text.clone()).collect();
    if thing.iter().any(|w| !w.chars().all(|c| c.is_ascii_lowercase() || c == '-')) {
        return None;
    }
    let head = thing.last()?.as_str();
    let plural = PAIRS.contains(&head)
        || morph::analyse(head).iter().any(|a| a.pos == Pos::Noun && a.form == Form::Plural);
    let mut words = vec![owner];
    words.extend(thing.iter().cloned());
    words.extend([if plural { "are" } else { "is" }, "nowhere", "to", "be", "found"].map(String::from));
    Some((anywhere + 1 - i, words))
}

/// "He fixed the chair with some glue." -> "He fixed the chair using some glue.": "with" before a
/// tool or a material (`TOOLS`), which one uses; "with a friend", "with my sister" are company.
pub(super) fn with_using(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    const TOOLS: &[&str] = &[
        "glue",
        "tape",
        "string",
        "rope",
        "nails",
        "screws",
        "screwdriver",
        "hammer",
        "wood",
        "wire",
        "washer",
        "ribbon",
        "cloth",
        "sponge",
        "brush",
        "spanner",
    ];
    if open_word(tokens, i)? != "with" || is_sentence_start(tokens, i) {
        return None;
    }
    // A determiner or none, then at most two describing words, then the tool ending its phrase.
    let tool = [i + 2, i + 4, i + 6, i + 8].into_iter().find(|&k| {
        spaced(tokens, i + 1, k) && open_word(tokens, k).is_some_and(|w| TOOLS.contains(&w.as_str()))
    })?;
    let between_ok = (i + 2..tool).step_by(2).all(|k| {
        open_word(tokens, k).is_some_and(|w| {
            [
                "some", "a", "an", "his", "her", "my", "their", "our", "the", "old", "new", "rubber",
                "strong", "little", "small", "wet", "sticky",
            ]
            .contains(&w.as_str())
        })
    });
    (between_ok && noun_ends(tokens, tool)).then(|| (1, vec!["using".to_string()]))
}

#[cfg(test)]
mod tests {
    use super::super::shared::told;
    use super::*;

    #[test]
    fn verbs_are_told_by_their_objects() {
        assert_eq!(
            told(took_measure, "The nurse took my blood pressure."),
            "The nurse checked my blood pressure."
        );
        assert_eq!(told(took_measure, "She took his temperature."), "She checked his temperature.");
        assert_eq!(told(sat_exam, "The students sat the maths exam."), "The students took the maths exam.");
        assert_eq!(
            told(lets_allows, "The permit lets you park anywhere in zone C."),
            "The permit allows you to park anywhere in zone C."
        );
        assert_eq!(told(lets_allows, "She lets you know by Friday."), "She lets you know by Friday.");
        assert_eq!(told(lets_allows, "Let me see."), "Let me see.");
        assert_eq!(told(sat_exam, "She has sat the exam twice."), "She has taken the exam twice.");
        assert_eq!(
            told(walked_dog, "He takes the dog for a walk every evening."),
            "He walks the dog every evening."
        );
        assert_eq!(told(gave_refund, "The store gave me a refund."), "The store refunded me.");
        assert_eq!(told(gone_sour, "The milk has gone sour."), "The milk has turned sour.");
        assert_eq!(told(checked_examined, "The dentist checked my teeth."), "The dentist examined my teeth.");
        assert_eq!(
            told(checked_examined, "The mechanic checked the brakes."),
            "The mechanic inspected the brakes."
        );
        assert_eq!(told(clapped_applauded, "The audience clapped loudly."), "The audience applauded loudly.");
        assert_eq!(told(vacuumed_hoovered, "I vacuumed the stairs."), "I hoovered the stairs.");
        assert_eq!(
            told(organised_arranged, "She organised a surprise party for me."),
            "She arranged a surprise party for me."
        );
        assert_eq!(told(burst_banks, "The river burst its banks."), "The river flooded.");
        assert_eq!(told(burst_banks, "The river could burst its banks."), "The river could flood.");
        assert_eq!(told(washed_dishes, "I washed the dishes after lunch."), "I did the dishes after lunch.");
        assert_eq!(told(washed_dishes, "I have washed the dishes."), "I have done the dishes.");
        assert_eq!(told(replied_to, "She answered all the emails."), "She replied to all the emails.");
        assert_eq!(
            told(replied_to, "She answered my question politely."),
            "She replied to my question politely."
        );
        assert_eq!(told(broke_bone, "He broke his leg while skiing."), "He fractured his leg while skiing.");
        assert_eq!(
            told(took_back, "She returned the shoes because they were small."),
            "She took the shoes back because they were small."
        );
        assert_eq!(
            told(took_back, "I need to return these books to the library."),
            "I need to take these books back to the library."
        );
        assert_eq!(
            told(allergic, "My brother is allergic to peanuts."),
            "My brother has an allergy to peanuts."
        );
    }

    #[test]
    fn other_objects_keep_the_verb() {
        for (find, text) in [
            (took_measure as super::super::shared::Finder, "He took the bus to work."),
            (took_measure, "They took part in the race."),
            (sat_exam, "She sat the baby on the chair."),
            (sat_exam, "We sat at the table."),
            (walked_dog, "She takes the dog to the vet."),
            (gave_refund, "They gave the shop a refund form."),
            (gone_sour, "The milk has gone off."),
            (checked_examined, "I checked my email."),
            (checked_examined, "He checked the time."),
            (clapped_applauded, "He clapped his hands."),
            (clapped_applauded, "She clapped him on the back."),
            (vacuumed_hoovered, "We bought a new vacuum."),
            (vacuumed_hoovered, "The vacuum is broken."),
            (organised_arranged, "She organised her desk."),
            (organised_arranged, "He organised the files."),
            (burst_banks, "Rivers burst their banks every spring."),
            (burst_banks, "The balloon burst."),
            (washed_dishes, "I washed the dishes towels."),
            (replied_to, "He answered all the questions correctly."),
            (replied_to, "She answered the door."),
            (broke_bone, "Break a leg!"),
            (broke_bone, "He broke the leg of the chair."),
            (took_back, "She returned home late."),
            (took_back, "He returned the call."),
            (took_back, "She returned the book shop keys."),
            (allergic, "They are allergic to cats."),
            // An offer to do something is no request.
            (invited_asked, "They invited us to stay."),
            (invited_asked, "She invited him to speak at the meeting."),
            (turn_go, "Turn left at the lights."),
            (turn_go, "He turned green paint into blue."),
            (shed_leaves, "They lose their keys."),
            (drank_had, "He drank coffee."),
            (drank_had, "She drank the glass of wine I poured."),
            (getting_becoming, "I've got bigger problems."),
            (getting_becoming, "He is getting better."),
            (washed_car, "He washed the car park floor."),
            (needs_doing, "The carpet needs a good clean."),
            (needs_doing, "I need a haircut."),
            (needs_doing, "The bridge needs a repairs."),
            (needs_doing, "He needs a wash bag."),
            (many_lot, "How many people came?"),
            (many_lot, "There were too many people."),
            (many_lot, "We lived there for many years."),
            (many_lot, "Many of them left."),
            (many_lot, "She asked many times."),
            (had_food, "We had the pizza in the freezer."),
            (had_food, "We had had pasta."),
            (had_food, "We had pizza delivered."),
            (had_food, "He had a sandwich in his bag."),
            (needs_doing, "The car needs a wash and a service."),
            (took_back, "He returned the book to me."),
            (wrong_way, "He took the wrong road sign down."),
            (ate_too_much, "We ate far too much."),
            (ate_too_much, "She ate too much cake."),
            (by_card, "She opened the door with her card."),
            (with_using, "She went with her sister."),
            (with_using, "A box with string handles."),
            (works_as, "They worked as a team."),
            (works_as, "It works as a charm."),
            (works_as, "The app works as a diary."),
            (nowhere_found, "I can't find my keys anywhere, so I'm late."),
            (nowhere_found, "I can't find anything anywhere."),
            (nowhere_found, "If I can't find my keys anywhere, I'll call."),
            (relatives_house, "We went to my aunt's house party."),
            (relatives_house, "We painted my aunt's house."),
            (takes_coffee, "He drinks his coffee quickly."),
            (view_of, "Our room had a lovely view of the sea."),
            (view_of, "I had a view of the stage."),
            (by_card, "I paid, and he opened it with his card."),
            (most_majority, "The cat sleeps most of the day."),
            (most_majority, "He spent most of the weeks at home."),
            (most_majority, "She handles most of the client calls."),
            (remote_control, "He bought a remote control car."),
            (remote_control, "The remote control car broke."),
            (studied_revised, "She studied for a degree in law."),
            (studied_revised, "He studied for years."),
            (walked_on_foot, "They walked to school buses."),
            (walked_on_foot, "She walked to the shop."),
        ] {
            assert_eq!(told(find, text), text);
        }
    }
}
