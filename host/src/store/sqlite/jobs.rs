//! Durable batch jobs in SQLite: one writer, so a claim needs no row locks.

use super::super::backend::{Jobs, StoreResult};
use super::super::jobs::{
    Cancelled, ClaimedItem, ItemRecord, ItemResult, JobRecord, JobStatus, NewJob, ResultColumns,
};
use super::SqliteBackend;
use super::sql::execute;
use rusqlite::{OptionalExtension, params};

impl Jobs for SqliteBackend {
    fn create_job<'a>(&'a self, job: NewJob, texts: Vec<String>) -> StoreResult<'a, ()> {
        Box::pin(self.write_other(move |tx| {
            execute(
                tx,
                "INSERT INTO jobs (id, client, provider, model, skip_cache, status, total_items, created_at, selection, traceparent, key_id)
                 VALUES (?1, ?2, ?3, ?4, ?5, 'pending', ?6, ?7, ?8, ?9, ?10)",
                params![
                    job.id,
                    job.client,
                    job.provider,
                    job.model,
                    job.skip_cache,
                    texts.len() as i64,
                    job.created_at,
                    job.selection,
                    job.traceparent,
                    job.key_id
                ],
            )?;
            let mut insert = tx.prepare_cached(
                "INSERT INTO job_items (job_id, idx, text, state) VALUES (?1, ?2, ?3, 'pending')",
            )?;
            for (i, text) in texts.iter().enumerate() {
                insert.execute(params![job.id, i as i64, text])?;
            }
            Ok(())
        }))
    }

    fn job<'a>(&'a self, client: &'a str, id: &'a str) -> StoreResult<'a, Option<JobRecord>> {
        let (client, id) = (client.to_owned(), id.to_owned());
        Box::pin(self.read(move |c| {
            let mut stmt = c.prepare_cached(&format!("{JOB_COLUMNS} WHERE client = ?1 AND id = ?2"))?;
            Ok(stmt.query_row(params![client, id], job_record).optional()?)
        }))
    }

    fn job_items<'a>(&'a self, id: &'a str, offset: u64, limit: u64) -> StoreResult<'a, Vec<ItemRecord>> {
        let id = id.to_owned();
        Box::pin(self.read(move |c| {
            let mut stmt = c.prepare_cached(
                "SELECT idx, text, state, paraphrase, provider, model, cached, error_code, error_message, candidates,
                   attempts
                 FROM job_items WHERE job_id = ?1 AND idx >= ?2 AND idx < ?3",
            )?;
            let mut items = stmt
                .query_map(
                    params![id, offset as i64, offset.saturating_add(limit).min(i64::MAX as u64) as i64],
                    |r| {
                        let columns = ResultColumns {
                            paraphrase: r.get(3)?,
                            provider: r.get(4)?,
                            model: r.get(5)?,
                            cached: r.get(6)?,
                            candidates: r.get(9)?,
                            attempts: r.get(10)?,
                            error_code: r.get(7)?,
                            error_message: r.get(8)?,
                        };
                        let result = ItemResult::from_columns(&r.get::<_, String>(2)?, columns);
                        Ok(ItemRecord { index: r.get::<_, i64>(0)? as u64, text: r.get(1)?, result })
                    },
                )?
                .collect::<Result<Vec<_>, _>>()?;
            items.sort_unstable_by_key(|i| i.index);
            Ok(items)
        }))
    }

    fn list_jobs<'a>(&'a self, client: &'a str, offset: u64, limit: u64) -> StoreResult<'a, Vec<JobRecord>> {
        let client = client.to_owned();
        Box::pin(self.read(move |c| {
            let mut stmt = c.prepare_cached(&format!(
                "{JOB_COLUMNS} WHERE client = ?1 ORDER BY created_at DESC, id LIMIT ?2 OFFSET ?3"
            ))?;
            let jobs = stmt
                .query_map(
                    params![client, limit.min(i64::MAX as u64) as i64, offset.min(i64::MAX as u64) as i64],
                    job_record,
                )?
                .collect::<Result<Vec<_>, _>>()?;
            Ok(jobs)
        }))
    }

    fn cancel_job<'a>(&'a self, client: &'a str, id: &'a str, now: i64) -> StoreResult<'a, Cancelled> {
        let (client, id) = (client.to_owned(), id.to_owned());
        Box::pin(self.write_other(move |tx| {
            let status: Option<String> = tx
                .prepare_cached("SELECT status FROM jobs WHERE client = ?1 AND id = ?2")?
                .query_row(params![client, id], |r| r.get(0))
                .optional()?;
            Ok(match status.as_deref() {
                None => Cancelled::NotFound,
                Some("completed") => Cancelled::AlreadyCompleted,
                Some("cancelled") => Cancelled::Cancelled,
                Some(_) => {
                    execute(
                        tx,
                        "UPDATE jobs SET status = 'cancelled', completed_at = ?2 WHERE id = ?1",
                        params![id, now],
                    )?;
                    Cancelled::Cancelled
                }
            })
        }))
    }

    fn claim_items<'a>(
        &'a self,
        replica: &'a str,
        n: usize,
        now: i64,
        lease_until: i64,
    ) -> StoreResult<'a, Vec<ClaimedItem>> {
        let replica = replica.to_owned();
        Box::pin(async move {
            // An idle runner asks every half second. Asked through the writer, each question would be
            // a commit, and a store that never goes a moment without one never has its log
            // truncated (see `checkpoint.rs`): a read first, and the writer only when there is work.
            let work = self
                .read(move |c| {
                    let mut any = c.prepare_cached(
                        "SELECT 1 FROM job_items i JOIN jobs j ON j.id = i.job_id
                         WHERE j.status IN ('pending', 'processing')
                           AND (i.state = 'pending' OR (i.state = 'claimed' AND i.lease_until < ?1))
                         LIMIT 1",
                    )?;
                    Ok(any.exists([now])?)
                })
                .await?;
            if !work {
                return Ok(Vec::new());
            }
            self.write_other(move |tx| {
            let mut pick = tx.prepare_cached(
                "SELECT i.job_id, i.idx, i.text, j.client, j.provider, j.model, j.skip_cache, j.selection, j.traceparent, j.key_id
                 FROM job_items i JOIN jobs j ON j.id = i.job_id
                 WHERE j.status IN ('pending', 'processing')
                   AND (i.state = 'pending' OR (i.state = 'claimed' AND i.lease_until < ?1))
                 ORDER BY j.created_at, i.job_id, i.idx LIMIT ?2",
            )?;
            let items = pick
                .query_map(params![now, n as i64], |r| {
                    Ok(ClaimedItem {
                        job_id: r.get(0)?,
                        index: r.get::<_, i64>(1)? as u64,
                        text: r.get(2)?,
                        client: r.get(3)?,
                        provider: r.get(4)?,
                        model: r.get(5)?,
                        skip_cache: r.get(6)?,
                        selection: r.get(7)?,
                        traceparent: r.get(8)?,
                        key_id: r.get(9)?,
                    })
                })?
                .collect::<Result<Vec<_>, _>>()?;
            let mut claim = tx.prepare_cached(
                "UPDATE job_items SET state = 'claimed', claimed_by = ?3, lease_until = ?4 WHERE job_id = ?1 AND idx = ?2",
            )?;
            let mut start = tx.prepare_cached(
                "UPDATE jobs SET status = 'processing', started_at = ?2 WHERE id = ?1 AND status = 'pending'",
            )?;
            for item in &items {
                claim.execute(params![item.job_id, item.index as i64, replica, lease_until])?;
                start.execute(params![item.job_id, now])?;
            }
            Ok(items)
        })
        .await
        })
    }

    fn renew_claims<'a>(&'a self, replica: &'a str, lease_until: i64) -> StoreResult<'a, u64> {
        let replica = replica.to_owned();
        Box::pin(self.write_other(move |tx| {
            Ok(execute(
                tx,
                "UPDATE job_items SET lease_until = ?2 WHERE claimed_by = ?1 AND state = 'claimed'",
                params![replica, lease_until],
            )? as u64)
        }))
    }

    fn release_claims<'a>(&'a self, replica: &'a str) -> StoreResult<'a, u64> {
        let replica = replica.to_owned();
        Box::pin(self.write_other(move |tx| {
            Ok(execute(
                tx,
                "UPDATE job_items SET state = 'pending', claimed_by = NULL, lease_until = NULL
                 WHERE claimed_by = ?1 AND state = 'claimed'",
                params![replica],
            )? as u64)
        }))
    }

    fn finish_item<'a>(
        &'a self,
        replica: &'a str,
        job_id: &'a str,
        index: u64,
        result: ItemResult,
        now: i64,
    ) -> StoreResult<'a, bool> {
        let (replica, job_id) = (replica.to_owned(), job_id.to_owned());
        Box::pin(self.write_other(move |tx| {
            let succeeded = result.succeeded();
            let c = result.into_columns();
            let stored = execute(
                tx,
                "UPDATE job_items SET state = 'done', claimed_by = NULL, lease_until = NULL, paraphrase = ?4,
                   provider = ?5, model = ?6, cached = ?7, error_code = ?8, error_message = ?9, candidates = ?10,
                   attempts = ?11
                 WHERE job_id = ?1 AND idx = ?2 AND state = 'claimed' AND claimed_by = ?3",
                params![
                    job_id,
                    index as i64,
                    replica,
                    c.paraphrase,
                    c.provider,
                    c.model,
                    c.cached,
                    c.error_code,
                    c.error_message,
                    c.candidates,
                    c.attempts
                ],
            )?;
            if stored == 0 {
                return Ok(false);
            }
            execute(
                tx,
                "UPDATE jobs SET successful = successful + ?2, failed = failed + ?3 WHERE id = ?1",
                params![job_id, i64::from(succeeded), i64::from(!succeeded)],
            )?;
            execute(
                tx,
                "UPDATE jobs SET status = 'completed', completed_at = ?2
                 WHERE id = ?1 AND status = 'processing' AND successful + failed = total_items",
                params![job_id, now],
            )?;
            Ok(true)
        }))
    }
}

/// The columns of a [`JobRecord`], in the order [`job_record`] reads them.
const JOB_COLUMNS: &str =
    "SELECT id, client, provider, model, skip_cache, status, total_items, successful, failed,
    created_at, started_at, completed_at FROM jobs";

fn job_record(r: &rusqlite::Row<'_>) -> rusqlite::Result<JobRecord> {
    let status: String = r.get(5)?;
    Ok(JobRecord {
        id: r.get(0)?,
        client: r.get(1)?,
        provider: r.get(2)?,
        model: r.get(3)?,
        skip_cache: r.get(4)?,
        status: JobStatus::parse(&status).unwrap_or(JobStatus::Pending),
        total_items: r.get::<_, i64>(6)? as u64,
        successful: r.get::<_, i64>(7)? as u64,
        failed: r.get::<_, i64>(8)? as u64,
        created_at: r.get(9)?,
        started_at: r.get(10)?,
        completed_at: r.get(11)?,
    })
}
