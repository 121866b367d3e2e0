//! The rate limits shared by every replica: the GCRA state of each (client, provider) lives in Redis,
//! and each decision is one Lua script, run atomically by Redis on its own clock, so replicas whose
//! clocks differ still agree, and N replicas at L calls a minute admit L calls, not N × L.
//!
//! The script is sent by its SHA-1 (EVALSHA); a Redis that does not know it (restarted, flushed)
//! answers NOSCRIPT and gets the script itself once (EVAL), which also caches it again.
//!
//! Keys carry a hash tag, `parlance:rl:{client:provider}`, so that on Redis Cluster or Valkey every
//! key of one pair lives on one shard, whatever keys a later scheme adds beside it.

use super::verdict::{Admitted, Refused};
use crate::redis_link::RedisLink;
use percent_encoding::{AsciiSet, CONTROLS, utf8_percent_encode};
use std::sync::Mutex;
use std::time::Duration;

/// GCRA over Redis's clock, in microseconds. KEYS[1]: the pair's key; ARGV[1]: the emission interval
/// (a minute over the limit); ARGV[2]: the limit (the burst). The key holds the theoretical arrival
/// time (TAT) and expires when the quota is full again. Answers `{1, remaining, reset}` when the call
/// is admitted, `{0, retry_after, reset}` when it is refused; `reset` is the time until the quota is
/// full again.
const GCRA: &str = r"
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local interval = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local tat = tonumber(redis.call('GET', KEYS[1]) or now)
if tat < now then tat = now end
local allow_at = tat - interval * (limit - 1)
if now < allow_at then
  return {0, allow_at - now, tat - now}
end
local new_tat = tat + interval
redis.call('SET', KEYS[1], new_tat, 'PX', math.ceil((new_tat - now) / 1000) + 1)
return {1, math.floor((now + interval * limit - new_tat) / interval), new_tat - now}
";

/// Characters that would make two pairs share a key, or end the hash tag early.
const KEY_ESCAPES: &AsciiSet = &CONTROLS.add(b'%').add(b':').add(b'{').add(b'}');

/// The Redis key of one (client, provider) pair.
pub fn key(client: &str, provider: &str) -> String {
    format!(
        "parlance:rl:{{{}:{}}}",
        utf8_percent_encode(client, KEY_ESCAPES),
        utf8_percent_encode(provider, KEY_ESCAPES)
    )
}

pub struct Shared {
    link: RedisLink,
    /// The script's SHA-1 once Redis has told it (SCRIPT LOAD).
    sha: Mutex<Option<String>>,
}

impl Shared {
    pub fn new(link: RedisLink) -> Shared {
        Shared { link, sha: Mutex::new(None) }
    }

    pub fn outage(&self) -> Option<String> {
        self.link.outage()
    }

    /// One decision for the pair under a limit of `limit` calls a minute; `Err(())` when Redis cannot
    /// decide (the caller then decides locally).
    pub async fn check(
        &self,
        client: &str,
        provider: &str,
        limit: u32,
    ) -> Result<Result<Admitted, Refused>, ()> {
        let key = key(client, provider);
        let interval_us = (60_000_000 / u64::from(limit)).max(1);
        let known = self.sha.lock().ok().and_then(|s| s.clone());
        let answer: Vec<i64> = self
            .link
            .run(|mut conn| async move {
                let sha = match known {
                    Some(sha) => sha,
                    None => {
                        redis::cmd("SCRIPT").arg("LOAD").arg(GCRA).query_async::<String>(&mut conn).await?
                    }
                };
                let by_sha: redis::RedisResult<Vec<i64>> = redis::cmd("EVALSHA")
                    .arg(&sha)
                    .arg(1)
                    .arg(&key)
                    .arg(interval_us)
                    .arg(limit)
                    .query_async(&mut conn)
                    .await;
                let answer: Vec<i64> = match by_sha {
                    Err(e) if e.kind() == redis::ErrorKind::Server(redis::ServerErrorKind::NoScript) => {
                        redis::cmd("EVAL")
                            .arg(GCRA)
                            .arg(1)
                            .arg(&key)
                            .arg(interval_us)
                            .arg(limit)
                            .query_async(&mut conn)
                            .await?
                    }
                    other => other?,
                };
                Ok((sha, answer))
            })
            .await
            .map(|(sha, answer)| {
                if let Ok(mut known) = self.sha.lock() {
                    *known = Some(sha);
                }
                answer
            })?;
        let [admitted, a, reset] = answer[..] else { return Err(()) };
        let us = |n: i64| Duration::from_micros(n.max(0) as u64);
        Ok(if admitted == 1 {
            Ok(Admitted { limit, remaining: a.clamp(0, i64::from(limit)) as u32, reset: us(reset) })
        } else {
            Err(Refused { limit, retry_after: us(a), reset: us(reset) })
        })
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn keys_are_hash_tagged_and_never_shared_by_two_pairs() {
        assert_eq!(super::key("alice", "openrouter"), "parlance:rl:{alice:openrouter}");
        assert_ne!(super::key("a:b", "c"), super::key("a", "b:c"));
        assert_eq!(super::key("a}{", "p"), "parlance:rl:{a%7D%7B:p}");
    }
}
