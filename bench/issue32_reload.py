#!/usr/bin/env python3
"""Reloads under load: wrk at 64 connections for DURATION seconds of mixed traffic (one request in four
a provider call through `openrouter` to a local upstream answering at once, the others cached
`POST /paraphrase` on `offline`), once with `parlance reload` every RELOAD_EVERY seconds (the file
alternating between two valid configurations, one with a provider more) and once without, on the same
server, alternating for ROUNDS rounds. Prints per run the errors (wrk's connect, read, write and
timeout errors and non-2xx answers: the target is 0), the reloads that succeeded, req/s and p99, and
the p99 ratio to the run without reloads.

Environment: ROUNDS (1), DURATION (60), RELOAD_EVERY (5), PARLANCE_BIN (else the release build).
"""

import os
import subprocess
import sys
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import Server, Upstream, build, log, machine_line, median, pin_processes, placement_line, wrk  # noqa: E402
import issue4_paraphrase as paraphrase  # noqa: E402

ROUNDS = int(os.environ.get("ROUNDS", "1"))
DURATION = int(os.environ.get("DURATION", "60"))
RELOAD_EVERY = float(os.environ.get("RELOAD_EVERY", "5"))
BASE = "# bench/issue32_reload.py\n"
MORE = BASE + '\n[[plugin]]\nid = "second"\nkind = "provider"\ncomponent = "builtin:offline"\n'

# Three cached paraphrases for one provider call, by the request counter.
MIXED_LUA = """
local counter = 0
function request()
  counter = counter + 1
  local body
  if counter % 4 == 0 then
    body = string.format('{"text": "Text %s-%d-%d: The quick brown fox.", "provider": "openrouter"}', round_id, tid or 0, counter)
  else
    body = '{"text": "The cached sentence of the reload run.", "provider": "offline"}'
  end
  return wrk.format("POST", "/paraphrase", {["content-type"] = "application/json"}, body)
end
"""


def reloading(server, binary, stop, outcome):
    """`parlance reload` every RELOAD_EVERY seconds until `stop`, the file switching each time."""
    path = os.path.join(server.scratch, "parlance.toml")
    n = 0
    while not stop.wait(RELOAD_EVERY):
        n += 1
        with open(path, "w") as f:
            f.write(MORE if n % 2 else BASE)
        done = subprocess.run([binary, "reload"], cwd=server.scratch, env=server.env, capture_output=True, text=True)
        outcome["ok" if done.returncode == 0 else "failed"] += 1
        if done.returncode != 0:
            log(f"reload failed: {done.stderr.strip()}")


def main():
    binary = os.environ.get("PARLANCE_BIN") or build()
    pin_processes()
    print(machine_line())
    print(placement_line())
    upstream = Upstream("openai", delay_ms=0)
    server = Server(env=paraphrase.openai_env(upstream), config_text=BASE, binary=binary)
    runs = {"without reloads": [], "reload every %gs" % RELOAD_EVERY: []}
    try:
        for rnd in range(ROUNDS):
            for name in runs if rnd % 2 == 0 else reversed(list(runs)):
                stop, outcome = threading.Event(), {"ok": 0, "failed": 0}
                reloader = None
                if name.startswith("reload"):
                    reloader = threading.Thread(target=reloading, args=(server, binary, stop, outcome))
                    reloader.start()
                lua = f'round_id = "{name[:7]}-{rnd}"\n' + MIXED_LUA
                r = wrk(server.api_port, "/paraphrase", lua, 64, 2, DURATION, pids=[server.pid])
                stop.set()
                if reloader:
                    reloader.join()
                r["reloads"] = outcome
                runs[name].append(r)
                log(f"round {rnd + 1}/{ROUNDS} {name}: {r['rps']:.0f} req/s, p99 {r['p99_us']:.0f} us, "
                    f"errors {r['errors']}, reloads {outcome}")
    finally:
        server.stop()
        upstream.stop()
    base_p99 = median([r["p99_us"] for r in runs["without reloads"]])
    for name, rs in runs.items():
        p99 = median([r["p99_us"] for r in rs])
        print(f"{name:18} errors {sum(r['errors'] for r in rs):5}  reloads ok {sum(r['reloads']['ok'] for r in rs):3} "
              f"failed {sum(r['reloads']['failed'] for r in rs):2}  req/s {median([r['rps'] for r in rs]):7.0f}  "
              f"p99 {p99:8.0f} us  p99 vs without {p99 / base_p99:.2f}")


if __name__ == "__main__":
    main()
