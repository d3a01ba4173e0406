#!/usr/bin/env bash
# `make bench`: micro-benchmarks (meridian-bench), then the Natural Earth tile pyramid side by
# side with Mapnik: zoom 0-6 and 0-8, same data, same look (Fixtures/maps/world-mapnik.json
# matches ../shared/bench/mapnik_pyramid.py), same number of workers, 8x8 metatiles, in one run;
# then the cost of an MGRS grid over the New York boroughs at zoom 10-14.
# Prints the table of issue 18 (tiles per second of Meridian into a directory and into MBTiles,
# of Mapnik, and the ratios), output bytes, peak RSS and the grid overhead, and exits non-zero
# when a target is missed: at least 4 times Mapnik's tiles/s in both modes, the directory
# within 15% of MBTiles, output no larger than Mapnik's, peak RSS under 200 MB and flat as the
# pyramid grows (zoom 0-8 within 64 MB of zoom 0-4), the grid under +15% of the work (callgrind's
# instruction count, one worker; CPU seconds are printed beside it).
# Wall-clock rates depend on what else runs: the script prints the load average with them.
# Mapnik is Debian's python3-mapnik, run by /usr/bin/python3 (not a virtual environment's).
# The binary measured is the static one (`make static`), the binary `make install` installs.
# Its expected saving (no symbols bound at load, ~0.24 G per callgrind run) was not seen in the
# fifth stop's run: the static build of merged main counted 8.77 G and 10.96 G in the grid runs,
# the dynamic build of the grid branch before the merges 8.53 G and 10.73 G (not separated).
# Usage: scripts/bench.sh [MERIDIAN_BINARY]
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
meridian=${1:-.build/static/release/meridian}
# The Mapnik side: ../shared/bench beside the repository, or MAPNIK_PYRAMID (a git worktree
# elsewhere points it at the main checkout's).
mapnik_script=${MAPNIK_PYRAMID:-"$root/../shared/bench/mapnik_pyramid.py"}

bash scripts/install-deps.sh python3-mapnik time valgrind binutils
[ -x "$meridian" ] || make static
# The micro-benchmarks (meridian-bench) run last: they write two tile pyramids into a directory
# and delete them, and on ext4 mounted with `discard` (this VM's disk) files created in the
# minute after thousands of deletes cost several times the system time: the directory run
# of zoom 0-6 right after them read 0.65x and 0.78x of MBTiles in two runs (2.2 CPU s against
# 1.3), against 1.0x on a settled disk.
swift build -c release --product meridian-bench

if [ ! -f "$mapnik_script" ]; then
  echo "bench: the Mapnik script is missing: expected $mapnik_script (../shared/bench/mapnik_pyramid.py beside the repository, or set MAPNIK_PYRAMID); no side-by-side run" >&2
  exit 1
fi

workers=$(nproc)
scratch=$(mktemp -d)
# The grid's CPU runs write to memory where there is a tmpfs: on ext4, files created just after
# the previous run's deletes cost more system time round after round (0.16 s to 0.68 s in five
# rounds of the grid's 967 tiles), which is the disk's, not the grid's.
cpu_scratch=$(mktemp -d -p /dev/shm 2>/dev/null || mktemp -d)
trap 'rm -rf "$scratch" "$cpu_scratch"' EXIT
timer=/usr/bin/time

# run NAME COMMAND...: runs it under GNU time; sets SECONDS_TAKEN, PEAK_KB and CPU_SECONDS
# (user + system, of the process and the children it waited for: Mapnik's pool). The wall
# time is read from the clock's nanoseconds around it, not GNU time's 10 ms steps: Meridian's
# zoom 0-6 takes about 0.4 s, where a step is 2.5% (both Meridian columns tied at 13,652
# tiles/s, 2026-12-04).
run() {
  local name=$1; shift
  local start end
  start=$(date +%s%N)
  "$timer" -f "%M %U %S" -o "$scratch/$name.time" "$@" > "$scratch/$name.out" 2>&1 || { cat "$scratch/$name.out" >&2; exit 1; }
  end=$(date +%s%N)
  local user sys
  read -r PEAK_KB user sys < "$scratch/$name.time"
  SECONDS_TAKEN=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.4f", (b - a) / 1e9 }')
  CPU_SECONDS=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
}
bytes_of() { du -sb "$1" | cut -f1; }
rate() { awk -v t="$1" -v s="$2" 'BEGIN { printf "%.0f", t / s }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
mb() { awk -v k="$1" 'BEGIN { printf "%.0f", k / 1024 }'; }
thousands() { echo "$1" | sed -e ':a' -e 's/\B[0-9]\{3\}\>/,&/' -e 'ta'; }

echo
echo "== pyramid side by side: Natural Earth world, $workers workers, 8x8 metatiles, 256 px tiles"
echo "   (load average before: $(cut -d' ' -f1-3 /proc/loadavg); peak RSS: meridian is one process,"
echo "   Mapnik's figure is its largest process of $((workers + 1)))"
run m4 "$meridian" tiles Fixtures/maps/world-mapnik.json --zoom 0-4 --workers "$workers" -o "$scratch/m4" --quiet
rss4=$PEAK_KB
status=0
# check LABEL CONDITION: prints the verdict, remembers a miss.
check() {
  local verdict
  if awk "BEGIN { exit !($2) }"; then verdict="met"; else verdict="NOT met"; status=1; fi
  echo "  $1: $verdict"
}
table="| zoom | Meridian directory | Meridian MBTiles | Mapnik | directory / Mapnik | MBTiles / Mapnik |
|---|---|---|---|---|---|"
details=""
for zooms in 0-6 0-8; do
  max=${zooms#0-}
  tiles=$(( (4 ** (max + 1) - 1) / 3 ))
  run "meridian$max" "$meridian" tiles Fixtures/maps/world-mapnik.json --zoom "$zooms" --workers "$workers" --metatile 8 \
      -o "$scratch/meridian$max" --quiet
  m_s=$SECONDS_TAKEN m_kb=$PEAK_KB m_cpu=$CPU_SECONDS m_bytes=$(bytes_of "$scratch/meridian$max")
  run "mbtiles$max" "$meridian" tiles Fixtures/maps/world-mapnik.json --zoom "$zooms" --workers "$workers" --metatile 8 \
      -o "$scratch/meridian$max.mbtiles" --quiet
  t_s=$SECONDS_TAKEN t_kb=$PEAK_KB t_cpu=$CPU_SECONDS t_bytes=$(bytes_of "$scratch/meridian$max.mbtiles")
  run "mapnik$max" /usr/bin/python3 "$mapnik_script" Fixtures/data "$scratch/mapnik$max" 0 "$max" "$workers" 8
  k_s=$SECONDS_TAKEN k_kb=$PEAK_KB k_cpu=$CPU_SECONDS k_bytes=$(bytes_of "$scratch/mapnik$max")
  m_rate=$(rate "$tiles" "$m_s") t_rate=$(rate "$tiles" "$t_s") k_rate=$(rate "$tiles" "$k_s")
  m_ratio=$(ratio "$k_s" "$m_s") t_ratio=$(ratio "$k_s" "$t_s")
  table+="
| $zooms | $(thousands "$m_rate") tiles/s | $(thousands "$t_rate") tiles/s | $(thousands "$k_rate") tiles/s | ${m_ratio}x | ${t_ratio}x |"
  echo
  echo "zoom $zooms ($tiles tiles; load average after: $(cut -d' ' -f1-3 /proc/loadavg))"
  printf "  %-24s %8s tiles/s %7.3f s %7.2f CPU s %12s bytes %5s MB peak RSS\n" "meridian (directory)" "$m_rate" "$m_s" "$m_cpu" "$m_bytes" "$(mb "$m_kb")"
  printf "  %-24s %8s tiles/s %7.3f s %7.2f CPU s %12s bytes %5s MB peak RSS\n" "meridian (MBTiles)" "$t_rate" "$t_s" "$t_cpu" "$t_bytes" "$(mb "$t_kb")"
  printf "  %-24s %8s tiles/s %7.3f s %7.2f CPU s %12s bytes %5s MB peak RSS\n" "mapnik (directory)" "$k_rate" "$k_s" "$k_cpu" "$k_bytes" "$(mb "$k_kb")"
  # CPU seconds move far less with the machine's load than wall-clock: the same work per tile.
  echo "  tiles per CPU second against Mapnik's: directory $(ratio "$k_cpu" "$m_cpu")x, MBTiles $(ratio "$k_cpu" "$t_cpu")x"
  check "directory / mapnik = ${m_ratio}x (target >= 4)" "$m_ratio >= 4"
  check "MBTiles / mapnik = ${t_ratio}x (target >= 4)" "$t_ratio >= 4"
  check "directory at $(ratio "$t_s" "$m_s")x the tiles/s of MBTiles (target >= 0.85)" "$t_s / $m_s >= 0.85"
  check "output: directory $m_bytes bytes, MBTiles $t_bytes, mapnik $k_bytes (target: no larger)" \
    "$m_bytes <= $k_bytes && $t_bytes <= $k_bytes"
  check "peak RSS: directory $(mb "$m_kb") MB, MBTiles $(mb "$t_kb") MB (target < 200 MB)" \
    "$m_kb < 204800 && $t_kb < 204800"
  details+="zoom $zooms: output $m_bytes bytes (directory), $t_bytes (MBTiles), $k_bytes (Mapnik); peak RSS $(mb "$m_kb") MB, $(mb "$t_kb") MB, $(mb "$k_kb") MB
"
done
echo
growth=$(( (m_kb - rss4) / 1024 ))
echo "memory: peak RSS zoom 0-4 $(mb "$rss4") MB, zoom 0-8 $(mb "$m_kb") MB (growth $growth MB)"
check "memory flat with depth (target: growth <= 64 MB)" "$growth <= 64"

# The grid's cost: the same New York map with and without an MGRS grid (Fixtures/maps/nyc.json
# and nyc-mgrs.json differ only by the grid), zoom 10-14 over the boroughs, rendering and
# encoding together. `--no-grid-layer`: by default a map with a grid also writes the map
# without it (without-grid/), which would count the whole map twice. Compared in
# instructions executed (callgrind, one worker: the count does not drift with the machine's
# load), and in CPU seconds (user + system), one worker, the two maps run plain, grid, grid,
# plain in each of `grid_rounds` rounds and each one's median counting: one worker's CPU time
# is the work of the instruction count, and alternating the runs spreads the machine's load
# and the disk's state over both. The check is on instructions: the CPU share still moves by
# a few points from one set of runs to the next on a shared machine (two sets of 15 rounds of
# the same map against itself differed by 3.7%, 2026-12-03 evening). So 41 rounds, and
# besides the medians the median of the rounds' own ratios, which a slow spell of the machine
# moves least (each round's runs share it), and the ratio of the rounds' sums with its 95%
# bootstrap interval (scripts/ratio-interval.py): where the grid's CPU share lies, not one
# set's figure. Then the wall time with every worker, as a user runs the job, the same way.
nyc_bbox=-74.26,40.49,-73.70,40.92
# The options of every run of the two maps, but for the workers and the output.
nyc_job=(--zoom 10-14 --bbox "$nyc_bbox" --metatile 8 --no-grid-layer --quiet)
grid_rounds=${GRID_ROUNDS:-41}
# cpu_run NAME MAP: one run's user + system seconds (scripts/cpu-seconds.py: microseconds).
cpu_run() {
  local name=$1 map=$2 seconds
  rm -rf "$cpu_scratch/$name"
  seconds=$(python3 scripts/cpu-seconds.py "$scratch/$name.out" "$meridian" tiles "$map" "${nyc_job[@]}" \
    --workers 1 -o "$cpu_scratch/$name") || { cat "$scratch/$name.out" >&2; exit 1; }
  echo "$seconds"
}
median() { sort -n | awk '{ v[NR] = $1 } END { printf "%.3f", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
echo
echo "== grid overhead: MGRS over the New York boroughs, zoom 10-14, 1 worker"
# abba RUN NAME: `grid_rounds` rounds of the two maps by RUN (cpu_run or wall_run), plain, grid,
# grid, plain: a machine speeding up or slowing down over a round weighs on both maps alike.
# Each map's value for a round, the mean of its two runs, goes to $scratch/plain.NAME and
# $scratch/grid.NAME, a line a round.
abba() {
  local run=$1 name=$2 p1 g1 g2 p2
  : > "$scratch/plain.$name"
  : > "$scratch/grid.$name"
  for round in $(seq 1 "$grid_rounds"); do
    p1=$("$run" nyc Fixtures/maps/nyc.json)
    g1=$("$run" nyc-mgrs Fixtures/maps/nyc-mgrs.json)
    g2=$("$run" nyc-mgrs Fixtures/maps/nyc-mgrs.json)
    p2=$("$run" nyc Fixtures/maps/nyc.json)
    awk -v a="$p1" -v b="$p2" 'BEGIN { printf "%.4f\n", (a + b) / 2 }' >> "$scratch/plain.$name"
    awk -v a="$g1" -v b="$g2" 'BEGIN { printf "%.4f\n", (a + b) / 2 }' >> "$scratch/grid.$name"
  done
}
abba cpu_run cpus
plain_cpu=$(median < "$scratch/plain.cpus")
grid_cpu=$(median < "$scratch/grid.cpus")
grid_tiles=$(find "$cpu_scratch/nyc-mgrs" -name '*.png' | wc -l)
overhead=$(awk -v g="$grid_cpu" -v p="$plain_cpu" 'BEGIN { printf "%+.1f", (g / p - 1) * 100 }')
added_cpu=$(awk -v g="$grid_cpu" -v p="$plain_cpu" 'BEGIN { printf "%.3f", g - p }')
round_overhead=$(paste "$scratch/plain.cpus" "$scratch/grid.cpus" | awk '{ printf "%.4f\n", ($2 / $1 - 1) * 100 }' \
  | sort -n | awk '{ v[NR] = $1 } END { printf "%+.1f", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
echo "  $grid_tiles tiles: without the grid $plain_cpu CPU s, with it $grid_cpu CPU s: +$added_cpu s (${overhead}%;" \
  "medians of $grid_rounds rounds of two runs each; not checked)"
echo "  the median of the $grid_rounds rounds' own ratios: ${round_overhead}% (not checked)"
cpu_interval=$(python3 scripts/ratio-interval.py "$scratch/plain.cpus" "$scratch/grid.cpus")
echo "  the rounds' sums: $cpu_interval (not checked)"
# wall_run NAME MAP: one run's wall seconds with every worker (`run`'s clock).
wall_run() {
  rm -rf "$cpu_scratch/$1"
  run "$1" "$meridian" tiles "$2" "${nyc_job[@]}" --workers "$workers" -o "$cpu_scratch/$1"
  echo "$SECONDS_TAKEN"
}
abba wall_run walls
wall_interval=$(python3 scripts/ratio-interval.py "$scratch/plain.walls" "$scratch/grid.walls")
echo "  wall time, $workers workers: without the grid $(median < "$scratch/plain.walls") s, with it" \
  "$(median < "$scratch/grid.walls") s (medians); the rounds' sums: $wall_interval (not checked)"
echo "  output: without the grid $(bytes_of "$cpu_scratch/nyc") bytes, with it $(bytes_of "$cpu_scratch/nyc-mgrs") bytes"
# instructions NAME MAP: callgrind's total instruction count of the pyramid, one worker. Debian
# 12's valgrind cannot read the DWARF 5 the Swift toolchain writes: it runs a copy without it
# (objcopy, from binutils).
objcopy --strip-debug "$meridian" "$scratch/meridian-nodebug"
instructions() {
  rm -rf "$scratch/$1"
  valgrind --tool=callgrind --callgrind-out-file="$scratch/$1.callgrind" \
    "$scratch/meridian-nodebug" tiles "$2" "${nyc_job[@]}" --workers 1 -o "$scratch/$1" \
    > "$scratch/$1.out" 2>&1 || { cat "$scratch/$1.out" >&2; exit 1; }
  sed -n 's/^summary: //p' "$scratch/$1.callgrind"
}
plain_ir=$(instructions nyc-ir Fixtures/maps/nyc.json)
grid_ir=$(instructions nyc-mgrs-ir Fixtures/maps/nyc-mgrs.json)
ir_overhead=$(awk -v g="$grid_ir" -v p="$plain_ir" 'BEGIN { printf "%+.1f", (g / p - 1) * 100 }')
echo "  instructions (callgrind, 1 worker): without the grid $(thousands "$plain_ir"), with it $(thousands "$grid_ir")"
check "grid overhead ${ir_overhead}% of instructions (target < 15%)" "$ir_overhead < 15"

echo
echo "== the table (issue 18), this run, $workers workers, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "$table"
echo
printf "%s" "$details"
echo "grid: MGRS over the New York boroughs, zoom 10-14: ${ir_overhead}% instructions, ${overhead}% CPU time" \
  "(medians; ${round_overhead}% by the rounds' ratios; $cpu_interval by their sums), wall time with $workers" \
  "workers $wall_interval"

# Raster pyramids: Meridian against gdal2tiles on a 20,000 x 20,000 GeoTIFF (its own script).
echo
bash scripts/bench-raster.sh "$meridian" || status=1

echo
.build/release/meridian-bench
exit $status
