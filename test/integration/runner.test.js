// Integration: the runner measures every driver in its own process in interleaved rounds, marks
// wrong, failing, crashing or hanging drivers as failed, and carries on with the others.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { selectBenches } from '../../benchs/index.js';
import { loadDrivers } from '../../lib/drivers/index.js';
import { prepareSchema, inspectServer } from '../../lib/server/schema.js';
import { rotate } from '../../lib/common/rotate.js';
import { shuffle } from '../../lib/measuring/run/schedule.js';
import { median } from '../../lib/common/stats.js';
import { useEmbeddedServer } from '../helpers/server.js';
import { alive, measureWith } from '../helpers/measure.js';

const env = useEmbeddedServer();
const fixture = (name) => fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));

async function prepared() {
  const { admin, target } = env;
  await prepareSchema(admin, target.database);
  return { schema: target.database, server: await inspectServer(admin) };
}

const byDriver = (bench) => Object.fromEntries(bench.results.map((r) => [r.driver, r]));

test('rotate shifts the order by one per step; shuffle is a permutation', () => {
  assert.deepEqual(rotate(['a', 'b', 'c'], 0), ['a', 'b', 'c']);
  assert.deepEqual(rotate(['a', 'b', 'c'], 1), ['b', 'c', 'a']);
  assert.deepEqual(rotate(['a', 'b', 'c'], 5), ['c', 'a', 'b']);
  const seq = [0.9, 0.1, 0.5];
  let i = 0;
  assert.deepEqual(shuffle(['a', 'b', 'c'], () => seq[i++]).sort(), ['a', 'b', 'c']);
});

test('a driver returning altered rows is failed, one that throws is failed, the others are measured', async () => {
  const context = await prepared();
  const drivers = await loadDrivers(['mariadb', fixture('lying-adapter.js'), fixture('throwing-adapter.js')]);
  const { results } = await measureWith({ ...env, context, drivers, benches: selectBenches(['select_100_cols', 'do']) });
  const [sel, doBench] = results.benches;
  const s = byDriver(sel);
  assert.equal(s.mariadb.ok, true);
  assert.ok(s.mariadb.opsPerSec > 0);
  assert.equal(s['lying-mysql2'].ok, false);
  assert.equal(s['lying-mysql2'].status, 'failed');
  assert.match(s['lying-mysql2'].error, /column i100: expected 100, got 101/);
  assert.equal(s['lying-mysql2'].opsPerSec, undefined, 'a failed row carries no speed');
  assert.match(s.throwing.error, /this adapter fails every call/);
  const d = byDriver(doBench);
  assert.equal(d.mariadb.ok, true);
  assert.equal(d['lying-mysql2'].ok, true, 'DO returns no rows, so the liar has nothing to alter');
  assert.equal(d.throwing.ok, false);
});

test('rounds: every driver gets one window per round in a fresh random order, from its own process; the figure is the median window', async () => {
  const context = await prepared();
  const drivers = await loadDrivers(['mysql', 'mysql2', 'mariadb']);
  const { results, pids } = await measureWith({ ...env, context, drivers, benches: selectBenches(['do']), settings: { rounds: 8 }, serverPid: env.server.process.pid });
  const [bench] = results.benches;
  assert.equal(bench.order.length, 8);
  for (const order of bench.order) assert.deepEqual([...order].sort(), ['mariadb', 'mysql', 'mysql2']);
  assert.equal(new Set(pids).size, 3, 'one process per driver');
  assert.ok(!pids.includes(process.pid));
  for (const pid of pids) assert.equal(alive(pid), false, 'driver processes end with the run');
  for (const row of bench.results) {
    assert.equal(row.ok, true, row.error);
    assert.deepEqual(row.rounds.map((r) => r.round), [0, 1, 2, 3, 4, 5, 6, 7], row.driver);
    assert.ok(Math.abs(row.opsPerSec - median(row.rounds.map((r) => r.opsPerSec))) <= 0.1 * 3, 'median of the windows');
    assert.equal(row.sampleOpsPerSec.length, 8);
    assert.ok(Number.isInteger(row.windowReruns.leadInStalled) && Number.isInteger(row.windowReruns.shortSamples), JSON.stringify(row.windowReruns));
    // One operation in every 1 ms of operations is timed, at most one in 64 (sampler.js).
    assert.ok(row.operations > 0 && row.latency.count <= row.operations && row.latency.count >= row.operations / 128, `${row.latency.count} latencies of ${row.operations} operations`);
    assert.ok(row.cost.clientCpuUsPerOp > 0 && row.cost.gcMsPer1000Ops >= 0 && row.cost.serverCpuUsPerOp >= 0, JSON.stringify(row.cost));
  }
  // The paired Δ: each non-reference row against mysql, round by round, with its interval (two Δs:
  // each at 97.5 %, which needs at least 7 rounds).
  const mysql2 = byDriver(bench).mysql2;
  assert.ok(Number.isFinite(mysql2.deltaPct) && mysql2.deltaPairs === 8 && mysql2.deltaCI.length === 2);
  assert.ok(mysql2.deltaCI[0] <= mysql2.deltaPct && mysql2.deltaPct <= mysql2.deltaCI[1]);
  assert.equal(byDriver(bench).mysql.deltaPct, 0);
});

test('processes: each row measured in two processes of its own, which take the rounds in turn; one row from both', async () => {
  const context = await prepared();
  const drivers = await loadDrivers(['mysql2', 'mariadb']);
  const { results, pids } = await measureWith({ ...env, context, drivers, benches: selectBenches(['do']), settings: { rounds: 8, processes: 2 } });
  assert.equal(new Set(pids).size, 4, 'two processes per driver');
  for (const row of results.benches[0].results) {
    assert.equal(row.ok, true, row.error);
    assert.equal(row.processes, 2);
    const byProcess = [0, 1].map((p) => row.rounds.filter((r) => r.process === p).length);
    assert.deepEqual(byProcess, [4, 4], `${row.driver}: each process gives half the windows`);
    assert.ok(row.latency.count <= row.operations && row.latency.count >= row.operations / 128, `latency over both processes: ${row.latency.count} of ${row.operations} operations`);
    assert.ok(row.operations >= row.rounds.reduce((s, r) => s + r.ops, 0), 'the kept samples, and short samples run again (operations counts every sampled call; warm-ups and lead-ins are not in it)');
  }
  for (const pid of pids) assert.equal(alive(pid), false);
});

test('--jit wait: each row records what its processes waited for V8\'s compiles; by default none waits', async () => {
  const context = await prepared();
  const drivers = await loadDrivers(['mysql2']);
  for (const jit of ['wait', 'background']) {
    const { results } = await measureWith({ ...env, context, drivers, benches: selectBenches(['select_100_cols']), settings: { rounds: 4, jit } });
    const [row] = results.benches[0].results;
    assert.equal(row.ok, true, row.error);
    if (jit === 'background') assert.equal(row.compileWaitSeconds, null);
    else {
      assert.deepEqual(Object.keys(row.compileWaitSeconds).sort(), ['warmup', 'windows']);
      for (const s of Object.values(row.compileWaitSeconds)) assert.ok(s >= 0, JSON.stringify(row.compileWaitSeconds));
    }
  }
});

test('a driver process that crashes fails its row with the reason, is started again for the next bench, and the others are measured', async () => {
  const context = await prepared();
  const drivers = await loadDrivers(['mariadb', fixture('crashing-adapter.js')]);
  const { results, pids } = await measureWith({ ...env, context, drivers, benches: selectBenches(['do', 'select_100_cols']) });
  for (const bench of results.benches) {
    const rows = byDriver(bench);
    assert.equal(rows.mariadb.ok, true, `${bench.name}: ${rows.mariadb.error}`);
    assert.equal(rows.crashing.ok, false);
    assert.match(rows.crashing.error, /the driver process exited \(SIGKILL\)/);
  }
  assert.equal(pids.length, 3, 'the crashed process was replaced for the second bench');
  for (const pid of pids) assert.equal(alive(pid), false);
});

test('with two processes per row, one that crashes fails its row; the processes of the row and the others end with the run', async () => {
  const context = await prepared();
  const drivers = await loadDrivers(['mysql2', fixture('crashing-adapter.js')]);
  const { results, pids } = await measureWith({ ...env, context, drivers, benches: selectBenches(['do']), settings: { rounds: 8, processes: 2 } });
  const rows = byDriver(results.benches[0]);
  assert.equal(rows.mysql2.ok, true, rows.mysql2.error);
  assert.equal(rows.mysql2.processes, 2);
  assert.equal(rows.crashing.ok, false);
  assert.match(rows.crashing.error, /the driver process exited \(SIGKILL\)/);
  assert.ok(pids.length >= 3, `both of mysql2's processes and at least one of the crashing row's: ${pids.length}`);
  for (const pid of pids) assert.equal(alive(pid), false);
});

test('a driver process that stops answering is killed after its window\'s time limit and fails its row', async () => {
  const context = await prepared();
  const drivers = await loadDrivers([fixture('hanging-adapter.js'), 'mysql2']);
  const started = Date.now();
  // The time limit also guards every call of mysql2's process: 1 s was once too short for a busy CI host.
  const { results, pids } = await measureWith({ ...env, context, drivers, benches: selectBenches(['do']), settings: { callTimeoutMs: 4000 } });
  const rows = byDriver(results.benches[0]);
  assert.equal(rows.mysql2.ok, true, rows.mysql2.error);
  assert.equal(rows.hanging.ok, false);
  assert.match(rows.hanging.error, /the driver process did not answer within \d+ s \((open|window)\): killed/);
  assert.ok(Date.now() - started < 60000);
  for (const pid of pids) assert.equal(alive(pid), false);
});
