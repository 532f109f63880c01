// Commits of a git repository as rows (mysql2@git:<repo>#<ref>), on a small repository the test makes:
// two refs of one version are two rows, labelled by commit; the repository is only read; the
// dependencies are installed once per dependency tree and reused; a checkout's label names its
// commit; bad input is one line with its exit code and leaves nothing behind.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseGitSpec, productionTree } from '../../lib/drivers/git.js';
import { gitCacheEntries, pruneGitCache } from '../../lib/drivers/git-cache.js';
import { splitLabel, splitRepeat } from '../../lib/drivers/spec.js';
import { expandRuntimes } from '../../lib/drivers/runtimes.js';
import { gitIn, makeDriverRepo } from '../helpers/driver-repo.js';
import { isolatedDirs, leftovers, noStackTrace, removeIsolatedDirs, runCli } from '../helpers/cli.js';

const base = mkdtempSync(join(tmpdir(), 'mdb-git-rows-test-'));
const cache = join(base, 'cache');
after(() => {
  rmSync(base, { recursive: true, force: true });
  removeIsolatedDirs();
});

const repo = makeDriverRepo(join(base, 'mysql2'));
const v1 = gitIn(repo.dir, 'rev-parse', 'v1');
const { version } = JSON.parse(readFileSync(join(repo.dir, 'package.json'), 'utf8'));
// Same version, other code.
const v2 = repo.commit('a change', { 'lib/base/connection.js': (text) => `${text}\n// a change\n` });

/** Everything that would show the repository was written to: status, HEAD, refs, and every file under .git with its size and mtime. */
function repositoryState(dir) {
  const files = [];
  const walk = (d) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      else files.push(`${p} ${st.size} ${st.mtimeMs}`);
    }
  };
  walk(join(dir, '.git'));
  // --no-optional-locks: the test's own status must not refresh the index it compares.
  return { status: gitIn(dir, '--no-optional-locks', 'status', '--porcelain'), head: gitIn(dir, 'rev-parse', 'HEAD'), files: files.sort() };
}

const run = (args, { cacheDir = cache, ...opts } = {}) => {
  const dirs = isolatedDirs();
  return runCli([...args, ...(args[0] === 'list' ? [] : ['-o', dirs.out])], { tmp: dirs.tmp, env: { MYSQL_DRIVER_BENCH_CACHE: cacheDir }, timeoutMs: 180000, ...opts })
    .then((r) => ({ ...r, dirs }));
};
const savedResults = (out) => JSON.parse(readFileSync(join(out, readdirSync(out).find((f) => f.endsWith('.json'))), 'utf8'));

test('the spec: a git ref after the first #, a repeat tag after the second, a label before =', () => {
  assert.deepEqual(parseGitSpec('mysql2@git:../x#v3.9.0'), { package: 'mysql2', repo: '../x', ref: 'v3.9.0' });
  assert.deepEqual(parseGitSpec('git:/r#HEAD~3'), { package: null, repo: '/r', ref: 'HEAD~3' });
  assert.deepEqual(parseGitSpec('mysql2@git:../x'), { package: 'mysql2', repo: '../x', ref: 'HEAD' });
  assert.deepEqual(splitRepeat('mysql2@git:../x#v3.9.0'), { base: 'mysql2@git:../x#v3.9.0', tag: null });
  assert.deepEqual(splitRepeat('mysql2@git:../x#v3.9.0#b'), { base: 'mysql2@git:../x#v3.9.0', tag: 'b' });
  assert.deepEqual(splitRepeat('head=mysql2@git:.#main'), { base: 'head=mysql2@git:.#main', tag: null });
  assert.deepEqual(splitRepeat('mysql2#2'), { base: 'mysql2', tag: '2' });
  assert.deepEqual(splitLabel('head=mysql2@git:.#HEAD'), { label: 'head', spec: 'mysql2@git:.#HEAD' });
  assert.deepEqual(splitLabel('mysql2:disableEval=true'), { label: null, spec: 'mysql2:disableEval=true' });
  assert.deepEqual(expandRuntimes(['mysql2@git:../x#v1'], ['node', 'node@24']), ['mysql2@git:../x#v1', 'mysql2@git:../x#v1~node@24']);
});

test('the dependency tree: a lockfile change in development tools only installs nothing new; a production change does', () => {
  const manifest = { name: 'mysql2', dependencies: { a: '^1' }, devDependencies: { t: '^1' } };
  const lock = (devVersion, aVersion) => ({ lockfileVersion: 3, packages: { '': {}, 'node_modules/a': { version: aVersion }, 'node_modules/t': { version: devVersion, dev: true } } });
  assert.equal(productionTree(manifest, lock('1.0.0', '1.0.0')), productionTree({ ...manifest, devDependencies: { t: '^2' } }, lock('2.0.0', '1.0.0')));
  assert.notEqual(productionTree(manifest, lock('1.0.0', '1.0.0')), productionTree(manifest, lock('1.0.0', '1.0.1')));
  assert.notEqual(productionTree(manifest, null), productionTree({ ...manifest, dependencies: { a: '^2' } }, null));
});

test('two refs of one version are two rows, labelled by commit, end to end; the repository is untouched; a second run reuses the cache', async () => {
  const before = repositoryState(repo.dir);
  const drivers = `mysql2@git:${repo.dir}#v1,mysql2@git:${repo.dir}#HEAD`;
  const first = await run(['do', '--smoke', '--drivers', drivers]);
  assert.equal(first.code, 0, first.stderr);
  const labels = [`mysql2@${version}+${v1.slice(0, 7)}`, `mysql2@${version}+${v2.slice(0, 7)}`];
  const results = savedResults(first.dirs.out);
  assert.deepEqual(results.drivers.map((d) => d.name), labels);
  assert.deepEqual(results.drivers.map((d) => d.git.commit), [v1, v2]);
  assert.deepEqual(results.benches[0].results.map((r) => r.ok).sort(), [true, true]);
  assert.match(first.stderr, /extracting commit/);
  assert.equal((first.stderr.match(/installing the production dependencies/g) ?? []).length, 1, 'one dependency tree, installed once');
  assert.deepEqual(repositoryState(repo.dir), before);

  const second = await run(['do', '--smoke', '--drivers', drivers]);
  assert.equal(second.code, 0, second.stderr);
  assert.doesNotMatch(second.stderr, /extracting commit|installing the production dependencies/);
  assert.deepEqual(repositoryState(repo.dir), before);

  const again = await run(['list', '--drivers', `mysql2@git:${repo.dir}#v1`, '--reinstall']);
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stderr, /extracting commit .*\n.*installing the production dependencies/);
  assert.deepEqual(leftovers(first.dirs.tmp), { files: [], processes: [] });
});

test('a checkout at the root of a git work tree is labelled by its commit, and marked dirty when git sees changes', async () => {
  const clone = join(base, 'clone');
  gitIn(base, 'clone', '-q', repo.dir, clone);
  // Its dependencies: the install the git rows made (node_modules is ignored by the repository).
  const deps = gitCacheEntries(cache).find((e) => e.dir.includes('/deps/')).dir;
  symlinkSync(join(deps, 'node_modules'), join(clone, 'node_modules'));
  gitIn(clone, 'checkout', '-q', 'v1');
  const clean = await run(['do', '--smoke', '--drivers', `mysql2@file:${clone},mysql2@git:${repo.dir}#HEAD`]);
  assert.equal(clean.code, 0, clean.stderr);
  assert.deepEqual(savedResults(clean.dirs.out).drivers.map((d) => d.name), [`mysql2@${version}+${v1.slice(0, 7)}`, `mysql2@${version}+${v2.slice(0, 7)}`]);
  writeFileSync(join(clone, 'lib', 'base', 'connection.js'), `${readFileSync(join(clone, 'lib', 'base', 'connection.js'), 'utf8')}\n// edited\n`);
  const dirty = await run(['do', '--smoke', '--drivers', `mysql2@file:${clone},mysql2@git:${repo.dir}#v1`]);
  assert.equal(dirty.code, 0, dirty.stderr);
  const names = savedResults(dirty.dirs.out).drivers.map((d) => d.name);
  assert.deepEqual(names, [`mysql2@${version}+${v1.slice(0, 7)}-dirty`, `mysql2@${version}+${v1.slice(0, 7)}`]);
  assert.equal(savedResults(dirty.dirs.out).drivers[0].git.dirty, true);
});

test('the same commit twice needs labels of the user\'s, and gets them', async () => {
  const same = await run(['list', '--drivers', `mysql2@git:${repo.dir}#v1,mysql2@git:${repo.dir}#main~1`]);
  assert.equal(same.code, 2);
  assert.match(same.stderr, /two drivers are named 'mysql2@[\d.]+\+[0-9a-f]{7}'.*label a row yourself \(label=spec\)/);
  const labelled = await run(['do', '--smoke', '--drivers', `a=mysql2@git:${repo.dir}#v1,b=mysql2@git:${repo.dir}#main~1`, '--baseline', 'a']);
  assert.equal(labelled.code, 0, labelled.stderr);
  assert.deepEqual(savedResults(labelled.dirs.out).drivers.map((d) => d.name), ['a', 'b']);
});

test('bad input: one line, its exit code, nothing left behind, the repository untouched', async () => {
  const plain = mkdtempSync(join(base, 'plain-'));
  const unknown = makeDriverRepo(join(base, 'pg'), { name: 'pg' });
  const broken = makeDriverRepo(join(base, 'broken'));
  // A dependency npm cannot install, without the network: a local directory that does not exist (no lockfile: npm install).
  broken.commit('a dependency that cannot be installed', {
    'package.json': (text) => JSON.stringify({ ...JSON.parse(text), dependencies: { ...JSON.parse(text).dependencies, 'not-there': 'file:./not-there.tgz' } }),
    'package-lock.json': null,
  });
  const before = repositoryState(repo.dir);
  const cases = [
    { drivers: `mysql2@git:${repo.dir}#no-such-ref`, code: 2, says: /no commit 'no-such-ref' in .* — name a branch, tag or commit/ },
    { drivers: `mysql2@git:${plain}#HEAD`, code: 2, says: /is not a git repository — point git: at a clone/ },
    { drivers: `mysql2@git:${unknown.dir}#HEAD`, code: 2, says: /holds 'pg', not mysql2/ },
    { drivers: `git:${unknown.dir}#HEAD`, code: 2, says: /holds 'pg', which is not a driver the harness knows \(mysql, mysql2, mariadb\)/ },
    { drivers: `pg@git:${unknown.dir}#HEAD`, code: 2, says: /'pg' is not a driver the harness knows/ },
    { drivers: `mysql2@git:${broken.dir}#HEAD`, code: 5, says: /cannot install the dependencies of mysql2@[\d.]+\+[0-9a-f]{7} \(commit [0-9a-f]{7}\): .* — check that `npm install --omit=dev` works/ },
  ];
  for (const c of cases) {
    const r = await run(['do', '--smoke', '--drivers', c.drivers]);
    assert.equal(r.code, c.code, `${c.drivers}: ${r.stderr}`);
    const lines = r.stderr.trim().split('\n').filter((l) => !/^(extracting|installing)/.test(l));
    assert.equal(lines.length, 1, r.stderr);
    assert.match(lines[0], c.says);
    assert.ok(noStackTrace(r.stderr));
    assert.deepEqual(leftovers(r.dirs.tmp), { files: [], processes: [] });
    assert.equal(existsSync(r.dirs.out) ? readdirSync(r.dirs.out).length : 0, 0, 'no results file');
  }
  const halfMade = readdirSync(join(cache, 'git', 'deps')).concat(readdirSync(join(cache, 'git', 'commits'))).filter((n) => n.includes('.tmp-'));
  assert.deepEqual(halfMade, []);
  assert.deepEqual(repositoryState(repo.dir), before);
});

test('the cache is kept to its bound, least recently used first, never an entry the run uses', () => {
  const dir = mkdtempSync(join(base, 'prune-'));
  const entry = (kind, name, ageS, bytes) => {
    const d = join(dir, 'git', kind, name);
    mkdirSync(d, { recursive: true });
    writeFileSync(join(d, 'payload'), Buffer.alloc(bytes));
    writeFileSync(join(d, '.last-used'), '');
    const t = new Date(Date.now() - ageS * 1000);
    utimesSync(join(d, '.last-used'), t, t);
    return d;
  };
  const oldest = entry('commits', 'a', 300, 4000);
  const inUse = entry('deps', 'b', 200, 4000);
  const middle = entry('commits', 'c', 100, 4000);
  const newest = entry('deps', 'd', 0, 4000);
  const size = (d) => gitCacheEntries(dir).find((e) => e.dir === d).bytes;
  const { removed } = pruneGitCache(dir, { keep: [inUse], maxBytes: size(inUse) + size(newest) });
  assert.deepEqual(removed, [oldest, middle]);
  assert.deepEqual([oldest, inUse, middle, newest].map(existsSync), [false, true, false, true]);
  assert.deepEqual(pruneGitCache(dir, { maxBytes: 1e9 }).removed, []);
});

test('a clone that lacks a file its package does not ship (a mirror without its test data): the shipped files are extracted, and the row runs', async () => {
  const lacking = makeDriverRepo(join(base, 'lacking'));
  mkdirSync(join(lacking.dir, 'test'), { recursive: true });
  const sha = lacking.commit('test: a large data file', { 'test/data.sql': `${'x'.repeat(4096)}\n` });
  // The file's object gone from the repository, as a mirror that left out its largest files has it.
  const blob = gitIn(lacking.dir, 'rev-parse', `${sha}:test/data.sql`);
  rmSync(join(lacking.dir, '.git', 'objects', blob.slice(0, 2), blob.slice(2)));
  assert.throws(() => gitIn(lacking.dir, 'archive', sha), /cannot read|invalid object/);
  const { tmp, out } = isolatedDirs();
  const r = await runCli(['do', '--smoke', '--replay', '--count', 'allocations', '--drivers', `mysql2@git:${lacking.dir}#${sha}`, '--out', out], { tmp, env: { MYSQL_DRIVER_BENCH_CACHE: join(base, 'cache-lacking') } });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, new RegExp(`commit ${sha.slice(0, 7)}: .*: extracting the \\d+ files its package ships`));
  const extracted = join(base, 'cache-lacking', 'git', 'commits', sha);
  assert.ok(existsSync(join(extracted, 'lib')) && existsSync(join(extracted, 'package.json')) && !existsSync(join(extracted, 'test')));
});
