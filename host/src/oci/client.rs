//! One conversation with registries over the OCI distribution API, through the process's outbound
//! client (its TLS trust, its limits): HTTPS, or plain HTTP where allowed; the credentials and bearer
//! tokens a registry asks for; redirects of blob downloads followed without carrying credentials to
//! another origin.

use super::auth::{self, Challenge};
use super::error::OciError;
use super::reference::Reference;
use super::settings::RegistryConfig;
use crate::upstream::{Failure, Limits, ResponseBody, Upstream, with_causes};
use bytes::Bytes;
use http::{HeaderMap, HeaderValue, Method, Response, StatusCode, header};
use http_body_util::Full;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// Redirects followed for one blob.
const MAX_REDIRECTS: usize = 5;
/// The largest manifest or token answer read.
const SMALL_BODY: u64 = 4 << 20;

/// What a request may do in the repository: `pull`, or `pull,push`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Access {
    Pull,
    Push,
}

impl Access {
    fn actions(self) -> &'static str {
        match self {
            Access::Pull => "pull",
            Access::Push => "pull,push",
        }
    }
}

/// One request to a repository: what, where under `/v2/<repository>/` (or an absolute URL the
/// registry gave), with what, and how much of an answer to read.
pub struct Ask<'a> {
    pub method: Method,
    pub path: &'a str,
    pub headers: HeaderMap,
    pub body: Bytes,
    pub access: Access,
    pub max: u64,
}

impl<'a> Ask<'a> {
    pub fn new(method: Method, path: &'a str, access: Access, max: u64) -> Ask<'a> {
        Ask { method, path, headers: HeaderMap::new(), body: Bytes::new(), access, max }
    }

    pub fn header(mut self, name: header::HeaderName, value: HeaderValue) -> Ask<'a> {
        self.headers.insert(name, value);
        self
    }

    pub fn body(mut self, body: Bytes) -> Ask<'a> {
        self.body = body;
        self
    }
}

pub struct Client {
    config: Arc<RegistryConfig>,
    upstream: Upstream,
    /// The scheme that answered each registry.
    schemes: Mutex<HashMap<String, &'static str>>,
    /// The `Authorization` each registry and repository accepted, per access.
    authorizations: Mutex<HashMap<(String, String, Access), HeaderValue>>,
}

impl Client {
    pub fn new(config: Arc<RegistryConfig>, upstream: Upstream) -> Client {
        Client { config, upstream, schemes: Mutex::default(), authorizations: Mutex::default() }
    }

    fn limits(&self, max: u64) -> Limits {
        Limits::within(self.config.timeout(), max)
    }

    /// Sends `method` to `/v2/<repository>/<path>` of `reference`'s registry, authorising when asked.
    pub async fn send(
        &self,
        reference: &Reference,
        ask: Ask<'_>,
    ) -> Result<Response<ResponseBody>, OciError> {
        let Ask { method, path, headers, body, access, max } = ask;
        let key = (reference.registry.clone(), reference.repository.clone(), access);
        let mut retried = false;
        loop {
            let authorization =
                self.authorizations.lock().unwrap_or_else(|e| e.into_inner()).get(&key).cloned();
            let url = if path.starts_with("http://") || path.starts_with("https://") {
                path.to_owned()
            } else {
                self.url(reference, path).await?
            };
            let response =
                self.exchange(&url, method.clone(), &headers, authorization, body.clone(), max).await?;
            if response.status() != StatusCode::UNAUTHORIZED || retried {
                if response.status() == StatusCode::UNAUTHORIZED {
                    return Err(OciError::Denied(format!(
                        "the registry {} refused the credentials offered for {} ({})",
                        reference.registry,
                        reference.repository,
                        self.credential_origin(reference)
                    )));
                }
                return Ok(response);
            }
            retried = true;
            let challenge = response
                .headers()
                .get(header::WWW_AUTHENTICATE)
                .and_then(|v| v.to_str().ok())
                .and_then(auth::parse_challenge);
            let value = self.authorize(reference, access, challenge).await?;
            self.authorizations.lock().unwrap_or_else(|e| e.into_inner()).insert(key.clone(), value);
        }
    }

    /// Where the credentials offered to `reference`'s registry came from, for a refusal's message.
    fn credential_origin(&self, reference: &Reference) -> String {
        if self.config.credentials.is_some() {
            return "PARLANCE_REGISTRY_USERNAME and PARLANCE_REGISTRY_PASSWORD".into();
        }
        match auth::credentials_for(&self.config, &reference.registry) {
            Ok(Some(_)) => "the auth.json entry for it".into(),
            _ => "none: set PARLANCE_REGISTRY_USERNAME and PARLANCE_REGISTRY_PASSWORD, or log in with podman or docker".into(),
        }
    }

    /// The `Authorization` that answers `challenge`.
    async fn authorize(
        &self,
        reference: &Reference,
        access: Access,
        challenge: Option<Challenge>,
    ) -> Result<HeaderValue, OciError> {
        let credentials =
            auth::credentials_for(&self.config, &reference.registry).map_err(OciError::Config)?;
        let needs = || {
            OciError::Denied(format!(
                "the registry {} asks for credentials for {}, and none are set (PARLANCE_REGISTRY_USERNAME and PARLANCE_REGISTRY_PASSWORD, or an auth.json entry for it)",
                reference.registry, reference.repository
            ))
        };
        let header_value = |text: String| {
            HeaderValue::from_str(&text)
                .map_err(|_| OciError::Config("the credentials hold characters a header cannot".into()))
        };
        match challenge {
            Some(Challenge::Basic) => header_value(auth::basic(&credentials.ok_or_else(needs)?)),
            Some(Challenge::Bearer { realm, service, scope: _ }) => {
                let url = url_with_query(
                    &realm,
                    &[
                        ("service", service.as_deref()),
                        ("scope", Some(&format!("repository:{}:{}", reference.repository, access.actions()))),
                    ],
                );
                if !(url.starts_with("https://") || self.plain_allowed_url(&url)) {
                    return Err(OciError::Registry(format!(
                        "the registry {} sends credentials to {realm} over plain HTTP; list that host in [registry] insecure to allow it",
                        reference.registry
                    )));
                }
                let authorization = credentials.as_ref().map(auth::basic).map(header_value).transpose()?;
                let response = self
                    .exchange(&url, Method::GET, &HeaderMap::new(), authorization, Bytes::new(), SMALL_BODY)
                    .await?;
                let status = response.status();
                let body = read(response, &format!("a token from {realm}")).await?;
                if status == StatusCode::UNAUTHORIZED || status == StatusCode::FORBIDDEN {
                    return Err(OciError::Denied(format!(
                        "the registry {}'s token service refused {} for {}: {}",
                        reference.registry,
                        if credentials.is_some() { "the credentials" } else { "an anonymous pull" },
                        reference.repository,
                        registry_message(&body)
                    )));
                }
                if !status.is_success() {
                    return Err(OciError::Registry(format!("{realm} answered {status} to a token request")));
                }
                let json: serde_json::Value = serde_json::from_slice(&body).map_err(|_| {
                    OciError::Registry(format!(
                        "{realm} answered a token request with something other than JSON"
                    ))
                })?;
                let token = json
                    .get("token")
                    .or_else(|| json.get("access_token"))
                    .and_then(|t| t.as_str())
                    .ok_or_else(|| OciError::Registry(format!("{realm}'s answer holds no token")))?;
                header_value(format!("Bearer {token}"))
            }
            None => Err(OciError::Registry(format!(
                "the registry {} answered 401 without a Basic or Bearer challenge",
                reference.registry
            ))),
        }
    }

    fn plain_allowed_url(&self, url: &str) -> bool {
        let Ok(uri) = url.parse::<http::Uri>() else { return false };
        let Some(authority) = uri.authority() else { return false };
        let loopback = authority.host().eq_ignore_ascii_case("localhost")
            || authority
                .host()
                .trim_matches(['[', ']'])
                .parse::<std::net::IpAddr>()
                .is_ok_and(|ip| ip.is_loopback());
        self.config.allows_plain_http(authority.as_str(), loopback)
    }

    /// `scheme://registry` for `reference`: HTTPS, or plain HTTP when HTTPS fails at the TLS level and
    /// the registry may be reached without it; remembered for the next request.
    async fn base(&self, reference: &Reference) -> Result<String, OciError> {
        // Docker Hub is named `docker.io`, and served by another host, as every client knows.
        let registry = match reference.registry.as_str() {
            "docker.io" | "index.docker.io" => "registry-1.docker.io",
            registry => registry,
        };
        if let Some(scheme) = self.schemes.lock().unwrap_or_else(|e| e.into_inner()).get(registry) {
            return Ok(format!("{scheme}://{registry}"));
        }
        let plain_allowed = self.config.allows_plain_http(registry, reference.is_loopback());
        let probe = format!("https://{registry}/v2/");
        let scheme =
            match self.exchange(&probe, Method::GET, &HeaderMap::new(), None, Bytes::new(), SMALL_BODY).await
            {
                Ok(_) => "https",
                Err(OciError::Unreachable { failure, .. })
                    if plain_allowed
                        && matches!(
                            failure,
                            Failure::TlsProtocol | Failure::Reset | Failure::Protocol | Failure::TlsAlert(_)
                        ) =>
                {
                    "http"
                }
                Err(e) => return Err(e),
            };
        self.schemes.lock().unwrap_or_else(|e| e.into_inner()).insert(registry.to_owned(), scheme);
        Ok(format!("{scheme}://{registry}"))
    }

    async fn exchange(
        &self,
        url: &str,
        method: Method,
        headers: &HeaderMap,
        authorization: Option<HeaderValue>,
        body: Bytes,
        max: u64,
    ) -> Result<Response<ResponseBody>, OciError> {
        let mut request = http::Request::builder().method(method).uri(url);
        for (name, value) in headers {
            request = request.header(name, value);
        }
        if let Some(authorization) = authorization {
            request = request.header(header::AUTHORIZATION, authorization);
        }
        request = request.header(header::USER_AGENT, concat!("parlance/", env!("CARGO_PKG_VERSION")));
        let request = request
            .body(Full::new(body))
            .map_err(|e| OciError::Registry(format!("cannot make a request to {url}: {e}")))?;
        self.upstream.send(request, self.limits(max)).await.map_err(|e| OciError::Unreachable {
            failure: e.failure(),
            message: format!("cannot reach the registry: {}", with_causes(&e)),
        })
    }

    /// The absolute URL of `path` in `reference`'s repository.
    pub async fn url(&self, reference: &Reference, path: &str) -> Result<String, OciError> {
        Ok(format!("{}/v2/{}/{path}", self.base(reference).await?, reference.repository))
    }

    /// GETs `path` of `reference`'s repository, following redirects to other origins without the
    /// registry's credentials.
    pub async fn get_following(
        &self,
        reference: &Reference,
        path: &str,
        max: u64,
    ) -> Result<Response<ResponseBody>, OciError> {
        let mut response = self.send(reference, Ask::new(Method::GET, path, Access::Pull, max)).await?;
        let mut current = self.url(reference, path).await?;
        for _ in 0..MAX_REDIRECTS {
            if !response.status().is_redirection() {
                return Ok(response);
            }
            let location = response
                .headers()
                .get(header::LOCATION)
                .and_then(|l| l.to_str().ok())
                .ok_or_else(|| OciError::Registry(format!("{current} redirected without a Location")))?;
            let next = resolve_location(&current, location).ok_or_else(|| {
                OciError::Registry(format!("{current} redirected to {location:?}, not a URL"))
            })?;
            if next.starts_with("http://") && !self.plain_allowed_url(&next) {
                return Err(OciError::Registry(format!(
                    "{current} redirected to plain HTTP ({next}); list that host in [registry] insecure to allow it"
                )));
            }
            let same_origin = origin(&next) == origin(&current);
            response = if same_origin {
                self.send(reference, Ask::new(Method::GET, &next, Access::Pull, max)).await?
            } else {
                self.exchange(&next, Method::GET, &HeaderMap::new(), None, Bytes::new(), max).await?
            };
            current = next;
        }
        Err(OciError::Registry(format!("more than {MAX_REDIRECTS} redirects fetching {path}")))
    }
}

/// The body of `response`, for `what`.
pub async fn read(response: Response<ResponseBody>, what: &str) -> Result<Bytes, OciError> {
    response.into_body().bytes().await.map_err(|e| match e.failure() {
        Failure::TooLarge { limit } => OciError::Registry(format!("{what} is larger than {limit} bytes")),
        failure => OciError::Unreachable { failure, message: format!("reading {what}: {}", with_causes(&e)) },
    })
}

/// The `message` of a registry's `{"errors": [{"code", "message"}]}`, else the body's start.
pub fn registry_message(body: &[u8]) -> String {
    let parsed: Option<serde_json::Value> = serde_json::from_slice(body).ok();
    let listed = parsed.as_ref().and_then(|v| v.get("errors")).and_then(|e| e.as_array()).map(|errors| {
        errors
            .iter()
            .map(|e| {
                let code = e.get("code").and_then(|c| c.as_str()).unwrap_or("");
                let message = e.get("message").and_then(|c| c.as_str()).unwrap_or("");
                format!("{code} {message}").trim().to_owned()
            })
            .collect::<Vec<_>>()
            .join("; ")
    });
    match listed {
        Some(text) if !text.is_empty() => text,
        _ => {
            let text = String::from_utf8_lossy(&body[..body.len().min(200)]).trim().to_owned();
            if text.is_empty() { "(no body)".into() } else { text }
        }
    }
}

fn url_with_query(base: &str, params: &[(&str, Option<&str>)]) -> String {
    let mut url = base.to_owned();
    let mut separator = if base.contains('?') { '&' } else { '?' };
    for (name, value) in params {
        if let Some(value) = value {
            let encoded: String = form_urlencoded::byte_serialize(value.as_bytes()).collect();
            url.push(separator);
            url.push_str(name);
            url.push('=');
            url.push_str(&encoded);
            separator = '&';
        }
    }
    url
}

/// `location` made absolute against `current`.
fn resolve_location(current: &str, location: &str) -> Option<String> {
    if location.starts_with("http://") || location.starts_with("https://") {
        return Some(location.to_owned());
    }
    let (scheme, rest) = current.split_once("://")?;
    let host = rest.split('/').next()?;
    if location.starts_with('/') {
        return Some(format!("{scheme}://{host}{location}"));
    }
    let dir = &current[..current.rfind('/')? + 1];
    Some(format!("{dir}{location}"))
}

fn origin(url: &str) -> Option<&str> {
    let (scheme, rest) = url.split_once("://")?;
    let end = scheme.len() + 3 + rest.find('/').unwrap_or(rest.len());
    Some(&url[..end])
}

/// `location`, an upload session's URL, with `digest` added to its query.
pub fn with_digest(current: &str, location: &str, digest: &str) -> Option<String> {
    let absolute = resolve_location(current, location)?;
    Some(url_with_query(&absolute, &[("digest", Some(digest))]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolves_redirects_and_upload_locations() {
        let here = "http://127.0.0.1:5000/v2/a/b/blobs/uploads/";
        assert_eq!(
            with_digest(here, "/v2/a/b/blobs/uploads/u1?_state=x", "sha256:ab").unwrap(),
            "http://127.0.0.1:5000/v2/a/b/blobs/uploads/u1?_state=x&digest=sha256%3Aab"
        );
        assert_eq!(resolve_location(here, "u2").unwrap(), "http://127.0.0.1:5000/v2/a/b/blobs/uploads/u2");
        assert_eq!(resolve_location(here, "https://cdn.example/x").unwrap(), "https://cdn.example/x");
        assert_eq!(origin("https://cdn.example/x/y"), Some("https://cdn.example"));
        assert_ne!(origin("https://cdn.example/x"), origin(here));
    }

    #[test]
    fn names_the_registrys_own_error() {
        assert_eq!(
            registry_message(br#"{"errors":[{"code":"MANIFEST_UNKNOWN","message":"manifest unknown"}]}"#),
            "MANIFEST_UNKNOWN manifest unknown"
        );
        assert_eq!(registry_message(b""), "(no body)");
    }
}
