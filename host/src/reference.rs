//! The manual's reference pages (`docs/src/reference/`), generated from the code that they describe:
//! the settings registry, the error codes, the `/metrics` families, the command line (clap), the WIT
//! contract version by version, and the REST API from the OpenAPI document that `/docs` serves. The
//! test below fails when a committed page differs from what the code generates, and writes the pages
//! with `PARLANCE_BLESS=1`. It sits at the top, beside `reload.rs`, since it reads every layer.

use crate::config::{Env, Row};
use crate::error::Error;
use crate::plugins::api::{CallError, CallFailure, PluginError, PluginErrorKind};
use crate::rest::error::{CODES, status_and_code};
use crate::{Config, Parlance};
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

const GENERATED: &str = "<!-- Generated from the code by `PARLANCE_BLESS=1 cargo test -p parlance --lib reference`; do not edit. -->\n\n";

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A table cell: the pipes of a markdown table escaped, line breaks folded.
fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

/// Every setting, by section: its key, variable, value, default, whether a reload applies it, and what
/// it does.
pub fn settings_page() -> String {
    let rows = Config::documentation();
    let restart_only: Vec<&str> = crate::reload::RESTART_ONLY.iter().map(|(key, ..)| *key).collect();
    let section_of = |row: &Row| -> String {
        if row.key.starts_with("[[plugin]]") || row.key.starts_with("plugin") {
            "plugin".into()
        } else {
            row.key.split('.').next().unwrap_or_default().to_owned()
        }
    };
    for key in &restart_only {
        assert!(
            rows.iter().any(|r| r.key == *key || section_of(r) == *key),
            "reload::RESTART_ONLY names `{key}`, which is no setting or section"
        );
    }
    let mut out = String::from("# Settings\n\n");
    out.push_str(GENERATED);
    out.push_str(
        "Every setting, read from the settings registry of the code. A setting is set in `parlance.toml` \
         (its section and key), or by its environment variable, which wins over the file; `.env` in the \
         working directory is read as if its lines were variables. **Reload** says whether \
         `parlance reload` or `SIGHUP` applies a change to a running server, or only a restart does; a \
         reload that changes a restart-only setting is refused and names it. See \
         [Configuration](../operating/configuration.md) for how the layers combine.\n",
    );
    let mut current = String::new();
    for row in &rows {
        let section = section_of(row);
        if section != current {
            let title = if section == "plugin" {
                "Plugins (`[[plugin]]`)".to_owned()
            } else {
                format!("`[{section}]`")
            };
            write!(out, "\n## {title}\n\n| Setting | Variable | Value | Default | Reload | Meaning |\n|---|---|---|---|---|---|\n").unwrap();
            current = section.clone();
        }
        let reload =
            if restart_only.iter().any(|k| *k == row.key || *k == section) { "restart" } else { "reload" };
        let env = row.env.as_ref().map_or_else(String::new, |e| format!("`{e}`"));
        writeln!(
            out,
            "| `{}` | {env} | {} | {} | {reload} | {} |",
            cell(&row.key),
            cell(&row.expected),
            cell(&row.default),
            cell(&row.doc)
        )
        .unwrap();
    }
    out
}

/// One error of each kind a plugin call can fail with, and the other variants a chain meets, so that
/// the page says from `fallback::moves_on` itself which ones move a chain on.
fn chain_samples() -> Vec<Error> {
    let call = |failure| Error::Plugin(CallError::new("p", failure));
    let reported = |kind| call(CallFailure::Reported(PluginError::new(kind, "x")));
    vec![
        reported(PluginErrorKind::InvalidInput),
        reported(PluginErrorKind::Misconfigured),
        reported(PluginErrorKind::Unauthorized),
        reported(PluginErrorKind::RateLimited { retry_after_secs: None }),
        reported(PluginErrorKind::Timeout),
        reported(PluginErrorKind::Unavailable),
        reported(PluginErrorKind::BadResponse),
        reported(PluginErrorKind::Internal),
        call(CallFailure::Deadline(std::time::Duration::from_secs(1))),
        call(CallFailure::MemoryLimit { limit_bytes: 1 }),
        call(CallFailure::Trap("x".into())),
        call(CallFailure::InvalidOutput("x".into())),
        call(CallFailure::NotStarted("x".into())),
        call(CallFailure::Busy { what: "x", waited_ms: 1 }),
        call(CallFailure::ClientBusy { share: 1, waited_ms: 1 }),
        call(CallFailure::MemoryBudget { budget_bytes: 1 }),
        call(CallFailure::StreamsFull { share: 1, client: true }),
        call(CallFailure::StreamsFull { share: 1, client: false }),
        call(CallFailure::OverBudget("x".into())),
        Error::PluginUnavailable { kind: "provider", id: "p".into(), reason: "x".into() },
        Error::InvalidInput { field: "text", message: "x".into() },
        Error::UnknownPlugin { kind: "provider", id: "p".into(), known: vec![] },
        Error::NotFound("x".into()),
        Error::Conflict("x".into()),
        Error::Forbidden("x".into()),
        Error::ShuttingDown,
    ]
}

/// Every error code: its statuses, what it means, and whether a fallback chain moves on to its next
/// member after it.
pub fn errors_page() -> String {
    let samples = chain_samples();
    let mut out = String::from("# Error codes\n\n");
    out.push_str(GENERATED);
    out.push_str(
        "Every error is answered with a 4xx or 5xx status and the body `{\"error\": {\"code\", \"message\"}}`; \
         under `/v1/chat/` and `/v1/models` the OpenAI-compatible surface answers OpenAI's shape, \
         `{\"error\": {\"message\", \"type\", \"param\", \"code\"}}`, with the same codes. With `API_DEBUG=true`, \
         a 5xx body also carries `cause`, the chain of causes. **Chain moves on** says whether a \
         [fallback chain](../operating/fallbacks.md) tries its next member after a member failed so \
         (`fallback::moves_on`); a code that never comes from a chain member says no.\n\n\
         | Code | Status | Chain moves on | Meaning |\n|---|---|---|---|\n",
    );
    for doc in CODES {
        let from_chain: Vec<&Error> = samples.iter().filter(|e| status_and_code(e).1 == doc.code).collect();
        let moves_on = match from_chain.as_slice() {
            [] => "no",
            all if all.iter().all(|e| crate::fallback::outcome::moves_on(e)) => "yes",
            all if all.iter().any(|e| crate::fallback::outcome::moves_on(e)) => "sometimes",
            _ => "no",
        };
        let statuses: Vec<String> = doc.statuses.iter().map(u16::to_string).collect();
        writeln!(out, "| `{}` | {} | {moves_on} | {} |", doc.code, statuses.join(", "), cell(doc.meaning))
            .unwrap();
    }
    out
}

/// The families of `/metrics` as a fresh server exposes them: name, type, help and label names, read
/// from the exposition itself.
pub fn metrics_page(exposition: &str) -> String {
    struct Family {
        name: String,
        kind: String,
        help: String,
        labels: BTreeSet<String>,
    }
    let mut families: Vec<Family> = Vec::new();
    for line in exposition.lines() {
        if let Some(rest) = line.strip_prefix("# HELP ") {
            let (name, help) = rest.split_once(' ').unwrap_or((rest, ""));
            families.push(Family {
                name: name.into(),
                kind: String::new(),
                help: help.into(),
                labels: BTreeSet::new(),
            });
        } else if let Some(rest) = line.strip_prefix("# TYPE ") {
            if let (Some(family), Some((_, kind))) = (families.last_mut(), rest.split_once(' ')) {
                family.kind = kind.into();
            }
        } else if !line.starts_with('#')
            && let (Some(family), Some(open)) = (families.last_mut(), line.find('{'))
        {
            let close = line.rfind('}').unwrap_or(line.len());
            for pair in line[open + 1..close].split("\",") {
                if let Some((label, _)) = pair.split_once('=')
                    && label != "le"
                    && label != "quantile"
                {
                    family.labels.insert(label.trim().to_owned());
                }
            }
        }
    }
    let mut out = String::from("# Metrics\n\n");
    out.push_str(GENERATED);
    out.push_str(
        "The families of `GET /metrics`, as a server with the bundled plugins exposes them at start. Every \
         label set known at start is exposed with its zero, so a family never appears only after its \
         first event. The endpoint answers OpenMetrics 1.0.0 when the scraper asks for it \
         (`Accept: application/openmetrics-text`) and the Prometheus text format 0.0.4 otherwise; in both, the \
         samples of a counter are named with `_total`. No label ever holds a client or a key.\n\n\
         | Family | Type | Labels | Meaning |\n|---|---|---|---|\n",
    );
    for f in &families {
        let labels: Vec<String> = f.labels.iter().map(|l| format!("`{l}`")).collect();
        writeln!(out, "| `{}` | {} | {} | {} |", f.name, f.kind, labels.join(", "), cell(&f.help)).unwrap();
    }
    out
}

/// Every command, subcommand and flag of the binary, from its clap definition.
pub fn cli_page() -> String {
    use clap::CommandFactory;
    let mut out = String::from("# Command line\n\n");
    out.push_str(GENERATED);
    out.push_str(
        "Every command and flag of `parlance`, read from its clap definition. The seed's flags are \
         spelled with underscores (`--decode_input`); the kebab-case spelling is an alias. See \
         [The command line](../guide/cli.md) for what each mode does.\n",
    );
    let mut command = crate::cli::Cli::command();
    command.build();
    describe_command(&mut out, &command, "parlance", 2);
    out
}

fn describe_command(out: &mut String, command: &clap::Command, path: &str, depth: usize) {
    let hashes = "#".repeat(depth.min(6));
    writeln!(out, "\n{hashes} `{path}`\n").unwrap();
    if let Some(about) = command.get_long_about().or(command.get_about()) {
        writeln!(out, "{}\n", about.to_string().trim()).unwrap();
    }
    let usage = command.clone().render_usage().to_string();
    writeln!(out, "```text\n{}\n```\n", usage.trim()).unwrap();
    let args: Vec<&clap::Arg> = command
        .get_arguments()
        .filter(|a| !a.is_hide_set() && a.get_id() != "help" && a.get_id() != "version")
        .collect();
    if !args.is_empty() {
        out.push_str("| Argument | Value | Default | Meaning |\n|---|---|---|---|\n");
        for arg in args {
            let mut names = Vec::new();
            if let Some(long) = arg.get_long() {
                names.push(format!("`--{long}`"));
            }
            for alias in arg.get_visible_aliases().unwrap_or_default() {
                names.push(format!("`--{alias}`"));
            }
            if let Some(short) = arg.get_short() {
                names.push(format!("`-{short}`"));
            }
            if names.is_empty() {
                names.push(format!(
                    "`{}`",
                    arg.get_value_names()
                        .and_then(|v| v.first())
                        .map_or_else(|| arg.get_id().to_string(), ToString::to_string)
                ));
            }
            let takes_value = arg.get_num_args().is_some_and(|n| n.takes_values());
            let possible: Vec<String> =
                arg.get_possible_values().iter().map(|v| format!("`{}`", v.get_name())).collect();
            let value = if !possible.is_empty() {
                possible.join(", ")
            } else if takes_value {
                arg.get_value_names().map_or_else(String::new, |v| {
                    v.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(" ")
                })
            } else {
                "flag".into()
            };
            let defaults: Vec<String> =
                arg.get_default_values().iter().map(|v| format!("`{}`", v.to_string_lossy())).collect();
            let mut meaning =
                arg.get_long_help().or(arg.get_help()).map(ToString::to_string).unwrap_or_default();
            if arg.is_required_set() {
                meaning = format!("Required. {meaning}");
            }
            if matches!(arg.get_action(), clap::ArgAction::Append) {
                meaning.push_str(" (repeatable)");
            }
            writeln!(
                out,
                "| {} | {} | {} | {} |",
                names.join(", "),
                value,
                defaults.join(", "),
                cell(&meaning)
            )
            .unwrap();
        }
    }
    for sub in command.get_subcommands().filter(|s| !s.is_hide_set() && s.get_name() != "help") {
        describe_command(out, sub, &format!("{path} {}", sub.get_name()), depth + 1);
    }
}

/// A WIT document's declarations, each as a path (`interface types / record request / field text`),
/// enough to say what a version added to the one before.
fn wit_items(text: &str) -> Vec<String> {
    let mut items = Vec::new();
    let mut stack: Vec<String> = Vec::new();
    // Inside a function's parameters, which may span lines, nothing is a declaration of its own.
    let mut parens = 0usize;
    for raw in text.lines() {
        let line = raw.split("//").next().unwrap_or_default().trim();
        if line.is_empty() {
            continue;
        }
        let in_signature = parens > 0;
        parens = (parens + line.matches('(').count()).saturating_sub(line.matches(')').count());
        let head = line.split('{').next().unwrap_or_default().trim_end_matches([';', ',']).trim();
        let words: Vec<&str> = head.split_whitespace().collect();
        let item = match words.as_slice() {
            _ if in_signature => None,
            ["package", ..] => None,
            [
                kind @ ("interface" | "world" | "record" | "variant" | "enum" | "flags" | "resource"),
                name,
                ..,
            ] => Some(format!("{kind} {name}")),
            ["type", name, ..] => Some(format!("type {name}")),
            ["use", ..] => Some(line.trim_end_matches(';').to_owned()),
            [kind @ ("import" | "export" | "include"), rest @ ..] => {
                Some(format!("{kind} {}", rest.join(" ")))
            }
            [first, ..] if first.ends_with(':') && head.contains("func(") => {
                Some(format!("func {}", first.trim_end_matches(':')))
            }
            [first, ..] if first.ends_with(':') || stack.len() >= 2 => {
                let name = first.trim_end_matches(':');
                let name = name.split('(').next().unwrap_or(name);
                let label =
                    if stack.last().is_some_and(|s| s.starts_with("record ")) { "field" } else { "case" };
                (!name.starts_with(['}', ')']) && !name.is_empty()).then(|| format!("{label} {name}"))
            }
            _ => None,
        };
        if let Some(item) = &item {
            let path: Vec<&str> = stack.iter().map(String::as_str).chain([item.as_str()]).collect();
            items.push(path.join(" / "));
        }
        for n in 0..line.matches('{').count() {
            stack.push(if n == 0 { item.clone().unwrap_or_default() } else { String::new() });
        }
        for _ in 0..line.matches('}').count() {
            stack.pop();
        }
    }
    items
}

fn wit_version(text: &str) -> String {
    text.lines()
        .find_map(|l| l.trim().strip_prefix("package parlance:plugin@"))
        .map(|v| v.trim_end_matches(';').to_owned())
        .expect("a plugin.wit names its package")
}

/// The plugin contract, version by version: what each added, read from the frozen texts under
/// `wit/versions/` and `wit/plugin.wit`, then the current text whole.
pub fn wit_page() -> String {
    let root = repo().join("wit");
    let mut files: Vec<PathBuf> = std::fs::read_dir(root.join("versions"))
        .expect("wit/versions")
        .map(|e| e.unwrap().path().join("plugin.wit"))
        .filter(|p| p.exists())
        .collect();
    files.sort();
    files.push(root.join("plugin.wit"));
    let mut out = String::from("# The plugin contract (WIT)\n\n");
    out.push_str(GENERATED);
    out.push_str(
        "The package `parlance:plugin`, version by version. Each version only adds to the one before, so \
         a component built for any 0.1.x version keeps loading; the policy and the reasons behind each \
         interface are in `wit/README.md`. Below, what each version added, computed from the frozen \
         text of each version (`wit/versions/`) and the current `wit/plugin.wit`, then the current text.\n",
    );
    let mut before: BTreeSet<String> = BTreeSet::new();
    let mut current = String::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let version = wit_version(&text);
        let items: Vec<String> = wit_items(&text);
        let added: Vec<&String> = items.iter().filter(|i| !before.contains(*i)).collect();
        let removed: Vec<&String> = before.iter().filter(|i| !items.contains(i)).collect();
        assert!(removed.is_empty(), "WIT {version} removes {removed:?}: versions only add");
        write!(out, "\n## {version}\n\n").unwrap();
        if before.is_empty() {
            out.push_str("The first version: its interfaces, their types and functions, and its worlds.\n\n");
            for item in items.iter().filter(|i| !i.contains(" / field ") && !i.contains(" / case ")) {
                writeln!(out, "- `{item}`").unwrap();
            }
        } else {
            out.push_str("Added:\n\n");
            for item in &added {
                writeln!(out, "- `{item}`").unwrap();
            }
        }
        before = items.into_iter().collect();
        current = text;
    }
    write!(out, "\n## The current text\n\n```wit\n{}```\n", current).unwrap();
    out
}

/// The REST API: every route of the OpenAPI document that `/docs` serves, with its parameters, body and
/// answers; the document itself is `openapi.json` beside this page.
pub fn rest_page(doc: &serde_json::Value) -> String {
    let mut out = String::from("# REST API\n\n");
    out.push_str(GENERATED);
    out.push_str(
        "Every route of both ports, from the OpenAPI 3.1 document that a server serves at `/openapi.json` \
         and renders at `/docs` (Swagger UI) and `/redoc`. The document of a default configuration is \
         [openapi.json](openapi.json); a server's own has its configured limits written into the \
         schemas. Errors are listed in [Error codes](errors.md).\n",
    );
    let Some(paths) = doc["paths"].as_object() else { return out };
    let schema_name = |s: &serde_json::Value| -> String {
        if let Some(r) = s["$ref"].as_str() {
            format!("`{}`", r.rsplit('/').next().unwrap_or(r))
        } else if let Some(t) = s["type"].as_str() {
            format!("`{t}`")
        } else {
            "a schema".into()
        }
    };
    for (path, item) in paths {
        for method in ["get", "post", "put", "patch", "delete"] {
            let Some(op) = item.get(method) else { continue };
            write!(out, "\n## `{} {path}`\n\n", method.to_uppercase()).unwrap();
            if let Some(summary) = op["summary"].as_str() {
                writeln!(out, "{}\n", summary.trim()).unwrap();
            }
            if let Some(description) = op["description"].as_str() {
                writeln!(out, "{}\n", description.trim()).unwrap();
            }
            if let Some(params) = op["parameters"].as_array().filter(|p| !p.is_empty()) {
                out.push_str("| Parameter | In | Required | Meaning |\n|---|---|---|---|\n");
                for p in params {
                    writeln!(
                        out,
                        "| `{}` | {} | {} | {} |",
                        p["name"].as_str().unwrap_or_default(),
                        p["in"].as_str().unwrap_or_default(),
                        if p["required"].as_bool().unwrap_or(false) { "yes" } else { "no" },
                        cell(p["description"].as_str().unwrap_or_default())
                    )
                    .unwrap();
                }
                out.push('\n');
            }
            if let Some(content) = op["requestBody"]["content"].as_object() {
                let kinds: Vec<String> = content
                    .iter()
                    .map(|(media, c)| format!("`{media}` ({})", schema_name(&c["schema"])))
                    .collect();
                writeln!(out, "Body: {}.\n", kinds.join(", ")).unwrap();
            }
            if let Some(responses) = op["responses"].as_object() {
                out.push_str("| Status | Meaning |\n|---|---|\n");
                for (status, r) in responses {
                    writeln!(out, "| {status} | {} |", cell(r["description"].as_str().unwrap_or_default()))
                        .unwrap();
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The page as committed, or written when blessing; a difference fails with the command to run.
    fn check(name: &str, generated: &str, stale: &mut Vec<String>) {
        let path = repo().join("docs/src/reference").join(name);
        if std::fs::read_to_string(&path).ok().as_deref() == Some(generated) {
            return;
        }
        if std::env::var_os("PARLANCE_BLESS").is_some() {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, generated).unwrap();
        } else {
            stale.push(name.to_owned());
        }
    }

    #[tokio::test(flavor = "multi_thread")]
    async fn the_reference_pages_are_generated_from_the_code() {
        let dir = tempfile::tempdir().unwrap();
        let env = Env::empty().with("DATABASE_FILE", dir.path().join("dialogs.db").to_str().unwrap());
        let parlance = Parlance::builder().env(env).build().await.unwrap();
        let state = parlance.app_state().unwrap();
        let document = crate::http::docs::openapi(&state);
        let _app = crate::http::app(state);
        let doc = serde_json::to_value(&document).unwrap();

        let mut stale = Vec::new();
        check("settings.md", &settings_page(), &mut stale);
        check("errors.md", &errors_page(), &mut stale);
        check("metrics.md", &metrics_page(&parlance.metrics().render()), &mut stale);
        check("cli.md", &cli_page(), &mut stale);
        check("wit.md", &wit_page(), &mut stale);
        check("rest-api.md", &rest_page(&doc), &mut stale);
        check("openapi.json", &format!("{}\n", serde_json::to_string_pretty(&doc).unwrap()), &mut stale);
        assert!(
            stale.is_empty(),
            "docs/src/reference/{{{}}} differ from what the code generates; run \
             `PARLANCE_BLESS=1 cargo test -p parlance --lib reference` to write them",
            stale.join(",")
        );
    }

    /// Every code the sources answer with is in the catalog with the status they give it, and every
    /// entry of the catalog is answered with somewhere: the errors page cannot drift from the code.
    #[test]
    fn the_error_catalog_holds_every_code_the_host_answers_with() {
        let pattern = regex::Regex::new(
            r#"(?s)(?:ApiError::new\(\s*(?:StatusCode::(?P<named>\w+)|[\w.()]+),\s*"(?P<c1>[a-z_]+)"|(?P<ctor>bad_request|unauthorized)\(\s*"(?P<c2>[a-z_]+)"|\(\s*(?P<num>\d{3}),\s*"(?P<c3>[a-z_]+)",|\(StatusCode::(?P<arm>\w+),\s*"(?P<c4>[a-z_]+)"\))"#,
        )
        .unwrap();
        let mut found: Vec<(String, Option<u16>, PathBuf)> = Vec::new();
        let mut stack = vec![repo().join("host/src")];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    stack.push(path);
                } else if path.extension().is_some_and(|e| e == "rs") && !path.ends_with("reference.rs") {
                    let text = std::fs::read_to_string(&path).unwrap();
                    let text = text.split("#[cfg(test)]").next().unwrap_or_default();
                    for m in pattern.captures_iter(text) {
                        let code = ["c1", "c2", "c3", "c4"].iter().find_map(|n| m.name(n)).unwrap().as_str();
                        let status = if let Some(name) = m.name("named").or(m.name("arm")) {
                            Some(status_number(name.as_str()))
                        } else if let Some(ctor) = m.name("ctor") {
                            Some(if ctor.as_str() == "bad_request" { 400 } else { 401 })
                        } else {
                            m.name("num").map(|n| n.as_str().parse().unwrap())
                        };
                        found.push((code.to_owned(), status, path.clone()));
                    }
                }
            }
        }
        for (code, status, path) in &found {
            let doc = CODES.iter().find(|d| d.code == *code);
            let doc = doc.unwrap_or_else(|| {
                panic!("{} answers `{code}`, which rest::error::CODES lacks", path.display())
            });
            if let Some(status) = status {
                assert!(
                    doc.statuses.contains(status),
                    "`{code}` is answered with {status} in {}",
                    path.display()
                );
            }
        }
        for doc in CODES {
            assert!(
                found.iter().any(|(c, ..)| c == doc.code),
                "CODES lists `{}`, which nothing answers",
                doc.code
            );
        }
        for e in chain_samples() {
            let (status, code) = status_and_code(&e);
            let doc = CODES.iter().find(|d| d.code == code).expect("every variant's code is listed");
            assert!(doc.statuses.contains(&status.as_u16()), "{code}");
        }
    }

    fn status_number(name: &str) -> u16 {
        use axum::http::StatusCode as S;
        let all = [
            ("BAD_REQUEST", S::BAD_REQUEST),
            ("UNAUTHORIZED", S::UNAUTHORIZED),
            ("FORBIDDEN", S::FORBIDDEN),
            ("NOT_FOUND", S::NOT_FOUND),
            ("METHOD_NOT_ALLOWED", S::METHOD_NOT_ALLOWED),
            ("REQUEST_TIMEOUT", S::REQUEST_TIMEOUT),
            ("CONFLICT", S::CONFLICT),
            ("PAYLOAD_TOO_LARGE", S::PAYLOAD_TOO_LARGE),
            ("UNSUPPORTED_MEDIA_TYPE", S::UNSUPPORTED_MEDIA_TYPE),
            ("UNPROCESSABLE_ENTITY", S::UNPROCESSABLE_ENTITY),
            ("TOO_MANY_REQUESTS", S::TOO_MANY_REQUESTS),
            ("INTERNAL_SERVER_ERROR", S::INTERNAL_SERVER_ERROR),
            ("BAD_GATEWAY", S::BAD_GATEWAY),
            ("SERVICE_UNAVAILABLE", S::SERVICE_UNAVAILABLE),
            ("GATEWAY_TIMEOUT", S::GATEWAY_TIMEOUT),
            ("INSUFFICIENT_STORAGE", S::INSUFFICIENT_STORAGE),
        ];
        all.iter().find(|(n, _)| *n == name).unwrap_or_else(|| panic!("status {name}")).1.as_u16()
    }

    #[test]
    fn wit_items_name_each_declaration_by_its_place() {
        let items = wit_items(
            "package parlance:plugin@0.1.0;\ninterface types {\n  /// doc\n  record request {\n    text: string,\n  }\n  \
             variant kind { busy, rate-limited(option<u32>) }\n  check: func(a: u32) -> bool;\n}\nworld w {\n  import host;\n  export provider;\n}\n",
        );
        assert!(items.contains(&"interface types / record request / field text".to_owned()), "{items:?}");
        assert!(items.contains(&"interface types / func check".to_owned()), "{items:?}");
        assert!(items.contains(&"world w / export provider".to_owned()), "{items:?}");
    }
}
