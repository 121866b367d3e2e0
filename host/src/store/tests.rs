use super::*;
use rusqlite::Connection;

/// The dialog's entries, or `None` when there is no such user.
async fn entries(s: &DialogStore, client: &str, user: &str) -> Option<Vec<DialogEntry>> {
    s.dialog(client, user).await.unwrap().map(|d| d.entries().to_vec())
}

async fn store() -> (tempfile::TempDir, DialogStore) {
    let dir = tempfile::tempdir().unwrap();
    let store = DialogStore::open(&dir.path().join("nested/dialogs.db"), Durability::Normal).await.unwrap();
    (dir, store)
}

fn lines(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs.iter().map(|(n, m)| (n.to_string(), m.to_string())).collect()
}

#[tokio::test]
async fn users_are_per_client() {
    let (_dir, s) = store().await;
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

#[tokio::test]
async fn exchanges_append_whole_and_contiguous() {
    let (_dir, s) = store().await;
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

#[tokio::test]
async fn dialogs_are_replaced_and_reset() {
    let (_dir, s) = store().await;
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

#[tokio::test]
async fn pages_are_newest_modified_first() {
    let (_dir, s) = store().await;
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
#[tokio::test]
async fn rendered_dialogs_follow_every_write() {
    let (_dir, s) = store().await;
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
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn reads_racing_writes_end_with_the_latest_dialog() {
    let (dir, s) = store().await;
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
    let reopened =
        DialogStore::open(&dir.path().join("nested/dialogs.db"), Durability::Normal).await.unwrap();
    let from_disk = entries(&reopened, "c", "u").await.unwrap();
    assert_eq!(in_memory, from_disk);
    assert!(from_disk.iter().enumerate().all(|(i, e)| e.index as usize == i), "contiguous indices");
    // The truncation keeps 10; writer 0's 29 later exchanges always follow it, and writer 1's land
    // before or after it depending on scheduling.
    assert!(from_disk.len() >= 39, "{} entries", from_disk.len());
}
