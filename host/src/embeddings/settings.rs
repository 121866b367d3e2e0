//! The `[embeddings]` section: the backend of the host's `embeddings` capability, a model folder for
//! the native encoder or an OpenAI-compatible endpoint.

use crate::config::setting;
use crate::config::{Env, Kind, Reader, SecretSource, Section, Setting, Table, read_table};
use std::path::{Path, PathBuf};

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
                "A sentence-transformers model folder for the native encoder (relative to the file); unset, and \
                 without `url`, the one scripts/fetch-model.sh installed: models/all-MiniLM-L6-v2 under the \
                 working directory, else $XDG_DATA_HOME/parlance/models/all-MiniLM-L6-v2, if either holds one"
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

/// Where `scripts/fetch-model.sh` installs the model, under the repository: the folder a server started
/// there finds without configuration, as it finds `parlance.toml` and `.env`.
const DEFAULT_MODEL_DIR: &str = "models/all-MiniLM-L6-v2";

/// The same folder under the user's data directory, for a binary installed away from the repository.
const DATA_MODEL_DIR: &str = "parlance/models/all-MiniLM-L6-v2";

/// How to get an embedding backend, for every message that says there is none.
pub const HOW_TO_GET_ONE: &str = "run scripts/fetch-model.sh, which installs all-MiniLM-L6-v2 in \
     models/all-MiniLM-L6-v2, where a server started in the repository finds it (an installed server also \
     looks in $XDG_DATA_HOME/parlance/models/all-MiniLM-L6-v2, by default under ~/.local/share), or set \
     [embeddings] model_dir (PARLANCE_EMBEDDINGS_MODEL_DIR) or url";

impl EmbeddingsConfig {
    /// The backend this section chooses, with its key read: `model_dir` (the environment's over the
    /// file's), else `url`, else the model `scripts/fetch-model.sh` installed, found in
    /// [`default_model_dirs`]; `None` when there is none.
    pub fn resolve(&self, env: &Env) -> Option<BackendChoice> {
        self.resolve_in(env, std::env::current_dir().ok().as_deref())
    }

    fn resolve_in(&self, env: &Env, working_dir: Option<&Path>) -> Option<BackendChoice> {
        if let Some(model_dir) = &self.model_dir {
            return Some(BackendChoice::Native { model_dir: model_dir.clone() });
        }
        let Some(url) = self.url.as_ref() else {
            let found = default_model_dirs(env, working_dir)
                .into_iter()
                .find(|d| d.join("model.safetensors").is_file());
            return found.map(|model_dir| BackendChoice::Native { model_dir });
        };
        Some(BackendChoice::OpenAi {
            url: url.clone(),
            model: self.model.clone().unwrap_or_default(),
            api_key: self.api_key.as_ref().and_then(|s| s.resolve(env)),
            dimensions: self.dimensions,
        })
    }
}

/// Where the native encoder's model is looked for when `[embeddings]` names no backend, in order:
/// [`DEFAULT_MODEL_DIR`] under the working directory, then `parlance/models/all-MiniLM-L6-v2` under
/// `$XDG_DATA_HOME` (by default `~/.local/share`), the place a package or an operator installs it
/// with `scripts/fetch-model.sh DESTINATION`. A folder counts once it holds `model.safetensors`; the
/// script moves only a complete folder into place.
fn default_model_dirs(env: &Env, working_dir: Option<&Path>) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = working_dir.map(|d| d.join(DEFAULT_MODEL_DIR)).into_iter().collect();
    let data_home = match env.get("XDG_DATA_HOME").filter(|d| Path::new(d).is_absolute()) {
        Some(data) => Some(PathBuf::from(data)),
        None => env.home().map(|home| Path::new(home).join(".local/share")),
    };
    dirs.extend(data_home.map(|d| d.join(DATA_MODEL_DIR)));
    dirs
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model_at(dir: &Path) -> PathBuf {
        std::fs::create_dir_all(dir).unwrap();
        std::fs::write(dir.join("model.safetensors"), b"weights").unwrap();
        dir.to_path_buf()
    }

    fn native(dir: &Path) -> Option<BackendChoice> {
        Some(BackendChoice::Native { model_dir: dir.to_path_buf() })
    }

    /// The model `scripts/fetch-model.sh` installed is the backend when `[embeddings]` names none:
    /// under the working directory first, then under the data directory; `model_dir` and `url` win.
    #[test]
    fn the_fetched_model_is_found_where_the_script_puts_it() {
        let root = tempfile::tempdir().unwrap();
        let (repo, home) = (root.path().join("repo"), root.path().join("home"));
        std::fs::create_dir_all(&repo).unwrap();
        let env = Env::empty().with("HOME", home.to_str().unwrap());
        let none = EmbeddingsConfig::default();
        assert_eq!(none.resolve_in(&env, Some(&repo)), None);

        let data = model_at(&home.join(".local/share/parlance/models/all-MiniLM-L6-v2"));
        assert_eq!(none.resolve_in(&env, Some(&repo)), native(&data));
        let xdg = model_at(&root.path().join("xdg/parlance/models/all-MiniLM-L6-v2"));
        let with_xdg = env.clone().with("XDG_DATA_HOME", root.path().join("xdg").to_str().unwrap());
        assert_eq!(none.resolve_in(&with_xdg, Some(&repo)), native(&xdg));

        let fetched = model_at(&repo.join(DEFAULT_MODEL_DIR));
        assert_eq!(none.resolve_in(&env, Some(&repo)), native(&fetched));

        let chosen = EmbeddingsConfig { model_dir: Some("/elsewhere".into()), ..Default::default() };
        assert_eq!(chosen.resolve_in(&env, Some(&repo)), native(Path::new("/elsewhere")));
        let remote = EmbeddingsConfig {
            url: Some("http://127.0.0.1:9/v1".into()),
            model: Some("m".into()),
            ..Default::default()
        };
        assert!(matches!(remote.resolve_in(&env, Some(&repo)), Some(BackendChoice::OpenAi { .. })));
    }

    /// A folder without the weights (an empty `models/`, say) is not a backend.
    #[test]
    fn a_folder_without_the_weights_is_passed_over() {
        let root = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(root.path().join(DEFAULT_MODEL_DIR)).unwrap();
        let env = Env::empty().with("HOME", "/nonexistent-home");
        assert_eq!(EmbeddingsConfig::default().resolve_in(&env, Some(root.path())), None);
    }
}
