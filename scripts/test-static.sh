#!/usr/bin/env bash
# `make test-static`: the static binary (make static) runs on Debian 12 without the Swift
# toolchain. Checks that `ldd` finds every library it needs and that none is Swift's, then runs
# it with an empty environment and PATH=/usr/bin:/bin (no /opt/swift, no LD_LIBRARY_PATH):
# `--version`, a render, a tile job whose tiles must equal, byte for byte, those of the debug
# build (which the Swift toolchain runs), and a render that loads GDAL and PROJ, which are
# opened on first use and so not on ldd's list. Removes what it writes.
# Usage: scripts/test-static.sh STATIC_BINARY [REFERENCE_BINARY]
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
static=${1:?give the static binary}
reference=${2:-$root/.build/debug/meridian}
case "$static" in /*) ;; *) static="$root/$static" ;; esac
[ -x "$reference" ] || swift build --product meridian

scratch=$(mktemp -d /tmp/meridian-static.XXXXXX)
trap 'rm -rf "$scratch"' EXIT

libraries=$(ldd "$static")
if grep -q "not found" <<<"$libraries"; then
  echo "test-static: ldd finds no library for:"; grep "not found" <<<"$libraries"; exit 1
fi
if grep -qi "libswift\|libFoundation\|/opt/swift" <<<"$libraries"; then
  echo "test-static: the binary still needs the Swift toolchain:"; grep -i "swift\|Foundation" <<<"$libraries"; exit 1
fi

hidden() { env -i PATH=/usr/bin:/bin HOME="$scratch" "$static" "$@"; }
version=$(hidden --version)
[[ "$version" == "meridian "* ]] || { echo "test-static: --version printed '$version'"; exit 1; }
hidden render Fixtures/maps/nyc.json --bbox -74.26,40.49,-73.69,40.92 --size 320x260 -o "$scratch/nyc.png"
[ -s "$scratch/nyc.png" ] || { echo "test-static: render wrote nothing"; exit 1; }
hidden tiles Fixtures/maps/world.json --zoom 0-3 -o "$scratch/static" --quiet
"$reference" tiles Fixtures/maps/world.json --zoom 0-3 -o "$scratch/reference" --quiet
diff -r "$scratch/static" "$scratch/reference" >/dev/null || {
  echo "test-static: the static binary's tiles differ from the debug build's"; exit 1; }
# A CSV (read by GDAL) in the New York state plane (converted by PROJ): City Hall.
printf 'name,x,y\nCity Hall,982000,198000\n' > "$scratch/places.csv"
printf '{"layers": [{"name": "places", "source": "places.csv", "srs": "EPSG:2263", %s}]}\n' \
  '"marker": {"shape": "circle", "size": 8, "fill": "#d62728"}' > "$scratch/places.json"
hidden render "$scratch/places.json" --bbox -74.05,40.68,-73.95,40.74 --size 100x60 -o "$scratch/places.png"
[ -s "$scratch/places.png" ] || { echo "test-static: the render through GDAL and PROJ wrote nothing"; exit 1; }
echo "test-static: $version runs without the Swift toolchain ($(grep -c '=>' <<<"$libraries") shared libraries, none of Swift's)"
