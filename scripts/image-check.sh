#!/usr/bin/env bash
# Checks the container image without a container runtime (`podman run` cannot set its rlimits on these
# machines). It builds the image (scripts/image.sh), pushes it to a local registry (Debian's
# docker-registry, started here on a free loopback port, its storage in a temporary folder) and pulls
# it back by digest into a store of its own, then copies out the pulled image's root file system and
# checks that it holds the static binary and its user's files and nothing else (no shell, no libc),
# with the configuration the deployment files expect. From that root, read-only, chrooted as UID 65532
# with the two volumes mounted (scripts/lib/rootfs.sh), with no /proc, /dev or file of the host, it
# runs a paraphrase on the offline default, then a server: /health, the chat API's status, a
# paraphrase, the HEALTHCHECK's own command, files written only on the volumes, and a drain on SIGTERM;
# then a server reading a configuration file from its data volume, and one serving a plugin it pulled
# from the registry by digest into its cache volume.
# Everything it starts and mounts is stopped, undone and removed on exit.
#
#   scripts/image-check.sh                  builds the static binary and the image first
#   scripts/image-check.sh --binary FILE    the image around FILE (a static binary built before)
#
# The paraphrase is compared with the one of the binary built on the machine, $PARLANCE_BIN or
# target/debug/parlance when it exists (the test suite's). A check of a server with a configuration of
# its own is `serve_in_root NAME FILE` (the file is copied onto the data volume and named by --config),
# then requests to $api and $chat, then `stop_pid "$server_pid"`; the registry is at $registry.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/lib/rootfs.sh
source scripts/lib/rootfs.sh

say() { printf '[image-check] %s\n' "$*" >&2; }
fail() { printf '[image-check] FAILED: %s\n' "$*" >&2; exit 1; }

[ "$(id -u)" -eq 0 ] || fail "needs root: it mounts the root file system and changes root into it"
for tool in buildah docker-registry curl unshare python3 readelf; do
  command -v "$tool" >/dev/null || fail "$tool is missing: run scripts/setup.sh --image"
done

tag=localhost/parlance:latest
tmp=$(mktemp -d /tmp/parlance-image-check.XXXXXX)
# The store that the image is pulled into: its own, so that every blob comes from the registry.
store=(--root "$tmp/store" --runroot "$tmp/run" --storage-driver vfs)
registry_pid=
cleanup() {
  local status=$?
  set +e
  rootfs_cleanup
  if [ -n "$registry_pid" ]; then
    kill "$registry_pid" 2>/dev/null
    wait "$registry_pid" 2>/dev/null
  fi
  if [ -d "$tmp/store" ]; then
    buildah "${store[@]}" rm --all >/dev/null 2>&1 || true
    buildah "${store[@]}" rmi --all --force >/dev/null 2>&1 || true
  fi
  rm -rf "$tmp"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

scripts/image.sh --tag "$tag" "$@"
report=${CARGO_TARGET_DIR:-$PWD/target}/image/image.json

# --- The registry: push, then pull back by digest ---------------------------------------------------
registry_port=$(free_port)
cat >"$tmp/registry.yml" <<EOF
version: 0.1
log:
  level: warn
  accesslog:
    disabled: true
storage:
  filesystem:
    rootdirectory: $tmp/registry
  delete:
    enabled: true
http:
  addr: 127.0.0.1:$registry_port
EOF
docker-registry serve "$tmp/registry.yml" >"$tmp/registry.log" 2>&1 &
registry_pid=$!
wait_http "http://127.0.0.1:$registry_port/v2/" 30 "$registry_pid" \
  || fail "docker-registry did not answer on 127.0.0.1:$registry_port: $(tail -n 5 "$tmp/registry.log")"
registry=127.0.0.1:$registry_port
buildah push --quiet --tls-verify=false --digestfile "$tmp/digest" "$tag" "docker://$registry/parlance:check" >/dev/null
digest=$(cat "$tmp/digest")
[[ $digest =~ ^sha256:[0-9a-f]{64}$ ]] || fail "buildah push wrote no digest: '$digest'"
# What the registry serves under that digest is the manifest whose hash it is.
curl -sf -H 'Accept: application/vnd.docker.distribution.manifest.v2+json' \
  "http://$registry/v2/parlance/manifests/$digest" -o "$tmp/manifest.json" \
  || fail "the registry has no manifest $digest"
served="sha256:$(sha256sum "$tmp/manifest.json" | cut -d' ' -f1)"
[ "$served" = "$digest" ] || fail "the registry serves $served under $digest"
pushed_size=$(python3 -c 'import json, sys; print(sum(l["size"] for l in json.load(open(sys.argv[1]))["layers"]))' "$tmp/manifest.json")

buildah "${store[@]}" pull --quiet --tls-verify=false "$registry/parlance@$digest" >/dev/null
pulled=$(buildah "${store[@]}" inspect --type image --format '{{.FromImageDigest}}' "$registry/parlance@$digest")
[ "$pulled" = "$digest" ] || fail "pulled $pulled by digest $digest"
say "pushed to and pulled from $registry by digest $digest ($((pushed_size / 1000)) kB of layers as pushed)"

# --- What the image holds, and how it is configured -------------------------------------------------
root=$tmp/root
rootfs_export store "$registry/parlance@$digest" "$root"
(cd "$root" && find . -mindepth 1 -printf '%P %U:%G %m %y\n' | sort) >"$tmp/tree"
cat >"$tmp/tree.expected" <<'EOF'
etc 0:0 755 d
etc/group 0:0 644 f
etc/passwd 0:0 644 f
usr 0:0 755 d
usr/local 0:0 755 d
usr/local/bin 0:0 755 d
usr/local/bin/parlance 0:0 755 f
var 0:0 755 d
var/cache 0:0 755 d
var/cache/parlance 65532:65532 755 d
var/lib 0:0 755 d
var/lib/parlance 65532:65532 755 d
EOF
diff -u "$tmp/tree.expected" "$tmp/tree" >&2 || fail "the image's root holds other files than the binary, its user and its volumes (- expected, + found)"
if [ -e "$root/bin/sh" ] || [ -e "$root/lib" ]; then fail "the image has a shell or a /lib"; fi
grep -qx 'parlance:x:65532:65532:Parlance:/var/lib/parlance:/sbin/nologin' "$root/etc/passwd" \
  || fail "/etc/passwd does not name UID 65532: $(cat "$root/etc/passwd")"
binary=$root/usr/local/bin/parlance
headers=$(readelf -lW "$binary")
! grep -q 'Requesting program interpreter' <<<"$headers" || fail "the image's binary names a program interpreter"
dynamic=$(readelf -dW "$binary")
! grep -q '(NEEDED)' <<<"$dynamic" || fail "the image's binary needs shared libraries"
cmp -s "$binary" "$(dirname "$report")/parlance" || fail "the pulled binary differs from target/image/parlance"

config() { rootfs_config store "$registry/parlance@$digest" "$1"; }
expect_config() {
  local got
  got=$(config "$1")
  [ "$got" = "$2" ] || fail "the image's $1 is $got, not $2"
}
expect_config User '"65532:65532"'
expect_config WorkingDir '"/var/lib/parlance"'
expect_config Entrypoint '["/usr/local/bin/parlance"]'
expect_config Cmd '["--mode", "api"]'
expect_config Volumes '{"/var/cache/parlance": {}, "/var/lib/parlance": {}}'
expect_config ExposedPorts '{"5000/tcp": {}, "8000/tcp": {}}'
labels=$(config Labels)
label() { python3 -c 'import json, sys; print(json.loads(sys.argv[1]).get(sys.argv[2], ""))' "$labels" "$1"; }
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)
[ "$(label org.opencontainers.image.version)" = "$version" ] || fail "the version label is not $version: $labels"
case "$(label org.opencontainers.image.revision)" in
  "$(git rev-parse HEAD)" | "$(git rev-parse HEAD)-dirty") ;;
  *) fail "the revision label is not the commit checked out ($(git rev-parse HEAD)): $labels" ;;
esac
[[ $(label org.opencontainers.image.created) =~ ^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z$ ]] \
  || fail "the created label is not an RFC 3339 time: $labels"
healthcheck=$(config Healthcheck)
if "$binary" health --help >/dev/null 2>&1; then
  python3 - "$healthcheck" <<'PY' || fail "the binary has 'parlance health' but the image's HEALTHCHECK is $healthcheck"
import json, sys
check = json.loads(sys.argv[1])
assert check["Test"] == ["CMD", "/usr/local/bin/parlance", "health"], check
assert (check["Interval"], check["Timeout"], check["StartPeriod"], check["Retries"]) == (30e9, 5e9, 60e9, 3), check
PY
else
  say "the binary has no 'parlance health' command: the image has no HEALTHCHECK to check"
  [ "$healthcheck" = null ] || fail "the image has a HEALTHCHECK its binary cannot run: $healthcheck"
fi
env_json=$(config Env)
say "the root holds the static binary, /etc/passwd and /etc/group and the two volumes, nothing else; the configuration and labels are right"

# --- Run from the root: read-only, as UID 65532, with the volumes -----------------------------------
mkdir "$tmp/data" "$tmp/cache"
rootfs_mount "$root" "$tmp/data" "$tmp/cache"
touch "$root/probe" 2>/dev/null && fail "the root is writable"

text="The quick brown fox jumps over the lazy dog."
rootfs_command "$root" "$env_json" -- --mode cli --decode_input "$text"
"${rootfs_cmd[@]}" >"$tmp/cli.out" 2>"$tmp/cli.err" || fail "the paraphrase failed in the image's root: $(tail -n 20 "$tmp/cli.err")"
paraphrase=$(cat "$tmp/cli.out")
if [ -z "$paraphrase" ] || [ "$paraphrase" = "$text" ]; then fail "the image's binary printed '$paraphrase' for '$text'"; fi
machine=${PARLANCE_BIN:-${CARGO_TARGET_DIR:-$PWD/target}/debug/parlance}
if [ -x "$machine" ]; then
  mkdir "$tmp/machine"
  expected=$(cd "$tmp/machine" && env -i PATH=/usr/bin:/bin HOME="$tmp/machine" XDG_CACHE_HOME="$tmp/machine/cache" \
    "$(realpath "$machine")" --mode cli --decode_input "$text" 2>"$tmp/machine.err") \
    || fail "$machine failed: $(tail -n 20 "$tmp/machine.err")"
  [ "$paraphrase" = "$expected" ] || fail "the image's binary paraphrased '$paraphrase', $machine '$expected'"
  say "paraphrase in the root, as $machine paraphrases it: $paraphrase"
else
  say "paraphrase in the root: $paraphrase (no $machine to compare it with)"
fi

# serve_in_root NAME [CONFIG_FILE] [NAME=VALUE ...]: starts the server from the root on two free loopback
# ports, with the configuration file CONFIG_FILE when given (copied onto the data volume, read from
# there), and waits until /health answers; sets server_pid, api and chat (the two base URLs). Its log is
# $tmp/NAME.log.
serve_in_root() {
  local name=$1 config=() api_port chat_port
  shift
  if [ $# -gt 0 ] && [[ $1 != *=* ]]; then
    cp "$1" "$tmp/data/$name.toml"
    chown 65532:65532 "$tmp/data/$name.toml"
    config=(--config "/var/lib/parlance/$name.toml")
    shift
  fi
  api_port=$(free_port)
  chat_port=$(free_port)
  rootfs_start "$tmp/$name.log" "$root" "$env_json" API_HOST=127.0.0.1 API_PORT="$api_port" PORT="$chat_port" \
    CACHE_TYPE=memory "$@" -- --mode api "${config[@]}"
  server_pid=$rootfs_pid
  api=http://127.0.0.1:$api_port
  chat=http://127.0.0.1:$chat_port
  wait_http "$api/health" 180 "$server_pid" || fail "the server in the root ($name) did not answer /health: $(tail -n 20 "$tmp/$name.log")"
}

serve_in_root server
curl -sf "$api/health" -o "$tmp/health.json"
python3 -c 'import json, sys; h = json.load(open(sys.argv[1])); assert h["status"] == "ok", h' "$tmp/health.json" \
  || fail "/health of the server in the root is not ok: $(cat "$tmp/health.json")"
curl -sf "$chat/v1/server/status" | grep -q '"ok"' || fail "/v1/server/status of the chat API is not ok"
served=$(curl -sf "$api/paraphrase" -H 'Content-Type: application/json' -d "{\"text\": \"$text\"}" \
  | python3 -c 'import json, sys; print(json.load(sys.stdin)["paraphrase"])') || fail "/paraphrase failed: $(tail -n 20 "$tmp/server.log")"
[ "$served" = "$paraphrase" ] || fail "the server paraphrased '$served', the command line '$paraphrase'"
grep -q '^Uid:[[:space:]]*65532[[:space:]]' "/proc/$server_pid/status" || fail "the server does not run as UID 65532"
grep -q '^Groups:[[:space:]]*$' "/proc/$server_pid/status" || fail "the server keeps supplementary groups: $(grep Groups "/proc/$server_pid/status")"
if [ "$healthcheck" != null ]; then
  # The HEALTHCHECK's exec form, as a runtime runs it inside the container: passes while the server
  # serves, fails once it has stopped (below).
  mapfile -t probe < <(python3 -c 'import json, sys; print("\n".join(json.loads(sys.argv[1])["Test"][2:]))' "$healthcheck")
  rootfs_command "$root" "$env_json" API_PORT="${api##*:}" PORT="${chat##*:}" -- "${probe[@]}"
  "${rootfs_cmd[@]}" >"$tmp/probe.log" 2>&1 || fail "the HEALTHCHECK failed against a serving server: $(cat "$tmp/probe.log")"
fi
status=0
stop_pid "$server_pid" || status=$?
[ "$status" -eq 0 ] || fail "the server exited with status $status on SIGTERM: $(tail -n 20 "$tmp/server.log")"
grep -q 'shutting down' "$tmp/server.log" || fail "the server did not drain on SIGTERM: $(tail -n 20 "$tmp/server.log")"
if [ "$healthcheck" != null ]; then
  ! "${rootfs_cmd[@]}" >/dev/null 2>&1 || fail "the HEALTHCHECK passed with no server running"
fi
[ -s "$tmp/data/dialogs.db" ] || fail "the server wrote no dialogs.db in its working directory, the data volume"
[ -n "$(find "$tmp/cache" -type f -print -quit)" ] || fail "the server compiled no plugin into the cache volume"
say "server in the root as UID 65532: /health ok, chat status ok, the same paraphrase, dialogs.db and compiled plugins on the volumes, drained on SIGTERM"

# A configuration file read from the data volume, as a ConfigMap is mounted: API keys required.
printf '[auth]\napi_keys = "required"\n' >"$tmp/keys.toml"
serve_in_root keys "$tmp/keys.toml"
code=$(curl -s -o /dev/null -w '%{http_code}' "$api/paraphrase" -H 'Content-Type: application/json' -d "{\"text\": \"$text\"}")
[ "$code" = 401 ] || fail "with api_keys = \"required\" in its configuration file, the server answered /paraphrase without a key with $code"
stop_pid "$server_pid" || fail "the server with a configuration file did not exit cleanly: $(tail -n 20 "$tmp/keys.log")"
say "server in the root with a configuration file on the data volume: API keys required"

# A plugin pulled from a registry: the offline provider pushed by the machine's binary to the registry
# started above, then named by digest in a configuration on the data volume. The image's binary pulls
# it into its cache volume and serves it.
component=${CARGO_TARGET_DIR:-$PWD/target}/wasm/wasm32-wasip2/plugin/parlance_plugin_offline.wasm
if [ -x "$machine" ] && [ -f "$component" ]; then
  mkdir "$tmp/pusher"
  pushed=$(cd "$tmp/pusher" && env -i PATH=/usr/bin:/bin HOME="$tmp/pusher" XDG_CACHE_HOME="$tmp/pusher/cache" \
    "$(realpath "$machine")" plugins push "$component" "oci://$registry/plugins/mirror:1" 2>"$tmp/push.err") \
    || fail "parlance plugins push failed: $(tail -n 20 "$tmp/push.err")"
  pinned=$(grep -o 'oci://[^ ]*@sha256:[0-9a-f]*' <<<"$pushed") || fail "plugins push printed no digest: $pushed"
  printf '[[plugin]]\nid = "mirror"\nkind = "provider"\ncomponent = "%s"\n' "$pinned" >"$tmp/pulled.toml"
  serve_in_root pulled "$tmp/pulled.toml"
  served=$(curl -sf "$api/paraphrase" -H 'Content-Type: application/json' -d "{\"text\": \"$text\", \"provider\": \"mirror\"}" \
    | python3 -c 'import json, sys; print(json.load(sys.stdin)["paraphrase"])') || fail "/paraphrase through the pulled plugin failed: $(tail -n 20 "$tmp/pulled.log")"
  [ "$served" = "$paraphrase" ] || fail "the pulled offline provider paraphrased '$served', the bundled one '$paraphrase'"
  [ -f "$tmp/cache/oci/blobs/sha256/$(sha256sum <"$component" | cut -d' ' -f1)" ] \
    || fail "the pulled component is not in the cache volume: $(find "$tmp/cache" -maxdepth 3)"
  stop_pid "$server_pid" || fail "the server with a pulled plugin did not exit cleanly: $(tail -n 20 "$tmp/pulled.log")"
  say "server in the root with a plugin pulled from the registry by digest ($pinned): the same paraphrase, the component in the cache volume"
else
  fail "no machine binary ($machine) or offline component ($component) to push a plugin with"
fi

say "passed: $(python3 -c 'import json, sys; s = json.load(open(sys.argv[1]))["sizes"]; print("%.1f MB uncompressed, %.1f MB compressed" % (s["uncompressed"] / 1e6, s["compressed"] / 1e6))' "$report")"
