// Integration: every bench's check passes on every driver that supports it, and fails on wrong data.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkFor, connectorFor, notApplicableReason, setUpBench, targetFor } from '../../lib/measuring/bench/plan.js';
import { BENCHES } from '../../benchs/index.js';
import { loadDrivers, BUILTIN_DRIVERS } from '../../lib/drivers/index.js';
import { prepareSchema, inspectServer } from '../../lib/server/schema.js';
import { CheckError } from '../../benchs/_check.js';
import { useEmbeddedServer } from '../helpers/server.js';

// select_types' instants are checked in UTC, as the driver processes run (lib/measuring/driver-handle.js).
process.env.TZ = 'UTC';
const env = useEmbeddedServer({ tls: true });

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
  const context = { schema: target.database, server: await inspectServer(admin), tls: env.server.tls };
  const drivers = await loadDrivers(BUILTIN_DRIVERS);
  const conns = new Map();
  for (const d of drivers) conns.set(d.name, await d.connect(target));
  try {
    for (const bench of BENCHES) {
      const benchContext = await setUpBench(bench, admin, context);
      for (const driver of drivers) {
        await t.test(`${bench.name} on ${driver.name}`, async () => {
          const plan = bench.plan(driver, benchContext);
          if (notApplicableReason(plan)) {
            // Only prepared-statement benches may be n/a, and only on mysql, which has none.
            assert.equal(driver.name, 'mysql');
            assert.match(plan.unsupported, /prepared statement/);
            return;
          }
          await bench.beforeWindow?.(admin, context);
          // As a driver process gives it: a connector (the connection benches), a connection with the
          // bench's own options, or the shared one.
          const own = !plan.connects && (plan.connectOptions || plan.init) ? await driver.connect(targetFor(plan, target)) : null;
          try {
            if (own) await plan.init?.(own);
            const op = plan.op(plan.connects ? connectorFor(plan, driver, target) : own ?? conns.get(driver.name));
            const check = checkFor(plan, bench);
            plan.windowStats?.();
            for (let i = 0; i < 3; i++) check(await op());
            const result = await op();
            await bench.verify?.(admin, context, plan.windowStats?.());
            // A fresh plan's check (a check may keep state, e.g. which rows it checked last).
            assert.throws(() => checkFor(bench.plan(driver, benchContext), bench)(corrupt(result)), CheckError);
          } finally {
            await own?.close();
          }
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
