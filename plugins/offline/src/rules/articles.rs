//! "a" or "an" before a word a rule changed, matched to the new word's first sound; it runs last,
//! after every rule that can change the word after an article.

use crate::tokens::{Kind, Token};

/// "a"/"an" before a word that a rewrite changed, matched to its sound.
pub fn fix_articles(tokens: &mut [Token]) {
    for i in 2..tokens.len() {
        if !tokens[i].changed || !tokens[i].is_word() || !tokens[i - 1].is(Kind::Space, " ") {
            continue;
        }
        let article = tokens[i - 2].text.as_str();
        if !["a", "an", "A", "An"].contains(&article) {
            continue;
        }
        let an = takes_an(&tokens[i].text.to_lowercase());
        let fixed = match (article, an) {
            ("a" | "an", true) => "an",
            ("a" | "an", false) => "a",
            (_, true) => "An",
            (_, false) => "A",
        };
        if fixed != article {
            tokens[i - 2].text = fixed.to_owned();
            tokens[i - 2].changed = true;
        }
    }
}

/// Whether a word is said with a vowel sound first (spelling rules with the usual exceptions).
fn takes_an(word: &str) -> bool {
    const CONSONANT_SOUND: &[&str] =
        &["uni", "use", "usu", "uti", "ure", "uro", "eu", "ewe", "one", "once", "ubi", "uku", "ufo", "uga"];
    const VOWEL_SOUND: &[&str] = &["hour", "honest", "honor", "honour", "heir"];
    if VOWEL_SOUND.iter().any(|p| word.starts_with(p)) {
        return true;
    }
    if CONSONANT_SOUND.iter().any(|p| word.starts_with(p)) {
        return false;
    }
    word.starts_with(['a', 'e', 'i', 'o', 'u'])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokens::{join, tokenize};

    #[test]
    fn articles_follow_the_new_word() {
        let mut t = tokenize("a apple and an dog and a car");
        for k in [2, 8] {
            t[k].changed = true;
        }
        fix_articles(&mut t);
        assert_eq!(join(&t), "an apple and a dog and a car");
        assert!(takes_an("hour") && takes_an("idea") && !takes_an("unit") && !takes_an("car"));
    }
}
