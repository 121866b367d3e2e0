//! The BERT encoder's weights and its f32 forward pass over a batch of unpadded sentences, ending in
//! sentence-transformers' mean pooling and L2 normalisation.

use crate::config::BertConfig;
use crate::error::EmbeddingsError;
use crate::gemm::{PackedMatrix, panel_width};
use crate::kernels::{self, AttentionScratch};
use crate::safetensors::SafeTensors;
use crate::simd::{Isa, Kernel, Portable};
use std::path::Path;

/// A dense layer, `y = x · Wᵀ + b` as `torch.nn.Linear`, with `W` packed for the micro-kernel.
struct Linear {
    weight: PackedMatrix,
    bias: Vec<f32>,
    inputs: usize,
    outputs: usize,
}

impl Linear {
    /// Reads the torch layers `names`, each `[outputs, inputs]`, as one layer whose outputs are
    /// theirs side by side (query, key and value become one product).
    fn load(
        st: &mut SafeTensors,
        names: &[String],
        outputs: usize,
        inputs: usize,
        nr: usize,
    ) -> Result<Self, EmbeddingsError> {
        // torch's [out, in] layout puts the layers' rows one after another.
        let mut weight = Vec::with_capacity(names.len() * outputs * inputs);
        let mut bias = Vec::with_capacity(names.len() * outputs);
        for name in names {
            weight.extend(st.read_f32(&format!("{name}.weight"), &[outputs, inputs])?);
            bias.extend(st.read_f32(&format!("{name}.bias"), &[outputs])?);
        }
        let outputs = bias.len();
        Ok(Self { weight: PackedMatrix::from_torch(&weight, outputs, inputs, nr), bias, inputs, outputs })
    }
}

/// `out = x · Wᵀ + b (+ residual)` for every row of `x`.
struct LinearOp<'a> {
    linear: &'a Linear,
    x: &'a [f32],
    out: &'a mut [f32],
    residual: Option<&'a [f32]>,
    scratch: &'a mut Vec<f32>,
}

impl Kernel for LinearOp<'_> {
    type Output = ();

    #[inline(always)]
    fn run<I: Isa>(self, isa: I) {
        let Self { linear, x, out, residual, scratch } = self;
        let rows = x.len() / linear.inputs;
        let out = &mut out[..rows * linear.outputs];
        for (i, row) in out.chunks_exact_mut(linear.outputs).enumerate() {
            row.copy_from_slice(&linear.bias);
            if let Some(residual) = residual {
                kernels::add_assign(row, &residual[i * linear.outputs..(i + 1) * linear.outputs]);
            }
        }
        linear.weight.multiply_add(isa, x, out, scratch);
    }
}

struct LayerNorm {
    gamma: Vec<f32>,
    beta: Vec<f32>,
}

impl LayerNorm {
    fn load(st: &mut SafeTensors, name: &str, width: usize) -> Result<Self, EmbeddingsError> {
        // Old checkpoints (TF ports) name LayerNorm parameters gamma/beta.
        let (g, b) =
            if st.contains(&format!("{name}.weight")) { ("weight", "bias") } else { ("gamma", "beta") };
        Ok(Self {
            gamma: st.read_f32(&format!("{name}.{g}"), &[width])?,
            beta: st.read_f32(&format!("{name}.{b}"), &[width])?,
        })
    }
}

struct LayerNormOp<'a> {
    x: &'a mut [f32],
    norm: &'a LayerNorm,
    eps: f32,
}

impl Kernel for LayerNormOp<'_> {
    type Output = ();

    #[inline(always)]
    fn run<I: Isa>(self, _: I) {
        kernels::layer_norm_rows(self.x, &self.norm.gamma, &self.norm.beta, self.eps);
    }
}

struct GeluOp<'a>(&'a mut [f32]);

impl Kernel for GeluOp<'_> {
    type Output = ();

    #[inline(always)]
    fn run<I: Isa>(self, _: I) {
        kernels::gelu_in_place(self.0);
    }
}

/// Self-attention of every sentence of a batch, each over its own tokens only.
struct AttentionOp<'a> {
    sequences: &'a [&'a [u32]],
    qkv: &'a [f32],
    context: &'a mut [f32],
    heads: usize,
    scratch: &'a mut AttentionScratch,
}

impl Kernel for AttentionOp<'_> {
    type Output = ();

    #[inline(always)]
    fn run<I: Isa>(self, isa: I) {
        let hidden = self.context.len() / self.sequences.iter().map(|s| s.len()).sum::<usize>().max(1);
        let mut start = 0;
        for seq in self.sequences {
            let end = start + seq.len();
            kernels::attention(
                isa,
                &self.qkv[start * 3 * hidden..end * 3 * hidden],
                seq.len(),
                self.heads,
                &mut self.context[start * hidden..end * hidden],
                self.scratch,
            );
            start = end;
        }
    }
}

struct PoolOp<'a> {
    sequences: &'a [&'a [u32]],
    hidden_states: &'a [f32],
    width: usize,
}

impl Kernel for PoolOp<'_> {
    type Output = Vec<Vec<f32>>;

    #[inline(always)]
    fn run<I: Isa>(self, _: I) -> Vec<Vec<f32>> {
        let mut start = 0;
        self.sequences
            .iter()
            .map(|seq| {
                let end = start + seq.len();
                let pooled = kernels::mean_pool_normalized(
                    &self.hidden_states[start * self.width..end * self.width],
                    self.width,
                );
                start = end;
                pooled
            })
            .collect()
    }
}

struct Layer {
    qkv: Linear,
    attention_out: Linear,
    attention_norm: LayerNorm,
    intermediate: Linear,
    output: Linear,
    output_norm: LayerNorm,
}

pub(crate) struct Bert {
    /// The instruction set the weights were packed for, and that every forward pass uses.
    arch: pulp::Arch,
    hidden: usize,
    heads: usize,
    intermediate: usize,
    eps: f32,
    word_embeddings: Vec<f32>,
    position_embeddings: Vec<f32>,
    /// Row 0 of the token-type table: every token of a single sentence has type 0.
    token_type_zero: Vec<f32>,
    embedding_norm: LayerNorm,
    layers: Vec<Layer>,
}

/// Token ranges of the sentences of one batch, laid end to end without padding.
pub(crate) struct Batch<'a> {
    pub sequences: Vec<&'a [u32]>,
}

impl Bert {
    pub fn load(path: &Path, config: &BertConfig, arch: pulp::Arch) -> Result<Self, EmbeddingsError> {
        let nr = panel_width(arch);
        let mut st = SafeTensors::open(path)?;
        // Checkpoints saved from a task model (BertForMaskedLM, …) carry a `bert.` prefix.
        let prefix = if st.contains("embeddings.word_embeddings.weight") { "" } else { "bert." };
        let hidden = config.hidden_size;
        let intermediate = config.intermediate_size;
        let name = |rest: &str| format!("{prefix}{rest}");

        let word_embeddings =
            st.read_f32(&name("embeddings.word_embeddings.weight"), &[config.vocab_size, hidden])?;
        let position_embeddings = st.read_f32(
            &name("embeddings.position_embeddings.weight"),
            &[config.max_position_embeddings, hidden],
        )?;
        let mut token_type_zero =
            st.read_f32(&name("embeddings.token_type_embeddings.weight"), &[config.type_vocab_size, hidden])?;
        token_type_zero.truncate(hidden);
        let embedding_norm = LayerNorm::load(&mut st, &name("embeddings.LayerNorm"), hidden)?;

        let mut layers = Vec::with_capacity(config.num_hidden_layers);
        for l in 0..config.num_hidden_layers {
            let layer = |rest: &str| name(&format!("encoder.layer.{l}.{rest}"));
            let qkv_names = ["query", "key", "value"].map(|p| layer(&format!("attention.self.{p}")));
            let qkv = Linear::load(&mut st, &qkv_names, hidden, hidden, nr)?;
            let attention_out =
                Linear::load(&mut st, &[layer("attention.output.dense")], hidden, hidden, nr)?;
            let intermediate_layer =
                Linear::load(&mut st, &[layer("intermediate.dense")], intermediate, hidden, nr)?;
            let output = Linear::load(&mut st, &[layer("output.dense")], hidden, intermediate, nr)?;
            layers.push(Layer {
                qkv,
                attention_out,
                attention_norm: LayerNorm::load(&mut st, &layer("attention.output.LayerNorm"), hidden)?,
                intermediate: intermediate_layer,
                output,
                output_norm: LayerNorm::load(&mut st, &layer("output.LayerNorm"), hidden)?,
            });
        }
        Ok(Self {
            arch,
            hidden,
            heads: config.num_attention_heads,
            intermediate,
            eps: config.layer_norm_eps as f32,
            word_embeddings,
            position_embeddings,
            token_type_zero,
            embedding_norm,
            layers,
        })
    }

    pub fn hidden_size(&self) -> usize {
        self.hidden
    }

    pub fn vocab_size(&self) -> usize {
        self.word_embeddings.len() / self.hidden
    }

    /// One L2-normalised mean-pooled vector per sentence of `batch`. Token ids must be below
    /// `vocab_size()` and sentences no longer than the position table (the tokenizer ensures both).
    pub fn embed_batch(&self, batch: &Batch<'_>) -> Vec<Vec<f32>> {
        match self.arch {
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            pulp::Arch::V4(isa) => self.forward(isa, batch),
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            pulp::Arch::V3(isa) => self.forward(isa, batch),
            _ => self.forward(Portable, batch),
        }
    }

    fn forward<I: Isa>(&self, isa: I, batch: &Batch<'_>) -> Vec<Vec<f32>> {
        let h = self.hidden;
        let sequences = batch.sequences.as_slice();
        let tokens: usize = sequences.iter().map(|s| s.len()).sum();
        let mut hidden = vec![0f32; tokens * h];
        let mut rows = hidden.chunks_exact_mut(h);
        for seq in sequences {
            for (position, (&id, out)) in seq.iter().zip(&mut rows).enumerate() {
                let word = &self.word_embeddings[id as usize * h..(id as usize + 1) * h];
                let pos = &self.position_embeddings[position * h..(position + 1) * h];
                // transformers adds word + token type first, then position.
                for (((o, w), t), p) in out.iter_mut().zip(word).zip(&self.token_type_zero).zip(pos) {
                    *o = (w + t) + p;
                }
            }
        }
        isa.call(LayerNormOp { x: &mut hidden, norm: &self.embedding_norm, eps: self.eps });

        let mut qkv = vec![0f32; tokens * 3 * h];
        let mut context = vec![0f32; tokens * h];
        let mut attended = vec![0f32; tokens * h];
        let mut inner = vec![0f32; tokens * self.intermediate];
        let mut attention_scratch = AttentionScratch::default();
        let mut packed = Vec::new();
        for layer in &self.layers {
            isa.call(LinearOp {
                linear: &layer.qkv,
                x: &hidden,
                out: &mut qkv,
                residual: None,
                scratch: &mut packed,
            });
            isa.call(AttentionOp {
                sequences,
                qkv: &qkv,
                context: &mut context,
                heads: self.heads,
                scratch: &mut attention_scratch,
            });
            isa.call(LinearOp {
                linear: &layer.attention_out,
                x: &context,
                out: &mut attended,
                residual: Some(&hidden),
                scratch: &mut packed,
            });
            isa.call(LayerNormOp { x: &mut attended, norm: &layer.attention_norm, eps: self.eps });
            isa.call(LinearOp {
                linear: &layer.intermediate,
                x: &attended,
                out: &mut inner,
                residual: None,
                scratch: &mut packed,
            });
            isa.call(GeluOp(&mut inner));
            isa.call(LinearOp {
                linear: &layer.output,
                x: &inner,
                out: &mut hidden,
                residual: Some(&attended),
                scratch: &mut packed,
            });
            isa.call(LayerNormOp { x: &mut hidden, norm: &layer.output_norm, eps: self.eps });
        }
        isa.call(PoolOp { sequences, hidden_states: &hidden, width: h })
    }
}
