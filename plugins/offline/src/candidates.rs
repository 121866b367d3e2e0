//! Several paraphrases of one text: the same passes as `paraphrase`, run again under other plans
//! (`paraphrase::Plan`): with the other word-order rewrites of each sentence (`variant`), with no
//! word-order change, with one content word changed at a time (a different one for each
//! candidate, or its second replacement), with all synonyms but one, or with none, with the word
//! groups one at a time or as written; kept when they differ from the text and from every earlier
//! one. No last resort: the tense shifts stay the single paraphrase's, for a sentence nothing
//! else changes. The first is always the paraphrase the operator's settings give, so
//! one candidate is the default answer.

use crate::paraphrase::{Counts, Options, Plan, Synonyms, paraphrase_counted};
use crate::sites::Which;

/// A plan: how far past the operator's `variant` the word order goes (`None`: no word-order
/// change), the share of the operator's `substitution_rate`, which synonyms, and which word
/// groups.
type Step = (Option<usize>, f64, Synonyms, Which);

const ALL: Which = Which::All;
const NONE: Which = Which::None;

/// The plans in the order their rewrites are offered: the default first; then the ones that differ
/// most from it while each changes little (the synonyms without the move, the next move, the move
/// alone, one synonym at a time with and without the move), then the rest: the word groups one at
/// a time or left as written, the later content words and the second replacements. A plan that
/// gives nothing new costs one pass of the rules over the text.
const STEPS: &[Step] = &[
    (Some(0), 1.0, Synonyms::Rate, ALL),
    (None, 1.0, Synonyms::Rate, ALL),
    (Some(1), 1.0, Synonyms::Rate, ALL),
    (Some(0), 0.0, Synonyms::Rate, ALL),
    (None, 1.0, Synonyms::Only(0), ALL),
    (Some(0), 1.0, Synonyms::Only(1), ALL),
    (None, 1.0, Synonyms::Only(1), ALL),
    (Some(1), 0.0, Synonyms::Rate, ALL),
    (Some(0), 1.0, Synonyms::Only(0), ALL),
    (None, 1.0, Synonyms::Only(2), ALL),
    (Some(1), 1.0, Synonyms::Only(0), ALL),
    (None, 1.0, Synonyms::AllBut(0), ALL),
    (Some(2), 1.0, Synonyms::Rate, ALL),
    (Some(0), 1.0, Synonyms::Only(2), ALL),
    (Some(2), 0.0, Synonyms::Rate, ALL),
    (None, 1.0, Synonyms::Only(3), ALL),
    (Some(0), 1.0, Synonyms::AllBut(0), ALL),
    (Some(3), 1.0, Synonyms::Rate, ALL),
    // Word groups as written, or one at a time with nothing else changed.
    (Some(0), 1.0, Synonyms::Rate, NONE),
    (Some(0), 0.0, Synonyms::Rate, NONE),
    (None, 1.0, Synonyms::Rate, NONE),
    (None, 0.0, Synonyms::Rate, Which::Only(0)),
    (None, 1.0, Synonyms::Only(0), NONE),
    (None, 0.0, Synonyms::Rate, Which::Only(1)),
    (Some(0), 1.0, Synonyms::Only(0), NONE),
    (None, 1.0, Synonyms::Only(1), NONE),
    // The later content words one at a time, and the first ones' other replacements.
    (None, 1.0, Synonyms::Alternative(0, 1), ALL),
    (None, 1.0, Synonyms::Only(4), ALL),
    (None, 1.0, Synonyms::Alternative(1, 1), ALL),
    (Some(0), 1.0, Synonyms::Alternative(0, 1), ALL),
    (None, 1.0, Synonyms::Alternative(0, 2), ALL),
    (None, 1.0, Synonyms::Only(5), ALL),
    (None, 1.0, Synonyms::Alternative(2, 1), ALL),
    (None, 1.0, Synonyms::Alternative(1, 2), ALL),
    // The contractions alone, made or expanded.
    (None, 0.0, Synonyms::Rate, NONE),
    // The rest of the combinations of a word-order rewrite, one synonym and one word group.
    (Some(0), 0.0, Synonyms::Rate, Which::Only(0)),
    (Some(0), 0.0, Synonyms::Rate, Which::Only(1)),
    (Some(1), 1.0, Synonyms::Only(1), ALL),
    (Some(2), 1.0, Synonyms::Only(0), ALL),
    (Some(1), 1.0, Synonyms::Rate, NONE),
    (Some(1), 0.0, Synonyms::Rate, NONE),
    (None, 0.0, Synonyms::Rate, Which::Only(2)),
    (None, 1.0, Synonyms::AllBut(1), ALL),
    (Some(0), 1.0, Synonyms::AllBut(1), ALL),
    (None, 1.0, Synonyms::Only(0), Which::Only(0)),
    (Some(0), 1.0, Synonyms::Only(1), NONE),
];

/// The plans tried again with the contractions left as the text has them, when the text has a
/// contraction to make or expand: the same rewrites, told with the other style.
const KEEPING: &[Step] = &[
    (Some(0), 0.0, Synonyms::Rate, NONE),
    (None, 1.0, Synonyms::Rate, NONE),
    (Some(0), 1.0, Synonyms::Rate, ALL),
    (None, 1.0, Synonyms::Rate, ALL),
    (Some(0), 0.0, Synonyms::Rate, ALL),
    (None, 1.0, Synonyms::Only(0), ALL),
    (Some(1), 1.0, Synonyms::Rate, ALL),
    (None, 1.0, Synonyms::Only(1), ALL),
    (Some(0), 1.0, Synonyms::Only(0), ALL),
];

/// What a step chooses, read against what the text has (`Counts`): two steps with the same key
/// give the same text, so only the first is run. `None` when the step chooses a site the text
/// does not have (the fifth synonym of a text with three).
#[derive(PartialEq)]
struct Key {
    /// Which word-order rewrite (`None`: none).
    order: Option<usize>,
    /// `None`: no synonym.
    synonyms: Option<Synonyms>,
    word_groups: Which,
    keep_contractions: bool,
    /// Idioms told in plain words: every step but the first.
    idioms: bool,
}

fn key(step: Step, keep_contractions: bool, idioms: bool, options: &Options, counts: &Counts) -> Option<Key> {
    let (order, share, synonyms, word_groups) = step;
    let n = counts.synonyms;
    let synonyms = match synonyms {
        _ if n == 0 || share == 0.0 || options.substitution_rate <= 0.0 => None,
        Synonyms::Only(k) | Synonyms::Alternative(k, _) if k >= n => return None,
        Synonyms::AllBut(k) if k >= n => Some(Synonyms::Rate),
        other => Some(other),
    };
    let g = counts.word_groups;
    // A group left as written can uncover another inside it ("every day" -> "daily", or else
    // "every" -> "each"), so only a text with no group at all makes every choice the same.
    let word_groups = if g == 0 { Which::All } else { word_groups };
    // The word-order rewrites depend on the words the other choices leave ("every day" is a time
    // phrase to move, "daily" is not), so a step's order is kept as it is, but a variant past the
    // rewrites every sentence has comes round to one already tried.
    let most = counts.orders.iter().copied().max().unwrap_or(0);
    let order = match order {
        Some(v) if most > 0 && counts.orders.iter().all(|&len| len == most) => {
            Some((options.variant + v) % most)
        }
        other => other,
    };
    let keep_contractions = keep_contractions && counts.contractions;
    Some(Key { order, synonyms, word_groups, keep_contractions, idioms })
}

/// Up to `count` distinct rewrites of `text`, none equal to it (whitespace aside), in a fixed order:
/// a pure function of the text, the options and the count, and a prefix of the list for a larger
/// count. A step whose choices another step already made (`Key`) is not run again: most texts have
/// few sites, and most steps would only repeat a rewrite.
pub fn candidates(text: &str, options: &Options, count: usize) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    let same = |a: &str, b: &str| a.split_whitespace().eq(b.split_whitespace());
    let steps = STEPS.iter().map(|&s| (s, false)).chain(KEEPING.iter().map(|&s| (s, true)));
    let mut counts: Option<Counts> = None;
    let mut tried: Vec<Key> = Vec::new();
    for (step, keep_contractions) in steps {
        if found.len() >= count {
            break;
        }
        if let Some(counts) = &counts {
            let Some(key) = key(step, keep_contractions, true, options, counts) else { continue };
            if tried.contains(&key) {
                continue;
            }
            tried.push(key);
        }
        let (order, share, synonyms, word_groups) = step;
        let step_options = Options {
            substitution_rate: options.substitution_rate * share,
            variant: options.variant + order.unwrap_or(0),
        };
        // Only the paraphrase itself falls back on a last resort ("Having fallen…", "can be
        // found"): as one of several candidates such a rewrite only adds a reading that is off.
        let plan = Plan {
            synonyms,
            reorder: order.is_some(),
            keep_contractions,
            word_groups,
            last_resort: counts.is_none(),
            idioms: counts.is_some(),
        };
        let (rewrite, met) = paraphrase_counted(text, &step_options, &plan);
        if counts.is_none() {
            tried.extend(key(step, keep_contractions, false, options, &met));
            counts = Some(met);
        }
        if !same(&rewrite, text) && !found.iter().any(|f| same(f, &rewrite)) {
            found.push(rewrite);
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::paraphrase::paraphrase;

    #[test]
    fn the_first_candidate_is_the_paraphrase_and_larger_counts_extend_the_list() {
        let text = "The old man quickly walked to the small shop because he needed some bread.";
        let options = Options::default();
        let five = candidates(text, &options, 5);
        assert_eq!(five[0], paraphrase(text, &options));
        assert!(five.len() >= 2, "{five:?}");
        assert_eq!(candidates(text, &options, 2), five[..2].to_vec());
        assert_eq!(candidates(text, &options, 5), five, "deterministic");
        for (i, a) in five.iter().enumerate() {
            assert_ne!(a.split_whitespace().collect::<Vec<_>>(), text.split_whitespace().collect::<Vec<_>>());
            assert!(five[i + 1..].iter().all(|b| a != b), "{five:?}");
        }
    }

    #[test]
    fn candidates_change_different_words() {
        let text = "The old man walked to the small shop.";
        let found = candidates(text, &Options::default(), 8);
        assert!(found.len() >= 3, "{found:?}");
        // Some candidates change one content word each, a different one.
        let changed =
            |c: &String| c.split_whitespace().zip(text.split_whitespace()).filter(|(a, b)| a != b).count();
        assert!(found.iter().filter(|c| changed(c) == 1).count() >= 2, "{found:?}");
        // A sentence no rule changes safely gets no candidate: the last resorts are the single
        // paraphrase's alone.
        assert!(candidates("The soup was too salty.", &Options::default(), 8).is_empty());
    }

    #[test]
    fn nothing_to_change_gives_no_candidate() {
        assert!(candidates("xyzzy 42", &Options::default(), 5).is_empty());
    }
}
