//! `import-original` (`cli::import`) on any file: the fuzz input becomes the original service's
//! SQLite file, imported into a store that does not exist yet. A file that cannot be read changes
//! nothing (the store is not even made). One that can
//! is accounted for row by row (each user imported, already there, or skipped with its reason), each
//! user is imported whole (its dialog, all its entries, as the file's string reads) or not at all, the
//! store holds nothing else, and a second run changes nothing more.
//!
//! The import is all-or-nothing per user, not per file: a file's good users are imported and its bad
//! ones listed, with exit code 1 (the manual's "Moving from the original chat service").

use crate::chat::import::parse_dialog;
use crate::cli::import::{Options, Summary, import, read_original};
use crate::config::Env;
use crate::settings::Config;
use std::collections::BTreeSet;
use std::path::Path;

pub fn check(data: &[u8]) {
    let dir = super::scratch("import");
    let original = dir.join("original.db");
    std::fs::write(&original, data).expect("the original's file");
    let database = dir.join("store.db");
    let env = Env::empty()
        .with("DATABASE_FILE", database.to_str().expect("a UTF-8 temporary folder"))
        .with("HOME", dir.to_str().expect("a UTF-8 temporary folder"));
    let config = Config::from_env(None, &env).expect("the default configuration");
    let options = Options { default_client: "default".into(), take_doubtful: super::hash(data) & 1 == 1 };
    super::block_on(async {
        // The store does not exist yet: the import makes it, once it has read the whole file.
        let summary = match import(&config, &original, &options).await {
            Ok(summary) => summary,
            Err(e) => {
                let rows = if database.exists() { snapshot(&database) } else { Vec::new() };
                assert!(
                    rows.iter().all(|(_, rows)| rows.is_empty()),
                    "the import failed ({e:#}), yet changed the store: {rows:?}"
                );
                return;
            }
        };
        let after = snapshot(&database);
        check_whole(&config, &original, &options, &summary).await;
        let again = import(&config, &original, &options).await.expect("the same file imports again");
        assert_eq!(again.imported, 0, "a second run imported users again: {again:?}");
        assert_eq!(snapshot(&database), after, "a second run changed the store");
    });
}

/// Every row is accounted for, and the store holds exactly the users imported, each whole.
async fn check_whole(config: &Config, original: &Path, options: &Options, summary: &Summary) {
    let rows = read_original(original).expect("a file that imported reads again");
    assert_eq!(summary.users_read, rows.len(), "users read");
    assert_eq!(
        summary.imported + summary.already_imported + summary.skipped.len(),
        rows.len(),
        "each user imported, already there or skipped: {summary:?}"
    );
    let store = crate::open_store(config).await.expect("the store again");
    let mut clients: BTreeSet<String> =
        rows.iter().filter_map(|row| row.client.as_deref()).map(|c| c.trim().to_owned()).collect();
    clients.insert(options.default_client.clone());
    let mut stored = 0;
    for client in &clients {
        stored += store.count_users(client).await.expect("a count of users");
    }
    assert_eq!(stored, summary.imported as u64, "the store holds the users imported and no others");

    let mut found = BTreeSet::new();
    let mut entries = 0;
    for row in &rows {
        for client in &clients {
            let Ok(Some(dialog)) = store.dialog(client, &row.user_id).await else { continue };
            if !found.insert((client.clone(), row.user_id.clone())) {
                continue;
            }
            let dialog = dialog.entries().to_vec();
            entries += dialog.len();
            let whole = rows
                .iter()
                .filter(|r| r.user_id == row.user_id)
                .any(|r| r.dialog.as_deref().is_ok_and(|d| parse_dialog(d).is_ok_and(|read| read == dialog)));
            assert!(
                whole,
                "{client}/{}: the stored dialog is no row's dialog read whole: {dialog:?}",
                row.user_id
            );
        }
    }
    assert_eq!(found.len(), summary.imported, "the users imported are in the store");
    assert_eq!(entries, summary.entries_imported, "the entries imported are in the store");
}

/// Every row of every table of the store, in order: what "changed nothing" compares.
fn snapshot(database: &Path) -> Vec<(String, Vec<String>)> {
    let conn = rusqlite::Connection::open_with_flags(database, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
        .expect("the store's file");
    let mut tables: Vec<String> = conn
        .prepare(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
        )
        .and_then(|mut stmt| stmt.query_map([], |r| r.get(0))?.collect())
        .expect("the store's tables");
    tables.sort();
    tables
        .into_iter()
        .map(|table| {
            let mut stmt = conn.prepare(&format!("SELECT * FROM \"{table}\"")).expect("a table");
            let columns = stmt.column_count();
            let mut rows: Vec<String> = stmt
                .query_map([], |r| {
                    (0..columns).map(|i| r.get::<_, rusqlite::types::Value>(i)).collect::<Result<Vec<_>, _>>()
                })
                .and_then(|rows| rows.map(|row| row.map(|values| format!("{values:?}"))).collect())
                .expect("a table's rows");
            rows.sort();
            (table, rows)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_file_of_the_original_imports_its_good_users() {
        let dir = super::super::scratch("import-test");
        let file = dir.join("original.db");
        let conn = rusqlite::Connection::open(&file).unwrap();
        conn.execute_batch(
            "CREATE TABLE dialogs (current_user TEXT, user_id TEXT, dialog TEXT, last_modified_datetime TEXT,
                                   last_modified_timestamp INTEGER, context TEXT);
             INSERT INTO dialogs VALUES ('acme', 'alice', 'User said: \"Hi\" Waifu said: \"Hello\"', NULL, 5, '');
             INSERT INTO dialogs VALUES ('acme', 'bob', 'not the format', NULL, 5, '');",
        )
        .unwrap();
        drop(conn);
        let data = std::fs::read(&file).unwrap();
        super::check(&data);
        let env = crate::config::Env::empty().with("DATABASE_FILE", dir.join("s.db").to_str().unwrap());
        let config = crate::settings::Config::from_env(None, &env).unwrap();
        let options = super::Options { default_client: "default".into(), take_doubtful: false };
        let summary = super::super::block_on(super::import(&config, &file, &options)).unwrap();
        assert_eq!((summary.imported, summary.entries_imported, summary.skipped.len()), (1, 2, 1));
    }
}
