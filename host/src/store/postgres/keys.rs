//! API keys in PostgreSQL.

use super::super::backend::{Keys, StoreResult};
use super::super::keys::{ApiKey, KeyRecord};
use super::dialogs::{execute, query};
use super::{PgBackend, now_millis};

impl Keys for PgBackend {
    fn create_key<'a>(&'a self, key: ApiKey, secret_hash: Vec<u8>) -> StoreResult<'a, ()> {
        Box::pin(async move {
            let conn = self.conn().await?;
            execute(
                &conn,
                "INSERT INTO api_keys (id, secret_hash, name, client, created_at) VALUES ($1, $2, $3, $4, $5)",
                &[&key.id, &secret_hash, &key.name, &key.client, &key.created_at],
            )
            .await
            .map_err(|e| self.err(e))?;
            Ok(())
        })
    }

    fn list_keys(&self) -> StoreResult<'_, Vec<ApiKey>> {
        Box::pin(async move {
            let conn = self.conn().await?;
            let rows = query(
                &conn,
                "SELECT id, name, client, created_at, revoked_at FROM api_keys ORDER BY created_at DESC, id",
                &[],
            )
            .await
            .map_err(|e| self.err(e))?;
            Ok(rows
                .iter()
                .map(|r| ApiKey {
                    id: r.get(0),
                    name: r.get(1),
                    client: r.get(2),
                    created_at: r.get(3),
                    revoked_at: r.get(4),
                })
                .collect())
        })
    }

    fn revoke_key<'a>(&'a self, id: &'a str) -> StoreResult<'a, bool> {
        Box::pin(async move {
            let conn = self.conn().await?;
            let n = execute(
                &conn,
                "UPDATE api_keys SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL",
                &[&id, &now_millis()],
            )
            .await
            .map_err(|e| self.err(e))?;
            Ok(n == 1)
        })
    }

    fn find_key<'a>(&'a self, id: &'a str) -> StoreResult<'a, Option<KeyRecord>> {
        Box::pin(async move {
            let conn = self.conn().await?;
            let rows = query(
                &conn,
                "SELECT secret_hash, client, revoked_at IS NOT NULL FROM api_keys WHERE id = $1",
                &[&id],
            )
            .await
            .map_err(|e| self.err(e))?;
            Ok(rows.first().map(|r| KeyRecord { secret_hash: r.get(0), client: r.get(1), revoked: r.get(2) }))
        })
    }
}
