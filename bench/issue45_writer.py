#!/usr/bin/env python3
"""Issue 45: a chat turn's CPU by thread, at one connection, for this build and a baseline build.

wrk sends `POST /v1/waifu` (the `form` chat model at a local endpoint answering at once, bench/upstream.py
form) on one keep-alive connection for DURATION seconds, each message as one of 200 users, so that every
chat is its own commit and the store's write-ahead log passes its 16 MiB bound several times a round.
The server's CPU per chat is split by thread name from each thread's schedstat: the async runtime's
workers (`tokio-rt-worker`: HTTP, the plugin, the upstream call) and the SQLite writer
(`parlance-writer`: the commit), which is where a change to the store's write path shows. Builds
alternate round by round; medians of ROUNDS rounds, and each build's figures as a ratio of the
baseline's.

Environment: ROUNDS (5), DURATION (5), BASE_BINARY (required), PARLANCE_BIN (default: the release build).
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import (  # noqa: E402
    BINARY, Server, Upstream, log, loadavg, machine_line, median, pin_processes, placement_line, table, wrk,
)

ROUNDS = int(os.environ.get("ROUNDS", "5"))
DURATION = int(os.environ.get("DURATION", "5"))
MESSAGE = "Hello there, how are you doing today?"
THREADS = ("tokio-rt-worker", "parlance-writer")


def chat_lua(prefix):
    return f"""
local counter = 0
function request()
  counter = counter + 1
  local body = string.format('{{"user_id": "{prefix}-u%d", "message": "{MESSAGE}"}}', counter % 200)
  return wrk.format("POST", "/v1/waifu", {{["content-type"] = "application/json"}}, body)
end
"""


def thread_cpu_ns(pid):
    """CPU nanoseconds so far of each thread name of the process (threads of one name summed)."""
    out = {}
    tasks = f"/proc/{pid}/task"
    for tid in os.listdir(tasks):
        try:
            with open(f"{tasks}/{tid}/comm") as f:
                name = f.read().strip()
            with open(f"{tasks}/{tid}/schedstat") as f:
                ns = int(f.read().split()[0])
        except OSError:
            continue  # the thread ended between the listing and the read
        out[name] = out.get(name, 0) + ns
    return out


def one_round(server, prefix):
    before = thread_cpu_ns(server.pid)
    r = wrk(server.chat_port, "/v1/waifu", chat_lua(prefix), 1, 1, DURATION, pids=[server.pid])
    after = thread_cpu_ns(server.pid)
    if r["errors"] or r["fallbacks"]:
        log(f"WARNING {r['errors']} errors, {r['fallbacks']} fallback replies in {r['requests']} requests")
    n = r["requests"]
    per = {name: (after.get(name, 0) - before.get(name, 0)) / 1e3 / n for name in THREADS}
    per["all"] = r["cpu_seconds"][0] / n * 1e6
    per["p50"] = r["p50_us"]
    return per


def main():
    base_binary = os.environ.get("BASE_BINARY") or sys.exit("BASE_BINARY (the baseline build) is required")
    binary = os.environ.get("PARLANCE_BIN", BINARY)
    pin_processes()
    print(machine_line())
    print(placement_line())
    model = Upstream("form")
    env = {"MODEL_URL": f"http://127.0.0.1:{model.port}/path/"}
    servers = {"this build": Server(env=env, binary=binary), "baseline": Server(env=env, binary=base_binary)}
    results = {name: [] for name in servers}
    try:
        for name, server in servers.items():
            one_round(server, f"warm-{name[0]}")
        for rnd in range(ROUNDS):
            for name, server in servers.items():
                log(f"round {rnd + 1}/{ROUNDS} {name}, load {loadavg()}")
                results[name].append(one_round(server, f"r{rnd}-{name[0]}"))
    finally:
        for server in servers.values():
            server.stop()
        model.stop()

    print(f"POST /v1/waifu at 1 connection, {DURATION} s rounds, {ROUNDS} rounds alternating, medians; "
          "CPU per chat by thread")
    keys = ["all", *THREADS, "p50"]
    med = {name: {k: median([r[k] for r in rs]) for k in keys} for name, rs in results.items()}
    rows = []
    for name in servers:
        row = [name] + [f"{med[name][k]:.1f} us" for k in keys]
        rows.append(row)
    rows.append(["ratio"] + [f"{med['this build'][k] / med['baseline'][k]:.3f}" for k in keys])
    table(rows, ["build", "CPU all", "workers", "writer", "p50"])


if __name__ == "__main__":
    main()
