//! The BERT WordPiece tokenizer described by a Hugging Face `tokenizer.json`, reimplemented to give the
//! same ids as the `tokenizers` library: special tokens matched in the raw text, `BertNormalizer`,
//! `BertPreTokenizer`, `WordPiece`, the `[CLS]`/`[SEP]` template and right-side truncation.
//!
//! Character classes come from the crates `tokenizers` itself uses (`unicode_categories` for
//! punctuation and "other", `unicode-normalization-alignments` for NFD) and from `char`'s own
//! whitespace and lowercase mappings, which `tokenizers` also uses; that is what keeps the two
//! implementations in step on every code point, not just on the ones the fixtures cover.

use crate::config::read_json;
use crate::error::EmbeddingsError;
use serde::Deserialize;
use serde_json::Value;
use std::collections::HashMap;
use std::path::Path;
use unicode_categories::UnicodeCategories;
use unicode_normalization_alignments::UnicodeNormalization;

#[derive(Deserialize)]
struct TokenizerJson {
    #[serde(default)]
    added_tokens: Vec<AddedTokenJson>,
    normalizer: Option<Value>,
    pre_tokenizer: Option<Value>,
    post_processor: Option<Value>,
    model: Value,
}

#[derive(Deserialize)]
struct AddedTokenJson {
    id: u32,
    content: String,
    #[serde(default)]
    single_word: bool,
    #[serde(default)]
    lstrip: bool,
    #[serde(default)]
    rstrip: bool,
    #[serde(default)]
    normalized: bool,
}

#[derive(Deserialize)]
struct BertNormalizerJson {
    #[serde(default = "yes")]
    clean_text: bool,
    #[serde(default = "yes")]
    handle_chinese_chars: bool,
    #[serde(default)]
    strip_accents: Option<bool>,
    #[serde(default = "yes")]
    lowercase: bool,
}

fn yes() -> bool {
    true
}

#[derive(Deserialize)]
struct WordPieceJson {
    unk_token: String,
    #[serde(default = "default_prefix")]
    continuing_subword_prefix: String,
    #[serde(default = "default_max_chars")]
    max_input_chars_per_word: usize,
    vocab: HashMap<String, u32>,
}

fn default_prefix() -> String {
    "##".into()
}
fn default_max_chars() -> usize {
    100
}

#[derive(Clone, Copy, Debug)]
struct Normalizer {
    clean_text: bool,
    handle_chinese_chars: bool,
    strip_accents: bool,
    lowercase: bool,
}

/// A tokenizer.json of the BERT family, ready to encode single sentences.
#[derive(Debug)]
pub(crate) struct BertTokenizer {
    vocab: HashMap<String, u32>,
    unk_id: u32,
    subword_prefix: String,
    max_input_chars_per_word: usize,
    normalizer: Option<Normalizer>,
    /// Added tokens matched verbatim in the raw input, before normalisation.
    added: Vec<(String, u32)>,
    /// Ids the post-processor puts before and after the sentence (`[CLS]` and `[SEP]`).
    template_prefix: Vec<u32>,
    template_suffix: Vec<u32>,
    /// Longest output, special tokens included.
    max_len: usize,
}

impl BertTokenizer {
    /// Reads `path` (a tokenizer.json); `max_len` is sentence-transformers' `max_seq_length`, which
    /// overrides the truncation block of the file just as `SentenceTransformer` does.
    pub fn load(path: &Path, max_len: usize, must_lowercase: bool) -> Result<Self, EmbeddingsError> {
        let json: TokenizerJson = read_json(path)?;

        let model_type = json.model.get("type").and_then(Value::as_str).unwrap_or("");
        if model_type != "WordPiece" {
            return Err(EmbeddingsError::unsupported(path, "model.type", model_type, "\"WordPiece\""));
        }
        let model: WordPieceJson = parse(path, "model", &json.model)?;
        let unk_id = *model.vocab.get(&model.unk_token).ok_or_else(|| {
            EmbeddingsError::invalid(
                path,
                "model.unk_token",
                format!("{:?} is not in model.vocab", model.unk_token),
            )
        })?;

        let normalizer = match &json.normalizer {
            None | Some(Value::Null) => None,
            Some(value) => {
                let kind = value.get("type").and_then(Value::as_str).unwrap_or("");
                if kind != "BertNormalizer" {
                    return Err(EmbeddingsError::unsupported(
                        path,
                        "normalizer.type",
                        kind,
                        "\"BertNormalizer\"",
                    ));
                }
                let n: BertNormalizerJson = parse(path, "normalizer", value)?;
                Some(Normalizer {
                    clean_text: n.clean_text,
                    handle_chinese_chars: n.handle_chinese_chars,
                    // `tokenizers` strips accents by default exactly when it lowercases.
                    strip_accents: n.strip_accents.unwrap_or(n.lowercase),
                    lowercase: n.lowercase,
                })
            }
        };
        if must_lowercase && !normalizer.is_some_and(|n| n.lowercase) {
            return Err(EmbeddingsError::unsupported(
                path,
                "normalizer.lowercase",
                false,
                "a lowercasing normalizer when sentence_bert_config.json sets do_lower_case",
            ));
        }

        let pre =
            json.pre_tokenizer.as_ref().and_then(|p| p.get("type")).and_then(Value::as_str).unwrap_or("");
        if pre != "BertPreTokenizer" {
            return Err(EmbeddingsError::unsupported(
                path,
                "pre_tokenizer.type",
                pre,
                "\"BertPreTokenizer\"",
            ));
        }

        let mut added = Vec::new();
        for (i, token) in json.added_tokens.iter().enumerate() {
            let flags = [
                ("single_word", token.single_word),
                ("lstrip", token.lstrip),
                ("rstrip", token.rstrip),
                ("normalized", token.normalized),
            ];
            if let Some((flag, _)) = flags.iter().find(|(_, on)| *on) {
                return Err(EmbeddingsError::unsupported(
                    path,
                    format!("added_tokens[{i}].{flag}"),
                    true,
                    "added tokens matched verbatim (all four flags false)",
                ));
            }
            if !token.content.is_empty() {
                added.push((token.content.clone(), token.id));
            }
        }

        let (template_prefix, template_suffix) = match &json.post_processor {
            None | Some(Value::Null) => (Vec::new(), Vec::new()),
            Some(value) => parse_template(path, value)?,
        };
        let specials = template_prefix.len() + template_suffix.len();
        if max_len <= specials {
            return Err(EmbeddingsError::invalid(
                path,
                "post_processor",
                format!("adds {specials} special tokens, leaving no room within max_seq_length {max_len}"),
            ));
        }

        Ok(Self {
            vocab: model.vocab,
            unk_id,
            subword_prefix: model.continuing_subword_prefix,
            max_input_chars_per_word: model.max_input_chars_per_word,
            normalizer,
            added,
            template_prefix,
            template_suffix,
            max_len,
        })
    }

    /// The largest id the tokenizer can produce, to be checked against the embedding table.
    pub fn max_id(&self) -> u32 {
        let vocab = self.vocab.values().copied();
        let added = self.added.iter().map(|(_, id)| *id);
        let template = self.template_prefix.iter().chain(&self.template_suffix).copied();
        vocab.chain(added).chain(template).max().unwrap_or(0)
    }

    /// The ids BERT sees for `text`: `[CLS]`, the truncated WordPiece ids, `[SEP]`.
    pub fn encode(&self, text: &str) -> Vec<u32> {
        let mut ids = self.template_prefix.clone();
        let mut scratch = Scratch::default();
        let mut rest = text;
        while !rest.is_empty() {
            let (before, special, after) = self.split_added(rest);
            self.encode_plain(before, &mut ids, &mut scratch);
            match special {
                Some(id) => ids.push(id),
                None => break,
            }
            rest = after;
        }
        // Truncation keeps the first tokens, cutting through words if need be, as `tokenizers`
        // does for a single sequence with `longest_first`.
        ids.truncate(self.max_len - self.template_suffix.len());
        ids.extend_from_slice(&self.template_suffix);
        ids
    }

    /// Finds the leftmost added token in `text`, the longest one if several start there.
    fn split_added<'t>(&self, text: &'t str) -> (&'t str, Option<u32>, &'t str) {
        if !self.added.is_empty() {
            for (at, _) in text.char_indices() {
                let tail = &text[at..];
                let best = self
                    .added
                    .iter()
                    .filter(|(content, _)| tail.starts_with(content.as_str()))
                    .max_by_key(|(content, _)| content.len());
                if let Some((content, id)) = best {
                    return (&text[..at], Some(*id), &tail[content.len()..]);
                }
            }
        }
        (text, None, "")
    }

    fn encode_plain(&self, text: &str, ids: &mut Vec<u32>, scratch: &mut Scratch) {
        if text.is_empty() {
            return;
        }
        let normalized = match self.normalizer {
            Some(n) => {
                n.normalize(text, scratch);
                scratch.normalized.as_str()
            }
            None => text,
        };
        // BertPreTokenizer: whitespace separates and is dropped; each punctuation character is a
        // word of its own.
        let mut word_start = None;
        for (at, c) in normalized.char_indices() {
            let split = c.is_whitespace() || is_bert_punctuation(c);
            if split {
                if let Some(start) = word_start.take() {
                    self.word_piece(&normalized[start..at], ids, &mut scratch.piece);
                }
                if !c.is_whitespace() {
                    self.word_piece(&normalized[at..at + c.len_utf8()], ids, &mut scratch.piece);
                }
            } else if word_start.is_none() {
                word_start = Some(at);
            }
        }
        if let Some(start) = word_start {
            self.word_piece(&normalized[start..], ids, &mut scratch.piece);
        }
    }

    /// Greedy longest-match-first WordPiece; a word with any unmatched remainder becomes one `[UNK]`.
    fn word_piece(&self, word: &str, ids: &mut Vec<u32>, piece: &mut String) {
        if word.chars().count() > self.max_input_chars_per_word {
            ids.push(self.unk_id);
            return;
        }
        let first = ids.len();
        let mut start = 0;
        while start < word.len() {
            let mut end = word.len();
            let mut found = None;
            while start < end {
                let candidate = &word[start..end];
                let id = if start == 0 {
                    self.vocab.get(candidate)
                } else {
                    piece.clear();
                    piece.push_str(&self.subword_prefix);
                    piece.push_str(candidate);
                    self.vocab.get(piece.as_str())
                };
                if let Some(&id) = id {
                    found = Some(id);
                    break;
                }
                end -= candidate.chars().next_back().map_or(1, char::len_utf8);
            }
            let Some(id) = found else {
                ids.truncate(first);
                ids.push(self.unk_id);
                return;
            };
            ids.push(id);
            start = end;
        }
    }
}

#[derive(Default)]
struct Scratch {
    normalized: String,
    stage: String,
    piece: String,
}

impl Normalizer {
    /// The passes of `tokenizers`' BertNormalizer, in its order, into `scratch.normalized`.
    fn normalize(self, text: &str, scratch: &mut Scratch) {
        let Scratch { normalized: out, stage, .. } = scratch;
        out.clear();
        out.push_str(text);
        if self.clean_text {
            stage.clear();
            for c in out.chars() {
                if c == '\0' || c == '\u{fffd}' || is_control(c) {
                    continue;
                }
                stage.push(if is_bert_whitespace(c) { ' ' } else { c });
            }
            std::mem::swap(out, stage);
        }
        if self.handle_chinese_chars && out.chars().any(is_chinese_char) {
            stage.clear();
            for c in out.chars() {
                if is_chinese_char(c) {
                    stage.extend([' ', c, ' ']);
                } else {
                    stage.push(c);
                }
            }
            std::mem::swap(out, stage);
        }
        if self.strip_accents && !out.is_ascii() {
            stage.clear();
            stage.extend(out.nfd().map(|(c, _)| c).filter(|c| !c.is_mark_nonspacing()));
            std::mem::swap(out, stage);
        }
        if self.lowercase {
            if out.is_ascii() {
                out.make_ascii_lowercase();
            } else {
                stage.clear();
                // Character by character, as `tokenizers` does: no final-sigma context rule.
                stage.extend(out.chars().flat_map(char::to_lowercase));
                std::mem::swap(out, stage);
            }
        }
    }
}

fn parse<T: serde::de::DeserializeOwned>(
    path: &Path,
    field: &str,
    value: &Value,
) -> Result<T, EmbeddingsError> {
    serde_json::from_value(value.clone()).map_err(|e| EmbeddingsError::invalid(path, field, e.to_string()))
}

fn is_bert_whitespace(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r') || c.is_whitespace()
}

/// Cc, Cf and Co (not Cn), except the three whitespace controls.
fn is_control(c: char) -> bool {
    !matches!(c, '\t' | '\n' | '\r') && c.is_other()
}

fn is_bert_punctuation(c: char) -> bool {
    c.is_ascii_punctuation() || c.is_punctuation()
}

/// The CJK ideograph blocks BERT puts spaces around (not kana or hangul, which use spaces anyway).
fn is_chinese_char(c: char) -> bool {
    matches!(
        u32::from(c),
        0x4E00..=0x9FFF
            | 0x3400..=0x4DBF
            | 0x20000..=0x2A6DF
            | 0x2A700..=0x2B73F
            | 0x2B740..=0x2B81F
            | 0x2B920..=0x2CEAF
            | 0xF900..=0xFAFF
            | 0x2F800..=0x2FA1F
    )
}

/// Reads a `TemplateProcessing` or `BertProcessing` post-processor into the ids it puts around a
/// single sentence.
fn parse_template(path: &Path, value: &Value) -> Result<(Vec<u32>, Vec<u32>), EmbeddingsError> {
    let kind = value.get("type").and_then(Value::as_str).unwrap_or("");
    match kind {
        "BertProcessing" => {
            let id = |field: &str| {
                value
                    .get(field)
                    .and_then(|pair| pair.get(1))
                    .and_then(Value::as_u64)
                    .and_then(|id| u32::try_from(id).ok())
            };
            match (id("cls"), id("sep")) {
                (Some(cls), Some(sep)) => Ok((vec![cls], vec![sep])),
                _ => {
                    Err(EmbeddingsError::invalid(path, "post_processor", "needs cls and sep as [token, id]"))
                }
            }
        }
        "TemplateProcessing" => {
            let invalid = |problem: &str| EmbeddingsError::invalid(path, "post_processor.single", problem);
            let items =
                value.get("single").and_then(Value::as_array).ok_or_else(|| invalid("is not a list"))?;
            let (mut prefix, mut suffix, mut seen_sequence) = (Vec::new(), Vec::new(), false);
            for item in items {
                if let Some(seq) = item.get("Sequence") {
                    if seen_sequence || seq.get("id").and_then(Value::as_str) != Some("A") {
                        return Err(invalid("must hold the sequence $A exactly once"));
                    }
                    check_type_id(path, seq)?;
                    seen_sequence = true;
                } else if let Some(special) = item.get("SpecialToken") {
                    check_type_id(path, special)?;
                    let name = special
                        .get("id")
                        .and_then(Value::as_str)
                        .ok_or_else(|| invalid("special token without id"))?;
                    let ids = value
                        .get("special_tokens")
                        .and_then(|s| s.get(name))
                        .and_then(|s| s.get("ids"))
                        .and_then(Value::as_array)
                        .ok_or_else(|| invalid(&format!("uses {name:?}, absent from special_tokens")))?;
                    let target = if seen_sequence { &mut suffix } else { &mut prefix };
                    for id in ids {
                        let id = id.as_u64().and_then(|id| u32::try_from(id).ok());
                        target.push(id.ok_or_else(|| invalid(&format!("{name:?} has a non-integer id")))?);
                    }
                } else {
                    return Err(invalid("holds an item that is neither Sequence nor SpecialToken"));
                }
            }
            if !seen_sequence {
                return Err(invalid("must hold the sequence $A exactly once"));
            }
            Ok((prefix, suffix))
        }
        other => Err(EmbeddingsError::unsupported(
            path,
            "post_processor.type",
            other,
            "\"TemplateProcessing\" or \"BertProcessing\"",
        )),
    }
}

/// The encoder feeds token type 0 throughout, so the template must ask for nothing else.
fn check_type_id(path: &Path, item: &Value) -> Result<(), EmbeddingsError> {
    match item.get("type_id").and_then(Value::as_u64).unwrap_or(0) {
        0 => Ok(()),
        other => Err(EmbeddingsError::unsupported(path, "post_processor.single[].type_id", other, "0")),
    }
}
