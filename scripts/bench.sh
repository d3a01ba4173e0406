#!/usr/bin/env bash
# `make bench`: micro-benchmarks (meridian-bench), then the Natural Earth tile pyramid side by
# side with Mapnik: zoom 0-6 and 0-8, same data, same look (Fixtures/maps/world-mapnik.json
# matches ../shared/bench/mapnik_pyramid.py), same number of workers, 8x8 metatiles, in one run.
# Prints tiles per second for both and their ratio, output bytes and peak RSS, and checks the
# targets: at least twice Mapnik's tiles/s, output no larger, peak RSS under 200 MB, and
# memory flat as the pyramid grows (zoom 0-8 within a small constant of zoom 0-4).
# Usage: scripts/bench.sh [MERIDIAN_BINARY]
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
meridian=${1:-.build/release/meridian}
mapnik_script="$root/../shared/bench/mapnik_pyramid.py"

bash scripts/install-deps.sh python3-mapnik time
[ -x "$meridian" ] || swift build -c release --product meridian
swift build -c release --product meridian-bench
.build/release/meridian-bench

if [ ! -f "$mapnik_script" ]; then
  echo "bench: the Mapnik script is missing: expected $mapnik_script (../shared/bench/mapnik_pyramid.py beside the repository); no side-by-side run" >&2
  exit 1
fi

workers=$(nproc)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
timer=/usr/bin/time

# run NAME COMMAND...: runs it under GNU time; sets SECONDS_TAKEN and PEAK_KB.
run() {
  local name=$1; shift
  "$timer" -f "%e %M" -o "$scratch/$name.time" "$@" > "$scratch/$name.out" 2>&1 || { cat "$scratch/$name.out" >&2; exit 1; }
  read -r SECONDS_TAKEN PEAK_KB < "$scratch/$name.time"
}
bytes_of() { du -sb "$1" | cut -f1; }
rate() { awk -v t="$1" -v s="$2" 'BEGIN { printf "%.0f", t / s }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
mb() { awk -v k="$1" 'BEGIN { printf "%.0f", k / 1024 }'; }
verdict() { if awk "BEGIN { exit !($1) }"; then echo "met"; else echo "NOT met"; fi; }

echo
echo "== pyramid side by side: Natural Earth world, $workers workers, 8x8 metatiles, 256 px tiles"
echo "   (peak RSS: meridian is one process; Mapnik's figure is its largest process of $((workers + 1)))"
run m4 "$meridian" tiles Fixtures/maps/world-mapnik.json --zoom 0-4 --workers "$workers" -o "$scratch/m4" --quiet
rss4=$PEAK_KB
status=0
for zooms in 0-6 0-8; do
  max=${zooms#0-}
  tiles=$(( (4 ** (max + 1) - 1) / 3 ))
  run "meridian$max" "$meridian" tiles Fixtures/maps/world-mapnik.json --zoom "$zooms" --workers "$workers" --metatile 8 \
      -o "$scratch/meridian$max" --quiet
  m_s=$SECONDS_TAKEN m_kb=$PEAK_KB m_bytes=$(bytes_of "$scratch/meridian$max")
  run "mbtiles$max" "$meridian" tiles Fixtures/maps/world-mapnik.json --zoom "$zooms" --workers "$workers" --metatile 8 \
      -o "$scratch/meridian$max.mbtiles" --quiet
  t_s=$SECONDS_TAKEN t_kb=$PEAK_KB t_bytes=$(bytes_of "$scratch/meridian$max.mbtiles")
  run "mapnik$max" /usr/bin/python3 "$mapnik_script" Fixtures/data "$scratch/mapnik$max" 0 "$max" "$workers" 8
  k_s=$SECONDS_TAKEN k_kb=$PEAK_KB k_bytes=$(bytes_of "$scratch/mapnik$max")
  m_rate=$(rate "$tiles" "$m_s") t_rate=$(rate "$tiles" "$t_s") k_rate=$(rate "$tiles" "$k_s")
  echo
  echo "zoom $zooms ($tiles tiles)"
  printf "  %-24s %8s tiles/s %7.2f s %12s bytes %5s MB peak RSS\n" "meridian (directory)" "$m_rate" "$m_s" "$m_bytes" "$(mb "$m_kb")"
  printf "  %-24s %8s tiles/s %7.2f s %12s bytes %5s MB peak RSS\n" "meridian (MBTiles)" "$t_rate" "$t_s" "$t_bytes" "$(mb "$t_kb")"
  printf "  %-24s %8s tiles/s %7.2f s %12s bytes %5s MB peak RSS\n" "mapnik (directory)" "$k_rate" "$k_s" "$k_bytes" "$(mb "$k_kb")"
  speed=$(ratio "$k_s" "$m_s")
  echo "  speed: meridian / mapnik = ${speed}x (target >= 2: $(verdict "$speed >= 2"))"
  echo "  output: meridian $m_bytes bytes vs mapnik $k_bytes ($(ratio "$m_bytes" "$k_bytes")x; target <= 1: $(verdict "$m_bytes <= $k_bytes"))"
  echo "  peak RSS: $(mb "$m_kb") MB (target < 200 MB: $(verdict "$m_kb < 204800"))"
  awk "BEGIN { exit !($speed >= 2 && $m_bytes <= $k_bytes && $m_kb < 204800) }" || status=1
done
echo
growth=$(( (m_kb - rss4) / 1024 ))
echo "memory: peak RSS zoom 0-4 $(mb "$rss4") MB, zoom 0-8 $(mb "$m_kb") MB (growth $growth MB; target: a small constant, <= 64 MB: $(verdict "$growth <= 64"))"
[ "$growth" -le 64 ] || status=1

# Raster pyramids: Meridian against gdal2tiles on a 20,000 x 20,000 GeoTIFF (its own script).
bash scripts/bench-raster.sh "$meridian" || status=1
exit $status
