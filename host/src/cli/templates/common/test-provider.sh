#!/usr/bin/env bash
# Checks {{name}}.wasm against the contract, then paraphrases a text with it in Parlance's sandbox.
set -euo pipefail
cd "$(dirname "$0")"
{{find_parlance}}
"$parlance" plugins check {{name}}.wasm
out=$("$parlance" plugins test {{name}}.wasm --kind provider --text "one two three" --config suffix=indeed)
echo "$out"
grep -q "^paraphrase: three two one indeed$" <<<"$out" || { echo "FAILED: unexpected paraphrase" >&2; exit 1; }
echo "test passed"
