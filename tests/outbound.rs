//! The process's one outbound client (`parlance::upstream`) over real sockets: HTTPS to a loopback
//! server whose certificate a test CA signed, trusted only when the client is told to, and each failure
//! named by its cause and destination: DNS, refused, reset, TLS certificate; and a CA file that
//! cannot be read stops the start as a configuration error.

use crate::common::server::free_port;
use crate::common::upstream::{FakeEmbeddings, TestCa, resetting_server};
use bytes::Bytes;
use parlance::Parlance;
use parlance::config::Env;
use parlance::upstream::{Failure, Limits, TlsConfig, Upstream, UpstreamError, with_causes};
use std::time::Duration;

const LIMITS: Limits = Limits {
    connect: Duration::from_secs(10),
    first_byte: Duration::from_secs(10),
    between_bytes: Duration::from_secs(10),
    max_response_bytes: 1 << 20,
};

async fn post(upstream: &Upstream, url: &str) -> Result<(u16, Bytes), UpstreamError> {
    let request = http::Request::post(url)
        .header("content-type", "application/json")
        .body(http_body_util::Full::new(Bytes::from_static(br#"{"model": "m", "input": ["a b"]}"#)))
        .unwrap();
    let response = upstream.send(request, LIMITS).await?;
    let status = response.status().as_u16();
    Ok((status, response.into_body().bytes().await?))
}

#[tokio::test]
async fn https_works_with_the_test_ca_and_names_the_certificate_without_it() {
    let home = tempfile::tempdir().unwrap();
    let ca = TestCa::new();
    let server = FakeEmbeddings::start_tls(&ca).await;
    let url = format!("{}/embeddings", server.base_url());

    let trusting = Upstream::new(&TlsConfig { ca_file: Some(ca.write(home.path())) }).unwrap();
    let (status, body) = post(&trusting, &url).await.unwrap();
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&body));
    let answer: serde_json::Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(answer["data"][0]["embedding"].as_array().unwrap().len(), 5, "{answer}");

    let default = Upstream::new(&TlsConfig::default()).unwrap();
    let err = post(&default, &url).await.unwrap_err();
    assert_eq!(err.failure(), Failure::TlsCertificate, "{}", with_causes(&err));
    assert_eq!(err.destination(), format!("https://{}", server.addr));
    let source = std::error::Error::source(&err).and_then(|s| s.downcast_ref::<rustls::Error>());
    assert!(
        matches!(source, Some(rustls::Error::InvalidCertificate(rustls::CertificateError::UnknownIssuer))),
        "{err:?}"
    );
    assert_eq!(server.requests().len(), 1, "the untrusted exchange never got past the handshake");
}

#[tokio::test]
async fn each_failure_is_named_by_its_cause_and_destination() {
    let upstream = Upstream::new(&TlsConfig::default()).unwrap();

    // A port with nothing listening: bound and released.
    let port = free_port();
    let err = post(&upstream, &format!("http://127.0.0.1:{port}/v1/embeddings")).await.unwrap_err();
    assert_eq!(err.failure(), Failure::Refused, "{}", with_causes(&err));
    assert_eq!(err.to_string(), format!("http://127.0.0.1:{port}: connection refused"));

    let err = post(&upstream, "https://nonexistent.invalid/v1/embeddings").await.unwrap_err();
    assert_eq!(err.failure(), Failure::Dns, "{}", with_causes(&err));
    assert_eq!(err.to_string(), "https://nonexistent.invalid:443: DNS resolution failed");

    let reset = resetting_server().await;
    let err = post(&upstream, &format!("http://{reset}/v1/embeddings")).await.unwrap_err();
    assert_eq!(err.failure(), Failure::Reset, "{}", with_causes(&err));
    assert!(!with_causes(&err).contains("refused"), "{}", with_causes(&err));
}

#[tokio::test]
async fn an_unreadable_ca_file_is_a_configuration_error() {
    let home = tempfile::tempdir().unwrap();
    let env = Env::empty()
        .with("HOME", home.path().to_str().unwrap())
        .with("CACHE_TYPE", "memory")
        .with("PARLANCE_CA_FILE", home.path().join("missing.pem").to_str().unwrap());
    match Parlance::builder().env(env).build().await {
        Err(parlance::Error::Config(e)) => {
            assert!(e.to_string().contains("[tls] ca_file: cannot read CA certificates from"), "{e}");
            assert!(e.to_string().contains("missing.pem"), "{e}");
        }
        Err(other) => panic!("expected a configuration error, got {other}"),
        Ok(_) => panic!("expected a configuration error"),
    }
}
