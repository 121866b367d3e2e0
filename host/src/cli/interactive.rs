//! `--mode interactive`: a line editor with history (rustyline). Each line is paraphrased; `help`,
//! `quit`, `provider <id>`, `model <name>` and `providers` are commands, and `chat <message>` talks
//! with the chat model, its reply printed as it is written, the dialog kept for the session only. The
//! screen belongs to the session: only warnings and errors are logged while it lasts.

use crate::Parlance;
use crate::fallback::ChainChoice;
use crate::paraphrase::ParaphraseRequest;
use crate::plugins::api::{CallFailure, PluginErrorKind};
use rustyline::DefaultEditor;
use rustyline::error::ReadlineError;

const HELP: &str = "\
Type a text and press Enter to paraphrase it.
Commands:
  help              this text
  providers         the providers you can switch to (* marks the current one)
  provider <id>     paraphrase with another provider
  model <name>      use another model of the provider, tried first on a short text
                    (`model` alone goes back to its default)
  chat <message>    say something to the chat model ([chat] model); its reply is printed as it
                    is written, and the dialog is kept until you leave (or `chat` alone clears it)
  quit              leave (so do Ctrl-D and `exit`)";

/// Words the service uses for what the session calls the line and the model.
const WORDS: &[(&str, &str)] = &[("`text`", "the line"), ("`model`", "the model")];

/// The text a new model is tried on: providers do not list their models, so a model is known to work
/// only once it has answered.
const TRIAL_TEXT: &str = "The weather is nice today.";

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
    crate::telemetry::quiet_below_warnings();
    let mut dialog: Vec<(String, String)> = Vec::new();
    println!("Parlance interactive paraphrasing. Type `help` for commands, `quit` to leave.");
    loop {
        let current =
            provider.clone().unwrap_or_else(|| parlance.paraphraser().default_provider().to_owned());
        let prompt = match &model {
            Some(model) => format!("{current} ({model})> "),
            None => format!("{current}> "),
        };
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
            ("providers", None) => print!("{}", providers(parlance, &current)),
            ("provider", Some(id)) => match parlance.paraphraser().provider(Some(id)) {
                Ok(_) => {
                    provider = Some(id.to_owned());
                    model = None;
                }
                Err(e) => eprintln!("error: {e}"),
            },
            ("chat", None) => {
                dialog.clear();
                println!("chat: a new dialog");
            }
            ("chat", Some(message)) => chat(parlance, &mut dialog, message).await,
            ("model", None) => {
                model = None;
                println!("model: the default of `{current}`");
            }
            ("model", Some(name)) => match try_model(parlance, &current, name).await {
                Trial::Answered => {
                    model = Some(name.to_owned());
                    println!("model: `{name}` (it answered a trial text)");
                }
                Trial::Refused(e) => {
                    eprintln!("error: `{current}` refused the model `{name}`: {e}; keeping the model you had")
                }
                Trial::Unknown(e) => {
                    model = Some(name.to_owned());
                    eprintln!(
                        "warning: model `{name}` is set, but the trial text failed, so it is not checked: {e}"
                    );
                }
            },
            _ => {
                let request = ParaphraseRequest {
                    text: line.to_owned(),
                    provider: provider.clone(),
                    model: model.clone(),
                    ..Default::default()
                };
                match parlance.paraphrase(&request).await {
                    Ok(p) => println!("{}", p.paraphrase),
                    Err(e) => eprintln!("error: {}", super::shared::in_cli_words(e, WORDS)),
                }
            }
        }
    }
    if let Some(path) = &history {
        let _ = editor.save_history(path);
    }
    Ok(())
}

/// One chat turn, the reply printed as it arrives; the exchange joins the session's dialog only when
/// the reply is complete.
async fn chat(parlance: &Parlance, dialog: &mut Vec<(String, String)>, message: &str) {
    use crate::plugins::api::{ChatRequest, HistoryEntry};
    use futures::StreamExt;
    use std::io::Write;
    let (user, character) = ("User", "Waifu");
    let request = ChatRequest {
        history: dialog
            .iter()
            .enumerate()
            .map(|(i, (name, message))| HistoryEntry { index: i as u32, name, message })
            .collect(),
        message: message.to_owned(),
        from_name: user.to_owned(),
        to_name: character.to_owned(),
        situation: None,
        genre: parlance.config().chat.default_genre.clone(),
    };
    let deltas = match parlance.reply_stream(None, &request, &Default::default()).await {
        Ok(deltas) => deltas,
        Err(e) => return eprintln!("error: {e}"),
    };
    futures::pin_mut!(deltas);
    let mut reply = String::new();
    print!("{character}: ");
    while let Some(delta) = deltas.next().await {
        match delta {
            Ok(text) => {
                print!("{text}");
                let _ = std::io::stdout().flush();
                reply.push_str(&text);
            }
            Err(e) => {
                println!();
                return eprintln!("error: {e}");
            }
        }
    }
    println!();
    dialog.push((user.to_owned(), message.to_owned()));
    dialog.push((character.to_owned(), reply));
}

/// What a model's trial text showed.
enum Trial {
    Answered,
    /// The provider refused the model (or the name is blank).
    Refused(crate::Error),
    /// Something else failed (an unreachable upstream), which says nothing about the model.
    Unknown(crate::Error),
}

async fn try_model(parlance: &Parlance, provider: &str, model: &str) -> Trial {
    let request = ParaphraseRequest {
        text: TRIAL_TEXT.into(),
        provider: Some(provider.to_owned()),
        model: Some(model.to_owned()),
        skip_cache: false,
        // The trial is of this provider's model: a fallback's answer would say nothing of it.
        fallbacks: ChainChoice::Off,
    };
    match parlance.paraphrase(&request).await {
        Ok(_) => Trial::Answered,
        Err(e @ crate::Error::InvalidInput { .. }) => Trial::Refused(super::shared::in_cli_words(e, WORDS)),
        Err(crate::Error::Plugin(e)) if matches!(&e.failure, CallFailure::Reported(r) if r.kind == PluginErrorKind::InvalidInput) => {
            Trial::Refused(crate::Error::Plugin(e))
        }
        Err(e) => Trial::Unknown(e),
    }
}

/// The providers, the current one marked `*`, each with its default model and, when it cannot serve,
/// why.
fn providers(parlance: &Parlance, current: &str) -> String {
    let rows: Vec<Vec<String>> = parlance
        .paraphraser()
        .providers()
        .into_iter()
        .map(|p| {
            let mark = if p.id == current { "*" } else { " " };
            let state = match (&p.unavailable_reason, p.id == current) {
                (Some(reason), _) => format!("unavailable: {reason}"),
                (None, true) => "current".into(),
                (None, false) => String::new(),
            };
            vec![format!("{mark} {}", p.id), p.name, format!("model {}", p.default_model), state]
        })
        .collect();
    super::shared::columns(&rows)
}
