//! `parlance import-original FILE.db`: copies every user of every client from the original chat
//! service's SQLite database into the configured dialog store, reading each dialog's string form
//! back into entries and keeping the modification times. Run twice, it changes nothing more.

use crate::Config;
use crate::chat::import::{ORIGINAL_DEFAULT_CLIENT, OriginalUser, check_user, doubt, parse_dialog};
use crate::rest::extract::DEFAULT_CLIENT_ID;
use crate::store::Imported;
use rusqlite::types::Value;
use std::io::Write;
use std::path::Path;

/// What the import did, and every user it left out with the reason.
#[derive(Debug, Default, serde::Serialize)]
pub struct Summary {
    pub users_read: usize,
    pub imported: usize,
    pub entries_imported: usize,
    pub already_imported: usize,
    pub skipped: Vec<Skipped>,
}

#[derive(Debug, serde::Serialize)]
pub struct Skipped {
    pub client: String,
    pub user_id: String,
    pub reason: String,
}

pub struct Options {
    /// The client the original's `0_no_current_user_specified` becomes.
    pub default_client: String,
    /// Take a doubtful reading of a dialog instead of leaving the user out.
    pub take_doubtful: bool,
}

pub async fn run(config: Config, file: &Path, options: Options, json: bool) -> anyhow::Result<()> {
    let summary = import(&config, file, &options).await?;
    let mut out = std::io::stdout().lock();
    if json {
        writeln!(out, "{}", serde_json::to_string_pretty(&summary)?)?;
    } else {
        writeln!(
            out,
            "{} users read: {} imported ({} entries), {} already imported, {} skipped",
            summary.users_read,
            summary.imported,
            summary.entries_imported,
            summary.already_imported,
            summary.skipped.len()
        )?;
        for s in &summary.skipped {
            writeln!(out, "skipped client {:?} user {:?}: {}", s.client, s.user_id, s.reason)?;
        }
    }
    if !summary.skipped.is_empty() {
        anyhow::bail!("{} users were not imported (listed above)", summary.skipped.len());
    }
    Ok(())
}

/// Imports every user of `file` into the store `config` names. The whole file is read before the
/// store is opened, so a file that cannot be read changes nothing; then each user is imported whole
/// or left out with its reason.
pub(crate) async fn import(config: &Config, file: &Path, options: &Options) -> anyhow::Result<Summary> {
    let rows = read_original(file)?;
    let store = crate::open_store(config).await?;
    let mut summary = Summary { users_read: rows.len(), ..Summary::default() };
    for row in rows {
        let client = match row.client.as_deref().map(str::trim) {
            None | Some("") | Some(ORIGINAL_DEFAULT_CLIENT) => options.default_client.clone(),
            Some(client) => client.to_owned(),
        };
        let skip = |reason: String| Skipped { client: client.clone(), user_id: row.user_id.clone(), reason };
        // The user's id first: a user that cannot exist in Parlance is skipped for that, whatever
        // its dialog holds.
        if let Err(e) = crate::chat::check_user_id(&row.user_id) {
            summary.skipped.push(skip(e.to_string()));
            continue;
        }
        let read = match &row.dialog {
            Ok(dialog) => parse_dialog(dialog).map_err(|why| format!("its dialog cannot be read: {why}")),
            Err(why) => Err(why.clone()),
        };
        let entries = match read {
            Ok(entries) => entries,
            Err(why) => {
                summary.skipped.push(skip(why));
                continue;
            }
        };
        if let (Some(why), false) = (doubt(&entries), options.take_doubtful) {
            summary.skipped.push(skip(format!(
                "its dialog's reading is doubtful: {why} (--take-doubtful imports it as read)"
            )));
            continue;
        }
        let user = OriginalUser {
            client: client.clone(),
            user_id: row.user_id.clone(),
            entries,
            modified_at: row.modified_at,
        };
        if let Err(why) = check_user(&config.chat, &user) {
            summary.skipped.push(skip(why));
            continue;
        }
        let count = user.entries.len();
        match store.import_user(&user.client, &user.user_id, user.entries, user.modified_at).await? {
            Imported::Created => {
                summary.imported += 1;
                summary.entries_imported += count;
            }
            Imported::Unchanged => summary.already_imported += 1,
            Imported::Conflict => summary.skipped.push(skip(
                "the user exists in Parlance with another dialog, which was left as it is".into(),
            )),
        }
    }
    Ok(summary)
}

/// The client id users of the original without one get, unless the command says otherwise.
pub fn default_client() -> String {
    DEFAULT_CLIENT_ID.to_owned()
}

/// One row of the original's `dialogs` table.
pub(crate) struct Row {
    pub client: Option<String>,
    pub user_id: String,
    /// The dialog string, or why the row holds none that can be read.
    pub dialog: Result<String, String>,
    pub modified_at: i64,
}

pub(crate) fn read_original(file: &Path) -> anyhow::Result<Vec<Row>> {
    if !file.is_file() {
        anyhow::bail!("{} is not a file", file.display());
    }
    let conn = rusqlite::Connection::open_with_flags(file, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
        .map_err(|e| anyhow::anyhow!("cannot open {}: {e}", file.display()))?;
    // A damaged file can still give rows, some of them garbage (a truncated page reads as empty
    // columns): it is refused whole rather than imported in part.
    let check: Result<String, _> = conn.query_row("PRAGMA quick_check(1)", [], |r| r.get(0));
    match check {
        Ok(verdict) if verdict == "ok" => {}
        Ok(problem) => {
            let problem = problem.split_whitespace().collect::<Vec<_>>().join(" ");
            anyhow::bail!(
                "{} is damaged (SQLite's quick_check: {problem}); nothing was imported",
                file.display()
            )
        }
        Err(e) => {
            anyhow::bail!("{} cannot be read as a SQLite database: {e}; nothing was imported", file.display())
        }
    }
    let mut stmt = conn
        .prepare("SELECT current_user, user_id, dialog, last_modified_timestamp, last_modified_datetime FROM dialogs")
        .map_err(|e| anyhow::anyhow!("{} is not the original service's database (no table `dialogs` with its columns): {e}", file.display()))?;
    let rows = stmt
        .query_map([], |r| {
            Ok((
                r.get::<_, Value>(0)?,
                r.get::<_, Value>(1)?,
                r.get::<_, Value>(2)?,
                r.get::<_, Value>(3)?,
                r.get::<_, Value>(4)?,
            ))
        })?
        .collect::<Result<Vec<_>, _>>()?;
    let text = |v: Value| match v {
        Value::Text(t) => Some(t),
        Value::Integer(i) => Some(i.to_string()),
        Value::Real(f) => Some(f.to_string()),
        Value::Blob(b) => String::from_utf8(b).ok(),
        Value::Null => None,
    };
    Ok(rows
        .into_iter()
        .map(|(client, user, dialog, timestamp, datetime)| {
            let seconds = match timestamp {
                Value::Integer(i) => Some(i as f64),
                Value::Real(f) => Some(f),
                Value::Text(t) => t.trim().parse().ok(),
                _ => None,
            }
            .or_else(|| text(datetime).and_then(|d| parse_datetime(&d)));
            Row {
                client: text(client),
                user_id: text(user).unwrap_or_default(),
                // NULL is a user with no dialog yet; bytes that are not UTF-8 are not a dialog.
                dialog: match dialog {
                    Value::Null => Ok(String::new()),
                    dialog => text(dialog)
                        .ok_or_else(|| "its dialog is not text (bytes that are not UTF-8)".to_owned()),
                },
                modified_at: seconds.map_or_else(now_millis, |s| (s * 1000.0) as i64),
            }
        })
        .collect())
}

/// `YYYY-MM-DD HH:MM:SS`, read as UTC, in seconds.
fn parse_datetime(text: &str) -> Option<f64> {
    let format = time::macros::format_description!("[year]-[month]-[day] [hour]:[minute]:[second]");
    time::PrimitiveDateTime::parse(text.trim(), &format).ok().map(|t| t.assume_utc().unix_timestamp() as f64)
}

fn now_millis() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}
