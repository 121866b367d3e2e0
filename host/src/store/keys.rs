//! API keys as the store keeps them: each bound to one client, identified by a public id, with only a
//! SHA-256 of the whole key stored, so that a copy of the database gives no usable key; and each key's
//! limits ([`KeyLimits`]: budgets per period, tokens and requests per minute), the one validation of
//! them that the admin API and `parlance keys` share, and the calendar windows a budget is counted in
//! ([`BudgetPeriod::window`]).
//!
//! The limits are stored as one JSON text column `limits` on `api_keys` (default `'{}'`, no limit),
//! written by [`KeyLimits::to_stored`] and read by [`KeyLimits::from_stored`]: they are read and
//! written only whole, with the key, and a new kind of limit is then a new field rather than a
//! migration on both backends. Nothing queries inside them.

use rust_decimal::Decimal;
use sha2::{Digest, Sha256};
use std::fmt;

/// A key as listings show it (never its secret).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
pub struct ApiKey {
    /// The public part of the key, by which it is listed and revoked.
    pub id: String,
    pub name: String,
    /// The client the key acts as.
    pub client: String,
    /// Milliseconds since the Unix epoch.
    pub created_at: i64,
    pub revoked_at: Option<i64>,
    /// Beside the fields above, so that older readers of a listing see the same fields they knew.
    #[serde(flatten)]
    pub limits: KeyLimits,
}

/// What a request's key is checked against, and the limits it is held to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyRecord {
    pub secret_hash: Vec<u8>,
    pub client: String,
    pub revoked: bool,
    pub limits: KeyLimits,
}

/// The most characters a client id may have: what a `current-user` header may hold.
pub const MAX_CLIENT_CHARS: usize = 256;

/// A client id is what a `current-user` header may hold: visible ASCII with inner spaces, at most
/// [`MAX_CLIENT_CHARS`]. The message names no field, so that each surface says which of its own.
pub fn check_client(client: &str) -> Result<(), String> {
    let visible = client.bytes().all(|b| b == b' ' || b == b'\t' || b.is_ascii_graphic());
    if client.trim().is_empty() || client.trim() != client || !visible || client.len() > MAX_CLIENT_CHARS {
        return Err(format!(
            "must be visible ASCII (spaces inside), at most {MAX_CLIENT_CHARS} characters: {client:?}"
        ));
    }
    Ok(())
}

/// The most characters a key's name may have.
pub const MAX_NAME_CHARS: usize = 200;

/// A key's name, trimmed: not empty, at most [`MAX_NAME_CHARS`].
pub fn check_name(name: &str) -> Result<&str, String> {
    let name = name.trim();
    if name.is_empty() {
        return Err("is empty".into());
    }
    if name.chars().count() > MAX_NAME_CHARS || name.chars().any(char::is_control) {
        return Err(format!("must be at most {MAX_NAME_CHARS} characters, none of them control characters"));
    }
    Ok(name)
}

/// The calendar period a budget is counted over; each resets on a UTC boundary.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize,
    utoipa::ToSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum BudgetPeriod {
    /// From 00:00 UTC to the next.
    Day,
    /// From Monday 00:00 UTC to the next Monday.
    Week,
    /// From the 1st at 00:00 UTC to the next month's.
    Month,
    /// Never resets.
    Total,
}

const DAY_MS: i64 = 86_400_000;
/// The last millisecond of the year 9999: clocks are clamped to it, so no arithmetic overflows.
const LAST_MS: i64 = 253_402_300_799_999;

impl BudgetPeriod {
    pub const ALL: [BudgetPeriod; 4] =
        [BudgetPeriod::Day, BudgetPeriod::Week, BudgetPeriod::Month, BudgetPeriod::Total];

    pub fn as_str(self) -> &'static str {
        match self {
            BudgetPeriod::Day => "day",
            BudgetPeriod::Week => "week",
            BudgetPeriod::Month => "month",
            BudgetPeriod::Total => "total",
        }
    }

    /// The window holding `now_ms` (milliseconds since the Unix epoch): its start, and its end, which
    /// is the next reset, both in milliseconds; `total` starts at the epoch and has no end. Times
    /// before the epoch count as the epoch.
    pub fn window(self, now_ms: i64) -> (i64, Option<i64>) {
        let day = now_ms.clamp(0, LAST_MS).div_euclid(DAY_MS);
        let (start, end) = match self {
            BudgetPeriod::Day => (day, day + 1),
            BudgetPeriod::Week => {
                // 1970-01-01 was a Thursday, three days after a Monday.
                let monday = day - (day + 3).rem_euclid(7);
                (monday, monday + 7)
            }
            BudgetPeriod::Month => {
                let (year, month, _) = civil_from_days(day);
                let next = if month == 12 { (year + 1, 1) } else { (year, month + 1) };
                (days_from_civil(year, month, 1), days_from_civil(next.0, next.1, 1))
            }
            BudgetPeriod::Total => return (0, None),
        };
        (start * DAY_MS, Some(end * DAY_MS))
    }
}

impl fmt::Display for BudgetPeriod {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for BudgetPeriod {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        BudgetPeriod::ALL
            .into_iter()
            .find(|p| p.as_str() == s)
            .ok_or_else(|| format!("unknown budget period {s:?}: expected day, week, month or total"))
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * (month + if month > 2 { -3 } else { 9 }) + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The date of a day counted from 1970-01-01 (Hinnant's `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(month <= 2), month, day)
}

/// The most decimal places an amount may have.
pub const AMOUNT_SCALE: u32 = 6;

/// An amount of money as written (`"50.00"`), exact: never negative, at most [`AMOUNT_SCALE`]
/// decimal places.
pub fn parse_amount(text: &str) -> Result<Decimal, String> {
    let not_decimal = || format!("the amount {text:?} is not a decimal number such as \"50.00\"");
    // Digits with one point at most: rust_decimal also reads exponents (`1e3`), which no amount means.
    let digits = text.trim().strip_prefix('-').unwrap_or(text.trim());
    if !digits.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        return Err(not_decimal());
    }
    let amount: Decimal = text.trim().parse().map_err(|_| not_decimal())?;
    check_amount(amount)
}

fn check_amount(amount: Decimal) -> Result<Decimal, String> {
    if amount.is_sign_negative() && !amount.is_zero() {
        return Err(format!("the amount {amount} is negative"));
    }
    if amount.scale() > AMOUNT_SCALE {
        return Err(format!("the amount {amount} has more than {AMOUNT_SCALE} decimal places"));
    }
    Ok(amount)
}

/// The most a key may spend in one period.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Budget {
    /// A decimal string, at most 6 decimal places, never negative.
    #[serde(serialize_with = "rust_decimal::serde::str::serialize", deserialize_with = "amount")]
    #[schema(value_type = String, example = "50.00", pattern = r"^\s*[0-9]+(\.[0-9]{1,6})?\s*$")]
    pub amount: Decimal,
    pub period: BudgetPeriod,
}

fn amount<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Decimal, D::Error> {
    struct Amount;
    impl serde::de::Visitor<'_> for Amount {
        type Value = Decimal;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a decimal string such as \"50.00\"")
        }
        fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Decimal, E> {
            parse_amount(v).map_err(E::custom)
        }
    }
    d.deserialize_str(Amount)
}

/// `AMOUNT/PERIOD`, as `parlance keys` takes a budget (`50/month`, `5.25/day`).
impl std::str::FromStr for Budget {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let (amount, period) =
            s.split_once('/').ok_or_else(|| format!("a budget is AMOUNT/PERIOD, such as 50/month: {s:?}"))?;
        Ok(Budget { amount: parse_amount(amount)?, period: period.trim().parse()? })
    }
}

/// The migration that gives a job the key that created it and each client its limits, the same text
/// for SQLite and PostgreSQL; shipped, so never edited.
pub(super) const CLIENT_LIMITS_SCHEMA: &str = "ALTER TABLE jobs ADD COLUMN key_id TEXT;
CREATE TABLE client_limits (
    client TEXT NOT NULL PRIMARY KEY,
    limits TEXT NOT NULL  -- as api_keys.limits
);";

/// A key's limits; every one is optional, and none set means none applies.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize, utoipa::ToSchema)]
// Unknown fields are kept out of the schema's `additionalProperties`: a key's listing flattens these beside
// its own fields, and a field a later version stores is ignored rather than refused.
#[serde(default)]
pub struct KeyLimits {
    /// The most the key may spend per period, at most one budget per period.
    pub budgets: Vec<Budget>,
    /// Tokens (prompt and completion) per minute; at least 1, or null for no limit.
    #[schema(minimum = 1, maximum = 2147483647)]
    pub tokens_per_minute: Option<u32>,
    /// Requests per minute; at least 1, or null for no limit.
    #[schema(minimum = 1, maximum = 2147483647)]
    pub requests_per_minute: Option<u32>,
}

impl KeyLimits {
    /// The one check of a key's limits, whatever surface set them: at most one budget per period,
    /// amounts as [`parse_amount`] takes them, and per-minute limits of at least 1. Budgets are put in
    /// period order.
    pub fn check(mut self) -> Result<KeyLimits, String> {
        self.budgets.sort_by_key(|b| b.period);
        for pair in self.budgets.windows(2) {
            if pair[0].period == pair[1].period {
                return Err(format!("more than one budget for the period {}", pair[0].period));
            }
        }
        for budget in &self.budgets {
            check_amount(budget.amount)?;
        }
        for (name, value) in
            [("tokens_per_minute", self.tokens_per_minute), ("requests_per_minute", self.requests_per_minute)]
        {
            // At most what a signed 32-bit integer holds, as the API's schema says (for clients that
            // read `integer` so).
            if value.is_some_and(|v| v == 0 || v > i32::MAX as u32) {
                return Err(format!("{name} must be between 1 and {} (or null for no limit)", i32::MAX));
            }
        }
        Ok(self)
    }

    /// Whether these limits hold a call to nothing.
    pub fn is_empty(&self) -> bool {
        self.budgets.is_empty() && self.tokens_per_minute.is_none() && self.requests_per_minute.is_none()
    }

    /// The budget for `period`, if any.
    pub fn budget(&self, period: BudgetPeriod) -> Option<&Budget> {
        self.budgets.iter().find(|b| b.period == period)
    }

    /// Applies a change, then [`KeyLimits::check`]s the result.
    pub fn apply(mut self, change: &LimitsChange) -> Result<KeyLimits, String> {
        match &change.budgets {
            BudgetsChange::Keep => {}
            BudgetsChange::Replace(budgets) => self.budgets = budgets.clone(),
            BudgetsChange::Merge { set, clear } => {
                self.budgets
                    .retain(|b| !clear.contains(&b.period) && !set.iter().any(|s| s.period == b.period));
                self.budgets.extend(set.iter().cloned());
            }
        }
        if let Some(value) = change.tokens_per_minute {
            self.tokens_per_minute = value;
        }
        if let Some(value) = change.requests_per_minute {
            self.requests_per_minute = value;
        }
        self.check()
    }

    /// The JSON the store keeps.
    pub fn to_stored(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|_| "{}".into())
    }

    pub fn from_stored(text: &str) -> Result<KeyLimits, String> {
        let unreadable = |e: &dyn fmt::Display| format!("a key's stored limits cannot be read: {e}");
        let value: serde_json::Value = serde_json::from_str(text).map_err(|e| unreadable(&e))?;
        // serde's derived structs also take an array of their fields, which the store never writes.
        if !value.is_object() {
            return Err(unreadable(&"not a JSON object"));
        }
        serde_json::from_value(value).map_err(|e| unreadable(&e))
    }
}

/// A change to a key's limits: each per-minute limit kept (`None`), cleared (`Some(None)`) or set.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LimitsChange {
    pub budgets: BudgetsChange,
    pub tokens_per_minute: Option<Option<u32>>,
    pub requests_per_minute: Option<Option<u32>>,
}

/// What a change does to the budgets: the admin API replaces the list, `parlance keys update` sets
/// and clears single periods.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum BudgetsChange {
    #[default]
    Keep,
    Replace(Vec<Budget>),
    Merge {
        set: Vec<Budget>,
        clear: Vec<BudgetPeriod>,
    },
}

/// What an update of a key found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KeyUpdate {
    Updated(ApiKey),
    NotFound,
    /// A revoked key is not changed.
    Revoked(ApiKey),
    /// The change breaks a rule of [`KeyLimits::check`]; the message says which.
    Invalid(String),
}

/// The prefix of every key, so that one found in a log or a repository is recognisable.
pub const PREFIX: &str = "prl_";

/// A new key: `prl_<id>_<secret>`, with a 12-character id and a 43-character secret (256 random bits,
/// URL-safe base64).
pub fn generate() -> Result<(String, String), getrandom::Error> {
    let mut bytes = [0u8; 41];
    getrandom::fill(&mut bytes)?;
    let id = base64url(&bytes[..9]);
    let secret = base64url(&bytes[9..]);
    Ok((format!("{PREFIX}{id}_{secret}"), id))
}

/// The id of a presented key, if it has the shape of one.
pub fn id_of(key: &str) -> Option<&str> {
    // The id is a fixed 12 characters of URL-safe base64, which may itself contain `_`, so it is taken by
    // length rather than by splitting at the first separator.
    let rest = key.strip_prefix(PREFIX)?;
    let id = rest.get(..12)?;
    let secret = rest[12..].strip_prefix('_')?;
    (!secret.is_empty()).then_some(id)
}

pub fn hash(key: &str) -> Vec<u8> {
    Sha256::digest(key.as_bytes()).to_vec()
}

/// Whether `key` is the one whose hash is `expected`, in time that does not depend on where they
/// differ.
pub fn matches(key: &str, expected: &[u8]) -> bool {
    let actual = hash(key);
    actual.len() == expected.len() && actual.iter().zip(expected).fold(0u8, |acc, (a, b)| acc | (a ^ b)) == 0
}

fn base64url(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut out = String::with_capacity(bytes.len() * 4 / 3 + 2);
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().enumerate().fold(0u32, |n, (i, b)| n | (u32::from(*b) << (16 - 8 * i)));
        let digits = chunk.len() + 1;
        for i in 0..digits {
            out.push(char::from(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize]));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_have_an_id_and_match_only_themselves() {
        let (key, id) = generate().unwrap();
        assert_eq!(id_of(&key), Some(id.as_str()));
        assert_eq!(key.len(), PREFIX.len() + 12 + 1 + 43);
        let stored = hash(&key);
        assert!(matches(&key, &stored));
        assert!(!matches(&format!("{key}x"), &stored));
        let (other, _) = generate().unwrap();
        assert_ne!(key, other);
        assert_eq!(id_of("prl_short_x"), None);
        assert_eq!(id_of("sk-123"), None);
        // Ids drawn from the URL-safe alphabet can hold the separator themselves.
        assert_eq!(id_of("prl_ab_cdefghijk_secret"), Some("ab_cdefghijk"));
        assert_eq!(id_of("prl_ab_cdefghijk_"), None);
    }

    /// Milliseconds of a UTC date and time.
    fn at(year: i64, month: i64, day: i64, hour: i64) -> i64 {
        days_from_civil(year, month, day) * DAY_MS + hour * 3_600_000
    }

    #[test]
    fn windows_follow_the_utc_calendar() {
        use BudgetPeriod::*;
        // Thursday 31 December 2026, 23:00: the last hour of a day, a month and a year.
        let now = at(2026, 12, 31, 23);
        assert_eq!(Day.window(now), (at(2026, 12, 31, 0), Some(at(2027, 1, 1, 0))));
        assert_eq!(Week.window(now), (at(2026, 12, 28, 0), Some(at(2027, 1, 4, 0))));
        assert_eq!(Month.window(now), (at(2026, 12, 1, 0), Some(at(2027, 1, 1, 0))));
        assert_eq!(Total.window(now), (0, None));
        // The first millisecond of a window is in it, the last of the one before is not.
        let new_year = at(2027, 1, 1, 0);
        assert_eq!(Day.window(new_year).0, new_year);
        assert_eq!(Day.window(new_year - 1).1, Some(new_year));
        assert_eq!(Month.window(new_year), (new_year, Some(at(2027, 2, 1, 0))));
        // A Monday starts its own week; a Sunday belongs to the week before.
        assert_eq!(Week.window(at(2027, 1, 4, 0)), (at(2027, 1, 4, 0), Some(at(2027, 1, 11, 0))));
        assert_eq!(Week.window(at(2027, 1, 10, 23)).0, at(2027, 1, 4, 0));
        // February of a leap year (2028), of a common year (2027), and of 2000 and 2100.
        assert_eq!(Month.window(at(2028, 2, 29, 12)), (at(2028, 2, 1, 0), Some(at(2028, 3, 1, 0))));
        assert_eq!(Month.window(at(2028, 2, 29, 12)).1.unwrap() - at(2028, 2, 1, 0), 29 * DAY_MS);
        assert_eq!(Month.window(at(2027, 2, 15, 0)).1.unwrap() - at(2027, 2, 1, 0), 28 * DAY_MS);
        assert_eq!(at(2000, 3, 1, 0) - at(2000, 2, 1, 0), 29 * DAY_MS);
        assert_eq!(at(2100, 3, 1, 0) - at(2100, 2, 1, 0), 28 * DAY_MS);
        assert_eq!(Day.window(at(2028, 2, 29, 5)), (at(2028, 2, 29, 0), Some(at(2028, 3, 1, 0))));
        // Known instants: 2024-02-29T00:00Z and Monday 2024-01-01T00:00Z.
        assert_eq!(at(2024, 2, 29, 0), 1_709_164_800_000);
        assert_eq!(Week.window(1_704_067_200_000 + 1).0, 1_704_067_200_000);
        // Clocks before the epoch or past the year 9999 are clamped.
        assert_eq!(Day.window(-5), (0, Some(DAY_MS)));
        assert_eq!(Month.window(i64::MAX).1, Some(at(10_000, 1, 1, 0)));
        // Every day of four years round-trips through the civil date.
        for day in days_from_civil(2027, 1, 1)..days_from_civil(2031, 1, 1) {
            let (y, m, d) = civil_from_days(day);
            assert_eq!(days_from_civil(y, m, d), day);
        }
    }

    #[test]
    fn amounts_are_exact_and_checked() {
        assert_eq!(parse_amount("50.00").unwrap().to_string(), "50.00");
        assert_eq!(parse_amount("0.000001").unwrap().to_string(), "0.000001");
        assert_eq!(parse_amount("0").unwrap(), Decimal::ZERO);
        assert!(parse_amount("-5").unwrap_err().contains("negative"));
        assert!(parse_amount("1.0000001").unwrap_err().contains("more than 6 decimal places"));
        assert!(parse_amount("fifty").unwrap_err().contains("not a decimal number"));
        assert!(parse_amount("").is_err());
        assert!(parse_amount("1e3").is_err());
        let budget: Budget = serde_json::from_str(r#"{"amount": "0.10", "period": "day"}"#).unwrap();
        assert_eq!(serde_json::to_string(&budget).unwrap(), r#"{"amount":"0.10","period":"day"}"#);
        for (body, problem) in [
            (r#"{"amount": 5, "period": "day"}"#, "a decimal string"),
            (r#"{"amount": "-1", "period": "day"}"#, "negative"),
            (r#"{"amount": "1", "period": "year"}"#, "unknown variant `year`"),
            (r#"{"amount": "1", "period": "day", "x": 1}"#, "unknown field `x`"),
        ] {
            let e = serde_json::from_str::<Budget>(body).unwrap_err().to_string();
            assert!(e.contains(problem), "{body}: {e}");
        }
    }

    #[test]
    fn budgets_are_read_as_amount_over_period() {
        let b: Budget = "50/month".parse().unwrap();
        assert_eq!((b.amount.to_string().as_str(), b.period), ("50", BudgetPeriod::Month));
        assert_eq!("5.25 / day".parse::<Budget>().unwrap().period, BudgetPeriod::Day);
        assert!("50".parse::<Budget>().unwrap_err().contains("AMOUNT/PERIOD"));
        assert!("50/year".parse::<Budget>().unwrap_err().contains("unknown budget period \"year\""));
        assert!("-1/day".parse::<Budget>().unwrap_err().contains("negative"));
    }

    #[test]
    fn limits_are_checked_and_changed_in_one_place() {
        let budget = |s: &str| s.parse::<Budget>().unwrap();
        let limits = KeyLimits { budgets: vec![budget("50/month"), budget("5/day")], ..KeyLimits::default() };
        let limits = limits.check().unwrap();
        assert_eq!(limits.budgets[0].period, BudgetPeriod::Day, "budgets in period order");
        let twice = KeyLimits { budgets: vec![budget("1/day"), budget("2/day")], ..KeyLimits::default() };
        assert_eq!(twice.check().unwrap_err(), "more than one budget for the period day");
        let zero = KeyLimits { requests_per_minute: Some(0), ..KeyLimits::default() };
        assert!(
            zero.check().unwrap_err().starts_with("requests_per_minute must be between 1 and 2147483647")
        );

        let change = LimitsChange {
            budgets: BudgetsChange::Merge {
                set: vec![budget("7/day"), budget("100/total")],
                clear: vec![BudgetPeriod::Month],
            },
            tokens_per_minute: Some(Some(1000)),
            requests_per_minute: Some(None),
        };
        let changed = KeyLimits { requests_per_minute: Some(5), ..limits.clone() }.apply(&change).unwrap();
        assert_eq!(changed.budgets, vec![budget("7/day"), budget("100/total")]);
        assert_eq!((changed.tokens_per_minute, changed.requests_per_minute), (Some(1000), None));
        let replace = LimitsChange { budgets: BudgetsChange::Replace(vec![]), ..LimitsChange::default() };
        assert_eq!(limits.clone().apply(&replace).unwrap(), KeyLimits::default());
        assert_eq!(limits.clone().apply(&LimitsChange::default()).unwrap(), limits);
        let stored = limits.to_stored();
        assert_eq!(KeyLimits::from_stored(&stored).unwrap(), limits);
        assert_eq!(KeyLimits::from_stored("{}").unwrap(), KeyLimits::default());
        assert!(KeyLimits::from_stored("[]").is_err());
    }

    #[test]
    fn clients_are_what_a_header_may_hold() {
        assert!(check_client("acme corp").is_ok());
        for bad in ["", " acme", "acme\n", "caf\u{e9}", &"x".repeat(MAX_CLIENT_CHARS + 1)] {
            assert!(check_client(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn listings_keep_their_old_fields_and_add_the_limits() {
        let key = ApiKey {
            id: "abc".into(),
            name: "n".into(),
            client: "c".into(),
            created_at: 1,
            revoked_at: None,
            limits: KeyLimits { tokens_per_minute: Some(9), ..KeyLimits::default() },
        };
        assert_eq!(
            serde_json::to_value(&key).unwrap(),
            serde_json::json!({"id": "abc", "name": "n", "client": "c", "created_at": 1, "revoked_at": null,
                               "budgets": [], "tokens_per_minute": 9, "requests_per_minute": null})
        );
    }
}
