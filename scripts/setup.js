#!/usr/bin/env node
// Set-up for the README's commands, with no dependency of its own:
//   - in a clone, installs the npm dependencies (npm ci) when node_modules is missing or older than the
//     lockfile (an installed copy, `npx mysql-driver-bench-setup`, leaves them to npm);
//   - with --server: makes sure mariadbd is there for the embedded server, installing the Debian/Ubuntu
//     package mariadb-server when this machine can (root with apt-get), else one line saying how;
//   - with --valgrind: the same for valgrind (--count instructions).
// One line when a step starts and one when it ends; the commands' own output goes to a log file
// (named in the first line), shown only when the step fails. Everything it prints goes to stderr,
// so `--json -` output on stdout stays clean. What it cannot install ends it with exit 5 (EXIT.INSTALL).
import { existsSync, readFileSync, statSync, writeFileSync, rmSync, accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findServerBinaries } from '../lib/server/embedded.js'; // node built-ins only: safe before npm ci
import { runLoggedStep } from '../lib/server/setup-steps.js'; // likewise
import { findOpenssl } from '../lib/server/tls-cert.js'; // likewise
import { EXIT } from '../lib/common/errors.js'; // likewise

const root = fileURLToPath(new URL('..', import.meta.url));
const say = (line) => process.stderr.write(`setup: ${line}\n`);

function dependenciesMissing() {
  const installed = join(root, 'node_modules', '.package-lock.json');
  if (!existsSync(installed)) return 'node_modules is missing';
  if (statSync(join(root, 'package-lock.json')).mtimeMs > statSync(installed).mtimeMs + 1000) {
    return 'package-lock.json is newer than node_modules';
  }
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const missing = Object.keys(pkg.dependencies || {}).filter((d) => !existsSync(join(root, 'node_modules', d, 'package.json')));
  return missing.length ? `missing packages: ${missing.join(', ')}` : null;
}

function ensureDependencies() {
  // An installed copy has no lockfile: npm installed its dependencies (hoisted into the installing
  // project's node_modules), and nothing may be written inside it.
  if (!existsSync(join(root, 'package-lock.json'))) return;
  const why = dependenciesMissing();
  if (!why) return;
  const ok = runLoggedStep({
    doing: 'installing npm dependencies',
    how: `npm ci; ${why}`,
    done: 'npm dependencies installed',
    logName: 'npm-ci.log',
    commands: [['npm', ['ci', '--no-audit', '--no-fund']]],
    spawnOptions: { cwd: root },
  }, { say });
  if (!ok) {
    say('npm ci failed — check your network access to the npm registry, then run `npm ci` by hand');
    process.exit(EXIT.INSTALL);
  }
}

function onPath(names, extra = ['/usr/sbin', '/usr/local/sbin']) {
  const dirs = [...(process.env.PATH || '').split(delimiter), ...extra].filter(Boolean);
  return names.some((n) => dirs.some((d) => {
    try { accessSync(join(d, n), constants.X_OK); return true; } catch { return false; }
  }));
}

function ensureServer() {
  const { mariadbd, installDb } = findServerBinaries(); // exactly what the harness will look for
  if (mariadbd && installDb) {
    // Only connect_tls needs it (the embedded server's certificate): a notice, not a failure.
    if (!findOpenssl()) say('openssl was not found: connect_tls will be n/a — install it (as root: apt-get install openssl)');
    return;
  }
  const howTo = 'install the mariadb-server package (e.g. `sudo apt-get install mariadb-server`), or set DB_HOST/DB_SOCKET to use an existing server';
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot || !onPath(['apt-get'])) {
    say(`mariadbd was not found and this machine cannot install it here (${isRoot ? 'no apt-get' : 'not root'}) — ${howTo}`);
    process.exit(EXIT.INSTALL);
  }
  // Keep the package from starting a system-wide server: the harness starts its own.
  const policy = '/usr/sbin/policy-rc.d';
  const addedPolicy = !existsSync(policy);
  if (addedPolicy) writeFileSync(policy, '#!/bin/sh\nexit 101\n', { mode: 0o755 });
  let ok;
  try {
    ok = runLoggedStep({
      doing: 'installing mariadb-server and openssl',
      how: 'apt-get, about a minute; mariadbd was not found',
      done: 'mariadb-server and openssl installed',
      logName: 'apt-get.log',
      commands: [
        ['apt-get', ['update']],
        // openssl makes the embedded server's TLS certificate (connect_tls).
        ['apt-get', ['install', '-y', '--no-install-recommends', 'mariadb-server', 'openssl']],
      ],
      spawnOptions: { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } },
    }, { say });
  } finally {
    if (addedPolicy) rmSync(policy, { force: true });
  }
  // After the finally: process.exit() inside the try would skip it and leave the policy in place.
  if (!ok) {
    say(`apt-get could not install mariadb-server — ${howTo}`);
    process.exit(EXIT.INSTALL);
  }
}

/** --count instructions runs each row under Valgrind: installed like the server, or one line saying how. */
function ensureValgrind() {
  if (onPath(['valgrind'])) return;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot || !onPath(['apt-get'])) {
    say(`valgrind was not found and this machine cannot install it here (${isRoot ? 'no apt-get' : 'not root'}) — install the valgrind package (e.g. \`sudo apt-get install valgrind\`)`);
    process.exit(EXIT.INSTALL);
  }
  const ok = runLoggedStep({
    doing: 'installing valgrind',
    how: 'apt-get, about a minute; --count instructions runs each row under it',
    done: 'valgrind installed',
    logName: 'apt-get-valgrind.log',
    commands: [['apt-get', ['update']], ['apt-get', ['install', '-y', '--no-install-recommends', 'valgrind']]],
    spawnOptions: { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } },
  }, { say });
  if (!ok) {
    say('apt-get could not install valgrind — install the valgrind package by hand');
    process.exit(EXIT.INSTALL);
  }
}

ensureDependencies();
if (process.argv.includes('--server')) ensureServer();
if (process.argv.includes('--valgrind')) ensureValgrind();
