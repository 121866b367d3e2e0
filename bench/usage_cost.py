#!/usr/bin/env python3
"""The cost of usage accounting (issue 40): one binary run twice side by side, with the ledger on (the
default: every settled call metered, priced, appended to the server's spool before its answer and
written to the store's ledger in batches behind the answers) and off (`PARLANCE_USAGE_RECORD=false`: counted in /metrics only), on
  - a provider call: `POST /paraphrase` through `openrouter` to a local OpenAI-compatible upstream
    answering at once (bench/upstream.py openai), every request a new text (a cache miss);
  - a cached call: the same text every time (no plugin call, nothing recorded).
The two servers alternate for ROUNDS rounds of DURATION seconds; per server it prints the medians over
rounds of p50 latency and server CPU per request at 1 connection and requests/s at 64 connections, and
the difference on minus off (the target: at most 5 us of CPU per request and of p50).

Usage: bench/usage_cost.py [BINARY]   Environment: ROUNDS (4), DURATION (5).
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import Server, Upstream, build, log, machine_line, median, pin_processes, placement_line, request_json, verdict, wrk  # noqa: E402
import issue4_paraphrase as paraphrase  # noqa: E402

ROUNDS = int(os.environ.get("ROUNDS", "4"))
DURATION = int(os.environ.get("DURATION", "5"))

HIT_LUA = """
function request()
  return wrk.format("POST", "/paraphrase", {["content-type"] = "application/json"},
    '{"text": "The quick brown fox jumps over the lazy dog.", "provider": "openrouter"}')
end
"""


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else build()
    pin_processes()
    print(placement_line())
    upstream = Upstream("openai", delay_ms=0)
    env = paraphrase.openai_env(upstream)
    servers = {}
    runs = {(s, path, c): [] for s in ("on", "off") for path in ("provider", "cached") for c in (1, 64)}
    try:
        servers["on"] = Server(env=env, binary=binary)
        servers["off"] = Server(env={**env, "PARLANCE_USAGE_RECORD": "false"}, binary=binary)
        for name, server in servers.items():
            r = request_json(server.api_port, "POST", "/paraphrase", {"text": f"warm-up {name}", "provider": "openrouter"})
            assert not r["cached"] and r["provider"] == "openrouter", r
            request_json(server.api_port, "POST", "/paraphrase", {"text": "The quick brown fox jumps over the lazy dog.", "provider": "openrouter"})
        for rnd in range(ROUNDS):
            order = list(servers.items()) if rnd % 2 == 0 else list(reversed(servers.items()))
            for name, server in order:
                for path, lua in (("provider", f'round_id = "{name}-{rnd}"\n' + paraphrase.MISS_LUA), ("cached", HIT_LUA)):
                    for conns, threads in ((1, 1), (64, 2)):
                        # Each run's CPU includes committing its records: `GET /usage` waits for them.
                        settle = lambda port=server.api_port: request_json(port, "GET", "/usage")  # noqa: E731
                        r = wrk(server.api_port, "/paraphrase", lua, conns, threads, DURATION, pids=[server.pid], settle=settle)
                        if r["errors"]:
                            raise SystemExit(f"{name} {path}: {r['errors']} errors in {r['requests']} requests")
                        runs[(name, path, conns)].append(r)
                        log(f"round {rnd + 1}/{ROUNDS} {name} {path} {conns} conn: p50 {r['p50_us']:.0f} us, {r['rps']:.0f} req/s")
        recorded = request_json(servers["on"].api_port, "GET", "/usage?group_by=plugin")
        unrecorded = request_json(servers["off"].api_port, "GET", "/usage")
    finally:
        for server in servers.values():
            server.stop()
        upstream.stop()
    print(machine_line())
    print(f"ROUNDS {ROUNDS} of DURATION {DURATION} s; ledger on: {recorded['total']['calls']} calls recorded; off: {unrecorded['total']['calls']}")
    cpu = lambda rs: median([r["cpu_seconds"][0] / r["requests"] * 1e6 for r in rs])  # noqa: E731
    print(f"{'path':9} {'ledger':6} {'p50 us 1 conn':>14} {'CPU us/req 1 conn':>18} {'CPU us/req 64':>14} {'req/s 64 conn':>14}")
    for path in ("provider", "cached"):
        figures = {}
        for name in ("on", "off"):
            one, many = runs[(name, path, 1)], runs[(name, path, 64)]
            figures[name] = (median([r["p50_us"] for r in one]), cpu(one), cpu(many), median([r["rps"] for r in many]))
            f = figures[name]
            print(f"{path:9} {name:6} {f[0]:14.1f} {f[1]:18.1f} {f[2]:14.1f} {f[3]:14.0f}")
        on, off = figures["on"], figures["off"]
        print(f"{path:9} on-off  p50 {on[0] - off[0]:+.1f} us, CPU {on[1] - off[1]:+.1f} us (1 conn), "
              f"{on[2] - off[2]:+.1f} us (64 conn), req/s ratio {on[3] / off[3]:.2f}; "
              f"target <= 5 us of CPU and of p50 at 1 connection: {verdict(on[0] - off[0] <= 5 and on[1] - off[1] <= 5)}")


if __name__ == "__main__":
    main()
