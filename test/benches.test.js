// Integration: every bench's check passes on every driver that supports it, and fails on wrong data.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkFor, setUpBench } from '../lib/measuring/plan.js';
import { BENCHES } from '../benchs/index.js';
import { loadDrivers, BUILTIN_DRIVERS } from '../lib/drivers/index.js';
import { prepareSchema, inspectServer } from '../lib/server/schema.js';
import { CheckError } from '../lib/measuring/check.js';
import { useEmbeddedServer } from './helpers/server.js';

const env = useEmbeddedServer();

/** A copy of a driver's result with one value changed, the way a buggy driver might return it. */
function corrupt(result) {
  if (Array.isArray(result) && result.length > 0 && typeof result[0] === 'object' && !('affectedRows' in result[0])) {
    const rows = result.map((r) => ({ ...r }));
    const last = rows[rows.length - 1];
    const key = Object.keys(last).at(-1);
    last[key] = typeof last[key] === 'number' ? last[key] + 1 : `${last[key]}x`;
    return rows;
  }
  if (Array.isArray(result)) return result.map((r, i) => (i === result.length - 1 ? corrupt(r) : r));
  return { ...result, affectedRows: Number(result.affectedRows) + 1 };
}

test('every bench passes its check on every driver that supports it, and rejects altered data', async (t) => {
  const { admin, target } = env;
  await prepareSchema(admin, target.database);
  const context = { schema: target.database, server: await inspectServer(admin) };
  const drivers = await loadDrivers(BUILTIN_DRIVERS);
  const conns = new Map();
  for (const d of drivers) conns.set(d.name, await d.connect(target));
  try {
    for (const bench of BENCHES) {
      const benchContext = await setUpBench(bench, admin, context);
      for (const driver of drivers) {
        await t.test(`${bench.name} on ${driver.name}`, async () => {
          const plan = bench.plan(driver, benchContext);
          if (plan.unsupported) {
            // Only prepared-statement benches may be n/a, and only on mysql, which has none.
            assert.equal(driver.name, 'mysql');
            assert.match(plan.unsupported, /prepared statement/);
            return;
          }
          await bench.beforeWindow?.(admin, context);
          const op = plan.op(conns.get(driver.name));
          const check = checkFor(plan, bench);
          plan.windowStats?.();
          for (let i = 0; i < 3; i++) check(await op());
          await bench.verify?.(admin, context, plan.windowStats?.());
          const result = await op();
          assert.throws(() => check(corrupt(result)), CheckError);
        });
      }
    }
  } finally {
    for (const c of conns.values()) await c.close();
  }
});

test('the harness refuses a schema it did not create', async () => {
  const { admin } = env;
  await admin.query('CREATE DATABASE IF NOT EXISTS someone_elses');
  await admin.query('CREATE TABLE IF NOT EXISTS someone_elses.precious (id INT)');
  await assert.rejects(prepareSchema(admin, 'someone_elses'), /was not created by mysql-driver-bench/);
  const rows = await admin.query("SELECT COUNT(*) AS n FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'someone_elses'");
  assert.equal(Number(rows[0].n), 1);
});
