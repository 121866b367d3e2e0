//! `parlance keys create|list|update|revoke|client`: the API keys in the dialog store's database, with
//! their budgets and per-minute limits, and each client's own limits, checked by the same functions as
//! the admin API's (`store::keys`).

use crate::Config;
use crate::store::keys::{check_client, check_name};
use crate::store::{Budget, BudgetPeriod, BudgetsChange, DialogStore, KeyLimits, KeyUpdate, LimitsChange};
use clap::{Args, Subcommand};
use std::io::Write;
use std::path::{Path, PathBuf};

#[derive(Debug, Subcommand)]
pub enum KeysCommand {
    /// Create a key bound to a client and print it (once: only its hash is stored).
    #[command(after_help = "Example:\n  parlance keys create --name mobile-app --client acme")]
    #[command(after_help = "Examples:\n  parlance keys create --name mobile-app --client acme\n  \
        parlance keys create --name ci --client acme --budget 50/month --budget 5/day --requests-per-minute 60")]
    Create {
        /// What the key is for, shown by `keys list`.
        #[arg(long)]
        name: String,
        /// The client the key acts as (its users, dialogs and rate limits); default: the key's name.
        #[arg(long)]
        client: Option<String>,
        #[command(flatten)]
        limits: LimitArgs,
        /// Print JSON (with the key) instead of text.
        #[arg(long)]
        json: bool,
    },
    /// List the keys: id, name, client, limits, when created and revoked (never the keys themselves).
    List {
        #[arg(long)]
        json: bool,
    },
    /// Rename a key or change its limits; servers apply the change within `[auth] cache_secs`.
    #[command(
        after_help = "Example:\n  parlance keys update Ab3dEf6hIj9k --budget 80/month --clear-budget day --clear-requests-per-minute"
    )]
    Update {
        /// The key's id, as `keys list` shows it.
        id: String,
        /// A new name.
        #[arg(long)]
        name: Option<String>,
        #[command(flatten)]
        change: ChangeArgs,
        /// Print the key as JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Show a client's own limits, or change them: they hold every call of the client (with any of its
    /// keys, or by `current-user` where keys are off) beside its key's; servers apply a change within
    /// 10 seconds.
    #[command(
        after_help = "Examples:\n  parlance keys client acme --budget 500/month --tokens-per-minute 200000\n  \
        parlance keys client acme --clear-budget month"
    )]
    Client {
        /// The client, as keys and `current-user` name it.
        client: String,
        #[command(flatten)]
        change: ChangeArgs,
        /// Print the limits as JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Revoke a key by its id; servers stop taking it within `[auth] cache_secs`.
    Revoke {
        /// The key's id, as `keys list` shows it.
        id: String,
    },
}

/// The limits `keys create` and `keys update` take.
#[derive(Debug, Args)]
pub struct LimitArgs {
    /// The most the key may spend in a period, as AMOUNT/PERIOD (PERIOD: day, week, month or total),
    /// e.g. 50/month; repeatable, one per period.
    #[arg(long, value_name = "AMOUNT/PERIOD", value_parser = parse_budget)]
    budget: Vec<Budget>,
    /// Tokens per minute (at least 1).
    #[arg(long, value_name = "N")]
    tokens_per_minute: Option<u32>,
    /// Requests per minute (at least 1).
    #[arg(long, value_name = "N")]
    requests_per_minute: Option<u32>,
}

/// What `keys update` and `keys client` change: limits set, and limits removed.
#[derive(Debug, Args)]
pub struct ChangeArgs {
    #[command(flatten)]
    limits: LimitArgs,
    /// Remove the budget of this period (day, week, month or total); repeatable.
    #[arg(long, value_name = "PERIOD", value_parser = parse_period)]
    clear_budget: Vec<BudgetPeriod>,
    /// Remove the tokens-per-minute limit.
    #[arg(long, conflicts_with = "tokens_per_minute")]
    clear_tokens_per_minute: bool,
    /// Remove the requests-per-minute limit.
    #[arg(long, conflicts_with = "requests_per_minute")]
    clear_requests_per_minute: bool,
}

impl ChangeArgs {
    fn change(self) -> LimitsChange {
        let (limits, clear) = (self.limits, self.clear_budget);
        LimitsChange {
            budgets: if limits.budget.is_empty() && clear.is_empty() {
                BudgetsChange::Keep
            } else {
                BudgetsChange::Merge { set: limits.budget, clear }
            },
            tokens_per_minute: per_minute(limits.tokens_per_minute, self.clear_tokens_per_minute),
            requests_per_minute: per_minute(limits.requests_per_minute, self.clear_requests_per_minute),
        }
    }
}

fn parse_budget(text: &str) -> Result<Budget, String> {
    text.parse()
}

fn parse_period(text: &str) -> Result<BudgetPeriod, String> {
    text.parse()
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
        KeysCommand::Create { name, client, limits, json } => {
            let client = client.unwrap_or_else(|| name.clone());
            check_client(&client).map_err(|p| anyhow::anyhow!("--client {p}"))?;
            let name = check_name(&name).map_err(|p| anyhow::anyhow!("--name {p}"))?;
            let limits = KeyLimits {
                budgets: limits.budget,
                tokens_per_minute: limits.tokens_per_minute,
                requests_per_minute: limits.requests_per_minute,
            }
            .check()
            .map_err(anyhow::Error::msg)?;
            let (secret, key) = store.create_key(name, &client, limits).await?;
            writeln!(said, "key written to the store at {location}")?;
            if json {
                let mut value = serde_json::to_value(&key)?;
                value["key"] = secret.into();
                writeln!(out, "{}", serde_json::to_string_pretty(&value)?)?;
            } else {
                writeln!(out, "{secret}")?;
                writeln!(
                    out,
                    "key {} for client {:?} created{}; this is the only time it is shown",
                    key.id,
                    key.client,
                    described(&key.limits).map(|l| format!(" ({l})")).unwrap_or_default()
                )?;
            }
        }
        KeysCommand::Update { id, name, change, json } => {
            let name =
                name.as_deref().map(check_name).transpose().map_err(|p| anyhow::anyhow!("--name {p}"))?;
            let key = match store.update_key(&id, name, &change.change()).await? {
                KeyUpdate::Updated(key) => key,
                KeyUpdate::NotFound => {
                    anyhow::bail!("the store at {location} has no key {id:?} (see `parlance keys list`)")
                }
                KeyUpdate::Revoked(_) => {
                    anyhow::bail!(
                        "the key {id:?} is revoked; a revoked key is not changed (create a new one)"
                    )
                }
                KeyUpdate::Invalid(problem) => anyhow::bail!(problem),
            };
            writeln!(said, "in the store at {location}")?;
            if json {
                writeln!(out, "{}", serde_json::to_string_pretty(&key)?)?;
            } else {
                let limits = described(&key.limits).unwrap_or_else(|| "no limits".into());
                writeln!(out, "key {} ({:?}) updated: {limits}", key.id, key.name)?;
            }
        }
        KeysCommand::List { json } => {
            let keys = store.list_keys().await?;
            writeln!(said, "the keys of the store at {location}")?;
            if json {
                writeln!(out, "{}", serde_json::to_string_pretty(&keys)?)?;
                return Ok(());
            }
            let rows: Vec<[String; 6]> = keys
                .iter()
                .map(|k| {
                    [
                        k.id.clone(),
                        k.name.clone(),
                        k.client.clone(),
                        described(&k.limits).unwrap_or_else(|| "-".into()),
                        crate::chat::routes::utc_datetime(k.created_at / 1000),
                        k.revoked_at.map(|t| crate::chat::routes::utc_datetime(t / 1000)).unwrap_or_default(),
                    ]
                })
                .collect();
            let titles = ["ID", "NAME", "CLIENT", "LIMITS", "CREATED", "REVOKED"];
            let widths: Vec<usize> = (0..titles.len())
                .map(|i| {
                    rows.iter().map(|r| r[i].chars().count()).chain([titles[i].len()]).max().unwrap_or(0)
                })
                .collect();
            let line = |cells: [&str; 6]| {
                let padded: Vec<String> =
                    cells.iter().zip(&widths).map(|(c, w)| format!("{c:<w$}")).collect();
                padded.join("  ").trim_end().to_owned()
            };
            writeln!(out, "{}", line(titles))?;
            for row in &rows {
                writeln!(out, "{}", line(row.each_ref().map(String::as_str)))?;
            }
        }
        KeysCommand::Client { client, change, json } => {
            check_client(&client).map_err(|p| anyhow::anyhow!("the client {p}"))?;
            let change = change.change();
            let limits = if change == LimitsChange::default() {
                store.client_limits(&client).await?
            } else {
                store.update_client_limits(&client, &change).await?.map_err(anyhow::Error::msg)?
            };
            writeln!(said, "in the store at {location}")?;
            if json {
                let mut value = serde_json::to_value(&limits)?;
                value["client"] = client.into();
                writeln!(out, "{}", serde_json::to_string_pretty(&value)?)?;
            } else {
                let limits = described(&limits).unwrap_or_else(|| "no limits of its own".into());
                writeln!(out, "client {client:?}: {limits}")?;
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

/// A per-minute limit as `keys update` changes it: set, cleared, or kept.
fn per_minute(value: Option<u32>, clear: bool) -> Option<Option<u32>> {
    if clear { Some(None) } else { value.map(Some) }
}

/// A key's limits in one line (`50/month, 5/day, 1000 tokens/min, 60 requests/min`); `None` for none.
fn described(limits: &KeyLimits) -> Option<String> {
    let mut parts: Vec<String> =
        limits.budgets.iter().map(|b| format!("{}/{}", b.amount, b.period)).collect();
    parts.extend(limits.tokens_per_minute.map(|n| format!("{n} tokens/min")));
    parts.extend(limits.requests_per_minute.map(|n| format!("{n} requests/min")));
    (!parts.is_empty()).then(|| parts.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_are_described_in_one_line() {
        assert_eq!(described(&KeyLimits::default()), None);
        let limits = KeyLimits {
            budgets: vec!["5.50/day".parse().unwrap(), "50/month".parse().unwrap()],
            tokens_per_minute: Some(1000),
            requests_per_minute: Some(60),
        };
        assert_eq!(described(&limits).unwrap(), "5.50/day, 50/month, 1000 tokens/min, 60 requests/min");
        assert_eq!(per_minute(Some(5), false), Some(Some(5)));
        assert_eq!(per_minute(None, true), Some(None));
        assert_eq!(per_minute(None, false), None);
    }
}
