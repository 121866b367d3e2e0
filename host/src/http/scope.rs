//! The layer that runs each request in its [`CallScope`]: the surface it came through (`openai` for
//! the OpenAI-compatible routes, `batch` for `POST /paraphrase/batch`, `rest` for the others) and the
//! API key that was admitted, so that the plugin calls it makes are accounted to them; and the notice
//! the calls left (a budget nearly spent) as the `Parlance-Budget-Warning` header of the answer.

use crate::plugins::api::CallScope;
use crate::rest::extract::AuthenticatedKey;
use axum::extract::{MatchedPath, Request};
use axum::http::HeaderValue;
use axum::response::Response;
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

/// The header a nearly spent budget is announced in.
pub const BUDGET_WARNING: &str = "parlance-budget-warning";

impl<S> Service<Request> for ScopedService<S>
where
    S: Service<Request, Response = Response>,
    S::Future: Send + 'static,
{
    type Response = Response;
    type Error = S::Error;
    type Future = futures::future::BoxFuture<'static, Result<Response, S::Error>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request) -> Self::Future {
        let scope = scope_of(&request);
        let answer = scope.clone().scoped(self.inner.call(request));
        Box::pin(async move {
            let mut response = answer.await?;
            if let Some(notice) = scope.take_notice()
                && let Ok(value) = HeaderValue::from_str(&notice)
            {
                response.headers_mut().insert(BUDGET_WARNING, value);
            }
            Ok(response)
        })
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
    let key = request.extensions().get::<AuthenticatedKey>().map(|k| k.id.clone());
    CallScope::new(surface, key)
}
