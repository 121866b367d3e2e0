//! The store's behaviour, held by one suite run against both backends (`on_both!`): SQLite in a temp
//! folder, and a real PostgreSQL server on loopback with a fresh database per test. Tests of what
//! only one backend has follow the suite.

use super::*;
use rusqlite::Connection;

/// The dialog's entries, or `None` when there is no such user.
async fn entries(s: &DialogStore, client: &str, user: &str) -> Option<Vec<DialogEntry>> {
    s.dialog(client, user).await.unwrap().map(|d| d.entries().to_vec())
}

/// Where a test's data lives; each [`Target::open`] is a new backend on the same data, as another
/// process (or replica) would open it.
pub(super) struct Target {
    location: Location,
    _dir: Option<tempfile::TempDir>,
}

impl Target {
    async fn sqlite() -> Target {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("nested/dialogs.db");
        Target { location: Location::Sqlite { path, durability: Durability::Normal }, _dir: Some(dir) }
    }

    async fn postgres() -> Target {
        let url = server().fresh_database().await;
        Target { location: Location::Postgres { url, pool_size: 8, tls: tls() }, _dir: None }
    }

    pub(super) async fn open(&self) -> DialogStore {
        DialogStore::open_at(&self.location).await.unwrap()
    }
}

/// The process's TLS client configuration, as a server builds it.
pub(super) fn tls() -> Arc<rustls::ClientConfig> {
    Arc::new(crate::upstream::TlsConfig::default().rustls().unwrap())
}

/// The one PostgreSQL server of this test process.
pub(super) fn server() -> &'static super::test_postgres::TestPostgres {
    static SERVER: std::sync::OnceLock<super::test_postgres::TestPostgres> = std::sync::OnceLock::new();
    SERVER.get_or_init(super::test_postgres::TestPostgres::start)
}

/// Runs each named test body (`async fn(Target)`) against SQLite and against PostgreSQL.
macro_rules! on_both {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
            async fn $name() {
                super::$name(super::Target::sqlite().await).await
            })*
        }
        mod postgres {
            $(#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
            async fn $name() {
                super::$name(super::Target::postgres().await).await
            })*
        }
    };
}

mod jobs_and_keys;
mod ledger;
mod postgres_only;

on_both!(
    users_are_per_client,
    exchanges_append_whole_and_contiguous,
    dialogs_are_replaced_and_reset,
    pages_are_newest_modified_first,
    rendered_dialogs_follow_every_write,
    reads_racing_writes_end_with_the_latest_dialog,
    imports_never_change_an_existing_user,
    the_newest_entries_come_with_the_length,
    a_long_dialogs_newest_entries_stay_right_as_it_grows,
);

fn lines(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs.iter().map(|(n, m)| (n.to_string(), m.to_string())).collect()
}

async fn users_are_per_client(t: Target) {
    let s = t.open().await;
    assert!(s.put_user("a", "bob").await.unwrap());
    assert!(!s.put_user("a", "bob").await.unwrap(), "PUT on an existing user changes nothing");
    assert!(s.user_exists("a", "bob").await.unwrap());
    assert!(!s.user_exists("b", "bob").await.unwrap());
    assert_eq!(s.count_users("a").await.unwrap(), 1);
    assert_eq!(s.count_users("b").await.unwrap(), 0);
    assert!(!s.delete_user("b", "bob").await.unwrap());
    assert!(s.delete_user("a", "bob").await.unwrap());
    assert_eq!(s.count_users("a").await.unwrap(), 0);
}

async fn exchanges_append_whole_and_contiguous(t: Target) {
    let s = t.open().await;
    let idx = s.append_exchange("c", "u", lines(&[("User", "hi"), ("Waifu", "hello")]), 100).await.unwrap();
    assert_eq!(idx, vec![0, 1]);
    // Concurrent chats of the same user: every exchange lands whole, indices stay contiguous.
    let mut tasks = Vec::new();
    for i in 0..20 {
        let s = s.clone();
        tasks.push(tokio::spawn(async move {
            s.append_exchange(
                "c",
                "u",
                lines(&[("User", &format!("m{i}")), ("Waifu", &format!("r{i}"))]),
                100,
            )
            .await
        }));
    }
    for t in tasks {
        t.await.unwrap().unwrap();
    }
    let dialog = entries(&s, "c", "u").await.unwrap();
    assert_eq!(dialog.len(), 42);
    for (i, e) in dialog.iter().enumerate() {
        assert_eq!(e.index as usize, i);
    }
    for pair in dialog[2..].chunks(2) {
        assert_eq!(pair[0].message.trim_start_matches('m'), pair[1].message.trim_start_matches('r'));
    }
    assert!(matches!(
        s.append_exchange("c", "u", lines(&[("a", "b"), ("c", "d")]), 43).await,
        Err(StoreError::DialogFull { would: 44, limit: 43 })
    ));
    assert_eq!(entries(&s, "c", "u").await.unwrap().len(), 42, "a refused exchange leaves nothing behind");
}

async fn dialogs_are_replaced_and_reset(t: Target) {
    let s = t.open().await;
    assert!(!s.set_dialog("c", "nobody", vec![]).await.unwrap());
    s.put_user("c", "u").await.unwrap();
    let dialog = vec![
        DialogEntry { index: 0, name: "A".into(), message: "one".into() },
        DialogEntry { index: 1, name: "B".into(), message: "two".into() },
    ];
    assert!(s.set_dialog("c", "u", dialog.clone()).await.unwrap());
    assert_eq!(entries(&s, "c", "u").await.unwrap(), dialog);
    assert!(s.reset_dialog("c", "u").await.unwrap());
    assert_eq!(entries(&s, "c", "u").await.unwrap(), vec![]);
    assert!(s.dialog("c", "nobody").await.unwrap().is_none());
}

/// `newest` agrees with the whole dialog after every kind of write, read from memory or from the
/// database (a store opened afresh on the same data has nothing in memory).
async fn the_newest_entries_come_with_the_length(t: Target) {
    let s = t.open().await;
    let tail = |all: &[DialogEntry], n: usize| Recent {
        length: all.len(),
        entries: all[all.len().saturating_sub(n)..].to_vec(),
    };
    assert_eq!(s.newest("c", "nobody", 5).await.unwrap(), Recent::default());
    assert_eq!(t.open().await.newest("c", "nobody", 5).await.unwrap(), Recent::default());
    s.put_user("c", "u").await.unwrap();
    let dialog: Vec<DialogEntry> =
        (0..10).map(|i| DialogEntry { index: i, name: "A".into(), message: format!("m{i}") }).collect();
    assert!(s.set_dialog("c", "u", dialog.clone()).await.unwrap());
    s.append_exchange("c", "u", lines(&[("A", "m10"), ("B", "m11")]), 100).await.unwrap();
    let whole = entries(&s, "c", "u").await.unwrap();
    assert_eq!(whole.len(), 12);
    for n in [1, 3, 12, 50] {
        assert_eq!(s.newest("c", "u", n).await.unwrap(), tail(&whole, n), "n = {n}");
        assert_eq!(t.open().await.newest("c", "u", n).await.unwrap(), tail(&whole, n), "n = {n}, afresh");
    }
    // At least one entry is asked for, so the length is always known.
    assert_eq!(s.newest("c", "u", 0).await.unwrap(), tail(&whole, 1));
    assert!(s.reset_dialog("c", "u").await.unwrap());
    s.append_exchange("c", "u", lines(&[("A", "again")]), 100).await.unwrap();
    for recent in [s.newest("c", "u", 5).await.unwrap(), t.open().await.newest("c", "u", 5).await.unwrap()] {
        assert_eq!(
            (recent.length, recent.entries[0].index, recent.entries[0].message.as_str()),
            (1, 0, "again")
        );
    }
    // A whole dialog read for a chat is remembered, and kept coherent with the next append.
    s.append_exchange("c", "u", lines(&[("B", "more")]), 100).await.unwrap();
    assert_eq!(entries(&s, "c", "u").await.unwrap().len(), 2);
    assert!(s.delete_user("c", "u").await.unwrap());
    assert_eq!(s.newest("c", "u", 5).await.unwrap(), Recent::default());
    assert_eq!(t.open().await.newest("c", "u", 5).await.unwrap(), Recent::default());
}

/// A chat's read of a long dialog keeps only its newest entries in memory (SQLite's cache): the
/// same window again, after appends, a wider window than was kept, and the whole dialog must each
/// still be the dialog as committed.
async fn a_long_dialogs_newest_entries_stay_right_as_it_grows(t: Target) {
    let s = t.open().await;
    s.put_user("c", "u").await.unwrap();
    let dialog: Vec<DialogEntry> =
        (0..40).map(|i| DialogEntry { index: i, name: "A".into(), message: format!("m{i}") }).collect();
    assert!(s.set_dialog("c", "u", dialog).await.unwrap());
    let s = t.open().await;
    let newest = |all: &[DialogEntry], n: usize| all[all.len() - n..].to_vec();
    let mut all = entries(&t.open().await, "c", "u").await.unwrap();
    for round in 0..3 {
        let recent = s.newest("c", "u", 6).await.unwrap();
        assert_eq!((recent.length, recent.entries), (all.len(), newest(&all, 6)), "round {round}");
        let said = format!("r{round}");
        s.append_exchange("c", "u", lines(&[("A", &said), ("B", "ok")]), 1000).await.unwrap();
        all = entries(&t.open().await, "c", "u").await.unwrap();
        assert_eq!(all.len(), 42 + 2 * round);
        let wider = 8 + 4 * round;
        let recent = s.newest("c", "u", wider).await.unwrap();
        assert_eq!((recent.length, recent.entries), (all.len(), newest(&all, wider)), "round {round}, wider");
    }
    // The whole dialog is never answered from the newest entries alone.
    assert_eq!(entries(&s, "c", "u").await.unwrap(), all);
    // A dialog read whole that is too long to keep whole is kept as its newest entries.
    let long: Vec<DialogEntry> = (0..cache::LONG_DIALOG as u32 + 10)
        .map(|i| DialogEntry { index: i, name: "A".into(), message: format!("l{i}") })
        .collect();
    assert!(s.set_dialog("c", "v", long.clone()).await.is_ok_and(|set| !set));
    s.put_user("c", "v").await.unwrap();
    assert!(s.set_dialog("c", "v", long.clone()).await.unwrap());
    assert_eq!(entries(&s, "c", "v").await.unwrap(), long);
    for n in [1, 64, cache::TAIL_KEPT, cache::TAIL_KEPT + 1, long.len()] {
        let recent = s.newest("c", "v", n).await.unwrap();
        assert_eq!((recent.length, recent.entries), (long.len(), newest(&long, n)), "n = {n}");
    }
    assert_eq!(entries(&s, "c", "v").await.unwrap(), long);
    // A chat model given whole dialogs reads one whole, and its next read finds it as committed.
    let recent = s.newest("c", "v", usize::MAX).await.unwrap();
    assert_eq!((recent.length, recent.entries), (long.len(), long.clone()));
    s.append_exchange("c", "v", lines(&[("A", "more"), ("B", "ok")]), 10_000).await.unwrap();
    let recent = s.newest("c", "v", usize::MAX).await.unwrap();
    assert_eq!(recent.length, long.len() + 2);
    assert_eq!(recent.entries[..long.len()], long[..]);
    assert!(s.reset_dialog("c", "u").await.unwrap());
    assert_eq!(s.newest("c", "u", 6).await.unwrap(), Recent::default());
    assert_eq!(entries(&s, "c", "u").await.unwrap(), Vec::<DialogEntry>::new());
}

async fn pages_are_newest_modified_first(t: Target) {
    let s = t.open().await;
    for name in ["a", "b", "c"] {
        s.put_user("x", name).await.unwrap();
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
    s.append_exchange("x", "a", lines(&[("u", "m"), ("w", "r")]), 10).await.unwrap();
    assert_eq!(s.list_users("x", 0, 2).await.unwrap(), ["a", "c"]);
    assert_eq!(s.list_users("x", 1, 2).await.unwrap(), ["b"]);
    assert!(s.list_users("x", 2, 2).await.unwrap().is_empty());
    assert!(s.list_users("x", u64::MAX, 100).await.unwrap().is_empty());
}

#[tokio::test]
async fn reopening_keeps_everything_and_refuses_newer_schemas() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("d.db");
    {
        let s = DialogStore::open(&path, Durability::Full).await.unwrap();
        s.append_exchange("c", "u", lines(&[("A", "x"), ("B", "y")]), 10).await.unwrap();
    }
    let s = DialogStore::open(&path, Durability::Normal).await.unwrap();
    assert_eq!(entries(&s, "c", "u").await.unwrap().len(), 2);
    drop(s);
    let conn = Connection::open(&path).unwrap();
    conn.pragma_update(None, "user_version", 99).unwrap();
    drop(conn);
    assert!(matches!(
        DialogStore::open(&path, Durability::Normal).await,
        Err(StoreError::NewerSchema { found: 99, .. })
    ));
}

/// The rendered dialog is served from memory between writes, and every kind of write is seen by the
/// next read, per client.
async fn rendered_dialogs_follow_every_write(t: Target) {
    let s = t.open().await;
    let json = |s: DialogStore, c: &'static str, u: &'static str| async move {
        s.dialog_json(c, u).await.unwrap().map(|b| serde_json::from_slice::<serde_json::Value>(&b).unwrap())
    };
    assert_eq!(json(s.clone(), "c", "u").await, None);
    s.put_user("c", "u").await.unwrap();
    assert_eq!(json(s.clone(), "c", "u").await, Some(serde_json::json!([])));
    s.append_exchange("c", "u", lines(&[("User", "hi"), ("Waifu", "hello")]), 100).await.unwrap();
    let after_chat = serde_json::json!([
        {"index": 0, "name": "User", "message": "hi"},
        {"index": 1, "name": "Waifu", "message": "hello"}
    ]);
    assert_eq!(json(s.clone(), "c", "u").await, Some(after_chat.clone()));
    assert_eq!(json(s.clone(), "c", "u").await, Some(after_chat), "a second read, from memory");
    assert_eq!(json(s.clone(), "other", "u").await, None, "another client's user of the same id");
    s.set_dialog("c", "u", vec![DialogEntry { index: 0, name: "A".into(), message: "x".into() }])
        .await
        .unwrap();
    assert_eq!(
        json(s.clone(), "c", "u").await,
        Some(serde_json::json!([{"index": 0, "name": "A", "message": "x"}]))
    );
    s.reset_dialog("c", "u").await.unwrap();
    assert_eq!(json(s.clone(), "c", "u").await, Some(serde_json::json!([])));
    s.delete_user("c", "u").await.unwrap();
    assert_eq!(json(s.clone(), "c", "u").await, None);
}

/// Reads racing writes never leave a stale dialog in memory: once the writes are done, the dialog in
/// memory (which each chat replaces with an extended copy) is exactly what the database holds.
async fn reads_racing_writes_end_with_the_latest_dialog(t: Target) {
    let s = t.open().await;
    s.put_user("c", "u").await.unwrap();
    let writers: Vec<_> = (0..2)
        .map(|w| {
            let s = s.clone();
            tokio::spawn(async move {
                for i in 0..60 {
                    s.append_exchange("c", "u", lines(&[("User", &format!("w{w} m{i}"))]), 1000)
                        .await
                        .unwrap();
                    if w == 0 && i == 30 {
                        let mut kept = entries(&s, "c", "u").await.unwrap();
                        kept.truncate(10);
                        s.set_dialog("c", "u", kept).await.unwrap();
                    }
                }
            })
        })
        .collect();
    let readers: Vec<_> = (0..4)
        .map(|r| {
            let s = s.clone();
            tokio::spawn(async move {
                for _ in 0..200 {
                    if r % 2 == 0 {
                        s.dialog_json("c", "u").await.unwrap().unwrap();
                    } else {
                        entries(&s, "c", "u").await.unwrap();
                    }
                }
            })
        })
        .collect();
    for task in writers.into_iter().chain(readers) {
        task.await.unwrap();
    }
    let json = s.dialog_json("c", "u").await.unwrap().unwrap();
    let in_memory: Vec<DialogEntry> = serde_json::from_slice(&json).unwrap();
    assert_eq!(in_memory, entries(&s, "c", "u").await.unwrap());
    let reopened = t.open().await;
    let from_disk = entries(&reopened, "c", "u").await.unwrap();
    assert_eq!(in_memory, from_disk);
    assert!(from_disk.iter().enumerate().all(|(i, e)| e.index as usize == i), "contiguous indices");
    // The truncation keeps 10; writer 0's 29 later exchanges always follow it, and writer 1's land
    // before or after it depending on scheduling.
    assert!(from_disk.len() >= 39, "{} entries", from_disk.len());
}

/// An import creates a user with its dialog and time, and never changes an existing one.
async fn imports_never_change_an_existing_user(t: Target) {
    let s = t.open().await;
    let dialog = vec![
        DialogEntry { index: 0, name: "A".into(), message: "one".into() },
        DialogEntry { index: 1, name: "B".into(), message: "two".into() },
    ];
    assert_eq!(s.import_user("c", "u", dialog.clone(), 1_000_000).await.unwrap(), Imported::Created);
    assert_eq!(s.metadata("c", "u").await.unwrap().unwrap().modified_at, 1000);
    assert_eq!(s.import_user("c", "u", dialog.clone(), 5).await.unwrap(), Imported::Unchanged);
    assert_eq!(s.import_user("c", "u", dialog[..1].to_vec(), 5).await.unwrap(), Imported::Conflict);
    assert_eq!(entries(&s, "c", "u").await.unwrap(), dialog);
    // The next exchange follows the imported entries.
    assert_eq!(s.append_exchange("c", "u", lines(&[("A", "x"), ("B", "y")]), 10).await.unwrap(), vec![2, 3]);
}
