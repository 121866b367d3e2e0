#!/usr/bin/env bash
# Builds {{name}}.wasm from src/app.js with componentize-js, pinned by package-lock.json and installed
# into node_modules on first use. (`npm install` with the lock installs exactly the locked versions;
# `npm ci` rejects this lock over platform packages jco lists but npm never published.)
set -euo pipefail
cd "$(dirname "$0")"
if [ ! -x node_modules/.bin/componentize-js ] || ! cmp -s package-lock.json node_modules/.lock-stamp; then
  npm install --no-audit --no-fund --loglevel=error
  cp package-lock.json node_modules/.lock-stamp
fi
# fetch-event would export an incoming HTTP handler, which no plugin world has.
node_modules/.bin/componentize-js src/app.js --wit wit -n {{world}} -d fetch-event -o {{name}}.wasm
echo "built $(pwd)/{{name}}.wasm"
