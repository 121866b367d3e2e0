//! `parlance usage`: the ledger's report read from the store itself, as the operator sees it (every
//! key and client), as a table, JSON (the shape of `GET /usage`) or CSV.

use super::keys::open_existing;
use super::shared::columns;
use crate::Config;
use crate::usage::{Ledger, ReportRequest, UsageReport, Viewer};
use std::io::Write;

/// The report's output format.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Format {
    #[default]
    Table,
    Json,
    Csv,
}

pub async fn run(config: Config, request: ReportRequest, format: Format) -> anyhow::Result<()> {
    let (store, location) = open_existing(&config).await?;
    let ledger = Ledger::new(Some(store), &config.usage.currency);
    let report = ledger.report(&Viewer::Admin, &request, crate::usage::now_millis()).await?;
    writeln!(std::io::stderr().lock(), "usage recorded in the store at {location}")?;
    let mut out = std::io::stdout().lock();
    match format {
        Format::Json => writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?,
        Format::Csv => write!(out, "{}", csv(&report))?,
        Format::Table => {
            writeln!(out, "{} to {} ({})", report.from, report.to, report.currency)?;
            write!(out, "{}", columns(&rows(&report, true)))?;
        }
    }
    Ok(())
}

/// The header and one row per group, then the total (when `total`), as text cells.
fn rows(report: &UsageReport, total: bool) -> Vec<Vec<String>> {
    let mut header: Vec<String> = report.group_by.iter().map(|d| d.to_uppercase()).collect();
    header.extend(
        ["CALLS", "FAILED", "INPUT_TOKENS", "OUTPUT_TOKENS", "UNREPORTED", "COST", "UNPRICED"]
            .map(String::from),
    );
    let cells = |group: Vec<String>, t: &crate::usage::report::UsageTotals| {
        let mut row = group;
        row.extend([
            t.calls.to_string(),
            t.failed_calls.to_string(),
            t.input_tokens.to_string(),
            t.output_tokens.to_string(),
            t.unreported_calls.to_string(),
            t.cost.clone().unwrap_or_default(),
            t.unpriced_calls.to_string(),
        ]);
        row
    };
    let mut out = vec![header];
    for g in &report.groups {
        let values = report.group_by.iter().map(|d| g.group.get(d).cloned().unwrap_or_default()).collect();
        out.push(cells(values, &g.totals));
    }
    if total {
        let mut label = vec![String::new(); report.group_by.len()];
        if let Some(first) = label.first_mut() {
            *first = "TOTAL".into();
        }
        out.push(cells(label, &report.total));
    }
    out
}

/// RFC 4180: every field quoted where it holds a comma, a quote or a line break.
fn csv(report: &UsageReport) -> String {
    let field = |f: &str| {
        if f.contains([',', '"', '\n', '\r']) {
            format!("\"{}\"", f.replace('"', "\"\""))
        } else {
            f.to_owned()
        }
    };
    let rows = if report.group_by.is_empty() { rows(report, true) } else { rows(report, false) };
    rows.iter().map(|r| r.iter().map(|f| field(f)).collect::<Vec<_>>().join(",") + "\r\n").collect()
}
