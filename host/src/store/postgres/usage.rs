//! The usage ledger in PostgreSQL, shared by the replicas: each batch of calls is one transaction,
//! its hourly sums added once per hour and group, in one order, so that replicas adding to the same
//! hours queue on the rows instead of deadlocking.

use super::super::backend::{Ledger, StoreResult};
use super::super::usage::{
    Dimension, UsageCall, UsageQuery, UsageRow, call_insert, hourly_sums, hourly_upsert, report_sql,
};
use super::PgBackend;
use super::dialogs::{execute, query};
use tokio_postgres::types::ToSql;

impl Ledger for PgBackend {
    fn record_usage(&self, calls: Vec<UsageCall>) -> StoreResult<'_, u64> {
        Box::pin(async move {
            let (insert, upsert) = (call_insert('$'), hourly_upsert('$'));
            let mut conn = self.conn().await?;
            let tx = conn.transaction().await.map_err(|e| self.err(e))?;
            let mut new = Vec::with_capacity(calls.len());
            for call in &calls {
                let (input, output) = (call.input_tokens.map(i64::from), call.output_tokens.map(i64::from));
                let inserted = execute(
                    &tx,
                    &insert,
                    &[
                        &call.id,
                        &call.at,
                        &call.key_id,
                        &call.client,
                        &call.plugin,
                        &call.model,
                        &call.surface,
                        &input,
                        &output,
                        &call.cost,
                        &call.failure,
                        &call.trace_id,
                    ],
                )
                .await
                .map_err(|e| self.err(e))?;
                if inserted > 0 {
                    new.push(call);
                }
            }
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
