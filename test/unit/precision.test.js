// --precision: rounds go on, in batches, until every row's paired Δ interval is narrow enough.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MIN_ROUNDS, moreRounds, preciseEnough, PRECISION_BATCH } from '../../lib/measuring/run/schedule.js';
import { FULL_RUN_CELLS, PRESETS, roundsScale, runSettings } from '../../lib/resolve-run.js';
import { DEFAULT_BENCHES } from '../../benchs/index.js';
import { BUILTIN_DRIVERS } from '../../lib/drivers/index.js';

/** A cell whose windows alternate ±spread around `ops` (the reference's windows are steady). */
const cell = (name, ops, spread, n) => ({
  driver: { name },
  windows: Array.from({ length: n }, (_, round) => ({ round, opsPerSec: ops * (1 + (round % 2 ? spread : -spread)) })),
});

test('precise enough when every row\'s Δ interval against the reference is within the target', () => {
  const steady = [cell('mysql2', 1000, 0, 36), cell('mariadb', 1100, 0.005, 36)];
  const noisy = [cell('mysql2', 1000, 0, 36), cell('mariadb', 1100, 0.2, 36)];
  assert.equal(preciseEnough(steady, 'mysql2', 2), true);
  assert.equal(preciseEnough(noisy, 'mysql2', 2), false);
  assert.equal(preciseEnough(noisy, 'mysql', 2), false, 'no baseline row: the first driver is the reference');
  assert.equal(preciseEnough([cell('mysql2', 1000, 0.2, 36)], 'mysql2', 2), true, 'nothing to compare');
});

test('rounds: the fixed number without a target; with one, batches until it holds or the cap', () => {
  const settings = { rounds: 36, baseline: 'mysql2' };
  assert.equal(moreRounds(35, settings), true);
  assert.equal(moreRounds(36, settings), false);
  const noisy = [cell('mysql2', 1000, 0, 36), cell('mariadb', 1100, 0.2, 36)];
  const steady = [cell('mysql2', 1000, 0, 36), cell('mariadb', 1100, 0, 36)];
  const targeted = { rounds: 36, precision: 2, maxRounds: 72, baseline: 'mysql2' };
  assert.equal(moreRounds(36, targeted, { cells: noisy }), true, 'not precise: another batch');
  assert.equal(moreRounds(36, targeted, { cells: steady }), false, 'precise after the fixed rounds: stop');
  assert.equal(moreRounds(36 + 5, targeted, { cells: steady }), true, 'a batch is finished before precision is judged again');
  assert.equal(moreRounds(36 + PRECISION_BATCH, targeted, { cells: steady }), false);
  assert.equal(moreRounds(72, targeted, { cells: noisy }), false, 'the cap holds');
});

test('rounds: a time budget per driver stops new rounds once spent, never before MIN_ROUNDS', () => {
  const two = [cell('mysql2', 1000, 0, 0), cell('mariadb', 1100, 0, 0)];
  const settings = { rounds: 120, baseline: 'mysql2' };
  assert.equal(moreRounds(60, settings, { budget: 3.8, cells: two, elapsedS: 7.5 }), true, 'within 3.8 s per driver for 2 drivers');
  assert.equal(moreRounds(60, settings, { budget: 3.8, cells: two, elapsedS: 7.7 }), false, 'past it');
  assert.equal(moreRounds(MIN_ROUNDS - 1, settings, { budget: 3.8, cells: two, elapsedS: 100 }), true, 'the minimum is run whatever the time');
  assert.equal(moreRounds(60, settings, { budget: null, cells: two, elapsedS: 100 }), true, 'no budget: the rounds asked for');
});

const fullRun = { drivers: BUILTIN_DRIVERS, concurrency: 1 };

test('settings: only the default lengths have a budget', () => {
  const budget = (opts) => runSettings({ wake: { mode: 'none', spinners: 0 }, ...opts }, DEFAULT_BENCHES).budget;
  assert.equal(budget(fullRun), PRESETS.default.budget);
  assert.equal(budget({ rounds: 240 }), null);
  assert.equal(budget({ time: 5 }), null);
  assert.equal(budget({ precision: 2 }), null);
  assert.equal(budget({ smoke: true }), null);
});

test('settings: a run of fewer cells than the full run gets whole multiples of its rounds, time and budget, up to 4', () => {
  assert.deepEqual([1, 2, 12, 13, 17, 25, 26, FULL_RUN_CELLS, FULL_RUN_CELLS + 1].map(roundsScale), [4, 4, 4, 3, 3, 2, 1, 1, 1]);
  const settings = (opts, benches) => runSettings({ wake: { mode: 'none', spinners: 0 }, concurrency: 1, ...opts }, benches);
  const full = settings(fullRun, DEFAULT_BENCHES);
  assert.deepEqual([full.rounds, full.time, full.budget, full.roundsScale],
    [PRESETS.default.rounds, PRESETS.default.time, PRESETS.default.budget, 1], 'the full run: the defaults');
  const one = settings({ drivers: ['mysql2', 'mariadb'] }, DEFAULT_BENCHES.slice(0, 1));
  assert.deepEqual([one.rounds, one.time, one.budget, one.roundsScale],
    [4 * PRESETS.default.rounds, 4 * PRESETS.default.time, 4 * PRESETS.default.budget, 4], 'one bench, two drivers');
  assert.equal(one.time / one.rounds, PRESETS.default.time / PRESETS.default.rounds, 'windows of the same length');
  const seven = settings({ drivers: ['mysql2', 'mariadb'] }, DEFAULT_BENCHES.slice(0, 7));
  assert.deepEqual([seven.roundsScale, seven.time, seven.budget], [3, 6.9, 9.6], 'scaled figures as they read');
  const levels = settings({ drivers: BUILTIN_DRIVERS, concurrency: [1, 4, 16] }, DEFAULT_BENCHES.slice(0, 4));
  assert.equal(levels.roundsScale, 1, 'concurrency levels are cells too: 4 benches × 3 drivers × 3 levels');
  for (const asked of [{ rounds: 30 }, { time: 1 }, { precision: 2 }, { smoke: true }, { scaleSmallRuns: false }]) {
    assert.equal(settings({ drivers: ['mysql2'], ...asked }, DEFAULT_BENCHES.slice(0, 1)).roundsScale, 1, JSON.stringify(asked));
  }
});

test('settings: a default warm-up runs on until the driver is up to speed; one given, or a smoke run\'s, as given', () => {
  const settles = (opts) => runSettings({ wake: { mode: 'none', spinners: 0 }, ...opts }, []).warmupSettles;
  assert.equal(settles({}), true);
  assert.equal(settles({ rounds: 240 }), true, 'other lengths asked for leave the warm-up alone');
  assert.equal(settles({ warmup: 0.1 }), false);
  assert.equal(settles({ smoke: true }), false);
});

test('settings: a lead-in is at most a third of a window, so benchmark.js never keeps it as the sample', () => {
  const lead = (opts) => runSettings({ wake: { mode: 'none', spinners: 0 }, ...opts }, []).lead;
  assert.equal(lead({}), PRESETS.default.lead, 'the default fits: 5 ms against 19 ms windows');
  assert.ok(Math.abs(lead({ lead: 0.1, time: 1.2, rounds: 12 }) - 0.1 / 3) < 1e-12, 'cut to a third of 100 ms');
  assert.equal(lead({ smoke: true }), PRESETS.smoke.lead);
});

test('a lead-in cut to a third of a window is shown rounded, as the window is', async () => {
  const { describeRun } = await import('../../lib/reporting/table.js');
  const settings = runSettings({ wake: { mode: 'none', spinners: 0 }, lead: 0.1, ...fullRun }, DEFAULT_BENCHES);
  const text = describeRun({ settings, drivers: [], env: {}, server: null }).join('\n');
  assert.match(text, /120 rounds × \(0\.006 s lead-in \+ 0\.019 s measured\)/);
  const small = runSettings({ wake: { mode: 'none', spinners: 0 }, lead: 0.1, concurrency: 1 }, DEFAULT_BENCHES.slice(0, 1));
  assert.match(describeRun({ settings: small, drivers: [], env: {}, server: null }).join('\n'),
    /480 rounds \(4 × the default, for a run of few benches and drivers\) × \(0\.006 s lead-in \+ 0\.019 s measured\)/);
});

test('--precision is judged on the intervals the run will report: each at 95 % over its planned Δs', async () => {
  const { eachIntervalLevel, pairedDelta } = await import('../../lib/measuring/figures/paired-delta.js');
  const ref = cell('mysql2', 1000, 0, 36);
  const spread = { driver: { name: 'mariadb' }, windows: ref.windows.map((w) => ({ ...w, opsPerSec: 1100 * (1 + ((w.round * 7) % 36 - 18) / 600) })) };
  const target = pairedDelta(spread.windows, ref.windows).halfWidthPct + 0.01;
  assert.equal(preciseEnough([ref, spread], 'mysql2', target), true);
  assert.equal(preciseEnough([ref, spread], 'mysql2', target, eachIntervalLevel(7)), false, 'one of seven Δs needs more rounds');
  const settings = (opts, benches) => runSettings({ wake: { mode: 'none', spinners: 0 }, concurrency: 1, ...opts }, benches.map((name) => ({ name })));
  const seven = ['do', 'insert', 'batch', 'pipelining', 'select_100_cols', 'select_1000_rows', 'execute'];
  assert.equal(settings({ precision: 2, drivers: ['mysql', 'mysql2', 'mariadb'] }, seven).precisionLevel, eachIntervalLevel(14));
  assert.equal(settings({ precision: 2, drivers: ['mysql2', 'mariadb'], floor: true, concurrency: [1, 4] }, ['do']).precisionLevel, eachIntervalLevel(4));
  assert.equal(settings({ drivers: ['mysql2', 'mariadb'] }, ['do']).precisionLevel, undefined, 'no target, no level');
});
