//! The `[[plugin]]` tables: binding plugin ids to components, with their allow-lists, settings,
//! secrets, limits and grants, merged over the bundled defaults; and the `PARLANCE_PLUGIN_<ID>_<KEY>`
//! variables.

use super::api::PluginKind;
use super::price::{self, Price, Prices};
use super::spec::{ComponentSource, Grants, HistoryWindow, HostPattern, Limits, PluginSpec};
use crate::config::file::scalar_to_string;
use crate::config::setting;
use crate::config::{
    Env, FromValue, Kind, Reader, SecretSource, Section, Setting, Table, ToValue, Value, expand_home,
    read_table,
};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// One `[[plugin]]` table as written: everything but `id` is optional, because a table whose id
/// names a bundled default amends it.
#[derive(Debug, Default)]
pub struct PluginTable {
    id: Option<String>,
    kind: Option<PluginKind>,
    component: Option<String>,
    enabled: Option<bool>,
    allowed_hosts: Option<Vec<String>>,
    rate_limit_per_minute: Option<u32>,
    history_entries: Option<usize>,
    history_chars: Option<usize>,
    fallbacks: Option<Vec<String>>,
    config: BTreeMap<String, String>,
    secrets: BTreeMap<String, SecretSource>,
    limits: LimitsTable,
    grants: GrantsTable,
    /// `[plugin.prices.MODEL]`: what the upstream charges per model; replaces a default's whole.
    prices: Option<Prices>,
    /// `file:line` of the table, for messages that can only be given after merging.
    location: String,
    /// The folder of the file, which relative paths are relative to.
    base_dir: PathBuf,
}

impl Section for PluginTable {
    const NAME: &'static str = "plugin";
    const ABOUT: &'static str = "A plugin id bound to a component";
    const TABLES: &'static [&'static str] = &["config", "secrets", "limits", "grants", "prices"];

    fn settings() -> &'static [Setting<Self>] {
        static SETTINGS: &[Setting<PluginTable>] = &[
            setting!(
                "id",
                Kind::Name,
                |c| c.id,
                "The name clients send as `provider` (letters, digits, - and _)"
            ),
            setting!(
                "kind",
                Kind::Choice(&["provider", "chat-model", "metric"]),
                |c| c.kind,
                "The world the component implements"
            ),
            setting!(
                "component",
                Kind::Text,
                |c| c.component,
                "`builtin:NAME`, a path to a .wasm component, or `oci://REGISTRY/REPOSITORY[:TAG][@sha256:DIGEST]`"
            ),
            setting!("enabled", Kind::Bool, |c| c.enabled, "`false` removes a bundled plugin"),
            setting!(
                "allowed_hosts",
                Kind::List,
                |c| c.allowed_hosts,
                "Origins its outbound HTTP may reach: scheme://host[:port], host may be *.domain, port may be *"
            ),
            setting!(
                "rate_limit_per_minute",
                Kind::Int { min: 0, max: 1_000_000 },
                |c| c.rate_limit_per_minute,
                "A provider's calls per client per minute, or a chat model's on /v1/chat/completions (0: no limit); \
                 unset, RATE_LIMIT_REQUESTS_PER_MINUTE applies to a plugin with allowed hosts and no limit to one without"
            ),
            setting!(
                "history_entries",
                Kind::Int { min: 1, max: 100_000_000 },
                |c| c.history_entries,
                "A chat model's history window: it is given only the newest this many entries of a dialog \
                 (bundled `openai-chat`: its `max_history`; unset for another chat model, the whole dialog)"
            ),
            setting!(
                "history_chars",
                Kind::Int { min: 1, max: 1_000_000_000 },
                |c| c.history_chars,
                "A chat model's history window: it is given the fewest newest entries whose names and \
                 messages hold this many characters (bundled `form`: its `prompt_max_chars`)"
            ),
            setting!(
                "fallbacks",
                Kind::List,
                |c| c.fallbacks,
                "A provider's or chat model's chain: the ids, of its kind, that serve a request in this order when it \
                 fails with an error that moves on (see \"Fallback chains\"); their own chains are not followed"
            ),
        ];
        SETTINGS
    }

    fn read_tables(&mut self, table: &Table<'_, '_>, reader: &mut Reader<'_>) {
        if let Some(config) = table.table(reader, "config") {
            for (key, span, value) in config.entries() {
                match scalar_to_string(value) {
                    Some(v) => {
                        self.config.insert(key.to_owned(), v);
                    }
                    None => reader.problem(span, &config.key(key), "expected a string, number or boolean"),
                }
            }
        }
        if let Some(secrets) = table.table(reader, "secrets") {
            let names: Vec<String> = secrets.entries().map(|(k, _, _)| k.to_owned()).collect();
            for key in names {
                let Some(t) = secrets.table(reader, &key) else { continue };
                self.secrets.insert(key, read_table(&t, reader, None));
            }
        }
        if let Some(limits) = table.table(reader, "limits") {
            self.limits = read_table(&limits, reader, None);
        }
        if let Some(grants) = table.table(reader, "grants") {
            self.grants = read_table(&grants, reader, None);
        }
        if let Some(prices) = table.table(reader, "prices") {
            self.prices = Some(read_prices(&prices, reader));
        }
    }
}

/// `[plugin.prices.MODEL]` tables: `input` and `output` per million tokens, `request` per call, each a
/// decimal amount (a string or a number) in the deployment's currency.
fn read_prices(prices: &Table<'_, '_>, reader: &mut Reader<'_>) -> Prices {
    let models: Vec<String> = prices.entries().map(|(k, _, _)| k.to_owned()).collect();
    let mut out = Prices::default();
    for model in models {
        let Some(table) = prices.table(reader, &model) else { continue };
        let mut price = Price::default();
        for (key, span, value) in table.entries() {
            let amount =
                scalar_to_string(value).filter(|_| !value.is_bool()).ok_or("expected a decimal amount");
            let set = match key {
                "input" => amount.map_err(String::from).and_then(|v| price::per_million(&v)).map(|p| price.input_per_token = p),
                "output" => amount.map_err(String::from).and_then(|v| price::per_million(&v)).map(|p| price.output_per_token = p),
                "request" => amount.map_err(String::from).and_then(|v| price::per_request(&v)).map(|p| price.per_request = p),
                _ => Err("unknown key: a price has `input` and `output` (per million tokens) and `request` (per call)".into()),
            };
            if let Err(problem) = set {
                reader.problem(span, &table.key(key), problem);
            }
        }
        out.0.insert(model, price);
    }
    out
}

/// A `[[plugin]]`'s `limits`.
#[derive(Debug, Default)]
struct LimitsTable {
    timeout_ms: Option<u64>,
    memory_mb: Option<u64>,
    http_timeout_ms: Option<u64>,
    max_response_kb: Option<u64>,
    max_instances: Option<u32>,
}

impl Section for LimitsTable {
    const NAME: &'static str = "limits";
    const ABOUT: &'static str = "Resource limits of one plugin call";

    fn settings() -> &'static [Setting<Self>] {
        static SETTINGS: &[Setting<LimitsTable>] = &[
            setting!(
                "timeout_ms",
                Kind::Int { min: 1, max: 3_600_000 },
                |c| c.timeout_ms,
                "Wall-clock limit of one call, instantiation included"
            ),
            setting!(
                "memory_mb",
                Kind::Int { min: 1, max: 4096 },
                |c| c.memory_mb,
                "Cap on the linear memory of one instance"
            ),
            setting!(
                "http_timeout_ms",
                Kind::Int { min: 1, max: 3_600_000 },
                |c| c.http_timeout_ms,
                "Limit on connecting, on the first byte and on each gap between body chunks"
            ),
            setting!(
                "max_response_kb",
                Kind::Int { min: 1, max: 1 << 20 },
                |c| c.max_response_kb,
                "Cap on the size of one upstream response body"
            ),
            setting!(
                "max_instances",
                Kind::Int { min: 1, max: 10_000 },
                |c| c.max_instances,
                "Instances of this plugin alive at once (default: half of [runtime] max_instances)"
            ),
        ];
        SETTINGS
    }
}

/// A `[[plugin]]`'s `grants`.
#[derive(Debug, Default)]
struct GrantsTable {
    env: Option<Vec<String>>,
    read_dir: Option<String>,
}

impl Section for GrantsTable {
    const NAME: &'static str = "grants";
    const ABOUT: &'static str = "Capabilities beyond the default sandbox";

    fn settings() -> &'static [Setting<Self>] {
        static SETTINGS: &[Setting<GrantsTable>] = &[
            setting!("env", Kind::List, |c| c.env, "Environment variables the plugin sees"),
            setting!("read_dir", Kind::FilePath, |c| c.read_dir, "A folder the plugin may read, at /data"),
        ];
        SETTINGS
    }
}

impl ToValue for PluginKind {
    fn to_value(&self) -> Value {
        Value::Text(self.to_string())
    }
}

impl FromValue for PluginKind {
    fn from_value(value: Value) -> Result<Self, String> {
        String::from_value(value)?.parse()
    }
}

/// Reads every `[[plugin]]` table of the file.
pub fn read(root: &Table<'_, '_>, r: &mut Reader<'_>, env: &Env) -> Vec<PluginTable> {
    let base_dir = r.file.parent().map(Path::to_path_buf).unwrap_or_default();
    let mut out: Vec<PluginTable> = Vec::new();
    for table in root.tables(r, "plugin") {
        let mut p: PluginTable = read_table(&table, r, env.home());
        p.location = r.locate(table.span);
        p.base_dir = base_dir.clone();
        let Some(id) = &p.id else {
            r.problem(table.span, &table.path, "every [[plugin]] needs an `id`");
            continue;
        };
        if !id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') {
            r.problem(
                table.span_of("id"),
                &table.key("id"),
                format!("{id:?} is not a valid plugin id (letters, digits, - and _)"),
            );
        }
        if out.iter().any(|other| other.id == p.id) {
            r.problem(
                table.span_of("id"),
                &table.key("id"),
                format!("the plugin id {id:?} is defined twice"),
            );
        }
        for host in p.allowed_hosts.iter().flatten() {
            if let Err(e) = HostPattern::parse(host) {
                r.problem(table.span_of("allowed_hosts"), &table.key("allowed_hosts"), e);
            }
        }
        out.push(p);
    }
    out
}

impl PluginTable {
    fn component(&self, env: &Env) -> Option<Result<ComponentSource, String>> {
        let component = self.component.as_deref()?;
        if component.starts_with("oci://") {
            return Some(crate::oci::Reference::parse(component).map(ComponentSource::Oci));
        }
        Some(Ok(match component.strip_prefix("builtin:") {
            Some(name) => ComponentSource::Builtin(name.to_owned()),
            None => {
                let path = expand_home(component, env.home());
                ComponentSource::File(if path.is_relative() { self.base_dir.join(path) } else { path })
            }
        }))
    }
}

/// Applies the file's plugin tables over the defaults: a table with a `component` replaces the default
/// of the same id, one without amends it, and one with a new id adds a plugin.
pub fn merge(
    defaults: Vec<PluginSpec>,
    file: Vec<PluginTable>,
    env: &Env,
    problems: &mut Vec<String>,
) -> Vec<PluginSpec> {
    let mut specs = defaults;
    for mut p in file {
        let Some(mut spec) = resolve(&mut specs, &p, env, problems) else { continue };
        p.amend(&mut spec, env, problems);
        p.limits.apply(&mut spec.limits);
        p.grants.apply(&mut spec.grants, env, &p.location, problems);
        specs.push(spec);
    }
    specs.sort_by(|a, b| a.id.cmp(&b.id));
    specs
}

/// The spec a table starts from, taken out of `specs`: the default of its id, or a new one when it
/// names a component. `None` when the table disables a default (which is then gone) or cannot
/// stand (each problem said).
fn resolve(
    specs: &mut Vec<PluginSpec>,
    p: &PluginTable,
    env: &Env,
    problems: &mut Vec<String>,
) -> Option<PluginSpec> {
    let id = p.id.as_deref()?;
    let existing = specs.iter().position(|s| s.id == id);
    if p.enabled == Some(false) {
        match existing {
            Some(i) => {
                specs.remove(i);
            }
            None => problems
                .push(format!("{}: `enabled = false` for {id:?}, which is not a bundled plugin", p.location)),
        }
        return None;
    }
    let component = match p.component(env).transpose() {
        Ok(component) => component,
        Err(e) => {
            problems.push(format!("{}: plugin {id:?}: component: {e}", p.location));
            return None;
        }
    };
    let mut spec = match (existing, component) {
        (Some(i), None) => specs.remove(i),
        (existing, Some(component)) => {
            let kind = p.kind.or_else(|| existing.map(|i| specs[i].kind));
            if let Some(i) = existing {
                specs.remove(i);
            }
            let Some(kind) = kind else {
                problems.push(format!(
                    "{}: plugin {id:?} needs a `kind` (provider, chat-model or metric)",
                    p.location
                ));
                return None;
            };
            PluginSpec::new(id, kind, component)
        }
        (None, None) => {
            problems.push(format!(
                "{}: plugin {id:?} needs a `component` (builtin:NAME, a path to a .wasm file, or oci://REGISTRY/REPOSITORY:TAG)",
                p.location
            ));
            return None;
        }
    };
    spec.declared_at = Some(p.location.clone());
    if let Some(kind) = p.kind
        && kind != spec.kind
    {
        problems.push(format!(
            "{}: plugin {id:?} is a {}, its kind cannot be changed to {kind}",
            p.location, spec.kind
        ));
    }
    Some(spec)
}

impl PluginTable {
    /// The table's allow-list, rate limit, history window, settings and secrets, over the spec's.
    fn amend(&mut self, spec: &mut PluginSpec, env: &Env, problems: &mut Vec<String>) {
        let (id, location) = (&spec.id, &self.location);
        if let Some(prices) = self.prices.take() {
            spec.prices = prices;
        }
        if let Some(hosts) = &self.allowed_hosts {
            spec.allowed_hosts = hosts.iter().filter_map(|h| HostPattern::parse(h).ok()).collect();
            spec.allowed_hosts_from = None;
        }
        if let Some(per_minute) = self.rate_limit_per_minute {
            // A chat model's limit holds on the OpenAI surface, where a client calls it directly.
            if spec.kind == PluginKind::Metric {
                problems.push(format!(
                    "{location}: plugin {id:?} is a {}; `rate_limit_per_minute` applies to providers and chat \
                     models only",
                    spec.kind
                ));
            }
            spec.rate_limit_per_minute = Some(per_minute);
        }
        let window = match (self.history_entries, self.history_chars) {
            (Some(_), Some(_)) => {
                problems.push(format!(
                    "{location}: plugin {id:?} sets both `history_entries` and `history_chars`; a history \
                     window is one or the other"
                ));
                None
            }
            (Some(n), None) => Some(HistoryWindow::Entries(n)),
            (None, Some(n)) => Some(HistoryWindow::Chars(n)),
            (None, None) => None,
        };
        if let Some(window) = window {
            if spec.kind != PluginKind::ChatModel {
                problems.push(format!(
                    "{location}: plugin {id:?} is a {}; a history window applies to chat models only",
                    spec.kind
                ));
            }
            spec.history = Some(window);
        }
        if let Some(fallbacks) = self.fallbacks.take() {
            if spec.kind == PluginKind::Metric {
                problems.push(format!(
                    "{location}: plugin {id:?} is a metric; `fallbacks` applies to providers and chat models only"
                ));
            }
            spec.fallbacks = fallbacks;
        }
        spec.settings.extend(std::mem::take(&mut self.config));
        for (key, source) in std::mem::take(&mut self.secrets) {
            // A secret the operator declares is one they mean to have, wherever the URL points.
            if let Some(hosted) = &mut spec.hosted {
                hosted.secrets.retain(|s| *s != key);
            }
            spec.settings.remove(&key);
            if let Some(value) = source.resolve(env) {
                spec.settings.insert(key.clone(), value);
            }
            spec.secrets.insert(key, source);
        }
    }
}

impl LimitsTable {
    /// The limits the table sets, over the spec's.
    fn apply(&self, l: &mut Limits) {
        if let Some(v) = self.timeout_ms {
            l.timeout = Duration::from_millis(v);
        }
        if let Some(v) = self.memory_mb {
            l.memory_bytes = v * 1024 * 1024;
        }
        if let Some(v) = self.http_timeout_ms {
            l.http_timeout = Duration::from_millis(v);
        }
        if let Some(v) = self.max_response_kb {
            l.max_response_bytes = v * 1024;
        }
        if let Some(v) = self.max_instances {
            l.max_instances = Some(v);
        }
    }
}

impl GrantsTable {
    /// The grants the table makes, over the spec's: the granted variables' values (a variable that
    /// is not set is a problem), and the folder to read.
    fn apply(&self, grants: &mut Grants, env: &Env, location: &str, problems: &mut Vec<String>) {
        if let Some(names) = &self.env {
            for name in names.iter().filter(|n| env.get(n).is_none()) {
                problems.push(format!("{location}: grants.env: the granted variable {name} is not set"));
            }
            grants.env = names.iter().filter_map(|n| env.get(n).map(|v| (n.clone(), v.to_owned()))).collect();
        }
        if let Some(dir) = &self.read_dir {
            if !Path::new(dir).is_dir() {
                problems.push(format!("{location}: grants.read_dir {dir:?} is not a directory"));
            }
            grants.read_dir = Some(dir.into());
        }
    }
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
                    problems.push(env.problem(name, "no setting name after the plugin id"));
                } else {
                    spec.settings.insert(key, value.to_owned());
                }
            }
            None => problems.push(env.problem(name, "names no configured plugin")),
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
