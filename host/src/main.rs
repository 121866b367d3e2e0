//! The `parlance` binary: the process's allocator, and the library's `cli::main`, which does the rest.

// Every chat and plugin call allocates and frees many short-lived buffers across threads (the
// request, the fresh plugin instance's store, the outbound call); glibc's malloc spent about a tenth
// of the server's CPU on them under a chat load.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    parlance::cli::main()
}
