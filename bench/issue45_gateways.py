#!/usr/bin/env python3
"""Issue 45 benchmark: Parlance, TensorZero's gateway and the LiteLLM proxy side by side, in the same
run, in front of the same upstream.

One local upstream, bench/upstream.py `openai` (a `chat.completion` answered at once, or with
`"stream": true` its server-sent chunks written at once; it acknowledges each request's head at once,
so that a client that writes head and body apart is not held by a delayed ACK). In front of it:

  Parlance            `POST /v1/chat/completions`, model `openai-chat` (its base URL pointed at the
                      upstream), keys off, plain and streamed.
  Parlance keys       the same on a second server with `PARLANCE_API_KEYS=required` and a key sent as a
                      bearer token (the key's usage recorded, as every keyed call's is).
  Parlance no ledger  the same on a third server recording no usage (`PARLANCE_USAGE_RECORD=false`), as
                      TensorZero here records no inference: the two gateways doing the same work.
  Parlance paraphrase `POST /paraphrase` through the `openrouter` provider (plugins/openai) at the same
                      upstream, a new text per request: the cache on (the in-process cache, looked up
                      and filled on every request) and off (`skip_cache: true`).
  TensorZero          the gateway binary at TENSORZERO_GATEWAY_BIN, built by the operator from
                      TensorZero's public source (this project ships no recipe for that), with no
                      observability database (`observability.enabled = false`), one model `bench`
                      whose `openai` provider has the upstream as `api_base`, on
                      `POST /openai/v1/chat/completions`, model `tensorzero::model_name::bench`, plain
                      and streamed. Left out when TENSORZERO_GATEWAY_BIN is unset.
  LiteLLM             bench/issue21_litellm.py's pinned proxy and settings (its venv created when
                      missing), plain and streamed. SKIP_LITELLM=1 leaves it out.
  relay               socat relaying the bytes to the upstream and back, placed as the gateways are and
                      parsing nothing (Debian's `socat`; left out when missing): the floor of any
                      gateway here, what one more hop across the cores costs on this machine.
  direct              the same request sent to the upstream itself.

Every request carries a new text. In every round (ROUNDS, 3), each way is measured in turn, the order
rotating from round to round:
  - at 1 connection (wrk, DURATION seconds): p50 and p99; overhead = the way's minus the direct one's
    in the same round; the gateway's context switches per request (all its threads, from /proc), how
    often a request's work moved between threads;
  - at 64 connections: requests/s, and server CPU per request (utime + stime of the gateway's process
    tree from /proc);
  - VmRSS of the process tree after the round.
Printed: the medians over the rounds, for plain and for streamed requests, and the targets that
concern the gateways (completions within 10 % of /v1/waifu's overhead is bench/issue29_openai.py's;
keys required >= 0.95 of keys off in requests/s).

Placement: gateways on the first half of the cores, wrk and the upstream on the other (BENCH_PIN=0
shares every core). Delayed ACKs are turned off on the loopback routes for the run (common.py's
LoopbackQuickAck; BENCH_QUICKACK=0 leaves them on): a gateway that writes an answer's head and body
apart without TCP_NODELAY would otherwise wait 40 ms on wrk's delayed ACK for every request, as
TensorZero's did.

Parlance before: with PARLANCE_BASE_BIN, an earlier build of Parlance as one more way (plain and
streamed, like `Parlance`), for a change's before and after in the same run.

Environment: ROUNDS (3), DURATION (5), TENSORZERO_GATEWAY_BIN, PARLANCE_BASE_BIN, SKIP_LITELLM=1, PARLANCE_BIN,
BENCH_NO_BUILD=1, CARGO_TARGET_DIR, LITELLM_VENV, BENCH_PIN=0, BENCH_QUICKACK=0.
"""

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
import issue21_litellm as lite  # noqa: E402
from issue29_openai import completion_body, fmt_us  # noqa: E402
from common import (  # noqa: E402
    BINARY,
    Server,
    Upstream,
    build,
    free_port,
    log,
    loadavg,
    lua_string,
    machine_line,
    median,
    pin_processes,
    placement_line,
    proc_status_kib,
    request,
    table,
    verdict,
    wrk,
)

ROUNDS = int(os.environ.get("ROUNDS", "3"))
DURATION = int(os.environ.get("DURATION", "5"))
TENSORZERO = os.environ.get("TENSORZERO_GATEWAY_BIN")
BEFORE = os.environ.get("PARLANCE_BASE_BIN")
SKIP_LITELLM = os.environ.get("SKIP_LITELLM") == "1"
TEXT = "Text %s-%d-%d: Tell me about the quick brown fox."
TZ_MODEL = "tensorzero::model_name::bench"


def chat_body(model, stream):
    return completion_body(model, TEXT, stream)


def counter_lua(path, template, headers=None):
    """wrk's requests, each with a fresh text: `%s-%d-%d` is the round, the thread and a counter."""
    headers = {"content-type": "application/json", **(headers or {})}
    fields = ", ".join(f"[{lua_string(k)}] = {lua_string(v)}" for k, v in headers.items())
    return f"""
local counter = 0
function request()
  counter = counter + 1
  local body = string.format({lua_string(template)}, round_id, tid or 0, counter)
  return wrk.format("POST", {lua_string(path)}, {{{fields}}}, body)
end
"""


class Way:
    """One way to reach the upstream: a port, a path, a body template, the process tree to measure."""

    def __init__(self, name, port, pid, path, template, headers=None):
        self.name, self.port, self.pid, self.path = name, port, pid, path
        self.template, self.headers = template, headers or {}
        self.lua = counter_lua(path, template, headers)

    def check(self):
        body = (self.template % ("check", 0, 0)).encode()
        status, _, data = request(self.port, "POST", self.path, body, {"content-type": "application/json", **self.headers})
        if status != 200:
            raise RuntimeError(f"{self.name} answered {status}: {data[:300]!r}")
        return data


class Relay:
    """socat between wrk and the upstream: a gateway that does nothing but carry the bytes."""

    def __init__(self, upstream):
        self.port = free_port()
        args = ["socat", f"TCP-LISTEN:{self.port},fork,reuseaddr,nodelay,bind=127.0.0.1",
                f"TCP:127.0.0.1:{upstream.port},nodelay"]
        self.proc = subprocess.Popen(common.pinned(args, common.SERVER_CPUS))
        self.pid = self.proc.pid
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("socat did not start")

    def stop(self):
        self.proc.terminate()
        self.proc.wait(10)


class TensorZero:
    """TensorZero's gateway, as its documentation's benchmark runs it: no observability database."""

    def __init__(self, binary, upstream):
        self.scratch = tempfile.mkdtemp(prefix="tensorzero-bench-")
        self.port = free_port()
        config = os.path.join(self.scratch, "tensorzero.toml")
        with open(config, "w") as f:
            f.write(
                "[gateway]\n"
                "observability.enabled = false\n\n"
                "[models.bench]\n"
                'routing = ["upstream"]\n\n'
                "[models.bench.providers.upstream]\n"
                'type = "openai"\n'
                'model_name = "bench-model"\n'
                f'api_base = "http://127.0.0.1:{upstream.port}/v1/"\n'
                'api_key_location = "none"\n'
            )
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": self.scratch,
            "RUST_LOG": "warn",
            "TENSORZERO_GATEWAY_BIND_ADDRESS": f"127.0.0.1:{self.port}",
        }
        self.log_file = open(os.path.join(self.scratch, "gateway.log"), "w+")
        args = [binary, "--config-file", config]
        log(f"starting TensorZero: {' '.join(args)}")
        self.proc = subprocess.Popen(
            common.pinned(args, common.SERVER_CPUS), cwd=self.scratch, env=env,
            stdout=self.log_file, stderr=subprocess.STDOUT,
        )
        self.pid = self.proc.pid
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                break
            try:
                status, _, _ = request(self.port, "GET", "/health")
                if status == 200:
                    return
            except OSError:
                pass
            time.sleep(0.1)
        self.log_file.seek(0)
        raise RuntimeError(f"TensorZero did not start:\n{self.log_file.read()[-3000:]}")

    def version(self):
        out = subprocess.run([TENSORZERO, "--version"], capture_output=True, text=True)
        return out.stdout.strip() or "unknown version"

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def create_key(database):
    out = subprocess.run(
        [BINARY if not os.environ.get("PARLANCE_BIN") else os.environ["PARLANCE_BIN"], "keys", "create", "--name", "bench", "--json"],
        env={"PATH": os.environ.get("PATH", ""), "HOME": os.environ.get("HOME", "/tmp"), "DATABASE_FILE": database},
        capture_output=True, text=True, check=True,
    )
    return json.loads(out.stdout)["key"]


def parlance_env(upstream, extra=None):
    return {
        "RATE_LIMIT_REQUESTS_PER_MINUTE": "1000000",
        "PROVIDER_API_KEY": "bench-key",
        "CACHE_TYPE": "memory",
        "PARLANCE_PLUGIN_OPENAI_CHAT_BASE_URL": f"http://127.0.0.1:{upstream.port}/v1",
        "PARLANCE_PLUGIN_OPENROUTER_BASE_URL": f"http://127.0.0.1:{upstream.port}/v1",
        **(extra or {}),
    }


def ways(plain, keyed, unrecorded, key, tz, litellm, relay, upstream, before=None):
    """The ways measured, plain and streamed, by name."""
    bearer = {"authorization": f"Bearer {key}"}
    out = {}
    for stream in (False, True):
        suffix = " (streamed)" if stream else ""
        out[f"Parlance{suffix}"] = Way(f"Parlance{suffix}", plain.api_port, plain.pid, "/v1/chat/completions",
                                       json.dumps(chat_body("openai-chat", stream)))
        if before is not None:
            out[f"Parlance before{suffix}"] = Way(f"Parlance before{suffix}", before.api_port, before.pid,
                                                  "/v1/chat/completions", json.dumps(chat_body("openai-chat", stream)))
        out[f"Parlance keys{suffix}"] = Way(f"Parlance keys{suffix}", keyed.api_port, keyed.pid, "/v1/chat/completions",
                                            json.dumps(chat_body("openai-chat", stream)), bearer)
        out[f"Parlance no ledger{suffix}"] = Way(f"Parlance no ledger{suffix}", unrecorded.api_port, unrecorded.pid,
                                                 "/v1/chat/completions", json.dumps(chat_body("openai-chat", stream)))
        if tz is not None:
            out[f"TensorZero{suffix}"] = Way(f"TensorZero{suffix}", tz.port, tz.pid, "/openai/v1/chat/completions",
                                             json.dumps(chat_body(TZ_MODEL, stream)))
        if litellm is not None:
            out[f"LiteLLM{suffix}"] = Way(f"LiteLLM{suffix}", litellm.port, litellm.pid, "/v1/chat/completions",
                                          json.dumps(chat_body(lite.MODEL, stream)))
        if relay is not None:
            out[f"relay{suffix}"] = Way(f"relay{suffix}", relay.port, relay.pid, "/v1/chat/completions",
                                        json.dumps(chat_body("bench-model", stream)))
        out[f"direct{suffix}"] = Way(f"direct{suffix}", upstream.port, None, "/v1/chat/completions",
                                     json.dumps(chat_body("bench-model", stream)))
    paraphrase = {"text": TEXT, "provider": "openrouter"}
    out["paraphrase, cache on"] = Way("paraphrase, cache on", plain.api_port, plain.pid, "/paraphrase", json.dumps(paraphrase))
    out["paraphrase, cache off"] = Way("paraphrase, cache off", plain.api_port, plain.pid, "/paraphrase",
                                       json.dumps({**paraphrase, "skip_cache": True}))
    return out


def switches(pids):
    """Context switches so far of every thread of `pids` (voluntary and not): how often a request's
    work moved between threads or waited for one."""
    n = 0
    for pid in pids:
        try:
            tasks = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for task in tasks:
            try:
                with open(f"/proc/{pid}/task/{task}/status") as f:
                    n += sum(int(line.split()[1]) for line in f if "ctxt_switches" in line)
            except OSError:
                pass
    return n


def measure(upstream, way, connections, round_id):
    upstream.reset()
    pids = lite.tree_pids(way.pid) if way.pid else []
    lua = f"round_id = {lua_string(round_id)}\n" + way.lua
    before = switches(pids)
    r = wrk(way.port, way.path, lua, connections, 1 if connections == 1 else 2, DURATION, pids=pids)
    r["switches"] = (switches(pids) - before) / max(r["requests"], 1)
    r["cpu"] = sum(r["cpu_seconds"])
    if way.pid:
        r["rss_kib"] = sum(proc_status_kib(p, "VmRSS") or 0 for p in lite.tree_pids(way.pid))
    counted = upstream.stats()["requests"]
    if r["errors"]:
        log(f"WARNING {way.name}, {connections} conn: {r['errors']} errors ({r['non_2xx']} not 2xx) in {r['requests']}")
    if counted < r["requests"]:
        log(f"WARNING {way.name}, {connections} conn: the upstream counted {counted} for {r['requests']} answered")
    return r


def main():
    binary = os.environ.get("PARLANCE_BIN") or build()
    os.environ["PARLANCE_BIN"] = binary
    litellm_cmd = None if SKIP_LITELLM else lite.ensure_venv()
    pin_processes()
    print(machine_line())
    print(placement_line())
    with common.LoopbackQuickAck() as quick:
        print("delayed ACKs: " + ("off on loopback (every way alike)" if quick.active() else "on"))
        res = run_all(binary, litellm_cmd)
    report(res)


def run_all(binary, litellm_cmd):
    upstream = Upstream("openai", delay_ms=0)
    scratch = tempfile.mkdtemp(prefix="parlance-keys-")
    database = os.path.join(scratch, "keys.db")
    plain = keyed = unrecorded = tz = litellm = relay = before = None
    previous = {s: signal.signal(s, lambda n, _f: sys.exit(128 + n)) for s in (signal.SIGTERM, signal.SIGHUP)}
    res = {}
    try:
        chat = '[chat]\nmodel = "openai-chat"\n'
        plain = Server(env=parlance_env(upstream), config_text=chat, binary=binary)
        unrecorded = Server(env=parlance_env(upstream, {"PARLANCE_USAGE_RECORD": "false"}), config_text=chat, binary=binary)
        # The keyed server makes its store first; `parlance keys` writes only into one that exists.
        keyed = Server(env=parlance_env(upstream, {"DATABASE_FILE": database}), config_text=chat, binary=binary)
        key = create_key(database)
        keyed.stop()
        keyed = Server(env=parlance_env(upstream, {"DATABASE_FILE": database, "PARLANCE_API_KEYS": "required"}),
                       config_text=chat, binary=binary)
        if BEFORE:
            before = Server(env=parlance_env(upstream), config_text=chat, binary=BEFORE)
            print(f"Parlance before: {BEFORE}")
        if TENSORZERO:
            tz = TensorZero(TENSORZERO, upstream)
            print(f"TensorZero: {tz.version()} ({TENSORZERO})")
        else:
            log("TENSORZERO_GATEWAY_BIN is unset: TensorZero left out")
        if litellm_cmd:
            litellm = lite.LiteLLM(litellm_cmd, upstream)
            print(f"LiteLLM {lite.LITELLM_VERSION}")
        if shutil.which("socat"):
            relay = Relay(upstream)
        else:
            log("socat is not installed: the relay's floor left out")
        all_ways = ways(plain, keyed, unrecorded, key, tz, litellm, relay, upstream, before)
        for w in all_ways.values():
            w.check()
            # Warm every pool (instances, upstream connections) before anything is measured.
            wrk(w.port, w.path, "round_id = 'warm'\n" + w.lua, 64, 2, 1)
        names = list(all_ways)
        res = {n: {1: [], 64: []} for n in names}
        for rnd in range(ROUNDS):
            shift = rnd % len(names)
            order = names[shift:] + names[:shift]
            log(f"round {rnd + 1}/{ROUNDS}, load {loadavg()}")
            for conns in (1, 64):
                for n in order:
                    res[n][conns].append(measure(upstream, all_ways[n], conns, f"r{rnd}c{conns}"))
    finally:
        for g in (relay, litellm, tz, before, unrecorded, keyed, plain):
            if g is not None:
                g.stop()
        upstream.stop()
        for s, h in previous.items():
            signal.signal(s, h)
    return res


def report(res):
    def direct(name):
        return "direct (streamed)" if "streamed" in name else "direct"

    def over(name, pct):
        return median([g[f"{pct}_us"] - d[f"{pct}_us"] for g, d in zip(res[name][1], res[direct(name)][1])])

    def rps(name):
        return median([g["rps"] for g in res[name][64]])

    def cpu(name):
        return median([g["cpu"] / g["requests"] * 1e6 for g in res[name][64]])

    def rss(name):
        return median([g["rss_kib"] for g in res[name][64]]) / 1024

    def switched(name):
        return median([g["switches"] for g in res[name][1]])

    rows = []
    for name in res:
        if name.startswith("direct"):
            d = res[name]
            rows.append([name, fmt_us(median([r["p50_us"] for r in d[1]])) + " (itself)",
                         fmt_us(median([r["p99_us"] for r in d[1]])) + " (itself)", "", f"{rps(name):.0f}", "", ""])
            continue
        # socat forks a process per connection, gone before its CPU and memory can be read.
        forks = name.startswith("relay")
        rows.append([name, fmt_us(over(name, "p50")), fmt_us(over(name, "p99")), f"{switched(name):.1f}",
                     f"{rps(name):.0f}", "n/a" if forks else fmt_us(cpu(name)),
                     "n/a" if forks else f"{rss(name):.0f} MiB"])
    print()
    print(f"Overhead over the upstream at 1 connection, and at 64: requests/s, server CPU per request, RSS; "
          f"medians of {ROUNDS} rounds of {DURATION} s")
    table(rows, ["way", "overhead p50", "overhead p99", "switches/req (1)", "req/s (64)", "CPU/request", "RSS"])
    ratio = rps("Parlance keys") / rps("Parlance")
    print(f"target: keys required / off req/s {ratio:.3f} (>= 0.95: {verdict(ratio >= 0.95)})")
    if "relay" in res:
        floor = over("relay", "p50")
        own = {n: over(n, "p50") - floor for n in ("Parlance", "TensorZero") if n in res}
        print(f"the relay's overhead p50 (the floor of one more hop here): {fmt_us(floor)}; above it, p50: "
              + ", ".join(f"{n} {fmt_us(v)}" for n, v in own.items()))
    over_p50 = over("Parlance", "p50")
    print(f"target: provider-call overhead p50 (chat completions) {fmt_us(over_p50)} (<= 100 us: {verdict(over_p50 <= 100)})")
    for peer, ours in (("TensorZero", "Parlance"), ("TensorZero", "Parlance no ledger"), ("LiteLLM", "Parlance")):
        if peer in res:
            for suffix in ("", " (streamed)"):
                p, t = ours + suffix, peer + suffix
                ahead = [
                    ("overhead p50", over(p, "p50") <= over(t, "p50")),
                    ("overhead p99", over(p, "p99") <= over(t, "p99")),
                    ("req/s", rps(p) >= rps(t)),
                    ("CPU/request", cpu(p) <= cpu(t)),
                    ("RSS", rss(p) <= rss(t)),
                ]
                behind = [k for k, ok in ahead if not ok]
                print(f"{p} against {t}: " + ("ahead on every figure" if not behind else f"behind on {', '.join(behind)}"))
    print(f"load average at the end: {loadavg()}")


if __name__ == "__main__":
    main()
