//! The `[server]` section: where and how the HTTP surfaces listen.

use crate::config::setting;
use crate::config::{Kind, Section, Setting};
use std::net::{IpAddr, Ipv4Addr};
use std::path::PathBuf;

#[derive(Clone, Debug)]
pub struct ServerConfig {
    /// Bind address of both HTTP surfaces.
    pub host: IpAddr,
    /// Port of the paraphrase API (`--port` overrides it).
    pub api_port: u16,
    /// Port of the chat API.
    pub chat_port: u16,
    /// Adds the cause chain of 5xx errors to responses and logs.
    pub debug: bool,
    /// Origins allowed by CORS; `["*"]` allows any, empty disables CORS headers.
    pub cors_origins: Vec<String>,
    /// Largest request body accepted, in KiB.
    pub max_body_kb: usize,
    /// Seconds a client has to send a request's headers.
    pub header_timeout_secs: u64,
    /// Seconds a client has to send a request's body.
    pub body_timeout_secs: u64,
    /// Seconds an idle keep-alive connection stays open.
    pub idle_timeout_secs: u64,
    /// Connections open at once (lowered to what the process's open-file limit allows).
    pub max_connections: usize,
    /// The Unix socket `parlance reload` asks a running server through.
    pub admin_socket: PathBuf,
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            host: IpAddr::V4(Ipv4Addr::UNSPECIFIED),
            api_port: 8000,
            chat_port: 5000,
            debug: false,
            cors_origins: vec!["*".into()],
            // Large enough for 10 000 evaluation pairs in one batch.
            max_body_kb: 10 * 1024,
            header_timeout_secs: 15,
            body_timeout_secs: 60,
            idle_timeout_secs: 60,
            max_connections: 10_000,
            admin_socket: "parlance.sock".into(),
        }
    }
}

impl ServerConfig {
    pub fn max_body_bytes(&self) -> usize {
        self.max_body_kb * 1024
    }

    /// What each listener enforces, with the connection cap lowered to the open-file limit.
    pub fn listener_limits(&self) -> super::listener::Limits {
        use std::time::Duration;
        super::listener::Limits {
            header_timeout: Duration::from_secs(self.header_timeout_secs),
            body_timeout: Duration::from_secs(self.body_timeout_secs),
            idle_timeout: Duration::from_secs(self.idle_timeout_secs),
            max_connections: super::listener::connection_cap(self.max_connections),
        }
    }
}

impl Section for ServerConfig {
    const NAME: &'static str = "server";
    const ABOUT: &'static str = "The HTTP surfaces";

    fn settings() -> &'static [Setting<Self>] {
        static SETTINGS: &[Setting<ServerConfig>] = &[
            setting!("host", Kind::Ip, |c| c.host, env = "API_HOST", "Bind address of both HTTP surfaces"),
            setting!(
                "api_port",
                Kind::Int { min: 0, max: 65535 },
                |c| c.api_port,
                env = "API_PORT",
                "Port of the paraphrase API (`--port` overrides it)"
            ),
            setting!(
                "chat_port",
                Kind::Int { min: 0, max: 65535 },
                |c| c.chat_port,
                env = "PORT",
                "Port of the chat API"
            ),
            setting!(
                "debug",
                Kind::Bool,
                |c| c.debug,
                env = "API_DEBUG",
                "Adds an error's cause chain to 5xx responses and logs; off because it can leak internals"
            ),
            setting!(
                "cors_origins",
                Kind::List,
                |c| c.cors_origins,
                env = "CORS_ORIGINS",
                "Allowed CORS origins, comma-separated in the variable (`*` for any; empty disables CORS)"
            ),
            setting!(
                "max_body_kb",
                Kind::Int { min: 1, max: 1 << 20 },
                |c| c.max_body_kb,
                "Largest request body accepted, in KiB"
            ),
            setting!(
                "header_timeout_secs",
                Kind::Int { min: 1, max: 3600 },
                |c| c.header_timeout_secs,
                "Seconds a client has to send a request's headers; a slower client is disconnected"
            ),
            setting!(
                "body_timeout_secs",
                Kind::Int { min: 1, max: 3600 },
                |c| c.body_timeout_secs,
                "Seconds a client has to send a request's body (408 after)"
            ),
            setting!(
                "idle_timeout_secs",
                Kind::Int { min: 1, max: 3600 },
                |c| c.idle_timeout_secs,
                "Seconds an idle keep-alive connection stays open"
            ),
            setting!(
                "max_connections",
                Kind::Int { min: 16, max: 1_000_000 },
                |c| c.max_connections,
                "Connections open at once, lowered to the open-file limit less 256; at the cap the longest-idle ones are closed"
            ),
            setting!(
                "admin_socket",
                Kind::FilePath,
                |c| c.admin_socket,
                env = "PARLANCE_ADMIN_SOCKET",
                "The Unix socket (owner-only) through which `parlance reload` reloads a running server; one per replica"
            ),
        ];
        SETTINGS
    }
}
