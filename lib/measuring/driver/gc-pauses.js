// GC pauses of this driver process, kept for a few seconds, to be summed over a window's measured part.
// Bun's perf_hooks has no 'gc' entries: its rows' GC figures are null, never a silent 0.
import { PerformanceObserver } from 'node:perf_hooks';

const GC_OBSERVED = PerformanceObserver.supportedEntryTypes?.includes('gc') ?? false;
const gcPauses = [];
if (GC_OBSERVED) {
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) gcPauses.push([e.startTime, e.duration]);
  }).observe({ entryTypes: ['gc'] });
}

/** The ms of GC pauses that started between `t0` and `t1` (performance.now()); null where none are observed. */
export function gcMsBetween(t0, t1) {
  if (!GC_OBSERVED) return null;
  let ms = 0;
  for (const [start, duration] of gcPauses) if (start >= t0 && start < t1) ms += duration;
  while (gcPauses.length && gcPauses[0][0] < t1 - 10000) gcPauses.shift();
  return ms;
}

/** How many collections started between `t0` and `t1` (performance.now()); null where none are observed. */
export function gcCountBetween(t0, t1) {
  if (!GC_OBSERVED) return null;
  let n = 0;
  for (const [start] of gcPauses) if (start >= t0 && start < t1) n++;
  return n;
}
