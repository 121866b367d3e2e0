//! Paraphrase candidates: several paraphrases of one text, from one provider or pooled from several
//! (each call admitted under its own provider's rate limit), with duplicates and the unchanged text
//! removed and counted, every candidate scored in one batched evaluation by the injected
//! [`Scorer`] (the metric plugins) plus the host's own `diversity`, checked against the caller's
//! floors, ranked, and cached on the whole request.

use super::{Caller, Outcome, Paraphrase, ParaphraseRequest, ParaphraseService, unchanged};
use crate::cache;
use crate::error::{Error, Result};
use crate::plugins::Plugin;
use crate::plugins::api::{Paraphrased, PluginInfo};
use futures::future::BoxFuture;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use std::time::Duration;

/// The score the host computes itself, and ranks by unless told otherwise.
pub const DIVERSITY: &str = "diversity";

/// Scores (original, paraphrase) pairs with the configured metrics. The paraphrase service declares
/// it and the library hands it the evaluation service (`lib.rs`), so that this domain does not
/// import another.
pub trait Scorer: Send + Sync {
    /// Every score name an evaluation may carry, which floors and rankings may name.
    fn score_names(&self) -> Vec<String>;

    /// Why `name`, a score of a metric in use but not among [`Scorer::score_names`], cannot be
    /// computed here (the semantic score without an embedding backend); `None` for a name no metric
    /// declares.
    fn unavailable_score(&self, name: &str) -> Option<String>;

    /// One map of scores per pair, in input order, in one batched evaluation, for `client`.
    fn score<'a>(
        &'a self,
        pairs: Vec<(String, String)>,
        client: &'a str,
    ) -> BoxFuture<'a, Result<Vec<BTreeMap<String, f64>>>>;
}

/// What a caller asks of the candidates beyond a single paraphrase.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Selection {
    /// How many candidates to ask each provider for (1 to `max_candidates`).
    pub candidates: usize,
    /// Providers to pool candidates from; empty: the request's provider (or the default).
    #[serde(default)]
    pub providers: Vec<String>,
    /// Floors by score name; a candidate passes when it meets every one.
    #[serde(default)]
    pub min_scores: BTreeMap<String, f64>,
    /// The score to rank by, descending; `diversity` when `None`.
    #[serde(default)]
    pub rank_by: Option<String>,
}

impl Selection {
    /// The selection a request body's optional fields make, or `None` when they ask for nothing
    /// beyond today's single paraphrase (absent, or `candidates` 1 alone).
    pub fn from_fields(
        candidates: Option<usize>,
        providers: Option<Vec<String>>,
        min_scores: Option<BTreeMap<String, f64>>,
        rank_by: Option<String>,
    ) -> Option<Selection> {
        let asked = candidates.is_some_and(|n| n != 1)
            || providers.is_some()
            || min_scores.is_some()
            || rank_by.is_some();
        asked.then(|| Selection {
            candidates: candidates.unwrap_or(1),
            providers: providers.unwrap_or_default(),
            min_scores: min_scores.unwrap_or_default(),
            rank_by,
        })
    }

    fn rank_by(&self) -> &str {
        self.rank_by.as_deref().unwrap_or(DIVERSITY)
    }
}

/// One candidate with its scores.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Candidate {
    pub text: String,
    /// The provider id that wrote it.
    pub provider: String,
    pub model: String,
    /// The metric plugins' scores (as `POST /evaluate` with `include_semantic` gives them, with
    /// `overall_score`) and the host's `diversity`.
    pub scores: BTreeMap<String, f64>,
    /// Whether it meets every floor of `min_scores` (a score that could not be computed fails).
    pub passed: bool,
}

/// What was removed before scoring.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Removed {
    /// Candidates that repeated an earlier one (whitespace aside), across providers.
    pub duplicates: usize,
    /// Candidates that were the input again (whitespace aside).
    pub unchanged: usize,
}

/// The candidates part of an answer, as a job item keeps it (JSON in the store).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CandidatesPart {
    pub candidates: Vec<Candidate>,
    // Optional so that the items stored before they were counted still read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requested: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub written: Option<usize>,
    pub removed: Removed,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub warnings: Option<Vec<String>>,
}

impl CandidatesPart {
    /// The candidates of an answer that has them.
    pub fn of(answer: &Paraphrase) -> Option<CandidatesPart> {
        Some(CandidatesPart {
            candidates: answer.candidates.clone()?,
            requested: answer.requested,
            written: answer.written,
            removed: answer.removed.unwrap_or_default(),
            warnings: answer.warnings.clone(),
        })
    }
}

/// The candidates part of an answer, as cached.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Ranked {
    candidates: Vec<Candidate>,
    removed: Removed,
    warnings: Vec<String>,
    /// The provider and model named when no candidate is left.
    provider: String,
    model: String,
}

/// The host's diversity of two texts: one minus the Jaccard similarity of their sets of lower-cased
/// words (runs of letters and digits) and adjacent word pairs, so that a change of word order counts
/// too: 0 is the same words in the same order, 1 no word in common.
pub fn diversity(a: &str, b: &str) -> f64 {
    let words = |t: &str| -> BTreeSet<String> {
        let words: Vec<String> = t
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase)
            .collect();
        let pairs = words.windows(2).map(|p| format!("{} {}", p[0], p[1]));
        pairs.chain(words.iter().cloned()).collect()
    };
    let (a, b) = (words(a), words(b));
    let union = a.union(&b).count();
    if union == 0 {
        return 0.0;
    }
    1.0 - a.intersection(&b).count() as f64 / union as f64
}

impl ParaphraseService {
    /// One paraphrase, or several candidates when the request asks for them.
    pub async fn paraphrase_with(
        &self,
        request: &ParaphraseRequest,
        selection: Option<&Selection>,
        caller: &Caller,
    ) -> Result<Outcome> {
        match selection {
            Some(selection) => self.paraphrase_selected(request, selection, caller).await,
            None => self.paraphrase(request, caller).await,
        }
    }

    /// Checks a selection and the providers it names, without a text (a batch's, once for all).
    pub fn check_selection(&self, request: &ParaphraseRequest, selection: &Selection) -> Result<()> {
        self.plan(request, selection).map(|_| ())
    }

    /// Several candidates for one text, selected and ranked as `selection` says; `paraphrase` is the
    /// best that passed, or the best overall when none did.
    pub async fn paraphrase_selected(
        &self,
        request: &ParaphraseRequest,
        selection: &Selection,
        caller: &Caller,
    ) -> Result<Outcome> {
        self.check_text(&request.text)?;
        let plan = self.plan(request, selection)?;
        let (providers, requested) = (plan.len(), selection.candidates * plan.len());
        let key = self.candidates_key(request, selection, &plan);
        if !request.skip_cache
            && let Some(hit) = self.cache.get_value::<Ranked>(&key).await
        {
            return Ok(Outcome {
                paraphrase: answer(&request.text, hit, providers, requested, true),
                quota: None,
                waited: Duration::ZERO,
            });
        }
        let count = selection.candidates;
        let calls = plan.iter().map(|(provider, model)| async move {
            // Each pooled provider goes along its own chain; a fallback member writes with its own
            // default model.
            let chain = self.chain(Some(provider.id()), &request.fallbacks)?;
            let served = self
                .along_chain(chain, caller, |member| async move {
                    let model = match &member.info {
                        PluginInfo::Provider { default_model, .. } if member.id() != provider.id() => {
                            default_model.clone()
                        }
                        _ => model.clone(),
                    };
                    if member.has_candidates() {
                        let (client, text) = (&caller.client, &request.text);
                        self.plugins.paraphrase_candidates(&member, client, text, &model, count as u32).await
                    } else {
                        let one = self.plugins.paraphrase(&member, &caller.client, &request.text, &model).await?;
                        Ok(vec![one])
                    }
                })
                .await?;
            let (member, written) = (served.member, served.out);
            let warning = (count > 1 && !member.has_candidates()).then(|| {
                format!(
                    "provider `{}` writes one paraphrase per call (it exports no `candidates`); it was called once",
                    member.id()
                )
            });
            Ok::<_, Error>((member.id().to_owned(), written, warning, served.quota, served.waited, served.attempts))
        });
        let answers = futures::future::try_join_all(calls).await?;
        let mut quota = None;
        let mut waited = Duration::ZERO;
        let mut warnings = Vec::new();
        let mut pooled: Vec<(String, Paraphrased)> = Vec::new();
        let mut attempts = Vec::new();
        for (provider, written, warning, admitted, wait, tried) in answers {
            attempts.extend(tried);
            quota = quota.or(admitted);
            waited = waited.max(wait);
            warnings.extend(warning);
            pooled.extend(written.into_iter().map(|p| (provider.clone(), p)));
        }
        let (kept, removed) = prune(&request.text, pooled);
        let mut candidates = self.score(&request.text, kept, &caller.client).await?;
        for candidate in &mut candidates {
            candidate.passed = selection
                .min_scores
                .iter()
                .all(|(name, floor)| candidate.scores.get(name).is_some_and(|v| v >= floor));
        }
        rank(&mut candidates, selection.rank_by());
        let (provider, model) = plan.first().map(|(p, m)| (p.id().to_owned(), m.clone())).unwrap_or_default();
        let ranked = Ranked { candidates, removed, warnings, provider, model };
        self.cache.put_value(&key, &ranked).await;
        let mut paraphrase = answer(&request.text, ranked, providers, requested, false);
        paraphrase.attempts = attempts;
        Ok(Outcome { paraphrase, quota, waited })
    }

    /// The providers and models a request resolves to, once its selection is checked.
    fn plan(&self, request: &ParaphraseRequest, selection: &Selection) -> Result<Vec<(Arc<Plugin>, String)>> {
        let max = self.config.max_candidates;
        if selection.candidates == 0 || selection.candidates > max {
            return Err(Error::invalid(
                "candidates",
                format!("`candidates` is {}; it must be from 1 to {max}", selection.candidates),
            ));
        }
        let known = self.score_names();
        for name in selection.min_scores.keys().chain(selection.rank_by.as_ref()) {
            if !known.contains(name) {
                let why = self.scorer.as_ref().and_then(|s| s.unavailable_score(name));
                return Err(Error::invalid(
                    if selection.min_scores.contains_key(name) { "min_scores" } else { "rank_by" },
                    why.unwrap_or_else(|| {
                        format!("unknown score `{name}`; the scores are {}", known.join(", "))
                    }),
                ));
            }
        }
        if let Some((name, floor)) = selection.min_scores.iter().find(|(_, v)| !v.is_finite()) {
            return Err(Error::invalid(
                "min_scores",
                format!("the floor of `{name}` is {floor}, not a number"),
            ));
        }
        if selection.providers.is_empty() {
            let provider = self.provider(request.provider.as_deref())?;
            return Ok(vec![(provider.clone(), self.model(provider, request.model.as_deref())?)]);
        }
        if request.provider.is_some() {
            return Err(Error::invalid("providers", "give `provider` or `providers`, not both"));
        }
        if request.model.is_some() && selection.providers.len() > 1 {
            return Err(Error::invalid(
                "model",
                "`model` names one provider's model; with several `providers` each uses its default",
            ));
        }
        let mut plan: Vec<(Arc<Plugin>, String)> = Vec::new();
        for id in &selection.providers {
            if plan.iter().any(|(p, _)| p.id() == id) {
                return Err(Error::invalid("providers", format!("`providers` names `{id}` twice")));
            }
            let provider = self.provider(Some(id))?;
            plan.push((provider.clone(), self.model(provider, request.model.as_deref())?));
        }
        Ok(plan)
    }

    /// The names a floor or a ranking may use: the metrics' and the host's `diversity`.
    pub fn score_names(&self) -> Vec<String> {
        let mut names = self.scorer.as_ref().map(|s| s.score_names()).unwrap_or_default();
        names.push(DIVERSITY.to_owned());
        names
    }

    /// The whole request: the text, the count, every provider with its model and component, the
    /// floors and the ranking.
    fn candidates_key(
        &self,
        request: &ParaphraseRequest,
        selection: &Selection,
        plan: &[(Arc<Plugin>, String)],
    ) -> String {
        let mut fields =
            vec!["candidates".to_owned(), request.text.clone(), selection.candidates.to_string()];
        for (provider, model) in plan {
            fields.extend([provider.id().to_owned(), model.clone(), provider.digest.clone()]);
        }
        fields.extend(selection.min_scores.iter().map(|(name, floor)| format!("{name}>={floor}")));
        fields.push(selection.rank_by().to_owned());
        cache::key_of(&fields)
    }

    /// Every candidate's scores: the metrics' in one evaluation of all pairs, and the diversity.
    async fn score(
        &self,
        text: &str,
        kept: Vec<(String, Paraphrased)>,
        client: &str,
    ) -> Result<Vec<Candidate>> {
        let mut scored = match (&self.scorer, kept.is_empty()) {
            (Some(scorer), false) => {
                let pairs = kept.iter().map(|(_, p)| (text.to_owned(), p.text.clone())).collect();
                scorer.score(pairs, client).await?
            }
            _ => vec![BTreeMap::new(); kept.len()],
        };
        Ok(kept
            .into_iter()
            .zip(scored.iter_mut())
            .map(|((provider, p), scores)| {
                scores.insert(DIVERSITY.to_owned(), diversity(text, &p.text));
                Candidate {
                    text: p.text,
                    provider,
                    model: p.model,
                    scores: std::mem::take(scores),
                    passed: true,
                }
            })
            .collect())
    }
}

/// Drops the candidates that say the text again or repeat an earlier one, counting each.
fn prune(text: &str, pooled: Vec<(String, Paraphrased)>) -> (Vec<(String, Paraphrased)>, Removed) {
    let mut removed = Removed::default();
    let mut kept: Vec<(String, Paraphrased)> = Vec::new();
    for (provider, p) in pooled {
        if unchanged(text, &p.text) {
            removed.unchanged += 1;
        } else if kept.iter().any(|(_, k)| unchanged(&k.text, &p.text)) {
            removed.duplicates += 1;
        } else {
            kept.push((provider, p));
        }
    }
    (kept, removed)
}

/// Passed first, then by `rank_by` descending (a missing score last); ties keep the providers'
/// order.
fn rank(candidates: &mut [Candidate], rank_by: &str) {
    candidates.sort_by(|a, b| {
        let key = |c: &Candidate| c.scores.get(rank_by).copied().unwrap_or(f64::NEG_INFINITY);
        b.passed.cmp(&a.passed).then(key(b).total_cmp(&key(a)))
    });
}

/// The answer: today's fields for the best candidate, the candidates, and their counts. The counts
/// and the shortfall's warning are worked out here rather than cached, so that an answer cached
/// before they existed says them too: whatever the providers wrote was either kept or removed.
fn answer(text: &str, ranked: Ranked, providers: usize, requested: usize, cached: bool) -> Paraphrase {
    let (paraphrase, provider, model) = match ranked.candidates.first() {
        Some(best) => (best.text.clone(), best.provider.clone(), best.model.clone()),
        None => (text.to_owned(), ranked.provider, ranked.model),
    };
    let mut answer = Paraphrase::new(text.to_owned(), paraphrase, provider, model, cached);
    answer.written = Some(ranked.candidates.len() + ranked.removed.duplicates + ranked.removed.unchanged);
    answer.candidates = Some(ranked.candidates);
    answer.requested = Some(requested);
    answer.removed = Some(ranked.removed);
    let mut warnings = ranked.warnings;
    warnings.extend(shortfall_warning(&answer, providers));
    answer.warnings = (!warnings.is_empty()).then_some(warnings);
    answer
}

/// The warning of an answer from `providers` providers whose candidates that passed the floors are
/// fewer than were asked for: how many the providers wrote, what deduplication removed, and how many
/// of those left met the floors. A client that asked for five and got one learns whether the
/// provider ran out of rewrites, wrote the same one again, or wrote ones the floors turned down.
/// `None` for an answer without candidates, or with as many as were asked for.
pub fn shortfall_warning(answer: &Paraphrase, providers: usize) -> Option<String> {
    let (candidates, requested) = (answer.candidates.as_ref()?, answer.requested?);
    let removed = answer.removed.unwrap_or_default();
    let (left, gone) = (candidates.len(), removed.duplicates + removed.unchanged);
    let written = answer.written.unwrap_or(left + gone);
    let passed = candidates.iter().filter(|c| c.passed).count();
    if passed >= requested {
        return None;
    }
    let plural = |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let mut warning = if providers > 1 {
        format!(
            "{requested} candidates were asked for ({} from each of {providers} providers); the providers wrote ",
            requested / providers
        )
    } else {
        format!("{} asked for; the provider wrote ", plural(requested, "candidate was", "candidates were"))
    };
    let removals: Vec<String> = [
        (removed.duplicates > 0).then(|| plural(removed.duplicates, "duplicate", "duplicates")),
        (removed.unchanged > 0).then(|| format!("{} unchanged", removed.unchanged)),
    ]
    .into_iter()
    .flatten()
    .collect();
    if removals.is_empty() {
        warning += &plural(written, "distinct rewrite", "distinct rewrites");
    } else {
        let left =
            if left == 0 { "none".to_owned() } else { plural(left, "distinct rewrite", "distinct rewrites") };
        let verb = if gone == 1 { "was" } else { "were" };
        warning +=
            &format!("{written}, of which {gone} {verb} removed ({}), leaving {left}", removals.join(", "));
    }
    if passed < left {
        warning += &format!("; {passed} of them met every floor of `min_scores`");
    }
    Some(warning)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn candidate(text: &str, passed: bool, score: Option<f64>) -> Candidate {
        Candidate {
            text: text.into(),
            provider: "p".into(),
            model: "m".into(),
            scores: score.map(|s| ("bleu".to_owned(), s)).into_iter().collect(),
            passed,
        }
    }

    #[test]
    fn diversity_is_one_minus_the_jaccard_of_the_words_and_word_pairs() {
        assert_eq!(diversity("The cat sat.", "the CAT sat"), 0.0);
        assert_eq!(diversity("a b", "c d"), 1.0);
        // {a, b, c, a b, b c} and {a, b, d, a b, b d}: 3 shared of 7.
        assert!((diversity("a b c", "a b d") - 4.0 / 7.0).abs() < 1e-12);
        // The same words in another order: {a, b, a b} and {a, b, b a}.
        assert!((diversity("a b", "b a") - 0.5).abs() < 1e-12);
        assert_eq!(diversity("", "..."), 0.0);
    }

    #[test]
    fn prune_counts_the_unchanged_and_the_duplicates() {
        let p = |t: &str| ("x".to_owned(), Paraphrased { text: t.into(), model: "m".into() });
        let (kept, removed) = prune("A b.", vec![p("A  b."), p("C d."), p(" C d."), p("E f.")]);
        assert_eq!(kept.iter().map(|(_, k)| k.text.as_str()).collect::<Vec<_>>(), ["C d.", "E f."]);
        assert_eq!(removed, Removed { duplicates: 1, unchanged: 1 });
    }

    #[test]
    fn passed_come_first_then_the_ranking_descending() {
        let mut all = vec![
            candidate("a", false, Some(0.9)),
            candidate("b", true, Some(0.2)),
            candidate("c", true, None),
            candidate("d", true, Some(0.7)),
        ];
        rank(&mut all, "bleu");
        assert_eq!(all.iter().map(|c| c.text.as_str()).collect::<String>(), "dbca");
    }

    /// An answer to `requested` candidates holding one candidate per entry of `passed`.
    fn answered(requested: usize, passed: &[bool], removed: Removed) -> Paraphrase {
        let mut answer = Paraphrase::new("t".into(), "p".into(), "p".into(), "m".into(), false);
        answer.candidates = Some(passed.iter().map(|&p| candidate("c", p, None)).collect());
        answer.requested = Some(requested);
        answer.removed = Some(removed);
        answer
    }

    #[test]
    fn a_shortfall_says_what_was_written_removed_and_below_the_floors() {
        let none = Removed::default();
        assert_eq!(shortfall_warning(&answered(3, &[true; 3], none), 1), None);
        assert_eq!(
            shortfall_warning(&Paraphrase::new("t".into(), "p".into(), "p".into(), "m".into(), false), 1),
            None
        );
        let warning = |requested, passed: &[bool], removed, providers| {
            shortfall_warning(&answered(requested, passed, removed), providers).unwrap()
        };
        assert_eq!(
            warning(5, &[true], none, 1),
            "5 candidates were asked for; the provider wrote 1 distinct rewrite"
        );
        assert_eq!(
            warning(3, &[true], Removed { duplicates: 2, unchanged: 0 }, 1),
            "3 candidates were asked for; the provider wrote 3, of which 2 were removed (2 duplicates), \
             leaving 1 distinct rewrite"
        );
        assert_eq!(
            warning(5, &[], Removed { duplicates: 0, unchanged: 1 }, 1),
            "5 candidates were asked for; the provider wrote 1, of which 1 was removed (1 unchanged), leaving none"
        );
        assert_eq!(
            warning(2, &[true, false], none, 1),
            "2 candidates were asked for; the provider wrote 2 distinct rewrites; 1 of them met every floor \
             of `min_scores`"
        );
        assert_eq!(
            warning(6, &[true; 4], Removed { duplicates: 1, unchanged: 1 }, 2),
            "6 candidates were asked for (3 from each of 2 providers); the providers wrote 6, of which 2 were \
             removed (1 duplicate, 1 unchanged), leaving 4 distinct rewrites"
        );
    }

    #[test]
    fn a_selection_is_made_only_when_asked_for() {
        assert_eq!(Selection::from_fields(None, None, None, None), None);
        assert_eq!(Selection::from_fields(Some(1), None, None, None), None);
        let s = Selection::from_fields(Some(3), None, None, None).unwrap();
        assert_eq!((s.candidates, s.rank_by()), (3, DIVERSITY));
        assert_eq!(Selection::from_fields(None, None, None, Some("bleu".into())).unwrap().candidates, 1);
    }
}
