//! A verb's complement told in its other form, where both say the same: "helped me find" <->
//! "helped me to find", "I like getting up early" <-> "I like to get up early", "The windows need
//! replacing." <-> "The windows need to be replaced." ("started to
//! rain" <-> "started raining" is `phrasal`'s). Each only where the first verb is surely a verb
//! (not "the help", "feel like", "would like to") and the second surely one ("helped him home"
//! stays), and the complement ends where a gerund could not be read as a describing word ("loves
//! swimming lessons" stays).

use crate::lexicon::Pos;
use crate::morph::{self, Form};
use crate::tokens::{Kind, Token, open_word, prev_word};
use crate::words::{PREPOSITIONS, is_verbish, plain_verb};

/// Whether tokens `from..to` (odd indices) are single spaces.
fn spaced(tokens: &[Token], from: usize, to: usize) -> bool {
    (from..to).step_by(2).all(|k| tokens.get(k).is_some_and(|t| t.is(Kind::Space, " ")))
}

/// A verb in its plain form by most of its evidence ("find", "carry"; not "home", "mother"),
/// where nothing before it says it is a verb.
fn verbish_plain_verb(word: &str) -> bool {
    plain_verb(word) && is_verbish(word)
}

/// The lemma of a gerund ("raining" -> "rain"), when the word is surely one.
fn gerund_lemma(word: &str) -> Option<&'static str> {
    // The everyday verbs the lexicon keeps as function words.
    const COMMON: &[(&str, &str)] = &[
        ("getting", "get"),
        ("going", "go"),
        ("making", "make"),
        ("taking", "take"),
        ("coming", "come"),
        ("doing", "do"),
        ("seeing", "see"),
        ("giving", "give"),
        ("staying", "stay"),
        ("waiting", "wait"),
        ("eating", "eat"),
        ("keeping", "keep"),
        ("calling", "call"),
        ("bringing", "bring"),
        ("leaving", "leave"),
        ("finding", "find"),
        ("looking", "look"),
        ("using", "use"),
    ];
    if let Some(&(_, lemma)) = COMMON.iter().find(|(g, _)| *g == word) {
        return Some(lemma);
    }
    if !word.ends_with("ing") || !is_verbish(word) {
        return None;
    }
    morph::analyse(word)
        .iter()
        .find(|a| a.pos == Pos::Verb && a.form == Form::Gerund)
        .map(|a| a.entry.lemma)
        .filter(|lemma| morph::inflect(lemma, Pos::Verb, Form::Gerund).as_deref() == Some(word))
}

/// Whether what follows the verb at `k` leaves it a verb: a pause, a determiner or a pronoun
/// opening its object, a preposition or particle, or an adverb; not a bare noun, which a gerund
/// might describe ("swimming lessons").
fn complement_ends(tokens: &[Token], k: usize) -> bool {
    let Some(next) = tokens.get(k + 1) else { return true };
    if next.kind == Kind::Punct {
        return true;
    }
    let Some(word) = open_word(tokens, k + 2).filter(|_| next.is(Kind::Space, " ")) else {
        return false;
    };
    const OPENERS: &[&str] = &[
        "the", "a", "an", "my", "your", "his", "her", "our", "their", "this", "that", "these", "those",
        "some", "me", "you", "him", "us", "them", "it", "early", "late", "again", "together", "here",
        "there", "home", "now", "today", "tomorrow", "tonight", "every", "all", "and", "when", "before",
        "after",
    ];
    OPENERS.contains(&word.as_str())
        || PREPOSITIONS.contains(&word.as_str())
        || (word.ends_with("ly") && !crate::words::is_noun(&word))
}

/// "Can you help me carry these boxes?" <-> "Can you help me to carry these boxes?": "help" as a
/// verb (not after a determiner: "your help"), a pronoun that is only an object ("her" may own
/// the next word: "helped her mother cook"), and a plain verb.
pub(super) fn help_to(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    let help = open_word(tokens, i)?;
    if !["help", "helps", "helped", "helping"].contains(&help.as_str()) {
        return None;
    }
    let owned = prev_word(tokens, i).is_some_and(|p| {
        ["the", "a", "your", "my", "his", "her", "our", "their", "some", "any", "no", "of", "for"]
            .contains(&p.as_str())
    });
    let person =
        open_word(tokens, i + 2).filter(|w| ["me", "us", "him", "them", "you"].contains(&w.as_str()))?;
    if owned || !spaced(tokens, i + 1, i + 4) {
        return None;
    }
    let next = open_word(tokens, i + 4)?;
    let keep = vec![tokens[i].text.clone(), person];
    if next == "to" {
        let verb = open_word(tokens, i + 6)?;
        (spaced(tokens, i + 5, i + 6) && plain_verb(&verb)).then_some((5, keep))
    } else if verbish_plain_verb(&next) && !PREPOSITIONS.contains(&next.as_str()) {
        let mut words = keep;
        words.push("to".to_string());
        Some((3, words))
    } else {
        None
    }
}

/// The other complement of a verb at `i` taking both "to" + verb and a gerund: "to rain" ->
/// "raining", "getting up" -> "to get up". The number of tokens after the verb it replaces and
/// its words.
fn other_complement(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    let next = open_word(tokens, i + 2)?;
    if !spaced(tokens, i + 1, i + 2) {
        return None;
    }
    if next == "to" {
        let verb = open_word(tokens, i + 4)?;
        // "I like to think that ..." says a hope, not a pleasure.
        if !spaced(tokens, i + 3, i + 4)
            || !plain_verb(&verb)
            || ["think", "say", "believe", "know", "imagine", "be", "have"].contains(&verb.as_str())
            || !complement_ends(tokens, i + 4)
        {
            return None;
        }
        let gerund = morph::inflect(&verb, Pos::Verb, Form::Gerund)?;
        Some((4, vec![gerund]))
    } else {
        let lemma = gerund_lemma(&next)?;
        if ["be", "have"].contains(&lemma) || !complement_ends(tokens, i + 2) {
            return None;
        }
        Some((2, vec!["to".to_string(), lemma.to_string()]))
    }
}

/// "I don't like getting up early." <-> "I don't like to get up early.": a liking or a dislike,
/// either way; "like", "love", "hate" and "prefer" in their plain form only after a subject or a
/// word that leaves them verbs ("feel like going", "would like to", "the love of" stay).
pub(super) fn like_to(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    let verb = open_word(tokens, i)?;
    let prev = prev_word(tokens, i).unwrap_or_default();
    let plain = ["like", "love", "hate", "prefer"].contains(&verb.as_str());
    let finite = ["likes", "loves", "hates", "prefers", "liked", "loved", "hated", "preferred"]
        .contains(&verb.as_str());
    let after_subject = [
        "i", "you", "we", "they", "don't", "do", "didn't", "did", "really", "also", "always", "never", "not",
        "still", "usually", "often", "both", "all",
    ]
    .contains(&prev.as_str());
    // "would like to" is a wish, also asked ("Would you like to join us"); "was liked" a passive.
    let wishes = |w: &str| w == "would" || w.ends_with("'d") || w == "should";
    let asked = i >= 2 && prev_word(tokens, i - 2).is_some_and(|w| wishes(&w));
    let wish = wishes(&prev) || asked;
    let passive = ["is", "are", "was", "were", "be", "been", "being", "am"].contains(&prev.as_str());
    if !(plain && after_subject || finite) || wish || passive {
        return None;
    }
    let (len, words) = other_complement(tokens, i)?;
    let mut out = vec![tokens[i].text.clone()];
    out.extend(words);
    Some((len + 1, out))
}

/// The verbs "needs" + gerund cannot take, having no passive ("needs going" is no "needs to be
/// gone") or another sense.
const NO_PASSIVE: &[&str] = &[
    "be", "have", "go", "come", "stay", "wait", "look", "get", "sleep", "die", "arrive", "happen", "sit",
    "stand", "lie", "work", "rain", "run",
];

/// "The windows need replacing." <-> "The windows need to be replaced.": a thing that wants a
/// doing, before a pause or a time ("needs doing by Friday", "needs cleaning every week"); "need"
/// is a verb (not "no need", "the need"), and the verb has a passive.
pub(super) fn needs_passive(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    const WHEN: &[&str] = &[
        "every",
        "once",
        "twice",
        "again",
        "soon",
        "today",
        "tomorrow",
        "now",
        "before",
        "this",
        "regularly",
    ];
    let need = open_word(tokens, i)?;
    let noun = prev_word(tokens, i).is_some_and(|p| {
        ["the", "a", "no", "any", "its", "special", "basic"].contains(&p.as_str())
            || crate::words::POSSESSIVE_DETERMINERS.contains(&p.as_str())
    });
    if !["need", "needs", "needed"].contains(&need.as_str()) || noun || !spaced(tokens, i + 1, i + 2) {
        return None;
    }
    let ends = |k: usize| {
        tokens.get(k + 1).is_none_or(|t| t.kind == Kind::Punct && t.text != "-")
            || (spaced(tokens, k + 1, k + 2)
                && open_word(tokens, k + 2).is_some_and(|n| WHEN.contains(&n.as_str())))
    };
    let next = open_word(tokens, i + 2)?;
    if next == "to" {
        let words: Vec<String> = (2..=3).map(|k| open_word(tokens, i + 2 * k)).collect::<Option<_>>()?;
        let lemma = morph::analyse(&words[1])
            .iter()
            .find(|a| a.pos == Pos::Verb && matches!(a.form, Form::Participle | Form::PastOrParticiple))
            .map(|a| a.entry.lemma)?;
        let gerund = morph::inflect(lemma, Pos::Verb, Form::Gerund)?;
        let regular =
            morph::inflect(lemma, Pos::Verb, Form::Participle).as_deref() == Some(words[1].as_str());
        let passive = words[0] == "be" && regular && !NO_PASSIVE.contains(&lemma);
        (passive && spaced(tokens, i + 3, i + 6) && ends(i + 6))
            .then(|| (7, vec![tokens[i].text.clone(), gerund]))
    } else {
        let lemma = gerund_lemma(&next)?;
        let participle = morph::inflect(lemma, Pos::Verb, Form::Participle)?;
        (!NO_PASSIVE.contains(&lemma) && ends(i + 2))
            .then(|| (3, vec![tokens[i].text.clone(), "to".to_string(), "be".to_string(), participle]))
    }
}

#[cfg(test)]
mod tests {
    use super::super::shared::told;
    use super::*;

    #[test]
    fn complements_are_told_the_other_way() {
        assert_eq!(
            told(help_to, "Can you help me carry these boxes?"),
            "Can you help me to carry these boxes?"
        );
        assert_eq!(told(help_to, "She helped us to find a dress."), "She helped us find a dress.");
        assert_eq!(told(like_to, "I don't like getting up early."), "I don't like to get up early.");
        assert_eq!(told(like_to, "My son loves to swim in the sea."), "My son loves swimming in the sea.");
        assert_eq!(told(needs_passive, "The windows need replacing."), "The windows need to be replaced.");
        assert_eq!(
            told(needs_passive, "The cage needs cleaning every week."),
            "The cage needs to be cleaned every week."
        );
        assert_eq!(told(needs_passive, "The form needs to be signed."), "The form needs signing.");
    }

    #[test]
    fn other_readings_are_kept() {
        for (find, text) in [
            (help_to as super::super::shared::Finder, "Thanks for your help me."),
            (help_to, "She helped her mother cook."),
            (help_to, "He helped him home."),
            (like_to, "Would you like to join us at the shelter?"),
            (help_to, "They helped us with the move."),
            (like_to, "I would like to stay."),
            (like_to, "I'd like to go."),
            (like_to, "I feel like going out."),
            (like_to, "It looks like raining."),
            (like_to, "I like to think that he is right."),
            (like_to, "She loves reading books."),
            (like_to, "He was liked by everyone."),
            (needs_passive, "There is no need worrying."),
            (needs_passive, "The children need looking at the board."),
            (needs_passive, "The plants need to be kept in the shade."),
            (needs_passive, "We need to be going."),
            (needs_passive, "The house needs painting the same colour."),
        ] {
            assert_eq!(told(find, text), text);
        }
    }
}
