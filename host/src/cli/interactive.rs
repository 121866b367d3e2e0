//! `--mode interactive`: a line editor with history (rustyline). Each line is paraphrased; `help`,
//! `quit`, `provider <id>`, `model <name>` and `providers` are commands.

use crate::ParaphraseRequest;
use crate::Parlance;
use crate::plugins::api::PluginKind;
use rustyline::DefaultEditor;
use rustyline::error::ReadlineError;

const HELP: &str = "\
Type a text and press Enter to paraphrase it.
Commands:
  help              this text
  providers         the providers you can switch to
  provider <id>     paraphrase with another provider
  model <name>      use another model of the provider (`model` alone goes back to its default)
  quit              leave (so do Ctrl-D and `exit`)";

pub async fn run(
    parlance: &Parlance,
    mut provider: Option<String>,
    mut model: Option<String>,
) -> anyhow::Result<()> {
    let mut editor = DefaultEditor::new()?;
    let history = std::env::var_os("HOME").map(|h| std::path::PathBuf::from(h).join(".parlance_history"));
    if let Some(path) = &history {
        let _ = editor.load_history(path);
    }
    println!("Parlance interactive paraphrasing. Type `help` for commands, `quit` to leave.");
    loop {
        let current =
            provider.clone().unwrap_or_else(|| parlance.paraphraser().default_provider().to_owned());
        let prompt = format!("{current}> ");
        let line = match tokio::task::block_in_place(|| editor.readline(&prompt)) {
            Ok(line) => line,
            Err(ReadlineError::Interrupted) => continue,
            Err(ReadlineError::Eof) => break,
            Err(e) => return Err(e.into()),
        };
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let _ = editor.add_history_entry(line);
        let (command, argument) = match line.split_once(char::is_whitespace) {
            Some((c, a)) => (c, Some(a.trim())),
            None => (line, None),
        };
        match (command, argument) {
            ("quit" | "exit", None) => break,
            ("help", None) => println!("{HELP}"),
            ("providers", None) => {
                for p in parlance.plugins().of_kind(PluginKind::Provider) {
                    println!("  {}  ({})", p.id(), p.info.name());
                }
            }
            ("provider", Some(id)) => match parlance.paraphraser().provider(Some(id)) {
                Ok(_) => {
                    provider = Some(id.to_owned());
                    model = None;
                }
                Err(e) => eprintln!("error: {e}"),
            },
            ("model", argument) => model = argument.map(str::to_owned),
            _ => {
                let request = ParaphraseRequest {
                    text: line.to_owned(),
                    provider: provider.clone(),
                    model: model.clone(),
                    skip_cache: false,
                };
                match parlance.paraphrase(&request).await {
                    Ok(p) => println!("{}", p.paraphrase),
                    Err(e) => eprintln!("error: {e}"),
                }
            }
        }
    }
    if let Some(path) = &history {
        let _ = editor.save_history(path);
    }
    Ok(())
}
