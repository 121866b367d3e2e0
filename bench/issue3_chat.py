#!/usr/bin/env python3
"""Issue 3 benchmarks: chat overhead and dialog reads.

  1. Chat overhead: wrk drives `POST /v1/waifu` (the `form` chat model at MODEL_URL, a local model
     endpoint that answers at once, bench/upstream.py form; the SQLite commit of the exchange included)
     and, in the same run, the model endpoint itself with the form POST the plugin sends. Overhead =
     p50 latency of /v1/waifu minus p50 latency of the model endpoint, at 1 and at 64 concurrent
     connections. Target: p50 overhead <= 1 ms at 64 clients. Each round uses fresh users (a pool of
     200 per wrk thread) so dialogs stay short and comparable between rounds.
     Three ways of having 64 clients are measured. Saturated: each connection sends its next message
     the moment the reply arrives, so the server is never idle and the median is mostly the queue
     (about 64 / throughput); that row reports capacity. Thinking: each of the 64 clients thinks for a
     random time after a reply (exponentially distributed, mean PACE_MS = 100) before its next
     message, as independent people chatting do; the load (about 64 / PACE_MS per second) stays
     under capacity and the median shows what the server adds to a chat while 64 clients are active.
     The target is judged on this row. Lock-step: the same clients pausing exactly PACE_MS. They all
     start together and stay in step, so each round of 64 messages arrives as a train spaced by the
     server's own service time, at 100% load while it lasts; that row shows how the server copes with
     such bursts, and is printed beside the others.
  2. Dialog reads: `GET /v1/user/dialog/json/<user>` on a user with 200 entries (PUT first) against
     `GET /v1/server/status`, requests/s with wrk at 64 connections. Target: ratio >= 0.5.

Every measurement alternates project and baseline for ROUNDS rounds of DURATION seconds; medians are
reported, with the CPU time the server and the model endpoint spent per request.

Environment: ROUNDS (3), DURATION (5), PACE_MS (100), BENCH_NO_BUILD=1, CARGO_TARGET_DIR.
"""

import os
import sys
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import (  # noqa: E402
    pin_processes,
    placement_line,
    Server,
    Upstream,
    build,
    log,
    loadavg,
    lua_request,
    lua_string,
    machine_line,
    median,
    request_json,
    table,
    verdict,
    wrk,
)

ROUNDS = int(os.environ.get("ROUNDS", "3"))
DURATION = int(os.environ.get("DURATION", "5"))
PACE_MS = int(os.environ.get("PACE_MS", "100"))
MESSAGE = "Hello there, how are you doing today?"


def waifu_lua(round_id):
    """Each request chats as one of 200 users of this wrk thread and round."""
    return f"""
local counter = 0
local prefix = {lua_string(f"r{round_id}")}
function request()
  counter = counter + 1
  local body = string.format('{{"user_id": "%s-t%d-u%d", "message": "{MESSAGE}"}}', prefix, tid or 0, counter % 200)
  return wrk.format("POST", "/v1/waifu", {{["content-type"] = "application/json"}}, body)
end
"""


def model_lua():
    # What the `form` plugin sends for the first message of a user.
    prompt = f'[ Genre: Romance ] User said: "{MESSAGE}" Waifu said: "'
    return lua_request(
        "POST",
        "input=" + urllib.parse.quote_plus(prompt),
        {"content-type": "application/x-www-form-urlencoded"},
    )


def lockstep(lua):
    """The same requests, each connection pausing exactly PACE_MS after every reply (wrk's `delay` hook)."""
    return lua + f"\nfunction delay()\n  return {PACE_MS}\nend\n"


def thinking(lua):
    """The same requests, each connection pausing an exponentially distributed time of mean PACE_MS
    after every reply: independent clients, whose messages arrive as a Poisson stream would."""
    return (
        lua
        + f"""
local seeded = false
function delay()
  if not seeded then
    math.randomseed(os.time() * 1000 + (tid or 0) * 7919)
    seeded = true
  end
  return math.floor(-math.log(1 - math.random()) * {PACE_MS})
end
"""
    )


def unpaced(lua):
    return lua


# The chat runs: (label, connections, pacing, judged against the target?).
CHAT_RUNS = [
    ("1 conn", 1, unpaced, False),
    ("64 conn, saturated", 64, unpaced, False),
    (f"64 clients thinking {PACE_MS} ms on average", 64, thinking, True),
    (f"64 clients in lock-step, {PACE_MS} ms pauses", 64, lockstep, False),
]


def check(r, what):
    if r["errors"] or r["fallbacks"]:
        log(f"WARNING {what}: {r['errors']} errors, {r['fallbacks']} fallback replies in {r['requests']} requests")


def chat_overhead(model, server):
    results = {}
    for label, conns, shape, judged in CHAT_RUNS:
        ours, base = [], []
        for rnd in range(ROUNDS):
            log(f"chat {label} round {rnd + 1}/{ROUNDS}, load {loadavg()}")
            r = wrk(model.port, "/path/", shape(model_lua()), conns, 2, DURATION, pids=[model.proc.pid])
            check(r, "model endpoint")
            base.append(r)
            model.reset()
            r = wrk(
                server.chat_port,
                "/v1/waifu",
                shape(waifu_lua(f"{conns}{shape.__name__[0]}-{rnd}")),
                conns,
                2,
                DURATION,
                pids=[server.pid, model.proc.pid],
            )
            r["upstream"] = model.stats()
            check(r, "/v1/waifu")
            if r["upstream"]["bad_requests"]:
                log(f"WARNING the model endpoint rejected {r['upstream']['bad_requests']} requests")
            ours.append(r)
        results[label] = (judged, ours, base, loadavg())
    return results


def dialog_reads(server):
    user = "bench-dialog"
    request_json(server.chat_port, "PUT", f"/v1/user/id/{user}", body=b"")
    dialog = [
        {"index": i, "name": "User" if i % 2 == 0 else "Waifu", "message": f"Message number {i} of a long and winding dialog."}
        for i in range(200)
    ]
    request_json(server.chat_port, "PUT", f"/v1/user/dialog/json/{user}", {"dialog": dialog})
    got = request_json(server.chat_port, "GET", f"/v1/user/dialog/json/{user}")
    assert len(got["dialog"]) == 200, got
    ours, base = [], []
    for rnd in range(ROUNDS):
        log(f"dialog reads round {rnd + 1}/{ROUNDS}, load {loadavg()}")
        r = wrk(server.chat_port, "/v1/server/status", "", 64, 2, DURATION, pids=[server.pid])
        check(r, "/v1/server/status")
        base.append(r)
        r = wrk(server.chat_port, f"/v1/user/dialog/json/{user}", "", 64, 2, DURATION, pids=[server.pid])
        check(r, "/v1/user/dialog/json")
        ours.append(r)
    return ours, base, loadavg()


def us(x):
    return f"{x:.0f} us" if x < 10_000 else f"{x / 1000:.1f} ms"


def main():
    build()
    pin_processes()
    print(machine_line())
    print(placement_line())
    model = Upstream("form")
    server = Server(env={"MODEL_URL": f"http://127.0.0.1:{model.port}/path/"})
    try:
        chat = chat_overhead(model, server)
        reads = dialog_reads(server)
        stored = request_json(server.chat_port, "GET", "/v1/user/all/count")
    finally:
        server.stop()
        model.stop()

    rows = []
    for label, (judged, ours, base, load) in chat.items():
        p50_o, p50_b = median([r["p50_us"] for r in ours]), median([r["p50_us"] for r in base])
        p99_o, p99_b = median([r["p99_us"] for r in ours]), median([r["p99_us"] for r in base])
        overhead = p50_o - p50_b
        cpu = median([r["cpu_seconds"][0] / r["requests"] * 1e6 for r in ours])
        rows.append(
            [
                f"POST /v1/waifu p50 overhead, {label}",
                f"{us(p50_o)} - {us(p50_b)} = {us(overhead)}",
                f"model endpoint {us(p50_b)}",
                f"{p50_o / p50_b:.1f}x",
                "<= 1 ms" if judged else "(report)",
                verdict(overhead <= 1000) if judged else "-",
                load,
            ]
        )
        rows.append(
            [
                f"  p99 / throughput / server CPU per chat, {label}",
                f"p99 {us(p99_o)}, {median([r['rps'] for r in ours]):.0f} req/s, {cpu:.0f} us CPU",
                f"p99 {us(p99_b)}, {median([r['rps'] for r in base]):.0f} req/s",
                "",
                "",
                "",
                "",
            ]
        )
        ups = ours[-1]["upstream"]
        rows.append(
            [
                f"  model endpoint as seen by parlance, {label}",
                f"handling p50 {ups['handling_us_p50']:.0f} us, {ups['connections']} TCP connections "
                f"for {ups['requests']} requests",
                "",
                "",
                "",
                "",
                "",
            ]
        )
    ours, base, load = reads
    rps_o, rps_b = median([r["rps"] for r in ours]), median([r["rps"] for r in base])
    rows.append(
        [
            "GET /v1/user/dialog/json (200 entries), 64 conn",
            f"{rps_o:.0f} req/s (p50 {us(median([r['p50_us'] for r in ours]))})",
            f"/v1/server/status {rps_b:.0f} req/s (p50 {us(median([r['p50_us'] for r in base]))})",
            f"{rps_o / rps_b:.2f}",
            ">= 0.5",
            verdict(rps_o / rps_b >= 0.5),
            load,
        ]
    )
    print()
    table(rows, ["benchmark", "median", "baseline", "ratio", "target", "verdict", "load avg"])
    print(f"\nusers stored by the chat runs: {stored}")


if __name__ == "__main__":
    main()
