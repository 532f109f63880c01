// Integration (embedded MariaDB): the bench catalogue's checks on every driver, pools that really
// are pools, the transfer workload's money check, and the streaming and metadata probes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkFor, setUpBench } from '../../lib/measuring/bench/plan.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BENCHES, selectBenches } from '../../benchs/index.js';
import { loadDrivers, BUILTIN_DRIVERS } from '../../lib/drivers/index.js';
import { prepareSchema, inspectServer } from '../../lib/server/schema.js';
import { CheckError } from '../../benchs/_check.js';
import { runStreamingProbe } from '../../benchs/stream_rows/probe.js';
import { runMetadataProbe } from '../../benchs/execute_metadata/probe.js';
import { identities, resetBalances, seed, transferOnce, verifyMoney, newStats } from '../../benchs/transfer/workload.js';
import { createStreamRows } from '../../benchs/_tables.js';
import { useEmbeddedServer } from '../helpers/server.js';
import { measureWith } from '../helpers/measure.js';
import { fileURLToPath } from 'node:url';

const fixture = (name) => fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));

const env = useEmbeddedServer();
const CATALOGUE = ['select_param', 'select_1_row_mixed', 'select_collations', 'select_random_alias', 'pool_select',
  'pool_select_random_alias', 'stream_rows', 'execute_metadata', 'execute_metadata_changing', 'transfer'];
const SMALL = { transferAccounts: 500 };

async function prepared() {
  const { admin, target } = env;
  await prepareSchema(admin, target.database);
  return { schema: target.database, server: await inspectServer(admin), options: SMALL };
}

/** A copy of a result with its last value changed, the way a buggy driver might return it. */
function corrupt(result) {
  if (Array.isArray(result) && result.length > 0 && typeof result[0] === 'object' && result[0] !== null && !('affectedRows' in result[0]) && !Array.isArray(result[0])) {
    const rows = result.map((r) => ({ ...r }));
    const last = rows.at(-1);
    const key = Object.keys(last).at(-1);
    last[key] = typeof last[key] === 'number' ? last[key] + 1 : `${last[key]}x`;
    return rows;
  }
  if (Array.isArray(result)) return Object.assign(result.map((r, i) => (i === result.length - 1 ? corrupt(r) : r)), { declined: result.declined });
  return { ...result, affectedRows: Number(result.affectedRows) + 1 };
}

/** A driver adapter over a real one whose connections' query replies pass through `alter(sql, params, call)`. */
function wrapped(base, name, alter) {
  return {
    ...base,
    name,
    async connect(target) {
      const conn = await base.connect(target);
      return { ...conn, query: (sql, params) => alter(sql, params, () => conn.query(sql, params)) };
    },
  };
}

test('every catalogue bench passes its check on every driver that supports it, and rejects altered data', async (t) => {
  const { admin, target } = env;
  const context = await prepared();
  const drivers = await loadDrivers(BUILTIN_DRIVERS);
  const conns = new Map();
  for (const d of drivers) conns.set(d.name, await d.connect(target));
  try {
    for (const bench of selectBenches(CATALOGUE)) {
      const benchContext = await setUpBench(bench, admin, context);
      for (const driver of drivers) {
        await t.test(`${bench.name} on ${driver.name}`, async () => {
          const plan = bench.plan(driver, benchContext);
          if (plan.unsupported) {
            assert.match(bench.name, /^execute_metadata/);
            assert.equal(driver.name, 'mysql');
            return;
          }
          await bench.beforeWindow?.(admin, context);
          const op = plan.op(conns.get(driver.name));
          const check = checkFor(plan, bench);
          plan.windowStats?.();
          for (let i = 0; i < 4; i++) check(await op());
          const result = await op();
          await bench.verify?.(admin, context, plan.windowStats?.());
          assert.throws(() => check(corrupt(result)), CheckError);
        });
      }
    }
  } finally {
    for (const c of conns.values()) await c.close();
  }
});

test('a wrong row inside a stream fails the read, and the connection stays usable', async () => {
  const { admin, target } = env;
  const context = await prepared();
  const bench = selectBenches(['stream_rows'])[0];
  await bench.setup(admin, context);
  for (const driver of await loadDrivers(BUILTIN_DRIVERS)) {
    const conn = await driver.connect(target);
    try {
      const lying = { ...conn, stream: (sql, params, onRow) => conn.stream(sql, params, (row) => onRow(row.id === 500 ? { ...row, payload: `${row.payload.slice(1)}!` } : row)) };
      await assert.rejects(bench.plan(driver, context).op(lying)(), (err) => err instanceof CheckError && /row 500: payload/.test(err.message), driver.name);
      bench.check(await bench.plan(driver, context).op(conn)());
    } finally {
      await conn.close();
    }
  }
});

test('a pool bench uses the driver\'s own pool: the server sees exactly pool-size connections, each running queries', async (t) => {
  const { admin, target } = env;
  const context = await prepared();
  const user = 'pool_probe';
  const password = 'pool-probe-pw-1';
  await admin.query(`CREATE USER IF NOT EXISTS '${user}'@'127.0.0.1' IDENTIFIED BY '${password}'`);
  await admin.query(`GRANT ALL PRIVILEGES ON \`${target.database}\`.* TO '${user}'@'127.0.0.1'`);
  const poolTarget = { ...target, host: '127.0.0.1', user, password };
  const SIZE = 4;
  const status = async (name) => Number((await admin.query('SHOW GLOBAL STATUS LIKE ?', [name]))[0].Value);
  const processes = () => admin.query('SELECT ID, QUERY_ID FROM information_schema.PROCESSLIST WHERE USER = ?', [user]);

  for (const bench of selectBenches(['pool_select', 'pool_select_random_alias'])) {
    await bench.setup(admin, context);
    for (const driver of await loadDrivers(BUILTIN_DRIVERS)) {
      await t.test(`${bench.name} on ${driver.name}`, async () => {
        const plan = bench.plan(driver, context);
        assert.equal(plan.pool, true);
        const connectionsBefore = await status('Connections');
        const pool = await driver.createPool(poolTarget, SIZE);
        try {
          const [{ QUERY_ID: mark }] = await admin.query('SELECT QUERY_ID FROM information_schema.PROCESSLIST WHERE ID = CONNECTION_ID()');
          // SIZE callers sharing the pool, as the runner runs them.
          const seen = new Set();
          let polling = true;
          const poller = (async () => {
            while (polling) {
              for (const p of await processes()) seen.add(Number(p.ID));
              await new Promise((r) => setTimeout(r, 10));
            }
          })();
          const end = Date.now() + 400;
          await Promise.all(Array.from({ length: SIZE }, async () => {
            const op = plan.op(pool);
            while (Date.now() < end) bench.check(await op());
          }));
          polling = false;
          await poller;
          const now = await processes();
          assert.equal(now.length, SIZE, `${driver.name}: ${now.length} connections open, pool size ${SIZE}`);
          assert.equal(seen.size, SIZE, `${driver.name}: ${seen.size} distinct connections seen while running`);
          for (const p of now) assert.ok(Number(p.QUERY_ID) > Number(mark), `${driver.name}: connection ${p.ID} ran no query from the callers`);
          assert.equal(await status('Connections') - connectionsBefore, SIZE, 'no more connections were opened than the pool size');
        } finally {
          await pool.close();
        }
        for (let i = 0; i < 50 && (await processes()).length > 0; i++) await new Promise((r) => setTimeout(r, 20));
        assert.equal((await processes()).length, 0, 'closing the pool closes its connections');
      });
    }
  }
});

test('the runner runs a pool bench with --concurrency callers on a pool of that size, and records both', async () => {
  const context = await prepared();
  const drivers = await loadDrivers(BUILTIN_DRIVERS);
  const { results } = await measureWith({ ...env, context, drivers, benches: selectBenches(['pool_select']), settings: { concurrency: 3 } });
  for (const row of results.benches[0].results) {
    assert.equal(row.ok, true, `${row.driver}: ${row.error}`);
    assert.deepEqual(row.pool, { size: 3, callers: 3 });
  }
});

test('transfer: the money check passes on real transfers and fails when a transfer is applied to one side only', async () => {
  const { admin } = env;
  const context = await prepared();
  const bench = selectBenches(['transfer'])[0];
  // one-sided: credits are dropped (money leaves and never arrives); unrecorded: transfers are never recorded.
  const drivers = await loadDrivers(['mariadb', fixture('one-sided-adapter.js'), 'mysql2', fixture('unrecorded-adapter.js')]);
  const { results } = await measureWith({ ...env, context, drivers, benches: [bench], settings: { concurrency: 2 } });
  const row = (name) => results.benches[0].results.find((r) => r.driver === name);

  for (const name of ['mariadb', 'mysql2']) {
    const r = row(name);
    assert.equal(r.ok, true, `${name}: ${r.error}`);
    assert.equal(r.protocol, 'text, 8 statements');
    assert.ok(r.workload.committed > 0 && r.workload.p95 > 0, JSON.stringify(r.workload));
    assert.equal(r.workload.accounts, SMALL.transferAccounts);
    for (const k of ['retries', 'deadlocks', 'lockWaitTimeouts', 'declined']) assert.ok(Number.isInteger(r.workload[k]), k);
  }
  assert.equal(row('one-sided').ok, false);
  assert.match(row('one-sided').error, /money not conserved: the sum of all balances is \d+, not 500000000 \(-\d+\)/);
  assert.equal(row('unrecorded').ok, false);
  // Transfers carry across windows (and drivers) until a reset: the rows other drivers recorded since
  // then are counted too, so the unrecorded driver's own transfers show as the shortfall.
  const [, rows, committed] = /(\d+) transfer row\(s\) but (\d+) committed transaction\(s\)/.exec(row('unrecorded').error) ?? [];
  assert.ok(Number(rows) < Number(committed), row('unrecorded').error);

  // And directly: one transfer applied to one side only, by hand.
  await resetBalances(admin, context.schema);
  await admin.query(`UPDATE \`${context.schema}\`.transfer_accounts SET balance = balance - 10 WHERE id = 1`);
  await assert.rejects(verifyMoney(admin, context.schema, { accounts: SMALL.transferAccounts, committed: 0 }),
    (err) => err instanceof CheckError && /sum of all balances is 499999990, not 500000000 \(-10\)/.test(err.message));
  // Both sides but no record of it: every balance sum is right, the per-account check is not.
  await admin.query(`UPDATE \`${context.schema}\`.transfer_accounts SET balance = balance + 10 WHERE id = 2`);
  await assert.rejects(verifyMoney(admin, context.schema, { accounts: SMALL.transferAccounts, committed: 0 }),
    (err) => err instanceof CheckError && /2 account balance\(s\) differ from their seed plus their recorded transfers/.test(err.message));
  await resetBalances(admin, context.schema);
});

test('transfer: a deadlock is rolled back, retried and counted', async () => {
  const { admin, target } = env;
  const context = await prepared();
  await seed(admin, context.schema, SMALL.transferAccounts);
  await resetBalances(admin, context.schema);
  const [mariadb] = await loadDrivers(['mariadb']);
  let thrown = 0;
  const flaky = wrapped(mariadb, 'flaky', (sql, params, call) => {
    if (/balance = balance \+/.test(sql) && thrown++ === 0) {
      return call().then(() => { throw Object.assign(new Error('Deadlock found when trying to get lock'), { errno: 1213, code: 'ER_LOCK_DEADLOCK' }); });
    }
    return call();
  });
  const conn = await flaky.connect(target);
  try {
    const stats = newStats();
    const steps = await transferOnce(conn, identities(SMALL.transferAccounts), [stats]);
    assert.equal(steps.length, 8);
    assert.deepEqual(stats, { committed: 1, declined: 0, retries: 1, deadlocks: 1, lockWaitTimeouts: 0 });
    // The rolled-back attempt left nothing behind.
    await verifyMoney(admin, context.schema, { accounts: SMALL.transferAccounts, committed: 1 });
  } finally {
    await conn.close();
  }
});

test('transfer: the tables are kept across windows, and each verify covers every transfer since the last reset', async () => {
  const { admin, target } = env;
  const context = await prepared();
  const transfer = BENCHES.find((b) => b.name === 'transfer');
  await transfer.setup(admin, context);
  const transfers = async () => Number((await admin.query(`SELECT COUNT(*) AS n FROM \`${context.schema}\`.transfer_transfers`))[0].n);
  const [mariadb] = await loadDrivers(['mariadb']);
  const conn = await mariadb.connect(target);
  const window = async (n) => {
    await transfer.beforeWindow(admin, context);
    const stats = newStats();
    for (let i = 0; i < n; i++) await transferOnce(conn, identities(SMALL.transferAccounts), [stats]);
    return stats;
  };
  try {
    await transfer.verify(admin, context, await window(3));
    await transfer.verify(admin, context, await window(2)); // 5 transfers since the reset, 2 in this window
    assert.equal(await transfers(), 5, 'kept across windows');
    // A window that is not verified (its driver failed) leaves transfers nobody accounted for: reset.
    await window(1);
    await transfer.beforeWindow(admin, context);
    assert.equal(await transfers(), 0, 'reset after a window that was not verified');
    // A window whose count is wrong fails, whatever the earlier windows did.
    const stats = await window(2);
    await assert.rejects(transfer.verify(admin, context, { ...stats, committed: 1 }), /2 transfer row\(s\) but 1 committed/);
  } finally {
    await conn.close();
  }
});

test('streaming probe: every figure from its own process; streaming 20 000 rows holds far less heap than fetch-all', async () => {
  const { admin, target } = env;
  await prepared();
  await createStreamRows(admin, target.database);
  const drivers = await loadDrivers(BUILTIN_DRIVERS);
  // An adapter by path whose streamed rows are altered: its stream figures must fail their check.
  const dir = mkdtempSync(join(tmpdir(), 'mdb-catalogue-test-'));
  try {
    const lyingFile = join(dir, 'lying-stream-adapter.js');
    writeFileSync(lyingFile, `import mariadb from ${JSON.stringify(pathToFileURL(join(process.cwd(), 'lib/drivers/mariadb.js')).href)};
export default { ...mariadb, name: 'lying-stream', async connect(t) {
  const c = await mariadb.connect(t);
  return { ...c, stream: (sql, p, onRow) => c.stream(sql, p, (row) => onRow(row.id === 7 ? { ...row, id: 8 } : row)) };
} };\n`);
    const [lying] = await loadDrivers([lyingFile]);
    const streaming = await runStreamingProbe({ drivers: [...drivers, lying], target, settings: { mode: 'smoke' }, sizes: [20000] });
    const get = (driver, mode) => streaming.rows.find((r) => r.driver === driver && r.mode === mode);
    for (const d of BUILTIN_DRIVERS) {
      const all = get(d, 'fetch-all');
      const st = get(d, 'stream');
      assert.ok(all.ok && st.ok, `${d}: ${all.error ?? ''} ${st.error ?? ''}`);
      assert.ok(all.msPerRead > 0 && st.msPerRead > 0 && all.reads >= 1);
      assert.ok(all.heapHeldBytes > 2 * 1024 * 1024, `${d}: fetch-all of 20 000 rows holds ${all.heapHeldBytes} bytes`);
      assert.ok(st.heapHeldBytes < all.heapHeldBytes / 4, `${d}: stream holds ${st.heapHeldBytes} bytes, fetch-all ${all.heapHeldBytes}`);
      assert.match(st.api, /\(sql\)/);
    }
    assert.equal(get('lying-stream', 'fetch-all').ok, true);
    assert.equal(get('lying-stream', 'stream').status, 'failed');
    assert.match(get('lying-stream', 'stream').error, /row 7: expected id 7, got 8/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('metadata probe: the server offers metadata skipping, mariadb uses it, the bytes per execution show it', async () => {
  const { admin, target } = env;
  const context = await prepared();
  await selectBenches(['execute_metadata'])[0].setup(admin, context);
  const drivers = await loadDrivers(BUILTIN_DRIVERS);
  const m = await runMetadataProbe({ drivers, target, admin, server: context.server, executions: 20 });
  assert.equal(m.server.offered, true, 'MariaDB 10.6+ offers MARIADB_CLIENT_CACHE_METADATA');
  assert.match(m.server.from, /handshake/);
  const byDriver = Object.fromEntries(m.drivers.map((d) => [d.driver, d]));
  assert.equal(byDriver.mysql.status, 'n/a');
  for (const d of ['mysql2', 'mariadb']) {
    assert.equal(byDriver[d].ok, true, byDriver[d].error);
    assert.ok(byDriver[d].bytesChanging > 101 * 20, `${d}: changing columns cost the column definitions (${byDriver[d].bytesChanging} bytes)`);
    assert.equal(byDriver[d].skips, byDriver[d].bytesUnchanged < byDriver[d].bytesChanging / 2);
  }
  assert.equal(byDriver.mariadb.skips, true);
  assert.equal(byDriver.mariadb.negotiated, true);
  assert.ok(byDriver.mariadb.bytesUnchanged * 4 < byDriver.mariadb.bytesChanging, JSON.stringify(byDriver.mariadb));
});
