//! Importing the original chat service's database: its `dialogs` table keeps each dialog in its
//! string form (`<name> said: "<message>"`, joined by single spaces), which is read back into entries
//! here.
//!
//! The format cannot tell a message that itself holds `" <name> said: "` from two entries. The
//! reading splits at every such place (quotes elsewhere in a message are read as they are), and a
//! dialog whose reading is doubtful, because its speakers do not alternate as chat exchanges do
//! (the original stored each chat as the user's line and then the character's), is reported by client
//! and user rather than guessed at; the operator can take the reading anyway.

#[cfg(test)]
use super::ChatService;
use super::{ChatConfig, DialogEntry, check_user_id};

const SAID: &str = " said: \"";

/// The reading of a dialog string that splits at every `" <name> said: "`, or why the string does
/// not follow the format at all.
pub fn parse_dialog(text: &str) -> Result<Vec<DialogEntry>, String> {
    let mut entries = Vec::new();
    let mut start = 0;
    while start < text.len() {
        let (name_end, message_start) = entry_head(text, start).ok_or_else(|| {
            format!("at character {start}, no `<name> said: \"` begins an entry (the format is `<name> said: \"<message>\"` joined by spaces)")
        })?;
        let end = message_end(text, message_start).ok_or_else(|| {
            format!("the message that starts at character {message_start} has no closing quote")
        })?;
        entries.push(DialogEntry {
            index: entries.len() as u32,
            name: text[start..name_end].to_owned(),
            message: text[message_start..end].to_owned(),
        });
        start = if end + 1 == text.len() { end + 1 } else { end + 2 };
    }
    Ok(entries)
}

/// Where the name of an entry starting at `start` ends and its message begins: a name without a
/// quote, not blank at its start, then ` said: "`.
fn entry_head(text: &str, start: usize) -> Option<(usize, usize)> {
    let rest = &text[start..];
    let said = rest.find(SAID)?;
    let name = &rest[..said];
    (!name.is_empty() && !name.contains('"') && !name.starts_with(' '))
        .then_some((start + said, start + said + SAID.len()))
}

/// The closing quote of the message that starts at `from`: the first quote that ends the text or is
/// followed by a space and the head of another entry.
fn message_end(text: &str, from: usize) -> Option<usize> {
    text[from..].match_indices('"').map(|(i, _)| from + i).find(|&q| {
        q + 1 == text.len() || (text[q + 1..].starts_with(' ') && entry_head(text, q + 2).is_some())
    })
}

/// Why a reading may not be what the original stored: its speakers do not alternate as exchanges
/// of chats do (one name on the user's lines, another on the character's), which is what an extra
/// split inside a message looks like. `None` when they do.
pub fn doubt(entries: &[DialogEntry]) -> Option<String> {
    if entries.len() % 2 == 1 {
        return Some(format!(
            "it reads as {} entries, an odd number, where chats add two at a time; a message may hold `\" <name> said: \"`",
            entries.len()
        ));
    }
    let user_side: std::collections::BTreeSet<&str> =
        entries.iter().step_by(2).map(|e| e.name.as_str()).collect();
    if let Some(e) = entries.iter().skip(1).step_by(2).find(|e| user_side.contains(e.name.as_str())) {
        return Some(format!(
            "entry {} is the character's line but is said by {:?}, a name on the user's lines; a message may hold `\" <name> said: \"`",
            e.index, e.name
        ));
    }
    None
}

/// One row of the original's `dialogs` table, read and checked.
#[derive(Debug)]
pub struct OriginalUser {
    pub client: String,
    pub user_id: String,
    pub entries: Vec<DialogEntry>,
    /// Milliseconds since the Unix epoch.
    pub modified_at: i64,
}

/// The client id the original used when no `current-user` header was sent.
pub const ORIGINAL_DEFAULT_CLIENT: &str = "0_no_current_user_specified";

/// Checks what Parlance needs of an imported user (its id and its entries' limits).
pub fn check_user(config: &ChatConfig, user: &OriginalUser) -> Result<(), String> {
    check_user_id(&user.user_id).map_err(|e| e.to_string())?;
    if user.entries.len() > config.max_history_entries {
        return Err(format!(
            "the dialog has {} entries; the limit is {} ([chat] max_history_entries)",
            user.entries.len(),
            config.max_history_entries
        ));
    }
    for entry in &user.entries {
        config.check_entry(entry).map_err(|e| format!("entry {}: {e}", entry.index))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entries(pairs: &[(&str, &str)]) -> Vec<DialogEntry> {
        pairs
            .iter()
            .enumerate()
            .map(|(i, (n, m))| DialogEntry { index: i as u32, name: (*n).into(), message: (*m).into() })
            .collect()
    }

    #[test]
    fn dialog_strings_read_back_into_their_entries() {
        for dialog in [
            entries(&[]),
            entries(&[("User", "Hi"), ("Waifu", "Hello")]),
            entries(&[("User", "Hi there"), ("Waifu", "Hello \"you\"!"), ("Big Bob", ""), ("Waifu", "x")]),
            entries(&[("User", "She said \"no\" twice"), ("Waifu", "ok")]),
            entries(&[("User", "quote at the end\""), ("Waifu", "fine")]),
            entries(&[("User", "he said: \"go\""), ("Waifu", "so?")]),
        ] {
            let text = ChatService::dialog_string(&dialog);
            assert_eq!(parse_dialog(&text).unwrap(), dialog, "{text}");
            assert_eq!(doubt(&dialog), None, "{text}");
        }
    }

    #[test]
    fn a_message_holding_the_separator_is_doubtful_and_broken_strings_are_refused() {
        let text = ChatService::dialog_string(&entries(&[("User", "x\" Waifu said: \"y"), ("Waifu", "z")]));
        let read = parse_dialog(&text).unwrap();
        assert_eq!(read.len(), 3, "the reading splits at the separator inside the message");
        assert!(doubt(&read).unwrap().contains("odd number"), "{read:?}");
        let text = ChatService::dialog_string(&entries(&[
            ("User", "a\" User said: \"b"),
            ("Waifu", "c"),
            ("User", "d"),
        ]));
        assert!(doubt(&parse_dialog(&text).unwrap()).is_some());
        for broken in ["hello", "User said: \"unterminated", "\"Q\" said: \"x\""] {
            assert!(parse_dialog(broken).is_err(), "{broken}");
        }
        // Two spaces between entries is no separator: one entry, whose odd count is doubtful.
        let one = parse_dialog("User said: \"a\"  Waifu said: \"b\"").unwrap();
        assert_eq!(one.len(), 1);
        assert!(doubt(&one).is_some());
    }

    #[test]
    fn long_dialogs_read_whole() {
        let long: Vec<(String, String)> = (0..5000)
            .map(|i| (if i % 2 == 0 { "User" } else { "Waifu" }.to_owned(), format!("message \"{i}\"")))
            .collect();
        let refs: Vec<(&str, &str)> = long.iter().map(|(n, m)| (n.as_str(), m.as_str())).collect();
        let dialog = entries(&refs);
        assert_eq!(parse_dialog(&ChatService::dialog_string(&dialog)).unwrap(), dialog);
    }
}
