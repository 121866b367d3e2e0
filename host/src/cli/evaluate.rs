//! `--mode evaluate`: scores one pair (`--evaluate_original`, `--evaluate_paraphrase`) or a dataset of
//! `source<TAB>paraphrase` lines (`--evaluate_file`), as a table or, with `--json`, as JSON. The
//! semantic metrics run with `--include_semantic`, as the API's `include_semantic`.

use crate::Parlance;
use crate::evaluate::summary::Summary;
use crate::evaluate::{EvalOptions, PairEvaluation};
use crate::plugins::api::Pair;
use std::io::Write;
use std::path::Path;

pub async fn pair(
    parlance: &Parlance,
    original: &str,
    paraphrase: &str,
    options: EvalOptions,
    json: bool,
) -> anyhow::Result<()> {
    // The service counts pairs; here there is one, given by two flags.
    let words = [("pair 0 has a text of", "--evaluate_original or --evaluate_paraphrase has")];
    let result = parlance
        .evaluate_paraphrase_with(original, paraphrase, options)
        .await
        .map_err(|e| super::shared::in_cli_words(e, &words))?;
    let weights = parlance.evaluator().weights().used([&result.evaluation.scores]);
    let mut out = std::io::stdout().lock();
    if json {
        let body = serde_json::json!({
            "original": original,
            "paraphrase": paraphrase,
            "evaluation": result.evaluation,
            "weights": weights,
            "warnings": result.warnings,
        });
        writeln!(out, "{}", serde_json::to_string_pretty(&body)?)?;
        return Ok(());
    }
    print_pair(&mut out, &result, &weights)?;
    Ok(())
}

fn print_pair(
    out: &mut dyn Write,
    result: &PairEvaluation,
    weights: &std::collections::BTreeMap<String, f64>,
) -> std::io::Result<()> {
    let width =
        result.evaluation.scores.keys().map(String::len).max().unwrap_or(0).max("overall_score".len());
    writeln!(out, "{:<width$}  {:>10}  WEIGHT", "SCORE", "VALUE")?;
    for (name, value) in &result.evaluation.scores {
        let weight = weights.get(name).map(|w| format!("{w}")).unwrap_or_default();
        writeln!(out, "{name:<width$}  {value:>10.4}  {weight}")?;
    }
    match result.evaluation.overall_score {
        Some(v) => writeln!(out, "{:<width$}  {v:>10.4}", "overall_score")?,
        None => writeln!(out, "{:<width$}  {:>10}", "overall_score", "n/a")?,
    }
    for w in &result.warnings {
        writeln!(out, "warning: {w}")?;
    }
    Ok(())
}

/// Header names a dataset's first line may carry; such a line is a header, not a pair.
const SOURCE_HEADERS: &[&str] = &["source", "src", "original", "reference", "input", "text"];
const TARGET_HEADERS: &[&str] = &["paraphrase", "target", "tgt", "hypothesis", "output"];

/// Evaluates a TSV dataset of `source<TAB>paraphrase` records, streaming it through the library's
/// dataset evaluation. Fields may be quoted as Python's `csv` module writes them (the dialect of
/// [`super::tsv`], which `--batch_output FILE.tsv` writes too); a header line is recognised and skipped;
/// a malformed record, or one with a text over the evaluation's length limit, is reported by its line
/// number, skipped and counted as failed.
pub async fn file(parlance: &Parlance, path: &Path, options: EvalOptions) -> anyhow::Result<Summary> {
    let file =
        std::fs::File::open(path).map_err(|e| anyhow::anyhow!("cannot read {}: {e}", path.display()))?;
    let reader = super::tsv::reader(file);
    let malformed = std::cell::Cell::new(0u64);
    // Checked here, where the line is known, so that one long text skips its own line instead of failing
    // the chunk of pairs it would be evaluated with.
    let evaluator = parlance.evaluator();
    let limit = evaluator.config().max_text_chars;
    let pairs = reader.into_records().enumerate().filter_map(|(i, record)| {
        let skip = |line: u64, why: String| {
            eprintln!("{}: line {line}: skipped: {why}", path.display());
            malformed.set(malformed.get() + 1);
            None
        };
        let record = match record {
            Ok(r) => r,
            Err(e) => {
                let line = e.position().map_or(0, |p| p.line());
                return skip(line, e.to_string());
            }
        };
        let line = record.position().map_or(0, |p| p.line());
        match (record.len(), record.get(0), record.get(1)) {
            (2, Some(original), Some(paraphrase)) => {
                let is_header = i == 0
                    && SOURCE_HEADERS.contains(&original.trim().to_ascii_lowercase().as_str())
                    && TARGET_HEADERS.contains(&paraphrase.trim().to_ascii_lowercase().as_str());
                if is_header {
                    eprintln!("{}: line 1 is a header ({original}, {paraphrase}); skipped", path.display());
                    return None;
                }
                let pair = Pair { original: original.to_owned(), paraphrase: paraphrase.to_owned() };
                if let Some(chars) = evaluator.too_long(&pair) {
                    return skip(
                        line,
                        format!(
                            "a text of {chars} characters; the limit is {limit} ([evaluate] max_text_chars)"
                        ),
                    );
                }
                Some(pair)
            }
            (1, Some(""), _) => None,
            (n, _, _) => skip(
                line,
                format!("expected source<TAB>paraphrase, found {n} field{}", if n == 1 { "" } else { "s" }),
            ),
        }
    });
    let mut summary = parlance.evaluate_dataset(pairs, options).await?;
    summary.failed += malformed.get();
    Ok(summary)
}

pub fn print_summary(summary: &Summary, json: bool) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    if json {
        writeln!(out, "{}", serde_json::to_string_pretty(summary)?)?;
        return Ok(());
    }
    writeln!(out, "pairs evaluated: {}   failed: {}", summary.pairs, summary.failed)?;
    let width = summary.metrics.keys().map(String::len).max().unwrap_or(5).max(5);
    writeln!(
        out,
        "{:<width$}  {:>12}  {:>12}  {:>12}  {:>12}  {:>7}",
        "SCORE", "MEAN", "MIN", "MAX", "STD", "N"
    )?;
    for (name, s) in &summary.metrics {
        writeln!(
            out,
            "{name:<width$}  {:>12.6}  {:>12.6}  {:>12.6}  {:>12.6}  {:>7}",
            s.mean, s.min, s.max, s.std, s.count
        )?;
    }
    Ok(())
}
