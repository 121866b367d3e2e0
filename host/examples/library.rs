//! Parlance as a library: builds the handle in code (no file, no environment), then paraphrases one
//! text, a batch, and evaluates a paraphrase, all through the offline provider and the bundled metrics.
//!
//! Run: `cargo run --example library -p parlance`

use parlance::Parlance;
use parlance::config::Env;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = std::env::temp_dir().join(format!("parlance-example-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    // Everything the binary reads from the environment can be given in code instead.
    let env = Env::empty()
        .with("CACHE_TYPE", "memory")
        .with("DATABASE_FILE", dir.join("dialogs.db").to_str().ok_or("temp dir is not UTF-8")?);
    let parlance = Parlance::builder().env(env).build().await?;

    let one = parlance.generate_paraphrase("The quick brown fox jumps over the lazy dog.").await?;
    println!("paraphrase: {} -> {} ({} / {})", one.original, one.paraphrase, one.provider, one.model);

    let texts = vec!["How can I learn Python quickly?".to_owned(), "Weather is nice today.".to_owned()];
    for (text, result) in texts.iter().zip(parlance.paraphrase_batch(texts.clone()).await?) {
        match result {
            Ok(p) => println!("batch: {text} -> {}", p.paraphrase),
            Err(e) => println!("batch: {text} failed: {e}"),
        }
    }

    let result =
        parlance.evaluate_paraphrase("The cat sat on the mat.", "A cat was sitting on the rug.").await?;
    for (name, value) in &result.evaluation.scores {
        println!("evaluate: {name} = {value:.4}");
    }
    match result.evaluation.overall_score {
        Some(score) => println!("evaluate: overall_score = {score:.4}"),
        None => println!("evaluate: no overall score: {:?}", result.warnings),
    }
    std::fs::remove_dir_all(&dir)?;
    Ok(())
}
