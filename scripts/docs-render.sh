#!/usr/bin/env bash
# Renders /docs (Swagger UI) and /redoc (ReDoc) of a running server in headless Chromium, with
# background networking off, and checks that each page lists every route of /openapi.json: the pages
# must work from the binary's own assets, without internet.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/binary.sh

work=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
chat_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
API_HOST=127.0.0.1 PORT=$chat_port CACHE_TYPE=memory DATABASE_FILE="$work/dialogs.db" LOG_LEVEL=warning \
  "$bin" --mode api --port "$port" 2>"$work/server.log" &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 1 300); do
  curl -fs "http://127.0.0.1:$port/health" >/dev/null && break
  sleep 0.2
done

render() {
  timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$work/profile-$1" --virtual-time-budget=20000 \
    --dump-dom "http://127.0.0.1:$port/$2" >"$work/$1.html" 2>"$work/$1.log"
}
render swagger docs/
render redoc redoc

python3 - "$port" "$work" <<'PY'
import json, re, sys, urllib.request
port, work = sys.argv[1], sys.argv[2]
doc = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/openapi.json"))
failed = False
for page in ("swagger", "redoc"):
    text = re.sub(r"<[^>]+>", "", open(f"{work}/{page}.html", encoding="utf-8").read()).replace("\u200b", "")
    missing = [p for p in doc["paths"] if p not in text]
    print(f"docs-render: {page}: {len(doc['paths']) - len(missing)} of {len(doc['paths'])} routes listed")
    if missing:
        failed = True
        print(f"docs-render: {page} does not list {missing}", file=sys.stderr)
sys.exit(1 if failed else 0)
PY
