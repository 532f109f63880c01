// Rows that are not a plain built-in driver: a local checkout, and a driver with options of its own.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { assertAllowedOptions, parseOptionValue, rowsAsObjects, splitVariant, unknownOptions, withRowShape } from '../../lib/drivers/variants.js';
import { inspectCheckout, isLocalSpec, parseFileSpec } from '../../lib/drivers/local.js';
import { assertDriverNames, loadDrivers } from '../../lib/drivers/index.js';
import { packageDir } from '../../lib/drivers/common.js';
import { isolatedDirs, removeIsolatedDirs, runCli, noStackTrace } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'mdb-variants-test-'));
after(() => {
  rmSync(dir, { recursive: true, force: true });
  removeIsolatedDirs();
});

/** A copy of the installed mysql2, its dependencies found through a node_modules link (no install). */
function checkoutOfMysql2(withDependencies = true) {
  const copy = mkdtempSync(join(dir, 'checkout-'));
  cpSync(packageDir('mysql2'), copy, { recursive: true });
  if (withDependencies) symlinkSync(resolve('node_modules'), join(copy, 'node_modules'), 'dir');
  return copy;
}

test('variant options are the trailing :name=value parts, typed as written', () => {
  assert.deepEqual(splitVariant('mysql2:disableEval=true:rowsAsArray=true'), {
    base: 'mysql2', options: { disableEval: true, rowsAsArray: true }, written: ['disableEval=true', 'rowsAsArray=true'],
  });
  assert.equal(splitVariant('mysql2@file:../node-mysql2:disableEval=true').base, 'mysql2@file:../node-mysql2');
  assert.deepEqual(splitVariant('mariadb').options, {});
  assert.equal(splitVariant('mysql2@file:../x').base, 'mysql2@file:../x');
  assert.deepEqual([parseOptionValue('false'), parseOptionValue('12'), parseOptionValue('Z'), parseOptionValue('null')], [false, 12, 'Z', null]);
});

test('the target is the harness\'s, and the fairness options need --override-fairness', () => {
  assert.throws(() => assertAllowedOptions('mysql2:host=x', { host: 'x' }), /host is set by the harness/);
  assert.throws(() => assertAllowedOptions('mysql2:password=x', { password: 'x' }), /password is set by the harness/);
  assert.throws(() => assertAllowedOptions('mysql2:trace=true', { trace: true }),
    (err) => /trace is fixed for every driver by the fairness rules/.test(err.message) && err.hint.includes('--override-fairness'));
  assert.deepEqual(assertAllowedOptions('mysql2:trace=true', { trace: true }, { overrideFairness: true }), ['trace']);
  assert.deepEqual(assertAllowedOptions('mysql2:disableEval=true', { disableEval: true }), []);
  assert.throws(() => assertDriverNames(['mariadb:collation=latin1_swedish_ci']), /fixed for every driver/);
});

test('option names are asked of each driver\'s own configuration', async () => {
  const options = { disableEval: true, rowsAsArray: true, supportBigNumbers: true, noSuchOption: 1 };
  assert.deepEqual(await unknownOptions('mysql2', packageDir('mysql2'), options), ['noSuchOption']);
  assert.deepEqual(await unknownOptions('mariadb', packageDir('mariadb'), options), ['disableEval', 'noSuchOption']);
  assert.deepEqual(await unknownOptions('mysql', packageDir('mysql'), options), ['disableEval', 'rowsAsArray', 'noSuchOption']);
  assert.equal(await unknownOptions('mysql2', join(dir, 'nowhere'), options), null, 'no configuration to read: the options go as given');
  await assert.rejects(loadDrivers(['mysql:rowsAsArray=true']), /mysql 2\.\d+\.\d+ does not take the option rowsAsArray/);
});

test('a variant is a row of its own, labelled and recorded with its options', async () => {
  const [plain, variant] = await loadDrivers(['mysql2', 'mysql2:disableEval=true#2']);
  assert.equal(plain.name, 'mysql2');
  assert.equal(variant.name, 'mysql2:disableEval=true#2');
  assert.deepEqual(variant.extraOptions, { disableEval: true });
  assert.equal(variant.loadSpec, 'mysql2:disableEval=true#2');
  assert.deepEqual(plain.extraOptions, {});
});

test('rows read as arrays are checked by their column names', () => {
  const rows = Object.assign([[1, 'a'], [2, 'b']], { fields: [{ name: 'id' }, { name: 'val' }] });
  assert.deepEqual(rowsAsObjects(rows), [{ id: 1, val: 'a' }, { id: 2, val: 'b' }]);
  const meta = Object.assign([[7]], { meta: [{ name: () => 'tag' }] });
  assert.deepEqual(rowsAsObjects(meta), [{ tag: 7 }]);
  assert.deepEqual(rowsAsObjects([{ id: 1 }]), [{ id: 1 }], 'object rows are left alone');
  const seen = [];
  withRowShape((r) => seen.push(r), { extraOptions: { rowsAsArray: true } })(rows);
  assert.deepEqual(seen, [[{ id: 1, val: 'a' }, { id: 2, val: 'b' }]]);
  const check = () => {};
  assert.equal(withRowShape(check, { extraOptions: {} }), check, 'no wrapping for other drivers');
});

test('a local checkout: recognised by path or file: spec, refused with what to do when its dependencies are missing', async () => {
  const bare = checkoutOfMysql2(false);
  assert.ok(isLocalSpec(bare));
  assert.deepEqual(parseFileSpec(`mysql2@file:${bare}`), { package: 'mysql2', dir: bare });
  assert.throws(() => inspectCheckout(bare), (err) => /its dependencies are not installed/.test(err.message) && err.hint.includes(`cd ${bare} && npm install --omit=dev`));
  assert.throws(() => inspectCheckout(`mariadb@file:${bare}`), /holds 'mysql2', not mariadb/);
  const notDriver = join(dir, 'other');
  mkdirSync(notDriver);
  writeFileSync(join(notDriver, 'package.json'), JSON.stringify({ name: 'left-pad', version: '1.0.0' }));
  assert.equal(isLocalSpec(notDriver), false);
  assert.throws(() => inspectCheckout(`mysql2@file:${notDriver}`), /holds 'left-pad'/);

  const ready = checkoutOfMysql2();
  const [driver] = await loadDrivers([`mysql2@file:${ready}`]);
  const version = JSON.parse(readFileSync(join(ready, 'package.json'), 'utf8')).version;
  assert.equal(driver.name, `mysql2@${version}+local`);
  assert.equal(driver.loadSpec, `mysql2@file:${ready}`);
});

test('a checkout and a variant run beside the installed driver, each labelled, every check passing', async () => {
  const checkout = checkoutOfMysql2();
  const { tmp, out } = isolatedDirs();
  const json = join(out, 'run.json');
  const r = await runCli(['do', 'select_100_cols', '--drivers', `mysql2,mysql2@file:${checkout},mysql2:disableEval=true,mariadb:rowsAsArray=true`,
    '--smoke', '--json', json, '--out', out], { tmp });
  assert.equal(r.code, 0, r.stderr);
  assert.ok(noStackTrace(r.stderr));
  const results = JSON.parse(readFileSync(json, 'utf8'));
  const version = JSON.parse(readFileSync(join(checkout, 'package.json'), 'utf8')).version;
  const names = [`mysql2@${version}+local`, 'mysql2:disableEval=true', 'mariadb:rowsAsArray=true'];
  for (const bench of results.benches) {
    for (const name of names) assert.ok(bench.results.find((x) => x.driver === name)?.ok, `${bench.name} · ${name}`);
  }
  const variant = results.drivers.find((d) => d.name === 'mariadb:rowsAsArray=true');
  assert.deepEqual(variant.variant, { rowsAsArray: true });
  assert.equal(variant.options.rowsAsArray, true);
  assert.equal(results.drivers.find((d) => d.name === names[0]).local, true);
});
