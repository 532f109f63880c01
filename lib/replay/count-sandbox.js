// Where a count process runs, so that its count does not depend on which checkout of the harness made
// it, nor on the environment it inherits: a directory named by what the process counts
// (/tmp/mdb-<12 hex digits>: the same row, benches and sets, the same name in every run and clone)
// holding links to the harness (h), to its dependencies (node_modules, when they lie outside it) and
// to a checkout's driver (d), its replay sets and its job; the process runs there with Node keeping
// the links' paths (--preserve-symlinks) and a fixed environment: a driver that captures a stack per
// query counts the paths it sees (docs/history/2026-11-28-gate.md#designs-tried).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { DRIVER_PROCESS_TZ } from '../measuring/processes/launch.js';
import { defaultCacheDir } from '../drivers/versions.js';
import { COUNT_THREAD_POOL } from './valgrind.js';
import { findExecutable, pathDirs } from '../common/find-executable.js';

const HARNESS_ROOT = fileURLToPath(new URL('../../', import.meta.url));

// The root the directory is made in: /tmp where it can be written (the same on every Linux host),
// else the system's temp dir.
const SANDBOX_ROOT = (() => {
  try {
    fs.accessSync('/tmp', fs.constants.W_OK);
    return '/tmp';
  } catch {
    return os.tmpdir();
  }
})();

// Node options of a count process: module paths stay those of the links, never the targets'.
export const COUNT_NODE_FLAGS = Object.freeze(['--preserve-symlinks', '--preserve-symlinks-main']);

// The search path a count process gets (it starts nothing it needs to find; git, where a checkout is
// described, is found there on most hosts).
const FIXED_PATH = '/usr/local/bin:/usr/bin:/bin';

/** The absolute path of command `name` on the harness's own PATH (a count process's is fixed), or `name`. */
export function commandPath(name, env = process.env) {
  return findExecutable([name], pathDirs(env.PATH)) ?? name;
}

/** What settings.count records of the sandbox: compare requires it to match. */
export const sandboxRecord = () => ({ root: SANDBOX_ROOT, nodeFlags: [...COUNT_NODE_FLAGS], env: 'fixed' });

/** The node_modules the harness's dependencies resolve from (its own, or the one it is installed in). */
function dependencyDir() {
  const pkg = createRequire(path.join(HARNESS_ROOT, 'package.json')).resolve('mysql2/package.json');
  return path.dirname(path.dirname(pkg));
}

/**
 * Pure: a checkout's spec (`pkg@file:<dir>[:options]`) with <dir> replaced by `link`, and the dir; or
 * null for any other spec (a built-in driver, a release). `exists` says which prefix is the directory.
 */
export function checkoutSpec(spec, link, exists = fs.existsSync) {
  const m = /^([\w.-]+)@file:(.+)$/.exec(spec);
  if (!m) return null;
  const parts = m[2].split(':');
  for (let n = parts.length; n > 0; n--) {
    const dir = parts.slice(0, n).join(':');
    if (exists(dir)) return { spec: [`${m[1]}@file:${link}`, ...parts.slice(n)].join(':'), dir };
  }
  return null;
}

// Directories this process uses, and how many of its count processes use each (an A/A twin shares its row's).
const users = new Map();

/** Pure: a sandbox's name from what its process counts (`identity`, any JSON value). */
export const sandboxName = (identity) => `mdb-${createHash('sha256').update(JSON.stringify(identity)).digest('hex').slice(0, 12)}`;

/** The directory for `identity`: this process's own when it has one, else a new one; another run's is not shared. */
function claim(identity) {
  const dir = path.join(SANDBOX_ROOT, sandboxName(identity));
  if (users.has(dir)) {
    users.set(dir, users.get(dir) + 1);
    return { dir, fresh: false };
  }
  try {
    fs.mkdirSync(dir);
  } catch (err) {
    if (err.code !== 'EEXIST') throw err;
    // Another run counts the same row now: a name of the same length, at random.
    const other = fs.mkdtempSync(path.join(SANDBOX_ROOT, `${sandboxName(identity).slice(0, -6)}`));
    users.set(other, 1);
    return { dir: other, fresh: true };
  }
  users.set(dir, 1);
  return { dir, fresh: true };
}

function release(dir) {
  const n = (users.get(dir) ?? 1) - 1;
  if (n > 0) return users.set(dir, n);
  users.delete(dir);
  fs.rmSync(dir, { recursive: true, force: true });
}

/**
 * Make (or share) a count process's directory for a row (`spec`, named in `identity` by what makes
 * its code: a commit, a release) and its benches (`items`, each with its replay set's path as `set`).
 * Returns { dir, entry (the process's script), job (its job file), env, remove() }.
 */
export function makeSandbox({ spec, items, chunks, primer, identity, meter = false }) {
  const { dir, fresh } = claim(identity);
  if (!fresh) return sandboxAt(dir);
  try {
    fs.symlinkSync(HARNESS_ROOT, path.join(dir, 'h'), 'dir');
    const deps = dependencyDir();
    if (path.resolve(deps) !== path.resolve(HARNESS_ROOT, 'node_modules')) fs.symlinkSync(deps, path.join(dir, 'node_modules'), 'dir');
    const checkout = checkoutSpec(spec, path.join(dir, 'd'));
    if (checkout) fs.symlinkSync(checkout.dir, path.join(dir, 'd'), 'dir');
    const rowSpec = checkout?.spec ?? spec;
    const sets = new Map();
    const place = (item) => {
      if (!sets.has(item.set)) {
        const file = path.join(dir, `set-${String(sets.size).padStart(2, '0')}.json`);
        fs.copyFileSync(item.set, file);
        sets.set(item.set, file);
      }
      return { ...item, spec: rowSpec, set: sets.get(item.set) };
    };
    const counted = items.map((item, index) => ({ ...place(item), index }));
    const primed = primer.map((item, index) => ({ ...place(item), index }));
    const job = path.join(dir, 'job.json');
    fs.writeFileSync(job, JSON.stringify({ items: counted, primer: primed, chunks, ...(meter ? { meter } : {}) }));
    return sandboxAt(dir);
  } catch (err) {
    release(dir);
    throw err;
  }
}

const sandboxAt = (dir) => ({
  dir,
  entry: path.join(dir, 'h', 'lib', 'replay', 'count-entry.cjs'),
  job: path.join(dir, 'job.json'),
  env: countEnv(),
  remove: () => release(dir),
});

/** A count process's environment: fixed, whatever the harness's was (its cache, where a release is installed, and Valgrind's own library). */
function countEnv() {
  return {
    PATH: FIXED_PATH,
    TZ: DRIVER_PROCESS_TZ,
    UV_THREADPOOL_SIZE: String(COUNT_THREAD_POOL),
    MYSQL_DRIVER_BENCH_CACHE: defaultCacheDir(process.env),
    ...(process.env.VALGRIND_LIB ? { VALGRIND_LIB: process.env.VALGRIND_LIB } : {}),
  };
}
