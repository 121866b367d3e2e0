//! Parlance: a paraphrase and character-chat engine whose providers, chat models and metrics are
//! sandboxed WebAssembly components.
//!
//! The [`Parlance`] handle is the one path for the work: the `parlance` binary's CLI and REST
//! handlers call it, and so can any Rust program, with the same cache, rate limits, plugins and
//! sandbox. It is `Send + Sync` and cheap to clone; every method is async; every error is an
//! [`Error`], whose variants each have one documented meaning.
//!
//! The seed's four library operations:
//!
//! | Operation | Here |
//! |---|---|
//! | `setup_system` | [`setup_system`], or [`Parlance::builder`] for configuration in code |
//! | `generate_paraphrase(text)` | [`Parlance::generate_paraphrase`] |
//! | `paraphrase_batch(texts)` | [`Parlance::paraphrase_batch`] |
//! | `evaluate_paraphrase(original, paraphrase)` | [`Parlance::evaluate_paraphrase`], whose result has `overall_score` |
//!
//! # Setting up
//!
//! [`setup_system`] reads the environment, `.env` and `parlance.toml` exactly as the binary does. The
//! builder takes the same settings in code:
//!
//! ```
//! # #[tokio::main] async fn main() -> parlance::Result<()> {
//! use parlance::{Parlance, config::Env};
//!
//! let db = std::env::temp_dir().join(format!("parlance-doc-setup-{}.db", std::process::id()));
//! let env = Env::empty().with("CACHE_TYPE", "memory").with("DATABASE_FILE", db.to_str().unwrap());
//! let parlance = Parlance::builder().env(env).build().await?;
//! // Without an API key the offline provider is the default.
//! assert_eq!(parlance.paraphraser().default_provider(), "offline");
//! # Ok(()) }
//! ```
//!
//! # Paraphrasing one text
//!
//! ```
//! # #[tokio::main] async fn main() -> parlance::Result<()> {
//! # use parlance::{Parlance, config::Env};
//! # let db = std::env::temp_dir().join(format!("parlance-doc-one-{}.db", std::process::id()));
//! # let env = Env::empty().with("CACHE_TYPE", "memory").with("DATABASE_FILE", db.to_str().unwrap());
//! # let parlance = Parlance::builder().env(env).build().await?;
//! let result = parlance.generate_paraphrase("The quick brown fox jumps over the lazy dog.").await?;
//! assert_ne!(result.paraphrase, result.original);
//! assert_eq!(result.provider, "offline");
//! # Ok(()) }
//! ```
//!
//! # Paraphrasing a batch
//!
//! Each text succeeds or fails alone; results come back in input order.
//!
//! ```
//! # #[tokio::main] async fn main() -> parlance::Result<()> {
//! # use parlance::{Parlance, config::Env};
//! # let db = std::env::temp_dir().join(format!("parlance-doc-batch-{}.db", std::process::id()));
//! # let env = Env::empty().with("CACHE_TYPE", "memory").with("DATABASE_FILE", db.to_str().unwrap());
//! # let parlance = Parlance::builder().env(env).build().await?;
//! let texts = vec!["How can I learn Python quickly?".to_owned(), "   ".to_owned()];
//! let results = parlance.paraphrase_batch(texts).await?;
//! assert!(results[0].is_ok());
//! assert!(matches!(results[1], Err(parlance::Error::InvalidInput { .. })));
//! # Ok(()) }
//! ```
//!
//! # Evaluating a paraphrase
//!
//! ```
//! # #[tokio::main] async fn main() -> parlance::Result<()> {
//! # use parlance::{Parlance, config::Env};
//! # let db = std::env::temp_dir().join(format!("parlance-doc-eval-{}.db", std::process::id()));
//! # let env = Env::empty().with("CACHE_TYPE", "memory").with("DATABASE_FILE", db.to_str().unwrap());
//! # let parlance = Parlance::builder().env(env).build().await?;
//! let result = parlance.evaluate_paraphrase("The cat sat on the mat.", "A cat was sitting on the mat.").await?;
//! let bleu = result.evaluation.scores["bleu"];
//! let overall = result.evaluation.overall_score.expect("lexical and length scores are weighted");
//! assert!((0.0..=100.0).contains(&bleu) && (0.0..=1.0).contains(&overall));
//! # Ok(()) }
//! ```
//!
//! For a dataset, [`Parlance::evaluate_dataset`] returns per-score statistics.

pub mod cache;
pub mod chat;
pub mod cli;
pub mod config;
pub mod embeddings;
pub mod error;
pub mod evaluate;
pub mod fallback;
// The fuzz targets' properties (fuzz/): for the fuzz crate, through the `fuzzing` feature, and for the
// tests that replay its corpus. Not part of the library's interface.
#[cfg(any(test, feature = "fuzzing"))]
#[doc(hidden)]
pub mod fuzzing;
pub mod http;
pub mod metrics;
pub mod oci;
pub mod openai;
pub mod paraphrase;
pub mod plugins;
pub mod ratelimit;
pub mod redis_link;
#[cfg(test)]
mod reference;
pub mod reload;
pub mod rest;
pub mod settings;
pub mod store;
pub mod telemetry;
pub mod tls;
pub mod upstream;
pub mod usage;

pub use error::{Error, Result};
pub use paraphrase::{Paraphrase, ParaphraseRequest, Selection};
pub use settings::Config;

use config::Env;
use metrics::Metrics;
use paraphrase::jobs::JobService;
use paraphrase::{Caller, ParaphraseService};
use plugins::PluginHost;
use plugins::api::PluginKind;
use redis_link::RedisLink;
use std::path::PathBuf;
use std::sync::Arc;

/// A running Parlance: the loaded plugins and the services around them. Cheap to clone, `Send` and
/// `Sync`; every clone shares the same plugins, caches and limits.
#[derive(Clone)]
pub struct Parlance {
    inner: Arc<Inner>,
}

struct Inner {
    config: Config,
    plugins: Arc<PluginHost>,
    paraphrase: Arc<ParaphraseService>,
    /// `None` when built without the chat service (the CLI's modes), which then never opens the store.
    chat: Option<Arc<chat::ChatService>>,
    store: Option<store::DialogStore>,
    evaluate: Arc<evaluate::EvaluateService>,
    metrics: Arc<Metrics>,
    /// Records what every plugin call used; shared by every generation, as the metrics are.
    accountant: Arc<usage::Accountant>,
    /// The fallback policy and every provider's and chat model's circuit, shared by the services.
    chains: Arc<fallback::Chains>,
}

/// A change to the configuration made in code, applied after loading.
type ConfigEdit = Box<dyn FnOnce(&mut Config) + Send>;

/// Configures and starts a [`Parlance`].
#[derive(Default)]
pub struct Builder {
    config_file: Option<PathBuf>,
    env: Option<Env>,
    config: Option<Config>,
    edits: Vec<ConfigEdit>,
    without_chat: bool,
}

impl Builder {
    /// Reads this `parlance.toml` instead of the default lookup.
    pub fn config_file(mut self, path: impl Into<PathBuf>) -> Self {
        self.config_file = Some(path.into());
        self
    }

    /// Uses these variables instead of the process environment and `.env`.
    pub fn env(mut self, env: Env) -> Self {
        self.env = Some(env);
        self
    }

    /// Uses a configuration built in code, bypassing files and the environment.
    pub fn config(mut self, config: Config) -> Self {
        self.config = Some(config);
        self
    }

    /// Changes the configuration after it is loaded, before anything starts.
    pub fn configure(mut self, edit: impl FnOnce(&mut Config) + Send + 'static) -> Self {
        self.edits.push(Box::new(edit));
        self
    }

    /// Leaves out the chat service, so that the dialog store is never opened (nor created): for
    /// programs that only paraphrase and evaluate.
    pub fn without_chat(mut self) -> Self {
        self.without_chat = true;
        self
    }

    /// Loads the configuration and the plugins, and opens the dialog store unless told not to.
    pub async fn build(self) -> Result<Parlance> {
        let mut config = match (self.config, self.env) {
            (Some(config), _) => config,
            (None, env) => {
                let config = match env {
                    Some(env) => Config::from_env(self.config_file.as_deref(), &env)?,
                    None => Config::load(self.config_file.as_deref())?,
                };
                config.warn_deprecated();
                config
            }
        };
        for edit in self.edits {
            edit(&mut config);
        }
        Parlance::start_with(config, !self.without_chat).await
    }
}

impl Parlance {
    pub fn builder() -> Builder {
        Builder::default()
    }

    /// Starts from a complete configuration, with every service.
    pub async fn start(config: Config) -> Result<Parlance> {
        Parlance::start_with(config, true).await
    }

    async fn start_with(config: Config, with_chat: bool) -> Result<Parlance> {
        let metrics = Arc::new(Metrics::new());
        let link = match config.cache.shared_url(None) {
            Some(url) => Some(
                RedisLink::connect(
                    &url,
                    true,
                    "budgets",
                    "each replica keeps its budgets' counters to itself",
                )
                .await,
            ),
            None => None,
        };
        let accountant = usage::Accountant::start(&config.usage, metrics.clone(), link);
        Parlance::assemble(config, metrics, accountant, None, with_chat, None).await
    }

    /// The next generation of a running server: `config`'s plugins, compiled and loaded, and services,
    /// around this one's dialog store and metrics.
    pub async fn next_generation(&self, config: Config) -> Result<Parlance> {
        let inner = &self.inner;
        // The same `[cache]`: the response cache carries on, warm.
        let cache = (inner.config.cache == config.cache).then(|| inner.paraphrase.cache().clone());
        let (metrics, accountant) = (inner.metrics.clone(), inner.accountant.clone());
        Parlance::assemble(config, metrics, accountant, inner.store.clone(), inner.chat.is_some(), cache)
            .await
    }

    /// The plugins and services of `config`, with the dialog store `store` (else opened when
    /// `with_chat`, once the plugins have loaded), and the response cache `warm_cache` when given.
    async fn assemble(
        config: Config,
        metrics: Arc<Metrics>,
        accountant: Arc<usage::Accountant>,
        store: Option<store::DialogStore>,
        with_chat: bool,
        warm_cache: Option<Arc<cache::ResponseCache>>,
    ) -> Result<Parlance> {
        let upstream = config.tls.client()?;
        let embeddings = embeddings::configured(config.embeddings.as_ref(), &upstream)?;
        let plugins = Arc::new(
            PluginHost::start_with_upstream(
                config.plugins.clone(),
                &config.runtime,
                embeddings.clone(),
                upstream,
            )
            .await?
            .observed_by(metrics.clone())
            .metered_by(accountant.clone()),
        );
        let evaluate = Arc::new(evaluate::EvaluateService::new(
            config.evaluate.clone(),
            plugins.clone(),
            embeddings.is_some(),
        )?);
        // One circuit per provider and chat model, which every service's chains share.
        let chains = Arc::new(fallback::Chains::new(
            config.fallback.clone(),
            config.plugins.iter().filter(|p| p.kind != PluginKind::Metric).map(|p| p.id.clone()),
            metrics.clone(),
        ));
        if let Some(url) = config.cache.shared_url(config.fallback.circuit_store.as_deref()) {
            let link =
                RedisLink::connect(&url, true, "circuits", "each replica keeps its circuits to itself").await;
            chains.share_through(link);
        }
        // The paraphrase service scores its candidates through the evaluation service, handed over
        // here so that neither domain imports the other.
        let paraphrase = Arc::new(
            ParaphraseService::new(
                config.paraphrase.clone(),
                &config.cache,
                warm_cache,
                plugins.clone(),
                metrics.clone(),
                chains.clone(),
            )
            .await
            .scored_by(Arc::new(MetricScorer(evaluate.clone()))),
        );
        let store = match store {
            Some(store) => Some(store),
            None if with_chat => Some(open_store(&config).await?),
            None => None,
        };
        if let Some(store) = &store {
            accountant.keep_in(store.clone());
        }
        let chat = store.clone().map(|s| {
            Arc::new(chat::ChatService::new(config.chat.clone(), s, plugins.clone(), chains.clone()))
        });
        Ok(Parlance {
            inner: Arc::new(Inner {
                config,
                plugins,
                paraphrase,
                chat,
                store,
                evaluate,
                metrics,
                accountant,
                chains,
            }),
        })
    }

    pub fn config(&self) -> &Config {
        &self.inner.config
    }

    pub fn plugins(&self) -> &Arc<PluginHost> {
        &self.inner.plugins
    }

    pub fn paraphraser(&self) -> &Arc<ParaphraseService> {
        &self.inner.paraphrase
    }

    /// The chat service; `None` when built [`Builder::without_chat`].
    pub fn chat(&self) -> Option<&Arc<chat::ChatService>> {
        self.inner.chat.as_ref()
    }

    /// The dialog store (which also holds API keys); `None` when built [`Builder::without_chat`].
    pub fn store(&self) -> Option<&store::DialogStore> {
        self.inner.store.as_ref()
    }

    /// Records every plugin call's usage in `store`'s ledger from now on (a Parlance built
    /// [`Builder::without_chat`] has no store of its own).
    pub fn record_usage_in(&self, store: store::DialogStore) {
        self.inner.accountant.keep_in(store);
    }

    /// Usage reports from the ledger (over the store, when this Parlance has one open).
    pub fn ledger(&self) -> usage::Ledger {
        usage::Ledger::new(self.inner.accountant.store().cloned(), &self.config().usage.currency)
            .after(self.inner.accountant.clone())
    }

    pub fn evaluator(&self) -> &Arc<evaluate::EvaluateService> {
        &self.inner.evaluate
    }

    /// Judges a paraphrase against its original with every metric plugin but the semantic ones (as
    /// `POST /evaluate` does by default); the result carries `overall_score`.
    pub async fn evaluate_paraphrase(
        &self,
        original: &str,
        paraphrase: &str,
    ) -> Result<evaluate::PairEvaluation> {
        self.evaluate_paraphrase_with(original, paraphrase, evaluate::EvalOptions::default()).await
    }

    /// [`Parlance::evaluate_paraphrase`] with the options of `POST /evaluate`: `include_semantic`
    /// (needs an embedding backend) and `detail`.
    pub async fn evaluate_paraphrase_with(
        &self,
        original: &str,
        paraphrase: &str,
        options: evaluate::EvalOptions,
    ) -> Result<evaluate::PairEvaluation> {
        let pair = plugins::api::Pair { original: original.to_owned(), paraphrase: paraphrase.to_owned() };
        Ok(self.inner.evaluate.evaluate(&[pair], options, &Caller::local().client).await?.remove(0))
    }

    /// Evaluates a dataset of any size (streamed in batches) and returns, per score, the mean, minimum,
    /// maximum and standard deviation, with the counts of pairs evaluated and failed.
    pub async fn evaluate_dataset(
        &self,
        pairs: impl Iterator<Item = plugins::api::Pair>,
        options: evaluate::EvalOptions,
    ) -> Result<evaluate::summary::Summary> {
        self.inner.evaluate.summarize_dataset(pairs, options, &Caller::local().client).await
    }

    pub fn metrics(&self) -> &Arc<Metrics> {
        &self.inner.metrics
    }

    /// What the HTTP routes need: each service, the job runner a server starts, and the key check
    /// when the operator requires API keys; `None` when built [`Builder::without_chat`].
    pub fn app_state(&self) -> Option<http::AppState> {
        let config = self.config();
        let jobs = JobService::new(
            self.store()?.clone(),
            self.paraphraser().clone(),
            config.jobs.clone(),
            config.server.api_port,
        );
        self.app_state_with(Arc::new(jobs), http::generations::ConfigurationStatus::new())
    }

    /// [`Parlance::app_state`] around a job runner and a configuration status that every generation
    /// of a server shares.
    pub fn app_state_with(
        &self,
        jobs: Arc<JobService>,
        configuration: Arc<http::generations::ConfigurationStatus>,
    ) -> Option<http::AppState> {
        let config = self.config();
        let store = self.store()?;
        let chat = self.chat()?.clone();
        let openai = openai::OpenAiService::new(
            config.openai.clone(),
            self.plugins().clone(),
            chat.clone(),
            self.metrics().clone(),
            self.inner.chains.clone(),
            config.paraphrase.rate_limit_per_minute,
        );
        Some(http::AppState {
            paraphrase: self.paraphraser().clone(),
            jobs,
            evaluate: self.evaluator().clone(),
            chat,
            openai: Arc::new(openai),
            plugins: self.plugins().clone(),
            metrics: self.metrics().clone(),
            ledger: Arc::new(self.ledger()),
            configuration,
            server: Arc::new(config.server.clone()),
            auth: config
                .auth
                .required()
                .then(|| Arc::new(http::auth::Auth::new(store.clone(), &config.auth))),
            admin: config.admin.token.clone().map(Arc::new),
            keys: store.clone(),
        })
    }

    /// Serves both REST APIs on the configured host, at `api_port` and the chat port, until Ctrl-C or
    /// SIGTERM, with this configuration throughout (the binary's server also reloads its
    /// configuration: the `reload` module).
    pub async fn serve(&self, api_port: u16) -> anyhow::Result<()> {
        let state = self.server_state()?;
        let generations = http::generations::Generations::new(http::app(state.clone()));
        let accountant = self.spool_usage();
        let served = http::serve(state, generations, api_port).await;
        accountant.close().await;
        served
    }

    /// A server's answers wait for their usage records to be spooled, not committed
    /// ([`usage::spool`]): opens the spool (replaying what a stopped server left in it), and gives
    /// the accountant to close when the server stops. A spool that cannot be opened is logged, and the
    /// answers wait for their commits instead.
    pub(crate) fn spool_usage(&self) -> Arc<usage::Accountant> {
        let config = self.config();
        let dir = config.usage.spool_dir(&config.store.database_file);
        let sync = config.store.durability == store::Durability::Full;
        if let Err(e) = self.inner.accountant.spool_in(&dir, sync) {
            tracing::warn!(
                dir = %dir.display(),
                "cannot spool usage records ({e}): each answer waits for its record's commit"
            );
        }
        self.inner.accountant.clone()
    }

    /// [`Parlance::app_state`], or why a server cannot be built from this Parlance.
    pub fn server_state(&self) -> anyhow::Result<http::AppState> {
        self.app_state().ok_or_else(|| {
            anyhow::anyhow!("the server needs the chat service, which this Parlance was built without")
        })
    }

    /// A chat model's reply to `request` as a stream of deltas, as the model writes them, outside any
    /// dialog store (the stored chat is [`chat::ChatService::chat_stream`]). `model` is a chat model's
    /// plugin id, `[chat] model` when `None`. The request, its history included, is held to the
    /// chat's limits first ([`chat::ChatConfig::check_input`]). The stream ends after the last delta,
    /// or with one error: the model failed, before its first delta or after it.
    ///
    /// ```no_run
    /// # async fn demo(parlance: parlance::Parlance, request: parlance::plugins::api::ChatRequest<'_>) -> parlance::Result<()> {
    /// use futures::StreamExt;
    /// let deltas = parlance.reply_stream(None, &request, &Default::default()).await?;
    /// futures::pin_mut!(deltas);
    /// while let Some(delta) = deltas.next().await {
    ///     print!("{}", delta?);
    /// }
    /// # Ok(()) }
    /// ```
    pub async fn reply_stream(
        &self,
        model: Option<&str>,
        request: &plugins::api::ChatRequest<'_>,
        generation: &plugins::api::Generation,
    ) -> Result<impl futures::Stream<Item = Result<String>> + Send + 'static> {
        self.inner.config.chat.check_input(&chat::ModelInput::of(request))?;
        let id = model.unwrap_or(&self.inner.config.chat.model);
        let chat_models = plugins::api::PluginKind::ChatModel;
        let plugin = self.inner.plugins.get_of_kind(id, chat_models).ok_or_else(|| Error::UnknownPlugin {
            kind: "chat model",
            id: id.to_owned(),
            known: self.inner.plugins.of_kind(chat_models).map(|p| p.id().to_owned()).collect(),
        })?;
        let client = Caller::local().client;
        let ticket = self.inner.plugins.admit_stream(plugin, &client)?;
        let stream = self.inner.plugins.reply_stream(ticket, request, generation).await?;
        Ok(futures::stream::unfold(Some(stream), |stream| async move {
            let mut stream = stream?;
            loop {
                match stream.next().await? {
                    Ok(plugins::api::StreamPart::Delta(text)) => return Some((Ok(text), Some(stream))),
                    Ok(plugins::api::StreamPart::Done(_)) => return None,
                    Ok(_) => continue,
                    Err(e) => return Some((Err(e.into()), None)),
                }
            }
        }))
    }

    /// Paraphrases `text` with the default provider and model.
    pub async fn generate_paraphrase(&self, text: &str) -> Result<Paraphrase> {
        self.paraphrase(&ParaphraseRequest::new(text)).await
    }

    /// Paraphrases with the provider, model and cache choice of `request`, waiting for the rate limit
    /// rather than failing.
    pub async fn paraphrase(&self, request: &ParaphraseRequest) -> Result<Paraphrase> {
        Ok(self.inner.paraphrase.paraphrase(request, &Caller::local()).await?.paraphrase)
    }

    /// Several candidates for one text, scored by the metric plugins, checked against the floors and
    /// ranked as `selection` says (see `POST /paraphrase`'s `candidates`), waiting for the rate limits.
    pub async fn paraphrase_candidates(
        &self,
        request: &ParaphraseRequest,
        selection: &Selection,
    ) -> Result<Paraphrase> {
        Ok(self.inner.paraphrase.paraphrase_selected(request, selection, &Caller::local()).await?.paraphrase)
    }

    /// Paraphrases any number of texts with the default provider, `BATCH_MAX_WORKERS` at a time; one
    /// result per text, in input order. Unlike `POST /paraphrase/batch`, no `BATCH_MAX_SIZE` applies
    /// (see [`ParaphraseService::paraphrase_unbounded`]).
    pub async fn paraphrase_batch(&self, texts: Vec<String>) -> Result<Vec<Result<Paraphrase>>> {
        let results = self
            .inner
            .paraphrase
            .paraphrase_unbounded(texts, None, None, Default::default(), None, &Caller::local())
            .await?;
        Ok(results.into_iter().map(|r| r.map(|o| o.paraphrase)).collect())
    }
}

/// The evaluation service as the paraphrase service's [`paraphrase::Scorer`]: the headline scores with
/// the semantic metrics, as `POST /evaluate` gives them with `include_semantic`, and `overall_score`.
struct MetricScorer(Arc<evaluate::EvaluateService>);

impl paraphrase::Scorer for MetricScorer {
    fn score_names(&self) -> Vec<String> {
        self.0.score_names()
    }

    fn unavailable_score(&self, name: &str) -> Option<String> {
        self.0.unavailable_score(name)
    }

    fn score<'a>(
        &'a self,
        pairs: Vec<(String, String)>,
        client: &'a str,
    ) -> futures::future::BoxFuture<'a, Result<Vec<std::collections::BTreeMap<String, f64>>>> {
        Box::pin(async move {
            let pairs: Vec<plugins::api::Pair> = pairs
                .into_iter()
                .map(|(original, paraphrase)| plugins::api::Pair { original, paraphrase })
                .collect();
            let options = evaluate::EvalOptions { include_semantic: true, detail: false };
            let evaluations = self.0.evaluate(&pairs, options, client).await?;
            Ok(evaluations
                .into_iter()
                .map(|e| {
                    let mut scores = e.evaluation.scores;
                    scores.extend(e.evaluation.overall_score.map(|v| ("overall_score".to_owned(), v)));
                    scores
                })
                .collect())
        })
    }
}

/// Opens the dialog store the configuration names.
pub async fn open_store(config: &Config) -> Result<store::DialogStore> {
    let location = config.store.location(config.tls.rustls()?);
    store::DialogStore::open_at(&location).await.map_err(Error::Storage)
}

/// The seed's `setup_system`: a [`Parlance`] configured from the environment, `.env` and
/// `parlance.toml`, exactly as the binary is.
pub async fn setup_system() -> Result<Parlance> {
    Parlance::builder().build().await
}
