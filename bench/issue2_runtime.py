#!/usr/bin/env python3
"""Issue 2 benchmarks: plugin call overhead, start-up time and resident memory of the plugin runtime.

  1. Plugin call overhead: runs `cargo bench -p parlance --bench plugin_call` (a fresh pooled instance
     plus one call of a trivial export, against the same Rust function called natively) CALL_RUNS
     times; target p50 <= 25 us.
  2. Start-up, for two plugin sets: the bundled plugins enabled by default, and every bundled plugin
     (adding the opt-in Python ParaScore metric and JavaScript Ollama provider, 30 MB of components).
     Time from spawning `parlance --mode api` to the first 200 of GET /health, with a warm compile cache (target <= 300 ms) and cold (an empty PARLANCE_CACHE_DIR).
     Baseline in the same run: `parlance --version` (process start and exit, no plugins). The three
     are interleaved for RUNS rounds; medians are reported.
  3. Resident memory, for both sets: VmRSS of the api server once ready (all plugins loaded), and
     after a few calls of each plugin kind (offline paraphrases, form chat against a local model
     endpoint, evaluations with every metric); target <= 100 MB. Also reported: the first start, which
     compiles in-process (the compiler's memory is freed but returned to the system lazily). Baseline: peak RSS of `parlance --version`. MEM_RUNS
     servers, medians. With models/all-MiniLM-L6-v2 installed, also the server with the embedding
     model loaded (informational: the model's weights are not a plugin).

Environment: RUNS (12), COLD_RUNS (3; each compiles every component), MEM_RUNS (3), CALL_RUNS (3),
BENCH_NO_BUILD=1 (use the binary already built), CARGO_TARGET_DIR.
Usage: bench/issue2_runtime.py [--skip-call-bench]
"""

import os
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import (  # noqa: E402
    REPO,
    TARGET_DIR,
    Server,
    Upstream,
    build,
    log,
    loadavg,
    machine_line,
    median,
    request_json,
    table,
    verdict,
)

RUNS = int(os.environ.get("RUNS", "12"))
COLD_RUNS = int(os.environ.get("COLD_RUNS", "3"))
MEM_RUNS = int(os.environ.get("MEM_RUNS", "3"))
CALL_RUNS = int(os.environ.get("CALL_RUNS", "3"))
MODEL_DIR = os.path.join(REPO, "models", "all-MiniLM-L6-v2")

# The bundled plugins that are not enabled by default: the second plugin set loads them too.
OPT_IN = """
[[plugin]]
id = "parascore"
kind = "metric"
component = "builtin:parascore"

[[plugin]]
id = "ollama"
kind = "provider"
component = "builtin:ollama"
allowed_hosts = ["http://127.0.0.1:11434"]
"""

PLUGIN_SETS = [
    ("default set", None),
    ("+ Python and JS (all bundled)", OPT_IN),
]


def plugin_call_bench():
    """Median over CALL_RUNS runs of the criterion-free bench's wasm and native p50s (us)."""
    wasm, native, p90 = [], [], []
    for i in range(CALL_RUNS):
        log(f"cargo bench -p parlance --bench plugin_call ({i + 1}/{CALL_RUNS}), load {loadavg()}")
        out = subprocess.run(
            ["cargo", "bench", "--quiet", "-p", "parlance", "--bench", "plugin_call"],
            cwd=REPO,
            env={**os.environ, "CARGO_TARGET_DIR": TARGET_DIR},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        sys.stderr.write(out)
        m = re.search(r"wasm\s+p50\s+([\d.]+) µs\s+p90\s+([\d.]+)", out)
        n = re.search(r"native p50\s+([\d.]+) µs", out)
        wasm.append(float(m.group(1)))
        p90.append(float(m.group(2)))
        native.append(float(n.group(1)))
    return median(wasm), median(p90), median(native), loadavg()


def version_run(binary):
    """Wall time and peak RSS (KiB) of `parlance --version`."""
    started = time.perf_counter()
    proc = subprocess.Popen([binary, "--version"], stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - started
    proc.returncode = status
    return elapsed, usage.ru_maxrss


def startup(binary, config):
    warm_cache = tempfile.mkdtemp(prefix="parlance-bench-warm-cache-")
    log("warming the compile cache")
    Server(config_text=config, cache_dir=warm_cache).stop()
    version, warm, cold = [], [], []
    for i in range(max(RUNS, COLD_RUNS)):
        log(f"start-up round {i + 1}/{max(RUNS, COLD_RUNS)}, load {loadavg()}")
        if i < RUNS:
            version.append(version_run(binary)[0])
            s = Server(config_text=config, cache_dir=warm_cache)
            warm.append(s.ready_seconds)
            s.stop()
        if i < COLD_RUNS:
            cold_cache = tempfile.mkdtemp(prefix="parlance-bench-cold-cache-")
            s = Server(config_text=config, cache_dir=cold_cache)
            cold.append(s.ready_seconds)
            s.stop()
            subprocess.run(["rm", "-rf", cold_cache], check=True)
    subprocess.run(["rm", "-rf", warm_cache], check=True)
    return version, warm, cold, loadavg()


PAIRS = [
    ("The cat sat on the mat.", "A cat was sitting on the mat."),
    ("The quick brown fox jumps over the lazy dog.", "A fast brown fox leaps over a lazy dog."),
    ("It is raining heavily in the city today.", "Today the city has heavy rain."),
]


def exercise(server, model_port, semantic=False):
    """A few calls of each plugin kind."""
    for i in range(5):
        request_json(server.api_port, "POST", "/paraphrase", {"text": f"The quick brown fox number {i} jumps over the lazy dog."})
        request_json(
            server.chat_port, "POST", "/v1/waifu", {"user_id": f"mem-{i % 2}", "message": f"Hello number {i}!"}
        )
    for original, paraphrase in PAIRS:
        request_json(
            server.api_port,
            "POST",
            "/evaluate",
            {"original": original, "paraphrase": paraphrase, "include_semantic": semantic, "detail": True},
        )
    originals = [p[0] for p in PAIRS] * 100
    paraphrases = [p[1] for p in PAIRS] * 100
    request_json(
        server.api_port,
        "POST",
        "/evaluate/batch",
        {"originals": originals, "paraphrases": paraphrases, "include_semantic": semantic},
    )


def memory(binary, config):
    warm_cache = tempfile.mkdtemp(prefix="parlance-bench-mem-cache-")
    Server(config_text=config, cache_dir=warm_cache).stop()
    model = Upstream("form")
    env = {"MODEL_URL": f"http://127.0.0.1:{model.port}/path/", "RATE_LIMIT_REQUESTS_PER_MINUTE": "100000"}
    version_rss, ready, after, hwm, sem_ready, sem_after, cold = [], [], [], [], [], [], []
    have_model = os.path.exists(os.path.join(MODEL_DIR, "model.safetensors"))
    for i in range(MEM_RUNS):
        log(f"memory round {i + 1}/{MEM_RUNS}, load {loadavg()}")
        version_rss.append(version_run(binary)[1])
        cold_cache = tempfile.mkdtemp(prefix="parlance-bench-cold-cache-")
        s = Server(config_text=config, env=env, cache_dir=cold_cache)
        time.sleep(0.5)
        cold.append(s.rss_kib())
        s.stop()
        subprocess.run(["rm", "-rf", cold_cache], check=True)
        s = Server(config_text=config, env=env, cache_dir=warm_cache)
        time.sleep(0.5)
        ready.append(s.rss_kib())
        exercise(s, model.port)
        time.sleep(0.5)
        after.append(s.rss_kib())
        hwm.append(s.hwm_kib())
        s.stop()
        if have_model:
            s = Server(config_text=config, env={**env, "PARLANCE_EMBEDDINGS_MODEL_DIR": MODEL_DIR}, cache_dir=warm_cache)
            time.sleep(0.5)
            sem_ready.append(s.rss_kib())
            exercise(s, model.port, semantic=True)
            time.sleep(0.5)
            sem_after.append(s.rss_kib())
            s.stop()
    model.stop()
    subprocess.run(["rm", "-rf", warm_cache], check=True)
    return version_rss, ready, after, hwm, sem_ready, sem_after, cold, loadavg()


def main():
    binary = build()
    print(machine_line())
    rows = []
    if "--skip-call-bench" not in sys.argv:
        wasm, wasm_p90, native, load = plugin_call_bench()
        rows.append(
            [
                "plugin call (fresh instance + 1 call), p50",
                f"{wasm:.2f} us (p90 {wasm_p90:.2f})",
                f"native {native:.3f} us",
                f"{wasm / native:.0f}x",
                "<= 25 us",
                verdict(wasm <= 25),
                load,
            ]
        )
    for label, config in PLUGIN_SETS:
        version, warm, cold, load = startup(binary, config)
        v, w, c = median(version) * 1e3, median(warm) * 1e3, median(cold) * 1e3
        rows.append(
            [
                f"{label}: start-up to /health 200, warm cache ({len(warm)} runs)",
                f"{w:.0f} ms (min {min(warm) * 1e3:.0f}, max {max(warm) * 1e3:.0f})",
                f"--version {v:.1f} ms",
                f"{w / v:.1f}x",
                "<= 300 ms",
                verdict(w <= 300),
                load,
            ]
        )
        rows.append(
            [
                f"{label}: start-up to /health 200, cold cache ({len(cold)} runs)",
                f"{c:.0f} ms (min {min(cold) * 1e3:.0f}, max {max(cold) * 1e3:.0f})",
                f"--version {v:.1f} ms",
                f"{c / v:.0f}x",
                "(report)",
                "-",
                load,
            ]
        )
        version_rss, ready, after, hwm, sem_ready, sem_after, cold, load = memory(binary, config)
        base = median(version_rss) / 1024
        for name, xs, target in [
            (f"{label}: VmRSS of api server, ready (all plugins loaded)", ready, True),
            (f"{label}: VmRSS after calls of every plugin kind", after, True),
            (f"{label}: VmHWM (peak) after those calls", hwm, False),
            (f"{label}: VmRSS ready after a cold start (compiler memory not yet returned)", cold, False),
            (f"{label}: VmRSS ready, embedding model loaded (info)", sem_ready, False),
            (f"{label}: VmRSS after calls incl. semantic (info)", sem_after, False),
        ]:
            if not xs:
                continue
            mib = median(xs) / 1024
            rows.append(
                [
                    name,
                    f"{mib:.1f} MiB",
                    f"--version {base:.1f} MiB",
                    f"{mib / base:.1f}x",
                    "<= 100 MB" if target else "(report)",
                    verdict(mib * 1.048576 <= 100) if target else "-",
                    load,
                ]
            )
    print()
    table(rows, ["benchmark", "median", "baseline", "ratio", "target", "verdict", "load avg"])


if __name__ == "__main__":
    main()
