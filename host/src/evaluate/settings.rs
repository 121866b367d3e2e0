//! The `[evaluate]` section: which metrics run, the weights of the overall score, and the input limits.

use super::weights::{Transform, Weight, Weights};
use crate::config::setting;
use crate::config::{FromValue, Kind, Reader, Section, Setting, Table, ToValue, Value, read_table};

#[derive(Clone, Debug)]
pub struct EvaluateConfig {
    /// Metric plugin ids in evaluation order; every metric plugin when `None`.
    pub metrics: Option<Vec<String>>,
    /// The metrics that `include_semantic` switches on (they need an embedding backend).
    pub semantic_metrics: Vec<String>,
    /// `[evaluate.weights]`: the weights of `overall_score`, by score name.
    pub weights: Weights,
    /// Longest text of a pair, in characters.
    pub max_text_chars: usize,
    /// Most pairs in one `POST /evaluate/batch`.
    pub max_pairs: usize,
}

impl Default for EvaluateConfig {
    fn default() -> Self {
        EvaluateConfig {
            metrics: None,
            semantic_metrics: vec!["semantic".into()],
            weights: Weights::default(),
            max_text_chars: 10_000,
            max_pairs: 10_000,
        }
    }
}

impl Section for EvaluateConfig {
    const NAME: &'static str = "evaluate";
    const ABOUT: &'static str = "Evaluation";
    const TABLES: &'static [&'static str] = &["weights"];

    fn settings() -> &'static [Setting<Self>] {
        static SETTINGS: &[Setting<EvaluateConfig>] = &[
            setting!(
                "metrics",
                Kind::List,
                |c| c.metrics,
                "Metric plugin ids in evaluation order (unset: every metric plugin)"
            ),
            setting!(
                "semantic_metrics",
                Kind::List,
                |c| c.semantic_metrics,
                "The metrics that `include_semantic` switches on"
            ),
            setting!(
                "max_text_chars",
                Kind::Int { min: 1, max: 10_000_000 },
                |c| c.max_text_chars,
                "Longest text of a pair, in characters"
            ),
            setting!(
                "max_pairs",
                Kind::Int { min: 1, max: 10_000_000 },
                |c| c.max_pairs,
                "Most pairs in one `POST /evaluate/batch`"
            ),
        ];
        SETTINGS
    }

    /// `[evaluate.weights]`: `score_name = { weight, transform }` for each score; the table replaces
    /// the default weights whole.
    fn read_tables(&mut self, table: &Table<'_, '_>, reader: &mut Reader<'_>) {
        let Some(weights) = table.table(reader, "weights") else { return };
        let mut entries = std::collections::BTreeMap::new();
        let names: Vec<String> = weights.entries().map(|(k, _, _)| k.to_owned()).collect();
        for name in names {
            let Some(entry) = weights.table(reader, &name) else { continue };
            let entry: WeightTable = read_table(&entry, reader, None);
            if let Some(weight) = entry.weight {
                entries.insert(name, Weight { weight, transform: entry.transform.unwrap_or_default() });
            }
        }
        self.weights = Weights { entries };
    }
}

/// One entry of `[evaluate.weights]`.
#[derive(Default)]
struct WeightTable {
    weight: Option<f64>,
    transform: Option<Transform>,
}

impl Section for WeightTable {
    const NAME: &'static str = "weight";
    const ABOUT: &'static str = "The weight of one score in `overall_score`";

    fn settings() -> &'static [Setting<Self>] {
        static SETTINGS: &[Setting<WeightTable>] = &[
            setting!("weight", Kind::Float { min: 0.0, max: 1e6 }, |c| c.weight, "The score's weight"),
            setting!(
                "transform",
                Kind::Text,
                |c| c.transform,
                "identity (the default), inverse, closeness(TARGET, RANGE) or scale(DIVISOR)"
            ),
        ];
        SETTINGS
    }

    fn validate(&self, problems: &mut Vec<String>) {
        if self.weight.is_none() {
            problems.push("needs a `weight`".into());
        }
    }
}

impl ToValue for Transform {
    fn to_value(&self) -> Value {
        Value::Text(format!("{self:?}"))
    }
}

impl FromValue for Transform {
    fn from_value(value: Value) -> Result<Self, String> {
        Transform::parse(&String::from_value(value)?)
    }
}
