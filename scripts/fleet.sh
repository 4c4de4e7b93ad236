#!/usr/bin/env bash
# A Tierdesk fleet on this machine, from Debian's packages: a PostgreSQL 15 primary with a streaming replica
# (scripts/pg-cluster.sh), three Tierdesk servers, HAProxy in front of them, and optionally PgBouncer between the
# servers and the primary. docs/operations.md ("A fleet") explains each piece and how it maps to separate machines.
# It installs nothing: start checks for every Debian package it needs and, when any is missing, prints the one
# apt-get line that installs them (scripts/lib/packages.sh).
#
#   npm run fleet -- start [--pgbouncer] [--no-panel]   the last line printed is HAProxy's URL
#   npm run fleet -- status                              each server's URL and state, HAProxy's, the replica's lag
#   npm run fleet -- stop                                stops everything started and removes the databases
#   npm run fleet -- backup [--type full|diff]           a pgBackRest backup of the primary (diff by default)
#   npm run fleet -- restore --to "<ISO time>" --into <dir> [--port <p>]
#                                                        that moment as a separate PostgreSQL; the last line printed
#                                                        is its DATABASE_URL (scripts/lib/backrest.sh)
#
# The caller's environment reaches every server (ADMIN_USERNAME, ADMIN_PASSWORD, DEMO_DATA, PROVIDER_MODE, LOG_LEVEL,
# SETTLEMENT_DELAY_HOURS, ...); the fleet sets each server's PORT, HOST, DATA_DIR, DATABASE_URL,
# DATABASE_REPLICA_URL, PGAPPNAME, and, unless given, TRUST_PROXY (1: HAProxy) and PUBLIC_URL (HAProxy's URL).
# DATA_KEY and PROVIDER_WEBHOOK_SECRET: the caller's, else generated once and kept in FLEET_DIR/secrets.env.
#
# Where it lives and listens (environment, read by start; status and stop read what start recorded):
#   FLEET_DIR            /tmp/tierdesk-fleet   pids, logs, configuration, the servers' DATA_DIRs, the databases (pg/)
#   FLEET_PORT           8080                  HAProxy; the servers take the next three ports, its statistics page
#                                              the one after (FLEET_SERVER_PORTS="a b c", FLEET_STATS_PORT)
#   FLEET_PG_PORT        56001                 the primary; the replica FLEET_PG_PORT+1 (FLEET_REPLICA_PORT),
#                                              PgBouncer FLEET_PG_PORT+2 (FLEET_PGBOUNCER_PORT)
#   FLEET_REPLICA_DELAY  unset                 the replica's recovery_min_apply_delay (2s, 500ms)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

FLEET_DIR=${FLEET_DIR:-/tmp/tierdesk-fleet}
STATE=$FLEET_DIR/fleet.env
HAPROXY_BIN=/usr/sbin/haproxy
PGBOUNCER_BIN=/usr/sbin/pgbouncer
PG_BIN=/usr/lib/postgresql/15/bin
SERVERS=(s1 s2 s3)
START_WAIT=${FLEET_START_WAIT_SECONDS:-240}

say() { echo "$@"; }
fail() {
  echo "fleet: $*" >&2
  exit 1
}

as_postgres() { if [ "$(id -un)" = postgres ]; then "$@"; else su postgres -s /bin/bash -c "$(printf '%q ' "$@")"; fi; }

# shellcheck source=lib/packages.sh
. "$ROOT/scripts/lib/packages.sh"
# shellcheck source=lib/backrest.sh
. "$ROOT/scripts/lib/backrest.sh"

# Alive: there, and not a zombie waiting to be reaped (a stopped process counts as stopped).
alive() { [ -n "${1:-}" ] && kill -0 "$1" 2>/dev/null && ! grep -q '^State:[[:space:]]*Z' "/proc/$1/status" 2>/dev/null; }
# The process of a pid file, when it is still the program that wrote it (not a later process given its id).
pid_of() {
  local file=$1 pattern=$2 pid
  [ -f "$file" ] || return 1
  pid=$(cat "$file")
  alive "$pid" || return 1
  local command
  command=$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null) || return 1
  [[ $command == *"$pattern"* ]] || return 1
  echo "$pid"
}
port_busy() { [ -n "$(ss -ltnH "sport = :$1" 2>/dev/null)" ]; }
random_hex() { od -An -tx1 -N32 /dev/urandom | tr -d ' \n'; }
# HTTP GETs with curl, or with node where curl is not installed; nothing (and no failure) when nobody answers.
http_body() {
  if command -v curl >/dev/null; then
    curl -s -m 3 "$1" 2>/dev/null || true
  else
    node -e 'fetch(process.argv[1], { signal: AbortSignal.timeout(3000) }).then((r) => r.text()).then((t) => process.stdout.write(t), () => {})' "$1"
  fi
}
http_status() {
  if command -v curl >/dev/null; then
    curl -s -o /dev/null -m 3 -w '%{http_code}' "$1" 2>/dev/null || true
  else
    node -e 'fetch(process.argv[1], { signal: AbortSignal.timeout(3000) }).then((r) => process.stdout.write(String(r.status)), () => {})' "$1"
  fi
}

cluster() {
  PGDIR=$FLEET_DIR/pg PGPORT=$PG_PORT REPLICA_PORT=$REPLICA_PORT REPLICA_DELAY=${REPLICA_DELAY:-} \
    BACKREST_DIR=$FLEET_DIR "$ROOT/scripts/pg-cluster.sh" "$@"
}

load_state() {
  [ -f "$STATE" ] || return 1
  # shellcheck disable=SC1090
  . "$STATE"
}

# HAProxy's view of each server (statistics CSV: proxy, server, ..., status in field 18).
haproxy_view() {
  http_body "http://127.0.0.1:$STATS_PORT/;csv" |
    awk -F, '$1 == "tierdesk" && $2 != "BACKEND" { print $2, $18 }'
}

stop_pid() {
  local pid=$1 name=$2
  kill -TERM "$pid" 2>/dev/null || return 0
  for _ in $(seq 1 100); do
    alive "$pid" || return 0
    sleep 0.1
  done
  echo "$name (pid $pid) did not stop within 10 s; killing it" >&2
  kill -KILL "$pid" 2>/dev/null || true
}

do_stop() {
  # The copies `restore` started run whether a fleet does or not.
  backrest_stop_restored
  if ! load_state; then
    say "No fleet recorded in $FLEET_DIR: nothing to stop."
    return 0
  fi
  local pid i
  if pid=$(pid_of "$FLEET_DIR/haproxy.pid" haproxy); then stop_pid "$pid" HAProxy; fi
  rm -f "$FLEET_DIR/haproxy.pid"
  for i in "${!SERVERS[@]}"; do
    if pid=$(pid_of "$FLEET_DIR/${SERVERS[$i]}.pid" dist/server/main.js); then stop_pid "$pid" "server ${SERVERS[$i]}"; fi
    rm -f "$FLEET_DIR/${SERVERS[$i]}.pid"
  done
  if pid=$(pid_of "$FLEET_DIR/pgbouncer/pgbouncer.pid" pgbouncer); then stop_pid "$pid" PgBouncer; fi
  cluster stop
  rm -f "$STATE"
  say "Fleet in $FLEET_DIR stopped (logs kept there)."
}

do_status() {
  load_state || fail "no fleet recorded in $FLEET_DIR (start one with: npm run fleet -- start)"
  local all_up=0 i name url health pid state
  declare -A balancer=()
  while read -r name state; do balancer[$name]=$state; done < <(haproxy_view)
  for i in "${!SERVERS[@]}"; do
    name=${SERVERS[$i]}
    url=http://127.0.0.1:${SERVER_PORT_LIST[$i]}
    health=$(http_status "$url/healthz")
    if pid=$(pid_of "$FLEET_DIR/$name.pid" dist/server/main.js); then
      if [ "$health" = 200 ]; then state=up; else state="down (/healthz: ${health:-no answer})"; fi
    else
      state="down (not running)"
      pid=-
    fi
    [ "${state%% *}" = up ] || all_up=1
    say "server $name $url $state pid=$pid haproxy=${balancer[$name]:-unknown}"
  done
  if pid_of "$FLEET_DIR/haproxy.pid" haproxy >/dev/null; then
    say "haproxy http://127.0.0.1:$FLEET_PORT up (statistics http://127.0.0.1:$STATS_PORT/)"
  else
    say "haproxy http://127.0.0.1:$FLEET_PORT down"
    all_up=1
  fi
  if [ "$PGBOUNCER" = 1 ]; then
    if pid_of "$FLEET_DIR/pgbouncer/pgbouncer.pid" pgbouncer >/dev/null; then
      say "pgbouncer postgres://postgres@127.0.0.1:$PGBOUNCER_PORT/postgres up (session pooling)"
    else
      say "pgbouncer postgres://postgres@127.0.0.1:$PGBOUNCER_PORT/postgres down"
      all_up=1
    fi
  fi
  cluster status
  return $all_up
}

write_haproxy_config() {
  local i
  {
    cat <<EOF
# Written by scripts/fleet.sh. docs/operations.md ("A fleet") explains each choice.
global
    maxconn 2000
    stats socket $FLEET_DIR/haproxy.sock mode 600 level admin

defaults
    mode http
    log stdout format raw local0
    option httplog
    # Only what went wrong is logged: errors, retries, redispatches, health changes.
    option dontlog-normal
    option forwardfor
    timeout connect 2s
    timeout client 60s
    timeout server 60s
    # The event stream (GET /api/v1/events) stays open for hours: it writes a comment line every 15 s, well inside the
    # client and server timeouts, so they never end a live one. A connection turned into a tunnel gets an hour.
    timeout tunnel 1h
    timeout http-request 10s
    timeout http-keep-alive 10s
    timeout check 3s

frontend tierdesk_in
    bind 127.0.0.1:$FLEET_PORT
    default_backend tierdesk

backend tierdesk
    balance roundrobin
    option httpchk GET /healthz
    http-check expect status 200
    # Which server answered, for people and for npm run fleet:test.
    http-response set-header X-Tierdesk-Server %s
    # A request is sent to another server when no connection could be made (it never reached a server): always safe.
    retries 3
    option redispatch 1
    # When a server dies holding the request, it is sent again only when sending it twice cannot do anything twice:
    # reads, the partner's callbacks (the eventId makes a repeat answer the first answer), and recorded sales with
    # an Idempotency-Key. Every other POST that may have reached a server is answered 502, never resent.
    retry-on conn-failure empty-response
    acl read_only method GET HEAD OPTIONS
    acl callback path /api/v1/bought_products/callback
    acl sale_create path /api/v1/bought_products/create
    acl keyed req.hdr(idempotency-key) -m found
    http-request disable-l7-retry if !read_only !callback !sale_create
    http-request disable-l7-retry if sale_create !keyed
    # A dead server leaves the rotation quickly: frequent checks, more frequent once one failed or once live traffic
    # found its port closed; two failed checks mark it down, two passed ones bring it back.
    default-server inter 1s fastinter 250ms downinter 1s fall 2 rise 2 observe layer4 error-limit 1 on-error fastinter
EOF
    for i in "${!SERVERS[@]}"; do
      echo "    server ${SERVERS[$i]} 127.0.0.1:${SERVER_PORT_LIST[$i]} check"
    done
    cat <<EOF

frontend statistics
    bind 127.0.0.1:$STATS_PORT
    stats enable
    stats uri /
    stats refresh 5s
EOF
  } >"$FLEET_DIR/haproxy.cfg"
}

write_pgbouncer_config() {
  local dir=$FLEET_DIR/pgbouncer
  mkdir -p "$dir"
  echo '"postgres" ""' >"$dir/userlist.txt"
  cat >"$dir/pgbouncer.ini" <<EOF2
; Written by scripts/fleet.sh. Session pooling: PgBouncer 1.18 keeps no prepared statements across transactions,
; and Tierdesk prepares its hottest statements (docs/operations.md, "PgBouncer").
[databases]
postgres = host=127.0.0.1 port=$PG_PORT dbname=postgres

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $PGBOUNCER_PORT
unix_socket_dir =
auth_type = trust
auth_file = $dir/userlist.txt
pool_mode = session
; Three servers with pools of 10 each hold up to 30 client connections, each its own server connection.
default_pool_size = 40
max_client_conn = 200
server_reset_query = DISCARD ALL
ignore_startup_parameters = extra_float_digits
logfile = $dir/pgbouncer.log
pidfile = $dir/pgbouncer.pid
EOF2
  chown -R postgres "$dir"
}

start_pgbouncer() {
  write_pgbouncer_config
  # PgBouncer refuses to run as root: it runs as the postgres OS user, like the cluster.
  as_postgres "$PGBOUNCER_BIN" -d -q "$FLEET_DIR/pgbouncer/pgbouncer.ini"
  local deadline=$((SECONDS + 30))
  until "$PG_BIN/psql" -X -A -t -q -h 127.0.0.1 -p "$PGBOUNCER_PORT" -U postgres -d postgres -c 'select 1' >/dev/null 2>&1; do
    [ $SECONDS -lt $deadline ] || fail "PgBouncer did not answer on port $PGBOUNCER_PORT within 30 s; see $FLEET_DIR/pgbouncer/pgbouncer.log"
    sleep 0.2
  done
}

# One server, detached (its own session), its output in FLEET_DIR/<name>.log and its pid in FLEET_DIR/<name>.pid.
start_server() {
  local i=$1 name=${SERVERS[$1]} port=${SERVER_PORT_LIST[$1]}
  shift
  mkdir -p "$FLEET_DIR/$name"
  (
    export PORT=$port HOST=127.0.0.1 DATA_DIR=$FLEET_DIR/$name PGAPPNAME=tierdesk-$name
    export DATABASE_URL=$SERVER_DATABASE_URL DATABASE_REPLICA_URL DATA_KEY PROVIDER_WEBHOOK_SECRET
    export TRUST_PROXY=$SERVER_TRUST_PROXY PUBLIC_URL=$SERVER_PUBLIC_URL
    exec setsid node dist/server/main.js "$@" </dev/null >"$FLEET_DIR/$name.log" 2>&1
  ) &
  echo $! >"$FLEET_DIR/$name.pid"
}

# Waits until the server says it is running (it has migrated, and seeded when it was the first).
wait_server() {
  local name=${SERVERS[$1]} pid deadline=$((SECONDS + START_WAIT))
  pid=$(cat "$FLEET_DIR/$name.pid")
  until grep -q 'Tierdesk is running' "$FLEET_DIR/$name.log" 2>/dev/null; do
    if ! alive "$pid"; then
      tail -n 20 "$FLEET_DIR/$name.log" >&2 || true
      fail "server $name stopped while starting; its log: $FLEET_DIR/$name.log"
    fi
    [ $SECONDS -lt $deadline ] || fail "server $name did not start within ${START_WAIT}s; its log: $FLEET_DIR/$name.log"
    sleep 0.2
  done
}

start_haproxy() {
  write_haproxy_config
  "$HAPROXY_BIN" -c -q -f "$FLEET_DIR/haproxy.cfg" >&2 || fail "HAProxy refused $FLEET_DIR/haproxy.cfg"
  (exec setsid "$HAPROXY_BIN" -db -f "$FLEET_DIR/haproxy.cfg" </dev/null >"$FLEET_DIR/haproxy.log" 2>&1) &
  echo $! >"$FLEET_DIR/haproxy.pid"
  # Up when HAProxy's own health checks (GET /healthz) pass on every server.
  local deadline=$((SECONDS + 60)) up
  while :; do
    up=$(haproxy_view | awk 'NF == 2 && $2 == "UP"' | wc -l)
    [ "$up" -eq "${#SERVERS[@]}" ] && return 0
    alive "$(cat "$FLEET_DIR/haproxy.pid")" || fail "HAProxy stopped; its log: $FLEET_DIR/haproxy.log"
    if [ $SECONDS -ge $deadline ]; then
      haproxy_view >&2 || true
      fail "HAProxy did not see every server pass GET /healthz within 60 s; its log: $FLEET_DIR/haproxy.log"
    fi
    sleep 0.2
  done
}

do_start() {
  local pgbouncer=0 build_panel=1 arg want_port=${FLEET_PORT:-8080}
  for arg in "$@"; do
    case "$arg" in
      --pgbouncer) pgbouncer=1 ;;
      --no-panel) build_panel=0 ;;
      *) fail "unknown option $arg (start takes --pgbouncer and --no-panel)" ;;
    esac
  done
  # Every Debian program the fleet runs, checked before anything starts: missing ones are named in one apt-get line.
  local needs=("$HAPROXY_BIN=haproxy" ss=iproute2 setsid=util-linux "${POSTGRES_15_NEEDS[@]}" "$BACKREST_BIN=pgbackrest")
  [ $pgbouncer = 0 ] || needs+=("$PGBOUNCER_BIN=pgbouncer")
  require_packages "${needs[@]}"
  if load_state; then
    local running=0 name
    pid_of "$FLEET_DIR/haproxy.pid" haproxy >/dev/null && running=1
    for name in "${SERVERS[@]}"; do pid_of "$FLEET_DIR/$name.pid" dist/server/main.js >/dev/null && running=1; done
    [ $running = 0 ] || fail "a fleet is already running in $FLEET_DIR; stop it first: npm run fleet -- stop"
    do_stop >&2
  fi

  # (A stale state file read above named its own FLEET_PORT: the caller's wins.)
  FLEET_PORT=$want_port
  read -r -a SERVER_PORT_LIST <<<"${FLEET_SERVER_PORTS:-$((FLEET_PORT + 1)) $((FLEET_PORT + 2)) $((FLEET_PORT + 3))}"
  [ "${#SERVER_PORT_LIST[@]}" -eq 3 ] || fail "FLEET_SERVER_PORTS must name three ports"
  STATS_PORT=${FLEET_STATS_PORT:-$((FLEET_PORT + 4))}
  PG_PORT=${FLEET_PG_PORT:-56001}
  REPLICA_PORT=${FLEET_REPLICA_PORT:-$((PG_PORT + 1))}
  PGBOUNCER_PORT=${FLEET_PGBOUNCER_PORT:-$((PG_PORT + 2))}
  REPLICA_DELAY=${FLEET_REPLICA_DELAY:-}
  PGBOUNCER=$pgbouncer
  local port
  for port in "$FLEET_PORT" "${SERVER_PORT_LIST[@]}" "$STATS_PORT" "$PG_PORT" "$REPLICA_PORT"; do
    ! port_busy "$port" || fail "port $port is in use (set FLEET_PORT / FLEET_PG_PORT to other ports)"
  done
  [ $pgbouncer = 0 ] || ! port_busy "$PGBOUNCER_PORT" || fail "port $PGBOUNCER_PORT (PgBouncer) is in use"

  mkdir -p "$FLEET_DIR"
  # The postgres OS user keeps the databases (and PgBouncer's files) under FLEET_DIR: it must be able to pass through.
  chmod 711 "$FLEET_DIR"
  if [ -z "${DATA_KEY:-}" ] || [ -z "${PROVIDER_WEBHOOK_SECRET:-}" ]; then
    if [ ! -f "$FLEET_DIR/secrets.env" ]; then
      (umask 077 && printf 'DATA_KEY=%s\nPROVIDER_WEBHOOK_SECRET=%s\n' "$(random_hex)" "$(random_hex)" >"$FLEET_DIR/secrets.env")
    fi
    local kept_key kept_secret
    kept_key=$(sed -n 's/^DATA_KEY=//p' "$FLEET_DIR/secrets.env")
    kept_secret=$(sed -n 's/^PROVIDER_WEBHOOK_SECRET=//p' "$FLEET_DIR/secrets.env")
    DATA_KEY=${DATA_KEY:-$kept_key}
    PROVIDER_WEBHOOK_SECRET=${PROVIDER_WEBHOOK_SECRET:-$kept_secret}
  fi
  HAPROXY_URL=http://127.0.0.1:$FLEET_PORT
  SERVER_TRUST_PROXY=${TRUST_PROXY:-1}
  SERVER_PUBLIC_URL=${PUBLIC_URL:-$HAPROXY_URL}

  {
    echo "# The fleet started by scripts/fleet.sh on $(date -u +%FT%TZ); read by its status and stop."
    echo "FLEET_PORT=$FLEET_PORT"
    echo "STATS_PORT=$STATS_PORT"
    echo "SERVER_PORT_LIST=(${SERVER_PORT_LIST[*]})"
    echo "PG_PORT=$PG_PORT"
    echo "REPLICA_PORT=$REPLICA_PORT"
    echo "REPLICA_DELAY=$REPLICA_DELAY"
    echo "PGBOUNCER=$PGBOUNCER"
    echo "PGBOUNCER_PORT=$PGBOUNCER_PORT"
    echo "HAPROXY_URL=$HAPROXY_URL"
    for i in "${!SERVERS[@]}"; do echo "SERVER_URL_${SERVERS[$i]}=http://127.0.0.1:${SERVER_PORT_LIST[$i]}"; done
  } >"$STATE"
  FLEET_STARTED=0
  trap '[ "$FLEET_STARTED" = 1 ] || { echo "fleet: the start failed; stopping what it started" >&2; do_stop >&2; }' EXIT

  local urls
  urls=$(cluster start)
  DATABASE_URL=$(sed -n 's/^DATABASE_URL=//p' <<<"$urls")
  DATABASE_REPLICA_URL=$(sed -n 's/^DATABASE_REPLICA_URL=//p' <<<"$urls")
  [ -n "$DATABASE_URL" ] && [ -n "$DATABASE_REPLICA_URL" ] || fail "scripts/pg-cluster.sh start printed no URLs"
  SERVER_DATABASE_URL=$DATABASE_URL
  if [ $pgbouncer = 1 ]; then
    start_pgbouncer
    SERVER_DATABASE_URL=postgres://postgres@127.0.0.1:$PGBOUNCER_PORT/postgres
  fi
  {
    echo "DATABASE_URL=$DATABASE_URL"
    echo "DATABASE_REPLICA_URL=$DATABASE_REPLICA_URL"
    echo "SERVER_DATABASE_URL=$SERVER_DATABASE_URL"
  } >>"$STATE"

  # The servers run what `npm start` runs: the server compiled to dist/server, built here once when its sources
  # changed. The first server alone then migrates the empty database, seeds it, and builds the panel when its
  # sources changed (once, not three builds at once); then the other two, which find all of that done.
  node scripts/build-server.mjs >&2 || fail "the server did not build; see the lines above"
  if [ $build_panel = 1 ]; then start_server 0 --build-panel; else start_server 0; fi
  wait_server 0
  start_server 1
  start_server 2
  wait_server 1
  wait_server 2
  start_haproxy
  FLEET_STARTED=1

  say "Tierdesk fleet in $FLEET_DIR:"
  say "  PostgreSQL primary $DATABASE_URL, streaming replica $DATABASE_REPLICA_URL${REPLICA_DELAY:+ (applying $REPLICA_DELAY late)}"
  say "  pgBackRest repository $(backrest_repo), WAL archived, a full backup taken (npm run fleet -- backup / restore)"
  if [ $pgbouncer = 1 ]; then
    say "  $("$PGBOUNCER_BIN" --version | head -n 1) in session pooling: $SERVER_DATABASE_URL"
  fi
  for i in "${!SERVERS[@]}"; do
    say "  server ${SERVERS[$i]} http://127.0.0.1:${SERVER_PORT_LIST[$i]} (log $FLEET_DIR/${SERVERS[$i]}.log)"
  done
  say "  HAProxy $HAPROXY_URL (statistics http://127.0.0.1:$STATS_PORT/)"
  [ ! -f "$FLEET_DIR/secrets.env" ] || say "  DATA_KEY and PROVIDER_WEBHOOK_SECRET: $FLEET_DIR/secrets.env"
  # The sign-ins as the first server printed them.
  grep -E '^  (Admin sign-in|Demo sign-ins)|^    distributor' "$FLEET_DIR/s1.log" || true
  say "  Status: npm run fleet -- status; stop: npm run fleet -- stop"
  say "$HAPROXY_URL"
}

case "${1:-}" in
  start)
    shift
    do_start "$@"
    ;;
  stop) do_stop ;;
  status) do_status ;;
  backup)
    shift
    backrest_backup_command "$@"
    ;;
  restore)
    shift
    backrest_restore_command "$@"
    ;;
  *)
    echo "usage: npm run fleet -- start [--pgbouncer] [--no-panel] | status | stop | backup [--type full|diff]" \
      "| restore --to \"<ISO time>\" --into <dir> [--port <p>]" >&2
    exit 2
    ;;
esac
