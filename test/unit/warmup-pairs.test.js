// How a bench's rounds open a replayed row's processes (two warm-ups at a time, the second of each
// pair on the harness's CPU, the same share of every row there) and sizes its windows, through the
// fake driver processes; no driver, no server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { measureBench } from '../helpers/one-bench.js';
import { fakeDriverProcesses } from '../helpers/fake-driver.js';

/** The fake driver processes (test/helpers/fake-driver.js): `msPerOp(process, index)` paces their windows. */
function standIns({ aside, failOpenOf = null, msPerOp = () => 1 }) {
  return fakeDriverProcesses({
    aside,
    figures: ({ process, index }) => ({ opsPerSec: 1000 / msPerOp(process, index) }),
    fault: ({ process, cmd }) => (cmd === 'open' && process === failOpenOf ? new Error(`${process} could not open`) : null),
  });
}
const opensOf = (log) => log.filter((t) => t.cmd === 'open');

const bench = { name: 'do', plan: () => ({ protocol: 'text' }) };
const drivers = [{ name: 'mysql' }, { name: 'mysql2' }];
const settings = { rounds: 4, lead: 0.002, warmup: 0, processes: 4, callTimeoutMs: 1000, replay: { warmupOps: 4096 } };
const run = (processes, extra = {}) => measureBench({
  bench, drivers, processes, admin: null, context: {}, settings: { ...settings, ...extra }, level: 1, windowS: 0.02, serverAlive: async () => true,
});

test('replayed rows warm up two processes at a time, half of each row on the harness\'s CPU', async () => {
  const { log, inFlight, processes } = standIns({ aside: true });
  const { rows } = await run(processes);
  assert.deepEqual(rows.map((r) => r.status), ['ok', 'ok']);
  assert.equal(inFlight.most, 2, 'two warm-ups at once');
  for (const driver of drivers) {
    const opens = opensOf(log).filter((o) => o.driver === driver.name);
    assert.equal(opens.length, 4);
    assert.equal(opens.filter((o) => o.aside).length, 2, `${driver.name}: half its processes warmed aside`);
    assert.ok(opens.every((o) => o.args.warmupOps === 4096), 'every process the same warm-up');
  }
  assert.ok(rows.every((r) => r.processes === 4 && r.warmupSeconds.length === 4));
});

test('without a CPU to warm aside on, or end to end, processes warm up one at a time', async () => {
  for (const [aside, extra] of [[false, {}], [true, { replay: undefined }]]) {
    const { log, inFlight, processes } = standIns({ aside });
    const { rows } = await run(processes, extra);
    assert.deepEqual(rows.map((r) => r.status), ['ok', 'ok']);
    assert.equal(inFlight.most, 1);
    assert.ok(opensOf(log).every((o) => !o.aside));
  }
});

test('a process of a pair that fails to open fails its row, and the other rows go on', async () => {
  const { rows } = await run(standIns({ aside: true, failOpenOf: 'mysql#1' }).processes);
  assert.equal(rows[0].status, 'failed');
  assert.match(rows[0].error, /mysql#1 could not open/);
  assert.equal(rows[1].status, 'ok');
});

test('replayed rows\' windows are sized again from their rounds, once past the first ones', async () => {
  // mysql runs at 1 ms an operation, mysql2 at 0.5 ms, but both read 4 ms in every window before the rounds'.
  const sizingWindows = 2 * 4 * (2 + 2); // rows × processes × (settling + sizing windows)
  const msPerOp = (key, n) => (n <= sizingWindows ? 4 : key.startsWith('mysql#') ? 1 : 0.5);
  const { log, processes } = standIns({ aside: true, msPerOp });
  const { rows } = await run(processes, { rounds: 30, lead: 0 });
  assert.deepEqual(rows.map((r) => r.status), ['ok', 'ok']);
  const sizes = (driver) => log.filter((t) => t.cmd === 'window').slice(sizingWindows).filter((t) => t.driver === driver).map((t) => t.args.fixed.ops);
  for (const [driver, ms] of [['mysql', 1], ['mysql2', 0.5]]) {
    const ops = sizes(driver);
    assert.equal(ops.length, 30);
    assert.ok(ops.slice(0, 24).every((n) => n === 5), `${driver}: sized on the slow sizing windows first (20 ms / 4 ms)`);
    assert.ok(ops.slice(24).every((n) => n === 20 / ms), `${driver}: then from its rounds`);
  }
});
