"""Shared harness of the benchmark scripts in bench/: building the release binary, starting the API
server and the local upstreams, driving wrk with Lua scripts, reading a process's CPU time and
resident memory, and printing result tables. Python standard library only."""

import http.client
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.path.join(REPO, "bench")
TARGET_DIR = os.environ.get("CARGO_TARGET_DIR") or os.path.join(REPO, "target")
BINARY = os.path.join(TARGET_DIR, "release", "parlance")
CLK_TCK = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")


# --- CPU placement ------------------------------------------------------------------------------------
#
# Under a load generator on the same few cores, the server's tail latency is mostly the scheduler
# trading cores between the server, wrk and the upstream. The wrk-driven scripts call pin_processes()
# so that the server under test runs on one half of the cores and wrk and the local upstreams on the
# other, as load tests are run on separate machines. BENCH_PIN=0 turns it off.
SERVER_CPUS = None
CLIENT_CPUS = None


def pin_processes():
    global SERVER_CPUS, CLIENT_CPUS
    cpus = sorted(os.sched_getaffinity(0))
    if os.environ.get("BENCH_PIN", "1") == "0" or len(cpus) < 2 or not shutil.which("taskset"):
        return
    half = len(cpus) // 2
    SERVER_CPUS, CLIENT_CPUS = cpus[:half], cpus[half:]
    log(f"server on cpus {SERVER_CPUS}, wrk and upstreams on cpus {CLIENT_CPUS} (BENCH_PIN=0 to share)")


def pinned(args, cpus):
    return ["taskset", "-c", ",".join(map(str, cpus))] + args if cpus else args


def placement_line():
    if SERVER_CPUS is None:
        return "placement: server, wrk and upstreams share every core"
    return f"placement: server on cpus {SERVER_CPUS}; wrk and upstreams on cpus {CLIENT_CPUS}"


def log(*args):
    print("[bench]", *args, file=sys.stderr, flush=True)


def loadavg():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def machine_line():
    cpu = "?"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    return f"cpu: {cpu}, {os.cpu_count()} cores; load average {loadavg()}"


def build():
    """Builds the release binary (unless BENCH_NO_BUILD=1) and returns its path."""
    if os.environ.get("BENCH_NO_BUILD") != "1":
        log(f"cargo build --release -p parlance (target dir {TARGET_DIR})")
        subprocess.run(
            ["cargo", "build", "--quiet", "--release", "-p", "parlance"],
            cwd=REPO,
            check=True,
            env={**os.environ, "CARGO_TARGET_DIR": TARGET_DIR},
        )
    if not os.path.exists(BINARY):
        sys.exit(f"no binary at {BINARY}")
    return BINARY


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def median(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else float("nan")


# --- HTTP --------------------------------------------------------------------------------------------


def request(port, method, path, body=None, headers=None, timeout=30):
    """One request on a fresh connection: (status, headers dict, body bytes)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        data = None
        hdrs = dict(headers or {})
        if body is not None:
            data = body if isinstance(body, bytes) else json.dumps(body).encode()
            hdrs.setdefault("content-type", "application/json")
        conn.request(method, path, body=data, headers=hdrs)
        r = conn.getresponse()
        return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read()
    finally:
        conn.close()


def request_json(port, method, path, body=None, headers=None, expect=200, timeout=300):
    status, _, data = request(port, method, path, body, headers, timeout)
    if expect is not None and status != expect:
        raise RuntimeError(f"{method} {path}: {status} {data[:300]!r}")
    return json.loads(data) if data else None


# --- processes ----------------------------------------------------------------------------------------


def _stat_ticks(path):
    """utime + stime, in clock ticks, from a /proc stat file."""
    with open(path) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def proc_cpu_seconds(pid):
    """User + system CPU time of a process (all threads), in seconds. /proc/PID/stat counts in clock
    ticks (10 ms), too coarse for a batch of a few hundred requests; each live thread's schedstat
    counts its time on a CPU in nanoseconds. So: the process's ticks, with each live thread's ticks
    replaced by its nanoseconds (the threads that ended are left at tick precision)."""
    total = _stat_ticks(f"/proc/{pid}/stat") / CLK_TCK
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return total
    for tid in tids:
        try:
            ticks = _stat_ticks(f"/proc/{pid}/task/{tid}/stat")
            with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                on_cpu_ns = int(f.read().split()[0])
        except (OSError, ValueError, IndexError):
            continue
        total += on_cpu_ns / 1e9 - ticks / CLK_TCK
    return total


def proc_status_kib(pid, field):
    """A field of /proc/<pid>/status in KiB; None when the process is gone (a child that ended
    between being listed and being read)."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except FileNotFoundError:
        return None
    return None


class Upstream:
    """bench/upstream.py in its own process."""

    def __init__(self, kind, delay_ms=0.0, args=(), program=None):
        """`program`: another upstream speaking upstream.py's `kind`, its arguments and `listening on`
        line (bench/streamload's `upstream`), instead of upstream.py."""
        program = program or [sys.executable, os.path.join(BENCH, "upstream.py"), kind]
        self.proc = subprocess.Popen(
            pinned([*program, "--delay-ms", str(delay_ms), *args], CLIENT_CPUS),
            stdout=subprocess.PIPE,
            text=True,
        )
        line = self.proc.stdout.readline()
        if not line.startswith("listening on "):
            raise RuntimeError(f"upstream did not start: {line!r}")
        self.port = int(line.split()[-1])

    def stats(self):
        return request_json(self.port, "GET", "/_stats")

    def reset(self):
        request_json(self.port, "POST", "/_reset", body=b"")

    def cpu_seconds(self):
        return proc_cpu_seconds(self.proc.pid)

    def stop(self):
        self.proc.terminate()
        self.proc.wait(10)


class LoopbackQuickAck:
    """Turns delayed ACKs off on the loopback routes for the duration (`ip route ... quickack 1`), and
    puts the routes back as they were. A server that writes an answer's head and body apart without
    TCP_NODELAY waits, under Nagle's algorithm, for the client to acknowledge the head, and a client
    on a keep-alive connection acknowledges after the kernel's delayed-ACK timer: 40 ms added to every
    request, an artifact of the pair and not a cost of the server (TensorZero's gateway answered wrk in
    44 ms, and in 0.39 ms with this). It applies to every process on loopback alike. Needs root and
    iproute2; otherwise, or with BENCH_QUICKACK=0, it does nothing and says so."""

    def __init__(self):
        self.saved = []

    def __enter__(self):
        if os.environ.get("BENCH_QUICKACK", "1") == "0":
            log("BENCH_QUICKACK=0: delayed ACKs left on")
            return self
        if os.geteuid() != 0 or not shutil.which("ip"):
            log("delayed ACKs left on (turning them off on loopback needs root and iproute2)")
            return self
        routes = subprocess.run(["ip", "route", "show", "table", "local"], capture_output=True, text=True).stdout
        for line in routes.splitlines():
            if line.startswith("local 127.") and " dev lo " in line:
                quick = line.split(" quickack ")[0].split() + ["quickack", "1"]
                if subprocess.run(["ip", "route", "replace", *quick, "table", "local"]).returncode == 0:
                    self.saved.append(line.split())
        log(f"delayed ACKs off on {len(self.saved)} loopback route(s) for the run")
        return self

    def active(self):
        return bool(self.saved)

    def __exit__(self, *_exc):
        for route in self.saved:
            subprocess.run(["ip", "route", "replace", *route, "table", "local"])
        return False


# Variables of the bench's environment that every server it starts is given.
PASSED_THROUGH = ("PARLANCE_REUSE_INSTANCES",)


class Server:
    """`parlance --mode api` on free ports, in a scratch working directory (so no stray `.env` or
    `parlance.toml` is read), with a compile cache and a dialog database of its own."""

    def __init__(self, env=None, config_text=None, cache_dir=None, binary=BINARY, wait=True, timeout=300, prefix=()):
        self.scratch = tempfile.mkdtemp(prefix="parlance-bench-")
        self.api_port, self.chat_port = free_port(), free_port()
        self.env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": os.environ.get("HOME", self.scratch),
            "API_HOST": "127.0.0.1",
            "API_PORT": str(self.api_port),
            "PORT": str(self.chat_port),
            "CACHE_TYPE": "memory",
            "DATABASE_FILE": os.path.join(self.scratch, "dialogs.db"),
            "LOG_LEVEL": "WARNING",
            "PARLANCE_CACHE_DIR": cache_dir or os.path.join(self.scratch, "components"),
        }
        # The server's runtime switches set where the bench runs (PARLANCE_REUSE_INSTANCES=false, say),
        # so that any bench can compare them; the bench's own `env` comes last.
        self.env.update({k: v for k, v in os.environ.items() if k in PASSED_THROUGH})
        self.env.update(env or {})
        # `prefix`: a command the binary runs under (valgrind, for one).
        args = [*prefix, binary, "--mode", "api"]
        if config_text is not None:
            path = os.path.join(self.scratch, "parlance.toml")
            with open(path, "w") as f:
                f.write(config_text)
            args += ["--config", path]
        self.stderr = open(os.path.join(self.scratch, "stderr.log"), "w+")
        self.started = time.perf_counter()
        self.proc = subprocess.Popen(
            pinned(args, SERVER_CPUS), cwd=self.scratch, env=self.env, stdout=subprocess.DEVNULL, stderr=self.stderr
        )
        self.pid = self.proc.pid
        self.ready_seconds = None
        if wait:
            self.wait_ready(timeout)

    def wait_ready(self, timeout=300):
        """Polls GET /health every millisecond until it answers 200; returns seconds since spawn."""
        deadline = self.started + timeout
        while time.perf_counter() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"parlance exited with {self.proc.returncode}: {self.log_tail()}")
            try:
                with socket.create_connection(("127.0.0.1", self.api_port), timeout=1) as s:
                    s.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                    data = s.recv(64)
                if data.startswith(b"HTTP/1.1 200"):
                    self.ready_seconds = time.perf_counter() - self.started
                    return self.ready_seconds
            except OSError:
                pass
            time.sleep(0.001)
        raise RuntimeError(f"parlance not ready after {timeout} s: {self.log_tail()}")

    def log_tail(self):
        self.stderr.flush()
        self.stderr.seek(0)
        return self.stderr.read()[-2000:]

    def rss_kib(self):
        return proc_status_kib(self.pid, "VmRSS")

    def hwm_kib(self):
        return proc_status_kib(self.pid, "VmHWM")

    def cpu_seconds(self):
        return proc_cpu_seconds(self.pid)

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.stderr.close()
        shutil.rmtree(self.scratch, ignore_errors=True)


# --- wrk ------------------------------------------------------------------------------------------------

WRK_REPORT = r"""
local threads = {}
function setup(thread)
  table.insert(threads, thread)
  thread:set("tid", #threads)
end

bad_status = 0
fallbacks = 0
function response(status, headers, body)
  if status < 200 or status > 299 then bad_status = bad_status + 1 end
  if headers["x-parlance-fallback"] ~= nil or headers["X-Parlance-Fallback"] ~= nil then
    fallbacks = fallbacks + 1
  end
end

function done(summary, latency, requests)
  local bad, fb = 0, 0
  for _, t in ipairs(threads) do
    bad = bad + (t:get("bad_status") or 0)
    fb = fb + (t:get("fallbacks") or 0)
  end
  local e = summary.errors
  io.write(string.format(
    'WRKJSON {"requests": %d, "duration_us": %d, "bytes": %d, "p50_us": %d, "p90_us": %d, "p99_us": %d, ' ..
    '"mean_us": %.1f, "max_us": %d, "connect_errors": %d, "read_errors": %d, "write_errors": %d, ' ..
    '"timeouts": %d, "non_2xx": %d, "fallbacks": %d}\n',
    summary.requests, summary.duration, summary.bytes, latency:percentile(50), latency:percentile(90),
    latency:percentile(99), latency.mean, latency.max, e.connect, e.read, e.write, e.timeout, bad, fb))
end
"""


def lua_request(method="GET", body=None, headers=None):
    """A Lua preamble making every request the same `method` with `body`."""
    lines = [f'wrk.method = "{method}"']
    if body is not None:
        text = body if isinstance(body, str) else json.dumps(body)
        lines.append(f"wrk.body = {lua_string(text)}")
    for name, value in (headers or {}).items():
        lines.append(f'wrk.headers[{lua_string(name)}] = {lua_string(value)}')
    return "\n".join(lines) + "\n"


def lua_string(text):
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'").replace("\n", "\\n") + "'"


def wrk(port, path, lua="", connections=64, threads=2, duration=5, pids=(), settle=None):
    """Runs wrk against 127.0.0.1:port/path; returns its figures plus requests/s and the CPU seconds
    each pid in `pids` spent during the run, and in `settle()` after it when given (work the run left
    behind, such as records still to commit, is the run's and not the next one's)."""
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as f:
        f.write(lua + WRK_REPORT)
        script = f.name
    try:
        cpu_before = [proc_cpu_seconds(p) for p in pids]
        out = subprocess.run(
            pinned([
                "wrk",
                f"-t{min(threads, connections)}",
                f"-c{connections}",
                f"-d{duration}s",
                "--timeout",
                "10s",
                "-s",
                script,
                f"http://127.0.0.1:{port}{path}",
            ], CLIENT_CPUS),
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        if settle is not None:
            settle()
        cpu = [proc_cpu_seconds(p) - b for p, b in zip(pids, cpu_before)]
    finally:
        os.unlink(script)
    line = next((x for x in out.splitlines() if x.startswith("WRKJSON ")), None)
    if line is None:
        raise RuntimeError(f"wrk printed no report:\n{out}")
    r = json.loads(line[len("WRKJSON ") :])
    r["rps"] = r["requests"] / (r["duration_us"] / 1e6)
    r["errors"] = r["connect_errors"] + r["read_errors"] + r["write_errors"] + r["timeouts"] + r["non_2xx"]
    r["cpu_seconds"] = cpu
    return r


# --- tables -----------------------------------------------------------------------------------------------


def table(rows, headers):
    """Prints rows (lists of strings) under headers, aligned."""
    widths = [max(len(str(x)) for x in col) for col in zip(headers, *rows)]
    line = lambda cells: "  ".join(str(c).ljust(w) for c, w in zip(cells, widths)).rstrip()
    print(line(headers))
    print(line(["-" * w for w in widths]))
    for row in rows:
        print(line(row))


def verdict(ok):
    return "met" if ok else "NOT met"


def file_size(path):
    """The size of `path` in bytes; 0 when it does not exist."""
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


class SizeSampler:
    """A file's size every 0.1 s on a thread of its own, from start() until stop(): `samples` holds
    (time.perf_counter(), bytes) pairs (a write-ahead log's growth under load)."""

    def __init__(self, path):
        self.path, self.samples, self._stop = path, [], threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def _sample(self):
        while not self._stop.is_set():
            self.samples.append((time.perf_counter(), file_size(self.path)))
            time.sleep(0.1)

    def start(self):
        self._thread.start()

    def stop(self):
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join()

    def peak(self, until=float("inf")):
        """The largest size sampled up to `until` (a perf_counter time); 0 with none."""
        return max((s for t, s in self.samples if t <= until), default=0)
