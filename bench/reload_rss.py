#!/usr/bin/env python3
"""Issue 43: whether a configuration reload leaks. One server (the memory cache, its own compile
cache) is reloaded by SIGHUP RELOADS (60) times, RELOAD_GAP (1.5) seconds apart, its file alternating
between a configuration with one more provider (`second`, a copy of `offline`) and one without; after
each reload five paraphrases go through `offline`, and one through `second` when it is loaded (a
reload that did not happen fails that request). VmRSS is read after each reload and printed ten
reloads to a line, with the median of the first ten against the last ten.

A reload builds a new generation of plugins and services and drops the old one once its requests
finish: RSS that climbs reload after reload is a generation kept alive. The baseline is the server's
own RSS after its first ten reloads, in the same run.

    bench/reload_rss.py                       # target/debug/parlance (PARLANCE_BIN for another)
"""

import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import TARGET_DIR, free_port, machine_line  # noqa: E402

BINARY = os.environ.get("PARLANCE_BIN", os.path.join(TARGET_DIR, "debug", "parlance"))
RELOADS = int(os.environ.get("RELOADS", "60"))
GAP = float(os.environ.get("RELOAD_GAP", "1.5"))
BASE = '[cache]\ntype = "memory"\n'
MORE = BASE + '\n[[plugin]]\nid = "second"\nkind = "provider"\ncomponent = "builtin:offline"\n'


def main():
    print(machine_line(), flush=True)
    with tempfile.TemporaryDirectory() as home:
        config = os.path.join(home, "parlance.toml")
        with open(config, "w") as f:
            f.write(BASE)
        port = free_port()
        env = dict(os.environ, API_PORT=str(port), PORT=str(free_port()), LOG_LEVEL="WARN",
                   PARLANCE_CACHE_DIR=os.path.join(home, "compiled"), DATABASE_FILE=os.path.join(home, "dialogs.db"))
        server = subprocess.Popen([BINARY, "--mode", "api", "--config", config], env=env, cwd=home,
                                  stderr=open(os.path.join(home, "log"), "w"))

        def post(text, provider):
            request = urllib.request.Request(f"http://127.0.0.1:{port}/paraphrase",
                                             data=json.dumps({"text": text, "provider": provider}).encode(),
                                             headers={"content-type": "application/json"})
            with urllib.request.urlopen(request, timeout=60) as answer:
                return json.load(answer)

        def rss_mib():
            with open(f"/proc/{server.pid}/status") as f:
                return next(int(line.split()[1]) for line in f if line.startswith("VmRSS")) / 1024

        for _ in range(600):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=5)
                break
            except OSError:
                time.sleep(0.2)
        print(f"ready: RSS {rss_mib():.0f} MiB", flush=True)
        series = []
        try:
            for i in range(RELOADS):
                more = i % 2 == 0
                with open(config, "w") as f:
                    f.write(MORE if more else BASE)
                server.send_signal(signal.SIGHUP)
                time.sleep(GAP)
                for j in range(5):
                    post(f"The weather was mild on day {i}, hour {j}.", "offline")
                if more:
                    post(f"The second provider answers reload {i}.", "second")
                series.append(rss_mib())
                if len(series) % 10 == 0:
                    print(f"reloads {len(series) - 9:>3}-{len(series):<3} RSS MiB: "
                          + " ".join(f"{x:.0f}" for x in series[-10:]), flush=True)
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(60)
        first, last = statistics.median(series[:10]), statistics.median(series[-10:])
        print(f"median RSS, first ten reloads {first:.1f} MiB, last ten {last:.1f} MiB: {last / first:.2f}x "
              f"({'no growth' if last <= first * 1.05 else 'GREW'})")
        sys.exit(0 if last <= first * 1.05 else 1)


if __name__ == "__main__":
    main()
