#!/usr/bin/env python3
"""Issue 15 benchmarks: the write-ahead log under saturated chats, normal requests beside 3,000 slow
connections, and what API keys cost a cached paraphrase.

  1. wal: 64 connections chat as fast as they can (`POST /v1/waifu`, the `form` chat model at a local
     endpoint that answers at once) for WAL_SECONDS (60), against this build and against the build
     before the issue (BASE_BINARY, else BASE_REV built into $CARGO_TARGET_DIR/bench-base). The size
     of `dialogs.db-wal` is sampled every 100 ms during the load and for 5 s after it. Printed: chats
     per second, the log's peak, its size when the load stops and 5 s later, the database's size, and
     whether every acknowledged chat is in the store (entries >= 2 x the 200 answers: chats still in
     flight when wrk stops are stored without being counted as answered).
  2. slow: cached `POST /paraphrase` at 16 connections with no other client, and with SLOW (3000) slow
     connections held open on the same port by another process: a third idle, a third sending a
     header byte every 2 s (slowloris), a third stalled after part of a declared body. The server
     drops them after its timeouts and the holder opens them again, so the count stays near SLOW.
     Rounds alternate. Printed: p50, p99 and req/s with none and with them, and how many were held.
  3. keys: cached `POST /paraphrase` at 64 connections on a server with `api_keys = "required"` (a
     Bearer key on every request) and on one without, alternating. Target: req/s within 5 %.

Environment: PARTS (wal,slow,keys), ROUNDS (3), DURATION (5), WAL_SECONDS (60), SLOW (3000),
BASE_BINARY, BASE_REV (7e23b85), BENCH_NO_BUILD=1, CARGO_TARGET_DIR.
"""

import json
import os
import resource
import socket
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import (  # noqa: E402
    BINARY,
    REPO,
    TARGET_DIR,
    Server,
    SizeSampler,
    Upstream,
    build,
    file_size,
    log,
    loadavg,
    lua_request,
    machine_line,
    median,
    pin_processes,
    pinned,
    placement_line,
    request_json,
    table,
    verdict,
    wrk,
)
import common  # noqa: E402

PARTS = os.environ.get("PARTS", "wal,slow,keys").split(",")
ROUNDS = int(os.environ.get("ROUNDS", "3"))
DURATION = int(os.environ.get("DURATION", "5"))
WAL_SECONDS = int(os.environ.get("WAL_SECONDS", "60"))
SLOW = int(os.environ.get("SLOW", "3000"))
BASE_REV = os.environ.get("BASE_REV", "7e23b85")
TEXT = "The weather is nice today and the children are playing outside."
MIB = 1024 * 1024


def us(x):
    return f"{x:.0f} us" if x < 10_000 else f"{x / 1000:.1f} ms"


# --- the baseline build -------------------------------------------------------------------------------


def base_binary():
    """The build before the issue: BASE_BINARY, else BASE_REV checked out beside the repository and built
    with its own target directory (the first run takes as long as a release build)."""
    if os.environ.get("BASE_BINARY"):
        return os.environ["BASE_BINARY"]
    tree = os.path.join(TARGET_DIR, "bench-base", BASE_REV)
    target = os.path.join(TARGET_DIR, "bench-base", "target")
    binary = os.path.join(target, "release", "parlance")
    if not os.path.isdir(tree):
        log(f"checking out {BASE_REV} into {tree}")
        subprocess.run(["git", "worktree", "add", "--detach", tree, BASE_REV], cwd=REPO, check=True)
    if not os.path.exists(binary) or os.environ.get("BENCH_NO_BUILD") != "1":
        log(f"cargo build --release -p parlance at {BASE_REV} (target dir {target})")
        subprocess.run(
            ["cargo", "build", "--quiet", "--release", "-p", "parlance"],
            cwd=tree,
            check=True,
            env={**os.environ, "CARGO_TARGET_DIR": target},
        )
    return binary


# --- 1. the write-ahead log ---------------------------------------------------------------------------


def chat_lua():
    return f"""
local counter = 0
function request()
  counter = counter + 1
  local body = string.format('{{"user_id": "t%d-u%d", "message": "Hello there, how are you doing today?"}}', tid or 0, counter % 2000)
  return wrk.format("POST", "/v1/waifu", {{["content-type"] = "application/json"}}, body)
end
"""


def stored_entries(database):
    """Dialog entries in the store, read from its file (the same schema before and after the issue)."""
    import sqlite3

    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
        return db.execute("SELECT count(*) FROM dialog_entries").fetchone()[0]


def wal_run(binary, label, model):
    server = Server(binary=binary, env={"MODEL_URL": f"http://127.0.0.1:{model.port}/path/"})
    wal = server.env["DATABASE_FILE"] + "-wal"
    sampler = SizeSampler(wal)
    try:
        log(f"wal {label}: {WAL_SECONDS} s of saturated chats, load {loadavg()}")
        sampler.start()
        r = wrk(server.chat_port, "/v1/waifu", chat_lua(), 64, 2, WAL_SECONDS, pids=[server.pid])
        ended = time.perf_counter()
        at_end = file_size(wal)
        time.sleep(5)
        sampler.stop()
        after = file_size(wal)
        ok = r["requests"] - r["non_2xx"] - r["timeouts"] - r["read_errors"]
        entries = stored_entries(server.env["DATABASE_FILE"])
        return {
            "label": label,
            "rps": r["rps"],
            "peak": sampler.peak(),
            "peak_during": sampler.peak(ended),
            "at_end": at_end,
            "after": after,
            "db": file_size(server.env["DATABASE_FILE"]),
            "acknowledged": ok,
            "entries": entries,
            "errors": r["errors"],
        }
    finally:
        sampler.stop()
        server.stop()


def wal_part():
    base = base_binary()
    model = Upstream("form")
    try:
        runs = [wal_run(base, f"before ({BASE_REV})", model), wal_run(BINARY, "this build", model)]
    finally:
        model.stop()
    print(f"\n1. {WAL_SECONDS} s of saturated chats at 64 connections (load average {loadavg()})")
    rows = []
    for r in runs:
        rows.append(
            [
                r["label"],
                f"{r['rps']:.0f}",
                f"{r['peak'] / MIB:.1f} MiB",
                f"{r['at_end'] / MIB:.1f} MiB",
                f"{r['after'] / MIB:.1f} MiB",
                f"{r['db'] / MIB:.1f} MiB",
                f"{r['entries']} / {2 * r['acknowledged']}",
            ]
        )
    table(rows, ["build", "chats/s", "WAL peak", "WAL at end", "WAL 5 s later", "database", "entries / 2 x acknowledged"])
    before, now = runs
    print(f"throughput this build / before: {now['rps'] / before['rps']:.2f}")
    print(f"WAL peak under 64 MiB: {verdict(now['peak'] < 64 * MIB)}")
    print(f"every acknowledged chat stored: {verdict(now['entries'] >= 2 * now['acknowledged'])}")


# --- 2. slow connections --------------------------------------------------------------------------------

HOLDER = r"""
import os, resource, selectors, socket, sys, time
port, n = int(sys.argv[1]), int(sys.argv[2])
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
sel = selectors.DefaultSelector()
conns = {}  # socket -> (kind, opened)
reopened = 0

def open_one(kind):
    s = socket.socket()
    s.setblocking(False)
    try:
        s.connect(("127.0.0.1", port))
    except BlockingIOError:
        pass
    except OSError:
        s.close()
        return
    sel.register(s, selectors.EVENT_READ | selectors.EVENT_WRITE, kind)
    conns[s] = [kind, False]

def drop(s):
    sel.unregister(s)
    s.close()
    kind = conns.pop(s)[0]
    return kind

for i in range(n):
    open_one(("idle", "loris", "body")[i % 3])
last_drip, last_report = time.monotonic(), time.monotonic()
while True:
    for key, events in sel.select(0.2):
        s, kind = key.fileobj, key.data
        if events & selectors.EVENT_READ:
            try:
                data = s.recv(4096)
            except OSError:
                data = b""
            if not data:
                open_one(drop(s)); reopened += 1
                continue
        if events & selectors.EVENT_WRITE and not conns[s][1]:
            conns[s][1] = True
            sel.modify(s, selectors.EVENT_READ, kind)
            try:
                if kind == "loris":
                    s.send(b"GET /health HTTP/1.1\r\nHost: x\r\n")
                elif kind == "body":
                    s.send(b"POST /paraphrase HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{\"text\": \"")
            except OSError:
                pass
    now = time.monotonic()
    if now - last_drip > 2:
        last_drip = now
        for s, (kind, sent) in list(conns.items()):
            if kind == "loris" and sent:
                try:
                    s.send(b"x")
                except OSError:
                    pass
    if now - last_report > 1:
        last_report = now
        print(f"HELD {len(conns)} {reopened}", flush=True)
"""


class Holder:
    """SLOW slow connections to `port`, kept up in a process of their own."""

    def __init__(self, port, n):
        self.proc = subprocess.Popen(
            pinned([sys.executable, "-c", HOLDER, str(port), str(n)], common.CLIENT_CPUS),
            stdout=subprocess.PIPE,
            text=True,
        )
        self.held, self.reopened = 0, 0
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for line in self.proc.stdout:
            if line.startswith("HELD "):
                _, held, reopened = line.split()
                self.held, self.reopened = int(held), int(reopened)

    def stop(self):
        self.proc.kill()
        self.proc.wait()


def paraphrase_lua(headers=None):
    return lua_request("POST", {"text": TEXT}, {"content-type": "application/json", **(headers or {})})


def server_connections(pid):
    return len([f for f in os.listdir(f"/proc/{pid}/fd") if os.readlink(f"/proc/{pid}/fd/{f}").startswith("socket:")])


def slow_part():
    server = Server()
    try:
        request_json(server.api_port, "POST", "/paraphrase", {"text": TEXT})
        quiet, held, counts = [], [], []
        for rnd in range(ROUNDS):
            log(f"slow round {rnd + 1}/{ROUNDS}: no slow connections, load {loadavg()}")
            quiet.append(wrk(server.api_port, "/paraphrase", paraphrase_lua(), 16, 2, DURATION, pids=[server.pid]))
            holder = Holder(server.api_port, SLOW)
            try:
                deadline = time.time() + 60
                while holder.held < SLOW * 0.95 and time.time() < deadline:
                    time.sleep(0.5)
                time.sleep(1)
                log(f"slow round {rnd + 1}/{ROUNDS}: {holder.held} slow connections held, load {loadavg()}")
                r = wrk(server.api_port, "/paraphrase", paraphrase_lua(), 16, 2, DURATION, pids=[server.pid])
                r["held"], r["server_sockets"] = holder.held, server_connections(server.pid)
                held.append(r)
            finally:
                holder.stop()
            time.sleep(1)
    finally:
        server.stop()
    print(f"\n2. Cached POST /paraphrase at 16 connections, beside {SLOW} slow connections (load average {loadavg()})")
    rows = []
    for label, runs in (("none", quiet), (f"{SLOW} held", held)):
        rows.append(
            [
                label,
                us(median([r["p50_us"] for r in runs])),
                us(median([r["p99_us"] for r in runs])),
                f"{median([r['rps'] for r in runs]):.0f}",
                str(sum(r["errors"] for r in runs)),
                str(median([r.get("server_sockets", 0) for r in runs])) if label != "none" else "-",
            ]
        )
    table(rows, ["slow connections", "p50", "p99", "req/s", "errors", "server sockets"])
    ok = all(r["errors"] == 0 for r in held)
    print(f"normal requests served without errors beside the slow ones: {verdict(ok)}")


# --- 3. API keys -------------------------------------------------------------------------------------------


def keys_part():
    scratch_db = os.path.join(TARGET_DIR, "bench-keys.db")
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(scratch_db + suffix):
            os.unlink(scratch_db + suffix)
    # The server creates the store; `parlance keys` only writes to one that exists.
    off = Server(env={"DATABASE_FILE": scratch_db})
    try:
        created = subprocess.run(
            [BINARY, "keys", "create", "--name", "bench", "--json"],
            env={"PATH": os.environ.get("PATH", ""), "HOME": os.environ.get("HOME", "/tmp"), "DATABASE_FILE": scratch_db},
            capture_output=True,
            text=True,
            check=True,
        )
    except BaseException:
        off.stop()
        raise
    key = json.loads(created.stdout)["key"]
    on = Server(env={"DATABASE_FILE": scratch_db, "PARLANCE_API_KEYS": "required"})
    bearer = {"authorization": f"Bearer {key}"}
    try:
        request_json(off.api_port, "POST", "/paraphrase", {"text": TEXT})
        request_json(on.api_port, "POST", "/paraphrase", {"text": TEXT}, headers=bearer)
        request_json(on.api_port, "POST", "/paraphrase", {"text": TEXT}, expect=401)
        with_keys, without = [], []
        for rnd in range(ROUNDS):
            log(f"keys round {rnd + 1}/{ROUNDS}, load {loadavg()}")
            without.append(wrk(off.api_port, "/paraphrase", paraphrase_lua(), 64, 2, DURATION, pids=[off.pid]))
            with_keys.append(wrk(on.api_port, "/paraphrase", paraphrase_lua(bearer), 64, 2, DURATION, pids=[on.pid]))
    finally:
        off.stop()
        on.stop()
    print(f"\n3. Cached POST /paraphrase at 64 connections, API keys off and required (load average {loadavg()})")
    rows = []
    for label, runs in (("keys off", without), ("keys required", with_keys)):
        cpu = median([r["cpu_seconds"][0] / r["requests"] * 1e6 for r in runs])
        rows.append(
            [
                label,
                f"{median([r['rps'] for r in runs]):.0f}",
                us(median([r["p50_us"] for r in runs])),
                us(median([r["p99_us"] for r in runs])),
                f"{cpu:.1f} us",
                str(sum(r["errors"] for r in runs)),
            ]
        )
    table(rows, ["", "req/s", "p50", "p99", "server CPU/request", "errors"])
    ratio = median([r["rps"] for r in with_keys]) / median([r["rps"] for r in without])
    print(f"req/s keys required / off: {ratio:.3f} (target >= 0.95: {verdict(ratio >= 0.95)})")


def main():
    build()
    pin_processes()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    print(machine_line())
    print(placement_line())
    if "keys" in PARTS:
        keys_part()
    if "slow" in PARTS:
        slow_part()
    if "wal" in PARTS:
        wal_part()


if __name__ == "__main__":
    main()
