//! Usage reports from the ledger: who may read what (an admin everything, a key its own calls, a
//! client without keys its own), the period in whole hours, the grouping, and the sums, with money as
//! exact decimal strings.

use crate::error::{Error, Result};
use crate::plugins::price;
use crate::store::DialogStore;
use crate::store::usage::{Dimension, UsageQuery, UsageRow, hour_of};
use serde::Serialize;
use std::collections::BTreeMap;
use time::format_description::well_known::Rfc3339;
use time::{Date, OffsetDateTime, Time};

/// Who reads a report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Viewer {
    /// The operator (the admin credential, or `parlance usage` on the store itself): every call.
    Admin,
    /// A request with an API key: the key's own calls only.
    Key { id: String, client: String },
    /// A client named by `current-user` where keys are off: the client's own calls only.
    Client(String),
}

/// What a report asks for, as the query string or the command line gives it.
#[derive(Clone, Debug, Default, serde::Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct ReportRequest {
    /// The start: an RFC 3339 instant or a date (`2026-11-01`, midnight UTC), taken down to its hour.
    /// Default: the first of the current month (UTC).
    pub from: Option<String>,
    /// The end (exclusive), as `from`, taken up to its hour. Default: now.
    pub to: Option<String>,
    /// Comma-separated dimensions: `key`, `client`, `plugin`, `model`, `surface`, `day`. Default: none
    /// (one row, the totals).
    pub group_by: Option<String>,
    /// Only this key's calls (its id, the part after `prl_`); an admin's filter.
    pub key: Option<String>,
    /// Only this client's calls; an admin's filter.
    pub client: Option<String>,
}

/// The hours a report covers, in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Period {
    pub from: i64,
    pub to: i64,
}

impl Period {
    /// `from` and `to` as written, with their defaults, in whole hours: `from` down to its hour, `to`
    /// up to the end of its hour.
    pub fn parse(from: Option<&str>, to: Option<&str>, now: i64) -> Result<Period> {
        let from = match from {
            Some(text) => instant("from", text)?,
            None => month_start(now),
        };
        let to = match to {
            Some(text) => instant("to", text)?,
            None => now,
        };
        let (from, to) = (hour_of(from), hour_of(to.saturating_add(3_599_999)));
        if to <= from {
            return Err(Error::invalid("to", "`to` must be after `from`"));
        }
        Ok(Period { from, to })
    }
}

/// The sums of one group, or of the whole report.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct UsageTotals {
    /// Settled plugin calls (a whole stream is one; each attempt of a fallback chain is one).
    pub calls: u64,
    /// Those that failed.
    pub failed_calls: u64,
    /// Tokens the upstreams reported, in and out.
    pub input_tokens: u64,
    pub output_tokens: u64,
    /// Calls whose upstream reported no token count.
    pub unreported_calls: u64,
    /// What the priced calls cost, as an exact decimal string in `currency`; `null` when no call of the
    /// group was priced.
    #[schema(value_type = Option<String>, example = "0.0042")]
    pub cost: Option<String>,
    /// Calls with no cost: a model without a price, or a priced count that was not reported.
    pub unpriced_calls: u64,
}

impl UsageTotals {
    fn of(row: &UsageRow) -> UsageTotals {
        let priced = row.calls - row.unpriced;
        UsageTotals {
            calls: row.calls,
            failed_calls: row.failed,
            input_tokens: row.input_tokens,
            output_tokens: row.output_tokens,
            unreported_calls: row.unreported,
            cost: (priced > 0).then(|| price::amount(row.cost)),
            unpriced_calls: row.unpriced,
        }
    }
}

/// One group: its values (by dimension name) and its sums.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct UsageGroup {
    /// The group's value for each dimension of `group_by`: a key's id, a client, a plugin, a model, a
    /// surface, or a day (`2026-11-28`); `""` for calls with no key or no known model.
    #[schema(value_type = Object)]
    pub group: BTreeMap<String, String>,
    #[serde(flatten)]
    pub totals: UsageTotals,
}

/// A usage report.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct UsageReport {
    /// The first hour covered (RFC 3339, UTC).
    pub from: String,
    /// The end of the last hour covered (exclusive).
    pub to: String,
    /// The currency of every `cost`.
    pub currency: String,
    pub group_by: Vec<String>,
    pub groups: Vec<UsageGroup>,
    /// The sums over every group.
    pub total: UsageTotals,
}

/// Reads usage reports from the ledger.
pub struct Ledger {
    store: Option<DialogStore>,
    currency: String,
    /// This process's accountant, whose records not yet committed a report waits for.
    pending: Option<std::sync::Arc<super::Accountant>>,
}

impl Ledger {
    pub fn new(store: Option<DialogStore>, currency: &str) -> Ledger {
        Ledger { store, currency: currency.to_owned(), pending: None }
    }

    /// Reports include every call `accountant` has settled before they are asked for.
    pub fn after(mut self, accountant: std::sync::Arc<super::Accountant>) -> Ledger {
        self.pending = Some(accountant);
        self
    }

    /// The report `request` asks for, as `viewer` may see it.
    pub async fn report(&self, viewer: &Viewer, request: &ReportRequest, now: i64) -> Result<UsageReport> {
        let period = Period::parse(request.from.as_deref(), request.to.as_deref(), now)?;
        let group_by = dimensions(request.group_by.as_deref())?;
        let (key_id, client) = scope(viewer, request)?;
        let query =
            UsageQuery { from: period.from, to: period.to, key_id, client, group_by: group_by.clone() };
        // A Parlance without a store (the library's, the command line's) records no ledger to read.
        let Some(store) = &self.store else { return Err(Error::Storage(crate::store::StoreError::Closed)) };
        if let Some(accountant) = &self.pending {
            accountant.flush().await;
        }
        let rows = store.usage_report(&query).await?;
        let total = rows.iter().fold(UsageRow::default(), |mut sum, row| {
            sum.calls += row.calls;
            sum.failed += row.failed;
            sum.input_tokens += row.input_tokens;
            sum.output_tokens += row.output_tokens;
            sum.unreported += row.unreported;
            sum.cost += row.cost;
            sum.unpriced += row.unpriced;
            sum
        });
        let groups = if group_by.is_empty() {
            Vec::new()
        } else {
            rows.iter()
                .map(|row| UsageGroup {
                    group: row.group.iter().map(|(d, v)| (d.name().to_owned(), group_value(*d, v))).collect(),
                    totals: UsageTotals::of(row),
                })
                .collect()
        };
        Ok(UsageReport {
            from: rfc3339(period.from),
            to: rfc3339(period.to),
            currency: self.currency.clone(),
            group_by: group_by.iter().map(|d| d.name().to_owned()).collect(),
            groups,
            total: UsageTotals::of(&total),
        })
    }
}

/// The key and client a viewer's report is confined to: a key to itself, a client to itself; only an
/// admin chooses.
fn scope(viewer: &Viewer, request: &ReportRequest) -> Result<(Option<String>, Option<String>)> {
    match viewer {
        Viewer::Admin => Ok((request.key.clone(), request.client.clone())),
        Viewer::Key { id, client } => {
            if request.key.as_ref().is_some_and(|k| k != id) {
                return Err(Error::Forbidden("an API key reads only its own usage".into()));
            }
            if request.client.as_ref().is_some_and(|c| c != client) {
                return Err(Error::Forbidden("an API key reads only its own client's usage".into()));
            }
            Ok((Some(id.clone()), Some(client.clone())))
        }
        Viewer::Client(client) => {
            if request.client.as_ref().is_some_and(|c| c != client) {
                return Err(Error::Forbidden("a client reads only its own usage".into()));
            }
            Ok((request.key.clone(), Some(client.clone())))
        }
    }
}

fn dimensions(text: Option<&str>) -> Result<Vec<Dimension>> {
    let mut out = Vec::new();
    for name in text.unwrap_or("").split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let Some(d) = Dimension::parse(name) else {
            let known: Vec<&str> = Dimension::ALL.iter().map(|d| d.name()).collect();
            return Err(Error::invalid(
                "group_by",
                format!("`group_by` has {name:?}; the dimensions are {}", known.join(", ")),
            ));
        };
        if out.contains(&d) {
            return Err(Error::invalid("group_by", format!("`group_by` names {name:?} twice")));
        }
        out.push(d);
    }
    Ok(out)
}

/// An instant as written: RFC 3339, or a date at midnight UTC.
fn instant(field: &'static str, text: &str) -> Result<i64> {
    let text = text.trim();
    let parsed = OffsetDateTime::parse(text, &Rfc3339).or_else(|_| {
        Date::parse(text, time::macros::format_description!("[year]-[month]-[day]"))
            .map(|d| d.with_time(Time::MIDNIGHT).assume_utc())
    });
    match parsed {
        Ok(at) => Ok((at.unix_timestamp_nanos() / 1_000_000) as i64),
        Err(_) => Err(Error::invalid(
            field,
            format!(
                "`{field}` is {text:?}; expected an RFC 3339 instant (2026-11-28T10:00:00Z) or a date (2026-11-28)"
            ),
        )),
    }
}

fn month_start(now: i64) -> i64 {
    let at = OffsetDateTime::from_unix_timestamp(now.div_euclid(1000)).unwrap_or(OffsetDateTime::UNIX_EPOCH);
    let first = at.date().replace_day(1).unwrap_or(at.date());
    first.with_time(Time::MIDNIGHT).assume_utc().unix_timestamp() * 1000
}

pub(super) fn rfc3339(ms: i64) -> String {
    OffsetDateTime::from_unix_timestamp(ms.div_euclid(1000))
        .ok()
        .and_then(|t| t.format(&Rfc3339).ok())
        .unwrap_or_default()
}

/// A group's value for clients: a day as its date.
fn group_value(d: Dimension, value: &str) -> String {
    match (d, value.parse::<i64>()) {
        (Dimension::Day, Ok(ms)) => rfc3339(ms).get(..10).unwrap_or_default().to_owned(),
        _ => value.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: i64 = 1_795_862_730_000; // 2026-11-28T10:05:30Z

    #[test]
    fn periods_are_whole_hours() {
        let p = Period::parse(None, None, NOW).unwrap();
        assert_eq!(rfc3339(p.from), "2026-11-01T00:00:00Z");
        assert_eq!(rfc3339(p.to), "2026-11-28T11:00:00Z");
        let p = Period::parse(Some("2026-11-28T10:30:00Z"), Some("2026-11-28"), NOW);
        assert!(p.is_err());
        let p = Period::parse(Some("2026-11-27"), Some("2026-11-28T00:00:00Z"), NOW).unwrap();
        assert_eq!(p.to - p.from, 86_400_000);
        let e = Period::parse(Some("yesterday"), None, NOW).unwrap_err();
        assert!(e.to_string().contains("RFC 3339"), "{e}");
    }

    #[test]
    fn viewers_see_their_own() {
        let key = Viewer::Key { id: "k1".into(), client: "a".into() };
        let mut request = ReportRequest::default();
        assert_eq!(scope(&key, &request).unwrap(), (Some("k1".into()), Some("a".into())));
        request.key = Some("k2".into());
        assert!(matches!(scope(&key, &request), Err(Error::Forbidden(_))));
        assert_eq!(scope(&Viewer::Admin, &request).unwrap(), (Some("k2".into()), None));
        request.key = None;
        request.client = Some("b".into());
        assert!(matches!(scope(&Viewer::Client("a".into()), &request), Err(Error::Forbidden(_))));
        assert!(dimensions(Some("model, day")).is_ok());
        assert!(dimensions(Some("model,model")).is_err());
        assert!(dimensions(Some("user")).unwrap_err().to_string().contains("key, client, plugin"));
        assert_eq!(group_value(Dimension::Day, "1795824000000"), "2026-11-28");
    }
}
