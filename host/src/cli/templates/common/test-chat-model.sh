#!/usr/bin/env bash
# Checks {{name}}.wasm against the contract, then asks it for a reply in Parlance's sandbox.
set -euo pipefail
cd "$(dirname "$0")"
{{find_parlance}}
"$parlance" plugins check {{name}}.wasm
out=$("$parlance" plugins test {{name}}.wasm --kind chat-model --message "Good evening.")
echo "$out"
grep -q "^reply: Character heard you say: Good evening.$" <<<"$out" || { echo "FAILED: unexpected reply" >&2; exit 1; }
echo "test passed"
