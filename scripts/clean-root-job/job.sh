#!/bin/bash
# One job of the action inside the clean root (run.sh makes it): a checkout one commit deep, the caches
# restored from /root/store, the action's own step scripts (prepare, install, count, prune), the caches saved.
# Usage: job.sh <base sha> <head sha> ; prints one line per step with its seconds.
set -u
BASE=$1; HEAD=$2
export HOME=/root RUNNER_TEMP=/root/runner-temp GITHUB_EVENT_NAME=pull_request
export GITHUB_ACTION_PATH=/root/_actions/mysql-driver-bench/mysql-driver-bench/$ACTION_REF
export GITHUB_WORKSPACE=/root/work/driver GITHUB_STEP_SUMMARY=/root/runner-temp/summary.md
export ImageOS=debian12 ImageVersion=sim
mkdir -p "$RUNNER_TEMP" /root/store
# This VM reaches the npm registry through a proxy whose certificate only the host trusts; sudo drops NODE_EXTRA_CA_CERTS.
echo "cafile=/root/host-ca.crt" > /root/.npmrc
T0=$(date +%s.%N); last=$T0
lap() { local now; now=$(date +%s.%N); awk -v a="$now" -v b="$last" -v n="$1" 'BEGIN{printf "%-28s %6.1f s\n", n, a-b}'; last=$now; }
git clone -q --depth 1 --no-tags "file:///root/origin.git" --branch pr "$GITHUB_WORKSPACE"; lap checkout
cd "$GITHUB_WORKSPACE"
out() { grep "^$1=" "$RUNNER_TEMP/prepare.out" | tail -1 | cut -d= -f2-; }
GITHUB_OUTPUT=$RUNNER_TEMP/prepare.out MDB_MODE=count MDB_BASE=$BASE MDB_HEAD=$HEAD MDB_REPOSITORY=. MDB_COUNT=instructions MDB_LABEL=benchmark-accepted MDB_EVENT_ACTION=synchronize MDB_EVENT_LABEL= \
  bash -e /root/steps/prepare.sh || exit 9; lap prepare
CACHE=$(out cache-dir)
restore() { # <name> <path>
  if [ -f "/root/store/$1.tar" ]; then mkdir -p "$2" && tar -C "$2" -xf "/root/store/$1.tar" && echo "  restored $1 ($(du -sh "/root/store/$1.tar" | cut -f1))"; fi
}
restore apt "$CACHE/apt"; restore harness "$GITHUB_ACTION_PATH/node_modules"; restore deps "$CACHE/git/deps"; lap restore-caches
GITHUB_OUTPUT=$RUNNER_TEMP/install.out MDB_COUNT=instructions MDB_CACHE_DIR=$CACHE bash -e /root/steps/install.sh || exit 9; lap install
SERVER=$(grep '^server=' "$RUNNER_TEMP/install.out" | cut -d= -f2)
restore "replay-$(out merge-base)-$SERVER" "$RUNNER_TEMP/mysql-driver-bench/replay"; lap restore-replay
MDB_BASE=$BASE MDB_HEAD=$HEAD MDB_REPOSITORY=. MDB_PACKAGE= MDB_BENCHES="do insert batch pipelining select_100_cols select_1000_rows execute" MDB_THRESHOLD=1 MDB_COUNT=instructions \
  MDB_ARTIFACT=mysql-driver-bench-1-1 MDB_LABEL=benchmark-accepted MDB_ACCEPTED_BY= bash -e /root/steps/count.sh; code=$?; lap "count (exit $code)"
MDB_CACHE_DIR=$CACHE MDB_STARTED=$(out started) bash -e /root/steps/prune.sh; lap prune
save() { [ -f "/root/store/$1.tar" ] || { [ -d "$2" ] && tar -C "$2" -cf "/root/store/$1.tar" . && echo "  saved $1 ($(du -sh "/root/store/$1.tar" | cut -f1))"; }; }
save apt "$CACHE/apt"; save harness "$GITHUB_ACTION_PATH/node_modules"; rm -f /root/store/deps.tar; save deps "$CACHE/git/deps"; save "replay-$(out merge-base)-$SERVER" "$RUNNER_TEMP/mysql-driver-bench/replay"; lap save-caches
awk -v a="$(date +%s.%N)" -v b="$T0" 'BEGIN{printf "%-28s %6.1f s\n", "total", a-b}'
exit "$code"
