// The measuring loop's order and clean-up, through the fake driver processes (test/helpers/fake-driver.js):
// the rounds of a bench (bench.js, through one-bench.js), the benches of a pass and the run's levels and
// rate passes (loop.js measureLoop, measure-run.js measureRun). No driver, no server, no timing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { measureBench } from '../helpers/one-bench.js';
import { measureLoop } from '../../lib/measuring/run/loop.js';
import { measureRun } from '../../lib/measuring/run/measure-run.js';
import { MIN_ROUNDS, PRECISION_BATCH } from '../../lib/measuring/run/schedule.js';
import { DriverProcessError } from '../../lib/measuring/processes/driver-handle.js';
import { Interrupted } from '../../lib/common/errors.js';
import { EXIT } from '../../lib/common/errors.js';
import { fakeDriverProcesses, windowDrivers } from '../helpers/fake-driver.js';

const benchNamed = (name, extra = {}) => ({ name, title: name, sql: 'DO 1', plan: () => ({ protocol: 'text' }), ...extra });
const DRIVERS = [{ name: 'mysql' }, { name: 'mysql2' }, { name: 'mariadb' }];
const SETTINGS = { rounds: 12, lead: 0, warmup: 0, processes: 1, callTimeoutMs: 1000, baseline: 'mysql', maxRounds: 48, precisionLevel: 0.95 };
// Each driver a steady speed of its own: mysql 1000 ops/s, mysql2 2000, mariadb 3000.
const steady = ({ driver }) => ({ opsPerSec: 1000 * (DRIVERS.findIndex((d) => d.name === driver) + 1) });

const bench = (processes, settings = {}, extra = {}) => measureBench({
  bench: benchNamed('do'), drivers: DRIVERS, processes, admin: null, context: {}, settings: { ...SETTINGS, ...settings },
  level: 1, windowS: 0.01, serverAlive: async () => true, ...extra,
});

/** The turns of `cmd` each process took. */
const turnsOf = (log, cmd) => log.filter((t) => t.cmd === cmd).map((t) => t.process);

test('each round gives every row one window, in a fresh random order, and the bench records the orders', async () => {
  const { processes, log } = fakeDriverProcesses({ figures: steady });
  const { rows, order } = await bench(processes, { rounds: 40 });
  assert.deepEqual(rows.map((r) => [r.driver, r.status, r.rounds.length]), DRIVERS.map((d) => [d.name, 'ok', 40]));
  assert.equal(order.length, 40);
  for (const round of order) assert.deepEqual([...round].sort(), ['mariadb', 'mysql', 'mysql2']);
  // The log's windows, three a round, are the orders the bench records.
  assert.deepEqual(windowDrivers(log), order.flat());
  assert.ok(new Set(order.map((r) => r.join())).size > 1, 'the order changes from round to round');
  // Each row's figures are its own driver's, round by round.
  assert.deepEqual(rows.map((r) => r.opsPerSec), [1000, 2000, 3000]);
});

test('every row is opened before the first round, and every process is closed after the last', async () => {
  const { processes, log } = fakeDriverProcesses({ figures: steady });
  await bench(processes, { processes: 2 });
  const cmds = log.map((t) => t.cmd);
  assert.equal(cmds.lastIndexOf('open'), 5, 'three rows of two processes, opened one row at a time');
  assert.ok(cmds.indexOf('window') > cmds.lastIndexOf('open'));
  assert.ok(cmds.indexOf('close') > cmds.lastIndexOf('window'));
  assert.deepEqual(turnsOf(log, 'open'), ['mysql#0', 'mysql#1', 'mysql2#0', 'mysql2#1', 'mariadb#0', 'mariadb#1']);
  assert.deepEqual(turnsOf(log, 'close').sort(), turnsOf(log, 'open').sort());
  // A row's rounds are shared among its processes, six each.
  for (const d of DRIVERS) assert.deepEqual([0, 1].map((c) => turnsOf(log, 'window').filter((p) => p === `${d.name}#${c}`).length), [6, 6]);
});

test('a row whose window fails is failed with its error, its process closed, and the other rows go on', async () => {
  const fault = ({ process, cmd, n }) => (process === 'mysql2#0' && cmd === 'window' && n === 5 ? new DriverProcessError('the driver process exited (code 1)') : null);
  const { processes, log } = fakeDriverProcesses({ figures: steady, fault });
  const { rows, order } = await bench(processes);
  assert.deepEqual(rows.map((r) => r.status), ['ok', 'failed', 'ok']);
  assert.match(rows[1].error, /the driver process exited \(code 1\)/);
  assert.equal(turnsOf(log, 'window').filter((p) => p === 'mysql2#0').length, 5, 'no window after the failed one');
  assert.ok(order.slice(5).every((round) => !round.includes('mysql2')), 'later rounds leave the failed row out');
  assert.equal(order.length, 12);
  assert.deepEqual(rows.filter((r) => r.ok).map((r) => r.rounds.length), [12, 12]);
  assert.deepEqual(turnsOf(log, 'close').sort(), ['mariadb#0', 'mysql#0', 'mysql2#0'], 'the failed row\'s process is closed too');
});

test('a row that fails to open, or whose driver says n/a, is left out of the rounds; the others are measured', async () => {
  const fault = ({ process, cmd }) => (process === 'mysql#0' && cmd === 'open' ? new DriverProcessError('cannot load the adapter') : null);
  const opened = (process) => (process === 'mariadb#0' ? { unsupported: 'no such call' } : {});
  const { processes, log } = fakeDriverProcesses({ figures: steady, fault, opened });
  const { rows, order } = await bench(processes);
  assert.deepEqual(rows.map((r) => r.status), ['failed', 'ok', 'n/a']);
  assert.match(rows[0].error, /cannot load the adapter/);
  assert.match(rows[2].error, /not supported by driver: no such call/);
  assert.ok(order.every((round) => round.join() === 'mysql2'));
  assert.deepEqual(new Set(windowDrivers(log)), new Set(['mysql2']));
});

test('with --precision, rounds stop once every Δ is precise enough, judged between batches, else at the most rounds', async () => {
  const precise = await bench(fakeDriverProcesses({ figures: steady }).processes, { precision: 1 });
  assert.equal(precise.order.length, SETTINGS.rounds, 'steady rows: precise at the first judgement');
  // mysql2 swings ±20 % window by window against a steady mysql: never within ±0.01 %.
  const swinging = ({ driver, n }) => ({ opsPerSec: driver === 'mysql2' ? 2000 * (n % 2 ? 1.2 : 0.8) : 1000 });
  const noisy = await bench(fakeDriverProcesses({ figures: swinging }).processes, { precision: 0.01 });
  assert.equal(noisy.order.length, SETTINGS.maxRounds);
  assert.equal((SETTINGS.maxRounds - SETTINGS.rounds) % PRECISION_BATCH, 0, 'added in whole batches');
  assert.equal(noisy.budgetStopped, false);
});

test('a time budget ends the rounds after the least the bench is given, and waits for V8\'s compiles do not count', async () => {
  const tight = await bench(fakeDriverProcesses({ figures: steady }).processes, { rounds: 40, budget: 1e-9 });
  assert.equal(tight.order.length, MIN_ROUNDS);
  assert.equal(tight.budgetStopped, true);
  // Each window then waited a long time for compiles: the bench's own time is under its budget.
  const compiling = (w) => ({ ...steady(w), compileWaitMs: 1e6 });
  const waited = await bench(fakeDriverProcesses({ figures: compiling }).processes, { rounds: 40, budget: 1 });
  assert.equal(waited.order.length, 40);
  assert.equal(waited.budgetStopped, false);
});

test('an interruption during the rounds ends the bench at once: no further window', async () => {
  const controller = new AbortController();
  const figures = (w) => {
    if (w.index === 7) controller.abort(new Interrupted('SIGINT'));
    return steady(w);
  };
  const { processes, log } = fakeDriverProcesses({ figures });
  await assert.rejects(bench(processes, {}, { signal: controller.signal }), Interrupted);
  assert.equal(turnsOf(log, 'window').length, 7);
});

test('the benches of a pass run one after another; a bench whose set-up fails has failed rows and the next goes on', async () => {
  const { processes, log } = fakeDriverProcesses({ figures: steady });
  const benches = [benchNamed('a'), benchNamed('broken', { setup: async () => { throw new Error('no table'); } }), benchNamed('c')];
  const done = [];
  const results = { benches: [] };
  for await (const entry of measureLoop({
    benches, drivers: DRIVERS, processes, admin: null, context: {}, settings: { ...SETTINGS, concurrency: 1, time: 0.12 },
    progress: { benchDone: (b, rows) => done.push([b.name, rows.map((r) => r.status).join()]) }, serverAlive: async () => true,
  })) results.benches.push(entry);
  assert.deepEqual(done, [['a', 'ok,ok,ok'], ['broken', 'failed,failed,failed'], ['c', 'ok,ok,ok']]);
  assert.match(results.benches[1].results[0].error, /bench setup failed: no table/);
  assert.deepEqual(results.benches.map((e) => e.order.length), [12, 0, 12]);
  // One bench at a time: a's windows and closes all come before c's first open.
  assert.deepEqual(log.filter((t) => t.cmd === 'open').map((t) => t.args.bench), ['a', 'a', 'a', 'c', 'c', 'c']);
  const cStarts = log.findIndex((t) => t.cmd === 'open' && t.args.bench === 'c');
  assert.deepEqual(['window', 'close'].map((cmd) => log.slice(0, cStarts).filter((t) => t.cmd === cmd).length), [36, 3]);
  assert.deepEqual(['window', 'close'].map((cmd) => log.slice(cStarts).filter((t) => t.cmd === cmd).length), [36, 3]);
});

/** measureRun(args), the event loop held meanwhile: its pause for the server's connection count does not hold it (timers.js sleep). */
async function measureRunHeld(args) {
  const hold = setInterval(() => {}, 1000);
  try {
    return await measureRun(args);
  } finally {
    clearInterval(hold);
  }
}

/** measureRun's arguments around the fake processes: no server (its admin connection is absent), no wake spinners, no placement. */
function runArgs(processes, settings, { benches = [benchNamed('a'), benchNamed('b')], signal = new AbortController().signal } = {}) {
  const lines = [];
  return {
    lines,
    args: {
      benches, drivers: DRIVERS.slice(0, 2), settings: { ...SETTINGS, time: 0.12, wake: 'none', jit: 'background', concurrency: 1, ...settings },
      wake: { mode: 'none', spinners: 0 }, context: {},
      stage: { session: { admin: null, alive: async () => true }, target: {}, placement: { mode: 'none' } },
      processes, signals: { signal }, progress: { round: () => {}, benchDone: () => {}, log: (l) => lines.push(l) },
    },
  };
}

test('a run measures for each level, for each rate pass, each bench; a share of the maximum is asked of the closed-loop pass\'s slowest row', async () => {
  const { processes, log } = fakeDriverProcesses({ figures: steady });
  const rate = { rates: [{ pctOfMax: 50 }], schedule: 'uniform', latencyLimitMs: null, seed: 1 };
  const { args, lines } = runArgs(processes, { concurrency: [1, 4], rate });
  const results = await measureRunHeld(args);
  assert.equal(results.exitCode, EXIT.OK);
  assert.match(lines[0], /^measuring 2 bench\(es\) × 2 driver\(s\), each driver in a process of its own: 12 rounds/);
  assert.equal(results.complete, true);
  assert.deepEqual(results.benches.map((e) => `${e.name}@${e.concurrency}${e.rate ? ` ${e.rate.askedPerSec}/s` : ''}`),
    ['a@1', 'b@1', 'a@1 500/s', 'b@1 500/s', 'a@4', 'b@4', 'a@4 500/s', 'b@4 500/s']);
  // The opens follow the same loop: the level is each process's connections.
  const opens = log.filter((t) => t.cmd === 'open').map((t) => `${t.args.bench}@${t.args.concurrency}`);
  assert.deepEqual(opens.filter((_, i) => i % 2 === 0), ['a@1', 'b@1', 'a@1', 'b@1', 'a@4', 'b@4', 'a@4', 'b@4']);
  // The rate pass's windows run the open schedule at half the slowest row's 1000 ops/s.
  const rated = log.filter((t) => t.cmd === 'window' && t.args.rate);
  assert.equal(rated.length, 2 * 2 * 2 * SETTINGS.rounds);
  assert.ok(rated.every((t) => t.args.rate.perSec === 500));
});

test('an interrupted run keeps the benches it finished, drops the one it was in, and says why with the signal\'s exit code', async () => {
  const controller = new AbortController();
  const figures = (w) => {
    if (w.index === SETTINGS.rounds * 2 + 3) controller.abort(new Interrupted('SIGINT'));
    return steady(w);
  };
  const { processes } = fakeDriverProcesses({ figures });
  const { args } = runArgs(processes, {}, { signal: controller.signal });
  const results = await measureRunHeld(args);
  assert.equal(results.exitCode, new Interrupted('SIGINT').exitCode);
  assert.equal(results.stoppedBy, 'interrupted by SIGINT');
  assert.equal(results.complete, false);
  assert.deepEqual(results.benches.map((e) => e.name), ['a']);
  assert.ok(results.health, 'the health over the run is recorded however it ends');
});

test('an error that is neither an interruption nor a lost server is thrown from the run; a bench\'s own tables that throw are one error line', async () => {
  const { processes } = fakeDriverProcesses({ figures: steady });
  const benches = [benchNamed('a', { tables: () => { throw new Error('no column x'); } }), benchNamed('b', { plan: () => { throw new Error('a bug in the plan'); } })];
  const { args } = runArgs(processes, {}, { benches });
  const thrown = await measureRunHeld(args).catch((err) => err);
  assert.match(thrown.message, /a bug in the plan/);
  // It carries what the run measured before it, for the results file.
  assert.deepEqual(thrown.partial.benches.map((e) => e.name), ['a']);
  assert.equal(thrown.partial.stoppedBy, 'an unexpected error (a bug in the plan)');
  assert.deepEqual(thrown.partial.benches[0].tables[0].rows, [['could not make this bench\'s tables: no column x']]);
});
