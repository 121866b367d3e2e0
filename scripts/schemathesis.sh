#!/usr/bin/env bash
# Checks a running server as the tools that import it would: /openapi.json validates as OpenAPI 3.1
# (openapi-spec-validator, as code generators and gateways require), and /metrics parses with
# Prometheus's own parsers in both of its formats, every family present from the start. Then fuzzes
# the whole HTTP surface (both seeds' routes, from /openapi.json) with schemathesis and every check it
# has: no server errors, every response matches its schema, the server accepts what the document
# allows and refuses what it forbids. The few exceptions are listed, with their reasons, in the
# configuration below.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/.venv/bin:$PATH"
. scripts/lib/binary.sh

work=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
chat_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
# With an admin credential, so that the admin API is on and its checks are what is fuzzed; every
# request carries it (the other routes, with API keys off, do not read it).
admin_token=schemathesis-admin-credential
API_HOST=127.0.0.1 PORT=$chat_port CACHE_TYPE=memory DATABASE_FILE="$work/dialogs.db" \
  RATE_LIMIT_REQUESTS_PER_MINUTE=100000 LOG_LEVEL=warning PARLANCE_ADMIN_TOKEN=$admin_token \
  "$bin" --mode api --port "$port" 2>"$work/server.log" &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 1 300); do
  curl -fs "http://127.0.0.1:$port/health" >/dev/null && break
  sleep 0.2
done

# Before any other request, so that /metrics shows what a fresh server exposes.
python3 - "$port" <<'PY'
import json, sys, urllib.request
from openapi_spec_validator import validate
from prometheus_client.openmetrics.parser import text_string_to_metric_families as openmetrics_families
from prometheus_client.parser import text_string_to_metric_families as prometheus_families

base = f"http://127.0.0.1:{sys.argv[1]}"

def get(path, accept=None):
    request = urllib.request.Request(base + path, headers={"Accept": accept} if accept else {})
    with urllib.request.urlopen(request) as r:
        return r.headers["Content-Type"], r.read().decode()

text_type, text = get("/metrics")
om_type, om = get("/metrics", "application/openmetrics-text; version=1.0.0")
assert text_type.startswith("text/plain; version=0.0.4"), text_type
assert om_type.startswith("application/openmetrics-text; version=1.0.0"), om_type
plain = {f.name: f for f in prometheus_families(text)}
strict = {f.name: f for f in openmetrics_families(om)}
unknown = sorted(n for n, f in plain.items() if f.type == "unknown")
assert not unknown, f"families the Prometheus text parser cannot type: {unknown}"
assert plain.keys() == strict.keys(), (sorted(plain), sorted(strict))
for name, family in plain.items():
    assert family.type == strict[name].type, (name, family.type, strict[name].type)
    assert family.samples, f"{name} has no samples on a fresh server"
expected = {"http_requests", "http_request_duration_seconds", "plugin_calls",
            "plugin_call_duration_seconds", "cache_hits", "cache_misses", "rate_limit_rejections"}
missing = sorted(expected - {n.removeprefix("parlance_") for n in plain})
assert not missing, f"families missing from a fresh server: {missing}"
print(f"metrics: {len(plain)} families, each typed and present from the start, in both formats")

document = json.loads(get("/openapi.json")[1])
validate(document)
print(f"openapi: /openapi.json is valid OpenAPI {document['openapi']}")
PY

# Schemathesis keeps a replay cache of what it found; each run starts from none, so that a run
# depends only on its seed and never on an earlier run in the same checkout. The cache's folder is the
# one line written with the shell's values; the rest is a quoted heredoc, so that nothing in its
# comments (words in backquotes) is run as a command.
{
  printf '[cache]\ndirectory = "%s"\n\n' "$work/schemathesis-cache"
  cat <<'TOML'
# A body over the server's size limit is refused with 413 before it is read.
[checks.negative_data_rejection]
expected-statuses = [400, 401, 403, 404, 405, 406, 409, 413, 415, 422, 428, 429]

# Rules JSON Schema cannot state, so a schema-valid body may still be refused with a 4xx (and, for
# the last, a schema-invalid one accepted):
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

# a key's name and client hold no control characters inside them, and a name is at most 200
# characters once trimmed;
[[operations]]
include-path-regex = "^/admin/keys"
checks.positive_data_acceptance.enabled = false

# DELETE /admin/keys/{id} revokes a key rather than erasing it: the key stays readable, with its
# `revoked_at`, so that what it did can still be traced to it (GET /admin/keys?revoked=true lists them).
[[operations]]
include-path = "/admin/keys/{id}"
checks.use_after_free.enabled = false

# a client holds no control characters either, and a client's budgets are one per period, as a key's.
[[operations]]
include-path-regex = "^/admin/clients"
checks.positive_data_acceptance.enabled = false

# GET /usage: `to` must come after `from`, and `group_by` names each dimension once.
[[operations]]
include-path = "/usage"
checks.positive_data_acceptance.enabled = false

# POST /v1/chat/completions: the last message must be the user's and hold text, which JSON Schema cannot
# state over an array; and a body that names a chat model (schemathesis tries the documented ids) reaches
# its upstream, which is not running here, so the documented answer is a 5xx (502 upstream_unavailable, or
# 503 model_unavailable for a model without its key), as the OpenAI clients expect it.
[[operations]]
include-path = "/v1/chat/completions"
include-method = "POST"
checks.positive_data_acceptance.enabled = false
checks.not_a_server_error.enabled = false

# POST /path reads its fields from the query string and the form body together, a field in both taking
# the query's value (the original's request.values), so an invalid body field shadowed by a valid one in
# the query is never read; the same field rules are checked on POST /v1/waifu's JSON body. For the same
# reason `user_id` and `message` are required in one of the two places, which no schema of either
# place can say, so a request with neither (each place valid on its own) is refused.
[[operations]]
include-path = "/path"
include-method = "POST"
checks.negative_data_rejection.enabled = false
checks.positive_data_acceptance.enabled = false
TOML
} >"$work/schemathesis.toml"

# One worker: with two, schemathesis's threads parse Python sources concurrently (hypothesis
# describing its filter lambdas), which CPython 3.11 can fail with "SystemError: AST constructor
# recursion depth mismatch", a crash of the tool and not a finding about the server.
if ! schemathesis --config-file "$work/schemathesis.toml" run "http://127.0.0.1:$port/openapi.json" \
  --max-examples "${SCHEMATHESIS_EXAMPLES:-40}" \
  --seed "${SCHEMATHESIS_SEED:-1}" \
  --request-timeout 30 \
  --header "Authorization: Bearer $admin_token" \
  --workers 1 | tee "$work/schemathesis.out"; then
  # The server log first and the findings last, so that the findings are in the tail CI shows.
  echo "--- server log (last 20 lines) ---" >&2
  tail -20 "$work/server.log" | cut -c1-400 >&2
  echo "--- schemathesis findings ---" >&2
  sed -n '/=== \(ERRORS\|FAILURES\) ===/,/=== SUMMARY ===/p' "$work/schemathesis.out" | cut -c1-400 | head -150 >&2
  exit 1
fi
