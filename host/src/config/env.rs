//! The environment layer: a snapshot of the process's variables and of `./.env`, each value
//! remembering where it came from so that a problem names the variable, or the `.env` line.

use super::error::ConfigError;
use std::collections::BTreeMap;
use std::path::Path;

/// Where a variable's value came from.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Origin {
    Process,
    /// A line of `.env`.
    DotEnv(usize),
    /// Set in code ([`Env::with`]).
    Code,
}

/// A snapshot of environment variables. Explicit, so that embedding programs and tests can configure
/// Parlance without touching the process environment.
#[derive(Clone, Debug, Default)]
pub struct Env {
    vars: BTreeMap<String, (String, Origin)>,
}

impl Env {
    /// The process's variables.
    pub fn from_process() -> Env {
        Env { vars: std::env::vars().map(|(k, v)| (k, (v, Origin::Process))).collect() }
    }

    /// The process's variables, and those of `./.env` that the process does not set. A line of
    /// `.env` that cannot be read is an error naming its line.
    pub fn load() -> Result<Env, ConfigError> {
        let mut env = Env::from_process();
        env.add_dotenv(Path::new(".env"))?;
        Ok(env)
    }

    pub fn empty() -> Env {
        Env::default()
    }

    pub fn with(mut self, name: &str, value: &str) -> Env {
        self.vars.insert(name.to_owned(), (value.to_owned(), Origin::Code));
        self
    }

    /// Adds the variables of a `.env` file that are not already set; a missing file adds nothing.
    pub fn add_dotenv(&mut self, path: &Path) -> Result<(), ConfigError> {
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
            Err(e) => return Err(ConfigError::one(format!("{}: cannot read it: {e}", path.display()))),
        };
        self.add_dotenv_text(path, &text)
    }

    /// Adds the variables of `text`, the contents of the `.env` file `path`, that are not already set.
    pub(crate) fn add_dotenv_text(&mut self, path: &Path, text: &str) -> Result<(), ConfigError> {
        let mut problems = Vec::new();
        // dotenvy says what it read, not where: each item is looked for from the line after the
        // previous one on, so that a name assigned twice, or a bad line like an earlier good one, is
        // found where the reader was.
        let mut next = 1;
        for item in dotenvy::from_read_iter(text.as_bytes()) {
            match item {
                Ok((name, value)) => {
                    let line = line_of_assignment(text, &name, next);
                    next = line + 1;
                    self.vars.entry(name).or_insert((value, Origin::DotEnv(line)));
                }
                Err(dotenvy::Error::LineParse(content, index)) => {
                    let line = line_of_text(text, &content, next);
                    problems.push(format!(
                        "{}:{line}: cannot parse {:?} (at character {})",
                        path.display(),
                        content.lines().next().unwrap_or_default(),
                        index + 1
                    ));
                    // The reader cannot go on past a line it does not understand.
                    break;
                }
                Err(e) => {
                    problems.push(format!("{}: {e}", path.display()));
                    break;
                }
            }
        }
        if problems.is_empty() { Ok(()) } else { Err(ConfigError { problems }) }
    }

    /// A variable's value; an empty value counts as unset, as most shells' `VAR=` intends.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.vars.get(name).map(|(v, _)| v.as_str()).filter(|v| !v.is_empty())
    }

    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.vars.iter().map(|(k, (v, _))| (k.as_str(), v.as_str()))
    }

    /// The home directory, for `~/` in paths.
    pub fn home(&self) -> Option<&str> {
        self.get("HOME")
    }

    /// A problem with a variable, located: `.env:3: NAME: …` or `environment variable NAME: …`.
    pub fn problem(&self, name: &str, message: impl std::fmt::Display) -> String {
        match self.vars.get(name).map(|(_, origin)| origin) {
            Some(Origin::DotEnv(line)) => format!(".env:{line}: {name}: {message}"),
            _ => format!("environment variable {name}: {message}"),
        }
    }
}

/// The 1-based line, from line `from` on, where `name` is assigned (`NAME=` or `export NAME=`, and
/// `export =`, which assigns `export`); else line `from`, where the reader was.
fn line_of_assignment(text: &str, name: &str, from: usize) -> usize {
    let assigns = |line: &str| line.strip_prefix(name).is_some_and(|rest| rest.trim_start().starts_with('='));
    find_line(text, from, |line| {
        let line = line.trim_start();
        let exported = line.strip_prefix("export").filter(|rest| rest.starts_with(char::is_whitespace));
        assigns(line) || exported.is_some_and(|rest| assigns(rest.trim_start()))
    })
}

/// The 1-based line, from line `from` on, holding the first line of `content` (what dotenvy quotes of
/// a line it cannot parse: the line, or the part of it where it stopped); else line `from`.
fn line_of_text(text: &str, content: &str, from: usize) -> usize {
    let first = content.lines().next().unwrap_or_default().trim();
    find_line(text, from, |line| line.contains(first))
}

/// The first line from line `from` on (1-based) that `matches`, else `from`, within the file's lines.
fn find_line(text: &str, from: usize, matches: impl Fn(&str) -> bool) -> usize {
    let found = text.lines().enumerate().skip(from - 1).find(|(_, line)| matches(line));
    found.map_or(from, |(i, _)| i + 1).clamp(1, text.lines().count().max(1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn dotenv_values_remember_their_line_and_never_override() {
        let mut f = tempfile::NamedTempFile::new().unwrap();
        writeln!(f, "# comment\nAPI_PORT=9000\n\nexport CACHE_TTL = 5\nHOME=/elsewhere").unwrap();
        let mut env = Env::empty().with("HOME", "/home/me");
        env.add_dotenv(f.path()).unwrap();
        assert_eq!(env.get("API_PORT"), Some("9000"));
        assert_eq!(env.get("HOME"), Some("/home/me"));
        assert_eq!(env.problem("API_PORT", "bad"), ".env:2: API_PORT: bad");
        assert_eq!(env.problem("CACHE_TTL", "bad"), ".env:4: CACHE_TTL: bad");
        assert_eq!(env.problem("HOME", "bad"), "environment variable HOME: bad");
    }

    #[test]
    fn every_line_named_is_a_line_of_the_file() {
        // Found by the `dotenv` fuzz target: dotenvy quoted only the part of the line after the name,
        // which no line equals, and the problem was said to be at `.env:0`.
        let mut env = Env::empty();
        let e =
            env.add_dotenv_text(Path::new(".env"), "export  SPACED\t= value\0e\\p rt\r\n rW").unwrap_err();
        assert!(e.problems[0].starts_with(".env:1: cannot parse"), "{}", e.problems[0]);
        // A name assigned twice is located at its first assignment, the one read.
        let mut env = Env::empty();
        env.add_dotenv_text(Path::new(".env"), "A=1\nB=2\nA=3\nbad line\n").unwrap_err();
        assert_eq!(env.problem("A", "x"), ".env:1: A: x");
        assert_eq!(env.problem("B", "x"), ".env:2: B: x");
        // Found by the `dotenv` fuzz target: `export  =1` assigns `export`, which was looked for
        // after the `export` it begins with, and put on the line where the reader was.
        let mut env = Env::empty();
        env.add_dotenv_text(Path::new(".env"), "# a comment\r\nexport  =1").unwrap();
        assert_eq!(env.problem("export", "x"), ".env:2: export: x");
    }

    #[test]
    fn a_bad_dotenv_line_is_named_by_its_number() {
        let mut f = tempfile::NamedTempFile::new().unwrap();
        writeln!(f, "A=1\nB=2\nthis is not an assignment\nC=3").unwrap();
        let e = Env::empty().add_dotenv(f.path()).unwrap_err();
        assert_eq!(e.problems.len(), 1);
        let expected = format!("{}:3: cannot parse", f.path().display());
        assert!(e.problems[0].starts_with(&expected), "{}", e.problems[0]);
    }
}
