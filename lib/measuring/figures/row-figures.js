// Pure: a driver's measured windows of one bench -> the figures of its row, and a run's window in words.
import { median, percentileOfSorted, relativeMarginOfError, round1, round3, sum } from '../../common/stats.js';
import { roundOf } from './window-fields.js';
import { allocationPerOp } from './allocation.js';

/** A run's window, in words: "(0.005 s lead-in + 0.019 s measured)". */
export const describeWindowLength = (settings) => `(${round3(settings.lead)} s lead-in + ${round3(settings.time / settings.rounds)} s measured)`;

/**
 * @param {Array<{round, opsPerSec, samples, ops, opsRun, cpuUs, gcMs, allocatedBytes, syscw, syscr, serverCpuUs}>} windows
 * @returns the row's figures: ops/s (median window), rme (95 % margin of the mean window), the
 * window-to-window spread (interquartile range / median, %), the windows themselves, and the cost
 * per operation (client CPU, GC pauses, server CPU) and the allocation per operation, summed over all windows.
 */
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
      // The server's CPU is read around the whole window: over every operation the window ran (its
      // lead-in, and any sample run again, besides the kept one).
      serverCpuUsPerOp: serverKnown ? round1(sum(windows.map((w) => w.serverCpuUs)) / sum(windows.map((w) => w.opsRun))) : null,
    } : null,
    // Bytes allocated, writes and reads per operation of the kept samples (allocation.js); null when not measured.
    allocation: allocationPerOp(windows),
    // Each window as the row's `rounds` keep it (window-fields.js), which the paired Δ is computed from.
    rounds: windows.map((w) => ({ round: w.round, process: w.process, ...roundOf(w) })),
    // The window figures, for `compare`'s test between two runs.
    sampleOpsPerSec: figures.map(round1),
    // How often a window ran again (sampler.js): without its lead-in, or a sample that came out short.
    windowReruns: {
      leadInStalled: sum(windows.map((w) => w.reruns?.leadInStalled ?? 0)),
      shortSamples: sum(windows.map((w) => w.reruns?.shortSamples ?? 0)),
    },
  };
}
