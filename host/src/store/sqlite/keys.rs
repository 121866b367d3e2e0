//! API keys in SQLite.

use super::super::backend::{Keys, StoreResult};
use super::super::keys::{ApiKey, KeyRecord};
use super::sql::execute;
use super::{SqliteBackend, now_millis};
use rusqlite::{OptionalExtension, params};

impl Keys for SqliteBackend {
    fn create_key<'a>(&'a self, key: ApiKey, secret_hash: Vec<u8>) -> StoreResult<'a, ()> {
        Box::pin(self.write_other(move |tx| {
            execute(
                tx,
                "INSERT INTO api_keys (id, secret_hash, name, client, created_at) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![key.id, secret_hash, key.name, key.client, key.created_at],
            )?;
            Ok(())
        }))
    }

    fn list_keys(&self) -> StoreResult<'_, Vec<ApiKey>> {
        Box::pin(self.read(|c| {
            let mut stmt = c.prepare_cached(
                "SELECT id, name, client, created_at, revoked_at FROM api_keys ORDER BY created_at DESC, id",
            )?;
            let keys = stmt
                .query_map([], |r| {
                    Ok(ApiKey {
                        id: r.get(0)?,
                        name: r.get(1)?,
                        client: r.get(2)?,
                        created_at: r.get(3)?,
                        revoked_at: r.get(4)?,
                    })
                })?
                .collect::<Result<Vec<_>, _>>()?;
            Ok(keys)
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
                "SELECT secret_hash, client, revoked_at IS NOT NULL FROM api_keys WHERE id = ?1",
            )?;
            Ok(stmt
                .query_row([id], |r| {
                    Ok(KeyRecord { secret_hash: r.get(0)?, client: r.get(1)?, revoked: r.get(2)? })
                })
                .optional()?)
        }))
    }
}
