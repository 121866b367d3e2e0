//! `parlance-plugin-offline`: the default paraphrase provider, which needs no network and no key.
//!
//! It paraphrases with WordNet 3.0, embedded in the component (see `data/` and
//! `tools/build_lexicon.py`; the data's licence is `data/WORDNET-LICENSE`), and hand-written rules:
//!
//! * **Synonyms** (`rules::substitution`, `register`). A content word is replaced by a common single-word
//!   synonym of its most frequent sense, put into the word's own form ("jumps" -> "leaps",
//!   "started" -> "began" or "begun" as the context needs). The part of speech comes from the
//!   word before; a hand-checked table of everyday words overrides WordNet where its synonyms
//!   change the register or the sense ("phone" stays, "quick" -> "fast"; `data/everyday.txt`,
//!   see `register`), and any other candidate must be used at least a tenth as often as the word
//!   (SemCor counts), so "dies" never becomes "perishes". The first noun of a compound ("student
//!   card") is not replaced, and before "to" and a verb a verb's replacement must take an
//!   infinitive too ("chose to stay" is never "picked to stay").
//! * **Word groups** (`rules::contraction`, `rules::phrases`, `rules::phrasal`). Contractions are
//!   expanded, or, in a text without any, made where grammatical; idioms are told in plain words
//!   among the candidates ("a piece of cake" -> "very easy", "kicked the bucket" -> "died"); wordy phrases are
//!   shortened ("in order to" -> "to"); numbers from ten before a unit are written in digits
//!   ("forty pounds" -> "£40"); phrasal verbs become one verb and back ("find out" <-> "discover",
//!   "postpone" -> "put off"); function words with a near-synonym are swapped when the next word
//!   allows ("almost" -> "nearly", "have to" -> "need to", "are going to" + verb -> "will",
//!   "nobody" -> "no one", "whether" -> "if", "arrived at the" -> "reached the", "is not
//!   possible" <-> "is impossible", "is not any" -> "is no", "much higher" <-> "far higher", "a
//!   bit late" <-> "a little late", "started crying" <-> "started to cry", "do not forget to" <->
//!   "remember to", "know if" -> "know whether", "the apps that I use" -> "the apps I use"). Each
//!   group is a site a candidate may take alone (`sites`). Expanded contractions are read as
//!   written, and a candidate that keeps the text's contractions puts back those whose words no
//!   rewrite changed.
//! * **Word order and voice** (`structure` and the rules it lists). At most one per sentence, the
//!   safest that applies: a leading or trailing because/when/if/although/since clause moves to the
//!   other end, "X, so Y" <-> "Y because X", "although X, Y" -> "X, but Y", a time or place phrase
//!   or a frequency adverb moves to the front (a fronted time phrase back to the end), a manner
//!   adverb goes after its verb, "there is" comes or goes, "please" moves, "Could you help?" <->
//!   "Would you mind helping?", the person goes after the thing, "A is warmer than B" -> "B is not
//!   as warm as A", "prefer X to Y" -> "like X better than Y", a relative clause is reduced or told
//!   with "and", "decided to" <- "made the decision to", "call you" <-> "give you a call", "take
//!   the train to work" <-> "go to work by train", "It is easy to use X" <-> "Using X is easy", a
//!   particle moves round its object, two listed objects swap, the active voice becomes passive or
//!   the passive active. Two coordinated nouns or adjectives swap.
//! * **Last resort** (`rules::tense`, `rules::phrasal`, `rules::voice`), for the single paraphrase
//!   only. A sentence nothing changed has its present perfect told as the simple past or, with no
//!   time given and no other clause, its simple past as the present perfect ("Our team scored
//!   three goals." -> "Our team has scored three goals."); failing that, the first of two past
//!   actions is told as done before the second ("The glass fell off the shelf and broke." ->
//!   "Having fallen off the shelf, the glass broke."), "have" of possession becomes "have got"
//!   ("She has got a good sense of humour."), and where a thing is becomes where it can be found
//!   ("Our office can be found on the fifth floor."). No cleft: readers took nearly every one as
//!   awkward or as adding a contrast.
//!
//! **Meaning kept, by rule** (issue 44). A time or place phrase moves only within the clause it
//! modifies (not after a second coordinated clause, a clause word, a reporting verb, an event noun
//! or a clock time it specifies); a comparative or superlative synonym only where English grades
//! it by "-er"/"-est"; a noun's "is" contracted only where the "'s" cannot read as a possessive,
//! and "she's worked" expanded as "she has"; no passive with a pronoun agent; no clause moved so
//! that a pronoun comes before its noun; idioms (`rules::phrases`, a list with its sources) told in
//! plain words or kept whole; fixed phrases ("every single", "sick of") kept whole.

//! **Never harm.** Capitalised words inside a sentence, known names ("Parlance") and a bare
//! singular noun that opens a sentence (likely a name) are never replaced; numbers, URLs, e-mail
//! addresses, code, text in other scripts, quoted text ("…", '…', `…`) are frozen; word-order
//! rewrites run only on plain sentences (words, single spaces, commas, one final mark), so they
//! never move a frozen token; the final punctuation and all whitespace between sentences are kept.
//! When nothing safe applies, for example to "xyzzy 42", the text is returned unchanged, and the
//! host marks the answer `unchanged`.
//!
//! The result is deterministic (the host caches answers). The only model is `wordnet-3.0`. Two
//! settings are read:
//!
//! * `substitution_rate` (0 to 1, default 1): the share of the words with a safe synonym that are
//!   replaced, the most confident first, and at least one when above 0. 0 turns synonyms off,
//!   leaving only the other rewrites.
//! * `variant` (a whole number, default 0): which of a sentence's word-order rewrites to use when
//!   several apply; 0 is the safest, others give another deterministic paraphrase.
//!
//! The algorithm lives in modules without SDK types, so that it tests natively; this file is the
//! glue to the `provider` world. The modules stand in layers, each importing only those below:
//!
//! 1. `tokens` (tokens, sentences, and the navigation over a sentence's tokens), `lexicon` (the
//!    embedded WordNet) and `sites` (which optional sites a pass takes), then `morph` (inflection)
//!    and `register` (the hand-checked table);
//! 2. `words`: word classes and one named list per closed class;
//! 3. `shape`: the one sentence builder (the plain shape, building, recasing);
//! 4. `syntax`: where a sentence's parts are (subject, noun phrase, another clause);
//! 5. `rules`: one file per family of rewrites, none importing another;
//! 6. `structure` (the word-order rules and the last resorts, in order) and `paraphrase` (every
//!    pass over a text, in order);
//! 7. `candidates`: several distinct rewrites of a text (the optional `candidates` export of
//!    0.1.3), `paraphrase` run again under other plans (the other word-order rewrites, none, one
//!    content word at a time or its second replacement, all synonyms but one, the word groups one
//!    at a time or as written, contractions left as written), the default paraphrase first,
//!    deterministic for a text and a count; a plan whose choices another already made is skipped.

pub mod candidates;
pub mod lexicon;
pub mod morph;
pub mod paraphrase;
pub mod register;
pub mod rules;
pub mod shape;
pub mod sites;
pub mod structure;
pub mod syntax;
pub mod tokens;
pub mod words;

use parlance_sdk::PluginError;
use parlance_sdk::candidates::{Candidate, Candidates};
use parlance_sdk::provider::{ParaphraseRequest, ParaphraseResponse, Provider, ProviderInfo};

pub use paraphrase::{DEFAULT_SUBSTITUTION_RATE, Options};

pub const NAME: &str = "Offline WordNet paraphraser";
pub const MODEL: &str = "wordnet-3.0";

/// Checks a request and paraphrases it: everything `paraphrase` does except reading settings.
pub fn respond(text: &str, model: &str, options: &Options) -> Result<String, PluginError> {
    check(text, model)?;
    Ok(paraphrase::paraphrase(text, options))
}

/// Checks a request for candidates and writes them: everything `paraphrase_candidates` does except
/// reading settings.
pub fn respond_candidates(
    text: &str,
    model: &str,
    count: u32,
    options: &Options,
) -> Result<Vec<String>, PluginError> {
    check(text, model)?;
    if count == 0 {
        return Err(PluginError::InvalidInput("a count of 0 candidates".into()));
    }
    let found = candidates::candidates(text, options, count as usize);
    // Nothing to change: the text itself, as `paraphrase` answers, and the host counts it unchanged.
    Ok(if found.is_empty() { vec![paraphrase::paraphrase(text, options)] } else { found })
}

fn check(text: &str, model: &str) -> Result<(), PluginError> {
    if model != MODEL {
        return Err(PluginError::InvalidInput(format!(
            "unknown model {model:?}: this provider supports only `{MODEL}`"
        )));
    }
    if text.trim().is_empty() {
        return Err(PluginError::InvalidInput("the text is empty".into()));
    }
    Ok(())
}

/// The operator's settings, read for every call.
fn configured_options() -> Result<Options, PluginError> {
    let rate = parlance_sdk::config::parse_or("substitution_rate", DEFAULT_SUBSTITUTION_RATE)?;
    let variant = parlance_sdk::config::parse_or("variant", 0.0)?;
    options_with_variant(rate, variant)
}

/// Validates the `substitution_rate` setting.
pub fn options_from(rate: f64) -> Result<Options, PluginError> {
    options_with_variant(rate, 0.0)
}

/// Validates the `substitution_rate` and `variant` settings.
pub fn options_with_variant(rate: f64, variant: f64) -> Result<Options, PluginError> {
    if !(variant >= 0.0 && variant.fract() == 0.0 && variant <= 1e6) {
        return Err(PluginError::Misconfigured(format!(
            "the setting `variant` must be a whole number from 0, not {variant}"
        )));
    }
    if !(0.0..=1.0).contains(&rate) {
        return Err(PluginError::Misconfigured(format!(
            "the setting `substitution_rate` must be between 0 and 1, not {rate}"
        )));
    }
    Ok(Options { substitution_rate: rate, variant: variant as usize })
}

pub struct Offline;

impl Provider for Offline {
    fn info() -> ProviderInfo {
        ProviderInfo { name: NAME.into(), default_model: MODEL.into() }
    }

    fn paraphrase(request: ParaphraseRequest) -> Result<ParaphraseResponse, PluginError> {
        let text = respond(&request.text, &request.model, &configured_options()?)?;
        Ok(ParaphraseResponse { text, model: request.model })
    }
}

impl Candidates for Offline {
    fn paraphrase_candidates(text: String, model: String, count: u32) -> Result<Vec<Candidate>, PluginError> {
        let texts = respond_candidates(&text, &model, count, &configured_options()?)?;
        Ok(texts.into_iter().map(|text| Candidate { text, model: model.clone() }).collect())
    }
}

parlance_sdk::export_provider!(Offline);
parlance_sdk::export_candidates!(Offline);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_unknown_models_and_empty_text() {
        let options = Options::default();
        match respond("Hello there.", "gpt-4", &options) {
            Err(PluginError::InvalidInput(message)) => assert!(message.contains(MODEL), "{message}"),
            other => panic!("{other:?}"),
        }
        for empty in ["", "   ", "\n\t "] {
            match respond(empty, MODEL, &options) {
                Err(PluginError::InvalidInput(message)) => assert_eq!(message, "the text is empty"),
                other => panic!("{other:?}"),
            }
        }
        assert!(respond("The cat sat on the mat.", MODEL, &options).is_ok());
    }

    #[test]
    fn validates_the_rate() {
        assert!(options_from(0.0).is_ok());
        assert!(options_from(1.0).is_ok());
        for bad in [-0.1, 1.5, f64::NAN, f64::INFINITY] {
            assert!(matches!(options_from(bad), Err(PluginError::Misconfigured(_))), "{bad}");
        }
        assert_eq!(options_with_variant(1.0, 2.0).unwrap().variant, 2);
        for bad in [-1.0, 0.5, f64::NAN] {
            assert!(matches!(options_with_variant(1.0, bad), Err(PluginError::Misconfigured(_))), "{bad}");
        }
    }
}
