#!/usr/bin/env bash
# Checks {{name}}.wasm against the contract, then scores pairs.jsonl with it in Parlance's sandbox.
set -euo pipefail
cd "$(dirname "$0")"
{{find_parlance}}
"$parlance" plugins check {{name}}.wasm
out=$("$parlance" plugins test {{name}}.wasm --kind metric --pairs pairs.jsonl)
echo "$out"
# The second pair doubles its original, so its ratio is exactly 2.
grep -q "^pair 2: {{ident}}_length_ratio=2$" <<<"$out" || { echo "FAILED: pair 2 should score 2" >&2; exit 1; }
grep -q "^pair 3: error: invalid input" <<<"$out" || { echo "FAILED: pair 3 should be refused" >&2; exit 1; }
echo "test passed"
