//! `GET /usage`: the ledger's report for the caller (a key its own calls, a client without keys its
//! own), and its OpenAPI fragment.

use super::report::{Ledger, ReportRequest, UsageReport, Viewer};
use crate::rest::extract::{Admin, AuthenticatedClient, AuthenticatedKey, Query};
use crate::rest::openapi::responses as r;
use crate::rest::{ApiError, Caller, ErrorBody};
use axum::Router;
use axum::extract::{FromRef, State};
use axum::http::request::Parts;
use axum::routing::get;
use std::sync::Arc;
use utoipa::OpenApi;

pub fn routes<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    Arc<Ledger>: FromRef<S>,
{
    Router::new().route("/usage", get(usage))
}

#[derive(OpenApi)]
#[openapi(paths(usage), tags((name = "usage", description = "Tokens and spend recorded per call")))]
pub struct ApiDoc;

/// Tokens and spend of the caller's plugin calls, summed per group over whole hours. With API keys
/// required, a key reads its own calls; without, a client (`current-user`) reads its own; the admin
/// credential (`[admin]`) reads every key's and client's, and may filter by `key` and `client`.
#[utoipa::path(
    get,
    path = "/usage",
    tag = "usage",
    params(ReportRequest),
    responses(
        (status = 200, description = "The sums, per group and in total; money as exact decimal strings", body = UsageReport),
        (status = 400, description = r::BAD_CALLER, body = ErrorBody),
        (status = 403, description = "A key asked for another key's or client's usage", body = ErrorBody),
        (status = 422, description = "A bad `from`, `to` or `group_by`", body = ErrorBody),
        (status = 503, description = "The store is unavailable", body = ErrorBody),
    )
)]
pub async fn usage(
    State(ledger): State<Arc<Ledger>>,
    admin: Option<Admin>,
    parts: Parts,
    caller: Caller,
    Query(request): Query<ReportRequest>,
) -> Result<axum::Json<UsageReport>, ApiError> {
    let viewer = if admin.is_some() { Viewer::Admin } else { viewer(&parts, &caller) };
    Ok(axum::Json(ledger.report(&viewer, &request, super::now_millis()).await?))
}

/// Who asks: a request admitted by its key reads as that key; any other as its client.
fn viewer(parts: &Parts, caller: &Caller) -> Viewer {
    match (parts.extensions.get::<AuthenticatedClient>(), parts.extensions.get::<AuthenticatedKey>()) {
        (Some(AuthenticatedClient(client)), Some(key)) => {
            Viewer::Key { id: key.id.to_string(), client: client.to_string() }
        }
        _ => Viewer::Client(caller.tenant().to_owned()),
    }
}
