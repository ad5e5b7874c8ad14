#!/usr/bin/env bash
# A PostgreSQL pair with a synchronous standby and automatic failover, run by pg_auto_failover (decision 034).
#
# On three machines (docs/high-availability.md):
#   scripts/postgres-ha.sh monitor  PGDATA HOSTNAME [PORT]          the monitor, on the third machine
#   scripts/postgres-ha.sh node     PGDATA HOSTNAME MONITOR_URL NAME [PORT] [DBNAME]
#                                                                     a data node (run on the primary, then the standby)
#   scripts/postgres-ha.sh tune     PGDATA                          the monitor's quick-failover timings (on the monitor)
#   Each command creates the node, prints the systemd unit that keeps it running, and leaves starting it to systemd.
#
# On one machine, for tests (three nodes on different ports in a temporary directory):
#   scripts/postgres-ha.sh start              -> prints "postgres://...host1:port1,host2:port2/warehouse DIR"
#   scripts/postgres-ha.sh primary DIR        -> the node name of the current primary (node1 or node2), or nothing
#   scripts/postgres-ha.sh wait DIR SECONDS   -> returns once there is a primary and a synchronous standby
#   scripts/postgres-ha.sh kill DIR NODE      -> kill -9 of every process of the node: keeper, postmaster, backends
#                                                (the machine died); prints when (ms since the epoch) it began
#   scripts/postgres-ha.sh freeze DIR NODE    -> SIGSTOP of every process of the node (the machine hangs)
#   scripts/postgres-ha.sh check DIR NODE     -> "pid state" of the processes the last kill or freeze reached
#   scripts/postgres-ha.sh thaw DIR NODE      -> SIGCONT: the frozen node runs again and rejoins as a standby
#   scripts/postgres-ha.sh rejoin DIR NODE    -> starts a killed node again; it rejoins as a standby
#   scripts/postgres-ha.sh state DIR          -> pg_auto_failover's view of the formation
#   scripts/postgres-ha.sh stop DIR
set -euo pipefail

bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
if [ -z "$bindir" ] || ! command -v pg_autoctl >/dev/null 2>&1; then
  echo "PostgreSQL and pg_auto_failover are not installed" \
    "(apt-get install -y postgresql postgresql-15-auto-failover pg-auto-failover-cli)" >&2
  exit 1
fi
export PATH="$bindir:$PATH"

# pg_autoctl refuses to run as root: as root, it runs as the postgres user
as_owner() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- env "PATH=$PATH" "$@"; else "$@"; fi
}

# each local node keeps pg_autoctl's configuration and state files in a directory of its own
node_env() {
  local home="$1"
  echo "HOME=$home" "XDG_CONFIG_HOME=$home/config" "XDG_DATA_HOME=$home/share" "XDG_RUNTIME_DIR=$home/run"
}

# the monitor's timings: a primary that stops answering is replaced within seconds instead of half a minute
tune_monitor() {
  local pgdata="$1" port="$2" host="${3:-}"
  local hostopt=()
  [ -n "$host" ] && hostopt=(-h "$host")
  as_owner psql -X -q "${hostopt[@]}" -p "$port" -d pg_auto_failover -v ON_ERROR_STOP=1 <<'SQL'
alter system set pgautofailover.health_check_period = 1000;
alter system set pgautofailover.health_check_timeout = 1000;
alter system set pgautofailover.health_check_max_retries = 1;
alter system set pgautofailover.health_check_retry_delay = 500;
alter system set pgautofailover.node_considered_unhealthy_timeout = 2000;
alter system set pgautofailover.primary_demote_timeout = 5000;
select pg_reload_conf();
SQL
}

start_local_node() {
  local dir="$1" name="$2"
  local home="$dir/$name"
  # its own process group, so that kill and freeze reach the keeper and the postmaster it supervises
  if [ "$(id -u)" -eq 0 ]; then
    setsid runuser -u postgres -- env "PATH=$PATH" $(node_env "$home") pg_autoctl run --pgdata "$home/data" \
      >>"$home/keeper.log" 2>&1 </dev/null &
  else
    setsid env $(node_env "$home") pg_autoctl run --pgdata "$home/data" >>"$home/keeper.log" 2>&1 </dev/null &
  fi
  echo $! >"$dir/$name.pid"
}

node_pgid() {
  cat "$1/$2.pid"
}

# Every process of a local node: its keeper with what the keeper started, its postmaster (which pg_ctl starts in a
# session of its own after a rejoin) and every child of the postmaster. PostgreSQL puts each backend, the walsender
# and the other auxiliary processes in a process group and session of their own (setsid), so a signal to the keeper's
# or the postmaster's process group misses them: a "frozen" node would go on serving every connection opened before
# the freeze, and on streaming its WAL to the standby. The tree is walked by parent pid instead.
node_pids() {
  local dir="$1" name="$2" roots="" pid
  for pid in "$(node_pgid "$dir" "$name" 2>/dev/null || true)" \
    "$(head -n 1 "$dir/$name/data/postmaster.pid" 2>/dev/null || true)"; do
    # a pid file left by a killed node may name a process that has nothing to do with it now
    if [ -n "$pid" ] && ps -o args= -p "$pid" 2>/dev/null | grep -qF "$dir/$name/"; then roots="$roots $pid"; fi
  done
  [ -n "$roots" ] || return 0
  ps -eo pid=,ppid= | awk -v roots="$roots" '
    { parent[$1] = $2 }
    END {
      n = split(roots, r, " ")
      for (i = 1; i <= n; i++) keep[r[i]] = 1
      do {
        changed = 0
        for (p in parent) if (!(p in keep) && (parent[p] in keep)) { keep[p] = 1; changed = 1 }
      } while (changed)
      for (p in keep) if (p in parent) print p
    }'
}

# Sends a signal to every process of a node and records their pids in DIR/NAME.faulted. It walks the tree again
# until a pass finds no process it has not signalled (a backend forked while the first pass ran).
signal_node() {
  local dir="$1" name="$2" signal="$3" sent=" " pid pass found first=""
  for pass in 1 2 3 4 5; do
    found=0
    for pid in $(node_pids "$dir" "$name"); do
      case "$sent" in *" $pid "*) continue ;; esac
      [ -n "$first" ] || first=$(date +%s%3N)
      kill "-$signal" "$pid" 2>/dev/null || true
      sent="$sent$pid "
      found=1
    done
    [ "$found" = 1 ] || break
  done
  echo $sent >"$dir/$name.faulted"
  # a stop takes effect when the process next leaves the kernel: wait (up to 5 s) until every one has stopped (T)
  # or had already ended (Z), so that the node is wholly frozen when this returns
  if [ "$signal" = STOP ]; then
    local tries=0
    while [ "$tries" -lt 50 ] && ps -o stat= -p "$(echo $sent | tr ' ' ',')" 2>/dev/null | grep -qv '^[TZ]'; do
      sleep 0.1
      tries=$((tries + 1))
    done
  fi
  # when the fault began (ms since the epoch): the first signal, not this script's return, starts the clock
  echo "${first:-$(date +%s%3N)}"
}

# The state of every process a fault was sent to, one "pid state" a line (ps's letters: T stopped, Z ended but not
# yet reaped; a process that is gone is not listed), and of any process of the node it missed.
fault_check() {
  local dir="$1" name="$2" pid
  for pid in $(cat "$dir/$name.faulted" 2>/dev/null) $(node_pids "$dir" "$name"); do
    ps -o pid=,stat= -p "$pid" 2>/dev/null || true
  done | sort -u
}

primary_of() {
  local dir="$1"
  as_owner env $(node_env "$dir/monitor") pg_autoctl show state --pgdata "$dir/monitor/data" --json 2>/dev/null |
    node -e '
      let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => {
        try {
          const nodes = JSON.parse(s);
          const p = nodes.find((n) => ["single", "primary", "wait_primary"].includes(n.current_group_state) && n.current_group_state === n.assigned_group_state);
          if (p) console.log(p.nodename);
        } catch {}
      });'
}

synchronous_pair() {
  local dir="$1"
  as_owner env $(node_env "$dir/monitor") pg_autoctl show state --pgdata "$dir/monitor/data" --json 2>/dev/null |
    node -e '
      let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => {
        try {
          const nodes = JSON.parse(s);
          const ok = (state) => nodes.some((n) => n.current_group_state === state && n.assigned_group_state === state);
          process.exit(ok("primary") && ok("secondary") ? 0 : 1);
        } catch { process.exit(1); }
      });'
}

wait_pair() {
  local dir="$1" seconds="$2"
  local until=$(( $(date +%s) + seconds ))
  until synchronous_pair "$dir"; do
    if [ "$(date +%s)" -ge "$until" ]; then
      echo "no primary with a synchronous standby after $seconds s:" >&2
      as_owner env $(node_env "$dir/monitor") pg_autoctl show state --pgdata "$dir/monitor/data" >&2 || true
      return 1
    fi
    sleep 0.5
  done
}

case "${1:-}" in
  monitor)
    pgdata="$2" host="$3" port="${4:-5432}"
    as_owner pg_autoctl create monitor --pgdata "$pgdata" --pgport "$port" --hostname "$host" \
      --auth scram-sha-256 --ssl-self-signed
    as_owner pg_autoctl show systemd --pgdata "$pgdata"
    echo "Start it (systemd, as above), then run: $0 tune $pgdata" >&2
    ;;
  tune)
    pgdata="$2"
    port=$(sed -n 's/^port *= *\([0-9]*\).*/\1/p' "$pgdata/postgresql.conf" | tail -n 1)
    tune_monitor "$pgdata" "${port:-5432}"
    ;;
  node)
    pgdata="$2" host="$3" monitor="$4" name="$5" port="${6:-5432}" dbname="${7:-warehouse}"
    as_owner pg_autoctl create postgres --pgdata "$pgdata" --pgport "$port" --hostname "$host" \
      --name "$name" --dbname "$dbname" --monitor "$monitor" --auth scram-sha-256 --ssl-self-signed \
      --pg-hba-lan
    as_owner pg_autoctl show systemd --pgdata "$pgdata"
    ;;
  start)
    dir=$(mktemp -d /tmp/wm-ha.XXXXXX)
    [ "$(id -u)" -eq 0 ] && chown postgres:postgres "$dir"
    base=$(( 20000 + RANDOM % 20000 ))
    mport=$base p1=$(( base + 1 )) p2=$(( base + 2 ))
    for n in monitor node1 node2; do as_owner mkdir -p "$dir/$n/config" "$dir/$n/share" "$dir/$n/run"; done
    as_owner chmod 700 "$dir/monitor/run" "$dir/node1/run" "$dir/node2/run"
    as_owner env $(node_env "$dir/monitor") pg_autoctl create monitor --pgdata "$dir/monitor/data" \
      --pgport "$mport" --hostname 127.0.0.1 --auth trust --no-ssl >"$dir/monitor/create.log" 2>&1
    start_local_node "$dir" monitor
    until as_owner pg_isready -q -h 127.0.0.1 -p "$mport"; do sleep 0.2; done
    sleep 1
    tune_monitor "$dir/monitor/data" "$mport" 127.0.0.1 >/dev/null
    murl="postgres://autoctl_node@127.0.0.1:$mport/pg_auto_failover?sslmode=disable"
    for i in 1 2; do
      port=$(( base + i ))
      as_owner env $(node_env "$dir/node$i") pg_autoctl create postgres --pgdata "$dir/node$i/data" \
        --pgport "$port" --hostname 127.0.0.1 --name "node$i" --dbname warehouse --monitor "$murl" \
        --auth trust --no-ssl >"$dir/node$i/create.log" 2>&1
      start_local_node "$dir" "node$i"
      # the second node clones the first: the first must be the primary before the second is created
      if [ "$i" = 1 ]; then
        until [ "$(primary_of "$dir")" = node1 ]; do sleep 0.5; done
      fi
    done
    wait_pair "$dir" 120 >/dev/null
    echo "postgres://postgres@127.0.0.1:$p1,127.0.0.1:$p2/warehouse $dir"
    ;;
  primary)
    primary_of "$2"
    ;;
  wait)
    wait_pair "$2" "${3:-60}"
    ;;
  kill)
    # every process of the node at once: keeper, postmaster and backends (the machine died)
    signal_node "$2" "$3" KILL
    ;;
  freeze)
    # every process of the node stopped, backends and walsender included (the machine hangs)
    signal_node "$2" "$3" STOP
    cp "$2/$3.faulted" "$2/$3.frozen"
    ;;
  thaw)
    dir="$2" name="$3"
    for pid in $(cat "$dir/$name.frozen"); do kill -CONT "$pid" 2>/dev/null || true; done
    rm -f "$dir/$name.frozen"
    ;;
  check)
    fault_check "$2" "$3"
    ;;
  rejoin)
    start_local_node "$2" "$3"
    ;;
  state)
    as_owner env $(node_env "$2/monitor") pg_autoctl show state --pgdata "$2/monitor/data"
    ;;
  stop)
    dir="$2"
    for n in node1 node2 monitor; do
      if [ -f "$dir/$n.frozen" ]; then
        for pid in $(cat "$dir/$n.frozen"); do kill -CONT "$pid" 2>/dev/null || true; done
      fi
      pgid=$(node_pgid "$dir" "$n" 2>/dev/null || true)
      [ -n "$pgid" ] && kill -TERM -- "-$pgid" 2>/dev/null || true
    done
    sleep 1
    for n in node1 node2 monitor; do
      as_owner pg_ctl -D "$dir/$n/data" -m immediate -w stop >/dev/null 2>&1 || true
      pgid=$(node_pgid "$dir" "$n" 2>/dev/null || true)
      [ -n "$pgid" ] && kill -KILL -- "-$pgid" 2>/dev/null || true
    done
    rm -rf "$dir"
    ;;
  *)
    sed -n '2,22p' "$0" >&2
    exit 2
    ;;
esac
