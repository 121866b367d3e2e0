//! `parlance keys create|list|revoke`: the API keys in the dialog store's database.

use crate::Config;
use crate::rest::extract::MAX_CLIENT_ID_CHARS;
use crate::store::DialogStore;
use clap::Subcommand;
use std::io::Write;
use std::path::{Path, PathBuf};

#[derive(Debug, Subcommand)]
pub enum KeysCommand {
    /// Create a key bound to a client and print it (once: only its hash is stored).
    #[command(after_help = "Example:\n  parlance keys create --name mobile-app --client acme")]
    Create {
        /// What the key is for, shown by `keys list`.
        #[arg(long)]
        name: String,
        /// The client the key acts as (its users, dialogs and rate limits); default: the key's name.
        #[arg(long)]
        client: Option<String>,
        /// Print JSON (with the key) instead of text.
        #[arg(long)]
        json: bool,
    },
    /// List the keys: id, name, client, when created and revoked (never the keys themselves).
    List {
        #[arg(long)]
        json: bool,
    },
    /// Revoke a key by its id; servers stop taking it within `[auth] cache_secs`.
    Revoke {
        /// The key's id, as `keys list` shows it.
        id: String,
    },
}

/// There is no SQLite store where the configuration says. A key command does not create one: the keys
/// in it would be read by no server (a newcomer running `keys create` in another folder got exactly
/// that), and a server creates its own store on its first start.
#[derive(Debug, thiserror::Error)]
#[error(
    "there is no dialog store at {} ({}); `parlance keys` does not create one, since no server would \
     read the keys in it: start the server once (`parlance --mode api`) to create its store, or point \
     --config or DATABASE_FILE at the server's store",
    path.display(),
    config.as_ref().map_or("no configuration file".into(), |f| format!("configuration: {}", f.display()))
)]
pub struct NoStore {
    path: PathBuf,
    config: Option<PathBuf>,
}

/// The store the configuration names, which must exist already, and where it is as the user is told:
/// the SQLite file's absolute path, or the PostgreSQL URL without its password.
pub(super) async fn open_existing(config: &Config) -> anyhow::Result<(DialogStore, String)> {
    if config.store.database_url.is_none() {
        let path = &config.store.database_file;
        // A path that cannot be looked at is left to the store's open, which says why.
        if let Ok(false) = path.try_exists() {
            return Err(NoStore { path: shown(path), config: config.file.as_deref().map(shown) }.into());
        }
        return Ok((crate::open_store(config).await?, shown(path).display().to_string()));
    }
    let store = crate::open_store(config).await?;
    let location = store.location();
    Ok((store, location))
}

/// A path as the user would look it up: absolute, with `..` and links resolved where its folder exists.
fn shown(path: &Path) -> PathBuf {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_owned());
    match (absolute.parent().and_then(|dir| dir.canonicalize().ok()), absolute.file_name()) {
        (Some(dir), Some(name)) => dir.join(name),
        _ => absolute,
    }
}

pub async fn run(config: Config, action: KeysCommand) -> anyhow::Result<()> {
    let (store, location) = open_existing(&config).await?;
    let mut out = std::io::stdout().lock();
    // On stderr, so that the output stays the key (or the list) alone for a script to read.
    let mut said = std::io::stderr().lock();
    match action {
        KeysCommand::Create { name, client, json } => {
            let client = client.unwrap_or_else(|| name.clone());
            check_client(&client)?;
            if name.trim().is_empty() {
                anyhow::bail!("--name is empty");
            }
            let (secret, key) = store.create_key(name.trim(), &client).await?;
            writeln!(said, "key written to the store at {location}")?;
            if json {
                let mut value = serde_json::to_value(&key)?;
                value["key"] = secret.into();
                writeln!(out, "{}", serde_json::to_string_pretty(&value)?)?;
            } else {
                writeln!(out, "{secret}")?;
                writeln!(
                    out,
                    "key {} for client {:?} created; this is the only time it is shown",
                    key.id, key.client
                )?;
            }
        }
        KeysCommand::List { json } => {
            let keys = store.list_keys().await?;
            writeln!(said, "the keys of the store at {location}")?;
            if json {
                writeln!(out, "{}", serde_json::to_string_pretty(&keys)?)?;
                return Ok(());
            }
            let width = |f: fn(&crate::store::ApiKey) -> usize, title: &str| {
                keys.iter().map(f).max().unwrap_or(0).max(title.len())
            };
            let (id_w, name_w, client_w) = (
                width(|k| k.id.len(), "ID"),
                width(|k| k.name.len(), "NAME"),
                width(|k| k.client.len(), "CLIENT"),
            );
            writeln!(
                out,
                "{:<id_w$}  {:<name_w$}  {:<client_w$}  {:<19}  REVOKED",
                "ID", "NAME", "CLIENT", "CREATED"
            )?;
            for k in &keys {
                let created = crate::chat::routes::utc_datetime(k.created_at / 1000);
                let revoked =
                    k.revoked_at.map(|t| crate::chat::routes::utc_datetime(t / 1000)).unwrap_or_default();
                writeln!(
                    out,
                    "{:<id_w$}  {:<name_w$}  {:<client_w$}  {created}  {revoked}",
                    k.id, k.name, k.client
                )?;
            }
        }
        KeysCommand::Revoke { id } => {
            if !store.revoke_key(&id).await? {
                anyhow::bail!(
                    "the store at {location} has no key {id:?} that is not revoked already \
                     (see `parlance keys list`)"
                );
            }
            writeln!(out, "key {id} revoked")?;
            writeln!(said, "in the store at {location}")?;
        }
    }
    Ok(())
}

/// A client id is what a `current-user` header may hold: visible ASCII with inner spaces.
fn check_client(client: &str) -> anyhow::Result<()> {
    let visible = client.bytes().all(|b| b == b' ' || b == b'\t' || b.is_ascii_graphic());
    if client.trim().is_empty() || client.trim() != client || !visible || client.len() > MAX_CLIENT_ID_CHARS {
        anyhow::bail!(
            "--client must be visible ASCII (spaces inside), at most {MAX_CLIENT_ID_CHARS} characters: {client:?}"
        );
    }
    Ok(())
}
