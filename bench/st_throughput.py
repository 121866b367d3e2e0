"""The sentence-transformers half of bench/semantic_throughput.sh.

Measures, on the same pairs and in the same ways as host/embeddings/examples/throughput.rs:
batched pairs/second (every text in one `encode` call), pairs/second with one call per pair,
the latency of a one-sentence call, the model's load time and the resident memory it adds.
Prints a human-readable line on stderr and one JSON object on stdout.

Usage: st_throughput.py MODEL_DIR PAIRS_JSONL [--pairs N] [--repeats R] [--threads T] [--only WHAT]
"""

import argparse
import json
import os
import statistics
import sys
import time

# The model folder is local; nothing may be fetched from the Hugging Face hub.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


def rss_kib(field="VmRSS:"):
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith(field):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("model")
    parser.add_argument("data")
    parser.add_argument("--pairs", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--only", choices=["batched", "per-pair", "latency"])
    parser.add_argument("--threads", type=int, help="torch.set_num_threads (default: torch's choice)")
    args = parser.parse_args()

    import numpy as np
    import torch
    from sentence_transformers import SentenceTransformer

    with open(args.data) as f:
        reference = [json.loads(line) for line in f if line.strip()]
    pairs = [reference[i % len(reference)] for i in range(args.pairs)]
    originals = [p["original"] for p in pairs]
    paraphrases = [p["paraphrase"] for p in pairs]

    if args.threads:
        torch.set_num_threads(args.threads)
    rss_before = rss_kib()
    started = time.perf_counter()
    model = SentenceTransformer(args.model, device="cpu")
    load_seconds = time.perf_counter() - started
    # After a first call: safetensors maps the weights lazily, so they are resident only once used.
    model.encode(["warm-up sentence"], normalize_embeddings=True)
    model_rss_mib = (rss_kib() - rss_before) / 1024

    def wanted(what):
        return args.only is None or args.only == what

    batched, batched_cpu, per_pair, latencies = [], [], [], []
    checksum = float("nan")
    for _ in range(args.repeats if wanted("batched") else 0):
        started, cpu = time.perf_counter(), time.process_time()
        vectors = model.encode(originals + paraphrases, batch_size=32, normalize_embeddings=True)
        a, b = vectors[: len(pairs)], vectors[len(pairs) :]
        checksum = float(np.sum(a.astype(np.float64) * b.astype(np.float64)))
        batched.append(len(pairs) / (time.perf_counter() - started))
        batched_cpu.append((time.process_time() - cpu) * 1000 / len(pairs))

    per_pair_count = min(len(pairs), 430)
    for _ in range(args.repeats if wanted("per-pair") else 0):
        started = time.perf_counter()
        for a, b in zip(originals[:per_pair_count], paraphrases[:per_pair_count]):
            v = model.encode([a, b], normalize_embeddings=True)
            float(np.dot(v[0], v[1]))
        per_pair.append(per_pair_count / (time.perf_counter() - started))

    for text in originals[: 430 if wanted("latency") else 0]:
        started = time.perf_counter()
        model.encode([text], normalize_embeddings=True)
        latencies.append((time.perf_counter() - started) * 1e3)

    def median(xs):
        return statistics.median(xs) if xs else float("nan")

    report = {
        "implementation": "sentence-transformers",
        "pairs": len(pairs),
        "repeats": args.repeats,
        "torch_threads": torch.get_num_threads(),
        "batched_pairs_per_second": batched,
        "batched_median": median(batched),
        "batched_cpu_seconds_per_1000_pairs": batched_cpu,
        "per_pair_pairs_per_second": per_pair,
        "per_pair_median": median(per_pair),
        "single_text_latency_ms_median": median(latencies),
        "load_seconds": load_seconds,
        "model_rss_mib": model_rss_mib,
        "peak_rss_mib": rss_kib("VmHWM:") / 1024,
        "checksum": checksum,
    }
    print(
        f"sentence-transformers: batched {median(batched):.1f} pairs/s ({median(batched_cpu):.2f} CPU s "
        f"per 1000 pairs), per-pair calls "
        f"{median(per_pair):.1f} pairs/s, 1-text latency {median(latencies):.2f} ms, load "
        f"{load_seconds:.3f} s, model RSS {model_rss_mib:.1f} MiB, peak RSS {report['peak_rss_mib']:.1f} MiB",
        file=sys.stderr,
    )
    print(json.dumps(report))


if __name__ == "__main__":
    main()
