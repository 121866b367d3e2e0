//! Paraphrases each line of standard input natively, with the time each took: a tool for reading
//! the output while tuning the lexicon (`cargo run --release --example paraphrase < sentences.txt`).

use std::io::BufRead;
use std::time::Instant;

use parlance_plugin_offline::{Options, paraphrase::paraphrase};

fn main() {
    let options = Options::default();
    for line in std::io::stdin().lock().lines().map_while(Result::ok) {
        let start = Instant::now();
        let out = paraphrase(&line, &options);
        let took = start.elapsed();
        println!("{line}\n  -> {out}   [{} us]", took.as_micros());
    }
}
