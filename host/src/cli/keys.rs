//! `parlance keys create|list|revoke`: the API keys in the dialog store's database.

use crate::Config;
use crate::rest::extract::MAX_CLIENT_ID_CHARS;
use clap::Subcommand;
use std::io::Write;

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

pub async fn run(config: Config, action: KeysCommand) -> anyhow::Result<()> {
    let store = crate::open_store(&config).await?;
    let mut out = std::io::stdout().lock();
    match action {
        KeysCommand::Create { name, client, json } => {
            let client = client.unwrap_or_else(|| name.clone());
            check_client(&client)?;
            if name.trim().is_empty() {
                anyhow::bail!("--name is empty");
            }
            let (secret, key) = store.create_key(name.trim(), &client).await?;
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
                    "there is no key {id:?} that is not revoked already (see `parlance keys list`)"
                );
            }
            writeln!(out, "key {id} revoked")?;
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
