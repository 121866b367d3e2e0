#!/usr/bin/env python3
"""Issue 43: a soak with faults. Three replicas on one PostgreSQL and one Redis, mixed traffic at a
modest rate for SOAK_MINUTES (60), faults on a schedule, and at the end the checks that matter after
an hour: nothing acknowledged lost, no error outside a fault, no leak, the WAL and the cache bounded.
Run by hand (as root: PostgreSQL runs as the postgres user, and the disk fault mounts a tmpfs), never
in CI:

    bench/soak.py                                   # the hour
    SOAK_MINUTES=3 bench/soak.py                    # a short run to try it (the schedule scales)
    SOAK_MINUTES=3 SOAK_SELFTEST=drop,unrecorded bench/soak.py   # the checks must fail: see below

The cluster, in a temp folder: PostgreSQL (scripts/cluster.sh's), Redis (no persistence), one local
upstream speaking the OpenAI chat-completions protocol with SSE (bench/upstream.py openai-stream,
8 chunks 15 ms apart, with its fault switch), and three replicas of a copy of the binary (so that a
rebuild during the hour changes nothing), each with its own working folder, admin socket and compile
cache; replica 3's folder is a tmpfs of SOAK_DISK_MB (32) MiB, its log included. `[chat] model` is
`openai-chat` and `openrouter` (with `offline` as its fallback) the default provider, both at the
upstream with a 5 s outbound timeout; `[openai] store_dialogs` is on; circuits cool down in 10 s;
job leases last 10 s; CACHE_TTL is SOAK_CACHE_TTL (600 s; 60 s in a short run), so that the cache
reaches its plateau within the run.

Traffic (SOAK_RATE, 24 requests/s in all, from nine client threads; a client-side balancer sends
each request to the next replica, and to the one after when a connection is refused, as a load
balancer does; a request cut off after it was sent is not retried):
  - chats, 2 threads x 2.5/s, each thread owning its users (so each user's exchanges are sent one at
    a time and their order is known): `POST /v1/waifu` plain and streamed, and `POST
    /v1/chat/completions` plain and streamed with a `user` (stored in the same dialog);
  - completions without storing, plain and `stream: true`, 3/s;
  - paraphrases, 9/s: cached texts, fresh texts on `openrouter`, and `"candidates": 3` on `offline`;
  - batches of 5 fresh texts, 1/s; asynchronous jobs of 8 fresh texts every 4 s, polled until done;
  - reads, 2/s: dialogs (their indices checked contiguous as they are read), `/v1/server/status`,
    `/health`;
  - a reload every SOAK_RELOAD_EVERY (240 s; 40 s short), replica after replica, alternating SIGHUP
    and `parlance reload`, the file alternating between two valid configurations.

Faults (SOAK_FAULTS: all by default, in the order listed, the n-th starting at n x 12 % of the run,
so `SOAK_FAULTS=disk,postgres,hang,redis,kill` runs them the other way round), each with its start and
end recorded; a fault's window is its duration plus SOAK_GRACE (20 s):
  kill      replica 2 SIGKILLed, restarted after 20 s (8 s short); ends when it answers /health
  redis     Redis SIGKILLed, started again after 15 s (6 s) on the same port, empty
  hang      the upstream holds every request unanswered for 60 s (15 s)
  postgres  PostgreSQL stopped in immediate mode (a crash), started again after 20 s (8 s)
  disk      replica 3's tmpfs filled to the last byte for 120 s (25 s); within it replica 3 is
            reloaded (SIGHUP) and then SIGKILLed and restarted on the full disk
The last 30 % of the run has no fault.

Measured and checked at the end (the run exits 1 when a check fails):
  - writes: every acknowledged chat exchange is in its user's dialog, read through the API and
    straight from PostgreSQL, in the order sent, with the reply the client got, indices contiguous
    from 0; nothing stored that was answered as failed; every stored exchange one the clients sent.
    Every accepted job ends `completed` with exactly one result or error per item (API and
    PostgreSQL). There is no usage ledger yet, so there is nothing of it to check.
  - errors: no 5xx, network error or broken stream outside a fault window; no fallback answer
    (DEFAULT_RESPONSE, or a paraphrase by `offline` after `openrouter` failed) outside one;
  - p50 and p99 latency per SOAK_BUCKET (60 s; 10 s short), by kind over the run;
  - RSS (VmRSS) and open descriptors (/proc/<pid>/fd) of each replica every SOAK_SAMPLE (5 s; 2 s
    short); per replica life, the last quarter's median against the second quarter's: flat when RSS
    grew at most max(16 MiB, 10 %) and descriptors at most 8 (lives shorter than 8 minutes are
    reported, not judged). The dialogs a replica keeps in memory (at most 64 MiB) grow with the
    data written; the JSON reports their weight as the clients can compute it;
  - PostgreSQL's pg_wal size and Redis's used_memory: bounded when the last quarter's peak is at most
    1.5 x the second quarter's peak + 32 MiB (WAL) or + 8 MiB (Redis).

SOAK_SELFTEST shows the checks can fail: `drop` deletes one acknowledged exchange of one user and one
item of one completed job in PostgreSQL before the checks (the user's version is bumped so that no
replica serves its copy from memory); `unrecorded` stops PostgreSQL for 8 s at 80 % of the run
without recording a fault, so the errors it causes are outside every window. The analysis of leaks is
checked against synthetic series at every start.

Output: bench/results/soak-<stamp>.json (or soak-short-<stamp>.json; SOAK_OUT names the folder) and
a plot beside it (.png: p99 per bucket, errors, RSS, descriptors, WAL and Redis over time, fault
windows shaded); the raw requests, samples and every process's log under target/soak/<stamp>/. The
plot needs matplotlib (bench/requirements-soak.txt; installed into .venv it is found there);
`bench/soak.py --plot RESULTS.json` draws it again.

Environment: SOAK_MINUTES, SOAK_RATE, SOAK_GRACE, SOAK_BUCKET, SOAK_SAMPLE, SOAK_FAULTS,
SOAK_RELOAD_EVERY, SOAK_DISK_MB, SOAK_CACHE_TTL, SOAK_SELFTEST, SOAK_OUT, SOAK_KEEP=1 (keep the temp
folder), PARLANCE_BIN (else target/debug/parlance, built first unless BENCH_NO_BUILD=1),
CARGO_TARGET_DIR.
"""

import errno
import gzip
import http.client
import json
import os
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

BENCH = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, BENCH)
from common import REPO, TARGET_DIR, free_port, log, machine_line, proc_status_kib  # noqa: E402

MINUTES = float(os.environ.get("SOAK_MINUTES", "60"))
TOTAL = MINUTES * 60
SHORT = MINUTES < 20
RATE = float(os.environ.get("SOAK_RATE", "24"))
GRACE = float(os.environ.get("SOAK_GRACE", "20"))
BUCKET = float(os.environ.get("SOAK_BUCKET", "10" if SHORT else "60"))
SAMPLE = float(os.environ.get("SOAK_SAMPLE", "2" if SHORT else "5"))
FAULTS = [f for f in os.environ.get("SOAK_FAULTS", "kill,redis,hang,postgres,disk").split(",") if f]
RELOAD_EVERY = float(os.environ.get("SOAK_RELOAD_EVERY", "40" if SHORT else "240"))
DISK_MB = int(os.environ.get("SOAK_DISK_MB", "32"))
CACHE_TTL = int(os.environ.get("SOAK_CACHE_TTL", "60" if SHORT else "600"))
SELFTEST = [x for x in os.environ.get("SOAK_SELFTEST", "").split(",") if x]
OUT_DIR = os.environ.get("SOAK_OUT", os.path.join(BENCH, "results"))
KEEP = os.environ.get("SOAK_KEEP") == "1"
CLUSTER = os.path.join(REPO, "scripts", "cluster.sh")
CLIENT = "soak"
HEADERS = {"content-type": "application/json", "current-user": CLIENT}
MIB = 1 << 20

# Leak thresholds: per replica life, last quarter's median against the second quarter's.
LEAK_RSS_MIB, LEAK_RSS_SHARE, LEAK_FDS, LEAK_MIN_LIFE = 16.0, 0.10, 8, 480.0

# Each fault's duration in seconds (full run, short run). They take their turns in the order that
# SOAK_FAULTS lists them, the n-th starting at n x 12 % of the run.
DURATIONS = {"kill": (20, 8), "redis": (15, 6), "hang": (60, 15), "postgres": (20, 8), "disk": (120, 25)}
SLOT = 0.12
unknown = [f for f in FAULTS if f not in DURATIONS]
if unknown or len(FAULTS) != len(set(FAULTS)):
    sys.exit(f"SOAK_FAULTS: each of {', '.join(DURATIONS)} at most once, in any order (got {FAULTS})")

CONFIG = """# bench/soak.py
[chat]
model = "openai-chat"

[openai]
store_dialogs = true

[fallback]
cooldown_ms = 10000

[jobs]
lease_secs = 10

[[plugin]]
id = "openrouter"
fallbacks = ["offline"]
limits = { http_timeout_ms = 5000 }

[[plugin]]
id = "openai-chat"
limits = { http_timeout_ms = 5000 }
"""
CONFIG_MORE = CONFIG + '\n[[plugin]]\nid = "second"\nkind = "provider"\ncomponent = "builtin:offline"\n'

SENTENCES = [
    "The committee will announce the winners on Friday.",
    "My phone battery dies too quickly.",
    "I think it will rain later today.",
    "We have to finish the report before the meeting.",
    "She always forgets her keys at home.",
    "The tap in the bathroom is dripping.",
    "They are going to visit their grandmother next week.",
    "Could you please send me the menu?",
    "The children played in the garden until dark.",
    "He bought a small house by the sea.",
    "Because the road was closed, we took the train.",
    "The museum opens at nine in the morning.",
    "I found out that the shop had closed.",
    "Our neighbour knitted me a warm scarf.",
    "The storm knocked down several trees last night.",
    "You should drink more water when it is hot.",
    "The teacher gave us the test results.",
    "It is almost time to leave for the airport.",
    "The soup smells of garlic and thyme.",
    "My brother is taller than my father.",
]


def now_iso():
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime())


def pct(xs, p):
    xs = sorted(xs)
    if not xs:
        return None
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


# --- the cluster ------------------------------------------------------------------------------------------


def pg_bin():
    dirs = sorted((d for d in os.listdir("/usr/lib/postgresql")), key=lambda v: [int(x) for x in v.split(".") if x.isdigit()])
    return f"/usr/lib/postgresql/{dirs[-1]}/bin"


class Postgres:
    def __init__(self, root):
        self.dir = os.path.join(root, "pgd")
        self.port = free_port()
        self.bin = pg_bin()
        self.url = self.start()

    def start(self):
        return subprocess.run(
            ["bash", CLUSTER, "postgres", "start", self.dir, str(self.port), str(os.getpid())],
            capture_output=True, text=True, check=True,
        ).stdout.strip()

    def crash(self):
        """Stops the server in immediate mode: no checkpoint, recovery from the WAL at the next start."""
        subprocess.run(
            ["runuser", "-u", "postgres", "--", f"{self.bin}/pg_ctl", "-D", os.path.join(self.dir, "pg"),
             "-m", "immediate", "-w", "stop"],
            capture_output=True, check=False,
        )

    def stop(self):
        subprocess.run(["bash", CLUSTER, "postgres", "stop", self.dir], capture_output=True, check=False)

    def psql(self, sql):
        out = subprocess.run([f"{self.bin}/psql", self.url, "-tAqc", sql], capture_output=True, text=True, timeout=120)
        if out.returncode != 0:
            raise RuntimeError(f"psql: {out.stderr.strip()}")
        return out.stdout.strip()

    def wal_bytes(self):
        total = 0
        try:
            with os.scandir(os.path.join(self.dir, "pg", "pg_wal")) as it:
                for e in it:
                    if e.is_file(follow_symlinks=False):
                        total += e.stat(follow_symlinks=False).st_size
        except OSError:
            return None
        return total


class Redis:
    def __init__(self, root):
        self.root = root
        self.port = free_port()
        self.proc = None
        self.start()

    def start(self):
        self.log = open(os.path.join(self.root, "redis.log"), "ab")
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", self.root],
            stdout=self.log, stderr=subprocess.STDOUT,
        )
        register_pid(self.proc.pid)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.info("server") is not None:
                return
            time.sleep(0.05)
        raise RuntimeError("redis did not start")

    def kill(self):
        self.proc.kill()
        self.proc.wait()
        self.log.close()

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)

    def info(self, section):
        try:
            out = subprocess.run(["redis-cli", "-p", str(self.port), "info", section], capture_output=True,
                                 text=True, timeout=3)
        except subprocess.TimeoutExpired:
            return None
        if out.returncode != 0 or not out.stdout.strip():
            return None
        fields = {}
        for line in out.stdout.splitlines():
            if ":" in line:
                k, _, v = line.partition(":")
                fields[k.strip()] = v.strip()
        return fields

    def sample(self):
        mem, keys = self.info("memory"), self.info("keyspace")
        if mem is None:
            return None, None
        n = 0
        for v in (keys or {}).values():
            for part in v.split(","):
                if part.startswith("keys="):
                    n += int(part[5:])
        return int(mem["used_memory"]), n


class Upstream:
    def __init__(self, root):
        self.log = open(os.path.join(root, "upstream.log"), "ab")
        self.proc = subprocess.Popen(
            [sys.executable, os.path.join(BENCH, "upstream.py"), "openai-stream", "--chunks", "8", "--interval-ms", "15"],
            stdout=subprocess.PIPE, stderr=self.log, text=True,
        )
        line = self.proc.stdout.readline()
        if not line.startswith("listening on "):
            raise RuntimeError(f"upstream did not start: {line!r}")
        self.port = int(line.split()[-1])

    def fault(self, mode):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        conn.request("POST", "/_fault", body=json.dumps({"mode": mode}), headers={"content-type": "application/json"})
        r = conn.getresponse()
        r.read()
        conn.close()
        if r.status != 200:
            raise RuntimeError(f"upstream fault switch: {r.status}")

    def stats(self):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        conn.request("GET", "/_stats")
        data = json.loads(conn.getresponse().read())
        conn.close()
        return data

    def stop(self):
        self.proc.terminate()
        self.proc.wait(10)


class Replica:
    def __init__(self, index, root, binary, env):
        self.index = index
        self.dir = os.path.join(root, f"replica-{index}")
        self.binary = binary
        self.api_port, self.chat_port = free_port(), free_port()
        self.env = {
            **env,
            "API_PORT": str(self.api_port),
            "PORT": str(self.chat_port),
            "PARLANCE_CACHE_DIR": os.path.join(self.dir, "compiled"),
        }
        self.proc = None
        self.lives = []  # {"pid", "started", "ready", "ended", "end_cause"}
        self.log_path = os.path.join(self.dir, "replica.log")

    def write_config(self, text):
        with open(os.path.join(self.dir, "parlance.toml"), "w") as f:
            f.write(text)

    def start(self, clock, timeout=300):
        """Starts the replica and waits until /health answers; returns the life's record."""
        log_file = open(self.log_path, "ab")
        self.proc = subprocess.Popen(
            [self.binary, "--mode", "api", "--config", "parlance.toml"],
            cwd=self.dir, env=self.env, stdout=subprocess.DEVNULL, stderr=log_file,
        )
        log_file.close()
        life = {"pid": self.proc.pid, "started": clock(), "ready": None, "ended": None, "end_cause": None}
        self.lives.append(life)
        register_pid(self.proc.pid)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                life["ended"], life["end_cause"] = clock(), f"exited with {self.proc.returncode} before ready"
                return life
            try:
                status, _, _ = raw_request(self.api_port, "GET", "/health", timeout=2)
                if status == 200:
                    life["ready"] = clock()
                    return life
            except OSError:
                pass
            time.sleep(0.05)
        life["end_cause"] = "not ready in time"
        return life

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def pid(self):
        return self.proc.pid if self.alive() else None

    def kill(self, clock, cause):
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            if self.lives and self.lives[-1]["ended"] is None:
                self.lives[-1]["ended"], self.lives[-1]["end_cause"] = clock(), cause

    def stop(self, clock):
        if self.alive():
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.lives and self.lives[-1]["ended"] is None:
            self.lives[-1]["ended"], self.lives[-1]["end_cause"] = clock(), "end of the run"

    def generation(self):
        try:
            status, _, body = raw_request(self.api_port, "GET", "/health", timeout=5)
            if status == 200:
                return json.loads(body)["configuration"]["generation"]
        except (OSError, ValueError, KeyError):
            pass
        return None

    def reload_command(self):
        out = subprocess.run([self.binary, "reload"], cwd=self.dir, env=self.env, capture_output=True, text=True, timeout=120)
        return out.returncode == 0, (out.stdout + out.stderr).strip()[-300:]


# The processes a watcher kills if this script dies without cleaning up (PostgreSQL has its own).
PIDS_FILE = None


def register_pid(pid):
    if PIDS_FILE:
        with open(PIDS_FILE, "a") as f:
            f.write(f"{pid}\n")


def start_watcher(root, mount):
    """A shell that waits for this process to end, then kills what it started and unmounts the tmpfs."""
    script = (
        f"while kill -0 {os.getpid()} 2>/dev/null; do sleep 2; done; "
        f"for p in $(cat '{PIDS_FILE}' 2>/dev/null); do kill -9 $p 2>/dev/null; done; "
        + (f"sleep 1; umount -l '{mount}' 2>/dev/null; " if mount else "")
    )
    subprocess.Popen(["bash", "-c", script], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                     stderr=subprocess.DEVNULL, start_new_session=True)


# --- HTTP ---------------------------------------------------------------------------------------------


def raw_request(port, method, path, body=None, headers=None, timeout=30):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        data = None if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
        conn.request(method, path, body=data, headers=headers or {})
        r = conn.getresponse()
        return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read()
    finally:
        conn.close()


class Outcome:
    OK, DEGRADED, ERR5XX, ERRNET, ERRSTREAM, ERR4XX, BAD = "ok", "degraded", "5xx", "net", "stream", "4xx", "bad"
    ERRORS = ("5xx", "net", "stream")


class Recorder:
    def __init__(self, clock):
        self.clock = clock
        self.lock = threading.Lock()
        self.records = []  # (t0, t1, kind, replica, status, outcome, note)
        self.refused = {}

    def add(self, kind, t0, t1, replica, status, outcome, note=""):
        with self.lock:
            self.records.append((round(t0, 3), round(t1, 3), kind, replica, status, outcome, note[:200]))

    def refusal(self, replica):
        with self.lock:
            self.refused[replica] = self.refused.get(replica, 0) + 1


class Balancer:
    """Round robin over the replicas; a refused connection goes to the next one (at most one round)."""

    def __init__(self, replicas, recorder):
        self.replicas = replicas
        self.recorder = recorder
        self.lock = threading.Lock()
        self.counter = 0

    def call(self, method, path, body=None, port="api", timeout=30, headers=None):
        """(status or None, headers, body bytes, replica index, error text)."""
        with self.lock:
            start = self.counter
            self.counter += 1
        hdrs = dict(HEADERS)
        hdrs.update(headers or {})
        error = None
        for i in range(len(self.replicas)):
            replica = self.replicas[(start + i) % len(self.replicas)]
            p = replica.api_port if port == "api" else replica.chat_port
            try:
                status, h, data = raw_request(p, method, path, body, hdrs, timeout)
                return status, h, data, replica.index, None
            except ConnectionRefusedError:
                self.recorder.refusal(replica.index)
                error = "connection refused everywhere"
                continue
            except (OSError, http.client.HTTPException) as e:
                return None, {}, b"", replica.index, f"{type(e).__name__}: {e}"
        return None, {}, b"", None, error


def sse_events(data):
    """[(event, data)] of a text/event-stream body (`event:` defaults to "message")."""
    out = []
    for block in data.decode("utf-8", "replace").split("\n\n"):
        event, lines = "message", []
        for line in block.split("\n"):
            if line.startswith("event:"):
                event = line[6:].strip()
            elif line.startswith("data:"):
                lines.append(line[5:].lstrip(" "))
        if lines:
            out.append((event, "\n".join(lines)))
    return out


# --- traffic ------------------------------------------------------------------------------------------------


class Attempt:
    """One exchange a chat client sent: acknowledged (must be stored), failed (must not be), or
    uncertain (the answer was lost: either)."""

    __slots__ = ("kind", "message", "reply", "state", "indices", "t", "t1", "status", "replica")

    def __init__(self, kind, message, t):
        self.kind, self.message, self.t = kind, message, t
        self.reply, self.state, self.indices = None, None, None
        self.t1 = self.status = self.replica = None


class Traffic:
    def __init__(self, balancer, recorder, clock, stop):
        self.lb, self.rec, self.clock, self.stop = balancer, recorder, clock, stop
        self.users = {}  # user -> [Attempt]
        self.users_lock = threading.Lock()
        self.jobs = {}  # job_id -> {"texts", "created", "done", "status", "verified", "problems"}
        self.jobs_lock = threading.Lock()
        self.counter = 0
        self.counter_lock = threading.Lock()
        self.read_violations = []

    def next_n(self):
        with self.counter_lock:
            self.counter += 1
            return self.counter

    def paced(self, rate, step):
        """Calls step() `rate` times a second until stopped, without bursts after a stall."""
        if rate <= 0:
            return
        period = 1.0 / rate
        nxt = time.monotonic() + random.random() * period
        while not self.stop.is_set():
            wait = nxt - time.monotonic()
            if wait > 0:
                if self.stop.wait(wait):
                    return
            elif wait < -5:
                nxt = time.monotonic()
            nxt += period
            try:
                step()
            except Exception as e:  # a bug in the driver must not end the soak silently
                log(f"driver error in {threading.current_thread().name}: {type(e).__name__}: {e}")

    def timed(self, kind, method, path, body=None, port="api", timeout=30):
        t0 = self.clock()
        status, h, data, replica, error = self.lb.call(method, path, body, port, timeout)
        return t0, self.clock(), status, h, data, replica, error

    # Chats: each thread owns its users, so one user's exchanges go one at a time.
    def chat_thread(self, w, rate):
        users = [f"w{w}-u{k}" for k in range(12)]
        kinds = ["chat", "chat-stream", "openai-store", "openai-store-stream"]
        i = [0]

        def step():
            n = i[0]
            i[0] += 1
            user = users[n % len(users)]
            kind = kinds[(n // len(users)) % len(kinds)] if random.random() < 0.5 else random.choice(kinds)
            with self.users_lock:
                seq = len(self.users.setdefault(user, []))
            message = f"{user} says m{seq}: shall we walk by the sea? ({kind})"
            a = Attempt(kind, message, self.clock())
            with self.users_lock:
                self.users[user].append(a)
            self.chat_once(user, a)

        self.paced(rate, step)

    def chat_once(self, user, a):
        kind = a.kind
        if kind.startswith("chat"):
            body = {"user_id": user, "message": a.message}
            if kind == "chat-stream":
                body["stream"] = True
            t0, t1, status, h, data, replica, error = self.timed(kind, "POST", "/v1/waifu", body, port="chat")
        else:
            body = {"model": "openai-chat", "user": user, "messages": [{"role": "user", "content": a.message}]}
            if kind == "openai-store-stream":
                body["stream"] = True
            t0, t1, status, h, data, replica, error = self.timed(kind, "POST", "/v1/chat/completions", body)
        outcome, note = self.judge_chat(a, status, h, data, error)
        a.t1, a.status, a.replica = t1, status, replica
        self.rec.add(kind, t0, t1, replica, status, outcome, f"{a.message.split(':')[0]}; {note}")

    def judge_chat(self, a, status, h, data, error):
        """Sets the attempt's state and reply; returns (outcome, note)."""
        if status is None:
            a.state = "uncertain"
            return Outcome.ERRNET, error or ""
        if status >= 500:
            a.state = "failed"
            return Outcome.ERR5XX, data[:200].decode("utf-8", "replace")
        if status != 200:
            a.state = "failed"
            return Outcome.ERR4XX, data[:200].decode("utf-8", "replace")
        try:
            if a.kind == "chat":
                if h.get("x-parlance-fallback"):
                    a.state = "failed"
                    return Outcome.DEGRADED, "fallback " + h["x-parlance-fallback"]
                a.reply, a.state = json.loads(data)["response"], "ack"
                return Outcome.OK, ""
            if a.kind == "chat-stream":
                events = sse_events(data)
                last = events[-1] if events else ("none", "")
                if last[0] == "done":
                    done = json.loads(last[1])
                    if done.get("fallback") or not done.get("indices"):
                        a.state = "failed"
                        return Outcome.DEGRADED, "fallback in done"
                    a.reply, a.indices, a.state = done["response"], done["indices"], "ack"
                    return Outcome.OK, ""
                if last[0] == "error":
                    a.state = "failed"
                    return Outcome.ERRSTREAM, last[1][:200]
                a.state = "uncertain"
                return Outcome.ERRSTREAM, f"stream ended without done or error ({len(events)} events)"
            if a.kind == "openai-store":
                a.reply, a.state = json.loads(data)["choices"][0]["message"]["content"], "ack"
                return Outcome.OK, ""
            # openai-store-stream
            text, done, err = self.openai_stream(data)
            if err:
                a.state = "failed"
                return Outcome.ERRSTREAM, err
            if not done:
                a.state = "uncertain"
                return Outcome.ERRSTREAM, "stream ended without [DONE]"
            a.reply, a.state = text, "ack"
            return Outcome.OK, ""
        except (ValueError, KeyError, IndexError, TypeError) as e:
            a.state = "uncertain"
            return Outcome.BAD, f"unreadable answer: {e}: {data[:120]!r}"

    @staticmethod
    def openai_stream(data):
        """(text, saw [DONE], error) of a chat-completions event stream."""
        text, done, err = [], False, None
        for _, payload in sse_events(data):
            if payload == "[DONE]":
                done = True
                continue
            obj = json.loads(payload)
            if "error" in obj:
                err = json.dumps(obj["error"])[:200]
                continue
            for c in obj.get("choices") or []:
                text.append((c.get("delta") or {}).get("content") or "")
        return "".join(text), done, err

    # Completions that store nothing.
    def completion_thread(self, rate):
        def step():
            n = self.next_n()
            stream = n % 2 == 0
            kind = "completion-stream" if stream else "completion"
            body = {"model": "openai-chat", "messages": [
                {"role": "system", "content": "Answer in one sentence."},
                {"role": "user", "content": f"Completion {n}: tell me about the sea."}]}
            if stream:
                body["stream"] = True
                body["stream_options"] = {"include_usage": True}
            t0, t1, status, h, data, replica, error = self.timed(kind, "POST", "/v1/chat/completions", body)
            outcome, note = self.judge_plain(status, data, error)
            if outcome == Outcome.OK:
                try:
                    if stream:
                        text, done, err = self.openai_stream(data)
                        if err:
                            outcome, note = Outcome.ERRSTREAM, err
                        elif not done or not text:
                            outcome, note = Outcome.ERRSTREAM, "no [DONE] or no text"
                    elif not json.loads(data)["choices"][0]["message"]["content"]:
                        outcome, note = Outcome.BAD, "empty completion"
                except (ValueError, KeyError, IndexError) as e:
                    outcome, note = Outcome.BAD, f"unreadable: {e}"
            self.rec.add(kind, t0, t1, replica, status, outcome, note)

        self.paced(rate, step)

    @staticmethod
    def judge_plain(status, data, error):
        if status is None:
            return Outcome.ERRNET, error or ""
        if status >= 500:
            return Outcome.ERR5XX, data[:200].decode("utf-8", "replace")
        if status >= 400:
            return Outcome.ERR4XX, data[:200].decode("utf-8", "replace")
        return Outcome.OK, ""

    # Paraphrases: cached, fresh on openrouter, and candidates on offline.
    def paraphrase_thread(self, rate):
        def step():
            n = self.next_n()
            r = random.random()
            if r < 0.4:
                kind, body = "paraphrase-cached", {"text": random.choice(SENTENCES)}
            elif r < 0.7:
                kind, body = "paraphrase", {"text": f"Fresh text {n}: {random.choice(SENTENCES)}", "provider": "openrouter", "skip_cache": True}
            else:
                kind = "candidates"
                body = {"text": random.choice(SENTENCES), "provider": "offline", "candidates": 3, "skip_cache": random.random() < 0.5}
            t0, t1, status, h, data, replica, error = self.timed(kind, "POST", "/paraphrase", body)
            outcome, note = self.judge_plain(status, data, error)
            if outcome == Outcome.OK:
                try:
                    answer = json.loads(data)
                    if not answer.get("paraphrase"):
                        outcome, note = Outcome.BAD, "no paraphrase"
                    elif kind == "candidates" and not answer.get("candidates"):
                        outcome, note = Outcome.BAD, "no candidates"
                    elif answer.get("attempts"):
                        outcome, note = Outcome.DEGRADED, "fallback: " + json.dumps(answer["attempts"])[:150]
                except ValueError as e:
                    outcome, note = Outcome.BAD, f"unreadable: {e}"
            self.rec.add(kind, t0, t1, replica, status, outcome, note)

        self.paced(rate, step)

    def batch_thread(self, rate):
        def step():
            n = self.next_n()
            texts = [f"Batch {n} item {k}: {random.choice(SENTENCES)}" for k in range(5)]
            t0, t1, status, h, data, replica, error = self.timed("batch", "POST", "/paraphrase/batch", {"texts": texts, "provider": "openrouter"})
            outcome, note = self.judge_plain(status, data, error)
            if outcome == Outcome.OK:
                try:
                    answer = json.loads(data)
                    results = answer["results"]
                    if len(results) != 5 or sorted(r["index"] for r in results) != list(range(5)):
                        outcome, note = Outcome.BAD, "results do not cover the texts"
                    elif answer["summary"]["failed"]:
                        outcome, note = Outcome.DEGRADED, f"{answer['summary']['failed']} items failed"
                    elif any(r.get("attempts") for r in results):
                        outcome, note = Outcome.DEGRADED, "fallback served items"
                except (ValueError, KeyError) as e:
                    outcome, note = Outcome.BAD, f"unreadable: {e}"
            self.rec.add("batch", t0, t1, replica, status, outcome, note)

        self.paced(rate, step)

    # Jobs: one created every few seconds, the open ones polled in turn.
    def job_thread(self, create_every, poll_rate):
        last_create = [0.0]
        turn = [0]

        def step():
            now = time.monotonic()
            if now - last_create[0] >= create_every:
                last_create[0] = now
                self.create_job()
                return
            with self.jobs_lock:
                open_jobs = [j for j, v in self.jobs.items() if not v["done"]]
            if open_jobs:
                turn[0] += 1
                self.poll_job(open_jobs[turn[0] % len(open_jobs)])

        self.paced(poll_rate, step)

    def create_job(self):
        n = self.next_n()
        texts = [f"Job {n} text {k}: {random.choice(SENTENCES)}" for k in range(8)]
        body = {"texts": texts, "provider": "openrouter", "skip_cache": True}
        t0, t1, status, h, data, replica, error = self.timed("job-create", "POST", "/paraphrase/batch/async", body)
        outcome, note = self.judge_plain(status, data, error)
        if status == 202:
            try:
                job_id = json.loads(data)["job_id"]
                with self.jobs_lock:
                    self.jobs[job_id] = {"texts": texts, "created": t1, "done": False, "status": "pending",
                                         "finished": None, "verified": None, "problems": []}
            except (ValueError, KeyError) as e:
                outcome, note = Outcome.BAD, f"unreadable: {e}"
        elif outcome == Outcome.OK:
            outcome, note = Outcome.BAD, f"status {status}, not 202"
        self.rec.add("job-create", t0, t1, replica, status, outcome, note)

    def poll_job(self, job_id):
        t0, t1, status, h, data, replica, error = self.timed("job-poll", "GET", f"/jobs/{job_id}?offset=0&limit=1000")
        outcome, note = self.judge_plain(status, data, error)
        if outcome == Outcome.OK:
            try:
                job = json.loads(data)
                with self.jobs_lock:
                    entry = self.jobs[job_id]
                    entry["status"] = job["status"]
                    if job["status"] in ("completed", "cancelled", "failed"):
                        entry["done"], entry["finished"] = True, t1
                        entry["problems"] = self.job_problems(job, len(entry["texts"]))
                        entry["failed_items"] = job.get("failed", 0)
                        entry["fallback_items"] = sum(1 for r in job.get("results", []) if r.get("attempts"))
            except (ValueError, KeyError) as e:
                outcome, note = Outcome.BAD, f"unreadable: {e}"
        self.rec.add("job-poll", t0, t1, replica, status, outcome, note)

    @staticmethod
    def job_problems(job, total):
        problems = []
        if job.get("status") != "completed":
            problems.append(f"status {job.get('status')}")
        if job.get("total_items") != total:
            problems.append(f"total_items {job.get('total_items')} for {total} texts")
        indices = [r["index"] for r in job.get("results", [])] + [e["index"] for e in job.get("errors", [])]
        if sorted(indices) != list(range(total)):
            problems.append(f"items with a result: {len(set(indices))} of {total} ({len(indices)} results)")
        if job.get("successful", 0) + job.get("failed", 0) != total:
            problems.append(f"successful {job.get('successful')} + failed {job.get('failed')} != {total}")
        return problems

    # Reads: dialogs (indices checked), status and health.
    def read_thread(self, rate):
        def step():
            n = self.next_n()
            if n % 5 == 0:
                t0, t1, status, h, data, replica, error = self.timed("status", "GET", "/v1/server/status", port="chat")
                outcome, note = self.judge_plain(status, data, error)
                self.rec.add("status", t0, t1, replica, status, outcome, note)
                return
            if n % 5 == 1:
                t0, t1, status, h, data, replica, error = self.timed("health", "GET", "/health")
                outcome, note = self.judge_plain(status, data, error)
                self.rec.add("health", t0, t1, replica, status, outcome, note)
                return
            with self.users_lock:
                users = list(self.users)
            if not users:
                return
            user = random.choice(users)
            t0, t1, status, h, data, replica, error = self.timed("dialog-read", "GET", f"/v1/user/dialog/json/{user}", port="chat")
            outcome, note = self.judge_plain(status, data, error)
            if status == 404:
                outcome, note = Outcome.OK, "no dialog yet"
            elif outcome == Outcome.OK:
                try:
                    dialog = json.loads(data)["dialog"]
                    problem = dialog_shape_problem(dialog)
                    if problem:
                        outcome, note = Outcome.BAD, f"{user}: {problem}"
                        self.read_violations.append((t1, user, problem))
                except (ValueError, KeyError) as e:
                    outcome, note = Outcome.BAD, f"unreadable: {e}"
            self.rec.add("dialog-read", t0, t1, replica, status, outcome, note)

        self.paced(rate, step)


def dialog_shape_problem(dialog):
    """What is wrong with a dialog's shape: indices 0..n-1 in order, pairs of a user line and a reply."""
    for i, e in enumerate(dialog):
        if e["index"] != i:
            return f"index {e['index']} at position {i}"
    if len(dialog) % 2:
        return f"{len(dialog)} entries: an exchange cut in half"
    for i in range(0, len(dialog), 2):
        if dialog[i]["name"] != "User" or dialog[i + 1]["name"] not in ("Waifu", "Assistant"):
            return f"entries {i}, {i + 1} are {dialog[i]['name']}, {dialog[i + 1]['name']}"
    return None


# --- faults and reloads -------------------------------------------------------------------------------------


class Controller:
    def __init__(self, cluster, clock, stop):
        self.c, self.clock, self.stop = cluster, clock, stop
        self.faults = []  # {"name", "start", "end", "notes"}
        self.reloads = []  # {"t", "replica", "how", "ok", "note"}
        self.disk_busy = None  # the replica whose disk is full
        self.reload_lock = threading.Lock()
        self.reload_n = 0

    def sleep_until(self, t):
        while not self.stop.is_set():
            left = t - self.clock()
            if left <= 0:
                return True
            self.stop.wait(min(left, 1.0))
        return False

    def fault_schedule(self):
        plan = []
        for n, name in enumerate(FAULTS, start=1):
            full, short = DURATIONS[name]
            plan.append((n * SLOT * TOTAL, name, short if SHORT else full))
        if "unrecorded" in SELFTEST:
            plan.append((0.80 * TOTAL, "unrecorded", 8))
        return sorted(plan)

    def run_faults(self):
        for start, name, duration in self.fault_schedule():
            if not self.sleep_until(start):
                return
            log(f"t={self.clock():.0f}s fault {name} for {duration} s")
            try:
                getattr(self, f"fault_{name}")(duration)
            except Exception as e:
                log(f"fault {name} raised {type(e).__name__}: {e}")
                if self.faults and self.faults[-1]["name"] == name and self.faults[-1]["end"] is None:
                    self.faults[-1]["end"] = self.clock()
                    self.faults[-1]["notes"].append(f"raised {type(e).__name__}: {e}")

    def record(self, name):
        f = {"name": name, "start": round(self.clock(), 2), "end": None, "notes": []}
        self.faults.append(f)
        return f

    def finish(self, f, note=None):
        f["end"] = round(self.clock(), 2)
        if note:
            f["notes"].append(note)
        log(f"t={f['end']:.0f}s fault {f['name']} ended ({f['end'] - f['start']:.1f} s){': ' + note if note else ''}")

    def restart(self, replica, f, attempts=3, timeout=120):
        for k in range(attempts):
            life = replica.start(self.clock, timeout)
            if life["ready"] is not None:
                f["notes"].append(f"replica {replica.index} ready {life['ready'] - life['started']:.1f} s after start (pid {life['pid']})")
                return True
            f["notes"].append(f"replica {replica.index} start {k + 1} failed: {life['end_cause']}; "
                              f"log tail: {tail(replica.log_path, 400)}")
            log(f"replica {replica.index} did not start: {life['end_cause']}")
            if replica.alive():
                replica.kill(self.clock, "killed: not ready")
            time.sleep(2)
        return False

    def fault_kill(self, duration):
        r = self.c.replicas[1]
        f = self.record("kill")
        r.kill(self.clock, "SIGKILL (fault)")
        f["notes"].append(f"replica {r.index} SIGKILLed")
        self.stop.wait(duration)
        ok = self.restart(r, f)
        self.finish(f, None if ok else "replica did not come back")

    def fault_redis(self, duration):
        f = self.record("redis")
        self.c.redis.kill()
        self.stop.wait(duration)
        self.c.redis.start()
        self.finish(f, "Redis SIGKILLed and started again, empty")

    def fault_hang(self, duration):
        f = self.record("hang")
        self.c.upstream.fault("hang")
        self.stop.wait(duration)
        self.c.upstream.fault("none")
        stats = self.c.upstream.stats()
        self.finish(f, f"upstream held {stats.get('hung')} requests in all")

    def fault_postgres(self, duration, name="postgres"):
        f = self.record(name)
        self.c.pg.crash()
        self.stop.wait(duration)
        self.c.pg.start()
        self.finish(f, "PostgreSQL stopped in immediate mode and started again")

    def fault_unrecorded(self, duration):
        # The self-test: a fault nobody records, so its errors fall outside every window.
        self.c.pg.crash()
        self.stop.wait(duration)
        self.c.pg.start()
        self.faults.append({"name": "unrecorded (self-test: not a window)", "start": None, "end": None, "notes": [
            f"PostgreSQL stopped from t={self.clock() - duration:.0f}s for {duration} s"]})

    def fault_disk(self, duration):
        r = self.c.replicas[2]
        if not self.c.tmpfs:
            self.faults.append({"name": "disk", "start": None, "end": None, "notes": ["skipped: no tmpfs (not root?)"]})
            return
        f = self.record("disk")
        self.disk_busy = r.index
        filler = os.path.join(r.dir, "filler")
        written = fill_disk(filler)
        st = os.statvfs(r.dir)
        f["notes"].append(f"filled replica {r.index}'s {DISK_MB} MiB tmpfs with {written / MIB:.1f} MiB; "
                          f"{st.f_bavail * st.f_frsize} bytes left")
        self.stop.wait(duration / 3)
        with self.reload_lock:
            before = r.generation()
            os.kill(r.pid(), signal.SIGHUP) if r.pid() else None
            gen = wait_generation(r, before)
            self.reloads.append({"t": round(self.clock(), 2), "replica": r.index, "how": "SIGHUP (disk full)",
                                 "ok": gen is not None, "note": f"generation {before} -> {gen}"})
        f["notes"].append(f"SIGHUP on the full disk: generation {before} -> {gen}")
        self.stop.wait(duration / 3)
        r.kill(self.clock, "SIGKILL (disk fault)")
        ok = self.restart(r, f, attempts=1, timeout=30)
        f["notes"].append(f"restart on the full disk: {'ready' if ok else 'FAILED'}")
        self.stop.wait(max(0.0, duration / 3 - 2))
        os.unlink(filler)
        self.disk_busy = None
        if not ok:
            ok = self.restart(r, f)
            f["notes"].append(f"restart once the disk was freed: {'ready' if ok else 'FAILED'}")
        self.finish(f, f"filler removed; replica {r.index} alive: {r.alive()}")

    def run_reloads(self):
        t = RELOAD_EVERY
        while self.sleep_until(t):
            t += RELOAD_EVERY
            self.reload_once()

    def reload_once(self):
        with self.reload_lock:
            self.reload_n += 1
            n = self.reload_n
            r = self.c.replicas[(n - 1) % len(self.c.replicas)]
            if not r.alive():
                self.reloads.append({"t": round(self.clock(), 2), "replica": r.index, "how": "skipped", "ok": None,
                                     "note": "replica down"})
                return
            if self.disk_busy != r.index:
                r.write_config(CONFIG_MORE if n % 2 else CONFIG)
            how = "SIGHUP" if n % 2 else "parlance reload"
            before = r.generation()
            if how == "SIGHUP":
                os.kill(r.pid(), signal.SIGHUP)
                gen = wait_generation(r, before)
                ok, note = gen is not None, f"generation {before} -> {gen}"
            else:
                ok, note = r.reload_command()
            self.reloads.append({"t": round(self.clock(), 2), "replica": r.index, "how": how, "ok": ok, "note": note})
            log(f"t={self.clock():.0f}s reload of replica {r.index} by {how}: {'ok' if ok else 'FAILED'} ({note})")


def wait_generation(replica, before, timeout=60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        g = replica.generation()
        if g is not None and before is not None and g > before:
            return g
        time.sleep(0.2)
    return None


def fill_disk(path):
    """Writes zeros until the file system is full; returns the bytes written."""
    written = 0
    with open(path, "wb", buffering=0) as f:
        for size in (1 << 20, 1 << 16, 1 << 12, 1 << 8, 1):
            block = b"\0" * size
            while True:
                try:
                    written += f.write(block)
                except OSError as e:
                    if e.errno != errno.ENOSPC:
                        raise
                    break
    return written


def tail(path, n):
    try:
        with open(path, "rb") as f:
            f.seek(max(0, os.path.getsize(path) - n))
            return f.read().decode("utf-8", "replace").replace("\n", " | ")
    except OSError as e:
        return f"({e})"


# --- sampling ------------------------------------------------------------------------------------------------


def sampler(cluster, clock, stop, samples):
    while not stop.is_set():
        t = clock()
        row = {"t": round(t, 2), "replicas": {}}
        for r in cluster.replicas:
            pid = r.pid()
            if pid is None:
                continue
            try:
                rss = proc_status_kib(pid, "VmRSS")
                fds = len(os.listdir(f"/proc/{pid}/fd"))
                threads = proc_status_kib(pid, "Threads")
            except (OSError, TypeError):
                continue
            row["replicas"][str(r.index)] = {"pid": pid, "rss_kib": rss, "fds": fds, "threads": threads}
        row["wal_bytes"] = cluster.pg.wal_bytes()
        row["redis_used"], row["redis_keys"] = cluster.redis.sample()
        row["load"] = os.getloadavg()[0]
        samples.append(row)
        stop.wait(SAMPLE)


# --- checks --------------------------------------------------------------------------------------------------


def check_dialogs(traffic, cluster, selftest_dropped):
    """Every user's dialog through the API and from PostgreSQL, against what the clients sent."""
    rows = json.loads(cluster.pg.psql(
        "SELECT coalesce(json_agg(json_build_array(user_id, idx, name, message) ORDER BY user_id, idx), '[]') "
        f"FROM dialog_entries WHERE client = '{CLIENT}'"))
    from_pg = {}
    for user, idx, name, message in rows:
        from_pg.setdefault(user, []).append({"index": idx, "name": name, "message": message})
    result = {"users": len(traffic.users), "acknowledged": 0, "failed": 0, "uncertain": 0,
              "found_api": 0, "found_pg": 0, "missing_api": [], "missing_pg": [], "phantom": [], "foreign": [],
              "order": [], "reply_mismatch": [], "shape": [], "indices_mismatch": [], "uncertain_stored": 0,
              "exchanges_stored": 0, "entries_stored": 0, "dialog_weight_bytes": 0}
    replicas = cluster.replicas
    for k, (user, attempts) in enumerate(sorted(traffic.users.items())):
        r = replicas[k % len(replicas)]
        status, _, data = raw_request(r.chat_port, "GET", f"/v1/user/dialog/json/{user}", headers=HEADERS, timeout=60)
        api_dialog = json.loads(data)["dialog"] if status == 200 else []
        for source, dialog in (("api", api_dialog), ("pg", from_pg.get(user, []))):
            problem = dialog_shape_problem(dialog)
            if problem:
                result["shape"].append(f"{source} {user}: {problem}")
            stored = {}
            for i in range(0, len(dialog) - 1, 2):
                stored[dialog[i]["message"]] = (i, dialog[i + 1]["message"])
            positions = []
            by_message = {a.message: a for a in attempts}
            for msg in stored:
                if msg not in by_message:
                    result["foreign"].append(f"{source} {user}: {msg[:60]}")
            for a in attempts:
                hit = stored.get(a.message)
                if a.state == "ack":
                    if source == "api":
                        result["acknowledged"] += 1
                    if hit is None:
                        result[f"missing_{source}"].append(f"{user}: {a.message[:60]} ({a.kind} at t={a.t:.0f}s)")
                        continue
                    result[f"found_{source}"] += 1
                    positions.append(hit[0])
                    if hit[1] != a.reply:
                        result["reply_mismatch"].append(f"{source} {user}: {a.message[:40]}: stored {hit[1][:40]!r}, answered {a.reply[:40]!r}")
                    if a.indices is not None and a.indices != [hit[0], hit[0] + 1]:
                        result["indices_mismatch"].append(f"{source} {user}: done said {a.indices}, stored at {hit[0]}")
                elif a.state == "failed":
                    if source == "api":
                        result["failed"] += 1
                    if hit is not None:
                        result["phantom"].append(f"{source} {user}: {a.message[:40]} ({a.kind} at t={a.t:.1f}-{a.t1:.1f}s on "
                                                 f"replica {a.replica}, answered {a.status}, stored)")
                    elif hit is None:
                        pass
                else:
                    if source == "api":
                        result["uncertain"] += 1
                        if hit is not None:
                            result["uncertain_stored"] += 1
                    if hit is not None:
                        positions.append(hit[0])
            if positions != sorted(positions):
                result["order"].append(f"{source} {user}: exchanges out of the order sent")
            if source == "pg":
                result["exchanges_stored"] += len(dialog) // 2
                result["entries_stored"] += len(dialog)
                result["dialog_weight_bytes"] += sum(2 * (len(e["name"]) + len(e["message"]) + 48) for e in dialog)
    for key in ("missing_api", "missing_pg", "phantom", "foreign", "order", "reply_mismatch", "shape", "indices_mismatch"):
        result[f"{key}_count"] = len(result[key])
        result[key] = result[key][:20]
    result["ok"] = all(result[f"{k}_count"] == 0 for k in
                       ("missing_api", "missing_pg", "foreign", "order", "reply_mismatch", "shape", "indices_mismatch"))
    result["no_phantom"] = result["phantom_count"] == 0
    result["selftest_dropped"] = selftest_dropped
    return result


def check_jobs(traffic, cluster):
    jobs = traffic.jobs
    pg_rows = json.loads(cluster.pg.psql(
        "SELECT coalesce(json_agg(json_build_array(j.id, j.status, j.total_items, j.successful, j.failed, "
        "(SELECT count(*) FROM job_items i WHERE i.job_id = j.id), "
        "(SELECT count(*) FROM job_items i WHERE i.job_id = j.id AND i.state = 'done'))), '[]') "
        "FROM jobs j"))
    pg = {row[0]: row[1:] for row in pg_rows}
    result = {"accepted": len(jobs), "completed": 0, "items": 0, "items_done_pg": 0, "failed_items": 0,
              "fallback_items": 0, "problems": [], "seconds_to_complete_p50": None, "seconds_to_complete_max": None}
    durations = []
    for job_id, j in jobs.items():
        total = len(j["texts"])
        result["items"] += total
        problems = list(j["problems"]) if j["done"] else ["not finished"]
        # Read the job once more now, through the API, so the self-test's dropped item shows there too.
        for r in cluster.replicas:
            if not r.alive():
                continue
            status, _, data = raw_request(r.api_port, "GET", f"/jobs/{job_id}?offset=0&limit=1000", headers=HEADERS, timeout=60)
            if status == 200:
                problems = Traffic.job_problems(json.loads(data), total)
            else:
                problems.append(f"GET answered {status}")
            break
        row = pg.get(job_id)
        if row is None:
            problems.append("not in PostgreSQL")
        else:
            status, total_items, ok, failed, items, done = row
            result["items_done_pg"] += done
            if items != total or done != total:
                problems.append(f"PostgreSQL holds {items} items, {done} done, of {total}")
            if ok + failed != total:
                problems.append(f"PostgreSQL counts {ok} + {failed} of {total}")
        if not problems:
            result["completed"] += 1
        else:
            result["problems"].append(f"{job_id}: {'; '.join(problems)}")
        result["failed_items"] += j.get("failed_items", 0)
        result["fallback_items"] += j.get("fallback_items", 0)
        if j["finished"] is not None:
            durations.append(j["finished"] - j["created"])
    if durations:
        result["seconds_to_complete_p50"] = round(statistics.median(durations), 2)
        result["seconds_to_complete_max"] = round(max(durations), 2)
    result["problems_count"] = len(result["problems"])
    result["problems"] = result["problems"][:20]
    result["ok"] = result["problems_count"] == 0
    return result


def windows_of(faults):
    return [(f["start"], f["end"] + GRACE, f["name"]) for f in faults if f["start"] is not None and f["end"] is not None]


def in_window(t0, t1, windows):
    """The window [t0, t1] overlaps; of several, the one that started last before t1."""
    hits = [(a, name) for a, b, name in windows if t0 <= b and t1 >= a]
    return max(hits)[1] if hits else None


def analyse_requests(records, faults, end):
    windows = windows_of(faults)
    by_kind = {}
    outside = {"errors": [], "degraded": [], "bad": [], "4xx": []}
    inside = {}
    for t0, t1, kind, replica, status, outcome, note in records:
        k = by_kind.setdefault(kind, {"requests": 0, "ok": 0, "degraded": 0, "errors": 0, "4xx": 0, "bad": 0, "lat": []})
        k["requests"] += 1
        k["lat"].append((t1 - t0) * 1000)
        w = in_window(t0, t1, windows)
        if outcome == Outcome.OK:
            k["ok"] += 1
            continue
        slot = "errors" if outcome in Outcome.ERRORS else {"degraded": "degraded", "bad": "bad", "4xx": "4xx"}[outcome]
        k[slot] += 1
        if w is None:
            outside[slot].append({"t0": t0, "t1": t1, "kind": kind, "replica": replica, "status": status, "outcome": outcome, "note": note})
        else:
            s = inside.setdefault(w, {"errors": 0, "degraded": 0, "bad": 0, "4xx": 0})
            s[slot] += 1
    kinds = {}
    for kind, k in sorted(by_kind.items()):
        lat = k.pop("lat")
        kinds[kind] = {**k, "p50_ms": round(pct(lat, 50), 1), "p99_ms": round(pct(lat, 99), 1), "max_ms": round(max(lat), 1)}
    nb = max(1, int(round(end / BUCKET)))
    buckets = [{"t": i * BUCKET, "requests": 0, "lat": [], "errors": 0, "degraded": 0, "bad": 0, "4xx": 0} for i in range(nb)]
    for t0, t1, kind, replica, status, outcome, note in records:
        b = buckets[min(nb - 1, int(t1 // BUCKET))]
        b["requests"] += 1
        if not kind.startswith("job-poll"):
            b["lat"].append((t1 - t0) * 1000)
        if outcome in Outcome.ERRORS:
            b["errors"] += 1
        elif outcome != Outcome.OK:
            b[outcome if outcome in ("degraded", "bad") else "4xx"] += 1
    for b in buckets:
        lat = b.pop("lat")
        b["p50_ms"] = round(pct(lat, 50), 1) if lat else None
        b["p99_ms"] = round(pct(lat, 99), 1) if lat else None
        b["in_fault_window"] = in_window(b["t"], b["t"] + BUCKET, windows)
    summary = {k: len(v) for k, v in outside.items()}
    for k in outside:
        outside[k] = outside[k][:30]
    return {"by_kind": kinds, "outside_windows": summary, "outside_examples": outside, "inside_windows": inside,
            "windows": window_table(records, faults), "buckets": buckets, "total": len(records)}


def window_table(records, faults):
    """Per fault: its window, and the requests that overlapped it: count, errors, fallbacks, p99."""
    out = []
    for f in faults:
        if f["start"] is None or f["end"] is None:
            continue
        a, b = f["start"], f["end"] + GRACE
        rs = [r for r in records if r[0] <= b and r[1] >= a]
        lat = [(r[1] - r[0]) * 1000 for r in rs if r[2] != "job-poll"]
        out.append({"fault": f["name"], "start": f["start"], "end": f["end"], "window_end": round(b, 2),
                    "requests": len(rs), "errors": sum(1 for r in rs if r[5] in Outcome.ERRORS),
                    "degraded": sum(1 for r in rs if r[5] == Outcome.DEGRADED),
                    "p99_ms": round(pct(lat, 99), 1) if lat else None, "max_ms": round(max(lat), 1) if lat else None})
    return out


def quarter_medians(points, start, end):
    """Medians of the values in the second and the last quarter of [start, end]."""
    span = end - start
    q2 = [v for t, v in points if start + 0.25 * span <= t < start + 0.5 * span]
    q4 = [v for t, v in points if t >= start + 0.75 * span]
    if len(q2) < 3 or len(q4) < 3:
        return None, None
    return statistics.median(q2), statistics.median(q4)


def leak_verdict(points_rss, points_fds, start, end):
    """Flat or not, per the thresholds, for one replica life (RSS in KiB)."""
    out = {"seconds": round(end - start, 1)}
    r2, r4 = quarter_medians(points_rss, start, end)
    f2, f4 = quarter_medians(points_fds, start, end)
    if r2 is None or f2 is None:
        out["verdict"] = "too short to judge"
        return out
    growth_mib = (r4 - r2) / 1024
    out.update({"rss_q2_mib": round(r2 / 1024, 1), "rss_q4_mib": round(r4 / 1024, 1), "rss_growth_mib": round(growth_mib, 1),
                "fds_q2": f2, "fds_q4": f4, "fds_growth": f4 - f2})
    rss_ok = growth_mib <= max(LEAK_RSS_MIB, LEAK_RSS_SHARE * r2 / 1024)
    fds_ok = f4 - f2 <= LEAK_FDS
    if end - start < LEAK_MIN_LIFE:
        out["verdict"] = f"not judged (life under {LEAK_MIN_LIFE / 60:.0f} min): " + ("flat" if rss_ok and fds_ok else "grew")
        out["judged"] = False
    else:
        out["verdict"] = "flat" if rss_ok and fds_ok else ("RSS grew" if not rss_ok else "descriptors grew")
        out["judged"] = True
    out["ok"] = rss_ok and fds_ok
    return out


def selfcheck_leak_analysis():
    """The leak analysis must flag a series that grows and pass one that does not."""
    ts = [i * 5.0 for i in range(720)]
    flat = [(t, 200_000 + (t % 60) * 10) for t in ts]
    leaking = [(t, 200_000 + t * 20) for t in ts]  # 20 KiB/s: 70 MiB an hour
    fds_flat = [(t, 40) for t in ts]
    fds_leak = [(t, 40 + int(t / 120)) for t in ts]
    assert leak_verdict(flat, fds_flat, 0, ts[-1])["ok"], "a flat series judged a leak"
    assert not leak_verdict(leaking, fds_flat, 0, ts[-1])["ok"], "a growing RSS not caught"
    assert not leak_verdict(flat, fds_leak, 0, ts[-1])["ok"], "growing descriptors not caught"


def reload_step(pts, t):
    """RSS (MiB) from the minute before `t` to the minute after the next 30 s: a reload's step."""
    before = [p["rss_kib"] for tt, p in pts if t - 60 <= tt < t]
    after = [p["rss_kib"] for tt, p in pts if t + 30 <= tt < t + 90]
    if not before or not after:
        return None
    return round((statistics.median(after) - statistics.median(before)) / 1024, 1)


def analyse_samples(samples, replicas, end, reloads=()):
    lives = []
    for r in replicas:
        for life in r.lives:
            pid = life["pid"]
            pts = [(s["t"], s["replicas"][str(r.index)]) for s in samples
                   if str(r.index) in s["replicas"] and s["replicas"][str(r.index)]["pid"] == pid]
            if not pts:
                lives.append({"replica": r.index, "pid": pid, "samples": 0, **{k: life[k] for k in ("started", "ready", "ended", "end_cause")}})
                continue
            start = life["ready"] or pts[0][0]
            stop = life["ended"] or end
            first, last = pts[0][1], pts[-1][1]
            entry = {"replica": r.index, "pid": pid, "started": life["started"], "ready": life["ready"],
                     "ended": life["ended"], "end_cause": life["end_cause"], "samples": len(pts),
                     "rss_mib_start": round(first["rss_kib"] / 1024, 1), "rss_mib_end": round(last["rss_kib"] / 1024, 1),
                     "rss_mib_peak": round(max(p["rss_kib"] for _, p in pts) / 1024, 1),
                     "fds_start": first["fds"], "fds_end": last["fds"], "fds_peak": max(p["fds"] for _, p in pts),
                     "threads_start": first["threads"], "threads_end": last["threads"]}
            entry["leak"] = leak_verdict([(t, p["rss_kib"]) for t, p in pts], [(t, p["fds"]) for t, p in pts], start, stop)
            # Reloads of this life, with the RSS step each made (the first one in a life has been seen
            # to add 15-18 MiB once, and the later ones nothing).
            entry["reloads"] = [{"t": x["t"], "rss_step_mib": reload_step(pts, x["t"])} for x in reloads
                                 if x["replica"] == r.index and x["ok"] and start <= x["t"] <= stop]
            lives.append(entry)

    def bounded(key, slack):
        pts = [(s["t"], s[key]) for s in samples if s.get(key) is not None]
        if not pts:
            return {"verdict": "no samples"}
        span = end
        q2 = [v for t, v in pts if 0.25 * span <= t < 0.5 * span]
        q4 = [v for t, v in pts if t >= 0.75 * span]
        out = {"peak_mib": round(max(v for _, v in pts) / MIB, 1), "end_mib": round(pts[-1][1] / MIB, 1)}
        if q2 and q4:
            out.update({"q2_peak_mib": round(max(q2) / MIB, 1), "q4_peak_mib": round(max(q4) / MIB, 1)})
            out["ok"] = max(q4) <= 1.5 * max(q2) + slack
            out["verdict"] = "bounded" if out["ok"] else "grew"
        else:
            out["verdict"] = "too few samples"
        return out

    return {"lives": lives, "wal": bounded("wal_bytes", 32 * MIB), "redis": bounded("redis_used", 8 * MIB)}


# --- the plot ------------------------------------------------------------------------------------------------


def plot(results, path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    buckets = results["requests"]["buckets"]
    samples = results["samples"]
    faults = [f for f in results["faults"] if f.get("start") is not None and f.get("end") is not None]
    grace = results["settings"]["grace_s"]
    scale = 60.0 if results["settings"]["minutes"] >= 10 else 1.0
    unit = "min" if scale == 60 else "s"
    fig, axes = plt.subplots(5, 1, figsize=(13, 15), sharex=True)
    colours = {"kill": "tab:red", "redis": "tab:purple", "hang": "tab:orange", "postgres": "tab:blue", "disk": "tab:brown"}

    def shade(ax, label=False):
        for f in faults:
            c = colours.get(f["name"], "grey")
            ax.axvspan(f["start"] / scale, f["end"] / scale, color=c, alpha=0.25, lw=0, label=f["name"] if label else None)
            ax.axvspan(f["end"] / scale, (f["end"] + grace) / scale, color=c, alpha=0.08, lw=0)
        for r in results["reloads"]:
            ax.axvline(r["t"] / scale, color="green", lw=0.6, ls=":", alpha=0.7)

    bt = [(b["t"] + results["settings"]["bucket_s"] / 2) / scale for b in buckets]
    ax = axes[0]
    ax.plot(bt, [b["p99_ms"] for b in buckets], marker=".", label="p99")
    ax.plot(bt, [b["p50_ms"] for b in buckets], marker=".", label="p50", alpha=0.7)
    ax.set_yscale("log")
    ax.set_ylabel("latency (ms)")
    ax.set_title(f"Soak: {results['settings']['minutes']:g} min, 3 replicas, per {results['settings']['bucket_s']:g} s "
                 f"(fault windows shaded, grace lighter; reloads dotted green)")
    shade(ax, label=True)
    ax.legend(loc="upper left", ncol=8, fontsize=8)
    ax = axes[1]
    w = results["settings"]["bucket_s"] / scale * 0.8
    errs = [b["errors"] for b in buckets]
    degr = [b["degraded"] for b in buckets]
    ax.bar(bt, errs, width=w, color="tab:red", label="errors (5xx, network, broken stream)")
    ax.bar(bt, degr, width=w, bottom=errs, color="tab:orange", label="fallback answers")
    ax.set_ylabel("requests")
    ax2 = ax.twinx()
    ax2.plot(bt, [b["requests"] / results["settings"]["bucket_s"] for b in buckets], color="grey", lw=1, label="req/s")
    ax2.set_ylabel("req/s")
    shade(ax)
    ax.legend(loc="upper left", fontsize=8)
    st = [s["t"] / scale for s in samples]
    for idx in ("1", "2", "3"):
        xs = [s["t"] / scale for s in samples if idx in s["replicas"]]
        axes[2].plot(xs, [s["replicas"][idx]["rss_kib"] / 1024 for s in samples if idx in s["replicas"]], ".", ms=2, label=f"replica {idx}")
        axes[3].plot(xs, [s["replicas"][idx]["fds"] for s in samples if idx in s["replicas"]], ".", ms=2, label=f"replica {idx}")
    axes[2].set_ylabel("RSS (MiB)")
    axes[3].set_ylabel("open descriptors")
    for a in axes[2:4]:
        shade(a)
        a.legend(loc="upper left", fontsize=8, markerscale=4)
    ax = axes[4]
    ax.plot(st, [(s["wal_bytes"] or 0) / MIB if s["wal_bytes"] is not None else None for s in samples], label="pg_wal (MiB)")
    ax.plot(st, [s["redis_used"] / MIB if s["redis_used"] is not None else None for s in samples], label="Redis used_memory (MiB)")
    ax.set_ylabel("MiB")
    ax.set_xlabel(f"time ({unit})")
    shade(ax)
    ax.legend(loc="upper left", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot_or_delegate(results_path, png_path):
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        venv = os.path.join(REPO, ".venv", "bin", "python")
        if os.path.exists(venv) and os.path.realpath(sys.prefix) != os.path.realpath(os.path.join(REPO, ".venv")):
            out = subprocess.run([venv, os.path.abspath(__file__), "--plot", results_path, png_path], capture_output=True, text=True)
            if out.returncode == 0:
                return png_path
            log(f"plot failed: {out.stderr.strip()[-500:]}")
            return None
        log("no matplotlib: pip install -r bench/requirements-soak.txt (into .venv), then bench/soak.py --plot RESULTS.json")
        return None
    with open(results_path) as f:
        plot(json.load(f), png_path)
    return png_path


# --- the run -------------------------------------------------------------------------------------------------


class Cluster:
    pass


def binary_path():
    if os.environ.get("PARLANCE_BIN"):
        return os.environ["PARLANCE_BIN"]
    if os.environ.get("BENCH_NO_BUILD") != "1":
        log("cargo build -p parlance (dev profile)")
        subprocess.run(["cargo", "build", "--quiet", "-p", "parlance"], cwd=REPO, check=True)
    return os.path.join(TARGET_DIR, "debug", "parlance")


def main():
    global PIDS_FILE
    if len(sys.argv) >= 3 and sys.argv[1] == "--plot":
        png = sys.argv[3] if len(sys.argv) > 3 else os.path.splitext(sys.argv[2])[0] + ".png"
        with open(sys.argv[2]) as f:
            plot(json.load(f), png)
        print(png)
        return 0
    selfcheck_leak_analysis()
    if os.geteuid() != 0:
        log("not root: PostgreSQL needs its own user and the disk fault a tmpfs; run as root")
    stamp = time.strftime("%Y%m%d-%H%M%S")
    name = f"soak-short-{stamp}" if SHORT else f"soak-{stamp}"
    raw_dir = os.path.join(TARGET_DIR, "soak", stamp)
    os.makedirs(raw_dir, exist_ok=True)
    os.makedirs(OUT_DIR, exist_ok=True)
    source = binary_path()
    root = tempfile.mkdtemp(prefix="parlance-soak-")
    os.chmod(root, 0o755)
    PIDS_FILE = os.path.join(root, "pids")
    binary = os.path.join(root, "parlance")
    shutil.copy2(source, binary)
    log(f"{machine_line()}; run folder {root}; raw output {raw_dir}")
    log(f"{MINUTES:g} min, {RATE:g} req/s, faults {FAULTS}, grace {GRACE:g} s, selftest {SELFTEST or 'off'}")

    clock_zero = [time.monotonic()]

    def clock():
        return time.monotonic() - clock_zero[0]

    c = Cluster()
    c.tmpfs = None
    c.replicas = []
    stop = threading.Event()
    results = None
    interrupted = []

    def on_signal(signum, _frame):
        interrupted.append(signum)
        stop.set()
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, on_signal)
    disk_dir = os.path.join(root, "replica-3")
    os.makedirs(disk_dir)
    if "disk" in FAULTS:
        m = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={DISK_MB}m,mode=755", "tmpfs", disk_dir], capture_output=True, text=True)
        if m.returncode == 0:
            c.tmpfs = disk_dir
        else:
            log(f"no tmpfs ({m.stderr.strip()}): the disk fault is skipped")
    start_watcher(root, c.tmpfs)
    try:
        c.pg = Postgres(root)
        c.redis = Redis(root)
        c.upstream = Upstream(root)
        register_pid(c.upstream.proc.pid)
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": os.environ.get("HOME", root),
            "API_HOST": "127.0.0.1",
            "DATABASE_URL": c.pg.url,
            "CACHE_TYPE": "redis",
            "CACHE_STORE_URL": f"redis://127.0.0.1:{c.redis.port}/0",
            "CACHE_TTL": str(CACHE_TTL),
            "PROVIDER_API_KEY": "soak-key",
            "PARLANCE_PLUGIN_OPENAI_CHAT_BASE_URL": f"http://127.0.0.1:{c.upstream.port}/v1",
            "PARLANCE_PLUGIN_OPENROUTER_BASE_URL": f"http://127.0.0.1:{c.upstream.port}/v1",
            "RATE_LIMIT_REQUESTS_PER_MINUTE": "1000000",
            "LOG_LEVEL": "INFO",
        }
        for i in (1, 2, 3):
            r = Replica(i, root, binary, env)
            os.makedirs(r.dir, exist_ok=True)
            r.write_config(CONFIG)
            c.replicas.append(r)
        # The first replica compiles the plugins; the others start from a copy of its compile cache.
        life = c.replicas[0].start(clock)
        if life["ready"] is None:
            raise RuntimeError(f"replica 1 did not start: {life['end_cause']}: {tail(c.replicas[0].log_path, 1500)}")
        log(f"replica 1 ready in {life['ready'] - life['started']:.1f} s")
        for r in c.replicas[1:]:
            shutil.copytree(c.replicas[0].env["PARLANCE_CACHE_DIR"], r.env["PARLANCE_CACHE_DIR"], dirs_exist_ok=True)
            life = r.start(clock)
            if life["ready"] is None:
                raise RuntimeError(f"replica {r.index} did not start: {life['end_cause']}: {tail(r.log_path, 1500)}")
        log("cluster ready: " + ", ".join(f"replica {r.index} api {r.api_port} chat {r.chat_port}" for r in c.replicas))
        if c.tmpfs:
            st = os.statvfs(c.tmpfs)
            log(f"replica 3's tmpfs: {st.f_bavail * st.f_frsize / MIB:.1f} MiB free of {DISK_MB}")

        clock_zero[0] = time.monotonic()
        for r in c.replicas:
            for life in r.lives:
                life["started"] = life["ready"] = 0.0
        recorder = Recorder(clock)
        balancer = Balancer(c.replicas, recorder)
        traffic = Traffic(balancer, recorder, clock, stop)
        controller = Controller(c, clock, stop)
        samples = []
        s = RATE / 24.0
        threads = [
            threading.Thread(target=sampler, args=(c, clock, stop, samples), name="sampler"),
            threading.Thread(target=traffic.chat_thread, args=(0, 2.5 * s), name="chat-0"),
            threading.Thread(target=traffic.chat_thread, args=(1, 2.5 * s), name="chat-1"),
            threading.Thread(target=traffic.completion_thread, args=(3 * s,), name="completions"),
            threading.Thread(target=traffic.paraphrase_thread, args=(4.5 * s,), name="paraphrase-0"),
            threading.Thread(target=traffic.paraphrase_thread, args=(4.5 * s,), name="paraphrase-1"),
            threading.Thread(target=traffic.batch_thread, args=(1 * s,), name="batch"),
            threading.Thread(target=traffic.job_thread, args=(4 / s, 2 * s), name="jobs"),
            threading.Thread(target=traffic.read_thread, args=(2 * s,), name="reads"),
        ]
        control = [threading.Thread(target=controller.run_faults, name="faults"),
                   threading.Thread(target=controller.run_reloads, name="reloads")]
        for t in threads + control:
            t.daemon = True
            t.start()
        next_report = 60 if not SHORT else 20
        while clock() < TOTAL and not stop.is_set():
            time.sleep(1)
            if clock() >= next_report:
                next_report += 60 if not SHORT else 20
                with recorder.lock:
                    recent = [x for x in recorder.records if x[1] >= clock() - 60]
                errs = sum(1 for x in recent if x[5] in Outcome.ERRORS)
                rss = " ".join(f"r{k}={v['rss_kib'] // 1024}M/{v['fds']}fd" for k, v in (samples[-1]["replicas"].items() if samples else []))
                log(f"t={clock():.0f}s {len(recent) / 60:.1f} req/s over the last minute, {errs} errors; {rss}; load {os.getloadavg()[0]:.1f}")
        stop.set()
        for t in threads:
            t.join(60)
        for t in control:
            t.join(300)
        end = clock()
        log(f"traffic stopped at t={end:.0f}s; waiting for the open jobs")
        # The open jobs: polled until they end (their items run on, on every replica).
        deadline = time.monotonic() + 300
        final_stop = threading.Event()
        traffic.stop = final_stop
        while time.monotonic() < deadline:
            with traffic.jobs_lock:
                open_jobs = [j for j, v in traffic.jobs.items() if not v["done"]]
            if not open_jobs:
                break
            for j in open_jobs:
                traffic.poll_job(j)
            time.sleep(1)
        dropped = {}
        if "drop" in SELFTEST:
            dropped = selftest_drop(traffic, c)
        log("checking the writes")
        dialogs = check_dialogs(traffic, c, dropped.get("exchange"))
        jobs = check_jobs(traffic, c)
        with recorder.lock:
            records = list(recorder.records)
        requests = analyse_requests([r for r in records if r[0] <= TOTAL], controller.faults, end)
        resources = analyse_samples(samples, c.replicas, end, controller.reloads)
        upstream_stats = c.upstream.stats()
        checks = {
            "acknowledged writes stored (chats)": dialogs["ok"],
            "nothing stored that was answered as failed (chats)": dialogs["no_phantom"],
            "accepted jobs complete": jobs["ok"],
            "no error outside a fault window": requests["outside_windows"]["errors"] == 0,
            "no fallback answer outside a fault window": requests["outside_windows"]["degraded"] == 0,
            "no malformed answer": sum(k["bad"] for k in requests["by_kind"].values()) == 0,
            "no unexpected 4xx": sum(k["4xx"] for k in requests["by_kind"].values()) == 0,
            "every reload succeeded": all(r["ok"] is not False for r in controller.reloads),
            "every restart succeeded at its first try": all(
                l["ready"] is not None for r in c.replicas for l in r.lives),
            "RSS and descriptors flat (judged lives)": all(l.get("leak", {}).get("ok", True) for l in resources["lives"]
                                                           if l.get("leak", {}).get("judged")),
            "pg_wal bounded": resources["wal"].get("ok", True),
            "Redis used_memory bounded": resources["redis"].get("ok", True),
        }
        results = {
            "issue": 43,
            "script": "bench/soak.py",
            "started": stamp,
            "machine": machine_line(),
            "binary": source,
            "settings": {"minutes": MINUTES, "rate": RATE, "grace_s": GRACE, "bucket_s": BUCKET, "sample_s": SAMPLE,
                         "faults": FAULTS, "reload_every_s": RELOAD_EVERY, "disk_mb": DISK_MB, "cache_ttl_s": CACHE_TTL,
                         "selftest": SELFTEST, "leak_thresholds": {"rss_mib": LEAK_RSS_MIB, "rss_share": LEAK_RSS_SHARE,
                                                                   "fds": LEAK_FDS, "min_life_s": LEAK_MIN_LIFE}},
            "duration_s": round(end, 1),
            "checks": checks,
            "passed": all(checks.values()),
            "faults": controller.faults,
            "reloads": controller.reloads,
            "writes": {"chats": dialogs, "jobs": jobs,
                       "usage_ledger": "not checked: Parlance has no usage ledger yet"},
            "requests": requests,
            "refused_connections_retried": recorder.refused,
            "read_violations": traffic.read_violations[:20],
            "resources": resources,
            "upstream": upstream_stats,
            "samples": samples,
        }
        results_path = os.path.join(OUT_DIR, name + ".json")
        with open(results_path, "w") as f:
            json.dump(results, f, indent=1)
        with gzip.open(os.path.join(raw_dir, "requests.jsonl.gz"), "wt") as f:
            for r in records:
                f.write(json.dumps(r) + "\n")
        png = plot_or_delegate(results_path, os.path.join(OUT_DIR, name + ".png"))
        report(results, results_path, png)
    except KeyboardInterrupt:
        log(f"interrupted ({interrupted})")
    finally:
        stop.set()
        for r in c.replicas:
            try:
                r.stop(lambda: 0.0)
            except Exception:
                pass
        for name_, part in (("upstream", "upstream"), ("redis", "redis")):
            if hasattr(c, part):
                try:
                    getattr(c, part).stop()
                except Exception:
                    pass
        if hasattr(c, "pg"):
            c.pg.stop()
        for r in c.replicas:
            if os.path.exists(r.log_path):
                shutil.copy(r.log_path, os.path.join(raw_dir, f"replica-{r.index}.log"))
        for src, dst in ((os.path.join(root, "redis.log"), "redis.log"), (os.path.join(root, "upstream.log"), "upstream.log"),
                         (os.path.join(root, "pgd", "pg", "server.log"), "postgres.log")):
            if os.path.exists(src):
                shutil.copy(src, os.path.join(raw_dir, dst))
        if c.tmpfs:
            subprocess.run(["umount", c.tmpfs], check=False)
        if not KEEP:
            shutil.rmtree(root, ignore_errors=True)
    if results is None:
        return 2
    if SELFTEST:
        caught = not results["passed"]
        print(f"\nself-test ({','.join(SELFTEST)}): the checks {'FAILED, as they must' if caught else 'PASSED: they did not catch it'}")
        return 0 if caught else 1
    return 0 if results["passed"] else 1


def selftest_drop(traffic, c):
    """Deletes one acknowledged exchange and one job item in PostgreSQL (bumping the user's version so
    that no replica serves its copy from memory)."""
    out = {}
    for user, attempts in sorted(traffic.users.items()):
        acked = [a for a in attempts if a.state == "ack"]
        if len(acked) >= 3:
            a = acked[len(acked) // 2]
            c.pg.psql(
                f"BEGIN; DELETE FROM dialog_entries WHERE client = '{CLIENT}' AND user_id = '{user}' AND idx IN "
                f"(SELECT idx FROM dialog_entries WHERE client = '{CLIENT}' AND user_id = '{user}' AND message = "
                f"$m${a.message}$m$ UNION SELECT idx + 1 FROM dialog_entries WHERE client = '{CLIENT}' AND user_id = '{user}' "
                f"AND message = $m${a.message}$m$); UPDATE users SET version = version + 1 WHERE client = '{CLIENT}' "
                f"AND user_id = '{user}'; COMMIT;")
            out["exchange"] = f"{user}: {a.message}"
            break
    done = [j for j, v in traffic.jobs.items() if v["done"]]
    if done:
        c.pg.psql(f"DELETE FROM job_items WHERE job_id = '{done[0]}' AND idx = 3")
        out["job_item"] = f"{done[0]} item 3"
    log(f"self-test: dropped {out}")
    return out


def report(results, path, png):
    print(f"\n{results['machine']}")
    print(f"soak of {results['duration_s'] / 60:.1f} min; results {path}; plot {png}")
    print("\nfaults (window = start .. end + grace {:g} s):".format(GRACE))
    for f in results["faults"]:
        if f["start"] is None:
            print(f"  {f['name']}: {'; '.join(f['notes'])}")
        else:
            print(f"  {f['name']:9} {f['start']:7.1f} .. {f['end']:7.1f} s: {'; '.join(f['notes'])}")
    print(f"reloads: {sum(1 for r in results['reloads'] if r['ok'])} ok, "
          f"{sum(1 for r in results['reloads'] if r['ok'] is False)} failed of {len(results['reloads'])}")
    print("\nrequests by kind:")
    print(f"  {'kind':22} {'n':>7} {'ok':>7} {'fallbk':>6} {'errors':>6} {'4xx':>4} {'bad':>4} {'p50 ms':>8} {'p99 ms':>9}")
    for kind, k in results["requests"]["by_kind"].items():
        print(f"  {kind:22} {k['requests']:7} {k['ok']:7} {k['degraded']:6} {k['errors']:6} {k['4xx']:4} {k['bad']:4} "
              f"{k['p50_ms']:8.1f} {k['p99_ms']:9.1f}")
    print(f"  outside fault windows: {results['requests']['outside_windows']}")
    print("  per fault window (requests overlapping it; a request in two overlapping windows counts in both):")
    for w in results["requests"]["windows"]:
        print(f"    {w['fault']:9} {w['start']:7.1f} .. {w['window_end']:7.1f} s: {w['requests']:5} requests, "
              f"{w['errors']:4} errors, {w['degraded']:4} fallbacks, p99 {w['p99_ms']} ms, max {w['max_ms']} ms")
    for ex in results["requests"]["outside_examples"]["errors"][:5]:
        print(f"    e.g. t={ex['t0']:.1f}-{ex['t1']:.1f} {ex['kind']} replica {ex['replica']} {ex['status']} {ex['outcome']}: {ex['note'][:120]}")
    d, j = results["writes"]["chats"], results["writes"]["jobs"]
    print(f"\nchat writes: {d['acknowledged']} acknowledged, found {d['found_api']} through the API and {d['found_pg']} in "
          f"PostgreSQL; {d['failed']} answered as failed, {d['uncertain']} uncertain ({d['uncertain_stored']} of them stored); "
          f"missing {d['missing_api_count']}/{d['missing_pg_count']}, phantom {d['phantom_count']}, foreign {d['foreign_count']}, "
          f"order {d['order_count']}, reply mismatch {d['reply_mismatch_count']}, shape {d['shape_count']}")
    for key in ("missing_api", "missing_pg", "phantom", "shape", "order", "reply_mismatch", "foreign"):
        for x in d[key][:3]:
            print(f"    {key}: {x}")
    print(f"jobs: {j['accepted']} accepted, {j['completed']} complete with every item ({j['items']} items, {j['failed_items']} "
          f"failed items, {j['fallback_items']} served by the fallback); problems {j['problems_count']}")
    for x in j["problems"][:3]:
        print(f"    {x}")
    print("usage ledger: not checked (Parlance has none yet)")
    print("\nreplica lives:")
    for l in results["resources"]["lives"]:
        lk = l.get("leak", {})
        print(f"  replica {l['replica']} pid {l['pid']}: {l.get('samples')} samples, RSS {l.get('rss_mib_start')} -> "
              f"{l.get('rss_mib_end')} MiB (peak {l.get('rss_mib_peak')}), fds {l.get('fds_start')} -> {l.get('fds_end')} "
              f"(peak {l.get('fds_peak')}); ended {l.get('end_cause')}; {lk.get('verdict')} "
              f"(q2 {lk.get('rss_q2_mib')} -> q4 {lk.get('rss_q4_mib')} MiB, fds {lk.get('fds_q2')} -> {lk.get('fds_q4')}); "
              f"reloads (t s: RSS step MiB) {[(round(x['t']), x['rss_step_mib']) for x in l.get('reloads', [])]}")
    print(f"pg_wal: {results['resources']['wal']}")
    print(f"Redis used_memory: {results['resources']['redis']}")
    print("\np99 per bucket (ms):")
    print("  " + " ".join(f"{b['p99_ms']:.0f}" if b["p99_ms"] is not None else "-" for b in results["requests"]["buckets"]))
    print("\nchecks:")
    for k, v in results["checks"].items():
        print(f"  {'ok  ' if v else 'FAIL'} {k}")
    print(f"\n{'PASSED' if results['passed'] else 'FAILED'}")


if __name__ == "__main__":
    sys.exit(main())
