#!/usr/bin/env bash
# A throwaway PostgreSQL 15 + PostGIS 3 server for tests and examples, entirely under DIR:
# the data folder, the log and the Unix socket. It listens on no TCP port.
#
#   scripts/postgis.sh start DIR [OWNER_PID]   create the cluster, start it, create database `gis`
#                                              with the postgis extension; with OWNER_PID, the
#                                              server is stopped and DIR removed when that process
#                                              ends, even if it never calls `stop` (a crashed test)
#   scripts/postgis.sh env DIR                 print PGHOST, PGDATABASE, PGUSER and the OGR
#                                              connection string, as shell assignments
#   scripts/postgis.sh stop DIR                stop the server (DIR stays; remove it yourself)
#
# PostgreSQL refuses to run as root: as root, the server runs as the `postgres` user (Debian's
# postgresql package creates it) and DIR is handed to that user; as anyone else, as yourself.
set -euo pipefail

usage() {
  echo "usage: $0 start DIR [OWNER_PID] | stop DIR | env DIR" >&2
  exit 2
}
[ $# -ge 2 ] || usage
command=$1
dir=$2
bin=/usr/lib/postgresql/15/bin
script=$(readlink -f "$0")

as_server_user() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

# Runs a command with only stdin, stdout and stderr: whatever else the caller left open (a test
# runner's pipes and sockets) must not be held by the server or the watcher, or a caller waiting
# for them to close would wait for the server to stop.
without_inherited_fds() {
  (
    for fd in /proc/$BASHPID/fd/*; do
      fd=${fd##*/}
      if [ "$fd" -gt 2 ]; then eval "exec $fd>&-"; fi
    done 2>/dev/null
    "$@"
  )
}

case "$command" in
  start)
    owner=${3:-}
    mkdir -p "$dir"
    dir=$(readlink -f "$dir")
    # The socket path must fit in sun_path (107 bytes).
    if [ $((${#dir} + 20)) -gt 107 ]; then
      echo "postgis.sh: $dir is too long a path for a Unix socket; use a shorter folder" >&2
      exit 1
    fi
    if [ "$(id -u)" -eq 0 ]; then chown postgres: "$dir"; fi
    as_server_user "$bin/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 \
      >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; exit 1; }
    without_inherited_fds as_server_user "$bin/pg_ctl" -D "$dir/data" -l "$dir/postgres.log" -w -s \
      -o "-c listen_addresses='' -c unix_socket_directories='$dir' -c fsync=off" start \
      || { cat "$dir/postgres.log" >&2; exit 1; }
    if [ -n "$owner" ]; then
      # `tail --pid` returns when the owner exits; then the server goes, and its folder with it.
      without_inherited_fds setsid bash -c \
        "tail --pid=$owner -f /dev/null; '$script' stop '$dir' >/dev/null 2>&1; rm -rf '$dir'" \
        </dev/null >/dev/null 2>&1 &
    fi
    "$bin/createdb" -h "$dir" -U postgres gis
    "$bin/psql" -h "$dir" -U postgres -d gis -q -v ON_ERROR_STOP=1 -c "CREATE EXTENSION postgis" >/dev/null
    ;;
  stop)
    dir=$(readlink -f "$dir")
    if [ -f "$dir/data/postmaster.pid" ]; then
      as_server_user "$bin/pg_ctl" -D "$dir/data" -m fast -w -s stop
    fi
    ;;
  env)
    dir=$(readlink -f "$dir")
    echo "PGHOST=$dir"
    echo "PGDATABASE=gis"
    echo "PGUSER=postgres"
    echo "OGR_CONNECTION='PG:host=$dir dbname=gis user=postgres'"
    ;;
  *) usage ;;
esac
