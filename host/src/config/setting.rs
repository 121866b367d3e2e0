//! Settings declared once. A section (`[chat]`, `[cache]`, …) lists its settings as [`Setting`]s: the
//! TOML key, the environment variable, the kind with its bounds, the documentation, and where the value
//! lives in the section's struct. The file layer, the environment layer (with `.env`), the error
//! messages and the manual's settings page are all read off that one list, so they cannot
//! disagree.

use super::kind::Kind;
use super::value::Value;
use std::path::PathBuf;
use toml::de::DeValue;

/// Where a value came from, for expanding paths.
#[derive(Clone, Copy, Debug)]
pub enum Layer<'a> {
    /// The file; relative [`Kind::FilePath`]s are relative to its folder.
    File(&'a std::path::Path),
    Env,
}

/// One setting of a section whose values live in a `C`.
pub struct Setting<C: 'static> {
    /// The key in the section's table.
    pub key: &'static str,
    /// The environment variable that overrides it, if any.
    pub env: Option<&'static str>,
    pub kind: Kind,
    /// What it does, for the manual's settings page.
    pub doc: &'static str,
    /// The value, for showing defaults.
    pub get: fn(&C) -> Value,
    /// Stores a checked value; `Err` when it does not fit the field.
    pub set: fn(&mut C, Value) -> Result<(), String>,
}

impl<C> Setting<C> {
    /// Reads, checks and stores a value of the file: `Err` is the problem, without its location.
    pub fn apply_toml(
        &self,
        c: &mut C,
        value: &DeValue<'_>,
        layer: Layer<'_>,
        home: Option<&str>,
    ) -> Result<(), String> {
        let value = self.kind.read_toml(value).and_then(|v| self.kind.check(v));
        self.store(c, value, layer, home)
    }

    /// Reads, checks and stores the text of an environment variable.
    pub fn apply_env(&self, c: &mut C, raw: &str, home: Option<&str>) -> Result<(), String> {
        let value = self.kind.read_env(raw).and_then(|v| self.kind.check(v));
        self.store(c, value, Layer::Env, home)
    }

    fn store(
        &self,
        c: &mut C,
        value: Result<Value, String>,
        layer: Layer<'_>,
        home: Option<&str>,
    ) -> Result<(), String> {
        let value = value.map_err(|found| format!("expected {}, found {found}", self.kind.expected()))?;
        let value = match (self.kind, value) {
            (Kind::Path | Kind::FilePath, Value::Text(t)) if !t.is_empty() => {
                let mut path = expand_home(&t, home);
                if let (Kind::FilePath, Layer::File(file)) = (self.kind, layer)
                    && path.is_relative()
                {
                    path = file.parent().map(|d| d.join(&path)).unwrap_or(path);
                }
                Value::Text(path.display().to_string())
            }
            (_, value) => value,
        };
        (self.set)(c, value)
    }
}

/// Expands a leading `~/` to `home`.
pub fn expand_home(path: &str, home: Option<&str>) -> PathBuf {
    match (path.strip_prefix("~/"), home) {
        (Some(rest), Some(home)) => PathBuf::from(home).join(rest),
        _ => PathBuf::from(path),
    }
}

/// A table of the configuration, owned by the module it configures.
pub trait Section: Default + 'static {
    /// The table's name in `parlance.toml`.
    const NAME: &'static str;
    /// What the table configures, for the documentation.
    const ABOUT: &'static str;
    /// Its settings.
    fn settings() -> &'static [Setting<Self>];
    /// Keys of nested tables the section reads itself (see [`Section::read_tables`]).
    const TABLES: &'static [&'static str] = &[];
    /// The table that held this section's keys before it had its own: a key still found there is
    /// read (below this table) and reported as deprecated.
    const FORMERLY_IN: Option<&'static str> = None;
    /// Reads the nested tables listed in [`Section::TABLES`].
    fn read_tables(&mut self, _table: &super::file::Table<'_, '_>, _reader: &mut super::file::Reader<'_>) {}
    /// Checks that hold between the section's settings, after every layer; problems are pushed.
    fn validate(&self, _problems: &mut Vec<String>) {}
}

/// Declares one [`Setting`] of a field of the section struct `c`:
///
/// ```ignore
/// setting!("max_pairs", Kind::Int { min: 1, max: 10_000_000 }, |c| c.max_pairs,
///          "Most pairs in one `POST /evaluate/batch`")
/// setting!("database_file", Kind::Path, |c| c.database_file, env = "DATABASE_FILE",
///          "The SQLite dialog store")
/// ```
macro_rules! setting {
    ($key:literal, $kind:expr, |$c:ident| $field:expr, env = $env:literal, $doc:literal) => {
        $crate::config::setting!(@make $key, Some($env), $kind, |$c| $field, $doc)
    };
    ($key:literal, $kind:expr, |$c:ident| $field:expr, $doc:literal) => {
        $crate::config::setting!(@make $key, None, $kind, |$c| $field, $doc)
    };
    (@make $key:literal, $env:expr, $kind:expr, |$c:ident| $field:expr, $doc:literal) => {
        $crate::config::Setting {
            key: $key,
            env: $env,
            kind: $kind,
            doc: $doc,
            get: |$c| $crate::config::ToValue::to_value(&$field),
            set: |$c, value| {
                $field = $crate::config::FromValue::from_value(value)?;
                Ok(())
            },
        }
    };
}
pub(crate) use setting;

/// One row of the documentation of a setting.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// `section.key`.
    pub key: String,
    pub env: Option<String>,
    pub expected: String,
    pub default: String,
    pub doc: String,
}

/// The documentation rows of a section, with the defaults its `Default` gives.
pub fn rows<C: Section>() -> Vec<Row> {
    let defaults = C::default();
    C::settings()
        .iter()
        .map(|s| Row {
            key: format!("{}.{}", C::NAME, s.key),
            env: s.env.map(str::to_owned),
            expected: s.kind.expected().into_owned(),
            default: (s.get)(&defaults).render(),
            doc: s.doc.to_owned(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Chosen;

    #[derive(Default, Debug)]
    struct Demo {
        workers: usize,
        name: String,
        level: String,
        dir: Option<PathBuf>,
    }

    impl Section for Demo {
        const NAME: &'static str = "demo";
        const ABOUT: &'static str = "a demo";
        fn settings() -> &'static [Setting<Self>] {
            static SETTINGS: &[Setting<Demo>] = &[
                setting!("workers", Kind::Int { min: 1, max: 1024 }, |c| c.workers, env = "WORKERS", "w"),
                setting!("name", Kind::Name, |c| c.name, "n"),
                setting!("level", Kind::Choice(&["INFO", "DEBUG"]), |c| c.level, env = "LEVEL", "l"),
                setting!("dir", Kind::FilePath, |c| c.dir, "d"),
            ];
            SETTINGS
        }
    }

    fn toml(text: &str) -> toml::Spanned<toml::de::DeTable<'_>> {
        toml::de::DeTable::parse(text).unwrap()
    }

    #[test]
    fn file_and_environment_give_the_same_message() {
        let [workers, name, level, dir] = Demo::settings() else { panic!() };
        let mut d = Demo::default();
        let file = std::path::Path::new("/etc/p/parlance.toml");
        let doc = toml("workers = 5000\nname = \" \"\nlevel = \"debug\"\ndir = \"data\"");
        let value = |k: &str| doc.get_ref().iter().find(|(key, _)| key.get_ref() == k).unwrap().1.get_ref();
        let from_file = workers.apply_toml(&mut d, value("workers"), Layer::File(file), None).unwrap_err();
        let from_env = workers.apply_env(&mut d, "5000", None).unwrap_err();
        assert_eq!(from_file, "expected an integer from 1 to 1024, found 5000");
        assert_eq!(from_file, from_env);
        assert_eq!(
            name.apply_toml(&mut d, value("name"), Layer::File(file), None).unwrap_err(),
            "expected a non-blank string, found \" \""
        );
        level.apply_toml(&mut d, value("level"), Layer::File(file), None).unwrap();
        assert_eq!(d.level, "DEBUG");
        dir.apply_toml(&mut d, value("dir"), Layer::File(file), None).unwrap();
        assert_eq!(d.dir, Some(PathBuf::from("/etc/p/data")));
        workers.apply_env(&mut d, " 12 ", None).unwrap();
        assert_eq!(d.workers, 12);
        assert_eq!(
            workers.apply_env(&mut d, "twelve", None).unwrap_err(),
            "expected an integer from 1 to 1024, found \"twelve\""
        );
    }

    #[test]
    fn a_chosen_value_remembers_that_a_layer_set_it() {
        #[derive(Debug)]
        struct Store {
            url: Chosen<String>,
        }
        impl Default for Store {
            fn default() -> Self {
                Store { url: Chosen::default_value("redis://localhost".into()) }
            }
        }
        impl Section for Store {
            const NAME: &'static str = "store";
            const ABOUT: &'static str = "a store";
            fn settings() -> &'static [Setting<Self>] {
                static SETTINGS: &[Setting<Store>] =
                    &[setting!("url", Kind::Text, |c| c.url, env = "URL", "u")];
                SETTINGS
            }
        }
        let mut store = Store::default();
        assert!(!store.url.chosen);
        assert_eq!(rows::<Store>()[0].default, "`redis://localhost`");
        Store::settings()[0].apply_env(&mut store, "redis://localhost", None).unwrap();
        assert!(store.url.chosen, "set to its default value, it is still chosen");
        assert_eq!(*store.url, "redis://localhost");
    }

    #[test]
    fn rows_show_the_defaults() {
        let rows = rows::<Demo>();
        assert_eq!(rows[0].key, "demo.workers");
        assert_eq!(rows[0].default, "0");
        assert_eq!(rows[0].env.as_deref(), Some("WORKERS"));
        assert_eq!(rows[3].default, "none");
    }
}
