#!/usr/bin/env python3
"""Issue 28 benchmark: streamed chat replies (`POST /v1/waifu` with `Accept: text/event-stream`, chat
model `openai-chat`) against the plain JSON reply of the same route and against the LiteLLM proxy
streaming the same upstream, in the same run; then thousands of concurrent streams beside another
client's ordinary calls.

One upstream for the whole run, bench/upstream.py `openai-stream`: OpenAI chat completions that stream
`data:` chunks (chunked transfer encoding, `[DONE]`) when asked `"stream": true` and answer one whole
completion otherwise. The user message sets each request's shape, `[chunks=N interval=MS]`: N content
chunks, the first at once, then one every MS. Every chunk's text is `w<i>@<ns> `, <ns> being
CLOCK_MONOTONIC (shared by every process of the machine) just before the upstream wrote it; the text
passes through both gateways unchanged, so the client, reading it, knows how long that chunk took from
the upstream's write to its own read.

Parts (PARTS, default `latency,cpu,capacity`; LiteLLM takes part in `latency` and `cpu` unless
LITELLM=0):

  latency   One connection, sequential, keep-alive; LAT_STREAMS (60) requests per path and round, each a
            stream of LAT_CHUNKS (4) chunks LAT_INTERVAL_MS (20) apart, on three paths: the upstream
            directly, Parlance (SSE `delta` events) and LiteLLM (`POST /v1/chat/completions`,
            `"stream": true`); and the same number of non-streamed requests (one whole completion of
            LAT_CHUNKS words) on each path. Per round, p50 and p99 of:
              - time to the first delta: request written -> first text event read (`delta` for Parlance,
                the first `data:` chunk with text for the others); the added latency is the gateway's
                figure minus the direct one's, same round, same upstream;
              - relay of a chunk (the stamps): upstream's write -> the client's read, the first chunk and
                the later ones apart, minus the same figure read directly from the upstream;
              - the non-streamed reply: request -> whole answer, minus the direct request's.
  cpu       CPU_CONCURRENCY (20) clients; per round and gateway, CPU_STREAMS (200) streams of each size in
            CPU_CHUNKS (10,50), chunks CPU_INTERVAL_MS (10) apart, and CPU_STREAMS non-streamed replies of
            the larger size. Server CPU (utime + stime from /proc; LiteLLM's whole process tree) over each
            batch, read once the last answer is in and 0.3 s has passed. Per delta:
              - marginal: (CPU of the large streams - CPU of the small ones) / (streams x chunk difference),
                the cost of one more delta with everything per stream taken out;
              - against the plain reply: (CPU of the large streams - CPU of as many non-streamed replies
                of the same text) / deltas, which also charges a stream's fixed cost to its deltas.
            CPU is a sum over a batch, so it has no p50/p99 of its own: the median of the rounds is given
            with their range.
  capacity  A fresh Parlance (so its VmHWM is this part's), STREAM_ROUNDS (1) rounds of: another client
            (one process, two keep-alive connections, a call every PACE_MS (5) ms, alternating
            `POST /paraphrase` with the offline provider and a fresh text, and a plain `POST /v1/waifu`)
            for BASE_WINDOW_S (6) s alone; then the same client while STREAMS (2000) streams are opened
            over STREAM_RAMP_S (1) s, each on its own connection, of STREAM_CHUNKS (50) chunks
            STREAM_INTERVAL_MS (100) apart (5 s), spread over STREAM_CLIENTS (4) `current-user` names
            (the default share is a quarter of `max_streams`, 4096, per client). Reported: streams that
            completed (a `done` with indices, every delta, no fallback, no error), the most open at once
            (client side and upstream side), the server's RSS sampled every 100 ms and its VmHWM, its
            CPU, and the time its threads spent on a CPU and waiting on a run queue for one
            (/proc/<pid>/task/*/schedstat, summed over threads: on a shared machine, the second is the
            other tenants' share), stream duration, time to the first delta and chunk relay under that
            load (also by the chunk's place in its stream: the first tenth, while streams are still
            being opened; the middle; the last tenth, while the first ones end and are stored), each
            beside the same streams read straight from the upstream by the same driver, and the other
            client's p50/p99 with and without the streams.

Placement (2 cores): the gateways on the first half of the cores, the load drivers and the upstream on
the other (BENCH_PIN=0 shares every core; CAPACITY_PIN=0 shares them for the capacity part only).

Harness (HARNESS, `python` by default): `rust` runs bench/streamload instead of the Python pieces below
for the whole run: its `upstream` for upstream.py `openai-stream`, `drive` for `--drive` and `paced` for
`--paced`, speaking the same protocols and writing the same JSON. The Python driver and upstream cost
enough per chunk that, sharing one core at 20,000 chunks a second, they set the capacity part's relay
tail themselves (read directly, the same streams relayed slower than through Parlance). Built with
`cargo build --release -p parlance-streamload` into CARGO_TARGET_DIR unless BENCH_NO_BUILD=1.

Environment: PARTS, ROUNDS (3), LITELLM (1), HARNESS (python), BENCH_NO_BUILD=1, CARGO_TARGET_DIR,
PARLANCE_BIN, LITELLM_VENV, LITELLM_START_TIMEOUT, and the knobs above. Python standard library only (LiteLLM goes
into a venv of its own, as bench/issue21_litellm.py does).

Internal modes: `--drive` (the asyncio load driver: a JSON spec on stdin, a JSON result on stdout) and
`--paced` (the other client: runs until its stdin closes).
"""

import asyncio
import http.client
import json
import os
import re
import resource
import signal
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

STAMP = re.compile(rb"w(\d+)@(\d+) ")


def env_int(name, default):
    return int(os.environ.get(name, str(default)))


def env_float(name, default):
    return float(os.environ.get(name, str(default)))


def streamload():
    """The command prefix of bench/streamload for HARNESS=rust (built unless BENCH_NO_BUILD=1), or None
    for the Python harness."""
    harness = os.environ.get("HARNESS", "python")
    if harness == "python":
        return None
    if harness != "rust":
        sys.exit(f"HARNESS={harness}: python or rust")
    from common import REPO, TARGET_DIR, log

    if os.environ.get("BENCH_NO_BUILD") != "1":
        log(f"cargo build --release -p parlance-streamload (target dir {TARGET_DIR})")
        subprocess.run(["cargo", "build", "--quiet", "--release", "-p", "parlance-streamload"], cwd=REPO, check=True,
                       env={**os.environ, "CARGO_TARGET_DIR": TARGET_DIR})
    tool = os.path.join(TARGET_DIR, "release", "streamload")
    if not os.path.exists(tool):
        sys.exit(f"no streamload at {tool} (HARNESS=rust, BENCH_NO_BUILD=1)")
    return [tool]


def raise_nofile():
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


# --- the load driver (its own process) ---------------------------------------------------------------------
#
# Raw HTTP/1.1 over asyncio streams, parsing the response from whole reads (no await per line), so that
# one Python process can hold thousands of streams. A spec:
#   {"port", "requests": [{"path", "headers", "body"}], "concurrency", "reuse" (keep-alive connection per
#    worker, else one connection per request), "ramp_s" (request i starts at i * ramp_s / n), "sse"}
# The result: one record per request, plus the most streams open at once (first delta read, end not yet).


class Response:
    """Incremental parse of one response: head, then a chunked, sized or close-delimited body, read as
    server-sent events when `sse`."""

    def __init__(self, sse):
        self.sse = sse
        self.buf = b""
        self.head = None
        self.status = None
        self.headers = {}
        self.chunked = False
        self.length = None
        self.chunk_left = None  # bytes of the current chunk still to read (+2 for its CRLF)
        self.body = bytearray()  # de-chunked, not yet consumed by the SSE parser
        self.whole = bytearray()  # the whole body, for a non-SSE response
        self.complete = False
        # SSE results
        self.deltas = 0
        self.first_ns = None
        self.stamps = []  # (chunk index, upstream ns, read ns)
        self.done = False
        self.done_data = None
        self.error = None
        self.comments = 0

    def feed(self, data, now):
        self.buf += data
        if self.head is None:
            end = self.buf.find(b"\r\n\r\n")
            if end < 0:
                return
            head = self.buf[:end].decode("latin-1").split("\r\n")
            self.buf = self.buf[end + 4 :]
            self.head = head
            self.status = int(head[0].split(" ", 2)[1])
            for line in head[1:]:
                name, _, value = line.partition(":")
                self.headers[name.strip().lower()] = value.strip()
            self.chunked = "chunked" in self.headers.get("transfer-encoding", "").lower()
            if not self.chunked and "content-length" in self.headers:
                self.length = int(self.headers["content-length"])
        if self.chunked:
            self._dechunk()
        else:
            self.body += self.buf
            self.buf = b""
            if self.length is not None and len(self.body) + len(self.whole) >= self.length:
                self.complete = True
        if self.sse and self.status == 200:
            self._events(now)
        else:
            self.whole += self.body
            self.body = bytearray()

    def eof(self, now):
        if not self.chunked and self.length is None and self.head is not None:
            self.complete = True
        if self.sse:
            self._events(now)

    def _dechunk(self):
        buf = self.buf
        pos = 0
        while True:
            if self.chunk_left is None:
                end = buf.find(b"\r\n", pos)
                if end < 0:
                    break
                size = int(buf[pos:end].split(b";")[0], 16)
                if size == 0:
                    # The last chunk: no trailers are expected, only the final CRLF.
                    if len(buf) - (end + 2) >= 2:
                        pos = end + 4
                        self.complete = True
                    break
                pos = end + 2
                self.chunk_left = size + 2
            take = min(self.chunk_left, len(buf) - pos)
            if take <= 0:
                break
            piece = buf[pos : pos + take]
            self.chunk_left -= take
            pos += take
            if self.chunk_left < 2:
                # The piece includes (part of) the chunk's CRLF.
                piece = piece[: len(piece) - (2 - self.chunk_left)]
            self.body += piece
            if self.chunk_left == 0:
                self.chunk_left = None
        self.buf = buf[pos:]

    def _events(self, now):
        body = self.body
        start = 0
        while True:
            end = body.find(b"\n\n", start)
            if end < 0:
                break
            block = bytes(body[start:end])
            start = end + 2
            if block.startswith(b":"):
                self.comments += 1
                continue
            name = b"message"
            data = b""
            for line in block.split(b"\n"):
                if line.startswith(b"event:"):
                    name = line[6:].strip()
                elif line.startswith(b"data:"):
                    data += line[5:].strip()
            if name == b"done":
                self.done = True
                self.done_data = data
            elif name == b"error":
                self.error = data[:300].decode("utf-8", "replace")
            elif data == b"[DONE]":
                self.done = True
            else:
                found = STAMP.findall(data)
                if found:
                    if self.first_ns is None:
                        self.first_ns = now
                    self.deltas += 1
                    for index, stamp in found:
                        self.stamps.append((int(index), now - int(stamp)))
        del body[:start]


async def drive(spec):
    raise_nofile()
    port = spec["port"]
    sse = spec.get("sse", True)
    reuse = spec.get("reuse", True)
    reqs = spec["requests"]
    n = len(reqs)
    ramp = spec.get("ramp_s", 0.0)
    raw = []
    for r in reqs:
        body = json.dumps(r["body"]).encode()
        head = f"POST {r['path']} HTTP/1.1\r\nhost: 127.0.0.1:{port}\r\ncontent-type: application/json\r\n"
        head += f"content-length: {len(body)}\r\n"
        for k, v in r.get("headers", {}).items():
            head += f"{k}: {v}\r\n"
        if not reuse:
            head += "connection: close\r\n"
        raw.append(head.encode() + b"\r\n" + body)
    results = [None] * n
    state = {"next": 0, "open": 0, "max_open": 0}
    t0 = time.monotonic()

    async def one(i, conn):
        reader, writer = conn
        resp = Response(sse)
        rec = {"i": i}
        opened = False
        try:
            sent = time.monotonic_ns()
            writer.write(raw[i])
            while not resp.complete:
                data = await reader.read(65536)
                now = time.monotonic_ns()
                if not data:
                    resp.eof(now)
                    break
                resp.feed(data, now)
                if not opened and resp.first_ns is not None:
                    opened = True
                    state["open"] += 1
                    state["max_open"] = max(state["max_open"], state["open"])
            end = time.monotonic_ns()
            rec.update(
                status=resp.status,
                total_ns=end - sent,
                first_ns=(resp.first_ns - sent) if resp.first_ns else None,
                deltas=resp.deltas,
                done=resp.done,
                error=resp.error,
                fallback=resp.headers.get("x-parlance-fallback"),
                complete=resp.complete,
                comments=resp.comments,
            )
            if resp.stamps:
                rec["first_lag_ns"] = resp.stamps[0][1]
                rec["lags_ns"] = [lag for _idx, lag in resp.stamps[1:]]
                if spec.get("lag_index"):
                    rec["lag_idx"] = [idx for idx, _lag in resp.stamps[1:]]
            if resp.done_data is not None:
                try:
                    done = json.loads(resp.done_data)
                    rec["done_fallback"] = done.get("fallback")
                    rec["indices"] = done.get("indices")
                except ValueError:
                    rec["error"] = f"bad done event: {resp.done_data[:200]!r}"
            if not sse:
                rec["body"] = bytes(resp.whole[:400]).decode("utf-8", "replace")
        except Exception as e:  # noqa: BLE001 - recorded per request
            rec["error"] = f"{type(e).__name__}: {e}"
            rec["status"] = resp.status
            rec["deltas"] = resp.deltas
            resp.complete = False
        finally:
            if opened:
                state["open"] -= 1
        results[i] = rec
        return resp.complete and not resp.headers.get("connection", "").lower() == "close"

    async def worker():
        conn = None
        while True:
            i = state["next"]
            if i >= n:
                break
            state["next"] += 1
            if ramp > 0:
                wait = t0 + i * ramp / n - time.monotonic()
                if wait > 0:
                    await asyncio.sleep(wait)
            if conn is None:
                try:
                    conn = await asyncio.open_connection("127.0.0.1", port, limit=1 << 20)
                except OSError as e:
                    results[i] = {"i": i, "error": f"connect: {e}", "deltas": 0}
                    continue
            reusable = await one(i, conn)
            if not (reuse and reusable):
                conn[1].close()
                conn = None
        if conn is not None:
            conn[1].close()

    workers = min(spec.get("concurrency", 1), n)
    await asyncio.gather(*(worker() for _ in range(workers)))
    return {"results": results, "max_open": state["max_open"], "seconds": time.monotonic() - t0}


def drive_main():
    spec = json.load(sys.stdin)
    out = asyncio.run(drive(spec))
    json.dump(out, sys.stdout)


# --- the other client (its own process) --------------------------------------------------------------------


def paced_main():
    """Alternates `POST /paraphrase` (offline provider, a fresh text) and a plain `POST /v1/waifu` (a fresh
    user), PACE_MS apart, on two keep-alive connections, until its stdin closes; prints the latencies."""
    spec = json.loads(sys.stdin.readline())
    stop = threading.Event()
    threading.Thread(target=lambda: (sys.stdin.read(), stop.set()), daemon=True).start()
    pace = spec["pace_ms"] / 1000
    tag = spec["tag"]
    conns = {
        "paraphrase": http.client.HTTPConnection("127.0.0.1", spec["api_port"], timeout=60),
        "waifu": http.client.HTTPConnection("127.0.0.1", spec["chat_port"], timeout=60),
    }
    lat = {"paraphrase": [], "waifu": []}
    errors = []
    n = 0
    headers = {"content-type": "application/json", "current-user": "other-client"}
    while not stop.is_set():
        kind = "paraphrase" if n % 2 == 0 else "waifu"
        if kind == "paraphrase":
            path = "/paraphrase"
            body = {"text": f"Note {tag}-{n}: the quick brown fox jumps over the lazy dog.", "provider": "offline"}
        else:
            path = "/v1/waifu"
            body = {"user_id": f"other-{tag}-{n}", "message": "Hello there [chunks=20 interval=0]"}
        data = json.dumps(body).encode()
        started = time.perf_counter()
        try:
            conn = conns[kind]
            conn.request("POST", path, body=data, headers=headers)
            r = conn.getresponse()
            payload = r.read()
            took = time.perf_counter() - started
            if r.status != 200 or r.getheader("x-parlance-fallback"):
                errors.append(f"{kind} {r.status} {payload[:200]!r}")
            else:
                lat[kind].append(took * 1e6)
        except (OSError, http.client.HTTPException) as e:
            errors.append(f"{kind} {type(e).__name__}: {e}")
            conns[kind].close()
        n += 1
        stop.wait(pace)
    json.dump({"latency_us": lat, "errors": errors[:20], "error_count": len(errors)}, sys.stdout)


# --- the benchmark -----------------------------------------------------------------------------------------------


def main():
    import common
    from common import (
        Server,
        Upstream,
        build,
        loadavg,
        log,
        machine_line,
        median,
        pin_processes,
        pinned,
        placement_line,
        request,
        table,
        verdict,
    )

    parts = os.environ.get("PARTS", "latency,cpu,capacity").split(",")
    rounds = env_int("ROUNDS", 3)
    with_litellm = os.environ.get("LITELLM", "1") != "0" and ("latency" in parts or "cpu" in parts)
    lat_streams = env_int("LAT_STREAMS", 60)
    lat_chunks = env_int("LAT_CHUNKS", 4)
    lat_interval = env_float("LAT_INTERVAL_MS", 20)
    cpu_streams = env_int("CPU_STREAMS", 200)
    cpu_conc = env_int("CPU_CONCURRENCY", 20)
    cpu_sizes = [int(x) for x in os.environ.get("CPU_CHUNKS", "10,50").split(",")]
    cpu_interval = env_float("CPU_INTERVAL_MS", 10)
    streams = env_int("STREAMS", 2000)
    stream_chunks = env_int("STREAM_CHUNKS", 50)
    stream_interval = env_float("STREAM_INTERVAL_MS", 100)
    stream_ramp = env_float("STREAM_RAMP_S", 1.0)
    stream_clients = env_int("STREAM_CLIENTS", 4)
    stream_rounds = env_int("STREAM_ROUNDS", 1)
    pace_ms = env_float("PACE_MS", 5)
    base_window = env_float("BASE_WINDOW_S", 6)

    raise_nofile()
    binary = os.environ.get("PARLANCE_BIN") or build()
    tool = streamload()
    litellm_cmd = None
    if with_litellm:
        import issue21_litellm

        try:
            litellm_cmd = issue21_litellm.ensure_venv()
        except (subprocess.CalledProcessError, SystemExit) as e:
            log(f"WARNING LiteLLM could not be installed ({e}); running without it")
            with_litellm = False
    pin_processes()
    print(machine_line())
    print(f"binary: {binary}")
    print(placement_line())
    print(f"harness: {'bench/streamload (Rust)' if tool else 'Python (upstream.py, --drive, --paced)'}")
    me = os.path.abspath(__file__)
    drive_cmd = [*tool, "drive"] if tool else [sys.executable, me, "--drive"]
    paced_cmd = [*tool, "paced"] if tool else [sys.executable, me, "--paced"]

    def run_driver(port, reqs, concurrency=1, reuse=True, ramp=0.0, sse=True, cpus="client", lag_index=False):
        spec = {"port": port, "requests": reqs, "concurrency": concurrency, "reuse": reuse, "ramp_s": ramp, "sse": sse,
                "lag_index": lag_index}
        cpu_list = common.CLIENT_CPUS if cpus == "client" else None
        out = subprocess.run(
            pinned(drive_cmd, cpu_list),
            input=json.dumps(spec),
            capture_output=True,
            text=True,
        )
        if out.returncode != 0:
            raise RuntimeError(f"driver failed: {out.stderr[-2000:]}")
        return json.loads(out.stdout)

    upstream = Upstream("openai-stream", 0, ["--chunks", "20", "--interval-ms", "0"],
                        program=[*tool, "upstream"] if tool else None)
    log(f"upstream openai-stream on port {upstream.port}")
    config = '[chat]\nmodel = "openai-chat"\n'
    server_env = {
        "PROVIDER_API_KEY": "sk-x",
        "PARLANCE_PLUGIN_OPENAI_CHAT_BASE_URL": f"http://127.0.0.1:{upstream.port}/v1",
        "RATE_LIMIT_REQUESTS_PER_MINUTE": "1000000",
    }

    def shape(chunks, interval):
        return f"[chunks={chunks} interval={interval:g}]"

    # Request builders per path. `i` makes every user and text fresh.
    def parlance_req(tag, i, chunks, interval, stream, client="bench"):
        headers = {"current-user": client}
        if stream:
            headers["accept"] = "text/event-stream"
        return {
            "path": "/v1/waifu",
            "headers": headers,
            "body": {"user_id": f"{tag}-{i}", "message": f"Hello number {i} {shape(chunks, interval)}"},
        }

    def openai_body(i, chunks, interval, stream, model):
        body = {
            "model": model,
            "messages": [
                {"role": "system", "content": "You are Waifu, talking with User in a Romance story. Stay in character."},
                {"role": "user", "content": f"Hello number {i} {shape(chunks, interval)}"},
            ],
        }
        if stream:
            body["stream"] = True
        return body

    def direct_req(i, chunks, interval, stream):
        return {
            "path": "/v1/chat/completions",
            "headers": {"authorization": "Bearer sk-x"},
            "body": openai_body(i, chunks, interval, stream, "bench-model"),
        }

    def litellm_req(i, chunks, interval, stream):
        return {"path": "/v1/chat/completions", "headers": {}, "body": openai_body(i, chunks, interval, stream, MODEL)}

    def pct(xs, p):
        xs = sorted(x for x in xs if x is not None)
        if not xs:
            return float("nan")
        return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]

    def check(results, what, stream, chunks):
        """Counts the requests that did not end as they should; logs the first problem."""
        bad = []
        for r in results:
            problem = None
            if r is None:
                problem = "no result"
            elif r.get("error"):
                problem = r["error"]
            elif r.get("status") != 200:
                problem = f"status {r.get('status')}"
            elif r.get("fallback") or r.get("done_fallback"):
                problem = "fallback"
            elif stream and (not r.get("done") or r.get("deltas") != chunks):
                problem = f"{r.get('deltas')} deltas of {chunks}, done {r.get('done')}"
            elif not stream and "w0@" not in r.get("body", ""):
                problem = f"answer {r.get('body', '')[:120]!r}"
            if problem:
                bad.append(problem)
        if bad:
            log(f"WARNING {what}: {len(bad)} of {len(results)} requests failed, the first: {bad[0]}")
        return len(bad)

    MODEL = "bench-chat"
    litellm = None
    parlance = None
    res = {"lat": [], "cpu": [], "idle": {}}
    capacity = None
    previous = {s: signal.signal(s, lambda n, _f: sys.exit(128 + n)) for s in (signal.SIGTERM, signal.SIGHUP)}
    try:
        if "latency" in parts or "cpu" in parts:
            parlance = Server(env=server_env, config_text=config, binary=binary)
            log(f"Parlance ready in {parlance.ready_seconds * 1000:.0f} ms")
            if with_litellm:
                try:
                    litellm = start_litellm(litellm_cmd, upstream.port, MODEL)
                except RuntimeError as e:
                    log(f"WARNING LiteLLM did not start: {str(e)[:1500]}")
                    litellm = None
                    with_litellm = False

            paths = {
                "direct": (upstream.port, direct_req, None),
                "Parlance": (parlance.chat_port, None, parlance.pid),
            }
            if litellm:
                paths["LiteLLM"] = (litellm.port, litellm_req, litellm.pid)

            def build_reqs(name, tag, n, chunks, interval, stream):
                if name == "Parlance":
                    return [parlance_req(tag, i, chunks, interval, stream) for i in range(n)]
                return [paths[name][1](i, chunks, interval, stream) for i in range(n)]

            # Check and warm each path.
            for name, (port, _b, _pid) in paths.items():
                for stream in (True, False):
                    out = run_driver(port, build_reqs(name, f"warm{int(stream)}", 30, 3, 1, stream), sse=stream)
                    bad = check(out["results"], f"warm-up of {name}, stream={stream}", stream, 3)
                    if bad == len(out["results"]):
                        raise RuntimeError(f"{name} answered no request (stream={stream}): {out['results'][0]}")
            if parlance:
                sample = request(parlance.chat_port, "GET", "/v1/user/dialog/json/warm1-0",
                                 headers={"current-user": "bench"})
                log(f"a stored dialog after a stream: {sample[0]} {sample[2][:200]!r}")

            names = list(paths)
            idle = {}
            if "cpu" in parts:
                # What each gateway spends doing nothing (LiteLLM's background tasks), per second; taken
                # out of each batch for its duration.
                for name in names[1:]:
                    pids = tree_pids(paths[name][2])
                    before = sum(safe_cpu(p) for p in pids)
                    time.sleep(5)
                    idle[name] = (sum(safe_cpu(p) for p in pids) - before) / 5
                    log(f"{name} idle: {idle[name] * 1000:.1f} ms of CPU per second")
            res["idle"] = idle
            for rnd in range(rounds):
                order = names if rnd % 2 == 0 else list(reversed(names))
                if "latency" in parts:
                    log(f"latency round {rnd + 1}/{rounds}, order {order}, load {loadavg()}")
                    row = {}
                    for name in order:
                        port = paths[name][0]
                        for stream in (True, False):
                            reqs = build_reqs(name, f"l{rnd}s{int(stream)}", lat_streams, lat_chunks, lat_interval, stream)
                            out = run_driver(port, reqs, sse=stream)
                            rs = out["results"]
                            check(rs, f"latency {name} stream={stream}", stream, lat_chunks)
                            ok = [r for r in rs if r and r.get("status") == 200 and not r.get("error")]
                            if stream:
                                row[(name, "first")] = [r["first_ns"] / 1e3 for r in ok if r.get("first_ns")]
                                row[(name, "relay0")] = [r["first_lag_ns"] / 1e3 for r in ok if "first_lag_ns" in r]
                                row[(name, "relay")] = [x / 1e3 for r in ok for x in r.get("lags_ns", [])]
                            else:
                                row[(name, "plain")] = [r["total_ns"] / 1e3 for r in ok]
                    res["lat"].append(row)
                if "cpu" in parts:
                    log(f"cpu round {rnd + 1}/{rounds}, order {order}, load {loadavg()}")
                    for name in order:
                        if name == "direct":
                            continue
                        port, _b, pid = paths[name]
                        entry = {"name": name}
                        for label, chunks, stream in [("plain", cpu_sizes[-1], False)] + [
                            (f"s{c}", c, True) for c in cpu_sizes
                        ]:
                            reqs = build_reqs(name, f"c{rnd}{label}", cpu_streams, chunks, cpu_interval, stream)
                            pids = tree_pids(pid)
                            before = sum(safe_cpu(p) for p in pids)
                            started = time.monotonic()
                            out = run_driver(port, reqs, concurrency=cpu_conc, sse=stream)
                            time.sleep(0.3)
                            after = sum(safe_cpu(p) for p in tree_pids(pid))
                            after -= idle.get(name, 0) * (time.monotonic() - started)
                            bad = check(out["results"], f"cpu {name} {label}", stream, chunks)
                            entry[label] = {"cpu": after - before, "n": cpu_streams, "chunks": chunks, "bad": bad,
                                            "seconds": out["seconds"]}
                        res["cpu"].append(entry)

        if "capacity" in parts:
            if parlance:
                parlance.stop()
                parlance = None
            if litellm:
                litellm.stop()
                litellm = None
            if os.environ.get("CAPACITY_PIN", "1") == "0":
                common.SERVER_CPUS = common.CLIENT_CPUS = None
            capacity = run_capacity(
                common, binary, server_env, config, upstream, run_driver, parlance_req, direct_req,
                streams=streams, chunks=stream_chunks, interval=stream_interval, ramp=stream_ramp,
                clients=stream_clients, rounds=stream_rounds, pace_ms=pace_ms, base_window=base_window,
                check=check, pct=pct, paced_cmd=paced_cmd,
            )
    finally:
        if litellm:
            litellm.stop()
        if parlance:
            parlance.stop()
        upstream.stop()
        for s, h in previous.items():
            signal.signal(s, h)

    report(res, capacity, dict(
        rounds=rounds, lat_streams=lat_streams, lat_chunks=lat_chunks, lat_interval=lat_interval,
        cpu_streams=cpu_streams, cpu_conc=cpu_conc, cpu_sizes=cpu_sizes, cpu_interval=cpu_interval,
        litellm=with_litellm, pct=pct, median=median, table=table, verdict=verdict, loadavg=loadavg,
    ))


# --- LiteLLM -------------------------------------------------------------------------------------------------------


def start_litellm(litellm_cmd, upstream_port, model):
    """The LiteLLM proxy of bench/issue21_litellm.py (one worker, no database, no key, logs off), with one
    model `model` at the upstream."""
    import issue21_litellm

    class Up:
        port = upstream_port

    saved = issue21_litellm.MODEL
    issue21_litellm.MODEL = model
    try:
        return issue21_litellm.LiteLLM(litellm_cmd, Up)
    finally:
        issue21_litellm.MODEL = saved


def tree_pids(pid):
    import issue21_litellm

    return issue21_litellm.tree_pids(pid)


def safe_cpu(pid):
    from common import proc_cpu_seconds

    try:
        return proc_cpu_seconds(pid)
    except OSError:
        return 0.0


# --- the 2,000-stream run ---------------------------------------------------------------------------------------------


def run_capacity(common, binary, server_env, config, upstream, run_driver, parlance_req, direct_req, *, streams,
                 chunks, interval, ramp, clients, rounds, pace_ms, base_window, check, pct, paced_cmd):
    from common import Server, log, loadavg, pinned, request

    server = Server(env=server_env, config_text=config, binary=binary)
    out = {"rounds": [], "streams": streams, "chunks": chunks, "interval": interval, "ramp": ramp,
           "clients": clients, "pace_ms": pace_ms, "placement": common.placement_line()}
    try:
        # Warm-up: plain chats, paraphrases, a few streams.
        run_driver(server.chat_port, [parlance_req("cwarm", i, 5, 1, True) for i in range(40)], concurrency=8)
        run_driver(server.chat_port, [parlance_req("cwarmp", i, 5, 1, False) for i in range(40)], concurrency=8,
                   sse=False)
        for i in range(40):
            request(server.api_port, "POST", "/paraphrase", {"text": f"Warm-up {i}: the lazy dog.", "provider": "offline"})
        out["rss_ready_kib"] = server.rss_kib()
        log(f"capacity: server RSS after warm-up {out['rss_ready_kib'] / 1024:.1f} MiB")

        def paced(tag, seconds=None):
            proc = subprocess.Popen(
                pinned(paced_cmd, common.CLIENT_CPUS),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
            )
            proc.stdin.write(json.dumps({"api_port": server.api_port, "chat_port": server.chat_port,
                                         "pace_ms": pace_ms, "tag": tag}) + "\n")
            proc.stdin.flush()
            return proc

        def finish(proc):
            proc.stdin.close()
            data = json.loads(proc.stdout.read())
            proc.wait()
            return data

        for rnd in range(rounds):
            log(f"capacity round {rnd + 1}/{rounds}: the other client alone for {base_window:g} s, load {loadavg()}")
            p = paced(f"b{rnd}")
            time.sleep(base_window)
            alone = finish(p)

            log(f"capacity round {rnd + 1}/{rounds}: {streams} streams of {chunks} chunks {interval:g} ms apart, "
                f"opened over {ramp:g} s, beside the other client")
            upstream.reset()
            samples = []
            stop = threading.Event()

            def sample():
                while not stop.is_set():
                    try:
                        samples.append((time.monotonic(), server.rss_kib()))
                    except OSError:
                        pass
                    stop.wait(0.1)

            sampler = threading.Thread(target=sample, daemon=True)
            cpu0 = server.cpu_seconds()
            up_cpu0 = upstream.cpu_seconds()
            sched0 = schedstat(server.pid)
            t0 = time.monotonic()
            sampler.start()
            p = paced(f"s{rnd}")
            reqs = [parlance_req(f"cap{rnd}", i, chunks, interval, True, client=f"client-{i % clients}")
                    for i in range(streams)]
            drv = run_driver(server.chat_port, reqs, concurrency=streams, reuse=False, ramp=ramp, lag_index=True)
            sched1 = schedstat(server.pid)
            busy = finish(p)
            elapsed = time.monotonic() - t0
            stop.set()
            sampler.join()
            cpu = server.cpu_seconds() - cpu0
            up_cpu = upstream.cpu_seconds() - up_cpu0
            rs = drv["results"]
            bad = check(rs, f"capacity round {rnd + 1}", True, chunks)
            errors = {}
            for r in rs:
                if r and (r.get("error") or r.get("status") != 200):
                    key = (r.get("error") or f"status {r.get('status')}")[:120]
                    errors[key] = errors.get(key, 0) + 1
            ok = [r for r in rs if r and r.get("status") == 200 and not r.get("error")]
            complete = [r for r in ok if r.get("done") and r.get("deltas") == chunks and r.get("indices")
                        and not r.get("done_fallback")]
            rnd_out = {
                "alone": alone,
                "busy": busy,
                "completed": len(complete),
                "failed": bad,
                "errors": errors,
                "max_open_client": drv["max_open"],
                "upstream": upstream.stats(),
                "rss_peak_sampled_kib": max((s[1] for s in samples), default=None),
                "rss_after_kib": server.rss_kib(),
                "hwm_kib": server.hwm_kib(),
                "cpu_s": cpu,
                "sched": (sched1[0] - sched0[0], sched1[1] - sched0[1]) if sched0 and sched1 else None,
                "upstream_cpu_s": up_cpu,
                "elapsed_s": elapsed,
                "driver_s": drv["seconds"],
                "duration_ms": [r["total_ns"] / 1e6 for r in ok],
                "first_ms": [r["first_ns"] / 1e6 for r in ok if r.get("first_ns")],
                "relay_ms": [x / 1e6 for r in ok for x in r.get("lags_ns", [])],
                "comments": sum(r.get("comments", 0) for r in ok),
                "relay_by_part": relay_by_part(ok, chunks),
            }
            # The baseline: as many streams read straight from the upstream, by the same driver.
            time.sleep(1)
            upstream.reset()
            log(f"capacity round {rnd + 1}/{rounds}: {streams} streams straight from the upstream")
            direct = run_driver(upstream.port, [direct_req(i, chunks, interval, True) for i in range(streams)],
                                concurrency=streams, reuse=False, ramp=ramp, lag_index=True)
            dok = [r for r in direct["results"] if r and r.get("status") == 200 and not r.get("error")]
            rnd_out["direct"] = {
                "completed": sum(1 for r in dok if r.get("done") and r.get("deltas") == chunks),
                "max_open": direct["max_open"],
                "duration_ms": [r["total_ns"] / 1e6 for r in dok],
                "first_ms": [r["first_ns"] / 1e6 for r in dok if r.get("first_ns")],
                "relay_ms": [x / 1e6 for r in dok for x in r.get("lags_ns", [])],
                "relay_by_part": relay_by_part(dok, chunks),
            }
            out["rounds"].append(rnd_out)
            log(f"capacity round {rnd + 1}: {len(complete)}/{streams} complete, most open {drv['max_open']}, "
                f"RSS peak {rnd_out['rss_peak_sampled_kib'] / 1024:.1f} MiB, server CPU {cpu:.1f} s in {elapsed:.1f} s")
            time.sleep(2)
        status, _, metrics = request(server.api_port, "GET", "/metrics")
        out["cancelled"] = [line for line in metrics.decode().splitlines()
                            if line.startswith("parlance_streams_cancelled") and not line.endswith(" 0")]
        out["hwm_kib"] = server.hwm_kib()
        out["rss_end_kib"] = server.rss_kib()
        # Every completed stream's exchange is stored: sample a few dialogs.
        stored = 0
        for i in range(0, streams, max(1, streams // 20)):
            s, _, body = request(server.chat_port, "GET", f"/v1/user/dialog/json/cap0-{i}",
                                 headers={"current-user": f"client-{i % clients}"})
            if s == 200 and len(json.loads(body).get("dialog", [])) == 2:
                stored += 1
        out["stored_sample"] = (stored, len(range(0, streams, max(1, streams // 20))))
    finally:
        server.stop()
    return out


def schedstat(pid):
    """Seconds the process's live threads have spent on a CPU and waiting on a run queue for one
    (/proc/<pid>/task/*/schedstat): the second is time the process was ready to run and another
    process had the CPU."""
    on = wait = 0
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return None
    for tid in tasks:
        try:
            with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                fields = f.read().split()
            on += int(fields[0])
            wait += int(fields[1])
        except (OSError, IndexError, ValueError):
            pass
    return on / 1e9, wait / 1e9


def relay_by_part(results, chunks):
    """Chunk relay in ms by where the chunk falls in its stream: its first tenth (while the other streams
    are still being opened), the middle, and the last tenth (while the first ones end and are stored)."""
    tenth = max(1, chunks // 10)
    parts = {"start": [], "middle": [], "end": []}
    for r in results:
        for idx, lag in zip(r.get("lag_idx", []), r.get("lags_ns", [])):
            part = "start" if idx < tenth else "end" if idx >= chunks - tenth else "middle"
            parts[part].append(lag / 1e6)
    return parts


# --- the report ----------------------------------------------------------------------------------------------------------


def fmt_us(x):
    if x != x:
        return "n/a"
    return f"{x:.0f} us" if abs(x) < 10_000 else f"{x / 1000:.1f} ms"


def report(res, capacity, k):
    pct, median, table, verdict = k["pct"], k["median"], k["table"], k["verdict"]
    names = ["Parlance"] + (["LiteLLM"] if k["litellm"] else [])
    lat = res["lat"]
    if lat:
        print()
        print(f"Time to the first delta and chunk relay, 1 connection, {k['lat_streams']} requests per path and round, "
              f"streams of {k['lat_chunks']} chunks {k['lat_interval']:g} ms apart; medians of {len(lat)} rounds of "
              f"(gateway's percentile minus the direct one's, same round)")
        rows = []
        added = {}
        for name in names:
            for metric, label in [("first", "added time to the first delta"),
                                  ("relay0", "added relay of the first chunk (stamps)"),
                                  ("relay", "added relay of a later chunk (stamps)"),
                                  ("plain", "added latency of the non-streamed reply")]:
                for p in (50, 99):
                    diffs = [pct(r[(name, metric)], p) - pct(r[("direct", metric)], p) for r in lat]
                    raw = [pct(r[(name, metric)], p) for r in lat]
                    direct = [pct(r[("direct", metric)], p) for r in lat]
                    added[(name, metric, p)] = median(diffs)
                    rows.append([name, f"{label}, p{p}", fmt_us(median(diffs)),
                                 f"{fmt_us(median(raw))} vs direct {fmt_us(median(direct))}"])
        table(rows, ["gateway", "measure", "added", "gateway vs direct (medians)"])
        for p in (50, 99):
            a = added[("Parlance", "first", p)]
            print(f"issue 28 target, added time to the first delta p{p} {fmt_us(a)} (<= 1 ms: {verdict(a <= 1000)})")
    cpu = res["cpu"]
    if cpu:
        small, large = k["cpu_sizes"][0], k["cpu_sizes"][-1]
        print()
        print(f"Server CPU, {k['cpu_streams']} requests per batch at {k['cpu_conc']} connections, chunks "
              f"{k['cpu_interval']:g} ms apart; medians of {len(cpu) // len(names)} rounds [min-max]")
        rows = []
        per_delta = {}
        for name in names:
            es = [e for e in cpu if e["name"] == name]

            def agg(xs):
                return f"{fmt_us(median(xs))} [{fmt_us(min(xs))}-{fmt_us(max(xs))}]"

            plain = [e["plain"]["cpu"] / e["plain"]["n"] * 1e6 for e in es]
            s_small = [e[f"s{small}"]["cpu"] / e[f"s{small}"]["n"] * 1e6 for e in es]
            s_large = [e[f"s{large}"]["cpu"] / e[f"s{large}"]["n"] * 1e6 for e in es]
            marginal = [(e[f"s{large}"]["cpu"] - e[f"s{small}"]["cpu"]) / (e["plain"]["n"] * (large - small)) * 1e6
                        for e in es]
            vs_plain = [(e[f"s{large}"]["cpu"] - e["plain"]["cpu"]) / (e["plain"]["n"] * large) * 1e6 for e in es]
            per_delta[name] = (median(marginal), median(vs_plain))
            rows.append([name, f"non-streamed reply of {large} words, per reply", agg(plain)])
            rows.append([name, f"stream of {small} deltas, per stream", agg(s_small)])
            rows.append([name, f"stream of {large} deltas, per stream", agg(s_large)])
            rows.append([name, f"per delta, marginal ({large} vs {small} deltas)", agg(marginal)])
            rows.append([name, f"per delta, stream of {large} minus the non-streamed reply", agg(vs_plain)])
            bad = sum(e[x]["bad"] for e in es for x in e if x != "name")
            rows.append([name, "requests that failed", str(bad)])
        table(rows, ["gateway", "server CPU", "median [min-max]"])
        print("idle CPU taken out of each batch for its duration: " +
              ", ".join(f"{n} {v * 1000:.1f} ms/s" for n, v in res["idle"].items()))
        m, v = per_delta["Parlance"]
        print(f"issue 28 target, server CPU per delta {fmt_us(m)} marginal, {fmt_us(v)} against the plain reply "
              f"(<= 50 us: {verdict(max(m, v) <= 50)})")
        if "LiteLLM" in per_delta:
            lm, lv = per_delta["LiteLLM"]
            print(f"LiteLLM / Parlance per delta: {lm / m:.1f}x marginal, {lv / v:.1f}x against the plain reply")
    if capacity:
        c = capacity
        print()
        print(f"{c['streams']} concurrent streams of {c['chunks']} chunks {c['interval']:g} ms apart, opened over "
              f"{c['ramp']:g} s from {c['clients']} clients; the other client a call every {c['pace_ms']:g} ms; "
              f"{c['placement']}")
        rows = []
        for i, r in enumerate(c["rounds"]):
            tag = f"round {i + 1}"
            rows.append([tag, "streams complete (done, every delta, stored indices)", f"{r['completed']} / {c['streams']}"])
            rows.append([tag, "streams failed", f"{r['failed']} {r['errors'] if r['errors'] else ''}".strip()])
            rows.append([tag, "most open at once: client / upstream",
                         f"{r['max_open_client']} / {r['upstream']['max_open_streams']}"])
            rows.append([tag, "upstream: streams completed / cut off",
                         f"{r['upstream']['streams_completed']} / {r['upstream']['streams_cut']}"])
            rows.append([tag, "server RSS peak (sampled every 100 ms) / after",
                         f"{r['rss_peak_sampled_kib'] / 1024:.1f} / {r['rss_after_kib'] / 1024:.1f} MiB"])
            rows.append([tag, "server CPU / upstream CPU over the window",
                         f"{r['cpu_s']:.1f} s / {r['upstream_cpu_s']:.1f} s in {r['elapsed_s']:.1f} s"])
            d = r["direct"]

            def both(key, fmt, r=r, d=d):
                return (f"{fmt(pct(r[key], 50))} / {fmt(pct(r[key], 99))} / {fmt(max(r[key], default=float('nan')))}"
                        f"   (direct {fmt(pct(d[key], 50))} / {fmt(pct(d[key], 99))} / "
                        f"{fmt(max(d[key], default=float('nan')))})")

            if r.get("sched"):
                rows.append([tag, "server threads while the streams ran: on a CPU / waiting for one",
                             f"{r['sched'][0]:.1f} s / {r['sched'][1]:.1f} s"])
            rows.append([tag, "stream duration p50 / p99 / max", both("duration_ms", lambda x: f"{x:.0f} ms")])
            rows.append([tag, "time to the first delta p50 / p99 / max", both("first_ms", lambda x: f"{x:.1f} ms")])
            rows.append([tag, "chunk relay (upstream write -> client read) p50 / p99 / max",
                         both("relay_ms", lambda x: f"{x:.2f} ms")])
            for part in ("start", "middle", "end"):
                if not r["relay_by_part"][part]:
                    continue
                rows.append([tag, f"  chunk relay, {part} of the streams p50 / p99",
                             f"{pct(r['relay_by_part'][part], 50):.2f} / {pct(r['relay_by_part'][part], 99):.2f} ms   "
                             f"(direct {pct(d['relay_by_part'][part], 50):.2f} / "
                             f"{pct(d['relay_by_part'][part], 99):.2f} ms)"])
            rows.append([tag, "direct from the upstream: streams complete / most open",
                         f"{d['completed']} / {d['max_open']}"])
            for kind in ("paraphrase", "waifu"):
                a, b = r["alone"]["latency_us"][kind], r["busy"]["latency_us"][kind]
                rows.append([tag, f"other client {kind}: p50 / p99 alone -> with streams (calls)",
                             f"{fmt_us(pct(a, 50))} / {fmt_us(pct(a, 99))} ({len(a)}) -> "
                             f"{fmt_us(pct(b, 50))} / {fmt_us(pct(b, 99))} ({len(b)})"])
            rows.append([tag, "other client errors alone / with streams",
                         f"{r['alone']['error_count']} / {r['busy']['error_count']} "
                         f"{(r['busy']['errors'][:2] if r['busy']['errors'] else '')}".strip()])
        rows.append(["", "server RSS: after warm-up / VmHWM (peak) / at the end",
                     f"{c['rss_ready_kib'] / 1024:.1f} / {c['hwm_kib'] / 1024:.1f} / {c['rss_end_kib'] / 1024:.1f} MiB"])
        rows.append(["", "dialogs sampled with their exchange stored", f"{c['stored_sample'][0]} / {c['stored_sample'][1]}"])
        rows.append(["", "streams cancelled (metrics)", "; ".join(c["cancelled"]) or "none"])
        table(rows, ["", "measure", "value"])
        done_all = all(r["completed"] == c["streams"] for r in c["rounds"])
        print(f"issue 28 target: all {c['streams']} streams complete: {verdict(done_all)}; RSS peak "
              f"{c['hwm_kib'] / 1024:.1f} MiB (< 1 GiB: {verdict(c['hwm_kib'] < 1024 * 1024)})")
    print(f"load average at the end: {k['loadavg']()}")


if __name__ == "__main__":
    if sys.argv[1:] == ["--drive"]:
        drive_main()
    elif sys.argv[1:] == ["--paced"]:
        paced_main()
    else:
        main()
