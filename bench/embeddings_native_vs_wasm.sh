#!/usr/bin/env bash
# Measures where the sentence encoder should run: natively in the host behind the `embeddings`
# capability, or compiled into the metric component (bench/encoder-in-wasm). Same pairs, same run.
# Usage: bench/embeddings_native_vs_wasm.sh   (PAIRS=64 by default)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/fetch-model.sh >/dev/null
target=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
cargo build --quiet --target wasm32-wasip2 --profile plugin -p parlance-bench-encoder-in-wasm
export PARLANCE_BENCH_ENCODER_WASM="$target/wasm32-wasip2/plugin/parlance_bench_encoder_in_wasm.wasm"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
cargo bench --quiet -p parlance --bench embeddings
