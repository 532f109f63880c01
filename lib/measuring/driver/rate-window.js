// --rate in the driver process: one window of the bench's operations on the open schedule
// (open-loop.js), timed by the waker (ticker.js), every result checked. Called by driver-process.js.
import { performance } from 'node:perf_hooks';
import { arrivalGaps, openLoopWindow, seededRandom } from './open-loop.js';
import { createWaker } from './ticker.js';
import { LatencyRecorder } from './latency.js';
import { ownCpuUs } from './sampler.js';
import { windowLead } from '../figures/window-sizing.js';
import { nearestRankOfSorted, round1 } from '../../common/stats.js';

const RATE_WARMUP_S = 0.3; // a openBench's open loop run unrecorded before its first window

let waker = null; // one per process, made at its first rate window

/** One window of the open bench at a rate; lags and counts kept on `openBench` for its close. */
export async function rateWindow(openBench, { lead, windowS, rate }) {
  const { ops, check, latencies } = openBench;
  waker ??= createWaker();
  await waker.ready;
  const gapsFor = (n) => arrivalGaps(rate.perSec, rate.schedule, seededRandom((rate.seed ?? 1) + 7919 * n));
  if (!openBench.rate) {
    // After a closed-loop warm-up, the open loop's own path is warmed unrecorded, or the first windows run far slower.
    openBench.rate = { lags: new LatencyRecorder(), windows: 0 };
    const discard = { push() {} };
    await openLoopWindow({ ops, check, gaps: gapsFor(0), leadMs: 0, measureMs: RATE_WARMUP_S * 1000, latencies: discard, lags: discard, clock: () => performance.now(), wakeAt: waker.wakeAt });
  }
  openBench.rate.windows++;
  const inWindow = []; // this window's own p50 and p99, paired with the other rows' in the same round
  const cpu0 = ownCpuUs();
  const w = await openLoopWindow({
    ops, check, gaps: gapsFor(openBench.rate.windows), leadMs: windowLead(lead, windowS) * 1000, measureMs: windowS * 1000,
    latencyLimitMs: rate.latencyLimitMs ?? 0, lags: openBench.rate.lags, clock: () => performance.now(), wakeAt: waker.wakeAt,
    latencies: { push: (us) => { latencies.push(us); inWindow.push(us); } },
  });
  latencies.addOperations(w.completed);
  inWindow.sort((a, b) => a - b);
  // Nearest rank, as the row's histogram percentiles are (stats.js).
  const at = (p) => (inWindow.length ? round1(nearestRankOfSorted(inWindow, p)) : null);
  // Up to the last completion: past the schedule's end when a backlog drained.
  const spanS = (w.measuredTo - w.measuredFrom) / 1000;
  return {
    opsPerSec: w.completed / spanS, samples: 1, ops: w.completed, opsRun: w.completed, measuredFrom: w.measuredFrom, measuredTo: w.measuredTo,
    cpuUs: ownCpuUs() - cpu0,
    rate: { scheduled: w.scheduled, started: w.started, completed: w.completed, skipped: w.skipped, late: w.late, behind: w.behind, measureSeconds: spanS, p50Us: at(50), p99Us: at(99) },
  };
}
