// A local checkout whose dependencies are only partly installed: refused before anything starts when
// a module of its tree is missing, and, for a module it uses without declaring it, its row fails in
// one line naming the module and the install command (no require stack).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { inspectCheckout } from '../../lib/drivers/local.js';
import { describeLoadFailure, missingModules } from '../../lib/drivers/checkout-modules.js';
import { packageDir } from '../../lib/drivers/common.js';
import { isolatedDirs, removeIsolatedDirs, runCli, noStackTrace } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'mdb-checkout-modules-test-'));
after(() => {
  rmSync(dir, { recursive: true, force: true });
  removeIsolatedDirs();
});

const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));
const installCommand = (checkout) => `cd ${checkout} && npm install --omit=dev`;

/**
 * A copy of the installed driver `pkg` with its own dependencies copied into its node_modules but
 * not theirs (as when a checkout's node_modules was put together by hand); `alsoCopy` adds some.
 */
function checkoutWithDirectDependencies(pkg, { alsoCopy = [] } = {}) {
  const installed = packageDir(pkg);
  const checkout = join(mkdtempSync(join(dir, `${pkg}-`)), pkg);
  cpSync(installed, checkout, { recursive: true });
  for (const dep of [...Object.keys(readJson(join(installed, 'package.json')).dependencies), ...alsoCopy]) {
    // Found by path: a types-only package has nothing require() could resolve.
    const source = [join(installed, 'node_modules', dep), resolve('node_modules', dep)].find((d) => existsSync(d));
    mkdirSync(join(checkout, 'node_modules', dep, '..'), { recursive: true });
    cpSync(source, join(checkout, 'node_modules', dep), { recursive: true });
  }
  return checkout;
}

/** A module used but not declared: `inPackage` no longer lists its dependencies (they stay missing). */
function undeclareDependencies(checkout, inPackage) {
  const manifest = inPackage ? join(checkout, 'node_modules', inPackage, 'package.json') : join(checkout, 'package.json');
  writeFileSync(manifest, JSON.stringify({ ...readJson(manifest), dependencies: {} }));
}

test('the pre-check walks the whole tree: a dependency of a dependency that is missing is named with what needs it', () => {
  const mysql2 = checkoutWithDirectDependencies('mysql2');
  assert.deepEqual(missingModules(mysql2).sort((a, b) => a.module.localeCompare(b.module)),
    [{ module: 'is-property', neededBy: 'generate-function' }, { module: 'safer-buffer', neededBy: 'iconv-lite' }]);
  assert.throws(() => inspectCheckout(`mysql2@file:${mysql2}`), (err) => {
    assert.equal(err.exitCode, 2);
    assert.match(err.message, /^local driver mysql2@file:.*: its dependencies are not installed: .*safer-buffer \(needed by iconv-lite\)/);
    assert.equal(err.hint, `install them in the checkout: ${installCommand(mysql2)}`);
    assert.doesNotMatch(`${err.message}${err.hint}`, /\n/);
    return true;
  });

  const mysql = checkoutWithDirectDependencies('mysql');
  assert.ok(missingModules(mysql).some((m) => m.module === 'process-nextick-args' && m.neededBy === 'readable-stream'));
  const mariadb = checkoutWithDirectDependencies('mariadb');
  assert.deepEqual(missingModules(mariadb), [{ module: 'safer-buffer', neededBy: 'iconv-lite' }]);

  // Complete, the same copies pass; type packages are never loaded, so they are not required.
  const complete = checkoutWithDirectDependencies('mariadb', { alsoCopy: ['safer-buffer'] });
  rmSync(join(complete, 'node_modules', '@types'), { recursive: true });
  assert.equal(inspectCheckout(complete).package, 'mariadb');
  assert.equal(inspectCheckout(checkoutWithDirectDependencies('mysql2', { alsoCopy: ['safer-buffer', 'is-property'] })).package, 'mysql2');
});

test('the CLI refuses such a checkout in one line before starting anything', async () => {
  const mysql2 = checkoutWithDirectDependencies('mysql2', { alsoCopy: ['is-property'] });
  const { tmp, out } = isolatedDirs();
  const r = await runCli(['do', '--smoke', '--drivers', `mysql2,mysql2@file:${mysql2}`, '--out', out], { tmp });
  assert.equal(r.code, 2, r.stderr);
  assert.equal(r.stderr, `mysql-driver-bench: error: local driver mysql2@file:${mysql2}: its dependencies are not installed: safer-buffer (needed by iconv-lite) — install them in the checkout: ${installCommand(mysql2)}\n`);
  assert.doesNotMatch(r.stdout, /embedded server/);
});

test('a module missing when a checkout loads becomes one line naming it and the install command (require and import)', async () => {
  const fail = async (load) => {
    try {
      await load();
    } catch (err) {
      return err;
    }
    assert.fail('expected the load to fail');
  };
  // mysql2: iconv-lite requires safer-buffer, which it no longer declares.
  const mysql2 = checkoutWithDirectDependencies('mysql2', { alsoCopy: ['is-property'] });
  undeclareDependencies(mysql2, 'iconv-lite');
  const required = await fail(() => createRequire(join(mysql2, 'package.json'))('./promise.js'));
  assert.match(required.message, /Require stack/);
  assert.equal(describeLoadFailure(required, mysql2).message,
    `cannot load the checkout: module 'safer-buffer' (needed by iconv-lite) is not installed — install it in the checkout: ${installCommand(mysql2)}`);

  // mariadb (ES modules): a package it imports itself is missing.
  const mariadb = checkoutWithDirectDependencies('mariadb', { alsoCopy: ['safer-buffer'] });
  undeclareDependencies(mariadb, null);
  rmSync(join(mariadb, 'node_modules', 'denque'), { recursive: true });
  const imported = await fail(() => import(pathToFileURL(join(mariadb, 'promise.js')).href));
  assert.equal(imported.code, 'ERR_MODULE_NOT_FOUND');
  assert.equal(describeLoadFailure(imported, mariadb).message,
    `cannot load the checkout: module 'denque' (needed by mariadb) is not installed — install it in the checkout: ${installCommand(mariadb)}`);

  // Other errors are left as they are.
  const other = new Error('ECONNREFUSED');
  assert.equal(describeLoadFailure(other, mariadb), other);
});

test('a mariadb checkout whose CommonJS dependency fails to load rejects its connect and does not end the process', () => {
  const mariadb = checkoutWithDirectDependencies('mariadb');
  undeclareDependencies(mariadb, 'iconv-lite');
  const script = `
    import { loadDrivers } from ${JSON.stringify(pathToFileURL(join(process.cwd(), 'lib/drivers/index.js')).href)};
    const [driver] = await loadDrivers([${JSON.stringify(`mariadb@file:${mariadb}`)}]);
    await driver.connect({ host: '127.0.0.1', port: 1, user: 'u', password: 'p', database: 'd' }).catch((err) => console.log('rejected', err.code));
    await new Promise((resolve) => setTimeout(resolve, 50));
    console.log('still running');`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, 'rejected MODULE_NOT_FOUND\nstill running\n');
});

test('in a run, such rows fail in one line in the table and the JSON; the other rows are measured', async () => {
  const mysql2 = checkoutWithDirectDependencies('mysql2', { alsoCopy: ['is-property'] });
  undeclareDependencies(mysql2, 'iconv-lite');
  // mysql loads its parts on first use: the module goes missing when the first connection is made.
  const mysql = checkoutWithDirectDependencies('mysql');
  undeclareDependencies(mysql, 'readable-stream');
  const mariadb = checkoutWithDirectDependencies('mariadb');
  undeclareDependencies(mariadb, 'iconv-lite');
  const { tmp, out } = isolatedDirs();
  const json = join(out, 'run.json');
  const r = await runCli(['do', '--smoke', '--drivers', `mysql2,mysql2@file:${mysql2},mysql@file:${mysql},mariadb@file:${mariadb}`, '--json', json, '--out', out], { tmp });
  assert.equal(r.code, 1, r.stderr);
  const output = r.stdout + r.stderr;
  assert.doesNotMatch(output, /Require stack/);
  assert.ok(noStackTrace(output));
  const expected = {
    [`mysql2@${readJson(join(mysql2, 'package.json')).version}+local`]: `module 'safer-buffer' (needed by iconv-lite) is not installed — install it in the checkout: ${installCommand(mysql2)}`,
    [`mysql@${readJson(join(mysql, 'package.json')).version}+local`]: `(needed by readable-stream) is not installed — install it in the checkout: ${installCommand(mysql)}`,
    [`mariadb@${readJson(join(mariadb, 'package.json')).version}+local`]: `module 'safer-buffer' (needed by iconv-lite) is not installed — install it in the checkout: ${installCommand(mariadb)}`,
  };
  const [bench] = readJson(json).benches;
  assert.ok(bench.results.find((x) => x.driver === 'mysql2').ok);
  for (const [name, ending] of Object.entries(expected)) {
    const row = bench.results.find((x) => x.driver === name);
    assert.equal(row.ok, false, name);
    assert.match(row.error, /^cannot load the checkout: module '[^']+' /, name);
    assert.ok(row.error.endsWith(ending), `${name}: ${row.error}`);
    assert.ok(output.includes(`do · ${name}: FAILED: ${row.error}\n`), `${name} in the text output`);
  }
});
