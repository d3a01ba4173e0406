#!/usr/bin/env bash
# Remakes gshhg-rivers.geojson and gshhg-borders.geojson: Europe's major rivers and national
# borders from GSHHG 2.3.7 at intermediate resolution (Debian's gmt-gshhg), through GMT's
# OGR/GMT output and ogr2ogr. GSHHG rivers carry no names: the few a style labels get one
# where they pass near a city on their banks (positions below, in degrees).
set -euo pipefail
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
region=-12/42/34/62
# GMT keeps a gmt.history in its working folder: run it in the temporary one.
(cd "$tmp" && gmt coast -R$region -Di -I1 -M | gmt convert -a+gLINE -fg > rivers.gmt)
(cd "$tmp" && gmt coast -R$region -Di -N1 -M | gmt convert -a+gLINE -fg > borders.gmt)
for name in rivers borders; do
  ogr2ogr -f GeoJSON -lco COORDINATE_PRECISION=4 -lco RFC7946=YES -nln "$name" \
    -clipsrc -12 34 42 62 "$tmp/$name.json" "$tmp/$name.gmt"
done
python3 - "$tmp" <<'PY'
import json, math, sys
tmp = sys.argv[1]
# A city on the river's bank: (name, longitude, latitude).
banks = [
    ("Danube", 16.37, 48.21), ("Danube", 19.04, 47.50), ("Danube", 20.46, 44.82),
    ("Rhine", 6.96, 50.94), ("Rhine", 8.27, 50.00), ("Elbe", 13.74, 51.05), ("Elbe", 10.00, 53.55),
    ("Vistula", 21.01, 52.23), ("Oder", 14.55, 52.35), ("Loire", 1.90, 47.90), ("Rhône", 4.83, 45.76),
    ("Po", 9.69, 45.05), ("Dnieper", 30.52, 50.45), ("Daugava", 24.11, 56.95), ("Seine", 2.35, 48.86),
]
def near(coords, lon, lat):
    return min(math.hypot((x - lon) * math.cos(math.radians(lat)), y - lat) for x, y in coords) < 0.12
for name in ("rivers", "borders"):
    data = json.load(open(f"{tmp}/{name}.json"))
    features = []
    for f in data["features"]:
        g = f["geometry"]
        if g is None:
            continue
        f["properties"] = {}
        if name == "rivers":
            lines = [g["coordinates"]] if g["type"] == "LineString" else g["coordinates"]
            for river, lon, lat in banks:
                if any(near(line, lon, lat) for line in lines):
                    f["properties"]["name"] = river
        features.append(f)
    data = {"type": "FeatureCollection", "features": features}
    with open(f"gshhg-{name}.geojson", "w") as out:
        json.dump(data, out, separators=(",", ":"), ensure_ascii=False)
        out.write("\n")
    print(name, len(features), "features")
PY
