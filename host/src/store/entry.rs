//! A dialog's entry as the store keeps it, and as it renders it to JSON: a plain record that the
//! chat API shows under its own schema.

use serde::{Deserialize, Serialize};

/// One line of a dialog.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DialogEntry {
    /// Zero-based position in the dialog.
    pub index: u32,
    /// The speaker.
    pub name: String,
    pub message: String,
}
