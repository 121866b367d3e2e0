#!/usr/bin/env bash
# Builds the container image localhost/parlance:latest with buildah, FROM scratch: the parlance binary
# linked statically against musl (the bundled plugins, the manual and the web pages are inside it),
# stripped, with /etc/passwd and /etc/group naming its non-root user (UID and GID 65532), and the
# two folders a volume is mounted on, owned by that user: /var/lib/parlance, the working directory
# (dialogs.db, the admin socket), and /var/cache/parlance (the compiled plugins). Nothing else: no
# shell, no libc, no CA bundle (the binary carries the web's roots; PARLANCE_CA_FILE adds more), so a
# read-only root file system is all it needs. The image is written in Docker's format, the one that
# keeps a HEALTHCHECK, with the OCI labels (version, source, revision, created). Its HEALTHCHECK is
# `parlance health` when the binary has that command; with a binary that has none, the image has no
# HEALTHCHECK (and says so).
#
#   scripts/image.sh                  builds target/x86_64-unknown-linux-musl/release/parlance, then the image
#   scripts/image.sh --binary FILE    the image around FILE, a static x86-64 binary built before
#   scripts/image.sh --tag NAME       another name than localhost/parlance:latest
#
# It leaves the stripped binary at target/image/parlance (it runs on any x86-64 Linux, so the same
# file serves a machine without a container), and target/image/image.json: the image's name, ID,
# labels and sizes, uncompressed and compressed as a registry stores it (gzip, as `buildah push`
# sends it). PARLANCE_IMAGE_SOURCE sets the source label (default: the git remote `origin`, when it is
# a URL); SOURCE_DATE_EPOCH its creation time (default: the commit's, or now if the tree has changes).
# Needs what `scripts/setup.sh --image` installs.
set -euo pipefail
cd "$(dirname "$0")/.."

tag=localhost/parlance:latest
binary=
while [ $# -gt 0 ]; do
  case "$1" in
    --binary) binary=${2:?--binary needs a file}; shift 2 ;;
    --tag) tag=${2:?--tag needs a name}; shift 2 ;;
    *) echo "usage: scripts/image.sh [--binary FILE] [--tag NAME]" >&2; exit 2 ;;
  esac
done

say() { printf '[image] %s\n' "$*" >&2; }
fail() { printf '[image] %s\n' "$*" >&2; exit 1; }

musl=x86_64-unknown-linux-musl
command -v buildah >/dev/null || fail "buildah is missing: run scripts/setup.sh --image (Debian's buildah)"
command -v readelf >/dev/null || fail "readelf is missing (Debian's binutils), needed to check that the binary is static"
command -v strip >/dev/null || fail "strip is missing (Debian's binutils)"
target_dir=${CARGO_TARGET_DIR:-$PWD/target}
if [ -z "$binary" ]; then
  rustup target list --installed | grep -qx "$musl" \
    || fail "the $musl target is missing: run scripts/setup.sh --image"
  command -v musl-gcc >/dev/null || fail "musl-gcc is missing: run scripts/setup.sh --image (Debian's musl-tools)"
  say "building the static binary (cargo build --release --target $musl)"
  cargo build --quiet --release --target "$musl" -p parlance
  binary=$target_dir/$musl/release/parlance
fi
[ -x "$binary" ] || fail "no binary at $binary"
# Staging files owned by UID 65532 and mounting the container's root take root: without it, the rest
# runs as root of a user namespace of buildah's (rootless buildah, /etc/subuid).
if [ "$(id -u)" -ne 0 ]; then
  exec buildah unshare "$0" --binary "$binary" --tag "$tag"
fi

# Static: no program interpreter (ld.so) to load, no shared library needed.
headers=$(readelf -lW "$binary")
dynamic=$(readelf -dW "$binary")
if grep -q 'Requesting program interpreter' <<<"$headers"; then
  fail "$binary is dynamically linked (it names a program interpreter); build it for $musl"
fi
if grep -q '(NEEDED)' <<<"$dynamic"; then
  fail "$binary needs shared libraries: $(grep '(NEEDED)' <<<"$dynamic" | tr -s ' ' | cut -d' ' -f6- | tr '\n' ' ')"
fi
[ "$(readelf -hW "$binary" | sed -n 's/^ *Machine: *//p')" = "Advanced Micro Devices X86-64" ] \
  || fail "$binary is not an x86-64 binary"

out=$target_dir/image
mkdir -p "$out"
strip -o "$out/parlance.part" "$binary"
mv "$out/parlance.part" "$out/parlance"

# What the image holds, staged: the binary, and the user's entries (a name for UID 65532, its home
# the working directory, no login shell since there is no shell).
stage=$(mktemp -d)
ctr=
cleanup() {
  rm -rf "$stage"
  [ -z "$ctr" ] || buildah rm "$ctr" >/dev/null 2>&1 || true
}
trap cleanup EXIT
mkdir -p "$stage/root/usr/local/bin" "$stage/root/etc" "$stage/root/var/lib/parlance" "$stage/root/var/cache/parlance"
chmod -R 0755 "$stage/root"
install -m 0755 "$out/parlance" "$stage/root/usr/local/bin/parlance"
chown 65532:65532 "$stage/root/var/lib/parlance" "$stage/root/var/cache/parlance"
printf 'root:x:0:0:root:/root:/sbin/nologin\nparlance:x:65532:65532:Parlance:/var/lib/parlance:/sbin/nologin\n' \
  >"$stage/root/etc/passwd"
printf 'root:x:0:\nparlance:x:65532:\n' >"$stage/root/etc/group"
chmod 0644 "$stage/root/etc/passwd" "$stage/root/etc/group"

# The labels. The revision is the commit checked out, marked -dirty when tracked files have changed
# since; the creation time is the commit's for a clean tree, so that the same commit labels alike.
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)
[ -n "$version" ] || fail "no version in Cargo.toml's [workspace.package]"
revision=$(git rev-parse HEAD)
dirty=false
git diff --quiet HEAD -- 2>/dev/null || { dirty=true; revision="$revision-dirty"; }
if [ -n "${SOURCE_DATE_EPOCH:-}" ]; then
  epoch=$SOURCE_DATE_EPOCH
elif ! $dirty; then
  epoch=$(git show -s --format=%ct HEAD)
else
  epoch=$(date +%s)
fi
created=$(date -u -d "@$epoch" +%Y-%m-%dT%H:%M:%SZ)
source=${PARLANCE_IMAGE_SOURCE:-}
if [ -z "$source" ]; then
  origin=$(git remote get-url origin 2>/dev/null || true)
  case "$origin" in *://*) source=$origin ;; esac
fi
labels=(
  --label "org.opencontainers.image.title=parlance"
  --label "org.opencontainers.image.description=Paraphrase generation and character chat with WebAssembly plugins"
  --label "org.opencontainers.image.version=$version"
  --label "org.opencontainers.image.revision=$revision"
  --label "org.opencontainers.image.created=$created"
  --label "org.opencontainers.image.licenses=Apache-2.0"
)
if [ -n "$source" ]; then
  labels+=(--label "org.opencontainers.image.source=$source")
else
  say "no source label: set PARLANCE_IMAGE_SOURCE to the repository's URL (git has no remote 'origin' URL)"
fi

# The HEALTHCHECK runs the binary itself, since the image has no curl: `parlance health` asks the
# server's own /health.
health=()
if "$out/parlance" health --help >/dev/null 2>&1; then
  health=(--healthcheck "CMD /usr/local/bin/parlance health" --healthcheck-interval 30s
          --healthcheck-timeout 5s --healthcheck-start-period 60s --healthcheck-retries 3)
else
  say "no HEALTHCHECK: this binary has no 'parlance health' command to probe /health with"
fi

export BUILDAH_FORMAT=docker
say "building $tag"
ctr=$(buildah from scratch)
# Copied onto the container's mounted root, so that each file keeps the owner and mode staged for it
# (`buildah copy --chown` would also give the volumes' parent folders to their owner).
mnt=$(buildah mount "$ctr")
cp -a "$stage/root/." "$mnt/"
buildah umount "$ctr" >/dev/null
# The environment sets defaults only, never a setting an operator's parlance.toml would lose to:
# HOME for the ~/.api-* key files, XDG_CACHE_HOME for the compiled plugins' default folder
# (/var/cache/parlance/components).
buildah config \
  --os linux --arch amd64 \
  --user 65532:65532 \
  --workingdir /var/lib/parlance \
  --entrypoint '["/usr/local/bin/parlance"]' \
  --cmd '["--mode", "api"]' \
  --env PATH=/usr/local/bin \
  --env HOME=/var/lib/parlance \
  --env XDG_CACHE_HOME=/var/cache \
  --port 8000/tcp --port 5000/tcp \
  --volume /var/lib/parlance --volume /var/cache/parlance \
  --stop-signal SIGTERM \
  --created-by "scripts/image.sh" \
  "${health[@]}" \
  "${labels[@]}" \
  "$ctr"
previous=$(buildah inspect --type image --format '{{.FromImageID}}' "$tag" 2>/dev/null || true)
id=$(buildah commit --quiet --rm --timestamp "$epoch" "$ctr" "$tag")
ctr=
# The image this one replaces under the tag, now nameless, unless a container still uses it.
if [ -n "$previous" ] && [ "$previous" != "$id" ]; then
  buildah rmi "$previous" >/dev/null 2>&1 || true
fi

# The sizes: the layer as stored (an uncompressed tar), and as `buildah push` sends it to a registry
# (gzip), read from the manifest of a copy pushed to an OCI layout in a temporary folder.
buildah push --quiet "$tag" "oci:$stage/layout:image" >/dev/null
python3 - "$tag" "$id" "$out/image.json" "$stage/layout" "$out/parlance" "$binary" <<'PY'
import json, os, subprocess, sys

tag, image_id, report, layout, stripped, binary = sys.argv[1:]
inspect = json.loads(subprocess.run(["buildah", "inspect", "--type", "image", tag],
                                    check=True, capture_output=True, text=True).stdout)
stored = json.loads(inspect["Manifest"])
blob = lambda digest: os.path.join(layout, "blobs", *digest.split(":"))
index = json.load(open(os.path.join(layout, "index.json")))
pushed = json.load(open(blob(index["manifests"][0]["digest"])))
config = inspect["Docker"]["config"]
sizes = {
    "uncompressed": sum(layer["size"] for layer in stored["layers"]),
    "compressed": sum(layer["size"] for layer in pushed["layers"]),
    "compression": sorted({layer["mediaType"] for layer in pushed["layers"]}),
    "binary": os.path.getsize(binary),
    "binary_stripped": os.path.getsize(stripped),
}
json.dump({"name": tag, "id": image_id, "labels": config.get("Labels", {}),
           "healthcheck": config.get("Healthcheck"), "sizes": sizes}, open(report, "w"), indent=2)
mb = lambda n: f"{n / 1e6:.1f} MB"
print(f"[image] {tag} ({image_id[:12]}): {mb(sizes['uncompressed'])} uncompressed, "
      f"{mb(sizes['compressed'])} compressed as pushed; the binary {mb(sizes['binary_stripped'])} stripped "
      f"({mb(sizes['binary'])} as built)", file=sys.stderr)
PY
