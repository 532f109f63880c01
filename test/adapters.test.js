// Integration through the CLI: custom adapters loaded by path, and the harness seeing what it must —
// a slower driver is reported slower by about the added time, a driver returning altered rows is
// failed (never fast), a driver that throws is failed without hanging or stopping the others.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isolatedDirs, runCli, removeIsolatedDirs } from './helpers/cli.js';

after(removeIsolatedDirs);
const fixture = (name) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
const EXTRA_US = 200;

test('adapters by path: slower by the added time, altered rows failed, throwing driver failed, the rest measured', async () => {
  const { tmp, out } = isolatedDirs();
  const drivers = ['mariadb', fixture('slow-adapter.js'), 'mysql2', fixture('lying-adapter.js'), fixture('throwing-adapter.js')];
  const started = Date.now();
  const r = await runCli(['do', 'select_100_cols', '--drivers', drivers.join(','), '--baseline', 'mariadb',
    '--rounds', '1', '--time', '1', '--warmup', '0.3', '--out', out], { tmp, env: { SLOW_ADAPTER_US: String(EXTRA_US) } });
  assert.equal(r.code, 1, 'failed rows make exit code 1');
  assert.ok(Date.now() - started < 60000, 'the throwing driver did not hang the run');
  const [file] = readdirSync(out).filter((f) => f.endsWith('.json'));
  const json = JSON.parse(readFileSync(join(out, file), 'utf8'));
  const row = (bench, driver) => json.benches.find((b) => b.name === bench).results.find((x) => x.driver === driver);

  // (a) the slow adapter's median per-op latency against the real driver's plus the busy-wait.
  // The median, not the mean: a busy-wait preempted on a loaded machine stretches the tail only.
  const base = row('do', 'mariadb');
  const slow = row('do', 'slow-mariadb');
  assert.ok(base.ok && slow.ok);
  const expectedUs = base.latency.p50 + EXTRA_US;
  // Tolerance: 20 % of the slow driver's expected per-op latency, from this run's own figures.
  const tolerance = 0.2 * expectedUs;
  assert.ok(Math.abs(slow.latency.p50 - expectedUs) <= tolerance,
    `slow adapter: p50 ${slow.latency.p50} us, expected ${base.latency.p50} + ${EXTRA_US} = ${expectedUs.toFixed(1)} ± ${tolerance.toFixed(1)}`);
  assert.ok(slow.deltaPct < 0 && slow.deltaSignificant === true, 'reported slower, significantly');

  // (b) altered rows: failed on the bench that returns rows, with the reason; never a speed.
  const lying = row('select_100_cols', 'lying-mysql2');
  assert.equal(lying.ok, false);
  assert.equal(lying.status, 'failed');
  assert.match(lying.error, /column i100: expected 100, got 101/);
  assert.equal(lying.opsPerSec, undefined);
  assert.match(r.stdout, /select_100_cols · lying-mysql2: FAILED: column i100/);

  // (c) the throwing adapter fails everywhere, and every other driver still has its rows.
  for (const bench of ['do', 'select_100_cols']) {
    assert.match(row(bench, 'throwing').error, /this adapter fails every call/);
    for (const d of ['mariadb', 'slow-mariadb', 'mysql2']) assert.equal(row(bench, d).ok, true, `${bench} ${d}`);
  }
  assert.equal(json.drivers.find((d) => d.name === 'slow-mariadb').source, drivers[1]);
});

test('a module that is not an adapter is a usage error', async () => {
  const { tmp } = isolatedDirs();
  const r = await runCli(['do', '--drivers', fixture('../helpers/server.js')], { tmp });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /adapter .*server\.js lacks a default export object — an adapter exports default \{ name, version, capabilities, connect/);
});

test('--baseline written as in --drivers (a path here, like mysql2@latest) means that driver\'s row', async () => {
  const { tmp, out } = isolatedDirs();
  const slow = fixture('slow-adapter.js');
  const r = await runCli(['do', '--smoke', '--drivers', `mariadb,${slow}`, '--baseline', slow, '--json', '-', '--out', out], { tmp });
  assert.equal(r.code, 0, r.stderr);
  const json = JSON.parse(r.stdout);
  assert.equal(json.settings.baseline, 'slow-mariadb');
  const rows = json.benches[0].results;
  assert.equal(rows.find((x) => x.driver === 'slow-mariadb').deltaPct, 0);
  assert.ok(Number.isFinite(rows.find((x) => x.driver === 'mariadb').deltaPct));
});
