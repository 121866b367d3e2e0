//! Configuration generations: the router of the configuration in force, replaced whole by a reload, so
//! that a request runs start to end on the generation that took it (its services, plugins, limits),
//! and what `/health` says about the generation in force and the last reload.

use axum::Router;
use axum::extract::Request;
use axum::response::Response;
use serde::Serialize;
use std::convert::Infallible;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use tower::Service;
use utoipa::ToSchema;

/// The configuration in force, as `/health` shows it.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct ConfigurationHealth {
    /// 1 at start, one more at each reload that took effect.
    pub generation: u64,
    /// When the generation in force was loaded (RFC 3339, UTC).
    pub loaded_at: String,
    /// Why the last reload was refused (the generation in force stays); absent once one succeeds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_reload_error: Option<String>,
}

/// What every generation's `/health` reads: shared by all of them, written by the reloads.
pub struct ConfigurationStatus(Mutex<ConfigurationHealth>);

impl ConfigurationStatus {
    pub fn new() -> Arc<ConfigurationStatus> {
        let first = ConfigurationHealth { generation: 1, loaded_at: now(), last_reload_error: None };
        Arc::new(ConfigurationStatus(Mutex::new(first)))
    }

    pub fn health(&self) -> ConfigurationHealth {
        self.lock().clone()
    }

    /// A reload took effect: its generation's number.
    pub fn advanced(&self) -> u64 {
        let mut status = self.lock();
        status.generation += 1;
        status.loaded_at = now();
        status.last_reload_error = None;
        status.generation
    }

    /// A reload was refused, for `reason`.
    pub fn refused(&self, reason: String) {
        self.lock().last_reload_error = Some(reason);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, ConfigurationHealth> {
        // Nothing panics while holding it; a poisoned lock still holds a whole value.
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

fn now() -> String {
    time::OffsetDateTime::now_utc().format(&time::format_description::well_known::Rfc3339).unwrap_or_default()
}

/// The router in force. The listeners serve this service, which hands each request to the router
/// current when it arrived; an older generation lives on in the requests and streams it still serves.
#[derive(Clone)]
pub struct Generations(Arc<arc_swap::ArcSwap<Router>>);

impl Generations {
    pub fn new(first: Router) -> Generations {
        Generations(Arc::new(arc_swap::ArcSwap::from_pointee(first)))
    }

    /// Makes `next` take every request from now on.
    pub fn install(&self, next: Router) {
        self.0.store(Arc::new(next));
    }
}

impl Service<Request> for Generations {
    type Response = Response;
    type Error = Infallible;
    type Future = axum::routing::future::RouteFuture<Infallible>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        // A router is always ready.
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request) -> Self::Future {
        let mut router = Router::clone(&self.0.load());
        router.call(request)
    }
}
