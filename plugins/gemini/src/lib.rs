//! `gemini`: a paraphrase provider for Google's Gemini `generateContent` REST API.
//!
//! Settings: `api_key` (secret; `GEMINI_API_KEY` or `~/.api-gemini` by default), `base_url` (default
//! `https://generativelanguage.googleapis.com/v1beta`), `model` (default `gemini-2.0-flash`),
//! `prompt_template` with a `{text}` placeholder, `system_prompt`, `temperature`, `max_output_tokens`,
//! `timeout_ms`. The key travels in the `x-goog-api-key` header, never in the URL, so it stays out of
//! proxy logs. Its health probe reads the default model's entry (`GET models/{model}`). Several
//! candidates (0.1.3's `candidates`) come from one request with `generationConfig.candidateCount`.

use parlance_sdk::candidates::{Candidate, Candidates};
use parlance_sdk::http::{Request, Response, join_url};
use parlance_sdk::probe::Probe;
use parlance_sdk::provider::{ParaphraseRequest, ParaphraseResponse, Provider, ProviderInfo};
use parlance_sdk::upstream::{parse_json, snippet};
use parlance_sdk::{PluginError, RateLimit, config, usage};
use serde_json::{Value, json};
use std::time::Duration;

const DEFAULT_BASE_URL: &str = "https://generativelanguage.googleapis.com/v1beta";
const DEFAULT_MODEL: &str = "gemini-2.0-flash";
const DEFAULT_SYSTEM_PROMPT: &str = "You rewrite text so that it says the same thing in different words. \
     Keep the meaning, the language, the tone and roughly the length. Answer with the rewritten text only.";
const DEFAULT_TEMPLATE: &str = "Paraphrase this text:\n\n{text}";

pub struct Gemini;

impl Provider for Gemini {
    fn info() -> ProviderInfo {
        ProviderInfo { name: "Google Gemini".into(), default_model: config::get_or("model", DEFAULT_MODEL) }
    }

    fn paraphrase(request: ParaphraseRequest) -> Result<ParaphraseResponse, PluginError> {
        let (value, model) = generate(&request.text, &request.model, None)?;
        Ok(ParaphraseResponse { text: read_candidate(&value)?, model })
    }
}

impl Candidates for Gemini {
    fn paraphrase_candidates(text: String, model: String, count: u32) -> Result<Vec<Candidate>, PluginError> {
        let (value, model) = generate(&text, &model, Some(count))?;
        Ok(read_candidates(&value)?
            .into_iter()
            .take(count as usize)
            .map(|text| Candidate { text, model: model.clone() })
            .collect())
    }
}

/// One `generateContent` call for `text`, asking for `count` candidates when given; the answer and
/// the model version that wrote it.
fn generate(text: &str, model: &str, count: Option<u32>) -> Result<(Value, String), PluginError> {
    if text.trim().is_empty() {
        return Err(PluginError::InvalidInput("the text is empty".into()));
    }
    let mut body = request_body(text)?;
    if let Some(count) = count {
        body["generationConfig"]["candidateCount"] = json!(count);
    }
    let url = join_url(&base_url(), &format!("models/{model}:generateContent"));
    let value = read(send(Request::post(url).json(&body))?)?;
    let counts = &value["usageMetadata"];
    let count = |key: &str| counts[key].as_u64().and_then(|n| u32::try_from(n).ok());
    usage::report(count("promptTokenCount"), count("candidatesTokenCount"));
    let model = value.get("modelVersion").and_then(Value::as_str).unwrap_or(model).to_owned();
    Ok((value, model))
}

/// Whether the key is accepted and the default model exists (`GET models/{model}`), without paying
/// for a generation.
impl Probe for Gemini {
    fn check() -> Result<String, PluginError> {
        let model = config::get_or("model", DEFAULT_MODEL);
        let response = send(Request::get(join_url(&base_url(), &format!("models/{model}"))))?;
        if response.status == 404 {
            return Err(PluginError::Misconfigured(format!("Gemini has no model {model}")));
        }
        read(response)?;
        Ok(format!("model {model} is available"))
    }
}

fn base_url() -> String {
    config::get_or("base_url", DEFAULT_BASE_URL)
}

/// Sends `request` with the key and the timeout.
fn send(request: Request) -> Result<Response, PluginError> {
    let key = config::require("api_key")?;
    let timeout = Duration::from_millis(config::parse_or("timeout_ms", 60_000u64)?);
    Ok(request.header("x-goog-api-key", &key).timeout(timeout).send()?)
}

/// The JSON answer of a successful response, or the error a failed one means.
fn read(response: Response) -> Result<Value, PluginError> {
    // A non-JSON error page still says something through its status.
    let value = parse_json("Gemini", &response).map_err(|e| {
        if response.is_success() { e } else { status_error(response.status, None, &response.text(), None) }
    })?;
    if !response.is_success() {
        return Err(api_error(response.status, &value, response.header("retry-after")));
    }
    Ok(value)
}

fn request_body(text: &str) -> Result<Value, PluginError> {
    let template = config::get_or("prompt_template", DEFAULT_TEMPLATE);
    let system = config::get_or("system_prompt", DEFAULT_SYSTEM_PROMPT);
    let mut generation = json!({});
    if config::get("temperature").is_some() {
        generation["temperature"] = json!(config::parse_or("temperature", 0.7f64)?);
    }
    if config::get("max_output_tokens").is_some() {
        generation["maxOutputTokens"] = json!(config::parse_or("max_output_tokens", 512u32)?);
    }
    Ok(json!({
        "systemInstruction": {"parts": [{"text": system}]},
        "contents": [{"role": "user", "parts": [{"text": template.replace("{text}", text)}]}],
        "generationConfig": generation,
    }))
}

/// The first candidate's text. A prompt blocked by the safety filters, or a candidate stopped for
/// safety, is the input's fault, not the upstream's.
fn read_candidate(value: &Value) -> Result<String, PluginError> {
    if let Some(reason) = value.pointer("/promptFeedback/blockReason").and_then(Value::as_str) {
        return Err(PluginError::InvalidInput(format!("Gemini blocked the prompt ({reason})")));
    }
    let candidate =
        value.get("candidates").and_then(Value::as_array).and_then(|c| c.first()).ok_or_else(|| {
            PluginError::BadResponse(format!("no candidates in the answer: {}", snippet(&value.to_string())))
        })?;
    candidate_text(candidate)
}

/// Every candidate's text: the first as [`read_candidate`] reads it (its failure is the call's), then
/// the others that have text.
fn read_candidates(value: &Value) -> Result<Vec<String>, PluginError> {
    let first = read_candidate(value)?;
    let others = value.get("candidates").and_then(Value::as_array).into_iter().flatten().skip(1);
    Ok(std::iter::once(first).chain(others.filter_map(|c| candidate_text(c).ok())).collect())
}

/// One candidate's text, or why it has none.
fn candidate_text(candidate: &Value) -> Result<String, PluginError> {
    let text: String = candidate
        .pointer("/content/parts")
        .and_then(Value::as_array)
        .map(|parts| parts.iter().filter_map(|p| p.get("text").and_then(Value::as_str)).collect())
        .unwrap_or_default();
    let text = text.trim();
    if text.is_empty() {
        let reason = candidate.get("finishReason").and_then(Value::as_str).unwrap_or("unknown");
        return Err(match reason {
            "SAFETY" | "RECITATION" | "BLOCKLIST" | "PROHIBITED_CONTENT" => {
                PluginError::InvalidInput(format!("Gemini refused to answer ({reason})"))
            }
            _ => PluginError::BadResponse(format!("the candidate has no text (finishReason: {reason})")),
        });
    }
    Ok(text.to_owned())
}

/// Gemini's error body: `{"error": {"code", "message", "status", "details"}}`, where a 429 may carry a
/// `RetryInfo` detail with `retryDelay` such as `"13s"`.
fn api_error(status: u16, value: &Value, retry_after_header: Option<&str>) -> PluginError {
    let message = value.pointer("/error/message").and_then(Value::as_str).unwrap_or_default();
    let grpc_status = value.pointer("/error/status").and_then(Value::as_str);
    let retry = value
        .pointer("/error/details")
        .and_then(Value::as_array)
        .and_then(|d| d.iter().find_map(|x| x.get("retryDelay").and_then(Value::as_str)))
        .and_then(|delay| delay.trim_end_matches('s').parse::<f64>().ok())
        .map(|s| s.ceil() as u32)
        .or_else(|| retry_after_header.and_then(parlance_sdk::upstream::parse_retry_after));
    status_error(status, grpc_status, message, retry)
}

fn status_error(status: u16, grpc_status: Option<&str>, message: &str, retry: Option<u32>) -> PluginError {
    let message = format!(
        "Gemini answered HTTP {status}{}: {}",
        grpc_status.map(|s| format!(" {s}")).unwrap_or_default(),
        snippet(message)
    );
    match status {
        401 | 403 => PluginError::Unauthorized(message),
        429 => PluginError::RateLimited(RateLimit { retry_after_secs: retry, message }),
        408 | 504 => PluginError::Timeout(message),
        // Gemini answers 400 INVALID_ARGUMENT / FAILED_PRECONDITION for a bad API key too.
        400 if message.contains("API key") => PluginError::Unauthorized(message),
        400..=499 => PluginError::InvalidInput(message),
        _ => PluginError::Unavailable(message),
    }
}

parlance_sdk::export_provider!(Gemini);
parlance_sdk::export_probe!(Gemini);
parlance_sdk::export_candidates!(Gemini);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_candidates_and_refusals() {
        let ok = json!({"candidates": [{"content": {"parts": [{"text": "A quick "}, {"text": "fox."}]}, "finishReason": "STOP"}]});
        assert_eq!(read_candidate(&ok).unwrap(), "A quick fox.");
        let blocked = json!({"promptFeedback": {"blockReason": "SAFETY"}});
        assert!(matches!(read_candidate(&blocked), Err(PluginError::InvalidInput(_))));
        let safety = json!({"candidates": [{"finishReason": "SAFETY"}]});
        assert!(matches!(read_candidate(&safety), Err(PluginError::InvalidInput(_))));
        assert!(matches!(read_candidate(&json!({"candidates": []})), Err(PluginError::BadResponse(_))));
        let several = json!({"candidates": [
            {"content": {"parts": [{"text": "One."}]}}, {"finishReason": "SAFETY"}, {"content": {"parts": [{"text": "Two."}]}}
        ]});
        assert_eq!(read_candidates(&several).unwrap(), ["One.", "Two."]);
    }

    #[test]
    fn maps_api_errors() {
        let quota = json!({"error": {"code": 429, "message": "Quota exceeded", "status": "RESOURCE_EXHAUSTED",
            "details": [{"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "13s"}]}});
        match api_error(429, &quota, None) {
            PluginError::RateLimited(r) => assert_eq!(r.retry_after_secs, Some(13)),
            other => panic!("{other:?}"),
        }
        let bad_key = json!({"error": {"code": 400, "message": "API key not valid. Please pass a valid API key.", "status": "INVALID_ARGUMENT"}});
        assert!(matches!(api_error(400, &bad_key, None), PluginError::Unauthorized(_)));
        let denied = json!({"error": {"code": 403, "message": "denied", "status": "PERMISSION_DENIED"}});
        assert!(matches!(api_error(403, &denied, None), PluginError::Unauthorized(_)));
        assert!(matches!(api_error(503, &json!({}), None), PluginError::Unavailable(_)));
        let model =
            json!({"error": {"code": 404, "message": "models/x is not found", "status": "NOT_FOUND"}});
        assert!(matches!(api_error(404, &model, None), PluginError::InvalidInput(_)));
    }
}
