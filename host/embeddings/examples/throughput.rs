//! Throughput, latency, load time and memory of the encoder on the reference pairs; the Rust half of
//! bench/semantic_throughput.sh, which runs bench/st_throughput.py as the other half.
//!
//! Usage: throughput MODEL_DIR PAIRS_JSONL [--pairs N] [--repeats R] [--threads T]
//!                   [--only batched|per-pair|latency]
//! Prints a human-readable report on stderr and one JSON object on stdout.

use parlance_embeddings::SentenceEncoder;
use std::path::PathBuf;
use std::time::Instant;

struct Args {
    model: PathBuf,
    data: PathBuf,
    pairs: usize,
    repeats: usize,
    threads: Option<usize>,
    /// Which measurements to make: all, or only `batched`, `per-pair` or `latency`.
    only: Option<String>,
}

fn parse_args() -> Args {
    let mut positional = Vec::new();
    let (mut pairs, mut repeats, mut threads, mut only) = (2000, 5, None, None);
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut number = |what: &str| -> usize {
            args.next().and_then(|v| v.parse().ok()).unwrap_or_else(|| panic!("{what} needs a number"))
        };
        match arg.as_str() {
            "--pairs" => pairs = number("--pairs"),
            "--repeats" => repeats = number("--repeats").max(1),
            "--threads" => threads = Some(number("--threads")),
            "--only" => only = args.next(),
            _ => positional.push(PathBuf::from(arg)),
        }
    }
    let [model, data] = <[PathBuf; 2]>::try_from(positional).unwrap_or_else(|_| {
        panic!("usage: throughput MODEL_DIR PAIRS_JSONL [--pairs N] [--repeats R] [--threads T]")
    });
    Args { model, data, pairs, repeats, threads, only }
}

/// Resident set size of this process in KiB, from /proc (Linux only; 0 elsewhere).
fn rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

/// CPU seconds used by this process so far, all threads (Linux only; 0 elsewhere). Unlike wall
/// time it barely moves when other processes compete for the cores.
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // Fields after the parenthesised command name; utime and stime are the 12th and 13th.
    let fields: Vec<&str> = stat.rsplit(')').next().unwrap_or("").split_whitespace().collect();
    let ticks = |i: usize| fields.get(i).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    // USER_HZ is 100 on every Linux configuration in use.
    (ticks(11) + ticks(12)) / 100.0
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    let n = xs.len();
    if n == 0 {
        return f64::NAN;
    }
    if n % 2 == 1 { xs[n / 2] } else { (xs[n / 2 - 1] + xs[n / 2]) / 2.0 }
}

fn main() {
    let args = parse_args();
    let text = std::fs::read_to_string(&args.data).expect("read pairs file");
    let reference: Vec<(String, String)> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).expect("pairs file is JSON lines");
            (
                v["original"].as_str().expect("original").to_owned(),
                v["paraphrase"].as_str().expect("paraphrase").to_owned(),
            )
        })
        .collect();
    let pairs: Vec<&(String, String)> = reference.iter().cycle().take(args.pairs).collect();
    let originals: Vec<&str> = pairs.iter().map(|p| p.0.as_str()).collect();
    let paraphrases: Vec<&str> = pairs.iter().map(|p| p.1.as_str()).collect();

    let rss_before = rss_kib();
    let started = Instant::now();
    let mut encoder = SentenceEncoder::load(&args.model).expect("load model");
    let load_seconds = started.elapsed().as_secs_f64();
    if let Some(t) = args.threads {
        encoder = encoder.with_max_threads(t);
    }
    // Measured after a first call, as for sentence-transformers (whose weights map in lazily).
    encoder.embed(&["warm-up sentence"]).expect("embed");
    let model_rss_mib = rss_kib().saturating_sub(rss_before) as f64 / 1024.0;

    // The metric's batch path: every original and paraphrase in one call, then a dot product per pair.
    let wanted = |what: &str| args.only.as_deref().is_none_or(|only| only == what);
    let mut batched = Vec::new();
    let mut batched_cpu = Vec::new();
    let mut checksum = 0.0f64;
    for _ in 0..if wanted("batched") { args.repeats } else { 0 } {
        let started = Instant::now();
        let cpu = cpu_seconds();
        let texts: Vec<&str> = originals.iter().chain(&paraphrases).copied().collect();
        let vectors = encoder.embed(&texts).expect("embed");
        let (a, b) = vectors.split_at(pairs.len());
        checksum =
            a.iter().zip(b).map(|(x, y)| x.iter().zip(y).map(|(p, q)| f64::from(p * q)).sum::<f64>()).sum();
        batched.push(pairs.len() as f64 / started.elapsed().as_secs_f64());
        batched_cpu.push((cpu_seconds() - cpu) * 1000.0 / pairs.len() as f64);
    }

    // One call per pair, as a metric scoring pairs one at a time would make.
    let per_pair_count = pairs.len().min(430);
    let mut per_pair = Vec::new();
    for _ in 0..if wanted("per-pair") { args.repeats } else { 0 } {
        let started = Instant::now();
        for (a, b) in originals.iter().zip(&paraphrases).take(per_pair_count) {
            let v = encoder.embed(&[a, b]).expect("embed");
            std::hint::black_box(v[0].iter().zip(&v[1]).map(|(p, q)| p * q).sum::<f32>());
        }
        per_pair.push(per_pair_count as f64 / started.elapsed().as_secs_f64());
    }

    // Latency of a one-sentence call, over the reference originals.
    let mut latencies = Vec::new();
    for text in originals.iter().take(if wanted("latency") { 430 } else { 0 }) {
        let started = Instant::now();
        std::hint::black_box(encoder.embed(&[text]).expect("embed"));
        latencies.push(started.elapsed().as_secs_f64() * 1e3);
    }
    let peak_rss_mib = std::fs::read_to_string("/proc/self/status")
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.split_whitespace().next()?.parse::<f64>().ok())
        .map_or(0.0, |kib| kib / 1024.0);

    let report = serde_json::json!({
        "implementation": "parlance-embeddings",
        "pairs": pairs.len(),
        "repeats": args.repeats,
        "threads": args.threads,
        "batched_pairs_per_second": batched,
        "batched_median": median(batched.clone()),
        "batched_cpu_seconds_per_1000_pairs": batched_cpu,
        "per_pair_pairs_per_second": per_pair,
        "per_pair_median": median(per_pair.clone()),
        "single_text_latency_ms_median": median(latencies.clone()),
        "load_seconds": load_seconds,
        "model_rss_mib": model_rss_mib,
        "peak_rss_mib": peak_rss_mib,
        "checksum": checksum,
    });
    eprintln!(
        "parlance-embeddings: batched {:.1} pairs/s ({:.2} CPU s per 1000 pairs), per-pair calls {:.1} pairs/s, 1-text latency {:.2} ms, \
         load {:.3} s, model RSS {:.1} MiB, peak RSS {:.1} MiB",
        median(batched),
        median(batched_cpu),
        median(per_pair),
        median(latencies),
        load_seconds,
        model_rss_mib,
        peak_rss_mib
    );
    println!("{report}");
}
