# shellcheck shell=bash
# Sourced by scripts/image-check.sh and bench/image.sh: an image's root file system run the way a
# container runtime runs it, without one (`podman run` cannot set its rlimits on these machines).
# The root is bind-mounted read-only on itself, the image's two volumes are bind-mounted writable on
# it, and the entry point runs chrooted into it, in its working directory, as the image's user, with
# the image's environment and nothing else: no /proc, /dev or /sys, no file of the host.
#
# The caller sets a trap that calls rootfs_cleanup, which stops the processes started by rootfs_start
# and undoes the mounts, in that order.

rootfs_mounts=()
rootfs_pids=()

# rootfs_export STORE_ARGS REF DIR: copies the root file system of image REF into DIR (created), through
# a working container mounted by buildah; STORE_ARGS is an array's name holding buildah's global
# options (--root, --runroot, --storage-driver) for a store of the caller's, or an empty array.
rootfs_export() {
  local -n _rootfs_store=$1
  local ref=$2 dir=$3 ctr mnt
  ctr=$(buildah "${_rootfs_store[@]}" from --quiet --pull-never "$ref")
  mnt=$(buildah "${_rootfs_store[@]}" mount "$ctr")
  mkdir -p "$dir"
  cp -a "$mnt/." "$dir/"
  buildah "${_rootfs_store[@]}" umount "$ctr" >/dev/null
  buildah "${_rootfs_store[@]}" rm "$ctr" >/dev/null
}

# rootfs_config STORE_ARGS REF KEY: one field of the image's configuration, as JSON (Env, User,
# WorkingDir, Entrypoint, Cmd, Volumes, Labels, Healthcheck, ...).
rootfs_config() {
  local -n _rootfs_store=$1
  buildah "${_rootfs_store[@]}" inspect --type image "$2" \
    | python3 -c 'import json, sys; print(json.dumps(json.load(sys.stdin)["Docker"]["config"].get(sys.argv[1])))' "$3"
}

# rootfs_mount ROOT DATA CACHE: ROOT read-only on itself; DATA on its /var/lib/parlance and CACHE on its
# /var/cache/parlance, writable, as the image's volumes are. DATA and CACHE are given to UID 65532.
rootfs_mount() {
  local root=$1 data=$2 cache=$3
  chown 65532:65532 "$data" "$cache"
  mount --bind "$root" "$root"
  rootfs_mounts+=("$root")
  mount -o remount,bind,ro "$root"
  mount --bind "$data" "$root/var/lib/parlance"
  rootfs_mounts+=("$root/var/lib/parlance")
  mount --bind "$cache" "$root/var/cache/parlance"
  rootfs_mounts+=("$root/var/cache/parlance")
}

# rootfs_command ROOT ENV_JSON [NAME=VALUE ...] -- ARGS...: sets the array rootfs_cmd to the command that
# runs /usr/local/bin/parlance ARGS chrooted into ROOT, in /var/lib/parlance, as UID and GID 65532 with
# no supplementary group, with the environment of the image (ENV_JSON, its Env list) and the
# NAME=VALUE pairs only. unshare(1) here is chroot(1) with a working directory: no namespace is
# unshared, so the process shares the host's loopback. env and unshare each exec the next, so the
# process started is the server itself, which a signal reaches.
rootfs_command() {
  local root=$1 env_json=$2
  shift 2
  local vars=()
  mapfile -t vars < <(python3 -c 'import json, sys; print("\n".join(json.loads(sys.argv[1]) or []))' "$env_json")
  while [ $# -gt 0 ] && [ "$1" != -- ]; do vars+=("$1"); shift; done
  [ "${1:-}" = -- ] && shift
  # unshare by its path: env looks a command up in the PATH it was given, the image's.
  rootfs_cmd=(env -i "${vars[@]}" "$(command -v unshare)" --root="$root" --wd=/var/lib/parlance --setuid 65532 --setgid 65532
              /usr/local/bin/parlance "$@")
}

# rootfs_start LOG ROOT ENV_JSON [NAME=VALUE ...] -- ARGS...: that command in the background, its
# stdout and stderr to LOG; sets rootfs_pid.
rootfs_start() {
  local log=$1
  shift
  rootfs_command "$@"
  "${rootfs_cmd[@]}" >"$log" 2>&1 &
  rootfs_pid=$!
  rootfs_pids+=("$rootfs_pid")
}

# free_port: a TCP port free on loopback when asked.
free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# wait_http URL SECONDS PID: waits until URL answers 200, failing after SECONDS or as soon as process
# PID has exited.
wait_http() {
  local url=$1 deadline=$((SECONDS + $2)) pid=$3
  until curl -sf -o /dev/null --max-time 2 "$url"; do
    kill -0 "$pid" 2>/dev/null || return 1
    [ "$SECONDS" -lt "$deadline" ] || return 1
    sleep 0.05
  done
}

# stop_pid PID: SIGTERM, then the exit status; SIGKILL after 40 s (the server's drain is 30 s at most).
stop_pid() {
  local pid=$1 i
  kill -TERM "$pid" 2>/dev/null || true
  for ((i = 0; i < 400; i++)); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid"
}

rootfs_cleanup() {
  local pid i
  for pid in "${rootfs_pids[@]}"; do
    if kill -0 "$pid" 2>/dev/null; then stop_pid "$pid" >/dev/null 2>&1 || true; fi
  done
  for ((i = ${#rootfs_mounts[@]} - 1; i >= 0; i--)); do
    umount "${rootfs_mounts[i]}" 2>/dev/null || umount -l "${rootfs_mounts[i]}" 2>/dev/null || true
  done
  rootfs_mounts=()
  rootfs_pids=()
}
