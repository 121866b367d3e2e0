//! The evaluation routes, `POST /evaluate` and `POST /evaluate/batch`, and their OpenAPI fragment.

use super::summary::Summary;
use super::{EvalOptions, EvaluateService, Evaluation};
use crate::plugins::api::Pair;
use crate::rest::openapi::responses as r;
use crate::rest::openapi::{array, items, property};
use crate::rest::{ApiError, Caller, ErrorBody, Json};
use axum::Router;
use axum::extract::{FromRef, State};
use axum::routing::post;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;
use utoipa::{OpenApi, ToSchema};

type Service = State<Arc<EvaluateService>>;

pub fn routes<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    Arc<EvaluateService>: FromRef<S>,
{
    Router::new().route("/evaluate", post(evaluate)).route("/evaluate/batch", post(evaluate_batch))
}

#[derive(OpenApi)]
#[openapi(paths(evaluate, evaluate_batch), tags((name = "evaluate", description = "Paraphrase quality evaluation")))]
struct ApiDoc;

/// The routes' OpenAPI fragment, with this configuration's limits.
pub fn openapi(service: &EvaluateService) -> utoipa::openapi::OpenApi {
    let mut doc = ApiDoc::openapi();
    let config = service.config();
    for field in ["original", "paraphrase"] {
        property(&mut doc, "EvaluateBody", field, |o| o.max_length = Some(config.max_text_chars));
    }
    for field in ["originals", "paraphrases"] {
        array(&mut doc, "EvaluateBatchBody", field, items(1, config.max_pairs));
    }
    doc
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct EvaluateBody {
    pub original: String,
    pub paraphrase: String,
    /// Also compute `semantic_similarity` (needs an embedding backend). Default false.
    #[serde(default)]
    pub include_semantic: bool,
    /// Return every score (precision and recall, unstemmed ROUGE…), not only the headline ones.
    #[serde(default)]
    pub detail: bool,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct EvaluateResponse {
    pub original: String,
    pub paraphrase: String,
    /// Every score by name, flat, and `overall_score`.
    pub evaluation: Evaluation,
    /// The weights `overall_score` used, by score name: those of the scores that were computed (a
    /// weighted score that was not, such as `semantic_similarity` without `include_semantic`, is left
    /// out, and `warnings` says why when it was asked for).
    pub weights: BTreeMap<String, f64>,
    /// Why a score is missing (a metric failed, no embedding backend), if one is.
    pub warnings: Vec<String>,
}

/// Judge a paraphrase against its original with every metric plugin.
#[utoipa::path(post, path = "/evaluate", tag = "evaluate", request_body = EvaluateBody,
    responses(
        (status = 200, description = "Every score, `overall_score`, the weights of the scores that were computed, and why any score is missing", body = EvaluateResponse),
        (status = 400, description = r::BAD_JSON, body = ErrorBody),
        (status = 413, description = r::TOO_LARGE, body = ErrorBody),
        (status = 415, description = r::NOT_JSON, body = ErrorBody),
        (status = 422, description = "A missing or wrong field, or a text over the limit", body = ErrorBody),
    ))]
pub async fn evaluate(
    State(service): Service,
    caller: Caller,
    Json(body): Json<EvaluateBody>,
) -> Result<axum::Json<EvaluateResponse>, ApiError> {
    let options = EvalOptions { include_semantic: body.include_semantic, detail: body.detail };
    let pair = Pair { original: body.original, paraphrase: body.paraphrase };
    let mut results = service.evaluate(std::slice::from_ref(&pair), options, &caller.rate_key()).await?;
    let result = results.remove(0);
    Ok(axum::Json(EvaluateResponse {
        original: pair.original,
        paraphrase: pair.paraphrase,
        weights: service.weights().used([&result.evaluation.scores]),
        evaluation: result.evaluation,
        warnings: result.warnings,
    }))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct EvaluateBatchBody {
    pub originals: Vec<String>,
    /// As many as `originals`; the nth paraphrase is judged against the nth original.
    pub paraphrases: Vec<String>,
    #[serde(default)]
    pub include_semantic: bool,
    #[serde(default)]
    pub detail: bool,
    /// Also return per-score mean, min, max and standard deviation over the batch.
    #[serde(default)]
    pub summary: bool,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PairResult {
    pub original: String,
    pub paraphrase: String,
    pub evaluation: Evaluation,
    pub warnings: Vec<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct EvaluateBatchResponse {
    pub results: Vec<PairResult>,
    /// The weights of the scores computed for any pair, by score name.
    pub weights: BTreeMap<String, f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub summary: Option<Summary>,
}

/// Judge many pairs; each metric plugin scores them in batches.
#[utoipa::path(post, path = "/evaluate/batch", tag = "evaluate", request_body = EvaluateBatchBody,
    responses(
        (status = 200, description = "Each pair's evaluation in input order, the weights of the scores that were computed, and the summary when asked for", body = EvaluateBatchResponse),
        (status = 400, description = r::BAD_JSON, body = ErrorBody),
        (status = 413, description = r::TOO_LARGE, body = ErrorBody),
        (status = 415, description = r::NOT_JSON, body = ErrorBody),
        (status = 422, description = "Lists of different lengths, empty lists, too many pairs, or a text over the limit", body = ErrorBody),
    ))]
pub async fn evaluate_batch(
    State(service): Service,
    caller: Caller,
    Json(body): Json<EvaluateBatchBody>,
) -> Result<axum::Json<EvaluateBatchResponse>, ApiError> {
    let pairs = service.batch_pairs(body.originals, body.paraphrases)?;
    let options = EvalOptions { include_semantic: body.include_semantic, detail: body.detail };
    let evaluations = service.evaluate(&pairs, options, &caller.rate_key()).await?;
    let summary = body.summary.then(|| super::EvaluateService::summarize(&evaluations));
    let weights = service.weights().used(evaluations.iter().map(|e| &e.evaluation.scores));
    let results = pairs
        .into_iter()
        .zip(evaluations)
        .map(|(pair, e)| PairResult {
            original: pair.original,
            paraphrase: pair.paraphrase,
            evaluation: e.evaluation,
            warnings: e.warnings,
        })
        .collect();
    Ok(axum::Json(EvaluateBatchResponse { results, weights, summary }))
}
