#!/usr/bin/env python3
"""Issue 45: where a provider call's time goes in the host, stage by stage, counted in instructions
under valgrind's callgrind (which this machine's noise does not move), with instances kept between a
client's calls (`[runtime] reuse_instances`, the default) and without (a fresh instance per call), the
two servers from the same release binary in the same run.

Each server runs under callgrind in front of the local OpenAI-compatible upstream (bench/upstream.py
openai) and gets CALLS provider calls (`POST /paraphrase` through `openrouter`, a new text each, one
connection, keys off, the in-process cache), counted after a warm-up. Every function's own
instructions are put in one stage by its name:

  listener and HTTP server   hyper's server side, the accept loop, sockets
  routing, extraction, JSON  axum, tower, serde, the paraphrase service and its handler
  cache                      the response cache (key, look-up, fill)
  limits                     the rate limits and the budgets
  instance                   making, linking, resetting and dropping the plugin's instance (wasmtime's
                             instance, store and pool, the store's state)
  WIT lowering and lifting   wasmtime's component calls, their fibers and trampolines
  plugin code                the plugin's own compiled code
  outbound HTTP              the plugin's request to its upstream: the outbound policy, the client
  usage and the store        the usage ledger, its spool and SQLite
  telemetry and metrics      spans, tracing, /metrics counters
  async runtime              tokio's scheduler and timers, futures' combinators
  other                      the rest

The allocator, memcpy/memset and drop glue belong to whoever called them: their instructions are
shared among their callers in proportion to what each caller spent in them (up to six levels up).
Under valgrind, which lacks the SHA extensions, the cache key's SHA-256 takes its software path, so the
cache's count is higher than what the machine runs natively. System calls are not counted by callgrind; the per-call system time is in bench/issue45_gateways.py's
CPU figures. Prints a table of instructions per call per stage, on and off, and the difference.

Then the streamed delta: each server's chat model `openai-chat` at a second upstream, bench/upstream.py
`openai-stream`, and STREAMS (30) streamed `POST /v1/chat/completions` of 10 chunks, then as many of 50
chunks, the chunks 2 ms apart, so that each arrives, and is decoded, alone. The counts of the two batches
are dumped apart (callgrind_control -d); instructions per delta = (50-chunk batch - 10-chunk batch) /
(STREAMS x 40), the cost of one more delta with everything per stream taken out.

Last, a chat turn: TURNS (400) `POST /v1/waifu` to the chat model `openai-chat`, CHAT_USERS (20) users in
turn, so that each turn reads its user's stored history (up to TURNS / CHAT_USERS exchanges) and stores
its exchange in SQLite, counted after as many turns of other users, by stage, with `parlance::chat` and
`parlance::openai` as the chat service.

Usage: bench/issue45_stages.py [BINARY]   Environment: CALLS (2000), STREAMS (30), TURNS (400),
CHAT_USERS (20), STAGES_KEEP=1 (keep callgrind's outputs).
"""

import http.client
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import Server, Upstream, build, log, machine_line, table  # noqa: E402
import issue4_paraphrase as paraphrase  # noqa: E402
import usage_instructions as counted  # noqa: E402
from issue29_openai import first_event  # noqa: E402

CALLS = int(os.environ.get("CALLS", "2000"))
STREAMS = int(os.environ.get("STREAMS", "30"))
TURNS = int(os.environ.get("TURNS", "400"))
CHAT_USERS = int(os.environ.get("CHAT_USERS", "20"))

STAGES = [
    ("plugin code", r"^\(plugin code\)$"),
    ("outbound HTTP", r"parlance::upstream|parlance::plugins::outbound|hyper_util::client|hyper::client|"
                      r"dispatch::Client|role::Client|wasmtime_wasi_http|http_client|rustls"),
    ("usage and the store", r"rusqlite|^sqlite3|^btree|^pager|^vdbe|^wal[A-Z]|^pcache|^sqlite|parlance::store|"
                            r"parlance::usage::(?!budget)|^balance_|^getPage|^sqlite|^walChecksum"),
    ("chat service", r"parlance::chat::|parlance::openai::"),
    ("limits", r"governor|parlance::ratelimit|parlance::usage::budget|parlance::fallback::breaker"),
    ("cache", r"parlance::cache|moka|sha2|quick_cache|hex::"),
    ("instance", r"wasmtime::runtime::(component::instance|instance|vm::instance|store|module|vm::component::"
                 r"ComponentInstance|vm::mmap|vm::memory|vm::table|vm::cow|instantiate|vm::vmcontext|"
                 r"vm::const_expr|type_registry|vm::gc)|cranelift_bforest|wasmtime_environ|"
                 r"parlance::plugins::(reuse|instance|sandbox::PluginState::new)|wasmtime_wasi::p2::ctx|"
                 r"WasiCtxBuilder|ResourceTable|wasmtime::runtime::(component::component|code|component::store)|"
                 r"wasmtime_internal_core|rand_core|chacha20|rand::"),
    ("WIT lowering and lifting", r"wasmtime::runtime::(component::func|func|vm::traphandlers|vm::libcalls|"
                                 r"vm::component::libcalls|fiber|component::concurrent)|wasmtime_internal_fiber|"
                                 r"parlance::plugins::bindings|wasmtime_wasi|wasmtime::runtime::vm::sys"),
    ("telemetry and metrics", r"parlance::telemetry|parlance::metrics|tracing|prometheus|opentelemetry"),
    ("listener and HTTP server", r"hyper::|hyper_util::server|parlance::http::|tokio::net|mio::|__libc_(recv|send)|"
                                 r"httparse|http::header|http::"),
    ("routing, extraction, JSON", r"axum|tower|serde|matchit|parlance::paraphrase|parlance::rest|parlance::plugins::"
                                  r"(call|host|validate)"),
    ("async runtime", r"tokio::|futures|parking_lot|std::sync|std::thread|crossbeam|event_listener|Timespec|"
                      r"clock_gettime|std::time"),
]
# Functions whose instructions are their callers': allocation, copies, drop glue, locks.
SHARED = re.compile(
    r"^(mi_|_mi_|__rust_|__rustc::|alloc::|core::ptr::drop_in_place|malloc|free|realloc|calloc|_int_|"
    r"\./string/|\./malloc/|memcpy|memmove|memset|core::fmt|alloc::fmt|<alloc::|<core::|core::|std::io::|"
    r"\./nptl/|pthread_|__memcpy|__memset|__memmove|bytes::|hashbrown|<hashbrown|<std::collections)"
)
NAME = re.compile(r"^\s*([\d,]+)\s+(?:\([^)]*\)\s+)?([<>*])?\s*(\S.*?)(?:\s+\((\d[\d,]*)x\))?(?:\s+\[[^\]]*\])?$")


def clean(name):
    name = re.sub(r"'\d+$", "", name.strip())
    return "(plugin code)" if name.startswith("???:0x") else name.removeprefix("???:")


def stage(name):
    for label, pattern in STAGES:
        if re.search(pattern, name):
            return label
    return "other"


def callers(out):
    """Exclusive instructions per function, and for each function its callers' inclusive instructions
    in it, from callgrind_annotate's caller tree."""
    text = subprocess.run(
        ["callgrind_annotate", "--tree=caller", "--inclusive=no", "--threshold=100", out],
        capture_output=True, text=True, check=True,
    ).stdout
    own, by = defaultdict(int), defaultdict(lambda: defaultdict(int))
    pending = []
    for line in text.splitlines():
        m = NAME.match(line)
        if not m or "PROGRAM TOTALS" in line:
            pending = [] if not line.strip() else pending
            continue
        cost, mark, name = int(m.group(1).replace(",", "")), m.group(2), clean(m.group(3))
        if mark == "<":
            pending.append((name, cost))
        elif mark == "*":
            own[name] += cost
            for caller, c in pending:
                by[name][caller] += c
            pending = []
    return own, by


def attribute(own, by):
    """Instructions per stage, the shared functions' own instructions given to their callers."""
    stages = defaultdict(float)

    def give(name, amount, depth):
        if SHARED.search(name) and depth < 6 and by.get(name):
            total = sum(by[name].values())
            for caller, c in by[name].items():
                if caller != name:
                    give(caller, amount * c / total, depth + 1)
            return
        stages[stage(name)] += amount

    for name, cost in own.items():
        give(name, cost, 0)
    return stages


def total(out):
    """The instructions a callgrind output file counted in all."""
    text = subprocess.run(["callgrind_annotate", "--threshold=100", out], capture_output=True, text=True, check=True).stdout
    m = re.search(r"^\s*([\d,]+)\s+(?:\([^)]*\)\s+)?PROGRAM TOTALS", text, re.M)
    return int(m.group(1).replace(",", ""))


def streams(server, chunks):
    body = {"model": "openai-chat", "stream": True,
            "messages": [{"role": "user", "content": f"Stream this. [chunks={chunks} interval=2]"}]}
    for _ in range(STREAMS):
        _first, _total, done = first_event(server.api_port, "/v1/chat/completions", body)
        if not done:
            raise SystemExit("a stream ended without [DONE]")


def per_delta(server, out):
    """Instructions per streamed delta, marginal: 50-chunk streams minus 10-chunk ones."""
    pid = str(server.pid)
    streams(server, 10)  # warm
    dumps = []
    for chunks in (10, 50):
        subprocess.run(["callgrind_control", "-z", pid], check=True, stdout=subprocess.DEVNULL)
        subprocess.run(["callgrind_control", "-i", "on", pid], check=True, stdout=subprocess.DEVNULL)
        streams(server, chunks)
        subprocess.run(["callgrind_control", "-i", "off", pid], check=True, stdout=subprocess.DEVNULL)
        before = set(os.listdir(os.path.dirname(out)))
        subprocess.run(["callgrind_control", "-d", f"streams{chunks}", pid], check=True, stdout=subprocess.DEVNULL)
        new = sorted(set(os.listdir(os.path.dirname(out))) - before)
        dumps.append(os.path.join(os.path.dirname(out), new[-1]))
    counts = [total(d) for d in dumps]
    # Where a delta's instructions go: each stage's count over the 50-delta streams minus over the 10.
    ten, fifty = (attribute(*callers(d)) for d in dumps)
    stages = {label: (fifty.get(label, 0) - ten.get(label, 0)) / (STREAMS * 40) for label in set(ten) | set(fifty)}
    return (counts[1] - counts[0]) / (STREAMS * 40), counts, stages


def turns(server, tag):
    """TURNS chat turns (`POST /v1/waifu`): CHAT_USERS users in turn, so that each turn reads a stored
    history and stores its exchange, as a returning user's does."""
    c = http.client.HTTPConnection("127.0.0.1", server.api_port, timeout=600)
    for i in range(TURNS):
        body = json.dumps({"user_id": f"{tag}-{i % CHAT_USERS}", "message": f"Turn {i}: how was your day?"})
        c.request("POST", "/v1/waifu", body, {"content-type": "application/json"})
        r = c.getresponse()
        data = r.read()
        if r.status != 200:
            raise SystemExit(f"{r.status}: {data[:300]!r}")


def per_turn(server, out):
    """Instructions per chat turn, by stage, over TURNS turns after as many to warm up."""
    pid = str(server.pid)
    turns(server, "warm")
    subprocess.run(["callgrind_control", "-z", pid], check=True, stdout=subprocess.DEVNULL)
    subprocess.run(["callgrind_control", "-i", "on", pid], check=True, stdout=subprocess.DEVNULL)
    turns(server, "counted")
    subprocess.run(["callgrind_control", "-i", "off", pid], check=True, stdout=subprocess.DEVNULL)
    before = set(os.listdir(os.path.dirname(out)))
    subprocess.run(["callgrind_control", "-d", "turns", pid], check=True, stdout=subprocess.DEVNULL)
    dump = os.path.join(os.path.dirname(out), sorted(set(os.listdir(os.path.dirname(out))) - before)[-1])
    return {label: n / TURNS for label, n in attribute(*callers(dump)).items()}


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else build()
    upstream = Upstream("openai", delay_ms=0)
    streaming = Upstream("openai-stream", delay_ms=0)
    scratch = tempfile.mkdtemp(prefix="parlance-stages-")
    components = os.path.join(scratch, "components")
    servers = {}
    try:
        subprocess.run([binary, "plugins", "list"], env={**os.environ, "PARLANCE_CACHE_DIR": components}, capture_output=True)
        for mode in ("kept", "fresh"):
            out = os.path.join(scratch, mode)
            valgrind = ["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={out}"]
            env = {"PARLANCE_REUSE_INSTANCES": "true" if mode == "kept" else "false", **paraphrase.openai_env(upstream),
                   "PARLANCE_PLUGIN_OPENAI_CHAT_BASE_URL": f"http://127.0.0.1:{streaming.port}/v1"}
            config = counted.CONFIG + '[chat]\nmodel = "openai-chat"\n'
            servers[mode] = Server(env=env, config_text=config, cache_dir=components, binary=binary,
                                   timeout=900, prefix=valgrind)
        for mode, server in servers.items():
            counted.calls(server.api_port, 200, f"warm-{mode}")
        for server in servers.values():
            subprocess.run(["callgrind_control", "-i", "on", str(server.pid)], check=True, stdout=subprocess.DEVNULL)
        log(f"{CALLS} calls to each server under callgrind")
        for mode, server in servers.items():
            counted.calls(server.api_port, CALLS, mode)
        for server in servers.values():
            subprocess.run(["callgrind_control", "-i", "off", str(server.pid)], check=True, stdout=subprocess.DEVNULL)
        # The calls' counts, dumped before the streams are counted apart.
        for mode, server in servers.items():
            subprocess.run(["callgrind_control", "-d", "calls", str(server.pid)], check=True, stdout=subprocess.DEVNULL)
        dumped = {mode: sorted(f for f in os.listdir(scratch) if f.startswith(mode + "."))[0] for mode in servers}
        log(f"{STREAMS} streams of 10 and of 50 deltas to each server under callgrind")
        deltas = {mode: per_delta(server, os.path.join(scratch, mode)) for mode, server in servers.items()}
        log(f"{TURNS} chat turns to each server under callgrind")
        chats = {mode: per_turn(server, os.path.join(scratch, mode)) for mode, server in servers.items()}
        for server in servers.values():
            server.stop()
        stages = {mode: attribute(*callers(os.path.join(scratch, dumped[mode]))) for mode in servers}
    finally:
        for server in servers.values():
            server.stop()
        upstream.stop()
        streaming.stop()
        if os.environ.get("STAGES_KEEP"):
            log(f"callgrind's outputs kept in {scratch}")
        else:
            shutil.rmtree(scratch, ignore_errors=True)
    print(machine_line())
    print(f"instructions per provider call by stage ({CALLS} calls of POST /paraphrase through openrouter, one "
          f"connection, each server's GET /usage at the end included)")
    labels = [label for label, _ in STAGES] + ["other"]
    rows = []
    for label in sorted(labels, key=lambda lb: -stages["fresh"].get(lb, 0)):
        fresh, kept = stages["fresh"].get(label, 0) / CALLS, stages["kept"].get(label, 0) / CALLS
        rows.append([label, f"{fresh:,.0f}", f"{kept:,.0f}", f"{kept - fresh:+,.0f}"])
    fresh, kept = (sum(stages[m].values()) / CALLS for m in ("fresh", "kept"))
    rows.append(["in all", f"{fresh:,.0f}", f"{kept:,.0f}", f"{kept - fresh:+,.0f} ({(kept - fresh) / fresh:+.0%})"])
    table(rows, ["stage", "fresh instance", "kept instance", "kept - fresh"])
    print()
    print(f"instructions per streamed delta (marginal: {STREAMS} streams of 50 deltas minus {STREAMS} of 10, "
          f"chunks 2 ms apart, each decoded alone)")
    for mode in ("fresh", "kept"):
        d, (ten, fifty), _ = deltas[mode]
        print(f"  {mode:<6} {d:,.0f} per delta  (batches: {ten:,} and {fifty:,} instructions)")
    print(f"  kept / fresh: {deltas['kept'][0] / deltas['fresh'][0]:.2f}")
    print()
    print("instructions per streamed delta by stage (marginal, as above)")
    rows = [[label, f"{deltas['fresh'][2].get(label, 0):,.0f}", f"{deltas['kept'][2].get(label, 0):,.0f}"]
            for label in sorted(labels, key=lambda lb: -deltas["kept"][2].get(lb, 0))]
    table(rows, ["stage", "fresh instance", "kept instance"])
    print()
    print(f"instructions per chat turn by stage (POST /v1/waifu through openai-chat, {TURNS} turns of "
          f"{CHAT_USERS} users in turn, each reading its stored history and storing its exchange)")
    rows = [[label, f"{chats['fresh'].get(label, 0):,.0f}", f"{chats['kept'].get(label, 0):,.0f}"]
            for label in sorted(labels, key=lambda lb: -chats["kept"].get(lb, 0))]
    rows.append(["in all", f"{sum(chats['fresh'].values()):,.0f}", f"{sum(chats['kept'].values()):,.0f}"])
    table(rows, ["stage", "fresh instance", "kept instance"])


if __name__ == "__main__":
    main()
