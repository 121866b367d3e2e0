# shellcheck shell=bash
# Sourced by the scripts that test a running server: builds `parlance` and sets $bin to it. The test
# suite uses the dev profile it has already built (dependencies optimised), which saves CI a release
# build; PARLANCE_PROFILE=release tests the release binary instead.
profile=${PARLANCE_PROFILE:-dev}
cargo build --quiet --profile "$profile" -p parlance
if [ "$profile" = dev ]; then dir=debug; else dir=$profile; fi
# $bin is what this file gives the scripts that source it, which read it.
# shellcheck disable=SC2034
bin="${CARGO_TARGET_DIR:-$PWD/target}/$dir/parlance"
