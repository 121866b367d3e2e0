//! Sentence TER as sacreBLEU 2.6.0's `sentence_ter(hyp, [ref])` (`metrics/ter.py`, `lib_ter.py`):
//! tercom tokenization without normalisation or punctuation removal, case-insensitive, on the 0-100
//! scale.
//!
//! sacreBLEU's TER is a greedy search: while some block shift lowers the (beam-limited) edit
//! distance, apply the best one. Which shifts are tried, how they are ranked and when the search
//! gives up are heuristics copied from Tercom, and the numbers depend on every one of them, so
//! they are reproduced exactly:
//!
//! - candidate blocks: equal word runs of at most 10 words starting at most 50 positions apart,
//!   enumerated by hypothesis start, then reference start, then length;
//! - a block is only moved if it holds a hypothesis error, its reference target holds a reference
//!   error and the target is outside the block; targets are derived from the alignment of the
//!   edit-distance trace (with Tercom's preference of substitution/match, then deletion, then
//!   insertion on ties);
//! - ranking: larger gain, then longer block, then earlier start, then earlier target;
//! - the search stops for good once 1000 candidates were evaluated, discarding the round in
//!   which that happened;
//! - the edit distance only fills a band of 25 cells (wider for very unequal lengths) around
//!   the length-ratio diagonal, except in the last row.
//!
//! sacreBLEU caches edit-distance rows by hypothesis prefix. Every hypothesis in one search has
//! the same length, so a row never depends on anything but the words before it; here each
//! candidate instead starts from the current hypothesis's rows for the prefix it shares with it,
//! stops after the last word it moved, and finishes with the current hypothesis's costs from
//! there to the end (computed backwards once per round). The band and the tie-breaking of the
//! forward matrix are unchanged, so every distance is the one sacreBLEU computes.

use parlance_textkit::intern::Vocabulary;
use parlance_textkit::pystr;

const MAX_SHIFT_SIZE: usize = 10;
const MAX_SHIFT_DIST: usize = 50;
const BEAM_WIDTH: usize = 25;
const MAX_SHIFT_CANDIDATES: usize = 1000;
const INFINITY: i64 = 10_000_000_000_000_000;

/// Edit operations, named as in sacreBLEU (rewriting the hypothesis into the reference).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Op {
    Nop,
    Sub,
    /// Consumes a reference word.
    Ins,
    /// Consumes a hypothesis word.
    Del,
    Undefined,
}

/// TER of `hypothesis` against `reference`, 0-100.
pub fn sentence_ter(hypothesis: &str, reference: &str) -> f64 {
    TerScorer::new().score(hypothesis, reference)
}

/// Scores pairs one after another with one set of buffers.
#[derive(Default)]
pub struct TerScorer {
    hyp_text: String,
    ref_text: String,
    /// Words of every pair scored so far.
    vocabulary: Vocabulary,
    hyp: Vec<u32>,
    reference: Vec<u32>,
    buffers: Buffers,
}

impl TerScorer {
    pub fn new() -> Self {
        Self::default()
    }

    /// TER of `hypothesis` against `reference`, 0-100.
    pub fn score(&mut self, hypothesis: &str, reference: &str) -> f64 {
        // `TercomTokenizer` with sacreBLEU's defaults, after `TER._preprocess_segment`'s `rstrip`,
        // only lowercases; the words are then split on whitespace.
        pystr::lower_into(pystr::rstrip(hypothesis), &mut self.hyp_text);
        pystr::lower_into(pystr::rstrip(reference), &mut self.ref_text);
        let vocabulary = &mut self.vocabulary;
        self.hyp.clear();
        self.hyp.extend(pystr::split(&self.hyp_text).map(|w| vocabulary.id(w)));
        self.reference.clear();
        self.reference.extend(pystr::split(&self.ref_text).map(|w| vocabulary.id(w)));
        let (edits, ref_len) = edit_rate(&self.hyp, &self.reference, &mut self.buffers);
        let score = if ref_len > 0 {
            edits as f64 / ref_len as f64
        } else if edits > 0 {
            1.0
        } else {
            0.0
        };
        100.0 * score
    }
}

/// `translation_edit_rate`: the number of edits (shifts plus edit distance) and the reference length.
pub fn translation_edit_rate(hyp: &[u32], reference: &[u32]) -> (usize, usize) {
    edit_rate(hyp, reference, &mut Buffers::default())
}

/// Memory the shift search reuses from pair to pair.
#[derive(Default)]
struct Buffers {
    /// The full (cost, op) matrix of the current words, row-major, `n_ref + 1` columns.
    matrix: Vec<(i64, Op)>,
    rows: [Vec<i64>; 2],
    /// Costs from each cell of the current matrix to its end, same layout.
    backward: Vec<i64>,
    /// The candidate being evaluated.
    shifted: Vec<u32>,
    words: Vec<u32>,
    trace: Vec<Op>,
    alignment: Alignment,
}

fn edit_rate(hyp: &[u32], reference: &[u32], buffers: &mut Buffers) -> (usize, usize) {
    if reference.is_empty() {
        return (hyp.len(), 0);
    }
    let mut search = ShiftSearch {
        reference,
        beam: Beam::new(hyp.len(), reference.len()),
        checked: 0,
        buffers: std::mem::take(buffers),
    };
    let mut words = std::mem::take(&mut search.buffers.words);
    words.clear();
    words.extend_from_slice(hyp);
    let mut shifts = 0;
    let edits = loop {
        let round = search.shift(&words);
        if search.checked >= MAX_SHIFT_CANDIDATES || round.gain <= 0 {
            // The distance of the unshifted words was computed at the start of the round.
            break shifts + round.distance as usize;
        }
        shifts += 1;
        words = round.shifted.expect("a positive gain comes from a shift");
    };
    *buffers = search.buffers;
    buffers.words = words;
    (edits, reference.len())
}

/// The band of the edit-distance matrix that sacreBLEU's `BeamEditDistance` fills.
#[derive(Clone, Copy)]
struct Beam {
    n_hyp: usize,
    n_ref: usize,
    length_ratio: f64,
    width: i64,
}

impl Beam {
    fn new(n_hyp: usize, n_ref: usize) -> Self {
        let length_ratio = if n_hyp > 0 { n_ref as f64 / n_hyp as f64 } else { 1.0 };
        // For very unequal lengths consecutive rows' bands would not overlap otherwise.
        let width = if (BEAM_WIDTH as f64) < length_ratio / 2.0 {
            (length_ratio / 2.0 + BEAM_WIDTH as f64).ceil() as i64
        } else {
            BEAM_WIDTH as i64
        };
        Self { n_hyp, n_ref, length_ratio, width }
    }

    /// The columns `min_j..max_j` computed in row `i` (1-based hypothesis position).
    fn columns(&self, i: usize) -> std::ops::Range<usize> {
        let diagonal = (i as f64 * self.length_ratio).floor() as i64;
        let min_j = (diagonal - self.width).max(0) as usize;
        let max_j = if i == self.n_hyp {
            self.n_ref + 1
        } else {
            (diagonal + self.width).clamp(0, self.n_ref as i64 + 1) as usize
        };
        min_j..max_j.max(min_j)
    }
}

struct Round {
    /// Edit distance of the words the round started from.
    distance: i64,
    /// The best shift's gain, or 0 when no shift was found.
    gain: i64,
    shifted: Option<Vec<u32>>,
}

/// A shift and its rank: (gain, length, -start, -target), compared as a tuple like sacreBLEU's
/// candidates: larger gain, then longer block, then earlier start, then earlier target.
struct Candidate {
    rank: (i64, usize, i64, i64),
    words: Vec<u32>,
}

struct ShiftSearch<'a> {
    reference: &'a [u32],
    beam: Beam,
    /// Candidates evaluated so far, across rounds.
    checked: usize,
    buffers: Buffers,
}

impl ShiftSearch<'_> {
    /// sacreBLEU's `_shift`: the best shift of `words`, if any lowers the edit distance.
    fn shift(&mut self, words: &[u32]) -> Round {
        let distance = self.fill_matrix(words);
        self.fill_backward(words);
        let alignment = self.alignment();
        let (n_hyp, n_ref) = (words.len(), self.reference.len());
        let reference = self.reference;

        let mut best: Option<Candidate> = None;
        'search: for start_h in 0..n_hyp {
            for start_r in 0..n_ref {
                if start_r.abs_diff(start_h) > MAX_SHIFT_DIST {
                    continue;
                }
                let mut length = 0;
                while length < MAX_SHIFT_SIZE && words[start_h + length] == reference[start_r + length] {
                    length += 1;
                    self.try_shift(words, &alignment, distance, (start_h, start_r, length), &mut best);
                    if self.checked >= MAX_SHIFT_CANDIDATES {
                        break 'search;
                    }
                    if start_h + length == n_hyp || start_r + length == n_ref {
                        break;
                    }
                }
            }
        }
        self.buffers.alignment = alignment;
        match best {
            Some(Candidate { rank: (gain, ..), words }) => Round { distance, gain, shifted: Some(words) },
            None => Round { distance, gain: 0, shifted: None },
        }
    }

    /// Evaluates every target of one block, as the body of `_shift`'s loop.
    fn try_shift(
        &mut self,
        words: &[u32],
        alignment: &Alignment,
        distance: i64,
        (start_h, start_r, length): (usize, usize, usize),
        best: &mut Option<Candidate>,
    ) {
        // Only move a block the hypothesis got wrong to a place the reference has wrong.
        if alignment.hyp_err[start_h..start_h + length].iter().all(|&e| !e) {
            return;
        }
        if alignment.ref_err[start_r..start_r + length].iter().all(|&e| !e) {
            return;
        }
        let aligned = alignment.align[start_r];
        if start_h as i64 <= aligned && aligned < (start_h + length) as i64 {
            return;
        }
        let mut prev_target = -1i64;
        for offset in -1..length as i64 {
            let position = start_r as i64 + offset;
            let target = if position == -1 {
                0
            } else if (position as usize) < alignment.align.len() {
                // sacreBLEU inserts before the index (Tercom after it).
                alignment.align[position as usize] + 1
            } else {
                break;
            };
            if target == prev_target {
                continue;
            }
            prev_target = target;
            let mut shifted = std::mem::take(&mut self.buffers.shifted);
            perform_shift(words, start_h, length, target as usize, &mut shifted);
            let cost = self.distance_of_shift(words, &shifted);
            self.checked += 1;
            let rank = (distance - cost, length, -(start_h as i64), -target);
            match best {
                Some(best) if rank <= best.rank => {}
                Some(best) => {
                    best.rank = rank;
                    best.words.clone_from(&shifted);
                }
                None => *best = Some(Candidate { rank, words: shifted.clone() }),
            }
            self.buffers.shifted = shifted;
        }
    }

    /// Fills `self.buffers.matrix` for `words` and returns its edit distance (`BeamEditDistance._edit_distance`).
    fn fill_matrix(&mut self, words: &[u32]) -> i64 {
        let cols = self.reference.len() + 1;
        self.buffers.matrix.clear();
        self.buffers.matrix.extend((0..cols).map(|j| (j as i64, Op::Ins)));
        self.buffers.matrix.resize(cols * (words.len() + 1), (INFINITY, Op::Undefined));
        for i in 1..=words.len() {
            let (done, rest) = self.buffers.matrix.split_at_mut(i * cols);
            let prev = &done[(i - 1) * cols..];
            let row = &mut rest[..cols];
            for j in self.beam.columns(i) {
                if j == 0 {
                    row[0] = (prev[0].0 + 1, Op::Del);
                    continue;
                }
                let (sub_cost, sub_op) =
                    if words[i - 1] == self.reference[j - 1] { (0, Op::Nop) } else { (1, Op::Sub) };
                // Ties prefer substitution/match, then deletion, then insertion.
                for (cost, op) in [
                    (prev[j - 1].0 + sub_cost, sub_op),
                    (prev[j].0 + 1, Op::Del),
                    (row[j - 1].0 + 1, Op::Ins),
                ] {
                    if row[j].0 > cost {
                        row[j] = (cost, op);
                    }
                }
            }
        }
        self.buffers.matrix[cols * (words.len() + 1) - 1].0
    }

    /// Fills `self.buffers.backward`: for each cell of the band, the cheapest way from it to the
    /// end of the current matrix, moving as the forward recursion does (match or substitution
    /// diagonally, deletion down, insertion right) and only through cells of the band.
    fn fill_backward(&mut self, words: &[u32]) {
        let (n, m) = (words.len(), self.reference.len());
        let cols = m + 1;
        let backward = &mut self.buffers.backward;
        backward.clear();
        backward.resize(cols * (n + 1), INFINITY);
        // Row 0 is never needed: a candidate always changes a word, so it resumes at row 1 or later.
        for i in (1..=n).rev() {
            let columns = self.beam.columns(i);
            let below = if i < n { Some(self.beam.columns(i + 1)) } else { None };
            for j in columns.clone().rev() {
                let here = i * cols + j;
                let cost = match &below {
                    None => (m - j) as i64,
                    Some(below) => {
                        let mut cost = INFINITY;
                        if j < m && below.contains(&(j + 1)) {
                            let sub_cost = i64::from(words[i] != self.reference[j]);
                            cost = cost.min(backward[here + cols + 1] + sub_cost);
                        }
                        if below.contains(&j) {
                            cost = cost.min(backward[here + cols] + 1);
                        }
                        if j < m && columns.contains(&(j + 1)) {
                            cost = cost.min(backward[here + 1] + 1);
                        }
                        cost
                    }
                };
                backward[here] = cost;
            }
        }
    }

    /// The edit distance of `shifted`, a shift of `words`. Only the rows of the words that moved
    /// are computed: the rows before them are the current matrix's, and the cheapest path through
    /// the last changed row continues as the backward costs of the current words say, since the
    /// words after it are the same.
    fn distance_of_shift(&mut self, words: &[u32], shifted: &[u32]) -> i64 {
        let n = words.len();
        let cols = self.reference.len() + 1;
        let first = words.iter().zip(shifted).take_while(|(a, b)| a == b).count();
        if first == n {
            return self.buffers.matrix[cols * (n + 1) - 1].0;
        }
        let same_tail = words[first..]
            .iter()
            .rev()
            .zip(shifted[first..].iter().rev())
            .take_while(|(a, b)| a == b)
            .count();
        let last = n - same_tail;
        let [prev, row] = &mut self.buffers.rows;
        prev.clear();
        prev.extend(self.buffers.matrix[first * cols..(first + 1) * cols].iter().map(|cell| cell.0));
        row.resize(cols, INFINITY);
        for i in first + 1..=last {
            row.fill(INFINITY);
            for j in self.beam.columns(i) {
                if j == 0 {
                    row[0] = prev[0] + 1;
                    continue;
                }
                let sub_cost = i64::from(shifted[i - 1] != self.reference[j - 1]);
                row[j] = row[j].min(prev[j - 1] + sub_cost).min(prev[j] + 1).min(row[j - 1] + 1);
            }
            std::mem::swap(prev, row);
        }
        let backward = &self.buffers.backward[last * cols..(last + 1) * cols];
        let through = prev.iter().zip(backward).map(|(to, from)| to + from).min().unwrap_or(INFINITY);
        // The forward recursion never stores more than its "infinity".
        through.min(INFINITY)
    }

    /// The alignment read from the trace of the current matrix (`trace_to_alignment` of the
    /// flipped trace), in a buffer taken from `self.buffers`.
    fn alignment(&mut self) -> Alignment {
        let cols = self.reference.len() + 1;
        let (mut i, mut j) = (self.buffers.matrix.len() / cols - 1, cols - 1);
        let mut trace = std::mem::take(&mut self.buffers.trace);
        trace.clear();
        while i > 0 || j > 0 {
            let op = self.buffers.matrix[i * cols + j].1;
            trace.push(op);
            match op {
                Op::Nop | Op::Sub => {
                    i -= 1;
                    j -= 1;
                }
                Op::Ins => j -= 1,
                Op::Del => i -= 1,
                // An unreachable cell; sacreBLEU raises here. The band always connects the
                // corners, so this is not reached.
                Op::Undefined => break,
            }
        }
        let mut alignment = std::mem::take(&mut self.buffers.alignment);
        alignment.align.clear();
        alignment.ref_err.clear();
        alignment.hyp_err.clear();
        let mut pos_hyp = -1i64;
        // The trace was read backwards.
        for &op in trace.iter().rev() {
            match op {
                Op::Nop | Op::Sub => {
                    pos_hyp += 1;
                    alignment.align.push(pos_hyp);
                    let error = op == Op::Sub;
                    alignment.hyp_err.push(error);
                    alignment.ref_err.push(error);
                }
                // A deletion consumes a hypothesis word: an insertion in the flipped trace.
                Op::Del => {
                    pos_hyp += 1;
                    alignment.hyp_err.push(true);
                }
                // An insertion consumes a reference word: a deletion in the flipped trace.
                Op::Ins => {
                    alignment.align.push(pos_hyp);
                    alignment.ref_err.push(true);
                }
                Op::Undefined => {}
            }
        }
        self.buffers.trace = trace;
        alignment
    }
}

#[derive(Default)]
struct Alignment {
    /// For each reference position, the hypothesis position aligned to it (-1 before the start).
    align: Vec<i64>,
    ref_err: Vec<bool>,
    hyp_err: Vec<bool>,
}

/// `_perform_shift`: moves `words[start..start + length]` to `target`, with Python's slice
/// clamping, into `out`.
fn perform_shift(words: &[u32], start: usize, length: usize, target: usize, out: &mut Vec<u32>) {
    let n = words.len();
    let block = &words[start..start + length];
    out.clear();
    if target < start {
        out.extend_from_slice(&words[..target]);
        out.extend_from_slice(block);
        out.extend_from_slice(&words[target..start]);
        out.extend_from_slice(&words[start + length..]);
    } else if target > start + length {
        out.extend_from_slice(&words[..start]);
        out.extend_from_slice(&words[start + length..target]);
        out.extend_from_slice(block);
        out.extend_from_slice(&words[target..]);
    } else {
        let split = (length + target).min(n);
        out.extend_from_slice(&words[..start]);
        out.extend_from_slice(&words[start + length..split]);
        out.extend_from_slice(block);
        out.extend_from_slice(&words[split..]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values() {
        // From sacrebleu.sentence_ter(hyp, [ref]).score.
        assert!(
            (sentence_ter("The feline was resting on the rug.", "The cat sat on the mat.")
                - 66.66666666666666)
                .abs()
                < 1e-9
        );
        assert_eq!(sentence_ter("THE CAT", "the cat"), 0.0);
        assert_eq!(sentence_ter("", ""), 0.0);
        assert_eq!(sentence_ter("a b", ""), 100.0);
        assert_eq!(sentence_ter("", "a b c"), 100.0);
    }

    #[test]
    fn a_block_shift_counts_as_one_edit() {
        // "d e a b c" -> "a b c d e": moving "d e" is one shift, no other edit.
        assert_eq!(translation_edit_rate(&[4, 5, 1, 2, 3], &[1, 2, 3, 4, 5]), (1, 5));
    }

    #[test]
    fn shift_distances_equal_full_recomputation() {
        // A fixed linear congruential generator; lengths up to 80 words exercise the band.
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |bound: usize| {
            state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            ((state >> 33) % bound as u64) as usize
        };
        for _ in 0..60 {
            let alphabet = 1 + next(6);
            let words: Vec<u32> = (0..1 + next(80)).map(|_| next(alphabet) as u32).collect();
            let reference: Vec<u32> = (0..1 + next(80)).map(|_| next(alphabet) as u32).collect();
            let mut search = ShiftSearch {
                reference: &reference,
                beam: Beam::new(words.len(), reference.len()),
                checked: 0,
                buffers: Buffers::default(),
            };
            let mut full = ShiftSearch {
                reference: &reference,
                beam: Beam::new(words.len(), reference.len()),
                checked: 0,
                buffers: Buffers::default(),
            };
            search.fill_matrix(&words);
            search.fill_backward(&words);
            let mut shifted = Vec::new();
            for _ in 0..40 {
                let start = next(words.len());
                let length = 1 + next(words.len() - start);
                let target = next(words.len() + 1);
                perform_shift(&words, start, length, target, &mut shifted);
                assert_eq!(search.distance_of_shift(&words, &shifted), full.fill_matrix(&shifted));
            }
        }
    }

    #[test]
    fn shifts_follow_python_slicing() {
        // From sacrebleu.metrics.lib_ter._perform_shift(words, start, length, target).
        let words = [0, 1, 2, 3, 4, 5];
        let shift = |start, length, target| {
            let mut out = Vec::new();
            perform_shift(&words, start, length, target, &mut out);
            out
        };
        assert_eq!(shift(3, 2, 1), [0, 3, 4, 1, 2, 5]);
        assert_eq!(shift(1, 2, 5), [0, 3, 4, 1, 2, 5]);
        assert_eq!(shift(1, 2, 2), [0, 3, 1, 2, 4, 5]);
        assert_eq!(shift(4, 2, 5), [0, 1, 2, 3, 4, 5]);
    }
}
