//! A setting's value on its way from a layer to a section's struct ([`Value`]), the conversions of
//! fields to and from it ([`ToValue`], [`FromValue`]), and [`Chosen`], a value that remembers whether a
//! layer set it.

use std::net::IpAddr;
use std::path::PathBuf;

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
