#!/usr/bin/env python3
"""Two builds of parlance side by side on the provider path: `POST /paraphrase` through `openrouter` to one
local OpenAI-compatible upstream answering at once (bench/upstream.py openai), every request a new text
(a cache miss that reaches the provider), the builds alternating for ROUNDS rounds of DURATION seconds.

Per build it prints the medians over rounds of:
  - the host overhead at 1 connection: p50 and p99 of the build minus the p50 of the same
    chat-completions request sent to the upstream directly, measured in the same round;
  - server CPU per call at 1 connection and at 64 connections, and requests/s at 64 connections.
So a change to the provider path (the plugin boundary, outbound HTTP) is judged against the build before
it in the same run, as bench/chat_ab.py does for chats.

Usage: bench/provider_ab.py OLD_BINARY NEW_BINARY   (build the old one from an earlier commit first)
Environment: ROUNDS (4), DURATION (5).
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import (  # noqa: E402
    Server,
    Upstream,
    log,
    lua_request,
    median,
    pin_processes,
    placement_line,
    request_json,
    wrk,
)
import issue4_paraphrase as paraphrase  # noqa: E402

ROUNDS = int(os.environ.get("ROUNDS", "4"))
DURATION = int(os.environ.get("DURATION", "5"))


def check(r, what):
    if r["errors"]:
        raise SystemExit(f"{what}: {r['errors']} errors or non-2xx answers in {r['requests']} requests")


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    pin_processes()
    print(placement_line())
    upstream = Upstream("openai", delay_ms=0)
    env = paraphrase.openai_env(upstream)
    builds = {"old": sys.argv[1], "new": sys.argv[2]}
    servers = {}
    direct = []
    runs = {(b, c): [] for b in builds for c in (1, 64)}
    lua_direct = lua_request("POST", paraphrase.DIRECT_BODY, {"content-type": "application/json", "authorization": "Bearer bench-key"})
    try:
        for name, binary in builds.items():
            servers[name] = Server(env=env, binary=binary)
            r = request_json(servers[name].api_port, "POST", "/paraphrase", {"text": f"warm-up {name}", "provider": "openrouter"})
            assert not r["cached"] and r["provider"] == "openrouter", r
        for rnd in range(ROUNDS):
            r = wrk(upstream.port, "/v1/chat/completions", lua_direct, 1, 1, DURATION, pids=[upstream.proc.pid])
            check(r, "upstream direct")
            direct.append(r["p50_us"])
            order = list(servers.items()) if rnd % 2 == 0 else list(reversed(servers.items()))
            for name, server in order:
                for conns, threads in ((1, 1), (64, 2)):
                    lua = f'round_id = "{name}-{conns}-{rnd}"\n' + paraphrase.MISS_LUA
                    r = wrk(server.api_port, "/paraphrase", lua, conns, threads, DURATION, pids=[server.pid])
                    check(r, f"{name} {conns} conn")
                    r["direct_p50_us"] = direct[-1]
                    runs[(name, conns)].append(r)
                    log(f"round {rnd + 1}/{ROUNDS} {name} {conns} conn: p50 {r['p50_us']:.0f} us, {r['rps']:.0f} req/s")
    finally:
        for server in servers.values():
            server.stop()
        upstream.stop()
    print(f"upstream direct, 1 conn: p50 {median(direct):.0f} us")
    print(f"{'build':5} {'overhead p50 us':>16} {'overhead p99 us':>16} {'CPU us/call 1 conn':>19} "
          f"{'CPU us/call 64 conn':>20} {'req/s 64 conn':>14}")
    figures = {}
    for name in builds:
        one, many = runs[(name, 1)], runs[(name, 64)]
        cpu = lambda rs: median([r["cpu_seconds"][0] / r["requests"] * 1e6 for r in rs])  # noqa: E731
        figures[name] = (
            median([r["p50_us"] - r["direct_p50_us"] for r in one]),
            median([r["p99_us"] - r["direct_p50_us"] for r in one]),
            cpu(one),
            cpu(many),
            median([r["rps"] for r in many]),
        )
        f = figures[name]
        print(f"{name:5} {f[0]:16.0f} {f[1]:16.0f} {f[2]:19.0f} {f[3]:20.0f} {f[4]:14.0f}")
    old, new = figures["old"], figures["new"]
    print(f"ratio new/old: overhead p50 {new[0] / old[0]:.2f}, p99 {new[1] / old[1]:.2f}, "
          f"CPU 1 conn {new[2] / old[2]:.2f}, 64 conn {new[3] / old[3]:.2f}, req/s {new[4] / old[4]:.2f}")


if __name__ == "__main__":
    main()
