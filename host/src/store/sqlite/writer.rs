//! The SQLite writer: one connection on a thread of its own runs every write. Writes that arrive while
//! a commit is under way are committed together in one transaction (group commit), each under a
//! savepoint of its own, so each still succeeds or fails alone and none is answered before the
//! transaction holding it has committed.

use super::super::cache::{CacheEffect, DialogCache, UserKey};
use super::super::model::StoreError;
use super::health::WriteHealth;
use super::sql::execute;
use rusqlite::Connection;
use std::sync::{Arc, mpsc};

/// The most writes committed in one transaction: enough to absorb a burst of chats, few enough that
/// the first of them is not kept waiting long for the last.
const MAX_GROUP_COMMIT: usize = 64;

/// A write waiting for the writer thread.
pub trait Write: Send {
    fn key(&self) -> &UserKey;
    /// Runs the write's statements in the open transaction; what it returns is kept until the commit.
    fn run(&mut self, conn: &Connection) -> Result<CacheEffect, StoreError>;
    /// Answers the caller: its value once committed, or why it was not stored.
    fn finish(self: Box<Self>, outcome: Result<(), StoreError>);
}

/// A write and the channel its caller waits on.
pub struct Job<T, F> {
    pub key: UserKey,
    pub f: Option<F>,
    pub value: Option<T>,
    pub reply: tokio::sync::oneshot::Sender<Result<T, StoreError>>,
}

impl<T, F> Write for Job<T, F>
where
    T: Send,
    F: FnOnce(&Connection, &str, &str) -> Result<(T, CacheEffect), StoreError> + Send,
{
    fn key(&self) -> &UserKey {
        &self.key
    }

    fn run(&mut self, conn: &Connection) -> Result<CacheEffect, StoreError> {
        let f = self.f.take().ok_or_else(|| StoreError::Task("a write ran twice".into()))?;
        let (value, effect) = f(conn, &self.key.0, &self.key.1)?;
        self.value = Some(value);
        Ok(effect)
    }

    fn finish(self: Box<Self>, outcome: Result<(), StoreError>) {
        let Job { value, reply, .. } = *self;
        let result = outcome.and_then(|()| value.ok_or_else(|| StoreError::Task("a write never ran".into())));
        // The caller may have gone (a cancelled request); the write stands either way.
        let _ = reply.send(result);
    }
}

/// The writer thread: takes the writes queued while it was busy (up to [`MAX_GROUP_COMMIT`]) and
/// commits them in one transaction, which shares the log writes and the sync between them; between
/// two groups, `between` runs (the log's upkeep, which no write must interleave with). Ends when the
/// store is dropped and the queue is empty.
pub fn run(
    conn: &Connection,
    queue: &mpsc::Receiver<Box<dyn Write>>,
    cache: &DialogCache,
    health: &WriteHealth,
    mut between: impl FnMut(),
) {
    while let Ok(first) = queue.recv() {
        let mut group = vec![first];
        while group.len() < MAX_GROUP_COMMIT {
            match queue.try_recv() {
                Ok(job) => group.push(job),
                Err(_) => break,
            }
        }
        commit_group(conn, group, cache, health);
        between();
    }
}

/// Commits a group of writes in one IMMEDIATE transaction. A write that fails is rolled back to its
/// savepoint and answered with its error, and the others go on; if the transaction itself is lost (its
/// BEGIN or COMMIT fails, or SQLite rolled it back), every write of the group not yet answered fails.
pub fn commit_group(
    conn: &Connection,
    group: Vec<Box<dyn Write>>,
    cache: &DialogCache,
    health: &WriteHealth,
) {
    // The transaction is lost: every write not yet answered fails, and none of them is stored.
    let abandon = |done: Vec<(Box<dyn Write>, CacheEffect)>, rest: Vec<Box<dyn Write>>, why: StoreError| {
        if !conn.is_autocommit() {
            let _ = conn.execute_batch("ROLLBACK");
        }
        health.failed(&why);
        let why = Arc::new(why);
        for job in done.into_iter().map(|(job, _)| job).chain(rest) {
            job.finish(Err(StoreError::Commit(why.clone())));
        }
    };
    if let Err(e) = execute(conn, "BEGIN IMMEDIATE", []) {
        return abandon(Vec::new(), group, e);
    }
    // A write alone in its transaction needs no savepoint: its error rolls back the transaction.
    let isolate = group.len() > 1;
    let mut done: Vec<(Box<dyn Write>, CacheEffect)> = Vec::with_capacity(group.len());
    let mut pending = group.into_iter();
    while let Some(mut job) = pending.next() {
        let ran = savepoint(conn, isolate, "SAVEPOINT write").and_then(|()| {
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| job.run(conn)))
                .unwrap_or_else(|_| Err(StoreError::Task("a write panicked".into())))
        });
        match ran {
            Ok(effect) => match savepoint(conn, isolate, "RELEASE write") {
                Ok(()) => done.push((job, effect)),
                Err(e) => return abandon(done, std::iter::once(job).chain(pending).collect(), e),
            },
            Err(error) => {
                // Errors such as a full disk make SQLite roll back the whole transaction.
                let rolled_back = isolate
                    && !conn.is_autocommit()
                    && savepoint(conn, true, "ROLLBACK TO write").is_ok()
                    && savepoint(conn, true, "RELEASE write").is_ok();
                health.failed(&error);
                job.finish(Err(error));
                if !rolled_back {
                    let why = StoreError::Task("the transaction was rolled back by an earlier error".into());
                    return abandon(done, pending.collect(), why);
                }
            }
        }
    }
    if let Err(e) = execute(conn, "COMMIT", []) {
        return abandon(done, Vec::new(), e);
    }
    health.committed();
    let (jobs, effects): (Vec<_>, Vec<_>) = done.into_iter().unzip();
    cache.committed(jobs.iter().map(|job| job.key()).zip(effects));
    for job in jobs {
        job.finish(Ok(()));
    }
}

/// Runs a savepoint statement when the group's writes are isolated from each other.
fn savepoint(conn: &Connection, isolate: bool, sql: &str) -> Result<(), StoreError> {
    if isolate {
        execute(conn, sql, [])?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::{checkpoint, connect, schema};
    use super::*;
    use crate::store::model::Durability;
    use rusqlite::params;

    /// A queued write for [`commit_group`], inserting one user (or failing after inserting it), and the
    /// receiver of its answer.
    fn user_job(
        user: &'static str,
        fail: Option<StoreError>,
    ) -> (Box<dyn Write>, tokio::sync::oneshot::Receiver<Result<(), StoreError>>) {
        let (reply, answer) = tokio::sync::oneshot::channel();
        let f = move |c: &Connection, client: &str, user: &str| {
            execute(
                c,
                "INSERT INTO users (client, user_id, created_at, modified_at) VALUES (?1, ?2, 0, 0)",
                params![client, user],
            )?;
            match fail {
                Some(e) => Err(e),
                None => Ok(((), CacheEffect::Drop)),
            }
        };
        (Box::new(Job { key: ("c".into(), user.into()), f: Some(f), value: None, reply }), answer)
    }

    fn group_store() -> (tempfile::TempDir, Connection, DialogCache) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("d.db");
        let mut conn = connect(&path, Durability::Normal, checkpoint::RESTART_AT).unwrap();
        schema::migrate(&mut conn, &path).unwrap();
        (dir, conn, DialogCache::default())
    }

    fn stored_users(conn: &Connection) -> Vec<String> {
        let mut stmt = conn.prepare("SELECT user_id FROM users ORDER BY user_id").unwrap();
        stmt.query_map([], |r| r.get(0)).unwrap().collect::<Result<_, _>>().unwrap()
    }

    /// Writes committed together still succeed or fail alone: a write that fails (by its own check, or
    /// by SQLite's) leaves nothing behind, and the writes around it are stored and answered.
    #[test]
    fn a_group_commit_keeps_each_write_whole() {
        let (_dir, conn, cache) = group_store();
        let (a, a_answer) = user_job("a", None);
        let (b, b_answer) = user_job("b", Some(StoreError::DialogFull { would: 3, limit: 2 }));
        let (c, c_answer) = user_job("c", None);
        let (again, again_answer) = user_job("a", None); // the primary key refuses a second "a"
        let (d, d_answer) = user_job("d", None);
        commit_group(&conn, vec![a, b, c, again, d], &cache, &WriteHealth::default());
        assert!(conn.is_autocommit(), "the transaction is closed");
        assert_eq!(stored_users(&conn), ["a", "c", "d"]);
        assert!(matches!(a_answer.blocking_recv().unwrap(), Ok(())));
        assert!(matches!(
            b_answer.blocking_recv().unwrap(),
            Err(StoreError::DialogFull { would: 3, limit: 2 })
        ));
        assert!(matches!(c_answer.blocking_recv().unwrap(), Ok(())));
        assert!(matches!(again_answer.blocking_recv().unwrap(), Err(StoreError::Sqlite(_))));
        assert!(matches!(d_answer.blocking_recv().unwrap(), Ok(())));
        assert_eq!(cache.generation(), 1, "one commit");

        // Alone in its transaction, a failing write is rolled back with it.
        let (e, e_answer) = user_job("e", Some(StoreError::Task("refused".into())));
        commit_group(&conn, vec![e], &cache, &WriteHealth::default());
        assert!(conn.is_autocommit());
        assert_eq!(stored_users(&conn), ["a", "c", "d"]);
        assert!(matches!(e_answer.blocking_recv().unwrap(), Err(StoreError::Task(_))));
    }

    /// When the transaction cannot even begin (another connection holds the write lock past the busy
    /// timeout), every write of the group is answered with an error and none is stored.
    #[test]
    fn a_group_whose_transaction_fails_answers_every_write() {
        let (dir, conn, cache) = group_store();
        conn.busy_timeout(std::time::Duration::from_millis(10)).unwrap();
        let other = Connection::open(dir.path().join("d.db")).unwrap();
        other.execute_batch("BEGIN IMMEDIATE").unwrap();
        let (a, a_answer) = user_job("a", None);
        let (b, b_answer) = user_job("b", None);
        commit_group(&conn, vec![a, b], &cache, &WriteHealth::default());
        other.execute_batch("ROLLBACK").unwrap();
        assert!(matches!(a_answer.blocking_recv().unwrap(), Err(StoreError::Commit(_))));
        assert!(matches!(b_answer.blocking_recv().unwrap(), Err(StoreError::Commit(_))));
        assert!(stored_users(&conn).is_empty());
        assert_eq!(cache.generation(), 0, "nothing committed");
    }
}
