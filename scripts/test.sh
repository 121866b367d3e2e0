#!/usr/bin/env bash
# The whole test suite, from a fresh clone: set-up, then every test of the workspace.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --tests
export PATH="$PWD/.venv/bin:$PATH"
cargo test --workspace --no-fail-fast
