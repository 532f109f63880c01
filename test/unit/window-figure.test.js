// The window figure (lib/measuring/figures/window-fields.js) is one table: a field added to it
// arrives in every mode (timed, replay, --workers, rate), through the driver process's reply (the
// fake driver processes'), a bench's rounds, --workers' combining and the row's rounds; and a real
// driver process replies with exactly the table's fields in each mode. No server: a stand-in
// adapter answers `do` at once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WINDOW_FIELDS, combineWindows, windowFigure } from '../../lib/measuring/figures/window-fields.js';
import { summarizeWindows } from '../../lib/measuring/figures/row-figures.js';
import { measureBench } from '../helpers/one-bench.js';
import { DriverHandle } from '../../lib/measuring/processes/driver-handle.js';
import { fakeDriverProcesses } from '../helpers/fake-driver.js';

/** A field `probe` in the window figure while `fn` runs: summed over --workers, kept in each round. */
async function withProbe(fn) {
  WINDOW_FIELDS.probe = { combine: (values) => values.reduce((a, v) => a + v, 0), inRound: (v) => ({ probe: v }) };
  try {
    return await fn();
  } finally {
    delete WINDOW_FIELDS.probe;
  }
}

const rateCounts = { scheduled: 10, started: 10, completed: 10, skipped: 0, late: 0, behind: 0, measureSeconds: 0.02, p50Us: 100, p99Us: 200 };

/** Fake driver processes (test/helpers/fake-driver.js) whose window measures `probe` besides the usual figures. */
const standIns = () => fakeDriverProcesses({ figures: ({ args }) => ({ probe: 3, unlisted: 1, rate: args.rate ? rateCounts : undefined }) }).processes;

const MODES = {
  timed: {},
  replay: { replay: { warmupOps: 64 } },
  workers: { workers: 2 },
  rate: { rate: { perSec: [1000] }, benchRate: { askedPerSec: 1000, schedule: 'uniform', seed: 1, latencyLimitMs: 0 } },
};

test('a field added to the window figure reaches every row\'s rounds, in every mode', async () => {
  await withProbe(async () => {
    for (const [mode, { benchRate = null, ...extra }] of Object.entries(MODES)) {
      const { rows } = await measureBench({
        bench: { name: 'do', plan: () => ({ protocol: 'text' }) },
        drivers: [{ name: 'a' }, { name: 'b' }],
        processes: standIns(),
        admin: null,
        context: {},
        settings: { rounds: 30, lead: 0.002, warmup: 0, processes: 2, callTimeoutMs: 1000, ...extra },
        level: 1,
        windowS: 0.02,
        benchRate,
        serverAlive: async () => true,
      });
      const perWindow = mode === 'workers' ? 6 : 3;
      for (const row of rows) {
        assert.equal(row.status, 'ok', `${mode}: ${row.error}`);
        assert.equal(row.rounds.length, 30);
        assert.ok(row.rounds.every((r) => r.probe === perWindow), `${mode}: ${JSON.stringify(row.rounds[0])}`);
        assert.ok(row.rounds.every((r) => !('unlisted' in r)), 'what is not in the table is not copied');
        if (mode === 'rate') assert.ok(row.rounds.every((r) => r.p50Us === 100) && row.rate.completed === 300);
      }
    }
  });
});

test('the pure paths copy the table\'s fields and nothing else', async () => {
  await withProbe(() => {
    const w = windowFigure({ opsPerSec: 10, ops: 5, cpuUs: 50, gcMs: 1, probe: 2, measuredFrom: 0 });
    assert.deepEqual(Object.keys(w), Object.keys(WINDOW_FIELDS));
    assert.equal(combineWindows([w, w]).probe, 4);
    assert.equal(combineWindows([w, w]).opsPerSec, 20);
    const row = summarizeWindows([{ ...w, round: 0, process: 0 }, { ...w, round: 1, process: 1 }]);
    assert.deepEqual(row.rounds.map((r) => r.probe), [2, 2]);
    assert.deepEqual(Object.keys(row.rounds[0]), ['round', 'process', 'opsPerSec', 'samples', 'ops', 'cpuUsPerOp', 'gcMs', 'probe']);
  });
});

test('a driver process replies with exactly the window figure\'s fields: timed, bare, replay and rate', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'mdb-window-figure-'));
  const adapter = join(dir, 'instant-adapter.js');
  writeFileSync(adapter, `export default {
  name: 'instant',
  async connect() { return { query: async () => ({ affectedRows: 0, warningStatus: 0 }), close: async () => {} }; },
};\n`);
  const handle = await DriverHandle.start({ driver: { name: 'instant', loadSpec: adapter }, target: {}, context: {} });
  t.after(async () => {
    await handle.end();
    rmSync(dir, { recursive: true, force: true });
  });
  const fields = Object.keys(WINDOW_FIELDS);
  const open = { bench: 'do', concurrency: 1, warmup: 0.01, settle: false, callTimeoutMs: 5000, windowS: 0.02, lead: 0.002 };
  await handle.turn('open', open, 10000);
  for (const args of [{}, { bare: true }, { rate: { perSec: 2000, schedule: 'uniform', seed: 1, latencyLimitMs: 0 } }]) {
    const w = await handle.turn('window', { lead: 0.002, windowS: 0.02, ...args }, 10000);
    assert.deepEqual(Object.keys(w), fields, JSON.stringify(args));
    assert.ok(w.opsPerSec > 0 && w.ops > 0);
  }
  const opened = await handle.turn('open', { ...open, warmupOps: 64 }, 10000);
  assert.ok(opened.fixed?.ops > 0, 'a replayed row\'s window is fixed in operations');
  const w = await handle.turn('window', { lead: 0.002, windowS: 0.02, fixed: { ...opened.fixed, ops: 7 } }, 10000);
  assert.deepEqual(Object.keys(w), fields);
  assert.equal(w.ops, 7, 'the window the rounds sized');
  await handle.turn('close', {}, 10000);
});
