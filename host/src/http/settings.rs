//! The `[server]` section: where and how the HTTP surfaces listen.

use crate::config::{Kind, Section, Setting};
use crate::setting;
use std::net::{IpAddr, Ipv4Addr};

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
        }
    }
}

impl ServerConfig {
    pub fn max_body_bytes(&self) -> usize {
        self.max_body_kb * 1024
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
        ];
        SETTINGS
    }
}
