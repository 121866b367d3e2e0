//! `form`: the chat model of the original service. It sends one form-encoded POST with a single field,
//! `input`, holding the prompt, to `model_url`, and the reply is the response body as text.
//!
//! The prompt is `[ Genre: <genre> ] <dialog so far> <situation> <from> said: "<message>" <to> said: "`,
//! where the dialog is written as the seed's string form (`<name> said: "<message>"`, joined by single
//! spaces) and absent parts are left out. When it is longer than `prompt_max_chars` (default 2048) it
//! is cut from the front, so the newest lines and the open quote always reach the model.
//!
//! Settings: `model_url` (required), `prompt_max_chars`, `timeout_ms` (default 30000).

use parlance_sdk::chat_model::{ChatModel, ChatRequest, ModelInfo};
use parlance_sdk::http::Request;
use parlance_sdk::upstream::{check_status, snippet};
use parlance_sdk::{PluginError, config};
use std::time::Duration;

pub struct FormModel;

impl ChatModel for FormModel {
    fn info() -> ModelInfo {
        ModelInfo { name: "Form-encoded model endpoint".into() }
    }

    fn reply(request: ChatRequest) -> Result<String, PluginError> {
        let url = config::require("model_url")?;
        let max_chars = config::parse_or("prompt_max_chars", 2048usize)?;
        let timeout = Duration::from_millis(config::parse_or("timeout_ms", 30_000u64)?);
        let prompt = prompt(&request);
        let response =
            Request::post(url).timeout(timeout).form(&[("input", cut_front(&prompt, max_chars))]).send()?;
        let response = check_status("the model endpoint", response)?;
        read_reply(response.header("content-type"), &response.body)
    }
}

/// The prompt exactly as the original service built it (its parts joined by single spaces), written
/// into one buffer: a long history costs a copy of each entry, not a string of its own.
pub fn prompt(request: &ChatRequest) -> String {
    let history: usize = request.history.iter().map(|e| e.name.len() + e.message.len() + 10).sum();
    let mut out = String::with_capacity(64 + history + request.message.len());
    out.push_str("[ Genre: ");
    out.push_str(&request.genre);
    out.push_str(" ]");
    for entry in &request.history {
        out.push(' ');
        said(&mut out, &entry.name, &entry.message);
    }
    if let Some(situation) = request.situation.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
        out.push(' ');
        out.push_str(situation);
    }
    out.push(' ');
    said(&mut out, &request.from_name, &request.message);
    out.push(' ');
    out.push_str(&request.to_name);
    out.push_str(" said: \"");
    out
}

/// `<name> said: "<message>"`, one line of the seed's string form of a dialog.
fn said(out: &mut String, name: &str, message: &str) {
    out.push_str(name);
    out.push_str(" said: \"");
    out.push_str(message);
    out.push('"');
}

/// The last `max_chars` characters of `text`.
pub fn cut_front(text: &str, max_chars: usize) -> &str {
    if max_chars == 0 {
        return "";
    }
    match text.char_indices().rev().nth(max_chars - 1) {
        Some((start, _)) => &text[start..],
        None => text,
    }
}

/// The body is the reply; an HTML page (a proxy's error page, say), binary data or nothing at all is not.
fn read_reply(content_type: Option<&str>, body: &[u8]) -> Result<String, PluginError> {
    let text = std::str::from_utf8(body)
        .map_err(|_| PluginError::BadResponse("the model endpoint answered with non-UTF-8 data".into()))?;
    let trimmed = text.trim();
    let looks_html = content_type.is_some_and(|t| t.to_ascii_lowercase().contains("text/html"))
        || trimmed.get(..14).is_some_and(|s| s.eq_ignore_ascii_case("<!doctype html"))
        || trimmed.get(..5).is_some_and(|s| s.eq_ignore_ascii_case("<html"));
    if looks_html {
        return Err(PluginError::BadResponse(format!(
            "the model endpoint answered with an HTML page: {}",
            snippet(trimmed)
        )));
    }
    if trimmed.is_empty() {
        return Err(PluginError::BadResponse("the model endpoint answered with an empty body".into()));
    }
    if trimmed.chars().any(|c| c.is_control() && !c.is_whitespace()) {
        return Err(PluginError::BadResponse("the model endpoint answered with control characters".into()));
    }
    Ok(trimmed.to_owned())
}

parlance_sdk::export_chat_model!(FormModel);

#[cfg(test)]
mod tests {
    use super::*;
    use parlance_sdk::chat_model::DialogEntry;

    fn request(history: Vec<DialogEntry>, situation: Option<&str>) -> ChatRequest {
        ChatRequest {
            history,
            message: "Hello!".into(),
            from_name: "User".into(),
            to_name: "Waifu".into(),
            situation: situation.map(Into::into),
            genre: "Romance".into(),
        }
    }

    #[test]
    fn builds_the_original_prompt() {
        assert_eq!(prompt(&request(vec![], None)), "[ Genre: Romance ] User said: \"Hello!\" Waifu said: \"");
        let history = vec![
            DialogEntry { index: 0, name: "User".into(), message: "Hi".into() },
            DialogEntry { index: 1, name: "Waifu".into(), message: "Hey".into() },
        ];
        assert_eq!(
            prompt(&request(history, Some("At the beach."))),
            "[ Genre: Romance ] User said: \"Hi\" Waifu said: \"Hey\" At the beach. User said: \"Hello!\" Waifu said: \""
        );
    }

    #[test]
    fn cuts_from_the_front() {
        assert_eq!(cut_front("abcdef", 4), "cdef");
        assert_eq!(cut_front("ab", 4), "ab");
        assert_eq!(cut_front("éèêë", 2), "êë");
        assert_eq!(cut_front("abc", 3), "abc");
        assert_eq!(cut_front("abc", 0), "");
    }

    #[test]
    fn rejects_what_is_not_a_reply() {
        assert!(read_reply(Some("text/html"), b"<p>Bad gateway</p>").is_err());
        assert!(read_reply(None, b"<!DOCTYPE html><html></html>").is_err());
        assert!(read_reply(None, b"  ").is_err());
        assert!(read_reply(None, &[0xff, 0xfe]).is_err());
        assert!(read_reply(None, b"\x00\x01garbage").is_err());
        assert_eq!(read_reply(Some("text/plain"), b" I missed you.\n").unwrap(), "I missed you.");
    }
}
