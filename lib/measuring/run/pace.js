// A timed --replay run's pace: its benches' rounds share what is left of a time target, so that the
// run ends on time on a slow host as on a quiet one. What a bench spends before its rounds (starting
// processes, the warm-ups, a fixed number of operations, and the sizing windows) grows with the
// host's slowness, and nothing else in the run gives way
// (docs/history/2026-11-26-replay-pace.md#2026-11-26-afternoon-a-runs-pace-issue-33).
import { mean } from '../../common/stats.js';

// The seconds a timed --replay run of default lengths aims to take, counted from the harness's own
// start (so a capture counts too; the report after the last round takes under a second), and the
// least budget per driver and bench its rounds get however late the run is (three quarters of
// REPLAY_BUDGET_S, resolve-run.js).
export const REPLAY_RUN_TARGET_S = 88;
export const REPLAY_MIN_BUDGET_S = 2;

/**
 * Pure: the rounds' budget per driver for the bench about to start its rounds. The time left to
 * the target, less what the later benches are expected to spend before their rounds (the mean of
 * `gapsS`, what each bench so far spent before its rounds, this one's included), shared evenly among
 * the rounds' rows of this bench and the later ones; never more than `budgetS` (the bench's own
 * budget), never less than `minS`. The first bench keeps its budget: one gap, which carries the
 * run's first start-ups, is no guide to the others.
 */
export function pacedBudget({ budgetS, minS, targetS, elapsedS, gapsS, rowsNow, rowsAfter, benchesAfter }) {
  if (gapsS.length < 2) return budgetS;
  const share = (targetS - elapsedS - mean(gapsS) * benchesAfter) / Math.max(1, rowsNow + rowsAfter);
  return Math.round(Math.min(budgetS, Math.max(minS, share)) * 1000) / 1000;
}

/**
 * The run's clock for pacedBudget: `roundsStart(rows)` when a bench's rounds begin (returns its
 * budget per driver), `roundsEnd()` when they end. `rowsPerBench`: the rows a later bench is
 * expected to measure (the run's drivers). `now()`: seconds since the harness started.
 */
export function startPace({ targetS = REPLAY_RUN_TARGET_S, minS = REPLAY_MIN_BUDGET_S, budgetS, benches, rowsPerBench, now = () => performance.now() / 1000 }) {
  let lastEnd = now();
  let benchesLeft = benches;
  const gapsS = [];
  return {
    roundsStart(rowsNow) {
      const t = now();
      gapsS.push(t - lastEnd);
      benchesLeft -= 1;
      return pacedBudget({ budgetS, minS, targetS, elapsedS: t, gapsS, rowsNow, rowsAfter: benchesLeft * rowsPerBench, benchesAfter: benchesLeft });
    },
    roundsEnd() {
      lastEnd = now();
    },
  };
}
