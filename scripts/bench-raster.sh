#!/usr/bin/env bash
# The raster part of `make bench`: one GeoTIFF of 20,000 x 20,000 pixels (RGB, 512 px tiles,
# DEFLATE, overviews; generated once with GDAL and cached under .build/bench-raster) pyramided
# by Meridian and by `gdal2tiles.py --xyz --processes N` with the same N, in one run. Prints
# tiles per second, CPU seconds (user + system, which the machine's load disturbs less than
# wall-clock time), output bytes and peak RSS for both, and checks the targets: at least 3x
# gdal2tiles's tiles per second, output no larger, peak RSS under 500 MB.
# Usage: scripts/bench-raster.sh [MERIDIAN_BINARY]   (ZOOMS=0-13 by default; WORKERS=nproc)
set -euo pipefail
cd "$(dirname "$0")/.."
meridian=${1:-.build/release/meridian}
zooms=${ZOOMS:-0-13}
workers=${WORKERS:-$(nproc)}
cache=.build/bench-raster
raster=$cache/terrain-20000.tif
timer=/usr/bin/time

if [ ! -f "$raster" ]; then
  mkdir -p "$cache"
  echo "bench-raster: generating $raster (once; cached)"
  # Debian's GDAL Python (python3-gdal, with numpy): smooth terrain colours with fine texture,
  # so PNG tiles compress as real imagery does, not as flat colour.
  /usr/bin/python3 - "$raster.tmp" <<'PY'
import sys
import numpy as np
from osgeo import gdal, osr
size, block = 20000, 1000
gdal.UseExceptions()
ds = gdal.GetDriverByName("GTiff").Create(
    sys.argv[1], size, size, 3, gdal.GDT_Byte,
    ["TILED=YES", "BLOCKXSIZE=512", "BLOCKYSIZE=512", "COMPRESS=DEFLATE", "PREDICTOR=2", "BIGTIFF=IF_SAFER"])
# 10 m pixels in Web Mercator over the Alps.
ds.SetGeoTransform([650000.0, 10.0, 0.0, 5900000.0, 0.0, -10.0])
srs = osr.SpatialReference()
srs.ImportFromEPSG(3857)
ds.SetProjection(srs.ExportToWkt())
rng = np.random.default_rng(14)
for y0 in range(0, size, block):
    y = np.arange(y0, y0 + block)[:, None] / size
    x = np.arange(size)[None, :] / size
    h = np.sin(x * 23.0 + np.cos(y * 17.0) * 3) * np.cos(y * 19.0 - x * 5) + 0.5 * np.sin((x + y) * 61.0)
    noise = rng.integers(0, 6, size=(block, size))
    bands = [110 + h * 60 + noise, 120 + h * 45 - noise, 90 - h * 40 + noise]
    for i, b in enumerate(bands):
        ds.GetRasterBand(i + 1).WriteArray(np.clip(b, 0, 255).astype(np.uint8), 0, y0)
ds.BuildOverviews("AVERAGE", [2, 4, 8, 16, 32, 64, 128])
ds = None
PY
  mv "$raster.tmp" "$raster"
fi
[ -z "${GENERATE_ONLY:-}" ] || exit 0

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cat > "$scratch/map.json" <<JSON
{"name": "terrain", "background": "transparent", "layers": [{"name": "terrain", "raster": "$(pwd)/$raster"}]}
JSON

# run NAME COMMAND...: under GNU time; sets SECONDS_TAKEN, CPU_SECONDS and PEAK_KB.
run() {
  local name=$1; shift
  "$timer" -f "%e %M %U %S" -o "$scratch/$name.time" "$@" > "$scratch/$name.out" 2>&1 || { cat "$scratch/$name.out" >&2; exit 1; }
  local user system
  read -r SECONDS_TAKEN PEAK_KB user system < "$scratch/$name.time"
  CPU_SECONDS=$(awk -v u="$user" -v s="$system" 'BEGIN { printf "%.1f", u + s }')
}
count() { find "$1" -name '*.png' | wc -l; }
bytes_of() { find "$1" -name '*.png' -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }'; }
verdict() { if awk "BEGIN { exit !($1) }"; then echo "met"; else echo "NOT met"; fi; }

# gdal2tiles wants the bounding box of the raster in degrees for Meridian's --bbox.
bbox=$(gdalinfo -json "$raster" | /usr/bin/python3 -c '
import json, sys
c = json.load(sys.stdin)["wgs84Extent"]["coordinates"][0]
xs = [p[0] for p in c]; ys = [p[1] for p in c]
print(f"{min(xs)},{min(ys)},{max(xs)},{max(ys)}")')

echo
echo "== raster pyramid: 20000 x 20000 RGB GeoTIFF with overviews, zoom $zooms, $workers workers"
run meridian "$meridian" tiles "$scratch/map.json" --zoom "$zooms" --bbox "$bbox" --workers "$workers" \
  -o "$scratch/meridian" --quiet
m_s=$SECONDS_TAKEN m_cpu=$CPU_SECONDS m_kb=$PEAK_KB m_tiles=$(count "$scratch/meridian") m_bytes=$(bytes_of "$scratch/meridian")
run gdal2tiles gdal2tiles.py --xyz -r bilinear -z "$zooms" -w none --processes "$workers" -q "$raster" "$scratch/gdal2tiles"
g_s=$SECONDS_TAKEN g_cpu=$CPU_SECONDS g_kb=$PEAK_KB g_tiles=$(count "$scratch/gdal2tiles") g_bytes=$(bytes_of "$scratch/gdal2tiles")
m_rate=$(awk -v t="$m_tiles" -v s="$m_s" 'BEGIN { printf "%.1f", t / s }')
g_rate=$(awk -v t="$g_tiles" -v s="$g_s" 'BEGIN { printf "%.1f", t / s }')
speed=$(awk -v a="$m_rate" -v b="$g_rate" 'BEGIN { printf "%.2f", a / b }')
printf "  %-12s %7s tiles %9s tiles/s %8.1f s %8.1f CPU s %12s bytes %5s MB peak RSS\n" meridian "$m_tiles" "$m_rate" "$m_s" "$m_cpu" "$m_bytes" $((m_kb / 1024))
printf "  %-12s %7s tiles %9s tiles/s %8.1f s %8.1f CPU s %12s bytes %5s MB peak RSS (largest process)\n" gdal2tiles "$g_tiles" "$g_rate" "$g_s" "$g_cpu" "$g_bytes" $((g_kb / 1024))
cpu_speed=$(awk -v mt="$m_tiles" -v mc="$m_cpu" -v gt="$g_tiles" -v gc="$g_cpu" 'BEGIN { printf "%.2f", (mt / mc) / (gt / gc) }')
echo "  speed: meridian / gdal2tiles = ${speed}x (target >= 3: $(verdict "$speed >= 3")); per CPU second ${cpu_speed}x (load average $(cut -d' ' -f1-3 /proc/loadavg))"
echo "  output: $(verdict "$m_bytes <= $g_bytes") (target: no larger than gdal2tiles's)"
echo "  peak RSS: $((m_kb / 1024)) MB (target < 500 MB: $(verdict "$m_kb < 512000"))"
awk "BEGIN { exit !($speed >= 3 && $m_bytes <= $g_bytes && $m_kb < 512000) }"
