#!/usr/bin/env bash
# `make bench`: micro-benchmarks, then the tile pyramid side by side with Mapnik.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product meridian-bench
.build/release/meridian-bench
