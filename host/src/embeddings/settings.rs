//! The `[embeddings]` section: the backend of the host's `embeddings` capability, a model folder for
//! the native encoder or an OpenAI-compatible endpoint.

use crate::config::setting;
use crate::config::{Env, Kind, Reader, SecretSource, Section, Setting, Table, read_table};
use std::path::PathBuf;

/// The backend of the host's `embeddings` capability, once chosen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BackendChoice {
    /// A sentence-transformers model folder (`model.safetensors`, `tokenizer.json`, `config.json`).
    Native { model_dir: PathBuf },
    /// An OpenAI-compatible endpoint; `url` is the base URL (`…/v1`).
    OpenAi { url: String, model: String, api_key: Option<String>, dimensions: Option<u32> },
}

/// `[embeddings]` as written: either `model_dir`, or `url` with `model`.
#[derive(Clone, Debug, Default)]
pub struct EmbeddingsConfig {
    pub model_dir: Option<PathBuf>,
    pub url: Option<String>,
    pub model: Option<String>,
    pub api_key: Option<SecretSource>,
    pub dimensions: Option<u32>,
}

impl Section for EmbeddingsConfig {
    const NAME: &'static str = "embeddings";
    const ABOUT: &'static str = "The embedding backend of the semantic metric";
    const TABLES: &'static [&'static str] = &["api_key"];

    fn settings() -> &'static [Setting<Self>] {
        static SETTINGS: &[Setting<EmbeddingsConfig>] = &[
            setting!(
                "model_dir",
                Kind::FilePath,
                |c| c.model_dir,
                env = "PARLANCE_EMBEDDINGS_MODEL_DIR",
                "A sentence-transformers model folder for the native encoder (relative to the file)"
            ),
            setting!(
                "url",
                Kind::Url(&["http", "https"]),
                |c| c.url,
                "An OpenAI-compatible embeddings API's base URL (`…/v1`), instead of `model_dir`"
            ),
            setting!("model", Kind::Name, |c| c.model, "The model to ask `url` for"),
            setting!(
                "dimensions",
                Kind::Int { min: 1, max: 1 << 20 },
                |c| c.dimensions,
                "The embedding size to ask `url` for"
            ),
        ];
        SETTINGS
    }

    /// `api_key = { env, file }`: where the endpoint's key comes from.
    fn read_tables(&mut self, table: &Table<'_, '_>, reader: &mut Reader<'_>) {
        if let Some(key) = table.table(reader, "api_key") {
            self.api_key = Some(read_table(&key, reader, None));
        }
    }

    fn validate(&self, problems: &mut Vec<String>) {
        if self.model_dir.is_some() && self.url.is_some() {
            problems.push("set either `model_dir` or `url`, not both".into());
        }
        if self.url.is_some() && self.model.is_none() {
            problems.push("an embeddings `url` needs a `model`".into());
        }
    }
}

impl EmbeddingsConfig {
    /// The backend this section chooses, with its key read; `None` when none is configured.
    pub fn resolve(&self, env: &Env) -> Option<BackendChoice> {
        if let Some(model_dir) = &self.model_dir {
            return Some(BackendChoice::Native { model_dir: model_dir.clone() });
        }
        let url = self.url.as_ref()?;
        Some(BackendChoice::OpenAi {
            url: url.clone(),
            model: self.model.clone().unwrap_or_default(),
            api_key: self.api_key.as_ref().and_then(|s| s.resolve(env)),
            dimensions: self.dimensions,
        })
    }
}
