//! The per-world calls of a plugin (paraphrase, candidates, reply, probe, evaluate), each in a fresh
//! instance (`instance.rs`), and the checks of what the plugin returned.

use super::api::{CallError, ChatRequest, Pair, Paraphrased, PluginError, Score, Usage};
use super::host::PluginHost;
use super::instance::{HOST_CLIENT, call_span, conclude, invalid, new_store, reported, run, traced};
use super::plugin::Plugin;
use super::validate::validate_scores;
use crate::telemetry;
use crate::telemetry::WithSpan;
use std::time::Instant;

/// The largest paraphrase or chat reply the host accepts from a plugin.
pub const MAX_OUTPUT_BYTES: usize = 1024 * 1024;

/// What every paraphrase a provider returns must be: not empty, within the size cap; an unnamed
/// model is the one asked for.
pub(crate) fn paraphrase_problem(out: &mut Paraphrased, model: &str) -> Result<(), String> {
    if out.text.trim().is_empty() {
        return Err("the paraphrase is empty".into());
    }
    if out.text.len() > MAX_OUTPUT_BYTES {
        return Err(format!("the paraphrase is larger than {MAX_OUTPUT_BYTES} bytes"));
    }
    if out.model.trim().is_empty() {
        out.model = model.to_owned();
    }
    Ok(())
}

/// A provider's candidates for a `count`: at least one, at most `count`, each a paraphrase.
pub(crate) fn candidates_problem(list: &mut [Paraphrased], count: u32, model: &str) -> Result<(), String> {
    if list.is_empty() || list.len() > count as usize {
        return Err(format!("{} candidates for a count of {count}", list.len()));
    }
    list.iter_mut().try_for_each(|out| paraphrase_problem(out, model))
}

/// A chat model's whole reply: not blank, within the size cap.
pub(crate) fn reply_problem(reply: &str) -> Result<(), String> {
    if reply.trim().is_empty() {
        return Err("the reply is empty".into());
    }
    if reply.len() > MAX_OUTPUT_BYTES {
        return Err(format!("the reply is larger than {MAX_OUTPUT_BYTES} bytes"));
    }
    Ok(())
}

impl PluginHost {
    /// Asks a provider for a paraphrase of `text` with `model`, for `client` (whose share of the
    /// instance pool the call takes).
    pub async fn paraphrase(
        &self,
        plugin: &Plugin,
        client: &str,
        text: &str,
        model: &str,
    ) -> Result<Paraphrased, CallError> {
        let hold = self.admit(plugin, client, Some(model), text.len(), 1, None).await?;
        let span = call_span(plugin, "text_completion", Some(model));
        let started = Instant::now();
        let (result, usage) = self.paraphrase_once(plugin, client, text, model).in_span(span.clone()).await;
        self.observe(plugin, started, &result);
        self.settle(plugin, client, Some(model), usage, &result, hold).in_span(span.clone()).await;
        traced(&span, &result, |out| {
            span.set_attribute("gen_ai.response.model", out.model.clone());
            if telemetry::records_content() {
                span.set_attribute("gen_ai.input.messages", text.to_owned());
                span.set_attribute("gen_ai.output.messages", out.text.clone());
            }
        });
        result
    }

    async fn paraphrase_once(
        &self,
        plugin: &Plugin,
        client: &str,
        text: &str,
        model: &str,
    ) -> (Result<Paraphrased, CallError>, Usage) {
        let mut store = match new_store(&self.runtime, plugin, client).await {
            Ok(store) => store,
            Err(e) => return (Err(e), Usage::default()),
        };
        let outcome = run(plugin, plugin.bound.paraphrase(&mut store, text, model)).await;
        let result = conclude(plugin, &mut store, outcome).and_then(|r| {
            let mut out = r.map_err(|e| reported(plugin, &store, e))?;
            paraphrase_problem(&mut out, model).map_err(|detail| invalid(plugin, detail))?;
            Ok(out)
        });
        (result, store.data().usage)
    }

    /// Asks a provider that exports `candidates` (0.1.3) for up to `count` paraphrases of `text` in
    /// one call, for `client`; each is checked as a single paraphrase is, and more than `count` is
    /// garbage.
    pub async fn paraphrase_candidates(
        &self,
        plugin: &Plugin,
        client: &str,
        text: &str,
        model: &str,
        count: u32,
    ) -> Result<Vec<Paraphrased>, CallError> {
        let hold = self.admit(plugin, client, Some(model), text.len(), count, None).await?;
        let started = Instant::now();
        let (result, usage) = self.candidates_once(plugin, client, text, model, count).await;
        self.observe(plugin, started, &result);
        self.settle(plugin, client, Some(model), usage, &result, hold).await;
        result
    }

    async fn candidates_once(
        &self,
        plugin: &Plugin,
        client: &str,
        text: &str,
        model: &str,
        count: u32,
    ) -> (Result<Vec<Paraphrased>, CallError>, Usage) {
        let mut store = match new_store(&self.runtime, plugin, client).await {
            Ok(store) => store,
            Err(e) => return (Err(e), Usage::default()),
        };
        let outcome = run(plugin, plugin.bound.paraphrase_candidates(&mut store, text, model, count)).await;
        let result = conclude(plugin, &mut store, outcome).and_then(|r| {
            let mut list = r.map_err(|e| reported(plugin, &store, e))?;
            candidates_problem(&mut list, count, model).map_err(|detail| invalid(plugin, detail))?;
            Ok(list)
        });
        (result, store.data().usage)
    }

    /// Asks a chat model for the character's reply, for `client`.
    pub async fn reply(
        &self,
        plugin: &Plugin,
        client: &str,
        request: &ChatRequest<'_>,
    ) -> Result<String, CallError> {
        let model = plugin.spec().settings.get("model").map(String::as_str);
        let hold = self.admit(plugin, client, model, request.input_bytes(), 1, None).await?;
        let span = call_span(plugin, "chat", None);
        let started = Instant::now();
        let (result, usage) = self.reply_once(plugin, client, request).in_span(span.clone()).await;
        self.observe(plugin, started, &result);
        self.settle(plugin, client, model, usage, &result, hold).in_span(span.clone()).await;
        traced(&span, &result, |reply| {
            if telemetry::records_content() {
                span.set_attribute("gen_ai.input.messages", request.message.to_owned());
                span.set_attribute("gen_ai.output.messages", reply.clone());
            }
        });
        result
    }

    async fn reply_once(
        &self,
        plugin: &Plugin,
        client: &str,
        request: &ChatRequest<'_>,
    ) -> (Result<String, CallError>, Usage) {
        let mut store = match new_store(&self.runtime, plugin, client).await {
            Ok(store) => store,
            Err(e) => return (Err(e), Usage::default()),
        };
        let outcome = run(plugin, plugin.bound.reply(&mut store, request)).await;
        let result = conclude(plugin, &mut store, outcome).and_then(|r| {
            let reply = r.map_err(|e| reported(plugin, &store, e))?;
            reply_problem(&reply).map_err(|detail| invalid(plugin, detail))?;
            Ok(reply)
        });
        (result, store.data().usage)
    }

    /// Asks a provider or chat model whether its upstream is reachable, through its optional `probe`
    /// export (0.1.1). `None` when the component has no probe (every 0.1.0 component).
    pub async fn probe(&self, plugin: &Plugin) -> Option<Result<String, CallError>> {
        if !plugin.bound.has_probe() {
            return None;
        }
        let mut store = match new_store(&self.runtime, plugin, HOST_CLIENT).await {
            Ok(store) => store,
            Err(e) => return Some(Err(e)),
        };
        let call = async {
            match plugin.bound.probe(&mut store).await {
                Some(result) => result,
                None => Err(wasmtime::Error::msg("the component exports no probe")),
            }
        };
        let outcome = run(plugin, call).await;
        Some(conclude(plugin, &mut store, outcome).and_then(|r| r.map_err(|e| reported(plugin, &store, e))))
    }

    /// Scores a batch of pairs with one metric, in one instance, for `client`. The outer error fails
    /// the whole batch (a crash, a timeout, garbage); the inner ones are pairs the plugin itself could
    /// not score.
    pub async fn evaluate(
        &self,
        plugin: &Plugin,
        client: &str,
        pairs: &[Pair],
    ) -> Result<Vec<Result<Vec<Score>, PluginError>>, CallError> {
        let span = call_span(plugin, "evaluate", None);
        let started = Instant::now();
        let (result, usage) = self.evaluate_once(plugin, client, pairs).in_span(span.clone()).await;
        self.observe(plugin, started, &result);
        self.settle(plugin, client, None, usage, &result, None).in_span(span.clone()).await;
        traced(&span, &result, |_| {});
        result
    }

    async fn evaluate_once(
        &self,
        plugin: &Plugin,
        client: &str,
        pairs: &[Pair],
    ) -> (Result<Vec<Result<Vec<Score>, PluginError>>, CallError>, Usage) {
        let mut store = match new_store(&self.runtime, plugin, client).await {
            Ok(store) => store,
            Err(e) => return (Err(e), Usage::default()),
        };
        let outcome = run(plugin, plugin.bound.evaluate(&mut store, pairs)).await;
        let result = conclude(plugin, &mut store, outcome).and_then(|results| {
            validate_scores(&plugin.info, pairs.len(), &results).map_err(|detail| invalid(plugin, detail))?;
            Ok(results)
        });
        (result, store.data().usage)
    }
}
