#!/usr/bin/env bash
# The container image (issue 41): its size, and its binary's start-up to /health ready against the
# binary built on the machine, in the same run.
#
#   size        the image's one layer uncompressed (as stored) and compressed (gzip, as `buildah push`
#               sends it to a registry), the static binary stripped, and the machine's release binary
#               as cargo builds it (not stripped) and stripped, for comparison
#   start-up    from the process's start to the first 200 on /health, polled every 5 ms: the image's
#               binary run from the image's root file system as scripts/image-check.sh runs it
#               (read-only, chrooted, UID 65532, the two volumes mounted), against the glibc release
#               binary (`cargo build --release -p parlance`) run directly in a folder of its own, the
#               two alternated run by run, each with a fresh data folder; `warm` with the compiled
#               plugins in the cache (the usual restart), `cold` with an empty cache (the first start:
#               every bundled plugin of the default configuration compiled); and, to tell the static
#               binary's share from the chroot's, the image's binary run directly like the machine's
#
# Prints medians and the ratio image / machine, and writes bench/results/image-DATE.json.
#
#   bench/image.sh                       builds both binaries and the image first
#   RUNS=12 COLD_RUNS=3 bench/image.sh   the number of runs of each binary (the defaults)
#
# Needs root (mounts, chroot) and what `scripts/setup.sh --image` installs.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/lib/rootfs.sh
source scripts/lib/rootfs.sh

runs=${RUNS:-12}
cold_runs=${COLD_RUNS:-3}
say() { printf '[bench/image] %s\n' "$*" >&2; }
[ "$(id -u)" -eq 0 ] || { say "needs root: it mounts the image's root file system and changes root into it"; exit 1; }
target_dir=${CARGO_TARGET_DIR:-$PWD/target}

scripts/image.sh
report=$target_dir/image/image.json
say "building the machine's release binary (cargo build --release -p parlance)"
cargo build --quiet --release -p parlance
machine=$target_dir/release/parlance

tmp=$(mktemp -d /tmp/parlance-bench-image.XXXXXX)
ctr=
cleanup() {
  rootfs_cleanup
  [ -z "$ctr" ] || buildah rm "$ctr" >/dev/null 2>&1 || true
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

tag=localhost/parlance:latest
# The default store, where scripts/image.sh put the image (read through its name by the rootfs_ functions).
# shellcheck disable=SC2034
local_store=()
root=$tmp/root
rootfs_export local_store "$tag" "$root"
env_json=$(rootfs_config local_store "$tag" Env)
mkdir "$tmp/data" "$tmp/cache"
rootfs_mount "$root" "$tmp/data" "$tmp/cache"
strip -o "$tmp/machine-stripped" "$machine"

# ready ARGV...: starts ARGV, prints the milliseconds until /health answered 200 on $port, stops it.
ready() {
  python3 - "$port" "$@" <<'PY'
import http.client, os, signal, subprocess, sys, time
port, argv = int(sys.argv[1]), sys.argv[2:]
start = time.perf_counter()
process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
while True:
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
        conn.request("GET", "/health")
        if conn.getresponse().status == 200:
            break
    except OSError:
        pass
    if process.poll() is not None:
        sys.exit(f"the server exited with status {process.returncode} before /health answered")
    if time.perf_counter() - start > 300:
        process.kill()
        sys.exit("no /health after 300 s")
    time.sleep(0.005)
elapsed = (time.perf_counter() - start) * 1000
process.send_signal(signal.SIGTERM)
process.wait(timeout=60)
print(f"{elapsed:.1f}")
PY
}

# start_image warm|cold, start_machine warm|cold: one start of the image's binary from its root, or of
# the machine's, with the same settings and a fresh data folder; `cold` empties the compile cache first.
start_image() {
  find "$tmp/data" -mindepth 1 -delete
  [ "$1" = warm ] || find "$tmp/cache" -mindepth 1 -delete
  port=$(free_port)
  rootfs_command "$root" "$env_json" API_HOST=127.0.0.1 API_PORT="$port" PORT="$(free_port)" CACHE_TYPE=memory \
    -- --mode api
  ready "${rootfs_cmd[@]}"
}
# start_direct NAME BINARY warm|cold: BINARY run directly, in a data folder and a cache of NAME's.
start_direct() {
  local name=$1 binary=$2
  rm -rf "${tmp:?}/$name-data" && mkdir -p "$tmp/$name-data"
  [ "$3" = warm ] || rm -rf "${tmp:?}/$name-cache"
  port=$(free_port)
  (cd "$tmp/$name-data" && ready env -i PATH=/usr/bin:/bin HOME="$tmp/$name-data" \
    XDG_CACHE_HOME="$tmp/$name-cache" API_HOST=127.0.0.1 API_PORT="$port" PORT="$(free_port)" \
    CACHE_TYPE=memory "$binary" --mode api)
}
start_machine() { start_direct machine "$machine" "$1"; }
start_static() { start_direct static "$target_dir/image/parlance" "$1"; }

declare -A times
for kind in cold warm; do
  n=$runs
  [ "$kind" = cold ] && n=$cold_runs
  # A first start of each fills its cache, untimed, for the warm runs.
  [ "$kind" = warm ] && { start_image cold >/dev/null; start_machine cold >/dev/null; start_static cold >/dev/null; }
  for ((i = 0; i < n; i++)); do
    # Alternated, in an order rotated each run, so that none always goes first.
    case $((i % 3)) in
      0) image_ms=$(start_image "$kind"); machine_ms=$(start_machine "$kind"); static_ms=$(start_static "$kind") ;;
      1) machine_ms=$(start_machine "$kind"); static_ms=$(start_static "$kind"); image_ms=$(start_image "$kind") ;;
      2) static_ms=$(start_static "$kind"); image_ms=$(start_image "$kind"); machine_ms=$(start_machine "$kind") ;;
    esac
    times[$kind-image]+="$image_ms "
    times[$kind-machine]+="$machine_ms "
    times[$kind-static]+="$static_ms "
    say "$kind run $((i + 1))/$n: image $image_ms ms, machine $machine_ms ms, static binary directly $static_ms ms"
  done
done

mkdir -p bench/results
result=bench/results/image-$(date -u +%Y%m%d-%H%M%S).json
python3 - "$report" "$machine" "$tmp/machine-stripped" "$result" "$runs" "$cold_runs" \
  "${times[cold-image]}" "${times[cold-machine]}" "${times[cold-static]}" \
  "${times[warm-image]}" "${times[warm-machine]}" "${times[warm-static]}" <<'PY'
import json, os, platform, statistics, sys, time
report, machine, stripped, result, runs, cold_runs = sys.argv[1:7]
cold_image, cold_machine, cold_static, warm_image, warm_machine, warm_static = (
    [float(t) for t in a.split()] for a in sys.argv[7:13])
image = json.load(open(report))
sizes = image["sizes"]
mb = lambda n: f"{n / 1e6:.1f} MB"
print(f"image {image['name']} ({image['id'][:12]}), revision {image['labels'].get('org.opencontainers.image.revision')}")
print(f"  size: {mb(sizes['uncompressed'])} uncompressed, {mb(sizes['compressed'])} compressed as pushed "
      f"({', '.join(sizes['compression'])})")
print(f"  static binary: {mb(sizes['binary_stripped'])} stripped, {mb(sizes['binary'])} as built; "
      f"machine's release binary: {mb(os.path.getsize(stripped))} stripped, {mb(os.path.getsize(machine))} as built")
rows = {}
for kind, img, mach, stat in (("warm", warm_image, warm_machine, warm_static),
                              ("cold", cold_image, cold_machine, cold_static)):
    i, m, st = statistics.median(img), statistics.median(mach), statistics.median(stat)
    rows[kind] = {"image_ms": img, "machine_ms": mach, "static_direct_ms": stat, "image_median_ms": i,
                  "machine_median_ms": m, "static_direct_median_ms": st, "ratio": i / m,
                  "static_direct_ratio": st / m}
    print(f"  start-up to /health, {kind} cache ({len(img)} runs each): image {i:.1f} ms, machine {m:.1f} ms, "
          f"ratio {i / m:.2f}; the static binary run directly {st:.1f} ms, ratio {st / m:.2f}")
load = os.getloadavg()
json.dump({
    "issue": 41, "script": "bench/image.sh", "finished": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    "machine": {"cpus": os.cpu_count(), "kernel": platform.release(), "load_average": load},
    "image": image, "machine_binary": {"bytes": os.path.getsize(machine), "stripped_bytes": os.path.getsize(stripped)},
    "runs": int(runs), "cold_runs": int(cold_runs), "startup": rows,
}, open(result, "w"), indent=2)
print(f"  written to {result}")
PY
