//! What a plugin returns is checked before anyone sees it: the names and shape of its `info()`, and a
//! metric's scores against the pairs and the names it declared.

use super::api::{PluginError, PluginInfo, Score};

/// Score names are what API clients see as JSON keys, so they are checked once at load.
pub(crate) fn validate_info(info: &PluginInfo) -> Result<(), String> {
    match info {
        PluginInfo::Provider { default_model, .. } if default_model.trim().is_empty() => {
            Err("its info() names no default model".into())
        }
        PluginInfo::Metric { scores, .. } => {
            if scores.is_empty() {
                return Err("its info() declares no scores".into());
            }
            let mut seen = std::collections::BTreeSet::new();
            for s in scores {
                let valid = !s.name.is_empty()
                    && s.name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                    && !s.name.starts_with(|c: char| c.is_ascii_digit());
                if !valid {
                    return Err(format!(
                        "its score name {:?} is not an identifier ([A-Za-z_][A-Za-z0-9_]*)",
                        s.name
                    ));
                }
                if !seen.insert(s.name.as_str()) {
                    return Err(format!("it declares the score {:?} twice", s.name));
                }
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// A metric's results must line up with its pairs and hold only the finite scores it declared.
pub(crate) fn validate_scores(
    info: &PluginInfo,
    pairs: usize,
    results: &[Result<Vec<Score>, PluginError>],
) -> Result<(), String> {
    if results.len() != pairs {
        return Err(format!("{} results for {pairs} pairs", results.len()));
    }
    let PluginInfo::Metric { scores: declared, .. } = info else {
        return Err("not a metric".into());
    };
    for (i, scores) in results.iter().enumerate().filter_map(|(i, r)| r.as_ref().ok().map(|s| (i, s))) {
        let mut seen = std::collections::BTreeSet::new();
        for score in scores {
            if !declared.iter().any(|d| d.name == score.name) {
                return Err(format!("pair {i}: the score {:?} is not declared in its info()", score.name));
            }
            if !seen.insert(&score.name) {
                return Err(format!("pair {i}: the score {:?} appears twice", score.name));
            }
            if !score.value.is_finite() {
                return Err(format!("pair {i}: the score {:?} is {}", score.name, score.value));
            }
        }
    }
    Ok(())
}
