#!/usr/bin/env python3
"""What OpenTelemetry tracing costs: one binary started three times in the same run, with tracing off
(no `OTEL_EXPORTER_OTLP_ENDPOINT`: the baseline), on with every trace kept (`OTEL_TRACES_SAMPLER=
traceidratio`, ratio 1.0) and on with one trace in a hundred kept (ratio 0.01), each exporting over
OTLP/HTTP to a real receiver (tests/otlp_receiver.py, which decodes every export with the official
`opentelemetry-proto` package; pinned in scripts/requirements-test.txt) on the client half of the cores.
The three servers take turns, round by round, on:

  - cached `POST /paraphrase` (the `offline` provider, one text answered from the memory cache) at 64
    connections: server CPU per request and req/s;
  - a provider call (`POST /paraphrase` through `openrouter`, a new text each, a cache miss that reaches
    a local OpenAI-compatible upstream answering at once, bench/upstream.py openai) at 1 connection:
    server CPU per call and p50;
  - cached `POST /paraphrase` paced (PACED_CONNECTIONS connections, each waiting 1 ms between
    requests: about the same offered load for every mode, well under what any of them can serve):
    server CPU per request. At saturation a slower server also pays more for waking its idle client
    on every response (the kernel's share of a loopback write grows), so the paced figure is the
    one that counts only what tracing itself costs.

It prints the medians over rounds and each ratio to tracing off. Targets (issue 32): off costs nothing
measurable (it is the baseline: with no collector no span is made, a request start reads one flag and
each span site one thread-local); on at 1.0 within 10 % of off.

Environment: ROUNDS (3), DURATION (5 s per wrk run), PARLANCE_BIN (else the release build; see
bench/README.md), BENCH_PIN=0 to share every core.
"""

import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import (  # noqa: E402
    build,
    Server,
    Upstream,
    log,
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
import issue4_paraphrase as paraphrase  # noqa: E402

ROUNDS = int(os.environ.get("ROUNDS", "3"))
DURATION = int(os.environ.get("DURATION", "5"))
PACED_CONNECTIONS = int(os.environ.get("PACED_CONNECTIONS", "12"))
# wrk waits this long (ms) before each request of a connection.
PACE_LUA = "function delay() return 1 end\n"
CACHED_BODY = {"text": "The cached sentence every request asks for.", "provider": "offline"}


def python():
    venv = os.path.join(common.REPO, ".venv", "bin", "python3")
    return venv if os.path.exists(venv) else "python3"


class Receiver:
    """The tests' OTLP/HTTP receiver, writing what it decodes to a scratch file."""

    def __init__(self):
        self.dir = tempfile.TemporaryDirectory()
        spans = os.path.join(self.dir.name, "spans.jsonl")
        # Decoding every span into JSON would take the load generator's core from it: count them.
        args = [python(), os.path.join(common.REPO, "tests", "otlp_receiver.py"), "--count", spans]
        self.proc = subprocess.Popen(pinned(args, common.CLIENT_CPUS), stdout=subprocess.PIPE, text=True)
        self.port = int(self.proc.stdout.readline())
        self.spans = spans

    def span_count(self):
        try:
            with open(self.spans) as f:
                return int(f.read().strip() or 0)
        except FileNotFoundError:
            return 0

    def stop(self):
        self.proc.kill()
        self.proc.wait()
        self.dir.cleanup()


def check(r, what):
    if r["errors"]:
        raise SystemExit(f"{what}: {r['errors']} errors or non-2xx answers in {r['requests']} requests")


def main():
    binary = os.environ.get("PARLANCE_BIN") or build()
    pin_processes()
    print(machine_line())
    print(f"binary: {binary}")
    print(placement_line())
    upstream = Upstream("openai", delay_ms=0)
    receiver = Receiver()
    base = paraphrase.openai_env(upstream)
    traced = {"OTEL_EXPORTER_OTLP_ENDPOINT": f"http://127.0.0.1:{receiver.port}", "OTEL_TRACES_SAMPLER": "traceidratio"}
    modes = {
        "off": base,
        "on 1.0": {**base, **traced, "OTEL_TRACES_SAMPLER_ARG": "1.0"},
        "on 0.01": {**base, **traced, "OTEL_TRACES_SAMPLER_ARG": "0.01"},
    }
    servers = {}
    runs = {(m, part): [] for m in modes for part in ("cached", "provider", "paced")}
    cached_lua = lua_request("POST", CACHED_BODY, {"content-type": "application/json"})
    try:
        for name, env in modes.items():
            servers[name] = Server(env=env, binary=binary)
            port = servers[name].api_port
            request_json(port, "POST", "/paraphrase", CACHED_BODY)
            assert request_json(port, "POST", "/paraphrase", CACHED_BODY)["cached"]
            r = request_json(port, "POST", "/paraphrase", {"text": f"warm-up {name}", "provider": "openrouter"})
            assert not r["cached"] and r["provider"] == "openrouter", r
        for rnd in range(ROUNDS):
            names = list(servers) if rnd % 2 == 0 else list(reversed(servers))
            for name in names:
                server = servers[name]
                r = wrk(server.api_port, "/paraphrase", cached_lua, 64, 2, DURATION, pids=[server.pid])
                check(r, f"{name} cached")
                runs[(name, "cached")].append(r)
                lua = f'round_id = "{name}-{rnd}"\n' + paraphrase.MISS_LUA
                r = wrk(server.api_port, "/paraphrase", lua, 1, 1, DURATION, pids=[server.pid])
                check(r, f"{name} provider")
                runs[(name, "provider")].append(r)
                r = wrk(server.api_port, "/paraphrase", cached_lua + PACE_LUA, PACED_CONNECTIONS, 1, DURATION,
                        pids=[server.pid])
                check(r, f"{name} paced")
                runs[(name, "paced")].append(r)
                log(f"round {rnd + 1}/{ROUNDS} {name}: cached {runs[(name, 'cached')][-1]['rps']:.0f} req/s, "
                    f"provider p50 {runs[(name, 'provider')][-1]['p50_us']:.0f} us, "
                    f"paced {r['rps']:.0f} req/s; spans received so far {receiver.span_count()}")
        exported = receiver.span_count()
    finally:
        for server in servers.values():
            server.stop()
        receiver.stop()
        upstream.stop()

    def cpu(rs):
        return median([r["cpu_seconds"][0] / r["requests"] * 1e6 for r in rs])

    figures = {
        name: {
            "cached_cpu": cpu(runs[(name, "cached")]),
            "cached_rps": median([r["rps"] for r in runs[(name, "cached")]]),
            "provider_cpu": cpu(runs[(name, "provider")]),
            "provider_p50": median([r["p50_us"] for r in runs[(name, "provider")]]),
            "paced_cpu": cpu(runs[(name, "paced")]),
            "paced_rps": median([r["rps"] for r in runs[(name, "paced")]]),
        }
        for name in modes
    }
    off = figures["off"]
    rows = []
    for name, f in figures.items():
        rows.append([
            name,
            f"{f['cached_cpu']:.1f}",
            f"{f['cached_cpu'] / off['cached_cpu']:.3f}",
            f"{f['cached_rps']:.0f}",
            f"{f['provider_cpu']:.0f}",
            f"{f['provider_cpu'] / off['provider_cpu']:.3f}",
            f"{f['provider_p50']:.0f}",
            f"{f['paced_cpu']:.1f}",
            f"{f['paced_cpu'] / off['paced_cpu']:.3f}",
            f"{f['paced_rps']:.0f}",
        ])
    table(rows, ["tracing", "cached CPU us/req", "vs off", "cached req/s (64)",
                 "provider CPU us/call", "vs off", "provider p50 us (1)",
                 "paced CPU us/req", "vs off", f"paced req/s ({PACED_CONNECTIONS})"])
    print(f"spans the receiver decoded over the run: {exported}")
    on = figures["on 1.0"]
    within = max(on["cached_cpu"] / off["cached_cpu"], on["provider_cpu"] / off["provider_cpu"]) <= 1.10
    print(f"on at 1.0 within 10% of off (CPU per request, both paths): {verdict(within)}")


if __name__ == "__main__":
    main()
