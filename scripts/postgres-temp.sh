#!/usr/bin/env bash
# Starts a throw-away PostgreSQL in a temporary directory and prints its URL.
# Usage: scripts/postgres-temp.sh start   -> prints "postgres://..." and the data dir on stdout
#        scripts/postgres-temp.sh restart DIR [SECONDS_DOWN]
#          fast restart (open connections are cut, as in a failover); with SECONDS_DOWN the server stays stopped
#          that long before it starts again. Returns once it accepts connections again.
#        scripts/postgres-temp.sh stop DIR
set -euo pipefail

bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
if [ -z "$bindir" ]; then
  echo "PostgreSQL is not installed (apt-get install -y postgresql)" >&2
  exit 1
fi

as_owner() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "${1:-}" in
  start)
    dir=$(mktemp -d /tmp/wm-pg.XXXXXX)
    [ "$(id -u)" -eq 0 ] && chown postgres:postgres "$dir"
    port=$(( 20000 + RANDOM % 20000 ))
    as_owner "$bindir/initdb" -D "$dir/data" -A trust -U postgres --no-sync -E UTF8 >"$dir/initdb.log" 2>&1
    as_owner "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
      -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200" start >/dev/null
    echo "postgres://postgres@127.0.0.1:$port/postgres $dir"
    ;;
  restart)
    dir="$2"
    down="${3:-0}"
    if [ "$down" = "0" ]; then
      as_owner "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -m fast -w restart >/dev/null
    else
      as_owner "$bindir/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null
      sleep "$down"
      # start again with the options of the previous run (port, socket directory, settings)
      opts=$(sed -e 's/^[^ ]* //' -e 's/"-D" "[^"]*" //g' "$dir/data/postmaster.opts")
      as_owner "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -o "$opts" start >/dev/null
    fi
    ;;
  stop)
    dir="$2"
    as_owner "$bindir/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
    rm -rf "$dir"
    ;;
  *)
    echo "usage: $0 start | restart DIR [SECONDS_DOWN] | stop DIR" >&2
    exit 2
    ;;
esac
