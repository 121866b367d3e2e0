//! A place phrase that ends the sentence after its object noun moves to the front ("He found a
//! wallet on the street." -> "On the street, he found a wallet."). Not after a verb with no object
//! ("is sleeping on the sofa"), nor after another phrase's noun ("on our walk through the hills"):
//! there the place is what the sentence tells, or belongs to that noun; and not out of the subject
//! (`front_subject_place` does that, when the predicate tells the subject's state).

use crate::lexicon::Pos;
use crate::morph;
use crate::shape::{self, Plain, comma, leaving_start, starting};
use crate::syntax::{coordinated_clause, has_clause_word};
use crate::tokens::Token;
use crate::words::{
    DEFINITE_DETERMINERS, EVENTS, FINITE_BE, FINITE_HAVE, PERSONAL_POSSESSIVES, PHRASE_DETERMINERS,
    PHRASE_PREPOSITIONS, PLACE_PREPOSITIONS, TIME_NOUNS, clearly_finite, is_manner_adverb, is_noun,
    is_verbish, modifier_or_noun,
};

/// The start of a place or time phrase ending the sentence: a preposition, a determiner, at
/// most two modifiers and a noun, right after a noun or an adverb (after a verb or an adjective
/// the phrase is its complement: "lives in Paris", "interested in art").
fn trailing_place_phrase(p: &Plain) -> Option<usize> {
    let n = p.items.len();
    // "in Vienna": a capitalised name after "in" or "at" is a place.
    // "in July" and "on Monday" are times, not places.
    let calendar = crate::words::MONTHS.contains(&p.lower(n - 1).as_str())
        || crate::words::DAY_NAMES.contains(&p.lower(n - 1).as_str());
    let named = n >= 3
        && !calendar
        && ["in", "at"].contains(&p.lower(n - 2).as_str())
        && shape::is_title(&p.items[n - 1].text)
        && p.items[n - 1].text.chars().skip(1).all(|c| c.is_ascii_lowercase());
    let start = if named {
        n - 2
    } else {
        // A phrase that opens the sentence does not trail anything.
        let start = (n.saturating_sub(5).max(1)..n.saturating_sub(2))
            .find(|&k| PLACE_PREPOSITIONS.contains(&p.lower(k).as_str()))?;
        if !PHRASE_DETERMINERS.contains(&p.lower(start + 1).as_str()) || (start + 2..n).any(|k| p.is_comma(k))
        {
            return None;
        }
        start
    };
    let last = p.lower(n - 1);
    // "on the road nowadays": the adverb is the sentence's time, not part of the place.
    const TIME_ADVERBS: &[&str] =
        &["nowadays", "today", "tonight", "now", "yesterday", "tomorrow", "lately", "recently", "again"];
    let last_ok = (named || is_noun(&last) || last == "o'clock") && !TIME_ADVERBS.contains(&last.as_str());
    let inner_ok = (start + 2..n - 1).all(|k| {
        let a = morph::analyse(&p.lower(k));
        !a.is_empty() && a.iter().all(|a| matches!(a.pos, Pos::Noun | Pos::Adj))
    });
    let before = p.lower(start - 1);
    let noun = morph::evidence(&morph::analyse(&before), |a| a.pos == Pos::Noun);
    // A noun after a determiner ("a nurse at"), a clear noun, a particle ("went out during"),
    // or a manner adverb.
    let determined =
        start >= 2 && PHRASE_DETERMINERS.contains(&p.lower(start - 2).as_str()) && is_noun(&before);
    let particle = ["out", "up", "down", "off", "away", "back", "home"].contains(&before.as_str());
    // Verbs of posture and activity take no complement, so a place phrase after them is free.
    const INTRANSITIVE: &[&str] = &[
        "sat", "stood", "lay", "slept", "played", "waited", "worked", "stayed", "rested", "sang", "danced",
        "sits", "stands", "sleeps", "plays", "waits", "works", "stays", "rests", "sings", "dances",
        "sitting", "standing", "sleeping", "playing", "waiting", "working", "resting", "melted", "froze",
        "grew", "happened", "reading", "studying", "swimming", "walking", "running", "cooking", "talking",
    ];
    // "is charging in the bedroom": a progressive with nothing after it.
    let progressive =
        before.ends_with("ing") && start >= 2 && FINITE_BE.contains(&p.lower(start - 2).as_str());
    let particle = particle || progressive || INTRANSITIVE.contains(&before.as_str());
    let before_ok = noun.at_least(8, 10) || determined || particle || is_manner_adverb(&before);
    (last_ok && inner_ok && before_ok).then_some(start)
}

/// Verbs of liking and wanting, which have no place of their own.
const LIKING: &[&str] = &crate::words::concat::<21>(&[
    crate::words::LIKING_FORMS,
    &["enjoy", "enjoys", "enjoyed", "miss", "misses", "missed", "want", "wants", "wanted"],
]);

/// "We spent the weekend at the beach." -> "At the beach, we spent the weekend."
/// Whether the place phrase at `k` follows a verb's object with "the" ("the brakes", "all the
/// cherries") and is "on" a definite or someone's thing, or "in" or "at" someone's: a phrase
/// that may be the object's own.
fn object_s_place(p: &Plain, k: usize) -> bool {
    let preposition = p.lower(k);
    let owner = p.lower(k + 1);
    let possessed = PERSONAL_POSSESSIVES.contains(&owner.as_str()) || owner.ends_with("'s");
    let known = possessed || DEFINITE_DETERMINERS.contains(&owner.as_str());
    let located = ["in", "at"].contains(&preposition.as_str());
    (k.saturating_sub(4)..k.saturating_sub(1)).any(|j| {
        let all = j >= 1 && p.lower(j - 1) == "all";
        // "lost all the food in the freezer": "all" of a thing is all of it in one place.
        // "loved the evening entertainment in the clubhouse": a liking has no place of its own,
        // so the place is the thing's ("read the book in the garden" tells where the reading was).
        let verb = if all { p.lower(j.saturating_sub(2)) } else { p.lower(j.saturating_sub(1)) };
        let state = LIKING.contains(&verb.as_str());
        let fits = (preposition == "on" && known) || (located && (possessed || (all || state) && known));
        let after_verb = j >= 2 && {
            let before = if all { p.lower(j - 2) } else { p.lower(j - 1) };
            !PHRASE_PREPOSITIONS.contains(&before.as_str()) && !is_noun(&before) || is_verbish(&before)
        };
        // Someone's thing is told apart by its owner ("lost his wallet on the bus").
        fits && p.lower(j) == "the"
            && after_verb
            && (j + 1..k).all(|m| modifier_or_noun(&p.lower(m)))
            && is_noun(&p.lower(k - 1))
    })
}

pub fn front_place_phrase(p: &Plain) -> Option<Vec<Token>> {
    if p.commas() != 0 || p.terminal.text == "?" || has_clause_word(p, usize::MAX) {
        return None;
    }
    let k = trailing_place_phrase(p)?;
    // "works in a bank", "had lunch in a café": a place said with "a" is new to the reader, and
    // in front it reads as a scene set for a story ("In a bank, her brother works.").
    if ["a", "an"].contains(&p.lower(k + 1).as_str()) {
        return None;
    }
    // "a French comedy from the sixties": a decade is when, not where, and says which comedy.
    let last = p.lower(p.items.len() - 1);
    if last.ends_with("ties")
        || (last.ends_with('s') && last.trim_end_matches('s').bytes().all(|b| b.is_ascii_digit()))
    {
        return None;
    }
    // "fixed the brakes on my car", "ate all the cherries on the tree": after an object with "the",
    // "on" a known thing, or "in" or "at" someone's, may say which object it is, and in front
    // it would tell where the doing was.
    if object_s_place(p, k) {
        return None;
    }
    // "fifty pounds behind the bar" is a bar tab: after an amount the place is the amount's.
    let amount = p.lower(k - 1);
    if ["pounds", "euros", "dollars", "pence", "quid"].contains(&amount.as_str())
        || amount.bytes().any(|b| b.is_ascii_digit())
    {
        return None;
    }
    // "said we should drink more water during the game", "booked a table at the new place": the
    // phrase may be the reported clause's or the booked thing's (`syntax::time_inside`).
    let says = (0..k).any(|j| {
        [
            "said", "says", "say", "told", "tells", "think", "thinks", "thought", "believe", "believes",
            "hope", "hopes", "hoping", "hoped",
        ]
        .contains(&p.lower(j).as_str())
    });
    if says || crate::syntax::reported(p, k) || crate::syntax::time_inside(p, k) {
        return None;
    }
    // "put the keys in the drawer": the place is what the verb is about.
    const PLACING: &[&str] = &[
        "put",
        "puts",
        "placed",
        "set",
        "laid",
        "hung",
        "kept",
        "stored",
        "left",
        "hid",
        "keeps",
        "lives",
        "live",
        "lived",
        "dropped",
        "drops",
        "parked",
        "parks",
        "threw",
        "poured",
        "spilled",
        "spilt",
        "stuck",
        "leaves",
        "leave",
        "trapped",
        "jammed",
        "needs",
        "need",
        "needed",
        "forget",
        "forgets",
        "forgot",
        "forgotten",
    ];
    if k < 3 || p.items[..k].iter().any(|t| PLACING.contains(&t.text.to_lowercase().as_str())) {
        return None;
    }
    // "shut my finger in the car door": a part of one caught in something is placed there too.
    const CAUGHT: &[&str] = &["shut", "caught", "close", "closed", "trapped", "slammed"];
    const PARTS: &[&str] = &[
        "finger", "fingers", "hand", "hands", "thumb", "foot", "feet", "arm", "leg", "toe", "coat", "sleeve",
        "scarf", "skirt", "hair",
    ];
    // "My card was declined even though there was enough money in the account": the place is
    // the second clause's.
    if (0..k).any(|j| {
        ["though", "although", "while", "whereas", "unless", "until", "since", "because", "if", "when"]
            .contains(&p.lower(j).as_str())
    }) {
        return None;
    }
    // After "be" as the verb (not a progressive's or a passive's) the phrase is part of what the
    // subject is ("is full of leftovers from the party", "is at the end of this street on the
    // left"); a request keeps its place last ("Please don't leave your bikes in the corridor.").
    let linking = (1..k).any(|j| {
        if !FINITE_BE.contains(&p.lower(j).as_str()) || p.lower(j - 1) == "there" {
            return false;
        }
        // What "be" links to, past the adverbs ("is finally repairing", "is not working"): an
        // adjective ("full of") or a place ("at the end"), not a verb, a noun or a number.
        const ADVERBS: &[&str] = &[
            "not", "finally", "still", "always", "now", "just", "also", "really", "usually", "often", "never",
        ];
        let Some(w) = (j + 1..k).map(|m| p.lower(m)).find(|w| !ADVERBS.contains(&w.as_str())) else {
            return false;
        };
        let a = morph::analyse(&w);
        let adjective = !a.is_empty() && a.iter().all(|a| matches!(a.pos, Pos::Adj | Pos::Adv));
        adjective
            || PLACE_PREPOSITIONS.contains(&w.as_str())
            || ["of", "from", "on", "at", "in"].contains(&w.as_str())
    });
    // "The volunteers are students from the local college": after "be", where the people or
    // things come from is said of its noun, and a "from" at the front would leave it nobody's.
    let origin = p.lower(k) == "from" && (1..k).any(|j| FINITE_BE.contains(&p.lower(j).as_str()));
    if linking || origin || p.lower(0) == "please" {
        return None;
    }
    // What the thing is like, not where ("a dress in my size", "paid in cash"), and where an
    // event's things came from ("leftovers from the party").
    const NOT_PLACES: &[&str] = &[
        "size",
        "colour",
        "color",
        "shape",
        "style",
        "price",
        "stock",
        "cash",
        "ink",
        "pencil",
        "pen",
        "detail",
        "general",
        "particular",
        "person",
        "public",
        "private",
        "secret",
        "advance",
        "return",
        "exchange",
        "total",
        "order",
        "way",
        "mind",
        "hurry",
        "charge",
        "trouble",
        "danger",
        "pain",
        "tears",
        "silence",
        "writing",
        "words",
        "half",
        "pieces",
        "bits",
        "pairs",
        "row",
        "rows",
        "groups",
        "love",
        "time",
        "turn",
    ];
    let head = p.lower(p.items.len() - 1);
    if NOT_PLACES.contains(&head.as_str()) || (p.lower(k) == "from" && EVENTS.contains(&head.as_str())) {
        return None;
    }
    // "complained about the noise in the library": after a preposition's noun the place may be
    // that noun's; "spent the afternoon at the beach": the time is what was spent, and the
    // place is what the sentence tells.
    // "looked nothing like the photos on the website": after a comparison's noun, the same.
    if (k.saturating_sub(3)..k)
        .any(|j| ["about", "of", "with", "for", "like", "than"].contains(&p.lower(j).as_str()))
        || [
            "afternoon",
            "morning",
            "evening",
            "day",
            "weekend",
            "night",
            "week",
            "month",
            "year",
            "summer",
            "holidays",
        ]
        .contains(&p.lower(k - 1).as_str())
    {
        return None;
    }
    // "I can hear the rain on the roof": what is perceived is where the place is, not the
    // perceiver ("On the roof, I can hear the rain.").
    const PERCEIVING: &[&str] =
        &["hear", "hears", "heard", "listen", "listened", "smell", "smelled", "smelt", "feel", "felt"];
    if (0..k).any(|j| PERCEIVING.contains(&p.lower(j).as_str())) {
        return None;
    }
    // "expecting their second baby in May": the month is the baby's, not when they expect.
    if (0..k).any(|j| ["expecting", "expect", "expects", "expected", "due"].contains(&p.lower(j).as_str())) {
        return None;
    }
    if let Some(v) = (0..k).find(|&j| CAUGHT.contains(&p.lower(j).as_str()))
        && (v + 1..k).any(|j| PARTS.contains(&p.lower(j).as_str()))
    {
        return None;
    }
    // "has a few errors in the totals": what one has is told with where it is.
    // A time ("have a meeting at three o'clock", "in the morning") is the setting all the same.
    let has = |j: usize| {
        ["has", "have", "had"].contains(&p.lower(j - 1).as_str())
            && (PHRASE_DETERMINERS.contains(&p.lower(j).as_str())
                || ["few", "some", "no", "lots", "plenty"].contains(&p.lower(j).as_str()))
    };
    let time = p.lower(k) == "at" || TIME_NOUNS.contains(&p.lower(p.items.len() - 1).as_str());
    if !time && (1..k).any(has) {
        return None;
    }
    // "spends too much time on his phone": what the time or money goes on, not where.
    const SPENDING: &[&str] =
        &["spend", "spends", "spent", "spending", "waste", "wastes", "wasted", "wasting"];
    if p.lower(k) == "on" && p.items[..k].iter().any(|t| SPENDING.contains(&t.text.to_lowercase().as_str())) {
        return None;
    }
    // "on our walk through the hills", "a deposit on a house": after another phrase's noun, the
    // place may belong to that noun; and after a verb with no object ("is sleeping on the sofa")
    // the place is what the sentence says, not its setting.
    let before = p.lower(k - 1);
    if (k.saturating_sub(4)..k - 1).any(|j| PHRASE_PREPOSITIONS.contains(&p.lower(j).as_str()))
        || !is_noun(&before)
        || (before.ends_with("ing") && FINITE_BE.contains(&p.lower(k - 2).as_str()))
    {
        return None;
    }
    // "recommended a great Thai restaurant near the office": a place told by what it is near or
    // opposite mostly describes the noun before it, which at the front it would leave.
    if ["near", "opposite", "beside", "next", "close"].contains(&p.lower(k).as_str()) && is_noun(&before) {
        return None;
    }
    // "is finally sleeping through the night": an adverb between "be" and the "-ing" changes
    // nothing, and sleeping the night through is what is told.
    let adverb_between = k >= 3
        && FINITE_BE.contains(&p.lower(k - 3).as_str())
        && (is_manner_adverb(&p.lower(k - 2))
            || ["finally", "still", "just", "now", "already", "always", "really"]
                .contains(&p.lower(k - 2).as_str()));
    if before.ends_with("ing") && adverb_between {
        return None;
    }
    // "loves swimming in the sea": the place is the activity's, inside the "-ing" clause.
    if before.ends_with("ing") && k >= 2 && is_verbish(&p.lower(k - 2)) {
        return None;
    }
    // "take a look at your essay": the phrase is what "look" is at, not a place.
    if p.lower(k) == "at" && ["look", "glance", "peek", "stare", "laugh", "smile"].contains(&before.as_str())
    {
        return None;
    }
    // "once you are back from your trip": a clause of time, and a phrase that says where from,
    // not where.
    if p.find("once").is_some() || ["back", "away", "out", "home"].contains(&p.lower(k - 1).as_str()) {
        return None;
    }
    // After two coordinated clauses the place belongs to the second alone: it stays in it.
    if coordinated_clause(p, k) {
        return None;
    }
    // "makes the best apple pie in the world", "the most comfortable chair in the house": the
    // place is the superlative's range, not a setting (readers found "In the house, this is the
    // most comfortable chair." off too).
    let superlative = (0..k).any(|j| {
        let w = p.lower(j);
        ["best", "worst"].contains(&w.as_str())
            || (["most", "least"].contains(&w.as_str()) && j >= 1 && p.lower(j - 1) == "the")
            || morph::analyse(&w).iter().any(|a| a.pos == Pos::Adj && a.form == morph::Form::Superlative)
    });
    // A path ("walks the dog around the block") is the verb's, and a sentence that opens with a
    // time phrase would stack two in front.
    const MOVING: &[&str] = &[
        "walk",
        "walks",
        "walked",
        "walking",
        "ran",
        "run",
        "runs",
        "running",
        "drove",
        "drive",
        "drives",
        "driving",
        "cycled",
        "cycle",
        "swam",
        "swim",
        "went",
        "go",
        "goes",
        "jogged",
        "jog",
        "travelled",
        "traveled",
        "travel",
        "flew",
        "fly",
        "sailed",
        "hiked",
        "wandered",
        "strolled",
        "rode",
        "ride",
    ];
    let path = ["around", "round", "along", "through", "across", "past", "into", "onto", "towards", "toward"]
        .contains(&p.lower(k).as_str())
        && (0..k).any(|j| MOVING.contains(&p.lower(j).as_str()));
    if superlative || path || crate::syntax::opens_with_adverbial(p) {
        return None;
    }
    shape::front(p, k)
}

/// "The tap in the bathroom is dripping." -> "In the bathroom, the tap is dripping.": a place
/// phrase inside the subject moves to the front when what follows "be" is the subject's state (an
/// adjective or a verb in "-ing" or "-ed"), never what it is ("The man in the car is my uncle").
pub fn front_subject_place(p: &Plain) -> Option<Vec<Token>> {
    // Prepositions of where a thing is, which can stand inside a subject ("the tap in the bathroom").
    const LOCATING: &[&str] = &["in", "on", "at", "under", "behind", "near", "inside", "outside", "beside"];
    const DEGREE: &[&str] = &[
        "still",
        "always",
        "often",
        "usually",
        "very",
        "too",
        "so",
        "really",
        "quite",
        "now",
        "never",
        "completely",
    ];
    if p.commas() != 0 || p.terminal.text != "." || has_clause_word(p, usize::MAX) {
        return None;
    }
    let n = p.items.len();
    let (noun, modifier) = (is_noun, modifier_or_noun);
    if !DEFINITE_DETERMINERS.contains(&p.lower(0).as_str()) {
        return None;
    }
    let prep = (2..=3).find(|&k| LOCATING.contains(&p.lower(k).as_str()))?;
    if !noun(&p.lower(prep - 1)) || !(1..prep - 1).all(|k| modifier(&p.lower(k))) {
        return None;
    }
    if !PHRASE_DETERMINERS.contains(&p.lower(prep + 1).as_str()) {
        return None;
    }
    // The predicate starts at the first verb after the place: "be" and a state, "have" and a
    // participle, or a verb with at most a gerund or an adverb after it ("flickered", "stopped
    // working").
    let be = (prep + 3..n.min(prep + 8)).find(|&k| {
        let w = p.lower(k);
        FINITE_BE.contains(&w.as_str()) || FINITE_HAVE.contains(&w.as_str()) || clearly_finite(&w, true)
    })?;
    let place_ok = (prep + 2..be).all(|k| {
        let w = p.lower(k);
        w == "of"
            || (p.lower(k - 1) == "of" && PHRASE_DETERMINERS.contains(&w.as_str()))
            || modifier(&w)
            || noun(&w)
    }) && noun(&p.lower(be - 1));
    let verb = p.lower(be);
    let q = be + 1 + usize::from(DEGREE.contains(&p.lower(be + 1).as_str()));
    let state = p.lower(q);
    let participle = |w: &str| {
        morph::analyse(w).iter().any(|a| {
            a.pos == Pos::Verb && matches!(a.form, morph::Form::Participle | morph::Form::PastOrParticiple)
        })
    };
    let state_ok = match verb.as_str() {
        // "The car park near the station is full by eight": more after the state makes the place
        // tell which car park, not where the state is.
        "is" | "are" | "was" | "were" => {
            q + 1 == n
                && !state.is_empty()
                && (state.ends_with("ing")
                    || participle(&state)
                    || morph::analyse(&state)
                        .iter()
                        .any(|a| a.pos == Pos::Adj && a.form == morph::Form::Base))
        }
        "has" | "have" | "had" => q + 1 == n && participle(&state),
        // "The carpet in the hall needs cleaning": which carpet is the point, not where.
        "needs" | "need" | "needed" => false,
        _ => {
            be + 1 == n
                || (be + 2 == n && (p.lower(be + 1).ends_with("ing") || is_manner_adverb(&p.lower(be + 1))))
        }
    };
    // A room or an outdoor place, where the state is ("the tap in the bathroom"); a thing that
    // holds another tells which one it is ("the battery in the remote", "the car park near the
    // station").
    const ROOMS: &[&str] = &[
        "kitchen",
        "bathroom",
        "bedroom",
        "hall",
        "hallway",
        "garden",
        "garage",
        "office",
        "attic",
        "basement",
        "cellar",
        "lounge",
        "corridor",
        "lake",
        "river",
        "sea",
        "pond",
        "park",
        "street",
        "road",
        "village",
        "town",
        "city",
        "building",
        "classroom",
        "library",
        "shed",
        "loft",
        "house",
        "flat",
        "room",
    ];
    if !place_ok || !state_ok || !ROOMS.contains(&p.lower(be - 1).as_str()) {
        return None;
    }
    let mut out = vec![starting(&p.items[prep])];
    out.extend_from_slice(&p.items[prep + 1..be]);
    out.push(comma());
    out.push(leaving_start(&p.items[0])?);
    out.extend_from_slice(&p.items[1..prep]);
    out.extend_from_slice(&p.items[be..]);
    Some(shape::build(&out, &p.terminal))
}

/// Where along a way or a task something happened: "on the way to the airport", "on their way
/// home", "halfway up the hill", "halfway through the call", "in the middle of the presentation".
/// Such a phrase is never a verb's complement nor a noun's ("broke down" needs no place), so in
/// front it sets the scene for the same clause. Returns where the phrase starts.
fn stage_phrase(p: &Plain) -> Option<usize> {
    const HALFWAY: &[&str] = &["through", "up", "down", "across", "along", "into"];
    // "in the middle of" a task or an event is a stage of it; of a place ("the hallway") it is
    // where something lies, which the verb may need.
    const UNDER_WAY: &[&str] = &[
        "call",
        "presentation",
        "meeting",
        "film",
        "movie",
        "match",
        "game",
        "cycle",
        "night",
        "lesson",
        "speech",
        "exam",
        "interview",
        "ceremony",
        "concert",
        "show",
        "performance",
        "class",
        "conversation",
        "dinner",
        "lunch",
        "service",
        "wash",
        "load",
    ];
    let n = p.items.len();
    let way = |k: usize| {
        p.lower(k) == "on"
            && (p.lower(k + 1) == "the" || PERSONAL_POSSESSIVES.contains(&p.lower(k + 1).as_str()))
            && p.lower(k + 2) == "way"
            && k + 3 < n
            && ["to", "home", "back", "from", "there", "out", "in"].contains(&p.lower(k + 3).as_str())
    };
    let halfway = |k: usize| p.lower(k) == "halfway" && HALFWAY.contains(&p.lower(k + 1).as_str());
    let middle = |k: usize| {
        p.lower(k) == "in"
            && p.lower(k + 1) == "the"
            && p.lower(k + 2) == "middle"
            && p.lower(k + 3) == "of"
            && UNDER_WAY.contains(&p.lower(n - 1).as_str())
    };
    let k = (2..n.saturating_sub(1)).find(|&k| way(k) || halfway(k) || middle(k))?;
    // The phrase runs to the end with no verb, time word or second clause of its own ("on the
    // way back tonight" would leave "tonight" dating the whole).
    let plain = (k..n).all(|j| {
        let w = p.lower(j);
        p.items[j].is_word()
            && !["and", "or", "but", "then", "tonight", "tomorrow", "today", "yesterday", "again"]
                .contains(&w.as_str())
            && !clearly_finite(&w, false)
            && !w.ends_with("ing")
    });
    (plain && n - k <= 8).then_some(k)
}

/// "My car broke down on the way to the airport." -> "On the way to the airport, my car broke
/// down.": a phrase of where along a way or a task (`stage_phrase`) goes to the front of a
/// sentence of one clause. Not after "be", whose phrase is where the subject is ("He is on his
/// way home"), nor where an infinitive or an "-ing" before it may own it ("stopped buying coffee
/// on the way to work": the buying was on the way, not the stopping).
pub fn front_stage_phrase(p: &Plain) -> Option<Vec<Token>> {
    if p.commas() != 0 || p.terminal.text != "." || has_clause_word(p, usize::MAX) {
        return None;
    }
    let k = stage_phrase(p)?;
    let before = p.lower(k - 1);
    let linked = FINITE_BE.contains(&before.as_str()) || ["be", "been", "being"].contains(&before.as_str());
    // "stopped working halfway through my speech": an "-ing" with nothing after it, right after a
    // verb that starts or stops it, tells one event with its verb, and the stage is both's.
    const PHASES: &[&str] = &["stopped", "started", "began", "stops", "starts", "begins"];
    let phase = |j: usize| j + 1 == k && j >= 1 && PHASES.contains(&p.lower(j - 1).as_str());
    let owned = (0..k).any(|j| {
        let w = p.lower(j);
        // Any other "-ing", whatever the lexicon knows of it: a synonym may have stood in ("getting").
        ["to", "and", "or", "but", "please"].contains(&w.as_str())
            || (w.len() > 4 && w.ends_with("ing") && !phase(j))
    }) || crate::syntax::time_inside(p, k);
    if linked || owned {
        return None;
    }
    shape::front(p, k)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::apply as run;

    #[test]
    fn an_object_s_own_place_stays_with_it() {
        let f = front_place_phrase;
        assert_eq!(run(f, "The mechanic fixed the brakes on my car."), None);
        assert_eq!(run(f, "The birds ate all the cherries on the tree."), None);
        assert_eq!(run(f, "We lost all the food in the freezer."), None);
        assert_eq!(run(f, "The kids loved the evening entertainment in the clubhouse."), None);
        assert_eq!(
            run(f, "He lost his wallet on the bus.").as_deref(),
            Some("On the bus, he lost his wallet.")
        );
        assert_eq!(
            run(f, "She read the book in the garden.").as_deref(),
            Some("In the garden, she read the book.")
        );
    }

    #[test]
    fn a_stage_of_a_way_or_a_task_sets_the_scene() {
        let f = front_stage_phrase;
        assert_eq!(
            run(f, "My car broke down on the way to the airport.").as_deref(),
            Some("On the way to the airport, my car broke down.")
        );
        assert_eq!(
            run(f, "My phone died halfway through the call with my manager.").as_deref(),
            Some("Halfway through the call with my manager, my phone died.")
        );
        assert_eq!(
            run(f, "My laptop died in the middle of an important call.").as_deref(),
            Some("In the middle of an important call, my laptop died.")
        );
        // Where the subject is; a place's middle; the buying's way; a second clause's way.
        assert_eq!(run(f, "He is on his way to the station."), None);
        assert_eq!(run(f, "He always leaves his shoes in the middle of the hallway."), None);
        assert_eq!(run(f, "We have stopped buying coffee on the way to work."), None);
        assert_eq!(run(f, "We have stopped getting coffee on the way to work."), None);
        assert_eq!(
            run(f, "The microphone stopped working halfway through my speech.").as_deref(),
            Some("Halfway through my speech, the microphone stopped working.")
        );
        assert_eq!(run(f, "I forgot my umbrella and got soaked on the way home."), None);
        assert_eq!(run(f, "Heavy rain is expected on the way back tonight."), None);
    }

    #[test]
    fn place_phrases_move_to_the_front() {
        let f = front_place_phrase;
        // A length of time spent somewhere: where is what the sentence tells.
        assert_eq!(run(f, "We spent the weekend at the beach."), None);
        assert_eq!(
            run(f, "We watched the boats at the beach.").as_deref(),
            Some("At the beach, we watched the boats.")
        );
        assert_eq!(
            run(f, "I have a meeting at three o'clock.").as_deref(),
            Some("At three o'clock, I have a meeting.")
        );
        assert_eq!(
            run(f, "We watched the fireworks from the balcony.").as_deref(),
            Some("From the balcony, we watched the fireworks.")
        );
        assert_eq!(
            run(f, "My cousin is studying medicine in Vienna.").as_deref(),
            Some("In Vienna, my cousin is studying medicine.")
        );
        // After a verb or an adjective the phrase is a complement.
        assert_eq!(run(f, "The cat is sleeping on the sofa."), None);
        assert_eq!(run(f, "The baby is finally sleeping through the night."), None);
        assert_eq!(run(f, "My colleague recommended a great Thai restaurant near the office."), None);
        assert_eq!(run(f, "She lives in a small flat."), None);
        assert_eq!(run(f, "The prize this month is fifty pounds behind the bar."), None);
        assert_eq!(run(f, "This month we are showing a French comedy from the sixties."), None);
        assert_eq!(run(f, "I'm hoping the new neighbours will join the street party in July."), None);
        assert_eq!(run(f, "Her brother works in a bank."), None);
        assert_eq!(run(f, "We met in Rome."), None);
        assert_eq!(run(f, "He put the keys in the drawer."), None);
        assert_eq!(run(f, "I shut my finger in the car door."), None);
        assert_eq!(run(f, "They are expecting their second baby in May."), None);
        assert_eq!(run(f, "The shop assistant helped me find a dress in my size."), None);
        assert_eq!(run(f, "The students complained about the noise in the library."), None);
        assert_eq!(run(f, "The fridge is full of leftovers from the party."), None);
        assert_eq!(run(f, "Most of the volunteers are students from the local college."), None);
        assert_eq!(run(f, "The jacket looked nothing like the photos on the website."), None);
        assert_eq!(run(f, "The town hall is at the end of this street on the left."), None);
        assert_eq!(run(f, "Please don't leave your bikes in the corridor."), None);
        assert_eq!(
            run(f, "The cat caught a mouse in the garden.").as_deref(),
            Some("In the garden, the cat caught a mouse.")
        );
        assert_eq!(run(f, "She dropped her phone in the sink."), None);
        assert_eq!(run(f, "He is interested in the film."), None);
        assert_eq!(run(f, "He spends far too much time on his phone."), None);
        assert_eq!(run(f, "The spreadsheet has a few errors in the totals."), None);
        assert_eq!(run(f, "She loves swimming in the sea."), None);
        // What a look is at.
        assert_eq!(run(f, "Let me take a look at your essay."), None);
        // A superlative's range, and a time adverb that is no part of the place.
        assert_eq!(run(f, "My mum makes the best apple pie in the world."), None);
        assert_eq!(run(f, "He owns the biggest house in the village."), None);
        assert_eq!(run(f, "This is the most comfortable chair in the house."), None);
        assert_eq!(run(f, "My card was declined even though there was enough money in the account."), None);
        assert_eq!(run(f, "The roast needs another half an hour in the oven."), None);
        assert_eq!(run(f, "I can hear the rain on the roof."), None);
        assert_eq!(run(f, "It snowed four days in a row."), None);
        assert_eq!(run(f, "Every morning he walks the dog around the block."), None);
        assert_eq!(run(f, "He walks the dog around the block."), None);
        assert_eq!(
            run(f, "The children sang songs around the campfire.").as_deref(),
            Some("Around the campfire, the children sang songs.")
        );
        assert_eq!(run(f, "On weekdays I have lunch at my desk."), None);
        assert_eq!(run(f, "There are too many cars on the road nowadays."), None);
        assert_eq!(
            run(f, "He spends most evenings reading in the garden.").as_deref(),
            Some("In the garden, he spends most evenings reading.")
        );
    }

    #[test]
    fn a_place_stays_in_its_own_clause() {
        let f = front_place_phrase;
        assert_eq!(run(f, "I fed the cat and my wife read a book in the garden."), None);
        assert_eq!(run(f, "He washed the dishes and then played cards at the kitchen table."), None);
    }

    #[test]
    fn a_place_in_the_subject_moves_to_the_front() {
        let f = front_subject_place;
        assert_eq!(
            run(f, "The tap in the bathroom is dripping.").as_deref(),
            Some("In the bathroom, the tap is dripping.")
        );
        // A container tells which water, not where a state is.
        assert_eq!(run(f, "The water in the kettle is still hot."), None);
        assert_eq!(
            run(f, "The house at the end of the street is empty.").as_deref(),
            Some("At the end of the street, the house is empty.")
        );
        assert_eq!(
            run(f, "The lights in the hall flickered.").as_deref(),
            Some("In the hall, the lights flickered.")
        );
        assert_eq!(
            run(f, "The window in the bathroom is stuck.").as_deref(),
            Some("In the bathroom, the window is stuck.")
        );
        assert_eq!(run(f, "The man in the car is my uncle."), None);
        assert_eq!(run(f, "The man in the car stopped the bus."), None);
        assert_eq!(run(f, "The bread is in the cupboard."), None);
        assert_eq!(run(front_subject_place, "The carpet in the hall needs cleaning."), None);
        assert_eq!(run(front_subject_place, "The car park near the station is full by eight."), None);
        assert_eq!(run(front_subject_place, "The battery in the remote is dead."), None);
    }
}
