//! The `[store]` section: where the dialog store (dialogs, API keys, jobs) lives and how durably it
//! writes. Its keys were `[chat]`'s once; there they still work, with a deprecation line in the log.

use super::model::{Durability, Location};
use crate::config::setting;
use crate::config::{Kind, Section, Setting};
use std::path::PathBuf;

#[derive(Clone, Debug)]
pub struct StoreConfig {
    /// SQLite file of the dialog store, unless `database_url` names a PostgreSQL database. A relative
    /// path in the file is relative to the file's folder, so that every command given the server's
    /// configuration finds the server's store wherever it runs; from `DATABASE_FILE`, to the working
    /// directory.
    pub database_file: PathBuf,
    /// `postgres://…`: the PostgreSQL database every replica shares, in place of the SQLite file.
    pub database_url: Option<String>,
    /// Most connections to PostgreSQL this process opens.
    pub database_pool_size: usize,
    /// `normal`: an acknowledged exchange survives a crash of the process; `full`: also a power loss
    /// (an fsync per commit).
    pub durability: Durability,
}

impl Default for StoreConfig {
    fn default() -> Self {
        StoreConfig {
            database_file: "dialogs.db".into(),
            database_url: None,
            database_pool_size: 16,
            durability: Durability::Normal,
        }
    }
}

impl StoreConfig {
    /// Where the dialogs live: the PostgreSQL database when a URL is set (reached with `tls`), else
    /// the SQLite file.
    pub fn location(&self, tls: rustls::ClientConfig) -> Location {
        match &self.database_url {
            Some(url) => Location::Postgres {
                url: url.clone(),
                pool_size: self.database_pool_size,
                tls: std::sync::Arc::new(tls),
            },
            None => Location::Sqlite { path: self.database_file.clone(), durability: self.durability },
        }
    }
}

impl Section for StoreConfig {
    const NAME: &'static str = "store";
    const ABOUT: &'static str = "The dialog store: dialogs, API keys and jobs";
    const FORMERLY_IN: Option<&'static str> = Some("chat");

    fn settings() -> &'static [Setting<Self>] {
        static SETTINGS: &[Setting<StoreConfig>] = &[
            setting!(
                "database_file",
                Kind::FilePath,
                |c| c.database_file,
                env = "DATABASE_FILE",
                "The SQLite dialog store (when no `database_url` is set)"
            ),
            setting!(
                "database_url",
                Kind::Url(&["postgres", "postgresql"]),
                |c| c.database_url,
                env = "DATABASE_URL",
                "`postgres://user:password@host:port/db?sslmode=…`: a PostgreSQL dialog store shared by several replicas, in place of the SQLite file"
            ),
            setting!(
                "database_pool_size",
                Kind::Int { min: 1, max: 1024 },
                |c| c.database_pool_size,
                env = "DATABASE_POOL_SIZE",
                "Most connections to PostgreSQL one process opens"
            ),
            setting!(
                "durability",
                Kind::Choice(&["normal", "full"]),
                |c| c.durability,
                "`normal`: an acknowledged exchange survives a crash of the process; `full`: also a power loss (an fsync per commit)"
            ),
        ];
        SETTINGS
    }
}
