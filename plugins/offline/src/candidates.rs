//! Several paraphrases of one text: the same passes as `paraphrase`, run again with the other
//! word-order rewrites of each sentence (`variant`) and with fewer synonyms (`substitution_rate`),
//! kept when they differ from the text and from every earlier one. The first is always the
//! paraphrase the operator's settings give, so one candidate is the default answer.

use crate::paraphrase::{Options, paraphrase};

/// How many word-order rewrites past the operator's `variant` are tried; a sentence rarely has more.
const VARIANTS: usize = 4;

/// The shares of the operator's `substitution_rate` tried for each variant: every synonym, half of
/// them (the most confident), none (word order and word groups alone), then the quarters between.
const RATE_SHARES: [f64; 5] = [1.0, 0.5, 0.0, 0.75, 0.25];

/// Up to `count` distinct rewrites of `text`, none equal to it (whitespace aside), in a fixed order:
/// a pure function of the text, the options and the count, and a prefix of the list for a larger
/// count.
pub fn candidates(text: &str, options: &Options, count: usize) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    let same = |a: &str, b: &str| a.split_whitespace().eq(b.split_whitespace());
    for step in 0..VARIANTS {
        for share in RATE_SHARES {
            if found.len() >= count {
                return found;
            }
            let tried = Options {
                substitution_rate: options.substitution_rate * share,
                variant: options.variant + step,
            };
            let rewrite = paraphrase(text, &tried);
            if !same(&rewrite, text) && !found.iter().any(|f| same(f, &rewrite)) {
                found.push(rewrite);
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn nothing_to_change_gives_no_candidate() {
        assert!(candidates("xyzzy 42", &Options::default(), 5).is_empty());
    }
}
