//! A request's way along its chain: which member to call next (the circuits decide which are
//! skipped, and when all are open the one that reopens first is tried anyway), whether a failure is
//! retried on the same member or moves on, and the attempts the answer reports.

use super::breaker::{Admission, Breakers};
use super::outcome::{self, Attempt, Retry};
use super::settings::FallbackConfig;
use super::shared::{POLL_EVERY, SharedCircuits};
use crate::error::Error;
use crate::metrics::Metrics;
use crate::plugins::api::PluginKind;
use crate::plugins::{Plugin, PluginHost};
use crate::redis_link::RedisLink;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The chain a request asks for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum ChainChoice {
    /// The chain the operator configured for the request's provider or chat model.
    #[default]
    Configured,
    /// No fallback: the request's provider or chat model alone (`"fallbacks": false`).
    Off,
    /// The request's own chain after its primary (`"fallbacks": ["gemini", "offline"]`), where
    /// `[fallback] request_chains` allows it.
    Listed(Vec<String>),
}

/// `fallbacks` as a request body carries it: `false`, `true`, or a list of plugin ids.
#[derive(serde::Deserialize, utoipa::ToSchema)]
#[serde(untagged)]
pub enum FallbacksField {
    /// `false`: the requested plugin alone; `true`: its configured chain.
    Flag(bool),
    /// The request's own chain after the requested plugin.
    Ids(Vec<String>),
}

impl<'de> serde::Deserialize<'de> for ChainChoice {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error as _;
        let field = FallbacksField::deserialize(d)
            .map_err(|_| D::Error::custom("`fallbacks` must be true, false or a list of plugin ids"))?;
        Ok(match field {
            FallbacksField::Flag(true) => ChainChoice::Configured,
            FallbacksField::Flag(false) => ChainChoice::Off,
            FallbacksField::Ids(ids) => ChainChoice::Listed(ids),
        })
    }
}

/// The fallback policy of the process: its settings, every plugin's circuit, and the metrics of
/// fallbacks. One is shared by the paraphrase, chat and OpenAI services.
pub struct Chains {
    config: FallbackConfig,
    breakers: Breakers,
    metrics: Arc<Metrics>,
}

impl Chains {
    pub fn new(config: FallbackConfig, ids: impl IntoIterator<Item = String>, metrics: Arc<Metrics>) -> Self {
        let breakers = Breakers::new(&config, ids, metrics.clone());
        Chains { config, breakers, metrics }
    }

    pub fn config(&self) -> &FallbackConfig {
        &self.config
    }

    pub fn breakers(&self) -> &Breakers {
        &self.breakers
    }

    /// Shares the circuits with every replica through `link` (see `shared.rs`): a task sends this
    /// replica's openings and closings, and reads the others' every [`POLL_EVERY`].
    pub fn share_through(self: &Arc<Self>, link: RedisLink) {
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        if !self.breakers.tell(tx) {
            return;
        }
        let shared = SharedCircuits::new(link);
        let ids = self.breakers.ids();
        let chains = Arc::downgrade(self);
        tokio::spawn(async move {
            let mut poll = tokio::time::interval(POLL_EVERY);
            poll.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tokio::select! {
                    change = rx.recv() => match change {
                        Some(change) => shared.tell(&change).await,
                        None => return,
                    },
                    _ = poll.tick() => {
                        // What this replica decided goes out before it reads the others' back.
                        while let Ok(change) = rx.try_recv() {
                            shared.tell(&change).await;
                        }
                        let Some(chains) = chains.upgrade() else { return };
                        if let Ok(open) = shared.open(&ids).await {
                            let now = Instant::now();
                            for (id, remaining) in open {
                                chains.breakers.opened_elsewhere(&id, remaining, now);
                            }
                        }
                    }
                }
            }
        });
    }

    /// The chain a request is served along: `primary`, then its configured fallbacks, none, or the
    /// request's own where `[fallback] request_chains` allows it (members of the primary's kind, each
    /// once).
    pub fn chain(
        &self,
        plugins: &PluginHost,
        primary: Arc<Plugin>,
        choice: &ChainChoice,
    ) -> Result<Vec<Arc<Plugin>>, Error> {
        let ids = match choice {
            ChainChoice::Configured => primary.spec().fallbacks.clone(),
            ChainChoice::Off => Vec::new(),
            ChainChoice::Listed(_) if !self.config.request_chains => {
                return Err(Error::invalid(
                    "fallbacks",
                    "this server does not let a request name its own chain ([fallback] request_chains); send \
                     `\"fallbacks\": false` or leave `fallbacks` out",
                ));
            }
            ChainChoice::Listed(ids) => ids.clone(),
        };
        let kind = primary.kind();
        let mut chain = vec![primary];
        for id in ids {
            let Some(member) = plugins.get_of_kind(&id, kind) else {
                return Err(Error::UnknownPlugin {
                    kind: kind_name(kind),
                    id,
                    known: plugins.of_kind(kind).map(|p| p.id().to_owned()).collect(),
                });
            };
            if chain.iter().any(|m| m.id() == member.id()) {
                return Err(Error::invalid(
                    "fallbacks",
                    format!("`fallbacks` names `{id}`, which is already in the chain"),
                ));
            }
            chain.push(member.clone());
        }
        Ok(chain)
    }

    /// The way along `chain` (the primary first) for one request that starts now.
    pub fn plan(self: &Arc<Self>, chain: Vec<Arc<Plugin>>) -> Plan {
        let now = Instant::now();
        let kind = chain.first().map_or("provider", |p| kind_name(p.kind()));
        Plan {
            chains: self.clone(),
            kind,
            chain,
            next: 0,
            current: None,
            skipped: Vec::new(),
            attempts: Vec::new(),
            last_error: None,
            deadline: now + Duration::from_millis(self.config.deadline_ms),
            member_started: now,
            retries: 0,
            probing: false,
        }
    }
}

/// One request's way along its chain. Call [`Plan::next_member`] for the member to call, then
/// [`Plan::retry`] and [`Plan::failed`] on its failure, or [`Plan::served`] on its answer.
pub struct Plan {
    chains: Arc<Chains>,
    kind: &'static str,
    chain: Vec<Arc<Plugin>>,
    /// The position of the next member to consider.
    next: usize,
    /// The position of the member being called.
    current: Option<usize>,
    /// The members an open circuit skipped, with when each reopens.
    skipped: Vec<(usize, Instant)>,
    attempts: Vec<Attempt>,
    last_error: Option<Error>,
    deadline: Instant,
    member_started: Instant,
    retries: u32,
    /// Whether the member being called holds its circuit's probe.
    probing: bool,
}

impl Plan {
    /// The next member to call, or `None` when the chain is spent or the deadline has passed.
    pub fn next_member(&mut self) -> Option<Arc<Plugin>> {
        let now = Instant::now();
        let tried = self.current.is_some();
        if tried && now >= self.deadline {
            return None;
        }
        while let Some(member) = self.chain.get(self.next).cloned() {
            let position = self.next;
            self.next += 1;
            if let Some(reason) = member.unavailable_reason() {
                let e = Error::PluginUnavailable { kind: self.kind, id: member.id().to_owned(), reason };
                self.attempts.push(Attempt { id: member.id().to_owned(), error: outcome::code(&e).into() });
                self.last_error.get_or_insert(e);
                continue;
            }
            match self.chains.breakers.admit(member.id(), now) {
                admission @ (Admission::Pass | Admission::Probe) => {
                    let member = self.start(position, now);
                    self.probing = admission == Admission::Probe;
                    return Some(member);
                }
                Admission::Skip { reopens } => {
                    self.attempts
                        .push(Attempt { id: member.id().to_owned(), error: outcome::CIRCUIT_OPEN.into() });
                    self.skipped.push((position, reopens));
                }
            }
        }
        // Every member was open: rather than fail without a try, the one that reopens first is tried.
        if tried {
            return None;
        }
        let (position, _) = self.skipped.iter().min_by_key(|(_, reopens)| *reopens).copied()?;
        let id = self.chain[position].id().to_owned();
        self.attempts.retain(|a| !(a.id == id && a.error == outcome::CIRCUIT_OPEN));
        self.chains.breakers.force_probe(&id, now);
        let member = self.start(position, now);
        self.probing = true;
        Some(member)
    }

    fn start(&mut self, position: usize, now: Instant) -> Arc<Plugin> {
        self.current = Some(position);
        self.member_started = now;
        self.retries = 0;
        self.chain[position].clone()
    }

    /// Whether the member being called is the request's primary.
    pub fn at_primary(&self) -> bool {
        self.current == Some(0)
    }

    /// Waits before calling the same member again, when `e` is transient and the retries allow it:
    /// at most `allowed` of them, within `[fallback] retry_budget_ms` for this member and the
    /// request's deadline. `false` when the failure is not to be retried.
    pub async fn retry(&mut self, e: &Error, allowed: u32) -> bool {
        if self.retries >= allowed {
            return false;
        }
        let backoff =
            || jittered(Duration::from_millis(self.chains.config.backoff_ms) * 2u32.pow(self.retries));
        let wait = match outcome::retry(e) {
            Retry::After(wait) => wait,
            Retry::Backoff => backoff(),
            Retry::BackoffIfLast if self.next >= self.chain.len() => backoff(),
            Retry::BackoffIfLast | Retry::No => return false,
        };
        let budget = Duration::from_millis(self.chains.config.retry_budget_ms);
        let now = Instant::now();
        if now.duration_since(self.member_started) + wait > budget || now + wait > self.deadline {
            return false;
        }
        let id = self.current.map(|p| self.chain[p].id()).unwrap_or_default();
        tracing::info!(plugin = %id, retry = self.retries + 1, wait_ms = wait.as_millis() as u64, "transient upstream error; retrying: {e}");
        tokio::time::sleep(wait).await;
        self.retries += 1;
        true
    }

    /// Records the member's failure among the attempts. `Err(e)` when the request is to fail with it
    /// now (it is not one that moves on); `Ok` when it moves on to [`Plan::next_member`].
    pub fn failed(&mut self, e: Error) -> Result<(), Error> {
        let Some(position) = self.current else { return Err(e) };
        let id = self.chain[position].id();
        if outcome::counts(&e) {
            self.chains.breakers.failed(id, Instant::now());
        } else if self.probing {
            // A failure that says nothing of the plugin's health (this host's capacity) leaves the
            // probe to the next request.
            self.chains.breakers.release_probe(id, Instant::now());
        }
        self.attempts.push(Attempt { id: id.to_owned(), error: outcome::code(&e).into() });
        if !outcome::moves_on(&e) {
            return Err(e);
        }
        tracing::info!(plugin = %id, "the call failed; the request moves on along its chain: {e}");
        self.last_error = Some(e);
        Ok(())
    }

    /// The members that did not serve the request so far, in order.
    pub fn attempts(&self) -> &[Attempt] {
        &self.attempts
    }

    /// The member being called answered: its circuit closes, a fallback is counted, and the
    /// attempts before it are returned.
    pub fn served(self) -> Vec<Attempt> {
        if let Some(position) = self.current {
            let id = self.chain[position].id();
            self.chains.breakers.succeeded(id);
            self.fell_back_to(position);
        }
        self.attempts
    }

    /// A cached answer of `position_of` serves the request: the primary's, or a fallback member's
    /// (`[fallback] serve_cached_fallback`). No call was made, so a probe of its circuit that this
    /// request held is handed back for the next request to make.
    pub fn served_from_cache(self, position_of: &Plugin) -> Vec<Attempt> {
        if let Some(position) = self.chain.iter().position(|m| m.id() == position_of.id()) {
            if self.probing && self.current == Some(position) {
                self.chains.breakers.release_probe(position_of.id(), Instant::now());
            }
            self.fell_back_to(position);
        }
        self.attempts
    }

    fn fell_back_to(&self, position: usize) {
        if position > 0 {
            self.chains.metrics.count_fallback(self.chain[0].id(), self.chain[position].id());
        }
    }

    /// The error of a chain that no member served: the last failure.
    pub fn exhausted(&mut self) -> Error {
        let primary = self.chain.first().map(|p| p.id().to_owned()).unwrap_or_default();
        self.last_error.take().unwrap_or_else(|| Error::PluginUnavailable {
            kind: self.kind,
            id: primary,
            reason: "the request's deadline passed before any member of its chain could be called".into(),
        })
    }
}

/// How errors name a plugin of `kind`.
fn kind_name(kind: PluginKind) -> &'static str {
    match kind {
        PluginKind::Provider => "provider",
        PluginKind::ChatModel => "chat model",
        PluginKind::Metric => "metric",
    }
}

/// `wait` times a factor drawn from [0.5, 1.5), so that the retries of many requests spread out.
fn jittered(wait: Duration) -> Duration {
    let draw = getrandom::u32().unwrap_or(u32::MAX / 2);
    wait.mul_f64(0.5 + f64::from(draw) / (f64::from(u32::MAX) + 1.0))
}
