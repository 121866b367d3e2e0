#!/usr/bin/env python3
"""Budget overshoot under a race across replicas (issue 40): three replicas of the release binary on one
real Redis (`redis-server` on loopback, the budgets' shared counters) and one PostgreSQL database (the
shared ledger, started as bench/issue18_scaleout.py starts it), with the admin API on
(`PARLANCE_ADMIN_TOKEN`) and `[auth] api_keys = "required"`.

Each round the admin API creates a fresh key with a total budget of BUDGET (1.00). The key first spends
99 % of it sequentially through `prespend` (an OpenAI-compatible provider priced per request only, at
BUDGET x 0.0099 a call, so 100 calls), spread over the replicas; then 64 connections per replica
(CONNECTIONS) race `POST /paraphrase` with the key through a provider priced per million tokens until
no call has been admitted for QUIET_S (0.5 s) and every connection has been refused with 429
`budget_exceeded` since. Both providers reach one local `bench/upstream.py openai` that answers at once
and reports 10 prompt and 10 completion tokens per call. Two settings, each ROUNDS (3) times, alternating:

  within  `priced`: input 1, output 2 per million tokens and `max_tokens` 64, so a call reserves about
          (input bytes + settings + 256) x 1 + 64 x 2 micro-units and costs 30: the upstream stays inside
          the reservation, and the documented bound on overshoot is zero.
  excess  `capped`: input 0, output 2 and `max_tokens` 1, whose upstream ignores it (10 completion
          tokens): a call reserves 2 micro-units and costs 20, 18 beyond its reservation. The documented
          bound is that excess summed over the calls in flight when the budget ran out: at most one per
          connection, 3 x 64 x 18 micro-units.

Reported per setting (medians over rounds): the calls admitted in the race (counted by the clients, by
the ledger via `GET /usage?key=ID` with the admin credential, and by the upstream), the calls the
remainder pays for at their real cost, the overshoot in calls (admitted minus those) and in money (the
ledger's spend minus the budget), the bound, the spend left unused below the budget (reservations stop
calls before the last micro-unit), and Redis's counter against the ledger.

Environment: ROUNDS (3), REPLICAS (3), CONNECTIONS (64 per replica), BUDGET ("1.00"), QUIET_S (0.5),
PARLANCE_BIN (a binary instead of the release build), BENCH_NO_BUILD=1, CARGO_TARGET_DIR.
"""

import asyncio
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from decimal import ROUND_CEILING, Decimal

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
from common import Server, Upstream, build, free_port, log, machine_line, median, request_json, table, verdict  # noqa: E402
from issue18_scaleout import Postgres  # noqa: E402

ROUNDS = int(os.environ.get("ROUNDS", "3"))
REPLICAS = int(os.environ.get("REPLICAS", "3"))
CONNECTIONS = int(os.environ.get("CONNECTIONS", "64"))
BUDGET = Decimal(os.environ.get("BUDGET", "1.00"))
QUIET_S = float(os.environ.get("QUIET_S", "0.5"))
ADMIN_TOKEN = "bench-admin-credential-0123456789"
PRESPEND_CALLS = 100
PRESPEND_PRICE = BUDGET * Decimal("0.0099")  # per call: 100 calls spend 99 %
MICRO = Decimal("0.000001")

# Per setting: the provider, its real cost per call and what it costs beyond its reservation (both in
# the currency), with 10 prompt and 10 completion tokens per call as bench/upstream.py reports them.
SETTINGS = {
    "within": {"provider": "priced", "cost": 10 * MICRO + 10 * 2 * MICRO, "excess": Decimal(0)},
    "excess": {"provider": "capped", "cost": 10 * 2 * MICRO, "excess": (10 - 1) * 2 * MICRO},
}


def config(port):
    def plugin(pid, max_tokens, prices):
        return (
            f'[[plugin]]\nid = "{pid}"\nkind = "provider"\ncomponent = "builtin:openai"\n'
            f'allowed_hosts = ["http://127.0.0.1:{port}"]\nrate_limit_per_minute = 0\n'
            f'config = {{ base_url = "http://127.0.0.1:{port}/v1", api_key = "k", model = "bench-model", '
            f'max_tokens = "{max_tokens}" }}\n\n[plugin.prices."bench-model"]\n{prices}\n\n'
        )

    return (
        '[auth]\napi_keys = "required"\n\n'
        + plugin("priced", 64, 'input = "1"\noutput = "2"')
        + plugin("capped", 1, 'input = "0"\noutput = "2"')
        + plugin("prespend", 64, f'input = "0"\noutput = "0"\nrequest = "{PRESPEND_PRICE}"')
    )


# --- the racing clients ------------------------------------------------------------------------------


class Race:
    """Shared state of one race: when a call was last admitted, and the tallies."""

    def __init__(self):
        self.last_ok = time.perf_counter()
        self.ok = 0
        self.refused = 0
        self.other = {}
        self.per_replica = {}


async def read_response(reader):
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ", 2)[1])
    length = 0
    for line in lines[1:]:
        name, _, value = line.partition(":")
        if name.strip().lower() == "content-length":
            length = int(value.strip())
    body = await reader.readexactly(length) if length else b""
    return status, body


async def racer(race, port, key, provider, tag):
    """One keep-alive connection sending paraphrases (each a new text of the same length) until no
    call has been admitted anywhere for QUIET_S and this connection was refused since then."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    n = 0
    try:
        while True:
            n += 1
            body = json.dumps({"text": f"Race {tag} {n:06d}: the quick brown fox jumps over the lazy dog.", "provider": provider})
            writer.write(
                (
                    f"POST /paraphrase HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n"
                    f"authorization: Bearer {key}\r\ncontent-length: {len(body)}\r\n\r\n{body}"
                ).encode()
            )
            await writer.drain()
            status, data = await read_response(reader)
            now = time.perf_counter()
            if 200 <= status < 300:
                race.ok += 1
                race.per_replica[port] = race.per_replica.get(port, 0) + 1
                race.last_ok = now
            elif status == 429 and b"budget_exceeded" in data:
                race.refused += 1
                if now - race.last_ok >= QUIET_S:
                    return
            else:
                key_ = f"{status} {data[:120]!r}"
                race.other[key_] = race.other.get(key_, 0) + 1
                if sum(race.other.values()) > 1000:
                    raise RuntimeError(f"unexpected answers: {race.other}")
    finally:
        writer.close()


async def race_all(servers, key, provider, rnd):
    race = Race()
    tasks = [
        racer(race, s.api_port, key, provider, f"r{rnd}s{i}c{c:02d}")
        for i, s in enumerate(servers)
        for c in range(CONNECTIONS)
    ]
    started = time.perf_counter()
    await asyncio.gather(*tasks)
    race.seconds = time.perf_counter() - started
    return race


# --- one round ----------------------------------------------------------------------------------------


def admin(port, method, path, body=None, expect=200):
    return request_json(port, method, path, body, headers={"authorization": f"Bearer {ADMIN_TOKEN}"}, expect=expect)


def spent(port, key_id):
    total = admin(port, "GET", f"/usage?key={key_id}&from=2000-01-01")["total"]
    return total["calls"], Decimal(total["cost"] or "0")


def redis_counter(redis_port, key_id):
    if not shutil.which("redis-cli"):
        return None
    out = subprocess.run(
        ["redis-cli", "-p", str(redis_port), "GET", f"parlance:budget:{key_id}:total:0"],
        capture_output=True, text=True,
    ).stdout.strip()
    return Decimal(out) / Decimal(10**12) if out and out != "(nil)" else None


def one_round(servers, upstream, redis_port, setting, rnd):
    s = SETTINGS[setting]
    created = admin(servers[0].api_port, "POST", "/admin/keys", {
        "name": f"race {setting} {rnd}",
        "client": f"racer-{setting}-{rnd}",
        "budgets": [{"period": "total", "amount": str(BUDGET)}],
    }, expect=201)
    key, key_id = created["key"], created["id"]
    headers = {"authorization": f"Bearer {key}"}
    for i in range(PRESPEND_CALLS):
        port = servers[i % len(servers)].api_port
        request_json(port, "POST", "/paraphrase", {"text": f"Pre-spend {setting} {rnd} {i:04d}.", "provider": "prespend"}, headers=headers)
    calls0, spent0 = spent(servers[0].api_port, key_id)
    if calls0 != PRESPEND_CALLS or spent0 != PRESPEND_PRICE * PRESPEND_CALLS:
        raise RuntimeError(f"pre-spend: the ledger holds {calls0} calls costing {spent0}")
    remainder = BUDGET - spent0
    upstream.reset()
    log(f"round {rnd + 1} {setting}: key {key_id}, {spent0} of {BUDGET} spent, racing {len(servers)} x {CONNECTIONS} connections")
    race = asyncio.run(race_all(servers, key, s["provider"], rnd))
    # A refusal's message says what one call reserves.
    status, _, body = common.request(
        servers[0].api_port, "POST", "/paraphrase",
        {"text": f"Race r{rnd}s0c00 999999: the quick brown fox jumps over the lazy dog.", "provider": s["provider"]},
        headers=headers,
    )
    message = json.loads(body)["error"]["message"] if status == 429 else f"status {status}"
    calls, total = spent(servers[0].api_port, key_id)
    upstream_calls = upstream.stats()["requests"]
    counter = redis_counter(redis_port, key_id)
    admitted = calls - PRESPEND_CALLS
    pays_for = int(remainder / s["cost"])
    bound_money = s["excess"] * len(servers) * CONNECTIONS
    result = {
        "admitted": race.ok,
        "ledger_calls": admitted,
        "upstream_calls": upstream_calls,
        "pays_for": pays_for,
        "over_calls": race.ok - pays_for,
        "over_money": total - BUDGET,
        "bound_money": bound_money,
        "bound_calls": int((bound_money / s["cost"]).to_integral_value(rounding=ROUND_CEILING)),
        "unused": max(Decimal(0), BUDGET - total),
        "spent": total,
        "counter": counter,
        "refused": race.refused,
        "other": race.other,
        "seconds": race.seconds,
        "per_replica": sorted(race.per_replica.values()),
        "message": message,
    }
    log(f"  admitted {race.ok} (ledger {admitted}, upstream {upstream_calls}), refused {race.refused}, "
        f"spent {total}, redis {counter}, per replica {result['per_replica']}, {race.seconds:.1f} s; {message}")
    if race.other:
        log(f"  other answers: {race.other}")
    return result


def main():
    # A SIGTERM ends the run through the cleanups (servers, PostgreSQL, Redis), not around them.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    binary = os.environ.get("PARLANCE_BIN") or build()
    if not shutil.which("redis-server"):
        sys.exit("redis-server is not installed (scripts/setup.sh --tests)")
    redis_port = free_port()
    redis = subprocess.Popen(
        ["redis-server", "--port", str(redis_port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
    )
    upstream = Upstream("openai")
    pg = Postgres()
    servers = []
    results = {name: [] for name in SETTINGS}
    try:
        url = pg.fresh("bench_race")
        env = {
            "DATABASE_URL": url,
            "CACHE_TYPE": "redis",
            "CACHE_STORE_URL": f"redis://127.0.0.1:{redis_port}/0",
            "RATE_LIMIT_STORE": "local",
            "RATE_LIMIT_REQUESTS_PER_MINUTE": "1000000",
            "PARLANCE_ADMIN_TOKEN": ADMIN_TOKEN,
        }
        text = config(upstream.port)
        servers.append(Server(env=env, config_text=text, binary=binary))
        cache = servers[0].env["PARLANCE_CACHE_DIR"]
        for _ in range(REPLICAS - 1):
            servers.append(Server(env=env, config_text=text, binary=binary, cache_dir=cache))
        for rnd in range(ROUNDS):
            for setting in (SETTINGS if rnd % 2 == 0 else reversed(list(SETTINGS))):
                results[setting].append(one_round(servers, upstream, redis_port, setting, rnd))
    finally:
        for s in servers:
            s.stop()
        upstream.stop()
        pg.stop()
        shutil.rmtree(pg.dir, ignore_errors=True)
        redis.terminate()
        redis.wait(10)

    print(machine_line())
    print(common.placement_line())
    print(f"{REPLICAS} replicas on one PostgreSQL and one Redis, {CONNECTIONS} connections each; a fresh key per "
          f"round with a total budget of {BUDGET}, {PRESPEND_CALLS} calls spending 99 % first; {ROUNDS} rounds, medians")
    rows = []
    for name, rs in results.items():
        med = lambda k: median([r[k] for r in rs])  # noqa: E731
        worst_money = max(r["over_money"] for r in rs)
        rows.append([
            name,
            f"{med('admitted'):.0f}",
            f"{med('ledger_calls'):.0f} / {med('upstream_calls'):.0f}",
            f"{med('pays_for'):.0f}",
            f"{med('over_calls'):+.0f} (bound {rs[0]['bound_calls']:+d})",
            f"{med('over_money'):+.6f} (worst {worst_money:+.6f}; bound {rs[0]['bound_money']:+.6f})",
            f"{med('unused'):.6f}",
            f"{med('refused'):.0f}",
            f"{med('seconds'):.1f} s",
        ])
    table(rows, ["setting", "admitted", "ledger / upstream", "remainder pays for", "overshoot in calls",
                 "overshoot in money", "unused", "429s", "race"])
    print()
    for name, rs in results.items():
        for i, r in enumerate(rs):
            counter = "-" if r["counter"] is None else f"{r['counter']}"
            print(f"{name} round {i + 1}: spent {r['spent']} of {BUDGET}, Redis counter {counter}, "
                  f"admitted per replica {r['per_replica']}, other answers {r['other'] or 'none'}")
        print(f"  a refusal said: {rs[-1]['message']}")
    for name, rs in results.items():
        ok = all(r["over_money"] <= r["bound_money"] for r in rs)
        agree = all(r["admitted"] == r["ledger_calls"] == r["upstream_calls"] for r in rs)
        print(f"{name}: overshoot within the bound in every round: {verdict(ok)}; "
              f"clients, ledger and upstream agree: {verdict(agree)}")


if __name__ == "__main__":
    main()
