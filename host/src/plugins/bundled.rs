//! The components built from `plugins/` by `build.rs` and embedded in the binary, by their `builtin:`
//! name; the large ones deflated, and inflated only when they must be compiled.

use std::borrow::Cow;
use std::io::Read;

include!(concat!(env!("OUT_DIR"), "/bundled.rs"));

/// A bundled component: its SHA-256 and size, computed at build time, and its embedded bytes.
#[derive(Clone, Copy, Debug)]
pub struct Bundled {
    pub digest: &'static str,
    pub size: usize,
    deflated: bool,
    embedded: &'static [u8],
}

impl Bundled {
    /// The component's bytes: borrowed from the binary, or inflated from it.
    pub fn bytes(&self) -> Cow<'static, [u8]> {
        if !self.deflated {
            return Cow::Borrowed(self.embedded);
        }
        let mut bytes = Vec::with_capacity(self.size);
        flate2::read::DeflateDecoder::new(self.embedded)
            .read_to_end(&mut bytes)
            .expect("a component deflated by build.rs inflates");
        Cow::Owned(bytes)
    }
}

pub fn get(name: &str) -> Option<Bundled> {
    BUNDLED.iter().find(|(n, ..)| *n == name).map(|&(_, digest, size, deflated, embedded)| Bundled {
        digest,
        size,
        deflated,
        embedded,
    })
}

/// Every bundled component's name.
pub fn names() -> Vec<&'static str> {
    BUNDLED.iter().map(|(n, ..)| *n).collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_build_time_digest_and_size_are_the_run_time_ones() {
        for name in super::names() {
            let bundled = super::get(name).unwrap();
            let bytes = bundled.bytes();
            assert_eq!(bundled.digest, super::super::compile_cache::digest(&bytes), "{name}");
            assert_eq!(bundled.size, bytes.len(), "{name}");
        }
        assert!(
            super::BUNDLED.iter().any(|(.., deflated, _)| *deflated),
            "the large components are deflated"
        );
    }
}
