// The default baseline (mysql when run, else the first driver listed), and runs without mysql.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveBaseline, describeBaseline } from '../../lib/results/baseline.js';
import { isolatedDirs, runCli, removeIsolatedDirs, noStackTrace } from '../helpers/cli.js';

after(removeIsolatedDirs);

const loaded = (...names) => names.map((name) => ({ name }));

test('no --baseline: mysql when it is run, wherever it is listed', () => {
  const specs = ['mariadb', 'mysql2', 'mysql'];
  assert.deepEqual(resolveBaseline({ specs, drivers: loaded(...specs) }), { name: 'mysql', reason: 'the default: mysql is run' });
});

test('no --baseline and no mysql: the first driver listed, by its row label', () => {
  assert.deepEqual(resolveBaseline({ specs: ['mysql2'], drivers: loaded('mysql2') }),
    { name: 'mysql2', reason: 'first driver listed; mysql is not run' });
  // --floor appends floor, so it is the baseline only when listed first.
  assert.equal(resolveBaseline({ specs: ['mariadb', 'floor'], drivers: loaded('mariadb', 'floor') }).name, 'mariadb');
  assert.equal(resolveBaseline({ specs: ['floor', 'mariadb'], drivers: loaded('floor', 'mariadb') }).name, 'floor');
  // A release is named by its resolved label; a release of mysql is not the built-in mysql.
  assert.equal(resolveBaseline({ specs: ['mysql2@latest', 'mysql2'], drivers: loaded('mysql2@3.24.5', 'mysql2') }).name, 'mysql2@3.24.5');
  assert.equal(resolveBaseline({ specs: ['mysql@2.18.0', 'mariadb'], drivers: loaded('mysql@2.18.0', 'mariadb') }).name, 'mysql@2.18.0');
});

test('--baseline: a row label or a driver as written in --drivers', () => {
  const specs = ['mysql2@latest', 'mysql2', 'mysql'];
  const drivers = loaded('mysql2@3.24.5', 'mysql2', 'mysql');
  assert.deepEqual(resolveBaseline({ explicit: 'mysql2', specs, drivers }), { name: 'mysql2', reason: 'chosen with --baseline' });
  assert.equal(resolveBaseline({ explicit: 'mysql2@latest', specs, drivers }).name, 'mysql2@3.24.5');
  assert.equal(resolveBaseline({ explicit: 'mysql2@3.24.5', specs, drivers }).name, 'mysql2@3.24.5');
});

test('--baseline naming a driver that is not run is a usage error', () => {
  assert.throws(() => resolveBaseline({ explicit: 'mysql', specs: ['mysql2', 'mariadb'], drivers: loaded('mysql2', 'mariadb') }),
    (err) => err.exitCode === 2 && /^baseline 'mysql' is not among the drivers run \(mysql2, mariadb\)$/.test(err.message));
});

test('the progress line says which baseline and why', () => {
  assert.equal(describeBaseline({ name: 'mysql2', reason: 'first driver listed; mysql is not run' }),
    'baseline: mysql2 (first driver listed; mysql is not run)');
});

const savedResults = (out) => readdirSync(out).filter((f) => f.endsWith('.json')).map((f) => JSON.parse(readFileSync(join(out, f), 'utf8')));

test('one driver alone runs, with itself as the baseline', async () => {
  const { tmp, out } = isolatedDirs();
  const r = await runCli(['do', '--drivers', 'mysql2', '--time', '0.2', '--rounds', '1', '--out', out], { tmp });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /^baseline: mysql2 \(first driver listed; mysql is not run\)$/m);
  assert.match(r.stdout, /· baseline mysql2 ·/);
  assert.match(r.stdout, /Δ vs mysql2/);
  assert.equal(savedResults(out)[0].settings.baseline, 'mysql2');
});

test('--drivers floor,mariadb: the floor listed first is the baseline', async () => {
  const { tmp, out } = isolatedDirs();
  const r = await runCli(['do', '--drivers', 'floor,mariadb', '--smoke', '--out', out], { tmp });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /^baseline: floor \(first driver listed; mysql is not run\)$/m);
  assert.match(r.stdout, /Δ vs floor/);
  const [json] = savedResults(out);
  assert.equal(json.settings.baseline, 'floor');
  const mariadbRow = json.benches[0].results.find((x) => x.driver === 'mariadb');
  assert.ok(Number.isFinite(mariadbRow.deltaPct), 'mariadb has a Δ against the floor');
});

test('--baseline naming a driver that is not run: exit 2, one line, before any server starts', async () => {
  const { tmp, out } = isolatedDirs();
  const r = await runCli(['do', '--drivers', 'mysql2,mariadb', '--baseline', 'mysql', '--smoke', '--out', out], { tmp });
  assert.equal(r.code, 2, r.stderr);
  assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  assert.match(r.stderr, /^mysql-driver-bench: error: baseline 'mysql' is not among the drivers run \(mysql2, mariadb\)/);
  assert.ok(noStackTrace(r.stderr));
});
