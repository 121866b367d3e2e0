//! `parlance plugins test`: its options, declared once; a component loaded in the same sandbox and
//! runtime as the server and called through its world, each call's answer kept in a [`Trial`]; and
//! the trial rendered as text, as it happens, or as one JSON report.

use crate::plugins::api::{ChatRequest, Pair, PluginInfo, PluginKind, Score};
use crate::plugins::spec::{ComponentSource, HostPattern, PluginSpec};
use crate::plugins::{HOST_CLIENT, Plugin, PluginHost, RuntimeConfig};
use crate::upstream::TlsConfig;
use anyhow::{Context, bail};
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

// What `plugins test` runs (its doc comment would be the command's help, which the subcommand's own
// says).
#[derive(Debug, clap::Args)]
pub struct TestRun {
    /// The component.
    pub file: PathBuf,
    /// The world it implements.
    #[arg(long, value_parser = super::shared::plugin_kind())]
    pub kind: PluginKind,
    /// A setting the plugin reads through `host.config` (repeatable).
    #[arg(long = "config", value_name = "KEY=VALUE", value_parser = key_value)]
    pub settings: Vec<(String, String)>,
    /// An origin its outbound HTTP may reach, scheme://host[:port] (repeatable; none by default).
    #[arg(long = "allow-host", value_name = "URL")]
    pub allow_hosts: Vec<String>,
    /// Metric: a file of JSON lines {"original": …, "paraphrase": …}, or `-` for stdin (the default).
    #[arg(long, value_name = "FILE")]
    pub pairs: Option<PathBuf>,
    /// Provider: the text to paraphrase.
    #[arg(long)]
    pub text: Option<String>,
    /// Provider: the model (default: the one its info() names).
    #[arg(long)]
    pub model: Option<String>,
    /// Chat model: the user's message.
    #[arg(long)]
    pub message: Option<String>,
    /// Call it this many times, each in a fresh instance, and print the median time.
    #[arg(long, default_value_t = 1)]
    pub repeat: u32,
    /// The call's time limit in milliseconds (default 30000).
    #[arg(long)]
    pub timeout_ms: Option<u64>,
    /// Print one JSON report instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Loads a component in the real runtime, calls it `repeat` times, prints what happened, and fails
/// when any call failed (a metric's refusal of one pair is printed, but is not a failed call).
pub async fn test_component(runtime: &RuntimeConfig, trust: &TlsConfig, run: TestRun) -> anyhow::Result<()> {
    let spec = spec(&run)?;
    // Read the input before loading, so that a bad input file fails fast.
    let input = Input::read(&run)?;
    // Each call in a fresh instance, as documented, so that `--repeat` times what a first call costs
    // and a plugin that keeps state between calls shows it at once.
    let runtime = RuntimeConfig { reuse_instances: false, ..runtime.clone() };
    let host = PluginHost::start_with_upstream(vec![spec], &runtime, None, trust.client()?).await?;
    let plugin = host.get("test").expect("the one plugin was loaded").clone();
    let mut trial = Trial { file: run.file.clone(), plugin, calls: Vec::new() };

    let mut out = std::io::stdout().lock();
    if !run.json {
        text::loaded(&mut out, &trial)?;
    }
    for round in 0..run.repeat.max(1) {
        let started = Instant::now();
        let answer = call(&host, &trial.plugin, &input).await;
        let call = Call { elapsed: started.elapsed(), answer };
        if !run.json {
            text::call(&mut out, round, &call, run.repeat)?;
        }
        trial.calls.push(call);
    }
    if run.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&trial.json())?)?;
    } else if run.repeat > 1 {
        text::timings(&mut out, &trial)?;
    }
    if trial.calls.iter().any(|c| c.answer.is_err()) {
        bail!("{} failed a call (see above)", run.file.display());
    }
    Ok(())
}

/// The plugin as the options describe it, under the id `test`.
fn spec(run: &TestRun) -> anyhow::Result<PluginSpec> {
    let mut spec = PluginSpec::new("test", run.kind, ComponentSource::File(run.file.clone()));
    for (key, value) in &run.settings {
        spec.settings.insert(key.clone(), value.clone());
    }
    for host in &run.allow_hosts {
        spec.allowed_hosts.push(HostPattern::parse(host).map_err(|e| anyhow::anyhow!("--allow-host {e}"))?);
    }
    if let Some(ms) = run.timeout_ms {
        spec.limits.timeout = Duration::from_millis(ms);
    }
    Ok(spec)
}

/// What each call of the component's world is given.
enum Input {
    Pairs(Vec<Pair>),
    Text { text: String, model: Option<String> },
    Message(String),
}

impl Input {
    fn read(run: &TestRun) -> anyhow::Result<Input> {
        Ok(match run.kind {
            PluginKind::Metric => Input::Pairs(read_pairs(run.pairs.as_deref().unwrap_or(Path::new("-")))?),
            PluginKind::Provider => match &run.text {
                Some(text) => Input::Text { text: text.clone(), model: run.model.clone() },
                None => bail!("testing a provider needs --text TEXT"),
            },
            PluginKind::ChatModel => match &run.message {
                Some(message) => Input::Message(message.clone()),
                None => bail!("testing a chat model needs --message TEXT"),
            },
        })
    }
}

/// What one call answered, by world.
enum Answer {
    /// A metric's scores for each pair, or its refusal of that pair (one of its answers, not a
    /// failed call).
    Scores(Vec<Result<Vec<Score>, String>>),
    Paraphrase {
        text: String,
        model: String,
    },
    Reply(String),
}

/// One call: how long it took (a fresh instance and the call), and its answer or why it failed.
struct Call {
    elapsed: Duration,
    answer: Result<Answer, String>,
}

/// What a `plugins test` run found: the component as loaded, and each call.
struct Trial {
    file: PathBuf,
    plugin: Arc<Plugin>,
    calls: Vec<Call>,
}

async fn call(host: &PluginHost, plugin: &Plugin, input: &Input) -> Result<Answer, String> {
    match input {
        Input::Pairs(pairs) => evaluate(host, plugin, pairs).await,
        Input::Text { text, model } => paraphrase(host, plugin, text, model.as_deref()).await,
        Input::Message(message) => reply(host, plugin, message).await,
    }
}

async fn evaluate(host: &PluginHost, plugin: &Plugin, pairs: &[Pair]) -> Result<Answer, String> {
    let results = host.evaluate(plugin, HOST_CLIENT, pairs).await.map_err(|e| e.to_string())?;
    Ok(Answer::Scores(results.into_iter().map(|r| r.map_err(|e| e.to_string())).collect()))
}

async fn paraphrase(
    host: &PluginHost,
    plugin: &Plugin,
    text: &str,
    model: Option<&str>,
) -> Result<Answer, String> {
    let model = model.map(str::to_owned).unwrap_or_else(|| match &plugin.info {
        PluginInfo::Provider { default_model, .. } => default_model.clone(),
        _ => String::new(),
    });
    let p = host.paraphrase(plugin, HOST_CLIENT, text, &model).await.map_err(|e| e.to_string())?;
    Ok(Answer::Paraphrase { text: p.text, model: p.model })
}

async fn reply(host: &PluginHost, plugin: &Plugin, message: &str) -> Result<Answer, String> {
    let request = ChatRequest {
        history: Vec::new(),
        message: message.to_owned(),
        from_name: "User".into(),
        to_name: "Character".into(),
        situation: None,
        genre: "Romance".into(),
    };
    let reply = host.reply(plugin, HOST_CLIENT, &request).await.map_err(|e| e.to_string())?;
    Ok(Answer::Reply(reply))
}

impl Trial {
    fn world(&self) -> String {
        format!("parlance:plugin/{}@{}", self.plugin.kind().world(), self.plugin.version)
    }

    /// The calls' times, sorted.
    fn sorted_times(&self) -> Vec<Duration> {
        let mut sorted: Vec<Duration> = self.calls.iter().map(|c| c.elapsed).collect();
        sorted.sort();
        sorted
    }

    /// The JSON report: the load, the first call's result or error, and every call's time.
    fn json(&self) -> serde_json::Value {
        let plugin = &self.plugin;
        let mut report = serde_json::json!({
            "file": self.file.display().to_string(),
            "world": self.world(),
            "info": plugin.info,
            "load": {"source": plugin.compile_source, "ms": ms(plugin.load_time)},
        });
        match &self.calls[0].answer {
            Ok(answer) => report["result"] = answer.json(),
            Err(e) => report["error"] = e.clone().into(),
        }
        let sorted = self.sorted_times();
        report["calls_ms"] = self.calls.iter().map(|c| ms(c.elapsed)).collect::<Vec<_>>().into();
        report["p50_ms"] = ms(sorted[sorted.len() / 2]).into();
        report
    }
}

impl Answer {
    fn json(&self) -> serde_json::Value {
        match self {
            Answer::Scores(rows) => rows
                .iter()
                .map(|row| match row {
                    Ok(scores) => serde_json::json!({"scores": scores}),
                    Err(e) => serde_json::json!({"error": e}),
                })
                .collect::<Vec<_>>()
                .into(),
            Answer::Paraphrase { text, model } => serde_json::json!({"paraphrase": text, "model": model}),
            Answer::Reply(reply) => serde_json::json!({"reply": reply}),
        }
    }
}

/// The text rendering, written as the run goes.
mod text {
    use super::{Answer, Call, Trial, ms};
    use crate::plugins::api::PluginInfo;
    use crate::plugins::compile_cache::CompileSource;
    use std::io::{Result, Write};

    /// The component as loaded.
    pub(super) fn loaded(out: &mut impl Write, trial: &Trial) -> Result<()> {
        let plugin = &trial.plugin;
        let source = match plugin.compile_source {
            CompileSource::Cache => "from the compile cache",
            CompileSource::Compiled => "compiled",
        };
        writeln!(
            out,
            "loaded {} as {} ({source}, {:.1} ms): {}",
            trial.file.display(),
            trial.world(),
            ms(plugin.load_time),
            plugin.info.name()
        )?;
        if let PluginInfo::Provider { default_model, .. } = &plugin.info {
            writeln!(out, "default model: {default_model}")?;
        }
        Ok(())
    }

    /// One call: the first one's answer, its time when it is the only one, and any error.
    pub(super) fn call(out: &mut impl Write, round: u32, call: &Call, repeat: u32) -> Result<()> {
        if round == 0
            && let Ok(answer) = &call.answer
        {
            self::answer(out, answer)?;
        }
        if repeat <= 1 {
            writeln!(out, "call: {:.3} ms (fresh instance + call)", ms(call.elapsed))?;
        }
        if let Err(e) = &call.answer {
            writeln!(out, "call {}: error: {e}", round + 1)?;
        }
        Ok(())
    }

    fn answer(out: &mut impl Write, answer: &Answer) -> Result<()> {
        match answer {
            Answer::Scores(rows) => {
                for (i, row) in rows.iter().enumerate() {
                    match row {
                        Ok(scores) => {
                            let line: Vec<String> =
                                scores.iter().map(|s| format!("{}={}", s.name, s.value)).collect();
                            writeln!(out, "pair {}: {}", i + 1, line.join(" "))?;
                        }
                        Err(e) => writeln!(out, "pair {}: error: {e}", i + 1)?,
                    }
                }
            }
            Answer::Paraphrase { text, model } => {
                writeln!(out, "paraphrase: {text}")?;
                writeln!(out, "model: {model}")?;
            }
            Answer::Reply(reply) => writeln!(out, "reply: {reply}")?,
        }
        Ok(())
    }

    /// The times of several calls.
    pub(super) fn timings(out: &mut impl Write, trial: &Trial) -> Result<()> {
        let sorted = trial.sorted_times();
        writeln!(
            out,
            "calls: {} (fresh instance + call each): p50 {:.3} ms, min {:.3} ms, max {:.3} ms",
            sorted.len(),
            ms(sorted[sorted.len() / 2]),
            ms(sorted[0]),
            ms(sorted[sorted.len() - 1])
        )
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// Pairs as JSON lines, `{"original": …, "paraphrase": …}`; blank lines are skipped.
fn read_pairs(path: &Path) -> anyhow::Result<Vec<Pair>> {
    let reader: Box<dyn BufRead> = if path == Path::new("-") {
        Box::new(std::io::stdin().lock())
    } else {
        Box::new(std::io::BufReader::new(
            std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?,
        ))
    };
    // Other fields are ignored, so a dataset with references or expected scores can be fed as it is.
    #[derive(serde::Deserialize)]
    struct Line {
        original: String,
        paraphrase: String,
    }
    let mut pairs = Vec::new();
    for (n, line) in reader.lines().enumerate() {
        let line = line.with_context(|| format!("cannot read {}", path.display()))?;
        if line.trim().is_empty() {
            continue;
        }
        let parsed: Line = serde_json::from_str(&line).with_context(|| {
            format!("{}:{}: expected {{\"original\": …, \"paraphrase\": …}}", path.display(), n + 1)
        })?;
        pairs.push(Pair { original: parsed.original, paraphrase: parsed.paraphrase });
    }
    if pairs.is_empty() {
        bail!("{} holds no pairs", path.display());
    }
    Ok(pairs)
}

/// Parses `key=value`.
pub fn key_value(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((k, v)) if !k.trim().is_empty() => Ok((k.trim().to_owned(), v.to_owned())),
        _ => Err(format!("{text:?} is not key=value")),
    }
}
