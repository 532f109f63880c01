#!/bin/bash
# One job of the action in a fresh copy of the clean root (build.sh), timed step by step: the action
# as this checkout's HEAD commits it, a driver repository as origin with branch `pr` at <head>, and the
# Actions cache stood in for by a directory that a warm job starts with and a cold one empties.
# Usage, as root: scripts/clean-root-job/run.sh cold|warm <driver repo> <base> <head>
# Environment: SNAPSHOT (default /tmp/clean-root.tar), STORE (the cache, default /tmp/clean-root-cache).
set -euo pipefail
MODE=$1 REPO=$2 BASE=$(git -C "$2" rev-parse "$3") HEAD=$(git -C "$2" rev-parse "$4")
HERE=$(cd "$(dirname "$0")" && pwd) TOP=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
SNAP=${SNAPSHOT:-/tmp/clean-root.tar} STORE=${STORE:-/tmp/clean-root-cache}
ROOT=$(mktemp -d /tmp/clean-root-job-XXXXXX)
cleanup() { for m in dev/shm dev/pts dev sys proc; do umount "$ROOT/$m" 2>/dev/null || true; done; rm -rf --one-file-system "$ROOT"; }
trap cleanup EXIT
tar -C "$ROOT" -xpf "$SNAP"
REF=$(git -C "$TOP" rev-parse HEAD)
ACTION=$ROOT/root/_actions/mysql-driver-bench/mysql-driver-bench/$REF
mkdir -p "$ACTION" "$ROOT/root/steps" "$ROOT/root/store"
git -C "$TOP" archive HEAD | tar -x -C "$ACTION"
node "$HERE/steps.mjs" "$ACTION/action.yml" "$ROOT/root/steps"
git clone -q --bare "$REPO" "$ROOT/root/origin.git" && git -C "$ROOT/root/origin.git" branch -f pr "$HEAD"
cp "$HERE/job.sh" "$ROOT/root/job.sh"
if [ "$MODE" = warm ]; then cp -a "$STORE/." "$ROOT/root/store/"; else rm -rf "$STORE"; fi
for m in proc sys dev dev/pts; do mount --bind "/$m" "$ROOT/$m"; done
mount -t tmpfs tmpfs "$ROOT/dev/shm"
cp -L /etc/resolv.conf /etc/hosts "$ROOT/etc/"
# This VM reaches the npm registry through a proxy whose certificate only the host trusts.
cp -L /etc/ssl/certs/ca-certificates.crt "$ROOT/root/host-ca.crt"
set +e
env -i HOME=/root USER=root LOGNAME=root LANG=C.UTF-8 CI=true PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  NODE_EXTRA_CA_CERTS=/root/host-ca.crt ACTION_REF="$REF" chroot "$ROOT" bash /root/job.sh "$BASE" "$HEAD"
code=$?
mkdir -p "$STORE" && cp -a "$ROOT/root/store/." "$STORE/"
cp "$ROOT/root/runner-temp/mdb-comment.md" "/tmp/clean-root-comment-$MODE-${HEAD:0:7}.md" 2>/dev/null && echo "the comment: /tmp/clean-root-comment-$MODE-${HEAD:0:7}.md"
exit $code
