#!/usr/bin/env bash
# Renders /docs (Swagger UI), /redoc (ReDoc) and /manual of a running server in headless Chromium,
# opened by a host name other than localhost (Swagger UI treats localhost specially), and checks that
# each API page lists every route of /openapi.json, that the manual shows every chapter of its table
# of contents and its generated error codes, and that the browser asked nothing of any host but the
# server: the pages must work from the binary's own assets, without internet, and leak nothing.
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

# The server's name for the browser: it resolves to the server, and every other name to nothing, so
# a request that tries to leave the server fails here instead of reaching the internet; the network
# log records it either way.
name=parlance-docs.test
render() {
  timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --host-resolver-rules="MAP $name 127.0.0.1, MAP * ~NOTFOUND" \
    --log-net-log="$work/$1.netlog.json" \
    --user-data-dir="$work/profile-$1" --virtual-time-budget=20000 \
    --dump-dom "http://$name:$port/$2" >"$work/$1.html" 2>"$work/$1.log"
}
render swagger docs/
render redoc redoc
render manual manual/reference/errors.html

python3 - "$port" "$work" "$name" <<'PY'
import json, re, sys, urllib.parse, urllib.request
port, work, name = sys.argv[1], sys.argv[2], sys.argv[3]
doc = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/openapi.json"))
failed = False
summary = open("docs/src/SUMMARY.md", encoding="utf-8").read()
chapters = re.findall(r"\[([^\]]+)\]\(", summary)
codes = re.findall(r"^\| `([a-z_]+)` \|", open("docs/src/reference/errors.md", encoding="utf-8").read(), re.M)
for page in ("swagger", "redoc", "manual"):
    text = re.sub(r"<[^>]+>", "", open(f"{work}/{page}.html", encoding="utf-8").read()).replace("\u200b", "")
    text = text.replace("&amp;", "&")
    wanted, what = (chapters + codes, "chapters and codes") if page == "manual" else (list(doc["paths"]), "routes")
    missing = [p for p in wanted if p not in text]
    print(f"docs-render: {page}: {len(wanted) - len(missing)} of {len(wanted)} {what} shown")
    if missing:
        failed = True
        print(f"docs-render: {page} does not show {missing}", file=sys.stderr)
    # Every request the page made, from the browser's network log: those with the page as initiator
    # (the browser's own traffic, such as its update checks, has none). The page's navigation is the
    # browser's too, so the server must also appear among the page's requests.
    log = json.load(open(f"{work}/{page}.netlog.json", encoding="utf-8"))
    start = log["constants"]["logEventTypes"]["URL_REQUEST_START_JOB"]
    requests = [e.get("params", {}) for e in log["events"] if e["type"] == start]
    by_page = sorted({p["url"] for p in requests if "url" in p and p.get("initiator", "").startswith("http")})
    hosts = sorted({urllib.parse.urlsplit(u).hostname for u in by_page})
    print(f"docs-render: {page}: {len(by_page)} requests by the page, to {hosts}")
    if hosts != [name]:
        failed = True
        outside = [u for u in by_page if urllib.parse.urlsplit(u).hostname != name]
        print(f"docs-render: {page} sent requests outside the server: {outside}", file=sys.stderr)
sys.exit(1 if failed else 0)
PY
