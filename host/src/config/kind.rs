//! What a setting holds ([`Kind`]) with its bounds: how a value of the file or of the environment is
//! read as that kind and checked, with the same messages in both layers.

use super::value::Value;
use std::borrow::Cow;
use std::net::IpAddr;
use toml::de::DeValue;

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
    pub(super) fn read_toml(&self, value: &DeValue<'_>) -> Result<Value, String> {
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
    pub(super) fn read_env(&self, raw: &str) -> Result<Value, String> {
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
    pub(super) fn check(&self, value: Value) -> Result<Value, String> {
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
