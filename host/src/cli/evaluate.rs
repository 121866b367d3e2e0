//! `--mode evaluate`: scores one pair (`--evaluate_original`, `--evaluate_paraphrase`) or a dataset of
//! `source<TAB>paraphrase` lines (`--evaluate_file`), as a table or, with `--json`, as JSON.

use crate::Parlance;
use crate::evaluate::summary::Summary;
use crate::evaluate::{EvalOptions, PairEvaluation};
use crate::plugins::api::Pair;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;

/// Pairs sent to the metrics at once when a file streams through.
const FILE_BATCH: usize = 512;

fn options(parlance: &Parlance) -> EvalOptions {
    EvalOptions { include_semantic: parlance.config().embeddings.is_some(), detail: false }
}

pub async fn pair(parlance: &Parlance, original: &str, paraphrase: &str, json: bool) -> anyhow::Result<()> {
    let pair = Pair { original: original.to_owned(), paraphrase: paraphrase.to_owned() };
    let result =
        parlance.evaluator().evaluate(std::slice::from_ref(&pair), options(parlance)).await?.remove(0);
    let weights = parlance.evaluator().weights().as_map();
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

/// Evaluates a TSV dataset in batches, reporting malformed lines by number, and returns the summary.
pub async fn file(parlance: &Parlance, path: &Path) -> anyhow::Result<Summary> {
    let reader = BufReader::new(
        std::fs::File::open(path).map_err(|e| anyhow::anyhow!("cannot read {}: {e}", path.display()))?,
    );
    let mut summary = Summary::default();
    let mut batch = Vec::with_capacity(FILE_BATCH);
    for (i, line) in reader.lines().enumerate() {
        let line = line.map_err(|e| anyhow::anyhow!("{}: line {}: {e}", path.display(), i + 1))?;
        let line = line.strip_suffix('\r').unwrap_or(&line);
        if line.trim().is_empty() {
            continue;
        }
        match line.split('\t').collect::<Vec<_>>()[..] {
            [original, paraphrase] => {
                batch.push(Pair { original: original.to_owned(), paraphrase: paraphrase.to_owned() })
            }
            ref fields => {
                eprintln!(
                    "{}: line {}: skipped: expected source<TAB>paraphrase, found {} field{}",
                    path.display(),
                    i + 1,
                    fields.len(),
                    if fields.len() == 1 { "" } else { "s" }
                );
                summary.fail();
            }
        }
        if batch.len() == FILE_BATCH {
            evaluate_into(parlance, &mut batch, &mut summary).await?;
        }
    }
    evaluate_into(parlance, &mut batch, &mut summary).await?;
    Ok(summary)
}

async fn evaluate_into(
    parlance: &Parlance,
    batch: &mut Vec<Pair>,
    summary: &mut Summary,
) -> anyhow::Result<()> {
    if batch.is_empty() {
        return Ok(());
    }
    let results = parlance.evaluator().evaluate(batch, options(parlance)).await?;
    for r in &results {
        if r.evaluation.scores.is_empty() {
            summary.fail();
        } else {
            summary.add(&r.evaluation);
        }
    }
    batch.clear();
    Ok(())
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
