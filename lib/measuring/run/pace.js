// A timed --replay run's pace: its benches' rounds share what is left of a time target, because what a
// bench spends before its rounds grows with the host's slowness and nothing else gives way
// (docs/history/2026-11-26-replay-pace.md#2026-11-26-afternoon-a-runs-pace-issue-33).
import { mean } from '../../common/stats.js';

// The target counts from the harness's own start, a capture included; the least budget per driver and
// bench is about three quarters of REPLAY_BUDGET_S (resolve-run.js).
export const REPLAY_RUN_TARGET_S = 88;
export const REPLAY_MIN_BUDGET_S = 2;

/**
 * Pure: `gapsS` is what each bench so far spent before its rounds. The first bench keeps its budget:
 * one gap, which carries the run's first start-ups, is no guide to the others.
 */
export function pacedBudget({ budgetS, minS, targetS, elapsedS, gapsS, rowsNow, rowsAfter, benchesAfter }) {
  if (gapsS.length < 2) return budgetS;
  const share = (targetS - elapsedS - mean(gapsS) * benchesAfter) / Math.max(1, rowsNow + rowsAfter);
  return Math.round(Math.min(budgetS, Math.max(minS, share)) * 1000) / 1000;
}

/** The run's clock for pacedBudget: `roundsStart(rows)` returns a bench's budget per driver; `now()`: seconds since the harness started. */
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
