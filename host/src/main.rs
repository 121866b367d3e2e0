//! The `parlance` binary: the process's allocator and its pages, and the library's `cli::main`, which
//! does the rest.

// Every chat and plugin call allocates and frees many short-lived buffers across threads (the
// request, the fresh plugin instance's store, the outbound call); glibc's malloc spent about a tenth
// of the server's CPU on them under a chat load.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    // mimalloc grows its heap into transparent huge pages, which the kernel zeroes 2 MiB at a time on
    // first touch: a fresh server's first burst of 2,000 streams spent a third of its first half-second
    // there, and the pages held twice the memory (VmHWM 333 MiB against 190) for no gain in CPU. So the
    // process asks for none, unless the operator set mimalloc's own `MIMALLOC_ALLOW_THP`, which then
    // decides as mimalloc documents it.
    if std::env::var_os("MIMALLOC_ALLOW_THP").is_none() {
        // Only a kernel without the call refuses it; the pages then stay as they were.
        let _ = rustix::thread::disable_transparent_huge_pages(true);
    }
    parlance::cli::main()
}
