//! The one walk along a chat model's fallback chain, shared by the whole reply, the streamed turn
//! and the OpenAI surface's opening: each member in turn is tried until one answers or the chain
//! stops, and every attempt's failure reaches the plan here, once.

use crate::error::Error;
use crate::fallback::Plan;
use crate::plugins::Plugin;
use std::future::Future;
use std::sync::Arc;

/// Tries the members of `plan`'s chain with `attempt`, from the next one the plan gives, until one
/// succeeds: its value, with the member. The walk ends with an error at a failure that does not move
/// the chain on, or when no member is left (the plan's error).
pub async fn walk<T, F, Fut>(plan: &mut Plan, mut attempt: F) -> Result<(Arc<Plugin>, T), Error>
where
    F: FnMut(Arc<Plugin>) -> Fut,
    Fut: Future<Output = Result<T, Error>>,
{
    while let Some(member) = plan.next_member() {
        match attempt(member.clone()).await {
            Ok(value) => return Ok((member, value)),
            Err(e) => plan.failed(e)?,
        }
    }
    Err(plan.exhausted())
}

/// [`walk`], where the attempt of `member`, the member the plan is at, was begun before the walk (a
/// streamed turn admits its first member before its stream starts, so that a client past its share
/// of streams is refused with a status rather than a fallback).
pub async fn walk_begun<T, F, Fut>(
    plan: &mut Plan,
    member: Arc<Plugin>,
    begun: impl Future<Output = Result<T, Error>>,
    attempt: F,
) -> Result<(Arc<Plugin>, T), Error>
where
    F: FnMut(Arc<Plugin>) -> Fut,
    Fut: Future<Output = Result<T, Error>>,
{
    match begun.await {
        Ok(value) => return Ok((member, value)),
        Err(e) => plan.failed(e)?,
    }
    walk(plan, attempt).await
}
