//! `parlance.toml`: a file that loads, written again by `toml` (its canonical form: the same values,
//! another layout) and loaded again, is the same configuration; a file that does not load still does
//! not, with as many problems. No configuration prints itself, so the two loads are compared by their
//! `Debug` forms, less where each came from (the file's path and the `[[plugin]]` tables' lines).

use crate::config::Env;
use crate::settings::Config;
use std::path::Path;

pub fn check(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let dir = super::scratch("config");
    let env = Env::empty().with("HOME", dir.to_str().expect("a UTF-8 temporary folder"));
    let first = load(&dir.join("parlance.toml"), text, &env);
    let table = match toml::from_str::<toml::Table>(text) {
        Ok(table) => table,
        Err(e) => {
            assert!(first.is_err(), "the host loads a file that toml cannot read: {e}");
            return;
        }
    };
    let canonical = toml::to_string(&table).expect("toml writes what it read");
    let second = load(&dir.join("canonical.toml"), &canonical, &env);
    match (first, second) {
        (Ok(a), Ok(b)) => assert_eq!(a, b, "the configuration changes when written as\n{canonical}"),
        (Err(a), Err(b)) => assert_eq!(
            a.len(),
            b.len(),
            "the problems change when written as\n{canonical}\nbefore: {a:#?}\nafter: {b:#?}"
        ),
        (Ok(_), Err(b)) => panic!("written as\n{canonical}\nthe file no longer loads: {b:#?}"),
        (Err(a), Ok(_)) => panic!("written as\n{canonical}\nthe file loads, though it did not: {a:#?}"),
    }
}

/// The configuration of `text` as a file at `path`, in the `Debug` form compared, or its problems.
fn load(path: &Path, text: &str, env: &Env) -> Result<String, Vec<String>> {
    std::fs::write(path, text).unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
    let mut config = Config::from_env(Some(path), env).map_err(|e| e.problems)?;
    config.file = None;
    for plugin in &mut config.plugins {
        plugin.declared_at = None;
    }
    Ok(format!("{config:#?}"))
}
