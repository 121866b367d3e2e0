#!/usr/bin/env bash
# A Parlance cluster on loopback, from the project's own files: PostgreSQL (the shared dialog store),
# Redis (the shared cache and rate limits) and N replicas of `parlance --mode api`.
#
#   scripts/cluster.sh up [N] [DIR]          start PostgreSQL, Redis and N replicas (default 3) in DIR
#                                            (default: a new temp folder), print their addresses, wait
#                                            until Ctrl-C, then stop everything. The replicas inherit
#                                            the environment (MODEL_URL, PROVIDER_API_KEY, …); the
#                                            binary is PARLANCE_BIN, else target/{release,debug}
#   scripts/cluster.sh postgres start DIR PORT [OWNER_PID]
#                                            start PostgreSQL alone, data in DIR/pg; print its URL. With
#                                            OWNER_PID, it stops by itself once that process is gone
#                                            (how the tests use it: a test killed midway leaks nothing)
#   scripts/cluster.sh postgres stop DIR     stop it (fast shutdown)
#   scripts/cluster.sh postgres restart DIR  stop and start it again on the same port, same data
#
# PostgreSQL refuses to run as root, so as root initdb and pg_ctl run as the `postgres` system user
# (Debian's `postgresql` package creates it; scripts/setup.sh --tests installs the package).
# The database is `parlance`, owned by the role `parlance` (password `parlance`, allowed to create
# databases, which the tests use to give each test its own).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"

say() { printf '[cluster] %s\n' "$*" >&2; }
die() { printf '[cluster] %s\n' "$*" >&2; exit 1; }

pg_bin() {
  local bin
  # The newest version's; with none installed the pattern stays as written, and has no initdb.
  bin=$(printf '%s\n' /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
  if [ ! -x "$bin/initdb" ]; then
    die "PostgreSQL's server is not installed (no /usr/lib/postgresql/*/bin/initdb): run scripts/setup.sh --tests"
  fi
  echo "$bin"
}

# Runs a PostgreSQL program as the postgres user when we are root.
as_pg() {
  if [ "$(id -u)" -eq 0 ]; then
    id postgres >/dev/null 2>&1 || die "no postgres system user: run scripts/setup.sh --tests"
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

pg_start() {
  local dir=$1 port=$2 owner=${3:-}
  local bin; bin=$(pg_bin)
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  local data="$dir/pg" sock="$dir/pg-socket"
  # The postgres user must reach its folders inside a root-owned temp folder.
  chmod o+x "$dir"
  if [ ! -s "$data/PG_VERSION" ]; then
    install -d -m 700 "$data"
    install -d -m 755 "$sock"
    [ "$(id -u)" -eq 0 ] && chown postgres: "$data" "$sock"
    local pwfile="$dir/pg-password"
    echo postgres > "$pwfile"
    [ "$(id -u)" -eq 0 ] && chown postgres: "$pwfile"
    as_pg "$bin/initdb" -D "$data" -U postgres --pwfile="$pwfile" -E UTF8 --locale=C \
      --auth-local=trust --auth-host=scram-sha-256 >"$dir/initdb.log" 2>&1 \
      || { cat "$dir/initdb.log" >&2; die "initdb failed"; }
    rm -f "$pwfile"
  fi
  echo "$port" > "$dir/pg-port"
  as_pg "$bin/pg_ctl" -D "$data" -l "$data/server.log" -w -t 60 \
    -o "-p $port -k $sock -c listen_addresses=127.0.0.1 -c max_connections=300 -c shared_buffers=64MB" \
    start >/dev/null || { cat "$data/server.log" >&2; die "PostgreSQL did not start"; }
  if ! as_pg "$bin/psql" -h "$sock" -p "$port" -U postgres -d postgres -tAc \
      "SELECT 1 FROM pg_roles WHERE rolname = 'parlance'" | grep -q 1; then
    as_pg "$bin/psql" -q -h "$sock" -p "$port" -U postgres -d postgres \
      -c "CREATE ROLE parlance LOGIN CREATEDB PASSWORD 'parlance'" \
      -c "CREATE DATABASE parlance OWNER parlance" >/dev/null
  fi
  if [ -n "$owner" ]; then
    # Stops the server once the owner is gone, however it ended.
    nohup bash -c "while kill -0 $owner 2>/dev/null; do sleep 1; done; \
      $(declare -f as_pg); as_pg '$bin/pg_ctl' -D '$data' -m immediate stop" >/dev/null 2>&1 &
  fi
  echo "postgres://parlance:parlance@127.0.0.1:$port/parlance"
}

pg_stop() {
  local dir=$1 bin; bin=$(pg_bin)
  as_pg "$bin/pg_ctl" -D "$dir/pg" -m fast -w stop >/dev/null 2>&1 || true
}

pg_restart() {
  local dir=$1
  pg_stop "$dir"
  pg_start "$dir" "$(cat "$dir/pg-port")" >/dev/null
}

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

binary() {
  if [ -n "${PARLANCE_BIN:-}" ]; then echo "$PARLANCE_BIN"; return; fi
  for profile in release debug; do
    if [ -x "$ROOT/target/$profile/parlance" ]; then echo "$ROOT/target/$profile/parlance"; return; fi
  done
  say "building parlance (release)"
  (cd "$ROOT" && cargo build --release -p parlance --bin parlance >&2)
  echo "$ROOT/target/release/parlance"
}

up() {
  local n=${1:-3} dir=${2:-}
  [ -n "$dir" ] || dir=$(mktemp -d /tmp/parlance-cluster.XXXXXX)
  mkdir -p "$dir"
  local bin; bin=$(binary)
  command -v redis-server >/dev/null || die "redis-server is not installed: run scripts/setup.sh --tests"
  # Globals, not locals: the traps run after `up` has returned too.
  CLUSTER_DIR=$dir
  CLUSTER_PIDS=()
  cleanup() {
    trap - EXIT INT TERM
    say "stopping"
    for pid in "${CLUSTER_PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    pg_stop "$CLUSTER_DIR"
    exit 0
  }
  trap cleanup EXIT INT TERM
  local pg_port; pg_port=${PG_PORT:-$(free_port)}
  local url; url=$(pg_start "$dir" "$pg_port")
  say "PostgreSQL: ${url/:parlance@/:***@}"
  local redis_port; redis_port=${REDIS_PORT:-$(free_port)}
  redis-server --port "$redis_port" --bind 127.0.0.1 --save '' --appendonly no --dir "$dir" \
    >"$dir/redis.log" 2>&1 &
  CLUSTER_PIDS+=($!)
  say "Redis: redis://127.0.0.1:$redis_port/0"
  for i in $(seq 1 "$n"); do
    local api chat
    api=$(free_port); chat=$(free_port)
    mkdir -p "$dir/replica-$i"
    (cd "$dir/replica-$i" && exec env DATABASE_URL="$url" CACHE_TYPE=redis \
      CACHE_STORE_URL="redis://127.0.0.1:$redis_port/0" API_HOST=127.0.0.1 PORT="$chat" \
      "$bin" --mode api --port "$api" >"$dir/replica-$i.log" 2>&1) &
    CLUSTER_PIDS+=($!)
    say "replica $i: paraphrase API http://127.0.0.1:$api, chat API http://127.0.0.1:$chat (log $dir/replica-$i.log)"
  done
  say "all started; Ctrl-C stops the cluster"
  wait
}

case "${1:-}" in
  up) shift; up "$@" ;;
  postgres)
    case "${2:-}" in
      start) [ $# -ge 4 ] || die "usage: $0 postgres start DIR PORT [OWNER_PID]"; pg_start "$3" "$4" "${5:-}" ;;
      stop) [ $# -ge 3 ] || die "usage: $0 postgres stop DIR"; pg_stop "$3" ;;
      restart) [ $# -ge 3 ] || die "usage: $0 postgres restart DIR"; pg_restart "$3" ;;
      *) die "usage: $0 postgres start|stop|restart DIR ..." ;;
    esac ;;
  *) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
esac
