//! Jobs and API keys, on both backends.

use super::super::jobs::{Cancelled, ItemResult, JobStatus, NewJob};
use super::super::keys::{Budget, BudgetPeriod, BudgetsChange, KeyLimits, KeyUpdate, LimitsChange};
use super::Target;

on_both!(
    jobs_are_claimed_once_and_complete_with_their_last_item,
    keys_are_found_listed_and_revoked,
    keys_keep_their_limits_and_revoked_ones_are_not_updated,
    clients_keep_their_limits
);

fn job(id: &str, created_at: i64) -> NewJob {
    NewJob {
        id: id.into(),
        client: "c".into(),
        key_id: Some(format!("key-{id}")),
        provider: "offline".into(),
        model: None,
        skip_cache: false,
        selection: None,
        traceparent: Some(format!("00-{:032x}-00f067aa0ba902b7-01", created_at)),
        created_at,
    }
}

fn paraphrased(text: &str) -> ItemResult {
    served(text, None)
}

/// An item a fallback served, with the attempts before it.
fn fell_back(text: &str) -> ItemResult {
    served(text, Some(r#"[{"id":"gemini","error":"upstream_timeout"}]"#))
}

fn served(text: &str, attempts: Option<&str>) -> ItemResult {
    ItemResult::Paraphrased {
        paraphrase: text.into(),
        provider: "offline".into(),
        model: "m".into(),
        cached: false,
        candidates: None,
        attempts: attempts.map(Into::into),
    }
}

/// Two replicas claiming at once never get the same item; a lease that runs out is claimed again; a
/// result is stored only under its claim, and the job completes with its last item.
async fn jobs_are_claimed_once_and_complete_with_their_last_item(t: Target) {
    let (a, b) = (t.open().await, t.open().await);
    let texts: Vec<String> = (0..40).map(|i| format!("text {i}")).collect();
    a.jobs().create_job(job("j1", 1), texts).await.unwrap();
    a.jobs().create_job(job("j2", 2), vec!["later".into()]).await.unwrap();
    let (mut seen, now) = (std::collections::HashSet::new(), 1_000);
    loop {
        let (x, y) = tokio::join!(
            a.jobs().claim_items("ra", 7, now, now + 60_000),
            b.jobs().claim_items("rb", 7, now, now + 60_000)
        );
        let (x, y) = (x.unwrap(), y.unwrap());
        if x.is_empty() && y.is_empty() {
            break;
        }
        for item in x.iter().chain(&y) {
            let created_at = if item.job_id == "j1" { 1 } else { 2 };
            assert_eq!(
                item.traceparent,
                job(&item.job_id, created_at).traceparent,
                "the job's trace context"
            );
            assert_eq!(item.key_id, Some(format!("key-{}", item.job_id)), "the key that created the job");
            assert!(
                seen.insert((item.job_id.clone(), item.index)),
                "{}#{} claimed twice",
                item.job_id,
                item.index
            );
        }
        if let Some(first) = x.first() {
            assert!(first.job_id == "j1" || x.iter().all(|i| i.job_id == "j2"), "oldest jobs first");
        }
    }
    assert_eq!(seen.len(), 41);
    let record = a.jobs().job("c", "j1").await.unwrap().unwrap();
    assert_eq!(record.status, JobStatus::Processing);
    assert!(a.jobs().job("other", "j1").await.unwrap().is_none(), "jobs are per client");
    // ra's claims run out; rb takes them over, and ra's late result is dropped.
    let later = 100_000;
    let retaken = b.jobs().claim_items("rb", 100, later, later + 60_000).await.unwrap();
    assert!(!retaken.is_empty());
    let lost = &retaken[0];
    assert!(!a.jobs().finish_item("ra", &lost.job_id, lost.index, paraphrased("late"), later).await.unwrap());
    assert_eq!(b.jobs().renew_claims("rb", later + 120_000).await.unwrap(), 41);
    for i in 0..40 {
        let text = format!("p{i}");
        let result = if i == 39 { fell_back(&text) } else { paraphrased(&text) };
        assert!(b.jobs().finish_item("rb", "j1", i, result, later).await.unwrap());
    }
    let done = a.jobs().job("c", "j1").await.unwrap().unwrap();
    assert_eq!((done.status, done.successful, done.failed), (JobStatus::Completed, 40, 0));
    let items = a.jobs().job_items("j1", 38, 10).await.unwrap();
    assert_eq!(items.iter().map(|i| i.index).collect::<Vec<_>>(), [38, 39]);
    assert_eq!(items[0].result, Some(paraphrased("p38")));
    assert_eq!(items[1].result, Some(fell_back("p39")));
    assert_eq!(a.jobs().cancel_job("c", "j1", later).await.unwrap(), Cancelled::AlreadyCompleted);
    assert_eq!(a.jobs().release_claims("rb").await.unwrap(), 1);
    assert_eq!(a.jobs().cancel_job("c", "j2", later).await.unwrap(), Cancelled::Cancelled);
    assert_eq!(a.jobs().cancel_job("c", "nope", later).await.unwrap(), Cancelled::NotFound);
    assert!(
        b.jobs().claim_items("rb", 10, later, later + 1).await.unwrap().is_empty(),
        "a cancelled job is not worked on"
    );
    let listed = a.jobs().list_jobs("c", 0, 10).await.unwrap();
    assert_eq!(listed.iter().map(|j| j.id.as_str()).collect::<Vec<_>>(), ["j2", "j1"]);
}

async fn keys_are_found_listed_and_revoked(t: Target) {
    let s = t.open().await;
    let (secret, key) = s.create_key("ci", "acme", KeyLimits::default()).await.unwrap();
    let found = s.find_key(&key.id).await.unwrap().unwrap();
    assert!(super::super::keys::matches(&secret, &found.secret_hash));
    assert_eq!((found.client.as_str(), found.revoked), ("acme", false));
    assert_eq!(s.list_keys().await.unwrap(), vec![key.clone()]);
    assert!(s.revoke_key(&key.id).await.unwrap());
    assert!(!s.revoke_key(&key.id).await.unwrap(), "revoked already");
    assert!(s.find_key(&key.id).await.unwrap().unwrap().revoked);
    assert!(s.find_key("nope").await.unwrap().is_none());
}

async fn keys_keep_their_limits_and_revoked_ones_are_not_updated(t: Target) {
    let s = t.open().await;
    let budget = |text: &str| text.parse::<Budget>().unwrap();
    let limits = KeyLimits {
        budgets: vec![budget("5/day"), budget("50.000001/month")],
        tokens_per_minute: Some(10_000),
        requests_per_minute: None,
    };
    let (_, key) = s.create_key("ci", "acme", limits.clone()).await.unwrap();
    let (_, plain) = s.create_key("plain", "other", KeyLimits::default()).await.unwrap();
    // Another process (or replica) reads what this one wrote.
    let other = t.open().await;
    assert_eq!(other.get_key(&key.id).await.unwrap(), Some(key.clone()));
    assert_eq!(other.find_key(&key.id).await.unwrap().unwrap().limits, limits);
    assert_eq!(other.get_key(&plain.id).await.unwrap().unwrap().limits, KeyLimits::default());
    assert_eq!(other.list_keys().await.unwrap().len(), 2);
    assert_eq!(other.get_key("nope").await.unwrap(), None);

    let change = LimitsChange {
        budgets: BudgetsChange::Merge { set: vec![budget("100/total")], clear: vec![BudgetPeriod::Day] },
        tokens_per_minute: Some(None),
        requests_per_minute: Some(Some(60)),
    };
    let KeyUpdate::Updated(updated) = s.update_key(&key.id, Some("renamed"), &change).await.unwrap() else {
        panic!("the key was not updated")
    };
    let expected = KeyLimits {
        budgets: vec![budget("50.000001/month"), budget("100/total")],
        tokens_per_minute: None,
        requests_per_minute: Some(60),
    };
    assert_eq!((updated.name.as_str(), &updated.limits), ("renamed", &expected));
    assert_eq!(other.get_key(&key.id).await.unwrap(), Some(updated.clone()));
    assert_eq!(other.find_key(&key.id).await.unwrap().unwrap().limits, expected);

    let twice = LimitsChange {
        budgets: BudgetsChange::Replace(vec![budget("1/week"), budget("2/week")]),
        ..LimitsChange::default()
    };
    assert!(matches!(s.update_key(&key.id, None, &twice).await.unwrap(), KeyUpdate::Invalid(_)));
    assert_eq!(s.update_key("nope", None, &change).await.unwrap(), KeyUpdate::NotFound);
    assert!(s.revoke_key(&key.id).await.unwrap());
    let KeyUpdate::Revoked(revoked) = s.update_key(&key.id, Some("again"), &change).await.unwrap() else {
        panic!("a revoked key was updated")
    };
    assert_eq!(revoked.name, "renamed");
    assert!(revoked.revoked_at.is_some());
}

async fn clients_keep_their_limits(t: Target) {
    let s = t.open().await;
    let budget = |text: &str| text.parse::<Budget>().unwrap();
    // Another process (or replica) reads what this one wrote.
    let other = t.open().await;
    assert_eq!(s.client_limits("acme").await.unwrap(), KeyLimits::default());
    let set = LimitsChange {
        budgets: BudgetsChange::Replace(vec![budget("20/day"), budget("0.5/total")]),
        tokens_per_minute: Some(Some(1000)),
        ..LimitsChange::default()
    };
    let limits = s.update_client_limits("acme", &set).await.unwrap().unwrap();
    assert_eq!(limits.budgets, vec![budget("20/day"), budget("0.5/total")]);
    assert_eq!(other.client_limits("acme").await.unwrap(), limits);
    assert_eq!(other.list_client_limits().await.unwrap(), vec![("acme".to_owned(), limits.clone())]);

    let twice =
        LimitsChange { budgets: BudgetsChange::Replace(vec![budget("1/day"), budget("2/day")]), ..set };
    assert!(s.update_client_limits("acme", &twice).await.unwrap().is_err(), "two budgets for one period");
    assert_eq!(other.client_limits("acme").await.unwrap(), limits, "a refused change leaves them");

    let clear = LimitsChange {
        budgets: BudgetsChange::Replace(Vec::new()),
        tokens_per_minute: Some(None),
        requests_per_minute: Some(None),
    };
    assert_eq!(s.update_client_limits("acme", &clear).await.unwrap().unwrap(), KeyLimits::default());
    assert!(other.list_client_limits().await.unwrap().is_empty(), "a client with no limits is not listed");
}
