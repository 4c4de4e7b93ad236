#!/usr/bin/env bash
# Starts or stops a throw-away PostgreSQL 15 server on 127.0.0.1 for the server suite's second run.
# Runs as the `postgres` OS user with its data directory under /tmp. Needs Debian's postgresql-15: when it is
# missing, start prints the apt-get line that installs it and fails (scripts/lib/packages.sh).
#   scripts/pg-throwaway.sh start   -> prints the DATABASE_URL to use
#   scripts/pg-throwaway.sh stop
set -euo pipefail
PGDIR=${PGDIR:-/tmp/tierdesk-ci-pg}
PGPORT=${PGPORT:-55432}
BIN=/usr/lib/postgresql/15/bin
# shellcheck source=lib/packages.sh
. "$(dirname "$0")/lib/packages.sh"

as_postgres() { if [ "$(id -un)" = postgres ]; then "$@"; else su postgres -s /bin/bash -c "$(printf '%q ' "$@")"; fi; }

case "${1:-}" in
  start)
    require_packages "${POSTGRES_15_NEEDS[@]}"
    rm -rf "$PGDIR" && mkdir -p "$PGDIR" && chown postgres "$PGDIR"
    as_postgres "$BIN/initdb" -D "$PGDIR/data" -U postgres --auth=trust -E UTF8 >/dev/null
    as_postgres "$BIN/pg_ctl" -D "$PGDIR/data" -l "$PGDIR/log" -w \
      -o "-h 127.0.0.1 -p $PGPORT -k $PGDIR -c fsync=off -c full_page_writes=off" start >&2
    echo "postgres://postgres@127.0.0.1:$PGPORT/postgres"
    ;;
  stop)
    [ -d "$PGDIR/data" ] && as_postgres "$BIN/pg_ctl" -D "$PGDIR/data" -m fast -w stop >&2 || true
    rm -rf "$PGDIR"
    ;;
  *)
    echo "usage: $0 start|stop" >&2
    exit 2
    ;;
esac
