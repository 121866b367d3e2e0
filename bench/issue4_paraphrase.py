#!/usr/bin/env python3
"""Issue 4 benchmarks: the paraphrase service's cache, batch concurrency and per-call overhead.

  a. Cached `POST /paraphrase` (offline provider, cache warmed first) at 64 connections with wrk,
     against `GET /health` in the same run; with CACHE_TYPE=memory and with a real redis-server
     (CACHE_TYPE=redis, started on a free port). Targets: throughput ratio >= 0.6 and p99 <= 2 ms.
  b. Batch efficiency: `POST /paraphrase/batch` with 10 distinct texts, BATCH_MAX_WORKERS=4, through
     the `openrouter` provider pointed at a local OpenAI-compatible server answering after 200 ms.
     Target: wall time <= 1.15 x ceil(10/4) x 200 ms = 690 ms. Baseline in the same run: a client
     sending the same 10 requests straight to that server with 4 threads.
  c. Host overhead per provider call: p50 of `POST /paraphrase` (a cache miss each time: every request
     has a new text) through `openrouter` to a local server answering at once, minus the p50 of the
     same chat-completions request sent straight to that server, both with wrk at 1 connection.
     Target: p50 overhead <= 1 ms. The server's own handling time is measured on its side too.

Environment: ROUNDS (3), DURATION (5), BATCH_RUNS (10), PARTS (memory,redis,batch,overhead: which
parts to run), BENCH_NO_BUILD=1, CARGO_TARGET_DIR.
"""

import concurrent.futures
import json
import math
import os
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import (  # noqa: E402
    pin_processes,
    placement_line,
    Server,
    Upstream,
    build,
    free_port,
    log,
    loadavg,
    lua_request,
    machine_line,
    median,
    request,
    request_json,
    table,
    verdict,
    wrk,
)

ROUNDS = int(os.environ.get("ROUNDS", "3"))
DURATION = int(os.environ.get("DURATION", "5"))
BATCH_RUNS = int(os.environ.get("BATCH_RUNS", "10"))
PARTS = os.environ.get("PARTS", "memory,redis,batch,overhead").split(",")
NO_LIMIT = {"RATE_LIMIT_REQUESTS_PER_MINUTE": "1000000"}  # the most the setting takes
TEXT = "The quick brown fox jumps over the lazy dog while the farmer watches from the porch."


def check(r, what):
    if r["errors"]:
        log(f"WARNING {what}: {r['errors']} errors in {r['requests']} requests")


def cached_vs_health(server, label):
    body = {"text": TEXT}
    first = request_json(server.api_port, "POST", "/paraphrase", body)
    again = request_json(server.api_port, "POST", "/paraphrase", body)
    assert again["cached"], (first, again)
    ours, base = [], []
    for rnd in range(ROUNDS):
        log(f"cached paraphrase ({label}) round {rnd + 1}/{ROUNDS}, load {loadavg()}")
        r = wrk(server.api_port, "/health", "", 64, 2, DURATION, pids=[server.pid])
        check(r, "/health")
        base.append(r)
        r = wrk(server.api_port, "/paraphrase", lua_request("POST", body, {"content-type": "application/json"}),
                64, 2, DURATION, pids=[server.pid])
        check(r, "/paraphrase")
        ours.append(r)
    stats = request_json(server.api_port, "GET", "/cache/stats")
    health = request_json(server.api_port, "GET", "/health")
    return ours, base, stats, health, loadavg()


def start_redis():
    port = free_port()
    proc = subprocess.Popen(
        ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
    )
    for _ in range(500):
        try:
            out = subprocess.run(["redis-cli", "-p", str(port), "ping"], capture_output=True, text=True).stdout
            if "PONG" in out:
                return proc, port
        except FileNotFoundError:
            break
        time.sleep(0.01)
    proc.kill()
    raise RuntimeError("redis-server did not start")


def openai_env(upstream, workers=None):
    env = {
        **NO_LIMIT,
        "PROVIDER_API_KEY": "bench-key",
        "PARLANCE_PLUGIN_OPENROUTER_BASE_URL": f"http://127.0.0.1:{upstream.port}/v1",
    }
    if workers:
        env["BATCH_MAX_WORKERS"] = str(workers)
    return env


def direct_chat_completion(port, text):
    body = {
        "model": "bench-model",
        "messages": [
            {"role": "system", "content": "You rewrite text."},
            {"role": "user", "content": f"Paraphrase this text:\n\n{text}"},
        ],
    }
    status, _, _ = request(port, "POST", "/v1/chat/completions", body)
    assert status == 200


def batch_efficiency():
    upstream = Upstream("openai", delay_ms=200)
    server = Server(env=openai_env(upstream, workers=4))
    ours, direct = [], []
    try:
        with concurrent.futures.ThreadPoolExecutor(4) as pool:
            for run in range(BATCH_RUNS):
                log(f"batch run {run + 1}/{BATCH_RUNS}, load {loadavg()}")
                texts = [f"Batch run {run} text {i}: {TEXT}" for i in range(10)]
                upstream.reset()
                started = time.perf_counter()
                answer = request_json(
                    server.api_port, "POST", "/paraphrase/batch", {"texts": texts, "provider": "openrouter"}
                )
                ours.append(time.perf_counter() - started)
                assert answer["summary"]["successful"] == 10, answer["summary"]
                assert not any(r.get("cached") for r in answer["results"])
                assert upstream.stats()["requests"] == 10
                started = time.perf_counter()
                list(pool.map(lambda t: direct_chat_completion(upstream.port, t), texts))
                direct.append(time.perf_counter() - started)
    finally:
        server.stop()
        upstream.stop()
    return ours, direct, loadavg()


# A request with a text never sent before (the Lua global `round_id`, wrk thread, counter): a cache miss
# that reaches the provider.
MISS_LUA = """
local counter = 0
function request()
  counter = counter + 1
  local body = string.format('{"text": "Text %s-%d-%d: The quick brown fox jumps over the lazy dog.", "provider": "openrouter"}', round_id, tid or 0, counter)
  return wrk.format("POST", "/paraphrase", {["content-type"] = "application/json"}, body)
end
"""

# What the openrouter plugin sends upstream for one such text: its default system prompt and template.
DIRECT_BODY = {
    "model": "deepseek/deepseek-chat-v3-0324:free",
    "messages": [
        {"role": "system", "content": "You rewrite text so that it says the same thing in different words."},
        {"role": "user", "content": "Paraphrase this text:\n\nText 1-1: The quick brown fox jumps over the lazy dog."},
    ],
}


def per_call_overhead():
    upstream = Upstream("openai", delay_ms=0)
    server = Server(env=openai_env(upstream))
    lua_ours = MISS_LUA
    lua_direct = lua_request("POST", DIRECT_BODY, {"content-type": "application/json", "authorization": "Bearer bench-key"})
    ours, base = [], []
    try:
        # A miss goes to the provider; check once that it really does.
        r = request_json(server.api_port, "POST", "/paraphrase", {"text": "warm-up text", "provider": "openrouter"})
        assert not r["cached"] and r["provider"] == "openrouter", r
        for rnd in range(ROUNDS):
            log(f"per-call overhead round {rnd + 1}/{ROUNDS}, load {loadavg()}")
            upstream.reset()
            r = wrk(upstream.port, "/v1/chat/completions", lua_direct, 1, 1, DURATION, pids=[upstream.proc.pid])
            r["upstream"] = upstream.stats()
            check(r, "upstream direct")
            base.append(r)
            upstream.reset()
            r = wrk(server.api_port, "/paraphrase", f'round_id = "{rnd}"\n' + lua_ours, 1, 1, DURATION,
                    pids=[server.pid, upstream.proc.pid])
            r["upstream"] = upstream.stats()
            check(r, "/paraphrase")
            if r["upstream"]["requests"] < r["requests"]:
                log(f"WARNING only {r['upstream']['requests']} of {r['requests']} requests reached the upstream")
            ours.append(r)
    finally:
        server.stop()
        upstream.stop()
    return ours, base, loadavg()


def us(x):
    return f"{x:.0f} us" if x < 10_000 else f"{x / 1000:.1f} ms"


def cached_rows(label, result):
    ours, base, stats, health, load = result
    rps_o, rps_b = median([r["rps"] for r in ours]), median([r["rps"] for r in base])
    p99 = median([r["p99_us"] for r in ours])
    cpu = median([r["cpu_seconds"][0] / r["requests"] * 1e6 for r in ours])
    cpu_b = median([r["cpu_seconds"][0] / r["requests"] * 1e6 for r in base])
    return [
        [
            f"cached POST /paraphrase, 64 conn, {label}: req/s",
            f"{rps_o:.0f} req/s",
            f"/health {rps_b:.0f} req/s",
            f"{rps_o / rps_b:.2f}",
            ">= 0.6",
            verdict(rps_o / rps_b >= 0.6),
            load,
        ],
        [
            f"cached POST /paraphrase, 64 conn, {label}: p99",
            f"{us(p99)} (p50 {us(median([r['p50_us'] for r in ours]))})",
            f"/health p99 {us(median([r['p99_us'] for r in base]))}",
            f"{p99 / median([r['p99_us'] for r in base]):.1f}x",
            "<= 2 ms",
            verdict(p99 <= 2000),
            load,
        ],
        [
            f"  server CPU per request, {label}",
            f"{cpu:.0f} us",
            f"/health {cpu_b:.0f} us",
            f"{cpu / cpu_b:.1f}x",
            "",
            "",
            "",
        ],
        [
            f"  cache after the runs, {label}",
            f"backend {stats['backend']}, status {stats['status']}, hit rate {stats['hit_rate']:.4f}",
            f"/health {health['status']}",
            "",
            "",
            "",
            "",
        ],
    ]


def main():
    build()
    pin_processes()
    print(machine_line())
    print(placement_line())
    rows = []

    if "memory" in PARTS:
        server = Server(env=NO_LIMIT)
        try:
            rows += cached_rows("memory", cached_vs_health(server, "memory"))
        finally:
            server.stop()

    if "redis" not in PARTS:
        pass
    elif shutil.which("redis-server"):
        redis, port = start_redis()
        server = Server(env={**NO_LIMIT, "CACHE_TYPE": "redis", "CACHE_STORE_URL": f"redis://127.0.0.1:{port}/0"})
        try:
            rows += cached_rows("redis", cached_vs_health(server, "redis"))
        finally:
            server.stop()
            redis.terminate()
            redis.wait()
    else:
        log("redis-server is not installed (scripts/setup.sh --tests installs it); skipping the Redis run")

    if "batch" in PARTS:
        rows += batch_rows()
    if "overhead" in PARTS:
        rows += overhead_rows()
    print()
    table(rows, ["benchmark", "median", "baseline", "ratio", "target", "verdict", "load avg"])


def batch_rows():
    rows = []
    ours, direct, load = batch_efficiency()
    target = 1.15 * math.ceil(10 / 4) * 0.200
    t = median(ours)
    rows.append(
        [
            f"batch of 10, 4 workers, upstream 200 ms ({len(ours)} runs)",
            f"{t * 1e3:.0f} ms (min {min(ours) * 1e3:.0f}, max {max(ours) * 1e3:.0f})",
            f"direct, 4 threads {median(direct) * 1e3:.0f} ms; ideal 600 ms",
            f"{t / median(direct):.2f}",
            f"<= {target * 1e3:.0f} ms",
            verdict(t <= target),
            load,
        ]
    )

    return rows


def overhead_rows():
    rows = []
    ours, base, load = per_call_overhead()
    p50_o, p50_b = median([r["p50_us"] for r in ours]), median([r["p50_us"] for r in base])
    handling = median([r["upstream"]["handling_us_p50"] for r in ours])
    cpu = median([r["cpu_seconds"][0] / r["requests"] * 1e6 for r in ours])
    rows.append(
        [
            "POST /paraphrase minus upstream, 1 conn, p50",
            f"{us(p50_o)} - {us(p50_b)} = {us(p50_o - p50_b)}",
            f"upstream direct {us(p50_b)}",
            f"{p50_o / p50_b:.1f}x",
            "<= 1 ms",
            verdict(p50_o - p50_b <= 1000),
            load,
        ]
    )
    ups = ours[-1]["upstream"]
    rows.append(
        [
            "  same, minus the upstream's own handling time",
            f"{us(p50_o)} - {us(handling)} = {us(p50_o - handling)}",
            f"server CPU {cpu:.0f} us/request",
            "",
            "",
            "",
            "",
        ]
    )
    rows.append(
        [
            "  upstream as seen by parlance",
            f"{ups['connections']} TCP connections for {ups['requests']} requests; "
            f"{median([r['rps'] for r in ours]):.0f} req/s vs direct {median([r['rps'] for r in base]):.0f}",
            "",
            "",
            "",
            "",
            "",
        ]
    )
    return rows


if __name__ == "__main__":
    main()
