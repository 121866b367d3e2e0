//! The usage ledger as the store keeps it: one row per settled plugin call (`usage_calls`, keyed by an
//! id made when the call settled, so that a write repeated after a lost answer counts once), and the
//! same calls summed per hour (`usage_hourly`), which reports read so that a month costs the same to
//! read as an hour. Money is in picos (10⁻¹² of the currency), whole numbers that sum exactly.

use std::fmt;

/// The ledger's tables, the same text for SQLite and PostgreSQL (a migration of each); shipped, so
/// never edited.
pub(super) const LEDGER_SCHEMA: &str = "CREATE TABLE usage_calls (
    id            TEXT   NOT NULL PRIMARY KEY,
    at            BIGINT NOT NULL,  -- milliseconds since the Unix epoch
    key_id        TEXT,
    client        TEXT   NOT NULL,
    plugin        TEXT   NOT NULL,
    model         TEXT,
    surface       TEXT   NOT NULL,
    input_tokens  BIGINT,           -- as the upstream reported; NULL when it did not
    output_tokens BIGINT,
    cost          BIGINT,           -- picos of the currency; NULL when unpriced
    failure       TEXT,
    trace_id      TEXT
);
CREATE INDEX usage_calls_by_time ON usage_calls (at);
CREATE TABLE usage_hourly (
    hour          BIGINT NOT NULL,  -- the hour's first millisecond
    key_id        TEXT   NOT NULL,  -- '' for none
    client        TEXT   NOT NULL,
    plugin        TEXT   NOT NULL,
    model         TEXT   NOT NULL,  -- '' for unknown
    surface       TEXT   NOT NULL,
    calls         BIGINT NOT NULL,
    failed        BIGINT NOT NULL,
    input_tokens  BIGINT NOT NULL,
    output_tokens BIGINT NOT NULL,
    unreported    BIGINT NOT NULL,  -- calls with no token count
    cost          BIGINT NOT NULL,  -- the priced calls' cost, in picos
    unpriced      BIGINT NOT NULL,  -- calls with no cost
    PRIMARY KEY (hour, key_id, client, plugin, model, surface)
);
CREATE INDEX usage_hourly_by_key ON usage_hourly (key_id, hour);
CREATE INDEX usage_hourly_by_client ON usage_hourly (client, hour);";

/// The calls' time index dropped: nothing reads the calls by time (reports read the hourly sums), and
/// every insert paid for it. A call's id begins with its millisecond in hex, so the primary key keeps
/// the calls recorded since ids took that form in time order. Both backends, one text.
pub(super) const LEDGER_WITHOUT_TIME_INDEX: &str = "DROP INDEX usage_calls_by_time;";

/// One settled call, as it is recorded (and as the usage spool keeps it until then, in JSON).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct UsageCall {
    /// Unique per call: the millisecond it settled, its process's random bits and a counter, in hex
    /// (so that new rows go to the end of the index).
    pub id: String,
    /// Milliseconds since the Unix epoch.
    pub at: i64,
    /// The API key that asked, when keys are required.
    pub key_id: Option<String>,
    pub client: String,
    pub plugin: String,
    pub model: Option<String>,
    /// `rest`, `openai`, `batch`, `job`, `cli`, `library`.
    pub surface: String,
    pub input_tokens: Option<u32>,
    pub output_tokens: Option<u32>,
    /// In picos; `None` when the model has no price or a count it is priced by was not reported.
    pub cost: Option<i64>,
    /// The call's error code, when it failed.
    pub failure: Option<String>,
    pub trace_id: Option<String>,
}

/// A dimension a report groups by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Dimension {
    Key,
    Client,
    Plugin,
    Model,
    Surface,
    Day,
}

impl Dimension {
    pub const ALL: [Dimension; 6] = [
        Dimension::Key,
        Dimension::Client,
        Dimension::Plugin,
        Dimension::Model,
        Dimension::Surface,
        Dimension::Day,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Dimension::Key => "key",
            Dimension::Client => "client",
            Dimension::Plugin => "plugin",
            Dimension::Model => "model",
            Dimension::Surface => "surface",
            Dimension::Day => "day",
        }
    }

    pub fn parse(name: &str) -> Option<Dimension> {
        Dimension::ALL.into_iter().find(|d| d.name() == name)
    }

    /// Its expression over `usage_hourly`, the same in SQLite and PostgreSQL.
    pub(super) fn column(self) -> &'static str {
        match self {
            Dimension::Key => "key_id",
            Dimension::Client => "client",
            Dimension::Plugin => "plugin",
            Dimension::Model => "model",
            Dimension::Surface => "surface",
            Dimension::Day => "(hour - hour % 86400000)",
        }
    }
}

impl fmt::Display for Dimension {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What a report covers: whole hours from `from` (inclusive) to `to` (exclusive), in milliseconds,
/// optionally one key's or one client's calls only, grouped by `group_by` (in that order).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UsageQuery {
    pub from: i64,
    pub to: i64,
    pub key_id: Option<String>,
    pub client: Option<String>,
    pub group_by: Vec<Dimension>,
}

/// One group's sums. A group value that is unknown (no key, no model) is the empty string; a day is
/// its first millisecond as a decimal string.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UsageRow {
    pub group: Vec<(Dimension, String)>,
    pub calls: u64,
    pub failed: u64,
    pub input_tokens: u64,
    pub output_tokens: u64,
    /// Calls whose upstream reported no token count.
    pub unreported: u64,
    /// The priced calls' cost, in picos.
    pub cost: i64,
    /// Calls with no cost: an unpriced model, or a priced count that was not reported.
    pub unpriced: u64,
}

/// What a batch of calls adds to one hour's sums for one group, as both backends bind it.
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct HourlyDelta<'a> {
    pub hour: i64,
    pub key_id: &'a str,
    pub client: &'a str,
    pub plugin: &'a str,
    pub model: &'a str,
    pub surface: &'a str,
    pub calls: i64,
    pub failed: i64,
    pub input_tokens: i64,
    pub output_tokens: i64,
    pub unreported: i64,
    pub cost: i64,
    pub unpriced: i64,
}

/// The sums that `calls` add to their hours, one per hour and group, in the order of
/// `usage_hourly`'s key (so that writers adding to the same rows take their locks in one order).
pub(super) fn hourly_sums<'a>(calls: impl IntoIterator<Item = &'a UsageCall>) -> Vec<HourlyDelta<'a>> {
    let mut sums: std::collections::BTreeMap<_, HourlyDelta<'a>> = std::collections::BTreeMap::new();
    for call in calls {
        let group = (
            hour_of(call.at),
            call.key_id.as_deref().unwrap_or(""),
            call.client.as_str(),
            call.plugin.as_str(),
            call.model.as_deref().unwrap_or(""),
            call.surface.as_str(),
        );
        let d = sums.entry(group).or_insert_with(|| HourlyDelta {
            hour: group.0,
            key_id: group.1,
            client: group.2,
            plugin: group.3,
            model: group.4,
            surface: group.5,
            ..HourlyDelta::default()
        });
        let reported = call.input_tokens.is_some() || call.output_tokens.is_some();
        d.calls += 1;
        d.failed += i64::from(call.failure.is_some());
        d.input_tokens += i64::from(call.input_tokens.unwrap_or(0));
        d.output_tokens += i64::from(call.output_tokens.unwrap_or(0));
        d.unreported += i64::from(!reported);
        d.cost += call.cost.unwrap_or(0);
        d.unpriced += i64::from(call.cost.is_none());
    }
    sums.into_values().collect()
}

/// Adds a [`HourlyDelta`] to its row, with placeholders `{p}1` … `{p}13` in its order (`?` for
/// SQLite, `$` for PostgreSQL).
pub(super) fn hourly_upsert(p: char) -> String {
    format!(
        "INSERT INTO usage_hourly (hour, key_id, client, plugin, model, surface, \
         calls, failed, input_tokens, output_tokens, unreported, cost, unpriced) \
         VALUES ({p}1, {p}2, {p}3, {p}4, {p}5, {p}6, {p}7, {p}8, {p}9, {p}10, {p}11, {p}12, {p}13) \
         ON CONFLICT (hour, key_id, client, plugin, model, surface) DO UPDATE SET \
         calls = usage_hourly.calls + excluded.calls, failed = usage_hourly.failed + excluded.failed, \
         input_tokens = usage_hourly.input_tokens + excluded.input_tokens, \
         output_tokens = usage_hourly.output_tokens + excluded.output_tokens, \
         unreported = usage_hourly.unreported + excluded.unreported, \
         cost = usage_hourly.cost + excluded.cost, unpriced = usage_hourly.unpriced + excluded.unpriced"
    )
}

/// Records one call, unless its id is on record, with placeholders `{p}1` … `{p}12` in
/// [`UsageCall`]'s order.
pub(super) fn call_insert(p: char) -> String {
    format!(
        "INSERT INTO usage_calls (id, at, key_id, client, plugin, model, surface, input_tokens, \
         output_tokens, cost, failure, trace_id) \
         VALUES ({p}1, {p}2, {p}3, {p}4, {p}5, {p}6, {p}7, {p}8, {p}9, {p}10, {p}11, {p}12) \
         ON CONFLICT (id) DO NOTHING"
    )
}

/// The first millisecond of the hour `at` falls in.
pub fn hour_of(at: i64) -> i64 {
    at - at.rem_euclid(3_600_000)
}

/// The SQL of a report over `usage_hourly`, with `?` placeholders in order (from, to, then the key
/// and client when the query has them), for both backends (PostgreSQL's `$n` are put in by the
/// caller).
pub(super) fn report_sql(query: &UsageQuery) -> String {
    let groups: Vec<&str> = query.group_by.iter().map(|d| d.column()).collect();
    let mut select: Vec<String> = groups.iter().map(|g| g.to_string()).collect();
    // PostgreSQL sums BIGINTs into NUMERIC; the cast brings them back (and overflows loudly).
    select.extend(
        ["calls", "failed", "input_tokens", "output_tokens", "unreported", "cost", "unpriced"]
            .map(|c| format!("CAST(COALESCE(SUM({c}), 0) AS BIGINT)")),
    );
    let mut sql = format!("SELECT {} FROM usage_hourly WHERE hour >= ? AND hour < ?", select.join(", "));
    if query.key_id.is_some() {
        sql.push_str(" AND key_id = ?");
    }
    if query.client.is_some() {
        sql.push_str(" AND client = ?");
    }
    if !groups.is_empty() {
        let positions: Vec<String> = (1..=groups.len()).map(|i| i.to_string()).collect();
        sql.push_str(&format!(" GROUP BY {0} ORDER BY {0}", positions.join(", ")));
    }
    sql
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hours_and_reports() {
        assert_eq!(hour_of(3_600_000 * 5 + 17), 3_600_000 * 5);
        assert_eq!(hour_of(-1), -3_600_000);
        let query = UsageQuery {
            from: 0,
            to: 1,
            key_id: Some("k".into()),
            client: None,
            group_by: vec![Dimension::Model, Dimension::Day],
        };
        let sql = report_sql(&query);
        assert!(
            sql.starts_with(
                "SELECT model, (hour - hour % 86400000), CAST(COALESCE(SUM(calls), 0) AS BIGINT)"
            ),
            "{sql}"
        );
        assert!(sql.ends_with("AND key_id = ? GROUP BY 1, 2 ORDER BY 1, 2"), "{sql}");
        assert_eq!(Dimension::parse("surface"), Some(Dimension::Surface));
        assert_eq!(Dimension::parse("user"), None);
    }
}
