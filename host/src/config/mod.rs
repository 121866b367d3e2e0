//! The configuration mechanism: sections that modules declare ([`Section`], [`Setting`]), read from
//! the built-in defaults, then `parlance.toml`, then the environment (including `.env`), with every
//! problem reported at once and located (file and line, or variable).
//!
//! This module knows no domain: each module that has settings declares its own section next to its
//! code, and [`crate::settings`] assembles them.

mod env;
mod error;
pub mod file;
mod kind;
mod secret;
mod setting;
mod value;

pub use env::Env;
pub use error::ConfigError;
pub use file::{Reader, Table};
pub use kind::Kind;
pub use secret::{SecretSource, redact_url};
pub(crate) use setting::setting;
pub use setting::{Layer, Row, Section, Setting, expand_home, rows};
pub use value::{Chosen, FromValue, ToValue, Value};

use std::path::{Path, PathBuf};

/// The configuration file to read: the one named explicitly, else `$PARLANCE_CONFIG`, else
/// `./parlance.toml` when it exists.
pub fn file_to_read(explicit: Option<&Path>, env: &Env) -> Option<PathBuf> {
    explicit
        .map(Path::to_path_buf)
        .or_else(|| env.get("PARLANCE_CONFIG").map(PathBuf::from))
        .or_else(|| Some(PathBuf::from("parlance.toml")).filter(|p| p.exists()))
}

/// Reads the sections of one configuration: the file (if any) and the environment, collecting every
/// problem.
pub struct Sources<'a, 't, 'i> {
    file: Option<(Table<'t, 'i>, Reader<'a>)>,
    pub env: &'a Env,
    problems: Vec<String>,
    /// Keys that moved to another section, by the table that held them: still allowed there.
    moved: Vec<(&'static str, &'static str)>,
    deprecations: Vec<String>,
}

impl<'a, 't, 'i> Sources<'a, 't, 'i> {
    /// `file` is the file's root table with its reader, when there is a file.
    pub fn new(file: Option<(Table<'t, 'i>, Reader<'a>)>, env: &'a Env) -> Self {
        Sources { file, env, problems: Vec::new(), moved: Vec::new(), deprecations: Vec::new() }
    }

    /// The file's root table and reader, for tables that are not sections (`[[plugin]]`).
    pub fn file(&mut self) -> Option<(&Table<'t, 'i>, &mut Reader<'a>)> {
        self.file.as_mut().map(|(table, reader)| (&*table, reader))
    }

    pub fn problem(&mut self, problem: String) {
        self.problems.push(problem);
    }

    /// Reads section `C`: its defaults, its keys still in the table that held them before (read
    /// before that table's own section, which then allows them), its table of the file, then its
    /// environment variables, then its own checks.
    pub fn section<C: Section>(&mut self) -> C {
        let mut c = C::default();
        let home = self.env.home().map(str::to_owned);
        let mut in_file = None;
        if let Some(former) = C::FORMERLY_IN {
            self.moved.extend(C::settings().iter().map(|s| (former, s.key)));
            if let Some((root, reader)) = &mut self.file
                && let Some(table) = root.table(reader, former)
                && let Some(found) = read_moved(&mut c, &table, reader, home.as_deref())
            {
                self.deprecations
                    .push(format!("[{former}] {found}: deprecated, these keys belong to [{}] now", C::NAME));
            }
        }
        if let Some((root, reader)) = &mut self.file
            && let Some(table) = root.table(reader, C::NAME)
        {
            let moved: Vec<&str> =
                self.moved.iter().filter(|(table, _)| *table == C::NAME).map(|(_, key)| *key).collect();
            read_into(&mut c, &table, reader, home.as_deref(), &moved);
            in_file = Some(table.span);
        }
        for setting in C::settings() {
            let Some(name) = setting.env else { continue };
            let Some(raw) = self.env.get(name) else { continue };
            if let Err(e) = setting.apply_env(&mut c, raw, home.as_deref()) {
                let problem = self.env.problem(name, format_args!("{}.{}: {e}", C::NAME, setting.key));
                self.problems.push(problem);
            }
        }
        let mut problems = Vec::new();
        c.validate(&mut problems);
        for problem in problems {
            match (&mut self.file, in_file) {
                (Some((_, reader)), Some(span)) => reader.problem(span, C::NAME, problem),
                _ => self.problems.push(format!("[{}]: {problem}", C::NAME)),
            }
        }
        c
    }

    /// Every problem, the file's first; and the deprecated keys that were read, one line per table.
    pub fn finish(self) -> (Vec<String>, Vec<String>) {
        let mut problems = self.file.map(|(_, reader)| reader.problems).unwrap_or_default();
        problems.extend(self.problems);
        (problems, self.deprecations)
    }
}

/// Reads the keys of section `C` found in the table that held them before; `None` when there were
/// none, else their names.
fn read_moved<C: Section>(
    c: &mut C,
    table: &Table<'_, '_>,
    reader: &mut Reader<'_>,
    home: Option<&str>,
) -> Option<String> {
    let mut found = Vec::new();
    for setting in C::settings() {
        if let Some((span, value)) = table.value(setting.key) {
            found.push(setting.key);
            if let Err(e) = setting.apply_toml(c, value, Layer::File(reader.file), home) {
                reader.problem(span, &table.key(setting.key), e);
            }
        }
    }
    (!found.is_empty()).then(|| found.join(", "))
}

/// Reads a table of the file into a section's struct: unknown keys (but those `moved` to another
/// section), bad values and the nested tables the section reads itself.
pub fn read_into<C: Section>(
    c: &mut C,
    table: &Table<'_, '_>,
    reader: &mut Reader<'_>,
    home: Option<&str>,
    moved: &[&str],
) {
    let known: Vec<&str> = C::settings()
        .iter()
        .map(|s| s.key)
        .chain(C::TABLES.iter().copied())
        .chain(moved.iter().copied())
        .collect();
    table.deny_unknown(reader, &known);
    let file = reader.file;
    for setting in C::settings() {
        if let Some((span, value)) = table.value(setting.key)
            && let Err(e) = setting.apply_toml(c, value, Layer::File(file), home)
        {
            reader.problem(span, &table.key(setting.key), e);
        }
    }
    c.read_tables(table, reader);
}

/// A section read from a table alone, and checked, for nested tables (a `[[plugin]]`'s `limits`).
pub fn read_table<C: Section>(table: &Table<'_, '_>, reader: &mut Reader<'_>, home: Option<&str>) -> C {
    let mut c = C::default();
    read_into(&mut c, table, reader, home, &[]);
    let mut problems = Vec::new();
    c.validate(&mut problems);
    for problem in problems {
        reader.problem(table.span, &table.path, problem);
    }
    c
}

/// Where Parlance keeps what it can fetch or compute again: `$XDG_CACHE_HOME/parlance`, else
/// `~/.cache/parlance`, else the temporary folder's `parlance`.
pub fn cache_home() -> PathBuf {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME").filter(|v| !v.is_empty()).map(|h| PathBuf::from(h).join(".cache"))
        })
        .unwrap_or_else(std::env::temp_dir);
    base.join("parlance")
}
