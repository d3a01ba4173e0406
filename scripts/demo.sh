#!/usr/bin/env bash
# `make demo`: renders Fixtures/maps/world.json to zoom 0-5 as a directory of z/x/y.png
# tiles and as an MBTiles file, then says where they are.
# Usage: scripts/demo.sh MERIDIAN_BINARY OUTPUT_DIR
set -euo pipefail
cd "$(dirname "$0")/.."
meridian=${1:-.build/release/meridian}
out=${2:-demo-output}
mkdir -p "$out"
echo "rendering Fixtures/maps/world.json, zoom 0-5 (1365 tiles), twice:"
"$meridian" tiles Fixtures/maps/world.json --zoom 0-5 -o "$out/world-tiles"
"$meridian" tiles Fixtures/maps/world.json --zoom 0-5 -o "$out/world.mbtiles"
dir=$(cd "$out" && pwd)
echo
echo "tiles (z/x/y.png):  $dir/world-tiles/   e.g. $dir/world-tiles/5/17/10.png"
echo "viewer page:        $dir/world-tiles/index.html   (open it in a browser)"
echo "MBTiles:            $dir/world.mbtiles"
echo "serve either one:   $meridian serve $out/world.mbtiles   (then open http://127.0.0.1:8080/)"
echo "check one against the other: $meridian diff $out/world-tiles $out/world.mbtiles"
