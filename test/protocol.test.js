// Integration: every row's protocol label is checked against the server's own status counters,
// so a label can never claim a prepared statement (or a bulk insert) the driver did not use.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkFor, notApplicableReason, setUpBench, targetFor } from '../lib/measuring/plan.js';
import { BENCHES } from '../benchs/index.js';
import { loadDrivers, BUILTIN_DRIVERS } from '../lib/drivers/index.js';
import { prepareSchema, inspectServer } from '../lib/server/schema.js';
import { useEmbeddedServer } from './helpers/server.js';

// select_types' instants are checked in UTC, as the driver processes run (lib/measuring/driver-handle.js).
process.env.TZ = 'UTC';
const env = useEmbeddedServer();
const COUNTERS = ['Com_stmt_execute', 'Com_stmt_prepare', 'Com_insert', 'Questions'];
const OPS = 5;

// A closing client's COM_QUIT counts as a question, and the server may process it after close()
// has resolved: wait for its thread to go, so it cannot land in the next interval.
async function clientThreads(admin) {
  const [row] = await admin.query(
    "SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE ID <> CONNECTION_ID() AND COMMAND <> 'Daemon'");
  return Number(row.n);
}

async function waitForClientThreads(admin, count) {
  for (let i = 0; i < 500 && await clientThreads(admin) > count; i++) await new Promise((r) => setTimeout(r, 10));
}

async function snapshot(admin) {
  const rows = await admin.query(`SHOW GLOBAL STATUS WHERE Variable_name IN (${COUNTERS.map(() => '?').join(', ')})`, COUNTERS);
  return Object.fromEntries(rows.map((r) => [r.Variable_name, Number(r.Value)]));
}

/**
 * What the server must have counted for `ops` operations on a protocol path; throws when it did not.
 * A label is a path from the vocabulary, optionally followed by ', detail' (e.g. 'text, streamed').
 */
export function assertCountersMatch(fullLabel, delta, ops, statementsPerOp) {
  const label = fullLabel.split(',')[0].trim();
  const statements = ops * statementsPerOp;
  const expect = {
    text: { Com_stmt_execute: 0, Com_stmt_prepare: 0, Questions: statements },
    binary: { Com_stmt_execute: statements, Questions: statements },
    bulk: { Com_stmt_execute: ops, Com_insert: ops, Questions: ops }, // one execute per 100-row batch
    'text multi-row': { Com_stmt_execute: 0, Com_stmt_prepare: 0, Com_insert: ops, Questions: ops },
    pipelined: { Com_stmt_execute: 0, Com_stmt_prepare: 0, Com_insert: statements, Questions: statements },
    queued: { Com_stmt_execute: 0, Com_stmt_prepare: 0, Com_insert: statements, Questions: statements },
  }[label];
  assert.ok(expect, `no server-side expectation for protocol label '${label}'`);
  for (const [name, value] of Object.entries(expect)) {
    assert.equal(delta[name], value, `${label}: expected ${name} to grow by ${value}, it grew by ${delta[name]}`);
  }
  if (label === 'binary' || label === 'bulk') {
    assert.ok(delta.Com_stmt_prepare <= 1, `${label}: statement prepared ${delta.Com_stmt_prepare} times (expected once at most)`);
  }
}

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
