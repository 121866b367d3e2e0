//! `parlance-textkit`: text normalisation shared by the metric plugins.
//!
//! The metrics must agree number for number with reference tools written in Python, so every
//! function here reproduces one specific piece of those tools, including Python's own notion of
//! whitespace and lowercase:
//!
//! - [`pystr`]: Python `str` semantics (`isspace`, `split()`, `rstrip()`, `lower()`).
//! - [`porter`]: NLTK's `PorterStemmer` in its default `NLTK_EXTENSIONS` mode.
//! - [`rouge`]: the tokenizer of rouge-score 0.1.2.
//! - [`sacre`]: sacreBLEU 2.6.0's `13a` tokenizer.
//! - [`stopwords`]: NLTK's English stopword list.
//! - [`intern`]: token interning with a fast hash, and [`ngram`]: clipped n-gram match counts,
//!   the building blocks the metrics count with.
//!
//! Nothing here does I/O or knows about plugins or the SDK.

pub mod intern;
pub mod ngram;
pub mod porter;
pub mod pystr;
pub mod rouge;
pub mod sacre;
pub mod stopwords;

pub use porter::{PorterStemmer, stem};
pub use rouge::rouge_tokenize;
pub use sacre::{Tokenizer13a, tokenize_13a};
pub use stopwords::is_english_stopword;
