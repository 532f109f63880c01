// Pure: what several driver processes of one row reported on closing, as one: their histograms
// merged exactly. (The windows that --workers ran at once combine by window-fields.js's table.)
import { sum } from '../../common/stats.js';
import { encodeHistogram, histogramSummary, mergeHistograms } from './histograms.js';

/** What several processes of one row reported on closing, as one process's report. */
export function combineClosed(parts) {
  const merged = mergeHistograms(parts.map((p) => p.latency?.histogram));
  const lags = mergeHistograms(parts.map((p) => p.lag?.histogram));
  return {
    operations: sum(parts.map((p) => p.operations ?? 0)),
    latency: merged && { ...histogramSummary(merged), max: Math.max(...parts.map((p) => p.latency?.max ?? 0)), histogram: encodeHistogram(merged) },
    lag: lags ? { ...histogramSummary(lags), histogram: encodeHistogram(lags) } : undefined,
    workload: parts[0].workload,
    rssMB: Math.max(...parts.map((p) => p.rssMB ?? 0)),
  };
}
