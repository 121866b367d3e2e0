//! Reloading a running server's configuration: on `SIGHUP`, and on `parlance reload` through the admin
//! socket, the configuration file, `.env` and the key files are read again and checked as at start;
//! the next generation's plugins are compiled and its services built, sharing the dialog store, the
//! metrics, the listeners and the job runner with the generation before; only then does it take the
//! new requests, while the ones in flight (streams, job items) finish on the generation they started
//! on. A configuration that does not load, or that changes what only a restart can (the ports, the
//! store), leaves the generation in force, is logged, shows in `/health`, and fails the reload.
//!
//! The admin socket is a Unix socket readable and writable by the server's user only: whoever may
//! signal the process may reload it, and no one else, with no credential of its own to manage and
//! nothing reachable from the network (an HTTP route would need an operator credential that API keys,
//! which each act as a client, are not).

use crate::http::generations::{ConfigurationStatus, Generations};
use crate::paraphrase::jobs::JobService;
use crate::{Config, Parlance};
use std::path::Path;
use std::sync::{Arc, Mutex};

/// Serves both REST APIs as `Parlance::serve` does, reloading the configuration on `SIGHUP` and on
/// `parlance reload` until Ctrl-C or SIGTERM.
pub async fn serve(first: Parlance, api_port: u16) -> anyhow::Result<()> {
    let state = first.server_state()?;
    let generations = Generations::new(crate::http::app(state.clone()));
    let socket = first.config().server.admin_socket.clone();
    let accountant = first.spool_usage();
    let reloader = Reloader::new(first, generations.clone(), state.configuration.clone(), state.jobs.clone());
    let holds_socket = reloader.listen(&socket);
    let served = crate::http::serve(state, generations, api_port).await;
    accountant.close().await;
    if holds_socket {
        let _ = std::fs::remove_file(&socket);
    }
    served
}

/// The server's generations and how to make the next one.
pub struct Reloader {
    current: Mutex<Parlance>,
    generations: Generations,
    status: Arc<ConfigurationStatus>,
    /// The one job runner, which takes each item's services from the generation in force.
    jobs: Arc<JobService>,
    /// One reload at a time: a second waits for the first, then reads the files again.
    one_at_a_time: tokio::sync::Mutex<()>,
}

impl Reloader {
    pub fn new(
        first: Parlance,
        generations: Generations,
        status: Arc<ConfigurationStatus>,
        jobs: Arc<JobService>,
    ) -> Arc<Reloader> {
        Arc::new(Reloader {
            current: Mutex::new(first),
            generations,
            status,
            jobs,
            one_at_a_time: tokio::sync::Mutex::new(()),
        })
    }

    /// Reads the configuration again and puts it in force; the new generation's number, or why the
    /// one in force stays.
    pub async fn reload(&self) -> Result<u64, String> {
        let _one = self.one_at_a_time.lock().await;
        match self.next().await {
            Ok(next) => {
                let generation = self.status.advanced();
                tracing::info!(generation, "configuration reloaded");
                *self.current.lock().unwrap_or_else(|e| e.into_inner()) = next;
                Ok(generation)
            }
            Err(reason) => {
                tracing::error!("configuration not reloaded, the one in force stays: {reason}");
                self.status.refused(reason.clone());
                Err(reason)
            }
        }
    }

    async fn next(&self) -> Result<Parlance, String> {
        let current = self.current.lock().unwrap_or_else(|e| e.into_inner()).clone();
        let config = Config::load(current.config().file.as_deref()).map_err(|e| e.to_string())?;
        restart_only(current.config(), &config)?;
        config.warn_deprecated();
        let next = current.next_generation(config).await.map_err(|e| e.to_string())?;
        let state = next
            .app_state_with(self.jobs.clone(), self.status.clone())
            .ok_or("the server has no chat service")?;
        let router = crate::http::app(state);
        // From here on nothing can fail: the job runner and the listeners switch together.
        self.jobs.use_paraphrase(next.paraphraser().clone());
        self.generations.install(router);
        crate::telemetry::set_log_level(&next.config().logging.level);
        Ok(next)
    }

    /// Reloads on every `SIGHUP` and every request on the admin socket at `socket`, until the process
    /// ends. True when this server holds the socket (and so removes it when it stops).
    pub fn listen(self: &Arc<Self>, socket: &Path) -> bool {
        #[cfg(unix)]
        {
            let reloader = self.clone();
            tokio::spawn(async move {
                use tokio::signal::unix::{SignalKind, signal};
                let Ok(mut hangups) = signal(SignalKind::hangup()) else {
                    tracing::warn!("cannot listen for SIGHUP; `parlance reload` still reloads");
                    return;
                };
                while hangups.recv().await.is_some() {
                    let _ = reloader.reload().await;
                }
            });
            match admin_socket(socket) {
                Ok(listener) => {
                    let reloader = self.clone();
                    tokio::spawn(async move { reloader.serve_admin(listener).await });
                    true
                }
                Err(e) => {
                    tracing::warn!(
                        "no admin socket at {} ({e}): `parlance reload` cannot reach this server; SIGHUP still reloads",
                        socket.display()
                    );
                    false
                }
            }
        }
        #[cfg(not(unix))]
        {
            let _ = socket;
            false
        }
    }

    /// Answers each connection's `reload` with `ok <generation>` or `error <reason>`, one line each.
    #[cfg(unix)]
    async fn serve_admin(self: Arc<Self>, listener: tokio::net::UnixListener) {
        use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt};
        loop {
            let Ok((stream, _)) = listener.accept().await else { continue };
            let reloader = self.clone();
            tokio::spawn(async move {
                let (read, mut write) = stream.into_split();
                let mut line = String::new();
                let mut read = tokio::io::BufReader::new(read.take(64));
                if read.read_line(&mut line).await.is_err() {
                    return;
                }
                let answer = match line.trim() {
                    "reload" => match reloader.reload().await {
                        Ok(generation) => format!("ok {generation}\n"),
                        Err(reason) => format!("error {}\n", reason.replace('\n', "; ")),
                    },
                    other => format!("error unknown command {other:?}: the one command is `reload`\n"),
                };
                let _ = write.write_all(answer.as_bytes()).await;
            });
        }
    }
}

/// Binds the admin socket, readable and writable by this user only. A socket file that nothing
/// answers on is left from a server that ended without removing it, and is replaced; one that answers
/// belongs to a running server, and is left alone.
#[cfg(unix)]
fn admin_socket(path: &Path) -> std::io::Result<tokio::net::UnixListener> {
    use std::os::unix::fs::PermissionsExt;
    if path.exists() {
        if std::os::unix::net::UnixStream::connect(path).is_ok() {
            return Err(std::io::Error::new(std::io::ErrorKind::AddrInUse, "another server answers on it"));
        }
        std::fs::remove_file(path)?;
    }
    let listener = tokio::net::UnixListener::bind(path)?;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))?;
    Ok(listener)
}

/// What is bound or opened once for the life of the process, so that only a restart can change it:
/// the setting (`section.key`) or whole section it is, as the reference pages name it, the name a
/// refusal gives it, and whether two configurations differ on it. The manual's settings page reads
/// its "reload" column from this table, so the two cannot disagree.
pub type RestartOnly = (&'static str, &'static str, fn(&Config, &Config) -> bool);

pub const RESTART_ONLY: &[RestartOnly] = &[
    ("server.host", "[server] host (API_HOST)", |a, b| a.server.host != b.server.host),
    ("server.api_port", "[server] api_port (API_PORT)", |a, b| a.server.api_port != b.server.api_port),
    ("server.chat_port", "[server] chat_port (PORT)", |a, b| a.server.chat_port != b.server.chat_port),
    ("server.admin_socket", "[server] admin_socket (PARLANCE_ADMIN_SOCKET)", |a, b| {
        a.server.admin_socket != b.server.admin_socket
    }),
    ("store.database_file", "[store] database_file (DATABASE_FILE)", |a, b| {
        a.store.database_file != b.store.database_file
    }),
    ("store.database_url", "[store] database_url (DATABASE_URL)", |a, b| {
        a.store.database_url != b.store.database_url
    }),
    ("store.database_pool_size", "[store] database_pool_size", |a, b| {
        a.store.database_pool_size != b.store.database_pool_size
    }),
    ("store.durability", "[store] durability", |a, b| a.store.durability != b.store.durability),
    // The accountant, with its ledger writer and spool, is one for the life of the process.
    ("usage.record", "[usage] record (PARLANCE_USAGE_RECORD)", |a, b| a.usage.record != b.usage.record),
    ("usage.commit_wait_ms", "[usage] commit_wait_ms", |a, b| {
        a.usage.commit_wait_ms != b.usage.commit_wait_ms
    }),
    ("usage.spool", "[usage] spool (PARLANCE_USAGE_SPOOL)", |a, b| a.usage.spool != b.usage.spool),
    ("jobs", "[jobs]", |a, b| format!("{:?}", a.jobs) != format!("{:?}", b.jobs)),
    ("telemetry", "[telemetry] and the OTEL_* variables", |a, b| a.telemetry != b.telemetry),
];

/// Refuses a configuration that changes what only a restart can, naming each such setting (never its
/// value, which for the store may hold a password).
fn restart_only(current: &Config, next: &Config) -> Result<(), String> {
    let changed: Vec<&str> = RESTART_ONLY
        .iter()
        .filter(|(_, _, differs)| differs(current, next))
        .map(|(_, name, _)| *name)
        .collect();
    if changed.is_empty() { Ok(()) } else { Err(format!("only a restart can change {}", changed.join(", "))) }
}

/// `parlance reload`: asks the server whose admin socket is at `socket` to reload, and says what it
/// answered; an error when it refused or cannot be reached.
#[cfg(unix)]
pub async fn request(socket: &Path) -> anyhow::Result<u64> {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt};
    let mut stream = tokio::net::UnixStream::connect(socket).await.map_err(|e| {
        anyhow::anyhow!("cannot reach a server at its admin socket {}: {e}", socket.display())
    })?;
    stream.write_all(b"reload\n").await?;
    let mut answer = String::new();
    tokio::io::BufReader::new(stream).read_line(&mut answer).await?;
    match answer.trim().split_once(' ') {
        Some(("ok", generation)) => Ok(generation.parse()?),
        Some(("error", reason)) => anyhow::bail!("the server kept its configuration: {reason}"),
        _ => anyhow::bail!("the server answered {answer:?}"),
    }
}

#[cfg(not(unix))]
pub async fn request(_socket: &Path) -> anyhow::Result<u64> {
    anyhow::bail!("`parlance reload` needs a Unix admin socket; send the server SIGHUP instead")
}
