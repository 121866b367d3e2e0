# shellcheck shell=bash
# Sourced by the scripts that test a running server: builds `parlance` and sets $bin to it. The test
# suite uses the dev profile it has already built (dependencies optimised), which saves CI a release
# build; PARLANCE_PROFILE=release tests the release binary instead.
profile=${PARLANCE_PROFILE:-dev}
if [ "$profile" = dev ]; then
  # The very binary `cargo test --workspace` links: `cargo build -p parlance` would resolve the
  # dependencies' features for the host alone and compile and link the host a second time (half a
  # minute and half a gigabyte of CI's disk); after the tests this is a no-op.
  cargo test --quiet --workspace --no-run
  dir=debug
else
  cargo build --quiet --profile "$profile" -p parlance
  dir=$profile
fi
# $bin is what this file gives the scripts that source it, which read it.
# shellcheck disable=SC2034
bin="${CARGO_TARGET_DIR:-$PWD/target}/$dir/parlance"
