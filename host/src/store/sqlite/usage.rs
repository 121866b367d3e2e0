//! The usage ledger in SQLite: calls and their hourly sums written by the writer thread, in the same
//! group commits as the dialogs.

use super::super::backend::{Ledger, StoreResult};
use super::super::usage::{
    UsageCall, UsageQuery, UsageRow, call_insert, hourly_sums, hourly_upsert, report_sql,
};
use super::SqliteBackend;
use super::sql::execute;
use rusqlite::{params, params_from_iter};

impl Ledger for SqliteBackend {
    fn record_usage(&self, calls: std::sync::Arc<[UsageCall]>) -> StoreResult<'_, u64> {
        Box::pin(self.write_other(move |tx| {
            let (insert, upsert) = (call_insert('?'), hourly_upsert('?'));
            let mut new = Vec::with_capacity(calls.len());
            // Prepared once for the batch rather than looked up in the statement cache per call.
            let mut insert = tx.prepare_cached(&insert)?;
            for call in calls.iter() {
                let inserted = insert.execute(params![
                    call.id,
                    call.at,
                    call.key_id,
                    call.client,
                    call.plugin,
                    call.model,
                    call.surface,
                    call.input_tokens,
                    call.output_tokens,
                    call.cost,
                    call.failure,
                    call.trace_id
                ])?;
                if inserted > 0 {
                    new.push(call);
                }
            }
            for d in hourly_sums(new.iter().copied()) {
                execute(
                    tx,
                    &upsert,
                    params![
                        d.hour,
                        d.key_id,
                        d.client,
                        d.plugin,
                        d.model,
                        d.surface,
                        d.calls,
                        d.failed,
                        d.input_tokens,
                        d.output_tokens,
                        d.unreported,
                        d.cost,
                        d.unpriced
                    ],
                )?;
            }
            Ok(new.len() as u64)
        }))
    }

    fn usage_report<'a>(&'a self, query: &'a UsageQuery) -> StoreResult<'a, Vec<UsageRow>> {
        let query = query.clone();
        Box::pin(self.read(move |c| {
            let mut args: Vec<rusqlite::types::Value> = vec![query.from.into(), query.to.into()];
            args.extend(query.key_id.clone().map(Into::into));
            args.extend(query.client.clone().map(Into::into));
            let mut stmt = c.prepare_cached(&report_sql(&query))?;
            let groups = query.group_by.len();
            let rows = stmt
                .query_map(params_from_iter(args), |r| {
                    let mut group = Vec::with_capacity(groups);
                    for (i, d) in query.group_by.iter().enumerate() {
                        let value: rusqlite::types::Value = r.get(i)?;
                        group.push((*d, text(value)));
                    }
                    let n = |i: usize| r.get::<_, i64>(groups + i);
                    Ok(UsageRow {
                        group,
                        calls: n(0)? as u64,
                        failed: n(1)? as u64,
                        input_tokens: n(2)? as u64,
                        output_tokens: n(3)? as u64,
                        unreported: n(4)? as u64,
                        cost: n(5)?,
                        unpriced: n(6)? as u64,
                    })
                })?
                .collect::<Result<Vec<_>, _>>()?;
            Ok(rows)
        }))
    }
}

/// A group's value as text: a day is its first millisecond.
fn text(value: rusqlite::types::Value) -> String {
    match value {
        rusqlite::types::Value::Text(s) => s,
        rusqlite::types::Value::Integer(n) => n.to_string(),
        _ => String::new(),
    }
}
