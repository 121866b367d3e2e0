#!/usr/bin/env python3
"""The cost of usage accounting (issue 40) counted in instructions, which this machine's noise does not
move: the release binary run twice under valgrind's callgrind, the ledger on (the default) and off
(`PARLANCE_USAGE_RECORD=false`), each in front of a local OpenAI-compatible upstream
(bench/upstream.py openai) and given CALLS provider calls (`POST /paraphrase` through `openrouter`,
every text new), one connection, each run ended by `GET /usage` so that its records' commits are
counted. Counting is switched on after a warm-up and off after the report, so start-up is left out.
Prints the instructions per call on, off and the difference, and the functions that differ most
(the plugins' compiled code, mapped at a different address in each process, is summed as one).

Usage: bench/usage_instructions.py [BINARY]   Environment: CALLS (3000).
"""

import http.client
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import Server, Upstream, build, log, machine_line, request_json  # noqa: E402
import issue4_paraphrase as paraphrase  # noqa: E402

CALLS = int(os.environ.get("CALLS", "3000"))
# Under valgrind the pool's address space must stay small: two instances' slots.
CONFIG = "[runtime]\nmax_instances = 2\n"


def start(binary, upstream, record, out, components):
    """The server under callgrind, counting nothing until told to; `out` receives its counts."""
    valgrind = ["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={out}"]
    env = {"PARLANCE_USAGE_RECORD": "true" if record else "false", **paraphrase.openai_env(upstream)}
    return Server(env=env, config_text=CONFIG, cache_dir=components, binary=binary, timeout=900, prefix=valgrind)


def calls(port, n, tag):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    for i in range(n):
        body = json.dumps({"text": f"Text {tag}-{i}: The quick brown fox jumps over the lazy dog.", "provider": "openrouter"})
        c.request("POST", "/paraphrase", body, {"content-type": "application/json"})
        r = c.getresponse()
        data = r.read()
        if r.status != 200:
            raise SystemExit(f"{r.status}: {data[:300]!r}")
    request_json(port, "GET", "/usage", timeout=600)


def functions(out):
    """Instructions per function (exclusive), the compiled plugins' code summed as `(plugin code)`."""
    text = subprocess.run(["callgrind_annotate", "--threshold=100", out], capture_output=True, text=True, check=True).stdout
    costs = {}
    for line in text.splitlines():
        m = re.match(r"\s*([\d,]+)\s+(?:\([^)]*\)\s+)?(\S.*)$", line)
        if not m or "PROGRAM TOTALS" in line or "file:function" in line:
            continue
        name = re.sub(r"\s*\[[^\]]*\]$", "", m.group(2))
        name = "(plugin code)" if name.startswith("???:0x") else name.removeprefix("???:")
        costs[name] = costs.get(name, 0) + int(m.group(1).replace(",", ""))
    return costs


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else build()
    upstream = Upstream("openai", delay_ms=0)
    counts = tempfile.mkdtemp(prefix="parlance-cg-")
    components = os.path.join(counts, "components")
    servers = {}
    try:
        # The components compiled once, natively, so that neither run compiles under valgrind.
        warm = subprocess.run([binary, "plugins", "list"], env={**os.environ, "PARLANCE_CACHE_DIR": components}, capture_output=True)
        if warm.returncode != 0:
            log(f"plugins list: {warm.stderr.decode()[-500:]}")
        for mode in ("on", "off"):
            servers[mode] = start(binary, upstream, mode == "on", os.path.join(counts, mode), components)
        for mode, server in servers.items():
            calls(server.api_port, 300, f"warm-{mode}")
        for server in servers.values():
            subprocess.run(["callgrind_control", "-i", "on", str(server.pid)], check=True, stdout=subprocess.DEVNULL)
        log(f"{CALLS} calls to each server under callgrind")
        for mode, server in servers.items():
            calls(server.api_port, CALLS, mode)
        for server in servers.values():
            subprocess.run(["callgrind_control", "-i", "off", str(server.pid)], check=True, stdout=subprocess.DEVNULL)
            server.stop()
        costs = {mode: functions(os.path.join(counts, mode)) for mode in servers}
    finally:
        for server in servers.values():
            server.stop()
        upstream.stop()
        shutil.rmtree(counts, ignore_errors=True)
    print(machine_line())
    total = {mode: sum(c.values()) / CALLS for mode, c in costs.items()}
    print(f"instructions per provider call ({CALLS} calls, one connection): ledger on {total['on']:,.0f}, "
          f"off {total['off']:,.0f}, on - off {total['on'] - total['off']:+,.0f}")
    names = set(costs["on"]) | set(costs["off"])
    diff = sorted(((costs["on"].get(n, 0) - costs["off"].get(n, 0)) / CALLS, n) for n in names)
    print("the functions that differ most (instructions per call, on - off, exclusive):")
    for d, name in [x for x in diff[::-1] if abs(x[0]) >= 100][:25]:
        print(f"  {d:+8,.0f}  {name[:110]}")


if __name__ == "__main__":
    main()
