#!/usr/bin/env python3
"""Issue 21: a chat's cost against the length of its dialog. For each length in LENGTHS (10, 1000,
10000 entries), users whose dialogs hold that many entries (written with PUT) chat one message each in
turn, sequentially on one keep-alive connection, through the form chat model at a local model endpoint
answering at once (bench/upstream.py form). Server CPU per chat (from /proc) and the median and p99
latency per chat, for this build and for a baseline build (`BASE_BINARY`, the build before the history
window), alternating builds round by round. Prints each build's cost at 1000 and 10 000 entries as a
ratio of its cost at 10; the target is within 20 %. Each length's users are deleted after their round,
so that the next length's dialogs are all in the cache.

So that each chat sees the length it is timed at, a round sends CHATS (400) messages spread over as
many users as keep a dialog's growth small against its length while the dialogs stay in the server's
64 MiB dialog cache: 400 users at 10 entries (each chats once), 200 at 1000, 20 at 10 000 (each gains
40 entries).

Environment: ROUNDS (3), CHATS (400), LENGTHS (10,1000,10000), BASE_BINARY (required), PARLANCE_BIN.
"""

import http.client
import json
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import (  # noqa: E402
    BINARY, Server, Upstream, build, loadavg, log, machine_line, median, pin_processes, placement_line, table,
)

ROUNDS = int(os.environ.get("ROUNDS", "3"))
CHATS = int(os.environ.get("CHATS", "400"))
LENGTHS = [int(n) for n in os.environ.get("LENGTHS", "10,1000,10000").split(",")]
CONFIG = "[chat]\nmax_history_entries = 1000000\n"
# Users per length: enough that the dialogs grow little during a round, few enough to stay cached.
USERS = {10: 400, 1000: 200, 10000: 20}


def users_for(length):
    return USERS.get(length, max(1, min(400, 2_000_000 // max(length, 1))))


def dialog(length):
    return [
        {"index": i, "name": "User" if i % 2 == 0 else "Waifu", "message": f"Line {i} of a long talk about the sea."}
        for i in range(length)
    ]


class Client:
    """One keep-alive connection."""

    def __init__(self, port):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def send(self, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        self.conn.request(method, path, body=data, headers={"content-type": "application/json"})
        r = self.conn.getresponse()
        payload = r.read()
        if r.status != 200:
            raise RuntimeError(f"{method} {path}: {r.status} {payload[:300]!r}")
        return payload


def prepare(server, length, tag):
    client = Client(server.chat_port)
    entries = dialog(length)
    users = [f"{tag}-n{length}-u{i}" for i in range(users_for(length))]
    for user in users:
        client.send("PUT", f"/v1/user/id/{user}")
        client.send("PUT", f"/v1/user/dialog/json/{user}", {"dialog": entries})
        # One read loads the dialog into the server's cache, as a chatting user's would be.
        client.send("GET", f"/v1/user/dialog/json/{user}")
    return client, users


def settle(server, quiet_seconds=0.5, timeout=60):
    """Waits until the server has spent no CPU for `quiet_seconds`: the WAL checkpoint of the dialogs
    just written belongs to the PUTs, not to the chats measured next."""
    deadline = time.perf_counter() + timeout
    last = server.cpu_seconds()
    while time.perf_counter() < deadline:
        time.sleep(quiet_seconds)
        now = server.cpu_seconds()
        if now - last < 0.005:
            return
        last = now
    log("WARNING the server did not go quiet before the chats")


def run(server, client, users, others=()):
    # Every server shares the pinned core: the others' background work (a checkpoint of their own
    # writes) would land in this one's timings.
    for other in others:
        settle(other)
    settle(server)
    latencies = []
    cpu_before = server.cpu_seconds()
    for i in range(CHATS):
        user = users[i % len(users)]
        started = time.perf_counter()
        reply = json.loads(client.send("POST", "/v1/waifu", {"user_id": user, "message": "Tell me more."}))
        latencies.append(time.perf_counter() - started)
        if reply["response"].startswith("The AI model is currently unavailable"):
            raise RuntimeError(f"the model failed for {user}")
    cpu = server.cpu_seconds() - cpu_before
    latencies.sort()
    return {
        "cpu_us": cpu / CHATS * 1e6,
        "p50_us": statistics.median(latencies) * 1e6,
        "p99_us": latencies[int(0.99 * (len(latencies) - 1))] * 1e6,
    }


def main():
    base_binary = os.environ.get("BASE_BINARY")
    if not base_binary:
        sys.exit("BASE_BINARY: the build to compare with (say, one built at the commit before the history window)")
    binary = os.environ.get("PARLANCE_BIN", BINARY)
    if binary == BINARY:
        build()
    pin_processes()
    model = Upstream("form")
    env = {"MODEL_URL": f"http://127.0.0.1:{model.port}/path/"}
    builds = {"this build": binary, "baseline": base_binary}
    results = {(b, n): [] for b in builds for n in LENGTHS}
    servers = {}
    try:
        for name, path in builds.items():
            servers[name] = Server(env=env, config_text=CONFIG, binary=path)
        for rnd in range(ROUNDS):
            for length in LENGTHS:
                for name, server in servers.items():
                    client, users = prepare(server, length, f"r{rnd}")
                    r = run(server, client, users, [s for s in servers.values() if s is not server])
                    results[(name, length)].append(r)
                    # The next length's dialogs get the cache to themselves: a full cache may refuse
                    # a newcomer (moka's admission policy), and then every chat would read it whole.
                    for user in users:
                        client.send("DELETE", f"/v1/user/id/{user}")
                    log(f"round {rnd + 1}/{ROUNDS} {name} {length} entries: {r['cpu_us']:.0f} us CPU, "
                        f"p50 {r['p50_us']:.0f} us, load {loadavg()}")
                    client.conn.close()
    finally:
        for server in servers.values():
            server.stop()
        model.stop()

    print(machine_line())
    print(placement_line())
    print(f"{CHATS} chats per round, {ROUNDS} rounds, medians; the form model at a local endpoint answering at once")
    rows = []
    for name in builds:
        first = median([r["cpu_us"] for r in results[(name, LENGTHS[0])]])
        for length in LENGTHS:
            runs = results[(name, length)]
            cpu = median([r["cpu_us"] for r in runs])
            rows.append([
                name, f"{length}", f"{users_for(length)}", f"{cpu:.0f} us",
                f"{median([r['p50_us'] for r in runs]):.0f} us", f"{median([r['p99_us'] for r in runs]):.0f} us",
                f"{cpu / first:.2f}",
            ])
    table(rows, ["build", "entries", "users", "CPU/chat", "p50", "p99", f"CPU vs {LENGTHS[0]}"])
    ours = {n: median([r["cpu_us"] for r in results[("this build", n)]]) for n in LENGTHS}
    worst = max(ours[n] / ours[LENGTHS[0]] for n in LENGTHS)
    print(f"this build, most CPU per chat at any length vs at {LENGTHS[0]} entries: {worst:.2f} "
          f"(target <= 1.20: {'met' if worst <= 1.2 else 'NOT met'})")


if __name__ == "__main__":
    main()
