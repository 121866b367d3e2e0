#!/usr/bin/env python3
"""Issue 19 benchmarks: a durable asynchronous batch job against its ideal, and its resumption after SIGKILL.

  1. throughput: a job of TEXTS (5000) texts on the `openrouter` provider pointed at a local
     OpenAI-compatible upstream answering after DELAY_MS (50 ms), in two settings:
       rate-bound         RATE (3000) calls per minute, [jobs] concurrency 8: GCRA admits a burst of one
                          minute's quota, then RATE / 60 a second, so the ideal wall time is
                          max(TEXTS / (8 / DELAY), (TEXTS - RATE) / (RATE / 60))
       concurrency-bound  no effective rate limit, [jobs] concurrency 8: ideal = 8 / DELAY per second
     Printed: wall time from POST /paraphrase/batch/async to status `completed`, items per second, the
     ideal and the ratio, and the upstream's request count (every item reaches it once).
  2. resume: the concurrency-bound job, the server SIGKILLed when about 40 % of the items are done, then
     started again on the same database and ports (so the same replica name, which gives its claims back
     at start). Printed: the restart's time to ready, to the first item finished after the restart, and to
     completion; then every item is read back page by page and checked to hold exactly one result.

Environment: TEXTS (5000), DELAY_MS (50), RATE (3000), CONCURRENCY (8), BENCH_NO_BUILD=1, CARGO_TARGET_DIR.
"""

import os
import signal
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import (  # noqa: E402
    Server,
    Upstream,
    build,
    log,
    machine_line,
    placement_line,
    pin_processes,
    request_json,
    table,
    verdict,
)

TEXTS = int(os.environ.get("TEXTS", "5000"))
DELAY_MS = float(os.environ.get("DELAY_MS", "50"))
RATE = int(os.environ.get("RATE", "3000"))
CONCURRENCY = int(os.environ.get("CONCURRENCY", "8"))
CLIENT = {"current-user": "bench-jobs"}


def config(concurrency):
    return f"[jobs]\nconcurrency = {concurrency}\nmax_texts = {max(TEXTS, 10)}\n"


def env(upstream, rate):
    return {
        "PROVIDER_API_KEY": "bench-key",
        "PARLANCE_PLUGIN_OPENROUTER_BASE_URL": f"http://127.0.0.1:{upstream.port}/v1",
        "RATE_LIMIT_REQUESTS_PER_MINUTE": str(rate),
    }


def texts():
    return [f"Job text {i}: the quick brown fox jumps over the lazy dog near the river bank." for i in range(TEXTS)]


def create_job(port):
    body = {"texts": texts(), "provider": "openrouter", "skip_cache": True}
    job = request_json(port, "POST", "/paraphrase/batch/async", body, headers=CLIENT, expect=202)
    return job["job_id"]


def progress(port, job_id):
    job = request_json(port, "GET", f"/jobs/{job_id}?offset=0&limit=1", headers=CLIENT)
    return job["status"], job["successful"] + job["failed"]


def wait_done(port, job_id, timeout=900):
    deadline = time.perf_counter() + timeout
    while time.perf_counter() < deadline:
        status, done = progress(port, job_id)
        if status in ("completed", "failed", "cancelled"):
            return status, done
        time.sleep(0.05)
    raise RuntimeError(f"job {job_id} not done after {timeout} s")


def throughput(binary, name, rate, ideal_per_s):
    upstream = Upstream("openai", delay_ms=DELAY_MS)
    server = Server(env=env(upstream, rate), config_text=config(CONCURRENCY), binary=binary)
    try:
        upstream.reset()
        started = time.perf_counter()
        job_id = create_job(server.api_port)
        status, done = wait_done(server.api_port, job_id)
        seconds = time.perf_counter() - started
        ups = upstream.stats()
        per_s = done / seconds
        log(f"{name}: {done} items in {seconds:.1f} s ({per_s:.1f}/s, ideal {ideal_per_s:.1f}/s), status {status}")
        return [
            name,
            f"{seconds:.1f} s",
            f"{per_s:.1f}",
            f"{ideal_per_s:.1f}",
            f"{per_s / ideal_per_s:.2f}",
            f"{ups['requests']}",
            status,
        ], status == "completed" and ups["requests"] >= TEXTS
    finally:
        server.stop()
        upstream.stop()


def all_items(port, job_id):
    seen, offset = {}, 0
    while offset is not None:
        page = request_json(port, "GET", f"/jobs/{job_id}?offset={offset}&limit=1000", headers=CLIENT)
        for item in page["results"] + page["errors"]:
            seen[item["index"]] = seen.get(item["index"], 0) + 1
        offset = page["next_offset"]
    return seen


def resume(binary):
    upstream = Upstream("openai", delay_ms=DELAY_MS)
    first = Server(env=env(upstream, 1_000_000), config_text=config(CONCURRENCY), binary=binary)
    database = first.env["DATABASE_FILE"]
    try:
        job_id = create_job(first.api_port)
        while progress(first.api_port, job_id)[1] < TEXTS * 0.4:
            time.sleep(0.02)
        first.proc.send_signal(signal.SIGKILL)
        first.proc.wait()
        log("killed; starting again on the same database and ports")
        again = Server(
            env={
                **env(upstream, 1_000_000),
                "DATABASE_FILE": database,
                "API_PORT": str(first.api_port),
                "PORT": str(first.chat_port),
                "PARLANCE_CACHE_DIR": first.env["PARLANCE_CACHE_DIR"],
            },
            config_text=config(CONCURRENCY),
            binary=binary,
            wait=False,
        )
        again.api_port, again.chat_port = first.api_port, first.chat_port
        ready = again.wait_ready()
        _, done_at_kill = progress(again.api_port, job_id)
        while progress(again.api_port, job_id)[1] <= done_at_kill:
            time.sleep(0.005)
        first_item = time.perf_counter() - again.started
        status, done = wait_done(again.api_port, job_id)
        finished = time.perf_counter() - again.started
        seen = all_items(again.api_port, job_id)
        exactly_once = len(seen) == TEXTS and all(n == 1 for n in seen.values())
        redone = upstream.stats()["requests"] - TEXTS
        again.stop()
        rows = [
            ["stored at the kill", f"{done_at_kill} of {TEXTS}"],
            ["restart: ready (GET /health 200)", f"{ready * 1000:.0f} ms"],
            ["restart: first item finished", f"{first_item * 1000:.0f} ms"],
            ["restart: job completed", f"{finished:.1f} s ({status})"],
            ["items with exactly one result", f"{sum(1 for n in seen.values() if n == 1)} of {TEXTS}"],
            ["upstream calls beyond one per item", f"{redone} (items in flight at the kill)"],
        ]
        return rows, exactly_once and status == "completed"
    finally:
        first.stderr.close()
        upstream.stop()


def main():
    pin_processes()
    binary = build()
    print(machine_line())
    print(placement_line())
    rows, ok = [], True
    by_concurrency = CONCURRENCY / (DELAY_MS / 1000)
    rate_bound_seconds = max(TEXTS / by_concurrency, max(TEXTS - RATE, 0) / (RATE / 60))
    for name, rate, ideal in (
        ("rate-bound", RATE, TEXTS / rate_bound_seconds),
        ("concurrency-bound", 1_000_000, by_concurrency),
    ):
        row, good = throughput(binary, name, rate, ideal)
        rows.append(row)
        ok &= good
    print(f"\n1. A {TEXTS}-text job, upstream answering after {DELAY_MS:.0f} ms, [jobs] concurrency {CONCURRENCY}")
    table(rows, ["setting", "wall", "items/s", "ideal/s", "ratio", "upstream calls", "status"])
    resume_rows, good = resume(binary)
    ok &= good
    print("\n2. Resumption after SIGKILL at about 40 % of the job")
    table(resume_rows, ["", ""])
    print(verdict(ok))


if __name__ == "__main__":
    main()
