//! What a plugin returns across the WIT boundary, as the host checks it (`plugins::call`,
//! `plugins::validate`, `plugins::outbound`): a paraphrase, a candidate list or a reply that passes is
//! not blank and within the cap; an `info()` that passes declares identifiers, each once; scores that
//! pass line up with the pairs, are declared, once each and finite, and give a finite overall score;
//! the upstream request a streaming chat model builds goes only where its allow-list lets it, without
//! the headers the client sets itself.

use crate::evaluate::weights::Weights;
use crate::plugins::api::{Paraphrased, PluginError, PluginErrorKind, PluginInfo, Score, ScoreInfo};
use crate::plugins::outbound::OutboundPolicy;
use crate::plugins::spec::HostPattern;
use crate::plugins::{
    MAX_OUTPUT_BYTES, candidates_problem, paraphrase_problem, reply_problem, validate_info, validate_scores,
};
use arbitrary::{Arbitrary, Result, Unstructured};

pub fn check(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let _ = match u.int_in_range(0..=5u8) {
        Ok(0) => paraphrase(&mut u),
        Ok(1) => candidates(&mut u),
        Ok(2) => reply(&mut u),
        Ok(3) => info(&mut u),
        Ok(4) => scores(&mut u),
        Ok(_) => stream_request(&mut u),
        Err(_) => Ok(()),
    };
}

/// A text as a plugin may return it: a piece repeated, so that the size cap is within reach.
fn text(u: &mut Unstructured) -> Result<String> {
    let piece = String::arbitrary(u)?;
    let times = if u.arbitrary::<bool>()? { u.int_in_range(1..=(MAX_OUTPUT_BYTES + 2) as u32)? } else { 1 };
    let times = (times as usize).min((MAX_OUTPUT_BYTES + 2) / piece.len().max(1) + 1);
    Ok(piece.repeat(times))
}

fn fits(text: &str) -> bool {
    !text.trim().is_empty() && text.len() <= MAX_OUTPUT_BYTES
}

fn paraphrase(u: &mut Unstructured) -> Result<()> {
    let mut out = Paraphrased { text: text(u)?, model: String::arbitrary(u)? };
    let (before, asked) = (out.model.clone(), "asked-model");
    let accepted = paraphrase_problem(&mut out, asked).is_ok();
    assert_eq!(accepted, fits(&out.text), "a paraphrase of {} bytes", out.text.len());
    if accepted {
        let expected = if before.trim().is_empty() { asked } else { before.as_str() };
        assert_eq!(out.model, expected, "the model a paraphrase names");
    }
    Ok(())
}

fn candidates(u: &mut Unstructured) -> Result<()> {
    let count = u.int_in_range(0..=8u32)?;
    let mut list = Vec::new();
    for _ in 0..u.int_in_range(0..=10u8)? {
        list.push(Paraphrased { text: String::arbitrary(u)?, model: String::arbitrary(u)? });
    }
    let accepted = candidates_problem(&mut list, count, "asked-model").is_ok();
    let expected = !list.is_empty() && list.len() <= count as usize && list.iter().all(|c| fits(&c.text));
    assert_eq!(accepted, expected, "{} candidates for a count of {count}", list.len());
    if accepted {
        assert!(list.iter().all(|c| !c.model.trim().is_empty()), "every candidate names its model");
    }
    Ok(())
}

fn reply(u: &mut Unstructured) -> Result<()> {
    let reply = text(u)?;
    assert_eq!(reply_problem(&reply).is_ok(), fits(&reply), "a reply of {} bytes", reply.len());
    Ok(())
}

fn identifier(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn declared(u: &mut Unstructured) -> Result<Vec<ScoreInfo>> {
    let mut scores = Vec::new();
    for _ in 0..u.int_in_range(0..=6u8)? {
        // Mostly names the weights use, so that valid declarations are common.
        let name = match u.int_in_range(0..=4u8)? {
            0 => String::arbitrary(u)?,
            n => {
                ["lexical_similarity", "word_overlap", "length_ratio", "bleu"][usize::from(n) - 1].to_owned()
            }
        };
        scores.push(ScoreInfo { name, description: String::new(), headline: u.arbitrary()? });
    }
    Ok(scores)
}

fn info(u: &mut Unstructured) -> Result<()> {
    let info = match u.int_in_range(0..=2u8)? {
        0 => PluginInfo::Provider { name: String::arbitrary(u)?, default_model: String::arbitrary(u)? },
        1 => PluginInfo::ChatModel { name: String::arbitrary(u)? },
        _ => PluginInfo::Metric { name: String::arbitrary(u)?, scores: declared(u)? },
    };
    let accepted = validate_info(&info).is_ok();
    let expected = match &info {
        PluginInfo::Provider { default_model, .. } => !default_model.trim().is_empty(),
        PluginInfo::ChatModel { .. } => true,
        PluginInfo::Metric { scores, .. } => {
            let mut names: Vec<&str> = scores.iter().map(|s| s.name.as_str()).collect();
            names.sort_unstable();
            names.dedup();
            !scores.is_empty() && names.len() == scores.len() && names.iter().all(|n| identifier(n))
        }
    };
    assert_eq!(accepted, expected, "{info:?}");
    Ok(())
}

fn scores(u: &mut Unstructured) -> Result<()> {
    let declared = declared(u)?;
    let info = PluginInfo::Metric { name: "metric".into(), scores: declared.clone() };
    let pairs = usize::from(u.int_in_range(0..=4u8)?);
    let mut results = Vec::new();
    for _ in 0..u.int_in_range(0..=5u8)? {
        if u.ratio(1, 5)? {
            results.push(Err(PluginError::new(PluginErrorKind::InvalidInput, String::arbitrary(u)?)));
            continue;
        }
        let mut scores = Vec::new();
        for _ in 0..u.int_in_range(0..=4u8)? {
            let name = match declared.is_empty() || u.ratio(1, 4)? {
                true => String::arbitrary(u)?,
                false => u.choose(&declared)?.name.clone(),
            };
            let value = match u.int_in_range(0..=3u8)? {
                0 => f64::arbitrary(u)?,
                1 => f64::from(u.int_in_range(-10_000..=10_000i32)?) / 100.0,
                2 => *u.choose(&[f64::NAN, f64::INFINITY, f64::NEG_INFINITY, f64::MAX, f64::MIN, -0.0])?,
                _ => f64::from(u.int_in_range(0..=100u8)?) / 100.0,
            };
            scores.push(Score { name, value });
        }
        results.push(Ok(scores));
    }
    let accepted = validate_scores(&info, pairs, &results).is_ok();
    let expected = results.len() == pairs
        && results.iter().flatten().all(|scores| {
            let mut names: Vec<&str> = scores.iter().map(|s| s.name.as_str()).collect();
            names.sort_unstable();
            names.dedup();
            names.len() == scores.len()
                && scores.iter().all(|s| s.value.is_finite() && declared.iter().any(|d| d.name == s.name))
        });
    assert_eq!(accepted, expected, "{results:?} for {pairs} pairs, declared {declared:?}");
    if accepted {
        for scores in results.iter().flatten() {
            let map = scores.iter().map(|s| (s.name.clone(), s.value)).collect();
            if let Some(overall) = Weights::default().overall(&map) {
                assert!(overall.is_finite(), "overall score {overall} of the accepted scores {scores:?}");
            }
        }
    }
    Ok(())
}

/// The one origin this policy allows.
const ALLOWED: &str = "https://api.example.com";

fn stream_request(u: &mut Unstructured) -> Result<()> {
    let url = match u.int_in_range(0..=2u8)? {
        0 => String::arbitrary(u)?,
        n => format!(
            "{}{}",
            ["https://api.example.com", "https://"][usize::from(n) - 1],
            String::arbitrary(u)?
        ),
    };
    let mut headers = Vec::new();
    for _ in 0..u.int_in_range(0..=4u8)? {
        let name = match u.ratio(1, 2)? {
            true => String::arbitrary(u)?,
            false => {
                (*u.choose(&["content-length", "host", "transfer-encoding", "x-api-key", "Upgrade"])?).into()
            }
        };
        headers.push((name, String::arbitrary(u)?));
    }
    let policy = OutboundPolicy::new(
        "fuzz".into(),
        vec![HostPattern::parse(ALLOWED).expect("a valid pattern")].into(),
        std::time::Duration::from_secs(1),
        1024,
        upstream(),
    );
    let sent = headers.iter().filter(|(name, _)| !name.eq_ignore_ascii_case("content-length")).count();
    let Ok(request) = policy.prepare(http::Method::POST, &url, headers, Vec::new()) else { return Ok(()) };
    let uri = request.uri();
    let host = uri.host().unwrap_or_default().trim_end_matches('.').to_ascii_lowercase();
    assert!(
        uri.scheme_str() == Some("https")
            && host == "api.example.com"
            && matches!(uri.port_u16(), None | Some(443)),
        "{url:?} reaches {uri}, outside {ALLOWED}"
    );
    let names = request.headers();
    assert!(
        wasmtime_wasi_http::DEFAULT_FORBIDDEN_HEADERS.iter().all(|name| !names.contains_key(name))
            && !names.contains_key(http::header::CONTENT_LENGTH),
        "a header the client sets itself: {names:?}"
    );
    assert_eq!(names.len(), sent, "every other header is sent");
    Ok(())
}

/// The process's outbound client, made once: `prepare` only checks and builds, it sends nothing.
fn upstream() -> crate::upstream::Upstream {
    static UPSTREAM: std::sync::OnceLock<crate::upstream::Upstream> = std::sync::OnceLock::new();
    UPSTREAM
        .get_or_init(|| crate::upstream::Upstream::new(&Default::default()).expect("the outbound client"))
        .clone()
}
