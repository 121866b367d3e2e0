#!/usr/bin/env python3
"""Ledger writes under saturated load (issue 40), on SQLite and on PostgreSQL: wrk at CONNECTIONS (64)
sends `POST /paraphrase` with `skip_cache` (every request a plugin call, each settled call one ledger
row: its answer waits for the record's line in the server's spool, and the ledger writer commits the
records in batches behind the answers) for DURATION (60) s, on a fresh
server and a fresh store each run, with the ledger on (the default) and off (`PARLANCE_USAGE_RECORD=false`,
the baseline: the same calls counted in /metrics only), the runs alternating round by round. Two loads
(LOADS):

  upstream  `openrouter` at a local `bench/upstream.py openai` answering at once (a light call: the
            most calls per second, so the most ledger rows);
  offline   the offline provider, which reaches no upstream (a heavier call, recorded at zero cost).

Printed per load, store and setting (medians over ROUNDS, 3): settled calls per second as the ledger
counts them (`GET /usage` totals with the admin credential, minus the warm-up, / wrk's duration) and as
wrk counts its 2xx answers, p50 and p99, server CPU per call (PostgreSQL's processes added on
PostgreSQL), and the write-ahead log: for SQLite the `-wal` file sampled every 100 ms (peak, at the end
of the load, 5 s later) and the database's size; for PostgreSQL the WAL written during the run,
`pg_wal_lsn_diff(pg_current_wal_lsn(), before)` read by psql as the `postgres` user, and per call. Then
on against off.

Environment: ROUNDS (3), DURATION (60), CONNECTIONS (64), LOADS (upstream,offline), STORES
(sqlite,postgres), BENCH_PIN=0, PARLANCE_BIN (a binary instead of the release build), BENCH_NO_BUILD=1,
CARGO_TARGET_DIR.
"""

import os
import shutil
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
from common import Server, SizeSampler, Upstream, build, file_size, log, lua_request, machine_line, median, pin_processes, placement_line, request_json, table, wrk  # noqa: E402
import issue4_paraphrase as paraphrase  # noqa: E402
from issue18_scaleout import Postgres, postgres_pids  # noqa: E402

ROUNDS = int(os.environ.get("ROUNDS", "3"))
DURATION = int(os.environ.get("DURATION", "60"))
CONNECTIONS = int(os.environ.get("CONNECTIONS", "64"))
STORES = os.environ.get("STORES", "sqlite,postgres").split(",")
LOADS = os.environ.get("LOADS", "upstream,offline").split(",")
ADMIN_TOKEN = "bench-admin-credential-0123456789"
WARM_UP = 20
MIB = 1 << 20
TEXT = "The quick brown fox jumps over the lazy dog while the farmer watches."
PROVIDER = {"upstream": "openrouter", "offline": "offline"}


def pg_bin():
    return sorted(
        (os.path.join("/usr/lib/postgresql", v, "bin") for v in os.listdir("/usr/lib/postgresql")),
        key=lambda p: [int(x) for x in p.split("/")[-2].split(".") if x.isdigit()],
    )[-1]


def pg_query(pg, sql):
    """One value from PostgreSQL, asked as the `postgres` user over its socket (as root through runuser)."""
    with open(os.path.join(pg.dir, "pg-port")) as f:
        port = f.read().strip()
    args = [os.path.join(pg_bin(), "psql"), "-h", os.path.join(pg.dir, "pg-socket"), "-p", port, "-U", "postgres",
            "-d", "postgres", "-tAc", sql]
    if os.getuid() == 0:
        args = ["runuser", "-u", "postgres", "--"] + args
    return subprocess.run(args, capture_output=True, text=True, check=True).stdout.strip()


def ledger_calls(port):
    r = request_json(port, "GET", "/usage?from=2000-01-01", headers={"authorization": f"Bearer {ADMIN_TOKEN}"})
    return r["total"]["calls"]


def run(binary, load, store, record, pg, upstream, rnd, cache_dir):
    env = {"PARLANCE_ADMIN_TOKEN": ADMIN_TOKEN, **paraphrase.openai_env(upstream)}
    if not record:
        env["PARLANCE_USAGE_RECORD"] = "false"
    if store == "postgres":
        env["DATABASE_URL"] = pg.fresh(f"ledger_{load}_{'on' if record else 'off'}_{rnd}")
    body = {"text": TEXT, "provider": PROVIDER[load], "skip_cache": True}
    server = Server(env=env, binary=binary, cache_dir=cache_dir)
    wal = server.env["DATABASE_FILE"] + "-wal"
    sampler = SizeSampler(wal)
    try:
        for _ in range(WARM_UP):
            request_json(server.api_port, "POST", "/paraphrase", body)
        before_calls = ledger_calls(server.api_port)
        pids = [server.pid] + (postgres_pids(pg.dir) if store == "postgres" else [])
        lsn = pg_query(pg, "SELECT pg_current_wal_lsn()") if store == "postgres" else None
        label = f"{load}, {store}, ledger {'on' if record else 'off'}"
        log(f"round {rnd + 1}/{ROUNDS} {label}: {DURATION} s at {CONNECTIONS} connections, load {common.loadavg()}")
        sampler.start()
        # The run's CPU includes committing its records: `GET /usage` waits for its replica's queue.
        r = wrk(server.api_port, "/paraphrase", lua_request("POST", body, {"content-type": "application/json"}),
                CONNECTIONS, 2, DURATION, pids=pids, settle=lambda: ledger_calls(server.api_port))
        ended = time.perf_counter()
        wal_bytes = int(pg_query(pg, f"SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '{lsn}')").split(".")[0]) if lsn else None
        at_end = file_size(wal)
        calls = ledger_calls(server.api_port) - before_calls
        if store == "sqlite":
            time.sleep(5)
        sampler.stop()
        ok = r["requests"] - r["non_2xx"]
        seconds = r["duration_us"] / 1e6
        result = {
            "ledger_cps": calls / seconds,
            "ledger_calls": calls,
            "ok": ok,
            "wrk_rps": ok / seconds,
            "p50": r["p50_us"],
            "p99": r["p99_us"],
            "cpu_us": sum(r["cpu_seconds"]) / max(ok, 1) * 1e6,
            "errors": r["errors"],
            "wal_peak": sampler.peak(ended) if store == "sqlite" else None,
            "wal_end": at_end if store == "sqlite" else None,
            "wal_after": file_size(wal) if store == "sqlite" else None,
            "db": file_size(server.env["DATABASE_FILE"]) if store == "sqlite" else None,
            "pg_wal": wal_bytes,
        }
        log(f"  {ok} answers ({r['errors']} errors), ledger {calls} calls = {result['ledger_cps']:.0f}/s, "
            f"p50 {r['p50_us'] / 1000:.1f} ms, CPU {result['cpu_us']:.0f} us/call"
            + (f", WAL peak {result['wal_peak'] / MIB:.1f} MiB, end {at_end / MIB:.1f} MiB, 5 s later {result['wal_after'] / MIB:.1f} MiB" if store == "sqlite" else "")
            + (f", PostgreSQL WAL {wal_bytes / MIB:.1f} MiB" if wal_bytes is not None else ""))
        return result
    finally:
        sampler.stop()
        server.stop()


def main():
    # A SIGTERM ends the run through the cleanups (servers, PostgreSQL, Redis), not around them.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    binary = os.environ.get("PARLANCE_BIN") or build()
    pin_processes()
    pg = Postgres() if "postgres" in STORES else None
    upstream = Upstream("openai")
    cache_dir = os.path.join(common.TARGET_DIR, "tmp", "ledger-write-components")
    os.makedirs(cache_dir, exist_ok=True)
    setups = [(load, store, record) for load in LOADS for store in STORES for record in (True, False)]
    results = {s: [] for s in setups}
    try:
        for rnd in range(ROUNDS):
            order = setups if rnd % 2 == 0 else list(reversed(setups))
            for load, store, record in order:
                results[(load, store, record)].append(run(binary, load, store, record, pg, upstream, rnd, cache_dir))
    finally:
        upstream.stop()
        if pg:
            pg.stop()
            shutil.rmtree(pg.dir, ignore_errors=True)
    print(machine_line())
    print(placement_line())
    print(f"POST /paraphrase (skip_cache) at {CONNECTIONS} connections for {DURATION} s, fresh server and store per run; "
          f"{ROUNDS} rounds, medians")
    rows = []
    for (load, store, record), rs in results.items():
        m = lambda k: median([r[k] for r in rs])  # noqa: E731
        if store == "sqlite":
            wal = (f"peak {m('wal_peak') / MIB:.1f} / end {m('wal_end') / MIB:.1f} / +5 s {m('wal_after') / MIB:.1f} MiB "
                   f"(db {m('db') / MIB:.1f} MiB)")
        else:
            wal = f"{m('pg_wal') / MIB:.1f} MiB written, {median([r['pg_wal'] / max(r['ledger_calls'], r['ok'], 1) for r in rs]):.0f} B/call"
        rows.append([
            load, store, "on" if record else "off",
            f"{m('ledger_cps'):.0f}" if record else "-",
            f"{m('wrk_rps'):.0f}",
            f"{m('p50') / 1000:.2f} / {m('p99') / 1000:.2f} ms",
            f"{m('cpu_us'):.0f} us",
            f"{sum(r['errors'] for r in rs)}",
            wal,
        ])
    table(rows, ["load", "store", "ledger", "ledger calls/s", "2xx/s (wrk)", "p50 / p99", "CPU/call", "errors", "write-ahead log"])
    print()
    for load in LOADS:
        for store in STORES:
            on, off = results[(load, store, True)], results[(load, store, False)]
            r_on, r_off = median([r["wrk_rps"] for r in on]), median([r["wrk_rps"] for r in off])
            l_on = median([r["ledger_cps"] for r in on])
            cpu = median([r["cpu_us"] for r in on]) - median([r["cpu_us"] for r in off])
            counted = all(r["ledger_calls"] >= r["ok"] for r in on)
            print(f"{load}, {store}: ledger on / off {r_on / r_off:.2f} (2xx/s {r_on:.0f} vs {r_off:.0f}), ledger rows/s "
                  f"{l_on:.0f}, CPU per call {cpu:+.0f} us; every answered call in the ledger: {'yes' if counted else 'NO'}")


if __name__ == "__main__":
    main()
