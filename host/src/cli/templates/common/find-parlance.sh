# The parlance binary: $PARLANCE, else the one that wrote this project, else `parlance` on the PATH.
wrote_this={{parlance}}
parlance="${PARLANCE:-$wrote_this}"
if [[ -z "${PARLANCE:-}" && ! ( -f "$parlance" && -x "$parlance" ) ]]; then
  if command -v parlance >/dev/null; then
    parlance=parlance
  else
    echo "test.sh: ${wrote_this:-the parlance binary that wrote this project} is gone and there is no parlance on the PATH; set PARLANCE=/path/to/parlance" >&2
    exit 1
  fi
fi
