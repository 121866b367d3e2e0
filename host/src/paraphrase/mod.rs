//! The paraphrase service: resolves the provider and model of a request, checks the text, and wraps
//! the provider call with the response cache, the rate limit, the process-wide concurrency bound, and
//! the provider's fallback chain with its retries and circuits. The CLI, the REST API and the library
//! all paraphrase through here; several
//! candidates ranked by the metrics are `candidates`'s.

pub mod candidates;
pub mod job_routes;
pub mod jobs;
pub mod routes;
mod settings;

pub use candidates::{Candidate, Removed, Scorer, Selection};
pub use settings::ParaphraseConfig;

use crate::cache::{self, CacheConfig, CachedParaphrase, ResponseCache};
use crate::error::{Error, Result};
use crate::fallback::{Attempt, ChainChoice, Chains, CircuitState, Plan};
use crate::metrics::{Metrics, ProviderLabels};
use crate::plugins::api::{PluginInfo, PluginKind};
use crate::plugins::{Plugin, PluginHost};
use crate::ratelimit::{Admitted, Quota, RateLimits};
use crate::redis_link::RedisLink;
use futures::StreamExt;
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

/// A paraphrase and where it came from: the REST response body of `POST /paraphrase`.
#[derive(Clone, Debug, PartialEq, Serialize, utoipa::ToSchema)]
pub struct Paraphrase {
    /// The text as the client sent it.
    pub original: String,
    pub paraphrase: String,
    /// The provider id that made it.
    pub provider: String,
    /// The model the provider used.
    pub model: String,
    /// Whether the answer came from the response cache instead of the provider.
    pub cached: bool,
    /// Whether the paraphrase is the original again (the same words, whitespace aside): a provider
    /// that found nothing to change says so by returning the text as it was.
    pub unchanged: bool,
    /// The members of the provider's chain that did not serve the request before `provider` did,
    /// each with its error code (`circuit_open` when its circuit skipped it); absent when the
    /// requested provider served it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub attempts: Vec<Attempt>,
    /// Only when the request asked for candidates (`candidates` above 1, `providers`, `min_scores`
    /// or `rank_by`): every candidate left once duplicates and the unchanged text are removed, those
    /// that passed the floors first, then by `rank_by` descending. `paraphrase` is the first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub candidates: Option<Vec<Candidate>>,
    /// Only with `candidates`: how many candidates were asked for in all, `candidates` from each
    /// provider (`candidates` times the number of `providers`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub requested: Option<usize>,
    /// Only with `candidates`: how many the providers wrote, before `removed` was taken out; a
    /// provider may write fewer than it was asked for when it finds no more distinct rewrites.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub written: Option<usize>,
    /// Only with `candidates`: what was removed before scoring.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub removed: Option<Removed>,
    /// Only with `candidates`, and only when there is something to say: a provider that writes one
    /// paraphrase per call was called once; fewer candidates passed the floors than `requested`
    /// (how many the providers wrote, what was removed, how many met the floors).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub warnings: Option<Vec<String>>,
}

impl Paraphrase {
    pub fn new(original: String, paraphrase: String, provider: String, model: String, cached: bool) -> Self {
        let unchanged = unchanged(&original, &paraphrase);
        Paraphrase {
            original,
            paraphrase,
            provider,
            model,
            cached,
            unchanged,
            attempts: Vec::new(),
            candidates: None,
            requested: None,
            written: None,
            removed: None,
            warnings: None,
        }
    }
}

/// Whether `paraphrase` says `original` again word for word: only runs of whitespace may differ.
pub fn unchanged(original: &str, paraphrase: &str) -> bool {
    original.split_whitespace().eq(paraphrase.split_whitespace())
}

/// What to paraphrase, and with what.
#[derive(Clone, Debug, Default)]
pub struct ParaphraseRequest {
    pub text: String,
    /// A provider id; the configured default when `None`.
    pub provider: Option<String>,
    /// A model of the provider; the provider's default when `None`.
    pub model: Option<String>,
    /// Skip reading the response cache (the answer is still stored).
    pub skip_cache: bool,
    /// The provider's configured chain, none, or the request's own.
    pub fallbacks: ChainChoice,
}

impl ParaphraseRequest {
    pub fn new(text: impl Into<String>) -> Self {
        ParaphraseRequest { text: text.into(), ..Default::default() }
    }
}

/// What to do when the caller's rate limit is reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pacing {
    /// Refuse with [`Error::RateLimited`] (the REST API).
    Reject,
    /// Wait until the quota allows the call (the CLI and the library).
    Wait,
}

/// Who is asking, for rate limits.
#[derive(Clone, Debug)]
pub struct Caller {
    /// The identity the quota is kept for.
    pub client: String,
    pub pacing: Pacing,
}

impl Caller {
    /// The identity of in-process callers (CLI, library): one quota, and they wait for it.
    pub fn local() -> Caller {
        Caller { client: "local".into(), pacing: Pacing::Wait }
    }
}

/// One configured provider.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct ProviderEntry {
    /// The id to send as `provider`.
    pub id: String,
    pub name: String,
    pub default_model: String,
    /// Whether this is the provider used when a request names none.
    pub default: bool,
    /// The providers that serve its requests, in order, when it fails (`[[plugin]] fallbacks`).
    pub fallbacks: Vec<String>,
    /// Its circuit: `closed`, `open` (requests skip it during its cooldown) or `half-open` (one
    /// request probes it).
    pub circuit: CircuitState,
    /// False when a secret the provider needs (an API key) is not configured.
    pub available: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unavailable_reason: Option<String>,
    /// Calls per client per minute this service allows to the provider; `null` when it is not
    /// limited (a provider that reaches no upstream, unless the operator set a limit).
    pub rate_limit_per_minute: Option<u32>,
    /// Its default model's pricing: `free` (it reaches no upstream: zero tokens, zero cost),
    /// `priced`, or `unpriced` (its calls are recorded with their tokens and no cost).
    pub pricing: String,
    /// `[plugin.prices]`: per model (`*` for any other), per million tokens and per call.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub prices: BTreeMap<String, crate::plugins::price::PriceListing>,
}

/// `GET /providers`.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct ProvidersResponse {
    /// The default provider's id.
    pub default: String,
    pub providers: Vec<ProviderEntry>,
    /// The score names `min_scores` and `rank_by` accept: the headline scores of the metrics this
    /// server can compute (`semantic_similarity` only when it has an embedding backend),
    /// `overall_score` and `diversity`.
    pub scores: Vec<String>,
}

/// A paraphrase together with the caller's quota after it, when a limited provider was called.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub paraphrase: Paraphrase,
    pub quota: Option<Admitted>,
    /// How long the call waited for the caller's quota ([`Pacing::Wait`]).
    pub waited: Duration,
}

/// What [`ParaphraseService::along_chain`] got: the member that answered, its answer, the members
/// tried before it, and the caller's quota for it.
struct Served<T> {
    member: Arc<Plugin>,
    out: T,
    attempts: Vec<Attempt>,
    quota: Option<Admitted>,
    waited: Duration,
}

pub struct ParaphraseService {
    config: ParaphraseConfig,
    plugins: Arc<PluginHost>,
    /// Shared with the next generation when a reload leaves `[cache]` as it was.
    cache: Arc<ResponseCache>,
    limits: RateLimits,
    metrics: Arc<Metrics>,
    chains: Arc<Chains>,
    /// The metrics that score candidates, handed over by whoever assembles the services.
    scorer: Option<Arc<dyn Scorer>>,
}

impl ParaphraseService {
    /// The service of `config`, its response cache the one `cache` describes, or `warm_cache` (the
    /// generation before a reload's, with the same `[cache]`: a reload does not empty a memory cache,
    /// and its keys hold each plugin's component digest, so a changed plugin misses as before).
    pub async fn new(
        config: ParaphraseConfig,
        cache: &CacheConfig,
        warm_cache: Option<Arc<ResponseCache>>,
        plugins: Arc<PluginHost>,
        metrics: Arc<Metrics>,
        chains: Arc<Chains>,
    ) -> Self {
        let shared_limits = settings::shared_limits_url(&config, cache);
        let cache = match warm_cache {
            Some(warm) => warm,
            None => Arc::new(
                ResponseCache::new(cache, metrics.cache_hits.clone(), metrics.cache_misses.clone()).await,
            ),
        };
        let global = config.rate_limit_per_minute;
        let quotas = plugins
            .of_kind(PluginKind::Provider)
            .map(|p| (p.id().to_owned(), Quota::for_plugin(p.spec(), global)))
            .collect::<Vec<_>>();
        for (provider, _) in &quotas {
            metrics.expect_provider(provider);
        }
        let mut limits = RateLimits::new(Quota::from_per_minute(global), quotas);
        if let Some(url) = shared_limits {
            let link = RedisLink::connect(&url, true, "rate limits", "each replica limits on its own").await;
            limits = limits.shared_through(link);
        }
        ParaphraseService { config, plugins, cache, limits, metrics, chains, scorer: None }
    }

    /// Scores candidates with `scorer`; without one, only the host's `diversity` is computed.
    pub fn scored_by(mut self, scorer: Arc<dyn Scorer>) -> Self {
        self.scorer = Some(scorer);
        self
    }

    pub fn config(&self) -> &ParaphraseConfig {
        &self.config
    }

    pub fn default_provider(&self) -> &str {
        self.config.default_provider()
    }

    pub fn cache(&self) -> &Arc<ResponseCache> {
        &self.cache
    }

    pub fn rate_limits(&self) -> &RateLimits {
        &self.limits
    }

    /// The fallback policy and the circuits, which the chat services share.
    pub fn chains(&self) -> &Arc<Chains> {
        &self.chains
    }

    /// The provider a request names, or the default; unknown ids are an error listing the known ones.
    pub fn provider(&self, id: Option<&str>) -> Result<&Arc<Plugin>> {
        let id = id.unwrap_or(self.config.default_provider());
        match self.plugins.get(id) {
            Some(p) if p.kind() == PluginKind::Provider => match p.unavailable_reason() {
                None => Ok(p),
                Some(reason) => Err(Error::PluginUnavailable { kind: "provider", id: id.to_owned(), reason }),
            },
            _ => Err(Error::UnknownPlugin {
                kind: "provider",
                id: id.to_owned(),
                known: self.plugins.of_kind(PluginKind::Provider).map(|p| p.id().to_owned()).collect(),
            }),
        }
    }

    /// Every configured provider, for `GET /providers` and the CLI.
    pub fn providers(&self) -> Vec<ProviderEntry> {
        self.plugins
            .of_kind(PluginKind::Provider)
            .map(|p| {
                let (name, default_model) = match &p.info {
                    PluginInfo::Provider { name, default_model } => (name.clone(), default_model.clone()),
                    other => (other.name().to_owned(), String::new()),
                };
                let unavailable_reason = p.unavailable_reason();
                ProviderEntry {
                    id: p.id().to_owned(),
                    name,
                    default_model,
                    default: p.id() == self.default_provider(),
                    fallbacks: p.spec().fallbacks.clone(),
                    circuit: self.chains.breakers().state(p.id()),
                    available: unavailable_reason.is_none(),
                    unavailable_reason,
                    rate_limit_per_minute: self.limits.quota(p.id()).per_minute(),
                    pricing: p.pricing().into(),
                    prices: p.spec().prices.0.iter().map(|(m, price)| (m.clone(), price.listing())).collect(),
                }
            })
            .collect()
    }

    /// Checks a text against the documented limits.
    pub fn check_text(&self, text: &str) -> Result<()> {
        if text.trim().is_empty() {
            return Err(Error::invalid("text", "`text` is empty"));
        }
        let chars = text.chars().count();
        if chars > self.config.max_text_chars {
            return Err(Error::invalid(
                "text",
                format!("`text` has {chars} characters; the limit is {}", self.config.max_text_chars),
            ));
        }
        Ok(())
    }

    /// The model a request resolves to: its own (trimmed) or the provider's default.
    pub fn model(&self, provider: &Plugin, model: Option<&str>) -> Result<String> {
        match model {
            Some(m) if !m.trim().is_empty() => Ok(m.trim().to_owned()),
            Some(_) => Err(Error::invalid("model", "`model` is empty")),
            None => match &provider.info {
                PluginInfo::Provider { default_model, .. } => Ok(default_model.clone()),
                _ => Err(Error::invalid("provider", "not a provider")),
            },
        }
    }

    /// The chain a request is served along: its provider (which must be available, as without a
    /// chain), then the configured fallbacks, none, or the request's own.
    pub fn chain(&self, provider: Option<&str>, choice: &ChainChoice) -> Result<Vec<Arc<Plugin>>> {
        let primary = self.provider(provider)?.clone();
        self.chains.chain(&self.plugins, primary, choice)
    }

    /// One paraphrase: from the requested provider's cache when possible, else along its chain, each
    /// member called within the caller's quota for it. An answer is cached under the member and model
    /// that made it, so the primary serves again, uncached, as soon as it recovers.
    pub async fn paraphrase(&self, request: &ParaphraseRequest, caller: &Caller) -> Result<Outcome> {
        self.check_text(&request.text)?;
        let chain = self.chain(request.provider.as_deref(), &request.fallbacks)?;
        let requested_model = self.model(&chain[0], request.model.as_deref())?;
        let mut plan = self.chains.plan(chain);
        while let Some(member) = plan.next_member() {
            // The request's model is its provider's; a fallback member answers with its own default.
            let model = if plan.at_primary() { requested_model.clone() } else { self.model(&member, None)? };
            let key = cache::key(member.id(), &model, &member.digest, &request.text);
            let may_read = plan.at_primary() || self.chains.config().serve_cached_fallback;
            if !request.skip_cache
                && may_read
                && let Some(hit) = self.cache.get(&key).await
            {
                let mut paraphrase = Paraphrase::new(
                    request.text.clone(),
                    hit.paraphrase,
                    member.id().to_owned(),
                    hit.model,
                    true,
                );
                paraphrase.attempts = plan.served_from_cache(&member);
                return Ok(Outcome { paraphrase, quota: None, waited: Duration::ZERO });
            }
            let (quota, waited) = self.admit(&member, caller).await?;
            // How many calls of one provider run at once is the plugin runtime's to bound (its share
            // of the instance pool, `max_concurrent_calls` for a provider), with a queue that fails fast.
            let called = self
                .retried(&mut plan, || {
                    self.plugins.paraphrase(&member, &caller.client, &request.text, &model)
                })
                .await;
            match called {
                Ok(out) => {
                    self.cache
                        .put(
                            &key,
                            &CachedParaphrase { paraphrase: out.text.clone(), model: out.model.clone() },
                        )
                        .await;
                    let mut paraphrase = Paraphrase::new(
                        request.text.clone(),
                        out.text,
                        member.id().to_owned(),
                        out.model,
                        false,
                    );
                    paraphrase.attempts = plan.served();
                    return Ok(Outcome { paraphrase, quota, waited });
                }
                Err(e) => plan.failed(e)?,
            }
        }
        Err(plan.exhausted())
    }

    /// The caller's quota for one provider: refused at once ([`Pacing::Reject`]) or waited for.
    async fn admit(&self, provider: &Plugin, caller: &Caller) -> Result<(Option<Admitted>, Duration)> {
        Ok(match caller.pacing {
            Pacing::Reject => {
                let quota = self.limits.check(&caller.client, provider.id()).await.map_err(|refused| {
                    self.metrics
                        .rate_limited
                        .get_or_create(&ProviderLabels { provider: provider.id().to_owned() })
                        .inc();
                    Error::RateLimited { provider: provider.id().to_owned(), refused }
                })?;
                (quota, Duration::ZERO)
            }
            Pacing::Wait => (None, self.limits.wait(&caller.client, provider.id()).await),
        })
    }

    /// Calls the plan's current member until it answers, or fails in a way its retries do not cover
    /// (`upstream_retries`, the retry budget and the request's deadline, as `Plan::retry` decides).
    async fn retried<T, F, Fut>(&self, plan: &mut Plan, call: F) -> Result<T>
    where
        F: Fn() -> Fut,
        Fut: std::future::Future<Output = std::result::Result<T, crate::plugins::api::CallError>>,
    {
        loop {
            match call().await {
                Ok(out) => return Ok(out),
                Err(e) => {
                    let e = Error::from(e);
                    if !plan.retry(&e, self.config.upstream_retries).await {
                        return Err(e);
                    }
                }
            }
        }
    }

    /// Calls along `chain` (its primary first): each member within the caller's quota for it, retried
    /// and moved past as the fallback policy says. The member that answered, with its answer.
    async fn along_chain<T, F, Fut>(
        &self,
        chain: Vec<Arc<Plugin>>,
        caller: &Caller,
        call: F,
    ) -> Result<Served<T>>
    where
        F: Fn(Arc<Plugin>) -> Fut,
        Fut: std::future::Future<Output = std::result::Result<T, crate::plugins::api::CallError>>,
    {
        let mut plan = self.chains.plan(chain);
        while let Some(member) = plan.next_member() {
            let (quota, waited) = self.admit(&member, caller).await?;
            let called = self.retried(&mut plan, || call(member.clone())).await;
            match called {
                Ok(out) => return Ok(Served { member, out, attempts: plan.served(), quota, waited }),
                Err(e) => plan.failed(e)?,
            }
        }
        Err(plan.exhausted())
    }

    /// A batch as `POST /paraphrase/batch` takes it: at least one text and at most `batch_max_size`
    /// (`BATCH_MAX_SIZE`), then as [`ParaphraseService::paraphrase_unbounded`].
    pub async fn paraphrase_batch(
        &self,
        texts: Vec<String>,
        provider: Option<String>,
        model: Option<String>,
        fallbacks: ChainChoice,
        selection: Option<Selection>,
        caller: &Caller,
    ) -> Result<Vec<Result<Outcome>>> {
        let max = self.config.batch_max_size;
        if texts.is_empty() {
            return Err(Error::invalid("texts", "`texts` is empty"));
        }
        if texts.len() > max {
            return Err(Error::invalid(
                "texts",
                format!("`texts` has {} items; BATCH_MAX_SIZE allows at most {max}", texts.len()),
            ));
        }
        self.paraphrase_unbounded(texts, provider, model, fallbacks, selection, caller).await
    }

    /// Many paraphrases with one provider and model, however many texts (none is no error):
    /// `BATCH_MAX_WORKERS` at a time, results in input order. For the library's `paraphrase_batch`,
    /// which holds no request body; each text still meets [`ParaphraseService::check_text`]. A failed
    /// item fails alone; an unknown provider or chain member or a wrong selection fails the whole batch. Each item goes
    /// along the chain on its own, and says who served it.
    pub async fn paraphrase_unbounded(
        &self,
        texts: Vec<String>,
        provider: Option<String>,
        model: Option<String>,
        fallbacks: ChainChoice,
        selection: Option<Selection>,
        caller: &Caller,
    ) -> Result<Vec<Result<Outcome>>> {
        let template =
            ParaphraseRequest { text: String::new(), provider, model, skip_cache: false, fallbacks };
        let provider = match &selection {
            Some(selection) => {
                self.check_selection(&template, selection)?;
                template.provider.clone()
            }
            None => {
                let chain = self.chain(template.provider.as_deref(), &template.fallbacks)?;
                self.model(&chain[0], template.model.as_deref())?;
                Some(chain[0].id().to_owned())
            }
        };
        let (model, fallbacks, selection) = (template.model, template.fallbacks, selection.as_ref());
        let results = futures::stream::iter(texts)
            .map(|text| {
                let request = ParaphraseRequest {
                    text,
                    provider: provider.clone(),
                    model: model.clone(),
                    skip_cache: false,
                    fallbacks: fallbacks.clone(),
                };
                async move { self.paraphrase_with(&request, selection, caller).await }
            })
            .buffered(self.config.batch_max_workers.max(1))
            .collect()
            .await;
        Ok(results)
    }
}

#[cfg(test)]
mod tests {
    use super::unchanged;

    #[test]
    fn unchanged_means_the_same_words_in_the_same_order() {
        assert!(unchanged("The cat sat.", "The cat sat."));
        assert!(unchanged("The cat  sat.\n", " The cat sat."));
        assert!(!unchanged("The cat sat.", "The cat sat"));
        assert!(!unchanged("The cat sat.", "the cat sat."));
        assert!(!unchanged("The cat sat.", "The cat was sitting."));
        assert!(unchanged("", "  "));
    }
}
