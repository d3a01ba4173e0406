#!/usr/bin/env bash
# libFuzzer runs of the input parsers (sources in Fuzz/, limits in docs/limits.md).
#
#   scripts/fuzz.sh [SECONDS] [TARGET ...]     targets: json map geojson png (default: all)
#
# Runs each target for SECONDS (default $FUZZ_SECONDS, else 60), one after the other, and
# exits non-zero at the first crash, hang (an input taking over 10 s) or out-of-memory
# (over 2 GB). The reproducer is left in .build/fuzz/crashes/; fix the parser, then copy
# the reproducer into Fuzz/seeds/TARGET/ so that every later run (and `make test`) tries it.
#
# How it is built: SwiftPM cannot link an executable with -sanitize=fuzzer (libFuzzer brings
# its own main), so SwiftPM builds the modules' objects with coverage instrumentation
# (--sanitize fuzzer, plus address) in their own build folder, and swiftc links each target
# file with those objects. Raster imports libwebp and libturbojpeg: their module maps and libraries
# go on that line too.
#
# FUZZ_STEP=build only builds the targets (scripts/test.sh builds them beside the test suite);
# FUZZ_STEP=run only runs them, built by an earlier build step; unset, it does both.
set -euo pipefail
# libFuzzer handles crashes itself; the Swift runtime's backtracer would hold the output open.
export SWIFT_BACKTRACE=enable=no
cd "$(dirname "$0")/.."

seconds=${1:-${FUZZ_SECONDS:-60}}
[[ $# -gt 0 ]] && shift
targets=("$@")
[[ ${#targets[@]} -eq 0 ]] && targets=(json map geojson png)

build=.build/fuzz
release=$build/release
# swiftc keeps only the last -sanitize= it is given, and SwiftPM gives fuzzer then address (no
# coverage, so libFuzzer would be blind): the combined flag comes last. C gets both from SwiftPM.
swift_build=(swift build -c release --build-path "$build" --sanitize fuzzer --sanitize address
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -enable-testing)

# Target name -> source file, and the largest input libFuzzer makes (the seeds fit).
declare -A source=([json]=JSONParserFuzz [map]=MapDocumentFuzz [geojson]=GeoJSONFuzz [png]=PNGDecoderFuzz)
declare -A max_len=([json]=16384 [map]=16384 [geojson]=65536 [png]=16384)
# Dictionaries: JSON tokens, plus the keys of the format for map documents and GeoJSON.
declare -A dictionaries=([json]=json [map]="json map" [geojson]="json geojson" [png]=png)

for target in "${targets[@]}"; do
    [[ -n ${source[$target]:-} ]] || { echo "fuzz.sh: unknown target '$target' (json, map, geojson, png)" >&2; exit 2; }
done

step=${FUZZ_STEP:-all}
case $step in
    all | build | run) ;;
    *) echo "fuzz.sh: FUZZ_STEP must be build or run, not '$step'" >&2; exit 2 ;;
esac

mkdir -p "$build/logs" "$build/bin" "$build/crashes"
if [[ $step != run ]]; then
    echo "fuzz: building instrumented modules in $build" >&2
    for module in MapModel Raster; do
        "${swift_build[@]}" --target "$module" > "$build/logs/build.log" 2>&1 || { cat "$build/logs/build.log" >&2; exit 1; }
    done
    objects=()
    for module in Geodesy FileInput MapModel CPNGCodec Raster; do objects+=("$release/$module.build"/*.o); done
    for target in "${targets[@]}"; do
        swiftc -O -parse-as-library -sanitize=fuzzer,address -use-ld=lld \
            -I "$release/Modules" -Xcc -fmodule-map-file="$release/CPNGCodec.build/module.modulemap" \
            -Xcc -fmodule-map-file=Sources/CWebP/module.modulemap \
            -Xcc -fmodule-map-file=Sources/CTurboJPEG/module.modulemap \
            -Xcc -fmodule-map-file=Sources/CDeflate/module.modulemap \
            -Xcc -fmodule-map-file=Sources/CPrefetch/module.modulemap \
            "Fuzz/${source[$target]}.swift" Fuzz/FuzzChecks.swift "${objects[@]}" -lpng -lz -lwebp -lturbojpeg -ldeflate \
            -o "$build/bin/fuzz-$target"
    done
fi
[[ $step == build ]] && exit 0

for target in "${targets[@]}"; do
    binary=$build/bin/fuzz-$target
    [[ -x $binary ]] || { echo "fuzz.sh: $binary is not built (FUZZ_STEP=build first)" >&2; exit 1; }

    # The working corpus grows from run to run; the seeds are read, never written.
    corpus=$build/corpus/$target
    seeds=$build/seeds/$target
    mkdir -p "$corpus"
    rm -rf "$seeds"
    mkdir -p "$seeds"
    python3 Fuzz/make-seeds.py "$target" "$seeds"
    dictionary=$build/$target.dict
    for name in ${dictionaries[$target]}; do cat "Fuzz/$name.dict"; done > "$dictionary"

    reproducers=()
    [[ -d Fuzz/seeds/$target ]] && reproducers=("Fuzz/seeds/$target")

    # libFuzzer's own report goes to a log; one summary line per target here, or on a
    # failure the end of the report (what failed, the reproducer's name).
    log=$build/logs/$target.log
    # Leak detection is off: the Swift runtime keeps metadata caches for the process's life.
    status=0
    "$binary" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len="${max_len[$target]}" \
        -dict="$dictionary" -detect_leaks=0 -print_final_stats=1 \
        -artifact_prefix="$build/crashes/$target-" "$corpus" "$seeds" "${reproducers[@]}" > "$log" 2>&1 || status=$?
    if [[ $status -ne 0 ]]; then
        { grep -v '^#\|^INFO' "$log" || true; } | tail -40 >&2
        echo "fuzz: $target FAILED (exit $status); full report: $log" >&2
        exit 1
    fi
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
    peak=$(sed -n 's/^stat::peak_rss_mb: *//p' "$log")
    files=$(find "$corpus" -type f | wc -l)
    echo "fuzz: $target: $runs runs in $seconds s ($rate/s), no crash; corpus $files inputs; peak $peak MB"
done
