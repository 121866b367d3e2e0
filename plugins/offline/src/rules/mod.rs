//! The rules, one file per family (a folder for the largest, `phrases`). No rule imports another:
//! each stands on the layers below (the words layer, the token navigation, the sentence builder,
//! the sentence's parts, the lexicon and its inflections), and `structure` and `paraphrase` put
//! them in order.

pub mod adverbs;
pub mod articles;
pub mod clauses;
pub mod comparison;
pub mod connectives;
pub mod contraction;
pub mod coordination;
pub mod future;
pub mod infinitives;
pub mod light_verbs;
pub mod manner;
pub mod negation;
pub mod phrasal;
pub mod phrases;
pub mod place;
pub mod possession;
pub mod quantities;
pub mod questions;
pub mod relative;
pub mod substitution;
pub mod suggestions;
pub mod tense;
pub mod time;
pub mod voice;
