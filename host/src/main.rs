//! The `parlance` binary: parse the command line, load the configuration, set up logging, run.

use clap::Parser;
use parlance::cli::{self, Cli};
use parlance::config::Config;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let config = match Config::load(cli.config_file()) {
        Ok(config) => config,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    parlance::telemetry::init(&config.log_level, cli.verbose);
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("error: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(cli::run(cli, config)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
