//! What the phrase pass and its finders share: what a phrase needs after it (`After`,
//! `pause_after`), the type of a finder (`Finder`), and the quantifier a plural noun takes for
//! "a lot of" (`quantifier_for`).

use crate::lexicon::Pos;
use crate::morph::{self, Form};
use crate::tokens::{Kind, Token, is_sentence_start};

/// What a phrase rewrite needs after the phrase.
#[derive(Clone, Copy)]
pub(super) enum After {
    Anything,
    /// A word (the phrase needs a complement: "in order to" + verb).
    Word,
    /// A comma or the end of the sentence ("at the moment.").
    Pause,
    /// A pause or "and" ("fell over and hurt my wrist"), never an object ("fell over the cable").
    PauseOrAnd,
    /// Opening the sentence, a comma after it ("On the whole, ..."): a sentence adverb there,
    /// where in the clause it may be a noun's ("people in general").
    Opening,
}

/// Whether the phrase from `i` to `last` opens the sentence and a comma follows it.
pub(super) fn opening(tokens: &[Token], i: usize, last: usize) -> bool {
    is_sentence_start(tokens, i)
        && tokens.get(last + 1).is_some_and(|t| t.kind == Kind::Punct && t.text == ",")
}

/// A phrase found by a function, which gives its length in tokens and its words.
pub(super) type Finder = fn(&[Token], usize) -> Option<(usize, Vec<String>)>;

pub(super) fn pause_after(tokens: &[Token], last: usize) -> bool {
    match tokens.get(last + 1) {
        None => true,
        Some(t) => t.kind == Kind::Punct && [",", ".", "!", "?", ";"].contains(&t.text.as_str()),
    }
}

/// "many" for "a lot of" + a plural noun. Not "much" for a singular one: in a statement "much
/// homework" reads stiffly ("She has much money"), so "a lot of" stays there.
pub(super) fn quantifier_for(noun: &str) -> Option<&'static str> {
    if ["people", "children", "men", "women"].contains(&noun) {
        return Some("many");
    }
    let analyses = morph::analyse(noun);
    let total: f64 = analyses.iter().map(|a| f64::from(a.weight) + 0.5).sum();
    let share = |form: Form| {
        analyses
            .iter()
            .filter(|a| a.pos == Pos::Noun && a.form == form)
            .map(|a| f64::from(a.weight) + 0.5)
            .sum::<f64>()
            / total
    };
    if analyses.is_empty() {
        None
    } else if share(Form::Plural) >= 0.75 {
        Some("many")
    } else {
        None
    }
}

/// A finder run over a whole text, each site it finds told its way: the tests' view of one finder.
#[cfg(test)]
pub(super) fn told(find: Finder, text: &str) -> String {
    let tokens = crate::tokens::tokenize(text);
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        if tokens[i].is_word()
            && let Some((len, words)) = find(&tokens, i)
        {
            out.push(words.join(" "));
            i += len;
            continue;
        }
        out.push(tokens[i].text.clone());
        i += 1;
    }
    out.concat()
}
