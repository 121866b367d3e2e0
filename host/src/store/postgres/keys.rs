//! API keys in PostgreSQL.

use super::super::backend::{Keys, StoreResult};
use super::super::keys::{ApiKey, KeyLimits, KeyRecord};
use super::super::model::StoreError;
use super::dialogs::{execute, query};
use super::{PgBackend, now_millis};

/// The columns of a key as listings show it, in the order [`api_key`] reads them.
const LISTED: &str = "id, name, client, created_at, revoked_at, limits";

fn api_key(r: &tokio_postgres::Row) -> Result<ApiKey, StoreError> {
    Ok(ApiKey {
        id: r.get(0),
        name: r.get(1),
        client: r.get(2),
        created_at: r.get(3),
        revoked_at: r.get(4),
        limits: limits(r, 5)?,
    })
}

fn limits(r: &tokio_postgres::Row, i: usize) -> Result<KeyLimits, StoreError> {
    KeyLimits::from_stored(r.get(i)).map_err(StoreError::Unreadable)
}

impl Keys for PgBackend {
    fn create_key<'a>(&'a self, key: ApiKey, secret_hash: Vec<u8>) -> StoreResult<'a, ()> {
        Box::pin(async move {
            let conn = self.conn().await?;
            execute(
                &conn,
                "INSERT INTO api_keys (id, secret_hash, name, client, created_at, limits)
                 VALUES ($1, $2, $3, $4, $5, $6)",
                &[&key.id, &secret_hash, &key.name, &key.client, &key.created_at, &key.limits.to_stored()],
            )
            .await
            .map_err(|e| self.err(e))?;
            Ok(())
        })
    }

    fn list_keys(&self) -> StoreResult<'_, Vec<ApiKey>> {
        Box::pin(async move {
            let conn = self.conn().await?;
            let sql = format!("SELECT {LISTED} FROM api_keys ORDER BY created_at DESC, id");
            let rows = query(&conn, &sql, &[]).await.map_err(|e| self.err(e))?;
            rows.iter().map(api_key).collect()
        })
    }

    fn get_key<'a>(&'a self, id: &'a str) -> StoreResult<'a, Option<ApiKey>> {
        Box::pin(async move {
            let conn = self.conn().await?;
            let sql = format!("SELECT {LISTED} FROM api_keys WHERE id = $1");
            let rows = query(&conn, &sql, &[&id]).await.map_err(|e| self.err(e))?;
            rows.first().map(api_key).transpose()
        })
    }

    fn update_key<'a>(&'a self, id: &'a str, name: &'a str, limits: &'a KeyLimits) -> StoreResult<'a, bool> {
        Box::pin(async move {
            let conn = self.conn().await?;
            let n = execute(
                &conn,
                "UPDATE api_keys SET name = $2, limits = $3 WHERE id = $1 AND revoked_at IS NULL",
                &[&id, &name, &limits.to_stored()],
            )
            .await
            .map_err(|e| self.err(e))?;
            Ok(n == 1)
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
                "SELECT secret_hash, client, revoked_at IS NOT NULL, limits FROM api_keys WHERE id = $1",
                &[&id],
            )
            .await
            .map_err(|e| self.err(e))?;
            rows.first()
                .map(|r| {
                    Ok(KeyRecord {
                        secret_hash: r.get(0),
                        client: r.get(1),
                        revoked: r.get(2),
                        limits: limits(r, 3)?,
                    })
                })
                .transpose()
        })
    }

    fn list_client_limits(&self) -> StoreResult<'_, Vec<(String, KeyLimits)>> {
        Box::pin(async move {
            let conn = self.conn().await?;
            let rows = query(&conn, "SELECT client, limits FROM client_limits ORDER BY client", &[])
                .await
                .map_err(|e| self.err(e))?;
            rows.iter().map(|r| Ok((r.get(0), limits(r, 1)?))).collect()
        })
    }

    fn client_limits<'a>(&'a self, client: &'a str) -> StoreResult<'a, Option<KeyLimits>> {
        Box::pin(async move {
            let conn = self.conn().await?;
            let rows = query(&conn, "SELECT limits FROM client_limits WHERE client = $1", &[&client])
                .await
                .map_err(|e| self.err(e))?;
            rows.first().map(|r| limits(r, 0)).transpose()
        })
    }

    fn set_client_limits<'a>(&'a self, client: &'a str, limits: &'a KeyLimits) -> StoreResult<'a, ()> {
        Box::pin(async move {
            let conn = self.conn().await?;
            let written = if limits.is_empty() {
                execute(&conn, "DELETE FROM client_limits WHERE client = $1", &[&client]).await
            } else {
                execute(
                    &conn,
                    "INSERT INTO client_limits (client, limits) VALUES ($1, $2)
                     ON CONFLICT (client) DO UPDATE SET limits = excluded.limits",
                    &[&client, &limits.to_stored()],
                )
                .await
            };
            written.map_err(|e| self.err(e))?;
            Ok(())
        })
    }
}
