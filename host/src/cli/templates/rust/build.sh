#!/usr/bin/env bash
# Builds {{name}}.wasm: a cdylib for wasm32-wasip2 is already a component. `--locked` builds exactly
# the dependency versions of Cargo.lock, those Parlance's SDK is built and tested with.
set -euo pipefail
cd "$(dirname "$0")"
rustup target list --installed | grep -qx wasm32-wasip2 || rustup target add wasm32-wasip2
cargo build --target wasm32-wasip2 --release --locked
cp "${CARGO_TARGET_DIR:-target}/wasm32-wasip2/release/{{ident}}.wasm" {{name}}.wasm
echo "built $(pwd)/{{name}}.wasm"
