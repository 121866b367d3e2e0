//! Matrix products against weights packed once at load time: `C += A · Wᵀ` for a row-major
//! activation matrix `A` and a `torch.nn.Linear` weight `W`, stored as column panels that the
//! micro-kernel streams in order.
//!
//! A general-purpose sgemm (matrixmultiply, BLAS) repacks the weights on every call. For a sentence
//! of 15 tokens the product is 15 rows against 590 000 weights, so that repacking costs as much as
//! the arithmetic; packing once at load removes it.

use crate::simd::Isa;

/// Vectors per row of a micro-kernel tile: a panel is `NV · LANES` columns wide. Three measured no
/// faster than two with AVX-512, and two leave room for 12 rows of accumulators.
pub const NV: usize = 2;

/// Depth of one pass over the panels. Deep passes amortise loading and storing the `C` tile and
/// repacking `A`; 512 measured at least as fast as 128 or 256 (and covers MiniLM's 384-wide
/// inputs in one pass).
const KC: usize = 512;

/// A `[k × n]` matrix (the transpose of torch's `[n × k]` weight) cut into `nr`-wide column
/// panels, each stored row after row (`panel[kk * nr + j] = W[p * nr + j][kk]`), the last one
/// zero-padded.
pub struct PackedMatrix {
    k: usize,
    n: usize,
    nr: usize,
    data: Vec<f32>,
}

impl PackedMatrix {
    /// Packs torch's `[n × k]` (out × in) weight into panels `nr` columns wide, where `nr` must be
    /// the panel width of the instruction set that will multiply with it.
    pub fn from_torch(weight: &[f32], n: usize, k: usize, nr: usize) -> Self {
        assert_eq!(weight.len(), n * k, "weight size");
        let panels = n.div_ceil(nr);
        let mut data = vec![0f32; panels * k * nr];
        for (o, row) in weight.chunks_exact(k).enumerate() {
            let (p, j) = (o / nr, o % nr);
            let panel = &mut data[p * k * nr..(p + 1) * k * nr];
            for (kk, &w) in row.iter().enumerate() {
                panel[kk * nr + j] = w;
            }
        }
        Self { k, n, nr, data }
    }

    /// `c[m × n] += a[m × k] · W`, both row-major and contiguous. `scratch` holds a repacked copy
    /// of one depth slice of `a` and is reused across calls.
    #[inline(always)]
    pub fn multiply_add<I: Isa>(&self, isa: I, a: &[f32], c: &mut [f32], scratch: &mut Vec<f32>) {
        let (k, n, nr) = (self.k, self.n, self.nr);
        assert_eq!(nr, NV * I::LANES, "matrix packed for another instruction set");
        let m = a.len() / k;
        assert!(a.len() == m * k && c.len() == m * n, "operand sizes");
        let panel_len = k * nr;
        for k0 in (0..k).step_by(KC) {
            let kc = KC.min(k - k0);
            pack_rows(a, k, k0, kc, I::MR, scratch);
            for (p, panel) in self.data.chunks_exact(panel_len).enumerate() {
                let b = &panel[k0 * nr..(k0 + kc) * nr];
                let (col, width) = (p * nr, nr.min(n - p * nr));
                for (row, rows) in tiles(m, I::MR) {
                    let a_block = &scratch[row * kc..(row + rows) * kc];
                    let tile = Tile { a: a_block, b, c_at: row * n + col, ldc: n, width };
                    tile.run_rows(isa, rows, c);
                }
            }
        }
    }
}

/// The tile heights the micro-kernel is compiled for: each instruction set's `MR` (4, 6, 12) and
/// the heights the rows left after the full tiles are cut into, at most two tiles (11 = 8 + 3,
/// 7 = 6 + 1, 5 = 4 + 1). Each height is a fully unrolled kernel per instruction set; compiling
/// every height up to `MR` cost about 35 s more of a fresh build, for no measurable speed.
const HEIGHTS: [usize; 7] = [1, 2, 3, 4, 6, 8, 12];

/// The tiles `m` rows are cut into, as (first row, rows): full `mr`-row tiles, then the rest in the
/// tallest heights that fit.
#[inline(always)]
fn tiles(m: usize, mr: usize) -> impl Iterator<Item = (usize, usize)> {
    let mut row = 0;
    std::iter::from_fn(move || {
        let left = m - row;
        let rows = if left >= mr { mr } else { *HEIGHTS.iter().rev().find(|&&h| h <= left)? };
        row += rows;
        Some((row - rows, rows))
    })
}

/// Copies columns `k0..k0 + kc` of `a` into `out` tile by tile (see [`tiles`]), each tile stored
/// column after column, so that the micro-kernel reads one tile's values for one depth index side
/// by side.
#[inline(always)]
fn pack_rows(a: &[f32], lda: usize, k0: usize, kc: usize, mr: usize, out: &mut Vec<f32>) {
    let m = a.len() / lda;
    out.clear();
    out.resize(m * kc, 0.0);
    for (row, rows) in tiles(m, mr) {
        let dst = &mut out[row * kc..(row + rows) * kc];
        for r in 0..rows {
            let src = &a[(row + r) * lda + k0..][..kc];
            for (kk, &v) in src.iter().enumerate() {
                dst[kk * rows + r] = v;
            }
        }
    }
}

/// One tile: a packed block of `A` rows against one panel slice, into `C` from offset `c_at`.
struct Tile<'t> {
    a: &'t [f32],
    b: &'t [f32],
    c_at: usize,
    ldc: usize,
    /// Output columns that exist (less than the panel width only in the last panel).
    width: usize,
}

impl Tile<'_> {
    /// Dispatches on the row count so that every tile height is a separate, fully unrolled kernel.
    /// Heights above an instruction set's `MR` never occur; their guards are constants, so the
    /// optimiser drops those kernels before spending time on them.
    #[inline(always)]
    fn run_rows<I: Isa>(&self, isa: I, rows: usize, c: &mut [f32]) {
        match rows {
            1 => self.run::<I, 1>(isa, c),
            2 => self.run::<I, 2>(isa, c),
            3 => self.run::<I, 3>(isa, c),
            4 => self.run::<I, 4>(isa, c),
            6 if I::MR >= 6 => self.run::<I, 6>(isa, c),
            8 if I::MR >= 8 => self.run::<I, 8>(isa, c),
            12 if I::MR >= 12 => self.run::<I, 12>(isa, c),
            _ => unreachable!("no kernel of height {rows} for this instruction set"),
        }
    }

    /// `C[MR × width] += A[MR × kc] · B[kc × NV·LANES]`.
    #[inline(always)]
    fn run<I: Isa, const MR: usize>(&self, isa: I, c: &mut [f32]) {
        let nr = NV * I::LANES;
        if self.width == nr {
            self.kernel::<I, MR>(isa, c, self.c_at, self.ldc);
        } else {
            // The last panel of a matrix whose width is not a multiple of the panel's: run the
            // kernel on a padded copy of the tile (never the case for the usual BERT sizes).
            let mut padded = vec![0f32; MR * nr];
            for r in 0..MR {
                padded[r * nr..][..self.width].copy_from_slice(&c[self.c_at + r * self.ldc..][..self.width]);
            }
            self.kernel::<I, MR>(isa, &mut padded, 0, nr);
            for r in 0..MR {
                c[self.c_at + r * self.ldc..][..self.width].copy_from_slice(&padded[r * nr..][..self.width]);
            }
        }
    }

    /// The register-tiled inner loop: `MR × NV` vector accumulators, one broadcast of `A` and `NV`
    /// loads of `B` per depth step.
    #[inline(always)]
    fn kernel<I: Isa, const MR: usize>(&self, isa: I, c: &mut [f32], c_at: usize, ldc: usize) {
        let lanes = I::LANES;
        let nr = NV * lanes;
        // Plain constant-bound loops rather than `array::from_fn`: in a function as large as the
        // whole forward pass LLVM stops inlining `from_fn`, and the tile then lives in memory.
        let zero = isa.splat(0.0);
        let mut acc = [[zero; NV]; MR];
        for (r, acc_row) in acc.iter_mut().enumerate() {
            let src = &c[c_at + r * ldc..][..nr];
            for (v, s) in acc_row.iter_mut().enumerate() {
                *s = isa.load(&src[v * lanes..]);
            }
        }
        // `as_chunks` makes each column of `A` an `[f32; MR]`: with its length a constant, LLVM
        // unrolls the row loop and keeps the tile in registers (with `chunks_exact` it spilled the
        // tile to memory, at 2.4 times the time, once it no longer inlined the kernel everywhere).
        for (b_row, a_col) in self.b.chunks_exact(nr).zip(self.a.as_chunks::<MR>().0) {
            let mut b = [zero; NV];
            for (v, w) in b.iter_mut().enumerate() {
                *w = isa.load(&b_row[v * lanes..]);
            }
            for (acc_row, &x) in acc.iter_mut().zip(a_col) {
                let x = isa.splat(x);
                for (s, &w) in acc_row.iter_mut().zip(&b) {
                    *s = isa.mul_add(x, w, *s);
                }
            }
        }
        for (r, acc_row) in acc.iter().enumerate() {
            let dst = &mut c[c_at + r * ldc..][..nr];
            for (v, &s) in acc_row.iter().enumerate() {
                isa.store(s, &mut dst[v * lanes..]);
            }
        }
    }
}

/// Floats per panel row of a packed weight matrix for the chosen instruction set.
pub fn panel_width(arch: pulp::Arch) -> usize {
    fn width<I: Isa>() -> usize {
        NV * I::LANES
    }
    match arch {
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        pulp::Arch::V4(_) => width::<pulp::x86::V4>(),
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        pulp::Arch::V3(_) => width::<pulp::x86::V3>(),
        _ => width::<crate::simd::Portable>(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simd::Portable;

    fn check<I: Isa>(isa: I, m: usize, k: usize, n: usize) {
        let w: Vec<f32> = (0..n * k).map(|i| ((i * 31 % 17) as f32 - 8.0) * 0.125).collect();
        let a: Vec<f32> = (0..m * k).map(|i| ((i * 13 % 11) as f32 - 5.0) * 0.25).collect();
        let c0: Vec<f32> = (0..m * n).map(|i| (i % 7) as f32).collect();
        let packed = PackedMatrix::from_torch(&w, n, k, NV * I::LANES);
        let mut c = c0.clone();
        let mut scratch = Vec::new();
        isa.run(
            #[inline(always)]
            || packed.multiply_add(isa, &a, &mut c, &mut scratch),
        );
        for i in 0..m {
            for j in 0..n {
                // Small integers times multiples of 1/32: every partial sum is exact in f32.
                let want: f32 = c0[i * n + j] + (0..k).map(|kk| a[i * k + kk] * w[j * k + kk]).sum::<f32>();
                assert_eq!(c[i * n + j], want, "m={m} k={k} n={n} at ({i}, {j})");
            }
        }
    }

    // Row counts that take every tile height of every instruction set (11 = 8 + 3, 5 = 4 + 1).
    const SHAPES: [(usize, usize, usize); 8] = [
        (1, 1, 1),
        (7, 300, 40),
        (13, 256, 64),
        (6, 513, 33),
        (20, 5, 96),
        (9, 3, 7),
        (11, 40, 32),
        (5, 17, 48),
    ];

    #[test]
    fn portable_products_are_exact_on_exactly_representable_data() {
        for (m, k, n) in SHAPES {
            check(Portable, m, k, n);
        }
    }

    #[test]
    fn native_products_are_exact_on_exactly_representable_data() {
        match pulp::Arch::new() {
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            pulp::Arch::V4(simd) => SHAPES.iter().for_each(|&(m, k, n)| check(simd, m, k, n)),
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            pulp::Arch::V3(simd) => SHAPES.iter().for_each(|&(m, k, n)| check(simd, m, k, n)),
            _ => {}
        }
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        if let Some(simd) = pulp::x86::V3::try_new() {
            SHAPES.iter().for_each(|&(m, k, n)| check(simd, m, k, n));
        }
    }
}
