#!/usr/bin/env bash
# npm run fleet:test [-- --full] [-- --pgbouncer] [vitest's own options]: the vitest project `fleet`
# (tests/fleet/fleet.test.ts). --full (three rounds of each loss of the database's leader, and their medians) and
# --pgbouncer (PgBouncer between the servers and HAProxy's write port) are the test's own options; vitest refuses
# options it does not know, so they reach the test as FLEET_FULL=1 and FLEET_PGBOUNCER=1.
set -euo pipefail
cd "$(dirname "$0")/.."
args=()
for arg in "$@"; do
  case $arg in
    --pgbouncer) export FLEET_PGBOUNCER=1 ;;
    --full) export FLEET_FULL=1 ;;
    *) args+=("$arg") ;;
  esac
done
exec npx --no-install vitest run --project fleet "${args[@]}"
