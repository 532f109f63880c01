// Integration: every row's protocol label is checked against the server's own status counters,
// so a label can never claim a prepared statement (or a bulk insert) the driver did not use.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkFor, notApplicableReason, setUpBench, targetFor } from '../../lib/measuring/bench/plan.js';
import { BENCHES } from '../../benchs/index.js';
import { loadDrivers, BUILTIN_DRIVERS } from '../../lib/drivers/index.js';
import { prepareSchema, inspectServer } from '../../lib/server/schema.js';
import { useEmbeddedServer } from '../helpers/server.js';
import { COUNTERS, assertCountersMatch, clientThreads, snapshot, waitForClientThreads } from '../helpers/counters.js';

// select_types' instants are checked in UTC, as the driver processes run (lib/measuring/driver-handle.js).
process.env.TZ = 'UTC';
const env = useEmbeddedServer();
const OPS = 5;

test('every protocol label matches what the server counted', async (t) => {
  const { admin, target } = env;
  await prepareSchema(admin, target.database);
  const context = { schema: target.database, server: await inspectServer(admin) };
  const drivers = await loadDrivers(BUILTIN_DRIVERS);
  // The snapshot query itself counts: measure that on an empty interval.
  const idleThreads = await clientThreads(admin);
  const a = await snapshot(admin);
  const b = await snapshot(admin);
  const own = Object.fromEntries(COUNTERS.map((k) => [k, b[k] - a[k]]));

  for (const bench of BENCHES) {
    const benchContext = await setUpBench(bench, admin, context);
    for (const driver of drivers) {
      const plan = bench.plan(driver, benchContext);
      // The connection benches open a connection per operation (their test counts those instead).
      if (notApplicableReason(plan) || plan.connects) continue;
      await t.test(`${bench.name} on ${driver.name} is '${plan.protocol}'`, async () => {
        await bench.beforeWindow?.(admin, context);
        const conn = plan.pool ? await driver.createPool(targetFor(plan, target), 2) : await driver.connect(targetFor(plan, target));
        try {
          if (!plan.pool) await plan.init?.(conn);
          const op = plan.op(conn);
          const before = await snapshot(admin);
          for (let i = 0; i < OPS; i++) checkFor(plan, bench)(await op());
          const after = await snapshot(admin);
          const delta = Object.fromEntries(COUNTERS.map((k) => [k, after[k] - before[k] - own[k]]));
          assertCountersMatch(plan.protocol, delta, OPS, bench.statementsPerOp ?? 1);
        } finally {
          await conn.close();
          await waitForClientThreads(admin, idleThreads);
        }
      });
    }
  }
});

test('a mislabelled path fails the check', () => {
  // What the server counts for five prepared executions, checked against the wrong labels.
  const prepared = { Com_stmt_execute: 5, Com_stmt_prepare: 1, Com_insert: 0, Questions: 5 };
  assert.doesNotThrow(() => assertCountersMatch('binary', prepared, 5, 1));
  assert.throws(() => assertCountersMatch('text', prepared, 5, 1), /text: expected Com_stmt_execute to grow by 0/);
  // A loop of 100 single-row inserts claimed as one bulk insert.
  const loop = { Com_stmt_execute: 0, Com_stmt_prepare: 0, Com_insert: 500, Questions: 500 };
  assert.throws(() => assertCountersMatch('bulk', loop, 5, 1), /bulk: expected Com_stmt_execute to grow by 5/);
  assert.throws(() => assertCountersMatch('text multi-row', loop, 5, 1), /Com_insert to grow by 5, it grew by 500/);
});
