//! The paraphrase REST routes: `POST /paraphrase` and `POST /paraphrase/batch`, plus the operator's
//! views `GET /providers` and `GET /cache/stats`.

use super::{Caller as RateCaller, Outcome, Pacing, Paraphrase, ParaphraseRequest};
use crate::Parlance;
use crate::cache::CacheStats;
use crate::http::error::{ApiError, ErrorBody, ErrorDetail};
use crate::http::extract::{Caller, Json};
use crate::plugins::api::{PluginInfo, PluginKind};
use crate::ratelimit::Admitted;
use axum::Router;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub fn routes() -> Router<Parlance> {
    Router::new()
        .route("/paraphrase", post(paraphrase))
        .route("/paraphrase/batch", post(paraphrase_batch))
        .route("/providers", get(providers))
        .route("/cache/stats", get(cache_stats))
}

/// `POST /paraphrase`.
#[derive(Debug, Deserialize, ToSchema)]
pub struct ParaphraseBody {
    /// The text to paraphrase.
    pub text: String,
    /// A provider id from `GET /providers`; the default provider when absent.
    pub provider: Option<String>,
    /// A model of the provider; the provider's default model when absent.
    pub model: Option<String>,
    /// Skip reading the response cache; the new answer is still cached.
    #[serde(default)]
    pub skip_cache: bool,
}

fn rate_caller(caller: &Caller) -> RateCaller {
    RateCaller { client: caller.rate_key(), pacing: Pacing::Reject }
}

/// Paraphrase one text.
#[utoipa::path(
    post,
    path = "/paraphrase",
    tag = "paraphrase",
    request_body = ParaphraseBody,
    params(("current-user" = Option<String>, Header, description = "The caller's identity for rate limits (else the peer address)")),
    responses(
        (status = 200, description = "The paraphrase. When a provider call was made, X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset describe the caller's quota.", body = Paraphrase),
        (status = 400, description = "Malformed JSON or a bad header", body = ErrorBody),
        (status = 413, description = "The body is too large", body = ErrorBody),
        (status = 415, description = "Not a JSON body", body = ErrorBody),
        (status = 422, description = "A missing or wrong field, an empty or too long text, an unknown provider (the message lists the known ones), a provider without its API key (`provider_unavailable`), or input the provider rejected", body = ErrorBody),
        (status = 429, description = "This service's rate limit (code `rate_limited`, with Retry-After and X-RateLimit-* headers) or the upstream's (code `upstream_rate_limited`)", body = ErrorBody),
        (status = 502, description = "The upstream or the plugin failed", body = ErrorBody),
        (status = 503, description = "The plugin reported its own configuration as broken, or no instance could be started", body = ErrorBody),
        (status = 504, description = "The upstream or the plugin timed out", body = ErrorBody),
    )
)]
pub async fn paraphrase(
    State(parlance): State<Parlance>,
    caller: Caller,
    Json(body): Json<ParaphraseBody>,
) -> Result<Response, ApiError> {
    let request = ParaphraseRequest {
        text: body.text,
        provider: body.provider,
        model: body.model,
        skip_cache: body.skip_cache,
    };
    let outcome = parlance
        .paraphraser()
        .paraphrase(&request, &rate_caller(&caller))
        .await
        .map_err(rate_limited_error)?;
    let mut response = axum::Json(outcome.paraphrase).into_response();
    if let Some(quota) = outcome.quota {
        rate_headers(response.headers_mut(), quota);
    }
    Ok(response)
}

fn rate_headers(headers: &mut HeaderMap, quota: Admitted) {
    headers.insert("x-ratelimit-limit", HeaderValue::from(quota.limit));
    headers.insert("x-ratelimit-remaining", HeaderValue::from(quota.remaining));
    headers.insert("x-ratelimit-reset", HeaderValue::from(quota.reset.as_secs_f64().ceil() as u64));
}

/// Our own 429 carries the quota headers as well as Retry-After.
fn rate_limited_error(e: crate::Error) -> ApiError {
    let mut api = ApiError::from_error(&e);
    if let crate::Error::RateLimited { limit_per_minute, retry_after, .. } = &e {
        let reset = retry_after.as_secs_f64().ceil() as u64
            + 60 / u64::from((*limit_per_minute).max(1)) * u64::from(limit_per_minute.saturating_sub(1));
        api.headers.push(("x-ratelimit-limit", limit_per_minute.to_string()));
        api.headers.push(("x-ratelimit-remaining", "0".into()));
        api.headers.push(("x-ratelimit-reset", reset.to_string()));
    }
    api
}

/// `POST /paraphrase/batch`.
#[derive(Debug, Deserialize, ToSchema)]
pub struct BatchBody {
    /// At most `BATCH_MAX_SIZE` texts (10 by default).
    pub texts: Vec<String>,
    pub provider: Option<String>,
    pub model: Option<String>,
}

/// One text's result, in input order: a paraphrase or an error.
#[derive(Debug, Serialize, ToSchema)]
pub struct BatchItem {
    /// Position of the text in the request.
    pub index: usize,
    pub original: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub paraphrase: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub provider: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cached: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<ErrorDetail>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct BatchSummary {
    pub total: usize,
    pub successful: usize,
    pub failed: usize,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct BatchResponse {
    pub results: Vec<BatchItem>,
    pub summary: BatchSummary,
}

/// Paraphrase several texts concurrently (`BATCH_MAX_WORKERS` at a time); each item succeeds or fails
/// alone.
#[utoipa::path(
    post,
    path = "/paraphrase/batch",
    tag = "paraphrase",
    request_body = BatchBody,
    params(("current-user" = Option<String>, Header, description = "The caller's identity for rate limits (else the peer address)")),
    responses(
        (status = 200, description = "One result per text, in input order, and a summary", body = BatchResponse),
        (status = 400, description = "Malformed JSON or a bad header", body = ErrorBody),
        (status = 413, description = "The body is too large", body = ErrorBody),
        (status = 415, description = "Not a JSON body", body = ErrorBody),
        (status = 422, description = "No texts, more than BATCH_MAX_SIZE texts (the message names the limit), a wrong field, an unknown provider, or a provider without its API key", body = ErrorBody),
    )
)]
pub async fn paraphrase_batch(
    State(parlance): State<Parlance>,
    caller: Caller,
    Json(body): Json<BatchBody>,
) -> Result<axum::Json<BatchResponse>, ApiError> {
    let max = parlance.paraphraser().config().batch_max_size;
    if body.texts.is_empty() {
        return Err(crate::Error::invalid("texts", "`texts` is empty").into());
    }
    if body.texts.len() > max {
        return Err(crate::Error::invalid(
            "texts",
            format!("`texts` has {} items; BATCH_MAX_SIZE allows at most {max}", body.texts.len()),
        )
        .into());
    }
    let texts = body.texts.clone();
    let results = parlance
        .paraphraser()
        .paraphrase_batch(body.texts, body.provider, body.model, &rate_caller(&caller))
        .await?;
    let items: Vec<BatchItem> = texts
        .into_iter()
        .zip(results)
        .enumerate()
        .map(|(index, (original, result))| match result {
            Ok(Outcome { paraphrase: p, .. }) => BatchItem {
                index,
                original,
                paraphrase: Some(p.paraphrase),
                provider: Some(p.provider),
                model: Some(p.model),
                cached: Some(p.cached),
                error: None,
            },
            Err(e) => {
                let api = ApiError::from_error(&e);
                BatchItem {
                    index,
                    original,
                    paraphrase: None,
                    provider: None,
                    model: None,
                    cached: None,
                    error: Some(ErrorDetail { code: api.code.into(), message: api.message, cause: None }),
                }
            }
        })
        .collect();
    let successful = items.iter().filter(|i| i.error.is_none()).count();
    let summary = BatchSummary { total: items.len(), successful, failed: items.len() - successful };
    Ok(axum::Json(BatchResponse { results: items, summary }))
}

/// One configured provider.
#[derive(Debug, Serialize, ToSchema)]
pub struct ProviderEntry {
    /// The id to send as `provider`.
    pub id: String,
    pub name: String,
    pub default_model: String,
    /// Whether this is the provider used when a request names none.
    pub default: bool,
    /// False when a secret the provider needs (an API key) is not configured.
    pub available: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unavailable_reason: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ProvidersResponse {
    /// The default provider's id.
    pub default: String,
    pub providers: Vec<ProviderEntry>,
}

/// The configured providers, their default models, and which one is the default.
#[utoipa::path(get, path = "/providers", tag = "paraphrase", responses((status = 200, body = ProvidersResponse)))]
pub async fn providers(State(parlance): State<Parlance>) -> axum::Json<ProvidersResponse> {
    let default = parlance.paraphraser().default_provider().to_owned();
    let providers = parlance
        .plugins()
        .of_kind(PluginKind::Provider)
        .map(|p| {
            let (name, default_model) = match &p.info {
                PluginInfo::Provider { name, default_model } => (name.clone(), default_model.clone()),
                other => (other.name().to_owned(), String::new()),
            };
            let missing = p.spec().missing_secrets();
            ProviderEntry {
                id: p.id().to_owned(),
                name,
                default_model,
                default: p.id() == default,
                available: missing.is_empty(),
                unavailable_reason: (!missing.is_empty())
                    .then(|| format!("missing secret: {}", missing.join(", "))),
            }
        })
        .collect();
    axum::Json(ProvidersResponse { default, providers })
}

/// Response-cache hits and misses, and the state of the store.
#[utoipa::path(get, path = "/cache/stats", tag = "operations", responses((status = 200, body = CacheStats)))]
pub async fn cache_stats(State(parlance): State<Parlance>) -> axum::Json<CacheStats> {
    axum::Json(parlance.paraphraser().cache().stats())
}
