//! The usage ledger, on both backends: each call counted once however often its record is written,
//! its hour's sums exact, reports grouped and confined by key, client and period, and two replicas
//! adding to the same hours at once.

use super::super::DialogStore;
use super::super::usage::{Dimension, UsageCall, UsageQuery};
use super::Target;

on_both!(calls_are_counted_once_and_summed_per_hour, replicas_add_to_the_same_hours);

const HOUR: i64 = 3_600_000;

fn call(
    id: &str,
    at: i64,
    key: Option<&str>,
    model: Option<&str>,
    tokens: Option<(u32, u32)>,
    cost: Option<i64>,
) -> UsageCall {
    UsageCall {
        id: id.into(),
        at,
        key_id: key.map(Into::into),
        client: "acme".into(),
        plugin: "openai".into(),
        model: model.map(Into::into),
        surface: "rest".into(),
        input_tokens: tokens.map(|t| t.0),
        output_tokens: tokens.map(|t| t.1),
        cost,
        failure: None,
        trace_id: None,
    }
}

fn query(from: i64, to: i64, group_by: Vec<Dimension>) -> UsageQuery {
    UsageQuery { from, to, key_id: None, client: None, group_by }
}

async fn calls_are_counted_once_and_summed_per_hour(t: Target) {
    let s = t.open().await;
    let day = 20_000 * 24 * HOUR;
    let calls = vec![
        call("a", day + 10, Some("k1"), Some("m"), Some((10, 5)), Some(1_045)),
        call("b", day + HOUR - 1, Some("k1"), Some("m"), Some((10, 5)), Some(1_045)),
        call("c", day + HOUR, Some("k2"), None, None, None),
    ];
    assert_eq!(s.record_usage(calls.clone()).await.unwrap(), 3);
    // The same records again, as after a write whose answer was lost: nothing new; nor from a batch
    // that holds one of them twice beside nothing new.
    assert_eq!(s.record_usage(calls.clone()).await.unwrap(), 0);
    assert_eq!(s.record_usage(vec![calls[0].clone(), calls[0].clone()]).await.unwrap(), 0);
    // A batch that holds a new call twice records it once.
    let twice = call("d", day + 10 * HOUR, Some("k1"), Some("m"), Some((1, 1)), Some(1));
    assert_eq!(s.record_usage(vec![twice.clone(), twice]).await.unwrap(), 1);
    let later = s.usage_report(&query(day + 10 * HOUR, day + 11 * HOUR, vec![])).await.unwrap();
    assert_eq!(later[0].calls, 1);
    let total = s.usage_report(&query(day, day + 2 * HOUR, vec![])).await.unwrap();
    assert_eq!(total.len(), 1);
    let t0 = &total[0];
    assert_eq!((t0.calls, t0.input_tokens, t0.output_tokens, t0.cost), (3, 20, 10, 2_090));
    assert_eq!((t0.unreported, t0.unpriced, t0.failed), (1, 1, 0));
    // The first hour alone; and per key.
    let first = s.usage_report(&query(day, day + HOUR, vec![])).await.unwrap();
    assert_eq!(first[0].calls, 2);
    let by_key =
        s.usage_report(&query(day, day + 2 * HOUR, vec![Dimension::Key, Dimension::Day])).await.unwrap();
    let groups: Vec<_> = by_key.iter().map(|r| (r.group.clone(), r.calls)).collect();
    let day_text = day.to_string();
    assert_eq!(
        groups,
        vec![
            (vec![(Dimension::Key, "k1".to_owned()), (Dimension::Day, day_text.clone())], 2),
            (vec![(Dimension::Key, "k2".to_owned()), (Dimension::Day, day_text)], 1),
        ]
    );
    let mut only_k2 = query(day, day + 2 * HOUR, vec![Dimension::Model]);
    only_k2.key_id = Some("k2".into());
    let k2 = s.usage_report(&only_k2).await.unwrap();
    assert_eq!((k2.len(), k2[0].group[0].1.as_str(), k2[0].calls), (1, "", 1));
    // Nothing recorded in a period is a zero row, not an error.
    let empty = s.usage_report(&query(0, HOUR, vec![])).await.unwrap();
    assert_eq!((empty.len(), empty[0].calls), (1, 0));
}

/// Two openings of the same data (two replicas) recording the same batches at once, in opposite
/// orders: every call counted, none twice, and no deadlock between their hourly rows.
async fn replicas_add_to_the_same_hours(t: Target) {
    let (a, b) = (t.open().await, t.open().await);
    let at = 20_001 * 24 * HOUR;
    let batch = |round: usize| -> Vec<UsageCall> {
        (0..50)
            .map(|i| {
                call(&format!("r{round}-{i}"), at + i * 60_000, Some("k"), Some("m"), Some((1, 2)), Some(3))
            })
            .collect()
    };
    let write = |store: DialogStore, rounds: Vec<usize>| async move {
        let mut new = 0;
        for round in rounds {
            new += store.record_usage(batch(round)).await.unwrap();
        }
        new
    };
    let (from_a, from_b) =
        futures::join!(write(a.clone(), vec![0, 1, 2, 3]), write(b.clone(), vec![3, 2, 1, 0]));
    assert_eq!(from_a + from_b, 200, "each record counted once: {from_a} + {from_b}");
    let total = a.usage_report(&query(at - HOUR, at + 2 * HOUR, vec![])).await.unwrap();
    assert_eq!(
        (total[0].calls, total[0].input_tokens, total[0].output_tokens, total[0].cost),
        (200, 200, 400, 600)
    );
}
