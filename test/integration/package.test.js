// The project as npm installs it: `npm pack`, the tarball installed into an empty directory (its
// dependencies from npm's cache), and the installed CLI run from there. The tarball must hold every
// file the code reads at run time and nothing for development, `npm publish --dry-run` must pass,
// and the installed copy must write only under the working directory, the temp dir or the user's
// cache, never inside node_modules.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BENCHES } from '../../benchs/index.js';
import { findServerBinaries } from '../../lib/server/embedded.js';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8'));
const fixture = fileURLToPath(new URL('../fixtures/results/readme-example.json', import.meta.url));

// npm's own variables from an enclosing `npm test` (its prefix, its package) must not steer the
// install: the children get the environment without them, npm's cache kept.
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('npm_') || k === 'npm_config_cache'));
env.npm_config_update_notifier = 'false';

function run(command, args, cwd, timeout = 60000) {
  const r = spawnSync(command, args, { cwd, env, encoding: 'utf8', timeout });
  return { status: r.status, stdout: r.stdout ?? '', stderr: `${r.stderr ?? ''}${r.error ? r.error.message : ''}` };
}
const npx = (args, cwd) => run('npx', ['--no', '--', ...args], cwd); // --no: the installed bin or nothing, never the registry's
const explain = (r) => `exit ${r.status}\nstdout: ${r.stdout.slice(-2000)}\nstderr: ${r.stderr.slice(-2000)}`;

/** Each file under `dir`, with its size and modification time. */
function snapshot(dir) {
  return new Map(readdirSync(dir, { recursive: true }).map((f) => {
    const s = statSync(join(dir, f));
    return [f, s.isDirectory() ? 'dir' : `${s.size} ${s.mtimeMs}`];
  }));
}

let tmp; // removed after, however the tests end
let packed; // npm pack --json's entry: { filename, files, size, entryCount, … }
let app; // the empty directory the tarball is installed into
let installed; // app/node_modules/mysql-driver-bench
let installedFiles; // app/node_modules as npm left it, for the last test

before(() => {
  tmp = mkdtempSync(join(tmpdir(), 'mdb-package-test-'));
  const pack = run('npm', ['pack', '--json', '--pack-destination', tmp], repo);
  assert.equal(pack.status, 0, explain(pack));
  [packed] = JSON.parse(pack.stdout);
  app = join(tmp, 'app');
  mkdirSync(app);
  const install = run('npm', ['install', join(tmp, packed.filename), '--prefer-offline', '--no-audit', '--no-fund'], app, 180000);
  assert.equal(install.status, 0, explain(install));
  installed = join(app, 'node_modules', pkg.name);
  installedFiles = snapshot(join(app, 'node_modules'));
});

after(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

// Relative imports (static, re-exports, dynamic with a string literal) and files located with
// `new URL('./…', import.meta.url)`: what a module reads from the package at run time.
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)(['"])(\.{1,2}\/[^'"]+)\1/gm;
const FILE_URL = /new URL\(\s*(['"])(\.{1,2}\/[^'"]*[^/'"])\1\s*,\s*import\.meta\.url\s*\)/g;

/** Every file of the repository reached from `entries` through SPECIFIER and FILE_URL, relative to the repository. */
function filesReadAtRunTime(entries) {
  const seen = new Set();
  const queue = entries.map((e) => resolve(repo, e));
  while (queue.length) {
    const file = queue.pop();
    const rel = relative(repo, file).split(sep).join('/');
    if (seen.has(rel) || !existsSync(file)) continue;
    seen.add(rel);
    if (!file.endsWith('.js')) continue;
    const text = readFileSync(file, 'utf8');
    for (const m of [...text.matchAll(SPECIFIER), ...text.matchAll(FILE_URL)]) queue.push(resolve(dirname(file), m[2]));
  }
  return seen;
}

/** Every .js file under a folder of the repository (modules loaded by computed name included). */
function modulesUnder(dir) {
  return readdirSync(join(repo, dir), { recursive: true })
    .map((f) => `${dir}/${f.split(sep).join('/')}`)
    .filter((f) => f.endsWith('.js'));
}

test('the tarball holds every file the CLI reads at run time, and nothing for development', () => {
  const inTarball = new Set(packed.files.map((f) => f.path));
  const needed = new Set([
    'package.json', 'README.md',
    ...filesReadAtRunTime(Object.values(pkg.bin)),
    ...['bin', 'lib', 'benchs'].flatMap(modulesUnder),
  ]);
  assert.ok(needed.has('docs/results.schema.json') && needed.has('conf.js') && needed.has('scripts/setup.js'), [...needed].join('\n'));
  assert.deepEqual([...needed].filter((f) => !inTarball.has(f)), [], 'read at run time but missing from the tarball (package.json "files")');
  const development = [...inTarball].filter((f) => /^(test|results|deploy|\.ci|\.github)\//.test(f)
    || f.startsWith('docs/history/') || ['docs/development.md', 'package-lock.json'].includes(f)
    || (f.startsWith('scripts/') && f !== 'scripts/setup.js'));
  assert.deepEqual(development, [], 'for development only, yet in the tarball');
  assert.equal(pkg.private, undefined);
  assert.match(pkg.repository.url, /^git\+https:\/\/github\.com\/.+\.git$/);
});

// What the release workflow's `npm publish` would send. --offline: npm 11's dry run otherwise asks
// the registry for the package's published versions (and refuses one already there); this checks
// the package, not the registry, so it runs without a network.
test('`npm publish --dry-run` passes and sends the licence, the changelog and the README, and no test or development page', () => {
  const r = run('npm', ['publish', '--dry-run', '--offline', '--json'], repo);
  assert.equal(r.status, 0, explain(r));
  const report = JSON.parse(r.stdout);
  const published = report[pkg.name] ?? report; // npm 11 keys the report by the name; npm 10 does not
  assert.equal(published.version, pkg.version);
  assert.match(pkg.version, /^\d+\.\d+\.\d+$/, 'package.json\'s version is semver');
  const files = published.files.map((f) => f.path);
  for (const f of ['LICENSE', 'CHANGELOG.md', 'README.md', 'package.json', 'bin/mysql-driver-bench.js']) assert.ok(files.includes(f), `${f} is published`);
  assert.deepEqual(files.filter((f) => f.startsWith('test/') || f === 'docs/development.md'), [], 'for development only, yet published');
  assert.match(readFileSync(join(repo, 'CHANGELOG.md'), 'utf8'), new RegExp(`^## \\[${pkg.version.replaceAll('.', '\\.')}\\] - \\d{4}-\\d{2}-\\d{2}$`, 'm'), `CHANGELOG.md has a dated section for ${pkg.version}`);
});

test('installed from the tarball into an empty directory, `npx mysql-driver-bench --help` and `list` print what the clone prints', () => {
  const clone = (args) => run(process.execPath, [join(repo, 'bin/mysql-driver-bench.js'), ...args], repo);

  const help = npx(['mysql-driver-bench', '--help'], app);
  assert.equal(help.status, 0, explain(help));
  assert.match(help.stdout, /^Usage: mysql-driver-bench \[run\] \[options\] \[bench\.\.\.\]/);
  const commands = help.stdout.split('\nCommands:\n')[1] ?? '';
  for (const command of ['aa', 'calibrate', 'list', 'compare', 'report', 'merge']) {
    assert.match(commands, new RegExp(`^  ${command} `, 'm'), `--help lists ${command}`);
  }
  assert.equal(help.stdout, clone(['--help']).stdout);

  const version = npx(['mysql-driver-bench', '--version'], app);
  assert.equal(version.stdout.trim(), pkg.version, explain(version));

  const list = npx(['mysql-driver-bench', 'list'], app);
  assert.equal(list.status, 0, explain(list));
  for (const bench of BENCHES) assert.match(list.stdout, new RegExp(`│ ${bench.name} +│`), `list shows ${bench.name}`);
  for (const driver of ['mysql', 'mysql2', 'mariadb']) assert.match(list.stdout, new RegExp(`│ ${driver} +│`), `list has a column for ${driver}`);
  assert.equal(list.stdout, clone(['list']).stdout);
});

test('the installed copy renders a results file: the report renderers and the results schema load from it', () => {
  const r = npx(['mysql-driver-bench', 'report', fixture, '--html', 'report.html', '--markdown', 'report.md', '--svg', 'forest.svg', '-q'], app);
  assert.equal(r.status, 0, explain(r));
  assert.match(readFileSync(join(app, 'report.html'), 'utf8'), /^<!DOCTYPE html>/i);
  assert.match(readFileSync(join(app, 'report.md'), 'utf8'), /\| bench \|/);
  assert.match(readFileSync(join(app, 'forest.svg'), 'utf8'), /<svg/);
});

// Last: it also holds the tests above to writing nothing inside node_modules.
test('the installed copy writes under the working directory, the temp dir or the user cache, never inside node_modules', () => {
  const modules = join(app, 'node_modules');

  // The set-up: a clone's step that installs the dependencies must leave an installed copy alone,
  // and the server's step only looks when mariadbd is there already.
  const setup = npx(['mysql-driver-bench-setup', ...(findServerBinaries().mariadbd ? ['--server'] : [])], app);
  assert.equal(setup.status, 0, explain(setup));
  assert.doesNotMatch(setup.stderr, /npm ci/);

  // A run as far as it gets without a server (the results dir is checked before the server): it
  // creates the default --out, where its replay sets would go too, in the working directory.
  const runNoServer = npx(['mysql-driver-bench', 'do', '--smoke', '--host', '127.0.0.1', '--port', '1'], app);
  assert.equal(runNoServer.status, 3, explain(runNoServer));
  assert.match(runNoServer.stderr, /nothing is listening on 127\.0\.0\.1:1/);
  assert.ok(statSync(join(app, 'results')).isDirectory(), 'the default --out is made in the working directory');

  // Where the rest resolves from the installed modules: the release and runtime cache, the embedded
  // server's data directory (its TLS certificate beside it) and the set-up's logs.
  const script = `
    const at = (m) => import.meta.resolve('${pkg.name}/' + m);
    const { defaultCacheDir } = await import(at('lib/drivers/versions.js'));
    const { serverStorage } = await import(at('lib/server/storage.js'));
    const { setupLogDir } = await import(at('lib/server/setup-steps.js'));
    console.log(JSON.stringify({ module: new URL(at('lib/drivers/versions.js')).pathname,
      cache: defaultCacheDir(), server: serverStorage().base, setupLogs: setupLogDir() }));`;
  const where = run(process.execPath, ['--input-type=module', '-e', script], app);
  assert.equal(where.status, 0, explain(where));
  const paths = JSON.parse(where.stdout);
  assert.ok(paths.module.startsWith(installed + sep), `the installed copy answered: ${paths.module}`);
  for (const key of ['cache', 'server', 'setupLogs']) {
    assert.ok(!resolve(paths[key]).startsWith(modules + sep), `${key} resolves inside node_modules: ${paths[key]}`);
  }

  const changed = [...snapshot(modules)].filter(([f, s]) => installedFiles.get(f) !== s).map(([f]) => f);
  assert.deepEqual(changed, [], 'written inside node_modules');
});
