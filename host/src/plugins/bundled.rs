//! The components built from `plugins/` by `build.rs` and embedded in the binary, by their `builtin:`
//! name.

include!(concat!(env!("OUT_DIR"), "/bundled.rs"));

/// The bytes of a bundled component.
pub fn get(name: &str) -> Option<&'static [u8]> {
    BUNDLED.iter().find(|(n, _)| *n == name).map(|(_, bytes)| *bytes)
}

/// Every bundled component's name.
pub fn names() -> Vec<&'static str> {
    BUNDLED.iter().map(|(n, _)| *n).collect()
}
