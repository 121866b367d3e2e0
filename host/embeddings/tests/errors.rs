//! Loading a model folder that is incomplete, malformed or beyond what the encoder implements:
//! every failure must name the file and the field or tensor at fault. The folders are built here
//! from a tiny random BERT, so these tests need no downloaded model.

use parlance_embeddings::{EmbeddingsError, SentenceEncoder};
use serde_json::{Value, json};
use std::path::Path;

const HIDDEN: usize = 8;
const HEADS: usize = 2;
const INTERMEDIATE: usize = 16;
const LAYERS: usize = 2;
const POSITIONS: usize = 16;
const VOCAB: [&str; 9] = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "hello", "world", "##s", "!", "[MASK]"];

/// The files of a sentence-transformers folder, as values a test can alter before writing.
struct Folder {
    config: Value,
    tokenizer: Value,
    modules: Option<Value>,
    pooling: Value,
    sentence_bert: Value,
    tensors: Vec<(String, Vec<usize>, Vec<f32>)>,
}

impl Folder {
    fn tiny() -> Self {
        let mut seed = 0x2545_f491_u32;
        let mut random = |n: usize| -> Vec<f32> {
            (0..n)
                .map(|_| {
                    seed ^= seed << 13;
                    seed ^= seed >> 17;
                    seed ^= seed << 5;
                    (seed as f32 / u32::MAX as f32 - 0.5) * 0.4
                })
                .collect()
        };
        let mut tensors = Vec::new();
        let mut add = |name: String, shape: Vec<usize>| {
            let data = random(shape.iter().product());
            tensors.push((name, shape, data));
        };
        add("embeddings.word_embeddings.weight".into(), vec![VOCAB.len(), HIDDEN]);
        add("embeddings.position_embeddings.weight".into(), vec![POSITIONS, HIDDEN]);
        add("embeddings.token_type_embeddings.weight".into(), vec![2, HIDDEN]);
        add("embeddings.LayerNorm.weight".into(), vec![HIDDEN]);
        add("embeddings.LayerNorm.bias".into(), vec![HIDDEN]);
        for l in 0..LAYERS {
            let p = |rest: &str| format!("encoder.layer.{l}.{rest}");
            for name in [
                "attention.self.query",
                "attention.self.key",
                "attention.self.value",
                "attention.output.dense",
            ] {
                add(p(&format!("{name}.weight")), vec![HIDDEN, HIDDEN]);
                add(p(&format!("{name}.bias")), vec![HIDDEN]);
            }
            add(p("intermediate.dense.weight"), vec![INTERMEDIATE, HIDDEN]);
            add(p("intermediate.dense.bias"), vec![INTERMEDIATE]);
            add(p("output.dense.weight"), vec![HIDDEN, INTERMEDIATE]);
            add(p("output.dense.bias"), vec![HIDDEN]);
            for norm in ["attention.output.LayerNorm", "output.LayerNorm"] {
                add(p(&format!("{norm}.weight")), vec![HIDDEN]);
                add(p(&format!("{norm}.bias")), vec![HIDDEN]);
            }
        }
        let vocab: serde_json::Map<String, Value> =
            VOCAB.iter().enumerate().map(|(i, t)| (t.to_string(), json!(i))).collect();
        let special = |content: &str, id: usize| {
            json!({"id": id, "content": content, "single_word": false, "lstrip": false, "rstrip": false,
                   "normalized": false, "special": true})
        };
        Self {
            config: json!({
                "model_type": "bert", "vocab_size": VOCAB.len(), "hidden_size": HIDDEN,
                "num_hidden_layers": LAYERS, "num_attention_heads": HEADS, "intermediate_size": INTERMEDIATE,
                "hidden_act": "gelu", "layer_norm_eps": 1e-12, "max_position_embeddings": POSITIONS,
                "type_vocab_size": 2, "position_embedding_type": "absolute"
            }),
            tokenizer: json!({
                "version": "1.0",
                "truncation": null,
                "padding": null,
                "added_tokens": [special("[PAD]", 0), special("[UNK]", 1), special("[CLS]", 2), special("[SEP]", 3),
                                 special("[MASK]", 8)],
                "normalizer": {"type": "BertNormalizer", "clean_text": true, "handle_chinese_chars": true,
                               "strip_accents": null, "lowercase": true},
                "pre_tokenizer": {"type": "BertPreTokenizer"},
                "post_processor": {"type": "TemplateProcessing",
                    "single": [{"SpecialToken": {"id": "[CLS]", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}},
                               {"SpecialToken": {"id": "[SEP]", "type_id": 0}}],
                    "pair": [],
                    "special_tokens": {"[CLS]": {"id": "[CLS]", "ids": [2], "tokens": ["[CLS]"]},
                                       "[SEP]": {"id": "[SEP]", "ids": [3], "tokens": ["[SEP]"]}}},
                "decoder": null,
                "model": {"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##",
                          "max_input_chars_per_word": 100, "vocab": vocab}
            }),
            modules: Some(json!([
                {"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"},
                {"idx": 1, "name": "1", "path": "1_Pooling", "type": "sentence_transformers.models.Pooling"},
                {"idx": 2, "name": "2", "path": "2_Normalize", "type": "sentence_transformers.models.Normalize"}
            ])),
            pooling: json!({"word_embedding_dimension": HIDDEN, "pooling_mode_cls_token": false,
                            "pooling_mode_mean_tokens": true, "pooling_mode_max_tokens": false,
                            "pooling_mode_mean_sqrt_len_tokens": false}),
            sentence_bert: json!({"max_seq_length": 12, "do_lower_case": false}),
            tensors,
        }
    }

    fn safetensors(&self) -> Vec<u8> {
        let mut header = serde_json::Map::new();
        header.insert("__metadata__".into(), json!({"format": "pt"}));
        let mut offset = 0;
        for (name, shape, data) in &self.tensors {
            let bytes = data.len() * 4;
            header.insert(
                name.clone(),
                json!({"dtype": "F32", "shape": shape, "data_offsets": [offset, offset + bytes]}),
            );
            offset += bytes;
        }
        let header = serde_json::to_vec(&Value::Object(header)).expect("header");
        let mut out = (header.len() as u64).to_le_bytes().to_vec();
        out.extend(header);
        for (_, _, data) in &self.tensors {
            out.extend(data.iter().flat_map(|v| v.to_le_bytes()));
        }
        out
    }

    fn write(&self, dir: &Path) {
        let put = |name: &str, value: &Value| {
            let path = dir.join(name);
            std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
            std::fs::write(path, serde_json::to_vec_pretty(value).expect("json")).expect("write");
        };
        put("config.json", &self.config);
        put("tokenizer.json", &self.tokenizer);
        put("sentence_bert_config.json", &self.sentence_bert);
        put("1_Pooling/config.json", &self.pooling);
        if let Some(modules) = &self.modules {
            put("modules.json", modules);
        }
        std::fs::write(dir.join("model.safetensors"), self.safetensors()).expect("write safetensors");
    }

    fn load(&self) -> (tempfile::TempDir, Result<SentenceEncoder, EmbeddingsError>) {
        let dir = tempfile::Builder::new().prefix("tiny-bert").tempdir().expect("temp dir");
        self.write(dir.path());
        let loaded = SentenceEncoder::load(dir.path());
        (dir, loaded)
    }

    fn tensor(&mut self, name: &str) -> &mut (String, Vec<usize>, Vec<f32>) {
        self.tensors.iter_mut().find(|t| t.0 == name).expect("tensor")
    }
}

/// Loads `folder` expecting failure, and checks that the message names every one of `words`.
fn fails_naming(folder: &Folder, words: &[&str]) -> EmbeddingsError {
    let (_dir, loaded) = folder.load();
    let error = loaded.expect_err("the folder must be rejected");
    let message = error.to_string();
    for word in words {
        assert!(message.contains(word), "error {message:?} does not name {word:?}");
    }
    error
}

#[test]
fn a_tiny_model_loads_and_embeds() {
    let (dir, loaded) = Folder::tiny().load();
    let enc = loaded.expect("tiny model loads");
    assert_eq!(enc.dimensions(), HIDDEN);
    assert_eq!(enc.max_seq_length(), 12);
    assert_eq!(Some(enc.name()), dir.path().file_name().and_then(|n| n.to_str()));
    assert_eq!(enc.token_ids("Hello worlds! [MASK] xyz"), vec![2, 4, 5, 6, 7, 8, 1, 3]);
    // Eleven words, room for twelve tokens: [CLS], the first ten words, [SEP].
    let mut truncated = vec![2];
    truncated.extend([4; 10]);
    truncated.push(3);
    assert_eq!(enc.token_ids(&"hello ".repeat(11)), truncated);
    let vectors = enc.embed(&["hello world", "", "world hello!", "hello world"]).expect("embed");
    for v in &vectors {
        let norm: f32 = v.iter().map(|x| x * x).sum::<f32>().sqrt();
        assert!((norm - 1.0).abs() < 1e-5);
    }
    assert_eq!(vectors[0], vectors[3]);
    assert_ne!(vectors[0], vectors[2], "word order matters through the position embeddings");
}

#[test]
fn bert_prefixed_tensor_names_load() {
    let mut folder = Folder::tiny();
    for tensor in &mut folder.tensors {
        tensor.0 = format!("bert.{}", tensor.0);
    }
    let (_dir, loaded) = folder.load();
    loaded.expect("a BertModel saved from a task model loads");
}

#[test]
fn missing_files_are_named() {
    for file in ["model.safetensors", "tokenizer.json", "config.json", "1_Pooling/config.json"] {
        let folder = Folder::tiny();
        let dir = tempfile::tempdir().expect("temp dir");
        folder.write(dir.path());
        std::fs::remove_file(dir.path().join(file)).expect("remove");
        let error = SentenceEncoder::load(dir.path()).expect_err("must fail");
        assert!(
            matches!(&error, EmbeddingsError::MissingFile { path } if path.ends_with(file)),
            "{file}: {error}"
        );
    }
    let error = SentenceEncoder::load(Path::new("/nonexistent/model")).expect_err("must fail");
    assert!(matches!(error, EmbeddingsError::MissingFile { .. }), "{error}");
}

#[test]
fn unsupported_configurations_are_named() {
    let mut folder = Folder::tiny();
    folder.config["hidden_act"] = json!("gelu_new");
    fails_naming(&folder, &["config.json", "hidden_act", "gelu_new"]);

    let mut folder = Folder::tiny();
    folder.config["model_type"] = json!("roberta");
    fails_naming(&folder, &["config.json", "model_type"]);

    let mut folder = Folder::tiny();
    folder.config["position_embedding_type"] = json!("relative_key");
    fails_naming(&folder, &["position_embedding_type"]);

    let mut folder = Folder::tiny();
    folder.pooling["pooling_mode_cls_token"] = json!(true);
    folder.pooling["pooling_mode_mean_tokens"] = json!(false);
    fails_naming(&folder, &["1_Pooling", "pooling_mode_cls_token"]);

    let mut folder = Folder::tiny();
    folder.modules.as_mut().expect("modules")[2]["type"] = json!("sentence_transformers.models.Dense");
    fails_naming(&folder, &["modules.json", "Dense"]);

    let mut folder = Folder::tiny();
    folder.tokenizer["normalizer"] = json!({"type": "NFKC"});
    fails_naming(&folder, &["tokenizer.json", "normalizer.type", "NFKC"]);

    let mut folder = Folder::tiny();
    folder.tokenizer["model"]["type"] = json!("BPE");
    fails_naming(&folder, &["tokenizer.json", "model.type", "BPE"]);

    let mut folder = Folder::tiny();
    folder.tokenizer["added_tokens"][4]["lstrip"] = json!(true);
    fails_naming(&folder, &["tokenizer.json", "added_tokens[4].lstrip"]);
}

#[test]
fn impossible_values_are_named() {
    let mut folder = Folder::tiny();
    folder.config["num_attention_heads"] = json!(3);
    fails_naming(&folder, &["config.json", "num_attention_heads"]);

    let mut folder = Folder::tiny();
    folder.sentence_bert["max_seq_length"] = json!(POSITIONS + 1);
    fails_naming(&folder, &["sentence_bert_config.json", "max_seq_length"]);

    let mut folder = Folder::tiny();
    folder.tokenizer["model"]["unk_token"] = json!("<unk>");
    fails_naming(&folder, &["tokenizer.json", "model.unk_token"]);

    let mut folder = Folder::tiny();
    folder.tokenizer["model"]["vocab"]["extra"] = json!(VOCAB.len());
    fails_naming(&folder, &["tokenizer.json", "model.vocab"]);

    let mut folder = Folder::tiny();
    folder.pooling["word_embedding_dimension"] = json!(HIDDEN * 2);
    fails_naming(&folder, &["word_embedding_dimension"]);

    let mut folder = Folder::tiny();
    folder.config["hidden_size"] = json!("eight");
    let error = fails_naming(&folder, &["config.json"]);
    assert!(matches!(error, EmbeddingsError::Json { .. }), "{error}");
}

#[test]
fn bad_tensors_are_named() {
    let mut folder = Folder::tiny();
    folder.tensors.retain(|t| t.0 != "encoder.layer.1.output.dense.bias");
    let error = fails_naming(&folder, &["model.safetensors", "encoder.layer.1.output.dense.bias"]);
    assert!(matches!(error, EmbeddingsError::MissingTensor { .. }), "{error}");

    let mut folder = Folder::tiny();
    folder.config["intermediate_size"] = json!(INTERMEDIATE * 2);
    let error = fails_naming(&folder, &["encoder.layer.0.intermediate.dense"]);
    assert!(matches!(error, EmbeddingsError::BadShape { .. }), "{error}");

    let mut folder = Folder::tiny();
    let tensor = folder.tensor("embeddings.position_embeddings.weight");
    tensor.1 = vec![POSITIONS - 1, HIDDEN];
    tensor.2.truncate((POSITIONS - 1) * HIDDEN);
    let error = fails_naming(&folder, &["embeddings.position_embeddings.weight", "[15, 8]"]);
    assert!(matches!(error, EmbeddingsError::BadShape { .. }), "{error}");
}

#[test]
fn a_truncated_safetensors_file_is_rejected() {
    let folder = Folder::tiny();
    let dir = tempfile::tempdir().expect("temp dir");
    folder.write(dir.path());
    let bytes = folder.safetensors();
    std::fs::write(dir.path().join("model.safetensors"), &bytes[..bytes.len() - 10]).expect("write");
    let error = SentenceEncoder::load(dir.path()).expect_err("must fail");
    assert!(matches!(error, EmbeddingsError::BadSafetensors { .. }), "{error}");
    assert!(error.to_string().contains("model.safetensors"), "{error}");

    std::fs::write(dir.path().join("model.safetensors"), [1, 2, 3]).expect("write");
    let error = SentenceEncoder::load(dir.path()).expect_err("must fail");
    assert!(matches!(error, EmbeddingsError::BadSafetensors { .. }), "{error}");
}

#[test]
fn the_encoder_is_shareable_between_threads() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<SentenceEncoder>();
    let (_dir, loaded) = Folder::tiny().load();
    let enc = loaded.expect("tiny model loads");
    let alone = enc.embed(&["hello world!"]).expect("embed");
    std::thread::scope(|s| {
        let handles: Vec<_> =
            (0..4).map(|_| s.spawn(|| enc.embed(&["hello world!"; 3]).expect("embed"))).collect();
        for handle in handles {
            for v in handle.join().expect("thread") {
                assert_eq!(v, alone[0]);
            }
        }
    });
}
