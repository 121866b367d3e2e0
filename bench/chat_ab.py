#!/usr/bin/env python3
"""Two builds of parlance side by side on the chat path: `POST /v1/waifu` against one local model
endpoint (bench/upstream.py form), alternating the builds for ROUNDS rounds of DURATION seconds, at 1
connection and at 64 clients thinking PACE_MS on average between messages (as in bench/issue3_chat.py).
Prints the medians of p50, p99, server CPU per chat and throughput per build, so a change to the chat
path is judged against the build before it in the same run.

Usage: bench/chat_ab.py OLD_BINARY NEW_BINARY   (build the old one from an earlier commit first)
Environment: ROUNDS (4), DURATION (6), PACE_MS (100).
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import Server, Upstream, log, median, pin_processes, placement_line, wrk  # noqa: E402
import issue3_chat as chat  # noqa: E402

ROUNDS = int(os.environ.get("ROUNDS", "4"))
DURATION = int(os.environ.get("DURATION", "6"))
MODES = [("1 conn", 1, 1, chat.unpaced), ("64 clients thinking", 64, 2, chat.thinking)]


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    pin_processes()
    print(placement_line())
    model = Upstream("form")
    env = {"MODEL_URL": f"http://127.0.0.1:{model.port}/path/"}
    builds = {"old": sys.argv[1], "new": sys.argv[2]}
    servers = {}
    results = {(b, m[0]): [] for b in builds for m in MODES}
    try:
        for name, binary in builds.items():
            servers[name] = Server(env=env, binary=binary)
        for rnd in range(ROUNDS):
            for name, server in servers.items():
                for label, conns, threads, shape in MODES:
                    lua = shape(chat.waifu_lua(f"{name}-{conns}-{rnd}"))
                    r = wrk(server.chat_port, "/v1/waifu", lua, conns, threads, DURATION, pids=[server.pid])
                    chat.check(r, f"{name} {label}")
                    results[(name, label)].append(r)
                    log(f"round {rnd + 1}/{ROUNDS} {name} {label}: p50 {r['p50_us']:.0f} us")
    finally:
        for server in servers.values():
            server.stop()
        model.stop()
    print(f"{'build':5} {'load':20} {'p50 us':>8} {'p99 us':>8} {'CPU us/chat':>12} {'req/s':>7}")
    for (name, label), runs in results.items():
        cpu = median([r["cpu_seconds"][0] / r["requests"] * 1e6 for r in runs])
        print(f"{name:5} {label:20} {median([r['p50_us'] for r in runs]):8.0f} "
              f"{median([r['p99_us'] for r in runs]):8.0f} {cpu:12.0f} {median([r['rps'] for r in runs]):7.0f}")


if __name__ == "__main__":
    main()
