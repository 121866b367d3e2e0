//! A dialog's entry as clients send it: the store's [`DialogEntry`] under the API's schema `Entry`,
//! with the one reading rule the API adds (an index may be written `3` or `3.0`).

use crate::store::DialogEntry;
use serde::Deserialize;

// A request body's entry; responses show the store's `DialogEntry`, which has the same fields. The
// doc comment below is the schema's description, and serde's name stays the one its messages gave.
/// One line of a dialog. The API's schema calls it `Entry`, as it always has.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename = "DialogEntry")]
#[schema(as = Entry)]
pub struct Entry {
    /// Zero-based position in the dialog.
    #[serde(deserialize_with = "whole_number")]
    pub index: u32,
    /// The speaker.
    pub name: String,
    pub message: String,
}

impl From<Entry> for DialogEntry {
    fn from(Entry { index, name, message }: Entry) -> Self {
        DialogEntry { index, name, message }
    }
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
