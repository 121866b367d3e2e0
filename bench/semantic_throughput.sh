#!/usr/bin/env bash
# Pairs/second of the native encoder (parlance-embeddings) against sentence-transformers on the
# same CPU, in one run: the 430 pairs of tests/data/semantic-reference.jsonl repeated to $PAIRS
# pairs, both implementations loading the same model folder. Also reports one-pair-per-call
# throughput, one-sentence latency, load time and the resident memory of the loaded model.
#
# The two run alternately for $ROUNDS rounds of $REPEATS timed repeats each, so that a change in
# machine load hits both; the figures are medians over all repeats.
#
# Environment: PAIRS (2000), REPEATS (3), ROUNDS (2), THREADS (threads for both sides; default:
# each one's own choice, which is every core for both), SEMANTIC_BENCH_VENV (a venv holding
# sentence-transformers and torch; created under target/ when absent), CARGO_TARGET_DIR, PYTHON.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
pairs="${PAIRS:-2000}"
repeats="${REPEATS:-3}"
rounds="${ROUNDS:-2}"
threads=()
[[ -n "${THREADS:-}" ]] && threads=(--threads "$THREADS")
venv="${SEMANTIC_BENCH_VENV:-$repo/target/semantic-bench-venv}"
python="${PYTHON:-python3}"
model="$repo/models/all-MiniLM-L6-v2"
data="$repo/tests/data/semantic-reference.jsonl"
target_dir="${CARGO_TARGET_DIR:-$repo/target}"

"$repo/scripts/fetch-model.sh" "$model"

# PyPI's Linux torch wheels are CUDA builds; they run on the CPU all the same (device="cpu").
if ! "$venv/bin/python" -c "import sentence_transformers, torch" 2>/dev/null; then
    echo "semantic_throughput: installing sentence-transformers and torch into $venv" >&2
    "$python" -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
        "sentence-transformers==6.2.0" "torch==2.15.0" numpy
fi

cargo build --quiet --release --manifest-path "$repo/Cargo.toml" -p parlance-embeddings --example throughput
ours="$target_dir/release/examples/throughput"

results="$(mktemp -d)"
trap 'rm -rf "$results"' EXIT
{
    echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(nproc) cores"
    echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "pairs: $pairs, repeats per round: $repeats, rounds: $rounds, threads: ${THREADS:-default}"
} >&2
for round in $(seq 1 "$rounds"); do
    echo "round $round/$rounds" >&2
    "$ours" "$model" "$data" --pairs "$pairs" --repeats "$repeats" "${threads[@]}" >"$results/ours.$round.json"
    "$venv/bin/python" "$repo/bench/st_throughput.py" "$model" "$data" --pairs "$pairs" --repeats "$repeats" \
        "${threads[@]}" >"$results/st.$round.json"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2

"$venv/bin/python" - "$results" "$rounds" <<'EOF'
import json, statistics, sys
folder, rounds = sys.argv[1], int(sys.argv[2])
def gather(name):
    runs = [json.load(open(f"{folder}/{name}.{r}.json")) for r in range(1, rounds + 1)]
    pool = lambda key: [x for run in runs for x in run[key]]
    median = lambda xs: statistics.median(xs) if xs else float("nan")
    return {
        "batched": median(pool("batched_pairs_per_second")),
        "cpu": median(pool("batched_cpu_seconds_per_1000_pairs")),
        "per_pair": median(pool("per_pair_pairs_per_second")),
        "latency": median([run["single_text_latency_ms_median"] for run in runs]),
        "load": median([run["load_seconds"] for run in runs]),
        "rss": median([run["model_rss_mib"] for run in runs]),
        "checksum": runs[-1]["checksum"],
        "pairs": runs[-1]["pairs"],
    }
ours, st = gather("ours"), gather("st")
rows = [
    ("batched pairs/s (median)", "batched", "{:.1f}"),
    ("batched CPU s per 1000 pairs", "cpu", "{:.2f}"),
    ("one call per pair, pairs/s", "per_pair", "{:.1f}"),
    ("1-sentence latency, ms", "latency", "{:.2f}"),
    ("model load, s", "load", "{:.3f}"),
    ("model resident memory, MiB", "rss", "{:.1f}"),
]
print(f"{'':32} {'parlance-embeddings':>20} {'sentence-transformers':>22}")
for label, key, fmt in rows:
    print(f"{label:32} {fmt.format(ours[key]):>20} {fmt.format(st[key]):>22}")
print(f"ratio batched (ours / sentence-transformers): {ours['batched'] / st['batched']:.2f}")
print(f"ratio batched by CPU time (theirs / ours): {st['cpu'] / ours['cpu']:.2f}")
print(f"ratio per-pair calls (ours / sentence-transformers): {ours['per_pair'] / st['per_pair']:.2f}")
drift = abs(ours["checksum"] - st["checksum"]) / ours["pairs"]
print(f"difference of the mean cosine over {ours['pairs']} pairs: {drift:.1e}")
EOF
