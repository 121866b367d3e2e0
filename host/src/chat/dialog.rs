//! A dialog's entry: the chat domain's record, as clients send and read it and as the store keeps it.

use serde::{Deserialize, Serialize};

/// One line of a dialog. The API's schema calls it `Entry`, as it always has.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[schema(as = Entry)]
pub struct DialogEntry {
    /// Zero-based position in the dialog.
    #[serde(deserialize_with = "whole_number")]
    pub index: u32,
    /// The speaker.
    pub name: String,
    pub message: String,
}

/// A dialog index written as a whole number, `3` or `3.0`: JSON Schema counts both as integers, and
/// so do clients that store every number as a float.
fn whole_number<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    let n = serde_json::Number::deserialize(d)?;
    n.as_u64()
        .or_else(|| n.as_f64().filter(|f| f.fract() == 0.0 && *f >= 0.0).map(|f| f as u64))
        .and_then(|i| u32::try_from(i).ok())
        .ok_or_else(|| {
            serde::de::Error::custom(format!(
                "invalid index {n}, expected a whole number from 0 to {}",
                u32::MAX
            ))
        })
}
