//! `parlance plugins list` and `parlance plugins check`: what is configured, and whether a component
//! fits the contract.

use super::CliResult;
use crate::Config;
use crate::plugins::api::PluginKind;
use crate::plugins::{PluginHost, Runtime, RuntimeSettings, check};
use std::io::Write;

pub async fn list(config: Config, json: bool) -> CliResult {
    let upstream = config.tls.client()?;
    let host =
        PluginHost::start_with_upstream(config.plugins.clone(), &config.runtime, None, upstream).await?;
    let rows: Vec<serde_json::Value> = host
        .plugins()
        .map(|p| {
            let spec = p.spec();
            serde_json::json!({
                "id": p.id(),
                "kind": p.kind(),
                "component": spec.component.to_string(),
                "wit_version": p.version.to_string(),
                "allowed_hosts": spec.allowed_hosts.iter().map(ToString::to_string).collect::<Vec<_>>(),
                "name": p.info.name(),
                "digest": p.digest,
                "missing_secrets": spec.missing_secrets(),
            })
        })
        .collect();
    let mut out = std::io::stdout().lock();
    if json {
        writeln!(out, "{}", serde_json::to_string_pretty(&rows)?)?;
        return Ok(());
    }
    writeln!(out, "{:<14} {:<11} {:<22} {:<6} ALLOWED HOSTS", "ID", "KIND", "COMPONENT", "WIT")?;
    for (p, row) in host.plugins().zip(&rows) {
        let hosts = row["allowed_hosts"]
            .as_array()
            .map(|h| h.iter().filter_map(|v| v.as_str()).collect::<Vec<_>>().join(", "));
        let hosts = hosts.filter(|h| !h.is_empty()).unwrap_or_else(|| "(none)".into());
        let note =
            p.unavailable_reason().map(|reason| format!("  [unavailable: {reason}]")).unwrap_or_default();
        writeln!(
            out,
            "{:<14} {:<11} {:<22} {:<6} {hosts}{note}",
            p.id(),
            p.kind().as_str(),
            p.spec().component.to_string(),
            p.version.to_string()
        )?;
    }
    Ok(())
}

pub fn check(settings: &RuntimeSettings, file: &std::path::Path, json: bool) -> CliResult {
    let bytes = std::fs::read(file).map_err(|e| anyhow::anyhow!("cannot read {}: {e}", file.display()))?;
    let runtime = Runtime::new(settings, 1 << 30)?;
    let report = check::check(&runtime, &bytes);
    let mut out = std::io::stdout().lock();
    if json {
        writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?;
    } else {
        for world in &report.fits {
            writeln!(out, "ok: {} fits {world}", file.display())?;
        }
        for optional in &report.optional {
            writeln!(out, "also exports: {optional}")?;
        }
        for problem in &report.problems {
            writeln!(out, "problem: {problem}")?;
        }
        if report.fits.is_empty() && report.problems.is_empty() {
            writeln!(out, "problem: it fits no world of the contract")?;
        }
        writeln!(
            out,
            "exports: {}",
            if report.exports.is_empty() { "(none)".into() } else { report.exports.join(", ") }
        )?;
        writeln!(
            out,
            "imports: {}",
            if report.imports.is_empty() { "(none)".into() } else { report.imports.join(", ") }
        )?;
        let kinds: Vec<&str> = PluginKind::ALL.iter().map(|k| k.world()).collect();
        writeln!(out, "worlds of the contract: {}", kinds.join(", "))?;
    }
    if report.ok() { Ok(()) } else { anyhow::bail!("{} does not fit a plugin world", file.display()) }
}
