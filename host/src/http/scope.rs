//! The layer that runs each request in its [`CallScope`]: the surface it came through (`openai` for
//! the OpenAI-compatible routes, `batch` for `POST /paraphrase/batch`, `rest` for the others) and the
//! API key that was admitted, so that the plugin calls it makes are accounted to them.

use crate::plugins::api::CallScope;
use crate::rest::extract::{AuthenticatedClient, presented_key_id};
use axum::extract::{MatchedPath, Request};
use std::sync::Arc;
use std::task::{Context, Poll};
use tower::{Layer, Service};

#[derive(Clone, Copy)]
pub struct Scoped;

impl<S> Layer<S> for Scoped {
    type Service = ScopedService<S>;

    fn layer(&self, inner: S) -> Self::Service {
        ScopedService { inner }
    }
}

#[derive(Clone)]
pub struct ScopedService<S> {
    inner: S,
}

impl<S: Service<Request>> Service<Request> for ScopedService<S> {
    type Response = S::Response;
    type Error = S::Error;
    type Future = tokio::task::futures::TaskLocalFuture<CallScope, S::Future>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request) -> Self::Future {
        let scope = scope_of(&request);
        scope.scoped(self.inner.call(request))
    }
}

fn scope_of(request: &Request) -> CallScope {
    let route = request.extensions().get::<MatchedPath>().map_or("", |m| m.as_str());
    let surface = if route.starts_with("/v1/chat/completions") || route.starts_with("/v1/models") {
        "openai"
    } else if route == "/paraphrase/batch" {
        "batch"
    } else {
        "rest"
    };
    let key = request
        .extensions()
        .get::<AuthenticatedClient>()
        .and_then(|_| presented_key_id(request.headers()))
        .map(Arc::from);
    CallScope::new(surface, key)
}
