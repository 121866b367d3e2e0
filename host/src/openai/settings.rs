//! The `[openai]` section: what the OpenAI-compatible surface does beyond OpenAI's own API.

use crate::config::setting;
use crate::config::{Kind, Section, Setting};

#[derive(Clone, Debug, Default)]
pub struct OpenAiConfig {
    /// Append a completion to the dialog of the user its `user` field names, for a caller that names
    /// its client (`current-user` or an API key). Off, as OpenAI's API stores nothing.
    pub store_dialogs: bool,
}

impl Section for OpenAiConfig {
    const NAME: &'static str = "openai";
    const ABOUT: &'static str = "The OpenAI-compatible surface";

    fn settings() -> &'static [Setting<Self>] {
        static SETTINGS: &[Setting<OpenAiConfig>] = &[setting!(
            "store_dialogs",
            Kind::Bool,
            |c| c.store_dialogs,
            env = "PARLANCE_OPENAI_STORE_DIALOGS",
            "Appends each chat completion with a `user` field, from a caller that names its client, to that user's dialog"
        )];
        SETTINGS
    }
}
