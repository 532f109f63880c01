// --rtt held in the driver process: the hold each way tuned on a driver, once per bench, and what it
// adds measured on every row.
//
// The run's probe (server/proxy/calibrate.js) tunes one hold on the harness's minimal client; a
// driver's path around a held round trip costs a few µs more or less than that client's. So after its
// unheld warm-up, the first process of the bench's reference row (the baseline's) times the bench's
// operations unheld and held, in interleaved blocks, estimates the path's own cost per round trip
// (what a round trip added beyond its two holds, counting round trips as held-sockets.js does) and
// sets the hold each way to (RTT - that cost) / 2. Every row of the bench takes that hold, so the
// drivers are compared under one emulation: a hold tuned per row would cancel whatever a driver does
// differently around a round trip, and its tuning's noise would land in the Δs
// (docs/history/2026-11-25-rtt.md#2026-11-26-morning---rtt-tuned-on-a-driver-once-per-bench-issue-32). The first process of each other row measures once what the hold adds to its
// own operations, and each row reports what its driver saw in the same minute: its loopback p50 and
// its held p50. A chunk is still never released before its hold.
import { performance } from 'node:perf_hooks';
import { runCall, stallWatch } from './operation-calls.js';
import { mean, median, round1, round3, trimmedMean } from '../../common/stats.js';

const BLOCK_MS = 40; // about this long per held block
const PAIRS = 4; // unheld and held blocks per measurement, in alternating order
const STEPS = 3;

/** How close the added time per round trip must come to the RTT to be reported within it: ms. */
export const heldTolerance = (rttMs) => Math.max(0.01 * rttMs, 0.003);

/**
 * Pure: the hold each way that makes the added time per round trip `rttMs`, given the path's own
 * cost per round trip (what was added beyond the two holds): between 0.1 µs (a hold of 0 is no
 * hold) and the RTT, to 0.1 µs.
 */
export function holdFor(rttMs, pathCostMs) {
  return Math.round(Math.min(rttMs, Math.max(1e-4, (rttMs - pathCostMs) / 2)) * 1e4) / 1e4;
}

/**
 * Times `ops` (one per connection, each result checked) unheld and held through `hold` ({ set(ms),
 * roundTrips() }, held-sockets.js). Returns { warmIn(ms), measure(ms) }: measure gives { holdMs,
 * perOp (round trips per operation and connection), addedMs (per round trip, by the trimmed means),
 * loopbackP50Us, heldP50Us }, and leaves the hold unheld.
 */
function heldTimer({ ops, check, rttMs, msPerOp, hold, callTimeoutMs, signal, clock }) {
  const calls = Math.min(2000, Math.max(24, Math.round(BLOCK_MS / (rttMs + msPerOp))));
  const oneOp = { ops, count: 1, check }; // each call: one operation per connection, checked
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

/** What a row reports of a measurement `m` at the hold `holdMs`, given the path's cost per round trip. */
const report = (rttMs, holdMs, pathCostMs, m) => ({
  holdMs,
  pathCostMs: round3(pathCostMs),
  addedMs: round3(2 * holdMs + pathCostMs),
  roundTripsPerOp: Math.round(m.perOp * 100) / 100,
  // What the client saw in the (last) measurement, at the median: its time per operation unheld (its
  // loopback, in the same process and minute) and held.
  loopbackP50Us: round1(m.loopbackP50Us),
  heldP50Us: round1(m.heldP50Us),
  within: Math.abs(2 * holdMs + pathCostMs - rttMs) <= heldTolerance(rttMs),
});

/**
 * Tune the hold each way from `holdMs` so that `ops` take `rttMs` longer per round trip held than
 * unheld (heldTimer). Each of STEPS measurements estimates the path's own cost per round trip; the
 * next hold, and the one kept, come from the mean of the estimates so far (one alone moves too
 * much). Returns { holdMs, pathCostMs, addedMs (what the kept hold adds, by that mean),
 * roundTripsPerOp, loopbackP50Us, heldP50Us, within, tuned: true, steps }, with the hold left set to
 * the kept one; or { holdMs, skipped } when an operation made no round trip, with the hold left at holdMs.
 */
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

/**
 * One measurement of what the hold `holdMs` adds to `ops` per round trip, the hold left unchanged
 * (a row that takes the hold its bench's reference row tuned). Returns what tuneHold does, with
 * tuned: false; or { holdMs, skipped } when an operation made no round trip.
 */
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
