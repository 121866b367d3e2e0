#!/usr/bin/env python3
"""Issue 5 benchmarks: evaluation throughput against the Python reference tools, in one run.

  a. BLEU + chrF + ROUGE-L on the 430 pairs of tests/data/metric-reference.jsonl repeated to PAIRS
     (10 000):
       - through `POST /evaluate/batch` of the api server, with an operator config that binds only the
         metrics needed ([evaluate] metrics = ["bleu", "rouge"]; bleu's `scores = "bleu,chrf"`,
         rouge's `scores = "rougeL"`; the other metric plugins disabled). Timed by the client from
         sending the request to the last byte of the answer (JSON in and out included);
       - through the plugin runtime directly: `cargo bench -p parlance --bench metric_throughput`
         (host/benches/metric_throughput.rs), which runs its own Python baseline in the same run;
       - against sacreBLEU + rouge-score in Python (bench/metric_reference_throughput.py, one thread).
     Target: >= 20x the Python throughput.
  b. Semantic similarity through the host: `POST /evaluate/batch` with include_semantic and only the
     `semantic` metric bound, the model at models/all-MiniLM-L6-v2 (PARLANCE_EMBEDDINGS_MODEL_DIR),
     on SEMANTIC_PAIRS pairs of tests/data/semantic-reference.jsonl, against sentence-transformers
     (bench/st_throughput.py --only batched) on the same CPU in the same run. Target: ratio >= 1.
     The encoder alone is bench/semantic_throughput.sh.

Rounds alternate project and baseline; medians are reported.

Environment: PAIRS (10000), ROUNDS (3), SEMANTIC_PAIRS (2000), SKIP_SEMANTIC=1, SKIP_DIRECT=1,
SEMANTIC_BENCH_VENV (a venv with sentence-transformers and torch; created under target/ when absent,
as bench/semantic_throughput.sh does), BENCH_NO_BUILD=1, CARGO_TARGET_DIR.
"""

import json
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import (  # noqa: E402
    REPO,
    TARGET_DIR,
    Server,
    build,
    log,
    loadavg,
    machine_line,
    median,
    request,
    table,
    verdict,
)

PAIRS = int(os.environ.get("PAIRS", "10000"))
ROUNDS = int(os.environ.get("ROUNDS", "3"))
SEMANTIC_PAIRS = int(os.environ.get("SEMANTIC_PAIRS", "2000"))
MODEL_DIR = os.path.join(REPO, "models", "all-MiniLM-L6-v2")
VENV = os.path.join(REPO, ".venv")
ST_VENV = os.environ.get("SEMANTIC_BENCH_VENV") or os.path.join(REPO, "target", "semantic-bench-venv")

LEXICAL_CONFIG = """
[evaluate]
metrics = ["bleu", "rouge"]
semantic_metrics = []
max_pairs = 10000

[evaluate.weights]
bleu = { weight = 1.0, transform = "scale(100)" }

[[plugin]]
id = "bleu"
config = { scores = "bleu,chrf" }

[[plugin]]
id = "rouge"
config = { scores = "rougeL" }

[[plugin]]
id = "lexical"
enabled = false

[[plugin]]
id = "structural"
enabled = false

[[plugin]]
id = "semantic"
enabled = false
"""

SEMANTIC_CONFIG = """
[evaluate]
metrics = ["semantic"]
semantic_metrics = ["semantic"]
max_pairs = 10000

[evaluate.weights]
semantic_similarity = { weight = 1.0 }
"""


def reference_python():
    """The .venv interpreter with sacrebleu and rouge-score, installed when missing."""
    python = os.path.join(VENV, "bin", "python")
    probe = [python, "-c", "import sacrebleu, rouge_score"]
    if not os.path.exists(python) or subprocess.run(probe, capture_output=True).returncode != 0:
        log("installing the Python reference tools into .venv (scripts/requirements-reference.txt)")
        if not os.path.exists(python):
            subprocess.run([sys.executable, "-m", "venv", VENV], check=True)
        subprocess.run(
            [python, "-m", "pip", "install", "-q", "-r", os.path.join(REPO, "scripts", "requirements-reference.txt")],
            check=True,
        )
    return python


def st_python():
    python = os.path.join(ST_VENV, "bin", "python")
    probe = [python, "-c", "import sentence_transformers, torch"]
    if not os.path.exists(python) or subprocess.run(probe, capture_output=True).returncode != 0:
        log(f"installing sentence-transformers and torch into {ST_VENV}")
        subprocess.run([sys.executable, "-m", "venv", ST_VENV], check=True)
        subprocess.run(
            [python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
             "sentence-transformers==6.2.0", "torch==2.15.0", "numpy"],
            check=True,
        )
    return python


def load_pairs(name, count):
    with open(os.path.join(REPO, "tests", "data", name), encoding="utf-8") as f:
        rows = [json.loads(line) for line in f if line.strip()]
    rows = [rows[i % len(rows)] for i in range(count)]
    return [r["original"] for r in rows], [r["paraphrase"] for r in rows]


def rest_batch(server, originals, paraphrases, include_semantic):
    """Seconds for one POST /evaluate/batch, the server's CPU seconds, and the parsed answer."""
    body = json.dumps(
        {"originals": originals, "paraphrases": paraphrases, "include_semantic": include_semantic}
    ).encode()
    cpu = server.cpu_seconds()
    started = time.perf_counter()
    status, _, data = request(server.api_port, "POST", "/evaluate/batch", body, timeout=600)
    elapsed = time.perf_counter() - started
    cpu = server.cpu_seconds() - cpu
    if status != 200:
        raise RuntimeError(f"/evaluate/batch: {status} {data[:500]!r}")
    return elapsed, cpu, json.loads(data)


def lexical_checksum(answer):
    total, warnings = 0.0, 0
    for r in answer["results"]:
        e = r["evaluation"]
        total += e["bleu"] + e["chrf"] + 100 * e["rougeL"]
        warnings += len(r["warnings"])
    return total, warnings


def python_reference(python):
    out = subprocess.run(
        [python, os.path.join(REPO, "bench", "metric_reference_throughput.py"), "--pairs", str(PAIRS)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return json.loads(out)


def lexical(python):
    originals, paraphrases = load_pairs("metric-reference.jsonl", PAIRS)
    server = Server(config_text=LEXICAL_CONFIG)
    rest, rest_cpu, py = [], [], []
    try:
        rest_batch(server, originals[:300], paraphrases[:300], False)  # warm-up
        for rnd in range(ROUNDS):
            log(f"BLEU+chrF+ROUGE-L round {rnd + 1}/{ROUNDS}, load {loadavg()}")
            elapsed, cpu, answer = rest_batch(server, originals, paraphrases, False)
            rest.append(PAIRS / elapsed)
            rest_cpu.append(cpu / elapsed)
            ours_sum, warnings = lexical_checksum(answer)
            p = python_reference(python)
            py.append(p["pairs_per_second"][0])
    finally:
        server.stop()
    return rest, rest_cpu, py, ours_sum, p["checksum"], warnings, p["implementation"], loadavg()


def direct():
    log(f"cargo bench -p parlance --bench metric_throughput, load {loadavg()}")
    out = subprocess.run(
        ["cargo", "bench", "--quiet", "-p", "parlance", "--bench", "metric_throughput"],
        cwd=REPO,
        env={**os.environ, "CARGO_TARGET_DIR": TARGET_DIR, "PAIRS": str(PAIRS), "ROUNDS": str(ROUNDS),
             "PYTHON": os.path.join(VENV, "bin", "python")},
        capture_output=True,
        text=True,
    )
    if out.returncode != 0:
        sys.exit(f"cargo bench --bench metric_throughput failed:\n{out.stdout}\n{out.stderr[-3000:]}")
    out = out.stdout
    sys.stderr.write(out)
    rows = []
    for line in out.splitlines():
        m = re.match(r"\s+(plugin runtime, .*?)\s{2,}(\d+)\s+([\d.]+)x", line)
        if m:
            rows.append((m.group(1), float(m.group(2)), float(m.group(3))))
        m = re.match(r"\s+Python baseline: .*?\s{2,}(\d+)\s", line)
        if m:
            python_rate = float(m.group(1))
    return rows, python_rate, loadavg()


def semantic(st):
    originals, paraphrases = load_pairs("semantic-reference.jsonl", SEMANTIC_PAIRS)
    server = Server(config_text=SEMANTIC_CONFIG, env={"PARLANCE_EMBEDDINGS_MODEL_DIR": MODEL_DIR})
    rest, rest_cpu, py = [], [], []
    try:
        rest_batch(server, originals[:64], paraphrases[:64], True)  # warm-up: the weights are mapped lazily
        for rnd in range(ROUNDS):
            log(f"semantic round {rnd + 1}/{ROUNDS}, load {loadavg()}")
            elapsed, cpu, answer = rest_batch(server, originals, paraphrases, True)
            rest.append(SEMANTIC_PAIRS / elapsed)
            rest_cpu.append(cpu / elapsed)
            ours_sum = sum(r["evaluation"]["semantic_similarity"] for r in answer["results"])
            out = subprocess.run(
                [st, os.path.join(REPO, "bench", "st_throughput.py"), MODEL_DIR,
                 os.path.join(REPO, "tests", "data", "semantic-reference.jsonl"),
                 "--pairs", str(SEMANTIC_PAIRS), "--repeats", "1", "--only", "batched"],
                capture_output=True,
                text=True,
                check=True,
            ).stdout
            report = json.loads(out)
            py.append(report["batched_pairs_per_second"][0])
    finally:
        server.stop()
    return rest, rest_cpu, py, ours_sum, report["checksum"], report["torch_threads"], loadavg()


def main():
    build()
    print(machine_line())
    python = reference_python()
    rows = []

    rest, rest_cpu, py, ours_sum, py_sum, warnings, impl, load = lexical(python)
    r, p = median(rest), median(py)
    rows.append([
        f"BLEU+chrF+ROUGE-L, POST /evaluate/batch ({PAIRS} pairs)",
        f"{r:.0f} pairs/s (server busy {median(rest_cpu):.2f} cores)",
        f"Python {p:.0f} pairs/s",
        f"{r / p:.1f}x",
        ">= 20x",
        verdict(r / p >= 20),
        load,
    ])
    print(f"baseline: {impl}; checksum ours {ours_sum:.6f}, Python {py_sum:.6f}; warnings in the answer: {warnings}")

    if os.environ.get("SKIP_DIRECT") != "1":
        direct_rows, py_direct, load = direct()
        for label, rate, ratio in direct_rows:
            rows.append([
                f"BLEU+chrF+ROUGE-L, {label}",
                f"{rate:.0f} pairs/s",
                f"Python {py_direct:.0f} pairs/s",
                f"{ratio:.1f}x",
                ">= 20x",
                verdict(ratio >= 20),
                load,
            ])

    have_model = os.path.exists(os.path.join(MODEL_DIR, "model.safetensors"))
    if os.environ.get("SKIP_SEMANTIC") != "1":
        if not have_model:
            subprocess.run([os.path.join(REPO, "scripts", "fetch-model.sh"), MODEL_DIR], check=True)
        st = st_python()
        rest, rest_cpu, py, ours_sum, st_sum, threads, load = semantic(st)
        r, p = median(rest), median(py)
        rows.append([
            f"semantic similarity, POST /evaluate/batch ({SEMANTIC_PAIRS} pairs)",
            f"{r:.1f} pairs/s (server busy {median(rest_cpu):.2f} cores)",
            f"sentence-transformers {p:.1f} pairs/s ({threads} torch threads)",
            f"{r / p:.2f}",
            ">= 1",
            verdict(r / p >= 1),
            load,
        ])
        print(f"semantic: mean cosine ours {ours_sum / SEMANTIC_PAIRS:.8f}, sentence-transformers "
              f"{st_sum / SEMANTIC_PAIRS:.8f}")
    print()
    table(rows, ["benchmark", "median", "baseline", "ratio", "target", "verdict", "load avg"])


if __name__ == "__main__":
    main()
