#!/usr/bin/env bash
# The whole test suite, from a fresh clone: set-up, then every test of the workspace.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --tests
export PATH="$PWD/.venv/bin:$PATH"
# The pure-Python part of the bundled ParaScore metric, natively (the component is tested through the host).
(cd plugins/parascore-py && PYTHONDONTWRITEBYTECODE=1 python3 -m unittest -q test_parascore)
cargo test --workspace --no-fail-fast
