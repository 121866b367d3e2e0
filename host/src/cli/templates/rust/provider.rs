//! `{{name}}`: a Parlance paraphrase provider in Rust. It reverses the order of the words and appends
//! its `suffix` setting when the operator sets one; replace `paraphrase` with a call to your upstream
//! (`parlance_sdk::http::Request`, then `parlance_sdk::upstream::check_status` and `parse_json` map its
//! failures to the right `PluginError`).

use parlance_sdk::provider::{ParaphraseRequest, ParaphraseResponse, Provider, ProviderInfo};
use parlance_sdk::{PluginError, config};

pub struct Plugin;

impl Provider for Plugin {
    fn info() -> ProviderInfo {
        ProviderInfo { name: "{{name}}".into(), default_model: config::get_or("model", "reverse") }
    }

    fn paraphrase(request: ParaphraseRequest) -> Result<ParaphraseResponse, PluginError> {
        if request.text.trim().is_empty() {
            return Err(PluginError::InvalidInput("the text is empty".into()));
        }
        let mut text = request.text.split_whitespace().rev().collect::<Vec<_>>().join(" ");
        if let Some(suffix) = config::get("suffix") {
            text = format!("{text} {suffix}");
        }
        Ok(ParaphraseResponse { text, model: request.model })
    }
}

parlance_sdk::export_provider!(Plugin);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reverses_the_words() {
        let request = ParaphraseRequest { text: "one two three".into(), model: "reverse".into() };
        assert_eq!(Plugin::paraphrase(request).unwrap().text, "three two one");
        let empty = ParaphraseRequest { text: " ".into(), model: "reverse".into() };
        assert!(Plugin::paraphrase(empty).is_err());
    }
}
