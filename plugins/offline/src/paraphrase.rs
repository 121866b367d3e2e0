//! The paraphraser: runs the rules over every sentence of a text, in an order that keeps each
//! one's context intact (contractions, phrases and word groups; then synonyms, chosen across the
//! text; then coordination and the one structural candidate `structure` picks; then
//! a last resort and the articles), and guarantees a change whenever any rule applies.

use crate::rules::substitution::{self, Choice};
use crate::rules::{
    articles, comparison, contraction, coordination, future, infinitives, manner, negation, phrasal, phrases,
    quantities,
};
use crate::sites::{Sites, Which};
use crate::structure;
use crate::tokens::{self, Piece, Token};

/// Share of the words with a safe synonym that get replaced, when the operator sets nothing.
pub const DEFAULT_SUBSTITUTION_RATE: f64 = 1.0;

#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// Share (0 to 1) of the words with a safe synonym that are replaced, the most confident
    /// first; at least one when it is above zero.
    pub substitution_rate: f64,
    /// Which of the sentence's word-order rewrites to use when several apply (0, the default,
    /// is the safest; higher numbers cycle through the others): variety on request, still
    /// deterministic.
    pub variant: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options { substitution_rate: DEFAULT_SUBSTITUTION_RATE, variant: 0 }
    }
}

fn sentences(pieces: &mut [Piece]) -> impl Iterator<Item = &mut Vec<Token>> {
    pieces.iter_mut().filter_map(|p| match p {
        Piece::Sentence(tokens) => Some(tokens),
        Piece::Gap(_) => None,
    })
}

/// How many of `n` substitutions a rate allows: at least one for any positive rate.
fn allowed(n: usize, rate: f64) -> usize {
    // NaN counts as zero.
    if rate.is_nan() || rate <= 0.0 {
        return 0;
    }
    let wanted = (n as f64 * rate.min(1.0)).ceil();
    (wanted as usize).clamp(1, n.max(1)).min(n)
}

/// Paraphrases `text`. The result is a pure function of the text and the options; it equals the
/// text only when no rewrite applies to it.
pub fn paraphrase(text: &str, options: &Options) -> String {
    paraphrase_with(text, options, &Plan::default())
}

/// Which of a text's safe synonyms a rewrite uses, beyond the share its options give.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Synonyms {
    /// The options' `substitution_rate` of them, the most confident first.
    #[default]
    Rate,
    /// Only the `k`-th most confident one (none if there are fewer): a candidate that changes one
    /// content word, a different one for each `k`.
    Only(usize),
    /// All but the `k`-th most confident one.
    AllBut(usize),
    /// Only the `k`-th most confident one, with its `j`-th replacement (from 0) from the
    /// hand-checked table ("amazing" -> "fantastic" where the first is "incredible"); none if it
    /// has no such replacement.
    Alternative(usize, usize),
}

/// How a candidate differs from the default paraphrase: which synonyms, and whether the sentence's
/// word order changes at all.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Plan {
    pub synonyms: Synonyms,
    /// Whether a word-order rewrite (`structure::candidates`) is used; the last resorts still
    /// apply to a sentence nothing else changed.
    pub reorder: bool,
    /// Whether contractions are left as the text has them (neither expanded nor made): a
    /// candidate that differs from another only there still reads as the same sentence.
    pub keep_contractions: bool,
    /// Which word groups are rewritten (`phrases` and `phrasal`: "because of" -> "due to",
    /// "almost" -> "nearly", "find out" -> "discover"), counted through the text: all for the
    /// paraphrase; none, one or all but one for a candidate that changes other words.
    pub word_groups: Which,
    /// Whether a sentence nothing else changed gets a last resort (`structure::last_resort`).
    pub last_resort: bool,
    /// Whether idioms are told in plain words ("a piece of cake" -> "very easy") rather than kept
    /// whole. The single paraphrase does so only for a text nothing else changed (its last resort
    /// of all): a sentence-embedding metric scores the plain words far from the idiom (0.46 for
    /// the lowest), so the candidates offer them, where a client's `min_scores` decides, and the
    /// single paraphrase takes them only over giving the text back unchanged.
    pub idioms: bool,
}

impl Default for Plan {
    fn default() -> Self {
        Plan {
            synonyms: Synonyms::Rate,
            reorder: true,
            keep_contractions: false,
            word_groups: Which::All,
            last_resort: true,
            idioms: false,
        }
    }
}

/// What a pass met that a plan chooses among: the safe synonyms, the word groups, each
/// sentence's word-order rewrites, and whether any contraction was made or expanded. Two plans
/// that choose the same among these give the same text, which is how `candidates` skips a plan.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Counts {
    pub synonyms: usize,
    pub word_groups: usize,
    pub orders: Vec<usize>,
    pub contractions: bool,
}

/// `paraphrase` under a `Plan`: the default plan gives exactly `paraphrase`.
pub fn paraphrase_with(text: &str, options: &Options, plan: &Plan) -> String {
    paraphrase_counted(text, options, plan).0
}

/// `paraphrase_with`, and what the pass met (`Counts`).
pub fn paraphrase_counted(text: &str, options: &Options, plan: &Plan) -> (String, Counts) {
    let mut counts = Counts::default();
    let mut pieces = tokens::split(text);
    let originals: Vec<String> = sentences(&mut pieces).map(|t| tokens::join(t)).collect();
    let expand = pieces.iter().any(|p| matches!(p, Piece::Sentence(t) if contraction::has_contraction(t)));
    let apostrophe = if text.contains('’') { '’' } else { '\'' };

    // Phrase-level rewrites come first, so that substitution sees the final words and never
    // touches the inside of a fixed phrase.
    // Contractions are expanded before the word groups ("I'm going to" is "I am going to" for
    // them) but made after them ("are going to" -> "will" -> "'ll").
    let mut groups = Sites::new(plan.word_groups);
    let mut idiomatic = false;
    for tokens in sentences(&mut pieces) {
        let mut t = std::mem::take(tokens);
        // Kept contractions are expanded all the same and put back at the end, so that the rules
        // that read "I have" see it in "I've".
        if expand {
            let before = t.len();
            t = contraction::expand_contractions(t);
            counts.contractions |= t.len() != before;
        }
        // Idioms are told in plain words, or else frozen, before anything else, so that no later
        // pass touches a word of theirs.
        if plan.idioms {
            t = phrases::idiom_meanings(t, &mut groups);
        } else {
            idiomatic |= phrases::has_idiom_meaning(&t);
        }
        phrases::protect_idioms(&mut t);
        t = phrases::phrases(t, &mut groups);
        phrases::protect_fixed_phrases(&mut t);
        t = phrasal::rewrite(t, &mut groups);
        t = quantities::rewrite(t, &mut groups);
        t = comparison::rewrite(t, &mut groups);
        t = manner::rewrite(t, &mut groups);
        t = infinitives::rewrite(t, &mut groups);
        t = future::rewrite(t, &mut groups);
        t = negation::rewrite(t, &mut groups);
        if !expand && !plan.keep_contractions {
            let before = t.len();
            t = contraction::contract(t, apostrophe);
            counts.contractions |= t.len() != before;
        }
        *tokens = t;
        phrases::protect_fixed_phrases(tokens);
    }

    // Substitution is chosen on the sentences as they stand, before anything moves.
    let mut choices: Vec<(usize, Choice)> = Vec::new();
    for (s, tokens) in sentences(&mut pieces).enumerate() {
        for i in 0..tokens.len() {
            if tokens[i].is_word() && !tokens[i].changed {
                choices.extend(substitution::synonym(tokens, i).map(|c| (s, c)));
            }
        }
    }
    counts.word_groups = groups.seen();
    counts.synonyms = choices.len();
    let keep = allowed(choices.len(), options.substitution_rate);
    choices
        .sort_by(|(sa, a), (sb, b)| b.quality.cmp(&a.quality).then(sa.cmp(sb)).then(a.index.cmp(&b.index)));
    match plan.synonyms {
        Synonyms::Rate => choices.truncate(keep),
        Synonyms::Only(k) => {
            choices = choices.into_iter().nth(k).into_iter().collect();
        }
        Synonyms::AllBut(k) => {
            if k < choices.len() {
                choices.remove(k);
            }
        }
        Synonyms::Alternative(k, j) => {
            let other = choices.into_iter().nth(k).and_then(|(s, first)| {
                let tokens = sentences(&mut pieces).nth(s)?;
                substitution::alternative(tokens, first.index, j).map(|c| (s, c))
            });
            choices = other.into_iter().collect();
        }
    }
    let mut by_sentence: Vec<Vec<Choice>> = Vec::new();
    for (s, choice) in choices {
        if by_sentence.len() <= s {
            by_sentence.resize(s + 1, Vec::new());
        }
        by_sentence[s].push(choice);
    }
    for (s, tokens) in sentences(&mut pieces).enumerate() {
        for choice in by_sentence.get(s).into_iter().flatten() {
            tokens[choice.index].text.clone_from(&choice.text);
            tokens[choice.index].changed = true;
        }
        coordination::swap_coordination(tokens);
        let candidates = if plan.reorder { structure::candidates(tokens) } else { Vec::new() };
        counts.orders.push(candidates.len());
        if !candidates.is_empty() {
            *tokens = candidates[options.variant % candidates.len()].clone();
        }
    }

    for (tokens, original) in sentences(&mut pieces).zip(&originals) {
        if plan.last_resort
            && tokens::join(tokens) == *original
            && let Some(changed) = structure::last_resort(tokens)
        {
            *tokens = changed;
        }
        if expand && plan.keep_contractions {
            *tokens = contraction::restore(std::mem::take(tokens));
        } else if expand {
            *tokens = contraction::restore_request(std::mem::take(tokens));
        }
        articles::fix_articles(tokens);
    }
    let out = join(&pieces);
    // A text that nothing else changed has its idioms told in plain words rather than come back
    // as it was: the last resort of all, so that the plain words ("cost a fortune" for "cost an
    // arm and a leg") never stand where a rewrite that keeps the idiom exists.
    if plan.last_resort && idiomatic && out.split_whitespace().eq(text.split_whitespace()) {
        return paraphrase_counted(text, options, &Plan { idioms: true, ..*plan });
    }
    (out, counts)
}

fn join(pieces: &[Piece]) -> String {
    let mut out = String::new();
    for piece in pieces {
        match piece {
            Piece::Gap(gap) => out.push_str(gap),
            Piece::Sentence(tokens) => out.push_str(&tokens::join(tokens)),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_idiom_is_told_in_plain_words_only_where_nothing_else_changes() {
        let options = Options::default();
        assert_eq!(
            paraphrase("That new phone cost an arm and a leg.", &options),
            "That new phone cost a fortune."
        );
        let kept = paraphrase("The exam was a piece of cake because I had studied a lot.", &options);
        assert!(
            kept.contains("a piece of cake")
                && kept != "The exam was a piece of cake because I had studied a lot."
        );
        let first = crate::candidates::candidates("That new phone cost an arm and a leg.", &options, 3);
        assert_eq!(first[0], "That new phone cost a fortune.");
    }

    #[test]
    fn rate_bounds() {
        assert_eq!(allowed(0, 1.0), 0);
        assert_eq!(allowed(10, 0.0), 0);
        assert_eq!(allowed(10, f64::NAN), 0);
        assert_eq!(allowed(10, 0.01), 1);
        assert_eq!(allowed(10, 0.55), 6);
        assert_eq!(allowed(10, 1.0), 10);
        assert_eq!(allowed(10, 7.0), 10);
    }
}
