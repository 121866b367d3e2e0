//! The OpenAI-compatible backend: `POST {url}/embeddings` (OpenAI, vLLM, Ollama, llama.cpp,
//! text-embeddings-inference) with a JSON body, sent through the process's one outbound client, so
//! an `https://` endpoint uses the same rustls stack and trusted CAs as everything else.

use super::backend::{EmbeddingBackend, EmbeddingError, EmbeddingErrorKind, EmbeddingModelInfo};
use crate::upstream::{Failure, Limits, Upstream, UpstreamError};
use bytes::Bytes;
use futures::future::BoxFuture;
use http::header::{ACCEPT, AUTHORIZATION, CONTENT_TYPE};
use std::time::Duration;

/// One batch is up to 512 texts; 512 vectors of 3072 dimensions as JSON are about 30 MB.
const LIMITS: Limits = Limits {
    connect: Duration::from_secs(10),
    first_byte: Duration::from_secs(50),
    between_bytes: Duration::from_secs(30),
    max_response_bytes: 128 * 1024 * 1024,
};

/// An OpenAI-compatible embeddings endpoint.
pub struct OpenAi {
    endpoint: http::Uri,
    model: String,
    api_key: Option<String>,
    dimensions: Option<u32>,
    upstream: Upstream,
}

impl OpenAi {
    /// `url` is the API's base (`…/v1`); the requests go to `{url}/embeddings`.
    pub fn new(
        url: &str,
        model: &str,
        api_key: Option<String>,
        dimensions: Option<u32>,
        upstream: Upstream,
    ) -> Result<OpenAi, EmbeddingError> {
        let endpoint = format!("{}/embeddings", url.trim_end_matches('/'));
        let misconfigured = |detail: &str| {
            EmbeddingError::new(EmbeddingErrorKind::Misconfigured, format!("the url {url:?} {detail}"))
        };
        let endpoint: http::Uri = endpoint.parse().map_err(|e| {
            EmbeddingError::caused_by(
                EmbeddingErrorKind::Misconfigured,
                format!("the url {url:?} is not a URL"),
                e,
            )
        })?;
        if !matches!(endpoint.scheme_str(), Some("http" | "https")) {
            return Err(misconfigured("is not an http:// or https:// URL"));
        }
        if endpoint.host().is_none_or(str::is_empty) {
            return Err(misconfigured("has no host"));
        }
        Ok(OpenAi { endpoint, model: model.to_owned(), api_key, dimensions, upstream })
    }

    fn request(
        &self,
        texts: &[String],
    ) -> Result<http::Request<http_body_util::Full<Bytes>>, EmbeddingError> {
        let body =
            serde_json::to_vec(&serde_json::json!({"model": self.model, "input": texts})).map_err(|e| {
                EmbeddingError::caused_by(EmbeddingErrorKind::Internal, "encoding the request", e)
            })?;
        let mut request = http::Request::post(&self.endpoint)
            .header(CONTENT_TYPE, "application/json")
            .header(ACCEPT, "application/json");
        if let Some(key) = &self.api_key {
            let mut value = http::HeaderValue::try_from(format!("Bearer {key}")).map_err(|e| {
                EmbeddingError::caused_by(
                    EmbeddingErrorKind::Misconfigured,
                    "the api_key cannot be sent in a header",
                    e,
                )
            })?;
            value.set_sensitive(true);
            request = request.header(AUTHORIZATION, value);
        }
        request
            .body(http_body_util::Full::new(Bytes::from(body)))
            .map_err(|e| EmbeddingError::caused_by(EmbeddingErrorKind::Internal, "building the request", e))
    }
}

impl EmbeddingBackend for OpenAi {
    fn model(&self) -> EmbeddingModelInfo {
        EmbeddingModelInfo { name: self.model.clone(), dimensions: self.dimensions.unwrap_or(0) }
    }

    fn embed(&self, texts: Vec<String>) -> BoxFuture<'_, Result<Vec<Vec<f32>>, EmbeddingError>> {
        Box::pin(async move {
            let response =
                self.upstream.send(self.request(&texts)?, LIMITS).await.map_err(exchange_failed)?;
            let status = response.status();
            if !status.is_success() {
                let kind = match status.as_u16() {
                    401 | 403 => EmbeddingErrorKind::Unauthorized,
                    429 => EmbeddingErrorKind::RateLimited { retry_after_secs: None },
                    400..=499 => EmbeddingErrorKind::InvalidInput,
                    _ => EmbeddingErrorKind::Unavailable,
                };
                return Err(EmbeddingError::new(
                    kind,
                    format!("the embeddings endpoint answered HTTP {status}"),
                ));
            }
            let body = response.into_body().bytes().await.map_err(exchange_failed)?;
            vectors(&body, texts.len())
        })
    }
}

/// The request got no complete answer.
fn exchange_failed(e: UpstreamError) -> EmbeddingError {
    let kind = match e.failure() {
        Failure::Timeout(_) => EmbeddingErrorKind::Timeout,
        Failure::TooLarge { .. } => EmbeddingErrorKind::BadResponse,
        _ => EmbeddingErrorKind::Unavailable,
    };
    EmbeddingError::caused_by(kind, "the request to the embeddings endpoint failed", e)
}

/// The vectors of an answer, in input order (the `index` of each item, else its position).
fn vectors(body: &[u8], expected: usize) -> Result<Vec<Vec<f32>>, EmbeddingError> {
    let bad = |message: String| EmbeddingError::new(EmbeddingErrorKind::BadResponse, message);
    let answer: serde_json::Value = serde_json::from_slice(body).map_err(|e| {
        EmbeddingError::caused_by(
            EmbeddingErrorKind::BadResponse,
            "the embeddings endpoint answered with invalid JSON",
            e,
        )
    })?;
    let data = answer["data"].as_array().ok_or_else(|| bad("no `data` in the answer".into()))?;
    let mut vectors: Vec<(u64, Vec<f32>)> = Vec::with_capacity(data.len());
    for (position, item) in data.iter().enumerate() {
        let index = item["index"].as_u64().unwrap_or(position as u64);
        let vector: Option<Vec<f32>> = item["embedding"]
            .as_array()
            .map(|v| v.iter().filter_map(|x| x.as_f64().map(|f| f as f32)).collect());
        let vector = vector
            .filter(|v| !v.is_empty())
            .ok_or_else(|| bad(format!("item {position} has no embedding")))?;
        vectors.push((index, vector));
    }
    vectors.sort_by_key(|(i, _)| *i);
    if vectors.len() != expected {
        return Err(bad(format!("{} embeddings for {expected} texts", vectors.len())));
    }
    Ok(vectors.into_iter().map(|(_, v)| v).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders_the_vectors_by_index_and_checks_the_count() {
        let body = br#"{"data": [{"index": 1, "embedding": [0.5, 1]}, {"index": 0, "embedding": [1, 0]}]}"#;
        assert_eq!(vectors(body, 2).unwrap(), vec![vec![1.0, 0.0], vec![0.5, 1.0]]);
        let err = vectors(body, 3).unwrap_err();
        assert_eq!(err.kind(), EmbeddingErrorKind::BadResponse);
        assert_eq!(err.to_string(), "2 embeddings for 3 texts");
        let err = vectors(b"<html>", 1).unwrap_err();
        assert!(std::error::Error::source(&err).unwrap().is::<serde_json::Error>());
        assert!(vectors(br#"{"data": [{"embedding": []}]}"#, 1).is_err());
    }

    #[test]
    fn takes_only_http_urls() {
        let upstream = Upstream::new(&Default::default()).unwrap();
        let new =
            |url: &str| OpenAi::new(url, "m", None, None, upstream.clone()).map(|b| b.endpoint.to_string());
        assert_eq!(new("https://api.example.com/v1/").unwrap(), "https://api.example.com/v1/embeddings");
        for bad in ["ftp://host/v1", "not a url", "/v1"] {
            assert_eq!(new(bad).unwrap_err().kind(), EmbeddingErrorKind::Misconfigured, "{bad}");
        }
    }
}
