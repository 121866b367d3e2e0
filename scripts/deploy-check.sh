#!/usr/bin/env bash
# Checks deploy/ offline: the Kubernetes manifests against the Kubernetes schemas (kubernetes-validate,
# from scripts/requirements-test.txt) and the compose file against the Compose Specification's JSON
# schema, then how each is wired to Parlance (scripts/deploy_check.py says what). The schema is the
# one docker-compose 1.29.2 ships, taken from its wheel on PyPI into .tools/ once.
#
#   scripts/deploy-check.sh            with target/debug/parlance (PARLANCE_BIN to use another)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/.venv/bin:$PATH"
binary=${PARLANCE_BIN:-${CARGO_TARGET_DIR:-target}/debug/parlance}
[ -x "$binary" ] || { echo "deploy-check: no binary at $binary (cargo build first)" >&2; exit 2; }
schema=.tools/compose-spec/compose_spec.json
if [ ! -s "$schema" ]; then
    download=$(mktemp -d)
    trap 'rm -rf "$download"' EXIT
    pip download -q --disable-pip-version-check --no-deps -d "$download" docker-compose==1.29.2
    mkdir -p "$(dirname "$schema")"
    python3 -c 'import sys, zipfile; sys.stdout.buffer.write(zipfile.ZipFile(sys.argv[1]).read("compose/config/compose_spec.json"))' \
        "$download"/docker_compose-1.29.2-*.whl >"$schema.part"
    mv "$schema.part" "$schema"
fi
python3 scripts/deploy_check.py "$binary" "$schema"
