// The weights of an estimated cycle fitted to time (pure, deterministic): the LL-hit, RAM and misprediction
// weights that bring rows' ratios in estimated cycles closest to time's (least squares on the logs), by a
// pattern search from a grid of starts within physical bounds (an LL hit costs at least an L1 hit, RAM an LL hit).
import { weighedEvents } from '../replay/counters/cycles.js';

export const WEIGHT_BOUNDS = Object.freeze({ llHit: [1, 60], ramHit: [1, 600], branchMiss: [0, 100] });
const STARTS = { llHit: [2, 5, 15, 40], ramHit: [10, 35, 100, 300], branchMiss: [0, 5, 20, 60] };
const FIRST_STEP = { llHit: 4, ramHit: 30, branchMiss: 8 };
const LAST_STEP = 1e-3;

/** Pure: a row's ratio in estimated cycles under `weights`: its reference's over its own. */
export const cycleRatio = (row, weights) => weighedEvents(row.referenceEvents, weights) / weighedEvents(row.events, weights);

/** Pure: the sum of squared differences between the rows' ln ratios in estimated cycles and in time. */
export function fitLoss(rows, weights) {
  let sum = 0;
  for (const r of rows) sum += (Math.log(cycleRatio(r, weights)) - Math.log(r.timeRatio)) ** 2;
  return sum;
}

const clampWeights = (w) => {
  const llHit = Math.min(Math.max(w.llHit, WEIGHT_BOUNDS.llHit[0]), WEIGHT_BOUNDS.llHit[1]);
  return {
    l1Hit: 1, llHit,
    ramHit: Math.min(Math.max(w.ramHit, llHit, WEIGHT_BOUNDS.ramHit[0]), WEIGHT_BOUNDS.ramHit[1]),
    branchMiss: Math.min(Math.max(w.branchMiss, WEIGHT_BOUNDS.branchMiss[0]), WEIGHT_BOUNDS.branchMiss[1]),
  };
};

/** One pattern search from `start`: a step either way on each weight kept when it lowers the loss, steps halved when none does. */
function searchFrom(rows, start, free) {
  let best = clampWeights(start);
  let bestLoss = fitLoss(rows, best);
  const step = Object.fromEntries(free.map((k) => [k, FIRST_STEP[k]]));
  while (free.some((k) => step[k] >= LAST_STEP)) {
    let moved = false;
    for (const k of free) {
      for (const sign of [1, -1]) {
        const candidate = clampWeights({ ...best, [k]: best[k] + sign * step[k] });
        const loss = fitLoss(rows, candidate);
        if (loss < bestLoss - 1e-15) { best = candidate; bestLoss = loss; moved = true; }
      }
    }
    if (!moved) for (const k of free) step[k] /= 2;
  }
  return { weights: best, loss: bestLoss };
}

/**
 * The best fit, 3 decimals, or null with fewer rows than weights. `branch: false` keeps mispredictions
 * at 0 (to see whether they earn their place).
 */
export function fitCycleWeights(rows, { branch = true } = {}) {
  const free = branch ? ['llHit', 'ramHit', 'branchMiss'] : ['llHit', 'ramHit'];
  if (rows.length < free.length) return null;
  let best = null;
  for (const llHit of STARTS.llHit) {
    for (const ramHit of STARTS.ramHit) {
      for (const branchMiss of branch ? STARTS.branchMiss : [0]) {
        const found = searchFrom(rows, { llHit, ramHit, branchMiss }, free);
        if (!best || found.loss < best.loss - 1e-15) best = found;
      }
    }
  }
  const round = (x) => Math.round(x * 1000) / 1000;
  return { l1Hit: 1, llHit: round(best.weights.llHit), ramHit: round(best.weights.ramHit), branchMiss: round(best.weights.branchMiss) };
}
