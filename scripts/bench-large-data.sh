#!/usr/bin/env bash
# The dataset of `make bench-large`, made once into DIR (default .build/bench-large/data) and
# kept: GSHHG 2.3.7 at full resolution from Debian's gmt-gshhg-full (all shorelines, all
# rivers, all borders, as lines; `gmt coast -Df -M`, then ogr2ogr into one GeoPackage with its
# R-tree), 300,000 named points made from a fixed seed (GeoJSON, and in the GeoPackage), the
# first 5,000 and 20,000 of them, and a 1/10 sample of everything (every tenth feature) for the
# memory comparison. Prints the dataset's size: features, vertices, bytes.
# Usage: scripts/bench-large-data.sh [DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-.build/bench-large/data}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)

if [ ! -f "$dir/complete" ]; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  # GMT keeps a gmt.history in its working folder: run it in the temporary one.
  (cd "$tmp" && gmt coast -Rd -Df -W -M | gmt convert -a+gLINE -fg > shorelines.gmt)
  (cd "$tmp" && gmt coast -Rd -Df -Ia -M | gmt convert -a+gLINE -fg > rivers.gmt)
  (cd "$tmp" && gmt coast -Rd -Df -Na -M | gmt convert -a+gLINE -fg > borders.gmt)
  # Named points: syllable names (so labels have real widths), positions between 60 S and
  # 75 N, a population that orders them; one fixed seed, so every run renders the same map.
  /usr/bin/python3 - "$tmp" <<'PY'
import json, random, sys
tmp = sys.argv[1]
rng = random.Random(13)
syllables = ["ka", "lo", "mi", "ra", "sen", "tor", "vil", "ber", "gan", "dor", "el", "ost", "na", "pre", "qua", "wen"]
features = []
for i in range(300_000):
    name = "".join(rng.choice(syllables) for _ in range(rng.randint(2, 4))).capitalize()
    lon = round(rng.uniform(-180, 180), 5)
    lat = round(rng.uniform(-60, 75), 5)
    population = int(10 ** rng.uniform(2, 7))
    features.append({"type": "Feature", "properties": {"name": name, "population": population},
                     "geometry": {"type": "Point", "coordinates": [lon, lat]}})
for n in (5_000, 20_000, 300_000):
    with open(f"{tmp}/places-{n // 1000}k.geojson", "w") as out:
        json.dump({"type": "FeatureCollection", "features": features[:n]}, out, separators=(",", ":"))
PY
  gpkg="$tmp/gshhg-full.gpkg"
  for layer in shorelines rivers borders; do
    ogr2ogr -f GPKG -update -append -nln "$layer" -nlt LINESTRING "$gpkg" "$tmp/$layer.gmt"
  done
  ogr2ogr -f GPKG -update -append -nln places "$gpkg" "$tmp/places-300k.geojson"
  sample="$tmp/gshhg-sample.gpkg"
  for layer in shorelines rivers borders places; do
    ogr2ogr -f GPKG -update -append -nln "$layer" -where "fid % 10 = 0" "$sample" "$gpkg" "$layer"
  done
  mv "$tmp"/*.gpkg "$tmp"/places-*.geojson "$dir"/
  touch "$dir/complete"
fi

# The dataset's size, from the GeoPackage (sqlite3 counts points of each line from its WKB
# through OGR's SQL: ST_NumPoints).
for db in gshhg-full gshhg-sample; do
  echo "$db.gpkg: $(du -b "$dir/$db.gpkg" | cut -f1) bytes"
  for layer in shorelines rivers borders places; do
    ogrinfo -q -dialect SQLite -sql \
      "SELECT COUNT(*) AS features, SUM(CASE WHEN ST_NumPoints(geom) IS NULL THEN 1 ELSE ST_NumPoints(geom) END) AS vertices FROM $layer" \
      "$dir/$db.gpkg" | awk -v l="$layer" '/features \(/ { f = $NF } /vertices \(/ { v = $NF } END { printf "  %-10s %10s features %12s vertices\n", l, f, v }'
  done
done
for n in 5 20 300; do echo "places-${n}k.geojson: $(du -b "$dir/places-${n}k.geojson" | cut -f1) bytes"; done
