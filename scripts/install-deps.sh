#!/usr/bin/env bash
# Installs the Debian packages Meridian needs, only those that are missing:
# `apt-get update` once, then one `apt-get install -y` for the lot.
set -euo pipefail
# The loops below use `set --`, which replaces "$@": keep the caller's extra packages first.
extras=("$@")

# pkg-config module -> Debian package (build dependencies)
libs=(
  "cairo libcairo2-dev"
  "pangoft2 libpango1.0-dev"
  "pangocairo libpango1.0-dev"
  "libpng libpng-dev"
  "sqlite3 libsqlite3-dev"
  "fontconfig libfontconfig-dev"
)
# command -> Debian package (tests check against these independent references)
tools=(
  "pkg-config pkg-config"
  "GeoConvert geographiclib-tools"
  "pdftoppm poppler-utils"
  "sqlite3 sqlite3"
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
for entry in "${pymodules[@]}"; do
  set -- $entry
  /usr/bin/python3 -c "import $1" >/dev/null 2>&1 || missing+=("$2")
done
# Extra packages a caller asks for (make bench adds python3-mapnik, hyperfine).
for pkg in "${extras[@]}"; do
  dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done

if [ ${#missing[@]} -eq 0 ]; then exit 0; fi
mapfile -t missing < <(printf '%s\n' "${missing[@]}" | sort -u)
echo "installing: ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
$sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
