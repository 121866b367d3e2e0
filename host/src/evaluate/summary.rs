//! Corpus-level statistics over many evaluations: per score, the count, mean, minimum, maximum and
//! (population) standard deviation, accumulated in one pass with Welford's method so that a dataset of
//! any size streams through in constant memory.

use super::evaluation::Evaluation;
use serde::Serialize;
use std::collections::BTreeMap;

#[derive(Clone, Debug, Default, PartialEq, Serialize, utoipa::ToSchema)]
pub struct Stat {
    pub count: u64,
    pub mean: f64,
    pub min: f64,
    pub max: f64,
    /// Population standard deviation (numpy's default, ddof = 0).
    pub std: f64,
    #[serde(skip)]
    m2: f64,
}

impl Stat {
    fn add(&mut self, x: f64) {
        if self.count == 0 {
            self.min = x;
            self.max = x;
        } else {
            self.min = self.min.min(x);
            self.max = self.max.max(x);
        }
        self.count += 1;
        let delta = x - self.mean;
        self.mean += delta / self.count as f64;
        self.m2 += delta * (x - self.mean);
        self.std = (self.m2 / self.count as f64).sqrt();
    }
}

/// Statistics per score name (including `overall_score`), and how many pairs went in.
#[derive(Clone, Debug, Default, PartialEq, Serialize, utoipa::ToSchema)]
pub struct Summary {
    /// Pairs evaluated.
    pub pairs: u64,
    /// Pairs that could not be read or scored at all (a malformed line, a metric failure on every score).
    pub failed: u64,
    pub metrics: BTreeMap<String, Stat>,
}

impl Summary {
    pub fn add(&mut self, evaluation: &Evaluation) {
        self.pairs += 1;
        for (name, value) in &evaluation.scores {
            self.metrics.entry(name.clone()).or_default().add(*value);
        }
        if let Some(overall) = evaluation.overall_score {
            self.metrics.entry("overall_score".into()).or_default().add(overall);
        }
    }

    pub fn fail(&mut self) {
        self.failed += 1;
    }

    /// Combines two summaries of disjoint sets of pairs (Chan et al.'s parallel variance formula).
    pub fn merge(&mut self, other: Summary) {
        self.pairs += other.pairs;
        self.failed += other.failed;
        for (name, b) in other.metrics {
            let a = self.metrics.entry(name).or_default();
            if a.count == 0 {
                *a = b;
                continue;
            }
            let n = (a.count + b.count) as f64;
            let delta = b.mean - a.mean;
            a.m2 += b.m2 + delta * delta * a.count as f64 * b.count as f64 / n;
            a.mean += delta * b.count as f64 / n;
            a.count += b.count;
            a.min = a.min.min(b.min);
            a.max = a.max.max(b.max);
            a.std = (a.m2 / a.count as f64).sqrt();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn welford_matches_the_textbook() {
        let mut s = Stat::default();
        let xs = [2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0];
        for x in xs {
            s.add(x);
        }
        assert_eq!((s.count, s.min, s.max), (8, 2.0, 9.0));
        assert!((s.mean - 5.0).abs() < 1e-12);
        assert!((s.std - 2.0).abs() < 1e-12);

        let (mut left, mut right) = (Stat::default(), Stat::default());
        xs[..3].iter().for_each(|x| left.add(*x));
        xs[3..].iter().for_each(|x| right.add(*x));
        let mut a = Summary { pairs: 3, failed: 0, metrics: [("m".to_owned(), left)].into() };
        a.merge(Summary { pairs: 5, failed: 1, metrics: [("m".to_owned(), right)].into() });
        let m = &a.metrics["m"];
        assert_eq!((a.pairs, a.failed, m.count, m.min, m.max), (8, 1, 8, 2.0, 9.0));
        assert!((m.mean - 5.0).abs() < 1e-12 && (m.std - 2.0).abs() < 1e-12);
    }
}
