//! Settings declared once. A section (`[chat]`, `[cache]`, …) lists its settings as [`Setting`]s: the
//! TOML key, the environment variable, the kind with its bounds, the documentation, and where the value
//! lives in the section's struct. The file layer, the environment layer (with `.env`), the error
//! messages and the README's configuration table are all read off that one list, so they cannot
//! disagree.

use std::borrow::Cow;
use std::net::IpAddr;
use std::path::PathBuf;
use toml::de::DeValue;

/// A setting's value between a layer and the section's struct.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Int(i64),
    Float(f64),
    Bool(bool),
    Text(String),
    List(Vec<String>),
    /// No value: an optional setting that is not set.
    Unset,
}

impl Value {
    /// The value as the documentation shows a default.
    pub fn render(&self) -> String {
        match self {
            Value::Int(i) => i.to_string(),
            Value::Float(f) => f.to_string(),
            Value::Bool(b) => b.to_string(),
            Value::Text(t) if t.is_empty() => "empty".into(),
            Value::Text(t) => format!("`{t}`"),
            Value::List(items) if items.is_empty() => "empty".into(),
            Value::List(items) => format!("`{}`", items.join(",")),
            Value::Unset => "none".into(),
        }
    }
}

/// What a setting holds, with its bounds. Every layer checks a value against its kind the same way.
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    /// A whole number within `min..=max`.
    Int {
        min: i64,
        max: i64,
    },
    /// A finite number within `min..=max`.
    Float {
        min: f64,
        max: f64,
    },
    Bool,
    /// Any text.
    Text,
    /// Text that is not blank.
    Name,
    /// One of these words, matched without regard to case and stored as written here.
    Choice(&'static [&'static str]),
    /// A list of strings; comma-separated in the environment.
    List,
    /// A path; a leading `~/` is the home directory. Relative paths stay relative to the working
    /// directory.
    Path,
    /// A path like [`Kind::Path`], but a relative one in the file is relative to the file's folder.
    FilePath,
    /// An IP address.
    Ip,
    /// A URL with one of these schemes.
    Url(&'static [&'static str]),
}

impl Kind {
    /// What the kind expects, as error messages and the documentation say it.
    pub fn expected(&self) -> Cow<'static, str> {
        match self {
            Kind::Int { min, max } => format!("an integer from {min} to {max}").into(),
            Kind::Float { min, max } => format!("a number from {min} to {max}").into(),
            Kind::Bool => "true or false".into(),
            Kind::Text => "a string".into(),
            Kind::Name => "a non-blank string".into(),
            Kind::Choice(words) => {
                let quoted: Vec<String> = words.iter().map(|w| format!("\"{w}\"")).collect();
                format!("one of {}", quoted.join(", ")).into()
            }
            Kind::List => "a list of strings".into(),
            Kind::Path | Kind::FilePath => "a path".into(),
            Kind::Ip => "an IP address".into(),
            Kind::Url(schemes) => {
                let schemes: Vec<String> = schemes.iter().map(|s| format!("{s}://")).collect();
                format!("a URL ({})", schemes.join(", ")).into()
            }
        }
    }

    /// Reads a value of the file. `Err` holds how the found value is shown.
    fn read_toml(&self, value: &DeValue<'_>) -> Result<Value, String> {
        let found = || show_toml(value);
        match (self, value) {
            (Kind::Int { .. }, DeValue::Integer(i)) => {
                i64::from_str_radix(i.as_str(), i.radix()).map(Value::Int).map_err(|_| found())
            }
            (Kind::Float { .. }, DeValue::Integer(i)) => i64::from_str_radix(i.as_str(), i.radix())
                .map(|n| Value::Float(n as f64))
                .map_err(|_| found()),
            (Kind::Float { .. }, DeValue::Float(f)) => {
                f.as_str().parse().map(Value::Float).map_err(|_| found())
            }
            (Kind::Bool, DeValue::Boolean(b)) => Ok(Value::Bool(*b)),
            (Kind::List, DeValue::Array(items)) => items
                .iter()
                .map(|item| match item.get_ref() {
                    DeValue::String(s) => Ok(s.to_string()),
                    other => Err(show_toml(other)),
                })
                .collect::<Result<_, _>>()
                .map(Value::List),
            (
                Kind::Text
                | Kind::Name
                | Kind::Choice(_)
                | Kind::Path
                | Kind::FilePath
                | Kind::Ip
                | Kind::Url(_),
                DeValue::String(s),
            ) => Ok(Value::Text(s.to_string())),
            _ => Err(found()),
        }
    }

    /// Reads the text of an environment variable. `Err` holds how the found value is shown.
    fn read_env(&self, raw: &str) -> Result<Value, String> {
        let text = raw.trim();
        let found = || show_text(raw);
        match self {
            Kind::Int { .. } => text.parse().map(Value::Int).map_err(|_| found()),
            Kind::Float { .. } => text.parse().map(Value::Float).map_err(|_| found()),
            Kind::Bool => match text.to_ascii_lowercase().as_str() {
                "1" | "true" | "yes" | "on" => Ok(Value::Bool(true)),
                "0" | "false" | "no" | "off" => Ok(Value::Bool(false)),
                _ => Err(found()),
            },
            Kind::List => Ok(Value::List(
                text.split(',').map(|s| s.trim().to_owned()).filter(|s| !s.is_empty()).collect(),
            )),
            Kind::Text | Kind::Name => Ok(Value::Text(raw.to_owned())),
            Kind::Choice(_) | Kind::Path | Kind::FilePath | Kind::Ip | Kind::Url(_) => {
                Ok(Value::Text(text.to_owned()))
            }
        }
    }

    /// Checks bounds, choices and formats, which are the same whichever layer the value came from.
    fn check(&self, value: Value) -> Result<Value, String> {
        match (self, value) {
            (Kind::Int { min, max }, Value::Int(n)) if (*min..=*max).contains(&n) => Ok(Value::Int(n)),
            (Kind::Int { .. }, Value::Int(n)) => Err(n.to_string()),
            (Kind::Float { min, max }, Value::Float(f)) if f.is_finite() && (*min..=*max).contains(&f) => {
                Ok(Value::Float(f))
            }
            (Kind::Float { .. }, Value::Float(f)) => Err(f.to_string()),
            (Kind::Name, Value::Text(t)) if t.trim().is_empty() => Err(show_text(&t)),
            (Kind::Choice(words), Value::Text(t)) => {
                match words.iter().find(|w| w.eq_ignore_ascii_case(&t)) {
                    Some(w) => Ok(Value::Text((*w).to_owned())),
                    None => Err(show_text(&t)),
                }
            }
            (Kind::Ip, Value::Text(t)) if t.parse::<IpAddr>().is_err() => Err(show_text(&t)),
            (Kind::Url(schemes), Value::Text(t)) => {
                let valid = t.split_once("://").is_some_and(|(scheme, rest)| {
                    schemes.iter().any(|s| s.eq_ignore_ascii_case(scheme))
                        && !rest.is_empty()
                        && !rest.starts_with('/')
                });
                if valid { Ok(Value::Text(t)) } else { Err(show_text(&t)) }
            }
            (_, value) => Ok(value),
        }
    }
}

fn show_text(text: &str) -> String {
    format!("{text:?}")
}

fn show_toml(value: &DeValue<'_>) -> String {
    match value {
        DeValue::String(s) => format!("{:?}", s.as_ref()),
        DeValue::Integer(i) => i.to_string(),
        DeValue::Float(f) => f.to_string(),
        DeValue::Boolean(b) => b.to_string(),
        DeValue::Datetime(_) => "a datetime".into(),
        DeValue::Array(_) => "an array".into(),
        DeValue::Table(_) => "a table".into(),
    }
}

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
    /// What it does, for the README's table.
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

/// Converts a field to the [`Value`] its setting shows.
pub trait ToValue {
    fn to_value(&self) -> Value;
}

/// Converts a checked [`Value`] to a field.
pub trait FromValue: Sized {
    fn from_value(value: Value) -> Result<Self, String>;
}

macro_rules! integer_values {
    ($($t:ty),*) => {$(
        impl ToValue for $t {
            fn to_value(&self) -> Value {
                Value::Int(i64::try_from(*self).unwrap_or(i64::MAX))
            }
        }
        impl FromValue for $t {
            fn from_value(value: Value) -> Result<Self, String> {
                match value {
                    Value::Int(n) => <$t>::try_from(n).map_err(|_| format!("{n} does not fit")),
                    other => Err(format!("expected an integer, found {other:?}")),
                }
            }
        }
    )*};
}
integer_values!(u16, u32, u64, usize, i64);

impl ToValue for f64 {
    fn to_value(&self) -> Value {
        Value::Float(*self)
    }
}

impl FromValue for f64 {
    fn from_value(value: Value) -> Result<Self, String> {
        match value {
            Value::Float(f) => Ok(f),
            Value::Int(n) => Ok(n as f64),
            other => Err(format!("expected a number, found {other:?}")),
        }
    }
}

impl ToValue for bool {
    fn to_value(&self) -> Value {
        Value::Bool(*self)
    }
}

impl FromValue for bool {
    fn from_value(value: Value) -> Result<Self, String> {
        match value {
            Value::Bool(b) => Ok(b),
            other => Err(format!("expected true or false, found {other:?}")),
        }
    }
}

impl ToValue for String {
    fn to_value(&self) -> Value {
        Value::Text(self.clone())
    }
}

impl FromValue for String {
    fn from_value(value: Value) -> Result<Self, String> {
        match value {
            Value::Text(t) => Ok(t),
            other => Err(format!("expected a string, found {other:?}")),
        }
    }
}

impl ToValue for PathBuf {
    fn to_value(&self) -> Value {
        Value::Text(self.display().to_string())
    }
}

impl FromValue for PathBuf {
    fn from_value(value: Value) -> Result<Self, String> {
        String::from_value(value).map(PathBuf::from)
    }
}

impl ToValue for IpAddr {
    fn to_value(&self) -> Value {
        Value::Text(self.to_string())
    }
}

impl FromValue for IpAddr {
    fn from_value(value: Value) -> Result<Self, String> {
        let text = String::from_value(value)?;
        text.parse().map_err(|_| format!("{text:?} is not an IP address"))
    }
}

impl ToValue for Vec<String> {
    fn to_value(&self) -> Value {
        Value::List(self.clone())
    }
}

impl FromValue for Vec<String> {
    fn from_value(value: Value) -> Result<Self, String> {
        match value {
            Value::List(items) => Ok(items),
            other => Err(format!("expected a list, found {other:?}")),
        }
    }
}

/// A setting's value that remembers whether a layer set it or it is the built-in default, for the few
/// behaviours that should differ when the operator did not ask (the CLI is quiet about a default
/// Redis that is not running, and warns about one it was told to use).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chosen<T> {
    pub value: T,
    /// Whether the file or the environment set it.
    pub chosen: bool,
}

impl<T> Chosen<T> {
    /// The built-in default.
    pub fn default_value(value: T) -> Self {
        Chosen { value, chosen: false }
    }

    /// A value set in code, as if by the operator.
    pub fn set(value: T) -> Self {
        Chosen { value, chosen: true }
    }
}

impl<T> std::ops::Deref for Chosen<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.value
    }
}

impl<T: ToValue> ToValue for Chosen<T> {
    fn to_value(&self) -> Value {
        self.value.to_value()
    }
}

impl<T: FromValue> FromValue for Chosen<T> {
    fn from_value(value: Value) -> Result<Self, String> {
        T::from_value(value).map(Chosen::set)
    }
}

/// An optional setting: unset, or (for text) set to the empty string, is `None`.
impl<T: ToValue> ToValue for Option<T> {
    fn to_value(&self) -> Value {
        self.as_ref().map_or(Value::Unset, ToValue::to_value)
    }
}

impl<T: FromValue> FromValue for Option<T> {
    fn from_value(value: Value) -> Result<Self, String> {
        match value {
            Value::Unset => Ok(None),
            Value::Text(t) if t.is_empty() => Ok(None),
            other => T::from_value(other).map(Some),
        }
    }
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
