//! API keys in SQLite.

use super::super::backend::{Keys, StoreResult};
use super::super::keys::{ApiKey, KeyLimits, KeyRecord};
use super::sql::execute;
use super::{SqliteBackend, now_millis};
use rusqlite::{OptionalExtension, params};

/// The columns of a key as listings show it, in the order [`api_key`] reads them.
const LISTED: &str = "id, name, client, created_at, revoked_at, limits";

fn api_key(r: &rusqlite::Row<'_>) -> rusqlite::Result<ApiKey> {
    Ok(ApiKey {
        id: r.get(0)?,
        name: r.get(1)?,
        client: r.get(2)?,
        created_at: r.get(3)?,
        revoked_at: r.get(4)?,
        limits: limits(r, 5)?,
    })
}

fn limits(r: &rusqlite::Row<'_>, i: usize) -> rusqlite::Result<KeyLimits> {
    let text: String = r.get(i)?;
    KeyLimits::from_stored(&text)
        .map_err(|e| rusqlite::Error::FromSqlConversionFailure(i, rusqlite::types::Type::Text, e.into()))
}

impl Keys for SqliteBackend {
    fn create_key<'a>(&'a self, key: ApiKey, secret_hash: Vec<u8>) -> StoreResult<'a, ()> {
        Box::pin(self.write_other(move |tx| {
            execute(
                tx,
                "INSERT INTO api_keys (id, secret_hash, name, client, created_at, limits)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                params![key.id, secret_hash, key.name, key.client, key.created_at, key.limits.to_stored()],
            )?;
            Ok(())
        }))
    }

    fn list_keys(&self) -> StoreResult<'_, Vec<ApiKey>> {
        Box::pin(self.read(|c| {
            let mut stmt =
                c.prepare_cached(&format!("SELECT {LISTED} FROM api_keys ORDER BY created_at DESC, id"))?;
            let keys = stmt.query_map([], api_key)?.collect::<Result<Vec<_>, _>>()?;
            Ok(keys)
        }))
    }

    fn get_key<'a>(&'a self, id: &'a str) -> StoreResult<'a, Option<ApiKey>> {
        let id = id.to_owned();
        Box::pin(self.read(move |c| {
            let mut stmt = c.prepare_cached(&format!("SELECT {LISTED} FROM api_keys WHERE id = ?1"))?;
            Ok(stmt.query_row([id], api_key).optional()?)
        }))
    }

    fn update_key<'a>(&'a self, id: &'a str, name: &'a str, limits: &'a KeyLimits) -> StoreResult<'a, bool> {
        let (id, name, limits) = (id.to_owned(), name.to_owned(), limits.to_stored());
        Box::pin(self.write_other(move |tx| {
            Ok(execute(
                tx,
                "UPDATE api_keys SET name = ?2, limits = ?3 WHERE id = ?1 AND revoked_at IS NULL",
                params![id, name, limits],
            )? == 1)
        }))
    }

    fn revoke_key<'a>(&'a self, id: &'a str) -> StoreResult<'a, bool> {
        let id = id.to_owned();
        Box::pin(self.write_other(move |tx| {
            Ok(execute(
                tx,
                "UPDATE api_keys SET revoked_at = ?2 WHERE id = ?1 AND revoked_at IS NULL",
                params![id, now_millis()],
            )? == 1)
        }))
    }

    fn find_key<'a>(&'a self, id: &'a str) -> StoreResult<'a, Option<KeyRecord>> {
        let id = id.to_owned();
        Box::pin(self.read(move |c| {
            let mut stmt = c.prepare_cached(
                "SELECT secret_hash, client, revoked_at IS NOT NULL, limits FROM api_keys WHERE id = ?1",
            )?;
            Ok(stmt
                .query_row([id], |r| {
                    Ok(KeyRecord {
                        secret_hash: r.get(0)?,
                        client: r.get(1)?,
                        revoked: r.get(2)?,
                        limits: limits(r, 3)?,
                    })
                })
                .optional()?)
        }))
    }

    fn list_client_limits(&self) -> StoreResult<'_, Vec<(String, KeyLimits)>> {
        Box::pin(self.read(move |c| {
            let mut stmt = c.prepare_cached("SELECT client, limits FROM client_limits ORDER BY client")?;
            let rows = stmt.query_map([], |r| Ok((r.get(0)?, limits(r, 1)?)))?;
            Ok(rows.collect::<Result<Vec<_>, _>>()?)
        }))
    }

    fn client_limits<'a>(&'a self, client: &'a str) -> StoreResult<'a, Option<KeyLimits>> {
        let client = client.to_owned();
        Box::pin(self.read(move |c| {
            let mut stmt = c.prepare_cached("SELECT limits FROM client_limits WHERE client = ?1")?;
            Ok(stmt.query_row([client], |r| limits(r, 0)).optional()?)
        }))
    }

    fn set_client_limits<'a>(&'a self, client: &'a str, limits: &'a KeyLimits) -> StoreResult<'a, ()> {
        let (client, stored) = (client.to_owned(), (!limits.is_empty()).then(|| limits.to_stored()));
        Box::pin(self.write_other(move |tx| {
            match stored {
                Some(stored) => execute(
                    tx,
                    "INSERT INTO client_limits (client, limits) VALUES (?1, ?2)
                     ON CONFLICT (client) DO UPDATE SET limits = excluded.limits",
                    params![client, stored],
                )?,
                None => execute(tx, "DELETE FROM client_limits WHERE client = ?1", params![client])?,
            };
            Ok(())
        }))
    }
}
