//! The paraphrase REST routes: `POST /paraphrase` and `POST /paraphrase/batch`, plus the operator's
//! views `GET /providers` and `GET /cache/stats`, and their OpenAPI fragment.

use super::{
    Caller as RateCaller, Candidate, Outcome, Pacing, Paraphrase, ParaphraseRequest, ParaphraseService,
    ProvidersResponse, Removed, Selection,
};
use crate::cache::CacheStats;
use crate::fallback::{Attempt, ChainChoice, outcome};
use crate::rest::openapi::responses as r;
use crate::rest::openapi::{array, items, property, text};
use crate::rest::{ApiError, Caller, ErrorBody, ErrorDetail, Json};
use axum::Router;
use axum::extract::{FromRef, State};
use axum::http::{HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;
use utoipa::{OpenApi, ToSchema};

type Service = State<Arc<ParaphraseService>>;

pub fn routes<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    Arc<ParaphraseService>: FromRef<S>,
{
    Router::new()
        .route("/paraphrase", post(paraphrase))
        .route("/paraphrase/batch", post(paraphrase_batch))
        .route("/providers", get(providers))
        .route("/cache/stats", get(cache_stats))
}

#[derive(OpenApi)]
#[openapi(
    paths(paraphrase, paraphrase_batch, providers, cache_stats),
    tags((name = "paraphrase", description = "Paraphrase generation (seed 001)"))
)]
struct ApiDoc;

/// The routes' OpenAPI fragment, with this configuration's limits and available providers.
pub fn openapi(service: &ParaphraseService) -> utoipa::openapi::OpenApi {
    let mut doc = ApiDoc::openapi();
    let mut providers: Vec<serde_json::Value> =
        service.providers().into_iter().filter(|p| p.available).map(|p| p.id.into()).collect();
    providers.push(serde_json::Value::Null);
    let scores = service.score_names();
    for body in ["ParaphraseBody", "BatchBody"] {
        property(&mut doc, body, "provider", |o| o.enum_values = Some(providers.clone()));
        property(&mut doc, body, "model", text(None));
        selection_schema(&mut doc, body, &providers, &scores, service.config().max_candidates);
    }
    let config = service.config();
    property(&mut doc, "ParaphraseBody", "text", text(Some(config.max_text_chars)));
    array(&mut doc, "BatchBody", "texts", items(1, config.batch_max_size));
    doc
}

/// The candidate fields' limits: the count, the provider ids, the score names.
pub(super) fn selection_schema(
    doc: &mut utoipa::openapi::OpenApi,
    body: &str,
    providers: &[serde_json::Value],
    scores: &[String],
    max: usize,
) {
    use utoipa::openapi::schema::{AdditionalProperties, ArrayItems, ObjectBuilder, Schema, Type};
    property(doc, body, "candidates", |o| {
        o.minimum = Some(1usize.into());
        o.maximum = Some(max.into());
    });
    let ids: Vec<serde_json::Value> = providers.iter().filter(|p| !p.is_null()).cloned().collect();
    array(doc, body, "providers", |a| {
        a.unique_items = true;
        a.items = ArrayItems::RefOrSchema(Box::new(
            Schema::Object(ObjectBuilder::new().schema_type(Type::String).enum_values(Some(ids)).build())
                .into(),
        ));
    });
    property(doc, body, "min_scores", |o| {
        o.properties = scores
            .iter()
            .map(|name| {
                (name.clone(), Schema::Object(ObjectBuilder::new().schema_type(Type::Number).build()).into())
            })
            .collect();
        o.additional_properties = Some(Box::new(AdditionalProperties::FreeForm(false)));
    });
    let mut names: Vec<serde_json::Value> = scores.iter().map(|s| s.as_str().into()).collect();
    names.push(serde_json::Value::Null);
    property(doc, body, "rank_by", |o| o.enum_values = Some(names));
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
    /// `false`: the provider alone, without its configured fallbacks; a list of provider ids: this
    /// request's own chain after its provider (only where the server's `[fallback] request_chains`
    /// allows it); `true` or absent: the provider's configured chain.
    #[serde(default)]
    #[schema(value_type = Option<crate::fallback::FallbacksField>)]
    pub fallbacks: ChainChoice,
    // The optional fields that ask for several candidates. With none of them (or `candidates` 1
    // alone) the answer is a single paraphrase, as without them.
    /// Candidates to ask each provider for, 1 to `[paraphrase] max_candidates` (8 by default); 1 when
    /// absent.
    pub candidates: Option<usize>,
    /// Provider ids to pool candidates from, each called within its own rate limit; instead of
    /// `provider`, never with it.
    pub providers: Option<Vec<String>>,
    /// Floors by score name (the metrics' headline scores as `POST /evaluate` with
    /// `include_semantic` names them, `overall_score`, or `diversity`): a candidate passes when it
    /// meets every one.
    pub min_scores: Option<BTreeMap<String, f64>>,
    /// The score that ranks the candidates, descending, after those that passed the floors come
    /// first; `diversity` when absent: one minus the Jaccard similarity of the candidate's and the
    /// text's sets of lower-cased words and adjacent word pairs.
    pub rank_by: Option<String>,
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
        (status = 200, description = "The paraphrase, and with the candidate fields every candidate with its scores. When a provider call was made, X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset describe the caller's quota.", body = Paraphrase),
        (status = 400, description = r::BAD_JSON, body = ErrorBody),
        (status = 413, description = r::TOO_LARGE, body = ErrorBody),
        (status = 415, description = r::NOT_JSON, body = ErrorBody),
        (status = 422, description = "A missing or wrong field, an empty or too long text, an unknown provider (the message lists the known ones), a provider without its API key (`provider_unavailable`), `candidates` out of range, an unknown score name in `min_scores` or `rank_by`, `provider` with `providers`, or input the provider rejected", body = ErrorBody),
        (status = 429, description = "This service's rate limit (code `rate_limited`, with Retry-After and X-RateLimit-* headers) or the upstream's (code `upstream_rate_limited`), or the caller's budget or per-minute limit (code `budget_exceeded`)", body = ErrorBody),
        (status = 502, description = "The upstream or the plugin failed", body = ErrorBody),
        (status = 503, description = "The plugin reported its own configuration as broken, or no instance could be started", body = ErrorBody),
        (status = 504, description = "The upstream or the plugin timed out", body = ErrorBody),
    )
)]
pub async fn paraphrase(
    State(service): Service,
    caller: Caller,
    Json(body): Json<ParaphraseBody>,
) -> Result<Response, ApiError> {
    let request = ParaphraseRequest {
        text: body.text,
        provider: body.provider,
        model: body.model,
        skip_cache: body.skip_cache,
        fallbacks: body.fallbacks,
    };
    let selection = Selection::from_fields(body.candidates, body.providers, body.min_scores, body.rank_by);
    let outcome = service.paraphrase_with(&request, selection.as_ref(), &rate_caller(&caller)).await?;
    let attempts = outcome::attempts_header(&outcome.paraphrase.attempts);
    let mut response = axum::Json(outcome.paraphrase).into_response();
    if let Some(quota) = outcome.quota {
        insert_headers(response.headers_mut(), quota.headers());
    }
    if let Some(value) = attempts {
        response.headers_mut().insert(outcome::HEADER, value);
    }
    Ok(response)
}

fn insert_headers(headers: &mut HeaderMap, values: [(&'static str, u64); 3]) {
    for (name, value) in values {
        headers.insert(name, HeaderValue::from(value));
    }
}

/// `POST /paraphrase/batch`.
#[derive(Debug, Deserialize, ToSchema)]
pub struct BatchBody {
    /// At most `BATCH_MAX_SIZE` texts (10 by default).
    pub texts: Vec<String>,
    pub provider: Option<String>,
    pub model: Option<String>,
    /// As in `POST /paraphrase`; each item goes along the chain on its own.
    #[serde(default)]
    #[schema(value_type = Option<crate::fallback::FallbacksField>)]
    pub fallbacks: ChainChoice,
    /// As in `POST /paraphrase`, for every text.
    pub candidates: Option<usize>,
    /// As in `POST /paraphrase`.
    pub providers: Option<Vec<String>>,
    /// As in `POST /paraphrase`.
    pub min_scores: Option<BTreeMap<String, f64>>,
    /// As in `POST /paraphrase`.
    pub rank_by: Option<String>,
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
    /// Whether the paraphrase is the original again, whitespace aside.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unchanged: Option<bool>,
    /// As in `POST /paraphrase`: the chain members that failed before `provider` served the item.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub attempts: Vec<Attempt>,
    /// With the candidate fields: as in `POST /paraphrase`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub candidates: Option<Vec<Candidate>>,
    /// As in `POST /paraphrase`: the candidates asked for in all.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub requested: Option<usize>,
    /// As in `POST /paraphrase`: the candidates the providers wrote, before `removed`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub written: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub removed: Option<Removed>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub warnings: Option<Vec<String>>,
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
        (status = 400, description = r::BAD_JSON, body = ErrorBody),
        (status = 413, description = r::TOO_LARGE, body = ErrorBody),
        (status = 415, description = r::NOT_JSON, body = ErrorBody),
        (status = 422, description = "No texts, more than BATCH_MAX_SIZE texts (the message names the limit), a wrong field, an unknown provider, or a provider without its API key", body = ErrorBody),
    )
)]
pub async fn paraphrase_batch(
    State(service): Service,
    caller: Caller,
    Json(body): Json<BatchBody>,
) -> Result<axum::Json<BatchResponse>, ApiError> {
    let texts = body.texts.clone();
    let selection = Selection::from_fields(body.candidates, body.providers, body.min_scores, body.rank_by);
    let results = service
        .paraphrase_batch(
            body.texts,
            body.provider,
            body.model,
            body.fallbacks,
            selection,
            &rate_caller(&caller),
        )
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
                unchanged: Some(p.unchanged),
                attempts: p.attempts,
                candidates: p.candidates,
                requested: p.requested,
                written: p.written,
                removed: p.removed,
                warnings: p.warnings,
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
                    unchanged: None,
                    attempts: Vec::new(),
                    candidates: None,
                    requested: None,
                    written: None,
                    removed: None,
                    warnings: None,
                    error: Some(ErrorDetail { code: api.code.into(), message: api.message, cause: None }),
                }
            }
        })
        .collect();
    let successful = items.iter().filter(|i| i.error.is_none()).count();
    let summary = BatchSummary { total: items.len(), successful, failed: items.len() - successful };
    Ok(axum::Json(BatchResponse { results: items, summary }))
}

/// The configured providers, their default models, and which one is the default; and the score names
/// a candidate selection may use.
#[utoipa::path(get, path = "/providers", tag = "paraphrase", responses(
    (status = 200, description = "Every configured provider, its default model, whether it is available, and its rate limit; and the scores `min_scores` and `rank_by` accept", body = ProvidersResponse),
))]
pub async fn providers(State(service): Service) -> axum::Json<ProvidersResponse> {
    axum::Json(ProvidersResponse {
        default: service.default_provider().to_owned(),
        providers: service.providers(),
        scores: service.score_names(),
    })
}

/// Response-cache hits and misses, and the state of the store.
#[utoipa::path(get, path = "/cache/stats", tag = "operations", responses(
    (status = 200, description = "The response cache's counters and the state of its store", body = CacheStats),
))]
pub async fn cache_stats(State(service): Service) -> axum::Json<CacheStats> {
    axum::Json(service.cache().stats())
}
