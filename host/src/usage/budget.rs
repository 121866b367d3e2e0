//! Budgets, tokens per minute and upstream requests per minute per API key and per client, checked
//! before any upstream call. A call reserves its largest likely cost and tokens on every limit of its
//! key and of its client, and is refused when one would go over;
//! once settled, the reservation is replaced by what the call really cost. The counters are shared by
//! every replica through Redis (one `INCRBY` per limit, exact 64-bit integers, undone at once when a
//! limit would be passed), and kept per replica while Redis is away, as the rate limits are. A spend
//! counter starts, for each window, from what the ledger holds for it.
//!
//! The bound on overshoot: a call is admitted only if its reservation fits, so the spend goes past a
//! budget only by what calls in flight cost beyond what they reserved (their upstream counted more
//! tokens than the estimate: see [`Estimate`]); a replica killed mid-call leaves its reservation
//! counted until the window ends, which errs the other way. While Redis is away each replica keeps its
//! own counters, so `n` replicas may spend up to `n` times a budget's remainder.

use crate::plugins::price::{PICOS, amount};
use crate::redis_link::RedisLink;
use crate::store::DialogStore;
use crate::store::keys::{BudgetPeriod, KeyLimits};
use crate::store::usage::UsageQuery;
use rust_decimal::Decimal;
use rust_decimal::prelude::ToPrimitive;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

/// The largest cost and tokens a call is expected to use, which it reserves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Estimate {
    /// Picos; `None` for a model with no price (only its tokens are held).
    pub cost: Option<i64>,
    pub tokens: u64,
}

/// One limit a call was held to, and what it reserved on it.
#[derive(Clone, Debug)]
struct Held {
    counter: String,
    reserved: i64,
    /// Whether the reservation went to Redis (else to this replica's counters).
    shared: bool,
    counts: Counts,
}

/// What a counter counts, and so what a settled call adds to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Counts {
    Money,
    Tokens,
    Calls,
}

/// What a call reserved on its key's limits, to be settled once its usage is known.
#[derive(Debug, Default)]
pub struct Reservation {
    held: Vec<Held>,
    /// Said to the caller when a budget is nearly spent.
    pub warning: Option<String>,
}

impl Reservation {
    /// Whether the call was held to no limit.
    pub fn is_empty(&self) -> bool {
        self.held.is_empty()
    }
}

/// The share of a budget past which its caller is warned.
pub const WARN_AT_PERCENT: i64 = 80;

/// Whose limits a call is held to: its API key's, and its client's.
#[derive(Clone, Copy, Debug)]
enum Holder<'a> {
    Key(&'a str),
    Client(&'a str),
}

impl Holder<'_> {
    /// The name of one of this holder's counters: `kind` (`budget`, `rpm`, `tpm`) and the window.
    /// A key's id never reads `client`, so the two never share a counter.
    fn counter(self, kind: &str, window: &str) -> String {
        match self {
            Holder::Key(id) => format!("parlance:{kind}:{id}:{window}"),
            Holder::Client(name) => format!("parlance:{kind}:client:{name}:{window}"),
        }
    }

    /// The holder in a refusal.
    fn who(self) -> String {
        match self {
            Holder::Key(_) => "the API key".into(),
            Holder::Client(name) => format!("the client {name:?}"),
        }
    }
}

/// One limit a call is about to be held to.
struct Wanted<'a> {
    counter: String,
    reserved: i64,
    limit: i64,
    ttl_ms: i64,
    seed: Seed<'a>,
    what: What,
    holder: Holder<'a>,
}

/// What kind of limit, for the words of a refusal or a warning.
enum What {
    Budget { period: BudgetPeriod, end: Option<i64> },
    Tokens { reset: i64 },
    Calls { reset: i64 },
}

impl What {
    fn counts(&self) -> Counts {
        match self {
            What::Budget { .. } => Counts::Money,
            What::Tokens { .. } => Counts::Tokens,
            What::Calls { .. } => Counts::Calls,
        }
    }

    fn reset(&self) -> String {
        match self {
            What::Budget { end: None, .. } => "it never resets".into(),
            What::Budget { end: Some(at), .. } | What::Tokens { reset: at } | What::Calls { reset: at } => {
                format!("it resets at {}", super::report::rfc3339(*at))
            }
        }
    }

    fn refusal(&self, who: &str, limit: i64, spent: i64, reserved: i64) -> String {
        match self {
            What::Budget { period, .. } => {
                let call = if reserved > 0 {
                    format!(", and this call may cost up to {}", amount(reserved))
                } else {
                    String::new()
                };
                format!(
                    "{who} is over its {period} budget of {}: {} spent{call}; {}",
                    amount(limit),
                    amount(spent.max(0)),
                    self.reset()
                )
            }
            What::Calls { .. } => format!(
                "{who} is over its {limit} requests per minute to upstreams ({spent} this minute); {}",
                self.reset()
            ),
            What::Tokens { .. } => format!(
                "{who} is over its {limit} tokens per minute ({spent} counted this minute, with what \
                 calls in flight may use, and this call may use up to {reserved}); {}",
                self.reset()
            ),
        }
    }

    /// Said once a budget is [`WARN_AT_PERCENT`] spent or held.
    fn warning(&self, limit: i64, total: i64) -> Option<String> {
        let What::Budget { period, .. } = self else { return None };
        let percent = i128::from(total) * 100 / i128::from(limit.max(1));
        (percent >= i128::from(WARN_AT_PERCENT)).then(|| {
            format!(
                "{percent}% of the {period} budget of {} is spent or held; {}",
                amount(limit),
                self.reset()
            )
        })
    }
}

/// The counters of every key's and client's limits.
pub struct Budgets {
    link: Option<RedisLink>,
    local: Mutex<HashMap<String, i64>>,
    store: Arc<OnceLock<DialogStore>>,
    /// Each key's and client's limits, looked up in the store and remembered for a while, as the key
    /// check does: under `key:ID` and `client:NAME`.
    limits: moka::sync::Cache<String, Option<Arc<KeyLimits>>>,
}

/// How long limits are remembered: an update reaches every replica within it.
const LIMITS_FOR: Duration = Duration::from_secs(10);

impl Budgets {
    pub fn new(link: Option<RedisLink>, store: Arc<OnceLock<DialogStore>>) -> Budgets {
        let limits = moka::sync::Cache::builder().max_capacity(100_000).time_to_live(LIMITS_FOR).build();
        Budgets { link, local: Mutex::new(HashMap::new()), store, limits }
    }

    /// The limits of `holder`, if it has any.
    async fn limits_of(&self, holder: Holder<'_>) -> Option<Arc<KeyLimits>> {
        let cached = match holder {
            Holder::Key(id) => format!("key:{id}"),
            Holder::Client(name) => format!("client:{name}"),
        };
        if let Some(known) = self.limits.get(&cached) {
            return known;
        }
        let store = self.store.get()?;
        let found = match holder {
            Holder::Key(id) => {
                store.find_key(id).await.map(|record| record.map(|r| r.limits).unwrap_or_default())
            }
            Holder::Client(name) => store.client_limits(name).await,
        };
        let limits = match found {
            Ok(limits) => (!limits.is_empty()).then(|| Arc::new(limits)),
            Err(e) => {
                // Not remembered, so that the next call asks again.
                tracing::warn!(holder = ?holder, "cannot read the limits: {e}; not holding this call to them");
                return None;
            }
        };
        self.limits.insert(cached, limits.clone());
        limits
    }

    /// Reserves `estimate` on every limit of `key` (when the call has one) and of `client`, or says
    /// which limit it would pass and when that resets.
    pub async fn reserve(
        &self,
        key: Option<&str>,
        client: &str,
        estimate: Estimate,
        now: i64,
    ) -> Result<Reservation, String> {
        let mut wanted = Vec::new();
        for holder in key.map(Holder::Key).into_iter().chain([Holder::Client(client)]) {
            if let Some(limits) = self.limits_of(holder).await {
                wanted_of(holder, &limits, estimate, now, &mut wanted);
            }
        }
        let mut reservation = Reservation::default();
        for w in wanted {
            match self.take(&w.counter, w.reserved, w.limit, w.ttl_ms, w.seed).await {
                Ok((shared, total)) => {
                    if let Some(warning) = w.what.warning(w.limit, total) {
                        reservation.warning = Some(warning);
                    }
                    let counts = w.what.counts();
                    reservation.held.push(Held { counter: w.counter, reserved: w.reserved, shared, counts });
                }
                Err(spent) => {
                    self.give_back(&reservation).await;
                    return Err(w.what.refusal(&w.holder.who(), w.limit, spent, w.reserved));
                }
            }
        }
        Ok(reservation)
    }

    /// Replaces what `reservation` held by what the call used: its cost (picos; nothing is known of a
    /// cost that is `None`, and the reservation of money is given back) and its tokens.
    pub async fn settle(&self, reservation: Reservation, cost: Option<i64>, tokens: u64) {
        for held in &reservation.held {
            let used = match held.counts {
                Counts::Money => cost.unwrap_or(0),
                Counts::Tokens => i64::try_from(tokens).unwrap_or(i64::MAX),
                Counts::Calls => held.reserved,
            };
            self.add(held, used - held.reserved).await;
        }
    }

    async fn give_back(&self, reservation: &Reservation) {
        for held in &reservation.held {
            self.add(held, -held.reserved).await;
        }
    }

    /// Adds `amount` to `counter` unless that takes it past `limit`: `Ok((shared, total))`, or `Err(spent)`.
    /// A counter new in its window (it held nothing before this call) starts from `seed`.
    async fn take(
        &self,
        counter: &str,
        amount: i64,
        limit: i64,
        ttl_ms: i64,
        seed: Seed<'_>,
    ) -> Result<(bool, i64), i64> {
        if let Some(link) = &self.link {
            let key = counter.to_owned();
            let added = link
                .run(|mut conn| async move {
                    let (total,): (i64,) = redis::pipe()
                        .cmd("INCRBY")
                        .arg(&key)
                        .arg(amount)
                        .cmd("PEXPIRE")
                        .arg(&key)
                        .arg(ttl_ms)
                        .arg("NX")
                        .ignore()
                        .query_async(&mut conn)
                        .await?;
                    Ok(total)
                })
                .await;
            if let Ok(mut total) = added {
                if total == amount && amount > 0 {
                    let start = seed.value(self).await.unwrap_or(0);
                    if start != 0 {
                        total = self.shared_add(counter, start).await.unwrap_or(total + start);
                    }
                }
                if over(total, amount, limit) {
                    let _ = self.shared_add(counter, -amount).await;
                    return Err(total - amount);
                }
                return Ok((true, total));
            }
        }
        let known = self.local.lock().map(|l| l.contains_key(counter)).unwrap_or(true);
        let start = if known { 0 } else { seed.value(self).await.unwrap_or(0) };
        let Ok(mut local) = self.local.lock() else { return Ok((false, 0)) };
        let spent = local.entry(counter.to_owned()).or_insert(start);
        if over(*spent + amount, amount, limit) {
            return Err(*spent);
        }
        *spent += amount;
        Ok((false, *spent))
    }

    async fn shared_add(&self, counter: &str, amount: i64) -> Result<i64, ()> {
        let link = self.link.as_ref().ok_or(())?;
        let key = counter.to_owned();
        link.run(|mut conn| async move {
            redis::cmd("INCRBY").arg(&key).arg(amount).query_async::<i64>(&mut conn).await
        })
        .await
    }

    async fn add(&self, held: &Held, amount: i64) {
        if amount == 0 {
            return;
        }
        if held.shared && self.shared_add(&held.counter, amount).await.is_ok() {
            return;
        }
        if let Ok(mut local) = self.local.lock()
            && let Some(spent) = local.get_mut(&held.counter)
        {
            *spent += amount;
        }
    }
}

/// Whether a counter at `total` after adding `amount` is past `limit`: a call that reserves nothing (a
/// model without a price) is refused only once the limit is reached.
fn over(total: i64, amount: i64, limit: i64) -> bool {
    if amount > 0 { total > limit } else { total >= limit }
}

/// The limits of `limits` a call of `holder` estimated at `estimate` is held to at `now`.
fn wanted_of<'a>(
    holder: Holder<'a>,
    limits: &KeyLimits,
    estimate: Estimate,
    now: i64,
    wanted: &mut Vec<Wanted<'a>>,
) {
    for budget in &limits.budgets {
        let (start, end) = budget.period.window(now);
        wanted.push(Wanted {
            counter: holder.counter("budget", &format!("{}:{start}", budget.period.as_str())),
            reserved: estimate.cost.unwrap_or(0),
            limit: (budget.amount * Decimal::from(PICOS)).to_i64().unwrap_or(i64::MAX),
            ttl_ms: end.map_or(30 * 86_400_000, |end| end - now + 3_600_000),
            seed: Seed::Ledger { holder, from: start, to: end.unwrap_or(now + 3_600_000) },
            what: What::Budget { period: budget.period, end },
            holder,
        });
    }
    let minute = now.div_euclid(60_000);
    let per_minute = [
        ("rpm", limits.requests_per_minute, 1, What::Calls { reset: (minute + 1) * 60_000 }),
        (
            "tpm",
            limits.tokens_per_minute,
            i64::try_from(estimate.tokens).unwrap_or(i64::MAX),
            What::Tokens { reset: (minute + 1) * 60_000 },
        ),
    ];
    for (kind, limit, reserved, what) in per_minute {
        if let Some(limit) = limit {
            wanted.push(Wanted {
                counter: holder.counter(kind, &minute.to_string()),
                reserved,
                limit: i64::from(limit),
                ttl_ms: 120_000,
                seed: Seed::Zero,
                what,
                holder,
            });
        }
    }
}

/// Where a counter starts in a new window.
enum Seed<'a> {
    /// What the ledger holds for the holder in the window (spend, in picos).
    Ledger {
        holder: Holder<'a>,
        from: i64,
        to: i64,
    },
    Zero,
}

impl Seed<'_> {
    /// The start; `None` when the ledger cannot be read now.
    async fn value(&self, budgets: &Budgets) -> Option<i64> {
        match self {
            Seed::Zero => Some(0),
            Seed::Ledger { holder, from, to } => {
                let store = budgets.store.get()?;
                let (key_id, client) = match holder {
                    Holder::Key(id) => (Some((*id).to_owned()), None),
                    Holder::Client(name) => (None, Some((*name).to_owned())),
                };
                let query = UsageQuery { from: *from, to: *to, key_id, client, group_by: Vec::new() };
                match store.usage_report(&query).await {
                    Ok(rows) => Some(rows.iter().map(|r| r.cost).sum()),
                    Err(e) => {
                        tracing::warn!(holder = ?holder, "cannot read the spend from the ledger: {e}");
                        None
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Durability;

    /// 0.0001 in picos.
    const TENTH_MILLI: i64 = 100_000_000;

    async fn budgets(store: &DialogStore) -> Budgets {
        let cell = Arc::new(OnceLock::new());
        let _ = cell.set(store.clone());
        // No Redis: what each replica does while Redis is away.
        Budgets::new(None, cell)
    }

    /// Reserves and settles one call of 0.0001 at `now`: the refusal, if any.
    async fn spend(budgets: &Budgets, key: Option<&str>, now: i64) -> Option<String> {
        let estimate = Estimate { cost: Some(TENTH_MILLI), tokens: 10 };
        match budgets.reserve(key, "acme", estimate, now).await {
            Ok(reservation) => {
                budgets.settle(reservation, Some(TENTH_MILLI), 10).await;
                None
            }
            Err(refusal) => Some(refusal),
        }
    }

    #[tokio::test]
    async fn a_day_budget_ends_at_midnight_and_each_replica_counts_alone_while_redis_is_away() {
        let dir = tempfile::tempdir().unwrap();
        let store = DialogStore::open(&dir.path().join("dialogs.db"), Durability::Normal).await.unwrap();
        let limits = KeyLimits { budgets: vec!["0.0003/day".parse().unwrap()], ..KeyLimits::default() };
        let (_, key) = store.create_key("k", "acme", limits).await.unwrap();
        let one = budgets(&store).await;
        // Thursday 31 December 2026, 23:59:58 UTC.
        let late = 1_798_761_598_000;
        for _ in 0..3 {
            assert_eq!(spend(&one, Some(&key.id), late).await, None);
        }
        let refusal = spend(&one, Some(&key.id), late).await.expect("a fourth call is over the budget");
        assert!(refusal.contains("the API key is over its day budget of 0.0003: 0.0003 spent"), "{refusal}");
        assert!(refusal.contains("it resets at 2027-01-01T00:00:00Z"), "{refusal}");
        // Past midnight the day's counter is a new one.
        assert_eq!(spend(&one, Some(&key.id), late + 3_000).await, None);
        // Another replica without Redis keeps its own counters (the documented bound: each may spend
        // the remainder), starting from the ledger, which recorded nothing here.
        let other = budgets(&store).await;
        assert_eq!(spend(&other, Some(&key.id), late).await, None);

        // A client's limits hold every call of the client, with or without a key.
        let change = crate::store::LimitsChange { requests_per_minute: Some(Some(2)), ..Default::default() };
        store.update_client_limits("acme", &change).await.unwrap().unwrap();
        let fresh = budgets(&store).await;
        let minute = late + 60_000;
        assert_eq!(spend(&fresh, None, minute).await, None);
        assert_eq!(spend(&fresh, Some(&key.id), minute).await, None);
        let refusal = spend(&fresh, None, minute).await.expect("a third request this minute");
        assert!(refusal.contains("the client \"acme\" is over its 2 requests per minute"), "{refusal}");
        assert_eq!(spend(&fresh, None, minute + 60_000).await, None, "the next minute admits it");
    }
}
