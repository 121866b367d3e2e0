#!/usr/bin/env bash
# Fuzzes the whole HTTP surface (both seeds' routes, from /openapi.json) of a running server with
# schemathesis: no server errors, and every response must match its own schema.
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

schemathesis run "http://127.0.0.1:$port/openapi.json" \
  --checks not_a_server_error,response_schema_conformance,status_code_conformance,content_type_conformance \
  --max-examples "${SCHEMATHESIS_EXAMPLES:-40}" \
  --seed "${SCHEMATHESIS_SEED:-1}" \
  --request-timeout 30 \
  --workers 2 || { echo "--- server log ---" >&2; tail -50 "$work/server.log" >&2; exit 1; }
