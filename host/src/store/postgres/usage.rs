//! The usage ledger in PostgreSQL, shared by the replicas: each batch of calls is one transaction,
//! its hourly sums added once per hour and group, in one order, so that replicas adding to the same
//! hours queue on the rows instead of deadlocking.

use super::super::backend::{Ledger, StoreResult};
use super::super::usage::{
    Dimension, UsageCall, UsageQuery, UsageRow, hourly_sums, hourly_upsert, report_sql,
};
use super::PgBackend;
use super::dialogs::{execute, query};
use tokio_postgres::types::ToSql;

/// A batch of calls in one statement, each column an array with a row per call, as SQLite's
/// `call_insert` records them one by one; the ids of the calls that were new come back.
const CALLS_INSERT: &str = "INSERT INTO usage_calls (id, at, key_id, client, plugin, model, surface, \
     input_tokens, output_tokens, cost, failure, trace_id) \
     SELECT * FROM UNNEST($1::text[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[], \
     $7::text[], $8::bigint[], $9::bigint[], $10::bigint[], $11::text[], $12::text[]) \
     ON CONFLICT (id) DO NOTHING RETURNING id";

/// One field of every call, as a column for [`CALLS_INSERT`].
fn column<'a, T>(calls: &'a [UsageCall], field: impl Fn(&'a UsageCall) -> T) -> Vec<T> {
    calls.iter().map(field).collect()
}

impl Ledger for PgBackend {
    fn record_usage(&self, calls: std::sync::Arc<[UsageCall]>) -> StoreResult<'_, u64> {
        Box::pin(async move {
            let upsert = hourly_upsert('$');
            let mut conn = self.conn().await?;
            let tx = conn.transaction().await.map_err(|e| self.err(e))?;
            // The batch as one statement, its columns as arrays: one round trip, not one per call.
            let ids = column(&calls, |c| c.id.as_str());
            let at = column(&calls, |c| c.at);
            let keys = column(&calls, |c| c.key_id.as_deref());
            let clients = column(&calls, |c| c.client.as_str());
            let plugins = column(&calls, |c| c.plugin.as_str());
            let models = column(&calls, |c| c.model.as_deref());
            let surfaces = column(&calls, |c| c.surface.as_str());
            let input = column(&calls, |c| c.input_tokens.map(i64::from));
            let output = column(&calls, |c| c.output_tokens.map(i64::from));
            let cost = column(&calls, |c| c.cost);
            let failures = column(&calls, |c| c.failure.as_deref());
            let traces = column(&calls, |c| c.trace_id.as_deref());
            let inserted = query(
                &tx,
                CALLS_INSERT,
                &[
                    &ids, &at, &keys, &clients, &plugins, &models, &surfaces, &input, &output, &cost,
                    &failures, &traces,
                ],
            )
            .await
            .map_err(|e| self.err(e))?;
            // Each new id once, should a batch hold a call twice (as one row per call does in SQLite).
            let mut inserted: std::collections::HashSet<&str> =
                inserted.iter().map(|r| r.get::<_, &str>(0)).collect();
            let new: Vec<&UsageCall> = calls.iter().filter(|c| inserted.remove(c.id.as_str())).collect();
            for d in hourly_sums(new.iter().copied()) {
                execute(
                    &tx,
                    &upsert,
                    &[
                        &d.hour,
                        &d.key_id,
                        &d.client,
                        &d.plugin,
                        &d.model,
                        &d.surface,
                        &d.calls,
                        &d.failed,
                        &d.input_tokens,
                        &d.output_tokens,
                        &d.unreported,
                        &d.cost,
                        &d.unpriced,
                    ],
                )
                .await
                .map_err(|e| self.err(e))?;
            }
            tx.commit().await.map_err(|e| self.err(e))?;
            Ok(new.len() as u64)
        })
    }

    fn usage_report<'a>(&'a self, q: &'a UsageQuery) -> StoreResult<'a, Vec<UsageRow>> {
        Box::pin(async move {
            let sql = numbered(&report_sql(q));
            let mut args: Vec<&(dyn ToSql + Sync)> = vec![&q.from, &q.to];
            if let Some(key) = &q.key_id {
                args.push(key);
            }
            if let Some(client) = &q.client {
                args.push(client);
            }
            let conn = self.conn().await?;
            let rows = query(&conn, &sql, &args).await.map_err(|e| self.err(e))?;
            let groups = q.group_by.len();
            Ok(rows
                .iter()
                .map(|r| {
                    let group = q
                        .group_by
                        .iter()
                        .enumerate()
                        .map(|(i, d)| match d {
                            Dimension::Day => (*d, r.get::<_, i64>(i).to_string()),
                            _ => (*d, r.get::<_, String>(i)),
                        })
                        .collect();
                    let n = |i: usize| r.get::<_, i64>(groups + i);
                    UsageRow {
                        group,
                        calls: n(0) as u64,
                        failed: n(1) as u64,
                        input_tokens: n(2) as u64,
                        output_tokens: n(3) as u64,
                        unreported: n(4) as u64,
                        cost: n(5),
                        unpriced: n(6) as u64,
                    }
                })
                .collect())
        })
    }
}

/// `?` placeholders as PostgreSQL's `$1`, `$2`, …
fn numbered(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len() + 8);
    let mut n = 0;
    for c in sql.chars() {
        if c == '?' {
            n += 1;
            out.push_str(&format!("${n}"));
        } else {
            out.push(c);
        }
    }
    out
}
