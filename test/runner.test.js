// Integration: the runner marks wrong or failing drivers as failed and carries on with the others.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { selectBenches } from '../benchs/index.js';
import { loadDrivers } from '../lib/drivers/index.js';
import { prepareSchema, inspectServer } from '../lib/schema.js';
import { runMatrix, rotate, aggregateRounds } from '../lib/runner.js';
import { createResults } from '../lib/results.js';
import { useEmbeddedServer } from './helpers/server.js';

const env = useEmbeddedServer();

/** A driver adapter wrapping a real one, with its results passed through `alter`. */
function wrapped(base, name, alter) {
  return {
    ...base,
    name,
    async connect(target) {
      const conn = await base.connect(target);
      const wrap = (fn) => async (...args) => alter(await fn(...args));
      return { ...conn, query: wrap(conn.query), execute: conn.execute && wrap(conn.execute) };
    },
  };
}

test('rotate shifts the order by one per step', () => {
  assert.deepEqual(rotate(['a', 'b', 'c'], 0), ['a', 'b', 'c']);
  assert.deepEqual(rotate(['a', 'b', 'c'], 1), ['b', 'c', 'a']);
  assert.deepEqual(rotate(['a', 'b', 'c'], 5), ['c', 'a', 'b']);
});

test('a driver returning altered rows is failed, one that throws is failed, the others are measured', async () => {
  const { admin, target } = env;
  await prepareSchema(admin, target.database);
  const context = { schema: target.database, server: await inspectServer(admin) };
  const [mariadb] = await loadDrivers(['mariadb']);
  const liar = wrapped(mariadb, 'liar', (rows) => (Array.isArray(rows) ? rows.map((r) => ({ ...r, i50: 0 })) : rows));
  const thrower = wrapped(mariadb, 'thrower', () => { throw new Error('boom on every call'); });
  const drivers = [mariadb, liar, thrower];
  const benches = selectBenches(['select_100_cols', 'do']);
  const settings = { concurrency: 1, time: 0.1, warmup: 0.05, minSamples: 2, callTimeoutMs: 10000 };
  const results = createResults({ env: {}, server: context.server, drivers: [], settings: { ...settings, baseline: 'mariadb' } });
  await runMatrix({ benches, drivers, admin, target, context, settings, results, serverAlive: async () => true });

  const [sel, doBench] = results.benches;
  const byDriver = (b) => Object.fromEntries(b.results.map((r) => [r.driver, r]));
  const s = byDriver(sel);
  assert.equal(s.mariadb.ok, true);
  assert.ok(s.mariadb.opsPerSec > 0);
  assert.equal(s.liar.ok, false);
  assert.equal(s.liar.status, 'failed');
  assert.match(s.liar.error, /column i50: expected 50, got 0/);
  assert.equal(s.liar.opsPerSec, undefined, 'a failed row carries no speed');
  assert.match(s.thrower.error, /boom on every call/);
  const d = byDriver(doBench);
  assert.equal(d.mariadb.ok, true);
  assert.equal(d.liar.ok, true, 'DO returns no rows, so the liar has nothing to alter');
  assert.equal(d.thrower.ok, false);
  assert.deepEqual(doBench.order, [['liar', 'thrower', 'mariadb']], 'the second bench starts with the second driver');
});

test('rounds: order rotates between rounds, each round is kept, the figure is their median', async () => {
  const { admin, target } = env;
  await prepareSchema(admin, target.database);
  const context = { schema: target.database, server: await inspectServer(admin) };
  const drivers = await loadDrivers(['mysql', 'mysql2', 'mariadb']);
  const settings = { concurrency: 1, time: 0.1, warmup: 0.05, minSamples: 2, callTimeoutMs: 10000, rounds: 3 };
  const results = createResults({ env: {}, server: context.server, drivers: [], settings: { ...settings, baseline: 'mysql' } });
  await runMatrix({ benches: selectBenches(['do']), drivers, admin, target, context, settings, results, serverAlive: async () => true });
  const [bench] = results.benches;
  assert.deepEqual(bench.order, [['mysql', 'mysql2', 'mariadb'], ['mysql2', 'mariadb', 'mysql'], ['mariadb', 'mysql', 'mysql2']]);
  for (const row of bench.results) {
    assert.equal(row.rounds.length, 3, row.driver);
    const figures = row.rounds.map((r) => r.opsPerSec).sort((a, b) => a - b);
    assert.equal(row.opsPerSec, figures[1], 'median of three rounds');
    assert.equal(row.samples, row.sampleOpsPerSec.length);
    assert.equal(row.samples, row.rounds.reduce((s, r) => s + r.samples, 0));
    assert.ok(row.latency.count === row.operations && row.operations > 0);
  }
});

test('aggregateRounds: median figure, pooled rme, spread', () => {
  const agg = aggregateRounds([
    { opsPerSec: 100, rme: 1, sampleOpsPerSec: [99, 101] },
    { opsPerSec: 110, rme: 1, sampleOpsPerSec: [109, 111] },
    { opsPerSec: 90, rme: 1, sampleOpsPerSec: [89, 91] },
  ]);
  assert.equal(agg.opsPerSec, 100);
  assert.equal(agg.samples, 6);
  assert.equal(agg.spreadPct, 20);
  assert.ok(agg.rme > 5 && agg.rme < 15);
});
