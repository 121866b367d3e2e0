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

/// Verbs of saying, thinking and knowing whose clause opens with "that" or without it, the same
/// either way ("I think that the shop closes at six." <-> "I think the shop closes at six."),
/// and the adjectives of a feeling about a fact ("I'm glad that you came"). Not "explained" or
/// "announced" (without "that" their clause reads first as an object), and not the verbs of
/// seeing and hearing, which also take a bare verb ("heard the dog bark").
pub(super) const SAYING: &[&str] = &[
    "say", "says", "said", "think", "thinks", "thought", "know", "knows", "knew", "hope", "hopes", "hoped",
    "believe", "believes", "believed", "reckon", "reckons", "reckoned", "suppose", "supposed", "guess",
    "realise", "realised", "realize", "realized", "promise", "promised", "sure", "glad", "sorry", "afraid",
    "pleased", "worried",
];

/// Verbs that tell a person something, whose object pronoun comes before the clause ("told me
/// that the shop was closed").
pub(super) const TELLING: &[&str] =
    &["tell", "tells", "told", "remind", "reminds", "reminded", "warn", "warned", "assured"];

/// Whether a clause with its own subject and finite verb opens at token `k`: a subject pronoun
/// (or one contracted with its verb, "she's") before a finite verb, or a noun phrase of a
/// determiner and at most three more words, or a name, before one ("the shop closes", "Ben got").
/// "that" before a verb is a pronoun ("I thought that was odd"), so nothing opens there.
fn clause_opens(tokens: &[Token], k: usize) -> bool {
    let finite = |j: usize| {
        open_word(tokens, j)
            .is_some_and(|w| crate::words::heads_clause(&w) || crate::words::clearly_finite(&w, true))
    };
    let Some(first) = open_word(tokens, k) else { return false };
    let first = first.replace('’', "'");
    let pronoun = ["i", "he", "she", "we", "they", "you", "it", "there"];
    if first.split_once('\'').is_some_and(|(p, _)| pronoun.contains(&p)) {
        return true;
    }
    if pronoun.contains(&first.as_str()) {
        return spaced(tokens, k + 1, k + 2) && finite(k + 2);
    }
    const OPENERS: &[&str] =
        &["the", "a", "an", "my", "your", "his", "her", "our", "their", "this", "these", "those", "some"];
    let name = tokens[k].text.starts_with(|c: char| c.is_ascii_uppercase())
        && !crate::words::lowercase_ok(&tokens[k].text);
    if !OPENERS.contains(&first.as_str()) && !name {
        return false;
    }
    // The noun phrase's words, then the verb: no preposition, clause word or verb before it.
    let words = if name { 0 } else { 3 };
    (0..=words).any(|n| {
        let verb = k + 2 * (n + 1);
        spaced(tokens, k + 1, verb)
            && finite(verb)
            && (1..=n).all(|m| {
                open_word(tokens, k + 2 * m)
                    .is_some_and(|w| crate::words::is_noun(&w) || crate::words::modifier_or_noun(&w))
                    && !finite(k + 2 * m)
            })
            && (n > 0 || name || ["this", "these", "those"].contains(&first.as_str()))
    })
}

/// "I think that the shop closes at six." <-> "I think the shop closes at six.", "told me that
/// the parcel had come" <-> "told me the parcel had come": "that" opening the clause of a verb of
/// saying or thinking, or of a feeling about a fact, is dropped, or put in where the clause
/// starts right after the verb (or after the person told). Only where a clause with its own
/// subject and finite verb surely follows (`clause_opens`), so that "that" is never a pronoun
/// ("I knew that man") and a plain object stays ("she said the word twice").
pub(super) fn that_clause(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    let verb = open_word(tokens, i)?;
    let telling = TELLING.contains(&verb.as_str());
    if !SAYING.contains(&verb.as_str()) && !telling {
        return None;
    }
    // A noun ("the thought", "a guess") is no verb of saying.
    let noun = prev_word(tokens, i).is_some_and(|p| {
        ["the", "a", "an", "this", "that", "my", "your", "his", "her", "our", "their", "no", "any", "second"]
            .contains(&p.as_str())
    });
    // A feeling is about a fact only after "be" or a degree word ("I'm so glad", "not sure"): an
    // opening "Sorry I missed your call" is an apology whose "that" would be stiff.
    const ADJECTIVES: &[&str] = &["sure", "glad", "sorry", "afraid", "pleased", "worried"];
    let linked = prev_word(tokens, i).is_some_and(|p| {
        let p = p.replace('’', "'");
        [
            "am", "is", "are", "was", "were", "be", "been", "so", "very", "really", "not", "quite", "too",
            "just",
        ]
        .contains(&p.as_str())
            || ["'m", "'re", "'s"].iter().any(|end| p.ends_with(end))
    });
    if noun || (ADJECTIVES.contains(&verb.as_str()) && !linked) {
        return None;
    }
    let mut keep = vec![tokens[i].text.clone()];
    let mut at = i + 2;
    if telling {
        let person = open_word(tokens, at)
            .filter(|w| ["me", "us", "him", "her", "them", "you"].contains(&w.as_str()))?;
        keep.push(person);
        at += 2;
    }
    if !spaced(tokens, i + 1, at + 1) {
        return None;
    }
    if open_word(tokens, at).as_deref() == Some("that") {
        (clause_opens(tokens, at + 2) && spaced(tokens, at + 1, at + 2)).then_some((at + 1 - i, keep))
    } else if clause_opens(tokens, at) {
        keep.push("that".to_string());
        Some((at - 1 - i, keep))
    } else {
        None
    }
}

/// The determiner that opens the noun phrase ending with the noun at token `noun`, within three
/// words before it with only describing words or nouns between ("the old washing machine").
fn phrase_opening(tokens: &[Token], noun: usize) -> Option<usize> {
    (1..=3).map(|d| noun.checked_sub(2 * d)).take_while(Option::is_some).flatten().find(|&det| {
        open_word(tokens, det).is_some_and(|w| crate::words::NOUN_PHRASE_DETERMINERS.contains(&w.as_str()))
            && spaced(tokens, det + 1, noun)
            && (det + 2..noun).step_by(2).all(|j| {
                // "the washing machine": a describing "-ing" too.
                open_word(tokens, j).is_some_and(|w| {
                    (crate::words::modifier_or_noun(&w) || crate::words::is_noun(&w) || w.ends_with("ing"))
                        && !crate::words::NOUN_PHRASE_DETERMINERS.contains(&w.as_str())
                        && !crate::words::PREPOSITIONS.contains(&w.as_str())
                })
            })
    })
}

/// Whether the noun at token `noun` may take a relative clause whose "that" is left out or put
/// in: a noun opened by a determiner, as the sentence's subject (with the main verb still to
/// come after the clause) or as a verb's object, where a phrase fronted without a comma cannot
/// be ("After the meal we went home"); not a time ("the day we met" stays), not "place" (whose
/// clause lacks its preposition: "the place we stayed"), nor a noun a "that" clause completes
/// ("the news that we won").
fn takes_relative(tokens: &[Token], noun: usize, clause: usize) -> bool {
    let Some(word) = open_word(tokens, noun) else { return false };
    if !crate::words::is_noun(&word)
        || crate::words::TIME_NOUNS.contains(&word.as_str())
        || crate::words::CONTENT_NOUNS.contains(&word.as_str())
        || ["place", "way", "moment", "minute", "second", "hour", "one", "lot", "bit"]
            .contains(&word.as_str())
    {
        return false;
    }
    let Some(det) = phrase_opening(tokens, noun) else { return false };
    let finite = |j: usize| {
        open_word(tokens, j)
            .is_some_and(|w| crate::words::heads_clause(&w) || crate::words::clearly_finite(&w, true))
    };
    if crate::tokens::is_sentence_start(tokens, det) {
        // The main verb after the clause's own: "The washing machine we bought last month has
        // stopped working."
        let clause_verb = clause + 2;
        return (clause_verb + 2..tokens.len().min(clause_verb + 60))
            .step_by(2)
            .any(|j| finite(j) && !tokens[j - 1].text.contains(','));
    }
    let before = prev_word(tokens, det).unwrap_or_default();
    let verb = crate::words::heads_clause(&before)
        || crate::words::clearly_finite(&before, true)
        || (crate::words::is_verbish(&before) && !crate::words::PREPOSITIONS.contains(&before.as_str()));
    // "so much noise that we could not sleep" is a result, not a relative clause.
    // Both look back over the clause's last forty tokens at most, so that an endless sentence
    // costs no more per word than a short one.
    let window = det.saturating_sub(40);
    let result =
        (window..det).any(|j| open_word(tokens, j).is_some_and(|w| ["so", "such"].contains(&w.as_str())));
    // "After I fed the cat we went out": a clause opened by a subordinator with no comma after it
    // may end at the noun, and the pronoun start the main clause.
    const OPENING: &[&str] = &[
        "when", "whenever", "while", "if", "unless", "because", "although", "though", "before", "after",
        "since", "until", "once", "as",
    ];
    let clause_start =
        tokens[window..det].iter().rposition(|t| t.kind == Kind::Punct).map_or(window, |c| window + c + 1);
    let subordinate =
        (clause_start..det).any(|j| open_word(tokens, j).is_some_and(|w| OPENING.contains(&w.as_str())));
    verb && !crate::words::PREPOSITIONS.contains(&before.as_str()) && !result && !subordinate
}

/// "the washing machine we bought last month" <-> "the washing machine that we bought last
/// month": a relative clause whose subject is a pronoun, with its "that" put in or left out. The
/// "that" is put in before a lowercase pronoun (or after the noun, before "I", whose capital
/// stays), and dropped from between the noun and the pronoun; only after a noun that may take
/// such a clause there (`takes_relative`) and before a finite verb.
pub(super) fn relative_that(tokens: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    let word = open_word(tokens, i)?.replace('’', "'");
    let pronoun = |w: &str| {
        ["i", "we", "you", "they", "he", "she"].contains(&w)
            || w.split_once('\'').is_some_and(|(p, _)| ["i", "we", "you", "they", "he", "she"].contains(&p))
    };
    let finite_after = |k: usize| {
        let w = open_word(tokens, k).unwrap_or_default().replace('’', "'");
        w.contains('\'')
            || open_word(tokens, k + 2)
                .is_some_and(|v| crate::words::heads_clause(&v) || crate::words::clearly_finite(&v, true))
    };
    if word == "that" {
        let subject = open_word(tokens, i + 2)?.replace('’', "'");
        let ok = i >= 2
            && spaced(tokens, i - 1, i + 2)
            && pronoun(&subject)
            && finite_after(i + 2)
            && takes_relative(tokens, i - 2, i + 2);
        return ok.then(|| (2, Vec::new()));
    }
    if !spaced(tokens, i + 1, i + 2) {
        return None;
    }
    // The noun, before "I": the "that" goes after it, so that "I" keeps its capital.
    let next = open_word(tokens, i + 2).unwrap_or_default().replace('’', "'");
    if (next == "i" || next.starts_with("i'")) && finite_after(i + 2) && takes_relative(tokens, i, i + 2) {
        return Some((1, vec![tokens[i].text.clone(), "that".to_string()]));
    }
    let lowercase = pronoun(&word) && !word.starts_with('i');
    let ok = lowercase
        && i >= 2
        && spaced(tokens, i - 1, i)
        && finite_after(i)
        && takes_relative(tokens, i - 2, i);
    ok.then(|| vec!["that".to_string(), tokens[i].text.clone()]).map(|words| (1, words))
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
    fn a_clause_after_saying_or_thinking_takes_that_or_not() {
        let f = that_clause;
        assert_eq!(told(f, "I think that the shop closes at six."), "I think the shop closes at six.");
        assert_eq!(
            told(f, "They said an engineer was on the way."),
            "They said that an engineer was on the way."
        );
        assert_eq!(told(f, "She knows he is busy."), "She knows that he is busy.");
        assert_eq!(told(f, "I'm glad that you came."), "I'm glad you came.");
        assert_eq!(
            told(f, "The caretaker told us the heating had been fixed."),
            "The caretaker told us that the heating had been fixed."
        );
        assert_eq!(told(f, "I hope she's feeling better."), "I hope that she's feeling better.");
        assert_eq!(told(f, "Ben said Anna would drive."), "Ben said that Anna would drive.");
        // "that" as a pronoun or a determiner, a plain object, a noun: nothing to drop or add.
        for text in [
            "I thought that was a bit odd.",
            "I knew that man from school.",
            "She said the word twice.",
            "I think so.",
            "He told me the answer.",
            "That was my first thought.",
            "I heard the dog bark.",
            "I know the way to the station.",
            "I said that to him.",
            "I think the best way to get there is by train.",
            "Sorry I missed your call.",
        ] {
            assert_eq!(told(f, text), text);
        }
    }

    #[test]
    fn a_relative_clause_takes_that_or_not() {
        let f = relative_that;
        assert_eq!(
            told(f, "The washing machine we bought last month has stopped working."),
            "The washing machine that we bought last month has stopped working."
        );
        assert_eq!(told(f, "I lost the ring you gave me."), "I lost the ring that you gave me.");
        assert_eq!(
            told(f, "This is the best pizza I have ever had."),
            "This is the best pizza that I have ever had."
        );
        assert_eq!(told(f, "We loved the film that you recommended."), "We loved the film you recommended.");
        for text in [
            "After the meal we went for a walk.",
            "After I fed the cat we went out for a walk.",
            "If you see the kids you should tell them.",
            "The day we met was cold.",
            "The news that we won spread fast.",
            "There was so much noise that we could not sleep.",
            "The shop we like.",
            "The hotel was the place we stayed.",
            "On the way home we stopped for chips.",
        ] {
            assert_eq!(told(f, text), text);
        }
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
