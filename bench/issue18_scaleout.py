#!/usr/bin/env python3
"""Issue 18 benchmarks: replicas on a shared PostgreSQL and Redis.

  1. Chat throughput and overhead: wrk drives `POST /v1/waifu` (the `form` chat model at a local
     endpoint answering at once) on SQLite with 1 replica (the baseline), on PostgreSQL with 1 replica,
     and on PostgreSQL with 3 replicas (one wrk per replica, CONNECTIONS split between them, their
     requests/s summed), and the model endpoint itself. Reported per setup: requests/s, p50, p50
     overhead (p50 minus the model endpoint's p50 at the same connections), server CPU per chat (all
     replicas, plus PostgreSQL's processes for the PostgreSQL setups), the ratio to SQLite and the
     scaling factor from 1 to 3 replicas. On a 2-core machine the factor is bounded by the cores: the
     replicas, PostgreSQL, wrk and the model share them, so CPU per chat is the figure to compare.
  2. Dialog reads: `GET /v1/user/dialog/json` of a 200-entry dialog at CONNECTIONS, on SQLite (served
     from memory) and on PostgreSQL (from memory after a `SELECT version` of the user's row, which
     tells whether another replica changed it), against `GET /v1/server/status` of the same server.
  3. Rate-limit decision time: `POST /paraphrase` (offline provider, cache skipped) at 1 connection,
     with the limit kept in Redis, kept in process, and with no limit; the decision's added time is
     the p50 (p99) difference to the unlimited server. Target: Redis adds <= 150 us at p50 over
     in-process.

Rounds alternate the setups, ROUNDS times DURATION seconds; medians are reported.

Environment: ROUNDS (3), DURATION (5), CONNECTIONS (48), PARTS (chat,ratelimit), BENCH_NO_BUILD=1,
CARGO_TARGET_DIR, PARLANCE_BIN (a binary to use instead of the release build).
"""

import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
from common import (  # noqa: E402
    REPO,
    Server,
    Upstream,
    build,
    free_port,
    log,
    lua_request,
    machine_line,
    median,
    table,
    verdict,
    wrk,
)

ROUNDS = int(os.environ.get("ROUNDS", "3"))
DURATION = int(os.environ.get("DURATION", "5"))
CONNECTIONS = int(os.environ.get("CONNECTIONS", "48"))
PARTS = os.environ.get("PARTS", "chat,dialog,ratelimit").split(",")
CLUSTER = os.path.join(REPO, "scripts", "cluster.sh")


def waifu_lua(tag):
    """Each request chats as one of 100 users of this wrk thread, fresh per setup and round."""
    return f"""
local counter = 0
function request()
  counter = counter + 1
  local body = string.format('{{"user_id": "{tag}-t%d-u%d", "message": "Hello there, how are you?"}}', tid or 0, counter % 100)
  return wrk.format("POST", "/v1/waifu", {{["content-type"] = "application/json"}}, body)
end
"""


def postgres_pids(data_dir):
    """The PostgreSQL server's processes (postmaster and backends)."""
    with open(os.path.join(data_dir, "pg", "postmaster.pid")) as f:
        master = int(f.readline())
    out = subprocess.run(["pgrep", "-P", str(master)], capture_output=True, text=True).stdout.split()
    return [master] + [int(p) for p in out]


class Postgres:
    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="parlance-bench-pg-")
        self.url = subprocess.run(
            ["bash", CLUSTER, "postgres", "start", self.dir, str(free_port()), str(os.getpid())],
            capture_output=True, text=True, check=True,
        ).stdout.strip()

    def fresh(self, name):
        subprocess.run(
            ["bash", "-c", f'$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)/psql "{self.url}" -qc "CREATE DATABASE {name}"'],
            check=True,
        )
        return self.url.rsplit("/", 1)[0] + "/" + name

    def stop(self):
        subprocess.run(["bash", CLUSTER, "postgres", "stop", self.dir], check=False)


def chat_part(binary):
    model = Upstream("form")
    model_url = f"http://127.0.0.1:{model.port}/path/"
    pg = Postgres()
    setups = {
        "sqlite x1": [Server(env={"MODEL_URL": model_url}, binary=binary)],
        "postgres x1": [Server(env={"MODEL_URL": model_url, "DATABASE_URL": pg.fresh("bench1")}, binary=binary)],
    }
    url3 = pg.fresh("bench3")
    setups["postgres x3"] = [Server(env={"MODEL_URL": model_url, "DATABASE_URL": url3}, binary=binary) for _ in range(3)]
    figures = {name: {"rps": [], "p50": [], "cpu": []} for name in list(setups) + ["model endpoint"]}
    prompt = '[ Genre: Romance ] User said: "Hello there, how are you?" Waifu said: "'
    model_lua = lua_request("POST", "input=" + prompt.replace(" ", "+"), {"content-type": "application/x-www-form-urlencoded"})
    try:
        for round_id in range(ROUNDS):
            log(f"round {round_id + 1}/{ROUNDS}")
            r = wrk(model.port, "/path/", model_lua, CONNECTIONS, 2, DURATION)
            figures["model endpoint"]["rps"].append(r["rps"])
            figures["model endpoint"]["p50"].append(r["p50_us"])
            for name, servers in setups.items():
                pids = [s.pid for s in servers]
                if name.startswith("postgres"):
                    pids += postgres_pids(pg.dir)
                before = [common.proc_cpu_seconds(p) for p in pids]
                conns = max(1, CONNECTIONS // len(servers))
                procs = []
                # One wrk per replica, run at once, as a load balancer would spread the clients.
                import concurrent.futures as cf
                with cf.ThreadPoolExecutor(len(servers)) as pool:
                    procs = list(pool.map(
                        lambda s: wrk(s.chat_port, "/v1/waifu", waifu_lua(f"{name[:2]}{round_id}p{s.chat_port}"), conns, 1 if len(servers) > 1 else 2, DURATION),
                        servers,
                    ))
                cpu = sum(common.proc_cpu_seconds(p) - b for p, b in zip(pids, before) if os.path.exists(f"/proc/{p}"))
                requests = sum(r["requests"] for r in procs)
                errors = sum(r["errors"] for r in procs)
                if errors:
                    log(f"{name}: {errors} errors")
                figures[name]["rps"].append(sum(r["rps"] for r in procs))
                figures[name]["p50"].append(median([r["p50_us"] for r in procs]))
                figures[name]["cpu"].append(cpu / max(requests, 1) * 1e6)
    finally:
        for servers in setups.values():
            for s in servers:
                s.stop()
        model.stop()
        pg.stop()
    model_p50 = median(figures["model endpoint"]["p50"])
    base = median(figures["sqlite x1"]["rps"])
    rows = []
    for name, f in figures.items():
        rps, p50 = median(f["rps"]), median(f["p50"])
        rows.append([
            name,
            f"{rps:.0f}",
            f"{p50 / 1000:.2f} ms",
            "-" if name == "model endpoint" else f"{(p50 - model_p50) / 1000:.2f} ms",
            "-" if not f["cpu"] else f"{median(f['cpu']):.0f} us",
            "-" if name == "model endpoint" else f"{rps / base:.2f}",
        ])
    print(f"\nChat, {CONNECTIONS} saturated connections, {ROUNDS} rounds of {DURATION} s")
    table(rows, ["setup", "req/s", "p50", "p50 overhead", "server CPU/chat", "vs sqlite x1"])
    scaling = median(figures["postgres x3"]["rps"]) / median(figures["postgres x1"]["rps"])
    print(f"scaling 1 -> 3 replicas on PostgreSQL: {scaling:.2f}x (bounded by {os.cpu_count()} cores)")


def dialog_part(binary):
    pg = Postgres()
    setups = {
        "sqlite": Server(binary=binary),
        "postgres": Server(env={"DATABASE_URL": pg.fresh("benchdialog")}, binary=binary),
    }
    dialog = [{"index": i, "name": "User" if i % 2 == 0 else "Waifu", "message": f"Message number {i} of a long chat."} for i in range(200)]
    for server in setups.values():
        common.request_json(server.chat_port, "PUT", "/v1/user/id/reader", body=b"")
        common.request_json(server.chat_port, "PUT", "/v1/user/dialog/json/reader", body={"dialog": dialog})
    figures = {f"{name} {what}": {"rps": [], "p50": []} for name in setups for what in ("dialog", "status")}
    try:
        for round_id in range(ROUNDS):
            log(f"round {round_id + 1}/{ROUNDS}")
            for name, server in setups.items():
                for what, path in (("dialog", "/v1/user/dialog/json/reader"), ("status", "/v1/server/status")):
                    r = wrk(server.chat_port, path, "", CONNECTIONS, 2, DURATION)
                    figures[f"{name} {what}"]["rps"].append(r["rps"])
                    figures[f"{name} {what}"]["p50"].append(r["p50_us"])
    finally:
        for s in setups.values():
            s.stop()
        pg.stop()
    print(f"\nDialog reads (200 entries), {CONNECTIONS} connections, {ROUNDS} rounds of {DURATION} s")
    rows = [[k, f"{median(f['rps']):.0f}", f"{median(f['p50']) / 1000:.2f} ms"] for k, f in figures.items()]
    table(rows, ["read", "req/s", "p50"])


def ratelimit_part(binary):
    redis_port = free_port()
    redis = subprocess.Popen(
        ["redis-server", "--port", str(redis_port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
    )
    limited = '[[plugin]]\nid = "offline"\nrate_limit_per_minute = 1000000\n'
    redis_env = {"CACHE_TYPE": "redis", "CACHE_STORE_URL": f"redis://127.0.0.1:{redis_port}/0", "CACHE_TTL": "0"}
    setups = {
        "redis": Server(env={**redis_env, "RATE_LIMIT_STORE": "redis"}, config_text=limited, binary=binary),
        "in-process": Server(env={**redis_env, "RATE_LIMIT_STORE": "local"}, config_text=limited, binary=binary),
        "no limit": Server(env={**redis_env, "RATE_LIMIT_STORE": "local"}, binary=binary),
    }
    lua = lua_request("POST", {"text": "The quick brown fox jumps over the lazy dog.", "skip_cache": True},
                      {"content-type": "application/json", "current-user": "bench"})
    figures = {name: {"p50": [], "p99": []} for name in setups}
    try:
        for round_id in range(ROUNDS):
            log(f"round {round_id + 1}/{ROUNDS}")
            for name, server in setups.items():
                r = wrk(server.api_port, "/paraphrase", lua, 1, 1, DURATION)
                if r["errors"]:
                    log(f"{name}: {r['errors']} errors")
                figures[name]["p50"].append(r["p50_us"])
                figures[name]["p99"].append(r["p99_us"])
    finally:
        for s in setups.values():
            s.stop()
        redis.terminate()
        redis.wait()
    none50, none99 = median(figures["no limit"]["p50"]), median(figures["no limit"]["p99"])
    rows = []
    for name, f in figures.items():
        p50, p99 = median(f["p50"]), median(f["p99"])
        rows.append([name, f"{p50:.0f} us", f"{p99:.0f} us", f"{p50 - none50:+.0f} us", f"{p99 - none99:+.0f} us"])
    print(f"\nRate-limit decision, POST /paraphrase at 1 connection, {ROUNDS} rounds of {DURATION} s")
    table(rows, ["limits kept", "p50", "p99", "p50 added", "p99 added"])
    added = median(figures["redis"]["p50"]) - median(figures["in-process"]["p50"])
    print(f"Redis over in-process at p50: {added:+.0f} us (target <= 150 us: {verdict(added <= 150)})")


def main():
    binary = os.environ.get("PARLANCE_BIN") or build()
    print(machine_line())
    print(f"binary: {binary}")
    if "chat" in PARTS:
        chat_part(binary)
    if "dialog" in PARTS:
        dialog_part(binary)
    if "ratelimit" in PARTS:
        ratelimit_part(binary)


if __name__ == "__main__":
    main()
