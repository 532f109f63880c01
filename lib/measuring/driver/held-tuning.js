// --rtt held in the driver process: the hold each way tuned once per bench on its reference row's
// driver, every row taking it so all share one emulation, and what it adds measured on each row
// (docs/network.md, 'Tuned so that a client sees the round trip asked for').
import { performance } from 'node:perf_hooks';
import { runCall, stallWatch } from './operation-calls.js';
import { mean, median, round1, round3, trimmedMean } from '../../common/stats.js';

const BLOCK_MS = 40; // about this long per held block
const PAIRS = 4; // unheld and held blocks per measurement, in alternating order
const STEPS = 3;

/** How close the added time per round trip must come to the RTT to be reported within it: ms. */
export const heldTolerance = (rttMs) => Math.max(0.01 * rttMs, 0.003);

/** Pure: the hold each way that adds `rttMs` per round trip beyond the path's own cost: 0.1 µs (0 is no hold) to the RTT. */
export function holdFor(rttMs, pathCostMs) {
  return Math.round(Math.min(rttMs, Math.max(1e-4, (rttMs - pathCostMs) / 2)) * 1e4) / 1e4;
}

/** Times `ops` unheld and held through `hold` (held-sockets.js): per round trip, by the trimmed means, `addedMs`. */
function heldTimer({ ops, check, rttMs, msPerOp, hold, callTimeoutMs, signal, clock }) {
  const calls = Math.min(2000, Math.max(24, Math.round(BLOCK_MS / (rttMs + msPerOp))));
  const oneOp = { ops, count: 1, check };
  // One stall timer per block, not one per call, whose cost would be in every time taken.
  const timeBlock = async (into) => {
    const watch = stallWatch(callTimeoutMs, signal);
    const run = async () => {
      for (let i = 0; i < calls; i++) {
        const t0 = clock();
        await runCall(oneOp);
        into.push(clock() - t0);
        watch.progress();
      }
    };
    try {
      await Promise.race([run(), watch.failed]);
    } finally {
      watch.stop();
    }
  };
  return {
    // Not kept: the first held operations after the unheld warm-up read high.
    async warmIn(ms) {
      hold.set(ms);
      await timeBlock([]);
    },
    async measure(ms) {
      const unheld = [];
      const held = [];
      let trips = 0;
      for (let p = 0; p < PAIRS; p++) {
        for (const side of p % 2 ? ['held', 'unheld'] : ['unheld', 'held']) {
          hold.set(side === 'held' ? ms : 0);
          hold.roundTrips();
          await timeBlock(side === 'held' ? held : unheld);
          if (side === 'held') trips += hold.roundTrips();
        }
      }
      const perOp = trips / (held.length * ops.length);
      const addedMs = perOp > 0 ? (trimmedMean(held) - trimmedMean(unheld)) / perOp : null;
      return { holdMs: ms, perOp, addedMs, loopbackP50Us: median(unheld) * 1000, heldP50Us: median(held) * 1000 };
    },
  };
}

const NO_ROUND_TRIP = 'an operation made no round trip';

const report = (rttMs, holdMs, pathCostMs, m) => ({
  holdMs,
  pathCostMs: round3(pathCostMs),
  addedMs: round3(2 * holdMs + pathCostMs),
  roundTripsPerOp: Math.round(m.perOp * 100) / 100,
  loopbackP50Us: round1(m.loopbackP50Us),
  heldP50Us: round1(m.heldP50Us),
  within: Math.abs(2 * holdMs + pathCostMs - rttMs) <= heldTolerance(rttMs),
});

/** Each next hold comes from the mean of the path-cost estimates so far: one alone moves too much. */
export async function tuneHold({ ops, check, rttMs, holdMs, msPerOp, hold, callTimeoutMs = 30000, signal, clock = () => performance.now() }) {
  const timer = heldTimer({ ops, check, rttMs, msPerOp, hold, callTimeoutMs, signal, clock });
  const steps = [];
  const pathCosts = [];
  const meanPathCost = () => mean(pathCosts);
  let ms = holdMs;
  try {
    await timer.warmIn(ms);
    for (let i = 0; i < STEPS; i++) {
      const m = await timer.measure(ms);
      steps.push(m);
      if (!(m.perOp > 0)) {
        hold.set(holdMs);
        return { holdMs, skipped: NO_ROUND_TRIP, steps };
      }
      pathCosts.push(m.addedMs - 2 * ms);
      ms = holdFor(rttMs, meanPathCost());
    }
  } catch (err) {
    hold.set(holdMs);
    throw err;
  }
  hold.set(ms);
  return {
    ...report(rttMs, ms, meanPathCost(), steps.at(-1)),
    tuned: true,
    steps: steps.map((s) => ({ holdMs: s.holdMs, addedMs: round3(s.addedMs) })),
  };
}

/** What `holdMs` adds per round trip, once, for a row taking its reference row's hold: as tuneHold, tuned: false. */
export async function measureHold({ ops, check, rttMs, holdMs, msPerOp, hold, callTimeoutMs = 30000, signal, clock = () => performance.now() }) {
  const timer = heldTimer({ ops, check, rttMs, msPerOp, hold, callTimeoutMs, signal, clock });
  let m;
  try {
    await timer.warmIn(holdMs);
    m = await timer.measure(holdMs);
  } finally {
    hold.set(holdMs);
  }
  if (!(m.perOp > 0)) return { holdMs, skipped: NO_ROUND_TRIP };
  return { ...report(rttMs, holdMs, m.addedMs - 2 * holdMs, m), tuned: false };
}
