//! The model folder's JSON configuration: which files hold what, the BERT hyper-parameters, and the
//! sentence-transformers pipeline (module list, pooling, maximum sequence length) to reproduce.

use crate::error::EmbeddingsError;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use std::path::{Path, PathBuf};

pub(crate) fn read_json<T: DeserializeOwned>(path: &Path) -> Result<T, EmbeddingsError> {
    let bytes = std::fs::read(path).map_err(|e| EmbeddingsError::io(path, e))?;
    serde_json::from_slice(&bytes).map_err(|source| EmbeddingsError::Json { path: path.into(), source })
}

/// Like [`read_json`], for the files sentence-transformers treats as optional.
fn read_optional_json<T: DeserializeOwned>(path: &Path) -> Result<Option<T>, EmbeddingsError> {
    if path.exists() { read_json(path).map(Some) } else { Ok(None) }
}

/// The fields of a Hugging Face `config.json` that a BERT forward pass depends on.
#[derive(Clone, Debug, Deserialize)]
pub(crate) struct BertConfig {
    pub model_type: Option<String>,
    pub vocab_size: usize,
    pub hidden_size: usize,
    pub num_hidden_layers: usize,
    pub num_attention_heads: usize,
    pub intermediate_size: usize,
    #[serde(default = "default_hidden_act")]
    pub hidden_act: String,
    #[serde(default = "default_layer_norm_eps")]
    pub layer_norm_eps: f64,
    pub max_position_embeddings: usize,
    #[serde(default = "default_type_vocab_size")]
    pub type_vocab_size: usize,
    #[serde(default = "default_position_embedding_type")]
    pub position_embedding_type: String,
    #[serde(rename = "_name_or_path")]
    pub name_or_path: Option<String>,
}

// The defaults are those of transformers' `BertConfig`, which is what a config.json without the
// field means to Python.
fn default_hidden_act() -> String {
    "gelu".into()
}
fn default_layer_norm_eps() -> f64 {
    1e-12
}
fn default_type_vocab_size() -> usize {
    2
}
fn default_position_embedding_type() -> String {
    "absolute".into()
}

impl BertConfig {
    fn validate(&self, path: &Path) -> Result<(), EmbeddingsError> {
        if let Some(model_type) = &self.model_type
            && model_type != "bert"
        {
            return Err(EmbeddingsError::unsupported(path, "model_type", model_type, "\"bert\""));
        }
        if self.hidden_act != "gelu" {
            return Err(EmbeddingsError::unsupported(
                path,
                "hidden_act",
                &self.hidden_act,
                "\"gelu\" (the exact erf form)",
            ));
        }
        if self.position_embedding_type != "absolute" {
            return Err(EmbeddingsError::unsupported(
                path,
                "position_embedding_type",
                &self.position_embedding_type,
                "\"absolute\"",
            ));
        }
        for (field, value) in [
            ("vocab_size", self.vocab_size),
            ("hidden_size", self.hidden_size),
            ("num_hidden_layers", self.num_hidden_layers),
            ("num_attention_heads", self.num_attention_heads),
            ("intermediate_size", self.intermediate_size),
            ("max_position_embeddings", self.max_position_embeddings),
            ("type_vocab_size", self.type_vocab_size),
        ] {
            if value == 0 {
                return Err(EmbeddingsError::invalid(path, field, "must be positive"));
            }
        }
        if !self.hidden_size.is_multiple_of(self.num_attention_heads) {
            return Err(EmbeddingsError::invalid(
                path,
                "num_attention_heads",
                format!("({}) does not divide hidden_size ({})", self.num_attention_heads, self.hidden_size),
            ));
        }
        if !(self.layer_norm_eps.is_finite() && self.layer_norm_eps >= 0.0) {
            return Err(EmbeddingsError::invalid(
                path,
                "layer_norm_eps",
                "must be a finite non-negative number",
            ));
        }
        Ok(())
    }
}

#[derive(Debug, Deserialize)]
struct SentenceBertConfig {
    max_seq_length: Option<usize>,
    #[serde(default)]
    do_lower_case: bool,
}

#[derive(Debug, Deserialize)]
struct ModuleEntry {
    path: String,
    #[serde(rename = "type")]
    kind: String,
}

#[derive(Debug, Deserialize)]
struct PoolingConfig {
    #[serde(default)]
    pooling_mode_cls_token: bool,
    #[serde(default)]
    pooling_mode_mean_tokens: bool,
    #[serde(default)]
    pooling_mode_max_tokens: bool,
    #[serde(default)]
    pooling_mode_mean_sqrt_len_tokens: bool,
    #[serde(default)]
    pooling_mode_weightedmean_tokens: bool,
    #[serde(default)]
    pooling_mode_lasttoken: bool,
    word_embedding_dimension: Option<usize>,
}

#[derive(Debug, Deserialize)]
struct TokenizerConfig {
    model_max_length: Option<f64>,
}

/// Everything [`crate::SentenceEncoder::load`] learns from the JSON files of a model folder.
#[derive(Debug)]
pub(crate) struct ModelConfig {
    /// The folder holding config.json, tokenizer.json and model.safetensors (the Transformer
    /// module's folder, which is the model folder itself for current sentence-transformers models).
    pub transformer_dir: PathBuf,
    pub bert: BertConfig,
    /// Longest token sequence fed to BERT, `[CLS]` and `[SEP]` included.
    pub max_seq_length: usize,
    /// sentence-transformers' own `do_lower_case`: the tokenizer must lowercase.
    pub do_lower_case: bool,
}

const TRANSFORMER_MODULE: &str = "sentence_transformers.models.Transformer";
const POOLING_MODULE: &str = "sentence_transformers.models.Pooling";
const NORMALIZE_MODULE: &str = "sentence_transformers.models.Normalize";

impl ModelConfig {
    pub fn load(dir: &Path) -> Result<Self, EmbeddingsError> {
        if !dir.is_dir() {
            return Err(EmbeddingsError::MissingFile { path: dir.into() });
        }
        let (transformer_dir, pooling_dim) = Self::check_modules(dir)?;

        let config_path = transformer_dir.join("config.json");
        let bert: BertConfig = read_json(&config_path)?;
        bert.validate(&config_path)?;
        if let Some((pooling_path, dim)) = pooling_dim
            && dim != bert.hidden_size
        {
            return Err(EmbeddingsError::invalid(
                pooling_path,
                "word_embedding_dimension",
                format!(
                    "({dim}) differs from hidden_size ({}) in {}",
                    bert.hidden_size,
                    config_path.display()
                ),
            ));
        }

        // sentence-transformers keeps sentence_bert_config.json beside the Transformer module's files.
        let sbert_path = transformer_dir.join("sentence_bert_config.json");
        let sbert: Option<SentenceBertConfig> = read_optional_json(&sbert_path)?;
        let do_lower_case = sbert.as_ref().is_some_and(|s| s.do_lower_case);
        let max_seq_length = match sbert.and_then(|s| s.max_seq_length) {
            Some(0) => {
                return Err(EmbeddingsError::invalid(&sbert_path, "max_seq_length", "must be positive"));
            }
            Some(len) if len > bert.max_position_embeddings => {
                return Err(EmbeddingsError::invalid(
                    &sbert_path,
                    "max_seq_length",
                    format!(
                        "({len}) exceeds max_position_embeddings ({}) in config.json",
                        bert.max_position_embeddings
                    ),
                ));
            }
            Some(len) => len,
            // Without it, sentence-transformers takes the tokenizer's model_max_length capped at the
            // position table's size.
            None => {
                let tc: Option<TokenizerConfig> =
                    read_optional_json(&transformer_dir.join("tokenizer_config.json"))?;
                let from_tokenizer = tc.and_then(|tc| tc.model_max_length).filter(|&n| n >= 1.0);
                match from_tokenizer {
                    Some(n) if n < bert.max_position_embeddings as f64 => n as usize,
                    _ => bert.max_position_embeddings,
                }
            }
        };
        Ok(Self { transformer_dir, bert, max_seq_length, do_lower_case })
    }

    /// Checks that modules.json (if any) describes Transformer → mean Pooling (→ Normalize), the
    /// pipeline this crate implements. Returns the Transformer module's folder and the pooling
    /// config's declared width, to be checked against config.json.
    fn check_modules(dir: &Path) -> Result<(PathBuf, Option<(PathBuf, usize)>), EmbeddingsError> {
        let modules_path = dir.join("modules.json");
        let Some(modules) = read_optional_json::<Vec<ModuleEntry>>(&modules_path)? else {
            // A bare Hugging Face model: sentence-transformers wraps it in mean pooling, as we do.
            return Ok((dir.to_path_buf(), None));
        };
        let kinds: Vec<&str> = modules.iter().map(|m| m.kind.as_str()).collect();
        let (transformer, pooling) = match kinds.as_slice() {
            [TRANSFORMER_MODULE, POOLING_MODULE] | [TRANSFORMER_MODULE, POOLING_MODULE, NORMALIZE_MODULE] => {
                (&modules[0], &modules[1])
            }
            _ => {
                return Err(EmbeddingsError::unsupported(
                    &modules_path,
                    "type",
                    format!("{kinds:?}"),
                    "Transformer, Pooling and optionally Normalize, in that order",
                ));
            }
        };
        let transformer_dir = dir.join(&transformer.path);
        let pooling_path = dir.join(&pooling.path).join("config.json");
        let pooling: PoolingConfig = read_json(&pooling_path)?;
        let modes = [
            ("pooling_mode_cls_token", pooling.pooling_mode_cls_token),
            ("pooling_mode_max_tokens", pooling.pooling_mode_max_tokens),
            ("pooling_mode_mean_sqrt_len_tokens", pooling.pooling_mode_mean_sqrt_len_tokens),
            ("pooling_mode_weightedmean_tokens", pooling.pooling_mode_weightedmean_tokens),
            ("pooling_mode_lasttoken", pooling.pooling_mode_lasttoken),
        ];
        if let Some((field, _)) = modes.iter().find(|(_, on)| *on) {
            return Err(EmbeddingsError::unsupported(&pooling_path, *field, true, "mean pooling only"));
        }
        if !pooling.pooling_mode_mean_tokens {
            return Err(EmbeddingsError::unsupported(
                &pooling_path,
                "pooling_mode_mean_tokens",
                false,
                "mean pooling only",
            ));
        }
        Ok((transformer_dir, pooling.word_embedding_dimension.map(|dim| (pooling_path, dim))))
    }
}
