//! Plugin call overhead: a fresh instance from the pool plus one call of a trivial export (the hostile
//! fixture's `echo`, which reverses the words of its input and reads one setting through the host),
//! the same call in the instance the client's previous call left (`[runtime] reuse_instances`), and
//! the same Rust function called natively. Prints medians and the ratios.
//!
//! Run: `cargo bench -p parlance --bench plugin_call`

use parlance::plugins::api::PluginKind;
use parlance::plugins::spec::{ComponentSource, PluginSpec};
use parlance::plugins::{HOST_CLIENT, PluginHost, RuntimeConfig};
use std::hint::black_box;
use std::path::PathBuf;
use std::time::{Duration, Instant};

fn echo(text: &str) -> String {
    text.split_whitespace().rev().collect::<Vec<_>>().join(" ")
}

/// Median and 90th percentile of per-iteration times over `rounds` rounds of `per_round` iterations.
fn measure(rounds: usize, per_round: usize, mut f: impl FnMut()) -> (Duration, Duration) {
    let mut samples: Vec<Duration> = (0..rounds)
        .map(|_| {
            let start = Instant::now();
            for _ in 0..per_round {
                f();
            }
            start.elapsed() / per_round as u32
        })
        .collect();
    samples.sort();
    (samples[samples.len() / 2], samples[samples.len() * 9 / 10])
}

/// The process's minor and major page faults so far (`/proc/self/stat`, fields 10 and 12).
fn page_faults() -> u64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // The fields after the command's closing parenthesis, which may itself hold spaces.
    let fields: Vec<&str> =
        stat.rsplit_once(')').map(|(_, rest)| rest.split_whitespace().collect()).unwrap_or_default();
    let field = |n: usize| fields.get(n - 3).and_then(|f| f.parse::<u64>().ok()).unwrap_or(0);
    field(10) + field(12)
}

/// Median and 90th percentile of one paraphrase call of the echo fixture through `host`, and the
/// page faults per call over the measured calls, where a virtual machine pays for a fresh instance.
fn time_calls(runtime: &tokio::runtime::Runtime, host: &PluginHost) -> (Duration, Duration, f64) {
    let plugin = host.get("echo").unwrap();
    // Warm the pool's slot and the CPU caches before measuring.
    for _ in 0..1000 {
        runtime.block_on(host.paraphrase(plugin, HOST_CLIENT, "a b c", "hostile")).unwrap();
    }
    let faults = page_faults();
    let (p50, p90) = measure(200, 50, || {
        black_box(
            runtime.block_on(host.paraphrase(plugin, HOST_CLIENT, black_box("a b c"), "hostile")).unwrap(),
        );
    });
    (p50, p90, (page_faults() - faults) as f64 / (200.0 * 50.0))
}

fn main() {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let fixture = PathBuf::from(env!("PARLANCE_FIXTURES_DIR")).join("parlance_fixture_hostile.wasm");
    let mut spec = PluginSpec::new("echo", PluginKind::Provider, ComponentSource::File(fixture));
    spec.settings.insert("behaviour".into(), "echo".into());
    let cache = std::env::temp_dir().join("parlance-bench-compile-cache");
    let start = |reuse_instances: bool| {
        let settings = RuntimeConfig {
            cache_dir: Some(cache.clone()),
            max_instances: 16,
            reuse_instances,
            ..RuntimeConfig::default()
        };
        runtime.block_on(PluginHost::start(vec![spec.clone()], &settings, None)).unwrap()
    };
    // Alternated, so that a change in the machine's load hits both.
    let (fresh_host, kept_host) = (start(false), start(true));
    let mut fresh = Vec::new();
    let mut kept = Vec::new();
    for _ in 0..3 {
        fresh.push(time_calls(&runtime, &fresh_host));
        kept.push(time_calls(&runtime, &kept_host));
    }
    let median = |runs: &mut Vec<(Duration, Duration, f64)>| {
        runs.sort_by_key(|r| r.0);
        runs[runs.len() / 2]
    };
    let (wasm_p50, wasm_p90, fresh_faults) = median(&mut fresh);
    let (kept_p50, kept_p90, kept_faults) = median(&mut kept);
    let (native_p50, native_p90) = measure(200, 5000, || {
        black_box(echo(black_box("a b c")));
    });

    println!(
        "plugin call overhead (the whole PluginHost::paraphrase: admission, instance, call, settlement), median of 3 runs of 200 rounds:"
    );
    println!(
        "  fresh instance    p50 {:>9.2} µs   p90 {:>9.2} µs   page faults per call {:.3}",
        wasm_p50.as_secs_f64() * 1e6,
        wasm_p90.as_secs_f64() * 1e6,
        fresh_faults
    );
    println!(
        "  kept instance     p50 {:>9.2} µs   p90 {:>9.2} µs   page faults per call {:.3}   (reuse_instances, the same client's calls)",
        kept_p50.as_secs_f64() * 1e6,
        kept_p90.as_secs_f64() * 1e6,
        kept_faults
    );
    println!(
        "  native            p50 {:>9.3} µs   p90 {:>9.3} µs",
        native_p50.as_secs_f64() * 1e6,
        native_p90.as_secs_f64() * 1e6
    );
    println!("  ratio fresh / kept (p50): {:.2}", wasm_p50.as_secs_f64() / kept_p50.as_secs_f64());
    println!("  ratio (fresh / native, p50): {:.0}x", wasm_p50.as_secs_f64() / native_p50.as_secs_f64());
    for (issue, target) in [(2, 25), (21, 10), (45, 10)] {
        let verdict = if wasm_p50 <= Duration::from_micros(target) { "met" } else { "NOT met" };
        println!("  issue {issue} target: fresh instance and call p50 <= {target} µs -> {verdict}");
    }
}
