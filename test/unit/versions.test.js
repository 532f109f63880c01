// Driver releases (`--drivers mysql2@3.9.0`): spec checks, version resolution, the install cache.
// npm is replaced by a fake that lays out packages the way npm would, so no network is used.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  assertVersionedSpec, defaultCacheDir, ensureInstalled, isInstalled, loadVersionedDriver,
  parseVersionedSpec, resolveVersion,
} from '../../lib/drivers/versions.js';
import { assertDriverNames } from '../../lib/drivers/index.js';
import { EXIT, UserError } from '../../lib/common/errors.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'mdb-versions-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const PUBLISHED = { mysql: ['2.17.1', '2.18.1'], mysql2: ['3.9.0', '3.9.1', '3.24.0'], mariadb: ['3.4.0', '3.5.0'], 'promise-mysql': ['5.2.0'] };

function writePackage(base, name, version) {
  const d = join(base, 'node_modules', name);
  mkdirSync(d, { recursive: true });
  writeFileSync(join(d, 'package.json'), JSON.stringify({ name, version, main: 'index.js' }));
  writeFileSync(join(d, 'index.js'), `module.exports = { fake: '${name}@${version}' };\n`);
  if (name === 'mysql2') writeFileSync(join(d, 'promise.js'), `module.exports = { fake: 'mysql2/promise@${version}' };\n`);
}

/** A stand-in for npm: `view` answers from PUBLISHED, `install` lays out node_modules like npm. */
function fakeNpm({ nestMysql = false, offline = false } = {}) {
  const calls = [];
  const npm = async (args) => {
    calls.push(args);
    if (offline) return { code: 1, stdout: '', stderr: 'npm error code ENOTFOUND\nnpm error network request to the registry failed\n' };
    if (args[0] === 'view') {
      const [, spec] = args;
      const [pkg, want] = spec.split('@');
      const all = PUBLISHED[pkg] ?? [];
      const found = want === 'latest' ? [all.at(-1)] : want.startsWith('^') ? all.filter((v) => v.split('.')[0] === want.slice(1)) : all.filter((v) => v === want);
      if (!found.length) return { code: 1, stdout: JSON.stringify({ error: { code: 'E404', summary: `No match found for version ${want}` } }), stderr: `npm error code E404\nnpm error 404 No match found for version ${want}\n` };
      return { code: 0, stdout: JSON.stringify(found.length === 1 ? found[0] : found), stderr: '' };
    }
    if (args[0] === 'install') {
      const prefix = args[args.indexOf('--prefix') + 1];
      const manifest = JSON.parse(readFileSync(join(prefix, 'package.json'), 'utf8'));
      for (const [name, version] of Object.entries(manifest.dependencies)) writePackage(prefix, name, version);
      if (nestMysql) writePackage(join(prefix, 'node_modules', 'promise-mysql'), 'mysql', '2.18.1');
      return { code: 0, stdout: '', stderr: '' };
    }
    return { code: 1, stdout: '', stderr: `unexpected npm ${args.join(' ')}` };
  };
  npm.calls = calls;
  return npm;
}

test('a release is <driver>@<version, range or tag>; anything npm would read as a path or URL is refused', () => {
  assert.deepEqual(parseVersionedSpec('mysql2@3.9.0'), { package: 'mysql2', version: '3.9.0' });
  assert.deepEqual(assertVersionedSpec('mariadb@latest'), { package: 'mariadb', version: 'latest' });
  assert.deepEqual(assertVersionedSpec('mysql@^2'), { package: 'mysql', version: '^2' });
  assert.equal(parseVersionedSpec('mysql2'), null);
  assert.equal(parseVersionedSpec('pg@8.0.0'), null);
  for (const bad of ['mysql2@', 'mysql2@file:../x', 'mysql2@github:sidorares/node-mysql2', 'mysql2@https://example.invalid/x.tgz', 'mysql2@../x']) {
    assert.throws(() => assertVersionedSpec(bad), (e) => e instanceof UserError && e.exitCode === EXIT.USAGE && /is not a version, range or tag/.test(e.message), bad);
  }
  assert.doesNotThrow(() => assertDriverNames(['mysql2@3.9.0', 'mysql2', 'mariadb@latest']));
  assert.throws(() => assertDriverNames(['pg@8.0.0']), /unknown driver: pg@8\.0\.0/);
  // file: is a local checkout (test/integration/variants.test.js), not a registry release.
  assert.throws(() => assertDriverNames(['mysql2@file:x']), /local driver mysql2@file:x: .* is not a directory/);
  assert.throws(() => assertDriverNames(['mysql2@3.9.0', 'mysql2@3.9.0']), /named twice/);
});

test('the cache lives outside the project tree', () => {
  const d = defaultCacheDir({});
  assert.ok(relative(root, d).startsWith('..'), d);
  assert.match(d, /mysql-driver-bench$/);
  assert.equal(defaultCacheDir({ XDG_CACHE_HOME: '/var/cache/x' }), '/var/cache/x/mysql-driver-bench');
  assert.equal(defaultCacheDir({ MYSQL_DRIVER_BENCH_CACHE: '/srv/c' }), '/srv/c');
});

test('versions are resolved on the registry; one that does not exist is a usage error (2), the registry unreachable exit 5', async () => {
  const cacheDir = join(dir, 'resolve');
  const npm = fakeNpm();
  assert.equal(await resolveVersion('mysql2', '3.9.0', { npm, cacheDir }), '3.9.0');
  assert.equal(await resolveVersion('mysql2', 'latest', { npm, cacheDir }), '3.24.0');
  assert.equal(await resolveVersion('mysql2', '^3', { npm, cacheDir }), '3.24.0'); // a range: the highest match
  await assert.rejects(resolveVersion('mysql2', '9.9.9', { npm, cacheDir }), (e) => e instanceof UserError && e.exitCode === EXIT.USAGE
    && e.message === 'driver release mysql2@9.9.9 does not exist on the npm registry' && /npm view mysql2 versions/.test(e.hint));
  await assert.rejects(resolveVersion('mysql2', '3.9.0', { npm: fakeNpm({ offline: true }), cacheDir }),
    (e) => e.exitCode === EXIT.INSTALL && /cannot look up mysql2@3\.9\.0 on the npm registry: network request to the registry failed/.test(e.message));
});

test('a release is installed once into its cache directory, then reused without npm', async () => {
  const cacheDir = join(dir, 'cache1');
  const npm = fakeNpm();
  const logs = [];
  const first = await ensureInstalled('mysql2', '3.9.0', { npm, cacheDir, log: (l) => logs.push(l) });
  assert.equal(first.installed, true);
  assert.equal(first.dir, join(cacheDir, 'mysql2@3.9.0'));
  assert.equal(npm.calls.length, 1);
  const install = npm.calls[0];
  assert.equal(install[0], 'install');
  for (const flag of ['--prefix', '--no-save', '--no-audit', '--no-fund']) assert.ok(install.includes(flag), flag);
  assert.ok(!install[install.indexOf('--prefix') + 1].startsWith(root), 'never into the project');
  assert.ok(isInstalled(cacheDir, 'mysql2', '3.9.0'));
  assert.match(logs.join('\n'), /installing mysql2@3\.9\.0 into .*mysql2@3\.9\.0 \(first use\)\ninstalled mysql2@3\.9\.0 in \d+\.\d s/);
  // No temporary directories left behind.
  assert.deepEqual(readdir(cacheDir), ['mysql2@3.9.0']);

  const second = await ensureInstalled('mysql2', '3.9.0', { npm, cacheDir });
  assert.equal(second.installed, false);
  assert.equal(npm.calls.length, 1);
  // An exact version already cached does not even ask the registry.
  assert.equal(await resolveVersion('mysql2', '3.9.0', { npm, cacheDir }), '3.9.0');
  assert.equal(npm.calls.length, 1);
});

test('mysql@x is installed with promise-mysql, which must load that very mysql', async () => {
  const cacheDir = join(dir, 'cache2');
  const npm = fakeNpm();
  await ensureInstalled('mysql', '2.17.1', { npm, cacheDir });
  const manifest = JSON.parse(readFileSync(join(cacheDir, 'mysql@2.17.1', 'package.json'), 'utf8'));
  assert.equal(manifest.dependencies.mysql, '2.17.1');
  assert.ok(manifest.dependencies['promise-mysql']);
  assert.deepEqual(manifest.overrides, { mysql: '$mysql' });
  assert.ok(isInstalled(cacheDir, 'mysql', '2.17.1'));

  // An install where npm nested another mysql under promise-mysql is refused and not cached.
  const bad = join(dir, 'cache3');
  await assert.rejects(ensureInstalled('mysql', '2.17.1', { npm: fakeNpm({ nestMysql: true }), cacheDir: bad }),
    (e) => e.exitCode === EXIT.INSTALL && /installing mysql@2\.17\.1 went wrong: promise-mysql loads mysql 2\.18\.1/.test(e.message));
  assert.equal(existsSync(join(bad, 'mysql@2.17.1')), false);
  assert.deepEqual(readdir(bad), []);
});

test('the adapter is the driver\'s own factory over the cached release, labelled with its version', async () => {
  const cacheDir = join(dir, 'cache4');
  const npm = fakeNpm();
  const made = [];
  const factory = (args) => { made.push(args); return { name: args.name, packageName: 'mysql2', version: args.version, capabilities: {}, connect() {} }; };
  const a = await loadVersionedDriver('mysql2@latest', { npm, cacheDir, log: () => {}, factories: { mysql2: factory, mysql: factory } });
  assert.equal(a.name, 'mysql2@3.24.0');
  assert.equal(a.version, '3.24.0');
  assert.equal(a.source, 'mysql2@latest');
  assert.equal((await made[0].load()).default.fake, 'mysql2/promise@3.24.0');

  const m = await loadVersionedDriver('mysql@2.17.1', { npm, cacheDir, log: () => {}, factories: { mysql: factory } });
  assert.equal(m.name, 'mysql@2.17.1');
  assert.equal(made[1].via, 'promise-mysql@5.2.0');
  assert.equal((await made[1].load()).default.fake, 'promise-mysql@5.2.0');

  await assert.rejects(loadVersionedDriver('mariadb@1.0.0', { npm, cacheDir, log: () => {} }), /driver release mariadb@1\.0\.0 does not exist/);
});

function readdir(d) {
  return existsSync(d) ? readdirSync(d).sort() : [];
}
