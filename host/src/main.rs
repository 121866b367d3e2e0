//! The `parlance` binary: parse the command line, load the configuration, set up logging, run; and the
//! process's allocator.

use clap::Parser;
use parlance::Config;
use parlance::cli::{self, Cli};
use std::process::ExitCode;

// Every chat and plugin call allocates and frees many short-lived buffers across threads (the
// request, the fresh plugin instance's store, the outbound call); glibc's malloc spent about a tenth
// of the server's CPU on them under a chat load.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Some(outcome) = cli::reload_command(&cli) {
        return match outcome {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {e:#}");
                ExitCode::FAILURE
            }
        };
    }
    let config = match Config::load(cli.config_file()) {
        Ok(config) => config,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    parlance::telemetry::init(&config.logging.level, &config.telemetry, cli.verbose);
    config.warn_deprecated();
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("error: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let outcome = runtime.block_on(cli::run(cli, config));
    parlance::telemetry::shutdown();
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(cli::exit_code(&e))
        }
    }
}
