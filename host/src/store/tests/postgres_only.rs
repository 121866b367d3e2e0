//! What only the PostgreSQL backend has: several replicas on one database, migrations raced by
//! replicas starting together, and a server that is out of reach.

use super::super::*;
use super::{Target, entries, lines, tls};

async fn pg_target() -> Target {
    Target::postgres().await
}

/// Three replicas' stores appending for the same users at once: every exchange whole, indices
/// contiguous, nothing lost; and each replica's next read sees what the others wrote.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn replicas_keep_indices_contiguous_and_dialogs_fresh() {
    let t = pg_target().await;
    let replicas = [t.open().await, t.open().await, t.open().await];
    for r in &replicas {
        r.put_user("c", "u").await.unwrap();
        assert_eq!(entries(r, "c", "u").await.unwrap(), vec![], "cached empty on every replica");
    }
    let mut tasks = Vec::new();
    for (n, r) in replicas.iter().enumerate() {
        for i in 0..15 {
            let r = r.clone();
            tasks.push(tokio::spawn(async move {
                let said = format!("r{n} m{i}");
                r.append_exchange("c", "u", lines(&[("User", &said), ("Waifu", &said)]), 1000).await.unwrap()
            }));
        }
    }
    for task in tasks {
        let indices = task.await.unwrap();
        assert_eq!(indices[1], indices[0] + 1, "an exchange's lines are adjacent");
    }
    for r in &replicas {
        let dialog = entries(r, "c", "u").await.unwrap();
        assert_eq!(dialog.len(), 90, "every replica sees every exchange");
        assert!(dialog.iter().enumerate().all(|(i, e)| e.index as usize == i), "contiguous");
        assert!(dialog.chunks(2).all(|pair| pair[0].message == pair[1].message), "whole exchanges");
    }
    // A write on one replica is seen by the next read on another, whatever that one has in memory.
    replicas[0].reset_dialog("c", "u").await.unwrap();
    assert_eq!(entries(&replicas[1], "c", "u").await.unwrap(), vec![]);
    replicas[2].append_exchange("c", "u", lines(&[("User", "again")]), 1000).await.unwrap();
    assert_eq!(entries(&replicas[1], "c", "u").await.unwrap().len(), 1);
    replicas[1].delete_user("c", "u").await.unwrap();
    assert!(replicas[0].dialog("c", "u").await.unwrap().is_none());
}

/// Replicas starting together migrate once, under the advisory lock, and all open.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn replicas_starting_together_migrate_once() {
    let t = pg_target().await;
    let opened = futures::future::join_all((0..6).map(|_| DialogStore::open_at(&t.location))).await;
    for store in opened {
        store.unwrap().check().await.unwrap();
    }
    let Location::Postgres { url, .. } = &t.location else { unreachable!() };
    let (client, conn) = tokio_postgres::connect(url, tokio_postgres::NoTls).await.unwrap();
    tokio::spawn(conn);
    let versions = client.query("SELECT version FROM schema_version", &[]).await.unwrap();
    assert_eq!(versions.len(), 1);
    assert_eq!(versions[0].get::<_, i64>(0), postgres::schema_version());
    // A database written by a newer build is refused, not downgraded.
    client.execute("UPDATE schema_version SET version = 99", &[]).await.unwrap();
    assert!(matches!(
        DialogStore::open_at(&t.location).await,
        Err(StoreError::NewerSchema { found: 99, .. })
    ));
}

/// A server that does not answer: the error names the URL without its password, and counts as the
/// store being unavailable (503 `store_unavailable` for a request).
#[tokio::test]
async fn an_unreachable_server_is_named_without_its_password() {
    let url = "postgres://parlance:hunter2@127.0.0.1:1/parlance".into();
    let location = Location::Postgres { url, pool_size: 2, tls: tls() };
    let Err(e) = DialogStore::open_at(&location).await else { panic!("opened a store on port 1") };
    let text = e.to_string();
    assert!(text.contains("postgres://parlance:***@127.0.0.1:1/parlance"), "{text}");
    assert!(!format!("{e:?}").contains("hunter2"), "{e:?}");
    assert_eq!(e.trouble(), Trouble::Unavailable);
}

/// The server restarted under a running store: requests meanwhile fail as unavailable, and the
/// store works again afterwards without being reopened.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restarted_server_is_reconnected_to() {
    // Its own server: stopping the shared one would fail the other tests.
    let own = super::super::test_postgres::TestPostgres::start();
    let url = own.fresh_database().await;
    let s = DialogStore::open_at(&Location::Postgres { url, pool_size: 4, tls: tls() }).await.unwrap();
    s.append_exchange("c", "u", lines(&[("A", "x")]), 10).await.unwrap();
    own.stop();
    let e = s.append_exchange("c", "u", lines(&[("A", "y")]), 10).await.unwrap_err();
    assert_eq!(e.trouble(), Trouble::Unavailable, "{e}");
    assert!(s.check().await.is_err());
    own.restart();
    s.append_exchange("c", "u", lines(&[("A", "z")]), 10).await.unwrap();
    let dialog = entries(&s, "c", "u").await.unwrap();
    assert_eq!(dialog.iter().map(|e| e.message.as_str()).collect::<Vec<_>>(), ["x", "z"]);
}
