#!/usr/bin/env python3
"""Issue 21 benchmark: Parlance against the LiteLLM proxy, in the same run, in front of the same
upstream.

Both gateways forward one chat-completions request per client request to one local upstream,
bench/upstream.py `openai` (answering at once), started once for the whole run:

  Parlance  `POST /paraphrase` with `provider` = `openrouter`, its base URL pointed at the upstream,
            every request a new text (a cache miss that reaches the provider).
  LiteLLM   `litellm --config <yaml>` (LITELLM_VERSION below, pinned, installed with the `proxy`
            extra into a venv of its own), one model_list entry `openai/<model>` whose api_base is the
            upstream's /v1; `POST /v1/chat/completions` with the messages Parlance's plugin sends
            upstream (its default system prompt and prompt template), a new text per request too.
            No database, no master key, telemetry off, spend logs off, one worker.

Measured in every round, the two gateways alternating (which one goes first alternates too):
  - at 1 connection: p50 and p99 of each gateway, and of the same chat-completions request sent to
    the upstream directly; overhead = gateway minus direct, per round;
  - at 64 connections: requests/s of each gateway (and of the upstream directly, its ceiling here),
    server CPU per request (utime + stime from /proc of the gateway's process tree), and VmRSS of the
    tree after the load.
Each run checks that the answers were 2xx (and, for Parlance, that none fell back to another
provider) and that the upstream counted at least as many requests as the gateway answered.

Placement (2 cores): both gateways on the first half of the cores, one at a time under load (the other
one idle; its CPU during the run is printed), wrk and the upstream on the other half (BENCH_PIN=0
shares every core).

Environment: ROUNDS (3), DURATION (5), BENCH_NO_BUILD=1, CARGO_TARGET_DIR, PARLANCE_BIN (a binary to
use instead of the release build), LITELLM_VENV (default $CARGO_TARGET_DIR/bench-litellm-venv, created
and filled with litellm[proxy]==LITELLM_VERSION when missing), LITELLM_START_TIMEOUT (180 s).
"""

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
from common import (  # noqa: E402
    TARGET_DIR,
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
    pinned,
    placement_line,
    proc_status_kib,
    request,
    table,
    verdict,
    wrk,
)

# The newest release whose `proxy` extra installs from PyPI (2026-11-26): 1.110.x requires a
# `litellm-proxy` package that PyPI does not have, 1.109.x a `litellm-proxy-extras` (0.4.113) and
# 1.108.8 to 1.108.14 a `litellm-enterprise` (0.1.79.post2, 0.4.110.post1 of the extras) not published.
LITELLM_VERSION = "1.108.7"
ROUNDS = int(os.environ.get("ROUNDS", "3"))
DURATION = int(os.environ.get("DURATION", "5"))
VENV = os.environ.get("LITELLM_VENV") or os.path.join(TARGET_DIR, "bench-litellm-venv")
START_TIMEOUT = float(os.environ.get("LITELLM_START_TIMEOUT", "180"))
NO_LIMIT = {"RATE_LIMIT_REQUESTS_PER_MINUTE": "1000000"}  # the most the setting takes

# What Parlance's `openrouter` provider (plugins/openai with its defaults) sends upstream.
MODEL = "deepseek/deepseek-chat-v3-0324:free"
SYSTEM_PROMPT = (
    "You rewrite text so that it says the same thing in different words. "
    "Keep the meaning, the language, the tone and roughly the length. Answer with the rewritten text only: "
    "no preamble, no quotes, no explanation."
)
TEMPLATE = "Paraphrase this text:\n\n{text}"
SENTENCE = "The quick brown fox jumps over the lazy dog."


# --- the LiteLLM venv -----------------------------------------------------------------------------------


def venv_python():
    return os.path.join(VENV, "bin", "python")


def installed_litellm():
    if not os.path.exists(venv_python()):
        return None
    out = subprocess.run(
        [venv_python(), "-c", "import importlib.metadata as m; print(m.version('litellm'))"],
        capture_output=True,
        text=True,
    )
    return out.stdout.strip() if out.returncode == 0 else None


def ensure_venv():
    """Creates VENV with litellm[proxy]==LITELLM_VERSION unless it is there already; returns the
    path of its `litellm` command."""
    have = installed_litellm()
    if have != LITELLM_VERSION:
        started = time.perf_counter()
        if not os.path.exists(venv_python()):
            log(f"creating the LiteLLM venv at {VENV}")
            subprocess.run([sys.executable, "-m", "venv", VENV], check=True)
        log(f"pip install litellm[proxy]=={LITELLM_VERSION} into {VENV}" + (f" (it has {have})" if have else ""))
        subprocess.run(
            [venv_python(), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
             f"litellm[proxy]=={LITELLM_VERSION}"],
            check=True,
        )
        log(f"LiteLLM venv ready in {time.perf_counter() - started:.0f} s")
    litellm = os.path.join(VENV, "bin", "litellm")
    if not os.path.exists(litellm):
        sys.exit(f"no litellm command in {VENV}")
    return litellm


# --- process trees ----------------------------------------------------------------------------------------


def tree_pids(root):
    """`root` and every process descending from it."""
    children = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        children.setdefault(ppid, []).append(int(name))
    pids, todo = [], [root]
    while todo:
        pid = todo.pop()
        pids.append(pid)
        todo += children.get(pid, [])
    return pids


def tree_rss_kib(pids):
    total = 0
    for pid in pids:
        try:
            total += proc_status_kib(pid, "VmRSS") or 0
        except OSError:
            pass
    return total


def describe_tree(pids):
    lines = []
    for pid in pids:
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                cmd = f.read().replace(b"\0", b" ").decode(errors="replace").strip()
        except OSError:
            continue
        lines.append(f"{pid} {cmd[:100]}")
    return "; ".join(lines)


# --- the gateways -------------------------------------------------------------------------------------------


def chat_body(text):
    return {
        "model": MODEL,
        "messages": [
            {"role": "system", "content": SYSTEM_PROMPT},
            {"role": "user", "content": TEMPLATE.format(text=text)},
        ],
    }


def counter_lua(path, body_template, headers):
    """Every request a text never sent before: `Text <round_id>-<wrk thread>-<counter>: ...`, with
    `%s-%d-%d` in `body_template` standing for that prefix's figures."""
    hdrs = ", ".join(f"[{lua_string(k)}] = {lua_string(v)}" for k, v in headers.items())
    return f"""
local counter = 0
function request()
  counter = counter + 1
  local body = string.format({lua_string(body_template)}, round_id, tid or 0, counter)
  return wrk.format("POST", {lua_string(path)}, {{{hdrs}}}, body)
end
"""


UNIQUE_TEXT = "Text %s-%d-%d: " + SENTENCE
JSON = {"content-type": "application/json"}


class Parlance:
    name = "Parlance"
    path = "/paraphrase"

    def __init__(self, binary, upstream):
        self.server = Server(
            env={
                **NO_LIMIT,
                "PROVIDER_API_KEY": "bench-key",
                "PARLANCE_PLUGIN_OPENROUTER_BASE_URL": f"http://127.0.0.1:{upstream.port}/v1",
            },
            binary=binary,
        )
        self.port = self.server.api_port
        self.pid = self.server.pid
        self.ready_seconds = self.server.ready_seconds
        self.lua = counter_lua(self.path, json.dumps({"text": UNIQUE_TEXT, "provider": "openrouter"}), JSON)

    def once(self, text):
        status, headers, data = request(self.port, "POST", self.path, {"text": text, "provider": "openrouter"})
        if status != 200:
            raise RuntimeError(f"Parlance answered {status}: {data[:300]!r}")
        answer = json.loads(data)
        if answer.get("cached") or answer.get("provider") != "openrouter" or "x-parlance-fallback" in headers:
            raise RuntimeError(f"Parlance did not answer through openrouter: {answer}")
        return answer["paraphrase"]

    def stop(self):
        self.server.stop()


class LiteLLM:
    name = "LiteLLM"
    path = "/v1/chat/completions"

    def __init__(self, litellm, upstream):
        self.scratch = tempfile.mkdtemp(prefix="litellm-bench-")
        self.port = free_port()
        config = os.path.join(self.scratch, "config.yaml")
        # JSON is YAML. Zero prices so that the cost of each call is computed the ordinary way (a
        # model LiteLLM does not know would take its error path on every call).
        with open(config, "w") as f:
            json.dump(
                {
                    "model_list": [
                        {
                            "model_name": MODEL,
                            "litellm_params": {
                                "model": f"openai/{MODEL}",
                                "api_base": f"http://127.0.0.1:{upstream.port}/v1",
                                "api_key": "bench-key",
                            },
                            "model_info": {"input_cost_per_token": 0, "output_cost_per_token": 0},
                        }
                    ],
                    "litellm_settings": {"telemetry": False, "set_verbose": False, "drop_params": True},
                    "general_settings": {
                        "disable_spend_logs": True,
                        "disable_error_logs": True,
                        "background_health_checks": False,
                        # No key checked, as Parlance checks none here (api_keys unset).
                        "dangerously_permit_weak_or_unset_master_key": True,
                    },
                },
                f,
                indent=2,
            )
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": os.environ.get("HOME", self.scratch),
            "LANG": os.environ.get("LANG", "C.UTF-8"),
            "LITELLM_TELEMETRY": "False",
            "LITELLM_LOCAL_MODEL_COST_MAP": "True",  # no fetch of the price list from GitHub
            "LITELLM_MODE": "PRODUCTION",  # no .env read
            "LITELLM_LOG": "ERROR",  # and uvicorn's access log off
            "DISABLE_ADMIN_UI": "True",
        }
        self.log_file = open(os.path.join(self.scratch, "litellm.log"), "w+")
        args = [litellm, "--config", config, "--host", "127.0.0.1", "--port", str(self.port), "--num_workers", "1"]
        log(f"starting LiteLLM: {' '.join(args)}")
        started = time.perf_counter()
        self.proc = subprocess.Popen(
            pinned(args, common.SERVER_CPUS),
            cwd=self.scratch,
            env=env,
            stdout=self.log_file,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group, killed whole at the end
        )
        self.pid = self.proc.pid
        deadline = started + START_TIMEOUT
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"litellm exited with {self.proc.returncode}: {self.log_tail()}")
            try:
                status, _, _ = request(self.port, "GET", "/health/liveliness", timeout=5)
                if status == 200:
                    break
            except OSError:
                pass
            if time.perf_counter() > deadline:
                raise RuntimeError(f"litellm not ready after {START_TIMEOUT:.0f} s: {self.log_tail()}")
            time.sleep(0.25)
        self.ready_seconds = time.perf_counter() - started
        log(f"LiteLLM ready in {self.ready_seconds:.1f} s; processes: {describe_tree(tree_pids(self.pid))}")
        self.lua = counter_lua(self.path, json.dumps(chat_body(UNIQUE_TEXT)), JSON)

    def once(self, text):
        status, _, data = request(self.port, "POST", self.path, chat_body(text))
        if status != 200:
            raise RuntimeError(f"LiteLLM answered {status}: {data[:300]!r}")
        return json.loads(data)["choices"][0]["message"]["content"]

    def log_tail(self):
        self.log_file.flush()
        self.log_file.seek(0)
        return self.log_file.read()[-2000:]

    def errors_logged(self):
        self.log_file.flush()
        self.log_file.seek(0)
        return [line for line in self.log_file if "Traceback" in line or "ERROR" in line]

    def stop(self):
        if self.proc.poll() is None:
            errors = self.errors_logged()
            if errors:
                log(f"WARNING LiteLLM logged {len(errors)} error lines, the first: {errors[0].strip()[:300]}")
        try:
            os.killpg(self.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        try:
            self.proc.wait(15)
        except subprocess.TimeoutExpired:
            pass
        try:
            os.killpg(self.pid, signal.SIGKILL)  # anything of the group still there
        except ProcessLookupError:
            pass
        if self.proc.poll() is None:
            self.proc.wait()
        self.log_file.close()
        shutil.rmtree(self.scratch, ignore_errors=True)


# --- measuring ---------------------------------------------------------------------------------------------------


def run(upstream, gateway, idle, connections, round_id):
    """wrk on `gateway` (or on the upstream when None) at `connections`; the CPU seconds of the
    gateway's process tree and of the idle gateway's, the upstream's counts and, for a gateway, the
    RSS of its tree after the load."""
    upstream.reset()
    threads = 1 if connections == 1 else 2
    lua = f"round_id = {lua_string(round_id)}\n"
    if gateway is None:
        headers = {**JSON, "authorization": "Bearer bench-key"}
        lua += counter_lua("/v1/chat/completions", json.dumps(chat_body(UNIQUE_TEXT)), headers)
        r = wrk(upstream.port, "/v1/chat/completions", lua, connections, threads, DURATION)
        what = f"upstream direct, {connections} conn"
    else:
        ours = tree_pids(gateway.pid)
        other = tree_pids(idle.pid)
        r = wrk(gateway.port, gateway.path, lua + gateway.lua, connections, threads, DURATION, pids=ours + other)
        r["gateway_cpu"] = sum(r["cpu_seconds"][: len(ours)])
        r["idle_cpu"] = sum(r["cpu_seconds"][len(ours):])
        r["rss_kib"] = tree_rss_kib(tree_pids(gateway.pid))
        r["processes"] = len(ours)
        what = f"{gateway.name}, {connections} conn"
    r["upstream"] = upstream.stats()
    if r["errors"]:
        log(f"WARNING {what}: {r['errors']} errors ({r['non_2xx']} not 2xx) in {r['requests']} requests")
    if r["fallbacks"]:
        log(f"WARNING {what}: {r['fallbacks']} answers fell back to another provider")
    if r["upstream"]["requests"] < r["requests"] or r["upstream"]["bad_requests"]:
        log(f"WARNING {what}: the upstream counted {r['upstream']['requests']} requests "
            f"({r['upstream']['bad_requests']} bad) for {r['requests']} answered")
    return r


def check_path(upstream, gateway):
    """One request through `gateway`, answered 200 by the upstream; then warm-up requests."""
    upstream.reset()
    answer = gateway.once(f"Check of {gateway.name}: {SENTENCE}")
    counted = upstream.stats()["requests"]
    if counted != 1 or "In other words" not in str(answer):
        log(f"WARNING {gateway.name}: the check request reached the upstream {counted} times; answer {answer!r}")
    for i in range(50):
        gateway.once(f"Warm-up {i} of {gateway.name}: {SENTENCE}")


def fmt_us(x):
    return "n/a" if x != x else (f"{x:.0f} us" if abs(x) < 10_000 else f"{x / 1000:.1f} ms")


def ratio(a, b):
    return f"{a / b:.1f}x" if b and a == a and b == b else ""


def main():
    binary = os.environ.get("PARLANCE_BIN") or build()
    litellm = ensure_venv()
    pin_processes()
    print(machine_line())
    print(f"binary: {binary}; LiteLLM {LITELLM_VERSION} ({VENV})")
    if common.SERVER_CPUS is None:
        print(placement_line())
    else:
        print(
            f"placement: Parlance on cpus {common.SERVER_CPUS}, LiteLLM on cpus {common.SERVER_CPUS} (measured one "
            f"at a time, the other idle); wrk and the upstream on cpus {common.CLIENT_CPUS}"
        )

    upstream = Upstream("openai", delay_ms=0)
    gateways = []
    res = {"direct": {1: [], 64: []}, "Parlance": {1: [], 64: []}, "LiteLLM": {1: [], 64: []}}
    previous = {s: signal.signal(s, lambda n, _f: sys.exit(128 + n)) for s in (signal.SIGTERM, signal.SIGHUP)}
    try:
        parlance = Parlance(binary, upstream)
        gateways.append(parlance)
        log(f"Parlance ready in {parlance.ready_seconds * 1000:.0f} ms")
        lite = LiteLLM(litellm, upstream)
        gateways.append(lite)
        for g in (parlance, lite):
            check_path(upstream, g)
        pair = {parlance: lite, lite: parlance}
        for rnd in range(ROUNDS):
            order = [parlance, lite] if rnd % 2 == 0 else [lite, parlance]
            for conns in (1, 64):
                log(f"round {rnd + 1}/{ROUNDS}, {conns} conn, order {order[0].name} then {order[1].name}, "
                    f"load {loadavg()}")
                res["direct"][conns].append(run(upstream, None, None, conns, f"d{rnd}c{conns}"))
                for g in order:
                    res[g.name][conns].append(run(upstream, g, pair[g], conns, f"{g.name[0]}{rnd}c{conns}"))
        ready = {g.name: g.ready_seconds for g in gateways}
        procs = {g.name: describe_tree(tree_pids(g.pid)) for g in gateways}
    finally:
        for g in reversed(gateways):
            g.stop()
        upstream.stop()
        for s, h in previous.items():
            signal.signal(s, h)
    report(res, ready, procs)


def report(res, ready, procs):
    d1, p1, l1 = res["direct"][1], res["Parlance"][1], res["LiteLLM"][1]
    d64, p64, l64 = res["direct"][64], res["Parlance"][64], res["LiteLLM"][64]

    def over(gw, pct):
        return median([g[f"{pct}_us"] - d[f"{pct}_us"] for g, d in zip(gw, d1)])

    def cpu(gw):
        return median([g["gateway_cpu"] / g["requests"] * 1e6 for g in gw])

    def val(gw, key):
        return median([g[key] for g in gw])

    rows = []
    for pct in ("p50", "p99"):
        po, lo = over(p1, pct), over(l1, pct)
        rows.append([f"overhead {pct}, 1 conn (gateway minus direct)", fmt_us(po), fmt_us(lo), ratio(lo, po),
                     f"direct {fmt_us(val(d1, pct + '_us'))}"])
    for pct in ("p50", "p99"):
        rows.append([f"  latency {pct}, 1 conn", fmt_us(val(p1, pct + "_us")), fmt_us(val(l1, pct + "_us")),
                     ratio(val(l1, pct + "_us"), val(p1, pct + "_us")), ""])
    pr, lr = val(p64, "rps"), val(l64, "rps")
    rows.append(["requests/s, 64 conn", f"{pr:.0f}", f"{lr:.0f}", f"{lr / pr:.2f}",
                 f"direct {val(d64, 'rps'):.0f} req/s"])
    rows.append(["  latency p50 / p99, 64 conn",
                 f"{fmt_us(val(p64, 'p50_us'))} / {fmt_us(val(p64, 'p99_us'))}",
                 f"{fmt_us(val(l64, 'p50_us'))} / {fmt_us(val(l64, 'p99_us'))}", "",
                 f"direct {fmt_us(val(d64, 'p50_us'))} / {fmt_us(val(d64, 'p99_us'))}"])
    pc, lc = cpu(p64), cpu(l64)
    rows.append(["server CPU per request, 64 conn", fmt_us(pc), fmt_us(lc), ratio(lc, pc), ""])
    rows.append(["  server CPU per request, 1 conn", fmt_us(cpu(p1)), fmt_us(cpu(l1)), ratio(cpu(l1), cpu(p1)), ""])
    prss, lrss = val(p64, "rss_kib") / 1024, val(l64, "rss_kib") / 1024
    rows.append(["RSS after the 64-conn load", f"{prss:.1f} MiB", f"{lrss:.1f} MiB", ratio(lrss, prss), ""])
    rows.append(["  idle gateway's CPU during the other's 64-conn run",
                 f"{median([g['idle_cpu'] for g in l64]) * 1000:.0f} ms",
                 f"{median([g['idle_cpu'] for g in p64]) * 1000:.0f} ms", "", ""])
    rows.append(["  start-up to ready", f"{ready['Parlance'] * 1000:.0f} ms", f"{ready['LiteLLM']:.1f} s", "", ""])
    total = {name: sum(r["requests"] for r in res[name][1] + res[name][64]) for name in ("Parlance", "LiteLLM")}
    upstream = {name: sum(r["upstream"]["requests"] for r in res[name][1] + res[name][64]) for name in total}
    errors = {name: sum(r["errors"] + r["fallbacks"] for r in res[name][1] + res[name][64]) for name in total}
    rows.append(["  answered / reached the upstream / errors",
                 f"{total['Parlance']} / {upstream['Parlance']} / {errors['Parlance']}",
                 f"{total['LiteLLM']} / {upstream['LiteLLM']} / {errors['LiteLLM']}", "", ""])
    print()
    print(f"Parlance POST /paraphrase (openrouter, cache miss) vs LiteLLM {LITELLM_VERSION} POST /v1/chat/completions, "
          f"same upstream answering at once; medians of {ROUNDS} rounds of {DURATION} s")
    table(rows, ["measure", "Parlance", "LiteLLM", "LiteLLM / Parlance", "upstream direct"])
    p50, p99 = over(p1, "p50"), over(p1, "p99")
    print(f"issue 21 target, Parlance's overhead at 1 connection: p50 {fmt_us(p50)} (<= 100 us: "
          f"{verdict(p50 <= 100)}), p99 {fmt_us(p99)} (<= 400 us: {verdict(p99 <= 400)})")
    print(f"processes: Parlance {procs['Parlance']}")
    print(f"           LiteLLM {procs['LiteLLM']}")
    print(f"load average at the end: {loadavg()}")


if __name__ == "__main__":
    if sys.argv[1:] == ["--venv-only"]:
        ensure_venv()
    else:
        main()
