// Records single-operation latencies of the operations timed in an HdrHistogram (hdr-histogram-js):
// every latency counted, in nanoseconds to 3 significant digits (0.1 %), in memory that does not grow
// with the run. Histograms add exactly: a row's processes, and two results files' rows, merge into
// the histogram one recorder would have made of all the values. How many operations the timed ones
// were taken from, and the largest latency, are kept beside it.
import hdr from 'hdr-histogram-js';

const NS_PER_US = 1000;
const SETTINGS = Object.freeze({ lowestDiscernibleValue: 1, highestTrackableValue: 3600e9, numberOfSignificantValueDigits: 3, bitBucketSize: 32, autoResize: true });

export const newHistogram = () => hdr.build(SETTINGS);

/** A histogram from its compressed base64 form (the form results files carry). */
export const decodeHistogram = (base64) => hdr.decodeFromCompressedBase64(base64, 32, false);

/** The compressed base64 form of a histogram (HdrHistogram's standard encoding). */
export const encodeHistogram = (histogram) => hdr.encodeIntoCompressedBase64(histogram);

const round1 = (x) => Math.round(x * 10) / 10;

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

export class LatencyRecorder {
  constructor() {
    this.histogram = newHistogram();
    this.length = 0; // latencies recorded
    this.operations = 0; // operations they were taken from
    this.max = 0;
  }

  /** `n` operations ran, some of them timed (push). */
  addOperations(n) {
    this.operations += n;
  }

  push(us) {
    this.length++;
    if (us > this.max) this.max = us;
    this.histogram.recordValue(Math.max(1, Math.round(us * NS_PER_US)));
  }

  /** The latency below which `p` % of the recorded ones fall, in µs. */
  percentile(p) {
    return this.length ? this.histogram.getValueAtPercentile(p) / NS_PER_US : null;
  }

  /** p50, p90, p99, p99.9 and the exact max, in µs; null when nothing was timed. */
  summary() {
    const s = histogramSummary(this.histogram);
    if (!s) return null;
    // A percentile is its bucket's highest value, which can pass the exact max by under 0.1 %.
    const max = round1(this.max);
    return { ...s, p50: Math.min(s.p50, max), p90: Math.min(s.p90, max), p99: Math.min(s.p99, max), p999: Math.min(s.p999, max), max };
  }

  encode() {
    return encodeHistogram(this.histogram);
  }
}
