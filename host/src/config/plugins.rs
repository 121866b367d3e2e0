//! The `[[plugin]]` tables: binding plugin ids to components, with their allow-lists, settings,
//! secrets, limits and grants, merged over the bundled defaults.

use super::Env;
use super::file::{Reader, Section, expand_home, scalar_to_string};
use crate::plugins::api::PluginKind;
use crate::plugins::spec::{ComponentSource, HostPattern, PluginSpec, SecretSource};
use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

const PLUGIN_KEYS: &[&str] =
    &["id", "kind", "component", "enabled", "allowed_hosts", "config", "secrets", "limits", "grants"];
const LIMIT_KEYS: &[&str] = &["timeout_ms", "memory_mb", "http_timeout_ms", "max_response_kb"];
const GRANT_KEYS: &[&str] = &["env", "read_dir"];

/// One `[[plugin]]` table as written: everything but `id` is optional, because a table whose id
/// names a bundled default amends it.
#[derive(Debug, Default)]
pub struct FilePlugin {
    id: String,
    kind: Option<PluginKind>,
    component: Option<ComponentSource>,
    enabled: Option<bool>,
    allowed_hosts: Option<Vec<HostPattern>>,
    config: BTreeMap<String, String>,
    secrets: BTreeMap<String, SecretSource>,
    timeout_ms: Option<u64>,
    memory_mb: Option<u64>,
    http_timeout_ms: Option<u64>,
    max_response_kb: Option<u64>,
    grant_env: Option<Vec<String>>,
    grant_read_dir: Option<String>,
    /// Where the table is, for messages that can only be given after merging.
    location: String,
}

pub fn read(root: &Section<'_, '_>, r: &mut Reader<'_>, env: &Env) -> Vec<FilePlugin> {
    let base_dir = r.file.parent().map(Path::to_path_buf).unwrap_or_default();
    let mut out: Vec<FilePlugin> = Vec::new();
    for s in root.tables(r, "plugin") {
        s.deny_unknown(r, PLUGIN_KEYS);
        let Some(id) = s.string(r, "id") else {
            r.problem(0, &s.path, "every [[plugin]] needs an `id`");
            continue;
        };
        if id.is_empty() || !id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') {
            r.problem(
                s.span_of("id"),
                &s.key("id"),
                format!("{id:?} is not a valid plugin id (letters, digits, - and _)"),
            );
        }
        if out.iter().any(|p| p.id == id) {
            r.problem(s.span_of("id"), &s.key("id"), format!("the plugin id {id:?} is defined twice"));
        }
        let mut p =
            FilePlugin { id, location: format!("{}: {}", r.file.display(), s.path), ..Default::default() };
        if let Some(kind) = s.string(r, "kind") {
            match kind.parse() {
                Ok(k) => p.kind = Some(k),
                Err(e) => r.problem(s.span_of("kind"), &s.key("kind"), e),
            }
        }
        if let Some(component) = s.string(r, "component") {
            p.component = Some(match component.strip_prefix("builtin:") {
                Some(name) => ComponentSource::Builtin(name.to_owned()),
                None => {
                    let path = expand_home(&component, env);
                    ComponentSource::File(if path.is_relative() { base_dir.join(path) } else { path })
                }
            });
        }
        p.enabled = s.boolean(r, "enabled");
        if let Some(hosts) = s.strings(r, "allowed_hosts") {
            let mut parsed = Vec::new();
            for h in hosts {
                match HostPattern::parse(&h) {
                    Ok(pattern) => parsed.push(pattern),
                    Err(e) => r.problem(s.span_of("allowed_hosts"), &s.key("allowed_hosts"), e),
                }
            }
            p.allowed_hosts = Some(parsed);
        }
        if let Some(config) = s.table(r, "config") {
            for (key, span, value) in config.entries() {
                match scalar_to_string(value) {
                    Some(v) => {
                        p.config.insert(key.to_owned(), v);
                    }
                    None => r.problem(span, &config.key(key), "expected a string, number or boolean"),
                }
            }
        }
        if let Some(secrets) = s.table(r, "secrets") {
            let names: Vec<(String, usize)> =
                secrets.entries().map(|(k, span, _)| (k.to_owned(), span)).collect();
            for (key, span) in names {
                let Some(t) = secrets.table(r, &key) else { continue };
                t.deny_unknown(r, &["env", "file"]);
                let source = SecretSource { env: t.string(r, "env"), file: t.string(r, "file") };
                if source.env.is_none() && source.file.is_none() {
                    r.problem(span, &secrets.key(&key), "a secret needs `env`, `file` or both");
                }
                p.secrets.insert(key, source);
            }
        }
        if let Some(l) = s.table(r, "limits") {
            l.deny_unknown(r, LIMIT_KEYS);
            p.timeout_ms = l.integer(r, "timeout_ms", 1, 3_600_000).map(|v| v as u64);
            p.memory_mb = l.integer(r, "memory_mb", 1, 4096).map(|v| v as u64);
            p.http_timeout_ms = l.integer(r, "http_timeout_ms", 1, 3_600_000).map(|v| v as u64);
            p.max_response_kb = l.integer(r, "max_response_kb", 1, 1 << 20).map(|v| v as u64);
        }
        if let Some(g) = s.table(r, "grants") {
            g.deny_unknown(r, GRANT_KEYS);
            p.grant_env = g.strings(r, "env");
            p.grant_read_dir = g.string(r, "read_dir").map(|d| {
                let path = expand_home(&d, env);
                let path = if path.is_relative() { base_dir.join(path) } else { path };
                path.display().to_string()
            });
            if let Some(names) = &p.grant_env {
                for name in names.iter().filter(|n| env.get(n).is_none()) {
                    r.problem(
                        g.span_of("env"),
                        &g.key("env"),
                        format!("the granted variable {name} is not set"),
                    );
                }
            }
        }
        out.push(p);
    }
    out
}

/// Applies the file's plugin tables over the defaults: a table with a `component` replaces the default
/// of the same id, one without amends it, and one with a new id adds a plugin.
pub fn merge(
    defaults: Vec<PluginSpec>,
    file: Vec<FilePlugin>,
    env: &Env,
    problems: &mut Vec<String>,
) -> Vec<PluginSpec> {
    let mut specs = defaults;
    for p in file {
        let existing = specs.iter().position(|s| s.id == p.id);
        if p.enabled == Some(false) {
            match existing {
                Some(i) => {
                    specs.remove(i);
                }
                None => problems.push(format!(
                    "{}: `enabled = false` for {:?}, which is not a bundled plugin",
                    p.location, p.id
                )),
            }
            continue;
        }
        let mut spec = match (existing, &p.component) {
            (Some(i), None) => specs.remove(i),
            (existing, Some(component)) => {
                let kind = p.kind.or_else(|| existing.map(|i| specs[i].kind));
                if let Some(i) = existing {
                    specs.remove(i);
                }
                let Some(kind) = kind else {
                    problems.push(format!(
                        "{}: plugin {:?} needs a `kind` (provider, chat-model or metric)",
                        p.location, p.id
                    ));
                    continue;
                };
                PluginSpec::new(&p.id, kind, component.clone())
            }
            (None, None) => {
                problems.push(format!(
                    "{}: plugin {:?} needs a `component` (builtin:NAME or a path to a .wasm file)",
                    p.location, p.id
                ));
                continue;
            }
        };
        if let Some(kind) = p.kind
            && kind != spec.kind
        {
            problems.push(format!(
                "{}: plugin {:?} is a {}, its kind cannot be changed to {kind}",
                p.location, p.id, spec.kind
            ));
        }
        if let Some(hosts) = p.allowed_hosts {
            spec.allowed_hosts = hosts;
            spec.allowed_hosts_from = None;
        }
        spec.settings.extend(p.config);
        for (key, source) in p.secrets {
            spec.settings.remove(&key);
            if let Some(value) = resolve_secret(&source, env) {
                spec.settings.insert(key.clone(), value);
            }
            spec.secrets.insert(key, source);
        }
        let l = &mut spec.limits;
        if let Some(v) = p.timeout_ms {
            l.timeout = Duration::from_millis(v);
        }
        if let Some(v) = p.memory_mb {
            l.memory_bytes = v * 1024 * 1024;
        }
        if let Some(v) = p.http_timeout_ms {
            l.http_timeout = Duration::from_millis(v);
        }
        if let Some(v) = p.max_response_kb {
            l.max_response_bytes = v * 1024;
        }
        if let Some(names) = p.grant_env {
            spec.grants.env =
                names.into_iter().filter_map(|n| env.get(&n).map(|v| (n.clone(), v.to_owned()))).collect();
        }
        if let Some(dir) = p.grant_read_dir {
            if !Path::new(&dir).is_dir() {
                problems.push(format!("{}: grants.read_dir {dir:?} is not a directory", p.location));
            }
            spec.grants.read_dir = Some(dir.into());
        }
        specs.push(spec);
    }
    specs.sort_by(|a, b| a.id.cmp(&b.id));
    specs
}

/// `PARLANCE_PLUGIN_<ID>_<KEY>=value` sets the setting `<key>` of plugin `<id>` (upper-cased, `-` as
/// `_`), so that containers can be configured without a file. Then the allow-lists that follow a
/// URL setting are derived.
pub fn apply_env_overrides(specs: &mut [PluginSpec], env: &Env, problems: &mut Vec<String>) {
    const PREFIX: &str = "PARLANCE_PLUGIN_";
    for (name, value) in env.iter() {
        let Some(rest) = name.strip_prefix(PREFIX) else { continue };
        let normal = |id: &str| id.to_ascii_uppercase().replace('-', "_");
        // The longest id wins, so `openai_chat` is not mistaken for `openai` with key `chat_…`.
        let target = specs
            .iter_mut()
            .filter(|s| rest.starts_with(&format!("{}_", normal(&s.id))))
            .max_by_key(|s| s.id.len());
        match target {
            Some(spec) => {
                let key = rest[spec.id.len() + 1..].to_ascii_lowercase();
                if key.is_empty() {
                    problems
                        .push(format!("environment variable {name}: no setting name after the plugin id"));
                } else {
                    spec.settings.insert(key, value.to_owned());
                }
            }
            None => problems.push(format!("environment variable {name}: names no configured plugin")),
        }
    }
    for spec in specs.iter_mut() {
        let Some(key) = &spec.allowed_hosts_from else { continue };
        match spec.settings.get(key).map(|url| HostPattern::origin_of(url)) {
            Some(Ok(origin)) => spec.allowed_hosts.push(origin),
            Some(Err(e)) => problems.push(format!("plugin {:?}: setting `{key}`: {e}", spec.id)),
            None => {}
        }
    }
}

/// A secret's value: the environment variable if set, else the first line of the key file, else none.
pub fn resolve_secret(source: &SecretSource, env: &Env) -> Option<String> {
    if let Some(value) = source.env.as_deref().and_then(|name| env.get(name)) {
        return Some(value.trim().to_owned());
    }
    let path = expand_home(source.file.as_deref()?, env);
    let text = std::fs::read_to_string(path).ok()?;
    text.lines().map(str::trim).find(|l| !l.is_empty()).map(str::to_owned)
}
