//! Reading `parlance.toml` as a tree of spanned values, so that every unknown key and bad value can be
//! reported at once, each with its file, line and key path.

use std::path::Path;
use toml::Spanned;
use toml::de::{DeTable, DeValue};

/// Collects problems while walking one file.
pub struct Reader<'a> {
    pub file: &'a Path,
    text: &'a str,
    pub problems: Vec<String>,
}

/// A table of the file, with the path used to name its keys in messages.
pub struct Table<'t, 'i> {
    pub path: String,
    /// Where the table starts in the file, for problems about the table as a whole.
    pub span: usize,
    table: &'t DeTable<'i>,
}

impl<'a> Reader<'a> {
    pub fn new(file: &'a Path, text: &'a str) -> Self {
        Reader { file, text, problems: Vec::new() }
    }

    fn line(&self, offset: usize) -> usize {
        self.text[..offset.min(self.text.len())].bytes().filter(|b| *b == b'\n').count() + 1
    }

    pub fn problem(&mut self, span_start: usize, key: &str, message: impl std::fmt::Display) {
        let at = self.locate(span_start);
        self.problems.push(format!("{at}: {key}: {message}"));
    }

    /// `file:line` of a position in the file.
    pub fn locate(&self, span_start: usize) -> String {
        format!("{}:{}", self.file.display(), self.line(span_start))
    }

    /// Parses the whole file; a syntax error is the only problem reported then.
    pub fn parse(file: &Path, text: &'a str) -> Result<Spanned<DeTable<'a>>, String> {
        DeTable::parse(text).map_err(|e| format!("{}: {}", file.display(), e.to_string().trim_end()))
    }
}

impl<'t, 'i> Table<'t, 'i> {
    pub fn root(table: &'t DeTable<'i>) -> Self {
        Table { path: String::new(), span: 0, table }
    }

    fn key_path(&self, key: &str) -> String {
        if self.path.is_empty() { key.to_owned() } else { format!("{}.{key}", self.path) }
    }

    fn get(&self, key: &str) -> Option<&'t Spanned<DeValue<'i>>> {
        self.table.iter().find(|(k, _)| k.get_ref().as_ref() == key).map(|(_, v)| v)
    }

    /// A key's value and where it starts.
    pub fn value(&self, key: &str) -> Option<(usize, &'t DeValue<'i>)> {
        self.get(key).map(|v| (v.span().start, v.get_ref()))
    }

    /// Reports every key not in `known`.
    pub fn deny_unknown(&self, reader: &mut Reader<'_>, known: &[&str]) {
        for (key, _) in self.table.iter() {
            let name: &str = key.get_ref().as_ref();
            if !known.contains(&name) {
                let expected = known.join(", ");
                reader.problem(
                    key.span().start,
                    &self.key_path(name),
                    format!("unknown key (expected one of: {expected})"),
                );
            }
        }
    }

    pub fn table(&self, reader: &mut Reader<'_>, key: &str) -> Option<Table<'t, 'i>> {
        let value = self.get(key)?;
        match value.get_ref() {
            DeValue::Table(t) => Some(Table { path: self.key_path(key), span: value.span().start, table: t }),
            other => {
                reader.problem(
                    value.span().start,
                    &self.key_path(key),
                    format!("expected a table, found {}", kind(other)),
                );
                None
            }
        }
    }

    /// An array of tables (`[[plugin]]`).
    pub fn tables(&self, reader: &mut Reader<'_>, key: &str) -> Vec<Table<'t, 'i>> {
        let Some(value) = self.get(key) else { return Vec::new() };
        let DeValue::Array(items) = value.get_ref() else {
            reader.problem(value.span().start, &self.key_path(key), "expected an array of tables ([[...]])");
            return Vec::new();
        };
        let mut out = Vec::new();
        for (i, item) in items.iter().enumerate() {
            match item.get_ref() {
                DeValue::Table(t) => out.push(Table {
                    path: format!("{}[{i}]", self.key_path(key)),
                    span: item.span().start,
                    table: t,
                }),
                other => reader.problem(
                    item.span().start,
                    &self.key_path(key),
                    format!("expected a table, found {}", kind(other)),
                ),
            }
        }
        out
    }

    /// The keys and spans of a table, for tables whose keys are free-form (plugin `config`).
    pub fn entries(&self) -> impl Iterator<Item = (&'t str, usize, &'t DeValue<'i>)> {
        self.table.iter().map(|(k, v)| (k.get_ref().as_ref(), k.span().start, v.get_ref()))
    }

    /// Where this section's key `key` starts, for messages about a value's meaning rather than its type.
    pub fn span_of(&self, key: &str) -> usize {
        self.get(key).map(|v| v.span().start).unwrap_or(0)
    }

    pub fn key(&self, key: &str) -> String {
        self.key_path(key)
    }
}

/// A scalar value rendered as a string (for plugin `config`, whose values the plugin parses itself).
pub fn scalar_to_string(value: &DeValue<'_>) -> Option<String> {
    match value {
        DeValue::String(s) => Some(s.to_string()),
        DeValue::Integer(i) => i64::from_str_radix(i.as_str(), i.radix()).ok().map(|n| n.to_string()),
        DeValue::Float(f) => Some(f.as_str().to_owned()),
        DeValue::Boolean(b) => Some(b.to_string()),
        _ => None,
    }
}

fn kind(value: &DeValue<'_>) -> &'static str {
    match value {
        DeValue::String(_) => "a string",
        DeValue::Integer(_) => "an integer",
        DeValue::Float(_) => "a float",
        DeValue::Boolean(_) => "a boolean",
        DeValue::Datetime(_) => "a datetime",
        DeValue::Array(_) => "an array",
        DeValue::Table(_) => "a table",
    }
}
