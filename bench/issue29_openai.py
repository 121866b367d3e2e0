#!/usr/bin/env python3
"""Issue 29 benchmark: Parlance's OpenAI-compatible surface against its own `/v1/waifu` and against
the LiteLLM proxy, in the same run, in front of the same upstream.

One local upstream, bench/upstream.py `openai` (answering at once, a `chat.completion` or, for
`"stream": true`, its server-sent chunks), started once for the whole run. In front of it:

  completions  Parlance `POST /v1/chat/completions`, model `openai-chat` (its base URL pointed at the
               upstream), one user message, a new text per request.
  waifu        Parlance `POST /v1/waifu`, the same server, `[chat] model = "openai-chat"`: the seed's
               chat through the same plugin and upstream, a new user and text per request (so each
               reads an empty history and stores its exchange, as a first chat does).
  LiteLLM      `litellm --config` (bench/issue21_litellm.py's pinned version and settings, its venv
               created when missing, or LITELLM_VENV) on `POST /v1/chat/completions` (SKIP_LITELLM=1
               leaves it out).
  direct       the same chat-completions request sent to the upstream itself.

Measured in every round, the gateways alternating (the order rotates):
  - at 1 connection (wrk): p50 and p99 of each, overhead = gateway minus direct in the same round;
  - at 64 connections (wrk): requests/s and server CPU per request (utime + stime of the process
    tree from /proc);
  - streaming: TTFB_REQUESTS (200) sequential `stream: true` requests, each on a new connection:
    time from the request written to the first `data:` event read, and to the end of the stream
    (connect time excluded), for Parlance, LiteLLM and the upstream directly.
Every answer is checked 2xx and counted at the upstream.

Targets (issue 29): non-streaming overhead within 10 % of /v1/waifu's; <= 1 ms to the first chunk
(over the upstream's own); ahead of LiteLLM on every figure.

Environment: ROUNDS (3), DURATION (5), TTFB_REQUESTS (200), BENCH_NO_BUILD=1, CARGO_TARGET_DIR,
PARLANCE_BIN, LITELLM_VENV, SKIP_LITELLM=1, BENCH_PIN=0.
"""

import json
import os
import signal
import socket
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
import issue21_litellm as lite  # noqa: E402
from common import (  # noqa: E402
    Server,
    Upstream,
    build,
    log,
    loadavg,
    lua_string,
    machine_line,
    median,
    pin_processes,
    placement_line,
    request,
    table,
    verdict,
    wrk,
)

ROUNDS = int(os.environ.get("ROUNDS", "3"))
DURATION = int(os.environ.get("DURATION", "5"))
TTFB_REQUESTS = int(os.environ.get("TTFB_REQUESTS", "200"))
SKIP_LITELLM = os.environ.get("SKIP_LITELLM") == "1"
JSON = {"content-type": "application/json"}
TEXT = "Text %s-%d-%d: Tell me about the quick brown fox."


def completion_body(model, text, stream=False):
    body = {"model": model, "messages": [{"role": "user", "content": text}]}
    if stream:
        body["stream"] = True
    return body


def counter_lua(path, body_template):
    """Every request a fresh text (and user): each `%s-%d-%d` in the template is round, thread and
    counter (Lua's string.format ignores the arguments a template with one leaves over)."""
    return f"""
local counter = 0
function request()
  counter = counter + 1
  local body = string.format({lua_string(body_template)}, round_id, tid or 0, counter, round_id, tid or 0, counter)
  return wrk.format("POST", {lua_string(path)}, {{["content-type"] = "application/json"}}, body)
end
"""


class Gateway:
    """One way to reach the upstream: a name, a port, the process tree to measure, a wrk script."""

    def __init__(self, name, port, pid, path, template, stream_body):
        self.name, self.port, self.pid, self.path = name, port, pid, path
        self.lua = counter_lua(path, template)
        self.stream_body = stream_body

    def once(self, body):
        status, _, data = request(self.port, "POST", self.path, body)
        if status != 200:
            raise RuntimeError(f"{self.name} answered {status}: {data[:300]!r}")
        return data


def parlance_server(binary, upstream):
    return Server(
        env={
            "RATE_LIMIT_REQUESTS_PER_MINUTE": "1000000",
            "PROVIDER_API_KEY": "bench-key",
            "PARLANCE_PLUGIN_OPENAI_CHAT_BASE_URL": f"http://127.0.0.1:{upstream.port}/v1",
        },
        config_text='[chat]\nmodel = "openai-chat"\n',
        binary=binary,
    )


def gateways(server, litellm):
    pid = server.pid
    out = [
        Gateway(
            "completions",
            server.api_port,
            pid,
            "/v1/chat/completions",
            json.dumps(completion_body("openai-chat", TEXT)),
            completion_body("openai-chat", "Stream this, please.", stream=True),
        ),
        Gateway(
            "waifu",
            server.api_port,
            pid,
            "/v1/waifu",
            json.dumps({"user_id": "u-%s-%d-%d", "message": TEXT}),
            None,
        ),
    ]
    if litellm is not None:
        out.append(
            Gateway(
                "LiteLLM",
                litellm.port,
                litellm.pid,
                "/v1/chat/completions",
                json.dumps(completion_body(lite.MODEL, TEXT)),
                completion_body(lite.MODEL, "Stream this, please.", stream=True),
            )
        )
    return out


def run(upstream, gateway, connections, round_id):
    upstream.reset()
    threads = 1 if connections == 1 else 2
    lua = f"round_id = {lua_string(round_id)}\n"
    if gateway is None:
        body = json.dumps(completion_body("bench-model", TEXT))
        lua += counter_lua("/v1/chat/completions", body)
        r = wrk(upstream.port, "/v1/chat/completions", lua, connections, threads, DURATION)
        what = f"direct, {connections} conn"
    else:
        pids = lite.tree_pids(gateway.pid)
        r = wrk(gateway.port, gateway.path, lua + gateway.lua, connections, threads, DURATION, pids=pids)
        r["cpu"] = sum(r["cpu_seconds"])
        what = f"{gateway.name}, {connections} conn"
    r["upstream"] = upstream.stats()
    if r["errors"]:
        log(f"WARNING {what}: {r['errors']} errors ({r['non_2xx']} not 2xx) in {r['requests']} requests")
    if r["upstream"]["requests"] < r["requests"]:
        log(f"WARNING {what}: the upstream counted {r['upstream']['requests']} for {r['requests']} answered")
    return r


def first_event(port, path, body):
    """One streamed request on a new connection: seconds from the request written to the first
    `data:` event read, and to the end of the answer; and whether it ended with `[DONE]`."""
    payload = json.dumps(body).encode()
    head = (
        f"POST {path} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n"
        f"accept: text/event-stream\r\ncontent-length: {len(payload)}\r\nconnection: close\r\n\r\n"
    ).encode()
    with socket.create_connection(("127.0.0.1", port)) as s:
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        started = time.perf_counter()
        s.sendall(head + payload)
        received, first = b"", None
        while True:
            data = s.recv(65536)
            if not data:
                break
            received += data
            if first is None and b"\ndata:" in received:
                first = time.perf_counter() - started
        total = time.perf_counter() - started
    if not received.startswith(b"HTTP/1.1 200") or first is None:
        raise RuntimeError(f"a streamed request to port {port} failed: {received[:300]!r}")
    return first, total, b"data: [DONE]" in received


def ttfb(port, path, body):
    firsts, totals = [], []
    for _ in range(TTFB_REQUESTS):
        first, total, done = first_event(port, path, body)
        if not done:
            raise RuntimeError(f"a stream from port {port} ended without [DONE]")
        firsts.append(first * 1e6)
        totals.append(total * 1e6)
    firsts.sort()
    totals.sort()
    pct = lambda xs, p: xs[min(len(xs) - 1, int(p / 100 * len(xs)))]  # noqa: E731
    return {"p50": median(firsts), "p99": pct(firsts, 99), "total_p50": median(totals)}


def fmt_us(x):
    return "n/a" if x is None or x != x else (f"{x:.0f} us" if abs(x) < 10_000 else f"{x / 1000:.1f} ms")


def main():
    binary = os.environ.get("PARLANCE_BIN") or build()
    litellm_cmd = None if SKIP_LITELLM else lite.ensure_venv()
    pin_processes()
    print(machine_line())
    print(f"binary: {binary}" + ("" if SKIP_LITELLM else f"; LiteLLM {lite.LITELLM_VERSION} ({lite.VENV})"))
    print(placement_line())
    upstream = Upstream("openai", delay_ms=0)
    server = litellm = None
    res = {}
    previous = {s: signal.signal(s, lambda n, _f: sys.exit(128 + n)) for s in (signal.SIGTERM, signal.SIGHUP)}
    try:
        server = parlance_server(binary, upstream)
        if litellm_cmd:
            litellm = lite.LiteLLM(litellm_cmd, upstream)
        gws = gateways(server, litellm)
        # Each path checked once (and warmed up) before anything is measured.
        for g in gws:
            for i in range(50):
                g.once(
                    {"user_id": f"warm-{g.name}-{i}", "message": "Warm up."} if g.name == "waifu"
                    else completion_body("openai-chat" if g.name != "LiteLLM" else lite.MODEL, f"Warm-up {i}.")
                )
            # And at 64 connections, so that the pools (instances, upstream connections) are as
            # warm for the first measured run as for the last.
            wrk(g.port, g.path, "round_id = 'warm'\n" + g.lua, 64, 2, 1)
        names = ["direct"] + [g.name for g in gws]
        res = {n: {1: [], 64: [], "ttfb": []} for n in names}
        for rnd in range(ROUNDS):
            order = gws[rnd % len(gws):] + gws[: rnd % len(gws)]
            log(f"round {rnd + 1}/{ROUNDS}, order {[g.name for g in order]}, load {loadavg()}")
            for conns in (1, 64):
                res["direct"][conns].append(run(upstream, None, conns, f"d{rnd}c{conns}"))
                for g in order:
                    res[g.name][conns].append(run(upstream, g, conns, f"{g.name[0]}{rnd}c{conns}"))
            direct_body = {**completion_body("bench-model", "Stream this, please.", stream=True)}
            res["direct"]["ttfb"].append(ttfb(upstream.port, "/v1/chat/completions", direct_body))
            for g in order:
                if g.stream_body is not None:
                    res[g.name]["ttfb"].append(ttfb(g.port, g.path, g.stream_body))
    finally:
        if litellm is not None:
            litellm.stop()
        if server is not None:
            server.stop()
        upstream.stop()
        for s, h in previous.items():
            signal.signal(s, h)
    report(res)


def report(res):
    d1 = res["direct"][1]
    names = [n for n in ("completions", "waifu", "LiteLLM") if n in res]

    def over(name, pct):
        return median([g[f"{pct}_us"] - d[f"{pct}_us"] for g, d in zip(res[name][1], d1)])

    def cpu(name):
        return median([g["cpu"] / g["requests"] * 1e6 for g in res[name][64]])

    def rps(name):
        return median([g["rps"] for g in res[name][64]])

    def first(name, key):
        return median([t[key] for t in res[name]["ttfb"]]) if res[name]["ttfb"] else None

    rows = []
    for pct in ("p50", "p99"):
        rows.append([f"overhead {pct}, 1 conn (minus direct)"] + [fmt_us(over(n, pct)) for n in names]
                    + [f"direct {fmt_us(median([d[pct + '_us'] for d in d1]))}"])
    rows.append(["requests/s, 64 conn"] + [f"{rps(n):.0f}" for n in names]
                + [f"direct {median([d['rps'] for d in res['direct'][64]]):.0f}"])
    rows.append(["server CPU per request, 64 conn"] + [fmt_us(cpu(n)) for n in names] + [""])
    for key, label in (("p50", "first chunk p50 (streamed)"), ("p99", "first chunk p99"), ("total_p50", "whole stream p50")):
        rows.append([label] + [fmt_us(first(n, key)) for n in names] + [f"direct {fmt_us(first('direct', key))}"])
    print()
    print(f"Parlance POST /v1/chat/completions vs POST /v1/waifu (same server, model openai-chat)"
          + ("" if "LiteLLM" not in res else f" vs LiteLLM {lite.LITELLM_VERSION}")
          + f", one upstream answering at once; medians of {ROUNDS} rounds of {DURATION} s, {TTFB_REQUESTS} streams each")
    table(rows, ["measure"] + names + ["upstream"])
    c50, w50 = over("completions", "p50"), over("waifu", "p50")
    print(f"target: completions overhead p50 {fmt_us(c50)} within 10 % of waifu's {fmt_us(w50)}: "
          f"{verdict(c50 <= w50 * 1.1)}")
    added = first("completions", "p50") - first("direct", "p50")
    print(f"target: first chunk p50 {fmt_us(added)} over the upstream's own (<= 1 ms: {verdict(added <= 1000)})")
    if "LiteLLM" in res:
        ahead = over("completions", "p50") < over("LiteLLM", "p50") and over("completions", "p99") < over("LiteLLM", "p99") \
            and rps("completions") > rps("LiteLLM") and cpu("completions") < cpu("LiteLLM") \
            and first("completions", "p50") < first("LiteLLM", "p50")
        print(f"target: ahead of LiteLLM on every figure: {verdict(ahead)}")
    print(f"load average at the end: {loadavg()}")


if __name__ == "__main__":
    main()
