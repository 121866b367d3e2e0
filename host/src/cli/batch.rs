//! `--mode batch`: paraphrases a file of any length, one text per non-empty line, streaming: results
//! are written as they finish (in input order) and only the texts in flight are held in memory.
//!
//! The output format follows `--batch_output`'s extension: `.jsonl` writes one JSON object per line
//! (`line`, `original`, and `paraphrase`, `provider`, `model`, `cached` or `error`); `.tsv` writes
//! `source<TAB>paraphrase` (the structure of the seed's training files; tabs and newlines inside a
//! text become spaces, and failed lines are reported on stderr only); anything else writes the original
//! text blocks (`Original: …`, `Paraphrase: …` or `Error: …`, then a blank line). Without
//! `--batch_output`, text blocks go to stdout.

use crate::paraphrase::{Caller, ParaphraseRequest};
use crate::{Error, Parlance};
use futures::StreamExt;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::{BufRead, BufReader, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    JsonLines,
    Tsv,
    Text,
}

impl Format {
    pub fn for_path(path: Option<&Path>) -> Format {
        match path
            .and_then(|p| p.extension())
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase)
            .as_deref()
        {
            Some("jsonl") => Format::JsonLines,
            Some("tsv") => Format::Tsv,
            _ => Format::Text,
        }
    }
}

/// What a batch run did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Summary {
    pub total: usize,
    pub succeeded: usize,
    pub failed: usize,
    pub cached: usize,
    /// Paraphrases that are the original again (see [`crate::paraphrase::unchanged`]).
    pub unchanged: usize,
    pub interrupted: bool,
}

pub struct BatchJob {
    pub input: PathBuf,
    pub output: Option<PathBuf>,
    pub provider: Option<String>,
    pub model: Option<String>,
}

/// Counts the texts without keeping them, for the progress bar.
fn count_texts(path: &Path) -> std::io::Result<usize> {
    let reader = BufReader::new(std::fs::File::open(path)?);
    let mut n = 0;
    for line in reader.lines() {
        if !line?.trim().is_empty() {
            n += 1;
        }
    }
    Ok(n)
}

pub async fn run(parlance: &Parlance, job: BatchJob) -> anyhow::Result<Summary> {
    let total =
        count_texts(&job.input).map_err(|e| anyhow::anyhow!("cannot read {}: {e}", job.input.display()))?;
    let format = Format::for_path(job.output.as_deref());
    let mut out: Box<dyn Write + Send> = match &job.output {
        Some(path) => Box::new(std::io::BufWriter::new(
            std::fs::File::create(path)
                .map_err(|e| anyhow::anyhow!("cannot create {}: {e}", path.display()))?,
        )),
        None => Box::new(std::io::stdout()),
    };
    // Check the provider and model once, before the first line, so a typo fails fast.
    let service = parlance.paraphraser();
    let provider = service.provider(job.provider.as_deref())?;
    service.model(provider, job.model.as_deref())?;

    let progress = Progress::new(total);
    let stop = Arc::new(AtomicBool::new(false));
    let on_signal = stop.clone();
    tokio::spawn(async move {
        if tokio::signal::ctrl_c().await.is_ok() {
            eprintln!("\ninterrupted: finishing the texts in flight, then writing what is done");
            on_signal.store(true, Ordering::SeqCst);
        }
    });

    let file = std::fs::File::open(&job.input)?;
    let lines = BufReader::new(file).lines().enumerate().filter_map(|(i, line)| match line {
        Ok(text) if text.trim().is_empty() => None,
        Ok(text) => Some(Ok((i + 1, text))),
        Err(e) => Some(Err(e)),
    });
    let workers = service.config().batch_max_workers.max(1);
    let caller = Caller::local();
    let stop_feed = stop.clone();
    let results = futures::stream::iter(lines)
        .take_while(move |_| {
            let go = !stop_feed.load(Ordering::SeqCst);
            async move { go }
        })
        .map(|item| {
            let caller = &caller;
            let (provider, model) = (job.provider.clone(), job.model.clone());
            async move {
                let (line, text) = item?;
                let request = ParaphraseRequest { text: text.clone(), provider, model, skip_cache: false };
                Ok::<_, std::io::Error>((
                    line,
                    text,
                    service.paraphrase(&request, caller).await.map(|o| o.paraphrase),
                ))
            }
        })
        .buffered(workers);
    let mut results = std::pin::pin!(results);

    let started = Instant::now();
    let mut summary = Summary { total, ..Summary::default() };
    while let Some(item) = results.next().await {
        let (line, original, result) =
            item.map_err(|e| anyhow::anyhow!("reading {}: {e}", job.input.display()))?;
        match &result {
            Ok(p) => {
                summary.succeeded += 1;
                summary.cached += usize::from(p.cached);
                summary.unchanged += usize::from(p.unchanged);
            }
            Err(e) => {
                summary.failed += 1;
                progress.note(&format!("line {line}: {e}"));
            }
        }
        write_record(&mut out, format, line, &original, &result)?;
        out.flush()?;
        progress.advance(summary.succeeded + summary.failed, summary.failed);
    }
    summary.interrupted = stop.load(Ordering::SeqCst);
    progress.finish();
    eprintln!(
        "batch: {} of {} texts done in {:.1} s: {} succeeded ({} from the cache, {} unchanged), {} failed{}",
        summary.succeeded + summary.failed,
        summary.total,
        started.elapsed().as_secs_f64(),
        summary.succeeded,
        summary.cached,
        summary.unchanged,
        summary.failed,
        if summary.interrupted { "; interrupted" } else { "" }
    );
    Ok(summary)
}

fn one_line(text: &str) -> String {
    text.split(['\t', '\n', '\r']).collect::<Vec<_>>().join(" ")
}

fn write_record(
    out: &mut dyn Write,
    format: Format,
    line: usize,
    original: &str,
    result: &Result<crate::Paraphrase, Error>,
) -> std::io::Result<()> {
    match (format, result) {
        (Format::JsonLines, Ok(p)) => writeln!(
            out,
            "{}",
            serde_json::json!({"line": line, "original": original, "paraphrase": p.paraphrase, "provider": p.provider, "model": p.model, "cached": p.cached, "unchanged": p.unchanged})
        ),
        (Format::JsonLines, Err(e)) => {
            let api = crate::rest::ApiError::from_error(e);
            writeln!(
                out,
                "{}",
                serde_json::json!({"line": line, "original": original, "error": {"code": api.code, "message": api.message}})
            )
        }
        (Format::Tsv, Ok(p)) => writeln!(out, "{}\t{}", one_line(original), one_line(&p.paraphrase)),
        (Format::Tsv, Err(_)) => Ok(()),
        (Format::Text, Ok(p)) => writeln!(out, "Original: {original}\nParaphrase: {}\n", p.paraphrase),
        (Format::Text, Err(e)) => writeln!(out, "Original: {original}\nError: {e}\n"),
    }
}

/// A progress bar on a terminal, plain progress lines otherwise (logs, pipes, CI).
enum Progress {
    Bar(ProgressBar),
    Lines { total: usize, every: usize },
}

impl Progress {
    fn new(total: usize) -> Progress {
        if std::io::stderr().is_terminal() {
            let bar = ProgressBar::new(total as u64);
            bar.set_style(
                ProgressStyle::with_template(
                    "{spinner} [{elapsed_precise}] {bar:40} {pos}/{len} ({per_sec}, eta {eta}) {msg}",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            Progress::Bar(bar)
        } else {
            Progress::Lines { total, every: (total / 20).max(1) }
        }
    }

    fn advance(&self, done: usize, failed: usize) {
        match self {
            Progress::Bar(bar) => {
                bar.set_position(done as u64);
                if failed > 0 {
                    bar.set_message(format!("{failed} failed"));
                }
            }
            Progress::Lines { total, every } => {
                if done.is_multiple_of(*every) || done == *total {
                    eprintln!("batch: {done}/{total} done, {failed} failed");
                }
            }
        }
    }

    fn note(&self, message: &str) {
        match self {
            Progress::Bar(bar) => bar.println(message),
            Progress::Lines { .. } => eprintln!("{message}"),
        }
    }

    fn finish(&self) {
        if let Progress::Bar(bar) = self {
            bar.finish_and_clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn format_follows_the_extension() {
        assert_eq!(Format::for_path(Some(Path::new("out.jsonl"))), Format::JsonLines);
        assert_eq!(Format::for_path(Some(Path::new("out.TSV"))), Format::Tsv);
        assert_eq!(Format::for_path(Some(Path::new("out.txt"))), Format::Text);
        assert_eq!(Format::for_path(None), Format::Text);
    }

    #[test]
    fn tsv_rows_stay_rows() {
        assert_eq!(one_line("a\tb\nc"), "a b c");
    }
}
