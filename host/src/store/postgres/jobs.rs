//! Durable batch jobs in PostgreSQL. Replicas claim items concurrently: `FOR UPDATE SKIP LOCKED`
//! lets each take rows no other claim holds at that moment, without waiting on them, so two
//! replicas never claim the same item and neither blocks the other.

use super::super::backend::{Jobs, StoreResult};
use super::super::jobs::{
    Cancelled, ClaimedItem, ItemRecord, ItemResult, JobRecord, JobStatus, NewJob, ResultColumns,
};
use super::PgBackend;
use super::dialogs::{execute, query};
use tokio_postgres::Row;

/// The columns of a [`JobRecord`], in the order [`job_record`] reads them.
const JOB_COLUMNS: &str =
    "SELECT id, client, provider, model, skip_cache, status, total_items, successful, failed,
    created_at, started_at, completed_at FROM jobs";

fn job_record(r: &Row) -> JobRecord {
    let status: String = r.get(5);
    JobRecord {
        id: r.get(0),
        client: r.get(1),
        provider: r.get(2),
        model: r.get(3),
        skip_cache: r.get(4),
        status: JobStatus::parse(&status).unwrap_or(JobStatus::Pending),
        total_items: r.get::<_, i64>(6) as u64,
        successful: r.get::<_, i64>(7) as u64,
        failed: r.get::<_, i64>(8) as u64,
        created_at: r.get(9),
        started_at: r.get(10),
        completed_at: r.get(11),
    }
}

fn item_record(r: &Row) -> ItemRecord {
    let columns = ResultColumns {
        paraphrase: r.get(3),
        provider: r.get(4),
        model: r.get(5),
        cached: r.get(6),
        candidates: r.get(9),
        attempts: r.get(10),
        error_code: r.get(7),
        error_message: r.get(8),
    };
    let result = ItemResult::from_columns(r.get(2), columns);
    ItemRecord { index: r.get::<_, i64>(0) as u64, text: r.get(1), result }
}

fn clamp(n: u64) -> i64 {
    n.min(i64::MAX as u64) as i64
}

impl Jobs for PgBackend {
    fn create_job<'a>(&'a self, job: NewJob, texts: Vec<String>) -> StoreResult<'a, ()> {
        Box::pin(async move {
            let mut conn = self.conn().await?;
            let tx = conn.transaction().await.map_err(|e| self.err(e))?;
            execute(
                &tx,
                "INSERT INTO jobs (id, client, provider, model, skip_cache, status, total_items, created_at, selection, traceparent, key_id)
                 VALUES ($1, $2, $3, $4, $5, 'pending', $6, $7, $8, $9, $10)",
                &[
                    &job.id,
                    &job.client,
                    &job.provider,
                    &job.model,
                    &job.skip_cache,
                    &(texts.len() as i64),
                    &job.created_at,
                    &job.selection,
                    &job.traceparent,
                    &job.key_id,
                ],
            )
            .await
            .map_err(|e| self.err(e))?;
            let indices: Vec<i64> = (0..texts.len() as i64).collect();
            execute(
                &tx,
                "INSERT INTO job_items (job_id, idx, text, state)
                 SELECT $1, t.idx, t.text, 'pending' FROM unnest($2::int8[], $3::text[]) AS t (idx, text)",
                &[&job.id, &indices, &texts],
            )
            .await
            .map_err(|e| self.err(e))?;
            tx.commit().await.map_err(|e| self.err(e))?;
            Ok(())
        })
    }

    fn job<'a>(&'a self, client: &'a str, id: &'a str) -> StoreResult<'a, Option<JobRecord>> {
        Box::pin(async move {
            let conn = self.conn().await?;
            let rows = query(&conn, &format!("{JOB_COLUMNS} WHERE client = $1 AND id = $2"), &[&client, &id])
                .await
                .map_err(|e| self.err(e))?;
            Ok(rows.first().map(job_record))
        })
    }

    fn job_items<'a>(&'a self, id: &'a str, offset: u64, limit: u64) -> StoreResult<'a, Vec<ItemRecord>> {
        Box::pin(async move {
            let conn = self.conn().await?;
            let rows = query(
                &conn,
                "SELECT idx, text, state, paraphrase, provider, model, cached, error_code, error_message, candidates,
                   attempts
                 FROM job_items WHERE job_id = $1 AND idx >= $2 AND idx < $3 ORDER BY idx",
                &[&id, &clamp(offset), &clamp(offset.saturating_add(limit))],
            )
            .await
            .map_err(|e| self.err(e))?;
            Ok(rows.iter().map(item_record).collect())
        })
    }

    fn list_jobs<'a>(&'a self, client: &'a str, offset: u64, limit: u64) -> StoreResult<'a, Vec<JobRecord>> {
        Box::pin(async move {
            let conn = self.conn().await?;
            let rows = query(
                &conn,
                &format!("{JOB_COLUMNS} WHERE client = $1 ORDER BY created_at DESC, id LIMIT $2 OFFSET $3"),
                &[&client, &clamp(limit), &clamp(offset)],
            )
            .await
            .map_err(|e| self.err(e))?;
            Ok(rows.iter().map(job_record).collect())
        })
    }

    fn cancel_job<'a>(&'a self, client: &'a str, id: &'a str, now: i64) -> StoreResult<'a, Cancelled> {
        Box::pin(async move {
            let conn = self.conn().await?;
            // One statement: the status it read is the one it changed, whatever runs beside it.
            let rows = query(
                &conn,
                "WITH old AS (SELECT status FROM jobs WHERE client = $1 AND id = $2 FOR UPDATE)
                 UPDATE jobs SET status = CASE WHEN old.status IN ('pending', 'processing') THEN 'cancelled' ELSE jobs.status END,
                   completed_at = CASE WHEN old.status IN ('pending', 'processing') THEN $3 ELSE jobs.completed_at END
                 FROM old WHERE jobs.client = $1 AND jobs.id = $2 RETURNING old.status",
                &[&client, &id, &now],
            )
            .await
            .map_err(|e| self.err(e))?;
            Ok(match rows.first().map(|r| r.get::<_, String>(0)).as_deref() {
                None => Cancelled::NotFound,
                Some("completed") => Cancelled::AlreadyCompleted,
                Some(_) => Cancelled::Cancelled,
            })
        })
    }

    fn claim_items<'a>(
        &'a self,
        replica: &'a str,
        n: usize,
        now: i64,
        lease_until: i64,
    ) -> StoreResult<'a, Vec<ClaimedItem>> {
        Box::pin(async move {
            let mut conn = self.conn().await?;
            let tx = conn.transaction().await.map_err(|e| self.err(e))?;
            let rows = query(
                &tx,
                "WITH picked AS (
                   SELECT i.job_id, i.idx FROM job_items i JOIN jobs j ON j.id = i.job_id
                   WHERE j.status IN ('pending', 'processing')
                     AND (i.state = 'pending' OR (i.state = 'claimed' AND i.lease_until < $1))
                   ORDER BY j.created_at, i.job_id, i.idx LIMIT $2
                   FOR UPDATE OF i SKIP LOCKED)
                 UPDATE job_items i SET state = 'claimed', claimed_by = $3, lease_until = $4
                 FROM picked p, jobs j
                 WHERE i.job_id = p.job_id AND i.idx = p.idx AND j.id = p.job_id
                 RETURNING i.job_id, i.idx, i.text, j.client, j.provider, j.model, j.skip_cache, j.created_at, j.selection, j.traceparent, j.key_id",
                &[&now, &(n as i64), &replica, &lease_until],
            )
            .await
            .map_err(|e| self.err(e))?;
            let mut claimed: Vec<(i64, ClaimedItem)> = rows
                .iter()
                .map(|r| {
                    let item = ClaimedItem {
                        job_id: r.get(0),
                        index: r.get::<_, i64>(1) as u64,
                        text: r.get(2),
                        client: r.get(3),
                        provider: r.get(4),
                        model: r.get(5),
                        skip_cache: r.get(6),
                        selection: r.get(8),
                        traceparent: r.get(9),
                        key_id: r.get(10),
                    };
                    (r.get(7), item)
                })
                .collect();
            // RETURNING has no order; the runner takes oldest jobs first.
            claimed.sort_by(|(a, x), (b, y)| (a, &x.job_id, x.index).cmp(&(b, &y.job_id, y.index)));
            let jobs: Vec<&str> = claimed.iter().map(|(_, c)| c.job_id.as_str()).collect();
            execute(
                &tx,
                "UPDATE jobs SET status = 'processing', started_at = $2 WHERE id = ANY($1) AND status = 'pending'",
                &[&jobs, &now],
            )
            .await
            .map_err(|e| self.err(e))?;
            tx.commit().await.map_err(|e| self.err(e))?;
            Ok(claimed.into_iter().map(|(_, c)| c).collect())
        })
    }

    fn renew_claims<'a>(&'a self, replica: &'a str, lease_until: i64) -> StoreResult<'a, u64> {
        Box::pin(async move {
            let conn = self.conn().await?;
            execute(
                &conn,
                "UPDATE job_items SET lease_until = $2 WHERE claimed_by = $1 AND state = 'claimed'",
                &[&replica, &lease_until],
            )
            .await
            .map_err(|e| self.err(e))
        })
    }

    fn release_claims<'a>(&'a self, replica: &'a str) -> StoreResult<'a, u64> {
        Box::pin(async move {
            let conn = self.conn().await?;
            execute(
                &conn,
                "UPDATE job_items SET state = 'pending', claimed_by = NULL, lease_until = NULL
                 WHERE claimed_by = $1 AND state = 'claimed'",
                &[&replica],
            )
            .await
            .map_err(|e| self.err(e))
        })
    }

    fn finish_item<'a>(
        &'a self,
        replica: &'a str,
        job_id: &'a str,
        index: u64,
        result: ItemResult,
        now: i64,
    ) -> StoreResult<'a, bool> {
        Box::pin(async move {
            let succeeded = result.succeeded();
            let c = result.into_columns();
            let mut conn = self.conn().await?;
            let tx = conn.transaction().await.map_err(|e| self.err(e))?;
            let stored = execute(
                &tx,
                "UPDATE job_items SET state = 'done', claimed_by = NULL, lease_until = NULL, paraphrase = $4,
                   provider = $5, model = $6, cached = $7, error_code = $8, error_message = $9, candidates = $10,
                   attempts = $11
                 WHERE job_id = $1 AND idx = $2 AND state = 'claimed' AND claimed_by = $3",
                &[
                    &job_id,
                    &clamp(index),
                    &replica,
                    &c.paraphrase,
                    &c.provider,
                    &c.model,
                    &c.cached,
                    &c.error_code,
                    &c.error_message,
                    &c.candidates,
                    &c.attempts,
                ],
            )
            .await
            .map_err(|e| self.err(e))?;
            if stored == 0 {
                return Ok(false);
            }
            // One statement counts the item and completes the job with its last one; the row lock it
            // takes orders the replicas that finish items of the same job.
            execute(
                &tx,
                "UPDATE jobs SET successful = successful + $2, failed = failed + $3,
                   status = CASE WHEN status = 'processing' AND successful + failed + 1 = total_items THEN 'completed' ELSE status END,
                   completed_at = CASE WHEN status = 'processing' AND successful + failed + 1 = total_items THEN $4 ELSE completed_at END
                 WHERE id = $1",
                &[&job_id, &i64::from(succeeded), &i64::from(!succeeded), &now],
            )
            .await
            .map_err(|e| self.err(e))?;
            tx.commit().await.map_err(|e| self.err(e))?;
            Ok(true)
        })
    }
}
