//! Reading named f32 tensors out of a `.safetensors` file: the JSON header, bounds checks, and
//! conversion of f16 / bf16 payloads to f32.

use crate::error::EmbeddingsError;
use serde::Deserialize;
use std::collections::HashMap;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

#[derive(Deserialize)]
struct Entry {
    dtype: String,
    shape: Vec<usize>,
    data_offsets: [u64; 2],
}

/// An open safetensors file whose header has been checked; tensors are read on demand so that the
/// whole file never has to sit in memory next to the converted weights.
pub(crate) struct SafeTensors {
    path: PathBuf,
    file: File,
    data_start: u64,
    entries: HashMap<String, Entry>,
}

/// A header far beyond any real model's is a corrupt or hostile file, not a reason to allocate.
const MAX_HEADER_BYTES: u64 = 100 << 20;

impl SafeTensors {
    pub fn open(path: &Path) -> Result<Self, EmbeddingsError> {
        let bad = |problem: String| EmbeddingsError::BadSafetensors { path: path.into(), problem };
        let mut file = File::open(path).map_err(|e| EmbeddingsError::io(path, e))?;
        let file_len = file.metadata().map_err(|e| EmbeddingsError::io(path, e))?.len();
        let mut len_bytes = [0u8; 8];
        file.read_exact(&mut len_bytes).map_err(|_| bad("too short to hold a header length".into()))?;
        let header_len = u64::from_le_bytes(len_bytes);
        if header_len > MAX_HEADER_BYTES || 8 + header_len > file_len {
            return Err(bad(format!("header length {header_len} does not fit a {file_len}-byte file")));
        }
        let mut header = vec![0u8; header_len as usize];
        file.read_exact(&mut header).map_err(|e| EmbeddingsError::io(path, e))?;
        let mut raw: HashMap<String, serde_json::Value> = serde_json::from_slice(&header)
            .map_err(|source| EmbeddingsError::Json { path: path.into(), source })?;
        raw.remove("__metadata__");
        let data_start = 8 + header_len;
        let data_len = file_len - data_start;
        let mut entries = HashMap::with_capacity(raw.len());
        for (name, value) in raw {
            let entry: Entry = serde_json::from_value(value)
                .map_err(|e| bad(format!("tensor `{name}` has a malformed header entry: {e}")))?;
            let [begin, end] = entry.data_offsets;
            if begin > end || end > data_len {
                return Err(bad(format!(
                    "tensor `{name}` spans {begin}..{end}, outside the {data_len}-byte payload"
                )));
            }
            entries.insert(name, entry);
        }
        Ok(Self { path: path.into(), file, data_start, entries })
    }

    pub fn contains(&self, name: &str) -> bool {
        self.entries.contains_key(name)
    }

    /// Reads tensor `name`, which must have exactly `shape`, as f32 values in row-major order.
    pub fn read_f32(&mut self, name: &str, shape: &[usize]) -> Result<Vec<f32>, EmbeddingsError> {
        let path = &self.path;
        let entry = self
            .entries
            .get(name)
            .ok_or_else(|| EmbeddingsError::MissingTensor { path: path.clone(), tensor: name.into() })?;
        if entry.shape != shape {
            return Err(EmbeddingsError::BadShape {
                path: path.clone(),
                tensor: name.into(),
                expected: shape.to_vec(),
                found: entry.shape.clone(),
            });
        }
        let count: usize = shape.iter().product();
        let width = match entry.dtype.as_str() {
            "F32" => 4,
            "F16" | "BF16" => 2,
            other => {
                return Err(EmbeddingsError::BadSafetensors {
                    path: path.clone(),
                    problem: format!("tensor `{name}` has dtype {other}; F32, F16 or BF16 expected"),
                });
            }
        };
        let [begin, end] = entry.data_offsets;
        if end - begin != (count * width) as u64 {
            return Err(EmbeddingsError::BadSafetensors {
                path: path.clone(),
                problem: format!(
                    "tensor `{name}` holds {} bytes, its shape needs {}",
                    end - begin,
                    count * width
                ),
            });
        }
        self.file.seek(SeekFrom::Start(self.data_start + begin)).map_err(|e| EmbeddingsError::io(path, e))?;
        let mut values = vec![0f32; count];
        if width == 4 {
            // Straight into the f32 storage: no second copy of the largest tensor (the 47 MB word
            // embeddings) during loading.
            self.file
                .read_exact(bytemuck::cast_slice_mut(&mut values))
                .map_err(|e| EmbeddingsError::io(path, e))?;
            if cfg!(target_endian = "big") {
                for v in &mut values {
                    *v = f32::from_bits(u32::from_le(v.to_bits()));
                }
            }
        } else {
            let mut halves = vec![0u8; count * 2];
            self.file.read_exact(&mut halves).map_err(|e| EmbeddingsError::io(path, e))?;
            let convert = if entry.dtype == "BF16" { bf16_to_f32 } else { f16_to_f32 };
            for (v, h) in values.iter_mut().zip(halves.chunks_exact(2)) {
                *v = convert(u16::from_le_bytes([h[0], h[1]]));
            }
        }
        Ok(values)
    }
}

fn bf16_to_f32(bits: u16) -> f32 {
    f32::from_bits(u32::from(bits) << 16)
}

fn f16_to_f32(bits: u16) -> f32 {
    let sign = u32::from(bits >> 15) << 31;
    let exponent = u32::from((bits >> 10) & 0x1f);
    let mantissa = u32::from(bits & 0x3ff);
    let magnitude = match (exponent, mantissa) {
        (0, 0) => 0,
        // Subnormal half: exactly representable as a normal f32, so compute it directly.
        (0, m) => {
            let value = m as f32 * 2f32.powi(-24);
            return if sign == 0 { value } else { -value };
        }
        (0x1f, m) => 0x7f80_0000 | (m << 13),
        (e, m) => ((e + 112) << 23) | (m << 13),
    };
    f32::from_bits(sign | magnitude)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_precision_conversions_are_exact() {
        assert_eq!(f16_to_f32(0x3c00), 1.0);
        assert_eq!(f16_to_f32(0xc000), -2.0);
        assert_eq!(f16_to_f32(0x7bff), 65504.0);
        assert_eq!(f16_to_f32(0x0001), 2f32.powi(-24));
        assert_eq!(f16_to_f32(0x8001), -(2f32.powi(-24)));
        assert_eq!(f16_to_f32(0x7c00), f32::INFINITY);
        assert!(f16_to_f32(0x7e00).is_nan());
        assert_eq!(bf16_to_f32(0x3f80), 1.0);
        assert_eq!(bf16_to_f32(0xc0a0), -5.0);
    }
}
