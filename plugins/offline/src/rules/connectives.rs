//! Connectives that change with the clauses round them: "X, so Y" -> "Y because X", "so strong
//! that X" -> "X because ... so strong", "X, but Y" -> "Although X, Y". Each takes only two
//! clauses and no third that the connective could come to govern.

use crate::lexicon::Pos;
use crate::morph::{self, Form};
use crate::shape::{self, Plain, comma, leaving_start, starting};
use crate::syntax::{pronoun_would_dangle, reported};
use crate::tokens::Token;
use crate::words::{
    ARTICLES, CLAUSE_WORDS, DEFINITE_DETERMINERS, SUBJECT_PRONOUNS, heads_clause, is_verbish,
};

/// "X, so Y." -> "Y because X."
pub fn so_to_because(p: &Plain) -> Option<Vec<Token>> {
    if p.commas() != 1 || p.terminal.text == "?" {
        return None;
    }
    let c = p.items.iter().position(|t| !t.is_word())?;
    // ", and so" (a word group's, from ", so") reads the same.
    let and = usize::from(p.lower(c + 1) == "and");
    let follows = p.lower(c + 2 + and);
    if p.lower(c + 1 + and) != "so"
        || ["that", "much", "many", "far", "long", "do", "did", "is"].contains(&follows.as_str())
    {
        return None;
    }
    let (x, y) = (&p.items[..c], &p.items[c + 2 + and..]);
    if x.len() < 2 || y.len() < 2 {
        return None;
    }
    // "naps between two and four, so come after that": the result points back at the cause,
    // which after the swap would come too late.
    let points_back = y.iter().any(|t| ["that", "then", "those"].contains(&t.text.to_lowercase().as_str()));
    if points_back {
        return None;
    }
    y_because_x(y, x, &p.terminal)
}

/// "The wind was so strong that the tent collapsed." -> "The tent collapsed because the wind
/// was so strong."
pub fn so_that_to_because(p: &Plain) -> Option<Vec<Token>> {
    if p.commas() != 0 || p.terminal.text != "." {
        return None;
    }
    let so = p.find("so")?;
    // "so cold that", or with a time phrase between ("so cold this morning that").
    let that = (so + 2..(so + 5).min(p.items.len())).find(|&k| p.lower(k) == "that")?;
    let other_clause = p.items.iter().enumerate().any(|(k, t)| {
        let w = t.text.to_lowercase();
        k != so && k != that && w != "to" && CLAUSE_WORDS.contains(&w.as_str())
    });
    if so < 2 || p.lower(that) != "that" || p.items.len() < that + 3 || other_clause {
        return None;
    }
    // "I am so glad that you came": after a word of feeling or knowing the "that" clause is what
    // is felt, its cause, not a result ("You came because I am so glad" turns it round).
    const FEELING: &[&str] = &[
        "glad",
        "happy",
        "pleased",
        "sorry",
        "sad",
        "proud",
        "surprised",
        "relieved",
        "grateful",
        "thankful",
        "lucky",
        "sure",
        "certain",
        "afraid",
        "worried",
        "excited",
        "angry",
        "disappointed",
        "shocked",
        "amazed",
        "upset",
        "annoyed",
        "delighted",
        "thrilled",
        "confident",
        "convinced",
    ];
    if FEELING.contains(&p.lower(so + 1).as_str()) {
        return None;
    }
    let (x, y) = (&p.items[..that], &p.items[that + 1..]);
    y_because_x(y, x, &p.terminal)
}

/// Whether the main clause `moved`, put before `other`, would point forward to a noun in it: with
/// a pronoun of its (`pronoun_would_dangle`), or with "one" standing for a noun ("The old one was
/// torn, so she bought a new coat."). A main clause cannot point forward, as a fronted
/// subordinate clause may.
fn main_clause_points_forward(moved: &[Token], other: &[Token]) -> bool {
    let pro_one = moved.iter().skip(1).any(|t| ["one", "ones"].contains(&t.text.to_lowercase().as_str()));
    pro_one || pronoun_would_dangle(&refs(moved), &refs(other))
}

/// The effect `y` told first, then "because" and the cause `x`: the sentence both "so" rules make.
fn y_because_x(y: &[Token], x: &[Token], terminal: &Token) -> Option<Vec<Token>> {
    // "..., so I need to renew it." -> "I need to renew it because ...": the effect, now first,
    // must not carry a pronoun whose noun is in the cause.
    if main_clause_points_forward(y, x) {
        return None;
    }
    let mut out = vec![starting(&y[0])];
    out.extend_from_slice(&y[1..]);
    out.push(shape::word("because"));
    out.push(leaving_start(&x[0])?);
    out.extend_from_slice(&x[1..]);
    Some(shape::build(&out, terminal))
}

/// "It was late, but we stayed." -> "Although it was late, we stayed."
pub fn but_to_although(p: &Plain) -> Option<Vec<Token>> {
    if p.commas() != 1 || p.terminal.text == "?" {
        return None;
    }
    let c = p.items.iter().position(|t| !t.is_word())?;
    let (x, y) = (&p.items[..c], &p.items[c + 2..]);
    // "We were going to have a picnic, but it started to rain": a plan that the "but" clause
    // undid is no concession, which "although" would make it.
    let planned = (0..c).any(|k| {
        ["going", "about", "meant", "wanted", "tried", "hoped", "planned", "intended"]
            .contains(&p.lower(k).as_str())
            && p.lower(k + 1) == "to"
    });
    // A concession needs an expectation that the "but" clause defeats: "He was tired, but he
    // kept working" (a state), "It rained, but we didn't mind" (a denial). "We went to see the new
    // musical, but it was too long" is only a contrast, which "although" would make a concession
    // of: an action before "but" needs a denial or "still" after it.
    let lower = |t: &Token| t.text.to_lowercase().replace('’', "'");
    let state = x.iter().any(|t| {
        let w = lower(t);
        ["am", "is", "are", "was", "were", "has", "have", "had", "seemed", "looked", "felt"]
            .contains(&w.as_str())
    });
    // The text's own denial: "too long" told as "not short enough" is no denial.
    let defeated = y.iter().filter(|t| !t.changed).any(|t| {
        let w = lower(t);
        w.ends_with("n't")
            || ["not", "never", "no", "nobody", "nothing", "still", "anyway", "kept", "even"]
                .contains(&w.as_str())
    });
    if p.lower(c + 1) != "but"
        || x.len() < 2
        || y.len() < 2
        || planned
        || !(state || defeated)
        || !clause_with_subject(x)
        || !clause_with_subject(y)
    {
        return None;
    }
    let mut out = vec![shape::word("Although"), leaving_start(&x[0])?];
    out.extend_from_slice(&x[1..]);
    out.push(comma());
    out.extend_from_slice(y);
    Some(shape::build(&out, &p.terminal))
}

/// The tokens of a slice, by reference, as `pronoun_would_dangle` reads them.
fn refs(tokens: &[Token]) -> Vec<&Token> {
    tokens.iter().collect()
}

/// Whether `words` open with a subject and its finite verb: a pronoun, or a short noun phrase
/// after a determiner ("the dog barked"), or a name ("Mary was").
fn clause_with_subject(words: &[Token]) -> bool {
    let lower = |k: usize| words.get(k).map(|t| t.text.to_lowercase()).unwrap_or_default();
    let first = lower(0);
    if SUBJECT_PRONOUNS.contains(&first.as_str()) {
        // "he still loves", "we already had": an adverb may stand before the verb.
        const BEFORE_VERB: &[&str] =
            &["still", "already", "always", "never", "often", "just", "also", "really"];
        return heads_clause(&lower(1))
            || (BEFORE_VERB.contains(&lower(1).as_str()) && heads_clause(&lower(2)));
    }
    let determiner = DEFINITE_DETERMINERS.contains(&first.as_str()) || ARTICLES.contains(&first.as_str());
    // A capitalised first word may be a name or a common noun ("Service was slow"), whose case
    // in the middle of the sentence cannot be told: only a determiner opens a subject here.
    determiner && (1..4.min(words.len())).any(|k| heads_clause(&lower(k)))
}

/// "We stayed at home because it was raining." -> "It was raining, so we stayed at home."
/// Both clauses have their own subject, and the cause, now first, must not carry a pronoun whose
/// antecedent is in the effect ("The dog barked because it was hungry." stays).
pub fn because_to_so(p: &Plain) -> Option<Vec<Token>> {
    if p.commas() != 0 || p.terminal.text != "." {
        return None;
    }
    let because = p.find("because")?;
    let (y, x) = (&p.items[..because], &p.items[because + 1..]);
    let other_clause = p
        .items
        .iter()
        .enumerate()
        .any(|(k, t)| k != because && CLAUSE_WORDS.contains(&t.text.to_lowercase().as_str()));
    if y.len() < 2 || x.len() < 2 || other_clause || !clause_with_subject(y) || !clause_with_subject(x) {
        return None;
    }
    if main_clause_points_forward(x, y) {
        return None;
    }
    let mut out = vec![starting(&x[0])];
    out.extend_from_slice(&x[1..]);
    out.push(comma());
    out.push(shape::word("so"));
    out.push(leaving_start(&y[0])?);
    out.extend_from_slice(&y[1..]);
    Some(shape::build(&out, &p.terminal))
}

/// "We stayed at home because I was ill." -> "We stayed at home as I was ill.": the cause told
/// with "as", only where its clause states a condition (a form of "be" that is not a
/// progressive: "as it was raining" could tell the time the rain fell, not why) and no third
/// clause follows. Never "since", which reads as a time after a perfect.
pub fn because_to_as(p: &Plain) -> Option<Vec<Token>> {
    if p.commas() != 0 || p.terminal.text != "." {
        return None;
    }
    let because = p.find("because")?;
    let (y, x) = (&p.items[..because], &p.items[because + 1..]);
    let other_clause = p.items.iter().enumerate().any(|(k, t)| {
        k != because && t.text != "to" && CLAUSE_WORDS.contains(&t.text.to_lowercase().as_str())
    });
    if y.len() < 2 || x.len() < 3 || other_clause || !clause_with_subject(y) || !clause_with_subject(x) {
        return None;
    }
    // The verb of the cause: its second word after a pronoun, or within its first four words.
    let lower: Vec<String> = x.iter().map(|t| t.text.to_lowercase()).collect();
    let verb = lower.iter().position(|w| heads_clause(w))?;
    // Only "be": "as they had a baby" may tell when they moved.
    let state = ["is", "are", "was", "were"].contains(&lower[verb].as_str());
    let progressive = lower.get(verb + 1).is_some_and(|w| w.ends_with("ing"))
        || lower.get(verb + 2).is_some_and(|w| w.ends_with("ing") && lower[verb + 1] == "been");
    // "because of" is no clause, and "as" after a comparison reads as one ("as tall as").
    let compared = lower.iter().any(|w| w == "as") || y.iter().any(|t| t.text.eq_ignore_ascii_case("as"));
    if !state || progressive || compared || verb > 3 {
        return None;
    }
    let mut out: Vec<Token> = y.to_vec();
    out.push(shape::word("as"));
    out.extend_from_slice(x);
    Some(shape::build(&out, &p.terminal))
}

/// "The flight was cancelled due to the storm." -> "Due to the storm, the flight was cancelled.":
/// a cause told as a phrase at the end of a one-clause sentence goes to its front, as "because
/// of" does (`clauses`). Not after "be" ("The delay was due to the snow" says what the delay
/// was), and not before a verb ("is due to arrive" is a schedule).
pub fn front_due_to(p: &Plain) -> Option<Vec<Token>> {
    if p.commas() != 0 || p.terminal.text != "." {
        return None;
    }
    let n = p.items.len();
    let k = (2..n.saturating_sub(2)).find(|&k| p.lower(k) == "due" && p.lower(k + 1) == "to")?;
    let before = p.lower(k - 1);
    let phrase = &p.items[k + 2..];
    let determiner = ARTICLES.contains(&p.lower(k + 2).as_str())
        || DEFINITE_DETERMINERS.contains(&p.lower(k + 2).as_str())
        || ["heavy", "bad", "strong", "high", "low", "poor", "technical", "staff", "illness"]
            .contains(&p.lower(k + 2).as_str());
    let be = ["is", "are", "was", "were", "be", "been", "being", "'s"].contains(&before.as_str());
    let clause = p.items.iter().any(|t| {
        let w = t.text.to_lowercase();
        w != "to" && CLAUSE_WORDS.contains(&w.as_str())
    });
    // "said the pipe had burst due to the frost": the cause is the reported clause's.
    if be
        || !determiner
        || clause
        || phrase.len() > 5
        || !clause_with_subject(&p.items[..k])
        || reported(p, k)
    {
        return None;
    }
    if phrase.iter().any(|t| heads_clause(&t.text.to_lowercase())) {
        return None;
    }
    shape::front(p, k)
}

/// Nouns of time that "before" or "after" may follow as an adverb of theirs ("the day before she
/// left"), where the clause tells which day, not when the main clause's act came.
const TIME_BEFORE: &[&str] = &[
    "day", "days", "week", "weeks", "night", "year", "years", "month", "months", "morning", "evening", "long",
];

/// "I tidied my desk before I went home." -> "I tidied my desk before going home.", "Please
/// close the window before you leave." -> "... before leaving.": a clause of time whose subject
/// is the main clause's (the same pronoun, or "you" after a request) told with the "-ing" form.
/// Only one clause after it, its verb a full verb in one word ("before he could" keeps its modal).
pub fn before_doing(p: &Plain) -> Option<Vec<Token>> {
    if p.commas() != 0 || p.terminal.text != "." {
        return None;
    }
    let n = p.items.len();
    let k = (2..n.saturating_sub(2)).find(|&k| ["before", "after"].contains(&p.lower(k).as_str()))?;
    let subject = p.lower(k + 1);
    let first = p.lower(0);
    let request = subject == "you"
        && (first == "please" || (is_verbish(&first) && !SUBJECT_PRONOUNS.contains(&first.as_str())));
    let same = SUBJECT_PRONOUNS.contains(&subject.as_str())
        && subject != "it"
        && subject != "you"
        && first == subject;
    if !(same || request) || TIME_BEFORE.contains(&p.lower(k - 1).as_str()) {
        return None;
    }
    let clause = p.items[k + 3..].iter().chain(&p.items[..k]).any(|t| {
        let w = t.text.to_lowercase();
        w != "to" && CLAUSE_WORDS.contains(&w.as_str())
    });
    if clause {
        return None;
    }
    let verb = p.lower(k + 2);
    if FINITE_AUXILIARIES.contains(&verb.as_str()) {
        return None;
    }
    // "go" is too short for the lexicon's analysis, and "went" is its own word.
    let lemma = if ["go", "goes", "went"].contains(&verb.as_str()) {
        "go"
    } else {
        // A form of two verbs ("found": "find" or "found", "saw": "see" or "saw") is refused: the
        // wrong one changes what was done ("before we found a cafe" is no "before founding").
        let mut lemmas = morph::analyse(&verb).into_iter().filter(|a| {
            a.pos == Pos::Verb
                && matches!(a.form, Form::Base | Form::Past | Form::PastOrParticiple | Form::ThirdPerson)
        });
        let lemma = lemmas.next()?.entry.lemma;
        if lemmas.any(|a| a.entry.lemma != lemma) {
            return None;
        }
        lemma
    };
    // "before going." wants a place to go to.
    if ["be", "have", "do", "get"].contains(&lemma) || (lemma == "go" && k + 3 == n) {
        return None;
    }
    let gerund = morph::inflect(lemma, Pos::Verb, Form::Gerund)?;
    let mut out: Vec<Token> = p.items[..=k].to_vec();
    out.push(shape::word(&gerund));
    out.extend_from_slice(&p.items[k + 3..]);
    Some(shape::build(&out, &p.terminal))
}

/// Auxiliaries and modals, which leave no full verb to put in the "-ing" form.
const FINITE_AUXILIARIES: &[&str] = &[
    "is", "are", "was", "were", "am", "has", "have", "had", "do", "does", "did", "will", "would", "can",
    "could", "should", "must", "may", "might", "shall",
];

/// "Although it was cold, we went for a walk." or "We went for a walk although it was cold." ->
/// "It was cold, but we went for a walk." The concession stays first, as "but" needs; a pronoun
/// of the second clause's that moved before its antecedent refuses it, as in `because_to_so`.
pub fn although_to_but(p: &Plain) -> Option<Vec<Token>> {
    if p.terminal.text != "." {
        return None;
    }
    if p.lower(0) == "although" {
        let c = p.items.iter().position(|t| !t.is_word())?;
        if p.commas() != 1 {
            return None;
        }
        return but_clause(&p.items[1..c], &p.items[c + 1..], &p.terminal);
    }
    let k = p.find("although")?;
    // "We got lost in the old town, although we had a map." has its comma before "although".
    let y_end = if p.is_comma(k - 1) { k - 1 } else { k };
    if p.commas() != k - y_end || pronoun_would_dangle(&refs(&p.items[k + 1..]), &refs(&p.items[..y_end])) {
        return None;
    }
    but_clause(&p.items[k + 1..], &p.items[..y_end], &p.terminal)
}

/// "X, but Y." from the concession `x` and the main clause `y`, each a plain clause with its own
/// subject.
fn but_clause(x: &[Token], y: &[Token], terminal: &Token) -> Option<Vec<Token>> {
    let other_clause =
        x.iter().chain(y).any(|t| CLAUSE_WORDS.contains(&t.text.to_lowercase().as_str()) || !t.is_word());
    if x.len() < 2 || y.len() < 2 || other_clause || !clause_with_subject(x) || !clause_with_subject(y) {
        return None;
    }
    let mut out = vec![starting(&x[0])];
    out.extend_from_slice(&x[1..]);
    out.push(comma());
    out.push(shape::word("but"));
    out.push(leaving_start(&y[0])?);
    out.extend_from_slice(&y[1..]);
    Some(shape::build(&out, terminal))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::apply as run;

    #[test]
    fn a_cause_told_with_due_to_goes_to_the_front() {
        assert_eq!(
            run(front_due_to, "The flight was cancelled due to the storm.").as_deref(),
            Some("Due to the storm, the flight was cancelled.")
        );
        assert_eq!(
            run(so_to_because, "The plane couldn't land in the fog, so it was diverted to Bristol."),
            None
        );
        assert_eq!(run(so_to_because, "We ran out of sugar, so I borrowed some from next door."), None);
        assert_eq!(run(but_to_although, "We were going to have a picnic, but it started to rain."), None);
        assert_eq!(run(front_due_to, "The delay was due to the snow."), None);
        assert_eq!(run(front_due_to, "The plumber said the pipe had burst due to the frost."), None);
        assert_eq!(run(front_due_to, "The train is due to arrive at noon."), None);
    }

    #[test]
    fn causes_with_as_and_times_with_the_ing_form() {
        assert_eq!(
            run(because_to_as, "We walked home because the bus was full.").as_deref(),
            Some("We walked home as the bus was full.")
        );
        assert_eq!(run(because_to_as, "We stayed inside because it was raining."), None);
        assert_eq!(
            run(before_doing, "She checked the oven before she left the house.").as_deref(),
            Some("She checked the oven before leaving the house.")
        );
        assert_eq!(run(before_doing, "We cleaned the house before the guests arrived."), None);
        // "found" is "find" or "found", "saw" "see" or "saw": either reading would be a guess.
        assert_eq!(run(before_doing, "We walked for two hours before we found a cafe."), None);
        assert_eq!(run(before_doing, "I waved before I saw him."), None);
        assert_eq!(run(before_doing, "Feed the fish before you go."), None);
    }

    #[test]
    fn so_becomes_because() {
        assert_eq!(
            run(so_to_because, "It is raining, so we will stay inside.").as_deref(),
            Some("We will stay inside because it is raining.")
        );
        assert_eq!(
            run(so_to_because, "It is raining, and so we will stay inside.").as_deref(),
            Some("We will stay inside because it is raining.")
        );
        assert_eq!(run(so_to_because, "It was late, so that we left."), None);
        assert_eq!(
            run(so_to_because, "Mary was tired, so we left.").as_deref(),
            Some("We left because Mary was tired.")
        );
    }

    #[test]
    fn so_keeps_a_pronoun_after_its_noun() {
        assert_eq!(run(so_to_because, "My passport expires next year, so I need to renew it soon."), None);
    }

    #[test]
    fn so_that_becomes_because() {
        let f = so_that_to_because;
        assert_eq!(run(f, "I am so glad that you came."), None);
        assert_eq!(
            run(f, "The wind was so strong that the tent collapsed.").as_deref(),
            Some("The tent collapsed because the wind was so strong.")
        );
        assert_eq!(
            run(f, "She laughed so hard that she cried.").as_deref(),
            Some("She cried because she laughed so hard.")
        );
        assert_eq!(run(f, "He left so that we could sleep."), None);
        assert_eq!(
            run(f, "The bus was so full that I had to stand.").as_deref(),
            Some("I had to stand because the bus was so full.")
        );
        assert_eq!(
            run(f, "It was so cold this morning that the windows were frozen.").as_deref(),
            Some("The windows were frozen because it was so cold this morning.")
        );
        assert_eq!(run(f, "It was so cold that we stayed in because it snowed."), None);
    }

    #[test]
    fn because_becomes_so() {
        let f = because_to_so;
        assert_eq!(
            run(f, "We stayed at home because it was raining.").as_deref(),
            Some("It was raining, so we stayed at home.")
        );
        assert_eq!(
            run(f, "The match was cancelled because the pitch was flooded.").as_deref(),
            Some("The pitch was flooded, so the match was cancelled.")
        );
        // "it" would come before the dog it means.
        assert_eq!(run(f, "The dog barked because it was hungry."), None);
        assert_eq!(run(f, "He left because of the rain."), None);
        assert_eq!(run(f, "She bought a new coat because the old one was torn."), None);
        assert_eq!(run(f, "I know that he left because it rained."), None);
    }

    #[test]
    fn although_becomes_but() {
        let f = although_to_but;
        assert_eq!(
            run(f, "Although it was cold, we went for a walk.").as_deref(),
            Some("It was cold, but we went for a walk.")
        );
        assert_eq!(
            run(f, "We went for a walk although it was cold.").as_deref(),
            Some("It was cold, but we went for a walk.")
        );
        assert_eq!(run(f, "The car still runs although it is old."), None);
        assert_eq!(
            run(f, "We got lost in the old town, although we had a map.").as_deref(),
            Some("We had a map, but we got lost in the old town.")
        );
    }

    #[test]
    fn but_becomes_although() {
        assert_eq!(
            run(but_to_although, "He was tired, but he kept working.").as_deref(),
            Some("Although he was tired, he kept working.")
        );
        assert_eq!(run(but_to_although, "It is cheap, but good."), None);
        // A contrast with nothing expected is no concession.
        assert_eq!(run(but_to_although, "We went to see the new musical, but it was too long."), None);
        assert_eq!(
            run(but_to_although, "We left early, but we still missed the train.").as_deref(),
            Some("Although we left early, we still missed the train.")
        );
        assert_eq!(
            run(but_to_although, "We had booked a sea view, but our room looked onto the car park.")
                .as_deref(),
            Some("Although we had booked a sea view, our room looked onto the car park.")
        );
    }
}
