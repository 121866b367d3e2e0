//! The statements every concern runs, from the connection's statement cache, their errors as the
//! store's.

use super::super::model::StoreError;
use rusqlite::Connection;

/// Runs one statement from the connection's statement cache: every statement of the store is one of
/// a few fixed texts, so none is parsed more than once per connection.
pub(super) fn execute(c: &Connection, sql: &str, params: impl rusqlite::Params) -> Result<usize, StoreError> {
    Ok(c.prepare_cached(sql)?.execute(params)?)
}

/// [`execute`] for a statement answering one row.
pub(super) fn query_row<T>(
    c: &Connection,
    sql: &str,
    params: impl rusqlite::Params,
    f: impl FnOnce(&rusqlite::Row<'_>) -> rusqlite::Result<T>,
) -> Result<T, StoreError> {
    Ok(c.prepare_cached(sql)?.query_row(params, f)?)
}
