//! The cost of usage accounting per plugin call, without the HTTP around it (whose noise on a shared
//! machine is larger than the cost): the accountant's admission and settlement of a priced call with
//! the ledger on (the record spooled, as a server does) against off (counted in the metrics only),
//! and the ledger writer's cost per record committed to SQLite in batches of the sizes it sees (1 when
//! calls are rare, about 240 at one connection's pace of about 2,400 calls a second in
//! bench/usage_cost.py, gathered for `usage::LINGER`, 512 under load). Prints medians and the
//! differences.
//!
//! Run: `cargo bench -p parlance --bench accounting`

use parlance::metrics::Metrics;
use parlance::plugins::api::{Admission, CallScope, Meter, PluginKind, Settled, Usage};
use parlance::store::usage::UsageCall;
use parlance::store::{DialogStore, Durability};
use parlance::usage::{Accountant, UsageConfig};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The median of `samples`.
fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

/// One priced provider call through `accountant`, as the plugin runtime makes it.
async fn call(accountant: &Accountant, scope: &CallScope) {
    let admission =
        Admission { plugin: "priced", client: "client:acme", scope, cost: Some(1_000_000), tokens: 1024 };
    let hold = accountant.admit(admission).await.unwrap();
    accountant
        .settle(Settled {
            plugin: "priced",
            kind: PluginKind::Provider,
            model: Some("gpt-4o-mini"),
            client: "client:acme",
            scope: scope.clone(),
            usage: Usage { input_tokens: Some(10), output_tokens: Some(5) },
            cost: Some(104_500_000),
            failure: None,
            trace_id: None,
            hold,
        })
        .await;
}

fn record(i: u64) -> UsageCall {
    UsageCall {
        id: format!("{:012x}{:020x}", 1_800_000_000_000u64 + i / 100, i),
        at: 1_800_000_000_000 + (i / 100) as i64,
        key_id: None,
        client: "acme".into(),
        plugin: "priced".into(),
        model: Some("gpt-4o-mini".into()),
        surface: "rest".into(),
        input_tokens: Some(10),
        output_tokens: Some(5),
        cost: Some(104_500_000),
        failure: None,
        trace_id: None,
    }
}

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let (rounds, per_round) = (200, 50);
    let scope = CallScope::new("rest", None);

    let (on, off, store) = runtime.block_on(async {
        let store = DialogStore::open(&dir.path().join("dialogs.db"), Durability::Normal).await.unwrap();
        let on = Accountant::start(&UsageConfig::default(), Arc::new(Metrics::new()), None);
        on.keep_in(store.clone());
        on.spool_in(&dir.path().join("spool"), false).unwrap();
        let off_config = UsageConfig { record: false, ..UsageConfig::default() };
        let off = Accountant::start(&off_config, Arc::new(Metrics::new()), None);
        off.keep_in(store.clone());
        (on, off, store)
    });

    // The request's path: on and off alternating, round by round.
    let (mut on_times, mut off_times) = (Vec::new(), Vec::new());
    runtime.block_on(async {
        for _ in 0..1000 {
            call(&on, &scope).await;
            call(&off, &scope).await;
        }
        for _ in 0..rounds {
            for (accountant, times) in [(&on, &mut on_times), (&off, &mut off_times)] {
                let start = Instant::now();
                for _ in 0..per_round {
                    call(accountant, &scope).await;
                }
                times.push(start.elapsed() / per_round);
            }
        }
        on.flush().await;
    });
    let (on_path, off_path) = (median(on_times), median(off_times));

    // The spool's part of the request's path: a record as a line, and its write.
    let spool_dir = tempfile::tempdir().unwrap();
    let spool = parlance::usage::spool::Spool::open(spool_dir.path(), "bench", false).unwrap();
    let (mut line_times, mut write_times) = (Vec::new(), Vec::new());
    let one = record(0);
    for _ in 0..rounds {
        let start = Instant::now();
        for _ in 0..per_round {
            std::hint::black_box(parlance::usage::spool::Spool::line(std::hint::black_box(&one)));
        }
        line_times.push(start.elapsed() / per_round);
        let line = parlance::usage::spool::Spool::line(&one);
        let start = Instant::now();
        for _ in 0..per_round {
            spool.append(&line, |n| n).unwrap();
        }
        write_times.push(start.elapsed() / per_round);
    }
    let (line_cost, write_cost) = (median(line_times), median(write_times));

    // The writer's side, per record, by batch size.
    let mut next = 0u64;
    let mut per_record = Vec::new();
    // One connection's pace, as bench/usage_cost.py measures it, gathered for the writer's linger.
    let at_one_connection_pace = (2_400.0 * parlance::usage::LINGER.as_secs_f64()) as usize;
    for batch in [1usize, 50, at_one_connection_pace, 512] {
        let samples: Vec<Duration> = (0..rounds.min(100))
            .map(|_| {
                let calls: Vec<UsageCall> = (0..batch as u64).map(|i| record(next + i)).collect();
                next += batch as u64;
                let start = Instant::now();
                runtime.block_on(store.record_usage(calls)).unwrap();
                start.elapsed() / batch as u32
            })
            .collect();
        per_record.push((batch, median(samples)));
    }

    let us = |d: Duration| d.as_secs_f64() * 1e6;
    println!("usage accounting per priced provider call, {rounds} rounds of {per_round} calls (medians):");
    println!("  request path, ledger on (spooled)  {:>8.2} µs", us(on_path));
    println!("  request path, ledger off           {:>8.2} µs", us(off_path));
    println!("  request path, on − off             {:>+8.2} µs", us(on_path) - us(off_path));
    println!("    of which the record as a line      {:>8.2} µs", us(line_cost));
    println!("    of which its write to the spool    {:>8.2} µs", us(write_cost));
    for (batch, d) in &per_record {
        println!("  ledger writer per record, batch {batch:>3} {:>8.2} µs", us(*d));
    }
    let at_one_connection = us(on_path) - us(off_path) + us(per_record[2].1);
    println!(
        "  total on − off at one connection's pace (batches of about {at_one_connection_pace}): \
         {at_one_connection:+.2} µs (target <= 5 µs)"
    );
}
