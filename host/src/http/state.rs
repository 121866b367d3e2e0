//! What the routes need ([`AppState`]): each domain's service, which a handler takes as its substate,
//! and for the operations routes the plugin host, the metrics, the server's settings and the key check.

use super::admin::AdminToken;
use super::auth::Auth;
use super::generations::ConfigurationStatus;
use super::settings::ServerConfig;
use crate::chat::ChatService;
use crate::evaluate::EvaluateService;
use crate::metrics::Metrics;
use crate::openai::OpenAiService;
use crate::paraphrase::ParaphraseService;
use crate::paraphrase::jobs::JobService;
use crate::plugins::PluginHost;
use crate::store::DialogStore;
use crate::usage::Ledger;
use axum::extract::FromRef;
use std::sync::Arc;

/// What the routes need: each domain's service (handlers take theirs as a substate), and for the
/// operations routes the plugin host and the metrics.
#[derive(Clone)]
pub struct AppState {
    pub paraphrase: Arc<ParaphraseService>,
    pub jobs: Arc<JobService>,
    pub evaluate: Arc<EvaluateService>,
    pub chat: Arc<ChatService>,
    pub openai: Arc<OpenAiService>,
    pub plugins: Arc<PluginHost>,
    pub metrics: Arc<Metrics>,
    /// Usage reports.
    pub ledger: Arc<Ledger>,
    /// The generation in force and the last reload, shared by every generation.
    pub configuration: Arc<ConfigurationStatus>,
    pub server: Arc<ServerConfig>,
    /// The key check, when the operator requires API keys.
    pub auth: Option<Arc<Auth>>,
    /// The admin credential, when `[admin]` gives one (the admin API is off without it).
    pub admin: Option<Arc<AdminToken>>,
    /// The store of the API keys, for the admin API.
    pub keys: DialogStore,
}

impl FromRef<AppState> for DialogStore {
    fn from_ref(state: &AppState) -> Self {
        state.keys.clone()
    }
}

impl FromRef<AppState> for Arc<ParaphraseService> {
    fn from_ref(state: &AppState) -> Self {
        state.paraphrase.clone()
    }
}

impl FromRef<AppState> for Arc<JobService> {
    fn from_ref(state: &AppState) -> Self {
        state.jobs.clone()
    }
}

impl FromRef<AppState> for Arc<EvaluateService> {
    fn from_ref(state: &AppState) -> Self {
        state.evaluate.clone()
    }
}

impl FromRef<AppState> for Arc<ChatService> {
    fn from_ref(state: &AppState) -> Self {
        state.chat.clone()
    }
}

impl FromRef<AppState> for Arc<Ledger> {
    fn from_ref(state: &AppState) -> Self {
        state.ledger.clone()
    }
}

impl FromRef<AppState> for Arc<OpenAiService> {
    fn from_ref(state: &AppState) -> Self {
        state.openai.clone()
    }
}
