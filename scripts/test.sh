#!/usr/bin/env bash
# The test phase of `make test`: the whole suite (built already by `swift build --build-tests`),
# then SECONDS of each fuzz target.
#
#   scripts/test.sh [SECONDS]
#
# The fuzz targets' instrumented build (an optimised build of the parsers' modules, about two
# CPU minutes) runs beside the suite, niced: the suite leaves part of a core idle while its
# tests wait on subprocesses, PostGIS and Chromium, and on 2 cores building after it would add
# those minutes to the wall time. A failure of either is reported; the fuzz runs come last.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-5}

mkdir -p .build
build_log=.build/fuzz-build.log
FUZZ_STEP=build nice -n 10 bash scripts/fuzz.sh "$seconds" > "$build_log" 2>&1 &
fuzz_build=$!
# Stopped with the suite (Ctrl-C, a CI timeout): the background build goes too.
trap 'kill "$fuzz_build" 2> /dev/null || true' EXIT

suite=0
swift test --skip-build || suite=$?
built=0
wait "$fuzz_build" || built=$?
trap - EXIT
if [[ $built -ne 0 ]]; then
    cat "$build_log" >&2
    echo "test.sh: the fuzz targets' build failed (exit $built)" >&2
    exit 1
fi
[[ $suite -eq 0 ]] || exit "$suite"
FUZZ_STEP=run bash scripts/fuzz.sh "$seconds"
