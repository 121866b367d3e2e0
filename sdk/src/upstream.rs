//! One mapping from upstream HTTP outcomes to [`PluginError`], shared by every provider and chat model,
//! so that a 401 or a 429 means the same thing whichever plugin saw it.

use crate::http::{HttpError, Response};
use crate::{PluginError, RateLimit};

impl From<HttpError> for PluginError {
    fn from(e: HttpError) -> Self {
        match e {
            HttpError::Timeout(m) => {
                PluginError::Timeout(format!("the upstream did not answer in time ({m})"))
            }
            HttpError::InvalidUrl(m) => PluginError::Misconfigured(m),
            HttpError::Denied(m) => PluginError::Unavailable(format!("request denied: {m}")),
            HttpError::Connect(m) => {
                PluginError::Unavailable(format!("the connection to the upstream failed: {m}"))
            }
            HttpError::TooLarge(m) => {
                PluginError::BadResponse(format!("the upstream's answer is too large: {m}"))
            }
            HttpError::Other(m) => PluginError::Unavailable(m),
        }
    }
}

/// Passes a 2xx response through and turns anything else into the matching error: 401 and 403 are
/// [`PluginError::Unauthorized`], 429 is [`PluginError::RateLimited`] with the upstream's
/// `Retry-After`, 5xx (and 408) are [`PluginError::Unavailable`], other 4xx are
/// [`PluginError::InvalidInput`] because the upstream judged the request itself.
pub fn check_status(upstream: &str, response: Response) -> Result<Response, PluginError> {
    if response.is_success() {
        return Ok(response);
    }
    let detail = error_detail(&response);
    let message = format!("{upstream} answered HTTP {}: {detail}", response.status);
    Err(match response.status {
        401 | 403 => PluginError::Unauthorized(message),
        429 => PluginError::RateLimited(RateLimit {
            retry_after_secs: response.header("retry-after").and_then(parse_retry_after),
            message,
        }),
        408 | 504 => PluginError::Timeout(message),
        400..=499 => PluginError::InvalidInput(message),
        _ => PluginError::Unavailable(message),
    })
}

/// The error an upstream's answer outside 2xx means, as [`check_status`] maps it: what a streaming
/// chat model's `refusal` returns.
pub fn refusal(upstream: &str, response: Response) -> PluginError {
    match check_status(upstream, response) {
        Err(e) => e,
        Ok(response) => PluginError::BadResponse(format!(
            "{upstream} answered HTTP {} where a refusal was expected",
            response.status
        )),
    }
}

/// Parses a JSON body; anything else (an HTML error page, a truncated body) is
/// [`PluginError::BadResponse`].
pub fn parse_json(upstream: &str, response: &Response) -> Result<serde_json::Value, PluginError> {
    serde_json::from_slice(&response.body).map_err(|e| {
        PluginError::BadResponse(format!(
            "{upstream} answered with something that is not JSON ({e}): {}",
            snippet(&response.text())
        ))
    })
}

/// `Retry-After` in delta-seconds. The HTTP-date form is rare for APIs and has no clock to compare
/// against inside the sandbox, so it is ignored and the host's backoff applies.
pub fn parse_retry_after(value: &str) -> Option<u32> {
    let secs: f64 = value.trim().parse().ok()?;
    (secs.is_finite() && secs >= 0.0).then(|| secs.ceil().min(f64::from(u32::MAX)) as u32)
}

/// The most useful part of an error body: an OpenAI- or Gemini-style `error.message`, or the start of
/// the text.
fn error_detail(response: &Response) -> String {
    if let Ok(value) = serde_json::from_slice::<serde_json::Value>(&response.body) {
        let message = value
            .pointer("/error/message")
            .or_else(|| value.pointer("/error"))
            .or_else(|| value.pointer("/message"));
        if let Some(m) = message {
            return match m.as_str() {
                Some(s) => snippet(s),
                None => snippet(&m.to_string()),
            };
        }
    }
    snippet(&response.text())
}

/// At most 200 characters, on one line, so that error messages stay readable.
pub fn snippet(text: &str) -> String {
    let one_line: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match one_line.char_indices().nth(200) {
        Some((i, _)) => format!("{}…", &one_line[..i]),
        None if one_line.is_empty() => "(empty body)".into(),
        None => one_line,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn response(status: u16, headers: &[(&str, &str)], body: &str) -> Response {
        Response {
            status,
            headers: headers.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
            body: body.as_bytes().to_vec(),
        }
    }

    #[test]
    fn maps_each_status_to_its_own_error() {
        let err = |status, headers: &[(&str, &str)], body| {
            check_status("up", response(status, headers, body)).unwrap_err()
        };
        assert!(
            matches!(err(401, &[], "{\"error\":{\"message\":\"bad key\"}}"), PluginError::Unauthorized(m) if m.contains("bad key"))
        );
        match err(429, &[("retry-after", "7")], "slow down") {
            PluginError::RateLimited(r) => assert_eq!(r.retry_after_secs, Some(7)),
            other => panic!("{other:?}"),
        }
        assert!(matches!(err(503, &[], "<html>oops</html>"), PluginError::Unavailable(_)));
        assert!(matches!(err(400, &[], "bad model"), PluginError::InvalidInput(_)));
        assert!(matches!(err(504, &[], ""), PluginError::Timeout(_)));
        assert!(check_status("up", response(200, &[], "ok")).is_ok());
    }

    #[test]
    fn a_reset_connection_is_not_called_refused() {
        use crate::bindings::wasi::http::types::ErrorCode;
        let reset = PluginError::from(crate::http::map_error_code(ErrorCode::ConnectionTerminated));
        assert!(
            matches!(&reset, PluginError::Unavailable(m)
                if m == "the connection to the upstream failed: connection reset or closed by the upstream"),
            "{reset:?}"
        );
        let refused = PluginError::from(crate::http::map_error_code(ErrorCode::ConnectionRefused));
        assert!(matches!(refused, PluginError::Unavailable(m) if m.ends_with("connection refused")));
    }

    #[test]
    fn rejects_non_json() {
        let r = response(200, &[], "<html><body>Bad gateway</body></html>");
        assert!(
            matches!(parse_json("up", &r), Err(PluginError::BadResponse(m)) if m.contains("Bad gateway"))
        );
    }

    #[test]
    fn retry_after_forms() {
        assert_eq!(parse_retry_after("3"), Some(3));
        assert_eq!(parse_retry_after("1.2"), Some(2));
        assert_eq!(parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT"), None);
        assert_eq!(parse_retry_after("-1"), None);
    }

    #[test]
    fn snippets_are_short() {
        assert_eq!(snippet("a\n  b"), "a b");
        assert_eq!(snippet(""), "(empty body)");
        assert!(snippet(&"x".repeat(500)).chars().count() <= 201);
    }
}
