//! The process's TLS trust for the connections it opens: rustls with the ring provider, the web's
//! roots (webpki) and an operator's extra CA certificates. The outbound client (`upstream`), the
//! PostgreSQL store and the trace collector's client (`telemetry`) all build on it.

use rustls::pki_types::CertificateDer;
use rustls::pki_types::pem::PemObject;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Why the configured trust could not be set up.
#[derive(Debug, thiserror::Error)]
pub enum TrustError {
    #[error("cannot read CA certificates from {}", .path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: rustls::pki_types::pem::Error,
    },
    #[error("{} holds no PEM certificate", .path.display())]
    NoCertificate { path: PathBuf },
    #[error("{} holds a certificate that cannot be a trust anchor", .path.display())]
    Rejected {
        path: PathBuf,
        #[source]
        source: rustls::Error,
    },
    #[error("the TLS client configuration is invalid")]
    Tls(#[source] rustls::Error),
}

/// A client configuration trusting the web's roots and the certificates of `ca_file`, when given.
pub fn client_config(ca_file: Option<&Path>) -> Result<rustls::ClientConfig, TrustError> {
    let mut roots = rustls::RootCertStore { roots: webpki_roots::TLS_SERVER_ROOTS.into() };
    if let Some(path) = ca_file {
        add_ca_file(&mut roots, path)?;
    }
    Ok(rustls::ClientConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
        .with_safe_default_protocol_versions()
        .map_err(TrustError::Tls)?
        .with_root_certificates(roots)
        .with_no_client_auth())
}

fn add_ca_file(roots: &mut rustls::RootCertStore, path: &Path) -> Result<(), TrustError> {
    let read = |source| TrustError::Read { path: path.to_owned(), source };
    let mut added = 0;
    for certificate in CertificateDer::pem_file_iter(path).map_err(read)? {
        roots
            .add(certificate.map_err(read)?)
            .map_err(|source| TrustError::Rejected { path: path.to_owned(), source })?;
        added += 1;
    }
    if added == 0 {
        return Err(TrustError::NoCertificate { path: path.to_owned() });
    }
    Ok(())
}
