//! The fuzz targets' properties (`fuzz/`, issue 43): one function of the input bytes per trust
//! boundary, which panics where the host breaks a promise about what crosses it. cargo-fuzz runs them
//! under libFuzzer (`fuzz/fuzz_targets/`, with the `fuzzing` feature); the tests below replay every
//! file of `fuzz/corpus/<target>/` through the same functions, so CI keeps what the fuzzer found
//! without nightly or cargo-fuzz. Only in tests and fuzz builds, and at the top like `reference.rs`:
//! it reads every layer, through the entry points the host itself uses, and never parses in its stead.

mod config;
mod dotenv;
mod framing;
mod http;
mod import;
mod json;
mod otlp;
mod plugin_output;
mod traceparent;
mod tsv;

pub use self::config::check as config;
pub use self::dotenv::check as dotenv;
pub use self::framing::check as framing;
pub use self::http::check as http;
pub use self::import::check as import;
pub use self::json::check as json;
pub use self::otlp::check as otlp;
pub use self::plugin_output::check as plugin_output;
pub use self::traceparent::check as traceparent;
pub use self::tsv::check as tsv;

/// A target's property, run on one input: it panics where the property does not hold.
pub type Check = fn(&[u8]);

/// Every target, by the name its folder of `fuzz/corpus/` and its binary in `fuzz/` have.
pub const TARGETS: &[(&str, Check)] = &[
    ("config", config),
    ("dotenv", dotenv),
    ("framing", framing),
    ("http", http),
    ("import", import),
    ("json", json),
    ("otlp", otlp),
    ("plugin_output", plugin_output),
    ("traceparent", traceparent),
    ("tsv", tsv),
];

/// A folder of this process and thread for the files a target writes, emptied first.
fn scratch(name: &str) -> std::path::PathBuf {
    let thread = format!("{:?}", std::thread::current().id());
    let thread: String = thread.chars().filter(char::is_ascii_digit).collect();
    let dir = std::env::temp_dir().join(format!("parlance-fuzz-{}-{thread}", std::process::id())).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("cannot make {}: {e}", dir.display()));
    dir
}

/// A runtime for the targets that run async code, one per thread, made once.
fn block_on<F: std::future::Future>(future: F) -> F::Output {
    thread_local! {
        static RUNTIME: tokio::runtime::Runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a current-thread runtime");
    }
    RUNTIME.with(|runtime| runtime.block_on(future))
}

/// FNV-1a of the input: choices a target derives from its whole input rather than from bytes of it.
fn hash(data: &[u8]) -> u64 {
    data.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    fn root() -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../fuzz")
    }

    /// Every input of a target's corpus keeps the target's properties: the regression tests of what
    /// the fuzzer kept, the crashes it found included.
    fn replay(name: &str, check: fn(&[u8])) {
        let dir = root().join("corpus").join(name);
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|entry| entry.unwrap().path())
            .collect();
        files.sort();
        assert!(!files.is_empty(), "{} holds no input", dir.display());
        for file in files {
            let data = std::fs::read(&file).unwrap();
            let outcome = std::panic::catch_unwind(|| check(&data));
            assert!(
                outcome.is_ok(),
                "{name}: {} breaks its property (the panic above says which)",
                file.display()
            );
        }
    }

    macro_rules! corpus {
        ($($target:ident),* $(,)?) => {$(
            #[test]
            fn $target() {
                replay(stringify!($target), super::$target);
            }
        )*};
    }

    corpus!(config, dotenv, framing, http, import, json, otlp, plugin_output, traceparent, tsv);

    /// Each target has its corpus, its fuzz binary and an entry in `TARGETS`, and nothing else has.
    #[test]
    fn targets_corpora_and_binaries_agree() {
        let names = |dir: &str, suffix: &str| {
            let mut names: Vec<String> = std::fs::read_dir(root().join(dir))
                .unwrap()
                .map(|entry| entry.unwrap().file_name().to_string_lossy().trim_end_matches(suffix).to_owned())
                .collect();
            names.sort();
            names
        };
        let targets: Vec<String> = super::TARGETS.iter().map(|(name, _)| (*name).to_owned()).collect();
        assert_eq!(names("corpus", ""), targets);
        assert_eq!(names("fuzz_targets", ".rs"), targets);
    }
}
