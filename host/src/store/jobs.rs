//! Asynchronous batch jobs as the store keeps them: a job (whose client, with what provider, how far
//! along), and one row per text, which a replica claims with a lease, works on, and finishes with
//! exactly one result. An item whose lease runs out (its replica died) is claimed again.

/// Where a job stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum JobStatus {
    /// Created; no item has been worked on yet.
    Pending,
    Processing,
    /// Every item has its result.
    Completed,
    /// Cancelled by its client; items not yet started were not worked on.
    Cancelled,
}

impl JobStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            JobStatus::Pending => "pending",
            JobStatus::Processing => "processing",
            JobStatus::Completed => "completed",
            JobStatus::Cancelled => "cancelled",
        }
    }

    pub fn parse(text: &str) -> Option<JobStatus> {
        [JobStatus::Pending, JobStatus::Processing, JobStatus::Completed, JobStatus::Cancelled]
            .into_iter()
            .find(|s| s.as_str() == text)
    }
}

/// What a job asks for, when it is created.
#[derive(Clone, Debug)]
pub struct NewJob {
    pub id: String,
    pub client: String,
    /// The API key that created the job, whose usage and budgets its items count against.
    pub key_id: Option<String>,
    /// The provider id, resolved when the job was created.
    pub provider: String,
    pub model: Option<String>,
    pub skip_cache: bool,
    /// What the job asks of several candidates per text, as JSON the paraphrase service wrote;
    /// `None` for one paraphrase per text.
    pub selection: Option<String>,
    /// The W3C `traceparent` of the request that created the job, when its trace was kept: each
    /// item's trace links to it.
    pub traceparent: Option<String>,
    /// Milliseconds since the Unix epoch.
    pub created_at: i64,
}

/// A job and its counts.
#[derive(Clone, Debug, PartialEq)]
pub struct JobRecord {
    pub id: String,
    pub client: String,
    pub provider: String,
    pub model: Option<String>,
    pub skip_cache: bool,
    pub status: JobStatus,
    pub total_items: u64,
    pub successful: u64,
    pub failed: u64,
    /// Milliseconds since the Unix epoch.
    pub created_at: i64,
    pub started_at: Option<i64>,
    pub completed_at: Option<i64>,
}

/// The result an item ended with.
#[derive(Clone, Debug, PartialEq)]
pub enum ItemResult {
    /// `candidates`: the ranked candidates, as JSON the paraphrase service wrote, when the job asked.
    Paraphrased {
        paraphrase: String,
        provider: String,
        model: String,
        cached: bool,
        candidates: Option<String>,
        /// The chain members that failed before `provider` served it, as JSON the paraphrase service
        /// wrote; `None` when the job's provider served it.
        attempts: Option<String>,
    },
    Failed {
        code: String,
        message: String,
    },
}

/// An item's result as both backends keep it: the paraphrase's columns, or the failure's.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ResultColumns {
    pub paraphrase: Option<String>,
    pub provider: Option<String>,
    pub model: Option<String>,
    pub cached: Option<bool>,
    pub candidates: Option<String>,
    pub attempts: Option<String>,
    pub error_code: Option<String>,
    pub error_message: Option<String>,
}

impl ItemResult {
    pub fn succeeded(&self) -> bool {
        matches!(self, ItemResult::Paraphrased { .. })
    }

    pub fn into_columns(self) -> ResultColumns {
        match self {
            ItemResult::Paraphrased { paraphrase, provider, model, cached, candidates, attempts } => {
                ResultColumns {
                    paraphrase: Some(paraphrase),
                    provider: Some(provider),
                    model: Some(model),
                    cached: Some(cached),
                    candidates,
                    attempts,
                    ..ResultColumns::default()
                }
            }
            ItemResult::Failed { code, message } => ResultColumns {
                error_code: Some(code),
                error_message: Some(message),
                ..ResultColumns::default()
            },
        }
    }

    /// The result of an item in `state`, `None` until it is `done`.
    pub fn from_columns(state: &str, columns: ResultColumns) -> Option<ItemResult> {
        if state != "done" {
            return None;
        }
        Some(match columns.error_code {
            Some(code) => ItemResult::Failed { code, message: columns.error_message.unwrap_or_default() },
            None => ItemResult::Paraphrased {
                paraphrase: columns.paraphrase.unwrap_or_default(),
                provider: columns.provider.unwrap_or_default(),
                model: columns.model.unwrap_or_default(),
                cached: columns.cached.unwrap_or(false),
                candidates: columns.candidates,
                attempts: columns.attempts,
            },
        })
    }
}

/// One text of a job, with its result once it has one.
#[derive(Clone, Debug, PartialEq)]
pub struct ItemRecord {
    pub index: u64,
    pub text: String,
    pub result: Option<ItemResult>,
}

/// An item a replica has claimed, with what it needs to work on it.
#[derive(Clone, Debug)]
pub struct ClaimedItem {
    pub job_id: String,
    pub index: u64,
    pub text: String,
    pub client: String,
    /// As [`NewJob::key_id`].
    pub key_id: Option<String>,
    pub provider: String,
    pub model: Option<String>,
    pub skip_cache: bool,
    /// As [`NewJob::selection`].
    pub selection: Option<String>,
    /// As [`NewJob::traceparent`].
    pub traceparent: Option<String>,
}

/// What cancelling did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cancelled {
    /// The job is cancelled now (or was already).
    Cancelled,
    /// The job had already completed.
    AlreadyCompleted,
    /// No such job for this client.
    NotFound,
}

/// A new job id: 16 random bytes, hex.
pub fn new_id() -> Result<String, getrandom::Error> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes)?;
    Ok(hex::encode(bytes))
}
