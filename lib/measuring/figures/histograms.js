// Pure: latency histograms (HdrHistogram) in ns to 3 significant digits, their compressed base64 form,
// their summary in µs, and their exact merge.
import hdr from 'hdr-histogram-js';
import { round1 } from '../../common/stats.js';

export const NS_PER_US = 1000;
const SETTINGS = Object.freeze({ lowestDiscernibleValue: 1, highestTrackableValue: 3600e9, numberOfSignificantValueDigits: 3, bitBucketSize: 32, autoResize: true });

export const newHistogram = () => hdr.build(SETTINGS);

export const decodeHistogram = (base64) => hdr.decodeFromCompressedBase64(base64, 32, false);

export const encodeHistogram = (histogram) => hdr.encodeIntoCompressedBase64(histogram);

export function histogramSummary(histogram) {
  if (!histogram || histogram.totalCount === 0) return null;
  const at = (p) => round1(histogram.getValueAtPercentile(p) / NS_PER_US);
  // The max as a histogram knows it: the top of its highest bucket (what a decoded one holds).
  const max = round1(histogram.highestEquivalentValue(histogram.maxValue) / NS_PER_US);
  return { count: histogram.totalCount, p50: at(50), p90: at(90), p99: at(99), p999: at(99.9), max };
}

/** Each recorded value (the lowest of its bucket, in ns) with its count: [[value, count], …]. */
export function recordedValues(histogram) {
  const out = [];
  for (let i = 0; i < histogram.countsArrayLength; i++) {
    const n = histogram.getCountAtIndex(i);
    if (n > 0) out.push([histogram.valueFromIndex(i), n]);
  }
  return out;
}

export function mergeHistograms(encoded) {
  const parts = encoded.filter(Boolean).map(decodeHistogram);
  if (!parts.some((h) => h.totalCount > 0)) return null;
  const merged = newHistogram();
  for (const h of parts) merged.add(h);
  return merged;
}
