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
        for item in dotenvy::from_read_iter(text.as_bytes()) {
            match item {
                Ok((name, value)) => {
                    let line = line_of_assignment(text, &name);
                    self.vars.entry(name).or_insert((value, Origin::DotEnv(line)));
                }
                Err(dotenvy::Error::LineParse(content, index)) => {
                    let line = line_of_text(text, &content);
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

/// The 1-based line where `name` is first assigned (`NAME=` or `export NAME=`).
fn line_of_assignment(text: &str, name: &str) -> usize {
    text.lines()
        .position(|line| {
            let line = line.trim_start();
            let line = line.strip_prefix("export ").map(str::trim_start).unwrap_or(line);
            line.strip_prefix(name).is_some_and(|rest| rest.trim_start().starts_with('='))
        })
        .map_or(0, |i| i + 1)
}

/// The 1-based line holding the first line of `content`.
fn line_of_text(text: &str, content: &str) -> usize {
    let first = content.lines().next().unwrap_or_default().trim();
    text.lines().position(|line| line.trim() == first).map_or(0, |i| i + 1)
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
    fn a_bad_dotenv_line_is_named_by_its_number() {
        let mut f = tempfile::NamedTempFile::new().unwrap();
        writeln!(f, "A=1\nB=2\nthis is not an assignment\nC=3").unwrap();
        let e = Env::empty().add_dotenv(f.path()).unwrap_err();
        assert_eq!(e.problems.len(), 1);
        let expected = format!("{}:3: cannot parse", f.path().display());
        assert!(e.problems[0].starts_with(&expected), "{}", e.problems[0]);
    }
}
