#!/usr/bin/env bash
# A Tierdesk fleet on this machine, from Debian's packages: PostgreSQL 15 nodes kept by Patroni 3.0 (two, or three
# with --nodes 3) with a single-member etcd 3.4 as their store, three Tierdesk servers, HAProxy in front of the
# servers and in front of the database (a write port on the leader, a read port on the replicas, by Patroni's REST
# health checks), and optionally PgBouncer between the servers and HAProxy's write port. docs/operations.md
# ("A fleet") explains each piece and how it maps to separate machines.
# It installs nothing: start checks for every Debian package it needs and, when any is missing, prints the one
# apt-get line that installs them (scripts/lib/packages.sh).
#
#   npm run fleet -- start [--nodes 2|3] [--pgbouncer] [--no-panel]   the last line printed is HAProxy's URL
#   npm run fleet -- status               each server's URL and state, HAProxy's, the leader, each replica's lag
#                                         and every node's timeline
#   npm run fleet -- switchover [--to <node>]   moves the leader on purpose (Patroni's switchover); prints the new one
#   npm run fleet -- node-stop <node>     stops one node's Patroni and its PostgreSQL (a node taken down)
#   npm run fleet -- node-start <node>    starts one node's Patroni again (as systemd would); it rejoins as a replica
#   npm run fleet -- stop                 stops everything started and removes the databases
#   npm run fleet -- backup [--type full|diff]   a pgBackRest backup of the leader (diff by default)
#   npm run fleet -- restore --to "<ISO time>" --into <dir> [--port <p>]
#                                         that moment as a separate PostgreSQL; the last line printed is its
#                                         DATABASE_URL (scripts/lib/backrest.sh)
#
# The caller's environment reaches every server (ADMIN_USERNAME, ADMIN_PASSWORD, DEMO_DATA, PROVIDER_MODE, LOG_LEVEL,
# SETTLEMENT_DELAY_HOURS, ...); the fleet sets each server's PORT, HOST, DATA_DIR, DATABASE_URL (HAProxy's write
# port, or PgBouncer), DATABASE_REPLICA_URL (HAProxy's read port), PGAPPNAME, and, unless given, TRUST_PROXY
# (1: HAProxy) and PUBLIC_URL (HAProxy's URL).
# DATA_KEY and PROVIDER_WEBHOOK_SECRET: the caller's, else generated once and kept in FLEET_DIR/secrets.env.
#
# Where it lives and listens (environment, read by start; the other verbs read what start recorded in fleet.env):
#   FLEET_DIR            /tmp/tierdesk-fleet   pids, logs, configuration, the servers' DATA_DIRs, the databases (pg/),
#                                              etcd's data (etcd/)
#   FLEET_PORT           8080                  HAProxy; the servers take the next three ports, its statistics page
#                                              the one after (FLEET_SERVER_PORTS="a b c", FLEET_STATS_PORT)
#   FLEET_PG_PORT        56001                 the first PostgreSQL node (pg1); pg2 FLEET_PG_PORT+1
#                                              (FLEET_REPLICA_PORT), PgBouncer FLEET_PG_PORT+2 (FLEET_PGBOUNCER_PORT),
#                                              pg3 FLEET_PG_PORT+3 (FLEET_NODE_PORTS="a b c" names them all)
#   FLEET_PG_WRITE_PORT  FLEET_PG_PORT+4       HAProxy's port on the leader (the servers' DATABASE_URL)
#   FLEET_PG_READ_PORT   FLEET_PG_PORT+5       HAProxy's port on the replicas (DATABASE_REPLICA_URL)
#   FLEET_ETCD_PORT      FLEET_PG_PORT+6       etcd's client port; its peer port the next (FLEET_ETCD_PEER_PORT)
#   FLEET_REST_PORTS     FLEET_PG_PORT+8..     each node's Patroni REST API ("a b c")
#   FLEET_REPLICA_DELAY  unset                 the replicas' recovery_min_apply_delay (2s, 500ms)
#   FLEET_START_WAIT_SECONDS 240               how long start waits for the cluster, and for each server
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

# ---- the database: etcd, a Patroni per PostgreSQL node ---------------------------------------------------------
PATRONI_BIN=/usr/bin/patroni
PATRONICTL_BIN=/usr/bin/patronictl
ETCD_BIN=/usr/bin/etcd
PATRONI_SCOPE=tierdesk

# A node's fields from PG_NODES ("name:port:data_dir:rest_port ..." in fleet.env).
node_field() {
  local want=$1 field=$2 entry name port dir rest
  for entry in $PG_NODES; do
    IFS=: read -r name port dir rest <<<"$entry"
    [ "$name" = "$want" ] || continue
    case $field in port) echo "$port" ;; dir) echo "$dir" ;; rest) echo "$rest" ;; esac
    return 0
  done
  fail "no node named $want (the nodes: $(node_names))"
}
node_names() {
  local entry names=()
  for entry in $PG_NODES; do names+=("${entry%%:*}"); done
  echo "${names[*]}"
}

start_etcd() {
  mkdir -p "$FLEET_DIR/etcd"
  chmod 700 "$FLEET_DIR/etcd"
  local peer=http://127.0.0.1:$ETCD_PEER_PORT client=http://127.0.0.1:$ETCD_PORT
  (exec setsid "$ETCD_BIN" --name fleet --data-dir "$FLEET_DIR/etcd/data" \
    --listen-client-urls "$client" --advertise-client-urls "$client" \
    --listen-peer-urls "$peer" --initial-advertise-peer-urls "$peer" \
    --initial-cluster "fleet=$peer" --initial-cluster-state new --initial-cluster-token "tierdesk-$ETCD_PORT" \
    </dev/null >"$FLEET_DIR/etcd.log" 2>&1) &
  echo $! >"$FLEET_DIR/etcd.pid"
  local deadline=$((SECONDS + 30))
  until [[ $(http_body "$client/health") == *'"health":"true"'* ]]; do
    alive "$(cat "$FLEET_DIR/etcd.pid")" || fail "etcd stopped while starting; its log: $FLEET_DIR/etcd.log"
    [ $SECONDS -lt $deadline ] || fail "etcd did not answer on port $ETCD_PORT within 30 s; its log: $FLEET_DIR/etcd.log"
    sleep 0.2
  done
}

# One node's Patroni configuration (Patroni 3.0's YAML keys; docs/operations.md, "A fleet").
write_patroni_config() {
  local name=$1 port dir rest
  port=$(node_field "$name" port)
  dir=$(node_field "$name" dir)
  rest=$(node_field "$name" rest)
  as_postgres tee "$FLEET_DIR/pg/$name.yml" >/dev/null <<EOF2
# Written by scripts/fleet.sh.
scope: $PATRONI_SCOPE
name: $name
log:
  level: INFO
restapi:
  listen: 127.0.0.1:$rest
  connect_address: 127.0.0.1:$rest
etcd3:
  hosts: 127.0.0.1:$ETCD_PORT
bootstrap:
  # The cluster's shared settings, written to etcd once, when the first node initialises the cluster.
  dcs:
    # The leader's key lives ttl seconds unless renewed (every loop_wait); a dead leader's Patroni is noticed then.
    ttl: 15
    loop_wait: 2
    retry_timeout: 5
    maximum_lag_on_failover: 1048576
    # An acknowledged commit is on two nodes; only the synchronous standby may be promoted. With no standby left
    # (not strict), the leader goes on alone rather than stop taking writes.
    synchronous_mode: true
    synchronous_mode_strict: false
    # A leader whose PostgreSQL crashed is failed over at once rather than restarted in place.
    primary_start_timeout: 0
    postgresql:
      use_pg_rewind: true
      use_slots: true
      parameters:
        wal_level: replica
        # pg_rewind needs hint bits in the WAL (or checksums) and full page writes.
        wal_log_hints: 'on'
        full_page_writes: 'on'
        hot_standby: 'on'
        hot_standby_feedback: 'on'
        max_wal_senders: 10
        max_replication_slots: 10
        wal_keep_size: 256MB
        max_connections: 200
        # This fleet's processes are killed, never its machine (the OS keeps what was written): production keeps fsync.
        fsync: 'off'
  initdb:
  - encoding: UTF8
  - auth: trust
  pg_hba:
  - local all all trust
  - host all all 127.0.0.1/32 trust
  - host replication all 127.0.0.1/32 trust
postgresql:
  listen: 127.0.0.1:$port
  connect_address: 127.0.0.1:$port
  data_dir: $dir
  bin_dir: $PG_BIN
  pgpass: $FLEET_DIR/pg/$name.pgpass
  authentication:
    superuser:
      username: postgres
    replication:
      username: postgres
    rewind:
      username: postgres
  parameters:
    unix_socket_directories: $FLEET_DIR/pg
    archive_mode: 'on'
    archive_command: '$(backrest_archive_command)'
$([ -z "$REPLICA_DELAY" ] || printf '  recovery_conf:\n    recovery_min_apply_delay: %s\n' "$REPLICA_DELAY")
EOF2
}

# One node's Patroni, detached, as the postgres OS user; its pid in FLEET_DIR/pg/<node>.pid, its log (and its
# PostgreSQL's) in FLEET_DIR/patroni-<node>.log, kept by stop.
start_patroni() {
  local name=$1 log=$FLEET_DIR/patroni-$1.log pidfile=$FLEET_DIR/pg/$1.pid
  touch "$log" && chown postgres "$log"
  as_postgres bash -c "setsid $PATRONI_BIN $FLEET_DIR/pg/$name.yml </dev/null >>$log 2>&1 & echo \$! >$pidfile"
}
patroni_pid() { pid_of "$FLEET_DIR/pg/$1.pid" "$PATRONI_BIN"; }
# The PostgreSQL a node's Patroni started (its postmaster), when it runs.
postmaster_pid() {
  local file dir pid
  dir=$(node_field "$1" dir)
  file=$dir/postmaster.pid
  [ -f "$file" ] || return 1
  pid=$(head -n 1 "$file")
  alive "$pid" || return 1
  echo "$pid"
}

# Patroni's view of the cluster (GET /cluster) from the first node whose REST API answers, as lines:
# "<role> <name> <host:port> <state> timeline=<n> lag=<bytes>" (lag only for replicas).
cluster_view() {
  local entry name rest body
  for entry in $PG_NODES; do
    rest=${entry##*:}
    body=$(http_body "http://127.0.0.1:$rest/cluster")
    [ -n "$body" ] || continue
    python3 -c '
import json, sys
for m in json.loads(sys.argv[1]).get("members", []):
    line = "%s %s %s:%s %s timeline=%s" % (m["role"], m["name"], m.get("host", "-"), m.get("port", "-"), m.get("state") or "-", m.get("timeline", "-"))
    if m["role"] != "leader":
        lag = m.get("lag", "unknown")
        line += " lag=%s" % ("%dB" % lag if isinstance(lag, int) else lag)
    print(line)' "$body" && return 0
  done
  return 1
}
leader_name() { cluster_view | awk '$1 == "leader" && $4 == "running" { print $2 }'; }

# Waits until Patroni has a running leader that answers GET /primary, and every other node runs as a replica with
# a synchronous standby among them (what synchronous_mode needs for a write to be on two nodes); fails, naming the
# logs, when a Patroni stops or when that takes more than the start wait.
wait_cluster() {
  local deadline=$((SECONDS + START_WAIT)) view leader replicas sync name
  while :; do
    view=$(cluster_view || true)
    leader=$(awk '$1 == "leader" && $4 == "running" { print $2 }' <<<"$view")
    replicas=$(awk '$1 != "leader" && $4 == "running"' <<<"$view" | wc -l)
    sync=$(awk '$1 == "sync_standby" && $4 == "running"' <<<"$view" | wc -l)
    if [ -n "$leader" ] && [ "$replicas" -eq $((NODE_COUNT - 1)) ] && [ "$sync" -ge 1 ] &&
      [ "$(http_status "http://127.0.0.1:$(node_field "$leader" rest)/primary")" = 200 ]; then
      return 0
    fi
    for name in $(node_names); do
      if ! patroni_pid "$name" >/dev/null; then
        tail -n 20 "$FLEET_DIR/patroni-$name.log" >&2 || true
        fail "Patroni on $name stopped; its log: $FLEET_DIR/patroni-$name.log"
      fi
    done
    if [ $SECONDS -ge $deadline ]; then
      echo "${view:-(no Patroni REST API answered)}" >&2
      fail "Patroni did not form a cluster (a leader, $((NODE_COUNT - 1)) replica(s), one synchronous) within ${START_WAIT}s; the logs: $FLEET_DIR/patroni-*.log, $FLEET_DIR/etcd.log"
    fi
    sleep 0.5
  done
}

# Stops one node: its Patroni (which stops its PostgreSQL), then any PostgreSQL left (a Patroni killed earlier).
stop_node() {
  local name=$1 pid dir
  if pid=$(patroni_pid "$name"); then stop_pid "$pid" "Patroni on $name" 300; fi
  dir=$(node_field "$name" dir)
  if postmaster_pid "$name" >/dev/null; then as_postgres "$PG_BIN/pg_ctl" -D "$dir" -m immediate -w stop >&2 || true; fi
}

do_node() {
  local verb=$1 name=${2:-}
  load_state || fail "no fleet recorded in $FLEET_DIR (start one with: npm run fleet -- start)"
  [ -n "$name" ] || fail "$verb needs a node's name (the nodes: $(node_names))"
  node_field "$name" port >/dev/null
  case $verb in
    node-stop)
      stop_node "$name"
      say "node $name stopped"
      ;;
    node-start)
      if patroni_pid "$name" >/dev/null; then
        say "node $name: Patroni is already running"
      else
        start_patroni "$name"
        say "node $name: Patroni started (it rejoins as a replica; npm run fleet -- status shows it)"
      fi
      ;;
  esac
}

do_switchover() {
  local to=
  while [ $# -gt 0 ]; do
    case $1 in
      --to)
        to=${2:-}
        shift 2 || fail "--to needs a node's name"
        ;;
      *) fail "unknown option $1 (switchover takes --to <node>)" ;;
    esac
  done
  load_state || fail "no fleet recorded in $FLEET_DIR (start one with: npm run fleet -- start)"
  local from
  from=$(leader_name)
  [ -n "$from" ] || fail "no running leader to switch over from (npm run fleet -- status)"
  [ -z "$to" ] || node_field "$to" port >/dev/null
  local args=(-c "$FLEET_DIR/pg/$from.yml" switchover --force --leader "$from")
  [ -z "$to" ] || args+=(--candidate "$to")
  as_postgres "$PATRONICTL_BIN" "${args[@]}" "$PATRONI_SCOPE" >&2 || fail "patronictl switchover failed (see above)"
  # Done when another node leads and answers GET /primary.
  local deadline=$((SECONDS + 60)) now
  while :; do
    now=$(leader_name)
    if [ -n "$now" ] && [ "$now" != "$from" ] &&
      [ "$(http_status "http://127.0.0.1:$(node_field "$now" rest)/primary")" = 200 ]; then
      say "switched over from $from to $now"
      return 0
    fi
    [ $SECONDS -lt $deadline ] || fail "no new leader 60 s after the switchover from $from (npm run fleet -- status)"
    sleep 0.2
  done
}

load_state() {
  [ -f "$STATE" ] || return 1
  # shellcheck disable=SC1090
  . "$STATE"
}

# HAProxy's view of each server of a backend (tierdesk unless named; statistics CSV: proxy, server, ..., status in
# field 18).
haproxy_view() {
  http_body "http://127.0.0.1:$STATS_PORT/;csv" |
    awk -F, -v proxy="${1:-tierdesk}" '$1 == proxy && $2 != "BACKEND" { print $2, $18 }'
}

# Asks a process to stop (SIGTERM) and kills it when it has not within `tenths` tenths of a second (default 100).
stop_pid() {
  local pid=$1 name=$2 tenths=${3:-100}
  kill -TERM "$pid" 2>/dev/null || return 0
  for _ in $(seq 1 "$tenths"); do
    alive "$pid" || return 0
    sleep 0.1
  done
  echo "$name (pid $pid) did not stop within $((tenths / 10)) s; killing it" >&2
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
  # Every node's Patroni at once (one stopped alone would see the others fail over to it), then what is left.
  local name
  for name in $(node_names); do
    if pid=$(patroni_pid "$name"); then kill -TERM "$pid" 2>/dev/null || true; fi
  done
  for name in $(node_names); do stop_node "$name"; done
  if pid=$(pid_of "$FLEET_DIR/etcd.pid" "$ETCD_BIN"); then stop_pid "$pid" etcd; fi
  rm -rf "$FLEET_DIR/pg" "$FLEET_DIR/etcd"
  rm -f "$STATE" "$FLEET_DIR/etcd.pid"
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
  # The database as Patroni sees it: the leader, each replica with its lag behind the leader, every timeline.
  local view role addr node_state timeline lag running_nodes=0
  if view=$(cluster_view); then
    while read -r role name addr node_state timeline lag; do
      [ "$node_state" != running ] || running_nodes=$((running_nodes + 1))
      case $role in
        leader) say "leader $name postgres://postgres@$addr/postgres $node_state $timeline" ;;
        sync_standby) say "replica $name postgres://postgres@$addr/postgres $node_state $timeline $lag (synchronous)" ;;
        *) say "replica $name postgres://postgres@$addr/postgres $node_state $timeline $lag" ;;
      esac
    done <<<"$view"
    grep -q '^leader [^ ]* [^ ]* running ' <<<"$view" || all_up=1
  else
    say "patroni: no node's REST API answers"
    all_up=1
  fi
  [ "$running_nodes" -eq "$NODE_COUNT" ] || all_up=1
  say "database writes $DATABASE_URL (HAProxy: the leader), reads $DATABASE_REPLICA_URL (HAProxy: the replicas)"
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
    # No server up means none reaches a primary (a failover under way): HAProxy's own 503 then says what the
    # servers' would, with the same Retry-After.
    http-error status 503 content-type application/json string '{"message":"The database is switching over; try again in a moment"}' hdr retry-after 5
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
    write_haproxy_database_config
  } >"$FLEET_DIR/haproxy.cfg"
}

# The database's part of HAProxy's configuration, Patroni's standard layout: TCP ports whose backends are every
# node, each checked on its Patroni REST API. GET /primary answers 200 on the leader alone, GET /replica on a
# running replica alone; a node marked down has its connections cut (on-marked-down shutdown-sessions), so no
# session stays on a demoted leader.
write_haproxy_database_config() {
  cat <<EOF

defaults
    mode tcp
    log stdout format raw local0
    option tcplog
    option dontlog-normal
    timeout connect 2s
    # The servers' pools keep connections open while idle; a session ends when the pool lets it go.
    timeout client 30m
    timeout server 30m
    timeout check 2s
    default-server inter 1s fastinter 250ms downinter 1s fall 2 rise 1 on-marked-down shutdown-sessions

# Writes (the servers' DATABASE_URL): the leader.
frontend postgres_write
    bind 127.0.0.1:$PG_WRITE_PORT
    default_backend postgres_primary

# Reads (DATABASE_REPLICA_URL): the replicas; the leader while no replica is up, so reads never lose their port.
frontend postgres_read
    bind 127.0.0.1:$PG_READ_PORT
    use_backend postgres_replicas if { nbsrv(postgres_replicas) ge 1 }
    default_backend postgres_primary

backend postgres_primary
    option httpchk GET /primary
    http-check expect status 200
EOF
  haproxy_node_servers
  cat <<EOF

backend postgres_replicas
    balance roundrobin
    option httpchk GET /replica
    http-check expect status 200
EOF
  haproxy_node_servers
}

# Every node as a server of a database back end: its PostgreSQL port, checked on its Patroni REST port.
haproxy_node_servers() {
  local entry name port dir rest
  for entry in $PG_NODES; do
    IFS=: read -r name port dir rest <<<"$entry"
    echo "    server $name 127.0.0.1:$port check port $rest"
  done
}

write_pgbouncer_config() {
  local dir=$FLEET_DIR/pgbouncer
  mkdir -p "$dir"
  echo '"postgres" ""' >"$dir/userlist.txt"
  cat >"$dir/pgbouncer.ini" <<EOF2
; Written by scripts/fleet.sh. Session pooling: PgBouncer 1.18 keeps no prepared statements across transactions,
; and Tierdesk prepares its hottest statements (docs/operations.md, "PgBouncer").
[databases]
postgres = host=127.0.0.1 port=$PG_WRITE_PORT dbname=postgres

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

# HAProxy starts before the servers: they reach the database only through its ports. Up when its checks found
# the leader (GET /primary) on the write port's backend.
start_haproxy() {
  write_haproxy_config
  "$HAPROXY_BIN" -c -q -f "$FLEET_DIR/haproxy.cfg" >&2 || fail "HAProxy refused $FLEET_DIR/haproxy.cfg"
  (exec setsid "$HAPROXY_BIN" -db -f "$FLEET_DIR/haproxy.cfg" </dev/null >"$FLEET_DIR/haproxy.log" 2>&1) &
  echo $! >"$FLEET_DIR/haproxy.pid"
  local deadline=$((SECONDS + 60))
  until haproxy_view postgres_primary | awk '$2 == "UP"' | grep -q .; do
    alive "$(cat "$FLEET_DIR/haproxy.pid")" || fail "HAProxy stopped; its log: $FLEET_DIR/haproxy.log"
    if [ $SECONDS -ge $deadline ]; then
      haproxy_view postgres_primary >&2 || true
      fail "HAProxy found no node answering GET /primary within 60 s; its log: $FLEET_DIR/haproxy.log"
    fi
    sleep 0.2
  done
}

# Up when HAProxy's own health checks (GET /healthz) pass on every server.
wait_haproxy_servers() {
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
  local pgbouncer=0 build_panel=1 want_port=${FLEET_PORT:-8080} name nodes=2
  while [ $# -gt 0 ]; do
    case "$1" in
      --pgbouncer) pgbouncer=1 ;;
      --no-panel) build_panel=0 ;;
      --nodes)
        nodes=${2:-}
        [ "$nodes" = 2 ] || [ "$nodes" = 3 ] || fail "--nodes takes 2 or 3"
        shift
        ;;
      *) fail "unknown option $1 (start takes --nodes 2|3, --pgbouncer and --no-panel)" ;;
    esac
    shift
  done
  # Every Debian program the fleet runs, checked before anything starts: missing ones are named in one apt-get line.
  local needs=("$HAPROXY_BIN=haproxy" ss=iproute2 setsid=util-linux "${POSTGRES_15_NEEDS[@]}" "$PATRONI_BIN=patroni"
    "$ETCD_BIN=etcd-server" python3=python3 "$BACKREST_BIN=pgbackrest")
  [ $pgbouncer = 0 ] || needs+=("$PGBOUNCER_BIN=pgbouncer")
  require_packages "${needs[@]}"
  if load_state; then
    local running=0
    pid_of "$FLEET_DIR/haproxy.pid" haproxy >/dev/null && running=1
    for name in "${SERVERS[@]}"; do pid_of "$FLEET_DIR/$name.pid" dist/server/main.js >/dev/null && running=1; done
    for name in $(node_names); do patroni_pid "$name" >/dev/null && running=1; done
    [ $running = 0 ] || fail "a fleet is already running in $FLEET_DIR; stop it first: npm run fleet -- stop"
    do_stop >&2
  fi

  # (A stale state file read above named its own FLEET_PORT and nodes: the caller's win.)
  FLEET_PORT=$want_port
  NODE_COUNT=$nodes
  read -r -a SERVER_PORT_LIST <<<"${FLEET_SERVER_PORTS:-$((FLEET_PORT + 1)) $((FLEET_PORT + 2)) $((FLEET_PORT + 3))}"
  [ "${#SERVER_PORT_LIST[@]}" -eq 3 ] || fail "FLEET_SERVER_PORTS must name three ports"
  STATS_PORT=${FLEET_STATS_PORT:-$((FLEET_PORT + 4))}
  PG_PORT=${FLEET_PG_PORT:-56001}
  REPLICA_PORT=${FLEET_REPLICA_PORT:-$((PG_PORT + 1))}
  PGBOUNCER_PORT=${FLEET_PGBOUNCER_PORT:-$((PG_PORT + 2))}
  REPLICA_DELAY=${FLEET_REPLICA_DELAY:-}
  PGBOUNCER=$pgbouncer
  local node_ports rest_ports
  read -r -a node_ports <<<"${FLEET_NODE_PORTS:-$PG_PORT $REPLICA_PORT $((PG_PORT + 3))}"
  read -r -a rest_ports <<<"${FLEET_REST_PORTS:-$((PG_PORT + 8)) $((PG_PORT + 9)) $((PG_PORT + 10))}"
  [ "${#node_ports[@]}" -ge "$NODE_COUNT" ] && [ "${#rest_ports[@]}" -ge "$NODE_COUNT" ] ||
    fail "FLEET_NODE_PORTS and FLEET_REST_PORTS must name a port for each of the $NODE_COUNT nodes"
  PG_WRITE_PORT=${FLEET_PG_WRITE_PORT:-$((PG_PORT + 4))}
  PG_READ_PORT=${FLEET_PG_READ_PORT:-$((PG_PORT + 5))}
  ETCD_PORT=${FLEET_ETCD_PORT:-$((PG_PORT + 6))}
  ETCD_PEER_PORT=${FLEET_ETCD_PEER_PORT:-$((ETCD_PORT + 1))}
  PG_NODES=
  local n
  for n in $(seq 1 "$NODE_COUNT"); do
    PG_NODES+="${PG_NODES:+ }pg$n:${node_ports[$((n - 1))]}:$FLEET_DIR/pg/pg$n:${rest_ports[$((n - 1))]}"
  done
  local port
  for port in "$FLEET_PORT" "${SERVER_PORT_LIST[@]}" "$STATS_PORT" "${node_ports[@]:0:$NODE_COUNT}" \
    "${rest_ports[@]:0:$NODE_COUNT}" "$PG_WRITE_PORT" "$PG_READ_PORT" "$ETCD_PORT" "$ETCD_PEER_PORT"; do
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
  DATABASE_URL=postgres://postgres@127.0.0.1:$PG_WRITE_PORT/postgres
  DATABASE_REPLICA_URL=postgres://postgres@127.0.0.1:$PG_READ_PORT/postgres
  SERVER_DATABASE_URL=$DATABASE_URL
  [ $pgbouncer = 0 ] || SERVER_DATABASE_URL=postgres://postgres@127.0.0.1:$PGBOUNCER_PORT/postgres
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
    echo "NODE_COUNT=$NODE_COUNT"
    echo "PG_NODES='$PG_NODES'"
    echo "PG_WRITE_PORT=$PG_WRITE_PORT"
    echo "PG_READ_PORT=$PG_READ_PORT"
    echo "ETCD_PORT=$ETCD_PORT"
    echo "ETCD_PEER_PORT=$ETCD_PEER_PORT"
    echo "DATABASE_URL=$DATABASE_URL"
    echo "DATABASE_REPLICA_URL=$DATABASE_REPLICA_URL"
    echo "SERVER_DATABASE_URL=$SERVER_DATABASE_URL"
    echo "HAPROXY_URL=$HAPROXY_URL"
    for i in "${!SERVERS[@]}"; do echo "SERVER_URL_${SERVERS[$i]}=http://127.0.0.1:${SERVER_PORT_LIST[$i]}"; done
  } >"$STATE"
  FLEET_STARTED=0
  trap '[ "$FLEET_STARTED" = 1 ] || { echo "fleet: the start failed; stopping what it started" >&2; do_stop >&2; }' EXIT

  # The database first: etcd, every node's Patroni at once (one initialises the cluster, the others copy it), then
  # HAProxy, which finds the leader; PgBouncer in front of HAProxy's write port.
  start_etcd
  rm -rf "$FLEET_DIR/pg" && mkdir -p "$FLEET_DIR/pg" && chown postgres "$FLEET_DIR/pg" && chmod 700 "$FLEET_DIR/pg"
  # pgBackRest's repository, new with the new databases, naming every node (a backup is taken from the leader).
  backrest_new_repository
  local backrest_nodes=() entry node_port node_dir
  for entry in $PG_NODES; do
    IFS=: read -r _ node_port node_dir _ <<<"$entry"
    backrest_nodes+=("$node_dir:$node_port:$FLEET_DIR/pg")
  done
  backrest_write_config "${backrest_nodes[@]}"
  for name in $(node_names); do write_patroni_config "$name"; done
  for name in $(node_names); do start_patroni "$name"; done
  wait_cluster
  # The stanza, and a full backup before any write, so a point-in-time restore has a base from the first moment.
  backrest_stanza_create
  backrest_backup full >&2
  start_haproxy
  [ $pgbouncer = 0 ] || start_pgbouncer

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
  wait_haproxy_servers
  FLEET_STARTED=1

  say "Tierdesk fleet in $FLEET_DIR:"
  say "  PostgreSQL 15 on $NODE_COUNT nodes kept by Patroni (etcd on port $ETCD_PORT), leader $(leader_name)${REPLICA_DELAY:+, replicas applying $REPLICA_DELAY late}"
  say "  HAProxy's database ports: writes $DATABASE_URL (the leader), reads $DATABASE_REPLICA_URL (the replicas)"
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
  switchover)
    shift
    do_switchover "$@"
    ;;
  node-stop | node-start) do_node "$@" ;;
  backup)
    shift
    backrest_backup_command "$@"
    ;;
  restore)
    shift
    backrest_restore_command "$@"
    ;;
  *)
    echo "usage: npm run fleet -- start [--nodes 2|3] [--pgbouncer] [--no-panel] | status | switchover [--to <node>]" \
      "| node-stop <node> | node-start <node> | stop | backup [--type full|diff]" \
      "| restore --to \"<ISO time>\" --into <dir> [--port <p>]" >&2
    exit 2
    ;;
esac
