//! Native sentence embeddings for the host's `embeddings` capability: a BERT sentence encoder that
//! reproduces sentence-transformers (tokenizer → BERT → mean pooling → L2 normalisation) in f32.
//!
//! Against sentence-transformers itself on the 430 reference pairs of
//! `tests/data/semantic-reference.jsonl`, the largest cosine difference is below 1e-6.
//!
//! # Design
//!
//! **Tokenizer: written here, not the `tokenizers` crate.** `tokenizers` 0.23 with
//! `default-features = false` does not compile without a regex engine (`onig` or `fancy-regex`);
//! with `fancy-regex` it brings 60 crates (rayon, regex, derive_builder/darling, monostate,
//! spm_precompiled/nom, esaxx-rs, …) and took 55 s for a clean release build on the project's 2-core
//! machine, against 11 s for this crate's own dependency set, so it would add about 45 s to every
//! clean build. The BERT pipeline is small (see the `tokenizer` module) and is exact by
//! construction where it matters: it uses the very crates `tokenizers` uses for Unicode data
//! (`unicode_categories`, `unicode-normalization-alignments`) and `char`'s whitespace and lowercase
//! mappings, as `tokenizers` does. Tests compare it with the Python `tokenizers` package on tricky
//! strings and Unicode sweeps; a one-off check over all 1 112 064 Unicode scalar values found no
//! difference. tokenizer.json files this code does not implement (other normalisers, BPE, added
//! tokens with strip flags, …) are refused with an error naming the field.
//!
//! **Matrix products: weights packed once, not a general sgemm.** matrixmultiply's entry points
//! are `unsafe fn`, which this workspace denies, and through ndarray's safe wrapper it repacks the
//! weight matrix on every call: for a 15-token sentence that repacking cost as much as the
//! arithmetic (a one-sentence embed took 20 ms, half of it in packing). Here each weight matrix is
//! packed at load into the panel layout of a register-tiled micro-kernel (12 rows × 32 columns of
//! accumulators with AVX-512, 6 × 16 with AVX2), written with explicit vectors and dispatched at
//! run time through `pulp`, which keeps `unsafe` out of this crate (modules `gemm` and `simd`).
//!
//! **Batches without padding.** sentence-transformers pads each batch to its longest sentence and
//! masks the padding out of attention, where it gets weight exactly 0. Here the sentences of a
//! batch lie end to end, every matrix product runs over real tokens only, and attention runs per
//! sentence: the same arithmetic, without the padded rows. Texts are still sorted by length, so that
//! the expensive long sentences are started first and the threads finish together.
//!
//! **Threads.** A call's batches (up to 512 tokens each) go to up to
//! [`std::thread::available_parallelism`] scoped threads ([`SentenceEncoder::with_max_threads`]
//! lowers that); a one-sentence call runs on the caller's thread only. There is no pool and no
//! global state: the encoder is plain immutable data, `Send + Sync`.
//!
//! **Numerics.** f32 throughout, as torch's CPU path. GELU is the exact erf form; erf uses the
//! Abramowitz–Stegun 7.1.26 approximation (error < 1.5e-7), which is what PyTorch's vectorised CPU
//! kernels use too. Text longer than `max_seq_length` (sentence_bert_config.json: 256 for
//! all-MiniLM-L6-v2, overriding tokenizer.json's own truncation block of 128, as
//! sentence-transformers does) keeps its first 254 word pieces, cutting through words if need be.
//!
//! **Build profile.** Unoptimised, the forward pass is about a hundred times slower (the reference
//! test takes minutes), which is why the workspace builds this crate at `opt-level = 3` in the dev
//! profile too.

mod bert;
mod config;
mod error;
mod gemm;
mod kernels;
mod safetensors;
mod simd;
mod tokenizer;

pub use error::EmbeddingsError;

use bert::{Batch, Bert};
use config::ModelConfig;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use tokenizer::BertTokenizer;

/// Tokens per forward pass when a call is big enough to be cut up: large enough that the matrix
/// products run at full speed, small enough that the activations stay near a core's L2 cache
/// (256 measured the same, 1024 slower).
const BATCH_TOKENS: usize = 512;

/// A loaded BERT sentence encoder. Immutable after loading, so one instance serves any number of
/// threads at once.
pub struct SentenceEncoder {
    name: String,
    tokenizer: BertTokenizer,
    bert: Bert,
    max_seq_length: usize,
    threads: usize,
}

impl std::fmt::Debug for SentenceEncoder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SentenceEncoder")
            .field("name", &self.name)
            .field("dimensions", &self.dimensions())
            .field("max_seq_length", &self.max_seq_length)
            .field("threads", &self.threads)
            .finish_non_exhaustive()
    }
}

impl SentenceEncoder {
    /// Loads `model.safetensors`, `tokenizer.json` and `config.json` (and `sentence_bert_config.json`,
    /// `modules.json` and the pooling config when present) from a sentence-transformers model folder.
    pub fn load(dir: &Path) -> Result<Self, EmbeddingsError> {
        let config = ModelConfig::load(dir)?;
        let tokenizer_path = config.transformer_dir.join("tokenizer.json");
        let tokenizer = BertTokenizer::load(&tokenizer_path, config.max_seq_length, config.do_lower_case)?;
        let bert =
            Bert::load(&config.transformer_dir.join("model.safetensors"), &config.bert, pulp::Arch::new())?;
        let max_id = tokenizer.max_id() as usize;
        if max_id >= bert.vocab_size() {
            return Err(EmbeddingsError::invalid(
                tokenizer_path,
                "model.vocab",
                format!("holds id {max_id}, beyond the {} rows of the embedding table", bert.vocab_size()),
            ));
        }
        let name = dir
            .canonicalize()
            .ok()
            .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
            .or_else(|| {
                config.bert.name_or_path.as_deref().and_then(|n| n.rsplit('/').next()).map(str::to_owned)
            })
            .unwrap_or_else(|| "bert".to_owned());
        let threads = std::thread::available_parallelism().map_or(1, usize::from);
        Ok(Self { name, tokenizer, bert, max_seq_length: config.max_seq_length, threads })
    }

    /// Caps the threads one `embed` call may use (default: the cores available to the process).
    pub fn with_max_threads(mut self, threads: usize) -> Self {
        self.threads = threads.max(1);
        self
    }

    /// The model's name: the folder's name, e.g. `all-MiniLM-L6-v2`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Width of every vector `embed` returns (384 for all-MiniLM-L6-v2).
    pub fn dimensions(&self) -> usize {
        self.bert.hidden_size()
    }

    /// Longest token sequence the encoder sees, `[CLS]` and `[SEP]` included; longer texts are cut.
    pub fn max_seq_length(&self) -> usize {
        self.max_seq_length
    }

    /// The token ids BERT receives for `text`, after truncation and with `[CLS]` and `[SEP]`.
    pub fn token_ids(&self, text: &str) -> Vec<u32> {
        self.tokenizer.encode(text)
    }

    /// One L2-normalised vector per text, in input order.
    pub fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbeddingsError> {
        let encoded: Vec<Vec<u32>> = texts.iter().map(|t| self.tokenizer.encode(t)).collect();
        // Longest first: similar lengths share a batch, and the most expensive batches start early
        // so that the threads finish together.
        let mut order: Vec<usize> = (0..encoded.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(encoded[i].len()));
        let total: usize = encoded.iter().map(Vec::len).sum();
        let threads = self.threads.min(encoded.len()).max(1);
        let target = BATCH_TOKENS.min(total.div_ceil(threads));
        let mut batches: Vec<Vec<usize>> = Vec::new();
        let mut batch_tokens = 0;
        for i in order {
            let len = encoded[i].len();
            match batches.last_mut() {
                Some(batch) if batch_tokens + len <= target => batch.push(i),
                _ => {
                    batches.push(vec![i]);
                    batch_tokens = 0;
                }
            }
            batch_tokens += len;
        }

        let next = AtomicUsize::new(0);
        let work = || {
            let mut done = Vec::new();
            loop {
                let b = next.fetch_add(1, Ordering::Relaxed);
                let Some(batch) = batches.get(b) else { break done };
                let sequences = batch.iter().map(|&i| encoded[i].as_slice()).collect();
                let vectors = self.bert.embed_batch(&Batch { sequences });
                done.extend(batch.iter().copied().zip(vectors));
            }
        };
        let threads = threads.min(batches.len());
        let finished: Vec<(usize, Vec<f32>)> = if threads <= 1 {
            work()
        } else {
            std::thread::scope(|scope| {
                let helpers: Vec<_> = (1..threads).map(|_| scope.spawn(work)).collect();
                let mut finished = work();
                // Every helper is joined before any failure is reported: a panicked helper left
                // unjoined would make `scope` itself panic.
                let mut panicked = false;
                for helper in helpers {
                    match helper.join() {
                        Ok(done) => finished.extend(done),
                        Err(_) => panicked = true,
                    }
                }
                if panicked { Err(EmbeddingsError::WorkerPanicked) } else { Ok(finished) }
            })?
        };

        let mut out = vec![Vec::new(); texts.len()];
        for (i, vector) in finished {
            out[i] = vector;
        }
        Ok(out)
    }
}
