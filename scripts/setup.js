#!/usr/bin/env node
// Set-up for the README's commands, with no dependency of its own:
//   - in a clone, installs the npm dependencies (npm ci) when node_modules does not match the lockfile
//     (an installed copy, `npx mysql-driver-bench-setup`, leaves them to npm);
//   - with --server: makes sure mariadbd is there for the embedded server, installing the Debian/Ubuntu
//     package mariadb-server when this machine can (root with apt-get), else one line saying how;
//   - with --valgrind: the same for valgrind (--count instructions), in the same apt-get step;
//   - with --browser: Debian's chromium (the record page's test opens it headless), in the same step;
//   - with --deb-cache <dir>: apt's packages kept in <dir> and installed from there next time (the action's cache).
// One line when a step starts and one when it ends; the commands' own output goes to a log file
// (named in the first line), shown only when the step fails. Everything it prints goes to stderr,
// so `--json -` output on stdout stays clean. What it cannot install ends it with exit 5 (EXIT.INSTALL).
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync, rmSync, accessSync, constants } from 'node:fs';
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
  // By content, not by time: a node_modules restored from a CI cache is older than a fresh checkout's lockfile.
  const wanted = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')).packages ?? {};
  const have = JSON.parse(readFileSync(installed, 'utf8')).packages ?? {};
  const differ = Object.entries(wanted).filter(([path, p]) => path && !p.optional && have[path]?.version !== p.version).map(([path]) => path.replace(/^node_modules\//, ''));
  if (differ.length) return `node_modules does not match package-lock.json (${differ.slice(0, 3).join(', ')}${differ.length > 3 ? ', …' : ''})`;
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
  // npm can say ok and install nothing ("Exit handler never called!" after failed fetches, exit 0).
  const still = ok && dependenciesMissing();
  if (!ok || still) {
    say(`npm ci failed${still ? ` (it exited 0, but ${still})` : ''} — check your network access to the npm registry, then run \`npm ci\` by hand`);
    process.exit(EXIT.INSTALL);
  }
}

function onPath(names, extra = ['/usr/sbin', '/usr/local/sbin']) {
  const dirs = [...(process.env.PATH || '').split(delimiter), ...extra].filter(Boolean);
  return names.some((n) => dirs.some((d) => {
    try { accessSync(join(d, n), constants.X_OK); return true; } catch { return false; }
  }));
}

/** What a flag needs from apt, when it is not here: { packages, why } or null. */
function serverNeeds() {
  const { mariadbd, installDb } = findServerBinaries(); // exactly what the harness will look for
  if (mariadbd && installDb) {
    // Only connect_tls needs it (the embedded server's certificate): a notice, not a failure.
    if (!findOpenssl()) say('openssl was not found: connect_tls will be n/a — install it (as root: apt-get install openssl)');
    return null;
  }
  // openssl makes the embedded server's TLS certificate (connect_tls).
  return { packages: ['mariadb-server', 'openssl'], why: 'mariadbd was not found', howTo: 'install the mariadb-server package (e.g. `sudo apt-get install mariadb-server`), or set DB_HOST/DB_SOCKET to use an existing server' };
}

/** --count instructions runs each row under Valgrind. */
const valgrindNeeds = () => (onPath(['valgrind']) ? null : { packages: ['valgrind'], why: '--count instructions runs each row under it', howTo: 'install the valgrind package (e.g. `sudo apt-get install valgrind`)' });

/** The record page's test opens it in a headless browser. */
const browserNeeds = () => (onPath(['chromium', 'chromium-browser']) ? null : { packages: ['chromium'], why: "the record page's test opens it headless", howTo: 'install the chromium package (e.g. `sudo apt-get install chromium`)' });

/** The value of `--flag <value>` on the command line, or null. */
function flagValue(flag) {
  const i = process.argv.indexOf(flag);
  return i > 0 && process.argv[i + 1] && !process.argv[i + 1].startsWith('--') ? process.argv[i + 1] : null;
}

/**
 * Install what the flags need in one apt-get step (one `apt-get update`). With --deb-cache <dir> the
 * downloaded packages are kept there (a CI cache keeps that directory), and packages already there are
 * installed from it first, with no `apt-get update` and no download; where that does not resolve, apt
 * fetches what is missing. Keeps the package from starting a system-wide server: the harness starts its own.
 */
function ensurePackages(needs) {
  if (!needs.length) return;
  const packages = needs.flatMap((n) => n.packages);
  const howTo = needs.map((n) => n.howTo).join('; ');
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot || !onPath(['apt-get'])) {
    say(`${packages.join(', ')} ${packages.length === 1 ? 'was' : 'were'} not found and this machine cannot install ${packages.length === 1 ? 'it' : 'them'} here (${isRoot ? 'no apt-get' : 'not root'}) — ${howTo}`);
    process.exit(EXIT.INSTALL);
  }
  const debCache = flagValue('--deb-cache');
  if (debCache) mkdirSync(join(debCache, 'partial'), { recursive: true });
  const archives = debCache ? ['-o', `Dir::Cache::Archives=${debCache}`] : [];
  const install = ['install', '-y', '--no-install-recommends', ...archives];
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const cached = debCache ? readdirSync(debCache).filter((f) => f.endsWith('.deb')).map((f) => join(debCache, f)) : [];
  const policy = '/usr/sbin/policy-rc.d';
  const addedPolicy = !existsSync(policy);
  if (addedPolicy) writeFileSync(policy, '#!/bin/sh\nexit 101\n', { mode: 0o755 });
  let ok = false;
  try {
    const step = (how, commands, logName, quiet = false) => runLoggedStep({
      doing: `installing ${packages.join(', ')}`, how, done: `${packages.join(', ')} installed`, logName, commands, spawnOptions: { env },
    }, { say: quiet ? (line) => { if (!/ failed after |^ {2}\| /.test(line)) say(line); } : say });
    ok = cached.length > 0 && step(`apt-get, from the ${cached.length} packages kept in ${debCache}`, [['apt-get', [...install, ...cached, ...packages]]], 'apt-get-cached.log', true);
    if (!ok && cached.length) say(`the packages kept in ${debCache} did not install alone (see apt-get-cached.log): apt-get fetches what is missing`);
    if (!ok) step(`apt-get, about a minute; ${needs.map((n) => n.why).join('; ')}`, [['apt-get', ['update']], ['apt-get', [...install, ...packages]]], 'apt-get.log') && (ok = true);
  } finally {
    if (addedPolicy) rmSync(policy, { force: true });
  }
  // After the finally: process.exit() inside the try would skip it and leave the policy in place.
  if (!ok) {
    say(`apt-get could not install ${packages.join(', ')} — ${howTo}`);
    process.exit(EXIT.INSTALL);
  }
}

ensureDependencies();
ensurePackages([process.argv.includes('--server') && serverNeeds(), process.argv.includes('--valgrind') && valgrindNeeds(), process.argv.includes('--browser') && browserNeeds()].filter(Boolean));
