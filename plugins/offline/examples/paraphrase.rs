//! Paraphrases each line of standard input natively, with the time each took: a tool for reading
//! the output while tuning the lexicon (`cargo run --release --example paraphrase < sentences.txt`).
//! With `CANDIDATES=n` in the environment it prints the `n` candidates of each line instead, one
//! per line after the input, tab-separated from their rank.

use std::io::BufRead;
use std::time::Instant;

use parlance_plugin_offline::{Options, candidates::candidates, paraphrase::paraphrase};

fn main() {
    let options = Options::default();
    let count: Option<usize> = std::env::var("CANDIDATES").ok().and_then(|n| n.parse().ok());
    for line in std::io::stdin().lock().lines().map_while(Result::ok) {
        let start = Instant::now();
        if let Some(count) = count {
            let found = candidates(&line, &options, count);
            let took = start.elapsed();
            println!("{line}   [{} us]", took.as_micros());
            for (k, c) in found.iter().enumerate() {
                println!("  {k}\t{c}");
            }
            continue;
        }
        let out = paraphrase(&line, &options);
        let took = start.elapsed();
        println!("{line}\n  -> {out}   [{} us]", took.as_micros());
    }
}
