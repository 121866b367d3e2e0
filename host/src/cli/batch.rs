//! `--mode batch`: paraphrases a file of any length, one text per non-empty line, streaming: results
//! are written as they finish (in input order) and only the texts in flight are held in memory.
//!
//! The output format follows `--batch_output`'s extension: `.jsonl` writes one JSON object per line
//! (`line`, `original`, and `paraphrase`, `provider`, `model`, `cached` or `error`); `.tsv` writes
//! `source<TAB>paraphrase` (the structure of the seed's training files, in the dialect `--evaluate_file`
//! reads, so a text holding a tab, a quote or a line break is quoted and reads back unchanged; failed
//! lines are reported on stderr only); anything else writes the original text blocks (`Original: …`,
//! `Paraphrase: …` or `Error: …`, then a blank line). Without `--batch_output`, text blocks go to
//! stdout. A single `--decode_input` text is a batch of one, written the same way.
//!
//! With `--candidates`, `--min_score` or `--rank_by`, each `.jsonl` line also carries `candidates`
//! (every one with its scores and whether it passed), `requested`, `written`, `removed` and any
//! `warnings` (among them why fewer were kept than asked for), as the API's answer does; `.tsv`
//! writes one row per kept candidate (each that passed the floors, best first; the best overall when
//! none did); text blocks list them as `Candidate: …` lines. The closing summary on stderr counts the
//! texts that kept fewer candidates than were asked for.

use super::shared::{FLAG_WORDS, in_cli_words};
use crate::paraphrase::{Caller, ParaphraseRequest, Selection};
use crate::ratelimit::Quota;
use crate::{Error, Parlance};
use futures::StreamExt;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::{BufRead, BufReader, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

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
    /// Texts that kept fewer candidates than were asked for (see [`shortfall_note`]).
    pub short: usize,
    pub interrupted: bool,
}

/// Texts with their line numbers, read as they are needed.
type Texts = Box<dyn Iterator<Item = std::io::Result<(usize, String)>> + Send>;

/// What a batch paraphrases.
pub enum BatchInput {
    /// A file of one text per line; blank lines are skipped.
    File(PathBuf),
    /// One text (`--decode_input`).
    Text(String),
}

impl BatchInput {
    fn name(&self) -> String {
        match self {
            BatchInput::File(path) => path.display().to_string(),
            BatchInput::Text(_) => "--decode_input".into(),
        }
    }

    /// How an input error names a text: a line of the file, or the flag.
    fn words(&self) -> &'static [(&'static str, &'static str)] {
        match self {
            BatchInput::File(_) => &[("`text`", "the text"), ("`model`", "--model")],
            BatchInput::Text(_) => FLAG_WORDS,
        }
    }

    /// The texts with their line numbers, read as they are needed.
    fn texts(&self) -> std::io::Result<Texts> {
        Ok(match self {
            BatchInput::File(path) => {
                let lines = BufReader::new(std::fs::File::open(path)?).lines();
                Box::new(lines.enumerate().filter_map(|(i, line)| match line {
                    Ok(text) if text.trim().is_empty() => None,
                    Ok(text) => Some(Ok((i + 1, text))),
                    Err(e) => Some(Err(e)),
                }))
            }
            BatchInput::Text(text) => Box::new(std::iter::once(Ok((1, text.clone())))),
        })
    }

    /// Counts the texts without keeping them, for the progress bar.
    fn count(&self) -> std::io::Result<usize> {
        let mut n = 0;
        for text in self.texts()? {
            text?;
            n += 1;
        }
        Ok(n)
    }
}

pub struct BatchJob {
    pub input: BatchInput,
    pub output: Option<PathBuf>,
    pub provider: Option<String>,
    pub model: Option<String>,
    /// Several candidates per text, when the flags ask for them.
    pub selection: Option<Selection>,
}

/// The texts a result keeps: every candidate that passed, best first, or the paraphrase alone when
/// none did or none was asked for.
pub fn kept(result: &crate::Paraphrase) -> Vec<&str> {
    let passed: Vec<&str> =
        result.candidates.iter().flatten().filter(|c| c.passed).map(|c| c.text.as_str()).collect();
    if passed.is_empty() { vec![result.paraphrase.as_str()] } else { passed }
}

/// Why a result keeps fewer candidates than were asked for, counted as [`kept`] keeps them: how
/// many the provider wrote, and how many deduplication and the floors took; `None` when it keeps as
/// many. When none is left to keep, it says what is printed in its place.
pub fn shortfall_note(result: &crate::Paraphrase) -> Option<String> {
    let (candidates, requested) = (result.candidates.as_ref()?, result.requested?);
    let passed = candidates.iter().filter(|c| c.passed).count();
    if passed >= requested {
        return None;
    }
    let removed = result.removed.unwrap_or_default();
    let written = result.written.unwrap_or(candidates.len() + removed.duplicates + removed.unchanged);
    let was = |n: usize| if n == 1 { "was" } else { "were" };
    let mut parts = vec![format!("the provider wrote {written}")];
    if removed.duplicates > 0 {
        let n = removed.duplicates;
        parts.push(format!("{n} {} {}", was(n), if n == 1 { "a duplicate" } else { "duplicates" }));
    }
    if removed.unchanged > 0 {
        parts.push(format!("{} {} the text unchanged", removed.unchanged, was(removed.unchanged)));
    }
    let below = candidates.len() - passed;
    if below > 0 {
        parts.push(format!("{below} did not meet the floors"));
    }
    let mut note = format!("{passed} of {requested} candidates: {}", parts.join(", "));
    if passed == 0 {
        note += if candidates.is_empty() {
            "; the text is printed as it was"
        } else {
            "; the best of those below the floors is printed"
        };
    }
    Some(note)
}

pub async fn run(parlance: &Parlance, job: BatchJob) -> anyhow::Result<Summary> {
    let input = job.input.name();
    let total = job.input.count().map_err(|e| anyhow::anyhow!("cannot read {input}: {e}"))?;
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
    let words = job.input.words();
    let provider = service.provider(job.provider.as_deref())?;
    service.model(provider, job.model.as_deref()).map_err(|e| in_cli_words(e, words))?;
    if let Some(selection) = &job.selection {
        let template = ParaphraseRequest {
            text: String::new(),
            provider: job.provider.clone(),
            model: job.model.clone(),
            skip_cache: false,
            fallbacks: Default::default(),
        };
        service.check_selection(&template, selection).map_err(|e| in_cli_words(e, words))?;
    }

    let quota = service.rate_limits().quota(provider.id());
    let mut progress = Progress::new(total, provider.id(), quota);
    let stop = Arc::new(AtomicBool::new(false));
    let on_signal = stop.clone();
    tokio::spawn(async move {
        if tokio::signal::ctrl_c().await.is_ok() {
            eprintln!("\ninterrupted: finishing the texts in flight, then writing what is done");
            on_signal.store(true, Ordering::SeqCst);
        }
    });

    let lines = job.input.texts().map_err(|e| anyhow::anyhow!("cannot read {input}: {e}"))?;
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
            let selection = job.selection.as_ref();
            async move {
                let (line, text) = item?;
                let request = ParaphraseRequest { text: text.clone(), provider, model, ..Default::default() };
                let outcome = service
                    .paraphrase_with(&request, selection, caller)
                    .await
                    .map_err(|e| in_cli_words(e, words));
                let waited = outcome.as_ref().map_or(Duration::ZERO, |o| o.waited);
                Ok::<_, std::io::Error>((line, text, outcome.map(|o| o.paraphrase), waited))
            }
        })
        .buffered(workers);
    let mut results = std::pin::pin!(results);

    let started = Instant::now();
    let mut summary = Summary { total, ..Summary::default() };
    while let Some(item) = results.next().await {
        let (line, original, result, waited) = item.map_err(|e| anyhow::anyhow!("reading {input}: {e}"))?;
        if !waited.is_zero() {
            progress.pacing(summary.succeeded + summary.failed);
        }
        match &result {
            Ok(p) => {
                summary.succeeded += 1;
                summary.cached += usize::from(p.cached);
                summary.unchanged += usize::from(p.unchanged);
                summary.short += usize::from(shortfall_note(p).is_some());
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
    // Which texts fell short, and why, is each `.jsonl` line's to say (`warnings`); the other formats
    // have no room for it, so the count at least is said here.
    let short = match summary.short {
        0 => String::new(),
        n => {
            format!("; {n} kept fewer candidates than were asked for (a .jsonl output's `warnings` say why)")
        }
    };
    eprintln!(
        "batch: {} of {} texts done in {:.1} s: {} succeeded ({} from the cache, {} unchanged), {} failed{short}{}",
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

fn write_record(
    out: &mut dyn Write,
    format: Format,
    line: usize,
    original: &str,
    result: &Result<crate::Paraphrase, Error>,
) -> std::io::Result<()> {
    match (format, result) {
        (Format::JsonLines, Ok(p)) => {
            let mut record = serde_json::json!({"line": line, "original": original, "paraphrase": p.paraphrase, "provider": p.provider, "model": p.model, "cached": p.cached, "unchanged": p.unchanged});
            if p.candidates.is_some() {
                record["candidates"] = serde_json::json!(p.candidates);
                record["requested"] = serde_json::json!(p.requested);
                record["written"] = serde_json::json!(p.written);
                record["removed"] = serde_json::json!(p.removed);
            }
            if let Some(warnings) = &p.warnings {
                record["warnings"] = serde_json::json!(warnings);
            }
            writeln!(out, "{record}")
        }
        (Format::JsonLines, Err(e)) => {
            let api = crate::rest::ApiError::from_error(e);
            writeln!(
                out,
                "{}",
                serde_json::json!({"line": line, "original": original, "error": {"code": api.code, "message": api.message}})
            )
        }
        (Format::Tsv, Ok(p)) => kept(p)
            .into_iter()
            .try_for_each(|text| out.write_all(super::tsv::record(&[original, text]).as_bytes())),
        (Format::Tsv, Err(_)) => Ok(()),
        (Format::Text, Ok(p)) if p.candidates.is_some() => {
            let lines: String = kept(p).into_iter().map(|text| format!("Candidate: {text}\n")).collect();
            writeln!(out, "Original: {original}\nParaphrase: {}\n{lines}", p.paraphrase)
        }
        (Format::Text, Ok(p)) => writeln!(out, "Original: {original}\nParaphrase: {}\n", p.paraphrase),
        (Format::Text, Err(e)) => writeln!(out, "Original: {original}\nError: {e}\n"),
    }
}

/// A progress bar on a terminal, plain progress lines otherwise (logs, pipes, CI). Once the provider's
/// rate limit paces the run, each update says so and when the run should end.
struct Progress {
    display: Display,
    total: usize,
    provider: String,
    quota: Quota,
    /// Set once a call had to wait for the quota.
    paced: bool,
}

enum Display {
    Bar(ProgressBar),
    Lines { every: usize, last: Instant },
}

/// The longest a run goes without a progress line off a terminal.
const QUIET_AT_MOST: Duration = Duration::from_secs(30);

impl Progress {
    fn new(total: usize, provider: &str, quota: Quota) -> Progress {
        let display = if std::io::stderr().is_terminal() {
            let bar = ProgressBar::new(total as u64);
            bar.set_style(
                ProgressStyle::with_template(
                    "{spinner} [{elapsed_precise}] {bar:40} {pos}/{len} ({per_sec}, eta {eta}) {msg}",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            Display::Bar(bar)
        } else {
            Display::Lines { every: (total / 20).max(1), last: Instant::now() }
        };
        Progress { display, total, provider: provider.to_owned(), quota, paced: false }
    }

    /// A call waited for the rate limit: from now on the run goes at the limit's pace.
    fn pacing(&mut self, done: usize) {
        if self.paced {
            return;
        }
        self.paced = true;
        if let Some(note) = self.pace_note(done) {
            self.note(&format!("batch: {note}"));
        }
    }

    /// Under pacing, the pace and the expected end: the texts left, one per interval of the quota
    /// (an upper bound: cache hits cost no call).
    fn pace_note(&self, done: usize) -> Option<String> {
        let per_minute = self.quota.per_minute().filter(|_| self.paced)?;
        let left = self.total.saturating_sub(done);
        let eta = Duration::from_secs(60) * u32::try_from(left).unwrap_or(u32::MAX) / per_minute;
        Some(format!(
            "paced by the rate limit of `{}` ({per_minute} calls a minute); {left} left, expected to finish {}",
            self.provider,
            finish_time(eta)
        ))
    }

    fn advance(&mut self, done: usize, failed: usize) {
        let pace = self.pace_note(done);
        let total = self.total;
        match &mut self.display {
            Display::Bar(bar) => {
                bar.set_position(done as u64);
                let failed = (failed > 0).then(|| format!("{failed} failed"));
                let message: Vec<String> = failed.into_iter().chain(pace).collect();
                bar.set_message(message.join("; "));
            }
            Display::Lines { every, last } => {
                if done.is_multiple_of(*every) || done == total || last.elapsed() >= QUIET_AT_MOST {
                    let pace = pace.map(|p| format!("; {p}")).unwrap_or_default();
                    eprintln!("batch: {done}/{total} done, {failed} failed{pace}");
                    *last = Instant::now();
                }
            }
        }
    }

    fn note(&self, message: &str) {
        match &self.display {
            Display::Bar(bar) => bar.println(message),
            Display::Lines { .. } => eprintln!("{message}"),
        }
    }

    fn finish(&self) {
        if let Display::Bar(bar) = &self.display {
            bar.finish_and_clear();
        }
    }
}

/// `in 49 min 12 s (at 14:03:12 UTC)`.
fn finish_time(eta: Duration) -> String {
    let secs = eta.as_secs();
    let span = match (secs / 3600, secs % 3600 / 60, secs % 60) {
        (0, 0, s) => format!("{s} s"),
        (0, m, s) => format!("{m} min {s} s"),
        (h, m, _) => format!("{h} h {m} min"),
    };
    let at = time::OffsetDateTime::now_utc() + eta;
    let clock = at.format(time::macros::format_description!("[hour]:[minute]:[second]")).unwrap_or_default();
    format!("in {span} (at {clock} UTC)")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shortfall_is_noted_in_the_words_of_what_is_printed() {
        use crate::paraphrase::{Candidate, Removed};
        let answer = |requested: usize, passed: &[bool], duplicates, unchanged| {
            let mut answer = crate::Paraphrase::new("t".into(), "p".into(), "p".into(), "m".into(), false);
            let candidate = |passed| Candidate {
                text: "c".into(),
                provider: "p".into(),
                model: "m".into(),
                scores: Default::default(),
                passed,
            };
            answer.candidates = Some(passed.iter().map(|&p| candidate(p)).collect());
            answer.requested = Some(requested);
            answer.removed = Some(Removed { duplicates, unchanged });
            answer
        };
        assert_eq!(shortfall_note(&answer(2, &[true, true], 0, 0)), None);
        assert_eq!(
            shortfall_note(&answer(5, &[true], 1, 0)).unwrap(),
            "1 of 5 candidates: the provider wrote 2, 1 was a duplicate"
        );
        assert_eq!(
            shortfall_note(&answer(3, &[true, false], 0, 2)).unwrap(),
            "1 of 3 candidates: the provider wrote 4, 2 were the text unchanged, 1 did not meet the floors"
        );
        assert_eq!(
            shortfall_note(&answer(3, &[false], 2, 0)).unwrap(),
            "0 of 3 candidates: the provider wrote 3, 2 were duplicates, 1 did not meet the floors; the best \
             of those below the floors is printed"
        );
        assert_eq!(
            shortfall_note(&answer(5, &[], 0, 1)).unwrap(),
            "0 of 5 candidates: the provider wrote 1, 1 was the text unchanged; the text is printed as it was"
        );
    }

    #[test]
    fn format_follows_the_extension() {
        assert_eq!(Format::for_path(Some(Path::new("out.jsonl"))), Format::JsonLines);
        assert_eq!(Format::for_path(Some(Path::new("out.TSV"))), Format::Tsv);
        assert_eq!(Format::for_path(Some(Path::new("out.txt"))), Format::Text);
        assert_eq!(Format::for_path(None), Format::Text);
    }

    #[test]
    fn a_paced_run_says_how_fast_it_goes_and_when_it_ends() {
        let progress = |quota, paced| Progress {
            display: Display::Lines { every: 1, last: Instant::now() },
            total: 3000,
            provider: "openrouter".into(),
            quota,
            paced,
        };
        assert_eq!(progress(Quota::from_per_minute(60), false).pace_note(60), None, "not paced yet");
        assert_eq!(progress(Quota::Unlimited, true).pace_note(60), None);
        let note = progress(Quota::from_per_minute(60), true).pace_note(60).unwrap();
        assert!(
            note.starts_with(
                "paced by the rate limit of `openrouter` (60 calls a minute); 2940 left, expected to finish \
                 in 49 min 0 s (at "
            ) && note.ends_with(" UTC)"),
            "{note}"
        );
        assert_eq!(finish_time(Duration::from_secs(61)).split(" (").next(), Some("in 1 min 1 s"));
    }
}
