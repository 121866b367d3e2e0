#!/usr/bin/env bash
# Runs every fuzz target of fuzz/ (or those named) for FUZZ_SECONDS each (300 by default: on 2 cores
# the targets' coverage stops growing within a few minutes), one after another, and prints for each
# its executions, libFuzzer's last `cov:` and `ft:`, where in the run coverage last grew (as a share
# of the executions: a small share is a plateau) and its crashes.
#
#   bench/fuzz.sh                 every target, 300 s each
#   FUZZ_SECONDS=60 bench/fuzz.sh http framing
#   FUZZ_MERGE=1 bench/fuzz.sh    then merge what added coverage into fuzz/corpus/ (minimise it
#                                 afterwards with `cargo fuzz cmin TARGET`)
#
# cargo-fuzz (`cargo install cargo-fuzz --locked`) runs libFuzzer; on the stable toolchain its nightly
# flags need RUSTC_BOOTSTRAP=1, which this script sets. No sanitizer (`-s none`): the host is safe
# Rust, and ASan would halve the executions. The new inputs of a run go to fuzz/target/runs/TARGET;
# the committed corpus is read, never written, unless FUZZ_MERGE=1. A crash is left in
# fuzz/artifacts/TARGET/ and reported; the next target runs all the same.
set -uo pipefail
cd "$(dirname "$0")/../fuzz" || exit 2
export RUSTC_BOOTSTRAP=1
seconds=${FUZZ_SECONDS:-300}
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    for file in fuzz_targets/*.rs; do
        name=${file##*/}
        targets+=("${name%.rs}")
    done
fi
flags=(-s none --codegen-units 16)
if ! cargo fuzz --help >/dev/null 2>&1; then
    echo "cargo-fuzz is missing: cargo install cargo-fuzz --locked" >&2
    exit 2
fi
cargo fuzz build "${flags[@]}" "${targets[@]:0:1}" >/dev/null || { echo "the fuzz build failed" >&2; exit 2; }
[ ${#targets[@]} -gt 1 ] && { cargo fuzz build "${flags[@]}" >/dev/null || exit 2; }

dictionary() {
    case $1 in
        http) echo dict/http.dict ;;
        framing) echo dict/sse.dict ;;
        config) echo dict/toml.dict ;;
        json) echo dict/json.dict ;;
        dotenv) echo dict/env.dict ;;
        traceparent) echo dict/traceparent.dict ;;
    esac
}

mkdir -p target/logs
printf '%-14s %12s %8s %8s %8s %10s %8s  %s\n' target executions exec/s cov ft last-cov+ crashes load
status=0
for target in "${targets[@]}"; do
    work=target/runs/$target
    mkdir -p "$work" "artifacts/$target"
    before=$(find "artifacts/$target" -mindepth 1 -maxdepth 1 | wc -l)
    options=(-max_total_time="$seconds" -print_final_stats=1 -timeout=20 -rss_limit_mb=4096)
    dict=$(dictionary "$target")
    [ -n "$dict" ] && options+=(-dict="$dict")
    # A SQLite file and a stream of requests are larger than libFuzzer's default of 4 KiB.
    case $target in
        import) options+=(-max_len=65536) ;;
        http) options+=(-max_len=16384) ;;
    esac
    log=target/logs/$target.log
    cargo fuzz run "${flags[@]}" "$target" "$work" "corpus/$target" -- "${options[@]}" >"$log" 2>&1
    last=$(grep -E '^#[0-9]+' "$log" | grep 'cov:' | tail -1)
    cov=$(sed -nE 's/.* cov: ([0-9]+).*/\1/p' <<<"$last")
    ft=$(sed -nE 's/.* ft: ([0-9]+).*/\1/p' <<<"$last")
    execs=$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+).*/\1/p' "$log" | tail -1)
    execs=${execs:-$(sed -nE 's/^#([0-9]+).*/\1/p' <<<"$last")}
    rate=$(sed -nE 's/^stat::average_exec_per_sec: *([0-9]+).*/\1/p' "$log" | tail -1)
    # Where coverage last grew, as a share of the run's executions: a plateau is a late run with none.
    grew=$(grep -E '^#[0-9]+' "$log" | grep 'cov:' | awk '{c=$0; sub(/.* cov: /,"",c); sub(/ .*/,"",c); n=substr($1,2)+0; if (c+0>best) {best=c+0; at=n}} END {print at+0}')
    share=$(( ${execs:-0} > 0 ? 100 * ${grew:-0} / ${execs:-1} : 0 ))
    crashes=$(( $(find "artifacts/$target" -mindepth 1 -maxdepth 1 | wc -l) - before ))
    printf '%-14s %12s %8s %8s %8s %9s%% %8s  %s\n' "$target" "${execs:-?}" "${rate:-?}" "${cov:-?}" "${ft:-?}" "$share" "$crashes" \
        "$(cut -d' ' -f1-3 /proc/loadavg)"
    if [ "$crashes" -gt 0 ]; then
        status=1
        grep -E 'panicked at|SUMMARY|Test unit written' "$log" | head -5 | sed 's/^/    /'
    fi
    if [ "${FUZZ_MERGE:-0}" = 1 ]; then
        cargo fuzz run "${flags[@]}" "$target" "corpus/$target" "$work" -- -merge=1 >>"$log" 2>&1
    fi
done
exit $status
