// calibrate --count, the pure parts: rows from a cycles count and timed runs, the ratios and their errors
// against time, the weight fit and its held-out test. The command on real runs: calibrate-count.test.js.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CYCLE_WEIGHTS, weighedEvents } from '../../lib/replay/counters/cycles.js';
import { calibrateCounts, calibrationInputs, instructionRatio, ratioErrorPct } from '../../lib/results/count-calibration.js';
import { cycleRatio, fitCycleWeights, fitLoss } from '../../lib/results/cycle-weight-fit.js';
import { renderCountCalibration } from '../../lib/reporting/count-calibration-text.js';

// Events per operation of made-up rows: each bench's three drivers differ in how much they miss.
const events = (instructions, { data = 0.4, l1 = 0.02, ll = 0.002, br = 0.005 } = {}) => ({
  instructions, dataAccesses: instructions * data, l1Misses: instructions * l1, llMisses: instructions * ll, branchMispredicts: instructions * br,
});
const BENCHES = {
  do: [events(43000), events(25000, { l1: 0.04, ll: 0.004, br: 0.002 }), events(23000, { l1: 0.01, ll: 0.003, br: 0.01 })],
  insert: [events(76000, { ll: 0.003 }), events(52000, { l1: 0.03, ll: 0.001, br: 0.008 }), events(108000, { l1: 0.005, ll: 0.0005, br: 0.003 })],
  batch: [events(300000, { br: 0.008 }), events(280000, { l1: 0.03, ll: 0.005, br: 0.004 }), events(250000, { l1: 0.025, ll: 0.001, br: 0.002 })],
  pipelining: [events(900000, { l1: 0.01 }), events(290000, { l1: 0.015, ll: 0.006, br: 0.009 }), events(400000, { l1: 0.03, ll: 0.004, br: 0.001 })],
  select_100_cols: [events(1300000), events(368000, { l1: 0.05, ll: 0.008, br: 0.003 }), events(500000, { l1: 0.012, ll: 0.0035, br: 0.007 })],
};
const TRUE_WEIGHTS = { l1Hit: 1, llHit: 9, ramHit: 120, branchMiss: 14 };
const DRIVERS = ['mysql', 'mysql2', 'mariadb'];

/** Rows whose time is exactly their estimated cycles under `weights`. */
function rowsTimedBy(weights) {
  return Object.entries(BENCHES).flatMap(([bench, [ref, ...others]]) => others.map((e, i) => ({
    bench, driver: DRIVERS[i + 1], reference: 'mysql', events: e, referenceEvents: ref,
    timeRatios: [weighedEvents(ref, weights) / weighedEvents(e, weights)], timeRatio: weighedEvents(ref, weights) / weighedEvents(e, weights),
  })));
}

test('a ratio error is symmetric in log space, and a count ratio is the reference over the row', () => {
  assert.equal(ratioErrorPct(2, 2), 0);
  assert.ok(Math.abs(ratioErrorPct(2, 1) - ratioErrorPct(0.5, 1)) < 1e-12);
  assert.ok(Math.abs(ratioErrorPct(1.05, 1) - 4.879) < 0.001);
  const row = { events: events(25000), referenceEvents: events(50000) };
  assert.equal(instructionRatio(row), 2);
  assert.equal(cycleRatio(row, CYCLE_WEIGHTS), 2, 'the same mix of misses: the same ratio as in instructions');
});

test('the fit finds the weights that made the times, and held out rows read them back', () => {
  const rows = rowsTimedBy(TRUE_WEIGHTS);
  const fitted = fitCycleWeights(rows);
  assert.ok(fitLoss(rows, fitted) < 1e-8, JSON.stringify(fitted));
  const c = calibrateCounts(rows);
  assert.equal(c.met, true);
  assert.ok(c.summaries.heldOut.largestPct < 0.1, JSON.stringify(c.summaries.heldOut));
  // The published weights miss, and instructions miss more.
  assert.ok(c.summaries.published.largestPct > 1, JSON.stringify(c.summaries.published));
  assert.ok(c.summaries.instructions.largestPct > c.summaries.heldOut.largestPct);
  for (const r of c.rows) assert.ok(r.heldOutWeights, `${r.bench} ${r.driver} has held-out weights`);
  // Held out by bench and driver: the row's own bench and driver were not in the fit.
  const text = renderCountCalibration(c, { sittings: 3 });
  assert.match(text, /verdict: estimated cycles track time here/);
  assert.match(text, /│ do +│ mysql2 +│ mysql +│ +1\.72 × │/);
});

test('times no weights can explain: the target is missed, and the verdict says by how much', () => {
  // mariadb's insert 30 % slower than any weighting of its events says.
  const rows = rowsTimedBy(TRUE_WEIGHTS).map((r) => (r.bench === 'insert' && r.driver === 'mariadb' ? { ...r, timeRatio: r.timeRatio / 1.3, timeRatios: [r.timeRatio / 1.3] } : r));
  const c = calibrateCounts(rows);
  assert.equal(c.met, false);
  assert.deepEqual(c.summaries.heldOut.largest, { bench: 'insert', driver: 'mariadb' });
  assert.ok(c.summaries.heldOut.largestPct > 10);
  assert.match(renderCountCalibration(c, { sittings: 3 }), /verdict: estimated cycles do not track time well enough here \(target, held out: median ≤ 5 %, largest ≤ 10 %; reached: median [\d.]+ %, largest [\d.]+ %\)/);
});

test('fits stay within physical bounds and need as many rows as weights', () => {
  assert.equal(fitCycleWeights(rowsTimedBy(TRUE_WEIGHTS).slice(0, 2)), null);
  assert.deepEqual(Object.keys(fitCycleWeights(rowsTimedBy(TRUE_WEIGHTS).slice(0, 2), { branch: false })), ['l1Hit', 'llHit', 'ramHit', 'branchMiss']);
  // Time that only instructions explain: no miss costs anything beyond its L1 access, the lowest bounds.
  const flat = rowsTimedBy(TRUE_WEIGHTS).map((r) => ({ ...r, timeRatio: weighedEvents(r.referenceEvents, { l1Hit: 1, llHit: 1, ramHit: 1, branchMiss: 0 }) / weighedEvents(r.events, { l1Hit: 1, llHit: 1, ramHit: 1, branchMiss: 0 }) }));
  const w = fitCycleWeights(flat);
  assert.ok(w.llHit >= 1 && w.ramHit >= w.llHit && w.branchMiss >= 0, JSON.stringify(w));
  assert.ok(fitLoss(flat, w) < 1e-8, JSON.stringify(w));
});

/** A results object as a run saves it: a bench's rows with their Δ against the reference. */
function runOf({ count, rows }) {
  return {
    settings: { baseline: 'mysql', replay: { figure: count ? 'cycles' : 'client cost' }, ...(count ? { count: { what: count } } : {}) },
    drivers: DRIVERS.map((name) => ({ name })),
    benches: Object.entries(rows).map(([name, results]) => ({ name, deltaReference: 'mysql', results })),
  };
}

test('inputs: each counted row against its reference, timed as the median of the sittings; a count without the breakdown is refused', () => {
  const [ref, a, b] = BENCHES.do;
  const counted = (driver, e) => ({ driver, ok: true, count: { what: 'cycles', events: e } });
  const counts = runOf({ count: 'cycles', rows: { do: [counted('mysql', ref), counted('mysql2', a), counted('mariadb', b)] } });
  const timed = (d2, d3) => runOf({ rows: { do: [{ driver: 'mysql', ok: true, deltaPct: 0 }, { driver: 'mysql2', ok: true, deltaPct: d2 }, { driver: 'mariadb', ok: true, deltaPct: d3 }] } });
  const rows = calibrationInputs(counts, [timed(70, 80), timed(74, 90), timed(72, -100 + 1e-9)]);
  assert.deepEqual(rows.map((r) => [r.driver, r.reference, r.timeRatio]), [['mysql2', 'mysql', 1.72], ['mariadb', 'mysql', 1.8]]);
  assert.deepEqual(rows[0].timeRatios, [1.7, 1.74, 1.72]);
  delete counts.benches[0].results[1].count.events.dataAccesses;
  assert.throws(() => calibrationInputs(counts, [timed(70, 80)]), /^Error: do · mysql2: its count keeps no dataAccesses \(counted by an older harness: count again\)$/);
  assert.throws(() => calibrationInputs(runOf({ count: 'instructions', rows: {} }), []), /the count run is a instructions run, not a --count cycles one/);
});
