// Integration: the wire-floor client's reply handling, and the latency proxy's byte fidelity.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { connectFloor, decodeTextRow, FloorError } from '../../lib/drivers/floor-client.js';
import { startProxy } from '../../lib/server/proxy/index.js';
import mariadb from '../../lib/drivers/mariadb.js';
import mysql2 from '../../lib/drivers/mysql2.js';
import { useEmbeddedServer } from '../helpers/server.js';
import { isolatedDirs, runCli, removeIsolatedDirs } from '../helpers/cli.js';

const env = useEmbeddedServer({ prepare: true });
after(removeIsolatedDirs);
const md5 = (s) => createHash('md5').update(s).digest('hex');

test('floor client: OK, error and result-set replies from the real server', async () => {
  const c = await connectFloor(env.target);
  try {
    const ok = await c.query('DO ?', [42]);
    assert.deepEqual({ affectedRows: ok.affectedRows, warningStatus: ok.warningStatus }, { affectedRows: 0, warningStatus: 0 });
    await c.query('CREATE TABLE IF NOT EXISTS floor_t (id INT AUTO_INCREMENT PRIMARY KEY, v VARCHAR(10))');
    const ins = await c.query("INSERT INTO floor_t (v) VALUES ('a'), ('b')");
    assert.equal(ins.affectedRows, 2);
    assert.ok(ins.insertId > 0);

    await assert.rejects(c.query('SELECT * FROM no_such_table'), (err) => err instanceof FloorError && err.errno === 1146 && err.sqlState === '42S02');
    // The connection is still usable after an error reply.
    const rs = await c.query("SELECT 1 AS a, 'x' AS b UNION ALL SELECT 3, NULL");
    assert.equal(rs.columnCount, 2);
    assert.equal(rs.rowCount, 2);
    assert.deepEqual(decodeTextRow(rs.lastRow), ['3', null]);
    const empty = await c.query('SELECT 1 FROM DUAL WHERE 1 = 0');
    assert.deepEqual([empty.columnCount, empty.rowCount], [1, 0]);
    // Many packets, split across TCP reads.
    const big = await c.query('SELECT seq, REPEAT(CHAR(65 + seq % 26 USING ascii), 200) FROM seq_1_to_100000');
    assert.equal(big.rowCount, 100000);
    assert.deepEqual(decodeTextRow(big.lastRow), ['100000', String.fromCharCode(65 + (100000 % 26)).repeat(200)]);
  } finally {
    await c.close();
  }
  await assert.rejects(connectFloor({ ...env.target, password: 'definitely-wrong' }), (err) => err.code === 'ER_ACCESS_DENIED_ERROR');
});

test('proxy: a 100 000-row result and an 8 MB insert arrive whole and in order', async () => {
  const proxy = await startProxy(env.target, 0.2);
  const via = { ...env.target, host: proxy.host, port: proxy.port };
  try {
    for (const driver of [mariadb, mysql2]) {
      const conn = await driver.connect(via);
      try {
        const rows = await conn.query('SELECT seq, REPEAT(CHAR(65 + seq % 26 USING ascii), 200) AS v FROM seq_1_to_100000');
        assert.equal(rows.length, 100000, driver.name);
        for (let i = 0; i < rows.length; i++) {
          const expected = String.fromCharCode(65 + ((i + 1) % 26)).repeat(200);
          if (Number(rows[i].seq) !== i + 1 || rows[i].v !== expected) assert.fail(`${driver.name}: row ${i + 1} out of order or altered`);
        }
        const blob = randomBytes(6 * 1024 * 1024).toString('base64'); // 8 MB of text
        await conn.query('CREATE TABLE IF NOT EXISTS proxy_blob (id INT PRIMARY KEY, v LONGTEXT)');
        await conn.query('REPLACE INTO proxy_blob VALUES (1, ?)', [blob]);
        const [back] = await conn.query('SELECT MD5(v) AS h, LENGTH(v) AS n FROM proxy_blob WHERE id = 1');
        assert.equal(Number(back.n), blob.length);
        assert.equal(back.h, md5(blob), `${driver.name}: the insert's bytes arrived unaltered`);
      } finally {
        await conn.close();
      }
    }
  } finally {
    await proxy.stop();
  }
});

test('a run with --rtt held in the driver processes (the default): the hold tuned by a probe, then on the baseline driver for every row, each row at least two holds per operation', async () => {
  const { tmp, out } = isolatedDirs();
  const r = await runCli(['do', '--smoke', '--rtt', '0.5', '--floor', '--out', out], { tmp });
  assert.equal(r.code, 0, r.stderr);
  const json = JSON.parse(readFileSync(join(out, readdirSync(out).find((f) => f.endsWith('.json'))), 'utf8'));
  const network = json.settings.network;
  assert.equal(network.rttMs, 0.5);
  assert.equal(network.via, 'process');
  const c = network.calibration;
  assert.equal(c.calibrated, true, JSON.stringify(c));
  assert.ok(c.holdMs > 0 && c.holdMs <= 0.25 && network.holdMs === c.holdMs, JSON.stringify(network));
  assert.ok(c.observed.addedMs > 0 && c.after.addedMs > 0, JSON.stringify(c));
  assert.equal(network.holds, undefined); // no proxy
  assert.match(r.stderr, /^network: \+0\.5 ms RTT held in each driver process/m);
  assert.match(r.stderr, /^network: \+0\.5 ms RTT requested; a client saw \+[\d.]+ ms .* before the run, \+[\d.]+ ms .* after; held in each driver process [\d.]+ ms each way$/m);
  assert.match(r.stdout, /network \+0\.5 ms RTT \(held in the driver processes: a client saw \+[\d.]+ ms on average before the run, \+[\d.]+ ms on average after\)/);
  // The bench's hold, tuned on the baseline's driver from the probe's (held-tuning.js), taken by every
  // row and measured on each driver: `do` is one round trip.
  assert.match(r.stderr, /^network: do, one hold each way for every row, [\d.]+ ms, tuned on mysql; per round trip each driver saw on average, and its p50 unheld → held: mysql \+[\d.]+ ms, \d+ → \d+ µs; /m);
  const rows = json.benches[0].results;
  const tuned = rows.find((row) => row.driver === 'mysql').held;
  assert.ok(tuned.tuned && tuned.steps.length === 3 && tuned.holdMs > 0 && tuned.holdMs <= 0.5, JSON.stringify(tuned));
  for (const row of rows) {
    assert.ok(row.ok, `${row.driver}: ${row.error}`);
    const h = row.held;
    assert.ok(h.holdMs === tuned.holdMs && h.roundTripsPerOp === 1 && h.tuned === (row.driver === 'mysql'), `${row.driver}: ${JSON.stringify(h)}`);
    assert.ok(h.heldP50Us >= 2000 * (h.steps?.at(-1).holdMs ?? h.holdMs) && h.loopbackP50Us > 0, `${row.driver}: ${JSON.stringify(h)}`);
    assert.ok(row.latency.p50 >= 2000 * h.holdMs, `${row.driver} p50 ${row.latency.p50} µs`);
  }
});

test('a run with --rtt through the proxy and the floor row records the network and each driver over the floor', async () => {
  const { tmp, out } = isolatedDirs();
  const r = await runCli(['do', 'select_100_cols', '--smoke', '--rtt', '0.5', '--rtt-via', 'proxy', '--floor', '--out', out], { tmp });
  assert.equal(r.code, 0, r.stderr);
  const json = JSON.parse(readFileSync(join(out, readdirSync(out).find((f) => f.endsWith('.json'))), 'utf8'));
  const network = json.settings.network;
  assert.equal(network.rttMs, 0.5);
  // Tuned from the client's side: the proxy's hold each way is what made a probe client see the RTT
  // asked for (its own path cost taken off), and the proxy never released a chunk before that hold.
  const c = network.calibration;
  assert.equal(c.calibrated, true, JSON.stringify(c));
  assert.ok(c.holdMs >= 0 && c.holdMs <= 0.25, `hold ${c.holdMs}`);
  assert.ok(c.steps.length >= 1 && c.observed.addedMs > 0 && c.observed.loopbackP50Us > 0, JSON.stringify(c));
  assert.equal(network.holdMs, c.holdMs);
  assert.ok(['spin', 'sleep'].includes(network.proxy.waits), JSON.stringify(network.proxy));
  assert.equal(network.early, 0);
  for (const direction of ['toServer', 'toClient']) assert.ok(network.holds[direction].minMs >= c.holdMs, `${direction} ${network.holds[direction].minMs}`);
  assert.ok(network.addedRttP99Ms >= network.addedRttP50Ms, JSON.stringify(network));
  assert.ok(network.proxyCpuSeconds > 0);
  assert.match(r.stderr, /^network: probed from the drivers' CPU, a client sees \+[\d.]+ ms on average \(p50 \+[\d.]+ ms: DO 1 with the round trip p50 \d+ µs − straight to the server p50 \d+ µs\) with [\d.]+ ms held each way/m);
  assert.match(r.stderr, /^network: \+0\.5 ms RTT requested; a client saw \+[\d.]+ ms .* before the run.*; the proxy held .*: p50 [\d.]+ ms, p99 [\d.]+ ms/m);
  assert.match(r.stdout, /network \+0\.5 ms RTT \(a client saw \+[\d.]+ ms on average before the run.*; the proxy held p50 [\d.]+ ms, p99 [\d.]+ ms\)/);
  for (const bench of json.benches) {
    // Seen from the drivers: no operation (one round trip each) is shorter than the two holds.
    for (const row of bench.results.filter((x) => x.ok)) assert.ok(row.latency.p50 >= 2000 * c.holdMs, `${bench.name} ${row.driver} p50 ${row.latency.p50} µs`);
  }
  const doRows = json.benches[0].results;
  assert.ok(doRows.find((x) => x.driver === 'floor').ok);
  for (const row of doRows.filter((x) => x.driver !== 'floor')) assert.ok(Number.isFinite(row.overFloorPct), row.driver);
  assert.match(r.stdout, /over floor/);
});
