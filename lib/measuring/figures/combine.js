// Pure: what several driver processes of one row reported, as one: the closings of a row's
// processes (their histograms merged exactly), and the windows that --workers ran at once.
import { encodeHistogram, histogramSummary, mergeHistograms } from './histograms.js';

/** What several processes of one row reported on closing, as one process's report. */
export function combineClosed(parts) {
  const sumOf = (figure) => parts.reduce((s, p) => s + (figure(p) ?? 0), 0);
  // The processes' histograms add exactly: the row's latencies as one recorder of them all.
  const merged = mergeHistograms(parts.map((p) => p.latency?.histogram));
  const lags = mergeHistograms(parts.map((p) => p.lag?.histogram));
  return {
    operations: sumOf((p) => p.operations),
    latency: merged && { ...histogramSummary(merged), max: Math.max(...parts.map((p) => p.latency?.max ?? 0)), histogram: encodeHistogram(merged) },
    lag: lags ? { ...histogramSummary(lags), histogram: encodeHistogram(lags) } : undefined,
    workload: parts[0].workload,
    rssMB: Math.max(...parts.map((p) => p.rssMB ?? 0)),
  };
}

/**
 * The windows several workers of one row ran at once (--workers), as one window: operations,
 * ops/s, CPU and collections summed, the bench's window counts summed field by field, a rate's counts
 * summed and its window percentiles the workers' mean (each worker's own latencies go to the row's
 * merged histogram exactly).
 */
export function combineWindows(parts) {
  const sum = (f) => parts.reduce((a, p) => a + (f(p) ?? 0), 0);
  const known = (f) => (parts.every((p) => Number.isFinite(f(p))) ? sum(f) : null);
  const sumFields = (objs) => (objs.every((o) => o && typeof o === 'object')
    ? Object.fromEntries(Object.keys(objs[0]).map((k) => [k, typeof objs[0][k] === 'number' ? objs.reduce((a, o) => a + (o[k] ?? 0), 0) : objs[0][k]]))
    : objs[0]);
  const rates = parts.map((p) => p.rate);
  const mean = (f) => { const xs = rates.map(f).filter(Number.isFinite); return xs.length ? xs.reduce((a, x) => a + x, 0) / xs.length : null; };
  return {
    opsPerSec: sum((p) => p.opsPerSec),
    samples: sum((p) => p.samples),
    ops: sum((p) => p.ops),
    opsRun: sum((p) => p.opsRun),
    seconds: Math.max(...parts.map((p) => p.seconds ?? 0)),
    cpuUs: sum((p) => p.cpuUs),
    gcMs: known((p) => p.gcMs),
    reruns: parts[0].reruns ? sumFields(parts.map((p) => p.reruns)) : parts[0].reruns,
    compileWaitMs: Math.max(...parts.map((p) => p.compileWaitMs ?? 0)),
    workload: parts[0].workload === undefined ? undefined : sumFields(parts.map((p) => p.workload)),
    rate: rates.every(Boolean) ? { ...sumFields(rates), measureSeconds: Math.max(...rates.map((x) => x.measureSeconds)), p50Us: mean((x) => x.p50Us), p99Us: mean((x) => x.p99Us) } : undefined,
  };
}
