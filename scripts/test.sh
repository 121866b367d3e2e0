#!/usr/bin/env bash
# The whole test suite, from a fresh clone: set-up, shellcheck over the scripts, fresh cross-check
# data from the reference tools, every test of the workspace, the library example, the deployment files validated, the container
# image built, pushed, pulled back and run from its root file system under chroot, the manual built
# with its links checked and its guides run as written, schemathesis against a running server, and the
# documentation pages and the manual rendered in headless Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
# Each step's time and the disk left after it, so that a run's log shows where CI's minutes go and,
# when a machine's disk fills, which step filled it.
timed() {
  local started=$SECONDS
  "$@"
  printf '[test] %s: %d s, %s free\n' "$*" $((SECONDS - started)) "$(df -h --output=avail . | tail -n 1 | tr -d ' ')" >&2
}
timed scripts/setup.sh --tests
# The scripts this suite runs, and CI's, before they run: a quoting slip fails here by name rather than
# as a stray command in a later step's log.
shellcheck -x scripts/*.sh scripts/lib/*.sh .ci/run bench/*.sh
export PATH="$PWD/.venv/bin:$PATH"
mkdir -p target

# Random pairs scored by sacreBLEU and rouge-score in this run, checked by the metric tests beside the
# shared reference file.
seed=${PARLANCE_CROSSCHECK_SEED:-$(date +%s)}
echo "[test] cross-check pairs with seed $seed" >&2
python scripts/metric_reference.py generate --count 300 --seed "$seed" --out target/crosscheck.jsonl
export PARLANCE_EXTRA_METRIC_REFERENCE="$PWD/target/crosscheck.jsonl"

# The pure-Python part of the bundled ParaScore metric, natively (the component is tested through the host).
(cd plugins/parascore-py && PYTHONDONTWRITEBYTECODE=1 python3 -m unittest -q test_parascore)
# The protocol of the bundled Ollama chat model and what it shares with the provider, in Node.
(cd plugins/ollama-js && node --test)
timed cargo test --workspace --no-fail-fast
# The library example as `cargo test` built it (`cargo run --example` would build it again with the host's
# features alone).
timed "${CARGO_TARGET_DIR:-target}/debug/examples/library"
timed scripts/deploy-check.sh
# One more compile: the static (musl) release binary the image holds (scripts/image-check.sh says what
# else it checks).
timed scripts/image-check.sh

timed scripts/book.sh
timed scripts/run-guides.sh

timed scripts/schemathesis.sh
timed scripts/docs-render.sh
