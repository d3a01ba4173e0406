#!/usr/bin/env bash
# `make test-slurm`: shards on a real Slurm cluster. Brings up a one-node Slurm (Debian's
# slurm-wlm and munge) in a scratch folder, submits `meridian tiles --shard I/N` as a job array
# and `meridian merge` as a job that depends on it, waits for both, and checks that the merged
# MBTiles file holds exactly the tiles of the same job run unsharded (every tile's bytes, read
# back with sqlite3). Stops the daemons it started, whatever happens.
# Usage: scripts/test-slurm.sh [MERIDIAN_BINARY]   (default: the release build)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
meridian=${1:-$root/.build/release/meridian}
case "$meridian" in /*) ;; *) meridian="$root/$meridian" ;; esac
map="$root/Fixtures/maps/world.json"
zoom=0-6
shards=4

bash scripts/install-deps.sh slurm-wlm munge
[ -x "$meridian" ] || swift build -c release --product meridian

scratch=$(mktemp -d /tmp/meridian-slurm.XXXXXX)
started_munge=""
stop() {
  local status=$?
  local pids=()
  for daemon in slurmctld slurmd; do
    if [ -f "$scratch/$daemon.pid" ]; then pids+=("$(cat "$scratch/$daemon.pid")"); fi
  done
  [ -n "$started_munge" ] && pids+=("$started_munge")
  [ ${#pids[@]} -gt 0 ] && kill "${pids[@]}" 2>/dev/null || true
  # slurmctld saves its state as it stops: wait for the daemons to be gone before removing it.
  for pid in "${pids[@]}"; do
    for _ in $(seq 1 100); do
      [ -e "/proc/$pid" ] && [ "$(cut -d' ' -f3 "/proc/$pid/stat" 2>/dev/null)" != Z ] || break
      sleep 0.1
    done
  done
  if [ $status -ne 0 ] && [ -d "$scratch/log" ]; then
    echo "test-slurm: failed; the daemons' logs:" >&2
    tail -n 20 "$scratch"/log/*.log >&2 || true
  fi
  rm -rf "$scratch"
  exit $status
}
trap stop EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# munge authenticates Slurm's messages; use the machine's daemon if one runs, else start one.
if ! munge -n </dev/null 2>/dev/null | unmunge >/dev/null 2>&1; then
  install -d -o munge -g munge -m 0755 /run/munge
  [ -s /etc/munge/munge.key ] || { mungekey --create --keyfile /etc/munge/munge.key && chown munge:munge /etc/munge/munge.key; }
  # munged writes its pid file as the munge user, so it goes in munge's own run folder.
  runuser -u munge -- /usr/sbin/munged --pid-file=/run/munge/meridian-test.pid
  started_munge=$(cat /run/munge/meridian-test.pid)
  munge -n </dev/null | unmunge >/dev/null
fi

host=$(hostname)
cpus=$(nproc)
mkdir -p "$scratch/state" "$scratch/spool" "$scratch/log" "$scratch/out"
# Ports away from Slurm's defaults, so a machine's own Slurm is left alone.
cat > "$scratch/slurm.conf" <<EOF
ClusterName=meridian-test
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$scratch/state
SlurmdSpoolDir=$scratch/spool
SlurmctldPidFile=$scratch/slurmctld.pid
SlurmdPidFile=$scratch/slurmd.pid
SlurmctldLogFile=$scratch/log/slurmctld.log
SlurmdLogFile=$scratch/log/slurmd.log
SlurmctldPort=16817
SlurmdPort=16818
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SwitchType=switch/none
MpiDefault=none
ReturnToService=2
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
NodeName=$host CPUs=$cpus RealMemory=2048 State=UNKNOWN
PartitionName=tiles Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$scratch/slurm.conf"
/usr/sbin/slurmctld -f "$SLURM_CONF"
/usr/sbin/slurmd -f "$SLURM_CONF"
for _ in $(seq 1 60); do
  if sinfo -h -o '%T' 2>/dev/null | grep -q idle; then break; fi
  sleep 0.5
done
sinfo -h -o '%T' | grep -q idle || { echo "test-slurm: the node did not become idle" >&2; exit 1; }
echo "slurm: one node ($host, $cpus CPUs) up"

# The job array: each task renders its shard to local disk, then copies it into the shared
# output folder once complete (SQLite's WAL does not work on network file systems).
cat > "$scratch/shard.sh" <<EOF
#!/bin/bash
set -euo pipefail
part="\$SLURM_ARRAY_TASK_ID"
local_dir="$scratch/node-local/\$part"
mkdir -p "\$local_dir"
"$meridian" tiles "$map" --zoom $zoom --workers "\$SLURM_CPUS_PER_TASK" --shard "\$part/$shards" --resume \\
    -o "\$local_dir/world-\$part.mbtiles" --quiet
cp "\$local_dir/world-\$part.mbtiles" "$scratch/out/world-\$part.mbtiles.part"
mv "$scratch/out/world-\$part.mbtiles.part" "$scratch/out/world-\$part.mbtiles"
EOF
array=$(sbatch --parsable --array=0-$((shards - 1)) --cpus-per-task=1 --mem=400M \
  -o "$scratch/log/shard-%a.out" "$scratch/shard.sh")
parts=$(for i in $(seq 0 $((shards - 1))); do printf '%s ' "$scratch/out/world-$i.mbtiles"; done)
merge=$(sbatch --parsable --dependency=afterok:"$array" --kill-on-invalid-dep=yes --mem=400M \
  -o "$scratch/log/merge.out" --wrap "'$meridian' merge $parts -o '$scratch/out/world.mbtiles'")
echo "slurm: job array $array ($shards shards of zoom $zoom), merge job $merge after it"

# Meanwhile, the same job unsharded, for comparison.
"$meridian" tiles "$map" --zoom "$zoom" --workers "$cpus" -o "$scratch/whole.mbtiles" --quiet

for _ in $(seq 1 1200); do
  state=$(scontrol show job "$merge" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p')
  case "$state" in
    COMPLETED) break ;;
    FAILED|CANCELLED|TIMEOUT|NODE_FAIL|OUT_OF_MEMORY|DEADLINE)
      echo "test-slurm: the merge job ended $state" >&2
      cat "$scratch"/log/*.out >&2 || true
      exit 1 ;;
  esac
  sleep 0.5
done
[ "$state" = COMPLETED ] || { echo "test-slurm: the merge job did not finish (state ${state:-unknown})" >&2; exit 1; }
for i in $(seq 0 $((shards - 1))); do
  task_state=$(scontrol show job "${array}_$i" | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p')
  [ "$task_state" = COMPLETED ] || { echo "test-slurm: shard $i ended $task_state" >&2; exit 1; }
done

# Tile for tile: the same tiles with the same bytes (read by sqlite3, not by meridian).
dump() {
  sqlite3 -bail "$1" 'SELECT zoom_level, tile_column, tile_row, hex(tile_data) FROM tiles ORDER BY 1, 2, 3' > "$2"
}
dump "$scratch/whole.mbtiles" "$scratch/whole.txt"
dump "$scratch/out/world.mbtiles" "$scratch/merged.txt"
tiles=$(wc -l < "$scratch/whole.txt")
expected=$(( (4 ** (${zoom#0-} + 1) - 1) / 3 ))
[ "$tiles" -eq "$expected" ] || { echo "test-slurm: the unsharded job has $tiles tiles, expected $expected" >&2; exit 1; }
if ! cmp -s "$scratch/whole.txt" "$scratch/merged.txt"; then
  echo "test-slurm: the merged file differs from the unsharded job:" >&2
  diff <(cut -c1-40 "$scratch/whole.txt") <(cut -c1-40 "$scratch/merged.txt") | head -n 10 >&2
  exit 1
fi
echo "test-slurm: passed: $shards shards merged by a dependent job equal the unsharded job, $tiles of $tiles tiles byte for byte"
