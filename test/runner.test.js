// Integration: the runner marks wrong or failing drivers as failed and carries on with the others.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { selectBenches } from '../benchs/index.js';
import { loadDrivers } from '../lib/drivers/index.js';
import { prepareSchema, inspectServer } from '../lib/schema.js';
import { runMatrix, rotate } from '../lib/runner.js';
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
  assert.deepEqual(doBench.order, ['liar', 'thrower', 'mariadb'], 'the second bench starts with the second driver');
});
