//! `parlance-plugin-offline`: the default paraphrase provider, which needs no network and no key.
//!
//! It paraphrases with WordNet 3.0, embedded in the component (see `data/` and
//! `tools/build_lexicon.py`; the data's licence is `data/WORDNET-LICENSE`):
//!
//! * **Synonyms.** A content word is replaced by a common single-word synonym from its most
//!   frequent sense, chosen offline from SemCor sense counts, and put into the word's own form
//!   ("jumps" -> "leaps", "started" -> "began" or "begun" as the context needs). Function words,
//!   numbers and capitalised words inside a sentence (likely names) are never replaced, and a word
//!   whose part of speech is unclear is left alone.
//! * **Syntax.** Contractions are expanded, or, in a text without any, contracted where that is
//!   grammatical; a few wordy phrases are shortened ("in order to" -> "to", "a lot of" ->
//!   "many"/"much"); two coordinated nouns or adjectives swap places; "the dog's owner" becomes
//!   "the owner of the dog"; a leading subordinate clause or time adverbial moves to the end, or
//!   a trailing one to the front.
//! * **Last resort.** When nothing above applies anywhere in the text, one noun becomes a more
//!   general one ("cat" -> "feline").
//!
//! The result is deterministic (the host caches answers). When no rewrite applies at all, for
//! example to "xyzzy 42", the text is returned unchanged; otherwise the answer always differs
//! from the input. Whitespace, punctuation and anything that is not English prose (URLs, code,
//! other scripts, emoji) are kept as they are.
//!
//! The only model is `wordnet-3.0`. One setting is read:
//!
//! * `substitution_rate` (0 to 1, default 1): the share of the words with a safe synonym that are
//!   replaced, the most confident first, and at least one when above 0. 0 turns synonyms off,
//!   leaving only the syntactic rewrites.
//!
//! The algorithm lives in modules without SDK types, so that it tests natively; this file is the
//! glue to the `provider` world.

pub mod lexicon;
pub mod morph;
pub mod paraphrase;
pub mod phrasal;
pub mod register;
pub mod reorder;
pub mod rewrite;
pub mod shape;
pub mod structure;
pub mod substitute;
pub mod tokens;
pub mod voice;

use parlance_sdk::PluginError;
use parlance_sdk::provider::{ParaphraseRequest, ParaphraseResponse, Provider, ProviderInfo};

pub use paraphrase::{DEFAULT_SUBSTITUTION_RATE, Options};

pub const NAME: &str = "Offline WordNet paraphraser";
pub const MODEL: &str = "wordnet-3.0";

/// Checks a request and paraphrases it: everything `paraphrase` does except reading settings.
pub fn respond(text: &str, model: &str, options: &Options) -> Result<String, PluginError> {
    if model != MODEL {
        return Err(PluginError::InvalidInput(format!(
            "unknown model {model:?}: this provider supports only `{MODEL}`"
        )));
    }
    if text.trim().is_empty() {
        return Err(PluginError::InvalidInput("the text is empty".into()));
    }
    Ok(paraphrase::paraphrase(text, options))
}

/// Validates the `substitution_rate` setting.
pub fn options_from(rate: f64) -> Result<Options, PluginError> {
    if !(0.0..=1.0).contains(&rate) {
        return Err(PluginError::Misconfigured(format!(
            "the setting `substitution_rate` must be between 0 and 1, not {rate}"
        )));
    }
    Ok(Options { substitution_rate: rate, variant: 0 })
}

pub struct Offline;

impl Provider for Offline {
    fn info() -> ProviderInfo {
        ProviderInfo { name: NAME.into(), default_model: MODEL.into() }
    }

    fn paraphrase(request: ParaphraseRequest) -> Result<ParaphraseResponse, PluginError> {
        let rate = parlance_sdk::config::parse_or("substitution_rate", DEFAULT_SUBSTITUTION_RATE)?;
        let options = options_from(rate)?;
        let text = respond(&request.text, &request.model, &options)?;
        Ok(ParaphraseResponse { text, model: request.model })
    }
}

parlance_sdk::export_provider!(Offline);

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
    }
}
