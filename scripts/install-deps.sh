#!/usr/bin/env bash
# Installs the Debian packages Meridian needs, only those that are missing (`apt-get update`
# once, then one `apt-get install -y` for the lot), and the Python virtual environment of the
# PyPI tools the tests check against (Debian's Python refuses system-wide pip installs).
# Usage: scripts/install-deps.sh [EXTRA_DEBIAN_PACKAGE ...]   (make bench adds its own)
set -euo pipefail
cd "$(dirname "$0")/.."
# The loops below use `set --`, which replaces "$@": keep the caller's extra packages first.
extras=("$@")

# pkg-config module -> Debian package (build dependencies: one system-library module each)
libs=(
  "cairo libcairo2-dev"
  "pangoft2 libpango1.0-dev"
  "pangocairo libpango1.0-dev"
  "libpng libpng-dev"
  "sqlite3 libsqlite3-dev"
  "fontconfig libfontconfig-dev"
  "gdal libgdal-dev"
  "proj libproj-dev"
  "libwebp libwebp-dev"
  "libturbojpeg libturbojpeg0-dev"
  "libdeflate libdeflate-dev"
  "libxxhash libxxhash-dev"
  "libmicrohttpd libmicrohttpd-dev"
  "librsvg-2.0 librsvg2-dev"
)
# command -> Debian package (tests check against these independent references, or start them)
tools=(
  "pkg-config pkg-config"
  "GeoConvert geographiclib-tools"
  "pdftoppm poppler-utils"
  "sqlite3 sqlite3"
  "ogr2ogr gdal-bin"
  "gdal2tiles.py python3-gdal"
  "cs2cs proj-bin"
  "chromium chromium"
  "xxhsum xxhash"
  "dwebp webp"
  "djpeg libjpeg-turbo-progs"
)
# file -> Debian package (data and servers the tests use)
files=(
  "/usr/share/javascript/leaflet/leaflet.js libjs-leaflet"
  "/usr/lib/postgresql/15/bin/postgres postgresql-15"
  "/usr/share/postgresql/15/extension/postgis.control postgresql-15-postgis-3"
  "/usr/lib/python3.11/ensurepip/__init__.py python3-venv"
)
# Python module (of Debian's /usr/bin/python3) -> Debian package (independent references:
# pypng decodes PNGs in RasterTests and ImageDiffTests without libpng)
pymodules=(
  "png python3-png"
)

missing=()
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
for entry in "${libs[@]}"; do
  set -- $entry
  if ! command -v pkg-config >/dev/null 2>&1 || ! pkg-config --exists "$1"; then missing+=("$2"); fi
done
for entry in "${tools[@]}"; do
  set -- $entry
  command -v "$1" >/dev/null 2>&1 || missing+=("$2")
done
for entry in "${files[@]}"; do
  set -- $entry
  [ -e "$1" ] || missing+=("$2")
done
for entry in "${pymodules[@]}"; do
  set -- $entry
  /usr/bin/python3 -c "import $1" >/dev/null 2>&1 || missing+=("$2")
done
# Extra packages a caller asks for (make bench adds python3-mapnik, hyperfine).
for pkg in "${extras[@]}"; do
  dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done

if [ ${#missing[@]} -gt 0 ]; then
  mapfile -t missing < <(printf '%s\n' "${missing[@]}" | sort -u)
  echo "installing: ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -q
  $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# PyPI tools, in a virtual environment of Debian's Python: the `pmtiles` reader checks our
# PMTiles archives independently of our code.
venv=.build/venv
pypi=(pmtiles==3.8.1)
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import pmtiles" >/dev/null 2>&1; then
  echo "creating $venv: ${pypi[*]}"
  rm -rf "$venv"
  /usr/bin/python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check "${pypi[@]}"
fi
