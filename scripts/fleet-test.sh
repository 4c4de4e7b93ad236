#!/usr/bin/env bash
# npm run fleet:test [-- --pgbouncer] [vitest's own options]: the vitest project `fleet` (tests/fleet/fleet.test.ts).
# --pgbouncer is the test's own option (the fleet with PgBouncer between the servers and the primary); vitest refuses
# options it does not know, so it reaches the test as FLEET_PGBOUNCER=1.
set -euo pipefail
cd "$(dirname "$0")/.."
args=()
for arg in "$@"; do
  if [ "$arg" = --pgbouncer ]; then export FLEET_PGBOUNCER=1; else args+=("$arg"); fi
done
exec npx --no-install vitest run --project fleet "${args[@]}"
