#!/usr/bin/env bash
# Runs `npm test` on a host that stalls processes, as a busy CI runner does: this checkout's test
# files and the harness's own embedded mariadbd are stopped (SIGSTOP) for STALL_S seconds after each
# random pause of up to PAUSE_S seconds, then continued. Driver processes are left alone: the
# harness stops and continues those itself. Exits with npm test's exit code.
#   STALL_S=0.3 PAUSE_S=1.5 scripts/test-under-stalls.sh
set -uo pipefail
cd "$(dirname "$0")/.."
STALL_S=${STALL_S:-0.3}
PAUSE_S=${PAUSE_S:-1.5}
tests="^$(node -p process.execPath) $(pwd)/test/[a-z0-9-]+\\.test\\.js"
servers="mariadbd .*--datadir=[^ ]*/mysql-driver-bench-"

targets() { { pgrep -f "$tests"; pgrep -f "$servers"; } | tr '\n' ' '; }

npm test &
npm_pid=$!
stopped=''
continue_all() { [ -n "$stopped" ] && kill -CONT $stopped 2>/dev/null; stopped=''; }
trap 'continue_all; kill $npm_pid 2>/dev/null' INT TERM

while kill -0 "$npm_pid" 2>/dev/null; do
  sleep "$(awk -v p="$PAUSE_S" -v seed="$RANDOM" 'BEGIN { srand(seed); print p * rand() }')"
  stopped=$(targets)
  [ -n "$stopped" ] || continue
  kill -STOP $stopped 2>/dev/null
  sleep "$STALL_S"
  continue_all
done
wait "$npm_pid"
