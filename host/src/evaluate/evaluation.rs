//! What an evaluation is: one pair's scores and overall score ([`Evaluation`]), with the reasons any
//! score is missing ([`PairEvaluation`]), and what a caller may ask for ([`EvalOptions`]).

use serde::Serialize;
use std::collections::BTreeMap;

/// The scores of one pair.
#[derive(Clone, Debug, Default, PartialEq, Serialize, utoipa::ToSchema)]
pub struct Evaluation {
    /// Every score by name: the headline scores, or all of them when detail was asked for.
    #[serde(flatten)]
    pub scores: BTreeMap<String, f64>,
    /// The weighted mean of the transformed scores that are present; `null` when none of the weighted
    /// scores is (never a made-up 0).
    pub overall_score: Option<f64>,
}

/// One evaluated pair with the reasons any score is missing.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PairEvaluation {
    pub evaluation: Evaluation,
    pub warnings: Vec<String>,
}

#[derive(Clone, Copy, Debug, Default)]
pub struct EvalOptions {
    /// Run the semantic metrics (they need an embedding backend).
    pub include_semantic: bool,
    /// Return every score the metrics declare, not only the headline ones.
    pub detail: bool,
}
