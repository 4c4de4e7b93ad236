#!/usr/bin/env bash
# Soak: the web suite ROUNDS times in a row (default 5) while the server suite runs over and over alongside,
# the load a small CI machine can meet. Stops at the first failure of either, prints each round's counts and
# duration and a summary line, and exits non-zero on any failure. Logs stay in $SOAK_LOGS (a temp dir).
#   bash scripts/soak-tests.sh            ROUNDS=10 bash scripts/soak-tests.sh
set -uo pipefail
cd "$(dirname "$0")/.."

ROUNDS=${ROUNDS:-5}
SOAK_LOGS=${SOAK_LOGS:-$(mktemp -d "${TMPDIR:-/tmp}/tierdesk-soak-XXXXXX")}
mkdir -p "$SOAK_LOGS"
export NO_COLOR=1 FORCE_COLOR=0

now_ms() { date +%s%3N; }
seconds_since() { awk -v s="$1" -v e="$(now_ms)" 'BEGIN { printf "%.1f", (e - s) / 1000 }'; }
# "Tests  2 failed | 152 passed (154)" -> "152 passed, 2 failed"
counts() {
  local line passed failed
  line=$(grep -E '^ +Tests +' "$1" | tail -1)
  passed=$(grep -oE '[0-9]+ passed' <<<"$line" | grep -oE '[0-9]+' || true)
  failed=$(grep -oE '[0-9]+ failed' <<<"$line" | grep -oE '[0-9]+' || true)
  echo "${passed:-0} passed, ${failed:-0} failed"
}

# The load: the server suite in a loop, in its own process group so that one kill stops it and its workers.
# Its temp dir is ours: a run stopped mid-way leaves its databases there, removed with it at the end.
mkdir -p "$SOAK_LOGS/tmp"
setsid bash -c '
  export TMPDIR="$0/tmp"
  run=0
  while :; do
    run=$((run + 1))
    if npx --no-install vitest run --project server >"$0/server-$run.log" 2>&1; then
      echo "$run ok" >>"$0/server-runs"
    else
      echo "$run FAILED" >>"$0/server-runs"
      exit 1
    fi
  done' "$SOAK_LOGS" &
load_pid=$!
web_pid=
# Ends a process group started with setsid: TERM, up to 10 s for vitest's workers to exit, then KILL.
stop_group() {
  kill -TERM -- "-$1" 2>/dev/null
  wait "$1" 2>/dev/null
  for _ in $(seq 50); do kill -0 -- "-$1" 2>/dev/null || break; sleep 0.2; done
  kill -KILL -- "-$1" 2>/dev/null
}
stop_load() {
  if [ -n "$load_pid" ]; then
    stop_group "$load_pid"
    load_pid=
    rm -rf "$SOAK_LOGS/tmp"
  fi
}
cleanup() {
  if [ -n "$web_pid" ]; then stop_group "$web_pid"; fi
  stop_load
}
trap cleanup EXIT
trap 'echo "soak: interrupted"; exit 130' INT TERM

server_failed() { grep -q FAILED "$SOAK_LOGS/server-runs" 2>/dev/null; }
server_green() {
  local n
  n=$(grep -c ' ok$' "$SOAK_LOGS/server-runs" 2>/dev/null)
  echo "${n:-0}"
}

echo "soak: web suite x$ROUNDS with the server suite looping alongside (logs: $SOAK_LOGS)"
started=$(now_ms)
green=0
web_passed=0
acts=0
status=0
for round in $(seq 1 "$ROUNDS"); do
  log="$SOAK_LOGS/web-$round.log"
  round_started=$(now_ms)
  # In its own process group and waited for, so that an interrupt stops it at once (not after the round).
  setsid npx --no-install vitest run --project web >"$log" 2>&1 &
  web_pid=$!
  wait "$web_pid"
  code=$?
  web_pid=
  result=$(counts "$log")
  warnings=$(grep -c 'not wrapped in act' "$log")
  acts=$((acts + warnings))
  echo "round $round/$ROUNDS: web $result, $warnings act() warnings ($(seconds_since "$round_started")s;" \
    "server suite green $(server_green)x alongside so far)"
  if [ "$code" -ne 0 ]; then
    echo "soak: web round $round failed (exit $code); its failures:"
    grep -E '^ *(FAIL|×) ' "$log" | head -20
    status=1
    break
  fi
  green=$((green + 1))
  web_passed=$((web_passed + ${result%% *}))
  if server_failed; then
    status=1
    break
  fi
done
# The verdict on the load before stopping it: a run cut short by the stop is not a failure.
server_ok=$(server_green)
server_verdict=ok
server_failed && server_verdict=failed
stop_load
if [ "$server_verdict" = failed ]; then
  run=$(grep FAILED "$SOAK_LOGS/server-runs" | cut -d' ' -f1)
  echo "soak: server run $run failed: $(counts "$SOAK_LOGS/server-$run.log") (log: $SOAK_LOGS/server-$run.log)"
  status=1
fi
echo "soak: $green of $ROUNDS web rounds green ($web_passed tests passed, $acts act() warnings)," \
  "server suite green ${server_ok}x alongside, $(seconds_since "$started")s in all"
exit "$status"
