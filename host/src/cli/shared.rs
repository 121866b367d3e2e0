//! What the commands share: starting Parlance for one command, the `--kind` parser, the services'
//! input errors in the words of the flags, and tables as columns.

use crate::plugins::api::PluginKind;
use crate::{Config, Parlance};

/// Starts Parlance for one command: without the chat service (so the dialog store is never opened),
/// and quiet about a default Redis that is not running.
pub(super) async fn start_without_chat(mut config: Config) -> crate::Result<Parlance> {
    config.cache.one_shot = true;
    let parlance = Parlance::builder().config(config).without_chat().build().await?;
    // Its calls are recorded in the usage ledger of a store that exists already (a server's); a
    // command never creates one.
    if config_has_store(parlance.config())
        && let Ok(store) = crate::open_store(parlance.config()).await
    {
        parlance.record_usage_in(store);
    }
    Ok(parlance)
}

/// Whether the configuration names a store that exists: a PostgreSQL URL, or a SQLite file that is there.
fn config_has_store(config: &Config) -> bool {
    config.store.database_url.is_some() || config.store.database_file.is_file()
}

/// `--kind`: one of the worlds, which `--help` and a wrong value's error list.
pub(super) fn plugin_kind() -> impl clap::builder::TypedValueParser<Value = PluginKind> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(PluginKind::ALL.map(PluginKind::as_str))
        .map(|kind| kind.parse::<PluginKind>().expect("each possible value is a plugin kind"))
}

/// How the services' input errors name what `--mode cli` calls `--decode_input` and `--model`.
pub(super) const FLAG_WORDS: &[(&str, &str)] = &[("`text`", "--decode_input"), ("`model`", "--model")];

/// An input error in the words of the command line: the services name the API's fields (`` `text` is
/// empty``), a command-line user typed flags (`--decode_input is empty`). `words` maps the one to the
/// other; any other error is unchanged.
pub(crate) fn in_cli_words(error: crate::Error, words: &[(&str, &str)]) -> crate::Error {
    match error {
        crate::Error::InvalidInput { field, message } => {
            let message = words.iter().fold(message, |m, (api, cli)| m.replace(api, cli));
            crate::Error::InvalidInput { field, message }
        }
        other => other,
    }
}

/// Rows as columns, each as wide as its longest cell (the last left ragged).
pub(super) fn columns(rows: &[Vec<String>]) -> String {
    let count = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..count)
        .map(|i| rows.iter().filter_map(|r| r.get(i)).map(|c| c.chars().count()).max().unwrap_or(0))
        .collect();
    let mut out = String::new();
    for row in rows {
        let cells: Vec<String> = row
            .iter()
            .enumerate()
            .map(|(i, cell)| if i + 1 == row.len() { cell.clone() } else { format!("{cell:<0$}", widths[i]) })
            .collect();
        out.push_str(cells.join("  ").trim_end());
        out.push('\n');
    }
    out
}
