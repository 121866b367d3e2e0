//! The element-wise and per-row arithmetic of the encoder (LayerNorm, exact-erf GELU, softmax
//! attention, pooling), written so that LLVM vectorises it.
//!
//! Every function here is `#[inline(always)]` because its callers run inside `pulp::Arch::dispatch`,
//! which compiles the inlined body for AVX2 or AVX-512 when the CPU has them; a function that is not
//! inlined would fall back to the baseline SSE2 build of the crate. Reductions keep `LANES` separate
//! partial sums, since LLVM may not reorder a single floating-point accumulator into vector lanes.

use crate::simd::Isa;

/// Partial sums per reduction: one AVX-512 register, or two AVX2 ones.
const LANES: usize = 16;

#[inline(always)]
fn reduce(lanes: [f32; LANES]) -> f32 {
    let mut width = LANES;
    let mut lanes = lanes;
    while width > 1 {
        width /= 2;
        for i in 0..width {
            lanes[i] += lanes[i + width];
        }
    }
    lanes[0]
}

#[inline(always)]
pub fn sum(x: &[f32]) -> f32 {
    let mut acc = [0f32; LANES];
    let mut chunks = x.chunks_exact(LANES);
    for chunk in &mut chunks {
        for (a, v) in acc.iter_mut().zip(chunk) {
            *a += v;
        }
    }
    reduce(acc) + chunks.remainder().iter().sum::<f32>()
}

#[inline(always)]
fn sum_squared_deviation(x: &[f32], mean: f32) -> f32 {
    let mut acc = [0f32; LANES];
    let mut chunks = x.chunks_exact(LANES);
    for chunk in &mut chunks {
        for (a, v) in acc.iter_mut().zip(chunk) {
            let d = v - mean;
            *a += d * d;
        }
    }
    reduce(acc) + chunks.remainder().iter().map(|v| (v - mean) * (v - mean)).sum::<f32>()
}

#[inline(always)]
pub fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut acc = [0f32; LANES];
    let mut ca = a.chunks_exact(LANES);
    let mut cb = b.chunks_exact(LANES);
    for (x, y) in (&mut ca).zip(&mut cb) {
        for ((s, x), y) in acc.iter_mut().zip(x).zip(y) {
            *s += x * y;
        }
    }
    reduce(acc) + ca.remainder().iter().zip(cb.remainder()).map(|(x, y)| x * y).sum::<f32>()
}

/// LayerNorm over each `gamma.len()`-wide row of `x`, in place, with the biased variance as torch.
#[inline(always)]
pub fn layer_norm_rows(x: &mut [f32], gamma: &[f32], beta: &[f32], eps: f32) {
    let width = gamma.len();
    for row in x.chunks_exact_mut(width) {
        let mean = sum(row) / width as f32;
        let variance = sum_squared_deviation(row, mean) / width as f32;
        let inv_std = 1.0 / (variance + eps).sqrt();
        for ((v, g), b) in row.iter_mut().zip(gamma).zip(beta) {
            *v = (*v - mean) * inv_std * g + b;
        }
    }
}

/// e^x for x ≤ 88, within about 2 ulp, in a form LLVM vectorises (no table, no branch, no libm).
/// Below -87 (where f32 results turn subnormal) it returns 0.
#[inline(always)]
pub fn exp(x: f32) -> f32 {
    // 1.5 · 2^23: adding it rounds to an integer and leaves that integer in the low mantissa bits.
    const ROUNDER: f32 = 12_582_912.0;
    // ln 2 split so that n · LN2_HI is exact for every n used here (Cody and Waite).
    const LN2_HI: f32 = 0.693_359_4;
    const LN2_LO: f32 = -2.121_944_4e-4;
    let underflow = x < -87.0;
    let x = x.clamp(-87.0, 88.0);
    let shifted = x * std::f32::consts::LOG2_E + ROUNDER;
    let n = shifted - ROUNDER;
    let r = (x - n * LN2_HI) - n * LN2_LO;
    // Taylor series of e^r to degree 7: the remainder is below 6e-9 for |r| ≤ ln2/2.
    let p = 1.0
        + r * (1.0
            + r * (1.0 / 2.0
                + r * (1.0 / 6.0
                    + r * (1.0 / 24.0 + r * (1.0 / 120.0 + r * (1.0 / 720.0 + r * (1.0 / 5040.0)))))));
    let exponent = (shifted.to_bits() as i32 - ROUNDER.to_bits() as i32 + 127) as u32;
    let value = p * f32::from_bits(exponent << 23);
    if underflow { 0.0 } else { value }
}

/// erf by Abramowitz & Stegun 7.1.26 (absolute error below 1.5e-7), the same approximation
/// PyTorch's vectorised CPU kernels use for `erf` and hence for BERT's exact GELU.
#[inline(always)]
fn erf(x: f32) -> f32 {
    const P: f32 = 0.327_591_1;
    const A1: f32 = 0.254_829_6;
    const A2: f32 = -0.284_496_74;
    const A3: f32 = 1.421_413_7;
    const A4: f32 = -1.453_152;
    const A5: f32 = 1.061_405_4;
    let a = x.abs();
    let t = 1.0 / (1.0 + P * a);
    let poly = ((((A5 * t + A4) * t + A3) * t + A2) * t + A1) * t;
    (1.0 - poly * exp(-a * a)).copysign(x)
}

/// GELU with the exact (erf) form, as `hidden_act: "gelu"` means in transformers' BERT.
#[inline(always)]
pub fn gelu_in_place(x: &mut [f32]) {
    for v in x {
        *v = 0.5 * *v * (1.0 + erf(*v * std::f32::consts::FRAC_1_SQRT_2));
    }
}

/// `dst += src` element-wise.
#[inline(always)]
pub fn add_assign(dst: &mut [f32], src: &[f32]) {
    for (d, s) in dst.iter_mut().zip(src) {
        *d += s;
    }
}

/// `dst += weight · src` element-wise.
#[inline(always)]
pub fn add_scaled(dst: &mut [f32], weight: f32, src: &[f32]) {
    for (d, s) in dst.iter_mut().zip(src) {
        *d += weight * s;
    }
}

/// Softmax of `scores` in place; `-inf` entries get weight 0.
#[inline(always)]
pub fn softmax_in_place(scores: &mut [f32]) {
    let mut lanes = [f32::NEG_INFINITY; LANES];
    let mut chunks = scores.chunks_exact(LANES);
    for chunk in &mut chunks {
        for (m, &s) in lanes.iter_mut().zip(chunk) {
            *m = if s > *m { s } else { *m };
        }
    }
    let max = lanes.iter().chain(chunks.remainder()).copied().fold(f32::NEG_INFINITY, f32::max);
    for s in scores.iter_mut() {
        *s = exp(*s - max);
    }
    let inv_total = 1.0 / sum(scores);
    for s in scores.iter_mut() {
        *s *= inv_total;
    }
}

/// Scaled dot-product attention of one sequence, all heads, without masking: the sequence is
/// unpadded, so each token attends to exactly the tokens of its own sentence.
///
/// `qkv` holds `len` rows of `[q | k | v]`, each `3 · hidden` wide; `context` receives `len` rows of
/// `hidden`. `scratch` is reused between calls to avoid allocation.
#[inline(always)]
pub fn attention<I: Isa>(
    isa: I,
    qkv: &[f32],
    len: usize,
    heads: usize,
    context: &mut [f32],
    scratch: &mut AttentionScratch,
) {
    let lanes = I::LANES;
    let hidden = context.len() / len;
    let head_dim = hidden / heads;
    let row = 3 * hidden;
    let scale = 1.0 / (head_dim as f32).sqrt();
    // Keys transposed, one row per head dimension and padded to whole vectors, so that a query's
    // scores against all keys come out of one vector multiply-add per dimension (for up to 16
    // keys with AVX-512), rather than a dot product and a horizontal sum per key.
    let padded = len.next_multiple_of(lanes);
    scratch.keys_t.clear();
    scratch.keys_t.resize(head_dim * padded, 0.0);
    scratch.scores.clear();
    scratch.scores.resize(padded, 0.0);
    let AttentionScratch { keys_t, scores } = scratch;
    for h in 0..heads {
        let (q_off, k_off, v_off) = (h * head_dim, hidden + h * head_dim, 2 * hidden + h * head_dim);
        for j in 0..len {
            for (d, &k) in qkv[j * row + k_off..][..head_dim].iter().enumerate() {
                keys_t[d * padded + j] = k;
            }
        }
        for i in 0..len {
            let query = &qkv[i * row + q_off..][..head_dim];
            for start in (0..padded).step_by(4 * lanes) {
                match (padded - start) / lanes {
                    1 => scores_block::<I, 1>(isa, query, keys_t, padded, start, scores),
                    2 => scores_block::<I, 2>(isa, query, keys_t, padded, start, scores),
                    3 => scores_block::<I, 3>(isa, query, keys_t, padded, start, scores),
                    _ => scores_block::<I, 4>(isa, query, keys_t, padded, start, scores),
                }
            }
            // Softmax over the whole padded row, padding set to -inf (weight 0), so that every loop
            // runs over whole vectors.
            for (j, s) in scores.iter_mut().enumerate() {
                *s = if j < len { *s * scale } else { f32::NEG_INFINITY };
            }
            softmax_in_place(scores);
            let live = &scores[..len];
            let out = &mut context[i * hidden + q_off..][..head_dim];
            let mut start = 0;
            while start + 4 * lanes <= head_dim {
                weighted_values::<I, 4>(isa, live, qkv, row, v_off + start, &mut out[start..]);
                start += 4 * lanes;
            }
            if start < head_dim {
                // Head widths that are not a multiple of the vector width (rare): plain loops.
                out[start..].fill(0.0);
                for (j, &p) in live.iter().enumerate() {
                    add_scaled(&mut out[start..], p, &qkv[j * row + v_off + start..][..head_dim - start]);
                }
            }
        }
    }
}

/// `scores[start..][..NB vectors] = query · keysᵀ` for `NB` vectors' worth of keys.
#[inline(always)]
fn scores_block<I: Isa, const NB: usize>(
    isa: I,
    query: &[f32],
    keys_t: &[f32],
    padded: usize,
    start: usize,
    scores: &mut [f32],
) {
    let lanes = I::LANES;
    let zero = isa.splat(0.0);
    let mut acc = [zero; NB];
    for (&q, keys) in query.iter().zip(keys_t.chunks_exact(padded)) {
        let q = isa.splat(q);
        let keys = &keys[start..][..NB * lanes];
        for (b, a) in acc.iter_mut().enumerate() {
            *a = isa.mul_add(q, isa.load(&keys[b * lanes..]), *a);
        }
    }
    for (b, a) in acc.iter().enumerate() {
        isa.store(*a, &mut scores[start + b * lanes..]);
    }
}

/// `out[..NB vectors] = Σ_j weights[j] · v_j[offset..]`.
#[inline(always)]
fn weighted_values<I: Isa, const NB: usize>(
    isa: I,
    weights: &[f32],
    qkv: &[f32],
    row: usize,
    offset: usize,
    out: &mut [f32],
) {
    let lanes = I::LANES;
    let zero = isa.splat(0.0);
    let mut acc = [zero; NB];
    for (&p, values) in weights.iter().zip(qkv.chunks_exact(row)) {
        let p = isa.splat(p);
        let values = &values[offset..][..NB * lanes];
        for (b, a) in acc.iter_mut().enumerate() {
            *a = isa.mul_add(p, isa.load(&values[b * lanes..]), *a);
        }
    }
    for (b, a) in acc.iter().enumerate() {
        isa.store(*a, &mut out[b * lanes..]);
    }
}

#[derive(Default)]
pub struct AttentionScratch {
    keys_t: Vec<f32>,
    scores: Vec<f32>,
}

/// Mean of the `len` rows of `tokens`, then divided by its L2 norm (floored at 1e-12 as
/// `torch.nn.functional.normalize` does).
#[inline(always)]
pub fn mean_pool_normalized(tokens: &[f32], width: usize) -> Vec<f32> {
    let len = tokens.len() / width;
    let mut pooled = vec![0f32; width];
    for row in tokens.chunks_exact(width) {
        add_assign(&mut pooled, row);
    }
    // sentence-transformers divides by the mask sum clamped at 1e-9; an encoded sentence is never
    // empty ([CLS] and [SEP] at least), so the clamp never applies here.
    let count = len.max(1) as f32;
    for v in &mut pooled {
        *v /= count;
    }
    let norm = dot(&pooled, &pooled).sqrt().max(1e-12);
    for v in &mut pooled {
        *v /= norm;
    }
    pooled
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exp_matches_std_within_a_few_ulp() {
        let mut worst = 0f32;
        let mut x = -87.0f32;
        while x < 88.0 {
            let (got, want) = (exp(x), x.exp());
            worst = worst.max(((got - want) / want).abs());
            x += 0.001_37;
        }
        assert!(worst < 4.0 * f32::EPSILON, "worst relative error {worst}");
        assert_eq!(exp(0.0), 1.0);
        assert_eq!(exp(-200.0), 0.0);
    }

    #[test]
    fn gelu_matches_the_erf_definition() {
        // Reference: erf from its Maclaurin series in f64 (converges well for |z| < 3), and the
        // asymptotic tail beyond.
        fn erf64(z: f64) -> f64 {
            if z.abs() > 5.0 {
                return z.signum();
            }
            let (mut term, mut total, mut n) = (z, z, 0.0);
            while term.abs() > 1e-18 * total.abs().max(1e-300) {
                n += 1.0;
                term *= -z * z / n;
                total += term / (2.0 * n + 1.0);
                if n > 200.0 {
                    break;
                }
            }
            total * 2.0 / std::f64::consts::PI.sqrt()
        }
        let xs: Vec<f32> = (-800..=800).map(|i| i as f32 * 0.01).collect();
        let mut ys = xs.clone();
        gelu_in_place(&mut ys);
        for (&x, &y) in xs.iter().zip(&ys) {
            let x64 = f64::from(x);
            let want = 0.5 * x64 * (1.0 + erf64(x64 / std::f64::consts::SQRT_2));
            assert!((f64::from(y) - want).abs() < 2e-7 * x64.abs().max(1.0), "gelu({x}) = {y}, want {want}");
        }
    }

    #[test]
    fn softmax_sums_to_one_and_keeps_order() {
        let x = [1.0f32, 3.0, -2.0, 0.5, 10.0, 9.0];
        let mut s = x;
        softmax_in_place(&mut s);
        assert!((s.iter().sum::<f32>() - 1.0).abs() < 1e-6);
        assert!(s[4] > s[5] && s[5] > s[1] && s[1] > s[0] && s[0] > s[3] && s[3] > s[2]);
        let total: f64 = x.iter().map(|&v| f64::from(v).exp()).sum();
        for (&got, &v) in s.iter().zip(&x) {
            assert!((f64::from(got) - f64::from(v).exp() / total).abs() < 1e-7);
        }
    }

    #[test]
    fn attention_matches_a_direct_computation() {
        let (len, heads, head_dim) = (5, 3, 4);
        let hidden = heads * head_dim;
        let qkv: Vec<f32> = (0..len * 3 * hidden).map(|i| ((i * 37 % 23) as f32 - 11.0) * 0.1).collect();
        let mut context = vec![0f32; len * hidden];
        attention(crate::simd::Portable, &qkv, len, heads, &mut context, &mut AttentionScratch::default());
        for h in 0..heads {
            for i in 0..len {
                let q = &qkv[i * 3 * hidden + h * head_dim..][..head_dim];
                let scores: Vec<f64> = (0..len)
                    .map(|j| {
                        let k = &qkv[j * 3 * hidden + hidden + h * head_dim..][..head_dim];
                        q.iter().zip(k).map(|(a, b)| f64::from(a * b)).sum::<f64>() / (head_dim as f64).sqrt()
                    })
                    .collect();
                let max = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                let weights: Vec<f64> = scores.iter().map(|s| (s - max).exp()).collect();
                let total: f64 = weights.iter().sum();
                for d in 0..head_dim {
                    let want: f64 = (0..len)
                        .map(|j| {
                            weights[j] / total
                                * f64::from(qkv[j * 3 * hidden + 2 * hidden + h * head_dim + d])
                        })
                        .sum();
                    let got = f64::from(context[i * hidden + h * head_dim + d]);
                    assert!((got - want).abs() < 1e-5, "head {h} token {i} dim {d}: {got} vs {want}");
                }
            }
        }
    }

    #[test]
    fn layer_norm_centres_and_scales() {
        let mut x: Vec<f32> = (0..8).map(|i| i as f32).collect();
        let gamma = [2.0; 8];
        let beta = [1.0; 8];
        layer_norm_rows(&mut x, &gamma, &beta, 0.0);
        let mean = x.iter().sum::<f32>() / 8.0;
        assert!((mean - 1.0).abs() < 1e-6);
        let var = x.iter().map(|v| (v - 1.0) * (v - 1.0)).sum::<f32>() / 8.0;
        assert!((var - 4.0).abs() < 1e-5);
    }

    #[test]
    fn pooled_vectors_are_unit_length_means() {
        let tokens = [3.0, 2.0, 5.0, 4.0];
        let pooled = mean_pool_normalized(&tokens, 2);
        assert!((pooled[0] - 0.8).abs() < 1e-7 && (pooled[1] - 0.6).abs() < 1e-7);
    }
}
