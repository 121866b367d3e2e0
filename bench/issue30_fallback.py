#!/usr/bin/env python3
"""Issue 30: fallback chains and circuit breaking, three figures, each against its baseline in the
same run (alternating round by round where it is a rate):

1. `overhead`: the chain machinery on a healthy call. wrk on `POST /paraphrase` (a cache miss each:
   `skip_cache`) to two providers of one server at the same local `openai` upstream answering at once,
   `chained` (fallbacks = ["offline"]) and `plain` (no chain), alternating: server CPU per call and p50
   at 1 connection. Target: ≤ 5 µs of CPU added.
2. `failover`: time to a successful answer when the primary refuses connections, when it hangs
   (bounded by its `http_timeout_ms`, HANG_MS), and when its circuit is open, each against
   `offline` (the fallback) called directly, by sequential requests on one keep-alive connection:
   p50. Target for the open circuit: ≤ 1 ms more than the fallback directly.
3. `job`: a JOB_TEXTS (1000)-text job on the chained provider, whose upstream (DELAY_MS, 5, per
   answer) is stopped at 30 % and started again at 60 % of the items, against the same job with no
   fault: items served by each provider, total time.

Environment: PARTS (overhead,failover,job), ROUNDS (3), DURATION (5), REQUESTS (200, per failover
case; HANG_REQUESTS 5), HANG_MS (300), JOB_TEXTS (1000), DELAY_MS (5), COOLDOWN_MS (500, the
job's circuit cooldown), PARLANCE_BIN.
"""

import json
import os
import socket
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import (  # noqa: E402
    BINARY, Server, Upstream, build, free_port, log, lua_request, machine_line, median, request_json,
    table, verdict, wrk,
)
import http.client  # noqa: E402

PARTS = os.environ.get("PARTS", "overhead,failover,job").split(",")
ROUNDS = int(os.environ.get("ROUNDS", "3"))
DURATION = int(os.environ.get("DURATION", "5"))
REQUESTS = int(os.environ.get("REQUESTS", "200"))
HANG_REQUESTS = int(os.environ.get("HANG_REQUESTS", "5"))
HANG_MS = int(os.environ.get("HANG_MS", "300"))
JOB_TEXTS = int(os.environ.get("JOB_TEXTS", "1000"))
DELAY_MS = float(os.environ.get("DELAY_MS", "5"))
COOLDOWN_MS = int(os.environ.get("COOLDOWN_MS", "500"))
TEXT = "The committee will make a decision about the proposal tomorrow."


def provider(pid, port, extra=""):
    return (
        f'[[plugin]]\nid = "{pid}"\nkind = "provider"\ncomponent = "builtin:openai"\n'
        f'allowed_hosts = ["http://127.0.0.1:{port}"]\nrate_limit_per_minute = 0\n{extra}'
        f'config = {{ base_url = "http://127.0.0.1:{port}/v1", api_key = "k" }}\n\n'
    )


def overhead(binary):
    upstream = Upstream("openai")
    config = provider("chained", upstream.port, 'fallbacks = ["offline"]\n') + provider("plain", upstream.port)
    server = Server(config_text=config, binary=binary)
    runs = {"chained": [], "plain": []}
    try:
        for rnd in range(ROUNDS):
            for name in runs:
                body = {"text": TEXT, "provider": name, "skip_cache": True}
                lua = lua_request("POST", body, {"content-type": "application/json"})
                r = wrk(server.api_port, "/paraphrase", lua, 1, 1, DURATION, pids=[server.pid])
                if r["errors"]:
                    raise RuntimeError(f"{name}: {r['errors']} errors: {server.log_tail()}")
                r["cpu_us"] = r["cpu_seconds"][0] / r["requests"] * 1e6
                runs[name].append(r)
                log(f"round {rnd + 1}/{ROUNDS} {name}: {r['cpu_us']:.1f} us CPU/call, p50 {r['p50_us']} us")
    finally:
        server.stop()
        upstream.stop()
    cpu = {n: median([r["cpu_us"] for r in rs]) for n, rs in runs.items()}
    p50 = {n: median([r["p50_us"] for r in rs]) for n, rs in runs.items()}
    added = cpu["chained"] - cpu["plain"]
    table(
        [[n, f"{cpu[n]:.1f}", f"{p50[n]:.0f}"] for n in runs] + [["added", f"{added:+.1f}", f"{p50['chained'] - p50['plain']:+.0f}"]],
        ["provider", "CPU us/call (median)", "p50 us"],
    )
    print(f"chain machinery on a healthy call: {added:+.1f} us CPU (target <= 5): {verdict(added <= 5)}")


def timed(port, body, n):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    times = []
    served = set()
    try:
        for i in range(n):
            payload = json.dumps(dict(body, text=f"{TEXT} {i}"))
            start = time.perf_counter()
            conn.request("POST", "/paraphrase", payload, {"content-type": "application/json"})
            response = conn.getresponse()
            data = json.loads(response.read())
            times.append((time.perf_counter() - start) * 1e6)
            if response.status != 200:
                raise RuntimeError(f"{body}: {response.status} {data}")
            served.add(data["provider"])
    finally:
        conn.close()
    return median(times), served


def failover(binary):
    refused = free_port()
    hang = socket.socket()
    hang.bind(("127.0.0.1", 0))
    hang.listen(4096)  # connections wait in the backlog; nothing is ever read or answered
    hang_port = hang.getsockname()[1]
    never_again = 'fallbacks = ["offline"]\n'
    config = (
        "[fallback]\nfailure_threshold = 100000\n\n"
        + provider("refusing", refused, never_again)
        + provider("hanging", hang_port, never_again + f"limits = {{ http_timeout_ms = {HANG_MS} }}\n")
        + provider("tripped", refused, never_again)
    )
    # `tripped` opens at its first failure and stays open: its own server, with its own threshold.
    tripped_config = "[fallback]\nfailure_threshold = 1\ncooldown_ms = 3600000\n\n" + provider("tripped", refused, never_again)
    server = Server(config_text=config, binary=binary)
    tripped = Server(config_text=tripped_config, binary=binary)
    rows = []
    try:
        request_json(tripped.api_port, "POST", "/paraphrase", {"text": TEXT, "provider": "tripped"})
        cases = [
            ("offline directly", server, {"provider": "offline"}, REQUESTS),
            ("primary refuses", server, {"provider": "refusing"}, REQUESTS),
            ("offline directly (2nd server)", tripped, {"provider": "offline"}, REQUESTS),
            ("circuit open", tripped, {"provider": "tripped"}, REQUESTS),
            (f"primary hangs ({HANG_MS} ms timeout)", server, {"provider": "hanging"}, HANG_REQUESTS),
        ]
        results = {}
        for rnd in range(ROUNDS):
            for label, srv, body, n in cases:
                p50, served = timed(srv.api_port, dict(body, skip_cache=True), n)
                results.setdefault(label, []).append(p50)
                log(f"round {rnd + 1}/{ROUNDS} {label}: p50 {p50:.0f} us, served by {sorted(served)}")
    finally:
        server.stop()
        tripped.stop()
        hang.close()
    p50 = {k: median(v) for k, v in results.items()}
    for label, _, _, _ in cases:
        rows.append([label, f"{p50[label]:.0f}"])
    table(rows, ["case", "p50 us to a successful answer"])
    added = p50["circuit open"] - p50["offline directly (2nd server)"]
    print(f"circuit open: {added:+.0f} us over the fallback directly (target <= 1000): {verdict(added <= 1000)}")
    print(f"refused: {p50['primary refuses'] - p50['offline directly']:+.0f} us over the fallback directly")


def job_run(binary, fault):
    upstream = Upstream("openai", DELAY_MS)
    port = upstream.port
    config = f"[fallback]\nfailure_threshold = 3\ncooldown_ms = {COOLDOWN_MS}\n\n[jobs]\nconcurrency = 8\n\n" + provider(
        "chained", port, 'fallbacks = ["offline"]\n'
    )
    server = Server(config_text=config, binary=binary)
    try:
        texts = [f"{TEXT} Item {i}." for i in range(JOB_TEXTS)]
        job = request_json(server.api_port, "POST", "/paraphrase/batch/async", {"texts": texts, "provider": "chained"}, expect=202)
        job_id = job["job_id"]
        start = time.perf_counter()
        stopped = restarted = False
        while True:
            view = request_json(server.api_port, "GET", f"/jobs/{job_id}?limit=1")
            done = view["successful"] + view["failed"]
            if fault and not stopped and done >= JOB_TEXTS * 0.3:
                upstream.stop()
                stopped = True
                log(f"upstream stopped at {done} items")
            if fault and stopped and not restarted and done >= JOB_TEXTS * 0.6:
                upstream = Upstream("openai", DELAY_MS, args=("--port", str(port)))
                restarted = True
                log(f"upstream started again at {done} items")
            if view["status"] == "completed":
                break
            time.sleep(0.02)
        seconds = time.perf_counter() - start
        by = {}
        offset = 0
        while offset is not None:
            page = request_json(server.api_port, "GET", f"/jobs/{job_id}?offset={offset}&limit=1000")
            for item in page["results"]:
                by[item["provider"]] = by.get(item["provider"], 0) + 1
            by["(failed)"] = by.get("(failed)", 0) + len(page["errors"])
            offset = page.get("next_offset")
        return seconds, by
    finally:
        server.stop()
        upstream.stop()


def job(binary):
    rows = []
    for label, fault in [("no fault", False), ("primary down 30 %-60 %", True)]:
        seconds, by = job_run(binary, fault)
        rows.append([label, f"{seconds:.2f}", json.dumps(by, sort_keys=True)])
    table(rows, ["job", "seconds", "items by provider"])


def main():
    binary = os.environ.get("PARLANCE_BIN") or (build() or BINARY)
    print(machine_line())
    print(f"ROUNDS={ROUNDS} DURATION={DURATION} REQUESTS={REQUESTS} JOB_TEXTS={JOB_TEXTS} DELAY_MS={DELAY_MS} COOLDOWN_MS={COOLDOWN_MS}")
    for part, run in [("overhead", overhead), ("failover", failover), ("job", job)]:
        if part in PARTS:
            print(f"\n== {part}")
            run(binary)


if __name__ == "__main__":
    main()
