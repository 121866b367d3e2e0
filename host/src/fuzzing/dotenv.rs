//! `.env`: no panic; a variable the process sets is never overridden; every problem names a line of
//! the file, and a variable read from it names the line that assigns it.

use crate::config::Env;
use std::path::Path;

pub fn check(data: &[u8]) {
    // `Env::add_dotenv` reads the file as text; a file that is not UTF-8 is refused before this.
    let Ok(text) = std::str::from_utf8(data) else { return };
    let lines = text.lines().count();
    let process = [("HOME", "/home/fuzz"), ("PATH", "/bin")];
    let mut env = process.iter().fold(Env::empty(), |env, (name, value)| env.with(name, value));
    let path = Path::new(".env");
    match env.add_dotenv_text(path, text) {
        Ok(()) => {}
        Err(e) => {
            // A line that cannot be parsed is named by its number; other problems name the file.
            for problem in &e.problems {
                let rest = problem.strip_prefix(".env:").unwrap_or_else(|| panic!("not located: {problem}"));
                if rest.starts_with(|c: char| c.is_ascii_digit()) {
                    let line: usize = rest.split(':').next().and_then(|n| n.parse().ok()).unwrap_or(0);
                    assert!((1..=lines).contains(&line), "line {line} of {lines}: {problem}");
                }
            }
            return;
        }
    }
    for (name, value) in process {
        assert_eq!(env.get(name), Some(value), "{name} was overridden by .env");
    }
    for (name, _) in env.iter().filter(|(name, _)| !process.iter().any(|(p, _)| p == name)) {
        let problem = env.problem(name, "x");
        let line = problem
            .strip_prefix(".env:")
            .and_then(|rest| rest.split(':').next())
            .and_then(|line| line.parse::<usize>().ok())
            .unwrap_or_else(|| panic!("{name} read from .env is not located there: {problem}"));
        assert!((1..=lines).contains(&line), "{name} located at line {line} of {lines}");
        let assignment = text.lines().nth(line - 1).unwrap_or_default();
        assert!(assignment.contains(name), "{name} located at line {line}, which is {assignment:?}");
    }
}
