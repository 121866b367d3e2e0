//! BLEU + chrF + ROUGE-L throughput through the plugin runtime directly (issue 5): the bundled `bleu`
//! component with `scores = "bleu,chrf"` and `rouge` with `scores = "rougeL"`, on the 430 pairs of
//! tests/data/metric-reference.jsonl repeated to 10 000, against sacreBLEU + rouge-score in Python
//! (bench/metric_reference_throughput.py) in the same run.
//!
//! Variants: the service's way (calls of 256 pairs, one after another on one thread, then the same
//! calls spread over every core) and one call of all pairs per metric. The Python side is one thread,
//! as those libraries are. Rounds alternate ours and Python; medians are reported.
//!
//! Run: `cargo bench -p parlance --bench metric_throughput`
//! Environment: PAIRS (10000), ROUNDS (3), PYTHON (the interpreter with sacrebleu and rouge-score;
//! default .venv/bin/python of the repository, see scripts/requirements-reference.txt).

use parlance::plugins::api::{Pair, PluginKind};
use parlance::plugins::spec::{ComponentSource, PluginSpec};
use parlance::plugins::{HOST_CLIENT, PluginHost, RuntimeConfig};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::Instant;

/// The service's chunk size (host/src/evaluate/mod.rs, PAIRS_PER_CALL).
const CHUNK: usize = 256;

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    let n = xs.len();
    if n % 2 == 1 { xs[n / 2] } else { (xs[n / 2 - 1] + xs[n / 2]) / 2.0 }
}

fn load_pairs(path: &Path, count: usize) -> Vec<Pair> {
    let text = std::fs::read_to_string(path).expect("read the metric reference data");
    let base: Vec<Pair> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let v: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
            Pair {
                original: v["original"].as_str().unwrap().to_owned(),
                paraphrase: v["paraphrase"].as_str().unwrap().to_owned(),
            }
        })
        .collect();
    (0..count).map(|i| base[i % base.len()].clone()).collect()
}

fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_default()
}

/// Sum of bleu + chrf + 100 x rougeL over every pair, as the Python side computes it.
fn checksum(
    results: &[Vec<Result<Vec<parlance::plugins::api::Score>, parlance::plugins::api::PluginError>>],
) -> f64 {
    let mut total = 0.0;
    for call in results {
        for pair in call {
            for s in pair.as_ref().expect("a scored pair") {
                total += if s.name == "rougeL" { 100.0 * s.value } else { s.value };
            }
        }
    }
    total
}

async fn start_host() -> Arc<PluginHost> {
    let mut bleu = PluginSpec::new("bleu", PluginKind::Metric, ComponentSource::Builtin("bleu".into()));
    bleu.settings.insert("scores".into(), "bleu,chrf".into());
    let mut rouge = PluginSpec::new("rouge", PluginKind::Metric, ComponentSource::Builtin("rouge".into()));
    rouge.settings.insert("scores".into(), "rougeL".into());
    let cache = std::env::temp_dir().join("parlance-bench-compile-cache");
    // The server's default pool size ([runtime] max_instances).
    let settings = RuntimeConfig { cache_dir: Some(cache), max_instances: 128, ..RuntimeConfig::default() };
    Arc::new(PluginHost::start(vec![bleu, rouge], &settings, None).await.expect("load the metric plugins"))
}

fn fail(id: &str, e: &parlance::plugins::api::CallError) -> ! {
    eprintln!("metric_throughput: a call of `{id}` failed: {e} ({e:?})");
    std::process::exit(1);
}

/// Calls of `chunk` pairs per metric, one after another. Returns (seconds, checksum).
async fn sequential(host: &PluginHost, pairs: &[Pair], chunk: usize) -> (f64, f64) {
    let started = Instant::now();
    let mut results = Vec::new();
    for id in ["bleu", "rouge"] {
        let plugin = host.get(id).unwrap();
        for part in pairs.chunks(chunk) {
            results.push(host.evaluate(plugin, HOST_CLIENT, part).await.unwrap_or_else(|e| fail(id, &e)));
        }
    }
    (started.elapsed().as_secs_f64(), checksum(&results))
}

/// The same calls as tasks on a multi-threaded runtime, so they spread over every core.
async fn parallel(host: &Arc<PluginHost>, pairs: &Arc<Vec<Pair>>) -> (f64, f64) {
    let started = Instant::now();
    let mut tasks = Vec::new();
    for id in ["bleu", "rouge"] {
        for start in (0..pairs.len()).step_by(CHUNK) {
            let (host, pairs) = (host.clone(), pairs.clone());
            tasks.push(tokio::spawn(async move {
                let plugin = host.get(id).unwrap().clone();
                let end = (start + CHUNK).min(pairs.len());
                host.evaluate(&plugin, HOST_CLIENT, &pairs[start..end]).await.unwrap_or_else(|e| fail(id, &e))
            }));
        }
    }
    let mut results = Vec::new();
    for task in tasks {
        results.push(task.await.unwrap());
    }
    (started.elapsed().as_secs_f64(), checksum(&results))
}

struct Python {
    pairs_per_second: f64,
    checksum: f64,
    implementation: String,
}

fn python_baseline(repo: &Path, python: &Path, pairs: usize) -> Option<Python> {
    let out = Command::new(python)
        .arg(repo.join("bench/metric_reference_throughput.py"))
        .args(["--pairs", &pairs.to_string()])
        .output();
    match out {
        Ok(out) if out.status.success() => {
            let v: serde_json::Value = serde_json::from_slice(&out.stdout).ok()?;
            Some(Python {
                pairs_per_second: v["pairs_per_second"][0].as_f64()?,
                checksum: v["checksum"].as_f64()?,
                implementation: v["implementation"].as_str()?.to_owned(),
            })
        }
        Ok(out) => {
            eprintln!("the Python baseline failed: {}", String::from_utf8_lossy(&out.stderr));
            None
        }
        Err(e) => {
            eprintln!("cannot run {}: {e}", python.display());
            None
        }
    }
}

fn main() {
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf();
    let count = env_usize("PAIRS", 10_000);
    let rounds = env_usize("ROUNDS", 3);
    let python =
        std::env::var_os("PYTHON").map(PathBuf::from).unwrap_or_else(|| repo.join(".venv/bin/python"));
    let pairs = Arc::new(load_pairs(&repo.join("tests/data/metric-reference.jsonl"), count));

    let one_thread = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let all_cores = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    let host = all_cores.block_on(start_host());
    // Warm up: the pool's slots, the page cache of the compiled code.
    one_thread.block_on(sequential(&host, &pairs[..CHUNK.min(pairs.len())], CHUNK));

    let load_before = loadavg();
    let (mut seq, mut par, mut whole, mut py) = (vec![], vec![], vec![], vec![]);
    let (mut our_sum, mut py_sum, mut py_name) = (0.0, f64::NAN, String::from("(not run)"));
    for round in 1..=rounds {
        eprintln!("round {round}/{rounds}, load {}", loadavg());
        let (s, sum) = one_thread.block_on(sequential(&host, &pairs, CHUNK));
        seq.push(count as f64 / s);
        our_sum = sum;
        let (s, _) = all_cores.block_on(parallel(&host, &pairs));
        par.push(count as f64 / s);
        let (s, _) = one_thread.block_on(sequential(&host, &pairs, count));
        whole.push(count as f64 / s);
        if let Some(p) = python_baseline(&repo, &python, count) {
            py.push(p.pairs_per_second);
            py_sum = p.checksum;
            py_name = p.implementation;
        }
    }
    let load_after = loadavg();

    let py_median = if py.is_empty() { f64::NAN } else { median(py.clone()) };
    println!(
        "BLEU + chrF + ROUGE-L throughput, {count} pairs, {rounds} rounds (load average {load_before} -> {load_after})"
    );
    println!("  {:<58} {:>12} {:>9}  target >= 20x", "", "pairs/s", "ratio");
    for (label, xs) in [
        ("plugin runtime, calls of 256 pairs, 1 thread", &seq),
        ("plugin runtime, calls of 256 pairs, all cores", &par),
        ("plugin runtime, one call of all pairs per metric, 1 thread", &whole),
    ] {
        let m = median(xs.clone());
        let ratio = m / py_median;
        let verdict = if ratio.is_nan() {
            "-"
        } else if ratio >= 20.0 {
            "met"
        } else {
            "NOT met"
        };
        println!("  {label:<58} {m:>12.0} {ratio:>8.1}x  {verdict}");
    }
    println!("  {:<58} {:>12.0} {:>9}", format!("Python baseline: {py_name}, 1 thread"), py_median, "1.0x");
    println!(
        "  checksum (sum of bleu + chrf + 100 x rougeL): ours {our_sum:.6}, Python {py_sum:.6}, difference {:.2e}",
        (our_sum - py_sum).abs()
    );
}
