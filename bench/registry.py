#!/usr/bin/env python3
"""Issue 41: what pulling plugins from an OCI registry costs. A docker-registry on loopback (Debian's);
components of 1 MB and 10 MB (the offline provider with a custom section of padding: the same code,
bigger) pushed with `parlance plugins push`.

Pull: `parlance plugins list` with a configuration that adds the component as a plugin, timed
  - cold: the registry cache emptied before each run (token-less loopback pull of manifest and blob,
    the digest checked, the blob written by rename);
  - cached: every blob read from the cache and checked against its digest;
  - file: the same component as a file on disk, the baseline.
The compile cache is warm for all three (the same bytes), so the differences are the pull and the check.

Start-up: ten plugins pulled (the offline provider pushed to ten repositories), cached and locked,
against the same ten as bundled components (`builtin:offline`), alternating, ROUNDS (9) runs each.

    bench/registry.py             # target/debug/parlance (PARLANCE_BIN for another)
"""

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import TARGET_DIR, free_port, machine_line  # noqa: E402

BINARY = os.environ.get("PARLANCE_BIN", os.path.join(TARGET_DIR, "debug", "parlance"))
ROUNDS = int(os.environ.get("ROUNDS", "9"))
OFFLINE = os.path.join(TARGET_DIR, "wasm", "wasm32-wasip2", "plugin", "parlance_plugin_offline.wasm")


def leb(n):
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def padded(component, size):
    """`component` with a custom section that brings it to `size` bytes."""
    name = b"padding"
    payload_len = max(0, size - len(component) - 16)
    payload = leb(len(name)) + name + b"\x5a" * payload_len
    return component + b"\x00" + leb(len(payload)) + payload


def run(home, args, env=None):
    started = time.perf_counter()
    out = subprocess.run([BINARY, *args], cwd=home, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    if out.returncode != 0:
        sys.exit(f"{' '.join(args)} failed:\n{out.stdout}{out.stderr}")
    return elapsed


def main():
    if not os.path.exists(BINARY):
        sys.exit(f"no binary at {BINARY}: cargo build first (or set PARLANCE_BIN)")
    print(machine_line(), flush=True)
    print(f"binary: {BINARY}; rounds: {ROUNDS}", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        with open(os.path.join(tmp, "registry.yml"), "w") as f:
            f.write(
                f"version: 0.1\nlog:\n  level: error\nstorage:\n  filesystem:\n    rootdirectory: {tmp}/data\n"
                f"http:\n  addr: 127.0.0.1:{port}\n"
            )
        registry = subprocess.Popen(
            ["docker-registry", "serve", os.path.join(tmp, "registry.yml")],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            time.sleep(1)
            env = dict(os.environ, PARLANCE_CACHE_DIR=os.path.join(tmp, "compile-cache"), CACHE_TYPE="memory")
            pulls(tmp, port, env)
            startup(tmp, port, env)
        finally:
            registry.terminate()
            registry.wait()


def home_with(tmp, name, plugins):
    home = os.path.join(tmp, name)
    os.makedirs(home, exist_ok=True)
    with open(os.path.join(home, "parlance.toml"), "w") as f:
        f.write('[registry]\ncache_dir = "oci-cache"\n')
        for i, component in enumerate(plugins):
            f.write(f'\n[[plugin]]\nid = "p{i}"\nkind = "provider"\ncomponent = "{component}"\n')
    return home


def pulls(tmp, port, env):
    with open(OFFLINE, "rb") as f:
        offline = f.read()
    print("\npull of one component, `plugins list` wall time (median of rounds), compile cache warm")
    print(f"{'size':>6} {'file s':>8} {'cached s':>9} {'cold s':>8} {'cached-file ms':>15} {'cold-file ms':>13}")
    for mb in (1, 10):
        path = os.path.join(tmp, f"offline-{mb}mb.wasm")
        with open(path, "wb") as f:
            f.write(padded(offline, mb << 20))
        reference = f"oci://127.0.0.1:{port}/bench/offline-{mb}mb:1"
        pushing = home_with(tmp, f"push-{mb}", [])
        run(pushing, ["plugins", "push", path, reference], env)
        file_home = home_with(tmp, f"file-{mb}", [path])
        oci_home = home_with(tmp, f"oci-{mb}", [reference])
        run(oci_home, ["plugins", "lock"], env)
        run(file_home, ["plugins", "list"], env)  # compiles once into the shared compile cache
        times = {"file": [], "cached": [], "cold": []}
        for _ in range(ROUNDS):
            times["file"].append(run(file_home, ["plugins", "list"], env))
            times["cached"].append(run(oci_home, ["plugins", "list"], env))
            shutil.rmtree(os.path.join(oci_home, "oci-cache"))
            times["cold"].append(run(oci_home, ["plugins", "list"], env))
        m = {k: statistics.median(v) for k, v in times.items()}
        print(
            f"{mb:>4}MB {m['file']:>8.3f} {m['cached']:>9.3f} {m['cold']:>8.3f}"
            f" {(m['cached'] - m['file']) * 1000:>15.1f} {(m['cold'] - m['file']) * 1000:>13.1f}",
            flush=True,
        )


def startup(tmp, port, env):
    pushing = home_with(tmp, "push-ten", [])
    references = []
    for i in range(10):
        reference = f"oci://127.0.0.1:{port}/bench/ten-{i}:1"
        run(pushing, ["plugins", "push", OFFLINE, reference], env)
        references.append(reference)
    pulled = home_with(tmp, "ten-pulled", references)
    bundled = home_with(tmp, "ten-bundled", ["builtin:offline"] * 10)
    run(pulled, ["plugins", "lock"], env)
    run(bundled, ["plugins", "list"], env)
    times = {"bundled": [], "pulled": []}
    for _ in range(ROUNDS):
        times["bundled"].append(run(bundled, ["plugins", "list"], env))
        times["pulled"].append(run(pulled, ["plugins", "list"], env))
    b, p = statistics.median(times["bundled"]), statistics.median(times["pulled"])
    print("\nstart-up with ten more plugins (`plugins list` wall time, median)")
    print(f"bundled {b:.3f} s   pulled and cached {p:.3f} s   ratio {p / b:.2f}x   (+{(p - b) * 1000:.0f} ms)")


if __name__ == "__main__":
    main()
