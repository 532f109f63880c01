// A timed replay run's pace (measuring/pace.js): the rounds share what is left of the run's time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pacedBudget, startPace } from '../../lib/measuring/run/pace.js';
import { describeBudgetStops } from '../../lib/reporting/format.js';
import { runSettings } from '../../lib/resolve-run.js';

const base = { budgetS: 2.7, minS: 1.6, targetS: 88 };

test('the first bench keeps its budget; later, on time, a bench keeps it too', () => {
  assert.equal(pacedBudget({ ...base, elapsedS: 30, gapsS: [25], rowsNow: 3, rowsAfter: 18, benchesAfter: 6 }), 2.7);
  // 20 s in, two benches seen, each 5 s before its rounds: 68 s left, 25 of them for the five later
  // benches' gaps, 43 s for 18 rows.
  assert.equal(pacedBudget({ ...base, elapsedS: 20, gapsS: [5, 5], rowsNow: 3, rowsAfter: 15, benchesAfter: 5 }), 2.389);
  assert.equal(pacedBudget({ ...base, elapsedS: 10, gapsS: [3, 3], rowsNow: 3, rowsAfter: 15, benchesAfter: 5 }), 2.7);
});

test('late, the rounds give way, down to the least budget', () => {
  assert.equal(pacedBudget({ ...base, elapsedS: 44, gapsS: [8, 8, 8], rowsNow: 3, rowsAfter: 9, benchesAfter: 3 }), 1.667);
  assert.equal(pacedBudget({ ...base, elapsedS: 80, gapsS: [8, 8, 8], rowsNow: 3, rowsAfter: 9, benchesAfter: 3 }), 1.6);
  // The last bench takes what is left.
  assert.equal(pacedBudget({ ...base, elapsedS: 79, gapsS: [5, 5], rowsNow: 3, rowsAfter: 0, benchesAfter: 0 }), 2.7);
  assert.equal(pacedBudget({ ...base, elapsedS: 82, gapsS: [5, 5], rowsNow: 3, rowsAfter: 0, benchesAfter: 0 }), 2);
});

test("the run's clock counts from the harness's start and each bench's time before its rounds", () => {
  let t = 5; // the harness started 5 s ago (a capture)
  const pace = startPace({ ...base, benches: 3, rowsPerBench: 2, now: () => t });
  t = 25;
  assert.equal(pace.roundsStart(2), 2.7); // the first bench: 20 s before its rounds
  t = 30;
  pace.roundsEnd();
  t = 50; // gaps 20 and 20: 38 s left, 20 of them for the third bench's gap, 18 s for 4 rows: 4.5, capped
  assert.equal(pace.roundsStart(2), 2.7);
  t = 56;
  pace.roundsEnd();
  t = 80; // gaps 20, 20, 24: 8 s left for the last 2 rows
  assert.equal(pace.roundsStart(2), 2.7);
  t = 83.5;
  pace.roundsEnd();
  const late = startPace({ ...base, benches: 3, rowsPerBench: 2, now: () => t });
  t = 113.5;
  late.roundsStart(2);
  late.roundsEnd();
  t = 150; // already past the target: the least budget
  assert.equal(late.roundsStart(2), 1.6);
});

test('only a timed replay run of default lengths is paced', () => {
  const benches = [{ name: 'do' }];
  assert.deepEqual(runSettings({ replay: true, drivers: ['mysql2'] }, benches).pace, { targetS: 88, minBudgetS: 2 });
  assert.equal(runSettings({ replay: true, drivers: ['mysql2'], rounds: 30 }, benches).pace, undefined);
  assert.equal(runSettings({ replay: true, smoke: true, drivers: ['mysql2'] }, benches).pace, undefined);
  assert.equal(runSettings({ drivers: ['mysql2'] }, benches).pace, undefined);
});

test('a paced run says each bench its budget', () => {
  const stop = (name, rounds, budgetS) => ({ name, budgetStop: { rounds, of: 120, budgetS } });
  assert.equal(describeBudgetStops([stop('do', 104, 2.7), stop('insert', 100, 2.7)]), 'rounds: the time budget (2.7 s per driver and bench) ended do after 104, insert after 100 of 120');
  assert.equal(describeBudgetStops([stop('do', 104, 2.7), stop('insert', 70, 1.85)]), 'rounds: the time budget (s per driver) ended do after 104 (2.7 s), insert after 70 (1.85 s) of 120');
});
