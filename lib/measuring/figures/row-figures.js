// Pure: a driver's measured windows of one bench -> the figures of its row, and a run's window in words.
import { median, percentileOfSorted, relativeMarginOfError, round1, round3, sum } from '../../common/stats.js';
import { roundOf } from './window-fields.js';
import { allocationPerOp } from './allocation.js';

/** A run's window, in words: "(0.005 s lead-in + 0.019 s measured)". */
export const describeWindowLength = (settings) => `(${round3(settings.lead)} s lead-in + ${round3(settings.time / settings.rounds)} s measured)`;

/** A row's figures from its windows: ops/s the median window's, costs per operation summed over all windows. */
export function summarizeWindows(windows) {
  const figures = windows.map((w) => w.opsPerSec);
  const sorted = Float64Array.from(figures).sort();
  const mid = median(figures);
  const ops = sum(windows.map((w) => w.ops));
  const serverKnown = windows.every((w) => Number.isFinite(w.serverCpuUs));
  return {
    opsPerSec: mid,
    rme: windows.length > 1 ? relativeMarginOfError(figures) : NaN,
    samples: sum(windows.map((w) => w.samples)),
    spreadPct: windows.length > 1 ? ((percentileOfSorted(sorted, 75) - percentileOfSorted(sorted, 25)) / mid) * 100 : 0,
    cost: ops > 0 ? {
      clientCpuUsPerOp: round1(sum(windows.map((w) => w.cpuUs)) / ops),
      gcMsPer1000Ops: windows.every((w) => Number.isFinite(w.gcMs)) ? round3((sum(windows.map((w) => w.gcMs)) / ops) * 1000) : null,
      // The server's CPU is read around the whole window: over every operation it ran.
      serverCpuUsPerOp: serverKnown ? round1(sum(windows.map((w) => w.serverCpuUs)) / sum(windows.map((w) => w.opsRun))) : null,
    } : null,
    allocation: allocationPerOp(windows),
    rounds: windows.map((w) => ({ round: w.round, process: w.process, ...roundOf(w) })),
    sampleOpsPerSec: figures.map(round1),
    windowReruns: {
      leadInStalled: sum(windows.map((w) => w.reruns?.leadInStalled ?? 0)),
      shortSamples: sum(windows.map((w) => w.reruns?.shortSamples ?? 0)),
    },
  };
}
