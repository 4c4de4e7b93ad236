#!/usr/bin/env bash
# Starts or stops a throw-away PostgreSQL 15 primary with a streaming replica on 127.0.0.1, for the replica tests
# and the fleet. Runs as the `postgres` OS user with both data directories under PGDIR (like pg-throwaway.sh).
#   PGDIR=/tmp/x PGPORT=56001 REPLICA_PORT=56002 REPLICA_DELAY=2s scripts/pg-cluster.sh start
#       -> prints DATABASE_URL=... and DATABASE_REPLICA_URL=... (two lines, nothing else on stdout)
#   scripts/pg-cluster.sh stop            stops both servers and removes PGDIR
#   scripts/pg-cluster.sh replica-stop    stops the replica only
#   scripts/pg-cluster.sh replica-start   starts the replica again and waits until it streams
#   scripts/pg-cluster.sh primary-stop    stops the primary only (a fast shutdown: its sessions are ended)
#   scripts/pg-cluster.sh primary-start   starts the primary again
#   scripts/pg-cluster.sh promote         promotes the replica to a primary (a failover) and waits until it takes writes
#   scripts/pg-cluster.sh status          one line per server: URL, up/down, and the replica's replay lag
# REPLICA_PORT defaults to PGPORT+1. REPLICA_DELAY (a PostgreSQL duration such as 2s or 500ms) becomes the
# replica's recovery_min_apply_delay; without it the replica applies at once.
# BACKREST_DIR (the fleet passes its FLEET_DIR): start begins a pgBackRest repository there (scripts/lib/backrest.sh),
# both servers archive their WAL into it (archive_mode = on; a replica archives once promoted), and a first full
# backup is taken before start returns, so a point-in-time restore has a base before any write.
# Every verb takes the same PGDIR/PGPORT/REPLICA_PORT environment. Needs Debian's postgresql-15: when it is missing,
# every verb prints the apt-get line that installs it and fails (scripts/lib/packages.sh).
set -euo pipefail
PGDIR=${PGDIR:-/tmp/tierdesk-cluster}
PGPORT=${PGPORT:-56001}
REPLICA_PORT=${REPLICA_PORT:-$((PGPORT + 1))}
REPLICA_DELAY=${REPLICA_DELAY:-}
BACKREST_DIR=${BACKREST_DIR:-}
BIN=/usr/lib/postgresql/15/bin
PRIMARY=$PGDIR/primary
REPLICA=$PGDIR/replica
SLOT=tierdesk_replica
WAIT_SECONDS=${PG_CLUSTER_WAIT_SECONDS:-60}
# shellcheck source=lib/packages.sh
. "$(dirname "$0")/lib/packages.sh"
# Every verb runs PostgreSQL 15's programs: missing, the apt-get line that installs them is printed and nothing runs.
case "${1:-}" in start | stop | replica-stop | replica-start | primary-stop | primary-start | promote | status)
  require_packages "${POSTGRES_15_NEEDS[@]}"
  ;;
esac
if [ -n "$BACKREST_DIR" ]; then
  require_packages /usr/bin/pgbackrest=pgbackrest
  FLEET_DIR=$BACKREST_DIR
  # shellcheck source=lib/backrest.sh
  . "$(dirname "$0")/lib/backrest.sh"
fi

as_postgres() { if [ "$(id -un)" = postgres ]; then "$@"; else su postgres -s /bin/bash -c "$(printf '%q ' "$@")"; fi; }
url() { echo "postgres://postgres@127.0.0.1:$1/postgres"; }
# One value from a server, or nothing when it does not answer.
query() { "$BIN/psql" -X -A -t -q -h 127.0.0.1 -p "$1" -U postgres -d postgres -c "$2" 2>/dev/null || true; }
running() { [ -f "$1/postmaster.pid" ] && as_postgres "$BIN/pg_ctl" -D "$1" status >/dev/null 2>&1; }

stop_server() {
  if [ -d "$1" ] && running "$1"; then as_postgres "$BIN/pg_ctl" -D "$1" -m fast -w stop >&2; fi
}

# The replica streams when the primary lists a streaming WAL sender and the replica is in recovery.
wait_streaming() {
  local deadline=$((SECONDS + WAIT_SECONDS))
  while [ $SECONDS -lt $deadline ]; do
    if [ "$(query "$PGPORT" "select count(*) from pg_stat_replication where state = 'streaming'")" -ge 1 ] 2>/dev/null &&
      [ "$(query "$REPLICA_PORT" "select pg_is_in_recovery()")" = t ]; then
      return 0
    fi
    sleep 0.2
  done
  echo "the replica on port $REPLICA_PORT did not start streaming from port $PGPORT within ${WAIT_SECONDS}s;" \
    "see $PGDIR/replica.log" >&2
  return 1
}

start_replica() {
  as_postgres "$BIN/pg_ctl" -D "$REPLICA" -l "$PGDIR/replica.log" -w -t "$WAIT_SECONDS" start >&2
  wait_streaming
}

case "${1:-}" in
  start)
    stop_server "$REPLICA"
    stop_server "$PRIMARY"
    rm -rf "$PGDIR" && mkdir -p "$PGDIR" && chown postgres "$PGDIR"
    as_postgres "$BIN/initdb" -D "$PRIMARY" -U postgres --auth=trust -E UTF8 >/dev/null
    if [ -n "$BACKREST_DIR" ]; then
      backrest_new_repository
      backrest_write_config "$PRIMARY:$PGPORT:$PGDIR" "$REPLICA:$REPLICA_PORT:$PGDIR"
      printf "archive_mode = on\narchive_command = '%s'\n" "$(backrest_archive_command)" |
        as_postgres tee -a "$PRIMARY/postgresql.conf" >/dev/null
    fi
    # pg_basebackup copies postgresql.conf, so the replica inherits all but what its postgresql.auto.conf overrides.
    as_postgres tee -a "$PRIMARY/postgresql.conf" >/dev/null <<EOF
listen_addresses = '127.0.0.1'
port = $PGPORT
unix_socket_directories = '$PGDIR'
wal_level = replica
max_wal_senders = 10
max_replication_slots = 10
hot_standby = on
hot_standby_feedback = on
fsync = off
full_page_writes = off
EOF
    as_postgres tee -a "$PRIMARY/pg_hba.conf" >/dev/null <<EOF
host replication postgres 127.0.0.1/32 trust
EOF
    as_postgres "$BIN/pg_ctl" -D "$PRIMARY" -l "$PGDIR/primary.log" -w -t "$WAIT_SECONDS" start >&2
    # Before the replica's base backup ends its WAL segment, so the primary's first archive_command succeeds.
    [ -z "$BACKREST_DIR" ] || backrest_stanza_create
    # -R writes standby.signal and primary_conninfo; the slot keeps the WAL a stopped replica still needs.
    as_postgres "$BIN/pg_basebackup" -h 127.0.0.1 -p "$PGPORT" -U postgres -D "$REPLICA" -R -X stream -C -S "$SLOT" >&2
    {
      echo "port = $REPLICA_PORT"
      echo "hot_standby = on"
      if [ -n "$REPLICA_DELAY" ]; then echo "recovery_min_apply_delay = '$REPLICA_DELAY'"; fi
    } | as_postgres tee -a "$REPLICA/postgresql.auto.conf" >/dev/null
    start_replica
    [ -z "$BACKREST_DIR" ] || backrest_backup full >&2
    echo "DATABASE_URL=$(url "$PGPORT")"
    echo "DATABASE_REPLICA_URL=$(url "$REPLICA_PORT")"
    ;;
  stop)
    stop_server "$REPLICA"
    stop_server "$PRIMARY"
    rm -rf "$PGDIR"
    ;;
  replica-stop)
    stop_server "$REPLICA"
    ;;
  replica-start)
    if running "$REPLICA"; then wait_streaming; else start_replica; fi
    ;;
  primary-stop)
    stop_server "$PRIMARY"
    ;;
  primary-start)
    running "$PRIMARY" || as_postgres "$BIN/pg_ctl" -D "$PRIMARY" -l "$PGDIR/primary.log" -w -t "$WAIT_SECONDS" start >&2
    ;;
  promote)
    as_postgres "$BIN/pg_ctl" -D "$REPLICA" -w -t "$WAIT_SECONDS" promote >&2
    ;;
  status)
    if [ -n "$(query "$PGPORT" "select 1")" ]; then p=up; else p=down; fi
    echo "primary $(url "$PGPORT") $p"
    # Lag, as the server measures it (db/replica.ts): none when the replica has replayed all it has received, else
    # the age of the last transaction it replayed; unknown before it has replayed one.
    lag=$(query "$REPLICA_PORT" "select case
        when pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() then '0.000s'
        when pg_last_xact_replay_timestamp() is null then 'unknown'
        else round(extract(epoch from now() - pg_last_xact_replay_timestamp())::numeric, 3) || 's' end")
    if [ -n "$lag" ]; then echo "replica $(url "$REPLICA_PORT") up lag=$lag"; else echo "replica $(url "$REPLICA_PORT") down"; fi
    ;;
  *)
    echo "usage: $0 start|stop|replica-stop|replica-start|primary-stop|primary-start|promote|status" >&2
    exit 2
    ;;
esac
