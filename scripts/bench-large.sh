#!/usr/bin/env bash
# `make bench-large` (issue 13; not part of `make test`): real data at real scale, Meridian
# beside Mapnik on the same data and style, same workers, 8x8 metatiles, 256 px tiles.
#  1. GSHHG 2.3.7 full resolution (all shorelines, rivers and borders) and 300,000 named
#     points, from one GeoPackage (Mapnik reads it through its OGR input), zoom 0-8.
#     Targets: at least 2 times Mapnik's tiles/s, output no larger, peak RSS under 1 GB.
#  2. Memory: the same map from a 1/10 sample of the dataset (every tenth feature).
#     Target: the whole at most 1.25 times the sample's peak RSS.
#  3. Labelled points alone (GeoJSON): 5,000, 20,000 and 300,000 at zoom 0-2 (issue 13's
#     first table) and 300,000 at zoom 0-6. Target: 300,000 at zoom 0-6 faster than Mapnik.
# The dataset is made once (scripts/bench-large-data.sh) and kept in .build/bench-large.
# Wall-clock rates depend on what else runs: the load average is printed with them.
# Usage: scripts/bench-large.sh [MERIDIAN_BINARY]
# A shorter run (the targets are for the whole one): BENCH_LARGE_ZOOM=4 (the deepest zoom of
# part 1), BENCH_LARGE_LABELS="5:2 20:2" (points in thousands : deepest zoom, for part 3);
# BENCH_LARGE_DATA=DIR keeps the dataset elsewhere.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
meridian=${1:-.build/release/meridian}
maxzoom=${BENCH_LARGE_ZOOM:-8}

bash scripts/install-deps.sh gmt gmt-gshhg-full python3-mapnik time
[ -x "$meridian" ] || swift build -c release --product meridian
data=${BENCH_LARGE_DATA:-$root/.build/bench-large/data}
bash scripts/bench-large-data.sh "$data"

workers=$(nproc)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
status=0

# The style, twice: Meridian's map document and Mapnik's XML. Widths: Mapnik's pixels are
# Meridian's points at the OGC pixel (1 pt = 1.26 px at 90.7 dpi), as in world-mapnik.json.
places_layer() { # SOURCE [LAYER]
  local layer=""
  [ -n "${2:-}" ] && layer=", \"layer\": \"$2\""
  cat <<EOF
    {
      "name": "places", "source": "$1"$layer, "scalesSymbols": false,
      "marker": { "shape": "circle", "size": 3.175, "fill": "#d62728", "outline": { "color": "#ffffff", "width": 0.794 } },
      "label": { "attribute": "name", "font": "DejaVu Sans", "size": 8.731, "color": "#222222",
                 "halo": { "color": "#ffffff", "width": 1.191 }, "offset": [0, -6.35] }
    }
EOF
}
meridian_map() { # GPKG (the whole map) or GEOJSON (the places alone)
  echo "{ \"name\": \"bench-large\", \"background\": \"#b5d0d0\", \"fonts\": [\"$root/Fixtures/fonts\"], \"systemFonts\": false, \"layers\": ["
  if [[ $1 == *.gpkg ]]; then
    cat <<EOF
    { "name": "shorelines", "source": "$1", "layer": "shorelines", "scalesSymbols": false, "line": { "color": "#4a6f8a", "width": 0.635 } },
    { "name": "rivers", "source": "$1", "layer": "rivers", "scalesSymbols": false, "line": { "color": "#6a9fd4", "width": 0.397 } },
    { "name": "borders", "source": "$1", "layer": "borders", "scalesSymbols": false, "line": { "color": "#8a6a8a", "width": 0.476 } },
EOF
    places_layer "$1" places
  else
    places_layer "$1"
  fi
  echo "] }"
}
mapnik_datasource() { # FILE [LAYER]
  if [ -n "${2:-}" ]; then
    echo "<Datasource><Parameter name=\"type\">ogr</Parameter><Parameter name=\"file\">$1</Parameter><Parameter name=\"layer\">$2</Parameter></Datasource>"
  else
    echo "<Datasource><Parameter name=\"type\">geojson</Parameter><Parameter name=\"file\">$1</Parameter></Datasource>"
  fi
}
mapnik_map() { # GPKG or GEOJSON, as meridian_map
  echo '<Map srs="epsg:3857" background-color="#b5d0d0">'
  echo '<Style name="shorelines"><Rule><LineSymbolizer stroke="#4a6f8a" stroke-width="0.8"/></Rule></Style>'
  echo '<Style name="rivers"><Rule><LineSymbolizer stroke="#6a9fd4" stroke-width="0.5"/></Rule></Style>'
  echo '<Style name="borders"><Rule><LineSymbolizer stroke="#8a6a8a" stroke-width="0.6"/></Rule></Style>'
  echo '<Style name="places"><Rule><MarkersSymbolizer fill="#d62728" stroke="#ffffff" stroke-width="1" width="4" height="4" allow-overlap="true"/>'
  echo '<TextSymbolizer face-name="DejaVu Sans Book" size="11" fill="#222222" halo-fill="#ffffff" halo-radius="1.5" dy="-8">[name]</TextSymbolizer></Rule></Style>'
  if [[ $1 == *.gpkg ]]; then
    for layer in shorelines rivers borders places; do
      echo "<Layer name=\"$layer\" srs=\"epsg:4326\"><StyleName>$layer</StyleName>$(mapnik_datasource "$1" "$layer")</Layer>"
    done
  else
    echo "<Layer name=\"places\" srs=\"epsg:4326\"><StyleName>places</StyleName>$(mapnik_datasource "$1")</Layer>"
  fi
  echo '</Map>'
}

# run NAME COMMAND...: runs it under GNU time; sets SECONDS_TAKEN, CPU_SECONDS (user and
# system, children included: Mapnik's worker processes) and PEAK_KB. On a shared machine the
# CPU seconds compare better than the wall clock.
run() {
  local name=$1; shift
  /usr/bin/time -f "%e %M %U %S" -o "$scratch/$name.time" "$@" > "$scratch/$name.out" 2>&1 || { cat "$scratch/$name.out" >&2; exit 1; }
  local user system
  read -r SECONDS_TAKEN PEAK_KB user system < "$scratch/$name.time"
  CPU_SECONDS=$(awk -v u="$user" -v s="$system" 'BEGIN { printf "%.1f", u + s }')
}
tiles_in() { echo $(( (4 ** ($1 + 1) - 1) / 3 )); }
bytes_of() { du -sb "$1" | cut -f1; }
rate() { awk -v t="$1" -v s="$2" 'BEGIN { printf "%.0f", t / s }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
mb() { awk -v k="$1" 'BEGIN { printf "%.0f", k / 1024 }'; }
check() {
  local verdict
  if awk "BEGIN { exit !($2) }"; then verdict="met"; else verdict="NOT met"; status=1; fi
  echo "  $1: $verdict"
}
# side NAME MAP_INPUT MAXZOOM: Meridian then Mapnik on the same input; sets M_* and K_*.
side() {
  local name=$1 input=$2 max=$3
  meridian_map "$input" > "$scratch/$name.json"
  mapnik_map "$input" > "$scratch/$name.xml"
  run "$name-meridian" "$meridian" tiles "$scratch/$name.json" --zoom "0-$max" --workers "$workers" --metatile 8 \
    -o "$scratch/$name-meridian" --quiet
  M_S=$SECONDS_TAKEN M_CPU=$CPU_SECONDS M_KB=$PEAK_KB M_BYTES=$(bytes_of "$scratch/$name-meridian")
  rm -rf "$scratch/$name-meridian"
  run "$name-mapnik" /usr/bin/python3 scripts/mapnik-large.py "$scratch/$name.xml" "$scratch/$name-mapnik" 0 "$max" "$workers" 8
  K_S=$SECONDS_TAKEN K_CPU=$CPU_SECONDS K_KB=$PEAK_KB K_BYTES=$(bytes_of "$scratch/$name-mapnik")
  rm -rf "$scratch/$name-mapnik"
  local tiles
  tiles=$(tiles_in "$max")
  printf "  %-8s %8s tiles/s %8.2f s %8s CPU s %12s bytes %6s MB peak RSS\n" meridian "$(rate "$tiles" "$M_S")" "$M_S" \
    "$M_CPU" "$M_BYTES" "$(mb "$M_KB")"
  printf "  %-8s %8s tiles/s %8.2f s %8s CPU s %12s bytes %6s MB peak RSS (largest process)\n" mapnik \
    "$(rate "$tiles" "$K_S")" "$K_S" "$K_CPU" "$K_BYTES" "$(mb "$K_KB")"
}

echo
echo "== GSHHG full resolution + 300,000 places, zoom 0-$maxzoom ($(tiles_in "$maxzoom") tiles), $workers workers, 8x8 metatiles"
echo "   (load average before: $(cut -d' ' -f1-3 /proc/loadavg))"
side large "$data/gshhg-full.gpkg" "$maxzoom"
echo "   (load average after: $(cut -d' ' -f1-3 /proc/loadavg))"
large_ratio=$(ratio "$K_S" "$M_S")
large_cpu_ratio=$(ratio "$K_CPU" "$M_CPU")
echo "  per CPU second: meridian / mapnik = ${large_cpu_ratio}x"
check "meridian / mapnik tiles/s = ${large_ratio}x (target >= 2)" "$large_ratio >= 2"
check "output: meridian $M_BYTES bytes, mapnik $K_BYTES (target: no larger)" "$M_BYTES <= $K_BYTES"
check "peak RSS: meridian $(mb "$M_KB") MB (target < 1024 MB)" "$M_KB < 1048576"
large_row="| GSHHG full + 300k places, zoom 0-$maxzoom | $(rate "$(tiles_in "$maxzoom")" "$M_S") tiles/s, $M_CPU CPU s | $(rate "$(tiles_in "$maxzoom")" "$K_S") tiles/s, $K_CPU CPU s | ${large_ratio}x (CPU ${large_cpu_ratio}x) | $M_BYTES / $K_BYTES | $(mb "$M_KB") MB |"

echo
echo "== memory: the same map from a 1/10 sample of the dataset (every tenth feature), zoom 0-$maxzoom"
rss_full=$M_KB
meridian_map "$data/gshhg-sample.gpkg" > "$scratch/sample.json"
run sample "$meridian" tiles "$scratch/sample.json" --zoom "0-$maxzoom" --workers "$workers" --metatile 8 \
  -o "$scratch/sample" --quiet
rm -rf "$scratch/sample"
rss_sample=$PEAK_KB
printf "  whole   %6s MB peak RSS\n  sample  %6s MB peak RSS %8.2f s\n" "$(mb "$rss_full")" "$(mb "$rss_sample")" "$SECONDS_TAKEN"
check "whole / sample peak RSS = $(ratio "$rss_full" "$rss_sample") (target <= 1.25)" "$rss_full <= 1.25 * $rss_sample"

echo
echo "== labelled points alone (GeoJSON), $workers workers, 8x8 metatiles"
label_table="| labelled points | zoom | Meridian | Mapnik | Meridian peak RSS |
|---|---|---|---|---|"
for case in ${BENCH_LARGE_LABELS:-5:2 20:2 300:2 300:6}; do
  n=${case%:*} max=${case#*:}
  echo "${n}k points, zoom 0-$max:"
  side "places$n-$max" "$data/places-${n}k.geojson" "$max"
  label_table+="
| $n,000 | 0-$max | $M_S s, $M_CPU CPU s | $K_S s, $K_CPU CPU s | $(mb "$M_KB") MB |"
done
if [ "$case" = 300:6 ]; then
  check "300,000 points at zoom 0-6: meridian ${M_S} s, mapnik ${K_S} s (target: faster)" "$M_S < $K_S"
else
  echo "  300,000 points at zoom 0-6: not run (BENCH_LARGE_LABELS=${BENCH_LARGE_LABELS:-})"
  status=1
fi

echo
echo "== the tables (issue 13), this run, $workers workers, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| data | Meridian | Mapnik | Meridian / Mapnik | bytes (Meridian / Mapnik) | Meridian peak RSS |"
echo "|---|---|---|---|---|---|"
echo "$large_row"
echo
echo "$label_table"
echo
echo "memory: zoom 0-$maxzoom, whole $(mb "$rss_full") MB, 1/10 sample $(mb "$rss_sample") MB"
exit $status
