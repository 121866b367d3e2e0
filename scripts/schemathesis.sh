#!/usr/bin/env bash
# Fuzzes the whole HTTP surface (both seeds' routes, from /openapi.json) of a running server with
# schemathesis and every check it has: no server errors, every response matches its schema, the
# server accepts what the document allows and refuses what it forbids. The few exceptions are listed,
# with their reasons, in the configuration below.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/.venv/bin:$PATH"
. scripts/lib/binary.sh

work=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
chat_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
API_HOST=127.0.0.1 PORT=$chat_port CACHE_TYPE=memory DATABASE_FILE="$work/dialogs.db" \
  RATE_LIMIT_REQUESTS_PER_MINUTE=100000 LOG_LEVEL=warning \
  "$bin" --mode api --port "$port" 2>"$work/server.log" &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 1 300); do
  curl -fs "http://127.0.0.1:$port/health" >/dev/null && break
  sleep 0.2
done

# Schemathesis keeps a replay cache of what it found; each run starts from none, so that a run
# depends only on its seed and never on an earlier run in the same checkout.
cat >"$work/schemathesis.toml" <<TOML
[cache]
directory = "$work/schemathesis-cache"

# A body over the server's size limit is refused with 413 before it is read.
[checks.negative_data_rejection]
expected-statuses = [400, 401, 403, 404, 405, 406, 409, 413, 415, 422, 428, 429]

# Rules JSON Schema cannot state, so a schema-valid body may still be refused with a 4xx:
# the two lists of a batch evaluation have the same length;
[[operations]]
include-path = "/evaluate/batch"
checks.positive_data_acceptance.enabled = false

# a dialog's indices are 0 to n-1, each once;
[[operations]]
include-path = "/v1/user/dialog/json/{user_id}"
include-method = "PUT"
checks.positive_data_acceptance.enabled = false

# and a model must be one the chosen provider serves (GET /providers lists them).
[[operations]]
include-path-regex = "^/paraphrase"
checks.positive_data_acceptance.enabled = false
TOML

# One worker: with two, schemathesis's threads parse Python sources concurrently (hypothesis
# describing its filter lambdas), which CPython 3.11 can fail with "SystemError: AST constructor
# recursion depth mismatch", a crash of the tool and not a finding about the server.
if ! schemathesis --config-file "$work/schemathesis.toml" run "http://127.0.0.1:$port/openapi.json" \
  --max-examples "${SCHEMATHESIS_EXAMPLES:-40}" \
  --seed "${SCHEMATHESIS_SEED:-1}" \
  --request-timeout 30 \
  --workers 1 | tee "$work/schemathesis.out"; then
  # The server log first and the findings last, so that the findings are in the tail CI shows.
  echo "--- server log (last 20 lines) ---" >&2
  tail -20 "$work/server.log" | cut -c1-400 >&2
  echo "--- schemathesis findings ---" >&2
  sed -n '/=== \(ERRORS\|FAILURES\) ===/,/=== SUMMARY ===/p' "$work/schemathesis.out" | cut -c1-400 | head -150 >&2
  exit 1
fi
