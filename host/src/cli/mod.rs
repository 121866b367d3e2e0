//! The command line: the seed's `--mode` flags (with their underscore spellings) and the plugin
//! author's `plugins` commands. Parsing lives here; each mode is a function a test can call.

pub mod batch;
pub mod evaluate;
pub(crate) mod import;
pub mod interactive;
mod keys;
pub mod kit;
mod plugins;
mod shared;
pub mod trial;
pub mod tsv;
mod usage;

pub use keys::KeysCommand;

use shared::{FLAG_WORDS, in_cli_words, plugin_kind, start_without_chat};

use crate::Config;
use crate::plugins::api::PluginKind;
use crate::{ParaphraseRequest, Parlance, Selection};
use clap::{Parser, Subcommand, ValueEnum};
use std::io::Write;
use std::path::PathBuf;

const EXAMPLES: &str = "\
Examples:
  parlance --mode cli --decode_input \"The quick brown fox jumps over the lazy dog.\"
  parlance --mode cli --decode_input \"Hello there\" --provider openrouter --model openai/gpt-4o-mini
  parlance --mode api --port 8000
  parlance plugins list
  parlance plugins check target/wasm/wasm32-wasip2/plugin/my_plugin.wasm
  parlance plugins new my-metric --kind metric --lang python
  parlance plugins test my-metric/my-metric.wasm --kind metric --pairs my-metric/pairs.jsonl
  parlance plugins test my-provider.wasm --kind provider --text \"Hello there\" --config model=m1 --allow-host http://127.0.0.1:11434";

#[derive(Debug, Parser)]
#[command(name = "parlance", version, about = "Paraphrase generation and character chat with WebAssembly plugins", after_help = EXAMPLES)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,

    /// What to run.
    #[arg(long, value_enum)]
    pub mode: Option<Mode>,

    /// The text to paraphrase (modes cli and batch).
    #[arg(long = "decode_input", visible_alias = "decode-input", value_name = "TEXT")]
    pub decode_input: Option<String>,

    /// A file with one text per line (mode batch).
    #[arg(long = "batch_input", visible_alias = "batch-input", value_name = "FILE")]
    pub batch_input: Option<PathBuf>,

    /// Where batch results go; the format follows the extension (.jsonl, .tsv, else text blocks).
    #[arg(long = "batch_output", visible_alias = "batch-output", value_name = "FILE")]
    pub batch_output: Option<PathBuf>,

    /// The original text (mode evaluate).
    #[arg(long = "evaluate_original", visible_alias = "evaluate-original", value_name = "TEXT")]
    pub evaluate_original: Option<String>,

    /// The paraphrase to judge against the original (mode evaluate).
    #[arg(long = "evaluate_paraphrase", visible_alias = "evaluate-paraphrase", value_name = "TEXT")]
    pub evaluate_paraphrase: Option<String>,

    /// A file of `source<TAB>paraphrase` lines to evaluate as a dataset (mode evaluate).
    #[arg(long = "evaluate_file", visible_alias = "evaluate-file", value_name = "FILE")]
    pub evaluate_file: Option<PathBuf>,

    /// Also compute the semantic metrics, as the API's `include_semantic` (mode evaluate; needs an
    /// embedding backend, see [embeddings]).
    #[arg(long = "include_semantic", visible_alias = "include-semantic")]
    pub include_semantic: bool,

    /// Print JSON instead of a table (mode evaluate).
    #[arg(long)]
    pub json: bool,

    /// Port of the paraphrase API (mode api); overrides API_PORT.
    #[arg(long)]
    pub port: Option<u16>,

    /// Provider id to use instead of the default.
    #[arg(long)]
    pub provider: Option<String>,

    /// Model of the provider to use instead of its default.
    #[arg(long)]
    pub model: Option<String>,

    /// Candidates to ask the provider for, ranked by the metrics (modes cli and batch); 1 to
    /// [paraphrase] max_candidates.
    #[arg(long, value_name = "N")]
    pub candidates: Option<usize>,

    /// A floor on a score of the candidates, such as semantic_similarity=0.85 (modes cli and batch;
    /// repeatable).
    #[arg(long = "min_score", visible_alias = "min-score", value_name = "NAME=VALUE", value_parser = parse_floor)]
    pub min_score: Vec<(String, f64)>,

    /// The score that ranks the candidates, descending (modes cli and batch; default diversity).
    #[arg(long = "rank_by", visible_alias = "rank-by", value_name = "SCORE")]
    pub rank_by: Option<String>,

    /// Configuration file (default: $PARLANCE_CONFIG, else ./parlance.toml if present).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,

    /// Verbose logging (debug level) on stderr.
    #[arg(long, short, global = true)]
    pub verbose: bool,
}

impl Cli {
    /// The candidates the flags ask for, as the API's fields would.
    fn selection(&self) -> Option<Selection> {
        let floors = (!self.min_score.is_empty()).then(|| self.min_score.iter().cloned().collect());
        Selection::from_fields(self.candidates, None, floors, self.rank_by.clone())
    }
}

/// `NAME=VALUE`, a floor of `--min_score`.
fn parse_floor(text: &str) -> Result<(String, f64), String> {
    let (name, value) =
        text.split_once('=').ok_or("expected NAME=VALUE, such as semantic_similarity=0.85")?;
    let value: f64 = value.trim().parse().map_err(|_| format!("{value:?} is not a number"))?;
    if name.trim().is_empty() || !value.is_finite() {
        return Err("expected NAME=VALUE with a name and a finite number".into());
    }
    Ok((name.trim().to_owned(), value))
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Mode {
    /// Paraphrase one text (--decode_input).
    Cli,
    /// Paraphrase a file (--batch_input, --batch_output) or one text (--decode_input).
    Batch,
    /// An interactive session.
    Interactive,
    /// Judge a paraphrase against its original (--evaluate_original, --evaluate_paraphrase).
    Evaluate,
    /// Serve the REST APIs.
    Api,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Inspect and develop plugins.
    Plugins {
        #[command(subcommand)]
        action: PluginsCommand,
    },
    /// Copy the original chat service's SQLite database (its `dialogs` table) into the dialog store.
    #[command(
        name = "import-original",
        after_help = "Example:\n  parlance import-original old/dialogs.db --default-client acme"
    )]
    ImportOriginal {
        /// The original service's database file.
        file: PathBuf,
        /// The client that the original's users without one (`0_no_current_user_specified`) become.
        #[arg(long, value_name = "ID", default_value_t = import::default_client())]
        default_client: String,
        /// Import a dialog whose reading is doubtful (speakers that do not alternate) as read.
        #[arg(long)]
        take_doubtful: bool,
        /// Print the summary as JSON.
        #[arg(long)]
        json: bool,
        /// Configuration file (default: $PARLANCE_CONFIG, else ./parlance.toml if present).
        #[arg(long, value_name = "FILE")]
        config: Option<PathBuf>,
    },
    /// Ask a running server whether it is healthy (`GET /health` on its API port, on loopback when it
    /// listens on every address); exits 0 when it answers 200, else 1. A container's HEALTHCHECK, where
    /// the image has no curl.
    Health {
        /// The URL to ask instead (default: http://127.0.0.1:<[server] api_port>/health).
        #[arg(long, value_name = "URL")]
        url: Option<String>,
        /// Configuration file (default: $PARLANCE_CONFIG, else ./parlance.toml if present); it names
        /// the port.
        #[arg(long, value_name = "FILE")]
        config: Option<PathBuf>,
    },
    /// Reload a running server's configuration (file, `.env`, key files) through its admin socket;
    /// exits non-zero, naming the problem, when the server refused it and kept the one in force.
    Reload {
        /// Configuration file (default: $PARLANCE_CONFIG, else ./parlance.toml if present); it names
        /// the admin socket (`[server] admin_socket`).
        #[arg(long, value_name = "FILE")]
        config: Option<PathBuf>,
    },
    /// Tokens and spend recorded in the store's usage ledger, summed per group over whole hours (every
    /// key and client: the operator's view of `GET /usage`).
    #[command(
        after_help = "Examples:\n  parlance usage --group-by model,day\n  parlance usage --from 2026-11-01 --to 2026-12-01 --group-by key --csv"
    )]
    Usage {
        /// The start: an RFC 3339 instant or a date (midnight UTC); default the first of this month.
        #[arg(long, value_name = "WHEN")]
        from: Option<String>,
        /// The end (exclusive), as --from; default now.
        #[arg(long, value_name = "WHEN")]
        to: Option<String>,
        /// Comma-separated: key, client, plugin, model, surface, day.
        #[arg(long = "group-by", value_name = "DIMENSIONS")]
        group_by: Option<String>,
        /// Only this key's calls (its id).
        #[arg(long, value_name = "ID")]
        key: Option<String>,
        /// Only this client's calls.
        #[arg(long, value_name = "CLIENT")]
        client: Option<String>,
        /// Print the report as JSON (the shape of GET /usage).
        #[arg(long, conflicts_with = "csv")]
        json: bool,
        /// Print the report as CSV.
        #[arg(long)]
        csv: bool,
        /// Configuration file (default: $PARLANCE_CONFIG, else ./parlance.toml if present).
        #[arg(long, value_name = "FILE")]
        config: Option<PathBuf>,
    },
    /// Create, list and revoke API keys (used when `[auth] api_keys = "required"`).
    Keys {
        #[command(subcommand)]
        action: KeysCommand,
        /// Configuration file (default: $PARLANCE_CONFIG, else ./parlance.toml if present).
        #[arg(long, value_name = "FILE", global = true)]
        config: Option<PathBuf>,
    },
}

#[derive(Debug, Subcommand)]
pub enum PluginsCommand {
    /// Show each configured plugin: id, kind, component, WIT version and allowed hosts.
    List {
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
        /// Configuration file (default: $PARLANCE_CONFIG, else ./parlance.toml if present).
        #[arg(long, value_name = "FILE")]
        config: Option<PathBuf>,
    },
    /// Tell whether a component fits a plugin world, and if not, what is missing.
    Check {
        /// The component to check.
        file: PathBuf,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
        /// Configuration file (default: $PARLANCE_CONFIG, else ./parlance.toml if present).
        #[arg(long, value_name = "FILE")]
        config: Option<PathBuf>,
    },
    /// Pin each plugin pulled from a registry (`oci://…`) to the digest its tag names now, pull it into
    /// the cache, and write the lock file (`[registry] lock_file`, default parlance.lock beside the
    /// configuration).
    Lock {
        /// Configuration file (default: $PARLANCE_CONFIG, else ./parlance.toml if present).
        #[arg(long, value_name = "FILE")]
        config: Option<PathBuf>,
    },
    /// Publish a component to an OCI registry as a Wasm artifact (the layout `wkg` uses), after
    /// checking that it fits a plugin world.
    #[command(
        after_help = "Example:\n  parlance plugins push my-metric.wasm oci://ghcr.io/acme/my-metric:0.1.0"
    )]
    Push {
        /// The component to publish.
        file: PathBuf,
        /// Where: oci://REGISTRY/REPOSITORY:TAG.
        reference: String,
        /// Configuration file (default: $PARLANCE_CONFIG, else ./parlance.toml if present).
        #[arg(long, value_name = "FILE")]
        config: Option<PathBuf>,
    },
    /// Write a new plugin project: source, the WIT contract, build.sh and test.sh.
    #[command(
        after_help = "Example:\n  parlance plugins new my-metric --kind metric --lang python && my-metric/build.sh && my-metric/test.sh"
    )]
    New {
        /// The plugin's name (lowercase letters, digits and `-`); also the default folder.
        name: String,
        /// The world it implements.
        #[arg(long, value_parser = plugin_kind())]
        kind: PluginKind,
        /// The language it is written in.
        #[arg(long, value_enum)]
        lang: kit::Lang,
        /// Where to write it (default: ./NAME); must not exist or be empty.
        #[arg(long)]
        dir: Option<PathBuf>,
        /// The Rust SDK to depend on by path (default: the `sdk` folder this binary was built from).
        #[arg(long, value_name = "PATH")]
        sdk: Option<PathBuf>,
    },
    /// Run a component in the real sandbox and print its results, its errors and the time of each call.
    Test(trial::TestRun),
}

impl Cli {
    /// Whether this run is the server (`--mode api`), rather than a command that runs once and exits.
    pub fn serves(&self) -> bool {
        self.command.is_none() && self.mode == Some(Mode::Api)
    }

    /// The configuration file named on the command line. `--config` names a file before a command and
    /// after `plugins list|check`; after `plugins test` it sets a plugin setting instead.
    pub fn config_file(&self) -> Option<&std::path::Path> {
        match &self.command {
            Some(Command::Plugins {
                action:
                    PluginsCommand::List { config: Some(file), .. }
                    | PluginsCommand::Check { config: Some(file), .. }
                    | PluginsCommand::Lock { config: Some(file) }
                    | PluginsCommand::Push { config: Some(file), .. },
            })
            | Some(Command::Keys { config: Some(file), .. })
            | Some(Command::Usage { config: Some(file), .. })
            | Some(Command::Reload { config: Some(file) })
            | Some(Command::Health { config: Some(file), .. })
            | Some(Command::ImportOriginal { config: Some(file), .. }) => Some(file),
            _ => self.config.as_deref(),
        }
    }
}

/// The `parlance` binary's whole run: the command line, the configuration, logging, the async
/// runtime, and the exit code. It lives in the library, so the binary compiles nothing but this
/// call: a release build does not share generic code across crates, and a binary that drove the
/// runtime itself would instantiate it all again (about 45 s of CPU on every release build).
pub fn main() -> std::process::ExitCode {
    use std::process::ExitCode;
    let cli = Cli::parse();
    if let Some(outcome) = reload_command(&cli).or_else(|| health_command(&cli)) {
        return match outcome {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {e:#}");
                ExitCode::FAILURE
            }
        };
    }
    let config = match Config::load(cli.config_file()) {
        Ok(config) => config,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    // A one-shot command's output is what its user reads, so unless a level was chosen it logs only
    // warnings and errors; the server's log is its operator's record, at info.
    let level = config.logging.level.chosen || cli.serves();
    crate::telemetry::init(level.then_some(config.logging.level.as_str()), &config.telemetry, cli.verbose);
    config.warn_deprecated();
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("error: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let outcome = runtime.block_on(run(cli, config));
    crate::telemetry::shutdown();
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(exit_code(&e))
        }
    }
}

/// `parlance reload`, run before the configuration is loaded as other commands load it: a file that
/// does not load is still the server's to refuse (and report in `/health`), so only the admin
/// socket's path is taken from it, or from `PARLANCE_ADMIN_SOCKET` and the default when it does not
/// load. `None` for any other command.
pub fn reload_command(cli: &Cli) -> Option<CliResult> {
    let Some(Command::Reload { .. }) = cli.command else { return None };
    let socket = match Config::load(cli.config_file()) {
        Ok(config) => config.server.admin_socket,
        Err(_) => std::env::var_os("PARLANCE_ADMIN_SOCKET")
            .map(PathBuf::from)
            .unwrap_or_else(|| crate::http::ServerConfig::default().admin_socket),
    };
    let asked = async {
        let generation = crate::reload::request(&socket).await?;
        writeln!(std::io::stdout().lock(), "reloaded: configuration generation {generation}")?;
        Ok(())
    };
    Some(on_one_thread(asked))
}

/// `parlance health`, run before the configuration is loaded as other commands load it, as `reload`
/// is: a server may be healthy on a file that no longer loads, so only its port is read from it (else
/// the default). `None` for any other command.
pub fn health_command(cli: &Cli) -> Option<CliResult> {
    let Some(Command::Health { url, .. }) = &cli.command else { return None };
    let url = url.clone().unwrap_or_else(|| {
        let server = Config::load(cli.config_file()).map(|c| c.server).unwrap_or_default();
        let host = match server.host {
            std::net::IpAddr::V4(ip) if ip.is_unspecified() => std::net::Ipv4Addr::LOCALHOST.into(),
            std::net::IpAddr::V6(ip) if ip.is_unspecified() => std::net::Ipv6Addr::LOCALHOST.into(),
            ip => ip,
        };
        format!("http://{}/health", std::net::SocketAddr::new(host, server.api_port))
    });
    let asked = async {
        let client = crate::upstream::Upstream::new(&crate::upstream::TlsConfig::default())?;
        let request = http::Request::get(&url).body(http_body_util::Full::new(bytes::Bytes::new()))?;
        let limits = crate::upstream::Limits::within(std::time::Duration::from_secs(5), 1 << 20);
        let response = client.send(request, limits).await?;
        let status = response.status();
        let body = response.into_body().bytes().await?;
        if !status.is_success() {
            anyhow::bail!("{url} answered {status}: {}", String::from_utf8_lossy(&body).trim());
        }
        writeln!(std::io::stdout().lock(), "healthy: {url} answered {status}")?;
        Ok(())
    };
    Some(on_one_thread(asked))
}

/// Runs a command that only asks a server something on a runtime of one thread: it starts in
/// microseconds, where the multi-threaded one other commands use spawns a worker per core.
fn on_one_thread(asked: impl std::future::Future<Output = CliResult>) -> CliResult {
    tokio::runtime::Builder::new_current_thread().enable_all().build()?.block_on(asked)
}

/// A failure of a command: printed to stderr with its cause, and the process exits non-zero.
pub type CliResult = anyhow::Result<()>;

/// The exit code of a failed command: 2 when the configuration is at fault (as for a configuration
/// that does not load at all, or one that names a store that is not there), else 1.
pub fn exit_code(error: &anyhow::Error) -> u8 {
    use crate::Error;
    // `crate::Error` wraps both transparently, so its own variant says which it is.
    let configuration = error.chain().any(|cause| {
        cause.is::<crate::config::ConfigError>()
            || cause.is::<keys::NoStore>()
            || cause.downcast_ref::<crate::plugins::LoadError>().is_some_and(|e| e.is_configuration())
            || match cause.downcast_ref::<Error>() {
                Some(Error::Config(_)) => true,
                Some(Error::Startup(e)) => e.is_configuration(),
                _ => false,
            }
    });
    if configuration { 2 } else { 1 }
}

pub async fn run(cli: Cli, config: Config) -> CliResult {
    // The plugin calls of a command are the command line's, accounted to its local client.
    crate::plugins::api::CallScope::new("cli", None).scoped(run_command(cli, config)).await
}

async fn run_command(cli: Cli, config: Config) -> CliResult {
    if let Some(Command::Keys { action, .. }) = cli.command {
        return keys::run(config, action).await;
    }
    if let Some(Command::Usage { from, to, group_by, key, client, json, csv, .. }) = cli.command {
        let request = crate::usage::ReportRequest { from, to, group_by, key, client };
        let format = match (json, csv) {
            (true, _) => usage::Format::Json,
            (_, true) => usage::Format::Csv,
            _ => usage::Format::Table,
        };
        return usage::run(config, request, format).await;
    }
    if let Some(Command::ImportOriginal { file, default_client, take_doubtful, json, .. }) = cli.command {
        let options = import::Options { default_client, take_doubtful };
        return import::run(config, &file, options, json).await;
    }
    if let Some(Command::Plugins { action }) = cli.command {
        return match action {
            PluginsCommand::List { json, .. } => plugins::list(config, json).await,
            PluginsCommand::Check { file, json, .. } => plugins::check(&config.runtime, &file, json),
            PluginsCommand::Lock { .. } => plugins::lock(&config).await,
            PluginsCommand::Push { file, reference, .. } => plugins::push(&config, &file, &reference).await,
            PluginsCommand::New { name, kind, lang, dir, sdk } => {
                let dir = dir.unwrap_or_else(|| PathBuf::from(&name));
                let project = kit::NewProject {
                    sdk: sdk.unwrap_or_else(kit::default_sdk_dir),
                    name,
                    kind,
                    lang,
                    dir: dir.clone(),
                    binary: std::env::current_exe().ok(),
                };
                let files = kit::new_project(&project)?;
                let mut out = std::io::stdout().lock();
                writeln!(out, "created {} ({} files)", dir.display(), files.len())?;
                writeln!(out, "next: {0}/build.sh && {0}/test.sh", dir.display())?;
                Ok(())
            }
            PluginsCommand::Test(run) => trial::test_component(&config.runtime, &config.tls, run).await,
        };
    }
    match cli.mode {
        Some(Mode::Cli) => mode_cli(&cli, config).await,
        Some(Mode::Batch) => mode_batch(&cli, config).await,
        Some(Mode::Interactive) => {
            let parlance = start_without_chat(config).await?;
            interactive::run(&parlance, cli.provider.clone(), cli.model.clone()).await
        }
        Some(Mode::Evaluate) => mode_evaluate(&cli, config).await,
        Some(Mode::Api) => {
            let port = cli.port.unwrap_or(config.server.api_port);
            let parlance = Parlance::start(config).await?;
            crate::reload::serve(parlance, port).await
        }
        None => anyhow::bail!(
            "choose a --mode (cli, batch, interactive, evaluate or api) or a command; see --help"
        ),
    }
}

/// The modes other than `api` only paraphrase and evaluate: they never open (or create) the dialog
/// store, so they run in a read-only directory. They run once and exit, so a default Redis that is not
/// running is only mentioned, not warned about.
async fn mode_evaluate(cli: &Cli, config: Config) -> CliResult {
    let options = crate::evaluate::EvalOptions { include_semantic: cli.include_semantic, detail: false };
    match (&cli.evaluate_file, &cli.evaluate_original, &cli.evaluate_paraphrase) {
        (Some(file), None, None) => {
            let parlance = start_without_chat(config).await?;
            let summary = evaluate::file(&parlance, file, options).await?;
            evaluate::print_summary(&summary, cli.json)?;
            if summary.pairs == 0 {
                anyhow::bail!("{} holds no pair that could be evaluated", file.display());
            }
            Ok(())
        }
        (None, Some(original), Some(paraphrase)) => {
            let parlance = start_without_chat(config).await?;
            evaluate::pair(&parlance, original, paraphrase, options, cli.json).await
        }
        _ => anyhow::bail!(
            "--mode evaluate needs --evaluate_original TEXT and --evaluate_paraphrase TEXT, or --evaluate_file FILE"
        ),
    }
}

async fn mode_batch(cli: &Cli, config: Config) -> CliResult {
    // The seed allows a single text in batch mode too: a batch of one, written as any batch is.
    let input = match (&cli.batch_input, &cli.decode_input) {
        (Some(file), None) => batch::BatchInput::File(file.clone()),
        (None, Some(text)) => batch::BatchInput::Text(text.clone()),
        (Some(_), Some(_)) => {
            anyhow::bail!("--mode batch takes --batch_input FILE or --decode_input TEXT, not both")
        }
        (None, None) => anyhow::bail!(
            "--mode batch needs --batch_input FILE (and usually --batch_output FILE), or --decode_input TEXT"
        ),
    };
    let parlance = start_without_chat(config).await?;
    let job = batch::BatchJob {
        input,
        output: cli.batch_output.clone(),
        provider: cli.provider.clone(),
        model: cli.model.clone(),
        selection: cli.selection(),
    };
    let summary = batch::run(&parlance, job).await?;
    if summary.interrupted {
        anyhow::bail!("interrupted; the finished results were written");
    }
    if summary.failed > 0 {
        anyhow::bail!("{} of {} texts failed (see above)", summary.failed, summary.total);
    }
    Ok(())
}

async fn mode_cli(cli: &Cli, config: Config) -> CliResult {
    let Some(text) = cli.decode_input.clone() else {
        anyhow::bail!("--mode cli needs --decode_input TEXT");
    };
    let parlance = start_without_chat(config).await?;
    let request = ParaphraseRequest {
        text,
        provider: cli.provider.clone(),
        model: cli.model.clone(),
        ..Default::default()
    };
    let result = match cli.selection() {
        Some(selection) => parlance.paraphrase_candidates(&request, &selection).await,
        None => parlance.paraphrase(&request).await,
    }
    .map_err(|e| in_cli_words(e, FLAG_WORDS))?;
    tracing::info!(provider = %result.provider, model = %result.model, cached = result.cached, "paraphrased");
    // A shortfall is said once, in the note, which counts what this mode prints rather than in the
    // API's words; it goes to stderr whatever the log level, since stdout holds only candidates.
    let api_words = crate::paraphrase::candidates::shortfall_warning(&result, 1);
    for warning in result.warnings.iter().flatten().filter(|w| Some(*w) != api_words.as_ref()) {
        tracing::warn!("{warning}");
    }
    if let Some(note) = batch::shortfall_note(&result) {
        eprintln!("parlance: {note}");
    }
    let mut out = std::io::stdout().lock();
    // With candidates, every one that passed the floors, best first (the best overall when none did).
    for text in batch::kept(&result) {
        writeln!(out, "{text}")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::shared::columns;
    use clap::Parser as _;

    /// Only the server logs at info by default; every other run is one-shot and quiet.
    #[test]
    fn only_the_api_mode_serves() {
        let serves = |args: &[&str]| super::Cli::parse_from([&["parlance"][..], args].concat()).serves();
        assert!(serves(&["--mode", "api"]));
        for one_shot in [
            &["--mode", "cli", "--decode_input", "Hi."][..],
            &["--mode", "batch"],
            &["--mode", "evaluate"],
            &["--mode", "interactive"],
            &["plugins", "list"],
            &["keys", "list"],
            &["import-original", "old.db"],
        ] {
            assert!(!serves(one_shot), "{one_shot:?}");
        }
    }

    #[test]
    fn columns_are_as_wide_as_their_longest_cell() {
        let rows = vec![
            vec!["ID".to_owned(), "COMPONENT".into(), "HOSTS".into()],
            vec![
                "a-very-long-plugin-id".into(),
                "/a/long/path/to/the/component.wasm".into(),
                "(none)".into(),
            ],
            vec!["x".into(), "builtin:x".into(), "https://x:443".into()],
        ];
        let text = columns(&rows);
        let starts: Vec<usize> =
            text.lines().map(|l| l.find("(none)").or(l.find("https")).or(l.find("HOSTS")).unwrap()).collect();
        assert!(starts.windows(2).all(|w| w[0] == w[1]), "{text}");
        assert!(
            text.lines().all(|l| l.find("COMPONENT").or(l.find("/a/")).or(l.find("builtin")) == Some(23)),
            "{text}"
        );
    }
}
