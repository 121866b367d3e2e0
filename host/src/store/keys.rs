//! API keys as the store keeps them: each bound to one client, identified by a public id, with only a
//! SHA-256 of the whole key stored, so that a copy of the database gives no usable key.

use sha2::{Digest, Sha256};

/// A key as listings show it (never its secret).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ApiKey {
    /// The public part of the key, by which it is listed and revoked.
    pub id: String,
    pub name: String,
    /// The client the key acts as.
    pub client: String,
    /// Milliseconds since the Unix epoch.
    pub created_at: i64,
    pub revoked_at: Option<i64>,
}

/// What a request's key is checked against.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyRecord {
    pub secret_hash: Vec<u8>,
    pub client: String,
    pub revoked: bool,
}

/// The prefix of every key, so that one found in a log or a repository is recognisable.
pub const PREFIX: &str = "prl_";

/// A new key: `prl_<id>_<secret>`, with a 12-character id and a 43-character secret (256 random bits,
/// URL-safe base64).
pub fn generate() -> Result<(String, String), getrandom::Error> {
    let mut bytes = [0u8; 41];
    getrandom::fill(&mut bytes)?;
    let id = base64url(&bytes[..9]);
    let secret = base64url(&bytes[9..]);
    Ok((format!("{PREFIX}{id}_{secret}"), id))
}

/// The id of a presented key, if it has the shape of one.
pub fn id_of(key: &str) -> Option<&str> {
    // The id is a fixed 12 characters of URL-safe base64, which may itself contain `_`, so it is taken by
    // length rather than by splitting at the first separator.
    let rest = key.strip_prefix(PREFIX)?;
    let id = rest.get(..12)?;
    let secret = rest[12..].strip_prefix('_')?;
    (!secret.is_empty()).then_some(id)
}

pub fn hash(key: &str) -> Vec<u8> {
    Sha256::digest(key.as_bytes()).to_vec()
}

/// Whether `key` is the one whose hash is `expected`, in time that does not depend on where they
/// differ.
pub fn matches(key: &str, expected: &[u8]) -> bool {
    let actual = hash(key);
    actual.len() == expected.len() && actual.iter().zip(expected).fold(0u8, |acc, (a, b)| acc | (a ^ b)) == 0
}

fn base64url(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut out = String::with_capacity(bytes.len() * 4 / 3 + 2);
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().enumerate().fold(0u32, |n, (i, b)| n | (u32::from(*b) << (16 - 8 * i)));
        let digits = chunk.len() + 1;
        for i in 0..digits {
            out.push(char::from(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize]));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_have_an_id_and_match_only_themselves() {
        let (key, id) = generate().unwrap();
        assert_eq!(id_of(&key), Some(id.as_str()));
        assert_eq!(key.len(), PREFIX.len() + 12 + 1 + 43);
        let stored = hash(&key);
        assert!(matches(&key, &stored));
        assert!(!matches(&format!("{key}x"), &stored));
        let (other, _) = generate().unwrap();
        assert_ne!(key, other);
        assert_eq!(id_of("prl_short_x"), None);
        assert_eq!(id_of("sk-123"), None);
        // Ids drawn from the URL-safe alphabet can hold the separator themselves.
        assert_eq!(id_of("prl_ab_cdefghijk_secret"), Some("ab_cdefghijk"));
        assert_eq!(id_of("prl_ab_cdefghijk_"), None);
    }
}
