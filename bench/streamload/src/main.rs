//! `streamload`: the streaming benchmark's harness in Rust (bench/issue28_streaming.py, HARNESS=rust),
//! so that the upstream and the load drivers, sharing one core, are not what sets the tail they measure.

mod drive;
mod paced;
mod response;
mod upstream;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(about = "The streaming benchmark's upstream and load drivers")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// bench/upstream.py `openai-stream`: prints `listening on PORT` when ready.
    Upstream(upstream::Args),
    /// issue28_streaming.py `--drive`: a JSON spec on stdin, a JSON result on stdout.
    Drive,
    /// issue28_streaming.py `--paced`: a JSON line on stdin, runs until stdin closes.
    Paced,
}

/// CLOCK_MONOTONIC in nanoseconds: the clock of Python's time.monotonic_ns(), which every process of
/// the machine shares, so a stamp written by one process can be subtracted from a read in another.
pub fn monotonic_ns() -> u64 {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::Monotonic);
    t.tv_sec as u64 * 1_000_000_000 + t.tv_nsec as u64
}

/// Thousands of connections at once: as many open files as the hard limit allows.
fn raise_nofile() {
    use rustix::process::{Resource, getrlimit, setrlimit};
    let mut limit = getrlimit(Resource::Nofile);
    limit.current = limit.maximum;
    let _ = setrlimit(Resource::Nofile, limit);
}

fn main() -> std::io::Result<()> {
    let cli = Cli::parse();
    raise_nofile();
    match cli.command {
        Command::Paced => paced::main(),
        command => {
            // One thread: the bench pins the harness to one core, and a stream's chunks are cheap.
            let rt = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
            match command {
                Command::Upstream(args) => rt.block_on(upstream::main(args)),
                _ => rt.block_on(drive::main()),
            }
        }
    }
}
