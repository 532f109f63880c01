// A small git repository of a driver for the git rows' tests: the installed mysql2's files, with a
// package-lock.json taken from this project's own lockfile (the same tarballs, which npm ci put in
// npm's cache), committed and tagged. Commits on top change its code or its package.json.
import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageDir } from '../../lib/drivers/common.js';

const PROJECT_LOCK = fileURLToPath(new URL('../../package-lock.json', import.meta.url));

/** Run git in `dir`; returns its trimmed stdout, or throws with its stderr. */
export function gitIn(dir, ...args) {
  const r = spawnSync('git', ['-C', dir, ...args], {
    encoding: 'utf8',
    env: { ...process.env, GIT_AUTHOR_NAME: 'test', GIT_AUTHOR_EMAIL: 'test@localhost', GIT_COMMITTER_NAME: 'test', GIT_COMMITTER_EMAIL: 'test@localhost' },
  });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout.trim();
}

/** A lockfile for `pkg` as the root package, from the entries this project's lockfile has for its production tree. */
function lockFor(pkg, manifest) {
  const { packages } = JSON.parse(readFileSync(PROJECT_LOCK, 'utf8'));
  const entries = {};
  const queue = [`node_modules/${pkg}`];
  while (queue.length) {
    const at = queue.shift();
    for (const dep of Object.keys(packages[at].dependencies ?? {})) {
      // Node's lookup: the nearest node_modules/<dep> going up from `at`.
      let found = null;
      for (let base = at; !found; base = base.slice(0, Math.max(0, base.lastIndexOf('/node_modules/')))) {
        const candidate = base ? `${base}/node_modules/${dep}` : `node_modules/${dep}`;
        if (packages[candidate]) found = candidate;
        if (!base) break;
      }
      if (!found) throw new Error(`${dep} (needed by ${at}) is not in this project's lockfile`);
      const path = found.replace(`node_modules/${pkg}/`, '');
      if (!entries[path]) {
        entries[path] = packages[found];
        queue.push(found);
      }
    }
  }
  const root = { name: manifest.name, version: manifest.version, license: manifest.license, dependencies: manifest.dependencies };
  return { name: manifest.name, version: manifest.version, lockfileVersion: 3, requires: true, packages: { '': root, ...entries } };
}

/**
 * A repository in `dir` holding the installed mysql2 (or `name` in its package.json), one commit
 * tagged `v1`. Returns { dir, commit(message, files) -> sha, head() }.
 */
export function makeDriverRepo(dir, { name } = {}) {
  cpSync(packageDir('mysql2'), dir, { recursive: true });
  const manifestFile = join(dir, 'package.json');
  // The published manifest lists development tools its lockfile here does not have: npm ci would refuse the pair.
  const { devDependencies, peerDependencies, ...manifest } = JSON.parse(readFileSync(manifestFile, 'utf8'));
  if (name) manifest.name = name;
  writeFileSync(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(join(dir, 'package-lock.json'), `${JSON.stringify(lockFor('mysql2', manifest), null, 2)}\n`);
  writeFileSync(join(dir, '.gitignore'), 'node_modules\n');
  gitIn(dir, 'init', '-q', '-b', 'main');
  gitIn(dir, 'add', '-A');
  gitIn(dir, 'commit', '-q', '-m', 'v1');
  gitIn(dir, 'tag', 'v1');
  return {
    dir,
    /** Write `files` ({ path: text, (old text) -> new text, or null to remove it }) and commit them. */
    commit(message, files) {
      for (const [path, change] of Object.entries(files)) {
        const file = join(dir, path);
        if (change === null) rmSync(file);
        else writeFileSync(file, typeof change === 'function' ? change(readFileSync(file, 'utf8')) : change);
      }
      gitIn(dir, 'add', '-A');
      gitIn(dir, 'commit', '-q', '-m', message);
      return gitIn(dir, 'rev-parse', 'HEAD');
    },
    head: () => gitIn(dir, 'rev-parse', 'HEAD'),
  };
}

/**
 * makeDriverRepo with a pull request's branch behind master: the branch point, the branch `pr` one
 * commit on from it, and master one commit on too. Returns { repo, point, head, tip } (full ids).
 */
export function makeBranchedRepo(dir) {
  const repo = makeDriverRepo(dir);
  const point = repo.commit('the branch point', { 'README.md': 'point\n' });
  gitIn(repo.dir, 'checkout', '-q', '-b', 'pr');
  const head = repo.commit('the pull request', { 'README.md': 'pr\n' });
  gitIn(repo.dir, 'checkout', '-q', 'main');
  const tip = repo.commit('master moves on', { 'README.md': 'later\n' });
  return { repo, point, head, tip };
}

/**
 * A change to mysql2's lib/base/connection.js that adds work to every query: a named function of
 * `loops` iterations outside the query method, its result kept in the module. (A field written on the
 * connection instead changed V8's code for the whole method: once it read 3.8 % fewer instructions.)
 */
export const addedQueryWork = (loops) => (text) => text
  .replace("'use strict';\n", `'use strict';\nlet extraWork = 0;\nfunction extraWorkForBench(n) {\n  let h = 0;\n  for (let i = 0; i < ${loops}; i++) h = (h * 31 + (n ^ i)) | 0;\n  return h;\n}\n`)
  .replace('  query(sql, values, cb) {\n', '  query(sql, values, cb) {\n    extraWork = extraWorkForBench(extraWork);\n');

/**
 * A change to mysql2's lib/base/connection.js that allocates `arrays` arrays of `length` small
 * integers on every query (8 bytes an element: `arrays` × `length` × 8 bytes), kept in the module until
 * the next query, so that V8 cannot leave them out: garbage a count of allocations must see, where a
 * count of instructions sees little.
 */
export const addedQueryAllocation = (arrays, length) => (text) => text
  .replace("'use strict';\n", `'use strict';\nlet extraGarbage = null;\nfunction extraGarbageForBench(n) {\n  const arrays = new Array(${arrays});\n  for (let i = 0; i < ${arrays}; i++) arrays[i] = new Array(${length}).fill(n + i);\n  return arrays;\n}\n`)
  .replace('  query(sql, values, cb) {\n', '  query(sql, values, cb) {\n    extraGarbage = extraGarbageForBench(extraGarbage ? extraGarbage.length : 0);\n');
