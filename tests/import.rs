//! `parlance import-original` on a database written in the original chat service's own schema and
//! string format: every user of every client lands in the store with its entries and times, what
//! cannot be read unambiguously is reported by client and user, and a second run changes nothing.

use crate::common::{self, server::Server};
use serde_json::{Value, json};

/// The original's `dialogs` table and its string form of a dialog.
fn original_database(path: &std::path::Path, rows: &[(&str, &str, &str, i64)]) {
    let conn = rusqlite::Connection::open(path).unwrap();
    conn.execute_batch(
        "CREATE TABLE dialogs (current_user TEXT, user_id TEXT, dialog TEXT, last_modified_datetime TEXT,
                               last_modified_timestamp INTEGER, context TEXT, PRIMARY KEY (current_user, user_id))",
    )
    .unwrap();
    for (client, user, dialog, timestamp) in rows {
        let datetime = parlance::chat::routes::utc_datetime(*timestamp);
        conn.execute(
            "INSERT INTO dialogs VALUES (?1, ?2, ?3, ?4, ?5, '')",
            rusqlite::params![client, user, dialog, datetime, timestamp],
        )
        .unwrap();
    }
}

fn said(lines: &[(&str, &str)]) -> String {
    lines.iter().map(|(n, m)| format!("{n} said: \"{m}\"")).collect::<Vec<_>>().join(" ")
}

fn import(home: &std::path::Path, database: &std::path::Path, args: &[&str]) -> (i32, Value) {
    let out = common::command(home)
        .env("DATABASE_FILE", home.join("dialogs.db"))
        .arg("import-original")
        .arg(database)
        .args(args)
        .arg("--json")
        .output()
        .unwrap();
    let summary = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|_| panic!("{}", String::from_utf8_lossy(&out.stderr)));
    (out.status.code().unwrap(), summary)
}

#[tokio::test(flavor = "multi_thread")]
async fn the_original_database_is_imported_whole_and_only_once() {
    let home = tempfile::tempdir().unwrap();
    let original = home.path().join("original.db");
    let alice = [
        ("User", "Hi, I'm \"Al\""),
        ("Waifu", "Hello, Al!"),
        ("User", "He said: \"go\""),
        ("Waifu", "So go."),
    ];
    let doubtful = [("User", "x\" Waifu said: \"y"), ("Waifu", "z")];
    original_database(
        &original,
        &[
            ("acme", "alice", &said(&alice), 1_700_000_000),
            ("0_no_current_user_specified", "bob", &said(&[("User", "hey"), ("Waifu", "yo")]), 1_600_000_000),
            ("acme", "carol", "", 1_650_000_000),
            ("acme", "dave", "not the string form at all", 1_650_000_000),
            ("acme", "eve", &said(&doubtful), 1_650_000_000),
        ],
    );
    let (code, summary) = import(home.path(), &original, &[]);
    assert_eq!(code, 1, "users were left out: {summary}");
    assert_eq!(
        (summary["users_read"].as_u64(), summary["imported"].as_u64()),
        (Some(5), Some(3)),
        "{summary}"
    );
    assert_eq!(summary["entries_imported"], 6);
    let skipped: Vec<(&str, &str)> = summary["skipped"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["user_id"].as_str().unwrap(), s["reason"].as_str().unwrap()))
        .collect();
    assert_eq!(skipped.len(), 2);
    assert!(skipped[0].0 == "dave" && skipped[0].1.contains("cannot be read"), "{skipped:?}");
    assert!(skipped[1].0 == "eve" && skipped[1].1.contains("doubtful"), "{skipped:?}");

    let (code, again) = import(home.path(), &original, &[]);
    assert_eq!(code, 1);
    assert_eq!(
        (again["imported"].as_u64(), again["already_imported"].as_u64()),
        (Some(0), Some(3)),
        "{again}"
    );
    let (_, taken) = import(home.path(), &original, &["--take-doubtful"]);
    assert_eq!(taken["imported"], 1, "eve, as read: {taken}");

    let database = home.path().join("dialogs.db");
    let server = Server::start_in(home, &[("DATABASE_FILE", database.to_str().unwrap())], &[]).await;
    let get = |client: &'static str, path: String| {
        let r = server.client.get(server.chat_url(&path)).header("current-user", client);
        async move { r.send().await.unwrap().json::<Value>().await.unwrap() }
    };
    let dialog = get("acme", "/v1/user/dialog/json/alice".into()).await;
    let expected: Vec<Value> =
        alice.iter().enumerate().map(|(i, (n, m))| json!({"index": i, "name": n, "message": m})).collect();
    assert_eq!(dialog["dialog"], Value::Array(expected));
    assert_eq!(
        get("acme", "/v1/user/dialog/str/alice".into()).await["dialog"],
        said(&alice),
        "the string form is the original's"
    );
    assert_eq!(get("acme", "/v1/user/metadata/alice".into()).await["last_modified_timestamp"], 1_700_000_000);
    assert_eq!(
        get("default", "/v1/user/dialog/json/bob".into()).await["dialog"].as_array().unwrap().len(),
        2
    );
    assert_eq!(get("acme", "/v1/user/dialog/json/carol".into()).await["dialog"], json!([]));
    assert_eq!(get("acme", "/v1/user/all/count".into()).await["user_count"], 3, "alice, carol, eve");
}

/// A damaged file is refused whole, naming the damage, before any store is made; in a sound file, a
/// row whose dialog is bytes that are not UTF-8 is skipped for that (never imported as an empty user),
/// and a user whose id cannot exist in Parlance is skipped for its id, whatever its dialog holds.
#[test]
fn a_damaged_file_changes_nothing_and_unreadable_rows_are_named() {
    let home = tempfile::tempdir().unwrap();
    let original = home.path().join("original.db");
    original_database(
        &original,
        &[("acme", "alice", &said(&[("User", "hi"), ("Waifu", "yo")]), 1_700_000_000)],
    );
    let conn = rusqlite::Connection::open(&original).unwrap();
    conn.execute(
        "INSERT INTO dialogs VALUES ('acme', 'bytes', ?1, '', 1, ''), ('acme', 'a/b', 'not a dialog', '', 1, '')",
        [rusqlite::types::Value::Blob(vec![0xff, 0xfe, 0x00])],
    )
    .unwrap();
    drop(conn);
    let (code, summary) = import(home.path(), &original, &[]);
    assert_eq!((code, summary["imported"].as_u64()), (1, Some(1)), "{summary}");
    let reasons: Vec<(&str, &str)> = summary["skipped"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["user_id"].as_str().unwrap(), s["reason"].as_str().unwrap()))
        .collect();
    assert_eq!(
        reasons,
        [
            ("bytes", "its dialog is not text (bytes that are not UTF-8)"),
            ("a/b", "`user_id` contains a slash")
        ]
    );

    // The same file with its last page cut short.
    let damaged_home = tempfile::tempdir().unwrap();
    let damaged = damaged_home.path().join("damaged.db");
    let bytes = std::fs::read(&original).unwrap();
    std::fs::write(&damaged, &bytes[..bytes.len() - 100]).unwrap();
    let out = common::command(damaged_home.path())
        .env("DATABASE_FILE", damaged_home.path().join("dialogs.db"))
        .args(["import-original", damaged.to_str().unwrap()])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("damaged.db is damaged (SQLite's quick_check:"), "{stderr}");
    assert!(stderr.contains("nothing was imported"), "{stderr}");
    assert!(!damaged_home.path().join("dialogs.db").exists(), "a store was made for a file that was refused");
}
