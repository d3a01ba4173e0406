#!/usr/bin/env bash
# `make test-container`: the container recipe (deploy/) run as written, with podman.
#  1. Builds deploy/Containerfile (the static binary on Debian 12, run on Debian 12 slim).
#  2. Runs the Kubernetes shard Job's own script (the `args` of deploy/kubernetes/tiles-job.yaml,
#     read from the file) once per shard in that image: as user 65532, with the Job's memory
#     limit, the shared volume and a per-pod scratch folder as bind mounts; then the merge Job's
#     script the same way.
#  3. Checks that the merged MBTiles file holds exactly the tiles of the same job run unsharded
#     by the host's build (every tile's bytes, read back with sqlite3).
# There is no cluster here: what Kubernetes adds (scheduling, restarts, the RWX volume) is not
# exercised; what runs in each pod is.
# Base images: SWIFT_IMAGE and RUN_IMAGE (defaults: the Containerfile's, docker.io). When they
# cannot be pulled (no registry), stand-ins are made locally: Debian 12 from the Debian mirror
# with debootstrap, and for the build stage the same plus this machine's Swift toolchain.
# Usage: scripts/test-container.sh [HOST_MERIDIAN_BINARY]   (default: the release build)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
meridian=${1:-$root/.build/release/meridian}
case "$meridian" in /*) ;; *) meridian="$root/$meridian" ;; esac
swift_image=${SWIFT_IMAGE:-docker.io/library/swift:6.3-bookworm}
run_image=${RUN_IMAGE:-docker.io/library/debian:12-slim}
image=localhost/meridian:test-container
zoom=0-5
shards=3

bash scripts/install-deps.sh podman runc debootstrap python3-yaml
[ -x "$meridian" ] || swift build -c release --product meridian

scratch=$(mktemp -d /tmp/meridian-container.XXXXXX)
trap 'rm -rf "$scratch"' EXIT
# Containers get the host's resource limits (a VM may refuse to raise them) and runc: crun
# refuses hosts whose cgroups are in hybrid v1/v2 mode, runc handles both.
printf '[containers]\ndefault_ulimits = []\n[engine]\nruntime = "runc"\n' >"$scratch/containers.conf"
export CONTAINERS_CONF="$scratch/containers.conf"

# A Debian 12 root file system as an image, from the Debian mirror apt already uses.
debian_standin() { # TAG
  podman image exists "$1" && return
  echo "test-container: making $1 with debootstrap"
  debootstrap --variant=minbase bookworm "$scratch/rootfs" http://deb.debian.org/debian >"$scratch/debootstrap.log"
  tar -C "$scratch/rootfs" -c . | podman import -q - "$1" >/dev/null
  rm -rf "$scratch/rootfs"
}
# The official Swift image's packages, and the toolchain this machine builds with.
swift_standin() { # TAG
  podman image exists "$1" && return
  debian_standin localhost/meridian-standin/debian:12
  local toolchain
  toolchain=$(dirname "$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")")
  echo "test-container: making $1 from $toolchain"
  mkdir -p "$scratch/swift"
  cat >"$scratch/swift/Containerfile" <<EOF
FROM localhost/meridian-standin/debian:12
RUN apt-get update && apt-get install -y --no-install-recommends binutils git gnupg2 libc6-dev \
    libcurl4-openssl-dev libedit2 libgcc-12-dev libpython3-dev libsqlite3-0 libstdc++-12-dev \
    libxml2-dev libncurses-dev libz3-dev pkg-config tzdata zlib1g-dev ca-certificates \
 && rm -rf /var/lib/apt/lists/*
ENV PATH=$toolchain/usr/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
EOF
  podman build -q -t localhost/meridian-standin/swift-deps "$scratch/swift" >/dev/null
  local container
  container=$(podman create localhost/meridian-standin/swift-deps true)
  podman cp "$toolchain" "$container:$toolchain"
  podman commit -q "$container" "$1" >/dev/null
  podman rm "$container" >/dev/null
}
base() { # IMAGE KIND
  if podman image exists "$1" || podman pull -q "$1" >/dev/null 2>&1; then echo "$1"; return; fi
  local tag="localhost/meridian-standin/$2"
  if [ "$2" = swift ]; then swift_standin "$tag" >&2; else debian_standin "$tag" >&2; fi
  echo "$tag"
}
swift_base=$(base "$swift_image" swift)
run_base=$(base "$run_image" debian)

echo "test-container: building deploy/Containerfile on $swift_base, running on $run_base"
podman build -q -f deploy/Containerfile --build-arg SWIFT_IMAGE="$swift_base" \
  --build-arg RUN_IMAGE="$run_base" -t "$image" . >"$scratch/build.log"
podman run --rm "$image" --version

# The Jobs' scripts and settings, read from the manifests as Kubernetes would.
job() { # FILE FIELD: the container's args script, or its memory limit
  python3 - "$1" "$2" <<'EOF'
import sys, yaml
spec = yaml.safe_load(open(sys.argv[1]))["spec"]["template"]["spec"]
container = spec["containers"][0]
print(container["args"][0] if sys.argv[2] == "args" else container["resources"]["limits"]["memory"].replace("Mi", "m"))
EOF
}
shared="$scratch/shared"
mkdir -p "$shared/out"
cp -r Fixtures/maps Fixtures/data Fixtures/fonts "$shared/"
chown -R 65532:65532 "$shared"
pod() { # NAME YAML [ENV...]: one pod of a Job, its scratch folder an emptyDir
  local name=$1 yaml=$2
  shift 2
  mkdir -p "$scratch/$name"
  chown 65532:65532 "$scratch/$name"
  local env=()
  for e in "$@"; do env+=(-e "$e"); done
  podman run --rm --user 65532:65532 --memory "$(job "$yaml" memory)" "${env[@]}" \
    -v "$shared:/shared" -v "$scratch/$name:/scratch" --entrypoint /bin/sh "$image" \
    -c "$(job "$yaml" args)"
}
for i in $(seq 0 $((shards - 1))); do
  pod "tiles-$i" deploy/kubernetes/tiles-job.yaml JOB_COMPLETION_INDEX="$i" SHARDS="$shards" \
    MAP=world.json ZOOM="$zoom" WORKERS=2
done
# A pod that restarts after its part reached the shared volume does not render it again.
pod tiles-again deploy/kubernetes/tiles-job.yaml JOB_COMPLETION_INDEX=0 SHARDS="$shards" \
  MAP=world.json ZOOM="$zoom" WORKERS=2 | grep -q "is done"
pod merge deploy/kubernetes/merge-job.yaml SHARDS="$shards" OUTPUT=world.mbtiles

"$meridian" tiles Fixtures/maps/world.json --zoom "$zoom" --workers 2 --metatile 8 \
  -o "$scratch/whole.mbtiles" --quiet
tiles() { # MBTILES: every tile's address and bytes, hashed, and the number of tiles
  sqlite3 "$1" "SELECT zoom_level, tile_column, tile_row, hex(tile_data) FROM tiles ORDER BY 1, 2, 3" | sha256sum
  sqlite3 "$1" "SELECT count(*) FROM tiles"
}
whole=$(tiles "$scratch/whole.mbtiles")
merged=$(tiles "$shared/out/world.mbtiles")
if [ "$whole" != "$merged" ]; then
  echo "test-container: the merged shards differ from the unsharded job"
  exit 1
fi
echo "test-container: passed: $shards shards built in the container and merged equal the unsharded job ($(tail -n1 <<<"$whole") tiles)"
