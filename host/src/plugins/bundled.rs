//! The components built from `plugins/` by `build.rs` and embedded in the binary, by their `builtin:`
//! name.

include!(concat!(env!("OUT_DIR"), "/bundled.rs"));

/// A bundled component: its bytes, and their SHA-256 computed at build time.
#[derive(Clone, Copy, Debug)]
pub struct Bundled {
    pub bytes: &'static [u8],
    pub digest: &'static str,
}

pub fn get(name: &str) -> Option<Bundled> {
    BUNDLED.iter().find(|(n, _, _)| *n == name).map(|&(_, digest, bytes)| Bundled { bytes, digest })
}

/// Every bundled component's name.
pub fn names() -> Vec<&'static str> {
    BUNDLED.iter().map(|(n, _, _)| *n).collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_build_time_digest_is_the_run_time_digest() {
        for name in super::names() {
            let bundled = super::get(name).unwrap();
            assert_eq!(bundled.digest, super::super::compile_cache::digest(bundled.bytes), "{name}");
        }
    }
}
