//! Evaluation: every configured metric plugin scores a batch of (original, paraphrase) pairs in one
//! call each; the scores are flattened into one evaluation per pair, and the overall score is the
//! weighted mean of the transformed scores that are present.

mod evaluation;
pub mod routes;
mod settings;
pub mod summary;
pub mod weights;

use crate::error::{Error, Result};
use crate::plugins::api::{CallError, CallFailure, CallScope, Pair, PluginInfo, PluginKind};
use crate::plugins::{Plugin, PluginHost};
pub use evaluation::{EvalOptions, Evaluation, PairEvaluation};
use futures::StreamExt;
pub use settings::EvaluateConfig;
use std::collections::BTreeMap;
use std::sync::Arc;
use summary::Summary;
use weights::Weights;

/// Pairs per metric call: large enough to amortise an instantiation, small enough to keep a call well
/// inside its time and memory limits.
const PAIRS_PER_CALL: usize = 256;

pub struct EvaluateService {
    config: EvaluateConfig,
    plugins: Arc<PluginHost>,
    weights: Weights,
    embeddings_configured: bool,
}

impl EvaluateService {
    /// Fails when two of the metrics in use declare the same score name, since the evaluation is one
    /// flat object and one would hide the other, and when the operator's `[evaluate.weights]` names a
    /// score that no metric declares (a misspelt name would silently weigh nothing).
    pub fn new(
        config: EvaluateConfig,
        plugins: Arc<PluginHost>,
        embeddings_configured: bool,
    ) -> Result<Self> {
        let weights = config.weights.clone();
        let service = EvaluateService { config, plugins, weights, embeddings_configured };
        let mut owners: BTreeMap<&str, &str> = BTreeMap::new();
        for plugin in service.metrics() {
            if let PluginInfo::Metric { scores, .. } = &plugin.info {
                for score in scores {
                    if let Some(other) = owners.insert(&score.name, plugin.id()) {
                        return Err(crate::config::ConfigError::one(format!(
                            "the metrics `{other}` and `{}` both declare the score `{}`; list the ones to use in \
                             [evaluate] metrics, or disable one with `enabled = false`",
                            plugin.id(),
                            score.name
                        ))
                        .into());
                    }
                }
            }
        }
        if service.weights != Weights::default() {
            let declared: Vec<&str> = service
                .plugins
                .of_kind(PluginKind::Metric)
                .flat_map(|p| match &p.info {
                    PluginInfo::Metric { scores, .. } => scores.iter().map(|s| s.name.as_str()).collect(),
                    _ => Vec::new(),
                })
                .collect();
            let unknown: Vec<&str> = service
                .weights
                .entries
                .keys()
                .map(String::as_str)
                .filter(|n| !declared.contains(n))
                .collect();
            if !unknown.is_empty() {
                return Err(crate::config::ConfigError::one(format!(
                    "[evaluate.weights] names {}, which no metric plugin declares (declared: {})",
                    unknown.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", "),
                    declared.join(", ")
                ))
                .into());
            }
        }
        Ok(service)
    }

    pub fn weights(&self) -> &Weights {
        &self.weights
    }

    pub fn config(&self) -> &EvaluateConfig {
        &self.config
    }

    /// The metric plugins in evaluation order: the configured list, or every metric plugin.
    fn metrics(&self) -> Vec<&Arc<Plugin>> {
        match &self.config.metrics {
            Some(ids) => ids.iter().filter_map(|id| self.plugins.get(id)).collect(),
            None => self.plugins.of_kind(PluginKind::Metric).collect(),
        }
    }

    /// The scores an evaluation with the semantic metrics and without detail carries: every headline
    /// score of the metrics in use (the semantic ones when an embedding backend is configured), and
    /// `overall_score`.
    pub fn score_names(&self) -> Vec<String> {
        let mut names: Vec<String> = self
            .metrics()
            .into_iter()
            .filter(|p| !self.is_semantic(p) || self.embeddings_configured)
            .flat_map(|p| headline_names(p))
            .collect();
        names.push("overall_score".to_owned());
        names
    }

    /// Why the score `name` of a metric in use cannot be computed by this server, when it cannot: a
    /// semantic metric's, without an embedding backend. [`EvaluateService::score_names`] leaves such a
    /// score out; this says why to whoever asked for it.
    pub fn unavailable_score(&self, name: &str) -> Option<String> {
        if self.embeddings_configured {
            return None;
        }
        let semantic = self.metrics().into_iter().filter(|p| self.is_semantic(p));
        semantic.flat_map(|p| headline_names(p)).any(|n| n == name).then(|| {
            format!(
                "`{name}` needs an embedding backend, and none is configured: {}",
                crate::embeddings::HOW_TO_GET_ONE
            )
        })
    }

    pub fn is_semantic(&self, plugin: &Plugin) -> bool {
        self.config.semantic_metrics.iter().any(|id| id == plugin.id())
    }

    /// The length in characters of the pair's longer text, when it is over `max_text_chars`.
    pub fn too_long(&self, pair: &Pair) -> Option<usize> {
        let chars = pair.original.chars().count().max(pair.paraphrase.chars().count());
        (chars > self.config.max_text_chars).then_some(chars)
    }

    /// The pairs of a batch as `POST /evaluate/batch` takes it, two lists: as many paraphrases as
    /// originals, at least one pair and at most `max_pairs`.
    pub fn batch_pairs(&self, originals: Vec<String>, paraphrases: Vec<String>) -> Result<Vec<Pair>> {
        let max = self.config.max_pairs;
        if originals.len() != paraphrases.len() {
            return Err(Error::invalid(
                "paraphrases",
                format!(
                    "`originals` has {} items but `paraphrases` has {}",
                    originals.len(),
                    paraphrases.len()
                ),
            ));
        }
        if originals.is_empty() {
            return Err(Error::invalid("originals", "`originals` is empty"));
        }
        if originals.len() > max {
            return Err(Error::invalid(
                "originals",
                format!("{} pairs; the limit is {max}", originals.len()),
            ));
        }
        Ok(originals
            .into_iter()
            .zip(paraphrases)
            .map(|(original, paraphrase)| Pair { original, paraphrase })
            .collect())
    }

    /// Scores every pair with every metric, for `client` (whose share of the instance pool the calls
    /// take). Any number of pairs, each text at most `max_text_chars`: a batch's (counted by
    /// [`EvaluateService::batch_pairs`]), one pair, or a dataset's, a slice at a time. A metric that
    /// fails a pair leaves its scores out of that pair with a warning; a metric that fails a whole call
    /// does the same for the call's pairs.
    pub async fn evaluate(
        &self,
        pairs: &[Pair],
        options: EvalOptions,
        client: &str,
    ) -> Result<Vec<PairEvaluation>> {
        for (i, p) in pairs.iter().enumerate() {
            if let Some(chars) = self.too_long(p) {
                return Err(Error::invalid(
                    "pairs",
                    format!(
                        "pair {i} has a text of {chars} characters; the limit is {}",
                        self.config.max_text_chars
                    ),
                ));
            }
        }
        let mut out: Vec<PairEvaluation> = pairs
            .iter()
            .map(|_| PairEvaluation { evaluation: Evaluation::default(), warnings: vec![] })
            .collect();
        let mut jobs = Vec::new();
        for plugin in self.metrics() {
            if self.is_semantic(plugin) {
                if !options.include_semantic {
                    continue;
                }
                if !self.embeddings_configured {
                    let warning = format!(
                        "{} was not computed: no embedding backend is configured, and the score needs one; {}",
                        headline_names(plugin).join(", "),
                        crate::embeddings::HOW_TO_GET_ONE
                    );
                    out.iter_mut().for_each(|p| p.warnings.push(warning.clone()));
                    continue;
                }
            }
            for (chunk_index, chunk) in pairs.chunks(PAIRS_PER_CALL).enumerate() {
                jobs.push((plugin.clone(), chunk_index * PAIRS_PER_CALL, chunk.to_vec()));
            }
        }
        // Each call is its own task, so a large batch uses every core; at most `call_width` of this
        // request's calls are in flight, so one large batch cannot hold every instance slot while
        // other requests wait. Results are taken in job order, so a pair's warnings always come in
        // metric order.
        let calls = jobs.into_iter().map(|(plugin, offset, chunk)| {
            let host = self.plugins.clone();
            let client = client.to_owned();
            // A task of its own does not inherit the caller's scope: it is handed over.
            let scope = CallScope::current();
            async move {
                let task = tokio::spawn({
                    let plugin = plugin.clone();
                    scope.scoped(async move { host.evaluate(&plugin, &client, &chunk).await })
                });
                let result = match task.await {
                    Ok(result) => result,
                    Err(e) if e.is_panic() => std::panic::resume_unwind(e.into_panic()),
                    Err(_) => Err(CallError::new(
                        plugin.id(),
                        CallFailure::NotStarted("the runtime is shutting down".into()),
                    )),
                };
                (plugin, offset, result)
            }
        });
        let results: Vec<_> = futures::stream::iter(calls).buffered(call_width()).collect().await;
        for (plugin, offset, result) in results {
            let wanted = |name: &str| options.detail || is_headline(&plugin, name);
            match result {
                Ok(results) => {
                    for (i, r) in results.into_iter().enumerate() {
                        let target = &mut out[offset + i];
                        match r {
                            Ok(scores) => {
                                for s in scores.into_iter().filter(|s| wanted(&s.name)) {
                                    target.evaluation.scores.insert(s.name, s.value);
                                }
                            }
                            Err(e) => target
                                .warnings
                                .push(format!("metric `{}` could not score this pair: {e}", plugin.id())),
                        }
                    }
                }
                Err(e) => {
                    let warning = call_warning(&e);
                    let end = (offset + PAIRS_PER_CALL).min(out.len());
                    out[offset..end].iter_mut().for_each(|p| p.warnings.push(warning.clone()));
                }
            }
        }
        for pair in &mut out {
            pair.evaluation.overall_score = self.weights.overall(&pair.evaluation.scores);
            if pair.evaluation.overall_score.is_none() {
                let why = if self.weights.used([&pair.evaluation.scores]).is_empty() {
                    "none of the weighted scores could be computed"
                } else {
                    "the weighted mean of its scores is out of the range of a number"
                };
                pair.warnings.push(format!("overall_score is null: {why}"));
            }
        }
        Ok(out)
    }

    /// Per-metric statistics over many evaluations. A pair no metric could score counts as failed.
    pub fn summarize<'a>(evaluations: impl IntoIterator<Item = &'a PairEvaluation>) -> Summary {
        let mut summary = Summary::default();
        for e in evaluations {
            if e.evaluation.scores.is_empty() {
                summary.fail();
            } else {
                summary.add(&e.evaluation);
            }
        }
        summary
    }

    /// Streams a dataset of any size through the metrics in batches, keeping only the running
    /// statistics.
    pub async fn summarize_dataset(
        &self,
        pairs: impl Iterator<Item = Pair>,
        options: EvalOptions,
        client: &str,
    ) -> Result<Summary> {
        const BATCH: usize = 512;
        let mut summary = Summary::default();
        let mut pairs = pairs.peekable();
        while pairs.peek().is_some() {
            let batch: Vec<Pair> = pairs.by_ref().take(BATCH).collect();
            let results = self.evaluate(&batch, options, client).await?;
            summary.merge(Self::summarize(&results));
        }
        Ok(summary)
    }
}

/// Metric calls one request keeps in flight: two per core, enough to keep every core busy while a
/// call waits for its instance.
fn call_width() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get() * 2)
}

fn call_warning(e: &CallError) -> String {
    format!("metric `{}` failed: {e}", e.plugin)
}

fn is_headline(plugin: &Plugin, name: &str) -> bool {
    match &plugin.info {
        PluginInfo::Metric { scores, .. } => scores.iter().any(|s| s.name == name && s.headline),
        _ => false,
    }
}

fn headline_names(plugin: &Plugin) -> Vec<String> {
    match &plugin.info {
        PluginInfo::Metric { scores, .. } => {
            scores.iter().filter(|s| s.headline).map(|s| s.name.clone()).collect()
        }
        _ => vec![plugin.id().to_owned()],
    }
}
