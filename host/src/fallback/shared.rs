//! The circuits shared by every replica through Redis: a replica whose circuit opens writes
//! `parlance:circuit:{id}` with the cooldown as its expiry, and deletes it when the circuit closes;
//! every replica reads the keys of all its plugins a few times a second and opens, for what remains
//! of the cooldown, a circuit another replica opened. So one replica that saw an upstream die spares
//! the others its timeouts. Failures are counted per replica; while Redis is down each replica
//! decides alone, as before.

use crate::redis_link::RedisLink;
use std::time::Duration;

/// How often a replica reads the circuits the others opened.
pub const POLL_EVERY: Duration = Duration::from_millis(200);

/// What a replica tells the others.
#[derive(Debug)]
pub enum Change {
    Opened { id: String, cooldown: Duration },
    Closed { id: String },
}

/// The Redis key of one plugin's open circuit; hash-tagged, as the rate limits' keys are.
pub fn key(id: &str) -> String {
    format!("parlance:circuit:{{{id}}}")
}

pub struct SharedCircuits {
    link: RedisLink,
}

impl SharedCircuits {
    pub fn new(link: RedisLink) -> Self {
        SharedCircuits { link }
    }

    pub async fn tell(&self, change: &Change) {
        let _ = match change {
            Change::Opened { id, cooldown } => {
                let (key, ms) = (key(id), cooldown.as_millis().max(1) as u64);
                self.link
                    .run(|mut conn| async move {
                        redis::cmd("SET").arg(key).arg(1).arg("PX").arg(ms).query_async::<()>(&mut conn).await
                    })
                    .await
            }
            Change::Closed { id } => {
                let key = key(id);
                self.link.run(|mut conn| async move { redis::cmd("DEL").arg(key).query_async::<()>(&mut conn).await }).await
            }
        };
    }

    /// The circuits open elsewhere among `ids`, with how long each stays open; `Err` while Redis
    /// cannot say.
    pub async fn open(&self, ids: &[String]) -> Result<Vec<(String, Duration)>, ()> {
        let keys: Vec<String> = ids.iter().map(|id| key(id)).collect();
        let remaining: Vec<i64> = self
            .link
            .run(|mut conn| async move {
                let mut pipe = redis::pipe();
                for key in &keys {
                    pipe.cmd("PTTL").arg(key);
                }
                pipe.query_async(&mut conn).await
            })
            .await?;
        Ok(ids
            .iter()
            .zip(remaining)
            .filter(|(_, ms)| *ms > 0)
            .map(|(id, ms)| (id.clone(), Duration::from_millis(ms as u64)))
            .collect())
    }
}
