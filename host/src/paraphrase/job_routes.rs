//! The asynchronous batch routes, as the original paraphrase service had them: `POST
//! /paraphrase/batch/async` creates a job, `GET /jobs/{job_id}` reports it with a page of results,
//! `GET /jobs` lists the caller's jobs, `DELETE /jobs/{job_id}` cancels one. A job is its client's
//! alone.

use super::Selection;
use super::jobs::{JobError, JobResult, JobService, JobView};
use super::routes::selection_schema;
use crate::rest::openapi::{array, items, property, text};
use crate::rest::{ApiError, Caller, ErrorBody, Json, Path, Query};
use axum::Router;
use axum::extract::{FromRef, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use utoipa::{IntoParams, OpenApi, ToSchema};

type Jobs = State<Arc<JobService>>;

/// Results per page when a request names none, and the most a request may ask for.
const PAGE: u64 = 100;
const MAX_PAGE: u64 = 1000;

pub fn routes<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    Arc<JobService>: FromRef<S>,
{
    Router::new()
        .route("/paraphrase/batch/async", post(create))
        .route("/jobs", get(list))
        .route("/jobs/{job_id}", get(show).delete(cancel))
}

#[derive(OpenApi)]
#[openapi(
    paths(create, show, list, cancel),
    components(schemas(JobResult, JobError)),
    tags((name = "jobs", description = "Asynchronous batch paraphrasing, durable across restarts"))
)]
struct ApiDoc;

/// The routes' OpenAPI fragment, with this configuration's limits.
pub fn openapi(service: &JobService) -> utoipa::openapi::OpenApi {
    let mut doc = ApiDoc::openapi();
    array(&mut doc, "JobBody", "texts", items(1, service.config().max_texts));
    property(&mut doc, "JobBody", "model", text(None));
    let paraphrase = service.paraphraser();
    let providers: Vec<serde_json::Value> =
        paraphrase.providers().into_iter().filter(|p| p.available).map(|p| p.id.into()).collect();
    let max = paraphrase.config().max_candidates;
    selection_schema(&mut doc, "JobBody", &providers, &paraphrase.score_names(), max);
    doc
}

/// `POST /paraphrase/batch/async`.
#[derive(Debug, Deserialize, ToSchema)]
pub struct JobBody {
    /// At most `[jobs] max_texts` texts (10 000 by default).
    pub texts: Vec<String>,
    pub provider: Option<String>,
    pub model: Option<String>,
    #[serde(default)]
    pub skip_cache: bool,
    /// As in `POST /paraphrase`, for every text.
    pub candidates: Option<usize>,
    /// As in `POST /paraphrase`.
    pub providers: Option<Vec<String>>,
    /// As in `POST /paraphrase`.
    pub min_scores: Option<std::collections::BTreeMap<String, f64>>,
    /// As in `POST /paraphrase`.
    pub rank_by: Option<String>,
}

#[derive(Debug, Deserialize, IntoParams)]
pub struct PageQuery {
    /// The first item (or job) of the page.
    #[serde(default)]
    #[param(minimum = 0, maximum = 9223372036854775807_i64)]
    pub offset: u64,
    /// How many (100 by default, at most 1000).
    #[param(minimum = 1, maximum = 1000)]
    pub limit: Option<u64>,
}

impl PageQuery {
    fn page(&self) -> Result<(u64, u64), ApiError> {
        let limit = self.limit.unwrap_or(PAGE);
        if limit == 0 || limit > MAX_PAGE {
            return Err(ApiError::bad_request(
                "invalid_query",
                format!("`limit` must be from 1 to {MAX_PAGE}"),
            ));
        }
        // Offsets are stored as signed 64-bit numbers, as the document says.
        if self.offset > i64::MAX as u64 {
            return Err(ApiError::bad_request(
                "invalid_query",
                format!("`offset` must be at most {}", i64::MAX),
            ));
        }
        Ok((self.offset, limit))
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct JobList {
    pub jobs: Vec<JobView>,
}

/// Create a job: the texts are stored and paraphrased in the background, by any replica, paced by the
/// client's rate limit; the job survives restarts.
#[utoipa::path(post, path = "/paraphrase/batch/async", tag = "jobs", request_body = JobBody,
    params(("current-user" = Option<String>, Header, description = "The caller, whose job it is")),
    responses(
        (status = 202, description = "The job, pending; `Location` is its URL", body = JobView),
        (status = 400, description = "Malformed JSON or a bad header", body = ErrorBody),
        (status = 413, description = "The body is too large", body = ErrorBody),
        (status = 415, description = "Not a JSON body", body = ErrorBody),
        (status = 422, description = "No texts, too many, an unknown provider or model, or a wrong selection of candidates (as in `POST /paraphrase`)", body = ErrorBody),
        (status = 503, description = "The store cannot take the job", body = ErrorBody),
    ))]
pub async fn create(
    State(jobs): Jobs,
    caller: Caller,
    Json(body): Json<JobBody>,
) -> Result<Response, ApiError> {
    let selection = Selection::from_fields(body.candidates, body.providers, body.min_scores, body.rank_by);
    let job = jobs
        .create(&caller.rate_key(), body.texts, body.provider, body.model, body.skip_cache, selection)
        .await?;
    let location = format!("/jobs/{}", job.job_id);
    Ok((StatusCode::ACCEPTED, [(header::LOCATION, location)], axum::Json(job)).into_response())
}

/// A job with one page of its items' results (`offset`, `limit`); `next_offset` is where the next page
/// starts.
#[utoipa::path(get, path = "/jobs/{job_id}", tag = "jobs",
    params(("job_id" = String, Path), PageQuery, ("current-user" = Option<String>, Header, description = "The caller")),
    responses(
        (status = 200, description = "The job", body = JobView),
        (status = 400, description = "A bad page or header", body = ErrorBody),
        (status = 404, description = "No such job for this client", body = ErrorBody),
    ))]
pub async fn show(
    State(jobs): Jobs,
    caller: Caller,
    Path(job_id): Path<String>,
    Query(query): Query<PageQuery>,
) -> Result<axum::Json<JobView>, ApiError> {
    Ok(axum::Json(jobs.view(&caller.rate_key(), &job_id, Some(query.page()?)).await?))
}

/// The caller's jobs, newest first, without their results.
#[utoipa::path(get, path = "/jobs", tag = "jobs",
    params(PageQuery, ("current-user" = Option<String>, Header, description = "The caller")),
    responses(
        (status = 200, description = "The caller's jobs", body = JobList),
        (status = 400, description = "A bad page or header", body = ErrorBody),
    ))]
pub async fn list(
    State(jobs): Jobs,
    caller: Caller,
    Query(query): Query<PageQuery>,
) -> Result<axum::Json<JobList>, ApiError> {
    let (offset, limit) = query.page()?;
    Ok(axum::Json(JobList { jobs: jobs.list(&caller.rate_key(), offset, limit).await? }))
}

/// Cancel a job: items not yet started are not worked on; those in flight finish and keep their
/// results.
#[utoipa::path(delete, path = "/jobs/{job_id}", tag = "jobs",
    params(("job_id" = String, Path), ("current-user" = Option<String>, Header, description = "The caller")),
    responses(
        (status = 200, description = "The job, cancelled", body = JobView),
        (status = 400, description = "A bad header", body = ErrorBody),
        (status = 404, description = "No such job for this client", body = ErrorBody),
        (status = 409, description = "The job has already completed", body = ErrorBody),
    ))]
pub async fn cancel(
    State(jobs): Jobs,
    caller: Caller,
    Path(job_id): Path<String>,
) -> Result<axum::Json<JobView>, ApiError> {
    Ok(axum::Json(jobs.cancel(&caller.rate_key(), &job_id).await?))
}
