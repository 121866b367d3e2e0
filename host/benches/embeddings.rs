//! Where the sentence encoder runs: natively in the host behind the `embeddings` capability (what the
//! bundled `semantic` metric uses), or compiled into the metric component itself. Both score the same
//! pairs in the same run; prints medians, pairs per second and the ratio, and checks that both agree
//! with sentence-transformers.
//!
//! Run through `bench/embeddings_native_vs_wasm.sh`, which builds the in-component variant first.

use parlance::embeddings::{EmbeddingBackend, Native};
use parlance::plugins::api::{Pair, PluginKind};
use parlance::plugins::spec::{ComponentSource, Limits, PluginSpec};
use parlance::plugins::{HOST_CLIENT, PluginHost, RuntimeConfig};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

fn median(mut xs: Vec<Duration>) -> Duration {
    xs.sort();
    xs[xs.len() / 2]
}

fn main() {
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let model = std::env::var("PARLANCE_EMBEDDINGS_MODEL_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|_| repo.join("models/all-MiniLM-L6-v2"));
    let component = PathBuf::from(
        std::env::var("PARLANCE_BENCH_ENCODER_WASM")
            .expect("set PARLANCE_BENCH_ENCODER_WASM (bench/embeddings_native_vs_wasm.sh does)"),
    );
    let pairs_wanted: usize = std::env::var("PAIRS").ok().and_then(|v| v.parse().ok()).unwrap_or(64);
    let reference: Vec<serde_json::Value> =
        std::fs::read_to_string(repo.join("tests/data/semantic-reference.jsonl"))
            .unwrap()
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| serde_json::from_str(l).unwrap())
            .take(pairs_wanted)
            .collect();
    let pairs: Vec<Pair> = reference
        .iter()
        .map(|r| Pair {
            original: r["original"].as_str().unwrap().into(),
            paraphrase: r["paraphrase"].as_str().unwrap().into(),
        })
        .collect();

    let slow = Limits { timeout: Duration::from_secs(900), memory_bytes: 1 << 30, ..Limits::default() };
    let mut native =
        PluginSpec::new("semantic", PluginKind::Metric, ComponentSource::Builtin("semantic".into()));
    native.limits = slow;
    let mut in_wasm = PluginSpec::new("in-wasm", PluginKind::Metric, ComponentSource::File(component));
    in_wasm.limits = slow;
    in_wasm.grants.read_dir = Some(model.clone());

    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    let backend: Arc<dyn EmbeddingBackend> = Arc::new(Native::new(model).unwrap());
    let cache = std::env::temp_dir().join("parlance-bench-compile-cache");
    let settings = RuntimeConfig { cache_dir: Some(cache), max_instances: 8, ..RuntimeConfig::default() };
    let host = runtime.block_on(PluginHost::start(vec![native, in_wasm], &settings, Some(backend))).unwrap();
    let run = |id: &str, pairs: &[Pair]| {
        let started = Instant::now();
        let results = runtime.block_on(host.evaluate(host.get(id).unwrap(), HOST_CLIENT, pairs)).unwrap();
        let scores: Vec<f64> = results.into_iter().map(|r| r.unwrap()[0].value).collect();
        (started.elapsed(), scores)
    };

    // Warm both (the native model loads on first use; the component's code is compiled).
    let (_, native_scores) = run("semantic", &pairs);
    let (_, wasm_scores) = run("in-wasm", &pairs[..1]);
    let native_runs: Vec<Duration> = (0..5).map(|_| run("semantic", &pairs).0).collect();
    let (wasm_full, wasm_all_scores) = run("in-wasm", &pairs);
    let mut wasm_runs = vec![wasm_full];
    wasm_runs.extend((0..2).map(|_| run("in-wasm", &pairs).0));
    let one_pair: Vec<Duration> = (0..3).map(|_| run("in-wasm", &pairs[..1]).0).collect();
    let native_one: Vec<Duration> = (0..5).map(|_| run("semantic", &pairs[..1]).0).collect();

    let worst = |scores: &[f64]| {
        scores
            .iter()
            .zip(&reference)
            .map(|(s, r)| (s - r["cosine"].as_f64().unwrap()).abs())
            .fold(0.0, f64::max)
    };
    let (n, w) = (median(native_runs), median(wasm_runs));
    let per_sec = |d: Duration| pairs.len() as f64 / d.as_secs_f64();
    println!("semantic similarity on {} pairs, one metric call each (medians):", pairs.len());
    println!(
        "  native encoder (host capability): {:>9.1} ms  {:>8.1} pairs/s",
        n.as_secs_f64() * 1e3,
        per_sec(n)
    );
    println!(
        "  encoder inside the component:     {:>9.1} ms  {:>8.1} pairs/s",
        w.as_secs_f64() * 1e3,
        per_sec(w)
    );
    println!("  ratio (native speed / in-component speed): {:.1}x", w.as_secs_f64() / n.as_secs_f64());
    println!(
        "  one pair per call: native {:.1} ms, in-component {:.1} ms (it loads the 90 MB model in every fresh instance)",
        median(native_one).as_secs_f64() * 1e3,
        median(one_pair).as_secs_f64() * 1e3
    );
    println!(
        "  max abs error vs sentence-transformers: native {:.1e}, in-component {:.1e} (first pair {:.1e})",
        worst(&native_scores),
        worst(&wasm_all_scores),
        worst(&wasm_scores)
    );
}
