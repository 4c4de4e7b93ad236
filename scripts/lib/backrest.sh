# pgBackRest for the fleet (Debian's pgbackrest 2.45): one repository under FLEET_DIR, one stanza. Sourced by
# scripts/fleet.sh and scripts/pg-cluster.sh; the PostgreSQL nodes' archive_command comes from here, so every node
# archives the same way. docs/operations.md ("Backups") explains each choice.
#
# The sourcing script sets FLEET_DIR and defines as_postgres (run a command as the postgres OS user). In order:
#   backrest_new_repository                       an empty repository (before a new cluster's first start)
#   backrest_write_config DIR:PORT[:SOCKETS] ...  the configuration: every PostgreSQL node of the cluster, each
#                                                 its data directory, port and unix socket directory (default: the
#                                                 data directory's parent, where scripts/pg-cluster.sh puts them)
#   backrest_archive_command                      what every node's archive_command is (archive_mode = on)
#   backrest_stanza_create                        once the primary is up
#   backrest_backup full                          the first full backup, before any write
# and then the fleet's commands: backrest_backup_command [--type full|diff], backrest_restore_command --to ...,
# backrest_stop_restored (fleet stop).
BACKREST_STANZA=tierdesk
BACKREST_BIN=/usr/bin/pgbackrest
BACKREST_PG_BIN=/usr/lib/postgresql/15/bin
backrest_config() { echo "$FLEET_DIR/pgbackrest.conf"; }
backrest_repo() { echo "$FLEET_DIR/backup"; }
# pgBackRest's own logs and lock files (a lock per fleet, so fleets on one machine never wait on each other).
backrest_log_dir() { echo "$FLEET_DIR/pgbackrest"; }
# The PostgreSQL servers `restore` started, one "<data directory> <port>" a line; `fleet stop` stops them.
backrest_restored_list() { echo "$FLEET_DIR/restored.list"; }

# What each node's archive_command runs: WAL goes to the repository as soon as a segment is complete. PostgreSQL
# runs it in the node's data directory with a relative %p, which pgBackRest accepts only when its pg1-path is that
# directory: `pwd -P` names it, so one command serves every node, whichever one leads.
backrest_archive_command() {
  echo "pgbackrest --config=$(backrest_config) --stanza=$BACKREST_STANZA --pg1-path=\"\$(pwd -P)\" archive-push %p"
}

# pgBackRest as the postgres OS user, on this fleet's configuration and stanza.
backrest() { as_postgres "$BACKREST_BIN" --config="$(backrest_config)" --stanza="$BACKREST_STANZA" "$@"; }

backrest_fail() {
  echo "fleet: $*" >&2
  exit 1
}

# A new cluster (a new initdb) cannot share a repository with the one before it: its backups and WAL belong to a
# database that is gone.
backrest_new_repository() {
  rm -rf "$(backrest_repo)" "$(backrest_log_dir)"
  mkdir -p "$(backrest_repo)" "$(backrest_log_dir)"
  chown postgres "$(backrest_repo)" "$(backrest_log_dir)"
  chmod 750 "$(backrest_repo)" "$(backrest_log_dir)"
}

backrest_write_config() {
  [ $# -ge 1 ] || backrest_fail "backrest_write_config needs the nodes (DIR:PORT[:SOCKETS] ...)"
  local node dir port sockets i=0
  {
    echo "# Written by scripts/lib/backrest.sh. docs/operations.md (\"Backups\") explains each choice."
    echo "[global]"
    echo "repo1-path=$(backrest_repo)"
    echo "# Two full backups are kept, each with the differential ones taken on it, and the WAL they need."
    echo "repo1-retention-full=2"
    echo "# A backup starts at once (an immediate checkpoint) rather than at the next scheduled checkpoint."
    echo "start-fast=y"
    echo "compress-type=zst"
    echo "log-path=$(backrest_log_dir)"
    echo "lock-path=$(backrest_log_dir)"
    echo
    echo "[$BACKREST_STANZA]"
    echo "# Every node of the cluster: a backup is taken from whichever one is the primary when it runs."
    for node in "$@"; do
      IFS=: read -r dir port sockets <<<"$node"
      [ -n "$dir" ] && [ -n "$port" ] || backrest_fail "backrest_write_config: $node is not DIR:PORT[:SOCKETS]"
      i=$((i + 1))
      echo "pg$i-path=$dir"
      echo "pg$i-port=$port"
      echo "pg$i-socket-path=${sockets:-$(dirname "$dir")}"
    done
  } >"$(backrest_config)"
  chmod 644 "$(backrest_config)"
}

backrest_has_repository() {
  [ -f "$(backrest_config)" ] && [ -f "$(backrest_repo)/backup/$BACKREST_STANZA/backup.info" ]
}

# Once the primary is up, whether or not the other nodes are yet (so only errors are printed, not their absence).
backrest_stanza_create() { backrest stanza-create --log-level-console=error >&2; }

# Every backup set in the repository, oldest first, one a line:
#   label type start stop prior database-size backup-size wal-start wal-stop
# (start and stop in seconds since 1970; prior "-" for a full backup; sizes in bytes).
backrest_sets() {
  backrest info --output=json | node -e '
    let text = "";
    process.stdin.on("data", (chunk) => (text += chunk));
    process.stdin.on("end", () => {
      for (const stanza of JSON.parse(text))
        for (const b of stanza.backup ?? [])
          console.log([b.label, b.type, b.timestamp.start, b.timestamp.stop, b.prior ?? "-", b.info.size,
            b.info.delta, b.archive.start, b.archive.stop].join(" "));
    });'
}

backrest_human_size() { numfmt --to=iec --suffix=B "$1"; }
backrest_iso() { date -u -d "@$1" +%FT%TZ; }

# One line on a backup set: what it is, what it holds, and when it ran.
backrest_describe() {
  local label type start stop prior size delta wal_start wal_stop
  read -r label type start stop prior size delta wal_start wal_stop <<<"$1"
  local what=$type
  [ "$prior" = - ] || what="$type on $prior"
  echo "$label ($what): $(backrest_human_size "$delta") copied of a $(backrest_human_size "$size") database," \
    "$(backrest_iso "$start") to $(backrest_iso "$stop"), WAL $wal_start to $wal_stop"
}

# A backup of the cluster's primary: full, or diff (what changed since the last full; pgBackRest takes a full
# instead when there is none).
backrest_backup() {
  local type=$1 before after
  before=$(backrest_sets | tail -n 1)
  backrest backup --type="$type" >&2
  after=$(backrest_sets | tail -n 1)
  [ -n "$after" ] && [ "$after" != "$before" ] || backrest_fail "pgBackRest recorded no new backup; its log: $(backrest_log_dir)"
  [ "$(cut -d' ' -f2 <<<"$after")" = "$type" ] ||
    echo "No full backup to take a $type backup on: pgBackRest took a full one." >&2
  echo "Backup $(backrest_describe "$after")"
}

backrest_require_repository() {
  backrest_has_repository ||
    backrest_fail "no pgBackRest repository in $(backrest_repo): npm run fleet -- start makes one"
}

# npm run fleet -- backup [--type full|diff]
backrest_backup_command() {
  local type=diff
  while [ $# -gt 0 ]; do
    case "$1" in
      --type)
        type=${2:-}
        shift 2 || true
        ;;
      --type=*)
        type=${1#--type=}
        shift
        ;;
      *) backrest_fail "unknown option $1 (backup takes --type full|diff)" ;;
    esac
  done
  [ "$type" = full ] || [ "$type" = diff ] || backrest_fail "--type must be full or diff"
  backrest_require_repository
  backrest_backup "$type"
  echo "Repository $(backrest_repo): $(backrest_sets | wc -l) backup set(s); restore with: npm run fleet -- restore --to \"<ISO time>\" --into <dir>"
}

# The port of the node that is the primary now (none when no node answers as one).
backrest_primary_port() {
  local port
  for port in $(sed -n 's/^pg[0-9]*-port=//p' "$(backrest_config)"); do
    if [ "$("$BACKREST_PG_BIN/psql" -X -A -t -q -h 127.0.0.1 -p "$port" -U postgres -d postgres \
      -c 'select pg_is_in_recovery()' 2>/dev/null)" = f ]; then
      echo "$port"
      return 0
    fi
  done
  return 1
}

# Recovery to a time stops at the first transaction that committed after it, which must be in the repository: a
# transaction id taken and committed now is one, and `pgbackrest check` switches the primary to a new WAL segment
# and waits until the one holding it is archived.
backrest_archive_now() {
  local port
  if ! port=$(backrest_primary_port); then
    echo "No primary answers: restoring from the WAL the repository holds." >&2
    return 0
  fi
  "$BACKREST_PG_BIN/psql" -X -A -t -q -h 127.0.0.1 -p "$port" -U postgres -d postgres \
    -c 'select pg_current_xact_id()' >/dev/null
  backrest check >&2
}

# A loopback port nobody listens on (the operating system's choice).
backrest_free_port() {
  node -e 'const s = require("node:net").createServer();
    s.listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); });'
}

# npm run fleet -- restore --to "<ISO time>" --into <dir> [--port <p>]
backrest_restore_command() {
  local to='' into='' port=''
  while [ $# -gt 0 ]; do
    case "$1" in
      --to | --into | --port)
        [ $# -ge 2 ] || backrest_fail "$1 needs a value"
        case "$1" in
          --to) to=$2 ;;
          --into) into=$2 ;;
          --port) port=$2 ;;
        esac
        shift 2
        ;;
      *) backrest_fail "unknown option $1 (restore takes --to \"<ISO time>\" --into <dir> [--port <p>])" ;;
    esac
  done
  [ -n "$to" ] && [ -n "$into" ] || backrest_fail "restore needs --to \"<ISO time>\" and --into <dir>"
  # A relative directory is the caller's: npm runs the script in the project's directory and names the caller's in INIT_CWD.
  [[ $into == /* ]] || into=${INIT_CWD:-$PWD}/$into
  backrest_require_repository
  if [ -e "$into" ] && { [ ! -d "$into" ] || [ -n "$(ls -A "$into")" ]; }; then
    backrest_fail "--into $into is not empty: restore into a new or empty directory"
  fi
  local target_ns now_ns target
  target_ns=$(date -u -d "$to" +%s%N 2>/dev/null) ||
    backrest_fail "--to $to is not a time (ISO 8601, for example 2026-11-28T14:30:00Z)"
  now_ns=$(date +%s%N)
  [ "$target_ns" -le "$now_ns" ] || backrest_fail "--to $to is in the future"
  # PostgreSQL's recovery_target_time, to the microsecond, in UTC.
  target=$(date -u -d "$to" '+%Y-%m-%d %H:%M:%S.%6N+00')

  # The newest backup set that had finished before the target: its copy, and the WAL archived after it, replayed
  # up to the target. A set counts once the whole second pgBackRest recorded as its end has passed.
  local sets set='' line
  sets=$(backrest_sets)
  [ -n "$sets" ] || backrest_fail "the repository $(backrest_repo) holds no backup yet: npm run fleet -- backup"
  while read -r line; do
    [ "$(cut -d' ' -f4 <<<"$line")" -lt "$((target_ns / 1000000000))" ] && set=$line
  done <<<"$sets"
  [ -n "$set" ] || backrest_fail "--to $to is before the first backup (it finished at" \
    "$(backrest_iso "$(head -n 1 <<<"$sets" | cut -d' ' -f4)")): nothing to restore it from"

  if [ -n "$port" ]; then
    [[ $port =~ ^[0-9]+$ ]] || backrest_fail "--port $port is not a port number"
    [ -z "$(ss -ltnH "sport = :$port" 2>/dev/null)" ] || backrest_fail "port $port is in use"
  else
    port=$(backrest_free_port)
  fi

  mkdir -p "$into"
  chown postgres "$into"
  chmod 700 "$into"
  as_postgres test -w "$into" ||
    backrest_fail "the postgres OS user cannot reach $into: let it through the directories above (chmod o+x)"
  into=$(cd "$into" && pwd -P)

  backrest_archive_now
  # Archiving off: the copy never writes into the fleet's repository. Promoted at the target: it takes writes.
  backrest restore --pg1-path="$into" --set="$(cut -d' ' -f1 <<<"$set")" --type=time --target="$target" \
    --target-action=promote --archive-mode=off >&2
  # The primary's own settings came with the copy; this one listens on its own port, on 127.0.0.1 only.
  as_postgres tee -a "$into/postgresql.auto.conf" >/dev/null <<EOF
# A restored copy (npm run fleet -- restore), not part of the fleet.
port = $port
listen_addresses = '127.0.0.1'
unix_socket_directories = '$into'
EOF
  echo "$into $port" >>"$(backrest_restored_list)"
  as_postgres "$BACKREST_PG_BIN/pg_ctl" -D "$into" -l "$into/restore.log" -w -t 300 start >&2 ||
    backrest_fail "the restored PostgreSQL did not start; its log: $into/restore.log"
  # Up once recovery has reached the target and promoted it; a recovery that fails stops the server.
  local deadline=$((SECONDS + 300)) recovering
  while :; do
    recovering=$("$BACKREST_PG_BIN/psql" -X -A -t -q -h 127.0.0.1 -p "$port" -U postgres -d postgres \
      -c 'select pg_is_in_recovery()' 2>/dev/null || true)
    [ "$recovering" = f ] && break
    if ! as_postgres "$BACKREST_PG_BIN/pg_ctl" -D "$into" status >/dev/null 2>&1; then
      tail -n 5 "$into/restore.log" >&2 || true
      backrest_fail "the restored PostgreSQL stopped before it reached $target; its log: $into/restore.log"
    fi
    [ $SECONDS -lt $deadline ] || backrest_fail "recovery did not reach $target within 300 s; its log: $into/restore.log"
    sleep 0.2
  done

  echo "Restored $target from backup $(backrest_describe "$set")"
  echo "PostgreSQL 15 on port $port, data directory $into (log restore.log there); the fleet runs on."
  echo "Stop it with npm run fleet -- stop (its directory is kept), or: su postgres -c '$BACKREST_PG_BIN/pg_ctl -D $into stop'"
  echo "postgres://postgres@127.0.0.1:$port/postgres"
}

# Stops the PostgreSQL servers `restore` started (their directories are kept: the person chose them).
backrest_stop_restored() {
  local list dir port
  list=$(backrest_restored_list)
  [ -f "$list" ] || return 0
  while read -r dir port; do
    if [ -f "$dir/postmaster.pid" ]; then
      as_postgres "$BACKREST_PG_BIN/pg_ctl" -D "$dir" -m fast -w stop >&2 || true
      echo "Restored copy in $dir (port $port) stopped; the directory is kept."
    fi
  done <"$list"
  rm -f "$list"
}
