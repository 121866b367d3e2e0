//! Durable asynchronous batch jobs: `POST /paraphrase/batch/async` stores a job and its texts in the
//! dialog store's database, and a runner in every server replica claims items with a lease, paraphrases
//! them through the same service as any other call (cache, the client's rate limit, which a job waits
//! for rather than breaks, upstream-429 retries, the instance shares), and stores each result against
//! its claim. A job survives a restart: the replica's own claims are given back when it starts again,
//! and any other replica takes over items whose lease ran out. Every item ends with exactly one stored
//! result, since a result is stored only while its claim holds.

use super::candidates::CandidatesPart;
use super::{Caller, Candidate, Pacing, ParaphraseRequest, ParaphraseService, Removed, Selection};
use crate::config::setting;
use crate::config::{Kind, Section, Setting};
use crate::error::{Error, Result};
use crate::fallback::Attempt;
use crate::plugins::api::CallScope;
use crate::rest::ApiError;
use crate::store::jobs::{
    self, Cancelled, ClaimedItem, ItemRecord, ItemResult, JobRecord, JobStatus, NewJob,
};
use crate::store::{DialogStore, StoreError};
use crate::telemetry::WithSpan;
use serde::Serialize;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;
use tokio::sync::Notify;

/// The `[jobs]` section.
#[derive(Clone, Debug)]
pub struct JobsConfig {
    /// Most texts in one job.
    pub max_texts: usize,
    /// Items one replica works on at once, across all jobs.
    pub concurrency: usize,
    /// How long a claimed item is held without its replica renewing the claim.
    pub lease_secs: u64,
    /// This replica's name in claims; its own claims are given back when it starts again. Empty:
    /// the host name and the paraphrase API's port.
    pub replica: String,
}

impl Default for JobsConfig {
    fn default() -> Self {
        JobsConfig { max_texts: 10_000, concurrency: 8, lease_secs: 30, replica: String::new() }
    }
}

impl Section for JobsConfig {
    const NAME: &'static str = "jobs";
    const ABOUT: &'static str = "Asynchronous batch jobs";

    fn settings() -> &'static [Setting<Self>] {
        static SETTINGS: &[Setting<JobsConfig>] = &[
            setting!(
                "max_texts",
                Kind::Int { min: 1, max: 1_000_000 },
                |c| c.max_texts,
                env = "JOB_MAX_SIZE",
                "Most texts in one `POST /paraphrase/batch/async`"
            ),
            setting!(
                "concurrency",
                Kind::Int { min: 1, max: 1024 },
                |c| c.concurrency,
                "Job items one replica works on at once, across all jobs"
            ),
            setting!(
                "lease_secs",
                Kind::Int { min: 5, max: 3600 },
                |c| c.lease_secs,
                "Seconds a claimed item is held without renewal; then another replica takes it over"
            ),
            setting!(
                "replica",
                Kind::Text,
                |c| c.replica,
                "This replica's name in claims (empty: host name and API port); unique per replica"
            ),
        ];
        SETTINGS
    }
}

/// One item of a job's page of results.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct JobResult {
    pub index: u64,
    pub original: String,
    pub paraphrase: String,
    pub provider: String,
    pub model: String,
    pub cached: bool,
    /// Whether the paraphrase is the original again, whitespace aside.
    pub unchanged: bool,
    /// With the candidate fields: as in `POST /paraphrase`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub candidates: Option<Vec<Candidate>>,
    /// As in `POST /paraphrase`: the candidates asked for in all (absent for an item stored before
    /// it was counted).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub requested: Option<usize>,
    /// As in `POST /paraphrase`: the candidates the providers wrote, before `removed`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub written: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub removed: Option<Removed>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub warnings: Option<Vec<String>>,
    /// As in `POST /paraphrase`: the chain members that failed before `provider` served the item.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub attempts: Vec<Attempt>,
}

/// One failed item of a job's page of results.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct JobError {
    pub index: u64,
    pub original: String,
    pub error: crate::rest::ErrorDetail,
}

/// A job as `GET /jobs/{job_id}` reports it (the original service's fields), with one page of its
/// items' results when asked.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct JobView {
    pub job_id: String,
    pub status: JobStatus,
    pub total_items: u64,
    pub successful: u64,
    pub failed: u64,
    /// successful / (successful + failed), 0 before any item is done.
    pub success_rate: f64,
    pub provider: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// The page's paraphrased items, in order.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub results: Option<Vec<JobResult>>,
    /// The page's failed items, in order.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub errors: Option<Vec<JobError>>,
    /// The page's first item (with results).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offset: Option<u64>,
    /// Where the next page starts, `null` on the last one (with results).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_offset: Option<Option<u64>>,
    /// UTC, RFC 3339.
    pub created_at: String,
    pub completed_at: Option<String>,
    /// Seconds from the first item started to the last finished (or until now while running).
    pub processing_time: f64,
}

pub struct JobService {
    store: DialogStore,
    /// The paraphrase service of the configuration in force; an item keeps the one it started with.
    paraphrase: arc_swap::ArcSwap<ParaphraseService>,
    config: JobsConfig,
    replica: String,
    /// Woken when a job is created or an item finishes.
    wake: Notify,
}

fn now_millis() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

fn rfc3339(millis: i64) -> String {
    time::OffsetDateTime::from_unix_timestamp_nanos(i128::from(millis) * 1_000_000)
        .ok()
        .and_then(|t| t.format(&time::format_description::well_known::Rfc3339).ok())
        .unwrap_or_default()
}

impl JobService {
    pub fn new(
        store: DialogStore,
        paraphrase: Arc<ParaphraseService>,
        config: JobsConfig,
        api_port: u16,
    ) -> JobService {
        let replica = if config.replica.trim().is_empty() {
            let host =
                std::fs::read_to_string("/etc/hostname").map(|h| h.trim().to_owned()).unwrap_or_default();
            format!("{}:{api_port}", if host.is_empty() { "localhost" } else { &host })
        } else {
            config.replica.trim().to_owned()
        };
        let paraphrase = arc_swap::ArcSwap::new(paraphrase);
        JobService { store, paraphrase, config, replica, wake: Notify::new() }
    }

    /// Items started from now on use `paraphrase`: the service of a reloaded configuration.
    pub fn use_paraphrase(&self, paraphrase: Arc<ParaphraseService>) {
        self.paraphrase.store(paraphrase);
    }

    pub fn config(&self) -> &JobsConfig {
        &self.config
    }

    /// The service the items go through now, whose limits a job's fields share.
    pub fn paraphraser(&self) -> Arc<ParaphraseService> {
        self.paraphrase.load_full()
    }

    /// Stores a new job for `client`; its provider and model, and its selection of candidates when
    /// it has one, are checked now.
    pub async fn create(
        &self,
        client: &str,
        texts: Vec<String>,
        provider: Option<String>,
        model: Option<String>,
        skip_cache: bool,
        selection: Option<Selection>,
    ) -> Result<JobView> {
        if texts.is_empty() {
            return Err(Error::invalid("texts", "`texts` is empty"));
        }
        if texts.len() > self.config.max_texts {
            return Err(Error::invalid(
                "texts",
                format!(
                    "`texts` has {} items; a job holds at most {} ([jobs] max_texts)",
                    texts.len(),
                    self.config.max_texts
                ),
            ));
        }
        let paraphrase = self.paraphrase.load();
        if let Some(selection) = &selection {
            let template = ParaphraseRequest {
                text: String::new(),
                provider: provider.clone(),
                model: model.clone(),
                skip_cache,
                fallbacks: Default::default(),
            };
            paraphrase.check_selection(&template, selection)?;
        }
        // A job that pools providers names the first as its own.
        let pooled = selection.as_ref().and_then(|s| s.providers.first());
        let plugin = paraphrase.provider(pooled.or(provider.as_ref()).map(String::as_str))?;
        paraphrase.model(plugin, model.as_deref())?;
        let selection = selection
            .map(|s| serde_json::to_string(&s))
            .transpose()
            .map_err(|e| Error::Storage(StoreError::Task(format!("cannot encode the selection: {e}"))))?;
        let id = jobs::new_id()
            .map_err(|e| Error::Storage(StoreError::Task(format!("no randomness for a job id: {e}"))))?;
        let job = NewJob {
            id: id.clone(),
            client: client.to_owned(),
            key_id: CallScope::current().key.as_deref().map(str::to_owned),
            provider: plugin.id().to_owned(),
            model,
            skip_cache,
            selection,
            traceparent: crate::telemetry::Span::current().traceparent(),
            created_at: now_millis(),
        };
        self.store.jobs().create_job(job, texts).await?;
        self.wake.notify_one();
        self.view(client, &id, None).await
    }

    /// The job and, with `page` (offset, limit), that page of its results.
    pub async fn view(&self, client: &str, id: &str, page: Option<(u64, u64)>) -> Result<JobView> {
        let job = self.store.jobs().job(client, id).await?.ok_or_else(|| unknown_job(id))?;
        let items = match page {
            Some((offset, limit)) => Some(self.store.jobs().job_items(id, offset, limit).await?),
            None => None,
        };
        Ok(view(job, items, page))
    }

    pub async fn list(&self, client: &str, offset: u64, limit: u64) -> Result<Vec<JobView>> {
        let jobs = self.store.jobs().list_jobs(client, offset, limit).await?;
        Ok(jobs.into_iter().map(|j| view(j, None, None)).collect())
    }

    pub async fn cancel(&self, client: &str, id: &str) -> Result<JobView> {
        match self.store.jobs().cancel_job(client, id, now_millis()).await? {
            Cancelled::NotFound => Err(unknown_job(id)),
            Cancelled::AlreadyCompleted => {
                Err(Error::Conflict(format!("the job {id} has already completed")))
            }
            Cancelled::Cancelled => self.view(client, id, None).await,
        }
    }

    /// Starts working on jobs: gives back this replica's claims of an earlier run, then claims items
    /// as slots free up, and renews the claims it holds. Runs until the process ends.
    pub fn start(self: &Arc<Self>) {
        let service = self.clone();
        tokio::spawn(async move {
            match service.store.jobs().release_claims(&service.replica).await {
                Ok(0) => {}
                Ok(n) => {
                    tracing::info!(replica = %service.replica, items = n, "resuming job items this replica held before it stopped")
                }
                Err(e) => tracing::warn!("cannot give back this replica's earlier job claims: {e}"),
            }
            service.run().await;
        });
        let service = self.clone();
        tokio::spawn(async move { service.renew().await });
    }

    async fn run(self: Arc<Self>) {
        let in_flight = Arc::new(AtomicUsize::new(0));
        let lease = Duration::from_secs(self.config.lease_secs);
        let mut warned = false;
        loop {
            let free = self.config.concurrency.saturating_sub(in_flight.load(Ordering::Acquire));
            if free == 0 {
                let _ = tokio::time::timeout(Duration::from_secs(1), self.wake.notified()).await;
                continue;
            }
            let now = now_millis();
            match self
                .store
                .jobs()
                .claim_items(&self.replica, free, now, now + lease.as_millis() as i64)
                .await
            {
                Ok(items) if items.is_empty() => {
                    warned = false;
                    // Nothing to do: wait for a new job, or look again for items whose lease ran out.
                    let _ = tokio::time::timeout(Duration::from_millis(500), self.wake.notified()).await;
                }
                Ok(items) => {
                    warned = false;
                    for item in items {
                        in_flight.fetch_add(1, Ordering::AcqRel);
                        let (service, in_flight) = (self.clone(), in_flight.clone());
                        // Each item is a trace of its own, linked to the request that created its job.
                        let span = crate::telemetry::root_span!(
                            None,
                            "job item",
                            Internal,
                            "parlance.job.id" => item.job_id.to_string(),
                            "parlance.job.item" => item.index as i64,
                            "parlance.provider" => item.provider.to_string(),
                        );
                        if let Some(traceparent) = &item.traceparent {
                            span.link(traceparent);
                        }
                        tokio::spawn(async move {
                            // Its usage and budgets are those of the key that created the job.
                            let scope = CallScope::new("job", item.key_id.as_deref().map(Arc::from));
                            scope.scoped(service.work(item)).in_span(span).await;
                            in_flight.fetch_sub(1, Ordering::AcqRel);
                            service.wake.notify_one();
                        });
                    }
                }
                Err(e) => {
                    if !warned {
                        tracing::warn!("cannot claim job items: {e}; trying again");
                        warned = true;
                    }
                    tokio::time::sleep(Duration::from_secs(1)).await;
                }
            }
        }
    }

    /// Renews this replica's claims three times per lease, so that items held up by a slow provider
    /// or by the client's rate limit are not taken over while they are being worked on.
    async fn renew(self: Arc<Self>) {
        let lease = Duration::from_secs(self.config.lease_secs);
        loop {
            tokio::time::sleep(lease / 3).await;
            let until = now_millis() + lease.as_millis() as i64;
            if let Err(e) = self.store.jobs().renew_claims(&self.replica, until).await {
                tracing::warn!("cannot renew job claims: {e}");
            }
        }
    }

    /// One item, as any call of its client: waiting for the client's rate limit rather than failing.
    async fn work(&self, item: ClaimedItem) {
        // The selection was checked and written by `create`, so it reads back.
        let selection: Option<Selection> =
            item.selection.as_deref().and_then(|s| serde_json::from_str(s).ok());
        let pooled = selection.as_ref().is_some_and(|s| !s.providers.is_empty());
        let request = ParaphraseRequest {
            text: item.text.clone(),
            provider: (!pooled).then(|| item.provider.clone()),
            model: item.model.clone(),
            skip_cache: item.skip_cache,
            // A job item goes along its provider's configured chain; its result names who served it.
            fallbacks: Default::default(),
        };
        let caller = Caller { client: item.client.clone(), pacing: Pacing::Wait };
        let paraphrase = self.paraphrase.load_full();
        let result = match paraphrase.paraphrase_with(&request, selection.as_ref(), &caller).await {
            Ok(outcome) => ItemResult::Paraphrased {
                candidates: CandidatesPart::of(&outcome.paraphrase)
                    .and_then(|c| serde_json::to_string(&c).ok()),
                paraphrase: outcome.paraphrase.paraphrase,
                provider: outcome.paraphrase.provider,
                model: outcome.paraphrase.model,
                cached: outcome.paraphrase.cached,
                attempts: (!outcome.paraphrase.attempts.is_empty())
                    .then(|| serde_json::to_string(&outcome.paraphrase.attempts).ok())
                    .flatten(),
            },
            Err(e) => {
                let api = ApiError::from_error(&e);
                ItemResult::Failed { code: api.code.to_owned(), message: api.message }
            }
        };
        // The store may be briefly unavailable; the claim holds meanwhile, and if it runs out another
        // replica does the item again, so the result is stored once either way.
        for attempt in 0..10u32 {
            let finish = self.store.jobs().finish_item(
                &self.replica,
                &item.job_id,
                item.index,
                result.clone(),
                now_millis(),
            );
            match self.store.traced("finish_item", finish).await {
                Ok(_) => return,
                Err(e) => {
                    tracing::warn!(job = %item.job_id, item = item.index, attempt, "cannot store a job item's result: {e}");
                    tokio::time::sleep(Duration::from_millis(200) * 2u32.pow(attempt.min(5))).await;
                }
            }
        }
    }
}

fn unknown_job(id: &str) -> Error {
    Error::NotFound(format!("there is no job {id:?} for this client"))
}

fn view(job: JobRecord, items: Option<Vec<ItemRecord>>, page: Option<(u64, u64)>) -> JobView {
    let done = job.successful + job.failed;
    let processing_time = match (job.started_at, job.completed_at) {
        (Some(start), Some(end)) => (end - start).max(0) as f64 / 1000.0,
        (Some(start), None) => (now_millis() - start).max(0) as f64 / 1000.0,
        _ => 0.0,
    };
    let (mut results, mut errors) = (None, None);
    if let Some(items) = items {
        let (mut ok, mut failed) = (Vec::new(), Vec::new());
        for item in items {
            match item.result {
                Some(ItemResult::Paraphrased {
                    paraphrase,
                    provider,
                    model,
                    cached,
                    candidates,
                    attempts,
                }) => {
                    let part: Option<CandidatesPart> =
                        candidates.as_deref().and_then(|c| serde_json::from_str(c).ok());
                    let (candidates, requested, written, removed, warnings) = match part {
                        Some(p) => (Some(p.candidates), p.requested, p.written, Some(p.removed), p.warnings),
                        None => (None, None, None, None, None),
                    };
                    ok.push(JobResult {
                        index: item.index,
                        unchanged: super::unchanged(&item.text, &paraphrase),
                        original: item.text,
                        paraphrase,
                        provider,
                        model,
                        cached,
                        candidates,
                        requested,
                        written,
                        removed,
                        warnings,
                        attempts: attempts
                            .as_deref()
                            .and_then(|a| serde_json::from_str(a).ok())
                            .unwrap_or_default(),
                    })
                }
                Some(ItemResult::Failed { code, message }) => failed.push(JobError {
                    index: item.index,
                    original: item.text,
                    error: crate::rest::ErrorDetail { code, message, cause: None },
                }),
                None => {}
            }
        }
        results = Some(ok);
        errors = Some(failed);
    }
    let next_offset = page.map(|(offset, limit)| Some(offset + limit).filter(|next| *next < job.total_items));
    JobView {
        job_id: job.id,
        status: job.status,
        total_items: job.total_items,
        successful: job.successful,
        failed: job.failed,
        success_rate: if done == 0 { 0.0 } else { job.successful as f64 / done as f64 },
        provider: job.provider,
        model: job.model,
        results,
        errors,
        offset: page.map(|(offset, _)| offset),
        next_offset,
        created_at: rfc3339(job.created_at),
        completed_at: job.completed_at.map(rfc3339),
        processing_time,
    }
}
