#!/usr/bin/env bash
# Runs the manual's guides exactly as written, so that a guide that stops working fails the build:
# every fenced block after a `<!-- run -->` line of each page below, in order, in one bash session
# with `set -euo pipefail`, from a fresh empty folder, with the `parlance` just built on PATH and the
# repository in $PARLANCE_REPO. A block after `<!-- run: server -->` is started in the background as
# a server, waited for on /health, and stopped when its page ends.
#   scripts/run-guides.sh [PAGE.md ...]   (default: every page that has runnable blocks)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/binary.sh
repo=$PWD
pages=("$@")
if [ ${#pages[@]} -eq 0 ]; then
  mapfile -t pages < <(grep -rl --include='*.md' '^<!-- run' docs/src | sort)
fi

tools=$(mktemp -d)
trap 'rm -rf "$tools"' EXIT
ln -s "$bin" "$tools/parlance"

failed=0
for page in "${pages[@]}"; do
  work=$(mktemp -d)
  script="$tools/$(basename "$page" .md).sh"
  python3 - "$page" >"$script" <<'PY'
import re, sys
page = sys.argv[1]
lines = open(page, encoding="utf-8").read().split("\n")
out = ["set -euo pipefail", "servers=()",
       "stop_servers() { for p in \"${servers[@]}\"; do kill \"$p\" 2>/dev/null || true; wait \"$p\" 2>/dev/null || true; done; }",
       "trap stop_servers EXIT"]
i, blocks = 0, 0
while i < len(lines):
    marker = re.fullmatch(r"<!-- run(?:: (server))? -->", lines[i].strip())
    if not marker:
        i += 1
        continue
    start = i + 1
    fence = lines[start].strip() if start < len(lines) else ""
    if not fence.startswith("```"):
        sys.exit(f"{page}:{i + 1}: a run marker must be followed by a fenced block")
    end = start + 1
    while end < len(lines) and lines[end].strip() != "```":
        end += 1
    body = "\n".join(lines[start + 1:end])
    blocks += 1
    out.append(f"echo '[guide] {page}:{start + 1}' >&2")
    if marker.group(1) == "server":
        out.append(f"( {body}\n) >server-{blocks}.log 2>&1 &")
        out.append("servers+=($!)")
        out.append("for _ in $(seq 1 300); do curl -fs http://127.0.0.1:8000/health >/dev/null "
                   "&& curl -fs http://127.0.0.1:5000/health >/dev/null && break; sleep 0.2; done")
        out.append("curl -fs http://127.0.0.1:8000/health >/dev/null "
                   f"|| {{ echo '[guide] the server of {page}:{start + 1} did not start' >&2; cat server-{blocks}.log >&2; exit 1; }}")
    else:
        out.append(body)
    i = end + 1
if blocks == 0:
    sys.exit(f"{page}: no runnable block")
print("\n".join(out))
PY
  echo "[guides] $page: $(grep -c '^echo .\[guide\]' "$script") blocks" >&2
  # A Rust plugin project builds in the target folder the test suite's author kit uses, so the SDK's
  # dependencies compile once per run (build.sh honours CARGO_TARGET_DIR, as the tutorial says).
  if (cd "$work" && PATH="$tools:$repo/.venv/bin:$PATH" PARLANCE_REPO="$repo" \
        CARGO_TARGET_DIR="$repo/target/tmp/kit-rust-target" bash "$script"); then
    echo "[guides] $page: ok" >&2
  else
    echo "[guides] $page: FAILED (its folder is kept: $work)" >&2
    failed=1
    continue
  fi
  rm -rf "$work"
done
exit $failed
