// Pure: latency histograms (HdrHistogram, hdr-histogram-js) in nanoseconds to 3 significant digits,
// their compressed base64 form, their summary in µs, and their exact merge (a row's processes, two
// results files' rows: the histogram one recorder would have made of all the values).
import hdr from 'hdr-histogram-js';
import { round1 } from '../../common/stats.js';

export const NS_PER_US = 1000;
const SETTINGS = Object.freeze({ lowestDiscernibleValue: 1, highestTrackableValue: 3600e9, numberOfSignificantValueDigits: 3, bitBucketSize: 32, autoResize: true });

export const newHistogram = () => hdr.build(SETTINGS);

/** A histogram from its compressed base64 form (the form results files carry). */
export const decodeHistogram = (base64) => hdr.decodeFromCompressedBase64(base64, 32, false);

/** The compressed base64 form of a histogram (HdrHistogram's standard encoding). */
export const encodeHistogram = (histogram) => hdr.encodeIntoCompressedBase64(histogram);

/** p50, p90, p99, p99.9 and max, in µs, of a histogram (null when it is empty). */
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

/** One histogram holding every value of several (given in compressed base64); null when none has any. */
export function mergeHistograms(encoded) {
  const parts = encoded.filter(Boolean).map(decodeHistogram);
  if (!parts.some((h) => h.totalCount > 0)) return null;
  const merged = newHistogram();
  for (const h of parts) merged.add(h);
  return merged;
}
