#!/usr/bin/env bash
# Builds {{name}}.wasm from app.py with componentize-py, pinned in requirements.txt and installed into
# .venv on first use.
set -euo pipefail
cd "$(dirname "$0")"
if [ ! -x .venv/bin/componentize-py ] || ! cmp -s requirements.txt .venv/.requirements.txt; then
  python3 -m venv .venv
  .venv/bin/pip install -q --disable-pip-version-check -r requirements.txt
  cp requirements.txt .venv/.requirements.txt
fi
.venv/bin/componentize-py -d wit -w {{world}} componentize app -o {{name}}.wasm
echo "built $(pwd)/{{name}}.wasm"
