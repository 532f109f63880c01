// Where a count process runs: /tmp/mdb-<hash of what it counts>, linking the harness (h), its
// node_modules and a checkout's driver (d), with a fixed environment, as a driver that captures a stack
// per query counts the paths it sees (docs/history/2026-11-28-gate.md#designs-tried).
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

// /tmp where it can be written: the same on every Linux host.
const SANDBOX_ROOT = (() => {
  try {
    fs.accessSync('/tmp', fs.constants.W_OK);
    return '/tmp';
  } catch {
    return os.tmpdir();
  }
})();

export const COUNT_NODE_FLAGS = Object.freeze(['--preserve-symlinks', '--preserve-symlinks-main']);

// It starts nothing it needs to find; git, where a checkout is described, is found there on most hosts.
const FIXED_PATH = '/usr/local/bin:/usr/bin:/bin';

/** The absolute path of command `name` on the harness's own PATH (a count process's is fixed), or `name`. */
export function commandPath(name, env = process.env) {
  return findExecutable([name], pathDirs(env.PATH)) ?? name;
}

/** What settings.count records of the sandbox: compare requires it to match. */
export const sandboxRecord = () => ({ root: SANDBOX_ROOT, nodeFlags: [...COUNT_NODE_FLAGS], env: 'fixed' });

function dependencyDir() {
  const pkg = createRequire(path.join(HARNESS_ROOT, 'package.json')).resolve('mysql2/package.json');
  return path.dirname(path.dirname(pkg));
}

/** Pure: a checkout's spec (`pkg@file:<dir>[:options]`) with <dir> replaced by `link`, and the dir; else null. */
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

/** Makes (or shares) a count process's directory; `identity` names what makes the row's code (a commit, a release). */
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
