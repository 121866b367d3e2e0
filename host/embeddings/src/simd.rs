//! The instruction sets the encoder runs on, chosen once per process by `pulp` from what the CPU
//! offers, and the few vector operations the matrix micro-kernel needs from each.
//!
//! The micro-kernel spells its vectors out because LLVM does not reliably vectorise a register
//! tile of scalar fused multiply-adds; everything else (LayerNorm, GELU, softmax) is plain loops
//! that LLVM vectorises once they are compiled inside [`Isa::call`].

use pulp::NullaryFnOnce;

/// One instruction set: its vector type, and a way to run code compiled for it.
pub trait Isa: Copy + Send + Sync {
    type V: Copy;
    /// Floats in one vector.
    const LANES: usize;
    /// Rows of a micro-kernel tile: its `MR × gemm::NV` accumulators fill most of the vector
    /// registers while leaving room for the operands.
    const MR: usize;

    fn splat(self, x: f32) -> Self::V;
    /// `a · b + c`, fused where the instruction set has FMA.
    fn mul_add(self, a: Self::V, b: Self::V, c: Self::V) -> Self::V;
    /// The first `LANES` floats of `s`.
    fn load(self, s: &[f32]) -> Self::V;
    /// Into the first `LANES` floats of `s`.
    fn store(self, v: Self::V, s: &mut [f32]);
    /// Runs `f` compiled with this instruction set's target features enabled.
    fn run<F: NullaryFnOnce>(self, f: F) -> F::Output;

    /// Runs `kernel` as a function of its own compiled for this instruction set.
    #[inline(always)]
    fn call<K: Kernel>(self, kernel: K) -> K::Output {
        self.run(Bound { kernel, isa: self })
    }
}

/// A piece of the forward pass that benefits from wide vectors. Each kernel is compiled into its
/// own target-feature function: inlining the whole forward pass into one such function made it
/// too large for LLVM to keep the matrix tile in registers.
pub trait Kernel {
    type Output;
    fn run<I: Isa>(self, isa: I) -> Self::Output;
}

/// A kernel with its instruction set, as the nullary call `pulp` wraps. A struct rather than a
/// closure, because only an `#[inline(always)]` method is reliably inlined into that wrapper.
struct Bound<K, I> {
    kernel: K,
    isa: I,
}

impl<K: Kernel, I: Isa> NullaryFnOnce for Bound<K, I> {
    type Output = K::Output;

    #[inline(always)]
    fn call(self) -> K::Output {
        self.kernel.run(self.isa)
    }
}

/// Baseline x86-64 (SSE2) or any other architecture: eight floats a "vector", which LLVM maps to
/// whatever the target's baseline offers.
#[derive(Clone, Copy, Debug)]
pub struct Portable;

impl Isa for Portable {
    type V = [f32; 8];
    const LANES: usize = 8;
    const MR: usize = 4;

    #[inline(always)]
    fn splat(self, x: f32) -> Self::V {
        [x; 8]
    }
    #[inline(always)]
    fn mul_add(self, a: Self::V, b: Self::V, c: Self::V) -> Self::V {
        std::array::from_fn(|i| a[i] * b[i] + c[i])
    }
    #[inline(always)]
    fn load(self, s: &[f32]) -> Self::V {
        s[..8].try_into().expect("eight floats")
    }
    #[inline(always)]
    fn store(self, v: Self::V, s: &mut [f32]) {
        s[..8].copy_from_slice(&v);
    }
    #[inline(always)]
    fn run<F: NullaryFnOnce>(self, f: F) -> F::Output {
        f.call()
    }
}

#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
mod x86 {
    use super::Isa;
    use pulp::x86::{V3, V4};
    use pulp::{NullaryFnOnce, f32x8, f32x16};

    /// AVX2 + FMA: sixteen 8-float registers, so 6 rows × 2 vectors of accumulators.
    impl Isa for V3 {
        type V = f32x8;
        const LANES: usize = 8;
        const MR: usize = 6;

        #[inline(always)]
        fn splat(self, x: f32) -> Self::V {
            self.splat_f32x8(x)
        }
        #[inline(always)]
        fn mul_add(self, a: Self::V, b: Self::V, c: Self::V) -> Self::V {
            self.mul_add_f32x8(a, b, c)
        }
        #[inline(always)]
        fn load(self, s: &[f32]) -> Self::V {
            let array: [f32; 8] = s[..8].try_into().expect("eight floats");
            pulp::bytemuck::cast(array)
        }
        #[inline(always)]
        fn store(self, v: Self::V, s: &mut [f32]) {
            s[..8].copy_from_slice(&pulp::bytemuck::cast::<_, [f32; 8]>(v));
        }
        #[inline(always)]
        fn run<F: NullaryFnOnce>(self, f: F) -> F::Output {
            self.vectorize(f)
        }
    }

    /// AVX-512: thirty-two 16-float registers, so 12 rows × 2 vectors of accumulators.
    impl Isa for V4 {
        type V = f32x16;
        const LANES: usize = 16;
        const MR: usize = 12;

        #[inline(always)]
        fn splat(self, x: f32) -> Self::V {
            self.splat_f32x16(x)
        }
        #[inline(always)]
        fn mul_add(self, a: Self::V, b: Self::V, c: Self::V) -> Self::V {
            self.mul_add_f32x16(a, b, c)
        }
        #[inline(always)]
        fn load(self, s: &[f32]) -> Self::V {
            let array: [f32; 16] = s[..16].try_into().expect("sixteen floats");
            pulp::bytemuck::cast(array)
        }
        #[inline(always)]
        fn store(self, v: Self::V, s: &mut [f32]) {
            s[..16].copy_from_slice(&pulp::bytemuck::cast::<_, [f32; 16]>(v));
        }
        #[inline(always)]
        fn run<F: NullaryFnOnce>(self, f: F) -> F::Output {
            self.vectorize(f)
        }
    }
}
