//! The limits on a chat model's input, written once for every surface that reaches one: a chat whole
//! or streamed, a completion of the OpenAI-compatible surface whole or streamed (stored or not), the
//! library's `reply_stream` (and so the CLI's `chat`), and a dialog written whole (a PUT, an import).
//! A surface names the part at fault in its own words; the rule is this file's.

use super::settings::ChatConfig;
use crate::error::Error;
use crate::plugins::api::{ChatRequest, HistoryEntry};
use crate::store::DialogEntry;

/// A chat model's input as a surface hands it over, checked before anything is called.
#[derive(Clone, Copy, Debug)]
pub struct ModelInput<'a> {
    pub message: &'a str,
    pub from_name: &'a str,
    pub to_name: &'a str,
    pub genre: &'a str,
    pub situation: Option<&'a str>,
    /// The entries before the message that the caller wrote itself (an OpenAI conversation's earlier
    /// messages, a library caller's request): each is held to what a dialog written whole is held to,
    /// but for the length of the character's own replies, and the dialog they make with the message
    /// and its reply to `max_history_entries`. A chat's
    /// are none: its dialog comes from the store, where each entry was checked when it was written,
    /// or is the model's own reply.
    pub history: &'a [HistoryEntry<'a>],
}

impl<'a> ModelInput<'a> {
    /// A whole request, its history written by the caller.
    pub fn of(request: &'a ChatRequest<'a>) -> Self {
        ModelInput {
            message: &request.message,
            from_name: &request.from_name,
            to_name: &request.to_name,
            genre: &request.genre,
            situation: request.situation.as_deref(),
            history: &request.history,
        }
    }
}

/// The part of a chat model's input that breaks a limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    Message,
    FromName,
    ToName,
    Genre,
    Situation,
    /// The caller's history as a whole: too many entries.
    History,
    /// One entry of the caller's history, by its position in it; `name` when its name is at fault,
    /// else its message.
    Entry {
        position: usize,
        name: bool,
    },
}

/// What is wrong with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    Empty,
    /// Longer than `limit` characters, the value of `[chat] <setting>`.
    TooLong {
        chars: usize,
        limit: usize,
        setting: &'static str,
    },
    /// A dialog of `entries` entries, past `[chat] max_history_entries`.
    TooMany {
        entries: usize,
        limit: usize,
    },
    ControlCharacters,
}

impl Fault {
    /// The fault, said of `what` (a field in backquotes, or words).
    pub fn describe(&self, what: &str) -> String {
        match self {
            Fault::Empty => format!("{what} is empty"),
            Fault::TooLong { chars, limit, setting } => {
                format!("{what} has {chars} characters; the limit is {limit} ([chat] {setting})")
            }
            Fault::TooMany { entries, limit } => format!(
                "{what} would make a dialog of {entries} entries with its reply; the limit is {limit} ([chat] max_history_entries)"
            ),
            Fault::ControlCharacters => format!("{what} contains control characters"),
        }
    }
}

/// A chat model's input refused by its limits, before any call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Refusal {
    pub part: Part,
    pub fault: Fault,
}

impl Refusal {
    /// The request field at fault, as the chat API and the library name it.
    pub fn field(&self) -> &'static str {
        match self.part {
            Part::Message => "message",
            Part::FromName => "from_name",
            Part::ToName => "to_name",
            Part::Genre => "genre",
            Part::Situation => "situation",
            Part::History | Part::Entry { .. } => "history",
        }
    }
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let text = match self.part {
            Part::History => self.fault.describe("the history"),
            Part::Entry { position, name } => {
                let field = if name { "`name`" } else { "`message`" };
                format!("history entry {position}: {}", self.fault.describe(field))
            }
            _ => self.fault.describe(&format!("`{}`", self.field())),
        };
        f.write_str(&text)
    }
}

impl From<Refusal> for Error {
    fn from(refusal: Refusal) -> Self {
        Error::invalid(refusal.field(), refusal.to_string())
    }
}

impl ChatConfig {
    /// Every limit on a chat model's input: the message, the two names and the genre, the situation,
    /// and the history the caller wrote (see [`ModelInput::history`]).
    pub fn check_input(&self, input: &ModelInput<'_>) -> Result<(), Refusal> {
        let at = |part| move |fault| Refusal { part, fault };
        if input.message.trim().is_empty() {
            return Err(Refusal { part: Part::Message, fault: Fault::Empty });
        }
        self.check_message(input.message).map_err(at(Part::Message))?;
        self.check_name(input.from_name).map_err(at(Part::FromName))?;
        self.check_name(input.to_name).map_err(at(Part::ToName))?;
        self.check_name(input.genre).map_err(at(Part::Genre))?;
        if let Some(situation) = input.situation {
            let limit = (self.max_situation_chars, "max_situation_chars");
            check_text(situation, limit, true).map_err(at(Part::Situation))?;
        }
        if let Some(entries) = self.overflow_after_turn(input.history.len()) {
            let fault = Fault::TooMany { entries, limit: self.max_history_entries };
            return Err(Refusal { part: Part::History, fault });
        }
        for (position, entry) in input.history.iter().enumerate() {
            self.check_name(entry.name).map_err(at(Part::Entry { position, name: true }))?;
            // The character's earlier replies are the model's own words, which a chat stores whatever
            // their length: a client that replays a long reply must not be refused on its next turn.
            // They keep the rule on control characters; the body's size bounds their length.
            let limit = if entry.name == input.to_name {
                (usize::MAX, "max_message_chars")
            } else {
                (self.max_message_chars, "max_message_chars")
            };
            check_text(entry.message, limit, true).map_err(at(Part::Entry { position, name: false }))?;
        }
        Ok(())
    }

    /// The entries a dialog of `length` would hold after one more turn (the message and its reply),
    /// when that is past `max_history_entries`.
    pub(crate) fn overflow_after_turn(&self, length: usize) -> Option<usize> {
        let would = length.saturating_add(2);
        (would > self.max_history_entries).then_some(would)
    }

    /// An entry of a dialog written whole (a PUT, an import): its name and message within the limits.
    pub(crate) fn check_entry(&self, entry: &DialogEntry) -> Result<(), Error> {
        let said = |field: &'static str| {
            move |fault: Fault| Error::invalid(field, fault.describe(&format!("`{field}`")))
        };
        self.check_name(&entry.name).map_err(said("name"))?;
        self.check_message(&entry.message).map_err(said("message"))
    }

    fn check_message(&self, message: &str) -> Result<(), Fault> {
        check_text(message, (self.max_message_chars, "max_message_chars"), true)
    }

    fn check_name(&self, name: &str) -> Result<(), Fault> {
        if name.trim().is_empty() {
            return Err(Fault::Empty);
        }
        check_text(name, (self.max_name_chars, "max_name_chars"), false)
    }
}

/// A text within `limit` characters (the limit and its setting), without control characters but, in
/// a `multiline` text, line breaks and tabs.
fn check_text(text: &str, (limit, setting): (usize, &'static str), multiline: bool) -> Result<(), Fault> {
    // Counting stops past the limit: a text of millions of characters costs no more than one at it.
    let chars = text.chars().take(limit.saturating_add(1)).count();
    if chars > limit {
        return Err(Fault::TooLong { chars: text.chars().count(), limit, setting });
    }
    let bad = |c: char| c.is_control() && !(multiline && matches!(c, '\n' | '\r' | '\t'));
    if text.chars().any(bad) {
        return Err(Fault::ControlCharacters);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input<'a>(message: &'a str, history: &'a [HistoryEntry<'a>]) -> ModelInput<'a> {
        ModelInput {
            message,
            from_name: "User",
            to_name: "Waifu",
            genre: "Romance",
            situation: None,
            history,
        }
    }

    fn entry<'a>(index: u32, name: &'a str, message: &'a str) -> HistoryEntry<'a> {
        HistoryEntry { index, name, message }
    }

    #[test]
    fn each_part_of_the_input_meets_its_limit() {
        let config = ChatConfig { max_history_entries: 4, ..ChatConfig::default() };
        assert_eq!(config.check_input(&input("Hi", &[])), Ok(()));
        let long = "m".repeat(config.max_message_chars + 1);
        let refused = config.check_input(&input(&long, &[])).unwrap_err();
        assert_eq!(refused.part, Part::Message);
        assert_eq!(refused.fault, Fault::TooLong { chars: 4001, limit: 4000, setting: "max_message_chars" });
        assert_eq!(
            refused.to_string(),
            "`message` has 4001 characters; the limit is 4000 ([chat] max_message_chars)"
        );
        assert_eq!(config.check_input(&input(" \n", &[])).unwrap_err().fault, Fault::Empty);
        assert_eq!(config.check_input(&input("a\u{7}b", &[])).unwrap_err().fault, Fault::ControlCharacters);
        // Line breaks and tabs are a message's, not a name's.
        assert_eq!(config.check_input(&input("a\nb\tc", &[])), Ok(()));
        let named = ModelInput { from_name: "A\nB", ..input("Hi", &[]) };
        assert_eq!(config.check_input(&named).unwrap_err().part, Part::FromName);

        let situation = "s".repeat(config.max_situation_chars + 1);
        let set = ModelInput { situation: Some(&situation), ..input("Hi", &[]) };
        assert_eq!(config.check_input(&set).unwrap_err().part, Part::Situation);

        // Two entries, the message and its reply make 4: the limit. Three more would make 5.
        let two = [entry(0, "User", "Hi"), entry(1, "Waifu", "Hello")];
        assert_eq!(config.check_input(&input("Hi", &two)), Ok(()));
        let three = [entry(0, "User", "Hi"), entry(1, "Waifu", "Hello"), entry(2, "User", "Hm")];
        let refused = config.check_input(&input("Hi", &three)).unwrap_err();
        assert_eq!((refused.part, refused.fault), (Part::History, Fault::TooMany { entries: 5, limit: 4 }));
        // An entry the caller wrote is held to what a dialog PUT is; the character's own replies are
        // not held to the message length.
        let replied = [entry(0, "User", "Hi"), entry(1, "Waifu", &long)];
        assert_eq!(config.check_input(&input("Hi", &replied)), Ok(()));
        let written = [entry(0, "Waifu", "Hi"), entry(1, "User", &long)];
        let refused = config.check_input(&input("Hi", &written)).unwrap_err();
        assert_eq!(refused.part, Part::Entry { position: 1, name: false });
        assert_eq!(refused.field(), "history");
        assert!(
            refused.to_string().starts_with("history entry 1: `message` has 4001 characters"),
            "{refused}"
        );
        let unnamed = [entry(0, " ", "Hi")];
        assert_eq!(
            config.check_input(&input("Hi", &unnamed)).unwrap_err().part,
            Part::Entry { position: 0, name: true }
        );
    }

    #[test]
    fn a_refusal_is_an_invalid_input_of_its_field() {
        let config = ChatConfig::default();
        let long = "x".repeat(2_000_000);
        let e = Error::from(config.check_input(&input(&long, &[])).unwrap_err());
        assert!(matches!(e, Error::InvalidInput { field: "message", .. }), "{e:?}");
        assert!(e.to_string().contains("2000000 characters"), "{e}");
    }
}
