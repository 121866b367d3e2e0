//! `parlance plugins list`, `check`, `lock` and `push`: what is configured, whether a component fits
//! the contract, and components pinned from and published to OCI registries.

use crate::Config;
use crate::oci::{Description, Reference, Registry};
use crate::plugins::api::PluginKind;
use crate::plugins::spec::ComponentSource;
use crate::plugins::{Runtime, RuntimeConfig, check};
use std::io::Write;

/// Lists the plugins of a configuration after checking it as every other mode does (the plugins load,
/// the metrics' score names do not collide, the weights name declared scores…), so that a
/// configuration the server would refuse is refused here too, with the same exit code.
pub async fn list(config: Config, json: bool) -> anyhow::Result<()> {
    let parlance = super::shared::start_without_chat(config).await?;
    let quotas = parlance.paraphraser().rate_limits();
    let plugins: Vec<_> = parlance.plugins().plugins().collect();
    let rows: Vec<serde_json::Value> = plugins
        .iter()
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
                "rate_limit_per_minute": (p.kind() == PluginKind::Provider).then(|| quotas.quota(p.id()).per_minute()).flatten(),
                "pricing": p.pricing(),
                "prices": spec.prices.0.iter().map(|(m, price)| (m.clone(), price.listing())).collect::<std::collections::BTreeMap<_, _>>(),
            })
        })
        .collect();
    let mut out = std::io::stdout().lock();
    if json {
        writeln!(out, "{}", serde_json::to_string_pretty(&rows)?)?;
        return Ok(());
    }
    let mut table =
        vec![["ID", "KIND", "COMPONENT", "WIT", "PRICING", "ALLOWED HOSTS"].map(String::from).to_vec()];
    for p in &plugins {
        let spec = p.spec();
        let hosts = spec.allowed_hosts.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ");
        let note =
            p.unavailable_reason().map(|reason| format!("  [unavailable: {reason}]")).unwrap_or_default();
        table.push(vec![
            p.id().to_owned(),
            p.kind().as_str().to_owned(),
            spec.component.to_string(),
            p.version.to_string(),
            p.pricing().to_owned(),
            format!("{}{note}", if hosts.is_empty() { "(none)".into() } else { hosts }),
        ]);
    }
    write!(out, "{}", super::shared::columns(&table))?;
    Ok(())
}

pub fn check(settings: &RuntimeConfig, file: &std::path::Path, json: bool) -> anyhow::Result<()> {
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

/// `parlance plugins lock`: every `oci://` plugin pinned and pulled, and the lock written.
pub async fn lock(config: &Config) -> anyhow::Result<()> {
    let references: Vec<Reference> = config
        .plugins
        .iter()
        .filter_map(|p| match &p.component {
            ComponentSource::Oci(reference) => Some(reference.clone()),
            _ => None,
        })
        .collect();
    let registry = Registry::new(config.runtime.registry.clone(), config.tls.client()?);
    let lock = registry.lock(&references).await?;
    let mut out = std::io::stdout().lock();
    for entry in &lock.plugins {
        writeln!(
            out,
            "locked {} at {} (component {}, {} bytes)",
            entry.reference, entry.digest, entry.component, entry.size
        )?;
    }
    if lock.plugins.is_empty() {
        writeln!(out, "no plugin comes from a registry")?;
    }
    writeln!(out, "wrote {}", config.runtime.registry.lock_file().display())?;
    Ok(())
}

/// `parlance plugins push FILE oci://…`: the component checked against the contract, then published.
pub async fn push(config: &Config, file: &std::path::Path, reference: &str) -> anyhow::Result<()> {
    let reference = Reference::parse(reference).map_err(|e| anyhow::anyhow!(e))?;
    let bytes = std::fs::read(file).map_err(|e| anyhow::anyhow!("cannot read {}: {e}", file.display()))?;
    let report = check::check(&Runtime::new(&config.runtime, 1 << 30)?, &bytes);
    if !report.ok() {
        let why = if report.problems.is_empty() {
            "it fits no world of the contract".into()
        } else {
            report.problems.join("; ")
        };
        anyhow::bail!(
            "{} is not pushed: it does not fit a plugin world ({why}); `parlance plugins check` says more",
            file.display()
        );
    }
    let description = Description {
        worlds: report.fits.clone(),
        exports: report.exports.clone(),
        imports: report.imports.clone(),
        title: file.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default(),
    };
    let registry = Registry::new(config.runtime.registry.clone(), config.tls.client()?);
    let digest = registry.push(&reference, &bytes, &description).await?;
    writeln!(
        std::io::stdout().lock(),
        "pushed {} ({}) to {}",
        file.display(),
        report.fits.join(", "),
        reference.pinned(&digest)
    )?;
    Ok(())
}
